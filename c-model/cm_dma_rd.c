/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_dma_rd.c - the DMA read engine of the C model (cm_dma_rd.h), after
 * the contract in rtl/nictx_dma_rd.sv's header.
 */
#include "cm_dma_rd.h"

#include <string.h>

#define M13 0x1FFFu
#define M14 0x3FFFu
#define M21 0x1FFFFFu
#define M24 0xFFFFFFu

/* A retire FIFO entry: an MRd in issue order. */
struct cm_ret {
    unsigned tag, bytes;
    bool last, dest;
};

static uint64_t cm_ret_pack(struct cm_ret r)
{
    return (uint64_t)r.bytes | (uint64_t)r.dest << 13 | (uint64_t)r.last << 14 |
           (uint64_t)r.tag << 15;
}

static struct cm_ret cm_ret_unpack(uint64_t v)
{
    return (struct cm_ret){.bytes = v & M13, .dest = (v >> 13) & 1, .last = (v >> 14) & 1,
                           .tag = (unsigned)(v >> 15)};
}

/* The oldest MRd outstanding has all its data: it retires on this clock. */
static inline bool cm_dma_rd_oldest_done(const struct cm_dma_rd *d)
{
    return cm_fifo_rvalid(&d->ret) && d->tag[cm_ret_unpack(cm_fifo_rdata(&d->ret)).tag].done;
}

/* What this clock's inputs and state decide (the RTL's combinational logic). */
struct cm_dma_rd_comb {
    bool cpl_take, cpl_done;
    unsigned ctag;
    struct cm_ret ret;
    bool ret_rvalid, ret_done;
    bool split;              /* a read is being split */
    unsigned chunk, chunk14;
    bool last_chunk, use_fresh, tag_avail, in_budget, load;
    unsigned tag_sel;
    bool accept, rerr_d;
    bool restart, counting, timeout;
    uint32_t wake;
};

