/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_txq.c - cmocka tests of driver/txq.c against the recording fake
 * platform (tests/common/fake_platform.c).
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
#include "txq.h"
#include "txq_reg.h"

#define FX_MEM_BYTES (4u << 20)
#define FX_MAX_DONE  4096u
#define FX_LINE_RATE 0x50000u /* 5.0 B/cycle: 10 Gb/s at 250 MHz */

struct fx {
    struct txq q; /* first: 64-byte aligned */
    struct platform fp;
    struct txq_cfg cfg;
    int q_up;
    void *done[FX_MAX_DONE];
    size_t ndone;
    void *done_ctx_seen;
    struct txq_pkt pkt[FX_MAX_DONE]; /* the skbs fx_xmit hands the queue */
};

static void fx_done(void *ctx, void *cookie)
{
    struct fx *f = ctx;
    f->done_ctx_seen = ctx;
    if (f->ndone < FX_MAX_DONE)
        f->done[f->ndone] = cookie;
    f->ndone++;
}

static struct txq_cfg fx_default_cfg(void)
{
    struct txq_cfg c = {
        .ring_log2 = 4,
        .wb_thresh = 1,
        .irq_thresh = 0,
        .desc_fetch_max = 8,
        .mrrs_log2 = 9,
        .line_rate_fx = FX_LINE_RATE,
        .clean = TXQ_CLEAN_HEAD_WB,
        .irq_addr = 0,
        .irq_data = 0,
    };
    return c;
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
    f->cfg = fx_default_cfg();
    /* The queue's shared blocks are driver state the CPUs share, as the
     * harness registers them (sim/run/world.c): their accesses are touches. */
    fake_platform_share(&f->fp, &f->q, offsetof(struct txq, dql) + sizeof(struct dql));
    /* The order of register, memory and barrier operations is what these
     * tests check; shared-field touches (cache-line model) are left out. */
    f->fp.log_touches = 0;
    *state = f;
    return 0;
}

static int fx_teardown(void **state)
{
    struct fx *f = *state;
    if (f->q_up)
        txq_destroy(&f->q);
    fake_platform_destroy(&f->fp);
    free(f);
    return 0;
}

/* Bring the queue up with f->cfg and forget the init ops. */
static void fx_up(struct fx *f)
{
    assert_int_equal(txq_init(&f->q, &f->fp, &f->cfg, fx_done, f), 0);
    f->q_up = 1;
    fake_platform_clear_log(&f->fp);
}

static void *cookie_of(uint64_t seq)
{
    return (void *)(uintptr_t)(seq + 1);
}

static dma_addr_t dma_of(uint64_t seq)
{
    return 0x200000000ull + seq * 0x1000u + 2u;
}

static enum txq_ret fx_xmit(struct fx *f, uint64_t seq, uint16_t len, int more)
{
    /* The skb lives until it is freed (the driver keeps the pointer). */
    struct txq_pkt *pkt = &f->pkt[seq % FX_MAX_DONE];

    *pkt = (struct txq_pkt){.dma = dma_of(seq), .len = len, .cookie = cookie_of(seq),
                            .data = fake_platform_frame(dma_of(seq))};
    return txq_xmit(&f->q, pkt, more);
}

/* Packets from..to-1 of 60 B, each rung alone (xmit_more 0). */
static void fx_xmit_seqs(struct fx *f, uint64_t from, uint64_t to)
{
    for (uint64_t i = from; i < to; i++)
        assert_int_equal(fx_xmit(f, i, 60, 0), TXQ_OK);
}

static uint64_t desc_bus(const struct fx *f, uint32_t slot)
{
    return f->q.ring_dma + (uint64_t)slot * NICTX_DESC_BYTES;
}

static void read_desc(const struct fx *f, uint32_t slot, uint64_t *addr, uint32_t *len_flags,
                      uint32_t *rsvd)
{
    const uint8_t *d = fake_platform_bus_to_cpu(&f->fp, desc_bus(f, slot), NICTX_DESC_BYTES);
    assert_non_null(d);
    /* Decode little-endian bytes explicitly (what the device sees). */
    uint64_t a = 0;
    for (int i = 7; i >= 0; i--)
        a = a << 8 | d[i];
    *addr = a;
    *len_flags = (uint32_t)d[8] | (uint32_t)d[9] << 8 | (uint32_t)d[10] << 16 |
                 (uint32_t)d[11] << 24;
    *rsvd = (uint32_t)d[12] | (uint32_t)d[13] << 8 | (uint32_t)d[14] << 16 |
            (uint32_t)d[15] << 24;
}

static uint64_t reg64(const struct fx *f, uint32_t lo)
{
    return (uint64_t)fake_platform_reg(&f->fp, lo + 4) << 32 | fake_platform_reg(&f->fp, lo);
}

/* ---- init ---- */

static void test_txq_init_programs_registers(void **state)
{
    struct fx *f = *state;
    f->cfg.irq_thresh = 4;
    f->cfg.irq_addr = 0xfee00000ull;
    f->cfg.irq_data = 0x41;
    f->cfg.wb_thresh = 3;
    f->cfg.cpl_timeout = 0xFFFFFF;
    assert_int_equal(txq_init(&f->q, &f->fp, &f->cfg, fx_done, f), 0);
    f->q_up = 1;

    /* Ring above 4 GiB: the high half must be programmed too. */
    assert_true(f->q.ring_dma >= FAKE_BUS_BASE);
    assert_int_equal(f->q.ring_dma % 128, 0);
    assert_int_equal(reg64(f, NICTX_REG_RING_BASE_LO), f->q.ring_dma);
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_RING_BASE_HI), 1);
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_RING_LOG2), 4);
    assert_int_equal(reg64(f, NICTX_REG_WB_ADDR_LO), f->q.wb_dma);
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_WB_THRESH), 3);
    assert_int_equal(reg64(f, NICTX_REG_IRQ_ADDR_LO), 0xfee00000ull);
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_IRQ_DATA), 0x41);
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_IRQ_THRESH), 4);
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_MRRS_LOG2), 9);
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_DESC_FETCH_MAX), 8);
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_LINE_RATE), FX_LINE_RATE);
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_CPL_TIMEOUT), 0xFFFFFF);
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_CTRL), NICTX_CTRL_ENABLE);

    /* Writeback word: own 64-byte line, not inside the ring. */
    assert_int_equal(f->q.wb_dma % 64, 0);
    assert_true(f->q.wb_dma >= f->q.ring_dma + 16u * NICTX_DESC_BYTES ||
                f->q.wb_dma + 64 <= f->q.ring_dma);
    assert_int_equal(fake_platform_cpu_to_bus(&f->fp, f->q.wb), f->q.wb_dma);
    assert_int_equal(fake_platform_cpu_to_bus(&f->fp, f->q.ring), f->q.ring_dma);

    assert_int_equal(txq_free(&f->q), 15);
    assert_int_equal(txq_in_flight(&f->q), 0);
    assert_false(txq_stopped(&f->q));
    assert_int_equal(f->fp.bad_access, 0);
}

/* Three queues, DRR with weights 1, 2, 3: queue 0 writes QUEUES first and
 * the device-wide registers, each queue its own block (queue 0's too),
 * only the last CTRL.ENABLE;
 * each queue's doorbell goes to its own TAIL. */
static void test_txq_init_queues(void **state)
{
    struct fx *f = *state;
    struct txq *qs = aligned_alloc(64, 3 * sizeof(struct txq));
    const struct platform *p = &f->fp;

    assert_non_null(qs);
    for (unsigned i = 0; i < 3; i++) {
        struct txq_cfg c = f->cfg;
        c.queue = i;
        c.queues = 3;
        c.sched = NICTX_SCHED_DRR;
        c.drr_quantum = 4096;
        c.weight = i + 1;
        assert_int_equal(txq_init(&qs[i], &f->fp, &c, fx_done, f), 0);
        /* Enabled only once every queue is programmed. */
        assert_int_equal(fake_platform_count(p, FAKE_MMIO_W32, NICTX_REG_CTRL), i == 2);
    }
    long first_w = fake_platform_find(p, FAKE_MMIO_W32, FAKE_ANY, 0);
    assert_int_equal(p->log[first_w].addr, NICTX_REG_QUEUES);
    assert_int_equal(fake_platform_reg(p, NICTX_REG_QUEUES), 3);
    assert_int_equal(fake_platform_reg(p, NICTX_REG_SCHED), NICTX_SCHED_DRR);
    assert_int_equal(fake_platform_reg(p, NICTX_REG_DRR_QUANTUM), 4096);
    for (unsigned i = 0; i < 3; i++) {
        assert_int_equal(reg64(f, txq_reg(i, NICTX_QREG_RING_BASE_LO)), qs[i].ring_dma);
        assert_int_equal(fake_platform_reg(p, txq_reg(i, NICTX_QREG_RING_LOG2)), 4);
        assert_int_equal(reg64(f, txq_reg(i, NICTX_QREG_WB_ADDR_LO)), qs[i].wb_dma);
    }
    /* WEIGHT 1 is the reset value: not written. */
    assert_int_equal(fake_platform_count(p, FAKE_MMIO_W32, NICTX_REG_Q(0, NICTX_QREG_WEIGHT)), 0);
    assert_int_equal(fake_platform_reg(p, NICTX_REG_Q(1, NICTX_QREG_WEIGHT)), 2);
    assert_int_equal(fake_platform_reg(p, NICTX_REG_Q(2, NICTX_QREG_WEIGHT)), 3);
    /* Device-wide registers once. */
    assert_int_equal(fake_platform_count(p, FAKE_MMIO_W32, NICTX_REG_WB_THRESH), 1);
    assert_int_equal(fake_platform_count(p, FAKE_MMIO_W32, NICTX_REG_LINE_RATE), 1);

    fake_platform_clear_log(&f->fp);
    struct txq_pkt pkt = { .dma = dma_of(0), .len = 60, .cookie = cookie_of(0),
                           .data = fake_platform_frame(dma_of(0)) };
    assert_int_equal(txq_xmit(&qs[2], &pkt, 0), TXQ_OK);
    assert_int_equal(fake_platform_count(p, FAKE_MMIO_W32, NICTX_REG_Q(2, NICTX_QREG_TAIL)), 1);
    assert_int_equal(fake_platform_count(p, FAKE_MMIO_W32, NICTX_REG_TAIL), 0);
    assert_int_equal(f->fp.bad_access, 0);
    for (unsigned i = 0; i < 3; i++)
        txq_destroy(&qs[i]);
    free(qs);
}

/* One queue programs nothing new: QUEUES, SCHED, DRR_QUANTUM and WEIGHT
 * keep their reset values unwritten; a queue outside QUEUES is refused. */
