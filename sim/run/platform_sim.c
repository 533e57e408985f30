/* SPDX-License-Identifier: Apache-2.0 */
/*
 * platform_sim.c - driver/platform.h on the simulated host.
 *
 * Each call charges the simulated CPU its cost (cpu.h) under its cause.
 * Stores to DMA memory land in host memory at once (the CPU sees its own
 * stores) and enter the CPU's store buffer (stbuf.h), which keeps them from
 * the device until they become visible; the ownership checkers (ownchk.h,
 * one per queue) see each one with its visibility time.  MMIO writes become posted MWr
 * TLPs that leave the CPU when the ordering model lets them (x86: after
 * every earlier store is visible; weak: at once); WC copies leave as the
 * TLPs their WC buffers drain into.  Barriers make the CPU wait until what
 * they order has drained (cause drain_wait).  An MMIO read becomes an MRd
 * and the CPU stalls until its completion comes back through the simulated
 * link and device.
 */
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "nictx_hw.h"
#include "platform.h"
#include "run/sim_world.h"
#include "txq_reg.h"

/* ------------------------------------------------------------ TLPs out */

static void cpu_send_mwr(struct sim *s, uint32_t off, const void *val, unsigned len,
                         uint8_t kind, sim_ps_t t)
{
    struct tlp tl;

    memset(&tl, 0, offsetof(struct tlp, data));
    tl.type = TLP_MWR;
    tl.kind = kind;
    tl.last = 1;
    tl.len = (uint16_t)len;
    tl.addr = SIM_BAR0_BASE + off;
    memcpy(tl.data, val, len);
    sim_cpu_send(s, &tl, t);
}

/* A posted write left the CPU at t: it leaves the core uc_drain_ns later,
 * and locked instructions and sfence wait for that. */
static void cpu_posted(struct sim_cpu *c, sim_ps_t t)
{
    sim_ps_t gone = t + sim_ns_to_ps(c->cpu.costs.uc_drain_ns);

    if (gone > c->uc_drained)
        c->uc_drained = gone;
}

/* The root port holds RC_POSTED_MAX posted requests for the device that
 * wait for its credits: a posted write that finds them all waiting cannot
 * leave the CPU, which stalls (booked to `cause`) until one of them starts
 * on the link (docs/pcie.md, Flow control).  Returns 1 if it waited. */
static int cpu_posted_room(struct sim_cpu *c, enum cpu_cause cause)
{
    struct sim *s = c->sim;
    int waited = 0;

    while (c->in_coro && pcie_link_queued_class(s->h2d, PCIE_FC_CLASS_P) >= RC_POSTED_MAX) {
        /* Only a link event (credits back, a TLP starting or arriving)
         * or the device taking a TLP frees a place: look again then. */
        sim_ps_t t = pcie_link_next_event(s->h2d);
        if (t == SIM_PS_NEVER || t <= c->cpu.now)
            t = c->cpu.now + s->period_ps;
        cpu_wait_until(&c->cpu, t, cause);
        cpu_sync(c);
        waited = 1;
    }
    return waited;
}

/* cpu_emit_wc() with a WC buffer in use. */
static void cpu_emit_wc_pieces(struct sim_cpu *c)
{
    struct sim *s = c->sim;
    const struct stbuf_wc_line *w;

    stbuf_wc_collect(&c->stb, c->cpu.now);
    while ((w = stbuf_wc_peek(&c->stb)) != NULL) {
        if (cpu_posted_room(c, CPU_WC_COPY))
            continue; /* the world ran meanwhile: look at the buffers again */
        sim_ps_t t = w->due > s->cpu_out_last ? w->due : s->cpu_out_last;
        ownchk_wc_piece(&s->ck.q[0], (uint32_t)w->off, w->data, (unsigned)w->written, t);
        cpu_send_mwr(s, (uint32_t)w->off, w->data, (unsigned)w->written, TLP_KIND_BF_WR, t);
        stbuf_wc_pop(&c->stb);
        cpu_posted(c, t);
    }
}

/* Send every drained WC piece (BlueFlame blocks) down the link (at every
 * platform call: inline, for the common case of no WC buffer in use). */
static inline void cpu_emit_wc(struct sim_cpu *c)
{
    if (!stbuf_wc_empty(&c->stb))
        cpu_emit_wc_pieces(c);
}

/* Tell the scoreboard what each queue's checker saw handed to the device
 * (tail doorbells, owner bits), for the queues whose count moved: the start
 * of each packet's doorbell-to-wire time. */
void cpu_sync_published(struct sim *s, const struct sim_cpu *c)
{
    uint64_t m = s->ck.pub_moved;

    s->ck.pub_moved = 0;
    while (m) {
        unsigned q = (unsigned)__builtin_ctzll(m);
        const struct ownchk *k = &s->ck.q[q];

        m &= m - 1;
        sb_note_published_q(s->sb, q, k->published, k->published_t);
        if (__builtin_expect(s->obs != NULL, 0))
            obs_publish(s->obs, c->id, c->cpu.now, q, k->published);
    }
}

