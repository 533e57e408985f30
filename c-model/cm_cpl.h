/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_cpl.h - the completion and interrupt logic of the C model
 * (docs/c-model.md), cycle-exact at the ports of rtl/nictx_cpl.sv: the
 * head, completion writes (HEAD_WB, DESC_WB, CQ, DESC_WB_FULL: the batch's
 * whole descriptors in writes cut at MPS-aligned addresses and the ring's
 * wrap, one after the other) every WB_THRESH, at the
 * tail and before an interrupt, interrupts by threshold and moderation
 * timer, MSI-X masks and pending bits; with several queues the same per
 * queue, the pending writes and interrupts sent round robin and the
 * timers in a FIFO of deadlines; and the skipped-clock interface.
 *
 * A clock: cm_cpl_wq() names the queue whose write goes out next (from
 * the state alone); the caller answers its registers (w_* in struct
 * cm_cpl_in) and pkt_q's (c_*), as the engine's register block does;
 * cm_cpl_eval() gives this clock's outputs, cm_cpl_clock() takes the
 * rising edge with the same inputs.
 */
#ifndef NICTX_CM_CPL_H
#define NICTX_CM_CPL_H

#include <stdbool.h>
#include <stdint.h>

#define CM_CPL_MAX_QUEUES 64u

enum { CM_CPL_HEAD_WB = 0, CM_CPL_DESC_WB = 1, CM_CPL_CQ = 2, CM_CPL_DESC_WB_FULL = 3 }; /* CPL_MODE */

struct cm_cpl_in {
    bool multi;                     /* QUEUES > 1 */
    unsigned pkt_q;                 /* pkt_done's queue */
    unsigned c_ring_log2, c_tail;   /* pkt_q's registers */
    uint64_t c_wb_addr, c_cq_base;
    uint64_t w_wb_addr, w_ring_base, w_cq_base, w_msix_addr; /* cm_cpl_wq()'s registers */
    unsigned w_ring_log2, w_cq_log2;
    uint32_t w_msix_data;
    uint64_t msix_mask;             /* VEC_CTRL.MASK per vector */
    unsigned hr_q;
    unsigned ring_log2, tail;       /* queue 0's page (one queue) */
    bool pkt_done;
    unsigned cpl_mode;
    uint64_t ring_base, cq_base, wb_addr, irq_addr;
    unsigned cq_log2, wb_thresh, irq_thresh;
    unsigned mps_log2;              /* MPS_LOG2: DESC_WB_FULL's cut */
    uint32_t irq_timer, irq_data;
    bool wr_ready;                  /* (a write of several beats: with its last) */
    uint32_t skip;                  /* clocks left out before this one (24 bits) */
};

struct cm_cpl_out {
    unsigned c_q, w_q;
    uint64_t pba;
    unsigned hr_head, head;
    bool wr_valid;
    uint64_t wr_addr, wr_data;
    unsigned wr_len;
    bool timer, wait, idle;
    bool quiet;          /* the clock only counted itself (nothing pending, due or sent) */
    bool tmr_fire;       /* an interrupt raised by a moderation timer (a cover point) */
    uint32_t wake;
};

struct cm_cpl_wr { /* a posted write */
    bool valid;
    uint64_t addr, data; /* len > 8 (DESC_WB_FULL): data is each descriptor's word 1 */
    unsigned len;
};

struct cm_cpl {
    unsigned queues, qbits;         /* NumQueues; its index bits */
    /* One queue */
    unsigned head, wb_cnt, irq_cnt, cq_pi;
    bool hphase, cq_ph, wb_pend, irq_pend, tmr_run;
    struct cm_cpl_wr wb;            /* the completion write captured */
    unsigned wb_n;                  /* DESC_WB_FULL: descriptors left to write (at wb.addr) */
    uint32_t tmr;
    struct cm_cpl_wr wr;            /* the output register */
    /* Queues */
    unsigned mhead[CM_CPL_MAX_QUEUES], mrc[CM_CPL_MAX_QUEUES], mpi[CM_CPL_MAX_QUEUES];
    uint32_t mcic[CM_CPL_MAX_QUEUES];   /* {written-due count, not-signalled count} */
    uint32_t mdl[CM_CPL_MAX_QUEUES];    /* the running timer's deadline (26 bits) */
    uint64_t mpend, mph, mcph, mirq, mrun;
    unsigned mptr, miptr;
    uint32_t tf_q[CM_CPL_MAX_QUEUES], tf_dl[CM_CPL_MAX_QUEUES]; /* timer FIFO */
    unsigned tf_rd, tf_wr;          /* pointers with one wrap bit */
    uint32_t now;                   /* free-running cycle count (26 bits) */
};

/* Reset (the RTL resets every register) a block of `queues` (1, or a power
 * of two up to 64) queues; -1 for another count. */
int cm_cpl_reset(struct cm_cpl *c, unsigned queues);
unsigned cm_cpl_wq(const struct cm_cpl *c, const struct cm_cpl_in *in);
void cm_cpl_eval(const struct cm_cpl *c, const struct cm_cpl_in *in, struct cm_cpl_out *out);
/* idle (cm_cpl_out) alone: it depends on the state and the register
 * block's inputs, not on pkt_done, pkt_q or wr_ready (the engine needs it
 * before the MAC's frame is known). */
bool cm_cpl_idle(const struct cm_cpl *c, const struct cm_cpl_in *in);
void cm_cpl_clock(struct cm_cpl *c, const struct cm_cpl_in *in);
/* Both on one clock whose inputs are all known: eval's outputs, then the
 * edge on the same decisions (worked out once). */
void cm_cpl_step(struct cm_cpl *c, const struct cm_cpl_in *in, struct cm_cpl_out *out);
/* `clocks` clocks (skipped ones counted) on which it only counts the clock
 * (its quiet output: cm_cpl_out.quiet), at once. */
void cm_cpl_count(struct cm_cpl *c, const struct cm_cpl_in *in, uint32_t clocks);

#endif
