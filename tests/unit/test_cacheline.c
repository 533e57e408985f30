/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_cacheline.c - the cache-line coherence cost model (sim/host/cacheline.h):
 * what reads and writes by two or more CPUs cost under MESI, the dql_queued
 * write-first effect, false sharing made by aliasing, and DMA snoops.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host/cacheline.h"

#define XFER    48.0
#define UPGRADE 20.0

/* Layout of the fixture's regions (bus addresses). */
#define PROD  0x10000ull /* txq.prod: one line, written by the xmit CPU */
#define CONS  0x10040ull /* txq.cons: the next line, written by completions */
#define DQL   0x10080ull /* dql.enqueue: one line */
#define RING  0x20000ull /* ring: 4 KiB, 64 lines */
#define RINGN 4096u

enum { R_PROD, R_CONS, R_DQL, R_RING };

static int setup(void **state)
{
    struct cl_model *m = malloc(sizeof(*m));
    struct cl_cfg c = { .ncpus = 4, .xfer_ns = XFER, .upgrade_ns = UPGRADE };

    if (!m || cl_init(m, &c) != 0)
        return -1;
    if (cl_region(m, PROD, 8, "txq.prod") != R_PROD ||
        cl_region(m, CONS, 8, "txq.cons") != R_CONS ||
        cl_region(m, DQL, 64, "dql.enqueue") != R_DQL ||
        cl_region(m, RING, RINGN, "ring") != R_RING)
        return -1;
    *state = m;
    return 0;
}

static int teardown(void **state)
{
    struct cl_model *m = *state;

    cl_destroy(m);
    free(m);
    return 0;
}

static struct cl_stats stats(const struct cl_model *m, int id)
{
    struct cl_stats s;

    assert_int_equal(cl_region_stats(m, id, &s), 0);
    return s;
}

/* Write/write ping-pong: every write after the first moves the line. */
static void test_cacheline_pingpong(void **state)
{
    struct cl_model *m = *state;
    struct cl_stats s;
    int i;

    assert_true(cl_access(m, 0, PROD, 8, 1) == 0); /* first: nobody holds it */
    for (i = 1; i <= 10; i++)
        assert_true(cl_access(m, i & 1, PROD, 8, 1) == XFER);
    assert_int_equal(cl_state(m, 0, PROD), CL_M);
    assert_int_equal(cl_state(m, 1, PROD), CL_I);
    s = stats(m, R_PROD);
    assert_int_equal(s.writes, 11);
    assert_int_equal(s.xfers, 10);
    assert_int_equal(s.upgrades, 0);
    assert_true(s.cost_ns == 10 * XFER);
    /* A write hit costs nothing. */
    assert_true(cl_access(m, 0, PROD, 8, 1) == 0);
}

/* dql_queued: after the completion CPU dirtied the line, read-then-write
 * costs xfer + upgrade; write-first costs xfer alone. */
static void test_cacheline_dql_write_first(void **state)
{
    struct cl_model *m = *state;
    double cost;
    struct cl_stats s;

    cl_access(m, 1, DQL, 8, 1);                        /* completion CPU */
    cost = cl_access(m, 0, DQL, 8, 0);                 /* read: S, S */
    assert_int_equal(cl_state(m, 0, DQL), CL_S);
    assert_int_equal(cl_state(m, 1, DQL), CL_S);
    cost += cl_access(m, 0, DQL, 8, 1);                /* then the upgrade */
    assert_true(cost == XFER + UPGRADE);

    cl_access(m, 1, DQL, 8, 1);                        /* dirtied again */
    cost = cl_access(m, 0, DQL, 8, 1);                 /* write first */
    cost += cl_access(m, 0, DQL, 8, 0);                /* read hit */
    assert_true(cost == XFER);
    assert_int_equal(cl_state(m, 0, DQL), CL_M);
    assert_int_equal(cl_state(m, 1, DQL), CL_I);

    s = stats(m, R_DQL);
    assert_int_equal(s.xfers, 3); /* read, CPU1's second write, write-first */
    assert_int_equal(s.upgrades, 1);
    assert_true(s.cost_ns == 3 * XFER + UPGRADE);
}

