// SPDX-License-Identifier: Apache-2.0
// vp.cpp - the example virtual platform (vp.h).
#include "vp.h"

#include <stdexcept>
#include <string>

extern "C" {
#include "nictx_hw.h"
}

using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_PS;

namespace {
constexpr uint64_t kHostBase = 0x100000000ull; // as SIM_HOST_BASE (sim/run/sim_world.h)

// The driver's DMA memory, as nictx run sizes it (sim_cfg_host_mem).
size_t host_mem_size(const struct sim_cfg &c)
{
    return sim_cfg_host_mem(&c);
}
} // namespace

uint64_t nictx_vp_digest(uint64_t h, const uint8_t *frame, unsigned len, uint32_t fcs)
{
    auto add = [&h](uint8_t b) { h = (h ^ b) * 1099511628211ull; };
    for (unsigned i = 0; i < 4; i++)
        add(static_cast<uint8_t>(len >> (8 * i)));
    for (unsigned i = 0; i < len; i++)
        add(frame[i]);
    for (unsigned i = 0; i < 4; i++)
        add(static_cast<uint8_t>(fcs >> (8 * i)));
    return h;
}

nictx_sc_cfg nictx_vp::nic_cfg(const struct sim_cfg &cfg)
{
    nictx_sc_cfg n;
    n.width = cfg.dev_width;
    n.dev_mhz = cfg.dev_mhz;
    n.pcie = cfg.pcie;
    return n;
}

nictx_vp::nictx_vp(sc_core::sc_module_name name, const struct sim_cfg &cfg, sc_time quantum)
    : sc_module(name), cpu_bar0("cpu_bar0"),
      mem("mem", kHostBase, host_mem_size(cfg), sc_time(cfg.mem_latency_ns, SC_NS)),
      nic("nic", nic_cfg(cfg)), cfg_(cfg), irq_("irq")
{
    char err[200];
    struct sb_cfg sbc;

    if (sim_cfg_validate(&cfg, err, sizeof(err)) != 0)
        throw std::runtime_error(std::string("nictx_vp: ") + err);
    if (cfg.queues != 1)
        throw std::runtime_error("nictx_vp: one queue only (device.queues must be 1)");
    gen_.seed = cfg.seed;
    gen_.min_len = cfg.pkt_size - 4;
    gen_.max_len = cfg.pkt_size_max - 4;
    sbc.gen = gen_;
    sbc.expected = cfg.packets;
    sbc.max_outstanding = cfg.ring_size;
    sbc.queues = 1; /* the virtual platform has one queue */
    if (!(sb_ = sb_create(&sbc)))
        throw std::runtime_error("nictx_vp: cannot build the scoreboard");

    cpu_bar0.bind(nic.bar0);
    nic.dma.bind(mem.socket);
    nic.irq.bind(irq_);
    // The quantum is the kernel's, shared by every keeper (one per platform).
    tlm_utils::tlm_quantumkeeper::set_global_quantum(quantum);
    plat_.bar0 = &cpu_bar0;
    plat_.mem = &mem;
    plat_.costs = cfg.costs;
    plat_.on_mmio_write = mmio_written;
    plat_.ctx = this;
    plat_.qk.reset();

    sim_cfg_txq(&cfg_, &tc_);
    pc_.count = cfg.packets;
    pc_.burst = cfg.burst;
    pc_.max_len = gen_.max_len;
    pc_.buf_offset = cfg.buf_offset;
    pc_.buf_place = cfg.buf_place.mode;
    pc_.buf_align = cfg.buf_place.align;
    pc_.len = pkt_len;
    pc_.fill = pkt_fill;
    pc_.ctx = this;
    pc_.qdisc = cfg.source == SIM_SOURCE_QDISC;

    SC_HAS_PROCESS(nictx_vp);
    SC_THREAD(host_run);
    SC_THREAD(wire_sink);
    SC_METHOD(irq_seen);
    sensitive << irq_.posedge_event();
    dont_initialize();
}

void nictx_vp::irq_seen()
{
    res_.irqs++;
}

