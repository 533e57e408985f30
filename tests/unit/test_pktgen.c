/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_pktgen.c - cmocka tests of driver/pktgen.c on driver/txq.c and the
 * recording fake platform.  A small device stand-in (dev_run) reads the
 * doorbelled descriptors and frames from fake host memory, checks them and
 * completes them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "common/fake_platform.h"
#include "nictx_hw.h"
#include "pktgen.h"
#include "check/scoreboard.h"
#include "txq.h"
#include "txq_reg.h"

#define FX_MEM_BYTES (4u << 20)
#define FX_NO_SEQ    UINT64_MAX

struct fx {
    struct txq q; /* first: 64-byte aligned */
    struct pktgen g;
    struct platform fp;
    int q_up, g_up;
    /* len/fill behaviour */
    unsigned max_len;
    uint64_t bad_len_seq; /* len() returns 0 for this seq */
    uint64_t fills;
    uint64_t len_max_seq; /* highest seq len() was asked about */
    uint64_t drops;       /* on_drop calls */
    uint64_t drop_seq;    /* seq of the latest */
    /* device stand-in */
    uint32_t dev_head;
    uint64_t dev_seq;     /* next seq expected on the wire */
    uint64_t dev_checked;
    uint64_t dev_bad;     /* frames with wrong length, address or bytes */
};

/* Frame length of packet seq (what the device stand-in checks against). */
static unsigned fx_len_of(const struct fx *f, uint64_t seq)
{
    if (seq == f->bad_len_seq)
        return 0;
    /* 60..max_len, varying: exercises short and long frames. */
    unsigned span = f->max_len - 60 + 1;
    return 60 + (unsigned)((seq * 7) % span);
}

/* pktgen's len(): as fx_len_of, noting the highest seq asked about. */
static unsigned fx_len(void *ctx, uint64_t seq)
{
    struct fx *f = ctx;
    if (seq > f->len_max_seq)
        f->len_max_seq = seq;
    return fx_len_of(f, seq);
}

static uint8_t fx_byte(uint64_t seq, unsigned i)
{
    return (uint8_t)(seq * 31u + i * 7u + 1u);
}

static void fx_fill(void *ctx, uint64_t seq, uint8_t *buf, unsigned len)
{
    struct fx *f = ctx;
    f->fills++;
    /* First 8 bytes: seq, little-endian; then a seq-dependent pattern. */
    for (unsigned i = 0; i < 8 && i < len; i++)
        buf[i] = (uint8_t)(seq >> (8 * i));
    for (unsigned i = 8; i < len; i++)
        buf[i] = fx_byte(seq, i);
}

static void fx_on_drop(void *ctx, uint64_t seq)
{
    struct fx *f = ctx;
    f->drops++;
    f->drop_seq = seq;
}

static int fx_setup(void **state)
{
    size_t sz = (sizeof(struct fx) + 63) & ~(size_t)63;
    struct fx *f = aligned_alloc(64, sz);
    if (f == NULL)
        return -1;
    memset(f, 0, sz);
    if (fake_platform_init(&f->fp, FX_MEM_BYTES) != 0) {
        free(f);
        return -1;
    }
    f->max_len = 100;
    f->bad_len_seq = FX_NO_SEQ;
    *state = f;
    return 0;
}

static int fx_teardown(void **state)
{
    struct fx *f = *state;
    if (f->g_up)
        pktgen_destroy(&f->g);
    if (f->q_up)
        txq_destroy(&f->q);
    fake_platform_destroy(&f->fp);
    free(f);
    return 0;
}

static void fx_txq_up(struct fx *f, unsigned ring_log2)
{
    struct txq_cfg c = {
        .ring_log2 = ring_log2,
        .wb_thresh = 1,
        .desc_fetch_max = 8,
        .mrrs_log2 = 9,
        .line_rate_fx = 0x50000u,
        .clean = TXQ_CLEAN_HEAD_WB,
    };
    assert_int_equal(txq_init(&f->q, &f->fp, &c, pktgen_complete, &f->g), 0);
    f->q_up = 1;
}

static struct pktgen_cfg fx_pg_cfg(struct fx *f, uint64_t count, unsigned burst)
{
    struct pktgen_cfg c = {
        .count = count,
        .burst = burst,
        .max_len = f->max_len,
        .buf_offset = 2, /* NET_IP_ALIGN */
        .len = fx_len,
        .fill = fx_fill,
        .ctx = f,
    };
    return c;
}

static void fx_up(struct fx *f, unsigned ring_log2, uint64_t count, unsigned burst)
{
    fx_txq_up(f, ring_log2);
    struct pktgen_cfg c = fx_pg_cfg(f, count, burst);
    assert_int_equal(pktgen_init(&f->g, &f->fp, &f->q, &c), 0);
    f->g_up = 1;
    fake_platform_clear_log(&f->fp);
}

/*
 * Device stand-in: fetch and check up to `limit` doorbelled descriptors,
 * then report the new head.  Returns the number completed.
 */