static void test_txq_init_one_queue_unchanged(void **state)
{
    struct fx *f = *state;
    struct txq_cfg bad = f->cfg;

    bad.queue = 1;
    bad.queues = 1;
    assert_int_equal(txq_init(&f->q, &f->fp, &bad, fx_done, f), -1);
    bad.queue = 0;
    bad.weight = 256; /* boundary: 255 is the largest weight */
    assert_int_equal(txq_init(&f->q, &f->fp, &bad, fx_done, f), -1);
    bad.weight = 0;
    bad.drr_quantum = 63; /* boundary: 64..65536 */
    assert_int_equal(txq_init(&f->q, &f->fp, &bad, fx_done, f), -1);
    f->cfg.queues = 1;
    f->cfg.weight = 1; /* the reset value: not written */
    f->cfg.drr_quantum = NICTX_REG_DRR_QUANTUM_RESET;
    fx_up(f);
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_QUEUES), 0);
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_SCHED), 0);
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_DRR_QUANTUM), 0);
    assert_int_equal(f->q.reg_tail, NICTX_REG_Q(0, NICTX_QREG_TAIL));
    assert_int_equal(f->q.reg_head, NICTX_REG_Q(0, NICTX_QREG_HEAD));
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_TAIL), 0);
    assert_int_equal(f->fp.bad_access, 0);
}

static void test_txq_reg_decode(void **state)
{
    unsigned q;
    uint32_t r;

    (void)state;
    assert_true(txq_reg_decode(NICTX_REG_TAIL, &q, &r));
    assert_int_equal(q, 0);
    assert_int_equal(r, NICTX_QREG_TAIL);
    assert_true(txq_reg_decode(NICTX_REG_Q(63, NICTX_QREG_HEAD), &q, &r));
    assert_int_equal(q, 63);
    assert_int_equal(r, NICTX_QREG_HEAD);
    assert_false(txq_reg_decode(NICTX_REG_CTRL, &q, &r));
    assert_false(txq_reg_decode(NICTX_REG_Q(64, 0), &q, &r)); /* boundary: past the last block */
}

static void test_txq_init_op_order(void **state)
{
    struct fx *f = *state;
    assert_int_equal(txq_init(&f->q, &f->fp, &f->cfg, fx_done, f), 0);
    f->q_up = 1;
    const struct platform *p = &f->fp;

    /* Probe first: the very first op is the ID read. */
    assert_true(p->log_len > 0);
    assert_int_equal(p->log[0].kind, FAKE_MMIO_R32);
    assert_int_equal(p->log[0].addr, NICTX_REG_ID);
    assert_int_equal(fake_platform_count(p, FAKE_MMIO_R32, FAKE_ANY), 1);

    /* Ring base: exactly one 64-bit write, no 32-bit halves. */
    assert_int_equal(fake_platform_count(p, FAKE_MMIO_W64, NICTX_REG_RING_BASE_LO), 1);
    assert_int_equal(fake_platform_count(p, FAKE_MMIO_W32, NICTX_REG_RING_BASE_LO), 0);
    assert_int_equal(fake_platform_count(p, FAKE_MMIO_W32, NICTX_REG_RING_BASE_HI), 0);

    /* Both DMA allocations come before any register write. */
    long last_alloc = fake_platform_find_last(p, FAKE_DMA_ALLOC, FAKE_ANY);
    long first_w64 = fake_platform_find(p, FAKE_MMIO_W64, FAKE_ANY, 0);
    long first_w32 = fake_platform_find(p, FAKE_MMIO_W32, FAKE_ANY, 0);
    assert_int_equal(fake_platform_count(p, FAKE_DMA_ALLOC, FAKE_ANY), 2);
    assert_true(last_alloc < first_w64 && last_alloc < first_w32);
    /* Ring base is the first register written. */
    assert_true(first_w64 < first_w32);

    /* Enable is the last op of all, and written once. */
    assert_int_equal(p->log[p->log_len - 1].kind, FAKE_MMIO_W32);
    assert_int_equal(p->log[p->log_len - 1].addr, NICTX_REG_CTRL);
    assert_int_equal(p->log[p->log_len - 1].val, NICTX_CTRL_ENABLE);
    assert_int_equal(fake_platform_count(p, FAKE_MMIO_W32, NICTX_REG_CTRL), 1);
    /* No doorbell and no descriptor stores during bring-up. */
    assert_int_equal(fake_platform_count(p, FAKE_MMIO_W32, NICTX_REG_TAIL), 0);
    assert_int_equal(fake_platform_count(p, FAKE_STORE64, FAKE_ANY), 0);
}

static void test_txq_init_rejects_bad_cfg(void **state)
{
    struct fx *f = *state;
    struct txq_cfg bad[32];
    size_t n = 0;
    struct txq_cfg c;

    c = fx_default_cfg(); c.ring_log2 = 2; bad[n++] = c;   /* boundary: below 3 */
    c = fx_default_cfg(); c.ring_log2 = 17; bad[n++] = c;  /* boundary: above 16 */
    c = fx_default_cfg(); c.wb_thresh = 0; bad[n++] = c;   /* HEAD_WB needs writeback */
    c = fx_default_cfg(); c.wb_thresh = 16; bad[n++] = c;  /* boundary: = ring size */
    c = fx_default_cfg(); c.desc_fetch_max = 0; bad[n++] = c;
    c = fx_default_cfg(); c.desc_fetch_max = TXQ_FETCH_MAX_MAX + 1; bad[n++] = c;
    c = fx_default_cfg(); c.desc_wb_full = 1; bad[n++] = c; /* needs TXQ_CLEAN_DESC_WB */
    c = fx_default_cfg(); c.clean = TXQ_CLEAN_DESC_WB; c.desc_wb_full = 1; c.mps_log2 = 6; bad[n++] = c;
    c = fx_default_cfg(); c.mrrs_log2 = 6; bad[n++] = c;
    c = fx_default_cfg(); c.mrrs_log2 = 13; bad[n++] = c;
    c = fx_default_cfg(); c.line_rate_fx = 0; bad[n++] = c;
    c = fx_default_cfg(); c.line_rate_fx = TXQ_LINE_RATE_MAX + 1; bad[n++] = c;
    c = fx_default_cfg(); c.irq_thresh = 1; c.irq_addr = 0; bad[n++] = c;
    c = fx_default_cfg(); c.irq_thresh = 1; c.irq_addr = 0xfee00002ull; bad[n++] = c;
    c = fx_default_cfg(); c.irq_thresh = 0; c.irq_addr = 0xfee00000ull; bad[n++] = c;
    c = fx_default_cfg(); c.clean = (enum txq_clean_mode)7; bad[n++] = c;
    c = fx_default_cfg(); c.cpl_timeout = 1u << 24; bad[n++] = c; /* boundary: 24 bits */
    c = fx_default_cfg(); c.max_tags = 257; bad[n++] = c;
    c = fx_default_cfg(); c.max_rd_bytes = 4095; bad[n++] = c;
    c = fx_default_cfg(); c.max_rd_bytes = 1u << 21; bad[n++] = c;
    c = fx_default_cfg(); c.proto = (enum txq_proto)(TXQ_PROTO_WC + 1); bad[n++] = c;
    c = fx_default_cfg(); c.barrier = (enum txq_barrier)(TXQ_BARRIER_NONE + 1); bad[n++] = c;
    c = fx_default_cfg(); c.bug = DRV_BUG_COUNT; bad[n++] = c;
    c = fx_default_cfg(); c.dql_order = (enum dql_order)7; bad[n++] = c;
    c = fx_default_cfg(); c.tail_coalesce = 16; bad[n++] = c; /* boundary: the ring's size */

    for (size_t i = 0; i < n; i++) {
        assert_int_equal(txq_init(&f->q, &f->fp, &bad[i], fx_done, f), -1);
        /* Nothing touched: no op logged, no memory taken. */
        assert_int_equal(f->fp.log_len, 0);
        assert_int_equal(f->fp.mem_used, 0);
    }
    assert_int_equal(txq_init(&f->q, &f->fp, &f->cfg, NULL, f), -1);
    assert_int_equal(f->fp.log_len, 0);

    /* The good neighbours of the boundaries are accepted. */
    struct txq_cfg good[8];
    c = fx_default_cfg(); c.ring_log2 = 3; good[0] = c;
    c = fx_default_cfg(); c.ring_log2 = 16; good[1] = c;
    c = fx_default_cfg(); c.clean = TXQ_CLEAN_HEAD_MMIO; c.wb_thresh = 0; good[2] = c;
    c = fx_default_cfg(); c.wb_thresh = 15; c.desc_fetch_max = 32; c.mrrs_log2 = 12; good[3] = c;
    c = fx_default_cfg(); c.desc_fetch_max = 1; c.mrrs_log2 = 7;
    c.line_rate_fx = TXQ_LINE_RATE_MAX; good[4] = c;
    c = fx_default_cfg(); c.cpl_timeout = (1u << 24) - 1; good[5] = c;
    c = fx_default_cfg(); c.max_tags = 256; c.max_rd_bytes = 4096; c.tail_coalesce = 15;
    good[6] = c;
    c = fx_default_cfg(); c.max_rd_bytes = (1u << 21) - 1; good[7] = c;
    for (size_t i = 0; i < 8; i++) {
        assert_int_equal(txq_init(&f->q, &f->fp, &good[i], fx_done, f), 0);
        assert_int_equal(f->q.size, 1u << good[i].ring_log2);
        txq_destroy(&f->q);
    }
}

static void test_txq_init_bad_id(void **state)
{
    struct fx *f = *state;
    f->fp.id = 0xdeadbeefu;
    assert_int_equal(txq_init(&f->q, &f->fp, &f->cfg, fx_done, f), -3);
    /* Only the probe read happened. */
    assert_int_equal(f->fp.log_len, 1);
    assert_int_equal(f->fp.log[0].kind, FAKE_MMIO_R32);
    assert_int_equal(f->fp.log[0].addr, NICTX_REG_ID);
    assert_int_equal(f->fp.mem_used, 0);
}

/* Bytes of heap in use (glibc; under ASan the allocator is another one
 * and this stays constant, so the comparisons below hold trivially). */
static size_t heap_in_use(void)
{
    return mallinfo2().uordblks;
}

