/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_stbuf.c - the store buffer and WC buffers (sim/host/stbuf.h): when stores
 * become visible under x86 and weak ordering, what barriers wait for, and
 * how write-combining lines drain.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "host/stbuf.h"

#define BASE 0x100000000ull
#define NS   1000ull /* ps */

static uint8_t mem[4096];

/* What a DMA read of [off, off + 8) arriving at t sees. */
static uint64_t dev_read64(const struct stbuf *b, uint64_t off, sim_ps_t t)
{
    uint8_t buf[8];
    uint64_t v;

    memcpy(buf, mem + off, 8);
    stbuf_device_view(b, BASE + off, buf, 8, t);
    memcpy(&v, buf, 8);
    return v;
}

static void init(struct stbuf *b, enum stbuf_order o, unsigned window, uint64_t seed)
{
    struct stbuf_cfg c;

    memset(&c, 0, sizeof(c));
    c.order = o;
    c.window = window;
    c.capacity = 8;
    c.hit_ns = 2;
    c.miss_ns = 20;
    c.wc_drain_max_ns = 100;
    c.seed = seed;
    c.mem_base = BASE;
    c.mem_size = sizeof(mem);
    assert_int_equal(stbuf_init(b, &c), 0);
    memset(mem, 0, sizeof(mem));
}

static sim_ps_t store64(struct stbuf *b, uint64_t off, uint64_t v, sim_ps_t now)
{
    return stbuf_store(b, BASE + off, mem + off, &v, 8, now);
}

/* x86: visible in program order; the first store to a line the CPU does
 * not hold pays the miss; an MMIO write waits for every earlier store. */
static void test_stbuf_x86_in_order(void **state)
{
    struct stbuf b;
    sim_ps_t v1, v2, v3;

    (void)state;
    init(&b, STBUF_X86, 8, 1);
    v1 = store64(&b, 0, 1, 0);          /* miss: line never owned */
    v2 = store64(&b, 64, 2, 1 * NS);    /* miss, other line */
    v3 = store64(&b, 8, 3, 2 * NS);     /* hit: line 0 now owned */
    assert_int_equal(v1, 20 * NS);
    assert_int_equal(v2, 21 * NS);      /* not before v1 + 1: issue + 20 */
    assert_int_equal(v3, 21 * NS);      /* a hit, held behind v2 (in order) */
    assert_int_equal(stbuf_mmio_depart(&b, 3 * NS), 21 * NS);
    assert_int_equal(stbuf_drained_at(&b, 3 * NS), 21 * NS);
    /* The CPU sees its stores at once; the device only once visible. */
    assert_int_equal(mem[64], 2);
    assert_int_equal(dev_read64(&b, 0, 19 * NS), 0);
    assert_int_equal(dev_read64(&b, 0, 20 * NS), 1);
    assert_int_equal(dev_read64(&b, 64, 20 * NS), 0);
    assert_int_equal(dev_read64(&b, 64, 21 * NS), 2);
    assert_int_equal(dev_read64(&b, 8, 21 * NS), 3);
    stbuf_retire(&b, 20 * NS);
    assert_int_equal(b.npend, 2);
    stbuf_retire(&b, 21 * NS);
    assert_int_equal(b.npend, 0);
    assert_int_equal(dev_read64(&b, 64, 0), 2); /* retired: visible to all */
    stbuf_destroy(&b);
}

/* The device touching a line takes it away from the CPU: the next store
 * to it misses again. */
static void test_stbuf_snoop_miss(void **state)
{
    struct stbuf b;

    (void)state;
    init(&b, STBUF_X86, 8, 1);
    store64(&b, 0, 1, 0);
    assert_int_equal(store64(&b, 8, 1, 100 * NS), 102 * NS);
    stbuf_snoop(&b, BASE + 16, 16);
    assert_int_equal(store64(&b, 0, 1, 200 * NS), 220 * NS);
    assert_int_equal(b.st.misses, 2);
    /* Boundaries: one byte, the last of the line, is enough; a snoop of
     * nothing, or of the next line only, leaves the line with the CPU;
     * a snoop across a line boundary takes both lines. */
    stbuf_snoop(&b, BASE + 63, 1);
    assert_int_equal(store64(&b, 0, 1, 300 * NS), 320 * NS);
    stbuf_snoop(&b, BASE + 0, 0);
    stbuf_snoop(&b, BASE + 64, 1);
    assert_int_equal(store64(&b, 0, 1, 400 * NS), 402 * NS);
    store64(&b, 64, 1, 500 * NS);
    stbuf_snoop(&b, BASE + 60, 8);
    assert_int_equal(store64(&b, 0, 1, 600 * NS), 620 * NS);
    assert_int_equal(store64(&b, 64, 1, 700 * NS), 720 * NS);
    assert_int_equal(b.st.misses, 6);
    stbuf_destroy(&b);
}

