/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_memhist.c - the history of recent writes (sim/host/memhist.h): what a
 * location held at an earlier time, a CPU's own writes seen at once, the
 * device write a view saw or undid, and the ring's horizon.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "host/memhist.h"

#define NS 1000ull /* ps */

/* The memory, and a write to it by `who` at t, recorded first. */
static uint32_t mem[16];

static void wr(struct memhist *h, unsigned i, uint32_t v, unsigned who, sim_ps_t t, uint64_t tlp)
{
    memhist_write(h, &mem[i], &mem[i], 4, who, t, tlp);
    mem[i] = v;
}

/* mem[i] as seen at t by `skip`'s view. */
static uint32_t at(const struct memhist *h, unsigned i, sim_ps_t t, unsigned skip,
                   uint64_t *undone, uint64_t *seen)
{
    uint32_t v = mem[i];

    memhist_view(h, &mem[i], (uint8_t *)&v, 4, t, skip, undone, seen);
    return v;
}

static int setup(void **state)
{
    static struct memhist h;
    memset(mem, 0, sizeof(mem));
    assert_int_equal(memhist_init(&h), 0);
    *state = &h;
    return 0;
}

static int teardown(void **state)
{
    memhist_destroy(*state);
    return 0;
}

/* Three writes of one word: each time between them sees the value then. */
static void test_memhist_value_at_each_time(void **state)
{
    struct memhist *h = *state;
    uint64_t u, s;

    wr(h, 0, 1, 0, 10 * NS, 0);
    wr(h, 0, 2, 0, 20 * NS, 0);
    wr(h, 0, 3, 0, 30 * NS, 0);
    assert_int_equal(at(h, 0, 5 * NS, 1, &u, &s), 0);
    assert_int_equal(at(h, 0, 10 * NS, 1, &u, &s), 1); /* visible at its time */
    assert_int_equal(at(h, 0, 25 * NS, 1, &u, &s), 2);
    assert_int_equal(at(h, 0, 30 * NS, 1, &u, &s), 3);
    /* The writer sees its own writes whatever the time. */
    assert_int_equal(at(h, 0, 5 * NS, 0, &u, &s), 3);
    /* Another word is untouched. */
    assert_int_equal(at(h, 1, 5 * NS, 1, &u, &s), 0);
}

/* A device write is one TLP: a view says which one it kept and which one
 * it undid. */
static void test_memhist_device_writes(void **state)
{
    struct memhist *h = *state;
    uint64_t u, s;
    uint32_t two[2] = {0x11, 0x22}, old[2];

    memcpy(old, &mem[2], sizeof(old));
    memhist_write(h, &mem[2], old, 8, MEMHIST_DEVICE, 40 * NS, 7); /* one 8-byte TLP */
    memcpy(&mem[2], two, sizeof(two));
    assert_int_equal(at(h, 2, 50 * NS, MEMHIST_DEVICE + 1, &u, &s), 0x11);
    assert_int_equal(s, 7);
    assert_int_equal(u, 0);
    assert_int_equal(at(h, 3, 39 * NS, MEMHIST_DEVICE + 1, &u, &s), 0);
    assert_int_equal(u, 7);
    assert_int_equal(s, 0);
}

/* Past MEMHIST_CAP entries the oldest go, and the horizon moves to them. */
static void test_memhist_horizon(void **state)
{
    struct memhist *h = *state;

    assert_int_equal(memhist_oldest(h), 0);
    for (unsigned k = 0; k < MEMHIST_CAP; k++)
        wr(h, 4, k + 1, 0, (sim_ps_t)(k + 1) * NS, 0);
    assert_int_equal(memhist_oldest(h), 0);
    wr(h, 4, MEMHIST_CAP + 1, 0, (sim_ps_t)(MEMHIST_CAP + 1) * NS, 0);
    assert_int_equal(memhist_oldest(h), 1 * NS); /* the first write is gone */
}

/* A barrier of CPU 0 at t: its writes recorded since a point, not visible
 * yet, are visible at t; earlier ones and another CPU's keep their time. */
static void test_memhist_clamp(void **state)
{
    struct memhist *h = *state;
    uint64_t u, s, from;

    wr(h, 5, 1, 0, 50 * NS, 0); /* before the point */
    from = h->n;
    wr(h, 6, 2, 0, 40 * NS, 0);
    wr(h, 7, 3, 1, 40 * NS, 0); /* CPU 1's */
    wr(h, 8, 4, 0, 5 * NS, 0);  /* visible before the barrier already */
    memhist_clamp(h, 0, from, 10 * NS);
    assert_int_equal(at(h, 6, 10 * NS, 1, &u, &s), 2);
    assert_int_equal(at(h, 6, 9 * NS, 1, &u, &s), 0);
    assert_int_equal(at(h, 8, 5 * NS, 1, &u, &s), 4);
    assert_int_equal(at(h, 5, 10 * NS, 1, &u, &s), 0); /* before the point */
    assert_int_equal(at(h, 7, 10 * NS, 0, &u, &s), 0); /* another CPU's */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_memhist_value_at_each_time, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memhist_device_writes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memhist_horizon, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memhist_clamp, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
