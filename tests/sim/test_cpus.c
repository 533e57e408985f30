/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_cpus.c - the host side with more than one CPU, end to end: the
 * completion CPU, MMIO reads that stall only their own CPU, cache lines
 * between the CPUs (layout, BQL's dql_queued order), posted-write drain
 * behind locked instructions and tail coalescing, and the qdisc source.
 * Runs the whole simulator with the Verilated engine; asserts counted
 * results, never wall-clock time.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/report_capture.h"
#include "run/harness.h"
#include "run/sim_world.h"

static void cfg2(struct sim_cfg *cfg)
{
    sim_cfg_default(cfg);
    cfg->packets = 6000;
    cfg->cpus = 2;
}

static void run(const struct sim_cfg *cfg, struct sim_result *r)
{
    char err[256] = "";
    struct sim *s = sim_create(cfg, &dev_rtl_ops, err, sizeof(err));

    if (!s)
        fail_msg("sim_create: %s", err);
    if (sim_run(s) != 0)
        fail_msg("sim_run: %s", sim_diag(s));
    sim_result(s, r);
    sim_destroy(s);
    if (r->nviolations)
        fail_msg("%s: %s", r->violations[0].kind, r->violations[0].detail);
    assert_int_equal(r->sb.checked, cfg->packets);
    assert_int_equal(r->sb.lost, 0);
    assert_int_equal(r->sb.corrupted, 0);
    assert_int_equal(r->completed, cfg->packets);
}

static const struct sim_lines *line(const struct sim_result *r, const char *name)
{
    for (unsigned i = 0; i < r->nlines; i++)
        if (strcmp(r->lines[i].name, name) == 0)
            return &r->lines[i];
    fail_msg("no cache-line region %s", name);
    return NULL;
}

/* Two CPUs: CPU 0 sends, CPU 1 cleans; each has its own clock and time by
 * cause, and the cleanup work moved off the transmit CPU. */
static void test_cpus_completion_cpu(void **state)
{
    struct sim_cfg cfg;
    struct sim_result one, two;

    (void)state;
    cfg2(&cfg);
    cfg.cpus = 1;
    run(&cfg, &one);
    cfg.cpus = 2;
    run(&cfg, &two);
    assert_int_equal(two.ncpu, 2);
    assert_true(two.cpu_ns_per_pkt_cpu[1][CPU_DRIVER] > 0);        /* cleanup */
    assert_true(two.cpu_ns_per_pkt_cpu[1][CPU_DOORBELL] == 0);     /* never sends */
    assert_true(two.cpu_ns_per_pkt_cpu[0][CPU_DRIVER] < one.cpu_ns_per_pkt[CPU_DRIVER]);
    assert_true(two.cpu_ns_per_pkt[CPU_CACHELINE] > 0); /* the CPUs share lines now */
    assert_true(one.cpu_ns_per_pkt[CPU_CACHELINE] == 0);
}

/* An MMIO read of HEAD stalls the completion CPU only; the transmit CPU
 * keeps sending meanwhile. */
static void test_cpus_mmio_read_stalls_one_cpu(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;

    (void)state;
    cfg2(&cfg);
    cfg.clean = TXQ_CLEAN_HEAD_MMIO;
    run(&cfg, &r);
    assert_true(r.cpu_ns_per_pkt_cpu[1][CPU_MMIO_READ] > 0);
    assert_true(r.cpu_ns_per_pkt_cpu[0][CPU_MMIO_READ] == 0);
}

/* Producer and consumer fields on one line (packed) make the consumer's
 * line traffic land on the producer's line: the counters say where the
 * transfers go. */
static void test_cpus_layout_moves_transfers(void **state)
{
    struct sim_cfg cfg;
    struct sim_result split, packed;

    (void)state;
    cfg2(&cfg);
    cfg.wb_thresh = 1; /* the completion CPU runs per completion */
    cfg.layout = SIM_LAYOUT_SPLIT;
    run(&cfg, &split);
    cfg.layout = SIM_LAYOUT_PACKED;
    run(&cfg, &packed);
    print_message("prod line: split %.3f xfer %.3f upg, packed %.3f xfer %.3f upg per pkt\n",
                  (double)line(&split, "txq.prod")->st.xfers / (double)cfg.packets,
                  (double)line(&split, "txq.prod")->st.upgrades / (double)cfg.packets,
                  (double)line(&packed, "txq.prod")->st.xfers / (double)cfg.packets,
                  (double)line(&packed, "txq.prod")->st.upgrades / (double)cfg.packets);
    /* Split, the transmit CPU's reads of the consumer index move the
     * consumer's line; packed, the completion CPU's writes to it invalidate
     * the producer's line too: more traffic lands on it. */
    assert_true(line(&split, "txq.cons")->st.xfers > 0);
    assert_true(line(&packed, "txq.prod")->st.xfers + line(&packed, "txq.prod")->st.upgrades >
                line(&split, "txq.prod")->st.xfers + line(&split, "txq.prod")->st.upgrades);
}

/* The cache lines are the ring's, as the device and the driver see them,
 * wherever the C library put host memory: a fetch of 8 descriptors (128
 * bytes at a ring index that is a multiple of 8, from a 128-byte aligned
 * ring) reads exactly 2 lines, so the device snoops the ring's lines 2 times
 * per 8 packets (bursts of 8: each fetch finds lines the CPU just wrote).
 * With host memory 16 bytes off a line, a fetch spans 3 lines (0.35). */
static void test_cpus_ring_lines_are_bus_lines(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;

    (void)state;
    sim_cfg_default(&cfg);
    cfg.packets = 8000;
    run(&cfg, &r);
    assert_int_equal(line(&r, "ring")->st.snoops * 4, cfg.packets);
}

/* A locked instruction after an uncached doorbell waits for the posted
 * write to leave the core (ixgbe 2012); coalescing tail writes removes
 * most of that stall. */
static void test_cpus_posted_write_drain(void **state)
{
    struct sim_cfg cfg;
    struct sim_result each, coalesced;

    (void)state;
    cfg2(&cfg);
    cfg.cpus = 1;
    cfg.burst = 1;
    cfg.costs.uc_drain_ns = 150;
    run(&cfg, &each);
    cfg.tail_coalesce = 16;
    run(&cfg, &coalesced);
    print_message("lock_stall ns/pkt: tail per packet %.1f, coalesced %.1f; Mpps %.3f -> %.3f\n",
                  each.cpu_ns_per_pkt[CPU_LOCK_STALL], coalesced.cpu_ns_per_pkt[CPU_LOCK_STALL],
                  each.sb.mpps, coalesced.sb.mpps);
    /* The wait beyond the lock's own cost (lock_ns per burst of one). */
    double lock = cfg.costs.lock_ns;
    assert_true(each.cpu_ns_per_pkt[CPU_LOCK_STALL] - lock > 15);
    assert_true(coalesced.cpu_ns_per_pkt[CPU_LOCK_STALL] - lock <
                (each.cpu_ns_per_pkt[CPU_LOCK_STALL] - lock) / 4);
    assert_true(coalesced.doorbells_per_pkt < 0.1);
    assert_true(coalesced.sb.mpps > each.sb.mpps);
}

/* The qdisc source: batch sizes come out of BQL, not out of --burst. */
static void test_cpus_qdisc_batches_from_bql(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;

    (void)state;
    cfg2(&cfg);
    cfg.source = SIM_SOURCE_QDISC;
    cfg.bql = 1;
    cfg.burst = 64; /* the most one dequeue may take */
    run(&cfg, &r);
    assert_true(r.doorbells_per_pkt < 0.5);      /* batches, not single packets */
    assert_true(r.doorbells_per_pkt > 1.0 / 64); /* ... smaller than the cap */
    assert_true(r.txq.bql_stops > 0);
    assert_true(r.cpu_ns_per_pkt[CPU_LOCK_STALL] > 0);
}

/* `queues` queues on `cpus` CPUs, the defaults otherwise. */
static void cfgq(struct sim_cfg *cfg, uint64_t packets, unsigned queues, unsigned cpus)
{
    sim_cfg_default(cfg);
    cfg->packets = packets;
    cfg->queues = queues;
    cfg->cpus = cpus;
}

/* What CPU c spent on doorbells, per packet of the run: it sent. */
static int sent_on(const struct sim_result *r, unsigned c)
{
    return r->cpu_ns_per_pkt_cpu[c][CPU_DOORBELL] > 0;
}

/* The largest host: 64 queues on 64 CPUs, a queue each (XPS's default),
 * the head read by MMIO so that every CPU's read completion must find its
 * way back by tag.  Every CPU sends and reads; the result has 64 CPUs. */
static void test_cpus_64_queue_per_cpu(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;

    (void)state;
    cfgq(&cfg, 64 * 40, 64, 64);
    cfg.line_gbps = 100;
    cfg.clean = TXQ_CLEAN_HEAD_MMIO;
    run(&cfg, &r);
    assert_int_equal(r.ncpu, 64);
    for (unsigned c = 0; c < 64; c++) {
        if (!sent_on(&r, c) || !(r.cpu_ns_per_pkt_cpu[c][CPU_MMIO_READ] > 0))
            fail_msg("CPU %u did not send and read its queue's head", c);
        assert_int_equal(r.queues[c].packets, 40);
    }
}

/* The report names each CPU the run has, and no other: 3 CPUs give cpu0..
 * cpu2 in the JSON's by-CPU block and the table, and each queue's CPU in
 * the configuration. */
static void test_cpus_report_names_existing_cpus(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;
    char *json, *text;

    (void)state;
    cfgq(&cfg, 600, 3, 3);
    run(&cfg, &r);
    json = report_capture(&cfg, &r, 0, "", 1);
    text = report_capture(&cfg, &r, 0, "", 0);
    assert_non_null(strstr(json, "\"cpu2\": {"));
    assert_null(strstr(json, "\"cpu3\""));
    assert_non_null(strstr(json, "\"xps\": [\n      0,\n      1,\n      2\n    ]"));
    assert_non_null(strstr(text, "cpu2 ns/pkt:"));
    assert_null(strstr(text, "cpu3 ns/pkt:"));
    test_free(json);
    test_free(text);
}

/* --xps: queues 0 and 1 on CPU 0, 2 and 3 on CPU 1; CPUs 2 and 3 have no
 * queue and do nothing.  Then the default (a queue per CPU) uses all four. */
static void test_cpus_xps_map(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;

    (void)state;
    cfgq(&cfg, 4000, 4, 4);
    assert_int_equal(sim_parse_weights("0,0,1,1", &cfg.xps), 0);
    assert_int_equal(sim_cfg_queue_cpu(&cfg, 1), 0);
    assert_int_equal(sim_cfg_queue_cpu(&cfg, 2), 1);
    run(&cfg, &r);
    assert_true(sent_on(&r, 0) && sent_on(&r, 1));
    for (unsigned c = 2; c < 4; c++)
        for (unsigned k = 0; k < CPU_CAUSE_COUNT; k++)
            if (k != CPU_IDLE && r.cpu_ns_per_pkt_cpu[c][k] != 0)
                fail_msg("CPU %u has no queue but spent %s time", c,
                         cpu_cause_name((enum cpu_cause)k));
    cfg.xps.n = 0;
    assert_int_equal(sim_cfg_queue_cpu(&cfg, 3), 3);
    run(&cfg, &r);
    for (unsigned c = 0; c < 4; c++)
        assert_true(sent_on(&r, c));
}

/* One queue on four CPUs: CPU 0 sends, CPU 1 cleans up, CPUs 2 and 3 have
 * nothing to do and the run ends cleanly. */
static void test_cpus_one_queue_extra_cpus_idle(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;

    (void)state;
    cfg2(&cfg);
    cfg.cpus = 4;
    run(&cfg, &r);
    assert_int_equal(r.ncpu, 4);
    assert_true(sent_on(&r, 0));
    assert_true(r.cpu_ns_per_pkt_cpu[1][CPU_DRIVER] > 0);
    assert_true(r.cpu_ns_per_pkt_cpu[2][CPU_DRIVER] == 0 &&
                r.cpu_ns_per_pkt_cpu[3][CPU_DRIVER] == 0);
}

/* --qdisc-root shared: 8 queues on 8 CPUs through one root qdisc.  Every
 * dequeue takes its lock and writes its counters from another CPU than the
 * last one, so both lines move at about every packet, and CPUs spin on the
 * held lock; with a root per queue (mq) nothing moves and nobody spins.
 * The same shared root with every queue on one CPU moves no line. */
static void test_cpus_shared_root_qdisc(void **state)
{
    struct sim_cfg cfg;
    struct sim_result mq, one, shared;
    char err[256];

    (void)state;
    cfgq(&cfg, 8000, 8, 8);
    cfg.source = SIM_SOURCE_QDISC;
    run(&cfg, &mq);
    cfg.qdisc_root = SIM_ROOT_SHARED;
    run(&cfg, &shared);
    assert_true(line(&shared, "qdisc.root")->st.xfers > cfg.packets);
    assert_true(line(&shared, "qdisc.stats")->st.xfers > cfg.packets / 2);
    assert_true(shared.cpu_ns_per_pkt[CPU_LOCK_STALL] > 4 * mq.cpu_ns_per_pkt[CPU_LOCK_STALL]);
    assert_true(shared.sb.mpps < mq.sb.mpps);
    for (unsigned i = 0; i < mq.nlines; i++)
        assert_true(strncmp(mq.lines[i].name, "qdisc.", 6) != 0);
    assert_int_equal(sim_parse_weights("0", &cfg.xps), 0);
    run(&cfg, &one);
    assert_int_equal(line(&one, "qdisc.root")->st.xfers, 0);
    assert_true(one.cpu_ns_per_pkt[CPU_LOCK_STALL] < shared.cpu_ns_per_pkt[CPU_LOCK_STALL] / 4);
    /* Only the qdisc source has a root, and only several queues share one. */
    cfg.source = SIM_SOURCE_PKTGEN;
    assert_int_equal(sim_cfg_validate(&cfg, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "--qdisc-root shared"));
}

/* The class behind "a full-budget NAPI pass under interrupts": every
 * program that runs the NAPI poll (one CPU with interrupts, the
 * completion CPU of two, each queue's poll with several queues and
 * interrupts) polls again at once after a pass that used its whole
 * budget, and waits for the next interrupt only after a pass that used
 * less.  A budget of 4 under an interrupt every 64 completions: a program
 * that waits after a full pass leaves 60 completions of each interrupt
 * unreclaimed until the ring fills and the run stalls; each shape runs to
 * the end with every packet reclaimed (run()), on the interrupts the
 * threshold gives (floor(packets / 64) of each queue's). */
static void test_cpus_napi_full_budget_polls_again(void **state)
{
    static const unsigned shape[][2] = {{1, 1}, {2, 1}, {2, 3}}; /* cpus, queues */

    (void)state;
    for (size_t i = 0; i < sizeof(shape) / sizeof(shape[0]); i++) {
        struct sim_cfg cfg;
        struct sim_result r;
        uint64_t irqs = 0;

        sim_cfg_default(&cfg);
        cfg.packets = 6000;
        cfg.cpus = shape[i][0];
        cfg.queues = shape[i][1];
        cfg.napi = SIM_NAPI_IRQ;
        cfg.irq_thresh = 64;
        cfg.napi_budget = 4;
        run(&cfg, &r);
        for (unsigned q = 0; q < cfg.queues; q++)
            irqs += sim_cfg_queue_packets(&cfg, q) / 64;
        assert_true(fabs(r.irqs_per_pkt * (double)cfg.packets - (double)irqs) < 0.5);
        assert_true(r.txq.cleans >= cfg.packets / cfg.napi_budget);
    }
}

/* A two-CPU world, before its run, with both clocks at `now`. */
static struct sim *world2(sim_ps_t now)
{
    struct sim_cfg cfg;
    char err[256] = "";
    struct sim *s;

    cfg2(&cfg);
    s = sim_create(&cfg, &dev_rtl_ops, err, sizeof(err));
    if (!s)
        fail_msg("sim_create: %s", err);
    s->cpus[0].cpu.now = s->cpus[1].cpu.now = now;
    return s;
}

/* What CPU 1 reads of driver state CPU 0 has just stored (cpu_view): the
 * old bytes until the store is visible at the reader's clock, for a plain
 * store (CPU 0's lane) and for a marked one (its store buffer). */
static void test_cpus_view_of_driver_state(void **state)
{
    static uint32_t word[2] = {5, 6};
    const sim_ps_t t0 = 1000000, late = 1000000000; /* 1 us; 1 ms */
    uint32_t one = 1, v;
    struct sim *s = world2(t0);

    (void)state;
    assert_int_equal(sim_shared_add(s, &word[0], sizeof(word), 0), 0);
    plat_access(&s->cpus[0].plat, &word[0], 4, PLAT_ACC_WRITE); /* word[0] = 1 */
    word[0] = 1;
    cpu_view(&s->cpus[1], &word[0], &v, 4);
    assert_int_equal(v, 5);
    s->cpus[1].cpu.now = late;
    cpu_view(&s->cpus[1], &word[0], &v, 4);
    assert_int_equal(v, 1);
    sim_destroy(s);

    s = world2(t0);
    cpu_store_shared(&s->cpus[0], &word[1], &one, 4); /* WRITE_ONCE(word[1], 1) */
    assert_int_equal(word[1], 1);
    cpu_view(&s->cpus[1], &word[1], &v, 4);
    assert_int_equal(v, 6);
    cpu_view(&s->cpus[0], &word[1], &v, 4); /* its own store it sees */
    assert_int_equal(v, 1);
    s->cpus[1].cpu.now = late;
    cpu_view(&s->cpus[1], &word[1], &v, 4);
    assert_int_equal(v, 1);
    sim_destroy(s);
}

/* The registry's region holding p, by a scan of every region. */
static const struct sim_shared *shared_scan(const struct sim *s, const uint8_t *p)
{
    for (unsigned i = 0; i < s->nshr; i++)
        if ((uintptr_t)p >= s->shr[i].lo && (uintptr_t)p < s->shr[i].hi)
            return &s->shr[i];
    return NULL;
}

/* Every byte of [lo, hi): the lookup finds the region a scan finds, and
 * every CPU's kcsan filter announces it (kcpu_models) when it is in one. */
static void shared_check(struct sim *s, const uint8_t *lo, const uint8_t *hi)
{
    for (const uint8_t *p = lo; p < hi; p++) {
        const struct sim_shared *want = shared_scan(s, p);
        if (sim_shared_find(s, p) != want)
            fail_msg("byte %td: found the wrong region", p - lo);
        for (unsigned c = 0; want && c < s->ncpu; c++)
            if (!kcpu_models(&s->cpus[c].kcpu, (uintptr_t)p))
                fail_msg("byte %td of a region: CPU %u does not announce it", p - lo, c);
    }
}

/* The lookup of many driver-state regions (the span's map, sim_world.h):
 * several regions in one granule, regions across granules, adjacent
 * ones, long gaps; a region added or removed later. */
static void test_cpus_shared_region_lookup(void **state)
{
    static _Alignas(64) uint8_t mem[64 + 4096 + 64]; /* the regions' 4096 bytes, and a line each side */
    uint8_t *buf = mem + 64;
    static const unsigned at[][2] = {{0, 4},     {8, 16},      {20, 24},     {40, 64},
                                     {64, 65},   {100, 300},   {300, 310},   {311, 312},
                                     {1024, 1088}, {3000, 4096}};
    struct sim *s = world2(0);

    (void)state;
    while (s->nshr > 0) /* the probe's regions: this buffer's only */
        plat_shared(&s->cpus[0].plat, (const void *)s->shr[0].lo, 0);
    for (unsigned i = 0; i < sizeof(at) / sizeof(at[0]); i++)
        assert_int_equal(sim_shared_add(s, buf + at[i][0], at[i][1] - at[i][0], 0), 0);
    shared_check(s, mem, mem + sizeof(mem));
    for (unsigned c = 0; c < s->ncpu; c++) /* a granule of the gap: private */
        assert_false(kcpu_models(&s->cpus[c].kcpu, (uintptr_t)(buf + 2048)));

    /* Added in the gap: announced before any lookup, then found. */
    assert_int_equal(sim_shared_add(s, buf + 2050, 6, 0), 0);
    for (unsigned c = 0; c < s->ncpu; c++)
        assert_true(kcpu_models(&s->cpus[c].kcpu, (uintptr_t)(buf + 2052)));
    shared_check(s, mem, mem + sizeof(mem));
    plat_shared(&s->cpus[0].plat, buf + 100, 0); /* removed: no longer found */
    assert_null(sim_shared_find(s, buf + 200));
    shared_check(s, mem, mem + sizeof(mem));
    sim_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpus_completion_cpu),
        cmocka_unit_test(test_cpus_mmio_read_stalls_one_cpu),
        cmocka_unit_test(test_cpus_layout_moves_transfers),
        cmocka_unit_test(test_cpus_posted_write_drain),
        cmocka_unit_test(test_cpus_qdisc_batches_from_bql),
        cmocka_unit_test(test_cpus_ring_lines_are_bus_lines),
        cmocka_unit_test(test_cpus_64_queue_per_cpu),
        cmocka_unit_test(test_cpus_xps_map),
        cmocka_unit_test(test_cpus_report_names_existing_cpus),
        cmocka_unit_test(test_cpus_one_queue_extra_cpus_idle),
        cmocka_unit_test(test_cpus_shared_root_qdisc),
        cmocka_unit_test(test_cpus_napi_full_budget_polls_again),
        cmocka_unit_test(test_cpus_view_of_driver_state),
        cmocka_unit_test(test_cpus_shared_region_lookup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
