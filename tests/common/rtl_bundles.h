// SPDX-License-Identifier: Apache-2.0
// rtl_bundles.h - the packed structs of rtl/nictx_pkg.sv on the ports of
// RTL modules Verilated alone (tests/test_dma_rd.cpp, test_desc_fetch.cpp,
// test_payload.cpp, test_wc.cpp, test_cpl_module.cpp): Verilator gives a
// struct port as one vector, its last field in the lowest bits, 32-bit
// words least significant first (VlWide; every bundle is wider than 64
// bits).  Each bundle's fields are written here once, in nictx_pkg's
// order, with the C model's names; put_* packs a bundle into an input
// port (every bit of it), get_* unpacks an output port.  A port of another
// size fails to compile; a field out of place fails the lockstep tests.
#ifndef NICTX_TESTS_RTL_BUNDLES_H
#define NICTX_TESTS_RTL_BUNDLES_H

#include "verilated.h"

#include <cstddef>
#include <cstdint>

namespace bundles {

// nictx_pkg's widths.
constexpr unsigned kAddrW = 64, kWordW = 64, kTagW = 8, kTlpLenW = 13, kLenW = 14, kIdxW = 16,
                   kLog2W = 5, kMsixDataW = 32, kWrLenW = 13;

// Bits [lsb, lsb + w) of a port, w <= 64.
template <std::size_t N> uint64_t get_bits(const VlWide<N> &p, unsigned lsb, unsigned w)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < w; i++)
        v |= (uint64_t)(p[(lsb + i) / 32] >> ((lsb + i) % 32) & 1u) << i;
    return v;
}
template <std::size_t N> void set_bits(VlWide<N> &p, unsigned lsb, unsigned w, uint64_t v)
{
    for (unsigned i = 0; i < w; i++) {
        const uint32_t bit = 1u << ((lsb + i) % 32);
        if (v >> i & 1)
            p[(lsb + i) / 32] |= bit;
        else
            p[(lsb + i) / 32] &= ~bit;
    }
}

// A struct's fields from its last (bit 0 up): each call packs or unpacks
// the next.
template <std::size_t N> struct packer {
    VlWide<N> &p;
    unsigned at = 0;
    explicit packer(VlWide<N> &port) : p(port)
    {
        for (std::size_t i = 0; i < N; i++)
            p[i] = 0;
    }
    packer &operator()(unsigned w, uint64_t v)
    {
        set_bits(p, at, w, v);
        at += w;
        return *this;
    }
};
template <std::size_t N> struct unpacker {
    const VlWide<N> &p;
    unsigned at = 0;
    explicit unpacker(const VlWide<N> &port) : p(port) {}
    uint64_t operator()(unsigned w)
    {
        at += w;
        return get_bits(p, at - w, w);
    }
};
constexpr std::size_t words(unsigned bits) { return (bits + 31) / 32; }

// tlp_hdr_t {sop, eop, kind, tag, len, err, addr}: a TLP beat's header.
constexpr unsigned kTlpHdrW = 1 + 1 + 2 + kTagW + kTlpLenW + 1 + kAddrW;
struct tlp_hdr {
    bool sop, eop;
    unsigned kind, tag, len;
    bool err;
    uint64_t addr;
};
template <std::size_t N> void put_tlp_hdr(VlWide<N> &p, const tlp_hdr &h)
{
    static_assert(N == words(kTlpHdrW), "tlp_hdr_t");
    packer<N>{p}(kAddrW, h.addr)(1, h.err)(kTlpLenW, h.len)(kTagW, h.tag)(2, h.kind)(1, h.eop)(
        1, h.sop);
}

// rd_req_t {len, addr}: a read asked of nictx_dma_rd.
constexpr unsigned kRdReqW = kLenW + kAddrW;
struct rd_req {
    uint64_t addr;
    unsigned len;
};
template <std::size_t N> void put_rd_req(VlWide<N> &p, uint64_t addr, unsigned len)
{
    static_assert(N == words(kRdReqW), "rd_req_t");
    packer<N>{p}(kAddrW, addr)(kLenW, len);
}
template <std::size_t N> rd_req get_rd_req(const VlWide<N> &p)
{
    static_assert(N == words(kRdReqW), "rd_req_t");
    unpacker<N> u(p);
    rd_req r;
    r.addr = u(kAddrW);
    r.len = (unsigned)u(kLenW);
    return r;
}

