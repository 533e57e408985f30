/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_dql.c - cmocka tests of driver/dql.c (dynamic queue limits) against
 * the recording fake platform (tests/common/fake_platform.c): limit growth on
 * starvation, shrinking by the lowest slack after the hold time, clamping,
 * dql_avail(), the order of cache-line touches, the struct layout, a
 * steady state, the kernel's bounds and dql_reset, and the stall detector.
 *
 * Worked example used by several tests (min_limit 0, hold 1000 ns):
 *   queue 10000, complete 10000 at t=100: in flight 10000 > limit 0, now
 *     empty: starved.  limit = 0 + (10000 - prev_num_queued 0) + 0 = 10000;
 *     adj_limit = 10000 + 10000 = 20000; hold period starts at t=100.
 *   queue 6000, complete 1000: nothing was in flight before this interval
 *     (prev_inprogress 0): no slack sample.
 *   queue 1000, complete 1000: busy all interval, 6000 in flight < limit:
 *     slack = 10000 + 0 - 2 * 1000 = 8000.
 *   queue 3000, complete 3000: slack = 10000 - 2 * 3000 = 4000 (lowest).
 *   at t = 100 + 1000 (exactly the hold time) no shrink; at t = 1101 the
 *     next busy completion drops the limit by the lowest slack: 6000.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "dql.h"
#include "common/fake_platform.h"

#define FX_HOLD_NS 1000u
#define FX_T0_NS   100u

struct fx {
    struct dql d; /* first: 64-byte aligned */
    struct platform fp;
};

static int fx_setup(void **state)
{
    size_t sz = (sizeof(struct fx) + DQL_LINE - 1) & ~(size_t)(DQL_LINE - 1);
    struct fx *f = aligned_alloc(DQL_LINE, sz);

    if (f == NULL)
        return -1;
    memset(f, 0, sizeof(*f));
    if (fake_platform_init(&f->fp, 4096) != 0) {
        free(f);
        return -1;
    }
    *state = f;
    return 0;
}

static int fx_teardown(void **state)
{
    struct fx *f = *state;

    fake_platform_destroy(&f->fp);
    free(f);
    return 0;
}

/* Init with `order`, bounds [min, max] and the fixture hold time. */
static void fx_init(struct fx *f, enum dql_order order, unsigned min, unsigned max)
{
    assert_int_equal(dql_init(&f->d, order, min, max, FX_HOLD_NS), 0);
}

/* Queue `q` bytes (one object), then complete `c` bytes. */
static void fx_qc(struct fx *f, unsigned q, unsigned c)
{
    dql_queued(&f->d, &f->fp, q);
    dql_completed(&f->d, &f->fp, c);
}

/* The worked example up to the 8000 and 4000 slack samples (see top).
 * The limit starts at `min`, so with min > 0 every figure but the final
 * shrink (to 6000) is `min` higher. */
static void fx_example_slack(struct fx *f, unsigned min)
{
    fx_init(f, DQL_WRITE_FIRST, min, DQL_MAX_LIMIT);
    f->fp.now_ns = FX_T0_NS;
    fx_qc(f, 10000, 10000);
    assert_int_equal(f->d.limit, min + 10000);
    fx_qc(f, 6000, 1000);
    assert_int_equal(f->d.lowest_slack, UINT_MAX);
    fx_qc(f, 1000, 1000);
    assert_int_equal(f->d.lowest_slack, min + 8000);
    fx_qc(f, 3000, 3000);
    assert_int_equal(f->d.lowest_slack, min + 4000);
    assert_int_equal(f->d.limit, min + 10000);
}

/* Index of the first touch (read or write) at or after `from` within the
 * 64-byte line that starts at `line`, or -1. */
static long fx_first_touch_on_line(const struct platform *p, const void *line, size_t from)
{
    uint64_t lo = (uint64_t)(uintptr_t)line;

    for (size_t i = from; i < p->log_len; i++) {
        const struct fake_op *op = &p->log[i];
        if ((op->kind == FAKE_TOUCH_R || op->kind == FAKE_TOUCH_W) && op->addr >= lo &&
            op->addr < lo + DQL_LINE)
            return (long)i;
    }
    return -1;
}

static uint64_t fx_addr(const void *field)
{
    return (uint64_t)(uintptr_t)field;
}

/* Reset state: limit and adj_limit at min_limit, nothing queued, no memory
 * of a previous interval -- whatever the struct held before (a queue reset
 * re-initialises a used dql; here the bytes are garbage). */
static void test_dql_init_state(void **state)
{
    struct fx *f = *state;

    memset(&f->d, 0xa5, sizeof(f->d));
    fx_init(f, DQL_READ_FIRST, 1000, 5000);
    assert_int_equal(f->d.last_obj_cnt, 0);
    assert_int_equal(f->d.prev_ovlimit, 0);
    assert_int_equal(f->d.prev_num_queued, 0);
    assert_int_equal(f->d.prev_last_obj_cnt, 0);
    assert_int_equal(f->d.min_limit, 1000);
    assert_int_equal(f->d.max_limit, 5000);
    assert_int_equal(f->d.slack_hold_ns, FX_HOLD_NS);
    assert_int_equal(f->d.limit, 1000);
    assert_int_equal(f->d.adj_limit, 1000);
    assert_int_equal(f->d.num_queued, 0);
    assert_int_equal(f->d.num_completed, 0);
    assert_int_equal(f->d.lowest_slack, UINT_MAX);
    assert_int_equal(f->d.slack_start_ns, 0);
    assert_int_equal(f->d.order, DQL_READ_FIRST);
    assert_int_equal(f->d.st_starved + f->d.st_grow + f->d.st_shrink + f->d.st_too_big, 0);
    assert_int_equal(f->d.stall_thrs, 0);
    assert_int_equal(f->d.stall_cnt + f->d.stall_max + f->d.last_reap + f->d.history_head, 0);
    for (unsigned i = 0; i < DQL_HIST_LEN; i++)
        assert_int_equal(f->d.history[i], 0);
    assert_int_equal(dql_avail(&f->d, &f->fp), 1000);
}

