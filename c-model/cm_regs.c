/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_regs.c - the BAR0 register block of the C model (cm_regs.h), after
 * the contract in rtl/nictx_regs.sv's header; every offset, reset value,
 * field and enum value from driver/nictx_regs_gen.h.
 */
#include "cm_regs.h"

#include "device/device.h"

#include <string.h>

_Static_assert(CM_REGS_TLP_MWR == DEV_TLP_MWR && CM_REGS_TLP_MRD == DEV_TLP_MRD,
               "the port's TLP encoding");

#define M16 0xFFFFu
#define M24 0xFFFFFFu
/* The ERR bits (the register's width). */
#define ERR_ALL                                                                          \
    (NICTX_ERR_TAIL_RANGE | NICTX_ERR_BAD_DESC | NICTX_ERR_BAD_ACCESS | NICTX_ERR_DMA |  \
     NICTX_ERR_DB_OFF | NICTX_ERR_CFG | NICTX_ERR_CPL_TIMEOUT | NICTX_ERR_UNEXP_CPL)
#define PBA_OFF(o) (((o) & ~7u) == NICTX_REG_PBA_LO) /* PBA_LO, PBA_HI */
_Static_assert(NICTX_REG_PBA_HI == NICTX_REG_PBA_LO + 4, "PBA's two dwords");
/* Offset bits: a queue block (bit 12), the MSI-X table (0x800..0xBFF). */
#define BLK_BIT NICTX_Q_BASE
_Static_assert(NICTX_Q_BASE == 0x1000u && NICTX_Q_STRIDE == 0x40u && NICTX_MSIX_STRIDE == 0x10u,
               "the offset decode below");

/* What a request's offset names (the RTL's decode of an accepted beat). */
struct cm_regs_dec {
    bool acc, is_wr, is_rd, ok;     /* ok: size_ok && in_page */
    bool blk, mx, pg, pba;
    unsigned aq, wr_en;             /* the queue or vector; dwords written (bits 0, 1) */
};

static void decode(const struct cm_regs *r, const struct cm_regs_in *in, struct cm_regs_dec *d)
{
    const unsigned off = in->req_off;
    memset(d, 0, sizeof(*d));
    d->blk = (off & BLK_BIT) != 0;
    d->mx = (off & 0x1C00u) == NICTX_MSIX_BASE;
    d->aq = cm_regs_hr_q(r, off);
    d->acc = in->req_valid && cm_regs_req_ready(r, in->req_type);
    if (!d->acc)
        return;
    d->pba = PBA_OFF(off);
    d->pg = off < 0x100u;
    const unsigned bq = (off >> 6) & 63u, mv = (off >> 4) & 63u;
    const bool blk_ok = d->blk && bq < r->queues && bq < r->nq;
    const bool mx_ok = d->mx && mv < r->queues && mv < r->nq;
    d->is_wr = in->req_type == CM_REGS_TLP_MWR;
    d->is_rd = in->req_type == CM_REGS_TLP_MRD;
    const bool size_ok = (in->req_len == 4 && (off & 3u) == 0) || (in->req_len == 8 && (off & 7u) == 0);
    d->ok = size_ok && (d->pg || blk_ok || mx_ok || d->pba);
    if (d->is_wr && d->ok)
        d->wr_en = in->req_len == 8 ? 3u : 1u;
}

/* The register page's aliases of queue 0's block (q0_alias) and of vector
 * 0's MSI-X entry (v0_alias): the offset in the block, or -1. */
