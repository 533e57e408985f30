/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_queues.c - cmocka tests of the Verilated engine (rtl/) with several
 * transmit queues (QUEUES > 1; docs/device.md, Queues), driven at the
 * register level through tests/common/engine_host.h like test_engine.
 *
 * Each queue q has its own ring (QRING(q)), programmed through its
 * register block (NICTX_REG_Q(q, ...)), its own doorbell, head and head
 * writeback word (QWB(q)).  Frames carry their queue and their number in
 * the queue in their first bytes; the host's next_frame hook identifies
 * each frame as it starts on the wire, fails unless it is its queue's next
 * one (per-queue order), and hands the host the frame to check byte for
 * byte with its FCS.  What is checked:
 *   - every frame arrives with the right contents, per-queue order;
 *   - each queue's HEAD, its last head writeback (every WB_THRESH of its
 *     completions and when it drains; none with WB_ADDR 0), its CNT_PKTS
 *     and CNT_BYTES, and the device-wide counters the sums;
 *   - RR: backlogged queues alternate exactly q0, q1, q2, q0, ..., also
 *     when the scheduler hands out a descriptor on consecutive clocks;
 *   - DRR: byte shares follow the weights while all queues are backlogged;
 *   - 64 queues (four slots each of the descriptor buffer) all served;
 *   - PROTO OWNER with several queues: every frame, per-queue order,
 *     under RR and DRR with rings that wrap (the phase flips), 64 queues;
 *     a not-owned descriptor in one queue flushes that queue's region
 *     only, and its kick after the owner bit is set sends the rest;
 *   - refusals: ENABLE with QUEUES > 1 and PROTO WC (ERR.CFG), QUEUES
 *     written while enabled (ERR.CFG), QUEUES 0 or 65 (BAD_ACCESS), the
 *     block of a queue >= QUEUES (BAD_ACCESS; a read answers UR), a tail
 *     beyond a queue's ring (TAIL_RANGE);
 *   - a queue reset clears every queue's tail and head;
 *   - completions and interrupts per queue (issue 8 item 4): DESC_WB into
 *     each queue's own ring (the DD of its batch's last descriptor, the
 *     phase of its pass), CQ into each queue's own CQ (its own producer
 *     index and phase, wrapping a CQ smaller than the ring, the counts
 *     adding up to its frames), MSI-X per queue by IRQ_THRESH (exactly
 *     floor(frames / threshold) each, to its vector's address and data,
 *     after the completion write that covers them) and by the moderation
 *     timer (each queue's timer its own, IRQ_TIMER after its completion),
 *     a masked vector's message held in the PBA and sent exactly once on
 *     unmask (also vector 0 with one queue), vectors >= QUEUES refused;
 *   - WB_THRESH counted afresh after each write a queue makes due (head
 *     writebacks exactly at 4, 8, 12), and under d2h ready stalls no
 *     queue's completion write dropped while another waits on the port.
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
#define HOST_SIZE (16u << 20)
#define QRING(q) (HOST_BASE + (uint64_t)(q) * 0x1000u) /* up to 256 descriptors */
#define QWB(q) (HOST_BASE + 0x40000u + (uint64_t)(q) * 8u)
#define QCQ(q) (HOST_BASE + 0x44000u + (uint64_t)(q) * 0x800u)  /* q < 8: up to 256 CQEs */
#define QMSI(q) (HOST_BASE + 0x48000u + (uint64_t)(q) * 0x10u)  /* vector q's address */
#define QMSI_DATA(q) (0xA000u + (q))
#define MAX_IRQ 64u
#define BUF_BUS (HOST_BASE + 0x50000u)
#define CPL_LAT 100u
#define MAX_FR 8192u     /* frames per test */
#define MAX_Q 64u
#define WB_LOG 16u      /* head writeback values kept per queue */

struct qfr {
    uint64_t addr;
    uint16_t len;
};

struct tq {
    struct eh h;
    unsigned nq, log2[MAX_Q];
    uint32_t proto;                /* NICTX_PROTO_*: q_setup programs it */
    uint32_t prod[MAX_Q];          /* descriptors posted, absolute */
    unsigned sent[MAX_Q];          /* next frame number expected on the wire */
    unsigned seen[MAX_Q];          /* frames seen on the wire */
    uint64_t bytes[MAX_Q];
    struct qfr fr[MAX_Q][MAX_FR / 4];
    uint64_t next_buf;
    uint8_t order[MAX_FR];         /* queue of each frame on the wire */
    unsigned n_order;
    /* head writebacks */
    uint32_t wb_last[MAX_Q];
    unsigned n_wb[MAX_Q];
    uint32_t wb_log[MAX_Q][WB_LOG]; /* the first WB_LOG values */
    uint64_t wb_cycle[MAX_Q];      /* of the first */
    /* descriptor writebacks: how many, the last one's index and phase */
    unsigned n_dd[MAX_Q], dd_idx[MAX_Q], dd_ph[MAX_Q];
    /* CQEs: the CQ's size (log2), how many, the completions they report */
    unsigned cq_log2, n_cqe[MAX_Q];
    uint32_t cq_done[MAX_Q];
    /* MSI-X messages per vector: when, and the completions reported by then */
    unsigned n_irq[MAX_Q];
    uint64_t irq_cycle[MAX_Q][MAX_IRQ];
    uint32_t irq_reported[MAX_Q][MAX_IRQ];
};

/* ------------------------------------------------------------ host side */

static struct eh_frame next_frame(void *user, const struct dev_wire_beat *first)
{
    struct tq *t = user;
    unsigned q = first->data[0], seq = first->data[1] | (unsigned)first->data[2] << 8;
    struct eh_frame f;

    if (q >= t->nq)
        fail_msg("frame %u on the wire names queue %u (QUEUES %u)", t->n_order, q, t->nq);
    if (seq != t->sent[q])
        fail_msg("queue %u: frame %u on the wire, expected its frame %u", q, seq, t->sent[q]);
    if (seq >= t->prod[q])
        fail_msg("queue %u: frame %u was never posted", q, seq);
    f.addr = t->fr[q][seq].addr;
    f.len = t->fr[q][seq].len;
    t->sent[q]++;
    t->seen[q]++;
    t->bytes[q] += f.len;
    if (t->n_order < MAX_FR)
        t->order[t->n_order] = (uint8_t)q;
    t->n_order++;
    return f;
}

/* A DD write (4 bytes at byte 12 of a descriptor of queue q's ring): the
 * DD bit and the pass's phase; its index. */
static int on_dd(struct tq *t, const struct dev_beat *b)
{
    unsigned q;

    for (q = 0; q < t->nq; q++) {
        uint64_t size = (uint64_t)NICTX_DESC_BYTES << t->log2[q];
        uint32_t v;

        if (b->addr < QRING(q) || b->addr >= QRING(q) + size)
            continue;
        if (b->len != 4 || (b->addr - QRING(q)) % NICTX_DESC_BYTES != 12)
            fail_msg("queue %u: DD write of %u bytes at ring offset 0x%llx", q, b->len,
                     (unsigned long long)(b->addr - QRING(q)));
        v = (uint32_t)eh_beat_value(&t->h, b, 4);
        if ((v & ~NICTX_DESC_OWNER) != NICTX_DESC_DD)
            fail_msg("queue %u: DD word 0x%x", q, v);
        t->dd_idx[q] = (unsigned)((b->addr - QRING(q)) / NICTX_DESC_BYTES);
        t->dd_ph[q] = v >> 31;
        t->n_dd[q]++;
        return 1;
    }
    return 0;
}

/* A CQE (8 bytes in queue q's CQ): at the queue's own producer index, with
 * its own phase; its last index follows from the completions before. */
static int on_cqe(struct tq *t, const struct dev_beat *b)
{
    unsigned q;

    for (q = 0; q < t->nq && q < 8; q++) {
        uint32_t size = 1u << t->cq_log2, pi = t->n_cqe[q] & (size - 1);
        uint32_t mask = (1u << t->log2[q]) - 1, cnt, last;
        unsigned ph = 1u ^ ((t->n_cqe[q] >> t->cq_log2) & 1u);
        uint64_t v;

        if (t->cq_log2 == 0 || b->addr < QCQ(q) || b->addr >= QCQ(q) + 0x800u)
            continue;
        if (b->len != 8 || b->addr != QCQ(q) + (uint64_t)pi * NICTX_CQE_BYTES)
            fail_msg("queue %u: CQE of %u bytes at 0x%llx, its producer index is %u", q, b->len,
                     (unsigned long long)b->addr, pi);
        v = eh_beat_value(&t->h, b, 8);
        cnt = (uint32_t)(v >> 16) & 0xFFFFu;
        last = (uint32_t)v & 0xFFFFu;
        if ((unsigned)(v >> 63) != ph)
            fail_msg("queue %u: CQE %u with phase %u, expected %u", q, t->n_cqe[q],
                     (unsigned)(v >> 63), ph);
        if (cnt == 0 || last != ((t->cq_done[q] + cnt - 1) & mask))
            fail_msg("queue %u: CQE %u reports %u up to %u after %u completions", q, t->n_cqe[q],
                     cnt, last, t->cq_done[q]);
        t->cq_done[q] += cnt;
        t->n_cqe[q]++;
        return 1;
    }
    return 0;
}

/* An MSI-X message to vector q's address with its data; the completions
 * reported to the host by then (head writeback, CQEs or DD). */
static int on_msi(struct tq *t, const struct dev_beat *b)
{
    unsigned q;

    for (q = 0; q < t->nq; q++) {
        if (b->addr != QMSI(q))
            continue;
        assert_int_equal(b->len, 4);
        assert_int_equal(eh_beat_value(&t->h, b, 4), QMSI_DATA(q));
        if (t->n_irq[q] < MAX_IRQ) {
            t->irq_cycle[q][t->n_irq[q]] = t->h.cycle;
            t->irq_reported[q][t->n_irq[q]] =
                t->cq_log2 ? t->cq_done[q] : t->n_dd[q] ? t->dd_idx[q] + 1 : t->wb_last[q];
        }
        t->n_irq[q]++;
        return 1;
    }
    return 0;
}

/* The engine's writes: head writebacks (4 bytes to a queue's QWB), DD
 * writes, CQEs, MSI-X messages. */
static void on_mwr(void *user, const struct dev_beat *b)
{
    struct tq *t = user;
    unsigned q;

    for (q = 0; q < t->nq; q++) {
        if (b->addr == QWB(q)) {
            assert_int_equal(b->len, 4);
            t->wb_last[q] = (uint32_t)eh_beat_value(&t->h, b, 4);
            if (t->n_wb[q] < WB_LOG)
                t->wb_log[q][t->n_wb[q]] = t->wb_last[q];
            if (t->n_wb[q] == 0)
                t->wb_cycle[q] = t->h.cycle;
            t->n_wb[q]++;
            return;
        }
    }
    if (on_dd(t, b) || on_cqe(t, b) || on_msi(t, b))
        return;
    fail_msg("MWr to unexpected address 0x%llx", (unsigned long long)b->addr);
}

static struct tq *tq_new(unsigned width)
{
    struct tq *t = calloc(1, sizeof(*t));
    struct eh_cfg cfg = {
        .mem_base = HOST_BASE,
        .mem_size = HOST_SIZE,
        .ring_bus = QRING(0),
        .buf_bus = BUF_BUS,
        .cpl_lat = CPL_LAT,
        .max_frames = MAX_FR,
        .ops = dev_rtl_ops_width(width),
        .on_mwr = on_mwr,
        .next_frame = next_frame,
        .user = t,
    };

    if (!t)
        return NULL;
    if (eh_init(&t->h, &cfg) != 0) {
        eh_fini(&t->h);
        free(t);
        return NULL;
    }
    t->next_buf = BUF_BUS;
    /* The host tells descriptor reads by "in the ring": here all 64 rings,
     * QRING(0) .. QRING(64) (the host's own ring helpers are not used). */
    t->h.ring_log2 = 14;
    return t;
}

/* *state: the width (the test's prestate); then the fixture. */
static int setup(void **state)
{
    *state = tq_new(*(const unsigned *)*state);
    return *state ? 0 : -1;
}

static int teardown(void **state)
{
    struct tq *t = *state;

    if (t) {
        eh_fini(&t->h);
        free(t);
    }
    return 0;
}

/* ------------------------------------------------------------ driver side */

/* QUEUES nq, each ring 2^log2 at QRING(q), its writeback at QWB(q) (0 for
 * the queues in no_wb), WEIGHT weights[q] (NULL: 1), the scheduler, the
 * wire fast, then enable; no error. */
static void q_setup(struct tq *t, unsigned nq, unsigned log2, uint32_t sched, const unsigned *weights,
                    uint64_t no_wb)
{
    struct eh *h = &t->h;
    unsigned q;

    t->nq = nq;
    eh_wr32(h, NICTX_REG_QUEUES, nq);
    for (q = 0; q < nq; q++) {
        t->log2[q] = log2;
        eh_wr64(h, NICTX_REG_Q(q, NICTX_QREG_RING_BASE_LO), QRING(q));
        eh_wr32(h, NICTX_REG_Q(q, NICTX_QREG_RING_LOG2), log2);
        eh_wr64(h, NICTX_REG_Q(q, NICTX_QREG_WB_ADDR_LO), (no_wb >> q) & 1 ? 0 : QWB(q));
        eh_wr32(h, NICTX_REG_Q(q, NICTX_QREG_WEIGHT), weights ? weights[q] : 1);
    }
    eh_wr32(h, NICTX_REG_SCHED, sched);
    eh_wr32(h, NICTX_REG_PROTO, t->proto);
    eh_wr32(h, NICTX_REG_WB_THRESH, 4);
    eh_wr32(h, NICTX_REG_LINE_RATE, EH_LINE_FAST);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_CTRL), NICTX_CTRL_ENABLE);
    assert_int_equal(eh_rd32(h, NICTX_REG_QUEUES), nq);
}

