/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_faults.c - injected faults end to end (docs/faults.md): for each
 * kind, the engine sets its documented error bit, the driver's hang check
 * resets the queue and the run goes on, and the scoreboard accounts for
 * every frame: sent = checked + dropped, dropped under the fault's reason,
 * nothing lost or corrupted, so the run is clean (exit 0).  A drop no fault
 * explains is not clean.  Runs the whole simulator with the Verilated
 * engine; asserts simulated figures only.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp */

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

#include "run/fault.h"
#include "run/verdict.h"
#include "run/harness.h"
#include "nictx_hw.h"
#include "platform.h"
#include "cli/report.h"
#include "common/report_capture.h"

#define F_PACKETS 4000u
#define F_AT 700u

struct f_run {
    int rc;
    struct sim_result r;
};

/* Run `cfg` with the fault plan `spec`; no watchdog, no violation. */
static void f_run(struct sim_cfg *cfg, const char *spec, struct f_run *out)
{
    char err[256] = "";

    if (inj_parse(&cfg->inject, spec, err, sizeof(err)) != 0)
        fail_msg("%s", err);
    struct sim *s = sim_create(cfg, &dev_rtl_ops, err, sizeof(err));
    if (!s)
        fail_msg("sim_create: %s", err);
    out->rc = sim_run(s);
    if (out->rc != 0)
        fail_msg("sim_run %d: %s", out->rc, sim_diag(s));
    sim_result(s, &out->r);
    sim_destroy(s);
    if (out->r.nviolations)
        fail_msg("%s: %s", out->r.violations[0].kind, out->r.violations[0].detail);
}

static void f_cfg(struct sim_cfg *cfg)
{
    sim_cfg_default(cfg);
    cfg->packets = F_PACKETS;
}

/* Every frame accounted for, the drops all under `reason`, a clean run. */
static void f_accounted(const struct sim_cfg *cfg, const struct f_run *f, unsigned reason)
{
    const struct sb_result *b = &f->r.sb;

    print_message("%s: checked %llu, dropped %llu, resets %llu, ERR found 0x%x\n",
                  sim_drop_reason_name(reason), (unsigned long long)b->checked,
                  (unsigned long long)b->dropped_total, (unsigned long long)f->r.resets,
                  f->r.reset_err);
    assert_int_equal(b->lost, 0);
    assert_int_equal(b->corrupted, 0);
    assert_int_equal(b->checked + b->dropped_total, cfg->packets);
    assert_true(b->dropped[reason] > 0);
    assert_int_equal(b->dropped[reason], b->dropped_total);
    assert_true(sim_result_clean(cfg, f->rc, &f->r));
    assert_int_equal(f->r.dev_err, 0); /* the reset cleared what it found */
}

/* A read fault: the frame is skipped (ERR.DMA), the stopped queue is reset. */
static void f_read_fault(const char *spec, unsigned reason)
{
    struct sim_cfg cfg;
    struct f_run f;

    f_cfg(&cfg);
    f_run(&cfg, spec, &f);
    f_accounted(&cfg, &f, reason);
    assert_true(f.r.reset_err & NICTX_ERR_DMA);
    assert_true(f.r.txq.resets >= 1);
}

static void test_faults_ur(void **state)
{
    (void)state;
    f_read_fault("ur@700", INJ_UR);
}

static void test_faults_ca(void **state)
{
    (void)state;
    f_read_fault("ca@700", INJ_CA);
}

static void test_faults_ep(void **state)
{
    (void)state;
    f_read_fault("ep@700", INJ_EP);
}

/* A completion that never comes: ERR.CPL_TIMEOUT, then the reset; on one
 * CPU and on two (the completion CPU resets, holding the sender off). */
static void test_faults_timeout(void **state)
{
    struct sim_cfg cfg;
    struct f_run f;

    (void)state;
    for (unsigned cpus = 1; cpus <= 2; cpus++) {
        f_cfg(&cfg);
        cfg.cpus = cpus;
        if (cpus == 2)
            cfg.irq_thresh = 16;
        f_run(&cfg, "timeout@700", &f);
        f_accounted(&cfg, &f, INJ_TIMEOUT);
        assert_true(f.r.reset_err & NICTX_ERR_CPL_TIMEOUT);
        assert_int_equal(f.r.txq.resets, 1);
    }
}