static unsigned dev_run(struct fx *f, unsigned limit)
{
    uint32_t tail = fake_platform_reg(&f->fp, NICTX_REG_TAIL);
    uint32_t mask = f->q.mask;
    unsigned n = 0;
    while (f->dev_head != tail && n < limit) {
        const uint8_t *d = fake_platform_bus_to_cpu(
            &f->fp, f->q.ring_dma + (uint64_t)f->dev_head * NICTX_DESC_BYTES, NICTX_DESC_BYTES);
        assert_non_null(d);
        uint64_t addr;
        uint32_t lf;
        memcpy(&addr, d, 8);
        memcpy(&lf, d + 8, 4);
        unsigned len = lf & NICTX_DESC_LEN_MASK;
        const uint8_t *fr = fake_platform_bus_to_cpu(&f->fp, addr, len);
        int ok = fr != NULL && addr % 64 == 2 && len == fx_len_of(f, f->dev_seq);
        if (ok) {
            uint64_t seq = 0;
            for (unsigned i = 0; i < 8; i++)
                seq |= (uint64_t)fr[i] << (8 * i);
            ok = seq == f->dev_seq;
            for (unsigned i = 8; ok && i < len; i++)
                ok = fr[i] == fx_byte(seq, i);
        }
        f->dev_bad += !ok;
        f->dev_checked++;
        f->dev_seq++;
        f->dev_head = (f->dev_head + 1) & mask;
        n++;
    }
    fake_platform_complete(&f->fp, f->dev_head);
    return n;
}

/* Doorbell values in log order, into out[]; returns how many. */
static size_t doorbells(const struct fx *f, uint32_t *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < f->fp.log_len; i++) {
        const struct fake_op *op = &f->fp.log[i];
        if (op->kind == FAKE_MMIO_W32 && op->addr == NICTX_REG_TAIL) {
            if (n < max)
                out[n] = (uint32_t)op->val;
            n++;
        }
    }
    return n;
}

/* Bus address in descriptor `i` of the ring. */
static uint64_t desc_addr(const struct fx *f, uint32_t i)
{
    const uint8_t *d = fake_platform_bus_to_cpu(
        &f->fp, f->q.ring_dma + (uint64_t)i * NICTX_DESC_BYTES, NICTX_DESC_BYTES);
    uint64_t addr;
    assert_non_null(d);
    memcpy(&addr, d, 8);
    return addr;
}

/* ---- tests ---- */

static void test_pktgen_sends_exact_count(void **state)
{
    struct fx *f = *state;
    fx_up(f, 3, 50, 4); /* ring 8: wraps many times */
    enum pktgen_ret r = PKTGEN_SENT;
    unsigned steps = 0;
    while ((r = pktgen_step(&f->g)) != PKTGEN_DONE && steps++ < 10000) {
        assert_int_not_equal(r, PKTGEN_ERROR);
        if (r == PKTGEN_BLOCKED)
            dev_run(f, ~0u);
    }
    assert_int_equal(r, PKTGEN_DONE);
    assert_int_equal(f->dev_checked, 50);
    assert_int_equal(f->dev_bad, 0);
    assert_int_equal(f->fills, 50);
    /* The look-ahead for xmit_more never asks beyond the last packet. */
    assert_int_equal(f->len_max_seq, 49);

    struct pktgen_stats gs;
    struct txq_stats qs;
    pktgen_get_stats(&f->g, &gs);
    txq_get_stats(&f->q, &qs);
    assert_int_equal(gs.sent, 50);
    assert_int_equal(gs.completed, 50);
    assert_int_equal(gs.bad_cookie, 0);
    assert_int_equal(qs.pkts, 50);
    assert_int_equal(qs.reclaimed, 50);
    assert_int_equal(qs.busy, 0);
    assert_int_equal(f->g.nfree, f->g.nbufs);
    assert_int_equal(f->fp.bad_access, 0);

    /* After DONE: nothing more happens. */
    size_t ops = f->fp.log_len;
    assert_int_equal(pktgen_step(&f->g), PKTGEN_DONE);
    assert_int_equal(f->fp.log_len, ops);
}

static void test_pktgen_done_only_after_complete(void **state)
{
    struct fx *f = *state;
    fx_up(f, 4, 5, 8); /* boundary: count < burst */
    assert_int_equal(pktgen_step(&f->g), PKTGEN_SENT);
    uint32_t db[4];
    assert_int_equal(doorbells(f, db, 4), 1);
    assert_int_equal(db[0], 5); /* the last packet ran out: more = 0 */

    /* All sent, none completed: blocked, not done. */
    assert_int_equal(pktgen_step(&f->g), PKTGEN_BLOCKED);
    assert_int_equal(pktgen_step(&f->g), PKTGEN_BLOCKED);
    assert_int_equal(dev_run(f, 4), 4);
    assert_int_equal(pktgen_step(&f->g), PKTGEN_SENT); /* reclaimed 4 of 5 */
    assert_int_equal(pktgen_step(&f->g), PKTGEN_BLOCKED);
    assert_int_equal(dev_run(f, 4), 1);
    assert_int_equal(pktgen_step(&f->g), PKTGEN_DONE);

    struct pktgen_stats gs;
    pktgen_get_stats(&f->g, &gs);
    assert_int_equal(gs.blocked, 3);
    assert_int_equal(gs.completed, 5);
    assert_int_equal(f->dev_bad, 0);
    /* Still exactly one doorbell. */
    assert_int_equal(doorbells(f, db, 4), 1);
}