/* Weak: stores may become visible out of program order, but never more
 * than `window` stores late, and same-word stores stay in order; the MMIO
 * write does not wait.  Over many seeds both orders occur. */
static void test_stbuf_weak_reorders_within_window(void **state)
{
    unsigned seed, reordered = 0;

    (void)state;
    for (seed = 1; seed <= 64; seed++) {
        struct stbuf b;
        sim_ps_t v[16], maxv = 0;
        unsigned i, j;
        init(&b, STBUF_WEAK, 4, seed);
        for (i = 0; i < 16; i++) {
            v[i] = store64(&b, 8 * i, i, i * NS);
            if (v[i] > maxv)
                maxv = v[i];
        }
        for (i = 0; i + 4 < 16; i++)
            for (j = i + 4; j < 16; j++)
                assert_true(v[i] <= v[j]); /* window: no store 4+ later overtakes */
        for (i = 0; i + 1 < 16; i++)
            reordered += v[i] > v[i + 1];
        assert_int_equal(stbuf_mmio_depart(&b, 16 * NS), 16 * NS);
        assert_int_equal(stbuf_drained_at(&b, 16 * NS), maxv);
        /* Same word: a later store is never visible before an earlier one. */
        {
            uint64_t before = dev_read64(&b, 0, 16 * NS);
            sim_ps_t a = store64(&b, 0, 7, 17 * NS), c = store64(&b, 0, 8, 18 * NS);
            assert_true(c >= a);
            /* Both invisible: the device sees the value before the first. */
            if (a > 18 * NS)
                assert_int_equal(dev_read64(&b, 0, 18 * NS), before);
            assert_int_equal(dev_read64(&b, 0, c), 8);
        }
        stbuf_destroy(&b);
    }
    assert_true(reordered > 0);
}

/* A full store buffer: room only when the oldest-visible entry drains. */
static void test_stbuf_capacity(void **state)
{
    struct stbuf b;
    unsigned i;
    sim_ps_t last = 0;

    (void)state;
    init(&b, STBUF_X86, 8, 1);
    for (i = 0; i < 8; i++)
        last = store64(&b, 64 * i, i, 0); /* 8 misses, visible at 20 ns */
    assert_int_equal(last, 20 * NS);
    assert_int_equal(stbuf_room_at(&b, 1 * NS), 20 * NS);
    assert_int_equal(stbuf_room_at(&b, 20 * NS), 20 * NS);
    stbuf_destroy(&b);
}

/* Weak: stores become visible out of program order, and the buffer keeps
 * them in visibility order: with it full, room comes when the earliest
 * visible store drains, not the oldest in program order.  Over seeds where
 * the first store is not the first visible. */
static void test_stbuf_weak_full_room_at_earliest_visible(void **state)
{
    unsigned seed, out_of_order = 0;

    (void)state;
    for (seed = 1; seed <= 64; seed++) {
        struct stbuf b;
        sim_ps_t v, minv = ~(sim_ps_t)0, first = 0;
        unsigned i;
        init(&b, STBUF_WEAK, 4, seed);
        for (i = 0; i < 8; i++) {
            v = store64(&b, 64 * i, i, i * NS); /* 8 lines: misses, none visible by 20 ns */
            if (i == 0)
                first = v;
            if (v < minv)
                minv = v;
        }
        assert_true(minv >= 20 * NS);
        out_of_order += minv < first;
        assert_int_equal(stbuf_room_at(&b, 8 * NS), minv);
        stbuf_destroy(&b);
    }
    assert_true(out_of_order > 0);
}

/* Pending stores are found by address range and time. */
static void test_stbuf_pending(void **state)
{
    struct stbuf b;
    sim_ps_t vis;

    (void)state;
    init(&b, STBUF_X86, 8, 1);
    store64(&b, 32, 5, 0);
    assert_true(stbuf_pending(&b, BASE + 36, 4, 10 * NS, &vis));
    assert_int_equal(vis, 20 * NS);
    assert_false(stbuf_pending(&b, BASE + 40, 8, 10 * NS, NULL));
    assert_false(stbuf_pending(&b, BASE + 32, 8, 20 * NS, NULL));
    stbuf_destroy(&b);
}

