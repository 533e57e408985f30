/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_reset.c - the engine's queue reset and its defined outcomes, at the
 * device port (tests/common/engine_host.h; docs/faults.md has the register
 * sequence):
 *  - a change that cannot work while the queue runs is refused (ERR.CFG):
 *    ring base, ring size or protocol written while enabled, enable with
 *    ring base 0, reset while enabled;
 *  - a doorbell while disabled is ignored (ERR.DB_OFF), for the tail and
 *    the write-combining window alike;
 *  - CTRL.RESET clears tail, head and ERR, keeps configuration and counters,
 *    and waits for the frame on the wire to end;
 *  - a read whose completion never comes sets ERR.CPL_TIMEOUT and stops the
 *    queue; its completion arriving after the reset is discarded
 *    (ERR.UNEXP_CPL) and writes nothing;
 *  - the reset's corners, which a driver that drains the queue first never
 *    meets: a completion write (or interrupt) due as the reset would fire
 *    goes out first; WC writes queued right behind the request wait for
 *    the reset; a late completion on the clock the datapath is held in
 *    reset (qrst) is discarded; an MWr to BAR0 0x400, just past the WC
 *    window, is a register access, refused, and not held by a reset.
 * TEST_RESET_VERBOSE=1 prints the late-completion sweep.
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
#define RING_BUS HOST_BASE
#define BUF_BUS (HOST_BASE + 0x10000u)
#define CPL_LAT 100u
#define WB_BUS (HOST_BASE + 0x8000u)    /* head writeback word */
#define CQ_BUS (HOST_BASE + 0x9000u)    /* completion queue */
#define IRQ_BUS (HOST_BASE + 0xA000u)   /* MSI-X message address */
#define IRQ_DATA 0x5a5au
#define POISON 0xa5a5a5a5u              /* host memory nothing wrote */

static int setup(void **state)
{
    struct eh *h = calloc(1, sizeof(*h));
    struct eh_cfg cfg = {
        .mem_base = HOST_BASE,
        .mem_size = HOST_SIZE,
        .ring_bus = RING_BUS,
        .buf_bus = BUF_BUS,
        .cpl_lat = CPL_LAT,
        .max_frames = 64,
    };

    if (!h || eh_init(h, &cfg) != 0) {
        free(h);
        return -1;
    }
    for (uint32_t i = 0; i < HOST_SIZE; i++)
        h->mem[i] = (uint8_t)(i * 7 + 3);
    *state = h;
    return 0;
}

static int teardown(void **state)
{
    struct eh *h = *state;
    eh_fini(h);
    free(h);
    return 0;
}

/* ERR holds exactly `bits`; clear them. */
static void err_is(struct eh *h, uint32_t bits)
{
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), bits);
    eh_wr32(h, NICTX_REG_ERR, bits);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* Wait for STATUS.RESETTING to clear: the reset was taken. */
static void reset_done(struct eh *h)
{
    unsigned i;

    for (i = 0; i < 1000 && (eh_rd32(h, NICTX_REG_STATUS) & NICTX_STATUS_RESETTING); i++)
        ;
    assert_true(i < 1000);
}

