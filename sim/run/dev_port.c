/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dev_port.c - the device port adapter: TLPs to beats and back, frames off
 * the wire, one device clock at a time (sim/device/device.h is the contract).
 *
 * sim_clock() presents the oldest host-to-device TLP that has arrived, one
 * beat of the device's width W per clock with the data lanes following the
 * address; collects the
 * device's TLP beats into whole TLPs, classifies them for accounting and
 * puts them on the device-to-host link; and assembles wire frames for the
 * scoreboard.
 */
#include <inttypes.h>
#include <string.h>

#include "nictx_hw.h"
#include "run/sim_world.h"
#include "device/tlp_beat.h"


/* The queues' rings, sorted by bus address (struct sim, ring_at). */
static void ring_sort(struct sim *s)
{
    s->ring_key = s->mem.brk + 1;
    for (unsigned q = 0; q < s->nq; q++) {
        uint64_t at = sim_txq(s, q)->ring_dma;
        unsigned i;
        if (at == 0)
            s->ring_key = 0; /* not allocated yet: sort again next time */
        for (i = q; i > 0 && s->ring_at[i - 1] > at; i--)
            s->ring_at[i] = s->ring_at[i - 1];
        s->ring_at[i] = at;
    }
}

/* The rings are as long: the one starting last at or before addr holds it
 * if any does. */
