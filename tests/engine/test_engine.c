/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_engine.c - cmocka tests of the Verilated engine (rtl/) driven
 * directly through struct device_ops (sim/device/device.h): the three ownership
 * protocols (tail doorbell, owner bit, write-combining push) and the DMA
 * error path.
 *
 * The host is tests/common/engine_host.h: host memory, register and WC TLPs, the
 * engine's MRds answered with CplDs split at 64-byte boundaries CPL_LAT
 * clocks after the MRd (the data taken when the MRd arrives, as a root
 * complex would; a test may hold the completions and release them back to
 * back), and every wire frame checked (bytes and FCS) against what was
 * posted.  Here: frame contents (a pattern per frame number, each frame in
 * its own buffer) and the fixtures.  TEST_ENGINE_VERBOSE=1 prints cycles,
 * MRds and frames per test.
 *
 * Boundary cases: PROTO's first invalid value; phase flips over several
 * ring wraps; a not-owned descriptor in the middle of a batch; a doorbell
 * arriving while the read it should have covered is in flight; WC blocks at
 * the fetch pointer, behind a batch from the ring, behind a read still in
 * flight, for a descriptor already fetched (owned and not owned ring copy),
 * already sent (stale), torn (with and without its index) and on a full
 * ring; UR completions of a payload read and of a descriptor read (tail,
 * owner, and WC with the read retiring behind inserted blocks, owner on
 * the ring's second pass where a UR's zeros look owned); lengths 0 and
 * above 16383 skipped and not counted; a register read during an unbroken
 * MRd burst (round-robin d2h arbitration); owner read-ahead of at most a
 * ring; a queue reset with reads in flight; random batches and timing in
 * owner and WC.
 *
 * Frame contents at every datapath width (test_engine_*_lengths): frames of
 * every length 1..300 and a few long ones (up to 16383) at buffer
 * alignments 0..63, back to back on a fast wire, in each protocol; every
 * byte and the FCS checked on the wire.
 *
 * Every test runs at each datapath width (sim/device/device.h): with the 8-byte
 * model under its own name, with the W-byte one as test_engine_wW_*.
 *
 * The random regression under backpressure (test_engine_stall_*): every
 * protocol with seeded ready-low bursts on the d2h and wire outputs (none,
 * light, heavy, long, one stream only), random fetch size, tag limit, head
 * writeback and interrupt thresholds; every frame complete, in order and
 * intact, no deadlock, every beat held while ready was low (engine_host.h),
 * the device's counters equal to what the host took, reads in flight never
 * above MAX_TAGS, and the last head writeback equal to HEAD.
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

#define HOST_BASE 0x10000ull      /* bus address of host memory byte 0 */
#define HOST_SIZE (1u << 20)
#define RING_BUS HOST_BASE        /* descriptor ring */
#define BUF_BUS (HOST_BASE + 0x10000u) /* frame buffers, one per posted frame */
#define BUF_STRIDE 512u
#define CPL_LAT 101u              /* clocks from taking an MRd to queuing its CplDs (the
                                     timing these tests were written against) */
#define MAX_FRAMES 512
#define WB_BUS (HOST_BASE + HOST_SIZE - 64)  /* head writeback word */
#define IRQ_BUS (HOST_BASE + HOST_SIZE - 32) /* MSI-X message address */
#define IRQ_DATA 0x5eedu

/* What a test runs with: the datapath width, and its own parameter. */
struct te_case {
    unsigned width;
    const void *param;           /* stall runs: their struct stall_run */
};

/* A test's context: the host, and the engine's writes it saw. */
struct te {
    struct eh h;                 /* first: tests use the struct eh */
    const void *param;           /* the test's parameter (te_case.param) */
    unsigned n_wb, n_irq;
    uint32_t last_wb;
};

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

/* Post frame number h->prod, made in its buffer, at the producer index,
 * expected on the wire unless `expect` is 0; its descriptor words to
 * w[0..1] if w. */
static void post(struct eh *h, int expect, uint64_t *w)
{
    uint32_t seq = h->prod;
    uint16_t len = frame_len(seq);
    uint8_t *p = eh_ptr(h, frame_bus(seq), len);
    unsigned i;

    for (i = 0; i < len; i++)
        p[i] = frame_byte(seq, i);
    eh_post(h, frame_bus(seq), len, expect, w);
}

/* ------------------------------------------------------------ fixtures */

/* The engine writes only the head writeback and the interrupt message. */
static void on_mwr(void *user, const struct dev_beat *b)
{
    struct te *t = user;

    assert_int_equal(b->len, 4);
    if (b->addr == WB_BUS) {
        t->n_wb++;
        t->last_wb = (uint32_t)eh_beat_value(&t->h, b, 4);
    } else if (b->addr == IRQ_BUS) {
        assert_int_equal((uint32_t)eh_beat_value(&t->h, b, 4), IRQ_DATA);
        t->n_irq++;
    } else {
        fail_msg("MWr to unexpected address 0x%llx", (unsigned long long)b->addr);
    }
}

static int setup(void **state)
{
    const struct te_case *k = *state;
    struct te *t = calloc(1, sizeof(*t));
    struct eh_cfg cfg = {
        .mem_base = HOST_BASE,
        .mem_size = HOST_SIZE,
        .ring_bus = RING_BUS,
        .buf_bus = BUF_BUS,
        .cpl_lat = CPL_LAT,
        .max_frames = MAX_FRAMES,
        .on_mwr = on_mwr,
        .user = t,
        .ops = dev_rtl_ops_width(k->width),
    };

    if (!t || eh_init(&t->h, &cfg) != 0) {
        if (t)
            eh_fini(&t->h);
        free(t);
        return -1;
    }
    t->param = k->param;
    *state = &t->h;
    return 0;
}

static int teardown(void **state)
{
    struct eh *h = *state;
    struct te *t = (struct te *)h;

    if (getenv("TEST_ENGINE_VERBOSE")) {
        eh_print_summary(h);
        printf("  ready low: d2h %llu clocks (%llu with a beat waiting), wire %llu (%llu)\n",
               (unsigned long long)h->s_d2h.low, (unsigned long long)h->s_d2h.blocked,
               (unsigned long long)h->s_wire.low, (unsigned long long)h->s_wire.blocked);
    }
    eh_fini(h);
    free(t);
    return 0;
}