static void test_reset_refusals(void **state)
{
    struct eh *h = *state;

    /* Enable without a ring: refused. */
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    assert_int_equal(eh_rd32(h, NICTX_REG_CTRL), 0);
    err_is(h, NICTX_ERR_CFG);

    eh_ring_setup(h, 4, NICTX_PROTO_TAIL);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    assert_int_equal(eh_rd32(h, NICTX_REG_CTRL), NICTX_CTRL_ENABLE);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    /* While enabled: ring base, size and protocol stay; so does the queue. */
    eh_wr32(h, NICTX_REG_RING_BASE_LO, (uint32_t)RING_BUS + 0x1000);
    err_is(h, NICTX_ERR_CFG);
    eh_wr32(h, NICTX_REG_RING_BASE_HI, 1);
    err_is(h, NICTX_ERR_CFG);
    assert_int_equal(eh_rd64(h, NICTX_REG_RING_BASE_LO), RING_BUS);
    eh_wr32(h, NICTX_REG_RING_LOG2, 5);
    err_is(h, NICTX_ERR_CFG);
    assert_int_equal(eh_rd32(h, NICTX_REG_RING_LOG2), 4);
    eh_wr32(h, NICTX_REG_PROTO, NICTX_PROTO_OWNER);
    err_is(h, NICTX_ERR_CFG);
    assert_int_equal(eh_rd32(h, NICTX_REG_PROTO), NICTX_PROTO_TAIL);
    /* A reset while enabled, or with enable in the same write: refused. */
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE | NICTX_CTRL_RESET);
    err_is(h, NICTX_ERR_CFG);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_RESET);
    err_is(h, NICTX_ERR_CFG);
    assert_int_equal(eh_rd32(h, NICTX_REG_CTRL), NICTX_CTRL_ENABLE);
    /* Unknown CTRL bits are a bad access. */
    eh_wr32(h, NICTX_REG_CTRL, 0x4);
    err_is(h, NICTX_ERR_BAD_ACCESS);
    /* Disabled, the ring still belongs to the run that used it: refused
     * (finding-ring-size-disabled), and so while a reset is pending. */
    eh_wr32(h, NICTX_REG_CTRL, 0);
    eh_wr32(h, NICTX_REG_RING_LOG2, 5);
    err_is(h, NICTX_ERR_CFG);
    eh_wr32(h, NICTX_REG_PROTO, NICTX_PROTO_WC);
    err_is(h, NICTX_ERR_CFG);
    eh_wr32(h, NICTX_REG_RING_BASE_LO, (uint32_t)RING_BUS + 0x1000);
    err_is(h, NICTX_ERR_CFG);
    eh_hold_wire(h, 1); /* a frame on its way holds the reset pending */
    eh_post(h, BUF_BUS, 200, 1, NULL);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    eh_doorbell(h);
    eh_run(h, 2000); /* the frame is fetched; its first beat waits for the wire */
    assert_false(eh_rd32(h, NICTX_REG_STATUS) & NICTX_STATUS_QUIESCENT);
    eh_wr32(h, NICTX_REG_CTRL, 0);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_RESET);
    assert_true(eh_rd32(h, NICTX_REG_STATUS) & NICTX_STATUS_RESETTING);
    eh_wr32(h, NICTX_REG_RING_LOG2, 5);
    err_is(h, NICTX_ERR_CFG);
    eh_hold_wire(h, 0);
    reset_done(h);
    eh_check_frames(h);
    /* After the reset, the same writes are taken. */
    eh_wr32(h, NICTX_REG_RING_LOG2, 5);
    eh_wr32(h, NICTX_REG_PROTO, NICTX_PROTO_WC);
    assert_int_equal(eh_rd32(h, NICTX_REG_RING_LOG2), 5);
    assert_int_equal(eh_rd32(h, NICTX_REG_PROTO), NICTX_PROTO_WC);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* A WC block closed while the queue is disabled is no doorbell. */
static void test_reset_wc_doorbell_while_disabled(void **state)
{
    struct eh *h = *state;
    uint64_t w[8] = {BUF_BUS, 60, 0, 0, 0, 0, 0, 0};

    eh_ring_setup(h, 4, NICTX_PROTO_WC);
    eh_wc_write(h, 0, 0, w, 8);
    eh_settle(h, 1000);
    err_is(h, NICTX_ERR_DB_OFF);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_DOORBELL), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_TAIL), 0);
    assert_int_equal(h->n_mrds, 0);
}

/* A reset after some traffic: tail, head and ERR cleared; configuration and
 * counters kept; the reset waits for the frame on the wire. */
