/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_regs.c - the BAR0 register block of the C model (cm_regs.h), after
 * the contract in rtl/nictx_regs.sv's header.  An access is decoded and a
 * written dword checked with the register table generated from
 * rtl/regs/nictx_regs.rdl (driver/nictx_regs_gen.h: nictx_reg_rid(),
 * nictx_reg_descs[]), as the RTL does with the same table in nictx_reg_pkg;
 * what a register holds and does is its handlers in ops[] (below), by
 * register id, as in QEMU's e1000 (its macreg_readops and writeops).
 */
#include "cm_regs.h"

#include "device/device.h"

#include <stddef.h>
#include <string.h>

_Static_assert(CM_REGS_TLP_MWR == DEV_TLP_MWR && CM_REGS_TLP_MRD == DEV_TLP_MRD,
               "the port's TLP encoding");

#define M16 0xFFFFu
#define M24 0xFFFFFFu

/* What a request's offset names (the RTL's decode of an accepted beat). */
struct cm_regs_dec {
    bool acc, is_wr, is_rd, ok;     /* ok: size_ok && in_page */
    unsigned aq, wr_en;             /* the queue or vector; dwords written (bits 0, 1) */
};

/* A written dword (the RTL's w_rid, w_val, w_ref, w_take): its register,
 * its value masked to the register's fields, the ERR bits that refuse it,
 * whether it is taken. */
struct cm_regs_wr {
    unsigned rid;
    uint32_t v, ref;
    bool take;
};

/* ---------------------------------------------------------------- handlers */

/* A register's handlers: rd gives its value for a read of queue (vector) q;
 * set stores v (a write taken, already masked to the fields, or the reset
 * value); NULL: nothing to store.  at: where a register the generic
 * handlers serve lives in struct cm_regs (a uint32_t, uint64_t, or an array
 * of them by queue). */
typedef uint32_t cm_rd_fn(const struct cm_regs *r, const struct cm_regs_in *in, unsigned q,
                          size_t at);
typedef void cm_set_fn(struct cm_regs *r, unsigned q, uint32_t v, size_t at);
struct cm_reg_ops {
    cm_rd_fn *rd;
    cm_set_fn *set;
    size_t at;
};
#define AT(f) offsetof(struct cm_regs, f)

static const void *field_c(const struct cm_regs *r, size_t at)
{
    return (const char *)r + at;
}
static void *field(struct cm_regs *r, size_t at)
{
    return (char *)r + at;
}
static uint64_t set_lo(uint64_t v, uint32_t lo)
{
    return (v & 0xFFFFFFFF00000000ull) | lo;
}
static uint64_t set_hi(uint64_t v, uint32_t hi)
{
    return (v & 0xFFFFFFFFull) | (uint64_t)hi << 32;
}

/* Generic: a device-wide uint32_t, the halves of a uint64_t; the entry of
 * queue q of an array of uint64_t (halves), uint32_t, uint16_t, uint8_t. */
