/* SPDX-License-Identifier: Apache-2.0 */
#include "host/host_mem.h"

#include <stdint.h>
#include <stdlib.h>

/* The buffer starts on a page, like the DMA memory it stands for: a block
 * host_mem_alloc() aligns by its bus address is aligned the same at its CPU
 * address, so the cache-line model (sim/host/cacheline.c), which works on CPU
 * addresses, sees the lines the device and the driver see, whatever
 * address the C library hands out.  (calloc, then the first page boundary
 * in it: the pages stay zero-filled on demand.) */
#define HOST_MEM_PAGE 4096u

int host_mem_init(struct host_mem *m, uint64_t base, size_t size)
{
    m->raw = size <= SIZE_MAX - HOST_MEM_PAGE ? calloc(1, size + HOST_MEM_PAGE - 1) : NULL;
    m->buf = m->raw ? (uint8_t *)(((uintptr_t)m->raw + HOST_MEM_PAGE - 1) &
                                  ~(uintptr_t)(HOST_MEM_PAGE - 1))
                    : NULL;
    m->base = base;
    m->size = size;
    m->brk = 0;
    return m->buf ? 0 : -1;
}

void host_mem_destroy(struct host_mem *m)
{
    free(m->raw);
    m->raw = NULL;
    m->buf = NULL;
    m->size = m->brk = 0;
}

void *host_mem_alloc(struct host_mem *m, size_t size, size_t align, uint64_t *bus)
{
    size_t start;

    if (align == 0 || (align & (align - 1)) != 0)
        return NULL;
    start = (m->brk + align - 1) & ~(align - 1);
    if (start > m->size || size > m->size - start)
        return NULL;
    m->brk = start + size;
    *bus = m->base + start;
    return m->buf + start;
}