static void test_reset_clears_and_keeps(void **state)
{
    struct eh *h = *state;

    eh_ring_setup(h, 4, NICTX_PROTO_TAIL);
    eh_wr32(h, NICTX_REG_CPL_TIMEOUT, 777);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    for (unsigned i = 0; i < 5; i++)
        eh_post(h, BUF_BUS + i * 2048u, 1500, 1, NULL);
    eh_doorbell(h);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 5);
    eh_wr32(h, NICTX_REG_MAX_TAGS, 0); /* out of range: ERR.BAD_ACCESS */
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    assert_int_equal(eh_rd32(h, NICTX_REG_STATUS),
                     NICTX_STATUS_QUIESCENT | NICTX_STATUS_IDLE);

    /* One more frame, its start on the wire held: not quiescent. */
    eh_post(h, BUF_BUS + 5 * 2048u, 1500, 1, NULL);
    eh_hold_wire(h, 1);
    eh_doorbell(h);
    eh_run(h, 2000);
    eh_wr32(h, NICTX_REG_CTRL, 0);
    assert_false(eh_rd32(h, NICTX_REG_STATUS) & NICTX_STATUS_QUIESCENT);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_RESET);
    eh_run(h, 500);
    assert_true(eh_rd32(h, NICTX_REG_STATUS) & NICTX_STATUS_RESETTING);
    assert_int_equal(eh_rd32(h, NICTX_REG_TAIL), 6); /* not yet */
    eh_hold_wire(h, 0);
    reset_done(h);
    eh_check_frames(h); /* the held frame went out whole */

    assert_int_equal(eh_rd32(h, NICTX_REG_TAIL), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_CTRL), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_STATUS), NICTX_STATUS_QUIESCENT | NICTX_STATUS_IDLE);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_PKTS), 6);
    assert_int_equal(eh_rd32(h, NICTX_REG_RING_LOG2), 4);
    assert_int_equal(eh_rd64(h, NICTX_REG_RING_BASE_LO), RING_BUS);
    assert_int_equal(eh_rd32(h, NICTX_REG_CPL_TIMEOUT), 777);
    /* Enabled again, it may run. */
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    assert_int_equal(eh_rd32(h, NICTX_REG_CTRL), NICTX_CTRL_ENABLE);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

/* A completion that never comes: ERR.CPL_TIMEOUT, the queue stops, the
 * reset recovers it, and the late completion is discarded. */
static void test_reset_completion_timeout(void **state)
{
    struct eh *h = *state;

    eh_ring_setup(h, 4, NICTX_PROTO_TAIL);
    eh_wr32(h, NICTX_REG_CPL_TIMEOUT, 300);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    eh_hold(h, BUF_BUS); /* payload reads stay unanswered */
    eh_post(h, BUF_BUS, 200, 0, NULL);
    eh_post(h, BUF_BUS + 2048, 200, 0, NULL);
    eh_doorbell(h);
    eh_run(h, 250);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0); /* not yet */
    eh_run(h, 600);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_CPL_TIMEOUT);
    /* Not quiescent: a reset now would wait for the reads. */
    assert_int_equal(eh_rd32(h, NICTX_REG_STATUS), 0);
    /* The register sequence: disable, reset, wait, enable.  The reset waits
     * for the reads the completion timeout long, then gives up on them. */
    eh_wr32(h, NICTX_REG_CTRL, 0);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_RESET);
    eh_run(h, 250);
    assert_int_equal(eh_rd32(h, NICTX_REG_STATUS), NICTX_STATUS_RESETTING);
    reset_done(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_STATUS), NICTX_STATUS_QUIESCENT | NICTX_STATUS_IDLE);
    /* The completions arrive late: discarded, flagged, nothing sent. */
    eh_release(h);
    eh_settle(h, 5000);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_UNEXP_CPL);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_PKTS), 0);
    assert_int_equal(h->n_frames, 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 0);
}

/* CPL_TIMEOUT 0 turns the timer off: the read just waits. */
static void test_reset_completion_timeout_off(void **state)
{
    struct eh *h = *state;

    assert_int_equal(eh_rd32(h, NICTX_REG_CPL_TIMEOUT), NICTX_CPL_TIMEOUT_RESET);
    eh_ring_setup(h, 4, NICTX_PROTO_TAIL);
    eh_wr32(h, NICTX_REG_CPL_TIMEOUT, 0);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    eh_hold(h, BUF_BUS);
    eh_post(h, BUF_BUS, 200, 1, NULL);
    eh_doorbell(h);
    eh_run(h, 20000);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    eh_release(h);
    eh_settle(h, 5000);
    eh_check_frames(h);
    eh_wr32(h, NICTX_REG_CPL_TIMEOUT, 1u << 24); /* beyond 24 bits */
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
}