static uint32_t rd_g32(const struct cm_regs *r, const struct cm_regs_in *in, unsigned q, size_t at)
{
    (void)in, (void)q;
    return *(const uint32_t *)field_c(r, at);
}
static void set_g32(struct cm_regs *r, unsigned q, uint32_t v, size_t at)
{
    (void)q;
    *(uint32_t *)field(r, at) = v;
}
static uint32_t rd_g64lo(const struct cm_regs *r, const struct cm_regs_in *in, unsigned q, size_t at)
{
    (void)in, (void)q;
    return (uint32_t)*(const uint64_t *)field_c(r, at);
}
static uint32_t rd_g64hi(const struct cm_regs *r, const struct cm_regs_in *in, unsigned q, size_t at)
{
    (void)in, (void)q;
    return (uint32_t)(*(const uint64_t *)field_c(r, at) >> 32);
}
static void set_g64lo(struct cm_regs *r, unsigned q, uint32_t v, size_t at)
{
    uint64_t *p = field(r, at);
    (void)q;
    *p = set_lo(*p, v);
}
static void set_g64hi(struct cm_regs *r, unsigned q, uint32_t v, size_t at)
{
    uint64_t *p = field(r, at);
    (void)q;
    *p = set_hi(*p, v);
}
static uint32_t rd_q64lo(const struct cm_regs *r, const struct cm_regs_in *in, unsigned q, size_t at)
{
    (void)in;
    return (uint32_t)((const uint64_t *)field_c(r, at))[q];
}
static uint32_t rd_q64hi(const struct cm_regs *r, const struct cm_regs_in *in, unsigned q, size_t at)
{
    (void)in;
    return (uint32_t)(((const uint64_t *)field_c(r, at))[q] >> 32);
}
static void set_q64lo(struct cm_regs *r, unsigned q, uint32_t v, size_t at)
{
    uint64_t *p = (uint64_t *)field(r, at) + q;
    *p = set_lo(*p, v);
}
static void set_q64hi(struct cm_regs *r, unsigned q, uint32_t v, size_t at)
{
    uint64_t *p = (uint64_t *)field(r, at) + q;
    *p = set_hi(*p, v);
}
static uint32_t rd_q32(const struct cm_regs *r, const struct cm_regs_in *in, unsigned q, size_t at)
{
    (void)in;
    return ((const uint32_t *)field_c(r, at))[q];
}
static void set_q32(struct cm_regs *r, unsigned q, uint32_t v, size_t at)
{
    ((uint32_t *)field(r, at))[q] = v;
}
static uint32_t rd_q16(const struct cm_regs *r, const struct cm_regs_in *in, unsigned q, size_t at)
{
    (void)in;
    return ((const uint16_t *)field_c(r, at))[q];
}
static void set_q16(struct cm_regs *r, unsigned q, uint32_t v, size_t at)
{
    ((uint16_t *)field(r, at))[q] = (uint16_t)v;
}
static uint32_t rd_q8(const struct cm_regs *r, const struct cm_regs_in *in, unsigned q, size_t at)
{
    (void)in;
    return ((const uint8_t *)field_c(r, at))[q];
}
static void set_q8(struct cm_regs *r, unsigned q, uint32_t v, size_t at)
{
    ((uint8_t *)field(r, at))[q] = (uint8_t)v;
}

/* CTRL: ENABLE reads back; a taken write asks for a queue reset or sets
 * ENABLE, which closes the ring configuration (its checks: ctrl_refused). */
static uint32_t rd_ctrl(const struct cm_regs *r, const struct cm_regs_in *in, unsigned q, size_t at)
{
    (void)in, (void)q, (void)at;
    return r->enable ? NICTX_CTRL_ENABLE : 0;
}
static void set_ctrl(struct cm_regs *r, unsigned q, uint32_t v, size_t at)
{
    (void)q, (void)at;
    if (v & NICTX_CTRL_RESET) {
        r->rst_pend = true;
    } else {
        r->enable = (v & NICTX_CTRL_ENABLE) != 0;
        if (r->enable)
            r->cfg_open = false; /* the ring state is in use now */
    }
}

/* QUEUES, and the log2 of it rounded up (queues_log2_o). */
static void set_queues(struct cm_regs *r, unsigned q, uint32_t v, size_t at)
{
    unsigned lg = 0;
    (void)q, (void)at;
    while ((1u << lg) < v)
        lg++;
    r->queues = v;
    r->qlog = lg;
}

static uint32_t rd_sched(const struct cm_regs *r, const struct cm_regs_in *in, unsigned q,
                         size_t at)
{
    (void)in, (void)q, (void)at;
    return r->sched ? NICTX_SCHED_MODE : 0;
}
static void set_sched(struct cm_regs *r, unsigned q, uint32_t v, size_t at)
{
    (void)q, (void)at;
    r->sched = (v & NICTX_SCHED_MODE) != 0;
}

/* VEC_CTRL.MASK of vector q: a bit of msix_mask. */
static uint32_t rd_vec_ctrl(const struct cm_regs *r, const struct cm_regs_in *in, unsigned q,
                            size_t at)
{
    (void)in, (void)at;
    return (r->msix_mask >> q & 1u) ? NICTX_MSIX_VEC_CTRL_MASK : 0;
}
static void set_vec_ctrl(struct cm_regs *r, unsigned q, uint32_t v, size_t at)
{
    (void)at;
    r->msix_mask = (r->msix_mask & ~(1ull << q)) |
                   (uint64_t)((v & NICTX_MSIX_VEC_CTRL_MASK) != 0) << q;
}

