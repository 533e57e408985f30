/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_ownership.c - descriptor ownership end to end: the three protocols
 * under both store orderings, what barrier placements cost, and the
 * catalogue of broken drivers (sim/check/bug_catalog.h), each of which must be
 * named by its diagnostic without hanging while the correct driver passes
 * the same scenario; with several queues, a checker per queue: a broken
 * driver is named on every queue it bites, and correct drivers on 4 and 16
 * queues run clean in every completion mode.  Runs the whole simulator
 * with the Verilated engine.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "check/bug_catalog.h"
#include "cli/profile.h"
#include "run/harness.h"
#include "nictx_hw.h"
#include "cli/report.h"
#include "common/report_capture.h"

static void base_cfg(struct sim_cfg *cfg, enum txq_proto p, enum stbuf_order o)
{
    sim_cfg_default(cfg);
    cfg->packets = 3000;
    cfg->ring_size = 256; /* several passes: the owner phase flips */
    cfg->proto = p;
    cfg->ordering = o;
}

/* Run; sim_run's status (0 clean, 1 a violation, -1 failed). */
static int run_rc(const struct sim_cfg *cfg, struct sim_result *r, char *diag, size_t n)
{
    char err[256] = "";
    struct sim *s = sim_create(cfg, &dev_rtl_ops, err, sizeof(err));
    int rc;

    if (!s)
        fail_msg("sim_create: %s", err);
    rc = sim_run(s);
    sim_result(s, r);
    snprintf(diag, n, "%s", sim_diag(s));
    sim_destroy(s);
    return rc;
}

/* Run; status must be `want` (0 clean, 1 stopped by a violation). */
static void run(const struct sim_cfg *cfg, struct sim_result *r, int want)
{
    char diag[256];
    int rc = run_rc(cfg, r, diag, sizeof(diag));

    if (rc != want)
        fail_msg("%s/%s/%s: sim_run %d (want %d): %s", sim_proto_name(cfg->proto),
                 sim_barrier_name(cfg->barrier), sim_ordering_name(cfg->ordering), rc, want,
                 diag);
}

static void assert_clean(const struct sim_cfg *cfg, const struct sim_result *r)
{
    if (r->nviolations)
        fail_msg("%s: %s", r->violations[0].kind, r->violations[0].detail);
    assert_int_equal(r->sb.checked, cfg->packets);
    assert_int_equal(r->sb.lost, 0);
    assert_int_equal(r->sb.corrupted, 0);
    assert_int_equal(r->completed, cfg->packets);
    assert_int_equal(r->dev_err, 0);
}

static int has_violation(const struct sim_result *r, const char *kind)
{
    size_t k;

    for (k = 0; k < r->nviolations && k < SIM_MAX_VIOLATIONS; k++)
        if (strcmp(r->violations[k].kind, kind) == 0)
            return 1;
    return 0;
}

/* The correct driver runs clean in every protocol, placement and ordering;
 * owner protocols really hand descriptors over by owner bit (the driver
 * set them), and under weak ordering the barriers really wait. */
static void test_ownership_correct_drivers(void **state)
{
    static const enum txq_barrier bars[] = {TXQ_BARRIER_PER_DESC, TXQ_BARRIER_PER_BATCH,
                                            TXQ_BARRIER_WMB_PER_DESC};
    unsigned p, o, b;

    (void)state;
    for (p = TXQ_PROTO_TAIL; p <= TXQ_PROTO_WC; p++)
        for (o = STBUF_X86; o <= STBUF_WEAK; o++)
            for (b = 0; b < 3; b++) {
                struct sim_cfg cfg;
                struct sim_result r;
                base_cfg(&cfg, p, o);
                cfg.barrier = bars[b];
                run(&cfg, &r, 0);
                assert_clean(&cfg, &r);
                if (p != TXQ_PROTO_TAIL && b != 1)
                    assert_true(r.txq.dma_wmbs + r.txq.wmbs >= cfg.packets);
                if (p == TXQ_PROTO_WC) { /* every batch ends in a push, not a doorbell */
                    assert_int_equal(r.txq.doorbells, 0);
                    assert_int_equal(r.txq.wc_pushes, (cfg.packets + cfg.burst - 1) / cfg.burst);
                }
                if (o == STBUF_WEAK && p != TXQ_PROTO_TAIL && b != 1)
                    assert_true(r.cpu_ns_per_pkt[CPU_DRAIN] > 0);
            }
}

