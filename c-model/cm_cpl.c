/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_cpl.c - the completion and interrupt logic of the C model (cm_cpl.h),
 * after the contract in rtl/nictx_cpl.sv's header.
 */
#include "cm_cpl.h"
#include "cm_rr_pick.h"

#include <string.h>

#define M16 0xFFFFu
#define M24 0xFFFFFFu
#define M26 0x3FFFFFFu

static uint64_t bit(unsigned q)
{
    return 1ull << q;
}

static bool has(uint64_t m, unsigned q)
{
    return (m >> q & 1u) != 0;
}

/* A ring or CQ of 2^log2 entries: its index mask (16 bits). */
static unsigned ring_mask(unsigned log2)
{
    return log2 >= 16 ? M16 : (1u << log2) - 1;
}

/* prim_rr_pick, with its valid output. */
static unsigned rr_pick(uint64_t req, unsigned ptr, bool *any)
{
    *any = req != 0;
    return cm_rr_pick(req, ptr);
}

/* A 4-byte write's data: the lanes of its address (bit 2). */
static uint64_t lanes4(uint64_t addr, uint64_t v)
{
    return (addr & 4) ? v << 32 : v;
}

static bool wr_on(unsigned mode, unsigned thresh, uint64_t wb_addr, uint64_t cq_base)
{
    if (mode == CM_CPL_DESC_WB || mode == CM_CPL_DESC_WB_FULL)
        return thresh != 0;
    if (mode == CM_CPL_CQ)
        return thresh != 0 && cq_base != 0;
    return thresh != 0 && wb_addr != 0;
}

/* DESC_WB_FULL: the descriptors of a write from addr: at most left, to the
 * ring's wrap (wrap) and to the next MPS-aligned address. */
static unsigned full_n(uint64_t addr, unsigned left, unsigned wrap, unsigned mps_log2)
{
    const unsigned mps = 1u << (mps_log2 & 15u);
    unsigned n = ((mps - ((unsigned)addr & 0x1FFFu & (mps - 1))) & 0x1FFFu) >> 4;

    if (left < n)
        n = left;
    if (wrap < n)
        n = wrap;
    return n & 0x1FFu;
}

/* DESC_WB_FULL: a write's descriptor word 1: DD and the phase of its pass. */
static uint64_t full_word(bool ph)
{
    return ((uint64_t)ph << 31 | 1) << 32;
}

/* What this clock's inputs and state decide. */
struct cm_cpl_comb {
    /* One queue */
    bool wb_on, wb_due, irq_trig, irq_due, tmr_dec, s_act;
    /* Queues */
    unsigned mw_q, mi_q;
    bool mw_any, mi_any, m_send, mi_send;
    unsigned w_mask, w_cmask, w_last;
    bool w_ph;
    unsigned w_first, w_fn, m_left;  /* DESC_WB_FULL: the write's first, its descriptors, left */
    bool w_fph;
    uint64_t w_faddr;
    uint32_t c_cic;
    bool tf_any, tf_full, tf_live, tf_pop;
    unsigned tf_hq;
    uint32_t tf_dl, tf_left;
    unsigned m_head, m_cnt, m_rc, m_ic;
    bool m_due, m_trig_c, m_trig_t, m_force_c, m_force_t, m_start;
    uint64_t mpend_d, mph_d, mcph_d, mirq_d, mrun_d;
};

/* The one queue's fields of k: each of them set. */
static void cm_cpl_single(const struct cm_cpl *c, const struct cm_cpl_in *in,
                          struct cm_cpl_comb *k)
{
    bool irq_on = in->irq_thresh != 0 || in->irq_timer != 0;
    k->irq_trig = irq_on && c->irq_cnt != 0 && (!c->irq_pend || has(in->msix_mask, 0)) &&
                  ((in->irq_thresh != 0 && c->irq_cnt >= in->irq_thresh) ||
                   (in->irq_timer != 0 && c->tmr_run && c->tmr == 0));
    k->wb_on = c->wb_cnt != 0 && wr_on(in->cpl_mode, in->wb_thresh, in->wb_addr, in->cq_base);
    k->wb_due = k->wb_on && !c->wb_pend &&
                (c->wb_cnt >= in->wb_thresh || c->head == in->tail || k->irq_trig);
    k->irq_due = k->irq_trig && !(k->wb_on && c->wb_pend && c->wb_cnt != 0);
    k->tmr_dec = c->tmr_run && c->tmr != 0;
}