/* The owner-bit and BlueFlame protocols start their ring afresh: the phase
 * and the WC buffers restart with the device's, and no ownership rule
 * breaks (f_run fails on any violation). */
static void test_faults_reset_owner_protocols(void **state)
{
    struct sim_cfg cfg;
    struct f_run f;

    (void)state;
    for (unsigned p = TXQ_PROTO_OWNER; p <= TXQ_PROTO_WC; p++) {
        f_cfg(&cfg);
        cfg.proto = (enum txq_proto)p;
        f_run(&cfg, "timeout@1500", &f);
        f_accounted(&cfg, &f, INJ_TIMEOUT);
    }
}

/* A doorbell on a disabled queue is ignored (ERR.DB_OFF); the reset runs it
 * again. */
static void test_faults_db_off(void **state)
{
    struct sim_cfg cfg;
    struct f_run f;

    (void)state;
    f_cfg(&cfg);
    f_run(&cfg, "db-off@700", &f);
    f_accounted(&cfg, &f, INJ_DB_OFF);
    assert_true(f.r.reset_err & NICTX_ERR_DB_OFF);
}

/* A short credit blackout only delays: nothing dropped, no reset, and some
 * frame waited at least the blackout.  One longer than the hang check is
 * taken for a hang: the reset's drops count under the blackout. */
static void test_faults_blackout(void **state)
{
    struct sim_cfg cfg;
    struct f_run f;

    (void)state;
    f_cfg(&cfg);
    f_run(&cfg, "blackout@700:40000", &f);
    assert_int_equal(f.r.sb.checked, cfg.packets);
    assert_int_equal(f.r.sb.dropped_total, 0);
    assert_int_equal(f.r.txq.resets, 0);
    assert_true(f.r.sb.lat_max_ns >= 40000);
    assert_true(sim_result_clean(&cfg, f.rc, &f.r));

    f_cfg(&cfg);
    f_run(&cfg, "blackout@700:2000000", &f);
    f_accounted(&cfg, &f, INJ_BLACKOUT);
    assert_int_equal(f.r.txq.resets, 1);
}

/* Two faults, deterministic: the same plan twice gives the same figures. */
static void test_faults_deterministic(void **state)
{
    struct sim_cfg cfg;
    struct f_run a, b;

    (void)state;
    f_cfg(&cfg);
    f_run(&cfg, "ep@300,timeout@2500", &a);
    f_cfg(&cfg);
    f_run(&cfg, "ep@300,timeout@2500", &b);
    assert_int_equal(a.r.sb.checked, b.r.sb.checked);
    assert_memory_equal(a.r.sb.dropped, b.r.sb.dropped, sizeof(a.r.sb.dropped));
    assert_int_equal(a.r.txq.resets, 2);
    assert_int_equal(a.r.sb.lost + a.r.sb.corrupted, 0);
    assert_true(sim_result_clean(&cfg, a.rc, &a.r));
}

/* A read fault armed for a frame that a reset then drops before the
 * device reads it (db-off first, ur on a packet posted while the device
 * is off): disarmed by the reset, it does not hit the frame that reuses
 * the buffer, which would be skipped with no fault to announce it (lost).
 * Sizes vary so that a later frame overlaps the buffer. */
static void test_faults_read_fault_on_dropped_frame(void **state)
{
    struct sim_cfg cfg;
    struct f_run f;

    (void)state;
    f_cfg(&cfg);
    cfg.packets = 6000;
    cfg.ring_size = 256;
    cfg.pkt_size_max = 1500;
    f_run(&cfg, "db-off@1469,ur@1505", &f);
    f_accounted(&cfg, &f, INJ_DB_OFF);
    assert_int_equal(f.r.resets, 1);
}