/* dql_reset as the kernel's (Linux 6.15): after traffic, at t = 5 ms, the
 * limit goes back to min_limit, the counters and the interval's memory are
 * cleared and the hold period starts now; adj_limit is NOT reset (stale
 * until the next completion), nor are the bounds, the hold time, the stall
 * threshold or its counters. */
static void test_dql_reset_as_kernel(void **state)
{
    struct fx *f = *state;

    fx_example_slack(f, 1000);
    assert_int_equal(dql_set_stall_thrs(&f->d, &f->fp, 8), 0);
    f->d.stall_cnt = 3;
    f->d.stall_max = 9;
    const unsigned adj = f->d.adj_limit;
    assert_int_not_equal(adj, 1000);
    f->fp.now_ns = 5000000;
    dql_reset(&f->d, &f->fp);
    assert_int_equal(f->d.limit, 1000);
    assert_int_equal(f->d.adj_limit, adj);
    assert_int_equal(f->d.num_queued, 0);
    assert_int_equal(f->d.num_completed, 0);
    assert_int_equal(f->d.last_obj_cnt, 0);
    assert_int_equal(f->d.prev_num_queued + f->d.prev_last_obj_cnt + f->d.prev_ovlimit, 0);
    assert_int_equal(f->d.lowest_slack, UINT_MAX);
    assert_int_equal(f->d.slack_start_ns, 5000000);
    assert_int_equal(f->d.last_reap, 5);
    assert_int_equal(f->d.history_head, 0);
    assert_int_equal(f->d.min_limit, 1000);
    assert_int_equal(f->d.max_limit, DQL_MAX_LIMIT);
    assert_int_equal(f->d.slack_hold_ns, FX_HOLD_NS);
    assert_int_equal(f->d.stall_thrs, 8);
    assert_int_equal(f->d.stall_cnt, 3);
    assert_int_equal(f->d.stall_max, 9);
    /* The next completion recomputes adj_limit from the reset state. */
    fx_qc(f, 500, 500);
    assert_int_equal(f->d.adj_limit, f->d.limit + 500);
}

/* The stall threshold's range is net-sysfs's: 0 (off) or 4..128 jiffies;
 * switching it on starts the checks now. */
static void test_dql_stall_thrs_range(void **state)
{
    struct fx *f = *state;

    fx_init(f, DQL_WRITE_FIRST, 0, DQL_MAX_LIMIT);
    f->fp.now_ns = 7 * DQL_JIFFY_NS + 5;
    assert_int_equal(dql_set_stall_thrs(&f->d, &f->fp, 3), -1);
    assert_int_equal(dql_set_stall_thrs(&f->d, &f->fp, 129), -1);
    assert_int_equal(f->d.stall_thrs, 0);
    assert_int_equal(f->d.last_reap, 0);
    assert_int_equal(dql_set_stall_thrs(&f->d, &f->fp, 4), 0);
    assert_int_equal(f->d.last_reap, 7);
    f->fp.now_ns = 9 * DQL_JIFFY_NS;
    assert_int_equal(dql_set_stall_thrs(&f->d, &f->fp, 128), 0); /* already on: no restart */
    assert_int_equal(f->d.last_reap, 7);
    assert_int_equal(f->d.stall_thrs, 128);
    assert_int_equal(dql_set_stall_thrs(&f->d, &f->fp, 0), 0);
    assert_int_equal(f->d.stall_thrs, 0);
}

/* Set the fixture's clock to jiffy j. */
static void fx_at(struct fx *f, uint64_t j)
{
    f->fp.now_ns = j * DQL_JIFFY_NS;
}

/* The stall detector, threshold 8 jiffies:
 * - off (threshold 0): dql_queued marks nothing;
 * - an enqueue at jiffy 1 and the next completion at jiffy 20: a stall of
 *   20 - 1 = 19 jiffies (the gap 20 >= 8, and the enqueue is older than
 *   20 - 8 / 2);
 * - completions 1 jiffy apart (21..27): never checked (the gap is under 8);
 * - an enqueue at 28, the next completion at 34: a gap of 7, not checked
 *   (boundary);
 * - a gap of 10 (34 -> 44) whose only enqueue, at 42, is newer than 44 - 4:
 *   not a stall;
 * - an enqueue at 45 and a completion at 53 (gap 9, the enqueue 8 old): a
 *   stall of 8; stall_max stays 19. */