/* ------------------------------------------------------------ reset corners
 * The corners of the reset a driver that drains the queue first never
 * meets (docs/c-model.md, the engine): a completion write due when the
 * reset would fire, WC writes and register writes queued right behind the
 * reset request, and a late completion on the clock the datapath is held
 * in reset.  Each asserts what the host sees; under NICTX_DEVICE=lockstep
 * the C model must also match the RTL on every clock.
 */

static uint32_t mem32(struct eh *h, uint64_t addr)
{
    uint32_t v;

    memcpy(&v, eh_ptr(h, addr, 4), 4);
    return v;
}

static uint64_t mem64(struct eh *h, uint64_t addr)
{
    uint64_t v;

    memcpy(&v, eh_ptr(h, addr, 8), 8);
    return v;
}

static void poison(struct eh *h, uint64_t addr, unsigned words)
{
    const uint32_t v = POISON;

    for (unsigned i = 0; i < words; i++)
        memcpy(eh_ptr(h, addr + 4u * i, 4), &v, 4);
}

/* After a reset: the ring from the start, enabled, two frames of len0 and
 * len1 bytes sent as posted; HEAD 2, ERR clean. */
static void two_frames_after(struct eh *h, unsigned len0, unsigned len1)
{
    eh_ring_restart(h);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    eh_post(h, BUF_BUS, len0, 1, NULL);
    eh_post(h, BUF_BUS + 2048u, len1, 1, NULL);
    eh_doorbell(h);
    eh_settle(h, 20000);
    eh_check_frames(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 2);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
}

static int verbose(void)
{
    return getenv("TEST_RESET_VERBOSE") != NULL;
}

/* A completion mode and its thresholds, d2h ready stalls (0: none), the
 * frames posted (the first is sent), d2h ready held low for a while once
 * the frame may go. */
struct cw_case {
    uint32_t mode;
    unsigned wb, irq;
    uint32_t timer;
    uint32_t stall;
    unsigned posted;
    int hold;
};

/* A reset asked while a frame waits for the wire (the others posted behind
 * it are dropped: no new frame starts with a reset pending): once it is
 * out, the completion write it is due (and the interrupt) goes out before
 * the reset fires, in every completion mode, due at the tail, by WB_THRESH
 * or by the interrupt, also when d2h ready stalls or is held low; none is
 * written when none is due.  A moderation timer still running then does
 * not hold the reset: its interrupt is dropped.  The reset clears head and
 * tail. */
