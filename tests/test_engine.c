/*
 * test_engine.c - cmocka tests of the Verilated engine (rtl/) driven
 * directly through struct device_ops (sim/device.h): the three ownership
 * protocols (tail doorbell, owner bit, write-combining push) and the DMA
 * error path.
 *
 * A small host model lives here: host memory (a byte array at HOST_BASE),
 * register MWr/MRd and WC MWr TLPs sent as beats, the engine's MRds answered
 * with CplDs split at 64-byte boundaries after a fixed latency (the data is
 * taken when the MRd arrives, as a root complex would; a test may hold the
 * completions and release them back to back), the engine's MWrs written to
 * host memory, and the wire frames collected and checked (bytes and FCS)
 * against what was posted.  TEST_ENGINE_VERBOSE=1 prints cycles, MRds and
 * frames per test.
 *
 * Boundary cases: PROTO's first invalid value; phase flips over several
 * ring wraps; a not-owned descriptor in the middle of a batch; a doorbell
 * arriving while the read it should have covered is in flight; WC blocks at
 * the fetch pointer, behind a batch from the ring, behind a read still in
 * flight, for a descriptor already fetched (owned and not owned ring copy),
 * already sent (stale), torn (with and without its index) and on a full
 * ring; UR completions of a payload read and of a descriptor read (tail,
 * owner, and WC with the read retiring behind inserted blocks); random
 * batches and timing in owner and WC.
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

#define BAR0 0xfe000000ull        /* bus address of BAR0 */
#define HOST_BASE 0x10000ull      /* bus address of host memory byte 0 */
#define HOST_SIZE (1u << 20)
#define RING_BUS HOST_BASE        /* descriptor ring */
#define BUF_BUS (HOST_BASE + 0x10000u) /* frame buffers, one per posted frame */
#define BUF_STRIDE 512u
#define CPL_LAT 100u              /* cycles from an MRd to its first CplD */
#define RCB 64u
#define MAX_TLPS 512
#define MAX_PEND 512
#define MAX_FRAMES 512
#define MAX_MRDS 4096

struct tlp_in {                  /* a TLP to the device */
    uint8_t type, tag, err;
    uint16_t len;
    uint64_t addr;
    uint8_t data[4096];
};

struct pend_cpl {                /* an engine MRd awaiting completion */
    uint64_t due, addr;
    uint16_t len;
    uint8_t tag, err;
    uint8_t data[4096];          /* host memory as the MRd found it */
};

struct mrd_rec {
    uint64_t addr;
    uint16_t len;
};

struct frame {
    uint16_t len;
    uint32_t fcs;
    uint8_t data[2048];
};

struct host {
    const struct device_ops *ops;
    void *dev;
    uint64_t cycle;
    uint8_t *mem;
    /* host-to-device TLPs in order, presented one beat per clock */
    struct tlp_in *q;
    unsigned q_head, q_count, q_beat;
    /* engine MRds waiting for their completions (due order = issue order) */
    struct pend_cpl *pend;
    unsigned p_head, p_count;
    /* every engine MRd */
    struct mrd_rec mrds[MAX_MRDS];
    unsigned n_mrds;
    /* UR injection: completions for reads overlapping [err_lo, err_hi) */
    uint64_t err_lo, err_hi;
    unsigned err_left; /* reads still to fail */
    int hold;          /* completions wait until this is cleared */
    /* register read */
    uint8_t rd_tag, rd_done;
    uint32_t rd_val;
    uint64_t rd_off;
    /* wire */
    struct frame *frames;
    unsigned n_frames, cur_len;
    int in_frame;
    unsigned wire_err;
    uint8_t idle;
    /* driver side */
    unsigned ring_log2;
    uint32_t prod;       /* descriptors posted, absolute */
    uint32_t expect[MAX_FRAMES]; /* frame seq numbers expected on the wire, in order */
    unsigned n_expect;
    uint32_t seq;        /* frames made */
};

/* ------------------------------------------------------------ host model */

static struct tlp_in *q_push(struct host *h)
{
    struct tlp_in *t;