static void test_pktgen_burst_doorbells(void **state)
{
    struct fx *f = *state;
    fx_up(f, 4, 10, 4); /* 10 = 4 + 4 + 2: short last burst */
    for (int i = 0; i < 3; i++)
        assert_int_equal(pktgen_step(&f->g), PKTGEN_SENT);
    uint32_t db[8];
    assert_int_equal(doorbells(f, db, 8), 3);
    assert_int_equal(db[0], 4);
    assert_int_equal(db[1], 8);
    assert_int_equal(db[2], 10);
    assert_int_equal(fake_platform_count(&f->fp, FAKE_WMB, FAKE_ANY), 3);
    /* One clean per step. */
    assert_int_equal(f->fp.work[PLAT_WORK_CLEAN_POLL], 3);
    assert_int_equal(f->fp.work[PLAT_WORK_XMIT_PKT], 10);
}

static void test_pktgen_burst1(void **state)
{
    struct fx *f = *state;
    fx_up(f, 4, 6, 1); /* boundary: burst 1, a doorbell per packet */
    for (int i = 0; i < 6; i++)
        assert_int_equal(pktgen_step(&f->g), PKTGEN_SENT);
    uint32_t db[8];
    assert_int_equal(doorbells(f, db, 8), 6);
    for (uint32_t i = 0; i < 6; i++)
        assert_int_equal(db[i], i + 1);
}

static void test_pktgen_ring_full_mid_burst(void **state)
{
    struct fx *f = *state;
    fx_up(f, 3, 100, 16); /* ring 8 holds 7: the burst is cut by the stop */
    assert_int_equal(pktgen_step(&f->g), PKTGEN_SENT);
    assert_true(txq_stopped(&f->q));
    uint32_t db[8];
    assert_int_equal(doorbells(f, db, 8), 1);
    assert_int_equal(db[0], 7); /* rung by the stop, though more was 1 */
    struct pktgen_stats gs;
    pktgen_get_stats(&f->g, &gs);
    assert_int_equal(gs.sent, 7);

    assert_int_equal(pktgen_step(&f->g), PKTGEN_BLOCKED);
    struct txq_stats qs;
    txq_get_stats(&f->q, &qs);
    assert_int_equal(qs.busy, 0); /* pktgen checks before it xmits */

    assert_int_equal(dev_run(f, ~0u), 7);
    /* The queue is still stopped when this step starts: it only reclaims
     * (and wakes); the step after sends the next 7. */
    assert_int_equal(pktgen_step(&f->g), PKTGEN_SENT);
    assert_false(txq_stopped(&f->q));
    assert_int_equal(pktgen_step(&f->g), PKTGEN_SENT);
    assert_int_equal(doorbells(f, db, 8), 2);
    assert_int_equal(db[1], (7 + 7) % 8);
    assert_int_equal(f->dev_bad, 0);
}

/* The class behind "a flush held back by tail coalescing": with the tail
 * writes coalesced (txq tail_coalesce N), every descriptor posted is still
 * announced to the device whenever the source pauses (pktgen_step returns
 * BLOCKED: the ring stopped, or no free buffer) and as soon as it has
 * sent its last packet: the tail register then equals next_to_use; and
 * no more often than the coalescing count allows.  Over coalescing counts below,
 * at and above the burst, bursts that divide the count and not, and a ring
 * that wraps; the device stand-in completes only what the tail announced,
 * so a tail held back stalls the source and the run never ends. */
static void fx_txq_up_coalesced(struct fx *f, unsigned ring_log2, unsigned coalesce)
{
    struct txq_cfg c = {
        .ring_log2 = ring_log2, .wb_thresh = 1, .desc_fetch_max = 8, .mrrs_log2 = 9,
        .line_rate_fx = 0x50000u, .clean = TXQ_CLEAN_HEAD_WB, .tail_coalesce = coalesce,
    };
    assert_int_equal(txq_init(&f->q, &f->fp, &c, pktgen_complete, &f->g), 0);
    f->q_up = 1;
}

static void test_pktgen_coalesced_tail_announced_at_pause(void **state)
{
    static const unsigned coalesce[] = {1, 3, 4, 6};
    static const unsigned burst[] = {1, 4, 5};

    for (unsigned ci = 0; ci < sizeof(coalesce) / sizeof(coalesce[0]); ci++) {
        for (unsigned bi = 0; bi < sizeof(burst) / sizeof(burst[0]); bi++) {
            struct fx *f = *state;
            fx_teardown(state);
            assert_int_equal(fx_setup(state), 0);
            f = *state;
            fx_txq_up_coalesced(f, 3, coalesce[ci]); /* ring 8: wraps */
            struct pktgen_cfg c = fx_pg_cfg(f, 37, burst[bi]);
            assert_int_equal(pktgen_init(&f->g, &f->fp, &f->q, &c), 0);
            f->g_up = 1;
            enum pktgen_ret r;
            unsigned steps = 0, pauses = 0;
            while ((r = pktgen_step(&f->g)) != PKTGEN_DONE && steps++ < 1000) {
                assert_int_not_equal(r, PKTGEN_ERROR);
                /* paused, or sent its last packet: nothing else will ring */
                if (r == PKTGEN_BLOCKED || f->g.stats.sent == 37)
                    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_TAIL),
                                     f->q.next_to_use);
                if (r == PKTGEN_BLOCKED) {
                    pauses++;
                    dev_run(f, ~0u);
                }
            }
            assert_int_equal(r, PKTGEN_DONE);
            assert_true(pauses > 0);
            /* and no more tail writes than the coalescing allows: one per
             * coalesce packets, one per pause (a stop or a flush), the end */
            uint32_t db[64];
            assert_true(doorbells(f, db, 64) <= 37 / coalesce[ci] + pauses + 1);
            assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_TAIL), 37 % 8);
            assert_int_equal(f->dev_checked, 37);
            assert_int_equal(f->dev_bad, 0);
        }
    }
}

