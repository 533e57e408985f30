/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pktgen.c - a pktgen-like packet source driving one txq (see pktgen.h).
 */
#include "pktgen.h"

#include <stdlib.h>

static int pktgen_cfg_valid(const struct pktgen_cfg *cfg)
{
    int align_ok = cfg->buf_place != BUF_PLACE_ALIGN ||
                   (cfg->buf_align >= BUF_PLACE_ALIGN_MIN && cfg->buf_align <= BUF_PLACE_ALIGN_MAX &&
                    (cfg->buf_align & (cfg->buf_align - 1)) == 0);
    return cfg->burst >= 1 && cfg->bug < DRV_BUG_COUNT && cfg->max_len >= 1 && cfg->max_len <= TXQ_PKT_LEN_MAX &&
           cfg->buf_offset <= PKTGEN_BUF_OFFSET_MAX && cfg->len != NULL && align_ok &&
           (unsigned)cfg->buf_place <= BUF_PLACE_ALIGN;
}

int pktgen_init(struct pktgen *g, struct platform *p, struct txq *q,
                const struct pktgen_cfg *cfg)
{
    if (g == NULL || p == NULL || q == NULL || cfg == NULL || !pktgen_cfg_valid(cfg))
        return -1;
    if (q->plat != p || q->done != pktgen_complete || q->done_ctx != g)
        return -1;

    uint32_t n = pktgen_bufs(q->size);
    struct buf_layout lay;
    buf_layout_init(&lay, cfg->buf_place, cfg->buf_align, cfg->max_len + cfg->buf_offset);
    unsigned buf_size = (cfg->max_len + cfg->buf_offset + PKTGEN_BUF_ALIGN - 1) &
                        ~(PKTGEN_BUF_ALIGN - 1);
    uint8_t *chunk = NULL;
    dma_addr_t chunk_dma = 0;
    struct pktgen_buf *bufs = malloc((size_t)n * sizeof(*bufs));
    uint32_t *free_list = malloc((size_t)n * sizeof(*free_list));
    uint8_t *is_free = malloc(n);
    if (bufs == NULL || free_list == NULL || is_free == NULL)
        goto fail;

    for (uint32_t i = 0; i < n; i++) {
        unsigned k = i % lay.per_chunk;
        if (k == 0 && (chunk = plat_dma_alloc(p, lay.chunk, lay.chunk_align, &chunk_dma)) == NULL)
            goto fail;
        bufs[i].cpu = chunk + buf_layout_offset(&lay, k);
        bufs[i].dma = chunk_dma + buf_layout_offset(&lay, k);
        /* Pushed in reverse so that buffer 0 is taken first. */
        free_list[i] = n - 1 - i;
        is_free[i] = 1;
    }

    g->plat = p;
    g->q = q;
    g->cfg = *cfg;
    g->bufs = bufs;
    g->nbufs = n;
    g->free_list = free_list;
    g->nfree = n;
    g->is_free = is_free;
    g->buf_size = buf_size;
    g->last_buf = 0;
    g->qdisc_lock = 0;
    g->bug_fired = 0;
    g->in_burst = 0;
    g->failed = 0;
    g->stats.sent = 0;
    g->stats.completed = 0;
    g->stats.blocked = 0;
    g->stats.bad_cookie = 0;
    g->stats.dropped = 0;
    txq_set_drop(q, pktgen_drop, g);
    return 0;

fail:
    free(bufs);
    free(free_list);
    free(is_free);
    return -2;
}

/* The buffer behind cookie, or NULL (counted as a bad cookie) if it is not
 * one of ours or not in flight. */
static struct pktgen_buf *pktgen_buf_of(struct pktgen *g, void *cookie)
{
    struct pktgen_buf *b = cookie;
    if (b < g->bufs || b >= g->bufs + g->nbufs || g->is_free[b - g->bufs]) {
        g->stats.bad_cookie++;
        return NULL;
    }
    return b;
}

