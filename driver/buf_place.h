/* SPDX-License-Identifier: Apache-2.0 */
/*
 * buf_place.h - where a transmit path's packet buffers lie in DMA memory,
 * as Linux allocates socket buffer heads (docs/pcie.md, Buffer placement).
 *
 * A read of a buffer is cut at every MRRS boundary it crosses, so where a
 * frame starts relative to those boundaries costs requests, completions
 * and link bytes.  The placements:
 * - BUF_PLACE_FRAG: __netdev_alloc_skb() (net/core/skbuff.c) for a head of
 *   up to SKB_WITH_OVERHEAD(PAGE_SIZE): page_frag_alloc() carves pieces of
 *   SKB_DATA_ALIGN(NET_SKB_PAD + len) + SKB_DATA_ALIGN(sizeof(struct
 *   skb_shared_info)) from the top of a PAGE_FRAG_CACHE_MAX_SIZE (32 KiB)
 *   page down, and skb_reserve(NET_SKB_PAD) puts the data 64 B into its
 *   piece.  Larger heads are kmalloc'd (BUF_PLACE_SKB).
 * - BUF_PLACE_SKB: __alloc_skb()'s kmalloc_reserve(): a kmalloc object of
 *   SKB_DATA_ALIGN(NET_SKB_PAD + len) + SKB_DATA_ALIGN(320) rounded up to
 *   its power-of-two size class, naturally aligned (guaranteed for
 *   power-of-two kmalloc sizes since Linux 5.4), the data NET_SKB_PAD in.
 * - BUF_PLACE_ALIGN: each buffer at the start of its own slot of a power
 *   of two `align` bytes or a multiple of it (64..65536).
 * - BUF_PLACE_PACKED: buffers back to back, each rounded up to 64 B.
 * x86-64 constants: NET_SKB_PAD = max(32, L1_CACHE_BYTES) = 64,
 * SMP_CACHE_BYTES = 64, sizeof(struct skb_shared_info) = 320.
 */
#ifndef NICTX_BUF_PLACE_H
#define NICTX_BUF_PLACE_H

#include <stddef.h>

enum buf_place_mode { BUF_PLACE_PACKED, BUF_PLACE_FRAG, BUF_PLACE_SKB, BUF_PLACE_ALIGN };

#define BUF_PLACE_ALIGN_MIN 64u
#define BUF_PLACE_ALIGN_MAX 65536u
#define BUF_PLACE_SKB_PAD 64u      /* NET_SKB_PAD */
#define BUF_PLACE_SHINFO 320u      /* SKB_DATA_ALIGN(sizeof(struct skb_shared_info)) */
#define BUF_PLACE_FRAG_PAGE 32768u /* PAGE_FRAG_CACHE_MAX_SIZE */
#define BUF_PLACE_PAGE 4096u       /* PAGE_SIZE */

/* How buffers of `need` bytes each are laid out: in chunks of `chunk`
 * bytes aligned to `chunk_align`, `per_chunk` buffers a chunk, buffer k of
 * a chunk at offset(k). */
struct buf_layout {
    enum buf_place_mode mode;
    size_t chunk, chunk_align;
    unsigned per_chunk;
    size_t piece;    /* FRAG: one piece's bytes */
    size_t headroom; /* from a piece's (or chunk's) start to the buffer */
};

/* The layout of `mode` (align: BUF_PLACE_ALIGN's, a power of two
 * BUF_PLACE_ALIGN_MIN..MAX) for buffers of `need` bytes (1..65536). */
void buf_layout_init(struct buf_layout *l, enum buf_place_mode mode, unsigned align,
                     unsigned need);
/* Offset of buffer k (0..per_chunk - 1) in its chunk. */
size_t buf_layout_offset(const struct buf_layout *l, unsigned k);
/* The memory n buffers take, with the padding before the first chunk. */
size_t buf_layout_bytes(const struct buf_layout *l, unsigned n);

#endif /* NICTX_BUF_PLACE_H */