static void test_pktgen_buffers(void **state)
{
    struct fx *f = *state;
    f->max_len = 62; /* boundary: 62 + 2 = 64 exactly, one line */
    fx_up(f, 4, 1, 1);
    assert_int_equal(f->g.nbufs, 32); /* the ring's 16 and as many spare (pktgen_bufs) */
    assert_int_equal(f->g.buf_size, 64);
    for (uint32_t i = 0; i < f->g.nbufs; i++) {
        assert_int_equal(f->g.bufs[i].dma % 64, 0);
        assert_int_equal(fake_platform_cpu_to_bus(&f->fp, f->g.bufs[i].cpu), f->g.bufs[i].dma);
        for (uint32_t j = 0; j < i; j++) {
            dma_addr_t a = f->g.bufs[i].dma, b = f->g.bufs[j].dma;
            assert_true(a >= b + 64 || b >= a + 64);
        }
    }
}

static void test_pktgen_buffer_size_rounds_up(void **state)
{
    struct fx *f = *state;
    f->max_len = 63; /* boundary: 63 + 2 = 65 -> 128 */
    fx_up(f, 3, 1, 1);
    assert_int_equal(f->g.buf_size, 128);
    assert_int_equal(f->g.nbufs, 16);
}

static void test_pktgen_bad_cfg(void **state)
{
    struct fx *f = *state;
    fx_txq_up(f, 3);
    size_t used = f->fp.mem_used;
    struct pktgen_cfg bad[10];
    struct pktgen_cfg c;
    size_t n = 0;
    c = fx_pg_cfg(f, 10, 1); c.burst = 0; bad[n++] = c;
    c = fx_pg_cfg(f, 10, 1); c.max_len = 0; bad[n++] = c;
    c = fx_pg_cfg(f, 10, 1); c.max_len = 16384; bad[n++] = c;
    c = fx_pg_cfg(f, 10, 1); c.buf_offset = PKTGEN_BUF_OFFSET_MAX + 1; bad[n++] = c;
    c = fx_pg_cfg(f, 10, 1); c.buf_place = BUF_PLACE_ALIGN; c.buf_align = 96; bad[n++] = c;
    c = fx_pg_cfg(f, 10, 1); c.buf_place = BUF_PLACE_ALIGN; c.buf_align = 32; bad[n++] = c;
    c = fx_pg_cfg(f, 10, 1); c.buf_place = BUF_PLACE_ALIGN; c.buf_align = 131072; bad[n++] = c;
    c = fx_pg_cfg(f, 10, 1); c.buf_place = (enum buf_place_mode)7; bad[n++] = c;
    c = fx_pg_cfg(f, 10, 1); c.len = NULL; bad[n++] = c;
    for (size_t i = 0; i < n; i++)
        assert_int_equal(pktgen_init(&f->g, &f->fp, &f->q, &bad[i]), -1);
    assert_int_equal(f->fp.mem_used, used);

    c = fx_pg_cfg(f, 10, 1);
    /* Wrong platform, or a txq wired to another context. */
    struct platform other;
    assert_int_equal(fake_platform_init(&other, 4096), 0);
    assert_int_equal(pktgen_init(&f->g, &other, &f->q, &c), -1);
    fake_platform_destroy(&other);
    struct pktgen g2;
    assert_int_equal(pktgen_init(&g2, &f->fp, &f->q, &c), -1);
    assert_int_equal(f->fp.mem_used, used);

    /* Boundary accepted: max_len 1. */
    c.max_len = 1;
    assert_int_equal(pktgen_init(&f->g, &f->fp, &f->q, &c), 0);
    assert_int_equal(f->g.buf_size, 64);
    pktgen_destroy(&f->g);

    /* Boundaries accepted: offset 63, max_len 16383. */
    c.buf_offset = 63;
    c.max_len = 16383;
    assert_int_equal(pktgen_init(&f->g, &f->fp, &f->q, &c), 0);
    assert_int_equal(f->g.buf_size, 16384 + 64);
    pktgen_destroy(&f->g);
}

