/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_width.c - the whole system at every datapath width (docs/width.md):
 * driver, simulated CPU and PCIe link, and the engine's W-byte model
 * (dev_rtl_ops_width), every frame checked on the wire (bytes and FCS).
 *
 * Boundary cases: the smallest frame (64 B: one beat 64 bytes wide) to the
 * largest (16387 B), random sizes; buffer offsets 0, 5 and W - 1 (a frame
 * ending in every lane); each ownership protocol; a queue reset after a
 * completion timeout.  Scaling: a device-bound run of 1518-byte frames
 * moves one frame per ceil(1514 / W) clocks, to within 1.5%, until at 64
 * bytes the 100G wire bounds it; 64-byte frames at 100G are not device
 * bound at 64 bytes.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "run/fault.h"
#include "run/verdict.h"
#include "run/harness.h"

static const unsigned widths[] = {8, 16, 32, 64};
#define N_WIDTHS (sizeof(widths) / sizeof(widths[0]))

/* Run cfg on the model of its width to the end; the result in r. */
static void w_run(const struct sim_cfg *cfg, struct sim_result *r)
{
    char err[256] = "";
    const struct device_ops *ops = dev_rtl_ops_width(cfg->dev_width);
    struct sim *s;
    int rc;

    assert_non_null(ops);
    assert_int_equal(ops->width, cfg->dev_width);
    s = sim_create(cfg, ops, err, sizeof(err));
    if (!s)
        fail_msg("sim_create: %s", err);
    rc = sim_run(s);
    if (rc != 0)
        fail_msg("width %u: sim_run %d: %s", cfg->dev_width, rc, sim_diag(s));
    sim_result(s, r);
    sim_destroy(s);
}

/* Every frame checked, none lost or corrupted, no violation. */
static void assert_clean(const struct sim_cfg *cfg, const struct sim_result *r)
{
    if (r->sb.lost || r->sb.corrupted || r->sb.checked != cfg->packets || r->nviolations)
        fail_msg("width %u, %u..%u B, offset %u, protocol %s: checked %llu of %llu, lost %llu, "
                 "corrupted %llu, %zu violations", cfg->dev_width, cfg->pkt_size,
                 cfg->pkt_size_max, cfg->buf_offset, sim_proto_name(cfg->proto),
                 (unsigned long long)r->sb.checked, (unsigned long long)cfg->packets,
                 (unsigned long long)r->sb.lost, (unsigned long long)r->sb.corrupted,
                 r->nviolations);
    assert_int_equal(r->completed, cfg->packets);
}

/* Random sizes 64..1518 in each protocol at buffer offsets 0, 5, W - 1. */
static void test_width_mix(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;
    unsigned w, p, o;

    (void)state;
    for (w = 0; w < N_WIDTHS; w++) {
        const unsigned offs[] = {0, 5, widths[w] - 1};
        for (p = TXQ_PROTO_TAIL; p <= TXQ_PROTO_WC; p++) {
            for (o = 0; o < 3; o++) {
                sim_cfg_default(&cfg);
                cfg.dev_width = widths[w];
                cfg.proto = (enum txq_proto)p;
                cfg.buf_offset = offs[o];
                cfg.pkt_size = 64;
                cfg.pkt_size_max = 1518;
                cfg.packets = 1500;
                cfg.seed = 1 + w * 9 + p * 3 + o;
                w_run(&cfg, &r);
                assert_clean(&cfg, &r);
            }
        }
    }
}

/* Jumbo and the largest frames, at an odd offset, on a fast line. */
static void test_width_long_frames(void **state)
{
    static const unsigned sizes[] = {9018, 16387};
    struct sim_cfg cfg;
    struct sim_result r;
    unsigned w, k;

    (void)state;
    for (w = 0; w < N_WIDTHS; w++) {
        for (k = 0; k < 2; k++) {
            sim_cfg_default(&cfg);
            cfg.dev_width = widths[w];
            cfg.pkt_size = cfg.pkt_size_max = sizes[k];
            cfg.buf_offset = 3;
            cfg.packets = 150;
            cfg.line_gbps = 100;
            pcie_cfg_parse_link(&cfg.pcie, "gen4x16");
            w_run(&cfg, &r);
            assert_clean(&cfg, &r);
        }
    }
}

