/* SPDX-License-Identifier: Apache-2.0 */
/* buf_place.c - packet buffer placement as Linux allocates skb heads (buf_place.h). */
#include "buf_place.h"

static size_t round_up(size_t x, size_t a)
{
    return (x + a - 1) / a * a;
}

static size_t pow2_at_least(size_t x)
{
    size_t p = 1;

    while (p < x)
        p <<= 1;
    return p;
}

/* SKB_DATA_ALIGN(NET_SKB_PAD + need) + SKB_DATA_ALIGN(shinfo): an skb head. */
static size_t skb_head(unsigned need)
{
    return round_up(BUF_PLACE_SKB_PAD + (size_t)need, 64) + BUF_PLACE_SHINFO;
}

void buf_layout_init(struct buf_layout *l, enum buf_place_mode mode, unsigned align,
                     unsigned need)
{
    l->mode = mode;
    l->per_chunk = 1;
    l->piece = 0;
    l->headroom = 0;
    /* __netdev_alloc_skb: a head past SKB_WITH_OVERHEAD(PAGE_SIZE) is kmalloc'd */
    if (mode == BUF_PLACE_FRAG && BUF_PLACE_SKB_PAD + (size_t)need > BUF_PLACE_PAGE - BUF_PLACE_SHINFO)
        l->mode = mode = BUF_PLACE_SKB;
    switch (mode) {
    case BUF_PLACE_FRAG:
        l->piece = skb_head(need);
        l->chunk = l->chunk_align = BUF_PLACE_FRAG_PAGE;
        l->per_chunk = (unsigned)(BUF_PLACE_FRAG_PAGE / l->piece);
        l->headroom = BUF_PLACE_SKB_PAD;
        break;
    case BUF_PLACE_SKB:
        l->chunk = l->chunk_align = pow2_at_least(skb_head(need));
        l->headroom = BUF_PLACE_SKB_PAD;
        break;
    case BUF_PLACE_ALIGN:
        l->chunk = round_up(need, align);
        l->chunk_align = align;
        break;
    case BUF_PLACE_PACKED:
    default:
        l->mode = BUF_PLACE_PACKED;
        l->chunk = round_up(need, 64);
        l->chunk_align = 64;
        break;
    }
}

size_t buf_layout_offset(const struct buf_layout *l, unsigned k)
{
    /* page_frag_alloc() takes each piece from the top of the page down */
    if (l->mode == BUF_PLACE_FRAG)
        return l->chunk - (size_t)(k + 1) * l->piece + l->headroom;
    return l->headroom;
}

size_t buf_layout_bytes(const struct buf_layout *l, unsigned n)
{
    size_t chunks = (n + l->per_chunk - 1) / l->per_chunk;

    return (l->chunk_align - 1) + chunks * l->chunk;
}
