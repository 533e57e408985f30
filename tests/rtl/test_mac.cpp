// SPDX-License-Identifier: Apache-2.0
// test_mac.cpp - the C model's MAC (c-model/cm_mac.c) alone, and in lockstep
// with rtl/nictx_mac.sv (Verilated at DataBytes 8 and 64, assertions on).
//
//  - Directed tests of the model: the FCS of a known frame at both widths,
//    the pacing at 10G (a 64 B frame every 17.6 clocks), no credit saved
//    while nothing waits, and skipped clocks giving the credit their growth.
//  - Lockstep: both get the same random legal stimulus (the payload fetch's
//    frame stream with bubbles and bad-descriptor skips, the wire's ready,
//    line rates from 1G to beyond the datapath, and the simulator's skipped
//    clocks within wake) and every output is compared on every clock.
#include "Vnictx_mac_w64.h"
#include "Vnictx_mac_w8.h"
#include "common/lockstep.h"
#include "verilated.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

extern "C" { // cmocka 1.1.5's header has no C++ guard
#include <cmocka.h>
#include "cm_mac.h"
#include "lib/crc32.h"
}

#include <cstring>

namespace {

using lockstep::put;
using lockstep::rng;
using lockstep::same;

constexpr uint32_t kRate10g = 5u << 16; // 10 Gb/s at 250 MHz: 5 bytes a clock

// ------------------------------------------------------------ the C model
struct beat {
    uint8_t data[CM_MAC_MAX_BYTES];
    cm_mac_in in;
};

void beat_frame(beat &b, const uint8_t *frame, unsigned len, unsigned off, unsigned w)
{
    std::memset(&b.in, 0, sizeof(b.in));
    std::memset(b.data, 0, sizeof(b.data));
    unsigned n = len - off < w ? len - off : w;
    std::memcpy(b.data, frame + off, n);
    b.in.fr_valid = true;
    b.in.fr_sop = off == 0;
    b.in.fr_eop = off + n == len;
    b.in.fr_data = b.data;
    b.in.fr_bytes = n;
    b.in.fr_len = len;
    b.in.wire_ready = true;
}

// Clock a whole frame through a MAC that sends at once: its last FCS.
uint32_t model_frame_fcs(unsigned w, const uint8_t *frame, unsigned len)
{
    cm_mac m;
    cm_mac_out o;
    beat b;
    uint32_t fcs = 0;
    assert_int_equal(cm_mac_reset(&m, w), 0);
    for (unsigned off = 0; off < len; off += w) {
        beat_frame(b, frame, len, off, w);
        b.in.line_rate = 64u << 16;
        cm_mac_eval(&m, &b.in, &o);
        assert_true(o.wire_valid);
        fcs = o.wire_fcs;
        assert_int_equal(o.pkt_done, b.in.fr_eop);
        cm_mac_clock(&m, &b.in);
    }
    return fcs;
}

void test_cm_mac_fcs(void **state)
{
    (void)state;
    static const uint8_t check[] = "123456789";
    uint8_t frame[1514];
    // The CRC-32 check value, over a beat and a byte (8) and one beat (64).
    assert_int_equal(model_frame_fcs(8, check, 9), 0xCBF43926u);
    assert_int_equal(model_frame_fcs(64, check, 9), 0xCBF43926u);
    for (unsigned i = 0; i < sizeof(frame); i++)
        frame[i] = (uint8_t)(i * 7 + 3);
    for (unsigned w = 8; w <= 64; w *= 2)
        for (unsigned len : {1u, 60u, 63u, 64u, 65u, 1514u})
            assert_int_equal(model_frame_fcs(w, frame, len), crc32_fcs(frame, len));
    cm_mac m;
    assert_int_equal(cm_mac_reset(&m, 12), -1);
}

// 64 B frames back to back at 10G: one every (64 + 24) / 5 = 17.6 clocks.
void test_cm_mac_pacing(void **state)
{
    (void)state;
    static uint8_t frame[64];
    cm_mac m;
    cm_mac_out o;
    beat b;
    unsigned frames = 0, off = 0, clocks = 0;
    assert_int_equal(cm_mac_reset(&m, 8), 0);
    while (frames < 1000 && clocks < 20000) { // bounded: a broken MAC fails, not hangs
        beat_frame(b, frame, sizeof(frame), off, 8);
        b.in.line_rate = kRate10g;
        cm_mac_eval(&m, &b.in, &o);
        if (o.fr_ready) {
            off += 8;
            if (o.pkt_done) {
                frames++;
                off = 0;
            }
        }
        cm_mac_clock(&m, &b.in);
        clocks++;
    }
    // Frame k starts at clock ceil(17.6 k) (the credit is back at 0 or
    // above then) and takes 8: the 1000th ends at ceil(17582.4) + 8.
    assert_int_equal(clocks, 17583 + 8);
}

// Nothing waiting: the credit stops at 0 (no burst after idle); a frame
// waiting for credit sees it grow by the clocks left out before a clock.
void test_cm_mac_credit(void **state)
{
    (void)state;
    static uint8_t frame[64];
    cm_mac m;
    cm_mac_out o;
    beat b;
    assert_int_equal(cm_mac_reset(&m, 8), 0);
    std::memset(&b.in, 0, sizeof(b.in));
    b.in.line_rate = kRate10g;
    for (unsigned c = 0; c < 100; c++)
        cm_mac_clock(&m, &b.in);
    assert_int_equal(m.credit, 0);
    cm_mac_eval(&m, &b.in, &o);
    assert_true(o.idle && o.wait && o.wake == 0xFFFFFFu);

    // A frame starts at once and owes 88 - 5 bytes: the next one waits.
    for (unsigned off = 0; off < 64; off += 8) {
        beat_frame(b, frame, 64, off, 8);
        b.in.line_rate = kRate10g;
        cm_mac_clock(&m, &b.in);
    }
    assert_int_equal(m.credit, -((88 << 16) - 8 * (int32_t)kRate10g));
    beat_frame(b, frame, 64, 0, 8);
    b.in.line_rate = kRate10g;
    cm_mac_eval(&m, &b.in, &o);
    // owed = 48 bytes - 1: 9 more clocks of growth leave it below 0, so
    // after this clock 8 may be left out.
    assert_false(o.wire_valid);
    assert_true(o.wait && !o.idle);
    assert_int_equal(o.wake, 8);
    cm_mac_clock(&m, &b.in);
    assert_int_equal(m.credit, -(43 << 16));
    b.in.skip = 8; // the next clock run, after 8 left out: the frame still waits
    cm_mac_eval(&m, &b.in, &o);
    assert_false(o.wire_valid);
    cm_mac_clock(&m, &b.in); // its edge takes 9 clocks of growth
    assert_int_equal(m.credit, 2 << 16);
    b.in.skip = 0;
    cm_mac_eval(&m, &b.in, &o);
    assert_true(o.wire_valid);
}

// A first beat waiting for credit (the engine's stream clocks in bulk):
// cm_mac_credit_clocks() counts the clocks on which it does not start, one
// clock at a time shows it, and cm_mac_wait_start() over n of them leaves
// the credit n single clocks leave.
void test_cm_mac_wait_start(void **state)
{
    (void)state;
    static uint8_t frame[256];
    rng r(7);
    for (unsigned trial = 0; trial < 200; trial++) {
        cm_mac m, single;
        cm_mac_out o;
        beat b;
        assert_int_equal(cm_mac_reset(&m, 8), 0);
        const uint32_t rate = trial < 2 ? kRate10g : 1 + r(8u << 16);
        // owing 10 clocks' worth exactly (the tenth clock's credit is 0:
        // it starts), a fraction more, or from a fraction of a byte to 2000 B
        m.credit = trial < 2 ? -(int32_t)(10 * kRate10g + trial) : -(int32_t)(1 + r(2000u << 16));
        const uint32_t k = cm_mac_credit_clocks(&m, rate);
        assert_true(k >= 1);
        if (trial < 2)
            assert_int_equal(k, 10 + trial);
        single = m;
        beat_frame(b, frame, sizeof(frame), 0, 8);
        b.in.line_rate = rate;
        for (uint32_t c = 0; c < k; c++) {
            cm_mac_eval(&single, &b.in, &o);
            assert_false(o.wire_valid);
            cm_mac_clock(&single, &b.in);
        }
        cm_mac_eval(&single, &b.in, &o);
        assert_true(o.wire_valid); // the clock after them starts the frame
        const unsigned n = 1 + r(k);
        cm_mac bulk = m;
        cm_mac_wait_start(&bulk, n, rate);
        single = m;
        for (unsigned c = 0; c < n; c++)
            cm_mac_clock(&single, &b.in);
        assert_int_equal(bulk.credit, single.credit);
        assert_false(bulk.in_frame);
    }
    cm_mac m;
    assert_int_equal(cm_mac_reset(&m, 8), 0);
    assert_int_equal(cm_mac_credit_clocks(&m, kRate10g), 0); // no debt: it starts now
    m.credit = -1;
    assert_int_equal(cm_mac_credit_clocks(&m, 0), 0); // no line rate: no count
    m.in_frame = true; // inside a frame no first beat waits
    assert_int_equal(cm_mac_credit_clocks(&m, kRate10g), 0);
}

// --------------------------------------------------------------- lockstep


// The payload fetch's side: frames of random length, beats held until
// taken, bubbles between and within frames, single-beat skips.
struct stream {
    uint8_t frame[16383];
    unsigned len = 0, off = 0, q = 0, gap = 0;
    bool skip = false, bubble = false;
    uint8_t beat[CM_MAC_MAX_BYTES];
};

void stream_next_frame(stream &s, rng &r)
{
    s.len = r(16) ? 1 + r(r(4) ? 200 : 1600) : 1 + r(16383);
    for (unsigned i = 0; i < s.len; i++)
        s.frame[i] = (uint8_t)r(256);
    s.off = 0;
    s.q = r(64);
    s.skip = r(20) == 0;
    s.gap = r(3) ? 0 : r(40);
}

template <class M> struct lock {
    static constexpr unsigned W = sizeof(M::fr_data_i) >= 64 ? 64 : 8;
    VerilatedContext ctx;
    M top;
    cm_mac cm;
    lock() : ctx(), top(&ctx, "mac") {}
};

// Fill this clock's inputs from the stream.
void stream_inputs(stream &s, cm_mac_in &in, unsigned w, rng &r)
{
    in.fr_valid = s.gap == 0 && !s.bubble;
    unsigned n = s.len - s.off < w ? s.len - s.off : w;
    std::memset(s.beat, 0, sizeof(s.beat));
    if (!s.skip)
        std::memcpy(s.beat, s.frame + s.off, n);
    else
        n = 1 + r(w); // a skip beat's bytes mean nothing
    in.fr_sop = s.skip || s.off == 0;
    in.fr_eop = s.skip || s.off + n >= s.len;
    in.fr_skip = s.skip;
    in.fr_data = s.beat;
    in.fr_bytes = n;
    in.fr_len = s.len;
    in.fr_q = s.q;
}

template <class M> void drive(M &t, const cm_mac_in &in, unsigned w)
{
    t.line_rate_i = in.line_rate;
    t.fr_valid_i = in.fr_valid;
    t.fr_sop_i = in.fr_sop;
    t.fr_eop_i = in.fr_eop;
    t.fr_skip_i = in.fr_skip;
    put(t.fr_data_i, in.fr_data, w);
    t.fr_bytes_i = in.fr_bytes;
    t.fr_len_i = in.fr_len;
    t.fr_q_i = in.fr_q;
    t.wire_ready_i = in.wire_ready;
    t.skip_i = in.skip;
    t.eval();
}

template <class M> void compare(const M &t, const cm_mac_out &o, unsigned w, uint32_t seed,
                                unsigned clock)
{
    const bool ok = t.fr_ready_o == o.fr_ready && t.wire_valid_o == o.wire_valid &&
                    t.wire_sop_o == o.wire_sop && t.wire_eop_o == o.wire_eop &&
                    same(t.wire_data_o, o.wire_data, w) && t.wire_bytes_o == o.wire_bytes &&
                    t.wire_fcs_o == o.wire_fcs && t.pkt_done_o == o.pkt_done &&
                    t.pkt_len_o == o.pkt_len && t.pkt_q_o == o.pkt_q && t.wait_o == o.wait &&
                    t.wake_o == o.wake && t.idle_o == o.idle;
    if (!ok)
        fail_msg("width %u seed %u clock %u: RTL ready %u valid %u fcs %08x done %u wait %u "
                 "wake %u idle %u; model ready %u valid %u fcs %08x done %u wait %u wake %u "
                 "idle %u",
                 w, seed, clock, t.fr_ready_o, t.wire_valid_o, t.wire_fcs_o, t.pkt_done_o,
                 t.wait_o, t.wake_o, t.idle_o, o.fr_ready, o.wire_valid, o.wire_fcs, o.pkt_done,
                 o.wait, o.wake, o.idle);
}

// Line rates (8.16 bytes a clock at 250 MHz): 1G, 10G, 25G, 40G, 100G and
// beyond the datapath, odd fractions, and none at all.
constexpr uint32_t kRates[] = {
    0x8000, kRate10g, 0xC8000, 0x140000, 0x320000, 0x500000, 0x3A5E3, 0x1, 0,
};

template <class M> void lockstep(uint32_t seed, unsigned clocks)
{
    auto *l = new lock<M>();
    M &t = l->top;
    const unsigned w = lock<M>::W;
    rng r(seed);
    stream *s = new stream();
    cm_mac_in in;
    cm_mac_out o;
    unsigned frames = 0;

    assert_int_equal(cm_mac_reset(&l->cm, w), 0);
    std::memset(&in, 0, sizeof(in));
    lockstep::reset(t);
    stream_next_frame(*s, r);
    in.line_rate = kRates[r(sizeof(kRates) / sizeof(kRates[0]))];
    for (unsigned c = 0; c < clocks; c++) {
        if (r(2000) == 0)
            in.line_rate = kRates[r(sizeof(kRates) / sizeof(kRates[0]))];
        stream_inputs(*s, in, w, r);
        in.wire_ready = r(10) != 0;
        drive(t, in, w);
        cm_mac_eval(&l->cm, &in, &o);
        compare(t, o, w, seed, c);
        // Clocks the simulator may leave out after this one: it does, now
        // and then, while a frame waits for credit.
        uint32_t skip_next = 0;
        if (o.wait && o.wake != 0xFFFFFFu && o.wake > in.skip && r(2))
            skip_next = 1 + r(o.wake - in.skip); // wake_o less this clock's skip
        cm_mac_clock(&l->cm, &in);
        lockstep::edge(t);
        // The stream moves.
        if (s->gap)
            s->gap--;
        else if (o.fr_ready && o.pkt_done) {
            frames++;
            stream_next_frame(*s, r);
        } else if (o.fr_ready)
            s->off += w;
        s->bubble = s->off != 0 && r(16) == 0;
        in.skip = skip_next;
    }
    t.final();
    // The stimulus moved frames through at every rate but none.
    assert_true(frames > clocks / 2000);
    delete s;
    delete l;
}

void test_mac_lockstep_w8(void **state)
{
    (void)state;
    for (uint32_t seed = 1; seed <= 4; seed++)
        lockstep<Vnictx_mac_w8>(seed, 200000);
}

void test_mac_lockstep_w64(void **state)
{
    (void)state;
    for (uint32_t seed = 1; seed <= 4; seed++)
        lockstep<Vnictx_mac_w64>(seed, 200000);
}

} // namespace

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cm_mac_fcs),
        cmocka_unit_test(test_cm_mac_pacing),
        cmocka_unit_test(test_cm_mac_credit),
        cmocka_unit_test(test_cm_mac_wait_start),
        cmocka_unit_test(test_mac_lockstep_w8),
        cmocka_unit_test(test_mac_lockstep_w64),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