/* Readers share a line; one writer then pays the invalidations
 * (loopback's last_rx), and each re-reader pays a transfer once. */
static void test_cacheline_shared_then_write(void **state)
{
    struct cl_model *m = *state;

    assert_true(cl_access(m, 0, RING, 16, 0) == 0);    /* uncached: E */
    assert_int_equal(cl_state(m, 0, RING), CL_E);
    assert_true(cl_access(m, 0, RING, 16, 1) == 0);    /* E -> M silently */
    assert_true(cl_access(m, 1, RING, 16, 0) == XFER); /* M elsewhere */
    assert_true(cl_access(m, 2, RING, 16, 0) == 0);    /* S elsewhere */
    assert_true(cl_access(m, 3, RING, 16, 0) == 0);
    assert_int_equal(cl_state(m, 2, RING), CL_S);
    assert_true(cl_access(m, 3, RING, 16, 1) == UPGRADE); /* writer S */
    assert_int_equal(cl_state(m, 3, RING), CL_M);
    assert_int_equal(cl_state(m, 0, RING), CL_I);
    assert_true(cl_access(m, 0, RING, 16, 0) == XFER);
    assert_true(cl_access(m, 1, RING, 16, 0) == 0);
    /* An I writer against S copies also pays the upgrade, not a transfer. */
    assert_true(cl_access(m, 2, RING, 16, 1) == UPGRADE);
    assert_int_equal(stats(m, R_RING).upgrades, 2);
}

/* A line E in another CPU (read, never written) still moves on a read. */
static void test_cacheline_read_of_exclusive(void **state)
{
    struct cl_model *m = *state;

    assert_true(cl_access(m, 0, PROD, 8, 0) == 0);
    assert_true(cl_access(m, 1, PROD, 8, 0) == XFER);
    assert_true(cl_access(m, 0, PROD, 8, 0) == 0); /* both S now */
    assert_true(cl_access(m, 1, PROD, 8, 0) == 0);
}

/* Untracked addresses cost nothing and book nothing; len 0 is a no-op. */
static void test_cacheline_untracked(void **state)
{
    struct cl_model *m = *state;
    int id;

    assert_true(cl_access(m, 0, 0x5000, 64, 1) == 0);
    assert_true(cl_access(m, 1, 0x5000, 64, 1) == 0);
    assert_int_equal(cl_state(m, 1, 0x5000), CL_I);
    assert_int_equal(cl_device(m, 0x5000, 64, 1), 0);
    cl_access(m, 0, PROD, 8, 1);
    assert_true(cl_access(m, 1, PROD, 0, 1) == 0); /* len 0 */
    assert_int_equal(cl_state(m, 0, PROD), CL_M);
    for (id = 0; id < (int)cl_nregions(m); id++) {
        struct cl_stats s = stats(m, id);
        assert_int_equal(s.dev_writes, 0);
        assert_int_equal(s.writes, id == R_PROD ? 1 : 0);
    }
}

/* A line accessed untracked, then made a region's, is that region's from
 * then on (the lookup remembers no answer across a new region). */
static void test_cacheline_region_after_access(void **state)
{
    struct cl_model *m = *state;
    int id;

    assert_true(cl_access(m, 0, 0x6000, 64, 1) == 0);
    assert_true(cl_access(m, 1, 0x6000, 64, 1) == 0);
    id = cl_region(m, 0x6000, 64, "late");
    assert_true(id >= 0);
    assert_true(cl_access(m, 0, 0x6000, 64, 1) == 0);
    assert_true(cl_access(m, 1, 0x6000, 64, 1) == XFER);
    assert_int_equal(stats(m, id).writes, 2);
    assert_int_equal(cl_state(m, 1, 0x6000), CL_M);
}

/* An access from a line known untracked (looked up before) into a
 * tracked one: the tracked line is booked and moves all the same. */
