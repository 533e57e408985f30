/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sim_cfg.c - a run's configuration: defaults, validation, and the names of
 * its enumerated choices (one table each, shared by the CLI and reports).
 */
#include "run/harness.h"
#include "run/sim_world.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

_Static_assert(INJ_QUEUES_MAX == SIM_QUEUES_MAX, "a fault plan names the queues a run can have");

static const char *const proto_names[] = {"tail", "owner", "wc"};
static const char *const barrier_names[] = {"per-desc", "per-batch", "wmb-per-desc", "none"};
static const char *const ordering_names[] = {"x86", "weak"};
static const char *const layout_names[] = {"split", "packed"};
static const char *const dql_names[] = {"write-first", "read-first"};
static const char *const source_names[] = {"pktgen", "qdisc"};
static const char *const napi_names[] = {"poll", "irq"};
static const char *const sched_names[] = {"rr", "drr"};
static const char *const device_names[] = {"rtl", "c", "lockstep"}; /* enum dev_backend */
/* In enum txq_clean_mode's order. */
static const char *const completion_names[] = {"head-wb", "mmio", "desc-wb", "cq"};
_Static_assert(sizeof(completion_names) / sizeof(completion_names[0]) == TXQ_CLEAN_COUNT,
               "a name for each completion mode");

#define NNAMES(a) (sizeof(a) / sizeof(a[0]))

static int name_find(const char *const *names, size_t n, const char *s)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return (int)i;
    return -1;
}

static const char *name_of(const char *const *names, size_t n, unsigned v)
{
    return v < n ? names[v] : "invalid";
}

/* The name of each value, and the parser back: one table per enum. */
#define SIM_NAMES(type, table, namefn, parsefn)                          \
    const char *namefn(type v) { return name_of(table, NNAMES(table), (unsigned)v); } \
    int parsefn(const char *s, type *out)                                \
    {                                                                    \
        int i = name_find(table, NNAMES(table), s);                      \
        if (i < 0)                                                       \
            return -1;                                                   \
        *out = (type)i;                                                  \
        return 0;                                                        \
    }

SIM_NAMES(enum txq_proto, proto_names, sim_proto_name, sim_parse_proto)
SIM_NAMES(enum txq_barrier, barrier_names, sim_barrier_name, sim_parse_barrier)
SIM_NAMES(enum stbuf_order, ordering_names, sim_ordering_name, sim_parse_ordering)
SIM_NAMES(enum sim_layout, layout_names, sim_layout_name, sim_parse_layout)
SIM_NAMES(enum dql_order, dql_names, sim_dql_name, sim_parse_dql)
SIM_NAMES(enum sim_source, source_names, sim_source_name, sim_parse_source)
SIM_NAMES(enum sim_napi, napi_names, sim_napi_name, sim_parse_napi)
SIM_NAMES(enum txq_clean_mode, completion_names, sim_completion_name, sim_parse_completion)
SIM_NAMES(enum sim_sched, sched_names, sim_sched_name, sim_parse_sched)
SIM_NAMES(enum dev_backend, device_names, sim_device_name, sim_parse_device)

/* One strict decimal integer (digits, no leading zero) of at most 9 digits. */
static int weight_parse_one(const char *s, size_t len, unsigned *v)
{
    if (len == 0 || len > 9 || strspn(s, "0123456789") < len || (s[0] == '0' && len > 1))
        return -1;
    *v = 0;
    for (size_t i = 0; i < len; i++)
        *v = *v * 10 + (unsigned)(s[i] - '0');
    return 0;
}

int sim_parse_weights(const char *s, struct sim_weights *out)
{
    struct sim_weights w = {0};

    for (;;) {
        size_t len = strcspn(s, ",");
        if (w.n == SIM_QUEUES_MAX || weight_parse_one(s, len, &w.v[w.n]) != 0)
            return -1;
        w.n++;
        if (s[len] == '\0')
            break;
        s += len + 1;
    }
    *out = w;
    return 0;
}

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


