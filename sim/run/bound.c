/* SPDX-License-Identifier: Apache-2.0 */
/* bound.c - what limits a run (bound.h). */
#include "run/bound.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const part_names[SIM_CPU_PART_COUNT] = {
    [SIM_CPU_WORK] = "work",       [SIM_CPU_HEAD_READ] = "head_read",
    [SIM_CPU_BARRIER] = "barrier", [SIM_CPU_LOCK] = "lock",
    [SIM_CPU_POLLING] = "polling",
};

const char *sim_cpu_part_name(enum sim_cpu_part k)
{
    return (unsigned)k < SIM_CPU_PART_COUNT ? part_names[k] : "?";
}

/* The bound, and the figure that shows it. */
struct bound {
    const char *name;
    double frac;
    int part; /* a CPU part, or -1 */
    int pool; /* a read pool, or -1 */
    const char *busiest; /* "latency": the busiest resource */
};

static const char *const cpu_names[SIM_CPU_PART_COUNT] = {
    [SIM_CPU_WORK] = "cpu", [SIM_CPU_HEAD_READ] = "cpu_head_read",
    [SIM_CPU_BARRIER] = "cpu_barrier", [SIM_CPU_LOCK] = "cpu_lock",
    [SIM_CPU_POLLING] = "cpu_polling"};

/* The CPU's largest part among those `mask` selects (ties: the first). */
static struct bound bound_cpu(const struct sim_result *r, unsigned mask, double frac)
{
    int k = SIM_CPU_WORK;

    for (int i = 1; i < SIM_CPU_PART_COUNT; i++)
        if ((mask & (1u << i)) && r->cpu_part[i] > r->cpu_part[k])
            k = i;
    return (struct bound){cpu_names[k], frac, k, -1, NULL};
}

/* The CPU's own time: what it spends working, at barriers and in locks
 * (not waiting on the device: head reads, polling). */
#define CPU_OWN (1u << SIM_CPU_WORK | 1u << SIM_CPU_BARRIER | 1u << SIM_CPU_LOCK)

/* Rule 1: the busiest resource, the CPU with its own time only. */
static struct bound bound_busiest(const struct sim_result *r)
{
    double own = r->cpu_part[SIM_CPU_WORK] + r->cpu_part[SIM_CPU_BARRIER] +
                 r->cpu_part[SIM_CPU_LOCK];
    struct bound b = bound_cpu(r, CPU_OWN, own);

    if (r->util_h2d > b.frac) b = (struct bound){"pcie_h2d", r->util_h2d, -1, -1, NULL};
    if (r->util_d2h > b.frac) b = (struct bound){"pcie_d2h", r->util_d2h, -1, -1, NULL};
    if (r->util_engine > b.frac) b = (struct bound){"device", r->util_engine, -1, -1, NULL};
    if (r->util_wire > b.frac) b = (struct bound){"wire", r->util_wire, -1, -1, NULL};
    return b;
}

/* Rule 3: credits, then the read pool at its cap longest, then the ring. */
static struct bound bound_starved(const struct sim_result *r)
{
    struct bound b = {NULL, 0, -1, -1, NULL};

    if (r->credit_stalled >= SIM_BOUND_STARVED)
        return (struct bound){"credits", r->credit_stalled, -1, -1, NULL};
    for (int k = 0; k < RD_POOL_COUNT; k++)
        if (r->pool_full[k] >= SIM_BOUND_STARVED && r->pool_full[k] > b.frac)
            b = (struct bound){rd_pool_name((enum rd_pool_kind)k), r->pool_full[k], -1, k,
                               NULL};
    if (!b.name && r->ring_full >= SIM_BOUND_STARVED)
        b = (struct bound){"ring", r->ring_full, -1, -1, NULL};
    return b;
}

static struct bound bound_of(const struct sim_result *r)
{
    struct bound b = bound_busiest(r), c;

    if (isnan(r->util_cpu))
        return (struct bound){NULL, NAN, -1, -1, NULL};
    if (b.frac >= SIM_BOUND_BUSY)
        return b;
    if (r->util_cpu >= SIM_BOUND_BUSY) /* Rule 2: busy, mostly waiting on the device */
        return bound_cpu(r, ~0u, r->util_cpu);
    c = r->util_engine < SIM_BOUND_DEVICE_BUSY ? bound_starved(r) : (struct bound){0};
    if (c.name)
        return c;
    return (struct bound){"latency", b.frac, -1, -1, b.name};
}

const char *sim_bound(const struct sim_result *r)
{
    return bound_of(r).name;
}

void sim_bound_why(const struct sim_result *r, char *buf, size_t n)
{
    static const char *const pool_why[RD_POOL_COUNT] = {
        [RD_POOL_TAGS] = "every read tag (--tags) in use",
        [RD_POOL_BYTES] = "the read byte budget (--max-read-bytes) full",
        [RD_POOL_FETCHES] = "every descriptor fetch slot (--desc-fetch-inflight) taken"};
    static const char *const part_why[SIM_CPU_PART_COUNT] = {
        [SIM_CPU_WORK] = "working",
        [SIM_CPU_HEAD_READ] = "stalled on MMIO (head) reads",
        [SIM_CPU_BARRIER] = "waiting at barriers for stores to drain",
        [SIM_CPU_LOCK] = "in locked instructions behind posted writes",
        [SIM_CPU_POLLING] = "in cleanup passes that reclaimed nothing"};
    struct bound b = bound_of(r);
    double pct = 100.0 * b.frac;

    if (!b.name)
        snprintf(buf, n, "%s", "");
    else if (b.part >= 0)
        snprintf(buf, n, "the busiest CPU busy %.0f%% of the run, %.0f%% %s",
                 100.0 * r->util_cpu, 100.0 * r->cpu_part[b.part], part_why[b.part]);
    else if (b.pool >= 0)
        snprintf(buf, n, "%s %.0f%% of the run", pool_why[b.pool], pct);
    else if (!strcmp(b.name, "credits"))
        snprintf(buf, n, "a flow-control credit type ran out %.0f%% of the run (see stalls)", pct);
    else if (!strcmp(b.name, "ring"))
        snprintf(buf, n, "a ring full of descriptors the device holds %.0f%% of the run "
                 "(--ring)", pct);
    else if (!strcmp(b.name, "latency"))
        snprintf(buf, n, "nothing busy %.0f%% of the run or starved half of it; the busiest, %s, "
                 "%.0f%%", 100.0 * SIM_BOUND_BUSY, b.busiest, pct);
    else
        snprintf(buf, n, "%s busy %.0f%% of the run", b.name, pct);
}
