/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_dmachk.c - cmocka tests of sim/check/dmachk.c, the DMA-API debug
 * checks: each rule an unmap can break named once, nothing for a correct
 * driver's maps and unmaps, the leak counted against the descriptors that
 * still carry a buffer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "check/dmachk.h"

#define BUF 0x100004000ull /* a buffer's bus address */
#define MAXREP 16

struct rec {
    unsigned n;
    const char *kind[MAXREP];
    char detail[MAXREP][320];
    unsigned queue[MAXREP];
};

static void record(void *ctx, unsigned queue, const char *kind, sim_ps_t t, long desc,
                   const char *access, const char *detail)
{
    struct rec *r = ctx;

    (void)t;
    (void)desc;
    (void)access;
    if (r->n < MAXREP) {
        r->kind[r->n] = kind;
        r->queue[r->n] = queue;
        snprintf(r->detail[r->n], sizeof(r->detail[0]), "%s", detail);
    }
    r->n++;
}

struct fx {
    struct dmachk d;
    struct rec r;
};

static int fx_setup(void **state)
{
    static struct fx f;

    memset(&f, 0, sizeof(f));
    dmachk_init(&f.d, record, &f.r, 3);
    *state = &f;
    return 0;
}

static int fx_teardown(void **state)
{
    struct fx *f = *state;

    dmachk_destroy(&f->d);
    return 0;
}

/* Exactly one report, of `kind`, naming the queue it was given. */
static void expect_one(const struct fx *f, const char *kind)
{
    if (f->r.n != 1)
        fail_msg("expected one report (%s), got %u (first %s)", kind, f->r.n,
                 f->r.n ? f->r.kind[0] : "none");
    assert_string_equal(f->r.kind[0], kind);
    assert_int_equal(f->r.queue[0], 3);
}

/* Map, unmap with the same size and direction, map again (the buffer
 * reused), the same address mapped twice at once (a cloned skb): clean,
 * nothing live at the end. */
static void test_dmachk_correct_driver_clean(void **state)
{
    struct fx *f = *state;

    for (unsigned k = 0; k < 3; k++) {
        dmachk_map(&f->d, BUF, 60, DMACHK_TO_DEVICE);
        dmachk_unmap(&f->d, BUF, 60, DMACHK_TO_DEVICE, 20);
    }
    dmachk_map(&f->d, BUF + 64, 1514, DMACHK_BIDIRECTIONAL);
    dmachk_map(&f->d, BUF + 64, 1514, DMACHK_BIDIRECTIONAL);
    dmachk_unmap(&f->d, BUF + 64, 1514, DMACHK_BIDIRECTIONAL, 40);
    assert_int_equal(f->d.live, 1);
    dmachk_unmap(&f->d, BUF + 64, 1514, DMACHK_BIDIRECTIONAL, 41);
    assert_int_equal(f->d.live, 0);
    assert_int_equal(dmachk_final(&f->d, 0, 50), 0);
    assert_int_equal(f->r.n, 0);
    assert_int_equal(f->d.maps, 5);
    assert_int_equal(f->d.unmaps, 5);
}

/* Every size but the mapped one is dma_unmap_size (0: a length never
 * kept; one byte short or over), and the unmap still ends the mapping. */
static void test_dmachk_size(void **state)
{
    struct fx *f = *state;
    static const size_t lens[] = {0, 59, 61, 4096};

    for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        f->r.n = 0;
        dmachk_map(&f->d, BUF, 60, DMACHK_TO_DEVICE);
        dmachk_unmap(&f->d, BUF, lens[i], DMACHK_TO_DEVICE, 20);
        expect_one(f, "dma_unmap_size");
        assert_non_null(strstr(f->r.detail[0], "mapped it with 60 B"));
        assert_int_equal(f->d.live, 0);
    }
}

