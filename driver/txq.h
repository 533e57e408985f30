/* SPDX-License-Identifier: Apache-2.0 */
/*
 * txq.h - one transmit queue of the nictx driver model.
 *
 * Models the transmit path of a Linux netdev driver (ixgbe/igb
 * ixgbe_tx_map + ixgbe_clean_tx_irq, mlx4 mlx4_en_xmit): a ring of 16-byte
 * struct nictx_tx_desc in DMA-coherent memory, a producer index
 * (next_to_use) advanced by txq_xmit and published to the device by an MMIO
 * tail write (the doorbell), and a consumer index (next_to_clean) advanced
 * by txq_clean from the head index the device reports (enum
 * txq_clean_mode): a head-writeback word in host memory, an uncached MMIO
 * read, DD bits the device writes into the ring, or CQEs in a completion
 * queue (docs/device.md, Completions and interrupts).
 *
 * Contract:
 * - The queue touches the world only through driver/platform.h.
 * - A ring of N = 1 << ring_log2 slots holds at most N - 1 descriptors in
 *   flight; tail == head means empty.  One descriptor carries one frame.
 * - xmit_more: txq_xmit(..., more = 1) writes the descriptor but defers the
 *   doorbell; the doorbell (wmb() then the tail write) is issued when more
 *   is 0 or when the queue has just stopped because the ring is full
 *   (Linux: !netdev_xmit_more() || netif_xmit_stopped(txq)).
 * - Ownership (enum txq_proto, enum txq_barrier): TAIL publishes with the
 *   tail write; OWNER sets each descriptor's owner bit (the pass's phase)
 *   after its body, then kicks the device with a doorbell carrying the
 *   producer index; WC does the same but replaces the doorbell of a batch
 *   by a 64-byte copy of its last descriptor into the BAR0 WC window
 *   (wmb, copy, wmb), alternating its two buffers as mlx4 does.  A caller that passes more = 1 must
 *   follow with another txq_xmit (the Linux contract); no doorbell is
 *   pending once the queue is stopped.
 * - The completion callback is called once per reclaimed descriptor, in
 *   ring order, with the cookie given to txq_xmit (like dev_kfree_skb).
 * - Producer and consumer state live on separate 64-byte cache lines, as in
 *   mlx4 after the false-sharing fix, and the queue's stopped state on a
 *   third (struct netdev_queue in Linux); struct txq is therefore 64-byte
 *   aligned: embed it, or allocate it with aligned_alloc(64, ...).
 * - Single-threaded: the caller serialises txq_xmit and txq_clean (the
 *   simulator runs them as the same or different simulated CPUs, but never
 *   concurrently in host threads).
 */
#ifndef NICTX_TXQ_H
#define NICTX_TXQ_H

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

#include "dql.h"
#include "drv_bug.h"
#include "nictx_hw.h"
#include "platform.h"

#define TXQ_RING_LOG2_MIN 3u
#define TXQ_RING_LOG2_MAX 16u
#define TXQ_FETCH_MAX_MAX 64u /* descriptors per fetch (DESC_FETCH_MAX, DescFetchMaxHw) */
#define TXQ_INFLIGHT_MAX 8u /* descriptor reads in flight (DESC_INFLIGHT) */
#define TXQ_MRRS_LOG2_MIN 7u
#define TXQ_MRRS_LOG2_MAX 12u
#define TXQ_LINE_RATE_MAX 0xFFFFFFu /* 8.16 fixed: 24 significant bits */
#define TXQ_PKT_LEN_MAX   NICTX_DESC_LEN_MASK
#define TXQ_CACHELINE     64u
/* A stopped queue wakes once this many descriptors are free (ixgbe's
 * TX_WAKE_THRESHOLD = 2 x DESC_NEEDED = 42), or a quarter of a smaller
 * ring: waking at one free slot would ring a doorbell per packet. */
#define TXQ_WAKE_THRESH   42u

/* How descriptors pass to the device (docs/ownership.md). */
enum txq_proto {
    TXQ_PROTO_TAIL,  /* Intel: the tail doorbell publishes the slots before it */
    TXQ_PROTO_OWNER, /* Mellanox: an owner bit per descriptor, phase flips per pass;
                        the doorbell only kicks the device */
    TXQ_PROTO_WC,    /* OWNER, plus the last descriptor of a batch copied into a
                        BAR0 write-combining buffer (mlx4 BlueFlame) instead of
                        a doorbell */
};