static void test_cacheline_untracked_into_tracked(void **state)
{
    struct cl_model *m = *state;
    int id = cl_region(m, 0x7040, 64, "next");

    assert_true(id >= 0);
    assert_true(cl_access(m, 0, 0x7000, 8, 0) == 0); /* line 0x7000: untracked */
    assert_true(cl_access(m, 0, 0x7038, 16, 1) == 0);
    assert_true(cl_access(m, 1, 0x7038, 16, 1) == XFER);
    assert_int_equal(stats(m, id).writes, 2);
    assert_int_equal(cl_state(m, 1, 0x7040), CL_M);
}

/* Untracked lines between DQL and RING (the gap the lookup keeps): the
 * lines that bound it, and an access from it into RING, are tracked. */
static void test_cacheline_gap_bounds(void **state)
{
    struct cl_model *m = *state;

    assert_true(cl_access(m, 0, RING - 2 * CL_LINE, 8, 1) == 0); /* in the gap */
    assert_true(cl_access(m, 1, RING - 2 * CL_LINE, 8, 1) == 0);
    assert_true(cl_access(m, 0, DQL + 56, 8, 1) == 0);        /* DQL's last line */
    assert_true(cl_access(m, 1, DQL + 56, 8, 1) == XFER);
    assert_true(cl_access(m, 0, DQL + CL_LINE, 8, 1) == 0);   /* the gap's first line */
    assert_true(cl_access(m, 1, DQL + CL_LINE, 8, 1) == 0);
    assert_true(cl_access(m, 0, RING - 8, 16, 1) == 0); /* from the gap (a line not looked up) into RING */
    assert_true(cl_access(m, 1, RING - 8, 16, 1) == XFER);
    assert_true(cl_access(m, 0, RING, 8, 1) == XFER);
    assert_int_equal(stats(m, R_DQL).writes, 2);
    assert_int_equal(stats(m, R_RING).writes, 3);
}

/* Aliasing CONS's line onto PROD's: false sharing appears.  Without the
 * alias the two fields do not interact. */
static void test_cacheline_alias_false_sharing(void **state)
{
    struct cl_model *m = *state;
    int i;

    for (i = 0; i < 4; i++) {                          /* separate lines */
        assert_true(cl_access(m, 0, PROD, 8, 1) == 0);
        assert_true(cl_access(m, 1, CONS, 8, 1) == 0);
    }
    assert_int_equal(cl_alias(m, CONS, PROD), 0);
    /* The merged line keeps PROD's state: M in CPU 0. */
    assert_int_equal(cl_state(m, 0, CONS), CL_M);
    for (i = 0; i < 4; i++) {
        assert_true(cl_access(m, 1, CONS, 8, 1) == XFER);
        assert_true(cl_access(m, 0, PROD, 8, 1) == XFER);
    }
    /* Stats go to the region of the address accessed. */
    assert_int_equal(stats(m, R_CONS).xfers, 4);
    assert_int_equal(stats(m, R_PROD).xfers, 4);
    assert_int_equal(stats(m, R_CONS).writes, 8);
    /* Aliasing an untracked line fails; a line onto itself is a no-op. */
    assert_int_equal(cl_alias(m, 0x5000, PROD), -1);
    assert_int_equal(cl_alias(m, PROD, 0x5000), -1);
    assert_int_equal(cl_alias(m, PROD + 8, CONS), 0);
    assert_true(cl_access(m, 0, PROD, 8, 1) == 0);
}

/* Aliasing lines the lookup cache already holds (two of the ring's whole
 * lines): later accesses see the line the alias makes them act as, not the
 * one found before it. */
static void test_cacheline_alias_after_lookup(void **state)
{
    struct cl_model *m = *state;
    const uint64_t a = RING, b = RING + CL_LINE;

    assert_true(cl_access(m, 0, a, 8, 1) == 0); /* a: M in CPU 0 */
    assert_true(cl_access(m, 1, b, 8, 1) == 0); /* b: M in CPU 1 */
    assert_true(cl_access(m, 1, b, 8, 0) == 0); /* a hit, from the cache */
    assert_int_equal(cl_alias(m, b, a), 0);
    assert_int_equal(cl_state(m, 0, b), CL_M);      /* b acts as a */
    assert_true(cl_access(m, 1, b, 8, 1) == XFER);  /* a's line moves from CPU 0 */
    assert_int_equal(cl_state(m, 1, a), CL_M);
    assert_int_equal(cl_state(m, 0, a), CL_I);
    assert_int_equal(stats(m, R_RING).xfers, 1);
}

