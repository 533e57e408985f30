/* SPDX-License-Identifier: Apache-2.0 */
/*
 * asm/barrier.h - the kernel's barriers, for nictx's kernel layer: each is
 * the platform's (driver/platform.h), with the cost and the ordering the
 * memory model gives it (docs/model.md; sim/host/stbuf.h):
 *   wmb()       every earlier store, WC included, before later stores and
 *               MMIO writes (x86 sfence, arm64 dsb st): plat_wmb;
 *   dma_wmb()   earlier stores to coherent memory before later ones (x86 a
 *               compiler barrier, arm64 dmb oshst): plat_dma_wmb;
 *   mb(), smp_mb()   full barrier: plat_smp_mb (one model for both);
 *   smp_wmb()   stores to shared driver state, for other CPUs: plat_smp_wmb;
 *   rmb(), smp_rmb(), dma_rmb()   later loads after earlier ones:
 *               plat_smp_rmb;
 *   smp_mb__before_atomic(), smp_mb__after_atomic(): plat_smp_mb__after_atomic;
 *   smp_load_acquire(), smp_store_release(): 32-bit locations only.
 */
#ifndef _NICTX_ASM_BARRIER_H
#define _NICTX_ASM_BARRIER_H

#include "linux/compiler.h"
#include "linux/nictx_layer.h"

#define mb() plat_smp_mb(kcpu_plat())
#define rmb() plat_smp_rmb(kcpu_plat())
#define wmb() plat_wmb(kcpu_plat())
#define dma_rmb() plat_smp_rmb(kcpu_plat())
#define dma_wmb() plat_dma_wmb(kcpu_plat())
#define smp_mb() plat_smp_mb(kcpu_plat())
#define smp_rmb() plat_smp_rmb(kcpu_plat())
#define smp_wmb() plat_smp_wmb(kcpu_plat())
#define smp_mb__before_atomic() plat_smp_mb__after_atomic(kcpu_plat())
#define smp_mb__after_atomic() plat_smp_mb__after_atomic(kcpu_plat())

#define smp_load_acquire(p)                                                                     \
    ({                                                                                          \
        _Static_assert(sizeof(*(p)) == 4, "smp_load_acquire: 32-bit locations only");          \
        (__typeof__(*(p)))plat_load_acquire32(kcpu_plat(), (const uint32_t *)(p));             \
    })
#define smp_store_release(p, v)                                                                 \
    do {                                                                                        \
        _Static_assert(sizeof(*(p)) == 4, "smp_store_release: 32-bit locations only");         \
        plat_store_release32(kcpu_plat(), (uint32_t *)(p), (uint32_t)(v));                     \
    } while (0)

void read_barrier_depends(void) NICTX_UNMODELLED("read_barrier_depends() (gone from Linux 5.9)");

#endif