/* The timer FIFO's head entry: dropped if its timer stopped since, fired
 * at its deadline (or early, to make room for a timer starting). */
static void cm_cpl_timer_fifo(const struct cm_cpl *c, const struct cm_cpl_in *in,
                              struct cm_cpl_comb *k)
{
    const unsigned n = c->queues > 1 ? c->queues : 2, lo = n - 1;
    k->tf_any = c->tf_rd != c->tf_wr;
    k->tf_full = (c->tf_rd ^ c->tf_wr) == n;
    k->tf_hq = c->tf_q[c->tf_rd & lo];
    k->tf_dl = c->tf_dl[c->tf_rd & lo];
    k->tf_left = (k->tf_dl - c->now) & M26;
    k->tf_live = k->tf_any && has(c->mrun, k->tf_hq) && c->mdl[k->tf_hq] == k->tf_dl;
    k->tf_pop = k->tf_any && (!k->tf_live || k->tf_left == 0 || (k->tf_left >> 25) ||
                              (k->tf_full && in->pkt_done && (k->c_cic & M16) == 0 &&
                               in->irq_timer != 0));
}

/* A completion on queue pkt_q: its head and counts, what becomes due. */
static void cm_cpl_completion(const struct cm_cpl *c, const struct cm_cpl_in *in,
                              struct cm_cpl_comb *k)
{
    const unsigned q = in->pkt_q;
    k->m_head = (c->mhead[q] + 1) & ring_mask(in->c_ring_log2);
    k->m_cnt = ((k->c_cic >> 16) + 1) & M16;
    k->m_rc = (((k->m_send && k->mw_q == q) ? k->m_left : c->mrc[q]) + 1) & M16;
    k->m_ic = ((k->c_cic & M16) + 1) & M16;
    k->m_due = wr_on(in->cpl_mode, in->wb_thresh, in->c_wb_addr, in->c_cq_base) &&
               (k->m_cnt >= in->wb_thresh || k->m_head == in->c_tail);
    if (k->m_head == 0)
        k->mph_d = (k->mph_d & ~bit(q)) | (has(c->mph, q) ? 0 : bit(q));
    k->m_trig_c = (in->irq_thresh != 0 && k->m_ic >= in->irq_thresh) ||
                  (k->tf_pop && k->tf_live && k->tf_hq == q);
    k->m_start = !k->m_trig_c && (k->c_cic & M16) == 0 && in->irq_timer != 0;
}

/* DESC_WB_FULL: queue mw_q's next write, from its first completed
 * descriptor not yet written (the last ring's worth at most); what is left
 * keeps the write due. */
static void cm_cpl_full_queue(const struct cm_cpl *c, const struct cm_cpl_in *in,
                              struct cm_cpl_comb *k)
{
    const unsigned q = k->mw_q, rsize = k->w_mask + 1;
    const unsigned cnt = c->mrc[q] > rsize ? rsize : c->mrc[q];

    k->w_first = (c->mhead[q] - cnt) & k->w_mask;
    k->w_fph = k->w_first >= c->mhead[q] ? !has(c->mph, q) : has(c->mph, q);
    k->w_faddr = in->w_ring_base + ((uint64_t)k->w_first << 4);
    k->w_fn = full_n(k->w_faddr, cnt, rsize - k->w_first, in->mps_log2);
    if (k->m_send)
        k->m_left = cnt - k->w_fn;
}

