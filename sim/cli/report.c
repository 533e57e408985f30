/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report.c - a run's report: the text table and the JSON (see report.h).
 * The configuration part of both comes from the settings table
 * (sim/run/settings.h).
 */
#include "cli/report.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "run/bound.h"
#include "run/fault.h"
#include "run/settings.h"
#include "run/verdict.h"
#include "lib/json.h"
#include "check/ownchk.h"

#define REPORT_WIDTH 100 /* the text report's header wraps here */

/* Per checked packet; NAN (not measured) when none was checked. */
static double per_pkt(uint64_t v, const struct sim_result *r)
{
    return r->sb.checked ? (double)v / (double)r->sb.checked : NAN;
}

/* v printed with fmt (one double conversion, no width), or "n/a" when it
 * was not measured (NAN); the text lives in buf. */
static const char *num(char *buf, size_t len, const char *fmt, double v)
{
    if (isnan(v))
        snprintf(buf, len, "n/a");
    else
        snprintf(buf, len, fmt, v);
    return buf;
}
/* The same with a buffer that lives until the end of the enclosing block. */
#define NUM(fmt, v) num((char[40]){""}, 40, fmt, v)

static const char *bound_name(const struct sim_result *r)
{
    return r->bound ? r->bound : "n/a";
}

/* Simulated frames per wall-clock second; NAN if no wall time was taken. */
static double sim_pkts_per_wall_s(const struct sim_result *r)
{
    return r->wall_s > 0 ? (double)r->sb.seen / r->wall_s : NAN;
}

/* With more than one CPU: each CPU's time by cause. */
static void report_cpus(FILE *f, const struct sim_result *r)
{
    unsigned c, k;

    if (r->ncpu < 2)
        return;
    for (c = 0; c < r->ncpu; c++) {
        fprintf(f, "    cpu%u ns/pkt:", c);
        for (k = 0; k < CPU_CAUSE_COUNT; k++)
            if (k != CPU_IDLE && r->cpu_ns_per_pkt_cpu[c][k] > 0)
                fprintf(f, " %s %.1f", cpu_cause_name((enum cpu_cause)k),
                        r->cpu_ns_per_pkt_cpu[c][k]);
        fprintf(f, " (idle %s)\n", NUM("%.1f", r->cpu_ns_per_pkt_cpu[c][CPU_IDLE]));
    }
}

/* ", dropped N (reason n, ...)" when a fault cost frames, and the resets. */
static void report_dropped(FILE *f, const struct sim_result *r)
{
    const char *sep = " (";

    if (r->sb.dropped_total == 0 && r->resets == 0)
        return;
    fprintf(f, "  dropped %" PRIu64, r->sb.dropped_total);
    for (unsigned k = 0; k < SIM_DROP_REASONS; k++) {
        if (r->sb.dropped[k]) {
            fprintf(f, "%s%s %" PRIu64, sep, sim_drop_reason_name(k), r->sb.dropped[k]);
            sep = ", ";
        }
    }
    fprintf(f, "%s  queue resets %" PRIu64, *sep == ',' ? ")" : "", r->resets);
}

/* Cache-line transfers and upgrades per packet, by shared structure. */
static void report_lines(FILE *f, const struct sim_result *r)
{
    unsigned i;
    int any = 0;

    for (i = 0; i < r->nlines; i++)
        any |= r->lines[i].st.xfers || r->lines[i].st.upgrades;
    if (!any)
        return;
    fprintf(f, "  cache lines/pkt  ");
    for (i = 0; i < r->nlines; i++)
        if (r->lines[i].st.xfers || r->lines[i].st.upgrades)
            fprintf(f, " %s %s xfer %s upg", r->lines[i].name,
                    NUM("%.3f", per_pkt(r->lines[i].st.xfers, r)),
                    NUM("%.3f", per_pkt(r->lines[i].st.upgrades, r)));
    fprintf(f, "\n");
}

