/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_limits.c - cmocka tests of the Verilated engine (rtl/) at the limits
 * of its numeric register fields, driven directly through struct
 * device_ops (sim/device/device.h) like tests/engine/test_engine.c.
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
 * Exact counts between the bounds (docs/testing.md): writebacks and
 * interrupts after exactly every WB_THRESH / IRQ_THRESH completions, reads
 * and bytes in flight reaching MAX_TAGS / MAX_RD_BYTES and never passing
 * them, descriptor reads of at most DESC_FETCH_MAX, the line rate after
 * the wire was held, the completion timeout.  Registers: every reset value
 * and access as the generated register map has them (NICTX_REGS, from
 * rtl/regs/nictx_regs.rdl), the address and data registers at 0 and all
 * ones, CTRL, ERR write-1-to-clear, read-only registers, unlisted offsets
 * and bad sizes refused.  Queues: QUEUES, SCHED and DRR_QUANTUM at their
 * bounds; every register of every queue block (NICTX_QREGS) at its reset
 * value and access, numeric ones at min and max, queue 0's block the
 * register page's registers, blocks of queues >= QUEUES refused; the
 * enable refusals of QUEUES > 1 (only PROTO WC, now).  Each
 * queue's CQ_BASE and CQ_LOG2 (bounds, own storage, queue 0's the page's,
 * ring configuration), the MSI-X table (NICTX_MSIXREGS at reset and
 * access, each vector's own, vector 0's entry IRQ_ADDR/IRQ_DATA, VEC_CTRL's
 * reserved bits, vectors >= QUEUES refused) and the read-only PBA.
 *
 * The host is tests/common/engine_host.h, as for test_engine, set up for long
 * runs: host memory is filled once with a pattern, so a frame is just (bus
 * address, length), checked against memory as it arrives; MRds are
 * answered after CPL_LAT clocks and checked against the programmed MRRS;
 * payload completions can be held back (eh_hold from BUF_BUS) to pile up
 * outstanding reads.  Here: head writebacks and interrupts are recorded
 * (the host's MWr hook), and tail-mode expectations (doorbells, descriptor
 * and payload MRds) are computed as descriptors are posted.
 * TEST_LIMITS_VERBOSE=1 prints cycles; TEST_LIMITS_FILTER=pattern runs only
 * the matching tests.
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

#define HOST_BASE 0x100000ull
#define HOST_SIZE (2u << 20)
#define RING_BUS HOST_BASE                /* up to 65536 descriptors: 1 MiB */
#define WB_BUS (HOST_BASE + 0x100000u)    /* head writeback word */
#define IRQ_BUS (WB_BUS + 0x100u)         /* MSI-X message address */
#define IRQ_DATA 0x4a11u
#define BUF_BUS (HOST_BASE + 0x110000u)   /* frame buffers, to the end of memory */
#define CPL_LAT 100u                      /* clocks from taking an MRd to its CplDs */
#define MAX_EXP (1u << 18)                /* frames expected in one test */
#define MAX_LOG 256                       /* writebacks, interrupts kept */
#define NSLOT 61                          /* small frame buffers, reused */
#define SLOT_STRIDE 128u
#define LINE_MAX 0xFFFFFFu

struct wr_rec {                  /* a head writeback or interrupt */
    uint64_t cycle;
    uint32_t val;
    uint32_t frames;             /* frames on the wire by then */
};

struct lim {
    struct eh h;
    /* writebacks and interrupts */
    struct wr_rec wb[MAX_LOG], irq[MAX_LOG];
    unsigned n_wb, n_irq;
    uint64_t wb_bus, irq_bus;    /* where they are expected */
    unsigned irq_left;           /* completions not yet signalled (cadence) */
    /* driver side and what it expects */
    unsigned fetch_max;
    unsigned wc_buf;             /* WC buffer for the next block */
    uint32_t tail_prod;          /* prod at the last tail write */
    unsigned exp_desc_mrds, exp_pay_mrds, exp_doorbells;
};

/* ------------------------------------------------------------ host side */

static uint8_t pattern(uint64_t i)
{
    return (uint8_t)(i * 131u + (i >> 9) * 7u + (i >> 17) + 1u);
}

static void record(struct wr_rec *r, unsigned *n, const struct eh *h, uint32_t val)
{
    if (*n < MAX_LOG) {
        r[*n].cycle = h->cycle;
        r[*n].val = val;
        r[*n].frames = h->n_frames;
    }
    (*n)++;
}

/* The host's MWr hook: the engine writes only the head writeback and the
 * interrupt message, 4 bytes each. */
static void on_mwr(void *user, const struct dev_beat *b)
{
    struct lim *t = user;
    uint32_t v;

    assert_int_equal(b->len, 4);
    v = (uint32_t)eh_beat_value(&t->h, b, 4);
    if (b->addr == t->wb_bus && t->wb_bus)
        record(t->wb, &t->n_wb, &t->h, v);
    else if (b->addr == t->irq_bus)
        record(t->irq, &t->n_irq, &t->h, v);
    else
        fail_msg("MWr to unexpected address 0x%llx", (unsigned long long)b->addr);
}

/* Length of the i-th descriptor MRd (from the host's MRd log). */
static unsigned desc_mrd_len(const struct eh *h, unsigned i)
{
    unsigned k;

    for (k = 0; k < h->n_mrds && k < EH_MRD_LOG; k++)
        if (h->mrds[k].desc && i-- == 0)
            return h->mrds[k].len;
    fail_msg("descriptor MRd %u not in the log", i);
    return 0;
}

/* ------------------------------------------------------------ driver model */

/* Post one frame of len bytes at bus address addr. */
static void post(struct lim *t, uint64_t addr, unsigned len)
{
    eh_post(&t->h, addr, len, 1, NULL);
    t->exp_pay_mrds += eh_mrd_count(&t->h, addr, len);
}

/* A small frame (1..64 bytes) from buffer slot seq % NSLOT. */
static void post_small(struct lim *t, uint32_t seq)
{
    unsigned s = seq % NSLOT;

    post(t, BUF_BUS + (uint64_t)s * SLOT_STRIDE + s % 8, 1 + (s * 23u) % 64);
}

/* Descriptor MRds for k descriptors from ring index `from`, fetched after
 * one tail write: reads of min(left, DESC_FETCH_MAX, up to the wrap)
 * descriptors, each split at MRRS. */
static unsigned desc_mrds(const struct lim *t, uint32_t from, uint32_t k)
{
    uint32_t ring = 1u << t->h.ring_log2;
    unsigned n = 0;

    while (k) {
        uint32_t c = k < t->fetch_max ? k : t->fetch_max;
        if (c > ring - from)
            c = ring - from;
        n += eh_mrd_count(&t->h, RING_BUS + (uint64_t)from * NICTX_DESC_BYTES,
                          c * NICTX_DESC_BYTES);
        from = (from + c) & (ring - 1);
        k -= c;
    }
    return n;
}

/* Tail write for everything posted.  The expected descriptor MRds (tail
 * protocol) assume the fetcher has caught up with the previous tail, or
 * that batches are whole reads (tests ensure one or the other). */
static void doorbell(struct lim *t)
{
    struct eh *h = &t->h;

    t->exp_desc_mrds += desc_mrds(t, t->tail_prod & eh_ring_mask(h), h->prod - t->tail_prod);
    t->exp_doorbells++;
    t->tail_prod = h->prod;
    eh_doorbell(h);
}

/* WC: push the last posted descriptor as a 64-byte block (one MWr) into
 * the next WC buffer; its close is the doorbell and moves the tail. */
static void wc_push_last(struct lim *t)
{
    struct eh *h = &t->h;
    uint32_t idx = (h->prod - 1) & eh_ring_mask(h);
    uint64_t blk[NICTX_WC_BLOCK / 8] = {0};

    memcpy(blk, eh_ptr(h, RING_BUS + (uint64_t)idx * NICTX_DESC_BYTES, 16), 16);
    blk[NICTX_WC_IDX_OFF / 8] = idx;
    eh_wc_write(h, t->wc_buf, 0, blk, NICTX_WC_BLOCK / 8);
    t->wc_buf ^= 1;
    t->exp_doorbells++;
    t->tail_prod = h->prod;
}

static void set_fetch_max(struct lim *t, unsigned n)
{
    t->fetch_max = n;
    eh_wr32(&t->h, NICTX_REG_DESC_FETCH_MAX, n);
}

/* A ring of 2^log2 in protocol `proto`, wire fast enough to be no
 * bottleneck, head writeback and interrupt addresses set (thresholds 0:
 * off). */
static void engine_init_proto(struct lim *t, unsigned log2, uint32_t proto)
{
    struct eh *h = &t->h;

    eh_ring_setup(h, log2, proto);
    eh_wr32(h, NICTX_REG_WB_ADDR_LO, (uint32_t)WB_BUS);
    eh_wr32(h, NICTX_REG_WB_ADDR_HI, 0);
    eh_wr32(h, NICTX_REG_IRQ_ADDR_LO, (uint32_t)IRQ_BUS);
    eh_wr32(h, NICTX_REG_IRQ_ADDR_HI, 0);
    eh_wr32(h, NICTX_REG_IRQ_DATA, IRQ_DATA);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    t->irq_left = 0;
    assert_int_equal(eh_rd32(h, NICTX_REG_RING_LOG2), log2);
    assert_int_equal(eh_rd32(h, NICTX_REG_PROTO), proto);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

static void engine_init(struct lim *t, unsigned log2)
{
    engine_init_proto(t, log2, NICTX_PROTO_TAIL);
}

/* Everything posted was sent, in order, and the device's counters agree
 * exactly with what the host posted, saw and expected. */
static void check_counters(struct lim *t)
{
    struct eh *h = &t->h;
    uint64_t bytes;

    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_PKTS), h->n_exp);
    bytes = eh_rd32(h, NICTX_REG_CNT_BYTES_LO);
    bytes |= (uint64_t)eh_rd32(h, NICTX_REG_CNT_BYTES_HI) << 32;
    assert_int_equal(bytes, h->exp_bytes);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), h->prod & eh_ring_mask(h));
    assert_int_equal(eh_rd32(h, NICTX_REG_TAIL), h->prod & eh_ring_mask(h));
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_DOORBELL), t->exp_doorbells);
    if (h->proto == NICTX_PROTO_TAIL) /* owner bits: fetching is speculative */
        assert_int_equal(h->n_desc_mrds, t->exp_desc_mrds);
    assert_int_equal(h->n_mrds - h->n_desc_mrds, t->exp_pay_mrds);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_DESC_RD), h->n_desc_mrds);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_DMA_RD), h->n_mrds);
}

/* ------------------------------------------------------------ fixtures */

static void lim_free(struct lim *t)
{
    if (!t)
        return;
    eh_fini(&t->h);
    free(t);
}