static void cm_cpl_queues(const struct cm_cpl *c, const struct cm_cpl_in *in,
                          struct cm_cpl_comb *k)
{
    k->mpend_d = c->mpend;
    k->mph_d = c->mph;
    k->mcph_d = c->mcph;
    k->mirq_d = c->mirq;
    k->mrun_d = c->mrun;
    bool free = (!c->wr.valid || in->wr_ready) && !c->wb_pend && !c->irq_pend;
    k->m_send = k->mw_any && free;
    k->mi_send = !k->mw_any && k->mi_any && free;
    k->w_mask = ring_mask(in->w_ring_log2);
    k->w_cmask = ring_mask(in->w_cq_log2);
    k->w_last = (c->mhead[k->mw_q] - 1) & k->w_mask;
    k->w_ph = c->mhead[k->mw_q] == 0 ? !has(c->mph, k->mw_q) : has(c->mph, k->mw_q);
    if (k->mw_any && in->cpl_mode == CM_CPL_DESC_WB_FULL)
        cm_cpl_full_queue(c, in, k);
    if (k->m_send) {
        k->mpend_d &= ~bit(k->mw_q);
        if (k->m_left)
            k->mpend_d |= bit(k->mw_q);
        if (in->cpl_mode == CM_CPL_CQ && c->mpi[k->mw_q] == k->w_cmask)
            k->mcph_d ^= bit(k->mw_q);
    }
    if (k->mi_send)
        k->mirq_d &= ~bit(k->mi_q);
    k->c_cic = c->mcic[in->pkt_q];
    cm_cpl_timer_fifo(c, in, k);
    if (in->pkt_done)
        cm_cpl_completion(c, in, k);
    k->m_trig_t = k->tf_pop && k->tf_live && !(in->pkt_done && k->tf_hq == in->pkt_q);
    if (k->m_trig_c) {
        k->mirq_d |= bit(in->pkt_q);
        k->mrun_d &= ~bit(in->pkt_q);
        k->m_force_c = in->wb_thresh != 0;
    }
    if (k->m_trig_t) {
        k->mirq_d |= bit(k->tf_hq);
        k->mrun_d &= ~bit(k->tf_hq);
        k->m_force_t = in->wb_thresh != 0 && c->mrc[k->tf_hq] != 0 &&
                       !(k->m_send && k->mw_q == k->tf_hq);
    }
    if (k->m_due || k->m_force_c)
        k->mpend_d |= bit(in->pkt_q);
    if (k->m_force_t)
        k->mpend_d |= bit(k->tf_hq);
    if (k->m_start)
        k->mrun_d |= bit(in->pkt_q);
}

static void cm_cpl_comb(const struct cm_cpl *c, const struct cm_cpl_in *in, struct cm_cpl_comb *k)
{
    memset(k, 0, sizeof(*k));
    k->mw_q = rr_pick(c->mpend, c->mptr, &k->mw_any);
    k->mi_q = rr_pick(c->mirq & ~c->mpend & ~in->msix_mask, c->miptr, &k->mi_any);
    cm_cpl_single(c, in, k);
    if (in->multi)
        cm_cpl_queues(c, in, k);
    k->s_act = (in->pkt_done && !in->multi) || k->wb_due || k->irq_due || k->tmr_dec ||
               c->wb_pend || c->irq_pend || c->wr.valid || k->m_send || k->mi_send;
}

static uint32_t cm_cpl_wake(const struct cm_cpl *c, const struct cm_cpl_comb *k)
{
    uint32_t w_s = M24, w_m = M24;
    if (!c->tmr_run && !k->tf_any)
        return M24;
    if (c->tmr_run)
        w_s = c->tmr >= 2 ? c->tmr - 2 : 0;
    if (k->tf_any) {
        w_m = 0;
        if (k->tf_live && !(k->tf_left >> 25) && k->tf_left >= 2)
            w_m = k->tf_left - 2 > 0xFFFFFDu ? 0xFFFFFDu : k->tf_left - 2;
    }
    return w_s < w_m ? w_s : w_m;
}

unsigned cm_cpl_wq(const struct cm_cpl *c, const struct cm_cpl_in *in)
{
    bool any;
    unsigned mw = rr_pick(c->mpend, c->mptr, &any);
    if (any)
        return mw;
    return rr_pick(c->mirq & ~c->mpend & ~in->msix_mask, c->miptr, &any);
}

