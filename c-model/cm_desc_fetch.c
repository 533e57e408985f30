/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_desc_fetch.c - the descriptor fetcher of the C model
 * (cm_desc_fetch.h), after the contract in rtl/nictx_desc_fetch.sv's
 * header.  Widths as the RTL's: slot counts are SlotW + 1 bits (modulo
 * twice the buffer: pmask), slots SlotW (smask), the retirement FIFOs'
 * pointers log2(MaxReads) + 1 (fpmask), ring indices 16, ring sizes and
 * distances 17.
 */
#include "cm_desc_fetch.h"
#include "nictx_regs_gen.h"

#include <string.h>
#ifdef CM_DESC_FETCH_QUIET_CHECK
#include <stdio.h>
#include <stdlib.h>
#endif

#define M16 0xFFFFu
/* DESC_INFLIGHT's field (inflight_i's bits). */
#define INFLIGHT_MASK ((1u << NICTX_DESC_INFLIGHT_VALUE_WIDTH) - 1)
#define M17 0x1FFFFu

static bool has(uint64_t m, unsigned q)
{
    return (m >> q & 1u) != 0;
}

/* The ring's index mask (16 bits) and size (17 bits: 0 beyond 2^16). */
static unsigned ring_mask(unsigned log2)
{
    return log2 >= 16 ? M16 : (1u << log2) - 1;
}
static unsigned ring_size(unsigned log2)
{
    return log2 > 16 ? 0 : 1u << log2;
}

/* Slot of queue q's pointer p (its region's base, the offset in it; rlog
 * <= SlotW: QUEUES <= NumQueues <= BufDescs). */
static inline unsigned slot_of(const struct cm_desc_fetch *d, unsigned q, unsigned p,
                               unsigned rlog, unsigned rmask)
{
    return (((q << d->slotw) >> rlog) | (p & rmask)) & d->smask;
}

/* A region's slots (BufDescs >> rlog, SlotW + 1 bits) and its offset mask. */
static inline unsigned region_size(const struct cm_desc_fetch *d, unsigned rlog)
{
    return (d->slots >> rlog) & d->pmask;
}
static inline unsigned region_mask(const struct cm_desc_fetch *d, unsigned rsize)
{
    return (rsize - 1) & d->smask;
}

/* The retirement FIFO's fill (prim_fifo_sync's depth_o). */
static inline unsigned nf_fill(const struct cm_desc_fetch *d)
{
    return (d->nf_wr - d->nf_rd) & d->fpmask;
}

static bool derr_at(const struct cm_desc_fetch *d, unsigned s)
{
    return (d->derr[s >> 6] >> (s & 63) & 1u) != 0;
}

/* The state part of the quiet check (cm_desc_fetch.qs). */
static uint8_t qs_of(const struct cm_desc_fetch *d)
{
    const unsigned nf_depth = nf_fill(d);
    const bool retire = nf_depth != 0 && (d->nf[d->nf_rd & d->fimask].blk || d->df_wr != d->df_rd);
    const bool owner = d->armed == 0 && d->unb;
    return (uint8_t)((d->blk_valid || d->flush || retire ? CM_DF_QS_BUSY : 0u) |
                     (d->armed != 0 || d->unb ? CM_DF_QS_TAIL : 0u) |
                     (owner ? CM_DF_QS_OWNER : 0u) |
                     (d->flush && !d->blk_valid && !retire && !owner ? CM_DF_QS_FLUSH : 0u));
}

/* This clock's combinational values (the RTL's always_comb blocks). */
struct comb {
    bool multi, owner, wc;
    unsigned rlog, rsize, rmask;
    unsigned sq, hslot;
    uint64_t w_addr, w_len;
    bool head_derr;
    unsigned cons_h, phase_h, hmask;
    bool head_valid, head_bad, desc_valid;
    unsigned fq, fetch_q, alloc_q, rdf_q, rd_q, dq;
    unsigned mask, tail, tail_avail, inbuf;
    bool blk_stale, blk_at_f, blk_ahead, sub;
    unsigned avail, n;
    bool load, ins, head_stop, no_reads;
    /* retirement */
    bool nf_rvalid, nf_pop, pop_err, df_rready, df_wvalid;
    unsigned pq, nf_size;
    bool nf_blk;
    bool take;
    unsigned aslot;
    bool act, fl_go;
};

static void head_comb(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                      struct comb *c)
{
    c->rlog = in->queues_log2 & 7u;
    c->rsize = region_size(d, c->rlog);
    c->rmask = region_mask(d, c->rsize);
    c->sq = in->sq & d->qimask;
    c->rd_q = d->rd[c->sq];
    c->hslot = slot_of(d, c->sq, c->rd_q, c->rlog, c->rmask);
    c->w_addr = d->mem_a[c->hslot];
    c->w_len = d->mem_l[c->hslot];
    c->head_derr = derr_at(d, c->hslot);
}

/* From the head's words on to the fetch queue. */
static void fq_comb(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                    struct comb *c)
{
    c->multi = in->queues != 1;
    c->owner = in->proto != CM_DF_PROTO_TAIL;
    c->wc = in->proto == CM_DF_PROTO_WC;
    c->cons_h = 0;
    c->phase_h = 0;
    c->hmask = 0;
    if (c->owner) {
        c->cons_h = d->cons[c->sq];
        c->phase_h = d->phase[c->sq];
        c->hmask = ring_mask(in->h_ring_log2 & 31u);
    }
    c->head_valid = in->sched_valid;
    c->head_bad = false;
    c->desc_valid = c->head_valid;
    if (c->owner) {
        const bool owned = (unsigned)(c->w_len >> 63) == c->phase_h;
        c->head_bad = c->head_valid && (c->head_derr || !owned);
        c->desc_valid = c->head_valid && !(d->flush || c->head_derr || !owned);
    }
    c->fq = 0;
    if (c->multi) {
        if (d->flush) {
            c->fq = d->fl_q;
        } else if (c->head_bad) {
            c->fq = c->sq;
        } else if (d->work != 0) {
            /* prim_rr_pick: the first queue with work at or after fptr */
            const uint64_t hi = d->work & ~((1ull << d->fptr) - 1);
            c->fq = (unsigned)__builtin_ctzll(hi != 0 ? hi : d->work);
        }
    }
}

/* The held block relative to the consumer: stale, at the fetch point, or
 * ahead of it (a limit on what may be fetched, returned); or substituting
 * the head. */
static inline unsigned comb_block(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                                  struct comb *c)
{
    c->blk_stale = c->blk_at_f = c->blk_ahead = c->sub = false;
    unsigned blk_lim = 0;
    if (d->blk_valid) {
        const unsigned dk = (d->blk_idx - c->cons_h) & c->mask;
        c->blk_stale = !c->wc || (unsigned)(d->blk_w1 >> 63) !=
                                     (c->phase_h ^ (unsigned)(d->blk_idx < c->cons_h));
        c->blk_at_f = !c->blk_stale && dk == c->inbuf;
        c->blk_ahead = !c->blk_stale && dk > c->inbuf;
        blk_lim = (dk - c->inbuf) & M16;
        c->sub = !c->blk_stale && d->blk_idx == c->cons_h && c->head_valid && !c->head_derr &&
                 (unsigned)(c->w_len >> 63) != c->phase_h && !in->wr_valid;
    }
    return blk_lim;
}

