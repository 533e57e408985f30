/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plain_access.c - the accesses of driver code compiled with the kernel
 * layer (driver/linux/, docs/own-driver.md), as the memory model sees them
 * (driver/platform.h, plat_access).
 *
 * The compiler's instrumentation announces each load and store just before
 * it is made, with its address and size but not its value
 * (driver/linux/kcsan.c).  By where it points:
 *  - DMA memory (host memory, host_mem.h): a store is a plat_store of that
 *    size: the store buffer holds it from the device until it drains, the
 *    ownership checkers see it, it costs store_ns and its cache line; a
 *    load is a plat_load: performed early under exploration, load_ns.
 *    Marked (READ_ONCE / WRITE_ONCE) or not, the same.
 *  - Driver state the CPUs share (the registry below: the queues' struct
 *    txq, registered by the harness with their cache-line regions, and the
 *    layer's kzalloc'd memory): READ_ONCE as plat_read_once32 and
 *    WRITE_ONCE as plat_write_once32, at any size; a plain load as a
 *    READ_ONCE too (a switch point for exploration, what another CPU has
 *    made visible, its cache line), except that it counts as a stop's
 *    re-check only after the barrier or at a location learnt from a
 *    re-check (sim/check/stopchk.h); a plain store enters a store buffer
 *    of its own, the CPU's lane: visible to other CPUs at its drain time
 *    (held longer under exploration), after every earlier store under
 *    TSO, by the next barrier always, and never waited for: a barrier
 *    makes the lane's stores visible at once instead of waiting (its cost
 *    is the model's for the stores the device and marked accesses make,
 *    unchanged by how many plain stores a driver makes of its state).
 *    With one CPU no other CPU reads the lane, and there is none; with
 *    one CPU, no exploration and no memory history, a plain access of
 *    driver state is the stop checker's only (access_plain_alone: the
 *    rest would change no figure).
 *  - The iomem cookies (linux/io.h): a plain access to MMIO is a driver
 *    bug that faults; it is named first.
 *  - Anything else (the stack, the driver's private memory): nothing.
 *    The kcpu's windows (sim_kcpu_windows, kcpu.h) keep most of these
 *    from being announced at all.
 * Since the value is not known when the access is announced, the store's
 * value reaches the ownership checkers, and a load that was shown another
 * value than memory's (an early load, another CPU's invisible store) has
 * memory's own bytes put back, when the access is settled: at the CPU's
 * next announced access or platform call, or when its coroutine yields,
 * whichever comes first; the compiler has made the access by then, and no
 * other CPU, nor the device, runs in between (the driver's private
 * accesses in between touch neither the bytes nor the checkers).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/sim_world.h"

_Static_assert(SIM_SHR_FEW == KCPU_WINDOWS - 1, "a window for each of a few regions");

/* ------------------------------------------------------------ registry */

/* Of many regions, the map of their span (sim_world.h, struct sim):
 * rebuilt at the first lookup after a change; until then the kcpus
 * announce every access in the span (sim_kcpu_windows). */
#define SIM_SHR_IN KCPU_MAP_MODELLED

static __attribute__((noinline, cold)) void shr_map_build(struct sim *s)
{
    unsigned shift = s->shr_shift;
    uintptr_t g = 0; /* granules before g: mapped, and none holds region i */

    for (unsigned i = 0; i < s->nshr; i++) {
        uintptr_t first = (s->shr[i].lo - s->shr_lo) >> shift;
        uintptr_t last = (s->shr[i].hi - 1 - s->shr_lo) >> shift;
        for (; g < first; g++) /* between regions i - 1 and i */
            s->shr_map[g] = i;
        for (; g <= last; g++) /* region i's (from the one i - 1 ends in) */
            s->shr_map[g] = i | SIM_SHR_IN;
    }
    s->shr_stale = 0;
    for (unsigned c = 0; c < s->ncpu; c++)
        sim_kcpu_windows(s, &s->cpus[c]);
}

/* The regions changed: their bounds, and room for their map.  0, or -1
 * (out of memory). */
