/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pktgen.h - a pktgen-like packet source driving one txq.
 *
 * Models Linux pktgen with "burst N" on one CPU that also busy-polls the
 * queue's completions: each pktgen_step sends up to N packets (the first
 * N - 1 with xmit_more set, the last without), then runs txq_clean once.
 * With cfg.qdisc the packets come through a qdisc instead: each batch is
 * bulk-dequeued under the qdisc lock within BQL's budget, so the batch size
 * emerges from BQL as in Linux.  Either way a batch is sent under the
 * queue's transmit lock.
 *
 * Contract:
 * - pktgen_bufs(ring size) DMA buffers of max_len + buf_offset bytes,
 *   placed as buf_place says (buf_place.h: packed 64-byte aligned, as
 *   Linux's page fragments or kmalloc'd skb heads, or on buf_align
 *   boundaries), kept on a free list; a buffer is
 *   taken per packet and returned by pktgen_complete when the txq
 *   reclaims it.  The pool is a ring's worth and up to a NAPI budget more:
 *   the stack does not stop at the ring's size, so a cleanup that hands
 *   slots back before it is done with them can be overrun.
 *   Frame data starts buf_offset bytes into its buffer (e.g. 2, NET_IP_ALIGN).
 * - The txq must have been initialised with pktgen_complete as its
 *   completion callback and the pktgen object as its context, before
 *   pktgen_init (which checks this).
 * - Filling a frame has no modelled cost (pktgen reuses its skb): fill()
 *   writes straight through the buffer's CPU pointer, announced to the
 *   platform with plat_cpu_touch.
 * - Packets are numbered seq = 0, 1, ... count - 1 in sending order.
 */
#ifndef NICTX_PKTGEN_H
#define NICTX_PKTGEN_H

#include <stdint.h>

#include "buf_place.h"
#include "drv_bug.h"
#include "platform.h"
#include "txq.h"

#define PKTGEN_BUF_OFFSET_MAX 4095u

/* Frame length without FCS for packet `seq`: 1..max_len.  Must be a pure
 * function of seq: it may be called more than once for the same seq. */
typedef unsigned (*pktgen_len_fn)(void *ctx, uint64_t seq);
/* Write the `len` frame bytes of packet `seq` to `buf`. */
typedef void (*pktgen_fill_fn)(void *ctx, uint64_t seq, uint8_t *buf, unsigned len);
/* Packet `seq` was dropped by a queue reset: never sent. */
typedef void (*pktgen_drop_fn)(void *ctx, uint64_t seq);
/* How many packets from `seq` on may be sent now (a paced source: a
 * capture replayed with its timing); 0: none yet. */
typedef uint64_t (*pktgen_avail_fn)(void *ctx, uint64_t seq);

/* A root qdisc several queues share (a single-queue root qdisc on a
 * multi-queue device; the kernel's default, mq, gives each queue its own):
 * its lock and its counters (struct Qdisc's bstats), each on a line of its
 * own when the owner places it on a 64-byte boundary.  The owner zeroes it. */
struct pktgen_root {
    uint32_t lock;
    uint8_t lock_line_[60]; /* the rest of the lock's line */
    uint64_t packets, bytes;
};

struct pktgen_cfg {
    uint64_t count;       /* packets to send in all (0: done at once) */
    unsigned burst;       /* >= 1: N - 1 packets with more = 1, last more = 0 */
    unsigned max_len;     /* largest length len() returns, 1..16383 */
    unsigned buf_offset;  /* frame offset inside its buffer, 0..PKTGEN_BUF_OFFSET_MAX */
    enum buf_place_mode buf_place; /* where buffers lie (0: packed) */
    unsigned buf_align;   /* BUF_PLACE_ALIGN: a power of two 64..65536 */
    pktgen_len_fn len;    /* required */
    pktgen_fill_fn fill;  /* may be NULL: buffer contents left as they are */
    pktgen_drop_fn on_drop; /* may be NULL */
    pktgen_avail_fn avail;  /* may be NULL: every packet may go at once; else a
                               burst is cut to what it says (0: the step sends
                               nothing and reports PKTGEN_BLOCKED) */
    void *ctx;            /* passed to len(), fill(), on_drop() and avail() */
    int qdisc;            /* 1: a qdisc feeds the queue: each batch is what it
                             bulk-dequeues under its lock within BQL's budget
                             (at most `burst`); 0: pktgen bursts of `burst` */
    struct pktgen_root *root; /* with qdisc: the root it shares with other queues'
                                 pktgens, or NULL: its own (qdisc_lock) */
    enum drv_bug bug;     /* DRV_BUG_BUF_OVERWRITE: packet bug_at reuses the
                             previous packet's buffer while it is in flight */
    uint64_t bug_at;
};

