/* SPDX-License-Identifier: Apache-2.0 */
/*
 * world.c - a run's world built and torn down: host memory, the CPUs and
 * their store buffers, the cache-line model, the link, the root complex,
 * the scoreboard, the checkers and the device (sim_build); the driver's and
 * pktgen's configuration; the driver's probe on CPU 0 (sim_probe); the
 * shared cache lines registered; the measurement started (sim_create).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nictx_hw.h"
#include "run/fault.h"
#include "run/sim_world.h"

void sim_fail(struct sim *s, const char *fmt, ...)
{
    va_list ap;

    if (s->failed)
        return;
    s->failed = 1;
    va_start(ap, fmt);
    vsnprintf(s->diag, sizeof(s->diag), fmt, ap);
    va_end(ap);
}


/* Each CPU's store buffer over host memory, and the checker behind them. */
static void sim_stbuf_cfg(const struct sim *s, size_t memsz, struct stbuf_cfg *bc)
{
    const struct cpu_costs *c = &s->cfg.costs;

    memset(bc, 0, sizeof(*bc));
    bc->order = s->cfg.ordering;
    bc->window = s->cfg.reorder_window;
    bc->capacity = c->sb_entries;
    bc->hit_ns = c->drain_hit_ns;
    bc->miss_ns = c->drain_miss_ns;
    bc->wc_drain_max_ns = c->wc_drain_max_ns;
    bc->seed = s->cfg.seed;
    bc->mem_base = SIM_HOST_BASE;
    bc->mem_size = memsz;
}

/* Queue x's driver and pktgen configuration: queue 0's with its number,
 * weight, share of the packets and generator. */
static void sim_queue_cfg(struct sim *s, struct sim_queue *x)
{
    x->tc = s->tc;
    sim_cfg_txq_queue(&s->cfg, x->id, &x->tc);
    x->pc = s->pc;
    x->pc.count = sim_cfg_queue_packets(&s->cfg, x->id);
    sim_pktgen_hooks(s, x, &x->pc);
}

/* Queues 1..nq-1 (64-byte aligned: struct txq is), each with its generator. */
static int sim_queues_alloc(struct sim *s)
{
    size_t sz = ((s->nq - 1) * sizeof(*s->xq) + 63) & ~(size_t)63;

    if (s->nq == 1)
        return 0;
    s->xq = aligned_alloc(64, sz);
    if (!s->xq)
        return -1;
    memset(s->xq, 0, sz);
    for (unsigned q = 1; q < s->nq; q++) {
        struct sim_queue *x = &s->xq[q - 1];
        x->s = s;
        x->id = q;
    }
    return 0;
}

/* The driver's and pktgen's configuration, from the run's. */
static void sim_driver_cfg(struct sim *s)
{
    const struct sim_cfg *cfg = &s->cfg;
    struct txq_cfg *tc = &s->tc;
    struct pktgen_cfg *pc = &s->pc;

    sim_cfg_txq(cfg, tc);

    memset(pc, 0, sizeof(*pc));
    pc->count = cfg->packets;
    pc->burst = cfg->burst;
    pc->max_len = s->gen.max_len;
    pc->buf_offset = cfg->buf_offset;
    pc->buf_place = cfg->buf_place.mode;
    pc->buf_align = cfg->buf_place.align;
    sim_pktgen_hooks(s, NULL, pc);
    pc->bug = cfg->bug;
    pc->bug_at = cfg->bug_at;
    pc->qdisc = cfg->source == SIM_SOURCE_QDISC;
    pc->root = pc->qdisc && cfg->qdisc_root == SIM_ROOT_SHARED ? &s->root : NULL;
    pc->count = sim_cfg_queue_packets(cfg, 0);
    for (unsigned q = 1; q < s->nq; q++)
        sim_queue_cfg(s, &s->xq[q - 1]);
}