static int shr_bounds(struct sim *s)
{
    s->shr_lo = s->nshr ? s->shr[0].lo : 0;
    s->shr_hi = s->nshr ? s->shr[s->nshr - 1].hi : 0;
    s->shr_stale = s->nshr > SIM_SHR_FEW;
    if (s->shr_stale) {
        uintptr_t last = s->shr_hi - s->shr_lo - 1;
        unsigned shift = SIM_SHR_GRAIN_LOG2;
        while ((last >> shift) >= SIM_SHR_MAP_MAX)
            shift++;
        s->shr_shift = shift;
        if ((last >> shift) >= s->shr_map_cap) {
            size_t cap = (last >> shift) + 1;
            uint32_t *m = realloc(s->shr_map, cap * sizeof(*m));
            if (!m)
                return -1;
            s->shr_map = m;
            s->shr_map_cap = cap;
        }
    }
    for (unsigned i = 0; i < s->ncpu; i++)
        sim_kcpu_windows(s, &s->cpus[i]);
    return 0;
}

/* Where the CPU's driver code has its accesses announced (kcpu.h): host
 * memory and the registry's regions, or their span when they are more
 * than the windows left, less the granules of the span's map that hold
 * none; the rest never reaches plat_access. */
void sim_kcpu_windows(const struct sim *s, struct sim_cpu *c)
{
    struct kcpu *k = &c->kcpu;

    k->windowed = 1;
    for (unsigned i = 0; i < KCPU_WINDOWS; i++)
        k->win_lo[i] = k->win_len[i] = 0;
    k->win_map = kcpu_map_all;
    k->win_shift = KCPU_MAP_ALL_SHIFT;
    k->win_lo[0] = (uintptr_t)s->mem.buf;
    k->win_len[0] = s->mem.size;
    if (s->nshr <= SIM_SHR_FEW) {
        for (unsigned i = 0; i < s->nshr; i++) {
            k->win_lo[1 + i] = s->shr[i].lo;
            k->win_len[1 + i] = s->shr[i].hi - s->shr[i].lo;
        }
    } else {
        k->win_lo[1] = s->shr_lo;
        k->win_len[1] = s->shr_hi - s->shr_lo;
        if (!s->shr_stale) {
            k->win_map = s->shr_map;
            k->win_shift = s->shr_shift;
        }
    }
}

int sim_shared_add(struct sim *s, const void *p, size_t len, int cl)
{
    uintptr_t lo = (uintptr_t)p, hi = lo + len;
    unsigned i;

    if (len == 0)
        return 0;
    if (s->nshr + 1 >= SIM_SHR_IN) /* an index of the map never reaches its flag */
        return -1;
    if (s->nshr == s->shr_cap) {
        unsigned cap = s->shr_cap ? 2 * s->shr_cap : 16;
        struct sim_shared *n = realloc(s->shr, cap * sizeof(*n));
        if (!n)
            return -1;
        s->shr = n;
        s->shr_cap = cap;
    }
    for (i = s->nshr; i > 0 && s->shr[i - 1].lo > lo; i--)
        s->shr[i] = s->shr[i - 1];
    s->shr[i] = (struct sim_shared){lo, hi, cl};
    s->nshr++;
    return shr_bounds(s);
}

static void sim_shared_del(struct sim *s, const void *p)
{
    for (unsigned i = 0; i < s->nshr; i++) {
        if (s->shr[i].lo != (uintptr_t)p)
            continue;
        memmove(&s->shr[i], &s->shr[i + 1], (s->nshr - i - 1) * sizeof(s->shr[0]));
        s->nshr--;
        (void)shr_bounds(s); /* a smaller span: the map has room */
        return;
    }
}

void sim_shared_destroy(struct sim *s)
{
    free(s->shr);
    free(s->shr_map);
    s->shr = NULL;
    s->shr_map = NULL;
    s->nshr = s->shr_cap = 0;
    s->shr_map_cap = 0;
}

static inline const struct sim_shared *shr_find(struct sim *s, uintptr_t a)
{
    const struct sim_shared *r;
    uintptr_t off;
    uint32_t e;

    if (s->nshr <= SIM_SHR_FEW) { /* a few looked at one by one */
        for (unsigned i = 0; i < s->nshr; i++)
            if (a - s->shr[i].lo < s->shr[i].hi - s->shr[i].lo)
                return &s->shr[i];
        return NULL;
    }
    off = a - s->shr_lo;
    if (off >= s->shr_hi - s->shr_lo)
        return NULL;
    if (s->shr_stale)
        shr_map_build(s);
    e = s->shr_map[off >> s->shr_shift];
    if (!(e & SIM_SHR_IN))
        return NULL;
    for (r = &s->shr[e & ~SIM_SHR_IN]; r->hi <= a; r++) /* ends: a < shr_hi */
        ;
    return r->lo <= a ? r : NULL;
}