static void test_pktgen_no_memory(void **state)
{
    struct fx *f = *state;
    struct platform small;
    /* Ring 8 (128 B) + wb line (64 B) + 3 of 8 buffers of 128 B. */
    assert_int_equal(fake_platform_init(&small, 128 + 64 + 3 * 128), 0);
    struct txq_cfg tc = {
        .ring_log2 = 3, .wb_thresh = 1, .desc_fetch_max = 8, .mrrs_log2 = 9,
        .line_rate_fx = 0x50000u, .clean = TXQ_CLEAN_HEAD_WB,
    };
    assert_int_equal(txq_init(&f->q, &small, &tc, pktgen_complete, &f->g), 0);
    struct pktgen_cfg c = fx_pg_cfg(f, 10, 1);
    assert_int_equal(pktgen_init(&f->g, &small, &f->q, &c), -2);
    assert_int_equal(fake_platform_count(&small, FAKE_DMA_ALLOC, FAKE_ANY), 2 + 4);
    txq_destroy(&f->q);
    fake_platform_destroy(&small);
}

static void test_pktgen_count_zero(void **state)
{
    struct fx *f = *state;
    fx_up(f, 3, 0, 4); /* boundary: nothing to send */
    assert_int_equal(pktgen_step(&f->g), PKTGEN_DONE);
    assert_int_equal(f->fp.log_len, 0);
}

static void test_pktgen_bad_len(void **state)
{
    struct fx *f = *state;
    f->bad_len_seq = 3;
    fx_up(f, 4, 10, 8);
    /* 0, 1, 2 go out; 2 carries more = 0 because 3's length is bad. */
    assert_int_equal(pktgen_step(&f->g), PKTGEN_ERROR);
    uint32_t db[4];
    assert_int_equal(doorbells(f, db, 4), 1);
    assert_int_equal(db[0], 3);
    struct pktgen_stats gs;
    pktgen_get_stats(&f->g, &gs);
    assert_int_equal(gs.sent, 3);
    size_t ops = f->fp.log_len;
    assert_int_equal(pktgen_step(&f->g), PKTGEN_ERROR);
    assert_int_equal(f->fp.log_len, ops);
}

static void test_pktgen_bad_len_first(void **state)
{
    struct fx *f = *state;
    f->bad_len_seq = 4;
    fx_up(f, 4, 10, 4);
    assert_int_equal(pktgen_step(&f->g), PKTGEN_SENT); /* 0..3 */
    /* Boundary: the bad packet opens the burst: nothing sent, no doorbell. */
    assert_int_equal(pktgen_step(&f->g), PKTGEN_ERROR);
    uint32_t db[4];
    assert_int_equal(doorbells(f, db, 4), 1);
    assert_int_equal(db[0], 4);
}

static void test_pktgen_complete_bad_cookie(void **state)
{
    struct fx *f = *state;
    fx_up(f, 3, 1, 1);
    int x;
    pktgen_complete(&f->g, &x);                /* not one of ours */
    pktgen_complete(&f->g, &f->g.bufs[0]);     /* ours, but already free */
    /* Boundary: one past the table (a pointer C allows). */
    pktgen_complete(&f->g, &f->g.bufs[f->g.nbufs]);
    pktgen_drop(&f->g, &f->g.bufs[f->g.nbufs]);
    pktgen_drop(&f->g, &f->g.bufs[0]);         /* dropped while free */
    struct pktgen_stats gs;
    pktgen_get_stats(&f->g, &gs);
    assert_int_equal(gs.bad_cookie, 5);
    assert_int_equal(gs.completed, 0);
    assert_int_equal(gs.dropped, 0);
    assert_int_equal(f->g.nfree, f->g.nbufs);
}

/* ---- queues: one txq and pktgen per queue, frames per (seed, queue, seq) -- */

#define MQ_N 3u

struct mq_queue {
    struct txq q; /* first: 64-byte aligned */
    struct pktgen g;
    unsigned id;
    const struct sb_gen_cfg *gen;
    uint32_t dev_head;
};

static unsigned mq_len(void *ctx, uint64_t seq)
{
    const struct mq_queue *x = ctx;
    return sb_pkt_len_q(x->gen, x->id, seq);
}

static void mq_fill(void *ctx, uint64_t seq, uint8_t *buf, unsigned len)
{
    const struct mq_queue *x = ctx;
    sb_pkt_fill_q(x->gen, x->id, seq, buf, len);
}

/* The device stand-in for one queue: at most one frame from its TAIL (in
 * its own register block), onto the wire (the scoreboard), and its head
 * written back to its own word.  1 if it sent one. */
static int mq_dev_send_one(struct platform *fp, struct mq_queue *x, struct scoreboard *sb,
                           sim_ps_t t)
{
    uint32_t tail = fake_platform_reg(fp, txq_reg(x->id, NICTX_QREG_TAIL));
    if (x->dev_head == tail)
        return 0;
    const struct nictx_tx_desc *d = &x->q.ring[x->dev_head];
    unsigned len = d->len_flags & NICTX_DESC_LEN_MASK;
    const uint8_t *frame = fake_platform_bus_to_cpu(fp, d->addr, len);
    assert_non_null(frame);
    sb_check_frame(sb, frame, len, crc32_fcs(frame, len), t);
    x->dev_head = (x->dev_head + 1) & x->q.mask;
    *x->q.wb = x->dev_head;
    return 1;
}

/* Three queues of one run share 100 packets 34, 33, 33; each pktgen sends
 * its queue's sequence through its own ring and doorbell; a round-robin
 * wire interleaves them and the scoreboard checks every frame per queue. */
