/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sim_cfg.c - a run's configuration: its defaults and ranges (from the
 * settings table, settings.c), the rules between settings, and what the
 * run derives from them (timeouts, the driver's queue configuration).
 */
#include "run/harness.h"
#include "run/settings.h"
#include "run/sim_world.h"
#include "check/bug_catalog.h"
#include "device/dev_hw.h"

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

unsigned sim_cfg_queue_cpu(const struct sim_cfg *cfg, unsigned q)
{
    if (cfg->xps.n == 0)
        return q % (cfg->cpus ? cfg->cpus : 1); /* ixgbe: netif_set_xps_queue(ring q, CPU q) */
    return cfg->xps.n == 1 ? cfg->xps.v[0] : cfg->xps.v[q];
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

static double dmax(double a, double b) { return a > b ? a : b; }
static double dmin(double a, double b) { return a < b ? a : b; }

/* The slowest DMA read round trip the configuration allows, in ns: memory,
 * the link both ways and, with finite credits, an UpdateFC both ways. */
static double sim_cfg_read_rt_ns(const struct sim_cfg *c)
{
    double upd = dmax(c->fc_dev.update_latency_ns, c->fc_host.update_latency_ns);
    return c->mem_latency_ns + 2 * c->pcie.latency_ns + 2 * upd;
}

/* Under DRR: a queue's turn adds its quantum times its weight to its
 * deficit and sends frames while the next fits, so a turn sends up to
 * that with less than the largest frame carried over, in frames of the
 * smallest size.  The slowest queue is the one of least weight (*w_least);
 * *others, every other queue's turn together, in frames. */
static void sim_cfg_drr_turns(const struct sim_cfg *c, unsigned n, double *w_least, double *others)
{
    double sum = 0, least = 0, len = c->pkt_size > 4 ? c->pkt_size - 4.0 : 1.0;

    for (unsigned q = 0; q < n; q++) {
        double w = sim_cfg_weight(c, q) ? sim_cfg_weight(c, q) : 1;
        double turn = ceil(((double)c->drr_quantum * w + c->pkt_size_max) / len);
        sum += turn;
        if (q == 0 || w < *w_least) {
            *w_least = w;
            least = turn;
        }
    }
    *others = sum - least;
}

static unsigned sim_cfg_nq(const struct sim_cfg *c)
{
    return c->queues < 1 ? 1 : c->queues > SIM_QUEUES_MAX ? SIM_QUEUES_MAX : c->queues;
}

/* The frames that leave while the slowest queue sends k of its own, those
 * counted: under RR every queue's frame between two of its own; under DRR
 * the rounds its deficit needs for k of the largest frames (at least one),
 * each with a turn of every other queue's, and never more than the run
 * sends. */
static double sim_cfg_slowest_frames(const struct sim_cfg *c, double k)
{
    unsigned n = sim_cfg_nq(c);
    double w = 1, others = 0, rounds;

    if (c->sched != SIM_SCHED_DRR || n == 1)
        return n * k;
    sim_cfg_drr_turns(c, n, &w, &others);
    rounds = ceil(k * c->pkt_size_max / ((double)c->drr_quantum * w));
    return k + dmin((rounds < 1 ? 1 : rounds) * others, (double)c->packets);
}

/* How many frames leave until the slowest queue's next one, that one
 * counted (1 with one queue). */
static double sim_cfg_slowest_share(const struct sim_cfg *c)
{
    return sim_cfg_slowest_frames(c, 1);
}

/* Any flow-control credit is finite. */
static int sim_cfg_fc_finite(const struct pcie_fc_cfg *f)
{
    return f->ph || f->pd || f->nph || f->npd || f->cplh || f->cpld;
}

/* A credit's round trip, in ns: a TLP crosses the link, the receiver frees
 * it and its UpdateFC crosses back (0 when every credit is infinite). */
static double sim_cfg_credit_loop_ns(const struct sim_cfg *c)
{
    if (!sim_cfg_fc_finite(&c->fc_dev) && !sim_cfg_fc_finite(&c->fc_host))
        return 0;
    return 2 * c->pcie.latency_ns +
           dmax(c->fc_dev.update_latency_ns, c->fc_host.update_latency_ns);
}

/* The pieces the root complex completes `bytes` in (RCB- or MPS-sized,
 * one more for a start off the boundary). */
static double sim_cfg_cpl_pieces(const struct sim_cfg *c, double bytes)
{
    unsigned chunk = c->pcie.rcb_chunks ? c->pcie.rcb : c->pcie.mps;
    return ceil(bytes / (chunk ? chunk : 64)) + 1;
}

/* ns to carry `bytes` of read data to the device: the data and a CplD
 * header a piece, at the link's TLP rate. */
static double sim_cfg_cpl_ns(const struct sim_cfg *c, double bytes)
{
    double gbps = pcie_cfg_tlp_gbps(&c->pcie);
    double wire = bytes + PCIE_CPLD_OVERHEAD_BYTES * sim_cfg_cpl_pieces(c, bytes);
    return gbps > 0 ? wire * 8.0 / gbps : 0;
}

/* The device's read tags in use at once: --tags, the byte budget over
 * MRRS, the root complex's non-posted header credits. */
static double sim_cfg_tags_eff(const struct sim_cfg *c)
{
    double t = c->tags ? c->tags : 1;

    if (c->max_rd_bytes)
        t = dmin(t, dmax(1, floor((double)c->max_rd_bytes / c->pcie.mrrs)));
    if (c->fc_host.nph)
        t = dmin(t, c->fc_host.nph);
    return t;
}

/* The time finite credits add to moving `bytes` of read data in `tlps`
 * completions: a credit loop per window of data or header credits. */
static double sim_cfg_cpl_credit_ns(const struct sim_cfg *c, double bytes, double tlps)
{
    double loop = sim_cfg_credit_loop_ns(c), ns = 0;

    if (c->fc_dev.cpld)
        ns += ceil(bytes / (c->fc_dev.cpld * (double)PCIE_FC_DATA_UNIT)) * loop;
    if (c->fc_dev.cplh)
        ns += ceil(tlps / c->fc_dev.cplh) * loop;
    return ns;
}

/* The most one packet costs the CPU, in ns: every per-operation cost once
 * (the descriptor's stores and their drains, to a line the CPU holds or
 * not, four times; a register read's issue; a WC line's stores and its
 * drain; the lines another CPU holds). */
static double sim_cfg_pkt_cpu_ns(const struct sim_cfg *c)
{
    const struct cpu_costs *k = &c->costs;

    return k->xmit_pkt_ns + k->qdisc_pkt_ns + k->clean_desc_ns + k->lock_ns +
           4 * (k->store_ns + dmax(k->drain_hit_ns, k->drain_miss_ns)) + 2 * k->load_ns +
           k->dma_wmb_ns + k->wmb_ns + 2 * k->smp_mb_ns + k->mmio_write_ns + k->mmio_read_ns +
           k->uc_drain_ns + 8 * k->wc_store_ns + k->wc_drain_max_ns + 4 * k->line_xfer_ns +
           2 * k->line_upgrade_ns;
}

/* Under desc-wb, a cleanup pass's scan for the newest DD: a load of each
 * of up to ring - 1 slots in flight, and the transfer of each slot's line
 * the transmit CPU wrote (an upper bound: four slots share a line). */
static double sim_cfg_dd_scan_ns(const struct sim_cfg *c)
{
    const struct cpu_costs *k = &c->costs;

    if (c->clean != TXQ_CLEAN_DESC_WB)
        return 0;
    return (c->ring_size > 1 ? c->ring_size - 1.0 : 1.0) * (k->load_ns + k->line_xfer_ns);
}

/* The most queues one CPU sends on (--xps): it visits them in turn, a
 * burst each, so a queue's next doorbell can wait for every other's. */
static unsigned sim_cfg_cpu_queues(const struct sim_cfg *c)
{
    unsigned n[SIM_MAX_CPUS] = {0}, most = 1, nq = c->queues ? c->queues : 1;

    for (unsigned q = 0; q < nq; q++) {
        unsigned cpu = sim_cfg_queue_cpu(c, q);
        if (cpu < SIM_MAX_CPUS && ++n[cpu] > most)
            most = n[cpu];
    }
    return most;
}

void sim_cfg_bounds(const struct sim_cfg *c, struct sim_bounds *b)
{
    double mrrs = c->pcie.mrrs ? c->pcie.mrrs : 128;
    double tags = sim_cfg_tags_eff(c), loop = sim_cfg_credit_loop_ns(c);
    double f = c->pkt_size_max + 20.0; /* the frame with its wire overhead */
    double reads = ceil(c->pkt_size_max / mrrs) + 1; /* and one for its descriptor */
    double line = sim_cfg_line_gbps_eff(c), mhz = c->dev_mhz > 0 ? c->dev_mhz : 1;
    double share = sim_cfg_slowest_share(c);
    double mrd_ns = pcie_cfg_tlp_gbps(&c->pcie) > 0
                        ? PCIE_MRD_OVERHEAD_BYTES * 8.0 / pcie_cfg_tlp_gbps(&c->pcie) : 0;
    double rt_read, ahead, burst, pass, irq_ns;

    b->rt_ns = sim_cfg_read_rt_ns(c);
    /* One read: its round trip, its request and data serialized; ahead of
     * it every other tag's data, and the credits those wait for. */
    rt_read = b->rt_ns + mrd_ns + sim_cfg_cpl_ns(c, mrrs);
    ahead = tags * mrrs;
    b->read_ns = rt_read + sim_cfg_cpl_ns(c, ahead) +
                 sim_cfg_cpl_credit_ns(c, ahead, tags * sim_cfg_cpl_pieces(c, mrrs)) +
                 (c->fc_host.nph || c->fc_host.npd ? loop : 0);
    /* The largest frame, each stage after the other (a sum: an upper bound
     * of what the stages take overlapped). */
    b->frame_ns = f * 8.0 / (line > 0 ? line : 1) + sim_cfg_cpl_ns(c, f) +
                  f / (c->dev_width ? c->dev_width : 8) * 1000.0 / mhz +
                  reads * rt_read / tags +
                  sim_cfg_cpl_credit_ns(c, f, reads * sim_cfg_cpl_pieces(c, mrrs)) +
                  (c->fc_dev.ph || c->fc_dev.pd ? loop : 0) + /* its doorbell */
                  (c->fc_host.ph || c->fc_host.pd ? loop : 0); /* its completion write */
    b->pkt_cpu_ns = sim_cfg_pkt_cpu_ns(c);
    /* Packets posted with no doorbell: a burst, or what tail coalescing
     * defers; never more than the ring holds; as many on each other queue
     * the CPU sends on, visited in turn.  Then a cleanup pass: its set-up,
     * a budget of descriptors, a register read (its issue and its round
     * trip), and under desc-wb its scan for the newest DD (txq_dd_head: a
     * load of every slot in flight, each line pulled from the transmit CPU). */
    burst = dmin(c->burst > c->tail_coalesce ? c->burst : c->tail_coalesce,
                 c->ring_size > 1 ? c->ring_size - 1 : 1);
    pass = c->costs.clean_poll_ns + c->napi_budget * c->costs.clean_desc_ns +
           c->costs.mmio_read_ns + b->rt_ns + sim_cfg_dd_scan_ns(c);
    b->burst_ns = burst * sim_cfg_cpu_queues(c) * b->pkt_cpu_ns + pass;
    b->fill_ns = (c->queues ? c->queues : 1) * (c->ring_size > 1 ? c->ring_size - 1.0 : 1.0) *
                     b->pkt_cpu_ns + pass;
    /* A cleanup may wait for the moderation timer's interrupt, or for its
     * next poll. */
    irq_ns = c->irq_usecs * 1000.0;
    b->gap_ns = b->burst_ns + c->poll_ns + irq_ns + 2 * b->read_ns + share * b->frame_ns +
                b->rt_ns;
    /* the rest of a writeback's worth of the queue's frames */
    b->batch_ns = b->gap_ns + (c->wb_thresh > 1 ? sim_cfg_slowest_frames(c, c->wb_thresh - 1) : 0) *
                                  b->frame_ns;
}

/* The defaults "auto" never goes below (the settings' fixed values before
 * they were derived; a default run's timeouts are these). */
#define SIM_CPL_FLOOR_US 100.0
#define SIM_TX_FLOOR_US 500.0
#define SIM_WD_FLOOR_US 1000.0

/* The longest completion timeout CPL_TIMEOUT counts, in us. */
static double sim_cfg_cpl_max_us(const struct sim_cfg *c)
{
    return (double)NICTX_CPL_TIMEOUT_VALUE_MASK / c->dev_mhz;
}

/* The longest injected credit blackout, in us (0: none). */
static double sim_cfg_blackout_us(const struct sim_cfg *c)
{
    double b = 0;

    for (unsigned i = 0; i < c->inject.n; i++)
        if (c->inject.v[i].kind == INJ_BLACKOUT)
            b = dmax(b, c->inject.v[i].ns / 1000.0);
    return b;
}

void sim_cfg_timeouts(const struct sim_cfg *c, struct sim_timeouts *t)
{
    struct sim_bounds b;
    double auto_cpl, auto_wd, recover_us;

    sim_cfg_bounds(c, &b);
    auto_cpl = dmin(sim_cfg_cpl_max_us(c),
                    dmax(SIM_CPL_FLOOR_US, dmax(50 * b.rt_ns, 4 * b.read_ns) / 1000.0));
    t->cpl_us = c->cpl_timeout_us == SIM_TIMEOUT_AUTO ? auto_cpl : c->cpl_timeout_us;
    if (c->tx_timeout_us == SIM_TIMEOUT_AUTO)
        t->tx_us = dmax(SIM_TX_FLOOR_US, dmax(4 * t->cpl_us, 4 * b.batch_ns / 1000.0));
    else
        t->tx_us = c->tx_timeout_us; /* 0: no hang check */
    t->reset_us = 2 * (t->cpl_us + (b.frame_ns + b.rt_ns) / 1000.0);
    /* With faults, a stopped device's recovery: the CPU fills the rings,
     * then the hang check and the reset. */
    recover_us = (c->inject.n ? b.fill_ns / 1000.0 : 0) + t->tx_us + t->reset_us;
    auto_wd = dmax(2 * dmax(dmax(t->tx_us, t->cpl_us), b.gap_ns / 1000.0), recover_us) +
              sim_cfg_blackout_us(c);
    t->watchdog_us = c->watchdog_us == SIM_TIMEOUT_AUTO ? dmax(SIM_WD_FLOOR_US, auto_wd)
                                                        : c->watchdog_us;
}

size_t sim_cfg_host_mem(const struct sim_cfg *c)
{
    struct txq_cfg tc;
    size_t per_queue;

    sim_cfg_txq(c, &tc);
    per_queue = txq_dma_bytes(&tc) +
                pktgen_dma_bytes(c->ring_size, c->pkt_size_max - 4, c->buf_offset,
                                 c->buf_place.mode, c->buf_place.align);
    return per_queue * (c->queues ? c->queues : 1);
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
    if (c->xps.n > 0 && c->queues == 1)
        BAD("--xps maps queues to CPUs and needs --queues > 1 (with one queue CPU 0 sends "
            "and CPU 1 cleans up)");
    if (c->xps.n > 1 && c->xps.n != c->queues)
        BAD("--xps gives %u CPUs and --queues is %u: give one CPU for all queues or exactly "
            "one per queue", c->xps.n, c->queues);
    for (unsigned q = 0; q < c->xps.n; q++)
        if (c->xps.v[q] >= c->cpus)
            BAD("--xps names CPU %u and --cpus is %u: CPUs are 0..%u", c->xps.v[q], c->cpus,
                c->cpus - 1);
    if (c->qdisc_root == SIM_ROOT_SHARED && (c->source != SIM_SOURCE_QDISC || c->queues == 1))
        BAD("--qdisc-root shared needs --source qdisc and --queues > 1: the queues share "
            "a root qdisc");
    if (c->queues > 1 && c->proto == TXQ_PROTO_WC)
        BAD("--queues %u needs --protocol tail or owner (not wc): the write-combining "
            "window serves one queue",
            c->queues);
    return 0;
}

/* The observability settings between themselves and against the run. */
/* The register settings are caps within the hardware (--hw-*). */
static int sim_cfg_validate_hw(const struct sim_cfg *c, char *err, size_t errlen)
{
    if (c->queues > c->hw.queues)
        BAD("--queues %u is above the hardware's %u queues (--hw-queues)", c->queues,
            c->hw.queues);
    if (c->tags > c->hw.tags)
        BAD("--tags %u is above the hardware's %u tags (--hw-tags)", c->tags, c->hw.tags);
    if (c->desc_inflight > c->hw.desc_reads)
        BAD("--desc-fetch-inflight %u is above the hardware's %u descriptor reads "
            "(--hw-desc-reads)", c->desc_inflight, c->hw.desc_reads);
    return dev_hw_check(c->dev_width, &c->hw, err, errlen);
}

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
    if (c->bql_stall_ms && !c->bql)
        BAD("--bql-stall-ms %u needs --bql on: the stall detector is BQL's", c->bql_stall_ms);
    if (c->pkt_size_max < c->pkt_size)
        BAD("--pkt-size-max %u: must be >= --pkt-size (%u)", c->pkt_size_max, c->pkt_size);
    if (c->wb_thresh >= c->ring_size)
        BAD("--wb-thresh %u: must be below the ring size %u", c->wb_thresh, c->ring_size);
    if (c->tail_coalesce >= c->ring_size)
        BAD("--tail-coalesce %u: must be below the ring size %u", c->tail_coalesce, c->ring_size);
    if (c->clean != TXQ_CLEAN_HEAD_MMIO && c->wb_thresh == 0)
        BAD("--completion %s needs completion writes: set --wb-thresh >= 1 (or --completion mmio)",
            sim_completion_name(c->clean));
    if (c->desc_wb == SIM_DESC_WB_FULL && c->clean != TXQ_CLEAN_DESC_WB)
        BAD("--desc-wb full writes back whole descriptors: it needs --completion desc-wb "
            "(--completion is %s)", sim_completion_name(c->clean));
    if (!(c->irq_usecs >= 0 && c->irq_usecs * c->dev_mhz < 16777215.5))
        BAD("--irq-usecs %g: must be 0 (off) or below 2^24 device cycles (%g us at %g MHz)",
            c->irq_usecs, 16777215 / c->dev_mhz, c->dev_mhz);
    if (c->napi == SIM_NAPI_IRQ && c->irq_thresh == 0 && sim_cfg_irq_timer(c) == 0)
        BAD("host.napi=irq needs interrupts: --irq-thresh (device.irq_thresh) or --irq-usecs "
            "(device.irq_usecs) must be > 0");
    return 0;
}

/* The timeouts against what the configuration needs (sim_cfg_bounds):
 * the reads fit in what CPL_TIMEOUT counts; a timeout the user set is no
 * shorter than the healthy interval it watches.  Each message names the
 * setting, the bound and where it comes from. */
static int sim_cfg_validate_timeouts(const struct sim_cfg *c, char *err, size_t errlen)
{
    struct sim_bounds b;
    struct sim_timeouts t;
    double max_us = sim_cfg_cpl_max_us(c), need;

    sim_cfg_bounds(c, &b);
    sim_cfg_timeouts(c, &t);
    if (b.read_ns / 1000.0 > max_us)
        BAD("a DMA read can wait %.0f us for its data in this configuration (a round trip "
            "of %.0f us: memory %.0f ns, the link %.0f ns and UpdateFC %.0f ns each way; and "
            "the reads ahead of it), longer than the device's completion timeout can count "
            "(CPL_TIMEOUT: %u cycles, %.0f us at --dev-mhz %g): shorten --pcie-latency-ns, "
            "--mem-latency-ns or --fc-update-ns, or lower --dev-mhz",
            b.read_ns / 1000.0, b.rt_ns / 1000.0, c->mem_latency_ns, c->pcie.latency_ns,
            dmax(c->fc_dev.update_latency_ns, c->fc_host.update_latency_ns),
            NICTX_CPL_TIMEOUT_VALUE_MASK, max_us, c->dev_mhz);
    if (c->cpl_timeout_us != SIM_TIMEOUT_AUTO && c->cpl_timeout_us > max_us)
        BAD("--cpl-timeout-us %g: %.0f device cycles at --dev-mhz %g; CPL_TIMEOUT counts at "
            "most %u (%.0f us)", c->cpl_timeout_us, c->cpl_timeout_us * c->dev_mhz, c->dev_mhz,
            NICTX_CPL_TIMEOUT_VALUE_MASK, max_us);
    if (c->cpl_timeout_us != SIM_TIMEOUT_AUTO && c->cpl_timeout_us * 1000.0 < b.read_ns)
        BAD("--cpl-timeout-us %g: a healthy DMA read can wait %.3g us for its data in this "
            "configuration (a round trip of %.3g us and the reads ahead of it): set at least "
            "that, or auto (docs/faults.md, Timeouts)", c->cpl_timeout_us, b.read_ns / 1000.0,
            b.rt_ns / 1000.0);
    if (c->tx_timeout_us != SIM_TIMEOUT_AUTO && c->tx_timeout_us != 0 &&
        c->tx_timeout_us * 1000.0 < b.batch_ns)
        BAD("--tx-timeout-us %g: a healthy queue can go %.4g us without a completion in this "
            "configuration (a burst of %.3g us on the CPU, then a writeback's worth of frames "
            "of up to %.3g us each): set at least that, 0 (no hang check) or auto "
            "(docs/faults.md, Timeouts)", c->tx_timeout_us, b.batch_ns / 1000.0,
            b.burst_ns / 1000.0, b.frame_ns / 1000.0);
    need = b.gap_ns / 1000.0 + sim_cfg_blackout_us(c);
    if (c->watchdog_us != SIM_TIMEOUT_AUTO && c->watchdog_us < need)
        BAD("--watchdog-us %g: a healthy run can go %.4g us with no frame and no device write "
            "in this configuration (a burst of %.3g us on the CPU, a frame of up to %.3g us%s): "
            "set at least that, or auto (docs/faults.md, Timeouts)", c->watchdog_us, need,
            b.burst_ns / 1000.0, b.frame_ns / 1000.0,
            sim_cfg_blackout_us(c) > 0 ? ", the longest blackout" : "");
    need = b.fill_ns / 1000.0 + t.tx_us + t.reset_us + sim_cfg_blackout_us(c);
    if (c->watchdog_us != SIM_TIMEOUT_AUTO && c->inject.n && t.tx_us > 0 && c->watchdog_us < need)
        BAD("--watchdog-us %g: the faults (--inject) need the CPU to fill the rings (up to "
            "%.4g us), the hang check (%g us) and the queue reset (up to %.4g us) to recover "
            "before the watchdog: set at least %.4g us, or auto", c->watchdog_us,
            b.fill_ns / 1000.0, t.tx_us, t.reset_us, need);
    return 0;
}

/* The host memory the driver's DMA takes (sim_cfg_host_mem), at most
 * SIM_HOST_MEM_MAX. */
static int sim_cfg_validate_memory(const struct sim_cfg *c, char *err, size_t errlen)
{
    size_t mem = sim_cfg_host_mem(c);

    if (mem > SIM_HOST_MEM_MAX)
        BAD("the driver's DMA memory would be %.2f GiB (--queues %u x (a ring of --ring %u "
            "descriptors%s and %u buffers of up to --pkt-size-max %u B)); the simulator's "
            "host memory holds at most %.0f GiB: lower --queues, --ring or --pkt-size-max",
            (double)mem / (1u << 30), c->queues, c->ring_size,
            c->clean == TXQ_CLEAN_CQ ? ", a completion queue as large" : "",
            pktgen_bufs(c->ring_size), c->pkt_size_max, (double)SIM_HOST_MEM_MAX / (1u << 30));
    return 0;
}

/* A driver bug that acts from packet --bug-at on: that packet is in the
 * run (queue 0 sends the most: a bug on every queue fires on it first). */
static int sim_cfg_validate_bug(const struct sim_cfg *c, char *err, size_t errlen)
{
    uint64_t n = sim_cfg_queue_packets(c, 0);

    if (c->bug != DRV_BUG_NONE && drv_bug_uses_at(c->bug) && c->bug_at >= n)
        BAD("--bug-at %" PRIu64 ": driver bug %s acts from that packet on, but the run posts "
            "packets 0..%" PRIu64 " on %s; it would never act: set --bug-at below %" PRIu64,
            c->bug_at, bug_name(c->bug), n ? n - 1 : 0,
            c->queues > 1 ? "each queue (queue 0 the most)" : "the queue", n);
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
        sim_cfg_validate_queues(c, err, errlen) != 0 || sim_cfg_validate_hw(c, err, errlen) != 0 ||
        sim_cfg_validate_inject(c, err, errlen) != 0 ||
        sim_cfg_validate_memory(c, err, errlen) != 0 ||
        sim_cfg_validate_timeouts(c, err, errlen) != 0 || sim_cfg_validate_bug(c, err, errlen) != 0 ||
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
    tc->desc_wb_full = cfg->desc_wb == SIM_DESC_WB_FULL;
    tc->mps_log2 = 0;
    while ((1u << tc->mps_log2) < cfg->pcie.mps)
        tc->mps_log2++;
    tc->irq_addr = cfg->irq_thresh || tc->irq_timer ? SIM_MSIX_ADDR : 0;
    tc->irq_data = cfg->irq_thresh || tc->irq_timer ? 0x40u : 0;
    tc->proto = cfg->proto;
    tc->barrier = cfg->barrier;
    tc->bug = cfg->bug;
    tc->bug_at = cfg->bug_at;
    tc->bql = cfg->bql;
    tc->dql_order = cfg->dql;
    tc->bql_stall_thrs = cfg->bql_stall_ms; /* jiffies at HZ 1000 (dql.h) */
    tc->tail_coalesce = cfg->tail_coalesce;
    /* sim_cfg_validate refuses a timeout CPL_TIMEOUT cannot count. */
    double cyc = to.cpl_us * cfg->dev_mhz;
    tc->cpl_timeout = cyc < NICTX_CPL_TIMEOUT_VALUE_MASK ? (uint32_t)cyc
                                                         : NICTX_CPL_TIMEOUT_VALUE_MASK;
    tc->reset_wait_ns = (uint64_t)ceil(to.reset_us * 1000.0);
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
