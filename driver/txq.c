/* SPDX-License-Identifier: Apache-2.0 */
/*
 * txq.c - the nictx driver's transmit queue (the contract: txq.h), written
 * as a Linux driver's transmit path and cleanup are: ixgbe's
 * ixgbe_xmit_frame_ring, ixgbe_tx_map and ixgbe_clean_tx_irq, with mlx4's
 * owner bit and BlueFlame (mlx4_en_xmit, mlx4_en_process_tx_cq), against
 * nictx's kernel layer (driver/linux/, docs/own-driver.md).  Descriptors
 * are written with plain stores, doorbells with writel_relaxed() after
 * wmb(), the queue is stopped and woken with netif_tx_*(), BQL told with
 * netdev_tx_*_queue().  The file is compiled with the compiler's
 * ThreadSanitizer instrumentation and nictx's own runtime
 * (driver/linux/kcsan.c), so every plain load and store it makes of DMA
 * memory and of the driver state the CPUs share is in the memory model; it
 * calls nothing of driver/platform.h.
 *
 * The deliberately broken variants (drv_bug.h, --driver-bug) are marked
 * "The bug:" where they differ.  nictx_cpu_work() charges the modelled
 * instructions of the code around it (nictx/cpu_work.h).
 */
#include <linux/dma-mapping.h>
#include <linux/errno.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <nictx/cpu_work.h>
#include <nictx/queue.h>

#include "nictx_hw.h"
#include "txq.h"
#include "txq_reg.h"

/* A descriptor, and its second quadword whole: the length and flags with
 * the owner word, written as one store where the owner bit is not used. */
union txq_desc {
    struct nictx_tx_desc d;
    struct {
        __le64 addr;
        __le64 qw1;
    } q;
};

BUILD_BUG_ON(sizeof(struct nictx_tx_desc) != NICTX_DESC_BYTES);
BUILD_BUG_ON(offsetof(struct nictx_tx_desc, len_flags) != 8);
BUILD_BUG_ON(offsetof(struct nictx_tx_desc, rsvd) != 12);

/* ------------------------------------------------------------ probe */

static unsigned txq_queues(const struct txq_cfg *cfg)
{
    return cfg->queues ? cfg->queues : 1;
}

/* The queue fields: a queue in use, sane scheduler values. */
static bool txq_cfg_queues_valid(const struct txq_cfg *cfg)
{
    if (txq_queues(cfg) > NICTX_Q_MAX || cfg->queue >= txq_queues(cfg))
        return false;
    if (cfg->sched != NICTX_SCHED_RR && cfg->sched != NICTX_SCHED_DRR)
        return false;
    if (cfg->drr_quantum != 0 && (cfg->drr_quantum < 64 || cfg->drr_quantum > 65536))
        return false;
    return cfg->weight <= 255;
}

static bool txq_cfg_valid(const struct txq_cfg *cfg)
{
    if (cfg->ring_log2 < TXQ_RING_LOG2_MIN || cfg->ring_log2 > TXQ_RING_LOG2_MAX)
        return false;
    u32 slots = 1u << cfg->ring_log2;
    if ((unsigned)cfg->clean >= TXQ_CLEAN_COUNT)
        return false;
    /* Head writeback in a ring of N slots: at most N - 1 completions are ever
     * outstanding, so a larger threshold could never fire. */
    if (cfg->wb_thresh >= slots)
        return false;
    /* Every mode but the MMIO read needs the device's completion writes. */
    if (cfg->clean != TXQ_CLEAN_HEAD_MMIO && cfg->wb_thresh == 0)
        return false;
    /* A CQE per completion at most: a CQ as large as the ring never
     * overflows. */
    if (cfg->cq_log2 != 0 && (cfg->cq_log2 < cfg->ring_log2 || cfg->cq_log2 > TXQ_RING_LOG2_MAX))
        return false;
    if (cfg->irq_timer >= (1u << 24))
        return false;
    if (cfg->desc_fetch_max < 1 || cfg->desc_fetch_max > TXQ_FETCH_MAX_MAX)
        return false;
    if (cfg->desc_inflight > TXQ_INFLIGHT_MAX)
        return false;
    if (cfg->mrrs_log2 < TXQ_MRRS_LOG2_MIN || cfg->mrrs_log2 > TXQ_MRRS_LOG2_MAX)
        return false;
    if (cfg->desc_wb_full && (cfg->clean != TXQ_CLEAN_DESC_WB ||
                              cfg->mps_log2 < TXQ_MRRS_LOG2_MIN || cfg->mps_log2 > TXQ_MRRS_LOG2_MAX))
        return false;
    if (cfg->line_rate_fx == 0 || cfg->line_rate_fx > TXQ_LINE_RATE_MAX)
        return false;
    if (cfg->max_tags > 256)
        return false;
    if (cfg->max_rd_bytes != 0 && (cfg->max_rd_bytes < 4096 || cfg->max_rd_bytes >= (1u << 21)))
        return false;
    if (cfg->proto > TXQ_PROTO_WC || cfg->barrier > TXQ_BARRIER_NONE || cfg->bug >= DRV_BUG_COUNT)
        return false;
    if (cfg->dql_order != DQL_WRITE_FIRST && cfg->dql_order != DQL_READ_FIRST)
        return false;
    if (cfg->tail_coalesce >= slots)
        return false;
    if (cfg->cpl_timeout >= (1u << 24))
        return false;
    if (cfg->irq_thresh > 0 || cfg->irq_timer > 0) {
        if (cfg->irq_addr == 0 || (cfg->irq_addr & 3u) != 0)
            return false;
    } else if (cfg->irq_addr != 0) {
        return false;
    }
    return txq_cfg_queues_valid(cfg);
}