const struct sim_shared *sim_shared_find(struct sim *s, const void *addr)
{
    return shr_find(s, (uintptr_t)addr);
}

void plat_shared(struct platform *p, const void *addr, size_t len)
{
    if (len == 0)
        sim_shared_del(p->sim, addr);
    else if (sim_shared_add(p->sim, addr, len, 0) != 0)
        sim_fail(p->sim, "out of memory registering driver state");
}

dma_addr_t plat_dma_map(struct platform *p, const void *cpu, size_t len, unsigned dir)
{
    dma_addr_t bus =
        host_mem_ptr(&p->sim->mem, host_mem_bus(&p->sim->mem, cpu), len ? len : 1) == cpu
            ? host_mem_bus(&p->sim->mem, cpu)
            : 0;

    if (bus)
        dmachk_map(&p->sim->dk, bus, len, dir);
    return bus;
}

/* ------------------------------------------------------------- settle */

/* The plain loads' line accesses waiting, in order. */
static void settle_lines(struct sim_cpu *c)
{
    struct sim_pending *pd = &c->pend;
    unsigned n = pd->nline;

    pd->nline = 0;
    for (unsigned i = 0; i < n; i++)
        cpu_line(c, pd->line_at[i], pd->line_len[i], 0);
}

/* A plain load's line access, to wait (the oldest made if they are many). */
static void defer_line(struct sim_cpu *c, const void *addr, unsigned len)
{
    struct sim_pending *pd = &c->pend;

    if (pd->nline == SIM_PEND_LINES) {
        cpu_line(c, pd->line_at[0], pd->line_len[0], 0);
        memmove(pd->line_at, pd->line_at + 1, (SIM_PEND_LINES - 1) * sizeof(pd->line_at[0]));
        memmove(pd->line_len, pd->line_len + 1, (SIM_PEND_LINES - 1) * sizeof(pd->line_len[0]));
        pd->nline--;
    }
    pd->line_at[pd->nline] = addr;
    pd->line_len[pd->nline] = len;
    pd->nline++;
}

/* A plain store of [addr, addr + len): a waiting load of the same bytes is
 * its read for ownership, not an access of its own. */
static void merge_line(struct sim_cpu *c, const void *addr, unsigned len)
{
    struct sim_pending *pd = &c->pend;

    for (unsigned i = 0; i < pd->nline; i++) {
        if (pd->line_at[i] != addr || pd->line_len[i] != len)
            continue;
        pd->nline--;
        memmove(pd->line_at + i, pd->line_at + i + 1, (pd->nline - i) * sizeof(pd->line_at[0]));
        memmove(pd->line_len + i, pd->line_len + i + 1, (pd->nline - i) * sizeof(pd->line_len[0]));
        return;
    }
}

static void settle_kind(struct sim_cpu *c)
{
    struct sim_pending *pd = &c->pend;
    struct sim *s = c->sim;

    if (pd->kind == SIM_PEND_LOAD) {
        memcpy(pd->addr, pd->real, pd->len);
    } else if (pd->kind == SIM_PEND_STORE) {
        unsigned half = pd->len > 8 ? 8 : pd->len;
        for (unsigned k = 0; k * half < pd->len; k++)
            ownchk_set_store(&s->ck, pd->bus + k * half, pd->addr + k * half, half, pd->t[k],
                             pd->vis[k]);
        cpu_sync_published(s, c);
    }
    pd->kind = SIM_PEND_NONE;
}

void sim_plain_settle(struct sim_cpu *c)
{
    if (c->pend.nline)
        settle_lines(c);
    if (c->pend.kind)
        settle_kind(c);
}

/* ---------------------------------------------------------------- lane */

void sim_lane_clamp(struct sim_cpu *c)
{
    struct sim *s = c->sim;

    if (!c->lane_up || c->lane.npend == 0)
        return;
    stbuf_clamp(&c->lane, c->cpu.now);
    if (s->hist_up) {
        memhist_clamp(&s->hist, c->id, c->lane_hist, c->cpu.now);
        c->lane_hist = s->hist.n;
    }
}

