// SPDX-License-Identifier: Apache-2.0
// test_tx_sched.cpp - the transmit scheduler alone (rtl/nictx_tx_sched.sv,
// Verilated with NumQueues 8 and its assertions on), clock by clock.
//
// The testbench plays the descriptor fetcher and the register block: it
// holds each queue's ready and backlog flags and its head's cost, and
// answers the candidate q_o with that queue's head (len_i, bad_i) and
// weight (weight_i), as the engine does combinationally.
//  - Directed tests pin the rules docs/device.md (Queues) gives: RR's
//    rotation and hold; DRR's quantum per unit of weight, its saving up, and
//    what a turn that ends keeps: the deficit when the head costs more,
//    nothing when the queue is empty, the deficit (no new quantum) when its
//    descriptors are still being fetched (backlog) or its head is taken
//    back (flush).
//  - A random test runs the RTL in lockstep with the C model's scheduler
//    (c-model/cm_sched.c, written from those rules), with legal stimulus:
//    a held candidate keeps its head until taken or flushed; the
//    candidate, its valid and the wait output are compared on every clock.
#include "Vnictx_tx_sched.h"
#include "verilated.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

extern "C" { // cmocka 1.1.5's header has no C++ guard
#include <cmocka.h>
#include "cm_sched.h"
}

#include <cstring>

