/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_wc.c - the write-combining descriptor window of the C model (cm_wc.h),
 * after the contract in rtl/nictx_wc.sv's header.
 */
#include "cm_wc.h"

#include <string.h>

/* The beat decoded: which of the window's 8-byte words it writes. */
struct cm_wc_beat {
    bool ok;          /* the TLP is one the window accepts */
    unsigned wbase;   /* word offset in BAR0 of the beat's lane 0 (7 bits) */
    unsigned wfirst, wend; /* the TLP's words: wfirst..wend-1 (wend 0: to the window's end) */
};

int cm_wc_reset(struct cm_wc *c, unsigned data_bytes)
{
    if (data_bytes != 8 && data_bytes != 16 && data_bytes != 32 && data_bytes != 64)
        return -1;
    memset(c, 0, sizeof(*c));
    c->w = data_bytes;
    return 0;
}

static unsigned lane_bits(unsigned w)
{
    unsigned b = 0;
    while ((1u << b) < w)
        b++;
    return b;
}

static struct cm_wc_beat cm_wc_decode(const struct cm_wc *c, const struct cm_wc_in *in)
{
    struct cm_wc_beat d = {0};
    if (!in->req_valid)
        return d;
    unsigned lb = lane_bits(c->w);
    unsigned end = in->req_off + in->req_len; /* 14 bits: no wrap */
    d.wbase = ((((in->req_off >> lb) + c->beat) & 0x3FF) << (lb - 3)) & 0x7F;
    d.wfirst = in->req_off >> 3;
    d.wend = (end >> 3) & 0x7F;
    d.ok = in->proto == CM_WC_PROTO_WC && (in->req_off & 0x200) && (in->req_off & 7) == 0 &&
           (in->req_len & 7) == 0 && in->req_len >= 8 && in->req_len <= 256 && end <= 0x400;
    return d;
}

static bool cm_wc_word_in(const struct cm_wc_beat *d, unsigned woff)
{
    return woff >= d->wfirst && (woff < d->wend || d->wend == 0);
}

static uint64_t cm_wc_word(const struct cm_wc_in *in, unsigned j)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 8; i++)
        v |= (uint64_t)in->req_data[8 * j + i] << (8 * i);
    return v;
}

/* The ring's index mask (RING_LOG2 16 and beyond: all 16 bits). */
static unsigned cm_wc_ring_mask(const struct cm_wc_in *in)
{
    return in->ring_log2 >= 16 ? 0xFFFFu : (1u << in->ring_log2) - 1;
}

void cm_wc_eval(const struct cm_wc *c, const struct cm_wc_in *in, struct cm_wc_out *out)
{
    struct cm_wc_beat d = cm_wc_decode(c, in);
    unsigned bw = 0, v = 0, bsel = 0, bidx = 0;
    uint64_t bw0 = 0, bw1 = 0;

    if (!in->req_valid) { /* no beat: buffer 0's block, unchanged (most clocks) */
        *out = (struct cm_wc_out){
            .tail = (c->idx[0] + 1) & cm_wc_ring_mask(in),
            .blk_idx = c->idx[0],
            .blk_w0 = c->w0[0],
            .blk_w1 = c->w1[0],
            .busy = c->beat != 0,
        };
        return;
    }
    memset(out, 0, sizeof(*out));
    out->bad_access = in->req_sop && !d.ok;
    /* The beat's words in address order; word 7 closes its buffer's block
     * with what words 0..2 hold by then. */
    for (unsigned j = 0; d.ok && j < c->w / 8; j++) {
        unsigned woff = (d.wbase + j) & 0x7F;
        if (!cm_wc_word_in(&d, woff))
            continue;
        uint64_t x = cm_wc_word(in, j);
        switch (woff & 31) {
        case 0: bw |= 1; bw0 = x; break;
        case 1: bw |= 2; bw1 = x; break;
        case 2: bw |= 4; bidx = x & 0xFFFF; break;
        case 7:
            out->close = true;
            bsel = (woff >> 5) & 1;
            v = c->vld[bsel] | bw;
            break;
        default: break; /* words 3..6 and 8..31: accepted, ignored */
        }
    }
    /* The closed block (buffer 0's with no close), as words 0..2 stand
     * after this beat's writes when they are in that buffer. */
    if (((d.wbase >> 5) & 1) != bsel)
        bw = 0;
    unsigned mask = cm_wc_ring_mask(in);
    unsigned idx = (bw & 4) ? bidx : c->idx[bsel];
    out->tail = (idx + 1) & mask;
    if (out->close) {
        bool in_ring = (idx & ~mask & 0xFFFF) == 0;
        out->tail_we = (v & 4) && in_ring;
        out->tail_range = (v & 4) && !in_ring;
        out->blk_valid = v == 7 && in_ring;
        out->torn = !(v == 7 && in_ring);
    }
    out->blk_idx = idx;
    out->buf = bsel;
    out->blk_w0 = (bw & 1) ? bw0 : c->w0[bsel];
    out->blk_w1 = (bw & 2) ? bw1 : c->w1[bsel];
    out->busy = c->beat != 0;
}

void cm_wc_clock(struct cm_wc *c, const struct cm_wc_in *in)
{
    struct cm_wc_beat d = cm_wc_decode(c, in);

    if (in->req_valid)
        c->beat = in->req_eop ? 0 : (c->beat + 1) & 0x7FF;
    if (!d.ok) {
        if (in->proto != CM_WC_PROTO_WC)
            c->vld[0] = c->vld[1] = 0; /* blocks belong to the WC protocol only */
        return;
    }
    for (unsigned j = 0; j < c->w / 8; j++) {
        unsigned woff = (d.wbase + j) & 0x7F, b = (woff >> 5) & 1;
        if (!cm_wc_word_in(&d, woff))
            continue;
        uint64_t x = cm_wc_word(in, j);
        switch (woff & 31) {
        case 0: c->w0[b] = x; c->vld[b] |= 1; break;
        case 1: c->w1[b] = x; c->vld[b] |= 2; break;
        case 2: c->idx[b] = x & 0xFFFF; c->vld[b] |= 4; break;
        case 7: c->vld[b] = 0; break;
        default: break;
        }
    }
}
