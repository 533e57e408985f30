// SPDX-License-Identifier: Apache-2.0
// test_regs.cpp - the C model's register block (c-model/cm_regs.c) in
// lockstep with rtl/nictx_regs.sv, Verilated alone with its assertions at
// the engine's parameters, NumQueues 8 and 1.
//
// The testbench plays the block's neighbours in rtl/nictx_tx_top.sv: the
// host's MWr and MRd beats (4 and 8 bytes at aligned and misaligned
// offsets, bad sizes) over the whole 8 KiB BAR: the register page, queue
// blocks of queues in use and not, the MSI-X table and PBA, the rest of
// the BAR, and the WC window's offsets (MRd only: the top sends MWrs there
// to nictx_wc); each beat held until taken; completions taken when the
// link likes; the engine's events at random (frames sent with their length
// and queue, descriptor and DMA reads, read stalls, bad descriptors, DMA
// errors, completion timeouts, stray completions, not-owned flushes, the
// WC window's events); quiescence, drained reads and the engine's idle
// coming and going, sometimes for long stretches, so a queue reset waits,
// fires on time or by CPL_TIMEOUT; the index ports asked for queues in
// use and answered (hr_head) for the queue the request names.  Every
// output is compared on every clock.  Directed tests read every
// register's reset value from the generated map (driver/nictx_regs_gen.h),
// see read-only registers refuse writes, time a queue reset, and check the
// counters against the events the test sent.
#include "Vnictx_regs_q1.h"
#include "Vnictx_regs_q8.h"
#include "common/lockstep.h"
#include "verilated.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

extern "C" { // cmocka 1.1.5's header has no C++ guard
#include <cmocka.h>
#include "cm_regs.h"
}

#include <cstdlib>
#include <cstring>