/* Every way txq_init runs out of DMA memory gives back the heap it took. */
static void test_txq_init_no_memory(void **state)
{
    struct fx *f = *state;
    struct platform tiny, small, no_cq;
    size_t heap;

    /* Ring of 16 (256 B) does not fit in 128 B. */
    assert_int_equal(fake_platform_init(&tiny, 128), 0);
    heap = heap_in_use();
    assert_int_equal(txq_init(&f->q, &tiny, &f->cfg, fx_done, f), -2);
    assert_int_equal(heap_in_use(), heap);
    assert_int_equal(fake_platform_count(&tiny, FAKE_DMA_ALLOC, FAKE_ANY), 1);
    assert_int_equal(fake_platform_count(&tiny, FAKE_MMIO_W32, FAKE_ANY), 0);
    assert_int_equal(fake_platform_count(&tiny, FAKE_MMIO_W64, FAKE_ANY), 0);
    fake_platform_destroy(&tiny);

    /* Boundary: the ring fits exactly, the writeback word does not. */
    assert_int_equal(fake_platform_init(&small, 256), 0);
    heap = heap_in_use();
    assert_int_equal(txq_init(&f->q, &small, &f->cfg, fx_done, f), -2);
    assert_int_equal(heap_in_use(), heap);
    assert_int_equal(fake_platform_count(&small, FAKE_DMA_ALLOC, FAKE_ANY), 2);
    assert_int_equal(small.mem_used, 256);
    assert_int_equal(fake_platform_count(&small, FAKE_MMIO_W32, FAKE_ANY), 0);
    assert_int_equal(fake_platform_count(&small, FAKE_MMIO_W64, FAKE_ANY), 0);
    fake_platform_destroy(&small);

    /* CQ mode: the ring fits (256 B), the writeback word with the CQ after
     * it (64 + 128 B, one allocation) does not. */
    assert_int_equal(fake_platform_init(&no_cq, 320), 0);
    heap = heap_in_use();
    f->cfg.clean = TXQ_CLEAN_CQ;
    assert_int_equal(txq_init(&f->q, &no_cq, &f->cfg, fx_done, f), -2);
    assert_int_equal(fake_platform_count(&no_cq, FAKE_DMA_ALLOC, FAKE_ANY), 2);
    assert_int_equal(heap_in_use(), heap);
    fake_platform_destroy(&no_cq);
}

/* ---- xmit ---- */

static void test_txq_xmit_desc_bytes(void **state)
{
    struct fx *f = *state;
    fx_up(f);
    /* Boundaries: len 1 and 16383. */
    assert_int_equal(fx_xmit(f, 0, 60, 1), TXQ_OK);
    assert_int_equal(fx_xmit(f, 1, 1, 1), TXQ_OK);
    assert_int_equal(fx_xmit(f, 2, 16383, 0), TXQ_OK);

    uint16_t lens[3] = { 60, 1, 16383 };
    for (uint32_t s = 0; s < 3; s++) {
        uint64_t addr;
        uint32_t lf, rsvd;
        read_desc(f, s, &addr, &lf, &rsvd);
        assert_int_equal(addr, dma_of(s));
        assert_int_equal(lf & NICTX_DESC_LEN_MASK, lens[s]);
        assert_int_equal(lf >> 16, 0); /* no flags */
        assert_int_equal(rsvd, 0);
    }
    /* Slot 3 untouched. */
    uint64_t addr;
    uint32_t lf, rsvd;
    read_desc(f, 3, &addr, &lf, &rsvd);
    assert_int_equal(addr, 0);
    assert_int_equal(lf, 0);
    assert_int_equal(f->fp.bad_access, 0);
}

static void test_txq_xmit_op_sequence(void **state)
{
    struct fx *f = *state;
    fx_up(f);
    assert_int_equal(fx_xmit(f, 0, 60, 0), TXQ_OK);
    const struct platform *p = &f->fp;
    /* work, two descriptor stores, wmb, doorbell - nothing else. */
    assert_int_equal(p->log_len, 5);
    assert_int_equal(p->log[0].kind, FAKE_CPU_WORK);
    assert_int_equal(p->log[0].addr, PLAT_WORK_XMIT_PKT);
    assert_int_equal(p->log[0].val, 1);
    assert_int_equal(p->log[1].kind, FAKE_STORE64);
    assert_int_equal(p->log[1].addr, desc_bus(f, 0));
    assert_int_equal(p->log[1].val, dma_of(0));
    assert_int_equal(p->log[2].kind, FAKE_STORE64);
    assert_int_equal(p->log[2].addr, desc_bus(f, 0) + 8);
    assert_int_equal(p->log[2].val, 60);
    assert_int_equal(p->log[3].kind, FAKE_WMB);
    assert_int_equal(p->log[4].kind, FAKE_MMIO_W32);
    assert_int_equal(p->log[4].addr, NICTX_REG_TAIL);
    assert_int_equal(p->log[4].val, 1);
    assert_int_equal(fake_platform_count(p, FAKE_DMA_WMB, FAKE_ANY), 0);
}

static void test_txq_xmit_bad_len(void **state)
{
    struct fx *f = *state;
    fx_up(f);
    /* Boundaries: 0 and 16384 are rejected with nothing done. */
    assert_int_equal(fx_xmit(f, 0, 0, 0), TXQ_EINVAL);
    assert_int_equal(fx_xmit(f, 0, 16384, 0), TXQ_EINVAL);
    assert_int_equal(f->fp.log_len, 0);
    assert_int_equal(txq_in_flight(&f->q), 0);
    struct txq_stats st;
    txq_get_stats(&f->q, &st);
    assert_int_equal(st.bad_len, 2);
    assert_int_equal(st.pkts, 0);
}

static void test_txq_xmit_more_burst8(void **state)
{
    struct fx *f = *state;
    fx_up(f); /* ring 16: a burst of 8 fits without stopping */
    for (uint64_t i = 0; i < 8; i++)
        assert_int_equal(fx_xmit(f, i, 60, i < 7), TXQ_OK);
    const struct platform *p = &f->fp;

    assert_int_equal(fake_platform_count(p, FAKE_MMIO_W32, NICTX_REG_TAIL), 1);
    assert_int_equal(fake_platform_count(p, FAKE_WMB, FAKE_ANY), 1);
    assert_int_equal(fake_platform_count(p, FAKE_STORE64, FAKE_ANY), 16);
    long db = fake_platform_find(p, FAKE_MMIO_W32, NICTX_REG_TAIL, 0);
    long wmb = fake_platform_find(p, FAKE_WMB, FAKE_ANY, 0);
    long last_store = fake_platform_find_last(p, FAKE_STORE64, FAKE_ANY);
    assert_int_equal(p->log[db].val, 8);
    assert_true(last_store < wmb);
    assert_true(wmb < db);
    assert_int_equal(db, (long)p->log_len - 1);
    assert_int_equal(f->fp.work[PLAT_WORK_XMIT_PKT], 8);

    struct txq_stats st;
    txq_get_stats(&f->q, &st);
    assert_int_equal(st.pkts, 8);
    assert_int_equal(st.descs, 8);
    assert_int_equal(st.doorbells, 1);
    assert_int_equal(st.wmbs, 1);
    assert_int_equal(st.stops, 0);
    assert_int_equal(txq_in_flight(&f->q), 8);
    assert_int_equal(txq_free(&f->q), 7);
}

static void test_txq_xmit_burst1_doorbell_each(void **state)
{
    struct fx *f = *state;
    fx_up(f);
    for (uint64_t i = 0; i < 5; i++)
        assert_int_equal(fx_xmit(f, i, 60, 0), TXQ_OK);
    const struct platform *p = &f->fp;
    assert_int_equal(fake_platform_count(p, FAKE_MMIO_W32, NICTX_REG_TAIL), 5);
    assert_int_equal(fake_platform_count(p, FAKE_WMB, FAKE_ANY), 5);

    /* Each doorbell i has tail i + 1, preceded by a wmb that follows the
     * packet's second descriptor store. */
    long from = 0;
    for (uint32_t i = 0; i < 5; i++) {
        long st = fake_platform_find(p, FAKE_STORE64, desc_bus(f, i) + 8, (size_t)from);
        long wmb = fake_platform_find(p, FAKE_WMB, FAKE_ANY, (size_t)from);
        long db = fake_platform_find(p, FAKE_MMIO_W32, NICTX_REG_TAIL, (size_t)from);
        assert_true(st >= 0 && st < wmb && wmb < db);
        assert_int_equal(p->log[db].val, i + 1);
        from = db + 1;
    }
}

static void test_txq_ring_full_stops_and_rings(void **state)
{
    struct fx *f = *state;
    f->cfg.ring_log2 = 3; /* boundary: smallest ring, 7 usable slots */
    f->cfg.wb_thresh = 7;
    fx_up(f);
    for (uint64_t i = 0; i < 6; i++) {
        assert_int_equal(fx_xmit(f, i, 60, 1), TXQ_OK);
        assert_false(txq_stopped(&f->q));
    }
    assert_int_equal(fake_platform_count(&f->fp, FAKE_MMIO_W32, NICTX_REG_TAIL), 0);

    /* The 7th fills the ring: stop + doorbell even though more = 1. */
    assert_int_equal(fx_xmit(f, 6, 60, 1), TXQ_OK);
    assert_true(txq_stopped(&f->q));
    assert_int_equal(txq_free(&f->q), 0);
    assert_int_equal(txq_in_flight(&f->q), 7);
    assert_int_equal(fake_platform_count(&f->fp, FAKE_MMIO_W32, NICTX_REG_TAIL), 1);
    long db = fake_platform_find_last(&f->fp, FAKE_MMIO_W32, NICTX_REG_TAIL);
    assert_int_equal(f->fp.log[db].val, 7);
    assert_int_equal(f->fp.log[db - 1].kind, FAKE_WMB);

    /* Afterwards: BUSY with nothing done. */
    size_t ops = f->fp.log_len;
    assert_int_equal(fx_xmit(f, 7, 60, 0), TXQ_BUSY);
    assert_int_equal(fx_xmit(f, 7, 60, 1), TXQ_BUSY);
    assert_int_equal(f->fp.log_len, ops);

    struct txq_stats st;
    txq_get_stats(&f->q, &st);
    assert_int_equal(st.stops, 1);
    assert_int_equal(st.busy, 2);
    assert_int_equal(st.pkts, 7);
}

/* Wake threshold: a stopped ring of 256 wakes only once 42 descriptors
 * (ixgbe's TX_WAKE_THRESHOLD) are free; boundary at 41 and 42. */
static void test_txq_wake_threshold(void **state)
{
    struct fx *f = *state;
    f->cfg.ring_log2 = 8;
    f->cfg.wb_thresh = 1;
    fx_up(f);
    for (uint64_t i = 0; i < 255; i++)
        assert_int_equal(fx_xmit(f, i, 60, 1), TXQ_OK);
    assert_true(txq_stopped(&f->q));
    fake_platform_complete(&f->fp, 41);
    assert_int_equal(txq_clean(&f->q), 41);
    assert_true(txq_stopped(&f->q));
    assert_int_equal(fx_xmit(f, 255, 60, 0), TXQ_BUSY);
    fake_platform_complete(&f->fp, 42);
    assert_int_equal(txq_clean(&f->q), 1);
    assert_false(txq_stopped(&f->q));
    assert_int_equal(txq_free(&f->q), 42);
}

/* The wake threshold of a ring of 2^log2: min(size / 4, TXQ_WAKE_THRESH). */
static unsigned wake_thresh_of(unsigned log2)
{
    unsigned quarter = (1u << log2) / 4;

    return quarter < TXQ_WAKE_THRESH ? quarter : TXQ_WAKE_THRESH;
}

