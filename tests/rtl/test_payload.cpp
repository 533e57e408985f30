// SPDX-License-Identifier: Apache-2.0
// test_payload.cpp - the C model's payload fetch (c-model/cm_payload.c) in
// lockstep with rtl/nictx_payload_fetch.sv, Verilated alone with its
// assertions: at DataBytes 8 with the engine's sizes (32 KiB, 256 frames),
// and at DataBytes 64 with 8 frames, so the packet FIFO fills.
//
// The testbench plays the three neighbours with random legal behaviour:
//  - the descriptor fetcher offers descriptors (host addresses at every
//    lane, lengths 1 to 16383, bad ones, some of them from failed
//    descriptor reads) and holds each until taken;
//  - the DMA read engine takes requests when it likes, writes their words
//    (whole words, every lane from host memory) interleaved across the
//    oldest requests in any order, and retires each read in order once its
//    words are in, now and then with an error;
//  - the MAC takes beats when it likes.
// Every output is compared on every clock, and each frame streamed is
// checked against host memory: the realignment, and a skip beat exactly
// for a bad descriptor or a failed read.
#include "Vnictx_payload_w64.h"
#include "Vnictx_payload_w8.h"
#include "common/lockstep.h"
#include "common/rtl_bundles.h"
#include "verilated.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

extern "C" { // cmocka 1.1.5's header has no C++ guard
#include <cmocka.h>
#include "cm_payload.h"
}

#include <cstring>
#include <deque>
#include <vector>

