/*
 * test_engine.c - cmocka tests of the Verilated engine (rtl/) driven
 * directly through struct device_ops (sim/device.h): the three ownership
 * protocols (tail doorbell, owner bit, write-combining push) and the DMA
 * error path.
 *
 * The host is tests/engine_host.h: host memory, register and WC TLPs, the
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

#include "engine_host.h"
#include "nictx_hw.h"

#define HOST_BASE 0x10000ull      /* bus address of host memory byte 0 */
#define HOST_SIZE (1u << 20)
#define RING_BUS HOST_BASE        /* descriptor ring */
#define BUF_BUS (HOST_BASE + 0x10000u) /* frame buffers, one per posted frame */
#define BUF_STRIDE 512u
#define CPL_LAT 101u              /* clocks from taking an MRd to queuing its CplDs (the
                                     timing these tests were written against) */
#define MAX_FRAMES 512

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

static int setup(void **state)
{
    static const struct eh_cfg cfg = {
        .mem_base = HOST_BASE,
        .mem_size = HOST_SIZE,
        .ring_bus = RING_BUS,
        .buf_bus = BUF_BUS,
        .cpl_lat = CPL_LAT,
        .max_frames = MAX_FRAMES,
    };
    struct eh *h = calloc(1, sizeof(*h));

    if (!h || eh_init(h, &cfg) != 0) {
        if (h)
            eh_fini(h);
        free(h);
        return -1;
    }
    *state = h;
    return 0;
}

static int teardown(void **state)
{
    struct eh *h = *state;

    if (getenv("TEST_ENGINE_VERBOSE"))
        eh_print_summary(h);
    eh_fini(h);
    free(h);
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

    /* An MRd of the WC window: bad access, zeros. */
    assert_int_equal(eh_rd32(h, NICTX_WC_BASE), 0);
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
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_DOORBELL), 0);
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

/* Owner and WC under random batches and timing on a 32-entry ring: every
 * frame once, in order.  In WC the last of each batch is pushed as a block
 * (alternating buffers, in 1..3 MWrs, sometimes torn); in OWNER each batch
 * rings the tail register. */
static void stress(struct eh *h, uint32_t proto, uint32_t seed)
{
    uint32_t done = 0, rnd = seed, buf = 0, torn = 0;
    unsigned b, i, n;

    engine_init(h, 5, proto);
    eh_wr32(h, NICTX_REG_DESC_FETCH_MAX, 1 + lcg(&rnd) % 16);
    for (b = 0; b < 60; b++) {
        unsigned batch = 1 + lcg(&rnd) % 6;
        uint64_t blk[8] = {0};

        for (n = 0;; n++) {
            uint32_t head = eh_rd32(h, NICTX_REG_HEAD);
            done += (head - done) & eh_ring_mask(h);
            if (h->prod - done + batch <= 24)
                break;
            assert_true(n < 1000);
            eh_run(h, 20);
        }
        for (i = 0; i < batch; i++)
            post(h, 1, blk);
        if (proto == NICTX_PROTO_WC) {
            unsigned cut1 = 1 + lcg(&rnd) % 7, cut2 = cut1 + lcg(&rnd) % (8 - cut1);
            unsigned skip = lcg(&rnd) % 8 == 0 ? 1 + lcg(&rnd) % 2 : 0; /* torn: word 0 or 1 missing */

            blk[2] = (h->prod - 1) & eh_ring_mask(h);
            if (skip)
                torn++;
            /* words [0, cut1), [cut1, cut2), [cut2, 8), leaving word skip-1 out */
            if (skip == 1)
                eh_wc_write(h, buf, 8, blk + 1, cut1 - 1 ? cut1 - 1 : 0);
            else if (skip == 2) {
                eh_wc_write(h, buf, 0, blk, 1);
                if (cut1 > 2)
                    eh_wc_write(h, buf, 16, blk + 2, cut1 - 2);
            } else
                eh_wc_write(h, buf, 0, blk, cut1);
            if (cut2 > cut1)
                eh_wc_write(h, buf, 8 * cut1, blk + cut1, cut2 - cut1);
            eh_wc_write(h, buf, 8 * cut2, blk + cut2, 8 - cut2);
            buf ^= 1;
        } else {
            eh_doorbell(h);
        }
        eh_run(h, lcg(&rnd) % 300);
    }
    eh_settle(h, 100000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), h->prod & eh_ring_mask(h));
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    if (proto == NICTX_PROTO_WC) {
        uint32_t used = eh_rd32(h, NICTX_REG_CNT_WC), drop = eh_rd32(h, NICTX_REG_CNT_WC_DROP);
        if (getenv("TEST_ENGINE_VERBOSE"))
            printf("  wc: %u blocks, %u torn, used %u, dropped %u, not owned %u\n", b, torn, used,
                   drop, eh_rd32(h, NICTX_REG_CNT_NOT_OWNED));
        assert_true(drop >= torn);
        assert_int_equal(used + drop, b); /* every block used or dropped */
        assert_true(used > 0);
        /* Fetching stops at the pushed index: nothing is read too early. */
        assert_int_equal(eh_rd32(h, NICTX_REG_CNT_NOT_OWNED), 0);
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