/* Read-only values from the engine's inputs, and constants. */
static uint32_t rd_status(const struct cm_regs *r, const struct cm_regs_in *in, unsigned q,
                          size_t at)
{
    (void)q, (void)at;
    return (in->quiescent && in->rd_drained ? NICTX_STATUS_QUIESCENT : 0) |
           (in->engine_idle ? NICTX_STATUS_IDLE : 0) |
           (r->rst_pend || r->qrst ? NICTX_STATUS_RESETTING : 0);
}
static uint32_t rd_head(const struct cm_regs *r, const struct cm_regs_in *in, unsigned q, size_t at)
{
    (void)r, (void)q, (void)at;
    return in->hr_head & M16;
}
static uint32_t rd_pba_lo(const struct cm_regs *r, const struct cm_regs_in *in, unsigned q,
                          size_t at)
{
    (void)r, (void)q, (void)at;
    return (uint32_t)in->pba;
}
static uint32_t rd_pba_hi(const struct cm_regs *r, const struct cm_regs_in *in, unsigned q,
                          size_t at)
{
    (void)r, (void)q, (void)at;
    return (uint32_t)(in->pba >> 32);
}
static uint32_t rd_id(const struct cm_regs *r, const struct cm_regs_in *in, unsigned q, size_t at)
{
    (void)r, (void)in, (void)q, (void)at;
    return nictx_reg_descs[NICTX_RID_ID].reset;
}
static uint32_t rd_zero(const struct cm_regs *r, const struct cm_regs_in *in, unsigned q, size_t at)
{
    (void)r, (void)in, (void)q, (void)at;
    return 0; /* no register: reads 0 */
}

/* Every register's handlers, by id.  ERR's, CTRL's and TAIL's writes are
 * taken by their own logic (err_next, ctrl_next, doorbell and tails); their
 * set handlers give the reset. */
