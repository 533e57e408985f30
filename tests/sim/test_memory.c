/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_memory.c - the simulator's memory does not grow with run length.
 *
 * A whole simulation (driver, link, Verilated engine, scoreboard) is run
 * for N and for 10 N packets; the heap it holds at the end of the run (the
 * allocator's bytes in use, mallinfo2: a count, not a noisy RSS reading)
 * must be the same (to the allocator's few bytes of rounding).  A structure that keeps something per packet (the
 * scoreboard's rate history once did: 1.6 B per packet) fails it.  Under
 * AddressSanitizer the allocator is not glibc's and the test is skipped.
 */
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "run/harness.h"

#if defined(__SANITIZE_ADDRESS__)
#define MEM_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEM_SANITIZED 1
#endif
#endif

#ifndef MEM_SANITIZED
#define MEM_SLACK 4096u

/* Heap bytes in use: small blocks and mmap'd ones. */
static size_t heap_in_use(void)
{
    struct mallinfo2 mi = mallinfo2();

    return mi.uordblks + mi.hblkhd;
}

/* Run `packets` cheap 64 B packets; the heap the live simulation holds at
 * the end of its run, above what was in use before it was built. */
static size_t run_heap(uint64_t packets, unsigned pkt_size_max)
{
    struct sim_cfg cfg;
    struct sim_result r;
    char err[256] = "";
    struct sim *s;
    size_t before, held;

    sim_cfg_default(&cfg);
    assert_int_equal(cpu_costs_profile(&cfg.costs, "cheap"), 0);
    cfg.packets = packets;
    cfg.pkt_size = 64;
    cfg.pkt_size_max = pkt_size_max;
    cfg.burst = 32;
    before = heap_in_use();
    s = sim_create(&cfg, &dev_rtl_ops, err, sizeof(err));
    if (!s)
        fail_msg("sim_create: %s", err);
    assert_int_equal(sim_run(s), 0);
    sim_result(s, &r);
    assert_int_equal(r.sb.checked, packets);
    held = heap_in_use() - before;
    sim_destroy(s);
    return held;
}

static void expect_flat(unsigned pkt_size_max)
{
    size_t n1, n10;

    run_heap(1000, pkt_size_max); /* the model's one-time allocations */
    n1 = run_heap(10000, pkt_size_max);
    n10 = run_heap(100000, pkt_size_max);
    print_message("  heap held: %zu B at 10k packets, %zu B at 100k\n", n1, n10);
    assert_true(n1 > 0);
    /* The allocator hands out a whole free chunk when the rest would be too
     * small to keep, so equal requests can differ by a few bytes in use;
     * 90 k more packets at even 0.05 B each would exceed this. */
    assert_true(n10 <= n1 + MEM_SLACK);
}
#else
static void expect_flat(unsigned pkt_size_max)
{
    (void)pkt_size_max;
    skip();
}
#endif

/* Fixed 64 B frames at 10G: the wire-bound default. */
static void test_memory_flat_fixed_size(void **state)
{
    (void)state;
    expect_flat(64);
}

/* Random sizes 64..256: buffers of every length, a wider latency spread. */
static void test_memory_flat_random_sizes(void **state)
{
    (void)state;
    expect_flat(256);
}

int main(void)
{
    /* A fixed mmap threshold: glibc's moves after the first large free,
     * which would put one run's blocks on the heap and another's in
     * mmaps, with different bookkeeping. */
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_flat_fixed_size),
        cmocka_unit_test(test_memory_flat_random_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
