// SPDX-License-Identifier: Apache-2.0
// vp.h - an example virtual platform: a host CPU that runs the nictx C
// driver (driver/txq.c, driver/pktgen.c) through platform_tlm.h, a memory
// target, and the NIC (nictx_sc), with the wire checked by the native
// simulator's scoreboard (sim/check/scoreboard.c).  It runs the scenario of
// `nictx run` with one CPU busy-polling (pktgen_step: a burst, then a
// cleanup pass); the options it honours are listed in docs/systemc.md.
// Several instances can share one SystemC simulation.
#ifndef NICTX_VP_H
#define NICTX_VP_H

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>

#include "nictx_sc.h"
#include "platform_tlm.h"
#include "vp_mem.h"

extern "C" {
#include "run/harness.h"
#include "pktgen.h"
#include "check/scoreboard.h"
#include "txq.h"
}

struct nictx_vp_result {
    int status = 1;            // 0: every packet sent and reclaimed; -1: watchdog
                               // (no packet reclaimed for watchdog_us); -2: setup
                               // or pktgen failed; 1: still running
    struct sb_result sb {};    // frames seen, checked, lost, corrupted, Mpps
    uint64_t sent = 0;         // packets pktgen handed to the driver
    uint64_t frames = 0;       // frames off the wire
    uint64_t digest = 0;       // FNV-1a of every frame (length, bytes, FCS), in order
    uint32_t dev_err = 0;      // the engine's ERR register at the end
    sc_core::sc_time end;      // when the host finished
    uint64_t mmio_errors = 0;  // BAR0 accesses answered with an error
    uint64_t irqs = 0;         // interrupt pulses seen on the NIC's irq output
};

// The frame digest's steps: start with NICTX_VP_DIGEST0, add each frame.
constexpr uint64_t NICTX_VP_DIGEST0 = 14695981039346656037ull;
uint64_t nictx_vp_digest(uint64_t h, const uint8_t *frame, unsigned len, uint32_t fcs);

class nictx_vp : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<nictx_vp> cpu_bar0; // the host's MMIO
    nictx_vp_mem mem;
    nictx_sc nic;

    // cfg: the run (sim_cfg_default and the options); quantum: the host's
    // time quantum.  Throws std::runtime_error on a configuration it cannot
    // build.
    nictx_vp(sc_core::sc_module_name name, const struct sim_cfg &cfg,
             sc_core::sc_time quantum = sc_core::sc_time(1, sc_core::SC_US));
    ~nictx_vp() override;

    const nictx_vp_result &result() const { return res_; }
    bool done() const { return res_.status != 1; }
    sc_core::sc_event done_ev;
    // Memory for tests: arm a read error on packet `seq`'s buffer when
    // pktgen fills it (its first DMA read then gets an error response).
    void fault_on_packet(uint64_t seq) { fault_seq_ = seq; }
    // The host's platform, for tests that access BAR0 themselves from
    // another SC_THREAD after done().
    struct platform *plat() { return &plat_; }

private:
    void host_run();
    void wire_sink();
    void irq_seen();
    static unsigned pkt_len(void *ctx, uint64_t seq);
    static void pkt_fill(void *ctx, uint64_t seq, uint8_t *buf, unsigned len);
    static void mmio_written(void *ctx, uint32_t off);
    static nictx_sc_cfg nic_cfg(const struct sim_cfg &cfg);

    struct sim_cfg cfg_;
    struct sb_gen_cfg gen_ {};
    struct scoreboard *sb_ = nullptr;
    struct platform plat_;
    struct txq_cfg tc_ {};
    struct pktgen_cfg pc_ {};
    struct txq q_ {};
    struct pktgen pg_ {};
    bool txq_up_ = false, pg_up_ = false;
    sc_core::sc_signal<bool> irq_;
    uint64_t fault_seq_ = UINT64_MAX;
    nictx_vp_result res_;
};

#endif // NICTX_VP_H
