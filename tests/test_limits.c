/*
 * test_limits.c - cmocka tests of the Verilated engine (rtl/) at the limits
 * of its numeric register fields, driven directly through struct
 * device_ops (sim/device.h) like tests/test_engine.c.
 *
 * Each numeric field is exercised at its minimum and maximum with traffic,
 * and one past each bound is rejected (ERR.BAD_ACCESS, or ERR.TAIL_RANGE
 * for TAIL) with the register left unchanged:
 *   RING_LOG2 3 and 16 (65536 slots: the fetch pointer, consumer and head
 *   all wrap 65535 -> 0 with real frames), TAIL at ring size - 1 and at the
 *   ring size, DESC_FETCH_MAX 1 and 32 (reads cut at the ring wrap),
 *   MAX_TAGS 1 and 256 (every tag outstanding at once), MAX_RD_BYTES 4096
 *   and 2^21 - 1 (inert: as 0), MRRS_LOG2 7 and 12 (16383-byte frames),
 *   WB_THRESH and IRQ_THRESH 1 and 65535 (writeback values exact), and
 *   LINE_RATE 1 and 2^24 - 1 (frame start spacing exact).
 *
 * The host model is test_engine's, trimmed for long runs: host memory is
 * filled once with a pattern, so a frame is just (bus address, length) and
 * its wire bytes and FCS are checked against memory as they arrive; MRds
 * are answered with CplDs split at 64-byte boundaries after CPL_LAT cycles
 * (data taken when the MRd arrives); payload completions can be held back
 * (hold_payload) to pile up outstanding reads; every MRd is checked against
 * the programmed MRRS; head writebacks and interrupts are recorded.
 * Tail-mode expectations (frames, bytes, descriptor and payload MRds) are
 * computed as descriptors are posted.  TEST_LIMITS_VERBOSE=1 prints cycles;
 * TEST_LIMITS_FILTER=pattern runs only the matching tests.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "device.h"
#include "nictx_hw.h"

#define BAR0 0xfe000000ull
#define HOST_BASE 0x100000ull
#define HOST_SIZE (2u << 20)
#define RING_BUS HOST_BASE                /* up to 65536 descriptors: 1 MiB */
#define WB_BUS (HOST_BASE + 0x100000u)    /* head writeback word */
#define IRQ_BUS (WB_BUS + 0x100u)         /* MSI-X message address */
#define IRQ_DATA 0x4a11u
#define BUF_BUS (HOST_BASE + 0x110000u)   /* frame buffers */
#define BUF_END (HOST_BASE + HOST_SIZE)
#define CPL_LAT 100u
#define RCB 64u
#define MAX_TLPS 4096                     /* h2d TLPs queued (CplDs <= RCB) */
#define MAX_PEND 512                      /* MRds awaiting completion */
#define MAX_EXP (1u << 18)                /* frames expected in one test */
#define MAX_LOG 64                        /* writebacks, interrupts, frame starts kept */
#define MAX_DESC_LOG 64                   /* descriptor MRds kept */
#define NSLOT 61                          /* small frame buffers, reused */
#define SLOT_STRIDE 128u
#define LINE_MAX 0xFFFFFFu
#define LINE_FAST 0x080000u               /* 8 B/cycle */

struct tlp_in {                  /* a TLP to the device */
    uint8_t type, tag;
    uint16_t len;
    uint64_t addr;
    uint8_t data[RCB];
};

struct pend_cpl {                /* an engine MRd awaiting completion */
    uint64_t due, addr;
    uint16_t len;
    uint8_t tag;
    uint8_t data[4096];          /* host memory as the MRd found it */
};

struct exp_frame {
    uint64_t addr;
    uint16_t len;
};

struct wr_rec {                  /* a head writeback or interrupt */
    uint64_t cycle;
    uint32_t val;
    uint32_t frames;             /* frames on the wire by then */
};

struct host {
    const struct device_ops *ops;
    void *dev;
    uint64_t cycle;
    uint8_t *mem;
    /* host-to-device TLPs in order, one beat per clock */
    struct tlp_in *q;
    unsigned q_head, q_count, q_beat;
    uint64_t q_pushed, q_taken;  /* TLPs queued and taken, ever */
    /* engine MRds waiting for their completions, in issue order */
    struct pend_cpl *pend;
    unsigned p_head, p_count, p_max;
    uint32_t p_bytes, p_bytes_max;
    int hold_payload;            /* completions stop at the first payload MRd */
    /* every engine MRd */
    unsigned n_mrds, n_desc_mrds;
    uint16_t desc_len[MAX_DESC_LOG];
    uint16_t last_desc_len;
    uint8_t tag_seen[256];
    uint8_t last_tag;
    uint64_t mrd_hash;           /* of (cycle, addr, len, tag) of every MRd */
    /* register read */
    uint8_t rd_tag, rd_done;
    uint32_t rd_val;
    uint64_t rd_off;
    /* writebacks and interrupts */
    struct wr_rec wb[MAX_LOG], irq[MAX_LOG];
    unsigned n_wb, n_irq;
    /* wire */
    int wire_hold;               /* wire_ready low */
    int in_frame;
    unsigned cur_off;
    uint32_t cur_crc;
    unsigned n_frames;
    uint64_t wire_bytes;
    uint64_t sop_cycle[MAX_LOG];
    uint8_t idle;
    /* driver side and what it expects */
    unsigned ring_log2, fetch_max, mrrs;
    uint32_t proto;              /* NICTX_PROTO_* */
    unsigned wc_buf;             /* WC buffer for the next block */
    uint32_t prod;               /* descriptors posted, absolute */
    uint32_t tail_prod;          /* prod at the last tail write */
    struct exp_frame *exp;
    unsigned n_exp;
    uint64_t exp_bytes;
    unsigned exp_desc_mrds, exp_pay_mrds, exp_doorbells;
};

/* ------------------------------------------------------------ host model */

static uint8_t pattern(uint64_t i)
{
    return (uint8_t)(i * 131u + (i >> 9) * 7u + (i >> 17) + 1u);
}

static struct tlp_in *q_push(struct host *h)
{
    struct tlp_in *t;

    assert_true(h->q_count < MAX_TLPS);
    t = &h->q[(h->q_head + h->q_count) % MAX_TLPS];
    h->q_count++;
    h->q_pushed++;
    memset(t, 0, offsetof(struct tlp_in, data));
    return t;
}