/* Ring of 2^log2 descriptors, protocol, enabled. */
static void engine_init(struct eh *h, unsigned log2, uint32_t proto)
{
    eh_ring_setup(h, log2, proto);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    assert_int_equal(eh_rd32(h, NICTX_REG_PROTO), proto);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* ------------------------------------------------------------ tests */

/* Register behaviour of PROTO and the WC window. */
static void test_engine_proto_register(void **state)
{
    struct eh *h = *state;
    uint64_t w[8] = {0};

    assert_int_equal(eh_rd32(h, NICTX_REG_PROTO), NICTX_PROTO_TAIL); /* reset */
    eh_wr32(h, NICTX_REG_PROTO, NICTX_PROTO_WC);
    assert_int_equal(eh_rd32(h, NICTX_REG_PROTO), NICTX_PROTO_WC);
    eh_wr32(h, NICTX_REG_PROTO, 3); /* boundary: first invalid value */
    assert_int_equal(eh_rd32(h, NICTX_REG_PROTO), NICTX_PROTO_WC);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_BAD_ACCESS);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);

    /* An MRd of the WC window: bad access, Unsupported Request (all ones). */
    assert_int_equal(eh_rd32(h, NICTX_WC_BASE), 0xFFFFFFFFu);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_BAD_ACCESS);

    /* In OWNER (and TAIL) a WC write is a bad access and ignored. */
    eh_wr32(h, NICTX_REG_PROTO, NICTX_PROTO_OWNER);
    w[2] = 0;
    eh_wc_write(h, 0, 0, w, 8);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC_DROP), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_DOORBELL), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_TAIL), 0);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_BAD_ACCESS);

    /* In WC a misaligned or odd-sized WC write is a bad access too. */
    eh_wr32(h, NICTX_REG_PROTO, NICTX_PROTO_WC);
    eh_wr32(h, NICTX_WC_BASE + 4, 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_BAD_ACCESS);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_DOORBELL), 0);
    /* Boundary: writes that end exactly at the window's end are taken (the
     * last, ignored, words of buffer 1; no error bit). */
    eh_wc_write(h, 1, 0xF8, w, 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    eh_wc_write(h, 1, 0xC0, w, 8);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    /* Boundary: 256 bytes (a whole buffer) is the longest write taken: it
     * closes buffer 0's block, a doorbell on the disabled engine (DB_OFF,
     * not BAD_ACCESS); so does all of buffer 1, a write that ends at the
     * window's end; 264 bytes is a bad access and ignored (no doorbell). */
    {
        uint64_t big[33] = {0};
        eh_wc_write(h, 0, 0, big, 32);
        assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_DB_OFF);
        eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_DB_OFF);
        eh_wc_write(h, 1, 0, big, 32);
        assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_DB_OFF);
        eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_DB_OFF);
        eh_wc_write(h, 0, 0, big, 33);
        assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
        eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_BAD_ACCESS);
    }
    eh_settle(h, 1000);
}

/* Tail mode: several wraps of a 16-entry ring, batches of 5. */
static void test_engine_tail_sends_frames(void **state)
{
    struct eh *h = *state;
    unsigned b, i;

    engine_init(h, 4, NICTX_PROTO_TAIL);
    for (b = 0; b < 8; b++) {
        for (i = 0; i < 5; i++)
            post(h, 1, NULL);
        eh_doorbell(h);
        eh_settle(h, 20000);
        assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), h->prod & eh_ring_mask(h));
    }
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_PKTS), 40);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_NOT_OWNED), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* Owner mode: 3.5 laps of a 16-entry ring with the owner bit's phase
 * flipping each lap; descriptors left from the previous lap are never sent
 * again.  Half the batches are posted while the engine is still busy. */
static void test_engine_owner_in_order_across_wraps(void **state)
{
    struct eh *h = *state;
    uint32_t done = 0;
    unsigned b, i, n;

    engine_init(h, 4, NICTX_PROTO_OWNER);
    for (b = 0; b < 14; b++) {
        /* Post 4 when at most 12 are outstanding (the head register
         * cannot tell 16 completed from none). */
        for (n = 0;; n++) {
            uint32_t head = eh_rd32(h, NICTX_REG_HEAD);
            done += (head - done) & eh_ring_mask(h);
            if (h->prod - done + 4 <= 12)
                break;
            assert_true(n < 1000);
            eh_run(h, 50);
        }
        for (i = 0; i < 4; i++)
            post(h, 1, NULL);
        eh_doorbell(h);
        eh_run(h, b % 2 ? 30 : 400);
    }
    eh_settle(h, 50000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), h->prod & eh_ring_mask(h));
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_PKTS), 56);
    /* Fetching past the posted descriptors finds them not owned. */
    assert_true(eh_rd32(h, NICTX_REG_CNT_NOT_OWNED) > 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* Owner mode: a descriptor with the wrong owner bit stops the engine; once
 * the driver sets it and rings again, it and the rest are sent. */
static void test_engine_owner_not_owned_stops(void **state)
{
    struct eh *h = *state;
    uint64_t w[2];
    uint32_t n0;

    engine_init(h, 5, NICTX_PROTO_OWNER);
    post(h, 1, NULL);
    post(h, 1, NULL);
    post(h, 1, w);
    eh_write_desc(h, 2, w[0], w[1] & ~((uint64_t)NICTX_DESC_OWNER << 32)); /* not handed over */
    post(h, 1, NULL);
    eh_doorbell(h);
    eh_settle(h, 20000);
    assert_int_equal(h->n_frames, 2);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 2);
    n0 = eh_rd32(h, NICTX_REG_CNT_NOT_OWNED);
    assert_true(n0 >= 2); /* descriptor 2 and at least 3 after it */
    eh_run(h, 2000);    /* stopped: nothing more happens */
    assert_int_equal(h->n_frames, 2);

    eh_write_desc(h, 2, w[0], w[1]);
    eh_doorbell(h);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 4);
    assert_true(eh_rd32(h, NICTX_REG_CNT_NOT_OWNED) > n0); /* slot 4 onwards */
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* Owner mode: the driver posts and rings while the engine's read is in
 * flight and has already seen host memory; the doorbell must not be lost. */
