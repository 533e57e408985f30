// SPDX-License-Identifier: Apache-2.0
// platform_tlm.cpp - driver/platform.h on TLM-2.0 (platform_tlm.h).
#include "platform_tlm.h"

#include <cstdio>
#include <cstring>

using sc_core::sc_time;
using sc_core::SC_NS;

void plat_tlm_cpu(struct platform *p)
{
    kcpu_swap(&p->kcpu);
}

void plat_tlm_charge(struct platform *p, double ns)
{
    ns += p->pend_ns; // an instrumented store made since, first
    p->pend_ns = 0;
    p->qk.inc(sc_time(ns, SC_NS));
    if (p->qk.need_sync()) {
        p->qk.sync();
        plat_tlm_cpu(p); // other threads ran meanwhile
    }
}

sc_time plat_tlm_now(const struct platform *p)
{
    return sc_core::sc_time_stamp() + p->qk.get_local_time();
}

namespace {

// One BAR0 access: the TLM response status.
tlm::tlm_response_status bar0_access(struct platform *p, tlm::tlm_command cmd, uint32_t off,
                                     void *data, unsigned len)
{
    tlm::tlm_generic_payload gp;
    sc_time delay = p->qk.get_local_time();

    gp.set_command(cmd);
    gp.set_address(off);
    gp.set_data_ptr(static_cast<unsigned char *>(data));
    gp.set_data_length(len);
    gp.set_streaming_width(len);
    gp.set_byte_enable_ptr(nullptr);
    gp.set_dmi_allowed(false);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    (*p->bar0)->b_transport(gp, delay);
    plat_tlm_cpu(p); // the target may have waited
    p->qk.set(delay);
    if (gp.get_response_status() != tlm::TLM_OK_RESPONSE)
        p->mmio_errors++;
    return gp.get_response_status();
}

void mmio_write(struct platform *p, uint32_t off, void *val, unsigned len)
{
    bar0_access(p, tlm::TLM_WRITE_COMMAND, off, val, len);
    if (p->on_mmio_write)
        p->on_mmio_write(p->ctx, off);
}

} // namespace