/* Weak ordering draws its drain order from the seed: two seeds, two
 * timelines, both clean. */
static void test_ownership_weak_differs_by_seed(void **state)
{
    struct sim_cfg cfg;
    struct sim_result a, b;

    (void)state;
    base_cfg(&cfg, TXQ_PROTO_OWNER, STBUF_WEAK);
    cfg.seed = 1;
    run(&cfg, &a, 0);
    cfg.seed = 2;
    run(&cfg, &b, 0);
    assert_clean(&cfg, &a);
    assert_clean(&cfg, &b);
    assert_true(a.cpu_ns_per_pkt[CPU_DRAIN] != b.cpu_ns_per_pkt[CPU_DRAIN]);
    assert_true(a.sim_time_ps != b.sim_time_ps);
}

/* x86, owner, burst 8: wmb() where dma_wmb() suffices (mlx4 2014) is
 * slower, and the breakdown says why: barrier time per packet. */
static void test_ownership_wmb_per_desc_costs(void **state)
{
    struct sim_cfg cfg;
    struct sim_result fast, slow;

    (void)state;
    base_cfg(&cfg, TXQ_PROTO_OWNER, STBUF_X86);
    cfg.packets = 20000;
    cfg.barrier = TXQ_BARRIER_PER_DESC;
    run(&cfg, &fast, 0);
    cfg.barrier = TXQ_BARRIER_WMB_PER_DESC;
    run(&cfg, &slow, 0);
    assert_clean(&cfg, &fast);
    assert_clean(&cfg, &slow);
    print_message("owner x86 burst 8: per-desc %.3f Mpps (barrier %.1f ns/pkt), "
                  "wmb-per-desc %.3f Mpps (barrier %.1f + drain %.1f ns/pkt)\n",
                  fast.sb.mpps, fast.cpu_ns_per_pkt[CPU_BARRIER], slow.sb.mpps,
                  slow.cpu_ns_per_pkt[CPU_BARRIER], slow.cpu_ns_per_pkt[CPU_DRAIN]);
    assert_true(slow.sb.mpps < fast.sb.mpps * 0.97);
    assert_true(slow.cpu_ns_per_pkt[CPU_BARRIER] + slow.cpu_ns_per_pkt[CPU_DRAIN] >
                fast.cpu_ns_per_pkt[CPU_BARRIER] + fast.cpu_ns_per_pkt[CPU_DRAIN] + 5.0);
}

/* BlueFlame with a CPU faster than the device: the driver pushes a block
 * for every packet, and most arrive while the previous block is still held
 * (its descriptor not yet reached), so the device drops the older one
 * (CNT_WC_DROP).  Every block pushed is used or dropped, never both and
 * never lost: the run's wc_used + wc_dropped are its WC pushes, and the
 * run stays clean (a dropped block's ring copy is read instead). */
static void test_ownership_wc_blocks_used_or_dropped(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;

    (void)state;
    base_cfg(&cfg, TXQ_PROTO_WC, STBUF_X86);
    cfg.burst = 1;
    cfg.ring_size = 1024; /* room to run ahead (with 256 every block is used) */
    cpu_costs_profile(&cfg.costs, "cheap");
    run(&cfg, &r, 0);
    assert_clean(&cfg, &r);
    print_message("wc pushes %" PRIu64 ", used %" PRIu64 ", dropped %" PRIu64 "\n",
                  r.txq.wc_pushes, r.wc_used, r.wc_dropped);
    assert_true(r.wc_dropped > cfg.packets / 2);
    assert_true(r.wc_used > 0);
    assert_int_equal(r.wc_used + r.wc_dropped, r.txq.wc_pushes);
}