static void test_engine_owner_doorbell_during_read(void **state)
{
    struct eh *h = *state;
    unsigned n = 0;

    engine_init(h, 6, NICTX_PROTO_OWNER);
    post(h, 1, NULL);
    eh_doorbell(h);
    while (h->n_desc_mrds == 0) {
        eh_step(h);
        assert_true(++n < 10000);
    }
    /* The read took memory as it was: descriptor 1 not yet there. */
    post(h, 1, NULL);
    eh_doorbell(h);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 2);
    assert_true(eh_desc_reads_of(h, 0, 1) >= 2); /* read again after the flush */
}

/* WC: a complete block at the fetch pointer is used without a descriptor
 * read; then a batch whose last descriptor is pushed: the others come from
 * the ring, the pushed one from the block. */
static void test_engine_wc_block_at_fetch_pointer(void **state)
{
    struct eh *h = *state;
    uint64_t blk[8] = {0};
    unsigned i, m;

    engine_init(h, 6, NICTX_PROTO_WC);
    post(h, 1, blk);
    blk[2] = 0; /* ring index */
    eh_wc_write(h, 0, 0, blk, 8);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_desc_reads_of(h, 0, 0), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC), 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_TAIL), 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_DOORBELL), 1);

    /* Batch 1..4, the block (index 4) in the other buffer, as two MWrs. */
    m = h->n_mrds;
    for (i = 0; i < 4; i++)
        post(h, 1, blk);
    blk[2] = 4;
    eh_wc_write(h, 1, 0, blk, 3);
    eh_wc_write(h, 1, 24, blk + 3, 5);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC), 2);
    assert_int_equal(eh_desc_reads_of(h, m, 4), 0);
    for (i = 1; i < 4; i++)
        assert_int_equal(eh_desc_reads_of(h, m, i), 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC_DROP), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 5);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* WC: a torn block (word 7 without word 0) is dropped; the close still
 * rings, and the ring copy is fetched and sent. */
static void test_engine_wc_torn_block(void **state)
{
    struct eh *h = *state;
    uint64_t blk[8] = {0};
    unsigned m;

    engine_init(h, 6, NICTX_PROTO_WC);
    post(h, 1, blk);
    blk[2] = 0;
    eh_wc_write(h, 0, 8, blk + 1, 7); /* words 1..7 */
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC_DROP), 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC), 0);
    assert_true(eh_desc_reads_of(h, 0, 0) >= 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 1);

    /* The torn state does not leak into the next block of that buffer. */
    m = h->n_mrds;
    post(h, 1, blk);
    blk[2] = 1;
    eh_wc_write(h, 0, 0, blk, 8);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC), 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC_DROP), 1);
    assert_int_equal(eh_desc_reads_of(h, m, 1), 0);

    /* Nor does that complete block's state: words 1..7 alone are torn again
     * (word 0 written before the previous close does not count). */
    post(h, 1, blk);
    blk[2] = 2;
    eh_wc_write(h, 0, 8, blk + 1, 7);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC), 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC_DROP), 2);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 3);

    /* Torn without its index (words 0, 1, 7): the tail stays, yet the ring
     * copy is still fetched and sent. */
    post(h, 1, blk);
    eh_wc_write(h, 1, 0, blk, 2);
    eh_wc_write(h, 1, 56, blk + 7, 1);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC_DROP), 3);
    assert_int_equal(eh_rd32(h, NICTX_REG_TAIL), 3);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 4);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* WC: a block whose descriptor the engine already fetched from the ring
 * (it was armed and running) is dropped as stale. */
static void test_engine_wc_stale_block(void **state)
{
    struct eh *h = *state;
    uint64_t blk[8] = {0};

    engine_init(h, 6, NICTX_PROTO_WC);
    post(h, 1, NULL);
    eh_doorbell(h); /* arms via the tail register */
    eh_settle(h, 20000);
    post(h, 1, blk);
    eh_doorbell(h);
    eh_settle(h, 20000); /* descriptor 1 fetched and sent from the ring */
    blk[2] = 1;
    eh_wc_write(h, 1, 0, blk, 8);
    eh_settle(h, 20000);
    eh_check_frames(h); /* not sent twice */
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC_DROP), 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 2);
}

/* WC: a block arriving while the read of its descriptor is in flight is
 * held.  The ring copy is owned: it is sent from the ring (once), and the
 * block is dropped once that copy has left. */
static void test_engine_wc_block_while_read_in_flight(void **state)
{
    struct eh *h = *state;
    uint64_t blk[8] = {0};
    unsigned i, n = 0;

    engine_init(h, 6, NICTX_PROTO_WC);
    for (i = 0; i < 4; i++)
        post(h, 1, blk);
    eh_doorbell(h); /* a TAIL write: fetch 0..3 */
    while (h->n_desc_mrds == 0) {
        eh_step(h);
        assert_true(++n < 10000);
    }
    blk[2] = 3;
    eh_wc_write(h, 0, 0, blk, 8);
    eh_run(h, 12);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC_DROP), 0); /* held */
    assert_true(h->p_count >= 1 && eh_pending(h, 0)->addr == RING_BUS);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC_DROP), 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_NOT_OWNED), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 4);
    assert_int_equal(eh_desc_reads_of(h, 0, 3), 1);
}

/* WC: the ring copy read before the driver's owner store landed is not
 * owned; the block held for that index replaces it at the head (no flush,
 * no second read). */
static void test_engine_wc_block_replaces_unowned_copy(void **state)
{
    struct eh *h = *state;
    uint64_t blk[8] = {0};
    unsigned n = 0;

    engine_init(h, 6, NICTX_PROTO_WC);
    eh_wr32(h, NICTX_REG_DESC_FETCH_MAX, 1); /* one read per descriptor */
    post(h, 1, NULL);
    post(h, 1, blk);
    eh_write_desc(h, 1, blk[0], blk[1] & ~((uint64_t)NICTX_DESC_OWNER << 32)); /* not yet */
    eh_doorbell(h); /* tail 2: two reads */
    while (h->n_desc_mrds < 2) {
        eh_step(h);
        assert_true(++n < 10000);
    }
    blk[2] = 1;
    eh_wc_write(h, 1, 0, blk, 8); /* while both reads are out */
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC), 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC_DROP), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_NOT_OWNED), 0);
    assert_int_equal(eh_desc_reads_of(h, 0, 1), 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 2);
}