/* Writes of the queue state's line (the stopped flag) since the log was
 * cleared. */
static size_t stopped_writes(const struct fx *f)
{
    return fake_platform_count(&f->fp, FAKE_TOUCH_W, (uint64_t)(uintptr_t)&f->q.stopped);
}

/* Fill a ring of 2^log2 (size - 1 posted: stopped), then complete one
 * short of the wake threshold (still stopped, BUSY), then one more (woken
 * with exactly the threshold free, and the next packet goes).  Stopping
 * and waking each write the queue state's line once; nothing else does.
 * Descriptors completed so far: `done`. */
static void fill_and_wake(struct fx *f, unsigned log2, uint32_t *done)
{
    unsigned size = 1u << log2, th = wake_thresh_of(log2), i;
    unsigned room = size - 1 - txq_in_flight(&f->q);
    struct txq_stats st;

    f->fp.log_touches = 1;
    fake_platform_clear_log(&f->fp);
    for (i = 0; i < room; i++)
        assert_int_equal(fx_xmit(f, i, 60, 1), TXQ_OK);
    assert_true(txq_stopped(&f->q));
    assert_int_equal(txq_free(&f->q), 0);
    assert_int_equal(stopped_writes(f), 1);
    *done += th - 1;
    fake_platform_complete(&f->fp, *done & (size - 1));
    fake_platform_clear_log(&f->fp);
    assert_int_equal(txq_clean(&f->q), th - 1);
    assert_true(txq_stopped(&f->q));
    assert_int_equal(fx_xmit(f, 0, 60, 0), TXQ_BUSY);
    assert_int_equal(stopped_writes(f), 0);
    *done += 1;
    fake_platform_complete(&f->fp, *done & (size - 1));
    assert_int_equal(txq_clean(&f->q), 1);
    assert_false(txq_stopped(&f->q));
    assert_int_equal(stopped_writes(f), 1);
    assert_int_equal(txq_free(&f->q), th);
    assert_int_equal(fx_xmit(f, 0, 60, 0), TXQ_OK);
    txq_get_stats(&f->q, &st);
    assert_int_equal(st.wakes, st.stops);
}

/* The wake threshold on every ring size where the rule changes: a quarter
 * of rings up to 128 (2, 4, 8, 16, 32), TXQ_WAKE_THRESH (42) from 256
 * (where a quarter, 64, first exceeds it) to the largest, 65536; twice per
 * ring, the second time across the wrap. */
static void test_txq_wake_threshold_ring_sizes(void **state)
{
    struct fx *f = *state;
    static const unsigned logs[] = {3, 4, 5, 6, 7, 8, 9, 16};
    unsigned i;

    assert_int_equal(wake_thresh_of(7), 32);
    assert_int_equal(wake_thresh_of(8), TXQ_WAKE_THRESH);
    for (i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
        uint32_t done = 0;

        f->cfg.ring_log2 = logs[i];
        f->cfg.wb_thresh = 1;
        fx_up(f);
        fill_and_wake(f, logs[i], &done);
        fill_and_wake(f, logs[i], &done);
        txq_destroy(&f->q);
        f->q_up = 0;
    }
}

static void test_txq_clean_reclaims_and_wakes(void **state)
{
    struct fx *f = *state;
    f->cfg.ring_log2 = 3;
    f->cfg.wb_thresh = 1;
    fx_up(f);
    for (uint64_t i = 0; i < 7; i++)
        assert_int_equal(fx_xmit(f, i, 60, 0), TXQ_OK);
    assert_true(txq_stopped(&f->q));

    /* Device has completed 3. */
    fake_platform_complete(&f->fp, 3);
    assert_int_equal(txq_clean(&f->q), 3);
    assert_int_equal(f->ndone, 3);
    for (size_t i = 0; i < 3; i++)
        assert_ptr_equal(f->done[i], cookie_of(i));
    assert_ptr_equal(f->done_ctx_seen, f);
    assert_false(txq_stopped(&f->q));
    assert_int_equal(txq_free(&f->q), 3);
    assert_int_equal(txq_in_flight(&f->q), 4);
    assert_int_equal(f->fp.work[PLAT_WORK_CLEAN_DESC], 3);
    assert_int_equal(f->fp.work[PLAT_WORK_CLEAN_POLL], 1);

    /* Nothing new completed: reclaim 0, no callback. */
    assert_int_equal(txq_clean(&f->q), 0);
    assert_int_equal(f->ndone, 3);

    /* Sending works again. */
    assert_int_equal(fx_xmit(f, 7, 60, 0), TXQ_OK);
    struct txq_stats st;
    txq_get_stats(&f->q, &st);
    assert_int_equal(st.wakes, 1);
    assert_int_equal(st.cleans, 2);
    assert_int_equal(st.reclaimed, 3);
    assert_int_equal(st.bad_head, 0);
}

static void test_txq_clean_empty(void **state)
{
    struct fx *f = *state;
    fx_up(f);
    /* Boundary: nothing in flight, head == next_to_clean == 0. */
    assert_int_equal(txq_clean(&f->q), 0);
    assert_int_equal(f->ndone, 0);
    struct txq_stats st;
    txq_get_stats(&f->q, &st);
    assert_int_equal(st.bad_head, 0);
    assert_int_equal(st.cleans, 1);
}

static void test_txq_wrap_around(void **state)
{
    struct fx *f = *state;
    f->cfg.ring_log2 = 3;
    f->cfg.wb_thresh = 1;
    fx_up(f);
    uint64_t seq = 0;
    uint32_t dev_head = 0;
    unsigned batch = 1;
    while (seq < 100) {
        /* Post a batch of 1..5 packets with xmit_more, last one rings. */
        unsigned k = batch;
        if (k > txq_free(&f->q))
            k = txq_free(&f->q);
        for (unsigned i = 0; i < k && seq < 100; i++, seq++) {
            uint32_t slot = (uint32_t)(seq % 8);
            int more = i + 1 < k && seq + 1 < 100;
            assert_int_equal(fx_xmit(f, seq, (uint16_t)(60 + seq), more), TXQ_OK);
            uint64_t addr;
            uint32_t lf, rsvd;
            read_desc(f, slot, &addr, &lf, &rsvd);
            assert_int_equal(addr, dma_of(seq));
            assert_int_equal(lf, 60 + seq);
        }
        long db = fake_platform_find_last(&f->fp, FAKE_MMIO_W32, NICTX_REG_TAIL);
        assert_true(db >= 0);
        assert_int_equal(f->fp.log[db].val, seq % 8);
        /* Device completes everything doorbelled so far. */
        dev_head = f->fp.log[db].val;
        fake_platform_complete(&f->fp, dev_head);
        txq_clean(&f->q);
        assert_int_equal(txq_in_flight(&f->q), 0);
        batch = batch % 5 + 1;
    }
    assert_int_equal(f->ndone, 100);
    for (size_t i = 0; i < 100; i++)
        assert_ptr_equal(f->done[i], cookie_of(i));
    assert_int_equal(f->q.next_to_use, 100 % 8);
    assert_int_equal(f->q.next_to_clean, 100 % 8);
    struct txq_stats st;
    txq_get_stats(&f->q, &st);
    assert_int_equal(st.pkts, 100);
    assert_int_equal(st.reclaimed, 100);
    assert_int_equal(st.doorbells, st.wmbs);
    assert_int_equal(st.doorbells, fake_platform_count(&f->fp, FAKE_MMIO_W32, NICTX_REG_TAIL));
    assert_int_equal(f->fp.bad_access, 0);
}

static void test_txq_bad_head(void **state)
{
    struct fx *f = *state;
    f->cfg.ring_log2 = 3;
    fx_up(f);
    fx_xmit_seqs(f, 0, 2);

    /* Boundary: head == ring size. */
    fake_platform_complete(&f->fp, 8);
    assert_int_equal(txq_clean(&f->q), 0);
    /* Inside the ring but beyond next_to_use (only 2 in flight). */
    fake_platform_complete(&f->fp, 5);
    assert_int_equal(txq_clean(&f->q), 0);
    assert_int_equal(f->ndone, 0);
    assert_int_equal(txq_in_flight(&f->q), 2);
    struct txq_stats st;
    txq_get_stats(&f->q, &st);
    assert_int_equal(st.bad_head, 2);

    /* Boundary: head == next_to_use is fine. */
    fake_platform_complete(&f->fp, 2);
    assert_int_equal(txq_clean(&f->q), 2);
    txq_get_stats(&f->q, &st);
    assert_int_equal(st.bad_head, 2);
    assert_int_equal(st.reclaimed, 2);

    /* Behind next_to_clean: a stale head pointing into what was already
     * reclaimed (its slot's length cleared by the reclaim) is refused, not
     * taken as a head a whole ring ahead. */
    fx_xmit_seqs(f, 2, 4);
    fake_platform_complete(&f->fp, 1);
    assert_int_equal(txq_clean(&f->q), 0);
    assert_int_equal(f->ndone, 2);
    assert_int_equal(txq_in_flight(&f->q), 2);
    txq_get_stats(&f->q, &st);
    assert_int_equal(st.bad_head, 3);
    fake_platform_complete(&f->fp, 4);
    assert_int_equal(txq_clean(&f->q), 2);
    assert_int_equal(f->ndone, 4);
}

/* The class behind "a bad head on a wrapped ring": every ring index the
 * driver computes (in flight, free, the head's check, the reclaim) at the
 * wrap.  An 8-slot ring with next_to_clean at 6 and four descriptors in
 * flight across the wrap (slots 6, 7, 0, 1; next_to_use 2): the heads
 * beyond next_to_use (3..5) and the ring's size (8, though slot 7 is in
 * flight) are refused; next_to_clean itself reclaims nothing; 7, then 0
 * (the head wraps), then 2 reclaim one, one and two; a stale head behind
 * next_to_clean after the wrap (7) is refused. */
