/* SPDX-License-Identifier: Apache-2.0 */
/*
 * engine_host.c - the host around the Verilated engine for cmocka tests;
 * the contract is in engine_host.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/engine_host.h"
#include "nictx_hw.h"

/* ------------------------------------------------------------ context */

/* The model of ops's width that $NICTX_DEVICE names: rtl (ops, the
 * default), c (the C model) or lockstep (both; docs/c-model.md), so the
 * same directed tests run on each. */
static const struct device_ops *eh_device(const struct device_ops *ops)
{
    const char *d = getenv("NICTX_DEVICE");

    if (!d || strcmp(d, "rtl") == 0)
        return ops;
    if (strcmp(d, "c") == 0)
        return dev_cm_ops_width(ops->width);
    if (strcmp(d, "lockstep") == 0)
        return dev_lockstep_ops_width(ops->width);
    fail_msg("NICTX_DEVICE=%s: expected rtl, c or lockstep", d);
    return NULL;
}

int eh_init(struct eh *h, const struct eh_cfg *cfg)
{
    memset(h, 0, sizeof(*h));
    h->cfg = *cfg;
    h->mrrs = 512;     /* reset values the checks depend on */
    h->ring_log2 = 8;
    eh_stall(h, 0, NULL, NULL);
    h->mem = calloc(1, cfg->mem_size);
    h->q = calloc(EH_MAX_TLPS, sizeof(*h->q));
    h->pend = calloc(EH_MAX_PEND, sizeof(*h->pend));
    h->exp = calloc(cfg->max_frames, sizeof(*h->exp));
    h->ops = eh_device(cfg->ops ? cfg->ops : &dev_rtl_ops);
    h->width = h->ops->width;
    h->dev = h->mem && h->q && h->pend && h->exp ? dev_create(h->ops) : NULL;
    if (!h->dev)
        return -1;
    h->ops->reset(h->dev);
    return 0;
}

void eh_fini(struct eh *h)
{
    if (h->dev)
        h->ops->destroy(h->dev);
    free(h->mem);
    free(h->q);
    free(h->pend);
    free(h->exp);
    memset(h, 0, sizeof(*h));
}

void eh_print_summary(const struct eh *h)
{
    printf("  %llu cycles, %u MRds, %u frames\n", (unsigned long long)h->cycle, h->n_mrds,
           h->n_frames);
}

uint8_t *eh_ptr(struct eh *h, uint64_t addr, unsigned len)
{
    uint64_t base = h->cfg.mem_base;

    assert_true(addr >= base && addr + len <= base + h->cfg.mem_size);
    return h->mem + (addr - base);
}

static int in_mem(const struct eh *h, uint64_t addr, unsigned len)
{
    return addr >= h->cfg.mem_base && addr + len <= h->cfg.mem_base + h->cfg.mem_size;
}

/* ------------------------------------------------------------ host TLPs */

static struct eh_tlp *q_push(struct eh *h)
{
    struct eh_tlp *t;

    assert_true(h->q_count < EH_MAX_TLPS);
    t = &h->q[(h->q_head + h->q_count) % EH_MAX_TLPS];
    h->q_count++;
    h->q_pushed++;
    memset(t, 0, offsetof(struct eh_tlp, data));
    return t;
}

static unsigned tlp_beats(unsigned w, const struct eh_tlp *t)
{
    return dev_tlp_beats(w, t->type, t->addr, t->len);
}

/* Beat k of a TLP on a W-byte port: lanes follow the address (sim/device/device.h). */
static void tlp_beat(unsigned w, const struct eh_tlp *t, unsigned k, struct dev_beat *b)
{
    b->valid = 1;
    b->sop = k == 0;
    b->eop = k + 1 == tlp_beats(w, t);
    b->type = t->type;
    b->tag = t->tag;
    b->len = t->len;
    b->addr = t->addr;
    b->err = t->err;
    if (t->type == DEV_TLP_MRD)
        memset(b->data, 0, sizeof(b->data));
    else
        dev_beat_data(w, t->addr, t->len, t->data, k, b->data);
}