/* Under PROTO OWNER: the owner bit of frame n's descriptor in queue q's
 * ring, the phase of its pass (1 on the first, flipping at every wrap);
 * `owned` 0 leaves the opposite value (the device does not own it yet). */
static void q_set_owner(struct tq *t, unsigned q, uint32_t n, int owned)
{
    uint32_t idx = n & ((1u << t->log2[q]) - 1);
    uint32_t phase = 1u ^ ((n >> t->log2[q]) & 1u);
    uint8_t *d = eh_ptr(&t->h, QRING(q) + (uint64_t)idx * NICTX_DESC_BYTES, 16);
    uint32_t w;

    memcpy(&w, d + 12, 4);
    w = (w & ~NICTX_DESC_OWNER) | ((owned ? phase : !phase) ? NICTX_DESC_OWNER : 0);
    memcpy(d + 12, &w, 4);
}

/* A frame of len bytes for queue q, its next one: bytes 0..2 its queue and
 * number, the rest a pattern of both; the descriptor in q's ring (under
 * PROTO OWNER with its owner bit: owned). */
static void q_post(struct tq *t, unsigned q, unsigned len)
{
    struct eh *h = &t->h;
    uint32_t n = t->prod[q], idx = n & ((1u << t->log2[q]) - 1);
    uint8_t *b, *d;
    uint64_t w0, w1 = len;
    unsigned i;

    assert_true(n < MAX_FR / 4 && len >= 60 && len <= 9000);
    b = eh_ptr(h, t->next_buf, len);
    b[0] = (uint8_t)q;
    b[1] = (uint8_t)n;
    b[2] = (uint8_t)(n >> 8);
    for (i = 3; i < len; i++)
        b[i] = (uint8_t)(i * 29u + q * 7u + n * 13u);
    t->fr[q][n].addr = t->next_buf;
    t->fr[q][n].len = (uint16_t)len;
    w0 = t->next_buf;
    t->next_buf += (len + 63u) & ~63u;
    d = eh_ptr(h, QRING(q) + (uint64_t)idx * NICTX_DESC_BYTES, 16);
    memcpy(d, &w0, 8);
    memcpy(d + 8, &w1, 8);
    if (t->proto == NICTX_PROTO_OWNER)
        q_set_owner(t, q, n, 1);
    t->prod[q]++;
}