static void test_txq_bad_head_wrapped(void **state)
{
    static const uint32_t bad[] = {8, 3, 4, 5};
    struct fx *f = *state;
    struct txq_stats st;
    f->cfg.ring_log2 = 3;
    fx_up(f);
    fx_xmit_seqs(f, 0, 6);
    fake_platform_complete(&f->fp, 6);
    assert_int_equal(txq_clean(&f->q), 6);
    fx_xmit_seqs(f, 6, 10);
    assert_int_equal(f->q.next_to_use, 2);
    assert_int_equal(txq_in_flight(&f->q), 4);
    assert_int_equal(txq_free(&f->q), 3);

    for (unsigned k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
        fake_platform_complete(&f->fp, bad[k]);
        /* a budget of a whole ring: a head let through cannot loop forever */
        assert_int_equal(txq_clean_budget(&f->q, &f->fp, 8), 0);
        txq_get_stats(&f->q, &st);
        assert_int_equal(st.bad_head, k + 1);
        assert_int_equal(txq_in_flight(&f->q), 4);
    }
    fake_platform_complete(&f->fp, 6); /* boundary: head == next_to_clean */
    assert_int_equal(txq_clean(&f->q), 0);
    fake_platform_complete(&f->fp, 7);
    assert_int_equal(txq_clean(&f->q), 1);
    fake_platform_complete(&f->fp, 0); /* the head wraps */
    assert_int_equal(txq_clean(&f->q), 1);
    assert_int_equal(f->q.next_to_clean, 0);
    fake_platform_complete(&f->fp, 7); /* stale: slot 6 already reclaimed */
    assert_int_equal(txq_clean(&f->q), 0);
    fake_platform_complete(&f->fp, 2);
    assert_int_equal(txq_clean(&f->q), 2);
    txq_get_stats(&f->q, &st);
    assert_int_equal(st.bad_head, 5);
    assert_int_equal(st.reclaimed, 10);
    assert_int_equal(txq_in_flight(&f->q), 0);
    assert_int_equal(txq_free(&f->q), 7);
    assert_int_equal(f->ndone, 10);
    for (size_t i = 0; i < 10; i++)
        assert_ptr_equal(f->done[i], cookie_of(i));
}

static void test_txq_clean_mmio_mode(void **state)
{
    struct fx *f = *state;
    f->cfg.clean = TXQ_CLEAN_HEAD_MMIO;
    f->cfg.wb_thresh = 0;
    fx_up(f);
    for (uint64_t i = 0; i < 4; i++)
        assert_int_equal(fx_xmit(f, i, 60, i < 3), TXQ_OK);
    fake_platform_clear_log(&f->fp);
    f->fp.head = 3; /* MMIO only: the writeback word stays 0 */

    assert_int_equal(txq_clean(&f->q), 3);
    assert_int_equal(fake_platform_count(&f->fp, FAKE_MMIO_R32, FAKE_ANY), 1);
    assert_int_equal(fake_platform_count(&f->fp, FAKE_MMIO_R32, NICTX_REG_HEAD), 1);
    assert_int_equal(fake_platform_count(&f->fp, FAKE_LOAD32, FAKE_ANY), 0);

    /* An empty clean still reads once. */
    assert_int_equal(txq_clean(&f->q), 0);
    assert_int_equal(fake_platform_count(&f->fp, FAKE_MMIO_R32, NICTX_REG_HEAD), 2);
    assert_int_equal(f->ndone, 3);
}

static void test_txq_clean_wb_mode(void **state)
{
    struct fx *f = *state;
    fx_up(f);
    for (uint64_t i = 0; i < 4; i++)
        assert_int_equal(fx_xmit(f, i, 60, i < 3), TXQ_OK);
    fake_platform_clear_log(&f->fp);

    /* Only the MMIO head moved: writeback mode must not see it. */
    f->fp.head = 4;
    assert_int_equal(txq_clean(&f->q), 0);
    /* Writeback word says 2. */
    fake_platform_complete(&f->fp, 2);
    assert_int_equal(txq_clean(&f->q), 2);
    assert_int_equal(fake_platform_count(&f->fp, FAKE_MMIO_R32, FAKE_ANY), 0);
    assert_int_equal(fake_platform_count(&f->fp, FAKE_LOAD32, f->q.wb_dma), 2);
    /* Per poll: one CLEAN_POLL unit; per descriptor: one CLEAN_DESC. */
    assert_int_equal(f->fp.work[PLAT_WORK_CLEAN_POLL], 2);
    assert_int_equal(f->fp.work[PLAT_WORK_CLEAN_DESC], 2);
}

/* DESC_WB: the head is the slot after the newest DD of this pass in the
 * in-flight slots; a DD with the other pass's phase is stale; the
 * descriptor write of the next pass clears DD. */
static void test_txq_clean_desc_wb_mode(void **state)
{
    struct fx *f = *state;
    uint64_t seq = 0;

    f->cfg.clean = TXQ_CLEAN_DESC_WB;
    f->cfg.wb_thresh = 4;
    assert_int_equal(txq_init(&f->q, &f->fp, &f->cfg, fx_done, f), 0);
    f->q_up = 1;
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_CPL_MODE), NICTX_CPL_MODE_DESC_WB);
    assert_null(f->q.cq);
    for (; seq < 10; seq++)
        assert_int_equal(fx_xmit(f, seq, 60, seq < 9), TXQ_OK);
    assert_int_equal(txq_clean(&f->q), 0); /* no DD yet */

    f->q.ring[3].rsvd = NICTX_DESC_DD | NICTX_DESC_OWNER; /* pass 1: phase 1 */
    assert_int_equal(txq_clean(&f->q), 4);
    f->q.ring[7].rsvd = NICTX_DESC_DD; /* phase 0: stale, from no pass of ours */
    assert_int_equal(txq_clean(&f->q), 0);
    f->q.ring[5].rsvd = NICTX_DESC_DD | NICTX_DESC_OWNER;
    f->q.ring[8].rsvd = NICTX_DESC_DD | NICTX_DESC_OWNER; /* the newest wins */
    assert_int_equal(txq_clean(&f->q), 5);
    assert_int_equal(f->ndone, 9);

    /* The next pass: slots 10..15 and 0..3; slot 3's old DD is cleared by
     * its new descriptor, slot 2 gets the DD of pass 2 (phase 0). */
    for (; seq < 20; seq++)
        assert_int_equal(fx_xmit(f, seq, 60, seq < 19), TXQ_OK);
    assert_int_equal(f->q.ring[3].rsvd & NICTX_DESC_DD, 0);
    f->q.ring[8].rsvd = NICTX_DESC_DD | NICTX_DESC_OWNER; /* old, not in flight */
    f->q.ring[9].rsvd = NICTX_DESC_DD | NICTX_DESC_OWNER; /* the last of pass 1 */
    assert_int_equal(txq_clean(&f->q), 1);
    f->q.ring[2].rsvd = NICTX_DESC_DD;
    assert_int_equal(txq_clean(&f->q), 9);
    assert_int_equal(f->ndone, 19);
    for (size_t i = 0; i < 19; i++)
        assert_ptr_equal(f->done[i], cookie_of(i));
}

/* DESC_WB with whole descriptors (desc_wb_full): the driver programs
 * MPS_LOG2 and CPL_MODE DESC_WB_FULL; the device's writeback zeroes word 0
 * and the length of every descriptor of the batch, and the cleanup takes
 * the newest DD of this pass as before, from what it kept (q->buf). */
static void test_txq_clean_desc_wb_full_mode(void **state)
{
    struct fx *f = *state;
    static const struct nictx_tx_desc wb = {0, 0, NICTX_DESC_DD | NICTX_DESC_OWNER};
    uint64_t seq = 0;

    f->cfg.clean = TXQ_CLEAN_DESC_WB;
    f->cfg.desc_wb_full = 1;
    f->cfg.mps_log2 = 8;
    f->cfg.wb_thresh = 4;
    assert_int_equal(txq_init(&f->q, &f->fp, &f->cfg, fx_done, f), 0);
    f->q_up = 1;
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_CPL_MODE), NICTX_CPL_MODE_DESC_WB_FULL);
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_MPS_LOG2), 8);
    for (; seq < 10; seq++)
        assert_int_equal(fx_xmit(f, seq, 60, seq < 9), TXQ_OK);
    assert_int_equal(txq_clean(&f->q), 0);
    for (unsigned i = 0; i < 4; i++) /* the batch's four, written back whole */
        f->q.ring[i] = wb;
    assert_int_equal(txq_clean(&f->q), 4);
    for (unsigned i = 4; i < 8; i++)
        f->q.ring[i] = wb;
    assert_int_equal(txq_clean(&f->q), 4);
    assert_int_equal(f->ndone, 8);
    for (size_t i = 0; i < 8; i++)
        assert_ptr_equal(f->done[i], cookie_of(i));
}

/* CQ: CQEs of the expected phase at the consumer index, the phase flipping
 * at each wrap of the CQ; a CQ smaller than the ring is refused. */
static void test_txq_clean_cq_mode(void **state)
{
    struct fx *f = *state;
    uint64_t seq = 0;
    unsigned j = 0;

    f->cfg.ring_log2 = 3;
    f->cfg.cq_log2 = 2;
    assert_int_equal(txq_init(&f->q, &f->fp, &f->cfg, fx_done, f), -1); /* CQ < ring */
    f->cfg.clean = TXQ_CLEAN_CQ;
    assert_int_equal(txq_init(&f->q, &f->fp, &f->cfg, fx_done, f), -1);
    f->cfg.cq_log2 = 0; /* the ring's size: 8 */
    f->cfg.wb_thresh = 2;
    assert_int_equal(txq_init(&f->q, &f->fp, &f->cfg, fx_done, f), 0);
    f->q_up = 1;
    assert_non_null(f->q.cq);
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_CPL_MODE), NICTX_CPL_MODE_CQ);
    assert_int_equal(reg64(f, NICTX_REG_CQ_BASE_LO), f->q.cq_dma);
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_CQ_LOG2), 3);

    /* Rounds of 4 frames, 2 CQEs each: 20 CQEs, 2.5 passes of the CQ. */
    for (unsigned r = 0; r < 10; r++) {
        for (unsigned k = 0; k < 4; k++, seq++)
            assert_int_equal(fx_xmit(f, seq, 60, k < 3), TXQ_OK);
        assert_int_equal(txq_clean(&f->q), 0); /* the slot holds last pass's CQE */
        for (unsigned k = 0; k < 2; k++, j++) {
            uint64_t phase = ((j >> 3) & 1) ? 0 : NICTX_CQE_PHASE;
            uint64_t last = (seq - 4 + 2 * k + 1) & 7;
            f->q.cq[j & 7] = phase | (2ull << NICTX_CQE_CNT_SHIFT) | last;
        }
        assert_int_equal(txq_clean(&f->q), 4);
    }
    assert_int_equal(f->ndone, 40);
    assert_int_equal(f->q.cq_ci, 20 & 7);
    assert_int_equal(f->q.cq_phase, 1); /* two wraps: back to 1 */
}

static void test_txq_layout(void **state)
{
    (void)state;
    /* Producer and consumer state on different 64-byte lines. */
    size_t prod = offsetof(struct txq, next_to_use);
    size_t cons = offsetof(struct txq, next_to_clean);
    assert_int_equal(prod % 64, 0);
    assert_int_equal(cons % 64, 0);
    assert_true(cons / 64 != prod / 64);
    /* Each line holds what the cache-line model says: the per-packet
     * counter with the producer's index, last_nr with the consumer's. */
    assert_true(offsetof(struct txq, st_pkts) / 64 == prod / 64);
    assert_true(offsetof(struct txq, last_nr) / 64 == cons / 64);
    /* The read-mostly fields both sides read per packet share a line, not
     * the struct's first (which --layout packed puts with the producer's). */
    size_t hot = offsetof(struct txq, mask) / 64;
    assert_true(hot != 0 && hot < prod / 64);
    assert_true(offsetof(struct txq, ring) / 64 == hot);
    assert_true(offsetof(struct txq, buf) / 64 == hot);
    assert_true(offsetof(struct txq, tail) / 64 == hot);
    assert_true(offsetof(struct txq, size) / 64 == hot);
    /* The bookkeeping the CPUs do not share comes after BQL, apart from the
     * driver state the model sees. */
    size_t shared_end = offsetof(struct txq, dql) + sizeof(struct dql);
    assert_true(offsetof(struct txq, clean) >= shared_end);
    assert_true(offsetof(struct txq, st_bad_len) >= shared_end);
    assert_true(offsetof(struct txq, phase) >= shared_end);
    assert_true(offsetof(struct txq, progress_ns) >= shared_end);
}