/* WC: blocks at the fetch pointer are inserted behind a read still in
 * flight (in order), so back-to-back blocks are all used. */
static void test_engine_wc_blocks_queue_behind_read(void **state)
{
    struct eh *h = *state;
    uint64_t blk[8] = {0};
    unsigned i, n = 0;

    engine_init(h, 6, NICTX_PROTO_WC);
    for (i = 0; i < 3; i++)
        post(h, 1, NULL);
    eh_doorbell(h); /* tail 3: read 0..2 */
    while (h->n_desc_mrds == 0) {
        eh_step(h);
        assert_true(++n < 10000);
    }
    for (i = 3; i < 5; i++) { /* blocks 3 and 4 while that read is out */
        post(h, 1, blk);
        blk[2] = i;
        eh_wc_write(h, i & 1, 0, blk, 8);
    }
    eh_run(h, 30);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC), 2);
    assert_int_equal(h->n_frames, 0); /* still behind the read */
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC_DROP), 0);
    assert_int_equal(eh_desc_reads_of(h, 0, 3) + eh_desc_reads_of(h, 0, 4), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 5);
}

/* WC with a full ring (owner bits allow all 8 slots in use): two passes of
 * 8 descriptors each closed by a block for the last index; on the second
 * pass that block is torn, so all 8 come from the ring. */
static void test_engine_wc_full_ring(void **state)
{
    struct eh *h = *state;
    uint64_t blk[8] = {0};
    unsigned lap, i;

    engine_init(h, 3, NICTX_PROTO_WC);
    for (lap = 0; lap < 2; lap++) {
        for (i = 0; i < 8; i++)
            post(h, 1, blk);
        blk[2] = 7;
        if (lap == 0)
            eh_wc_write(h, 0, 0, blk, 8);
        else
            eh_wc_write(h, 1, 8, blk + 1, 7); /* torn: no word 0 */
        eh_settle(h, 20000);
        eh_check_frames(h);
        assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 0);
        assert_int_equal(eh_rd32(h, NICTX_REG_TAIL), 0);
    }
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC), 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC_DROP), 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_NOT_OWNED), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* WC with a UR: read A, two blocks inserted behind it, then read B whose
 * completion fails; all completions arrive back to back, so B retires while
 * a block is still ahead of it.  A and the blocks are sent; B's descriptor
 * is not (WC: rewind, nothing counted) until ERR.DMA is cleared. */
static void test_engine_wc_ur_behind_blocks(void **state)
{
    struct eh *h = *state;
    uint64_t blk[8] = {0};
    unsigned i, n = 0;

    engine_init(h, 6, NICTX_PROTO_WC);
    eh_hold(h, 0); /* all of them */
    post(h, 1, NULL);
    post(h, 1, NULL);
    eh_doorbell(h); /* read A: 0..1 */
    for (i = 2; i < 4; i++) {
        post(h, 1, blk);
        blk[2] = i;
        eh_wc_write(h, i & 1, 0, blk, 8);
    }
    post(h, 1, NULL);
    eh_doorbell(h); /* read B: 4 */
    eh_fail_reads(h, RING_BUS + 4 * NICTX_DESC_BYTES, RING_BUS + 5 * NICTX_DESC_BYTES, 1);
    while (h->n_desc_mrds < 2) {
        eh_step(h);
        assert_true(++n < 10000);
    }
    eh_run(h, 20);
    eh_release(h);
    eh_settle(h, 20000);
    assert_int_equal(h->n_frames, 4);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_DMA);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 4);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC), 2);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_NOT_OWNED), 0);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_DMA);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 5);
    assert_int_equal(eh_desc_reads_of(h, 0, 4), 2);
}

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* What a stress run pushed through the WC window. */
struct stress_out {
    unsigned blocks, torn;
};

/* Wait until `batch` more fit with at most 24 outstanding (HEAD polled). */
static void wait_room(struct eh *h, uint32_t *done, unsigned batch)
{
    unsigned n;

    for (n = 0;; n++) {
        uint32_t head = eh_rd32(h, NICTX_REG_HEAD);
        *done += (head - *done) & eh_ring_mask(h);
        if (h->prod - *done + batch <= 24)
            return;
        assert_true(n < 1000);
        eh_run(h, 20);
    }
}

/* Words [from, to) of blk into WC buffer buf: one MWr, or two around word
 * `gap` when it is among them (none when empty). */
static void wc_words(struct eh *h, unsigned buf, const uint64_t *blk, unsigned from,
                     unsigned to, unsigned gap)
{
    if (gap >= from && gap < to) {
        eh_wc_write(h, buf, 8 * from, blk + from, gap - from);
        eh_wc_write(h, buf, 8 * (gap + 1), blk + gap + 1, to - gap - 1);
    } else {
        eh_wc_write(h, buf, 8 * from, blk + from, to - from);
    }
}

/* WC: push the last posted descriptor as a block into buffer buf: words
 * [0, cut1), [cut1, cut2), [cut2, 8); one in 8 torn (word 0 or 1 left
 * out). */
static void wc_push_random(struct eh *h, unsigned buf, uint64_t *blk, uint32_t *rnd,
                           struct stress_out *o)
{
    unsigned cut1 = 1 + lcg(rnd) % 7, cut2 = cut1 + lcg(rnd) % (8 - cut1);
    unsigned gap = lcg(rnd) % 8 == 0 ? lcg(rnd) % 2 : 8;

    blk[2] = (h->prod - 1) & eh_ring_mask(h);
    o->blocks++;
    o->torn += gap < 8;
    wc_words(h, buf, blk, 0, cut1, gap);
    wc_words(h, buf, blk, cut1, cut2, gap);
    wc_words(h, buf, blk, cut2, 8, gap);
}

/* 60 random batches of 1..6 frames on the engine_init'ed 32-entry ring,
 * each ending in a doorbell (TAIL, OWNER) or a WC block (alternating
 * buffers), random gaps between them. */
