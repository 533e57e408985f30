/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_wc.h - the write-combining descriptor window of the C model
 * (docs/c-model.md), cycle-exact at the ports of rtl/nictx_wc.sv: BAR0
 * 0x200..0x3FF as two 256-byte buffers, the written bits of each block's
 * words 0..2, the close by its word 7 (doorbell, tail, the block for the
 * descriptor fetcher or a torn one), and the refusal of writes the window
 * does not accept.
 *
 * A clock, as the RTL's: cm_wc_eval() gives this clock's outputs (all
 * combinational from the beat) without changing state, cm_wc_clock() takes
 * the rising edge with the same inputs.  cm_wc_reset() is the reset input
 * and power-on alike (every register of the window is reset).
 */
#ifndef NICTX_CM_WC_H
#define NICTX_CM_WC_H

#include <stdbool.h>
#include <stdint.h>

#define CM_WC_PROTO_WC 2u /* PROTO: WC (nictx_reg_pkg::ProtoWc) */

struct cm_wc_in {
    unsigned proto;        /* PROTO (2 bits) */
    unsigned ring_log2;    /* RING_LOG2 (5 bits) */
    bool req_valid, req_sop, req_eop;
    unsigned req_len;      /* the TLP's bytes (13 bits) */
    unsigned req_off;      /* its BAR0 offset (10 bits) */
    const uint8_t *req_data; /* the beat's W bytes (lanes follow the address) */
};

struct cm_wc_out {
    bool bad_access, close, tail_we, tail_range, torn, blk_valid, busy;
    unsigned tail, blk_idx;
    unsigned buf;          /* the buffer of the block closed (close) */
    uint64_t blk_w0, blk_w1;
};

struct cm_wc {
    unsigned w;            /* DataBytes */
    uint64_t w0[2], w1[2]; /* per buffer: descriptor words 0 and 1 */
    unsigned idx[2];       /* ... its ring index */
    unsigned vld[2];       /* ... written bits of words {2, 1, 0} */
    unsigned beat;         /* beat within the TLP (11 bits) */
};

/* Reset (and power-on) a window of data_bytes (8, 16, 32 or 64) a beat;
 * -1 for another width. */
int cm_wc_reset(struct cm_wc *c, unsigned data_bytes);
void cm_wc_eval(const struct cm_wc *c, const struct cm_wc_in *in, struct cm_wc_out *out);
void cm_wc_clock(struct cm_wc *c, const struct cm_wc_in *in);

#endif
