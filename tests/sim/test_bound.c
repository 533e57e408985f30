/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_bound.c - every bound name (sim/run/bound.h), each from a run built
 * to hit it, with the figure that shows it; and the latency's split into
 * queueing and service.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cli/run_args.h"
#include "device/device.h"
#include "run/bound.h"
#include "run/harness.h"

/* Run `nictx run ARGS` (words split at blanks) on the C model, 8000
 * packets unless ARGS says otherwise. */
static void run_args(const char *args, struct sim_result *r)
{
    char buf[512], err[256] = "";
    char *argv[64];
    int argc = 0;
    struct cli_run_opts ro;

    snprintf(buf, sizeof buf, "run --device c --packets 8000 %s", args);
    for (char *w = strtok(buf, " "); w && argc < 63; w = strtok(NULL, " "))
        argv[argc++] = w;
    argv[argc] = NULL;
    if (cli_run_parse(argc, argv, stderr, &ro) != CLI_RUN_GO)
        fail_msg("%s: refused", args);
    if (sim_cfg_validate(&ro.cfg, err, sizeof err) != 0)
        fail_msg("%s: %s", args, err);
    struct sim *s = sim_create(&ro.cfg, dev_ops_for(ro.cfg.device, ro.cfg.dev_width), err,
                               sizeof err);
    if (!s)
        fail_msg("%s: sim_create: %s", args, err);
    if (sim_run(s) != 0)
        fail_msg("%s: %s", args, sim_diag(s));
    sim_result(s, r);
    sim_destroy(s);
    assert_int_equal(r->sb.checked, ro.cfg.packets);
}

/* The run's bound is `want`, its one-line reason names `why`, and every
 * fraction it rests on is one. */
static void expect_bound(const char *args, const char *want, const char *why)
{
    struct sim_result r;
    char line[160];

    run_args(args, &r);
    sim_bound_why(&r, line, sizeof line);
    if (!r.bound || strcmp(r.bound, want) != 0 || !strstr(line, why))
        fail_msg("%s: bound %s (%s), want %s (\"%s\")", args, r.bound ? r.bound : "NULL", line,
                 want, why);
    for (unsigned k = 0; k < SIM_CPU_PART_COUNT; k++)
        assert_true(r.cpu_part[k] >= 0 && r.cpu_part[k] <= r.util_cpu + 1e-9);
    for (unsigned k = 0; k < RD_POOL_COUNT; k++)
        assert_true(r.pool_full[k] >= 0 && r.pool_full[k] <= 1 + 1e-9);
    assert_true(r.ring_full >= 0 && r.ring_full <= 1 + 1e-9);
}

/* Rule 1: a resource busy 90% or more. */
static void test_bound_busy(void **state)
{
    (void)state;
    expect_bound("", "cpu", "working");
    expect_bound("--line 100g --dev-width 32 --pkt-size 1518", "pcie_h2d", "pcie_h2d busy");
    expect_bound("--line 1g", "wire", "wire busy");
    expect_bound("--line 100g --dev-width 8 --pkt-size 1518 --pcie gen4x16", "device",
                 "device busy");
}

/* A result with every figure idle: the rules' inputs set one by one. */
static struct sim_result idle_result(void)
{
    struct sim_result r;

    memset(&r, 0, sizeof r);
    r.util_cpu = r.util_h2d = r.util_d2h = r.util_engine = r.util_wire = 0.1;
    r.cpu_part[SIM_CPU_WORK] = 0.1;
    return r;
}

/* The rules' order and thresholds, on made-up figures (the device-to-host
 * link, which no transmit run fills: each packet's reads and writes to
 * the host are smaller than the data it fetches). */