/* smp_wmb's drain: the stores to driver state (STBUF_CPU_KEY) alone, not a
 * later-visible descriptor store. */
static void test_stbuf_drained_cpu_only(void **state)
{
    struct stbuf b;
    uint32_t flag = 0, one = 1;

    (void)state;
    init(&b, STBUF_X86, 8, 1);
    sim_ps_t desc = store64(&b, 64, 7, 0); /* a miss: visible at 20 ns */
    assert_int_equal(stbuf_drained_cpu_at(&b, 0), 0); /* no driver state yet */
    sim_ps_t st = stbuf_store(&b, STBUF_CPU_KEY(&flag), &flag, &one, 4, 30 * NS);
    assert_true(st > desc);
    assert_int_equal(stbuf_drained_cpu_at(&b, 30 * NS), st);
    assert_int_equal(stbuf_drained_at(&b, 30 * NS), st);
    assert_int_equal(stbuf_drained_cpu_at(&b, st), st);
    stbuf_destroy(&b);
    init(&b, STBUF_X86, 8, 1);
    stbuf_store(&b, STBUF_CPU_KEY(&flag), &flag, &one, 4, 0);
    desc = store64(&b, 128, 7, 0);
    assert_true(stbuf_drained_cpu_at(&b, 0) < desc); /* the descriptor is not waited for */
    assert_int_equal(stbuf_drained_at(&b, 0), desc);
    stbuf_destroy(&b);
}

/* What another CPU sees of driver state at t: its bytes with this
 * buffer's invisible stores to it undone. */
static uint32_t cpu_read32(const struct stbuf *b, const uint32_t *p, sim_ps_t t)
{
    uint32_t v = *p;

    stbuf_device_view(b, STBUF_CPU_KEY(p), (uint8_t *)&v, 4, t);
    return v;
}

/* The view of a bus address and of driver state each undo their own kind
 * of store only, whichever kinds are pending, until the stores retire. */
static void test_stbuf_view_by_kind(void **state)
{
    struct stbuf b;
    uint32_t flag = 5, one = 1;
    sim_ps_t desc, st;

    (void)state;
    init(&b, STBUF_X86, 8, 1);
    desc = store64(&b, 0, 7, 0);                  /* a descriptor: visible at 20 ns */
    assert_int_equal(cpu_read32(&b, &flag, 0), 5); /* no driver state pending */
    st = stbuf_store(&b, STBUF_CPU_KEY(&flag), &flag, &one, 4, 30 * NS); /* after desc */
    assert_int_equal(flag, 1);                     /* the CPU sees its store */
    assert_int_equal(cpu_read32(&b, &flag, st - 1), 5);
    assert_int_equal(cpu_read32(&b, &flag, st), 1);
    assert_int_equal(dev_read64(&b, 0, desc - 1), 0);
    stbuf_retire(&b, desc);                        /* the descriptor leaves */
    assert_int_equal(dev_read64(&b, 0, desc - 1), 7);
    assert_int_equal(cpu_read32(&b, &flag, st - 1), 5); /* the flag's store stays */
    stbuf_retire(&b, st);
    assert_int_equal(cpu_read32(&b, &flag, 0), 1);
    desc = store64(&b, 8, 9, st);                  /* only a descriptor pending */
    assert_int_equal(dev_read64(&b, 8, desc - 1), 0);
    assert_int_equal(cpu_read32(&b, &flag, 0), 1);
    stbuf_destroy(&b);
}

/* WC: a full line drains as one piece after a seeded delay; a flush sends
 * a partial line as one piece per run of written bytes; a store into a full
 * undrained line merges (and says so). */