/* Drops no fault explains, frames lost, a short run: not clean. */
static void test_faults_unexplained_drop_is_not_clean(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;

    (void)state;
    f_cfg(&cfg);
    memset(&r, 0, sizeof(r));
    r.sb.checked = cfg.packets - 3;
    r.sb.dropped[INJ_UR] = 3;
    r.sb.dropped_total = 3;
    assert_true(sim_result_clean(&cfg, 0, &r));
    assert_false(sim_result_clean(&cfg, 1, &r));
    r.sb.dropped[INJ_UR] = 2;
    r.sb.dropped[SIM_DROP_RESET] = 1;
    assert_false(sim_result_clean(&cfg, 0, &r));
    r.sb.dropped[SIM_DROP_RESET] = 0;
    r.sb.dropped[INJ_UR] = 3;
    r.sb.lost = 1;
    r.sb.checked--;
    assert_false(sim_result_clean(&cfg, 0, &r));
    assert_string_equal(sim_verdict(&cfg, 0, &r), "unclean"); /* never "ok" */
    assert_string_equal(sim_verdict(&cfg, 1, &r), "violation");
    assert_string_equal(sim_verdict(&cfg, -1, &r), "failed");
    r.sb.lost = 0;
    assert_false(sim_result_clean(&cfg, 0, &r)); /* one unaccounted for */
    assert_string_equal(sim_verdict(&cfg, 0, &r), "unclean");
    r.sb.checked++;
    assert_string_equal(sim_verdict(&cfg, 0, &r), "ok");
}

/* ---- several queues: a fault on one queue, an adapter reset of all ---- */

#define FQ_PACKETS 4000u
#define FQ_QUEUES 4u

/* 4 queues of a 128-slot ring (a reset drops a ring's worth of each), on
 * one CPU, or (irq) on two CPUs with completion queues and each queue's
 * NAPI poll run by its interrupt. */
static void fq_cfg(struct sim_cfg *cfg, int irq)
{
    sim_cfg_default(cfg);
    cfg->packets = FQ_PACKETS;
    cfg->queues = FQ_QUEUES;
    cfg->ring_size = 128;
    if (irq) {
        cfg->cpus = 2;
        cfg->clean = TXQ_CLEAN_CQ;
        cfg->irq_thresh = 8;
        cfg->napi = SIM_NAPI_IRQ;
    }
}

/* Frames the engine skipped: a read fault's (ur, ca, ep) in the plan. */
static unsigned fq_skipped(const struct sim_cfg *cfg)
{
    unsigned n = 0;

    for (unsigned i = 0; i < cfg->inject.n; i++)
        n += inj_on_read(cfg->inject.v[i].kind) && cfg->inject.v[i].kind != INJ_TIMEOUT;
    return n;
}

/* Every frame of every queue accounted for, the drops all under `reason`
 * and in the queues' own counts (checked + dropped = the queue's packets),
 * `resets` adapter resets, each resetting every queue.  The driver dropped
 * only frames that never reached the wire: its drops and the frames the
 * engine skipped are the scoreboard's. */
static void fq_accounted(const struct sim_cfg *cfg, const struct f_run *f, unsigned reason,
                         unsigned resets)
{
    uint64_t dropped = 0;

    f_accounted(cfg, f, reason);
    assert_int_equal(f->r.sb.dropped[SIM_DROP_RESET], 0);
    assert_int_equal(f->r.txq.dropped + fq_skipped(cfg), f->r.sb.dropped_total);
    assert_int_equal(f->r.resets, resets);
    assert_int_equal(f->r.txq.resets, (uint64_t)resets * cfg->queues);
    assert_int_equal(f->r.nqueues, cfg->queues);
    for (unsigned q = 0; q < cfg->queues; q++) {
        const struct sim_queue_result *x = &f->r.queues[q];
        assert_int_equal(x->checked, x->packets);
        assert_int_equal(x->checked + x->dropped, sim_cfg_queue_packets(cfg, q));
        dropped += x->dropped;
    }
    assert_int_equal(dropped, f->r.sb.dropped_total);
}

/* Each kind on some queue, on one CPU and on two with interrupts.  The
 * drops are noted in the queue they belong to: a read fault's skipped
 * frame noted in another queue would leave this one's packet lost (and
 * the other's checked), and a fault fired on the wrong queue's packet N
 * likewise. */
