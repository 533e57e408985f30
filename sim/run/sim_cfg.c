/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sim_cfg.c - a run's configuration: its defaults and ranges (from the
 * settings table, settings.c), the rules between settings, and what the
 * run derives from them (timeouts, the driver's queue configuration).
 */
#include "run/harness.h"
#include "run/settings.h"
#include "run/sim_world.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

_Static_assert(INJ_QUEUES_MAX == SIM_QUEUES_MAX, "a fault plan names the queues a run can have");

unsigned sim_cfg_weight(const struct sim_cfg *cfg, unsigned q)
{
    if (cfg->weights.n == 0)
        return 1;
    return cfg->weights.n == 1 ? cfg->weights.v[0] : cfg->weights.v[q];
}

uint64_t sim_cfg_queue_packets(const struct sim_cfg *cfg, unsigned q)
{
    unsigned n = cfg->queues ? cfg->queues : 1;

    return cfg->packets / n + (q < cfg->packets % n ? 1 : 0);
}

uint32_t sim_cfg_irq_timer(const struct sim_cfg *cfg)
{
    return (uint32_t)llround(cfg->irq_usecs * cfg->dev_mhz);
}

#define SIM_MSIX_STRIDE 16u

uint64_t sim_cfg_msix_addr(unsigned q)
{
    return SIM_MSIX_ADDR + (uint64_t)SIM_MSIX_STRIDE * q;
}

unsigned sim_cfg_msix_vector(uint64_t addr)
{
    return (unsigned)((addr - SIM_MSIX_ADDR) / SIM_MSIX_STRIDE);
}

/* The slowest DMA read round trip the configuration allows, in ns: memory,
 * the link both ways and, with finite credits, an UpdateFC both ways. */
static double sim_cfg_read_rt_ns(const struct sim_cfg *c)
{
    double upd = c->fc_dev.update_latency_ns > c->fc_host.update_latency_ns
                     ? c->fc_dev.update_latency_ns : c->fc_host.update_latency_ns;
    return c->mem_latency_ns + 2 * c->pcie.latency_ns + 2 * upd;
}

/* How many times longer the slowest queue takes for its frames than one
 * queue alone: 1 with one queue; N under RR (a frame a queue a turn);
 * the sum of the weights over the smallest under DRR. */
static double sim_cfg_slowest_share(const struct sim_cfg *c)
{
    unsigned n = c->queues < 1 ? 1 : c->queues > SIM_QUEUES_MAX ? SIM_QUEUES_MAX : c->queues;
    double sum = 0, least = 0;

    if (c->sched != SIM_SCHED_DRR)
        return n;
    for (unsigned q = 0; q < n; q++) {
        double w = sim_cfg_weight(c, q) ? sim_cfg_weight(c, q) : 1;
        sum += w;
        if (q == 0 || w < least)
            least = w;
    }
    return sum / least;
}

/* The longest a healthy queue may go without reporting a completion, in
 * ns: a writeback's worth of the largest frames at the slowest of the wire,
 * the link and the device's datapath (W bytes a clock, docs/width.md), at
 * the slowest queue's share of it. */
static double sim_cfg_batch_ns(const struct sim_cfg *c)
{
    double link = pcie_cfg_tlp_gbps(&c->pcie);
    double dev = c->dev_width * 8.0 * c->dev_mhz / 1e3;
    double gbps = c->line_gbps < link ? c->line_gbps : link;

    if (dev < gbps)
        gbps = dev;
    unsigned batch = c->wb_thresh > 1 ? c->wb_thresh : 1;

    return batch * (c->pkt_size_max + 20.0) * 8.0 / gbps * sim_cfg_slowest_share(c);
}

static double dmax(double a, double b) { return a > b ? a : b; }

void sim_cfg_timeouts(const struct sim_cfg *c, struct sim_timeouts *t)
{
    double rt_us = sim_cfg_read_rt_ns(c) / 1000.0;

    t->cpl_us = dmax(c->cpl_timeout_us, 50 * rt_us);
    t->tx_us = c->tx_timeout_us == 0
                   ? 0 /* no hang check */
                   : dmax(c->tx_timeout_us, dmax(4 * t->cpl_us, 4 * sim_cfg_batch_ns(c) / 1000.0));
    double wd = 2 * dmax(t->tx_us, t->cpl_us);
    for (unsigned i = 0; i < c->inject.n; i++) {
        double b = c->inject.v[i].ns / 1000.0 + wd; /* nothing moves meanwhile */
        if (c->inject.v[i].kind == INJ_BLACKOUT && b > wd)
            wd = b;
    }
    t->watchdog_us = c->watchdog_us > wd ? c->watchdog_us : wd;
}

/* The MAC's rate register: wire bytes per device cycle, unsigned 8.16. */
static double line_bytes_per_cycle(const struct sim_cfg *c)
{
    return c->line_gbps * 1e3 / 8.0 / c->dev_mhz;
}

uint32_t sim_cfg_line_rate_fx(const struct sim_cfg *c)
{
    return (uint32_t)llround(line_bytes_per_cycle(c) * 65536.0);
}

double sim_cfg_line_gbps_eff(const struct sim_cfg *cfg)
{
    return sim_cfg_line_rate_fx(cfg) / 65536.0 * 8.0 * cfg->dev_mhz / 1e3;
}


/* Every row's default (settings.c); the link's are pcie_cfg_default()'s,
 * the CPU costs the default --cpu profile's, and the rest zero: infinite
 * credits, weight 1 for every queue, no driver bug, no faults. */
void sim_cfg_default(struct sim_cfg *cfg)
{
    const struct sim_setting *s;
    char why[256];
    size_t n;

    memset(cfg, 0, sizeof(*cfg));
    pcie_cfg_default(&cfg->pcie);
    pcie_fc_cfg_infinite(&cfg->fc_dev);
    pcie_fc_cfg_infinite(&cfg->fc_host);
    s = sim_settings(&n);
    for (size_t i = 0; i < n; i++) {
        int rc = s[i].def ? sim_setting_parse_key(&s[i], cfg, s[i].def, why, sizeof(why)) : 0;
        assert(rc == 0); /* tests/unit/test_settings.c parses every default */
        (void)rc;
    }
}

#define BAD(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

/* Several queues: one weight for all, or one each; the write-combining
 * window serves one queue (docs/device.md, Queues).  Each message names
 * both options. */
static int sim_cfg_validate_queues(const struct sim_cfg *c, char *err, size_t errlen)
{
    if (c->weights.n > 1 && c->weights.n != c->queues)
        BAD("--weights gives %u values and --queues is %u: give one weight for all queues "
            "or exactly one per queue", c->weights.n, c->queues);
    if (c->queues > 1 && c->proto == TXQ_PROTO_WC)
        BAD("--queues %u needs --protocol tail or owner (not wc): the write-combining "
            "window serves one queue",
            c->queues);
    return 0;
}

/* The observability settings between themselves and against the run. */
static int sim_cfg_validate_obs(const struct sim_cfg *c, char *err, size_t errlen)
{
    const struct obs_cfg *o = &c->obs;

    if ((o->from.set || o->to.set) && !o->wave[0] && !o->timeline[0])
        BAD("--wave-from and --wave-to window --wave or --timeline: give one of them");
    if (o->from.set && o->to.set && o->from.pkt == o->to.pkt && o->from.v >= o->to.v)
        BAD("--wave-from must be before --wave-to");
    if (o->pcap_in[0] && c->queues > 1)
        BAD("--pcap-in replays a capture on one queue; --queues is %u", c->queues);
    if (o->pcap_timing > 0 && !o->pcap_in[0])
        BAD("--pcap-timing paces the frames of --pcap-in: give --pcap-in");
    if (o->pcap_in[0] && c->pkt_size_max != c->pkt_size)
        BAD("--pcap-in sends the capture's sizes: drop --pkt-size-max");
    if (o->wave[0] && (strcmp(o->wave, o->timeline) == 0 || strcmp(o->wave, o->pcap_out) == 0))
        BAD("--wave %s: the same file as another output", o->wave);
    if (o->timeline[0] && strcmp(o->timeline, o->pcap_out) == 0)
        BAD("--timeline %s: the same file as --pcap-out", o->timeline);
    return 0;
}

/* The fault plan against the run (after --queues is checked): each fault's
 * queue is in use and its packet within that queue's share of --packets.
 * Each message names the fault. */
static int sim_cfg_validate_inject(const struct sim_cfg *c, char *err, size_t errlen)
{
    for (unsigned i = 0; i < c->inject.n; i++) {
        const struct inj *f = &c->inject.v[i];
        uint64_t n = sim_cfg_queue_packets(c, f->q);
        char what[48]; /* the fault as written: KIND@N or KIND@Q/N */
        if (f->q)
            snprintf(what, sizeof(what), "%s@%u/%" PRIu64, inj_kind_name(f->kind), f->q, f->at);
        else
            snprintf(what, sizeof(what), "%s@%" PRIu64, inj_kind_name(f->kind), f->at);
        if (f->q >= c->queues)
            BAD("--inject %s: queue %u is not in the run (--queues %u: queues 0..%u)", what,
                f->q, c->queues, c->queues - 1);
        if (f->at < n)
            continue;
        if (c->queues == 1)
            BAD("--inject %s: packet %" PRIu64 " is beyond the run (--packets %" PRIu64 ")",
                what, f->at, c->packets);
        BAD("--inject %s: packet %" PRIu64 " is beyond queue %u's %" PRIu64
            " packets (--packets %" PRIu64 " over --queues %u)", what, f->at, f->q, n,
            c->packets, c->queues);
    }
    return 0;
}

/* The link (pcie_cfg_validate, credits against its MPS) and the line rate
 * the MAC's rate register can hold at the device clock. */
static int sim_cfg_validate_link(const struct sim_cfg *c, char *err, size_t errlen)
{
    char perr[160];
    double bpc = line_bytes_per_cycle(c);

    if (pcie_cfg_validate(&c->pcie, perr, sizeof(perr)) != 0)
        BAD("%s", perr);
    if (pcie_fc_cfg_validate(&c->fc_dev, c->pcie.mps, perr, sizeof(perr)) != 0)
        BAD("--fc-dev: %s", perr);
    if (pcie_fc_cfg_validate(&c->fc_host, c->pcie.mps, perr, sizeof(perr)) != 0)
        BAD("--fc-host: %s", perr);
    if (bpc * 65536.0 >= (double)(1u << 24))
        BAD("--line %gG at %g MHz is %g bytes per device cycle; the MAC's rate "
            "register holds < 256", c->line_gbps, c->dev_mhz, bpc);
    return 0;
}

/* Sizes against each other, thresholds against the ring, and what the
 * completion mode and the cleanup need. */
static int sim_cfg_validate_driver(const struct sim_cfg *c, char *err, size_t errlen)
{
    if (c->pkt_size_max < c->pkt_size)
        BAD("--pkt-size-max %u: must be >= --pkt-size (%u)", c->pkt_size_max, c->pkt_size);
    if (c->wb_thresh >= c->ring_size)
        BAD("--wb-thresh %u: must be below the ring size %u", c->wb_thresh, c->ring_size);
    if (c->tail_coalesce >= c->ring_size)
        BAD("--tail-coalesce %u: must be below the ring size %u", c->tail_coalesce, c->ring_size);
    if (c->clean != TXQ_CLEAN_HEAD_MMIO && c->wb_thresh == 0)
        BAD("--completion %s needs completion writes: set --wb-thresh >= 1 (or --completion mmio)",
            sim_completion_name(c->clean));
    if (!(c->irq_usecs >= 0 && c->irq_usecs * c->dev_mhz < 16777215.5))
        BAD("--irq-usecs %g: must be 0 (off) or below 2^24 device cycles (%g us at %g MHz)",
            c->irq_usecs, 16777215 / c->dev_mhz, c->dev_mhz);
    if (c->napi == SIM_NAPI_IRQ && c->irq_thresh == 0 && sim_cfg_irq_timer(c) == 0)
        BAD("host.napi=irq needs interrupts: --irq-thresh (device.irq_thresh) or --irq-usecs "
            "(device.irq_usecs) must be > 0");
    return 0;
}

/* Each setting within its range (the table), then the rules between them. */
int sim_cfg_validate(const struct sim_cfg *c, char *err, size_t errlen)
{
    size_t n;
    const struct sim_setting *s = sim_settings(&n);

    for (size_t i = 0; i < n; i++)
        if (sim_setting_check(&s[i], c, err, errlen) != 0)
            return -1;
    if (sim_cfg_validate_link(c, err, errlen) != 0 ||
        sim_cfg_validate_driver(c, err, errlen) != 0 ||
        sim_cfg_validate_queues(c, err, errlen) != 0 ||
        sim_cfg_validate_inject(c, err, errlen) != 0 ||
        sim_cfg_validate_obs(c, err, errlen) != 0)
        return -1;
    return 0;
}

/* The driver's queue configuration (txq_init) of a run: also the SystemC
 * virtual platform's (sc/vp.cpp), so the two program the engine alike. */
void sim_cfg_txq(const struct sim_cfg *cfg, struct txq_cfg *tc)
{
    struct sim_timeouts to;

    sim_cfg_timeouts(cfg, &to);
    memset(tc, 0, sizeof(*tc));
    while ((1u << tc->ring_log2) < cfg->ring_size)
        tc->ring_log2++;
    tc->wb_thresh = cfg->wb_thresh;
    tc->irq_thresh = cfg->irq_thresh;
    tc->irq_timer = sim_cfg_irq_timer(cfg);
    tc->desc_fetch_max = cfg->desc_fetch_max;
    tc->desc_inflight = cfg->desc_inflight;
    tc->max_tags = cfg->tags;
    tc->max_rd_bytes = cfg->max_rd_bytes;
    while ((1u << tc->mrrs_log2) < cfg->pcie.mrrs)
        tc->mrrs_log2++;
    tc->line_rate_fx = sim_cfg_line_rate_fx(cfg);
    tc->clean = cfg->clean;
    tc->irq_addr = cfg->irq_thresh || tc->irq_timer ? SIM_MSIX_ADDR : 0;
    tc->irq_data = cfg->irq_thresh || tc->irq_timer ? 0x40u : 0;
    tc->proto = cfg->proto;
    tc->barrier = cfg->barrier;
    tc->bug = cfg->bug;
    tc->bug_at = cfg->bug_at;
    tc->bql = cfg->bql;
    tc->dql_order = cfg->dql;
    tc->tail_coalesce = cfg->tail_coalesce;
    double cyc = to.cpl_us * cfg->dev_mhz;
    tc->cpl_timeout = cyc < (double)(1u << 24) - 1 ? (uint32_t)cyc : (1u << 24) - 1;
    tc->queues = cfg->queues;
    tc->sched = cfg->sched == SIM_SCHED_DRR ? NICTX_SCHED_DRR : NICTX_SCHED_RR;
    tc->drr_quantum = cfg->drr_quantum;
    sim_cfg_txq_queue(cfg, 0, tc);
}

void sim_cfg_txq_queue(const struct sim_cfg *cfg, unsigned q, struct txq_cfg *tc)
{
    tc->queue = q;
    tc->weight = sim_cfg_weight(cfg, q);
    /* Queue q signals MSI-X vector q, whose address names it. */
    if (tc->irq_addr != 0)
        tc->irq_addr = sim_cfg_msix_addr(q);
}