/* Who owns the descriptors and what it cost: driver and device counters. */
static void report_ownership(FILE *f, const struct sim_result *r)
{
    fprintf(f, "  ownership         per pkt: dma_wmb %s  wmb %s  wc pushes %s"
            "  store misses %s;  device: not-owned fetched %s  wc used %s"
            "  wc dropped %s\n",
            NUM("%.3f", per_pkt(r->txq.dma_wmbs, r)), NUM("%.3f", per_pkt(r->txq.wmbs, r)),
            NUM("%.3f", per_pkt(r->txq.wc_pushes, r)), NUM("%.3f", per_pkt(r->stb.misses, r)),
            NUM("%.3f", per_pkt(r->not_owned, r)), NUM("%.3f", per_pkt(r->wc_used, r)),
            NUM("%.3f", per_pkt(r->wc_dropped, r)));
}

/* A direction's credit stalls; the credits came back in UpdateFCs on the
 * other direction (`back`, named `back_dir`). */
static void report_credit_stalls(FILE *f, const char *dir, const struct pcie_link_stats *s,
                                 const char *back_dir, const struct pcie_link_stats *back)
{
    unsigned k;
    int any = 0;

    for (k = 0; k < PCIE_FC_TYPES; k++)
        any |= s->stall_ps[k] != 0;
    if (!any)
        return;
    fprintf(f, "                    %s waited for credits:", dir);
    for (k = 0; k < PCIE_FC_TYPES; k++)
        if (s->stall_ps[k])
            fprintf(f, " %s %.1f us", pcie_fc_type_name(k), (double)s->stall_ps[k] / 1e6);
    fprintf(f, " (credits back in %" PRIu64 " UpdateFCs, %" PRIu64 " B on %s)\n",
            back->updatefc_dllps, back->updatefc_bytes, back_dir);
}

/* A queue's table row; the compact form puts four on a line.  With
 * interrupts on its interrupt count too, with a fault plan its drops. */
static void report_queue_row(FILE *f, const struct sim_queue_result *q, int compact,
                             const struct sim_result *r)
{

    if (compact) {
        fprintf(f, "  q%-2u w%-3u %s/%s %s", q->id, q->weight, NUM("%.4f", q->share),
                NUM("%.4f", q->expected_share), NUM("%.3f", q->gbps));
        if (r->queue_irqs)
            fprintf(f, " i%" PRIu64, q->irqs);
        if (r->queue_faults)
            fprintf(f, " d%" PRIu64, q->dropped);
        return;
    }
    fprintf(f, "    %5u %6u %10" PRIu64 " %12" PRIu64 " %8s %7s %9s", q->id, q->weight,
            q->packets, q->bytes, NUM("%.3f", q->gbps), NUM("%.4f", q->share),
            NUM("%.4f", q->expected_share));
    if (r->queue_irqs)
        fprintf(f, " %8" PRIu64, q->irqs);
    if (r->queue_faults)
        fprintf(f, " %8" PRIu64, q->dropped);
    fprintf(f, "\n");
}

/* Several queues: fairness over the contended window, then each queue
 * (a compact form, four a line, for more than 8). */
static void report_queues(FILE *f, const struct sim_cfg *c, const struct sim_result *r)
{
    int compact = r->nqueues > 8;

    if (r->nqueues < 2)
        return;
    fprintf(f, "  queues            %u, %s", r->nqueues, sim_sched_name(c->sched));
    if (c->sched == SIM_SCHED_DRR)
        fprintf(f, " quantum %u B", c->drr_quantum);
    fprintf(f, "; contended window %s us: jain %s, max share deviation %s\n",
            NUM("%.3f", r->fair_window_ns / 1000.0), NUM("%.4f", r->fair_jain),
            NUM("%.4f", r->fair_max_share_dev));
    if (compact)
        fprintf(f, "    queue weight share/expected (window) Gb/s%s%s:\n  ",
                r->queue_irqs ? " irqs" : "", r->queue_faults ? " dropped" : "");
    else
        fprintf(f, "    queue weight    packets        bytes     Gb/s   share  expected%s%s\n",
                r->queue_irqs ? "     irqs" : "", r->queue_faults ? "  dropped" : "");
    for (unsigned q = 0; q < r->nqueues; q++) {
        report_queue_row(f, &r->queues[q], compact, r);
        if (compact && (q % 4 == 3 || q + 1 == r->nqueues))
            fprintf(f, "\n%s", q + 1 < r->nqueues ? "  " : "");
    }
}

