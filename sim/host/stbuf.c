/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stbuf.c - one CPU's store buffer and WC buffers (see stbuf.h).
 */
#include "host/stbuf.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static uint64_t stbuf_rand(struct stbuf *b)
{
    /* splitmix64: small, fast, and good enough for drain choices. */
    uint64_t z = (b->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [0, max_ps]. */
static sim_ps_t stbuf_rand_ps(struct stbuf *b, sim_ps_t max_ps)
{
    return max_ps ? stbuf_rand(b) % (max_ps + 1) : 0;
}

int stbuf_init(struct stbuf *b, const struct stbuf_cfg *cfg)
{
    size_t nlines = cfg->mem_size / STBUF_WC_LINE + 1;

    memset(b, 0, sizeof(*b));
    if (cfg->window < 1 || cfg->window > STBUF_WINDOW_MAX || cfg->capacity < 1 ||
        !(cfg->hit_ns >= 0) || !(cfg->miss_ns >= 0) || !(cfg->wc_drain_max_ns >= 0))
        return -1;
    b->cfg = *cfg;
    b->rng = cfg->seed ^ 0x5354425546ull; /* "STBUF": apart from other streams */
    b->cap = 256;
    b->pend = malloc(b->cap * sizeof(*b->pend));
    b->owned = calloc((nlines + 7) / 8, 1);
    if (!b->pend || !b->owned) {
        stbuf_destroy(b);
        return -1;
    }
    return 0;
}

void stbuf_destroy(struct stbuf *b)
{
    free(b->pend);
    free(b->owned);
    b->pend = NULL;
    b->owned = NULL;
}

/* ------------------------------------------------------------ line state */

static int stbuf_line(const struct stbuf *b, uint64_t addr, size_t *line)
{
    if (addr < b->cfg.mem_base || addr - b->cfg.mem_base >= b->cfg.mem_size)
        return 0;
    *line = (size_t)((addr - b->cfg.mem_base) / STBUF_WC_LINE);
    return 1;
}

/* Service time of a store to addr; the CPU owns the line afterwards. */
static sim_ps_t stbuf_service(struct stbuf *b, uint64_t addr)
{
    size_t l;

    if (!stbuf_line(b, addr, &l))
        return sim_ns_to_ps(b->cfg.hit_ns);
    if (b->owned[l / 8] & (1u << (l % 8)))
        return sim_ns_to_ps(b->cfg.hit_ns);
    b->owned[l / 8] |= (uint8_t)(1u << (l % 8));
    b->st.misses++;
    return sim_ns_to_ps(b->cfg.miss_ns);
}

void stbuf_snoop(struct stbuf *b, uint64_t addr, size_t len)
{
    size_t l, last;

    if (len == 0 || !stbuf_line(b, addr, &l) || !stbuf_line(b, addr + len - 1, &last))
        return;
    for (; l <= last; l++)
        b->owned[l / 8] &= (uint8_t)~(1u << (l % 8));
}

/* ---------------------------------------------------------- store buffer */

static int stbuf_overlaps(const struct stbuf_store *s, uint64_t addr, size_t len)
{
    return s->addr < addr + len && addr < s->addr + s->len;
}

/* Weak ordering: the constraints a new store of [addr, addr + len) must
 * meet.  Only stores to the same bytes keep program order (coherence):
 * two stores to different halves of one word may pass each other, as
 * ARMv8 allows. */
static sim_ps_t stbuf_weak_floor(const struct stbuf *b, uint64_t addr, unsigned len)
{
    sim_ps_t floor = b->win_floor;
    uint64_t q = b->seq > b->cfg.window ? b->seq - b->cfg.window + 1 : 0;

    /* Every store `window` or more before this one is visible by win_floor
     * (stbuf_weak_window_slide): only the pending ones of the last
     * window - 1 can raise the floor.  (Scanning them, not every pending
     * store, keeps a long run of stores without retirement - a queue
     * reset clearing its rings - linear.) */
    for (; q < b->seq; q++) {
        const struct stbuf_recent *r = &b->recent[q % b->cfg.window];
        if (r->seq == q && r->live && r->vis > floor && r->addr < addr + len &&
            addr < r->addr + r->len)
            floor = r->vis;
    }
    return floor;
}

/* The store `window` places before the new one leaves the window: the new
 * store (and every later one) may not become visible before it. */
static void stbuf_weak_window_slide(struct stbuf *b)
{
    unsigned slot = (unsigned)(b->seq % b->cfg.window);

    if (b->seq >= b->cfg.window && b->win[slot] > b->win_floor)
        b->win_floor = b->win[slot];
}

static int stbuf_push(struct stbuf *b, const struct stbuf_store *s)
{
    size_t i;

    if (b->npend == b->cap) {
        struct stbuf_store *n = realloc(b->pend, 2 * b->cap * sizeof(*n));
        if (!n)
            return -1;
        b->pend = n;
        b->cap *= 2;
    }
    /* Sorted by (vis, seq): insert from the back (x86 appends). */
    i = b->npend;
    while (i > 0 && b->pend[i - 1].vis > s->vis) {
        b->pend[i] = b->pend[i - 1];
        i--;
    }
    b->pend[i] = *s;
    b->npend++;
    b->nkey += (s->addr >> 63) & 1u;
    return 0;
}

/* Exploration: the extra delay of the store about to be issued (number
 * b->seq + 1): heavy-tailed (Pareto, shape 1) up to tail_ns with
 * probability tail_per_256 / 256, or all of it for hold_store.  No random
 * draw when exploration is off, so a plain run's choices are unchanged. */
static sim_ps_t stbuf_held(struct stbuf *b, uint64_t addr)
{
    sim_ps_t max = sim_ns_to_ps(b->cfg.tail_ns);
    unsigned per_256 = addr & (1ull << 63) ? b->cfg.cpu_tail_per_256 : b->cfg.tail_per_256;

    if (max == 0)
        return 0;
    if (b->seq + 1 == b->cfg.hold_store)
        return max;
    if (stbuf_rand(b) % 256 >= per_256)
        return 0;
    double u = (double)((stbuf_rand(b) >> 11) + 1) * 0x1.0p-53; /* (0, 1] */
    double d = (double)sim_ns_to_ps(b->cfg.hit_ns + 1.0) / u;
    return d >= (double)max ? max : (sim_ps_t)d;
}

sim_ps_t stbuf_store(struct stbuf *b, uint64_t addr, void *mem, const void *data, unsigned len,
                     sim_ps_t now)
{
    struct stbuf_store s;
    sim_ps_t svc = stbuf_service(b, addr), vis;

    assert(len >= 1 && len <= 8);
    svc += stbuf_held(b, addr);
    if (b->cfg.order == STBUF_X86) {
        vis = now + svc;
        if (vis < b->order_floor)
            vis = b->order_floor;
        b->order_floor = vis;
    } else {
        sim_ps_t floor;
        stbuf_weak_window_slide(b);
        floor = stbuf_weak_floor(b, addr, len);
        vis = now + svc + stbuf_rand_ps(b, sim_ns_to_ps(b->cfg.miss_ns));
        if (vis < floor)
            vis = floor;
        b->win[b->seq % b->cfg.window] = vis;
        b->recent[b->seq % b->cfg.window] =
            (struct stbuf_recent){.addr = addr, .seq = b->seq, .vis = vis, .len = (uint8_t)len,
                                  .live = 1};
    }
    memset(&s, 0, sizeof(s));
    s.addr = addr;
    s.vis = vis;
    s.seq = b->seq++;
    s.len = (uint8_t)len;
    memcpy(s.old, mem, len);
    if (data)
        memcpy(mem, data, len);
    if (stbuf_push(b, &s) != 0)
        abort(); /* out of memory in the middle of a run: nothing sane to do */
    if (vis > b->max_vis)
        b->max_vis = vis;
    if (addr & (1ull << 63))
        b->st.cpu_stores++; /* driver state (STBUF_CPU_KEY), not DMA memory */
    else
        b->st.stores++;
    return vis;
}

/* The first pending store still invisible at t: pend is sorted by
 * visibility, so a binary search (the list grows without bound while the
 * device reads nothing, as during a queue reset's ring clearing). */
static size_t stbuf_first_after(const struct stbuf *b, sim_ps_t t)
{
    size_t lo = 0, hi = b->npend;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->pend[mid].vis > t)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

sim_ps_t stbuf_room_at(const struct stbuf *b, sim_ps_t now)
{
    size_t first, busy;

    if (b->npend < b->cfg.capacity) /* room whatever has left */
        return now;
    /* Entries visible by now have left the buffer. */
    first = stbuf_first_after(b, now);
    busy = b->npend - first;
    if (busy < b->cfg.capacity)
        return now;
    /* Wait for the oldest-visible entry still in the buffer to drain. */
    return b->pend[first].vis;
}

sim_ps_t stbuf_drained_at(const struct stbuf *b, sim_ps_t now)
{
    return b->max_vis > now ? b->max_vis : now;
}

sim_ps_t stbuf_drained_cpu_at(const struct stbuf *b, sim_ps_t now)
{
    sim_ps_t t = now;

    for (size_t i = 0; i < b->npend; i++)
        if ((b->pend[i].addr & (1ull << 63)) && b->pend[i].vis > t)
            t = b->pend[i].vis;
    return t;
}

sim_ps_t stbuf_mmio_depart(struct stbuf *b, sim_ps_t now)
{
    if (b->cfg.order == STBUF_WEAK)
        return now;
    if (b->order_floor < now)
        b->order_floor = now;
    return b->order_floor;
}

void stbuf_clamp(struct stbuf *b, sim_ps_t t)
{
    int moved = 0;

    for (size_t i = 0; i < b->npend; i++)
        if (b->pend[i].vis > t) {
            b->pend[i].vis = t;
            moved = 1;
        }
    if (!moved)
        return;
    /* Keep pend sorted by (vis, seq): the clamped tail joins the stores
     * already visible at t. */
    for (size_t i = 1; i < b->npend; i++) {
        struct stbuf_store x = b->pend[i];
        size_t k = i;
        while (k > 0 && (b->pend[k - 1].vis > x.vis ||
                         (b->pend[k - 1].vis == x.vis && b->pend[k - 1].seq > x.seq))) {
            b->pend[k] = b->pend[k - 1];
            k--;
        }
        b->pend[k] = x;
    }
    if (b->max_vis > t)
        b->max_vis = t;
    if (b->order_floor > t)
        b->order_floor = t;
    if (b->win_floor > t)
        b->win_floor = t;
    for (unsigned i = 0; i < STBUF_WINDOW_MAX; i++)
        if (b->win[i] > t)
            b->win[i] = t;
}

void stbuf_retire(struct stbuf *b, sim_ps_t t)
{
    size_t n = 0;

    while (n < b->npend && b->pend[n].vis <= t) {
        const struct stbuf_store *s = &b->pend[n++];
        struct stbuf_recent *r = &b->recent[s->seq % b->cfg.window];
        b->nkey -= (s->addr >> 63) & 1u;
        if (b->cfg.order == STBUF_WEAK && r->seq == s->seq)
            r->live = 0; /* one of the last `window`: no longer pending */
    }
    if (n) {
        memmove(b->pend, b->pend + n, (b->npend - n) * sizeof(*b->pend));
        b->npend -= n;
    }
}

/* Undo one store in buf (the device view of [addr, addr + len)). */
static void stbuf_undo(const struct stbuf_store *s, uint64_t addr, uint8_t *buf, size_t len)
{
    uint64_t lo = s->addr > addr ? s->addr : addr;
    uint64_t hi = s->addr + s->len < addr + len ? s->addr + s->len : addr + len;

    if (lo < hi)
        memcpy(buf + (lo - addr), s->old + (lo - s->addr), hi - lo);
}

void stbuf_device_view_pending(const struct stbuf *b, uint64_t addr, uint8_t *buf, size_t len,
                               sim_ps_t t)
{
    uint64_t below = UINT64_MAX;
    size_t first;

    first = stbuf_first_after(b, t);
    /* Newest first, so that where several invisible stores overlap the
     * oldest one's `old` bytes win. */
    for (;;) {
        const struct stbuf_store *next = NULL;
        size_t i;
        for (i = first; i < b->npend; i++) {
            const struct stbuf_store *s = &b->pend[i];
            if (s->vis > t && s->seq < below && (!next || s->seq > next->seq) &&
                stbuf_overlaps(s, addr, len))
                next = s;
        }
        if (!next)
            return;
        stbuf_undo(next, addr, buf, len);
        below = next->seq;
    }
}

int stbuf_pending(const struct stbuf *b, uint64_t addr, size_t len, sim_ps_t t, sim_ps_t *vis)
{
    sim_ps_t latest = 0;
    int any = 0;
    size_t i;

    for (i = 0; i < b->npend; i++) {
        if (b->pend[i].vis > t && stbuf_overlaps(&b->pend[i], addr, len)) {
            any = 1;
            if (b->pend[i].vis > latest)
                latest = b->pend[i].vis;
        }
    }
    if (vis)
        *vis = latest;
    return any;
}

/* ------------------------------------------------------------ WC buffers */

#define STBUF_FULL UINT64_MAX

static struct stbuf_wc_line *stbuf_wc_find(struct stbuf *b, uint64_t line_off)
{
    unsigned i;

    for (i = 0; i < b->nwc; i++)
        if (b->wc[i].off == line_off)
            return &b->wc[i];
    return NULL;
}

/* Queue one drained piece for the link. */
static void stbuf_wc_out(struct stbuf *b, const struct stbuf_wc_line *l, unsigned from,
                         unsigned to, sim_ps_t t)
{
    struct stbuf_wc_line *o;

    assert(b->nout < sizeof(b->out) / sizeof(b->out[0]));
    o = &b->out[b->nout++];
    o->off = l->off + from;
    o->written = to - from; /* a piece: `written` holds its length */
    o->due = t;
    memcpy(o->data, l->data + from, to - from);
    b->st.wc_pieces++;
}

/* Drain line i at t: one piece per run of written bytes; free the slot. */
static void stbuf_wc_drain(struct stbuf *b, unsigned i, sim_ps_t t)
{
    struct stbuf_wc_line *l = &b->wc[i];
    unsigned k = 0;

    while (k < STBUF_WC_LINE) {
        unsigned end;
        if (!(l->written >> k & 1)) {
            k++;
            continue;
        }
        for (end = k; end < STBUF_WC_LINE && (l->written >> end & 1); end++)
            ;
        stbuf_wc_out(b, l, k, end, t);
        k = end;
    }
    b->st.wc_lines++;
    b->wc[i] = b->wc[--b->nwc];
}

int stbuf_wc_store(struct stbuf *b, uint32_t off, uint64_t val, sim_ps_t now)
{
    uint64_t line_off = off & ~(uint64_t)(STBUF_WC_LINE - 1);
    unsigned at = off & (STBUF_WC_LINE - 1);
    struct stbuf_wc_line *l = stbuf_wc_find(b, line_off);
    int merged = 0;

    b->st.wc_stores++;
    if (!l) {
        if (b->nwc == STBUF_WC_LINES)
            stbuf_wc_drain(b, 0, now); /* evict the oldest buffer, partial or not */
        l = &b->wc[b->nwc++];
        memset(l, 0, sizeof(*l));
        l->off = line_off;
        l->due = SIM_PS_NEVER;
    } else if (l->written == STBUF_FULL) {
        /* Full and not drained yet: the new copy merges into it. */
        merged = 1;
        b->st.wc_merges++;
        l->written = 0;
        l->due = SIM_PS_NEVER;
    }
    memcpy(l->data + at, &val, 8);
    l->written |= 0xffull << at;
    if (l->written == STBUF_FULL)
        l->due = now + stbuf_rand_ps(b, sim_ns_to_ps(b->cfg.wc_drain_max_ns));
    return merged;
}

void stbuf_wc_flush(struct stbuf *b, sim_ps_t now)
{
    while (b->nwc)
        stbuf_wc_drain(b, 0, now);
}

sim_ps_t stbuf_wc_next(const struct stbuf *b)
{
    sim_ps_t t = SIM_PS_NEVER;
    unsigned i;

    for (i = 0; i < b->nwc; i++)
        if (b->wc[i].due < t)
            t = b->wc[i].due;
    return t;
}

void stbuf_wc_collect(struct stbuf *b, sim_ps_t t)
{
    sim_ps_t next;

    while ((next = stbuf_wc_next(b)) <= t) {
        unsigned i = 0;
        while (b->wc[i].due != next)
            i++;
        stbuf_wc_drain(b, i, next);
    }
}

const struct stbuf_wc_line *stbuf_wc_peek(const struct stbuf *b)
{
    return b->nout ? &b->out[0] : NULL;
}

void stbuf_wc_pop(struct stbuf *b)
{
    if (b->nout) {
        memmove(b->out, b->out + 1, (b->nout - 1) * sizeof(b->out[0]));
        b->nout--;
    }
}