void sim_cfg_default(struct sim_cfg *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->pkt_size = 64;
    cfg->pkt_size_max = 64;
    cfg->burst = 8;
    cfg->packets = 100000;
    cfg->seed = 1;
    cfg->buf_offset = 0;
    snprintf(cfg->cpu_profile, sizeof(cfg->cpu_profile), "x86");
    cpu_costs_profile(&cfg->costs, "x86");
    cfg->mem_latency_ns = 350.0; /* + 2 x 100 ns link = 550 ns DMA read */
    cfg->poll_ns = 1000.0;
    pcie_cfg_default(&cfg->pcie);
    pcie_fc_cfg_infinite(&cfg->fc_dev);
    pcie_fc_cfg_infinite(&cfg->fc_host);
    cfg->dev_mhz = 250.0;
    cfg->dev_width = DEV_WIDTH_DEFAULT;
    cfg->device = DEV_BACKEND_RTL;
    cfg->line_gbps = 10.0;
    cfg->ring_size = 1024;
    cfg->queues = 1;
    cfg->sched = SIM_SCHED_RR;
    cfg->weights.n = 0;
    cfg->drr_quantum = 2048; /* the device's reset value (DRR_QUANTUM) */
    cfg->desc_fetch_max = 8;
    cfg->desc_inflight = 4; /* the device's reset value (DESC_INFLIGHT) */
    cfg->tags = 32;
    cfg->max_rd_bytes = 0;
    cfg->wb_thresh = 32;
    cfg->irq_thresh = 0;
    cfg->irq_usecs = 0;
    cfg->clean = TXQ_CLEAN_HEAD_WB;
    cfg->proto = TXQ_PROTO_TAIL;
    cfg->barrier = TXQ_BARRIER_PER_DESC;
    cfg->ordering = STBUF_X86;
    cfg->reorder_window = 8;
    cfg->bug = DRV_BUG_NONE;
    cfg->bug_at = 1000;
    cfg->watchdog_us = 1000.0;
    cfg->grace_us = 20.0;
    cfg->cpus = 1;
    cfg->layout = SIM_LAYOUT_SPLIT;
    cfg->dql = DQL_WRITE_FIRST;
    cfg->source = SIM_SOURCE_PKTGEN;
    cfg->tail_coalesce = 0;
    cfg->napi_budget = 64;
    cfg->napi = SIM_NAPI_POLL;
    cfg->inject.n = 0;
    cfg->cpl_timeout_us = 100.0;
    cfg->tx_timeout_us = 500.0;
}

#define BAD(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

/* --queues and the scheduler's options, each alone. */
static int sim_cfg_validate_sched(const struct sim_cfg *c, char *err, size_t errlen)
{
    if (c->queues < 1 || c->queues > SIM_QUEUES_MAX)
        BAD("--queues %u: must be 1..%u", c->queues, SIM_QUEUES_MAX);
    if (c->sched != SIM_SCHED_RR && c->sched != SIM_SCHED_DRR)
        BAD("--sched: rr or drr");
    if (c->drr_quantum < 64 || c->drr_quantum > 65536)
        BAD("--drr-quantum %u: must be 64..65536 bytes", c->drr_quantum);
    for (unsigned i = 0; i < c->weights.n; i++)
        if (c->weights.v[i] < 1 || c->weights.v[i] > SIM_WEIGHT_MAX)
            BAD("--weights: weight %u of queue %u must be 1..%u", c->weights.v[i], i,
                SIM_WEIGHT_MAX);
    if (c->weights.n > 1 && c->weights.n != c->queues)
        BAD("--weights gives %u values and --queues is %u: give one weight for all queues "
            "or exactly one per queue", c->weights.n, c->queues);
    return 0;
}