    assert_true(h->q_count < MAX_TLPS);
    t = &h->q[(h->q_head + h->q_count) % MAX_TLPS];
    h->q_count++;
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
    b->err = t->err;
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

static void on_mrd(struct host *h, const struct dev_beat *b)
{
    struct pend_cpl *p;

    assert_true(h->n_mrds < MAX_MRDS);
    h->mrds[h->n_mrds].addr = b->addr;
    h->mrds[h->n_mrds].len = b->len;
    h->n_mrds++;
    assert_true(h->p_count < MAX_PEND);
    assert_true(b->len >= 1 && b->len <= 4096);
    p = &h->pend[(h->p_head + h->p_count) % MAX_PEND];
    h->p_count++;
    p->due = h->cycle + CPL_LAT;
    p->addr = b->addr;
    p->len = b->len;
    p->tag = b->tag;
    p->err = 0;
    if (h->err_left && b->addr < h->err_hi && b->addr + b->len > h->err_lo) {
        p->err = 1;
        h->err_left--;
    }
    memcpy(p->data, host_ptr(h, b->addr, b->len), b->len);
}

/* Completions due: CplDs split at RCB boundaries; UR ones carry zeros. */
static void issue_cpls(struct host *h)
{
    while (!h->hold && h->p_count && h->pend[h->p_head].due <= h->cycle) {
        struct pend_cpl *p = &h->pend[h->p_head];
        unsigned off = 0;

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
            t->err = p->err;
            if (!p->err)
                memcpy(t->data, p->data + off, n);
            off += n;
        }
        h->p_head = (h->p_head + 1) % MAX_PEND;
        h->p_count--;
    }
}

/* End a hold: every pending completion is due now, in MRd order. */
static void release_cpls(struct host *h)
{
    unsigned k;

    for (k = 0; k < h->p_count; k++)
        h->pend[(h->p_head + k) % MAX_PEND].due = h->cycle;
    h->hold = 0;
}