static void test_pktgen_queues_streams(void **state)
{
    struct fx *f = *state;
    struct sb_cfg sc = {.gen = {.seed = 11, .min_len = 60, .max_len = 200},
                        .expected = 100, .max_outstanding = 16, .queues = MQ_N};
    struct scoreboard *sb = sb_create(&sc);
    struct mq_queue *mq = aligned_alloc(64, MQ_N * sizeof(*mq));
    struct sb_result r;
    sim_ps_t t = 0;

    assert_non_null(sb);
    assert_non_null(mq);
    memset(mq, 0, MQ_N * sizeof(*mq));
    for (unsigned i = 0; i < MQ_N; i++) {
        struct txq_cfg c = {.ring_log2 = 4, .wb_thresh = 1, .desc_fetch_max = 8,
                            .mrrs_log2 = 9, .line_rate_fx = 0x50000u,
                            .clean = TXQ_CLEAN_HEAD_WB, .queue = i, .queues = MQ_N};
        struct pktgen_cfg pc = {.count = sb_queue_expected(&sc, i), .burst = 4,
                                .max_len = 200, .len = mq_len, .fill = mq_fill, .ctx = &mq[i]};
        mq[i].id = i;
        mq[i].gen = &sc.gen;
        assert_int_equal(txq_init(&mq[i].q, &f->fp, &c, pktgen_complete, &mq[i].g), 0);
        assert_int_equal(pktgen_init(&mq[i].g, &f->fp, &mq[i].q, &pc), 0);
    }
    for (unsigned round = 0, left = MQ_N; left && round < 10000; round++) {
        left = 0;
        for (unsigned i = 0; i < MQ_N; i++) {
            for (unsigned q = 0; q < MQ_N; q++)
                sb_note_published_q(sb, q, mq[q].g.stats.sent, t);
            mq_dev_send_one(&f->fp, &mq[round % MQ_N], sb, t += 1000);
            left += pktgen_step(&mq[i].g) != PKTGEN_DONE;
        }
    }
    sb_finish(sb);
    sb_result(sb, &r);
    assert_int_equal(r.checked, 100);
    assert_int_equal(r.lost + r.corrupted + r.unpublished + r.stamp_overrun, 0);
    for (unsigned i = 0; i < MQ_N; i++) {
        struct sb_queue_result qr;
        sb_queue_result(sb, i, &qr);
        assert_int_equal(qr.checked, i == 0 ? 34 : 33);
        assert_int_equal(mq[i].g.stats.completed, qr.checked);
        pktgen_destroy(&mq[i].g);
        txq_destroy(&mq[i].q);
    }
    assert_int_equal(f->fp.bad_access, 0);
    free(mq);
    sb_destroy(sb);
}

/* Bytes of heap in use (glibc; under ASan the allocator is another one
 * and this stays constant, so the comparisons hold trivially). */
static size_t heap_in_use(void)
{
    return mallinfo2().uordblks;
}

/* pktgen_destroy gives back all the heap pktgen_init took (its DMA buffers
 * live as long as the platform), and a second destroy is harmless. */
static void test_pktgen_destroy_frees(void **state)
{
    struct fx *f = *state;
    fx_txq_up(f, 11); /* tables of 2048 entries: past glibc's small-chunk caches */
    struct pktgen_cfg c = fx_pg_cfg(f, 10, 2);
    /* A first round grows the fake's op log to what a round logs. */
    assert_int_equal(pktgen_init(&f->g, &f->fp, &f->q, &c), 0);
    pktgen_destroy(&f->g);
    fake_platform_clear_log(&f->fp);
    size_t heap = heap_in_use();
    assert_int_equal(pktgen_init(&f->g, &f->fp, &f->q, &c), 0);
    pktgen_destroy(&f->g);
    assert_int_equal(heap_in_use(), heap);
    assert_null(f->g.bufs);
    assert_null(f->g.free_list);
    assert_null(f->g.is_free);
    pktgen_destroy(&f->g);
    assert_int_equal(heap_in_use(), heap);
}

/* A buffer completed once is free again: completing it a second time is a
 * bad cookie, not a second completion. */
static void test_pktgen_complete_twice(void **state)
{
    struct fx *f = *state;
    fx_up(f, 3, 2, 2);
    assert_int_equal(pktgen_step(&f->g), PKTGEN_SENT);
    assert_int_equal(dev_run(f, ~0u), 2);
    assert_int_equal(pktgen_step(&f->g), PKTGEN_DONE); /* reclaims both */
    assert_int_equal(f->g.nfree, f->g.nbufs);
    pktgen_complete(&f->g, &f->g.bufs[0]);
    struct pktgen_stats gs;
    pktgen_get_stats(&f->g, &gs);
    assert_int_equal(gs.completed, 2);
    assert_int_equal(gs.bad_cookie, 1);
    assert_int_equal(f->g.nfree, f->g.nbufs);
}

/* A packet dropped by a queue reset: reported to on_drop with its seq,
 * counted as dropped and completed, its buffer free again. */
