// SPDX-License-Identifier: Apache-2.0
// test_cpl.cpp - the C model's completion and interrupt logic
// (c-model/cm_cpl.c) in lockstep with rtl/nictx_cpl.sv, Verilated alone
// with its assertions at NumQueues 8, with one queue (multi_i low) and with
// eight.
//
// The testbench plays the register block and the engine around the block:
// each queue's ring, tail, WB_ADDR, CQ and MSI-X vector, answered for the
// completing queue (c_*) and for the queue whose write goes out (w_*) as
// the engine answers them; doorbells that move tails ahead; completions
// only on queues with descriptors outstanding; the link taking writes when
// it likes; vectors masked and unmasked; the simulator leaving out clocks
// within wake_o while the block waits.  Each seed has its completion mode,
// WB_THRESH, IRQ_THRESH, IRQ_TIMER and MPS_LOG2.  Every output is compared on every
// clock.
#include "Vnictx_cpl_q8.h"
#include "common/lockstep.h"
#include "common/rtl_bundles.h"
#include "verilated.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

extern "C" { // cmocka 1.1.5's header has no C++ guard
#include <cmocka.h>
#include "cm_cpl.h"
}

#include <cstring>

namespace {

using lockstep::rng;

constexpr unsigned kQueues = 8; // the -GNumQueues the Makefile verilates with

// The register block's per-queue state, and what the test tracks.
struct regs {
    unsigned ring_log2[kQueues], tail[kQueues], head[kQueues], cq_log2[kQueues];
    uint64_t ring_base[kQueues], wb_addr[kQueues], cq_base[kQueues], msix_addr[kQueues];
    uint32_t msix_data[kQueues];
};

void regs_init(regs &g, rng &r, bool multi)
{
    std::memset(&g, 0, sizeof(g));
    for (unsigned q = 0; q < kQueues; q++) {
        g.ring_log2[q] = 3 + r(6);
        g.cq_log2[q] = g.ring_log2[q];
        g.ring_base[q] = 0x100000000ull + 0x100000ull * q;
        // Queue 3 reports nothing by HEAD_WB or CQ (its address 0).
        g.wb_addr[q] = q == 3 && multi ? 0 : 0x200000000ull + 0x1000ull * q + (r(2) ? 4 : 0);
        g.cq_base[q] = q == 3 && multi ? 0 : 0x300000000ull + 0x10000ull * q;
        g.msix_addr[q] = 0xFEE00000ull + 16 * q + (r(2) ? 4 : 0);
        g.msix_data[q] = 0x40 + q;
    }
}

// This clock's inputs but the w_* (answered once the queue is known).
void inputs(cm_cpl_in &in, regs &g, rng &r, bool multi)
{
    const unsigned nq = multi ? kQueues : 1;
    // Doorbells: tails move ahead, never a whole ring.
    for (unsigned q = 0; q < nq; q++)
        if (r(16) == 0) {
            const unsigned size = 1u << g.ring_log2[q], mask = size - 1;
            const unsigned out = (g.tail[q] - g.head[q]) & mask, add = 1 + r(8);
            if (out + add < size)
                g.tail[q] = (g.tail[q] + add) & mask;
        }
    // A completion on a queue with descriptors outstanding.
    in.pkt_done = false;
    if (r(3) == 0) {
        const unsigned q = r(nq);
        if (g.head[q] != g.tail[q]) {
            in.pkt_done = true;
            in.pkt_q = q;
        }
    }
    if (!in.pkt_done)
        in.pkt_q = r(nq);
    const unsigned q = in.pkt_q;
    in.c_ring_log2 = g.ring_log2[q];
    in.c_tail = g.tail[q];
    in.c_wb_addr = g.wb_addr[q];
    in.c_cq_base = g.cq_base[q];
    in.hr_q = r(nq);
    in.ring_log2 = g.ring_log2[0];
    in.tail = g.tail[0];
    in.ring_base = g.ring_base[0];
    in.cq_base = g.cq_base[0];
    in.cq_log2 = g.cq_log2[0];
    in.wb_addr = g.wb_addr[0];
    in.irq_addr = g.msix_addr[0];
    in.irq_data = g.msix_data[0];
    in.wr_ready = r(4) != 0;
    if (r(300) == 0)
        in.msix_mask ^= 1ull << r(nq);
}

void answer_w(cm_cpl_in &in, const regs &g, unsigned q)
{
    in.w_wb_addr = g.wb_addr[q];
    in.w_ring_base = g.ring_base[q];
    in.w_ring_log2 = g.ring_log2[q];
    in.w_cq_base = g.cq_base[q];
    in.w_cq_log2 = g.cq_log2[q];
    in.w_msix_addr = g.msix_addr[q];
    in.w_msix_data = g.msix_data[q];
}

void drive(Vnictx_cpl_q8 &t, const cm_cpl_in &in)
{
    t.multi_i = in.multi;
    t.pkt_q_i = in.pkt_q;
    bundles::put_q_cpl(t.c_cfg_i, in.c_ring_log2, in.c_tail, in.c_wb_addr, in.c_cq_base);
    bundles::put_q_wr(t.w_cfg_i, in.w_wb_addr, in.w_ring_base, in.w_ring_log2, in.w_cq_base,
                      in.w_cq_log2, in.w_msix_addr, in.w_msix_data);
    t.msix_mask_i = (uint8_t)in.msix_mask;
    t.hr_q_i = in.hr_q;
    t.ring_log2_i = in.ring_log2;
    t.tail_i = in.tail;
    t.pkt_done_i = in.pkt_done;
    t.cpl_mode_i = in.cpl_mode;
    t.ring_base_i = in.ring_base;
    t.cq_base_i = in.cq_base;
    t.cq_log2_i = in.cq_log2;
    t.wb_thresh_i = in.wb_thresh;
    t.mps_log2_i = in.mps_log2;
    t.wb_addr_i = in.wb_addr;
    t.irq_thresh_i = in.irq_thresh;
    t.irq_timer_i = in.irq_timer;
    t.irq_addr_i = in.irq_addr;
    t.irq_data_i = in.irq_data;
    t.wr_ready_i = in.wr_ready;
    t.skip_i = in.skip;
    t.eval();
}

void compare(const Vnictx_cpl_q8 &t, const cm_cpl_out &o, bool multi, uint32_t seed,
             unsigned clock)
{
    const bundles::cpl_wr wr = bundles::get_cpl_wr(t.wr_o);
    const bool ok = t.c_q_o == o.c_q && t.w_q_o == o.w_q && t.pba_o == o.pba &&
                    t.hr_head_o == o.hr_head && t.head_o == o.head &&
                    t.wr_valid_o == o.wr_valid && wr.addr == o.wr_addr &&
                    wr.data == o.wr_data && wr.len == o.wr_len &&
                    t.timer_o == o.timer && t.wait_o == o.wait && t.wake_o == o.wake &&
                    t.idle_o == o.idle;
    if (!ok)
        fail_msg("multi %u seed %u clock %u: RTL w_q %u pba %llx hr %u head %u wr %u %llx %llx "
                 "%u timer %u wait %u wake %u idle %u; model w_q %u pba %llx hr %u head %u wr "
                 "%u %llx %llx %u timer %u wait %u wake %u idle %u",
                 multi, seed, clock, t.w_q_o, (unsigned long long)t.pba_o, t.hr_head_o,
                 t.head_o, t.wr_valid_o, (unsigned long long)wr.addr,
                 (unsigned long long)wr.data, wr.len, t.timer_o, t.wait_o, t.wake_o,
                 t.idle_o, o.w_q, (unsigned long long)o.pba, o.hr_head, o.head, o.wr_valid,
                 (unsigned long long)o.wr_addr, (unsigned long long)o.wr_data, o.wr_len,
                 o.timer, o.wait, o.wake, o.idle);
}

void lockstep_run(bool multi, uint32_t seed, unsigned clocks)
{
    auto *ctx = new VerilatedContext();
    auto *t = new Vnictx_cpl_q8(ctx, "cpl");
    auto *c = new cm_cpl();
    regs g;
    cm_cpl_in in;
    cm_cpl_out o;
    rng r(seed);
    unsigned writes = 0, irqs = 0, skipped = 0;

    assert_int_equal(cm_cpl_reset(c, kQueues), 0);
    regs_init(g, r, multi);
    std::memset(&in, 0, sizeof(in));
    in.multi = multi;
    // Per seed (1..8): the mode (seed mod 4), and WB_THRESH, IRQ_THRESH and
    // IRQ_TIMER such that every mode runs with the threshold and with the
    // timer, and completion writes off once.
    static const unsigned wb_t[] = {4, 1, 16, 4, 16, 4, 1, 0}, irq_t[] = {8, 0, 1, 0, 0, 8, 1, 8};
    static const uint32_t timer[] = {0, 150, 0, 250, 100, 0, 80, 0};
    in.cpl_mode = seed % 4; // (3: DESC_WB_FULL, its writes cut at an MPS of 128..4096)
    in.mps_log2 = 7 + r(6);
    in.wb_thresh = wb_t[(seed - 1) % 8];
    in.irq_thresh = irq_t[(seed - 1) % 8];
    in.irq_timer = timer[(seed - 1) % 8] ? timer[(seed - 1) % 8] + r(100) : 0;
    lockstep::reset(*t);
    for (unsigned k = 0; k < clocks; k++) {
        inputs(in, g, r, multi);
        answer_w(in, g, cm_cpl_wq(c, &in));
        drive(*t, in);
        cm_cpl_eval(c, &in, &o);
        compare(*t, o, multi, seed, k);
        cm_cpl_clock(c, &in);
        lockstep::edge(*t);
        if (in.pkt_done)
            g.head[in.pkt_q] = (g.head[in.pkt_q] + 1) & ((1u << g.ring_log2[in.pkt_q]) - 1);
        if (o.wr_valid && in.wr_ready) {
            writes++;
            irqs += (o.wr_addr & ~0xFFFull) == 0xFEE00000ull;
        }
        // The simulator leaves out clocks while the block waits: up to
        // wake_o less this clock's skip.
        const uint32_t cur = in.skip;
        in.skip = 0;
        if (o.wait && r(3) == 0) {
            uint32_t room = o.wake == 0xFFFFFFu ? 300 : o.wake > cur ? o.wake - cur : 0;
            room = room > 300 ? 300 : room;
            if (room > 0) {
                in.skip = 1 + r(room);
                skipped += in.skip;
            }
        }
    }
    // Writes went out (interrupts too, when they are on).
    assert_true(in.wb_thresh == 0 || writes > clocks / 200);
    assert_true((in.irq_thresh == 0 && in.irq_timer == 0) || irqs > 0);
    assert_true(skipped > 0);
    t->final();
    delete c;
    delete t;
    delete ctx;
}

void test_cpl_lockstep_single(void **state)
{
    (void)state;
    for (uint32_t seed = 1; seed <= 8; seed++)
        lockstep_run(false, seed, 50000);
}

void test_cpl_lockstep_queues(void **state)
{
    (void)state;
    for (uint32_t seed = 1; seed <= 8; seed++)
        lockstep_run(true, seed, 50000);
}

void test_cm_cpl_sizes(void **state)
{
    (void)state;
    auto *c = new cm_cpl();
    assert_int_equal(cm_cpl_reset(c, 0), -1);
    assert_int_equal(cm_cpl_reset(c, 12), -1);
    assert_int_equal(cm_cpl_reset(c, 128), -1);
    assert_int_equal(cm_cpl_reset(c, 64), 0);
    delete c;
}

} // namespace

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cm_cpl_sizes),
        cmocka_unit_test(test_cpl_lockstep_single),
        cmocka_unit_test(test_cpl_lockstep_queues),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
