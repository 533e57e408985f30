/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_completions.c - the engine's completion modes and interrupt moderation
 * (rtl/nictx_cpl.sv; docs/device.md, Completions and interrupts), exact
 * at the device port.
 *
 * The host is tests/common/engine_host.h: every engine MWr is recorded (address,
 * length, data, clock, frames on the wire by then).  Each test checks the
 * exact list of writes it must produce:
 *  - DESC_WB: a DD write to word 1 of the last descriptor of every batch of
 *    WB_THRESH completions and at idle, with the pass's phase in bit 31,
 *    across ring wraps, tail and owner protocols;
 *  - DESC_WB_FULL: every descriptor of each such batch written back whole
 *    (16 bytes: word 0 zero, DD and the phase in word 1), in writes cut at
 *    MPS-aligned addresses (MPS_LOG2) and at the ring's wrap;
 *  - CQ: a CQE per batch with the last index, the batch's count and the
 *    CQ pass's phase, at consecutive CQ slots, with a CQ smaller and one
 *    larger than the ring; never before the frames it reports are sent;
 *  - interrupts by threshold only (none at idle), by the moderation timer
 *    only (a trickle: one per timer expiry, about IRQ_TIMER clocks after
 *    the first completion not yet signalled), and both; each interrupt
 *    after a completion write that covers all completions so far, also
 *    when one is due while a completion write still waits for the link
 *    (d2h ready stalls).
 * TEST_CPL_VERBOSE=1 prints the writes.
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
#define HOST_SIZE (1u << 20)
#define RING_BUS HOST_BASE               /* up to 4096 descriptors: 64 KiB */
#define CQ_BUS (HOST_BASE + 0x10000u)    /* up to 4096 CQEs: 32 KiB */
#define WB_BUS (HOST_BASE + 0x18000u)    /* head writeback word */
#define IRQ_BUS (HOST_BASE + 0x18100u)   /* MSI-X message address */
#define IRQ_DATA 0x5a5au
#define BUF_BUS (HOST_BASE + 0x20000u)   /* frame buffers */
#define CPL_LAT 60u
#define MAX_WR 1024u

struct wr {
    uint64_t addr, data, cycle;
    unsigned len, frames;
};

struct cpl {
    struct eh h;
    struct wr w[MAX_WR];
    unsigned n;
};

static void on_mwr(void *user, const struct dev_beat *b)
{
    struct cpl *t = user;
    struct wr *w;

    assert_true(t->n < MAX_WR);
    w = &t->w[t->n++];
    w->addr = b->addr;
    w->len = b->len;
    /* (a DESC_WB_FULL write's bytes: in host memory) */
    w->data = b->len <= 8 ? dev_lanes_get(b->data, (unsigned)(b->addr % t->h.width), b->len) : 0;
    w->cycle = t->h.cycle;
    w->frames = t->h.n_frames;
    if (getenv("TEST_CPL_VERBOSE"))
        printf("  MWr 0x%llx len %u data 0x%llx cycle %llu frames %u\n",
               (unsigned long long)w->addr, w->len, (unsigned long long)w->data,
               (unsigned long long)w->cycle, w->frames);
}

static int setup(void **state)
{
    struct cpl *t = calloc(1, sizeof(*t));
    struct eh_cfg cfg = {
        .mem_base = HOST_BASE,
        .mem_size = HOST_SIZE,
        .ring_bus = RING_BUS,
        .buf_bus = BUF_BUS,
        .cpl_lat = CPL_LAT,
        .max_frames = 4096,
        .on_mwr = on_mwr,
        .user = t,
    };

    if (!t || eh_init(&t->h, &cfg) != 0) {
        if (t)
            eh_fini(&t->h);
        free(t);
        return -1;
    }
    *state = t;
    return 0;
}

static int teardown(void **state)
{
    struct cpl *t = *state;

    eh_fini(&t->h);
    free(t);
    return 0;
}