/* The configuration: the settings the table shows in the header (sim/run/
 * settings.c, each row's `text`), in its order, wrapped at REPORT_WIDTH. */
static void report_config(FILE *f, const struct sim_cfg *c)
{
    size_t n;
    const struct sim_setting *s = sim_settings(&n);
    char item[256];
    int col = fprintf(f, "nictx:"), first = 1;

    for (size_t i = 0; i < n; i++) {
        if (!sim_setting_text(&s[i], c, item, sizeof(item)))
            continue;
        if (!first && col + 2 + (int)strlen(item) > REPORT_WIDTH) {
            fprintf(f, ",\n      ");
            col = 6;
        } else if (!first) {
            col += fprintf(f, ",");
        }
        col += fprintf(f, " %s", item);
        first = 0;
    }
    fprintf(f, "\n");
}

/* How the run ended, when not ok (the verdict, verdict.h). */
static void report_status(FILE *f, const struct sim_verdict *v)
{
    if (v->heading)
        fprintf(f, "%s: %s\n", v->heading, v->why);
}

/* Why the bound: the figure that shows it, what the busiest CPU's time
 * went to, how long each pool starved the device. */
static void report_bound(FILE *f, const struct sim_result *r)
{
    char why[160];

    sim_bound_why(r, why, sizeof why);
    if (why[0])
        fprintf(f, "  bound             %s\n", why);
    fprintf(f, "  busiest cpu      ");
    for (unsigned k = 0; k < SIM_CPU_PART_COUNT; k++)
        fprintf(f, " %s %s", sim_cpu_part_name((enum sim_cpu_part)k), NUM("%.2f", r->cpu_part[k]));
    fprintf(f, "\n  starved           ");
    for (unsigned k = 0; k < RD_POOL_COUNT; k++)
        fprintf(f, "%s %s  ", rd_pool_name((enum rd_pool_kind)k), NUM("%.2f", r->pool_full[k]));
    fprintf(f, "credits %s  ring %s (of the measured time at the cap)\n",
            NUM("%.2f", r->credit_stalled), NUM("%.2f", r->ring_full));
}

/* Throughput, what was busy, and what became of the packets. */
static void report_rates(FILE *f, const struct sim_result *r)
{
    fprintf(f, "  throughput        %8s Mpps   %8s Gb/s   bound: %s\n",
            NUM("%.3f", r->sb.mpps), NUM("%.3f", r->sb.gbps), bound_name(r));
    fprintf(f, "  utilisation       cpu %s  pcie h2d %s  pcie d2h %s  device %s  wire %s"
            " (of the measured time)\n",
            NUM("%.2f", r->util_cpu), NUM("%.2f", r->util_h2d), NUM("%.2f", r->util_d2h),
            NUM("%.2f", r->util_engine), NUM("%.2f", r->util_wire));
    fprintf(f, "  link busy         h2d %s  d2h %s (of the measured time)\n",
            NUM("%.2f", r->busy_h2d), NUM("%.2f", r->busy_d2h));
    report_bound(f, r);
    fprintf(f, "  packets           sent %" PRIu64 "  checked %" PRIu64 "  lost %" PRIu64
            "  corrupted %" PRIu64, r->sb.sent_expected, r->sb.checked, r->sb.lost,
            r->sb.corrupted);
    report_dropped(f, r);
    fprintf(f, "\n");
}