static const struct cm_reg_ops ops[NICTX_NUM_RIDS] = {
    [NICTX_RID_NONE] = {rd_zero, NULL, 0},
    [NICTX_RID_CTRL] = {rd_ctrl, set_ctrl, 0},
    [NICTX_RID_ERR] = {rd_g32, set_g32, AT(err)},
    [NICTX_RID_WB_THRESH] = {rd_g32, set_g32, AT(wb_thresh)},
    [NICTX_RID_IRQ_THRESH] = {rd_g32, set_g32, AT(irq_thresh)},
    [NICTX_RID_MRRS_LOG2] = {rd_g32, set_g32, AT(mrrs_log2)},
    [NICTX_RID_MPS_LOG2] = {rd_g32, set_g32, AT(mps_log2)},
    [NICTX_RID_LINE_RATE] = {rd_g32, set_g32, AT(line_rate)},
    [NICTX_RID_CNT_PKTS] = {rd_g32, set_g32, AT(cnt_pkts)},
    [NICTX_RID_CNT_BYTES_LO] = {rd_g64lo, set_g64lo, AT(cnt_bytes)},
    [NICTX_RID_CNT_BYTES_HI] = {rd_g64hi, set_g64hi, AT(cnt_bytes)},
    [NICTX_RID_CNT_DOORBELL] = {rd_g32, set_g32, AT(cnt_db)},
    [NICTX_RID_CNT_DESC_RD] = {rd_g32, set_g32, AT(cnt_desc_rd)},
    [NICTX_RID_CNT_DMA_RD] = {rd_g32, set_g32, AT(cnt_dma_rd)},
    [NICTX_RID_ID] = {rd_id, NULL, 0},
    [NICTX_RID_DESC_FETCH_MAX] = {rd_g32, set_g32, AT(fetch_max)},
    [NICTX_RID_MAX_TAGS] = {rd_g32, set_g32, AT(max_tags)},
    [NICTX_RID_MAX_RD_BYTES] = {rd_g32, set_g32, AT(max_rd)},
    [NICTX_RID_CNT_RD_STALL] = {rd_g32, set_g32, AT(cnt_stall)},
    [NICTX_RID_PROTO] = {rd_g32, set_g32, AT(proto)},
    [NICTX_RID_CNT_NOT_OWNED] = {rd_g32, set_g32, AT(cnt_not_owned)},
    [NICTX_RID_CNT_WC] = {rd_g32, set_g32, AT(cnt_wc)},
    [NICTX_RID_CNT_WC_DROP] = {rd_g32, set_g32, AT(cnt_wc_drop)},
    [NICTX_RID_STATUS] = {rd_status, NULL, 0},
    [NICTX_RID_CPL_TIMEOUT] = {rd_g32, set_g32, AT(cpl_to)},
    [NICTX_RID_DESC_INFLIGHT] = {rd_g32, set_g32, AT(inflight)},
    [NICTX_RID_CPL_MODE] = {rd_g32, set_g32, AT(cpl_mode)},
    [NICTX_RID_IRQ_TIMER] = {rd_g32, set_g32, AT(irq_timer)},
    [NICTX_RID_QUEUES] = {rd_g32, set_queues, AT(queues)},
    [NICTX_RID_SCHED] = {rd_sched, set_sched, 0},
    [NICTX_RID_DRR_QUANTUM] = {rd_g32, set_g32, AT(quantum)},
    [NICTX_RID_PBA_LO] = {rd_pba_lo, NULL, 0},
    [NICTX_RID_PBA_HI] = {rd_pba_hi, NULL, 0},
    [NICTX_RID_MSIX_MSG_ADDR_LO] = {rd_q64lo, set_q64lo, AT(msix_addr)},
    [NICTX_RID_MSIX_MSG_ADDR_HI] = {rd_q64hi, set_q64hi, AT(msix_addr)},
    [NICTX_RID_MSIX_MSG_DATA] = {rd_q32, set_q32, AT(msix_data)},
    [NICTX_RID_MSIX_VEC_CTRL] = {rd_vec_ctrl, set_vec_ctrl, 0},
    [NICTX_RID_Q_TAIL] = {rd_q16, set_q16, AT(tail)},
    [NICTX_RID_Q_HEAD] = {rd_head, NULL, 0},
    [NICTX_RID_Q_RING_BASE_LO] = {rd_q64lo, set_q64lo, AT(ring_base)},
    [NICTX_RID_Q_RING_BASE_HI] = {rd_q64hi, set_q64hi, AT(ring_base)},
    [NICTX_RID_Q_RING_LOG2] = {rd_q8, set_q8, AT(ring_log2)},
    [NICTX_RID_Q_WEIGHT] = {rd_q8, set_q8, AT(weight)},
    [NICTX_RID_Q_WB_ADDR_LO] = {rd_q64lo, set_q64lo, AT(wb_addr)},
    [NICTX_RID_Q_WB_ADDR_HI] = {rd_q64hi, set_q64hi, AT(wb_addr)},
    [NICTX_RID_Q_CNT_PKTS] = {rd_q32, set_q32, AT(qcnt_pkts)},
    [NICTX_RID_Q_CNT_BYTES_LO] = {rd_q64lo, set_q64lo, AT(qcnt_bytes)},
    [NICTX_RID_Q_CNT_BYTES_HI] = {rd_q64hi, set_q64hi, AT(qcnt_bytes)},
    [NICTX_RID_Q_CQ_BASE_LO] = {rd_q64lo, set_q64lo, AT(cq_base)},
    [NICTX_RID_Q_CQ_BASE_HI] = {rd_q64hi, set_q64hi, AT(cq_base)},
    [NICTX_RID_Q_CQ_LOG2] = {rd_q8, set_q8, AT(cq_log2)},
};

/* A taken write of register rid is stored by its set handler (store()). */
static bool stored_by_set(unsigned rid)
{
    return rid != NICTX_RID_ERR && rid != NICTX_RID_CTRL && rid != NICTX_RID_Q_TAIL;
}

/* ---------------------------------------------------------------- decode and checks */

static void decode(const struct cm_regs *r, const struct cm_regs_in *in, struct cm_regs_dec *d)
{
    const unsigned off = in->req_off;
    memset(d, 0, sizeof(*d));
    d->aq = cm_regs_hr_q(r, off);
    d->acc = in->req_valid && cm_regs_req_ready(r, in->req_type);
    if (!d->acc)
        return;
    const unsigned bq = nictx_q_index(off), mv = nictx_msix_index(off);
    const bool blk_ok = nictx_q_hit(off) && bq < r->queues && bq < r->nq;
    const bool mx_ok = nictx_msix_hit(off) && mv < r->queues && mv < r->nq;
    d->is_wr = in->req_type == CM_REGS_TLP_MWR;
    d->is_rd = in->req_type == CM_REGS_TLP_MRD;
    const bool size_ok = (in->req_len == 4 && (off & 3u) == 0) || (in->req_len == 8 && (off & 7u) == 0);
    d->ok = size_ok && (nictx_page_hit(off) || blk_ok || mx_ok || nictx_pba_hit(off));
    if (d->is_wr && d->ok)
        d->wr_en = in->req_len == 8 ? 3u : 1u;
}

