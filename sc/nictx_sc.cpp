// SPDX-License-Identifier: Apache-2.0
// nictx_sc.cpp - the nictx engine as a SystemC TLM-2.0 module (nictx_sc.h).
//
// One SC_THREAD plays what sim/run/loop.c, sim/run/host_tlp.c and sim/run/dev_port.c do for the
// native simulator, on SystemC time: deliver what is due on the links, clock
// the engine one edge, sleep over the clocks where nothing can change.
#include "nictx_sc.h"

#include <cstring>
#include <stdexcept>
#include <string>

extern "C" {
#include "nictx_hw.h"
#include "pcie/rc.h"
#include "lib/simtime.h"
#include "device/tlp_beat.h"
#include "txq_reg.h"
}

using sc_core::sc_time;
using sc_core::SC_PS;

namespace {

// Bus address of BAR0 on the h2d TLPs (the engine decodes the offset bits;
// the native simulator uses the same base, SIM_BAR0_BASE in sim_world.h).
constexpr uint64_t kBar0Base = 0xfe000000ull;
constexpr uint64_t kNever = SIM_PS_NEVER;

sc_time ps(uint64_t t) { return sc_time(static_cast<double>(t), SC_PS); }

bool bar0_write_ok(uint64_t off, unsigned len)
{
    if ((len == 4 || len == 8) && off % len == 0)
        return true;
    // A write-combining line piece: whole 8-byte words inside one block.
    return off >= NICTX_WC_BASE && off + len <= NICTX_WC_BASE + NICTX_WC_SIZE && len % 8 == 0 &&
           off % 8 == 0 && off / NICTX_WC_BLOCK == (off + len - 1) / NICTX_WC_BLOCK;
}

bool bar0_read_ok(uint64_t off, unsigned len)
{
    return (len == 1 || len == 2 || len == 4 || len == 8) && off / 8 == (off + len - 1) / 8;
}

// A BAR0 access's response before it is carried out: OK, or why it is
// refused (outside BAR0, a size or alignment the engine does not take, a
// byte enable off).
tlm::tlm_response_status bar0_check(const tlm::tlm_generic_payload &gp)
{
    const uint64_t off = gp.get_address();
    const unsigned len = gp.get_data_length();
    const unsigned char *be = gp.get_byte_enable_ptr();
    const bool wr = gp.get_command() == tlm::TLM_WRITE_COMMAND;

    if (off >= NICTX_BAR0_SIZE || len > NICTX_BAR0_SIZE - off)
        return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    if (len == 0 || gp.get_streaming_width() < len ||
        !(wr ? bar0_write_ok(off, len) : bar0_read_ok(off, len)))
        return tlm::TLM_BURST_ERROR_RESPONSE;
    for (unsigned i = 0; be && i < len; i++)
        if (be[i % gp.get_byte_enable_length()] != TLM_BYTE_ENABLED)
            return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
    return tlm::TLM_OK_RESPONSE;
}

} // namespace

std::ostream &operator<<(std::ostream &os, const nictx_sc_frame &f)
{
    return os << "frame(" << f.data.size() << " B @ " << f.start << ")";
}

nictx_sc::nictx_sc(sc_core::sc_module_name name, const nictx_sc_cfg &cfg)
    : sc_module(name), bar0("bar0"), dma("dma"), irq("irq"),
      wire("wire", static_cast<int>(cfg.wire_fifo ? cfg.wire_fifo : 1)), cfg_(cfg),
      ops_(dev_rtl_ops_width(cfg.width)), period_ps_(sim_ns_to_ps(1000.0 / cfg.dev_mhz))
{
    char err[160];

    if (!ops_)
        throw std::runtime_error("nictx_sc: no engine model of width " + std::to_string(cfg.width));
    if (!(cfg.dev_mhz > 0) || period_ps_ == 0)
        throw std::runtime_error("nictx_sc: bad device clock");
    if (pcie_cfg_validate(&cfg_.pcie, err, sizeof(err)) != 0)
        throw std::runtime_error(std::string("nictx_sc: ") + err);
    h2d_ = pcie_link_create(&cfg_.pcie);
    d2h_ = pcie_link_create(&cfg_.pcie);
    if (!h2d_ || !d2h_ || pcie_link_pair(h2d_, d2h_) != 0 || tlpq_init(&cpu_out_, 16) != 0 ||
        tlpq_init(&cpl_, 64) != 0 || !(dev_ = ops_->create())) {
        release();
        throw std::runtime_error("nictx_sc: out of memory");
    }
    ops_->reset(dev_);
    bar0.register_b_transport(this, &nictx_sc::b_transport);
    SC_HAS_PROCESS(nictx_sc);
    SC_THREAD(run);
    SC_METHOD(irq_drive);
    sensitive << irq_ev_;
    dont_initialize();
}