static struct lim *lim_new(void)
{
    struct lim *t = calloc(1, sizeof(*t));
    struct eh_cfg cfg = {
        .mem_base = HOST_BASE,
        .mem_size = HOST_SIZE,
        .ring_bus = RING_BUS,
        .buf_bus = BUF_BUS,
        .cpl_lat = CPL_LAT,
        .max_frames = MAX_EXP,
        .on_mwr = on_mwr,
        .user = t,
    };
    unsigned i;

    if (!t)
        return NULL;
    if (eh_init(&t->h, &cfg) != 0) {
        lim_free(t);
        return NULL;
    }
    for (i = 0; i < HOST_SIZE; i++)
        t->h.mem[i] = pattern(HOST_BASE + i);
    t->fetch_max = 8; /* reset value the expectations depend on */
    t->wb_bus = WB_BUS;
    t->irq_bus = IRQ_BUS;
    return t;
}

static int setup(void **state)
{
    *state = lim_new();
    return *state ? 0 : -1;
}

static int teardown(void **state)
{
    struct lim *t = *state;

    if (t && getenv("TEST_LIMITS_VERBOSE"))
        eh_print_summary(&t->h);
    lim_free(t);
    return 0;
}

/* ------------------------------------------------------------ registers */

/* A value the register takes: read back as written, no error. */
static void accepts(struct eh *h, uint32_t off, uint32_t val)
{
    eh_wr32(h, off, val);
    assert_int_equal(eh_rd32(h, off), val);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* A value out of range: the error bit, the register unchanged. */
static void rejects(struct eh *h, uint32_t off, uint32_t val, uint32_t err)
{
    uint32_t before = eh_rd32(h, off);

    eh_wr32(h, off, val);
    assert_int_equal(eh_rd32(h, off), before);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), err);
    eh_wr32(h, NICTX_REG_ERR, err);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* Every numeric field takes its minimum and maximum and rejects one past
 * each bound (boundary cases: the value next to each limit). */
static void test_limits_register_bounds(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    static const struct {
        uint32_t off, min, max;
        int has_below; /* min - 1 exists and is invalid */
    } f[] = {
        {NICTX_REG_RING_LOG2, 3, 16, 1},
        {NICTX_REG_MRRS_LOG2, 7, 12, 1},
        {NICTX_REG_LINE_RATE, 1, LINE_MAX, 1},
        {NICTX_REG_DESC_FETCH_MAX, 1, 64, 1}, /* DescFetchMaxHw */
        {NICTX_REG_DESC_INFLIGHT, 1, 8, 1},
        {NICTX_REG_MAX_TAGS, 1, 256, 1},
        {NICTX_REG_MAX_RD_BYTES, 4096, 0x1FFFFF, 1}, /* 0 (no limit) apart */
        {NICTX_REG_WB_THRESH, 0, 0xFFFF, 0},
        {NICTX_REG_IRQ_THRESH, 0, 0xFFFF, 0},
        {NICTX_REG_PROTO, NICTX_PROTO_TAIL, NICTX_PROTO_WC, 0},
        {NICTX_REG_CPL_TIMEOUT, 0, 0xFFFFFF, 0},
        {NICTX_REG_CQ_LOG2, 3, 16, 1},
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

    /* A doorbell while disabled is ignored (ERR.DB_OFF): nothing fetched. */
    rejects(h, NICTX_REG_TAIL, 7, NICTX_ERR_DB_OFF);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_DOORBELL), 0);
    eh_settle(h, 1000);
    assert_int_equal(h->n_mrds, 0);
}

/* TAIL while enabled: the ring size and beyond are refused (ERR.TAIL_RANGE)
 * at the smallest and the largest ring; ring size - 1 is taken by the ring
 * size tests below, which fill each ring. */
static void test_limits_tail_range(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;

    engine_init(t, 3);
    rejects(h, NICTX_REG_TAIL, 8, NICTX_ERR_TAIL_RANGE);
    rejects(h, NICTX_REG_TAIL, 0xFFFFFFFFu, NICTX_ERR_TAIL_RANGE);
    eh_wr32(h, NICTX_REG_CTRL, 0);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_RESET); /* the ring changes only after a reset */
    while (eh_rd32(h, NICTX_REG_STATUS) & NICTX_STATUS_RESETTING)
        ;
    accepts(h, NICTX_REG_RING_LOG2, 16);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    rejects(h, NICTX_REG_TAIL, 0x10000, NICTX_ERR_TAIL_RANGE);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_DOORBELL), 0);
    eh_settle(h, 1000);
    assert_int_equal(h->n_mrds, 0);
}

/* ------------------------------------------------------------ the register map */

/* Every register of the map, from the table generated with it
 * (NICTX_REGS in driver/nictx_regs_gen.h, from rtl/regs/nictx_regs.rdl;
 * docs/device.md lists the same): its offset, value after reset and
 * access.  Offsets of the register page not in it read 0. */
enum reg_acc { ACC_RO, ACC_RW, ACC_W1C };

struct reg_info {
    const char *name;
    uint32_t off, reset;
    enum reg_acc acc;
    int swmod; /* a write does more than store: the TAIL doorbell */
};

#define REG_ROW(name, off, reset, acc, swmod) {#name, off, reset, ACC_##acc, swmod},
static const struct reg_info regs[] = {NICTX_REGS(REG_ROW)};
#undef REG_ROW

#define N_REGS (sizeof(regs) / sizeof(regs[0]))
#define REG_PAGE 0x100u