static void on_d2h(struct host *h, const struct dev_beat *b)
{
    unsigned lane;

    assert_true(b->sop && b->eop); /* the engine sends single-beat TLPs */
    switch (b->type) {
    case DEV_TLP_MRD:
        on_mrd(h, b);
        break;
    case DEV_TLP_MWR:
        if (b->addr >= HOST_BASE && b->addr + b->len <= HOST_BASE + HOST_SIZE) {
            uint8_t *m = host_ptr(h, b->addr, b->len);
            for (lane = 0; lane < b->len; lane++)
                m[lane] = (uint8_t)(b->data >> (8 * ((b->addr & 7) + lane)));
        }
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

static void on_wire(struct host *h, const struct dev_wire_beat *w)
{
    struct frame *f;
    unsigned i;

    if (w->sop) {
        assert_false(h->in_frame);
        assert_true(h->n_frames < MAX_FRAMES);
        h->in_frame = 1;
        h->cur_len = 0;
    }
    assert_true(h->in_frame);
    f = &h->frames[h->n_frames];
    assert_true(w->bytes >= 1 && w->bytes <= 8);
    for (i = 0; i < w->bytes; i++) {
        assert_true(h->cur_len < sizeof(f->data));
        f->data[h->cur_len++] = (uint8_t)(w->data >> (8 * i));
    }
    if (w->eop) {
        f->len = (uint16_t)h->cur_len;
        f->fcs = w->fcs;
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
    in.wire_ready = 1;
    h->ops->step(h->dev, &in, &out);
    h->cycle++;
    if (in.h2d.valid && out.h2d_ready) {
        if (in.h2d.eop) {
            h->q_head = (h->q_head + 1) % MAX_TLPS;
            h->q_count--;
            h->q_beat = 0;
        } else {
            h->q_beat++;
        }
    }
    if (out.d2h.valid)
        on_d2h(h, &out.d2h);
    if (out.wire.valid)
        on_wire(h, &out.wire);
    h->idle = out.idle;
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
        if (++n > 100000)
            fail_msg("register read of 0x%x never completed", off);
    }
    return h->rd_val;
}

/* An MWr of nwords 8-byte words to the WC window at byte offset `off` of
 * buffer `buf`. */
static void wc_write(struct host *h, unsigned buf, unsigned off, const uint64_t *w, unsigned nwords)
{
    struct tlp_in *t;

    if (nwords == 0)
        return;
    t = q_push(h);
    t->type = DEV_TLP_MWR;
    t->len = (uint16_t)(8 * nwords);
    t->addr = BAR0 + NICTX_WC_BASE + buf * NICTX_WC_BUF_SIZE + off;
    memcpy(t->data, w, 8 * nwords);
}

/* ------------------------------------------------------------ driver model */

static uint8_t frame_byte(uint32_t seq, unsigned i)
{
    return (uint8_t)(seq * 29u + i * 7u + (i >> 8) + 1u);
}

static uint16_t frame_len(uint32_t seq)
{
    return (uint16_t)(60 + (seq * 37u) % 200);
}

static uint64_t frame_bus(uint32_t seq)
{
    return BUF_BUS + (uint64_t)seq * BUF_STRIDE + (seq % 8); /* any alignment */
}

/* Make frame `seq` in its buffer and its descriptor words. */
static void make_frame(struct host *h, uint32_t seq, uint64_t *w0, uint64_t *w1, int owner)
{
    uint16_t len = frame_len(seq);
    uint8_t *p = host_ptr(h, frame_bus(seq), len);
    unsigned i;

    for (i = 0; i < len; i++)
        p[i] = frame_byte(seq, i);
    *w0 = frame_bus(seq);
    *w1 = len | (owner ? (uint64_t)NICTX_DESC_OWNER << 32 : 0);
}

static void write_desc(struct host *h, uint32_t idx, uint64_t w0, uint64_t w1)
{
    uint8_t *d = host_ptr(h, RING_BUS + (uint64_t)idx * NICTX_DESC_BYTES, 16);

    memcpy(d, &w0, 8);
    memcpy(d + 8, &w1, 8);
}

static uint32_t ring_mask(const struct host *h)
{
    return (1u << h->ring_log2) - 1;
}

/* The owner bit for the descriptor posted as number p (absolute). */
static int phase_of(const struct host *h, uint32_t p)
{
    return !((p >> h->ring_log2) & 1);
}

/* Post one frame at the producer index, expected on the wire unless
 * `expect` is 0.  Returns the descriptor words. */
static void post(struct host *h, int owner_proto, int expect, uint64_t *w0, uint64_t *w1)
{
    uint32_t seq = h->seq++;
    uint64_t a, b;

    make_frame(h, seq, &a, &b, owner_proto ? phase_of(h, h->prod) : 0);
    write_desc(h, h->prod & ring_mask(h), a, b);
    h->prod++;
    if (expect) {
        assert_true(h->n_expect < MAX_FRAMES);
        h->expect[h->n_expect++] = seq;
    }
    if (w0)
        *w0 = a;
    if (w1)
        *w1 = b;
}

static void doorbell(struct host *h)
{
    reg_wr32(h, NICTX_REG_TAIL, h->prod & ring_mask(h));
}

static uint32_t crc32_ieee(const uint8_t *p, unsigned n)
{
    uint32_t c = 0xFFFFFFFFu;
    unsigned i, b;

    for (i = 0; i < n; i++) {
        c ^= p[i];
        for (b = 0; b < 8; b++)
            c = (c >> 1) ^ (0xEDB88320u & -(c & 1u));
    }
    return ~c;
}

/* Every frame on the wire is the expected one, in order, with its FCS. */
static void check_frames(const struct host *h)
{
    unsigned k, i;

    assert_int_equal(h->n_frames, h->n_expect);
    for (k = 0; k < h->n_frames; k++) {
        const struct frame *f = &h->frames[k];
        uint32_t seq = h->expect[k];

        assert_int_equal(f->len, frame_len(seq));
        for (i = 0; i < f->len; i++)
            if (f->data[i] != frame_byte(seq, i))
                fail_msg("frame %u (seq %u): byte %u is 0x%02x, expected 0x%02x", k, seq, i,
                         f->data[i], frame_byte(seq, i));
        assert_int_equal(f->fcs, crc32_ieee(f->data, f->len));
    }
}

/* Descriptor MRds since MRd number `from` that cover ring index idx. */
static unsigned desc_reads_of(const struct host *h, unsigned from, uint32_t idx)
{
    uint64_t a = RING_BUS + (uint64_t)idx * NICTX_DESC_BYTES;
    unsigned k, n = 0;

    for (k = from; k < h->n_mrds; k++)
        if (h->mrds[k].addr <= a && h->mrds[k].addr + h->mrds[k].len >= a + NICTX_DESC_BYTES)
            n++;
    return n;
}

static unsigned desc_reads(const struct host *h)
{
    unsigned k, n = 0;

    for (k = 0; k < h->n_mrds; k++)
        if (h->mrds[k].addr < BUF_BUS)
            n++;
    return n;
}

/* ------------------------------------------------------------ fixtures */

static int setup(void **state)
{
    struct host *h = calloc(1, sizeof(*h));

    if (!h)
        return -1;
    h->mem = calloc(1, HOST_SIZE);
    h->q = calloc(MAX_TLPS, sizeof(*h->q));
    h->pend = calloc(MAX_PEND, sizeof(*h->pend));
    h->frames = calloc(MAX_FRAMES, sizeof(*h->frames));
    h->ops = &dev_rtl_ops;
    h->dev = h->mem && h->q && h->pend && h->frames ? h->ops->create() : NULL;
    if (!h->dev)
        return -1;
    h->ops->reset(h->dev);
    *state = h;
    return 0;
}

static int teardown(void **state)
{
    struct host *h = *state;

    if (getenv("TEST_ENGINE_VERBOSE"))
        printf("  %llu cycles, %u MRds, %u frames\n", (unsigned long long)h->cycle, h->n_mrds,
               h->n_frames);
    if (h->dev)
        h->ops->destroy(h->dev);
    free(h->mem);
    free(h->q);
    free(h->pend);
    free(h->frames);
    free(h);
    return 0;
}

/* Ring of 2^log2 descriptors, protocol, enabled. */
static void engine_init(struct host *h, unsigned log2, uint32_t proto)
{
    h->ring_log2 = log2;
    reg_wr32(h, NICTX_REG_RING_BASE_LO, (uint32_t)RING_BUS);
    reg_wr32(h, NICTX_REG_RING_BASE_HI, 0);
    reg_wr32(h, NICTX_REG_RING_LOG2, log2);
    reg_wr32(h, NICTX_REG_LINE_RATE, 0x080000); /* 8 B/cycle: the wire is no bottleneck */
    reg_wr32(h, NICTX_REG_PROTO, proto);
    reg_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    assert_int_equal(reg_rd32(h, NICTX_REG_PROTO), proto);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);
}

/* ------------------------------------------------------------ tests */

/* Register behaviour of PROTO and the WC window. */
static void test_engine_proto_register(void **state)
{
    struct host *h = *state;
    uint64_t w[8] = {0};

    assert_int_equal(reg_rd32(h, NICTX_REG_PROTO), NICTX_PROTO_TAIL); /* reset */
    reg_wr32(h, NICTX_REG_PROTO, NICTX_PROTO_WC);
    assert_int_equal(reg_rd32(h, NICTX_REG_PROTO), NICTX_PROTO_WC);
    reg_wr32(h, NICTX_REG_PROTO, 3); /* boundary: first invalid value */
    assert_int_equal(reg_rd32(h, NICTX_REG_PROTO), NICTX_PROTO_WC);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    reg_wr32(h, NICTX_REG_ERR, NICTX_ERR_BAD_ACCESS);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);

    /* An MRd of the WC window: bad access, zeros. */
    assert_int_equal(reg_rd32(h, NICTX_WC_BASE), 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    reg_wr32(h, NICTX_REG_ERR, NICTX_ERR_BAD_ACCESS);

    /* In OWNER (and TAIL) a WC write is a bad access and ignored. */
    reg_wr32(h, NICTX_REG_PROTO, NICTX_PROTO_OWNER);
    w[2] = 0;
    wc_write(h, 0, 0, w, 8);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC_DROP), 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_DOORBELL), 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_TAIL), 0);
    reg_wr32(h, NICTX_REG_ERR, NICTX_ERR_BAD_ACCESS);

    /* In WC a misaligned or odd-sized WC write is a bad access too. */
    reg_wr32(h, NICTX_REG_PROTO, NICTX_PROTO_WC);
    reg_wr32(h, NICTX_WC_BASE + 4, 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_DOORBELL), 0);
    host_settle(h, 1000);
}