extern "C" {

void plat_mmio_write32(struct platform *p, uint32_t off, uint32_t val)
{
    plat_tlm_charge(p, p->costs.mmio_write_ns);
    mmio_write(p, off, &val, 4);
}

void plat_mmio_write64(struct platform *p, uint32_t off, uint64_t val)
{
    plat_tlm_charge(p, p->costs.mmio_write_ns);
    mmio_write(p, off, &val, 8);
}

void plat_mmio_copy_wc(struct platform *p, uint32_t off, const void *src, size_t len)
{
    const uint8_t *b = static_cast<const uint8_t *>(src);
    uint8_t line[64];

    // The WC buffer drains as pieces of 64-byte blocks, in order.
    while (len >= 8) {
        size_t n = 64 - off % 64;
        if (n > len)
            n = len & ~static_cast<size_t>(7);
        std::memcpy(line, b, n);
        plat_tlm_charge(p, p->costs.wc_store_ns * static_cast<double>(n / 8));
        mmio_write(p, off, line, static_cast<unsigned>(n));
        off += static_cast<uint32_t>(n);
        b += n;
        len -= n;
    }
}

uint32_t plat_mmio_read32(struct platform *p, uint32_t off)
{
    uint32_t v = 0;

    plat_tlm_charge(p, p->costs.mmio_read_ns);
    p->qk.sync();
    plat_tlm_cpu(p);
    if (bar0_access(p, tlm::TLM_READ_COMMAND, off, &v, 4) != tlm::TLM_OK_RESPONSE)
        return 0xffffffffu;
    return v;
}

void plat_store32(struct platform *p, void *dst, uint32_t val)
{
    std::memcpy(dst, &val, 4);
    plat_tlm_charge(p, p->costs.store_ns);
}

void plat_store64(struct platform *p, void *dst, uint64_t val)
{
    std::memcpy(dst, &val, 8);
    plat_tlm_charge(p, p->costs.store_ns);
}

uint32_t plat_load32(struct platform *p, const void *src)
{
    uint32_t v;

    std::memcpy(&v, src, 4);
    plat_tlm_charge(p, p->costs.load_ns);
    return v;
}

void plat_spin_lock(struct platform *p, void *lock)
{
    (void)lock;
    plat_tlm_charge(p, p->costs.lock_ns);
}

void plat_spin_unlock(struct platform *p, void *lock)
{
    (void)p;
    (void)lock;
}

void plat_dma_wmb(struct platform *p) { plat_tlm_charge(p, p->costs.dma_wmb_ns); }
void plat_wmb(struct platform *p) { plat_tlm_charge(p, p->costs.wmb_ns); }
void plat_smp_mb(struct platform *p) { plat_tlm_charge(p, p->costs.smp_mb_ns); }

void plat_cpu_touch(struct platform *p, const void *addr, size_t len, enum plat_access how)
{
    (void)p;
    (void)addr;
    (void)len;
    (void)how;
}

void plat_smp_wmb(struct platform *p) { (void)p; }
void plat_smp_rmb(struct platform *p) { (void)p; }

/* One CPU: shared driver state is plain memory. */
uint32_t plat_read_once32(struct platform *p, const uint32_t *src)
{
    (void)p;
    return *src;
}

uint32_t plat_load_acquire32(struct platform *p, const uint32_t *src)
{
    return plat_read_once32(p, src);
}

void plat_write_once32(struct platform *p, uint32_t *dst, uint32_t val)
{
    (void)p;
    *dst = val;
}

void plat_store_release32(struct platform *p, uint32_t *dst, uint32_t val)
{
    plat_write_once32(p, dst, val);
}

void plat_bug(struct platform *p, const uint32_t *state, const char *kind, const char *detail)
{
    (void)p;
    (void)state;
    std::fprintf(stderr, "nictx-vp: %s: %s\n", kind, detail);
}

void plat_dma_unmap(struct platform *p, dma_addr_t dma, size_t len, unsigned dir)
{
    (void)p;
    (void)dma;
    (void)len;
    (void)dir;
}

uint64_t plat_time_ns(struct platform *p)
{
    return static_cast<uint64_t>(plat_tlm_now(p).to_seconds() * 1e9);
}

void plat_cpu_work(struct platform *p, enum plat_work what, unsigned n)
{
    double ns = 0;

    switch (what) {
    case PLAT_WORK_XMIT_PKT: ns = p->costs.xmit_pkt_ns; break;
    case PLAT_WORK_CLEAN_DESC: ns = p->costs.clean_desc_ns; break;
    case PLAT_WORK_CLEAN_POLL: ns = p->costs.clean_poll_ns; break;
    case PLAT_WORK_QDISC_PKT: ns = p->costs.qdisc_pkt_ns; break;
    }
    plat_tlm_charge(p, ns * n);
}

void *plat_dma_alloc(struct platform *p, size_t size, size_t align, dma_addr_t *dma)
{
    return p->mem->alloc(size, align, dma);
}

void plat_access(struct platform *p, void *addr, size_t len, unsigned how)
{
    if (!p->mem->holds(addr, len))
        return;
    if (how & PLAT_ACC_WRITE)
        p->pend_ns += p->costs.store_ns;
    else
        plat_tlm_charge(p, p->costs.load_ns);
}

void plat_shared(struct platform *p, const void *addr, size_t len)
{
    (void)p;
    (void)addr;
    (void)len;
}

dma_addr_t plat_dma_map(struct platform *p, const void *cpu, size_t len, unsigned dir)
{
    (void)dir;
    return p->mem->holds(cpu, len) ? p->mem->bus(cpu) : 0;
}

} // extern "C"