/* The device-wide queue registers, before any queue block is touched. */
static void txq_program_sched(u8 __iomem *hw, const struct txq_cfg *cfg)
{
    if (txq_queues(cfg) != NICTX_REG_QUEUES_RESET)
        writel_relaxed(txq_queues(cfg), hw + NICTX_REG_QUEUES);
    if (cfg->sched != NICTX_REG_SCHED_RESET)
        writel_relaxed(cfg->sched, hw + NICTX_REG_SCHED);
    if (cfg->drr_quantum && cfg->drr_quantum != NICTX_REG_DRR_QUANTUM_RESET)
        writel_relaxed(cfg->drr_quantum, hw + NICTX_REG_DRR_QUANTUM);
}

/* This queue's block: ring, writeback word, weight. */
static void txq_program_queue(struct txq *q, u8 __iomem *hw, const struct txq_cfg *cfg)
{
    if (cfg->queue == 0)
        txq_program_sched(hw, cfg);
    writeq_relaxed(q->ring_dma, hw + txq_reg(q->qid, NICTX_QREG_RING_BASE_LO));
    writel_relaxed(cfg->ring_log2, hw + txq_reg(q->qid, NICTX_QREG_RING_LOG2));
    writeq_relaxed(q->wb_dma, hw + txq_reg(q->qid, NICTX_QREG_WB_ADDR_LO));
    if (cfg->weight && cfg->weight != NICTX_QREG_WEIGHT_RESET)
        writel_relaxed(cfg->weight, hw + txq_reg(q->qid, NICTX_QREG_WEIGHT));
}

/* The device-wide registers (queue 0's txq_init), CTRL aside. */
static void txq_program_device(u8 __iomem *hw, const struct txq_cfg *cfg, dma_addr_t cq_dma,
                               unsigned cq_log2)
{
    writel_relaxed(cfg->wb_thresh, hw + NICTX_REG_WB_THRESH);
    writeq_relaxed(cfg->irq_addr, hw + NICTX_REG_IRQ_ADDR_LO);
    writel_relaxed(cfg->irq_thresh || cfg->irq_timer ? cfg->irq_data : 0, hw + NICTX_REG_IRQ_DATA);
    writel_relaxed(cfg->irq_thresh, hw + NICTX_REG_IRQ_THRESH);
    if (cfg->irq_timer)
        writel_relaxed(cfg->irq_timer, hw + NICTX_REG_IRQ_TIMER);
    if (cfg->clean == TXQ_CLEAN_DESC_WB && cfg->desc_wb_full) {
        writel_relaxed(cfg->mps_log2, hw + NICTX_REG_MPS_LOG2);
        writel_relaxed(NICTX_CPL_MODE_DESC_WB_FULL, hw + NICTX_REG_CPL_MODE);
    } else if (cfg->clean == TXQ_CLEAN_DESC_WB) {
        writel_relaxed(NICTX_CPL_MODE_DESC_WB, hw + NICTX_REG_CPL_MODE);
    }
    if (cfg->clean == TXQ_CLEAN_CQ) {
        writel_relaxed(NICTX_CPL_MODE_CQ, hw + NICTX_REG_CPL_MODE);
        writeq_relaxed(cq_dma, hw + NICTX_REG_CQ_BASE_LO);
        writel_relaxed(cq_log2, hw + NICTX_REG_CQ_LOG2);
    }
    writel_relaxed(cfg->mrrs_log2, hw + NICTX_REG_MRRS_LOG2);
    writel_relaxed(cfg->desc_fetch_max, hw + NICTX_REG_DESC_FETCH_MAX);
    if (cfg->desc_inflight && cfg->desc_inflight != NICTX_REG_DESC_INFLIGHT_RESET)
        writel_relaxed(cfg->desc_inflight, hw + NICTX_REG_DESC_INFLIGHT);
    writel_relaxed(cfg->line_rate_fx, hw + NICTX_REG_LINE_RATE);
    if (cfg->proto != TXQ_PROTO_TAIL)
        writel_relaxed(cfg->proto == TXQ_PROTO_WC ? NICTX_PROTO_WC : NICTX_PROTO_OWNER,
                       hw + NICTX_REG_PROTO);
    if (cfg->max_tags)
        writel_relaxed(cfg->max_tags, hw + NICTX_REG_MAX_TAGS);
    if (cfg->max_rd_bytes)
        writel_relaxed(cfg->max_rd_bytes, hw + NICTX_REG_MAX_RD_BYTES);
    if (cfg->cpl_timeout)
        writel_relaxed(cfg->cpl_timeout, hw + NICTX_REG_CPL_TIMEOUT);
}

/* Queue q > 0's completion queue (through its block) and its MSI-X vector,
 * vector q (queue 0's are the register page's CQ_BASE, CQ_LOG2, IRQ_ADDR
 * and IRQ_DATA: txq_program_device). */