/* The last CplD of an engine MRd was taken: the read is no longer in
 * flight and its tag may be used again. */
static void read_landed(struct eh *h, const struct eh_tlp *t)
{
    assert_true(h->tag_busy[t->tag]);
    h->tag_busy[t->tag] = 0;
    h->f_count--;
    h->f_bytes -= t->rd_len;
}

/* The head TLP's beat moved: the next beat, or the next TLP. */
static void q_advance(struct eh *h, const struct dev_beat *b)
{
    const struct eh_tlp *t = &h->q[h->q_head];

    if (!b->eop) {
        h->q_beat++;
        return;
    }
    if (t->type == DEV_TLP_CPLD && t->last)
        read_landed(h, t);
    h->q_head = (h->q_head + 1) % EH_MAX_TLPS;
    h->q_count--;
    h->q_taken++;
    h->q_beat = 0;
}

static void host_mwr(struct eh *h, uint64_t addr, const void *data, unsigned len)
{
    struct eh_tlp *t = q_push(h);

    assert_true(len <= sizeof(t->data));
    t->type = DEV_TLP_MWR;
    t->len = (uint16_t)len;
    t->addr = addr;
    memcpy(t->data, data, len);
}

void eh_wr32(struct eh *h, uint32_t off, uint32_t val)
{
    host_mwr(h, EH_BAR0 + off, &val, 4);
}

void eh_wr64(struct eh *h, uint32_t off, uint64_t val)
{
    host_mwr(h, EH_BAR0 + off, &val, 8);
}

void eh_mwr(struct eh *h, uint32_t off, const void *data, unsigned len)
{
    assert_true(len >= 1);
    host_mwr(h, EH_BAR0 + off, data, len);
}

/* A register MRd of len bytes; the CplD's 8-byte word to rd_data. */
static void host_mrd(struct eh *h, uint32_t off, unsigned len)
{
    struct eh_tlp *t = q_push(h);
    unsigned n = 0;

    t->type = DEV_TLP_MRD;
    t->tag = ++h->rd_tag;
    t->len = (uint16_t)len;
    t->addr = EH_BAR0 + off;
    h->rd_off = off;
    h->rd_done = 0;
    while (!h->rd_done) {
        eh_step(h);
        if (++n > EH_RD_TIMEOUT)
            fail_msg("register read of 0x%x never completed", off);
    }
}

uint32_t eh_rd32(struct eh *h, uint32_t off)
{
    host_mrd(h, off, 4);
    return h->rd_val;
}

uint64_t eh_rd64(struct eh *h, uint32_t off)
{
    host_mrd(h, off, 8);
    return h->rd_data;
}

void eh_set_mrrs_log2(struct eh *h, unsigned log2)
{
    eh_wr32(h, NICTX_REG_MRRS_LOG2, log2);
    assert_int_equal(eh_rd32(h, NICTX_REG_MRRS_LOG2), log2);
    h->mrrs = 1u << log2;
}

void eh_wc_write(struct eh *h, unsigned buf, unsigned off, const uint64_t *w, unsigned nwords)
{
    if (nwords == 0)
        return;
    host_mwr(h, EH_BAR0 + NICTX_WC_BASE + buf * NICTX_WC_BUF_SIZE + off, w, 8 * nwords);
}

/* ------------------------------------------------------------ engine MRds */

unsigned eh_mrd_count(const struct eh *h, uint64_t addr, unsigned len)
{
    return (unsigned)((addr + len - 1) / h->mrrs - addr / h->mrrs + 1);
}

static int in_ring(const struct eh *h, uint64_t addr)
{
    return addr < h->cfg.ring_bus + ((uint64_t)NICTX_DESC_BYTES << h->ring_log2);
}

/* Check and record an MRd: within one MRRS block (hence never across
 * 4 KiB), in the ring or the buffers. */