void pktgen_drop(void *ctx, void *cookie)
{
    struct pktgen *g = ctx;
    struct pktgen_buf *b = pktgen_buf_of(g, cookie);

    if (b == NULL)
        return;
    g->stats.dropped++;
    if (g->cfg.on_drop)
        g->cfg.on_drop(g->cfg.ctx, b->seq);
    pktgen_complete(ctx, cookie);
}

void pktgen_complete(void *ctx, void *cookie)
{
    struct pktgen *g = ctx;
    struct pktgen_buf *b = cookie;
    if (b < g->bufs || b >= g->bufs + g->nbufs) {
        g->stats.bad_cookie++;
        return;
    }
    uint32_t i = (uint32_t)(b - g->bufs);
    if (g->is_free[i]) {
        g->stats.bad_cookie++;
        return;
    }
    g->is_free[i] = 1;
    g->free_list[g->nfree++] = i;
    g->stats.completed++;
}

static int pktgen_len_ok(const struct pktgen *g, unsigned len)
{
    return len >= 1 && len <= g->cfg.max_len;
}

/* Send up to one burst; returns the number sent (0..burst). */
/*
 * The qdisc's share of a run (net/sched sch_direct_xmit with bulk dequeue):
 * under the qdisc root lock, dequeue packets while BQL's budget lasts (at
 * least one), then release the lock; the caller sends them as one batch.
 */
static unsigned pktgen_qdisc_dequeue(struct pktgen *g)
{
    struct txq *q = g->q;
    struct pktgen_root *root = g->cfg.root;
    uint32_t *lock = root ? &root->lock : &g->qdisc_lock;
    unsigned n = 1, max = g->cfg.burst;

    plat_spin_lock(g->plat, lock);
    plat_cpu_work(g->plat, PLAT_WORK_QDISC_PKT, 1);
    if (q->bql) {
        int budget = dql_avail(&q->dql, g->plat) - (int)g->cfg.max_len;
        while (n < max && budget > 0) {
            budget -= (int)g->cfg.max_len;
            n++;
            plat_cpu_work(g->plat, PLAT_WORK_QDISC_PKT, 1);
        }
    }
    if (root) { /* the shared root's counters (qdisc_bstats_update) */
        plat_cpu_touch(g->plat, &root->packets, 2 * sizeof(uint64_t), PLAT_WRITE);
        root->packets += n;
        root->bytes += (uint64_t)n * g->cfg.max_len;
    }
    plat_spin_unlock(g->plat, lock);
    return n;
}