static void txq_program_cpl(struct txq *q, u8 __iomem *hw, const struct txq_cfg *cfg,
                            dma_addr_t cq_dma, unsigned cq_log2)
{
    if (cfg->clean == TXQ_CLEAN_CQ) {
        /* CQ_BASE_LO/HI of a block (0x2C/0x30) are not 8-byte aligned: two
         * 4-byte writes. */
        writel_relaxed((u32)cq_dma, hw + txq_reg(q->qid, NICTX_QREG_CQ_BASE_LO));
        writel_relaxed((u32)(cq_dma >> 32), hw + txq_reg(q->qid, NICTX_QREG_CQ_BASE_HI));
        writel_relaxed(cq_log2, hw + txq_reg(q->qid, NICTX_QREG_CQ_LOG2));
    }
    if (cfg->irq_thresh || cfg->irq_timer) {
        writeq_relaxed(cfg->irq_addr, hw + NICTX_REG_MSIX(q->qid, NICTX_MSIXREG_MSG_ADDR_LO));
        writel_relaxed(cfg->irq_data, hw + NICTX_REG_MSIX(q->qid, NICTX_MSIXREG_MSG_DATA));
    }
}

/* The memory a queue owns: its per-slot records (kcalloc) and its ring,
 * writeback word and completion queue (coherent DMA memory, zeroed; the
 * writeback word on a line of its own, the device writes it, the CQ after
 * it in the same allocation); 0, or -ENOMEM with nothing of it kept (DMA
 * memory lives as long as the platform). */
static int txq_alloc(struct txq *q, const struct txq_cfg *cfg, unsigned cq_log2)
{
    u32 size = 1u << cfg->ring_log2;
    size_t cq_bytes = cfg->clean == TXQ_CLEAN_CQ ? (size_t)NICTX_CQE_BYTES << cq_log2 : 0;
    u8 *wb;

    q->buf = kcalloc(size, sizeof(*q->buf), GFP_KERNEL);
    q->ring = NULL;
    q->wb = NULL;
    q->cq = NULL;
    q->cq_dma = 0;
    if (q->buf == NULL)
        return -ENOMEM;
    BUILD_BUG_ON(TXQ_RING_ALIGN != 128); /* dma_alloc_coherent's alignment, size >= 128 */
    q->ring = dma_alloc_coherent(NULL, (size_t)size * NICTX_DESC_BYTES, &q->ring_dma, GFP_KERNEL);
    wb = q->ring ? dma_alloc_coherent(NULL, TXQ_CACHELINE + cq_bytes, &q->wb_dma, GFP_KERNEL)
                 : NULL;
    if (wb == NULL) {
        txq_destroy(q);
        return -ENOMEM;
    }
    q->wb = (u32 *)wb;
    if (cq_bytes) {
        q->cq = (u64 *)(wb + TXQ_CACHELINE);
        q->cq_dma = q->wb_dma + TXQ_CACHELINE;
    }
    return 0;
}

/* The driver's fields as a queue starts (nictx_queue_init has set the
 * harness's): indices 0, the first phase. */
static void txq_start_state(struct txq *q, const struct txq_cfg *cfg, unsigned cq_log2)
{
    u8 __iomem *hw = pci_iomap(NULL, 0, 0);
    u32 size = 1u << cfg->ring_log2;

    q->qid = cfg->queue;
    q->reg_tail = txq_reg(cfg->queue, NICTX_QREG_TAIL);
    q->reg_head = txq_reg(cfg->queue, NICTX_QREG_HEAD);
    q->tail = hw + q->reg_tail;
    q->head = hw + q->reg_head;
    q->bf = (u8 __iomem *)pci_iomap_wc(NULL, 0, 0) + NICTX_WC_BASE;
    q->cq_mask = (1u << cq_log2) - 1;
    q->cq_ci = 0;
    q->cq_phase = 1;
    q->cpl_head = 0;
    q->tail_coalesce = cfg->tail_coalesce;
    q->bug_fired = 0;
    q->mask = size - 1;
    q->clean = cfg->clean;
    q->proto = cfg->proto;
    q->barrier = cfg->barrier;
    q->bug = cfg->bug;
    q->bug_at = cfg->bug_at;
    q->progress_ns = 0;
    q->cleans_at_reclaim = 0;
    q->reset_wait_ns = cfg->reset_wait_ns;
    q->next_to_use = 0;
    q->phase = 1;
    q->batch_start = 0;
    q->coalesced = 0;
    q->wc_off = 0;
    q->next_to_clean = 0;
    q->last_nr = 0;
}

int txq_init(struct txq *q, struct platform *p, const struct txq_cfg *cfg,
             txq_complete_fn done, void *done_ctx)
{
    u8 __iomem *hw = pci_iomap(NULL, 0, 0);

    if (q == NULL || p == NULL || cfg == NULL || done == NULL || !txq_cfg_valid(cfg))
        return -1;

    /* Probe: is this our device? */
    if (readl(hw + NICTX_REG_ID) != NICTX_ID_VALUE)
        return -3;

    unsigned cq_log2 = cfg->cq_log2 ? cfg->cq_log2 : cfg->ring_log2;
    if (txq_alloc(q, cfg, cq_log2) != 0)
        return -2;
    if (nictx_queue_init(q, p, cfg, done, done_ctx) != 0) {
        txq_destroy(q);
        return -1;
    }
    txq_start_state(q, cfg, cq_log2);

    txq_program_queue(q, hw, cfg);
    if (cfg->queue == 0)
        txq_program_device(hw, cfg, q->cq_dma, cq_log2);
    else
        txq_program_cpl(q, hw, cfg, q->cq_dma, cq_log2);
    if (cfg->queue == txq_queues(cfg) - 1)
        writel_relaxed(NICTX_CTRL_ENABLE, hw + NICTX_REG_CTRL);
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
    kfree(q->buf);
    q->buf = NULL;
}