int cm_cpl_reset(struct cm_cpl *c, unsigned queues)
{
    if (queues == 0 || queues > CM_CPL_MAX_QUEUES || (queues & (queues - 1)) != 0)
        return -1;
    memset(c, 0, sizeof(*c));
    c->queues = queues;
    while ((1u << c->qbits) < queues)
        c->qbits++;
    if (c->qbits == 0)
        c->qbits = 1;
    c->hphase = c->cq_ph = true;
    c->mph = c->mcph = queues == 64 ? ~0ull : bit(queues) - 1;
    return 0;
}

/* (Reads only cm_cpl_single's fields of k.) */
static bool cm_cpl_idle_k(const struct cm_cpl *c, const struct cm_cpl_in *in,
                          const struct cm_cpl_comb *k)
{
    return !c->wr.valid && !c->wb_pend && !(c->irq_pend && !has(in->msix_mask, 0)) &&
           !k->wb_due && !k->irq_due && c->mpend == 0 && (c->mirq & ~in->msix_mask) == 0;
}

bool cm_cpl_idle(const struct cm_cpl *c, const struct cm_cpl_in *in)
{
    struct cm_cpl_comb k;

    if (c->wr.valid || c->wb_pend || c->mpend != 0 || (c->mirq & ~in->msix_mask) != 0)
        return false;
    cm_cpl_single(c, in, &k); /* (all that cm_cpl_idle_k reads of k) */
    return cm_cpl_idle_k(c, in, &k);
}

static void cm_cpl_outputs(const struct cm_cpl *c, const struct cm_cpl_in *in,
                           const struct cm_cpl_comb *kp, struct cm_cpl_out *out)
{
    const struct cm_cpl_comb k = *kp;

    out->c_q = in->pkt_q;
    out->w_q = k.mw_any ? k.mw_q : k.mi_q;
    out->pba = in->multi ? c->mirq & in->msix_mask : (uint64_t)(c->irq_pend && has(in->msix_mask, 0));
    out->hr_head = in->multi ? c->mhead[in->hr_q] : c->head;
    out->head = c->head;
    out->wr_valid = c->wr.valid;
    out->wr_addr = c->wr.addr;
    out->wr_data = c->wr.data;
    out->wr_len = c->wr.len;
    out->timer = c->tmr_run || c->tf_rd != c->tf_wr;
    out->tmr_fire = in->multi ? k.m_trig_t
                              : k.irq_due && in->irq_timer != 0 && c->tmr_run && c->tmr == 0;
    out->wake = cm_cpl_wake(c, &k);
    out->idle = cm_cpl_idle_k(c, in, &k);
    out->wait = out->idle && !k.tf_pop;
    out->quiet = false;
}

/* Nothing to do on this clock but count it (the engine's usual clock): no
 * frame done; nothing pending, due or sending on any queue; no timer
 * running.  (Frames counted towards a threshold may wait.)  The outputs
 * are then cm_cpl_quiet_outputs()'s and the edge only counts the clock
 * (cm_cpl_quiet_edge()), as the full evaluation would give. */
static bool cm_cpl_quiet(const struct cm_cpl *c, const struct cm_cpl_in *in)
{
    if (in->pkt_done || c->tmr_run || c->wb_pend || c->irq_pend || c->wr.valid ||
        c->mpend != 0 || (c->mirq & ~in->msix_mask) != 0 || c->tf_rd != c->tf_wr)
        return false;
    if (c->wb_cnt == 0 && c->irq_cnt == 0)
        return true;
    struct cm_cpl_comb k;
    cm_cpl_single(c, in, &k);
    return !k.wb_due && !k.irq_due;
}