/* BlueFlame: at burst 1 the pushed descriptor replaces the descriptor
 * read, so fewer descriptor-read bytes cross the link than with owner. */
static void test_ownership_wc_saves_desc_reads(void **state)
{
    struct sim_cfg cfg;
    struct sim_result own, wc;
    double own_b, wc_b;

    (void)state;
    base_cfg(&cfg, TXQ_PROTO_OWNER, STBUF_X86);
    cfg.burst = 1;
    run(&cfg, &own, 0);
    cfg.proto = TXQ_PROTO_WC;
    run(&cfg, &wc, 0);
    assert_clean(&cfg, &own);
    assert_clean(&cfg, &wc);
    own_b = (double)(own.d2h.bytes[TLP_KIND_DESC_RD] + own.h2d.bytes[TLP_KIND_DESC_CPL]) /
            (double)cfg.packets;
    wc_b = (double)(wc.d2h.bytes[TLP_KIND_DESC_RD] + wc.h2d.bytes[TLP_KIND_DESC_CPL]) /
           (double)cfg.packets;
    print_message("burst 1: descriptor read bytes/pkt owner %.1f, wc %.1f; wc used %.3f/pkt\n",
                  own_b, wc_b, (double)wc.wc_used / (double)cfg.packets);
    assert_true(wc.wc_used > cfg.packets / 2);
    assert_true(wc_b < own_b);
    assert_true(wc.h2d.bytes[TLP_KIND_BF_WR] > 0);
}

/* The scenario of catalogue entry e (its "bites with"), the correct
 * driver, the bug to act from packet 300. */
static void entry_cfg(struct sim_cfg *cfg, const struct bug_entry *e)
{
    base_cfg(cfg, e->proto, e->ordering);
    cfg->burst = e->burst;
    cfg->bug_at = 300;
    if (e->pkt_size)
        cfg->pkt_size = cfg->pkt_size_max = e->pkt_size;
    if (e->cpus)
        cfg->cpus = e->cpus;
    cfg->bql = e->bql;
    cfg->clean = e->clean;
}

/* A catalogue entry that needs exploration: the correct driver is clean
 * under each of its schedules, and the broken one is named under one of
 * them, the run ending by itself. */
static void explore_entry(struct sim_cfg *cfg, const struct bug_entry *e)
{
    struct sim_result r;
    char diag[256];
    unsigned k;

    for (k = 1; k <= e->explore; k++) {
        cfg->schedule = k;
        cfg->bug = DRV_BUG_NONE;
        run(cfg, &r, 0);
        assert_clean(cfg, &r);
    }
    cfg->bug = e->bug;
    int rc = 0;
    for (k = 1; k <= e->explore; k++) {
        cfg->schedule = k;
        if ((rc = run_rc(cfg, &r, diag, sizeof(diag))) != 0)
            break;
    }
    print_message("driver bug %s: schedule %u of %u\n", e->name, k, e->explore);
    if (k > e->explore || !has_violation(&r, e->expect))
        fail_msg("%s: expected %s under %u schedules, got %zu violations, first %s", e->name,
                 e->expect, e->explore, r.nviolations,
                 r.nviolations ? r.violations[0].kind : "none");
    /* Ended by itself with the violation's status: stopped after the grace
     * period, or done before it was over (a violation near the end). */
    assert_int_equal(rc, 1);
    cfg->schedule = 0;
}

/* Every broken driver in the catalogue: its diagnostic fires, the run ends
 * by itself (no watchdog, no hang) with status 1; the correct driver passes
 * the same scenario. */