/* Tail mode: several wraps of a 16-entry ring, batches of 5. */
static void test_engine_tail_sends_frames(void **state)
{
    struct host *h = *state;
    unsigned b, i;

    engine_init(h, 4, NICTX_PROTO_TAIL);
    for (b = 0; b < 8; b++) {
        for (i = 0; i < 5; i++)
            post(h, 0, 1, NULL, NULL);
        doorbell(h);
        host_settle(h, 20000);
        assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), h->prod & ring_mask(h));
    }
    check_frames(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_PKTS), 40);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_NOT_OWNED), 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);
}

/* Owner mode: 3.5 laps of a 16-entry ring with the owner bit's phase
 * flipping each lap; descriptors left from the previous lap are never sent
 * again.  Half the batches are posted while the engine is still busy. */
static void test_engine_owner_in_order_across_wraps(void **state)
{
    struct host *h = *state;
    uint32_t done = 0;
    unsigned b, i, n;

    engine_init(h, 4, NICTX_PROTO_OWNER);
    for (b = 0; b < 14; b++) {
        /* Post 4 when at most 12 are outstanding (the head register
         * cannot tell 16 completed from none). */
        for (n = 0;; n++) {
            uint32_t head = reg_rd32(h, NICTX_REG_HEAD);
            done += (head - done) & ring_mask(h);
            if (h->prod - done + 4 <= 12)
                break;
            assert_true(n < 1000);
            host_run(h, 50);
        }
        for (i = 0; i < 4; i++)
            post(h, 1, 1, NULL, NULL);
        doorbell(h);
        host_run(h, b % 2 ? 30 : 400);
    }
    host_settle(h, 50000);
    check_frames(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), h->prod & ring_mask(h));
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_PKTS), 56);
    /* Fetching past the posted descriptors finds them not owned. */
    assert_true(reg_rd32(h, NICTX_REG_CNT_NOT_OWNED) > 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);
}

/* Owner mode: a descriptor with the wrong owner bit stops the engine; once
 * the driver sets it and rings again, it and the rest are sent. */
