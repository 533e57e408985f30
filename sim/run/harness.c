/* SPDX-License-Identifier: Apache-2.0 */
/*
 * harness.c - the simulated world and its event loop.
 *
 * Time: `now` is the device's next clock edge.  Before each edge the loop
 * (1) delivers every event due by then in time order: MMIO TLPs the CPU
 * issued go onto the host-to-device link, DMA read completions whose memory
 * latency has passed go onto it too, and TLPs arriving at the host are
 * served (MRd: read memory as the device sees it now, complete later; MWr:
 * write memory, wake the CPUs waiting for it; CplD: answer the MMIO read of
 * the CPU, or of the harness, that asked); (2) resumes the CPUs whose clock
 * is not ahead of the device's (cpu_sched.c); (3) clocks the device once
 * (dev_port.c).  When the device is idle and nothing is due, the loop jumps
 * to the next event (idle skip) and counts the cycles it skipped.  It also
 * builds the world (sim_create: memory, CPUs, link, root complex, device,
 * then the driver's probe on CPU 0) and runs it (sim_run).
 */
#define _POSIX_C_SOURCE 200809L
#include "run/harness.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run/fault.h"
#include "nictx_hw.h"
#include "check/livechk.h"
#include "run/sim_world.h"

/* ------------------------------------------------------------- violations */

void sim_violation_at(void *ctx, unsigned queue, const char *kind, sim_ps_t t, long desc,
                      const char *access, const char *detail)
{
    struct sim *s = ctx;

    if (s->nviol < SIM_MAX_VIOLATIONS) {
        struct sim_violation *v = &s->viol[s->nviol];
        v->kind = kind;
        v->time_ps = t;
        v->queue = queue;
        v->desc = desc;
        snprintf(v->access, sizeof(v->access), "%s", access);
        snprintf(v->detail, sizeof(v->detail), "%s", detail);
    }
    /* The first violation starts the grace period: its consequences (a
     * stale read, a corrupted frame) still show, then the run ends. */
    if (s->nviol++ == 0)
        s->stop_at = (t > s->now ? t : s->now) + sim_ns_to_ps(s->cfg.grace_us * 1000.0);
}

/* A device-wide violation's queue: none with several queues, 0 with one
 * (as the JSON always showed). */
static unsigned sim_no_queue(const struct sim *s)
{
    return s->nq > 1 ? OWNCHK_QUEUE_NONE : 0;
}

void sim_violation(struct sim *s, const char *kind, const char *fmt, ...)
{
    char detail[sizeof(s->viol[0].detail)];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    sim_violation_at(s, sim_no_queue(s), kind, s->now, -1, "", detail);
}

/* ------------------------------------------------------- pktgen data hooks */

static unsigned sim_pkt_len(void *ctx, uint64_t seq)
{
    struct sim *s = ctx;
    return sb_pkt_len(&s->gen, seq);
}

static void sim_pkt_fill(void *ctx, uint64_t seq, uint8_t *buf, unsigned len)
{
    struct sim *s = ctx;
    sb_pkt_fill(&s->gen, seq, buf, len);
    sim_fault_posting(s, 0, seq, buf, len);
}

static void sim_pkt_dropped(void *ctx, uint64_t seq)
{
    sim_fault_dropped(ctx, 0, seq);
}

/* Queue q > 0's packets: (seed, q, seq), and its faults (KIND@Q/N). */
static unsigned sim_queue_pkt_len(void *ctx, uint64_t seq)
{
    const struct sim_queue *x = ctx;
    return sb_pkt_len_q(&x->s->gen, x->id, seq);
}

static void sim_queue_pkt_fill(void *ctx, uint64_t seq, uint8_t *buf, unsigned len)
{
    const struct sim_queue *x = ctx;
    sb_pkt_fill_q(&x->s->gen, x->id, seq, buf, len);
    sim_fault_posting(x->s, x->id, seq, buf, len);
}

static void sim_queue_pkt_dropped(void *ctx, uint64_t seq)
{
    const struct sim_queue *x = ctx;
    sim_fault_dropped(x->s, x->id, seq);
}

struct txq *sim_txq(struct sim *s, unsigned q)
{
    return q == 0 ? &s->txq : &s->xq[q - 1].txq;
}