/* The table and the names the driver uses are one map. */
#define REG_NAMES_AGREE(name, off, reset, acc, swmod)                                   \
    _Static_assert(NICTX_REG_##name == (off) && NICTX_REG_##name##_RESET == (reset), \
                   "NICTX_REGS and NICTX_REG_" #name " disagree");
NICTX_REGS(REG_NAMES_AGREE)
#undef REG_NAMES_AGREE
_Static_assert(sizeof(regs) / sizeof(regs[0]) == NICTX_NUM_REGS, "NICTX_NUM_REGS");

static const struct reg_info *reg_at(uint32_t off)
{
    unsigned i;

    for (i = 0; i < N_REGS; i++)
        if (regs[i].off == off)
            return &regs[i];
    return NULL;
}

static uint32_t reset_of(uint32_t off)
{
    const struct reg_info *r = reg_at(off);

    return r ? r->reset : 0;
}

/* Each register read after reset, alone (4 bytes) and as half of an 8-byte
 * read, is its reset value in the map; the map's registers first (reading
 * them sets no error bit), then the rest of the register page (zeros), then
 * the page beyond it (Unsupported Request: all ones, ERR.BAD_ACCESS and
 * nothing else).  The map itself: in offset order, dword aligned, inside the
 * register page. */
static void test_limits_reset_values(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    uint32_t off;
    unsigned i;

    for (i = 0; i < N_REGS; i++) {
        /* the page, or the PBA (0xC00, 0xC04) */
        assert_true((regs[i].off < REG_PAGE || regs[i].off == NICTX_REG_PBA_LO ||
                     regs[i].off == NICTX_REG_PBA_HI) && regs[i].off % 4 == 0);
        if (i > 0)
            assert_true(regs[i].off > regs[i - 1].off);
        off = regs[i].off;
        if (eh_rd32(h, off) != regs[i].reset)
            fail_msg("register %s (0x%02x) reads 0x%x after reset, the map says 0x%x",
                     regs[i].name, off, eh_rd32(h, off), regs[i].reset);
    }
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    for (off = 0; off < REG_PAGE; off += 8)
        assert_int_equal(eh_rd64(h, off), reset_of(off) | (uint64_t)reset_of(off + 4) << 32);
    for (off = 0; off < REG_PAGE; off += 4) /* ERR: read above, before any unused offset */
        if (off != NICTX_REG_ERR)
            assert_int_equal(eh_rd32(h, off), reset_of(off));
    assert_int_equal(eh_rd32(h, REG_PAGE), 0xFFFFFFFFu);
    assert_int_equal(eh_rd32(h, NICTX_WC_BASE - 4), 0xFFFFFFFFu);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    eh_settle(h, 1000);
    assert_int_equal(h->n_mrds, 0);
}

/* Each register's access as the map gives it: RW ones take their reset
 * value back (no error, value kept), W1C ones take a write of 0 (clears
 * nothing, no error).  TAIL (swmod) is skipped: a write is a doorbell,
 * refused while disabled (ERR.DB_OFF; test_limits_ctrl_and_err).  RO
 * registers and offsets the map does not list refuse writes:
 * test_limits_read_only_and_bad_sizes. */
static void test_limits_register_access(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    unsigned i;

    for (i = 0; i < N_REGS; i++) {
        const struct reg_info *r = &regs[i];

        if (r->acc == ACC_RO || r->swmod)
            continue;
        eh_wr32(h, r->off, r->acc == ACC_W1C ? 0 : r->reset);
        if (eh_rd32(h, NICTX_REG_ERR) != 0)
            fail_msg("register %s (0x%02x, %s): writing 0x%x set ERR 0x%x", r->name, r->off,
                     r->acc == ACC_W1C ? "W1C" : "RW", r->acc == ACC_W1C ? 0 : r->reset,
                     eh_rd32(h, NICTX_REG_ERR));
        assert_int_equal(eh_rd32(h, r->off), r->reset);
    }
}


/* ------------------------------------------------------------ queue blocks */

struct qreg_info {
    const char *name;
    uint32_t off, reset;
    enum reg_acc acc;
    int swmod;
};

#define QREG_ROW(name, off, reset, acc, swmod) {#name, off, reset, ACC_##acc, swmod},
static const struct qreg_info qregs[] = {NICTX_QREGS(QREG_ROW)};
#undef QREG_ROW
#define N_QREGS (sizeof(qregs) / sizeof(qregs[0]))
_Static_assert(sizeof(qregs) / sizeof(qregs[0]) == NICTX_NUM_QREGS, "NICTX_NUM_QREGS");
_Static_assert(NICTX_REG_Q(3, NICTX_QREG_HEAD) == 0x10C4u, "NICTX_REG_Q");
_Static_assert(NICTX_BAR0_SIZE == 0x2000u && NICTX_Q_MAX == 64u, "BAR0 holds 64 blocks");

/* An access that is refused with BAD_ACCESS only (a read: UR, all ones). */
static void bad_access(struct eh *h, uint32_t off, int read)
{
    if (read)
        assert_int_equal(eh_rd32(h, off), 0xFFFFFFFFu);
    else
        eh_wr32(h, off, 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_BAD_ACCESS);
}

/* QUEUES, SCHED, DRR_QUANTUM at their bounds (one past each refused);
 * QUEUES limits the blocks that answer: with QUEUES n, queue n-1's block
 * answers and queue n's is refused, reads with UR. */
static void test_limits_queue_register_bounds(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;

    /* QUEUES 1 after reset: only queue 0's block */
    assert_int_equal(eh_rd32(h, NICTX_REG_Q(0, NICTX_QREG_RING_LOG2)), 8);
    bad_access(h, NICTX_REG_Q(1, NICTX_QREG_RING_LOG2), 1);
    bad_access(h, NICTX_REG_Q(1, NICTX_QREG_WEIGHT), 0);
    bad_access(h, NICTX_REG_Q(63, NICTX_QREG_TAIL), 0);
    rejects(h, NICTX_REG_QUEUES, 0, NICTX_ERR_BAD_ACCESS);
    rejects(h, NICTX_REG_QUEUES, 65, NICTX_ERR_BAD_ACCESS);
    accepts(h, NICTX_REG_QUEUES, 64);
    assert_int_equal(eh_rd32(h, NICTX_REG_Q(63, NICTX_QREG_WEIGHT)), 1);
    accepts(h, NICTX_REG_QUEUES, 5);
    assert_int_equal(eh_rd32(h, NICTX_REG_Q(4, NICTX_QREG_WEIGHT)), 1);
    bad_access(h, NICTX_REG_Q(5, NICTX_QREG_WEIGHT), 1);
    bad_access(h, NICTX_REG_Q(5, NICTX_QREG_RING_BASE_LO), 0);
    accepts(h, NICTX_REG_QUEUES, 1);
    /* offsets 0x400..0xFFF: nothing there */
    bad_access(h, 0x400, 1);
    bad_access(h, 0xFFC, 0);
    accepts(h, NICTX_REG_SCHED, NICTX_SCHED_DRR);
    accepts(h, NICTX_REG_SCHED, NICTX_SCHED_RR);
    rejects(h, NICTX_REG_SCHED, 2, NICTX_ERR_BAD_ACCESS);
    accepts(h, NICTX_REG_DRR_QUANTUM, 64);
    accepts(h, NICTX_REG_DRR_QUANTUM, 65536);
    rejects(h, NICTX_REG_DRR_QUANTUM, 63, NICTX_ERR_BAD_ACCESS);
    rejects(h, NICTX_REG_DRR_QUANTUM, 65537, NICTX_ERR_BAD_ACCESS);
    accepts(h, NICTX_REG_DRR_QUANTUM, 2048);
}

/* Every register of every queue block (QUEUES 64): its reset value, its
 * access (RW ones take their reset value back, RO ones refuse writes), the
 * numeric ones at min and max and one past each refused, the address
 * registers at all ones; each queue's storage its own (a value written to
 * queue q is read back there and nowhere else); queue 0's block and the
 * register page the same storage. */
static void test_limits_queue_blocks(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    unsigned q, i;

    accepts(h, NICTX_REG_QUEUES, 64);
    for (q = 0; q < NICTX_Q_MAX; q++) {
        for (i = 0; i < N_QREGS; i++) {
            uint32_t off = NICTX_REG_Q(q, qregs[i].off);

            if (eh_rd32(h, off) != qregs[i].reset)
                fail_msg("queue %u register %s reads 0x%x after reset, the map says 0x%x", q,
                         qregs[i].name, eh_rd32(h, off), qregs[i].reset);
            if (qregs[i].swmod)
                continue;
            if (qregs[i].acc == ACC_RO) {
                bad_access(h, off, 0);
                assert_int_equal(eh_rd32(h, off), qregs[i].reset);
            } else {
                accepts(h, off, qregs[i].reset);
            }
        }
        /* read 0 inside the block past its registers */
        assert_int_equal(eh_rd32(h, NICTX_REG_Q(q, 0x3C)), 0);
        assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
        bad_access(h, NICTX_REG_Q(q, 0x3C), 0);
        accepts(h, NICTX_REG_Q(q, NICTX_QREG_RING_LOG2), 3);
        accepts(h, NICTX_REG_Q(q, NICTX_QREG_RING_LOG2), 16);
        rejects(h, NICTX_REG_Q(q, NICTX_QREG_RING_LOG2), 2, NICTX_ERR_BAD_ACCESS);
        rejects(h, NICTX_REG_Q(q, NICTX_QREG_RING_LOG2), 17, NICTX_ERR_BAD_ACCESS);
        accepts(h, NICTX_REG_Q(q, NICTX_QREG_WEIGHT), 1);
        accepts(h, NICTX_REG_Q(q, NICTX_QREG_WEIGHT), 255);
        rejects(h, NICTX_REG_Q(q, NICTX_QREG_WEIGHT), 0, NICTX_ERR_BAD_ACCESS);
        rejects(h, NICTX_REG_Q(q, NICTX_QREG_WEIGHT), 256, NICTX_ERR_BAD_ACCESS);
        /* TAIL: a doorbell, refused while disabled */
        rejects(h, NICTX_REG_Q(q, NICTX_QREG_TAIL), 1, NICTX_ERR_DB_OFF);
        eh_wr64(h, NICTX_REG_Q(q, NICTX_QREG_RING_BASE_LO), 0x1234567800000010ull + q * 0x10u);
        eh_wr64(h, NICTX_REG_Q(q, NICTX_QREG_WB_ADDR_LO), 0xFFFFFFFFFFFFFFFFull - q);
    }
    /* each queue kept its own values */
    for (q = 0; q < NICTX_Q_MAX; q++) {
        assert_int_equal(eh_rd64(h, NICTX_REG_Q(q, NICTX_QREG_RING_BASE_LO)),
                         0x1234567800000010ull + q * 0x10u);
        assert_int_equal(eh_rd64(h, NICTX_REG_Q(q, NICTX_QREG_WB_ADDR_LO)),
                         (0xFFFFFFFFFFFFFFFFull - q) & ~3ull);
        assert_int_equal(eh_rd32(h, NICTX_REG_Q(q, NICTX_QREG_WEIGHT)), 255);
        assert_int_equal(eh_rd32(h, NICTX_REG_Q(q, NICTX_QREG_RING_LOG2)), 16);
    }
    /* queue 0's block is the register page's ring and writeback */
    assert_int_equal(eh_rd64(h, NICTX_REG_RING_BASE_LO), 0x1234567800000010ull);
    assert_int_equal(eh_rd32(h, NICTX_REG_RING_LOG2), 16);
    accepts(h, NICTX_REG_RING_LOG2, 9);
    assert_int_equal(eh_rd32(h, NICTX_REG_Q(0, NICTX_QREG_RING_LOG2)), 9);
    assert_int_equal(eh_rd32(h, NICTX_REG_Q(1, NICTX_QREG_RING_LOG2)), 16);
    eh_wr32(h, NICTX_REG_Q(0, NICTX_QREG_WB_ADDR_HI), 0x42);
    assert_int_equal(eh_rd32(h, NICTX_REG_WB_ADDR_HI), 0x42);
    assert_int_equal(eh_rd32(h, NICTX_REG_Q(0, NICTX_QREG_HEAD)), eh_rd32(h, NICTX_REG_HEAD));
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* Each queue's CQ registers (QUEUES 64): CQ_LOG2 3..16 (2 and 17
 * refused), CQ_BASE_LO's bits 2:0 reading 0, each queue's storage its own;
 * queue 0's the page's CQ_BASE and CQ_LOG2; a block's CQ_BASE_LO/HI pair
 * (0x2C, not 8-byte aligned) refuses an 8-byte access. */
static void test_limits_queue_cq(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    unsigned q;

    accepts(h, NICTX_REG_QUEUES, 64);
    for (q = 0; q < NICTX_Q_MAX; q++) {
        assert_int_equal(eh_rd32(h, NICTX_REG_Q(q, NICTX_QREG_CQ_LOG2)), 8);
        accepts(h, NICTX_REG_Q(q, NICTX_QREG_CQ_LOG2), 3);
        accepts(h, NICTX_REG_Q(q, NICTX_QREG_CQ_LOG2), 16);
        rejects(h, NICTX_REG_Q(q, NICTX_QREG_CQ_LOG2), 2, NICTX_ERR_BAD_ACCESS);
        rejects(h, NICTX_REG_Q(q, NICTX_QREG_CQ_LOG2), 17, NICTX_ERR_BAD_ACCESS);
        accepts(h, NICTX_REG_Q(q, NICTX_QREG_CQ_LOG2), 3 + q % 14);
        eh_wr32(h, NICTX_REG_Q(q, NICTX_QREG_CQ_BASE_LO), 0xFFFFFFFFu - q * 8u);
        eh_wr32(h, NICTX_REG_Q(q, NICTX_QREG_CQ_BASE_HI), 0x1000u + q);
    }
    for (q = 0; q < NICTX_Q_MAX; q++) {
        assert_int_equal(eh_rd32(h, NICTX_REG_Q(q, NICTX_QREG_CQ_LOG2)), 3 + q % 14);
        assert_int_equal(eh_rd32(h, NICTX_REG_Q(q, NICTX_QREG_CQ_BASE_LO)),
                         (0xFFFFFFFFu - q * 8u) & ~7u);
        assert_int_equal(eh_rd32(h, NICTX_REG_Q(q, NICTX_QREG_CQ_BASE_HI)), 0x1000u + q);
    }
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    /* queue 0's block is the page's CQ_BASE and CQ_LOG2 */
    assert_int_equal(eh_rd64(h, NICTX_REG_CQ_BASE_LO), 0x00001000FFFFFFF8ull);
    assert_int_equal(eh_rd32(h, NICTX_REG_CQ_LOG2), 3);
    accepts(h, NICTX_REG_CQ_LOG2, 9);
    assert_int_equal(eh_rd32(h, NICTX_REG_Q(0, NICTX_QREG_CQ_LOG2)), 9);
    assert_int_equal(eh_rd32(h, NICTX_REG_Q(1, NICTX_QREG_CQ_LOG2)), 4);
    eh_wr64(h, NICTX_REG_CQ_BASE_LO, 0x12345678abcdef08ull);
    assert_int_equal(eh_rd32(h, NICTX_REG_Q(0, NICTX_QREG_CQ_BASE_LO)), 0xabcdef08u);
    assert_int_equal(eh_rd32(h, NICTX_REG_Q(0, NICTX_QREG_CQ_BASE_HI)), 0x12345678u);
    /* a block's pair at 0x2C: no 8-byte access */
    eh_wr64(h, NICTX_REG_Q(5, NICTX_QREG_CQ_BASE_LO), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_BAD_ACCESS);
    assert_int_equal(eh_rd32(h, NICTX_REG_Q(5, NICTX_QREG_CQ_BASE_LO)), 0xFFFFFFD0u); /* (0xFFFFFFFF - 5 * 8) & ~7 */
}

/* The MSI-X table and its pending bits.  QUEUES 1: vector 0's entry only
 * (the rest refused, a read UR).  QUEUES 64: every entry's registers at
 * their reset value and access (NICTX_MSIXREGS), each vector's storage its
 * own, MSG_ADDR_LO's bits 1:0 reading 0, VEC_CTRL's bits 31:1 refused;
 * vector 0's entry the page's IRQ_ADDR and IRQ_DATA; the PBA read-only (0:
 * nothing due); 0x400..0x7FF and 0xC08..0xFFF refused; QUEUES 5: vector 5
 * refused, vector 4 answers. */
struct msixreg_info {
    const char *name;
    uint32_t off, reset;
    enum reg_acc acc;
    int swmod;
};
#define MSIXREG_ROW(name, off, reset, acc, swmod) {#name, off, reset, ACC_##acc, swmod},
static const struct msixreg_info msixregs[] = {NICTX_MSIXREGS(MSIXREG_ROW)};
#undef MSIXREG_ROW
#define N_MSIXREGS (sizeof(msixregs) / sizeof(msixregs[0]))
_Static_assert(N_MSIXREGS == NICTX_NUM_MSIXREGS, "NICTX_NUM_MSIXREGS");
_Static_assert(NICTX_REG_MSIX(3, NICTX_MSIXREG_VEC_CTRL) == 0x83Cu, "NICTX_REG_MSIX");

static void test_limits_msix_table(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    unsigned v, i;

    assert_int_equal(eh_rd32(h, NICTX_REG_MSIX(0, NICTX_MSIXREG_VEC_CTRL)), 0);
    bad_access(h, NICTX_REG_MSIX(1, NICTX_MSIXREG_MSG_DATA), 1);
    bad_access(h, NICTX_REG_MSIX(1, NICTX_MSIXREG_MSG_DATA), 0);
    bad_access(h, NICTX_REG_MSIX(63, NICTX_MSIXREG_VEC_CTRL), 0);
    accepts(h, NICTX_REG_QUEUES, 64);
    for (v = 0; v < NICTX_MSIX_MAX; v++) {
        for (i = 0; i < N_MSIXREGS; i++) {
            uint32_t off = NICTX_REG_MSIX(v, msixregs[i].off);

            if (eh_rd32(h, off) != msixregs[i].reset)
                fail_msg("vector %u register %s reads 0x%x after reset, the map says 0x%x", v,
                         msixregs[i].name, eh_rd32(h, off), msixregs[i].reset);
            assert_int_equal(msixregs[i].acc, ACC_RW);
            accepts(h, off, msixregs[i].reset);
        }
        accepts(h, NICTX_REG_MSIX(v, NICTX_MSIXREG_VEC_CTRL), 1);
        rejects(h, NICTX_REG_MSIX(v, NICTX_MSIXREG_VEC_CTRL), 2, NICTX_ERR_BAD_ACCESS);
        rejects(h, NICTX_REG_MSIX(v, NICTX_MSIXREG_VEC_CTRL), 0x80000001u, NICTX_ERR_BAD_ACCESS);
        accepts(h, NICTX_REG_MSIX(v, NICTX_MSIXREG_VEC_CTRL), v & 1);
        eh_wr64(h, NICTX_REG_MSIX(v, NICTX_MSIXREG_MSG_ADDR_LO), 0xFFFFFFFFFFFFFFFFull - v);
        accepts(h, NICTX_REG_MSIX(v, NICTX_MSIXREG_MSG_DATA), 0x100u + v);
    }
    for (v = 0; v < NICTX_MSIX_MAX; v++) {
        assert_int_equal(eh_rd64(h, NICTX_REG_MSIX(v, NICTX_MSIXREG_MSG_ADDR_LO)),
                         (0xFFFFFFFFFFFFFFFFull - v) & ~3ull);
        assert_int_equal(eh_rd64(h, NICTX_REG_MSIX(v, NICTX_MSIXREG_MSG_DATA)),
                         (0x100u + v) | (uint64_t)(v & 1) << 32);
    }
    /* vector 0's entry is IRQ_ADDR and IRQ_DATA */
    assert_int_equal(eh_rd64(h, NICTX_REG_IRQ_ADDR_LO), 0xFFFFFFFFFFFFFFFCull);
    assert_int_equal(eh_rd32(h, NICTX_REG_IRQ_DATA), 0x100u);
    accepts(h, NICTX_REG_IRQ_DATA, 0x4a11u);
    assert_int_equal(eh_rd32(h, NICTX_REG_MSIX(0, NICTX_MSIXREG_MSG_DATA)), 0x4a11u);
    eh_wr32(h, NICTX_REG_MSIX(0, NICTX_MSIXREG_MSG_ADDR_HI), 0x42u);
    assert_int_equal(eh_rd32(h, NICTX_REG_IRQ_ADDR_HI), 0x42u);
    assert_int_equal(eh_rd32(h, NICTX_REG_MSIX(1, NICTX_MSIXREG_MSG_DATA)), 0x101u);
    /* the PBA: read-only, nothing due */
    assert_int_equal(eh_rd64(h, NICTX_REG_PBA_LO), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_PBA_HI), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    bad_access(h, NICTX_REG_PBA_LO, 0);
    bad_access(h, NICTX_REG_PBA_HI, 0);
    /* around the table and the PBA */
    bad_access(h, 0x7FC, 1);
    bad_access(h, 0x7FC, 0);
    bad_access(h, 0xC08, 1);
    bad_access(h, 0xC08, 0);
    bad_access(h, 0xFFC, 1);
    accepts(h, NICTX_REG_QUEUES, 5);
    assert_int_equal(eh_rd32(h, NICTX_REG_MSIX(4, NICTX_MSIXREG_MSG_DATA)), 0x104u);
    bad_access(h, NICTX_REG_MSIX(5, NICTX_MSIXREG_MSG_DATA), 1);
    bad_access(h, NICTX_REG_MSIX(5, NICTX_MSIXREG_VEC_CTRL), 0);
}

/* The enable refusals with QUEUES > 1 (ERR.CFG, the engine stays
 * disabled): PROTO WC, a queue in use with ring base 0; PROTO OWNER,
 * CPL_MODE other than HEAD_WB, IRQ_THRESH or IRQ_TIMER not 0 accepted;
 * QUEUES written while enabled (or after, until a queue reset) refused. */
static void test_limits_queue_enable_refusals(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    unsigned q;

    accepts(h, NICTX_REG_QUEUES, 3);
    for (q = 0; q < 2; q++) /* queue 2 without a ring */
        eh_wr64(h, NICTX_REG_Q(q, NICTX_QREG_RING_BASE_LO), HOST_BASE + q * 0x1000u);
    rejects(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE, NICTX_ERR_CFG);
    eh_wr64(h, NICTX_REG_Q(2, NICTX_QREG_RING_BASE_LO), HOST_BASE + 0x2000u);
    accepts(h, NICTX_REG_PROTO, NICTX_PROTO_WC);
    rejects(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE, NICTX_ERR_CFG);
    /* the owner protocol, completion modes and interrupts run per queue:
     * no refusal (issue 8 item 4; queue 3 has no ring, but is not in use) */
    accepts(h, NICTX_REG_PROTO, NICTX_PROTO_OWNER);
    accepts(h, NICTX_REG_CPL_MODE, NICTX_CPL_MODE_CQ);
    accepts(h, NICTX_REG_IRQ_THRESH, 1);
    accepts(h, NICTX_REG_IRQ_TIMER, 1);
    accepts(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    rejects(h, NICTX_REG_QUEUES, 4, NICTX_ERR_CFG);
    rejects(h, NICTX_REG_QUEUES, 1, NICTX_ERR_CFG);
    rejects(h, NICTX_REG_Q(1, NICTX_QREG_RING_BASE_LO), 0x5000, NICTX_ERR_CFG);
    rejects(h, NICTX_REG_Q(2, NICTX_QREG_RING_LOG2), 4, NICTX_ERR_CFG);
    rejects(h, NICTX_REG_Q(1, NICTX_QREG_CQ_LOG2), 4, NICTX_ERR_CFG);
    rejects(h, NICTX_REG_Q(2, NICTX_QREG_CQ_BASE_LO), 0x100, NICTX_ERR_CFG);
    rejects(h, NICTX_REG_Q(2, NICTX_QREG_CQ_BASE_HI), 0x1, NICTX_ERR_CFG);
    bad_access(h, NICTX_REG_Q(3, NICTX_QREG_TAIL), 0);
    eh_wr32(h, NICTX_REG_CTRL, 0);
    rejects(h, NICTX_REG_QUEUES, 1, NICTX_ERR_CFG); /* until a queue reset */
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_RESET);
    while (eh_rd32(h, NICTX_REG_STATUS) & NICTX_STATUS_RESETTING)
        ;
    accepts(h, NICTX_REG_QUEUES, 1);
    /* one queue: every protocol again */
    accepts(h, NICTX_REG_PROTO, NICTX_PROTO_OWNER);
    accepts(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
}

/* ------------------------------------------------------------ RW fields */

struct rw_field {
    uint32_t off, mask; /* the bits that hold a value; the rest read 0 */
};

/* Address and data registers: any value, the low address bits dropped. */
static const struct rw_field rw_fields[] = {
    {NICTX_REG_RING_BASE_LO, 0xFFFFFFF0u}, /* 16-byte aligned */
    {NICTX_REG_RING_BASE_HI, 0xFFFFFFFFu},
    {NICTX_REG_WB_ADDR_LO, 0xFFFFFFFCu},   /* 4-byte aligned */
    {NICTX_REG_WB_ADDR_HI, 0xFFFFFFFFu},
    {NICTX_REG_IRQ_DATA, 0xFFFFFFFFu},
    {NICTX_REG_IRQ_ADDR_LO, 0xFFFFFFFCu},
    {NICTX_REG_IRQ_ADDR_HI, 0xFFFFFFFFu},
};

/* Write v, read v & mask back, no error. */
static void takes_masked(struct eh *h, uint32_t off, uint32_t v, uint32_t mask)
{
    eh_wr32(h, off, v);
    if (eh_rd32(h, off) != (v & mask))
        fail_msg("register 0x%02x: wrote 0x%x, read 0x%x", off, v, eh_rd32(h, off));
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* Address and data registers at 0, all ones and a pattern, one at a time
 * (the others keep their values); 64-bit pairs by one 8-byte write and
 * read. */
static void test_limits_rw_fields(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    static const uint32_t vals[] = {0xFFFFFFFFu, 0xA5C3961Fu, 0};
    unsigned i, k;

    for (i = 0; i < sizeof(rw_fields) / sizeof(rw_fields[0]); i++) {
        for (k = 0; k < 3; k++) {
            takes_masked(h, rw_fields[i].off, vals[k] ^ (k == 1 ? i : 0), rw_fields[i].mask);
            if (i > 0)
                assert_int_equal(eh_rd32(h, rw_fields[i - 1].off), 0);
        }
    }
    eh_wr64(h, NICTX_REG_RING_BASE_LO, 0xFEDCBA9876543217ull);
    assert_int_equal(eh_rd64(h, NICTX_REG_RING_BASE_LO), 0xFEDCBA9876543210ull);
    eh_wr64(h, NICTX_REG_WB_ADDR_LO, 0x0123456789ABCDEFull);
    assert_int_equal(eh_rd32(h, NICTX_REG_WB_ADDR_HI), 0x01234567u);
    assert_int_equal(eh_rd32(h, NICTX_REG_WB_ADDR_LO), 0x89ABCDECu);
    eh_wr64(h, NICTX_REG_IRQ_ADDR_LO, 0x8000000000000004ull);
    assert_int_equal(eh_rd64(h, NICTX_REG_IRQ_ADDR_LO), 0x8000000000000004ull);
    /* Two fields in one 8-byte write: IRQ_THRESH (0x28) and IRQ_DATA. */
    eh_wr64(h, NICTX_REG_IRQ_THRESH, 0xDEADBEEF0000FFFFull);
    assert_int_equal(eh_rd32(h, NICTX_REG_IRQ_THRESH), 0xFFFF);
    assert_int_equal(eh_rd32(h, NICTX_REG_IRQ_DATA), 0xDEADBEEFu);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* CTRL: ENABLE alone sets and clears; other bits refused; enable with ring
 * base 0 refused (CFG).  ERR: write 1 to clear, bit by bit. */
static void test_limits_ctrl_and_err(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;

    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE); /* ring base 0 */
    assert_int_equal(eh_rd32(h, NICTX_REG_CTRL), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_CFG);
    eh_wr32(h, NICTX_REG_TAIL, 1);
    eh_wr32(h, NICTX_REG_HEAD, 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR),
                     NICTX_ERR_CFG | NICTX_ERR_DB_OFF | NICTX_ERR_BAD_ACCESS);
    eh_wr32(h, NICTX_REG_ERR, 0);                  /* clears nothing */
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR),
                     NICTX_ERR_CFG | NICTX_ERR_DB_OFF | NICTX_ERR_BAD_ACCESS);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_DB_OFF);   /* that bit only */
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_CFG | NICTX_ERR_BAD_ACCESS);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_CFG | NICTX_ERR_TAIL_RANGE);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    eh_wr32(h, NICTX_REG_ERR, 0xFFFFFFFFu);        /* every bit, no error */
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);

    engine_init(t, 3);
    assert_int_equal(eh_rd32(h, NICTX_REG_CTRL), NICTX_CTRL_ENABLE);
    eh_wr32(h, NICTX_REG_CTRL, 0xFFFFFFFCu | NICTX_CTRL_ENABLE); /* unknown bits */
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    assert_int_equal(eh_rd32(h, NICTX_REG_CTRL), NICTX_CTRL_ENABLE);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_BAD_ACCESS);
    eh_wr32(h, NICTX_REG_CTRL, 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_CTRL), 0);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    assert_int_equal(eh_rd32(h, NICTX_REG_CTRL), NICTX_CTRL_ENABLE);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* Registers the map calls read-only refuse writes (BAD_ACCESS) and keep
 * their value; so does every offset of the register page the map does not
 * list, and bad sizes and misaligned writes. */