static void q_doorbell(struct tq *t, unsigned q)
{
    eh_wr32(&t->h, NICTX_REG_Q(q, NICTX_QREG_TAIL), t->prod[q] & ((1u << t->log2[q]) - 1));
}

/* Everything posted arrived (each checked as it started and ended); each
 * queue's HEAD, last writeback, counters; the device totals. */
static void q_check_done(struct tq *t, uint64_t no_wb)
{
    struct eh *h = &t->h;
    uint64_t pk = 0, by = 0;
    unsigned q;

    eh_check_frames(h);
    for (q = 0; q < t->nq; q++) {
        uint32_t head = t->prod[q] & ((1u << t->log2[q]) - 1);

        if (t->sent[q] != t->prod[q])
            fail_msg("queue %u: %u frames on the wire, %u posted", q, t->sent[q], t->prod[q]);
        assert_int_equal(eh_rd32(h, NICTX_REG_Q(q, NICTX_QREG_HEAD)), head);
        assert_int_equal(eh_rd32(h, NICTX_REG_Q(q, NICTX_QREG_TAIL)), head);
        if ((no_wb >> q) & 1) {
            assert_int_equal(t->n_wb[q], 0);
        } else if (t->prod[q]) {
            if (t->wb_last[q] != head)
                fail_msg("queue %u: last writeback %u, head %u", q, t->wb_last[q], head);
            assert_true(t->n_wb[q] >= (t->seen[q] + 3) / 4);
        }
        assert_int_equal(eh_rd32(h, NICTX_REG_Q(q, NICTX_QREG_CNT_PKTS)), t->seen[q]);
        /* CNT_BYTES_LO/HI at 0x24/0x28: not 8-byte aligned, two reads */
        assert_int_equal(eh_rd32(h, NICTX_REG_Q(q, NICTX_QREG_CNT_BYTES_LO)), (uint32_t)t->bytes[q]);
        assert_int_equal(eh_rd32(h, NICTX_REG_Q(q, NICTX_QREG_CNT_BYTES_HI)), t->bytes[q] >> 32);
        pk += t->seen[q];
        by += t->bytes[q];
    }
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_PKTS), pk);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_BYTES_LO) |
                         (uint64_t)eh_rd32(h, NICTX_REG_CNT_BYTES_HI) << 32, by);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    /* queue 0's block is the register page's */
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), eh_rd32(h, NICTX_REG_Q(0, NICTX_QREG_HEAD)));
}

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

/* ------------------------------------------------------------ tests */

/* Five queues, rings of 16 (they wrap), frames 60..1514 B, batches of
 * several sizes with a doorbell each, interleaved over the queues; queue 3
 * without a writeback address.  Every frame arrives in its queue's order
 * with its contents; heads, writebacks, counters. */
static void test_queues_contents_heads_counters(void **state)
{
    struct tq *t = *state;
    const uint64_t no_wb = 1u << 3;
    uint32_t seed = 7;
    unsigned round, q, k;

    q_setup(t, 5, 4, NICTX_SCHED_RR, NULL, no_wb);
    for (round = 0; round < 12; round++) {
        for (q = 0; q < t->nq; q++) {
            unsigned n = lcg(&seed) % 6; /* 0..5: never more than the ring holds unsent */

            for (k = 0; k < n; k++)
                q_post(t, q, 60 + lcg(&seed) % 1455);
            if (n)
                q_doorbell(t, q);
        }
        eh_settle(&t->h, 400000);
    }
    q_check_done(t, no_wb);
}

/* Three backlogged queues under RR, one descriptor per fetch: frames
 * alternate exactly q0, q1, q2, q0, ... until the first queue runs out. */
static void test_queues_rr_order(void **state)
{
    struct tq *t = *state;
    unsigned q, k, i, n = 40;

    eh_wr32(&t->h, NICTX_REG_DESC_FETCH_MAX, 1);
    q_setup(t, 3, 8, NICTX_SCHED_RR, NULL, 0);
    for (q = 0; q < 3; q++)
        for (k = 0; k < n; k++)
            q_post(t, q, 200 + q * 100);
    for (q = 0; q < 3; q++)
        q_doorbell(t, q);
    eh_settle(&t->h, 400000);
    q_check_done(t, 0);
    assert_int_equal(t->n_order, 3 * n);
    for (i = 0; i < 3 * n; i++)
        if (t->order[i] != i % 3)
            fail_msg("frame %u on the wire from queue %u, RR expects queue %u", i, t->order[i],
                     i % 3);
}

/* RR moves its pointer past a queue on every descriptor it hands out, also
 * when descriptors leave on consecutive clocks with no wait between them.
 * Two queues of 16 small frames, each ring fetched in one read; the d2h
 * port held from the descriptor reads on, so that when it runs again the
 * payload path is full (an MRd waiting, a read being split, a payload
 * request and the scheduler's candidate) and then takes a descriptor on
 * every clock, one payload MRd a clock.  From queue 1's first frame on the
 * queues alternate until queue 0 runs out. */
static void test_queues_rr_back_to_back(void **state)
{
    struct tq *t = *state;
    struct eh *h = &t->h;
    unsigned q, k, i, first1, n = 16, c;

    eh_wr32(h, NICTX_REG_DESC_FETCH_MAX, 32);
    q_setup(t, 2, 5, NICTX_SCHED_RR, NULL, 0);
    for (q = 0; q < 2; q++)
        for (k = 0; k < n; k++)
            q_post(t, q, 60);
    q_doorbell(t, 0);
    q_doorbell(t, 1);
    for (c = 0; h->n_desc_mrds < 2; c++) {
        eh_step(h);
        assert_true(c < 10000);
    }
    eh_hold_d2h(h, 1);
    eh_run(h, 2 * CPL_LAT);
    assert_int_equal(h->n_mrds, 2); /* nothing left meanwhile */
    eh_hold_d2h(h, 0);
    eh_settle(h, 100000);
    q_check_done(t, 0);
    if (getenv("TEST_QUEUES_VERBOSE")) {
        for (i = 0; i < t->n_order; i++)
            printf("%u", t->order[i]);
        printf("\n");
    }
    for (first1 = 0; first1 < t->n_order && t->order[first1] != 1; first1++)
        ;
    /* queue 0 alone only for what it took before queue 1's descriptors
     * were in (measured: 6 frames at widths 8 to 32, 4 at 64) */
    assert_true(first1 <= 6);
    for (i = first1; i + 1 < 2 * n - first1; i++)
        if (t->order[i + 1] == t->order[i])
            fail_msg("frames %u and %u both from queue %u: not round robin", i, i + 1,
                     t->order[i]);
}

