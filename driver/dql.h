/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dql.h - dynamic queue limits (BQL), as Linux lib/dynamic_queue_limits.c
 * computes them, for one transmit queue.
 *
 * The transmit path calls dql_queued() with the bytes it hands to the
 * device and asks dql_avail() whether it may queue more; the completion
 * path calls dql_completed() with the bytes the device finished.  The limit
 * grows when the queue ran dry while work was waiting (starvation) and
 * shrinks by the smallest slack seen over the hold time.  Behaviour follows
 * the kernel's algorithm as Linux 6.15 has it (lib/dynamic_queue_limits.c,
 * include/linux/dynamic_queue_limits.h; written anew here, not copied):
 *  - limit starts at min_limit; never above max_limit nor below min_limit;
 *  - on completion, if the queue was starved (all queued bytes completed
 *    while the limit had been reached), the limit grows by the bytes
 *    completed beyond it, plus the excess of the previous interval;
 *  - otherwise slack (what was left unused) is tracked, and once hold_time
 *    has passed without starvation the limit drops by the lowest slack;
 *  - dql_reset (a queue reset: netdev_tx_reset_queue) clears the counters
 *    and the interval's memory, sets the limit to min_limit and starts the
 *    hold period now; it keeps adj_limit (stale until the next completion,
 *    as in the kernel), the bounds, the hold time and the stall settings;
 *  - the stall detector (Linux 6.9, "net: dqs: add NIC stall detector
 *    based on BQL"), off unless a threshold is set: dql_queued marks the
 *    jiffy of each enqueue in a 4 x 64-bit history; dql_completed, once
 *    stall_thrs jiffies have passed since the last check, looks for an
 *    enqueue at least stall_thrs / 2 jiffies old that saw no completion
 *    since, and counts a stall (stall_cnt; stall_max the longest, in
 *    jiffies).  A jiffy is DQL_JIFFY_NS (HZ 1000, an assumption: kernels
 *    are built with HZ 100 to 1000).
 *
 * Cache lines: like the kernel's struct dql, the enqueue fields (written by
 * the transmit CPU, with the stall threshold and history) and the
 * completion fields (written by the completion CPU) live on separate
 * 64-byte lines; the stall detector's completion-side fields follow.  Every field access goes through
 * plat_cpu_touch(), in the order the kernel code makes it, so the
 * simulator's cache-line model charges what it costs.  dql_queued() comes
 * in two orders (netdev 2014, "dql: dql_queued() should write first"):
 * DQL_READ_FIRST reads num_queued, then writes it (a shared fetch, then an
 * upgrade, when the completion CPU last wrote the line); DQL_WRITE_FIRST
 * writes last_obj_cnt first, asking for the line exclusive at once.
 *
 * Single writer per side; the caller serialises each side (the simulator
 * runs them as coroutines on one timeline).  Time comes from
 * plat_time_ns().  No global state.
 */
#ifndef NICTX_DQL_H
#define NICTX_DQL_H

#include <stdalign.h>
#include <stdint.h>

#include "platform.h"

enum dql_order { DQL_WRITE_FIRST, DQL_READ_FIRST };

/* The kernel's bounds: one object at most UINT_MAX / 16 bytes, and the
 * limit such that limit + object stays below 2^31 (1879048192). */
#define DQL_MAX_OBJECT (UINT32_MAX / 16u)
#define DQL_MAX_LIMIT (UINT32_MAX / 2u - DQL_MAX_OBJECT)
#define DQL_LINE 64u
#define DQL_HIST_LEN 4u             /* history words */
#define DQL_HIST_BITS 64u           /* jiffies a word covers (BITS_PER_LONG) */
#define DQL_JIFFY_NS 1000000ull     /* HZ 1000 */
/* The stall threshold's range, in jiffies, as net-sysfs's stall_thrs
 * accepts it (0: off). */
#define DQL_STALL_THRS_MIN 4u
#define DQL_STALL_THRS_MAX (DQL_HIST_LEN / 2u * DQL_HIST_BITS)

struct dql {
    /* Enqueue path (transmit CPU): one line. */
    alignas(DQL_LINE) uint32_t num_queued;   /* bytes queued in all */
    uint32_t adj_limit;                      /* limit + num_completed */
    uint32_t last_obj_cnt;                   /* bytes of the last dql_queued */
    enum dql_order order;
    uint16_t stall_thrs;                     /* stall threshold, jiffies; 0: off */
    uint64_t history_head;                   /* jiffy / 64 of the newest word */
    uint64_t history[DQL_HIST_LEN];          /* a bit per jiffy with an enqueue */

    /* Completion path (completion CPU): another line. */
    alignas(DQL_LINE) unsigned limit;        /* current limit, bytes */
    uint32_t num_completed;                  /* bytes completed in all */
    unsigned prev_ovlimit;                   /* previous over-limit */
    unsigned prev_num_queued;                /* num_queued at the previous completion */
    unsigned prev_last_obj_cnt;              /* last_obj_cnt then */
    unsigned lowest_slack;                   /* lowest slack in this hold period */
    uint64_t slack_start_ns;                 /* start of the hold period */
    unsigned max_limit, min_limit;
    uint64_t slack_hold_ns;                  /* hold time (kernel: HZ, 1 s) */
    uint16_t stall_max;                      /* longest stall, jiffies */
    uint64_t last_reap;                      /* jiffy of the last stall check */
    uint64_t stall_cnt;                      /* stalls detected */

    /* Counters (not driver state; not touched). */
    uint64_t st_starved, st_grow, st_shrink;
    uint64_t st_too_big; /* dql_queued of more than DQL_MAX_OBJECT (the kernel WARNs) */
};

/* Set up at time 0 (a simulation's start), as the kernel's dql_init and
 * then the sysfs limits: the limit at min_limit, adj_limit too, the stall
 * detector off.  hold_ns: slack hold time (> 0).  0, or -1 if min_limit >
 * max_limit or max_limit > DQL_MAX_LIMIT. */
int dql_init(struct dql *d, enum dql_order order, unsigned min_limit, unsigned max_limit,
             uint64_t hold_ns);
/* The stall threshold, in jiffies (sysfs stall_thrs): 0 (off) or
 * DQL_STALL_THRS_MIN..DQL_STALL_THRS_MAX; switching it on starts the
 * checks now.  0, or -1 (out of range, nothing changed). */
int dql_set_stall_thrs(struct dql *d, struct platform *p, unsigned thrs);
/* `count` more bytes were handed to the device.  More than DQL_MAX_OBJECT
 * is ignored (the kernel WARNs once; counted in st_too_big). */
void dql_queued(struct dql *d, struct platform *p, unsigned count);
/* Bytes that may still be queued before the limit (negative: over it). */
int dql_avail(const struct dql *d, struct platform *p);
/* `count` bytes were completed by the device. */
void dql_completed(struct dql *d, struct platform *p, unsigned count);
/* Bytes queued and not yet completed. */
unsigned dql_in_flight(const struct dql *d, struct platform *p);
/* The kernel's dql_reset (netdev_tx_reset_queue, after a ring reset), at
 * the platform's time: see the top of this file. */
void dql_reset(struct dql *d, struct platform *p);

#endif /* NICTX_DQL_H */
