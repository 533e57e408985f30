/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_engine.c - the transmit engine of the C model: rtl/nictx_tx_top.sv's
 * wiring of the blocks, its port slices, device-to-host arbiter, queue
 * reset, and idle and wait terms (cm_engine.h; docs/c-model.md).
 *
 * A clock is worked out in the order of the combinational paths between
 * the blocks (each step names what it needs of the ones before):
 *  1. what comes from state alone: the slices' heads and room, the
 *     register block's configuration, the requests the fetchers hold, the
 *     read engine's MRd, the completion writer's write and queue, the
 *     arbiter's grant (its requests are all registers);
 *  2. the read engine (the h2d head's completion, the grant);
 *  3. the WC window (the h2d head's write; the register block's hold, which
 *     reads the read engine's drained);
 *  4. the register block (the h2d head's access, the window's events): the
 *     doorbell, the read's ready and the head the access names;
 *  5. the scheduler's candidate (the fetcher's ready mask), its head and
 *     weight, then its grant; the descriptor fetcher (the doorbell, the read
 *     engine's data, the grant);
 *  6. the payload fetch (the fetcher's descriptor, the read engine's
 *     data), the MAC (the payload fetch's beat), the completion writer (the
 *     MAC's sent frame, the register block's answers for its queues);
 *  7. the top's idle, wait and quiescence; then every block's rising edge,
 *     the slices' and the arbiter's.
 * A queue reset (the register block's qrst) holds the datapath blocks in
 * reset for the clock it is high, as core_rst_n does in the RTL.
 *
 * cm_engine_run() takes several clocks in one call (device_ops.run): a
 * stream clock, on which only the data stream moves (the read engine's
 * completion data into the payload buffer or the descriptor buffer, a
 * frame's beats through the MAC, the port slices) while the other blocks
 * are known to do nothing, does just that; any other clock of a run is the
 * whole step's.
 */
#include "cm_engine.h"

#ifndef CM_ENGINE_PROBE
#define CM_ENGINE_PROBE 0 /* 1: cm_engine_step_probe alone (cm_engine_probe.c) */
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cm_arbiter_rr.h"
#include "cm_cpl.h"
#include "cm_desc_fetch.h"
#include "cm_dma_rd.h"
#include "cm_mac.h"
#include "cm_payload.h"
#include "cm_probe.h"
#include "cm_regs.h"
#include "cm_sched.h"
#include "cm_wc.h"
#include "lib/cover.h"
#include "nictx_regs_gen.h"

/* rtl/nictx_tx_top.sv's parameters are struct dev_hw's (cm_engine_create_hw). */
/* The cover points by value (cover_sample, cover_err): in the registers' order. */
_Static_assert(COVER_PROTO_WC - COVER_PROTO_TAIL == NICTX_PROTO_WC && NICTX_PROTO_TAIL == 0,
               "proto_* in PROTO's order");
_Static_assert(COVER_CPL_CQ - COVER_CPL_HEAD_WB == NICTX_CPL_MODE_CQ &&
               COVER_CPL_DESC_WB_FULL - COVER_CPL_HEAD_WB == NICTX_CPL_MODE_DESC_WB_FULL &&
               NICTX_CPL_MODE_HEAD_WB == 0,
               "cpl_* in CPL_MODE's order");
_Static_assert(NICTX_ERR_TAIL_RANGE == 1u &&
               NICTX_ERR_UNEXP_CPL == 1u << (COVER_ERR_UNEXP_CPL - COVER_ERR_TAIL_RANGE),
               "err_* in ERR's bit order");
_Static_assert(COVER_QUEUES == 64, "a queue_active point per queue the largest engine has");
#define CM_WAKE_NEVER 0xffffffu /* wake_o, skip_i: 24 bits, all ones "no limit" */

/* Device-to-host sources (the arbiter's requesters). */
enum { SRC_MRD = 0, SRC_REG_CPL = 1, SRC_WR = 2, SRC_N = 3 };

/* A two-entry register slice (prim_fifo_sync, Depth 2): counters whose
 * difference is the fill; the head is slot rp & 1, also while empty. */
struct cm_slice {
    unsigned wp, rp;
};

static inline unsigned slice_count(const struct cm_slice *s) { return (s->wp - s->rp) & 3u; }
static inline bool slice_wready(const struct cm_slice *s) { return slice_count(s) != 2; }
static inline bool slice_rvalid(const struct cm_slice *s) { return s->wp != s->rp; }

struct cm_d2h_slot { /* the d2h slice's entry: a TLP's beat with its 8-byte word */
    uint8_t sop, eop;  /* 1 in every one-beat TLP stored (0 before any) */
    uint8_t type, tag, err;
    uint16_t len;
    uint64_t addr, word;
};

/* The blocks' inputs, kept from clock to clock: the register block's
 * configuration in them is copied only when it may have changed
 * (config_refresh); the rest is set on every clock. */
struct cm_engine_ins {
    struct cm_dma_rd_in ri;
    struct cm_wc_in wi;
    struct cm_regs_in gi;
    struct cm_sched_in si;
    struct cm_desc_fetch_in fi;
    struct cm_payload_in pi;
    struct cm_mac_in mi;
    struct cm_cpl_in ci;
};

/* A clock whose blocks waited (the top's wait_o but for the ports: a beat
 * may have left on d2h or wire), with the blocks outside a stream doing
 * nothing (stream_env()) and the ports empty after it, as the next one may
 * again (wait_clock()): the terms of idle_o and wake_o that stay as they
 * were. */
struct cm_waited {
    bool valid;
    bool idle_gate;    /* the register block idle, no moderation timer */
    bool idle_rest;    /* the fetcher, the payload fetch and the completion writer idle */
    uint32_t cpl_wake; /* the completion writer's wake */
};

struct cm_engine {
    unsigned w;
    struct dev_hw hw;
    /* The fetcher's byte pointers (slot * 16 + byte, DescPtrW bits): the
     * read engine's cut to them. */
    uint32_t desc_ptr_mask;
    struct cm_engine_ins ins;
    uint32_t cfg_gen;  /* the register block's gen when ins was refreshed */
    unsigned cfg_wq;   /* the queue whose registers ins.ci's w_* are */
    struct cm_slice h2d_s, d2h_s, wire_s;
    struct dev_beat h2d_mem[2];
    struct cm_d2h_slot d2h_mem[2];
    struct dev_wire_beat wire_mem[2];
    struct cm_arbiter_rr arb;
    unsigned wrb;      /* beats of the completion write sent (a DESC_WB_FULL write has several) */
    bool stream;       /* on the last clock the blocks outside a stream did nothing (stream_env()) */
    struct cm_waited waited; /* the last clock waited so (wait_clock()) */
    struct cm_regs regs;
    struct cm_wc wc;
    struct cm_dma_rd rd;
    struct cm_desc_fetch df;
    struct cm_sched sched;
    struct cm_payload *pf;
    struct cm_mac mac;
    struct cm_cpl cpl;
    uint64_t cover[COVER_N]; /* the device's cover points (lib/cover.h): not reset */
};

static void config_refresh(struct cm_engine *e);

/* The descriptor fetcher's parameters, the top's (nictx_tx_top's u_desc_fetch). */
static struct cm_desc_fetch_params df_params(unsigned w, const struct dev_hw *hw)
{
    return (struct cm_desc_fetch_params){w, hw->queues, hw->desc_buf, hw->desc_reads};
}

/* ---- the datapath's reset (core_rst_n): every block but the register
 * block, the slices and the arbiter ---- */
static void core_reset(struct cm_engine *e)
{
    const struct cm_desc_fetch_params dp = df_params(e->w, &e->hw);

    cm_wc_reset(&e->wc, e->w);
    cm_dma_rd_reset(&e->rd);
    cm_desc_fetch_reset(&e->df, &dp);
    cm_sched_reset(&e->sched, e->hw.queues);
    cm_payload_reset(e->pf);
    cm_mac_reset(&e->mac, e->w);
    cm_cpl_reset(&e->cpl, e->hw.queues);
}

#if !CM_ENGINE_PROBE
struct cm_engine *cm_engine_create(unsigned w)
{
    const struct dev_hw hw = DEV_HW_DEFAULT;

    return cm_engine_create_hw(w, &hw);
}

/* log2 of a power of two: the read engine's buffer pointers' bits (PtrW). */
static unsigned log2u(unsigned v)
{
    unsigned b = 0;

    while ((1u << b) < v)
        b++;
    return b;
}

struct cm_engine *cm_engine_create_hw(unsigned w, const struct dev_hw *hw)
{
    const struct cm_desc_fetch_params dp = df_params(w, hw);
    struct cm_engine *e;

    if (!dev_width_ok(w) || !(e = calloc(1, sizeof(*e))))
        return NULL;
    e->w = w;
    e->hw = *hw;
    e->desc_ptr_mask = hw->desc_buf * 16u - 1;
    e->pf = cm_payload_create(w, hw->pay_buf, hw->pkts);
    if (!e->pf || cm_dma_rd_init(&e->rd, hw->tags, w, log2u(hw->pay_buf)) != 0 ||
        cm_desc_fetch_init(&e->df, &dp) != 0 ||
        cm_regs_reset_hw(&e->regs, hw->queues, hw->tags, hw->desc_reads) != 0) {
        cm_engine_destroy(e);
        return NULL;
    }
    cm_engine_reset(e);
    return e;
}

void cm_engine_destroy(struct cm_engine *e)
{
    if (e) {
        cm_payload_destroy(e->pf);
        free(e);
    }
}

void cm_engine_reset(struct cm_engine *e)
{
    e->h2d_s.wp = e->h2d_s.rp = 0;
    e->d2h_s.wp = e->d2h_s.rp = 0;
    e->wire_s.wp = e->wire_s.rp = 0;
    cm_arbiter_rr_reset(&e->arb, SRC_N);
    e->wrb = 0;
    e->stream = false;
    e->waited.valid = false;
    cm_regs_reset_hw(&e->regs, e->hw.queues, e->hw.tags, e->hw.desc_reads);
    core_reset(e);
    config_refresh(e);
}
#endif /* !CM_ENGINE_PROBE */

/* The beats of the completion writer's write at W bytes each (one but for a
 * DESC_WB_FULL write). */
static inline unsigned wr_beats(unsigned w, const struct cm_cpl_wr *wr)
{
    return (unsigned)(((wr->addr & (w - 1)) + wr->len + w - 1) >> __builtin_ctz(w));
}

/* The 8-byte word of a W-byte beat that holds `addr`'s byte (a register
 * access and every TLP the engine sends lie within one). */
static inline uint64_t beat_word(unsigned w, const uint8_t *lanes, uint64_t addr)
{
    uint64_t v;

    memcpy(&v, lanes + (addr & (w - 1) & ~7u), 8);
    return v;
}

static inline uint32_t min24(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* The blocks' inputs that are the register block's configuration (not its
 * per-queue answers, which change with the queue asked): copied again
 * whenever a register may have changed (cm_regs.gen). */
static void config_refresh(struct cm_engine *e)
{
    const struct cm_regs *r = &e->regs;
    struct cm_engine_ins *n = &e->ins;

    n->ri.mrrs_log2 = r->mrrs_log2;
    n->ri.max_tags = r->max_tags;
    n->ri.max_rd_bytes = r->max_rd;
    n->ri.cpl_timeout = r->cpl_to;
    n->wi.proto = r->proto;
    n->wi.ring_log2 = r->ring_log2[0];
    n->fi.enable = r->enable;
    n->fi.queues = r->queues;
    n->fi.queues_log2 = r->qlog;
    n->fi.proto = r->proto;
    n->fi.stop = cm_regs_stop(r);
    n->fi.fetch_max = r->fetch_max;
    n->fi.inflight = r->inflight;
    n->si.multi = r->queues != 1;
    n->si.drr = r->sched;
    n->si.quantum = r->quantum;
    n->mi.line_rate = r->line_rate;
    n->ci.multi = r->queues != 1;
    n->ci.msix_mask = r->msix_mask;
    n->ci.ring_log2 = r->ring_log2[0];
    n->ci.tail = r->tail[0];
    n->ci.cpl_mode = r->cpl_mode;
    n->ci.ring_base = r->ring_base[0];
    n->ci.cq_base = r->cq_base[0];
    n->ci.wb_addr = r->wb_addr[0];
    n->ci.irq_addr = r->msix_addr[0];
    n->ci.cq_log2 = r->cq_log2[0];
    n->ci.wb_thresh = r->wb_thresh;
    n->ci.mps_log2 = r->mps_log2;
    n->ci.irq_thresh = r->irq_thresh;
    n->ci.irq_timer = r->irq_timer;
    n->ci.irq_data = r->msix_data[0];
    e->cfg_gen = r->gen;
    e->cfg_wq = ~0u; /* the write's queue's registers too */
}

/* The completion writer's write queue's registers (w_*). */
static void wq_refresh(struct cm_engine *e, unsigned wq)
{
    const struct cm_regs *r = &e->regs;
    struct cm_cpl_in *ci = &e->ins.ci;

    ci->w_wb_addr = r->wb_addr[wq];
    ci->w_ring_base = r->ring_base[wq];
    ci->w_cq_base = r->cq_base[wq];
    ci->w_msix_addr = r->msix_addr[wq];
    ci->w_ring_log2 = r->ring_log2[wq];
    ci->w_cq_log2 = r->cq_log2[wq];
    ci->w_msix_data = r->msix_data[wq];
    e->cfg_wq = wq;
}

/* One clock's values that cross the steps below: each step reads those of
 * the steps before (the order of the combinational paths, above). */
struct cm_step {
    unsigned w;
    uint32_t skip;
    bool core_run;                /* core_rst_n after the edge before */
    /* 1. from state alone */
    bool hv, d2h_ready, wire_ready, d2h_vo, wire_vo, rst_hold;
    const struct dev_beat *hb;    /* the h2d slice's head */
    unsigned wq;                  /* the completion writer's write queue */
    int win;                      /* the d2h arbiter's grant, or -1 */
    bool wr_last;                 /* the completion write's beat is its last */
    /* 2. the read engine */
    bool is_cpl;
    unsigned off;                 /* the h2d head's BAR0 offset */
    struct cm_dma_rd_out ro;
    /* 3. the WC window */
    bool is_wc, wc_go;
    struct cm_wc_out wo;
    /* 4. the register block */
    bool doorbell, h2d_pop;
    unsigned db_q, db_tail;
    /* 5. the scheduler and the descriptor fetcher */
    unsigned sq, fq;
    bool desc_valid;
    struct cm_desc_fetch_out fo;
    struct cm_sched_out so;
    /* 6. the payload fetch, the MAC, the completion writer */
    bool desc_take, pkt_sent;
    struct cm_payload_out po;
    struct cm_mac_out mo;
    struct cm_cpl_out co;
    /* 7. the top's idle, wait */
    bool engine_idle;
    bool blocks_wait;             /* the blocks wait (the top's wait_o but for the ports) */
};

/* 1. What comes from state alone, and the arbiter's grant. */
static inline void step_state(struct cm_engine *e, struct cm_step *st)
{
    const struct cm_regs *r = &e->regs;
    struct cm_cpl_in *ci = &e->ins.ci;

    if (r->gen != e->cfg_gen)
        config_refresh(e);
    st->hv = slice_rvalid(&e->h2d_s);
    st->hb = &e->h2d_mem[e->h2d_s.rp & 1u];
    st->d2h_ready = slice_wready(&e->d2h_s);
    st->wire_ready = slice_wready(&e->wire_s);
    st->d2h_vo = slice_rvalid(&e->d2h_s);
    st->wire_vo = slice_rvalid(&e->wire_s);
    st->rst_hold = cm_regs_rst_hold(r);
    st->wq = cm_cpl_wq(&e->cpl, ci);
    if (st->wq != e->cfg_wq)
        wq_refresh(e, st->wq);
    cm_desc_fetch_state_out(&e->df, &st->fo); /* the fetcher's outputs from state */
    /* A write of several beats keeps the port from its second beat on. */
    const uint32_t src = (uint32_t)e->cpl.wr.valid << SRC_WR |
                         (e->wrb ? 0u
                                 : (uint32_t)r->cpl_valid << SRC_REG_CPL |
                                       (uint32_t)(e->rd.mrd_valid && !st->rst_hold) << SRC_MRD);
    st->win = cm_arbiter_rr_pick(&e->arb, src);
    /* (Only a write held has beats: the arbiter grants SRC_WR to no other.) */
    st->wr_last = e->cpl.wr.valid && e->wrb + 1 >= wr_beats(st->w, &e->cpl.wr);
    ci->wr_ready = st->d2h_ready && st->win == SRC_WR && st->wr_last;
    ci->skip = st->skip;
}

/* 2. The read engine: its edge is taken now (its inputs are all known). */
static inline void step_read(struct cm_engine *e, struct cm_step *st)
{
    const struct dev_beat *hb = st->hb;
    struct cm_dma_rd_in *ri = &e->ins.ri;

    st->is_cpl = st->hv && hb->type == DEV_TLP_CPLD;
    st->off = (unsigned)(hb->addr & (NICTX_BAR0_SIZE - 1));
    e->ins.ci.hr_q = cm_regs_hr_q(&e->regs, st->off);
    ri->req[0].valid = e->pf->req_valid;
    ri->req[0].addr = e->pf->req_addr;
    ri->req[0].len = e->pf->req_len;
    ri->req[0].wptr = e->pf->req_wptr;
    ri->req[1].valid = st->fo.req_valid;
    ri->req[1].addr = st->fo.req_addr;
    ri->req[1].len = st->fo.req_len;
    ri->req[1].wptr = st->fo.req_wptr;
    ri->mrd_ready = st->d2h_ready && st->win == SRC_MRD;
    ri->cpl_valid = st->is_cpl;
    ri->cpl_sop = hb->sop;
    ri->cpl_eop = hb->eop;
    ri->cpl_err = hb->err;
    ri->cpl_tag = hb->tag;
    ri->cpl_len = hb->len;
    ri->cpl_lane = (unsigned)(hb->addr & (st->w - 1));
    ri->cpl_data = hb->data;
    ri->skip = st->skip;
    if (st->core_run)
        cm_dma_rd_step(&e->rd, ri, &st->ro);
    else
        cm_dma_rd_eval(&e->rd, ri, &st->ro);
}

/* Whether the h2d beat hb (valid) is a write into the WC window: a posted
 * write at BAR0 NICTX_WC_BASE..0x3FF. */
static inline bool wc_beat(const struct dev_beat *hb)
{
    const unsigned off = (unsigned)(hb->addr & (NICTX_BAR0_SIZE - 1));

    return hb->type == DEV_TLP_MWR && off < 0x400 && off >= NICTX_WC_BASE;
}

/* The WC window's inputs: the beat hb, taken if go. */
static inline void wc_in(struct cm_engine *e, const struct dev_beat *hb, bool go)
{
    struct cm_wc_in *wi = &e->ins.wi;

    wi->req_valid = go;
    wi->req_sop = hb->sop;
    wi->req_eop = hb->eop;
    wi->req_len = hb->len;
    wi->req_off = (unsigned)(hb->addr & 0x3ffu);
    wi->req_data = hb->data;
}

/* 3. The WC window. */
static inline void step_wc(struct cm_engine *e, struct cm_step *st)
{
    const struct dev_beat *hb = st->hb;

    st->is_wc = st->hv && wc_beat(hb);
    st->wc_go = st->is_wc && !(cm_regs_wc_hold(&e->regs, st->ro.drained) && hb->sop);
    wc_in(e, hb, st->wc_go);
    cm_wc_eval(&e->wc, &e->ins.wi, &st->wo);
}

/* 4. The register block's access and doorbell, which a reset firing
 * (quiescent) changes. */
static inline void step_regs(struct cm_engine *e, struct cm_step *st)
{
    const struct dev_beat *hb = st->hb;
    const struct cm_wc_out *wo = &st->wo;
    struct cm_regs_in *gi = &e->ins.gi;
    bool quiescent = false;

    if (st->rst_hold || st->hv)
        quiescent = cm_mac_idle(&e->mac) && cm_cpl_idle(&e->cpl, &e->ins.ci) && st->win < 0 &&
                    !st->d2h_vo && !st->wire_vo && !wo->busy;
    gi->req_valid = st->hv && !st->is_cpl && !st->is_wc;
    gi->req_type = hb->type;
    gi->req_tag = hb->tag;
    gi->req_len = hb->len;
    gi->req_off = st->off;
    gi->req_data = beat_word(st->w, hb->data, hb->addr);
    gi->wc_bad_access = wo->bad_access;
    gi->wc_close = wo->close;
    gi->wc_tail_we = wo->tail_we;
    gi->wc_tail = wo->tail;
    gi->wc_tail_range = wo->tail_range;
    gi->wc_torn = wo->torn;
    gi->quiescent = quiescent;
    gi->rd_drained = st->ro.drained;
    st->doorbell = cm_regs_doorbell(&e->regs, gi, &st->db_q, &st->db_tail);
    st->h2d_pop = st->hv && (st->is_cpl ? st->ro.cpl_ready
                             : st->is_wc ? st->wc_go
                                         : cm_regs_req_ready(&e->regs, hb->type));
}

/* 5. The scheduler's candidate, its head; the descriptor fetcher. */
static inline void step_fetch(struct cm_engine *e, struct cm_step *st)
{
    const struct cm_regs *r = &e->regs;
    const struct cm_dma_rd_out *ro = &st->ro;
    const struct cm_wc_out *wo = &st->wo;
    struct cm_sched_in *si = &e->ins.si;
    struct cm_desc_fetch_in *fi = &e->ins.fi;

    si->rdy = st->fo.rdy;
    si->backlog = st->fo.work;
    st->sq = cm_sched_queue(&e->sched, si);
    fi->db_q = st->db_q;
    fi->db_tail = st->db_tail;
    fi->sq = st->sq;
    fi->doorbell = st->doorbell;
    fi->wc_close = wo->close;
    fi->wc_idx_valid = wo->tail_we;
    fi->wc_idx = wo->blk_idx;
    fi->h_ring_log2 = r->ring_log2[st->sq];
    fi->blk_valid = wo->blk_valid;
    fi->blk_idx = wo->blk_idx;
    fi->blk_w0 = wo->blk_w0;
    fi->blk_w1 = wo->blk_w1;
    fi->req_ready = ro->req_ready[1];
    fi->wr_valid = ro->wr_valid && ro->wr_dest;
    fi->wr_ptr = ro->wr_ptr & e->desc_ptr_mask;
    fi->wr_words = ro->wr_words;
    fi->wr_data = ro->wr_data;
    fi->done = ro->done_valid && ro->done_dest;
    fi->done_err = ro->done_err;
    cm_desc_fetch_head(&e->df, fi, &st->fo);
    si->len = st->fo.desc_len;
    si->bad = st->fo.desc_bad;
    si->weight = r->weight[st->sq];
    cm_sched_head(&e->sched, si, &st->so);
    fi->sched_valid = st->so.valid;
    st->fq = st->fo.f_q = cm_desc_fetch_fq(&e->df, fi, &st->fo.desc_valid);
    st->desc_valid = st->fo.desc_valid;
    fi->ring_base = r->ring_base[st->fq];
    fi->ring_log2 = r->ring_log2[st->fq];
    fi->tail = r->tail[st->fq];
}

/* 6a. The payload fetch, whose take the fetcher's edge needs; then that
 * edge. */
static inline void step_payload(struct cm_engine *e, struct cm_step *st)
{
    const struct cm_dma_rd_out *ro = &st->ro;
    const struct cm_desc_fetch_out *fo = &st->fo;
    struct cm_payload_in *pi = &e->ins.pi;
    struct cm_desc_fetch_in *fi = &e->ins.fi;

    pi->desc_valid = st->desc_valid;
    pi->desc_addr = fo->desc_addr;
    pi->desc_len = fo->desc_len;
    pi->desc_bad = fo->desc_bad;
    pi->desc_err = fo->desc_err;
    pi->desc_q = st->sq;
    pi->req_ready = ro->req_ready[0];
    pi->wr_valid = ro->wr_valid && !ro->wr_dest;
    pi->wr_ptr = ro->wr_ptr;
    pi->wr_data = ro->wr_data;
    pi->done = ro->done_valid && !ro->done_dest;
    pi->done_err = ro->done_err;
    cm_payload_eval(e->pf, pi, &st->po);
    st->desc_take = st->desc_valid && st->po.desc_ready;
    fi->desc_ready = st->po.desc_ready;
    if (st->core_run)
        cm_desc_fetch_step_split(&e->df, fi, &st->fo);
    else
        cm_desc_fetch_eval(&e->df, fi, &st->fo);
}

/* 6b. The MAC, then the completion writer: each edge taken now, as the
 * read engine's. */
static inline void step_mac_cpl(struct cm_engine *e, struct cm_step *st)
{
    const struct cm_regs *r = &e->regs;
    const struct cm_payload_out *po = &st->po;
    struct cm_mac_in *mi = &e->ins.mi;
    struct cm_cpl_in *ci = &e->ins.ci;

    mi->fr_valid = po->fr_valid && !(st->rst_hold && po->fr_sop); /* no new frame before a reset */
    mi->fr_sop = po->fr_sop;
    mi->fr_eop = po->fr_eop;
    mi->fr_skip = po->fr_skip;
    mi->fr_data = po->fr_data;
    mi->fr_bytes = po->fr_bytes;
    mi->fr_len = po->fr_len;
    mi->fr_q = po->fr_q;
    mi->wire_ready = st->wire_ready;
    mi->skip = st->skip;
    if (st->core_run)
        cm_mac_step(&e->mac, mi, &st->mo);
    else
        cm_mac_eval(&e->mac, mi, &st->mo);
    e->ins.pi.fr_ready = st->mo.fr_ready;
    st->pkt_sent = st->mo.pkt_done && !(po->fr_valid && po->fr_skip);

    ci->pkt_q = st->mo.pkt_q;
    ci->pkt_done = st->mo.pkt_done;
    ci->c_ring_log2 = r->ring_log2[st->mo.pkt_q];
    ci->c_tail = r->tail[st->mo.pkt_q];
    ci->c_wb_addr = r->wb_addr[st->mo.pkt_q];
    ci->c_cq_base = r->cq_base[st->mo.pkt_q];
    if (st->core_run)
        cm_cpl_step(&e->cpl, ci, &st->co);
    else
        cm_cpl_eval(&e->cpl, ci, &st->co);
}

/* 7. The top's idle, wait and wake. */
static inline void step_idle(struct cm_engine *e, struct cm_step *st, struct dev_out *out)
{
    const bool regs_idle = cm_regs_idle(&e->regs);
    const bool quiet_ports = !st->d2h_vo && !st->wire_vo;
    const struct cm_dma_rd_out *ro = &st->ro;
    struct cm_sched_in *si = &e->ins.si;

    st->engine_idle = false;
    out->idle = 0;
    if (st->rst_hold || st->hv || (regs_idle && !st->co.timer)) {
        st->engine_idle = ro->idle && st->fo.idle && st->po.idle && st->mo.idle &&
                          st->co.idle && quiet_ports;
        if (!st->rst_hold && !st->hv)
            out->idle = st->engine_idle;
    }
    st->blocks_wait = false;
    if (!st->hv && regs_idle) {
        const bool pf_wait = !e->pf->req_valid && !st->desc_take && !st->mo.fr_ready;
        si->take = st->desc_take;
        si->flush = st->fo.flush;
        cm_sched_eval(&e->sched, si, &st->so);
        st->blocks_wait = st->fo.wait && st->so.wait && st->mo.wait && st->co.wait &&
                          (st->po.idle || pf_wait) && (ro->idle || ro->wait);
    }
    out->waiting = st->blocks_wait && quiet_ports;
    uint32_t wake = min24(min24(ro->wake, st->mo.wake), st->co.wake);
    out->wake = wake == CM_WAKE_NEVER ? UINT32_MAX : wake;
    e->waited.idle_gate = regs_idle && !st->co.timer;
    e->waited.idle_rest = st->fo.idle && st->po.idle && st->co.idle;
    e->waited.cpl_wake = st->co.wake;
}

/* The d2h port's beat: the slice's head. */
static inline void port_d2h(const struct cm_engine *e, unsigned w, struct dev_beat *o)
{
    const struct cm_d2h_slot *d = &e->d2h_mem[e->d2h_s.rp & 1u];

    o->sop = d->sop;
    o->eop = d->eop;
    o->type = d->type;
    o->tag = d->tag;
    o->len = d->len;
    o->addr = d->addr;
    o->err = d->err;
    dev_lanes_zero(o->data, w);
    if (d->type == DEV_TLP_MWR && d->len > 8 && w > 8) /* DESC_WB_FULL: {word 1, 0} a descriptor */
        for (unsigned i = 8; i < w; i += 16)
            memcpy(o->data + i, &d->word, 8);
    else
        memcpy(o->data + (d->addr & (w - 1) & ~7u), &d->word, 8);
}

/* The wire port's beat: the slice's head. */
static inline void port_wire(const struct cm_engine *e, unsigned w, struct dev_wire_beat *o)
{
    const struct dev_wire_beat *b = &e->wire_mem[e->wire_s.rp & 1u];

    o->sop = b->sop;
    o->eop = b->eop;
    o->bytes = b->bytes;
    o->fcs = b->fcs;
    dev_lanes_copy(o->data, b->data, w);
}

/* The ports.  A beat's fields mean something only while it is valid
 * (device.h): the step builds a beat only then; the waveforms' step shows
 * the slices' heads also while empty, as the RTL's ports do. */
static inline void step_ports(struct cm_engine *e, const struct cm_step *st, struct dev_out *out)
{
    out->fault = 0;
    out->h2d_ready = slice_wready(&e->h2d_s);
    out->d2h.valid = st->d2h_vo;
    if (st->d2h_vo || CM_ENGINE_PROBE)
        port_d2h(e, st->w, &out->d2h);
    out->wire.valid = st->wire_vo;
    if (st->wire_vo || CM_ENGINE_PROBE)
        port_wire(e, st->w, &out->wire);
}

/* The register block's inputs of the rising edge: the blocks' events. */
static inline void edge_regs_in(struct cm_engine *e, const struct cm_step *st)
{
    const struct cm_dma_rd_out *ro = &st->ro;
    struct cm_regs_in *gi = &e->ins.gi;

    gi->cpl_ready = st->d2h_ready && st->win == SRC_REG_CPL;
    gi->pba = st->co.pba;
    gi->hr_head = st->co.hr_head;
    gi->rd_stall = ro->stall;
    gi->pkt_done = st->pkt_sent;
    gi->pkt_len = st->mo.pkt_len;
    gi->pkt_q = st->mo.pkt_q;
    gi->dma_rd = ro->mrd_valid && st->d2h_ready && st->win == SRC_MRD;
    gi->desc_rd = gi->dma_rd && ro->mrd_dest;
    gi->bad_desc = st->po.bad_desc;
    gi->dma_err = st->is_cpl && st->hb->err && !ro->unexp;
    gi->cpl_timeout = ro->timeout;
    gi->unexp_cpl = ro->unexp;
    gi->engine_idle = st->engine_idle;
    gi->not_owned = st->fo.not_owned;
    gi->not_owned_cnt = st->fo.not_owned_cnt;
    gi->wc_drop = st->fo.wc_drop;
    gi->wc_used = st->fo.wc_used;
    gi->f_q = st->fq;
    gi->c_q = st->mo.pkt_q;
    gi->w_q = st->wq;
    gi->s_q = st->sq;
}

/* The d2h slice takes the arbiter's winner: a register read's completion,
 * the completion writer's write or the read engine's MRd. */
static inline void edge_d2h(struct cm_engine *e, const struct cm_step *st)
{
    const struct cm_regs *r = &e->regs;
    struct cm_d2h_slot *d = &e->d2h_mem[e->d2h_s.wp & 1u];

    d->sop = d->eop = 1;
    switch (st->win) {
    case SRC_REG_CPL:
        d->err = r->cpl_err;
        d->type = d->err ? DEV_TLP_CPL : DEV_TLP_CPLD;
        d->tag = r->cpl_tag;
        d->len = r->cpl_len;
        d->addr = r->cpl_off;
        d->word = r->cpl_data;
        break;
    case SRC_WR:
        d->type = DEV_TLP_MWR;
        d->err = 0;
        d->tag = 0;
        d->len = (uint16_t)st->co.wr_len;
        d->addr = st->co.wr_addr;
        d->word = st->co.wr_data;
        d->sop = e->wrb == 0;
        d->eop = st->wr_last;
        /* W = 8: a DESC_WB_FULL write's even beats are the descriptors' word 0 */
        if (st->w == 8 && d->len > 8 && !(e->wrb & 1u))
            d->word = 0;
        e->wrb = st->wr_last ? 0 : (e->wrb + 1) & 0x1FFu;
        break;
    default:
        d->type = DEV_TLP_MRD;
        d->err = 0;
        d->tag = (uint8_t)st->ro.mrd_tag;
        d->len = (uint16_t)st->ro.mrd_len;
        d->addr = st->ro.mrd_addr;
        d->word = 0;
        break;
    }
    e->d2h_s.wp++;
}

/* The rising edge: the blocks', the slices' and the arbiter's; a queue
 * reset last. */
static inline void step_edge(struct cm_engine *e, const struct dev_in *in, struct cm_step *st,
                             const struct dev_out *out)
{
    const unsigned w = st->w;

    edge_regs_in(e, st);
    if (st->core_run) {
        struct cm_sched_in *si = &e->ins.si;
        si->take = st->desc_take;
        si->flush = st->fo.flush;
        cm_wc_clock(&e->wc, &e->ins.wi);
        e->cover[COVER_DRR_CARRY] += cm_sched_clock(&e->sched, si);
        cm_payload_edge(e->pf, &e->ins.pi, &st->po);
    }
    if (st->win >= 0 && st->d2h_ready)
        edge_d2h(e, st);
    cm_regs_clock(&e->regs, &e->ins.gi);
    if (st->mo.wire_valid && st->wire_ready) {
        struct dev_wire_beat *b = &e->wire_mem[e->wire_s.wp & 1u];
        b->sop = st->mo.wire_sop;
        b->eop = st->mo.wire_eop;
        b->bytes = (uint8_t)st->mo.wire_bytes;
        b->fcs = st->mo.wire_fcs;
        dev_lanes_copy(b->data, st->mo.wire_data, w);
        e->wire_s.wp++;
    }
    if (in->h2d.valid && out->h2d_ready) {
        struct dev_beat *b = &e->h2d_mem[e->h2d_s.wp & 1u];
        memcpy(b, &in->h2d, offsetof(struct dev_beat, data));
        dev_lanes_copy(b->data, in->h2d.data, w);
        e->h2d_s.wp++;
    }
    if (st->h2d_pop)
        e->h2d_s.rp++;
    if (st->d2h_vo && in->d2h_ready)
        e->d2h_s.rp++;
    if (st->wire_vo && in->wire_ready)
        e->wire_s.rp++;
    cm_arbiter_rr_clock(&e->arb, st->win, st->d2h_ready);
    if (!st->core_run || e->regs.qrst)
        core_reset(e);
}

/* Whether a WC beat (go: taken) reaches no block but the window: it
 * closes no block and is no bad access (the window's other outputs mean
 * something only with a close). */
static inline bool wc_quiet(bool go, const struct cm_wc_out *wo)
{
    return go && !wo->close && !wo->bad_access;
}

/* Several queues: the scheduler, its edge taken, keeps its state on the
 * next clock if its inputs stay (cm_sched_out.wait: round robin holding
 * or with no queue ready, DRR in no turn with no queue ready). */
static inline bool sched_waits(const struct cm_engine *e)
{
    struct cm_sched_out so;

    cm_sched_eval(&e->sched, &e->ins.si, &so);
    return so.wait;
}

/* Whether on this clock, its edge taken, the blocks outside a stream
 * (cm_engine_run()) kept their state and nothing reached them from the
 * stream's: the fetcher took its quiet path with no descriptor leaving
 * (descriptor words may be written); the completion writer only counted
 * the clock (with several queues its clock count, which a stream advances
 * at its end: cm_cpl_count()); nothing was granted d2h and nothing reached
 * the register block (no access, no event, no reset, no register read's
 * answer waiting); the read engine retired nothing, timed out, stalled or
 * met no unexpected completion; no frame ended or was skipped.  The
 * scheduler keeps its state (one queue's always; several queues':
 * sched_waits()); the WC window takes a beat, if one came, that reaches no
 * other block (wc_quiet()), or else keeps its state.  Then on the next
 * clock, if the stream's blocks are ready for one (stream_clocks()), they
 * do the same: their state and inputs are as on this one.  Descriptor
 * words a stream clock writes change none of that: they fill slots whose
 * read is out, so no queue's head while it may leave (it may once its
 * read retired); the fetcher's quiet path looks at a head's words only
 * then, and the scheduler at a queue's head's length only when the queue
 * is ready (DRR's cost), so its read retired. */
static inline bool stream_env(const struct cm_engine *e, const struct cm_step *st)
{
    const struct cm_dma_rd_out *ro = &st->ro;

    /* (The likeliest to fail first.) */
    return st->win < 0 && st->fo.quiet == 1 && !st->mo.pkt_done && st->co.quiet &&
           !ro->done_valid && !ro->timeout && !ro->unexp && !ro->stall &&
           !(st->hv && (st->is_cpl ? st->hb->err : !wc_quiet(st->wc_go, &st->wo))) &&
           st->core_run && !st->rst_hold && !cm_regs_rst_hold(&e->regs) && !e->regs.cpl_valid &&
           e->regs.gen == e->cfg_gen && (!e->ins.si.multi || sched_waits(e));
}

/* The device's cover points (lib/cover.h) this clock shows, before its
 * edge; rtl/'s `cover property` of the same names sample the same terms
 * (ERR's bits, drr_carry and flush_reads: at the edge). */
static inline void cover_sample(struct cm_engine *e, const struct cm_step *st)
{
    uint64_t *c = e->cover;
    const struct cm_regs *r = &e->regs;

    if (st->doorbell && st->db_tail < r->tail[st->db_q])
        c[COVER_RING_WRAP]++;
    if (st->pkt_sent) {
        if (r->proto <= NICTX_PROTO_WC)
            c[COVER_PROTO_TAIL + r->proto]++;
        if (r->cpl_mode <= NICTX_CPL_MODE_DESC_WB_FULL)
            c[COVER_CPL_HEAD_WB + r->cpl_mode]++;
        c[COVER_QUEUE_ACTIVE + (st->mo.pkt_q & (COVER_QUEUES - 1))]++;
    }
    if (st->wo.close) {
        c[COVER_WC_FLIP] += st->wo.buf;
        c[COVER_WC_TORN] += st->wo.torn;
    }
    /* The rare ones behind one test (most clocks have none of them). */
    if (st->ro.stall_tags | st->ro.stall_bytes | st->fo.wc_stale | st->co.tmr_fire |
        st->rst_hold) {
        c[COVER_TAGS_EXHAUSTED] += st->ro.stall_tags;
        c[COVER_BYTES_FULL] += st->ro.stall_bytes;
        c[COVER_WC_STALE] += st->fo.wc_stale;
        c[COVER_MOD_TIMER] += st->co.tmr_fire;
        c[COVER_RESET_BUSY] += st->rst_hold && !st->engine_idle;
    }
}

/* What the edge started: ERR's bits it set (one cover point each, in bit
 * order), a flush waiting for reads in flight. */
static inline void cover_edge(struct cm_engine *e, uint32_t err_before, bool flush_before)
{
    uint32_t set = e->regs.err & ~err_before;

    e->cover[COVER_FLUSH_READS] += e->df.flush && !flush_before;
    for (unsigned b = 0; set != 0 && b <= COVER_ERR_UNEXP_CPL - COVER_ERR_TAIL_RANGE; b++, set >>= 1)
        e->cover[COVER_ERR_TAIL_RANGE + b] += set & 1u;
}

#if !CM_ENGINE_PROBE
/* A clock after one whose blocks waited with those outside a stream doing
 * nothing (e->waited: the ports empty since), with no h2d beat offered:
 * nothing reaches a block but time, so their inputs are as on that clock
 * but for skip_i (the ports' beats reach none of them), and only
 * the read engine's completion timer and the MAC's credit may change (and
 * with several queues the completion writer's clock count).  If
 * neither acts on this clock (the read engine retires, times out or asks
 * nothing; the MAC sends nothing), it waits again: its outputs are the
 * waited clock's with those two blocks' idle and wake, and its edge theirs
 * alone.  false: it is not such a clock (nothing changed; the whole step
 * runs it). */
static bool wait_clock(struct cm_engine *e, const struct dev_in *in, struct dev_out *out)
{
    struct cm_dma_rd_in *ri = &e->ins.ri;
    struct cm_mac_in *mi = &e->ins.mi;
    struct cm_dma_rd_out ro;
    struct cm_mac_out mo;

    ri->skip = mi->skip = in->skip < CM_WAKE_NEVER ? in->skip : CM_WAKE_NEVER;
    cm_dma_rd_eval(&e->rd, ri, &ro);
    if (ro.wr_valid | ro.done_valid | ro.timeout | ro.unexp | ro.stall | ro.mrd_valid ||
        !(ro.idle || ro.wait))
        return false;
    cm_mac_eval(&e->mac, mi, &mo);
    if (!mo.wait)
        return false;
    cm_dma_rd_clock(&e->rd, ri);
    cm_mac_clock(&e->mac, mi);
    cm_cpl_count(&e->cpl, &e->ins.ci, 1 + ri->skip);
    out->fault = 0;
    out->h2d_ready = 1;
    out->d2h.valid = out->wire.valid = 0;
    out->idle = e->waited.idle_gate && e->waited.idle_rest && ro.idle && mo.idle;
    out->waiting = 1;
    const uint32_t wake = min24(min24(ro.wake, mo.wake), e->waited.cpl_wake);
    out->wake = wake == CM_WAKE_NEVER ? UINT32_MAX : wake;
    return true;
}

const uint64_t *cm_engine_cover(const struct cm_engine *e)
{
    return e->cover;
}
#endif

#if CM_ENGINE_PROBE
static void probe_state(const struct cm_engine *e, uint64_t *v);
static void probe_nets(const struct cm_engine *e, const struct cm_step *st, uint64_t *v);

/* The clock with the waveform's values (cm_probe.h): this file compiled
 * again as c-model/cm_engine_probe.c; the plain step has no trace of it. */
void cm_engine_step_probe(struct cm_engine *e, const struct dev_in *in, struct dev_out *out,
                          uint64_t *probe)
#else
void cm_engine_step(struct cm_engine *e, const struct dev_in *in, struct dev_out *out)
#endif
{
    struct cm_step st;

#if CM_ENGINE_PROBE
    probe_state(e, probe); /* the registers before the edge */
#endif

#if !CM_ENGINE_PROBE
    if (e->waited.valid && !in->h2d.valid && wait_clock(e, in, out))
        return;
#endif
    const bool flush_before = e->df.flush; /* (the fetcher's edge comes in step_payload) */
    st.w = e->w;
    st.skip = in->skip < CM_WAKE_NEVER ? in->skip : CM_WAKE_NEVER;
    st.core_run = !e->regs.qrst;
    step_state(e, &st);
    step_read(e, &st);
    step_wc(e, &st);
    step_regs(e, &st);
    step_fetch(e, &st);
    step_payload(e, &st);
    step_mac_cpl(e, &st);
    step_idle(e, &st, out);
    step_ports(e, &st, out);
#if CM_ENGINE_PROBE
    probe_nets(e, &st, probe);
#endif
    cover_sample(e, &st);
    const uint32_t err_before = e->regs.err;
    step_edge(e, in, &st, out);
    cover_edge(e, err_before, flush_before);
    e->stream = !CM_ENGINE_PROBE && stream_env(e, &st);
    /* A clock that waited, or whose blocks waited while the beat in its
     * d2h or wire port left (the next one's blocks and inputs are the
     * same): the ports empty after the edge (no beat taken or sent, none
     * granted: e->stream). */
    e->waited.valid = e->stream && st.blocks_wait && !in->h2d.valid &&
                      !slice_rvalid(&e->d2h_s) && !slice_rvalid(&e->wire_s);
}

#if !CM_ENGINE_PROBE
/* ---- stream clocks (cm_engine_run) ---- */

/* A run's h2d beats taken so far (the next on offer: dev_run_beat()). */
struct run_h2d {
    const struct dev_run *r;
    uint32_t taken;
};

/* What this clock's ports make it for a run (struct dev_run): RUN_PLAIN
 * (nothing on d2h; a wire beat, if any, not a frame's last, inside a frame
 * or starting one while none is open, with room; a beat offered or a wire
 * beat out), the same but the TLP's last beat on offer (RUN_LAST: the run
 * ends once it is taken), RUN_ENDING (a d2h beat, or a wire beat that
 * ends a frame, or another one starting or outside a frame) or RUN_NONE.
 * The ports show the slices' heads: the state before the clock tells. */
enum { RUN_NONE, RUN_PLAIN, RUN_LAST, RUN_ENDING };
static inline int run_ports(const struct cm_engine *e, const struct run_h2d *h,
                            const struct dev_run *r)
{
    const struct dev_wire_beat *wb = &e->wire_mem[e->wire_s.rp & 1u];
    const bool wire_vo = slice_rvalid(&e->wire_s);
    const bool open = r->frame_open || r->wire_sop != 0;

    if (slice_rvalid(&e->d2h_s) || (wire_vo && (wb->eop || wb->sop == open)))
        return r->last ? RUN_ENDING : RUN_NONE;
    if (wire_vo && r->wire_room - r->wire_beats * e->w < e->w)
        return RUN_NONE;
    if (!wire_vo && !r->h2d)
        return RUN_NONE;
    return r->h2d && h->taken >= r->h2d_rest ? RUN_LAST : RUN_PLAIN;
}

/* Whether the h2d head hb, a posted write, is one a stream clock takes: a
 * beat into the WC window but its first (which the register block may
 * hold) that reaches no block but the window (wc_quiet()); then the
 * window's inputs are set for its edge. */
static inline bool wc_stream(struct cm_engine *e, const struct dev_beat *hb)
{
    struct cm_wc_out wo;

    if (hb->sop || !wc_beat(hb))
        return false;
    wc_in(e, hb, true);
    cm_wc_eval(&e->wc, &e->ins.wi, &wo);
    return wc_quiet(true, &wo);
}

/* A stream clock: after one on which the blocks outside the stream did
 * nothing (stream_env()), with the stream's ready for it (stream_clocks()),
 * those blocks do nothing again.  What is left is the read engine taking
 * the h2d head into the payload buffer or the fetcher's slots (or the WC
 * window taking it: wc_stream()), the payload
 * fetch giving the head frame's beat `f` (the same over the run: none
 * ends) to the MAC, the MAC's CRC and credit, and the port slices; the
 * read engine's timer counts the run's clocks at its end (a read
 * retiring: stream_clocks()).  0: this clock is not one (the checks come
 * before any state changes); else the edge taken, and 2 if the oldest read
 * retires on the next clock. */
static inline int stream_clock_run(struct cm_engine *e, struct run_h2d *h, struct dev_run *r,
                                   const struct cm_payload_frame *f)
{
    const unsigned w = e->w;
    const bool hv = slice_rvalid(&e->h2d_s), wire_vo = slice_rvalid(&e->wire_s);
    const struct dev_beat *hb = &e->h2d_mem[e->h2d_s.rp & 1u];
    const struct dev_wire_beat *wb = &e->wire_mem[e->wire_s.rp & 1u];
    const bool offer = r->h2d != NULL;
    struct cm_mac_in *mi = &e->ins.mi;
    const unsigned rem = cm_payload_rem(e->pf, f);

    const bool wc = hv && hb->type == DEV_TLP_MWR;
    const bool desc = hv && !wc && !cm_dma_rd_stream_tag(&e->rd, hb->tag, false);
    if (wc ? !wc_stream(e, hb)
           : hv && (hb->type != DEV_TLP_CPLD || hb->err ||
                    (desc && !cm_dma_rd_stream_tag(&e->rd, hb->tag, true))))
        return 0;
    if (f->valid && rem <= w) /* the frame's last beat */
        return 0;
    if (!(wire_vo || f->valid || hv || e->rd.out != 0)) /* (so the engine is not idle) */
        return 0;

    const bool h2d_ready = slice_wready(&e->h2d_s), wire_ready = slice_wready(&e->wire_s);
    uint8_t data[DEV_WIDTH_MAX];
    uint32_t fcs;
    mi->fr_valid = f->valid;
    mi->fr_sop = f->valid && e->pf->beat == 0;
    mi->fr_data = data;
    mi->fr_len = f->len;
    mi->wire_ready = wire_ready;
    if (f->valid)
        cm_payload_beat(e->pf, f, rem, data);
    const bool send = cm_mac_stream(&e->mac, mi, &fcs);
    bool retire = false;
    if (wc) {
        cm_wc_clock(&e->wc, &e->ins.wi);
    } else if (hv) {
        uint32_t wptr;
        retire = cm_dma_rd_take_beat(&e->rd, hb->tag, hb->eop, hb->len, &wptr);
        if (desc)
            cm_desc_fetch_write(&e->df, wptr & e->desc_ptr_mask,
                                cm_dma_rd_beat_words(&e->rd, (unsigned)(hb->addr & (w - 1)),
                                                     hb->len, hb->sop, hb->eop),
                                hb->data);
        else
            cm_payload_write(e->pf, wptr, hb->data);
    }
    if (send)
        cm_payload_next(e->pf);

    uint8_t trace = 0;
    if (wire_vo) {
        if (wb->sop)
            r->wire_sop = r->clocks + 1;
        dev_lanes_copy(r->wire + r->wire_beats * w, wb->data, w);
        r->wire_beats++;
        e->wire_s.rp++;
        trace |= DEV_RUN_WIRE;
    }
    if (send) {
        struct dev_wire_beat *b = &e->wire_mem[e->wire_s.wp & 1u];
        b->sop = mi->fr_sop;
        b->eop = false;
        b->bytes = (uint8_t)w;
        b->fcs = fcs;
        dev_lanes_copy(b->data, data, w);
        e->wire_s.wp++;
    }
    if (hv)
        e->h2d_s.rp++;
    if (offer && h2d_ready) {
        dev_run_beat(w, r, h->taken, &e->h2d_mem[e->h2d_s.wp & 1u]);
        e->h2d_s.wp++;
        h->taken++;
        trace |= DEV_RUN_H2D;
    }
    if (r->trace)
        r->trace[r->clocks] = trace;
    return retire ? 2 : 1;
}

/* Stream clocks at once (at most max, as many as are alike), where each
 * port slice holds one beat that moves on every clock or is empty with
 * nothing to move: on h2d, a beat of the TLP on offer (its last only on
 * the last clock) goes in as the head, one of the same TLP but its last,
 * goes to the payload buffer; on wire, the MAC sends a beat of the frame
 * it is in (not its last) as the head goes out, or (the port empty) the
 * head frame's first beat waits for the credit to start it while h2d
 * moves.  Then the clocks are one
 * transaction: the beats written into the buffer in one copy, the frame's
 * beats read in one and put through the CRC in one update, the credit for
 * all of them at once (cm_dma_rd_take_beats(), cm_payload_write_n(),
 * cm_payload_beats(), cm_mac_send_beats(), cm_mac_wait_start()); the
 * slices end as they would, holding the last two beats.  0: none here (a
 * stream clock at a time). */
static uint32_t stream_bulk(struct cm_engine *e, struct run_h2d *h, struct dev_run *r,
                            const struct cm_payload_frame *f, uint32_t max)
{
    const unsigned w = e->w;
    const struct dev_beat *hb = &e->h2d_mem[e->h2d_s.rp & 1u];
    const struct dev_wire_beat *wb = &e->wire_mem[e->wire_s.rp & 1u];
    const unsigned h2d_n = slice_count(&e->h2d_s), wire_n = slice_count(&e->wire_s);
    const bool h2d_flow = h2d_n == 1 && r->h2d && h->taken < r->h2d_rest;
    const bool wire_flow = wire_n == 1 && e->mac.in_frame && f->valid;
    /* (the first beat may be its frame's last too: it is not sent) */
    const bool wire_wait = wire_n == 0 && f->valid && !e->mac.in_frame && e->pf->beat == 0;
    const uint32_t line_rate = e->ins.mi.line_rate;
    uint32_t n = max;

    if (!(h2d_flow || (h2d_n == 0 && !r->h2d)) ||
        !(wire_flow || (wire_n == 0 && !f->valid) || (wire_wait && h2d_flow)) ||
        !(h2d_flow || wire_flow))
        return 0;
    if (wire_wait) { /* until the clock whose credit starts the frame */
        const uint32_t k = cm_mac_credit_clocks(&e->mac, line_rate);
        if (n > k)
            n = k;
    }
    if (h2d_flow) { /* the head, and beats taken .. taken + n - 1 pushed, the TLP's last at most */
        if (hb->type != DEV_TLP_CPLD || hb->eop || hb->err || hb->tag != r->h2d->tag ||
            !cm_dma_rd_stream_tag(&e->rd, hb->tag, false))
            return 0;
        if (n > r->h2d_rest - h->taken + 1)
            n = r->h2d_rest - h->taken + 1;
    }
    if (wire_flow) { /* beats beat .. beat + n - 1 sent, none the last: (beat + n) W < len */
        const uint32_t beats = (f->len - 1) >> e->pf->lane_bits, room = r->wire_room / w;
        if (wb->sop || wb->eop || e->pf->beat >= beats || room < r->wire_beats + 3)
            return 0;
        if (n > beats - e->pf->beat)
            n = beats - e->pf->beat;
        if (n > room - r->wire_beats - 1) /* (and one beat of room to put the last) */
            n = room - r->wire_beats - 1;
    }
    if (n < 2)
        return 0;
    if (r->trace)
        memset(r->trace + r->clocks, (h2d_flow ? DEV_RUN_H2D : 0) | (wire_flow ? DEV_RUN_WIRE : 0),
               n);
    if (h2d_flow) {
        uint32_t wptr;
        cm_dma_rd_take_beats(&e->rd, hb->tag, n, &wptr);
        /* The head, then beats taken .. taken + n - 2: the one offered
         * first (*r->h2d) and those after it (h2d_next). */
        cm_payload_write(e->pf, wptr, hb->data);
        if (h->taken == 0) {
            cm_payload_write(e->pf, wptr + w, r->h2d->data);
            cm_payload_write_n(e->pf, wptr + 2 * w, r->h2d_next, n - 2);
        } else {
            cm_payload_write_n(e->pf, wptr + w, r->h2d_next + (size_t)(h->taken - 1) * w, n - 1);
        }
        h->taken += n;
        dev_run_beat(w, r, h->taken - 2, &e->h2d_mem[(e->h2d_s.wp + n) & 1u]);
        dev_run_beat(w, r, h->taken - 1, &e->h2d_mem[(e->h2d_s.wp + n - 1) & 1u]);
        e->h2d_s.wp += n;
        e->h2d_s.rp += n;
    }
    if (wire_flow) {
        /* Out on the port: the head, then the beats sent but the last. */
        uint8_t *out = r->wire + (size_t)r->wire_beats * w, *sent = out + w;
        struct dev_wire_beat *prev = &e->wire_mem[(e->wire_s.wp + n) & 1u];
        struct dev_wire_beat *last = &e->wire_mem[(e->wire_s.wp + n - 1) & 1u];
        dev_lanes_copy(out, wb->data, w);
        cm_payload_beats(e->pf, f, n, sent);
        cm_payload_next_n(e->pf, n);
        prev->fcs = cm_mac_send_beats(&e->mac, sent, n - 1, line_rate);
        last->fcs = cm_mac_send_beats(&e->mac, sent + (size_t)(n - 1) * w, 1, line_rate);
        prev->sop = prev->eop = last->sop = last->eop = false;
        prev->bytes = last->bytes = (uint8_t)w;
        dev_lanes_copy(prev->data, sent + (size_t)(n - 2) * w, w);
        dev_lanes_copy(last->data, sent + (size_t)(n - 1) * w, w);
        e->wire_s.wp += n;
        e->wire_s.rp += n;
        r->wire_beats += n;
    } else if (wire_wait) {
        cm_mac_wait_start(&e->mac, n, line_rate);
    } else {
        cm_mac_no_frame(&e->mac, n, line_rate);
    }
    return n;
}

/* Stream clocks from this one on while there are (at most max): the
 * stream's blocks ready (no read requested, being split or sent, nor
 * retiring with a done but the payload fetch's without an error:
 * cm_dma_rd_stream_ready(); the head frame not a
 * skip beat), their run's head frame (f) and time-out worked out once; on
 * a clock the oldest MRd retires (no beat of it can come: not in a bulk),
 * its edge, which restarts the timer; counted in r->streamed too. */
static uint32_t stream_clocks(struct cm_engine *e, struct run_h2d *h, struct dev_run *r,
                              uint32_t max)
{
    struct cm_mac_in *mi = &e->ins.mi;
    const uint32_t cpl_timeout = e->ins.ri.cpl_timeout;
    struct cm_payload_frame f;
    uint32_t n = 0, restart = 0; /* clocks run; the first the timer counts (after a retire) */
    const int ready = cm_dma_rd_stream_ready(&e->rd);

    if (!ready || e->pf->req_valid || e->df.req_valid)
        return 0;
    cm_payload_head_frame(e->pf, &f);
    if (f.valid && f.skip) /* (a skip beat ends its frame) */
        return 0;
    const uint32_t timer = cm_dma_rd_timer_left(&e->rd, cpl_timeout);
    if (timer < max)
        max = timer; /* the completion timer fires on the clock after */
    /* The MAC's inputs the stream clocks share: no last beat, no skip
     * beat, whole beats of the head frame, nothing left out (no longer a
     * clock's after it waited: wait_clock()). */
    e->waited.valid = false;
    mi->fr_eop = mi->fr_skip = false;
    mi->fr_bytes = e->w;
    mi->fr_q = f.q;
    mi->skip = 0;
    int kind = RUN_PLAIN, k;
    int next = ready;         /* cm_dma_rd_stream_ready() of the next clock */
    bool retire = ready >= 2; /* on this clock */
    while (kind == RUN_PLAIN && n < max) {
        uint32_t b;
        kind = run_ports(e, h, r);
        if (kind == RUN_PLAIN && !retire && (b = stream_bulk(e, h, r, &f, max - n)) != 0) {
            n += b;
            r->clocks += b;
            if (r->h2d && h->taken > r->h2d_rest) /* the TLP's last beat taken: the run ends */
                break;
            continue;
        }
        if ((kind != RUN_PLAIN && kind != RUN_LAST) || (k = stream_clock_run(e, h, r, &f)) == 0)
            break;
        n++;
        r->clocks++;
        if (retire) {
            /* A read's last: its done, for the payload fetch, may offer
             * the head frame from the next clock on (a new f): the
             * stream clocks end after it. */
            const bool done = next == 3;
            retire = cm_dma_rd_stream_retire(&e->rd);
            restart = n;
            if (done) {
                cm_payload_read_done(e->pf);
                break;
            }
            const uint32_t t = cm_dma_rd_timer_left(&e->rd, cpl_timeout);
            if (t < max - n)
                max = n + t;
        } else {
            retire = k == 2;
        }
        if (retire && (next = cm_dma_rd_stream_ready(&e->rd)) == 0) /* a done not streamed */
            break;
    }
    cm_dma_rd_timer_run(&e->rd, n - restart, cpl_timeout);
    cm_cpl_count(&e->cpl, &e->ins.ci, n);
    r->streamed += n;
    return n;
}

/* A clock of a run that is not a stream clock: the whole engine's; an
 * ending one's outputs into *r->last. */
static void general_clock_run(struct cm_engine *e, struct run_h2d *h, struct dev_run *r,
                              bool ending)
{
    const unsigned w = e->w;
    struct dev_in in;
    struct dev_out plain, *o = ending ? r->last : &plain;
    uint8_t trace = 0;

    in.d2h_ready = in.wire_ready = 1;
    in.skip = 0;
    in.h2d.valid = 0;
    if (r->h2d)
        dev_run_beat(w, r, h->taken, &in.h2d);
    cm_engine_step(e, &in, o);
    r->ended = ending;
    if (o->wire.valid) {
        trace |= DEV_RUN_WIRE;
        if (!ending) {
            if (o->wire.sop)
                r->wire_sop = r->clocks + 1;
            dev_lanes_copy(r->wire + r->wire_beats * w, o->wire.data, w);
            r->wire_beats++;
        }
    }
    if (in.h2d.valid && o->h2d_ready) {
        h->taken += !ending;
        trace |= DEV_RUN_H2D;
    }
    r->idle = o->idle;
    if (o->idle)
        trace |= DEV_RUN_IDLE;
    if (r->trace)
        r->trace[r->clocks] = trace;
    r->clocks++;
}

uint32_t cm_engine_run(struct cm_engine *e, struct dev_run *r)
{
    struct run_h2d h = {r, 0};

    r->clocks = r->h2d_taken = r->wire_beats = r->streamed = r->wire_sop = 0;
    r->idle = r->ended = 0;
    if (r->h2d && ((r->h2d->type != DEV_TLP_CPLD && r->h2d->type != DEV_TLP_MWR) || r->h2d->err))
        return 0;
    /* (Until the TLP's last beat is taken: h2d_rest + 1 beats from *h2d.) */
    while (r->clocks < r->max && !r->ended && !(r->h2d && h.taken > r->h2d_rest)) {
        const int kind = run_ports(e, &h, r);
        if (kind == RUN_NONE)
            break;
        if (kind == RUN_ENDING || !e->stream || stream_clocks(e, &h, r, r->max - r->clocks) == 0)
            general_clock_run(e, &h, r, kind == RUN_ENDING);
        else
            r->idle = 0;
    }
    r->h2d_taken = h.taken;
    return r->clocks;
}
#endif /* !CM_ENGINE_PROBE */

#if CM_ENGINE_PROBE
/* ---- waveforms (cm_probe.h): the RTL's registers and nets ---- */

static void probe_state(const struct cm_engine *e, uint64_t *v)
{
    const struct cm_cpl *c = &e->cpl;

    v[CM_P_RD_OUT] = e->rd.out;
    v[CM_P_RD_OBYTES] = e->rd.obytes;
    v[CM_P_RD_FRESH] = e->rd.fresh;
    v[CM_P_RD_MRD_VALID] = e->rd.mrd_valid;
    v[CM_P_RD_WAIT] = e->rd.wait;
    v[CM_P_DF_WORK] = e->df.work;
    v[CM_P_DF_RDY] = e->df.rdy;
    v[CM_P_DF_ARMED] = e->df.armed;
    v[CM_P_DF_REQ_VALID] = e->df.req_valid;
    v[CM_P_DF_TOT] = e->df.tot;
    v[CM_P_SC_PTR] = e->sched.ptr;
    v[CM_P_SC_HQ] = e->sched.hq;
    v[CM_P_SC_HOLD] = e->sched.hold;
    v[CM_P_SC_TURN] = e->sched.turn;
    v[CM_P_PF_ALLOC] = e->pf->alloc;
    v[CM_P_PF_BASE] = e->pf->base;
    v[CM_P_PF_BEAT] = e->pf->beat;
    v[CM_P_PF_REQ_VALID] = e->pf->req_valid;
    v[CM_P_MAC_CREDIT] = (uint32_t)e->mac.credit;
    v[CM_P_MAC_IN_FRAME] = e->mac.in_frame;
    v[CM_P_MAC_CRC] = e->mac.crc;
    v[CM_P_CPL_HEAD] = c->head;
    v[CM_P_CPL_WB_CNT] = c->wb_cnt;
    v[CM_P_CPL_IRQ_CNT] = c->irq_cnt;
    v[CM_P_CPL_TMR] = c->tmr;
    v[CM_P_CPL_TMR_RUN] = c->tmr_run;
    v[CM_P_CPL_WB_PEND] = c->wb_pend;
    v[CM_P_CPL_IRQ_PEND] = c->irq_pend;
    v[CM_P_CPL_MPEND] = c->mpend;
    v[CM_P_CPL_MIRQ] = c->mirq;
    v[CM_P_CW_VALID] = c->wr.valid;
    v[CM_P_RG_ENABLE] = e->regs.enable;
    v[CM_P_RG_ERR] = e->regs.err;
    for (unsigned q = 0; q < CM_PROBE_QUEUES && q < e->hw.queues; q++)
        v[CM_P_TAIL0 + q] = e->regs.tail[q];
}

static void probe_nets(const struct cm_engine *e, const struct cm_step *st, uint64_t *v)
{
    (void)e;
    v[CM_P_DOORBELL] = st->doorbell;
    v[CM_P_DB_Q] = st->db_q;
    v[CM_P_DB_TAIL] = st->db_tail;
    v[CM_P_S_Q] = st->sq;
    v[CM_P_F_Q] = st->fq;
    v[CM_P_Q_WORK] = st->fo.work;
    v[CM_P_Q_RDY] = st->fo.rdy;
    v[CM_P_DESC_VALID] = st->desc_valid;
    v[CM_P_DESC_TAKE] = st->desc_take;
    v[CM_P_MRD_VALID] = st->ro.mrd_valid;
    v[CM_P_MRD_TAG] = st->ro.mrd_tag;
    v[CM_P_MRD_ADDR] = st->ro.mrd_addr;
    v[CM_P_MRD_LEN] = st->ro.mrd_len;
    v[CM_P_MRD_DEST] = st->ro.mrd_dest;
    v[CM_P_RD_STALL] = st->ro.stall;
    v[CM_P_FR_VALID] = st->po.fr_valid;
    v[CM_P_FR_SOP] = st->po.fr_sop;
    v[CM_P_FR_EOP] = st->po.fr_eop;
    v[CM_P_FR_LEN] = st->po.fr_len;
    v[CM_P_PKT_DONE] = st->mo.pkt_done;
    v[CM_P_PKT_Q] = st->mo.pkt_q;
    v[CM_P_PKT_LEN] = st->mo.pkt_len;
    v[CM_P_PKT_SENT] = st->pkt_sent;
}
#endif /* CM_ENGINE_PROBE */