/* Ring of 2^log2 in proto, completion mode, thresholds, timer; enabled. */
static void engine_up(struct cpl *t, unsigned log2, uint32_t proto, uint32_t mode, unsigned wb,
                      unsigned cq_log2, unsigned irq, uint32_t timer)
{
    struct eh *h = &t->h;

    eh_ring_setup(h, log2, proto);
    eh_wr32(h, NICTX_REG_CPL_MODE, mode);
    eh_wr64(h, NICTX_REG_WB_ADDR_LO, WB_BUS);
    eh_wr64(h, NICTX_REG_CQ_BASE_LO, CQ_BUS);
    eh_wr32(h, NICTX_REG_CQ_LOG2, cq_log2);
    eh_wr32(h, NICTX_REG_WB_THRESH, wb);
    eh_wr64(h, NICTX_REG_IRQ_ADDR_LO, IRQ_BUS);
    eh_wr32(h, NICTX_REG_IRQ_DATA, IRQ_DATA);
    eh_wr32(h, NICTX_REG_IRQ_THRESH, irq);
    eh_wr32(h, NICTX_REG_IRQ_TIMER, timer);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    assert_int_equal(eh_rd32(h, NICTX_REG_CPL_MODE), mode);
    assert_int_equal(eh_rd32(h, NICTX_REG_CQ_LOG2), cq_log2);
    assert_int_equal(eh_rd32(h, NICTX_REG_IRQ_TIMER), timer);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* n frames of 60..67 bytes, one doorbell. */
static void burst(struct cpl *t, unsigned n)
{
    struct eh *h = &t->h;

    for (unsigned i = 0; i < n; i++)
        eh_post(h, BUF_BUS + (uint64_t)(h->prod % 512) * 128, 60 + h->prod % 8, 1, NULL);
    eh_doorbell(h);
}

/* Completion writes expected for rounds of `per` frames, `rounds` times,
 * each round draining the queue: after every `wb` completions of the round
 * and the last at the drain; out[k] = absolute completion count. */
static unsigned batches(unsigned per, unsigned rounds, unsigned wb, uint32_t *out)
{
    unsigned n = 0;

    for (unsigned r = 0; r < rounds; r++)
        for (unsigned k = 1; k <= per; k++)
            if (k % wb == 0 || k == per)
                out[n++] = r * per + k;
    return n;
}

/* ------------------------------------------------------------ DD writeback */

static void dd_cadence(struct cpl *t, uint32_t proto)
{
    struct eh *h = &t->h;
    const unsigned log2 = 4, wb = 3, per = 10, rounds = 5; /* 50 frames: 3 passes */
    uint32_t exp[64];
    unsigned n, j;

    engine_up(t, log2, proto, NICTX_CPL_MODE_DESC_WB, wb, 8, 0, 0);
    for (unsigned r = 0; r < rounds; r++) {
        burst(t, per);
        eh_settle(h, 100000);
    }
    eh_check_frames(h);
    n = batches(per, rounds, wb, exp);
    assert_int_equal(t->n, n); /* DD writes only: no head writeback, no interrupt */
    for (j = 0; j < n; j++) {
        uint32_t p = exp[j] - 1; /* the batch's last descriptor, absolute */
        uint32_t idx = p & ((1u << log2) - 1);
        uint32_t phase = ((p >> log2) & 1) ? 0 : 1;
        const struct wr *w = &t->w[j];

        assert_int_equal(w->addr, RING_BUS + (uint64_t)idx * NICTX_DESC_BYTES + 12);
        assert_int_equal(w->len, 4);
        assert_int_equal(w->data, NICTX_DESC_DD | (phase << 31));
        assert_true(w->frames >= exp[j]); /* never ahead of the wire */
        /* The owner bit the descriptor carries is kept (owner protocols). */
        if (proto != NICTX_PROTO_TAIL)
            assert_int_equal(w->data >> 31, eh_owner_bit(h, p) >> 63);
    }
    /* The last write is in the ring: DD set in the descriptor's word 1. */
    {
        uint32_t p = exp[n - 1] - 1, rsvd;
        memcpy(&rsvd, eh_ptr(h, RING_BUS + (uint64_t)(p & 15) * NICTX_DESC_BYTES + 12, 4), 4);
        assert_int_equal(rsvd & NICTX_DESC_DD, NICTX_DESC_DD);
    }
}

/* DD on the last descriptor of every 3 completions and at each drain,
 * across three passes of a 16-entry ring, tail protocol. */
static void test_cpl_dd_cadence_tail(void **state)
{
    dd_cadence(*state, NICTX_PROTO_TAIL);
}

/* The same with owner bits: the DD write keeps the pass's owner bit. */
static void test_cpl_dd_cadence_owner(void **state)
{
    dd_cadence(*state, NICTX_PROTO_OWNER);
}

/* ------------------------------------------------------------ whole descriptors */

/* DESC_WB_FULL on a 16-entry ring at MPS 1 << mps_log2: for each batch of
 * wb completions (and each drain), the batch's descriptors in writes cut
 * at every MPS-aligned address and at the wrap, exactly; at the end every
 * slot holds its last descriptor written back (the driver's DD test:
 * driver/txq.c txq_dd_head). */
static void dd_full_cadence(struct cpl *t, unsigned mps_log2, unsigned wb, unsigned per,
                            unsigned rounds)
{
    struct eh *h = &t->h;
    const unsigned log2 = 4, size = 1u << log2, mps_descs = (1u << mps_log2) / NICTX_DESC_BYTES;
    uint32_t exp[64];
    unsigned n = 0, j = 0, prev = 0;

    eh_wr32(h, NICTX_REG_MPS_LOG2, mps_log2);
    engine_up(t, log2, NICTX_PROTO_TAIL, NICTX_CPL_MODE_DESC_WB_FULL, wb, 8, 0, 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_MPS_LOG2), mps_log2);
    for (unsigned r = 0; r < rounds; r++) {
        burst(t, per);
        eh_settle(h, 100000);
    }
    eh_check_frames(h);
    n = batches(per, rounds, wb, exp);
    for (unsigned b = 0; b < n; b++) { /* batch b: descriptors prev .. exp[b] - 1 */
        for (uint32_t p = prev; p < exp[b]; j++) {
            uint32_t idx = p & (size - 1), k = mps_descs - idx % mps_descs;
            if (k > size - idx)
                k = size - idx;
            if (k > exp[b] - p)
                k = exp[b] - p;
            assert_true(j < t->n);
            assert_int_equal(t->w[j].addr, RING_BUS + (uint64_t)idx * NICTX_DESC_BYTES);
            assert_int_equal(t->w[j].len, k * NICTX_DESC_BYTES);
            assert_true(t->w[j].frames >= p + k); /* never ahead of the wire */
            p += k;
        }
        prev = exp[b];
    }
    assert_int_equal(t->n, j); /* those writes only: no head writeback, no interrupt */
    for (uint32_t s = 0; s < size; s++) {
        uint32_t p = (exp[n - 1] - 1) - ((exp[n - 1] - 1 - s) & (size - 1)); /* slot s's last */
        uint32_t phase = ((p >> log2) & 1) ? 0 : 1, word[4];
        memcpy(word, eh_ptr(h, RING_BUS + (uint64_t)s * NICTX_DESC_BYTES, 16), 16);
        assert_int_equal(word[0] | word[1] | word[2], 0);
        assert_int_equal(word[3], NICTX_DESC_DD | (phase << 31));
    }
}

