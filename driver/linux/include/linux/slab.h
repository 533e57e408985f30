/* SPDX-License-Identifier: Apache-2.0 */
/*
 * linux/slab.h - kmalloc and friends, for nictx's kernel layer: host
 * memory (not DMA memory) that the driver's CPUs share.  Each allocation
 * is announced to the platform as shared driver state (plat_shared), so
 * the driver's plain loads and stores of it are in the memory model
 * (docs/own-driver.md, Plain accesses).  kfree of memory allocated while a
 * CPU ran the driver; the simulation forgets the region with it.
 */
#ifndef _NICTX_LINUX_SLAB_H
#define _NICTX_LINUX_SLAB_H

#include "linux/nictx_layer.h"
#include "linux/types.h"

#define GFP_KERNEL 0x1u
#define GFP_ATOMIC 0x2u
#define __GFP_ZERO 0x100u

void *nictx_kmalloc(size_t size, gfp_t flags);
void kfree(const void *p);
#define kmalloc(size, flags) nictx_kmalloc(size, flags)
#define kzalloc(size, flags) nictx_kmalloc(size, (flags) | __GFP_ZERO)
static inline void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
    return size != 0 && n > (size_t)-1 / size ? NULL : nictx_kmalloc(n * size, flags);
}
#define kcalloc(n, size, flags) kmalloc_array(n, size, (flags) | __GFP_ZERO)

void *kmem_cache_alloc(void *cache, gfp_t flags) NICTX_UNMODELLED("slab caches (use kzalloc)");
void *krealloc(const void *p, size_t size, gfp_t flags) NICTX_UNMODELLED("krealloc()");

#endif