/* How many descriptors may be fetched now (c->avail). */
static inline void comb_avail(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                              struct comb *c, unsigned blk_lim)
{
    const unsigned fq = c->fq;
    const unsigned rsz = ring_size(in->ring_log2 & 31u);
    unsigned avail;
    if (!c->owner) {
        avail = c->tail_avail;
    } else {
        const unsigned room = rsz > c->inbuf ? rsz - c->inbuf : 0;
        avail = has(d->armed, fq) ? room : 0;
        if (c->wc && !d->unb) {
            unsigned pub = d->lim_valid ? ((d->lim - c->cons_h) & c->mask) + 1
                                        : (c->tail - c->cons_h) & c->mask;
            pub = pub > c->inbuf ? pub - c->inbuf : 0;
            if (pub < avail)
                avail = pub;
        }
        if ((c->blk_at_f || c->blk_ahead) && blk_lim < avail)
            avail = blk_lim;
    }
    c->avail = avail;
}

/* A fetch's batch: the descriptors available, at most 16 (the request's
 * count field), fetch_max, up to the ring's wrap; with several queues also
 * up to the end of the queue's slot range and within its free slots.  A
 * load needs a batch that is not 0 and fits the free slots whole (with
 * several queues it always fits).  free: the queue's free slots, aslot its
 * next slot's index in its range. */
static inline __attribute__((always_inline)) unsigned
fetch_n(const struct cm_desc_fetch_in *in, unsigned avail, unsigned rsz, unsigned fetch_q,
        bool multi, unsigned rsize, unsigned aslot, unsigned free)
{
    unsigned n = avail > M16 ? M16 : avail;
    const unsigned fmax = in->fetch_max & NICTX_DESC_FETCH_MAX_VALUE_MASK;
    if (fmax < n)
        n = fmax;
    const unsigned to_wrap = (rsz - fetch_q) & M17;
    if (to_wrap < n)
        n = to_wrap;
    if (multi) {
        const unsigned rleft = rsize - aslot;
        if (rleft < n)
            n = rleft;
        if (free < n)
            n = free;
    }
    return n;
}

/* The retirement FIFO's head; the fetch (load: n descriptors), the
 * held block's insertion, the head's stop. */
static inline void comb_fetch(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                              struct comb *c)
{
    const unsigned rsz = ring_size(in->ring_log2 & 31u);
    const unsigned avail = c->avail;

    /* Retirement FIFO heads (read data also while empty: the stale slot). */
    const unsigned nf_depth = nf_fill(d);
    const bool nf_wready = nf_depth != d->reads;
    const struct cm_desc_fetch_nf *e = &d->nf[d->nf_rd & d->fimask];
    c->nf_rvalid = nf_depth != 0;
    c->pq = e->q;
    c->nf_blk = e->blk;
    c->nf_size = e->size;

    c->n = 0;
    c->load = false;
    unsigned free_slots = 0;
    if (avail != 0) {
        const bool nf_room = nf_wready && nf_depth < (in->inflight & INFLIGHT_MASK);
        if (in->enable && !in->stop && !d->flush && nf_room && (!d->req_valid || in->req_ready)) {
            free_slots = (c->rsize - c->inbuf) & d->pmask;
            c->n = fetch_n(in, avail, rsz, c->fetch_q, c->multi, c->rsize, c->alloc_q & c->rmask,
                           free_slots);
            c->load = c->n != 0 && !c->head_bad && free_slots >= c->n;
        }
    }
    c->ins = false;
    if (c->blk_at_f) {
        const bool go = in->enable && !in->stop && !d->flush && !c->head_bad;
        const bool nf_room = nf_wready && nf_depth < (in->inflight & INFLIGHT_MASK);
        free_slots = (c->rsize - c->inbuf) & d->pmask;
        c->ins = go && free_slots != 0 && nf_room && !in->wr_valid;
    }
    c->head_stop = c->head_bad && !d->flush && !c->sub;
    c->no_reads = false;
    if (d->flush || c->head_stop)
        c->no_reads = !d->req_valid && !c->nf_rvalid;
}

/* Retirement, the descriptor leaving, and whether the clock acts. */
static inline void comb_retire(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                               struct comb *c)
{
    const unsigned fq = c->fq;
    const bool df_rvalid = d->df_wr != d->df_rd;
    c->nf_pop = c->nf_rvalid && (c->nf_blk || df_rvalid || in->done);
    c->pop_err = false;
    c->df_rready = false;
    c->df_wvalid = in->done;
    if (c->nf_pop) {
        c->pop_err = !c->nf_blk && (df_rvalid ? d->df[d->df_rd & d->fimask] : in->done_err);
        c->df_rready = !c->nf_blk && df_rvalid;
        c->df_wvalid = in->done && !(!c->nf_blk && !df_rvalid);
    }

    c->take = c->desc_valid && in->desc_ready;
    c->aslot = (c->load || c->ins) ? slot_of(d, fq, c->alloc_q, c->rlog, c->rmask) : 0;
    c->act = c->load || c->nf_pop || c->take || d->flush || c->head_stop || in->doorbell ||
             in->wc_close || in->blk_valid || d->blk_valid || d->req_valid || d->armed != 0 ||
             d->unb;
    c->fl_go = c->no_reads && !c->sub;
}

static void comb(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in, struct comb *c)
{
    head_comb(d, in, c);
    fq_comb(d, in, c);
    const unsigned fq = c->fq;
    c->fetch_q = d->fetch[fq];
    c->alloc_q = d->alloc[fq];
    c->rdf_q = d->rd[fq];
    c->dq = c->multi ? in->db_q & d->qimask : 0;

    c->mask = ring_mask(in->ring_log2 & 31u);
    c->tail_avail = (in->tail - c->fetch_q) & c->mask;
    c->tail = in->tail & M16;
    c->inbuf = (c->alloc_q - c->rdf_q) & d->pmask;

    comb_avail(d, in, c, comb_block(d, in, c));
    comb_fetch(d, in, c);
    comb_retire(d, in, c);
}

static uint64_t bit(unsigned q)
{
    return 1ull << q;
}

static uint64_t with(uint64_t m, unsigned q, bool v)
{
    return (m & ~bit(q)) | ((uint64_t)v << q);
}

/* The next state (the RTL's *_d), on a clock with something to do (act);
 * otherwise every register keeps its value. */
