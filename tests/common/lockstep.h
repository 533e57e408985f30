// SPDX-License-Identifier: Apache-2.0
// lockstep.h - what the lockstep tests of RTL modules against the C model
// share (tests/rtl/test_mac.cpp, test_payload.cpp, test_dma_rd.cpp,
// test_wc.cpp; docs/c-model.md): data ports as bytes, a seeded random
// source, host memory's bytes, and the Verilated module's reset and edge.
#ifndef NICTX_TESTS_LOCKSTEP_H
#define NICTX_TESTS_LOCKSTEP_H

#include "verilated.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace lockstep {

// A data port from bytes (byte 0 in the low lanes): QData up to 8 bytes,
// VlWide beyond.
inline void put(QData &d, const uint8_t *b, unsigned)
{
    d = 0;
    for (unsigned i = 0; i < 8; i++)
        d |= (QData)b[i] << (8 * i);
}
template <std::size_t N> void put(VlWide<N> &d, const uint8_t *b, unsigned n)
{
    for (unsigned i = 0; i < n / 4; i++)
        d[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 | (uint32_t)b[4 * i + 2] << 16 |
               (uint32_t)b[4 * i + 3] << 24;
}
// Whether a data port holds these n bytes.
template <class D> bool same(const D &d, const uint8_t *b, unsigned n)
{
    D e;
    put(e, b, n);
    return std::memcmp(&d, &e, n) == 0;
}

// xorshift32: the stimulus of a seed, the same on every machine.
struct rng {
    uint32_t s;
    explicit rng(uint32_t seed) : s(seed * 2654435761u | 1) {}
    unsigned operator()(unsigned n) // 0..n-1
    {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        return s % n;
    }
};

// Host memory: a byte of every address.
inline uint8_t host_byte(uint64_t a)
{
    return (uint8_t)(((a * 0x9E3779B97F4A7C15ull) >> 56) ^ a);
}

// The module's reset (clock low), and a rising edge after the clock's
// inputs are settled (the clock is left low again for the next eval).
// The reset is asynchronous: Verilator runs it on a falling edge of rst_ni,
// so it is raised first (a model starts with every signal 0).
template <class M> void reset(M &t)
{
    t.clk_i = 0;
    t.rst_ni = 1;
    t.eval();
    t.rst_ni = 0;
    t.eval();
    t.rst_ni = 1;
}
template <class M> void edge(M &t)
{
    t.clk_i = 1;
    t.eval();
    t.clk_i = 0;
}

} // namespace lockstep

#endif