struct pktgen *sim_pg(struct sim *s, unsigned q)
{
    return q == 0 ? &s->pg : &s->xq[q - 1].pg;
}

/* ------------------------------------------------------------ host side */

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

/* The root complex's view of memory: the CPUs' invisible stores undone. */
static void sim_dev_view(void *ctx, uint64_t addr, uint8_t *buf, size_t len, sim_ps_t at)
{
    struct sim *s = ctx;
    unsigned i;

    for (i = 0; i < s->ncpu; i++)
        stbuf_device_view(&s->cpus[i].stb, addr, buf, len, at);
}

/* What the CPU's stores and the checkers must see of a device access that
 * reaches host memory at `at`: a descriptor read, and the device's
 * completion writes (head writeback, DD, CQE), which free the slots they
 * report, each for its own queue's checker. */
static void host_snoop(struct sim *s, const struct tlp *t, sim_ps_t at)
{
    const struct stbuf *sb[SIM_MAX_CPUS];
    unsigned i;

    if (t->type == TLP_CPLD || t->type == TLP_CPL || rc_is_msi(t->addr))
        return;
    for (i = 0; i < s->ncpu; i++)
        sb[i] = &s->cpus[i].stb;
    if (t->kind == TLP_KIND_DESC_RD)
        ownchk_set_desc_read(&s->ck, t->addr, t->len, at, sb, s->ncpu);
    if (s->cl_up) {
        const void *cpu = host_mem_ptr(&s->mem, t->addr, t->len);
        if (cpu)
            cl_device(&s->cl, (uint64_t)(uintptr_t)cpu, t->len, t->type == TLP_MWR);
    }
    for (i = 0; i < s->ncpu; i++) {
        stbuf_snoop(&s->cpus[i].stb, t->addr, t->len);
        /* Stores visible by now can no longer be undone for anyone: the
         * link delivers device TLPs in time order, so `at` only grows. */
        stbuf_retire(&s->cpus[i].stb, at);
    }
    if (t->type == TLP_MWR)
        ownchk_set_dev_write(&s->ck, t->addr, t->data, t->len, at);
    if (s->hist_up && t->type == TLP_MWR) { /* what it overwrites, before rc_receive */
        const void *cpu = host_mem_ptr(&s->mem, t->addr, t->len);
        if (cpu)
            memhist_write(&s->hist, cpu, cpu, t->len, MEMHIST_DEVICE, at, ++s->hist_tlps);
    }
}

/* The root complex refused a device access. */
static void host_refused(struct sim *s, const char *kind, const char *type, const struct tlp *t,
                         sim_ps_t at, const char *why)
{
    char access[64], detail[160];

    snprintf(access, sizeof(access), "%s 0x%" PRIx64 " %u B", type, t->addr, t->len);
    snprintf(detail, sizeof(detail), "device %s of %u B at 0x%" PRIx64 " %s",
             t->type == TLP_MRD ? "read" : "write", t->len, t->addr, why);
    sim_violation_at(s, sim_no_queue(s), kind, at, -1, access, detail);
}

/* A register read's completion: to the CPU (or the harness) that asked. */
static void host_mmio_cpl(struct sim *s, const struct tlp *t, sim_ps_t at)
{
    unsigned who = t->tag >> SIM_TAG_CPU_SHIFT;
    uint32_t v = 0xFFFFFFFFu; /* what a CPU load gets from an error completion */

    if (t->status == TLP_STATUS_SC)
        memcpy(&v, t->data, t->len < 4 ? t->len : 4);
    if (who == 0 && s->hreg_waiting && t->tag == s->hreg_tag) {
        s->hreg_value = v;
        s->hreg_waiting = 0;
    } else if (who >= 1 && who <= s->ncpu && s->cpus[who - 1].mmio_waiting &&
               t->tag == s->cpus[who - 1].mmio_tag) {
        struct sim_cpu *c = &s->cpus[who - 1];
        c->mmio_value = v;
        c->mmio_t = at;
        c->mmio_waiting = 0;
        sim_cpus_dirty(s);
    } else {
        sim_violation(s, "unexpected_cpl", "completion tag %u with no MMIO read waiting",
                      t->tag);
    }
}