/* Where the descriptor-side barrier goes (docs/ownership.md).  The
 * doorbell side is fixed: wmb() before the doorbell, and wmb() around the
 * WC copy, as the kernel writes them; only TXQ_BARRIER_NONE drops them. */
enum txq_barrier {
    TXQ_BARRIER_PER_DESC,     /* dma_wmb() before each owner bit */
    TXQ_BARRIER_PER_BATCH,    /* one dma_wmb(), then the batch's owner bits,
                                 the first descriptor's last */
    TXQ_BARRIER_WMB_PER_DESC, /* wmb() before each owner bit (mlx4, 2014) */
    TXQ_BARRIER_NONE,         /* no barrier at all: for validation only */
};

/* Where txq_clean learns the device's head index (the completion mode;
 * docs/device.md, Completions and interrupts). */
enum txq_clean_mode {
    TXQ_CLEAN_HEAD_WB,   /* plat_load32 of the head-writeback word */
    TXQ_CLEAN_HEAD_MMIO, /* uncached plat_mmio_read32(NICTX_REG_HEAD) */
    TXQ_CLEAN_DESC_WB,   /* the DD bit the device writes into the last
                            descriptor of each batch (Intel DD), or into each
                            (desc_wb_full): scan forward */
    TXQ_CLEAN_CQ,        /* CQEs in a completion queue, polled at the consumer
                            index for the expected phase (mlx4/mlx5, Corundum) */
    TXQ_CLEAN_COUNT
};

struct txq_cfg {
    unsigned ring_log2;      /* ring size 1 << ring_log2, 3..16 */
    unsigned wb_thresh;      /* head writeback every n completions, 0 = off;
                                HEAD_WB mode needs 1..ring size - 1; HEAD_MMIO
                                mode allows 0..ring size - 1 */
    unsigned irq_thresh;     /* interrupt every n completions, 0 = off */
    uint32_t irq_timer;      /* NICTX_REG_IRQ_TIMER: interrupt moderation
                                timer, device cycles below 2^24, 0 = off */
    unsigned cq_log2;        /* TXQ_CLEAN_CQ: CQ size 1 << cq_log2, ring_log2..16;
                                0: the ring's size; each queue its own CQ, in
                                its block (queue 0: CQ_BASE, CQ_LOG2) */
    unsigned desc_fetch_max; /* descriptors per fetch, 1..TXQ_FETCH_MAX_MAX */
    unsigned desc_inflight;  /* descriptor reads in flight, 1..8; 0: the device's reset value
                                (written only when it differs from it, as the
                                completion registers are) */
    unsigned mrrs_log2;      /* device read request size 1 << n, 7..12 */
    int desc_wb_full;        /* TXQ_CLEAN_DESC_WB: the device writes back every
                                completed descriptor whole (CPL_MODE DESC_WB_FULL,
                                Intel's write-back format) rather than a done
                                word in the batch's last */
    unsigned mps_log2;       /* the link's MPS 1 << n, 7..12 (desc_wb_full: the
                                writes' cut; written only then, MPS_LOG2) */
    uint32_t line_rate_fx;   /* NICTX_REG_LINE_RATE: wire bytes per device
                                cycle, 8.16 fixed, 1..TXQ_LINE_RATE_MAX */
    enum txq_clean_mode clean;
    uint64_t irq_addr;       /* MSI-X address: nonzero and 4-byte aligned if
                                irq_thresh > 0 or irq_timer > 0, else must be 0;
                                queue q programs it into MSI-X vector q's entry
                                (queue 0: IRQ_ADDR, the same storage) */
    uint32_t irq_data;       /* MSI-X data (ignored if irq_thresh == 0) */
    unsigned max_tags;       /* DMA read tags the device may use, 1..256;
                                0 leaves the device's reset value (32) */
    uint32_t max_rd_bytes;   /* outstanding DMA read bytes: 0 = no limit,
                                else 4096..2^21-1 */
    enum txq_proto proto;
    enum txq_barrier barrier;
    enum drv_bug bug;        /* DRV_BUG_NONE: the correct driver */
    uint64_t bug_at;         /* packet index at which a one-shot bug fires */
    int bql;                 /* byte queue limits (BQL) on the queue */
    enum dql_order dql_order; /* dql_queued's access order */
    unsigned bql_stall_thrs; /* BQL stall detector threshold, jiffies (dql.h); 0: off */
    unsigned tail_coalesce;  /* defer the tail write up to N packets, even
                                without xmit_more (ixgbe dispatch_limit); 0: off */
    uint32_t cpl_timeout;    /* NICTX_REG_CPL_TIMEOUT, device cycles, below 2^24;
                                0 leaves the device's reset value */
    uint64_t reset_wait_ns;  /* how long a queue reset waits for the device to
                                take it (it waits up to CPL_TIMEOUT for reads
                                still out): STATUS read until then; 0: at most
                                TXQ_RESET_POLLS reads (a platform without a clock) */
    /* Queues (docs/device.md, Queues).  Queue `queue`'s own registers go
     * to its block (txq_reg.h); the device-wide ones are written by queue
     * 0's txq_init, and CTRL.ENABLE by the last queue's (queue ==
     * queues - 1): bring the queues up in order 0, 1, ...  Optional
     * registers are written only when they differ from their reset value,
     * so one queue programs the device exactly as before. */
    unsigned queue;          /* this queue, 0..queues - 1 */
    unsigned queues;         /* NICTX_REG_QUEUES: queues in use, 1..NICTX_Q_MAX; 0: 1 */
    unsigned sched;          /* NICTX_REG_SCHED: NICTX_SCHED_RR or _DRR */
    unsigned drr_quantum;    /* NICTX_REG_DRR_QUANTUM: 64..65536 bytes; 0: reset value */
    unsigned weight;         /* NICTX_QREG_WEIGHT: 1..255; 0: reset value (1) */
};

