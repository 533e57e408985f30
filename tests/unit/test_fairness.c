/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_fairness.c - cmocka tests for sim/run/fairness.c: shares, expected
 * shares, the largest relative deviation and Jain's index, against values
 * worked out by hand; the extremes (perfect, one queue takes all, a
 * single queue), the empty window and a window without weight (NAN).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "run/fairness.h"

#define EPS 1e-12

static void assert_near(double got, double want)
{
    if (!(fabs(got - want) <= EPS))
        fail_msg("got %.17g, want %.17g", got, want);
}

/* Round robin, equal bytes: every share 1/4, no deviation, Jain 1. */
static void test_fairness_equal(void **state)
{
    const uint64_t b[4] = {1000, 1000, 1000, 1000};
    const unsigned w[4] = {1, 1, 1, 1};
    double sh[4], ex[4];
    struct fair_result r;

    (void)state;
    fair_shares(b, w, 4, sh, ex);
    for (unsigned q = 0; q < 4; q++) {
        assert_near(sh[q], 0.25);
        assert_near(ex[q], 0.25);
    }
    fair_compute(b, w, 4, &r);
    assert_near(r.jain, 1.0);
    assert_near(r.max_share_dev, 0.0);
}

/* DRR weights 1, 2, 3, 4 with bytes exactly proportional: expected shares
 * 0.1 .. 0.4, Jain over bytes/weight 1; unweighted it would be
 * (10)^2 / (4 * 30) = 0.8333. */
static void test_fairness_weighted(void **state)
{
    const uint64_t b[4] = {100, 200, 300, 400};
    const unsigned w[4] = {1, 2, 3, 4}, w1[4] = {1, 1, 1, 1};
    double sh[4], ex[4];

    (void)state;
    fair_shares(b, w, 4, sh, ex);
    for (unsigned q = 0; q < 4; q++) {
        assert_near(ex[q], (q + 1) / 10.0);
        assert_near(sh[q], ex[q]);
    }
    assert_near(fair_jain(b, w, 4), 1.0);
    assert_near(fair_max_share_dev(b, w, 4), 0.0);
    assert_near(fair_jain(b, w1, 4), 100.0 / 120.0);
    /* Against equal expected shares: queue 3 has 0.4 / 0.25 - 1 = 0.6. */
    assert_near(fair_max_share_dev(b, w1, 4), 0.6);
}

/* Two queues, 3:1 bytes, weights 1: shares 0.75 and 0.25, deviation
 * 0.75 / 0.5 - 1 = 0.5, Jain (4)^2 / (2 * 10) = 0.8. */
static void test_fairness_known_values(void **state)
{
    const uint64_t b[2] = {3000, 1000};
    const unsigned w[2] = {1, 1};
    struct fair_result r;

    (void)state;
    fair_compute(b, w, 2, &r);
    assert_near(r.jain, 0.8);
    assert_near(r.max_share_dev, 0.5);
}

/* Boundary: one queue takes everything: Jain 1/n, its share n times the
 * expected (deviation n - 1). */
static void test_fairness_one_takes_all(void **state)
{
    const uint64_t b[8] = {5000};
    const unsigned w[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    struct fair_result r;

    (void)state;
    fair_compute(b, w, 8, &r);
    assert_near(r.jain, 1.0 / 8);
    assert_near(r.max_share_dev, 7.0);
}

/* Boundary: nothing sent, or one queue: NAN without bytes; a single queue
 * is trivially fair. */
static void test_fairness_empty_and_single(void **state)
{
    const uint64_t zero[3] = {0, 0, 0}, one[1] = {42};
    const unsigned w[3] = {1, 2, 3};
    double sh[3];

    (void)state;
    assert_true(isnan(fair_jain(zero, w, 3)));
    assert_true(isnan(fair_max_share_dev(zero, w, 3)));
    fair_shares(zero, w, 3, sh, NULL);
    assert_true(isnan(sh[0]));
    assert_near(fair_jain(one, w, 1), 1.0);
    assert_near(fair_max_share_dev(one, w, 1), 0.0);
}

/* Boundary: one queue of weight 1 expects the whole window (1, not NAN:
 * the weights sum to 1, which is a weight), and gets it; so does a window
 * of a single byte (1 byte is bytes). */
static void test_fairness_single_queue_expects_all(void **state)
{
    const uint64_t b[1] = {42}, one_byte[2] = {0, 1};
    const unsigned w[2] = {1, 1};
    double sh[2], ex[2];

    (void)state;
    fair_shares(b, w, 1, sh, ex);
    assert_near(sh[0], 1.0);
    assert_near(ex[0], 1.0);
    fair_shares(one_byte, w, 2, sh, NULL);
    assert_near(sh[0], 0.0);
    assert_near(sh[1], 1.0);
}

/* Boundary: bytes but no weight at all (every weight 0): there is no
 * expected share to compare with, so the expected shares, the deviation
 * and Jain's index are NAN, like the figures of a window without bytes;
 * the shares of the bytes are still known. */
static void test_fairness_no_weight(void **state)
{
    const uint64_t b[2] = {3000, 1000};
    const unsigned w[2] = {0, 0};
    double sh[2], ex[2];

    (void)state;
    fair_shares(b, w, 2, sh, ex);
    assert_near(sh[0], 0.75);
    assert_true(isnan(ex[0]) && isnan(ex[1]));
    assert_true(isnan(fair_max_share_dev(b, w, 2)));
    assert_true(isnan(fair_jain(b, w, 2)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fairness_equal),
        cmocka_unit_test(test_fairness_weighted),
        cmocka_unit_test(test_fairness_known_values),
        cmocka_unit_test(test_fairness_one_takes_all),
        cmocka_unit_test(test_fairness_empty_and_single),
        cmocka_unit_test(test_fairness_single_queue_expects_all),
        cmocka_unit_test(test_fairness_no_weight),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