/* Forget the lane's stores every CPU can see: visible before the earliest
 * CPU clock (a view is taken at its CPU's clock). */
static void lane_retire(struct sim_cpu *c)
{
    const struct sim *s = c->sim;
    sim_ps_t t = c->cpu.now;

    for (unsigned i = 0; i < s->ncpu; i++)
        if (s->cpus[i].cpu.now < t)
            t = s->cpus[i].cpu.now;
    stbuf_retire(&c->lane, t);
}

/* A plain store of `len` bytes of shared driver state, the value written
 * next by the caller. */
static void lane_store(struct sim_cpu *c, void *dst, unsigned len)
{
    struct sim *s = c->sim;
    uint8_t old[8];
    sim_ps_t vis;

    lane_retire(c);
    memcpy(old, dst, len);
    if (c->stb.cfg.order == STBUF_X86 && c->lane.order_floor < c->stb.order_floor)
        c->lane.order_floor = c->stb.order_floor; /* TSO: after every earlier store */
    vis = stbuf_store(&c->lane, STBUF_CPU_KEY(dst), dst, NULL, len, c->cpu.now);
    s->key_cpus |= 1ull << c->id;
    if (vis > s->key_vis)
        s->key_vis = vis;
    if (s->hist_up)
        memhist_write(&s->hist, dst, old, len, c->id, vis, 0);
}

/* ------------------------------------------------------------ accesses */

/* Show the load of [addr, addr + len) the bytes `view` (len <= 16):
 * memory holds them until the load is settled. */
static void pend_load(struct sim_cpu *c, void *addr, const uint8_t *view, unsigned len)
{
    if (memcmp(addr, view, len) == 0)
        return;
    c->pend.kind = SIM_PEND_LOAD;
    c->pend.addr = addr;
    c->pend.len = len;
    memcpy(c->pend.real, addr, len);
    memcpy(addr, view, len);
}

static void access_dma(struct sim_cpu *c, void *addr, unsigned len, unsigned how)
{
    unsigned half = len > 8 ? 8 : len;
    uint8_t view[16];

    if (how & PLAT_ACC_WRITE) {
        struct sim_pending *pd = &c->pend;
        sim_ps_t t[2] = {0, 0}, vis[2] = {0, 0};
        for (unsigned k = 0; k * half < len; k++)
            vis[k] = cpu_store_mem(c, (uint8_t *)addr + k * half, NULL, half, &t[k]);
        pd->kind = SIM_PEND_STORE;
        pd->addr = addr;
        pd->len = len;
        pd->bus = host_mem_bus(&c->sim->mem, addr);
        memcpy(pd->t, t, sizeof(t));
        memcpy(pd->vis, vis, sizeof(vis));
        return;
    }
    for (unsigned k = 0; k * half < len; k++)
        cpu_load_mem(c, (uint8_t *)addr + k * half, view + k * half, half);
    pend_load(c, addr, view, len);
}

static void access_shared(struct sim_cpu *c, const struct sim_shared *r, void *addr,
                          unsigned len, unsigned how)
{
    struct sim *s = c->sim;
    unsigned half = len > 8 ? 8 : len;
    uint8_t view[16];

    if (how & PLAT_ACC_MARKED) /* READ_ONCE, WRITE_ONCE: as the platform's calls */
        cpu_enter(c, 0);
    else
        cpu_enter_plain(c);
    cpu_shared_access(c);
    if (how & PLAT_ACC_WRITE) {
        for (unsigned k = 0; k * half < len; k++) {
            uint8_t *d = (uint8_t *)addr + k * half;
            if (how & PLAT_ACC_MARKED) {
                cpu_wait_until(&c->cpu, stbuf_room_at(&c->stb, c->cpu.now), CPU_DRAIN);
                cpu_store_shared(c, d, NULL, half);
            } else {
                if (c->lane_up)
                    lane_store(c, d, half);
                stopchk_store_plain(c, d);
            }
        }
    } else if (how & PLAT_ACC_MARKED) {
        if (stopchk_is_state(s, addr))
            stopchk_xmit_tested(c, addr);
        else
            stopchk_load(c, addr);
    } else if ((c->stop_word != NULL && addr != c->stop_word) || c->recheck_plain) {
        stopchk_load_plain(c, addr);
    }
    if (r->cl && how == 0) { /* a plain load: its line access waits (sim_pending) */
        defer_line(c, addr, len);
    } else if (r->cl) {
        cpu_line(c, addr, len, (how & PLAT_ACC_WRITE) != 0);
    }
    if (!(how & PLAT_ACC_WRITE) && (s->ncpu > 1 || s->hist_up)) {
        for (unsigned k = 0; k * half < len; k++)
            cpu_load_shared(c, (uint8_t *)addr + k * half, view + k * half, half);
        pend_load(c, addr, view, len);
    }
}