static void test_pktgen_drop(void **state)
{
    struct fx *f = *state;
    fx_txq_up(f, 3);
    struct pktgen_cfg c = fx_pg_cfg(f, 4, 4);
    c.on_drop = fx_on_drop;
    assert_int_equal(pktgen_init(&f->g, &f->fp, &f->q, &c), 0);
    f->g_up = 1;
    assert_int_equal(pktgen_step(&f->g), PKTGEN_SENT);
    pktgen_drop(&f->g, &f->g.bufs[2]); /* seq 2 */
    struct pktgen_stats gs;
    pktgen_get_stats(&f->g, &gs);
    assert_int_equal(gs.dropped, 1);
    assert_int_equal(gs.completed, 1);
    assert_int_equal(gs.bad_cookie, 0);
    assert_int_equal(f->drops, 1);
    assert_int_equal(f->drop_seq, 2);
    assert_int_equal(f->g.nfree, f->g.nbufs - 3);
}

/* pktgen_init sets every field and counter, whatever the struct held
 * (a pktgen may be re-initialised after use). */
static void test_pktgen_init_state(void **state)
{
    struct fx *f = *state;
    fx_txq_up(f, 3);
    memset(&f->g, 0xa5, sizeof(f->g));
    struct pktgen_cfg c = fx_pg_cfg(f, 10, 2);
    assert_int_equal(pktgen_init(&f->g, &f->fp, &f->q, &c), 0);
    f->g_up = 1;
    assert_int_equal(f->g.nbufs, 16);
    assert_int_equal(f->g.nfree, 16);
    assert_int_equal(f->g.last_buf, 0);
    assert_int_equal(f->g.qdisc_lock, 0);
    assert_int_equal(f->g.bug_fired, 0);
    assert_int_equal(f->g.in_burst, 0);
    assert_int_equal(f->g.failed, 0);
    assert_int_equal(f->g.stats.sent, 0);
    assert_int_equal(f->g.stats.completed, 0);
    assert_int_equal(f->g.stats.dropped, 0);
    assert_int_equal(f->g.stats.blocked, 0);
    assert_int_equal(f->g.stats.bad_cookie, 0);
    for (uint32_t i = 0; i < 8; i++)
        assert_int_equal(f->g.is_free[i], 1);
}

/* Buffers are taken in order 0, 1, 2, ... from a fresh pktgen (the free
 * list is a stack pushed in reverse). */
static void test_pktgen_buffer_order(void **state)
{
    struct fx *f = *state;
    fx_up(f, 4, 15, 15);
    assert_int_equal(pktgen_step(&f->g), PKTGEN_SENT);
    for (uint32_t i = 0; i < 15; i++)
        assert_int_equal(desc_addr(f, i), f->g.bufs[i].dma + 2);
    assert_int_equal(f->g.nfree, 32 - 15);
}

/* DRV_BUG_BUF_OVERWRITE, bug_at 4, bursts of 4: the first packet of the
 * first burst from seq 4 on (seq 4) reuses the buffer of the packet before
 * it (seq 3, buffer 3) -- once: seq 8, the next burst's first, takes a
 * free buffer again. */
static void test_pktgen_bug_buf_overwrite(void **state)
{
    struct fx *f = *state;
    fx_txq_up(f, 4);
    struct pktgen_cfg c = fx_pg_cfg(f, 12, 4);
    c.bug = DRV_BUG_BUF_OVERWRITE;
    c.bug_at = 4;
    assert_int_equal(pktgen_init(&f->g, &f->fp, &f->q, &c), 0);
    f->g_up = 1;
    for (int i = 0; i < 3; i++)
        assert_int_equal(pktgen_step(&f->g), PKTGEN_SENT);
    static const uint32_t buf_of_seq[12] = {0, 1, 2, 3, 3, 4, 5, 6, 7, 8, 9, 10};
    for (uint32_t i = 0; i < 12; i++)
        assert_int_equal(desc_addr(f, i), f->g.bufs[buf_of_seq[i]].dma + 2);
    assert_true(f->g.bug_fired);
    assert_int_equal(f->g.nfree, 32 - 11);
}

/* pktgen_send: bursts without cleaning; DONE as soon as all are sent (even
 * with none completed), and after that nothing more happens. */
static void test_pktgen_send_done_when_sent(void **state)
{
    struct fx *f = *state;
    fx_up(f, 4, 10, 4);
    assert_int_equal(pktgen_send(&f->g), PKTGEN_SENT);
    assert_int_equal(pktgen_send(&f->g), PKTGEN_SENT);
    assert_int_equal(pktgen_send(&f->g), PKTGEN_DONE); /* 8, 9 */
    struct pktgen_stats gs;
    pktgen_get_stats(&f->g, &gs);
    assert_int_equal(gs.sent, 10);
    assert_int_equal(gs.completed, 0);
    assert_int_equal(f->fp.work[PLAT_WORK_CLEAN_POLL], 0);
    size_t ops = f->fp.log_len;
    assert_int_equal(pktgen_send(&f->g), PKTGEN_DONE);
    assert_int_equal(f->fp.log_len, ops);
}

/* pktgen_send on a full ring: BLOCKED (counted) until another CPU cleans;
 * a bad length: ERROR, sticky. */
