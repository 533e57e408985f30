/*
 * platform.h - the only way the driver touches the world.
 *
 * The driver (txq.c, pktgen.c) is written like a Linux netdev transmit path
 * and calls nothing but these functions.  The simulator implements them in
 * sim/platform_sim.c, where each call advances the simulated CPU's clock by
 * its modelled cost; unit tests implement them with a recording fake.  The
 * binding is at link time: exactly one implementation is linked into each
 * binary.  Every function takes the platform object first; there is no
 * global state.
 *
 * Memory model (this skeleton): x86-TSO.  dma_wmb() is a compiler barrier
 * and wmb() is sfence; both are still reported so that their cost and their
 * placement can be measured and, later, checked.
 *
 * Stores to DMA-coherent memory that the device reads (descriptors) go
 * through plat_store32/64: they stand for the plain stores a Linux driver
 * does (WRITE_ONCE), and give the simulator a hook to time them.
 */
#ifndef NICTX_PLATFORM_H
#define NICTX_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t dma_addr_t;

struct platform;

/* Modelled CPU work that is not a memory-system operation. */
enum plat_work {
    PLAT_WORK_XMIT_PKT,    /* per-packet driver work in ndo_start_xmit */
    PLAT_WORK_CLEAN_DESC,  /* per-descriptor work in the completion cleanup */
    PLAT_WORK_CLEAN_POLL,  /* one cleanup pass (reading head, loop set-up) */
};

/* Posted uncached MMIO write to BAR0 at byte offset `off` (4-byte aligned). */
void plat_mmio_write32(struct platform *p, uint32_t off, uint32_t val);
/* 64-bit write as one TLP (8-byte aligned `off`). */
void plat_mmio_write64(struct platform *p, uint32_t off, uint64_t val);
/* Uncached MMIO read: the CPU stalls until the device's completion returns. */
uint32_t plat_mmio_read32(struct platform *p, uint32_t off);

/* Store to DMA-coherent memory (`dst` from plat_dma_alloc). */
void plat_store32(struct platform *p, void *dst, uint32_t val);
void plat_store64(struct platform *p, void *dst, uint64_t val);
/* Load of a DMA-coherent location the device writes (head writeback). */
uint32_t plat_load32(struct platform *p, const void *src);

/* Barriers as the Linux kernel names them. */
void plat_dma_wmb(struct platform *p);
void plat_wmb(struct platform *p);
void plat_smp_mb(struct platform *p);

/* Charge `n` units of modelled driver work. */
void plat_cpu_work(struct platform *p, enum plat_work what, unsigned n);

/*
 * DMA-coherent allocation of `size` bytes aligned to `align` (a power of
 * two).  Returns the CPU pointer and stores the device (bus) address in
 * *dma; returns NULL (and leaves *dma alone) when host memory is exhausted.
 * Memory is zeroed.  It lives as long as the platform; there is no free.
 */
void *plat_dma_alloc(struct platform *p, size_t size, size_t align, dma_addr_t *dma);

#endif /* NICTX_PLATFORM_H */