/* MPS 128: writes of at most 8 descriptors, cut at 128-byte boundaries;
 * batches of 5 and each drain's, 56 frames: four passes of the ring. */
static void test_cpl_dd_full_mps128(void **state)
{
    dd_full_cadence(*state, 7, 5, 14, 4);
}

/* MPS 4096: cut only at the wrap; batches of 12 and each drain's. */
static void test_cpl_dd_full_mps4096(void **state)
{
    dd_full_cadence(*state, 12, 12, 13, 4);
}

/* ------------------------------------------------------------ CQ */

static void cq_cadence(struct cpl *t, unsigned cq_log2)
{
    struct eh *h = &t->h;
    const unsigned log2 = 4, wb = 2, per = 7, rounds = 6; /* 42 frames, 24 CQEs */
    uint32_t exp[64];
    unsigned n, j, prev = 0;

    engine_up(t, log2, NICTX_PROTO_TAIL, NICTX_CPL_MODE_CQ, wb, cq_log2, 0, 0);
    for (unsigned r = 0; r < rounds; r++) {
        burst(t, per);
        eh_settle(h, 100000);
    }
    eh_check_frames(h);
    n = batches(per, rounds, wb, exp);
    assert_int_equal(t->n, n);
    for (j = 0; j < n; j++) {
        const struct wr *w = &t->w[j];
        uint32_t last = (exp[j] - 1) & ((1u << log2) - 1);
        uint64_t phase = ((j >> cq_log2) & 1) ? 0 : 1;
        uint64_t want = (phase << 63) | ((uint64_t)(exp[j] - prev) << NICTX_CQE_CNT_SHIFT) | last;

        assert_int_equal(w->addr, CQ_BUS + (uint64_t)(j & ((1u << cq_log2) - 1)) * NICTX_CQE_BYTES);
        assert_int_equal(w->len, 8);
        assert_int_equal(w->data, want);
        assert_true(w->frames >= exp[j]); /* a CQE never overtakes its frame */
        prev = exp[j];
    }
}

