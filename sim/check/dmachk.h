/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dmachk.h - the DMA-API debug checks over a driver's streaming mappings
 * (dma_map_single / dma_unmap_single), as Linux's CONFIG_DMA_API_DEBUG
 * makes them (kernel/dma/debug.c: check_unmap, and the leak report when a
 * driver lets go of its device).
 *
 * It keeps every bus address the driver has mapped, with the size and
 * direction of its mapping and how many mappings of it are live, and
 * reports, through the caller's callback (ownchk_report_fn), each rule an
 * unmap breaks:
 *   dma_unmap_size     unmapped with another size than it was mapped with
 *                      ("DMA-API: device driver frees DMA memory with
 *                      different size")
 *   dma_unmap_dir      unmapped with another direction ("... with
 *                      different direction")
 *   dma_unmap_twice    unmapped again after its last mapping was unmapped
 *                      (a double unmap)
 *   dma_unmap_unknown  an address the driver never mapped ("device driver
 *                      tries to free DMA memory it has not allocated")
 * and, at the end of a run (dmachk_final), the leak:
 *   dma_map_leak       more mappings live than descriptors still carrying
 *                      a buffer (handed to the device, or completed and
 *                      not yet unmapped): mappings no one will unmap
 *                      ("device driver has pending DMA allocations while
 *                      released from device")
 * A mismatched unmap still ends the mapping it names.  Directions are
 * Linux's enum dma_data_direction values (DMACHK_*).
 * No global state.
 */
#ifndef NICTX_DMACHK_H
#define NICTX_DMACHK_H

#include <stddef.h>
#include <stdint.h>

#include "check/ownchk.h"
#include "lib/simtime.h"

enum { DMACHK_BIDIRECTIONAL = 0, DMACHK_TO_DEVICE = 1, DMACHK_FROM_DEVICE = 2, DMACHK_NONE = 3 };

struct dmachk_map {
    uint64_t bus;           /* the mapped address (0: an empty entry) */
    uint32_t len;           /* size of its latest mapping */
    uint32_t live;          /* mappings not yet unmapped */
    uint8_t dir;            /* direction of its latest mapping */
    sim_ps_t unmap_t;       /* when its last mapping was unmapped */
};

struct dmachk {
    ownchk_report_fn report;
    void *ctx;
    unsigned queue;         /* the queue its reports name */
    struct dmachk_map *tab; /* open addressing by bus address, never emptied */
    size_t cap, used;       /* slots (a power of two), addresses kept */
    uint64_t live;          /* mappings live over every address */
    uint64_t maps, unmaps;  /* calls counted */
    int nomem;              /* the table could not grow: checks off */
};

/* An empty checker reporting through report(ctx, queue, ...). */
void dmachk_init(struct dmachk *d, ownchk_report_fn report, void *ctx, unsigned queue);
void dmachk_destroy(struct dmachk *d);
/* The driver mapped `len` bytes at bus address `bus` (not 0: host memory
 * starts above it) in direction `dir`.  With no memory for the table the
 * checks turn off (nomem). */
void dmachk_map(struct dmachk *d, uint64_t bus, size_t len, unsigned dir);
/* The driver unmapped [bus, bus + len) in direction `dir` at t: checked
 * against the mapping (the rules above). */
void dmachk_unmap(struct dmachk *d, uint64_t bus, size_t len, unsigned dir, sim_ps_t t);
/* At the end of a run at t, with `carried` descriptors still carrying a
 * buffer: report dma_map_leak if more mappings are live.  1 if it did. */
int dmachk_final(struct dmachk *d, uint64_t carried, sim_ps_t t);

#endif /* NICTX_DMACHK_H */