static void cm_cpl_quiet_outputs(const struct cm_cpl *c, const struct cm_cpl_in *in,
                                 struct cm_cpl_out *out)
{
    out->c_q = in->pkt_q;
    out->w_q = 0;
    out->pba = in->multi ? c->mirq & in->msix_mask : 0;
    out->hr_head = in->multi ? c->mhead[in->hr_q] : c->head;
    out->head = c->head;
    out->wr_valid = false;
    out->wr_addr = c->wr.addr;
    out->wr_data = c->wr.data;
    out->wr_len = c->wr.len;
    out->timer = out->tmr_fire = false;
    out->wake = M24;
    out->idle = out->wait = true;
    out->quiet = true;
}

static void cm_cpl_quiet_edge(struct cm_cpl *c, const struct cm_cpl_in *in)
{
    if (in->multi)
        c->now = (c->now + 1 + in->skip) & M26;
}

void cm_cpl_eval(const struct cm_cpl *c, const struct cm_cpl_in *in, struct cm_cpl_out *out)
{
    struct cm_cpl_comb k;

    if (cm_cpl_quiet(c, in)) {
        cm_cpl_quiet_outputs(c, in, out);
        return;
    }
    cm_cpl_comb(c, in, &k);
    cm_cpl_outputs(c, in, &k, out);
}

/* One queue: the completion write captured when due. */
static void cm_cpl_capture(struct cm_cpl *c, const struct cm_cpl_in *in, unsigned *cq_pi,
                           bool *cq_ph)
{
    unsigned last = (c->head - 1) & ring_mask(in->ring_log2);
    bool last_ph = c->head == 0 ? !c->hphase : c->hphase;

    c->wb.valid = true;
    if (in->cpl_mode == CM_CPL_DESC_WB_FULL) {
        /* The batch's descriptors (the last ring's worth at most) from its
         * first, with the phase of its pass. */
        const unsigned rsize = ring_mask(in->ring_log2) + 1;
        const unsigned cnt = c->wb_cnt > rsize ? rsize : c->wb_cnt;
        const unsigned first = (c->head - cnt) & ring_mask(in->ring_log2);
        c->wb.addr = in->ring_base + ((uint64_t)first << 4);
        c->wb.data = full_word(first >= c->head ? !c->hphase : c->hphase);
        c->wb_n = cnt;
    } else if (in->cpl_mode == CM_CPL_DESC_WB) {
        c->wb.addr = in->ring_base + ((uint64_t)last << 4 | 12);
        c->wb.data = ((uint64_t)last_ph << 31 | 1) << 32;
        c->wb.len = 4;
    } else if (in->cpl_mode == CM_CPL_CQ) {
        unsigned cq_mask = ring_mask(in->cq_log2);
        c->wb.addr = in->cq_base + ((uint64_t)c->cq_pi << 3);
        c->wb.data = (uint64_t)c->cq_ph << 63 | (uint64_t)c->wb_cnt << 16 | last;
        c->wb.len = 8;
        *cq_pi = (c->cq_pi + 1) & cq_mask;
        if (c->cq_pi == cq_mask)
            *cq_ph = !c->cq_ph;
    } else {
        c->wb.addr = in->wb_addr;
        c->wb.data = lanes4(in->wb_addr, c->head);
        c->wb.len = 4;
    }
}

/* One queue, DESC_WB_FULL: the batch's next write into wr; past the ring's
 * wrap the next pass's phase.  (Edits c->wb and c->wb_n: the edge's.) */
static void cm_cpl_full_next(struct cm_cpl *c, const struct cm_cpl_in *in, struct cm_cpl_wr *wr,
                             bool *wb_pend)
{
    const unsigned rsize = ring_mask(in->ring_log2) + 1;
    const unsigned wrap = rsize - ((unsigned)((c->wb.addr - in->ring_base) >> 4) & M16);
    const unsigned n = full_n(c->wb.addr, c->wb_n, wrap, in->mps_log2);

    *wr = (struct cm_cpl_wr){true, c->wb.addr, c->wb.data, n << 4};
    *wb_pend = c->wb_n != n;
    c->wb_n = (c->wb_n - n) & M16;
    c->wb.addr += (uint64_t)n << 4;
    if (wrap == n) {
        c->wb.addr = in->ring_base;
        c->wb.data ^= 1ull << 63;
    }
}