static void stress_batches(struct eh *h, uint32_t proto, uint32_t *rnd, struct stress_out *o)
{
    uint32_t done = 0;
    unsigned b, i, buf = 0;

    for (b = 0; b < 60; b++) {
        unsigned batch = 1 + lcg(rnd) % 6;
        uint64_t blk[8] = {0};

        wait_room(h, &done, batch);
        for (i = 0; i < batch; i++)
            post(h, 1, blk);
        if (proto == NICTX_PROTO_WC) {
            wc_push_random(h, buf, blk, rnd, o);
            buf ^= 1;
        } else {
            eh_doorbell(h);
        }
        eh_run(h, lcg(rnd) % 300);
    }
}

/* Every frame once, in order; in WC every block used or dropped, and
 * nothing fetched before it was pushed. */
static void stress_check(struct eh *h, uint32_t proto, const struct stress_out *o)
{
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), h->prod & eh_ring_mask(h));
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    if (proto == NICTX_PROTO_WC) {
        uint32_t used = eh_rd32(h, NICTX_REG_CNT_WC), drop = eh_rd32(h, NICTX_REG_CNT_WC_DROP);
        if (getenv("TEST_ENGINE_VERBOSE"))
            printf("  wc: %u blocks, %u torn, used %u, dropped %u, not owned %u\n", o->blocks,
                   o->torn, used, drop, eh_rd32(h, NICTX_REG_CNT_NOT_OWNED));
        assert_true(drop >= o->torn);
        assert_int_equal(used + drop, o->blocks);
        assert_true(used > 0);
        /* Fetching stops at the pushed index: nothing is read too early. */
        assert_int_equal(eh_rd32(h, NICTX_REG_CNT_NOT_OWNED), 0);
    }
}

/* Owner and WC under random batches and timing on a 32-entry ring: every
 * frame once, in order.  In WC the last of each batch is pushed as a block
 * (alternating buffers, in 1..3 MWrs, sometimes torn); in OWNER each batch
 * rings the tail register. */
static void stress(struct eh *h, uint32_t proto, uint32_t seed)
{
    uint32_t rnd = seed;
    struct stress_out o = {0, 0};

    engine_init(h, 5, proto);
    eh_wr32(h, NICTX_REG_DESC_FETCH_MAX, 1 + lcg(&rnd) % 16);
    stress_batches(h, proto, &rnd, &o);
    eh_settle(h, 100000);
    stress_check(h, proto, &o);
}

static void test_engine_owner_stress(void **state)
{
    stress(*state, NICTX_PROTO_OWNER, 1);
}

static void test_engine_wc_stress(void **state)
{
    stress(*state, NICTX_PROTO_WC, 7);
}

/* ------------------------------------------------------------ frame contents */

#define LEN_SHORT_MAX 300u
#define LONG_BUS (BUF_BUS + 0x30000u)  /* long frames: 0x4100 bytes apart */
#define LONG_STRIDE 0x4100u
#define LINE_MAX_RATE 0xFFFFFFu        /* ~256 B/cycle: frames back to back */

static const unsigned long_len[] = {1499, 1514, 4093, 9018, 16383};
static const unsigned long_align[] = {0, 1, 8, 63, 33};
#define N_LONG (sizeof(long_len) / sizeof(long_len[0]))

/* Post a frame of len bytes at bus address bus, its bytes the pattern of
 * frame number h->prod; its descriptor words to w. */
static void post_at(struct eh *h, uint64_t bus, unsigned len, uint64_t *w)
{
    uint8_t *p = eh_ptr(h, bus, len);
    unsigned i;

    for (i = 0; i < len; i++)
        p[i] = frame_byte(h->prod, i);
    eh_post(h, bus, len, 1, w);
}

/* Hand over what was posted: TAIL and OWNER write the tail register; WC
 * pushes the last descriptor as a whole 64-byte block (one MWr) into WC
 * buffer *buf, then the other. */
static void publish(struct eh *h, uint32_t proto, const uint64_t *w, unsigned *buf)
{
    uint64_t blk[8] = {0};

    if (proto != NICTX_PROTO_WC) {
        eh_doorbell(h);
        return;
    }
    blk[0] = w[0];
    blk[1] = w[1];
    blk[2] = (h->prod - 1) & eh_ring_mask(h);
    eh_wc_write(h, *buf, 0, blk, 8);
    *buf ^= 1;
}

/* Frames of every length 1..LEN_SHORT_MAX, each at alignment (13 * len)
 * mod 64 of its buffer, in batches of 16; then the long ones at their
 * alignments in one batch.  The wire runs at ~256 B/cycle so frames leave
 * back to back at every width. */
static void frames_of_every_length(struct eh *h, uint32_t proto)
{
    uint64_t w[2];
    unsigned len, i, buf = 0;

    engine_init(h, 6, proto);
    eh_wr32(h, NICTX_REG_LINE_RATE, LINE_MAX_RATE);
    for (len = 1; len <= LEN_SHORT_MAX; len++) {
        post_at(h, BUF_BUS + (uint64_t)(len - 1) * BUF_STRIDE + (13u * len) % 64, len, w);
        if (len % 16 == 0 || len == LEN_SHORT_MAX) {
            publish(h, proto, w, &buf);
            eh_settle(h, 50000);
        }
    }
    for (i = 0; i < N_LONG; i++)
        post_at(h, LONG_BUS + (uint64_t)i * LONG_STRIDE + long_align[i], long_len[i], w);
    publish(h, proto, w, &buf);
    eh_settle(h, 200000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_PKTS), LEN_SHORT_MAX + N_LONG);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), h->prod & eh_ring_mask(h));
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    if (proto == NICTX_PROTO_WC)
        assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC_DROP), 0);
}

/* The reassembly buffer fills exactly: with the wire held (no frame
 * leaves, so no room comes back), frames of an eighth of the 32 KiB buffer,
 * each whole words at every width, are fetched until the buffer is full
 * and no further: eight of nine, the ninth once the wire runs. */
static void test_engine_payload_buffer_fills_exactly(void **state)
{
    struct eh *h = *state;
    const unsigned len = 32768 / 8, n = 9;
    uint64_t w[2];
    unsigned i;

    engine_init(h, 6, NICTX_PROTO_TAIL);
    eh_wr32(h, NICTX_REG_LINE_RATE, LINE_MAX_RATE);
    eh_hold_wire(h, 1);
    for (i = 0; i < n; i++)
        post_at(h, LONG_BUS + (uint64_t)i * len, len, w);
    eh_doorbell(h);
    eh_run(h, 30000);
    assert_int_equal(h->n_frames, 0);
    assert_int_equal(h->n_mrds - h->n_desc_mrds, 8 * eh_mrd_count(h, LONG_BUS, len));
    eh_hold_wire(h, 0);
    eh_settle(h, 200000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_PKTS), n);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