static void test_faults_queues(void **state)
{
    static const struct {
        const char *spec;
        unsigned reason;
        uint32_t err; /* what the reset finds in ERR (0: nothing) */
    } k[] = {
        {"ur@300", INJ_UR, NICTX_ERR_DMA},          /* queue 0 */
        {"ur@2/300", INJ_UR, NICTX_ERR_DMA},
        {"timeout@1/300", INJ_TIMEOUT, NICTX_ERR_CPL_TIMEOUT},
        {"db-off@3/300", INJ_DB_OFF, NICTX_ERR_DB_OFF},
        {"blackout@2/300:2000000", INJ_BLACKOUT, 0},
    };
    struct sim_cfg cfg;
    struct f_run f, clean;

    (void)state;
    fq_cfg(&cfg, 0);
    f_run(&cfg, "none", &clean);
    for (int irq = 0; irq <= 1; irq++)
        for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
            print_message("%s%s\n", k[i].spec, irq ? ", 2 cpus, cq, napi=irq" : "");
            fq_cfg(&cfg, irq);
            f_run(&cfg, k[i].spec, &f);
            fq_accounted(&cfg, &f, k[i].reason, 1);
            assert_int_equal(f.r.reset_err & k[i].err, k[i].err);
            /* After the reset each queue's doorbells publish from slot 0
             * again: its frames' doorbell-to-wire latency is what it is
             * without a fault (one CPU, where that is a round trip). */
            if (!irq)
                assert_true(f.r.sb.lat_p99_ns <= 1.5 * clean.r.sb.lat_p99_ns);
            /* At most what each ring holds, plus the frame a read fault
             * skipped. */
            for (unsigned q = 0; q < cfg.queues; q++)
                assert_true(f.r.queues[q].dropped <= cfg.ring_size);
        }
}

/* Two adapter resets in a row with no frame of queue 2 on the wire in
 * between: queue 2 drops a ring's worth twice, more than the
 * scoreboard's note window (a ring) from its next expected frame; a
 * reset's drops are final and count at once, so none is lost. */
static void test_faults_queues_resets_in_a_row(void **state)
{
    struct sim_cfg cfg;
    struct f_run f;

    (void)state;
    sim_cfg_default(&cfg);
    cfg.packets = 6000;
    cfg.queues = 3;
    cfg.ring_size = 256;
    cfg.pkt_size_max = 1500;
    f_run(&cfg, "ur@1505,db-off@2/1469", &f);
    assert_int_equal(f.r.sb.lost + f.r.sb.corrupted, 0);
    assert_int_equal(f.r.sb.dropped[SIM_DROP_RESET], 0);
    assert_int_equal(f.r.resets, 2);
    assert_true(f.r.queues[2].dropped >= cfg.ring_size);
    for (unsigned q = 0; q < cfg.queues; q++)
        assert_int_equal(f.r.queues[q].checked + f.r.queues[q].dropped,
                         sim_cfg_queue_packets(&cfg, q));
    assert_true(sim_result_clean(&cfg, f.rc, &f.r));
}

/* No fault, no reset: the watching CPU checks queues the other CPU
 * sends on, whose progress stamps come from that CPU's clock, at times a
 * little ahead of the watcher's; such a stamp is recent progress, not a
 * hang from 2^64 ns ago.  (8 queues under DRR, the wire the bottleneck,
 * every ring full.) */
static void test_faults_queues_no_spurious_reset(void **state)
{
    struct sim_cfg cfg;
    struct f_run f;

    (void)state;
    fq_cfg(&cfg, 1);
    cfg.packets = 6000;
    cfg.queues = 8;
    cfg.ring_size = 256;
    cfg.irq_usecs = 10;
    cfg.pkt_size_max = 1500;
    cfg.sched = SIM_SCHED_DRR;
    assert_int_equal(sim_parse_weights("7,6,5,6,8,6,5,5", &cfg.weights), 0);
    f_run(&cfg, "none", &f);
    assert_int_equal(f.r.resets, 0);
    assert_int_equal(f.r.sb.checked, cfg.packets);
    assert_true(sim_result_clean(&cfg, f.rc, &f.r));
}

/* No fault, no reset, under DRR with a large quantum: a queue waits for a
 * whole turn of every other queue (here 15 turns of some 450 small frames,
 * on a link where 5 tags and a 1.5 us latency bound every read), so the
 * hang check must allow those turns, not a frame of each. */
static void test_faults_drr_turns_no_spurious_reset(void **state)
{
    struct sim_cfg cfg;
    struct f_run f;

    (void)state;
    sim_cfg_default(&cfg);
    cfg.packets = 6000;
    cfg.queues = 16;
    cfg.cpus = 4;
    cfg.sched = SIM_SCHED_DRR;
    cfg.drr_quantum = 28000;
    cfg.tags = 5;
    cfg.line_gbps = 400;
    cfg.poll_ns = 10000;
    assert_int_equal(pcie_cfg_parse_link(&cfg.pcie, "gen5x1"), 0);
    cfg.pcie.latency_ns = 1500;
    f_run(&cfg, "none", &f);
    assert_int_equal(f.r.resets, 0);
    assert_int_equal(f.r.sb.checked, cfg.packets);
    assert_true(sim_result_clean(&cfg, f.rc, &f.r));
}