/* A device TLP arrives at the host at time `at`. */
static void host_receive(struct sim *s, const struct tlp *t, sim_ps_t at)
{
    host_snoop(s, t, at);
    switch (rc_receive(&s->rc, t, at)) {
    case RC_NONE:
        break;
    case RC_WROTE:
    case RC_IRQ: {
        int irq = t->kind == TLP_KIND_IRQ || rc_is_msi(t->addr);
        unsigned vec = irq ? sim_cfg_msix_vector(t->addr) : 0;
        s->last_progress = at;
        if (irq && vec < SIM_QUEUES_MAX)
            s->qirqs[vec]++;
        sim_cpus_device_wrote(s, at, irq, vec);
        break;
    }
    case RC_MMIO_CPL:
        host_mmio_cpl(s, t, at);
        break;
    case RC_UNMAPPED_READ:
        host_refused(s, "dma_read_unmapped", "MRd", t, at,
                     "outside host DMA memory: answered with Unsupported Request");
        break;
    case RC_FAULTED:
        sim_fault_fired(s);
        break;
    case RC_UNMAPPED_WRITE:
        host_refused(s, "dma_write_unmapped", "MWr", t, at, "outside host DMA memory: dropped");
        break;
    case RC_NOMEM:
        sim_fail(s, "out of memory queueing completions");
        break;
    }
}

/* Deliver every event due at or before `now`, in time order.  The links'
 * own events (a TLP that waited for credits starting, UpdateFC DLLPs) are
 * processed by pcie_link_advance() at their time, before anything else
 * that happens at or after it. */
static void sim_deliver(struct sim *s)
{
    if (s->deliver_next > s->now)
        return;
    for (;;) {
        sim_ps_t tc = tlpq_next(&s->cpu_out);
        sim_ps_t tm = rc_next_cpl(&s->rc);
        sim_ps_t td = pcie_link_next_arrival(s->d2h);
        sim_ps_t tl = pcie_link_next_internal(s->h2d); /* both directions */
        sim_ps_t t = tc < tm ? tc : tm;

        if (td < t)
            t = td;
        if (tl < t)
            t = tl;
        if (t > s->now) {
            s->deliver_next = t;
            return;
        }
        pcie_link_advance(s->h2d, t);
        if (t == tl)
            continue;
        if (t == td) {
            const struct tlp *p = pcie_link_peek(s->d2h);
            host_receive(s, p, t);
            /* The root complex takes every TLP as it arrives. */
            if (pcie_link_rx_release(s->d2h, t, p) != 0)
                sim_fail(s, "device-to-host link: credit release failed");
            pcie_link_pop(s->d2h);
        } else if (t == tc) {
            if (pcie_link_send(s->h2d, t, tlpq_peek(&s->cpu_out)) != 0)
                sim_fail(s, "host-to-device link refused an MMIO TLP");
            tlpq_pop(&s->cpu_out);
        } else {
            if (pcie_link_send(s->h2d, t, rc_peek_cpl(&s->rc)) != 0)
                sim_fail(s, "host-to-device link refused a completion");
            rc_pop_cpl(&s->rc);
        }
    }
}

/* ------------------------------------------------------------- CPU side */

void sim_cpu_send(struct sim *s, const struct tlp *t, sim_ps_t at)
{
    struct tlp *q;

    if (at < s->cpu_out_last)
        at = s->cpu_out_last;
    s->cpu_out_last = at;
    sim_deliver_dirty(s);
    q = tlpq_push(&s->cpu_out, at);
    if (!q) {
        sim_fail(s, "out of memory queueing an MMIO TLP");
        return;
    }
    q->type = t->type;
    q->kind = t->kind;
    q->tag = t->tag;
    q->last = 1;
    q->ro = t->ro;
    q->status = TLP_STATUS_SC;
    q->ep = 0;
    q->len = t->len;
    q->addr = t->addr;
    if (t->type != TLP_MRD)
        memcpy(q->data, t->data, t->len);
}

static sim_ps_t sim_next_event(const struct sim *s, int cpu_may_run)
{
    sim_ps_t t = tlpq_next(&s->cpu_out), x;

    if ((x = rc_next_cpl(&s->rc)) < t) t = x;
    if ((x = pcie_link_next_event(s->h2d)) < t) t = x;
    if ((x = pcie_link_next_event(s->d2h)) < t) t = x;
    if (cpu_may_run && (x = sim_cpus_next_event(s)) < t)
        t = x;
    if (s->stop_at > s->now && s->stop_at < t)
        t = s->stop_at;
    return t;
}