static void test_dql_stall_detector(void **state)
{
    struct fx *f = *state;

    fx_init(f, DQL_WRITE_FIRST, 0, DQL_MAX_LIMIT);
    fx_at(f, 1);
    dql_queued(&f->d, &f->fp, 100);
    assert_int_equal(f->d.history[0], 0); /* off */
    dql_completed(&f->d, &f->fp, 100);

    fx_at(f, 0);
    assert_int_equal(dql_set_stall_thrs(&f->d, &f->fp, 8), 0);
    fx_at(f, 1);
    dql_queued(&f->d, &f->fp, 100);
    assert_int_equal(f->d.history[0], 1ull << 1);
    fx_at(f, 20);
    dql_completed(&f->d, &f->fp, 100);
    assert_int_equal(f->d.stall_cnt, 1);
    assert_int_equal(f->d.stall_max, 19);
    assert_int_equal(f->d.last_reap, 20);

    for (uint64_t j = 21; j < 28; j++) {
        fx_at(f, j);
        fx_qc(f, 100, 100);
    }
    fx_at(f, 28);
    dql_queued(&f->d, &f->fp, 100);
    fx_at(f, 34);
    dql_completed(&f->d, &f->fp, 100);
    assert_int_equal(f->d.stall_cnt, 1);
    assert_int_equal(f->d.last_reap, 34);

    fx_at(f, 42);
    dql_queued(&f->d, &f->fp, 100);
    fx_at(f, 44);
    dql_completed(&f->d, &f->fp, 100);
    assert_int_equal(f->d.stall_cnt, 1);
    assert_int_equal(f->d.last_reap, 44);

    fx_at(f, 45);
    dql_queued(&f->d, &f->fp, 100);
    fx_at(f, 53);
    dql_completed(&f->d, &f->fp, 100);
    assert_int_equal(f->d.stall_cnt, 2);
    assert_int_equal(f->d.stall_max, 19);
}

/* The history is a ring of 4 words of 64 jiffies (the last 256): an
 * enqueue one word on clears only the word it enters; one 1000 jiffies on
 * clears every word, so a bit is never taken for a later enqueue. */
static void test_dql_stall_history_wraps(void **state)
{
    struct fx *f = *state;

    fx_init(f, DQL_WRITE_FIRST, 0, DQL_MAX_LIMIT);
    assert_int_equal(dql_set_stall_thrs(&f->d, &f->fp, 8), 0);
    for (uint64_t j = 0; j < 256; j += 64) { /* bit 0 of each word */
        fx_at(f, j);
        dql_queued(&f->d, &f->fp, 10);
    }
    assert_int_equal(f->d.history_head, 3);
    fx_at(f, 256 + 5);
    dql_queued(&f->d, &f->fp, 10);
    assert_int_equal(f->d.history_head, 4);
    assert_int_equal(f->d.history[0], 1ull << 5); /* entered: cleared, then marked */
    for (unsigned i = 1; i < DQL_HIST_LEN; i++)
        assert_int_equal(f->d.history[i], 1); /* kept: jiffies 64, 128, 192 */
    fx_at(f, 1000);
    dql_queued(&f->d, &f->fp, 10);
    assert_int_equal(f->d.history_head, 1000 / 64);
    for (unsigned i = 0; i < DQL_HIST_LEN; i++)
        assert_int_equal(f->d.history[i], i == (1000 / 64) % DQL_HIST_LEN ? 1ull << (1000 % 64) : 0);
}

/* Bounds: min == max and max == DQL_MAX_LIMIT are accepted (boundary);
 * min > max and max == DQL_MAX_LIMIT + 1 are refused. */
static void test_dql_init_rejects_bad_bounds(void **state)
{
    struct fx *f = *state;

    assert_int_equal(dql_init(&f->d, DQL_WRITE_FIRST, 7, 7, FX_HOLD_NS), 0);
    assert_int_equal(dql_init(&f->d, DQL_WRITE_FIRST, 0, DQL_MAX_LIMIT, FX_HOLD_NS), 0);
    assert_int_equal(dql_init(&f->d, DQL_WRITE_FIRST, 8, 7, FX_HOLD_NS), -1);
    assert_int_equal(dql_init(&f->d, DQL_WRITE_FIRST, 0, DQL_MAX_LIMIT + 1, FX_HOLD_NS), -1);
}

/* Positive below the limit, 0 exactly at it (boundary: the transmit path
 * may still queue), negative past it, even by more than 2^30. */
static void test_dql_avail_sign(void **state)
{
    struct fx *f = *state;

    fx_init(f, DQL_WRITE_FIRST, 1000, DQL_MAX_LIMIT);
    dql_queued(&f->d, &f->fp, 999);
    assert_int_equal(dql_avail(&f->d, &f->fp), 1);
    dql_queued(&f->d, &f->fp, 1);
    assert_int_equal(dql_avail(&f->d, &f->fp), 0);
    dql_queued(&f->d, &f->fp, 1);
    assert_int_equal(dql_avail(&f->d, &f->fp), -1);
    for (int i = 0; i < 4; i++) /* the largest object, 4 times: over by more than 2^29 */
        dql_queued(&f->d, &f->fp, DQL_MAX_OBJECT);
    assert_int_equal(dql_avail(&f->d, &f->fp), -1 - 4 * (int)DQL_MAX_OBJECT);
}

/* The kernel's bounds: DQL_MAX_LIMIT is 1879048192 (UINT_MAX / 2 - UINT_MAX
 * / 16), so limit + one object stays below 2^31; an object above
 * DQL_MAX_OBJECT is refused (the kernel WARNs) and changes nothing. */
