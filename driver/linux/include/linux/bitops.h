/* SPDX-License-Identifier: Apache-2.0 */
/*
 * linux/bitops.h - the kernel's bit operations on a bitmap in memory, for
 * nictx's kernel layer, on the platform's (plat_set_bit and friends:
 * atomic, ordered as Linux defines them, checked by the stop/wake checker
 * when the word is a queue's state).  Bit nr lives in the 32-bit word nr /
 * 32 of the bitmap (little-endian, so an unsigned long's bits are where
 * the kernel has them).  The non-atomic __set_bit and __clear_bit are plain
 * read-modify-writes (in the model as plain accesses).
 */
#ifndef _NICTX_LINUX_BITOPS_H
#define _NICTX_LINUX_BITOPS_H

#include "linux/kernel.h"
#include "linux/nictx_layer.h"

#define nictx_bit_word(nr, addr) ((uint32_t *)(addr) + (nr) / 32u)

static inline void set_bit(unsigned int nr, volatile unsigned long *addr)
{
    plat_set_bit(kcpu_plat(), nr % 32u, nictx_bit_word(nr, addr));
}

static inline void clear_bit(unsigned int nr, volatile unsigned long *addr)
{
    plat_clear_bit(kcpu_plat(), nr % 32u, nictx_bit_word(nr, addr));
}

static inline bool test_bit(unsigned int nr, const volatile unsigned long *addr)
{
    return plat_test_bit(kcpu_plat(), nr % 32u, (const uint32_t *)addr + nr / 32u);
}

static inline bool test_and_set_bit(unsigned int nr, volatile unsigned long *addr)
{
    return plat_test_and_set_bit(kcpu_plat(), nr % 32u, nictx_bit_word(nr, addr));
}

static inline bool test_and_clear_bit(unsigned int nr, volatile unsigned long *addr)
{
    return plat_test_and_clear_bit(kcpu_plat(), nr % 32u, nictx_bit_word(nr, addr));
}

static inline void __set_bit(unsigned int nr, unsigned long *addr)
{
    *nictx_bit_word(nr, addr) |= 1u << (nr % 32u);
}

static inline void __clear_bit(unsigned int nr, unsigned long *addr)
{
    *nictx_bit_word(nr, addr) &= ~(1u << (nr % 32u));
}

void change_bit(unsigned int nr, volatile unsigned long *addr) NICTX_UNMODELLED("change_bit()");
bool test_and_change_bit(unsigned int nr, volatile unsigned long *addr)
    NICTX_UNMODELLED("test_and_change_bit()");
void set_bit_lock(unsigned int nr, volatile unsigned long *addr)
    NICTX_UNMODELLED("the bit locks (test_and_set_bit_lock, clear_bit_unlock)");
bool test_and_set_bit_lock(unsigned int nr, volatile unsigned long *addr)
    NICTX_UNMODELLED("the bit locks (test_and_set_bit_lock, clear_bit_unlock)");
void clear_bit_unlock(unsigned int nr, volatile unsigned long *addr)
    NICTX_UNMODELLED("the bit locks (test_and_set_bit_lock, clear_bit_unlock)");

#endif