static void mrd_record(struct eh *h, const struct dev_beat *b)
{
    struct eh_mrd m = {h->cycle, b->addr, b->len, b->tag, (uint8_t)in_ring(h, b->addr)};

    assert_true(b->len >= 1 && b->len <= h->mrrs);
    assert_int_equal(eh_mrd_count(h, b->addr, b->len), 1);
    if (!m.desc)
        assert_true(b->addr >= h->cfg.buf_bus);
    if (h->n_mrds < EH_MRD_LOG)
        h->mrds[h->n_mrds] = m;
    h->last_mrd = m;
    h->n_mrds++;
    h->n_desc_mrds += m.desc;
    h->tag_seen[b->tag] = 1;
    if (h->tag_busy[b->tag])
        fail_msg("MRd with tag %u, still in flight", b->tag);
    h->tag_busy[b->tag] = 1;
    h->f_count++;
    h->f_bytes += b->len;
    if (h->f_count > h->f_max)
        h->f_max = h->f_count;
    if (h->f_bytes > h->f_bytes_max)
        h->f_bytes_max = h->f_bytes;
    h->mrd_hash = (h->mrd_hash ^ (h->cycle * 0x9E3779B97F4A7C15ull) ^ (b->addr << 16) ^
                   ((uint64_t)b->len << 3) ^ b->tag) * 0x100000001B3ull;
}

/* Queue its completion: memory as the MRd finds it, due cpl_lat later. */
static void mrd_pend(struct eh *h, const struct dev_beat *b)
{
    struct eh_pend *p;

    assert_true(h->p_count < EH_MAX_PEND);
    p = &h->pend[(h->p_head + h->p_count) % EH_MAX_PEND];
    h->p_count++;
    if (h->p_count > h->p_max)
        h->p_max = h->p_count;
    h->p_bytes += b->len;
    if (h->p_bytes > h->p_bytes_max)
        h->p_bytes_max = h->p_bytes;
    p->due = h->cycle + h->cfg.cpl_lat;
    p->addr = b->addr;
    p->len = b->len;
    p->tag = b->tag;
    p->err = 0;
    if (h->err_left && b->addr < h->err_hi && b->addr + b->len > h->err_lo) {
        p->err = 1;
        h->err_left--;
    }
    memcpy(p->data, eh_ptr(h, b->addr, b->len), b->len);
}

/* CplDs of one MRd, split at RCB boundaries; UR ones carry zeros. */
static void cpl_queue(struct eh *h, const struct eh_pend *p)
{
    unsigned off = 0;

    while (off < p->len) {
        uint64_t a = p->addr + off;
        unsigned n = EH_RCB - (unsigned)(a % EH_RCB);
        struct eh_tlp *t;

        if (n > p->len - off)
            n = p->len - off;
        t = q_push(h);
        t->type = DEV_TLP_CPLD;
        t->tag = p->tag;
        t->len = (uint16_t)n;
        t->addr = a;
        t->err = p->err;
        t->rd_len = p->len;
        t->last = off + n == p->len;
        if (!p->err)
            memcpy(t->data, p->data + off, n);
        off += n;
    }
}

/* Completions due and not held, in MRd order, while the queue has room. */
static void issue_cpls(struct eh *h)
{
    while (h->p_count && h->q_count + 4096 / EH_RCB <= EH_MAX_TLPS) {
        struct eh_pend *p = &h->pend[h->p_head];

        if (p->due > h->cycle || (h->hold && p->addr >= h->hold_from))
            break;
        cpl_queue(h, p);
        h->p_bytes -= p->len;
        h->p_head = (h->p_head + 1) % EH_MAX_PEND;
        h->p_count--;
    }
}

void eh_hold(struct eh *h, uint64_t from)
{
    h->hold = 1;
    h->hold_from = from;
}

void eh_release(struct eh *h)
{
    unsigned k;

    for (k = 0; k < h->p_count; k++)
        h->pend[(h->p_head + k) % EH_MAX_PEND].due = h->cycle;
    h->hold = 0;
}

void eh_fail_reads(struct eh *h, uint64_t lo, uint64_t hi, unsigned n)
{
    h->err_lo = lo;
    h->err_hi = hi;
    h->err_left = n;
}