/* CPU ns and PCIe bytes per packet, by cause and by TLP kind. */
static void report_costs(FILE *f, const struct sim_result *r)
{
    const struct pcie_link_stats *h = &r->h2d, *d = &r->d2h;
    unsigned k;

    fprintf(f, "  cpu ns/pkt        %8s total:", NUM("%.1f", r->cpu_ns_total));
    for (k = 0; k < CPU_CAUSE_COUNT; k++)
        if (k != CPU_IDLE && r->cpu_ns_per_pkt[k] > 0)
            fprintf(f, " %s %.1f", cpu_cause_name((enum cpu_cause)k), r->cpu_ns_per_pkt[k]);
    fprintf(f, "\n");
    report_cpus(f, r);
    report_lines(f, r);
    fprintf(f, "  pcie B/pkt h2d    %8s total:", NUM("%.1f", per_pkt(h->tlp_bytes, r)));
    for (k = 0; k < TLP_KIND_COUNT; k++)
        if (h->bytes[k])
            fprintf(f, " %s %s", tlp_kind_name(k), NUM("%.1f", per_pkt(h->bytes[k], r)));
    fprintf(f, "\n  pcie B/pkt d2h    %8s total:", NUM("%.1f", per_pkt(d->tlp_bytes, r)));
    for (k = 0; k < TLP_KIND_COUNT; k++)
        if (d->bytes[k])
            fprintf(f, " %s %s", tlp_kind_name(k), NUM("%.1f", per_pkt(d->bytes[k], r)));
    fprintf(f, "\n  per packet        doorbells %s  desc fetches %s  irqs %s\n",
            NUM("%.4f", r->doorbells_per_pkt), NUM("%.4f", r->desc_fetches_per_pkt),
            NUM("%.4f", r->irqs_per_pkt));
}

/* The protocol violations found, the first SIM_MAX_VIOLATIONS of them. */
static void report_violations(FILE *f, const struct sim_result *r)
{
    fprintf(f, "  violations        %zu\n", r->nviolations);
    for (size_t k = 0; k < r->nviolations && k < SIM_MAX_VIOLATIONS; k++) {
        const struct sim_violation *v = &r->violations[k];
        char q[24] = ""; /* several queues: the queue whose checker found it */
        if (r->nqueues > 1 && v->queue != OWNCHK_QUEUE_NONE)
            snprintf(q, sizeof(q), " on queue %u", v->queue);
        fprintf(f, "    %s at %.3f us%s%s%s%s: %s\n", v->kind, (double)v->time_ps / 1e6, q,
                v->access[0] ? " [" : "", v->access, v->access[0] ? "]" : "", v->detail);
    }
    if (r->nviolations > SIM_MAX_VIOLATIONS)
        fprintf(f, "    ... %zu more\n", r->nviolations - SIM_MAX_VIOLATIONS);
}

void report_text(FILE *f, const struct sim_cfg *c, const struct sim_result *r,
                 int status, const char *diag)
{
    struct sim_verdict v;

    sim_verdict_of(c, status, r, diag, &v);
    report_config(f, c);
    report_status(f, &v);
    report_rates(f, r);
    report_queues(f, c, r);
    report_costs(f, r);
    report_ownership(f, r);
    if (c->bql)
        fprintf(f, "  bql               stops %" PRIu64 "  stalls %" PRIu64 " (longest %.0f ms)\n",
                r->txq.bql_stops, r->txq.bql_stalls,
                (double)r->txq.bql_stall_max * (double)DQL_JIFFY_NS / 1e6);
    fprintf(f, "  doorbell-to-wire  p50 %s ns  p99 %s ns  max %s ns\n",
            NUM("%.0f", r->sb.lat_p50_ns), NUM("%.0f", r->sb.lat_p99_ns),
            NUM("%.0f", r->sb.lat_max_ns));
    fprintf(f, "    queueing        p50 %s ns  p99 %s ns (doorbell to descriptor fetch)\n",
            NUM("%.0f", r->sb.lat_queue_p50_ns), NUM("%.0f", r->sb.lat_queue_p99_ns));
    fprintf(f, "    service         p50 %s ns  p99 %s ns (descriptor fetch to wire)\n",
            NUM("%.0f", r->sb.lat_service_p50_ns), NUM("%.0f", r->sb.lat_service_p99_ns));
    fprintf(f, "  stalls            DMA read waited for a tag or byte budget %" PRIu64 " cycles\n",
            r->rd_stall_cycles);
    report_credit_stalls(f, "h2d", &r->h2d, "d2h", &r->d2h);
    report_credit_stalls(f, "d2h", &r->d2h, "h2d", &r->h2d);
    report_violations(f, r);
    if (r->has_area)
        fprintf(f, "  area              %lu gates  %lu flops  %lu memory bits  %lu levels;  xc7 "
                   "%lu LUTs (%lu as RAM)  %lu FFs  %lu BRAM18s\n",
                r->area.gates, r->area.flops, r->area.mem_bits, r->area.levels,
                r->area.xc7_luts, r->area.xc7_lutram, r->area.xc7_ffs, r->area.xc7_bram18);
    fprintf(f, "  simulator         %.2f s wall, %s sim pkts/s, %" PRIu64 " cycles evaluated, %"
            PRIu64 " skipped\n", r->wall_s, NUM("%.0f", sim_pkts_per_wall_s(r)),
            r->cycles_evaluated, r->cycles_skipped);
}

