/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ixgbe_tx.c - an ixgbe-style transmit path ported to the nictx device: the
 * worked example of docs/own-driver.md.  `make DRIVER=driver/examples/ixgbe_tx.c`
 * builds nictx with it in place of the project's driver/txq.c.
 *
 * Written in the shape of Linux's ixgbe (ixgbe_xmit_frame_ring,
 * ixgbe_tx_map, ixgbe_maybe_stop_tx, ixgbe_clean_tx_irq; not its code): its
 * own ring struct, tx_buffer_info with next_to_watch, plain stores of the
 * descriptor, wmb() before next_to_watch and the tail write, the stop /
 * smp_mb() / re-check in the transmit path and the smp_mb() before the
 * cleanup's wake.  What the port changes is the device: nictx's 16-byte
 * descriptor (one per frame, no context descriptor), its register offsets,
 * and its head writeback word for completions (i40e's head write-back; an
 * MMIO read of HEAD with --completion mmio) where ixgbe reads DD bits.
 * Besides, it meets the harness's contract (driver/txq.h): the txq_*
 * entry points, nictx_queue_init for the queue's harness side, and
 * nictx_cpu_work where the CPU time of the code around is modelled.
 *
 * It speaks the tail protocol with head writeback or MMIO completions, on
 * one queue or several; anything else (owner bits, WC, CQs, DD writeback,
 * tail coalescing, the catalogue's broken variants) makes txq_init return
 * -1.  It uses nothing of driver/platform.h.
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
#include <linux/vmalloc.h>
#include <nictx/cpu_work.h>
#include <nictx/queue.h>

#include "nictx_hw.h"
#include "txq.h"
#include "txq_reg.h"

/* ixgbe: DESC_NEEDED (MAX_SKB_FRAGS + 4) and twice that to wake; a nictx
 * frame takes one descriptor, and rings go down to 8 slots. */
#define DESC_NEEDED 1
#define TX_WAKE_THRESHOLD 42

struct ixgbe_tx_buffer {
    struct nictx_tx_desc *next_to_watch; /* ixgbe: union ixgbe_adv_tx_desc * */
    struct sk_buff *skb;
    unsigned int bytecount;
    DEFINE_DMA_UNMAP_ADDR(dma);
    DEFINE_DMA_UNMAP_LEN(len);
};

struct ixgbe_ring {
    struct nictx_tx_desc *desc; /* ixgbe: union ixgbe_adv_tx_desc */
    struct ixgbe_tx_buffer *tx_buffer_info;
    u8 __iomem *tail;
    u8 __iomem *head;           /* nictx: HEAD, for --completion mmio */
    __le32 *head_wb;            /* nictx: the head writeback word */
    struct netdev_queue *txq;
    dma_addr_t dma;
    dma_addr_t head_wb_dma;
    u16 count;
    u16 queue_index;
    u16 next_to_use;
    u16 next_to_clean;
    bool head_mmio;
    u64 packets, bytes, restart_queue, tx_busy, doorbells, cleans;
    u64 progress_ns;            /* the hang check's clock (ixgbe: tx_done_old) */
};

static struct ixgbe_ring *txq_ring(const struct txq *q)
{
    return q->priv;
}

static u16 ixgbe_desc_unused(struct ixgbe_ring *ring)
{
    u16 ntc = ring->next_to_clean;
    u16 ntu = ring->next_to_use;

    return ((ntc > ntu) ? 0 : ring->count) + ntc - ntu - 1;
}

/* ------------------------------------------------------------ probe */

static bool ixgbe_cfg_ported(const struct txq_cfg *cfg)
{
    unsigned queues = cfg->queues ? cfg->queues : 1;

    return cfg->ring_log2 >= TXQ_RING_LOG2_MIN && cfg->ring_log2 <= 15 && /* u16 indices */
           cfg->proto == TXQ_PROTO_TAIL && cfg->bug == DRV_BUG_NONE && cfg->tail_coalesce == 0 &&
           (cfg->clean == TXQ_CLEAN_HEAD_WB ||
            (cfg->clean == TXQ_CLEAN_HEAD_MMIO && cfg->wb_thresh == 0)) &&
           cfg->wb_thresh < (1u << cfg->ring_log2) && queues <= NICTX_Q_MAX &&
           cfg->queue < queues;
}

/* ixgbe_configure_tx_ring, for nictx's registers. */
static void ixgbe_configure_tx_ring(struct ixgbe_ring *ring, u8 __iomem *hw,
                                    const struct txq_cfg *cfg)
{
    unsigned queues = cfg->queues ? cfg->queues : 1;
    u16 q = ring->queue_index;

    if (q == 0) {
        if (queues != NICTX_REG_QUEUES_RESET)
            writel(queues, hw + NICTX_REG_QUEUES);
        if (cfg->sched != NICTX_REG_SCHED_RESET)
            writel(cfg->sched, hw + NICTX_REG_SCHED);
        if (cfg->drr_quantum && cfg->drr_quantum != NICTX_REG_DRR_QUANTUM_RESET)
            writel(cfg->drr_quantum, hw + NICTX_REG_DRR_QUANTUM);
    }
    writeq(ring->dma, hw + txq_reg(q, NICTX_QREG_RING_BASE_LO));
    writel(cfg->ring_log2, hw + txq_reg(q, NICTX_QREG_RING_LOG2));
    writeq(ring->head_wb_dma, hw + txq_reg(q, NICTX_QREG_WB_ADDR_LO));
    if (cfg->weight && cfg->weight != NICTX_QREG_WEIGHT_RESET)
        writel(cfg->weight, hw + txq_reg(q, NICTX_QREG_WEIGHT));
    if (q == 0) {
        writel(cfg->wb_thresh, hw + NICTX_REG_WB_THRESH);
        writeq(cfg->irq_addr, hw + NICTX_REG_IRQ_ADDR_LO);
        writel(cfg->irq_thresh || cfg->irq_timer ? cfg->irq_data : 0, hw + NICTX_REG_IRQ_DATA);
        writel(cfg->irq_thresh, hw + NICTX_REG_IRQ_THRESH);
        if (cfg->irq_timer)
            writel(cfg->irq_timer, hw + NICTX_REG_IRQ_TIMER);
        writel(cfg->mrrs_log2, hw + NICTX_REG_MRRS_LOG2);
        writel(cfg->desc_fetch_max, hw + NICTX_REG_DESC_FETCH_MAX);
        if (cfg->desc_inflight && cfg->desc_inflight != NICTX_REG_DESC_INFLIGHT_RESET)
            writel(cfg->desc_inflight, hw + NICTX_REG_DESC_INFLIGHT);
        writel(cfg->line_rate_fx, hw + NICTX_REG_LINE_RATE);
        if (cfg->max_tags)
            writel(cfg->max_tags, hw + NICTX_REG_MAX_TAGS);
        if (cfg->max_rd_bytes)
            writel(cfg->max_rd_bytes, hw + NICTX_REG_MAX_RD_BYTES);
        if (cfg->cpl_timeout)
            writel(cfg->cpl_timeout, hw + NICTX_REG_CPL_TIMEOUT);
    } else if (cfg->irq_thresh || cfg->irq_timer) {
        writeq(cfg->irq_addr, hw + NICTX_REG_MSIX(q, NICTX_MSIXREG_MSG_ADDR_LO));
        writel(cfg->irq_data, hw + NICTX_REG_MSIX(q, NICTX_MSIXREG_MSG_DATA));
    }
    if (ring->queue_index == queues - 1)
        writel(NICTX_CTRL_ENABLE, hw + NICTX_REG_CTRL);
}

/* ixgbe_setup_tx_resources: the ring struct, tx_buffer_info, the
 * descriptors and (nictx) the head writeback word, on a line of its own. */
static struct ixgbe_ring *ixgbe_setup_tx_resources(u16 count)
{
    struct ixgbe_ring *ring = kzalloc(sizeof(*ring), GFP_KERNEL);

    if (!ring)
        return NULL;
    ring->count = count;
    ring->tx_buffer_info = vzalloc(sizeof(struct ixgbe_tx_buffer) * count);
    if (ring->tx_buffer_info)
        ring->desc = dma_alloc_coherent(NULL, count * sizeof(struct nictx_tx_desc), &ring->dma,
                                        GFP_KERNEL);
    if (ring->desc)
        ring->head_wb = dma_alloc_coherent(NULL, 64, &ring->head_wb_dma, GFP_KERNEL);
    if (!ring->head_wb) {
        vfree(ring->tx_buffer_info);
        kfree(ring);
        return NULL;
    }
    return ring;
}

int txq_init(struct txq *q, struct platform *p, const struct txq_cfg *cfg,
             txq_complete_fn done, void *done_ctx)
{
    u8 __iomem *hw = pci_iomap(NULL, 0, 0);
    struct ixgbe_ring *ring;

    if (!q || !p || !cfg || !done || !ixgbe_cfg_ported(cfg))
        return -1;
    if (readl(hw + NICTX_REG_ID) != NICTX_ID_VALUE)
        return -3;
    ring = ixgbe_setup_tx_resources(1u << cfg->ring_log2);
    if (!ring)
        return -2;
    if (nictx_queue_init(q, p, cfg, done, done_ctx) != 0) {
        vfree(ring->tx_buffer_info);
        kfree(ring);
        return -1;
    }
    q->priv = ring;
    q->ring = ring->desc;       /* the harness's: cache-line regions, */
    q->wb = (u32 *)ring->head_wb;
    q->ring_dma = ring->dma;    /* and what tells descriptor reads apart */
    q->wb_dma = ring->head_wb_dma;
    q->qid = cfg->queue;
    q->reg_tail = txq_reg(cfg->queue, NICTX_QREG_TAIL);
    q->reg_head = txq_reg(cfg->queue, NICTX_QREG_HEAD);
    ring->queue_index = (u16)cfg->queue;
    ring->tail = hw + q->reg_tail;
    ring->head = hw + q->reg_head;
    ring->head_mmio = cfg->clean == TXQ_CLEAN_HEAD_MMIO;
    ring->txq = &q->nq;
    ixgbe_configure_tx_ring(ring, hw, cfg);
    return 0;
}

void txq_set_drop(struct txq *q, txq_drop_fn drop, void *ctx)
{
    q->drop = drop;
    q->drop_ctx = ctx;
}

void txq_destroy(struct txq *q)
{
    struct ixgbe_ring *ring = q ? txq_ring(q) : NULL;

    if (!ring)
        return;
    vfree(ring->tx_buffer_info);
    kfree(ring);
    q->priv = NULL;
}

/* --------------------------------------------------------- transmit */

static int __ixgbe_maybe_stop_tx(struct ixgbe_ring *tx_ring, u16 size)
{
    netif_tx_stop_queue(tx_ring->txq);

    /* The stop before the re-read of next_to_clean: pairs with the
     * cleanup's smp_mb() before it tests the queue. */
    smp_mb();

    /* Another CPU may have freed room since the first look. */
    if (likely(ixgbe_desc_unused(tx_ring) < size))
        return -EBUSY;

    /* It did: undo the stop. */
    netif_tx_start_queue(tx_ring->txq);
    ++tx_ring->restart_queue;
    return 0;
}

static inline int ixgbe_maybe_stop_tx(struct ixgbe_ring *tx_ring, u16 size)
{
    if (likely(ixgbe_desc_unused(tx_ring) >= size))
        return 0;

    return __ixgbe_maybe_stop_tx(tx_ring, size);
}

static int ixgbe_tx_map(struct ixgbe_ring *tx_ring, struct ixgbe_tx_buffer *first)
{
    struct sk_buff *skb = first->skb;
    struct nictx_tx_desc *tx_desc;
    unsigned int size = skb_headlen(skb);
    u16 i = tx_ring->next_to_use;
    dma_addr_t dma;

    tx_desc = &tx_ring->desc[i];
    dma = dma_map_single(NULL, skb->data, size, DMA_TO_DEVICE);
    if (dma_mapping_error(NULL, dma))
        return -ENOMEM;

    dma_unmap_len_set(first, len, size);
    dma_unmap_addr_set(first, dma, dma);

    tx_desc->addr = cpu_to_le64(dma);
    tx_desc->len_flags = cpu_to_le32(size);
    tx_desc->rsvd = 0;

    netdev_tx_sent_queue(tx_ring->txq, first->bytecount);

    /* The descriptor and the record visible before next_to_watch says the
     * slot is in use, and before the tail write hands it to the device. */
    wmb();
    first->next_to_watch = tx_desc;

    i++;
    if (i == tx_ring->count)
        i = 0;

    tx_ring->next_to_use = i;

    ixgbe_maybe_stop_tx(tx_ring, DESC_NEEDED);

    if (netif_xmit_stopped(tx_ring->txq) || !netdev_xmit_more()) {
        writel(i, tx_ring->tail);
        tx_ring->doorbells++;
    }
    return 0;
}

static netdev_tx_t ixgbe_xmit_frame_ring(struct sk_buff *skb, struct ixgbe_ring *tx_ring)
{
    struct ixgbe_tx_buffer *first;

    /* Room for the frame's descriptor and a gap of two (no context
     * descriptor, no pages on nictx). */
    if (ixgbe_maybe_stop_tx(tx_ring, DESC_NEEDED + 2)) {
        tx_ring->tx_busy++;
        return NETDEV_TX_BUSY;
    }
    nictx_cpu_work(NICTX_WORK_XMIT_PKT);
    if (tx_ring->next_to_use == data_race(tx_ring->next_to_clean))
        tx_ring->progress_ns = ktime_get_ns(); /* the hang clock starts */

    first = &tx_ring->tx_buffer_info[tx_ring->next_to_use];
    first->skb = skb;
    first->bytecount = skb->len;

    if (ixgbe_tx_map(tx_ring, first) != 0) {
        first->skb = NULL;
        return -EINVAL;
    }
    tx_ring->packets++;
    tx_ring->bytes += skb->len;
    return NETDEV_TX_OK;
}

/* The stack's side (dev_hard_start_xmit), as the contract has it. */
enum txq_ret txq_xmit(struct txq *q, struct txq_pkt *skb, int more)
{
    int rc;

    if (skb->len == 0 || skb->len > TXQ_PKT_LEN_MAX || q->resetting) {
        q->st_bad_len += !q->resetting;
        return q->resetting ? TXQ_BUSY : TXQ_EINVAL;
    }
    skb->dev = q;
    nictx_netdev_xmit_set_more(more);
    if (netif_xmit_stopped(&q->nq))
        return TXQ_BUSY;
    rc = ixgbe_xmit_frame_ring(skb, txq_ring(q));
    if (rc == -EINVAL) {
        q->st_bad_len++;
        return TXQ_EINVAL;
    }
    if (rc == NETDEV_TX_OK)
        q->st_pkts++;
    return rc == NETDEV_TX_OK ? TXQ_OK : TXQ_BUSY;
}

/* Nothing waits: every doorbell is rung by ixgbe_tx_map. */
void txq_flush(struct txq *q)
{
    (void)q;
}

/* ---------------------------------------------------------- cleanup */

/* nictx: where the device says it is (ixgbe reads DD bits instead). */
static u16 ixgbe_get_head(struct ixgbe_ring *tx_ring)
{
    if (tx_ring->head_mmio)
        return (u16)readl(tx_ring->head);
    return (u16)le32_to_cpu(READ_ONCE(*tx_ring->head_wb));
}

/* ixgbe_clean_tx_irq: reclaim what the device has sent, at most
 * napi_budget frames (0: no limit), then wake the queue if it stopped. */
static unsigned int ixgbe_clean_tx_irq(struct ixgbe_ring *tx_ring, unsigned int napi_budget)
{
    nictx_cpu_work(NICTX_WORK_CLEAN_POLL);

    unsigned int total_bytes = 0, total_packets = 0;
    u16 i = tx_ring->next_to_clean;
    u16 head = ixgbe_get_head(tx_ring);
    struct ixgbe_tx_buffer *tx_buffer = &tx_ring->tx_buffer_info[i];
    u16 wake = min_t(u16, TX_WAKE_THRESHOLD, tx_ring->count / 4);

    tx_ring->cleans++;
    if (head >= tx_ring->count)
        return 0;
    while (i != head && (napi_budget == 0 || total_packets < napi_budget)) {
        struct nictx_tx_desc *eop_desc = tx_buffer->next_to_watch;

        if (!eop_desc) /* nothing posted here */
            break;
        /* The slot's record after next_to_watch (pairs with the
         * transmit path's wmb()). */
        smp_rmb();

        nictx_cpu_work(NICTX_WORK_CLEAN_DESC);
        tx_buffer->next_to_watch = NULL;
        total_bytes += tx_buffer->bytecount;
        total_packets++;
        napi_consume_skb(tx_buffer->skb, napi_budget);
        tx_buffer->skb = NULL;
        dma_unmap_single(NULL, dma_unmap_addr(tx_buffer, dma), dma_unmap_len(tx_buffer, len),
                         DMA_TO_DEVICE);
        dma_unmap_len_set(tx_buffer, len, 0);

        tx_buffer++;
        i++;
        if (unlikely(i == tx_ring->count)) {
            i = 0;
            tx_buffer = tx_ring->tx_buffer_info;
        }
    }

    tx_ring->next_to_clean = i;
    if (total_packets)
        tx_ring->progress_ns = ktime_get_ns();
    netdev_tx_completed_queue(tx_ring->txq, total_packets, total_bytes);

    if (unlikely(total_packets && ixgbe_desc_unused(tx_ring) >= wake)) {
        /* next_to_clean before the test of the queue: a transmit path
         * stopping now re-reads the new value (pairs with its smp_mb()). */
        smp_mb(); /* docs/own-driver.md: the held-out bug deletes this line */
        if (netif_tx_queue_stopped(tx_ring->txq)) {
            netif_tx_wake_queue(tx_ring->txq);
            ++tx_ring->restart_queue;
        }
    }
    return total_packets;
}

unsigned txq_clean_budget(struct txq *q, struct platform *p, unsigned budget)
{
    unsigned n;

    (void)p; /* the CPU running is the kernel layer's */
    if (q->resetting)
        return 0; /* napi_disable */
    q->in_clean = 1;
    n = ixgbe_clean_tx_irq(txq_ring(q), budget);
    q->in_clean = 0;
    q->st_reclaimed += n;
    return n;
}

unsigned txq_clean(struct txq *q)
{
    return txq_clean_budget(q, q->plat, 0);
}

/* ------------------------------------------------ the harness's questions */

__no_kcsan unsigned txq_in_flight(const struct txq *q)
{
    const struct ixgbe_ring *r = txq_ring(q);

    return (unsigned)(r->next_to_use - r->next_to_clean) & (r->count - 1u);
}

__no_kcsan unsigned txq_free(const struct txq *q)
{
    return txq_ring(q)->count - 1u - txq_in_flight(q);
}

__no_kcsan int txq_stopped(const struct txq *q)
{
    return q->nq.state != 0 || q->resetting;
}

__no_kcsan int txq_hung(const struct txq *q, u64 now_ns, u64 timeout_ns)
{
    const struct ixgbe_ring *r = txq_ring(q);

    return txq_in_flight(q) != 0 && now_ns >= r->progress_ns &&
           now_ns - r->progress_ns >= timeout_ns;
}

__no_kcsan void txq_get_stats(const struct txq *q, struct txq_stats *out)
{
    const struct ixgbe_ring *r = txq_ring(q);

    *out = (struct txq_stats){0};
    out->pkts = out->descs = r->packets;
    out->doorbells = r->doorbells;
    out->wmbs = r->packets; /* one wmb() per frame */
    out->busy = r->tx_busy;
    out->restarts = out->wakes = r->restart_queue;
    out->wakes += q->st_bql_wakes;
    out->bql_stops = q->st_bql_stops;
    out->bql_stalls = q->dql.stall_cnt;
    out->bql_stall_max = q->dql.stall_max;
    out->cleans = r->cleans;
    out->reclaimed = q->st_reclaimed;
    out->bad_len = q->st_bad_len;
    out->resets = q->st_resets;
    out->dropped = q->st_dropped;
}

/* ---------------------------------------------------------- reset */

/* The STATUS reads a reset waits for idle, and for the reset to be taken. */
#define IXGBE_IDLE_POLLS 64u
#define IXGBE_RESET_POLLS 16384u

static bool ixgbe_poll_status(u8 __iomem *hw, u32 mask, u32 want, unsigned polls)
{
    for (unsigned i = 0; i < polls; i++)
        if ((readl(hw + NICTX_REG_STATUS) & mask) == want)
            return true;
    return false;
}

/* ixgbe_clean_tx_ring: every frame still on the ring is dropped. */
static unsigned ixgbe_clean_tx_ring(struct ixgbe_ring *tx_ring)
{
    unsigned n = 0;
    u16 i = tx_ring->next_to_clean;

    while (i != tx_ring->next_to_use) {
        struct ixgbe_tx_buffer *tx_buffer = &tx_ring->tx_buffer_info[i];

        dma_unmap_single(NULL, dma_unmap_addr(tx_buffer, dma), dma_unmap_len(tx_buffer, len),
                         DMA_TO_DEVICE);
        dev_kfree_skb_any(tx_buffer->skb);
        tx_buffer->skb = NULL;
        tx_buffer->next_to_watch = NULL;
        dma_unmap_len_set(tx_buffer, len, 0);
        n++;
        if (++i == tx_ring->count)
            i = 0;
    }
    tx_ring->next_to_use = 0;
    tx_ring->next_to_clean = 0;
    WRITE_ONCE(*tx_ring->head_wb, 0);
    netdev_tx_reset_queue(tx_ring->txq);
    return n;
}

/* ixgbe_reinit_locked on a transmit timeout, by nictx's reset sequence
 * (docs/faults.md): disable, let the datapath go idle, reclaim what was
 * sent, reset, drop what is left, enable. */
long txq_reset_all(struct txq *const *qs, unsigned n, struct platform *p, unsigned *dropped)
{
    u8 __iomem *hw = pci_iomap(NULL, 0, 0);
    u32 err = readl(hw + NICTX_REG_ERR);

    (void)p;
    *dropped = 0;
    writel(0, hw + NICTX_REG_CTRL);
    ixgbe_poll_status(hw, NICTX_STATUS_IDLE, NICTX_STATUS_IDLE, IXGBE_IDLE_POLLS);
    for (unsigned k = 0; k < n; k++) {
        struct ixgbe_ring *r = txq_ring(qs[k]);
        qs[k]->st_reclaimed += ixgbe_clean_tx_irq(r, 0);
    }
    writel(NICTX_CTRL_RESET, hw + NICTX_REG_CTRL);
    if (!ixgbe_poll_status(hw, NICTX_STATUS_RESETTING, 0, IXGBE_RESET_POLLS))
        return -1;
    for (unsigned k = 0; k < n; k++) {
        unsigned d = ixgbe_clean_tx_ring(txq_ring(qs[k]));
        qs[k]->st_dropped += d;
        *dropped += d;
        qs[k]->nq.state = 0;
    }
    wmb(); /* the cleared rings before the device runs */
    writel(NICTX_CTRL_ENABLE, hw + NICTX_REG_CTRL);
    for (unsigned k = 0; k < n; k++) {
        qs[k]->st_resets++;
        txq_ring(qs[k])->progress_ns = ktime_get_ns();
    }
    return (long)err;
}

long txq_reset(struct txq *q, struct platform *p, unsigned *dropped)
{
    return txq_reset_all(&q, 1, p, dropped);
}