/* Two faults on two queues: two adapter resets, each queue's drops under
 * the reason of the fault before them. */
static void test_faults_queues_two_resets(void **state)
{
    struct sim_cfg cfg;
    struct f_run f;

    (void)state;
    fq_cfg(&cfg, 1);
    f_run(&cfg, "ep@1/200,ca@3/700", &f);
    assert_int_equal(f.r.sb.lost + f.r.sb.corrupted, 0);
    assert_int_equal(f.r.sb.dropped[SIM_DROP_RESET], 0);
    assert_true(f.r.sb.dropped[INJ_EP] > 0);
    assert_true(f.r.sb.dropped[INJ_CA] > 0);
    assert_int_equal(f.r.sb.dropped[INJ_EP] + f.r.sb.dropped[INJ_CA], f.r.sb.dropped_total);
    assert_int_equal(f.r.resets, 2);
    assert_int_equal(f.r.txq.resets, 2 * cfg.queues);
    assert_true(sim_result_clean(&cfg, f.rc, &f.r));
}

/* A queue that hangs after the watching CPU (the last) has sent all of
 * its own queues, and after queue 0 is done: DRR gives queues 0, 1 and 3
 * eight times queue 2's bytes, so they are done long before queue 2's
 * packet 900.  The CPU still running (CPU 0) takes over the watch, finds
 * queue 2 hung and resets the adapter; only queue 2 drops anything. */
static void test_faults_queues_late_hang(void **state)
{
    struct sim_cfg cfg;
    struct f_run f;

    (void)state;
    for (int irq = 0; irq <= 1; irq++) {
        fq_cfg(&cfg, irq);
        cfg.cpus = 2;
        cfg.ring_size = 64;
        cfg.pkt_size = cfg.pkt_size_max = 1500;
        cfg.sched = SIM_SCHED_DRR;
        assert_int_equal(sim_parse_weights("8,8,1,8", &cfg.weights), 0);
        f_run(&cfg, "timeout@2/900", &f);
        fq_accounted(&cfg, &f, INJ_TIMEOUT, 1);
        assert_int_equal(f.r.queues[2].dropped, f.r.sb.dropped_total);
    }
}

/* 27 queues of 1024 descriptors and one CPU: after a lost completion stops
 * the device, the CPU posts into every queue's ring for about 2 ms before
 * they are full and it runs the hang check.  The derived watchdog allows
 * for that (the `fill` bound): the queues are reset and the run ends clean
 * (it used to end on the watchdog at 1000 us: make regress, seed 13). */
static void test_faults_many_queues_fill_before_hang_check(void **state)
{
    struct sim_cfg cfg;
    struct sim_timeouts t;
    struct sim_bounds b;
    struct f_run f;

    (void)state;
    f_cfg(&cfg);
    cfg.queues = 27;
    cfg.packets = 30000;
    f_run(&cfg, "timeout@9/232", &f);
    fq_accounted(&cfg, &f, INJ_TIMEOUT, 1);
    sim_cfg_bounds(&cfg, &b);
    sim_cfg_timeouts(&cfg, &t);
    assert_true(b.fill_ns > 1000 * 1000.0); /* longer than the old watchdog */
    assert_true(t.watchdog_us >= b.fill_ns / 1000.0 + t.tx_us + t.reset_us);
}

/* One CPU, a qdisc without BQL, desc-wb, 20 ns loads. */
static void f_busy_cfg(struct sim_cfg *cfg)
{
    f_cfg(cfg);
    cfg->packets = 1500;
    cfg->source = SIM_SOURCE_QDISC;
    cfg->clean = TXQ_CLEAN_DESC_WB;
    cfg->costs.load_ns = 20;
}

