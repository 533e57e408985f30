/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dql.c - dynamic queue limits for one transmit queue (see dql.h).
 *
 * The algorithm is Linux 6.15's lib/dynamic_queue_limits.c (the limit's
 * rules unchanged since 2014; the stall detector from 6.9; dql_reset's
 * limit at min_limit from 6.15), re-derived and written anew.  Counters run
 * free and wrap (unsigned arithmetic); a difference is read as signed, so
 * every quantity compared must stay below 2^31, which DQL_MAX_LIMIT
 * guarantees for the limit and DQL_MAX_OBJECT for one dql_queued().
 *
 * Terms, at a call of dql_completed(count) (all in bytes):
 *  - in_flight = num_queued - num_completed: queued, not yet completed,
 *    before this completion;
 *  - ovlimit = max(in_flight - limit, 0): how far the queue was over its
 *    limit.  The transmit path may queue while dql_avail() >= 0, so the
 *    last object can overshoot the limit; ovlimit > 0 means the transmit
 *    path was (or would have been) stopped by the limit;
 *  - completed = num_completed + count: the new running completion total;
 *  - inprogress = num_queued - completed: still in flight afterwards;
 *  - prev_inprogress = prev_num_queued - num_completed: of what was queued
 *    at the previous completion, what was still outstanding before this one;
 *  - all_prev_completed = completed >= prev_num_queued: everything queued
 *    at the previous completion is now done.
 *
 * Starved (the limit held back work the device could have taken):
 *    (ovlimit && !inprogress)        over limit and now empty, or
 *    (prev_ovlimit && all_prev_completed)
 *                                    over limit last time and everything
 *                                    queued by then is done: the queue may
 *                                    have run dry between that completion
 *                                    and the next enqueue.
 *  Then limit += max(completed - prev_num_queued, 0) + prev_ovlimit (the
 *  bytes queued and completed within the interval, plus the previous
 *  overshoot) and the slack tracking restarts.
 * Busy through the whole interval (inprogress && prev_inprogress &&
 * !all_prev_completed):
 *    slack = max(limit + prev_ovlimit - 2 * count, 0), raised to
 *            max(prev_last_obj_cnt - prev_ovlimit, 0) if prev_ovlimit
 *    (twice the bytes completed in an interval bounds what is needed; the
 *    part of the last object that did not overshoot is rounding, not
 *    need); lowest_slack = min(lowest_slack, slack); and once more than
 *    slack_hold_ns has passed since the hold period began, limit -=
 *    lowest_slack (not below 0) and a new hold period begins.
 *  (prev_inprogress != 0 follows from !all_prev_completed; the kernel
 *  tests both and so does this code.)
 * Otherwise (the queue ran empty without being limited) nothing changes.
 * The limit is then clamped to [min_limit, max_limit]; if it changed,
 * ovlimit is recorded as 0 (the overshoot was measured against the old
 * limit).
 *
 * Worked example (min_limit 0): queue 10000, complete 10000.  in_flight
 * 10000, ovlimit 10000, inprogress 0: starved, limit = 0 + (10000 - 0) + 0
 * = 10000, adj_limit = 10000 + 10000 = 20000.  Queue 6000, complete 1000:
 * prev_inprogress 0, no change.  Queue 1000, complete 1000: in_flight
 * 6000, ovlimit 0, inprogress 5000, prev_inprogress 5000, not all previous
 * completed: slack = 10000 - 2 * 1000 = 8000 = lowest_slack; once the hold
 * time has passed, limit = 10000 - 8000 = 2000.
 *
 * Deviation: the kernel BUG()s when count exceeds the bytes in flight;
 * here such a call changes nothing (no limit, counter or total moves), so a
 * caller bug shows as a stuck queue rather than corrupt totals.
 */
#include "dql.h"

#include <limits.h>
#include <string.h>

/* Announce an access to field `f` of the dql to the platform. */
#define DQL_RD(p, f) plat_cpu_touch((p), &(f), sizeof(f), PLAT_READ)
#define DQL_WR(p, f) plat_cpu_touch((p), &(f), sizeof(f), PLAT_WRITE)
/* The fields the other side reads go through the memory model
 * (READ_ONCE / WRITE_ONCE, as the kernel's dql_avail and dql_queued). */
#define DQL_LOAD(p, f) plat_read_once32((p), &(f))
#define DQL_STORE(p, f, v) plat_write_once32((p), &(f), (v))

