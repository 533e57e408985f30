/* SPDX-License-Identifier: Apache-2.0 */
/*
 * linux/kernel.h - the kernel's small helpers, for nictx's kernel layer:
 * min/max, container_of, ARRAY_SIZE, BUILD_BUG_ON, and WARN_ON / BUG_ON,
 * which report a violation ("driver_warn", "driver_bug": the driver's own
 * assertion failed) with the file and line.  printk and friends print
 * nothing (the run's report is the output).
 */
#ifndef _NICTX_LINUX_KERNEL_H
#define _NICTX_LINUX_KERNEL_H

#include <stdarg.h>

#include "asm/byteorder.h"
#include "linux/compiler.h"
#include "linux/nictx_layer.h"
#include "linux/types.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) ((type *)(void *)((char *)(ptr)-offsetof(type, member)))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define DIV_ROUND_UP(n, d) (((n) + (d)-1) / (d))
#define ALIGN(x, a) (((x) + (a)-1) & ~((__typeof__(x))(a)-1))
#define BUILD_BUG_ON(c) _Static_assert(!(c), "BUILD_BUG_ON(" #c ")")
#define BIT(n) (1UL << (n))
#define GENMASK(h, l) (((~0UL) << (l)) & (~0UL >> (63 - (h))))
#define BITS_PER_LONG 64

/* The driver's own assertion failed: a violation of `kind` naming it. */
void nictx_kernel_warn(const char *kind, const char *file, int line, const char *cond);
#define WARN_ON(c)                                                                              \
    ({                                                                                          \
        int __w = !!(c);                                                                        \
        if (unlikely(__w))                                                                      \
            nictx_kernel_warn("driver_warn", __FILE__, __LINE__, #c);                           \
        __w;                                                                                    \
    })
#define WARN_ON_ONCE(c) WARN_ON(c)
#define BUG_ON(c)                                                                               \
    do {                                                                                        \
        if (unlikely(c))                                                                        \
            nictx_kernel_warn("driver_bug", __FILE__, __LINE__, #c);                            \
    } while (0)
#define BUG() nictx_kernel_warn("driver_bug", __FILE__, __LINE__, "BUG()")

static inline __attribute__((format(printf, 1, 2))) int printk(const char *fmt, ...)
{
    (void)fmt;
    return 0;
}
#define pr_err(...) printk(__VA_ARGS__)
#define pr_warn(...) printk(__VA_ARGS__)
#define pr_info(...) printk(__VA_ARGS__)
#define pr_debug(...) printk(__VA_ARGS__)

#endif
