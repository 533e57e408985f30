/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_regs.h - the BAR0 register block of the C model (docs/c-model.md),
 * cycle-exact at the ports of rtl/nictx_regs.sv with the parameters
 * rtl/nictx_tx_top.sv gives it (DescFetchMaxHw 64, DescReadsHw 8, NumTags
 * 256) and NumQueues a parameter of cm_regs_reset(): host MWr and MRd
 * beats (4 bytes 4-aligned, 8 bytes 8-aligned) to the register page, the
 * queue blocks, the MSI-X table and its PBA; the read's completion (one
 * outstanding, Unsupported Request beyond the page and the blocks in use);
 * the refusals (BAD_ACCESS, CFG, DB_OFF, TAIL_RANGE); the doorbell; the
 * error bits the engine's events set; the counters; the queue reset's
 * wait for quiescence and drained reads or CPL_TIMEOUT cycles, and its
 * one-cycle pulse.
 *
 * The register map (offsets, reset values, fields, enum values) and its
 * register table (the decode of an offset to a register id, each
 * register's write mask, legal values and refusal rule) are
 * driver/nictx_regs_gen.h, generated from rtl/regs/nictx_regs.rdl, as the
 * RTL's are rtl/nictx_reg_pkg.sv: the model names nothing of it a second
 * time.  What a register does once a write is taken is written from the
 * RTL, as handlers by register id (cm_regs.c).
 *
 * Outputs and what they depend on.  Registers (state alone; read them
 * from struct cm_regs as the accessors below do, or from cm_regs_eval()):
 *   cpl_*, enable, proto, stop, qrst, rst_hold, cpl_timeout, queues,
 *   queues_log2, sched_drr, drr_quantum, msix_mask, ring_base, ring_log2,
 *   tail, wb_thresh, wb_addr, irq_thresh, irq_data, irq_addr, irq_timer,
 *   cpl_mode, cq_base, cq_log2, mrrs_log2, mps_log2, line_rate, desc_fetch_max,
 *   desc_inflight, max_tags, max_rd_bytes, idle.
 * Combinational from inputs:
 *   req_ready    <- req_type (and cpl_valid): cm_regs_req_ready()
 *   hr_q         <- req_off alone (no state of the block): cm_regs_hr_q();
 *                   in the engine req_off is the host slice's output, so
 *                   hr_q is known from state before any block is evaluated
 *   f_*          <- f_q; c_* <- c_q; w_* <- w_q; s_* <- s_q: the index
 *                   ports are the arrays of struct cm_regs at that index
 *                   (read them directly: index q < 64; an index >= NumQueues
 *                   reads 0, as the Verilated RTL's out-of-range read does)
 *   wc_hold      <- rd_drained: cm_regs_wc_hold()
 *   doorbell, db_q, db_tail <- req_* (valid, type, len, off, data),
 *                   wc_close, wc_tail_we, wc_tail, quiescent, rd_drained:
 *                   cm_regs_doorbell()
 * Inputs used only at the edge (no output depends on them in the same
 * clock): cpl_ready, pba, hr_head, engine_idle, and every event (pkt_*,
 * desc_rd, dma_rd, rd_stall, bad_desc, dma_err, cpl_timeout, unexp_cpl,
 * not_owned*, wc_bad_access, wc_tail_range, wc_torn, wc_drop, wc_used).
 * quiescent and rd_drained also reach STATUS and the reset at the edge.
 *
 * A clock, in the engine's order: the index ports' answers from the arrays
 * (f_q, c_q, w_q, s_q are other blocks' outputs); hr_q = cm_regs_hr_q(the
 * request's offset), which the completion logic answers with hr_head; then
 * the doorbell and wc_hold once rd_drained, quiescent and the WC window's
 * close are known; cm_regs_clock() with every input, hr_head and pba
 * included.  cm_regs_eval() gives every output at once (the test's
 * comparison); it changes nothing.  On a clock with no request, no reset
 * in progress and no event that reaches the configuration, the error bits
 * or a tail (the engine's usual clock), cm_regs_clock() updates only the
 * counters and the completion taken.
 */
#ifndef NICTX_CM_REGS_H
#define NICTX_CM_REGS_H

#include <stdbool.h>
#include <stdint.h>

#include "nictx_regs_gen.h"

#define CM_REGS_MAX_QUEUES NICTX_Q_MAX /* the arrays' size */
/* The engine's parameters (rtl/nictx_tx_top.sv), which the register map
 * names as the greatest values of DESC_FETCH_MAX, DESC_INFLIGHT and
 * MAX_TAGS (NICTX_HWP_*; NumQueues, QUEUES', is cm_regs_reset()'s). */
#define CM_REGS_DESC_FETCH_MAX_HW 64u
#define CM_REGS_DESC_READS_HW 8u
#define CM_REGS_NUM_TAGS 256u
/* The TLP types the block takes (rtl/nictx_pkg.sv; sim/device/device.h's
 * DEV_TLP_MWR and DEV_TLP_MRD, checked in cm_regs.c). */
#define CM_REGS_TLP_MWR 0u
#define CM_REGS_TLP_MRD 1u

struct cm_regs_in {
    bool req_valid;
    unsigned req_type;              /* CM_REGS_TLP_* or another type (2 bits) */
    unsigned req_tag, req_len, req_off; /* 8, 13, 13 bits (req_off: BAR0 offset) */
    uint64_t req_data;              /* the 8-byte word at the offset's lanes */
    bool cpl_ready;
    unsigned f_q, c_q, w_q, s_q;    /* index ports (QW bits) */
    uint64_t pba;
    unsigned hr_head;               /* the head of queue hr_q (16 bits) */
    bool rd_stall, pkt_done;
    unsigned pkt_len, pkt_q;        /* 14 bits, QW bits */
    bool desc_rd, dma_rd, bad_desc, dma_err, cpl_timeout, unexp_cpl;
    bool quiescent, rd_drained, engine_idle, not_owned;
    unsigned not_owned_cnt;         /* 16 bits */
    bool wc_bad_access, wc_close, wc_tail_we;
    unsigned wc_tail;               /* 16 bits */
    bool wc_tail_range, wc_torn, wc_drop, wc_used;
};

struct cm_regs_out {
    bool req_ready, cpl_valid, cpl_err;
    unsigned cpl_tag, cpl_len, cpl_off;
    uint64_t cpl_data;
    bool enable, stop, qrst, rst_hold, wc_hold, doorbell, sched_drr;
    unsigned proto, db_q, db_tail, queues, queues_log2, drr_quantum;
    uint32_t cpl_timeout;
    uint64_t f_ring_base;
    unsigned f_ring_log2, f_tail;
    unsigned c_ring_log2, c_tail;
    uint64_t c_wb_addr, c_cq_base;
    uint64_t w_wb_addr, w_ring_base, w_cq_base, w_msix_addr;
    unsigned w_ring_log2, w_cq_log2;
    uint32_t w_msix_data;
    uint64_t msix_mask;
    unsigned s_weight, s_ring_log2, hr_q;
    uint64_t ring_base, wb_addr, irq_addr, cq_base;
    unsigned ring_log2, tail, wb_thresh, irq_thresh, cpl_mode, cq_log2, mrrs_log2, mps_log2;
    uint32_t irq_data, irq_timer, line_rate, max_rd_bytes;
    unsigned desc_fetch_max, desc_inflight, max_tags;
    bool idle;
};

/* The block's registers.  Every field may be read (never written) by the
 * engine; the per-queue arrays are the index ports: entry q is queue (or
 * MSI-X vector) q's, queue 0's also the register page's aliases (ring_base_o
 * is ring_base[0], irq_addr_o msix_addr[0], ...); entries >= nq stay 0. */
struct cm_regs {
    unsigned nq, qmask;             /* NumQueues; the index ports' mask (QW bits) */
    uint32_t hw[NICTX_NUM_HWPS];    /* the parameters a register's bound names */
    /* Configuration and error state (uint32_t: the handlers store a register
     * by its offset in the struct) */
    bool enable, rst_pend, qrst, cfg_open, sched;
    uint32_t proto, err, queues, qlog, cpl_mode, mrrs_log2, mps_log2, fetch_max, inflight,
        max_tags;
    uint32_t wb_thresh, irq_thresh, quantum;
    uint32_t rst_wait, cpl_to, irq_timer, line_rate, max_rd;
    uint64_t msix_mask, rb_zero;    /* per vector; per queue: its ring base is 0 */
    /* Per queue (vector) */
    uint64_t ring_base[CM_REGS_MAX_QUEUES], wb_addr[CM_REGS_MAX_QUEUES];
    uint64_t cq_base[CM_REGS_MAX_QUEUES], msix_addr[CM_REGS_MAX_QUEUES];
    uint64_t qcnt_bytes[CM_REGS_MAX_QUEUES];
    uint32_t msix_data[CM_REGS_MAX_QUEUES], qcnt_pkts[CM_REGS_MAX_QUEUES];
    uint16_t tail[CM_REGS_MAX_QUEUES];
    uint8_t ring_log2[CM_REGS_MAX_QUEUES], cq_log2[CM_REGS_MAX_QUEUES];
    uint8_t weight[CM_REGS_MAX_QUEUES];
    /* Counters */
    uint32_t cnt_stall, cnt_pkts, cnt_db, cnt_desc_rd, cnt_dma_rd, cnt_not_owned;
    uint32_t cnt_wc, cnt_wc_drop;
    uint64_t cnt_bytes;
    /* The read's completion */
    bool cpl_valid, cpl_err;
    unsigned cpl_tag, cpl_len, cpl_off;
    uint64_t cpl_data;
    /* Not a register: counts the clocks on which a register other than the
     * counters and the completion may have changed (a reader that keeps
     * copies of the configuration refreshes them when it moves). */
    uint32_t gen;
};

/* Reset (the RTL's reset: every register) a block of `queues` queues (1,
 * or a power of two up to 64); -1 for another count. */
int cm_regs_reset(struct cm_regs *r, unsigned queues);
/* The same with the hardware's NumTags and DescReads (the bounds of
 * MAX_TAGS and DESC_INFLIGHT) other than their defaults. */
int cm_regs_reset_hw(struct cm_regs *r, unsigned queues, unsigned tags, unsigned desc_reads);
void cm_regs_eval(const struct cm_regs *r, const struct cm_regs_in *in, struct cm_regs_out *out);
void cm_regs_clock(struct cm_regs *r, const struct cm_regs_in *in);

/* hr_q_o: the queue (or MSI-X vector) a request's offset names, 0 for the
 * register page; from the offset alone. */
static inline unsigned cm_regs_hr_q(const struct cm_regs *r, unsigned req_off)
{
    if (nictx_q_hit(req_off))
        return nictx_q_index(req_off) & r->qmask;
    if (nictx_msix_hit(req_off))
        return nictx_msix_index(req_off) & r->qmask;
    return 0;
}

/* req_ready_o: low only for an MRd while a completion waits. */
static inline bool cm_regs_req_ready(const struct cm_regs *r, unsigned req_type)
{
    return !(req_type == CM_REGS_TLP_MRD && r->cpl_valid);
}

/* wc_hold_o: a pending reset no longer waits for reads, or fires. */
static inline bool cm_regs_wc_hold(const struct cm_regs *r, bool rd_drained)
{
    return (r->rst_pend && (rd_drained || r->rst_wait >= r->cpl_to)) || r->qrst;
}

/* doorbell_o; db_q_o and db_tail_o into *db_q, *db_tail. */
bool cm_regs_doorbell(const struct cm_regs *r, const struct cm_regs_in *in, unsigned *db_q,
                      unsigned *db_tail);

/* The registers' outputs (state alone). */
static inline bool cm_regs_stop(const struct cm_regs *r)
{
    return (r->err & (NICTX_ERR_DMA | NICTX_ERR_CPL_TIMEOUT)) != 0;
}
static inline bool cm_regs_rst_hold(const struct cm_regs *r)
{
    return r->rst_pend || r->qrst;
}
/* idle_o: no completion waiting and no queue reset pending or firing. */
static inline bool cm_regs_idle(const struct cm_regs *r)
{
    return !r->cpl_valid && !r->rst_pend && !r->qrst;
}

#endif