static unsigned tlp_beats(const struct tlp_in *t)
{
    if (t->type == DEV_TLP_MRD)
        return 1;
    return ((unsigned)(t->addr & 7) + t->len + 7) / 8;
}

/* Beat k of a TLP: lanes follow the address. */
static void tlp_beat(const struct tlp_in *t, unsigned k, struct dev_beat *b)
{
    unsigned lane;
    uint64_t d = 0;

    b->valid = 1;
    b->sop = k == 0;
    b->eop = k + 1 == tlp_beats(t);
    b->type = t->type;
    b->tag = t->tag;
    b->len = t->len;
    b->addr = t->addr;
    if (t->type != DEV_TLP_MRD) {
        for (lane = 0; lane < 8; lane++) {
            long i = (long)k * 8 + (long)lane - (long)(t->addr & 7);
            if (i >= 0 && i < (long)t->len)
                d |= (uint64_t)t->data[i] << (8 * lane);
        }
    }
    b->data = d;
}

static uint8_t *host_ptr(struct host *h, uint64_t addr, unsigned len)
{
    assert_true(addr >= HOST_BASE && addr + len <= HOST_BASE + HOST_SIZE);
    return h->mem + (addr - HOST_BASE);
}

/* MRRS-aligned blocks [addr, addr + len) touches: the MRds it takes. */
static unsigned pieces(uint64_t addr, unsigned len, unsigned mrrs)
{
    return (unsigned)((addr + len - 1) / mrrs - addr / mrrs + 1);
}

static void on_mrd(struct host *h, const struct dev_beat *b)
{
    struct pend_cpl *p;

    /* Every MRd within one MRRS block (hence never across 4 KiB). */
    assert_true(b->len >= 1 && b->len <= h->mrrs);
    assert_int_equal(pieces(b->addr, b->len, h->mrrs), 1);
    if (b->addr < RING_BUS + ((uint64_t)NICTX_DESC_BYTES << h->ring_log2)) {
        if (h->n_desc_mrds < MAX_DESC_LOG)
            h->desc_len[h->n_desc_mrds] = b->len;
        h->last_desc_len = b->len;
        h->n_desc_mrds++;
    } else {
        assert_true(b->addr >= BUF_BUS);
    }
    h->n_mrds++;
    h->tag_seen[b->tag] = 1;
    h->last_tag = b->tag;
    h->mrd_hash = (h->mrd_hash ^ (h->cycle * 0x9E3779B97F4A7C15ull) ^ (b->addr << 16) ^
                   ((uint64_t)b->len << 3) ^ b->tag) * 0x100000001B3ull;

    assert_true(h->p_count < MAX_PEND);
    p = &h->pend[(h->p_head + h->p_count) % MAX_PEND];
    h->p_count++;
    if (h->p_count > h->p_max)
        h->p_max = h->p_count;
    h->p_bytes += b->len;
    if (h->p_bytes > h->p_bytes_max)
        h->p_bytes_max = h->p_bytes;
    p->due = h->cycle + CPL_LAT;
    p->addr = b->addr;
    p->len = b->len;
    p->tag = b->tag;
    memcpy(p->data, host_ptr(h, b->addr, b->len), b->len);
}

/* Completions due, while the queue has room: CplDs split at RCB. */
static void issue_cpls(struct host *h)
{
    while (h->p_count && h->q_count + 4096 / RCB <= MAX_TLPS) {
        struct pend_cpl *p = &h->pend[h->p_head];
        unsigned off = 0;

        if (p->due > h->cycle || (h->hold_payload && p->addr >= BUF_BUS))
            break;
        while (off < p->len) {
            uint64_t a = p->addr + off;
            unsigned n = RCB - (unsigned)(a % RCB);
            struct tlp_in *t;

            if (n > p->len - off)
                n = p->len - off;
            t = q_push(h);
            t->type = DEV_TLP_CPLD;
            t->tag = p->tag;
            t->len = (uint16_t)n;
            t->addr = a;
            memcpy(t->data, p->data + off, n);
            off += n;
        }
        h->p_bytes -= p->len;
        h->p_head = (h->p_head + 1) % MAX_PEND;
        h->p_count--;
    }
}

/* End a hold: every pending completion is due now, in MRd order. */
static void release_payload(struct host *h)
{
    unsigned k;

    for (k = 0; k < h->p_count; k++)
        h->pend[(h->p_head + k) % MAX_PEND].due = h->cycle;
    h->hold_payload = 0;
}

static void record(struct wr_rec *r, unsigned *n, const struct host *h, uint32_t val)
{
    if (*n < MAX_LOG) {
        r[*n].cycle = h->cycle;
        r[*n].val = val;
        r[*n].frames = h->n_frames;
    }
    (*n)++;
}

static void on_d2h(struct host *h, const struct dev_beat *b)
{
    uint32_t v;

    assert_true(b->sop && b->eop); /* the engine sends single-beat TLPs */
    switch (b->type) {
    case DEV_TLP_MRD:
        on_mrd(h, b);
        break;
    case DEV_TLP_MWR:
        assert_int_equal(b->len, 4);
        v = (uint32_t)(b->data >> (8 * (b->addr & 7)));
        if (b->addr == WB_BUS)
            record(h->wb, &h->n_wb, h, v);
        else if (b->addr == IRQ_BUS)
            record(h->irq, &h->n_irq, h, v);
        else
            fail_msg("MWr to unexpected address 0x%llx", (unsigned long long)b->addr);
        memcpy(host_ptr(h, b->addr, 4), &v, 4);
        break;
    case DEV_TLP_CPLD:
        assert_int_equal(b->tag, h->rd_tag);
        h->rd_val = (uint32_t)(b->data >> (8 * (h->rd_off & 7)));
        h->rd_done = 1;
        break;
    default:
        fail_msg("unknown d2h TLP type %u", b->type);
    }
}

static uint32_t crc32_byte(uint32_t c, uint8_t x)
{
    unsigned b;

    c ^= x;
    for (b = 0; b < 8; b++)
        c = (c >> 1) ^ (0xEDB88320u & -(c & 1u));
    return c;
}

/* Wire beats: each frame is the next expected one, byte for byte, with its
 * FCS. */