/* The world: host memory, CPUs, link, root complex, scoreboard, device. */
static int sim_build(struct sim *s, const struct device_ops *ops, char *err, size_t errlen)
{
    const struct sim_cfg *cfg = &s->cfg;
    struct stbuf_cfg bc;
    struct sb_cfg sbc;
    size_t memsz;

    s->gen.seed = cfg->seed;
    s->gen.min_len = cfg->pkt_size - 4;
    s->gen.max_len = cfg->pkt_size_max - 4;
    if (sim_obs_build(s, err, errlen) != 0) /* a capture sets the sizes */
        return -1;
    sbc.gen = s->gen;
    sbc.expected = cfg->packets;
    sbc.max_outstanding = cfg->ring_size;
    sbc.queues = cfg->queues;
    /* Every queue's ring, writeback word, completion queue and buffers,
     * as the driver allocates them (sim_cfg_host_mem). */
    memsz = sim_cfg_host_mem(cfg);
    if (s->gen.max_len + 4 > cfg->pkt_size_max) { /* a capture's frames are larger */
        struct sim_cfg big = *cfg;
        big.pkt_size_max = s->gen.max_len + 4;
        memsz = sim_cfg_host_mem(&big);
    }
    if (sim_queues_alloc(s) != 0) {
        snprintf(err, errlen, "out of memory building the simulation");
        return -1;
    }
    sim_stbuf_cfg(s, memsz, &bc);
    {
        struct cl_cfg cc = {cfg->cpus, cfg->costs.line_xfer_ns, cfg->costs.line_upgrade_ns};
        if (cl_init(&s->cl, &cc) != 0) {
            snprintf(err, errlen, "cannot build the cache-line model");
            return -1;
        }
        s->cl_up = 1;
    }
    if (cfg->ordering == STBUF_WEAK && cfg->schedule != 0) {
        if (memhist_init(&s->hist) != 0) {
            snprintf(err, errlen, "out of memory building the simulation");
            return -1;
        }
        s->hist_up = 1;
    }
    if (host_mem_init(&s->mem, SIM_HOST_BASE, memsz) != 0 || sim_cpus_init(s, &bc) != 0 ||
        tlpq_init(&s->cpu_out, 64) != 0 ||
        rc_init(&s->rc, &s->mem, &cfg->pcie, cfg->mem_latency_ns) != 0 ||
        !(s->h2d = pcie_link_create(&cfg->pcie)) ||
        !(s->d2h = pcie_link_create(&cfg->pcie)) || !(s->sb = sb_create(&sbc))) {
        snprintf(err, errlen, "out of memory building the simulation");
        return -1;
    }
    /* The checkers' memory comes after host memory's: what the cache-line
     * model sees (host addresses) is laid out as it was with one checker. */
    if (ownchk_set_init(&s->ck, cfg->queues, &s->mem, sim_violation_at, s) != 0) {
        snprintf(err, errlen, "out of memory building the simulation");
        return -1;
    }
    dmachk_init(&s->dk, sim_violation_at, s, cfg->queues > 1 ? OWNCHK_QUEUE_NONE : 0);
    s->rc.view = sim_dev_view; /* the device reads past the CPUs' store buffers */
    s->rc.view_ctx = s;
    /* One link, two directions: each carries the other's UpdateFC DLLPs. */
    if (pcie_link_pair(s->h2d, s->d2h) != 0 || pcie_link_set_fc(s->h2d, &cfg->fc_dev) != 0 ||
        pcie_link_set_fc(s->d2h, &cfg->fc_host) != 0) {
        snprintf(err, errlen, "cannot set up link flow control");
        return -1;
    }
    s->dev = dev_create(ops);
    if (!s->dev) {
        snprintf(err, errlen, "cannot create the %s device", ops->name);
        return -1;
    }
    ops->reset(s->dev);
    return sim_obs_device(s, err, errlen);
}

/* The driver state the CPUs share, as cache lines (docs/calibration.md):
 * the ring's read-mostly, producer and consumer blocks (all on one line
 * when the layout is packed, as in mlx4 before the false-sharing fix), the
 * queue's stopped state, BQL's
 * two halves, the descriptors and the head-writeback word, which the device
 * also touches. */
