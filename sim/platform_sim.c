/*
 * platform_sim.c - driver/platform.h on the simulated host.
 *
 * Each call charges the simulated CPU its cost (cpu.h) under its cause.
 * MMIO writes become posted MWr TLPs that leave at the CPU's clock; an
 * MMIO read becomes an MRd and the CPU stalls until its completion comes
 * back through the simulated link and device.  Stores to DMA memory are
 * plain stores on x86-TSO: visible in program order, at once.
 */
#include <string.h>

#include "nictx_hw.h"
#include "platform.h"
#include "sim_world.h"

static void mmio_write(struct platform *p, uint32_t off, const void *val, unsigned len)
{
    struct sim *s = p->sim;
    struct tlp t;

    t.type = TLP_MWR;
    t.kind = off == NICTX_REG_TAIL ? TLP_KIND_DOORBELL : TLP_KIND_MMIO_WR;
    t.tag = 0;
    t.last = 1;
    t.ro = 0;
    t.len = (uint16_t)len;
    t.addr = SIM_BAR0_BASE + off;
    memcpy(t.data, val, len);
    if (off == NICTX_REG_TAIL)
        sim_note_doorbell(s, *(const uint32_t *)val);
    sim_cpu_send(s, &t);
    cpu_charge(&s->cpu, CPU_DOORBELL, s->cpu.costs.mmio_write_ns);
}

void plat_mmio_write32(struct platform *p, uint32_t off, uint32_t val)
{
    mmio_write(p, off, &val, 4);
}

void plat_mmio_write64(struct platform *p, uint32_t off, uint64_t val)
{
    mmio_write(p, off, &val, 8);
}

uint32_t plat_mmio_read32(struct platform *p, uint32_t off)
{
    struct sim *s = p->sim;
    struct tlp t;

    cpu_charge(&s->cpu, CPU_MMIO_READ, s->cpu.costs.mmio_read_ns);
    t.type = TLP_MRD;
    t.kind = TLP_KIND_MMIO_RD;
    t.tag = ++s->mmio_tag;
    t.last = 1;
    t.ro = 0;
    t.len = 4;
    t.addr = SIM_BAR0_BASE + off;
    s->mmio_waiting = 1;
    sim_cpu_send(s, &t);
    sim_wait_mmio(s);
    return s->mmio_value;
}

void plat_store32(struct platform *p, void *dst, uint32_t val)
{
    memcpy(dst, &val, 4);
    cpu_charge(&p->sim->cpu, CPU_DESC_WRITE, p->sim->cpu.costs.store_ns);
}

void plat_store64(struct platform *p, void *dst, uint64_t val)
{
    memcpy(dst, &val, 8);
    cpu_charge(&p->sim->cpu, CPU_DESC_WRITE, p->sim->cpu.costs.store_ns);
}

uint32_t plat_load32(struct platform *p, const void *src)
{
    uint32_t v;

    memcpy(&v, src, 4);
    cpu_charge(&p->sim->cpu, CPU_DRIVER, p->sim->cpu.costs.load_ns);
    return v;
}

void plat_dma_wmb(struct platform *p)
{
    cpu_charge(&p->sim->cpu, CPU_BARRIER, p->sim->cpu.costs.dma_wmb_ns);
}

void plat_wmb(struct platform *p)
{
    cpu_charge(&p->sim->cpu, CPU_BARRIER, p->sim->cpu.costs.wmb_ns);
}

void plat_smp_mb(struct platform *p)
{
    cpu_charge(&p->sim->cpu, CPU_BARRIER, p->sim->cpu.costs.smp_mb_ns);
}

void plat_cpu_work(struct platform *p, enum plat_work what, unsigned n)
{
    const struct cpu_costs *c = &p->sim->cpu.costs;
    double ns = 0;

    switch (what) {
    case PLAT_WORK_XMIT_PKT: ns = c->xmit_pkt_ns; break;
    case PLAT_WORK_CLEAN_DESC: ns = c->clean_desc_ns; break;
    case PLAT_WORK_CLEAN_POLL: ns = c->clean_poll_ns; break;
    }
    cpu_charge(&p->sim->cpu, CPU_DRIVER, ns * n);
}

void *plat_dma_alloc(struct platform *p, size_t size, size_t align, dma_addr_t *dma)
{
    uint64_t bus;
    void *v = host_mem_alloc(&p->sim->mem, size, align, &bus);

    if (v)
        *dma = bus;
    return v;
}