static void test_limits_read_only_and_bad_sizes(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    static const uint8_t ones[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    const struct reg_info *r;
    uint32_t off;
    unsigned i, n_ro = 0, n_ro_map = 0;

    for (off = 0; off < REG_PAGE; off += 4) { /* the map's RO registers, unlisted offsets */
        r = reg_at(off);
        if (r && r->acc != ACC_RO)
            continue;
        rejects(h, off, 0xFFFFFFFFu, NICTX_ERR_BAD_ACCESS);
        n_ro += r != NULL;
    }
    for (i = 0; i < N_REGS; i++)
        n_ro_map += regs[i].acc == ACC_RO && regs[i].off < REG_PAGE;
    assert_int_equal(n_ro, n_ro_map);
    assert_true(n_ro_map >= 3); /* HEAD, STATUS, ID, the counters */
    eh_mwr(h, NICTX_REG_IRQ_DATA, ones, 2);      /* 2 bytes */
    eh_mwr(h, NICTX_REG_IRQ_DATA + 1, ones, 4);  /* misaligned */
    eh_mwr(h, NICTX_REG_IRQ_DATA, ones, 8);      /* 8 bytes at a 4-aligned offset */
    eh_mwr(h, NICTX_REG_IRQ_ADDR_LO, ones, 6);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    assert_int_equal(eh_rd64(h, NICTX_REG_IRQ_THRESH), 0);
    assert_int_equal(eh_rd64(h, NICTX_REG_IRQ_ADDR_LO), 0);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_BAD_ACCESS);
    eh_mwr(h, NICTX_REG_IRQ_DATA, ones, 4);      /* the good neighbour */
    assert_int_equal(eh_rd32(h, NICTX_REG_IRQ_DATA), 0xFFFFFFFFu);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* ------------------------------------------------------------ ring size */

/* RING_LOG2 = 3: 6 laps of 7 frames (TAIL reaches 7 = size - 1, the most a
 * tail ring holds) with DESC_FETCH_MAX 32, so every read is cut by the
 * ring, not the limit; TAIL = 8 is out of range. */
static void test_limits_ring_log2_min(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    unsigned lap, i;
    uint32_t seq = 0;

    engine_init(t, 3);
    set_fetch_max(t, 32);
    for (lap = 0; lap < 6; lap++) {
        for (i = 0; i < 7; i++)
            post_small(t, seq++);
        doorbell(t);
        if (lap == 0)
            assert_int_equal(eh_rd32(h, NICTX_REG_TAIL), 7);
        eh_settle(h, 20000);
        assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), h->prod & eh_ring_mask(h));
    }
    /* reads: 7, then two per lap, cut at the wrap (laps start at 7, 6, 5,
     * 4, 3): 11 */
    assert_int_equal(t->exp_desc_mrds, 11);
    check_counters(t);
    rejects(h, NICTX_REG_TAIL, 8, NICTX_ERR_TAIL_RANGE);
    eh_settle(h, 1000);
    check_counters(t);
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
    struct lim *t = *state;
    struct eh *h = &t->h;
    uint32_t seq = 0, last_desc;
    uint64_t tail_tlp;
    unsigned i, n = 0;

    engine_init(t, 16);
    set_fetch_max(t, 32);
    eh_wr32(h, NICTX_REG_LINE_RATE, LINE_MAX);
    eh_wr32(h, NICTX_REG_WB_THRESH, 0xFFFF);
    eh_wr32(h, NICTX_REG_IRQ_THRESH, 0xFFFF);
    for (i = 0; i < 65535; i++)
        post_small(t, seq++);
    doorbell(t);
    assert_int_equal(eh_rd32(h, NICTX_REG_TAIL), 0xFFFF);

    /* The fetcher reads descriptor 65534 last (in a read of 31). */
    last_desc = t->exp_desc_mrds;
    while (h->n_desc_mrds < last_desc) {
        eh_step(h);
        if (++n > 2000000)
            fail_msg("descriptor reads stopped at %u of %u", h->n_desc_mrds, last_desc);
    }
    assert_int_equal(h->last_mrd.len, 31 * NICTX_DESC_BYTES);
    assert_int_equal(t->n_wb + t->n_irq, 0);
    for (i = 0; i < 200; i++)
        post_small(t, seq++);
    doorbell(t); /* 1 (index 65535), then 0..198: 6 x 32 + 7 */
    assert_int_equal(t->exp_desc_mrds, last_desc + 1 + 7);
    tail_tlp = h->q_pushed;
    while (h->q_taken < tail_tlp) /* the TAIL write, behind CplDs */
        eh_step(h);
    /* The new tail is in before the head reached the old one (a frame on
     * the wire trails its completion by a cycle or two). */
    assert_true(h->n_frames + 4 < 65535);
    assert_int_equal(t->n_wb, 0);
    eh_settle(h, 2000000);
    check_counters(t);
    assert_int_equal(h->n_frames, 65735);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);

    /* Head writeback: the head after exactly 65535 completions, then the
     * idle one; the interrupt after exactly 65535, after its writeback (no
     * interrupt at idle: IRQ_TIMER is 0). */
    assert_int_equal(t->n_wb, 2);
    assert_int_equal(t->wb[0].val, 65535);
    assert_true(t->wb[0].frames >= 65535 && t->wb[0].frames < 65535 + 8);
    assert_int_equal(t->wb[1].val, 199);
    assert_int_equal(t->n_irq, 1);
    assert_int_equal(t->irq[0].val, IRQ_DATA);
    assert_true(t->irq[0].cycle > t->wb[0].cycle && t->irq[0].cycle < t->wb[1].cycle);

    rejects(h, NICTX_REG_TAIL, 0x10000, NICTX_ERR_TAIL_RANGE);
    eh_settle(h, 1000);
    check_counters(t);
}