static void test_dql_kernel_bounds(void **state)
{
    struct fx *f = *state;

    assert_int_equal(DQL_MAX_LIMIT, 1879048192u);
    assert_int_equal(DQL_MAX_OBJECT, 268435455u);
    assert_true((uint64_t)DQL_MAX_LIMIT + DQL_MAX_OBJECT <= INT32_MAX);
    fx_init(f, DQL_WRITE_FIRST, 0, DQL_MAX_LIMIT);
    dql_queued(&f->d, &f->fp, DQL_MAX_OBJECT + 1);
    assert_int_equal(f->d.num_queued, 0);
    assert_int_equal(f->d.last_obj_cnt, 0);
    assert_int_equal(f->d.st_too_big, 1);
    dql_queued(&f->d, &f->fp, DQL_MAX_OBJECT);
    assert_int_equal(f->d.num_queued, DQL_MAX_OBJECT);
    assert_int_equal(f->d.st_too_big, 1);
}

/* Over the limit and then empty: starved.  min_limit 1000; queue 1500
 * (avail 1000 >= 0 allowed it), complete 1500: ovlimit 500, inprogress 0;
 * limit = 1000 + (1500 - 0) + prev_ovlimit 0 = 2500; adj_limit = 2500 +
 * 1500 = 4000. */
static void test_dql_starved_grows(void **state)
{
    struct fx *f = *state;

    fx_init(f, DQL_WRITE_FIRST, 1000, DQL_MAX_LIMIT);
    f->fp.now_ns = 42;
    fx_qc(f, 1500, 1500);
    assert_int_equal(f->d.limit, 2500);
    assert_int_equal(f->d.adj_limit, 4000);
    assert_int_equal(f->d.prev_ovlimit, 0); /* the limit moved: void */
    assert_int_equal(f->d.slack_start_ns, 42);
    assert_int_equal(f->d.st_starved, 1);
    assert_int_equal(f->d.st_grow, 1);
    assert_int_equal(dql_avail(&f->d, &f->fp), 2500);
}

/* Boundary: in flight exactly at the limit is not over it; a queue that
 * runs dry below or at its limit was not held back, so nothing changes. */
static void test_dql_at_limit_not_starved(void **state)
{
    struct fx *f = *state;

    fx_init(f, DQL_WRITE_FIRST, 1000, DQL_MAX_LIMIT);
    fx_qc(f, 1000, 1000);
    assert_int_equal(f->d.limit, 1000);
    assert_int_equal(f->d.st_starved, 0);
    fx_qc(f, 1001, 1001); /* one byte over: starved, +1001 */
    assert_int_equal(f->d.limit, 2001);
    assert_int_equal(f->d.st_starved, 1);
}

/* Second starvation rule: over the limit at the previous completion, and
 * everything queued by then is now done (even if newer data is in flight).
 * min 1000: queue 1500, complete 500 (ovlimit 500 kept: the limit did not
 * move); queue 200, complete 1000: completed 1500 >= prev_num_queued 1500,
 * so limit = 1000 + (1500 - 1500) + 500 = 1500. */
static void test_dql_starved_after_overshoot(void **state)
{
    struct fx *f = *state;

    fx_init(f, DQL_WRITE_FIRST, 1000, DQL_MAX_LIMIT);
    fx_qc(f, 1500, 500);
    assert_int_equal(f->d.limit, 1000);
    assert_int_equal(f->d.prev_ovlimit, 500);
    fx_qc(f, 200, 1000);
    assert_int_equal(f->d.limit, 1500);
    assert_int_equal(f->d.st_starved, 1);
    assert_int_equal(f->d.num_queued - f->d.num_completed, 200);
}

/* Slack: the limit drops only once the hold time has strictly passed
 * (boundary: exactly hold_ns later it does not), by the lowest slack of
 * the period (4000, not the latest 8000); then tracking restarts. */
static void test_dql_slack_shrinks_after_hold(void **state)
{
    struct fx *f = *state;

    fx_example_slack(f, 0);
    f->fp.now_ns = FX_T0_NS + FX_HOLD_NS;
    fx_qc(f, 1000, 1000); /* slack 8000; hold time not yet passed */
    assert_int_equal(f->d.limit, 10000);
    assert_int_equal(f->d.lowest_slack, 4000);
    f->fp.now_ns = FX_T0_NS + FX_HOLD_NS + 1;
    fx_qc(f, 1000, 1000);
    assert_int_equal(f->d.limit, 6000);
    assert_int_equal(f->d.lowest_slack, UINT_MAX);
    assert_int_equal(f->d.slack_start_ns, FX_T0_NS + FX_HOLD_NS + 1);
    assert_int_equal(f->d.adj_limit, 6000 + f->d.num_completed);
    assert_int_equal(f->d.st_shrink, 1);
    assert_int_equal(f->d.st_starved, 1);
}

/* A starvation starts a new hold period: the slack seen before it (4000)
 * is forgotten, so the next shrink sheds only slack seen after it.  After
 * the example 5000 are in flight; queue 6000 (11000, over the limit of
 * 10000) and complete all of it: starved. */
static void test_dql_starved_forgets_slack(void **state)
{
    struct fx *f = *state;

    fx_example_slack(f, 0);
    assert_int_equal(f->d.st_starved, 1);
    f->fp.now_ns = FX_T0_NS + 10;
    fx_qc(f, 6000, 11000);
    assert_int_equal(f->d.st_starved, 2);
    assert_int_equal(f->d.lowest_slack, UINT_MAX);
    assert_int_equal(f->d.slack_start_ns, FX_T0_NS + 10);
}

