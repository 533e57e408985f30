/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_codesign.c - cmocka tests for the co-design pieces that need no
 * model or synthesis (docs/codesign.md): the hardware parameters as data
 * (sim/device/dev_hw.c: the default, the key, the Verilator/Yosys
 * parameter list, the checks) and the sweep's Pareto front and target
 * (sim/sweep/sweep_pareto.c, sim/sweep/sweep_target.c), on points worked
 * out by hand.  The model
 * cache and the synthesis are make test-codesign's (tests/codesign/).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "device/dev_hw.h"
#include "sweep/sweep_pareto.h"
#include "sweep/sweep_target.h"

static void test_hw_default_and_key(void **state)
{
    struct dev_hw hw = DEV_HW_DEFAULT;
    char key[DEV_HW_KEY_MAX];

    (void)state;
    assert_true(dev_hw_is_default(&hw));
    dev_hw_key(8, &hw, key);
    assert_string_equal(key, "w8-q64-t256-r8-d256-p32768-k256");
    hw.tags = 32;
    assert_false(dev_hw_is_default(&hw));
    dev_hw_key(32, &hw, key);
    assert_string_equal(key, "w32-q64-t32-r8-d256-p32768-k256");
}

/* The parameter list is the RTL's names with the values of W and hw. */
static void test_hw_params(void **state)
{
    struct dev_hw hw = DEV_HW_DEFAULT;
    const char *want[DEV_HW_NPARAMS] = {"DataBytes", "NumQueues", "NumTags", "DescReads",
                                         "DescBufDescs", "PayBufBytes", "MaxPkts"};

    (void)state;
    hw.queues = 4;
    hw.pkts = 16;
    for (unsigned i = 0; i < DEV_HW_NPARAMS; i++)
        assert_string_equal(dev_hw_param_name(i), want[i]);
    assert_null(dev_hw_param_name(DEV_HW_NPARAMS));
    assert_int_equal(dev_hw_param_value(0, 16, &hw), 16);
    assert_int_equal(dev_hw_param_value(1, 16, &hw), 4);
    assert_int_equal(dev_hw_param_value(2, 16, &hw), 256);
    assert_int_equal(dev_hw_param_value(6, 16, &hw), 16);
}

static void test_hw_check(void **state)
{
    struct dev_hw hw = DEV_HW_DEFAULT;
    char err[256];

    (void)state;
    assert_int_equal(dev_hw_check(8, &hw, err, sizeof(err)), 0);
    hw.queues = 1; /* one queue is a power of two */
    assert_int_equal(dev_hw_check(64, &hw, err, sizeof(err)), 0);
    assert_int_equal(dev_hw_check(12, &hw, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "DataBytes 12"));
    hw.tags = 48;
    assert_int_equal(dev_hw_check(8, &hw, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "NumTags 48"));
    hw.tags = 512;
    assert_int_equal(dev_hw_check(8, &hw, err, sizeof(err)), -1);
    hw.tags = 2;
    assert_int_equal(dev_hw_check(8, &hw, err, sizeof(err)), 0);
    hw.desc_buf = 32; /* below one fetch of DescFetchMaxHw (64): refused first */
    assert_int_equal(dev_hw_check(8, &hw, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "DescBufDescs 32 cannot hold one fetch of 64"));
    hw.desc_buf = 16; /* below the RTL's range too: still one fetch's message */
    assert_int_equal(dev_hw_check(8, &hw, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "DescBufDescs 16 cannot hold one fetch"));
    hw.desc_buf = 96; /* not a power of two */
    assert_int_equal(dev_hw_check(8, &hw, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "DescBufDescs 96: the hardware takes a power of two in 32..256"));
    hw.desc_buf = 512;
    assert_int_equal(dev_hw_check(8, &hw, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "DescBufDescs 512"));
    for (unsigned d = 64; d <= 256; d *= 2) { /* the sizes the C model and the RTL take */
        hw.desc_buf = d;
        assert_int_equal(dev_hw_check(8, &hw, err, sizeof(err)), 0);
    }
    for (unsigned r = 2; r <= 8; r *= 2) {
        hw.desc_reads = r;
        assert_int_equal(dev_hw_check(8, &hw, err, sizeof(err)), 0);
    }
    hw.desc_reads = 1; /* a FIFO of one: prim_fifo_sync takes 2 and up */
    assert_int_equal(dev_hw_check(8, &hw, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "DescReads 1: the hardware takes a power of two in 2..8"));
    hw.desc_reads = 16; /* above DESC_INFLIGHT's 15 */
    assert_int_equal(dev_hw_check(8, &hw, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "DescReads 16"));
    hw.desc_reads = 8;
    hw.desc_buf = 256;
    hw.pay_buf = 8192;
    assert_int_equal(dev_hw_check(8, &hw, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "PayBufBytes 8192"));
}

