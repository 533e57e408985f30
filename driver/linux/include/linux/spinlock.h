/* SPDX-License-Identifier: Apache-2.0 */
/*
 * linux/spinlock.h - spinlock_t, for nictx's kernel layer, on the
 * platform's (plat_spin_lock: a locked instruction that waits for the
 * CPU's posted MMIO writes, and acquire; plat_spin_unlock: a release
 * store).  The _bh and _irqsave forms are the same (no softirqs or
 * interrupts run inside a CPU's code in the model); no lock ever spins:
 * the harness runs one CPU's code at a time, and a lock held across a
 * wait is a harness matter.
 */
#ifndef _NICTX_LINUX_SPINLOCK_H
#define _NICTX_LINUX_SPINLOCK_H

#include "linux/nictx_layer.h"
#include "linux/types.h"

typedef struct {
    uint32_t lock;
} spinlock_t;

#define DEFINE_SPINLOCK(x) spinlock_t x = { 0 }
#define spin_lock_init(l) ((l)->lock = 0)
#define spin_lock(l) plat_spin_lock(kcpu_plat(), &(l)->lock)
#define spin_unlock(l) plat_spin_unlock(kcpu_plat(), &(l)->lock)
#define spin_lock_bh(l) spin_lock(l)
#define spin_unlock_bh(l) spin_unlock(l)
#define spin_lock_irqsave(l, flags) ((void)((flags) = 0), spin_lock(l))
#define spin_unlock_irqrestore(l, flags) ((void)(flags), spin_unlock(l))

int spin_trylock(spinlock_t *l) NICTX_UNMODELLED("spin_trylock()");

#endif