struct nxt {
    unsigned fetch_d, alloc_d, ready_q, ready_d, rd_d;
    bool req_valid_d, unb_d, lim_valid_d, flush_d, fl_cnt_d, blk_valid_d;
    uint64_t armed_d, db_since_d, rdy_d, work_d;
    bool blk_drop, not_owned, rdy_we, mq_same;
    unsigned fptr_d, tot_d;
};

/* A clock that acts: the fetch request, the slots allocated, a
 * retirement, the descriptor leaving. */
static inline void next_fetch(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                              const struct comb *c, struct nxt *x)
{
    const unsigned fq = c->fq;

    if (d->req_valid && in->req_ready)
        x->req_valid_d = false;
    if (c->load) {
        x->req_valid_d = true;
        x->fetch_d = (c->fetch_q + c->n) & c->mask;
        x->alloc_d = (c->alloc_q + c->n) & d->pmask;
    }
    if (c->ins) {
        x->fetch_d = (c->fetch_q + 1) & c->mask;
        x->alloc_d = (c->alloc_q + 1) & d->pmask;
    }
    if ((c->load || c->ins) && c->inbuf == 0)
        x->db_since_d &= ~bit(fq);
    if (c->nf_pop)
        x->ready_d = (x->ready_q + c->nf_size) & d->pmask;
    if (c->take) {
        x->rd_d = (c->rd_q + 1) & d->pmask;
        if (c->cons_h == d->lim)
            x->lim_valid_d = false; /* the last published one left */
    }
}

/* Not owned (or unusable) at the head: flush once no read is in flight. */
static inline void next_flush(const struct cm_desc_fetch *d, const struct comb *c, struct nxt *x)
{
    const unsigned fq = c->fq;

    if (c->head_stop)
        x->fl_cnt_d = !c->head_derr;
    if (c->sub) {
        x->flush_d = false;
    } else if (d->flush || c->head_stop) {
        x->flush_d = true;
        if (c->no_reads) {
            x->flush_d = false;
            x->rd_d = c->alloc_q;
            x->fetch_d = d->cons[fq];
            x->not_owned = x->fl_cnt_d;
            if (x->fl_cnt_d)
                x->armed_d = with(x->armed_d, fq, has(d->db_since, fq));
        }
    }
}

/* Doorbells arm queues (owner protocols); a TAIL write or a WC close
 * moves the published limit. */
static inline void next_arm(const struct cm_desc_fetch_in *in, const struct comb *c, struct nxt *x)
{
    if (in->doorbell) {
        x->armed_d |= bit(c->dq);
        x->db_since_d |= bit(c->dq);
    }
    if (!c->owner)
        x->armed_d = 0;
    if (x->armed_d == 0)
        x->unb_d = false;
    if (in->doorbell && !in->wc_close)
        x->lim_valid_d = false; /* a TAIL write */
    if (in->wc_close) {
        if (in->wc_idx_valid)
            x->lim_valid_d = true;
        else
            x->unb_d = true;
    }
}

/* The held block: dropped when stale, consumed, or replaced. */
static inline void next_block(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                              const struct comb *c, struct nxt *x)
{
    if (c->blk_stale) {
        x->blk_valid_d = false;
        x->blk_drop = true;
    }
    if (c->ins || c->sub)
        x->blk_valid_d = false;
    if (in->blk_valid) {
        if (d->blk_valid && !c->blk_stale && !c->ins && !c->sub)
            x->blk_drop = true; /* replaced */
        x->blk_valid_d = true;
    }
}

/* Ready: the retiring read's queue and the head's, or the flushed one. */
static inline void next_rdy(const struct cm_desc_fetch *d, const struct comb *c, struct nxt *x)
{
    const unsigned fq = c->fq, sq = c->sq;

    x->rdy_we = c->nf_pop || c->take || c->fl_go;
    if (x->rdy_we) {
        if (c->fl_go && c->multi) {
            x->rdy_d &= ~bit(fq);
        } else {
            const unsigned pq = c->pq;
            x->rdy_d = with(x->rdy_d, pq, x->ready_d != (pq == sq ? x->rd_d : d->rd[pq]));
            x->rdy_d = with(x->rdy_d, sq, (sq == pq ? x->ready_d : d->ready[sq]) != x->rd_d);
        }
        x->rdy_d &= d->qmask;
    }
}

/* Several queues: the work mask, the round robin's pointer, the slots. */
static inline void next_multi(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                              const struct comb *c, struct nxt *x)
{
    const unsigned fq = c->fq;

    x->work_d = 0;
    x->fptr_d = 0;
    x->tot_d = 0;
    x->mq_same = true;
    if (c->multi) {
        x->work_d = d->work;
        x->fptr_d = d->fptr;
        x->tot_d = d->tot;
        if (!c->owner) {
            const unsigned dbq = in->db_q & d->qimask;
            const unsigned ftail = (in->doorbell && dbq == fq) ? in->db_tail & M16 : c->tail;
            const unsigned dbfetch = dbq == fq ? x->fetch_d : d->fetch[dbq];
            x->work_d = with(x->work_d, fq, ftail != x->fetch_d);
            if (in->doorbell)
                x->work_d = with(x->work_d, dbq, (in->db_tail & M16) != dbfetch);
        } else {
            x->work_d = c->act ? x->armed_d : d->armed;
        }
        bool skip = false;
        if (!c->head_bad && !d->flush)
            skip = d->work != 0 && !c->load &&
                   (c->rsize == c->inbuf || (c->owner && c->avail == 0));
        if (c->load || skip)
            x->fptr_d = (fq + 1) & d->qimask;
        unsigned t = d->tot;
        if (c->load)
            t += c->n;
        if (c->ins)
            t += 1;
        if (c->take)
            t -= 1;
        if (c->fl_go)
            t -= c->inbuf;
        x->tot_d = t & d->pmask;
        x->mq_same = x->work_d == d->work && x->fptr_d == d->fptr;
    }
}

static void next(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                 const struct comb *c, struct nxt *x)
{
    x->fetch_d = c->fetch_q;
    x->alloc_d = c->alloc_q;
    x->ready_q = d->ready[c->pq];
    x->ready_d = x->ready_q;
    x->rd_d = c->rd_q;
    x->req_valid_d = d->req_valid;
    x->armed_d = d->armed;
    x->unb_d = d->unb;
    x->lim_valid_d = d->lim_valid;
    x->db_since_d = d->db_since;
    x->flush_d = d->flush;
    x->fl_cnt_d = d->fl_cnt;
    x->blk_valid_d = d->blk_valid;
    x->rdy_d = d->rdy;
    x->blk_drop = x->not_owned = x->rdy_we = false;
    if (c->act) {
        next_fetch(d, in, c, x);
        next_flush(d, c, x);
        next_arm(in, c, x);
        next_block(d, in, c, x);
        next_rdy(d, c, x);
    }
    next_multi(d, in, c, x);
}