namespace {

using lockstep::rng;

// The generated map's registers, as lists.
struct reg_def {
    const char *name;
    unsigned off;
    uint32_t reset;
    bool ro;
};
#define RO_RO true
#define RO_RW false
#define RO_W1C false
#define REG_DEF(n, o, r, a, s) {#n, o, r, RO_##a},
const reg_def kPage[] = {NICTX_REGS(REG_DEF)};
const reg_def kQRegs[] = {NICTX_QREGS(REG_DEF)};
const reg_def kMsixRegs[] = {NICTX_MSIXREGS(REG_DEF)};
#undef REG_DEF
template <class T, std::size_t N> constexpr unsigned count(const T (&)[N])
{
    return N;
}

// Both sides' outputs, field by field: X(model field, RTL port).
#define OUTS(X)                                                                              \
    X(req_ready, req_ready_o) X(cpl_valid, cpl_valid_o) X(cpl_tag, cpl_tag_o)                 \
    X(cpl_len, cpl_len_o) X(cpl_off, cpl_off_o) X(cpl_data, cpl_data_o) X(cpl_err, cpl_err_o) \
    X(enable, enable_o) X(proto, proto_o) X(stop, stop_o) X(qrst, qrst_o)                     \
    X(rst_hold, rst_hold_o) X(wc_hold, wc_hold_o) X(cpl_timeout, cpl_timeout_o)               \
    X(doorbell, doorbell_o) X(db_q, db_q_o) X(db_tail, db_tail_o) X(queues, queues_o)         \
    X(queues_log2, queues_log2_o) X(sched_drr, sched_drr_o) X(drr_quantum, drr_quantum_o)     \
    X(f_ring_base, f_ring_base_o) X(f_ring_log2, f_ring_log2_o) X(f_tail, f_tail_o)           \
    X(c_ring_log2, c_ring_log2_o) X(c_tail, c_tail_o) X(c_wb_addr, c_wb_addr_o)               \
    X(c_cq_base, c_cq_base_o) X(w_wb_addr, w_wb_addr_o) X(w_ring_base, w_ring_base_o)         \
    X(w_ring_log2, w_ring_log2_o) X(w_cq_base, w_cq_base_o) X(w_cq_log2, w_cq_log2_o)         \
    X(w_msix_addr, w_msix_addr_o) X(w_msix_data, w_msix_data_o) X(msix_mask, msix_mask_o)     \
    X(s_weight, s_weight_o) X(s_ring_log2, s_ring_log2_o) X(hr_q, hr_q_o)                     \
    X(ring_base, ring_base_o) X(ring_log2, ring_log2_o) X(tail, tail_o)                       \
    X(wb_thresh, wb_thresh_o) X(wb_addr, wb_addr_o) X(irq_thresh, irq_thresh_o)               \
    X(irq_data, irq_data_o) X(irq_addr, irq_addr_o) X(irq_timer, irq_timer_o)                 \
    X(cpl_mode, cpl_mode_o) X(cq_base, cq_base_o) X(cq_log2, cq_log2_o)                       \
    X(mrrs_log2, mrrs_log2_o) X(mps_log2, mps_log2_o) X(line_rate, line_rate_o)               \
    X(desc_fetch_max, desc_fetch_max_o) X(desc_inflight, desc_inflight_o) X(max_tags, max_tags_o) \
    X(max_rd_bytes, max_rd_bytes_o) X(idle, idle_o)

// One side of the lockstep: the Verilated block and the model, clocked
// together.
template <class V> struct bench {
    VerilatedContext ctx;
    V t{&ctx, "regs"};
    cm_regs c;
    cm_regs_in in;
    cm_regs_out o;
    unsigned nq;
    uint32_t seed = 0;
    unsigned clock = 0;
    uint16_t head[CM_REGS_MAX_QUEUES]; // the completion logic's heads (hr_head)

    explicit bench(unsigned queues) : nq(queues)
    {
        assert_int_equal(cm_regs_reset(&c, nq), 0);
        std::memset(&in, 0, sizeof(in));
        std::memset(head, 0, sizeof(head));
        lockstep::reset(t);
    }
    ~bench() { t.final(); }

    void drive()
    {
        in.hr_head = head[cm_regs_hr_q(&c, in.req_off)];
        t.req_valid_i = in.req_valid;
        t.req_type_i = in.req_type;
        t.req_tag_i = in.req_tag;
        t.req_len_i = in.req_len;
        t.req_off_i = in.req_off;
        t.req_data_i = in.req_data;
        t.cpl_ready_i = in.cpl_ready;
        t.f_q_i = in.f_q;
        t.c_q_i = in.c_q;
        t.w_q_i = in.w_q;
        t.s_q_i = in.s_q;
        t.pba_i = in.pba;
        t.hr_head_i = in.hr_head;
        t.rd_stall_i = in.rd_stall;
        t.pkt_done_i = in.pkt_done;
        t.pkt_len_i = in.pkt_len;
        t.pkt_q_i = in.pkt_q;
        t.desc_rd_i = in.desc_rd;
        t.dma_rd_i = in.dma_rd;
        t.bad_desc_i = in.bad_desc;
        t.dma_err_i = in.dma_err;
        t.cpl_timeout_i = in.cpl_timeout;
        t.unexp_cpl_i = in.unexp_cpl;
        t.quiescent_i = in.quiescent;
        t.rd_drained_i = in.rd_drained;
        t.engine_idle_i = in.engine_idle;
        t.not_owned_i = in.not_owned;
        t.not_owned_cnt_i = in.not_owned_cnt;
        t.wc_bad_access_i = in.wc_bad_access;
        t.wc_close_i = in.wc_close;
        t.wc_tail_we_i = in.wc_tail_we;
        t.wc_tail_i = in.wc_tail;
        t.wc_tail_range_i = in.wc_tail_range;
        t.wc_torn_i = in.wc_torn;
        t.wc_drop_i = in.wc_drop;
        t.wc_used_i = in.wc_used;
        t.eval();
    }

    void compare()
    {
#define CMP(f, p)                                                                          \
    if ((uint64_t)o.f != (uint64_t)t.p)                                                    \
        fail_msg("queues %u seed %u clock %u: %s: RTL %llx model %llx (req %u type %u off " \
                 "%#x len %u data %llx)",                                                  \
                 nq, seed, clock, #p, (unsigned long long)t.p, (unsigned long long)o.f,    \
                 in.req_valid, in.req_type, in.req_off, in.req_len,                        \
                 (unsigned long long)in.req_data);
        OUTS(CMP)
#undef CMP
    }

    // One clock with the inputs in `in`: both sides' outputs compared, then
    // the rising edge.
    void step()
    {
        drive();
        cm_regs_eval(&c, &in, &o);
        compare();
        cm_regs_clock(&c, &in);
        lockstep::edge(t);
        clock++;
    }

    // A directed access (no events): the beat held until taken, then its
    // completion (for an MRd) taken; returns the completion's data.
    uint64_t access(unsigned type, unsigned off, unsigned len, uint64_t data, bool *err = nullptr)
    {
        in.req_valid = true;
        in.req_type = type;
        in.req_tag = (in.req_tag + 1) & 0xFF;
        in.req_off = off;
        in.req_len = len;
        in.req_data = data;
        in.cpl_ready = true;
        for (;;) {
            drive();
            const bool taken = t.req_ready_o;
            step();
            if (taken)
                break;
        }
        in.req_valid = false;
        if (type != CM_REGS_TLP_MRD)
            return 0;
        in.cpl_ready = false;
        step();
        assert_true(o.cpl_valid || c.cpl_valid);
        assert_int_equal(t.cpl_valid_o, 1);
        assert_int_equal(t.cpl_tag_o, in.req_tag);
        const uint64_t d = t.cpl_data_o;
        if (err)
            *err = t.cpl_err_o;
        in.cpl_ready = true;
        step();
        assert_int_equal(t.cpl_valid_o, 0);
        return d;
    }
    // A 4-byte register read (its lanes by address bit 2).
    uint32_t rd32(unsigned off, bool *err = nullptr)
    {
        return (uint32_t)(access(CM_REGS_TLP_MRD, off, 4, 0, err) >> (off & 4 ? 32 : 0));
    }
    void wr32(unsigned off, uint32_t v)
    {
        access(CM_REGS_TLP_MWR, off, 4, (uint64_t)v << (off & 4 ? 32 : 0));
    }
};

// ---- the random run ----

// A value a driver (or a buggy one) might write.
uint32_t value(rng &r)
{
    static const uint32_t special[] = {0,     1,      2,       3,        7,        8,
                                       12,    13,     16,      17,       31,       32,
                                       33,    63,     64,      65,       255,      256,
                                       257,   4095,   4096,    0xFFFF,   0x10000,  0x10001,
                                       0x1FFFFF, 0x200000, 0xFFFFFF, 0x1000000, 0xFFFFFFFF};
    switch (r(4)) {
    case 0: return r(21);
    case 1: return special[r(sizeof(special) / sizeof(special[0]))];
    case 2: return r(0x10000) | (uint32_t)r(0x10000) << 16;
    default: return r(512);
    }
}

// What the run saw, to show the stimulus reaches the corners.
struct seen {
    unsigned db = 0, enables = 0, resets = 0, rst_timeout = 0, ur = 0, reads = 0, writes = 0;
    unsigned wc_hold = 0, stalls = 0, enables_multi = 0, tail_db = 0;
    // What the engine's events add up to (the counters' expected values).
    uint32_t pkts = 0, desc_rd = 0, dma_rd = 0, rd_stall = 0, not_owned = 0, wc = 0, wc_drop = 0;
    uint64_t bytes = 0, qbytes[CM_REGS_MAX_QUEUES] = {};
    uint32_t qpkts[CM_REGS_MAX_QUEUES] = {};
};

// The next host request: its offset and size, then the data a driver
// writes there.
template <class V> void next_req(bench<V> &b, rng &r)
{
    cm_regs_in &in = b.in;
    const cm_regs &c = b.c;
    unsigned off = 0, reg = 0;
    bool pg = false, blk = false;
    in.req_type = r(5) < 3 ? CM_REGS_TLP_MWR : CM_REGS_TLP_MRD;
    // Enabled, the driver mostly rings doorbells.
    const unsigned pick = c.enable && r(2) ? 17 + r(2) : r(20);
    switch (pick) {
    case 17: // a tail in the page (also as the high dword of an 8-byte write)
        pg = true;
        off = NICTX_REG_TAIL;
        in.req_type = CM_REGS_TLP_MWR;
        break;
    case 18: // a queue's tail
        blk = true;
        off = NICTX_REG_Q(r(c.queues), NICTX_QREG_TAIL);
        in.req_type = CM_REGS_TLP_MWR;
        break;
    case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7: // the register page
        pg = true;
        off = r(8) ? kPage[r(count(kPage) - 2)].off : 4 * r(64);
        if (r(6) == 0)
            off = NICTX_REG_CTRL;
        break;
    case 8: case 9: case 10: case 11: { // a queue block: mostly of a queue in use
        const unsigned q = r(4) ? r(c.queues) : r(64);
        blk = true;
        reg = r(8) ? kQRegs[r(count(kQRegs))].off : 4 * r(16);
        off = NICTX_REG_Q(q, reg);
        break;
    }
    case 12: case 13: { // the MSI-X table
        const unsigned v = r(4) ? r(c.queues) : r(64);
        off = NICTX_REG_MSIX(v, kMsixRegs[r(count(kMsixRegs))].off);
        break;
    }
    case 14: // the PBA
        off = NICTX_REG_PBA_LO + 4 * r(2);
        break;
    case 15: // the WC window: the top sends only MRds here
        off = NICTX_WC_BASE + 4 * r(NICTX_WC_SIZE / 4);
        in.req_type = CM_REGS_TLP_MRD;
        break;
    case 16: // beyond the page, the table and the PBA
        off = r(2) ? 0x100 + 4 * r(64) : r(2) ? 0x400 + 4 * r(256) : 0xC08 + 4 * r(254);
        break;
    default: // the queue reset and the enable
        pg = true;
        off = NICTX_REG_CTRL;
        break;
    }
    // Sizes: 4 bytes at a 4-aligned offset, 8 at an 8-aligned one, or not.
    unsigned len = r(2) ? 4 : 8;
    if (len == 8)
        off &= ~7u;
    if (r(12) == 0) {
        static const unsigned bad[] = {0, 1, 2, 3, 5, 6, 7, 12, 16, 64, 4, 8};
        len = bad[r(12)];
        off += r(8);
        if (len == 4 && (off & 3) == 0)
            off += 1 + r(3);
        if (len == 8 && (off & 7) == 0)
            off += 4;
    }
    off &= 0x1FFF;
    if (in.req_type == CM_REGS_TLP_MWR && off >= NICTX_WC_BASE && off < NICTX_WC_BASE + NICTX_WC_SIZE)
        in.req_type = CM_REGS_TLP_MRD;
    // The data: what fits the register, mostly, in each dword's lanes.
    const unsigned q = blk ? (off >> 6) & 63 : 0;
    const unsigned lg = q < b.nq ? c.ring_log2[q] : 8;
    uint32_t dw[2];
    for (unsigned k = 0; k < 2; k++) {
        const unsigned o = pg ? ((off & 0xF8) | 4 * k) : blk ? ((off & 0x38) | 4 * k) : 0xFFFF;
        uint32_t v = value(r);
        if (pg && o == NICTX_REG_CTRL) {
            v = r(8) ? r(4) : value(r); // disable, enable, reset, both
            if (v == NICTX_CTRL_ENABLE && c.enable && r(3))
                v = 0; // an enabled engine is disabled soon
        } else if ((pg && o == NICTX_REG_TAIL) || (blk && o == NICTX_QREG_TAIL)) {
            v = r(8) ? r(1u << lg) : value(r);
        } else if (pg && o == NICTX_REG_CPL_TIMEOUT) {
            v = r(4) ? r(300) : value(r); // short: a reset waits it out
        } else if ((pg && o == NICTX_REG_RING_BASE_LO) || (blk && o == NICTX_QREG_RING_BASE_LO)) {
            v = r(6) ? 0x1000 * (1 + r(0x1000)) + r(16) : 0; // mostly a ring
        } else if ((pg && o == NICTX_REG_RING_BASE_HI) || (blk && o == NICTX_QREG_RING_BASE_HI)) {
            v = r(3) ? 0 : r(4);
        } else if (pg && o == NICTX_REG_QUEUES) {
            v = r(4) ? 1 + r(b.nq) : value(r);
        } else if (pg && o == NICTX_REG_PROTO) {
            v = r(4) ? r(3) : value(r);
        } else if (pg && o == NICTX_REG_ERR) {
            v = r(3) ? r(256) : 0; // clear some bits
        }
        dw[k] = v;
    }
    if (len == 4 && (off & 4))
        in.req_data = (uint64_t)dw[1] << 32 | r(0x10000); // the other lanes: anything
    else if (len == 4)
        in.req_data = (uint64_t)r(0x10000) << 32 | dw[0];
    else
        in.req_data = (uint64_t)dw[1] << 32 | dw[0];
    in.req_off = off;
    in.req_len = len;
    in.req_tag = r(256);
}

// The seed's style: how long quiescence and drained reads stay away.
struct style {
    unsigned q_flip, d_flip, ready;  // 1 in n clocks the level flips; link takes 1 in n
    bool drain_never;                // reads never drain: every reset by CPL_TIMEOUT
};

template <class V> void run(unsigned nq, uint32_t seed, unsigned clocks, const style &st)
{
    bench<V> b(nq);
    cm_regs_in &in = b.in;
    rng r(seed);
    seen s;
    bool req_pending = false;
    uint64_t pba = 0;
    b.seed = seed;
    in.quiescent = true;
    in.rd_drained = true;
    in.engine_idle = true;
    for (unsigned k = 0; k < clocks; k++) {
        // The host: a beat held until taken, with gaps; the offset changes
        // while no beat is offered (hr_q and db_tail follow it).
        if (!req_pending && r(3) == 0) {
            next_req(b, r);
            req_pending = true;
        } else if (!req_pending) {
            in.req_off = r(0x2000);
            in.req_type = r(4);
            in.req_len = r(16);
            in.req_data = (uint64_t)r(0x10000) << 48 | r(0x10000);
        }
        in.req_valid = req_pending;
        in.cpl_ready = r(st.ready) == 0;
        // The index ports: queues of the engine (< NumQueues).
        in.f_q = r(nq);
        in.c_q = r(nq);
        in.w_q = r(nq);
        in.s_q = r(nq);
        if (r(50) == 0)
            pba ^= 1ull << r(nq);
        in.pba = pba;
        if (r(4) == 0) {
            const unsigned q = r(nq);
            b.head[q] = (uint16_t)(b.head[q] + r(8));
        }
        // The engine's events.
        in.pkt_done = r(8) == 0;
        in.pkt_len = r(4) ? 60 + r(1455) : r(0x4000);
        in.pkt_q = r(nq);
        in.dma_rd = r(10) == 0;
        in.desc_rd = in.dma_rd && r(2);
        in.rd_stall = r(10) == 0;
        in.bad_desc = r(300) == 0;
        in.dma_err = r(400) == 0;
        in.cpl_timeout = r(1000) == 0;
        in.unexp_cpl = r(500) == 0;
        in.not_owned = r(200) == 0;
        in.not_owned_cnt = r(4) ? 1 + r(32) : r(0x10000);
        in.wc_close = r(150) == 0;
        in.wc_tail_we = in.wc_close ? r(2) : r(1000) == 0;
        in.wc_tail = r(8) ? r(256) : r(0x10000);
        in.wc_tail_range = r(500) == 0;
        in.wc_torn = r(400) == 0;
        in.wc_drop = r(300) == 0;
        in.wc_used = r(100) == 0;
        in.wc_bad_access = r(500) == 0;
        // Quiescence, drained reads and idle come and go.
        if (r(st.q_flip) == 0)
            in.quiescent = !in.quiescent;
        if (st.drain_never)
            in.rd_drained = false;
        else if (r(st.d_flip) == 0)
            in.rd_drained = !in.rd_drained;
        if (r(30) == 0)
            in.engine_idle = !in.engine_idle;

        b.step();
        const bool taken = in.req_valid && b.o.req_ready; // (the RTL's, compared)
        s.stalls += in.req_valid && !b.o.req_ready;

        // Tallies.
        if (taken) {
            req_pending = false;
            s.tail_db += b.o.doorbell && in.req_type == CM_REGS_TLP_MWR;
            s.reads += in.req_type == CM_REGS_TLP_MRD;
            s.writes += in.req_type == CM_REGS_TLP_MWR;
        }
        s.db += b.o.doorbell;
        s.wc_hold += b.o.wc_hold;
        if (b.o.cpl_valid && b.o.cpl_err && in.cpl_ready)
            s.ur++;
        if (b.c.enable && !b.o.enable) {
            s.enables++;
            s.enables_multi += b.c.queues > 1;
        }
        if (b.c.qrst) { // the pending reset fired this clock
            s.resets++;
            s.rst_timeout += !in.rd_drained;
        }
        if (in.pkt_done) {
            s.pkts++;
            s.bytes += in.pkt_len;
            s.qpkts[in.pkt_q]++;
            s.qbytes[in.pkt_q] += in.pkt_len;
        }
        s.desc_rd += in.desc_rd;
        s.dma_rd += in.dma_rd;
        s.rd_stall += in.rd_stall;
        s.not_owned += in.not_owned ? in.not_owned_cnt : 0;
        s.wc += in.wc_used;
        s.wc_drop += (unsigned)in.wc_torn + in.wc_drop;
    }

    // Quiet: no events; let the last request go and read the counters
    // (end to end: the events the test sent, the doorbells the RTL gave).
    std::memset(&in.rd_stall, 0, sizeof(in) - offsetof(cm_regs_in, rd_stall));
    in.quiescent = in.rd_drained = in.engine_idle = true;
    in.cpl_ready = true; /* a read's completion must leave for the next request */
    for (unsigned k = 0; req_pending; k++) {
        assert_true(k < 1000); /* the block takes a request within a few clocks */
        in.req_valid = true;
        b.step();
        req_pending = !b.o.req_ready;
        s.db += b.o.doorbell;
    }
    in.req_valid = false;
    b.step();
    b.step();
    assert_int_equal(b.rd32(NICTX_REG_CNT_DOORBELL), s.db);
    assert_int_equal(b.rd32(NICTX_REG_CNT_PKTS), s.pkts);
    assert_true(((uint64_t)b.rd32(NICTX_REG_CNT_BYTES_HI) << 32 | b.rd32(NICTX_REG_CNT_BYTES_LO)) ==
                s.bytes);
    assert_int_equal(b.rd32(NICTX_REG_CNT_DESC_RD), s.desc_rd);
    assert_int_equal(b.rd32(NICTX_REG_CNT_DMA_RD), s.dma_rd);
    assert_int_equal(b.rd32(NICTX_REG_CNT_RD_STALL), s.rd_stall);
    assert_int_equal(b.rd32(NICTX_REG_CNT_NOT_OWNED), s.not_owned);
    assert_int_equal(b.rd32(NICTX_REG_CNT_WC), s.wc);
    assert_int_equal(b.rd32(NICTX_REG_CNT_WC_DROP), s.wc_drop);
    const unsigned queues = b.rd32(NICTX_REG_QUEUES);
    for (unsigned q = 0; q < queues; q++) {
        assert_int_equal(b.rd32(NICTX_REG_Q(q, NICTX_QREG_CNT_PKTS)), s.qpkts[q]);
        const uint64_t lo = b.rd32(NICTX_REG_Q(q, NICTX_QREG_CNT_BYTES_LO));
        const uint64_t hi = b.rd32(NICTX_REG_Q(q, NICTX_QREG_CNT_BYTES_HI));
        assert_true((hi << 32 | lo) == s.qbytes[q]);
    }
    // The stimulus reached the corners.
    if (getenv("TEST_REGS_VERBOSE"))
        print_message("queues %u seed %u: reads %u writes %u stalled %u UR %u enables %u (with "
                      "QUEUES > 1: %u) doorbells %u (tail writes %u) resets %u (by timeout %u) wc_hold clocks %u, "
                      "QUEUES %u at the end\n",
                      nq, seed, s.reads, s.writes, s.stalls, s.ur, s.enables, s.enables_multi,
                      s.db, s.tail_db, s.resets, s.rst_timeout, s.wc_hold, queues);
    assert_true(s.enables > 0 && s.db > 0 && s.resets > 0 && s.ur > 0 && s.stalls > 0);
    assert_true(!st.drain_never || s.rst_timeout > 0);
    assert_true(nq == 1 || s.enables_multi > 0);
    assert_true(s.tail_db > 0);
}

const style kStyles[] = {
    {40, 100, 2, false},  // quiescence and drained reads come and go
    {300, 2000, 4, false}, // they stay away long
    {20, 1, 3, true},      // reads never drain: resets by CPL_TIMEOUT
    {5, 5, 1, false},      // everything flips fast, the link always takes
};

void test_regs_lockstep_q8(void **state)
{
    (void)state;
    for (uint32_t seed = 1; seed <= 4; seed++)
        run<Vnictx_regs_q8>(8, seed, 100000, kStyles[seed - 1]);
}

void test_regs_lockstep_q1(void **state)
{
    (void)state;
    for (uint32_t seed = 1; seed <= 4; seed++)
        run<Vnictx_regs_q1>(1, seed, 100000, kStyles[seed - 1]);
}

// ---- directed ----

// Every register reads its generated reset value (STATUS with the engine
// quiescent and idle; HEAD the completion logic's 0; PBA 0); a read-only
// register refuses a write (BAD_ACCESS) and keeps its value; the W1C ERR
// clears.
template <class V> void reset_values(unsigned nq)
{
    bench<V> b(nq);
    b.in.quiescent = b.in.rd_drained = b.in.engine_idle = true;
    bool err = true;
    for (const reg_def &g : kPage) {
        assert_int_equal(b.rd32(g.off, &err), g.reset);
        assert_false(err);
    }
    for (const reg_def &g : kQRegs)
        assert_int_equal(b.rd32(NICTX_REG_Q(0, g.off)), g.reset);
    for (const reg_def &g : kMsixRegs)
        assert_int_equal(b.rd32(NICTX_REG_MSIX(0, g.off)), g.reset);
    // Queue 1's block and vector 1's entry: not in use (QUEUES 1).
    assert_int_equal(b.rd32(NICTX_REG_Q(1, NICTX_QREG_WEIGHT), &err), 0);
    assert_true(err);
    assert_int_equal(b.rd32(NICTX_REG_MSIX(1, 0), &err), 0);
    assert_true(err);
    assert_int_equal(b.rd32(NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
    b.wr32(NICTX_REG_ERR, 0xFFFFFFFF);
    assert_int_equal(b.rd32(NICTX_REG_ERR), 0);
    for (const reg_def &g : kPage) {
        if (!g.ro)
            continue;
        b.wr32(g.off, 0xFFFFFFFF);
        assert_int_equal(b.rd32(NICTX_REG_ERR), NICTX_ERR_BAD_ACCESS);
        assert_int_equal(b.rd32(g.off), g.reset);
        b.wr32(NICTX_REG_ERR, NICTX_ERR_BAD_ACCESS);
        assert_int_equal(b.rd32(NICTX_REG_ERR), 0);
    }
}

void test_regs_reset_values(void **state)
{
    (void)state;
    reset_values<Vnictx_regs_q8>(8);
    reset_values<Vnictx_regs_q1>(1);
}

// A queue reset asked while enabled is refused; asked while disabled it
// waits for quiescence, then for the reads or CPL_TIMEOUT cycles, and
// pulses qrst for one cycle, clearing the tail and ERR.
void test_regs_queue_reset(void **state)
{
    (void)state;
    bench<Vnictx_regs_q8> b(8);
    cm_regs_in &in = b.in;
    in.quiescent = in.rd_drained = in.engine_idle = true;
    b.wr32(NICTX_REG_RING_BASE_LO, 0x10000);
    b.wr32(NICTX_REG_CPL_TIMEOUT, 100);
    b.wr32(NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    assert_int_equal(b.t.enable_o, 1);
    b.wr32(NICTX_REG_TAIL, 5);
    assert_int_equal(b.t.tail_o, 5);
    b.wr32(NICTX_REG_CTRL, NICTX_CTRL_RESET); // refused while enabled
    assert_int_equal(b.rd32(NICTX_REG_ERR), NICTX_ERR_CFG);
    assert_int_equal(b.t.rst_hold_o, 0);
    b.wr32(NICTX_REG_CTRL, 0);
    // Not quiescent, reads not drained: the wait runs from the request.
    in.quiescent = false;
    in.rd_drained = false;
    b.wr32(NICTX_REG_CTRL, NICTX_CTRL_RESET);
    assert_int_equal(b.t.rst_hold_o, 1);
    for (unsigned k = 0; k < 150; k++) {
        assert_int_equal(b.t.qrst_o, 0);
        b.step();
    }
    assert_int_equal(b.t.wc_hold_o, 1); // past CPL_TIMEOUT: WC writes held
    in.quiescent = true;
    b.step(); // fires here
    assert_int_equal(b.t.qrst_o, 1);
    assert_int_equal(b.t.rst_hold_o, 1);
    assert_int_equal(b.t.tail_o, 0);
    b.step();
    assert_int_equal(b.t.qrst_o, 0);
    assert_int_equal(b.t.idle_o, 1);
    assert_int_equal(b.rd32(NICTX_REG_ERR), 0);
    // Quiescent, no reads drained: it fires CPL_TIMEOUT cycles after it was
    // asked.
    b.wr32(NICTX_REG_CTRL, NICTX_CTRL_RESET);
    const unsigned t0 = b.clock;
    while (!b.t.qrst_o)
        b.step();
    assert_int_equal(b.clock - t0, 100 + 1);
    // Drained and quiescent: it fires at once.
    in.rd_drained = true;
    b.step();
    b.wr32(NICTX_REG_CTRL, NICTX_CTRL_RESET);
    assert_int_equal(b.t.qrst_o, 0);
    b.step();
    assert_int_equal(b.t.qrst_o, 1);
}

void test_cm_regs_sizes(void **state)
{
    (void)state;
    auto *c = new cm_regs();
    assert_int_equal(cm_regs_reset(c, 0), -1);
    assert_int_equal(cm_regs_reset(c, 12), -1);
    assert_int_equal(cm_regs_reset(c, 128), -1);
    assert_int_equal(cm_regs_reset(c, 1), 0);
    assert_int_equal(cm_regs_reset(c, 64), 0);
    delete c;
}

} // namespace

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cm_regs_sizes),
        cmocka_unit_test(test_regs_reset_values),
        cmocka_unit_test(test_regs_queue_reset),
        cmocka_unit_test(test_regs_lockstep_q8),
        cmocka_unit_test(test_regs_lockstep_q1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