static void test_engine_owner_not_owned_stops(void **state)
{
    struct host *h = *state;
    uint64_t w0, w1;
    uint32_t n0;

    engine_init(h, 5, NICTX_PROTO_OWNER);
    post(h, 1, 1, NULL, NULL);
    post(h, 1, 1, NULL, NULL);
    post(h, 1, 1, &w0, &w1);
    write_desc(h, 2, w0, w1 & ~((uint64_t)NICTX_DESC_OWNER << 32)); /* not handed over */
    post(h, 1, 1, NULL, NULL);
    doorbell(h);
    host_settle(h, 20000);
    assert_int_equal(h->n_frames, 2);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 2);
    n0 = reg_rd32(h, NICTX_REG_CNT_NOT_OWNED);
    assert_true(n0 >= 2); /* descriptor 2 and at least 3 after it */
    host_run(h, 2000);    /* stopped: nothing more happens */
    assert_int_equal(h->n_frames, 2);

    write_desc(h, 2, w0, w1);
    doorbell(h);
    host_settle(h, 20000);
    check_frames(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 4);
    assert_true(reg_rd32(h, NICTX_REG_CNT_NOT_OWNED) > n0); /* slot 4 onwards */
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);
}

/* Owner mode: the driver posts and rings while the engine's read is in
 * flight and has already seen host memory; the doorbell must not be lost. */
static void test_engine_owner_doorbell_during_read(void **state)
{
    struct host *h = *state;
    unsigned n = 0;

    engine_init(h, 6, NICTX_PROTO_OWNER);
    post(h, 1, 1, NULL, NULL);
    doorbell(h);
    while (desc_reads(h) == 0) {
        host_step(h);
        assert_true(++n < 10000);
    }
    /* The read took memory as it was: descriptor 1 not yet there. */
    post(h, 1, 1, NULL, NULL);
    doorbell(h);
    host_settle(h, 20000);
    check_frames(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 2);
    assert_true(desc_reads_of(h, 0, 1) >= 2); /* read again after the flush */
}

/* WC: a complete block at the fetch pointer is used without a descriptor
 * read; then a batch whose last descriptor is pushed: the others come from
 * the ring, the pushed one from the block. */
static void test_engine_wc_block_at_fetch_pointer(void **state)
{
    struct host *h = *state;
    uint64_t blk[8] = {0};
    unsigned i, m;

    engine_init(h, 6, NICTX_PROTO_WC);
    post(h, 1, 1, &blk[0], &blk[1]);
    blk[2] = 0; /* ring index */
    wc_write(h, 0, 0, blk, 8);
    host_settle(h, 20000);
    check_frames(h);
    assert_int_equal(desc_reads_of(h, 0, 0), 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC), 1);
    assert_int_equal(reg_rd32(h, NICTX_REG_TAIL), 1);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 1);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_DOORBELL), 1);

    /* Batch 1..4, the block (index 4) in the other buffer, as two MWrs. */
    m = h->n_mrds;
    for (i = 0; i < 4; i++)
        post(h, 1, 1, &blk[0], &blk[1]);
    blk[2] = 4;
    wc_write(h, 1, 0, blk, 3);
    wc_write(h, 1, 24, blk + 3, 5);
    host_settle(h, 20000);
    check_frames(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC), 2);
    assert_int_equal(desc_reads_of(h, m, 4), 0);
    for (i = 1; i < 4; i++)
        assert_int_equal(desc_reads_of(h, m, i), 1);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC_DROP), 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 5);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);
}

/* WC: a torn block (word 7 without word 0) is dropped; the close still
 * rings, and the ring copy is fetched and sent. */
static void test_engine_wc_torn_block(void **state)
{
    struct host *h = *state;
    uint64_t blk[8] = {0};
    unsigned m;

    engine_init(h, 6, NICTX_PROTO_WC);
    post(h, 1, 1, &blk[0], &blk[1]);
    blk[2] = 0;
    wc_write(h, 0, 8, blk + 1, 7); /* words 1..7 */
    host_settle(h, 20000);
    check_frames(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC_DROP), 1);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC), 0);
    assert_true(desc_reads_of(h, 0, 0) >= 1);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 1);

    /* The torn state does not leak into the next block of that buffer. */
    m = h->n_mrds;
    post(h, 1, 1, &blk[0], &blk[1]);
    blk[2] = 1;
    wc_write(h, 0, 0, blk, 8);
    host_settle(h, 20000);
    check_frames(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC), 1);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC_DROP), 1);
    assert_int_equal(desc_reads_of(h, m, 1), 0);

    /* Nor does that complete block's state: words 1..7 alone are torn again
     * (word 0 written before the previous close does not count). */
    post(h, 1, 1, &blk[0], &blk[1]);
    blk[2] = 2;
    wc_write(h, 0, 8, blk + 1, 7);
    host_settle(h, 20000);
    check_frames(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC), 1);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC_DROP), 2);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 3);

    /* Torn without its index (words 0, 1, 7): the tail stays, yet the ring
     * copy is still fetched and sent. */
    post(h, 1, 1, &blk[0], &blk[1]);
    wc_write(h, 1, 0, blk, 2);
    wc_write(h, 1, 56, blk + 7, 1);
    host_settle(h, 20000);
    check_frames(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC_DROP), 3);
    assert_int_equal(reg_rd32(h, NICTX_REG_TAIL), 3);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 4);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);
}

