/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kapi.c - the out-of-line half of nictx's kernel layer (driver/linux/):
 * what its headers declare, over driver/platform.h, driver/netdev.h and
 * the current CPU (kcpu.h).  Compiled with the layer's headers, like a
 * driver, but not instrumented: its own accesses are the kernel's, not the
 * driver's (a copy's loads and stores are announced one by one below).
 */
#include <linux/dma-mapping.h>
#include <linux/errno.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <nictx/queue.h>

#include "nictx_hw.h"

/* The C library, which this freestanding file links with. */
void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void free(void *p);
int snprintf(char *s, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ------------------------------------------------------------------ MMIO */

static u32 nictx_iomem_off(const volatile void __iomem *addr, u64 base, const char *what)
{
    u64 a = (u64)(uintptr_t)addr;
    char detail[200];

    if (a - base < NICTX_BAR0_SIZE)
        return (u32)(a - base);
    snprintf(detail, sizeof(detail),
             "%s at %p, not in BAR0 as pci_iomap%s mapped it: an __iomem address is the "
             "mapping plus a register offset",
             what, (const void *)addr, base == NICTX_IOMEM_WC ? "_wc" : "");
    plat_bug(kcpu_plat(), NULL, "iomem_bad", detail);
    return 0;
}

u32 nictx_iomem_uc(const volatile void __iomem *addr)
{
    return nictx_iomem_off(addr, NICTX_IOMEM_UC, "an uncached MMIO access");
}

void __iowrite64_copy(void __iomem *to, const void *from, size_t count)
{
    u64 a = (u64)(uintptr_t)to;
    const u64 *src = from;

    if (a - NICTX_IOMEM_WC < NICTX_BAR0_SIZE) {
        plat_mmio_copy_wc(kcpu_plat(), (u32)(a - NICTX_IOMEM_WC), from, count * 8);
        return;
    }
    for (size_t i = 0; i < count; i++)
        writeq_relaxed(src[i], (u8 __iomem *)to + 8 * i);
}

void __iomem *pci_iomap(struct pci_dev *pdev, int bar, unsigned long maxlen)
{
    (void)pdev;
    (void)maxlen;
    return bar == 0 ? (void __iomem *)(uintptr_t)NICTX_IOMEM_UC : NULL;
}

void __iomem *pci_iomap_wc(struct pci_dev *pdev, int bar, unsigned long maxlen)
{
    (void)pdev;
    (void)maxlen;
    return bar == 0 ? (void __iomem *)(uintptr_t)NICTX_IOMEM_WC : NULL;
}

/* ------------------------------------------------------------ memory */

/* The kernel's guarantee is page-order alignment; the platform-style
 * driver's allocations were aligned to at most 128 bytes, and keeping that
 * keeps host memory, and so every run's DMA addresses, as they were. */
#define NICTX_COHERENT_ALIGN_MAX 128u

void *dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *dma_handle, gfp_t gfp)
{
    size_t align = 1;

    (void)dev;
    (void)gfp;
    while (align < size && align < NICTX_COHERENT_ALIGN_MAX)
        align <<= 1;
    return plat_dma_alloc(kcpu_plat(), size, align, dma_handle);
}

void *nictx_kmalloc(size_t size, gfp_t flags)
{
    void *p = flags & __GFP_ZERO ? calloc(1, size ? size : 1) : malloc(size ? size : 1);
    struct kcpu *k = kcpu_this();

    if (p != NULL && k != NULL)
        plat_shared(k->plat, p, size);
    return p;
}

void kfree(const void *p)
{
    struct kcpu *k = kcpu_this();

    if (p != NULL && k != NULL)
        plat_shared(k->plat, p, 0); /* no longer shared */
    free((void *)p);
}

/* Each 8-byte piece announced before it is read or written, as the
 * instrumentation announces the driver's own accesses. */
void *nictx_memcpy(void *dst, const void *src, size_t n)
{
    struct kcpu *k = kcpu_this();
    u8 *d = dst;
    const u8 *s = src;

    while (n > 0) {
        size_t c = n < 8 ? n : 8;
        u8 piece[8];
        if (k && !k->no_kcsan)
            plat_access(k->plat, (void *)s, c, 0);
        __builtin_memcpy(piece, s, c);
        if (k && !k->no_kcsan)
            plat_access(k->plat, d, c, PLAT_ACC_WRITE);
        __builtin_memcpy(d, piece, c);
        d += c;
        s += c;
        n -= c;
    }
    return dst;
}