/* A WC copy must be fenced before the driver does anything else: any
 * other platform call while a copied block is still in a WC buffer is the
 * missing sfence.  Called by every call but the copy and the fences. */
static void cpu_check_wc_fenced(struct sim_cpu *c)
{
    if (c->wc_unfenced) {
        c->wc_unfenced = 0;
        if (c->stb.nwc)
            ownchk_wc_unfenced(&c->sim->ck.q[0], c->cpu.now); /* the WC window: queue 0's */
    }
}

/* Every platform call starts here: the access driver code announced last
 * is settled (plain_access.c), the world catches up with this CPU's clock,
 * and a WC copy not fenced by now is the missing sfence. */
static inline __attribute__((always_inline)) void cpu_enter_here(struct sim_cpu *c, int fences)
{
    if (c->pend.kind || c->pend.nline)
        sim_plain_settle(c);
    c->recheck_plain = 0; /* a plain re-check ends here (stopchk.h) */
    cpu_sync(c);
    if (!fences)
        cpu_check_wc_fenced(c);
    cpu_emit_wc(c);
}

/* (cpu_enter_here, inlined into this file's calls) */
void cpu_enter(struct sim_cpu *c, int fences)
{
    cpu_enter_here(c, fences);
}

/* A plain access's start (plain_access.c): the world catches up with
 * this CPU's clock, as at a platform call, with what was announced before
 * it left for plain_access.c to settle. */
void cpu_enter_plain(struct sim_cpu *c)
{
    cpu_sync(c);
    cpu_emit_wc(c);
}

/* The timeline's parts of the calls below, out of the way of a run
 * without a tracer (sim_world.h: s->obs NULL), which pays one branch. */
static __attribute__((noinline, cold)) void cpu_wait_traced(struct sim_cpu *c, sim_ps_t t,
                                                      enum cpu_cause cause)
{
    sim_ps_t t0 = c->cpu.now;

    cpu_wait_until(&c->cpu, t, cause);
    if (c->cpu.now > t0)
        obs_cpu(c->sim->obs, c->id, cause, t0, c->cpu.now);
}

/* A wait booked to `cause`, shown on the timeline when it took time. */
static inline void cpu_wait_shown(struct sim_cpu *c, sim_ps_t t, enum cpu_cause cause)
{
    if (__builtin_expect(c->sim->obs != NULL, 0))
        cpu_wait_traced(c, t, cause);
    else
        cpu_wait_until(&c->cpu, t, cause);
}

/* A platform call's slice on the timeline, from t0 to now. */
static inline void cpu_op(struct sim_cpu *c, enum obs_op op, sim_ps_t t0, unsigned n)
{
    if (__builtin_expect(c->sim->obs != NULL, 0))
        obs_op(c->sim->obs, c->id, op, t0, c->cpu.now, n);
}

/* Wait until every earlier store is visible (a barrier's second half);
 * the plain stores to driver state are visible by then too. */
static void cpu_drain(struct sim_cpu *c)
{
    cpu_wait_shown(c, stbuf_drained_at(&c->stb, c->cpu.now), CPU_DRAIN);
    sim_lane_clamp(c);
}

static void cpu_load_fence(struct sim_cpu *c);

/* ---------------------------------------------------------------- MMIO */

static void mmio_write(struct platform *p, uint32_t off, uint64_t val, unsigned len)
{
    struct sim *s = p->sim;
    struct sim_cpu *c = p->cpu;
    sim_ps_t t;

    cpu_enter_here(c, 0);
    cpu_posted_room(c, CPU_DOORBELL);
    if (c->stb.cfg.order == STBUF_X86) {
        /* An uncached access flushes the WC buffers (Intel SDM 11.3.1). */
        stbuf_wc_flush(&c->stb, c->cpu.now);
        cpu_emit_wc(c);
    }
    t = stbuf_mmio_depart(&c->stb, c->cpu.now);
    if (t < s->cpu_out_last)
        t = s->cpu_out_last;
    unsigned q = 0;
    uint32_t r = 0;
    int qreg = txq_reg_decode(off, &q, &r);
    ownchk_set_mmio(&s->ck, off, val, len, t); /* queue q's checker, or all */
    cpu_sync_published(s, c);
    cpu_posted(c, t);
    unsigned kind = qreg && r == NICTX_QREG_TAIL ? TLP_KIND_DOORBELL : TLP_KIND_MMIO_WR;
    cpu_send_mwr(s, off, &val, len, kind, t);
    if (s->obs)
        obs_mmio(s->obs, c->id, c->cpu.now, kind, off, val, q);
    cpu_charge(&c->cpu, CPU_DOORBELL, c->cpu.costs.mmio_write_ns);
}

void plat_mmio_write32(struct platform *p, uint32_t off, uint32_t val)
{
    mmio_write(p, off, val, 4);
}

