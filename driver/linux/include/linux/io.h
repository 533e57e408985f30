/* SPDX-License-Identifier: Apache-2.0 */
/*
 * linux/io.h - MMIO to the nictx device's BAR0, for nictx's kernel layer.
 *
 * An __iomem address is a cookie from pci_iomap (uncached) or
 * pci_iomap_wc (write-combining) plus a byte offset; it is not memory,
 * and a plain load or store through it faults.  The calls:
 *   writel_relaxed(v, a), writeq_relaxed: a posted uncached write
 *       (plat_mmio_write32/64): no ordering against earlier stores to
 *       memory; the driver puts wmb() before a doorbell;
 *   writel(v, a), writeq: the same after __iowmb(), as Linux defines
 *       writel (the write is observed after the CPU's earlier writes to
 *       memory): dma_wmb() in the model (x86: free; arm64: dmb oshst);
 *   iowrite32 = writel;
 *   readl(a), ioread32: an uncached read; the CPU stalls for the
 *       completion; later loads wait for it (plat_mmio_read32);
 *   __iowrite64_copy(to, from, count), iowrite64_copy: `count` 64-bit
 *       stores; through a WC mapping they collect in the CPU's WC buffers
 *       (plat_mmio_copy_wc: mlx4_bf_copy's BlueFlame copy), and a wmb()
 *       after them is the sfence that drains them; through an uncached
 *       mapping each is a writeq_relaxed.  The source is read by the copy
 *       (its loads are the copy's cost), not as plain loads.
 */
#ifndef _NICTX_LINUX_IO_H
#define _NICTX_LINUX_IO_H

#include "asm/barrier.h"
#include "linux/nictx_layer.h"
#include "linux/types.h"

/* The cookies: non-canonical addresses, so a plain access faults. */
#define NICTX_IOMEM_UC 0xd1c0000000000000ull
#define NICTX_IOMEM_WC 0xd1c1000000000000ull

/* BAR0 offset of an uncached __iomem address (a bad one is a violation). */
u32 nictx_iomem_uc(const volatile void __iomem *addr);

static inline void writel_relaxed(u32 v, volatile void __iomem *addr)
{
    plat_mmio_write32(kcpu_plat(), nictx_iomem_uc(addr), v);
}

static inline void writeq_relaxed(u64 v, volatile void __iomem *addr)
{
    plat_mmio_write64(kcpu_plat(), nictx_iomem_uc(addr), v);
}

static inline void writel(u32 v, volatile void __iomem *addr)
{
    dma_wmb(); /* __iowmb() */
    writel_relaxed(v, addr);
}

static inline void writeq(u64 v, volatile void __iomem *addr)
{
    dma_wmb(); /* __iowmb() */
    writeq_relaxed(v, addr);
}

static inline u32 readl(const volatile void __iomem *addr)
{
    return plat_mmio_read32(kcpu_plat(), nictx_iomem_uc(addr));
}

#define iowrite32(v, a) writel(v, a)
#define ioread32(a) readl(a)

void __iowrite64_copy(void __iomem *to, const void *from, size_t count);
#define iowrite64_copy(to, from, count) __iowrite64_copy(to, from, count)

u64 readq(const volatile void __iomem *addr) NICTX_UNMODELLED("readq() (32-bit MMIO reads only)");
u16 readw(const volatile void __iomem *addr) NICTX_UNMODELLED("readw() (32-bit MMIO reads only)");
void writew(u16 v, volatile void __iomem *addr)
    NICTX_UNMODELLED("writew() (32- and 64-bit MMIO writes only)");
void writeb(u8 v, volatile void __iomem *addr)
    NICTX_UNMODELLED("writeb() (32- and 64-bit MMIO writes only)");
void __iowrite32_copy(void __iomem *to, const void *from, size_t count)
    NICTX_UNMODELLED("__iowrite32_copy() (the WC path is __iowrite64_copy)");
void memcpy_toio(volatile void __iomem *to, const void *from, size_t count)
    NICTX_UNMODELLED("memcpy_toio() (use __iowrite64_copy)");
void mmiowb(void) NICTX_UNMODELLED("mmiowb() (gone from Linux 5.2: spin_unlock orders MMIO)");
void __iomem *ioremap(phys_addr_t addr, size_t size)
    NICTX_UNMODELLED("ioremap() (BAR0 comes from pci_iomap / pci_iomap_wc)");
void __iomem *ioremap_wc(phys_addr_t addr, size_t size)
    NICTX_UNMODELLED("ioremap_wc() (BAR0 comes from pci_iomap_wc)");

#endif