/* RR with batches of eight descriptors per fetch and the weights ignored:
 * once every queue is backlogged, strict rotation, equal frame counts. */
static void test_queues_rr_batched_ignores_weights(void **state)
{
    struct tq *t = *state;
    static const unsigned w[4] = {1, 2, 3, 4};
    unsigned q, k, i, first = 0, n = 50;
    uint8_t seen = 0;

    q_setup(t, 4, 8, NICTX_SCHED_RR, w, 0);
    for (q = 0; q < 4; q++)
        for (k = 0; k < n; k++)
            q_post(t, q, 1000);
    for (q = 0; q < 4; q++)
        q_doorbell(t, q);
    eh_settle(&t->h, 800000);
    q_check_done(t, 0);
    if (getenv("TEST_QUEUES_VERBOSE")) {
        for (i = 0; i < t->n_order; i++)
            printf("%u", t->order[i]);
        printf("\n");
    }
    for (i = 0; i < t->n_order && seen != 0xF; i++)
        seen |= (uint8_t)(1u << t->order[i]);
    first = i;
    /* At the start, the queues whose descriptor reads retired first have
     * the scheduler to themselves (descriptors leave for the payload
     * buffer well ahead of the wire; measured: 8 of queue 0, 8 of queue 1,
     * then a few rounds while the other reads catch up): from frame 32 on
     * every queue is backlogged in the device, and they rotate until the
     * last 16 frames. */
    assert_true(first <= 32);
    for (i = 32; i + 1 < 4 * n - 16; i++)
        if (t->order[i + 1] != (t->order[i] + 1) % 4)
            fail_msg("frame %u from queue %u after queue %u: not round robin", i + 1,
                     t->order[i + 1], t->order[i]);
}

/* DRR, weights 1, 2, 3, 4, quantum 1514 and frames of 1514 B: while all
 * four are backlogged, queue q sends weight(q) frames per round; byte
 * shares within 5% (relative) of weight / 10 in the contended window.  RR
 * on the same load: equal shares. */
static void drr_run(struct tq *t, uint32_t sched, unsigned quantum, const unsigned *w, double *share)
{
    unsigned q, k, i, n = 120, got[4] = {0, 0, 0, 0};

    eh_wr32(&t->h, NICTX_REG_DRR_QUANTUM, quantum);
    q_setup(t, 4, 8, sched, w, 0);
    for (q = 0; q < 4; q++)
        for (k = 0; k < n; k++)
            q_post(t, q, 1514);
    for (q = 0; q < 4; q++)
        q_doorbell(t, q);
    eh_settle(&t->h, 4000000);
    q_check_done(t, 0);
    if (getenv("TEST_QUEUES_VERBOSE")) {
        for (i = 0; i < t->n_order && i < 160; i++)
            printf("%u", t->order[i]);
        printf("\n");
    }
    /* The contended window: from the first frame after every queue has
     * sent one (before, the queues whose descriptor reads retired first
     * had the scheduler to themselves), up to 32 frames before the first
     * queue runs out. */
    for (i = 0, k = 0; i < t->n_order && k != 0xF; i++)
        k |= 1u << t->order[i];
    for (; i < t->n_order; i++) {
        got[t->order[i]]++;
        if (got[t->order[i]] == n - 32)
            break;
    }
    for (q = 0; q < 4; q++)
        share[q] = (double)got[q] / (double)(got[0] + got[1] + got[2] + got[3]);
}

static void test_queues_drr_shares(void **state)
{
    struct tq *t = *state;
    static const unsigned w[4] = {1, 2, 3, 4};
    double share[4];
    unsigned q;

    drr_run(t, NICTX_SCHED_DRR, 1514, w, share);
    for (q = 0; q < 4; q++) {
        double want = w[q] / 10.0;

        if (share[q] < want * 0.95 || share[q] > want * 1.05)
            fail_msg("DRR: queue %u (weight %u) has %.4f of the bytes, expected %.4f", q, w[q],
                     share[q], want);
    }
}

/* DRR with a quantum below the frame size: queues need turns to save up;
 * shares still follow the weights (here 4, 1, 1, 2). */
static void test_queues_drr_small_quantum(void **state)
{
    struct tq *t = *state;
    static const unsigned w[4] = {4, 1, 1, 2};
    double share[4];
    unsigned q;

    drr_run(t, NICTX_SCHED_DRR, 512, w, share);
    for (q = 0; q < 4; q++) {
        double want = w[q] / 8.0;

        if (share[q] < want * 0.95 || share[q] > want * 1.05)
            fail_msg("DRR: queue %u (weight %u) has %.4f of the bytes, expected %.4f", q, w[q],
                     share[q], want);
    }
}

static void test_queues_rr_equal_shares(void **state)
{
    struct tq *t = *state;
    static const unsigned w[4] = {1, 2, 3, 4};
    double share[4];
    unsigned q;

    drr_run(t, NICTX_SCHED_RR, 2048, w, share);
    for (q = 0; q < 4; q++)
        if (share[q] < 0.245 || share[q] > 0.255)
            fail_msg("RR: queue %u has %.4f of the frames, expected 0.25", q, share[q]);
}

/* 64 queues (four buffer slots each), rings of 8, three frames each, two
 * doorbells each; all arrive, heads and writebacks right. */
static void test_queues_64(void **state)
{
    struct tq *t = *state;
    unsigned q;

    q_setup(t, 64, 3, NICTX_SCHED_DRR, NULL, 0);
    for (q = 0; q < 64; q++) {
        q_post(t, q, 64 + q);
        q_doorbell(t, q);
    }
    for (q = 64; q-- > 0;) {
        q_post(t, q, 600 - q);
        q_post(t, q, 100 + 3 * q);
        q_doorbell(t, q);
    }
    eh_settle(&t->h, 800000);
    q_check_done(t, 0);
}

/* 64 queues under DRR, weights 1, 2, 3, 4 repeated, quantum 2048, frames
 * of 1514 B, the wire at 5 B a clock (10 Gb/s at 250 MHz: the wire is the
 * bottleneck): in the window while all are backlogged each weight class
 * has its share of the bytes within 3% (relative), each queue its frames
 * within one turn's worth (weight * 2048 / 1514, + 1): the window starts
 * and ends inside a round, so a queue has a turn more or less in it.
 * Regions of 4 slots: the fetcher refills them as the scheduler drains
 * them, and a queue whose descriptors are still being fetched keeps its
 * deficit. */
