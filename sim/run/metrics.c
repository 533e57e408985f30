/* SPDX-License-Identifier: Apache-2.0 */
/*
 * metrics.c - a finished run's counters turned into per-packet figures,
 * utilisations and the bound (struct sim_result, sim/run/harness.h).
 *
 * What cannot be measured is NAN (printed as null / "n/a"), never 0 or a
 * stand-in:
 *  - per-packet figures (cpu_ns_per_pkt*, *_per_pkt) are per checked
 *    packet: NAN when no packet was checked;
 *  - the steady-state rate and the latency percentiles: see sb_result();
 *    the rate is NAN too when a violation stopped the run or it failed;
 *  - utilisations and link busy: NAN (and bound NULL) when the measured
 *    run has no length.
 *
 * Utilisation.  Demand and time come from one window, the measured run
 * (from the end of the probe until the world and every CPU stopped): a
 * resource's utilisation is the time it was busy in the run over the
 * run's length, so it cannot exceed 1.  (The former definition, demand
 * per packet over the whole run times the steady-state rate, mixed two
 * windows: in a short run the CPU fills the ring ahead of the wire, and
 * with the wire's warm-up-free rate a 2-packet run showed a CPU
 * utilisation of 2.81 and a 100-packet burst-32 run 1.13; random frame
 * sizes put the wire at 1.02.)  In a long run
 * the start-up round trip and the drain are a small fraction of the
 * window and utilisation approaches the steady-state figure; in a run of
 * a few round trips the latency dominates and the bound says so.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run/bound.h"
#include "run/fairness.h"
#include "nictx_hw.h"
#include "run/sim_world.h"

static void stbuf_stats_add(struct stbuf_stats *a, const struct stbuf_stats *b)
{
    a->stores += b->stores;
    a->misses += b->misses;
    a->wc_stores += b->wc_stores;
    a->wc_lines += b->wc_lines;
    a->wc_pieces += b->wc_pieces;
    a->wc_merges += b->wc_merges;
    a->cpu_stores += b->cpu_stores;
}

/* Cache-line traffic by shared structure (the measured run). */
static void sim_result_lines(const struct sim *s, struct sim_result *r)
{
    unsigned i, n = s->cl_up ? cl_nregions(&s->cl) : 0;

    for (i = 0; i < n && r->nlines < sizeof(r->lines) / sizeof(r->lines[0]); i++) {
        struct sim_lines *l = &r->lines[r->nlines++];
        struct cl_stats end;
        cl_region_stats(&s->cl, (int)i, &end);
        snprintf(l->name, sizeof(l->name), "%s", cl_region_name(&s->cl, (int)i));
        l->st = end;
        if (i < SIM_CL_SNAP) {
            const struct cl_stats *b = &s->cl_t0[i];
            l->st.reads -= b->reads;
            l->st.writes -= b->writes;
            l->st.xfers -= b->xfers;
            l->st.upgrades -= b->upgrades;
            l->st.dev_reads -= b->dev_reads;
            l->st.dev_writes -= b->dev_writes;
            l->st.snoops -= b->snoops;
            l->st.cost_ns -= b->cost_ns;
        }
    }
}

/* CPU time of cause k in the measured run: CPU `cpu`, or all when -1. */
static sim_ps_t sim_cpu_time(const struct sim *s, unsigned k, int cpu)
{
    sim_ps_t t = 0;
    unsigned i;

    for (i = 0; i < s->ncpu; i++)
        if (cpu < 0 || (unsigned)cpu == i)
            t += s->measured ? s->cpus[i].t1[k] : s->cpus[i].cpu.by_cause[k];
    return t;
}


/* Link traffic of the measured run only (not the probe, not the final
 * error-register read). */
static void link_delta(struct pcie_link_stats *out, const struct pcie_link_stats *end,
                       const struct pcie_link_stats *start)
{
    unsigned k;

    for (k = 0; k < TLP_KIND_COUNT; k++) {
        out->tlps[k] = end->tlps[k] - start->tlps[k];
        out->bytes[k] = end->bytes[k] - start->bytes[k];
    }
    for (k = 0; k < PCIE_FC_TYPES; k++) {
        out->stall_ps[k] = end->stall_ps[k] - start->stall_ps[k];
        out->stalls[k] = end->stalls[k] - start->stalls[k];
    }
    for (k = 0; k < TLP_KIND_COUNT; k++)
        out->queue_ps[k] = end->queue_ps[k] - start->queue_ps[k];
    out->updatefc_dllps = end->updatefc_dllps - start->updatefc_dllps;
    out->updatefc_bytes = end->updatefc_bytes - start->updatefc_bytes;
    out->tlp_bytes = end->tlp_bytes - start->tlp_bytes;
    out->dllp_bytes = end->dllp_bytes - start->dllp_bytes;
    out->skp_bytes = end->skp_bytes - start->skp_bytes;
    out->busy_ps = end->busy_ps - start->busy_ps;
}