int sim_in_ring(struct sim *s, uint64_t addr)
{
    unsigned lo = 0, hi = s->nq;

    if (s->ring_key != s->mem.brk + 1)
        ring_sort(s);
    while (lo < hi) { /* the first ring starting after addr */
        unsigned mid = (lo + hi) / 2;
        if (s->ring_at[mid] <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && addr - s->ring_at[lo - 1] < (uint64_t)s->cfg.ring_size * NICTX_DESC_BYTES;
}

static void d2h_classify(struct sim *s, struct tlp *t)
{
    switch (t->type) {
    case TLP_MRD: /* the descriptor rings' ranges tell descriptor reads apart */
        t->kind = sim_in_ring(s, t->addr) ? TLP_KIND_DESC_RD : TLP_KIND_PAYLOAD_RD;
        break;
    case TLP_MWR:
        t->kind = rc_is_msi(t->addr) ? TLP_KIND_IRQ : TLP_KIND_COMPLETION;
        break;
    default:
        t->kind = TLP_KIND_MMIO_CPL;
        break;
    }
}

/* Collect one device-to-host beat into the TLP being assembled. */
static void d2h_collect(struct sim *s, const struct dev_beat *b)
{
    struct tlp *t = &s->d2h_tlp;

    if (tlp_beat_collect(s->ops->width, t, &s->d2h_beat, b)) {
        if (t->type == TLP_CPLD || t->type == TLP_CPL)
            t->addr &= NICTX_BAR0_SIZE - 1; /* a BAR0 offset; lanes already taken */
        d2h_classify(s, t);
        if (t->type == TLP_MRD)
            rd_pool_issue(&s->pool, t->tag, t->len, t->kind == TLP_KIND_DESC_RD, s->now);
        if (s->obs)
            obs_dev_tlp(s->obs, s->now, t->kind, t->tag, t->addr, t->len, t->type == TLP_MRD);
        sim_deliver_dirty(s);
        pcie_link_advance(s->h2d, s->now);
        if (pcie_link_send(s->d2h, s->now, t) != 0)
            sim_fail(s, "device-to-host link refused a TLP");
    }
}

/* The frame just off the wire to the tracer (and pcap): its queue and seq
 * from its bytes (scoreboard.h), or the frames so far for a capture. */
static void sim_obs_frame(struct sim *s)
{
    unsigned q = s->nq > 1 ? s->frame[SB_QUEUE_OFF] : 0;
    uint64_t seq = s->obs->frames;

    if (!s->cap.n && s->frame_len >= SB_HDR_LEN)
        memcpy(&seq, s->frame + 14, 8); /* little-endian, as the host */
    /* The frame's beats on the wire port: its first clock to past its last. */
    obs_frame(s->obs, s->frame_t0, s->now + s->period_ps, q, seq, s->frame, s->frame_len);
}

static void wire_collect(struct sim *s, const struct dev_wire_beat *w)
{
    unsigned width = s->ops->width, n = w->bytes > width ? width : w->bytes;

    if (w->sop) {
        s->frame_len = 0;
        s->frame_open = 1;
        s->frame_t0 = s->now;
    }
    if (!s->frame_open)
        return;
    if (s->frame_len + n <= sizeof(s->frame) - DEV_WIDTH_MAX) {
        dev_lanes_copy(s->frame + s->frame_len, w->data, width); /* (n of them count) */
        s->frame_len += n;
    }
    if (w->eop) {
        s->wire_free = s->frame_t0 + (sim_ps_t)((s->frame_len + 4.0 + 20.0) * s->wire_ps_per_byte);
        sb_check_frame(s->sb, s->frame, s->frame_len, w->fcs, s->frame_t0);
        if (s->obs)
            sim_obs_frame(s);
        s->frame_open = 0;
        s->last_progress = s->now;
    }
}

/* The h2d beat to offer on this clock: beat h2d_beat of the oldest TLP
 * that has arrived (built once per beat, kept while it waits), or none
 * (all zero).  Returns that TLP, or NULL. */
static const struct tlp *h2d_offer(struct sim *s)
{
    struct dev_beat *b = &s->dev_in.h2d;
    const struct tlp *h;

    if (pcie_link_next_arrival(s->h2d) > s->now) {
        if (b->valid)
            memset(b, 0, sizeof(*b));
        s->h2d_built = 0;
        return NULL;
    }
    h = pcie_link_peek(s->h2d);
    if (!s->h2d_built) { /* (b holds the beat before while a TLP goes on) */
        if (s->h2d_beat == 0 || !b->valid)
            tlp_beat_from_tlp(s->ops->width, h, s->h2d_beat, b);
        else
            tlp_beat_next(s->ops->width, h, s->h2d_beat, b);
        s->h2d_built = 1;
    }
    return h;
}

#define SIM_RUN_MAX 4096u /* device clocks in one run at most */
/* (Cleared for each run: its fields leave no padding on a 64-bit host.) */
_Static_assert(sizeof(void *) != 8 || sizeof(struct dev_run) == 80, "struct dev_run packed");

/* The device took the whole TLP h at `now` (its last beat): its buffer
 * credits go back, and a read's last completion its tag. */
static void h2d_tlp_taken(struct sim *s, const struct tlp *h)
{
    if ((h->type == TLP_CPLD || h->type == TLP_CPL) && h->last &&
        (h->kind == TLP_KIND_DESC_CPL || h->kind == TLP_KIND_PAYLOAD_CPL)) {
        rd_pool_done(&s->pool, h->tag, s->now);
        if (s->obs)
            obs_dev_cpl(s->obs, s->now, h->tag, h->status != TLP_STATUS_SC || h->ep);
    }
    sim_deliver_dirty(s);
    if (pcie_link_rx_release(s->h2d, s->now, h) != 0)
        sim_fail(s, "host-to-device link: credit release failed");
    pcie_link_pop(s->h2d);
    s->h2d_beat = 0;
    s->h2d_built = 0;
}

/* A clock's outputs at `now`, with its inputs `in` (h: the TLP offered,
 * or NULL): the beat taken, the d2h beat collected, the wire beat
 * gathered; and the device's idle and wake.  Returns 1 if the device is
 * quiescent after it.  (Inline: sim_clock() runs it on every clock.) */
static inline __attribute__((always_inline)) int
clock_outputs(struct sim *s, const struct dev_in *in, const struct tlp *h, const struct dev_out *out)
{
    const int took = in->h2d.valid && out->h2d_ready;

    s->dev_idle = out->idle;
    s->dev_wake = out->wake == UINT32_MAX ? UINT32_MAX
                  : out->wake > in->skip ? out->wake - in->skip : 0;
    if (took && in->h2d.eop) {
        h2d_tlp_taken(s, h);
    } else if (took) {
        s->h2d_beat++;
        s->h2d_built = 0;
    }
    if (out->d2h.valid)
        d2h_collect(s, &out->d2h);
    if (out->wire.valid) {
        s->engine_beats++;
        wire_collect(s, &out->wire);
    }
    return (out->idle || (out->waiting && s->dev_wake > 0)) && !took && !in->h2d.valid &&
           !out->d2h.valid && !out->wire.valid;
}

/* The h2d side of a run (struct dev_run): the beat on offer and the rest
 * of its TLP, if the device may stream it (a completion with data that
 * succeeded, or a posted write); 0, or -1 when it may not. */
static int run_h2d(struct sim *s, const struct tlp *h, struct dev_run *r)
{
    const unsigned w = s->ops->width;
    const unsigned beats = dev_tlp_beats(w, h->type, h->addr, h->len);
    const unsigned first = (beats - 1) * w - (unsigned)(h->addr & (w - 1)); /* last beat's first byte */

    if (h->type == TLP_CPLD ? h->status != TLP_STATUS_SC || h->ep : h->type != TLP_MWR)
        return -1;
    r->h2d = &s->dev_in.h2d;
    r->h2d_rest = beats - 1 - s->h2d_beat;
    if (r->h2d_rest) /* (none after the last) */
        r->h2d_next = h->data + (size_t)(s->h2d_beat + 1) * w - (h->addr & (w - 1));
    r->h2d_last_bytes = h->len - first;
    return 0;
}

/* Device clocks from `now` on, several at once (device_ops.run), while
 * nothing of the harness's own happens: every one before `until` (the next
 * event to deliver, a CPU's time, the caller's stop) and the watchdog's
 * expiry, none left out before the first, the TLP on offer one the device
 * may stream, or none arriving meanwhile.  On the clocks before the last,
 * this loop's per-clock work (sim_clock) has nothing to do but count them,
 * take the h2d beats and gather the frame's bytes; the last may need all
 * of it (clock_outputs()).  Returns the clocks run (0: sim_clock() runs
 * the next one). */
uint32_t sim_clock_run(struct sim *s, sim_ps_t until)
{
    const sim_ps_t p = s->period_ps, wd_end = sim_wd_end(s) - 1; /* a run ends by it */
    struct dev_run r;
    struct dev_out last;
    const struct tlp *h;
    unsigned eop_at = 0; /* the beat index of h's last beat */
    sim_ps_t k;

    if (!s->ops->run || s->skip_pending || s->failed || wd_end < s->now + p)
        return 0;
    memset(&r, 0, sizeof(r));
    if ((h = h2d_offer(s)) != NULL) {
        if (run_h2d(s, h, &r) != 0)
            return 0;
        eop_at = s->h2d_beat + r.h2d_rest;
    } else if (pcie_link_next_arrival(s->h2d) < until) {
        until = pcie_link_next_arrival(s->h2d);
    }
    if (until <= s->now) /* a clock at each edge before until */
        return 0;
    k = (until - s->now + p - 1) / p;
    if (k > (wd_end - s->now) / p) /* the watchdog looks after each clock */
        k = (wd_end - s->now) / p;
    r.max = k > SIM_RUN_MAX ? SIM_RUN_MAX : (uint32_t)k;
    if (!s->frame_open) /* (a frame the run starts: wire_collect()'s sop) */
        s->frame_len = 0;
    r.frame_open = s->frame_open;
    r.wire = s->frame + s->frame_len;
    r.wire_room = (uint32_t)(sizeof(s->frame) - DEV_WIDTH_MAX - s->frame_len);
    r.last = &last;
    if (s->ops->run(s->dev, &r) == 0 && !r.fault)
        return 0;
    if (r.fault) {
        sim_fail(s, "%s", s->ops->fault ? s->ops->fault(s->dev) : "device fault");
        return 1;
    }
    s->cycles += r.clocks;
    s->run_cycles += r.clocks;
    s->stream_cycles += r.streamed;
    if (r.wire_sop) {
        s->frame_open = 1;
        s->frame_t0 = s->now + (sim_ps_t)(r.wire_sop - 1) * p;
    }
    s->now += (sim_ps_t)(r.clocks - 1) * p; /* the last clock's */
    s->engine_beats += r.wire_beats;
    s->frame_len += r.wire_beats * s->ops->width;
    if (r.h2d_taken) {
        s->h2d_beat += r.h2d_taken;
        s->h2d_built = 0;
    }
    s->dev_idle = r.idle;
    s->dev_quiet = 0;
    if (r.ended) { /* its outputs, as sim_clock() */
        struct dev_in in = {.skip = 0};
        in.h2d.valid = h != NULL;
        in.h2d.eop = h && s->h2d_beat == eop_at;
        s->dev_quiet = clock_outputs(s, &in, h, &last);
    } else if (h && s->h2d_beat > eop_at) { /* it took the TLP's last beat */
        h2d_tlp_taken(s, h);
    }
    s->now += p;
    return r.clocks;
}

/* One device clock at `now`.  Returns 1 if the device is quiescent after
 * it: idle, or waiting (for completions, for time) with at least one clock
 * it allows to leave out; and no beat in or out is pending. */
int sim_clock(struct sim *s)
{
    struct dev_in *in = &s->dev_in;
    struct dev_out out;
    const struct tlp *h = h2d_offer(s);
    int quiescent;

    in->d2h_ready = 1;
    in->wire_ready = 1;
    in->skip = s->skip_pending > UINT32_MAX ? UINT32_MAX : (uint32_t)s->skip_pending;
    s->skip_pending = 0;
    s->ops->step(s->dev, in, &out);
    if (out.fault)
        sim_fail(s, "%s", s->ops->fault ? s->ops->fault(s->dev) : "device fault");
    s->cycles++;
    quiescent = clock_outputs(s, in, h, &out);
    s->dev_quiet = quiescent;
    s->now += s->period_ps;
    return quiescent;
}