/* The index of the n-th (0-based) logged op of `kind`, or -1. */
static long nth_op(const struct platform *p, enum fake_op_kind kind, unsigned n)
{
    long i = -1;
    do {
        i = fake_platform_find(p, kind, FAKE_ANY, (size_t)(i + 1));
    } while (i >= 0 && n-- > 0);
    return i;
}

/* Owner protocol, per-desc: body, dma_wmb, owner bit (phase 1 on the first
 * pass), then wmb and the kick; PROTO was programmed before enable. */
static void test_txq_owner_per_desc(void **state)
{
    struct fx *f = *state;
    f->cfg.proto = TXQ_PROTO_OWNER;
    assert_int_equal(txq_init(&f->q, &f->fp, &f->cfg, fx_done, f), 0);
    f->q_up = 1;
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_PROTO), NICTX_PROTO_OWNER);
    fake_platform_clear_log(&f->fp);
    assert_int_equal(fx_xmit(f, 0, 60, 0), TXQ_OK);
    const struct platform *p = &f->fp;
    assert_int_equal(p->log_len, 7);
    assert_int_equal(p->log[1].kind, FAKE_STORE64);
    assert_int_equal(p->log[2].kind, FAKE_STORE32);
    assert_int_equal(p->log[2].addr, desc_bus(f, 0) + 8);
    assert_int_equal(p->log[2].val, 60);
    assert_int_equal(p->log[3].kind, FAKE_DMA_WMB);
    assert_int_equal(p->log[4].kind, FAKE_STORE32);
    assert_int_equal(p->log[4].addr, desc_bus(f, 0) + 12);
    assert_int_equal(p->log[4].val, NICTX_DESC_OWNER);
    assert_int_equal(p->log[5].kind, FAKE_WMB);
    assert_int_equal(p->log[6].kind, FAKE_MMIO_W32);
    assert_int_equal(p->log[6].addr, NICTX_REG_TAIL);
}

/* The owner bit flips on every pass over the ring (16 slots here). */
static void test_txq_owner_phase_flips(void **state)
{
    struct fx *f = *state;
    uint64_t seq = 0;
    uint64_t a;
    uint32_t lf, rsvd;
    f->cfg.proto = TXQ_PROTO_OWNER;
    fx_up(f);
    for (int pass = 0; pass < 3; pass++) {
        for (unsigned i = 0; i < 8; i++, seq++) { /* half a ring, then clean */
            assert_int_equal(fx_xmit(f, seq, 60, 0), TXQ_OK);
            read_desc(f, (uint32_t)(seq % 16), &a, &lf, &rsvd);
            /* passes over the 16-slot ring: seq 0..15 first, 16..31 second */
            assert_int_equal(rsvd, (seq / 16) % 2 == 0 ? NICTX_DESC_OWNER : 0);
        }
        fake_platform_complete(&f->fp, (uint32_t)(seq % 16));
        txq_clean(&f->q);
    }
}

/* Per-batch: no barrier between bodies and owner bits inside the batch;
 * at the end one dma_wmb, then the owner bits with the first one last. */
static void test_txq_owner_per_batch(void **state)
{
    struct fx *f = *state;
    f->cfg.proto = TXQ_PROTO_OWNER;
    f->cfg.barrier = TXQ_BARRIER_PER_BATCH;
    fx_up(f);
    for (unsigned i = 0; i < 4; i++)
        assert_int_equal(fx_xmit(f, i, 60, i < 3), TXQ_OK);
    const struct platform *p = &f->fp;
    assert_int_equal(fake_platform_count(p, FAKE_DMA_WMB, FAKE_ANY), 1);
    long b = fake_platform_find(p, FAKE_DMA_WMB, FAKE_ANY, 0);
    /* After the barrier: owner words of slots 1, 2, 3, then 0. */
    static const uint32_t order[] = {1, 2, 3, 0};
    for (unsigned k = 0; k < 4; k++) {
        long i = fake_platform_find(p, FAKE_STORE32, desc_bus(f, order[k]) + 12, 0);
        assert_true(i > b);
        if (k > 0)
            assert_true(i > fake_platform_find(p, FAKE_STORE32, desc_bus(f, order[k - 1]) + 12, 0));
    }
    assert_true(fake_platform_find(p, FAKE_WMB, FAKE_ANY, 0) >
                fake_platform_find(p, FAKE_STORE32, desc_bus(f, 0) + 12, 0));
}

/* Tail protocol: the placement changes nothing (no owner bit). */
static void test_txq_tail_ignores_placement(void **state)
{
    struct fx *f = *state;
    f->cfg.barrier = TXQ_BARRIER_PER_BATCH;
    fx_up(f);
    for (unsigned i = 0; i < 4; i++)
        assert_int_equal(fx_xmit(f, i, 60, i < 3), TXQ_OK);
    assert_int_equal(fake_platform_count(&f->fp, FAKE_DMA_WMB, FAKE_ANY), 0);
    assert_int_equal(fake_platform_count(&f->fp, FAKE_STORE32, FAKE_ANY), 0);
    assert_int_equal(fake_platform_count(&f->fp, FAKE_WMB, FAKE_ANY), 1);
}

/* WC: the last descriptor of a batch is copied (8 x 8 bytes, with its ring
 * index at byte 16) between two wmb()s, alternating the two buffers; no
 * tail doorbell. */
static void test_txq_wc_push(void **state)
{
    struct fx *f = *state;
    f->cfg.proto = TXQ_PROTO_WC;
    fx_up(f);
    assert_int_equal(fx_xmit(f, 0, 60, 1), TXQ_OK);
    assert_int_equal(fx_xmit(f, 1, 61, 0), TXQ_OK);
    assert_int_equal(fx_xmit(f, 2, 62, 0), TXQ_OK);
    const struct platform *p = &f->fp;
    assert_int_equal(fake_platform_count(p, FAKE_MMIO_W32, NICTX_REG_TAIL), 0);
    assert_int_equal(fake_platform_count(p, FAKE_MMIO_WC, FAKE_ANY), 16);
    long w0 = nth_op(p, FAKE_MMIO_WC, 0), w8 = nth_op(p, FAKE_MMIO_WC, 8);
    assert_int_equal(p->log[w0].addr, NICTX_WC_BASE);
    assert_int_equal(p->log[w0].val, dma_of(1));
    assert_int_equal(p->log[w0 + 1].val, 61u | (uint64_t)NICTX_DESC_OWNER << 32);
    assert_int_equal(p->log[w0 + 2].val, 1); /* ring index */
    assert_int_equal(p->log[w8].addr, NICTX_WC_BASE + NICTX_WC_BUF_SIZE);
    assert_int_equal(p->log[w8 + 2].val, 2);
    assert_int_equal(p->log[w0 - 1].kind, FAKE_WMB);
    assert_int_equal(p->log[w0 + 8].kind, FAKE_WMB);
    struct txq_stats st;
    txq_get_stats(&f->q, &st);
    assert_int_equal(st.wc_pushes, 2);
    assert_int_equal(st.doorbells, 0);
}

/* Two of the broken drivers, as they reach the platform. */
static void test_txq_bugs(void **state)
{
    struct fx *f = *state;
    f->cfg.proto = TXQ_PROTO_OWNER;
    f->cfg.bug = DRV_BUG_NO_DMA_WMB;
    fx_up(f);
    assert_int_equal(fx_xmit(f, 0, 60, 0), TXQ_OK);
    assert_int_equal(fake_platform_count(&f->fp, FAKE_DMA_WMB, FAKE_ANY), 0);
    assert_int_equal(fake_platform_count(&f->fp, FAKE_WMB, FAKE_ANY), 1);
}

static void test_txq_bug_tail_beyond_ring(void **state)
{
    struct fx *f = *state;
    f->cfg.bug = DRV_BUG_TAIL_BEYOND_RING;
    f->cfg.bug_at = 2;
    fx_up(f);
    for (unsigned i = 0; i < 4; i++)
        assert_int_equal(fx_xmit(f, i, 60, 0), TXQ_OK);
    /* Doorbells 1, 2, then 3 + 16 (the bug, once), then 4. */
    assert_int_equal(f->fp.log[nth_op(&f->fp, FAKE_MMIO_W32, 2)].val, 3 + 16);
    assert_int_equal(f->fp.log[nth_op(&f->fp, FAKE_MMIO_W32, 3)].val, 4);
}

/* DESC_REUSE fires once, on packet bug_at exactly (the first one with a
 * descriptor in flight from an earlier doorbell): the slot published last
 * is rewritten with that packet's body; the slots before and after keep
 * their own. */
static void test_txq_bug_desc_reuse_at(void **state)
{
    struct fx *f = *state;
    uint64_t addr;
    uint32_t lf, rsvd, i;

    f->cfg.bug = DRV_BUG_DESC_REUSE;
    f->cfg.bug_at = 3;
    fx_up(f);
    for (i = 0; i < 6; i++)
        assert_int_equal(fx_xmit(f, i, (uint16_t)(60 + i), 0), TXQ_OK);
    for (i = 0; i < 6; i++) {
        uint32_t as = i == 2 ? 3 : i; /* slot 2 holds packet 3's body */
        read_desc(f, i, &addr, &lf, &rsvd);
        assert_int_equal(addr, dma_of(as));
        assert_int_equal(lf, 60 + as);
    }
}

/* The transmit path reads the consumer's index (free space) and writes its
 * own: what the cache-line model charges between CPUs. */
static void test_txq_touches_shared_fields(void **state)
{
    struct fx *f = *state;
    fx_up(f);
    f->fp.log_touches = 1;
    assert_int_equal(fx_xmit(f, 0, 60, 0), TXQ_OK);
    long rc = fake_platform_find(&f->fp, FAKE_TOUCH_R, (uint64_t)(uintptr_t)&f->q.next_to_clean, 0);
    long wp = fake_platform_find(&f->fp, FAKE_TOUCH_W, (uint64_t)(uintptr_t)&f->q.next_to_use, 0);
    assert_true(rc >= 0);
    assert_true(wp > rc);
    fake_platform_complete(&f->fp, 1);
    fake_platform_clear_log(&f->fp);
    txq_clean(&f->q);
    assert_true(fake_platform_find(&f->fp, FAKE_TOUCH_W,
                                   (uint64_t)(uintptr_t)&f->q.next_to_clean, 0) >= 0);
}

