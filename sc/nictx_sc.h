// SPDX-License-Identifier: Apache-2.0
// nictx_sc.h - the nictx transmit engine as a SystemC TLM-2.0 module, for
// virtual platforms (docs/systemc.md).
//
// What it holds: the Verilated engine (any datapath width, through struct
// device_ops, sim/device/device.h), both directions of its PCIe link
// (sim/pcie/pcie_link.c: serialization at the configured generation and width,
// propagation latency), the TLP <-> beat conversion (sim/device/tlp_beat.c) and the
// host side of the link that a root complex would be (completion splitting at
// RCB/MPS with pcie_split_cpl, MSI detection as rc_is_msi).
//
// Sockets and ports (base protocol, blocking transport, timing annotated):
//  - bar0 (target): MMIO to BAR0, addresses are offsets 0..NICTX_BAR0_SIZE.
//    A write of 4 or 8 naturally aligned bytes, or of 8..64 bytes (multiple
//    of 8, 8-aligned, inside one 64-byte block) in the WC window, becomes a
//    posted MWr TLP that leaves at the caller's time plus its annotated delay;
//    the delay is returned unchanged (posted).  A read of 1, 2, 4 or 8 bytes
//    inside one 8-byte word becomes an MRd; the call waits until its
//    completion comes back through the engine and returns with delay 0.
//    Every byte must be enabled (else TLM_BYTE_ENABLE_ERROR_RESPONSE); an
//    access outside BAR0 answers TLM_ADDRESS_ERROR_RESPONSE, another size or
//    alignment TLM_BURST_ERROR_RESPONSE (neither reaches the engine); a read
//    the engine answers with Unsupported Request answers
//    TLM_ADDRESS_ERROR_RESPONSE for a 4 or 8 byte read, else
//    TLM_BURST_ERROR_RESPONSE (data bytes all ones, as a CPU load sees).
//    A read waits: call it from an SC_THREAD, as b_transport allows.
//  - dma (initiator): the engine's reads and writes of host memory, at
//    their arrival time at the host end of the link.  A read's data comes
//    back as CplDs (split as a root complex does) after the delay the memory
//    target annotated; an error response becomes CplDs with status UR (the
//    engine skips the data and sets ERR.DMA), as `--inject ur` natively.
//  - irq (sc_out<bool>): an MSI-X MWr (rc_is_msi address) raises it for one
//    device clock; it never reaches the dma socket.
//  - wire (sc_fifo<nictx_sc_frame>): each frame the MAC sends, without FCS,
//    with its FCS and start time; the engine stalls (wire_ready low) while
//    the FIFO is full.
//
// Time: the engine is clocked at cfg.dev_mhz only while it has work; when it
// says it is idle (idle_o) or only waits for completions (wait_o, within
// wake_o), the module sleeps until the next link or completion event or a
// BAR0 access, and tells the engine how many clocks it skipped (skip_i).
// Everything hangs off the instance: several may share one simulation.
#ifndef NICTX_SC_H
#define NICTX_SC_H

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <ostream>
#include <vector>

extern "C" {
#include "device/device.h"
#include "pcie/pcie_cfg.h"
#include "pcie/pcie_link.h"
#include "pcie/tlp_queue.h"
}

// One frame off the wire.
struct nictx_sc_frame {
    std::vector<uint8_t> data; // frame bytes without FCS
    uint32_t fcs = 0;          // the MAC's FCS
    sc_core::sc_time start;    // time of its first beat
    bool operator==(const nictx_sc_frame &o) const
    {
        return data == o.data && fcs == o.fcs && start == o.start;
    }
};
std::ostream &operator<<(std::ostream &os, const nictx_sc_frame &f);

struct nictx_sc_cfg {
    unsigned width = DEV_WIDTH_DEFAULT; // datapath bytes per clock: 8, 16, 32, 64
    double dev_mhz = 250.0;             // device clock
    struct pcie_cfg pcie;               // link generation, width, MPS, MRRS, RCB, latency
    unsigned wire_fifo = 64;            // frames the wire FIFO holds
    nictx_sc_cfg() { pcie_cfg_default(&pcie); }
};

struct nictx_sc_stats {
    uint64_t cycles, cycles_skipped;  // device clocks evaluated / left out
    uint64_t frames;                  // frames put in the wire FIFO
    uint64_t mmio_writes, mmio_reads, mmio_errors;
    uint64_t dma_reads, dma_writes, dma_read_errors, dma_write_errors;
    uint64_t irqs;
};

class nictx_sc : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<nictx_sc> bar0;
    tlm_utils::simple_initiator_socket<nictx_sc> dma;
    sc_core::sc_out<bool> irq;
    sc_core::sc_fifo<nictx_sc_frame> wire;

    // Throws std::runtime_error on a width without a model or a bad link.
    nictx_sc(sc_core::sc_module_name name, const nictx_sc_cfg &cfg = nictx_sc_cfg());
    ~nictx_sc() override;
    nictx_sc(const nictx_sc &) = delete;
    nictx_sc &operator=(const nictx_sc &) = delete;

    const nictx_sc_stats &stats() const { return st_; }
    const nictx_sc_cfg &cfg() const { return cfg_; }
    // The host-to-device and device-to-host links (byte counts by kind).
    const struct pcie_link *link_h2d() const { return h2d_; }
    const struct pcie_link *link_d2h() const { return d2h_; }

private:
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void bar0_read_wait(tlm::tlm_generic_payload &gp);
    void run();
    uint64_t now_ps() const;
    void deliver(uint64_t now);
    void host_receive(const struct tlp *t, uint64_t at);
    void host_read(const struct tlp *t, uint64_t at);
    void host_write(const struct tlp *t);
    bool clock(uint64_t now);
    void wire_beat(const struct dev_wire_beat &w, uint64_t now);
    uint64_t next_event() const;
    void irq_drive();
    void release();
    void error(const char *what);

    nictx_sc_cfg cfg_;
    const struct device_ops *ops_;
    void *dev_ = nullptr;
    struct pcie_link *h2d_ = nullptr, *d2h_ = nullptr;
    struct tlpq cpu_out_ {};   // BAR0 TLPs by departure time
    struct tlpq cpl_ {};       // DMA read completions by ready time
    uint64_t cpu_out_last_ = 0, cpl_last_ = 0;
    uint64_t period_ps_;
    sc_core::sc_event wake_;   // a BAR0 access for a sleeping engine
    // Device port state.
    unsigned h2d_beat_ = 0, d2h_beat_ = 0;
    struct tlp d2h_tlp_ {};
    uint64_t skip_pending_ = 0, dev_wake_ = 0;
    bool dev_idle_ = false;
    nictx_sc_frame frame_;
    bool frame_open_ = false;
    sc_core::sc_event irq_ev_;  // an interrupt message arrived
    sc_core::sc_time irq_until_; // irq is high until then
    // The one BAR0 read in flight.
    bool mmio_busy_ = false, mmio_waiting_ = false;
    uint8_t mmio_tag_ = 0;
    struct tlp mmio_cpl_ {};
    sc_core::sc_event mmio_done_;
    nictx_sc_stats st_ {};
};

#endif // NICTX_SC_H