/* RING_LOG2 = 16 with owner bits: a full ring of 65536 descriptors
 * (phase 1), then 1000 more on the second pass (phase 0).  The fetcher
 * reads up to a whole ring ahead, the consumer wraps 65535 -> 0 and its
 * phase flips.  OWNER rings the TAIL register
 * and reads past the posted descriptors (finding them not owned); WC
 * pushes the last descriptor of each batch as a block (index 65535, then
 * 999: both used, the first closing with tail (65535 + 1) & mask = 0) and
 * reads only what was published. */
static void ring_max_owner(struct lim *t, uint32_t proto)
{
    struct eh *h = &t->h;
    uint32_t seq = 0;
    unsigned i, n = 0;

    engine_init_proto(t, 16, proto);
    set_fetch_max(t, 32);
    eh_wr32(h, NICTX_REG_LINE_RATE, LINE_MAX);
    for (i = 0; i < 65536; i++)
        post_small(t, seq++);
    if (proto == NICTX_PROTO_WC)
        wc_push_last(t);
    else
        doorbell(t);
    /* OWNER: on once 2000 have left.  WC: once the block for 65535 is used
     * (a newer block would replace the one held). */
    while (proto == NICTX_PROTO_WC ? eh_rd32(h, NICTX_REG_CNT_WC) == 0 : h->n_frames < 2000) {
        eh_run(h, 1000);
        if (++n > 2000)
            fail_msg("%u frames after %u cycles", h->n_frames, n * 1000);
    }
    assert_true(h->n_frames < 65536);
    for (i = 0; i < 1000; i++)
        post_small(t, seq++);
    if (proto == NICTX_PROTO_WC)
        wc_push_last(t);
    else
        doorbell(t);
    eh_settle(h, 2000000);
    check_counters(t);
    assert_int_equal(h->n_frames, 66536);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    if (proto == NICTX_PROTO_WC) {
        assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC), 2);
        assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC_DROP), 0);
        /* fetching stops at the pushed index: nothing read too early */
        assert_int_equal(eh_rd32(h, NICTX_REG_CNT_NOT_OWNED), 0);
    } else {
        assert_true(eh_rd32(h, NICTX_REG_CNT_NOT_OWNED) > 0);
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
    struct lim *t = *state;
    struct eh *h = &t->h;
    uint32_t seq = 0;
    unsigned b, i;

    engine_init(t, 6);
    set_fetch_max(t, 1);
    for (b = 0; b < 2; b++) {
        for (i = 0; i < 40; i++)
            post_small(t, seq++);
        doorbell(t);
        eh_settle(h, 50000);
    }
    assert_int_equal(t->exp_desc_mrds, 80);
    for (i = 0; i < 64; i++) /* the first 64 */
        assert_int_equal(desc_mrd_len(h, i), NICTX_DESC_BYTES);
    check_counters(t);
}

