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
 * the kernel's algorithm (written anew here, not copied):
 *  - limit starts at min_limit; never above max_limit nor below min_limit;
 *  - on completion, if the queue was starved (all queued bytes completed
 *    while the limit had been reached), the limit grows by the bytes
 *    completed beyond it, plus the excess of the previous interval;
 *  - otherwise slack (what was left unused) is tracked, and once hold_time
 *    has passed without starvation the limit drops by the lowest slack.
 *
 * Cache lines: like the kernel's struct dql, the enqueue fields (written by
 * the transmit CPU) and the completion fields (written by the completion
 * CPU) live on separate 64-byte lines.  Every field access goes through
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

#define DQL_MAX_LIMIT ((1u << 30) - 1) /* the kernel's DQL_MAX_LIMIT */
#define DQL_LINE 64u

struct dql {
    /* Enqueue path (transmit CPU): one line. */
    alignas(DQL_LINE) uint32_t num_queued;   /* bytes queued in all */
    uint32_t adj_limit;                      /* limit + num_completed */
    uint32_t last_obj_cnt;                   /* bytes of the last dql_queued */
    enum dql_order order;

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

    /* Counters (not driver state; not touched). */
    uint64_t st_starved, st_grow, st_shrink;
};

/* Reset to min_limit.  hold_ns: slack hold time (> 0).  0, or -1 if
 * min_limit > max_limit or max_limit > DQL_MAX_LIMIT. */
int dql_init(struct dql *d, enum dql_order order, unsigned min_limit, unsigned max_limit,
             uint64_t hold_ns);
/* `count` more bytes were handed to the device. */
void dql_queued(struct dql *d, struct platform *p, unsigned count);
/* Bytes that may still be queued before the limit (negative: over it). */
int dql_avail(const struct dql *d, struct platform *p);
/* `count` bytes were completed by the device. */
void dql_completed(struct dql *d, struct platform *p, unsigned count);
/* Bytes queued and not yet completed. */
unsigned dql_in_flight(const struct dql *d, struct platform *p);
/* Back to dql_init's state with the same parameters (the kernel's
 * dql_reset, after a ring reset). */
void dql_reset(struct dql *d);

#endif /* NICTX_DQL_H */