static void test_queues_64_drr_shares(void **state)
{
    struct tq *t = *state;
    unsigned w[64], got[64], cls[4] = {0, 0, 0, 0}, q, k, i, n = 70, tot = 0, wsum = 0;

    for (q = 0; q < 64; q++) {
        w[q] = 1 + q % 4;
        wsum += w[q];
        got[q] = 0;
    }
    q_setup(t, 64, 8, NICTX_SCHED_DRR, w, 0);
    eh_wr32(&t->h, NICTX_REG_LINE_RATE, NICTX_REG_LINE_RATE_RESET);
    for (q = 0; q < 64; q++)
        for (k = 0; k < n; k++)
            q_post(t, q, 1514);
    for (q = 0; q < 64; q++)
        q_doorbell(t, q);
    eh_settle(&t->h, 40000000);
    q_check_done(t, 0);
    /* the window: from frame 256 (every queue backlogged in the device)
     * until a queue is 28 frames from its last */
    for (i = 256; i < t->n_order; i++) {
        got[t->order[i]]++;
        if (got[t->order[i]] + 8 + 20 >= n)
            break;
    }
    for (q = 0; q < 64; q++) {
        tot += got[q];
        cls[q % 4] += got[q];
    }
    for (q = 0; q < 64; q++) {
        double want = (double)tot * w[q] / wsum, turn = w[q] * 2048.0 / 1514.0 + 1.0;

        if (got[q] < want - turn || got[q] > want + turn)
            fail_msg("DRR 64: queue %u (weight %u) sent %u frames of %u, expected %.1f", q, w[q],
                     got[q], tot, want);
    }
    for (k = 0; k < 4; k++) {
        double share = (double)cls[k] / tot, want = 16.0 * (k + 1) / wsum;

        if (getenv("TEST_QUEUES_VERBOSE"))
            printf("weight %u: %.5f of %u frames, expected %.5f\n", k + 1, share, tot, want);
        if (share < want * 0.97 || share > want * 1.03)
            fail_msg("DRR 64: weight %u has %.5f of the bytes, expected %.5f", k + 1, share, want);
    }
}

/* Seeded random runs under ready stalls on both outputs: QUEUES 3, 7, 17
 * and 64, RR or DRR with random weights and quantum, random
 * DESC_FETCH_MAX, DESC_INFLIGHT and MAX_TAGS, rings of 8..64, random
 * batches with gaps: every frame intact in its queue's order, no
 * deadlock, heads, writebacks and counters exact. */
static void test_queues_stall_random(void **state)
{
    struct tq *t = *state;
    static const unsigned nqs[] = {3, 7, 17, 64}; /* growing: the device totals add up */
    static const struct eh_stall heavy = {21845, 8}, light = {4096, 3};
    uint32_t seed = 12345u + (uint32_t)t->h.width;
    unsigned run;

    for (run = 0; run < 4; run++) {
        unsigned nq = nqs[run], log2 = 3 + lcg(&seed) % 4, w[64], q, b, k;

        if (run > 0) { /* a fresh engine state: disable, queue reset */
            eh_wr32(&t->h, NICTX_REG_CTRL, 0);
            eh_wr32(&t->h, NICTX_REG_CTRL, NICTX_CTRL_RESET);
            while (eh_rd32(&t->h, NICTX_REG_STATUS) & NICTX_STATUS_RESETTING)
                ;
            /* The driver restarts every ring at index 0 (the frame numbers
             * go on: a multiple of 64, index 0 of any ring up to 64); the
             * counters go on. */
            for (q = 0; q < MAX_Q; q++) {
                t->sent[q] = t->prod[q] = (t->prod[q] + 63u) & ~63u;
                t->wb_last[q] = 0; /* head 0 again: no writeback owed */
            }
            t->next_buf = BUF_BUS;
        }
        for (q = 0; q < nq; q++)
            w[q] = 1 + lcg(&seed) % 255;
        eh_wr32(&t->h, NICTX_REG_DESC_FETCH_MAX, 1 + lcg(&seed) % 64);
        eh_wr32(&t->h, NICTX_REG_DESC_INFLIGHT, 1 + lcg(&seed) % 8);
        eh_wr32(&t->h, NICTX_REG_MAX_TAGS, 1 + lcg(&seed) % 32);
        eh_wr32(&t->h, NICTX_REG_DRR_QUANTUM, 64 + lcg(&seed) % 4000);
        eh_stall(&t->h, seed, run & 1 ? &heavy : &light, run & 1 ? &light : &heavy);
        q_setup(t, nq, log2, run & 1 ? NICTX_SCHED_DRR : NICTX_SCHED_RR, w, 0);
        for (b = 0; b < 60; b++) {
            uint32_t mask = (1u << log2) - 1, head, busy;

            q = lcg(&seed) % nq;
            /* room: the ring holds at most size - 1 the device still owns */
            head = eh_rd32(&t->h, NICTX_REG_Q(q, NICTX_QREG_HEAD));
            busy = ((t->prod[q] & mask) - head) & mask;
            k = lcg(&seed) % (mask - busy + 1);
            while (k--)
                q_post(t, q, 60 + lcg(&seed) % 1455);
            q_doorbell(t, q);
            if (lcg(&seed) % 8 == 0)
                eh_settle(&t->h, 4000000);
            else
                eh_run(&t->h, lcg(&seed) % 400);
        }
        eh_settle(&t->h, 2000000);
        q_check_done(t, 0);
    }
}

/* The refusals of QUEUES > 1, and a tail beyond one queue's ring. */
/* PROTO OWNER with five queues, rings of 16 (they wrap: the phase flips),
 * frames 60..1514 B posted in batches with owner bits and a kick each,
 * interleaved over the queues, under RR and DRR: every frame arrives in
 * its queue's order with its contents; heads, writebacks, counters. */
static void owner_mixed(struct tq *t, uint32_t sched)
{
    const unsigned w[5] = {1, 2, 3, 1, 2};
    uint32_t seed = 11;
    unsigned round, q, k;

    t->proto = NICTX_PROTO_OWNER;
    q_setup(t, 5, 4, sched, w, 0);
    for (round = 0; round < 12; round++) {
        for (q = 0; q < t->nq; q++) {
            unsigned n = lcg(&seed) % 6;

            for (k = 0; k < n; k++)
                q_post(t, q, 60 + lcg(&seed) % 1455);
            if (n)
                q_doorbell(t, q);
        }
        eh_settle(&t->h, 400000);
    }
    q_check_done(t, 0);
}

static void test_queues_owner_rr(void **state)
{
    owner_mixed(*state, NICTX_SCHED_RR);
}

static void test_queues_owner_drr(void **state)
{
    owner_mixed(*state, NICTX_SCHED_DRR);
}

/* PROTO OWNER, three queues of 12 frames each, kicked together; queue 1's
 * frame 5 is posted without its owner bit.  Queues 0 and 2 send all of
 * theirs, queue 1 its first five: the not-owned descriptor flushed queue
 * 1's region only (a frame of queue 0 or 2 discarded would be missing, one
 * fetched twice would arrive out of order).  Then the owner bit is set and
 * queue 1 kicked: its other seven follow. */