/* DESC_INFLIGHT = n (1, the reset value 4, 8): with every completion held
 * and one descriptor per read, exactly n descriptor reads go out and no
 * more; released, all 40 frames follow. */
static void test_limits_desc_inflight(void **state)
{
    static const unsigned caps[] = {1, 4, 8};
    unsigned c, i;

    for (c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
        struct lim *t;
        struct eh *h;
        uint32_t seq = 0;

        if (c != 0) { /* a fresh device, one at a time */
            lim_free(*state);
            *state = lim_new();
        }
        t = *state;
        assert_non_null(t);
        h = &t->h;
        engine_init(t, 6);
        set_fetch_max(t, 1);
        if (caps[c] != 4)
            eh_wr32(h, NICTX_REG_DESC_INFLIGHT, caps[c]);
        assert_int_equal(eh_rd32(h, NICTX_REG_DESC_INFLIGHT), caps[c]);
        eh_hold(h, 0);
        for (i = 0; i < 40; i++)
            post_small(t, seq++);
        doorbell(t);
        eh_run(h, 2000);
        assert_int_equal(h->n_desc_mrds, caps[c]);
        assert_int_equal(h->n_mrds, caps[c]);
        eh_release(h);
        eh_settle(h, 50000);
        assert_int_equal(t->exp_desc_mrds, 40);
        check_counters(t);
    }
}

/* DESC_FETCH_MAX = 32: 40 descriptors are read as 32 + 8; the next 40
 * (from index 40 of a 64-entry ring) as 24 up to the wrap + 16. */
static void test_limits_desc_fetch_max_32(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    static const uint16_t lens[] = {512, 128, 384, 256};
    uint32_t seq = 0;
    unsigned b, i;

    engine_init(t, 6);
    set_fetch_max(t, 32);
    for (b = 0; b < 2; b++) {
        for (i = 0; i < 40; i++)
            post_small(t, seq++);
        doorbell(t);
        eh_settle(h, 50000);
    }
    assert_int_equal(t->exp_desc_mrds, 4);
    check_counters(t);
    for (i = 0; i < 4; i++)
        assert_int_equal(desc_mrd_len(h, i), lens[i]);
}

/* DESC_FETCH_MAX = 64, the hardware's most (DescFetchMaxHw) on a 128-entry
 * ring: 100 descriptors are read as 64 + 36, the next 40 (from index 100)
 * as 28 up to the wrap + 12; each read split at MRRS 512 (1024 B in two). */
static void test_limits_desc_fetch_max_64(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    static const uint16_t lens[] = {512, 512, 512, 64, 448, 192};
    static const unsigned batch[] = {100, 40};
    uint32_t seq = 0;
    unsigned b, i;

    engine_init(t, 7);
    set_fetch_max(t, 64);
    assert_int_equal(eh_rd32(h, NICTX_REG_DESC_FETCH_MAX), 64);
    for (b = 0; b < 2; b++) {
        for (i = 0; i < batch[b]; i++)
            post_small(t, seq++);
        doorbell(t);
        eh_settle(h, 100000);
    }
    assert_int_equal(t->exp_desc_mrds, 6);
    check_counters(t);
    for (i = 0; i < 6; i++)
        assert_int_equal(desc_mrd_len(h, i), lens[i]);
}

/* ------------------------------------------------------------ DMA read limits */

/* 1000-byte frames 8 bytes short of a 128-byte boundary: 9 MRds of <= 128
 * bytes each at MRRS 128, 125 buffer words; 32 of them fill the payload
 * buffer (4000 of 4096 words). */
static void post_split_frames(struct lim *t, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++)
        post(t, BUF_BUS + 0x1000 + (uint64_t)i * 0x400 + 120, 1000);
}