/* WC: a block whose descriptor the engine already fetched from the ring
 * (it was armed and running) is dropped as stale. */
static void test_engine_wc_stale_block(void **state)
{
    struct host *h = *state;
    uint64_t blk[8] = {0};

    engine_init(h, 6, NICTX_PROTO_WC);
    post(h, 1, 1, NULL, NULL);
    doorbell(h); /* arms via the tail register */
    host_settle(h, 20000);
    post(h, 1, 1, &blk[0], &blk[1]);
    doorbell(h);
    host_settle(h, 20000); /* descriptor 1 fetched and sent from the ring */
    blk[2] = 1;
    wc_write(h, 1, 0, blk, 8);
    host_settle(h, 20000);
    check_frames(h); /* not sent twice */
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC), 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC_DROP), 1);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 2);
}

/* WC: a block arriving while the read of its descriptor is in flight is
 * held.  The ring copy is owned: it is sent from the ring (once), and the
 * block is dropped once that copy has left. */
static void test_engine_wc_block_while_read_in_flight(void **state)
{
    struct host *h = *state;
    uint64_t blk[8] = {0};
    unsigned i, n = 0;

    engine_init(h, 6, NICTX_PROTO_WC);
    for (i = 0; i < 4; i++)
        post(h, 1, 1, &blk[0], &blk[1]);
    doorbell(h); /* a TAIL write: fetch 0..3 */
    while (desc_reads(h) == 0) {
        host_step(h);
        assert_true(++n < 10000);
    }
    blk[2] = 3;
    wc_write(h, 0, 0, blk, 8);
    host_run(h, 12);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC_DROP), 0); /* held */
    assert_true(h->p_count >= 1 && h->pend[h->p_head].addr == RING_BUS);
    host_settle(h, 20000);
    check_frames(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC), 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC_DROP), 1);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_NOT_OWNED), 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 4);
    assert_int_equal(desc_reads_of(h, 0, 3), 1);
}

/* WC: the ring copy read before the driver's owner store landed is not
 * owned; the block held for that index replaces it at the head (no flush,
 * no second read). */
static void test_engine_wc_block_replaces_unowned_copy(void **state)
{
    struct host *h = *state;
    uint64_t blk[8] = {0};
    unsigned n = 0;

    engine_init(h, 6, NICTX_PROTO_WC);
    reg_wr32(h, NICTX_REG_DESC_FETCH_MAX, 1); /* one read per descriptor */
    post(h, 1, 1, NULL, NULL);
    post(h, 1, 1, &blk[0], &blk[1]);
    write_desc(h, 1, blk[0], blk[1] & ~((uint64_t)NICTX_DESC_OWNER << 32)); /* not yet */
    doorbell(h); /* tail 2: two reads */
    while (desc_reads(h) < 2) {
        host_step(h);
        assert_true(++n < 10000);
    }
    blk[2] = 1;
    wc_write(h, 1, 0, blk, 8); /* while both reads are out */
    host_settle(h, 20000);
    check_frames(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC), 1);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC_DROP), 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_NOT_OWNED), 0);
    assert_int_equal(desc_reads_of(h, 0, 1), 1);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 2);
}

/* WC: blocks at the fetch pointer are inserted behind a read still in
 * flight (in order), so back-to-back blocks are all used. */
static void test_engine_wc_blocks_queue_behind_read(void **state)
{
    struct host *h = *state;
    uint64_t blk[8] = {0};
    unsigned i, n = 0;

    engine_init(h, 6, NICTX_PROTO_WC);
    for (i = 0; i < 3; i++)
        post(h, 1, 1, NULL, NULL);
    doorbell(h); /* tail 3: read 0..2 */
    while (desc_reads(h) == 0) {
        host_step(h);
        assert_true(++n < 10000);
    }
    for (i = 3; i < 5; i++) { /* blocks 3 and 4 while that read is out */
        post(h, 1, 1, &blk[0], &blk[1]);
        blk[2] = i;
        wc_write(h, i & 1, 0, blk, 8);
    }
    host_run(h, 30);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC), 2);
    assert_int_equal(h->n_frames, 0); /* still behind the read */
    host_settle(h, 20000);
    check_frames(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC_DROP), 0);
    assert_int_equal(desc_reads_of(h, 0, 3) + desc_reads_of(h, 0, 4), 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 5);
}

/* WC with a full ring (owner bits allow all 8 slots in use): two passes of
 * 8 descriptors each closed by a block for the last index; on the second
 * pass that block is torn, so all 8 come from the ring. */