/* The measured run's length: from its start until the world's clock and
 * every CPU's clock stopped (a CPU's last step may end after the world
 * stopped; its time by cause, idle included, sums to its clock's advance).
 * Every demand counted for the run lies inside it. */
static sim_ps_t sim_window_ps(const struct sim *s)
{
    sim_ps_t end = s->measured ? s->t_measure1 : s->now;
    /* The last frame may still be on the wire when its completion ends the
     * run: the window lasts until the wire is free. */
    if (s->wire_free > end)
        end = s->wire_free;
    sim_ps_t w = end > s->t_measure0 ? end - s->t_measure0 : 0;
    unsigned i, k;

    for (i = 0; i < s->ncpu; i++) {
        sim_ps_t spent = 0;
        for (k = 0; k < CPU_CAUSE_COUNT; k++)
            spent += sim_cpu_time(s, k, (int)i);
        if (spent > w)
            w = spent;
    }
    return w;
}

/* What a CPU's busy time went to: work, and the ways it waits while it
 * stays busy (bound.h names them). */
static void cpu_parts(const struct sim *s, unsigned i, sim_ps_t part[SIM_CPU_PART_COUNT])
{
    const struct sim_cpu *c = &s->cpus[i];
    sim_ps_t busy = 0, poll = s->measured ? c->poll_t1 : c->poll_ps;

    for (unsigned k = 0; k < CPU_CAUSE_COUNT; k++)
        if (k != CPU_IDLE)
            busy += sim_cpu_time(s, k, (int)i);
    part[SIM_CPU_HEAD_READ] = sim_cpu_time(s, CPU_MMIO_READ, (int)i);
    part[SIM_CPU_BARRIER] = sim_cpu_time(s, CPU_DRAIN, (int)i);
    part[SIM_CPU_LOCK] = sim_cpu_time(s, CPU_LOCK_STALL, (int)i);
    part[SIM_CPU_POLLING] = poll;
    part[SIM_CPU_WORK] = busy;
    for (unsigned k = SIM_CPU_WORK + 1; k < SIM_CPU_PART_COUNT; k++)
        part[SIM_CPU_WORK] -= part[k] < part[SIM_CPU_WORK] ? part[k] : part[SIM_CPU_WORK];
}

/* The busiest CPU's parts as fractions of the window. */
static void sim_result_cpu_util(const struct sim *s, struct sim_result *r, double win_ps)
{
    sim_ps_t best[SIM_CPU_PART_COUNT] = {0}, busiest = 0;

    for (unsigned i = 0; i < s->ncpu; i++) {
        sim_ps_t part[SIM_CPU_PART_COUNT], busy = 0;
        cpu_parts(s, i, part);
        for (unsigned k = 0; k < SIM_CPU_PART_COUNT; k++)
            busy += part[k];
        if (i == 0 || busy > busiest) {
            busiest = busy;
            memcpy(best, part, sizeof(best));
        }
    }
    r->util_cpu = (double)busiest / win_ps; /* the busiest CPU bounds the rate */
    for (unsigned k = 0; k < SIM_CPU_PART_COUNT; k++)
        r->cpu_part[k] = (double)best[k] / win_ps;
}

/* The fraction of the window each read pool sat at its cap, the longest
 * credit stall of any type in either direction, and the longest a queue's
 * ring was full of the device's descriptors. */
static void sim_result_starved(const struct sim *s, struct sim_result *r, double win_ps)
{
    sim_ps_t end = s->measured ? s->t_measure1 : s->now;
    sim_ps_t stall = 0;

    for (unsigned k = 0; k < RD_POOL_COUNT; k++)
        r->pool_full[k] = (double)rd_pool_full_ps(&s->pool, (enum rd_pool_kind)k, end) / win_ps;
    for (unsigned k = 0; k < PCIE_FC_TYPES; k++) {
        if (r->h2d.stall_ps[k] > stall)
            stall = r->h2d.stall_ps[k];
        if (r->d2h.stall_ps[k] > stall)
            stall = r->d2h.stall_ps[k];
    }
    r->credit_stalled = (double)stall / win_ps;
    stall = 0;
    for (unsigned q = 0; q < s->ck.n; q++) {
        sim_ps_t t = ownchk_ring_full_ps(&s->ck.q[q], end);
        if (t > stall)
            stall = t;
    }
    r->ring_full = (double)stall / win_ps;
}

