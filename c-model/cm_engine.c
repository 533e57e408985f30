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
 */
#include "cm_engine.h"

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
#include "cm_regs.h"
#include "cm_sched.h"
#include "cm_wc.h"
#include "nictx_regs_gen.h"

/* rtl/nictx_tx_top.sv's parameters, as the Verilated engine is built (the
 * descriptor fetcher's, DescBufDescs and DescReads, are cm_desc_fetch.h's). */
enum {
    CM_ENGINE_TAGS = 256,
    CM_ENGINE_PAY_BYTES = 32768,
    CM_ENGINE_PKTS = 256,
    CM_ENGINE_QUEUES = 64,
    CM_ENGINE_BUF_PTR_BITS = 15 /* the read engine's buffer pointers: log2(PAY_BYTES) */
};
_Static_assert(1u << CM_ENGINE_BUF_PTR_BITS == CM_ENGINE_PAY_BYTES, "PtrW is log2(PayBufBytes)");
/* The fetcher's byte pointers (slot * 16 + byte): the read engine's cut to them. */
#define CM_ENGINE_DESC_PTR_MASK (CM_DESC_FETCH_SLOTS * 16u - 1)
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

struct cm_d2h_slot { /* the d2h slice's entry: a one-beat TLP with its 8-byte word */
    uint8_t one;       /* sop and eop: 1 in every beat stored (0 before any) */
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

struct cm_engine {
    unsigned w;
    struct cm_engine_ins ins;
    uint32_t cfg_gen;  /* the register block's gen when ins was refreshed */
    unsigned cfg_wq;   /* the queue whose registers ins.ci's w_* are */
    struct cm_slice h2d_s, d2h_s, wire_s;
    struct dev_beat h2d_mem[2];
    struct cm_d2h_slot d2h_mem[2];
    struct dev_wire_beat wire_mem[2];
    struct cm_arbiter_rr arb;
    struct cm_regs regs;
    struct cm_wc wc;
    struct cm_dma_rd rd;
    struct cm_desc_fetch df;
    struct cm_sched sched;
    struct cm_payload *pf;
    struct cm_mac mac;
    struct cm_cpl cpl;
};

static void config_refresh(struct cm_engine *e);

/* ---- the datapath's reset (core_rst_n): every block but the register
 * block, the slices and the arbiter ---- */
static void core_reset(struct cm_engine *e)
{
    cm_wc_reset(&e->wc, e->w);
    cm_dma_rd_reset(&e->rd);
    cm_desc_fetch_reset(&e->df, e->w, CM_ENGINE_QUEUES);
    cm_sched_reset(&e->sched, CM_ENGINE_QUEUES);
    cm_payload_reset(e->pf);
    cm_mac_reset(&e->mac, e->w);
    cm_cpl_reset(&e->cpl, CM_ENGINE_QUEUES);
}

struct cm_engine *cm_engine_create(unsigned w)
{
    struct cm_engine *e;