/* Slack is at least the part of the last object that was not overshoot:
 * from limit 10000 (worked example's first step), queue 6000, complete
 * 1000; queue one 9000-byte object (14000 in flight, ovlimit 4000),
 * complete 1000 (slack 8000); complete 6000: slack = 10000 + 4000 -
 * 2 * 6000 = 2000, raised to 9000 - 4000 = 5000, the lowest so far. */
static void test_dql_slack_last_object(void **state)
{
    struct fx *f = *state;

    fx_init(f, DQL_WRITE_FIRST, 0, DQL_MAX_LIMIT);
    fx_qc(f, 10000, 10000);
    fx_qc(f, 6000, 1000);
    fx_qc(f, 9000, 1000);
    assert_int_equal(f->d.lowest_slack, 8000);
    assert_int_equal(f->d.prev_ovlimit, 4000);
    assert_int_equal(f->d.prev_last_obj_cnt, 9000);
    dql_completed(&f->d, &f->fp, 6000);
    assert_int_equal(f->d.lowest_slack, 5000);
    assert_int_equal(f->d.limit, 10000);
    assert_int_equal(f->d.st_starved, 1);
}

/* Upper bound: growth stops exactly at max_limit; a further starvation is
 * counted but does not grow, and keeps its over-limit for next time. */
static void test_dql_clamp_max(void **state)
{
    struct fx *f = *state;

    fx_init(f, DQL_WRITE_FIRST, 0, 5000);
    fx_qc(f, 10000, 10000);
    assert_int_equal(f->d.limit, 5000);
    assert_int_equal(f->d.adj_limit, 15000);
    fx_qc(f, 6000, 6000);
    assert_int_equal(f->d.limit, 5000);
    assert_int_equal(f->d.st_starved, 2);
    assert_int_equal(f->d.st_grow, 1);
    assert_int_equal(f->d.prev_ovlimit, 1000);
}

/* Lower bound: the worked example with min_limit 8000 (limit 18000,
 * lowest slack 12000) would shrink to 6000; it stops exactly at 8000. */
static void test_dql_clamp_min(void **state)
{
    struct fx *f = *state;

    fx_example_slack(f, 8000);
    f->fp.now_ns = FX_T0_NS + FX_HOLD_NS + 1;
    fx_qc(f, 1000, 1000);
    assert_int_equal(f->d.limit, 8000);
    assert_int_equal(f->d.st_shrink, 1);
}

/* Completing more than is in flight is ignored (the kernel BUG()s); the
 * boundary, exactly what is in flight, is accepted. */
static void test_dql_completed_too_much_ignored(void **state)
{
    struct fx *f = *state;

    fx_init(f, DQL_WRITE_FIRST, 1000, DQL_MAX_LIMIT);
    dql_queued(&f->d, &f->fp, 700);
    dql_completed(&f->d, &f->fp, 701);
    assert_int_equal(f->d.num_completed, 0);
    assert_int_equal(f->d.adj_limit, 1000);
    assert_int_equal(f->d.limit, 1000);
    assert_int_equal(f->d.prev_num_queued, 0);
    assert_int_equal(f->d.prev_ovlimit, 0);
    assert_int_equal(f->d.num_queued, 700);
    dql_completed(&f->d, &f->fp, 700);
    assert_int_equal(f->d.num_completed, 700);
    assert_int_equal(f->d.adj_limit, 1700);
}

/* Free-running totals wrap: the worked starvation gives the same growth
 * when the totals cross UINT_MAX (boundary). */
static void test_dql_counters_wrap(void **state)
{
    struct fx *f = *state;
    unsigned base = UINT_MAX - 700;

    fx_init(f, DQL_WRITE_FIRST, 1000, DQL_MAX_LIMIT);
    f->d.num_queued = f->d.num_completed = f->d.prev_num_queued = base;
    f->d.adj_limit = f->d.limit + base;
    assert_int_equal(dql_avail(&f->d, &f->fp), 1000);
    fx_qc(f, 1500, 1500);
    assert_int_equal(f->d.limit, 2500);
    assert_int_equal(f->d.num_completed, base + 1500u);
    assert_int_equal(dql_avail(&f->d, &f->fp), 2500);
}

/* 2013 order: num_queued is read before the first write to the enqueue
 * line (a shared fetch, then an upgrade). */
static void test_dql_queued_read_first_order(void **state)
{
    struct fx *f = *state;

    fx_init(f, DQL_READ_FIRST, 0, DQL_MAX_LIMIT);
    fake_platform_clear_log(&f->fp);
    dql_queued(&f->d, &f->fp, 64);
    long first = fx_first_touch_on_line(&f->fp, &f->d, 0);
    assert_int_equal(first, 0);
    assert_int_equal(f->fp.log[first].kind, FAKE_TOUCH_R);
    assert_int_equal(f->fp.log[first].addr, fx_addr(&f->d.num_queued));
    long w = fake_platform_find(&f->fp, FAKE_TOUCH_W, FAKE_ANY, 0);
    assert_true(w > first);
    assert_int_equal(fake_platform_count(&f->fp, FAKE_TOUCH_W, fx_addr(&f->d.last_obj_cnt)), 1);
    assert_int_equal(fake_platform_count(&f->fp, FAKE_TOUCH_W, fx_addr(&f->d.num_queued)), 1);
    assert_int_equal(f->d.num_queued, 64);
    assert_int_equal(f->d.last_obj_cnt, 64);
}