static void on_wire(struct host *h, const struct dev_wire_beat *w)
{
    const struct exp_frame *e;
    const uint8_t *m;
    unsigned i;

    if (w->sop) {
        assert_false(h->in_frame);
        if (h->n_frames >= h->n_exp)
            fail_msg("frame %u on the wire, only %u posted", h->n_frames, h->n_exp);
        if (h->n_frames < MAX_LOG)
            h->sop_cycle[h->n_frames] = h->cycle;
        h->in_frame = 1;
        h->cur_off = 0;
        h->cur_crc = 0xFFFFFFFFu;
    }
    assert_true(h->in_frame);
    e = &h->exp[h->n_frames];
    assert_true(w->bytes >= 1 && w->bytes <= 8);
    assert_true(h->cur_off + w->bytes <= e->len);
    m = host_ptr(h, e->addr + h->cur_off, w->bytes);
    for (i = 0; i < w->bytes; i++) {
        uint8_t x = (uint8_t)(w->data >> (8 * i));
        if (x != m[i])
            fail_msg("frame %u: byte %u is 0x%02x, expected 0x%02x", h->n_frames, h->cur_off + i,
                     x, m[i]);
        h->cur_crc = crc32_byte(h->cur_crc, x);
    }
    h->cur_off += w->bytes;
    if (w->eop) {
        assert_int_equal(h->cur_off, e->len);
        assert_int_equal(w->fcs, ~h->cur_crc);
        h->wire_bytes += e->len;
        h->n_frames++;
        h->in_frame = 0;
    }
}

/* One device clock. */
static void host_step(struct host *h)
{
    struct dev_in in;
    struct dev_out out;

    issue_cpls(h);
    memset(&in, 0, sizeof(in));
    if (h->q_count)
        tlp_beat(&h->q[h->q_head], h->q_beat, &in.h2d);
    in.d2h_ready = 1;
    in.wire_ready = !h->wire_hold;
    h->ops->step(h->dev, &in, &out);
    if (in.h2d.valid && out.h2d_ready) {
        if (in.h2d.eop) {
            h->q_head = (h->q_head + 1) % MAX_TLPS;
            h->q_count--;
            h->q_taken++;
            h->q_beat = 0;
        } else {
            h->q_beat++;
        }
    }
    if (out.d2h.valid)
        on_d2h(h, &out.d2h);
    if (out.wire.valid && in.wire_ready)
        on_wire(h, &out.wire);
    h->idle = out.idle;
    h->cycle++;
}

static void host_run(struct host *h, unsigned cycles)
{
    while (cycles--)
        host_step(h);
}

/* Run until the engine is idle with nothing pending on either side for a
 * few clocks; fails after max_cycles. */
static void host_settle(struct host *h, unsigned max_cycles)
{
    unsigned quiet = 0, n = 0;

    while (quiet < 16) {
        host_step(h);
        quiet = (h->idle && !h->q_count && !h->p_count && !h->in_frame) ? quiet + 1 : 0;
        if (++n > max_cycles)
            fail_msg("engine not idle after %u cycles", max_cycles);
    }
}

static void reg_wr32(struct host *h, uint32_t off, uint32_t val)
{
    struct tlp_in *t = q_push(h);

    t->type = DEV_TLP_MWR;
    t->len = 4;
    t->addr = BAR0 + off;
    memcpy(t->data, &val, 4);
}

static uint32_t reg_rd32(struct host *h, uint32_t off)
{
    struct tlp_in *t = q_push(h);
    unsigned n = 0;

    t->type = DEV_TLP_MRD;
    t->tag = ++h->rd_tag;
    t->len = 4;
    t->addr = BAR0 + off;
    h->rd_off = off;
    h->rd_done = 0;
    while (!h->rd_done) {
        host_step(h);
        if (++n > 200000)
            fail_msg("register read of 0x%x never completed", off);
    }
    return h->rd_val;
}

/* ------------------------------------------------------------ driver model */

static uint32_t ring_mask(const struct host *h)
{
    return (1u << h->ring_log2) - 1;
}

/* The owner bit for the descriptor posted as number p (absolute): the
 * ring pass's phase, 1 on the first. */
static uint64_t owner_bit(const struct host *h, uint32_t p)
{
    if (h->proto == NICTX_PROTO_TAIL || ((p >> h->ring_log2) & 1))
        return 0;
    return (uint64_t)NICTX_DESC_OWNER << 32;
}

/* Post one frame of len bytes at bus address addr. */
static void post(struct host *h, uint64_t addr, unsigned len)
{
    uint8_t *d = host_ptr(h, RING_BUS + (uint64_t)(h->prod & ring_mask(h)) * NICTX_DESC_BYTES, 16);
    uint64_t w1 = len | owner_bit(h, h->prod);

    assert_true(len >= 1 && len <= NICTX_DESC_LEN_MASK);
    assert_true(addr >= BUF_BUS && addr + len <= BUF_END);
    assert_true(h->n_exp < MAX_EXP);
    memcpy(d, &addr, 8);
    memcpy(d + 8, &w1, 8);
    h->prod++;
    h->exp[h->n_exp].addr = addr;
    h->exp[h->n_exp].len = (uint16_t)len;
    h->n_exp++;
    h->exp_bytes += len;
    h->exp_pay_mrds += pieces(addr, len, h->mrrs);
}

/* A small frame (1..64 bytes) from buffer slot seq % NSLOT. */
static void post_small(struct host *h, uint32_t seq)
{
    unsigned s = seq % NSLOT;

    post(h, BUF_BUS + (uint64_t)s * SLOT_STRIDE + s % 8, 1 + (s * 23u) % 64);
}

/* Descriptor MRds for k descriptors from ring index `from`, fetched after
 * one tail write: reads of min(left, DESC_FETCH_MAX, up to the wrap)
 * descriptors, each split at MRRS. */
static unsigned desc_mrds(const struct host *h, uint32_t from, uint32_t k)
{
    uint32_t ring = 1u << h->ring_log2;
    unsigned n = 0;

    while (k) {
        uint32_t c = k < h->fetch_max ? k : h->fetch_max;
        if (c > ring - from)
            c = ring - from;
        n += pieces(RING_BUS + (uint64_t)from * NICTX_DESC_BYTES, c * NICTX_DESC_BYTES, h->mrrs);
        from = (from + c) & (ring - 1);
        k -= c;
    }
    return n;
}