static void test_ownership_bug_catalogue(void **state)
{
    size_t i, n;
    const struct bug_entry *e = bug_catalog(&n);

    (void)state;
    assert_true(n >= 17);
    for (i = 0; i < n; i++) {
        struct sim_cfg cfg;
        struct sim_result r;
        entry_cfg(&cfg, &e[i]);
        if (e[i].explore) {
            explore_entry(&cfg, &e[i]);
            continue;
        }
        run(&cfg, &r, 0);
        assert_clean(&cfg, &r);
        cfg.bug = e[i].bug;
        print_message("driver bug %s\n", e[i].name);
        run(&cfg, &r, 1);
        if (!has_violation(&r, e[i].expect))
            fail_msg("%s: expected %s, got %zu violations, first %s", e[i].name, e[i].expect,
                     r.nviolations, r.nviolations ? r.violations[0].kind : "none");
        assert_true(r.stopped_by_violation);
        /* A one-shot bug says it acted (verdict.h: else bug_not_reached). */
        assert_true(!drv_bug_one_shot(e[i].bug) || r.bug_fired);
        if (e[i].bug == DRV_BUG_BAD_DMA_ADDR) {
            /* The root complex answers Unsupported Request; the engine
             * skips the frame and stops the queue instead of sending it. */
            assert_true(has_violation(&r, "dma_read_unmapped"));
            assert_true(r.dev_err & NICTX_ERR_DMA);
            assert_int_equal(r.sb.corrupted, 0);
        }
        if (e[i].bug == DRV_BUG_BF_WRONG_SLOT) {
            /* The block names a slot the driver wrote before: the device
             * sends the right frames all the same.  Those it sends after
             * the run ended (while the harness reads its registers) are
             * not the run's, not corrupted ones. */
            assert_int_equal(r.sb.corrupted, 0);
            assert_true(r.sb.after_end > 0);
        }
    }
}

/* A catalogue entry's scenario (`nictx run --driver-bug list`, "bites
 * with") names only what the bug needs: with its BQL, its completion queue
 * or its exploration taken back to the default, the same broken driver is
 * not named by its diagnostic (BQL off, nothing counts the bytes; a head
 * writeback has no CQE to read early; a plain run performs every load at
 * its time).  (Weak ordering is not among the parts: bf-no-wmb is named
 * under x86 too, where WC stores may pass earlier stores.) */
static void test_ownership_bug_scenarios_need_each_part(void **state)
{
    size_t i, n;
    const struct bug_entry *e = bug_catalog(&n);
    unsigned dropped = 0;

    (void)state;
    for (i = 0; i < n; i++) {
        for (unsigned part = 0; part < 3; part++) {
            struct sim_cfg cfg;
            struct sim_result r;
            char diag[256];
            entry_cfg(&cfg, &e[i]);
            cfg.schedule = e[i].explore; /* its last schedule; part 2 drops it */
            cfg.bug = e[i].bug;
            if (part == 0 && e[i].bql)
                cfg.bql = 0;
            else if (part == 1 && e[i].clean != TXQ_CLEAN_HEAD_WB)
                cfg.clean = TXQ_CLEAN_HEAD_WB;
            else if (part == 2 && e[i].explore)
                cfg.schedule = 0;
            else
                continue;
            print_message("driver bug %s, part %u of its scenario dropped\n", e[i].name, part);
            run_rc(&cfg, &r, diag, sizeof(diag));
            if (has_violation(&r, e[i].expect))
                fail_msg("%s is named %s without part %u of its scenario (0 BQL, 1 completion "
                         "mode, 2 exploration): the catalogue asks for more than the bug needs",
                         e[i].name, e[i].expect, part);
            dropped++;
        }
    }
    assert_true(dropped >= 3); /* bql-short's BQL, cq-no-rmb's CQ and exploration */
}

