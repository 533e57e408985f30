/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_lockstep.c - the C model of the engine (c-model/cm_engine.c) in
 * lockstep with the Verilated RTL over whole runs (docs/c-model.md): the
 * driver, CPUs and link drive the RTL, and the C model gets the same inputs
 * on every clock and must give the same outputs on every clock
 * (sim/device/dev_lockstep.c).  The configurations reach every block's corners:
 * each width, the three ownership protocols, several queues with both
 * schedulers, every completion mode with thresholds and moderation timers,
 * random frame sizes, the faults (error completions, a lost completion
 * and its timeout, a doorbell while disabled) with their queue resets, and
 * flow-control credits at their minimum with link latencies up to 20 us.
 *
 * And the check itself: a model that differs in one output on one clock
 * ends the run, named with the clock and both sides' outputs.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <stdlib.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "run/harness.h"
#include "run/inject.h"
#include "cli/profile.h"

struct ls_case {
    const char *name;
    uint64_t packets;
    const char *set[8];    /* profile assignments (profile_set) */
    const char *inject;    /* --inject, or NULL */
    const char *cpu;       /* --cpu, or NULL (x86) */
    unsigned pkt_size;     /* --pkt-size, or 0 (64) */
    unsigned pkt_size_max; /* --pkt-size-max, or 0 */
    struct pcie_fc_cfg fc_dev, fc_host; /* --fc-dev, --fc-host (0: infinite) */
    double latency_ns;     /* --pcie-latency-ns, or 0 (100) */
};