static void test_bound_rules(void **state)
{
    struct sim_result r = idle_result();

    (void)state;
    assert_string_equal(sim_bound(&r), "latency");
    r.util_d2h = 0.95;
    assert_string_equal(sim_bound(&r), "pcie_d2h");
    r.util_h2d = 0.96; /* the busiest of those at 90% or more */
    assert_string_equal(sim_bound(&r), "pcie_h2d");

    r = idle_result(); /* the CPU's waits count only if nothing is busy */
    r.util_cpu = 1.0;
    r.cpu_part[SIM_CPU_WORK] = 0.3;
    r.cpu_part[SIM_CPU_HEAD_READ] = 0.7;
    r.util_h2d = 0.9;
    assert_string_equal(sim_bound(&r), "pcie_h2d");
    r.util_h2d = 0.89;
    assert_string_equal(sim_bound(&r), "cpu_head_read");
    r.cpu_part[SIM_CPU_WORK] = 0.5;
    r.cpu_part[SIM_CPU_HEAD_READ] = 0.5; /* a tie: work */
    assert_string_equal(sim_bound(&r), "cpu");

    r = idle_result(); /* the CPU's own time (barriers too) against the wire */
    r.util_cpu = 1.0;
    r.cpu_part[SIM_CPU_WORK] = 0.6;
    r.cpu_part[SIM_CPU_BARRIER] = 0.35;
    r.cpu_part[SIM_CPU_POLLING] = 0.05;
    r.util_wire = 0.94;
    assert_string_equal(sim_bound(&r), "cpu");
    r.cpu_part[SIM_CPU_WORK] = 0.3;
    r.cpu_part[SIM_CPU_BARRIER] = 0.65;
    assert_string_equal(sim_bound(&r), "cpu_barrier");
    r.cpu_part[SIM_CPU_BARRIER] = 0.6; /* 0.9 of its own: the wire is busier */
    assert_string_equal(sim_bound(&r), "wire");

    r = idle_result(); /* pools: credits first, then the longest, then the ring */
    r.ring_full = 0.9;
    assert_string_equal(sim_bound(&r), "ring");
    r.pool_full[RD_POOL_FETCHES] = 0.5;
    assert_string_equal(sim_bound(&r), "fetches");
    r.pool_full[RD_POOL_TAGS] = 0.6;
    assert_string_equal(sim_bound(&r), "tags");
    r.credit_stalled = 0.5;
    assert_string_equal(sim_bound(&r), "credits");
    r.util_engine = 0.75; /* a datapath this busy takes the pools' work slowly */
    assert_string_equal(sim_bound(&r), "latency");
    r.util_engine = 0.74;
    assert_string_equal(sim_bound(&r), "credits");
    r.credit_stalled = 0.49;
    r.pool_full[RD_POOL_TAGS] = r.pool_full[RD_POOL_FETCHES] = 0.49;
    r.ring_full = 0.49;
    assert_string_equal(sim_bound(&r), "latency");

    r.util_cpu = NAN; /* a run with no measured time has no bound */
    assert_null(sim_bound(&r));
}

/* Rule 2: a busy CPU that mostly waits. */
static void test_bound_cpu_waits(void **state)
{
    (void)state;
    expect_bound("--completion mmio --pcie gen1x1", "cpu_head_read", "MMIO (head) reads");
    expect_bound("--set cpu.drain_miss_ns=2000 --set cpu.drain_hit_ns=2000", "cpu_barrier",
                 "barriers");
    expect_bound("--set cpu.uc_drain_ns=3000 --cpus 2", "cpu_lock", "locked instructions");
    expect_bound("--pcie-latency-ns 5000 --ring 64 --set cpu.clean_poll_ns=1000 --poll-ns 1",
                 "cpu_polling", "reclaimed nothing");
}

/* Rule 3: nothing saturated, a pool starved the device. */
static void test_bound_starved(void **state)
{
    (void)state;
    expect_bound("--line 100g --dev-width 32 --tags 4", "tags", "read tag");
    expect_bound("--line 100g --dev-width 32 --pkt-size 1518 --max-read-bytes 4096",
                 "read_bytes", "byte budget");
    expect_bound("--line 100g --dev-width 32 --desc-fetch-inflight 1 --desc-fetch-max 1",
                 "fetches", "fetch slot");
    expect_bound("--fc-host nph=1 --line 100g --dev-width 32 --pkt-size 1518", "credits",
                 "credit");
    expect_bound("--ring 64 --pcie-latency-ns 5000", "ring", "ring full");
}

/* Rule 4: round trips alone. */
static void test_bound_latency(void **state)
{
    (void)state;
    expect_bound("--line 100g --dev-width 32 --pcie-latency-ns 20000 --tags 256 --pkt-size 1518",
                 "latency", "nothing busy");
}

/* The latency's parts: queueing and service add up to about the whole
 * (each a quantile of its own), and a longer link lengthens the service
 * (fetch to wire: the payload's round trip), not the queueing. */
static void test_latency_split(void **state)
{
    struct sim_result a, b;

    (void)state;
    run_args("--burst 1", &a);
    run_args("--burst 1 --pcie-latency-ns 1000", &b);
    assert_int_equal(a.sb.lat_split_samples, a.sb.lat_samples);
    assert_true(a.sb.lat_queue_p50_ns > 0 && a.sb.lat_service_p50_ns > 0);
    assert_true(fabs(a.sb.lat_queue_p50_ns + a.sb.lat_service_p50_ns - a.sb.lat_p50_ns) <
                0.1 * a.sb.lat_p50_ns);
    /* 900 ns more each way: the descriptor's MRd arrives 900 ns later
     * (queueing), the payload read's round trip and the descriptor's
     * completion add 2 x 900 ns to service */
    assert_true(b.sb.lat_queue_p50_ns - a.sb.lat_queue_p50_ns > 800);
    assert_true(b.sb.lat_service_p50_ns - a.sb.lat_service_p50_ns > 1600);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bound_busy),       cmocka_unit_test(test_bound_rules),
        cmocka_unit_test(test_bound_cpu_waits),  cmocka_unit_test(test_bound_starved),
        cmocka_unit_test(test_bound_latency),    cmocka_unit_test(test_latency_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