static void json_link(struct json *j, const char *key, const struct pcie_link_stats *s,
                      const struct sim_result *r)
{
    unsigned k;

    json_obj_begin(j, key);
    json_num(j, "total", per_pkt(s->tlp_bytes, r));
    for (k = 0; k < TLP_KIND_COUNT; k++)
        if (s->tlps[k])
            json_num(j, tlp_kind_name(k), per_pkt(s->bytes[k], r));
    json_num(j, "dllp", per_pkt(s->dllp_bytes, r));
    json_num(j, "skp", per_pkt(s->skp_bytes, r));
    json_obj_begin(j, "tlps");
    for (k = 0; k < TLP_KIND_COUNT; k++)
        if (s->tlps[k])
            json_u64(j, tlp_kind_name(k), s->tlps[k]);
    json_obj_end(j);
    /* mean time a TLP of each kind waited to start (credits, ordering, link busy) */
    json_obj_begin(j, "queue_ns");
    for (k = 0; k < TLP_KIND_COUNT; k++)
        if (s->tlps[k])
            json_num(j, tlp_kind_name(k), (double)s->queue_ps[k] / 1000.0 / (double)s->tlps[k]);
    json_obj_end(j);
    json_obj_end(j);
}

static void json_credit_stalls(struct json *j, const char *key, const struct pcie_link_stats *s)
{
    unsigned k;

    json_obj_begin(j, key);
    for (k = 0; k < PCIE_FC_TYPES; k++)
        json_num(j, pcie_fc_type_name(k), (double)s->stall_ps[k] / 1000.0);
    json_obj_end(j);
}

/* Several queues: `queues` and `fairness` (docs/user-guide.md, Queues). */
static void json_queues(struct json *j, const struct sim_result *r)
{
    if (r->nqueues < 2)
        return;
    json_arr_begin(j, "queues");
    for (unsigned q = 0; q < r->nqueues; q++) {
        const struct sim_queue_result *x = &r->queues[q];
        json_obj_begin(j, NULL);
        json_u64(j, "id", x->id);
        json_u64(j, "weight", x->weight);
        json_u64(j, "packets", x->packets);
        json_u64(j, "bytes", x->bytes);
        json_num(j, "share", x->share);
        json_num(j, "expected_share", x->expected_share);
        if (r->queue_irqs)
            json_u64(j, "irqs", x->irqs);
        if (r->queue_faults)
            json_u64(j, "dropped", x->dropped);
        json_obj_end(j);
    }
    json_arr_end(j);
    json_obj_begin(j, "fairness");
    json_num(j, "jain", r->fair_jain);
    json_num(j, "max_share_dev", r->fair_max_share_dev);
    json_num(j, "window_ns", r->fair_window_ns);
    json_obj_end(j);
}