/* A source that sends one packet per batch (a qdisc without BQL) runs a
 * cleanup pass per packet, and under desc-wb each pass scans every slot in
 * flight for the newest DD (a 20 ns load each here).  After a read fault
 * the CPU keeps posting into the stopped device, each packet dearer than
 * the last: filling the ring would take (ring - 1)^2 / 2 loads, 10.5 ms,
 * far past the watchdog.  The hang check runs between busy passes too
 * (sim_fault_poll_hang, as ixgbe_clean_tx_irq checks for a hang on every
 * poll), so the queue is reset at the tx timeout, long before the ring is
 * full, and the run ends clean (it ended on the watchdog with the queue
 * never reset: make regress SEEDS=12 REGRESS_HW=2, seed 2). */
static void test_faults_hang_check_while_busy(void **state)
{
    struct sim_cfg cfg;
    struct sim_timeouts t;
    struct f_run f;

    (void)state;
    f_busy_cfg(&cfg);
    sim_cfg_timeouts(&cfg, &t);
    /* The fill the hang check used to wait for is longer than the watchdog. */
    assert_true((cfg.ring_size - 1.0) * (cfg.ring_size - 2.0) / 2 * cfg.costs.load_ns >
                t.watchdog_us * 1000.0);
    f_run(&cfg, "ep@300", &f);
    f_accounted(&cfg, &f, INJ_EP);
    assert_int_equal(f.r.resets, 1);
    /* Reset with the ring far from full: the check ran while busy. */
    assert_true(f.r.sb.dropped_total < cfg.ring_size / 2);
}

/* The same stall with no hang check (--tx-timeout-us 0) ends on the
 * watchdog, whose diagnosis names the busy loop: the passes that found
 * nothing since the last completion, and that no hang check runs. */
static void test_faults_watchdog_names_busy_loop(void **state)
{
    struct sim_cfg cfg;
    char err[256] = "";

    (void)state;
    f_busy_cfg(&cfg);
    cfg.tx_timeout_us = 0;
    if (inj_parse(&cfg.inject, "ep@300", err, sizeof(err)) != 0)
        fail_msg("%s", err);
    struct sim *s = sim_create(&cfg, &dev_rtl_ops, err, sizeof(err));
    if (!s)
        fail_msg("sim_create: %s", err);
    assert_int_equal(sim_run(s), -1);
    const char *d = sim_diag(s);
    print_message("%s\n", d);
    assert_non_null(strstr(d, "watchdog: no frame and no device write"));
    assert_non_null(strstr(d, "cpu0 running; queue 0: "));
    unsigned inflight = 0, passes = 0;
    const char *q = strstr(d, "queue 0: ");
    assert_non_null(q);
    assert_int_equal(sscanf(q, "queue 0: %u in flight, last completion %*f us ago, %u cleanup "
                               "passes since found nothing", &inflight, &passes), 2);
    assert_true(inflight > 100);
    assert_true(passes > 100); /* a pass per packet posted since */
    assert_non_null(strstr(d, "; no hang check (--tx-timeout-us 0)"));
    sim_destroy(s);
}

/* A lost completion under a long completion timeout (8 ms): the reset
 * waits up to CPL_TIMEOUT for the read still out, and the driver waits as
 * long for the reset (txq_cfg.reset_wait_ns, from the completion timeout),
 * not a fixed count of STATUS reads (~5 ms: "the device never became
 * quiescent"). */
static void test_faults_reset_waits_for_cpl_timeout(void **state)
{
    struct sim_cfg cfg;
    struct sim_timeouts to;
    struct f_run f;

    (void)state;
    f_cfg(&cfg);
    cfg.packets = 600;
    cfg.cpl_timeout_us = 8000;
    sim_cfg_timeouts(&cfg, &to);
    assert_true(to.reset_us >= 2 * to.cpl_us);
    f_run(&cfg, "timeout@300", &f);
    f_accounted(&cfg, &f, INJ_TIMEOUT);
    assert_int_equal(f.r.resets, 1);
}

/* A fault on the last packet leaves its ERR bit at the end (the skipped
 * frame was the last, so no hang check resets it): the fault's outcome,
 * not a device_error violation. */
static void test_faults_err_left_by_fault(void **state)
{
    struct sim_cfg cfg;
    struct f_run f;
    struct sim_verdict v;

    (void)state;
    f_cfg(&cfg);
    cfg.packets = 2000;
    f_run(&cfg, "ur@1999", &f); /* fails on any violation */
    assert_true(f.r.dev_err & NICTX_ERR_DMA);
    assert_int_equal(f.r.sb.dropped[INJ_UR], 1);
    sim_verdict_of(&cfg, f.rc, &f.r, "", &v);
    assert_string_equal(v.name, "ok");
    assert_int_equal(v.exit, 0);
}

