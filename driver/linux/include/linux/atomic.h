/* SPDX-License-Identifier: Apache-2.0 */
/*
 * linux/atomic.h - atomic_t, for nictx's kernel layer.  atomic_read and
 * atomic_set are READ_ONCE / WRITE_ONCE of the counter; the read-modify-
 * writes are the platform's (plat_atomic_fetch_add32, plat_atomic_cmpxchg32):
 * the ones that return nothing are relaxed (x86: a locked instruction,
 * which costs and drains as smp_mb(); arm64: stadd), the ones that return
 * a value are fully ordered, as Linux defines them
 * (Documentation/atomic_t.txt).  atomic64_t and the _acquire / _release /
 * _relaxed variants are not modelled.
 */
#ifndef _NICTX_LINUX_ATOMIC_H
#define _NICTX_LINUX_ATOMIC_H

#include "asm/barrier.h"
#include "linux/compiler.h"
#include "linux/nictx_layer.h"
#include "linux/types.h"

#define ATOMIC_INIT(i) { (i) }
#define atomic_read(v) READ_ONCE((v)->counter)
#define atomic_set(v, i) WRITE_ONCE((v)->counter, (i))

static inline int nictx_atomic_fetch_add(atomic_t *v, int i, int ordered)
{
    return (int)plat_atomic_fetch_add32(kcpu_plat(), (uint32_t *)&v->counter, (uint32_t)i,
                                        ordered);
}

static inline void atomic_add(int i, atomic_t *v) { nictx_atomic_fetch_add(v, i, 0); }
static inline void atomic_sub(int i, atomic_t *v) { nictx_atomic_fetch_add(v, -i, 0); }
static inline void atomic_inc(atomic_t *v) { nictx_atomic_fetch_add(v, 1, 0); }
static inline void atomic_dec(atomic_t *v) { nictx_atomic_fetch_add(v, -1, 0); }
static inline int atomic_fetch_add(int i, atomic_t *v) { return nictx_atomic_fetch_add(v, i, 1); }
static inline int atomic_fetch_sub(int i, atomic_t *v) { return nictx_atomic_fetch_add(v, -i, 1); }
static inline int atomic_add_return(int i, atomic_t *v) { return atomic_fetch_add(i, v) + i; }
static inline int atomic_sub_return(int i, atomic_t *v) { return atomic_fetch_sub(i, v) - i; }
static inline int atomic_inc_return(atomic_t *v) { return atomic_add_return(1, v); }
static inline int atomic_dec_return(atomic_t *v) { return atomic_sub_return(1, v); }
static inline bool atomic_dec_and_test(atomic_t *v) { return atomic_dec_return(v) == 0; }
static inline bool atomic_inc_and_test(atomic_t *v) { return atomic_inc_return(v) == 0; }
static inline bool atomic_sub_and_test(int i, atomic_t *v) { return atomic_sub_return(i, v) == 0; }
static inline int atomic_cmpxchg(atomic_t *v, int old, int new_)
{
    return (int)plat_atomic_cmpxchg32(kcpu_plat(), (uint32_t *)&v->counter, (uint32_t)old,
                                      (uint32_t)new_);
}

typedef struct {
    long long counter;
} atomic64_t;
long long atomic64_read(const atomic64_t *v) NICTX_UNMODELLED("atomic64_t (32-bit atomic_t only)");
void atomic64_add(long long i, atomic64_t *v) NICTX_UNMODELLED("atomic64_t (32-bit atomic_t only)");
int atomic_xchg(atomic_t *v, int i) NICTX_UNMODELLED("atomic_xchg()");
int atomic_read_acquire(const atomic_t *v) NICTX_UNMODELLED("the _acquire atomics");
void atomic_set_release(atomic_t *v, int i) NICTX_UNMODELLED("the _release atomics");
int atomic_add_return_relaxed(int i, atomic_t *v) NICTX_UNMODELLED("the _relaxed atomics");

#endif