/* Tail write for everything posted.  The expected descriptor MRds (tail
 * protocol) assume the fetcher has caught up with the previous tail, or
 * that batches are whole reads (tests ensure one or the other). */
static void doorbell(struct host *h)
{
    h->exp_desc_mrds += desc_mrds(h, h->tail_prod & ring_mask(h), h->prod - h->tail_prod);
    h->exp_doorbells++;
    h->tail_prod = h->prod;
    reg_wr32(h, NICTX_REG_TAIL, h->prod & ring_mask(h));
}

/* WC: push the last posted descriptor as a 64-byte block (one MWr) into
 * the next WC buffer; its close is the doorbell and moves the tail. */
static void wc_push_last(struct host *h)
{
    uint32_t idx = (h->prod - 1) & ring_mask(h);
    const uint8_t *d = host_ptr(h, RING_BUS + (uint64_t)idx * NICTX_DESC_BYTES, 16);
    struct tlp_in *t = q_push(h);

    t->type = DEV_TLP_MWR;
    t->len = NICTX_WC_BLOCK;
    t->addr = BAR0 + NICTX_WC_BASE + h->wc_buf * NICTX_WC_BUF_SIZE;
    memset(t->data, 0, NICTX_WC_BLOCK);
    memcpy(t->data, d, 16);
    memcpy(t->data + NICTX_WC_IDX_OFF, &idx, 2);
    h->wc_buf ^= 1;
    h->exp_doorbells++;
    h->tail_prod = h->prod;
}

static void set_fetch_max(struct host *h, unsigned n)
{
    h->fetch_max = n;
    reg_wr32(h, NICTX_REG_DESC_FETCH_MAX, n);
}

static void set_mrrs_log2(struct host *h, unsigned log2)
{
    reg_wr32(h, NICTX_REG_MRRS_LOG2, log2);
    assert_int_equal(reg_rd32(h, NICTX_REG_MRRS_LOG2), log2);
    h->mrrs = 1u << log2; /* on_mrd checks against it from now on */
}

/* A ring of 2^log2 in protocol `proto`, wire fast enough to be no
 * bottleneck, head writeback and interrupt addresses set (thresholds 0:
 * off). */
static void engine_init_proto(struct host *h, unsigned log2, uint32_t proto)
{
    h->ring_log2 = log2;
    h->proto = proto;
    reg_wr32(h, NICTX_REG_PROTO, proto);
    reg_wr32(h, NICTX_REG_RING_BASE_LO, (uint32_t)RING_BUS);
    reg_wr32(h, NICTX_REG_RING_BASE_HI, 0);
    reg_wr32(h, NICTX_REG_RING_LOG2, log2);
    reg_wr32(h, NICTX_REG_LINE_RATE, LINE_FAST);
    reg_wr32(h, NICTX_REG_WB_ADDR_LO, (uint32_t)WB_BUS);
    reg_wr32(h, NICTX_REG_WB_ADDR_HI, 0);
    reg_wr32(h, NICTX_REG_IRQ_ADDR_LO, (uint32_t)IRQ_BUS);
    reg_wr32(h, NICTX_REG_IRQ_ADDR_HI, 0);
    reg_wr32(h, NICTX_REG_IRQ_DATA, IRQ_DATA);
    reg_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    assert_int_equal(reg_rd32(h, NICTX_REG_RING_LOG2), log2);
    assert_int_equal(reg_rd32(h, NICTX_REG_PROTO), proto);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);
}

static void engine_init(struct host *h, unsigned log2)
{
    engine_init_proto(h, log2, NICTX_PROTO_TAIL);
}

/* Everything posted was sent, in order, and the device's counters agree
 * exactly with what the host posted, saw and expected. */
static void check_counters(struct host *h)
{
    uint64_t bytes;

    assert_int_equal(h->n_frames, h->n_exp);
    assert_int_equal(h->wire_bytes, h->exp_bytes);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_PKTS), h->n_exp);
    bytes = reg_rd32(h, NICTX_REG_CNT_BYTES_LO);
    bytes |= (uint64_t)reg_rd32(h, NICTX_REG_CNT_BYTES_HI) << 32;
    assert_int_equal(bytes, h->exp_bytes);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), h->prod & ring_mask(h));
    assert_int_equal(reg_rd32(h, NICTX_REG_TAIL), h->prod & ring_mask(h));
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_DOORBELL), h->exp_doorbells);
    if (h->proto == NICTX_PROTO_TAIL) /* owner bits: fetching is speculative */
        assert_int_equal(h->n_desc_mrds, h->exp_desc_mrds);
    assert_int_equal(h->n_mrds - h->n_desc_mrds, h->exp_pay_mrds);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_DESC_RD), h->n_desc_mrds);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_DMA_RD), h->n_mrds);
}

/* ------------------------------------------------------------ fixtures */

static void host_free(struct host *h)
{
    if (!h)
        return;
    if (h->dev)
        h->ops->destroy(h->dev);
    free(h->mem);
    free(h->q);
    free(h->pend);
    free(h->exp);
    free(h);
}

static struct host *host_new(void)
{
    struct host *h = calloc(1, sizeof(*h));
    unsigned i;

    if (!h)
        return NULL;
    h->mem = malloc(HOST_SIZE);
    h->q = calloc(MAX_TLPS, sizeof(*h->q));
    h->pend = calloc(MAX_PEND, sizeof(*h->pend));
    h->exp = calloc(MAX_EXP, sizeof(*h->exp));
    h->ops = &dev_rtl_ops;
    h->dev = h->mem && h->q && h->pend && h->exp ? h->ops->create() : NULL;
    if (!h->dev) {
        host_free(h);
        return NULL;
    }
    for (i = 0; i < HOST_SIZE; i++)
        h->mem[i] = pattern(HOST_BASE + i);
    h->ops->reset(h->dev);
    /* reset values the host's checks depend on */
    h->ring_log2 = 8;
    h->fetch_max = 8;
    h->mrrs = 512;
    return h;
}

static int setup(void **state)
{
    *state = host_new();
    return *state ? 0 : -1;
}

static int teardown(void **state)
{
    struct host *h = *state;

    if (getenv("TEST_LIMITS_VERBOSE"))
        printf("  %llu cycles, %u MRds, %u frames\n", (unsigned long long)h->cycle, h->n_mrds,
               h->n_frames);
    host_free(h);
    return 0;
}