static void test_stbuf_wc_lines(void **state)
{
    struct stbuf b;
    const struct stbuf_wc_line *w;
    unsigned k;

    (void)state;
    init(&b, STBUF_X86, 8, 3);
    for (k = 0; k < 64; k += 8)
        assert_int_equal(stbuf_wc_store(&b, 0x200 + k, k, 0), 0);
    assert_true(stbuf_wc_next(&b) <= 100 * NS);
    assert_null(stbuf_wc_peek(&b));
    /* Unfenced: the next copy to the same line merges into it. */
    assert_int_equal(stbuf_wc_store(&b, 0x200, 1, 0), 1);
    assert_int_equal(b.st.wc_merges, 1);
    assert_int_equal(stbuf_wc_next(&b), SIM_PS_NEVER); /* partial again */
    stbuf_wc_store(&b, 0x210, 2, 0);
    stbuf_wc_flush(&b, 5 * NS);
    w = stbuf_wc_peek(&b);
    assert_non_null(w);
    assert_int_equal(w->off, 0x200);
    assert_int_equal(w->written, 8);
    assert_int_equal(w->due, 5 * NS);
    stbuf_wc_pop(&b);
    w = stbuf_wc_peek(&b);
    assert_non_null(w);
    assert_int_equal(w->off, 0x210);
    stbuf_wc_pop(&b);
    assert_null(stbuf_wc_peek(&b));
    /* A full line collected at its due time is one 64-byte piece. */
    for (k = 0; k < 64; k += 8)
        stbuf_wc_store(&b, 0x300 + k, k, 10 * NS);
    stbuf_wc_collect(&b, stbuf_wc_next(&b));
    w = stbuf_wc_peek(&b);
    assert_non_null(w);
    assert_int_equal(w->off, 0x300);
    assert_int_equal(w->written, 64);
    stbuf_destroy(&b);
}

/* A store the caller writes after the call (data NULL: instrumented driver
 * code announces it first), and a barrier that makes every pending store
 * visible at its own time instead of waiting (stbuf_clamp: the lane of
 * plain stores to driver state, sim/run/plain_access.c). */
static void test_stbuf_clamp(void **state)
{
    struct stbuf b;
    uint64_t v = 5;
    sim_ps_t v1, v2, v3;

    (void)state;
    init(&b, STBUF_WEAK, 8, 3);
    mem[16] = 0x7e;
    v1 = stbuf_store(&b, BASE + 16, mem + 16, NULL, 8, 0);
    assert_int_equal(mem[16], 0x7e); /* not written by the call */
    memcpy(mem + 16, &v, 8);         /* the store itself, made after */
    v2 = store64(&b, 128, 6, 1 * NS);
    v3 = store64(&b, 256, 7, 2 * NS);
    assert_true(v1 > 3 * NS && v2 > 3 * NS && v3 > 3 * NS); /* misses: 20 ns */
    assert_int_equal(dev_read64(&b, 16, 3 * NS), 0x7e);      /* the old bytes */
    stbuf_clamp(&b, 3 * NS);
    assert_int_equal(dev_read64(&b, 16, 3 * NS), 5);
    assert_int_equal(dev_read64(&b, 128, 3 * NS), 6);
    assert_int_equal(dev_read64(&b, 256, 3 * NS), 7);
    assert_int_equal(dev_read64(&b, 256, 2 * NS), 0); /* not before the barrier */
    assert_true(stbuf_drained_at(&b, 3 * NS) <= 3 * NS);
    /* Sorted by visibility still: retiring at the barrier empties it. */
    stbuf_retire(&b, 3 * NS);
    assert_int_equal(b.npend, 0);
    /* A store after the barrier is not clamped by it. */
    assert_true(store64(&b, 384, 8, 4 * NS) > 4 * NS);
    stbuf_destroy(&b);
}

/* ------------------------------------------- long runs without retirement */

/* The scans the store buffer did before it kept its pending stores
 * searchable (issue 33): every pending store, on every call. */
static sim_ps_t ref_room_at(const struct stbuf *b, sim_ps_t now)
{
    size_t i, busy = 0;

    for (i = 0; i < b->npend; i++)
        if (b->pend[i].vis > now)
            busy++;
    return busy < b->cfg.capacity ? now : b->pend[b->npend - busy].vis;
}

/* The weak floor a new store of [addr, addr + len) must meet, from every
 * pending store (the slide of the window done as stbuf_store does it). */
static sim_ps_t ref_weak_floor(const struct stbuf *b, uint64_t addr, unsigned len)
{
    sim_ps_t floor = b->win_floor;
    unsigned slot = (unsigned)(b->seq % b->cfg.window);

    if (b->seq >= b->cfg.window && b->win[slot] > floor)
        floor = b->win[slot];
    for (size_t i = 0; i < b->npend; i++)
        if (b->pend[i].vis > floor && b->pend[i].addr < addr + len &&
            addr < b->pend[i].addr + b->pend[i].len)
            floor = b->pend[i].vis;
    return floor;
}

