/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_dma_rd.h - the DMA read engine of the C model (docs/c-model.md),
 * cycle-exact at the ports of rtl/nictx_dma_rd.sv: two requesters' reads
 * split into MRd TLPs at MRRS boundaries, tags fresh then from a free
 * list, the MAX_TAGS and byte budget limits, completion beats steered to
 * the requesters' buffers as word writes, reads retired in issue order
 * (with their error status), unexpected completions flagged, the
 * completion timeout, and the skipped-clock interface (wait, wake, skip).
 *
 * A clock, as the RTL's: cm_dma_rd_eval() gives this clock's outputs for
 * its inputs without changing state, cm_dma_rd_clock() takes the rising
 * edge with the same inputs.  cm_dma_rd_reset() is the reset input (the
 * per-tag tables and FIFO storage keep their contents, as RAMs do);
 * cm_dma_rd_init() is power-on.
 */
#ifndef NICTX_CM_DMA_RD_H
#define NICTX_CM_DMA_RD_H

#include <stdbool.h>
#include <stdint.h>

#include "cm_fifo.h"

#define CM_DMA_RD_MAX_TAGS 256u

struct cm_dma_rd_req { /* a read offered by requester 0 (payload) or 1 (descriptors) */
    bool valid;
    uint64_t addr;
    unsigned len;      /* 14 bits */
    uint32_t wptr;     /* the requester's byte pointer of addr's byte (ptr_bits) */
};

struct cm_dma_rd_in {
    unsigned mrrs_log2;     /* 4 bits */
    unsigned max_tags;      /* 9 bits */
    uint32_t max_rd_bytes;  /* 21 bits; 0: no limit */
    struct cm_dma_rd_req req[2];
    bool mrd_ready;
    bool cpl_valid, cpl_sop, cpl_eop, cpl_err;
    unsigned cpl_tag;       /* 8 bits */
    unsigned cpl_len;       /* the completion's bytes (13 bits) */
    unsigned cpl_lane;      /* lane of its first byte */
    const uint8_t *cpl_data; /* W bytes */
    uint32_t cpl_timeout;   /* 24 bits; 0: off */
    uint32_t skip;          /* clocks left out before this one (24 bits) */
};

struct cm_dma_rd_out {
    bool stall;
    bool stall_tags, stall_bytes; /* ... for want of a tag (or MAX_TAGS), of MAX_RD_BYTES (cover points) */
    bool req_ready[2];
    bool mrd_valid;
    uint64_t mrd_addr;
    unsigned mrd_len, mrd_tag;
    bool mrd_dest;
    bool cpl_ready, unexp, timeout, wait;
    uint32_t wake;
    bool wr_valid, wr_dest;
    uint32_t wr_ptr;
    unsigned wr_words;       /* bit j: 8-byte word j of the beat carries completion bytes */
    const uint8_t *wr_data;  /* the beat's bytes (cpl_data) */
    bool done_valid, done_dest, done_err;
    bool drained, idle;
};

struct cm_dma_rd_tag {       /* a tag's table entries */
    bool busy, done, dest, err;
    uint32_t wptr;           /* the requester's byte pointer of the next beat's lane 0 */
    unsigned rem;            /* bytes still to come (13 bits) */
};

struct cm_dma_rd {
    unsigned tags, w, ptr_bits; /* NumTags, DataBytes, PtrW */
    bool cur_valid, cur_dest;
    uint64_t cur_addr;
    unsigned cur_rem;
    uint32_t cur_wptr;
    bool mrd_valid, mrd_dest;
    uint64_t mrd_addr;
    unsigned mrd_len, mrd_tag;
    unsigned out, fresh;     /* MRds outstanding; tags never used yet: fresh.. */
    uint32_t obytes;         /* bytes outstanding */
    bool rerr;               /* an earlier MRd of the retiring read had an error */
    uint32_t wait;           /* clocks the oldest MRd has waited */
    bool to_fired;
    struct cm_dma_rd_tag tag[CM_DMA_RD_MAX_TAGS];
    struct cm_fifo ret;      /* {tag, last, dest, bytes} per MRd, in issue order */
    struct cm_fifo free_tags;
};