/* ------------------------------------------------------------ registers */

/* A value the register takes: read back as written, no error. */
static void accepts(struct host *h, uint32_t off, uint32_t val)
{
    reg_wr32(h, off, val);
    assert_int_equal(reg_rd32(h, off), val);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);
}

/* A value out of range: the error bit, the register unchanged. */
static void rejects(struct host *h, uint32_t off, uint32_t val, uint32_t err)
{
    uint32_t before = reg_rd32(h, off);

    reg_wr32(h, off, val);
    assert_int_equal(reg_rd32(h, off), before);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), err);
    reg_wr32(h, NICTX_REG_ERR, err);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);
}

/* Every numeric field takes its minimum and maximum and rejects one past
 * each bound (boundary cases: the value next to each limit). */
static void test_limits_register_bounds(void **state)
{
    struct host *h = *state;
    static const struct {
        uint32_t off, min, max;
        int has_below; /* min - 1 exists and is invalid */
    } f[] = {
        {NICTX_REG_RING_LOG2, 3, 16, 1},
        {NICTX_REG_MRRS_LOG2, 7, 12, 1},
        {NICTX_REG_LINE_RATE, 1, LINE_MAX, 1},
        {NICTX_REG_DESC_FETCH_MAX, 1, 32, 1},
        {NICTX_REG_MAX_TAGS, 1, 256, 1},
        {NICTX_REG_MAX_RD_BYTES, 4096, 0x1FFFFF, 1}, /* 0 (no limit) apart */
        {NICTX_REG_WB_THRESH, 0, 0xFFFF, 0},
        {NICTX_REG_IRQ_THRESH, 0, 0xFFFF, 0},
        {NICTX_REG_PROTO, NICTX_PROTO_TAIL, NICTX_PROTO_WC, 0},
    };
    unsigned i;

    for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
        accepts(h, f[i].off, f[i].min);
        if (f[i].has_below)
            rejects(h, f[i].off, f[i].min - 1, NICTX_ERR_BAD_ACCESS);
        accepts(h, f[i].off, f[i].max);
        rejects(h, f[i].off, f[i].max + 1, NICTX_ERR_BAD_ACCESS);
        rejects(h, f[i].off, 0xFFFFFFFFu, NICTX_ERR_BAD_ACCESS);
    }
    accepts(h, NICTX_REG_MAX_RD_BYTES, 0);
    rejects(h, NICTX_REG_MAX_RD_BYTES, 1, NICTX_ERR_BAD_ACCESS);
    accepts(h, NICTX_REG_PROTO, NICTX_PROTO_TAIL);

    /* TAIL: ring size - 1 is taken (a doorbell), the ring size is not. */
    accepts(h, NICTX_REG_RING_LOG2, 3);
    accepts(h, NICTX_REG_TAIL, 7);
    rejects(h, NICTX_REG_TAIL, 8, NICTX_ERR_TAIL_RANGE);
    accepts(h, NICTX_REG_RING_LOG2, 16);
    accepts(h, NICTX_REG_TAIL, 0xFFFF);
    rejects(h, NICTX_REG_TAIL, 0x10000, NICTX_ERR_TAIL_RANGE);
    rejects(h, NICTX_REG_TAIL, 0xFFFFFFFFu, NICTX_ERR_TAIL_RANGE);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_DOORBELL), 2);
    host_settle(h, 1000); /* disabled: nothing fetched */
    assert_int_equal(h->n_mrds, 0);
}

/* ------------------------------------------------------------ ring size */

/* RING_LOG2 = 3: 6 laps of 7 frames (TAIL reaches 7 = size - 1, the most a
 * tail ring holds) with DESC_FETCH_MAX 32, so every read is cut by the
 * ring, not the limit; TAIL = 8 is out of range. */
static void test_limits_ring_log2_min(void **state)
{
    struct host *h = *state;
    unsigned lap, i;
    uint32_t seq = 0;

    engine_init(h, 3);
    set_fetch_max(h, 32);
    for (lap = 0; lap < 6; lap++) {
        for (i = 0; i < 7; i++)
            post_small(h, seq++);
        doorbell(h);
        if (lap == 0)
            assert_int_equal(reg_rd32(h, NICTX_REG_TAIL), 7);
        host_settle(h, 20000);
        assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), h->prod & ring_mask(h));
    }
    /* reads: 7, then two per lap, cut at the wrap (laps start at 7, 6, 5,
     * 4, 3): 11 */
    assert_int_equal(h->exp_desc_mrds, 11);
    check_counters(h);
    rejects(h, NICTX_REG_TAIL, 8, NICTX_ERR_TAIL_RANGE);
    host_settle(h, 1000);
    check_counters(h);
}

/* RING_LOG2 = 16 (65536 slots), which used to send nothing: 65535 frames
 * (TAIL = 65535, size - 1), then, once the fetcher has read up to the tail
 * and before the head reaches it, 200 more across the wrap (index 65535,
 * then 0..198).  The fetch pointer, the consumer and the head all go
 * 65535 -> 0; a read of 1 descriptor precedes the wrap.  TAIL = 65536 is
 * out of range.  WB_THRESH and IRQ_THRESH are at their maximum, 65535:
 * exactly one writeback (and interrupt) after 65535 completions, then one
 * when the queue goes idle. */
