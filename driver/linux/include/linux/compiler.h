/* SPDX-License-Identifier: Apache-2.0 */
/*
 * linux/compiler.h - READ_ONCE, WRITE_ONCE and the compiler's hints, for
 * nictx's kernel layer.  READ_ONCE / WRITE_ONCE are volatile accesses, as
 * in the kernel: the instrumentation reports them as marked
 * (__tsan_volatile_*), and the memory model treats them as
 * plat_read_once32 / plat_write_once32 (platform.h).  __no_kcsan leaves a
 * function's accesses out of the model, and data_race() an expression's,
 * as the kernel's do.
 */
#ifndef _NICTX_LINUX_COMPILER_H
#define _NICTX_LINUX_COMPILER_H

#include "linux/types.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define barrier() __asm__ __volatile__("" : : : "memory")
#define __always_inline inline __attribute__((always_inline))
#define noinline __attribute__((noinline))
#define __maybe_unused __attribute__((unused))
#define __aligned(x) __attribute__((aligned(x)))
#define __packed __attribute__((packed))
#define __no_kcsan __attribute__((no_sanitize_thread))
#define ____cacheline_aligned __aligned(64)
#define ____cacheline_aligned_in_smp __aligned(64)

/* data_race(expr): an access the driver means to race (a statistic, a
 * hint it re-checks): evaluated with the model looking away, as the
 * kernel's data_race() has KCSAN look away (driver/linux/kcsan.c). */
void nictx_kcsan_disable(void);
void nictx_kcsan_enable(void);
#define data_race(expr)                                                                         \
    ({                                                                                          \
        nictx_kcsan_disable();                                                                  \
        __typeof__(({ expr; })) __v = (expr);                                                   \
        nictx_kcsan_enable();                                                                   \
        __v;                                                                                    \
    })

#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val)                                                                      \
    do {                                                                                        \
        *(volatile __typeof__(x) *)&(x) = (val);                                                \
    } while (0)

#endif