static bool pow2(unsigned v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

int cm_dma_rd_init(struct cm_dma_rd *d, unsigned tags, unsigned w, unsigned ptr_bits)
{
    if (!pow2(tags) || tags < 2 || tags > CM_DMA_RD_MAX_TAGS || !pow2(w) || w < 8 || w > 64 ||
        ptr_bits == 0 || ptr_bits > 32)
        return -1;
    memset(d, 0, sizeof(*d));
    d->tags = tags;
    d->w = w;
    d->ptr_bits = ptr_bits;
    if (cm_fifo_init(&d->ret, tags) != 0 || cm_fifo_init(&d->free_tags, tags) != 0)
        return -1;
    return 0;
}

void cm_dma_rd_reset(struct cm_dma_rd *d)
{
    d->cur_valid = d->cur_dest = false;
    d->cur_addr = 0;
    d->cur_rem = 0;
    d->cur_wptr = 0;
    d->mrd_valid = d->mrd_dest = false;
    d->mrd_addr = 0;
    d->mrd_len = d->mrd_tag = 0;
    d->wait = 0;
    d->to_fired = false;
    d->out = d->fresh = 0;
    d->obytes = 0;
    d->rerr = false;
    cm_fifo_reset(&d->ret);
    cm_fifo_reset(&d->free_tags);
}

static uint32_t cm_ptr(const struct cm_dma_rd *d, uint64_t v)
{
    return d->ptr_bits == 32 ? (uint32_t)v : (uint32_t)(v & ((1ull << d->ptr_bits) - 1));
}

/* The next MRd of the read being split: its bytes, its tag, whether it
 * may issue this clock. */
static void cm_dma_rd_split(const struct cm_dma_rd *d, const struct cm_dma_rd_in *in,
                            struct cm_dma_rd_comb *c)
{
    unsigned mrrs = (1u << in->mrrs_log2) & M13;
    unsigned room = (mrrs - ((unsigned)d->cur_addr & M13 & ((mrrs - 1) & M13))) & M13;

    c->split = true;
    c->chunk14 = room < d->cur_rem ? room : d->cur_rem;
    c->chunk = c->chunk14 & M13;
    c->last_chunk = c->chunk14 == d->cur_rem;
    c->use_fresh = d->fresh < d->tags;
    c->tag_avail = c->use_fresh || cm_fifo_rvalid(&d->free_tags);
    c->tag_sel = c->use_fresh ? d->fresh & (d->tags - 1) : (unsigned)cm_fifo_rdata(&d->free_tags);
    c->in_budget = d->out < in->max_tags &&
                   (in->max_rd_bytes == 0 || ((d->obytes + c->chunk) & M21) <= in->max_rd_bytes);
    c->load = c->tag_avail && c->in_budget && cm_fifo_wready(&d->ret) &&
              (!d->mrd_valid || in->mrd_ready);
}

/* The oldest MRd's wait for its data, and the timeout. */
static void cm_dma_rd_timer(const struct cm_dma_rd *d, const struct cm_dma_rd_in *in,
                            struct cm_dma_rd_comb *c)
{
    c->restart = !c->ret_rvalid || c->ret_done;
    c->wake = M24;
    if (c->restart || in->cpl_timeout == 0 || d->to_fired)
        return;
    c->counting = true;
    if (d->wait >= in->cpl_timeout)
        c->timeout = true;
    else
        c->wake = in->cpl_timeout - d->wait > 1 ? in->cpl_timeout - d->wait - 2 : 0;
}

static void cm_dma_rd_comb(const struct cm_dma_rd *d, const struct cm_dma_rd_in *in,
                           struct cm_dma_rd_comb *c)
{
    memset(c, 0, sizeof(*c));
    c->ctag = in->cpl_tag & (d->tags - 1);
    const struct cm_dma_rd_tag *t = &d->tag[c->ctag];
    if (in->cpl_valid && in->cpl_tag < d->tags && in->cpl_tag < d->fresh) {
        c->cpl_take = t->busy;
        c->cpl_done = c->cpl_take && in->cpl_eop && t->rem == in->cpl_len;
    }
    c->ret = cm_ret_unpack(cm_fifo_rdata(&d->ret));
    c->ret_rvalid = cm_fifo_rvalid(&d->ret);
    c->ret_done = c->ret_rvalid && d->tag[c->ret.tag].done;
    if (d->cur_valid)
        cm_dma_rd_split(d, in, c);
    c->accept = (!d->cur_valid || (c->load && c->last_chunk)) &&
                (in->req[0].valid || in->req[1].valid);
    if (c->ret_done)
        c->rerr_d = !c->ret.last && (d->rerr || d->tag[c->ret.tag].err);
    cm_dma_rd_timer(d, in, c);
}

/* The words of the beat that carry completion bytes: word j unless it
 * ends before the first lane (j < cpl_lane / 8, on the first beat) or
 * starts after the last (j > last / 8, on the last beat): the words from
 * the first's to the last's, none if the first comes after the last. */
unsigned cm_dma_rd_beat_words(const struct cm_dma_rd *d, unsigned lane, unsigned len, bool sop,
                              bool eop)
{
    unsigned lanes = d->w - 1;
    unsigned last = (lane + ((len - 1) & M13)) & lanes;
    unsigned lo = sop ? lane >> 3 : 0;
    unsigned hi = eop ? last >> 3 : lanes >> 3;

    return lo > hi ? 0 : (2u << hi) - (1u << lo);
}

static unsigned cm_dma_rd_words(const struct cm_dma_rd *d, const struct cm_dma_rd_in *in)
{
    return cm_dma_rd_beat_words(d, in->cpl_lane, in->cpl_len, in->cpl_sop, in->cpl_eop);
}

/* The outputs of what the clock decided. */
static void cm_dma_rd_outputs(const struct cm_dma_rd *d, const struct cm_dma_rd_in *in,
                              const struct cm_dma_rd_comb *c, struct cm_dma_rd_out *out)
{
    const struct cm_dma_rd_tag *t = &d->tag[c->ctag];
    const bool take = !d->cur_valid || (c->load && c->last_chunk);

    out->stall = c->split && !(c->tag_avail && c->in_budget);
    out->stall_tags = c->split && !(c->tag_avail && d->out < in->max_tags);
    out->stall_bytes = out->stall && !out->stall_tags;
    out->req_ready[1] = take;
    out->req_ready[0] = take && !in->req[1].valid;
    out->mrd_valid = d->mrd_valid;
    out->mrd_addr = d->mrd_addr;
    out->mrd_len = d->mrd_len;
    out->mrd_tag = d->mrd_tag;
    out->mrd_dest = d->mrd_dest;
    out->cpl_ready = true;
    out->unexp = in->cpl_valid && !c->cpl_take;
    out->timeout = c->timeout;
    out->wake = c->wake;
    out->wait = !d->cur_valid && !d->mrd_valid && !c->ret_done && !c->timeout;
    out->wr_valid = c->cpl_take;
    out->wr_dest = t->dest;
    out->wr_ptr = t->wptr;
    out->wr_words = cm_dma_rd_words(d, in);
    out->wr_data = in->cpl_data;
    out->done_valid = c->ret_done && c->ret.last;
    out->done_dest = c->ret_done && c->ret.dest;
    out->done_err = out->done_valid && (d->rerr || d->tag[c->ret.tag].err);
    out->drained = d->out == (unsigned)d->mrd_valid;
    out->idle = !d->cur_valid && !d->mrd_valid && d->out == 0;
}

/* A clock on which only the oldest read's wait and a completion beat that
 * does not end its TLP can change anything (the engine's usual clocks
 * while reads are out): no request, none being split or sent, no last
 * beat, and the oldest read not retiring.  Then only the timer and the
 * beat's take are worked out (into c; the rest of c is left unset): the
 * outputs are cm_dma_rd_quiet_outputs()'s and the edge
 * cm_dma_rd_quiet_edge()'s. */
static bool cm_dma_rd_quiet(const struct cm_dma_rd *d, const struct cm_dma_rd_in *in,
                            struct cm_dma_rd_comb *c)
{
    if ((in->cpl_valid && in->cpl_eop) || in->req[0].valid || in->req[1].valid || d->cur_valid ||
        d->mrd_valid)
        return false;
    c->ret_rvalid = cm_fifo_rvalid(&d->ret);
    c->ret_done = cm_dma_rd_oldest_done(d);
    if (c->ret_done)
        return false;
    c->ctag = in->cpl_tag & (d->tags - 1);
    c->cpl_take = in->cpl_valid && in->cpl_tag < d->tags && in->cpl_tag < d->fresh &&
                  d->tag[c->ctag].busy;
    c->counting = c->timeout = false;
    cm_dma_rd_timer(d, in, c);
    return true;
}

static void cm_dma_rd_quiet_outputs(const struct cm_dma_rd *d, const struct cm_dma_rd_in *in,
                                    const struct cm_dma_rd_comb *c, struct cm_dma_rd_out *out)
{
    const struct cm_dma_rd_tag *t = &d->tag[c->ctag];

    out->stall = out->stall_tags = out->stall_bytes = false;
    out->req_ready[0] = out->req_ready[1] = true;
    out->mrd_valid = false;
    out->mrd_addr = d->mrd_addr;
    out->mrd_len = d->mrd_len;
    out->mrd_tag = d->mrd_tag;
    out->mrd_dest = d->mrd_dest;
    out->cpl_ready = true;
    out->unexp = in->cpl_valid && !c->cpl_take;
    out->timeout = c->timeout;
    out->wake = c->wake;
    out->wait = !c->timeout;
    out->wr_valid = c->cpl_take;
    out->wr_dest = t->dest;
    out->wr_ptr = t->wptr;
    out->wr_words = cm_dma_rd_words(d, in);
    out->wr_data = in->cpl_data;
    out->done_valid = out->done_dest = out->done_err = false;
    out->drained = out->idle = d->out == 0;
}

/* The timer at the edge. */
static void cm_dma_rd_timer_edge(struct cm_dma_rd *d, const struct cm_dma_rd_in *in,
                                 const struct cm_dma_rd_comb *c)
{
    if (c->restart) {
        d->wait = 0;
        d->to_fired = false;
    } else if (c->timeout) {
        d->to_fired = true;
    } else if (c->counting) {
        d->wait = (d->wait + 1 + in->skip) & M24;
    }
}

/* A completion beat taken into tag t, whose pointer and remaining bytes
 * were wptr and rem before the edge: its error, the next beat's place,
 * and on its TLP's last beat the bytes still to come. */
static void cm_dma_rd_take(const struct cm_dma_rd *d, struct cm_dma_rd_tag *t, uint32_t wptr,
                           unsigned rem, bool err, bool eop, unsigned len)
{
    if (err)
        t->err = true;
    t->wptr = cm_ptr(d, (uint64_t)wptr + d->w);
    t->rem = eop ? (rem - len) & M13 : rem;
}

/* The whole edge of a quiet clock: the timer, and the beat taken. */
static void cm_dma_rd_quiet_edge(struct cm_dma_rd *d, const struct cm_dma_rd_in *in,
                                 const struct cm_dma_rd_comb *c)
{
    if (c->cpl_take) {
        struct cm_dma_rd_tag *t = &d->tag[c->ctag];
        cm_dma_rd_take(d, t, t->wptr, t->rem, in->cpl_err, in->cpl_eop, in->cpl_len);
    }
    cm_dma_rd_timer_edge(d, in, c);
}

void cm_dma_rd_eval(const struct cm_dma_rd *d, const struct cm_dma_rd_in *in,
                    struct cm_dma_rd_out *out)
{
    struct cm_dma_rd_comb c;

    if (cm_dma_rd_quiet(d, in, &c)) {
        cm_dma_rd_quiet_outputs(d, in, &c, out);
        return;
    }
    cm_dma_rd_comb(d, in, &c);
    cm_dma_rd_outputs(d, in, &c, out);
}

/* The per-tag tables at the edge (issue, completion, retire: three tags). */
static void cm_dma_rd_tables(struct cm_dma_rd *d, const struct cm_dma_rd_in *in,
                             const struct cm_dma_rd_comb *c)
{
    struct cm_dma_rd_tag *t = &d->tag[c->ctag];
    uint32_t twptr = t->wptr;
    unsigned trem = t->rem;

    if (c->load) {
        struct cm_dma_rd_tag *n = &d->tag[c->tag_sel];
        n->wptr = cm_ptr(d, d->cur_wptr - (d->cur_addr & (d->w - 1)));
        n->rem = c->chunk;
        n->dest = d->cur_dest;
        n->err = false;
        n->busy = true;
        n->done = false;
    }
    if (c->cpl_take)
        cm_dma_rd_take(d, t, twptr, trem, in->cpl_err, in->cpl_eop, in->cpl_len);
    if (c->cpl_done)
        t->done = true;
    if (c->ret_done) {
        d->tag[c->ret.tag].busy = false;
        d->tag[c->ret.tag].done = false;
    }
}

/* The rising edge on what the clock decided. */
static void cm_dma_rd_edge(struct cm_dma_rd *d, const struct cm_dma_rd_in *in,
                           const struct cm_dma_rd_comb *c)
{
    const struct cm_ret issued = {
        .tag = c->tag_sel, .bytes = c->chunk, .last = c->last_chunk, .dest = d->cur_dest};
    cm_fifo_clock(&d->ret, c->load, cm_ret_pack(issued), c->ret_done);
    cm_fifo_clock(&d->free_tags, c->ret_done, c->ret.tag, c->load && !c->use_fresh);
    cm_dma_rd_tables(d, in, c);
    if (d->mrd_valid && in->mrd_ready)
        d->mrd_valid = false;
    if (c->load) {
        d->mrd_valid = true;
        d->mrd_addr = d->cur_addr;
        d->mrd_len = c->chunk;
        d->mrd_tag = c->tag_sel;
        d->mrd_dest = d->cur_dest;
        if (c->use_fresh)
            d->fresh++;
        d->cur_addr += c->chunk;
        d->cur_rem = (d->cur_rem - c->chunk14) & M14;
        d->cur_wptr = cm_ptr(d, (uint64_t)d->cur_wptr + c->chunk);
        if (c->last_chunk)
            d->cur_valid = false;
    }
    if (c->accept) {
        const struct cm_dma_rd_req *r = &in->req[in->req[1].valid ? 1 : 0];
        d->cur_valid = true;
        d->cur_dest = in->req[1].valid;
        d->cur_addr = r->addr;
        d->cur_rem = r->len & M14;
        d->cur_wptr = cm_ptr(d, r->wptr);
    }
    if (c->load || c->ret_done) {
        d->out = (d->out + c->load - c->ret_done) & 0x1FF;
        d->obytes = (d->obytes + (c->load ? c->chunk : 0) - (c->ret_done ? c->ret.bytes : 0)) & M21;
    }
    if (c->ret_done)
        d->rerr = c->rerr_d;
    cm_dma_rd_timer_edge(d, in, c);
}

void cm_dma_rd_clock(struct cm_dma_rd *d, const struct cm_dma_rd_in *in)
{
    struct cm_dma_rd_comb c;

    if (cm_dma_rd_quiet(d, in, &c)) {
        cm_dma_rd_quiet_edge(d, in, &c);
        return;
    }
    cm_dma_rd_comb(d, in, &c);
    cm_dma_rd_edge(d, in, &c);
}

int cm_dma_rd_stream_ready(const struct cm_dma_rd *d)
{
    if (d->cur_valid || d->mrd_valid)
        return 0;
    if (!cm_dma_rd_oldest_done(d))
        return 1;
    const struct cm_ret ret = cm_ret_unpack(cm_fifo_rdata(&d->ret));
    if (!ret.last)
        return 2;
    /* (done_err: the read's error so far, or this MRd's) */
    return !ret.dest && !d->rerr && !d->tag[ret.tag].err ? 3 : 0;
}

bool cm_dma_rd_stream_retire(struct cm_dma_rd *d)
{
    /* cm_dma_rd_edge() with ret_done alone: no MRd loaded, sent or
     * accepted (cm_dma_rd_stream_ready()); the beat's tag is not the
     * retired one's, which has all its data. */
    const struct cm_ret ret = cm_ret_unpack(cm_fifo_rdata(&d->ret));
    struct cm_dma_rd_tag *t = &d->tag[ret.tag];

    d->rerr = !ret.last && (d->rerr || t->err);
    cm_fifo_clock(&d->ret, false, 0, true);
    cm_fifo_clock(&d->free_tags, true, ret.tag, false);
    t->busy = t->done = false;
    d->out = (d->out - 1) & 0x1FF;
    d->obytes = (d->obytes - ret.bytes) & M21;
    d->wait = 0;
    d->to_fired = false;
    return cm_dma_rd_oldest_done(d);
}

uint32_t cm_dma_rd_timer_left(const struct cm_dma_rd *d, uint32_t cpl_timeout)
{
    /* cm_dma_rd_timer(): it counts while the oldest MRd is out and not
     * done, and fires on the clock its wait reaches the time-out. */
    if (cpl_timeout == 0 || d->to_fired || !cm_fifo_rvalid(&d->ret) || cm_dma_rd_oldest_done(d))
        return UINT32_MAX;
    return d->wait >= cpl_timeout ? 0 : cpl_timeout - d->wait;
}

void cm_dma_rd_timer_run(struct cm_dma_rd *d, uint32_t clocks, uint32_t cpl_timeout)
{
    /* (cm_dma_rd_timer_edge(): the count goes on, or stays restarted) */
    if (cm_dma_rd_timer_left(d, cpl_timeout) != UINT32_MAX)
        d->wait = (d->wait + clocks) & M24;
}

void cm_dma_rd_take_beats(struct cm_dma_rd *d, unsigned tag, unsigned n, uint32_t *wptr)
{
    struct cm_dma_rd_tag *t = &d->tag[tag];

    *wptr = t->wptr;
    t->wptr = cm_ptr(d, (uint64_t)t->wptr + (uint64_t)d->w * n);
}

bool cm_dma_rd_take_beat(struct cm_dma_rd *d, unsigned tag, bool eop, unsigned len,
                         uint32_t *wptr)
{
    struct cm_dma_rd_tag *t = &d->tag[tag];
    const bool done = eop && t->rem == len; /* (cm_dma_rd_comb()'s cpl_done) */

    *wptr = t->wptr;
    cm_dma_rd_take(d, t, t->wptr, t->rem, false, eop, len);
    if (!done) /* (cm_dma_rd_tables()) */
        return false;
    t->done = true;
    return cm_ret_unpack(cm_fifo_rdata(&d->ret)).tag == tag;
}

void cm_dma_rd_step(struct cm_dma_rd *d, const struct cm_dma_rd_in *in, struct cm_dma_rd_out *out)
{
    struct cm_dma_rd_comb c;

    if (cm_dma_rd_quiet(d, in, &c)) {
        cm_dma_rd_quiet_outputs(d, in, &c, out);
        cm_dma_rd_quiet_edge(d, in, &c);
        return;
    }
    cm_dma_rd_comb(d, in, &c);
    cm_dma_rd_outputs(d, in, &c, out);
    cm_dma_rd_edge(d, in, &c);
}
