/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_cm_fifo.c - the C model's FIFO (c-model/cm_fifo.c) against the
 * contract of rtl/prim_fifo_sync.sv that its header states: power-on and
 * reset, a push refused while full even with a pop on the same clock, the
 * read data while empty, and the depths allowed.  (The lockstep tests of
 * the payload fetch and the DMA read engine run it inside them; these are
 * the cases they do not reach: a reset with words stored, a power-on over
 * memory that was not zero.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cm_fifo.h"

static void test_cm_fifo_depths(void **state)
{
    struct cm_fifo f;
    (void)state;
    assert_int_equal(cm_fifo_init(&f, 0), -1);
    assert_int_equal(cm_fifo_init(&f, 1), -1);
    assert_int_equal(cm_fifo_init(&f, 3), -1);
    assert_int_equal(cm_fifo_init(&f, 6), -1);
    assert_int_equal(cm_fifo_init(&f, 2 * CM_FIFO_MAX_DEPTH), -1);
    assert_int_equal(cm_fifo_init(&f, 2), 0);
    assert_int_equal(cm_fifo_init(&f, CM_FIFO_MAX_DEPTH), 0);
}

/* Power-on over memory that held anything: empty, storage 0. */
static void test_cm_fifo_power_on(void **state)
{
    struct cm_fifo f;
    (void)state;
    memset(&f, 0xA5, sizeof(f));
    assert_int_equal(cm_fifo_init(&f, 4), 0);
    assert_false(cm_fifo_rvalid(&f));
    assert_true(cm_fifo_wready(&f));
    assert_int_equal(cm_fifo_count(&f), 0);
    for (unsigned i = 0; i < 4; i++) {
        assert_int_equal(cm_fifo_rdata(&f), 0);
        cm_fifo_clock(&f, false, 0, true); /* a pop while empty moves nothing */
    }
    assert_int_equal(f.rptr, 0);
}

/* Full: a push is refused, also with a pop on the same clock. */
static void test_cm_fifo_full(void **state)
{
    struct cm_fifo f;
    (void)state;
    assert_int_equal(cm_fifo_init(&f, 2), 0);
    cm_fifo_clock(&f, true, 11, false);
    cm_fifo_clock(&f, true, 22, false);
    assert_false(cm_fifo_wready(&f));
    cm_fifo_clock(&f, true, 33, true); /* 11 leaves, 33 is not taken */
    assert_int_equal(cm_fifo_count(&f), 1);
    assert_int_equal(cm_fifo_rdata(&f), 22);
    cm_fifo_clock(&f, true, 44, true); /* not full: 22 leaves, 44 comes in */
    assert_int_equal(cm_fifo_count(&f), 1);
    assert_int_equal(cm_fifo_rdata(&f), 44);
}

/* Empty: the read data is the word last popped from the read slot; a
 * reset empties the FIFO and keeps the storage. */
static void test_cm_fifo_reset_keeps_storage(void **state)
{
    struct cm_fifo f;
    (void)state;
    assert_int_equal(cm_fifo_init(&f, 4), 0);
    cm_fifo_clock(&f, true, 7, false);
    cm_fifo_clock(&f, false, 0, true);
    assert_false(cm_fifo_rvalid(&f));
    assert_int_equal(cm_fifo_rdata(&f), 0); /* slot 1, never written */
    cm_fifo_clock(&f, true, 8, false);
    cm_fifo_clock(&f, true, 9, false);
    assert_int_equal(cm_fifo_count(&f), 2);
    cm_fifo_reset(&f);
    assert_false(cm_fifo_rvalid(&f));
    assert_int_equal(cm_fifo_count(&f), 0);
    assert_int_equal(f.wptr, 0);
    assert_int_equal(f.rptr, 0);
    assert_int_equal(cm_fifo_rdata(&f), 7); /* slot 0 kept its word */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cm_fifo_depths),
        cmocka_unit_test(test_cm_fifo_power_on),
        cmocka_unit_test(test_cm_fifo_full),
        cmocka_unit_test(test_cm_fifo_reset_keeps_storage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