/* A written dword v of register rid (queue q) is legal: the table's range,
 * its greatest value a hardware parameter or the ring size of queue q. */
static bool legal(const struct cm_regs *r, const struct nictx_reg_desc *g, unsigned q, uint32_t v)
{
    uint32_t max = g->max;
    if (g->max_hwp != NICTX_HWP_NONE) {
        max = r->hw[g->max_hwp];
    } else if (g->max_log2 != NICTX_RID_NONE) { /* read from state alone: no inputs */
        const struct cm_reg_ops *b = &ops[g->max_log2];
        max = (1u << b->rd(r, NULL, q, b->at)) - 1;
    }
    return (g->zero_ok && v == 0) || (v >= g->min && v <= max);
}

/* The table's rule: the ERR bits that refuse a write of v to register rid
 * of queue q, in the table's order; 0: taken. */
static uint32_t refusal(const struct cm_regs *r, unsigned rid, unsigned q, uint32_t v)
{
    const struct nictx_reg_desc *g = &nictx_reg_descs[rid];
    if (g->access == NICTX_ACC_RO)
        return NICTX_ERR_BAD_ACCESS; /* read-only, or no register */
    if (g->off_err && !r->enable)
        return g->off_err;
    if (!legal(r, g, q, v))
        return g->range_err;
    if (g->cfg_lock && !(r->cfg_open && !r->rst_pend))
        return NICTX_ERR_CFG;
    return 0;
}

/* CTRL's own refusals (ERR.CFG) of a write the table takes: a reset while
 * enabled or together with enable; an enable with a ring base 0 in use, a
 * reset pending, or QUEUES > 1 with what it does not support. */
static bool ctrl_refused(const struct cm_regs *r, uint32_t v)
{
    if (v & NICTX_CTRL_RESET)
        return r->enable || (v & NICTX_CTRL_ENABLE);
    const uint64_t in_use = r->queues >= 64 ? ~0ull : (1ull << r->queues) - 1;
    return (v & NICTX_CTRL_ENABLE) && !r->enable &&
           ((r->rb_zero & in_use) != 0 || r->rst_pend ||
            !(r->queues == 1 || r->proto != NICTX_PROTO_WC));
}

/* The dwords a beat writes (k = 0 at the offset, its lanes by address bit
 * 2; k = 1 the next, in an 8-byte beat), decided on the state before the
 * edge. */
static void decide(const struct cm_regs *r, const struct cm_regs_in *in,
                   const struct cm_regs_dec *d, struct cm_regs_wr w[2])
{
    memset(w, 0, 2 * sizeof(w[0]));
    for (unsigned k = 0; k < 2; k++) {
        if (!(d->wr_en >> k & 1u))
            continue;
        const unsigned hi = k == 1 || (in->req_off & 4u);
        const uint32_t v = (uint32_t)(in->req_data >> (hi ? 32 : 0));
        const unsigned rid = nictx_reg_rid((in->req_off & ~7u) | (hi ? 4u : 0u));
        uint32_t ref = refusal(r, rid, d->aq, v);
        if (ref == 0 && rid == NICTX_RID_CTRL && ctrl_refused(r, v))
            ref = NICTX_ERR_CFG;
        w[k] = (struct cm_regs_wr){rid, v & nictx_reg_descs[rid].mask, ref, ref == 0};
    }
}

/* The pending reset fires this clock. */
static bool rst_go(const struct cm_regs *r, const struct cm_regs_in *in)
{
    return r->rst_pend && in->quiescent && (in->rd_drained || r->rst_wait >= r->cpl_to);
}

/* The doorbell and the tail written (queue *tq, value *tail_d). */
static bool doorbell(const struct cm_regs *r, const struct cm_regs_in *in,
                     const struct cm_regs_dec *d, const struct cm_regs_wr w[2], bool go,
                     unsigned *tq, unsigned *tail_d)
{
    bool db = false;
    *tq = d->aq;
    *tail_d = r->tail[d->aq];
    for (unsigned k = 0; k < 2; k++) {
        if (w[k].take && w[k].rid == NICTX_RID_Q_TAIL) {
            *tail_d = w[k].v;
            db = true;
        }
    }
    if (r->enable) {
        if (in->wc_close)
            db = true;
        if (in->wc_tail_we) {
            *tail_d = in->wc_tail & M16; /* queue 0 (WC needs QUEUES 1) */
            *tq = 0;
        }
    }
    if (go)
        *tail_d = nictx_reg_descs[NICTX_RID_Q_TAIL].reset;
    return db;
}