/* 2014 order: the first enqueue-line access is the write of last_obj_cnt
 * (ownership requested at once), then the RMW of num_queued. */
static void test_dql_queued_write_first_order(void **state)
{
    struct fx *f = *state;

    fx_init(f, DQL_WRITE_FIRST, 0, DQL_MAX_LIMIT);
    fake_platform_clear_log(&f->fp);
    dql_queued(&f->d, &f->fp, 64);
    long first = fx_first_touch_on_line(&f->fp, &f->d, 0);
    assert_int_equal(first, 0);
    assert_int_equal(f->fp.log[first].kind, FAKE_TOUCH_W);
    assert_int_equal(f->fp.log[first].addr, fx_addr(&f->d.last_obj_cnt));
    long r = fake_platform_find(&f->fp, FAKE_TOUCH_R, fx_addr(&f->d.num_queued), 0);
    long w = fake_platform_find(&f->fp, FAKE_TOUCH_W, fx_addr(&f->d.num_queued), 0);
    assert_true(r > first && w > r);
    assert_int_equal(f->fp.log_len, 3); /* the stall threshold rides the same access */
    assert_int_equal(f->d.num_queued, 64);
    assert_int_equal(f->d.last_obj_cnt, 64);
}

/* dql_completed reads num_queued first and writes exactly one enqueue-line
 * field, adj_limit (what dirties the transmit CPU's line); it never writes
 * num_queued or last_obj_cnt (single writer per side). */
static void test_dql_completed_writes_adj_limit(void **state)
{
    struct fx *f = *state;

    fx_init(f, DQL_WRITE_FIRST, 0, DQL_MAX_LIMIT);
    dql_queued(&f->d, &f->fp, 1500);
    fake_platform_clear_log(&f->fp);
    dql_completed(&f->d, &f->fp, 1500);
    long first = fx_first_touch_on_line(&f->fp, &f->d, 0);
    assert_int_equal(first, 0);
    assert_int_equal(f->fp.log[0].kind, FAKE_TOUCH_R);
    assert_int_equal(f->fp.log[0].addr, fx_addr(&f->d.num_queued));
    assert_int_equal(fake_platform_count(&f->fp, FAKE_TOUCH_W, fx_addr(&f->d.adj_limit)), 1);
    long w = fake_platform_find(&f->fp, FAKE_TOUCH_W, fx_addr(&f->d.adj_limit), 0);
    for (long i = fx_first_touch_on_line(&f->fp, &f->d, 0); i >= 0;
         i = fx_first_touch_on_line(&f->fp, &f->d, (size_t)i + 1))
        if (f->fp.log[i].kind == FAKE_TOUCH_W)
            assert_int_equal(i, w);
    assert_true(fake_platform_find(&f->fp, FAKE_TOUCH_R, fx_addr(&f->d.last_obj_cnt), 0) >= 0);
    assert_true(fake_platform_count(&f->fp, FAKE_TOUCH_W, fx_addr(&f->d.num_completed)) == 1);
}

/* One expected plat_cpu_touch: its kind and the field it names. */
struct fx_touch {
    enum fake_op_kind kind;
    const void *field;
};

/* The log holds exactly the touches `want[0..n)`, in order, each with its
 * field's address. */
static void fx_expect_touches(const struct platform *p, const struct fx_touch *want, size_t n)
{
    for (size_t i = 0; i < n && i < p->log_len; i++) {
        if (p->log[i].kind != want[i].kind || p->log[i].addr != fx_addr(want[i].field))
            fail_msg("touch %zu: kind %d at %#llx, expected kind %d at %#llx", i,
                     (int)p->log[i].kind, (unsigned long long)p->log[i].addr, (int)want[i].kind,
                     (unsigned long long)fx_addr(want[i].field));
    }
    assert_int_equal(p->log_len, n);
}

#define FX_R(fld) { FAKE_TOUCH_R, &f->d.fld }
#define FX_W(fld) { FAKE_TOUCH_W, &f->d.fld }

/* The exact touches of dql_completed(), in the kernel's order, on its three
 * paths: they are what the cache-line model charges.
 * - starved (grow): the hold period restarts, the limit is stored;
 * - busy, the slack a new lowest (stored), hold time not passed;
 * - busy, the slack equal to the lowest (boundary: not stored again);
 * - busy past the hold time: the limit shrinks, the period restarts.
 * Every path reads prev_num_queued and prev_ovlimit for the starvation
 * test and publishes the interval (adj_limit first); the stall threshold
 * is read with num_queued (one access) and the detector is off. */