static void test_queues_owner_flush_one(void **state)
{
    struct tq *t = *state;
    struct eh *h = &t->h;
    unsigned q, k;

    t->proto = NICTX_PROTO_OWNER;
    q_setup(t, 3, 5, NICTX_SCHED_RR, NULL, 0);
    for (k = 0; k < 12; k++)
        for (q = 0; q < 3; q++)
            q_post(t, q, 1000 + 40 * q);
    q_set_owner(t, 1, 5, 0);
    for (q = 0; q < 3; q++)
        q_doorbell(t, q);
    eh_settle(h, 400000);
    assert_int_equal(t->seen[0], 12);
    assert_int_equal(t->seen[1], 5);
    assert_int_equal(t->seen[2], 12);
    assert_true(eh_rd32(h, NICTX_REG_CNT_NOT_OWNED) > 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    q_set_owner(t, 1, 5, 1);
    q_doorbell(t, 1);
    eh_settle(h, 400000);
    q_check_done(t, 0);
}

/* PROTO OWNER with 64 queues (four buffer slots each), three frames each,
 * all kicked: every queue served, in order. */
static void test_queues_owner_64(void **state)
{
    struct tq *t = *state;
    unsigned q, k;

    t->proto = NICTX_PROTO_OWNER;
    q_setup(t, 64, 3, NICTX_SCHED_RR, NULL, 0);
    for (q = 0; q < 64; q++) {
        for (k = 0; k < 3; k++)
            q_post(t, q, 64 + q);
        q_doorbell(t, q);
    }
    eh_settle(&t->h, 400000);
    q_check_done(t, 0);
}

static void test_queues_refusals(void **state)
{
    struct tq *t = *state;
    struct eh *h = &t->h;

    eh_wr32(h, NICTX_REG_QUEUES, 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_BAD_ACCESS);
    eh_wr32(h, NICTX_REG_QUEUES, 65);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_BAD_ACCESS);
    assert_int_equal(eh_rd32(h, NICTX_REG_QUEUES), 1);
    eh_wr32(h, NICTX_REG_QUEUES, 2);
    eh_wr64(h, NICTX_REG_Q(0, NICTX_QREG_RING_BASE_LO), QRING(0));
    eh_wr64(h, NICTX_REG_Q(1, NICTX_QREG_RING_BASE_LO), QRING(1));
    eh_wr32(h, NICTX_REG_PROTO, NICTX_PROTO_WC);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_CFG);
    assert_int_equal(eh_rd32(h, NICTX_REG_CTRL), 0);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_CFG);
    eh_wr32(h, NICTX_REG_PROTO, NICTX_PROTO_TAIL);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_CTRL), NICTX_CTRL_ENABLE);
    eh_wr32(h, NICTX_REG_QUEUES, 3);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_CFG);
    assert_int_equal(eh_rd32(h, NICTX_REG_QUEUES), 2);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_CFG);
    /* queue 2's block: not in use */
    assert_int_equal(eh_rd32(h, NICTX_REG_Q(2, NICTX_QREG_HEAD)), 0xFFFFFFFFu);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_BAD_ACCESS);
    eh_wr32(h, NICTX_REG_Q(2, NICTX_QREG_TAIL), 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_BAD_ACCESS);
    /* the MSI-X entry of a vector >= QUEUES: refused, a read UR */
    assert_int_equal(eh_rd32(h, NICTX_REG_MSIX(2, NICTX_MSIXREG_MSG_DATA)), 0xFFFFFFFFu);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_BAD_ACCESS);
    eh_wr32(h, NICTX_REG_MSIX(2, NICTX_MSIXREG_VEC_CTRL), 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    eh_wr32(h, NICTX_REG_ERR, NICTX_ERR_BAD_ACCESS);
    assert_int_equal(eh_rd32(h, NICTX_REG_MSIX(1, NICTX_MSIXREG_MSG_DATA)), 0);
    /* a tail beyond queue 1's ring (256) */
    eh_wr32(h, NICTX_REG_Q(1, NICTX_QREG_TAIL), 256);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_TAIL_RANGE);
    assert_int_equal(eh_rd32(h, NICTX_REG_Q(1, NICTX_QREG_TAIL)), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_DOORBELL), 0);
    eh_settle(h, 1000);
    assert_int_equal(h->n_mrds, 0);
}

/* Traffic on three queues, a queue reset, traffic again: the reset
 * cleared every queue's tail and head; QUEUES and the rings are kept. */
static void test_queues_reset(void **state)
{
    struct tq *t = *state;
    struct eh *h = &t->h;
    unsigned q;

    q_setup(t, 3, 4, NICTX_SCHED_RR, NULL, 0);
    for (q = 0; q < 3; q++) {
        q_post(t, q, 100);
        q_post(t, q, 200);
        q_doorbell(t, q);
    }
    eh_settle(h, 100000);
    q_check_done(t, 0);
    eh_wr32(h, NICTX_REG_CTRL, 0);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_RESET);
    while (eh_rd32(h, NICTX_REG_STATUS) & NICTX_STATUS_RESETTING)
        ;
    for (q = 0; q < 3; q++) {
        assert_int_equal(eh_rd32(h, NICTX_REG_Q(q, NICTX_QREG_TAIL)), 0);
        assert_int_equal(eh_rd32(h, NICTX_REG_Q(q, NICTX_QREG_HEAD)), 0);
    }
    assert_int_equal(eh_rd32(h, NICTX_REG_QUEUES), 3);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    /* the driver restarts its rings at index 0: post 16 - 2 to wrap */
    for (q = 0; q < 3; q++) {
        unsigned k;

        t->prod[q] = (t->prod[q] + 15u) & ~15u; /* next pass, index 0 */
        t->sent[q] = t->prod[q];
        for (k = 0; k < 3; k++)
            q_post(t, q, 300 + k);
        q_doorbell(t, q);
    }
    /* The frame numbers jumped: only the low bits are on the frame (not a
     * problem below 65536). */
    eh_settle(h, 100000);
    for (q = 0; q < 3; q++) {
        assert_int_equal(t->sent[q], t->prod[q]);
        assert_int_equal(eh_rd32(h, NICTX_REG_Q(q, NICTX_QREG_HEAD)), 3);
    }
}

/* ------------------------------------------------------------ completions, interrupts */

/* QUEUES nq with rings of 2^log2, CPL_MODE mode, WB_THRESH wb, IRQ_THRESH
 * it, IRQ_TIMER tmr; CQ mode: each queue's CQ of 2^cq_log2 at QCQ(q)
 * through its block (queue 0 through the page's CQ_BASE and CQ_LOG2);
 * head writeback: WB_ADDR QWB(q); interrupts: vector q's entry QMSI(q),
 * QMSI_DATA(q) (vector 0 through IRQ_ADDR and IRQ_DATA); then enable. */
static void q_setup_cpl(struct tq *t, unsigned nq, unsigned log2, uint32_t mode, unsigned wb,
                        unsigned it, unsigned tmr, unsigned cq_log2)
{
    struct eh *h = &t->h;
    unsigned q;

    t->nq = nq;
    t->cq_log2 = mode == NICTX_CPL_MODE_CQ ? cq_log2 : 0;
    eh_wr32(h, NICTX_REG_QUEUES, nq);
    for (q = 0; q < nq; q++) {
        t->log2[q] = log2;
        eh_wr64(h, NICTX_REG_Q(q, NICTX_QREG_RING_BASE_LO), QRING(q));
        eh_wr32(h, NICTX_REG_Q(q, NICTX_QREG_RING_LOG2), log2);
        if (mode == NICTX_CPL_MODE_HEAD_WB)
            eh_wr64(h, NICTX_REG_Q(q, NICTX_QREG_WB_ADDR_LO), QWB(q));
        if (mode == NICTX_CPL_MODE_CQ && q == 0) {
            eh_wr64(h, NICTX_REG_CQ_BASE_LO, QCQ(0));
            eh_wr32(h, NICTX_REG_CQ_LOG2, cq_log2);
        } else if (mode == NICTX_CPL_MODE_CQ) {
            eh_wr32(h, NICTX_REG_Q(q, NICTX_QREG_CQ_BASE_LO), (uint32_t)QCQ(q));
            eh_wr32(h, NICTX_REG_Q(q, NICTX_QREG_CQ_BASE_HI), (uint32_t)(QCQ(q) >> 32));
            eh_wr32(h, NICTX_REG_Q(q, NICTX_QREG_CQ_LOG2), cq_log2);
        }
        if (q == 0) {
            eh_wr64(h, NICTX_REG_IRQ_ADDR_LO, QMSI(0));
            eh_wr32(h, NICTX_REG_IRQ_DATA, QMSI_DATA(0));
        } else {
            eh_wr64(h, NICTX_REG_MSIX(q, NICTX_MSIXREG_MSG_ADDR_LO), QMSI(q));
            eh_wr32(h, NICTX_REG_MSIX(q, NICTX_MSIXREG_MSG_DATA), QMSI_DATA(q));
        }
    }
    eh_wr32(h, NICTX_REG_CPL_MODE, mode);
    eh_wr32(h, NICTX_REG_WB_THRESH, wb);
    eh_wr32(h, NICTX_REG_IRQ_THRESH, it);
    eh_wr32(h, NICTX_REG_IRQ_TIMER, tmr);
    eh_wr32(h, NICTX_REG_LINE_RATE, EH_LINE_FAST);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_CTRL), NICTX_CTRL_ENABLE);
}