    if (!dev_width_ok(w) || !(e = calloc(1, sizeof(*e))))
        return NULL;
    e->w = w;
    e->pf = cm_payload_create(w, CM_ENGINE_PAY_BYTES, CM_ENGINE_PKTS);
    if (!e->pf || cm_dma_rd_init(&e->rd, CM_ENGINE_TAGS, w, CM_ENGINE_BUF_PTR_BITS) != 0 ||
        cm_desc_fetch_init(&e->df, w, CM_ENGINE_QUEUES) != 0) {
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
    cm_regs_reset(&e->regs, CM_ENGINE_QUEUES);
    core_reset(e);
    config_refresh(e);
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

void cm_engine_step(struct cm_engine *e, const struct dev_in *in, struct dev_out *out)
{
    const unsigned w = e->w;
    const uint32_t skip = in->skip < CM_WAKE_NEVER ? in->skip : CM_WAKE_NEVER;
    const bool core_run = !e->regs.qrst; /* core_rst_n after the edge before */
    const struct cm_regs *r = &e->regs;
    struct cm_dma_rd_in *ri = &e->ins.ri;
    struct cm_wc_in *wi = &e->ins.wi;
    struct cm_regs_in *gi = &e->ins.gi;
    struct cm_sched_in *si = &e->ins.si;
    struct cm_desc_fetch_in *fi = &e->ins.fi;
    struct cm_payload_in *pi = &e->ins.pi;
    struct cm_mac_in *mi = &e->ins.mi;
    struct cm_cpl_in *ci = &e->ins.ci;

    if (r->gen != e->cfg_gen)
        config_refresh(e);

    /* 1. From state alone. */
    const bool hv = slice_rvalid(&e->h2d_s);
    const struct dev_beat *hb = &e->h2d_mem[e->h2d_s.rp & 1u];
    const bool d2h_ready = slice_wready(&e->d2h_s), wire_ready = slice_wready(&e->wire_s);
    const bool d2h_vo = slice_rvalid(&e->d2h_s), wire_vo = slice_rvalid(&e->wire_s);
    const bool rst_hold = cm_regs_rst_hold(r);
    const unsigned wq = cm_cpl_wq(&e->cpl, ci);
    if (wq != e->cfg_wq)
        wq_refresh(e, wq);
    struct cm_desc_fetch_out fo; /* the fetcher's outputs: first those from state */
    cm_desc_fetch_state_out(&e->df, &fo);
    const uint32_t src = (uint32_t)e->cpl.wr.valid << SRC_WR |
                         (uint32_t)r->cpl_valid << SRC_REG_CPL |
                         (uint32_t)(e->rd.mrd_valid && !rst_hold) << SRC_MRD;
    const int win = cm_arbiter_rr_pick(&e->arb, src);
    ci->wr_ready = d2h_ready && win == SRC_WR;
    ci->skip = skip;

    /* 2. The read engine. */
    const bool is_cpl = hv && hb->type == DEV_TLP_CPLD;
    const unsigned off = (unsigned)(hb->addr & (NICTX_BAR0_SIZE - 1));
    ci->hr_q = cm_regs_hr_q(r, off);
    ri->req[0].valid = e->pf->req_valid;
    ri->req[0].addr = e->pf->req_addr;
    ri->req[0].len = e->pf->req_len;
    ri->req[0].wptr = e->pf->req_wptr;
    ri->req[1].valid = fo.req_valid;
    ri->req[1].addr = fo.req_addr;
    ri->req[1].len = fo.req_len;
    ri->req[1].wptr = fo.req_wptr;
    ri->mrd_ready = d2h_ready && win == SRC_MRD;
    ri->cpl_valid = is_cpl;
    ri->cpl_sop = hb->sop;
    ri->cpl_eop = hb->eop;
    ri->cpl_err = hb->err;
    ri->cpl_tag = hb->tag;
    ri->cpl_len = hb->len;
    ri->cpl_lane = (unsigned)(hb->addr & (w - 1));
    ri->cpl_data = hb->data;
    ri->skip = skip;
    struct cm_dma_rd_out ro; /* (its inputs are all known: the edge taken now) */
    if (core_run)
        cm_dma_rd_step(&e->rd, ri, &ro);
    else
        cm_dma_rd_eval(&e->rd, ri, &ro);

    /* 3. The WC window. */
    const bool is_wc = hv && hb->type == DEV_TLP_MWR && off < 0x400 && off >= NICTX_WC_BASE;
    const bool wc_go = is_wc && !(cm_regs_wc_hold(r, ro.drained) && hb->sop);
    wi->req_valid = wc_go;
    wi->req_sop = hb->sop;
    wi->req_eop = hb->eop;
    wi->req_len = hb->len;
    wi->req_off = off & 0x3ffu;
    wi->req_data = hb->data;
    struct cm_wc_out wo;
    cm_wc_eval(&e->wc, wi, &wo);

    /* 4. The register block's access and doorbell, which a reset firing
     * (quiescent) changes. */
    const bool d2h_valid = win >= 0;
    bool quiescent = false;
    if (rst_hold || hv)
        quiescent = cm_mac_idle(&e->mac) && cm_cpl_idle(&e->cpl, ci) && !d2h_valid && !d2h_vo &&
                    !wire_vo && !wo.busy;
    gi->req_valid = hv && !is_cpl && !is_wc;
    gi->req_type = hb->type;
    gi->req_tag = hb->tag;
    gi->req_len = hb->len;
    gi->req_off = off;
    gi->req_data = beat_word(w, hb->data, hb->addr);
    gi->wc_bad_access = wo.bad_access;
    gi->wc_close = wo.close;
    gi->wc_tail_we = wo.tail_we;
    gi->wc_tail = wo.tail;
    gi->wc_tail_range = wo.tail_range;
    gi->wc_torn = wo.torn;
    gi->quiescent = quiescent;
    gi->rd_drained = ro.drained;
    unsigned db_q, db_tail;
    const bool doorbell = cm_regs_doorbell(r, gi, &db_q, &db_tail);
    const bool h2d_pop =
        hv && (is_cpl ? ro.cpl_ready : is_wc ? wc_go : cm_regs_req_ready(r, hb->type));

    /* 5. The scheduler's candidate, its head; the descriptor fetcher. */
    si->rdy = fo.rdy;
    si->backlog = fo.work;
    const unsigned sq = cm_sched_queue(&e->sched, si);
    fi->db_q = db_q;
    fi->db_tail = db_tail;
    fi->sq = sq;
    fi->doorbell = doorbell;
    fi->wc_close = wo.close;
    fi->wc_idx_valid = wo.tail_we;
    fi->wc_idx = wo.blk_idx;
    fi->h_ring_log2 = r->ring_log2[sq];
    fi->blk_valid = wo.blk_valid;
    fi->blk_idx = wo.blk_idx;
    fi->blk_w0 = wo.blk_w0;
    fi->blk_w1 = wo.blk_w1;
    fi->req_ready = ro.req_ready[1];
    fi->wr_valid = ro.wr_valid && ro.wr_dest;
    fi->wr_ptr = ro.wr_ptr & CM_ENGINE_DESC_PTR_MASK;
    fi->wr_words = ro.wr_words;
    fi->wr_data = ro.wr_data;
    fi->done = ro.done_valid && ro.done_dest;
    fi->done_err = ro.done_err;
    cm_desc_fetch_head(&e->df, fi, &fo);
    si->len = fo.desc_len;
    si->bad = fo.desc_bad;
    si->weight = r->weight[sq];
    struct cm_sched_out so;
    cm_sched_eval(&e->sched, si, &so);
    fi->sched_valid = so.valid;
    const unsigned fq = fo.f_q = cm_desc_fetch_fq(&e->df, fi, &fo.desc_valid);
    const bool desc_valid = fo.desc_valid;
    fi->ring_base = r->ring_base[fq];
    fi->ring_log2 = r->ring_log2[fq];
    fi->tail = r->tail[fq];

    /* 6. The payload fetch (whose take the fetcher's edge needs), the MAC,
     * the completion writer. */
    pi->desc_valid = desc_valid;
    pi->desc_addr = fo.desc_addr;
    pi->desc_len = fo.desc_len;
    pi->desc_bad = fo.desc_bad;
    pi->desc_err = fo.desc_err;
    pi->desc_q = sq;
    pi->req_ready = ro.req_ready[0];
    pi->wr_valid = ro.wr_valid && !ro.wr_dest;
    pi->wr_ptr = ro.wr_ptr;
    pi->wr_data = ro.wr_data;
    pi->done = ro.done_valid && !ro.done_dest;
    pi->done_err = ro.done_err;
    struct cm_payload_out po;
    cm_payload_eval(e->pf, pi, &po);
    const bool desc_take = desc_valid && po.desc_ready;
    fi->desc_ready = po.desc_ready;
    if (core_run)
        cm_desc_fetch_step_split(&e->df, fi, &fo);
    else
        cm_desc_fetch_eval(&e->df, fi, &fo);

    mi->fr_valid = po.fr_valid && !(rst_hold && po.fr_sop); /* no new frame before a reset */
    mi->fr_sop = po.fr_sop;
    mi->fr_eop = po.fr_eop;
    mi->fr_skip = po.fr_skip;
    mi->fr_data = po.fr_data;
    mi->fr_bytes = po.fr_bytes;
    mi->fr_len = po.fr_len;
    mi->fr_q = po.fr_q;
    mi->wire_ready = wire_ready;
    mi->skip = skip;
    struct cm_mac_out mo; /* (its edge taken now, as the read engine's) */
    if (core_run)
        cm_mac_step(&e->mac, mi, &mo);
    else
        cm_mac_eval(&e->mac, mi, &mo);
    pi->fr_ready = mo.fr_ready;
    const bool pkt_sent = mo.pkt_done && !(po.fr_valid && po.fr_skip);

    ci->pkt_q = mo.pkt_q;
    ci->pkt_done = mo.pkt_done;
    ci->c_ring_log2 = r->ring_log2[mo.pkt_q];
    ci->c_tail = r->tail[mo.pkt_q];
    ci->c_wb_addr = r->wb_addr[mo.pkt_q];
    ci->c_cq_base = r->cq_base[mo.pkt_q];
    struct cm_cpl_out co; /* (its edge taken now, as the read engine's) */
    if (core_run)
        cm_cpl_step(&e->cpl, ci, &co);
    else
        cm_cpl_eval(&e->cpl, ci, &co);

    /* 7. The top's idle and wait. */
    const bool regs_idle = cm_regs_idle(r);
    bool engine_idle = false;
    out->idle = 0;
    if (rst_hold || hv || (regs_idle && !co.timer)) {
        engine_idle = ro.idle && fo.idle && po.idle && mo.idle && co.idle && !d2h_vo && !wire_vo;
        if (!rst_hold && !hv)
            out->idle = engine_idle;
    }
    out->waiting = 0;
    if (!d2h_vo && !wire_vo && !hv && regs_idle) {
        const bool pf_wait = !e->pf->req_valid && !desc_take && !mo.fr_ready;
        si->take = desc_take;
        si->flush = fo.flush;
        cm_sched_eval(&e->sched, si, &so);
        out->waiting = fo.wait && so.wait && mo.wait && co.wait && (po.idle || pf_wait) &&
                       (ro.idle || ro.wait);
    }
    {
        uint32_t wake = min24(min24(ro.wake, mo.wake), co.wake);
        out->wake = wake == CM_WAKE_NEVER ? UINT32_MAX : wake;
    }

    /* The ports: the slices' heads (also while empty, as the RTL's). */
    out->h2d_ready = slice_wready(&e->h2d_s);
    {
        const struct cm_d2h_slot *d = &e->d2h_mem[e->d2h_s.rp & 1u];
        out->d2h.valid = d2h_vo;
        out->d2h.sop = out->d2h.eop = d->one;
        out->d2h.type = d->type;
        out->d2h.tag = d->tag;
        out->d2h.len = d->len;
        out->d2h.addr = d->addr;
        out->d2h.err = d->err;
        dev_lanes_zero(out->d2h.data, w);
        memcpy(out->d2h.data + (d->addr & (w - 1) & ~7u), &d->word, 8);
    }
    {
        const struct dev_wire_beat *b = &e->wire_mem[e->wire_s.rp & 1u];
        out->wire.valid = wire_vo;
        out->wire.sop = b->sop;
        out->wire.eop = b->eop;
        out->wire.bytes = b->bytes;
        out->wire.fcs = b->fcs;
        dev_lanes_copy(out->wire.data, b->data, w);
    }

    /* The rising edge. */
    gi->cpl_ready = d2h_ready && win == SRC_REG_CPL;
    gi->pba = co.pba;
    gi->hr_head = co.hr_head;
    gi->rd_stall = ro.stall;
    gi->pkt_done = pkt_sent;
    gi->pkt_len = mo.pkt_len;
    gi->pkt_q = mo.pkt_q;
    gi->dma_rd = ro.mrd_valid && d2h_ready && win == SRC_MRD;
    gi->desc_rd = gi->dma_rd && ro.mrd_dest;
    gi->bad_desc = po.bad_desc;
    gi->dma_err = is_cpl && hb->err && !ro.unexp;
    gi->cpl_timeout = ro.timeout;
    gi->unexp_cpl = ro.unexp;
    gi->engine_idle = engine_idle;
    gi->not_owned = fo.not_owned;
    gi->not_owned_cnt = fo.not_owned_cnt;
    gi->wc_drop = fo.wc_drop;
    gi->wc_used = fo.wc_used;
    gi->f_q = fq;
    gi->c_q = mo.pkt_q;
    gi->w_q = wq;
    gi->s_q = sq;
    if (core_run) {
        si->take = desc_take;
        si->flush = fo.flush;
        cm_wc_clock(&e->wc, wi);
        cm_sched_clock(&e->sched, si);
        cm_payload_edge(e->pf, pi, &po);
    }
    if (d2h_valid && d2h_ready) {
        struct cm_d2h_slot *d = &e->d2h_mem[e->d2h_s.wp & 1u];
        d->one = 1;
        switch (win) {
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
            d->len = (uint16_t)co.wr_len;
            d->addr = co.wr_addr;
            d->word = co.wr_data;
            break;
        default:
            d->type = DEV_TLP_MRD;
            d->err = 0;
            d->tag = (uint8_t)ro.mrd_tag;
            d->len = (uint16_t)ro.mrd_len;
            d->addr = ro.mrd_addr;
            d->word = 0;
            break;
        }
        e->d2h_s.wp++;
    }
    cm_regs_clock(&e->regs, gi);
    if (mo.wire_valid && wire_ready) {
        struct dev_wire_beat *b = &e->wire_mem[e->wire_s.wp & 1u];
        b->sop = mo.wire_sop;
        b->eop = mo.wire_eop;
        b->bytes = (uint8_t)mo.wire_bytes;
        b->fcs = mo.wire_fcs;
        dev_lanes_copy(b->data, mo.wire_data, w);
        e->wire_s.wp++;
    }
    if (in->h2d.valid && out->h2d_ready) {
        struct dev_beat *b = &e->h2d_mem[e->h2d_s.wp & 1u];
        memcpy(b, &in->h2d, offsetof(struct dev_beat, data));
        dev_lanes_copy(b->data, in->h2d.data, w);
        e->h2d_s.wp++;
    }
    if (h2d_pop)
        e->h2d_s.rp++;
    if (d2h_vo && in->d2h_ready)
        e->d2h_s.rp++;
    if (wire_vo && in->wire_ready)
        e->wire_s.rp++;
    cm_arbiter_rr_clock(&e->arb, win, d2h_ready);
    if (!core_run || e->regs.qrst)
        core_reset(e);
}
