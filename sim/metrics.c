/*
 * metrics.c - a finished run's counters turned into per-packet figures,
 * utilisations and the bound (struct sim_result, sim/harness.h).
 */
#include <stdio.h>
#include <string.h>

#include "nictx_hw.h"
#include "sim_world.h"

static void stbuf_stats_add(struct stbuf_stats *a, const struct stbuf_stats *b)
{
    a->stores += b->stores;
    a->misses += b->misses;
    a->wc_stores += b->wc_stores;
    a->wc_lines += b->wc_lines;
    a->wc_pieces += b->wc_pieces;
    a->wc_merges += b->wc_merges;
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
    for (k = 0; k < PCIE_FC_TYPES; k++)
        out->stall_ps[k] = end->stall_ps[k] - start->stall_ps[k];
    for (k = 0; k < TLP_KIND_COUNT; k++)
        out->queue_ps[k] = end->queue_ps[k] - start->queue_ps[k];
    out->updatefc_dllps = end->updatefc_dllps - start->updatefc_dllps;
    out->updatefc_bytes = end->updatefc_bytes - start->updatefc_bytes;
    out->tlp_bytes = end->tlp_bytes - start->tlp_bytes;
    out->dllp_bytes = end->dllp_bytes - start->dllp_bytes;
    out->skp_bytes = end->skp_bytes - start->skp_bytes;
    out->busy_ps = end->busy_ps - start->busy_ps;
}

void sim_result(const struct sim *s, struct sim_result *r)
{
    struct txq_stats ts;
    const struct pcie_link_stats *h, *d;
    double n, pkt_ns, mpps, wire_ns, cyc_ns, best, busiest = 0;
    unsigned i, c;

    memset(r, 0, sizeof(*r));
    sb_result(s->sb, &r->sb);
    txq_get_stats(&s->txq, &ts);
    r->completed = ts.reclaimed;
    n = (double)(r->sb.checked ? r->sb.checked : 1);
    for (i = 0; i < CPU_CAUSE_COUNT; i++) {
        r->cpu_ns_per_pkt[i] = (double)sim_cpu_time(s, i, -1) / 1000.0 / n;
        if (i != CPU_IDLE)
            r->cpu_ns_total += r->cpu_ns_per_pkt[i];
    }
    r->ncpu = s->ncpu;
    for (c = 0; c < s->ncpu; c++) {
        double busy = 0;
        for (i = 0; i < CPU_CAUSE_COUNT; i++) {
            r->cpu_ns_per_pkt_cpu[c][i] = (double)sim_cpu_time(s, i, (int)c) / 1000.0 / n;
            if (i != CPU_IDLE)
                busy += r->cpu_ns_per_pkt_cpu[c][i];
        }
        if (busy > busiest)
            busiest = busy;
        stbuf_stats_add(&r->stb, &s->cpus[c].stb.st);
    }
    link_delta(&r->h2d, s->measured ? &s->h2d_t1 : pcie_link_stats(s->h2d), &s->h2d_t0);
    link_delta(&r->d2h, s->measured ? &s->d2h_t1 : pcie_link_stats(s->d2h), &s->d2h_t0);
    h = &r->h2d;
    d = &r->d2h;
    r->doorbells_per_pkt = (double)ts.doorbells / n;
    r->desc_fetches_per_pkt = (double)d->tlps[TLP_KIND_DESC_RD] / n;
    r->irqs_per_pkt = (double)s->rc.st.irqs / n;
    r->line_gbps_eff = sim_cfg_line_rate_fx(&s->cfg) / 65536.0 * 8.0 * s->cfg.dev_mhz / 1e3;

    /* Utilisation = demand per packet x packet rate. */
    mpps = r->sb.mpps;
    pkt_ns = mpps > 0 ? 1000.0 / mpps : 0;
    wire_ns = r->sb.checked ? ((double)r->sb.frame_bytes / n + 20.0) * 8.0 / r->line_gbps_eff : 0;
    cyc_ns = 1000.0 / s->cfg.dev_mhz;
    if (pkt_ns > 0) {
        r->util_cpu = busiest / pkt_ns; /* the busiest CPU bounds the rate */
        r->util_h2d = (double)(h->tlp_bytes + h->updatefc_bytes) / n * 8.0 /
                      pcie_link_tlp_gbps(s->h2d) / pkt_ns;
        r->util_d2h = (double)(d->tlp_bytes + d->updatefc_bytes) / n * 8.0 /
                      pcie_link_tlp_gbps(s->d2h) / pkt_ns;
        r->util_engine = (double)s->engine_beats / n * cyc_ns / pkt_ns;
        r->util_wire = wire_ns / pkt_ns;
    }
    r->bound = "cpu";
    best = r->util_cpu;
    if (r->util_h2d > best) { best = r->util_h2d; r->bound = "pcie_h2d"; }
    if (r->util_d2h > best) { best = r->util_d2h; r->bound = "pcie_d2h"; }
    if (r->util_engine > best) { best = r->util_engine; r->bound = "device"; }
    if (r->util_wire > best) { best = r->util_wire; r->bound = "wire"; }
    /* Nothing near saturation: a round trip (DMA latency, ring, tags) limits. */
    if (best < 0.9)
        r->bound = "latency";

    if (s->measured && s->t_measure1 > s->t_measure0) {
        r->busy_h2d = (double)h->busy_ps / (double)(s->t_measure1 - s->t_measure0);
        r->busy_d2h = (double)d->busy_ps / (double)(s->t_measure1 - s->t_measure0);
    }
    r->rd_stall_cycles = s->rd_stall_cycles;
    r->txq = ts;
    r->not_owned = s->not_owned;
    r->wc_used = s->wc_used;
    r->wc_dropped = s->wc_dropped;
    r->dev_err = s->dev_err;
    r->stopped_by_violation = s->stopped;
    sim_result_lines(s, r);
    r->cycles_evaluated = s->cycles;
    r->cycles_skipped = s->skipped;
    r->sim_time_ps = s->now;
    r->wall_s = s->wall_s;
    r->nviolations = s->nviol;
    for (i = 0; i < s->nviol && i < SIM_MAX_VIOLATIONS; i++)
        r->violations[i] = s->viol[i];
}
