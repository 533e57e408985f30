/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host_mem.h - simulated host DRAM that the device reaches by DMA.
 *
 * One flat region of bus addresses [base, base + size) backed by a zeroed
 * buffer; a bump allocator hands out DMA-coherent blocks (there is no
 * free: allocations live as long as the region).  The CPU reads and
 * writes it through plain pointers; the PCIe side reads and writes it by
 * bus address.  Accesses outside any allocation are refused, as an IOMMU
 * would fault them.
 */
#ifndef NICTX_HOST_MEM_H
#define NICTX_HOST_MEM_H

#include <stddef.h>
#include <stdint.h>

struct host_mem {
    void *raw;     /* the allocation; buf is its first page boundary */
    uint8_t *buf;  /* page-aligned */
    uint64_t base; /* bus address of buf[0] */
    size_t size;
    size_t brk;    /* bytes allocated so far */
};

/* 0, or -1 when the buffer cannot be allocated. */
int host_mem_init(struct host_mem *m, uint64_t base, size_t size);
void host_mem_destroy(struct host_mem *m);

/* Zeroed block of `size` bytes aligned to `align` (power of two); NULL when
 * the region is exhausted.  Its bus address goes to *bus. */
void *host_mem_alloc(struct host_mem *m, size_t size, size_t align, uint64_t *bus);

/* CPU pointer for [bus, bus + len) if it lies inside allocated memory,
 * else NULL. */
static inline void *host_mem_ptr(const struct host_mem *m, uint64_t bus, size_t len)
{
    if (bus < m->base || bus - m->base > m->brk || len > m->brk - (bus - m->base))
        return NULL;
    return m->buf + (bus - m->base);
}

/* Bus address of a CPU pointer into the region, or 0 if outside it. */
static inline uint64_t host_mem_bus(const struct host_mem *m, const void *cpu)
{
    const uint8_t *c = (const uint8_t *)cpu;

    if (c < m->buf || c >= m->buf + m->size)
        return 0;
    return m->base + (uint64_t)(c - m->buf);
}

#endif /* NICTX_HOST_MEM_H */
