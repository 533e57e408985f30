/* SPDX-License-Identifier: Apache-2.0 */
/* ownchk_set.c - one ownership checker per queue, events routed to their
 * queue's (sim/check/ownchk_set.h). */
#include "check/ownchk_set.h"

#include <stdlib.h>
#include <string.h>

#include "nictx_hw.h"
#include "txq_reg.h"

int ownchk_set_init(struct ownchk_set *s, unsigned n, const struct host_mem *mem,
                    ownchk_report_fn report, void *ctx)
{
    memset(s, 0, sizeof(*s));
    if (n == 0 || n > NICTX_Q_MAX)
        return -1;
    s->q = calloc(n, sizeof(*s->q));
    s->route = calloc(3u * n, sizeof(*s->route));
    if (!s->q || !s->route) {
        free(s->q);
        free(s->route);
        s->q = NULL;
        s->route = NULL;
        return -1;
    }
    s->n = n;
    s->bufs.tagged = n > 1;
    for (unsigned i = 0; i < n; i++) {
        ownchk_init(&s->q[i], mem, report, ctx);
        s->q[i].id = i;
        s->q[i].bufs = &s->bufs;
        s->q[i].pub_moved = &s->pub_moved;
    }
    s->stale = 1;
    return 0;
}

void ownchk_set_destroy(struct ownchk_set *s)
{
    for (unsigned i = 0; s->q && i < s->n; i++)
        ownchk_destroy(&s->q[i]);
    ownchk_bufs_free(&s->bufs);
    free(s->q);
    free(s->route);
    s->q = NULL;
    s->route = NULL;
    s->n = 0;
}

/* The device-wide registers a checker follows. */
static int ownchk_set_global(uint32_t off)
{
    return off == NICTX_REG_CTRL || off == NICTX_REG_PROTO || off == NICTX_REG_CPL_MODE;
}

void ownchk_set_mmio(struct ownchk_set *s, uint32_t off, uint64_t val, unsigned len,
                     sim_ps_t t)
{
    unsigned q = 0;
    uint32_t r = 0, name;
    int qreg = txq_reg_decode(off, &q, &r);

    if (s->n == 1) { /* queue 0 only, by its register-page names */
        if (!qreg || q == 0)
            ownchk_mmio(s->q, qreg ? txq_reg_legacy(r) : off, val, len, t);
        return;
    }
    if (qreg) {
        name = txq_reg_legacy(r);
        if (q >= s->n || name == TXQ_REG_NONE)
            return;
        if (name != NICTX_REG_TAIL)
            s->stale = 1;
        ownchk_mmio_as(&s->q[q], name, off, val, len, t);
    } else if (ownchk_set_global(off) || (len == 8 && ownchk_set_global(off + 4))) {
        s->stale = 1;
        for (q = 0; q < s->n; q++)
            ownchk_mmio(&s->q[q], off, val, len, t);
    }
}

void ownchk_set_mmio_read(struct ownchk_set *s, uint32_t off, uint32_t val, sim_ps_t t)
{
    unsigned q;
    uint32_t r;

    if (txq_reg_decode(off, &q, &r) && q < s->n && r == NICTX_QREG_HEAD) {
        ownchk_head(&s->q[q], val, t);
        s->may_owe |= 1ull << q;
    }
}

static int ownchk_route_cmp(const void *a, const void *b)
{
    const struct ownchk_route *x = a, *y = b;

    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The table of where each queue's ring, CQ and writeback word are. */
static void ownchk_set_build(struct ownchk_set *s)
{
    unsigned n = 0;

    for (unsigned i = 0; i < s->n; i++) {
        const struct ownchk *c = &s->q[i];
        if (c->size)
            s->route[n++] = (struct ownchk_route){
                c->ring_base, c->ring_base + (uint64_t)c->size * NICTX_DESC_BYTES, i,
                OWNCHK_ROUTE_RING};
        if (c->cpl_mode == NICTX_CPL_MODE_CQ)
            s->route[n++] = (struct ownchk_route){
                c->cq_base, c->cq_base + ((uint64_t)NICTX_CQE_BYTES << c->cq_log2), i,
                OWNCHK_ROUTE_CQ};
        if (c->wb_addr)
            s->route[n++] = (struct ownchk_route){c->wb_addr, c->wb_addr + 4, i,
                                                  OWNCHK_ROUTE_WB};
    }
    qsort(s->route, n, sizeof(*s->route), ownchk_route_cmp);
    s->nroute = n;
    s->last = 0;
    s->stale = 0;
}

/* The entry whose range holds addr, or NULL: the last one found, else a
 * binary search (the latest entry starting at or before addr). */
static const struct ownchk_route *ownchk_set_find(struct ownchk_set *s, uint64_t addr)
{
    const struct ownchk_route *e;
    unsigned lo = 0, hi;

    if (s->stale)
        ownchk_set_build(s);
    if (s->nroute == 0)
        return NULL;
    e = &s->route[s->last];
    if (addr >= e->lo && addr < e->hi)
        return e;
    hi = s->nroute;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (s->route[mid].lo <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || addr >= s->route[lo - 1].hi)
        return NULL;
    s->last = lo - 1;
    return &s->route[lo - 1];
}

void ownchk_set_store_mq(struct ownchk_set *s, uint64_t addr, const void *data, unsigned len,
                         sim_ps_t t, sim_ps_t vis)
{
    const struct ownchk_route *e = ownchk_set_find(s, addr);

    if (e && e->what == OWNCHK_ROUTE_RING)
        ownchk_store(&s->q[e->q], addr, data, len, t, vis);
}

int ownchk_set_desc_read_mq(struct ownchk_set *s, uint64_t addr, unsigned len, sim_ps_t t,
                            const struct stbuf *const *sb, unsigned nsb)
{
    const struct ownchk_route *e = ownchk_set_find(s, addr);

    if (e && e->what == OWNCHK_ROUTE_RING && ownchk_desc_read(&s->q[e->q], addr, len, t, sb, nsb) == 0)
        return (int)e->q;
    return -1;
}

void ownchk_set_dev_write_mq(struct ownchk_set *s, uint64_t addr, const void *data,
                             unsigned len, sim_ps_t t)
{
    const struct ownchk_route *e = ownchk_set_find(s, addr);

    if (e) {
        ownchk_dev_write(&s->q[e->q], addr, data, len, t);
        s->may_owe |= 1ull << e->q; /* a head report: done may move */
    }
}

void ownchk_set_touch_mq(struct ownchk_set *s, uint64_t addr, size_t len, sim_ps_t t,
                         int unmap)
{
    const struct ownchk_bufs *b = &s->bufs;
    uint64_t base = s->q[0].mem->base, l, end, seen = 0;

    if (!b->refs || !b->queue || len == 0 || addr < base || addr - base >= b->nlines * 64)
        return;
    end = (addr - base + len + 63) / 64;
    /* Each owned line names the queue whose buffer covers it: that queue's
     * checker finds the slot (a line of several queues': every checker). */
    for (l = (addr - base) / 64; l < end && l < b->nlines; l++) {
        unsigned q = b->queue[l];
        if (!b->refs[l])
            continue;
        if (q == OWNCHK_BUF_MIXED) {
            for (q = 0; q < s->n; q++)
                if (ownchk_touch_slot(&s->q[q], addr, len, t, unmap))
                    return;
            return;
        }
        if (q < s->n && !(seen & (1ull << q))) {
            seen |= 1ull << q;
            if (ownchk_touch_slot(&s->q[q], addr, len, t, unmap))
                return;
        }
    }
}
