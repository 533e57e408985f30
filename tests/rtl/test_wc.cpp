// SPDX-License-Identifier: Apache-2.0
// test_wc.cpp - the C model's write-combining window (c-model/cm_wc.c) in
// lockstep with rtl/nictx_wc.sv, Verilated alone with its assertions at
// DataBytes 8 and 64.
//
// The testbench plays the register block's side: MWr TLPs to BAR0
// 0x200..0x3FF as a driver writes blocks (a 64-byte block as eight 8-byte
// stores or one burst, to either buffer), torn and reordered blocks, ring
// indexes in and beyond the ring, long TLPs up to the buffer's end, and
// writes the window refuses (misaligned, odd lengths, beyond 256 bytes,
// past the window's end, outside 0x200); the protocol and the ring size change now
// and then.  Beats carry the lanes their addresses fall in.  Every output
// is compared on every clock, and closes and complete blocks are counted
// so the stimulus is seen to reach them.
#include "Vnictx_wc_w64.h"
#include "Vnictx_wc_w8.h"
#include "common/lockstep.h"
#include "common/rtl_bundles.h"
#include "verilated.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

extern "C" { // cmocka 1.1.5's header has no C++ guard
#include <cmocka.h>
#include "cm_wc.h"
}

#include <cstring>

namespace {

using lockstep::put;
using lockstep::rng;
using lockstep::same;

// BAR0's base address: the request header's address above the window's
// offset (the window reads only addr[9:0]).
constexpr uint64_t kBar0 = 0xFE000000ull;

// A TLP being sent: its offset, length and bytes (by offset in the window).
struct tlp {
    unsigned off = 0, len = 0, beat = 0, beats = 0;
    uint8_t bytes[1024];
};

// The next TLP: mostly what a driver writes, sometimes what it must not.
void next_tlp(tlp &t, rng &r, unsigned ring_log2)
{
    const unsigned buf = 0x200 + 0x100 * r(2);
    switch (r(10)) {
    case 0: case 1: case 2: // one 8-byte store of a block's word
        t.off = buf + 8 * (r(4) ? r(8) : r(32));
        t.len = 8;
        break;
    case 3: // a whole block in one burst
        t.off = buf;
        t.len = 64;
        break;
    case 4: // a burst of whole words anywhere in the window
        t.off = buf + 8 * r(32);
        t.len = 8 * (1 + r((0x400 - t.off) / 8 < 32 ? (0x400 - t.off) / 8 : 32));
        break;
    case 5: { // refused: misaligned, odd, too long, past the window, outside it
        const unsigned k = r(6);
        t.off = k == 4 ? 8 * r(64) : buf + (k == 0 ? 1 + r(7) : 8 * r(32));
        t.len = k == 1 ? 1 + r(255) : k == 2 ? 264 + 8 * r(20) : k == 3 ? 8 * (33 + r(32)) : 8;
        if (t.off + t.len > 1024)
            t.len = 1024 - t.off;
        if (k == 5) { // whole words running past the window's end
            t.off = 0x3F8 - 8 * r(8);
            t.len = 0x400 - t.off + 8 * (1 + r(8));
        }
        break;
    }
    default: // the store that closes a block, or the index word
        t.off = buf + 8 * (r(2) ? 7 : 2);
        t.len = 8;
        break;
    }
    for (unsigned i = 0; i < t.len; i++)
        t.bytes[(t.off + i) & 1023] = (uint8_t)r(256);
    // The index word: mostly inside the ring.
    if (t.off <= ((t.off & ~0xFFu) | 16) && t.off + t.len > ((t.off & ~0xFFu) | 16)) {
        unsigned idx = r(8) ? r(1u << ring_log2) : r(65536);
        t.bytes[(t.off & ~0xFFu) | 16] = (uint8_t)idx;
        t.bytes[((t.off & ~0xFFu) | 16) + 1] = (uint8_t)(idx >> 8);
    }
    t.beat = 0;
}

template <class M> void drive(M &t, const cm_wc_in &in, unsigned w)
{
    t.proto_i = in.proto;
    t.ring_log2_i = in.ring_log2;
    t.req_valid_i = in.req_valid;
    bundles::tlp_hdr h{};
    h.sop = in.req_sop;
    h.eop = in.req_eop;
    h.kind = 0; // MWr
    h.len = in.req_len;
    h.addr = kBar0 | in.req_off;
    bundles::put_tlp_hdr(t.req_i, h);
    put(t.req_data_i, in.req_data, w);
    t.eval();
}

template <class M> void compare(const M &t, const cm_wc_out &o, unsigned w, uint32_t seed,
                                unsigned clock)
{
    const bundles::wc_blk b = bundles::get_wc_blk(t.blk_o);
    const bool ok = t.bad_access_o == o.bad_access && t.close_o == o.close &&
                    t.tail_we_o == o.tail_we && t.tail_o == o.tail &&
                    t.tail_range_o == o.tail_range && t.torn_o == o.torn &&
                    t.blk_valid_o == o.blk_valid && b.idx == o.blk_idx && b.w0 == o.blk_w0 &&
                    b.w1 == o.blk_w1 && t.busy_o == o.busy;
    if (!ok)
        fail_msg("width %u seed %u clock %u: RTL bad %u close %u tail %u/%u range %u torn %u "
                 "blk %u idx %u busy %u; model bad %u close %u tail %u/%u range %u torn %u "
                 "blk %u idx %u busy %u",
                 w, seed, clock, t.bad_access_o, t.close_o, t.tail_we_o, t.tail_o,
                 t.tail_range_o, t.torn_o, t.blk_valid_o, b.idx, t.busy_o, o.bad_access,
                 o.close, o.tail_we, o.tail, o.tail_range, o.torn, o.blk_valid, o.blk_idx,
                 o.busy);
}

template <class M> void lockstep(unsigned w, uint32_t seed, unsigned clocks)
{
    auto *ctx = new VerilatedContext();
    auto *t = new M(ctx, "wc");
    cm_wc c;
    cm_wc_in in;
    cm_wc_out o;
    rng r(seed);
    auto *p = new tlp();
    uint8_t beat[64];
    bool sending = false;
    unsigned closes = 0, blocks = 0, bad = 0;

    assert_int_equal(cm_wc_reset(&c, w), 0);
    std::memset(&in, 0, sizeof(in));
    in.proto = CM_WC_PROTO_WC;
    in.ring_log2 = 4 + r(8);
    lockstep::reset(*t);
    for (unsigned k = 0; k < clocks; k++) {
        if (!sending && r(1000) == 0)
            in.proto = r(4) ? CM_WC_PROTO_WC : r(3);
        if (!sending && r(2000) == 0)
            in.ring_log2 = r(4) ? 4 + r(8) : r(32);
        if (!sending && r(3) != 0) {
            next_tlp(*p, r, in.ring_log2 < 16 ? in.ring_log2 : 16);
            p->beats = (p->off % w + p->len + w - 1) / w;
            sending = true;
        }
        in.req_valid = sending && r(6) != 0;
        std::memset(beat, 0, sizeof(beat));
        if (in.req_valid) {
            const unsigned base = p->off - p->off % w + p->beat * w;
            for (unsigned j = 0; j < w; j++)
                if (base + j >= p->off && base + j < p->off + p->len)
                    beat[j] = p->bytes[(base + j) & 1023];
            in.req_sop = p->beat == 0;
            in.req_eop = p->beat + 1 == p->beats;
            in.req_len = p->len;
            in.req_off = p->off;
        }
        in.req_data = beat;
        drive(*t, in, w);
        cm_wc_eval(&c, &in, &o);
        compare(*t, o, w, seed, k);
        closes += o.close;
        blocks += o.blk_valid;
        bad += o.bad_access;
        cm_wc_clock(&c, &in);
        lockstep::edge(*t);
        if (in.req_valid && ++p->beat == p->beats)
            sending = false;
    }
    // The stimulus reached closes, complete blocks and refusals.
    assert_true(closes > clocks / 100 && blocks > clocks / 1000 && bad > clocks / 1000);
    t->final();
    delete p;
    delete t;
    delete ctx;
}

void test_wc_lockstep_w8(void **state)
{
    (void)state;
    for (uint32_t seed = 1; seed <= 4; seed++)
        lockstep<Vnictx_wc_w8>(8, seed, 100000);
}

void test_wc_lockstep_w64(void **state)
{
    (void)state;
    for (uint32_t seed = 1; seed <= 4; seed++)
        lockstep<Vnictx_wc_w64>(64, seed, 100000);
}

// A driver's block, word by word: the close carries it whole.
void test_cm_wc_block(void **state)
{
    (void)state;
    cm_wc c;
    cm_wc_in in;
    cm_wc_out o;
    uint8_t d[8];
    assert_int_equal(cm_wc_reset(&c, 8), 0);
    std::memset(&in, 0, sizeof(in));
    in.proto = CM_WC_PROTO_WC;
    in.ring_log2 = 10;
    in.req_data = d;
    const uint64_t words[8] = {0x1111, 0x2222, 517, 0, 0, 0, 0, 0};
    for (unsigned k = 0; k < 8; k++) {
        for (unsigned i = 0; i < 8; i++)
            d[i] = (uint8_t)(words[k] >> (8 * i));
        in.req_valid = in.req_sop = in.req_eop = true;
        in.req_len = 8;
        in.req_off = 0x300 + 8 * k;
        cm_wc_eval(&c, &in, &o);
        assert_false(o.bad_access);
        assert_int_equal(o.close, k == 7);
        cm_wc_clock(&c, &in);
    }
    assert_true(o.blk_valid && o.tail_we && !o.torn);
    assert_int_equal(o.blk_idx, 517);
    assert_int_equal(o.tail, 518);
    assert_int_equal(o.blk_w0, 0x1111);
    assert_int_equal(o.blk_w1, 0x2222);
    assert_int_equal(cm_wc_reset(&c, 24), -1);
}

} // namespace

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cm_wc_block),
        cmocka_unit_test(test_wc_lockstep_w8),
        cmocka_unit_test(test_wc_lockstep_w64),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