void eh_reset_maxima(struct eh *h)
{
    h->p_max = h->p_count;
    h->p_bytes_max = h->p_bytes;
    h->f_max = h->f_count;
    h->f_bytes_max = h->f_bytes;
}

const struct eh_pend *eh_pending(const struct eh *h, unsigned k)
{
    return k < h->p_count ? &h->pend[(h->p_head + k) % EH_MAX_PEND] : NULL;
}

unsigned eh_desc_reads_of(const struct eh *h, unsigned from, uint32_t idx)
{
    uint64_t a = h->cfg.ring_bus + (uint64_t)idx * NICTX_DESC_BYTES;
    unsigned k, n = 0;

    assert_true(h->n_mrds <= EH_MRD_LOG);
    for (k = from; k < h->n_mrds; k++)
        if (h->mrds[k].addr <= a && h->mrds[k].addr + h->mrds[k].len >= a + NICTX_DESC_BYTES)
            n++;
    return n;
}

/* ------------------------------------------------------------ engine TLPs */

uint64_t eh_beat_value(const struct eh *h, const struct dev_beat *b, unsigned n)
{
    return dev_lanes_get(b->data, (unsigned)(b->addr % h->width), n);
}

/* An MWr beat into host memory (a DESC_WB_FULL write has several: its
 * bytes by the port's lane rule); the whole write to cfg.on_mwr with its
 * last beat. */
static void on_mwr(struct eh *h, const struct dev_beat *b)
{
    if (b->sop)
        h->mwr_beat = 0;
    assert_true(h->mwr_beat < dev_tlp_beats(h->width, b->type, b->addr, b->len));
    if (in_mem(h, b->addr, b->len))
        for (unsigned lane = 0; lane < h->width; lane++) {
            long i = dev_beat_byte(h->width, b->addr, b->len, h->mwr_beat, lane);
            if (i >= 0)
                *(uint8_t *)eh_ptr(h, b->addr + (uint64_t)i, 1) = b->data[lane];
        }
    h->mwr_beat++;
    assert_true(!b->eop || h->mwr_beat == dev_tlp_beats(h->width, b->type, b->addr, b->len));
    if (b->eop && h->cfg.on_mwr)
        h->cfg.on_mwr(h->cfg.user, b);
}

static void on_d2h(struct eh *h, const struct dev_beat *b)
{
    /* the engine sends single-beat TLPs, but DESC_WB_FULL's MWrs */
    assert_true((b->sop && b->eop) || b->type == DEV_TLP_MWR);
    switch (b->type) {
    case DEV_TLP_MRD:
        mrd_record(h, b);
        mrd_pend(h, b);
        break;
    case DEV_TLP_MWR:
        on_mwr(h, b);
        break;
    case DEV_TLP_CPLD:
        assert_int_equal(b->tag, h->rd_tag);
        assert_false(b->err);
        h->rd_val = (uint32_t)dev_lanes_get(b->data, (unsigned)(h->rd_off % h->width), 4);
        h->rd_data = dev_lanes_get(b->data, (unsigned)(h->rd_off % h->width) & ~7u, 8);
        h->rd_done = 1;
        break;
    case DEV_TLP_CPL: /* Unsupported Request: a CPU load reads all ones */
        assert_int_equal(b->tag, h->rd_tag);
        assert_true(b->err);
        assert_int_equal(b->len, 0);
        h->rd_val = 0xFFFFFFFFu;
        h->rd_data = ~0ull;
        h->rd_done = 1;
        break;
    default:
        fail_msg("unknown d2h TLP type %u", b->type);
    }
}

/* ------------------------------------------------------------ wire */

static uint32_t crc32_byte(uint32_t c, uint8_t x)
{
    unsigned b;

    c ^= x;
    for (b = 0; b < 8; b++)
        c = (c >> 1) ^ (0xEDB88320u & -(c & 1u));
    return c;
}