/* What dql_completed() computes before it updates the state. */
struct dql_step {
    unsigned num_queued;  /* snapshot of the enqueue side's total */
    unsigned completed;   /* num_completed + count */
    unsigned count;       /* bytes completed by this call */
    unsigned limit;       /* the limit being computed */
    unsigned ovlimit;     /* over-limit before this completion */
};

/* a - b if it is positive as a signed difference, else 0 (kernel POSDIFF). */
static unsigned dql_posdiff(unsigned a, unsigned b)
{
    unsigned d = a - b;
    return d != 0 && d <= INT_MAX ? d : 0;
}

/* a is at or after b on the wrapping counter line (kernel AFTER_EQ). */
static int dql_after_eq(unsigned a, unsigned b)
{
    return a - b <= INT_MAX;
}

/* The kernel's dql_reset at jiffy `now` (ns in `now_ns`); adj_limit, the
 * bounds, the hold time and the stall settings and counters are kept. */
static void dql_reset_at(struct dql *d, uint64_t now_ns)
{
    const uint64_t now = now_ns / DQL_JIFFY_NS;

    d->limit = d->min_limit;
    d->num_queued = 0;
    d->num_completed = 0;
    d->last_obj_cnt = 0;
    d->prev_num_queued = 0;
    d->prev_last_obj_cnt = 0;
    d->prev_ovlimit = 0;
    d->lowest_slack = UINT_MAX;
    d->slack_start_ns = now_ns;
    d->last_reap = now;
    d->history_head = now / DQL_HIST_BITS;
    memset(d->history, 0, sizeof d->history);
}

int dql_init(struct dql *d, enum dql_order order, unsigned min_limit, unsigned max_limit,
             uint64_t hold_ns)
{
    if (min_limit > max_limit || max_limit > DQL_MAX_LIMIT)
        return -1;
    d->order = order;
    d->max_limit = max_limit;
    d->min_limit = min_limit;
    d->slack_hold_ns = hold_ns;
    d->adj_limit = min_limit; /* limit + num_completed */
    d->stall_thrs = 0;
    d->stall_max = 0;
    d->stall_cnt = 0;
    d->st_starved = d->st_grow = d->st_shrink = d->st_too_big = 0;
    dql_reset_at(d, 0);
    return 0;
}

void dql_reset(struct dql *d, struct platform *p)
{
    dql_reset_at(d, plat_time_ns(p));
}

int dql_set_stall_thrs(struct dql *d, struct platform *p, unsigned thrs)
{
    if (thrs != 0 && (thrs < DQL_STALL_THRS_MIN || thrs > DQL_STALL_THRS_MAX))
        return -1;
    if (d->stall_thrs == 0 && thrs != 0)
        d->last_reap = plat_time_ns(p) / DQL_JIFFY_NS;
    d->stall_thrs = (uint16_t)thrs;
    return 0;
}

/* Jiffy a is before b, on the wrapping jiffy line (kernel time_before). */
static int dql_jiffy_before(uint64_t a, uint64_t b)
{
    return (int64_t)(a - b) < 0;
}

/* dql_queued with the stall detector on: mark this jiffy in the history,
 * clearing the words the head passes on its way (the kernel's
 * dql_queue_stall). */
static void dql_queue_stall(struct dql *d, struct platform *p)
{
    const uint64_t now = plat_time_ns(p) / DQL_JIFFY_NS;
    const uint64_t now_hi = now / DQL_HIST_BITS;

    DQL_RD(p, d->history_head);
    if (now_hi != d->history_head) {
        for (uint64_t i = 0; i < DQL_HIST_LEN && now_hi != d->history_head + i; i++) {
            DQL_WR(p, d->history[(d->history_head + i + 1) % DQL_HIST_LEN]);
            d->history[(d->history_head + i + 1) % DQL_HIST_LEN] = 0;
        }
        DQL_WR(p, d->history_head);
        d->history_head = now_hi;
    }
    uint64_t *w = &d->history[now_hi % DQL_HIST_LEN];
    const uint64_t bit = 1ull << (now % DQL_HIST_BITS);
    DQL_RD(p, *w);
    if (!(*w & bit)) {
        DQL_WR(p, *w);
        *w |= bit;
    }
}

/* Transmit side: record the object, add it to the total.  Only the order
 * of the touches differs between the two orders; the result is the same. */