struct txq;

/* Completion callback: the buffer behind `cookie` is free again. */
typedef void (*txq_complete_fn)(void *ctx, void *cookie);
/* Drop callback: the frame behind `cookie` was reclaimed without being sent
 * (a queue reset); its buffer is free again. */
typedef void (*txq_drop_fn)(void *ctx, void *cookie);

/* One frame without FCS, as the stack hands it to the driver: the
 * kernel's struct sk_buff, as much of it as a transmit path uses
 * (driver/linux/include/linux/skbuff.h names it so).  The stack keeps it
 * until the driver frees it (the completion callback, or the drop
 * callback after a reset), so the driver may keep the pointer. */
struct txq_pkt {
    dma_addr_t dma;      /* bus address of the frame's first byte (the
                            stack's mapping; dma_map_single(data) is the same) */
    uint16_t len;        /* 1..16383 */
    void *cookie;        /* handed back to the completion callback */
    unsigned char *data; /* the frame (CPU pointer into host memory; NULL for
                            a driver that does not map it itself) */
    struct txq *dev;     /* the queue it is sent on (the stack's skb->dev) */
};

enum txq_ret {
    TXQ_OK = 0,    /* descriptor posted */
    TXQ_BUSY = 1,  /* queue stopped or ring full: nothing done */
    TXQ_EINVAL = 2 /* len 0 or > 16383: nothing done (caller bug) */
};

struct txq_stats {
    uint64_t pkts;      /* packets posted */
    uint64_t descs;     /* descriptors written (one per packet) */
    uint64_t doorbells; /* tail MMIO writes */
    uint64_t wmbs;      /* wmb() issued */
    uint64_t dma_wmbs;  /* dma_wmb() issued */
    uint64_t wc_pushes; /* descriptors pushed through the WC window */
    uint64_t bql_stops; /* queue stopped by BQL (dql_avail < 0) */
    uint64_t bql_stalls;    /* stalls BQL's detector counted */
    uint64_t bql_stall_max; /* the longest, jiffies (the largest of the queues') */
    uint64_t deferred;  /* doorbells deferred by tail coalescing */
    uint64_t cleans;    /* txq_clean calls */
    uint64_t reclaimed; /* descriptors reclaimed */
    uint64_t busy;      /* txq_xmit returned TXQ_BUSY */
    uint64_t stops;     /* queue stopped (ring full) */
    uint64_t wakes;     /* queue woken by txq_clean */
    uint64_t restarts;  /* stop undone by the transmit path's re-check (ixgbe
                           restart_queue): a cleanup ran meanwhile */
    uint64_t bad_head;  /* head >= ring size or outside the in-flight
                           window: a device bug, nothing reclaimed */
    uint64_t bad_len;   /* txq_xmit returned TXQ_EINVAL */
    uint64_t resets;    /* queue resets (txq_reset) */
    uint64_t dropped;   /* descriptors dropped by queue resets */
};

/* The kernel's struct netdev_queue, as much of it as a transmit path uses:
 * its state bits (__QUEUE_STATE_DRV_XOFF, __QUEUE_STATE_STACK_XOFF:
 * driver/netdev.h).  Its BQL is the struct txq's dql. */