static int q0_alias(unsigned o)
{
    switch (o) {
    case NICTX_REG_TAIL: return NICTX_QREG_TAIL;
    case NICTX_REG_HEAD: return NICTX_QREG_HEAD;
    case NICTX_REG_RING_BASE_LO: return NICTX_QREG_RING_BASE_LO;
    case NICTX_REG_RING_BASE_HI: return NICTX_QREG_RING_BASE_HI;
    case NICTX_REG_RING_LOG2: return NICTX_QREG_RING_LOG2;
    case NICTX_REG_WB_ADDR_LO: return NICTX_QREG_WB_ADDR_LO;
    case NICTX_REG_WB_ADDR_HI: return NICTX_QREG_WB_ADDR_HI;
    case NICTX_REG_CQ_BASE_LO: return NICTX_QREG_CQ_BASE_LO;
    case NICTX_REG_CQ_BASE_HI: return NICTX_QREG_CQ_BASE_HI;
    case NICTX_REG_CQ_LOG2: return NICTX_QREG_CQ_LOG2;
    default: return -1;
    }
}

static int v0_alias(unsigned o)
{
    switch (o) {
    case NICTX_REG_IRQ_ADDR_LO: return NICTX_MSIXREG_MSG_ADDR_LO;
    case NICTX_REG_IRQ_ADDR_HI: return NICTX_MSIXREG_MSG_ADDR_HI;
    case NICTX_REG_IRQ_DATA: return NICTX_MSIXREG_MSG_DATA;
    default: return -1;
    }
}

/* Whether a written dword at page offset o (8 bits) is a TAIL. */
static bool tail_reg(const struct cm_regs_dec *d, unsigned o)
{
    return (d->blk && (o & 0x3Fu) == NICTX_QREG_TAIL) || (d->pg && o == NICTX_REG_TAIL);
}

static uint64_t set_lo(uint64_t v, uint32_t lo)
{
    return (v & 0xFFFFFFFF00000000ull) | lo;
}
static uint64_t set_hi(uint64_t v, uint32_t hi)
{
    return (v & 0xFFFFFFFFull) | (uint64_t)hi << 32;
}

/* The pending reset fires this clock. */
static bool rst_go(const struct cm_regs *r, const struct cm_regs_in *in)
{
    return r->rst_pend && in->quiescent && (in->rd_drained || r->rst_wait >= r->cpl_to);
}