bool cm_regs_doorbell(const struct cm_regs *r, const struct cm_regs_in *in, unsigned *db_q,
                      unsigned *db_tail)
{
    if (!(in->req_valid | in->wc_close | in->wc_tail_we | r->rst_pend)) { /* no write, no reset */
        *db_q = cm_regs_hr_q(r, in->req_off);
        *db_tail = r->tail[*db_q];
        return false;
    }
    struct cm_regs_dec d;
    struct cm_regs_wr w[2];
    decode(r, in, &d);
    decide(r, in, &d, w);
    return doorbell(r, in, &d, w, rst_go(r, in), db_q, db_tail);
}

/* A read's aligned 8-byte word: both dwords, each its register's value. */
static uint64_t rd_word(const struct cm_regs *r, const struct cm_regs_in *in,
                        const struct cm_regs_dec *d)
{
    uint64_t word = 0;
    for (unsigned k = 0; k < 2; k++) {
        const struct cm_reg_ops *b = &ops[nictx_reg_rid((in->req_off & ~7u) | 4u * k)];
        word |= (uint64_t)b->rd(r, in, d->aq, b->at) << (32 * k);
    }
    return word;
}

/* ---------------------------------------------------------------- reset and outputs */

int cm_regs_reset(struct cm_regs *r, unsigned queues)
{
    return cm_regs_reset_hw(r, queues, CM_REGS_NUM_TAGS, CM_REGS_DESC_READS_HW);
}

int cm_regs_reset_hw(struct cm_regs *r, unsigned queues, unsigned tags, unsigned desc_reads)
{
    if (queues < 1 || queues > CM_REGS_MAX_QUEUES || (queues & (queues - 1)) != 0)
        return -1;
    memset(r, 0, sizeof(*r));
    r->nq = queues;
    r->qmask = queues > 1 ? queues - 1 : 1; /* QW bits: 1 with one queue */
    r->hw[NICTX_HWP_DESC_FETCH_MAX_HW] = CM_REGS_DESC_FETCH_MAX_HW;
    r->hw[NICTX_HWP_DESC_READS_HW] = desc_reads;
    r->hw[NICTX_HWP_NUM_TAGS] = tags;
    r->hw[NICTX_HWP_NUM_QUEUES] = queues;
    /* Every register its reset value (a queue's and a vector's, in use). */
    for (unsigned rid = 0; rid < NICTX_NUM_RIDS; rid++) {
        const struct nictx_reg_desc *g = &nictx_reg_descs[rid];
        const unsigned n = g->space == NICTX_SPACE_Q || g->space == NICTX_SPACE_MSIX ? queues : 1;
        for (unsigned q = 0; ops[rid].set && q < n; q++)
            ops[rid].set(r, q, g->reset, ops[rid].at);
    }
    r->rst_pend = (NICTX_REG_STATUS_RESET & NICTX_STATUS_RESETTING) != 0;
    r->cfg_open = true; /* the ring state is at its reset value */
    r->rb_zero = ~0ull;
    for (unsigned q = 0; q < queues; q++)
        r->rb_zero &= ~((uint64_t)(r->ring_base[q] != 0) << q);
    return 0;
}

/* An index port's entry (0 beyond NumQueues, as the RTL's array read). */
static unsigned ix(const struct cm_regs *r, unsigned q)
{
    return q & r->qmask;
}