static void test_dql_completed_touch_sequence(void **state)
{
    struct fx *f = *state;

    fx_init(f, DQL_WRITE_FIRST, 0, DQL_MAX_LIMIT);
    f->fp.now_ns = FX_T0_NS;
    dql_queued(&f->d, &f->fp, 10000);
    fake_platform_clear_log(&f->fp);
    dql_completed(&f->d, &f->fp, 10000);
    const struct fx_touch grow[] = {
        FX_R(num_queued), FX_R(num_completed), FX_R(limit), FX_R(prev_num_queued),
        FX_R(prev_ovlimit), FX_W(slack_start_ns), FX_W(lowest_slack), FX_R(min_limit),
        FX_R(max_limit), FX_W(limit), FX_W(adj_limit), FX_W(prev_ovlimit),
        FX_R(last_obj_cnt), FX_W(prev_last_obj_cnt), FX_W(num_completed),
        FX_W(prev_num_queued),
    };
    fx_expect_touches(&f->fp, grow, sizeof(grow) / sizeof(grow[0]));
    assert_int_equal(f->d.limit, 10000);

    fx_qc(f, 6000, 1000); /* nothing in flight before: neither path */
    dql_queued(&f->d, &f->fp, 1000);
    fake_platform_clear_log(&f->fp);
    dql_completed(&f->d, &f->fp, 1000); /* slack 8000 < UINT_MAX */
    const struct fx_touch busy_new[] = {
        FX_R(num_queued), FX_R(num_completed), FX_R(limit), FX_R(prev_num_queued),
        FX_R(prev_ovlimit), FX_R(prev_last_obj_cnt), FX_R(lowest_slack), FX_W(lowest_slack),
        FX_R(slack_start_ns), FX_R(slack_hold_ns), FX_R(min_limit), FX_R(max_limit),
        FX_W(adj_limit), FX_W(prev_ovlimit), FX_R(last_obj_cnt), FX_W(prev_last_obj_cnt),
        FX_W(num_completed), FX_W(prev_num_queued),
    };
    fx_expect_touches(&f->fp, busy_new, sizeof(busy_new) / sizeof(busy_new[0]));
    assert_int_equal(f->d.lowest_slack, 8000);

    dql_queued(&f->d, &f->fp, 1000);
    fake_platform_clear_log(&f->fp);
    dql_completed(&f->d, &f->fp, 1000); /* slack 8000 again: not lower */
    const struct fx_touch busy_same[] = {
        FX_R(num_queued), FX_R(num_completed), FX_R(limit), FX_R(prev_num_queued),
        FX_R(prev_ovlimit), FX_R(prev_last_obj_cnt), FX_R(lowest_slack),
        FX_R(slack_start_ns), FX_R(slack_hold_ns), FX_R(min_limit), FX_R(max_limit),
        FX_W(adj_limit), FX_W(prev_ovlimit), FX_R(last_obj_cnt), FX_W(prev_last_obj_cnt),
        FX_W(num_completed), FX_W(prev_num_queued),
    };
    fx_expect_touches(&f->fp, busy_same, sizeof(busy_same) / sizeof(busy_same[0]));

    f->fp.now_ns = FX_T0_NS + FX_HOLD_NS + 1;
    dql_queued(&f->d, &f->fp, 1000);
    fake_platform_clear_log(&f->fp);
    dql_completed(&f->d, &f->fp, 1000); /* slack 8000, hold passed: shrink */
    const struct fx_touch shrink[] = {
        FX_R(num_queued), FX_R(num_completed), FX_R(limit), FX_R(prev_num_queued),
        FX_R(prev_ovlimit), FX_R(prev_last_obj_cnt), FX_R(lowest_slack),
        FX_R(slack_start_ns), FX_R(slack_hold_ns), FX_W(slack_start_ns), FX_W(lowest_slack),
        FX_R(min_limit), FX_R(max_limit), FX_W(limit), FX_W(adj_limit), FX_W(prev_ovlimit),
        FX_R(last_obj_cnt), FX_W(prev_last_obj_cnt), FX_W(num_completed),
        FX_W(prev_num_queued),
    };
    fx_expect_touches(&f->fp, shrink, sizeof(shrink) / sizeof(shrink[0]));
    assert_int_equal(f->d.limit, 2000);
}

#undef FX_R
#undef FX_W

/* Enqueue fields share one 64-byte line, completion fields another. */
static void test_dql_lines(void **state)
{
    (void)state;
    size_t q = offsetof(struct dql, num_queued) / DQL_LINE;
    size_t c = offsetof(struct dql, limit) / DQL_LINE;

    assert_true(alignof(struct dql) >= DQL_LINE);
    assert_int_equal(offsetof(struct dql, adj_limit) / DQL_LINE, q);
    assert_int_equal(offsetof(struct dql, last_obj_cnt) / DQL_LINE, q);
    assert_int_not_equal(q, c);
    assert_int_equal(offsetof(struct dql, num_completed) / DQL_LINE, c);
    assert_int_equal(offsetof(struct dql, prev_ovlimit) / DQL_LINE, c);
    assert_int_equal(offsetof(struct dql, prev_num_queued) / DQL_LINE, c);
    assert_int_equal(offsetof(struct dql, prev_last_obj_cnt) / DQL_LINE, c);
    assert_int_equal(offsetof(struct dql, lowest_slack) / DQL_LINE, c);
    assert_int_equal(offsetof(struct dql, slack_start_ns) / DQL_LINE, c);
    assert_int_equal(offsetof(struct dql, slack_hold_ns) / DQL_LINE, c);
    /* The stall detector's enqueue-side fields share the enqueue line (its
     * threshold is read there), its completion-side ones do not. */
    assert_int_equal(offsetof(struct dql, stall_thrs) / DQL_LINE, q);
    assert_int_equal(offsetof(struct dql, history_head) / DQL_LINE, q);
    assert_int_equal((offsetof(struct dql, history) + sizeof(((struct dql *)0)->history) - 1) /
                         DQL_LINE, q);
    assert_int_not_equal(offsetof(struct dql, stall_max) / DQL_LINE, q);
    assert_int_not_equal(offsetof(struct dql, last_reap) / DQL_LINE, q);
    assert_int_not_equal(offsetof(struct dql, stall_cnt) / DQL_LINE, q);
}

