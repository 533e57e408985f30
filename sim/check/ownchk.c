/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ownchk.c - the descriptor-ownership checker (see ownchk.h).
 */
#include "check/ownchk.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nictx_hw.h"
#include "txq_reg.h"

enum { OWNCHK_FREE, OWNCHK_WRITTEN, OWNCHK_DEVICE };
enum { W_ADDR = 1, W_LEN = 2, W_OWNER = 4 };

static void ownchk_say(struct ownchk *c, const char *kind, sim_ps_t t, long desc,
                       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void ownchk_say(struct ownchk *c, const char *kind, sim_ps_t t, long desc,
                       const char *fmt, ...)
{
    char detail[200];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    char access[64];

    if (c->acc_len)
        snprintf(access, sizeof(access), "%s 0x%" PRIx64 " %u B", c->acc_what, c->acc_addr,
                 c->acc_len);
    else
        snprintf(access, sizeof(access), "%s", c->acc_what ? c->acc_what : "");
    c->count++;
    c->report(c->ctx, c->id, kind, t, desc, access, detail);
}

/* Name the access the next reports are about (formatted only if one is
 * made: this runs for every store). */
static void ownchk_access(struct ownchk *c, const char *what, uint64_t addr, unsigned len)
{
    c->acc_what = what;
    c->acc_addr = addr;
    c->acc_len = len;
}

static double ns(sim_ps_t t) { return (double)t / 1000.0; }

/* Add `d` (+1 or -1) to the lines of host memory slot s's buffer covers,
 * so a CPU write can tell at once whether it hits a device-owned buffer;
 * a set's lines also keep whose buffers they are. */
static void ownchk_buf_ref(struct ownchk *c, const struct ownchk_slot *s, int d)
{
    struct ownchk_bufs *b = c->bufs;
    uint64_t base = c->mem->base, lo = s->buf, hi = s->buf + s->len;
    size_t l, end;

    if (!b->refs || s->len == 0 || hi <= base || lo >= base + b->nlines * 64)
        return;
    lo = lo < base ? 0 : lo - base;
    hi = hi - base > b->nlines * 64 ? b->nlines * 64 : hi - base;
    end = (size_t)((hi + 63) / 64);
    if (d > 0 && b->queue) {
        for (l = (size_t)(lo / 64); l < end; l++) {
            if (b->refs[l] == 0)
                b->queue[l] = (uint8_t)c->id;
            else if (b->queue[l] != c->id)
                b->queue[l] = OWNCHK_BUF_MIXED;
            b->refs[l]++;
        }
        return;
    }
    for (l = (size_t)(lo / 64); l < end; l++)
        b->refs[l] = (uint32_t)((int64_t)b->refs[l] + d);
}

/* Is the ring full of the device's descriptors now?  Books the time it
 * was. */
static void ownchk_ring_level(struct ownchk *c, sim_ps_t t)
{
    int full = c->size && c->published - c->completed + 1 >= c->size;

    if (full == c->full)
        return;
    if (c->full && t > c->full_since)
        c->full_ps += t - c->full_since;
    c->full_since = t;
    c->full = full;
}

void ownchk_ring_restart(struct ownchk *c, sim_ps_t t)
{
    c->full_ps = 0;
    c->full_since = t;
}

sim_ps_t ownchk_ring_full_ps(const struct ownchk *c, sim_ps_t end)
{
    return c->full_ps + (c->full && end > c->full_since ? end - c->full_since : 0);
}

/* One more descriptor is the device's as of t. */
static void ownchk_publish(struct ownchk *c, struct ownchk_slot *s, sim_ps_t t)
{
    if (s->state != OWNCHK_DEVICE) /* a tail lapping the ring takes no second ref */
        ownchk_buf_ref(c, s, +1);
    s->state = OWNCHK_DEVICE;
    s->owed = 1;
    s->seq = c->published;
    c->published++;
    if (t > c->published_t)
        c->published_t = t;
    *c->pub_moved |= 1ull << c->id;
    ownchk_ring_level(c, t);
}

void ownchk_init(struct ownchk *c, const struct host_mem *mem, ownchk_report_fn report,
                 void *ctx)
{
    memset(c, 0, sizeof(*c));
    c->mem = mem;
    c->report = report;
    c->ctx = ctx;
    c->bufs = &c->own_bufs;
    c->pub_moved = &c->own_pub_moved;
    c->cq_log2 = NICTX_REG_CQ_LOG2_RESET;
}

void ownchk_bufs_free(struct ownchk_bufs *b)
{
    free(b->refs);
    free(b->queue);
    b->refs = NULL;
    b->queue = NULL;
}

void ownchk_destroy(struct ownchk *c)
{
    free(c->slot);
    c->slot = NULL;
    ownchk_bufs_free(&c->own_bufs);
}

static int ownchk_owner_proto(const struct ownchk *c)
{
    return c->proto == NICTX_PROTO_OWNER || c->proto == NICTX_PROTO_WC;
}

/* The owner bit the device expects on `pass` (1, 2, ...). */
static unsigned ownchk_phase(uint32_t pass) { return pass & 1u; }

/* ------------------------------------------------------- register snoop */

static void ownchk_enable(struct ownchk *c)
{
    struct ownchk_bufs *b = c->bufs;

    if (!b->refs) {
        b->nlines = c->mem->size / 64;
        b->refs = calloc(b->nlines ? b->nlines : 1, sizeof(*b->refs));
        if (b->tagged && b->refs) {
            b->queue = calloc(b->nlines ? b->nlines : 1, sizeof(*b->queue));
            if (!b->queue)
                ownchk_bufs_free(b); /* no memory: no buffer checks */
        }
    } else {
        /* The device gives back the buffers of the ring it had. */
        for (uint32_t i = 0; c->slot && i < c->nslot; i++)
            if (c->slot[i].state == OWNCHK_DEVICE)
                ownchk_buf_ref(c, &c->slot[i], -1);
    }
    free(c->slot);
    c->size = 1u << c->ring_log2;
    c->slot = calloc(c->size, sizeof(*c->slot));
    if (!c->slot)
        c->size = 0; /* no memory: the checker stays off */
    c->nslot = c->size;
    c->pub = c->done = c->unmap_next = 0;
    c->done_t = 0;
    c->written_min = SIM_PS_NEVER; /* no slot written */
    c->completed = c->published; /* the device gave every descriptor back */
    c->kick_vis = 0;
    c->wc_any = 0;
}

static void ownchk_reg(struct ownchk *c, uint32_t off, uint32_t v, sim_ps_t t);

/* A register write by its register-page name `off`, reported as a write
 * to BAR0 `shown` (the queue block's offset for queue q > 0). */
void ownchk_mmio_as(struct ownchk *c, uint32_t off, uint32_t shown, uint64_t val,
                    unsigned len, sim_ps_t t)
{
    ownchk_access(c, "MWr BAR0", shown, len);
    ownchk_reg(c, off, (uint32_t)val, t);
    if (len == 8)
        ownchk_reg(c, off + 4, (uint32_t)(val >> 32), t);
}

void ownchk_mmio(struct ownchk *c, uint32_t off, uint64_t val, unsigned len, sim_ps_t t)
{
    ownchk_access(c, "MWr BAR0", off, len);
    ownchk_reg(c, off, (uint32_t)val, t);
    if (len == 8)
        ownchk_reg(c, off + 4, (uint32_t)(val >> 32), t);
}

/* ------------------------------------------------------------ publishing */

static const char *ownchk_late_field(const struct ownchk_slot *s)
{
    return s->addr_vis > s->len_vis ? "address" : "length";
}

/* Check a descriptor's contents as it is handed to the device. */
static void ownchk_contents(struct ownchk *c, uint32_t i, sim_ps_t t)
{
    const struct ownchk_slot *s = &c->slot[i];

    if (s->len == 0)
        ownchk_say(c, "desc_zero_len", t, i,
                   "descriptor %u handed to the device with length 0", i);
    else if (s->len > NICTX_DESC_LEN_MASK)
        ownchk_say(c, "desc_len_too_big", t, i,
                   "descriptor %u handed to the device with length %u (> %u)", i, s->len,
                   NICTX_DESC_LEN_MASK);
    else if (!host_mem_ptr(c->mem, s->buf, s->len))
        ownchk_say(c, "desc_addr_unmapped", t, i,
                   "descriptor %u points at 0x%" PRIx64 " (+%u B), outside the DMA memory "
                   "the driver allocated", i, s->buf, s->len);
}

/* Tail doorbell: slots [pub, tail) pass to the device at t. */
static void ownchk_tail(struct ownchk *c, uint32_t tail, sim_ps_t t)
{
    uint32_t mask = c->size - 1;

    if (tail >= c->size) {
        ownchk_say(c, "tail_out_of_range", t, -1,
                   "tail doorbell %u beyond the ring of %u descriptors", tail, c->size);
        return;
    }
    for (; c->pub != tail; c->pub = (c->pub + 1) & mask) {
        struct ownchk_slot *s = &c->slot[c->pub];
        if (s->state != OWNCHK_WRITTEN || (s->written & (W_ADDR | W_LEN)) != (W_ADDR | W_LEN)) {
            ownchk_say(c, "tail_past_written", t, c->pub,
                       "tail %u publishes descriptor %u, which the driver has not written "
                       "since its last completion: tail past the last written descriptor?",
                       tail, c->pub);
        } else if (s->addr_vis > t || s->len_vis > t) {
            ownchk_say(c, "doorbell_before_desc", t, c->pub,
                       "doorbell (tail %u) left the CPU at %.1f ns, before descriptor %u's %s "
                       "store was visible (%.1f ns): missing wmb() before the doorbell?",
                       tail, ns(t), c->pub, ownchk_late_field(s),
                       ns(s->addr_vis > s->len_vis ? s->addr_vis : s->len_vis));
        }
        if (s->state == OWNCHK_WRITTEN)
            ownchk_contents(c, c->pub, t);
        ownchk_publish(c, s, t);
    }
    /* Every slot the device's, the one at the tail included: the device
     * reads tail == head as an empty ring. */
    if (c->slot[tail].state == OWNCHK_DEVICE && c->done == tail)
        ownchk_say(c, "ring_overfill", t, tail,
                   "tail %u hands the device all %u slots while descriptor %u is still its: "
                   "tail == head reads as an empty ring (at most size - 1 may be outstanding: "
                   "next_to_use must stop one short of next_to_clean)", tail, c->size, tail);
}

/* Owner protocol: a doorbell is a kick; the owner bits it announces must
 * already be visible. */
static void ownchk_kick(struct ownchk *c, sim_ps_t t)
{
    if (c->kick_vis > t)
        ownchk_say(c, "doorbell_before_owner", t, c->kick_slot,
                   "doorbell left the CPU at %.1f ns, before descriptor %u's owner bit was "
                   "visible (%.1f ns): missing wmb() before the doorbell?",
                   ns(t), c->kick_slot, ns(c->kick_vis));
    c->kick_vis = 0;
}

static void ownchk_reg(struct ownchk *c, uint32_t off, uint32_t v, sim_ps_t t)
{
    switch (off) {
    case NICTX_REG_RING_BASE_LO:
        c->ring_base = (c->ring_base & ~0xffffffffull) | v;
        break;
    case NICTX_REG_RING_BASE_HI:
        c->ring_base = (c->ring_base & 0xffffffffull) | (uint64_t)v << 32;
        break;
    case NICTX_REG_RING_LOG2:
        c->ring_log2 = v >= 3 && v <= 16 ? v : c->ring_log2; /* as the device checks */
        break;
    case NICTX_REG_PROTO:
        c->proto = v;
        break;
    case NICTX_REG_CPL_MODE:
        c->cpl_mode = v & NICTX_CPL_MODE_VALUE_MASK;
        break;
    case NICTX_REG_WB_ADDR_LO:
        c->wb_addr = (c->wb_addr & ~0xffffffffull) | (v & ~3u);
        break;
    case NICTX_REG_WB_ADDR_HI:
        c->wb_addr = (c->wb_addr & 0xffffffffull) | (uint64_t)v << 32;
        break;
    case NICTX_REG_CQ_BASE_LO:
        c->cq_base = (c->cq_base & ~0xffffffffull) | (v & NICTX_CQ_BASE_LO_ADDR_MASK);
        break;
    case NICTX_REG_CQ_BASE_HI:
        c->cq_base = (c->cq_base & 0xffffffffull) | (uint64_t)v << 32;
        break;
    case NICTX_REG_CQ_LOG2:
        c->cq_log2 = v >= 3 && v <= 16 ? v : c->cq_log2; /* as the device checks */
        break;
    case NICTX_REG_CTRL:
        /* Enabling starts the ring afresh.  A queue reset takes every
         * descriptor back from the device: the checker is off until the
         * next enable (the driver may clear the ring meanwhile). */
        if ((v & NICTX_CTRL_ENABLE) && c->ring_log2)
            ownchk_enable(c);
        else if (v & NICTX_CTRL_RESET)
            c->size = 0;
        break;
    case NICTX_REG_TAIL:
        if (!c->size)
            break;
        if (ownchk_owner_proto(c))
            ownchk_kick(c, t);
        else
            ownchk_tail(c, v, t);
        break;
    default:
        break;
    }
}

/* ---------------------------------------------------------------- stores */

/* Which slot a ring address falls in, or -1. */
static long ownchk_slot_of(const struct ownchk *c, uint64_t addr)
{
    if (!c->size || addr < c->ring_base ||
        addr - c->ring_base >= (uint64_t)c->size * NICTX_DESC_BYTES)
        return -1;
    return (long)((addr - c->ring_base) / NICTX_DESC_BYTES);
}

/* The owner word of slot i was stored with `bit`, visible at vis. */
static void ownchk_owner(struct ownchk *c, uint32_t i, unsigned bit, sim_ps_t t, sim_ps_t vis)
{
    struct ownchk_slot *s = &c->slot[i];

    if (bit != ownchk_phase(s->pass)) {
        ownchk_say(c, "owner_wrong_phase", t, i,
                   "descriptor %u on pass %u written with owner bit %u; the device expects %u "
                   "on this pass: phase not flipped on wrap?",
                   i, s->pass, bit, ownchk_phase(s->pass));
        return;
    }
    if ((s->written & (W_ADDR | W_LEN)) != (W_ADDR | W_LEN))
        ownchk_say(c, "owner_before_body", t, i,
                   "descriptor %u's owner bit was set before its body was written", i);
    else if (s->addr_vis > vis || s->len_vis > vis)
        ownchk_say(c, "owner_before_body", vis, i,
                   "descriptor %u's owner bit became visible at %.1f ns, before its %s "
                   "(%.1f ns): missing dma_wmb() before the owner bit?",
                   i, ns(vis), ownchk_late_field(s),
                   ns(s->addr_vis > s->len_vis ? s->addr_vis : s->len_vis));
    ownchk_contents(c, i, vis);
    s->owner_vis = vis;
    ownchk_publish(c, s, vis);
    if (vis >= c->kick_vis) {
        c->kick_vis = vis;
        c->kick_slot = i;
    }
}

void ownchk_store(struct ownchk *c, uint64_t addr, const void *data, unsigned len, sim_ps_t t,
                  sim_ps_t vis)
{
    long i = ownchk_slot_of(c, addr);
    unsigned at, end;
    uint8_t b[16];
    struct ownchk_slot *s;

    if (i < 0)
        return;
    ownchk_access(c, "CPU store", addr, len);
    s = &c->slot[i];
    at = (unsigned)((addr - c->ring_base) % NICTX_DESC_BYTES);
    if (s->state == OWNCHK_DEVICE && !ownchk_owner_proto(c) && (uint32_t)i == c->done &&
        c->slot[(i - 1) & (c->size - 1)].state != OWNCHK_FREE) {
        ownchk_say(c, "ring_overfill", t, i,
                   "descriptor %ld written at %.1f ns while the device still owns it, every "
                   "other slot in use: size descriptors in flight, one too many (next_to_use "
                   "must stop one short of next_to_clean)", i, ns(t));
        return;
    }
    if (s->state == OWNCHK_DEVICE) {
        ownchk_say(c, "desc_reuse", t, i,
                   "descriptor %ld rewritten at %.1f ns while the device still owns it (not "
                   "completed): reused before its completion?", i, ns(t));
        return;
    }
    if (s->state == OWNCHK_FREE) {
        uint32_t pass = s->pass + 1;
        if (s->owed)
            ownchk_say(c, "unmap_missing", t, i,
                       "descriptor %ld rewritten at %.1f ns, but the buffer it carried last "
                       "pass (0x%" PRIx64 ", %u B) was never unmapped: dma_unmap_single() "
                       "missing in the cleanup (a mapping leak)", i, ns(t), s->buf, s->len);
        memset(s, 0, sizeof(*s));
        s->pass = pass;
        s->state = OWNCHK_WRITTEN;
        s->wr_t = t;
        if (t < c->written_min)
            c->written_min = t;
    }
    memset(b, 0, sizeof(b));
    memcpy(b, &s->buf, 8);
    memcpy(b + 8, &s->len, 4);
    end = at + len < 16 ? at + len : 16;
    memcpy(b + at, data, end - at);
    if (end > at) { /* the fields bytes [at, end) fall in */
        if (at < 8) { s->written |= W_ADDR; if (vis > s->addr_vis) s->addr_vis = vis; }
        if (at < 12 && end > 8) { s->written |= W_LEN; if (vis > s->len_vis) s->len_vis = vis; }
        if (end > 12) s->written |= W_OWNER;
    }
    memcpy(&s->buf, b, 8);
    {
        uint32_t lf;
        memcpy(&lf, b + 8, 4);
        s->len = lf & 0xffffu;
    }
    if (ownchk_owner_proto(c) && at + len > 12) {
        uint32_t w;
        memcpy(&w, (const uint8_t *)data + (12 - at), 4);
        ownchk_owner(c, (uint32_t)i, (w & NICTX_DESC_OWNER) ? 1u : 0u, t, vis);
    }
}

/* Does [addr, addr + len) touch a line of a device-owned buffer? */
static int ownchk_buf_owned(const struct ownchk *c, uint64_t addr, size_t len)
{
    const struct ownchk_bufs *b = c->bufs;
    uint64_t base = c->mem->base, l, end;

    if (!b->refs || len == 0 || addr < base || addr - base >= b->nlines * 64)
        return 0;
    end = (addr - base + len + 63) / 64;
    for (l = (addr - base) / 64; l < end && l < b->nlines; l++)
        if (b->refs[l])
            return 1;
    return 0;
}

/* The CPU wrote [addr, addr + len) at t, on a line of a device-owned
 * buffer: report the slot of c whose buffer it is, if one is.  1 if so. */
int ownchk_touch_slot(struct ownchk *c, uint64_t addr, size_t len, sim_ps_t t, int unmap)
{
    uint32_t j, n;

    ownchk_access(c, unmap ? "dma_unmap" : "CPU write", addr, (unsigned)len);
    /* Which one: device-owned slots run from the oldest uncompleted one. */
    for (j = c->done, n = 0; n < c->size && c->slot[j].state == OWNCHK_DEVICE;
         j = (j + 1) & (c->size - 1), n++) {
        const struct ownchk_slot *s = &c->slot[j];
        if (s->buf < addr + len && addr < s->buf + s->len && unmap) {
            ownchk_say(c, "reclaim_past_head", t, j,
                       "the cleanup unmapped descriptor %u's buffer (0x%" PRIx64 ", %u B) at "
                       "%.1f ns, but the device has completed only up to descriptor %u: "
                       "reclaimed past the head the device reported?", j, s->buf, s->len,
                       ns(t), c->done);
            return 1;
        }
        if (s->buf < addr + len && addr < s->buf + s->len) {
            ownchk_say(c, "buf_overwrite", t, j,
                       "payload buffer of descriptor %u (0x%" PRIx64 ", %u B) written by the "
                       "CPU at %.1f ns while the device owns it: buffer reused before its "
                       "completion?", j, s->buf, s->len, ns(t));
            return 1;
        }
    }
    return 0;
}

void ownchk_touch(struct ownchk *c, uint64_t addr, size_t len, sim_ps_t t)
{
    if (ownchk_buf_owned(c, addr, len))
        ownchk_touch_slot(c, addr, len, t, 0);
}

void ownchk_unmap(struct ownchk *c, uint64_t addr, size_t len, sim_ps_t t)
{
    /* A completed slot that still owes the unmap is the one it is for,
     * though the buffer may be in flight again already: a cleanup may free
     * the skb before it unmaps (ixgbe_clean_tx_irq does), and another CPU
     * post the buffer again in between. */
    if (!ownchk_unmap_completed(c, addr) && ownchk_buf_owned(c, addr, len))
        ownchk_touch_slot(c, addr, len, t, 1);
}

int ownchk_unmap_completed(struct ownchk *c, uint64_t addr)
{
    uint32_t mask = c->size - 1, j = c->unmap_next;

    if (!c->size)
        return 0;
    /* The cleanup unmaps in ring order: look from the oldest owed slot up
     * to the device's head. */
    for (uint32_t n = 0; n < c->size && j != c->done; n++, j = (j + 1) & mask) {
        struct ownchk_slot *s = &c->slot[j];
        if (s->owed && s->state == OWNCHK_FREE && s->buf == addr) {
            s->owed = 0;
            while (c->unmap_next != c->done && !c->slot[c->unmap_next].owed)
                c->unmap_next = (c->unmap_next + 1) & mask;
            return 1;
        }
    }
    return 0;
}

uint32_t ownchk_carried(const struct ownchk *c)
{
    uint32_t n = 0;

    for (uint32_t i = 0; i < c->size; i++)
        n += c->slot[i].state != OWNCHK_FREE || c->slot[i].owed;
    return n;
}

int ownchk_unpublished(struct ownchk *c, sim_ps_t t, sim_ps_t age)
{
    sim_ps_t oldest = SIM_PS_NEVER;

    /* (called whenever a CPU waits, for every queue: no slot can be
     * stuck while the oldest written one is younger than age) */
    if (!c->size || c->written_min == SIM_PS_NEVER || c->written_min + age > t)
        return 0;
    for (uint32_t n = 0, j = c->done; n < c->size; n++, j = (j + 1) & (c->size - 1)) {
        const struct ownchk_slot *s = &c->slot[j];
        if (s->state != OWNCHK_WRITTEN)
            continue;
        if (s->wr_t < oldest)
            oldest = s->wr_t;
        if ((s->written & (W_ADDR | W_LEN)) != (W_ADDR | W_LEN) || s->wr_t + age > t)
            continue;
        ownchk_access(c, "queue stuck", 0, 0);
        ownchk_say(c, "desc_unpublished", t, j,
                   "descriptor %u was written at %.1f ns and never handed to the device (%s); "
                   "the queue has been stuck since: a doorbell or owner bit the driver skipped?",
                   j, ns(s->wr_t),
                   ownchk_owner_proto(c) ? "its owner bit was never set" :
                                           "no tail doorbell moved past it");
        return 1;
    }
    c->written_min = oldest;
    return 0;
}

int ownchk_unannounced(struct ownchk *c, sim_ps_t t, sim_ps_t age)
{
    /* The owner protocol's kick is a TAIL write; under WC the block is the
     * doorbell. */
    if (!c->size || c->proto != NICTX_PROTO_OWNER || c->kick_vis == 0 || c->kick_vis + age > t ||
        c->slot[c->done].state != OWNCHK_DEVICE)
        return 0;
    ownchk_access(c, "queue stuck", 0, 0);
    ownchk_say(c, "doorbell_missing", t, c->kick_slot,
               "descriptor %u's owner bit became visible at %.1f ns and no doorbell has "
               "announced it since; the device, waiting for one, never fetched it (a kick "
               "missing after the owner bits?)", c->kick_slot, ns(c->kick_vis));
    return 1;
}

/* Producer order of slot i's current contents. */
static uint64_t ownchk_seq(const struct ownchk *c, uint32_t i)
{
    return (uint64_t)c->slot[i].pass * c->size + i;
}

/* Which of a slot's fields differs between a WC block and the ring, or
 * NULL if none. */
static const char *ownchk_wc_differs(const uint8_t *blk, const uint8_t *ring)
{
    if (memcmp(blk, ring, 8) != 0)
        return "address";
    if (memcmp(blk + 8, ring + 8, 4) != 0)
        return "length";
    if (memcmp(blk + 12, ring + 12, 4) != 0)
        return "owner word";
    return NULL;
}

/* A whole WC block for slot idx reached the device at t: it must duplicate
 * the ring descriptor the driver wrote this pass, and that descriptor must
 * already be visible (the device may read the ring copy, and the block
 * stands for it: mlx4 wmb() before mlx4_bf_copy).  0 if it duplicates no
 * descriptor (its order then means nothing). */
static int ownchk_wc_block(struct ownchk *c, uint16_t idx, const uint8_t *blk, sim_ps_t t)
{
    const struct ownchk_slot *s = &c->slot[idx];
    const uint8_t *ring = host_mem_ptr(c->mem, c->ring_base + (uint64_t)idx * NICTX_DESC_BYTES,
                                       NICTX_DESC_BYTES);
    const char *field = ring ? ownchk_wc_differs(blk, ring) : NULL;
    sim_ps_t late = s->addr_vis > s->len_vis ? s->addr_vis : s->len_vis;

    if (s->state == OWNCHK_FREE || (s->written & (W_ADDR | W_LEN)) != (W_ADDR | W_LEN)) {
        ownchk_say(c, "wc_mismatch", t, idx,
                   "BlueFlame block names descriptor %u, which the driver has not written "
                   "since its last completion: the copy of the wrong slot?", idx);
        return 0;
    }
    if (field) {
        ownchk_say(c, "wc_mismatch", t, idx,
                   "BlueFlame block for descriptor %u differs from the ring descriptor in its "
                   "%s: the copy must be the descriptor as written, with its owner bit", idx,
                   field);
        return 0;
    }
    if (s->owner_vis > late)
        late = s->owner_vis;
    if (late > t)
        ownchk_say(c, "wc_before_desc", t, idx,
                   "BlueFlame block for descriptor %u reached the device at %.1f ns, before the "
                   "ring descriptor it duplicates was visible (%.1f ns): missing wmb() before "
                   "the WC copy?", idx, ns(t), ns(late));
    return 1;
}

void ownchk_wc_piece(struct ownchk *c, uint32_t off, const uint8_t *data, unsigned len,
                     sim_ps_t t)
{
    unsigned buf = (off - NICTX_WC_BASE) / NICTX_WC_BUF_SIZE;
    uint16_t idx;
    uint64_t seq;

    if (!c->size || off < NICTX_WC_BASE || off >= NICTX_WC_BASE + NICTX_WC_BUFS * NICTX_WC_BUF_SIZE)
        return;
    ownchk_access(c, "MWr BAR0", off, len);
    if ((off & (NICTX_WC_BLOCK - 1)) != 0 || len != NICTX_WC_BLOCK) {
        ownchk_say(c, "wc_torn", t, -1,
                   "WC buffer %u reached the link in pieces (%u B at offset 0x%x): a partial "
                   "write-combining drain; the device falls back to the ring copy", buf, len,
                   off);
        return;
    }
    memcpy(&idx, data + NICTX_WC_IDX_OFF, 2);
    if (idx >= c->size)
        return; /* the device refuses it; nothing to order */
    if (c->wc_any && buf == c->wc_last_buf)
        ownchk_say(c, "wc_reuse", t, idx,
                   "BlueFlame block for descriptor %u written into WC buffer %u, which the "
                   "previous block also used and the device may still be reading: alternate "
                   "the two buffers (mlx4: bf->offset ^= bf->buf_size)", idx, buf);
    c->wc_last_buf = buf;
    if (!ownchk_wc_block(c, idx, data, t))
        return;
    seq = ownchk_seq(c, idx);
    if (c->wc_any && seq < c->wc_last_seq)
        ownchk_say(c, "wc_reordered", t, idx,
                   "BlueFlame block for descriptor %u reached the link after the one for "
                   "descriptor %u: missing wmb() (sfence) after the WC copy?",
                   idx, (unsigned)(c->wc_last_seq % c->size));
    if (!c->wc_any || seq > c->wc_last_seq)
        c->wc_last_seq = seq;
    c->wc_any = 1;
}

void ownchk_wc_unfenced(struct ownchk *c, sim_ps_t t)
{
    ownchk_access(c, "WC buffer", 0, 0);
    ownchk_say(c, "wc_unfenced", t, -1,
               "the driver went on at %.1f ns with a BlueFlame block still in a WC buffer: "
               "missing wmb() (sfence) after the WC copy? (the device gets it late, or out "
               "of order)", ns(t));
}

void ownchk_wc_merge(struct ownchk *c, uint32_t off, sim_ps_t t)
{
    ownchk_access(c, "WC store BAR0", off, 8);
    ownchk_say(c, "wc_merged", t, -1,
               "a BlueFlame copy at 0x%x merged into a WC buffer whose previous block had "
               "not drained (that block is lost): missing wmb() (sfence) after the WC copy?",
               off);
}

/* Is part of [addr, addr + len) still invisible at t in any store buffer? */
static int ownchk_pending(const struct stbuf *const *sb, unsigned nsb, uint64_t addr,
                          size_t len, sim_ps_t t, sim_ps_t *vis)
{
    unsigned i;

    for (i = 0; i < nsb; i++)
        if (stbuf_pending(sb[i], addr, len, t, vis))
            return 1;
    return 0;
}

int ownchk_desc_read(struct ownchk *c, uint64_t addr, unsigned len, sim_ps_t t,
                     const struct stbuf *const *sb, unsigned nsb)
{
    long i = ownchk_slot_of(c, addr);
    unsigned k, n = len / NICTX_DESC_BYTES;
    sim_ps_t vis;

    ownchk_access(c, "MRd", addr, len);
    for (k = 0; i >= 0 && k < n; k++) {
        uint32_t j = ((uint32_t)i + k) & (c->size - 1);
        const struct ownchk_slot *s = &c->slot[j];
        uint64_t a = c->ring_base + (uint64_t)j * NICTX_DESC_BYTES;
        if (s->state != OWNCHK_DEVICE)
            continue;
        if (ownchk_owner_proto(c) && s->owner_vis > t)
            continue; /* the device sees it as not owned yet: it stops there */
        if (s->seq >= c->fetched)
            c->fetched = s->seq + 1;
        if (ownchk_pending(sb, nsb, a, 12, t, &vis))
            ownchk_say(c, "stale_desc_read", t, j,
                       "the device read descriptor %u at %.1f ns, %s, but part of its body "
                       "became visible only at %.1f ns: it used stale contents", j, ns(t),
                       ownchk_owner_proto(c) ? "with its owner bit visible" :
                                               "after the doorbell", ns(vis));
    }
    return i >= 0 ? 0 : -1;
}

/* Is every slot from done up to head the device's?  A head report moves
 * done on over the device's slots only.  One that reaches the host behind
 * a later one from another source (a completion write built when it fell
 * due, overtaken on the link by the answer to a HEAD read: docs/device.md,
 * Completions and interrupts) lies behind done, and the walk to it meets a
 * slot the device does not own: it is ignored whole, as is a head past a
 * slot the device was never given.  A report k behind looks ahead only
 * while the device owns size - k slots from done. */
static int ownchk_head_ahead(const struct ownchk *c, uint32_t head)
{
    for (uint32_t j = c->done; j != head; j = (j + 1) & (c->size - 1))
        if (c->slot[j].state != OWNCHK_DEVICE)
            return 0;
    return 1;
}

void ownchk_head(struct ownchk *c, uint32_t head, sim_ps_t t)
{
    if (!c->size || head >= c->size || !ownchk_head_ahead(c, head))
        return;
    while (c->done != head) {
        ownchk_buf_ref(c, &c->slot[c->done], -1);
        c->slot[c->done].state = OWNCHK_FREE;
        c->done = (c->done + 1) & (c->size - 1);
        c->done_t = t;
        c->completed++;
    }
    ownchk_ring_level(c, t);
}

int ownchk_all_completed(const struct ownchk *c, sim_ps_t *since)
{
    if (!c->size || c->slot[c->done].state == OWNCHK_DEVICE)
        return 0;
    for (uint32_t i = 0; i < c->size; i++)
        if (c->slot[i].state != OWNCHK_FREE)
            return 0;
    *since = c->done_t;
    return 1;
}

void ownchk_dev_write(struct ownchk *c, uint64_t addr, const void *data, unsigned len,
                      sim_ps_t t)
{
    if (addr == c->wb_addr && c->wb_addr && len >= 4) {
        uint32_t head;
        memcpy(&head, data, 4);
        ownchk_head(c, head, t);
    } else if (c->cpl_mode == NICTX_CPL_MODE_DESC_WB && len == 4) {
        long i = ownchk_slot_of(c, addr);
        uint32_t w;
        memcpy(&w, data, 4);
        if (i >= 0 && (w & NICTX_DESC_DD)) /* the slot after the DD is the head */
            ownchk_head(c, ((uint32_t)i + 1) & (c->size - 1), t);
    } else if (c->cpl_mode == NICTX_CPL_MODE_DESC_WB_FULL && len >= NICTX_DESC_BYTES) {
        /* whole descriptors: the last one's DD (word 1's upper half) */
        long i = ownchk_slot_of(c, addr + len - NICTX_DESC_BYTES);
        uint32_t w;
        memcpy(&w, (const uint8_t *)data + len - 4, 4);
        if (i >= 0 && (w & NICTX_DESC_DD))
            ownchk_head(c, ((uint32_t)i + 1) & (c->size - 1), t);
    } else if (c->cpl_mode == NICTX_CPL_MODE_CQ && len == 8 && addr >= c->cq_base &&
               addr - c->cq_base < (uint64_t)NICTX_CQE_BYTES << c->cq_log2) {
        uint64_t e;
        memcpy(&e, data, 8);
        ownchk_head(c, (uint32_t)(((e & NICTX_CQE_IDX_MASK) + 1) & (c->size - 1)), t);
    }
}
