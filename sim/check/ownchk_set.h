/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ownchk_set.h - the ownership checkers of a run: one per queue, each event
 * routed to its queue's.
 *
 * A set (struct ownchk_set) holds one checker (sim/check/ownchk.h) per queue in
 * use and routes each event to its queue's checker: a register write by its
 * queue block (txq_reg.h; the device-wide PROTO, CTRL and CPL_MODE go to
 * every checker), a CPU store or a descriptor read by the ring it falls
 * in, a device write by the queue's head writeback word, ring (DD) or
 * completion queue (CQE), a payload write by the queue whose device-owned
 * buffer covers the line.  With one queue each event goes straight to the
 * checker; with several an address is found by binary search in a table of
 * the queues' rings, completion queues and writeback words (rebuilt after
 * a configuration write), so no event scans the queues.  The BAR0
 * write-combining window is device-wide: its events go to queue 0's
 * checker.  The set also tells its caller which queues' count of
 * published descriptors moved (pub_moved).
 * No global state.
 */
#ifndef NICTX_OWNCHK_SET_H
#define NICTX_OWNCHK_SET_H

#include "check/ownchk.h"

enum { OWNCHK_ROUTE_RING, OWNCHK_ROUTE_CQ, OWNCHK_ROUTE_WB };

/* Where a queue's ring, completion queue or writeback word is in memory. */
struct ownchk_route {
    uint64_t lo, hi;        /* [lo, hi) */
    unsigned q, what;       /* queue, OWNCHK_ROUTE_* */
};

struct ownchk_set {
    struct ownchk *q;       /* queue i's checker: q[i], i < n */
    unsigned n;
    struct ownchk_bufs bufs; /* shared by the n checkers */
    struct ownchk_route *route; /* by lo; up to 3 a queue */
    unsigned nroute;
    unsigned last;          /* the entry found last (tried first) */
    int stale;              /* a configuration write since the table was built */
    uint64_t pub_moved;     /* bit q: queue q's `published` moved (the caller clears it) */
    uint64_t may_owe;       /* bit q: queue q's done may have moved past its unmap_next (set
                             * where done may move: a head report; cleared once level) */
};

/* n checkers (1..64), queue i's reporting queue i.  0, or -1: no memory. */
int ownchk_set_init(struct ownchk_set *s, unsigned n, const struct host_mem *mem,
                    ownchk_report_fn report, void *ctx);
void ownchk_set_destroy(struct ownchk_set *s);

/* An MMIO write left the CPU at t (any BAR0 offset: a queue block, the
 * register page).  Reports name the offset written; with one queue, queue
 * 0's block registers by their register-page name (as they always were). */
void ownchk_set_mmio(struct ownchk_set *s, uint32_t off, uint64_t val, unsigned len,
                     sim_ps_t t);
/* The CPU read `val` from BAR0 `off` at t: a queue's HEAD completes slots. */
void ownchk_set_mmio_read(struct ownchk_set *s, uint32_t off, uint32_t val, sim_ps_t t);

/* Several queues: the route of an event (the inline calls below). */
void ownchk_set_store_mq(struct ownchk_set *s, uint64_t addr, const void *data, unsigned len,
                         sim_ps_t t, sim_ps_t vis);
void ownchk_set_touch_mq(struct ownchk_set *s, uint64_t addr, size_t len, sim_ps_t t,
                         int unmap);
int ownchk_set_desc_read_mq(struct ownchk_set *s, uint64_t addr, unsigned len, sim_ps_t t,
                            const struct stbuf *const *sb, unsigned nsb);
void ownchk_set_dev_write_mq(struct ownchk_set *s, uint64_t addr, const void *data,
                             unsigned len, sim_ps_t t);

/* As ownchk_store, _touch, _desc_read and _dev_write, for the queue whose
 * ring (payload buffer, ring, ring / CQ / writeback word) the address is
 * in. */
static inline void ownchk_set_store(struct ownchk_set *s, uint64_t addr, const void *data,
                                    unsigned len, sim_ps_t t, sim_ps_t vis)
{
    if (s->n == 1)
        ownchk_store(s->q, addr, data, len, t, vis);
    else
        ownchk_set_store_mq(s, addr, data, len, t, vis);
}

static inline void ownchk_set_touch(struct ownchk_set *s, uint64_t addr, size_t len, sim_ps_t t)
{
    if (s->n == 1)
        ownchk_touch(s->q, addr, len, t);
    else
        ownchk_set_touch_mq(s, addr, len, t, 0);
}

/* As ownchk_unmap, for the queue whose payload buffer it is. */
static inline void ownchk_set_unmap(struct ownchk_set *s, uint64_t addr, size_t len, sim_ps_t t)
{
    if (s->n == 1) {
        ownchk_unmap(s->q, addr, len, t);
        return;
    }
    /* A completed slot's first, as ownchk_unmap, in queue order; only the
     * queues that may owe one are looked at. */
    for (uint64_t m = s->may_owe; m != 0; m &= m - 1) {
        const unsigned q = (unsigned)__builtin_ctzll(m);
        if (s->q[q].unmap_next == s->q[q].done)
            s->may_owe &= ~(1ull << q);
        else if (ownchk_unmap_completed(&s->q[q], addr))
            return;
    }
    ownchk_set_touch_mq(s, addr, len, t, 1);
}

/* The queue whose ring the read was in, or -1. */
static inline int ownchk_set_desc_read(struct ownchk_set *s, uint64_t addr, unsigned len,
                                       sim_ps_t t, const struct stbuf *const *sb, unsigned nsb)
{
    if (s->n == 1)
        return ownchk_desc_read(s->q, addr, len, t, sb, nsb);
    return ownchk_set_desc_read_mq(s, addr, len, t, sb, nsb);
}

static inline void ownchk_set_dev_write(struct ownchk_set *s, uint64_t addr, const void *data,
                                        unsigned len, sim_ps_t t)
{
    if (s->n == 1)
        ownchk_dev_write(s->q, addr, data, len, t);
    else
        ownchk_set_dev_write_mq(s, addr, data, len, t);
}

#endif /* NICTX_OWNCHK_SET_H */