/* MAX_TAGS = 1: one MRd outstanding at a time, never two. */
static void test_limits_max_tags_1(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;

    engine_init(t, 8);
    eh_set_mrrs_log2(h, 7);
    eh_wr32(h, NICTX_REG_MAX_TAGS, 1);
    post_split_frames(t, 8);
    doorbell(t);
    eh_settle(h, 100000);
    assert_int_equal(t->exp_pay_mrds, 8 * 9);
    check_counters(t);
    assert_int_equal(h->p_max, 1);
    assert_true(eh_rd32(h, NICTX_REG_CNT_RD_STALL) > 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* MAX_TAGS = 256: with payload completions held, 64 descriptors (2 reads
 * of 32 = 8 MRds at MRRS 128) and 32 frames' worth of payload MRds
 * (288) pile up: exactly 256 are outstanding, on 256 distinct tags (the
 * last 8 from the free list: the descriptor reads' tags 0..7), and the
 * rest stall.  Released, everything is sent. */
static void test_limits_max_tags_256(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    uint32_t stall;
    unsigned i, tags = 0;

    engine_init(t, 8);
    eh_set_mrrs_log2(h, 7);
    set_fetch_max(t, 32);
    eh_wr32(h, NICTX_REG_MAX_TAGS, 256);
    assert_int_equal(eh_rd32(h, NICTX_REG_MAX_TAGS), 256);
    eh_hold(h, BUF_BUS); /* payload reads */
    post_split_frames(t, 64);
    doorbell(t);
    eh_run(h, 3000);
    assert_int_equal(h->n_desc_mrds, 8);
    assert_int_equal(h->n_mrds, 8 + 256);
    assert_int_equal(h->p_count, 256);
    for (i = 0; i < 256; i++)
        tags += h->tag_seen[i];
    assert_int_equal(tags, 256);
    assert_int_equal(h->last_mrd.tag, 7);
    stall = eh_rd32(h, NICTX_REG_CNT_RD_STALL);
    assert_true(stall > 2000);
    eh_run(h, 100);
    assert_int_equal(h->n_mrds, 8 + 256);
    assert_true(eh_rd32(h, NICTX_REG_CNT_RD_STALL) > stall);

    eh_release(h);
    eh_settle(h, 200000);
    assert_int_equal(t->exp_pay_mrds, 64 * 9);
    check_counters(t);
    assert_int_equal(h->p_max, 256);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* Three 8192-byte frames 3 bytes past a 4 KiB boundary: 3 MRds each at
 * MRRS 4096 (4093, 4096, 3 bytes), 1025 buffer words each. */
static void post_page_frames(struct lim *t)
{
    unsigned i;

    for (i = 0; i < 3; i++)
        post(t, BUF_BUS + 0x1000 + (uint64_t)i * 0x3000 + 3, 8192);
}

/* MAX_RD_BYTES = 4096 (its smallest limit) at MRRS 4096: never more than
 * 4096 requested bytes outstanding, and the full 4096-byte MRd goes out
 * alone. */
static void test_limits_max_rd_bytes_min(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;

    engine_init(t, 8);
    eh_set_mrrs_log2(h, 12);
    eh_wr32(h, NICTX_REG_MAX_TAGS, 256);
    eh_wr32(h, NICTX_REG_MAX_RD_BYTES, 4096);
    post_page_frames(t);
    doorbell(t);
    eh_settle(h, 100000);
    assert_int_equal(t->exp_pay_mrds, 9);
    check_counters(t);
    assert_int_equal(h->p_bytes_max, 4096);
    assert_true(eh_rd32(h, NICTX_REG_CNT_RD_STALL) > 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* The page-frame workload with payload completions held, then released;
 * returns the hash of every MRd (cycle, address, length, tag). */
static uint64_t run_held_pages(struct lim *t, uint32_t max_rd)
{
    struct eh *h = &t->h;
    engine_init(t, 8);
    eh_set_mrrs_log2(h, 12);
    eh_wr32(h, NICTX_REG_MAX_TAGS, 256);
    eh_wr32(h, NICTX_REG_MAX_RD_BYTES, max_rd);
    assert_int_equal(eh_rd32(h, NICTX_REG_MAX_RD_BYTES), max_rd);
    eh_hold(h, BUF_BUS); /* payload reads */
    post_page_frames(t);
    doorbell(t);
    eh_run(h, 2000);
    assert_int_equal(h->p_bytes, 3 * 8192); /* all of it requested at once */
    eh_release(h);
    eh_settle(h, 100000);
    check_counters(t);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_RD_STALL), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    return h->mrd_hash;
}

/* MAX_RD_BYTES = 2^21 - 1 limits nothing (outstanding bytes cannot exceed
 * 256 tags x 4096): the same MRds, cycle for cycle, as 0 (no limit) on a
 * fresh device.  (One device at a time: Verilator 5.006 deadlocks when a
 * model is destroyed while another, created later, is alive or was.) */
static void test_limits_max_rd_bytes_max(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    uint64_t hash, cycles;

    hash = run_held_pages(t, 0x1FFFFF);
    cycles = h->cycle;
    lim_free(t);
    *state = t = lim_new();
    assert_non_null(t);
    h = &t->h;
    assert_int_equal(run_held_pages(t, 0), hash);
    assert_int_equal(h->cycle, cycles);
}

/* 16383-byte frames (the largest length) 5 bytes into a buffer, and a
 * 1-byte one, at MRRS 2^log2: each MRd within one MRRS block (on_mrd),
 * exactly as many as the blocks the frames touch. */
static void mrrs_case(struct lim *t, unsigned log2, unsigned exp_pay)
{
    struct eh *h = &t->h;
    engine_init(t, 8);
    eh_set_mrrs_log2(h, log2);
    post(t, BUF_BUS + 0x1000 + 5, 16383);
    post(t, BUF_BUS + 0x6000 + 127, 1);
    post(t, BUF_BUS + 0x8000 + 5, 16383);
    doorbell(t);
    eh_settle(h, 100000);
    assert_int_equal(t->exp_pay_mrds, exp_pay);
    check_counters(t);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
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
    struct lim *t = *state;
    struct eh *h = &t->h;
    unsigned i;

    engine_init(t, 4);
    eh_wr32(h, NICTX_REG_WB_THRESH, 1);
    eh_wr32(h, NICTX_REG_IRQ_THRESH, 1);
    for (i = 0; i < 12; i++)
        post(t, BUF_BUS + 0x1000 + (uint64_t)i * 128, 60 + i); /* 9 beats or more apart */
    doorbell(t);
    eh_settle(h, 20000);
    check_counters(t);
    assert_int_equal(t->n_wb, 12);
    assert_int_equal(t->n_irq, 12);
    for (i = 0; i < 12; i++) {
        assert_int_equal(t->wb[i].val, (i + 1) & eh_ring_mask(h));
        assert_int_equal(t->irq[i].val, IRQ_DATA);
        assert_true(t->irq[i].cycle > t->wb[i].cycle);
        if (i + 1 < 12)
            assert_true(t->irq[i].cycle < t->wb[i + 1].cycle);
    }
}

/* WB_THRESH = IRQ_THRESH = 65535 on a 1024-entry ring kept busy for
 * 131072 frames (batches of 32, never drained): writebacks of the head
 * after exactly 65535 and 131070 completions (1023 and 1022), then the idle
 * one (0); an interrupt after each. */
static void test_limits_thresh_max(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    uint32_t seq = 0;
    unsigned i, n = 0;

    engine_init(t, 10);
    set_fetch_max(t, 32);
    eh_wr32(h, NICTX_REG_LINE_RATE, LINE_MAX);
    eh_wr32(h, NICTX_REG_WB_THRESH, 0xFFFF);
    eh_wr32(h, NICTX_REG_IRQ_THRESH, 0xFFFF);
    assert_int_equal(eh_rd32(h, NICTX_REG_WB_THRESH), 0xFFFF);
    assert_int_equal(eh_rd32(h, NICTX_REG_IRQ_THRESH), 0xFFFF);
    while (h->prod < 131072) {
        /* The device has completed at least the frames on the wire. */
        if (h->prod - h->n_frames <= 1023 - 32) {
            for (i = 0; i < 32; i++)
                post_small(t, seq++);
            doorbell(t);
        }
        eh_step(h);
        if (++n > 4000000)
            fail_msg("%u frames after %u cycles", h->n_frames, n);
        if (h->n_frames > 64 && h->n_frames < 131000)
            assert_true(h->prod - h->n_frames > 8); /* never drained */
    }
    eh_settle(h, 100000);
    check_counters(t);
    assert_int_equal(t->n_wb, 3);
    assert_int_equal(t->wb[0].val, 65535 & 1023);
    assert_int_equal(t->wb[1].val, 131070 & 1023);
    assert_int_equal(t->wb[2].val, 0);
    for (i = 0; i < 2; i++)
        assert_true(t->wb[i].frames >= 65535 * (i + 1) && t->wb[i].frames < 65535 * (i + 1) + 8);
    assert_int_equal(t->n_irq, 2); /* none at idle: IRQ_TIMER 0 */
    for (i = 0; i < 2; i++) {
        assert_int_equal(t->irq[i].val, IRQ_DATA);
        assert_true(t->irq[i].cycle > t->wb[i].cycle);
    }
}

/* ------------------------------------------------------------ exact cadence */

#define CAD_FRAMES 255u /* a full 256-entry tail ring: the queue drains once */

/* Writebacks and interrupts of one cadence round (thresholds wb, irq; 0:
 * off): an interrupt after every `irq` completions; a writeback after
 * every `wb` completions since the last one, before each interrupt when
 * completions are not yet written, and when the queue drains with
 * completions not yet written; no interrupt at the drain (IRQ_TIMER 0),
 * so the completions not yet signalled carry into the next round (at once
 * if they reach its threshold).
 * Each arrives before the next frame leaves (completions are 9 or more
 * clocks apart), with the head after exactly that many.  base: frames
 * sent before the round. */
static void check_cadence(struct lim *t, unsigned wb, unsigned irq, uint32_t base)
{
    unsigned ewb[CAD_FRAMES + 1], eirq[CAD_FRAMES + 1], nwb = 0, nirq = 0, c = 0, k, j;
    unsigned ci = t->irq_left;

    if (irq && ci >= irq) {
        eirq[nirq++] = 0;
        ci = 0;
    }
    for (k = 1; k <= CAD_FRAMES; k++) {
        c++;
        ci++;
        if (wb && c >= wb) {
            ewb[nwb++] = k;
            c = 0;
        }
        if (irq && ci >= irq) {
            if (wb && c) {
                ewb[nwb++] = k;
                c = 0;
            }
            eirq[nirq++] = k;
            ci = 0;
        }
    }
    if (wb && c)
        ewb[nwb++] = CAD_FRAMES;
    t->irq_left = ci;
    if (t->n_wb != nwb || t->n_irq != nirq)
        fail_msg("thresholds %u/%u: %u writebacks, %u interrupts; expected %u, %u", wb, irq,
                 t->n_wb, t->n_irq, nwb, nirq);
    for (j = 0; j < nwb; j++) {
        assert_int_equal(t->wb[j].frames, base + ewb[j]);
        assert_int_equal(t->wb[j].val, (base + ewb[j]) & 0xFF);
    }
    for (j = 0; j < nirq; j++) {
        assert_int_equal(t->irq[j].frames, base + eirq[j]);
        assert_int_equal(t->irq[j].val, IRQ_DATA);
    }
}

/* When a writeback and an interrupt follow the same completion, the
 * writeback goes first. */
static void check_wb_before_irq(const struct lim *t)
{
    unsigned j, k;

    for (j = 0; j < t->n_irq; j++)
        for (k = 0; k < t->n_wb; k++)
            if (t->irq[j].frames == t->wb[k].frames)
                assert_true(t->irq[j].cycle > t->wb[k].cycle);
}

/* One round: thresholds, 255 frames of 60..64 bytes, one doorbell. */
static void cadence_round(struct lim *t, unsigned wb, unsigned irq)
{
    struct eh *h = &t->h;
    uint32_t base = h->n_frames;
    unsigned i;

    t->n_wb = t->n_irq = 0;
    eh_wr32(h, NICTX_REG_WB_THRESH, wb);
    eh_wr32(h, NICTX_REG_IRQ_THRESH, irq);
    for (i = 0; i < CAD_FRAMES; i++)
        post(t, BUF_BUS + 0x1000 + (uint64_t)i * 128, 60 + i % 5);
    doorbell(t);
    eh_settle(h, 100000);
    check_counters(t);
    check_cadence(t, t->wb_bus ? wb : 0, irq, base);
    check_wb_before_irq(t);
}

/* Head writeback exactly every WB_THRESH completions and interrupts
 * exactly every IRQ_THRESH, each pair of thresholds on one queue drain of
 * 255 frames: equal, coprime, one a multiple of the other, the largest
 * that fire before the drain (254, 255); the written head exact.  Then the writeback to an address with bit 2 set (the upper
 * lanes), and writeback off by WB_ADDR = 0 and interrupts by IRQ_THRESH
 * = 0 (no write at all). */
static void test_limits_wb_irq_cadence(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    static const unsigned th[][2] = {
        {1, 1}, {2, 3}, {5, 7}, {16, 16}, {3, 12}, {254, 255}, {255, 2},
    };
    unsigned i;

    engine_init(t, 8);
    for (i = 0; i < sizeof(th) / sizeof(th[0]); i++)
        cadence_round(t, th[i][0], th[i][1]);

    t->wb_bus = WB_BUS + 4;
    t->irq_bus = IRQ_BUS + 4;
    eh_wr64(h, NICTX_REG_WB_ADDR_LO, t->wb_bus);
    eh_wr64(h, NICTX_REG_IRQ_ADDR_LO, t->irq_bus);
    memset(eh_ptr(h, WB_BUS, 8), 0, 8);
    cadence_round(t, 10, 50);
    assert_int_equal(*eh_ptr(h, WB_BUS + 4, 1), h->prod & 0xFF);
    assert_int_equal(*eh_ptr(h, WB_BUS, 1), 0); /* the lower lanes untouched */

    /* Off: WB_ADDR 0 with WB_THRESH 1 (an MWr to 0 would fail on_mwr),
     * IRQ_THRESH 0.  Last: the counts go on while off, and turning either
     * on again fires at once (not checked here). */
    eh_wr64(h, NICTX_REG_WB_ADDR_LO, 0);
    t->wb_bus = 0;
    cadence_round(t, 1, 0);
}

/* ------------------------------------------------------------ exact read limits */

/* Payload completions held until `n` reads are in flight, then
 * `cycles` more; the maxima from the start of the round. */
static void pile_up(struct eh *h, unsigned n, unsigned cycles)
{
    unsigned k = 0;

    while (h->f_count < n) {
        eh_step(h);
        if (++k > 20000)
            fail_msg("%u reads in flight after %u cycles, expected %u", h->f_count, k, n);
    }
    eh_run(h, cycles);
}

/* MAX_TAGS exact: with payload completions held, the reads in flight
 * reach the limit and never pass it (1 and 256 are tested above); between
 * rounds the limit changes on a running queue. */
static void test_limits_max_tags_exact(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    static const unsigned tags[] = {2, 3, 9, 31, 32, 100, 255};
    unsigned i;

    engine_init(t, 8);
    eh_set_mrrs_log2(h, 7);
    set_fetch_max(t, 32);
    for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
        uint32_t stall = eh_rd32(h, NICTX_REG_CNT_RD_STALL);

        eh_wr32(h, NICTX_REG_MAX_TAGS, tags[i]);
        eh_reset_maxima(h);
        eh_hold(h, BUF_BUS);
        post_split_frames(t, tags[i] / 9 + 2);
        doorbell(t);
        pile_up(h, tags[i], 300);
        assert_int_equal(h->f_max, tags[i]);
        assert_int_equal(h->p_count, tags[i]);
        assert_true(eh_rd32(h, NICTX_REG_CNT_RD_STALL) > stall + 250);
        eh_release(h);
        eh_settle(h, 100000);
        assert_int_equal(h->f_max, tags[i]);
    }
    check_counters(t);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* MAX_RD_BYTES exact: 8 frames of 4096 bytes, page-aligned, read as 512-byte
 * MRds with payload completions held: the bytes in flight reach the
 * largest multiple of 512 within the limit and never pass it. */
static void test_limits_max_rd_bytes_exact(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    static const uint32_t lim[] = {4096, 5000, 8191, 12345, 20000};
    unsigned i, k;

    engine_init(t, 8);
    eh_wr32(h, NICTX_REG_MAX_TAGS, 256);
    for (i = 0; i < sizeof(lim) / sizeof(lim[0]); i++) {
        eh_wr32(h, NICTX_REG_MAX_RD_BYTES, lim[i]);
        eh_reset_maxima(h);
        eh_hold(h, BUF_BUS);
        for (k = 0; k < 8; k++)
            post(t, BUF_BUS + 0x10000 + (uint64_t)k * 0x1000, 4096);
        doorbell(t);
        pile_up(h, lim[i] / 512, 300);
        assert_int_equal(h->f_bytes_max, lim[i] / 512 * 512);
        assert_int_equal(h->p_bytes, lim[i] / 512 * 512);
        eh_release(h);
        eh_settle(h, 100000);
        assert_int_equal(h->f_bytes_max, lim[i] / 512 * 512);
    }
    check_counters(t);
    assert_true(eh_rd32(h, NICTX_REG_CNT_RD_STALL) > 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* DESC_FETCH_MAX between 1 and 32 (tested above): no descriptor read
 * longer than the limit, one as long (MRRS 4096: a read is one MRd), and
 * exactly the reads the limit and the ring wrap make. */
static void test_limits_desc_fetch_max_each(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    static const unsigned ns[] = {2, 3, 5, 8, 13, 31};
    uint32_t seq = 0;
    unsigned i, b, k;

    engine_init(t, 6);
    eh_set_mrrs_log2(h, 12);
    for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
        unsigned from = h->n_mrds, longest = 0;

        set_fetch_max(t, ns[i]);
        for (b = 0; b < 2; b++) {
            for (k = 0; k < 40; k++)
                post_small(t, seq++);
            doorbell(t);
            eh_settle(h, 50000);
        }
        assert_true(h->n_mrds <= EH_MRD_LOG);
        for (k = from; k < h->n_mrds; k++)
            if (h->mrds[k].desc && h->mrds[k].len > longest)
                longest = h->mrds[k].len;
        assert_int_equal(longest, ns[i] * NICTX_DESC_BYTES);
        check_counters(t);
    }
}

/* ------------------------------------------------------------ completion timeout */

/* Post one 64-byte frame with its payload completion held; the clock its
 * MRd was taken. */
static uint64_t held_payload_read(struct lim *t)
{
    struct eh *h = &t->h;
    unsigned n = 0;

    eh_hold(h, BUF_BUS);
    post(t, BUF_BUS + 0x1000, 64);
    doorbell(t);
    while (h->n_mrds == h->n_desc_mrds) {
        eh_step(h);
        assert_true(++n < 10000);
    }
    return h->cycle;
}

/* CPL_TIMEOUT = 1000: a held completion sets ERR.CPL_TIMEOUT about 1000
 * clocks after its MRd (a register read takes a few), not 30 before; the
 * device is not idle meanwhile (its timer runs without host input). */
static void test_limits_cpl_timeout(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    uint64_t c0;

    engine_init(t, 5);
    eh_wr32(h, NICTX_REG_CPL_TIMEOUT, 1000);
    c0 = held_payload_read(t);
    eh_run(h, (unsigned)(c0 + 1000 - 30 - h->cycle));
    assert_false(h->idle); /* the timer runs: not idle */
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    eh_run(h, (unsigned)(c0 + 1000 + 10 - h->cycle));
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_CPL_TIMEOUT);
}

/* The held completion's wait, every clock run (skip 0) or with clocks left
 * out: once the device waits for the completion only (waiting, not idle),
 * the clocks its wake allows pass, one more runs (it carries the skip) and
 * the timer acts on the next.  Returns that clock relative to the MRd's. */
static uint64_t cpl_timeout_fire(struct lim *t, int skip)
{
    struct eh *h = &t->h;
    uint64_t c0;
    unsigned n;

    engine_init(t, 5);
    eh_wr32(h, NICTX_REG_CPL_TIMEOUT, 1000);
    c0 = held_payload_read(t);
    for (n = 0; !(h->wait_quiet && h->wake != UINT32_MAX); n++) {
        eh_step(h);
        assert_true(n < 100);
    }
    assert_false(h->idle); /* a read outstanding */
    assert_true(h->wake > 900 && h->wake < 1000);
    if (skip)
        eh_skip(h, h->wake);
    else
        eh_run(h, h->wake);
    eh_step(h);
    assert_true(h->waiting && h->wake == 0);
    eh_step(h); /* the timer acts */
    assert_false(h->waiting);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_CPL_TIMEOUT);
    return h->cycle - c0;
}

/* Leaving out the clocks a waiting device allows (wake) changes nothing:
 * the timeout fires on the same clock as with every clock run, on a fresh
 * device (one device at a time, see test_limits_max_rd_bytes_max). */
static void test_limits_cpl_timeout_skip(void **state)
{
    struct lim *t = *state;
    uint64_t every = cpl_timeout_fire(t, 0);

    lim_free(t);
    *state = t = lim_new();
    assert_non_null(t);
    assert_int_equal(cpl_timeout_fire(t, 1), every);
    assert_true(every > 1000 - 30 && every <= 1000 + 10);
}

/* The completion timeout acts once per read, and each read that becomes the
 * oldest waits a whole CPL_TIMEOUT of its own (rtl/nictx_dma_rd.sv,
 * "Completion timeout").  Two payload reads held, CPL_TIMEOUT = 1000: the
 * first times out; ERR.CPL_TIMEOUT cleared (write 1) stays clear while that
 * read waits on, so the driver sees one timeout, not one per clock.  Its
 * completion then comes late, before any reset: the read retires, its frame
 * goes out, and the second read, the oldest now, times out about 1000
 * clocks after that retire (the timer starts again: not at once, since
 * that read has waited thousands of clocks, and not never). */
static void test_limits_cpl_timeout_each_read(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    uint64_t c0, c1;
    unsigned n = 0;

    engine_init(t, 5);
    eh_wr32(h, NICTX_REG_CPL_TIMEOUT, 1000);
    eh_hold(h, BUF_BUS);
    post(t, BUF_BUS + 0x1000, 64);
    post(t, BUF_BUS + 0x2000, 64);
    doorbell(t);
    while (h->n_mrds - h->n_desc_mrds < 2) {
        eh_step(h);
        assert_true(++n < 10000);
    }
    c0 = h->cycle; /* the second MRd; the first went a clock or so before */
    eh_run(h, (unsigned)(c0 + 1000 + 10 - h->cycle));
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_CPL_TIMEOUT);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_CPL_TIMEOUT);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    eh_run(h, 3000);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0); /* fired once */
    assert_int_equal(h->f_count, 2);

    /* The first read's completion, late; the second's stays held. */
    eh_hold(h, BUF_BUS + 0x2000);
    for (n = 0; h->f_count > 1; n++) {
        eh_step(h);
        assert_true(n < 1000);
    }
    c1 = h->cycle; /* its last CplD taken: it retires now */
    eh_run(h, (unsigned)(c1 + 1000 - 30 - h->cycle));
    assert_int_equal(h->n_frames, 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    eh_run(h, (unsigned)(c1 + 1000 + 10 - h->cycle));
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_CPL_TIMEOUT);
    assert_int_equal(h->f_count, 1);
}

/* CPL_TIMEOUT = 0 turns the timer off: a completion held for longer than
 * the reset timeout sets nothing, and arrives. */
static void test_limits_cpl_timeout_off(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;

    engine_init(t, 5);
    eh_wr32(h, NICTX_REG_CPL_TIMEOUT, 0);
    held_payload_read(t);
    eh_run(h, NICTX_CPL_TIMEOUT_RESET + 1000);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    eh_release(h);
    eh_settle(h, 10000);
    check_counters(t);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* ------------------------------------------------------------ line rate */

/* LINE_RATE = 1 (1/65536 byte per cycle): a 1-byte frame costs
 * (1 + 24) x 65536 cycles of credit, so the second frame starts exactly
 * that long after the first. */
static void test_limits_line_rate_min(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;

    engine_init(t, 4);
    eh_wr32(h, NICTX_REG_LINE_RATE, 1);
    post(t, BUF_BUS + 0x1000, 1);
    post(t, BUF_BUS + 0x1003, 1);
    doorbell(t);
    while (h->n_frames < 2) {
        eh_step(h);
        if (h->cycle > 2000000)
            fail_msg("second frame not sent after %llu cycles", (unsigned long long)h->cycle);
    }
    assert_int_equal(h->sop_cycle[1] - h->sop_cycle[0], (1 + 24) * 65536ull);
    eh_wr32(h, NICTX_REG_LINE_RATE, LINE_MAX); /* pay off the second frame's debt */
    eh_settle(h, 1000);
    check_counters(t);
}

/* Pacing survives backpressure: at 1 byte per cycle, 16 one-byte frames
 * (25 byte times each) wait while the wire is held for 3000 cycles; the
 * MAC saves at most one cycle's credit meanwhile, so once the wire is back
 * the two frames already in the port's slice leave back to back and every
 * later one 24 or 25 cycles after the one before (no burst). */
static void test_limits_line_rate_after_hold(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    uint64_t d;
    unsigned i;

    engine_init(t, 5);
    eh_wr32(h, NICTX_REG_LINE_RATE, 0x10000);
    eh_hold_wire(h, 1);
    for (i = 0; i < 16; i++)
        post(t, BUF_BUS + 0x1000 + (uint64_t)i * 64, 1);
    doorbell(t);
    eh_run(h, 3000);
    assert_int_equal(h->n_frames, 0);
    eh_hold_wire(h, 0);
    eh_settle(h, 20000);
    check_counters(t);
    assert_int_equal(h->sop_cycle[1] - h->sop_cycle[0], 1);
    for (i = 3; i < 16; i++) {
        d = h->sop_cycle[i] - h->sop_cycle[i - 1];
        if (d < 24 || d > 25)
            fail_msg("frame %u starts %llu cycles after frame %u", i, (unsigned long long)d, i - 1);
    }
}

/* LINE_RATE = 2^24 - 1 (256 bytes per cycle): never the bottleneck.  With
 * the wire held until 16 one-byte frames are buffered, they leave on 16
 * consecutive cycles (at 8 B/cycle it would be one per 4). */
static void test_limits_line_rate_max(void **state)
{
    struct lim *t = *state;
    struct eh *h = &t->h;
    unsigned i;

    engine_init(t, 5);
    eh_wr32(h, NICTX_REG_LINE_RATE, LINE_MAX);
    assert_int_equal(eh_rd32(h, NICTX_REG_LINE_RATE), LINE_MAX);
    eh_hold_wire(h, 1);
    for (i = 0; i < 16; i++)
        post(t, BUF_BUS + 0x1000 + (uint64_t)i * 64 + i % 8, 1 + i % 8);
    doorbell(t);
    eh_run(h, 3000);
    assert_int_equal(h->p_count, 0);
    eh_hold_wire(h, 0);
    eh_settle(h, 20000);
    check_counters(t);
    for (i = 1; i < 16; i++)
        assert_int_equal(h->sop_cycle[i], h->sop_cycle[0] + i);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_limits_register_bounds, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_tail_range, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_reset_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_register_access, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_rw_fields, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_queue_register_bounds, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_queue_blocks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_queue_enable_refusals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_queue_cq, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_msix_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_ctrl_and_err, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_read_only_and_bad_sizes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_ring_log2_min, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_ring_log2_max_wrap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_ring_log2_max_owner, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_ring_log2_max_wc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_desc_fetch_max_1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_desc_fetch_max_32, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_desc_fetch_max_64, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_desc_inflight, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_max_tags_1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_max_tags_256, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_max_rd_bytes_min, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_max_rd_bytes_max, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_mrrs_log2_min, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_mrrs_log2_max, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_thresh_min, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_thresh_max, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_wb_irq_cadence, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_max_tags_exact, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_max_rd_bytes_exact, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_desc_fetch_max_each, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_cpl_timeout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_cpl_timeout_skip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_cpl_timeout_each_read, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_cpl_timeout_off, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_line_rate_min, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_line_rate_max, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_line_rate_after_hold, setup, teardown),
    };
    if (getenv("TEST_LIMITS_FILTER")) /* e.g. "*ring*" */
        cmocka_set_test_filter(getenv("TEST_LIMITS_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