static void test_limits_ring_log2_max_wrap(void **state)
{
    struct host *h = *state;
    uint32_t seq = 0, last_desc;
    uint64_t tail_tlp;
    unsigned i, n = 0;

    engine_init(h, 16);
    set_fetch_max(h, 32);
    reg_wr32(h, NICTX_REG_LINE_RATE, LINE_MAX);
    reg_wr32(h, NICTX_REG_WB_THRESH, 0xFFFF);
    reg_wr32(h, NICTX_REG_IRQ_THRESH, 0xFFFF);
    for (i = 0; i < 65535; i++)
        post_small(h, seq++);
    doorbell(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_TAIL), 0xFFFF);

    /* The fetcher reads descriptor 65534 last (in a read of 31). */
    last_desc = h->exp_desc_mrds;
    while (h->n_desc_mrds < last_desc) {
        host_step(h);
        if (++n > 2000000)
            fail_msg("descriptor reads stopped at %u of %u", h->n_desc_mrds, last_desc);
    }
    assert_int_equal(h->last_desc_len, 31 * NICTX_DESC_BYTES);
    assert_int_equal(h->n_wb + h->n_irq, 0);
    for (i = 0; i < 200; i++)
        post_small(h, seq++);
    doorbell(h); /* 1 (index 65535), then 0..198: 6 x 32 + 7 */
    assert_int_equal(h->exp_desc_mrds, last_desc + 1 + 7);
    tail_tlp = h->q_pushed;
    while (h->q_taken < tail_tlp) /* the TAIL write, behind CplDs */
        host_step(h);
    /* The new tail is in before the head reached the old one (a frame on
     * the wire trails its completion by a cycle or two). */
    assert_true(h->n_frames + 4 < 65535);
    assert_int_equal(h->n_wb, 0);
    host_settle(h, 2000000);
    check_counters(h);
    assert_int_equal(h->n_frames, 65735);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);

    /* Head writeback: the head after exactly 65535 completions, then the
     * idle one; likewise the interrupts, each after its writeback. */
    assert_int_equal(h->n_wb, 2);
    assert_int_equal(h->wb[0].val, 65535);
    assert_true(h->wb[0].frames >= 65535 && h->wb[0].frames < 65535 + 8);
    assert_int_equal(h->wb[1].val, 199);
    assert_int_equal(h->n_irq, 2);
    assert_int_equal(h->irq[0].val, IRQ_DATA);
    assert_int_equal(h->irq[1].val, IRQ_DATA);
    assert_true(h->irq[0].cycle > h->wb[0].cycle && h->irq[0].cycle < h->wb[1].cycle);
    assert_true(h->irq[1].cycle > h->wb[1].cycle);

    rejects(h, NICTX_REG_TAIL, 0x10000, NICTX_ERR_TAIL_RANGE);
    host_settle(h, 1000);
    check_counters(h);
}

/* RING_LOG2 = 16 with owner bits: a full ring of 65536 descriptors
 * (phase 1), then 1000 more on the second pass (phase 0).  The fetcher
 * reads up to a whole ring ahead, the consumer wraps 65535 -> 0 and its
 * phase flips.  OWNER rings the TAIL register
 * and reads past the posted descriptors (finding them not owned); WC
 * pushes the last descriptor of each batch as a block (index 65535, then
 * 999: both used, the first closing with tail (65535 + 1) & mask = 0) and
 * reads only what was published. */
static void ring_max_owner(struct host *h, uint32_t proto)
{
    uint32_t seq = 0;
    unsigned i, n = 0;

    engine_init_proto(h, 16, proto);
    set_fetch_max(h, 32);
    reg_wr32(h, NICTX_REG_LINE_RATE, LINE_MAX);
    for (i = 0; i < 65536; i++)
        post_small(h, seq++);
    if (proto == NICTX_PROTO_WC)
        wc_push_last(h);
    else
        doorbell(h);
    /* OWNER: on once 2000 have left.  WC: once the block for 65535 is used
     * (a newer block would replace the one held). */
    while (proto == NICTX_PROTO_WC ? reg_rd32(h, NICTX_REG_CNT_WC) == 0 : h->n_frames < 2000) {
        host_run(h, 1000);
        if (++n > 2000)
            fail_msg("%u frames after %u cycles", h->n_frames, n * 1000);
    }
    assert_true(h->n_frames < 65536);
    for (i = 0; i < 1000; i++)
        post_small(h, seq++);
    if (proto == NICTX_PROTO_WC)
        wc_push_last(h);
    else
        doorbell(h);
    host_settle(h, 2000000);
    check_counters(h);
    assert_int_equal(h->n_frames, 66536);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);
    if (proto == NICTX_PROTO_WC) {
        assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC), 2);
        assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC_DROP), 0);
        /* fetching stops at the pushed index: nothing read too early */
        assert_int_equal(reg_rd32(h, NICTX_REG_CNT_NOT_OWNED), 0);
    } else {
        assert_true(reg_rd32(h, NICTX_REG_CNT_NOT_OWNED) > 0);
    }
}

static void test_limits_ring_log2_max_owner(void **state)
{
    ring_max_owner(*state, NICTX_PROTO_OWNER);
}

static void test_limits_ring_log2_max_wc(void **state)
{
    ring_max_owner(*state, NICTX_PROTO_WC);
}

/* ------------------------------------------------------------ descriptor fetch */

/* DESC_FETCH_MAX = 1: one 16-byte read per descriptor, across the wrap of
 * a 64-entry ring. */
static void test_limits_desc_fetch_max_1(void **state)
{
    struct host *h = *state;
    uint32_t seq = 0;
    unsigned b, i;

    engine_init(h, 6);
    set_fetch_max(h, 1);
    for (b = 0; b < 2; b++) {
        for (i = 0; i < 40; i++)
            post_small(h, seq++);
        doorbell(h);
        host_settle(h, 50000);
    }
    assert_int_equal(h->exp_desc_mrds, 80);
    for (i = 0; i < MAX_DESC_LOG; i++)
        assert_int_equal(h->desc_len[i], NICTX_DESC_BYTES);
    check_counters(h);
}

/* DESC_FETCH_MAX = 32: 40 descriptors are read as 32 + 8; the next 40
 * (from index 40 of a 64-entry ring) as 24 up to the wrap + 16. */
static void test_limits_desc_fetch_max_32(void **state)
{
    struct host *h = *state;
    static const uint16_t lens[] = {512, 128, 384, 256};
    uint32_t seq = 0;
    unsigned b, i;

    engine_init(h, 6);
    set_fetch_max(h, 32);
    for (b = 0; b < 2; b++) {
        for (i = 0; i < 40; i++)
            post_small(h, seq++);
        doorbell(h);
        host_settle(h, 50000);
    }
    assert_int_equal(h->exp_desc_mrds, 4);
    check_counters(h);
    for (i = 0; i < 4; i++)
        assert_int_equal(h->desc_len[i], lens[i]);
}

/* ------------------------------------------------------------ DMA read limits */

/* 1000-byte frames 8 bytes short of a 128-byte boundary: 9 MRds of <= 128
 * bytes each at MRRS 128, 125 buffer words; 32 of them fill the payload
 * buffer (4000 of 4096 words). */
static void post_split_frames(struct host *h, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++)
        post(h, BUF_BUS + 0x1000 + (uint64_t)i * 0x400 + 120, 1000);
}

