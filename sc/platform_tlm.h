// SPDX-License-Identifier: Apache-2.0
// platform_tlm.h - driver/platform.h on TLM-2.0: the same C driver
// (driver/txq.c, driver/pktgen.c) run by a SystemC thread of a virtual
// platform (docs/systemc.md).
//
// What each call does and what it costs in simulated time:
//  - plat_mmio_write32/64: a TLM write (b_transport) to the NIC's bar0
//    socket, annotated with the CPU's local time (temporal decoupling with a
//    tlm_quantumkeeper); plus mmio_write_ns.  plat_mmio_copy_wc: one write
//    per 64-byte block piece, wc_store_ns per 8 bytes.  The write is posted:
//    the CPU goes on.
//  - plat_mmio_read32: the keeper syncs, a TLM read waits for the engine's
//    completion; plus mmio_read_ns.  An error response reads all ones.
//  - plat_store32/64, plat_load32: plain stores and loads through the CPU
//    pointer into the memory target (DMA-coherent memory is the host's own
//    memory): store_ns / load_ns.  A store is visible to the device at once:
//    no store buffer, so no ordering effect of barriers is modelled.
//  - barriers (dma_wmb, wmb, smp_mb), spin_lock: their fixed issue cost
//    only (dma_wmb_ns, wmb_ns, smp_mb_ns, lock_ns); no drain waits.
//  - plat_cpu_work: the per-packet and per-descriptor driver costs.
//  - plat_cpu_touch: nothing (no cache-line model).
//  - plat_time_ns: SystemC time plus the CPU's local time.
//  - plat_dma_alloc: bump allocation in the memory target.
//  - driver code compiled with the kernel layer (driver/linux/): its
//    instrumented stores to host memory cost store_ns, its loads load_ns,
//    as plat_store / plat_load (a store's cost charged once it is made, at
//    the next call); anything else nothing.  The host thread makes the
//    platform its CPU (kcpu.h, plat_tlm_cpu) while it runs the driver.
// The keeper syncs when its quantum is used up and before every MMIO read.
#ifndef NICTX_PLATFORM_TLM_H
#define NICTX_PLATFORM_TLM_H

#include <systemc>
#include <tlm>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <cstdint>

#include "vp_mem.h"

extern "C" {
#include "host/cpu.h"
#include "linux/kcpu.h"
#include "platform.h"
}

struct platform {
    tlm::tlm_initiator_socket<32> *bar0 = nullptr; // bound to the NIC's bar0
    nictx_vp_mem *mem = nullptr;
    tlm_utils::tlm_quantumkeeper qk;
    struct cpu_costs costs {};
    // Called after each BAR0 write (a doorbell publishes packets).
    void (*on_mmio_write)(void *ctx, uint32_t off) = nullptr;
    void *ctx = nullptr;
    uint64_t mmio_errors = 0; // BAR0 accesses answered with an error
    struct kcpu kcpu {};      // the CPU driver code runs on (kcpu.h)
    double pend_ns = 0;       // an instrumented store's cost, charged next
};

// The platform's CPU is the one driver code runs on (kcpu.h): its host
// thread calls this when it starts and after each wait, for other threads'
// platforms (several VPs in one simulation) ran meanwhile; the platform's
// own calls do it after theirs.
void plat_tlm_cpu(struct platform *p);
// Charge `ns` of CPU time; sync when the quantum is used up.
void plat_tlm_charge(struct platform *p, double ns);
// The CPU's time: SystemC time plus its local offset.
sc_core::sc_time plat_tlm_now(const struct platform *p);

#endif // NICTX_PLATFORM_TLM_H
