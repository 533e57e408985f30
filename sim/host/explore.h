/* SPDX-License-Identifier: Apache-2.0 */
/*
 * explore.h - schedules for exploring a driver under what real hardware
 * may do to it (`nictx run --explore N`, `--schedule S`).
 *
 * A plain run is one timeline: each store drains after its modelled
 * service time (and, under weak ordering, a random delay of up to one miss
 * latency), and CPUs switch where their clocks say.  A race whose window is
 * longer than that is never seen.  Schedule S (1, 2, ...) changes the
 * timeline, deterministically for S, in three ways per CPU:
 *  - heavy-tailed store delays: each store is held back, with probability
 *    tail_per_256 / 256, by a Pareto (shape 1) delay of up to tail_ns
 *    (hundreds of ns to microseconds: a write-allocate miss, a snoop, an
 *    interrupt between a store and its drain);
 *  - one store held as long as the rules allow: store number hold_store
 *    drains only after tail_ns, or at the first barrier that orders it;
 *  - stores to shared driver state (plat_write_once32 and friends) are
 *    held back by the same tail with their own, higher probability
 *    cpu_tail_per_256 / 256: the store-buffer windows (x86's store->load
 *    reordering) that a missing smp_mb() opens;
 *  - PCT-style priority changes (Burckhardt et al., ASPLOS 2010): at
 *    npoints shared accesses (plat_read_once32 and friends), numbered per
 *    CPU, the CPU stalls for stall_ns, so the other CPU runs ahead of it
 *    across the driver's critical windows;
 *  - preemption: before each shared access and each buffer the cleanup
 *    unmaps (plat_dma_unmap: inside its reclaim loop), with probability
 *    preempt_per_4096 / 4096, the CPU is descheduled (an interrupt, a
 *    softirq, a vCPU the hypervisor took away) until everything else is
 *    quiet (every other CPU waiting, the device idle), or preempt_ns at most:
 *    the lowest priority of PCT.  The device drains the ring meanwhile, so
 *    a transmit path preempted between its test and its stop meets the
 *    cleanup's last pass.
 *  - under weak ordering, early loads: a load of shared state or of memory
 *    the device writes is performed, with probability early_per_256 / 256,
 *    up to early_ns before its time (ARMv8 lets loads to different
 *    addresses pass each other), never before the CPU's last load
 *    barrier (smp_rmb, dma_rmb, smp_mb, acquire, a fully ordered atomic,
 *    spin_lock, an MMIO read) nor before a time it already read the same
 *    location at.
 * Every rule still holds: TSO keeps stores in order, barriers wait for
 * what they order, a store to the same bytes stays coherent.
 * Pure functions of their arguments: no state.
 */
#ifndef NICTX_EXPLORE_H
#define NICTX_EXPLORE_H

#include <stdint.h>

#define EXPLORE_POINTS 3u

struct explore_sched {
    double tail_ns;          /* 0: a plain run (schedule 0) */
    unsigned tail_per_256;
    unsigned cpu_tail_per_256;
    uint64_t hold_store;     /* 1, 2, ...; 0: none */
    unsigned npoints;
    uint64_t at[EXPLORE_POINTS];   /* shared-access numbers (1, 2, ...) */
    double stall_ns[EXPLORE_POINTS];
    unsigned preempt_per_4096;
    double preempt_ns;
    unsigned early_per_256;  /* weak: a load performed early, with this chance */
    double early_ns;         /* ... by up to this much */
};

/* CPU `cpu`'s part of schedule `schedule` for a run of `packets` packets
 * (the points fall among its first accesses); schedule 0 is the plain run
 * (all zero). */
void explore_sched_for(uint64_t schedule, unsigned cpu, uint64_t packets,
                       struct explore_sched *out);

/* The fixed stall before a CPU's shared access number n (1, 2, ...) under
 * `e`, in ns (0: none). */
double explore_point_ns(const struct explore_sched *e, uint64_t n);
/* Whether the CPU is preempted before this shared access: the longest it
 * stays off its CPU in ns, or 0.  `rng` is the CPU's own generator state,
 * advanced only when preemption is on (a plain run draws nothing). */
double explore_preempt_ns(const struct explore_sched *e, uint64_t *rng);

#endif /* NICTX_EXPLORE_H */