/* Another direction is dma_unmap_dir, naming both. */
static void test_dmachk_direction(void **state)
{
    struct fx *f = *state;

    dmachk_map(&f->d, BUF, 60, DMACHK_TO_DEVICE);
    dmachk_unmap(&f->d, BUF, 60, DMACHK_FROM_DEVICE, 20);
    expect_one(f, "dma_unmap_dir");
    assert_non_null(strstr(f->r.detail[0], "as DMA_FROM_DEVICE"));
    assert_non_null(strstr(f->r.detail[0], "mapped it as DMA_TO_DEVICE"));
    f->r.n = 0;
    dmachk_map(&f->d, BUF, 60, DMACHK_BIDIRECTIONAL);
    dmachk_unmap(&f->d, BUF, 60, DMACHK_TO_DEVICE, 40);
    expect_one(f, "dma_unmap_dir");
}

/* An unmap after the last mapping of the address was unmapped:
 * dma_unmap_twice, with when it was; mapped again, the next unmap is
 * clean. */
static void test_dmachk_twice(void **state)
{
    struct fx *f = *state;

    dmachk_map(&f->d, BUF, 60, DMACHK_TO_DEVICE);
    dmachk_unmap(&f->d, BUF, 60, DMACHK_TO_DEVICE, 20000);
    dmachk_unmap(&f->d, BUF, 60, DMACHK_TO_DEVICE, 30000);
    expect_one(f, "dma_unmap_twice");
    assert_non_null(strstr(f->r.detail[0], "unmapped already at 20.0 ns"));
    assert_int_equal(f->d.live, 0);
    f->r.n = 0;
    dmachk_map(&f->d, BUF, 60, DMACHK_TO_DEVICE);
    dmachk_unmap(&f->d, BUF, 60, DMACHK_TO_DEVICE, 50000);
    assert_int_equal(f->r.n, 0);
}

/* An address never mapped, also one inside a mapping (the API unmaps by
 * the address the map returned): dma_unmap_unknown, the mapping kept. */
static void test_dmachk_unknown(void **state)
{
    struct fx *f = *state;

    dmachk_unmap(&f->d, BUF, 60, DMACHK_TO_DEVICE, 10);
    expect_one(f, "dma_unmap_unknown");
    f->r.n = 0;
    dmachk_map(&f->d, BUF, 60, DMACHK_TO_DEVICE);
    dmachk_unmap(&f->d, BUF + 4, 56, DMACHK_TO_DEVICE, 30);
    expect_one(f, "dma_unmap_unknown");
    assert_int_equal(f->d.live, 1);
}

/* At the end, mappings beyond the descriptors that still carry a buffer
 * were leaked: dma_map_leak counts them; as many as carried is clean. */
static void test_dmachk_leak(void **state)
{
    struct fx *f = *state;

    for (unsigned k = 0; k < 3; k++)
        dmachk_map(&f->d, BUF + 64 * k, 60, DMACHK_TO_DEVICE);
    assert_int_equal(dmachk_final(&f->d, 3, 100), 0);
    assert_int_equal(dmachk_final(&f->d, 4, 100), 0);
    assert_int_equal(f->r.n, 0);
    assert_int_equal(dmachk_final(&f->d, 2, 100), 1);
    expect_one(f, "dma_map_leak");
    assert_non_null(strstr(f->r.detail[0], "3 DMA mappings live"));
    assert_non_null(strstr(f->r.detail[0], "only 2 descriptors"));
    assert_non_null(strstr(f->r.detail[0], "1 were never unmapped"));
}

/* Many buffers at once (the table grows past its first size): every one
 * found again by its unmap, in another order than mapped. */
static void test_dmachk_many(void **state)
{
    struct fx *f = *state;
    const unsigned n = 5000;

    for (unsigned k = 0; k < n; k++)
        dmachk_map(&f->d, BUF + 2048ull * k, 60 + k % 1000, DMACHK_TO_DEVICE);
    assert_int_equal(f->d.live, n);
    for (unsigned k = n; k-- > 0;)
        dmachk_unmap(&f->d, BUF + 2048ull * k, 60 + k % 1000, DMACHK_TO_DEVICE, n + k);
    assert_int_equal(f->r.n, 0);
    assert_int_equal(f->d.live, 0);
    assert_int_equal(f->d.used, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_dmachk_correct_driver_clean, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_dmachk_size, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_dmachk_direction, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_dmachk_twice, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_dmachk_unknown, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_dmachk_leak, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_dmachk_many, fx_setup, fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
