/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sb_rate.c - cmocka tests for sim/check/sb_rate.c: the frame times the
 * scoreboard's rate measures from, in memory that does not grow with the
 * run.  Frame k is noted with time T(k) and byte sum S(k) (functions of k
 * below), so the entry a query returns shows which frame it came from.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check/sb_rate.h"

static sim_ps_t T(uint64_t k) { return k * 67200u + (k * k) % 13u; }
static uint64_t S(uint64_t k) { return k * 64u + k % 7u; }

/* Note frames 0..n-1 into r, built for `expected` frames. */
static void fill(struct sb_rate *r, uint64_t expected, uint64_t n)
{
    assert_int_equal(sb_rate_init(r, expected), 0);
    for (uint64_t k = 0; k < n; k++)
        sb_rate_note(r, k, T(k), S(k));
}

/* The query for k0 returns frame `want`, with its time and sum. */
static void expect_at(const struct sb_rate *r, uint64_t k0, uint64_t want)
{
    struct sb_rate_entry e;

    assert_int_equal(sb_rate_at(r, k0, &e), want);
    assert_int_equal(e.t, T(want));
    assert_int_equal(e.sum, S(want));
}

/* The allocation is the same for a run of 0, 1 k, 10 M or 2^40 packets. */
static void test_sb_rate_bytes_flat(void **state)
{
    static const uint64_t runs[] = {0, 1, 1000, 1000000, 10000000, 100000000, 1ull << 40};
    struct sb_rate r;
    size_t first = 0;

    (void)state;
    for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
        assert_int_equal(sb_rate_init(&r, runs[i]), 0);
        if (i == 0)
            first = sb_rate_bytes(&r);
        assert_int_equal(sb_rate_bytes(&r), first);
        sb_rate_free(&r);
    }
    assert_true(first <= 1u << 20);
}

/* Up to about 367 k expected frames every frame below expected / 10 + 103
 * is kept: every k0 is exact, and k0 beyond that is capped (as before). */
static void test_sb_rate_exact_short_runs(void **state)
{
    const uint64_t expected = 360000, hi = expected / 10 + SB_RATE_SLACK;
    struct sb_rate r;

    (void)state;
    fill(&r, expected, expected + 2000);
    assert_int_equal(r.stride, 1);
    expect_at(&r, 0, 0);
    expect_at(&r, 1, 1);
    expect_at(&r, 777, 777);
    expect_at(&r, r.lo - 1, r.lo - 1); /* boundary: the last sampled frame */
    expect_at(&r, r.lo, r.lo);         /* boundary: the window's first */
    expect_at(&r, hi - 1, hi - 1);
    expect_at(&r, hi, hi - 1);         /* boundary: capped */
    expect_at(&r, expected, hi - 1);
    sb_rate_free(&r);
}

/* 10 M packets: a run that ends anywhere from about 327 k frames short of
 * expected to 1000 beyond it measures from exactly frame n / 10. */
static void test_sb_rate_exact_near_expected(void **state)
{
    const uint64_t expected = 10000000, hi = expected / 10 + SB_RATE_SLACK;
    struct sb_rate r;

    (void)state;
    fill(&r, expected, expected + 1000);
    assert_int_equal(r.lo, hi - SB_RATE_WINDOW);
    assert_true(r.stride > 1);
    for (uint64_t n = expected - 10 * (SB_RATE_WINDOW - SB_RATE_SLACK); n <= expected + 1000;
         n += 997)
        expect_at(&r, n / 10, n / 10);
    expect_at(&r, expected / 10, expected / 10);
    expect_at(&r, r.lo, r.lo); /* boundary: the window's first frame */
    expect_at(&r, hi - 1, hi - 1);
    sb_rate_free(&r);
}

/* A 10 M run stopped early (at 1 M frames) measures from the sampled frame
 * at or below n / 10, less than one stride before it. */
static void test_sb_rate_sampled_early_end(void **state)
{
    const uint64_t expected = 10000000;
    struct sb_rate r;

    (void)state;
    fill(&r, expected, 1000000);
    uint64_t s = r.stride;
    assert_true(s > 1 && s * SB_RATE_SAMPLES >= r.lo);
    expect_at(&r, 100000, 100000 - 100000 % s);
    expect_at(&r, 0, 0);
    expect_at(&r, s - 1, 0);     /* boundary: just below the second sample */
    expect_at(&r, s, s);         /* boundary: the second sample */
    expect_at(&r, r.lo - 1, (r.lo - 1) - (r.lo - 1) % s); /* the last sample */
    sb_rate_free(&r);
}

/* The largest run: the samples still cover everything below the window. */
static void test_sb_rate_largest_run(void **state)
{
    const uint64_t expected = 1ull << 40;
    struct sb_rate r;
    struct sb_rate_entry e;

    (void)state;
    assert_int_equal(sb_rate_init(&r, expected), 0);
    sb_rate_note(&r, 0, T(0), S(0));
    uint64_t last = (r.lo - 1) - (r.lo - 1) % r.stride;
    assert_true(last / r.stride < SB_RATE_SAMPLES);
    sb_rate_note(&r, last, T(last), S(last));
    expect_at(&r, r.lo - 1, last);
    expect_at(&r, 5, 0);
    /* a frame that is neither sampled nor in the window is not kept */
    assert_true(last + 1 < r.lo && (last + 1) % r.stride != 0);
    sb_rate_note(&r, last + 1, 1, 1);
    assert_int_equal(sb_rate_at(&r, last + 1, &e), last);
    sb_rate_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sb_rate_bytes_flat),
        cmocka_unit_test(test_sb_rate_exact_short_runs),
        cmocka_unit_test(test_sb_rate_exact_near_expected),
        cmocka_unit_test(test_sb_rate_sampled_early_end),
        cmocka_unit_test(test_sb_rate_largest_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
