/* SPDX-License-Identifier: Apache-2.0 */
/*
 * txq.c - one transmit queue of the nictx driver model (see txq.h).
 */
#include "txq.h"
#include "netdev.h"
#include "txq_reg.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The descriptor body is written as two 64-bit stores (x86, little-endian). */
_Static_assert(sizeof(struct nictx_tx_desc) == NICTX_DESC_BYTES,
               "descriptor is 16 bytes");
_Static_assert(offsetof(struct nictx_tx_desc, len_flags) == 8,
               "len_flags starts the second 64-bit word");
_Static_assert(offsetof(struct nictx_tx_desc, rsvd) == 12,
               "rsvd is the high half of the second 64-bit word");

static unsigned txq_queues(const struct txq_cfg *cfg)
{
    return cfg->queues ? cfg->queues : 1;
}

/* The queue fields: a queue in use, sane scheduler values. */
static int txq_cfg_queues_valid(const struct txq_cfg *cfg)
{
    if (txq_queues(cfg) > NICTX_Q_MAX || cfg->queue >= txq_queues(cfg))
        return 0;
    if (cfg->sched != NICTX_SCHED_RR && cfg->sched != NICTX_SCHED_DRR)
        return 0;
    if (cfg->drr_quantum != 0 && (cfg->drr_quantum < 64 || cfg->drr_quantum > 65536))
        return 0;
    return cfg->weight <= 255;
}

static int txq_cfg_valid(const struct txq_cfg *cfg)
{
    if (cfg->ring_log2 < TXQ_RING_LOG2_MIN || cfg->ring_log2 > TXQ_RING_LOG2_MAX)
        return 0;
    uint32_t slots = 1u << cfg->ring_log2;
    if ((unsigned)cfg->clean >= TXQ_CLEAN_COUNT)
        return 0;
    /* Head writeback in a ring of N slots: at most N - 1 completions are ever
     * outstanding, so a larger threshold could never fire. */
    if (cfg->wb_thresh >= slots)
        return 0;
    /* Every mode but the MMIO read needs the device's completion writes. */
    if (cfg->clean != TXQ_CLEAN_HEAD_MMIO && cfg->wb_thresh == 0)
        return 0;
    /* A CQE per completion at most: a CQ as large as the ring never
     * overflows. */
    if (cfg->cq_log2 != 0 && (cfg->cq_log2 < cfg->ring_log2 || cfg->cq_log2 > TXQ_RING_LOG2_MAX))
        return 0;
    if (cfg->irq_timer >= (1u << 24))
        return 0;
    if (cfg->desc_fetch_max < 1 || cfg->desc_fetch_max > TXQ_FETCH_MAX_MAX)
        return 0;
    if (cfg->desc_inflight > TXQ_INFLIGHT_MAX)
        return 0;
    if (cfg->mrrs_log2 < TXQ_MRRS_LOG2_MIN || cfg->mrrs_log2 > TXQ_MRRS_LOG2_MAX)
        return 0;
    if (cfg->line_rate_fx == 0 || cfg->line_rate_fx > TXQ_LINE_RATE_MAX)
        return 0;
    if (cfg->max_tags > 256)
        return 0;
    if (cfg->max_rd_bytes != 0 && (cfg->max_rd_bytes < 4096 || cfg->max_rd_bytes >= (1u << 21)))
        return 0;
    if (cfg->proto > TXQ_PROTO_WC || cfg->barrier > TXQ_BARRIER_NONE || cfg->bug >= DRV_BUG_COUNT)
        return 0;
    if (cfg->dql_order != DQL_WRITE_FIRST && cfg->dql_order != DQL_READ_FIRST)
        return 0;
    if (cfg->tail_coalesce >= slots)
        return 0;
    if (cfg->cpl_timeout >= (1u << 24))
        return 0;
    if (cfg->irq_thresh > 0 || cfg->irq_timer > 0) {
        if (cfg->irq_addr == 0 || (cfg->irq_addr & 3u) != 0)
            return 0;
    } else if (cfg->irq_addr != 0) {
        return 0;
    }
    return txq_cfg_queues_valid(cfg);
}

/* The device-wide queue registers, before any queue block is touched. */
static void txq_program_sched(struct platform *p, const struct txq_cfg *cfg)
{
    if (txq_queues(cfg) != NICTX_REG_QUEUES_RESET)
        plat_mmio_write32(p, NICTX_REG_QUEUES, txq_queues(cfg));
    if (cfg->sched != NICTX_REG_SCHED_RESET)
        plat_mmio_write32(p, NICTX_REG_SCHED, cfg->sched);
    if (cfg->drr_quantum && cfg->drr_quantum != NICTX_REG_DRR_QUANTUM_RESET)
        plat_mmio_write32(p, NICTX_REG_DRR_QUANTUM, cfg->drr_quantum);
}

/* This queue's block: ring, writeback word, weight. */
static void txq_program_queue(struct txq *q, struct platform *p, const struct txq_cfg *cfg)
{
    if (cfg->queue == 0)
        txq_program_sched(p, cfg);
    plat_mmio_write64(p, txq_reg(q->qid, NICTX_QREG_RING_BASE_LO), q->ring_dma);
    plat_mmio_write32(p, txq_reg(q->qid, NICTX_QREG_RING_LOG2), cfg->ring_log2);
    plat_mmio_write64(p, txq_reg(q->qid, NICTX_QREG_WB_ADDR_LO), q->wb_dma);
    if (cfg->weight && cfg->weight != NICTX_QREG_WEIGHT_RESET)
        plat_mmio_write32(p, txq_reg(q->qid, NICTX_QREG_WEIGHT), cfg->weight);
}