/* A CQ of 8 entries under a 16-entry ring: 24 CQEs, three CQ passes. */
static void test_cpl_cq_smaller_than_ring(void **state)
{
    cq_cadence(*state, 3);
}

/* A CQ of 64 entries: one pass, phase 1 throughout. */
static void test_cpl_cq_larger_than_ring(void **state)
{
    cq_cadence(*state, 6);
}

/* ------------------------------------------------------------ interrupts */

static unsigned count_irqs(const struct cpl *t)
{
    unsigned n = 0;

    for (unsigned j = 0; j < t->n; j++)
        n += t->w[j].addr == IRQ_BUS;
    return n;
}

/* Each interrupt comes after a head writeback that reports every frame on
 * the wire by then (head writeback mode). */
static void check_irq_after_wb(const struct cpl *t, uint32_t mask)
{
    uint32_t head = 0;
    int seen = 0;

    for (unsigned j = 0; j < t->n; j++) {
        const struct wr *w = &t->w[j];
        if (w->addr == WB_BUS) {
            head = (uint32_t)w->data;
            seen = 1;
        } else {
            assert_int_equal(w->addr, IRQ_BUS);
            assert_int_equal(w->data, IRQ_DATA);
            assert_true(seen);
            assert_int_equal(head, w->frames & mask);
        }
    }
}

/* Threshold only (IRQ_TIMER 0): 22 frames, IRQ_THRESH 4: interrupts after
 * exactly 4, 8, .., 20 completions; none at the drain. */
static void test_cpl_irq_thresh_only(void **state)
{
    struct cpl *t = *state;
    unsigned k = 0;

    engine_up(t, 5, NICTX_PROTO_TAIL, NICTX_CPL_MODE_HEAD_WB, 8, 8, 4, 0);
    burst(t, 22);
    eh_settle(&t->h, 100000);
    eh_check_frames(&t->h);
    assert_int_equal(count_irqs(t), 5);
    for (unsigned j = 0; j < t->n; j++)
        if (t->w[j].addr == IRQ_BUS)
            assert_int_equal(t->w[j].frames, 4 * ++k);
    /* Writebacks: 8, 16 by threshold, and 4, 12, 20 before interrupts
     * (completions not yet written), 22 at the drain. */
    assert_int_equal(t->n - 5, 6);
    check_irq_after_wb(t, 31);
}

/* Timer only: a trickle of single frames far apart: one interrupt per
 * frame, TIMER clocks (within the write's few clocks of latency) after
 * its completion, which the idle writeback marks. */
static void test_cpl_irq_timer_only(void **state)
{
    struct cpl *t = *state;
    const uint32_t timer = 300;
    unsigned j, nirq = 0;

    engine_up(t, 5, NICTX_PROTO_TAIL, NICTX_CPL_MODE_HEAD_WB, 1, 8, 0, timer);
    for (unsigned r = 0; r < 4; r++) {
        burst(t, 1);
        eh_settle(&t->h, 100000);
        eh_run(&t->h, 500);
    }
    eh_check_frames(&t->h);
    assert_int_equal(t->n, 8); /* writeback, interrupt, four times */
    for (j = 0; j + 1 < t->n; j += 2) {
        const struct wr *wb = &t->w[j], *irq = &t->w[j + 1];
        assert_int_equal(wb->addr, WB_BUS);
        assert_int_equal(irq->addr, IRQ_BUS);
        assert_true(irq->cycle >= wb->cycle + timer - 4 && irq->cycle <= wb->cycle + timer + 4);
        nirq++;
    }
    assert_int_equal(nirq, 4);

    /* Three frames inside one timer period: one interrupt, the timer
     * running from the first completion. */
    t->n = 0;
    burst(t, 1);
    eh_run(&t->h, 100);
    burst(t, 1);
    eh_run(&t->h, 100);
    burst(t, 1);
    eh_settle(&t->h, 100000);
    eh_check_frames(&t->h);
    assert_int_equal(count_irqs(t), 1);
    assert_int_equal(t->w[t->n - 1].addr, IRQ_BUS);
    assert_int_equal(t->w[t->n - 1].frames, t->h.n_frames);
    assert_true(t->w[t->n - 1].cycle >= t->w[0].cycle + timer - 4 &&
                t->w[t->n - 1].cycle <= t->w[0].cycle + timer + 4);
    check_irq_after_wb(t, 31);
}