void plat_mmio_write64(struct platform *p, uint32_t off, uint64_t val)
{
    mmio_write(p, off, val, 8);
}

void plat_mmio_copy_wc(struct platform *p, uint32_t off, const void *src, size_t len)
{
    struct sim_cpu *c = p->cpu;
    const uint8_t *b = src;
    size_t k;

    cpu_enter_here(c, 1);
    for (k = 0; k + 8 <= len; k += 8) {
        uint64_t v;
        memcpy(&v, b + k, 8);
        if (stbuf_wc_store(&c->stb, off + (uint32_t)k, v, c->cpu.now))
            ownchk_wc_merge(&p->sim->ck.q[0], off + (uint32_t)k, c->cpu.now);
        cpu_charge(&c->cpu, CPU_WC_COPY, c->cpu.costs.wc_store_ns);
    }
    cpu_emit_wc(c);
    c->wc_unfenced = 1;
}

uint32_t plat_mmio_read32(struct platform *p, uint32_t off)
{
    struct sim *s = p->sim;
    struct sim_cpu *c = p->cpu;
    struct tlp t;
    sim_ps_t at;

    if (!c->in_coro) /* a test or the harness, not driver code */
        return sim_reg_read(s, off);
    cpu_enter_here(c, 0);
    sim_ps_t t0 = c->cpu.now;
    cpu_charge(&c->cpu, CPU_MMIO_READ, c->cpu.costs.mmio_read_ns);
    memset(&t, 0, offsetof(struct tlp, data));
    t.type = TLP_MRD;
    t.kind = TLP_KIND_MMIO_RD;
    t.tag = sim_tag_next(c->mmio_tag, c->id + 1);
    c->mmio_tag = t.tag;
    t.last = 1;
    t.len = 4;
    t.addr = SIM_BAR0_BASE + off;
    at = stbuf_mmio_depart(&c->stb, c->cpu.now);
    c->mmio_waiting = 1;
    sim_cpu_send(s, &t, at);
    while (c->mmio_waiting) /* only this CPU stalls */
        coro_yield(&c->co);
    cpu_wait_until(&c->cpu, c->mmio_t, CPU_MMIO_READ);
    cpu_op(c, OBS_OP_MMIO_READ, t0, 1);
    cpu_load_fence(c); /* readl: later loads wait for it (arm64 __iormb) */
    ownchk_set_mmio_read(&s->ck, off, c->mmio_value, c->cpu.now); /* a queue's HEAD */
    return c->mmio_value;
}

/* ---------------------------------------------------------- early loads */

/* A load barrier (smp_rmb, dma_rmb, smp_mb, acquire, ...): no later load
 * is performed before now. */
static void cpu_load_fence(struct sim_cpu *c)
{
    c->load_floor = c->cpu.now;
    c->nobs = 0;
}

