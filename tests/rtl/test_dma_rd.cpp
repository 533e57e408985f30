// SPDX-License-Identifier: Apache-2.0
// test_dma_rd.cpp - the C model's DMA read engine (c-model/cm_dma_rd.c) in
// lockstep with rtl/nictx_dma_rd.sv, Verilated alone with its assertions:
// at the engine's sizes (256 tags, DataBytes 8, 15-bit pointers) and with
// 32 tags at DataBytes 64, so tags run out and tag numbers above the pool
// arrive.
//
// The testbench plays the neighbours with random legal behaviour:
//  - two requesters (payload and descriptors) offer reads at any address,
//    each held until taken;
//  - the link takes MRds when it likes;
//  - a root complex answers each MRd with completions split at 64-byte
//    boundaries, in address order per MRd, interleaved across MRds a TLP at
//    a time, some with an error status, now and then one MRd held back
//    long enough for the completion timeout; with nothing outstanding, a
//    stray completion for any tag (unexpected);
//  - the simulator leaves out clocks within wake_o while the engine waits.
// The MAX_TAGS and byte-budget limits and MRRS vary by run.  Every output
// is compared on every clock, and each requester's reads must retire in
// order, with an error exactly when a completion of theirs had one.
#include "Vnictx_dma_rd_t256w8.h"
#include "Vnictx_dma_rd_t32w64.h"
#include "common/lockstep.h"
#include "common/rtl_bundles.h"
#include "verilated.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

extern "C" { // cmocka 1.1.5's header has no C++ guard
#include <cmocka.h>
#include "cm_dma_rd.h"
}

#include <cstring>
#include <deque>
#include <vector>

