/* SPDX-License-Identifier: Apache-2.0 */
/*
 * platform_bitops.c - the bitops and atomics of platform.h for a platform
 * without a memory model (the unit tests' recording fake, the SystemC
 * platform):
 * each on the newest value, through that platform's plat_read_once32 /
 * plat_write_once32, as on x86, where a locked op is the barrier.  The
 * simulator has its own (sim/run/platform_sim.c), in its memory model.
 */
#include "platform.h"

void plat_set_bit(struct platform *p, unsigned nr, uint32_t *word)
{
    plat_write_once32(p, word, *word | 1u << nr);
}

void plat_clear_bit(struct platform *p, unsigned nr, uint32_t *word)
{
    plat_write_once32(p, word, *word & ~(1u << nr));
}

int plat_test_and_set_bit(struct platform *p, unsigned nr, uint32_t *word)
{
    int old = (*word >> nr) & 1u;

    plat_smp_mb(p); /* a locked op: one full barrier */
    plat_set_bit(p, nr, word);
    return old;
}

int plat_test_and_clear_bit(struct platform *p, unsigned nr, uint32_t *word)
{
    int old = (*word >> nr) & 1u;

    plat_smp_mb(p); /* a locked op: one full barrier */
    plat_clear_bit(p, nr, word);
    return old;
}

int plat_test_bit(struct platform *p, unsigned nr, const uint32_t *word)
{
    return (plat_read_once32(p, word) >> nr) & 1u;
}

void plat_smp_mb__after_atomic(struct platform *p)
{
    (void)p; /* x86: the locked op was the barrier */
}

/* atomic_t: the same read-modify-write of the newest value; the
 * value-returning ones fully ordered (a locked op on x86: one barrier). */
uint32_t plat_atomic_fetch_add32(struct platform *p, uint32_t *word, uint32_t delta, int ordered)
{
    uint32_t old = *word;

    if (ordered)
        plat_smp_mb(p);
    plat_write_once32(p, word, old + delta);
    return old;
}

uint32_t plat_atomic_cmpxchg32(struct platform *p, uint32_t *word, uint32_t old, uint32_t val)
{
    uint32_t cur = *word;

    plat_smp_mb(p);
    if (cur == old)
        plat_write_once32(p, word, val);
    return cur;
}