static void test_engine_wc_full_ring(void **state)
{
    struct host *h = *state;
    uint64_t blk[8] = {0};
    unsigned lap, i;

    engine_init(h, 3, NICTX_PROTO_WC);
    for (lap = 0; lap < 2; lap++) {
        for (i = 0; i < 8; i++)
            post(h, 1, 1, &blk[0], &blk[1]);
        blk[2] = 7;
        if (lap == 0)
            wc_write(h, 0, 0, blk, 8);
        else
            wc_write(h, 1, 8, blk + 1, 7); /* torn: no word 0 */
        host_settle(h, 20000);
        check_frames(h);
        assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 0);
        assert_int_equal(reg_rd32(h, NICTX_REG_TAIL), 0);
    }
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC), 1);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC_DROP), 1);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_NOT_OWNED), 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);
}

/* WC with a UR: read A, two blocks inserted behind it, then read B whose
 * completion fails; all completions arrive back to back, so B retires while
 * a block is still ahead of it.  A and the blocks are sent; B's descriptor
 * is not (WC: rewind, nothing counted) until ERR.DMA is cleared. */
static void test_engine_wc_ur_behind_blocks(void **state)
{
    struct host *h = *state;
    uint64_t blk[8] = {0};
    unsigned i, n = 0;

    engine_init(h, 6, NICTX_PROTO_WC);
    h->hold = 1;
    post(h, 1, 1, NULL, NULL);
    post(h, 1, 1, NULL, NULL);
    doorbell(h); /* read A: 0..1 */
    for (i = 2; i < 4; i++) {
        post(h, 1, 1, &blk[0], &blk[1]);
        blk[2] = i;
        wc_write(h, i & 1, 0, blk, 8);
    }
    post(h, 1, 1, NULL, NULL);
    doorbell(h); /* read B: 4 */
    h->err_lo = RING_BUS + 4 * NICTX_DESC_BYTES;
    h->err_hi = h->err_lo + NICTX_DESC_BYTES;
    h->err_left = 1;
    while (desc_reads(h) < 2) {
        host_step(h);
        assert_true(++n < 10000);
    }
    host_run(h, 20);
    release_cpls(h);
    host_settle(h, 20000);
    assert_int_equal(h->n_frames, 4);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), NICTX_ERR_DMA);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 4);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_WC), 2);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_NOT_OWNED), 0);
    reg_wr32(h, NICTX_REG_ERR, NICTX_ERR_DMA);
    host_settle(h, 20000);
    check_frames(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 5);
    assert_int_equal(desc_reads_of(h, 0, 4), 2);
}

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* Owner and WC under random batches and timing on a 32-entry ring: every
 * frame once, in order.  In WC the last of each batch is pushed as a block
 * (alternating buffers, in 1..3 MWrs, sometimes torn); in OWNER each batch
 * rings the tail register. */
static void stress(struct host *h, uint32_t proto, uint32_t seed)
{
    uint32_t done = 0, rnd = seed, buf = 0, torn = 0;
    unsigned b, i, n;

    engine_init(h, 5, proto);
    reg_wr32(h, NICTX_REG_DESC_FETCH_MAX, 1 + lcg(&rnd) % 16);
    for (b = 0; b < 60; b++) {
        unsigned batch = 1 + lcg(&rnd) % 6;
        uint64_t blk[8] = {0};

        for (n = 0;; n++) {
            uint32_t head = reg_rd32(h, NICTX_REG_HEAD);
            done += (head - done) & ring_mask(h);
            if (h->prod - done + batch <= 24)
                break;
            assert_true(n < 1000);
            host_run(h, 20);
        }
        for (i = 0; i < batch; i++)
            post(h, 1, 1, &blk[0], &blk[1]);
        if (proto == NICTX_PROTO_WC) {
            unsigned cut1 = 1 + lcg(&rnd) % 7, cut2 = cut1 + lcg(&rnd) % (8 - cut1);
            unsigned skip = lcg(&rnd) % 8 == 0 ? 1 + lcg(&rnd) % 2 : 0; /* torn: word 0 or 1 missing */

            blk[2] = (h->prod - 1) & ring_mask(h);
            if (skip)
                torn++;
            /* words [0, cut1), [cut1, cut2), [cut2, 8), leaving word skip-1 out */
            if (skip == 1)
                wc_write(h, buf, 8, blk + 1, cut1 - 1 ? cut1 - 1 : 0);
            else if (skip == 2) {
                wc_write(h, buf, 0, blk, 1);
                if (cut1 > 2)
                    wc_write(h, buf, 16, blk + 2, cut1 - 2);
            } else
                wc_write(h, buf, 0, blk, cut1);
            if (cut2 > cut1)
                wc_write(h, buf, 8 * cut1, blk + cut1, cut2 - cut1);
            wc_write(h, buf, 8 * cut2, blk + cut2, 8 - cut2);
            buf ^= 1;
        } else {
            doorbell(h);
        }
        host_run(h, lcg(&rnd) % 300);
    }
    host_settle(h, 100000);
    check_frames(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), h->prod & ring_mask(h));
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);
    if (proto == NICTX_PROTO_WC) {
        uint32_t used = reg_rd32(h, NICTX_REG_CNT_WC), drop = reg_rd32(h, NICTX_REG_CNT_WC_DROP);
        if (getenv("TEST_ENGINE_VERBOSE"))
            printf("  wc: %u blocks, %u torn, used %u, dropped %u, not owned %u\n", b, torn, used,
                   drop, reg_rd32(h, NICTX_REG_CNT_NOT_OWNED));
        assert_true(drop >= torn);
        assert_int_equal(used + drop, b); /* every block used or dropped */
        assert_true(used > 0);
        /* Fetching stops at the pushed index: nothing is read too early. */
        assert_int_equal(reg_rd32(h, NICTX_REG_CNT_NOT_OWNED), 0);
    }
}

