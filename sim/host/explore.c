/* SPDX-License-Identifier: Apache-2.0 */
/*
 * explore.c - exploration schedules (see explore.h).
 */
#include "host/explore.h"

#include <string.h>

/* splitmix64 over (schedule, cpu, draw): independent of the run's seed. */
static uint64_t explore_draw(uint64_t schedule, unsigned cpu, unsigned k)
{
    uint64_t z = schedule * 0x9e3779b97f4a7c15ull + ((uint64_t)cpu << 32) + k + 0x45585000ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void explore_sched_for(uint64_t schedule, unsigned cpu, uint64_t packets,
                       struct explore_sched *out)
{
    unsigned k = 0;
    /* Shared accesses and stores a CPU makes per packet: a handful each. */
    uint64_t span = (packets ? packets : 1) * 8;

    memset(out, 0, sizeof(*out));
    if (schedule == 0)
        return;
    out->tail_ns = 200.0 * (double)(1u << (explore_draw(schedule, cpu, k++) % 5)); /* 0.2-3.2 us */
    out->tail_per_256 = 1 + (unsigned)(explore_draw(schedule, cpu, k++) % 32);
    out->cpu_tail_per_256 = 16u << (explore_draw(schedule, cpu, k++) % 4); /* 1/16-1/2 */
    out->hold_store = 1 + explore_draw(schedule, cpu, k++) % span;
    out->npoints = 1 + (unsigned)(explore_draw(schedule, cpu, k++) % EXPLORE_POINTS);
    for (unsigned i = 0; i < out->npoints; i++) {
        out->at[i] = 1 + explore_draw(schedule, cpu, k++) % span;
        out->stall_ns[i] = 100.0 * (double)(1u << (explore_draw(schedule, cpu, k++) % 11)); /* 0.1-102.4 us */
    }
    out->preempt_per_4096 = 16u << (explore_draw(schedule, cpu, k++) % 6); /* 1/256-1/8 */
    out->preempt_ns = 1000.0 * (double)(1u << (explore_draw(schedule, cpu, k++) % 8)); /* 1-128 us */
    out->early_per_256 = 16u << (explore_draw(schedule, cpu, k++) % 4); /* 1/16-1/2 */
    out->early_ns = 50.0 * (double)(1u << (explore_draw(schedule, cpu, k++) % 6)); /* 50 ns-1.6 us */
}

/* xorshift64*: the CPU's preemption draws. */
static uint64_t explore_next(uint64_t *rng)
{
    uint64_t x = *rng ? *rng : 0x9e3779b97f4a7c15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *rng = x;
    return x * 0x2545f4914f6cdd1dull;
}

double explore_point_ns(const struct explore_sched *e, uint64_t n)
{
    double ns = 0;

    for (unsigned k = 0; k < e->npoints; k++)
        if (e->at[k] == n)
            ns += e->stall_ns[k];
    return ns;
}

double explore_preempt_ns(const struct explore_sched *e, uint64_t *rng)
{
    if (e->preempt_per_4096 == 0 || explore_next(rng) % 4096 >= e->preempt_per_4096)
        return 0;
    return e->preempt_ns;
}