/* The harness's questions: its own view, not driver code (__no_kcsan). */
__no_kcsan unsigned txq_in_flight(const struct txq *q)
{
    return (q->next_to_use - q->next_to_clean) & q->mask;
}

__no_kcsan unsigned txq_free(const struct txq *q)
{
    return q->mask - txq_in_flight(q);
}

__no_kcsan int txq_stopped(const struct txq *q)
{
    return q->stopped != 0 || q->resetting != 0;
}

/* --------------------------------------------------------- transmit */

/* Free slots by producer index `ntu` and consumer index `ntc`, each as
 * this CPU read it. */
static unsigned txq_room(const struct txq *q, u32 ntu, u32 ntc)
{
    /* The bug: counts the slot a full ring must leave empty. */
    unsigned slots = q->bug == DRV_BUG_RING_OVERFILL && q->st_descs >= q->bug_at ? q->size
                                                                                  : q->mask;

    return slots - ((ntu - ntc) & q->mask);
}

/* A one-shot bug fires on this packet. */
static bool txq_bug_now(const struct txq *q, enum drv_bug bug)
{
    return q->bug == bug && q->st_descs == q->bug_at;
}

static void txq_dma_wmb(struct txq *q)
{
    dma_wmb();
    q->st_dma_wmbs++;
}

static void txq_wmb(struct txq *q)
{
    wmb();
    q->st_wmbs++;
}

static bool txq_owned_proto(const struct txq *q)
{
    return q->proto != TXQ_PROTO_TAIL;
}

/* The descriptor body (address and length; no owner bit) of slot i. */
static void txq_write_body(struct txq *q, u32 i, dma_addr_t dma, unsigned int len)
{
    union txq_desc *desc = (union txq_desc *)&q->ring[i];
    u64 addr = dma;

    if (txq_bug_now(q, DRV_BUG_ZERO_LEN))
        len = 0;
    if (txq_bug_now(q, DRV_BUG_LEN_TOO_BIG))
        len |= NICTX_DESC_LEN_MASK + 1u;
    if (txq_bug_now(q, DRV_BUG_BAD_DMA_ADDR))
        addr += 1ull << 40;
    desc->q.addr = cpu_to_le64(addr);
    if (txq_owned_proto(q))
        desc->d.len_flags = cpu_to_le32(len); /* the owner word follows */
    else
        desc->q.qw1 = cpu_to_le64(len); /* owner word 0 */
}

/* Hand slot i to the device by its owner bit. */
static void txq_set_owner(struct txq *q, u32 i)
{
    if (q->bug == DRV_BUG_OWNER_SKIPPED && !q->bug_fired && q->st_descs >= q->bug_at) {
        q->bug_fired = 1;
        return;
    }
    q->ring[i].rsvd = cpu_to_le32(q->buf[i].phase ? NICTX_DESC_OWNER : 0);
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

/* Publish the batch [batch_start, ntu) with owner bits, if the placement
 * deferred them: one dma_wmb, the first descriptor's bit last. */
static void txq_publish_batch(struct txq *q, u32 ntu)
{
    u32 first = q->batch_start, i;

    if (!txq_owned_proto(q) || q->barrier != TXQ_BARRIER_PER_BATCH || first == ntu)
        return;
    if (q->bug != DRV_BUG_NO_DMA_WMB)
        txq_dma_wmb(q);
    for (i = (first + 1) & q->mask; i != ntu; i = (i + 1) & q->mask)
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
        smp_wmb();
        return;
    }
    txq_wmb(q); /* tests/cli/test_own_driver.c builds a driver without this line */
}

/* mlx4 BlueFlame: copy the batch's last descriptor, from the ring, and its
 * ring index into the next WC buffer; the copy is the doorbell. */
static void txq_wc_push(struct txq *q, u32 ntu)
{
    u32 last = (ntu - 1) & q->mask;
    u64 idx[(NICTX_WC_BLOCK - NICTX_DESC_BYTES) / 8] = {0};
    u8 __iomem *bf = (u8 __iomem *)q->bf + q->wc_off;

    if (q->bug == DRV_BUG_BF_WRONG_SLOT && !q->bug_fired && q->st_descs > q->bug_at) {
        last = ntu;
        q->bug_fired = 1;
    }
    BUILD_BUG_ON(NICTX_WC_IDX_OFF != NICTX_DESC_BYTES);
    idx[0] = last;
    __iowrite64_copy(bf, &q->ring[last], NICTX_DESC_BYTES / 8); /* as the driver wrote it */
    __iowrite64_copy(bf + NICTX_DESC_BYTES, idx, ARRAY_SIZE(idx));
    if (q->barrier != TXQ_BARRIER_NONE && q->bug != DRV_BUG_BF_NO_SFENCE)
        txq_wmb(q); /* sfence: the block leaves the WC buffer now */
    if (q->bug != DRV_BUG_BF_SAME_BUF)
        q->wc_off ^= NICTX_WC_BUF_SIZE;
    q->st_wc_pushes++;
}

