/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kcsan.c - nictx's runtime for the compiler's ThreadSanitizer
 * instrumentation of driver code (docs/own-driver.md, Plain accesses).
 *
 * The driver's files are compiled with -fsanitize=thread (and, with GCC,
 * --param=tsan-distinguish-volatile=1 --param=tsan-instrument-func-entry-exit=0;
 * with clang the same through -mllvm), as the Linux kernel builds KCSAN:
 * before each load or store through a pointer the compiler calls
 * __tsan_readN / __tsan_writeN (__tsan_volatile_* for READ_ONCE /
 * WRITE_ONCE).  ThreadSanitizer's runtime (libtsan) is never linked: these
 * entry points are nictx's.  Each hands the access to the platform of the
 * CPU running the code (kcpu.h), which decides what it is (platform.h,
 * plat_access): DMA memory and shared driver state go to the memory model,
 * the stack and private memory straight through (the platform says where
 * it models accesses, kcpu.h: an access elsewhere costs a comparison and
 * no call).  With no CPU current
 * (harness code, a unit test's set-up), nothing happens.
 *
 * Function entry and exit (clang always calls them, GCC not with the param
 * above) and the module constructor's __tsan_init do nothing.  Atomic
 * builtins (__tsan_atomic*) are not provided: the build refuses a driver
 * object that calls one (Makefile, kdrv-check), with a message.
 *
 * This file is compiled without instrumentation.  Its one piece of state
 * is the current kcpu, a thread-local pointer (see kcpu.h for why).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "linux/kcpu.h"
#include "platform.h"

_Static_assert(KCPU_WINDOWS == 4, "kcpu_models tests four windows");

static _Thread_local struct kcpu *kcpu_cur;

struct kcpu *kcpu_swap(struct kcpu *k)
{
    struct kcpu *old = kcpu_cur;

    kcpu_cur = k;
    return old;
}

struct kcpu *kcpu_this(void)
{
    return kcpu_cur;
}

struct platform *kcpu_plat(void)
{
    if (kcpu_cur == NULL) {
        fprintf(stderr, "nictx: a kernel-layer call (driver/linux/) outside a simulated CPU: "
                        "driver code must run on a platform's CPU (kcpu.h)\n");
        abort();
    }
    return kcpu_cur->plat;
}

/* data_race(): the accesses inside are not modelled (compiler.h). */
void nictx_kcsan_disable(void);
void nictx_kcsan_enable(void);

void nictx_kcsan_disable(void)
{
    if (kcpu_cur)
        kcpu_cur->no_kcsan++;
}

void nictx_kcsan_enable(void)
{
    if (kcpu_cur)
        kcpu_cur->no_kcsan--;
}

static inline void kcsan_access(void *addr, size_t len, unsigned how)
{
    struct kcpu *k = kcpu_cur;

    if (k == NULL || k->no_kcsan || !kcpu_models(k, (uintptr_t)addr))
        return;
    plat_access(k->plat, addr, len, how);
}

/* The entry points, declared here (no header: only the compiler calls
 * them). */
#define KCSAN_SIZES(X, name, how) \
    X(name##1, 1, how) X(name##2, 2, how) X(name##4, 4, how) X(name##8, 8, how) \
    X(name##16, 16, how)
#define KCSAN_DECL(fn, n, how) void fn(void *addr);
#define KCSAN_DEF(fn, n, how) \
    void fn(void *addr) { kcsan_access(addr, n, how); }

/* Every entry point: its name's stem, and the access it is. */
#define KCSAN_ALL(X)                                                                  \
    KCSAN_SIZES(X, __tsan_read, 0)                                                    \
    KCSAN_SIZES(X, __tsan_write, PLAT_ACC_WRITE)                                      \
    KCSAN_SIZES(X, __tsan_unaligned_read, 0)                                          \
    KCSAN_SIZES(X, __tsan_unaligned_write, PLAT_ACC_WRITE)                            \
    KCSAN_SIZES(X, __tsan_volatile_read, PLAT_ACC_MARKED)                             \
    KCSAN_SIZES(X, __tsan_volatile_write, PLAT_ACC_MARKED | PLAT_ACC_WRITE)           \
    KCSAN_SIZES(X, __tsan_unaligned_volatile_read, PLAT_ACC_MARKED)                   \
    KCSAN_SIZES(X, __tsan_unaligned_volatile_write, PLAT_ACC_MARKED | PLAT_ACC_WRITE)

KCSAN_ALL(KCSAN_DECL)
KCSAN_ALL(KCSAN_DEF)

/* A range (clang's memory intrinsics, when instrumented): 8 bytes at a
 * time, as a copy loop makes them. */
void __tsan_read_range(void *addr, size_t len);
void __tsan_write_range(void *addr, size_t len);

static void kcsan_range(void *addr, size_t len, unsigned how)
{
    uint8_t *p = addr;

    while (len > 0) {
        size_t n = len < 8 ? len : 8;
        kcsan_access(p, n, how);
        p += n;
        len -= n;
    }
}

void __tsan_read_range(void *addr, size_t len)
{
    kcsan_range(addr, len, 0);
}

void __tsan_write_range(void *addr, size_t len)
{
    kcsan_range(addr, len, PLAT_ACC_WRITE);
}

void __tsan_func_entry(void *caller);
void __tsan_func_exit(void);
void __tsan_init(void);

void __tsan_func_entry(void *caller)
{
    (void)caller;
}

void __tsan_func_exit(void)
{
}

void __tsan_init(void)
{
}