/* The verdict (verdict.h): "status", and "diagnosis" unless ok. */
static void json_verdict(struct json *j, const struct sim_verdict *v)
{
    json_str(j, "status", v->name);
    if (v->status != SIM_STATUS_OK)
        json_str(j, "diagnosis", v->why);
}

/* The verdict, the rates, and what was busy. */
static void json_rates(struct json *j, const struct sim_cfg *c, const struct sim_result *r,
                       int status, const char *diag)
{
    struct sim_verdict v;

    sim_verdict_of(c, status, r, diag, &v);
    json_verdict(j, &v);
    json_num(j, "mpps", r->sb.mpps);
    json_num(j, "gbps", r->sb.gbps);
    json_str(j, "bound", r->bound);
    json_obj_begin(j, "utilization");
    json_num(j, "cpu", r->util_cpu);
    json_num(j, "pcie_h2d", r->util_h2d);
    json_num(j, "pcie_d2h", r->util_d2h);
    json_num(j, "device", r->util_engine);
    json_num(j, "wire", r->util_wire);
    json_obj_begin(j, "cpu_parts");
    for (unsigned k = 0; k < SIM_CPU_PART_COUNT; k++)
        json_num(j, sim_cpu_part_name((enum sim_cpu_part)k), r->cpu_part[k]);
    json_obj_end(j);
    json_obj_end(j);
    json_obj_begin(j, "starved");
    for (unsigned k = 0; k < RD_POOL_COUNT; k++)
        json_num(j, rd_pool_name((enum rd_pool_kind)k), r->pool_full[k]);
    json_num(j, "credits", r->credit_stalled);
    json_num(j, "ring", r->ring_full);
    json_obj_end(j);
    json_obj_begin(j, "link_busy");
    json_num(j, "h2d", r->busy_h2d);
    json_num(j, "d2h", r->busy_d2h);
    json_obj_end(j);
}

static void json_packets(struct json *j, const struct sim_result *r)
{
    json_obj_begin(j, "packets");
    json_u64(j, "sent", r->sb.sent_expected);
    json_u64(j, "checked", r->sb.checked);
    json_u64(j, "lost", r->sb.lost);
    json_u64(j, "corrupted", r->sb.corrupted);
    json_u64(j, "completed", r->completed);
    json_obj_begin(j, "dropped");
    for (unsigned k = 0; k < SIM_DROP_REASONS; k++)
        json_u64(j, sim_drop_reason_name(k), r->sb.dropped[k]);
    json_obj_end(j);
    json_u64(j, "queue_resets", r->resets); /* adapter resets */
    json_obj_end(j);
}

/* CPU ns per packet, in all and by CPU, and the shared cache lines. */
static void json_cpu(struct json *j, const struct sim_result *r)
{
    json_obj_begin(j, "cpu_ns_per_pkt");
    json_num(j, "total", r->cpu_ns_total);
    for (unsigned k = 0; k < CPU_CAUSE_COUNT; k++)
        json_num(j, cpu_cause_name((enum cpu_cause)k), r->cpu_ns_per_pkt[k]);
    json_obj_end(j);
    json_obj_begin(j, "cpu_ns_per_pkt_by_cpu");
    for (unsigned k = 0; k < r->ncpu; k++) {
        char key[16];
        snprintf(key, sizeof(key), "cpu%u", k);
        json_obj_begin(j, key);
        for (unsigned c = 0; c < CPU_CAUSE_COUNT; c++)
            json_num(j, cpu_cause_name((enum cpu_cause)c), r->cpu_ns_per_pkt_cpu[k][c]);
        json_obj_end(j);
    }
    json_obj_end(j);
    json_obj_begin(j, "cachelines_per_pkt");
    for (unsigned k = 0; k < r->nlines; k++) {
        json_obj_begin(j, r->lines[k].name);
        json_num(j, "transfers", per_pkt(r->lines[k].st.xfers, r));
        json_num(j, "upgrades", per_pkt(r->lines[k].st.upgrades, r));
        json_num(j, "cpu_ns",
                 r->sb.checked ? r->lines[k].st.cost_ns / (double)r->sb.checked : NAN);
        json_num(j, "device_snoops", per_pkt(r->lines[k].st.snoops, r));
        json_obj_end(j);
    }
    json_obj_end(j);
}

