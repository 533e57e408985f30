// SPDX-License-Identifier: Apache-2.0
// test_desc_fetch.cpp - the C model's descriptor fetcher
// (c-model/cm_desc_fetch.c) in lockstep with rtl/nictx_desc_fetch.sv,
// Verilated alone with its assertions: with the engine's default 256 slots
// and 8 reads, 8 bytes a beat with 8 queues and 64 bytes a beat with one;
// with 64 slots and 2 reads at 16 bytes with 8 queues (regions of 8 slots),
// and with 128 slots and 4 reads at 32 bytes with 4 queues (the smaller
// --hw-desc-buf and --hw-desc-reads).
//
// The testbench plays the fetcher's neighbours (rtl/nictx_tx_top.sv):
//  - the register block: PROTO and QUEUES per reset (each seed its own
//    first), per-queue rings (4 to 1024 descriptors, now and then 65536)
//    answering f_q_o in the same clock, tails moved by doorbells,
//    DESC_FETCH_MAX and DESC_INFLIGHT changed now and then, ErrDma (stop)
//    raised and cleared, the enable dropped now and then;
//  - a driver: descriptors written into a host ring image (lengths 1..16383,
//    now and then 0 or above 16383; in the owner protocols with the owner
//    bit of their pass), then a doorbell (a TAIL write), sometimes many
//    clocks later; in Wc, WC closes with a complete block (its ring copy
//    written before, or late), torn with an index, without a usable index,
//    and blocks that replace held ones;
//  - the DMA read engine: requests taken when it likes, each read's
//    descriptors snapshot from the ring image when taken, returned in
//    beats of DataBytes lanes at the host address's alignment (words
//    outside the read disabled, their lanes garbage), interleaved across
//    the oldest reads, retired in order, 1 in 25 with done_err (and only
//    some of its data);
//  - the scheduler: a queue whose rdy_o bit is set, held until its head
//    leaves or is flushed; the payload fetch taking desc_* when it likes.
// Every output is compared on every clock (and the split functions against
// eval; odd seeds run eval then clock, even seeds step, seeds 4k
// step_split; the clocks the model finds quiet, its fast path, are
// counted: more than a tenth, and more in a flush waiting for its reads
// than there are flushes); and each descriptor that leaves is checked
// against the driver:
// ring order per queue, the words the driver wrote for that index, bad
// exactly for a length 0 or above 16383 (or, Tail, a failed read with err).
#include "Vnictx_desc_fetch_w16q8b64r2.h"
#include "Vnictx_desc_fetch_w32q4b128r4.h"
#include "Vnictx_desc_fetch_w64q1.h"
#include "Vnictx_desc_fetch_w8q8.h"
#include "common/lockstep.h"
#include "common/rtl_bundles.h"
#include "verilated.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

extern "C" { // cmocka 1.1.5's header has no C++ guard
#include <cmocka.h>
#include "cm_desc_fetch.h"
}

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <vector>