/* Two regions on one line (fields of one struct) share its state. */
static void test_cacheline_regions_share_line(void **state)
{
    struct cl_model *m = *state;
    int a = cl_region(m, 0x30008, 8, "a"), b = cl_region(m, 0x30000, 8, "b");
    int c = cl_region(m, 0x30010, 8, "c");

    assert_true(a >= 0 && b >= 0 && c >= 0);
    cl_access(m, 0, 0x30008, 8, 1);
    assert_true(cl_access(m, 1, 0x30000, 8, 1) == XFER);
    assert_true(cl_access(m, 2, 0x30010, 8, 0) == XFER);
    assert_int_equal(stats(m, a).writes, 1);
    assert_int_equal(stats(m, b).xfers, 1);
    assert_int_equal(stats(m, c).reads, 1);
    /* An untracked byte of a tracked line is still that line. */
    assert_true(cl_access(m, 3, 0x30030, 8, 1) == UPGRADE);
    assert_int_equal(stats(m, c).upgrades, 1);
    /* Overlapping bytes are rejected. */
    assert_int_equal(cl_region(m, 0x30004, 8, "x"), -1);
    assert_int_equal(cl_region(m, 0x30017, 2, "x"), -1);
}

/* Device read: M -> S, written back; the device is not a sharer, so the
 * CPU's next write costs 0.  Device write: every copy invalidated, and the
 * next CPU read is an LLC hit (0) that leaves the CPU E. */
static void test_cacheline_device(void **state)
{
    struct cl_model *m = *state;
    struct cl_stats s;

    cl_access(m, 0, RING, 16, 1);
    assert_int_equal(cl_device(m, RING, 16, 0), 1);
    assert_int_equal(cl_state(m, 0, RING), CL_S);
    assert_int_equal(cl_device(m, RING, 16, 0), 0);   /* S: no snoop */
    assert_true(cl_access(m, 0, RING, 16, 1) == 0);
    assert_int_equal(cl_state(m, 0, RING), CL_M);
    /* After a device read of M, another CPU's read finds it S: no move. */
    cl_device(m, RING, 16, 0);
    assert_true(cl_access(m, 1, RING, 16, 0) == 0);
    /* With another CPU sharing it, the write pays the upgrade. */
    assert_true(cl_access(m, 0, RING, 16, 1) == UPGRADE);

    cl_access(m, 1, RING, 16, 0);                       /* S, S */
    assert_int_equal(cl_device(m, RING, 64, 1), 1);
    assert_int_equal(cl_state(m, 0, RING), CL_I);
    assert_int_equal(cl_state(m, 1, RING), CL_I);
    assert_true(cl_access(m, 1, RING, 16, 0) == 0);
    assert_int_equal(cl_state(m, 1, RING), CL_E);
    s = stats(m, R_RING);
    assert_int_equal(s.dev_reads, 3);
    assert_int_equal(s.dev_writes, 1);
    assert_int_equal(s.snoops, 3);
    /* A DMA read spanning the whole ring snoops only the held line. */
    cl_access(m, 2, RING + RINGN - 1, 1, 1);
    assert_int_equal(cl_device(m, RING, RINGN, 0), 2);
    assert_int_equal(stats(m, R_RING).dev_reads, 3 + RINGN / CL_LINE);
}