/* The output register's next write: the captured completion write, the
 * single queue's interrupt, a queue's completion write, a queue's
 * interrupt, in that order. */
static void cm_cpl_output(struct cm_cpl *c, const struct cm_cpl_in *in,
                          const struct cm_cpl_comb *k, struct cm_cpl_wr *wr, bool *wb_pend,
                          bool *irq_pend)
{
    if (c->wr.valid && in->wr_ready)
        wr->valid = false;
    if (c->wr.valid && !in->wr_ready)
        return;
    if (c->wb_pend && in->cpl_mode == CM_CPL_DESC_WB_FULL) {
        cm_cpl_full_next(c, in, wr, wb_pend);
    } else if (c->wb_pend) {
        *wr = c->wb;
        wr->valid = true;
        *wb_pend = false;
    } else if (c->irq_pend && !has(in->msix_mask, 0)) {
        *wr = (struct cm_cpl_wr){true, in->irq_addr, lanes4(in->irq_addr, in->irq_data), 4};
        *irq_pend = false;
    } else if (k->m_send) {
        const unsigned q = k->mw_q;
        if (in->cpl_mode == CM_CPL_DESC_WB)
            *wr = (struct cm_cpl_wr){true, in->w_ring_base + ((uint64_t)k->w_last << 4 | 12),
                                     full_word(k->w_ph), 4};
        else if (in->cpl_mode == CM_CPL_DESC_WB_FULL)
            *wr = (struct cm_cpl_wr){true, k->w_faddr, full_word(k->w_fph), k->w_fn << 4};
        else if (in->cpl_mode == CM_CPL_CQ)
            *wr = (struct cm_cpl_wr){in->w_cq_base != 0, in->w_cq_base + ((uint64_t)c->mpi[q] << 3),
                                     (uint64_t)has(c->mcph, q) << 63 | (uint64_t)c->mrc[q] << 16 |
                                         k->w_last,
                                     8};
        else
            *wr = (struct cm_cpl_wr){in->w_wb_addr != 0, in->w_wb_addr,
                                     lanes4(in->w_wb_addr, c->mhead[q]), 4};
    } else if (k->mi_send) {
        *wr = (struct cm_cpl_wr){true, in->w_msix_addr, lanes4(in->w_msix_addr, in->w_msix_data), 4};
    }
}

/* One queue's registers at the edge (only on an active clock). */
static void cm_cpl_clock_single(struct cm_cpl *c, const struct cm_cpl_in *in,
                                const struct cm_cpl_comb *k)
{
    unsigned head = c->head, wb_cnt = c->wb_cnt, irq_cnt = c->irq_cnt, cq_pi = c->cq_pi;
    bool hphase = c->hphase, cq_ph = c->cq_ph, wb_pend = c->wb_pend, irq_pend = c->irq_pend;
    bool tmr_run = c->tmr_run, tmr_dec = k->tmr_dec;
    uint32_t tmr = tmr_dec ? c->tmr - 1 : c->tmr;
    struct cm_cpl_wr wr = c->wr;

    if (k->wb_due) {
        cm_cpl_capture(c, in, &cq_pi, &cq_ph);
        wb_pend = true;
        wb_cnt = 0;
    }
    if (k->irq_due) {
        irq_pend = true;
        irq_cnt = 0;
        tmr_run = false;
        tmr_dec = false;
    }
    if (in->pkt_done && !in->multi) {
        head = (c->head + 1) & ring_mask(in->ring_log2);
        if (head == 0)
            hphase = !c->hphase;
        wb_cnt = (wb_cnt + 1) & M16;
        if (irq_cnt == 0 && in->irq_timer != 0) { /* the first not yet signalled starts the timer */
            tmr_run = true;
            tmr = in->irq_timer;
            tmr_dec = false;
        }
        irq_cnt = (irq_cnt + 1) & M16;
    }
    cm_cpl_output(c, in, k, &wr, &wb_pend, &irq_pend);
    c->head = head;
    c->hphase = hphase;
    c->wb_cnt = wb_cnt;
    c->irq_cnt = irq_cnt;
    c->wb_pend = wb_pend;
    c->cq_pi = cq_pi;
    c->cq_ph = cq_ph;
    c->irq_pend = irq_pend;
    c->tmr_run = tmr_run;
    /* The count-down also loses the clocks left out. */
    c->tmr = tmr_dec ? (tmr > in->skip ? tmr - in->skip : 0) : tmr;
    c->wr = wr;
}