namespace {

using lockstep::put;
using lockstep::rng;

constexpr unsigned MaxQ = 8;

// A descriptor read in flight: its words as read when it was taken.
struct read {
    uint64_t addr;
    unsigned len, wptr, beat, beats;
    bool err;
    unsigned keep;          // beats delivered (all, or fewer for a failed read)
    std::vector<uint8_t> data;
};

// A doorbell or WC close the driver owes, due at a clock.
struct event {
    unsigned due, q, kind, g; // kind: 0 TAIL write, 1 complete block, 2 torn, 3 no index
};

// A ring write of descriptor g (queue 0, index i) the driver owes, due at a clock.
struct late_write {
    unsigned due, i, g;
};

struct counts {
    unsigned takes = 0, bad = 0, err = 0, not_owned = 0, flushes = 0, used = 0, drops = 0,
             reads = 0, fails = 0, waits = 0, subs = 0, mflush = 0, resets = 0;
    unsigned long clocks = 0, quiet = 0; // clocks, and those the model's fast path takes
    unsigned long flush_quiet = 0;       // of them, a flush's (waiting for its reads)
    unsigned proto_takes[3] = {0, 0, 0}, multi_takes[3] = {0, 0, 0};
};

// The model's elaboration parameters (the Verilated model's -G values).
struct hw {
    unsigned w, nq, slots, reads;
};

struct env {
    rng r;
    unsigned nq, w, slots, reads;
    // register block
    unsigned proto = 0, queues = 1, qlog2 = 0, fetch_max = 8, inflight = 8;
    bool enable = true, stop = false;
    unsigned stop_until = 0, en_until = 0;
    unsigned rlog[MaxQ];
    uint64_t base[MaxQ];
    unsigned tail[MaxQ];
    // driver: ring image, the descriptor each index should carry, counts
    std::vector<uint64_t> img0[MaxQ], img1[MaxQ], rec0[MaxQ], rec1[MaxQ];
    std::vector<uint32_t> recg[MaxQ];
    uint32_t pub[MaxQ], taken[MaxQ];
    std::deque<event> ev;
    std::vector<late_write> late; // Wc: ring writes owed (the block went first)
    // read engine
    std::deque<read> rd;
    // scheduler and payload fetch
    bool hold = false;
    unsigned sq = 0, ready_pct = 70;
    explicit env(uint32_t seed, const hw &p)
        : r(seed), nq(p.nq), w(p.w), slots(p.slots), reads(p.reads)
    {
    }
};

// DESC_FETCH_MAX: 1..64 as the register block allows (DescFetchMaxHw),
// small ones often, pcie-model's 40 and the most now and then, and
// beyond (the port's 7 bits).
unsigned fetch_max(rng &r)
{
    return r(3) == 0 ? 1 + r(4) : r(10) == 0 ? 65 + r(63) : r(8) == 0 ? (r(2) ? 40 : 64) : 1 + r(64);
}

// DESC_INFLIGHT: 1..MaxReads as the register block allows, and now and then
// above it (its reset value 4 with MaxReads 2, the port's 4 bits): the
// retirement FIFO's full flag then stops the reads.
unsigned inflight(env &e)
{
    return e.r(8) == 0 ? 1 + e.r(15) : 1 + e.r(e.reads);
}

unsigned ring_size(const env &e, unsigned q)
{
    return 1u << e.rlog[q];
}

// A new configuration after a reset: everything the driver knew is gone.
void configure(env &e, unsigned proto)
{
    e.proto = proto;
    e.queues = (e.nq == 1 || proto == CM_DF_PROTO_WC || e.r(5) == 0) ? 1 : 1 + e.r(e.nq);
    e.qlog2 = 0;
    while ((1u << e.qlog2) < e.queues)
        e.qlog2++;
    for (unsigned q = 0; q < MaxQ; q++) {
        e.rlog[q] = e.r(30) == 0 ? 16 : 2 + e.r(9);
        e.base[q] = (uint64_t)(q + 1) << 28 | (uint64_t)e.r(1u << 20) << 4;
        e.tail[q] = 0;
        e.pub[q] = e.taken[q] = 0;
        const unsigned n = ring_size(e, q);
        e.img0[q].assign(n, 0);
        e.img1[q].assign(n, 0);
        e.rec0[q].assign(n, 0);
        e.rec1[q].assign(n, 0);
        e.recg[q].assign(n, ~0u);
    }
    e.fetch_max = fetch_max(e.r);
    e.inflight = inflight(e);
    e.enable = true;
    e.stop = false;
    e.ev.clear();
    e.late.clear();
    e.rd.clear();
    e.hold = false;
    e.sq = 0;
    e.ready_pct = 30 + e.r(70);
}

// The driver writes descriptor g of queue q (its ring image now, or late).
void write_desc(env &e, unsigned q, uint32_t g, bool to_ring)
{
    const unsigned n = ring_size(e, q), i = g & (n - 1);
    uint64_t len = 1 + e.r(16383);
    if (e.r(40) == 0)
        len = e.r(2) ? 0 : 16384 + e.r(49152);
    const uint64_t owner = ((g >> e.rlog[q]) & 1u) == 0 ? 1 : 0; // phase 1 on the first pass
    const uint64_t w0 = (uint64_t)e.r(1u << 30) << 20 ^ e.r(1u << 30);
    const uint64_t w1 = owner << 63 | (uint64_t)e.r(1u << 16) << 32 | (uint64_t)e.r(1u << 14) << 16 |
                        len;
    e.rec0[q][i] = w0;
    e.rec1[q][i] = w1;
    e.recg[q][i] = g;
    if (to_ring) {
        e.img0[q][i] = w0;
        e.img1[q][i] = w1;
    }
}

// The driver's clock: descriptors written, doorbells and closes owed.
void drive_host(env &e, unsigned k, cm_desc_fetch_in &in)
{
    in.doorbell = in.wc_close = in.wc_idx_valid = in.blk_valid = false;
    in.db_q = e.r(e.queues);
    in.db_tail = e.tail[in.db_q];
    in.wc_idx = e.r(65536);
    in.blk_idx = e.r(65536);
    in.blk_w0 = e.r(65536);
    in.blk_w1 = e.r(65536);
    // Late ring writes (Wc) coming due.
    for (std::size_t j = 0; j < e.late.size();) {
        if (e.late[j].due <= k) {
            const unsigned i = e.late[j].i;
            e.img0[0][i] = e.rec0[0][i];
            e.img1[0][i] = e.rec1[0][i];
            e.late[j] = e.late.back();
            e.late.pop_back();
        } else {
            j++;
        }
    }
    if (!e.enable)
        return;
    // Publish: a queue with room in its ring.
    if (e.r(e.proto == CM_DF_PROTO_WC ? 12 : 5) == 0 && e.ev.size() < 16) {
        const unsigned q = e.r(e.queues), n = ring_size(e, q);
        // Tail: one slot stays free; the owner protocols may fill the ring.
        const unsigned room = n - (e.proto == CM_DF_PROTO_TAIL) - (e.pub[q] - e.taken[q]);
        if (room != 0) {
            unsigned cnt = 1 + e.r(room < 12 ? room : 12);
            unsigned kind = 0;
            if (e.proto == CM_DF_PROTO_WC) {
                kind = e.r(10) < 5 ? 1 : e.r(3) == 0 ? 0 : e.r(2) ? 2 : 3;
                if (kind != 0)
                    cnt = 1;
            }
            const bool late = kind == 1 && e.r(4) == 0;
            for (unsigned j = 0; j < cnt; j++)
                write_desc(e, q, e.pub[q] + j, !late);
            if (late)
                e.late.push_back({k + 1 + e.r(60), e.pub[q] & (n - 1), e.pub[q]});
            e.pub[q] += cnt;
            // The doorbell: now (Tail always: the TAIL write is the publication), or later.
            const unsigned delay = e.proto == CM_DF_PROTO_TAIL || e.r(3) ? 0 : e.r(40);
            e.ev.push_back({k + delay, q, kind, e.pub[q] - 1});
        }
    }
    // At most one doorbell a clock: the oldest due (in order per driver).
    if (!e.ev.empty() && e.ev.front().due <= k) {
        const event v = e.ev.front();
        e.ev.pop_front();
        const unsigned n = ring_size(e, v.q), idx = v.g & (n - 1);
        in.doorbell = true;
        in.db_q = v.q;
        in.db_tail = (v.g + 1) & (n - 1);
        if (v.kind != 0) {
            in.wc_close = true;
            in.wc_idx_valid = v.kind != 3;
            in.wc_idx = idx;
            in.blk_idx = idx;
            if (!in.wc_idx_valid)
                in.db_tail = e.tail[0]; // the tail stays
            if (v.kind == 1 && e.recg[0][idx] == v.g) {
                in.blk_valid = true;
                in.blk_w0 = e.rec0[0][idx];
                in.blk_w1 = e.rec1[0][idx];
            }
        }
        return;
    }
    // A spurious doorbell (the same tail) or a close of nothing now and then.
    if (e.r(200) == 0) {
        in.doorbell = true;
        if (e.proto == CM_DF_PROTO_WC && e.r(2)) {
            in.wc_close = true; // a torn block without an index
            in.db_q = 0;
            in.db_tail = e.tail[0];
        }
    }
}

// The read engine's clock: data beats, retirements, taking a request.
void drive_dma(env &e, cm_desc_fetch_in &in, uint8_t *beat)
{
    in.wr_valid = false;
    in.wr_words = 0;
    in.wr_ptr = e.r(16 * e.slots) & ~(e.w == 8 ? 7u : 15u);
    for (unsigned j = 0; j < e.w; j++)
        beat[j] = (uint8_t)e.r(256);
    in.done = false;
    in.done_err = e.r(2);
    // The oldest read retires once its data is in (on earlier clocks).
    if (!e.rd.empty() && e.rd.front().beat >= e.rd.front().keep && e.r(3) != 0) {
        in.done = true;
        in.done_err = e.rd.front().err;
    }
    // A beat of one of the three oldest reads with data left.
    if (!e.rd.empty() && e.r(4) != 0) {
        const unsigned pick = e.r(e.rd.size() < 3 ? (unsigned)e.rd.size() : 3);
        read &d = e.rd[pick];
        if (d.beat < d.keep) {
            const unsigned off = (unsigned)(d.addr % e.w);
            const int first = (int)(d.beat * e.w) - (int)off; // read byte at lane 0
            in.wr_valid = true;
            in.wr_ptr = (unsigned)(d.wptr + first) & (16 * e.slots - 1);
            for (unsigned j = 0; j < e.w / 8; j++) {
                const int b = first + (int)(8 * j);
                if (b >= 0 && b < (int)d.len) {
                    in.wr_words |= 1u << j;
                    std::memcpy(beat + 8 * j, &d.data[(unsigned)b], 8);
                }
            }
            d.beat++;
        }
    }
    in.req_ready = e.r(3) != 0;
}

template <class M> void drive(M &t, const cm_desc_fetch_in &in, unsigned w)
{
    t.enable_i = in.enable;
    t.queues_i = in.queues;
    t.queues_log2_i = in.queues_log2;
    t.db_q_i = in.db_q;
    t.db_tail_i = in.db_tail;
    t.sq_i = in.sq;
    t.sched_valid_i = in.sched_valid;
    t.proto_i = in.proto;
    t.stop_i = in.stop;
    t.doorbell_i = in.doorbell;
    t.wc_close_i = in.wc_close;
    t.wc_idx_valid_i = in.wc_idx_valid;
    t.wc_idx_i = in.wc_idx;
    t.h_ring_log2_i = in.h_ring_log2;
    t.fetch_max_i = in.fetch_max;
    t.inflight_i = in.inflight;
    t.blk_valid_i = in.blk_valid;
    bundles::put_wc_blk(t.blk_i, in.blk_idx, in.blk_w0, in.blk_w1);
    t.req_ready_i = in.req_ready;
    t.wr_valid_i = in.wr_valid;
    t.wr_ptr_i = in.wr_ptr;
    t.wr_words_i = in.wr_words;
    put(t.wr_data_i, in.wr_data, w);
    t.done_i = in.done;
    t.done_err_i = in.done_err;
    t.desc_ready_i = in.desc_ready;
}

template <class M> void compare(const M &t, const cm_desc_fetch_out &o, unsigned w,
                                uint32_t seed, unsigned clock, const env &e)
{
    const bundles::rd_req req = bundles::get_rd_req(t.req_o);
    const bundles::desc desc = bundles::get_desc(t.desc_o);
    const bool ok =
        t.f_q_o == o.f_q && t.rdy_o == o.rdy && t.work_o == o.work && t.desc_q_o == o.desc_q &&
        t.req_valid_o == o.req_valid && req.addr == o.req_addr && req.len == o.req_len &&
        t.req_wptr_o == o.req_wptr && t.desc_valid_o == o.desc_valid &&
        desc.addr == o.desc_addr && desc.len == o.desc_len && desc.bad == o.desc_bad &&
        desc.err == o.desc_err &&
        t.not_owned_o == o.not_owned && t.not_owned_cnt_o == o.not_owned_cnt &&
        t.flush_o == o.flush && t.wc_used_o == o.wc_used && t.wc_drop_o == o.wc_drop &&
        t.wait_o == o.wait && t.idle_o == o.idle;
    if (!ok)
        fail_msg("width %u seed %u clock %u (proto %u queues %u): RTL fq %u rdy %x work %x "
                 "req %u %llx/%u/%u desc %u %llx/%u bad %u err %u no %u/%u flush %u used %u "
                 "drop %u wait %u idle %u; model fq %u rdy %llx work %llx req %u %llx/%u/%u "
                 "desc %u %llx/%u bad %u err %u no %u/%u flush %u used %u drop %u wait %u "
                 "idle %u",
                 w, seed, clock, e.proto, e.queues, t.f_q_o, t.rdy_o, t.work_o, t.req_valid_o,
                 (unsigned long long)req.addr, req.len, t.req_wptr_o, t.desc_valid_o,
                 (unsigned long long)desc.addr, desc.len, desc.bad, desc.err,
                 t.not_owned_o, t.not_owned_cnt_o, t.flush_o, t.wc_used_o, t.wc_drop_o,
                 t.wait_o, t.idle_o, o.f_q, (unsigned long long)o.rdy,
                 (unsigned long long)o.work, o.req_valid, (unsigned long long)o.req_addr,
                 o.req_len, o.req_wptr, o.desc_valid, (unsigned long long)o.desc_addr,
                 o.desc_len, o.desc_bad, o.desc_err, o.not_owned, o.not_owned_cnt, o.flush,
                 o.wc_used, o.wc_drop, o.wait, o.idle);
}

// A descriptor left: ring order per queue, the driver's words, bad exactly
// for its length (or a failed read in Tail).
void check_take(env &e, const cm_desc_fetch_out &o, unsigned q, uint32_t seed, unsigned k,
                counts &n)
{
    const unsigned size = ring_size(e, q), i = e.taken[q] & (size - 1);
    const uint64_t len16 = e.rec1[q][i] & 0xFFFF;
    const bool bad = len16 == 0 || len16 > 16383;
    n.takes++;
    n.bad += o.desc_bad;
    n.err += o.desc_err;
    if (e.recg[q][i] != e.taken[q])
        fail_msg("seed %u clock %u: queue %u descriptor %u left, never published", seed, k, q,
                 e.taken[q]);
    if (o.desc_err) {
        if (e.proto != CM_DF_PROTO_TAIL || !o.desc_bad)
            fail_msg("seed %u clock %u: a failed read left as err (proto %u, bad %u)", seed, k,
                     e.proto, o.desc_bad);
    } else if (o.desc_addr != e.rec0[q][i] || o.desc_len != (e.rec1[q][i] & 0x3FFF) ||
               o.desc_bad != bad) {
        fail_msg("seed %u clock %u: queue %u descriptor %u: left %llx/%u bad %u, driver wrote "
                 "%llx/%llx",
                 seed, k, q, e.taken[q], (unsigned long long)o.desc_addr, o.desc_len,
                 o.desc_bad, (unsigned long long)e.rec0[q][i], (unsigned long long)e.rec1[q][i]);
    }
    // A ring write still owed is done by the time its descriptor has left
    // (before any read of the slot's next pass: else the slot would hold a
    // descriptor from two passes back, with the owner bit of this one).
    for (late_write &l : e.late)
        if (l.g == e.taken[q])
            l.due = 0;
    e.taken[q]++;
}

template <class M> void lockstep(const hw &p, uint32_t seed, unsigned clocks, counts &n)
{
    const unsigned w = p.w;
    const cm_desc_fetch_params dp = {p.w, p.nq, p.slots, p.reads};
    auto *ctx = new VerilatedContext();
    auto *t = new M(ctx, "df");
    auto *d = new cm_desc_fetch;
    cm_desc_fetch_in in;
    cm_desc_fetch_out o{}, s{};
    uint8_t beat[64];
    auto *e = new env(seed, p);

    assert_int_equal(cm_desc_fetch_init(d, &dp), 0);
    std::memset(&in, 0, sizeof(in));
    configure(*e, seed % 3);
    lockstep::reset(*t);
    unsigned next_reset = clocks / 4 + e->r(clocks / 2);
    for (unsigned k = 0; k < clocks; k++) {
        if (k == next_reset) {
            // A reset (a queue reset in the engine): a new configuration.
            next_reset = k + clocks / 4 + e->r(clocks / 2);
            configure(*e, e->r(3));
            n.resets++;
            assert_int_equal(cm_desc_fetch_reset(d, &dp), 0);
            lockstep::reset(*t);
        }
        // Register block: knobs now and then.
        if (e->r(2000) == 0)
            e->fetch_max = fetch_max(e->r);
        if (e->r(2000) == 0)
            e->inflight = inflight(*e);
        if (!e->stop && e->r(3000) == 0) {
            e->stop = true;
            e->stop_until = k + 20 + e->r(500);
        } else if (e->stop && k >= e->stop_until) {
            e->stop = false;
        }
        if (e->enable && e->r(5000) == 0) {
            e->enable = false;
            e->en_until = k + 10 + e->r(300);
        } else if (!e->enable && k >= e->en_until) {
            e->enable = true;
        }
        in.enable = e->enable;
        in.queues = e->queues;
        in.queues_log2 = e->qlog2;
        in.proto = e->proto;
        in.stop = e->stop;
        in.fetch_max = e->fetch_max;
        in.inflight = e->inflight;
        drive_host(*e, k, in);
        drive_dma(*e, in, beat);
        in.wr_data = beat;
        // The scheduler: a ready queue, held until its head leaves or goes.
        cm_desc_fetch_state_out(d, &s);
        if (e->hold && !(s.rdy >> e->sq & 1u))
            e->hold = false;
        if (!e->hold) {
            const uint64_t rdy = s.rdy & ((1ull << e->queues) - 1);
            if (rdy != 0 && e->r(5) != 0) {
                do
                    e->sq = e->r(e->queues);
                while (!(rdy >> e->sq & 1u));
            } else if (e->r(4) == 0) {
                e->sq = e->r(e->queues);
            }
        }
        // (nictx_tx_sched: with one queue, queue 0 and valid exactly when
        // it is ready; the fetcher's single-queue paths rely on sq_i 0.
        // With several, a DRR candidate may wait for its deficit.)
        if (e->queues == 1)
            e->sq = 0;
        in.sq = e->sq;
        in.sched_valid = (s.rdy >> e->sq & 1u) && (e->hold || e->queues == 1 || e->r(6) != 0);
        in.h_ring_log2 = e->rlog[e->sq];
        in.desc_ready = e->r(100) < e->ready_pct;
        // The register block answers the fetch queue, which the model names
        // before the answer is known (cm_desc_fetch_fq()); the RTL's f_q_o
        // is compared with it below, so both see the answer to their own.
        bool desc_valid;
        const unsigned fq = cm_desc_fetch_fq(d, &in, &desc_valid);
        in.ring_base = e->base[fq];
        in.ring_log2 = e->rlog[fq];
        in.tail = e->tail[fq];
        drive(*t, in, w);
        bundles::put_q_fetch(t->f_cfg_i, in.ring_base, in.ring_log2, in.tail);
        t->eval();
        cm_desc_fetch_head(d, &in, &s);
        // Odd seeds: eval, then clock below; even seeds: both in one step,
        // seeds 4k with the split functions' outputs given (the engine's way).
        n.clocks++;
        const bool quiet = cm_desc_fetch_quiet(d, &in);
        n.quiet += quiet;
        n.flush_quiet += quiet && d->flush;
        if (seed % 2) {
            cm_desc_fetch_eval(d, &in, &o);
        } else if (seed % 4) {
            cm_desc_fetch_step(d, &in, &o);
        } else {
            o = s;
            o.f_q = fq;
            o.desc_valid = desc_valid;
            cm_desc_fetch_step_split(d, &in, &o);
        }
        compare(*t, o, w, seed, k, *e);
        if (s.desc_addr != o.desc_addr || s.desc_len != o.desc_len || s.desc_bad != o.desc_bad ||
            s.desc_err != o.desc_err || fq != o.f_q || desc_valid != o.desc_valid)
            fail_msg("seed %u clock %u: the split functions differ from eval", seed, k);
        // Events.
        n.not_owned += o.not_owned;
        n.flushes += o.flush;
        n.used += o.wc_used;
        n.subs += o.wc_used && in.sched_valid && !o.desc_valid; // a substitution, not an insertion
        n.mflush += o.flush && e->queues > 1 && e->proto != CM_DF_PROTO_TAIL;
        if (o.desc_valid && in.desc_ready) {
            n.proto_takes[e->proto]++;
            n.multi_takes[e->proto] += e->queues > 1;
        }
        n.drops += o.wc_drop;
        n.waits += o.wait && !o.idle;
        if (o.desc_valid && in.desc_ready)
            check_take(*e, o, e->sq, seed, k, n);
        if (o.desc_valid && in.desc_ready)
            e->hold = false;
        else if (o.flush)
            e->hold = false;
        else if (in.sched_valid)
            e->hold = true;
        // The read engine takes the request: a snapshot of the ring.
        if (o.req_valid && in.req_ready) {
            read r;
            r.addr = o.req_addr;
            r.len = o.req_len;
            r.wptr = o.req_wptr;
            r.beat = 0;
            r.beats = (unsigned)((r.addr % w + r.len + w - 1) / w);
            r.err = e->r(25) == 0;
            r.keep = r.err ? e->r(r.beats + 1) : r.beats;
            const unsigned q = (unsigned)(r.addr >> 28) - 1;
            const unsigned i0 = (unsigned)((r.addr & 0xFFFFFFF) - (e->base[q] & 0xFFFFFFF)) / 16;
            r.data.resize(r.len + 16);
            for (unsigned j = 0; j < r.len / 16; j++) {
                const unsigned i = (i0 + j) & (ring_size(*e, q) - 1);
                std::memcpy(&r.data[16 * j], &e->img0[q][i], 8);
                std::memcpy(&r.data[16 * j + 8], &e->img1[q][i], 8);
            }
            e->rd.push_back(std::move(r));
            n.reads++;
        }
        if (in.done) {
            n.fails += in.done_err;
            e->rd.pop_front();
        }
        // The register block's tails (written at this edge).
        if (in.doorbell && (!in.wc_close || in.wc_idx_valid))
            e->tail[in.db_q] = in.db_tail;
        if (seed % 2)
            cm_desc_fetch_clock(d, &in);
        lockstep::edge(*t);
    }
    t->final();
    delete e;
    delete d;
    delete t;
    delete ctx;
}

void report(const char *name, const counts &n)
{
    print_message("%s: %u taken (%u bad, %u err), %u reads (%u failed), %u not owned, %u flushes, "
                  "%u WC used (%u substituted), %u dropped, %u waits, %u resets; taken by "
                  "Tail/Owner/Wc %u/%u/%u (several queues %u/%u), %u owner flushes with several "
                  "queues; %lu of %lu clocks quiet (%lu in a flush)\n",
                  name, n.takes, n.bad, n.err, n.reads, n.fails, n.not_owned, n.flushes, n.used,
                  n.subs, n.drops, n.waits, n.resets, n.proto_takes[0], n.proto_takes[1],
                  n.proto_takes[2], n.multi_takes[0], n.multi_takes[1], n.mflush, n.quiet,
                  n.clocks, n.flush_quiet);
}

// Seeds 1 to 8, or TEST_DESC_FETCH_SEEDS="first count" (more seeds by hand).
void seeds(uint32_t &first, uint32_t &count)
{
    first = 1;
    count = 8;
    if (const char *s = getenv("TEST_DESC_FETCH_SEEDS")) {
        unsigned long f, c;
        if (sscanf(s, "%lu %lu", &f, &c) == 2 && f >= 1 && c >= 8) {
            first = (uint32_t)f;
            count = (uint32_t)c;
        }
    }
}

// Every seed at one model's parameters, the counts reported under name.
template <class M> counts all_seeds(const hw &p, const char *name)
{
    counts n;
    uint32_t first, count;
    seeds(first, count);
    for (uint32_t seed = first; seed < first + count; seed++)
        lockstep<M>(p, seed, 80000, n);
    report(name, n);
    return n;
}

void test_desc_fetch_lockstep_w8q8(void **state)
{
    (void)state;
    const counts n = all_seeds<Vnictx_desc_fetch_w8q8>({8, 8, 256, 8}, "w8q8");
    assert_true(n.takes > 10000 && n.not_owned > 50 && n.flushes > 50 && n.err > 10 &&
                n.used > 10 && n.drops > 5 && n.quiet > n.clocks / 10 && n.flush_quiet > n.flushes);
}

void test_desc_fetch_lockstep_w64q1(void **state)
{
    (void)state;
    const counts n = all_seeds<Vnictx_desc_fetch_w64q1>({64, 1, 256, 8}, "w64q1");
    assert_true(n.takes > 10000 && n.not_owned > 50 && n.err > 10 && n.used > 10 &&
                n.drops > 5 && n.quiet > n.clocks / 10 && n.flush_quiet > n.flushes);
}

// The smaller buffer and fewer reads: a region of 8 slots per queue, at
// most 2 reads in flight; and 128 slots, 4 reads, 4 queues.
void test_desc_fetch_lockstep_w16q8b64r2(void **state)
{
    (void)state;
    const counts n = all_seeds<Vnictx_desc_fetch_w16q8b64r2>({16, 8, 64, 2}, "w16q8b64r2");
    assert_true(n.takes > 10000 && n.not_owned > 50 && n.flushes > 50 && n.err > 10 &&
                n.used > 10 && n.drops > 5 && n.quiet > n.clocks / 10 && n.flush_quiet > n.flushes && n.multi_takes[0] > 1000 &&
                n.multi_takes[1] > 1000);
}

void test_desc_fetch_lockstep_w32q4b128r4(void **state)
{
    (void)state;
    const counts n = all_seeds<Vnictx_desc_fetch_w32q4b128r4>({32, 4, 128, 4}, "w32q4b128r4");
    assert_true(n.takes > 10000 && n.not_owned > 50 && n.flushes > 50 && n.err > 10 &&
                n.used > 10 && n.drops > 5 && n.quiet > n.clocks / 10 && n.flush_quiet > n.flushes && n.multi_takes[0] > 1000);
}

// A parameter outside the RTL's elaboration checks: refused.
bool takes(cm_desc_fetch *d, unsigned w, unsigned nq, unsigned slots, unsigned reads)
{
    const cm_desc_fetch_params p = {w, nq, slots, reads};
    return cm_desc_fetch_reset(d, &p) == 0;
}

void test_cm_desc_fetch_params(void **state)
{
    (void)state;
    auto *d = new cm_desc_fetch;
    const cm_desc_fetch_params p = {8, 8, 256, 8};
    assert_int_equal(cm_desc_fetch_init(d, &p), 0);
    assert_false(takes(d, 24, 8, 256, 8));
    assert_false(takes(d, 8, 6, 256, 8));
    assert_false(takes(d, 64, 128, 256, 8));
    assert_true(takes(d, 64, 64, 256, 8));
    // BufDescs: a power of two in 32..256, at least NumQueues.
    assert_true(takes(d, 8, 32, 32, 8));
    assert_false(takes(d, 8, 64, 32, 8));
    assert_false(takes(d, 8, 1, 16, 8));
    assert_false(takes(d, 8, 1, 96, 8));
    assert_false(takes(d, 8, 1, 512, 8));
    assert_true(takes(d, 8, 64, 64, 8));
    // MaxReads: a power of two in 2..8.
    assert_true(takes(d, 8, 1, 256, 2));
    assert_false(takes(d, 8, 1, 256, 1));
    assert_false(takes(d, 8, 1, 256, 6));
    assert_false(takes(d, 8, 1, 256, 16));
    // The masks follow: 64 slots count modulo 128, 2 reads' pointers modulo 4.
    assert_true(takes(d, 16, 8, 64, 2));
    assert_int_equal(d->slotw, 6);
    assert_int_equal(d->smask, 63);
    assert_int_equal(d->pmask, 127);
    assert_int_equal(d->fimask, 1);
    assert_int_equal(d->fpmask, 3);
    delete d;
}

} // namespace

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cm_desc_fetch_params),
        cmocka_unit_test(test_desc_fetch_lockstep_w8q8),
        cmocka_unit_test(test_desc_fetch_lockstep_w64q1),
        cmocka_unit_test(test_desc_fetch_lockstep_w16q8b64r2),
        cmocka_unit_test(test_desc_fetch_lockstep_w32q4b128r4),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