void *nictx_memset(void *dst, int c, size_t n)
{
    struct kcpu *k = kcpu_this();
    u8 *d = dst;

    while (n > 0) {
        size_t m = n < 8 ? n : 8;
        if (k && !k->no_kcsan)
            plat_access(k->plat, d, m, PLAT_ACC_WRITE);
        __builtin_memset(d, c, m);
        d += m;
        n -= m;
    }
    return dst;
}

/* ------------------------------------------------------- the queue, BQL */

/* The platform-style calls of driver/netdev.h, not the kernel-named
 * macros of linux/netdevice.h. */
#undef netdev_tx_sent_queue
#undef netdev_tx_completed_queue
#undef netdev_tx_reset_queue

void nictx_netdev_tx_sent_queue(struct netdev_queue *txq, unsigned int bytes)
{
    struct txq *q = container_of(txq, struct txq, nq);

    if (!q->bql)
        return;
    netdev_tx_sent_queue(kcpu_plat(), &txq->state, &q->dql, bytes);
    if (txq->state & 1u << NETDEV_XOFF_STACK)
        q->st_bql_stops++;
}

void nictx_netdev_tx_completed_queue(struct netdev_queue *txq, unsigned int pkts,
                                     unsigned int bytes)
{
    struct txq *q = container_of(txq, struct txq, nq);

    (void)pkts;
    if (q->bql && netdev_tx_completed_queue(kcpu_plat(), &txq->state, &q->dql, bytes))
        q->st_bql_wakes++;
}

void nictx_netdev_tx_reset_queue(struct netdev_queue *txq)
{
    struct txq *q = container_of(txq, struct txq, nq);

    netdev_tx_reset_queue(kcpu_plat(), &txq->state, &q->dql);
}

void nictx_netdev_xmit_set_more(bool more)
{
    struct kcpu *k = kcpu_this();

    if (k)
        k->xmit_more = more;
}

/* ----------------------------------------------------------- the queue */

int nictx_queue_init(struct txq *q, struct platform *p, const struct txq_cfg *cfg,
                     txq_complete_fn done, void *done_ctx)
{
    q->plat = p;
    q->size = 1u << cfg->ring_log2;
    q->done = done;
    q->done_ctx = done_ctx;
    q->drop = NULL;
    q->drop_ctx = NULL;
    q->nq.state = 0;
    q->xmit_lock = 0;
    q->resetting = q->in_clean = 0;
    q->bql = cfg->bql;
    q->st_pkts = 0;
    q->st_descs = q->st_doorbells = q->st_wmbs = q->st_dma_wmbs = q->st_wc_pushes = 0;
    q->st_busy = q->st_stops = q->st_bad_len = q->st_bql_stops = q->st_deferred = 0;
    q->st_restarts = q->st_cleans = q->st_reclaimed = q->st_wakes = q->st_bad_head = 0;
    q->st_bql_wakes = q->st_resets = q->st_dropped = 0;
    /* BQL as Linux starts it: no minimum, the kernel's maximum, 1 s hold. */
    if (dql_init(&q->dql, cfg->dql_order, 0, DQL_MAX_LIMIT, 1000000000ull) != 0 ||
        dql_set_stall_thrs(&q->dql, p, cfg->bql_stall_thrs) != 0)
        return -EINVAL;
    return 0;
}

/* ---------------------------------------------------------------- skbs */

/* Freeing NULL does nothing, as in the kernel. */
void dev_consume_skb_any(struct sk_buff *skb)
{
    struct txq *q;

    if (skb == NULL)
        return;
    q = skb->dev;
    q->done(q->done_ctx, skb->cookie);
}

void dev_kfree_skb_any(struct sk_buff *skb)
{
    struct txq *q;

    if (skb == NULL)
        return;
    q = skb->dev;
    if (q->drop)
        q->drop(q->drop_ctx, skb->cookie);
    else
        q->done(q->done_ctx, skb->cookie);
}

/* ------------------------------------------------------------ WARN, BUG */

void nictx_kernel_warn(const char *kind, const char *file, int line, const char *cond)
{
    char detail[240];

    snprintf(detail, sizeof(detail), "%s at %s:%d: the driver's own assertion failed", cond,
             file, line);
    plat_bug(kcpu_plat(), NULL, kind, detail);
}