/* Each resource's busy time over the measured run, and the bound. */
static void sim_result_util(const struct sim *s, struct sim_result *r)
{
    const struct pcie_link_stats *h = &r->h2d, *d = &r->d2h;
    double win_ps = (double)sim_window_ps(s), win_ns = win_ps / 1000.0;

    if (win_ps <= 0) {
        r->util_cpu = r->util_h2d = r->util_d2h = r->util_engine = r->util_wire = NAN;
        r->busy_h2d = r->busy_d2h = r->credit_stalled = r->ring_full = NAN;
        for (unsigned k = 0; k < SIM_CPU_PART_COUNT; k++)
            r->cpu_part[k] = NAN;
        for (unsigned k = 0; k < RD_POOL_COUNT; k++)
            r->pool_full[k] = NAN;
        r->bound = NULL;
        return;
    }
    sim_result_cpu_util(s, r, win_ps);
    r->util_h2d = (double)(h->tlp_bytes + h->updatefc_bytes) * 8.0 /
                  pcie_link_tlp_gbps(s->h2d) / win_ns;
    r->util_d2h = (double)(d->tlp_bytes + d->updatefc_bytes) * 8.0 /
                  pcie_link_tlp_gbps(s->d2h) / win_ns;
    r->util_engine = (double)s->engine_beats * (1000.0 / s->cfg.dev_mhz) / win_ns;
    /* every frame seen occupied the wire: its bytes, preamble/SFD and IFG */
    r->util_wire = ((double)r->sb.wire_bytes + 20.0 * (double)r->sb.seen) * 8.0 /
                   r->line_gbps_eff / win_ns;
    r->busy_h2d = (double)h->busy_ps / win_ps;
    r->busy_d2h = (double)d->busy_ps / win_ps;
    sim_result_starved(s, r, win_ps);
    r->bound = sim_bound(r);
}

/* The driver's counters, every queue's summed. */
static void sim_result_txq(const struct sim *s, struct txq_stats *ts)
{
    struct txq_stats x;

    txq_get_stats(&s->txq, ts);
    for (unsigned q = 1; q < s->nq; q++) {
        txq_get_stats(&s->xq[q - 1].txq, &x);
        ts->pkts += x.pkts;
        ts->descs += x.descs;
        ts->doorbells += x.doorbells;
        ts->wmbs += x.wmbs;
        ts->dma_wmbs += x.dma_wmbs;
        ts->wc_pushes += x.wc_pushes;
        ts->bql_stops += x.bql_stops;
        ts->bql_stalls += x.bql_stalls;
        if (x.bql_stall_max > ts->bql_stall_max)
            ts->bql_stall_max = x.bql_stall_max;
        ts->deferred += x.deferred;
        ts->cleans += x.cleans;
        ts->reclaimed += x.reclaimed;
        ts->busy += x.busy;
        ts->stops += x.stops;
        ts->wakes += x.wakes;
        ts->restarts += x.restarts;
        ts->bad_head += x.bad_head;
        ts->bad_len += x.bad_len;
        ts->resets += x.resets;
        ts->dropped += x.dropped;
    }
}

/* Per queue, and the fairness of the contended window (sim/run/fairness.h):
 * under RR every queue's weight counts as 1. */
static void sim_result_queues(const struct sim *s, struct sim_result *r)
{
    uint64_t win[SIM_QUEUES_MAX];
    unsigned w[SIM_QUEUES_MAX];
    double share[SIM_QUEUES_MAX], expected[SIM_QUEUES_MAX];
    struct fair_result fr;
    unsigned n = sb_queues(s->sb);

    r->nqueues = n;
    r->queue_irqs = s->cfg.irq_thresh > 0 || sim_cfg_irq_timer(&s->cfg) > 0;
    r->queue_faults = s->cfg.inject.n > 0;
    r->fair_jain = r->fair_max_share_dev = r->fair_window_ns = NAN;
    if (n < 2)
        return;
    for (unsigned q = 0; q < n; q++) {
        struct sb_queue_result qr;
        sb_queue_result(s->sb, q, &qr);
        r->queues[q].id = q;
        r->queues[q].weight = sim_cfg_weight(&s->cfg, q);
        r->queues[q].packets = qr.seen;
        r->queues[q].bytes = qr.wire_bytes;
        r->queues[q].gbps = qr.gbps;
        r->queues[q].irqs = s->qirqs[q];
        r->queues[q].checked = qr.checked;
        r->queues[q].dropped = qr.dropped;
        win[q] = qr.window_bytes;
        w[q] = s->cfg.sched == SIM_SCHED_DRR ? r->queues[q].weight : 1;
    }
    fair_shares(win, w, n, share, expected);
    for (unsigned q = 0; q < n; q++) {
        r->queues[q].share = share[q];
        r->queues[q].expected_share = expected[q];
    }
    fair_compute(win, w, n, &fr);
    r->fair_jain = fr.jain;
    r->fair_max_share_dev = fr.max_share_dev;
    r->fair_window_ns = sb_window_ns(s->sb);
}