static void test_reset_waits_for_completion_write(void **state)
{
    static const struct cw_case cases[] = {
        {NICTX_CPL_MODE_HEAD_WB, 8, 0, 0, 0, 1, 0},     /* at the tail */
        {NICTX_CPL_MODE_HEAD_WB, 1, 0, 0, 0, 3, 0},     /* by the threshold */
        {NICTX_CPL_MODE_HEAD_WB, 8, 0, 0, 0, 3, 0},     /* none due */
        {NICTX_CPL_MODE_DESC_WB, 1, 0, 0, 0, 3, 0},
        {NICTX_CPL_MODE_DESC_WB, 4, 0, 0, 20000, 1, 0}, /* d2h stalls */
        {NICTX_CPL_MODE_CQ, 1, 0, 0, 0, 3, 0},
        {NICTX_CPL_MODE_CQ, 2, 1, 0, 8000, 3, 0},       /* the interrupt's; d2h stalls */
        {NICTX_CPL_MODE_HEAD_WB, 8, 1, 0, 0, 3, 0},     /* the interrupt's */
        {NICTX_CPL_MODE_HEAD_WB, 1, 1, 0, 0, 3, 1},     /* both wait for the link */
        {NICTX_CPL_MODE_HEAD_WB, 8, 0, 3000, 0, 1, 0},  /* the timer runs at the reset */
    };
    struct eh *h = *state;

    eh_ring_setup(h, 4, NICTX_PROTO_TAIL);
    for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        const struct cw_case *k = &cases[c];
        const struct eh_stall st = {k->stall, 12};
        const int due = k->wb == 1 || k->posted == 1 || k->irq != 0;

        eh_ring_restart(h);
        eh_wr32(h, NICTX_REG_CPL_MODE, k->mode);
        eh_wr64(h, NICTX_REG_WB_ADDR_LO, WB_BUS);
        eh_wr64(h, NICTX_REG_CQ_BASE_LO, CQ_BUS);
        eh_wr32(h, NICTX_REG_CQ_LOG2, 4);
        eh_wr32(h, NICTX_REG_WB_THRESH, k->wb);
        eh_wr64(h, NICTX_REG_IRQ_ADDR_LO, IRQ_BUS);
        eh_wr32(h, NICTX_REG_IRQ_DATA, IRQ_DATA);
        eh_wr32(h, NICTX_REG_IRQ_THRESH, k->irq);
        eh_wr32(h, NICTX_REG_IRQ_TIMER, k->timer);
        poison(h, WB_BUS, 1);
        poison(h, CQ_BUS, 4);
        poison(h, IRQ_BUS, 1);
        eh_stall(h, 77 + c, k->stall ? &st : NULL, NULL);
        eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
        eh_hold_wire(h, 1);
        for (unsigned j = 0; j < k->posted; j++)
            eh_post(h, BUF_BUS + j * 2048u, 300 + 100 * j, j == 0, NULL);
        eh_doorbell(h);
        eh_run(h, 2000); /* fetched; the first frame's start waits for the wire */
        eh_wr32(h, NICTX_REG_CTRL, 0);
        eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_RESET);
        eh_run(h, 50);
        assert_int_equal(eh_rd32(h, NICTX_REG_STATUS), NICTX_STATUS_RESETTING);
        /* The frame goes; no register access until the reset has fired. */
        if (k->hold)
            eh_hold_d2h(h, 1);
        eh_hold_wire(h, 0);
        if (k->hold) {
            eh_run(h, 500);
            eh_check_frames(h);
            assert_int_equal(mem32(h, WB_BUS), POISON); /* still waiting */
            eh_hold_d2h(h, 0);
        }
        eh_run(h, 3000);
        eh_check_frames(h);
        assert_int_equal(eh_rd32(h, NICTX_REG_STATUS), NICTX_STATUS_QUIESCENT | NICTX_STATUS_IDLE);
        assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 0);
        assert_int_equal(eh_rd32(h, NICTX_REG_TAIL), 0);
        assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
        /* What the frame was due reached host memory before the reset. */
        switch (k->mode) {
        case NICTX_CPL_MODE_HEAD_WB:
            assert_int_equal(mem32(h, WB_BUS), due ? 1 : POISON);
            break;
        case NICTX_CPL_MODE_DESC_WB:
            assert_int_equal(mem32(h, RING_BUS + 12), due ? NICTX_DESC_DD | 1u << 31 : 0);
            break;
        default: /* CQ: a CQE at slot 0, phase 1, one completion, index 0 */
            assert_int_equal(mem64(h, CQ_BUS),
                             due ? 1ull << 63 | 1u << 16 : (uint64_t)POISON << 32 | POISON);
            assert_int_equal(mem32(h, CQ_BUS + 8), POISON);
            break;
        }
        assert_int_equal(mem32(h, IRQ_BUS), k->irq ? IRQ_DATA : POISON);
        if (k->timer) { /* dropped by the reset: never sent */
            eh_run(h, 2 * k->timer);
            assert_int_equal(mem32(h, IRQ_BUS), POISON);
        }
        eh_stall(h, 0, NULL, NULL);
        for (unsigned j = 0; j < k->posted; j++) /* DD words back to the post's */
            memset(eh_ptr(h, RING_BUS + j * NICTX_DESC_BYTES + 12, 4), 0, 4);
    }
    /* The next traffic after the reset works, with its completion write. */
    two_frames_after(h, 100, 100);
    assert_int_equal(mem32(h, WB_BUS), 2);
}