/* The doorbell for [batch_start, ntu): ntu is next_to_use, as the
 * transmit path keeps it in a register. */
static void txq_doorbell(struct txq *q, u32 ntu)
{
    u32 tail = ntu;

    txq_publish_batch(q, ntu);
    q->batch_start = ntu;
    txq_doorbell_barrier(q);
    if (q->proto == TXQ_PROTO_WC) {
        txq_wc_push(q, ntu);
        return;
    }
    /* Tail bugs: the first doorbell after packet bug_at. */
    if (!q->bug_fired && q->st_descs > q->bug_at &&
        (q->bug == DRV_BUG_TAIL_PAST_WRITTEN || q->bug == DRV_BUG_TAIL_BEYOND_RING)) {
        if (q->bug == DRV_BUG_TAIL_PAST_WRITTEN)
            tail = (tail + 1) & q->mask;
        else
            tail += q->size;
        q->bug_fired = 1;
    }
    /* The bug: owner bits alone, the device never told to look. */
    if (!(q->bug == DRV_BUG_OWNER_NO_KICK && q->proto == TXQ_PROTO_OWNER && q->st_descs > q->bug_at))
        writel_relaxed(tail, q->tail);
    q->st_doorbells++;
}

/* Descriptors written since the last doorbell (ntu: next_to_use). */
static unsigned txq_pending(const struct txq *q, u32 ntu)
{
    return (ntu - q->batch_start) & q->mask;
}

/* Ring the doorbell now, or defer it: `!netdev_xmit_more() ||
 * netif_xmit_stopped()`, with ixgbe's dispatch_limit (tail coalescing) on
 * top.  The state is the one this CPU has just left (its own stop, BQL's):
 * read with data_race(), its cost counted by the stack's test on entry. */
static void txq_kick(struct txq *q, u32 ntu)
{
    unsigned pending = txq_pending(q, ntu);
    bool more = netdev_xmit_more();

    if (pending == 0)
        return;
    q->coalesced = 0;
    if (!(data_race(q->nq.state) != 0 || q->resetting) &&
        (more || (q->tail_coalesce && pending < q->tail_coalesce))) {
        if (!more) {
            q->st_deferred++;
            q->coalesced = 1;
        }
        return;
    }
    txq_doorbell(q, ntu);
}

void txq_flush(struct txq *q)
{
    if (!q->coalesced)
        return;
    u32 ntu = q->next_to_use;
    if (txq_pending(q, ntu))
        txq_doorbell(q, ntu);
    q->coalesced = 0;
}

/* Write slot i for the frame under the configured protocol and placement. */
static void txq_write_desc(struct txq *q, u32 i, dma_addr_t dma, unsigned int len)
{
    txq_write_body(q, i, dma, len);
    q->buf[i].phase = (u8)q->phase;
    if (!txq_owned_proto(q) || q->barrier == TXQ_BARRIER_PER_BATCH)
        return;
    txq_owner_barrier(q);
    txq_set_owner(q, i);
}

/* netif_tx_stop_queue when the next packet would not fit, as
 * ixgbe_maybe_stop_tx writes it: by the consumer index `ntc` read on entry,
 * stop, smp_mb(), then read the consumer index again and re-check.  A
 * cleanup that freed room meanwhile tested the state before the stop was
 * visible and did not wake the queue; the re-check undoes the stop instead
 * (ixgbe: netif_start_subqueue, ++restart_queue).  The barrier pairs with
 * the cleanup's smp_mb() before it tests the state (txq_maybe_wake). */
static void txq_maybe_stop(struct txq *q, u32 ntu, u32 ntc)
{
    bool late = q->st_descs > q->bug_at;

    if (txq_room(q, ntu, ntc) >= 1)
        return;
    netif_tx_stop_queue(&q->nq);
    q->st_stops++;
    if (late && q->bug == DRV_BUG_STOP_NO_RECHECK)
        return;
    if (!(late && q->bug == DRV_BUG_STOP_NO_MB))
        smp_mb();
    ntc = READ_ONCE(q->next_to_clean);
    if (txq_room(q, ntu, ntc) < 1)
        return;
    netif_tx_start_queue(&q->nq);
    q->st_restarts++;
}

/* ndo_start_xmit: NETDEV_TX_OK, NETDEV_TX_BUSY (nothing done), or -EINVAL
 * (the frame is not in host memory; nothing done). */