/* An ERR bit no fault explains, found and cleared by the adapter reset a
 * fault caused: a device_error violation (it passed as ok, exit 0, when
 * the reset hid it).  The bit: a write to the read-only ID register by
 * another agent before the run (ERR.BAD_ACCESS). */
static void test_faults_unexplained_err_at_reset(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;
    struct sim *s;
    char err[512];
    int rc;

    (void)state;
    f_cfg(&cfg);
    assert_int_equal(inj_parse(&cfg.inject, "ur@700", err, sizeof(err)), 0);
    s = sim_create(&cfg, &dev_rtl_ops, err, sizeof(err));
    assert_non_null(s);
    plat_mmio_write32(sim_platform(s), NICTX_REG_ID, 1);
    rc = sim_run(s);
    sim_result(s, &r);
    assert_int_equal(rc, 1);
    assert_true(r.reset_err & NICTX_ERR_BAD_ACCESS);
    assert_true(r.nviolations >= 1);
    assert_string_equal(r.violations[0].kind, "device_error");
    assert_non_null(strstr(r.violations[0].detail, "found by the adapter reset: bad MMIO access"));
    assert_string_equal(sim_verdict(&cfg, rc, &r), "violation");
    sim_destroy(s);
}

/* The verdict is one function's (verdict.h): for each way a run can end,
 * the JSON's status and diagnosis, the table's first line and the exit
 * status agree, and only "ok" exits 0. */
static void test_faults_verdict_one_source(void **state)
{
    static const struct {
        const char *what;
        int rc;
        uint64_t lost, corrupted, missing, reset_drops, resets;
        unsigned faults;
        enum drv_bug bug;
        int fired;
        const char *status;
    } k[] = {
        {"clean", 0, 0, 0, 0, 0, 0, 0, DRV_BUG_NONE, 0, "ok"},
        {"watchdog", -1, 0, 0, 0, 0, 0, 0, DRV_BUG_NONE, 0, "failed"},
        {"violation", 1, 0, 0, 0, 0, 0, 0, DRV_BUG_NONE, 0, "violation"},
        {"violation, frames lost", 1, 3, 0, 0, 0, 0, 0, DRV_BUG_NONE, 0, "violation"},
        {"lost", 0, 2, 0, 0, 0, 0, 0, DRV_BUG_NONE, 0, "unclean"},
        {"corrupted", 0, 0, 1, 0, 0, 0, 0, DRV_BUG_NONE, 0, "unclean"},
        {"unaccounted", 0, 0, 0, 1, 0, 0, 0, DRV_BUG_NONE, 0, "unclean"},
        {"reset drops, no fault", 0, 0, 0, 0, 2, 1, 0, DRV_BUG_NONE, 0, "unclean"},
        {"reset, no fault", 0, 0, 0, 0, 0, 1, 0, DRV_BUG_NONE, 0, "unclean"},
        {"reset after a fault", 0, 0, 0, 0, 0, 1, 1, DRV_BUG_NONE, 0, "ok"},
        {"one-shot bug never fired", 0, 0, 0, 0, 0, 0, 0, DRV_BUG_DESC_REUSE, 0, "bug_not_reached"},
        {"one-shot bug fired, unseen", 0, 0, 0, 0, 0, 0, 0, DRV_BUG_DESC_REUSE, 1, "ok"},
        {"barrier bug", 0, 0, 0, 0, 0, 0, 0, DRV_BUG_NO_WMB_DOORBELL, 0, "ok"},
        {"bug never fired, frames lost", 0, 1, 0, 0, 0, 0, 0, DRV_BUG_BUF_OVERWRITE, 0, "unclean"},
    };

    (void)state;
    for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
        struct sim_cfg cfg;
        struct sim_result r;
        struct sim_verdict v;
        char *json, *text, want[160];

        f_cfg(&cfg);
        cfg.bug = k[i].bug;
        memset(&r, 0, sizeof(r));
        r.sb.lost = k[i].lost;
        r.sb.corrupted = k[i].corrupted;
        r.sb.dropped[SIM_DROP_RESET] = k[i].reset_drops;
        r.sb.dropped_total = k[i].reset_drops;
        r.sb.checked = cfg.packets - k[i].lost - k[i].missing - k[i].reset_drops;
        r.resets = k[i].resets;
        r.faults_fired = k[i].faults;
        r.bug_fired = k[i].fired;
        r.sb.mpps = r.sb.gbps = NAN;
        sim_verdict_of(&cfg, k[i].rc, &r, "the diagnosis", &v);
        print_message("%s: %s\n", k[i].what, v.name);
        assert_string_equal(v.name, k[i].status);
        assert_int_equal(v.exit, strcmp(k[i].status, "ok") != 0);
        assert_int_equal(sim_result_clean(&cfg, k[i].rc, &r), v.exit == 0);
        json = report_capture(&cfg, &r, k[i].rc, "the diagnosis", 1);
        text = report_capture(&cfg, &r, k[i].rc, "the diagnosis", 0);
        snprintf(want, sizeof(want), "\"status\": \"%s\"", v.name);
        assert_non_null(strstr(json, want));
        if (v.exit == 0) {
            assert_null(strstr(json, "\"diagnosis\""));
            assert_null(strstr(text, "RUN "));
            assert_null(strstr(text, "NOT REACHED"));
        } else {
            assert_true(v.why[0] != '\0' && v.heading != NULL);
            snprintf(want, sizeof(want), "\n%s: ", v.heading);
            assert_non_null(strstr(text, want));
            assert_non_null(strstr(json, "\"diagnosis\""));
        }
        test_free(json);
        test_free(text);
    }
}

