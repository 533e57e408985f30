/*
 * txq.c - one transmit queue of the nictx driver model (see txq.h).
 */
#include "txq.h"

#include <stddef.h>
#include <stdlib.h>

/* The descriptor body is written as two 64-bit stores (x86, little-endian). */
_Static_assert(sizeof(struct nictx_tx_desc) == NICTX_DESC_BYTES,
               "descriptor is 16 bytes");
_Static_assert(offsetof(struct nictx_tx_desc, len_flags) == 8,
               "len_flags starts the second 64-bit word");
_Static_assert(offsetof(struct nictx_tx_desc, rsvd) == 12,
               "rsvd is the high half of the second 64-bit word");

#define TXQ_RING_ALIGN 128u

static int txq_cfg_valid(const struct txq_cfg *cfg)
{
    if (cfg->ring_log2 < TXQ_RING_LOG2_MIN || cfg->ring_log2 > TXQ_RING_LOG2_MAX)
        return 0;
    uint32_t slots = 1u << cfg->ring_log2;
    if (cfg->clean != TXQ_CLEAN_HEAD_WB && cfg->clean != TXQ_CLEAN_HEAD_MMIO)
        return 0;
    /* Head writeback in a ring of N slots: at most N - 1 completions are ever
     * outstanding, so a larger threshold could never fire. */
    if (cfg->wb_thresh >= slots)
        return 0;
    if (cfg->clean == TXQ_CLEAN_HEAD_WB && cfg->wb_thresh == 0)
        return 0;
    if (cfg->desc_fetch_max < 1 || cfg->desc_fetch_max > TXQ_FETCH_MAX_MAX)
        return 0;
    if (cfg->mrrs_log2 < TXQ_MRRS_LOG2_MIN || cfg->mrrs_log2 > TXQ_MRRS_LOG2_MAX)
        return 0;
    if (cfg->line_rate_fx == 0 || cfg->line_rate_fx > TXQ_LINE_RATE_MAX)
        return 0;
    if (cfg->max_tags > 256)
        return 0;
    if (cfg->max_rd_bytes != 0 && (cfg->max_rd_bytes < 4096 || cfg->max_rd_bytes >= (1u << 21)))
        return 0;
    if (cfg->irq_thresh > 0) {
        if (cfg->irq_addr == 0 || (cfg->irq_addr & 3u) != 0)
            return 0;
    } else if (cfg->irq_addr != 0) {
        return 0;
    }
    return 1;
}