static void wire_sop(struct eh *h, const struct dev_wire_beat *w)
{
    assert_false(h->in_frame);
    if (h->cfg.next_frame && h->n_frames == h->n_exp) {
        assert_true(h->n_exp < h->cfg.max_frames);
        h->exp[h->n_exp] = h->cfg.next_frame(h->cfg.user, w);
        h->exp_bytes += h->exp[h->n_exp].len;
        h->n_exp++;
    }
    if (h->n_frames >= h->n_exp)
        fail_msg("frame %u on the wire, only %u expected", h->n_frames, h->n_exp);
    if (h->n_frames < EH_SOP_LOG)
        h->sop_cycle[h->n_frames] = h->cycle;
    h->in_frame = 1;
    h->cur_off = 0;
    h->cur_crc = 0xFFFFFFFFu;
}

static void wire_eop(struct eh *h, uint32_t fcs)
{
    const struct eh_frame *e = &h->exp[h->n_frames];

    assert_int_equal(h->cur_off, e->len);
    assert_int_equal(fcs, ~h->cur_crc);
    h->wire_bytes += e->len;
    h->n_frames++;
    h->in_frame = 0;
}

/* Each frame is the next expected one, byte for byte, with its FCS. */
static void on_wire(struct eh *h, const struct dev_wire_beat *w)
{
    const struct eh_frame *e;
    const uint8_t *m;
    unsigned i;

    if (w->sop)
        wire_sop(h, w);
    assert_true(h->in_frame);
    e = &h->exp[h->n_frames];
    assert_true(w->bytes >= 1 && w->bytes <= h->width);
    assert_true(w->eop || w->bytes == h->width);
    assert_true(h->cur_off + w->bytes <= e->len);
    m = eh_ptr(h, e->addr + h->cur_off, w->bytes);
    for (i = 0; i < w->bytes; i++) {
        uint8_t x = w->data[i];
        if (x != m[i])
            fail_msg("frame %u: byte %u is 0x%02x, expected 0x%02x", h->n_frames, h->cur_off + i,
                     x, m[i]);
        h->cur_crc = crc32_byte(h->cur_crc, x);
    }
    h->cur_off += w->bytes;
    if (w->eop)
        wire_eop(h, w->fcs);
}

void eh_hold_wire(struct eh *h, int on)
{
    h->wire_hold = on;
}

void eh_hold_d2h(struct eh *h, int on)
{
    h->d2h_hold = on;
}

/* ------------------------------------------------------------ ready stalls */

/* splitmix64: the stall patterns' generator (seeded, repeatable). */
static uint64_t mix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void stream_init(struct eh_stream *s, uint64_t seed, const struct eh_stall *st)
{
    s->rng = seed;
    s->left = 0;
    s->stall.start = st ? st->start : 0;
    s->stall.max_len = st && st->max_len ? st->max_len : 1;
}

void eh_stall(struct eh *h, uint64_t seed, const struct eh_stall *d2h,
              const struct eh_stall *wire)
{
    stream_init(&h->s_d2h, seed * 2 + 1, d2h);
    stream_init(&h->s_wire, seed * 2 + 2, wire);
}

/* This clock's ready on a stream: low within a burst. */
static int stream_ready(struct eh_stream *s)
{
    if (s->left == 0 && s->stall.start) {
        uint64_t r = mix64(&s->rng);
        if ((r & 0xFFFF) < s->stall.start)
            s->left = 1 + (unsigned)((r >> 16) % s->stall.max_len);
    }
    if (s->left == 0)
        return 1;
    s->left--;
    s->low++;
    return 0;
}

static int beat_same(unsigned w, const struct dev_beat *a, const struct dev_beat *b)
{
    return a->valid == b->valid && a->sop == b->sop && a->eop == b->eop && a->type == b->type &&
           a->tag == b->tag && a->len == b->len && a->addr == b->addr &&
           memcmp(a->data, b->data, w) == 0;
}

static int wire_same(unsigned w, const struct dev_wire_beat *a, const struct dev_wire_beat *b)
{
    return a->valid == b->valid && a->sop == b->sop && a->eop == b->eop &&
           a->bytes == b->bytes && memcmp(a->data, b->data, w) == 0 &&
           (!a->eop || a->fcs == b->fcs);
}