namespace {

using lockstep::put;
using lockstep::rng;
using lockstep::same;
using lockstep::host_byte;

constexpr unsigned kBufBytes = 32768; // the engine's PayBufBytes (both models)




struct read_req { // a request the read engine took
    uint64_t addr;
    unsigned len;
    uint32_t wptr;
    std::vector<unsigned> todo; // its words not yet written (index from the first)
    bool err;
};

struct expect_frame { // a descriptor taken, in order
    uint64_t addr;
    unsigned len;
    bool bad;
    int req; // its read's index in the requests, or -1 (bad)
};

struct bench {
    rng r{0};
    unsigned w;
    std::deque<read_req> reqs;       // not yet retired, oldest first
    std::vector<bool> req_err;       // every request's error, by index
    unsigned reqs_taken = 0, reqs_retired = 0, good_taken = 0;
    std::deque<expect_frame> frames; // descriptors taken, not yet streamed
    bool desc_offered = false;
    cm_payload_in in;
    uint8_t wr[64];
    uint64_t d_addr = 0;
    unsigned d_len = 0, d_q = 0;
    bool d_bad = false, d_err = false;
    std::vector<uint8_t> got;        // the frame being streamed
    unsigned done_frames = 0, skips = 0;
};

void next_desc(bench &b)
{
    rng &r = b.r;
    b.d_addr = ((uint64_t)r(1u << 20) << 20 | r(1u << 20)) + 0x100000000ull;
    b.d_len = r(20) == 0 ? 1 + r(16383) : r(4) == 0 ? 1 + r(64) : 60 + r(1455);
    b.d_q = r(64);
    b.d_bad = r(20) == 0;
    b.d_err = b.d_bad && r(2);
}

// This clock's inputs.
void inputs(bench &b)
{
    rng &r = b.r;
    cm_payload_in &in = b.in;
    std::memset(&in, 0, sizeof(in));
    if (!b.desc_offered && r(3) == 0) {
        next_desc(b);
        b.desc_offered = true;
    }
    in.desc_valid = b.desc_offered;
    in.desc_addr = b.d_addr;
    in.desc_len = b.d_len;
    in.desc_bad = b.d_bad;
    in.desc_err = b.d_err;
    in.desc_q = b.d_q;
    in.req_ready = r(3) != 0;
    in.wr_data = b.wr;
    // A word of one of the oldest reads.
    if (!b.reqs.empty() && r(4) != 0) {
        read_req &q = b.reqs[r(b.reqs.size() < 3 ? (unsigned)b.reqs.size() : 3)];
        if (!q.todo.empty()) {
            unsigned i = r((unsigned)q.todo.size());
            unsigned k = q.todo[i];
            q.todo.erase(q.todo.begin() + i);
            uint32_t first = q.wptr / b.w;
            uint64_t a0 = q.addr - q.wptr % b.w + (uint64_t)k * b.w;
            in.wr_valid = true;
            in.wr_ptr = ((first + k) * b.w) % kBufBytes;
            for (unsigned j = 0; j < b.w; j++)
                b.wr[j] = host_byte(a0 + j);
        }
    }
    // The oldest read retires once its words are in (written before).
    if (!b.reqs.empty() && b.reqs.front().todo.empty() && !in.wr_valid && r(2)) {
        in.done = true;
        in.done_err = b.reqs.front().err;
    }
    in.fr_ready = r(5) != 0;
}

// After the edge: what the neighbours saw happen.
void react(bench &b, const cm_payload_out &o)
{
    rng &r = b.r;
    const cm_payload_in &in = b.in;
    if (o.desc_ready) {
        // Good descriptors become reads in order: the k-th is read k.
        b.frames.push_back({in.desc_addr, in.desc_len, in.desc_bad,
                            in.desc_bad ? -1 : (int)b.good_taken++});
        b.desc_offered = false;
    }
    if (o.req_valid && in.req_ready) {
        read_req q{o.req_addr, o.req_len, o.req_wptr, {}, r(30) == 0};
        unsigned n = (q.wptr % b.w + q.len + b.w - 1) / b.w;
        for (unsigned k = 0; k < n; k++)
            q.todo.push_back(k);
        b.reqs.push_back(q);
        b.req_err.push_back(q.err);
        b.reqs_taken++;
    }
    if (in.done) {
        b.reqs.pop_front();
        b.reqs_retired++;
    }
    if (o.fr_valid && in.fr_ready) {
        assert_false(b.frames.empty());
        const expect_frame &f = b.frames.front();
        bool failed = f.req >= 0 && b.req_err[(unsigned)f.req];
        assert_int_equal(o.fr_skip, f.bad || failed);
        assert_int_equal(o.fr_len, f.len);
        if (!o.fr_skip)
            b.got.insert(b.got.end(), o.fr_data, o.fr_data + o.fr_bytes);
        if (o.fr_eop) {
            if (!o.fr_skip) {
                assert_int_equal(b.got.size(), f.len);
                for (unsigned i = 0; i < f.len; i++)
                    if (b.got[i] != host_byte(f.addr + i))
                        fail_msg("frame %u byte %u: %02x, host memory %02x", b.done_frames, i,
                                 b.got[i], host_byte(f.addr + i));
            } else {
                b.skips++;
            }
            b.got.clear();
            b.frames.pop_front();
            b.done_frames++;
        }
    }
}

template <class M> void drive(M &t, const cm_payload_in &in, unsigned w)
{
    t.desc_valid_i = in.desc_valid;
    bundles::put_desc(t.desc_i, in.desc_addr, in.desc_len, in.desc_bad, in.desc_err);
    t.desc_q_i = in.desc_q;
    t.req_ready_i = in.req_ready;
    t.wr_valid_i = in.wr_valid;
    t.wr_ptr_i = in.wr_ptr;
    put(t.wr_data_i, in.wr_data, w);
    t.done_i = in.done;
    t.done_err_i = in.done_err;
    t.fr_ready_i = in.fr_ready;
    t.eval();
}

template <class M> void compare(const M &t, const cm_payload_out &o, unsigned w, uint32_t seed,
                                unsigned clock)
{
    const bundles::rd_req req = bundles::get_rd_req(t.req_o);
    const bool ok = t.desc_ready_o == o.desc_ready && t.req_valid_o == o.req_valid &&
                    req.addr == o.req_addr && req.len == o.req_len &&
                    t.req_wptr_o == o.req_wptr && t.fr_valid_o == o.fr_valid &&
                    t.fr_sop_o == o.fr_sop && t.fr_eop_o == o.fr_eop &&
                    same(t.fr_data_o, o.fr_data, w) && t.fr_bytes_o == o.fr_bytes &&
                    t.fr_len_o == o.fr_len && t.fr_skip_o == o.fr_skip && t.fr_q_o == o.fr_q &&
                    t.bad_desc_o == o.bad_desc && t.idle_o == o.idle;
    if (!ok)
        fail_msg("width %u seed %u clock %u: RTL desc_ready %u req %u/%x/%u fr %u sop %u eop %u "
                 "bytes %u len %u skip %u q %u idle %u; model desc_ready %u req %u/%x/%u fr %u "
                 "sop %u eop %u bytes %u len %u skip %u q %u idle %u",
                 w, seed, clock, t.desc_ready_o, t.req_valid_o, t.req_wptr_o, req.len,
                 t.fr_valid_o, t.fr_sop_o, t.fr_eop_o, t.fr_bytes_o, t.fr_len_o, t.fr_skip_o,
                 t.fr_q_o, t.idle_o, o.desc_ready, o.req_valid, o.req_wptr, o.req_len,
                 o.fr_valid, o.fr_sop, o.fr_eop, o.fr_bytes, o.fr_len, o.fr_skip, o.fr_q, o.idle);
}

template <class M> void lockstep(unsigned w, unsigned max_pkts, uint32_t seed, unsigned clocks)
{
    auto *ctx = new VerilatedContext();
    auto *t = new M(ctx, "payload");
    cm_payload *p = cm_payload_create(w, kBufBytes, max_pkts);
    auto *b = new bench();
    cm_payload_out o;

    assert_non_null(p);
    b->r = rng(seed);
    b->w = w;
    lockstep::reset(*t);
    cm_payload_reset(p);
    for (unsigned c = 0; c < clocks; c++) {
        inputs(*b);
        drive(*t, b->in, w);
        cm_payload_eval(p, &b->in, &o);
        compare(*t, o, w, seed, c);
        if (seed % 2) // odd seeds: the edge on the evaluation's decisions, as the engine
            cm_payload_edge(p, &b->in, &o);
        else
            cm_payload_clock(p, &b->in);
        lockstep::edge(*t);
        react(*b, o);
    }
    // Frames went through, skips among them, and reads retired.
    assert_true(b->done_frames > clocks / 400);
    assert_true(b->skips > 0);
    assert_true(b->reqs_retired > clocks / 400);
    t->final();
    delete b;
    cm_payload_destroy(p);
    delete t;
    delete ctx;
}

void test_payload_lockstep_w8(void **state)
{
    (void)state;
    for (uint32_t seed = 1; seed <= 3; seed++)
        lockstep<Vnictx_payload_w8>(8, 256, seed, 100000);
}

void test_payload_lockstep_w64(void **state)
{
    (void)state;
    for (uint32_t seed = 1; seed <= 3; seed++)
        lockstep<Vnictx_payload_w64>(64, 8, seed, 100000);
}

// Sizes the RTL does not elaborate are refused.
void test_cm_payload_sizes(void **state)
{
    (void)state;
    assert_null(cm_payload_create(12, kBufBytes, 256));
    assert_null(cm_payload_create(8, 8192, 256));
    assert_null(cm_payload_create(8, kBufBytes, 3));
    cm_payload *p = cm_payload_create(8, kBufBytes, 256);
    assert_non_null(p);
    cm_payload_destroy(p);
}

} // namespace

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cm_payload_sizes),
        cmocka_unit_test(test_payload_lockstep_w8),
        cmocka_unit_test(test_payload_lockstep_w64),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