/* WC writes queued right behind the reset request (the reads drained, so
 * the reset fires as soon as it is asked) are held until the reset is
 * done: their blocks are the next run's, whole.  The next run's first
 * descriptor is pushed in two MWrs around the enable (words 0..2,
 * CTRL.ENABLE, words 3..7: the close), its second as one MWr to the other
 * buffer; both are sent from their blocks, with no descriptor read.  The
 * first WC MWr is queued 0..5 clocks after the request (0 and 1: right
 * behind it), so its first beat meets the clock the reset fires (k <= 1),
 * the clock after, qrst high (k = 2), or a later one. */
static void test_reset_holds_wc_write_behind_it(void **state)
{
    struct eh *h = *state;
    uint64_t blk[8], blk1[8];
    unsigned k, m;

    eh_ring_setup(h, 4, NICTX_PROTO_WC);
    for (k = 0; k < 6; k++) {
        eh_ring_restart(h);
        memset(blk, 0, sizeof(blk));
        memset(blk1, 0, sizeof(blk1));
        eh_post(h, BUF_BUS + k * 4096u, 200 + k, 1, blk);
        eh_post(h, BUF_BUS + k * 4096u + 2048u, 100 + k, 1, blk1);
        blk[2] = 0; /* their ring indexes */
        blk1[2] = 1;
        m = h->n_mrds;
        assert_int_equal(eh_rd32(h, NICTX_REG_CTRL), 0); /* nothing queued before the request */
        eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_RESET);
        eh_run(h, k);
        eh_wc_write(h, k & 1, 0, blk, 3);
        eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
        eh_wc_write(h, k & 1, 24, blk + 3, 5);
        eh_wc_write(h, (k & 1) ^ 1, 0, blk1, 8);
        eh_settle(h, 20000);
        eh_check_frames(h);
        assert_int_equal(eh_desc_reads_of(h, m, 0), 0);
        assert_int_equal(eh_desc_reads_of(h, m, 1), 0);
        assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC), 2 * (k + 1));
        assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC_DROP), 0);
        assert_int_equal(eh_rd32(h, NICTX_REG_CTRL), NICTX_CTRL_ENABLE);
        assert_int_equal(eh_rd32(h, NICTX_REG_TAIL), 2);
        assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 2);
        assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
        eh_wr32(h, NICTX_REG_CTRL, 0);
    }
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_PKTS), 12);
}

/* The queue enabled, a frame of 8 bytes at addr whose payload read (one
 * completion beat) is held until it times out; then disable and the reset
 * request are queued (the caller runs the clocks). */
static void stray_arm(struct eh *h, uint64_t addr)
{
    eh_ring_restart(h);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    eh_hold(h, BUF_BUS);
    eh_post(h, addr, 8, 0, NULL);
    eh_doorbell(h);
    eh_run(h, 400);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), NICTX_ERR_CPL_TIMEOUT);
    eh_wr32(h, NICTX_REG_CTRL, 0);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_RESET);
}

/* After the late completion: ERR as given (then cleared), the reset done,
 * head and tail 0, no frame sent. */
static void stray_after(struct eh *h, uint32_t err)
{
    eh_settle(h, 5000);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), err);
    if (err)
        eh_wr32(h, NICTX_REG_ERR, err);
    assert_int_equal(eh_rd32(h, NICTX_REG_STATUS), NICTX_STATUS_QUIESCENT | NICTX_STATUS_IDLE);
    assert_int_equal(eh_rd32(h, NICTX_REG_HEAD), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_TAIL), 0);
    assert_int_equal(h->n_frames, 0);
}