/* A beat not taken last clock is offered again, unchanged; whether this
 * one waits. */
static void check_d2h(struct eh *h, const struct dev_beat *b, int ready)
{
    if (h->s_d2h.held && !beat_same(h->width, b, &h->d2h_last))
        fail_msg("clock %llu: a d2h beat offered while ready was low changed or went away",
                 (unsigned long long)h->cycle);
    h->s_d2h.held = b->valid && !ready;
    h->s_d2h.blocked += (uint64_t)h->s_d2h.held;
    h->d2h_last = *b;
}

static void check_wire(struct eh *h, const struct dev_wire_beat *w, int ready)
{
    if (h->s_wire.held && !wire_same(h->width, w, &h->wire_last))
        fail_msg("clock %llu: a wire beat offered while ready was low changed or went away",
                 (unsigned long long)h->cycle);
    h->s_wire.held = w->valid && !ready;
    h->s_wire.blocked += (uint64_t)h->s_wire.held;
    h->wire_last = *w;
}

/* idle: no state changes without host input, so a device idle on a clock
 * with no h2d beat offered is idle on the next (the harness skips such
 * clocks). */
static void check_idle(struct eh *h, int idle, int h2d_offered)
{
    if (h->idle_quiet && !idle)
        fail_msg("clock %llu: the device left idle with no host input",
                 (unsigned long long)h->cycle);
    h->idle_quiet = (uint8_t)(idle && !h2d_offered);
}

/* waiting: as idle, but a read's completion timer counts down: a device
 * waiting on a clock with no h2d beat offered and clocks to spare (wake) is
 * waiting still on the next clock it runs, its wake output one less than
 * before, less the clocks left out before the last clock. */
static void check_wait(struct eh *h, const struct dev_out *out, const struct dev_in *in)
{
    if (h->wait_quiet && h->wake != 0) {
        if (!out->waiting)
            fail_msg("clock %llu: the device left waiting with no host input and wake %u",
                     (unsigned long long)h->cycle, h->wake);
        if (h->wake != UINT32_MAX && out->wake != h->wake_out - 1 - h->skip_last)
            fail_msg("clock %llu: wake %u after %u with %u clocks left out",
                     (unsigned long long)h->cycle, out->wake, h->wake_out, h->skip_last);
    }
    if (out->idle && !out->waiting)
        fail_msg("clock %llu: idle but not waiting", (unsigned long long)h->cycle);
    h->wait_quiet = (uint8_t)(out->waiting && !in->h2d.valid);
    h->waiting = out->waiting;
    h->wake_out = out->wake;
    h->skip_last = in->skip;
    h->wake = out->wake == UINT32_MAX ? UINT32_MAX : out->wake > in->skip ? out->wake - in->skip : 0;
}

/* ------------------------------------------------------------ clocks */

void eh_step(struct eh *h)
{
    struct dev_in in;
    struct dev_out out;

    issue_cpls(h);
    memset(&in, 0, sizeof(in));
    if (h->q_count)
        tlp_beat(h->width, &h->q[h->q_head], h->q_beat, &in.h2d);
    in.d2h_ready = (uint8_t)(stream_ready(&h->s_d2h) && !h->d2h_hold);
    in.wire_ready = (uint8_t)(stream_ready(&h->s_wire) && !h->wire_hold);
    in.skip = h->skip;
    h->skip = 0;
    h->ops->step(h->dev, &in, &out);
    if (h->ops->fault && h->ops->fault(h->dev))
        fail_msg("%s", h->ops->fault(h->dev));
    if (in.h2d.valid && out.h2d_ready)
        q_advance(h, &in.h2d);
    check_d2h(h, &out.d2h, in.d2h_ready);
    check_wire(h, &out.wire, in.wire_ready);
    check_idle(h, out.idle, in.h2d.valid);
    check_wait(h, &out, &in);
    if (out.d2h.valid && in.d2h_ready)
        on_d2h(h, &out.d2h);
    if (out.wire.valid && in.wire_ready)
        on_wire(h, &out.wire);
    h->idle = out.idle;
    h->cycle++;
}