/* Power-on: NumTags `tags` (2..256, a power of two), DataBytes `w` (8..64,
 * a power of two), buffer pointers of `ptr_bits` (1..32) bits.  -1 for
 * other sizes. */
int cm_dma_rd_init(struct cm_dma_rd *d, unsigned tags, unsigned w, unsigned ptr_bits);
void cm_dma_rd_reset(struct cm_dma_rd *d);
void cm_dma_rd_eval(const struct cm_dma_rd *d, const struct cm_dma_rd_in *in,
                    struct cm_dma_rd_out *out);
void cm_dma_rd_clock(struct cm_dma_rd *d, const struct cm_dma_rd_in *in);
/* Both on one clock whose inputs are all known: eval's outputs, then the
 * edge on the same decisions (worked out once). */
void cm_dma_rd_step(struct cm_dma_rd *d, const struct cm_dma_rd_in *in, struct cm_dma_rd_out *out);

/* Stream clocks (the engine's, cm_engine.h): clocks with no read requested,
 * none being split or sent, and the oldest not retiring, or retiring with
 * no done for its requester (an MRd but the last of its read), or with a
 * done for the payload fetch without an error (its read's last), and a
 * completion beat, if any, for a read that is out (cm_dma_rd_stream_tag():
 * for requester dest, 0 the payload buffer, 1 the descriptors; else it
 * would be unexpected) and without an error.  Such a clock changes only
 * the beat's tag, the timer and, when the oldest retires on it, the
 * retired MRd's (cm_dma_rd_stream_retire()); the engine needs of its
 * outputs only the beat's place and words (cm_dma_rd_beat_words()).
 * Of the state, cm_dma_rd_stream_ready() says: 0 not such a clock, 1 one,
 * 2 one on which the oldest retires with no done, 3 one on which it
 * retires with its done for the payload fetch. */
int cm_dma_rd_stream_ready(const struct cm_dma_rd *d);
/* The edge of a stream clock on which the oldest retires: its tag freed,
 * the bytes and MRds outstanding less it, the read's error carried, the
 * timer restarted (the beat taken, if any: cm_dma_rd_take_beat(), before).
 * Returns true when the next oldest retires on the next clock. */
bool cm_dma_rd_stream_retire(struct cm_dma_rd *d);
static inline bool cm_dma_rd_stream_tag(const struct cm_dma_rd *d, unsigned tag, bool dest)
{
    return tag < d->tags && tag < d->fresh && d->tag[tag].busy && d->tag[tag].dest == dest;
}
/* wr_words of a completion beat: its first lane (the address's), the
 * TLP's length in bytes, whether it is the TLP's first and last beat. */
unsigned cm_dma_rd_beat_words(const struct cm_dma_rd *d, unsigned lane, unsigned len, bool sop,
                              bool eop);
/* The stream clocks, from this one on, before the completion timer fires
 * with time-out `cpl_timeout` (UINT32_MAX while it does not count, which
 * stays so); and the timer after `clocks` of them, at once. */
uint32_t cm_dma_rd_timer_left(const struct cm_dma_rd *d, uint32_t cpl_timeout);
void cm_dma_rd_timer_run(struct cm_dma_rd *d, uint32_t clocks, uint32_t cpl_timeout);
/* A stream clock's completion beat taken into `tag`, its TLP's last if
 * eop (of len bytes): *wptr, the payload buffer pointer it is written at
 * (wr_ptr).  Returns true when the oldest read is done after it: that read
 * retires on the next clock. */
bool cm_dma_rd_take_beat(struct cm_dma_rd *d, unsigned tag, bool eop, unsigned len,
                         uint32_t *wptr);
/* And n such beats at once, none its TLP's last: *wptr the first's place. */
void cm_dma_rd_take_beats(struct cm_dma_rd *d, unsigned tag, unsigned n, uint32_t *wptr);

#endif