/* The doorbell and the tail written (queue *tq, value *tail_d). */
static bool doorbell(const struct cm_regs *r, const struct cm_regs_in *in,
                     const struct cm_regs_dec *d, bool go, unsigned *tq, unsigned *tail_d)
{
    bool db = false;
    *tq = d->aq;
    *tail_d = r->tail[d->aq];
    if (d->wr_en != 0 && r->enable) {
        const unsigned o = in->req_off & 0xFFu, lg = r->ring_log2[d->aq];
        if (tail_reg(d, o)) { /* dword 0: its lanes by address bit 2 */
            const uint32_t v = (uint32_t)(in->req_data >> ((in->req_off & 4u) ? 32 : 0));
            if ((v >> lg) == 0) {
                *tail_d = v & M16;
                db = true;
            }
        }
        if ((d->wr_en & 2u) && tail_reg(d, (o + 4u) & 0xFFu)) {
            const uint32_t v = (uint32_t)(in->req_data >> 32);
            if ((v >> lg) == 0) {
                *tail_d = v & M16;
                db = true;
            }
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
        *tail_d = 0;
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
    decode(r, in, &d);
    return doorbell(r, in, &d, rst_go(r, in), db_q, db_tail);
}

/* A register's dword at page offset o (8 bits) for a read. */
static uint32_t rd_dword(const struct cm_regs *r, const struct cm_regs_in *in,
                         const struct cm_regs_dec *d, unsigned o)
{
    const unsigned q = d->aq;
    if (d->pba)
        return (uint32_t)(in->pba >> ((o & 4u) ? 32 : 0));
    const int ml = d->mx ? (int)(o & 0xFu) : d->pg ? v0_alias(o) : -1;
    if (ml >= 0) {
        switch ((unsigned)ml) {
        case NICTX_MSIXREG_MSG_ADDR_LO: return (uint32_t)r->msix_addr[q];
        case NICTX_MSIXREG_MSG_ADDR_HI: return (uint32_t)(r->msix_addr[q] >> 32);
        case NICTX_MSIXREG_MSG_DATA: return r->msix_data[q];
        case NICTX_MSIXREG_VEC_CTRL: return (r->msix_mask >> q & 1u) ? NICTX_MSIX_VEC_CTRL_MASK : 0;
        default: return 0;
        }
    }
    const int al = d->blk ? (int)(o & 0x3Fu) : d->pg ? q0_alias(o) : -1;
    if (al >= 0) {
        switch ((unsigned)al) {
        case NICTX_QREG_TAIL: return r->tail[q];
        case NICTX_QREG_HEAD: return in->hr_head & M16;
        case NICTX_QREG_RING_BASE_LO: return (uint32_t)r->ring_base[q];
        case NICTX_QREG_RING_BASE_HI: return (uint32_t)(r->ring_base[q] >> 32);
        case NICTX_QREG_RING_LOG2: return r->ring_log2[q];
        case NICTX_QREG_WEIGHT: return r->weight[q];
        case NICTX_QREG_WB_ADDR_LO: return (uint32_t)r->wb_addr[q];
        case NICTX_QREG_WB_ADDR_HI: return (uint32_t)(r->wb_addr[q] >> 32);
        case NICTX_QREG_CNT_PKTS: return r->qcnt_pkts[q];
        case NICTX_QREG_CNT_BYTES_LO: return (uint32_t)r->qcnt_bytes[q];
        case NICTX_QREG_CNT_BYTES_HI: return (uint32_t)(r->qcnt_bytes[q] >> 32);
        case NICTX_QREG_CQ_BASE_LO: return (uint32_t)r->cq_base[q];
        case NICTX_QREG_CQ_BASE_HI: return (uint32_t)(r->cq_base[q] >> 32);
        case NICTX_QREG_CQ_LOG2: return r->cq_log2[q];
        default: return 0;
        }
    }
    switch (o) {
    case NICTX_REG_CTRL: return r->enable ? NICTX_CTRL_ENABLE : 0;
    case NICTX_REG_ERR: return r->err;
    case NICTX_REG_WB_THRESH: return r->wb_thresh;
    case NICTX_REG_IRQ_THRESH: return r->irq_thresh;
    case NICTX_REG_MRRS_LOG2: return r->mrrs_log2;
    case NICTX_REG_LINE_RATE: return r->line_rate;
    case NICTX_REG_CNT_PKTS: return r->cnt_pkts;
    case NICTX_REG_CNT_BYTES_LO: return (uint32_t)r->cnt_bytes;
    case NICTX_REG_CNT_BYTES_HI: return (uint32_t)(r->cnt_bytes >> 32);
    case NICTX_REG_CNT_DOORBELL: return r->cnt_db;
    case NICTX_REG_CNT_DESC_RD: return r->cnt_desc_rd;
    case NICTX_REG_CNT_DMA_RD: return r->cnt_dma_rd;
    case NICTX_REG_ID: return NICTX_REG_ID_RESET;
    case NICTX_REG_DESC_FETCH_MAX: return r->fetch_max;
    case NICTX_REG_MAX_TAGS: return r->max_tags;
    case NICTX_REG_MAX_RD_BYTES: return r->max_rd;
    case NICTX_REG_CNT_RD_STALL: return r->cnt_stall;
    case NICTX_REG_PROTO: return r->proto;
    case NICTX_REG_CNT_NOT_OWNED: return r->cnt_not_owned;
    case NICTX_REG_CNT_WC: return r->cnt_wc;
    case NICTX_REG_CNT_WC_DROP: return r->cnt_wc_drop;
    case NICTX_REG_STATUS:
        return (in->quiescent && in->rd_drained ? NICTX_STATUS_QUIESCENT : 0) |
               (in->engine_idle ? NICTX_STATUS_IDLE : 0) |
               (r->rst_pend || r->qrst ? NICTX_STATUS_RESETTING : 0);
    case NICTX_REG_CPL_TIMEOUT: return r->cpl_to;
    case NICTX_REG_DESC_INFLIGHT: return r->inflight;
    case NICTX_REG_CPL_MODE: return r->cpl_mode;
    case NICTX_REG_IRQ_TIMER: return r->irq_timer;
    case NICTX_REG_QUEUES: return r->queues;
    case NICTX_REG_SCHED: return r->sched ? NICTX_SCHED_MODE : 0;
    case NICTX_REG_DRR_QUANTUM: return r->quantum;
    default: return 0;
    }
}

int cm_regs_reset(struct cm_regs *r, unsigned queues)
{
    if (queues < 1 || queues > CM_REGS_MAX_QUEUES || (queues & (queues - 1)) != 0)
        return -1;
    memset(r, 0, sizeof(*r));
    r->nq = queues;
    r->qmask = queues > 1 ? queues - 1 : 1; /* QW bits: 1 with one queue */
    r->enable = (NICTX_REG_CTRL_RESET & NICTX_CTRL_ENABLE) != 0;
    r->proto = NICTX_REG_PROTO_RESET;
    r->err = NICTX_REG_ERR_RESET;
    r->cfg_open = true;
    r->cpl_to = NICTX_REG_CPL_TIMEOUT_RESET;
    r->wb_thresh = NICTX_REG_WB_THRESH_RESET;
    r->irq_thresh = NICTX_REG_IRQ_THRESH_RESET;
    r->irq_timer = NICTX_REG_IRQ_TIMER_RESET;
    r->cpl_mode = NICTX_REG_CPL_MODE_RESET;
    r->msix_mask = 0; /* VEC_CTRL.MASK resets to 0 (NICTX_MSIXREG_VEC_CTRL_RESET) */
    r->mrrs_log2 = NICTX_REG_MRRS_LOG2_RESET;
    r->line_rate = NICTX_REG_LINE_RATE_RESET;
    r->fetch_max = NICTX_REG_DESC_FETCH_MAX_RESET;
    r->inflight = NICTX_REG_DESC_INFLIGHT_RESET;
    r->max_tags = NICTX_REG_MAX_TAGS_RESET;
    r->max_rd = NICTX_REG_MAX_RD_BYTES_RESET;
    r->queues = NICTX_REG_QUEUES_RESET;
    r->qlog = 0;
    r->sched = (NICTX_REG_SCHED_RESET & NICTX_SCHED_MODE) != 0;
    r->quantum = NICTX_REG_DRR_QUANTUM_RESET;
    r->rb_zero = ~0ull;
    for (unsigned q = 0; q < queues; q++) {
        r->ring_base[q] = NICTX_QREG_RING_BASE_LO_RESET |
                          (uint64_t)NICTX_QREG_RING_BASE_HI_RESET << 32;
        r->ring_log2[q] = NICTX_QREG_RING_LOG2_RESET;
        r->wb_addr[q] = NICTX_QREG_WB_ADDR_LO_RESET | (uint64_t)NICTX_QREG_WB_ADDR_HI_RESET << 32;
        r->cq_base[q] = NICTX_QREG_CQ_BASE_LO_RESET | (uint64_t)NICTX_QREG_CQ_BASE_HI_RESET << 32;
        r->cq_log2[q] = NICTX_QREG_CQ_LOG2_RESET;
        r->msix_addr[q] = NICTX_MSIXREG_MSG_ADDR_LO_RESET |
                          (uint64_t)NICTX_MSIXREG_MSG_ADDR_HI_RESET << 32;
        r->msix_data[q] = NICTX_MSIXREG_MSG_DATA_RESET;
        r->weight[q] = NICTX_QREG_WEIGHT_RESET;
        r->tail[q] = NICTX_QREG_TAIL_RESET;
    }
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
    o->line_rate = r->line_rate;
    o->desc_fetch_max = r->fetch_max;
    o->desc_inflight = r->inflight;
    o->max_tags = r->max_tags;
    o->max_rd_bytes = r->max_rd;
    o->idle = cm_regs_idle(r);
}

/* The next values of what a beat's second dword or an event reads after
 * the first dword changed it (the RTL's block-local values); the accessed
 * queue's entries are written by halves. */
struct cm_regs_next {
    unsigned err, proto, queues;
    bool enable, rst_pend, cfg_open;
    uint32_t cpl_to;
    uint64_t msix_mask, ring_base, wb_addr, cq_base, irq_addr;
    unsigned ring_log2, cq_log2, weight;
    uint32_t irq_data;
};

/* One written dword: value v at page offset o (8 bits). */
static void wr_dword(struct cm_regs *r, const struct cm_regs_dec *d, struct cm_regs_next *n,
                     unsigned o, uint32_t v)
{
    const unsigned q = d->aq;
    const bool cfg_ok = r->cfg_open && !r->rst_pend;
    if (d->pba) {
        n->err |= NICTX_ERR_BAD_ACCESS; /* read-only */
        return;
    }
    const int ml = d->mx ? (int)(o & 0xFu) : d->pg ? v0_alias(o) : -1;
    if (ml >= 0) {
        switch ((unsigned)ml) {
        case NICTX_MSIXREG_MSG_ADDR_LO:
            n->irq_addr = set_lo(n->irq_addr, v & NICTX_MSIX_MSG_ADDR_LO_ADDR_MASK);
            break;
        case NICTX_MSIXREG_MSG_ADDR_HI: n->irq_addr = set_hi(n->irq_addr, v); break;
        case NICTX_MSIXREG_MSG_DATA: n->irq_data = v; break;
        case NICTX_MSIXREG_VEC_CTRL:
            if ((v & ~NICTX_MSIX_VEC_CTRL_MASK) == 0)
                n->msix_mask = (n->msix_mask & ~(1ull << q)) |
                               (uint64_t)((v & NICTX_MSIX_VEC_CTRL_MASK) != 0) << q;
            else
                n->err |= NICTX_ERR_BAD_ACCESS;
            break;
        default: n->err |= NICTX_ERR_BAD_ACCESS; break;
        }
        return;
    }
    const int al = d->blk ? (int)(o & 0x3Fu) : d->pg ? q0_alias(o) : -1;
    if (al >= 0) {
        switch ((unsigned)al) {
        case NICTX_QREG_TAIL: /* (the tail and its doorbell: doorbell()) */
            if (!r->enable)
                n->err |= NICTX_ERR_DB_OFF;
            else if ((v >> r->ring_log2[q]) != 0)
                n->err |= NICTX_ERR_TAIL_RANGE;
            break;
        case NICTX_QREG_RING_BASE_LO:
            if (!cfg_ok)
                n->err |= NICTX_ERR_CFG;
            else
                n->ring_base = set_lo(n->ring_base, v & NICTX_Q_RING_BASE_LO_ADDR_MASK);
            break;
        case NICTX_QREG_RING_BASE_HI:
            if (!cfg_ok)
                n->err |= NICTX_ERR_CFG;
            else
                n->ring_base = set_hi(n->ring_base, v);
            break;
        case NICTX_QREG_RING_LOG2:
            if (!(v >= 3 && v <= 16))
                n->err |= NICTX_ERR_BAD_ACCESS;
            else if (!cfg_ok)
                n->err |= NICTX_ERR_CFG;
            else
                n->ring_log2 = v & NICTX_Q_RING_LOG2_VALUE_MASK;
            break;
        case NICTX_QREG_WEIGHT:
            if (v >= 1 && v <= 255)
                n->weight = v & NICTX_Q_WEIGHT_VALUE_MASK;
            else
                n->err |= NICTX_ERR_BAD_ACCESS;
            break;
        case NICTX_QREG_WB_ADDR_LO:
            n->wb_addr = set_lo(n->wb_addr, v & NICTX_Q_WB_ADDR_LO_ADDR_MASK);
            break;
        case NICTX_QREG_WB_ADDR_HI: n->wb_addr = set_hi(n->wb_addr, v); break;
        case NICTX_QREG_CQ_BASE_LO:
            if (!cfg_ok)
                n->err |= NICTX_ERR_CFG;
            else
                n->cq_base = set_lo(n->cq_base, v & NICTX_Q_CQ_BASE_LO_ADDR_MASK);
            break;
        case NICTX_QREG_CQ_BASE_HI:
            if (!cfg_ok)
                n->err |= NICTX_ERR_CFG;
            else
                n->cq_base = set_hi(n->cq_base, v);
            break;
        case NICTX_QREG_CQ_LOG2:
            if (!(v >= 3 && v <= 16))
                n->err |= NICTX_ERR_BAD_ACCESS;
            else if (!cfg_ok)
                n->err |= NICTX_ERR_CFG;
            else
                n->cq_log2 = v & NICTX_Q_CQ_LOG2_VALUE_MASK;
            break;
        default: n->err |= NICTX_ERR_BAD_ACCESS; break; /* read-only or unknown */
        }
        return;
    }
    switch (o) {
    case NICTX_REG_CTRL:
        if ((v & ~(uint32_t)(NICTX_CTRL_ENABLE | NICTX_CTRL_RESET)) != 0) {
            n->err |= NICTX_ERR_BAD_ACCESS;
        } else if (v & NICTX_CTRL_RESET) {
            /* Reset only while disabled, and not together with enable. */
            if (r->enable || (v & NICTX_CTRL_ENABLE))
                n->err |= NICTX_ERR_CFG;
            else
                n->rst_pend = true;
        } else if ((v & NICTX_CTRL_ENABLE) && !r->enable &&
                   ((r->rb_zero & (r->queues >= 64 ? ~0ull : (1ull << r->queues) - 1)) != 0 ||
                    r->rst_pend || !(r->queues == 1 || r->proto != NICTX_PROTO_WC))) {
            n->err |= NICTX_ERR_CFG; /* no ring, a reset pending, QUEUES > 1 with WC */
        } else {
            n->enable = (v & NICTX_CTRL_ENABLE) != 0;
            if (n->enable)
                n->cfg_open = false; /* the ring state is in use now */
        }
        break;
    case NICTX_REG_ERR: n->err &= ~v; break;
    case NICTX_REG_CPL_TIMEOUT:
        if ((v & ~NICTX_CPL_TIMEOUT_VALUE_MASK) == 0)
            n->cpl_to = v;
        else
            n->err |= NICTX_ERR_BAD_ACCESS;
        break;
    case NICTX_REG_WB_THRESH:
        if ((v & ~NICTX_WB_THRESH_VALUE_MASK) == 0)
            r->wb_thresh = v;
        else
            n->err |= NICTX_ERR_BAD_ACCESS;
        break;
    case NICTX_REG_IRQ_THRESH:
        if ((v & ~NICTX_IRQ_THRESH_VALUE_MASK) == 0)
            r->irq_thresh = v;
        else
            n->err |= NICTX_ERR_BAD_ACCESS;
        break;
    case NICTX_REG_MRRS_LOG2:
        if (v >= 7 && v <= 12)
            r->mrrs_log2 = v;
        else
            n->err |= NICTX_ERR_BAD_ACCESS;
        break;
    case NICTX_REG_LINE_RATE:
        if ((v & ~NICTX_LINE_RATE_VALUE_MASK) == 0 && v != 0)
            r->line_rate = v;
        else
            n->err |= NICTX_ERR_BAD_ACCESS;
        break;
    case NICTX_REG_DESC_INFLIGHT:
        if (v >= 1 && v <= CM_REGS_DESC_READS_HW)
            r->inflight = v;
        else
            n->err |= NICTX_ERR_BAD_ACCESS;
        break;
    case NICTX_REG_DESC_FETCH_MAX:
        if (v >= 1 && v <= CM_REGS_DESC_FETCH_MAX_HW)
            r->fetch_max = v;
        else
            n->err |= NICTX_ERR_BAD_ACCESS;
        break;
    case NICTX_REG_MAX_TAGS:
        if (v >= 1 && v <= CM_REGS_NUM_TAGS)
            r->max_tags = v;
        else
            n->err |= NICTX_ERR_BAD_ACCESS;
        break;
    case NICTX_REG_MAX_RD_BYTES: /* 0: no limit; else at least one largest read */
        if (v == 0 || (v >= 4096 && (v & ~NICTX_MAX_RD_BYTES_VALUE_MASK) == 0))
            r->max_rd = v;
        else
            n->err |= NICTX_ERR_BAD_ACCESS;
        break;
    case NICTX_REG_IRQ_TIMER:
        if ((v & ~NICTX_IRQ_TIMER_VALUE_MASK) == 0)
            r->irq_timer = v;
        else
            n->err |= NICTX_ERR_BAD_ACCESS;
        break;
    case NICTX_REG_CPL_MODE:
        if (!(v == NICTX_CPL_MODE_HEAD_WB || v == NICTX_CPL_MODE_DESC_WB || v == NICTX_CPL_MODE_CQ))
            n->err |= NICTX_ERR_BAD_ACCESS;
        else if (!cfg_ok)
            n->err |= NICTX_ERR_CFG;
        else
            r->cpl_mode = v;
        break;
    case NICTX_REG_PROTO:
        if (!(v == NICTX_PROTO_TAIL || v == NICTX_PROTO_OWNER || v == NICTX_PROTO_WC))
            n->err |= NICTX_ERR_BAD_ACCESS;
        else if (!cfg_ok)
            n->err |= NICTX_ERR_CFG;
        else
            n->proto = v;
        break;
    case NICTX_REG_QUEUES:
        if (!(v >= 1 && v <= r->nq)) {
            n->err |= NICTX_ERR_BAD_ACCESS;
        } else if (!cfg_ok) {
            n->err |= NICTX_ERR_CFG;
        } else {
            unsigned lg = 0; /* log2 rounded up */
            while ((1u << lg) < v)
                lg++;
            n->queues = v;
            r->qlog = lg;
        }
        break;
    case NICTX_REG_SCHED:
        if ((v & ~NICTX_SCHED_MODE) == 0)
            r->sched = (v & NICTX_SCHED_MODE) != 0;
        else
            n->err |= NICTX_ERR_BAD_ACCESS;
        break;
    case NICTX_REG_DRR_QUANTUM:
        if (v >= 64 && v <= 65536)
            r->quantum = v;
        else
            n->err |= NICTX_ERR_BAD_ACCESS;
        break;
    default: n->err |= NICTX_ERR_BAD_ACCESS; break; /* read-only or unknown */
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
    decode(r, in, &d);
    const bool go = rst_go(r, in);
    unsigned tq, tail_d;
    const bool db = doorbell(r, in, &d, go, &tq, &tail_d);
    uint64_t rd = 0;
    if (d.is_rd && d.ok) {
        const unsigned o = in->req_off & 0xF8u;
        rd = rd_dword(r, in, &d, o) | (uint64_t)rd_dword(r, in, &d, o | 4u) << 32;
    }

    /* Configuration and error state (the RTL's reg_act block). */
    if (d.acc || in->wc_bad_access || in->wc_close || in->wc_tail_range || in->bad_desc ||
        in->dma_err || in->cpl_timeout || in->unexp_cpl || r->rst_pend) {
        const unsigned q = d.aq;
        struct cm_regs_next n = {
            .err = r->err, .proto = r->proto, .queues = r->queues, .enable = r->enable,
            .rst_pend = r->rst_pend, .cfg_open = r->cfg_open, .cpl_to = r->cpl_to,
            .msix_mask = r->msix_mask, .ring_base = r->ring_base[q], .wb_addr = r->wb_addr[q],
            .cq_base = r->cq_base[q], .irq_addr = r->msix_addr[q], .ring_log2 = r->ring_log2[q],
            .cq_log2 = r->cq_log2[q], .weight = r->weight[q], .irq_data = r->msix_data[q],
        };
        if ((d.is_wr || d.is_rd) && !d.ok)
            n.err |= NICTX_ERR_BAD_ACCESS;
        if (in->wc_bad_access)
            n.err |= NICTX_ERR_BAD_ACCESS;
        if (d.wr_en & 1u) {
            const unsigned o = in->req_off & 0xFFu;
            wr_dword(r, &d, &n, o, (uint32_t)(in->req_data >> ((o & 4u) ? 32 : 0)));
        }
        if (d.wr_en & 2u)
            wr_dword(r, &d, &n, (in->req_off + 4u) & 0xFFu, (uint32_t)(in->req_data >> 32));
        if (in->wc_close && !r->enable)
            n.err |= NICTX_ERR_DB_OFF;
        if (in->wc_tail_range)
            n.err |= NICTX_ERR_TAIL_RANGE;
        if (in->bad_desc)
            n.err |= NICTX_ERR_BAD_DESC;
        if (in->dma_err)
            n.err |= NICTX_ERR_DMA;
        if (in->cpl_timeout)
            n.err |= NICTX_ERR_CPL_TIMEOUT;
        if (in->unexp_cpl)
            n.err |= NICTX_ERR_UNEXP_CPL;
        /* A pending reset counts the cycles it waited for reads; firing, it
         * clears the error state and opens the ring configuration. */
        if (r->rst_pend && !go && r->rst_wait != r->cpl_to)
            r->rst_wait = (r->rst_wait + 1) & M24;
        if (go) {
            n.rst_pend = false;
            n.err = 0;
            n.cfg_open = true;
            r->rst_wait = 0;
        }
        r->err = n.err & ERR_ALL;
        r->enable = n.enable;
        r->rst_pend = n.rst_pend;
        r->cfg_open = n.cfg_open;
        r->proto = n.proto;
        r->queues = n.queues;
        r->cpl_to = n.cpl_to;
        r->msix_mask = n.msix_mask;
        if (d.wr_en != 0) {
            r->rb_zero = (r->rb_zero & ~(1ull << q)) | (uint64_t)(n.ring_base == 0) << q;
            r->ring_base[q] = n.ring_base;
            r->ring_log2[q] = (uint8_t)n.ring_log2;
            r->wb_addr[q] = n.wb_addr;
            r->cq_base[q] = n.cq_base;
            r->cq_log2[q] = (uint8_t)n.cq_log2;
            r->msix_addr[q] = n.irq_addr;
            r->msix_data[q] = n.irq_data;
            r->weight[q] = (uint8_t)n.weight;
        }
    }

    /* The read's completion (one outstanding). */
    if (r->cpl_valid && in->cpl_ready)
        r->cpl_valid = false;
    if (d.is_rd) {
        r->cpl_valid = true;
        r->cpl_tag = in->req_tag & 0xFFu;
        r->cpl_len = d.ok ? in->req_len & 0x1FFFu : 0;
        r->cpl_off = in->req_off & 0x1FFFu;
        r->cpl_data = rd;
        r->cpl_err = !d.ok;
    }
    r->qrst = go;

    count(r, in, db);

    /* Tails: a queue reset clears every one; else the written one. */
    if (go)
        memset(r->tail, 0, r->nq * sizeof(r->tail[0]));
    else if ((d.wr_en != 0 || in->wc_tail_we) && tq < r->nq)
        r->tail[tq] = (uint16_t)tail_d;
}