static int nictx_xmit_frame(struct sk_buff *skb, struct txq *q)
{
    struct netdev_queue *txq = &q->nq;

    /* The stack's test first (netif_xmit_stopped), then the producer reads
     * the ring's read-mostly fields, its own index and the consumer's (free
     * space). */
    if (netif_xmit_stopped(txq) || q->resetting) {
        q->st_busy++;
        return NETDEV_TX_BUSY;
    }
    u32 mask = q->mask;
    u32 i = q->next_to_use;
    u32 ntc = READ_ONCE(q->next_to_clean);
    if (txq_room(q, i, ntc) == 0) {
        q->st_busy++;
        return NETDEV_TX_BUSY;
    }
    dma_addr_t dma = dma_map_single(NULL, skb->data, skb->len, DMA_TO_DEVICE);
    if (dma_mapping_error(NULL, dma))
        return -EINVAL;

    nictx_cpu_work(NICTX_WORK_XMIT_PKT);
    if (data_race((q->next_to_use - q->next_to_clean) & mask) == 0)
        q->progress_ns = ktime_get_ns(); /* the hang clock starts */
    /* BQL counts the bytes before the device can own them (mlx4_en_xmit:
     * netdev_tx_sent_queue before the owner bit), or a completion could
     * report bytes the completion CPU does not see queued yet. */
    netdev_tx_sent_queue(txq, skb->len);
    /* The slot's record before the descriptor: once its owner bit is set
     * the device may complete it and the cleanup, on another CPU, read it
     * (ixgbe fills first->skb before ixgbe_tx_map). */
    q->buf[i].skb = skb;
    q->buf[i].len = skb->len;
    q->buf[i].dma = txq_bug_now(q, DRV_BUG_BAD_DMA_ADDR) ? dma + (1ull << 40) : dma;
    txq_write_desc(q, i, dma, skb->len);
    /* The bug: a stale index, the last descriptor the previous doorbell
     * published. */
    if (q->bug == DRV_BUG_DESC_REUSE && !q->bug_fired && q->st_descs >= q->bug_at &&
        q->batch_start != q->next_to_clean) {
        txq_write_body(q, (q->batch_start - 1) & mask, dma, skb->len);
        q->bug_fired = 1;
    }
    i = (i + 1) & mask;
    q->next_to_use = i;
    /* A new pass over the ring: the owner bit flips (mlx4: ring->size bit). */
    if (i == 0 && !(q->bug == DRV_BUG_WRONG_PHASE))
        q->phase ^= 1u;
    /* Per-packet statistics live on the producer line (mlx4 ring->packets,
     * ring->bytes). */
    q->st_pkts++;
    q->st_descs++;

    txq_maybe_stop(q, i, ntc);
    txq_kick(q, i);
    return NETDEV_TX_OK;
}

/* The stack's side of a transmit (dev_hard_start_xmit), kept by a port:
 * the frame's queue and xmit_more, then the driver's ndo_start_xmit. */
enum txq_ret txq_xmit(struct txq *q, struct txq_pkt *skb, int more)
{
    if (skb->len == 0 || skb->len > TXQ_PKT_LEN_MAX) {
        q->st_bad_len++;
        return TXQ_EINVAL;
    }
    skb->dev = q;
    nictx_netdev_xmit_set_more(more);
    int rc = nictx_xmit_frame(skb, q);
    if (rc == -EINVAL) {
        q->st_bad_len++;
        return TXQ_EINVAL;
    }
    return rc == NETDEV_TX_OK ? TXQ_OK : TXQ_BUSY;
}

/* ---------------------------------------------------------- cleanup */

static unsigned txq_wake_thresh(const struct txq *q)
{
    unsigned quarter = q->size / 4;
    return quarter < TXQ_WAKE_THRESH ? quarter : TXQ_WAKE_THRESH;
}

unsigned txq_clean(struct txq *q)
{
    return txq_clean_budget(q, q->plat, 0);
}

/* ixgbe_unmap_and_free_tx_resource's unmap of one reclaimed buffer, or
 * one of the catalogue's broken unmaps (no-unmap, unmap-*). */
static void txq_unmap_buf(struct txq *q, dma_addr_t dma, unsigned len)
{
    enum drv_bug bug = q->st_descs >= q->bug_at ? q->bug : DRV_BUG_NONE;

    if (bug == DRV_BUG_NO_UNMAP)
        return;
    dma_unmap_single(NULL, bug == DRV_BUG_UNMAP_BAD_ADDR ? dma + (1ull << 40) : dma,
                     bug == DRV_BUG_UNMAP_SHORT ? len - 4 : len,
                     bug == DRV_BUG_UNMAP_DIR ? DMA_FROM_DEVICE : DMA_TO_DEVICE);
    if (bug == DRV_BUG_UNMAP_TWICE)
        dma_unmap_single(NULL, dma, len, DMA_TO_DEVICE);
}

/* Reclaim [ntc, head) (ntc: next_to_clean, as the cleanup read it), at
 * most `budget` (0: all): per descriptor unmap the buffer and free the
 * skb, then BQL.  The number reclaimed; *ntc_out: next_to_clean now. */