/* The arm64 profile (profiles/graviton2.ini: weak ordering, the graviton2
 * cost table) finds the barrier bugs of weakly ordered CPUs: with the
 * correct driver the run is clean; with the dma_wmb() before the owner bits
 * left out (and, on the profile's own tail protocol, the wmb() before the
 * doorbell) the catalogue's diagnostic is named and the run stops. */
static void test_ownership_graviton2_names_barrier_bugs(void **state)
{
    static const char *const bugs[] = {"no-dma-wmb", "no-wmb-doorbell"};

    (void)state;
    for (size_t i = 0; i < sizeof(bugs) / sizeof(bugs[0]); i++) {
        const struct bug_entry *e = bug_find(bugs[i]);
        struct sim_cfg cfg;
        struct sim_result r;
        char err[256];

        assert_non_null(e);
        assert_int_equal(e->ordering, STBUF_WEAK);
        sim_cfg_default(&cfg);
        if (profile_load(&cfg, "graviton2", err, sizeof(err)) != 0)
            fail_msg("graviton2: %s", err);
        assert_int_equal(cfg.ordering, STBUF_WEAK);
        cfg.packets = 3000;
        cfg.proto = e->proto;
        cfg.burst = e->burst;
        cfg.bug_at = 300;
        run(&cfg, &r, 0);
        assert_clean(&cfg, &r);
        assert_true(r.cpu_ns_per_pkt[CPU_BARRIER] > 0);
        cfg.bug = e->bug;
        print_message("graviton2, driver bug %s\n", e->name);
        run(&cfg, &r, 1);
        if (!has_violation(&r, e->expect))
            fail_msg("graviton2 %s: expected %s, got %zu violations, first %s", e->name,
                     e->expect, r.nviolations, r.nviolations ? r.violations[0].kind : "none");
        assert_true(r.stopped_by_violation);
    }
}

/* The correct driver is clean over a reduced sweep: orderings x reorder
 * windows x protocols x bursts x 1 and 2 CPUs x completion modes x
 * exploration schedules (sim/host/explore.h: store delays up to microseconds,
 * CPU stalls at shared accesses), 1518 B frames on a small ring so the
 * queue stops and wakes throughout. */
static void test_ownership_correct_explored(void **state)
{
    static const enum stbuf_order ords[] = {STBUF_X86, STBUF_WEAK};
    static const unsigned windows[] = {4, 64};
    static const enum txq_proto protos[] = {TXQ_PROTO_TAIL, TXQ_PROTO_OWNER, TXQ_PROTO_WC};
    static const unsigned bursts[] = {1, 8};
    static const enum txq_clean_mode cpls[] = {TXQ_CLEAN_HEAD_WB, TXQ_CLEAN_HEAD_MMIO,
                                               TXQ_CLEAN_DESC_WB, TXQ_CLEAN_CQ};
    unsigned runs = 0;

    (void)state;
    for (unsigned o = 0; o < 2; o++)
        for (unsigned w = 0; w < (ords[o] == STBUF_WEAK ? 2u : 1u); w++)
            for (unsigned p = 0; p < 3; p++)
                for (unsigned b = 0; b < 2; b++)
                    for (unsigned cpus = 1; cpus <= 2; cpus++)
                        for (unsigned m = 0; m < 4; m++) {
                            struct sim_cfg cfg;
                            struct sim_result r;
                            base_cfg(&cfg, protos[p], ords[o]);
                            cfg.packets = 400;
                            cfg.ring_size = 16;
                            cfg.wb_thresh = 4;
                            cfg.pkt_size = cfg.pkt_size_max = 1518;
                            cfg.reorder_window = windows[w];
                            cfg.burst = bursts[b];
                            cfg.cpus = cpus;
                            cfg.clean = cpls[m];
                            cfg.schedule = 1 + runs % 7;
                            run(&cfg, &r, 0);
                            assert_clean(&cfg, &r);
                            runs++;
                        }
    print_message("%u explored runs clean\n", runs);
}