static void test_engine_owner_stress(void **state)
{
    stress(*state, NICTX_PROTO_OWNER, 1);
}

static void test_engine_wc_stress(void **state)
{
    stress(*state, NICTX_PROTO_WC, 7);
}

/* UR on a payload read: that frame is skipped (completes in order), ERR.DMA
 * is set, no descriptor fetch starts until ERR.DMA is cleared. */
static void test_engine_ur_payload_skips_and_stops(void **state)
{
    struct host *h = *state;
    unsigned rd0;

    engine_init(h, 5, NICTX_PROTO_TAIL);
    post(h, 0, 1, NULL, NULL);
    post(h, 0, 0, NULL, NULL); /* fails: not on the wire */
    post(h, 0, 1, NULL, NULL);
    h->err_lo = frame_bus(1);
    h->err_hi = frame_bus(1) + frame_len(1);
    h->err_left = 1;
    doorbell(h);
    host_settle(h, 20000);
    check_frames(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), NICTX_ERR_DMA);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 3);

    /* Stopped: a new doorbell starts no descriptor read. */
    rd0 = desc_reads(h);
    post(h, 0, 1, NULL, NULL);
    post(h, 0, 1, NULL, NULL);
    doorbell(h);
    host_settle(h, 20000);
    assert_int_equal(desc_reads(h), rd0);
    assert_int_equal(h->n_frames, 2);

    reg_wr32(h, NICTX_REG_ERR, NICTX_ERR_DMA);
    host_settle(h, 20000);
    check_frames(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 5);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), 0);
}

/* UR on a descriptor read in tail mode: its descriptors are skipped,
 * completing in order; only ERR.DMA is set (not BAD_DESC). */
static void test_engine_ur_desc_tail(void **state)
{
    struct host *h = *state;

    engine_init(h, 5, NICTX_PROTO_TAIL);
    post(h, 0, 0, NULL, NULL);
    post(h, 0, 0, NULL, NULL);
    h->err_lo = RING_BUS;
    h->err_hi = RING_BUS + 32;
    h->err_left = 1;
    doorbell(h);
    host_settle(h, 20000);
    assert_int_equal(h->n_frames, 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 2);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), NICTX_ERR_DMA);
    reg_wr32(h, NICTX_REG_ERR, NICTX_ERR_DMA);
    post(h, 0, 1, NULL, NULL);
    doorbell(h);
    host_settle(h, 20000);
    check_frames(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 3);
}

/* UR on a descriptor read in owner mode: nothing completes (the fetch was
 * speculative), nothing is counted; after ERR.DMA is cleared the same
 * descriptors are fetched again and sent. */
static void test_engine_ur_desc_owner(void **state)
{
    struct host *h = *state;

    engine_init(h, 5, NICTX_PROTO_OWNER);
    post(h, 1, 1, NULL, NULL);
    post(h, 1, 1, NULL, NULL);
    h->err_lo = RING_BUS;
    h->err_hi = RING_BUS + 32;
    h->err_left = 1;
    doorbell(h);
    host_settle(h, 20000);
    assert_int_equal(h->n_frames, 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 0);
    assert_int_equal(reg_rd32(h, NICTX_REG_ERR), NICTX_ERR_DMA);
    assert_int_equal(reg_rd32(h, NICTX_REG_CNT_NOT_OWNED), 0);
    reg_wr32(h, NICTX_REG_ERR, NICTX_ERR_DMA);
    host_settle(h, 20000);
    check_frames(h);
    assert_int_equal(reg_rd32(h, NICTX_REG_HEAD), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_engine_proto_register, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_tail_sends_frames, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_owner_in_order_across_wraps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_owner_not_owned_stops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_owner_doorbell_during_read, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_wc_block_at_fetch_pointer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_wc_torn_block, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_wc_stale_block, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_wc_block_while_read_in_flight, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_wc_block_replaces_unowned_copy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_wc_blocks_queue_behind_read, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_wc_full_ring, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_wc_ur_behind_blocks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_owner_stress, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_wc_stress, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_ur_payload_skips_and_stops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_ur_desc_tail, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_ur_desc_owner, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