struct netdev_queue {
    uint32_t state;
};

/* The per-slot record of a frame in flight (ixgbe's struct
 * ixgbe_tx_buffer): the skb to free, the bytes BQL was told, the owner bit
 * the slot was given, its DMA mapping. */
struct txq_buf {
    struct txq_pkt *skb;
    dma_addr_t dma;
    uint16_t len;   /* 0: the slot is free */
    uint8_t phase;
};

/*
 * One queue: what the harness and the checkers read (marked "harness"),
 * and the driver's ring.  The driver's own fields are the project
 * driver's (driver/txq.c); another driver may keep its state elsewhere
 * (its own struct, allocated with the kernel layer's kzalloc) but must
 * keep the harness's fields as they say.
 *
 * Memory the simulator models (docs/own-driver.md, Plain accesses): the
 * first five blocks, from `plat` to the end of `dql`, are the driver state
 * the CPUs share (the cache-line regions txq.ro, txq.prod, txq.cons,
 * txq.state and BQL's two, sim/run/world.c); a plain load or store of them
 * by driver code is in the memory model.  The rest of the struct is
 * bookkeeping the CPUs do not share in the model (counters, the hang
 * clock, the reset flags, the configuration): not modelled, as if each CPU
 * kept its own.
 */
struct txq {
    /* Set up by txq_init; no hot path reads it.  The first line of txq.ro:
     * the line `--layout packed` puts with the producer's (sim/run/world.c,
     * docs/calibration.md), so the line the hot paths read stays apart. */
    struct platform *plat;      /* harness: the CPU the queue's code runs on */
    dma_addr_t ring_dma;        /* harness: the ring's bus address (128-byte aligned) */
    dma_addr_t wb_dma;
    dma_addr_t cq_dma;
    uint32_t reg_tail, reg_head; /* harness: TAIL and HEAD's BAR0 offsets (txq_reg.h) */
    unsigned qid;               /* the device's queue (txq_cfg.queue) */

    /* Read-mostly after txq_init: both sides read it per packet (txq.ro). */
    alignas(TXQ_CACHELINE) struct nictx_tx_desc *ring; /* harness: the descriptor ring */
    struct txq_buf *buf;        /* per-slot records (kcalloc: shared) */
    uint32_t *wb;               /* harness: head-writeback word, own 64 B line */
    uint64_t *cq;               /* TXQ_CLEAN_CQ: the completion queue, else NULL */
    void *tail;                 /* its TAIL register (an __iomem cookie) */
    void *head;                 /* its HEAD register */
    void *bf;                   /* the BAR0 WC window (an __iomem cookie) */
    uint32_t size;              /* harness: ring slots, 1 << ring_log2 */
    uint32_t mask;              /* size - 1 */
    uint32_t cq_mask;           /* CQEs - 1 */

    /* Producer line: written by the transmit path (txq.prod). */
    alignas(TXQ_CACHELINE) uint32_t next_to_use; /* harness: diagnostics */
    uint64_t st_pkts;           /* harness: packets posted (mlx4 ring->packets) */

    /* Consumer line: written by the cleanup (txq.cons). */
    alignas(TXQ_CACHELINE) uint32_t next_to_clean; /* harness: diagnostics */
    uint32_t last_nr;           /* descriptors the last reclaimed frame used,
                                   written per descriptor (mlx4 last_nr_txbb) */

    /* harness: the queue's state (struct netdev_queue's XOFF bits, netdev.h),
     * a line of its own (txq.state): the transmit path reads it per
     * packet; either side writes it only to stop or wake the queue.
     * `stopped` is the same word. */
    union {
        alignas(TXQ_CACHELINE) uint32_t stopped;
        struct netdev_queue nq;
    };

    /* harness: the transmit lock (HARD_TX_LOCK), a line of its own. */
    alignas(TXQ_CACHELINE) uint32_t xmit_lock;

    /* harness: BQL, enqueue and completion halves, a line each (dql.h). */
    struct dql dql;