/* A plain access through an __iomem cookie (linux/io.h) faults: say why
 * first. */
static void access_iomem(const void *addr)
{
    fprintf(stderr,
            "nictx: driver code made a plain load or store at %p, an __iomem address "
            "(BAR0): MMIO goes through readl/writel/__iowrite64_copy (linux/io.h)\n",
            addr);
    abort();
}

/* The stop checker's part of a plain store of 16 bytes (two of 8). */
static __attribute__((noinline)) void store_plain16(struct sim_cpu *c, void *addr)
{
    stopchk_store_plain(c, addr);
    stopchk_store_plain(c, (uint8_t *)addr + 8);
}

/* A plain access of driver state on the only CPU, nothing explored and no
 * history kept (c->plain_full clear): no other CPU reads its stores or
 * holds its line (cl_access would cost nothing, and the counts it keeps
 * are not reported), no schedule has a point there, and the world catches
 * up at the next platform call as well.  The stop checker's part only: the
 * same figures as in full, for a few instructions (the default run's
 * two dozen plain accesses of driver state a packet; docs/own-driver.md,
 * Speed). */
static inline void access_plain_alone(struct sim_cpu *c, void *addr, size_t len, unsigned how)
{
    c->shared_n++;
    if (how == PLAT_ACC_WRITE) { /* each call last (a tail call) */
        if (len > 8)
            store_plain16(c, addr);
        else
            stopchk_store_plain(c, addr);
    } else if ((c->stop_word != NULL && addr != c->stop_word) || c->recheck_plain) {
        stopchk_load_plain(c, addr);
    }
}

/* The same with an access before it to settle first. */
static __attribute__((noinline)) void access_plain_settle(struct sim_cpu *c, void *addr, size_t len,
                                                          unsigned how)
{
    settle_kind(c);
    access_plain_alone(c, addr, len, how);
}

static __attribute__((noinline)) void access_any(struct platform *p, const struct sim_shared *r,
                                                 void *addr, size_t len, unsigned how)
{
    struct sim_cpu *c = p->cpu;
    struct sim *s = p->sim;
    uintptr_t a = (uintptr_t)addr;
    int dma = !r && a - (uintptr_t)s->mem.buf < s->mem.size;

    /* x++: a plain load's line access becomes the store's read for
     * ownership, if nothing the model sees came between (the compiler may
     * put private accesses there). */
    if (c->pend.nline && how == PLAT_ACC_WRITE && r)
        merge_line(c, addr, (unsigned)len);
    if (c->pend.nline && (dma || (r && how != 0)))
        settle_lines(c);
    if (c->pend.kind)
        settle_kind(c);
    if (dma)
        access_dma(c, addr, (unsigned)len, how);
    else if (r)
        access_shared(c, r, addr, (unsigned)len, how);
    else if ((a >> 48) == 0xd1c0u || (a >> 48) == 0xd1c1u)
        access_iomem(addr);
}

void plat_access(struct platform *p, void *addr, size_t len, unsigned how)
{
    struct sim_cpu *c = p->cpu;
    struct sim *s = p->sim;
    uintptr_t a = (uintptr_t)addr;
    const struct sim_shared *r = shr_find(s, a);

    /* The common cases first, in few instructions: the driver's private
     * memory (beside the regions in a granule of their map), and driver
     * state on one CPU. */
    if (!r && a - (uintptr_t)s->mem.buf >= s->mem.size && (a >> 49) != (0xd1c0u >> 1))
        return;
    if (!r || c->plain_full || how > PLAT_ACC_WRITE)
        access_any(p, r, addr, len, how);
    else if (c->pend.kind)
        access_plain_settle(c, addr, len, how);
    else
        access_plain_alone(c, addr, len, how);
}