/* Random stores (both orderings, every window size, sizes 1..8 at any
 * byte), retirements at random times and room queries: stbuf_room_at is
 * the full scan's answer, and a weak store is never visible before the
 * full scan's floor (the ordering it must keep).  The buffer's own floor
 * search looks only at the last `window` stores. */
static void test_stbuf_matches_full_scan(void **state)
{
    uint64_t rng = 33;

    (void)state;
    for (unsigned run = 0; run < 64; run++) {
        struct stbuf b;
        sim_ps_t now = 0, retired = 0;
        enum stbuf_order o = run & 1 ? STBUF_WEAK : STBUF_X86;
        unsigned window = 1 + run % STBUF_WINDOW_MAX;

        init(&b, o, window, run + 1);
        b.cfg.capacity = 1 + run % 24;
        for (unsigned i = 0; i < 3000; i++) {
            uint64_t r = rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            unsigned len = 1 + (unsigned)(r >> 33) % 8;
            uint64_t off = (r >> 40) % (sizeof(mem) / 8 - 1) * 8 + (r >> 20) % 8;
            uint64_t v = r;
            sim_ps_t floor = o == STBUF_WEAK ? ref_weak_floor(&b, BASE + off, len) : 0;
            sim_ps_t vis;

            if ((r >> 12) % 4 == 0)
                now += (r >> 50) % (40 * NS);
            assert_int_equal(stbuf_room_at(&b, now), ref_room_at(&b, now));
            vis = stbuf_store(&b, BASE + off, mem + off, &v, len, now);
            assert_true(vis >= floor);
            if ((r >> 8) % 16 == 0) {
                /* A device access retires what is visible by its time. */
                sim_ps_t t = retired + (r >> 44) % (60 * NS);
                if (t > retired) {
                    stbuf_retire(&b, t);
                    retired = t;
                }
            }
        }
        stbuf_destroy(&b);
    }
}

/* CPU seconds since `t0` (clock()). */
static double cpu_s_since(clock_t t0)
{
    return (double)(clock() - t0) / CLOCKS_PER_SEC;
}

/*
 * A queue reset clears its rings while the device reads nothing: 2^19
 * stores, none retired, each after a room check, in both orderings.  Each
 * store costs a binary search (room) and at most `window` entries (weak
 * floor), so the run takes a fraction of a second.  The full scans took
 * time quadratic in the stores (63 queues of 4096 descriptors: 17 s for
 * x86 and 25 s for weak ordering); at 2^19 stores, about 10^11 entry
 * visits.  The budget, 5 CPU seconds, is checked every 4096 stores, so a
 * quadratic buffer fails here within seconds, not hours.
 */
static void test_stbuf_long_run_stays_linear(void **state)
{
    static const enum stbuf_order orders[] = {STBUF_X86, STBUF_WEAK};

    (void)state;
    for (unsigned k = 0; k < 2; k++) {
        struct stbuf b;
        sim_ps_t now = 0;
        clock_t t0 = clock();

        init(&b, orders[k], STBUF_WINDOW_MAX, 7);
        b.cfg.capacity = 1u << 30; /* never full: every check scans */
        for (unsigned i = 0; i < (1u << 19); i++) {
            uint64_t off = (i * 8u) % sizeof(mem);
            now += 1 * NS;
            assert_int_equal(stbuf_room_at(&b, now), now);
            (void)store64(&b, off, i, now);
            if (i % 4096 == 4095 && cpu_s_since(t0) > 5.0)
                fail_msg("%s: %u stores took %.1f CPU s: quadratic", k ? "weak" : "x86", i + 1,
                         cpu_s_since(t0));
        }
        assert_int_equal(b.npend, 1u << 19);
        stbuf_destroy(&b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stbuf_x86_in_order),
        cmocka_unit_test(test_stbuf_drained_cpu_only),
        cmocka_unit_test(test_stbuf_view_by_kind),
        cmocka_unit_test(test_stbuf_snoop_miss),
        cmocka_unit_test(test_stbuf_weak_reorders_within_window),
        cmocka_unit_test(test_stbuf_capacity),
        cmocka_unit_test(test_stbuf_weak_full_room_at_earliest_visible),
        cmocka_unit_test(test_stbuf_pending),
        cmocka_unit_test(test_stbuf_wc_lines),
        cmocka_unit_test(test_stbuf_clamp),
        cmocka_unit_test(test_stbuf_matches_full_scan),
        cmocka_unit_test(test_stbuf_long_run_stays_linear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