/* The cover points (lib/cover.h, docs/coverage.md): every one's count, a
 * per-queue point's as name[q]; the device's only when the device counts
 * them (the C model). */
static void json_cover_point(struct json *j, const char *name, unsigned n, const uint64_t *c)
{
    char key[48];

    if (n == 1) {
        json_u64(j, name, c[0]);
        return;
    }
    for (unsigned q = 0; q < n; q++) {
        snprintf(key, sizeof(key), "%s[%u]", name, q);
        json_u64(j, key, c[q]);
    }
}

static void json_cover(struct json *j, const struct sim_result *r)
{
    json_obj_begin(j, "cover");
#define JSON_COVER(id, name, n, where, what)                                                     \
    if (r->cover_dev || COVER_WHERE_##where == COVER_WHERE_link)                                 \
        json_cover_point(j, name, n, &r->cover[COVER_##id]);
    COVER_POINTS(JSON_COVER)
#undef JSON_COVER
    json_obj_end(j);
}

/* PCIe bytes, stalls, doorbells and fetches, ownership, device errors. */
static void json_device(struct json *j, const struct sim_result *r)
{
    json_obj_begin(j, "pcie_bytes_per_pkt");
    json_link(j, "h2d", &r->h2d, r);
    json_link(j, "d2h", &r->d2h, r);
    json_obj_end(j);
    json_obj_begin(j, "stalls");
    json_u64(j, "read_tag_cycles", r->rd_stall_cycles);
    json_credit_stalls(j, "credit_ns_h2d", &r->h2d);
    json_credit_stalls(j, "credit_ns_d2h", &r->d2h);
    json_obj_end(j);
    json_num(j, "doorbells_per_pkt", r->doorbells_per_pkt);
    json_num(j, "desc_fetches_per_pkt", r->desc_fetches_per_pkt);
    json_num(j, "irqs_per_pkt", r->irqs_per_pkt);
    json_obj_begin(j, "ownership_per_pkt");
    json_num(j, "dma_wmb", per_pkt(r->txq.dma_wmbs, r));
    json_num(j, "wmb", per_pkt(r->txq.wmbs, r));
    json_num(j, "wc_pushes", per_pkt(r->txq.wc_pushes, r));
    json_num(j, "store_misses", per_pkt(r->stb.misses, r));
    json_num(j, "not_owned_fetched", per_pkt(r->not_owned, r));
    json_num(j, "wc_used", per_pkt(r->wc_used, r));
    json_num(j, "wc_dropped", per_pkt(r->wc_dropped, r));
    json_obj_end(j);
    json_u64(j, "device_err", r->dev_err);
    json_u64(j, "reset_err", r->reset_err);
}

/* Byte queue limits (--bql on): the stops the limit made, and the stalls
 * its detector counted (--bql-stall-ms). */
static void json_bql(struct json *j, const struct sim_result *r)
{
    json_obj_begin(j, "bql");
    json_u64(j, "stops", r->txq.bql_stops);
    json_u64(j, "stalls", r->txq.bql_stalls);
    json_num(j, "stall_max_ms", (double)r->txq.bql_stall_max * (double)DQL_JIFFY_NS / 1e6);
    json_obj_end(j);
}

static void json_violations(struct json *j, const struct sim_result *r)
{
    json_arr_begin(j, "violations");
    for (size_t k = 0; k < r->nviolations && k < SIM_MAX_VIOLATIONS; k++) {
        const struct sim_violation *v = &r->violations[k];
        json_obj_begin(j, NULL);
        json_str(j, "kind", v->kind);
        json_u64(j, "time_ps", v->time_ps);
        if (v->queue != OWNCHK_QUEUE_NONE)
            json_u64(j, "queue", v->queue);
        else /* device-wide, with several queues */
            json_null(j, "queue");
        if (v->desc >= 0)
            json_u64(j, "desc", (uint64_t)v->desc);
        else
            json_null(j, "desc");
        json_str(j, "access", v->access);
        json_str(j, "detail", v->detail);
        json_obj_end(j);
    }
    json_arr_end(j);
    json_u64(j, "violations_total", r->nviolations);
}

/* The simulator's own figures: the only wall-clock ones. */
static void json_sim(struct json *j, const struct sim_cfg *c, const struct sim_result *r,
                     const char *model)
{
    json_obj_begin(j, "sim");
    json_num(j, "wall_s", r->wall_s);
    json_num(j, "sim_pkts_per_wall_s", sim_pkts_per_wall_s(r));
    json_u64(j, "cycles_evaluated", r->cycles_evaluated);
    json_u64(j, "cycles_skipped", r->cycles_skipped);
    json_u64(j, "cycles_in_runs", r->cycles_in_runs);
    json_u64(j, "cycles_streamed", r->cycles_streamed);
    json_bool(j, "every_clock", c->every_clock);
    json_num(j, "sim_time_us", (double)r->sim_time_ps / 1e6);
    json_str(j, "model", model);
    json_obj_end(j);
}

/* --area: the engine's area (sim/device/dev_area.h), one number a figure. */
static void json_area(struct json *j, const struct sim_result *r)
{
    if (!r->has_area)
        return;
    json_obj_begin(j, "area");
    for (unsigned i = 0; i < DEV_AREA_N; i++)
        json_num(j, dev_area_name(i), (double)dev_area_value(&r->area, i));
    json_obj_end(j);
}

int report_json(FILE *f, const struct sim_cfg *c, const struct sim_result *r,
                int status, const char *diag, const char *model)
{
    struct json j;

    json_init(&j, f);
    json_obj_begin(&j, NULL);
    json_obj_begin(&j, "config"); /* every setting, from the table (sim/run/settings.c) */
    sim_settings_json(&j, c);
    json_obj_end(&j);
    json_rates(&j, c, r, status, diag);
    json_packets(&j, r);
    json_queues(&j, r);
    json_cpu(&j, r);
    json_device(&j, r);
    json_cover(&j, r);
    json_bql(&j, r);
    json_obj_begin(&j, "latency_ns");
    json_num(&j, "p50", r->sb.lat_p50_ns);
    json_num(&j, "p99", r->sb.lat_p99_ns);
    json_num(&j, "max", r->sb.lat_max_ns);
    json_num(&j, "queue_p50", r->sb.lat_queue_p50_ns);
    json_num(&j, "queue_p99", r->sb.lat_queue_p99_ns);
    json_num(&j, "service_p50", r->sb.lat_service_p50_ns);
    json_num(&j, "service_p99", r->sb.lat_service_p99_ns);
    json_obj_end(&j);
    json_violations(&j, r);
    json_area(&j, r);
    json_sim(&j, c, r, model);
    json_obj_end(&j);
    return json_finish(&j);
}

int report_json_file(const char *path, const struct sim_cfg *c, const struct sim_result *r,
                     int status, const char *diag, const char *model)
{
    struct afile a;

    if (afile_open(&a, path) != 0)
        return -1;
    if (report_json(a.f, c, r, status, diag, model) != 0) {
        afile_abort(&a);
        return -1;
    }
    return afile_commit(&a);
}

int report_json_not_started(const char *path, const struct sim_cfg *c,
                            const struct sim_verdict *v, const char *model)
{
    struct afile a;
    struct json j;

    if (afile_open(&a, path) != 0)
        return -1;
    json_init(&j, a.f);
    json_obj_begin(&j, NULL);
    json_obj_begin(&j, "config");
    sim_settings_json(&j, c);
    json_obj_end(&j);
    json_verdict(&j, v);
    json_obj_begin(&j, "sim");
    json_str(&j, "model", model);
    json_obj_end(&j);
    json_obj_end(&j);
    if (json_finish(&j) != 0) {
        afile_abort(&a);
        return -1;
    }
    return afile_commit(&a);
}
