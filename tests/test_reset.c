/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_reset.c - the engine's queue reset and its defined outcomes, at the
 * device port (tests/engine_host.h; docs/faults.md has the register
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
 *    (ERR.UNEXP_CPL) and writes nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "engine_host.h"
#include "nictx_hw.h"

#define HOST_BASE 0x100000ull
#define HOST_SIZE (1u << 20)
#define RING_BUS HOST_BASE
#define BUF_BUS (HOST_BASE + 0x10000u)
#define CPL_LAT 100u

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_reset_refusals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset_wc_doorbell_while_disabled, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset_clears_and_keeps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset_completion_timeout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset_completion_timeout_off, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