static void test_engine_tail_lengths(void **state)
{
    frames_of_every_length(*state, NICTX_PROTO_TAIL);
}

static void test_engine_owner_lengths(void **state)
{
    frames_of_every_length(*state, NICTX_PROTO_OWNER);
}

static void test_engine_wc_lengths(void **state)
{
    frames_of_every_length(*state, NICTX_PROTO_WC);
}

/* ------------------------------------------------------------ backpressure */

struct stall_pattern {
    const char *name;
    struct eh_stall d2h, wire;   /* burst start chance of 65536, longest burst */
};

/* Ready-low bursts: none; short and rare; short and frequent (ready low
 * about 60% of the time); long (up to 300 clocks) and rare; one stream at
 * a time. */
static const struct stall_pattern stall_patterns[] = {
    {"none", {0, 0}, {0, 0}},
    {"light", {4096, 3}, {4096, 3}},
    {"heavy", {21845, 8}, {21845, 8}},
    {"long", {256, 300}, {256, 300}},
    {"d2h", {16384, 16}, {0, 0}},
    {"wire", {0, 0}, {16384, 16}},
};

#define N_PATTERNS (sizeof(stall_patterns) / sizeof(stall_patterns[0]))
#define N_STALL_SEEDS 2
#define N_STALL_RUNS (3 * N_PATTERNS * N_STALL_SEEDS)

struct stall_run {
    uint32_t proto;
    const struct stall_pattern *pat;
    uint32_t seed;
};

/* Limits and writes the run draws from its seed: MAX_TAGS 1..32, head
 * writeback every 1..8, interrupts every 0 (off)..4 completions. */
struct stall_knobs {
    unsigned tags, wb, irq;
};

static void stall_program(struct eh *h, uint32_t seed, struct stall_knobs *k)
{
    uint32_t r = seed * 7919u + 17u;

    k->tags = 1 + lcg(&r) % 32;
    k->wb = 1 + lcg(&r) % 8;
    k->irq = lcg(&r) % 5;
    eh_wr32(h, NICTX_REG_MAX_TAGS, k->tags);
    eh_wr32(h, NICTX_REG_WB_ADDR_LO, (uint32_t)WB_BUS);
    eh_wr32(h, NICTX_REG_WB_THRESH, k->wb);
    eh_wr32(h, NICTX_REG_IRQ_ADDR_LO, (uint32_t)IRQ_BUS);
    eh_wr32(h, NICTX_REG_IRQ_DATA, IRQ_DATA);
    eh_wr32(h, NICTX_REG_IRQ_THRESH, k->irq);
}

/* The device's counters are what the host took, beat for beat. */
static void check_taken(struct eh *h)
{
    uint64_t bytes = eh_rd32(h, NICTX_REG_CNT_BYTES_LO);

    bytes |= (uint64_t)eh_rd32(h, NICTX_REG_CNT_BYTES_HI) << 32;
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_PKTS), h->n_exp);
    assert_int_equal(bytes, h->exp_bytes);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_DMA_RD), h->n_mrds);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_DESC_RD), h->n_desc_mrds);
}

/* The stall pattern really held beats back on the streams it stalls. */
static void check_stalled(const struct eh *h, const struct stall_pattern *p)
{
    if (p->d2h.start)
        assert_true(h->s_d2h.blocked > 0);
    else
        assert_int_equal(h->s_d2h.low, 0);
    if (p->wire.start)
        assert_true(h->s_wire.blocked > 0);
    else
        assert_int_equal(h->s_wire.low, 0);
}

/* One run of the random regression under a stall pattern. */
static void test_engine_stall(void **state)
{
    struct eh *h = *state;
    struct te *t = (struct te *)h;
    const struct stall_run *r = t->param;
    struct stress_out o = {0, 0};
    struct stall_knobs k;
    uint32_t rnd = r->seed;

    engine_init(h, 5, r->proto);
    eh_wr32(h, NICTX_REG_DESC_FETCH_MAX, 1 + lcg(&rnd) % 16);
    stall_program(h, r->seed, &k);
    eh_stall(h, r->seed, &r->pat->d2h, &r->pat->wire);
    stress_batches(h, r->proto, &rnd, &o);
    eh_settle(h, 400000);
    stress_check(h, r->proto, &o);
    check_taken(h);
    check_stalled(h, r->pat);
    assert_true(h->f_max >= 1 && h->f_max <= k.tags);
    assert_true(t->n_wb > 0);
    assert_int_equal(t->last_wb, eh_rd32(h, NICTX_REG_HEAD));
    if (k.irq)
        assert_true(t->n_irq > 0);
    else
        assert_int_equal(t->n_irq, 0);
}

/* The device-to-host arbiter is round robin: a register read answered
 * while the DMA engine issues an unbroken burst of MRds (two 16000-byte
 * frames at MRRS 128: 125 MRds each, 256 tags, payload completions held)
 * waits behind at most a few of them, not the burst. */
static void test_engine_d2h_round_robin(void **state)
{
    struct eh *h = *state;
    uint64_t t0, a;
    unsigned i, n = 0;

    engine_init(h, 6, NICTX_PROTO_TAIL);
    eh_set_mrrs_log2(h, 7);
    eh_wr32(h, NICTX_REG_MAX_TAGS, 256);
    eh_hold(h, BUF_BUS);
    for (i = 0; i < 2; i++) {
        a = BUF_BUS + 0x40000 + (uint64_t)i * 0x4000;
        memset(eh_ptr(h, a, 16000), (int)i + 1, 16000);
        eh_post(h, a, 16000, 1, NULL);
    }
    eh_doorbell(h);
    while (h->n_mrds - h->n_desc_mrds < 8) {
        eh_step(h);
        assert_true(++n < 10000);
    }
    t0 = h->cycle;
    assert_int_equal(eh_rd32(h, NICTX_REG_PROTO), NICTX_PROTO_TAIL);
    assert_true(h->cycle - t0 < 16);
    assert_true(h->n_mrds - h->n_desc_mrds < 64); /* the burst goes on */
    eh_run(h, 400);
    assert_int_equal(h->n_mrds - h->n_desc_mrds, 250);
    eh_release(h);
    eh_settle(h, 50000);
    eh_check_frames(h);
}

