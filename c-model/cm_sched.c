/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_sched.c - the transmit scheduler of the C model (cm_sched.h), after
 * the rules in rtl/nictx_tx_sched.sv's header and docs/device.md (Queues).
 */
#include "cm_sched.h"
#include "cm_rr_pick.h"

#define CM_DEF_MASK ((1u << 26) - 1)      /* the deficit's 26 bits */
#define CM_KEEP_MAX (1u << 25)            /* a deficit kept while the fetcher starves a queue */

/* The state after the edge, and whether a deficit is written. */
struct cm_sched_next {
    unsigned ptr, hq;
    bool hold, turn;
    bool def_we;
    uint32_t def_wd;
};

int cm_sched_reset(struct cm_sched *s, unsigned queues)
{
    if (queues == 0 || queues > CM_SCHED_MAX_QUEUES || (queues & (queues - 1)) != 0)
        return -1;
    *s = (struct cm_sched){.queues = queues};
    return 0;
}

static bool bit(uint64_t m, unsigned q)
{
    return (m >> q & 1u) != 0;
}


unsigned cm_sched_queue(const struct cm_sched *s, const struct cm_sched_in *in)
{
    if (!in->multi)
        return 0;
    if (in->drr ? s->turn : s->hold)
        return s->hq;
    return cm_rr_pick(in->rdy, s->ptr);
}

/* DRR: the candidate's deficit this clock (raised by its quantum when its
 * turn starts) and its head's cost. */
static uint32_t cm_sched_def(const struct cm_sched *s, const struct cm_sched_in *in, unsigned q)
{
    uint32_t d = s->def[q];
    if (!s->turn)
        d += in->weight * in->quantum;
    return d & CM_DEF_MASK;
}

static unsigned cm_sched_cost(const struct cm_sched_in *in)
{
    return in->bad ? 0 : in->len;
}

static bool cm_sched_valid(const struct cm_sched *s, const struct cm_sched_in *in, unsigned q)
{
    if (!in->multi)
        return bit(in->rdy, 0);
    if (!in->drr)
        return bit(in->rdy, q);
    return bit(in->rdy, q) && cm_sched_cost(in) <= cm_sched_def(s, in, q);
}

/* DRR: what a clock of a turn (or of a pick) writes, and where the turn goes. */
static void cm_sched_drr(const struct cm_sched *s, const struct cm_sched_in *in, unsigned q,
                         bool valid, struct cm_sched_next *n)
{
    uint32_t def = cm_sched_def(s, in, q);

    n->def_we = true;
    n->hq = q;
    if (valid && !in->flush) { /* the turn goes on; a head that left pays */
        n->turn = true;
        n->def_wd = in->take ? (def - cm_sched_cost(in)) & CM_DEF_MASK : def;
        return;
    }
    /* The turn ends: the head costs more (kept), empty (gone), or still
     * being fetched or taken back (kept, saturating; a starting turn keeps
     * what it had, without its quantum). */
    n->turn = false;
    if (bit(in->rdy, q) && !in->flush)
        n->def_wd = def;
    else if (!bit(in->backlog, q))
        n->def_wd = 0;
    else if (!s->turn)
        n->def_wd = s->def[q];
    else
        n->def_wd = def > CM_KEEP_MAX ? CM_KEEP_MAX : def;
    n->ptr = (q + 1) & (s->queues - 1); /* queues: a power of two */
}

static void cm_sched_next(const struct cm_sched *s, const struct cm_sched_in *in, unsigned q,
                          bool valid, struct cm_sched_next *n)
{
    *n = (struct cm_sched_next){.ptr = s->ptr, .hq = s->hq, .hold = s->hold, .turn = s->turn};
    if (!in->drr) {
        n->hold = valid && !in->take && !in->flush;
        n->hq = q;
        if (valid && in->take)
            n->ptr = (q + 1) & (s->queues - 1); /* queues: a power of two */
    } else if (s->turn || in->rdy != 0) {
        cm_sched_drr(s, in, q, valid, n);
    }
}

void cm_sched_head(const struct cm_sched *s, const struct cm_sched_in *in, struct cm_sched_out *out)
{
    out->q = cm_sched_queue(s, in);
    out->valid = cm_sched_valid(s, in, out->q);
}

void cm_sched_eval(const struct cm_sched *s, const struct cm_sched_in *in, struct cm_sched_out *out)
{
    struct cm_sched_next n;

    cm_sched_head(s, in, out);
    if (!in->multi) { /* one queue: only the hold flag moves (to 0) */
        out->wait = !s->hold;
        return;
    }
    cm_sched_next(s, in, out->q, out->valid, &n);
    out->wait = !n.def_we && n.ptr == s->ptr && n.hold == s->hold && n.hq == s->hq &&
                n.turn == s->turn;
}

bool cm_sched_clock(struct cm_sched *s, const struct cm_sched_in *in)
{
    struct cm_sched_next n;
    unsigned q = cm_sched_queue(s, in);

    if (!in->multi) {
        s->hold = false;
        return false;
    }
    cm_sched_next(s, in, q, cm_sched_valid(s, in, q), &n);
    s->ptr = n.ptr;
    s->hq = n.hq;
    s->hold = n.hold;
    s->turn = n.turn;
    if (n.def_we)
        s->def[n.hq] = n.def_wd;
    return in->drr && n.def_we && !n.turn && bit(in->rdy, q) && !in->flush && n.def_wd != 0;
}