/* A little-endian 64-bit word from byte lanes. */
static uint64_t le64(const uint8_t *b)
{
    uint64_t v;
    memcpy(&v, b, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static bool pow2_in(unsigned v, unsigned lo, unsigned hi)
{
    return v >= lo && v <= hi && (v & (v - 1)) == 0;
}

int cm_desc_fetch_reset(struct cm_desc_fetch *d, const struct cm_desc_fetch_params *p)
{
    if ((p->data_bytes != 8 && p->data_bytes != 16 && p->data_bytes != 32 &&
         p->data_bytes != 64) ||
        !pow2_in(p->num_queues, 1, CM_DESC_FETCH_MAX_QUEUES) ||
        !pow2_in(p->buf_descs, CM_DESC_FETCH_MIN_SLOTS, CM_DESC_FETCH_MAX_SLOTS) ||
        p->num_queues > p->buf_descs ||
        !pow2_in(p->max_reads, CM_DESC_FETCH_MIN_READS, CM_DESC_FETCH_MAX_READS))
        return -1;
    d->w = p->data_bytes;
    d->nwords = p->data_bytes / 8;
    d->queues = p->num_queues;
    d->qimask = p->num_queues - 1;
    d->qmask = p->num_queues == 64 ? ~0ull : (1ull << p->num_queues) - 1;
    d->slots = p->buf_descs;
    d->slotw = (unsigned)__builtin_ctz(p->buf_descs);
    d->smask = p->buf_descs - 1;
    d->pmask = 2 * p->buf_descs - 1;
    d->reads = p->max_reads;
    d->fimask = p->max_reads - 1;
    d->fpmask = 2 * p->max_reads - 1;
    for (unsigned q = 0; q < CM_DESC_FETCH_MAX_QUEUES; q++) {
        d->fetch[q] = d->alloc[q] = d->ready[q] = d->rd[q] = d->cons[q] = 0;
        d->phase[q] = 1;
    }
    d->work = d->rdy = d->armed = d->db_since = 0;
    d->fptr = d->tot = d->fl_q = 0;
    d->req_valid = false;
    d->req_addr = 0;
    d->req_len = 0;
    d->req_wptr = 0;
    d->unb = d->lim_valid = d->flush = d->fl_cnt = false;
    d->lim = 0;
    memset(d->derr, 0, sizeof(d->derr));
    d->blk_valid = false;
    d->blk_idx = 0;
    d->blk_w0 = d->blk_w1 = 0;
    d->nf_wr = d->nf_rd = d->df_wr = d->df_rd = 0;
    d->qs = qs_of(d);
    return 0;
}

int cm_desc_fetch_init(struct cm_desc_fetch *d, const struct cm_desc_fetch_params *p)
{
    struct cm_desc_fetch z;
    memset(&z, 0, sizeof(z));
    if (cm_desc_fetch_reset(&z, p) != 0)
        return -1;
    *d = z;
    return 0;
}

void cm_desc_fetch_state_out(const struct cm_desc_fetch *d, struct cm_desc_fetch_out *out)
{
    out->rdy = d->rdy;
    out->work = d->work;
    out->req_valid = d->req_valid;
    out->req_addr = d->req_addr;
    out->req_len = d->req_len;
    out->req_wptr = d->req_wptr;
}

static void head_out(const struct comb *c, const struct cm_desc_fetch_in *in,
                     struct cm_desc_fetch_out *out)
{
    out->desc_q = in->sq;
    out->desc_addr = c->w_addr;
    out->desc_len = (unsigned)c->w_len & 0x3FFFu;
    out->desc_bad = (c->w_len & M16) == 0 || (c->w_len >> 14 & 3u) != 0 || c->head_derr;
    out->desc_err = c->head_derr;
}

/* head_comb() and head_out() in one: the head's outputs. */
static inline __attribute__((always_inline)) void
head_fast(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
          struct cm_desc_fetch_out *out)
{
    const unsigned rlog = in->queues_log2 & 7u;
    const unsigned sq = in->sq & d->qimask;
    /* slot_of() with rlog <= SlotW: the region's base is sq << (SlotW - rlog),
     * its offset mask the bits below. */
    const unsigned sh = d->slotw - rlog;
    const unsigned hslot = (sq << sh | (d->rd[sq] & ((1u << sh) - 1))) & d->smask;
    const uint64_t w_len = d->mem_l[hslot];
    const bool derr = (d->derr[hslot >> 6] >> (hslot & 63) & 1u) != 0;
    out->desc_q = in->sq;
    out->desc_addr = d->mem_a[hslot];
    out->desc_len = (unsigned)w_len & 0x3FFFu;
    /* bad: a 16-bit length of 0 or above 16383, or a failed read */
    out->desc_bad = (((unsigned)w_len - 1u) & M16) >= 0x3FFFu || derr;
    out->desc_err = derr;
}

void cm_desc_fetch_head(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                        struct cm_desc_fetch_out *out)
{
    head_fast(d, in, out);
}

/* fq_comb()'s fetch queue with the head usable (head_bad 0). */
static unsigned rr_fq(const struct cm_desc_fetch *d)
{
    if (d->flush)
        return d->fl_q;
    if (d->work == 0)
        return 0;
    const uint64_t hi = d->work & ~((1ull << d->fptr) - 1);
    return (unsigned)__builtin_ctzll(hi != 0 ? hi : d->work);
}

unsigned cm_desc_fetch_fq(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                          bool *desc_valid)
{
    if (in->proto == CM_DF_PROTO_TAIL) {
        /* fq_comb() without an owner bit: the head is never bad, so its
         * words are not needed. */
        if (desc_valid)
            *desc_valid = in->sched_valid;
        return in->queues != 1 ? rr_fq(d) : 0;
    }
    /* (Inline: in make fast's -flto build the head's slot and words are then
     * shared with cm_desc_fetch_head()'s; out of line, Owner runs cost more.) */
    struct comb c;
    head_comb(d, in, &c);
    fq_comb(d, in, &c);
    if (desc_valid)
        *desc_valid = c.desc_valid;
    return c.fq;
}

static void outputs(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                    const struct comb *c, const struct nxt *x, struct cm_desc_fetch_out *out)
{
    cm_desc_fetch_state_out(d, out);
    head_out(c, in, out);
    out->f_q = c->fq;
    out->desc_valid = c->desc_valid;
    out->not_owned = x->not_owned;
    out->not_owned_cnt = c->inbuf;
    out->flush = c->fl_go && c->fq == c->sq;
    out->wc_used = c->ins || c->sub;
    out->wc_drop = x->blk_drop;
    out->wc_stale = c->blk_stale;
    /* Idle: nothing in flight or buffered, and nothing to fetch or insert. */
    bool idle;
    if (c->multi)
        idle = !d->req_valid && d->tot == 0 && (!in->enable || in->stop || d->work == 0);
    else if (!c->owner)
        idle = !d->req_valid && c->alloc_q == c->rd_q &&
               (!in->enable || in->stop || c->tail_avail == 0);
    else
        idle = !d->req_valid && c->alloc_q == c->rd_q && !d->flush && !c->blk_stale &&
               (!in->enable || in->stop || (c->avail == 0 && !c->blk_at_f));
    out->idle = idle;
    out->wait = idle;
    if (!idle && !d->req_valid) {
        out->wait = !c->load && !c->nf_pop && !c->take && !in->doorbell && !c->fl_go &&
                    x->mq_same;
        if (!c->owner)
            out->wait = out->wait && d->armed == 0 && !d->unb && !d->blk_valid;
        else
            out->wait = out->wait && !c->head_stop && !in->wc_close &&
                        !in->blk_valid && !c->ins && !c->sub && !c->blk_stale &&
                        (d->armed != 0 || !d->unb);
    }
}

/* quiet()'s count of descriptors that may be fetched (comb_avail() with no
 * held block). */
static inline __attribute__((always_inline)) unsigned
quiet_avail(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in, unsigned fq,
            unsigned sq, unsigned inbuf)
{
    const unsigned mask = ring_mask(in->ring_log2 & 31u);

    if (in->proto == CM_DF_PROTO_TAIL)
        return (in->tail - d->fetch[fq]) & mask;
    const unsigned rsz = ring_size(in->ring_log2 & 31u);
    unsigned avail = has(d->armed, fq) && rsz > inbuf ? rsz - inbuf : 0;
    if (avail != 0 && in->proto == CM_DF_PROTO_WC && !d->unb) {
        const unsigned cons_h = d->cons[sq];
        unsigned pub = d->lim_valid ? ((d->lim - cons_h) & mask) + 1
                                    : (in->tail - cons_h) & mask;
        pub = pub > inbuf ? pub - inbuf : 0;
        if (pub < avail)
            avail = pub;
    }
    return avail;
}

/* A quiet clock's outputs but idle and wait: with head, the state's, the
 * head's, f_q and desc_valid (else out holds them already); no event. */
static inline __attribute__((always_inline)) void
quiet_out(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
          struct cm_desc_fetch_out *out, bool head, unsigned fq, bool desc_valid, unsigned inbuf)
{
    if (head) {
        cm_desc_fetch_state_out(d, out);
        head_fast(d, in, out);
        out->f_q = fq;
        out->desc_valid = desc_valid;
    }
    out->not_owned = false;
    out->not_owned_cnt = inbuf;
    out->flush = out->wc_used = out->wc_drop = out->wc_stale = false;
}

/*
 * A flush (owner protocols) that waits for its reads (wait_o): reads in
 * flight, nothing arriving but read data (no retirement, doorbell, WC close
 * or block, no request the read engine takes now), no block held, and with
 * several queues the work mask the armed one (as next() keeps it: work_d
 * is armed_d).  Then nothing is fetched, inserted or substituted, no
 * descriptor leaves (desc_valid is 0 in a flush), the flush neither starts
 * nor ends, the round robin's pointer stays, and the edge writes the
 * beat's descriptor words and nothing else.  Returns 1 (quiet) or 0 (the
 * full path); out as quiet()'s.
 */
static __attribute__((noinline)) int
quiet_flush(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
            struct cm_desc_fetch_out *out, bool head)
{
    if (in->done | in->doorbell | in->wc_close | in->blk_valid | (d->req_valid & in->req_ready))
        return 0;
    if (!d->req_valid && nf_fill(d) == 0) /* no reads: the flush ends (fl_go) */
        return 0;
    const bool multi = in->queues != 1;
    if (multi && d->work != d->armed)
        return 0;
    if (!out)
        return 1;

    const unsigned fq = multi ? d->fl_q : 0;
    quiet_out(d, in, out, head, fq, false, (d->alloc[fq] - d->rd[fq]) & d->pmask);
    /* (outputs(): one queue's owner idle needs no flush; waiting, the flush
     * going on is no change) */
    out->idle = multi && !d->req_valid && d->tot == 0 && (!in->enable || in->stop || d->work == 0);
    out->wait = !d->req_valid;
    return 1;
}

/*
 * The quiet clock (cm_desc_fetch_quiet()): nothing arrives but read data
 * (no retirement, doorbell, WC close or block), nothing is pending (no
 * held block, no flush, no request the read engine takes now, the oldest
 * read waiting for its done), no descriptor leaves, the head is usable,
 * nothing is fetched, and the registers that a clock with "act" rewrites
 * keep their values (armed: 0 outside the owner protocols; unb: 0 once
 * armed is 0; with several queues the work mask's fetch-queue bit and the
 * round robin's pointer).  Then, as comb()/next() work out: load, ins,
 * sub, nf_pop, take, head_stop, fl_go, blk_drop and not_owned are all 0
 * (read data matters to ins and sub only, both 0 without a held block),
 * the edge writes the beat's descriptor words and nothing else, and the
 * outputs are the state's, the head's and those below.  A descriptor
 * leaving (take; in the owner protocols one owned and read without error,
 * as checked above) is quiet too, as in quiet_tail1(): its edge is
 * take_edge()'s, and with several queues the count in the buffer (tot)
 * drops by one.  0 sends the clock down the full path (1: quiet, 2: quiet
 * but for the take); the checks come cheapest and likeliest first.
 *
 * out: NULL for the predicate alone; else filled (with head, its head
 * outputs, desc_q..desc_err, computed; without, out holds them already,
 * and f_q and desc_valid, from cm_desc_fetch_head() and _fq()).
 */
static inline __attribute__((always_inline)) int
quiet(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
      struct cm_desc_fetch_out *out, bool head)
{
#ifdef CM_DESC_FETCH_QUIET_CHECK
    if (d->qs != qs_of(d))
        abort();
#endif
    const unsigned proto = in->proto;
    const bool owner = proto != CM_DF_PROTO_TAIL;
    if (owner && (d->qs & CM_DF_QS_FLUSH))
        return quiet_flush(d, in, out, head);
    /* No held block, no flush, no retirement (nf_pop = nf_rvalid &&
     * (nf_blk || df_rvalid || done)); armed_d (no doorbell, no flush) is 0
     * outside the owner protocols, else armed; unb_d is 0 when armed_d is
     * 0, else unb. */
    if ((d->qs & (owner ? CM_DF_QS_BUSY | CM_DF_QS_OWNER : CM_DF_QS_BUSY | CM_DF_QS_TAIL)) |
        in->done | in->doorbell | in->wc_close | in->blk_valid | (d->req_valid & in->req_ready))
        return false;
    const unsigned nf_depth = nf_fill(d);
    const unsigned sq = in->sq & d->qimask;
    /* The head: bad (a flush starts) or leaving is not quiet. */
    const bool desc_valid = in->sched_valid;
    if (owner && desc_valid) {
        const unsigned rlog = in->queues_log2 & 7u;
        const unsigned rmask = region_mask(d, region_size(d, rlog));
        const unsigned hslot = slot_of(d, sq, d->rd[sq], rlog, rmask);
        if (derr_at(d, hslot) || (unsigned)(d->mem_l[hslot] >> 63) != d->phase[sq])
            return false;
    }
    const bool take = desc_valid && in->desc_ready;
    const bool multi = in->queues != 1;
    const unsigned fq = multi ? rr_fq(d) : 0;
    const unsigned fetch_q = d->fetch[fq];
    const unsigned inbuf = (d->alloc[fq] - d->rd[fq]) & d->pmask;
    const unsigned avail = quiet_avail(d, in, fq, sq, inbuf);
    /* No load: nothing to fetch, or no go, or no batch that fits the free
     * slots (fetch_n(); the head's check only stops a load, so it is left
     * out: a clock it would stop takes the full path). */
    const unsigned rlog = in->queues_log2 & 7u;
    const unsigned rsize = region_size(d, rlog);
    if (avail != 0 && in->enable && !in->stop && !d->req_valid &&
        nf_depth < (in->inflight & INFLIGHT_MASK) && nf_depth != d->reads) {
        const unsigned free = (rsize - inbuf) & d->pmask;
        const unsigned rmask = region_mask(d, rsize);
        const unsigned n = fetch_n(in, avail, ring_size(in->ring_log2 & 31u), fetch_q, multi,
                                   rsize, d->alloc[fq] & rmask, free);
        if (n != 0 && free >= n)
            return false;
    }
    if (multi) {
        /* work_d and fptr_d as next() gives them. */
        if (!owner ? has(d->work, fq) != ((in->tail & M16) != fetch_q) : d->work != d->armed)
            return false;
        if (d->work != 0 && (rsize == inbuf || (owner && avail == 0)) &&
            d->fptr != ((fq + 1) & d->qimask))
            return false;
    }
    if (!out)
        return 1 + take;

    /* The outputs (outputs() with this clock's events 0 but take). */
    const unsigned rd_q = d->rd[sq];
    quiet_out(d, in, out, head, fq, desc_valid, inbuf);
    bool idle;
    if (multi)
        idle = !d->req_valid && d->tot == 0 && (!in->enable || in->stop || d->work == 0);
    else
        idle = !d->req_valid && d->alloc[fq] == rd_q && (!in->enable || in->stop || avail == 0);
    out->idle = idle;
    out->wait = idle || (!take && !d->req_valid); /* (outputs(): take clears wait when not idle) */
    return 1 + take;
}

/* quiet() for Tail with QUEUES 1 (the default run's case) in fewer steps:
 * no owner bit, armed 0, f_q 0, no work mask or round robin.  And one more
 * case: a clock that is quiet but for a descriptor leaving (take; desc_valid
 * is sched_valid in Tail) has outputs as a quiet clock's but wait = idle
 * (outputs(): take clears wait when not idle), and take_edge()'s edge.
 * Returns 0 (the full path), 1 (quiet) or 2 (quiet but for the take). */
static inline __attribute__((always_inline)) int
quiet_tail1(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
            struct cm_desc_fetch_out *out, bool head)
{
#ifdef CM_DESC_FETCH_QUIET_CHECK
    if (d->qs != qs_of(d))
        abort();
#endif
    if ((d->qs & (CM_DF_QS_BUSY | CM_DF_QS_TAIL)) | in->done | in->doorbell | in->wc_close |
        in->blk_valid | (d->req_valid & in->req_ready))
        return 0;
    const bool take = in->sched_valid & in->desc_ready;
    const unsigned alloc0 = d->alloc[0];
    const unsigned inbuf = (alloc0 - d->rd[0]) & d->pmask;
    const unsigned avail = (in->tail - d->fetch[0]) & ring_mask(in->ring_log2 & 31u);
    if (avail != 0 && in->enable && !in->stop && !d->req_valid) {
        const unsigned nf_depth = nf_fill(d);
        const unsigned rsize = region_size(d, in->queues_log2 & 7u);
        if (nf_depth < (in->inflight & INFLIGHT_MASK) && nf_depth != d->reads) {
            const unsigned free = (rsize - inbuf) & d->pmask;
            const unsigned n = fetch_n(in, avail, ring_size(in->ring_log2 & 31u), d->fetch[0],
                                       false, rsize, 0, free);
            if (n != 0 && free >= n)
                return 0;
        }
    }
    if (!out)
        return 1 + take;
    quiet_out(d, in, out, head, 0, in->sched_valid, inbuf);
    const bool idle = !d->req_valid && alloc0 == d->rd[in->sq & d->qimask] &&
                      (!in->enable || in->stop || avail == 0);
    out->idle = idle;
    out->wait = idle || (!take && !d->req_valid);
    return 1 + take;
}

/* quiet_tail1() or quiet(): 0, 1 or 2 as quiet_tail1(). */
static inline __attribute__((always_inline)) int
quiet_any(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
          struct cm_desc_fetch_out *out, bool head)
{
    if (in->proto == CM_DF_PROTO_TAIL && in->queues == 1)
        return quiet_tail1(d, in, out, head);
    return quiet(d, in, out, head);
}

bool cm_desc_fetch_quiet(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in)
{
    return quiet_any(d, in, NULL, false) == 1;
}

/* Descriptor words from a read data beat. */
void cm_desc_fetch_write(struct cm_desc_fetch *d, uint32_t wr_ptr, unsigned wr_words,
                         const uint8_t *wr_data)
{
    const unsigned pos0 = wr_ptr >> 3;
    for (unsigned j = 0; j < d->nwords; j++) {
        if ((wr_words >> j & 1u) == 0)
            continue;
        const unsigned pos = (pos0 + j) & d->pmask;
        const uint64_t v = le64(wr_data + 8 * j);
        if (pos & 1u)
            d->mem_l[pos >> 1] = v;
        else
            d->mem_a[pos >> 1] = v;
    }
}

static __attribute__((noinline)) void write_beat(struct cm_desc_fetch *d,
                                                 const struct cm_desc_fetch_in *in)
{
    cm_desc_fetch_write(d, in->wr_ptr, in->wr_words, in->wr_data);
}

/* The owner protocols' consumer of queue sq past the head that left:
 * cons_h (its index) + 1 in a ring of mask hmask, the phase flipping at the
 * wrap. */
static inline void consume(struct cm_desc_fetch *d, unsigned sq, unsigned cons_h, unsigned hmask)
{
    d->phase[sq] = (uint8_t)(d->phase[sq] ^ (unsigned)(cons_h == hmask));
    d->cons[sq] = (uint16_t)((cons_h + 1) & hmask);
}

/* The edge of a quiet clock but for the take (quiet_tail1()'s and
 * quiet()'s case 2), as next() and edge() give it: the head leaves (rd, its
 * slot's error bit), the ready bits of the head's queue and of the
 * retirement FIFO's (stale) queue are worked out again, lim_valid drops if
 * the head was the last published one (cons is 0 in Tail), in the owner
 * protocols the head queue's consumer index and phase move on, with several
 * queues the buffer holds one fewer (tot); and the read data. */
static __attribute__((noinline)) void take_edge(struct cm_desc_fetch *d,
                                                 const struct cm_desc_fetch_in *in)
{
    const unsigned rlog = in->queues_log2 & 7u;
    const unsigned rmask = region_mask(d, region_size(d, rlog));
    const unsigned sq = in->sq & d->qimask;
    const unsigned rd_q = d->rd[sq];
    const unsigned hslot = slot_of(d, sq, rd_q, rlog, rmask);
    const unsigned rd_d = (rd_q + 1) & d->pmask;
    const unsigned pq = d->nf[d->nf_rd & d->fimask].q;
    const unsigned ready_d = d->ready[pq];
    const bool owner = in->proto != CM_DF_PROTO_TAIL;
    const unsigned cons_h = owner ? d->cons[sq] : 0;
    uint64_t rdy = with(d->rdy, pq, ready_d != (pq == sq ? rd_d : d->rd[pq]));
    rdy = with(rdy, sq, (sq == pq ? ready_d : d->ready[sq]) != rd_d);
    d->rdy = rdy & d->qmask;
    d->derr[hslot >> 6] &= ~(1ull << (hslot & 63));
    d->rd[sq] = (uint16_t)rd_d;
    if (cons_h == d->lim)
        d->lim_valid = false;
    if (owner)
        consume(d, sq, cons_h, ring_mask(in->h_ring_log2 & 31u));
    if (in->queues != 1)
        d->tot = (d->tot - 1) & d->pmask;
    if (in->wr_valid)
        write_beat(d, in);
}

static void edge(struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                 const struct comb *c, const struct nxt *x);

#ifdef CM_DESC_FETCH_QUIET_CHECK
/* A development check (not in the build; cc -DCM_DESC_FETCH_QUIET_CHECK):
 * on each clock a fast path takes, the full path runs too, on a copy of the
 * state, and must agree (the outputs, and the state after the edge); and
 * qs must be qs_of() the state. */
static bool out_eq(const struct cm_desc_fetch_out *a, const struct cm_desc_fetch_out *b)
{
    return a->f_q == b->f_q && a->rdy == b->rdy && a->work == b->work && a->desc_q == b->desc_q &&
           a->req_valid == b->req_valid && a->req_addr == b->req_addr &&
           a->req_len == b->req_len && a->req_wptr == b->req_wptr &&
           a->desc_valid == b->desc_valid && a->desc_addr == b->desc_addr &&
           a->desc_len == b->desc_len && a->desc_bad == b->desc_bad &&
           a->desc_err == b->desc_err && a->not_owned == b->not_owned &&
           a->not_owned_cnt == b->not_owned_cnt && a->flush == b->flush &&
           a->wc_used == b->wc_used && a->wc_drop == b->wc_drop && a->wait == b->wait &&
           a->idle == b->idle;
}
/* The full path on a copy of the state before the quiet clock. */
static struct cm_desc_fetch *full_copy(const struct cm_desc_fetch *d,
                                       const struct cm_desc_fetch_in *in,
                                       struct cm_desc_fetch_out *o)
{
    struct cm_desc_fetch *cp = malloc(sizeof(*cp));
    struct comb c;
    struct nxt x;
    memcpy(cp, d, sizeof(*cp));
    comb(cp, in, &c);
    next(cp, in, &c, &x);
    outputs(cp, in, &c, &x, o);
    edge(cp, in, &c, &x);
    return cp;
}
static void full_check(struct cm_desc_fetch *cp, const struct cm_desc_fetch *d,
                       const struct cm_desc_fetch_out *o, const struct cm_desc_fetch_out *qo)
{
    static unsigned long n;
    if ((qo && !out_eq(qo, o)) || memcmp(cp, d, sizeof(*cp)) != 0) {
        fprintf(stderr, "cm_desc_fetch: a quiet clock differs from the full path (%s)\n",
                qo && !out_eq(qo, o) ? "outputs" : "state");
        abort();
    }
    free(cp);
    if (++n % 1000000 == 0)
        fprintf(stderr, "cm_desc_fetch: %lu quiet clocks checked\n", n);
}
#define CHECK_BEGIN(d, in) struct cm_desc_fetch_out chk_o_; \
    struct cm_desc_fetch *chk_cp_ = full_copy(d, in, &chk_o_)
#define CHECK_END(d, out) full_check(chk_cp_, d, &chk_o_, out)
#else
#define CHECK_BEGIN(d, in) ((void)0)
#define CHECK_END(d, out) ((void)0)
#endif

void cm_desc_fetch_eval(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                        struct cm_desc_fetch_out *out)
{
    const int k = quiet_any(d, in, out, true);
    if (k != 0) {
#ifdef CM_DESC_FETCH_QUIET_CHECK
        struct cm_desc_fetch_out o;
        struct cm_desc_fetch *cp = full_copy(d, in, &o);
        memcpy(cp, d, sizeof(*cp)); /* (eval: the edge not taken) */
        full_check(cp, d, &o, out);
#endif
        out->quiet = (uint8_t)k;
        return;
    }
    struct comb c;
    struct nxt x;
    comb(d, in, &c);
    next(d, in, &c, &x);
    outputs(d, in, &c, &x, out);
    out->quiet = 0;
}

/* The edge's descriptor error bits: set for a failed read's slots, cleared
 * as a descriptor leaves or the queue is flushed (a clock that acts). */
static inline void edge_derr(struct cm_desc_fetch *d, const struct comb *c, const struct nxt *x)
{
    const unsigned fq = c->fq;

    if (c->nf_pop && c->pop_err) {
        /* The read's slots: nf_size of them from ready_q on, in pq's region. */
        const unsigned base = slot_of(d, c->pq, 0, c->rlog, 0);
        const unsigned k = c->nf_size < c->rsize ? c->nf_size : c->rsize;
        for (unsigned i = 0; i < k; i++) {
            const unsigned s = base | ((x->ready_q + i) & c->rmask);
            d->derr[s >> 6] |= 1ull << (s & 63);
        }
    }
    if (c->take)
        d->derr[c->hslot >> 6] &= ~(1ull << (c->hslot & 63));
    if (c->fl_go) {
        const unsigned base = slot_of(d, fq, 0, c->rlog, 0);
        if (c->rsize >= 64) {
            for (unsigned i = 0; i < c->rsize; i += 64)
                d->derr[(base + i) >> 6] = 0;
        } else {
            d->derr[base >> 6] &= ~((((uint64_t)1 << c->rsize) - 1) << (base & 63));
        }
    }
}

/* The edge's request, consumer, limit and held block. */
static inline void edge_req(struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                            const struct comb *c)
{
    const unsigned fq = c->fq, sq = c->sq;

    if (c->load) {
        d->req_addr = in->ring_base + ((uint64_t)c->fetch_q << 4);
        d->req_len = (c->n & 0x3FFu) << 4;
        d->req_wptr = c->aslot << 4;
    }
    if (c->take && c->owner) /* (phase_h is still phase[sq]) */
        consume(d, sq, c->cons_h, c->hmask);
    if (c->head_stop)
        d->fl_q = fq;
    if (in->wc_close && in->wc_idx_valid)
        d->lim = in->wc_idx & M16;
    if (in->blk_valid) {
        d->blk_idx = in->blk_idx & M16;
        d->blk_w0 = in->blk_w0;
        d->blk_w1 = in->blk_w1;
    }
}

/* The edge's pointers, masks and the registers a clock that acts rewrites. */
static inline void edge_ptrs(struct cm_desc_fetch *d, const struct comb *c, const struct nxt *x)
{
    const unsigned fq = c->fq, sq = c->sq;

    if (c->fl_go || c->load || c->ins) {
        d->fetch[fq] = (uint16_t)x->fetch_d;
        d->alloc[fq] = (uint16_t)x->alloc_d;
    }
    if (c->nf_pop)
        d->ready[c->pq] = (uint16_t)x->ready_d;
    if (c->fl_go || c->take)
        d->rd[c->fl_go ? fq : sq] = (uint16_t)x->rd_d;
    if (c->multi) {
        d->work = x->work_d;
        d->fptr = x->fptr_d;
        d->tot = x->tot_d;
    }
    if (x->rdy_we)
        d->rdy = x->rdy_d;
    if (c->act) {
        d->req_valid = x->req_valid_d;
        d->armed = x->armed_d;
        d->unb = x->unb_d;
        d->lim_valid = x->lim_valid_d;
        d->db_since = x->db_since_d;
        d->flush = x->flush_d;
        d->fl_cnt = x->fl_cnt_d;
        d->blk_valid = x->blk_valid_d;
    }
}

/* The edge's retirement FIFOs (a push only when not full; pops decided
 * before). */
static inline void edge_fifos(struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                              const struct comb *c)
{
    const unsigned fq = c->fq;
    const unsigned nf_depth = nf_fill(d);

    if ((c->load || c->ins) && nf_depth != d->reads) {
        struct cm_desc_fetch_nf *e = &d->nf[d->nf_wr & d->fimask];
        e->q = (uint8_t)(c->ins ? 0 : fq);
        e->blk = c->ins;
        e->size = (uint16_t)(c->ins ? 1 : c->n & d->pmask);
        d->nf_wr = (d->nf_wr + 1) & d->fpmask;
    }
    if (c->nf_pop)
        d->nf_rd = (d->nf_rd + 1) & d->fpmask;
    const unsigned df_depth = (d->df_wr - d->df_rd) & d->fpmask;
    if (c->df_wvalid && df_depth != d->reads) {
        d->df[d->df_wr & d->fimask] = in->done_err;
        d->df_wr = (d->df_wr + 1) & d->fpmask;
    }
    if (c->df_rready && df_depth != 0)
        d->df_rd = (d->df_rd + 1) & d->fpmask;
}

/* The rising edge, from this clock's decisions. */
static void edge(struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                 const struct comb *c, const struct nxt *x)
{
    /* Descriptor words: read data, or a block inserted or substituted. */
    if (in->wr_valid) {
        write_beat(d, in);
    } else if (c->ins || c->sub) {
        const unsigned s = c->ins ? c->aslot : c->hslot;
        d->mem_a[s] = d->blk_w0;
        d->mem_l[s] = d->blk_w1;
    }

    if (c->act)
        edge_derr(d, c, x);
    edge_req(d, in, c);
    edge_ptrs(d, c, x);
    edge_fifos(d, in, c);
    d->qs = qs_of(d);
}

/* The edge of a fast-path clock: k 2, a descriptor handed on
 * (take_edge); else only the read data's descriptor words. */
static void quiet_edge(struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in, int k)
{
    if (k == 2)
        take_edge(d, in);
    else if (in->wr_valid)
        write_beat(d, in);
}

void cm_desc_fetch_clock(struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in)
{
    const int k = quiet_any(d, in, NULL, false);
    if (k != 0) {
        CHECK_BEGIN(d, in);
        quiet_edge(d, in, k);
        CHECK_END(d, NULL);
        return;
    }
    struct comb c;
    struct nxt x;
    comb(d, in, &c);
    next(d, in, &c, &x);
    edge(d, in, &c, &x);
}

/* The full path of a clock that is not quiet. */
static __attribute__((noinline)) void
step_full(struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
          struct cm_desc_fetch_out *out, bool head)
{
#ifdef CM_DESC_FETCH_QUIET_CHECK
    const struct cm_desc_fetch_out given = *out;
#else
    (void)head;
#endif
    struct comb c;
    struct nxt x;
    comb(d, in, &c);
    next(d, in, &c, &x);
    outputs(d, in, &c, &x, out);
    out->quiet = 0;
#ifdef CM_DESC_FETCH_QUIET_CHECK
    if (!head && !(given.f_q == out->f_q && given.rdy == out->rdy && given.work == out->work &&
                   given.desc_q == out->desc_q && given.req_valid == out->req_valid &&
                   given.req_addr == out->req_addr && given.req_len == out->req_len &&
                   given.req_wptr == out->req_wptr && given.desc_valid == out->desc_valid &&
                   given.desc_addr == out->desc_addr && given.desc_len == out->desc_len &&
                   given.desc_bad == out->desc_bad && given.desc_err == out->desc_err)) {
        fprintf(stderr, "cm_desc_fetch: step_split given outputs that differ\n");
        abort();
    }
#endif
    edge(d, in, &c, &x);
}

/* A clock outside Tail with QUEUES 1. */
static __attribute__((noinline)) void
step_other(struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
           struct cm_desc_fetch_out *out, bool head)
{
    const int k = quiet(d, in, out, head);
    if (k != 0) {
        CHECK_BEGIN(d, in);
        quiet_edge(d, in, k);
        CHECK_END(d, out);
        out->quiet = (uint8_t)k;
        return;
    }
    step_full(d, in, out, head);
}

/* (The quiet check of the commonest case inline, the rest out of line, so
 * that a quiet clock saves and restores no registers.) */
static inline __attribute__((always_inline)) void
step(struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in, struct cm_desc_fetch_out *out,
     bool head)
{
    if (in->proto != CM_DF_PROTO_TAIL || in->queues != 1) {
        step_other(d, in, out, head);
        return;
    }
    const int k = quiet_tail1(d, in, out, head);
    if (k != 0) {
        CHECK_BEGIN(d, in);
        quiet_edge(d, in, k);
        CHECK_END(d, out);
        out->quiet = (uint8_t)k;
        return;
    }
    step_full(d, in, out, head);
}

void cm_desc_fetch_step(struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                        struct cm_desc_fetch_out *out)
{
    step(d, in, out, true);
}

void cm_desc_fetch_step_split(struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                              struct cm_desc_fetch_out *out)
{
    step(d, in, out, false);
}
