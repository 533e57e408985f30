/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_payload.h - the payload fetch of the C model (docs/c-model.md),
 * cycle-exact at the ports of rtl/nictx_payload_fetch.sv: for each
 * descriptor, room reserved in a circular reassembly buffer of W-byte words
 * and a read request to the DMA read engine; read data written as whole
 * words in any order; frames streamed in descriptor order once their read
 * has retired, realigned to frame byte 0, W bytes a beat; a bad descriptor
 * (or a frame whose read failed) as one skip beat.
 *
 * A clock, as the RTL's: cm_payload_eval() gives this clock's outputs for
 * its inputs without changing state, cm_payload_clock() takes the rising
 * edge with the same inputs.  cm_payload_reset() is the reset input (the
 * buffer and FIFO storage keep their contents, as RAMs do);
 * cm_payload_create() is power-on.
 */
#ifndef NICTX_CM_PAYLOAD_H
#define NICTX_CM_PAYLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "cm_fifo.h"

struct cm_payload_in {
    bool desc_valid;
    uint64_t desc_addr;
    unsigned desc_len;      /* 14 bits */
    bool desc_bad, desc_err;
    unsigned desc_q;
    bool req_ready;
    bool wr_valid;
    uint32_t wr_ptr;        /* buffer byte pointer of the word's lane 0 */
    const uint8_t *wr_data; /* W bytes */
    bool done, done_err;
    bool fr_ready;
};

struct cm_payload_out {
    bool desc_ready;
    bool req_valid;
    uint64_t req_addr;
    unsigned req_len;
    uint32_t req_wptr;
    bool fr_valid, fr_sop, fr_eop, fr_skip;
    uint8_t fr_data[64];    /* the beat's W bytes; 0 without a beat */
    unsigned fr_bytes, fr_len, fr_q;
    bool bad_desc;
    bool idle;
};

struct cm_payload {
    unsigned w, lane_bits;  /* bytes a word (DataBytes) and log2 of it */
    unsigned words;         /* BufBytes / W */
    uint8_t *mem;           /* the buffer: words x W bytes */
    uint32_t alloc, base;   /* next free word, head frame's first word (mod 2 x words) */
    uint32_t beat;          /* beat within the head frame */
    bool req_valid;
    uint64_t req_addr;
    unsigned req_len;
    uint32_t req_wptr;
    struct cm_fifo pkt;     /* {queue, skip, lane offset, length} per frame */
    struct cm_fifo err;     /* per retired read: did it fail? */
};

/* Power-on: a payload fetch of data_bytes (8..64, a power of two) a word,
 * buf_bytes (16 KiB..256 KiB, a power of two) of buffer and max_pkts
 * (2..256, a power of two) frames.  NULL for other sizes or no memory. */
struct cm_payload *cm_payload_create(unsigned data_bytes, unsigned buf_bytes, unsigned max_pkts);
void cm_payload_destroy(struct cm_payload *p);
void cm_payload_reset(struct cm_payload *p);
void cm_payload_eval(const struct cm_payload *p, const struct cm_payload_in *in,
                     struct cm_payload_out *out);
void cm_payload_clock(struct cm_payload *p, const struct cm_payload_in *in);
/* cm_payload_clock() on the decisions cm_payload_eval() made: out is its
 * outputs for these inputs (fr_ready aside, which only the edge reads), so
 * they are not worked out again. */
void cm_payload_edge(struct cm_payload *p, const struct cm_payload_in *in,
                     const struct cm_payload_out *out);

/* Clocks on which no descriptor is taken, no read is requested or
 * retires and the head frame does not end (the engine's stream clocks):
 * the head frame (valid: offered; then its record), which stays; */
struct cm_payload_frame {
    bool valid, skip;
    unsigned len, off, q;
};
void cm_payload_head_frame(const struct cm_payload *p, struct cm_payload_frame *f);
/* its bytes from the beat offered on this clock on (rem: the beat is its
 * last when rem <= W), and that beat's W bytes (fr_data); */
static inline unsigned cm_payload_rem(const struct cm_payload *p, const struct cm_payload_frame *f)
{
    return (f->len - (p->beat << p->lane_bits)) & 0x7FFF;
}
void cm_payload_beat(const struct cm_payload *p, const struct cm_payload_frame *f, unsigned rem,
                     uint8_t *data);
/* the beat taken (not the last); and read data written (wr_ptr, wr_data). */
static inline void cm_payload_next(struct cm_payload *p)
{
    p->beat = (p->beat + 1) & (p->words - 1);
}
void cm_payload_write(struct cm_payload *p, uint32_t wr_ptr, const uint8_t *data);
/* And n clocks at once: the head frame's next n beats (none its last)
 * into out (n x W bytes, as n clocks' cm_payload_beat() give them: the
 * buffer's bytes from the beat's on, in a row); n beats taken; n words of
 * read data written from wr_ptr on. */
void cm_payload_beats(const struct cm_payload *p, const struct cm_payload_frame *f, unsigned n,
                      uint8_t *out);
static inline void cm_payload_next_n(struct cm_payload *p, unsigned n)
{
    p->beat = (p->beat + n) & (p->words - 1);
}
void cm_payload_write_n(struct cm_payload *p, uint32_t wr_ptr, const uint8_t *data, unsigned n);
/* A frame's read done without an error on a stream clock (no frame ends
 * on it): cm_payload_edge()'s done alone.  The head frame may be offered
 * from the next clock on (cm_payload_head_frame()). */
void cm_payload_read_done(struct cm_payload *p);

#endif