struct pktgen_stats {
    uint64_t sent;       /* packets accepted by txq_xmit */
    uint64_t completed;  /* packets reclaimed (pktgen_complete calls), dropped
                            ones included */
    uint64_t dropped;    /* of those, dropped by a queue reset */
    uint64_t blocked;    /* steps that returned PKTGEN_BLOCKED */
    uint64_t bad_cookie; /* pktgen_complete with a cookie not ours or a
                            buffer already free (a txq bug); ignored */
};

struct pktgen_buf {
    uint8_t *cpu;   /* buffer start (CPU pointer) */
    dma_addr_t dma; /* buffer start (bus address) */
    uint64_t seq;   /* the packet it holds */
    struct txq_pkt pkt; /* its skb, handed to txq_xmit (pktgen reuses its skb) */
};

struct pktgen {
    struct platform *plat;
    struct txq *q;
    struct pktgen_cfg cfg;
    struct pktgen_buf *bufs; /* nbufs buffers, malloc'd table */
    uint32_t nbufs;
    uint32_t *free_list;     /* stack of free buffer indices */
    uint32_t nfree;
    uint8_t *is_free;        /* per buffer: 1 if on the free list */
    unsigned buf_size;       /* bytes per buffer (multiple of 64) */
    uint32_t last_buf;       /* buffer of the latest packet sent */
    uint32_t qdisc_lock;     /* the qdisc root lock (cfg.qdisc) */
    int bug_fired;           /* DRV_BUG_BUF_OVERWRITE has fired */
    int in_burst;            /* inside a burst (it may yield at platform calls) */
    int failed;              /* len() returned a bad length */
    struct pktgen_stats stats;
};

enum pktgen_ret {
    PKTGEN_SENT,    /* progress: sent or reclaimed something */
    PKTGEN_BLOCKED, /* sent nothing and reclaimed nothing: wait for device */
    PKTGEN_DONE,    /* all count packets sent and reclaimed */
    PKTGEN_ERROR,   /* len() returned 0 or > max_len; sticky, nothing more
                       is sent */
};

/*
 * Allocate the buffers (plat_dma_alloc) and bookkeeping (malloc).
 * Returns 0; -1 on a bad cfg, a NULL argument, p != the txq's platform, or
 * a txq not set up with pktgen_complete/g; -2 if memory runs out (DMA
 * memory already taken is not returned: it lives as long as the platform).
 */
#define PKTGEN_SPARE_BUFS 64u

/* The buffers pktgen_init allocates for a ring of `ring_size` slots. */
static inline uint32_t pktgen_bufs(uint32_t ring_size)
{
    return ring_size + (ring_size < PKTGEN_SPARE_BUFS ? ring_size : PKTGEN_SPARE_BUFS);
}

#define PKTGEN_BUF_ALIGN 64u

/* The DMA memory pktgen_init takes for a ring of `ring_size` slots and
 * frames of up to max_len bytes at buf_offset, placed by `place` (and
 * `align`): its buffers, and the padding before the first. */
static inline size_t pktgen_dma_bytes(uint32_t ring_size, unsigned max_len, unsigned buf_offset,
                                      enum buf_place_mode place, unsigned align)
{
    struct buf_layout l;

    buf_layout_init(&l, place, align, max_len + buf_offset);
    return buf_layout_bytes(&l, pktgen_bufs(ring_size));
}

int pktgen_init(struct pktgen *g, struct platform *p, struct txq *q,
                const struct pktgen_cfg *cfg);

/* txq completion callback: `g` is the struct pktgen, `cookie` a buffer. */
void pktgen_complete(void *g, void *cookie);
/* txq drop callback (pktgen_init sets it): as pktgen_complete, and the
 * packet is reported to cfg.on_drop. */
void pktgen_drop(void *g, void *cookie);

/* One burst, then one txq_clean.  See enum pktgen_ret. */
enum pktgen_ret pktgen_step(struct pktgen *g);
/* One burst and no cleanup (another CPU cleans): PKTGEN_SENT if it sent
 * something, PKTGEN_BLOCKED if nothing (queue stopped, no free buffer),
 * PKTGEN_DONE once all `count` packets are sent, PKTGEN_ERROR as above. */
enum pktgen_ret pktgen_send(struct pktgen *g);

void pktgen_get_stats(const struct pktgen *g, struct pktgen_stats *out);

/* Free the bookkeeping; safe to call twice. */
void pktgen_destroy(struct pktgen *g);

#endif /* NICTX_PKTGEN_H */