/* The compiler's range accesses (a struct copy: GCC calls __tsan_*_range,
 * driver/linux/kcsan.c) reach the platform as the copy loop makes them:
 * pieces of 8 bytes from the start, the last one shorter, covering exactly
 * [addr, addr + len) once; length 0 is nothing. */
void __tsan_read_range(void *addr, size_t len);
void __tsan_write_range(void *addr, size_t len);

static void expect_range_pieces(struct platform *p, enum fake_op_kind kind, const uint8_t *at,
                                size_t len)
{
    size_t k = 0, off = 0;

    for (size_t i = 0; i < p->log_len; i++) {
        if (p->log[i].kind != FAKE_TOUCH_R && p->log[i].kind != FAKE_TOUCH_W)
            continue;
        size_t want = len - off < 8 ? len - off : 8;
        assert_int_equal(p->log[i].kind, kind);
        assert_true(off < len);
        assert_int_equal(p->log[i].addr, (uint64_t)(uintptr_t)(at + off));
        assert_int_equal(p->log[i].val, want);
        off += want;
        k++;
    }
    assert_int_equal(off, len);
    assert_int_equal(k, (len + 7) / 8);
}

static void test_txq_kcsan_range_pieces(void **state)
{
    struct fx *f = *state;
    static const size_t lens[] = {0, 1, 7, 8, 9, 16, 20, 64, 67};
    uint8_t *buf = calloc(1, 128);

    assert_non_null(buf);
    fake_platform_share(&f->fp, buf, 128);
    f->fp.log_touches = 1;
    for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        fake_platform_clear_log(&f->fp);
        __tsan_write_range(buf + 3, lens[i]);
        expect_range_pieces(&f->fp, FAKE_TOUCH_W, buf + 3, lens[i]);
        fake_platform_clear_log(&f->fp);
        __tsan_read_range(buf, lens[i]);
        expect_range_pieces(&f->fp, FAKE_TOUCH_R, buf, lens[i]);
    }
    plat_shared(&f->fp, buf, 0);
    free(buf);
}

/* Tail coalescing: without xmit_more the tail is still written only every
 * N packets; txq_flush writes what is pending. */
static void test_txq_tail_coalesce(void **state)
{
    struct fx *f = *state;
    f->cfg.tail_coalesce = 4;
    fx_up(f);
    for (unsigned i = 0; i < 6; i++)
        assert_int_equal(fx_xmit(f, i, 60, 0), TXQ_OK);
    assert_int_equal(fake_platform_count(&f->fp, FAKE_MMIO_W32, NICTX_REG_TAIL), 1);
    assert_int_equal(f->fp.log[fake_platform_find_last(&f->fp, FAKE_MMIO_W32, NICTX_REG_TAIL)].val, 4);
    txq_flush(&f->q);
    assert_int_equal(fake_platform_count(&f->fp, FAKE_MMIO_W32, NICTX_REG_TAIL), 2);
    assert_int_equal(f->fp.log[fake_platform_find_last(&f->fp, FAKE_MMIO_W32, NICTX_REG_TAIL)].val, 6);
    txq_flush(&f->q); /* nothing pending: nothing written */
    assert_int_equal(fake_platform_count(&f->fp, FAKE_MMIO_W32, NICTX_REG_TAIL), 2);
    struct txq_stats st;
    txq_get_stats(&f->q, &st);
    assert_int_equal(st.deferred, 5); /* packets 1-3 and 5-6 */
}

/* BQL: the first completion sets a limit; queuing past it stops the queue
 * (and rings the doorbell), completing wakes it. */
static void test_txq_bql_stops_and_wakes(void **state)
{
    struct fx *f = *state;
    f->cfg.bql = 1;
    fx_up(f);
    /* Limit starts at 0 (Linux's min_limit): the first packet stops it. */
    assert_int_equal(fx_xmit(f, 0, 60, 1), TXQ_OK);
    assert_true(txq_stopped(&f->q));
    assert_int_equal(fake_platform_count(&f->fp, FAKE_MMIO_W32, NICTX_REG_TAIL), 1);
    assert_int_equal(fx_xmit(f, 1, 60, 0), TXQ_BUSY);
    fake_platform_complete(&f->fp, 1);
    txq_clean(&f->q);
    assert_false(txq_stopped(&f->q)); /* starved: the limit grew */
    assert_true(f->q.dql.limit >= 60);
    struct txq_stats st;
    txq_get_stats(&f->q, &st);
    assert_int_equal(st.bql_stops, 1);
}

/* BQL: a cleanup that finds nothing completed reads none of the queue
 * limits (the kernel's netdev_tx_completed_queue() returns at once for 0
 * bytes, before dql_completed() and its in-flight check). */
static void test_txq_bql_empty_clean_reads_no_limits(void **state)
{
    struct fx *f = *state;
    f->cfg.bql = 1;
    fx_up(f);
    assert_int_equal(fx_xmit(f, 0, 60, 1), TXQ_OK);
    fake_platform_complete(&f->fp, 1);
    assert_int_equal(txq_clean(&f->q), 1);
    f->fp.log_touches = 1;
    const size_t from = f->fp.log_len;
    assert_int_equal(txq_clean(&f->q), 0);
    const uintptr_t lo = (uintptr_t)&f->q.dql, hi = lo + sizeof(f->q.dql);
    size_t touches = 0;
    for (size_t i = from; i < f->fp.log_len; i++) {
        const struct fake_op *o = &f->fp.log[i];
        if (o->kind != FAKE_TOUCH_R && o->kind != FAKE_TOUCH_W)
            continue;
        touches++;
        if (o->addr >= lo && o->addr < hi)
            fail_msg("op %zu: a %s of struct dql + %ju", i,
                     o->kind == FAKE_TOUCH_R ? "read" : "write", (uintmax_t)(o->addr - lo));
    }
    assert_true(touches > 0); /* the pass itself was logged */
}

/* ---- queue reset ---- */

/* txq_reset (docs/faults.md): the ERR bits found are returned; the frames
 * before the device's head (2) were sent and complete; the three after it
 * are dropped (no drop callback: the done callback has them); the queue
 * starts over at slot 0 in the first phase, and the next packet goes to
 * descriptor 0 with tail 1. */
static void test_txq_reset_drops_and_restarts(void **state)
{
    struct fx *f = *state;
    fx_up(f);
    for (uint64_t s = 0; s < 5; s++)
        assert_int_equal(fx_xmit(f, s, 100, s < 4), TXQ_OK);
    fake_platform_complete(&f->fp, 2);
    f->fp.bar[NICTX_REG_ERR / 4] = NICTX_ERR_DMA | NICTX_ERR_CPL_TIMEOUT;
    f->fp.bar[NICTX_REG_STATUS / 4] = NICTX_STATUS_IDLE | NICTX_STATUS_QUIESCENT;
    unsigned dropped = 99;
    assert_int_equal(txq_reset(&f->q, &f->fp, &dropped), NICTX_ERR_DMA | NICTX_ERR_CPL_TIMEOUT);
    assert_int_equal(dropped, 3);
    assert_int_equal(f->ndone, 5);
    for (uint64_t s = 0; s < 5; s++)
        assert_ptr_equal(f->done[s], cookie_of(s));
    /* Every buffer unmapped once, the 2 reclaimed and the 3 dropped alike
     * (ixgbe_clean_tx_ring unmaps what it drops: else a mapping leak). */
    for (uint64_t s = 0; s < 5; s++)
        assert_int_equal(fake_platform_count(&f->fp, FAKE_DMA_UNMAP, dma_of(s)), 1);
    struct txq_stats st;
    txq_get_stats(&f->q, &st);
    assert_int_equal(st.resets, 1);
    assert_int_equal(st.dropped, 3);
    assert_int_equal(st.reclaimed, 2);
    assert_int_equal(f->q.next_to_use, 0);
    assert_int_equal(f->q.next_to_clean, 0);
    assert_int_equal(f->q.batch_start, 0);
    assert_int_equal(f->q.phase, 1);
    assert_int_equal(txq_in_flight(&f->q), 0);
    assert_int_equal(txq_free(&f->q), 15);
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_CTRL), NICTX_CTRL_ENABLE);

    fake_platform_clear_log(&f->fp);
    assert_int_equal(fx_xmit(f, 10, 100, 0), TXQ_OK);
    uint64_t addr;
    uint32_t lf, rsvd;
    read_desc(f, 0, &addr, &lf, &rsvd);
    assert_int_equal(addr, dma_of(10));
    assert_int_equal(fake_platform_count(&f->fp, FAKE_MMIO_W32, NICTX_REG_TAIL), 1);
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_TAIL), 1);
}

/* DESC_WB across a reset: the scan for DD bits starts over at slot 0 (the
 * head reported so far is forgotten with the ring), so a clean right after
 * the reset finds nothing and no bad head, and the next DD is found. */
static void test_txq_reset_desc_wb_restarts(void **state)
{
    struct fx *f = *state;
    f->cfg.clean = TXQ_CLEAN_DESC_WB;
    fx_up(f);
    for (uint64_t s = 0; s < 5; s++)
        assert_int_equal(fx_xmit(f, s, 60, s < 4), TXQ_OK);
    f->q.ring[2].rsvd = NICTX_DESC_DD | NICTX_DESC_OWNER;
    assert_int_equal(txq_clean(&f->q), 3);
    fake_platform_complete(&f->fp, 3);
    f->fp.bar[NICTX_REG_STATUS / 4] = NICTX_STATUS_IDLE | NICTX_STATUS_QUIESCENT;
    unsigned dropped = 0;
    assert_int_equal(txq_reset(&f->q, &f->fp, &dropped), 0);
    assert_int_equal(dropped, 2);

    assert_int_equal(txq_clean(&f->q), 0);
    struct txq_stats st;
    txq_get_stats(&f->q, &st);
    assert_int_equal(st.bad_head, 0);
    for (uint64_t s = 10; s < 12; s++)
        assert_int_equal(fx_xmit(f, s, 60, s < 11), TXQ_OK);
    f->q.ring[1].rsvd = NICTX_DESC_DD | NICTX_DESC_OWNER;
    assert_int_equal(txq_clean(&f->q), 2);
    assert_int_equal(f->ndone, 7);
    assert_ptr_equal(f->done[5], cookie_of(10));
    assert_ptr_equal(f->done[6], cookie_of(11));
    txq_get_stats(&f->q, &st);
    assert_int_equal(st.bad_head, 0);
}

/* A reset the device never finishes (STATUS.RESETTING stays set): -1 after
 * a bounded number of STATUS reads (64 waiting for idle, 16384 for the
 * reset), nothing dropped (*dropped is 0, whatever it held), the ring as it
 * was, the queue left disabled in reset. */