/* Five points: (cost, perf).  B dominates A (cheaper, faster); C and D
 * trade; E costs as much as D and is slower; F has no area. */
static void test_pareto_front(void **state)
{
    const double cost[6] = {10, 8, 20, 30, 30, NAN};
    const double perf[6] = {5, 6, 9, 12, 11, 20};
    unsigned char front[6];

    (void)state;
    assert_int_equal(sweep_pareto(cost, perf, 6, front), 3);
    assert_int_equal(front[0], 0);
    assert_int_equal(front[1], 1);
    assert_int_equal(front[2], 1);
    assert_int_equal(front[3], 1);
    assert_int_equal(front[4], 0);
    assert_int_equal(front[5], 0);
}

/* Two equal points: neither dominates the other (not strictly). */
static void test_pareto_ties(void **state)
{
    const double cost[2] = {5, 5}, perf[2] = {7, 7};
    unsigned char front[2];

    (void)state;
    assert_int_equal(sweep_pareto(cost, perf, 2, front), 2);
}

static void test_target_parse(void **state)
{
    struct sweep_target t;
    char err[256];

    (void)state;
    assert_int_equal(sweep_target_parse("mpps>=148.8", &t, err, sizeof(err)), 0);
    assert_string_equal(t.col, "mpps");
    assert_string_equal(t.op, ">=");
    assert_true(t.value == 148.8);
    assert_int_equal(sweep_target_parse("latency_ns.p99<2000", &t, err, sizeof(err)), 0);
    assert_string_equal(t.col, "latency_ns.p99");
    assert_string_equal(t.op, "<");
    assert_int_equal(sweep_target_parse("mpps", &t, err, sizeof(err)), -1);
    assert_int_equal(sweep_target_parse(">=3", &t, err, sizeof(err)), -1);
    assert_int_equal(sweep_target_parse("mpps>=fast", &t, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "not a number"));
}

/* The cheapest that meets it; at equal cost the one further past it. */
static void test_target_pick(void **state)
{
    const double cost[5] = {10, 8, 20, 8, NAN};
    const double val[5] = {150, 140, 160, 149, 200};
    struct sweep_target t;
    char err[64];

    (void)state;
    assert_int_equal(sweep_target_parse("mpps>=148.8", &t, err, sizeof(err)), 0);
    assert_int_equal(sweep_target_pick(&t, cost, val, 5), 3);
    assert_true(sweep_target_met(&t, 148.8));
    assert_false(sweep_target_met(&t, 148.7));
    assert_int_equal(sweep_target_parse("mpps>=170", &t, err, sizeof(err)), 0);
    assert_int_equal(sweep_target_pick(&t, cost, val, 5), -1); /* 200 has no cost */
    assert_int_equal(sweep_target_parse("mpps<145", &t, err, sizeof(err)), 0);
    assert_int_equal(sweep_target_pick(&t, cost, val, 5), 1);
}

/* The report reads DIR/results.csv: the cheapest point meeting the target,
 * named by the sweep's parameters, with its margin; a missing cost column
 * is an error that says to run with --area. */
static void test_target_report(void **state)
{
    char dir[] = "/tmp/nictx-codesign-XXXXXX", path[64], err[256], *out = NULL;
    struct sweep_param params[2] = {{"dev-width", {0}}, {"hw-tags", {0}}};
    struct sweep_spec s;
    struct sweep_target t;
    size_t len = 0;
    FILE *f, *o;

    (void)state;
    memset(&s, 0, sizeof(s));
    s.params = params;
    s.nparams = 2;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/results.csv", dir);
    assert_non_null(f = fopen(path, "w"));
    fputs("point,id,dev-width,hw-tags,mpps,area.xc7_luts\n"
          "1,aa,16,32,40,1000\n2,bb,64,32,150,3000\n3,cc,64,256,150.5,5000\n",
          f);
    fclose(f);
    assert_int_equal(sweep_target_parse("mpps>=148.8", &t, err, sizeof(err)), 0);
    assert_non_null(o = open_memstream(&out, &len));
    assert_int_equal(sweep_target_report(o, dir, &s, &t, "area.xc7_luts", err, sizeof(err)), 0);
    fclose(o);
    assert_string_equal(out, "target mpps>=148.8: cheapest point dev-width=64 hw-tags=32: "
                             "area.xc7_luts 3000, mpps 150 (margin +1.2, +0.8%)\n");
    free(out);
    assert_int_equal(sweep_target_report(stdout, dir, &s, &t, "area.gates", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "--area"));
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hw_default_and_key), cmocka_unit_test(test_hw_params),
        cmocka_unit_test(test_hw_check),           cmocka_unit_test(test_pareto_front),
        cmocka_unit_test(test_pareto_ties),        cmocka_unit_test(test_target_parse),
        cmocka_unit_test(test_target_pick),        cmocka_unit_test(test_target_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