int txq_init(struct txq *q, struct platform *p, const struct txq_cfg *cfg,
             txq_complete_fn done, void *done_ctx)
{
    if (q == NULL || p == NULL || cfg == NULL || done == NULL || !txq_cfg_valid(cfg))
        return -1;

    /* Probe: is this our device? */
    if (plat_mmio_read32(p, NICTX_REG_ID) != NICTX_ID_VALUE)
        return -3;

    uint32_t size = 1u << cfg->ring_log2;
    void **cookies = calloc(size, sizeof(*cookies));
    if (cookies == NULL)
        return -2;

    dma_addr_t ring_dma = 0;
    struct nictx_tx_desc *ring =
        plat_dma_alloc(p, (size_t)size * NICTX_DESC_BYTES, TXQ_RING_ALIGN, &ring_dma);
    if (ring == NULL) {
        free(cookies);
        return -2;
    }
    /* The writeback word gets a cache line of its own: the device writes it,
     * and sharing a line with descriptors would bounce it needlessly. */
    dma_addr_t wb_dma = 0;
    uint32_t *wb = plat_dma_alloc(p, TXQ_CACHELINE, TXQ_CACHELINE, &wb_dma);
    if (wb == NULL) {
        free(cookies);
        return -2;
    }

    q->plat = p;
    q->ring = ring;
    q->ring_dma = ring_dma;
    q->wb = wb;
    q->wb_dma = wb_dma;
    q->cookies = cookies;
    q->size = size;
    q->mask = size - 1;
    q->clean = cfg->clean;
    q->done = done;
    q->done_ctx = done_ctx;

    q->next_to_use = 0;
    q->stopped = 0;
    q->st_pkts = q->st_descs = q->st_doorbells = q->st_wmbs = 0;
    q->st_busy = q->st_stops = q->st_bad_len = 0;

    q->next_to_clean = 0;
    q->st_cleans = q->st_reclaimed = q->st_wakes = q->st_bad_head = 0;

    plat_mmio_write64(p, NICTX_REG_RING_BASE_LO, ring_dma);
    plat_mmio_write32(p, NICTX_REG_RING_LOG2, cfg->ring_log2);
    plat_mmio_write64(p, NICTX_REG_WB_ADDR_LO, wb_dma);
    plat_mmio_write32(p, NICTX_REG_WB_THRESH, cfg->wb_thresh);
    plat_mmio_write64(p, NICTX_REG_IRQ_ADDR_LO, cfg->irq_addr);
    plat_mmio_write32(p, NICTX_REG_IRQ_DATA, cfg->irq_thresh ? cfg->irq_data : 0);
    plat_mmio_write32(p, NICTX_REG_IRQ_THRESH, cfg->irq_thresh);
    plat_mmio_write32(p, NICTX_REG_MRRS_LOG2, cfg->mrrs_log2);
    plat_mmio_write32(p, NICTX_REG_DESC_FETCH_MAX, cfg->desc_fetch_max);
    plat_mmio_write32(p, NICTX_REG_LINE_RATE, cfg->line_rate_fx);
    if (cfg->max_tags)
        plat_mmio_write32(p, NICTX_REG_MAX_TAGS, cfg->max_tags);
    if (cfg->max_rd_bytes)
        plat_mmio_write32(p, NICTX_REG_MAX_RD_BYTES, cfg->max_rd_bytes);
    plat_mmio_write32(p, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    return 0;
}

void txq_destroy(struct txq *q)
{
    if (q == NULL)
        return;
    free(q->cookies);
    q->cookies = NULL;
}

unsigned txq_in_flight(const struct txq *q)
{
    return (q->next_to_use - q->next_to_clean) & q->mask;
}

unsigned txq_free(const struct txq *q)
{
    return q->mask - txq_in_flight(q);
}

int txq_stopped(const struct txq *q)
{
    return q->stopped != 0;
}

enum txq_ret txq_xmit(struct txq *q, const struct txq_pkt *pkt, int more)
{
    if (pkt->len == 0 || pkt->len > TXQ_PKT_LEN_MAX) {
        q->st_bad_len++;
        return TXQ_EINVAL;
    }
    if (q->stopped || txq_free(q) == 0) {
        q->st_busy++;
        return TXQ_BUSY;
    }

    struct platform *p = q->plat;
    plat_cpu_work(p, PLAT_WORK_XMIT_PKT, 1);

    uint32_t i = q->next_to_use;
    struct nictx_tx_desc *d = &q->ring[i];
    /* len_flags = len, flags 0; rsvd (high half) 0: no owner bit here. */
    plat_store64(p, &d->addr, pkt->dma);
    plat_store64(p, &d->len_flags, (uint64_t)pkt->len);
    q->cookies[i] = pkt->cookie;
    q->next_to_use = (i + 1) & q->mask;
    q->st_pkts++;
    q->st_descs++;

    /* netif_stop_queue when the next packet would not fit. */
    if (txq_free(q) < 1) {
        q->stopped = 1;
        q->st_stops++;
    }

    if (!more || q->stopped) {
        /* Descriptor stores visible before the device sees the new tail. */
        plat_wmb(p);
        q->st_wmbs++;
        plat_mmio_write32(p, NICTX_REG_TAIL, q->next_to_use);
        q->st_doorbells++;
    }
    return TXQ_OK;
}

static unsigned txq_wake_thresh(const struct txq *q)
{
    unsigned quarter = q->size / 4;
    return quarter < TXQ_WAKE_THRESH ? quarter : TXQ_WAKE_THRESH;
}

unsigned txq_clean(struct txq *q)
{
    struct platform *p = q->plat;
    plat_cpu_work(p, PLAT_WORK_CLEAN_POLL, 1);
    q->st_cleans++;

    uint32_t head;
    if (q->clean == TXQ_CLEAN_HEAD_WB)
        head = plat_load32(p, q->wb);
    else
        head = plat_mmio_read32(p, NICTX_REG_HEAD);

    uint32_t ntc = q->next_to_clean;
    /* The device may only report a head inside [next_to_clean, next_to_use]. */
    if (head >= q->size || ((head - ntc) & q->mask) > txq_in_flight(q)) {
        q->st_bad_head++;
        return 0;
    }

    unsigned n = 0;
    while (ntc != head) {
        plat_cpu_work(p, PLAT_WORK_CLEAN_DESC, 1);
        void *cookie = q->cookies[ntc];
        q->cookies[ntc] = NULL;
        q->done(q->done_ctx, cookie);
        ntc = (ntc + 1) & q->mask;
        n++;
    }
    q->next_to_clean = ntc;
    q->st_reclaimed += n;

    /* netif_wake_queue once there is room for a batch again. */
    if (q->stopped && txq_free(q) >= txq_wake_thresh(q)) {
        q->stopped = 0;
        q->st_wakes++;
    }
    return n;
}

void txq_get_stats(const struct txq *q, struct txq_stats *out)
{
    out->pkts = q->st_pkts;
    out->descs = q->st_descs;
    out->doorbells = q->st_doorbells;
    out->wmbs = q->st_wmbs;
    out->cleans = q->st_cleans;
    out->reclaimed = q->st_reclaimed;
    out->busy = q->st_busy;
    out->stops = q->st_stops;
    out->wakes = q->st_wakes;
    out->bad_head = q->st_bad_head;
    out->bad_len = q->st_bad_len;
}