void dql_queued(struct dql *d, struct platform *p, unsigned count)
{
    if (count > DQL_MAX_OBJECT) {
        d->st_too_big++;
        return;
    }
    if (d->order == DQL_READ_FIRST) {
        /* 2013: load num_queued, store last_obj_cnt, store the sum. */
        uint32_t q = DQL_LOAD(p, d->num_queued);
        DQL_STORE(p, d->last_obj_cnt, count);
        DQL_STORE(p, d->num_queued, q + count);
    } else {
        /* 2014: store last_obj_cnt (line requested for ownership), then
         * the read-modify-write of num_queued. */
        DQL_STORE(p, d->last_obj_cnt, count);
        DQL_STORE(p, d->num_queued, DQL_LOAD(p, d->num_queued) + count);
    }
    /* The threshold shares the line just written (not announced: the
     * same access, as above). */
    if (d->stall_thrs)
        dql_queue_stall(d, p);
}

/* Transmit side: adj_limit - num_queued as a signed difference. */
int dql_avail(const struct dql *d, struct platform *p)
{
    uint32_t adj = DQL_LOAD(p, d->adj_limit);
    unsigned diff = adj - DQL_LOAD(p, d->num_queued);
    if (diff <= INT_MAX)
        return (int)diff;
    return -(int)(UINT_MAX - diff) - 1; /* two's complement, portably */
}

/* Starved: grow by what went through in the interval plus the previous
 * overshoot, and restart the slack hold period. */
static void dql_grow(struct dql *d, struct platform *p, struct dql_step *s, uint64_t now)
{
    /* prev_num_queued and prev_ovlimit were read by the caller. */
    s->limit += dql_posdiff(s->completed, d->prev_num_queued) + d->prev_ovlimit;
    DQL_WR(p, d->slack_start_ns);
    d->slack_start_ns = now;
    DQL_WR(p, d->lowest_slack);
    d->lowest_slack = UINT_MAX;
    d->st_starved++;
}

/* Busy all interval: note the slack; after the hold time, shed the lowest
 * slack seen and start a new hold period. */
static void dql_shrink(struct dql *d, struct platform *p, struct dql_step *s, uint64_t now)
{
    DQL_RD(p, d->prev_last_obj_cnt); /* prev_ovlimit: read by the caller */
    unsigned slack = dql_posdiff(s->limit + d->prev_ovlimit, 2 * s->count);
    unsigned slack_last = d->prev_ovlimit ? dql_posdiff(d->prev_last_obj_cnt, d->prev_ovlimit) : 0;
    if (slack_last > slack)
        slack = slack_last;
    DQL_RD(p, d->lowest_slack);
    if (slack < d->lowest_slack) {
        DQL_WR(p, d->lowest_slack);
        d->lowest_slack = slack;
    }
    DQL_RD(p, d->slack_start_ns);
    DQL_RD(p, d->slack_hold_ns);
    if (now > d->slack_start_ns && now - d->slack_start_ns > d->slack_hold_ns) {
        s->limit = dql_posdiff(s->limit, d->lowest_slack);
        DQL_WR(p, d->slack_start_ns);
        d->slack_start_ns = now;
        DQL_WR(p, d->lowest_slack);
        d->lowest_slack = UINT_MAX;
    }
}

/* Clamp the new limit and store it if it moved (then ovlimit is void). */
static void dql_set_limit(struct dql *d, struct platform *p, struct dql_step *s)
{
    DQL_RD(p, d->min_limit);
    DQL_RD(p, d->max_limit);
    if (s->limit < d->min_limit)
        s->limit = d->min_limit;
    if (s->limit > d->max_limit)
        s->limit = d->max_limit;
    if (s->limit == d->limit)
        return;
    if (s->limit > d->limit)
        d->st_grow++;
    else
        d->st_shrink++;
    DQL_WR(p, d->limit);
    d->limit = s->limit;
    s->ovlimit = 0;
}

/* Publish the new state: adj_limit on the enqueue line (the completion
 * CPU takes that line away from the transmit CPU here), then the
 * completion side's memory of this interval. */