/* Post n frames on queue q and ring its doorbell. */
static void q_send(struct tq *t, unsigned q, unsigned n, unsigned len)
{
    for (unsigned k = 0; k < n; k++)
        q_post(t, q, len + k);
    q_doorbell(t, q);
}

/* DESC_WB, four queues with rings of 16 (several passes), WB_THRESH 4:
 * each queue's DD writes land in its own ring (on_dd), and its last one
 * names its last descriptor with that pass's phase. */
static void test_queues_desc_wb(void **state)
{
    struct tq *t = *state;
    uint32_t seed = 11;
    unsigned round, q;

    q_setup_cpl(t, 4, 4, NICTX_CPL_MODE_DESC_WB, 4, 0, 0, 0);
    for (round = 0; round < 10; round++) {
        for (q = 0; q < t->nq; q++)
            q_send(t, q, 1 + (lcg(&seed) + q) % 7, 60 + lcg(&seed) % 300);
        eh_settle(&t->h, 400000);
    }
    eh_check_frames(&t->h);
    for (q = 0; q < t->nq; q++) {
        uint32_t last = t->prod[q] - 1;

        assert_int_equal(t->sent[q], t->prod[q]);
        assert_true(t->n_dd[q] >= (t->prod[q] + 3) / 4);
        if (t->dd_idx[q] != (last & 15u) || t->dd_ph[q] != (1u ^ ((last >> 4) & 1u)))
            fail_msg("queue %u: last DD at %u phase %u, its last descriptor %u phase %u", q,
                     t->dd_idx[q], t->dd_ph[q], last & 15u, 1u ^ ((last >> 4) & 1u));
        assert_int_equal(eh_rd32(&t->h, NICTX_REG_Q(q, NICTX_QREG_HEAD)), t->prod[q] & 15u);
    }
    assert_int_equal(eh_rd32(&t->h, NICTX_REG_ERR), 0);
}

/* CQ, three queues with rings of 16 and CQs of 8 (smaller than the ring,
 * consumed at once: they wrap many times), WB_THRESH 2: each queue's CQEs
 * at its own producer index with its own phase (on_cqe), reporting all its
 * frames. */
static void test_queues_cq(void **state)
{
    struct tq *t = *state;
    uint32_t seed = 5;
    unsigned round, q;

    q_setup_cpl(t, 3, 4, NICTX_CPL_MODE_CQ, 2, 0, 0, 3);
    for (round = 0; round < 12; round++) {
        for (q = 0; q < t->nq; q++)
            q_send(t, q, 1 + (lcg(&seed) + 2 * q) % 5, 60 + lcg(&seed) % 200);
        eh_settle(&t->h, 400000);
    }
    eh_check_frames(&t->h);
    for (q = 0; q < t->nq; q++) {
        assert_int_equal(t->sent[q], t->prod[q]);
        if (t->cq_done[q] != t->prod[q])
            fail_msg("queue %u: its CQEs report %u completions, %u frames", q, t->cq_done[q],
                     t->prod[q]);
        assert_true(t->n_cqe[q] > 8); /* wrapped */
    }
    assert_int_equal(eh_rd32(&t->h, NICTX_REG_ERR), 0);
}

/* WB_THRESH counts each queue's completions afresh after each write it
 * makes due: HEAD_WB, WB_THRESH 4, two queues of 12 frames each, one
 * doorbell (the tail is reached only at the last): each queue's head
 * writebacks are exactly 4, 8, 12 (frames are tens of clocks apart, a
 * write goes out within a few: each reports the head it was due at). */
static void test_queues_wb_thresh_exact(void **state)
{
    struct tq *t = *state;
    unsigned q, k;

    q_setup_cpl(t, 2, 5, NICTX_CPL_MODE_HEAD_WB, 4, 0, 0, 0);
    for (q = 0; q < t->nq; q++)
        q_send(t, q, 12, 100);
    eh_settle(&t->h, 100000);
    eh_check_frames(&t->h);
    for (q = 0; q < t->nq; q++) {
        assert_int_equal(t->sent[q], 12);
        for (k = 0; k < t->n_wb[q] && k < WB_LOG; k++)
            if (t->wb_log[q][k] != 4 * (k + 1))
                fail_msg("queue %u: head writeback %u is %u, WB_THRESH 4 wants %u", q, k,
                         t->wb_log[q][k], 4 * (k + 1));
        assert_int_equal(t->n_wb[q], 3);
    }
    assert_int_equal(eh_rd32(&t->h, NICTX_REG_ERR), 0);
}

/* CQ under d2h ready stalls, four queues, WB_THRESH 1 (a write due at
 * every completion): while the output register holds a completion write
 * the port has not taken, the other queues' due writes wait for it (none
 * is dropped): each queue's CQEs at consecutive producer indexes
 * (on_cqe), reporting exactly its frames. */
static void test_queues_cq_stall(void **state)
{
    struct tq *t = *state;
    static const struct eh_stall d2h = {32768, 16};
    uint32_t seed = 3;
    unsigned round, q;

    q_setup_cpl(t, 4, 4, NICTX_CPL_MODE_CQ, 1, 0, 0, 3);
    eh_stall(&t->h, 77, &d2h, NULL);
    for (round = 0; round < 8; round++) {
        for (q = 0; q < t->nq; q++)
            q_send(t, q, 4 + (lcg(&seed) + q) % 8, 60 + lcg(&seed) % 40);
        eh_settle(&t->h, 400000);
    }
    eh_check_frames(&t->h);
    assert_true(t->h.s_d2h.blocked > 0); /* writes did wait on the port */
    for (q = 0; q < t->nq; q++) {
        assert_int_equal(t->sent[q], t->prod[q]);
        if (t->cq_done[q] != t->prod[q])
            fail_msg("queue %u: its CQEs report %u completions, %u frames", q, t->cq_done[q],
                     t->prod[q]);
    }
    assert_int_equal(eh_rd32(&t->h, NICTX_REG_ERR), 0);
}

/* Interrupts by IRQ_THRESH 8 (no timer), four queues, head writeback every
 * 4 and CQ: queue q sends 20 + 6 q frames; exactly floor(frames / 8)
 * messages to each vector (none at idle), each after a completion write
 * that reports at least the 8 k completions it signals. */