nictx_sc::~nictx_sc()
{
    release();
}

void nictx_sc::release()
{
    if (dev_)
        ops_->destroy(dev_);
    dev_ = nullptr;
    pcie_link_destroy(h2d_);
    pcie_link_destroy(d2h_);
    h2d_ = d2h_ = nullptr;
    tlpq_destroy(&cpu_out_);
    tlpq_destroy(&cpl_);
}

uint64_t nictx_sc::now_ps() const
{
    return static_cast<uint64_t>(sc_core::sc_time_stamp().to_seconds() * 1e12 + 0.5);
}

void nictx_sc::error(const char *what)
{
    SC_REPORT_ERROR(name(), what);
}

// ------------------------------------------------------------------ BAR0

void nictx_sc::b_transport(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    const uint64_t off = gp.get_address();
    const unsigned len = gp.get_data_length();
    const bool wr = gp.get_command() == tlm::TLM_WRITE_COMMAND;

    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    if (gp.get_command() == tlm::TLM_IGNORE_COMMAND)
        return;
    const tlm::tlm_response_status why = bar0_check(gp);
    if (why != tlm::TLM_OK_RESPONSE) {
        st_.mmio_errors++;
        gp.set_response_status(why);
        return;
    }

    uint64_t at = now_ps() + static_cast<uint64_t>(delay.to_seconds() * 1e12 + 0.5);
    if (at < cpu_out_last_)
        at = cpu_out_last_;
    if (!wr) { // one read at a time: the next waits for the previous
        while (mmio_busy_)
            wait(mmio_done_);
        mmio_busy_ = true;
        if (at < now_ps())
            at = now_ps();
    }
    struct tlp *t = tlpq_push(&cpu_out_, at);
    if (!t) {
        error("out of memory queueing a BAR0 access");
        gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    cpu_out_last_ = at;
    std::memset(t, 0, offsetof(struct tlp, data));
    t->type = wr ? TLP_MWR : TLP_MRD;
    t->last = 1;
    t->len = static_cast<uint16_t>(len);
    t->addr = kBar0Base + off;
    wake_.notify(sc_core::SC_ZERO_TIME);
    if (wr) {
        unsigned q;
        uint32_t r;
        bool db = txq_reg_decode(off, &q, &r) && r == NICTX_QREG_TAIL;
        bool wc = off >= NICTX_WC_BASE && off < NICTX_WC_BASE + NICTX_WC_SIZE;
        t->kind = db ? TLP_KIND_DOORBELL : wc ? TLP_KIND_BF_WR : TLP_KIND_MMIO_WR;
        std::memcpy(t->data, gp.get_data_ptr(), len);
        st_.mmio_writes++;
        return; // posted: the caller's time goes on
    }
    t->kind = TLP_KIND_MMIO_RD;
    t->tag = mmio_tag_ = static_cast<uint8_t>((mmio_tag_ + 1) & 0x3f);
    delay = sc_core::SC_ZERO_TIME; // the call returns when the completion arrives
    bar0_read_wait(gp);
}

// A BAR0 read's completion, waited for: its data, or all ones and an error
// response when the device answered Unsupported Request.
void nictx_sc::bar0_read_wait(tlm::tlm_generic_payload &gp)
{
    const unsigned len = gp.get_data_length();

    mmio_waiting_ = true;
    while (mmio_waiting_)
        wait(mmio_done_);
    st_.mmio_reads++;
    if (mmio_cpl_.status == TLP_STATUS_SC) {
        std::memset(gp.get_data_ptr(), 0, len);
        std::memcpy(gp.get_data_ptr(), mmio_cpl_.data, mmio_cpl_.len < len ? mmio_cpl_.len : len);
    } else { // Unsupported Request: a CPU load reads all ones
        std::memset(gp.get_data_ptr(), 0xff, len);
        st_.mmio_errors++;
        gp.set_response_status(len == 4 || len == 8 ? tlm::TLM_ADDRESS_ERROR_RESPONSE
                                                    : tlm::TLM_BURST_ERROR_RESPONSE);
    }
    mmio_busy_ = false;
    mmio_done_.notify(sc_core::SC_ZERO_TIME);
}

// -------------------------------------------------- host end of the link

void nictx_sc::host_read(const struct tlp *rd, uint64_t at)
{
    struct pcie_chunk ch[TLP_MAX_DATA / 64 + 2];
    uint8_t buf[TLP_MAX_DATA];
    tlm::tlm_generic_payload gp;
    sc_time delay = sc_core::SC_ZERO_TIME;

    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(rd->addr);
    gp.set_data_ptr(buf);
    gp.set_data_length(rd->len);
    gp.set_streaming_width(rd->len);
    gp.set_byte_enable_ptr(nullptr);
    gp.set_dmi_allowed(false);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    dma->b_transport(gp, delay);
    st_.dma_reads++;
    const bool ok = gp.get_response_status() == tlm::TLM_OK_RESPONSE;
    if (!ok) {
        st_.dma_read_errors++;
        std::memset(buf, 0, rd->len);
    }
    uint64_t ready = at + static_cast<uint64_t>(delay.to_seconds() * 1e12 + 0.5);
    if (ready < cpl_last_)
        ready = cpl_last_; // completions leave in arrival order
    cpl_last_ = ready;
    size_t n = pcie_split_cpl(&cfg_.pcie, rd->addr, rd->len, ch, sizeof(ch) / sizeof(ch[0]));
    for (size_t i = 0; i < n; i++) {
        struct tlp *c = tlpq_push(&cpl_, ready);
        if (!c) {
            error("out of memory queueing completions");
            return;
        }
        std::memset(c, 0, offsetof(struct tlp, data));
        c->type = TLP_CPLD;
        c->kind = TLP_KIND_PAYLOAD_CPL;
        c->tag = rd->tag;
        c->last = i + 1 == n;
        c->ro = rd->ro;
        c->status = ok ? TLP_STATUS_SC : TLP_STATUS_UR;
        c->addr = ch[i].addr;
        c->len = static_cast<uint16_t>(ch[i].len);
        std::memcpy(c->data, buf + (ch[i].addr - rd->addr), ch[i].len);
    }
}

void nictx_sc::host_write(const struct tlp *wr)
{
    tlm::tlm_generic_payload gp;
    sc_time delay = sc_core::SC_ZERO_TIME;

    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(wr->addr);
    gp.set_data_ptr(const_cast<uint8_t *>(wr->data));
    gp.set_data_length(wr->len);
    gp.set_streaming_width(wr->len);
    gp.set_byte_enable_ptr(nullptr);
    gp.set_dmi_allowed(false);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    dma->b_transport(gp, delay); // posted: the delay is the target's business
    st_.dma_writes++;
    if (gp.get_response_status() != tlm::TLM_OK_RESPONSE)
        st_.dma_write_errors++;
}

void nictx_sc::host_receive(const struct tlp *t, uint64_t at)
{
    switch (t->type) {
    case TLP_MRD:
        host_read(t, at);
        break;
    case TLP_MWR:
        if (rc_is_msi(t->addr)) { // MSI-X: a pulse, not a memory write
            st_.irqs++;
            irq_until_ = sc_core::sc_time_stamp() + ps(period_ps_);
            irq_ev_.notify(sc_core::SC_ZERO_TIME);
        } else {
            host_write(t);
        }
        break;
    default: // a register read's completion
        if (mmio_waiting_ && t->tag == mmio_tag_) {
            std::memcpy(&mmio_cpl_, t, offsetof(struct tlp, data) + t->len);
            mmio_waiting_ = false;
            mmio_done_.notify(sc_core::SC_ZERO_TIME);
        }
        break;
    }
}

// The one driver of irq: high until irq_until_ (one device clock per
// message), then low.
void nictx_sc::irq_drive()
{
    const sc_time now = sc_core::sc_time_stamp();
    const bool high = now < irq_until_;
    irq.write(high);
    if (high)
        next_trigger(irq_until_ - now, irq_ev_);
}

// Everything due at or before `now`, in time order (sim_deliver's loop).
void nictx_sc::deliver(uint64_t now)
{
    for (;;) {
        uint64_t tc = tlpq_next(&cpu_out_), tm = tlpq_next(&cpl_);
        uint64_t td = pcie_link_next_arrival(d2h_), tl = pcie_link_next_internal(h2d_);
        uint64_t t = tc < tm ? tc : tm;
        if (td < t)
            t = td;
        if (tl < t)
            t = tl;
        if (t > now)
            return;
        pcie_link_advance(h2d_, t);
        if (t == tl)
            continue;
        if (t == td) {
            const struct tlp *p = pcie_link_peek(d2h_);
            host_receive(p, t);
            if (pcie_link_rx_release(d2h_, t, p) != 0)
                error("device-to-host link: credit release failed");
            pcie_link_pop(d2h_);
        } else if (t == tc) {
            if (pcie_link_send(h2d_, t, tlpq_peek(&cpu_out_)) != 0)
                error("host-to-device link refused a BAR0 TLP");
            tlpq_pop(&cpu_out_);
        } else {
            if (pcie_link_send(h2d_, t, tlpq_peek(&cpl_)) != 0)
                error("host-to-device link refused a completion");
            tlpq_pop(&cpl_);
        }
    }
}

uint64_t nictx_sc::next_event() const
{
    uint64_t t = tlpq_next(&cpu_out_), x;
    if ((x = tlpq_next(&cpl_)) < t)
        t = x;
    if ((x = pcie_link_next_event(h2d_)) < t)
        t = x;
    if ((x = pcie_link_next_event(d2h_)) < t)
        t = x;
    return t;
}

// ------------------------------------------------------------ the engine

void nictx_sc::wire_beat(const struct dev_wire_beat &w, uint64_t now)
{
    const unsigned n = w.bytes > ops_->width ? ops_->width : w.bytes;

    if (w.sop) {
        frame_.data.clear();
        frame_.start = ps(now);
        frame_open_ = true;
    }
    if (!frame_open_)
        return;
    frame_.data.insert(frame_.data.end(), w.data, w.data + n);
    if (w.eop) {
        frame_.fcs = w.fcs;
        frame_open_ = false;
        if (!wire.nb_write(frame_))
            error("wire FIFO full at the end of a frame");
        st_.frames++;
    }
}

// One clock edge at `now` (sim_clock's contract): true when the engine is
// quiescent after it and no beat moved or waits.
bool nictx_sc::clock(uint64_t now)
{
    struct dev_in in;
    struct dev_out out;
    const struct tlp *h = nullptr;
    const unsigned w = ops_->width;

    std::memset(&in, 0, sizeof(in));
    if (pcie_link_next_arrival(h2d_) <= now) {
        h = pcie_link_peek(h2d_);
        tlp_beat_from_tlp(w, h, h2d_beat_, &in.h2d);
    }
    in.d2h_ready = 1;
    // A frame that started is taken whole: the FIFO had room for it.
    in.wire_ready = frame_open_ || wire.num_free() > 0;
    in.skip = skip_pending_ > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(skip_pending_);
    skip_pending_ = 0;
    ops_->step(dev_, &in, &out);
    st_.cycles++;
    dev_idle_ = out.idle;
    dev_wake_ = out.wake == UINT32_MAX ? kNever : out.wake > in.skip ? out.wake - in.skip : 0;

    const bool took = in.h2d.valid && out.h2d_ready;
    if (took) {
        if (in.h2d.eop) {
            if (pcie_link_rx_release(h2d_, now, h) != 0)
                error("host-to-device link: credit release failed");
            pcie_link_pop(h2d_);
            h2d_beat_ = 0;
        } else {
            h2d_beat_++;
        }
    }
    if (out.d2h.valid && tlp_beat_collect(w, &d2h_tlp_, &d2h_beat_, &out.d2h)) {
        struct tlp *t = &d2h_tlp_;
        if (t->type == TLP_CPLD || t->type == TLP_CPL) {
            t->addr &= NICTX_BAR0_SIZE - 1; // a BAR0 offset
            t->kind = TLP_KIND_MMIO_CPL;
        } else if (t->type == TLP_MWR) {
            t->kind = rc_is_msi(t->addr) ? TLP_KIND_IRQ : TLP_KIND_COMPLETION;
        } else {
            t->kind = TLP_KIND_PAYLOAD_RD; // the module does not know the ring
        }
        pcie_link_advance(h2d_, now);
        if (pcie_link_send(d2h_, now, t) != 0)
            error("device-to-host link refused a TLP");
    }
    const bool wire_moved = out.wire.valid && in.wire_ready;
    if (wire_moved)
        wire_beat(out.wire, now);
    return (out.idle || out.waiting) && !took && !in.h2d.valid && !out.d2h.valid &&
           !out.wire.valid;
}

void nictx_sc::run()
{
    uint64_t now = 0; // the next clock edge

    for (;;) {
        const uint64_t t = now_ps();
        if (t < now)
            wait(ps(now - t));
        deliver(now);
        const bool quiet = clock(now);
        now += period_ps_;
        if (!quiet)
            continue;
        // Quiescent: leave out the clocks before the next event (no further
        // than the completion timer allows), or until a BAR0 access.
        const uint64_t ev = next_event();
        uint64_t k = ev == kNever ? kNever : ev <= now ? 0 : (ev - now + period_ps_ - 1) / period_ps_;
        if (!dev_idle_ && k > dev_wake_)
            k = dev_wake_;
        if (k == 0)
            continue;
        const uint64_t cur = now_ps();
        if (k == kNever)
            wait(wake_);
        else if (now + k * period_ps_ > cur) // (a memory target that waited made us late)
            wait(ps(now + k * period_ps_ - cur), wake_);
        // Woken early by a BAR0 access: the first edge at or after it.
        const uint64_t woke = now_ps();
        const uint64_t kw = woke <= now ? 0 : (woke - now + period_ps_ - 1) / period_ps_;
        if (kw < k)
            k = kw;
        now += k * period_ps_;
        skip_pending_ = k;
        st_.cycles_skipped += k;
    }
}