/* Every touch names a field of the dql, with that field's size. */
static void test_dql_touches_inside_struct(void **state)
{
    struct fx *f = *state;
    uint64_t lo = fx_addr(&f->d), hi = lo + sizeof(f->d);

    fx_example_slack(f, 0);
    f->fp.now_ns = FX_T0_NS + FX_HOLD_NS + 1;
    fx_qc(f, 1000, 1000);
    (void)dql_avail(&f->d, &f->fp);
    assert_true(f->fp.log_len > 0);
    for (size_t i = 0; i < f->fp.log_len; i++) {
        const struct fake_op *op = &f->fp.log[i];
        assert_true(op->kind == FAKE_TOUCH_R || op->kind == FAKE_TOUCH_W);
        assert_true(op->addr >= lo && op->addr + op->val <= hi);
        assert_true(op->val == sizeof(unsigned) || op->val == sizeof(uint64_t) ||
                    op->val == sizeof(uint16_t));
        assert_true(op->addr < fx_addr(&f->d.st_starved)); /* counters untouched */
    }
}

/* Lockstep: queue N, complete N, at a constant rate.  The first interval
 * starves (N over limit 0) and sets the limit to N; after that the queue
 * is never over the limit nor busy across intervals, so the limit stays
 * exactly N through many hold periods. */
static void test_dql_steady_lockstep(void **state)
{
    struct fx *f = *state;
    const unsigned n = 9000;

    fx_init(f, DQL_WRITE_FIRST, 0, DQL_MAX_LIMIT);
    for (unsigned i = 0; i < 1000; i++) {
        f->fp.now_ns = (uint64_t)i * FX_HOLD_NS / 4;
        fx_qc(f, n, n);
        assert_int_equal(f->d.limit, n);
        fake_platform_clear_log(&f->fp);
    }
    assert_int_equal(f->d.st_starved, 1);
    assert_int_equal(f->d.st_shrink, 0);
}

/* Paced: each interval (a quarter of the hold time) the transmit path
 * queues 1500-byte objects while dql_avail() >= 0, then the device
 * completes R = 12000 bytes.  The limit climbs to 2R within a few
 * intervals; from then on the device never waits for data (>= R in flight
 * at every completion) and the limit stays in [2R - 1500, 2R].  It is not
 * constant: after each hold time the slack (the 1500-byte overshoot)
 * shrinks it to 2R - 1500, after which a completion of exactly R finishes
 * everything queued before the previous one while that one was over the
 * limit -- the kernel's second starvation rule (>=) -- and it regrows to
 * 2R: at most two changes per hold period. */
static void test_dql_steady_paced(void **state)
{
    struct fx *f = *state;
    const unsigned r = 12000, obj = 1500, steps = 4000, warm = 20;
    unsigned in_flight = 0, changes = 0, prev = 0;

    fx_init(f, DQL_WRITE_FIRST, 0, DQL_MAX_LIMIT);
    for (unsigned i = 0; i < steps; i++) {
        f->fp.now_ns = (uint64_t)i * FX_HOLD_NS / 4;
        while (dql_avail(&f->d, &f->fp) >= 0) {
            dql_queued(&f->d, &f->fp, obj);
            in_flight += obj;
        }
        unsigned c = in_flight < r ? in_flight : r;
        if (i >= warm)
            assert_true(in_flight >= r);
        dql_completed(&f->d, &f->fp, c);
        in_flight -= c;
        if (i >= warm) {
            assert_in_range(f->d.limit, 2 * r - obj, 2 * r);
            changes += f->d.limit != prev;
        }
        prev = f->d.limit;
        fake_platform_clear_log(&f->fp);
    }
    assert_true(changes > 0);
    assert_true(changes <= 2 * (steps / 4 + 1));
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, fx_setup, fx_teardown)
    const struct CMUnitTest tests[] = {
        T(test_dql_init_state),
        T(test_dql_init_rejects_bad_bounds),
        T(test_dql_avail_sign),
        T(test_dql_kernel_bounds),
        T(test_dql_reset_as_kernel),
        T(test_dql_stall_thrs_range),
        T(test_dql_stall_detector),
        T(test_dql_stall_history_wraps),
        T(test_dql_starved_grows),
        T(test_dql_at_limit_not_starved),
        T(test_dql_starved_after_overshoot),
        T(test_dql_slack_shrinks_after_hold),
        T(test_dql_starved_forgets_slack),
        T(test_dql_slack_last_object),
        T(test_dql_clamp_max),
        T(test_dql_clamp_min),
        T(test_dql_completed_too_much_ignored),
        T(test_dql_counters_wrap),
        T(test_dql_queued_read_first_order),
        T(test_dql_queued_write_first_order),
        T(test_dql_completed_writes_adj_limit),
        T(test_dql_completed_touch_sequence),
        T(test_dql_lines),
        T(test_dql_touches_inside_struct),
        T(test_dql_steady_lockstep),
        T(test_dql_steady_paced),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