void eh_skip(struct eh *h, unsigned n)
{
    if (!h->wait_quiet || n > h->wake || h->q_count)
        fail_msg("clock %llu: cannot leave out %u clocks (waiting %d, wake %u)",
                 (unsigned long long)h->cycle, n, h->wait_quiet, h->wake);
    h->cycle += n;
    h->skip = n;
}

void eh_run(struct eh *h, unsigned cycles)
{
    while (cycles--)
        eh_step(h);
}

void eh_settle(struct eh *h, unsigned max_cycles)
{
    unsigned quiet = 0, n = 0;

    while (quiet < 16) {
        eh_step(h);
        quiet = (h->idle && !h->q_count && !h->p_count && !h->in_frame) ? quiet + 1 : 0;
        if (++n > max_cycles)
            fail_msg("engine not idle after %u cycles", max_cycles);
    }
}

/* ------------------------------------------------------------ driver side */

void eh_ring_setup(struct eh *h, unsigned log2, uint32_t proto)
{
    h->ring_log2 = log2;
    h->proto = proto;
    eh_wr32(h, NICTX_REG_RING_BASE_LO, (uint32_t)h->cfg.ring_bus);
    eh_wr32(h, NICTX_REG_RING_BASE_HI, (uint32_t)(h->cfg.ring_bus >> 32));
    eh_wr32(h, NICTX_REG_RING_LOG2, log2);
    eh_wr32(h, NICTX_REG_LINE_RATE, EH_LINE_FAST);
    eh_wr32(h, NICTX_REG_PROTO, proto);
}

uint32_t eh_ring_mask(const struct eh *h)
{
    return (1u << h->ring_log2) - 1;
}

uint64_t eh_owner_bit(const struct eh *h, uint32_t p)
{
    if (h->proto == NICTX_PROTO_TAIL || ((p >> h->ring_log2) & 1))
        return 0;
    return (uint64_t)NICTX_DESC_OWNER << 32;
}

void eh_write_desc(struct eh *h, uint32_t idx, uint64_t w0, uint64_t w1)
{
    uint8_t *d = eh_ptr(h, h->cfg.ring_bus + (uint64_t)idx * NICTX_DESC_BYTES, 16);

    memcpy(d, &w0, 8);
    memcpy(d + 8, &w1, 8);
}

void eh_post(struct eh *h, uint64_t addr, unsigned len, int expect, uint64_t *w)
{
    uint64_t w1 = len | eh_owner_bit(h, h->prod);

    assert_true(len >= 1 && len <= NICTX_DESC_LEN_MASK);
    assert_true(addr >= h->cfg.buf_bus && in_mem(h, addr, len));
    eh_write_desc(h, h->prod & eh_ring_mask(h), addr, w1);
    h->prod++;
    if (expect) {
        assert_true(h->n_exp < h->cfg.max_frames);
        h->exp[h->n_exp].addr = addr;
        h->exp[h->n_exp].len = (uint16_t)len;
        h->n_exp++;
        h->exp_bytes += len;
    }
    if (w) {
        w[0] = addr;
        w[1] = w1;
    }
}

void eh_post_raw(struct eh *h, uint64_t w0, uint64_t w1)
{
    eh_write_desc(h, h->prod & eh_ring_mask(h), w0, w1 | eh_owner_bit(h, h->prod));
    h->prod++;
}

void eh_ring_restart(struct eh *h)
{
    uint32_t two_passes = 2u << h->ring_log2;

    h->prod = (h->prod + two_passes - 1) / two_passes * two_passes;
}

void eh_doorbell(struct eh *h)
{
    eh_wr32(h, NICTX_REG_TAIL, h->prod & eh_ring_mask(h));
}

void eh_check_frames(const struct eh *h)
{
    assert_int_equal(h->n_frames, h->n_exp);
    assert_int_equal(h->wire_bytes, h->exp_bytes);
}