void cm_regs_eval(const struct cm_regs *r, const struct cm_regs_in *in, struct cm_regs_out *o)
{
    o->req_ready = cm_regs_req_ready(r, in->req_type);
    o->cpl_valid = r->cpl_valid;
    o->cpl_tag = r->cpl_tag;
    o->cpl_len = r->cpl_len;
    o->cpl_off = r->cpl_off;
    o->cpl_data = r->cpl_data;
    o->cpl_err = r->cpl_err;
    o->enable = r->enable;
    o->proto = r->proto;
    o->stop = cm_regs_stop(r);
    o->qrst = r->qrst;
    o->rst_hold = cm_regs_rst_hold(r);
    o->wc_hold = cm_regs_wc_hold(r, in->rd_drained);
    o->cpl_timeout = r->cpl_to;
    o->doorbell = cm_regs_doorbell(r, in, &o->db_q, &o->db_tail);
    o->queues = r->queues;
    o->queues_log2 = r->qlog;
    o->sched_drr = r->sched;
    o->drr_quantum = r->quantum;
    const unsigned f = ix(r, in->f_q), c = ix(r, in->c_q), w = ix(r, in->w_q), s = ix(r, in->s_q);
    o->f_ring_base = r->ring_base[f];
    o->f_ring_log2 = r->ring_log2[f];
    o->f_tail = r->tail[f];
    o->c_ring_log2 = r->ring_log2[c];
    o->c_tail = r->tail[c];
    o->c_wb_addr = r->wb_addr[c];
    o->c_cq_base = r->cq_base[c];
    o->w_wb_addr = r->wb_addr[w];
    o->w_ring_base = r->ring_base[w];
    o->w_ring_log2 = r->ring_log2[w];
    o->w_cq_base = r->cq_base[w];
    o->w_cq_log2 = r->cq_log2[w];
    o->w_msix_addr = r->msix_addr[w];
    o->w_msix_data = r->msix_data[w];
    o->msix_mask = r->msix_mask;
    o->s_weight = r->weight[s];
    o->s_ring_log2 = r->ring_log2[s];
    o->hr_q = cm_regs_hr_q(r, in->req_off);
    o->ring_base = r->ring_base[0];
    o->ring_log2 = r->ring_log2[0];
    o->tail = r->tail[0];
    o->wb_thresh = r->wb_thresh;
    o->wb_addr = r->wb_addr[0];
    o->irq_thresh = r->irq_thresh;
    o->irq_data = r->msix_data[0];
    o->irq_addr = r->msix_addr[0];
    o->irq_timer = r->irq_timer;
    o->cpl_mode = r->cpl_mode;
    o->cq_base = r->cq_base[0];
    o->cq_log2 = r->cq_log2[0];
    o->mrrs_log2 = r->mrrs_log2;
    o->mps_log2 = r->mps_log2;
    o->line_rate = r->line_rate;
    o->desc_fetch_max = r->fetch_max;
    o->desc_inflight = r->inflight;
    o->max_tags = r->max_tags;
    o->max_rd_bytes = r->max_rd;
    o->idle = cm_regs_idle(r);
}

/* ---------------------------------------------------------------- the edge */

/* The error bits after this clock: set by a refused access and the
 * engine's events, cleared by an ERR write (W1C, in order with the beat's
 * dwords) and by the queue reset as it fires. */
static uint32_t err_next(const struct cm_regs *r, const struct cm_regs_in *in,
                         const struct cm_regs_dec *d, const struct cm_regs_wr w[2], bool go)
{
    uint32_t e = r->err;
    if (((d->is_wr || d->is_rd) && !d->ok) || in->wc_bad_access)
        e |= NICTX_ERR_BAD_ACCESS;
    for (unsigned k = 0; k < 2; k++) {
        e |= w[k].ref;
        if (w[k].take && w[k].rid == NICTX_RID_ERR)
            e &= ~w[k].v;
    }
    if (in->wc_close && !r->enable)
        e |= NICTX_ERR_DB_OFF;
    if (in->wc_tail_range)
        e |= NICTX_ERR_TAIL_RANGE;
    if (in->bad_desc)
        e |= NICTX_ERR_BAD_DESC;
    if (in->dma_err)
        e |= NICTX_ERR_DMA;
    if (in->cpl_timeout)
        e |= NICTX_ERR_CPL_TIMEOUT;
    if (in->unexp_cpl)
        e |= NICTX_ERR_UNEXP_CPL;
    return go ? NICTX_REG_ERR_RESET : e;
}

/* CTRL's write, and the queue reset: a pending reset counts the cycles it
 * waited for reads; firing, it opens the ring configuration.  Before
 * store(): the wait compares CPL_TIMEOUT as it was. */
static void ctrl_next(struct cm_regs *r, const struct cm_regs_wr w[2], bool go)
{
    const bool pend = r->rst_pend;
    for (unsigned k = 0; k < 2; k++) {
        if (w[k].take && w[k].rid == NICTX_RID_CTRL)
            set_ctrl(r, 0, w[k].v, 0);
    }
    if (pend && !go && r->rst_wait != r->cpl_to)
        r->rst_wait = (r->rst_wait + 1) & M24;
    if (go) {
        r->rst_pend = false;
        r->cfg_open = true;
        r->rst_wait = 0;
    }
}