static void test_pktgen_send_blocked_and_error(void **state)
{
    struct fx *f = *state;
    f->bad_len_seq = 9;
    fx_up(f, 3, 20, 4); /* ring 8 holds 7 */
    assert_int_equal(pktgen_send(&f->g), PKTGEN_SENT); /* 0..3 */
    assert_int_equal(pktgen_send(&f->g), PKTGEN_SENT); /* 4..6, stopped */
    assert_int_equal(pktgen_send(&f->g), PKTGEN_BLOCKED);
    struct pktgen_stats gs;
    pktgen_get_stats(&f->g, &gs);
    assert_int_equal(gs.sent, 7);
    assert_int_equal(gs.blocked, 1);
    assert_int_equal(dev_run(f, ~0u), 7);
    assert_int_equal(txq_clean(&f->q), 7);
    assert_int_equal(pktgen_send(&f->g), PKTGEN_ERROR); /* 7, 8; 9 is bad */
    pktgen_get_stats(&f->g, &gs);
    assert_int_equal(gs.sent, 9);
    size_t ops = f->fp.log_len;
    assert_int_equal(pktgen_send(&f->g), PKTGEN_ERROR);
    assert_int_equal(f->fp.log_len, ops);
}

/* Up pktgen with a qdisc over a BQL queue whose limit is `limit` bytes (set
 * as the dql's lower bound, as a queue reset re-initialises it). */
static void fx_up_qdisc(struct fx *f, unsigned limit, uint64_t count, unsigned burst)
{
    struct txq_cfg tc = {
        .ring_log2 = 5, .wb_thresh = 1, .desc_fetch_max = 8, .mrrs_log2 = 9,
        .line_rate_fx = 0x50000u, .clean = TXQ_CLEAN_HEAD_WB, .bql = 1,
    };
    assert_int_equal(txq_init(&f->q, &f->fp, &tc, pktgen_complete, &f->g), 0);
    f->q_up = 1;
    assert_int_equal(dql_init(&f->q.dql, f->q.dql.order, limit, DQL_MAX_LIMIT,
                              f->q.dql.slack_hold_ns), 0);
    struct pktgen_cfg c = fx_pg_cfg(f, count, burst);
    c.qdisc = 1;
    assert_int_equal(pktgen_init(&f->g, &f->fp, &f->q, &c), 0);
    f->g_up = 1;
    fake_platform_clear_log(&f->fp);
}

/* One pktgen step over fx_up_qdisc(limit, 100 frames to send, burst): the frames
 * it sent (one qdisc batch). */
static uint64_t fx_qdisc_batch(struct fx *f, unsigned limit, unsigned burst)
{
    struct pktgen_stats gs;
    fx_up_qdisc(f, limit, 100, burst);
    assert_int_equal(pktgen_step(&f->g), PKTGEN_SENT);
    pktgen_get_stats(&f->g, &gs);
    return gs.sent;
}

/* The qdisc dequeues one packet, then one more per max_len of BQL budget
 * left after it: limit 500, max_len 100: budget 400 -> 300 -> 200 -> 100
 * -> 0, a batch of 5 (frames 60..88 bytes: BQL does not stop the queue),
 * one doorbell, five dequeues' work, under the qdisc lock once. */
static void test_pktgen_qdisc_batch_from_bql(void **state)
{
    struct fx *f = *state;
    assert_int_equal(fx_qdisc_batch(f, 500, 8), 5);
    uint32_t db[4];
    assert_int_equal(doorbells(f, db, 4), 1);
    assert_int_equal(db[0], 5);
    assert_int_equal(f->fp.work[PLAT_WORK_QDISC_PKT], 5);
    assert_int_equal(fake_platform_count(&f->fp, FAKE_LOCK, (uint64_t)(uintptr_t)&f->g.qdisc_lock),
                     1);
    assert_false(txq_stopped(&f->q));
}

/* Boundary: one byte of budget left still dequeues one more (limit 401:
 * 301, 201, 101, 1: five); none left does not (limit 400: 300, 200, 100,
 * 0: four). */
static void test_pktgen_qdisc_last_byte_of_budget(void **state)
{
    assert_int_equal(fx_qdisc_batch(*state, 401, 8), 5);
}

static void test_pktgen_qdisc_no_budget_left(void **state)
{
    assert_int_equal(fx_qdisc_batch(*state, 400, 8), 4);
}

/* Boundary: the batch never exceeds burst, however large the budget. */
static void test_pktgen_qdisc_batch_capped_by_burst(void **state)
{
    struct fx *f = *state;
    assert_int_equal(fx_qdisc_batch(f, 500, 4), 4);
    assert_int_equal(f->fp.work[PLAT_WORK_QDISC_PKT], 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_pktgen_sends_exact_count, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_done_only_after_complete, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_burst_doorbells, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_burst1, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_ring_full_mid_burst, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_coalesced_tail_announced_at_pause, fx_setup,
                                        fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_buffers, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_buffer_size_rounds_up, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_bad_cfg, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_no_memory, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_count_zero, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_bad_len, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_bad_len_first, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_complete_bad_cookie, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_queues_streams, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_complete_twice, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_destroy_frees, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_drop, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_init_state, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_buffer_order, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_bug_buf_overwrite, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_send_done_when_sent, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_send_blocked_and_error, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_qdisc_batch_from_bql, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_qdisc_batch_capped_by_burst, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_qdisc_last_byte_of_budget, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pktgen_qdisc_no_budget_left, fx_setup, fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
