/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_payload.c - the payload fetch of the C model (cm_payload.h), after the
 * contract in rtl/nictx_payload_fetch.sv's header.
 */
#include "cm_payload.h"

#include <stdlib.h>
#include <string.h>

#include "device/device.h" /* dev_lanes_copy */

/* A packet FIFO entry. */
struct cm_pkt {
    unsigned len, off, q;
    bool skip;
};

static uint64_t cm_pkt_pack(struct cm_pkt k)
{
    return (uint64_t)k.len | (uint64_t)k.off << 14 | (uint64_t)k.skip << 20 | (uint64_t)k.q << 21;
}

static struct cm_pkt cm_pkt_unpack(uint64_t v)
{
    return (struct cm_pkt){.len = v & 0x3FFF, .off = (v >> 14) & 0x3F, .skip = (v >> 20) & 1,
                           .q = (unsigned)(v >> 21)};
}

static bool pow2(unsigned v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

struct cm_payload *cm_payload_create(unsigned data_bytes, unsigned buf_bytes, unsigned max_pkts)
{
    if (!pow2(data_bytes) || data_bytes < 8 || data_bytes > 64 || !pow2(buf_bytes) ||
        buf_bytes < 16384 || buf_bytes > 262144)
        return NULL;
    struct cm_payload *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    p->w = data_bytes;
    while ((1u << p->lane_bits) < data_bytes)
        p->lane_bits++;
    p->words = buf_bytes / data_bytes;
    p->mem = calloc(buf_bytes, 1);
    if (!p->mem || cm_fifo_init(&p->pkt, max_pkts) != 0 || cm_fifo_init(&p->err, max_pkts) != 0) {
        cm_payload_destroy(p);
        return NULL;
    }
    return p;
}

void cm_payload_destroy(struct cm_payload *p)
{
    if (p) {
        free(p->mem);
        free(p);
    }
}

void cm_payload_reset(struct cm_payload *p)
{
    p->alloc = p->base = p->beat = 0;
    p->req_valid = false;
    p->req_addr = 0;
    p->req_len = 0;
    p->req_wptr = 0;
    cm_fifo_reset(&p->pkt);
    cm_fifo_reset(&p->err);
}

/* Words a frame of len bytes starting at lane off occupies. */
static uint32_t cm_payload_words(const struct cm_payload *p, unsigned off, unsigned len)
{
    return (off + len + p->w - 1) >> p->lane_bits;
}

/* The pointers count words modulo twice the buffer (one bit more). */
static uint32_t cm_payload_wrap(const struct cm_payload *p, uint32_t v)
{
    return v & (2 * p->words - 1);
}

/* Whether the offered descriptor is taken this clock. */
static bool cm_payload_take(const struct cm_payload *p, const struct cm_payload_in *in)
{
    if (!in->desc_valid || !cm_fifo_wready(&p->pkt))
        return false;
    if (in->desc_bad)
        return true;
    uint32_t used = cm_payload_wrap(p, p->alloc - p->base);
    uint32_t need = cm_payload_words(p, (unsigned)(in->desc_addr & (p->w - 1)), in->desc_len);
    return p->words - used >= need && (!p->req_valid || in->req_ready);
}

/* The head frame: offered (its read retired, or it is a skip). */
static bool cm_payload_head(const struct cm_payload *p, struct cm_pkt *k)
{
    *k = cm_pkt_unpack(cm_fifo_rdata(&p->pkt));
    return cm_fifo_rvalid(&p->pkt) && (k->skip || cm_fifo_rvalid(&p->err));
}

/* The beat's bytes: bytes off..W-1 of the head's current word, then
 * 0..off-1 of the next while that is still the frame's. */
static void cm_payload_data(const struct cm_payload *p, const struct cm_pkt *k, unsigned rem,
                            uint8_t *out)
{
    uint32_t w0 = (p->base + p->beat) & (p->words - 1);
    uint32_t w1 = (w0 + 1) & (p->words - 1);
    unsigned n0 = p->w - k->off;

    if (k->off == 0) { /* (a frame that starts on a word: every beat a word) */
        dev_lanes_copy(out, p->mem + w0 * p->w, p->w);
        return;
    }
    memcpy(out, p->mem + w0 * p->w + k->off, n0);
    if (k->off + rem > p->w)
        memcpy(out + n0, p->mem + w1 * p->w, k->off);
    else
        memset(out + n0, 0, k->off);
}

void cm_payload_head_frame(const struct cm_payload *p, struct cm_payload_frame *f)
{
    struct cm_pkt k;

    f->valid = cm_payload_head(p, &k);
    f->skip = k.skip || (cm_fifo_rdata(&p->err) & 1);
    f->len = k.len;
    f->off = k.off;
    f->q = k.q;
}

void cm_payload_beat(const struct cm_payload *p, const struct cm_payload_frame *f, unsigned rem,
                     uint8_t *data)
{
    const struct cm_pkt k = {.len = f->len, .off = f->off, .q = f->q, .skip = f->skip};

    cm_payload_data(p, &k, rem, data);
}

void cm_payload_write(struct cm_payload *p, uint32_t wr_ptr, const uint8_t *data)
{
    dev_lanes_copy(p->mem + ((wr_ptr >> p->lane_bits) & (p->words - 1)) * p->w, data, p->w);
}

/* (The buffer is a ring of words: a run of them wraps at its end.) */
void cm_payload_beats(const struct cm_payload *p, const struct cm_payload_frame *f, unsigned n,
                      uint8_t *out)
{
    const size_t size = (size_t)p->words * p->w;
    size_t at = (size_t)((p->base + p->beat) & (p->words - 1)) * p->w + f->off;
    size_t left = (size_t)n * p->w;

    while (left != 0) {
        const size_t k = size - at < left ? size - at : left;
        memcpy(out, p->mem + at, k);
        out += k;
        left -= k;
        at = 0;
    }
}

void cm_payload_write_n(struct cm_payload *p, uint32_t wr_ptr, const uint8_t *data, unsigned n)
{
    uint32_t word = (wr_ptr >> p->lane_bits) & (p->words - 1);

    while (n != 0) {
        const unsigned k = p->words - word < n ? p->words - word : n;
        memcpy(p->mem + (size_t)word * p->w, data, (size_t)k * p->w);
        data += (size_t)k * p->w;
        n -= k;
        word = 0;
    }
}

/* This clock's control: the descriptor taken, the head frame's beat. */
struct cm_payload_ctl {
    bool take;
    bool fr_valid, fr_skip, fr_eop;
    unsigned rem; /* the head frame's bytes from this beat on (15 bits) */
    struct cm_pkt k;
};

static void cm_payload_ctl(const struct cm_payload *p, const struct cm_payload_in *in,
                           struct cm_payload_ctl *c)
{
    c->take = cm_payload_take(p, in);
    c->fr_valid = cm_payload_head(p, &c->k);
    c->fr_skip = c->fr_eop = false;
    c->rem = 0;
    if (!c->fr_valid)
        return;
    c->rem = (c->k.len - (p->beat << p->lane_bits)) & 0x7FFF;
    c->fr_skip = c->k.skip || (cm_fifo_rdata(&p->err) & 1);
    c->fr_eop = c->fr_skip || c->rem <= p->w;
}

void cm_payload_eval(const struct cm_payload *p, const struct cm_payload_in *in,
                     struct cm_payload_out *out)
{
    struct cm_payload_ctl c;

    cm_payload_ctl(p, in, &c);
    out->desc_ready = c.take;
    out->bad_desc = c.take && in->desc_bad && !in->desc_err;
    out->req_valid = p->req_valid;
    out->req_addr = p->req_addr;
    out->req_len = p->req_len;
    out->req_wptr = p->req_wptr;
    out->idle = !p->req_valid && !cm_fifo_rvalid(&p->pkt);
    out->fr_valid = c.fr_valid;
    out->fr_len = c.k.len;
    out->fr_q = c.k.q;
    out->fr_skip = c.fr_skip;
    out->fr_sop = c.fr_valid && p->beat == 0;
    out->fr_eop = c.fr_eop;
    out->fr_bytes = !c.fr_valid || c.fr_skip ? 0 : c.rem >= p->w ? p->w : c.rem;
    if (c.fr_valid)
        cm_payload_data(p, &c.k, c.rem, out->fr_data);
    else
        dev_lanes_zero(out->fr_data, p->w);
}

/* The rising edge on this clock's control: the descriptor taken (take),
 * the head frame's beat offered (fr_valid) and whether it is its last
 * (fr_eop); the head frame's record is the packet FIFO's head. */
static void cm_payload_edge_ctl(struct cm_payload *p, const struct cm_payload_in *in, bool take,
                                bool fr_valid, bool fr_eop)
{
    struct cm_payload_ctl c = {.take = take, .fr_valid = fr_valid, .fr_eop = fr_eop};

    c.k = cm_pkt_unpack(cm_fifo_rdata(&p->pkt));
    bool beat_go = c.fr_valid && in->fr_ready;
    bool pop = beat_go && c.fr_eop;
    bool load = c.take && !in->desc_bad;
    unsigned off = (unsigned)(in->desc_addr & (p->w - 1));

    if (in->wr_valid)
        cm_payload_write(p, in->wr_ptr, in->wr_data);
    if (load) {
        p->req_wptr = (p->alloc & (p->words - 1)) * p->w + off;
        p->alloc = cm_payload_wrap(p, p->alloc + cm_payload_words(p, off, in->desc_len));
        p->req_addr = in->desc_addr;
        p->req_len = in->desc_len;
    }
    if (load || in->req_ready)
        p->req_valid = load;
    if (beat_go) {
        if (c.fr_eop) {
            p->beat = 0;
            if (!c.k.skip)
                p->base = cm_payload_wrap(p, p->base + cm_payload_words(p, c.k.off, c.k.len));
        } else {
            cm_payload_next(p);
        }
    }
    struct cm_pkt nk = {.len = in->desc_len, .off = off, .q = in->desc_q, .skip = in->desc_bad};
    cm_fifo_clock(&p->pkt, c.take, cm_pkt_pack(nk), pop);
    cm_fifo_clock(&p->err, in->done, in->done_err, pop && !c.k.skip);
}

void cm_payload_read_done(struct cm_payload *p)
{
    cm_fifo_clock(&p->err, true, 0, false);
}

void cm_payload_clock(struct cm_payload *p, const struct cm_payload_in *in)
{
    struct cm_payload_ctl c;

    cm_payload_ctl(p, in, &c);
    cm_payload_edge_ctl(p, in, c.take, c.fr_valid, c.fr_eop);
}

void cm_payload_edge(struct cm_payload *p, const struct cm_payload_in *in,
                     const struct cm_payload_out *out)
{
    cm_payload_edge_ctl(p, in, out->desc_ready, out->fr_valid, out->fr_eop);
}