static void irq_thresh_case(struct tq *t, uint32_t mode)
{
    unsigned q, k;

    q_setup_cpl(t, 4, 8, mode, 4, 8, 0, 8);
    for (q = 0; q < t->nq; q++)
        q_send(t, q, 20 + 6 * q, 100 + q);
    eh_settle(&t->h, 400000);
    eh_check_frames(&t->h);
    for (q = 0; q < t->nq; q++) {
        assert_int_equal(t->sent[q], t->prod[q]);
        if (t->n_irq[q] != t->prod[q] / 8)
            fail_msg("queue %u: %u interrupts for %u frames, IRQ_THRESH 8", q, t->n_irq[q],
                     t->prod[q]);
        for (k = 0; k < t->n_irq[q]; k++)
            if (t->irq_reported[q][k] < 8 * (k + 1))
                fail_msg("queue %u: interrupt %u with %u completions reported", q, k,
                         t->irq_reported[q][k]);
    }
    assert_int_equal(eh_rd64(&t->h, NICTX_REG_PBA_LO), 0);
}

static void test_queues_irq_thresh(void **state)
{
    irq_thresh_case(*state, NICTX_CPL_MODE_HEAD_WB);
}

static void test_queues_irq_thresh_cq(void **state)
{
    irq_thresh_case(*state, NICTX_CPL_MODE_CQ);
}

/* Interrupts by the moderation timer alone (IRQ_TIMER 3000 cycles), three
 * queues, head writeback when a queue drains: one frame on queue 0, 2000
 * cycles later one on queue 1, none on queue 2.  Each queue's timer is its
 * own: its message comes IRQ_TIMER cycles after its completion (the
 * writeback marks it), one each, none for queue 2. */
static void test_queues_irq_timer(void **state)
{
    struct tq *t = *state;
    const unsigned tmr = 3000;
    unsigned q;

    q_setup_cpl(t, 3, 8, NICTX_CPL_MODE_HEAD_WB, 4, 0, tmr, 0);
    q_send(t, 0, 1, 200);
    eh_run(&t->h, 2000);
    q_send(t, 1, 1, 300);
    eh_settle(&t->h, 100000);
    eh_check_frames(&t->h);
    assert_int_equal(t->n_irq[2], 0);
    for (q = 0; q < 2; q++) {
        int64_t d;

        assert_int_equal(t->n_irq[q], 1);
        assert_int_equal(t->n_wb[q], 1);
        d = (int64_t)(t->irq_cycle[q][0] - t->wb_cycle[q]);
        if (d < (int64_t)tmr - 8 || d > (int64_t)tmr + 8)
            fail_msg("queue %u: interrupt %lld cycles after its completion, IRQ_TIMER %u", q,
                     (long long)d, tmr);
    }
    assert_true(t->irq_cycle[1][0] > t->irq_cycle[0][0] + 1500);
}

/* A masked vector (QUEUES 2, IRQ_THRESH 1): queue 1's messages are held,
 * its PBA bit set, queue 0's go; unmasking sends exactly one; the next
 * completion one more. */
static void test_queues_irq_mask(void **state)
{
    struct tq *t = *state;
    struct eh *h = &t->h;

    q_setup_cpl(t, 2, 8, NICTX_CPL_MODE_HEAD_WB, 1, 1, 0, 0);
    eh_wr32(h, NICTX_REG_MSIX(1, NICTX_MSIXREG_VEC_CTRL), NICTX_MSIX_VEC_CTRL_MASK);
    q_send(t, 1, 3, 100);
    q_send(t, 0, 2, 100);
    eh_settle(h, 100000);
    assert_int_equal(t->n_irq[0], 2);
    assert_int_equal(t->n_irq[1], 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_PBA_LO), 0x2u);
    assert_int_equal(eh_rd32(h, NICTX_REG_PBA_HI), 0);
    eh_wr32(h, NICTX_REG_MSIX(1, NICTX_MSIXREG_VEC_CTRL), 0);
    eh_settle(h, 100000);
    assert_int_equal(t->n_irq[1], 1);
    assert_int_equal(t->irq_reported[1][0], 3);
    assert_int_equal(eh_rd32(h, NICTX_REG_PBA_LO), 0);
    q_send(t, 1, 1, 100);
    eh_settle(h, 100000);
    assert_int_equal(t->n_irq[1], 2);
    assert_int_equal(t->n_irq[0], 2);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* One queue: vector 0's mask holds its message the same way (the
 * single-queue path). */
static void test_queues_irq_mask_single(void **state)
{
    struct tq *t = *state;
    struct eh *h = &t->h;

    q_setup_cpl(t, 1, 8, NICTX_CPL_MODE_HEAD_WB, 1, 1, 0, 0);
    eh_wr32(h, NICTX_REG_MSIX(0, NICTX_MSIXREG_VEC_CTRL), NICTX_MSIX_VEC_CTRL_MASK);
    q_send(t, 0, 2, 100);
    eh_settle(h, 100000);
    assert_int_equal(t->n_irq[0], 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_PBA_LO), 0x1u);
    eh_wr32(h, NICTX_REG_MSIX(0, NICTX_MSIXREG_VEC_CTRL), 0);
    eh_settle(h, 100000);
    assert_int_equal(t->n_irq[0], 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_PBA_LO), 0);
    eh_check_frames(h);
}

int main(void)
{
    static const struct {
        const char *name;
        CMUnitTestFunction fn;
    } fixed[] = {
#define QT(f) {#f, f}
        QT(test_queues_contents_heads_counters),
        QT(test_queues_rr_order),
        QT(test_queues_rr_batched_ignores_weights),
        QT(test_queues_rr_back_to_back),
        QT(test_queues_drr_shares),
        QT(test_queues_drr_small_quantum),
        QT(test_queues_rr_equal_shares),
        QT(test_queues_64),
        QT(test_queues_64_drr_shares),
        QT(test_queues_stall_random),
        QT(test_queues_owner_rr),
        QT(test_queues_owner_drr),
        QT(test_queues_owner_flush_one),
        QT(test_queues_owner_64),
        QT(test_queues_refusals),
        QT(test_queues_reset),
        QT(test_queues_desc_wb),
        QT(test_queues_cq),
        QT(test_queues_wb_thresh_exact),
        QT(test_queues_cq_stall),
        QT(test_queues_irq_thresh),
        QT(test_queues_irq_thresh_cq),
        QT(test_queues_irq_timer),
        QT(test_queues_irq_mask),
        QT(test_queues_irq_mask_single),
#undef QT
    };
    static const unsigned widths[] = {8, 16, 32, 64};
    enum {
        N_FIXED = sizeof(fixed) / sizeof(fixed[0]),
        N_WIDTHS = sizeof(widths) / sizeof(widths[0]),
        N_TESTS = N_FIXED * N_WIDTHS,
    };
    static struct CMUnitTest tests[N_TESTS];
    static char names[N_TESTS][80];
    unsigned w, i, n = 0;

    /* Every test at every datapath width: test_queues_wW_<case>. */
    for (w = 0; w < N_WIDTHS; w++) {
        for (i = 0; i < N_FIXED; i++, n++) {
            snprintf(names[n], sizeof(names[n]), "test_queues_w%u_%s", widths[w],
                     fixed[i].name + strlen("test_queues_"));
            tests[n].name = names[n];
            tests[n].test_func = fixed[i].fn;
            tests[n].setup_func = setup;
            tests[n].teardown_func = teardown;
            tests[n].initial_state = (void *)&widths[w];
        }
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}