static void test_txq_reset_not_taken(void **state)
{
    struct fx *f = *state;
    fx_up(f);
    for (uint64_t s = 0; s < 3; s++)
        assert_int_equal(fx_xmit(f, s, 100, s < 2), TXQ_OK);
    f->fp.bar[NICTX_REG_STATUS / 4] = NICTX_STATUS_RESETTING;
    fake_platform_clear_log(&f->fp);
    unsigned dropped = 99;
    assert_int_equal(txq_reset(&f->q, &f->fp, &dropped), -1);
    assert_int_equal(dropped, 0);
    assert_int_equal(f->ndone, 0);
    assert_int_equal(txq_in_flight(&f->q), 3);
    assert_int_equal(f->q.next_to_use, 3);
    assert_int_equal(fake_platform_count(&f->fp, FAKE_MMIO_R32, NICTX_REG_STATUS), 64 + 16384);
    assert_int_equal(fake_platform_reg(&f->fp, NICTX_REG_CTRL), NICTX_CTRL_RESET);
    struct txq_stats st;
    txq_get_stats(&f->q, &st);
    assert_int_equal(st.resets, 0);
    assert_int_equal(st.dropped, 0);
}

/* txq_hung: work in flight and no progress for the timeout; a stamp
 * later than the checker's clock (another CPU, a little ahead) is recent,
 * not a hang; an empty ring never hangs. */
static void test_txq_hung(void **state)
{
    struct fx *f = *state;
    fx_up(f);
    assert_int_equal(txq_hung(&f->q, 1u << 30, 500), 0); /* nothing in flight */
    f->fp.now_ns = 1000;
    assert_int_equal(fx_xmit(f, 0, 100, 0), TXQ_OK); /* the hang clock starts */
    assert_int_equal(f->q.progress_ns, 1000);
    assert_int_equal(txq_hung(&f->q, 1499, 500), 0);
    assert_int_equal(txq_hung(&f->q, 1500, 500), 1); /* boundary */
    assert_int_equal(txq_hung(&f->q, 999, 500), 0);  /* the stamp is ahead */
    assert_int_equal(txq_hung(&f->q, 0, 500), 0);
}

/* CQ across a reset: the device's reset starts its producer over at slot 0
 * in phase 1, so the driver's consumer must too, whatever phase it had
 * reached.  One pass of the CQ (8 CQEs of 2 frames each: the consumer's
 * phase is 0 now), then frames in flight and a reset: the cleared CQ holds
 * no completion (its zeroed slots are phase 0, "not yet" again), and the
 * first CQE after the reset, phase 1 at slot 0, is taken. */
static void test_txq_reset_cq_restarts(void **state)
{
    struct fx *f = *state;
    uint64_t seq = 0;

    f->cfg.ring_log2 = 3;
    f->cfg.clean = TXQ_CLEAN_CQ;
    f->cfg.wb_thresh = 2;
    fx_up(f);
    for (unsigned j = 0; j < 8; j++) {
        for (unsigned k = 0; k < 2; k++, seq++)
            assert_int_equal(fx_xmit(f, seq, 60, k == 0), TXQ_OK);
        f->q.cq[j] = NICTX_CQE_PHASE | (2ull << NICTX_CQE_CNT_SHIFT) | ((seq - 1) & 7);
        assert_int_equal(txq_clean(&f->q), 2);
    }
    assert_int_equal(f->q.cq_ci, 0);
    assert_int_equal(f->q.cq_phase, 0); /* one wrap */
    for (unsigned k = 0; k < 3; k++, seq++)
        assert_int_equal(fx_xmit(f, seq, 60, k < 2), TXQ_OK);
    f->fp.bar[NICTX_REG_STATUS / 4] = NICTX_STATUS_IDLE | NICTX_STATUS_QUIESCENT;
    unsigned dropped = 0;
    assert_int_equal(txq_reset(&f->q, &f->fp, &dropped), 0);
    assert_int_equal(dropped, 3);
    assert_int_equal(f->ndone, 19);
    assert_int_equal(f->q.cq_ci, 0);
    assert_int_equal(f->q.cq_phase, 1);
    assert_int_equal(txq_clean(&f->q), 0); /* a zeroed CQ is empty */

    for (unsigned k = 0; k < 2; k++, seq++)
        assert_int_equal(fx_xmit(f, seq, 60, k == 0), TXQ_OK);
    f->q.cq[0] = NICTX_CQE_PHASE | (2ull << NICTX_CQE_CNT_SHIFT) | 1;
    assert_int_equal(txq_clean(&f->q), 2);
    assert_int_equal(f->ndone, 21);
    assert_ptr_equal(f->done[19], cookie_of(19));
    assert_ptr_equal(f->done[20], cookie_of(20));
}

/* txq_reset_all (docs/faults.md, several queues): one adapter reset.  The
 * global steps once (ERR, CTRL = 0, the idle wait, CTRL.RESET and its wait,
 * wmb, enable); each queue's HEAD read and reclaimed between the idle wait
 * and the reset, in queue order; then every queue drops what is left and
 * starts over, and counts the reset. */
static void test_txq_reset_all_queues(void **state)
{
    struct fx *f = *state;
    struct txq *qs = aligned_alloc(64, 3 * sizeof(struct txq));
    struct txq *qp[3] = {&qs[0], &qs[1], &qs[2]};
    const unsigned posted[3] = {5, 3, 4}, head[3] = {2, 3, 1};
    const struct platform *p = &f->fp;

    assert_non_null(qs);
    for (unsigned i = 0; i < 3; i++) {
        struct txq_cfg c = f->cfg;
        c.queue = i;
        c.queues = 3;
        assert_int_equal(txq_init(&qs[i], &f->fp, &c, fx_done, f), 0);
        for (unsigned k = 0; k < posted[i]; k++) {
            struct txq_pkt *pkt = &f->pkt[10 * i + k];
            *pkt = (struct txq_pkt){.dma = dma_of(k), .len = 60, .cookie = cookie_of(10 * i + k),
                                    .data = fake_platform_frame(dma_of(k))};
            assert_int_equal(txq_xmit(&qs[i], pkt, k + 1 < posted[i]), TXQ_OK);
        }
    }
    fake_platform_complete(&f->fp, head[0]);
    f->fp.bar[NICTX_REG_Q(1, NICTX_QREG_HEAD) / 4] = head[1];
    f->fp.bar[NICTX_REG_Q(2, NICTX_QREG_HEAD) / 4] = head[2];
    f->fp.bar[NICTX_REG_ERR / 4] = NICTX_ERR_DMA;
    f->fp.bar[NICTX_REG_STATUS / 4] = NICTX_STATUS_IDLE | NICTX_STATUS_QUIESCENT;
    f->fp.now_ns = 777;
    fake_platform_clear_log(&f->fp);
    unsigned dropped = 99;
    assert_int_equal(txq_reset_all(qp, 3, &f->fp, &dropped), NICTX_ERR_DMA);
    assert_int_equal(dropped, (5 - 2) + 0 + (4 - 1));
    assert_int_equal(f->ndone, 12);

    /* The register sequence: the global steps once, the heads in order. */
    assert_int_equal(fake_platform_count(p, FAKE_MMIO_R32, NICTX_REG_ERR), 1);
    assert_int_equal(fake_platform_count(p, FAKE_MMIO_W32, NICTX_REG_CTRL), 3);
    long off = fake_platform_find(p, FAKE_MMIO_W32, NICTX_REG_CTRL, 0);
    assert_int_equal(p->log[off].val, 0);
    long h0 = fake_platform_find(p, FAKE_MMIO_R32, NICTX_REG_HEAD, 0);
    long h1 = fake_platform_find(p, FAKE_MMIO_R32, NICTX_REG_Q(1, NICTX_QREG_HEAD), 0);
    long h2 = fake_platform_find(p, FAKE_MMIO_R32, NICTX_REG_Q(2, NICTX_QREG_HEAD), 0);
    long rst = fake_platform_find(p, FAKE_MMIO_W32, NICTX_REG_CTRL, (size_t)off + 1);
    long en = fake_platform_find(p, FAKE_MMIO_W32, NICTX_REG_CTRL, (size_t)rst + 1);
    long wmb = fake_platform_find_last(p, FAKE_WMB, 0);
    assert_true(off < h0 && h0 < h1 && h1 < h2 && h2 < rst && rst < wmb && wmb < en);
    assert_int_equal(p->log[rst].val, NICTX_CTRL_RESET);
    assert_int_equal(p->log[en].val, NICTX_CTRL_ENABLE);
    assert_int_equal(fake_platform_count(p, FAKE_MMIO_R32, NICTX_REG_STATUS), 2);

    for (unsigned i = 0; i < 3; i++) {
        struct txq_stats st;
        txq_get_stats(&qs[i], &st);
        assert_int_equal(st.resets, 1);
        assert_int_equal(st.reclaimed, head[i]);
        assert_int_equal(st.dropped, posted[i] - head[i]);
        assert_int_equal(txq_in_flight(&qs[i]), 0);
        assert_int_equal(qs[i].next_to_use, 0);
        assert_int_equal(qs[i].phase, 1);
        assert_int_equal(qs[i].progress_ns, 777);
    }
    assert_int_equal(f->fp.bad_access, 0);
    for (unsigned i = 0; i < 3; i++)
        txq_destroy(&qs[i]);
    free(qs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_txq_init_programs_registers, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_init_op_order, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_init_queues, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_init_one_queue_unchanged, fx_setup, fx_teardown),
        cmocka_unit_test(test_txq_reg_decode),
        cmocka_unit_test_setup_teardown(test_txq_init_rejects_bad_cfg, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_init_bad_id, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_init_no_memory, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_xmit_desc_bytes, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_xmit_op_sequence, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_xmit_bad_len, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_xmit_more_burst8, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_xmit_burst1_doorbell_each, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_ring_full_stops_and_rings, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_clean_reclaims_and_wakes, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_wake_threshold, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_wake_threshold_ring_sizes, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_clean_empty, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_wrap_around, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_bad_head, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_bad_head_wrapped, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_clean_mmio_mode, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_clean_wb_mode, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_clean_desc_wb_mode, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_clean_desc_wb_full_mode, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_clean_cq_mode, fx_setup, fx_teardown),
        cmocka_unit_test(test_txq_layout),
        cmocka_unit_test_setup_teardown(test_txq_owner_per_desc, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_owner_phase_flips, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_owner_per_batch, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_tail_ignores_placement, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_wc_push, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_bugs, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_bug_tail_beyond_ring, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_bug_desc_reuse_at, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_touches_shared_fields, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_kcsan_range_pieces, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_tail_coalesce, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_bql_stops_and_wakes, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_bql_empty_clean_reads_no_limits, fx_setup,
                                        fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_reset_drops_and_restarts, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_reset_not_taken, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_reset_desc_wb_restarts, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_reset_all_queues, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_reset_cq_restarts, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_txq_hung, fx_setup, fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
