/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_fifo.h - rtl/prim_fifo_sync.sv in the C model: a synchronous FIFO of
 * 64-bit words with valid/ready on both sides (docs/c-model.md).
 *
 * As the RTL's: a push is taken only while not full (a pop on the same
 * clock makes no room), rdata is the word at the read pointer also while
 * empty (the storage is not reset, so it is the last word popped from
 * there, or 0 from power-on), and a reset moves the pointers only.
 */
#ifndef NICTX_CM_FIFO_H
#define NICTX_CM_FIFO_H

#include <stdbool.h>
#include <stdint.h>

#define CM_FIFO_MAX_DEPTH 256u

struct cm_fifo {
    unsigned depth;                    /* a power of two, 2..CM_FIFO_MAX_DEPTH */
    uint32_t wptr, rptr;               /* counters; depth = wptr - rptr */
    uint64_t mem[CM_FIFO_MAX_DEPTH];
};

/* Power-on: storage 0, pointers reset.  -1 for a depth not allowed. */
int cm_fifo_init(struct cm_fifo *f, unsigned depth);
/* The reset input: the pointers only. */
void cm_fifo_reset(struct cm_fifo *f);

static inline unsigned cm_fifo_count(const struct cm_fifo *f)
{
    return f->wptr - f->rptr;
}
static inline bool cm_fifo_wready(const struct cm_fifo *f)
{
    return cm_fifo_count(f) != f->depth;
}
static inline bool cm_fifo_rvalid(const struct cm_fifo *f)
{
    return f->wptr != f->rptr;
}
static inline uint64_t cm_fifo_rdata(const struct cm_fifo *f)
{
    return f->mem[f->rptr & (f->depth - 1)];
}
/* The rising edge: push `wdata` if wvalid and not full, pop if rready and
 * not empty (both decided on the state before the edge). */
void cm_fifo_clock(struct cm_fifo *f, bool wvalid, uint64_t wdata, bool rready);

#endif