static int sim_lines(struct sim *s, char *err, size_t errlen)
{
    struct txq *q = &s->txq;
    uint64_t ro = (uint64_t)(uintptr_t)q;
    uint64_t prod = (uint64_t)(uintptr_t)&q->next_to_use;
    uint64_t cons = (uint64_t)(uintptr_t)&q->next_to_clean;
    uint64_t state = (uint64_t)(uintptr_t)&q->stopped;
    uint64_t dqe = (uint64_t)(uintptr_t)&q->dql.num_queued;
    uint64_t dqc = (uint64_t)(uintptr_t)&q->dql.limit;
    uint64_t dqx = (uint64_t)(uintptr_t)(&q->dql + 1);

    if (cl_region(&s->cl, ro, (size_t)(prod - ro), "txq.ro") < 0 ||
        cl_region(&s->cl, prod, (size_t)(cons - prod), "txq.prod") < 0 ||
        cl_region(&s->cl, cons, (size_t)(state - cons), "txq.cons") < 0 ||
        cl_region(&s->cl, state, (size_t)(dqe - state), "txq.state") < 0 ||
        cl_region(&s->cl, dqe, (size_t)(dqc - dqe), "bql.queued") < 0 ||
        cl_region(&s->cl, dqc, (size_t)(dqx - dqc), "bql.completed") < 0 ||
        cl_region(&s->cl, (uint64_t)(uintptr_t)q->ring,
                  (size_t)q->size * NICTX_DESC_BYTES, "ring") < 0 ||
        cl_region(&s->cl, (uint64_t)(uintptr_t)q->wb, 4, "head_wb") < 0 ||
        (s->cfg.layout == SIM_LAYOUT_PACKED &&
         (cl_alias(&s->cl, cons, prod) != 0 || cl_alias(&s->cl, ro, prod) != 0)) ||
        (s->pc.root && (cl_region(&s->cl, (uint64_t)(uintptr_t)&s->root.lock,
                                  sizeof(s->root.lock), "qdisc.root") < 0 ||
                        cl_region(&s->cl, (uint64_t)(uintptr_t)&s->root.packets,
                                  2 * sizeof(uint64_t), "qdisc.stats") < 0))) {
        snprintf(err, errlen, "cannot register the shared cache lines");
        return -1;
    }
    /* The same blocks of every queue are the driver state its plain
     * accesses put in the memory model (plain_access.c); queue 0's are
     * the cache-line model's too. */
    for (unsigned i = 0; i < s->nq; i++) {
        const struct txq *x = sim_txq(s, i);
        if (sim_shared_add(s, x, (size_t)((const char *)(&x->dql + 1) - (const char *)x),
                           i == 0) != 0) {
            snprintf(err, errlen, "out of memory registering driver state");
            return -1;
        }
    }
    return 0;
}

/* Run the CPUs until CPU 0 has probed the device and every CPU is parked
 * (or the probe failed).  0, or -1 with a message. */
static int sim_probe(struct sim *s, char *err, size_t errlen)
{
    for (;;) {
        struct sim_cpu *c = sim_cpu_pick(s);
        if (c) {
            sim_cpu_resume(c);
            continue;
        }
        if (s->probe_rc != 0 || s->failed || s->cpus[0].state == SIM_CPU_DONE)
            break;
        if (s->cpus[0].state == SIM_CPU_WAIT && s->cpus[0].deadline == SIM_PS_NEVER &&
            s->cpus[s->ncpu - 1].state == SIM_CPU_WAIT)
            return 0;
        if (sim_step_world(s, 1, SIM_PS_NEVER) != 0)
            break;
    }
    snprintf(err, errlen, "driver probe failed (%s %d)%s%s",
             s->txq_up ? "pktgen_init" : "txq_init", s->probe_rc, s->failed ? ": " : "",
             s->failed ? s->diag : "");
    return -1;
}