/* A run that could not start (sim_create failed) still has a result: a
 * JSON with its configuration, status "failed" and the reason, so no
 * earlier file at the path and no missing one can read otherwise. */
static void test_faults_verdict_not_started(void **state)
{
    struct sim_cfg cfg;
    struct sim_verdict v;
    char path[] = "/tmp/test_faults.XXXXXX", text[8192];
    FILE *f;
    size_t n;
    int fd;

    (void)state;
    f_cfg(&cfg);
    sim_verdict_not_started("driver probe failed (pktgen_init -2)", &v);
    assert_string_equal(v.name, "failed");
    assert_int_equal(v.exit, 1);
    fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(report_json_not_started(path, &cfg, &v, "rtl"), 0);
    f = fopen(path, "r");
    assert_non_null(f);
    n = fread(text, 1, sizeof(text) - 1, f);
    text[n] = '\0';
    fclose(f);
    unlink(path);
    assert_non_null(strstr(text, "\"config\": {"));
    assert_non_null(strstr(text, "\"status\": \"failed\",\n  \"diagnosis\": \"driver probe failed (pktgen_init -2)\""));
    assert_non_null(strstr(text, "\"model\": \"rtl\""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_faults_ur),
        cmocka_unit_test(test_faults_ca),
        cmocka_unit_test(test_faults_ep),
        cmocka_unit_test(test_faults_timeout),
        cmocka_unit_test(test_faults_reset_owner_protocols),
        cmocka_unit_test(test_faults_db_off),
        cmocka_unit_test(test_faults_blackout),
        cmocka_unit_test(test_faults_deterministic),
        cmocka_unit_test(test_faults_read_fault_on_dropped_frame),
        cmocka_unit_test(test_faults_unexplained_drop_is_not_clean),
        cmocka_unit_test(test_faults_many_queues_fill_before_hang_check),
        cmocka_unit_test(test_faults_reset_waits_for_cpl_timeout),
        cmocka_unit_test(test_faults_hang_check_while_busy),
        cmocka_unit_test(test_faults_watchdog_names_busy_loop),
        cmocka_unit_test(test_faults_err_left_by_fault),
        cmocka_unit_test(test_faults_unexplained_err_at_reset),
        cmocka_unit_test(test_faults_verdict_one_source),
        cmocka_unit_test(test_faults_verdict_not_started),
        cmocka_unit_test(test_faults_queues),
        cmocka_unit_test(test_faults_queues_two_resets),
        cmocka_unit_test(test_faults_queues_resets_in_a_row),
        cmocka_unit_test(test_faults_queues_no_spurious_reset),
        cmocka_unit_test(test_faults_drr_turns_no_spurious_reset),
        cmocka_unit_test(test_faults_queues_late_hang),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