/* An exploration schedule is a different timeline, and the same one each
 * time it is run (its repro). */
static void test_ownership_schedule_repro(void **state)
{
    struct sim_cfg cfg;
    struct sim_result a, b, plain;

    (void)state;
    base_cfg(&cfg, TXQ_PROTO_OWNER, STBUF_WEAK);
    cfg.cpus = 2;
    cfg.packets = 1000;
    run(&cfg, &plain, 0);
    cfg.schedule = 5;
    run(&cfg, &a, 0);
    run(&cfg, &b, 0);
    assert_int_equal(a.sim_time_ps, b.sim_time_ps);
    assert_int_equal(a.cycles_evaluated, b.cycles_evaluated);
    assert_true(a.sim_time_ps != plain.sim_time_ps);
}

/* ---- several queues: one checker per queue ------------------------------ */

/* A broken driver on every one of 4 queues (the tail protocol, and the
 * owner protocol for its own bugs): its diagnostic is reported for each
 * queue, each report names its queue (the table says "on queue q", the
 * JSON "queue": q), and a queue's doorbell is its own block's TAIL. */
static void test_ownership_queues_each_named(void **state)
{
    static const struct {
        enum drv_bug bug;
        enum txq_proto proto;
        enum stbuf_order ordering;
        unsigned pkt_size;
        const char *expect;
    } bugs[] = {
        {DRV_BUG_NO_WMB_DOORBELL, TXQ_PROTO_TAIL, STBUF_WEAK, 64, "doorbell_before_desc"},
        /* 1518 B frames: the wire is the bound, so the slot and the buffer
         * the bug reuses are still the device's when it bites */
        {DRV_BUG_DESC_REUSE, TXQ_PROTO_TAIL, STBUF_X86, 1518, "desc_reuse"},
        {DRV_BUG_BUF_OVERWRITE, TXQ_PROTO_TAIL, STBUF_X86, 1518, "buf_overwrite"},
        {DRV_BUG_ZERO_LEN, TXQ_PROTO_TAIL, STBUF_X86, 64, "desc_zero_len"},
        /* each queue's owner bits, against its own checker */
        {DRV_BUG_NO_DMA_WMB, TXQ_PROTO_OWNER, STBUF_WEAK, 64, "owner_before_body"},
    };
    const unsigned nq = 4;

    (void)state;
    for (size_t i = 0; i < sizeof(bugs) / sizeof(bugs[0]); i++) {
        struct sim_cfg cfg;
        struct sim_result r;
        unsigned seen = 0;
        char *text, *json;

        base_cfg(&cfg, bugs[i].proto, bugs[i].ordering);
        cfg.queues = nq;
        cfg.packets = 400 * nq;
        cfg.pkt_size = cfg.pkt_size_max = bugs[i].pkt_size;
        cfg.burst = 8;
        cfg.bug = bugs[i].bug;
        cfg.bug_at = 100;
        print_message("%u queues, %s\n", nq, bugs[i].expect);
        run(&cfg, &r, 1);
        assert_true(r.stopped_by_violation);
        for (size_t k = 0; k < r.nviolations && k < SIM_MAX_VIOLATIONS; k++) {
            const struct sim_violation *v = &r.violations[k];
            if (strcmp(v->kind, bugs[i].expect) != 0)
                continue;
            assert_true(v->queue < nq);
            seen |= 1u << v->queue;
            if (bugs[i].bug == DRV_BUG_NO_WMB_DOORBELL) { /* found on queue q's TAIL */
                char at[32];
                snprintf(at, sizeof(at), "MWr BAR0 0x%x 4 B",
                         (unsigned)NICTX_REG_Q(v->queue, NICTX_QREG_TAIL));
                assert_string_equal(v->access, at);
            }
        }
        if (seen != (1u << nq) - 1)
            fail_msg("%s: reported for queues 0x%x of 0x%x", bugs[i].expect, seen,
                     (1u << nq) - 1);
        text = report_capture(&cfg, &r, 1, "", 0);
        json = report_capture(&cfg, &r, 1, "", 1);
        for (unsigned q = 0; q < nq; q++) {
            char want[64];
            snprintf(want, sizeof(want), "%s at", bugs[i].expect);
            assert_non_null(strstr(text, want));
            snprintf(want, sizeof(want), " on queue %u [", q);
            if (!strstr(text, want))
                fail_msg("%s: the table does not name queue %u:\n%s", bugs[i].expect, q, text);
            snprintf(want, sizeof(want), "\"queue\": %u,", q);
            if (!strstr(json, want))
                fail_msg("%s: the JSON does not name queue %u", bugs[i].expect, q);
        }
        if (bugs[i].bug == DRV_BUG_ZERO_LEN) /* ERR is the device's: no queue */
            assert_non_null(strstr(json, "\"kind\": \"device_error\""));
        if (has_violation(&r, "device_error"))
            assert_non_null(strstr(json, "\"queue\": null"));
        test_free(text);
        test_free(json);
    }
}