/* Descriptors of length 0 and above 16383 (bit 14, bit 15 set) are
 * skipped in order with ERR.BAD_DESC; the good ones around them are sent.
 * In tail and owner mode. */
static void bad_lengths(struct eh *h, uint32_t proto)
{
    static const uint64_t bad[] = {0, 0x4000 | 60, 0x8000 | 60, 0xFFFF};
    unsigned i;

    engine_init(h, 5, proto);
    post(h, 1, NULL);
    for (i = 0; i < 4; i++) {
        eh_post_raw(h, frame_bus(h->prod), bad[i]);
        post(h, 1, NULL);
    }
    eh_doorbell(h);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 9);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_DESC);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_BAD_DESC);
    post(h, 1, NULL);
    eh_doorbell(h);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

static void test_engine_bad_desc_tail(void **state)
{
    bad_lengths(*state, NICTX_PROTO_TAIL);
}

static void test_engine_bad_desc_owner(void **state)
{
    bad_lengths(*state, NICTX_PROTO_OWNER);
}

/* CNT_PKTS and CNT_BYTES count frames sent and their bytes
 * (driver/nictx_hw.h): a skipped descriptor is neither. */
static void test_engine_bad_desc_not_counted(void **state)
{
    struct eh *h = *state;

    bad_lengths(h, NICTX_PROTO_TAIL);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_PKTS), h->n_exp);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_BYTES_LO), h->exp_bytes);
}

/* UR on a descriptor read in owner mode on the ring's second pass, where
 * the owner phase is 0: the zeros a UR carries look owned, yet nothing is
 * sent or completed until ERR.DMA is cleared; then all of it in order. */
static void test_engine_ur_desc_owner_second_pass(void **state)
{
    struct eh *h = *state;
    unsigned i;

    engine_init(h, 3, NICTX_PROTO_OWNER);
    for (i = 0; i < 8; i++)
        post(h, 1, NULL);
    eh_doorbell(h);
    eh_settle(h, 20000);
    eh_check_frames(h); /* the first pass: phase 1 */
    post(h, 1, NULL);
    post(h, 1, NULL);
    eh_fail_reads(h, RING_BUS, RING_BUS + 8 * NICTX_DESC_BYTES, 1);
    eh_doorbell(h);
    eh_settle(h, 20000);
    assert_int_equal(h->n_frames, 8);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_DMA);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_PKTS), 8);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_DMA);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 2);
}

/* Owner mode reads ahead speculatively, but never more than the ring: a
 * full ring of 8 posted, the descriptor read held, is one read of 8 and
 * nothing more until it completes. */
static void test_engine_owner_reads_at_most_a_ring(void **state)
{
    struct eh *h = *state;
    unsigned i;

    engine_init(h, 3, NICTX_PROTO_OWNER);
    eh_hold(h, 0);
    for (i = 0; i < 8; i++)
        post(h, 1, NULL);
    eh_doorbell(h);
    eh_run(h, 500);
    assert_int_equal(h->n_desc_mrds, 1);
    assert_int_equal(h->last_mrd.len, 8 * NICTX_DESC_BYTES);
    eh_release(h);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 0);
}

/* A queue reset with payload reads still in flight (their completions come
 * late, but before the completion timeout): the reset waits for them
 * (STATUS.RESETTING, not QUIESCENT), so no tag it gives up on can be
 * reissued while a completion for it may still come; the completions are
 * taken and nothing is unexpected; the frames posted after it go out. */
static void test_engine_reset_with_reads_in_flight(void **state)
{
    struct eh *h = *state;
    unsigned i, n = 0;

    engine_init(h, 5, NICTX_PROTO_TAIL);
    eh_hold(h, BUF_BUS);
    for (i = 0; i < 4; i++)
        post(h, 0, NULL); /* dropped by the reset */
    eh_doorbell(h);
    while (h->n_mrds - h->n_desc_mrds < 4) {
        eh_step(h);
        assert_true(++n < 10000);
    }
    eh_wr32(h, NICTX_REG_CTRL, 0);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_RESET);
    eh_run(h, 5000);
    assert_int_equal(eh_rd32(h, NICTX_REG_STATUS), NICTX_STATUS_RESETTING);
    eh_release(h);
    for (n = 0; eh_rd32(h, NICTX_REG_STATUS) & NICTX_STATUS_RESETTING; n++)
        assert_true(n < 1000);
    eh_ring_restart(h);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    post(h, 1, NULL);
    post(h, 1, NULL);
    eh_doorbell(h);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 2);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* UR on a payload read: that frame is skipped (completes in order), ERR.DMA
 * is set, no descriptor fetch starts until ERR.DMA is cleared. */
static void test_engine_ur_payload_skips_and_stops(void **state)
{
    struct eh *h = *state;
    unsigned rd0;

    engine_init(h, 5, NICTX_PROTO_TAIL);
    post(h, 1, NULL);
    post(h, 0, NULL); /* fails: not on the wire */
    post(h, 1, NULL);
    eh_fail_reads(h, frame_bus(1), frame_bus(1) + frame_len(1), 1);
    eh_doorbell(h);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_DMA);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 3);

    /* Stopped: a new doorbell starts no descriptor read. */
    rd0 = h->n_desc_mrds;
    post(h, 1, NULL);
    post(h, 1, NULL);
    eh_doorbell(h);
    eh_settle(h, 20000);
    assert_int_equal(h->n_desc_mrds, rd0);
    assert_int_equal(h->n_frames, 2);

    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_DMA);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 5);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* A frame read in several MRds whose first one fails (UR): the later ones
 * complete, but the frame is dropped as failed (the read's error carries
 * across its chunks), not sent with the bytes it lacks. */
static void test_engine_ur_first_chunk_of_long_frame(void **state)
{
    struct eh *h = *state;
    const unsigned len = 2000;

    engine_init(h, 5, NICTX_PROTO_TAIL);
    eh_post(h, LONG_BUS, len, 0, NULL);
    eh_fail_reads(h, LONG_BUS, LONG_BUS + 64, 1);
    eh_doorbell(h);
    eh_settle(h, 50000);
    assert_true(h->n_mrds - h->n_desc_mrds > 1);
    assert_int_equal(h->n_frames, 0);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_DMA);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 1);
}