/* The 100G setup of docs/width.md: cheap CPU, bursts of 32, Gen4 x16. */
static void cfg_100g(struct sim_cfg *cfg, unsigned width, unsigned size, uint64_t packets)
{
    sim_cfg_default(cfg);
    cfg->dev_width = width;
    cfg->pkt_size = cfg->pkt_size_max = size;
    cfg->packets = packets;
    cfg->line_gbps = 100;
    cfg->burst = 32;
    snprintf(cfg->cpu_profile, sizeof(cfg->cpu_profile), "cheap");
    assert_int_equal(cpu_costs_profile(&cfg->costs, "cheap"), 0);
    assert_int_equal(pcie_cfg_parse_link(&cfg->pcie, "gen4x16"), 0);
}

/* 1518-byte frames (1514 B in the buffer) at 100G: the device moves one
 * frame per ceil(1514 / W) clocks and bounds the run, until 64 bytes,
 * where the wire (1538 byte times a frame) does. */
static void test_width_scaling_1518(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;
    unsigned w;

    (void)state;
    for (w = 0; w < N_WIDTHS; w++) {
        unsigned beats = (1514 + widths[w] - 1) / widths[w];
        double dev_mpps = 250.0 / beats, wire_mpps, want;

        cfg_100g(&cfg, widths[w], 1518, 6000);
        w_run(&cfg, &r);
        assert_clean(&cfg, &r);
        wire_mpps = r.line_gbps_eff * 1e3 / ((1518 + 20) * 8.0);
        want = dev_mpps < wire_mpps ? dev_mpps : wire_mpps;
        print_message("width %2u: %.3f Mpps (device %.3f, wire %.3f), bound %s\n", widths[w],
                      r.sb.mpps, dev_mpps, wire_mpps, r.bound);
        assert_string_equal(r.bound, dev_mpps < wire_mpps ? "device" : "wire");
        if (!(fabs(r.sb.mpps - want) <= 0.015 * want))
            fail_msg("width %u: %.3f Mpps, expected %.3f", widths[w], r.sb.mpps, want);
    }
}

/* 64-byte frames at 100G: at 8 bytes the device is busiest; at 64 bytes
 * a frame is one beat and something else bounds the run. */
static void test_width_64b_100g(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r8, r64;

    (void)state;
    cfg_100g(&cfg, 8, 64, 20000);
    w_run(&cfg, &r8);
    assert_clean(&cfg, &r8);
    cfg_100g(&cfg, 64, 64, 20000);
    w_run(&cfg, &r64);
    assert_clean(&cfg, &r64);
    print_message("64 B at 100G: width 8 %.2f Mpps (device %.2f), width 64 %.2f Mpps "
                  "(device %.2f, bound %s)\n", r8.sb.mpps, r8.util_engine, r64.sb.mpps,
                  r64.util_engine, r64.bound);
    assert_string_not_equal(r64.bound, "device");
    assert_true(r64.util_engine < 0.5);
    assert_true(r64.sb.mpps > 1.5 * r8.sb.mpps);
}

/* A completion timeout and the queue reset that follows, at every width:
 * every frame sent or dropped for it, nothing lost. */
static void test_width_reset(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;
    char err[160];
    unsigned w;

    (void)state;
    for (w = 0; w < N_WIDTHS; w++) {
        sim_cfg_default(&cfg);
        cfg.dev_width = widths[w];
        cfg.packets = 3000;
        if (inj_parse(&cfg.inject, "timeout@700", err, sizeof(err)) != 0)
            fail_msg("%s", err);
        w_run(&cfg, &r);
        assert_int_equal(r.sb.lost, 0);
        assert_int_equal(r.sb.corrupted, 0);
        assert_true(r.sb.dropped_total > 0);
        assert_int_equal(r.sb.checked + r.sb.dropped_total, cfg.packets);
        assert_true(r.txq.resets >= 1);
        assert_true(sim_result_clean(&cfg, 0, &r));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_width_mix),
        cmocka_unit_test(test_width_long_frames),
        cmocka_unit_test(test_width_scaling_1518),
        cmocka_unit_test(test_width_64b_100g),
        cmocka_unit_test(test_width_reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