    /* Not shared in the model: configuration, counters, the hang clock,
     * the reset flags. */
    alignas(TXQ_CACHELINE) enum txq_clean_mode clean;
    enum txq_proto proto;
    enum txq_barrier barrier;
    enum drv_bug bug;
    uint64_t bug_at;
    int bug_fired;              /* a one-shot bug has fired */
    int bql;                    /* harness: byte queue limits on the queue */
    unsigned tail_coalesce;
    txq_complete_fn done;       /* harness */
    void *done_ctx;             /* harness */
    txq_drop_fn drop;           /* NULL: drops are reported through done */
    void *drop_ctx;
    int resetting;              /* harness: txq_reset runs: cleanup passes do
                                   nothing (napi_disable) */
    int in_clean;               /* harness: a cleanup pass is running (it may yield) */
    uint32_t phase;             /* owner bit of the current pass: 1, 0, 1, ... */
    uint32_t batch_start;       /* first slot since the last doorbell */
    int coalesced;              /* the pending batch waits on tail coalescing */
    uint32_t wc_off;            /* offset of the next WC buffer in the window */
    uint32_t cpl_head;          /* DESC_WB, CQ: head reported so far (the slot
                                   after the newest DD or CQE seen) */
    uint32_t cq_ci;             /* CQ consumer index and the phase expected */
    uint32_t cq_phase;
    uint64_t reset_wait_ns;     /* txq_cfg.reset_wait_ns */
    uint64_t progress_ns;       /* last reclaim, or when the ring last became
                                   non-empty (txq_hung) */
    uint64_t st_descs, st_doorbells, st_wmbs, st_dma_wmbs, st_wc_pushes, st_busy, st_stops,
        st_bad_len, st_bql_stops, st_deferred, st_restarts;
    uint64_t st_cleans, st_reclaimed, st_wakes, st_bad_head;
    uint64_t cleans_at_reclaim; /* st_cleans after the last pass that reclaimed (harness:
                                   the passes since, in a watchdog's diagnosis) */
    uint64_t st_bql_wakes;      /* queue woken by BQL (the kernel layer counts them) */
    uint64_t st_resets, st_dropped; /* harness: st_resets */
    void *priv;                 /* another driver's own state (txq.c: unused) */
};

/*
 * Probe and bring up the queue: validate cfg, read NICTX_REG_ID, allocate
 * the cookie array (malloc), the ring (plat_dma_alloc, align 128) and the
 * head-writeback word (own 64-byte line), then program BAR0: ring base
 * (one 64-bit write), ring log2, writeback address and threshold, MSI-X
 * address, data and threshold, MRRS, descriptor fetch max, line rate, and
 * CTRL enable last.  `done` is called for each reclaimed descriptor with
 * `done_ctx`.
 * Returns 0 on success; -1 on a bad cfg, NULL q/p/cfg/done (no platform
 * call made); -3 if NICTX_REG_ID != NICTX_ID_VALUE (only the ID read made);
 * With several queues (txq_cfg.queue, .queues) only queue 0 writes the
 * device-wide registers (QUEUES first, then SCHED, DRR_QUANTUM) and only the
 * last queue CTRL.ENABLE; every queue writes its own block (ring base and
 * log2, writeback address, WEIGHT).
 * -2 if malloc or plat_dma_alloc fails (no register written; DMA memory
 * already taken is not returned, it lives as long as the platform).
 */
int txq_init(struct txq *q, struct platform *p, const struct txq_cfg *cfg,
             txq_complete_fn done, void *done_ctx);

#define TXQ_RING_ALIGN 128u /* the ring's alignment in DMA memory */
#define TXQ_RESET_POLLS 16384u /* STATUS reads a reset waits without reset_wait_ns */

/* The DMA memory txq_init takes for a valid `cfg`, alignment included: the
 * ring (TXQ_RING_ALIGN), the writeback word's line and, in CQ mode, the
 * completion queue (a line aligned).  Each piece may need up to its
 * alignment less one byte of padding after whatever came before it. */
static inline size_t txq_dma_bytes(const struct txq_cfg *cfg)
{
    unsigned cq_log2 = cfg->cq_log2 ? cfg->cq_log2 : cfg->ring_log2;
    size_t n = (TXQ_RING_ALIGN - 1) + ((size_t)NICTX_DESC_BYTES << cfg->ring_log2) +
               (TXQ_CACHELINE - 1) + TXQ_CACHELINE;

    if (cfg->clean == TXQ_CLEAN_CQ)
        n += (TXQ_CACHELINE - 1) + ((size_t)NICTX_CQE_BYTES << cq_log2);
    return n;
}

/*
 * Write the tail now if the last packet's doorbell was deferred by tail
 * coalescing (no xmit_more), as a coalescing driver's flush timer does.
 * The source calls it when it has nothing more to send for now.  A batch
 * deferred by xmit_more is not flushed: the stack promised another packet,
 * and a transmit path that stops the queue must ring it itself
 * (`!netdev_xmit_more() || netif_xmit_stopped()`).
 */