namespace {

using lockstep::put;
using lockstep::rng;
using lockstep::same;
using lockstep::host_byte;

constexpr unsigned kPtrW = 15; // the engine's buffer pointers (32 KiB)




struct cpl { // a completion TLP still to send
    uint64_t addr;
    unsigned len;
    bool err;
};

struct mrd { // an MRd the root complex took
    unsigned tag, read;  // its tag; the read it belongs to (per requester, in order)
    bool dest;
    std::deque<cpl> cpls; // in address order
    unsigned hold;        // clocks it is held back
};

struct bench {
    rng r{0};
    unsigned w;
    cm_dma_rd_in in;
    uint8_t data[64];
    bool offered[2] = {false, false};
    std::deque<mrd> mrds;        // outstanding at the root complex
    // The beat stream of the completion TLP being sent.
    bool sending = false;
    unsigned s_tag = 0, s_beat = 0, s_beats = 0;
    cpl s_cpl{};
    uint64_t cpl_addr = 0; // the beat's header address (in.cpl_lane its lanes' offset)
    // Reads per requester: taken, retired; and which had an error.
    unsigned taken[2] = {0, 0}, retired[2] = {0, 0};
    std::vector<bool> read_err[2];
    // Reads taken, in the order the engine took them (it splits one at a
    // time, so its MRds leave read by read): requester, index, bytes left.
    struct issuing {
        unsigned dest, read, left;
    };
    std::deque<issuing> issue;
    unsigned timeouts = 0, unexp = 0, skipped = 0;
    uint32_t skip_next = 0;
    unsigned clock = 0;
};

void offer(bench &b, unsigned d)
{
    rng &r = b.r;
    cm_dma_rd_req &q = b.in.req[d];
    q.valid = true;
    q.addr = ((uint64_t)r(1u << 20) << 16 | r(1u << 16)) + 0x100000000ull;
    q.len = d == 1 ? 16 * (1 + r(32)) : (r(10) == 0 ? 1 + r(16383) : 1 + r(1514));
    q.wptr = r(1u << kPtrW);
}

// Start the next completion TLP: of a random MRd among the oldest not held.
void start_cpl(bench &b)
{
    rng &r = b.r;
    std::vector<unsigned> ready;
    for (unsigned i = 0; i < b.mrds.size() && ready.size() < 4; i++)
        if (b.mrds[i].hold == 0 && !b.mrds[i].cpls.empty())
            ready.push_back(i);
    if (ready.empty())
        return;
    mrd &m = b.mrds[ready[r((unsigned)ready.size())]];
    b.s_cpl = m.cpls.front();
    m.cpls.pop_front();
    b.s_tag = m.tag;
    b.s_beat = 0;
    b.s_beats = ((unsigned)(b.s_cpl.addr % b.w) + b.s_cpl.len + b.w - 1) / b.w;
    b.sending = true;
}

// This clock's inputs (the requests and limits persist).
void inputs(bench &b, const cm_dma_rd_out &last)
{
    rng &r = b.r;
    cm_dma_rd_in &in = b.in;
    in.skip = b.skip_next;
    b.skip_next = 0;
    // Traffic in bursts: every 5000 clocks, 1500 with no new read, so the
    // engine drains (and strays find no tag outstanding).
    const bool quiet = b.clock % 5000 >= 3500;
    b.clock++;
    for (unsigned d = 0; d < 2; d++)
        if (!quiet && !b.offered[d] && r(d ? 6 : 4) == 0) {
            offer(b, d);
            b.offered[d] = true;
        }
    in.mrd_ready = r(4) != 0;
    in.cpl_valid = in.cpl_sop = in.cpl_eop = in.cpl_err = false;
    in.cpl_data = b.data;
    std::memset(b.data, 0, sizeof(b.data));
    if (!b.sending && r(2))
        start_cpl(b);
    if (b.sending && r(8) != 0) {
        const unsigned lane = (unsigned)(b.s_cpl.addr % b.w);
        in.cpl_valid = true;
        in.cpl_sop = b.s_beat == 0;
        in.cpl_eop = b.s_beat + 1 == b.s_beats;
        in.cpl_tag = b.s_tag;
        in.cpl_len = b.s_cpl.len;
        in.cpl_lane = lane;
        b.cpl_addr = b.s_cpl.addr;
        in.cpl_err = b.s_cpl.err;
        const uint64_t base = b.s_cpl.addr - lane + (uint64_t)b.s_beat * b.w;
        for (unsigned j = 0; j < b.w; j++) {
            uint64_t a = base + j;
            if (a >= b.s_cpl.addr && a < b.s_cpl.addr + b.s_cpl.len && !b.s_cpl.err)
                b.data[j] = host_byte(a);
        }
    } else if (!b.sending && last.drained && !last.mrd_valid && b.mrds.empty() && r(20) == 0) {
        // Nothing outstanding: a stray completion beat for any tag.
        in.cpl_valid = in.cpl_sop = in.cpl_eop = true;
        in.cpl_tag = r(256);
        in.cpl_len = 1 + r(64);
        in.cpl_lane = 0;
        b.cpl_addr = (uint64_t)b.clock << 12; // any address at lane 0
        b.unexp++;
    }
}

// After the edge: what the neighbours saw happen.
void react(bench &b, const cm_dma_rd_out &o)
{
    rng &r = b.r;
    cm_dma_rd_in &in = b.in;
    for (unsigned d = 0; d < 2; d++)
        if (in.req[d].valid && o.req_ready[d]) {
            in.req[d].valid = false;
            b.offered[d] = false;
            b.read_err[d].push_back(false);
            b.issue.push_back({d, b.taken[d], in.req[d].len});
            b.taken[d]++;
        }
    if (o.mrd_valid && in.mrd_ready) {
        mrd m;
        m.tag = o.mrd_tag;
        m.dest = o.mrd_dest;
        m.hold = r(200) == 0 ? 300 + r(2000) : 0;
        // The read an MRd belongs to: the oldest one not yet fully issued.
        assert_false(b.issue.empty());
        bench::issuing &is = b.issue.front();
        assert_int_equal(is.dest, m.dest);
        assert_true(o.mrd_len <= is.left);
        m.read = is.read;
        is.left -= o.mrd_len;
        if (is.left == 0)
            b.issue.pop_front();
        uint64_t a = o.mrd_addr, end = o.mrd_addr + o.mrd_len;
        bool err = r(40) == 0;
        while (a < end) {
            uint64_t next = (a | 63) + 1; // split at 64-byte boundaries
            unsigned n = (unsigned)((next < end ? next : end) - a);
            m.cpls.push_back({a, n, err && r(2)});
            a += n;
        }
        for (const cpl &c : m.cpls)
            if (c.err)
                b.read_err[m.dest][m.read] = true;
        b.mrds.push_back(m);
    }
    if (in.cpl_valid && b.sending) {
        if (++b.s_beat == b.s_beats) {
            b.sending = false;
            // An MRd whose last completion went is no longer the root
            // complex's (the engine retires it when it is the oldest).
            for (auto it = b.mrds.begin(); it != b.mrds.end(); ++it)
                if (it->tag == b.s_tag && it->cpls.empty()) {
                    b.mrds.erase(it);
                    break;
                }
        }
    }
    for (mrd &m : b.mrds)
        if (m.hold)
            m.hold--;
    if (o.done_valid) {
        const unsigned d = o.done_dest;
        assert_true(b.retired[d] < b.taken[d]);
        if (o.done_err != b.read_err[d][b.retired[d]])
            fail_msg("requester %u read %u: done_err %u, completions with an error: %u", d,
                     b.retired[d], o.done_err, (unsigned)b.read_err[d][b.retired[d]]);
        b.retired[d]++;
    }
    b.timeouts += o.timeout;
    // The simulator leaves out clocks while the engine waits, nothing is
    // offered and no completion is on its way this clock.
    if (o.wait && !in.req[0].valid && !in.req[1].valid && !b.sending && r(3) == 0) {
        uint32_t room = o.wake == 0xFFFFFFu ? 500 : o.wake - (o.wake >= in.skip ? in.skip : o.wake);
        if (room > 500)
            room = 500;
        if (room > 0) {
            b.skip_next = 1 + r(room);
            b.skipped += b.skip_next;
            for (mrd &m : b.mrds)
                m.hold = m.hold > b.skip_next ? m.hold - b.skip_next : 0;
        }
    }
}

// cpl_addr: the completion beat's header address, whose lanes are
// in.cpl_lane (the C model takes only those).
template <class M> void drive(M &t, const cm_dma_rd_in &in, uint64_t cpl_addr, unsigned w)
{
    t.mrrs_log2_i = in.mrrs_log2;
    t.max_tags_i = in.max_tags;
    t.max_rd_bytes_i = in.max_rd_bytes;
    t.req_valid_i = (in.req[1].valid ? 2u : 0u) | (in.req[0].valid ? 1u : 0u);
    bundles::put_rd_req(t.pay_req_i, in.req[0].addr, in.req[0].len);
    t.pay_wptr_i = in.req[0].wptr;
    bundles::put_rd_req(t.desc_req_i, in.req[1].addr, in.req[1].len);
    t.desc_wptr_i = in.req[1].wptr;
    t.mrd_ready_i = in.mrd_ready;
    t.cpl_valid_i = in.cpl_valid;
    bundles::tlp_hdr h{};
    h.sop = in.cpl_sop;
    h.eop = in.cpl_eop;
    h.kind = 2; // CplD
    h.tag = in.cpl_tag;
    h.len = in.cpl_len;
    h.err = in.cpl_err;
    h.addr = (cpl_addr & ~(uint64_t)(w - 1)) | in.cpl_lane;
    bundles::put_tlp_hdr(t.cpl_hdr_i, h);
    put(t.cpl_data_i, in.cpl_data, w);
    t.cpl_timeout_i = in.cpl_timeout;
    t.skip_i = in.skip;
    t.eval();
}

template <class M> void compare(const M &t, const cm_dma_rd_out &o, unsigned w, uint32_t seed,
                                unsigned clock)
{
    const unsigned ready = (o.req_ready[1] ? 2u : 0u) | (o.req_ready[0] ? 1u : 0u);
    const bool ok =
        t.stall_o == o.stall && t.req_ready_o == ready && t.mrd_valid_o == o.mrd_valid &&
        t.mrd_addr_o == o.mrd_addr && t.mrd_len_o == o.mrd_len && t.mrd_tag_o == o.mrd_tag &&
        t.mrd_dest_o == o.mrd_dest && t.cpl_ready_o == o.cpl_ready && t.unexp_o == o.unexp &&
        t.timeout_o == o.timeout && t.wait_o == o.wait && t.wake_o == o.wake &&
        t.wr_valid_o == o.wr_valid && t.wr_dest_o == o.wr_dest && t.wr_ptr_o == o.wr_ptr &&
        t.wr_words_o == o.wr_words && same(t.wr_data_o, o.wr_data, w) &&
        t.done_valid_o == o.done_valid && t.done_dest_o == o.done_dest &&
        t.done_err_o == o.done_err && t.drained_o == o.drained && t.idle_o == o.idle;
    if (!ok)
        fail_msg("width %u seed %u clock %u: RTL stall %u ready %u mrd %u/%u/%u unexp %u to %u "
                 "wait %u wake %u wr %u/%u/%x/%x done %u/%u/%u drained %u idle %u; model stall "
                 "%u ready %u mrd %u/%u/%u unexp %u to %u wait %u wake %u wr %u/%u/%x/%x done "
                 "%u/%u/%u drained %u idle %u",
                 w, seed, clock, t.stall_o, t.req_ready_o, t.mrd_valid_o, t.mrd_tag_o,
                 t.mrd_len_o, t.unexp_o, t.timeout_o, t.wait_o, t.wake_o, t.wr_valid_o,
                 t.wr_dest_o, t.wr_ptr_o, t.wr_words_o, t.done_valid_o, t.done_dest_o,
                 t.done_err_o, t.drained_o, t.idle_o, o.stall, ready, o.mrd_valid, o.mrd_tag,
                 o.mrd_len, o.unexp, o.timeout, o.wait, o.wake, o.wr_valid, o.wr_dest, o.wr_ptr,
                 o.wr_words, o.done_valid, o.done_dest, o.done_err, o.drained, o.idle);
}

template <class M> void lockstep(unsigned tags, unsigned w, uint32_t seed, unsigned clocks)
{
    auto *ctx = new VerilatedContext();
    auto *t = new M(ctx, "dma_rd");
    auto *d = new cm_dma_rd();
    auto *b = new bench();
    cm_dma_rd_out o;
    rng &r = b->r;

    r = rng(seed);
    b->w = w;
    std::memset(&b->in, 0, sizeof(b->in));
    std::memset(&o, 0, sizeof(o));
    assert_int_equal(cm_dma_rd_init(d, tags, w, kPtrW), 0);
    // Per seed: MRRS 128..4096; seeds 2 and 4 a MAX_TAGS below the pool,
    // 3 and 4 a byte budget, odd seeds a completion timeout.
    b->in.mrrs_log2 = 7 + (seed + r(6)) % 6;
    b->in.max_tags = seed % 2 ? tags : 1 + r(tags / 2);
    b->in.max_rd_bytes = seed >= 3 ? 512 + r(32768) : 0;
    b->in.cpl_timeout = seed % 2 ? 100 + r(400) : 0;
    lockstep::reset(*t);
    cm_dma_rd_reset(d);
    for (unsigned c = 0; c < clocks; c++) {
        inputs(*b, o);
        drive(*t, b->in, b->cpl_addr, w);
        cm_dma_rd_eval(d, &b->in, &o);
        compare(*t, o, w, seed, c);
        cm_dma_rd_clock(d, &b->in);
        lockstep::edge(*t);
        react(*b, o);
    }
    // Reads of both requesters retired, and the run met what it sets out to.
    assert_true(b->retired[0] > clocks / 2000 && b->retired[1] > clocks / 2000);
    assert_true(b->skipped > 0);
    // A completion timeout fired in the runs that set one; with 32 tags
    // the strays (mostly beyond the pool) reached the engine.
    assert_true(b->in.cpl_timeout == 0 || b->timeouts > 0);
    assert_true(tags == 256 || b->unexp > 0);
    t->final();
    delete b;
    delete d;
    delete t;
    delete ctx;
}

void test_dma_rd_lockstep_t256w8(void **state)
{
    (void)state;
    for (uint32_t seed = 1; seed <= 4; seed++)
        lockstep<Vnictx_dma_rd_t256w8>(256, 8, seed, 100000);
}

void test_dma_rd_lockstep_t32w64(void **state)
{
    (void)state;
    for (uint32_t seed = 1; seed <= 4; seed++)
        lockstep<Vnictx_dma_rd_t32w64>(32, 64, seed, 100000);
}

void test_cm_dma_rd_sizes(void **state)
{
    (void)state;
    auto *d = new cm_dma_rd();
    assert_int_equal(cm_dma_rd_init(d, 3, 8, kPtrW), -1);
    assert_int_equal(cm_dma_rd_init(d, 512, 8, kPtrW), -1);
    assert_int_equal(cm_dma_rd_init(d, 256, 24, kPtrW), -1);
    assert_int_equal(cm_dma_rd_init(d, 256, 8, 0), -1);
    assert_int_equal(cm_dma_rd_init(d, 256, 8, kPtrW), 0);
    delete d;
}

} // namespace

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cm_dma_rd_sizes),
        cmocka_unit_test(test_dma_rd_lockstep_t256w8),
        cmocka_unit_test(test_dma_rd_lockstep_t32w64),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