/* The device-wide registers (queue 0's txq_init), CTRL aside. */
static void txq_program_device(struct platform *p, const struct txq_cfg *cfg,
                               dma_addr_t cq_dma, unsigned cq_log2)
{
    plat_mmio_write32(p, NICTX_REG_WB_THRESH, cfg->wb_thresh);
    plat_mmio_write64(p, NICTX_REG_IRQ_ADDR_LO, cfg->irq_addr);
    plat_mmio_write32(p, NICTX_REG_IRQ_DATA,
                      cfg->irq_thresh || cfg->irq_timer ? cfg->irq_data : 0);
    plat_mmio_write32(p, NICTX_REG_IRQ_THRESH, cfg->irq_thresh);
    if (cfg->irq_timer)
        plat_mmio_write32(p, NICTX_REG_IRQ_TIMER, cfg->irq_timer);
    if (cfg->clean == TXQ_CLEAN_DESC_WB)
        plat_mmio_write32(p, NICTX_REG_CPL_MODE, NICTX_CPL_MODE_DESC_WB);
    if (cfg->clean == TXQ_CLEAN_CQ) {
        plat_mmio_write32(p, NICTX_REG_CPL_MODE, NICTX_CPL_MODE_CQ);
        plat_mmio_write64(p, NICTX_REG_CQ_BASE_LO, cq_dma);
        plat_mmio_write32(p, NICTX_REG_CQ_LOG2, cq_log2);
    }
    plat_mmio_write32(p, NICTX_REG_MRRS_LOG2, cfg->mrrs_log2);
    plat_mmio_write32(p, NICTX_REG_DESC_FETCH_MAX, cfg->desc_fetch_max);
    if (cfg->desc_inflight && cfg->desc_inflight != NICTX_REG_DESC_INFLIGHT_RESET)
        plat_mmio_write32(p, NICTX_REG_DESC_INFLIGHT, cfg->desc_inflight);
    plat_mmio_write32(p, NICTX_REG_LINE_RATE, cfg->line_rate_fx);
    if (cfg->proto != TXQ_PROTO_TAIL)
        plat_mmio_write32(p, NICTX_REG_PROTO, cfg->proto == TXQ_PROTO_WC ? NICTX_PROTO_WC
                                                                         : NICTX_PROTO_OWNER);
    if (cfg->max_tags)
        plat_mmio_write32(p, NICTX_REG_MAX_TAGS, cfg->max_tags);
    if (cfg->max_rd_bytes)
        plat_mmio_write32(p, NICTX_REG_MAX_RD_BYTES, cfg->max_rd_bytes);
    if (cfg->cpl_timeout)
        plat_mmio_write32(p, NICTX_REG_CPL_TIMEOUT, cfg->cpl_timeout);
}

/* Queue q > 0's completion queue (through its block) and its MSI-X vector,
 * vector q (queue 0's are the register page's CQ_BASE, CQ_LOG2, IRQ_ADDR
 * and IRQ_DATA: txq_program_device). */
static void txq_program_cpl(struct txq *q, struct platform *p, const struct txq_cfg *cfg,
                            dma_addr_t cq_dma, unsigned cq_log2)
{
    if (cfg->clean == TXQ_CLEAN_CQ) {
        /* CQ_BASE_LO/HI of a block (0x2C/0x30) are not 8-byte aligned: two
         * 4-byte writes. */
        plat_mmio_write32(p, txq_reg(q->qid, NICTX_QREG_CQ_BASE_LO), (uint32_t)cq_dma);
        plat_mmio_write32(p, txq_reg(q->qid, NICTX_QREG_CQ_BASE_HI), (uint32_t)(cq_dma >> 32));
        plat_mmio_write32(p, txq_reg(q->qid, NICTX_QREG_CQ_LOG2), cq_log2);
    }
    if (cfg->irq_thresh || cfg->irq_timer) {
        plat_mmio_write64(p, NICTX_REG_MSIX(q->qid, NICTX_MSIXREG_MSG_ADDR_LO), cfg->irq_addr);
        plat_mmio_write32(p, NICTX_REG_MSIX(q->qid, NICTX_MSIXREG_MSG_DATA), cfg->irq_data);
    }
}

/* The host memory a queue owns: its per-slot arrays (malloc) and its ring,
 * writeback word and completion queue (DMA memory, zeroed); 0, or -2 with
 * nothing of it kept (DMA memory taken lives as long as the platform). */