struct sim *sim_create(const struct sim_cfg *cfg, const struct device_ops *ops,
                       char *err, size_t errlen)
{
    struct sim *s;
    sim_ps_t t0;
    unsigned i;

    if (sim_cfg_validate(cfg, err, errlen) != 0)
        return NULL;
    if (cfg->obs.wave[0]) { /* the same model, built to write waveforms */
        if (!ops->traced) {
            snprintf(err, errlen, "--wave: this build has no trace-enabled %s model (make builds "
                     "one into build/nictx; make fast does not)", ops->name);
            return NULL;
        }
        ops = ops->traced;
    }
    if (ops->width != cfg->dev_width) {
        snprintf(err, errlen, "the %s device is %u bytes wide; the configuration asks for %u "
                 "(--dev-width)", ops->name, ops->width, cfg->dev_width);
        return NULL;
    }
    /* struct sim embeds queue 0's struct txq, whose fields sit on their own
     * 64-byte lines (driver/txq.h): calloc's 16 bytes are not enough, and
     * the cache-line model would see the lines wherever the C library put
     * them. */
    {
        size_t a = _Alignof(struct sim), sz = (sizeof(*s) + a - 1) / a * a;
        s = aligned_alloc(a, sz);
        if (!s) {
            snprintf(err, errlen, "out of memory");
            return NULL;
        }
        memset(s, 0, sz);
    }
    s->cfg = *cfg;
    s->ops = ops;
    s->nq = cfg->queues;
    s->period_ps = sim_ns_to_ps(1000.0 / cfg->dev_mhz);
    s->stop_at = SIM_PS_NEVER;
    s->drop_cause = SIM_DROP_RESET;
    sim_cfg_timeouts(cfg, &s->to);
    s->watchdog_ps = sim_ns_to_ps(s->to.watchdog_us * 1000.0);
    s->wire_ps_per_byte = 8.0 * SIM_PS_PER_NS / sim_cfg_line_gbps_eff(cfg);
    rd_pool_init(&s->pool, cfg->tags, cfg->desc_inflight, cfg->max_rd_bytes, cfg->pcie.mrrs);
    if (sim_build(s, ops, err, errlen) != 0) {
        sim_destroy(s);
        return NULL;
    }
    sim_driver_cfg(s);
    if (sim_probe(s, err, errlen) != 0) {
        sim_destroy(s);
        return NULL;
    }
    if (sim_lines(s, err, errlen) != 0) {
        sim_destroy(s);
        return NULL;
    }
    /* Measure from here: the probe's MMIO writes and reads are set-up. */
    t0 = s->now;
    for (i = 0; i < s->ncpu; i++)
        if (s->cpus[i].cpu.now > t0)
            t0 = s->cpus[i].cpu.now;
    sim_advance_to(s, t0);
    sim_cpus_start(s, s->now);
    for (i = 0; i < cl_nregions(&s->cl) && i < SIM_CL_SNAP; i++)
        cl_region_stats(&s->cl, (int)i, &s->cl_t0[i]);
    s->h2d_t0 = *pcie_link_stats(s->h2d);
    s->d2h_t0 = *pcie_link_stats(s->d2h);
    s->t_measure0 = s->now;
    rd_pool_restart(&s->pool, s->now);
    for (i = 0; i < s->ck.n; i++)
        ownchk_ring_restart(&s->ck.q[i], s->now);
    s->last_progress = s->now;
    if (s->nviol) /* a violation during the probe ends the run at once */
        s->stop_at = s->now;
    sim_obs_ready(s);
    return s;
}

void sim_destroy(struct sim *s)
{
    if (!s)
        return;
    if (s->pg_up)
        pktgen_destroy(&s->pg);
    if (s->txq_up)
        txq_destroy(&s->txq);
    for (unsigned q = 1; s->xq && q < s->nq; q++) {
        if (s->xq[q - 1].pg_up)
            pktgen_destroy(&s->xq[q - 1].pg);
        if (s->xq[q - 1].txq_up)
            txq_destroy(&s->xq[q - 1].txq);
    }
    free(s->xq);
    sim_obs_destroy(s);
    if (s->dev)
        s->ops->destroy(s->dev);
    sb_destroy(s->sb);
    pcie_link_destroy(s->h2d);
    pcie_link_destroy(s->d2h);
    tlpq_destroy(&s->cpu_out);
    rc_destroy(&s->rc);
    host_mem_destroy(&s->mem);
    ownchk_set_destroy(&s->ck);
    dmachk_destroy(&s->dk);
    if (s->cl_up)
        cl_destroy(&s->cl);
    if (s->hist_up)
        memhist_destroy(&s->hist);
    sim_cpus_destroy(s);
    sim_shared_destroy(s);
    free(s);
}

const char *sim_diag(const struct sim *s) { return s->diag; }
const struct sim_cfg *sim_cfg(const struct sim *s) { return &s->cfg; }
struct platform *sim_platform(struct sim *s) { return &s->cpus[0].plat; }
sim_ps_t sim_now(const struct sim *s) { return s->now; }