void txq_flush(struct txq *q);

/* Free the per-slot arrays; the device is left as is.  Safe to call twice. */
void txq_destroy(struct txq *q);

/*
 * ndo_start_xmit with xmit_more.  Posts `pkt` in the next descriptor, stops
 * the queue if the ring is now full, and rings the doorbell (wmb, tail
 * write) if !more or the queue stopped.  Returns TXQ_OK, TXQ_BUSY (queue
 * stopped or ring full; nothing done) or TXQ_EINVAL (bad length; nothing
 * done).
 */
enum txq_ret txq_xmit(struct txq *q, struct txq_pkt *pkt, int more);

/*
 * Completion cleanup (one NAPI poll): read the head index per the clean
 * mode, call the completion callback for each descriptor from
 * next_to_clean up to head, and wake the queue if it was stopped and now
 * has room.  Returns the number of descriptors reclaimed; 0 (and counts
 * bad_head) if the device reported a head >= ring size or one outside the
 * in-flight window.
 */
unsigned txq_clean(struct txq *q);
/* The same on platform `p` (the CPU running the cleanup), reclaiming at
 * most `budget` descriptors (NAPI budget; 0: no limit). */
unsigned txq_clean_budget(struct txq *q, struct platform *p, unsigned budget);

int txq_stopped(const struct txq *q);        /* 1 if stopped (ring full or BQL) or being
                                                reset, else 0 */
unsigned txq_free(const struct txq *q);      /* descriptors free to post */
unsigned txq_in_flight(const struct txq *q); /* posted, not reclaimed */
void txq_get_stats(const struct txq *q, struct txq_stats *out);

/* Frames reclaimed without being sent go to drop(ctx, cookie) from now on. */
void txq_set_drop(struct txq *q, txq_drop_fn drop, void *ctx);

/*
 * Queue reset, as a Linux driver's tx_timeout path does it (ixgbe
 * reinit, mlx4 restart), by the register sequence of docs/faults.md:
 * read ERR; disable; wait (a bounded number of STATUS reads) for the
 * datapath to go idle; read HEAD and reclaim what was sent before it;
 * CTRL.RESET and wait until it is done (reading STATUS for reset_wait_ns,
 * or TXQ_RESET_POLLS times); drop every descriptor still in
 * flight (drop callback); clear the ring's owner bits, the writeback word
 * and the queue's state (indices, phase, WC buffer, stop flags, BQL); enable.
 * The caller keeps txq_xmit and txq_clean out meanwhile: set
 * q->resetting and wait for !q->in_clean first (with more than one CPU).
 * Returns the ERR bits found, or -1 when the device never finished the
 * reset (the queue is left disabled).  *dropped: descriptors dropped.
 */
long txq_reset(struct txq *q, struct platform *p, unsigned *dropped);

/*
 * Adapter reset over the device's n >= 1 queues qs[0..n) (every queue the
 * device has in use), as ixgbe_reinit_locked does on a transmit timeout:
 * the device's ERR, CTRL and reset are global, and a reset clears every
 * queue's tail and head.  The same sequence, each per-queue step taken for
 * every queue in order: read ERR; disable; wait for idle; for each queue
 * read its HEAD and reclaim what was sent; CTRL.RESET and wait (qs[0]'s
 * reset_wait_ns); for each
 * queue drop what is still in flight and clear its ring and state; wmb;
 * enable.  Each queue counts the reset (txq_stats.resets) and restarts its
 * hang clock.  The caller keeps every queue's txq_xmit and txq_clean out
 * meanwhile (q->resetting, !q->in_clean).  Returns the ERR bits found, or
 * -1 when the device never finished the reset (left disabled, nothing
 * dropped); *dropped: descriptors dropped over all the queues.
 * txq_reset(q, ...) is txq_reset_all(&q, 1, ...).
 */
long txq_reset_all(struct txq *const *qs, unsigned n, struct platform *p, unsigned *dropped);

/* No descriptor has completed for `timeout_ns` while some are in flight
 * (ixgbe_check_tx_hang): 1, else 0.  `now_ns` from plat_time_ns of the
 * checking CPU; a progress stamp later than now_ns (made by a CPU whose
 * clock is ahead) is not a hang. */
int txq_hung(const struct txq *q, uint64_t now_ns, uint64_t timeout_ns);

#endif /* NICTX_TXQ_H */