static unsigned txq_reclaim(struct txq *q, u32 ntc, u32 head, unsigned budget, u32 *ntc_out)
{
    unsigned n = 0, bytes = 0;

    while (ntc != head && (budget == 0 || n < budget)) {
        nictx_cpu_work(NICTX_WORK_CLEAN_DESC);
        struct txq_buf *b = &q->buf[ntc];
        unsigned len = b->len;
        /* The bug: BQL is told the frame without its FCS. */
        bytes += q->bug == DRV_BUG_BQL_SHORT && q->st_descs >= q->bug_at ? len - 4 : len;
        b->len = 0;
        /* mlx4_en_process_tx_cq: ring->last_nr_txbb = mlx4_en_free_tx_desc(). */
        q->last_nr = 1;
        /* ixgbe_unmap_and_free_tx_resource: dma_unmap_single, then free;
         * a record already emptied (length 0) holds no mapping. */
        if (len)
            txq_unmap_buf(q, b->dma, len);
        struct sk_buff *skb = b->skb;
        b->skb = NULL;
        napi_consume_skb(skb, budget);
        ntc = (ntc + 1) & q->mask;
        n++;
    }
    /* The bug: the index is never stored back (a local copy advanced). */
    if (!(q->bug == DRV_BUG_NTC_UNSTORED && q->st_descs >= q->bug_at))
        WRITE_ONCE(q->next_to_clean, ntc); /* the transmit path reads it */
    q->st_reclaimed += n;
    if (n) {
        q->progress_ns = ktime_get_ns();
        q->cleans_at_reclaim = q->st_cleans;
    }
    netdev_tx_completed_queue(&q->nq, n, bytes);
    *ntc_out = ntc;
    return n;
}

/* DESC_WB: scan the in-flight slots past the head reported so far for the
 * newest DD of this pass (ixgbe_clean_tx_irq checks eop_desc->wb.status &
 * DD); the head is the slot after it. */
static u32 txq_dd_head(struct txq *q)
{
    u32 ntu = q->next_to_use;

    for (u32 i = q->cpl_head; i != ntu; i = (i + 1) & q->mask) {
        u32 w = le32_to_cpu(READ_ONCE(q->ring[i].rsvd));
        if ((w & NICTX_DESC_DD) && (w >> 31) == q->buf[i].phase && q->buf[i].len != 0)
            q->cpl_head = (i + 1) & q->mask;
    }
    return q->cpl_head;
}

/* CQ: consume the CQEs of the expected phase at the consumer index (mlx4
 * mlx4_en_process_tx_cq); the head is the slot after the newest one. */