// desc_t {bad, err, len, addr}: a descriptor from nictx_desc_fetch.
constexpr unsigned kDescW = 1 + 1 + kLenW + kAddrW;
struct desc {
    uint64_t addr;
    unsigned len;
    bool bad, err;
};
template <std::size_t N> void put_desc(VlWide<N> &p, uint64_t addr, unsigned len, bool bad,
                                       bool err)
{
    static_assert(N == words(kDescW), "desc_t");
    packer<N>{p}(kAddrW, addr)(kLenW, len)(1, err)(1, bad);
}
template <std::size_t N> desc get_desc(const VlWide<N> &p)
{
    static_assert(N == words(kDescW), "desc_t");
    unpacker<N> u(p);
    desc d;
    d.addr = u(kAddrW);
    d.len = (unsigned)u(kLenW);
    d.err = u(1) != 0;
    d.bad = u(1) != 0;
    return d;
}

// wc_blk_t {idx, w0, w1}: a complete write-combining block.
constexpr unsigned kWcBlkW = kIdxW + 2 * kWordW;
struct wc_blk {
    unsigned idx;
    uint64_t w0, w1;
};
template <std::size_t N> void put_wc_blk(VlWide<N> &p, unsigned idx, uint64_t w0, uint64_t w1)
{
    static_assert(N == words(kWcBlkW), "wc_blk_t");
    packer<N>{p}(kWordW, w1)(kWordW, w0)(kIdxW, idx);
}
template <std::size_t N> wc_blk get_wc_blk(const VlWide<N> &p)
{
    static_assert(N == words(kWcBlkW), "wc_blk_t");
    unpacker<N> u(p);
    wc_blk b;
    b.w1 = u(kWordW);
    b.w0 = u(kWordW);
    b.idx = (unsigned)u(kIdxW);
    return b;
}

// cpl_wr_t {len, addr, data}: a completion write or MSI-X message.
constexpr unsigned kCplWrW = kWrLenW + kAddrW + kWordW;
struct cpl_wr {
    uint64_t addr, data;
    unsigned len;
};
template <std::size_t N> cpl_wr get_cpl_wr(const VlWide<N> &p)
{
    static_assert(N == words(kCplWrW), "cpl_wr_t");
    unpacker<N> u(p);
    cpl_wr w;
    w.data = u(kWordW);
    w.addr = u(kAddrW);
    w.len = (unsigned)u(kWrLenW);
    return w;
}

// Per-queue registers.  q_fetch_t {ring_log2, tail, ring_base}: the fetch
// queue's.
constexpr unsigned kQFetchW = kLog2W + kIdxW + kAddrW;
template <std::size_t N> void put_q_fetch(VlWide<N> &p, uint64_t ring_base, unsigned ring_log2,
                                          unsigned tail)
{
    static_assert(N == words(kQFetchW), "q_fetch_t");
    packer<N>{p}(kAddrW, ring_base)(kIdxW, tail)(kLog2W, ring_log2);
}
// q_cpl_t {ring_log2, tail, wb_addr, cq_base}: the completing queue's.
constexpr unsigned kQCplW = kLog2W + kIdxW + 2 * kAddrW;
template <std::size_t N> void put_q_cpl(VlWide<N> &p, unsigned ring_log2, unsigned tail,
                                        uint64_t wb_addr, uint64_t cq_base)
{
    static_assert(N == words(kQCplW), "q_cpl_t");
    packer<N>{p}(kAddrW, cq_base)(kAddrW, wb_addr)(kIdxW, tail)(kLog2W, ring_log2);
}
// q_wr_t {ring_log2, cq_log2, msix_data, wb_addr, ring_base, cq_base,
// msix_addr}: the queue whose completion write or interrupt goes out.
constexpr unsigned kQWrW = 2 * kLog2W + kMsixDataW + 4 * kAddrW;
template <std::size_t N> void put_q_wr(VlWide<N> &p, uint64_t wb_addr, uint64_t ring_base,
                                       unsigned ring_log2, uint64_t cq_base, unsigned cq_log2,
                                       uint64_t msix_addr, uint32_t msix_data)
{
    static_assert(N == words(kQWrW), "q_wr_t");
    packer<N>{p}(kAddrW, msix_addr)(kAddrW, cq_base)(kAddrW, ring_base)(kAddrW, wb_addr)(
        kMsixDataW, msix_data)(kLog2W, cq_log2)(kLog2W, ring_log2);
}

} // namespace bundles

#endif