nictx_vp::~nictx_vp()
{
    if (kcpu_this() == &plat_.kcpu)
        kcpu_swap(nullptr);
    if (pg_up_)
        pktgen_destroy(&pg_);
    if (txq_up_)
        txq_destroy(&q_);
    sb_destroy(sb_);
}

unsigned nictx_vp::pkt_len(void *ctx, uint64_t seq)
{
    return sb_pkt_len(&static_cast<nictx_vp *>(ctx)->gen_, seq);
}

void nictx_vp::pkt_fill(void *ctx, uint64_t seq, uint8_t *buf, unsigned len)
{
    nictx_vp *vp = static_cast<nictx_vp *>(ctx);
    sb_pkt_fill(&vp->gen_, seq, buf, len);
    if (seq == vp->fault_seq_) {
        const uint64_t a = vp->mem.bus(buf);
        vp->mem.arm_read_fault(a, a + len);
    }
}

// A doorbell publishes the packets posted so far (doorbell-to-wire latency).
void nictx_vp::mmio_written(void *ctx, uint32_t off)
{
    nictx_vp *vp = static_cast<nictx_vp *>(ctx);
    (void)off;
    sb_note_published(vp->sb_, vp->q_.st_pkts,
                      static_cast<sim_ps_t>(plat_tlm_now(&vp->plat_).to_seconds() * 1e12 + 0.5));
}

void nictx_vp::host_run()
{
    // The driver's CPU (driver/linux/kcpu.h): this thread's, made current
    // again after each wait (another VP's host thread may have run).
    plat_.kcpu.plat = &plat_;
    plat_tlm_cpu(&plat_);
    res_.status = -2;
    txq_up_ = txq_init(&q_, &plat_, &tc_, pktgen_complete, &pg_) == 0;
    if (!txq_up_ || pktgen_init(&pg_, &plat_, &q_, &pc_) != 0) {
        plat_.qk.sync();
        plat_tlm_cpu(&plat_);
        done_ev.notify(sc_core::SC_ZERO_TIME);
        return;
    }
    pg_up_ = true;
    const sc_time poll(cfg_.poll_ns, SC_NS), watchdog(cfg_.watchdog_us * 1000.0, SC_NS);
    uint64_t completed = 0;
    sc_time progress = plat_tlm_now(&plat_);
    for (;;) {
        enum pktgen_ret r = pktgen_step(&pg_);
        if (r == PKTGEN_DONE) {
            res_.status = 0;
            break;
        }
        if (r == PKTGEN_ERROR)
            break;
        if (pg_.stats.completed != completed) {
            completed = pg_.stats.completed;
            progress = plat_tlm_now(&plat_);
        }
        if (r == PKTGEN_BLOCKED) { // busy polling: until the poll interval, a device
            plat_.qk.sync();       // write or an interrupt
            wait(poll, mem.written | irq_.posedge_event());
            plat_tlm_cpu(&plat_);
            if (sc_core::sc_time_stamp() - progress > watchdog) {
                res_.status = -1;
                break;
            }
        }
    }
    plat_.qk.sync();
    plat_tlm_cpu(&plat_);
    res_.end = sc_core::sc_time_stamp();
    res_.dev_err = plat_mmio_read32(&plat_, NICTX_REG_ERR);
    wait(sc_core::SC_ZERO_TIME); // the wire sink takes the last frame
    plat_tlm_cpu(&plat_);
    res_.sent = pg_.stats.sent;
    res_.mmio_errors = plat_.mmio_errors;
    sb_finish(sb_);
    sb_result(sb_, &res_.sb);
    done_ev.notify(sc_core::SC_ZERO_TIME);
}

void nictx_vp::wire_sink()
{
    res_.digest = NICTX_VP_DIGEST0;
    for (;;) {
        nictx_sc_frame f = nic.wire.read();
        const unsigned len = static_cast<unsigned>(f.data.size());
        sb_check_frame(sb_, f.data.data(), len, f.fcs, static_cast<sim_ps_t>(f.start.to_seconds() * 1e12 + 0.5));
        res_.digest = nictx_vp_digest(res_.digest, f.data.data(), len, f.fcs);
        res_.frames++;
    }
}