/* An access spanning two lines touches both and counts two. */
static void test_cacheline_spans_two_lines(void **state)
{
    struct cl_model *m = *state;

    cl_access(m, 0, RING + 56, 16, 1);                  /* lines 0 and 1 */
    assert_int_equal(cl_state(m, 0, RING), CL_M);
    assert_int_equal(cl_state(m, 0, RING + 64), CL_M);
    assert_int_equal(cl_state(m, 0, RING + 128), CL_I);
    assert_true(cl_access(m, 1, RING + 60, 8, 1) == 2 * XFER);
    assert_true(cl_access(m, 1, RING, 128, 1) == 0);
    assert_int_equal(stats(m, R_RING).writes, 6);
    /* Straddling two regions books each line to its own region. */
    cl_access(m, 0, PROD, 8, 1);
    assert_true(cl_access(m, 1, PROD, 72, 1) == XFER); /* PROD M in 0, CONS free */
    assert_int_equal(stats(m, R_PROD).writes, 2);
    assert_int_equal(stats(m, R_CONS).writes, 1);
}

/* Boundaries: the first and last byte of a region are tracked, the bytes
 * on either side (on other lines) are not. */
static void test_cacheline_region_bounds(void **state)
{
    struct cl_model *m = *state;

    cl_access(m, 0, RING, 1, 1);
    assert_true(cl_access(m, 1, RING, 1, 1) == XFER);
    cl_access(m, 0, RING + RINGN - 1, 1, 1);
    assert_true(cl_access(m, 1, RING + RINGN - 1, 1, 1) == XFER);
    cl_access(m, 0, RING - 1, 1, 1);
    assert_true(cl_access(m, 1, RING - 1, 1, 1) == 0);
    cl_access(m, 0, RING + RINGN, 1, 1);
    assert_true(cl_access(m, 1, RING + RINGN, 1, 1) == 0);
    assert_int_equal(stats(m, R_RING).writes, 4);
}

/* Registration limits and bad ids. */
static void test_cacheline_region_limits(void **state)
{
    struct cl_model *m = *state;
    struct cl_stats s;
    unsigned i;

    assert_int_equal(cl_region(m, 0x40000, 0, "zero"), -1);
    assert_int_equal(cl_region(m, UINT64_MAX - 7, 16, "wrap"), -1);
    assert_int_equal(cl_region(m, 0x40000, 8, NULL), -1);
    assert_int_equal(cl_region(m, RING + 64, 8, "inside"), -1);
    assert_int_equal(cl_region(m, UINT64_MAX - 63, 64, "to 2^64"), -1); /* end wraps */
    assert_int_equal(cl_region(m, UINT64_MAX - 127, 64, "top"), 4);
    cl_access(m, 0, UINT64_MAX - 64, 1, 1);             /* its last byte */
    assert_true(cl_access(m, 1, UINT64_MAX - 127, 64, 1) == XFER);
    assert_true(cl_access(m, 0, UINT64_MAX - 8, 100, 1) == 0); /* clamped, untracked */
    for (i = cl_nregions(m); i < CL_MAX_REGIONS; i++)
        assert_int_equal(cl_region(m, 0x100000 + 64ull * i, 64, "r"), (int)i);
    assert_int_equal(cl_region(m, 0x900000, 64, "one too many"), -1);
    assert_int_equal(cl_nregions(m), CL_MAX_REGIONS);
    assert_string_equal(cl_region_name(m, R_DQL), "dql.enqueue");
    assert_null(cl_region_name(m, -1));
    assert_null(cl_region_name(m, CL_MAX_REGIONS));
    assert_int_equal(cl_region_stats(m, CL_MAX_REGIONS, &s), -1);
}

/* A ring of 65536 16-byte descriptors: 16384 lines, found quickly. */
static void test_cacheline_big_ring(void **state)
{
    struct cl_model *m = *state;
    const uint64_t big = 0x10000000ull;
    uint32_t i;

    assert_true(cl_region(m, big, 65536u * 16, "bigring") >= 0);
    for (i = 0; i < 65536; i++)
        cl_access(m, 0, big + 16ull * i, 16, 1);
    for (i = 0; i < 65536; i++)
        cl_device(m, big + 16ull * i, 16, 0);
    assert_int_equal(stats(m, 4).snoops, 16384);
    assert_int_equal(stats(m, 4).writes, 65536);
}

/* ncpus 0 and 9 are rejected, as are negative or NaN costs; a long name
 * is truncated. */