/* Correct drivers on 4 and 16 queues, each completion mode, both store
 * orderings, the tail and the owner protocol: no violation (each queue's checker frees its slots on its own
 * queue's head writeback, DDs, CQEs or HEAD reads), every frame checked. */
static void test_ownership_queues_correct_clean(void **state)
{
    static const enum txq_clean_mode modes[] = {TXQ_CLEAN_HEAD_WB, TXQ_CLEAN_DESC_WB,
                                                TXQ_CLEAN_CQ, TXQ_CLEAN_HEAD_MMIO};
    static const unsigned nqs[] = {4, 16};

    (void)state;
    for (size_t n = 0; n < 2; n++)
        for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++)
            for (unsigned o = STBUF_X86; o <= STBUF_WEAK; o++) {
                struct sim_cfg cfg;
                struct sim_result r;
                /* the tail protocol, and every other run the owner protocol */
                base_cfg(&cfg, (m + o) % 2 ? TXQ_PROTO_OWNER : TXQ_PROTO_TAIL, o);
                cfg.queues = nqs[n];
                cfg.packets = 600 * nqs[n]; /* each queue's ring of 256 wraps */
                cfg.clean = modes[m];
                if (modes[m] == TXQ_CLEAN_HEAD_MMIO) /* as --completion mmio --wb-thresh 0 */
                    cfg.wb_thresh = 0;
                run(&cfg, &r, 0);
                if (r.nviolations)
                    fail_msg("%u queues, protocol %d, clean %d, ordering %u: %s on queue %u: %s",
                             nqs[n], (int)cfg.proto, (int)modes[m], o, r.violations[0].kind,
                             r.violations[0].queue, r.violations[0].detail);
                assert_int_equal(r.sb.checked, cfg.packets);
                assert_int_equal(r.sb.lost, 0);
                assert_int_equal(r.sb.corrupted, 0);
                assert_int_equal(r.dev_err, 0);
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ownership_correct_drivers),
        cmocka_unit_test(test_ownership_weak_differs_by_seed),
        cmocka_unit_test(test_ownership_wmb_per_desc_costs),
        cmocka_unit_test(test_ownership_wc_saves_desc_reads),
        cmocka_unit_test(test_ownership_wc_blocks_used_or_dropped),
        cmocka_unit_test(test_ownership_bug_catalogue),
        cmocka_unit_test(test_ownership_bug_scenarios_need_each_part),
        cmocka_unit_test(test_ownership_graviton2_names_barrier_bugs),
        cmocka_unit_test(test_ownership_correct_explored),
        cmocka_unit_test(test_ownership_schedule_repro),
        cmocka_unit_test(test_ownership_queues_each_named),
        cmocka_unit_test(test_ownership_queues_correct_clean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