static void sim_watchdog_diag(struct sim *s, const char *why)
{
    struct txq_stats ts;
    struct sb_result r;
    char cpus[96] = "";
    size_t n = 0;
    unsigned i;

    sim_live_diagnose(s); /* a named cause, if the queues show one */
    txq_get_stats(&s->txq, &ts);
    sb_result(s->sb, &r);
    for (i = 0; i < s->ncpu && n < sizeof(cpus); i++)
        n += (size_t)snprintf(cpus + n, sizeof(cpus) - n, " cpu%u %s", i,
                              sim_cpu_state_name(&s->cpus[i]));
    sim_fail(s,
             "%s at %.3f us: %" PRIu64 " of %" PRIu64 " packets on the wire, "
             "%" PRIu64 " reclaimed; driver next_to_use=%u next_to_clean=%u "
             "stopped=%d doorbells=%" PRIu64 "; published=%" PRIu64 "; "
             "link in flight h2d=%zu d2h=%zu; completions queued=%zu;%s",
             why, (double)s->now / 1e6, r.seen, s->cfg.packets, ts.reclaimed,
             s->txq.next_to_use, s->txq.next_to_clean, s->txq.stopped,
             ts.doorbells, s->ck.q[0].published, pcie_link_in_flight(s->h2d),
             pcie_link_in_flight(s->d2h), s->rc.cpl.count, cpus);
}

/* The device is quiescent: jump to the clock edge at or after t.  While
 * reads wait for completions (not idle), no further than their timer
 * allows (dev_wake) nor past the watchdog's expiry: every clock used to run
 * then, so the watchdog fired on the first one past it. */
static void sim_skip_to(struct sim *s, sim_ps_t t)
{
    sim_ps_t wd_end = s->last_progress + s->watchdog_ps + 1;
    uint64_t k;

    if (s->cfg.every_clock)
        return;
    if (!s->dev_idle && t > wd_end)
        t = wd_end;
    if (t <= s->now)
        return;
    k = (t - s->now + s->period_ps - 1) / s->period_ps;
    if (k > s->dev_wake)
        k = s->dev_wake; /* a read's completion timer acts then */
    s->now += k * s->period_ps;
    s->skipped += k;
    s->skip_pending = k;
}

/*
 * Advance the world by one step: deliver due events, clock the device, or
 * jump over idle time.  `stop_at`: never jump past it.  Returns 0, or -1
 * when the run must end (watchdog, deadlock, failure).
 */
static int sim_step_world(struct sim *s, int cpu_may_run, sim_ps_t stop_at)
{
    sim_ps_t wd = s->watchdog_ps;

    sim_deliver(s);
    if (s->failed)
        return -1;
    if (sim_clock(s)) {
        sim_ps_t t = sim_next_event(s, cpu_may_run);
        /* The harness's register read returns on the clock its completion
         * arrived unless the device is idle, as when every clock ran. */
        if (!s->dev_idle && !cpu_may_run && !s->hreg_waiting)
            return 0;
        if (s->dev_idle && t == SIM_PS_NEVER && stop_at == SIM_PS_NEVER) {
            if (!cpu_may_run && !s->hreg_waiting)
                return 0; /* the register read just completed */
            sim_watchdog_diag(s, "deadlock: device idle and nothing pending");
            return -1;
        }
        sim_skip_to(s, t < stop_at ? t : stop_at);
    }
    if (s->now > s->last_progress + wd) {
        char why[96];
        snprintf(why, sizeof(why), "watchdog: no frame and no device write for %g us",
                 s->to.watchdog_us);
        sim_watchdog_diag(s, why);
        return -1;
    }
    return 0;
}