static void test_cacheline_cfg(void **state)
{
    struct cl_model m;
    struct cl_cfg c = { .ncpus = 0, .xfer_ns = XFER, .upgrade_ns = UPGRADE };
    char name[64];

    (void)state;
    assert_int_equal(cl_init(&m, &c), -1);
    c.ncpus = CL_MAX_CPUS + 1;
    assert_int_equal(cl_init(&m, &c), -1);
    c.ncpus = 1;
    c.xfer_ns = -1;
    assert_int_equal(cl_init(&m, &c), -1);
    c.xfer_ns = XFER;
    c.upgrade_ns = NAN;
    assert_int_equal(cl_init(&m, &c), -1);
    c.upgrade_ns = UPGRADE;
    c.ncpus = CL_MAX_CPUS;
    assert_int_equal(cl_init(&m, &c), 0);
    memset(name, 'n', sizeof(name) - 1);
    name[sizeof(name) - 1] = 0;
    assert_int_equal(cl_region(&m, 0, 64, name), 0);
    assert_int_equal(strlen(cl_region_name(&m, 0)), CL_NAME_MAX - 1);
    cl_access(&m, CL_MAX_CPUS - 1, 0, 8, 1);
    assert_true(cl_access(&m, 0, 0, 8, 0) == XFER);
    assert_int_equal(cl_state(&m, CL_MAX_CPUS, 0), CL_I);
    cl_destroy(&m);
}

/* Every CPU of the largest host shares a line; a write by one invalidates
 * all 63 other copies at one upgrade, and the highest CPU's read then moves
 * the line from the writer (the holder set spans all CL_MAX_CPUS bits). */
static void test_cacheline_all_cpus_share(void **state)
{
    struct cl_model m;
    struct cl_cfg c = { .ncpus = CL_MAX_CPUS, .xfer_ns = XFER, .upgrade_ns = UPGRADE };
    struct cl_stats st;

    (void)state;
    assert_int_equal(cl_init(&m, &c), 0);
    assert_int_equal(cl_region(&m, 0, 64, "shared"), 0);
    for (unsigned cpu = 0; cpu < CL_MAX_CPUS; cpu++)
        cl_access(&m, cpu, 0, 8, 0);
    for (unsigned cpu = 0; cpu < CL_MAX_CPUS; cpu++)
        assert_int_equal(cl_state(&m, cpu, 0), CL_S);
    assert_true(cl_access(&m, 0, 0, 8, 1) == UPGRADE);
    assert_int_equal(cl_state(&m, 0, 0), CL_M);
    for (unsigned cpu = 1; cpu < CL_MAX_CPUS; cpu++)
        assert_int_equal(cl_state(&m, cpu, 0), CL_I);
    assert_true(cl_access(&m, CL_MAX_CPUS - 1, 0, 8, 0) == XFER);
    assert_int_equal(cl_state(&m, CL_MAX_CPUS - 1, 0), CL_S);
    assert_int_equal(cl_region_stats(&m, 0, &st), 0);
    assert_int_equal(st.upgrades, 1);
    assert_int_equal(st.xfers, 2); /* CPU 1's read of CPU 0's E copy, and the last */
    cl_destroy(&m);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_cacheline_pingpong),
        T(test_cacheline_dql_write_first),
        T(test_cacheline_shared_then_write),
        T(test_cacheline_read_of_exclusive),
        T(test_cacheline_untracked),
        T(test_cacheline_region_after_access),
        T(test_cacheline_untracked_into_tracked),
        T(test_cacheline_gap_bounds),
        T(test_cacheline_alias_false_sharing),
        T(test_cacheline_alias_after_lookup),
        T(test_cacheline_regions_share_line),
        T(test_cacheline_device),
        T(test_cacheline_spans_two_lines),
        T(test_cacheline_region_bounds),
        T(test_cacheline_region_limits),
        T(test_cacheline_big_ring),
        cmocka_unit_test(test_cacheline_cfg),
        cmocka_unit_test(test_cacheline_all_cpus_share),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