/* What more than one queue cannot be combined with (docs/device.md, Queues):
 * the tail protocol only (every completion mode, interrupts and fault
 * injection run per queue).  Each message names both options. */
static int sim_cfg_validate_queues(const struct sim_cfg *c, char *err, size_t errlen)
{
    if (sim_cfg_validate_sched(c, err, errlen) != 0)
        return -1;
    if (c->queues == 1)
        return 0;
    if (c->proto == TXQ_PROTO_WC)
        BAD("--queues %u needs --protocol tail or owner (not wc): the write-combining "
            "window serves one queue",
            c->queues);
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

int sim_cfg_validate(const struct sim_cfg *c, char *err, size_t errlen)
{
    char perr[160];
    double bpc;

    if (c->pkt_size < 64 || c->pkt_size > 16387)
        BAD("--pkt-size %u: frame size incl. FCS must be 64..16387", c->pkt_size);
    if (c->pkt_size_max < c->pkt_size || c->pkt_size_max > 16387)
        BAD("--pkt-size-max %u: must be >= --pkt-size (%u) and <= 16387",
            c->pkt_size_max, c->pkt_size);
    if (c->burst < 1 || c->burst > 65536)
        BAD("--burst %u: must be 1..65536", c->burst);
    if (c->packets < 1 || c->packets > (1ull << 40))
        BAD("--packets %" PRIu64 ": must be 1..2^40", c->packets);
    if (c->buf_offset > 63)
        BAD("--buf-offset %u: must be 0..63", c->buf_offset);
    if (!(c->mem_latency_ns >= 0 && c->mem_latency_ns <= 1e6))
        BAD("--mem-latency-ns %g: must be 0..1e6", c->mem_latency_ns);
    if (!(c->poll_ns >= 1 && c->poll_ns <= 1e6))
        BAD("poll interval %g ns: must be 1..1e6", c->poll_ns);
    if (pcie_cfg_validate(&c->pcie, perr, sizeof(perr)) != 0)
        BAD("%s", perr);
    if (pcie_fc_cfg_validate(&c->fc_dev, c->pcie.mps, perr, sizeof(perr)) != 0)
        BAD("--fc-dev: %s", perr);
    if (pcie_fc_cfg_validate(&c->fc_host, c->pcie.mps, perr, sizeof(perr)) != 0)
        BAD("--fc-host: %s", perr);
    if (!(c->dev_mhz >= 10 && c->dev_mhz <= 2000))
        BAD("--dev-mhz %g: must be 10..2000", c->dev_mhz);
    if (!dev_width_ok(c->dev_width))
        BAD("--dev-width %u: must be 8, 16, 32 or 64 (datapath bytes per device clock)",
            c->dev_width);
    if (!(c->line_gbps >= 0.1 && c->line_gbps <= 800))
        BAD("--line %gG: must be 0.1..800 Gb/s", c->line_gbps);
    bpc = line_bytes_per_cycle(c);
    if (bpc * 65536.0 >= (double)(1u << 24))
        BAD("--line %gG at %g MHz is %g bytes per device cycle; the MAC's rate "
            "register holds < 256", c->line_gbps, c->dev_mhz, bpc);
    if (c->ring_size < 8 || c->ring_size > 65536 || (c->ring_size & (c->ring_size - 1)))
        BAD("--ring %u: must be a power of two 8..65536", c->ring_size);
    if (c->desc_fetch_max < 1 || c->desc_fetch_max > 32)
        BAD("--desc-fetch-max %u: must be 1..32", c->desc_fetch_max);
    if (c->desc_inflight < 1 || c->desc_inflight > TXQ_INFLIGHT_MAX)
        BAD("--desc-fetch-inflight %u: must be 1..%u", c->desc_inflight, TXQ_INFLIGHT_MAX);
    if (c->tags < 1 || c->tags > 256)
        BAD("--tags %u: must be 1..256", c->tags);
    if (c->max_rd_bytes != 0 && (c->max_rd_bytes < 4096 || c->max_rd_bytes >= (1u << 21)))
        BAD("--max-read-bytes %u: must be 0 (no limit) or 4096..2097151", c->max_rd_bytes);
    if (c->wb_thresh >= c->ring_size)
        BAD("--wb-thresh %u: must be below the ring size %u", c->wb_thresh, c->ring_size);
    if (c->irq_thresh >= 65536)
        BAD("--irq-thresh %u: must be 0..65535", c->irq_thresh);
    if ((unsigned)c->clean >= TXQ_CLEAN_COUNT)
        BAD("--completion out of range");
    if (c->clean != TXQ_CLEAN_HEAD_MMIO && c->wb_thresh == 0)
        BAD("--completion %s needs completion writes: set --wb-thresh >= 1 (or --completion mmio)",
            sim_completion_name(c->clean));
    if (!(c->irq_usecs >= 0 && c->irq_usecs * c->dev_mhz < 16777215.5))
        BAD("--irq-usecs %g: must be 0 (off) or below 2^24 device cycles (%g us at %g MHz)",
            c->irq_usecs, 16777215 / c->dev_mhz, c->dev_mhz);
    if (!(c->watchdog_us >= 1 && c->watchdog_us <= 1e9))
        BAD("--watchdog-us %g: must be 1..1e9", c->watchdog_us);
    if (!(c->grace_us >= 0 && c->grace_us <= 1e6))
        BAD("--grace-us %g: must be 0..1e6", c->grace_us);
    if (c->proto > TXQ_PROTO_WC || c->barrier > TXQ_BARRIER_NONE || c->bug >= DRV_BUG_COUNT ||
        (c->ordering != STBUF_X86 && c->ordering != STBUF_WEAK))
        BAD("--protocol, --barrier, --ordering or --driver-bug out of range");
    if (c->cpus < 1 || c->cpus > SIM_MAX_CPUS)
        BAD("--cpus %u: must be 1 (one CPU sends and cleans) or 2 (a completion CPU)", c->cpus);
    if (c->tail_coalesce >= c->ring_size)
        BAD("--tail-coalesce %u: must be below the ring size %u", c->tail_coalesce, c->ring_size);
    if (c->source != SIM_SOURCE_PKTGEN && c->source != SIM_SOURCE_QDISC)
        BAD("--source: pktgen or qdisc");
    if (c->napi_budget < 1 || c->napi_budget > 65536)
        BAD("--napi-budget %u: must be 1..65536", c->napi_budget);
    if (!(c->cpl_timeout_us >= 1 && c->cpl_timeout_us <= 50000))
        BAD("--cpl-timeout-us %g: must be 1..50000 (PCIe: 50 us to 50 ms)", c->cpl_timeout_us);
    if (!(c->tx_timeout_us == 0 || (c->tx_timeout_us >= 1 && c->tx_timeout_us <= 1e9)))
        BAD("--tx-timeout-us %g: must be 0 (no hang check) or 1..1e9", c->tx_timeout_us);
    if (c->napi == SIM_NAPI_IRQ && c->irq_thresh == 0 && sim_cfg_irq_timer(c) == 0)
        BAD("host.napi=irq needs interrupts: --irq-thresh (device.irq_thresh) or --irq-usecs "
            "(device.irq_usecs) must be > 0");
    if (sim_cfg_validate_queues(c, err, errlen) != 0 ||
        sim_cfg_validate_inject(c, err, errlen) != 0)
        return -1;
    if (c->reorder_window < 1 || c->reorder_window > STBUF_WINDOW_MAX)
        BAD("--reorder-window %u: must be 1..%u", c->reorder_window, STBUF_WINDOW_MAX);
    if (c->costs.sb_entries < 1 || c->costs.sb_entries > 4096)
        BAD("store buffer entries %u: must be 1..4096", c->costs.sb_entries);
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