uint32_t sim_reg_read(struct sim *s, uint32_t off)
{
    struct tlp t;

    memset(&t, 0, offsetof(struct tlp, data));
    t.type = TLP_MRD;
    t.kind = TLP_KIND_MMIO_RD;
    t.tag = (uint8_t)(++s->hreg_tag & 0x3f);
    s->hreg_tag = t.tag;
    t.last = 1;
    t.len = 4;
    t.addr = SIM_BAR0_BASE + off;
    s->hreg_waiting = 1;
    sim_cpu_send(s, &t, s->now);
    while (s->hreg_waiting && !s->failed)
        if (sim_step_world(s, 0, SIM_PS_NEVER) != 0)
            break;
    if (s->hreg_waiting) {
        s->hreg_waiting = 0;
        return 0xffffffffu; /* what a failed read returns on PCIe */
    }
    return s->hreg_value;
}

void sim_advance_to(struct sim *s, sim_ps_t t)
{
    while (s->now < t && !s->failed)
        if (sim_step_world(s, 0, t) != 0)
            break;
    sim_deliver(s); /* what became due on the last clock */
}

/* ------------------------------------------------------------ lifecycle */

/* The CPU's store buffer over host memory, and the checker behind it. */
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
    x->pc.len = sim_queue_pkt_len;
    x->pc.fill = sim_queue_pkt_fill;
    x->pc.on_drop = sim_queue_pkt_dropped;
    x->pc.ctx = x;
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
    pc->len = sim_pkt_len;
    pc->fill = sim_pkt_fill;
    pc->on_drop = sim_pkt_dropped;
    pc->ctx = s;
    pc->bug = cfg->bug;
    pc->bug_at = cfg->bug_at;
    pc->qdisc = cfg->source == SIM_SOURCE_QDISC;
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
    size_t buf, memsz;

    s->gen.seed = cfg->seed;
    s->gen.min_len = cfg->pkt_size - 4;
    s->gen.max_len = cfg->pkt_size_max - 4;
    sbc.gen = s->gen;
    sbc.expected = cfg->packets;
    sbc.max_outstanding = cfg->ring_size;
    sbc.queues = cfg->queues;
    buf = ((size_t)s->gen.max_len + cfg->buf_offset + 63) & ~(size_t)63;
    /* Each queue: its ring, pktgen's buffers (pktgen.h); then 64 KiB for
     * the rest (writeback words, completion queue), and 128 B a queue more. */
    memsz = ((size_t)cfg->ring_size * NICTX_DESC_BYTES + (size_t)pktgen_bufs(cfg->ring_size) * buf) *
                cfg->queues + (1u << 16) + (cfg->queues - 1) * 128u;
    /* Several queues in CQ mode: each further queue's CQ (as many entries
     * as the ring, a power of two; cache-line aligned). */
    if (cfg->queues > 1 && cfg->clean == TXQ_CLEAN_CQ)
        memsz += ((size_t)cfg->ring_size * NICTX_CQE_BYTES + 64u) * (cfg->queues - 1);
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
    s->rc.view = sim_dev_view; /* the device reads past the CPUs' store buffers */
    s->rc.view_ctx = s;
    /* One link, two directions: each carries the other's UpdateFC DLLPs. */
    if (pcie_link_pair(s->h2d, s->d2h) != 0 || pcie_link_set_fc(s->h2d, &cfg->fc_dev) != 0 ||
        pcie_link_set_fc(s->d2h, &cfg->fc_host) != 0) {
        snprintf(err, errlen, "cannot set up link flow control");
        return -1;
    }
    s->dev = ops->create();
    if (!s->dev) {
        snprintf(err, errlen, "cannot create the %s device", ops->name);
        return -1;
    }
    ops->reset(s->dev);
    return 0;
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
         (cl_alias(&s->cl, cons, prod) != 0 || cl_alias(&s->cl, ro, prod) != 0))) {
        snprintf(err, errlen, "cannot register the shared cache lines");
        return -1;
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
    s->last_progress = s->now;
    if (s->nviol) /* a violation during the probe ends the run at once */
        s->stop_at = s->now;
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
    if (s->dev)
        s->ops->destroy(s->dev);
    sb_destroy(s->sb);
    pcie_link_destroy(s->h2d);
    pcie_link_destroy(s->d2h);
    tlpq_destroy(&s->cpu_out);
    rc_destroy(&s->rc);
    host_mem_destroy(&s->mem);
    ownchk_set_destroy(&s->ck);
    if (s->cl_up)
        cl_destroy(&s->cl);
    if (s->hist_up)
        memhist_destroy(&s->hist);
    sim_cpus_destroy(s);
    free(s);
}