static void dql_commit(struct dql *d, struct platform *p, const struct dql_step *s)
{
    DQL_STORE(p, d->adj_limit, s->limit + s->completed);
    DQL_WR(p, d->prev_ovlimit);
    d->prev_ovlimit = s->ovlimit;
    uint32_t last = DQL_LOAD(p, d->last_obj_cnt);
    DQL_WR(p, d->prev_last_obj_cnt);
    d->prev_last_obj_cnt = last;
    DQL_STORE(p, d->num_completed, s->completed);
    DQL_WR(p, d->prev_num_queued);
    d->prev_num_queued = s->num_queued;
}

/* Completion side, the stall detector (the kernel's dql_check_stall):
 * once stall_thrs jiffies have passed since the last check, the oldest
 * enqueue after it that is at least stall_thrs / 2 old and is still in the
 * history was followed by no completion until now: a stall of now - t
 * jiffies.  The history is the enqueue line's: reading it here takes that
 * line from the transmit CPU, as in the kernel. */
static void dql_check_stall(struct dql *d, struct platform *p, unsigned thrs)
{
    if (!thrs)
        return;
    const uint64_t now = plat_time_ns(p) / DQL_JIFFY_NS;
    DQL_RD(p, d->last_reap);
    if (dql_jiffy_before(now, d->last_reap + thrs))
        goto reap;
    DQL_RD(p, d->history_head);
    const uint64_t head = d->history_head;
    uint64_t start = (head - DQL_HIST_LEN + 1) * DQL_HIST_BITS;
    if (dql_jiffy_before(start, d->last_reap + 1))
        start = d->last_reap + 1;
    uint64_t end = head * DQL_HIST_BITS + (DQL_HIST_BITS - 1);
    if (dql_jiffy_before(now, end + thrs / 2))
        end = now - thrs / 2;
    uint64_t t;
    for (t = start; !dql_jiffy_before(end, t); t++) {
        const uint64_t bit = t % (DQL_HIST_LEN * DQL_HIST_BITS);
        DQL_RD(p, d->history[bit / DQL_HIST_BITS]);
        if (d->history[bit / DQL_HIST_BITS] >> (bit % DQL_HIST_BITS) & 1)
            break;
    }
    if (dql_jiffy_before(end, t))
        goto reap; /* no enqueue in the window */
    DQL_WR(p, d->stall_cnt);
    d->stall_cnt++;
    DQL_RD(p, d->stall_max);
    if (now - t > d->stall_max) {
        DQL_WR(p, d->stall_max);
        d->stall_max = (uint16_t)(now - t > UINT16_MAX ? UINT16_MAX : now - t);
    }
reap:
    DQL_WR(p, d->last_reap);
    d->last_reap = now;
}

/* Completion side: classify the interval (starved, busy, or neither),
 * adjust the limit, publish.  A count above the bytes in flight is ignored
 * (the kernel BUG()s). */
void dql_completed(struct dql *d, struct platform *p, unsigned count)
{
    struct dql_step s;

    s.num_queued = DQL_LOAD(p, d->num_queued);
    /* Read now, with num_queued (the kernel reads it here, from the same
     * line, so that the stall check need not take that line again): one
     * access to the line, so it is not announced on its own. */
    const unsigned thrs = d->stall_thrs;
    DQL_RD(p, d->num_completed);
    unsigned in_flight = s.num_queued - d->num_completed;
    if (count > in_flight)
        return;
    s.count = count;
    s.completed = d->num_completed + count;
    DQL_RD(p, d->limit);
    s.limit = d->limit;
    s.ovlimit = dql_posdiff(in_flight, d->limit);

    DQL_RD(p, d->prev_num_queued);
    DQL_RD(p, d->prev_ovlimit);
    unsigned inprogress = s.num_queued - s.completed;
    unsigned prev_inprogress = d->prev_num_queued - d->num_completed;
    int all_prev_completed = dql_after_eq(s.completed, d->prev_num_queued);
    uint64_t now = plat_time_ns(p);

    if ((s.ovlimit && !inprogress) || (d->prev_ovlimit && all_prev_completed))
        dql_grow(d, p, &s, now);
    else if (inprogress && prev_inprogress && !all_prev_completed)
        dql_shrink(d, p, &s, now);
    dql_set_limit(d, p, &s);
    dql_commit(d, p, &s);
    dql_check_stall(d, p, thrs);
}

unsigned dql_in_flight(const struct dql *d, struct platform *p)
{
    uint32_t q = DQL_LOAD(p, d->num_queued);

    DQL_RD(p, d->num_completed);
    return q - d->num_completed;
}