/* MAX_TAGS = 1: one MRd outstanding at a time, never two. */
static void test_limits_max_tags_1(void **state)
{
    struct host *h = *state;

    engine_init(h, 8);
    set_mrrs_log2(h, 7);
    reg_wr32(h, NICTX_REG_MAX_TAGS, 1);
    post_split_frames(h, 8);
    doorbell(h);
    host_settle(h, 100000);
    assert_int_equal(h->exp_pay_mrds, 8 * 9);
    check_counters(h);
    assert_int_equal(h->p_max, 1);
    assert_true(reg_rd32(h, NICTX_REG_CNT_RD_STALL) > 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);
}

/* MAX_TAGS = 256: with payload completions held, 64 descriptors (2 reads
 * of 32 = 8 MRds at MRRS 128) and 32 frames' worth of payload MRds
 * (288) pile up: exactly 256 are outstanding, on 256 distinct tags (the
 * last 8 from the free list: the descriptor reads' tags 0..7), and the
 * rest stall.  Released, everything is sent. */
static void test_limits_max_tags_256(void **state)
{
    struct host *h = *state;
    uint32_t stall;
    unsigned i, tags = 0;

    engine_init(h, 8);
    set_mrrs_log2(h, 7);
    set_fetch_max(h, 32);
    reg_wr32(h, NICTX_REG_MAX_TAGS, 256);
    assert_int_equal(reg_rd32(h, NICTX_REG_MAX_TAGS), 256);
    h->hold_payload = 1;
    post_split_frames(h, 64);
    doorbell(h);
    host_run(h, 3000);
    assert_int_equal(h->n_desc_mrds, 8);
    assert_int_equal(h->n_mrds, 8 + 256);
    assert_int_equal(h->p_count, 256);
    for (i = 0; i < 256; i++)
        tags += h->tag_seen[i];
    assert_int_equal(tags, 256);
    assert_int_equal(h->last_tag, 7);
    stall = reg_rd32(h, NICTX_REG_CNT_RD_STALL);
    assert_true(stall > 2000);
    host_run(h, 100);
    assert_int_equal(h->n_mrds, 8 + 256);
    assert_true(reg_rd32(h, NICTX_REG_CNT_RD_STALL) > stall);

    release_payload(h);
    host_settle(h, 200000);
    assert_int_equal(h->exp_pay_mrds, 64 * 9);
    check_counters(h);
    assert_int_equal(h->p_max, 256);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);
}

/* Three 8192-byte frames 3 bytes past a 4 KiB boundary: 3 MRds each at
 * MRRS 4096 (4093, 4096, 3 bytes), 1025 buffer words each. */
static void post_page_frames(struct host *h)
{
    unsigned i;

    for (i = 0; i < 3; i++)
        post(h, BUF_BUS + 0x1000 + (uint64_t)i * 0x3000 + 3, 8192);
}

/* MAX_RD_BYTES = 4096 (its smallest limit) at MRRS 4096: never more than
 * 4096 requested bytes outstanding, and the full 4096-byte MRd goes out
 * alone. */
static void test_limits_max_rd_bytes_min(void **state)
{
    struct host *h = *state;

    engine_init(h, 8);
    set_mrrs_log2(h, 12);
    reg_wr32(h, NICTX_REG_MAX_TAGS, 256);
    reg_wr32(h, NICTX_REG_MAX_RD_BYTES, 4096);
    post_page_frames(h);
    doorbell(h);
    host_settle(h, 100000);
    assert_int_equal(h->exp_pay_mrds, 9);
    check_counters(h);
    assert_int_equal(h->p_bytes_max, 4096);
    assert_true(reg_rd32(h, NICTX_REG_CNT_RD_STALL) > 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);
}

/* The page-frame workload with payload completions held, then released;
 * returns the hash of every MRd (cycle, address, length, tag). */
static uint64_t run_held_pages(struct host *h, uint32_t max_rd)
{
    engine_init(h, 8);
    set_mrrs_log2(h, 12);
    reg_wr32(h, NICTX_REG_MAX_TAGS, 256);
    reg_wr32(h, NICTX_REG_MAX_RD_BYTES, max_rd);
    assert_int_equal(reg_rd32(h, NICTX_REG_MAX_RD_BYTES), max_rd);
    h->hold_payload = 1;
    post_page_frames(h);
    doorbell(h);
    host_run(h, 2000);
    assert_int_equal(h->p_bytes, 3 * 8192); /* all of it requested at once */
    release_payload(h);
    host_settle(h, 100000);
    check_counters(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_RD_STALL), 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);
    return h->mrd_hash;
}

/* MAX_RD_BYTES = 2^21 - 1 limits nothing (outstanding bytes cannot exceed
 * 256 tags x 4096): the same MRds, cycle for cycle, as 0 (no limit) on a
 * fresh device.  (One device at a time: Verilator 5.006 deadlocks when a
 * model is destroyed while another, created later, is alive or was.) */
static void test_limits_max_rd_bytes_max(void **state)
{
    struct host *h = *state;
    uint64_t hash, cycles;

    hash = run_held_pages(h, 0x1FFFFF);
    cycles = h->cycle;
    host_free(h);
    *state = h = host_new();
    assert_non_null(h);
    assert_int_equal(run_held_pages(h, 0), hash);
    assert_int_equal(h->cycle, cycles);
}

/* 16383-byte frames (the largest length) 5 bytes into a buffer, and a
 * 1-byte one, at MRRS 2^log2: each MRd within one MRRS block (on_mrd),
 * exactly as many as the blocks the frames touch. */
static void mrrs_case(struct host *h, unsigned log2, unsigned exp_pay)
{
    engine_init(h, 8);
    set_mrrs_log2(h, log2);
    post(h, BUF_BUS + 0x1000 + 5, 16383);
    post(h, BUF_BUS + 0x6000 + 127, 1);
    post(h, BUF_BUS + 0x8000 + 5, 16383);
    doorbell(h);
    host_settle(h, 100000);
    assert_int_equal(h->exp_pay_mrds, exp_pay);
    check_counters(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);
}

static void test_limits_mrrs_log2_min(void **state)
{
    mrrs_case(*state, 7, 2 * 129 + 1);
}

static void test_limits_mrrs_log2_max(void **state)
{
    mrrs_case(*state, 12, 2 * 5 + 1);
}