/* The measured run: CPUs and world until every CPU is done, a violation's
 * grace period ends, or the watchdog fires. */
static void sim_loop(struct sim *s)
{
    while (!s->failed && !sim_cpus_done(s)) {
        struct sim_cpu *c;
        progress_tick(&s->progress, s);
        if (s->now >= s->stop_at) {
            s->stopped = 1;
            snprintf(s->diag, sizeof(s->diag), "stopped %g us after the first violation (%s)",
                     s->cfg.grace_us, s->viol[0].kind);
            return;
        }
        /* Before cpus_next no CPU runs or flushes (sim_world.h): no need
         * to look.  A CPU that ran leaves it stale, at or before now. */
        if (s->now >= s->cpus_next) {
            if ((c = sim_cpus_flush_pick(s)) != NULL) {
                sim_cpu_resume(c);
                continue;
            }
            s->cpus_next = sim_cpus_next_event(s);
        }
        if (sim_step_world(s, 1, SIM_PS_NEVER) != 0)
            return;
    }
}

/* The device's own view of the run, read through the harness's path. */
static void sim_read_device(struct sim *s)
{
    uint32_t err = sim_reg_read(s, NICTX_REG_ERR);

    if (err != 0)
        sim_violation(s, "device_error", "ERR register 0x%x at end of run%s%s%s%s%s%s%s%s", err,
                      err & NICTX_ERR_TAIL_RANGE ? ": tail beyond the ring" : "",
                      err & NICTX_ERR_BAD_DESC ? ": descriptor with a bad length" : "",
                      err & NICTX_ERR_BAD_ACCESS ? ": bad MMIO access" : "",
                      err & NICTX_ERR_DMA ? ": DMA read error, queue stopped" : "",
                      err & NICTX_ERR_DB_OFF ? ": doorbell while disabled" : "",
                      err & NICTX_ERR_CFG ? ": configuration change refused" : "",
                      err & NICTX_ERR_CPL_TIMEOUT ? ": completion timeout, queue stopped" : "",
                      err & NICTX_ERR_UNEXP_CPL ? ": unexpected completion" : "");
    s->dev_err = err;
    s->rd_stall_cycles = sim_reg_read(s, NICTX_REG_CNT_RD_STALL);
    s->not_owned = sim_reg_read(s, NICTX_REG_CNT_NOT_OWNED);
    s->wc_used = sim_reg_read(s, NICTX_REG_CNT_WC);
    s->wc_dropped = sim_reg_read(s, NICTX_REG_CNT_WC_DROP);
}

int sim_run(struct sim *s)
{
    struct timespec w0, w1;
    unsigned i;

    clock_gettime(CLOCK_MONOTONIC, &w0);
    sim_loop(s);
    progress_end(&s->progress);
    sb_finish(s->sb);
    s->h2d_t1 = *pcie_link_stats(s->h2d);
    s->d2h_t1 = *pcie_link_stats(s->d2h);
    for (i = 0; i < s->ncpu; i++)
        memcpy(s->cpus[i].t1, s->cpus[i].cpu.by_cause, sizeof(s->cpus[i].t1));
    s->t_measure1 = s->now;
    s->measured = 1;
    clock_gettime(CLOCK_MONOTONIC, &w1);
    s->wall_s = (double)(w1.tv_sec - w0.tv_sec) + (double)(w1.tv_nsec - w0.tv_nsec) / 1e9;
    /* Reading the device's registers comes after the measurement and costs
     * nothing that is reported. */
    if (!s->failed) {
        sim_read_device(s);
        sim_live_final(s);
    }
    if (s->failed)
        return -1;
    /* A violation the run ended before its grace period was over, or one
     * found at the end (ERR, BQL's balance), is a violation too. */
    if (!s->stopped && s->nviol)
        snprintf(s->diag, sizeof(s->diag), "a violation before the run ended (%s)",
                 s->viol[0].kind);
    return s->stopped || s->nviol ? 1 : 0;
}

const char *sim_diag(const struct sim *s) { return s->diag; }
const struct sim_cfg *sim_cfg(const struct sim *s) { return &s->cfg; }
struct platform *sim_platform(struct sim *s) { return &s->cpus[0].plat; }
sim_ps_t sim_now(const struct sim *s) { return s->now; }