/* splitmix64 on the CPU's exploration state: the early-load draws. */
static uint64_t cpu_early_draw(struct sim_cpu *c)
{
    uint64_t z = (c->explore_rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* When the load of `src` is performed: now, or (weak, explored) up to
 * early_ns before, never before the load floor, a time the same location
 * was read at, or the oldest write the history keeps. */
static sim_ps_t cpu_load_at(struct sim_cpu *c, const void *src)
{
    sim_ps_t now = c->cpu.now, t = now, floor = c->load_floor;
    unsigned k;

    if (!c->sim->hist_up)
        return now;
    for (k = 0; k < c->ncorr && c->corr_addr[k] != src; k++)
        ;
    if (k < c->ncorr && c->corr_t[k] > floor)
        floor = c->corr_t[k];
    if (memhist_oldest(&c->sim->hist) > floor)
        floor = memhist_oldest(&c->sim->hist);
    if (cpu_early_draw(c) % 256 < c->sched.early_per_256) {
        sim_ps_t back = cpu_early_draw(c) % (sim_ns_to_ps(c->sched.early_ns) + 1);
        t = back < now ? now - back : 0;
    }
    if (t < floor)
        t = floor < now ? floor : now;
    if (k == c->ncorr) { /* remember it: 8 locations, round robin */
        k = c->ncorr < 8 ? c->ncorr++ : (unsigned)(cpu_early_draw(c) % 8);
        c->corr_addr[k] = src;
    }
    c->corr_t[k] = t;
    return t;
}

/* A load of `len` (1..8) bytes of shared driver state into buf: another
 * CPU's store only once visible, at the time the load is performed. */
void cpu_load_shared(struct sim_cpu *c, const void *src, void *buf, size_t len)
{
    uint64_t undone, seen;

    if (!c->sim->hist_up) {
        cpu_view(c, src, buf, len);
        return;
    }
    memcpy(buf, src, len);
    memhist_view(&c->sim->hist, src, buf, len, cpu_load_at(c, src), c->id, &undone, &seen);
}

static uint32_t cpu_load_shared32(struct sim_cpu *c, const uint32_t *src)
{
    uint32_t v;

    cpu_load_shared(c, src, &v, 4);
    return v;
}

/* A load of memory the device writes (a writeback word, a DD, a CQE),
 * performed early or not: the `len` (1..8) bytes it reads go to buf.  One
 * device write read in part as new and in part, by a later load, as old
 * is a load that passed another. */
void cpu_load_dma(struct sim_cpu *c, const void *src, void *buf, size_t len)
{
    uint64_t undone, seen;

    memcpy(buf, src, len);
    if (!c->sim->hist_up)
        return;
    memhist_view(&c->sim->hist, src, buf, len, cpu_load_at(c, src), MEMHIST_DEVICE + 1,
                 &undone, &seen);
    for (unsigned k = 0; undone && k < c->nobs; k++) {
        if (c->obs[k] != undone)
            continue;
        char detail[240];
        snprintf(detail, sizeof(detail),
                 "CPU %u read host memory 0x%" PRIx64 " as it was before a device write it had "
                 "already seen part of: the later load passed the earlier one (missing "
                 "dma_rmb() after the valid/owner test, as mlx4_en_process_tx_cq)",
                 c->id, host_mem_bus(&c->sim->mem, src));
        sim_violation_at(c->sim, 0, "load_reordered", c->cpu.now, -1, "CPU load", detail);
        c->nobs = 0;
        break;
    }
    if (seen && c->nobs < 8)
        c->obs[c->nobs++] = seen;
}

/* ---------------------------------------------------------- DMA memory */

/* The CPU reads or writes memory other CPUs (or the device) share. */
void cpu_line(struct sim_cpu *c, const void *addr, size_t len, int write)
{
    struct sim *s = c->sim;

    if (s->cl_up) {
        double ns = cl_access(&s->cl, c->id, (uint64_t)(uintptr_t)addr, len, write);
        cpu_charge(&c->cpu, CPU_CACHELINE, ns);
        if (__builtin_expect(s->obs != NULL, 0) && ns > 0) /* a transfer or an upgrade */
            obs_cpu(s->obs, c->id, CPU_CACHELINE, c->cpu.now - sim_ns_to_ps(ns), c->cpu.now);
    }
}

/* Under TSO a store is visible after every earlier one: the plain
 * stores to driver state before it (plain_access.c) are visible by then. */
static void cpu_order_lane(struct sim_cpu *c, sim_ps_t vis)
{
    if (c->lane_up && c->lane.npend && c->stb.cfg.order == STBUF_X86)
        stbuf_clamp(&c->lane, vis);
}

sim_ps_t cpu_store_mem(struct sim_cpu *c, void *dst, const void *val, unsigned len,
                       sim_ps_t *issued)
{
    struct sim *s = c->sim;
    uint64_t bus = host_mem_bus(&s->mem, dst);
    sim_ps_t vis;

    cpu_enter_here(c, 0);
    /* A full store buffer stalls the CPU until its oldest entry drains. */
    cpu_wait_shown(c, stbuf_room_at(&c->stb, c->cpu.now), CPU_DRAIN);
    vis = stbuf_store(&c->stb, bus, dst, val, len, c->cpu.now);
    cpu_order_lane(c, vis);
    *issued = c->cpu.now;
    if (val) {
        ownchk_set_store(&s->ck, bus, val, len, c->cpu.now, vis);
        cpu_sync_published(s, c);
    }
    cpu_charge(&c->cpu, CPU_DESC_WRITE, c->cpu.costs.store_ns);
    if (__builtin_expect(s->obs != NULL, 0)) {
        sim_ps_t t0 = c->cpu.now - sim_ns_to_ps(c->cpu.costs.store_ns);
        obs_visible(s->obs, c->id, bus, t0, vis);
        obs_cpu(s->obs, c->id, CPU_DESC_WRITE, t0, c->cpu.now);
    }
    cpu_line(c, dst, len, 1);
    return vis;
}

void plat_store32(struct platform *p, void *dst, uint32_t val)
{
    sim_ps_t t;

    cpu_store_mem(p->cpu, dst, &val, 4, &t);
}

void plat_store64(struct platform *p, void *dst, uint64_t val)
{
    sim_ps_t t;

    cpu_store_mem(p->cpu, dst, &val, 8, &t);
}

void cpu_load_mem(struct sim_cpu *c, const void *src, void *buf, size_t len)
{
    cpu_enter_here(c, 0);
    cpu_load_dma(c, src, buf, len);
    cpu_charge(&c->cpu, CPU_DRIVER, c->cpu.costs.load_ns);
    cpu_line(c, src, len, 0);
}

uint32_t plat_load32(struct platform *p, const void *src)
{
    uint32_t v;

    cpu_load_mem(p->cpu, src, &v, 4);
    return v;
}

void plat_cpu_touch(struct platform *p, const void *addr, size_t len, enum plat_access how)
{
    struct sim *s = p->sim;
    struct sim_cpu *c = p->cpu;
    uint64_t bus = host_mem_bus(&s->mem, addr);

    cpu_enter_here(c, 0);
    if (how == PLAT_WRITE && bus)
        ownchk_set_touch(&s->ck, bus, len, c->cpu.now);
    cpu_line(c, addr, len, how == PLAT_WRITE);
}

uint64_t plat_time_ns(struct platform *p)
{
    return p->cpu->cpu.now / SIM_PS_PER_NS;
}

/* ------------------------------------------------------------ barriers */

void plat_dma_wmb(struct platform *p)
{
    struct sim_cpu *c = p->cpu;

    cpu_enter_here(c, 0); /* dma_wmb orders coherent memory only, not WC */
    sim_ps_t t0 = c->cpu.now;
    cpu_charge(&c->cpu, CPU_BARRIER, c->cpu.costs.dma_wmb_ns);
    /* x86: a compiler barrier; TSO already orders the stores. */
    if (c->stb.cfg.order == STBUF_WEAK)
        cpu_drain(c);
    cpu_op(c, OBS_OP_DMA_WMB, t0, 1);
}

/* spin_lock is a locked instruction: it waits for posted writes to leave
 * the core (the ixgbe 2012 observation).  spin_unlock is a plain release
 * store on x86 and waits for nothing.  Each costs half of lock_ns. */
static void cpu_lock_op(struct sim_cpu *c, void *lock, int locked)
{
    cpu_enter_here(c, 0);
    sim_ps_t t0 = c->cpu.now;
    if (locked)
        cpu_wait_shown(c, c->uc_drained, CPU_LOCK_STALL);
    cpu_charge(&c->cpu, CPU_LOCK_STALL, c->cpu.costs.lock_ns / 2);
    cpu_line(c, lock, sizeof(uint32_t), 1);
    cpu_op(c, locked ? OBS_OP_LOCK : OBS_OP_UNLOCK, t0, 1);
}

/* A lock another CPU holds (the lock word holds its id + 1; 0: free): spin
 * until it is released, each round a read of the lock's line (a transfer
 * once the holder has written it) and a retry of lock_ns / 2 (at least
 * 1 ns, so that the spinner's clock moves and the holder runs), booked as
 * lock time.  The CPUs interleave at platform calls, so the release is seen
 * within a device clock of when it happened. */
static void cpu_lock_spin(struct sim_cpu *c, const uint32_t *word)
{
    double retry_ns = c->cpu.costs.lock_ns / 2 > 1 ? c->cpu.costs.lock_ns / 2 : 1;

    while (*word != 0 && *word != c->id + 1) {
        cpu_enter_here(c, 0);
        cpu_charge(&c->cpu, CPU_LOCK_STALL, retry_ns);
        cpu_line(c, word, sizeof(*word), 0);
    }
}

void plat_spin_lock(struct platform *p, void *lock)
{
    uint32_t *word = lock;

    cpu_lock_spin(p->cpu, word);
    *word = p->cpu->id + 1;
    cpu_lock_op(p->cpu, lock, 1);
    cpu_load_fence(p->cpu); /* acquire */
}

void plat_spin_unlock(struct platform *p, void *lock)
{
    cpu_lock_op(p->cpu, lock, 0);
    *(uint32_t *)lock = 0;
}

/* wmb (sfence) and smp_mb (locked op): flush WC buffers, drain stores. */
static void cpu_fence(struct sim_cpu *c, double issue_ns, enum obs_op op)
{
    cpu_enter_here(c, 1);
    c->wc_unfenced = 0;
    sim_ps_t t0 = c->cpu.now;
    stbuf_wc_flush(&c->stb, c->cpu.now); /* the WC lines leave as the fence starts */
    cpu_emit_wc(c);
    cpu_charge(&c->cpu, CPU_BARRIER, issue_ns);
    cpu_drain(c);
    /* sfence completes once the write-combined and uncached writes before
     * it have left the core. */
    cpu_wait_shown(c, c->uc_drained, CPU_DRAIN);
    cpu_op(c, op, t0, 1);
}

void plat_wmb(struct platform *p)
{
    cpu_fence(p->cpu, p->cpu->cpu.costs.wmb_ns, OBS_OP_WMB);
}

void plat_smp_mb(struct platform *p)
{
    struct sim_cpu *c = p->cpu;

    cpu_fence(c, c->cpu.costs.smp_mb_ns, OBS_OP_SMP_MB); /* locked: waits as sfence does */
    stopchk_mb(c);
    cpu_load_fence(c);
}

/* smp_wmb orders stores to memory the CPUs share: free on x86 (TSO keeps
 * stores in order); under weak (dmb ishst) the CPU's stores to driver
 * state drain first, but not those the device reads: the device is not in
 * the inner-shareable domain, so descriptors and doorbells need dma_wmb
 * or wmb. */
void plat_smp_wmb(struct platform *p)
{
    struct sim_cpu *c = p->cpu;

    cpu_enter_here(c, 0);
    sim_ps_t t0 = c->cpu.now;
    cpu_charge(&c->cpu, CPU_BARRIER, c->cpu.costs.dma_wmb_ns);
    if (c->stb.cfg.order == STBUF_WEAK) {
        cpu_wait_shown(c, stbuf_drained_cpu_at(&c->stb, c->cpu.now), CPU_DRAIN);
        sim_lane_clamp(c);
    }
    cpu_op(c, OBS_OP_SMP_WMB, t0, 1);
}

void plat_smp_rmb(struct platform *p)
{
    struct sim_cpu *c = p->cpu;

    cpu_enter_here(c, 0);
    sim_ps_t t0 = c->cpu.now;
    cpu_charge(&c->cpu, CPU_BARRIER, c->cpu.costs.dma_wmb_ns);
    cpu_op(c, OBS_OP_SMP_RMB, t0, 1);
    cpu_load_fence(c);
}

/* ------------------------------------------- driver state between CPUs */

/* A store of `len` (1..8) bytes of shared driver state through the store
 * buffer (room waited for): `val`, or (NULL) what the caller writes next.
 * The checkers and, when loads may be early, the history see it. */
void cpu_store_shared(struct sim_cpu *c, void *dst, const void *val, unsigned len)
{
    uint8_t old[8];
    sim_ps_t vis;

    memcpy(old, dst, len);
    vis = stbuf_store(&c->stb, STBUF_CPU_KEY(dst), dst, val, len, c->cpu.now);
    c->sim->key_cpus |= 1ull << c->id;
    if (vis > c->sim->key_vis)
        c->sim->key_vis = vis;
    cpu_order_lane(c, vis);
    if (c->sim->hist_up)
        memhist_write(&c->sim->hist, dst, old, len, c->id, vis, 0);
    stopchk_store(c, dst);
}

/* Exploration's preemption: off the CPU until everything else is quiet
 * for two steps running (every other CPU waiting or preempted, the device
 * idle), or `max_ns`.  Not again until as long again has passed. */
static void cpu_preempted(struct sim_cpu *c, double max_ns)
{
    const double step_ns = 500.0;
    double off = 0;
    unsigned quiet = 0;

    c->preempted = 1;
    while (off < max_ns && quiet < 2) {
        double ns = max_ns - off < step_ns ? max_ns - off : step_ns;
        cpu_charge(&c->cpu, CPU_IDLE, ns);
        off += ns;
        cpu_enter_here(c, 1);
        quiet = sim_cpus_quiet(c->sim, c) ? quiet + 1 : 0;
    }
    c->preempted = 0;
    c->preempt_after = c->cpu.now + sim_ns_to_ps(max_ns);
}

/* A shared access: where exploration may stall this CPU (sim/host/explore.h:
 * a PCT-style priority change or a preemption), and the world, the other
 * CPUs included, runs up to the stall's end before the access is made. */
void cpu_shared_access(struct sim_cpu *c)
{
    double ns, pre;

    if (!cpu_explores(c)) { /* no point, no preemption: nothing to draw */
        c->shared_n++;
        return;
    }
    ns = explore_point_ns(&c->sched, ++c->shared_n);
    pre = c->cpu.now >= c->preempt_after ? explore_preempt_ns(&c->sched, &c->explore_rng) : 0;

    if (ns > 0) {
        cpu_charge(&c->cpu, CPU_IDLE, ns);
        cpu_enter_here(c, 1);
    }
    if (pre > 0)
        cpu_preempted(c, pre);
}

/* What CPU c reads at `src` now (`len` bytes into buf): memory with every
 * other CPU's store that is not visible yet undone, its plain stores
 * (plain_access.c) included (its own stores it sees at once). */
void cpu_view(struct sim_cpu *c, const void *src, void *buf, size_t len)
{
    struct sim *s = c->sim;
    uint64_t m = s->key_cpus & ~(1ull << c->id);

    memcpy(buf, src, len);
    if (s->key_vis <= c->cpu.now)
        return; /* every store to driver state is visible by now */
    while (m) { /* in CPU order, as a loop over them all */
        unsigned i = (unsigned)__builtin_ctzll(m);
        struct sim_cpu *o = &s->cpus[i];
        int lane = o->lane_up && o->lane.npend;

        m &= m - 1;
        if (o->stb.nkey == 0 && !lane) {
            s->key_cpus &= ~(1ull << i); /* nothing of the kind pending */
            continue;
        }
        stbuf_device_view(&o->stb, STBUF_CPU_KEY(src), buf, len, c->cpu.now);
        if (lane)
            stbuf_device_view(&o->lane, STBUF_CPU_KEY(src), buf, len, c->cpu.now);
    }
}

uint32_t plat_read_once32(struct platform *p, const uint32_t *src)
{
    struct sim_cpu *c = p->cpu;

    cpu_enter_here(c, 0);
    cpu_shared_access(c);
    if (stopchk_is_state(p->sim, src))
        stopchk_xmit_tested(c, src); /* netif_xmit_stopped */
    else
        stopchk_load(c, src);
    cpu_line(c, src, 4, 0);
    return cpu_load_shared32(c, src);
}

uint32_t plat_load_acquire32(struct platform *p, const uint32_t *src)
{
    uint32_t v = plat_read_once32(p, src);

    cpu_load_fence(p->cpu); /* later loads stay after it */
    return v;
}

void plat_write_once32(struct platform *p, uint32_t *dst, uint32_t val)
{
    struct sim_cpu *c = p->cpu;

    cpu_enter_here(c, 0);
    cpu_shared_access(c);
    cpu_wait_until(&c->cpu, stbuf_room_at(&c->stb, c->cpu.now), CPU_DRAIN);
    cpu_store_shared(c, dst, &val, 4);
    cpu_line(c, dst, 4, 1);
}

void plat_store_release32(struct platform *p, uint32_t *dst, uint32_t val)
{
    struct sim_cpu *c = p->cpu;

    cpu_enter_here(c, 0);
    if (c->stb.cfg.order == STBUF_WEAK)
        cpu_drain(c); /* stlr: every earlier store first */
    plat_write_once32(p, dst, val);
}

/* ------------------------------------------------------------- bitops */

/* An atomic read-modify-write of `word` by CPU c: the newest value (the
 * line is the CPU's for the operation), with `set` bits set and `clr`
 * bits cleared, stored through the store buffer.  The old value. */
static uint32_t cpu_rmw(struct sim_cpu *c, uint32_t *word, uint32_t set, uint32_t clr)
{
    uint32_t old, v;

    memcpy(&old, word, 4);
    v = (old | set) & ~clr;
    cpu_wait_until(&c->cpu, stbuf_room_at(&c->stb, c->cpu.now), CPU_DRAIN);
    cpu_store_shared(c, word, &v, 4);
    cpu_line(c, word, 4, 1);
    return old;
}

/* set_bit / clear_bit: x86's locked bts/btr waits and drains as smp_mb()
 * does (though Linux promises no ordering, so the checker counts none);
 * arm64's stset/stclr is a relaxed store. */
static uint32_t cpu_bitop(struct platform *p, uint32_t *word, uint32_t set, uint32_t clr)
{
    struct sim_cpu *c = p->cpu;
    int locked = c->stb.cfg.order == STBUF_X86;
    uint32_t old;

    cpu_enter_here(c, 0);
    cpu_shared_access(c);
    if (locked)
        cpu_fence(c, c->cpu.costs.smp_mb_ns, OBS_OP_SMP_MB);
    old = cpu_rmw(c, word, set, clr);
    if (locked)
        cpu_drain(c);
    return old;
}

void plat_set_bit(struct platform *p, unsigned nr, uint32_t *word)
{
    cpu_bitop(p, word, 1u << nr, 0);
    if (stopchk_is_state(p->sim, word))
        stopchk_stop(p->cpu, word);
}

void plat_clear_bit(struct platform *p, unsigned nr, uint32_t *word)
{
    cpu_bitop(p, word, 0, 1u << nr);
}

/* test_and_set_bit / test_and_clear_bit: fully ordered everywhere. */
static int cpu_test_and(struct platform *p, unsigned nr, uint32_t *word, uint32_t set,
                        uint32_t clr)
{
    struct sim_cpu *c = p->cpu;
    uint32_t old;

    cpu_enter_here(c, 0);
    cpu_shared_access(c);
    cpu_fence(c, c->cpu.costs.smp_mb_ns, OBS_OP_SMP_MB);
    stopchk_mb(c);
    cpu_load_fence(c);
    if (stopchk_is_state(p->sim, word))
        stopchk_tested(c, word);
    old = cpu_rmw(c, word, set, clr);
    cpu_drain(c);
    return (old >> nr) & 1u;
}

int plat_test_and_set_bit(struct platform *p, unsigned nr, uint32_t *word)
{
    return cpu_test_and(p, nr, word, 1u << nr, 0);
}

int plat_test_and_clear_bit(struct platform *p, unsigned nr, uint32_t *word)
{
    return cpu_test_and(p, nr, word, 0, 1u << nr);
}

int plat_test_bit(struct platform *p, unsigned nr, const uint32_t *word)
{
    struct sim_cpu *c = p->cpu;

    cpu_enter_here(c, 0);
    cpu_shared_access(c);
    if (stopchk_is_state(p->sim, word))
        stopchk_tested(c, word);
    cpu_line(c, word, 4, 0);
    return (cpu_load_shared32(c, word) >> nr) & 1u;
}

/* atomic_t: the relaxed ones as set_bit (x86's locked op costs and drains
 * as smp_mb(); arm64's is relaxed), the value-returning ones fully ordered
 * as test_and_set_bit. */
static uint32_t cpu_atomic(struct platform *p, uint32_t *word, int ordered,
                           uint32_t (*op)(uint32_t old, uint32_t a, uint32_t b), uint32_t a,
                           uint32_t b)
{
    struct sim_cpu *c = p->cpu;
    int locked = ordered || c->stb.cfg.order == STBUF_X86;
    uint32_t old, v;

    cpu_enter_here(c, 0);
    cpu_shared_access(c);
    if (locked)
        cpu_fence(c, c->cpu.costs.smp_mb_ns, OBS_OP_SMP_MB);
    if (ordered) {
        stopchk_mb(c);
        cpu_load_fence(c);
    }
    memcpy(&old, word, 4); /* the newest value: the line is the CPU's */
    v = op(old, a, b);
    cpu_wait_until(&c->cpu, stbuf_room_at(&c->stb, c->cpu.now), CPU_DRAIN);
    cpu_store_shared(c, word, &v, 4);
    cpu_line(c, word, 4, 1);
    if (locked)
        cpu_drain(c);
    return old;
}

static uint32_t atomic_op_add(uint32_t old, uint32_t a, uint32_t b)
{
    (void)b;
    return old + a;
}

static uint32_t atomic_op_cmpxchg(uint32_t old, uint32_t a, uint32_t b)
{
    return old == a ? b : old;
}

uint32_t plat_atomic_fetch_add32(struct platform *p, uint32_t *word, uint32_t delta, int ordered)
{
    return cpu_atomic(p, word, ordered, atomic_op_add, delta, 0);
}

uint32_t plat_atomic_cmpxchg32(struct platform *p, uint32_t *word, uint32_t old, uint32_t val)
{
    return cpu_atomic(p, word, 1, atomic_op_cmpxchg, old, val);
}

void plat_smp_mb__after_atomic(struct platform *p)
{
    struct sim_cpu *c = p->cpu;

    if (c->stb.cfg.order == STBUF_WEAK) {
        plat_smp_mb(p);
        return;
    }
    cpu_enter_here(c, 1);
    stopchk_mb(c); /* x86: the locked op before it was the barrier */
}

void plat_bug(struct platform *p, const uint32_t *state, const char *kind, const char *detail)
{
    struct sim_cpu *c = p->cpu;

    cpu_enter_here(c, 0);
    sim_violation_at(p->sim, stopchk_queue(p->sim, state), kind, c->cpu.now, -1, "kernel",
                     detail);
}

/* ------------------------------------------------------------ the rest */

void plat_cpu_work(struct platform *p, enum plat_work what, unsigned n)
{
    struct sim_cpu *c = p->cpu;
    const struct cpu_costs *k = &c->cpu.costs;
    double ns = 0;

    switch (what) {
    case PLAT_WORK_XMIT_PKT: ns = k->xmit_pkt_ns; break;
    case PLAT_WORK_CLEAN_DESC: ns = k->clean_desc_ns; break;
    case PLAT_WORK_CLEAN_POLL: ns = k->clean_poll_ns; break;
    case PLAT_WORK_QDISC_PKT: ns = k->qdisc_pkt_ns; break;
    }
    cpu_enter_here(c, 0);
    cpu_charge(&c->cpu, CPU_DRIVER, ns * n);
    /* A cleanup pass polls until a descriptor it reclaims says otherwise. */
    if (what != PLAT_WORK_CLEAN_DESC)
        c->poll_ps += c->poll_open;
    c->poll_open = what == PLAT_WORK_CLEAN_POLL ? sim_ns_to_ps(ns * n) : 0;
    if (__builtin_expect(c->sim->obs != NULL, 0)) {
        static const enum obs_op ops[] = {
            [PLAT_WORK_XMIT_PKT] = OBS_OP_XMIT, [PLAT_WORK_CLEAN_DESC] = OBS_OP_CLEAN_DESC,
            [PLAT_WORK_CLEAN_POLL] = OBS_OP_CLEAN_POLL, [PLAT_WORK_QDISC_PKT] = OBS_OP_QDISC};
        cpu_op(c, ops[what], c->cpu.now - sim_ns_to_ps(ns * n), n);
    }
}

void *plat_dma_alloc(struct platform *p, size_t size, size_t align, dma_addr_t *dma)
{
    uint64_t bus;
    void *v = host_mem_alloc(&p->sim->mem, size, align, &bus);

    if (v)
        *dma = bus;
    return v;
}

void plat_dma_unmap(struct platform *p, dma_addr_t dma, size_t len, unsigned dir)
{
    struct sim_cpu *c = p->cpu;

    cpu_enter_here(c, 0);
    cpu_shared_access(c); /* the cleanup's loop: a place to be preempted */
    dmachk_unmap(&p->sim->dk, dma, len, dir, c->cpu.now);
    ownchk_set_unmap(&p->sim->ck, dma, len, c->cpu.now);
    if (p->sim->obs)
        obs_unmap(p->sim->obs, c->id, c->cpu.now, dma);
}

/* For the scheduler: drained WC lines leave even while the driver waits. */
void sim_cpu_flush_wc(struct sim_cpu *c)
{
    cpu_emit_wc(c);
}