/* Both: 20 frames back to back, IRQ_THRESH 8, a timer far longer than the
 * burst: interrupts at 8 and 16 by threshold, the last 4 by the timer
 * about TIMER clocks after the 17th completion. */
static void test_cpl_irq_thresh_and_timer(void **state)
{
    struct cpl *t = *state;
    const uint32_t timer = 2000;
    uint64_t c17 = 0;
    unsigned k = 0;

    engine_up(t, 5, NICTX_PROTO_TAIL, NICTX_CPL_MODE_HEAD_WB, 1, 8, 8, timer);
    burst(t, 20);
    eh_settle(&t->h, 100000);
    eh_check_frames(&t->h);
    assert_int_equal(count_irqs(t), 3);
    for (unsigned j = 0; j < t->n; j++) {
        const struct wr *w = &t->w[j];
        if (w->addr == WB_BUS && w->data == 17)
            c17 = w->cycle;
        if (w->addr == IRQ_BUS) {
            k++;
            assert_int_equal(w->frames, k < 3 ? 8 * k : 20);
        }
    }
    assert_true(c17 != 0);
    assert_true(t->w[t->n - 1].addr == IRQ_BUS && t->w[t->n - 1].cycle >= c17 + timer - 4 &&
                t->w[t->n - 1].cycle <= c17 + timer + 4);
    check_irq_after_wb(t, 31);
}

/* An interrupt due while a completion write still waits to go out waits
 * too, and goes out only after a write that covers every completion
 * counted by then.  d2h ready low in long random bursts; rounds of 5
 * frames, WB_THRESH 1, IRQ_THRESH 5: the first writebacks fill the d2h
 * slice (two entries) and the output register while ready is low, the
 * fourth waits behind them when the fifth frame completes and reaches the
 * threshold; the round's interrupt must follow a writeback of all five. */
static void test_cpl_irq_waits_for_pending_wb(void **state)
{
    struct cpl *t = *state;
    const struct eh_stall d2h = {.start = 4096, .max_len = 150};
    unsigned held = 0;

    engine_up(t, 5, NICTX_PROTO_TAIL, NICTX_CPL_MODE_HEAD_WB, 1, 8, 5, 0);
    eh_stall(&t->h, 11, &d2h, NULL);
    for (unsigned r = 0; r < 100; r++) {
        unsigned first = t->n, last_irq = MAX_WR, wbs = 0;
        burst(t, 5);
        eh_settle(&t->h, 1000000);
        for (unsigned j = first; j < t->n; j++) {
            if (t->w[j].addr == IRQ_BUS)
                last_irq = j;
            else
                wbs++;
        }
        assert_true(last_irq < t->n);
        assert_true(last_irq > first);
        assert_int_equal(wbs, 5);
        assert_int_equal(t->w[last_irq - 1].addr, WB_BUS);
        assert_int_equal(t->w[last_irq - 1].data, t->h.n_frames & 31);
        /* The first frame's writeback reached the host only after the
         * last frame was on the wire: it was held. */
        held += t->w[first].frames == t->h.n_frames;
    }
    eh_check_frames(&t->h);
    assert_int_equal(count_irqs(t), 100);
    assert_true(held > 0); /* the case this test is about did occur */
    if (getenv("TEST_CPL_VERBOSE"))
        printf("held %u of 100\n", held);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_cpl_dd_cadence_tail, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cpl_dd_cadence_owner, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cpl_dd_full_mps128, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cpl_dd_full_mps4096, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cpl_cq_smaller_than_ring, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cpl_cq_larger_than_ring, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cpl_irq_thresh_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cpl_irq_timer_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cpl_irq_thresh_and_timer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cpl_irq_waits_for_pending_wb, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