static int txq_alloc(struct txq *q, struct platform *p, const struct txq_cfg *cfg,
                     unsigned cq_log2)
{
    uint32_t size = 1u << cfg->ring_log2;

    q->cookies = calloc(size, sizeof(*q->cookies));
    q->phase_of = calloc(size, 1);
    q->len_of = calloc(size, sizeof(*q->len_of));
    q->ring = NULL;
    q->wb = NULL;
    q->cq = NULL;
    q->cq_dma = 0;
    if (q->cookies != NULL && q->phase_of != NULL && q->len_of != NULL)
        q->ring = plat_dma_alloc(p, (size_t)size * NICTX_DESC_BYTES, TXQ_RING_ALIGN,
                                 &q->ring_dma);
    /* The writeback word gets a cache line of its own: the device writes
     * it, and sharing a line with descriptors would bounce it needlessly. */
    if (q->ring != NULL)
        q->wb = plat_dma_alloc(p, TXQ_CACHELINE, TXQ_CACHELINE, &q->wb_dma);
    /* The completion queue (CQ mode only), zeroed: phase 0 is "not yet". */
    if (q->wb != NULL && cfg->clean == TXQ_CLEAN_CQ) {
        q->cq = plat_dma_alloc(p, (size_t)NICTX_CQE_BYTES << cq_log2, TXQ_CACHELINE, &q->cq_dma);
        if (q->cq != NULL)
            memset(q->cq, 0, (size_t)NICTX_CQE_BYTES << cq_log2);
    }
    if (q->wb != NULL && (cfg->clean != TXQ_CLEAN_CQ || q->cq != NULL))
        return 0;
    txq_destroy(q);
    return -2;
}

/* Every field as a queue starts: indices 0, the first phase, no stop, the
 * counters 0, BQL as Linux starts it. */
static int txq_start_state(struct txq *q, struct platform *p, const struct txq_cfg *cfg,
                           unsigned cq_log2, txq_complete_fn done, void *done_ctx)
{
    uint32_t size = 1u << cfg->ring_log2;

    q->plat = p;
    q->qid = cfg->queue;
    q->reg_tail = txq_reg(cfg->queue, NICTX_QREG_TAIL);
    q->reg_head = txq_reg(cfg->queue, NICTX_QREG_HEAD);
    q->cq_mask = (1u << cq_log2) - 1;
    q->cq_ci = 0;
    q->cq_phase = 1;
    q->cpl_head = 0;
    q->bql = cfg->bql;
    q->tail_coalesce = cfg->tail_coalesce;
    q->xmit_lock = 0;
    q->st_bql_stops = q->st_deferred = 0;
    /* BQL as Linux starts it: no minimum, the kernel's maximum, 1 s hold. */
    if (dql_init(&q->dql, cfg->dql_order, 0, DQL_MAX_LIMIT, 1000000000ull) != 0 ||
        dql_set_stall_thrs(&q->dql, p, cfg->bql_stall_thrs) != 0)
        return -1;
    q->bug_fired = 0;
    q->size = size;
    q->mask = size - 1;
    q->clean = cfg->clean;
    q->proto = cfg->proto;
    q->barrier = cfg->barrier;
    q->bug = cfg->bug;
    q->bug_at = cfg->bug_at;
    q->done = done;
    q->done_ctx = done_ctx;
    q->drop = NULL;
    q->drop_ctx = NULL;
    q->st_resets = q->st_dropped = 0;
    q->resetting = q->in_clean = 0;
    q->progress_ns = 0;
    q->reset_wait_ns = cfg->reset_wait_ns;
    q->next_to_use = 0;
    q->stopped = 0;
    q->phase = 1;
    q->batch_start = 0;
    q->coalesced = 0;
    q->wc_off = NICTX_WC_BASE;
    q->st_pkts = q->st_descs = q->st_doorbells = q->st_wmbs = 0;
    q->st_dma_wmbs = q->st_wc_pushes = 0;
    q->st_busy = q->st_stops = q->st_bad_len = q->st_restarts = 0;
    q->next_to_clean = 0;
    q->st_cleans = q->st_reclaimed = q->st_wakes = q->st_bad_head = 0;
    return 0;
}