static u32 txq_cq_head(struct txq *q)
{
    for (;;) {
        __le32 *e = (__le32 *)&q->cq[q->cq_ci];
        u32 hi = le32_to_cpu(READ_ONCE(e[1]));
        if ((hi >> 31) != q->cq_phase)
            break;
        /* dma_rmb(): the rest of the CQE after its owner bit (x86: a
         * compiler barrier; arm64: dmb oshld), as mlx4_en_process_tx_cq. */
        if (!(q->bug == DRV_BUG_CQ_NO_RMB && q->st_descs >= q->bug_at))
            dma_rmb();
        u32 lo = le32_to_cpu(READ_ONCE(e[0]));
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
 * test the state, then the room by the producer's index (ixgbe_clean_tx_irq
 * does the same with the two tests swapped). */
static void txq_maybe_wake(struct txq *q, u32 ntc)
{
    if (!(q->bug == DRV_BUG_WAKE_NO_MB && q->st_descs >= q->bug_at))
        smp_mb();
    if (!netif_tx_queue_stopped(&q->nq))
        return;
    u32 ntu = READ_ONCE(q->next_to_use);
    if (txq_room(q, ntu, ntc) < txq_wake_thresh(q) ||
        (q->bug == DRV_BUG_NO_WAKE && q->st_descs >= q->bug_at))
        return;
    if (netif_tx_wake_queue(&q->nq))
        q->st_wakes++;
}

static unsigned txq_clean_pass(struct txq *q, unsigned budget)
{
    u32 head;

    nictx_cpu_work(NICTX_WORK_CLEAN_POLL);
    q->st_cleans++;
    switch (q->clean) {
    case TXQ_CLEAN_HEAD_WB: head = le32_to_cpu(READ_ONCE(*q->wb)); break;
    case TXQ_CLEAN_DESC_WB: head = txq_dd_head(q); break;
    case TXQ_CLEAN_CQ: head = txq_cq_head(q); break;
    default: head = readl(q->head); break;
    }

    u32 ntc = q->next_to_clean;
    /* The device may only report a head inside [next_to_clean, next_to_use].
     * The in-flight slots are exactly those with a length (reclaim clears
     * it), so the slot before the head tells, as ixgbe's next_to_watch
     * does, without reading the producer's line. */
    if (head >= q->size || (head != ntc && q->buf[(head - 1) & q->mask].len == 0)) {
        q->st_bad_head++;
        return 0;
    }
    /* The bug: once, one descriptor past the device's head, if it is in
     * flight (a `<=` for a `<` in the reclaim loop's bound). */
    if (q->bug == DRV_BUG_RECLAIM_PAST_HEAD && !q->bug_fired && q->st_descs >= q->bug_at &&
        head != q->next_to_use && q->buf[head].len != 0) {
        head = (head + 1) & q->mask;
        q->bug_fired = 1;
    }
    unsigned n = txq_reclaim(q, ntc, head, budget, &ntc);

    if (n)
        txq_maybe_wake(q, ntc);
    return n;
}

/* The NAPI poll (the harness's: it calls it on the CPU `p`, the one
 * running, with the budget). */
unsigned txq_clean_budget(struct txq *q, struct platform *p, unsigned budget)
{
    (void)p; /* the CPU running is the kernel layer's (kcpu.h) */
    if (q->resetting)
        return 0; /* napi_disable: the reset owns the ring */
    q->in_clean = 1;
    unsigned n = txq_clean_pass(q, budget);
    q->in_clean = 0;
    return n;
}

__no_kcsan void txq_get_stats(const struct txq *q, struct txq_stats *out)
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
    out->wakes = q->st_wakes + q->st_bql_wakes;
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

/* Read STATUS until (STATUS & mask) == want, at most `polls` times: true
 * if it got there. */
static bool txq_poll_status(u8 __iomem *hw, u32 mask, u32 want, unsigned polls)
{
    for (unsigned i = 0; i < polls; i++)
        if ((readl(hw + NICTX_REG_STATUS) & mask) == want)
            return true;
    return false;
}

/* Read STATUS until the reset is taken (RESETTING clear), for `wait_ns` of
 * the platform's time (readl_poll_timeout), or at most TXQ_RESET_POLLS
 * times when wait_ns is 0: true if it was taken.  The device takes it once
 * the MAC ends its frame and the reads still out complete or reach
 * CPL_TIMEOUT (docs/device.md, CTRL.RESET). */
static bool txq_wait_reset(u8 __iomem *hw, u64 wait_ns)
{
    u64 end = ktime_get_ns() + wait_ns;

    if (wait_ns == 0)
        return txq_poll_status(hw, NICTX_STATUS_RESETTING, 0, TXQ_RESET_POLLS);
    for (;;) {
        if ((readl(hw + NICTX_REG_STATUS) & NICTX_STATUS_RESETTING) == 0)
            return true;
        if (ktime_get_ns() >= end)
            return false;
    }
}

/* Drop every descriptor still in flight: its frame was never sent
 * (ixgbe_clean_tx_ring: unmap the buffer, then free the skb). */
static unsigned txq_drop_all(struct txq *q)
{
    unsigned n = 0;

    for (u32 i = q->next_to_clean; i != q->next_to_use; i = (i + 1) & q->mask, n++) {
        struct sk_buff *skb = q->buf[i].skb;
        if (q->buf[i].len)
            dma_unmap_single(NULL, q->buf[i].dma, q->buf[i].len, DMA_TO_DEVICE);
        q->buf[i].skb = NULL;
        q->buf[i].len = 0;
        dev_kfree_skb_any(skb);
    }
    q->st_dropped += n;
    return n;
}

/* The ring as txq_init left it: no owner bits, indices 0, first phase. */
static void txq_ring_clear(struct txq *q)
{
    for (u32 i = 0; i < q->size; i++)
        q->ring[i].rsvd = 0;
    *q->wb = 0;
    if (q->cq)
        for (u32 i = 0; i <= q->cq_mask; i++)
            q->cq[i] = 0;
    q->cq_ci = 0;
    q->cq_phase = 1;
    q->cpl_head = 0;
    q->next_to_use = q->next_to_clean = q->batch_start = 0;
    q->coalesced = 0;
    q->phase = 1;
    q->wc_off = 0;
    netdev_tx_reset_queue(&q->nq);
    q->nq.state = 0;
}

/* Step 4 for queue q: reclaim what its HEAD says was sent, or skipped. */
static void txq_reclaim_sent(struct txq *q)
{
    u32 head = readl(q->head), ntc = q->next_to_clean;

    if (head < q->size && head != ntc && q->buf[(head - 1) & q->mask].len != 0)
        txq_reclaim(q, ntc, head, 0, &ntc);
}

long txq_reset_all(struct txq *const *qs, unsigned n, struct platform *p, unsigned *dropped)
{
    u8 __iomem *hw = pci_iomap(NULL, 0, 0);
    u32 err = readl(hw + NICTX_REG_ERR);

    (void)p; /* the CPU running is the kernel layer's (kcpu.h) */
    *dropped = 0;
    writel_relaxed(0, hw + NICTX_REG_CTRL);
    /* Let what is in flight finish; a stuck read never will. */
    txq_poll_status(hw, NICTX_STATUS_IDLE, NICTX_STATUS_IDLE, TXQ_IDLE_POLLS);
    /* Frames before each device head were sent: reclaim them. */
    for (unsigned i = 0; i < n; i++)
        txq_reclaim_sent(qs[i]);
    writel_relaxed(NICTX_CTRL_RESET, hw + NICTX_REG_CTRL);
    if (!txq_wait_reset(hw, qs[0]->reset_wait_ns))
        return -1;
    /* The reset cleared every queue's tail and head: what is still in
     * flight will never be sent. */
    for (unsigned i = 0; i < n; i++) {
        *dropped += txq_drop_all(qs[i]);
        txq_ring_clear(qs[i]);
    }
    wmb(); /* the cleared rings are visible before the device runs */
    writel_relaxed(NICTX_CTRL_ENABLE, hw + NICTX_REG_CTRL);
    for (unsigned i = 0; i < n; i++) {
        qs[i]->st_resets++;
        qs[i]->progress_ns = ktime_get_ns();
    }
    return (long)err;
}

long txq_reset(struct txq *q, struct platform *p, unsigned *dropped)
{
    return txq_reset_all(&q, 1, p, dropped);
}

__no_kcsan int txq_hung(const struct txq *q, u64 now_ns, u64 timeout_ns)
{
    /* The stamp may come from another CPU whose clock is a little ahead
     * of the checker's: progress after now is recent, not a hang. */
    return txq_in_flight(q) != 0 && now_ns >= q->progress_ns &&
           now_ns - q->progress_ns >= timeout_ns;
}