/* The registers the beat's taken dwords store, and the accessed queue's
 * ring-base-zero bit. */
static void store(struct cm_regs *r, const struct cm_regs_dec *d, const struct cm_regs_wr w[2])
{
    const unsigned q = d->aq;
    for (unsigned k = 0; k < 2; k++) {
        const struct cm_reg_ops *b = &ops[w[k].rid];
        if (w[k].take && stored_by_set(w[k].rid))
            b->set(r, q, w[k].v, b->at);
    }
    r->rb_zero = (r->rb_zero & ~(1ull << q)) | (uint64_t)(r->ring_base[q] == 0) << q;
}

/* The read's completion (one outstanding). */
static void complete(struct cm_regs *r, const struct cm_regs_in *in, const struct cm_regs_dec *d,
                     uint64_t rd)
{
    if (r->cpl_valid && in->cpl_ready)
        r->cpl_valid = false;
    if (d->is_rd) {
        r->cpl_valid = true;
        r->cpl_tag = in->req_tag & 0xFFu;
        r->cpl_len = d->ok ? in->req_len & 0x1FFFu : 0;
        r->cpl_off = in->req_off & 0x1FFFu;
        r->cpl_data = rd;
        r->cpl_err = !d->ok;
    }
}

/* The counters, each on its own event (db: this clock's doorbell). */
static void count(struct cm_regs *r, const struct cm_regs_in *in, bool db)
{
    r->cnt_db += db;
    if (in->pkt_done) {
        const unsigned pq = in->pkt_q & r->qmask;
        r->cnt_pkts++;
        r->cnt_bytes += in->pkt_len & 0x3FFFu;
        if (pq < r->nq) {
            r->qcnt_pkts[pq]++;
            r->qcnt_bytes[pq] += in->pkt_len & 0x3FFFu;
        }
    }
    r->cnt_desc_rd += in->desc_rd;
    r->cnt_dma_rd += in->dma_rd;
    r->cnt_stall += in->rd_stall;
    if (in->not_owned)
        r->cnt_not_owned += in->not_owned_cnt & M16;
    r->cnt_wc += in->wc_used;
    r->cnt_wc_drop += (unsigned)in->wc_torn + (unsigned)in->wc_drop;
}

/* Tails: a queue reset clears every one; else the written one. */
static void tails(struct cm_regs *r, const struct cm_regs_in *in, const struct cm_regs_dec *d,
                  bool go, unsigned tq, unsigned tail_d)
{
    if (go) {
        for (unsigned q = 0; q < r->nq; q++)
            r->tail[q] = (uint16_t)nictx_reg_descs[NICTX_RID_Q_TAIL].reset;
    } else if ((d->wr_en != 0 || in->wc_tail_we) && tq < r->nq) {
        r->tail[tq] = (uint16_t)tail_d;
    }
}

void cm_regs_clock(struct cm_regs *r, const struct cm_regs_in *in)
{
    /* No request, no event that reaches the configuration, the error bits
     * or a tail, no reset in progress: at most counters and the completion
     * taken (the engine's usual clock). */
    if (!(in->req_valid | in->wc_bad_access | in->wc_close | in->wc_tail_we | in->wc_tail_range |
          in->bad_desc | in->dma_err | in->cpl_timeout | in->unexp_cpl | r->rst_pend | r->qrst)) {
        if (in->cpl_ready)
            r->cpl_valid = false;
        count(r, in, false);
        return;
    }

    r->gen++;
    /* This clock's combinational decisions, from the state before the edge. */
    struct cm_regs_dec d;
    struct cm_regs_wr w[2];
    decode(r, in, &d);
    decide(r, in, &d, w);
    const bool go = rst_go(r, in);
    unsigned tq, tail_d;
    const bool db = doorbell(r, in, &d, w, go, &tq, &tail_d);
    const uint64_t rd = d.is_rd && d.ok ? rd_word(r, in, &d) : 0;

    /* The edge, in the order the values above were read in. */
    r->err = err_next(r, in, &d, w, go);
    ctrl_next(r, w, go);
    if (d.wr_en != 0)
        store(r, &d, w);
    complete(r, in, &d, rd);
    r->qrst = go;
    count(r, in, db);
    tails(r, in, &d, go, tq, tail_d);
}