static const struct ls_case cases[] = {
    {.name = "default", .packets = 6000},
    {.name = "owner weak ordering, width 32", .packets = 4000,
     .set = {"driver.protocol=owner", "host.ordering=weak", "device.dev_width=32"}},
    {.name = "wc, bursts of 1", .packets = 2000, .set = {"driver.protocol=wc", "driver.burst=1"}},
    {.name = "wc, bursts of 16, width 16", .packets = 3000,
     .set = {"driver.protocol=wc", "driver.burst=16", "device.dev_width=16"}},
    {.name = "8 queues drr, width 16", .packets = 4000,
     .set = {"device.queues=8", "device.sched=drr", "device.weights=1,2,3,4,5,6,7,8",
             "device.dev_width=16"}},
    {.name = "64 queues drr", .packets = 4000,
     .set = {"device.queues=64", "device.sched=drr", "device.weights=3"}},
    {.name = "1518 B at 100G, width 64", .packets = 2000, .pkt_size = 1518,
     .set = {"device.dev_width=64", "device.line_gbps=100"}},
    {.name = "64 B at 100G gen4x16, cheap cpu, width 64", .packets = 6000, .cpu = "cheap",
     .set = {"device.dev_width=64", "device.line_gbps=100", "link.pcie=gen4x16",
             "driver.burst=32"}},
    {.name = "random sizes 64..9000 at 25G, width 16", .packets = 300, .pkt_size_max = 9000,
     .set = {"device.dev_width=16", "device.line_gbps=25"}},
    {.name = "cq with a moderation timer", .packets = 4000,
     .set = {"driver.completion=cq", "device.irq_usecs=5"}},
    {.name = "desc-wb with an interrupt threshold", .packets = 4000,
     .set = {"driver.completion=desc-wb", "device.irq_thresh=16"}},
    {.name = "mmio head reads", .packets = 3000, .set = {"driver.completion=mmio"}},
    /* A frame a clock: a completion write captured at one head waits while
     * a HEAD read's completion, of the next head, takes the d2h link; the
     * ownership checker keeps the later head (BlueFlame blocks then name
     * written slots: nictx draw --seed 40 --hw 2). */
    {.name = "wc, mmio head reads overtaking head writebacks", .packets = 3000,
     .set = {"driver.protocol=wc", "driver.completion=mmio", "device.dev_width=64",
             "device.dev_mhz=13.871", "device.irq_thresh=5"}},
    /* A HEAD read's completion waits while an interrupt's MWr or an MRd
     * takes the d2h link (the arbiter's other sources): held, not taken. */
    {.name = "mmio head reads among interrupts, 1518 B", .packets = 3000, .pkt_size = 1518,
     .set = {"driver.completion=mmio", "device.irq_thresh=1"}},
    /* Whole descriptors written back: several-beat MWrs at every width, cut
     * at MPS 128 and at the ring's wrap; with queues and an interrupt. */
    {.name = "desc-wb full, width 8, MPS 128", .packets = 3000,
     .set = {"driver.completion=desc-wb", "driver.desc_wb=full", "link.mps=128",
             "device.wb_thresh=12"}},
    {.name = "desc-wb full, width 32, 4 queues, irq", .packets = 4000,
     .set = {"driver.completion=desc-wb", "driver.desc_wb=full", "device.dev_width=32",
             "device.queues=4", "device.irq_thresh=16", "device.wb_thresh=24"}},
    {.name = "desc-wb full, width 64, fetches of 40", .packets = 4000,
     .set = {"driver.completion=desc-wb", "driver.desc_wb=full", "device.dev_width=64",
             "device.desc_fetch_max=40", "driver.burst=32", "device.wb_thresh=8"}},
    /* Fetches of pcie-model's 40 and the hardware's most, 64 (DescFetchMaxHw). */
    {.name = "fetches of 40, bursts of 32, width 32", .packets = 4000,
     .set = {"device.desc_fetch_max=40", "driver.burst=32", "device.dev_width=32"}},
    {.name = "fetches of 64, bursts of 64, 2 queues", .packets = 4000,
     .set = {"device.desc_fetch_max=64", "driver.burst=64", "device.queues=2"}},
    {.name = "4 queues cq, timer and threshold", .packets = 4000,
     .set = {"device.queues=4", "driver.completion=cq", "device.irq_usecs=3",
             "device.irq_thresh=8"}},
    {.name = "error completions", .packets = 2000, .inject = "ur@100,ca@500,ep@900"},
    {.name = "a lost completion", .packets = 2000, .inject = "timeout@200"},
    /* A 9000 B frame's first MRd fails and its later ones complete: its
     * read's last MRd retires with the error it carries (on a stream
     * clock of a run, a done with an error is the whole engine's). */
    {.name = "error completions on a long frame's first MRd", .packets = 400, .pkt_size = 9000,
     .inject = "ca@100,ur@300"},
    {.name = "a doorbell while disabled", .packets = 2000, .inject = "db-off@300"},
    {.name = "owner: error and lost completions", .packets = 3000,
     .set = {"driver.protocol=owner"}, .inject = "ur@100,timeout@1500"},
    {.name = "4 queues: a lost completion", .packets = 3000, .set = {"device.queues=4"},
     .inject = "timeout@2/100"},
    /* Credit and latency corners: the engine's ports held off by credits
     * for microseconds (its reads wait, its idle and wait signals skip). */
    {.name = "one posted-header credit, 2 us link", .packets = 2000, .fc_dev = {.ph = 1},
     .latency_ns = 2000},
    {.name = "every credit at its minimum both ways, 2 us", .packets = 200,
     .fc_dev = {.ph = 1, .pd = 16, .nph = 1, .npd = 1, .cplh = 1, .cpld = 16},
     .fc_host = {.ph = 1, .pd = 16, .nph = 1, .npd = 1, .cplh = 1, .cpld = 16},
     .latency_ns = 2000, .set = {"device.tags=256"}},
    {.name = "owner, 2 queues, two PH credits, 20 us link", .packets = 600,
     .fc_dev = {.ph = 2}, .latency_ns = 20000,
     .set = {"driver.protocol=owner", "device.queues=2"}},
    {.name = "1518 B, data credits at MPS/16 both ways, 1 us", .packets = 300, .pkt_size = 1518,
     .fc_dev = {.pd = 16, .cpld = 16}, .fc_host = {.pd = 16, .cpld = 16}, .latency_ns = 1000},
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

static void case_cfg(const struct ls_case *k, struct sim_cfg *cfg)
{
    char err[256];

    sim_cfg_default(cfg);
    cfg->packets = k->packets;
    cfg->device = DEV_BACKEND_LOCKSTEP;
    for (unsigned i = 0; i < 8 && k->set[i]; i++)
        if (profile_set(cfg, k->set[i], err, sizeof(err)) != 0)
            fail_msg("%s: %s: %s", k->name, k->set[i], err);
    cfg->fc_dev = k->fc_dev;
    cfg->fc_host = k->fc_host;
    if (k->latency_ns > 0)
        cfg->pcie.latency_ns = k->latency_ns;
    if (k->pkt_size)
        cfg->pkt_size = cfg->pkt_size_max = k->pkt_size;
    if (k->pkt_size_max)
        cfg->pkt_size_max = k->pkt_size_max;
    if (k->cpu) {
        assert_int_equal(cpu_costs_profile(&cfg->costs, k->cpu), 0);
        snprintf(cfg->cpu_profile, sizeof(cfg->cpu_profile), "%s", k->cpu);
    }
    if (k->inject && inj_parse(&cfg->inject, k->inject, err, sizeof(err)) != 0)
        fail_msg("%s: --inject %s: %s", k->name, k->inject, err);
}

/* Run cfg on `ops`: sim_run's status, the diagnosis in diag. */
static int ls_run(const struct sim_cfg *cfg, const struct device_ops *ops, struct sim_result *r,
                  char *diag, size_t len)
{
    char err[256] = "";
    struct sim *s = sim_create(cfg, ops, err, sizeof(err));
    int rc;

    if (!s)
        fail_msg("sim_create: %s", err);
    rc = sim_run(s);
    sim_result(s, r);
    snprintf(diag, len, "%s", sim_diag(s));
    sim_destroy(s);
    return rc;
}

/* Every configuration: the C model never differs from the RTL, and the run
 * ends as it would on the RTL alone (every frame checked or dropped by an
 * injected fault, none lost or corrupted). */
static void test_lockstep_configurations(void **state)
{
    (void)state;
    for (unsigned i = 0; i < NCASES; i++) {
        const struct ls_case *k = &cases[i];
        struct sim_cfg cfg;
        struct sim_result r;
        char diag[1024];
        int rc;

        case_cfg(k, &cfg);
        rc = ls_run(&cfg, dev_ops_for(DEV_BACKEND_LOCKSTEP, cfg.dev_width), &r, diag,
                    sizeof(diag));
        if (strstr(diag, "lockstep"))
            fail_msg("%s: %s", k->name, diag);
        if (rc != 0)
            fail_msg("%s: sim_run %d: %s", k->name, rc, diag);
        if (r.sb.lost || r.sb.corrupted || r.sb.checked + r.sb.dropped_total != cfg.packets)
            fail_msg("%s: checked %" PRIu64 " dropped %" PRIu64 " lost %" PRIu64
                     " corrupted %" PRIu64 " of %" PRIu64, k->name, r.sb.checked,
                     r.sb.dropped_total, r.sb.lost, r.sb.corrupted, cfg.packets);
        if (k->inject ? r.sb.dropped_total == 0 : r.sb.dropped_total != 0)
            fail_msg("%s: %" PRIu64 " frames dropped", k->name, r.sb.dropped_total);
        printf("  lockstep %-44s %6" PRIu64 " frames, %" PRIu64 " clocks evaluated\n", k->name,
               r.sb.checked, r.cycles_evaluated);
    }
}

/* ---- the check itself: a C model broken on one clock ---- */

static uint64_t broken_at;     /* the device clock whose FCS is changed */
static uint64_t broken_clock;  /* clocks so far, skipped ones included */
static unsigned broken_eops;

static void *broken_create(void) { return dev_cm_ops_width(8)->create(); }
static void broken_destroy(void *d) { dev_cm_ops_width(8)->destroy(d); }
static void broken_reset(void *d)
{
    broken_clock = 0;
    broken_eops = 0;
    broken_at = 0;
    dev_cm_ops_width(8)->reset(d);
}
/* The C model, but the 100th frame's FCS is off by one bit. */
static void broken_step(void *d, const struct dev_in *in, struct dev_out *out)
{
    broken_clock += (uint64_t)in->skip + 1;
    dev_cm_ops_width(8)->step(d, in, out);
    if (out->wire.valid && out->wire.eop && ++broken_eops == 100) {
        out->wire.fcs ^= 1;
        broken_at = broken_clock - 1;
    }
}
static const struct device_ops broken_ops = {"broken",   8,    broken_create, broken_destroy,
                                             broken_reset, broken_step, NULL, NULL, NULL, NULL,
                                             NULL, NULL, NULL, NULL, NULL};

static void *pair_create(void) { return dev_lockstep_create(dev_rtl_ops_width(8), &broken_ops); }

static void test_lockstep_names_the_first_difference(void **state)
{
    const struct device_ops *ls = dev_lockstep_ops_width(8);
    const struct device_ops pair = {"lockstep", 8,         pair_create, ls->destroy, ls->reset,
                                    ls->step,   ls->fault, NULL,        NULL,        NULL,
                                    ls->cover,  NULL,      NULL,        NULL,        NULL};
    struct sim_cfg cfg;
    struct sim_result r;
    char diag[1024], want[128];

    (void)state;
    sim_cfg_default(&cfg);
    cfg.packets = 2000;
    assert_int_not_equal(ls_run(&cfg, &pair, &r, diag, sizeof(diag)), 0);
    assert_true(broken_at > 0);
    snprintf(want, sizeof(want), "lockstep: model broken differs from rtl at device clock %" PRIu64,
             broken_at);
    if (!strstr(diag, want))
        fail_msg("expected \"%s\" in: %s", want, diag);
    /* The port and field that differ, both values. */
    assert_non_null(strstr(diag, "first in wire.fcs: rtl 0x"));
    /* Both sides' outputs, the FCS one bit apart. */
    assert_non_null(strstr(diag, "\n  rtl  h2d_ready"));
    assert_non_null(strstr(diag, "\n  broken h2d_ready"));
    /* The run stopped there: the frames after it were never sent. */
    assert_true(r.sb.checked < 200);
}

/* ---- runs (device_ops.run): checked on each clock, and the same results ---- */

static unsigned broken_runs;

/* The C model, but the 50th run with three wire beats or more has one
 * byte of its second beat changed. */
static uint32_t broken_run(void *d, struct dev_run *r)
{
    uint32_t n = dev_cm_ops_width(8)->run(d, r);

    if (r->wire_beats >= 3 && ++broken_runs == 50)
        r->wire[8] ^= 0x10;
    return n;
}
static void broken_run_reset(void *d)
{
    broken_runs = 0;
    dev_cm_ops_width(8)->reset(d);
}
static const struct device_ops broken_run_ops = {
    "broken", 8, broken_create, broken_destroy, broken_run_reset, broken_step, NULL, NULL, NULL,
    NULL, NULL, NULL, NULL, NULL, broken_run};

static void *run_pair_create(void)
{
    return dev_lockstep_create(dev_rtl_ops_width(8), &broken_run_ops);
}

/* A run whose wire bytes differ on one clock: the lockstep pair names the
 * clock, its place in the run, and the field. */
static void test_lockstep_run_difference_named(void **state)
{
    const struct device_ops *ls = dev_lockstep_ops_width(8);
    const struct device_ops pair = {"lockstep", 8,         run_pair_create, ls->destroy, ls->reset,
                                    ls->step,   ls->fault, NULL,            NULL,        NULL,
                                    ls->cover,  NULL,      NULL,            NULL,        ls->run};
    struct sim_cfg cfg;
    struct sim_result r;
    char diag[1024];

    (void)state;
    sim_cfg_default(&cfg);
    cfg.packets = 2000;
    cfg.pkt_size = cfg.pkt_size_max = 1518;
    assert_int_not_equal(ls_run(&cfg, &pair, &r, diag, sizeof(diag)), 0);
    assert_int_equal(broken_runs, 50);
    if (!strstr(diag, "lockstep: model broken differs from rtl at device clock ") ||
        !strstr(diag, "first in wire.data, on clock ") || !strstr(diag, " of a run of "))
        fail_msg("%s", diag);
    assert_true(r.sb.checked < 200);
}

/* The C model's runs give what its clocks one at a time give: the same
 * figures, clocks and cover points, with the device's runs (the default)
 * and without (its ops but run).  Owner at one packet a doorbell: the
 * descriptor reads of each not-owned flush complete in stream clocks; WC
 * at one: each descriptor's BlueFlame write runs, its middle beats stream
 * clocks.  With one queue, an eighth of the clocks in runs or more are
 * stream clocks (sim.cycles_streamed): a shortcut that stops being taken
 * fails here, though it changes no figure. */
static void test_runs_change_nothing(void **state)
{
    static const struct {
        unsigned pkt_size, pkt_size_max, width, queues, buf_offset, burst;
        const char *protocol;
    } runs[] = {
        {64, 0, 8, 1, 0, 0, "tail"},     {1518, 0, 8, 1, 0, 0, "tail"},
        {1518, 0, 64, 1, 0, 0, "owner"}, {1518, 0, 16, 4, 0, 0, "tail"},
        {64, 1518, 32, 1, 3, 0, "wc"},   {9000, 0, 8, 1, 5, 0, "tail"},
        {64, 0, 8, 1, 0, 1, "owner"},    {256, 0, 16, 1, 0, 2, "owner"},
        {64, 0, 8, 1, 0, 1, "wc"},
    };
    (void)state;
    for (unsigned i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
        struct sim_cfg cfg;
        struct sim_result a, b;
        char diag[1024], err[256], set[64];
        sim_cfg_default(&cfg);
        cfg.packets = 1500;
        cfg.device = DEV_BACKEND_CM;
        cfg.pkt_size = runs[i].pkt_size;
        cfg.pkt_size_max = runs[i].pkt_size_max ? runs[i].pkt_size_max : runs[i].pkt_size;
        cfg.dev_width = runs[i].width;
        cfg.queues = runs[i].queues;
        cfg.buf_offset = runs[i].buf_offset;
        if (runs[i].burst)
            cfg.burst = runs[i].burst;
        snprintf(set, sizeof(set), "driver.protocol=%s", runs[i].protocol);
        if (profile_set(&cfg, set, err, sizeof(err)) != 0)
            fail_msg("%s", err);
        struct device_ops steps = *dev_ops_for(DEV_BACKEND_CM, cfg.dev_width);
        assert_non_null(steps.run);
        assert_int_equal(ls_run(&cfg, &steps, &a, diag, sizeof(diag)), 0);
        steps.run = NULL;
        assert_int_equal(ls_run(&cfg, &steps, &b, diag, sizeof(diag)), 0);
        printf("  runs: %4u B width %2u %-5s: %" PRIu64 " of %" PRIu64
               " clocks in runs, %" PRIu64 " streamed\n",
               cfg.pkt_size, cfg.dev_width, runs[i].protocol, a.cycles_in_runs,
               a.cycles_evaluated, a.cycles_streamed);
        assert_true(a.cycles_in_runs > a.cycles_evaluated / 4);
        assert_int_equal(b.cycles_in_runs, 0);
        assert_int_equal(b.cycles_streamed, 0);
        /* Its shortcuts are taken: one queue streams, and several queues
         * while their scheduler waits (cm_engine.c, stream_env()). */
        assert_true(a.cycles_streamed <= a.cycles_in_runs);
        if (a.cycles_streamed <= a.cycles_in_runs / (runs[i].queues == 1 ? 8 : 16))
            fail_msg("config %u: %" PRIu64 " of %" PRIu64 " clocks in runs streamed", i,
                     a.cycles_streamed, a.cycles_in_runs);
        assert_int_equal(a.cycles_evaluated, b.cycles_evaluated);
        assert_int_equal(a.cycles_skipped, b.cycles_skipped);
        assert_int_equal(a.sim_time_ps, b.sim_time_ps);
        assert_int_equal(a.sb.checked, b.sb.checked);
        assert_int_equal(a.sb.checked, cfg.packets);
        assert_memory_equal(a.cover, b.cover, sizeof(a.cover));
        assert_true(a.cpu_ns_total == b.cpu_ns_total);
        assert_true(a.util_engine == b.util_engine && a.util_wire == b.util_wire);
        assert_int_equal(a.rd_stall_cycles, b.rd_stall_cycles);
    }
}

/* The run a divergence stops leaves its snapshot: the timeline of the
 * window before the stop ends with the difference (this pair has no
 * trace-enabled model: no waveform, and the message says so). */
static void test_lockstep_divergence_snapshot(void **state)
{
    const struct device_ops *ls = dev_lockstep_ops_width(8);
    const struct device_ops pair = {"lockstep", 8,         pair_create, ls->destroy, ls->reset,
                                    ls->step,   ls->fault, NULL,        NULL,        NULL,
                                    ls->cover,  NULL,      NULL,        NULL,        NULL};
    char dir[] = "/tmp/nictx-ls-XXXXXX", base[64], path[96], err[256], msg[2400], cmd[96];
    struct sim_cfg cfg;
    struct sim *s;
    FILE *f;
    char *text;
    long n;

    (void)state;
    assert_non_null(mkdtemp(dir));
    sim_cfg_default(&cfg);
    cfg.packets = 2000;
    s = sim_create(&cfg, &pair, err, sizeof(err));
    assert_non_null(s);
    assert_int_not_equal(sim_run(s), 0);
    snprintf(base, sizeof(base), "%s/ls.json", dir);
    assert_int_equal(sim_snapshot(s, base, msg, sizeof(msg)), 0);
    if (!strstr(msg, "ls.snapshot.json (timeline); no waveform"))
        fail_msg("%s", msg);
    snprintf(path, sizeof(path), "%s/ls.snapshot.json", dir);
    f = fopen(path, "r");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    text = calloc(1, (size_t)n + 1);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    assert_non_null(strstr(text, "\"run stopped\""));
    assert_non_null(strstr(text, "lockstep: model broken differs from rtl"));
    free(text);
    sim_destroy(s);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lockstep_configurations),
        cmocka_unit_test(test_lockstep_names_the_first_difference),
        cmocka_unit_test(test_lockstep_divergence_snapshot),
        cmocka_unit_test(test_lockstep_run_difference_named),
        cmocka_unit_test(test_runs_change_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