/* The cover points (lib/cover.h) over the whole run: the device's, if it
 * counts them, and the links' credit stalls, both directions. */
_Static_assert(COVER_STALL_CPLD - COVER_STALL_PH == PCIE_FC_CPLD && PCIE_FC_PH == 0,
               "stall_* in enum pcie_fc_type's order");
static void sim_result_cover(const struct sim *s, struct sim_result *r)
{
    const uint64_t *dev = s->ops->cover ? s->ops->cover(s->dev) : NULL;
    const struct pcie_link_stats *h = pcie_link_stats(s->h2d), *d = pcie_link_stats(s->d2h);

    r->cover_dev = dev != NULL;
    for (unsigned i = 0; i < COVER_N; i++)
        r->cover[i] = dev ? dev[i] : 0;
    for (unsigned k = 0; k < PCIE_FC_TYPES; k++)
        r->cover[COVER_STALL_PH + k] = h->stalls[k] + d->stalls[k];
}

void sim_result(const struct sim *s, struct sim_result *r)
{
    struct txq_stats ts;
    const struct pcie_link_stats *d;
    double n;
    unsigned i, c;

    memset(r, 0, sizeof(*r));
    sb_result(s->sb, &r->sb);
    /* A run a violation stopped, or that failed, measured a broken
     * timeline: it has no throughput (n/a), never a figure that looks
     * better than the correct driver's. */
    if (s->stopped || s->failed)
        r->sb.mpps = r->sb.gbps = NAN;
    sim_result_queues(s, r);
    sim_result_txq(s, &ts);
    r->completed = ts.reclaimed;
    /* per checked packet; without one there is no per-packet figure */
    n = r->sb.checked ? (double)r->sb.checked : NAN;
    for (i = 0; i < CPU_CAUSE_COUNT; i++) {
        r->cpu_ns_per_pkt[i] = (double)sim_cpu_time(s, i, -1) / 1000.0 / n;
        if (i != CPU_IDLE)
            r->cpu_ns_total += r->cpu_ns_per_pkt[i];
    }
    r->ncpu = s->ncpu;
    for (c = 0; c < s->ncpu; c++) {
        for (i = 0; i < CPU_CAUSE_COUNT; i++)
            r->cpu_ns_per_pkt_cpu[c][i] = (double)sim_cpu_time(s, i, (int)c) / 1000.0 / n;
        stbuf_stats_add(&r->stb, &s->cpus[c].stb.st);
    }
    link_delta(&r->h2d, s->measured ? &s->h2d_t1 : pcie_link_stats(s->h2d), &s->h2d_t0);
    link_delta(&r->d2h, s->measured ? &s->d2h_t1 : pcie_link_stats(s->d2h), &s->d2h_t0);
    d = &r->d2h;
    r->doorbells_per_pkt = (double)ts.doorbells / n;
    r->desc_fetches_per_pkt = (double)d->tlps[TLP_KIND_DESC_RD] / n;
    r->irqs_per_pkt = (double)s->rc.st.irqs / n;
    r->line_gbps_eff = sim_cfg_line_gbps_eff(&s->cfg);
    sim_result_util(s, r);

    r->rd_stall_cycles = s->rd_stall_cycles;
    r->txq = ts;
    r->not_owned = s->not_owned;
    r->wc_used = s->wc_used;
    r->wc_dropped = s->wc_dropped;
    r->dev_err = s->dev_err;
    r->reset_err = s->reset_err;
    r->resets = s->txq.st_resets; /* an adapter reset resets queue 0 too */
    r->stopped_by_violation = s->stopped;
    r->faults_fired = s->inj_fired;
    r->bug_fired = s->txq.bug_fired || s->pg.bug_fired;
    for (unsigned q = 1; q < s->nq; q++)
        r->bug_fired |= s->xq[q - 1].txq.bug_fired || s->xq[q - 1].pg.bug_fired;
    sim_result_lines(s, r);
    sim_result_cover(s, r);
    r->cycles_evaluated = s->cycles;
    r->cycles_skipped = s->skipped;
    r->cycles_in_runs = s->run_cycles;
    r->cycles_streamed = s->stream_cycles;
    r->sim_time_ps = s->now;
    r->wall_s = s->wall_s;
    r->nviolations = s->nviol;
    for (i = 0; i < s->nviol && i < SIM_MAX_VIOLATIONS; i++)
        r->violations[i] = s->viol[i];
}