int txq_init(struct txq *q, struct platform *p, const struct txq_cfg *cfg,
             txq_complete_fn done, void *done_ctx)
{
    if (q == NULL || p == NULL || cfg == NULL || done == NULL || !txq_cfg_valid(cfg))
        return -1;

    /* Probe: is this our device? */
    if (plat_mmio_read32(p, NICTX_REG_ID) != NICTX_ID_VALUE)
        return -3;

    unsigned cq_log2 = cfg->cq_log2 ? cfg->cq_log2 : cfg->ring_log2;
    if (txq_alloc(q, p, cfg, cq_log2) != 0)
        return -2;
    if (txq_start_state(q, p, cfg, cq_log2, done, done_ctx) != 0) {
        txq_destroy(q);
        return -1;
    }

    txq_program_queue(q, p, cfg);
    if (cfg->queue == 0)
        txq_program_device(p, cfg, q->cq_dma, cq_log2);
    else
        txq_program_cpl(q, p, cfg, q->cq_dma, cq_log2);
    if (cfg->queue == txq_queues(cfg) - 1)
        plat_mmio_write32(p, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    return 0;
}

void txq_set_drop(struct txq *q, txq_drop_fn drop, void *ctx)
{
    q->drop = drop;
    q->drop_ctx = ctx;
}

void txq_destroy(struct txq *q)
{
    if (q == NULL)
        return;
    free(q->cookies);
    free(q->phase_of);
    free(q->len_of);
    q->cookies = NULL;
    q->phase_of = NULL;
    q->len_of = NULL;
}

unsigned txq_in_flight(const struct txq *q)
{
    return (q->next_to_use - q->next_to_clean) & q->mask;
}

unsigned txq_free(const struct txq *q)
{
    return q->mask - txq_in_flight(q);
}

/* Free slots by producer index `ntu` and consumer index `ntc`, each as
 * this CPU read it. */
static unsigned txq_room(const struct txq *q, uint32_t ntu, uint32_t ntc)
{
    /* The bug: counts the slot a full ring must leave empty. */
    unsigned slots = q->bug == DRV_BUG_RING_OVERFILL && q->st_pkts >= q->bug_at ? q->size : q->mask;

    return slots - ((ntu - ntc) & q->mask);
}

/* The transmit path's view: its own index, and `ntc` as it read it. */
static unsigned txq_free_at(const struct txq *q, uint32_t ntc)
{
    return txq_room(q, q->next_to_use, ntc);
}

int txq_stopped(const struct txq *q)
{
    return q->stopped != 0 || q->resetting != 0;
}

/* A one-shot bug fires on this packet. */
static int txq_bug_now(const struct txq *q, enum drv_bug bug)
{
    return q->bug == bug && q->st_pkts == q->bug_at;
}

static void txq_dma_wmb(struct txq *q)
{
    plat_dma_wmb(q->plat);
    q->st_dma_wmbs++;
}

static void txq_wmb(struct txq *q)
{
    plat_wmb(q->plat);
    q->st_wmbs++;
}

static int txq_owned_proto(const struct txq *q)
{
    return q->proto != TXQ_PROTO_TAIL;
}

/* The descriptor body (address and length; no owner bit) of slot i. */
static void txq_write_body(struct txq *q, uint32_t i, const struct txq_pkt *pkt)
{
    struct nictx_tx_desc *d = &q->ring[i];
    uint64_t addr = pkt->dma;
    uint32_t len = pkt->len;

    if (txq_bug_now(q, DRV_BUG_ZERO_LEN))
        len = 0;
    if (txq_bug_now(q, DRV_BUG_LEN_TOO_BIG))
        len |= NICTX_DESC_LEN_MASK + 1u;
    if (txq_bug_now(q, DRV_BUG_BAD_DMA_ADDR))
        addr += 1ull << 40;
    plat_store64(q->plat, &d->addr, addr);
    if (txq_owned_proto(q))
        plat_store32(q->plat, &d->len_flags, len); /* the owner word follows */
    else
        plat_store64(q->plat, &d->len_flags, (uint64_t)len); /* rsvd 0 */
}

/* Hand slot i to the device by its owner bit. */
static void txq_set_owner(struct txq *q, uint32_t i)
{
    if (q->bug == DRV_BUG_OWNER_SKIPPED && !q->bug_fired && q->st_pkts >= q->bug_at) {
        q->bug_fired = 1;
        return;
    }
    plat_store32(q->plat, &q->ring[i].rsvd, q->phase_of[i] ? NICTX_DESC_OWNER : 0);
}

/* Owner protocols: the barrier before one descriptor's owner bit. */
static void txq_owner_barrier(struct txq *q)
{
    if (q->bug == DRV_BUG_NO_DMA_WMB)
        return;
    if (q->barrier == TXQ_BARRIER_PER_DESC)
        txq_dma_wmb(q);
    else if (q->barrier == TXQ_BARRIER_WMB_PER_DESC)
        txq_wmb(q);
}

/* Publish the batch [batch_start, next_to_use) with owner bits, if the
 * placement deferred them: one dma_wmb, the first descriptor's bit last. */
static void txq_publish_batch(struct txq *q)
{
    uint32_t first = q->batch_start, i;

    if (!txq_owned_proto(q) || q->barrier != TXQ_BARRIER_PER_BATCH || first == q->next_to_use)
        return;
    if (q->bug != DRV_BUG_NO_DMA_WMB)
        txq_dma_wmb(q);
    for (i = (first + 1) & q->mask; i != q->next_to_use; i = (i + 1) & q->mask)
        txq_set_owner(q, i);
    txq_set_owner(q, first);
}

/* The doorbell-side barrier (wmb before the doorbell or WC copy). */
static void txq_doorbell_barrier(struct txq *q)
{
    if (q->barrier == TXQ_BARRIER_NONE || q->bug == DRV_BUG_NO_WMB_DOORBELL ||
        (q->bug == DRV_BUG_BF_NO_WMB && q->proto == TXQ_PROTO_WC))
        return;
    if (q->bug == DRV_BUG_SMP_WMB_DOORBELL) { /* the CPUs' barrier, not the device's */
        plat_smp_wmb(q->plat);
        return;
    }
    txq_wmb(q);
}

/* mlx4 BlueFlame: copy the batch's last descriptor, with its ring index,
 * into the next WC buffer; the copy is the doorbell. */
static void txq_wc_push(struct txq *q)
{
    uint32_t last = (q->next_to_use - 1) & q->mask;
    uint64_t block[NICTX_WC_BLOCK / 8] = {0};

    if (q->bug == DRV_BUG_BF_WRONG_SLOT && !q->bug_fired && q->st_pkts > q->bug_at) {
        last = q->next_to_use;
        q->bug_fired = 1;
    }

    memcpy(block, &q->ring[last], NICTX_DESC_BYTES); /* as the driver wrote it */
    block[NICTX_WC_IDX_OFF / 8] = last;
    plat_mmio_copy_wc(q->plat, q->wc_off, block, sizeof(block));
    if (q->barrier != TXQ_BARRIER_NONE && q->bug != DRV_BUG_BF_NO_SFENCE)
        txq_wmb(q); /* sfence: the block leaves the WC buffer now */
    if (q->bug != DRV_BUG_BF_SAME_BUF)
        q->wc_off ^= NICTX_WC_BUF_SIZE;
    q->st_wc_pushes++;
}

static void txq_doorbell(struct txq *q)
{
    uint32_t tail = q->next_to_use;

    txq_publish_batch(q);
    q->batch_start = q->next_to_use;
    txq_doorbell_barrier(q);
    if (q->proto == TXQ_PROTO_WC) {
        txq_wc_push(q);
        return;
    }
    /* Tail bugs: the first doorbell after packet bug_at. */
    if (!q->bug_fired && q->st_pkts > q->bug_at &&
        (q->bug == DRV_BUG_TAIL_PAST_WRITTEN || q->bug == DRV_BUG_TAIL_BEYOND_RING)) {
        if (q->bug == DRV_BUG_TAIL_PAST_WRITTEN)
            tail = (tail + 1) & q->mask;
        else
            tail += q->size;
        q->bug_fired = 1;
    }
    /* The bug: owner bits alone, the device never told to look. */
    if (!(q->bug == DRV_BUG_OWNER_NO_KICK && q->proto == TXQ_PROTO_OWNER && q->st_pkts > q->bug_at))
        plat_mmio_write32(q->plat, q->reg_tail, tail);
    q->st_doorbells++;
}

/* Descriptors written since the last doorbell. */
static unsigned txq_pending(const struct txq *q)
{
    return (q->next_to_use - q->batch_start) & q->mask;
}

/* Ring the doorbell now, or defer it (tail coalescing): the kernel's
 * `!xmit_more || stopped` rule, with ixgbe's dispatch_limit on top. */
static void txq_kick(struct txq *q, int more)
{
    unsigned pending = txq_pending(q);

    if (pending == 0)
        return;
    q->coalesced = 0;
    if (!txq_stopped(q) && (more || (q->tail_coalesce && pending < q->tail_coalesce))) {
        if (!more) {
            q->st_deferred++;
            q->coalesced = 1;
        }
        return;
    }
    txq_doorbell(q);
}

void txq_flush(struct txq *q)
{
    if (txq_pending(q) && q->coalesced)
        txq_doorbell(q);
    q->coalesced = 0;
}

/* BQL after queuing `len` bytes: netdev_tx_sent_queue. */
static void txq_bql_sent(struct txq *q, unsigned len)
{
    if (!q->bql)
        return;
    netdev_tx_sent_queue(q->plat, &q->stopped, &q->dql, len);
    if (q->stopped & 1u << NETDEV_XOFF_STACK)
        q->st_bql_stops++;
}

/* Write slot i for pkt under the configured protocol and placement. */
static void txq_write_desc(struct txq *q, uint32_t i, const struct txq_pkt *pkt)
{
    txq_write_body(q, i, pkt);
    q->phase_of[i] = (uint8_t)q->phase;
    if (!txq_owned_proto(q) || q->barrier == TXQ_BARRIER_PER_BATCH)
        return;
    txq_owner_barrier(q);
    txq_set_owner(q, i);
}

/* netif_tx_stop_queue when the next packet would not fit, as
 * ixgbe_maybe_stop_tx writes it: by the consumer index `ntc` read on entry,
 * stop, smp_mb(), then
 * read the consumer index again and re-check.  A cleanup
 * that freed room meanwhile tested `stopped` before the stop was visible and
 * did not wake the queue; the re-check undoes the stop instead (ixgbe:
 * netif_start_subqueue, ++restart_queue).  The barrier pairs with the
 * cleanup's smp_mb() before it tests `stopped` (txq_maybe_wake). */
static void txq_maybe_stop(struct txq *q, uint32_t ntc)
{
    int late = q->st_pkts > q->bug_at;

    if (txq_free_at(q, ntc) >= 1)
        return;
    netif_tx_stop_queue(q->plat, &q->stopped);
    q->st_stops++;
    if (late && q->bug == DRV_BUG_STOP_NO_RECHECK)
        return;
    if (!(late && q->bug == DRV_BUG_STOP_NO_MB))
        plat_smp_mb(q->plat);
    if (txq_free_at(q, plat_read_once32(q->plat, &q->next_to_clean)) < 1)
        return;
    netif_tx_start_queue(q->plat, &q->stopped);
    q->st_restarts++;
}

enum txq_ret txq_xmit(struct txq *q, const struct txq_pkt *pkt, int more)
{
    if (pkt->len == 0 || pkt->len > TXQ_PKT_LEN_MAX) {
        q->st_bad_len++;
        return TXQ_EINVAL;
    }
    /* The stack's test first (netif_xmit_stopped), then the producer reads
     * the ring's read-mostly fields, its own index and the consumer's (free
     * space). */
    if (netif_xmit_stopped(q->plat, &q->stopped) || q->resetting) {
        q->st_busy++;
        return TXQ_BUSY;
    }
    plat_cpu_touch(q->plat, &q->mask, sizeof(q->mask), PLAT_READ);
    plat_cpu_touch(q->plat, &q->next_to_use, sizeof(q->next_to_use), PLAT_READ);
    uint32_t ntc = plat_read_once32(q->plat, &q->next_to_clean);
    if (txq_free_at(q, ntc) == 0) {
        q->st_busy++;
        return TXQ_BUSY;
    }

    plat_cpu_work(q->plat, PLAT_WORK_XMIT_PKT, 1);
    if (txq_in_flight(q) == 0)
        q->progress_ns = plat_time_ns(q->plat); /* the hang clock starts */
    uint32_t i = q->next_to_use;
    /* BQL counts the bytes before the device can own them (mlx4_en_xmit:
     * netdev_tx_sent_queue before the owner bit), or a completion could
     * report bytes the completion CPU does not see queued yet. */
    txq_bql_sent(q, pkt->len);
    txq_write_desc(q, i, pkt);
    /* A stale index: the last descriptor the previous doorbell published. */
    if (q->bug == DRV_BUG_DESC_REUSE && !q->bug_fired && q->st_pkts >= q->bug_at &&
        q->batch_start != q->next_to_clean) {
        txq_write_body(q, (q->batch_start - 1) & q->mask, pkt);
        q->bug_fired = 1;
    }
    q->cookies[i] = pkt->cookie;
    q->len_of[i] = pkt->len;
    plat_cpu_touch(q->plat, &q->next_to_use, sizeof(q->next_to_use), PLAT_WRITE);
    q->next_to_use = (i + 1) & q->mask;
    /* A new pass over the ring: the owner bit flips (mlx4: ring->size bit). */
    if (q->next_to_use == 0 && !(q->bug == DRV_BUG_WRONG_PHASE))
        q->phase ^= 1u;
    /* Per-packet statistics live on the producer line (mlx4 ring->packets,
     * ring->bytes). */
    plat_cpu_touch(q->plat, &q->st_pkts, sizeof(q->st_pkts), PLAT_WRITE);
    q->st_pkts++;
    q->st_descs++;

    txq_maybe_stop(q, ntc);
    txq_kick(q, more);
    return TXQ_OK;
}

/* BQL after reclaiming `bytes`: netdev_tx_completed_queue. */
static void txq_bql_completed(struct txq *q, struct platform *p, unsigned bytes)
{
    if (q->bql && netdev_tx_completed_queue(p, &q->stopped, &q->dql, bytes))
        q->st_wakes++;
}

static unsigned txq_wake_thresh(const struct txq *q)
{
    unsigned quarter = q->size / 4;
    return quarter < TXQ_WAKE_THRESH ? quarter : TXQ_WAKE_THRESH;
}

unsigned txq_clean(struct txq *q)
{
    return txq_clean_budget(q, q->plat, 0);
}

/* Reclaim [next_to_clean, head), at most `budget` (0: all): the completion
 * callback per descriptor, then BQL.  The number reclaimed. */
static unsigned txq_reclaim(struct txq *q, struct platform *p, uint32_t head, unsigned budget)
{
    uint32_t ntc = q->next_to_clean;
    unsigned n = 0, bytes = 0;

    while (ntc != head && (budget == 0 || n < budget)) {
        plat_cpu_work(p, PLAT_WORK_CLEAN_DESC, 1);
        /* Per descriptor the loop reads the ring's read-mostly fields (the
         * mask, the per-slot arrays): cheap unless a writer shares the line. */
        plat_cpu_touch(p, &q->mask, sizeof(q->mask), PLAT_READ);
        unsigned len = q->len_of[ntc];
        /* The bug: BQL is told the frame without its FCS. */
        bytes += q->bug == DRV_BUG_BQL_SHORT && q->st_pkts >= q->bug_at ? len - 4 : len;
        q->len_of[ntc] = 0;
        /* mlx4_en_process_tx_cq: ring->last_nr_txbb = mlx4_en_free_tx_desc(). */
        plat_cpu_touch(p, &q->last_nr, sizeof(q->last_nr), PLAT_WRITE);
        q->last_nr = 1;
        /* ixgbe_unmap_and_free_tx_resource: dma_unmap_single, then free. */
        if (!(q->bug == DRV_BUG_NO_UNMAP && q->st_pkts >= q->bug_at))
            plat_dma_unmap(p, q->ring[ntc].addr, len);
        void *cookie = q->cookies[ntc];
        q->cookies[ntc] = NULL;
        q->done(q->done_ctx, cookie);
        ntc = (ntc + 1) & q->mask;
        n++;
    }
    /* The bug: the index is never stored back (a local copy advanced). */
    if (!(q->bug == DRV_BUG_NTC_UNSTORED && q->st_pkts >= q->bug_at))
        plat_write_once32(p, &q->next_to_clean, ntc); /* the transmit path reads it */
    q->st_reclaimed += n;
    if (n)
        q->progress_ns = plat_time_ns(p);
    txq_bql_completed(q, p, bytes);
    return n;
}

/* DESC_WB: scan the in-flight slots past the head reported so far for the
 * newest DD of this pass (ixgbe_clean_tx_irq checks eop_desc->wb.status &
 * DD); the head is the slot after it. */
static uint32_t txq_dd_head(struct txq *q, struct platform *p)
{
    plat_cpu_touch(p, &q->next_to_use, sizeof(q->next_to_use), PLAT_READ);
    uint32_t ntu = q->next_to_use;
    for (uint32_t i = q->cpl_head; i != ntu; i = (i + 1) & q->mask) {
        uint32_t w = plat_load32(p, &q->ring[i].rsvd);
        if ((w & NICTX_DESC_DD) && (w >> 31) == q->phase_of[i] && q->len_of[i] != 0)
            q->cpl_head = (i + 1) & q->mask;
    }
    return q->cpl_head;
}

/* CQ: consume the CQEs of the expected phase at the consumer index (mlx4
 * mlx4_en_process_tx_cq); the head is the slot after the newest one. */
static uint32_t txq_cq_head(struct txq *q, struct platform *p)
{
    for (;;) {
        uint64_t *e = &q->cq[q->cq_ci];
        uint32_t hi = plat_load32(p, (const uint32_t *)e + 1);
        if ((hi >> 31) != q->cq_phase)
            break;
        /* dma_rmb(): the rest of the CQE after its owner bit (x86: a
         * compiler barrier; arm64: dmb oshld), as mlx4_en_process_tx_cq. */
        if (!(q->bug == DRV_BUG_CQ_NO_RMB && q->st_pkts >= q->bug_at))
            plat_smp_rmb(p);
        uint32_t lo = plat_load32(p, e);
        q->cpl_head = ((lo & NICTX_CQE_IDX_MASK) + 1) & q->mask;
        q->cq_ci = (q->cq_ci + 1) & q->cq_mask;
        if (q->cq_ci == 0)
            q->cq_phase ^= 1u;
    }
    return q->cpl_head;
}

/* netif_wake_queue once there is room for a batch again, after reclaiming,
 * as bnxt_tx_int writes it: smp_mb() so that a transmit path stopping after
 * this sees the new next_to_clean (it pairs with txq_maybe_stop's), then
 * test `stopped`, then the room by the producer's index (ixgbe_clean_tx_irq
 * does the same with the two tests swapped). */
static void txq_maybe_wake(struct txq *q, struct platform *p)
{
    if (!(q->bug == DRV_BUG_WAKE_NO_MB && q->st_pkts >= q->bug_at))
        plat_smp_mb(p);
    if (!netif_tx_queue_stopped(p, &q->stopped))
        return;
    uint32_t ntu = plat_read_once32(p, &q->next_to_use);
    if (txq_room(q, ntu, q->next_to_clean) < txq_wake_thresh(q) ||
        (q->bug == DRV_BUG_NO_WAKE && q->st_pkts >= q->bug_at))
        return;
    if (netif_tx_wake_queue(p, &q->stopped))
        q->st_wakes++;
}

static unsigned txq_clean_pass(struct txq *q, struct platform *p, unsigned budget)
{
    plat_cpu_work(p, PLAT_WORK_CLEAN_POLL, 1);
    q->st_cleans++;

    uint32_t head;
    switch (q->clean) {
    case TXQ_CLEAN_HEAD_WB: head = plat_load32(p, q->wb); break;
    case TXQ_CLEAN_DESC_WB: head = txq_dd_head(q, p); break;
    case TXQ_CLEAN_CQ: head = txq_cq_head(q, p); break;
    default: head = plat_mmio_read32(p, q->reg_head); break;
    }

    plat_cpu_touch(p, &q->next_to_clean, sizeof(q->next_to_clean), PLAT_READ);
    uint32_t ntc = q->next_to_clean;
    /* The device may only report a head inside [next_to_clean, next_to_use].
     * The in-flight slots are exactly those with a length (reclaim clears
     * it), so the slot before the head tells, as ixgbe's next_to_watch
     * does, without reading the producer's line. */
    if (head >= q->size || (head != ntc && q->len_of[(head - 1) & q->mask] == 0)) {
        q->st_bad_head++;
        return 0;
    }

    /* The bug: once, one descriptor past the device's head, if it is in
     * flight (a `<=` for a `<` in the reclaim loop's bound). */
    if (q->bug == DRV_BUG_RECLAIM_PAST_HEAD && !q->bug_fired && q->st_pkts >= q->bug_at &&
        head != q->next_to_use && q->len_of[head] != 0) {
        head = (head + 1) & q->mask;
        q->bug_fired = 1;
    }
    unsigned n = txq_reclaim(q, p, head, budget);

    if (n)
        txq_maybe_wake(q, p);
    return n;
}

unsigned txq_clean_budget(struct txq *q, struct platform *p, unsigned budget)
{
    if (q->resetting)
        return 0; /* napi_disable: the reset owns the ring */
    q->in_clean = 1;
    unsigned n = txq_clean_pass(q, p, budget);
    q->in_clean = 0;
    return n;
}

void txq_get_stats(const struct txq *q, struct txq_stats *out)
{
    out->pkts = q->st_pkts;
    out->descs = q->st_descs;
    out->doorbells = q->st_doorbells;
    out->wmbs = q->st_wmbs;
    out->dma_wmbs = q->st_dma_wmbs;
    out->wc_pushes = q->st_wc_pushes;
    out->bql_stops = q->st_bql_stops;
    out->bql_stalls = q->dql.stall_cnt;
    out->bql_stall_max = q->dql.stall_max;
    out->deferred = q->st_deferred;
    out->cleans = q->st_cleans;
    out->reclaimed = q->st_reclaimed;
    out->busy = q->st_busy;
    out->stops = q->st_stops;
    out->wakes = q->st_wakes;
    out->restarts = q->st_restarts;
    out->bad_head = q->st_bad_head;
    out->bad_len = q->st_bad_len;
    out->resets = q->st_resets;
    out->dropped = q->st_dropped;
}

/* ------------------------------------------------------------ queue reset */

/* STATUS reads a reset waits for the datapath to go idle (64), each an
 * MMIO round trip (~1 us). */
#define TXQ_IDLE_POLLS 64u

/* Read STATUS until (STATUS & mask) == want, at most `polls` times: 1 if it
 * got there. */
static int txq_poll_status(struct platform *p, uint32_t mask, uint32_t want, unsigned polls)
{
    for (unsigned i = 0; i < polls; i++)
        if ((plat_mmio_read32(p, NICTX_REG_STATUS) & mask) == want)
            return 1;
    return 0;
}

/* Read STATUS until the reset is taken (RESETTING clear), for `wait_ns` of
 * the platform's time (readl_poll_timeout), or at most TXQ_RESET_POLLS
 * times when wait_ns is 0: 1 if it was taken.  The device takes it once
 * the MAC ends its frame and the reads still out complete or reach
 * CPL_TIMEOUT (docs/device.md, CTRL.RESET). */
static int txq_wait_reset(struct platform *p, uint64_t wait_ns)
{
    uint64_t end = plat_time_ns(p) + wait_ns;

    if (wait_ns == 0)
        return txq_poll_status(p, NICTX_STATUS_RESETTING, 0, TXQ_RESET_POLLS);
    for (;;) {
        if ((plat_mmio_read32(p, NICTX_REG_STATUS) & NICTX_STATUS_RESETTING) == 0)
            return 1;
        if (plat_time_ns(p) >= end)
            return 0;
    }
}

/* Drop every descriptor still in flight: its frame was never sent. */
static unsigned txq_drop_all(struct txq *q)
{
    unsigned n = 0;

    for (uint32_t i = q->next_to_clean; i != q->next_to_use; i = (i + 1) & q->mask, n++) {
        void *cookie = q->cookies[i];
        q->cookies[i] = NULL;
        q->len_of[i] = 0;
        if (q->drop)
            q->drop(q->drop_ctx, cookie);
        else
            q->done(q->done_ctx, cookie);
    }
    q->st_dropped += n;
    return n;
}

/* The ring as txq_init left it: no owner bits, indices 0, first phase. */
static void txq_ring_clear(struct txq *q, struct platform *p)
{
    for (uint32_t i = 0; i < q->size; i++)
        plat_store32(p, &q->ring[i].rsvd, 0);
    plat_store32(p, q->wb, 0);
    if (q->cq)
        for (uint32_t i = 0; i <= q->cq_mask; i++)
            plat_store64(p, &q->cq[i], 0);
    q->cq_ci = 0;
    q->cq_phase = 1;
    q->cpl_head = 0;
    q->next_to_use = q->next_to_clean = q->batch_start = 0;
    q->coalesced = 0;
    q->phase = 1;
    q->wc_off = NICTX_WC_BASE;
    netdev_tx_reset_queue(p, &q->stopped, &q->dql);
    q->stopped = 0;
}

/* Step 4 for queue q: reclaim what its HEAD says was sent, or skipped. */
static void txq_reclaim_sent(struct txq *q, struct platform *p)
{
    uint32_t head = plat_mmio_read32(p, q->reg_head);

    if (head < q->size && head != q->next_to_clean && q->len_of[(head - 1) & q->mask] != 0)
        txq_reclaim(q, p, head, 0);
}

long txq_reset_all(struct txq *const *qs, unsigned n, struct platform *p, unsigned *dropped)
{
    uint32_t err = plat_mmio_read32(p, NICTX_REG_ERR);

    *dropped = 0;
    plat_mmio_write32(p, NICTX_REG_CTRL, 0);
    /* Let what is in flight finish; a stuck read never will. */
    txq_poll_status(p, NICTX_STATUS_IDLE, NICTX_STATUS_IDLE, TXQ_IDLE_POLLS);
    /* Frames before each device head were sent: reclaim them. */
    for (unsigned i = 0; i < n; i++)
        txq_reclaim_sent(qs[i], p);
    plat_mmio_write32(p, NICTX_REG_CTRL, NICTX_CTRL_RESET);
    if (!txq_wait_reset(p, qs[0]->reset_wait_ns))
        return -1;
    /* The reset cleared every queue's tail and head: what is still in
     * flight will never be sent. */
    for (unsigned i = 0; i < n; i++) {
        *dropped += txq_drop_all(qs[i]);
        txq_ring_clear(qs[i], p);
    }
    plat_wmb(p); /* the cleared rings are visible before the device runs */
    plat_mmio_write32(p, NICTX_REG_CTRL, NICTX_CTRL_ENABLE);
    for (unsigned i = 0; i < n; i++) {
        qs[i]->st_resets++;
        qs[i]->progress_ns = plat_time_ns(p);
    }
    return (long)err;
}

long txq_reset(struct txq *q, struct platform *p, unsigned *dropped)
{
    return txq_reset_all(&q, 1, p, dropped);
}

int txq_hung(const struct txq *q, uint64_t now_ns, uint64_t timeout_ns)
{
    /* The stamp may come from another CPU whose clock is a little ahead
     * of the checker's: progress after now is recent, not a hang. */
    return txq_in_flight(q) != 0 && now_ns >= q->progress_ns &&
           now_ns - q->progress_ns >= timeout_ns;
}
