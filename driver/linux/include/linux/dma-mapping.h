/* SPDX-License-Identifier: Apache-2.0 */
/*
 * linux/dma-mapping.h - DMA memory for nictx's kernel layer, on a coherent
 * platform: host memory the device reaches by DMA (no IOMMU, no bounce
 * buffers).
 *   dma_alloc_coherent: zeroed host memory and its bus address
 *       (plat_dma_alloc), aligned to its size's power of two up to 128
 *       bytes (the kernel gives page-order alignment; nictx keeps host
 *       memory as dense as its platform-style driver had it); it lives as
 *       long as the simulation (dma_free_coherent frees nothing);
 *   dma_map_single: the bus address of host memory, free of cost
 *       (coherent); DMA_MAPPING_ERROR when the buffer is not host memory;
 *       the simulator keeps the mapping (size, direction);
 *   dma_unmap_single: the driver is done with the buffer: the simulator
 *       checks that the device has completed the descriptor that carried
 *       it (plat_dma_unmap, the unmap_missing and reclaim_past_head rules)
 *       and, as CONFIG_DMA_API_DEBUG does, that it unmaps a live mapping
 *       with its size and direction (sim/check/dmachk.h).
 * Stores to coherent memory are the memory model's plain or marked stores
 * (platform.h, plat_access): the model delays their visibility to the
 * device until they drain.
 */
#ifndef _NICTX_LINUX_DMA_MAPPING_H
#define _NICTX_LINUX_DMA_MAPPING_H

#include "linux/nictx_layer.h"
#include "linux/types.h"

struct device;

enum dma_data_direction {
    DMA_BIDIRECTIONAL = 0,
    DMA_TO_DEVICE = 1,
    DMA_FROM_DEVICE = 2,
    DMA_NONE = 3,
};

#define DMA_MAPPING_ERROR (~(dma_addr_t)0)
#define DMA_BIT_MASK(n) (((n) == 64) ? ~0ULL : ((1ULL << (n)) - 1))

void *dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *dma_handle, gfp_t gfp);
static inline void dma_free_coherent(struct device *dev, size_t size, void *cpu, dma_addr_t dma)
{
    (void)dev;
    (void)size;
    (void)cpu;
    (void)dma;
}

static inline dma_addr_t dma_map_single(struct device *dev, void *ptr, size_t size,
                                        enum dma_data_direction dir)
{
    dma_addr_t a = plat_dma_map(kcpu_plat(), ptr, size, (unsigned)dir);

    (void)dev;
    return a ? a : DMA_MAPPING_ERROR;
}

static inline void dma_unmap_single(struct device *dev, dma_addr_t addr, size_t size,
                                    enum dma_data_direction dir)
{
    (void)dev;
    plat_dma_unmap(kcpu_plat(), addr, size, (unsigned)dir);
}

static inline int dma_mapping_error(struct device *dev, dma_addr_t addr)
{
    (void)dev;
    return addr == DMA_MAPPING_ERROR;
}

#define DEFINE_DMA_UNMAP_ADDR(name) dma_addr_t name
#define DEFINE_DMA_UNMAP_LEN(name) u32 name
#define dma_unmap_addr(ptr, name) ((ptr)->name)
#define dma_unmap_addr_set(ptr, name, val) (((ptr)->name) = (val))
#define dma_unmap_len(ptr, name) ((ptr)->name)
#define dma_unmap_len_set(ptr, name, val) (((ptr)->name) = (val))

dma_addr_t dma_map_page(struct device *dev, void *page, size_t offset, size_t size,
                        enum dma_data_direction dir)
    NICTX_UNMODELLED("dma_map_page() (frames are linear: dma_map_single)");
void dma_sync_single_for_device(struct device *dev, dma_addr_t addr, size_t size,
                                enum dma_data_direction dir)
    NICTX_UNMODELLED("streaming DMA syncs (the platform is coherent)");
void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
                             enum dma_data_direction dir)
    NICTX_UNMODELLED("streaming DMA syncs (the platform is coherent)");
int dma_map_sg(struct device *dev, void *sg, int nents, enum dma_data_direction dir)
    NICTX_UNMODELLED("scatter-gather mapping (frames are linear: dma_map_single)");
int dma_set_mask_and_coherent(struct device *dev, u64 mask)
    NICTX_UNMODELLED("DMA masks (every bus address is reachable)");

#endif