namespace {

constexpr unsigned kQueues = 8; // the -GNumQueues the Makefile verilates with

// What the testbench answers for each queue.
struct world {
    bool rdy[kQueues];      // its next descriptor is in the buffer
    bool backlog[kQueues];  // its ring holds descriptors not yet fetched
    uint16_t len[kQueues];  // its head's frame bytes
    bool bad[kQueues];      // its head is bad (costs 0)
    uint8_t weight[kQueues];
};

struct tb {
    VerilatedContext ctx;
    Vnictx_tx_sched top;
    world w;
    tb() : ctx(), top(&ctx, "sched") {}
};

uint8_t mask_of(const bool *b)
{
    uint8_t m = 0;
    for (unsigned q = 0; q < kQueues; q++)
        m |= (uint8_t)(b[q] ? 1u << q : 0u);
    return m;
}

// Present the world, let the candidate settle, answer it, settle again.
void settle(tb &t, bool take, bool flush)
{
    Vnictx_tx_sched &m = t.top;
    m.rdy_i = mask_of(t.w.rdy);
    m.backlog_i = mask_of(t.w.backlog);
    m.take_i = take;
    m.flush_i = flush;
    m.eval();
    unsigned q = m.q_o;
    m.len_i = t.w.len[q];
    m.bad_i = t.w.bad[q];
    m.weight_i = t.w.weight[q];
    m.eval();
}

void edge(tb &t)
{
    t.top.clk_i = 1;
    t.top.eval();
    t.top.clk_i = 0;
    t.top.eval();
}

void reset(tb &t, bool multi, bool drr, unsigned quantum)
{
    Vnictx_tx_sched &m = t.top;
    std::memset(&t.w, 0, sizeof(t.w));
    for (unsigned q = 0; q < kQueues; q++)
        t.w.weight[q] = 1;
    m.multi_i = multi;
    m.drr_i = drr;
    m.quantum_i = quantum;
    m.take_i = 0;
    m.flush_i = 0;
    m.clk_i = 0;
    m.rst_ni = 1; // an asynchronous reset: a falling edge of rst_ni
    m.eval();
    m.rst_ni = 0;
    m.eval();
    m.rst_ni = 1;
    m.eval();
}

// One clock: settle, and take the candidate if it is valid and `take`.
// Returns the queue whose head left, or -1.
int tick(tb &t, bool take = true)
{
    settle(t, false, false);
    bool go = take && t.top.valid_o;
    int q = go ? (int)t.top.q_o : -1;
    if (go)
        settle(t, true, false);
    edge(t);
    return q;
}

// The queue whose head leaves next.  A scheduler that lets none leave for
// 1000 clocks fails the test (it does not hang it).
int next_head(tb &t)
{
    for (unsigned c = 0; c < 1000; c++) {
        int q = tick(t);
        if (q >= 0)
            return q;
    }
    fail_msg("no head left in 1000 clocks");
    return -1;
}

// Heads until one of queue `stop` leaves (at most 100000): how many of
// them were queue `count`'s.
unsigned heads_until(tb &t, int stop, int count)
{
    unsigned n = 0;
    for (unsigned k = 0; k < 100000; k++) {
        int q = next_head(t);
        if (q == stop)
            return n;
        n += q == count;
    }
    fail_msg("queue %d sent no head in 100000", stop);
    return n;
}

// ---------------------------------------------------------------- C model
// The C model's inputs for this clock: the world, the candidate's head and
// weight answered as settle() answers the RTL.
cm_sched_in model_in(const struct cm_sched &m, const world &w, bool multi, bool drr,
                     unsigned quantum, bool take, bool flush)
{
    cm_sched_in in;
    std::memset(&in, 0, sizeof(in));
    in.multi = multi;
    in.drr = drr;
    in.quantum = quantum;
    in.rdy = mask_of(w.rdy);
    in.backlog = mask_of(w.backlog);
    unsigned q = cm_sched_queue(&m, &in);
    in.len = w.len[q];
    in.bad = w.bad[q];
    in.weight = w.weight[q];
    in.take = take;
    in.flush = flush;
    return in;
}

void compare(const tb &t, const cm_sched_out &o, uint32_t seed, unsigned clock)
{
    const Vnictx_tx_sched &m = t.top;
    if (m.q_o != o.q || m.valid_o != o.valid || m.wait_o != o.wait)
        fail_msg("seed %u clock %u: RTL candidate %u valid %u wait %u, C model %u valid %u wait %u",
                 seed, clock, (unsigned)m.q_o, (unsigned)m.valid_o, (unsigned)m.wait_o, o.q,
                 o.valid, o.wait);
}

// ------------------------------------------------------------------- tests
int setup(void **state)
{
    *state = new tb();
    return 0;
}

int teardown(void **state)
{
    tb *t = static_cast<tb *>(*state);
    t->top.final();
    delete t;
    return 0;
}

// One queue (multi_i low): the candidate is queue 0, valid while it is ready.
void test_sched_single(void **state)
{
    tb &t = *static_cast<tb *>(*state);
    reset(t, false, true, 64);
    t.w.rdy[3] = true;
    settle(t, false, false);
    assert_int_equal(t.top.q_o, 0);
    assert_false(t.top.valid_o);
    t.w.rdy[0] = true;
    t.w.len[0] = 16383; // no deficit in the single-queue engine
    settle(t, false, false);
    assert_int_equal(t.top.q_o, 0);
    assert_true(t.top.valid_o);
}

// RR: one head per queue per turn, in queue order from the pointer; a queue
// not ready is passed over.
void test_sched_rr_rotation(void **state)
{
    tb &t = *static_cast<tb *>(*state);
    static const int want[] = {0, 2, 5, 7, 0, 2, 5, 7, 0, 2};
    reset(t, true, false, 64);
    t.w.rdy[0] = t.w.rdy[2] = t.w.rdy[5] = t.w.rdy[7] = true;
    for (unsigned i = 0; i < 10; i++)
        assert_int_equal(next_head(t), want[i]);
}

// RR: a candidate not taken stays, even when a queue before it becomes
// ready; once taken, the turn passes on from it.
void test_sched_rr_hold(void **state)
{
    tb &t = *static_cast<tb *>(*state);
    reset(t, true, false, 64);
    t.w.rdy[4] = true;
    assert_int_equal(tick(t, false), -1);
    t.w.rdy[1] = true; // the pointer is at 0: queue 1 would come first
    for (unsigned c = 0; c < 3; c++) {
        settle(t, false, false);
        assert_true(t.top.valid_o);
        assert_int_equal(t.top.q_o, 4);
        edge(t);
    }
    assert_int_equal(tick(t), 4);
    assert_int_equal(tick(t), 1);
}

// DRR, weights 1, 2, 3, quantum 1024, heads of 512 B: turns of 2, 4 and 6
// heads, round after round.
void test_sched_drr_weights(void **state)
{
    tb &t = *static_cast<tb *>(*state);
    reset(t, true, true, 1024);
    for (unsigned q = 0; q < 3; q++) {
        t.w.rdy[q] = t.w.backlog[q] = true;
        t.w.weight[q] = (uint8_t)(q + 1);
        t.w.len[q] = 512;
    }
    for (unsigned i = 0; i < 48; i++) {
        unsigned in_round = i % 12;
        int want = in_round < 2 ? 0 : in_round < 6 ? 1 : 2, got = next_head(t);
        if (got != want)
            fail_msg("head %u from queue %d, expected %d", i, got, want);
    }
}

// DRR: a head that costs more than a turn's quantum waits while the queue
// saves up: 3000 B with 1024 a turn leaves on queue 0's third turn (1024,
// 2048, 3072); queue 1 (256 B heads) sends 4 a turn meanwhile, 8 before.
void test_sched_drr_saves_up(void **state)
{
    tb &t = *static_cast<tb *>(*state);
    reset(t, true, true, 1024);
    t.w.rdy[0] = t.w.rdy[1] = t.w.backlog[0] = t.w.backlog[1] = true;
    t.w.len[0] = 3000;
    t.w.len[1] = 256;
    for (unsigned i = 0; i < 13; i++) {
        int got = next_head(t);
        if (got != (i == 8 ? 0 : 1))
            fail_msg("head %u from queue %d", i, got);
    }
}

// A DRR turn on queue 0 (weight 1, quantum 1000, heads of 400 B) sends one
// head, then the queue has no next head ready.  Its next turn, once heads
// are ready again, shows what the end of the first kept: with descriptors
// still being fetched (backlog) the 600 left, so 1600: four heads; empty,
// nothing: 1000, two heads.  Queue 1 (heads of 1000 B) takes the turns
// between.
unsigned drr_second_turn(tb &t, bool backlog)
{
    reset(t, true, true, 1000);
    t.w.rdy[0] = t.w.rdy[1] = t.w.backlog[1] = true;
    t.w.backlog[0] = true;
    t.w.len[0] = 400;
    t.w.len[1] = 1000;
    assert_int_equal(next_head(t), 0);
    t.w.rdy[0] = false; // its next descriptor is not in the buffer yet
    t.w.backlog[0] = backlog;
    assert_int_equal(next_head(t), 1); // queue 0's turn ended, queue 1's began
    t.w.rdy[0] = t.w.backlog[0] = true;
    (void)heads_until(t, 0, -1); // the rest of queue 1's turn
    return 1 + heads_until(t, 1, 0);
}

void test_sched_drr_backlog_keeps_deficit(void **state)
{
    tb &t = *static_cast<tb *>(*state);
    assert_int_equal(drr_second_turn(t, true), 4);
}

void test_sched_drr_empty_drops_deficit(void **state)
{
    tb &t = *static_cast<tb *>(*state);
    assert_int_equal(drr_second_turn(t, false), 2);
}

// What a queue the fetcher starves saves up saturates instead of wrapping:
// queue 0 (weight 255, quantum 65536: 16711680 B a turn, heads of 16000 B)
// has one head ready a turn for 8 turns, its other descriptors still being
// fetched; each turn keeps its deficit, up to 2^25.  Unbounded, 8 turns
// would pass 2^26 (the deficit's width) and wrap.  Then the fetcher catches
// up: its next turn starts with 2^25 + 16711680 and sends 3141 heads.
void test_sched_drr_starved_credit_saturates(void **state)
{
    tb &t = *static_cast<tb *>(*state);
    unsigned turn;
    reset(t, true, true, 65536);
    t.w.rdy[1] = t.w.backlog[0] = t.w.backlog[1] = true;
    t.w.weight[0] = 255;
    t.w.len[0] = 16000;
    t.w.len[1] = 16000;
    for (turn = 0; turn < 8; turn++) {
        t.w.rdy[0] = true;
        (void)heads_until(t, 0, -1);
        t.w.rdy[0] = false; // one head, then its next one is not fetched yet
        (void)heads_until(t, 1, -1); // its turn ends: queue 1's
    }
    t.w.rdy[0] = true;
    (void)heads_until(t, 0, -1); // the rest of queue 1's turn
    assert_int_equal(1 + heads_until(t, 1, 0), ((1u << 25) + 255u * 65536u) / 16000u);
}

// A head taken back (flush_i) ends the DRR turn; the queue keeps what it
// had (its descriptors are still in its ring) and the next ready queue's
// turn begins.
void test_sched_drr_flush_ends_turn(void **state)
{
    tb &t = *static_cast<tb *>(*state);
    reset(t, true, true, 1000);
    t.w.rdy[0] = t.w.rdy[1] = t.w.backlog[0] = t.w.backlog[1] = true;
    t.w.len[0] = t.w.len[1] = 300;
    assert_int_equal(next_head(t), 0);
    settle(t, false, true); // the fetcher takes queue 0's head back
    assert_int_equal(t.top.q_o, 0);
    edge(t);
    t.w.rdy[0] = false;
    assert_int_equal(next_head(t), 1);
}

// Random stimulus against the C model, clock by clock: ready and
// backlog flags that come and go (a held candidate's stay), random costs,
// bad heads, weights and takes, occasional flushes.
void lockstep(tb &t, bool multi, bool drr, uint32_t seed, unsigned clocks)
{
    uint32_t x = seed;
    auto rnd = [&x](unsigned n) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        return x % n;
    };
    unsigned quantum = 64 + rnd(4096);
    cm_sched m;
    assert_int_equal(cm_sched_reset(&m, kQueues), 0);
    reset(t, multi, drr, quantum);
    for (unsigned q = 0; q < kQueues; q++) {
        t.w.weight[q] = (uint8_t)(1 + rnd(rnd(2) ? 4 : 255));
        t.w.len[q] = (uint16_t)(60 + rnd(9000));
    }
    unsigned taken = 0;
    for (unsigned c = 0; c < clocks; c++) {
        cm_sched_out o;
        settle(t, false, false);
        cm_sched_in in = model_in(m, t.w, multi, drr, quantum, false, false);
        cm_sched_eval(&m, &in, &o);
        compare(t, o, seed, c);
        bool take = o.valid && rnd(4) != 0;
        bool flush = !take && t.w.rdy[o.q] && rnd(64) == 0;
        settle(t, take, flush);
        in = model_in(m, t.w, multi, drr, quantum, take, flush);
        cm_sched_eval(&m, &in, &o);
        compare(t, o, seed, c);
        cm_sched_clock(&m, &in);
        edge(t);
        if (take) {
            taken++;
            t.w.len[o.q] = (uint16_t)(60 + rnd(rnd(8) ? 1500 : 16384 - 60));
            t.w.bad[o.q] = rnd(32) == 0;
        }
        if (flush)
            t.w.rdy[o.q] = false;
        // The world moves: a queue's ready flag may change unless it is the
        // candidate that waits (valid, not taken: it holds its head).
        for (unsigned q = 0; q < kQueues; q++) {
            bool held = o.valid && !take && !flush && q == o.q;
            if (!held && rnd(8) == 0)
                t.w.rdy[q] = rnd(4) != 0;
            if (rnd(8) == 0)
                t.w.backlog[q] = rnd(2);
        }
    }
    // The stimulus kept the scheduler busy: most clocks moved a head.
    assert_true(taken > clocks / 4);
}

void test_sched_lockstep_rr(void **state)
{
    tb &t = *static_cast<tb *>(*state);
    for (uint32_t seed = 1; seed <= 3; seed++)
        lockstep(t, true, false, seed, 20000);
}

void test_sched_lockstep_drr(void **state)
{
    tb &t = *static_cast<tb *>(*state);
    for (uint32_t seed = 1; seed <= 6; seed++)
        lockstep(t, true, true, seed, 20000);
}

// One queue (multi_i low): the single-queue engine's scheduler, with the
// other queues' flags and a DRR setting it must ignore.  (multi_i changes
// only across a queue reset, which resets the scheduler: QUEUES is written
// between a reset and the next enable.)
void test_sched_lockstep_single(void **state)
{
    tb &t = *static_cast<tb *>(*state);
    lockstep(t, false, true, 1, 20000);
}

} // namespace

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sched_single, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sched_rr_rotation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sched_rr_hold, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sched_drr_weights, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sched_drr_saves_up, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sched_drr_backlog_keeps_deficit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sched_drr_empty_drops_deficit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sched_drr_starved_credit_saturates, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sched_drr_flush_ends_turn, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sched_lockstep_rr, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sched_lockstep_drr, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sched_lockstep_single, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