static unsigned pktgen_burst_locked(struct pktgen *g)
{
    const struct pktgen_cfg *cfg = &g->cfg;
    uint64_t sent0 = g->stats.sent;
    unsigned len = 0;
    unsigned burst = cfg->qdisc ? pktgen_qdisc_dequeue(g) : cfg->burst;

    if (cfg->avail) { /* a paced source: only what is due */
        uint64_t a = cfg->avail(cfg->ctx, g->stats.sent);
        if (a < burst)
            burst = (unsigned)a;
    }

    if (g->stats.sent < cfg->count)
        len = cfg->len(cfg->ctx, g->stats.sent);

    /* pktgen holds the queue's transmit lock for a burst
     * (__netif_tx_lock_bh / HARD_TX_LOCK). */
    plat_spin_lock(g->plat, &g->q->xmit_lock);
    for (unsigned i = 0; i < burst && g->stats.sent < cfg->count; i++) {
        uint64_t seq = g->stats.sent;
        if (!pktgen_len_ok(g, len)) {
            /* For a later packet of the burst, the look-ahead below already
             * sent the packet before with more = 0: no doorbell is pending. */
            g->failed = 1;
            break;
        }
        /* pktgen: netif_xmit_frozen_or_drv_stopped() -> try again later.
         * A stop by the previous xmit has already rung the doorbell. */
        if (txq_stopped(g->q) || g->nfree == 0)
            break;

        int more = i + 1 < burst && seq + 1 < cfg->count;
        unsigned next_len = 0;
        if (more) {
            next_len = cfg->len(cfg->ctx, seq + 1);
            if (!pktgen_len_ok(g, next_len))
                more = 0; /* ring the doorbell before stopping on error */
        }

        /* The bug: the first burst from bug_at on reuses the buffer of the
         * previous burst's last packet, which its doorbell published. */
        int reuse = cfg->bug == DRV_BUG_BUF_OVERWRITE && !g->bug_fired && i == 0 &&
                    seq >= cfg->bug_at && seq > 0;
        uint32_t bi = reuse ? g->last_buf : g->free_list[g->nfree - 1];
        struct pktgen_buf *b = &g->bufs[bi];
        /* Off the free list before anything else: the completion side (on
         * another CPU) may return buffers while this one is being sent. */
        if (!reuse) {
            g->nfree--;
            g->is_free[bi] = 0;
        }
        b->seq = seq;
        plat_cpu_touch(g->plat, b->cpu + cfg->buf_offset, len, PLAT_WRITE);
        if (cfg->fill != NULL)
            cfg->fill(cfg->ctx, seq, b->cpu + cfg->buf_offset, len);

        b->pkt = (struct txq_pkt){
            .dma = b->dma + cfg->buf_offset,
            .len = (uint16_t)len,
            .cookie = b,
            .data = b->cpu + cfg->buf_offset,
        };
        if (txq_xmit(g->q, &b->pkt, more) != TXQ_OK) {
            if (!reuse) { /* not reached: checked above; give it back */
                g->is_free[bi] = 1;
                g->free_list[g->nfree++] = bi;
            }
            break;
        }
        g->bug_fired |= reuse;
        g->last_buf = bi;
        g->stats.sent++;
        len = next_len;
    }
    /* Coalesced tail writes go out when the source pauses or is done. */
    if (g->stats.sent == sent0 || g->stats.sent == cfg->count)
        txq_flush(g->q);
    plat_spin_unlock(g->plat, &g->q->xmit_lock);
    return (unsigned)(g->stats.sent - sent0);
}

/* A burst, flagged while it runs: a queue reset waits for it to end. */
static unsigned pktgen_burst(struct pktgen *g)
{
    if (g->q->resetting)
        return 0; /* frozen by a queue reset (netif_tx_disable) */
    g->in_burst = 1;
    unsigned n = pktgen_burst_locked(g);
    g->in_burst = 0;
    return n;
}

static int pktgen_all_back(const struct pktgen *g)
{
    return g->stats.sent == g->cfg.count && g->stats.completed == g->cfg.count;
}

enum pktgen_ret pktgen_send(struct pktgen *g)
{
    if (g->failed)
        return PKTGEN_ERROR;
    if (g->stats.sent == g->cfg.count)
        return PKTGEN_DONE;
    unsigned n = pktgen_burst(g);
    if (g->failed)
        return PKTGEN_ERROR;
    if (g->stats.sent == g->cfg.count)
        return PKTGEN_DONE;
    if (n == 0) {
        g->stats.blocked++;
        return PKTGEN_BLOCKED;
    }
    return PKTGEN_SENT;
}

enum pktgen_ret pktgen_step(struct pktgen *g)
{
    if (g->failed)
        return PKTGEN_ERROR;
    if (pktgen_all_back(g))
        return PKTGEN_DONE;

    unsigned n = pktgen_burst(g);
    unsigned reclaimed = txq_clean(g->q);

    if (pktgen_all_back(g))
        return PKTGEN_DONE;
    if (g->failed)
        return PKTGEN_ERROR;
    if (n == 0 && reclaimed == 0) {
        g->stats.blocked++;
        return PKTGEN_BLOCKED;
    }
    return PKTGEN_SENT;
}

void pktgen_get_stats(const struct pktgen *g, struct pktgen_stats *out)
{
    *out = g->stats;
}

void pktgen_destroy(struct pktgen *g)
{
    if (g == NULL)
        return;
    free(g->bufs);
    free(g->free_list);
    free(g->is_free);
    g->bufs = NULL;
    g->free_list = NULL;
    g->is_free = NULL;
    g->nbufs = 0;
    g->nfree = 0;
}