/* ------------------------------------------------------------ completions */

/* WB_THRESH = IRQ_THRESH = 1: after each completion a writeback of the
 * new head, then an interrupt; none when the queue goes idle (nothing
 * left to write back). */
static void test_limits_thresh_min(void **state)
{
    struct host *h = *state;
    unsigned i;

    engine_init(h, 4);
    reg_wr32(h, NICTX_REG_WB_THRESH, 1);
    reg_wr32(h, NICTX_REG_IRQ_THRESH, 1);
    for (i = 0; i < 12; i++)
        post(h, BUF_BUS + 0x1000 + (uint64_t)i * 128, 60 + i); /* 9 beats or more apart */
    doorbell(h);
    host_settle(h, 20000);
    check_counters(h);
    assert_int_equal(h->n_wb, 12);
    assert_int_equal(h->n_irq, 12);
    for (i = 0; i < 12; i++) {
        assert_int_equal(h->wb[i].val, (i + 1) & ring_mask(h));
        assert_int_equal(h->irq[i].val, IRQ_DATA);
        assert_true(h->irq[i].cycle > h->wb[i].cycle);
        if (i + 1 < 12)
            assert_true(h->irq[i].cycle < h->wb[i + 1].cycle);
    }
}

/* WB_THRESH = IRQ_THRESH = 65535 on a 1024-entry ring kept busy for
 * 131072 frames (batches of 32, never drained): writebacks of the head
 * after exactly 65535 and 131070 completions (1023 and 1022), then the idle
 * one (0); an interrupt after each. */
static void test_limits_thresh_max(void **state)
{
    struct host *h = *state;
    uint32_t seq = 0;
    unsigned i, n = 0;

    engine_init(h, 10);
    set_fetch_max(h, 32);
    reg_wr32(h, NICTX_REG_LINE_RATE, LINE_MAX);
    reg_wr32(h, NICTX_REG_WB_THRESH, 0xFFFF);
    reg_wr32(h, NICTX_REG_IRQ_THRESH, 0xFFFF);
    assert_int_equal(reg_rd32(h, NICTX_REG_WB_THRESH), 0xFFFF);
    assert_int_equal(reg_rd32(h, NICTX_REG_IRQ_THRESH), 0xFFFF);
    while (h->prod < 131072) {
        /* The device has completed at least the frames on the wire. */
        if (h->prod - h->n_frames <= 1023 - 32) {
            for (i = 0; i < 32; i++)
                post_small(h, seq++);
            doorbell(h);
        }
        host_step(h);
        if (++n > 4000000)
            fail_msg("%u frames after %u cycles", h->n_frames, n);
        if (h->n_frames > 64 && h->n_frames < 131000)
            assert_true(h->prod - h->n_frames > 8); /* never drained */
    }
    host_settle(h, 100000);
    check_counters(h);
    assert_int_equal(h->n_wb, 3);
    assert_int_equal(h->wb[0].val, 65535 & 1023);
    assert_int_equal(h->wb[1].val, 131070 & 1023);
    assert_int_equal(h->wb[2].val, 0);
    for (i = 0; i < 2; i++)
        assert_true(h->wb[i].frames >= 65535 * (i + 1) && h->wb[i].frames < 65535 * (i + 1) + 8);
    assert_int_equal(h->n_irq, 3);
    for (i = 0; i < 3; i++) {
        assert_int_equal(h->irq[i].val, IRQ_DATA);
        assert_true(h->irq[i].cycle > h->wb[i].cycle);
    }
}

/* ------------------------------------------------------------ line rate */

/* LINE_RATE = 1 (1/65536 byte per cycle): a 1-byte frame costs
 * (1 + 24) x 65536 cycles of credit, so the second frame starts exactly
 * that long after the first. */
static void test_limits_line_rate_min(void **state)
{
    struct host *h = *state;

    engine_init(h, 4);
    reg_wr32(h, NICTX_REG_LINE_RATE, 1);
    post(h, BUF_BUS + 0x1000, 1);
    post(h, BUF_BUS + 0x1003, 1);
    doorbell(h);
    while (h->n_frames < 2) {
        host_step(h);
        if (h->cycle > 2000000)
            fail_msg("second frame not sent after %llu cycles", (unsigned long long)h->cycle);
    }
    assert_int_equal(h->sop_cycle[1] - h->sop_cycle[0], (1 + 24) * 65536ull);
    reg_wr32(h, NICTX_REG_LINE_RATE, LINE_MAX); /* pay off the second frame's debt */
    host_settle(h, 1000);
    check_counters(h);
}

/* LINE_RATE = 2^24 - 1 (256 bytes per cycle): never the bottleneck.  With
 * the wire held until 16 one-byte frames are buffered, they leave on 16
 * consecutive cycles (at 8 B/cycle it would be one per 4). */
static void test_limits_line_rate_max(void **state)
{
    struct host *h = *state;
    unsigned i;

    engine_init(h, 5);
    reg_wr32(h, NICTX_REG_LINE_RATE, LINE_MAX);
    assert_int_equal(reg_rd32(h, NICTX_REG_LINE_RATE), LINE_MAX);
    h->wire_hold = 1;
    for (i = 0; i < 16; i++)
        post(h, BUF_BUS + 0x1000 + (uint64_t)i * 64 + i % 8, 1 + i % 8);
    doorbell(h);
    host_run(h, 3000);
    assert_int_equal(h->p_count, 0);
    h->wire_hold = 0;
    host_settle(h, 20000);
    check_counters(h);
    for (i = 1; i < 16; i++)
        assert_int_equal(h->sop_cycle[i], h->sop_cycle[0] + i);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_limits_register_bounds, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_ring_log2_min, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_ring_log2_max_wrap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_ring_log2_max_owner, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_ring_log2_max_wc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_desc_fetch_max_1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_desc_fetch_max_32, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_max_tags_1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_max_tags_256, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_max_rd_bytes_min, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_max_rd_bytes_max, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_mrrs_log2_min, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_mrrs_log2_max, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_thresh_min, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_thresh_max, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_line_rate_min, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_line_rate_max, setup, teardown),
    };
    if (getenv("TEST_LIMITS_FILTER")) /* e.g. "*ring*" */
        cmocka_set_test_filter(getenv("TEST_LIMITS_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