/* The queues' registers at the edge. */
static void cm_cpl_clock_queues(struct cm_cpl *c, const struct cm_cpl_in *in,
                                const struct cm_cpl_comb *k)
{
    const unsigned n = c->queues > 1 ? c->queues : 2, qmask = (1u << c->qbits) - 1;
    const unsigned q = in->pkt_q;

    if (k->m_send) {
        c->mrc[k->mw_q] = k->m_left;
        if (in->cpl_mode == CM_CPL_CQ)
            c->mpi[k->mw_q] = (c->mpi[k->mw_q] + 1) & k->w_cmask;
    }
    if (k->m_trig_t)
        c->mcic[k->tf_hq] &= k->m_force_t ? 0 : 0xFFFF0000u;
    if (in->multi && in->pkt_done) {
        c->mhead[q] = k->m_head;
        c->mrc[q] = k->m_rc;
        c->mcic[q] = (uint32_t)((k->m_due || k->m_force_c) ? 0 : k->m_cnt) << 16 |
                     (k->m_trig_c ? 0 : k->m_ic);
    }
    if (k->m_start) {
        uint32_t dl = (c->now + in->irq_timer + 1) & M26;
        c->mdl[q] = dl;
        c->tf_q[c->tf_wr & (n - 1)] = q;
        c->tf_dl[c->tf_wr & (n - 1)] = dl;
    }
    if (!in->multi)
        return;
    c->mpend = k->mpend_d;
    if (k->m_send)
        c->mptr = (k->mw_q + 1) & qmask;
    if (k->mi_send)
        c->miptr = (k->mi_q + 1) & qmask;
    if (k->tf_pop)
        c->tf_rd = (c->tf_rd + 1) & (2 * n - 1);
    if (k->m_start)
        c->tf_wr = (c->tf_wr + 1) & (2 * n - 1);
    c->now = (c->now + 1 + in->skip) & M26;
    c->mph = k->mph_d;
    c->mcph = k->mcph_d;
    c->mirq = k->mirq_d;
    c->mrun = k->mrun_d;
}

static void cm_cpl_edge(struct cm_cpl *c, const struct cm_cpl_in *in, const struct cm_cpl_comb *k)
{
    /* The single queue's registers first: its output register reads the
     * queues' state before the edge. */
    if (k->s_act)
        cm_cpl_clock_single(c, in, k);
    cm_cpl_clock_queues(c, in, k);
}

void cm_cpl_clock(struct cm_cpl *c, const struct cm_cpl_in *in)
{
    struct cm_cpl_comb k;

    if (cm_cpl_quiet(c, in)) {
        cm_cpl_quiet_edge(c, in);
        return;
    }
    cm_cpl_comb(c, in, &k);
    cm_cpl_edge(c, in, &k);
}

void cm_cpl_count(struct cm_cpl *c, const struct cm_cpl_in *in, uint32_t clocks)
{
    if (in->multi) /* (cm_cpl_quiet_edge()) */
        c->now = (c->now + clocks) & M26;
}

void cm_cpl_step(struct cm_cpl *c, const struct cm_cpl_in *in, struct cm_cpl_out *out)
{
    struct cm_cpl_comb k;

    if (cm_cpl_quiet(c, in)) {
        cm_cpl_quiet_outputs(c, in, out);
        cm_cpl_quiet_edge(c, in);
        return;
    }
    cm_cpl_comb(c, in, &k);
    cm_cpl_outputs(c, in, &k, out);
    cm_cpl_edge(c, in, &k);
}