/* A completion arriving late, after its read timed out and a reset gave up
 * on it, is discarded (ERR.UNEXP_CPL) from the clock the datapath is held
 * in reset (qrst, the clock after the reset fires) on; arriving before, it
 * is taken and its frame is never sent (a reset is pending), ERR clean.
 * The read is of 8 bytes: its completion is one beat.  First the clock the
 * hold ends is found at the port: the engine's idle output, low while a
 * reset is pending or firing, rises on the clock after qrst.  Then the
 * release is swept over the clocks around it, each a fresh reset: the beat
 * released r clocks after the request is offered on clock r and reaches
 * the engine on clock r + 1, so the first one discarded is the one that
 * meets the qrst clock.  After it the queue works. */
static void test_reset_stray_completion_on_reset_clock(void **state)
{
    struct eh *h = *state;
    const unsigned to = 40;
    unsigned r, n = 0, r_qrst;

    eh_ring_setup(h, 4, NICTX_PROTO_TAIL);
    eh_wr32(h, NICTX_REG_CPL_TIMEOUT, to);
    stray_arm(h, BUF_BUS);
    do {
        eh_step(h);
        assert_true(++n < 10 * to);
    } while (!h->idle);
    r_qrst = n - 3; /* idle on clock n - 1: qrst on n - 2, reached by release n - 3 */
    if (verbose())
        printf("  idle %u clocks after the reset request: qrst met by release %u\n", n, r_qrst);
    assert_true(r_qrst > to);
    eh_release(h);
    stray_after(h, NICTX_ERR_UNEXP_CPL);
    for (r = r_qrst - 12; r < r_qrst + 12; r++) {
        stray_arm(h, BUF_BUS + r * 64u);
        eh_run(h, r);
        eh_release(h);
        if (verbose())
            printf("  release %u clocks after the reset request\n", r);
        stray_after(h, r < r_qrst ? 0 : NICTX_ERR_UNEXP_CPL);
    }
    eh_wr32(h, NICTX_REG_CPL_TIMEOUT, 0);
    two_frames_after(h, 8, 300);
}

/* BAR0 0x400, the first offset past the WC window, holds nothing: an MWr
 * there is a register access, refused (ERR.BAD_ACCESS; a read is answered
 * with UR), in the WC protocol too, and nothing reaches the WC window.  As
 * a register access it is not held behind a reset request, as a WC write
 * is: queued right behind the request, it is taken before the reset fires,
 * which clears the error it set; a WC write there that closes a block (its
 * word 7, 0x238) waits for the reset, and its close while disabled sets
 * ERR.DB_OFF after it (a torn block: dropped and counted). */
static void test_reset_mwr_past_wc_window(void **state)
{
    struct eh *h = *state;
    const uint64_t w = 0x0123456789abcdefull;

    eh_ring_setup(h, 4, NICTX_PROTO_WC);
    eh_wr32(h, 0x400, 0x11111111u);
    err_is(h, NICTX_ERR_BAD_ACCESS);
    eh_wr64(h, 0x400, w); /* a WC-shaped store */
    err_is(h, NICTX_ERR_BAD_ACCESS);
    assert_int_equal(eh_rd32(h, 0x400), 0xffffffffu);
    err_is(h, NICTX_ERR_BAD_ACCESS);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC_DROP), 0);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_DOORBELL), 0);

    /* Right behind a reset request. */
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_RESET);
    eh_wr64(h, 0x400, w);
    reset_done(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_RESET);
    eh_wr32(h, 0x400, 0x22222222u);
    reset_done(h);
    assert_int_equal(eh_rd32(h, NICTX_REG_ERR), 0);
    /* A block's close there: held, then a close while disabled. */
    eh_wr32(h, NICTX_REG_CTRL, NICTX_CTRL_RESET);
    eh_wc_write(h, 0, 56, &w, 1);
    reset_done(h);
    err_is(h, NICTX_ERR_DB_OFF);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_WC_DROP), 1);
    assert_int_equal(eh_rd32(h, NICTX_REG_CNT_DOORBELL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_reset_refusals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset_wc_doorbell_while_disabled, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset_clears_and_keeps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset_completion_timeout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset_completion_timeout_off, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset_waits_for_completion_write, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset_holds_wc_write_behind_it, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset_stray_completion_on_reset_clock, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_reset_mwr_past_wc_window, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