/* UR on a descriptor read in tail mode: its descriptors are skipped,
 * completing in order; only ERR.DMA is set (not BAD_DESC). */
static void test_engine_ur_desc_tail(void **state)
{
    struct eh *h = *state;

    engine_init(h, 5, NICTX_PROTO_TAIL);
    post(h, 0, NULL);
    post(h, 0, NULL);
    eh_fail_reads(h, RING_BUS, RING_BUS + 32, 1);
    eh_doorbell(h);
    eh_settle(h, 20000);
    assert_int_equal(h->n_frames, 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 2);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_DMA);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_DMA);
    post(h, 1, NULL);
    eh_doorbell(h);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 3);
}

/* UR on a descriptor read in owner mode: nothing completes (the fetch was
 * speculative), nothing is counted; after ERR.DMA is cleared the same
 * descriptors are fetched again and sent. */
static void test_engine_ur_desc_owner(void **state)
{
    struct eh *h = *state;

    engine_init(h, 5, NICTX_PROTO_OWNER);
    post(h, 1, NULL);
    post(h, 1, NULL);
    eh_fail_reads(h, RING_BUS, RING_BUS + 32, 1);
    eh_doorbell(h);
    eh_settle(h, 20000);
    assert_int_equal(h->n_frames, 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_DMA);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_NOT_OWNED), 0);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_DMA);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 2);
}

static const char *const proto_names[] = {"tail", "owner", "wc"};

/* The stall runs: test_engine_stall_<proto>_<pattern>_<seed>. */
static void stall_runs(struct stall_run *runs)
{
    unsigned i;

    for (i = 0; i < N_STALL_RUNS; i++) {
        runs[i].proto = i % 3;
        runs[i].pat = &stall_patterns[(i / 3) % N_PATTERNS];
        runs[i].seed = 1 + i;
    }
}

/* Test t at width w: named as it is at 8 bytes, test_engine_wW_... else. */
static void width_test(struct CMUnitTest *t, const char *name, void (*fn)(void **),
                       struct te_case *k, char *buf, size_t len)
{
    if (k->width == DEV_WIDTH_DEFAULT)
        snprintf(buf, len, "%s", name);
    else
        snprintf(buf, len, "test_engine_w%u_%s", k->width, name + strlen("test_engine_"));
    t->name = buf;
    t->test_func = fn;
    t->setup_func = setup;
    t->teardown_func = teardown;
    t->initial_state = k;
}

#define ENGINE_TEST(f) {#f, f}

int main(void)
{
    static const struct {
        const char *name;
        void (*fn)(void **);
    } fixed[] = {
        ENGINE_TEST(test_engine_proto_register),
        ENGINE_TEST(test_engine_tail_sends_frames),
        ENGINE_TEST(test_engine_owner_in_order_across_wraps),
        ENGINE_TEST(test_engine_owner_not_owned_stops),
        ENGINE_TEST(test_engine_owner_doorbell_during_read),
        ENGINE_TEST(test_engine_wc_block_at_fetch_pointer),
        ENGINE_TEST(test_engine_wc_torn_block),
        ENGINE_TEST(test_engine_wc_stale_block),
        ENGINE_TEST(test_engine_wc_block_while_read_in_flight),
        ENGINE_TEST(test_engine_wc_block_replaces_unowned_copy),
        ENGINE_TEST(test_engine_wc_blocks_queue_behind_read),
        ENGINE_TEST(test_engine_wc_full_ring),
        ENGINE_TEST(test_engine_wc_ur_behind_blocks),
        ENGINE_TEST(test_engine_owner_stress),
        ENGINE_TEST(test_engine_wc_stress),
        ENGINE_TEST(test_engine_d2h_round_robin),
        ENGINE_TEST(test_engine_bad_desc_tail),
        ENGINE_TEST(test_engine_bad_desc_owner),
        ENGINE_TEST(test_engine_bad_desc_not_counted),
        ENGINE_TEST(test_engine_ur_desc_owner_second_pass),
        ENGINE_TEST(test_engine_owner_reads_at_most_a_ring),
        ENGINE_TEST(test_engine_reset_with_reads_in_flight),
        ENGINE_TEST(test_engine_ur_payload_skips_and_stops),
        ENGINE_TEST(test_engine_ur_first_chunk_of_long_frame),
        ENGINE_TEST(test_engine_ur_desc_tail),
        ENGINE_TEST(test_engine_ur_desc_owner),
        ENGINE_TEST(test_engine_payload_buffer_fills_exactly),
        ENGINE_TEST(test_engine_tail_lengths),
        ENGINE_TEST(test_engine_owner_lengths),
        ENGINE_TEST(test_engine_wc_lengths),
    };
    static const unsigned widths[] = {8, 16, 32, 64};
    enum {
        N_FIXED = sizeof(fixed) / sizeof(fixed[0]),
        N_WIDTHS = sizeof(widths) / sizeof(widths[0]),
        N_PER_WIDTH = N_FIXED + N_STALL_RUNS,
        N_TESTS = N_WIDTHS * N_PER_WIDTH,
    };
    static struct stall_run runs[N_STALL_RUNS];
    static struct te_case cases[N_TESTS];
    static char names[N_TESTS][64], stall_names[N_STALL_RUNS][48];
    static struct CMUnitTest tests[N_TESTS];
    unsigned w, i, n = 0;

    stall_runs(runs);
    for (i = 0; i < N_STALL_RUNS; i++)
        snprintf(stall_names[i], sizeof(stall_names[i]), "test_engine_stall_%s_%s_%u",
                 proto_names[runs[i].proto], runs[i].pat->name, runs[i].seed);
    for (w = 0; w < N_WIDTHS; w++) {
        for (i = 0; i < N_PER_WIDTH; i++, n++) {
            int stall = i >= N_FIXED;
            cases[n].width = widths[w];
            cases[n].param = stall ? &runs[i - N_FIXED] : NULL;
            width_test(&tests[n], stall ? stall_names[i - N_FIXED] : fixed[i].name,
                       stall ? test_engine_stall : fixed[i].fn, &cases[n], names[n],
                       sizeof(names[n]));
        }
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}
