/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_arbiter_rr.h - rtl/prim_arbiter_rr.sv in the C model
 * (docs/c-model.md): a round-robin arbiter of n <= 32 requesters.
 *
 * As the RTL's: the grant depends on the requests and the priority pointer
 * only, never on ready; the pointer moves past the winner when the grant is
 * accepted (ready), so a held request keeps its grant.
 */
#ifndef NICTX_CM_ARBITER_RR_H
#define NICTX_CM_ARBITER_RR_H

#include <stdbool.h>
#include <stdint.h>

struct cm_arbiter_rr {
    unsigned n;    /* requesters, 2..32 */
    unsigned prio; /* the requester with the highest priority */
};

static inline void cm_arbiter_rr_reset(struct cm_arbiter_rr *a, unsigned n)
{
    a->n = n;
    a->prio = 0;
}

/* The winner among the requests `req` (bit i: requester i), or -1 for
 * none. */
static inline int cm_arbiter_rr_pick(const struct cm_arbiter_rr *a, uint32_t req)
{
    if (req == 0)
        return -1;
    for (unsigned k = 0, i = a->prio; k < a->n; k++, i = i + 1 == a->n ? 0 : i + 1)
        if (req >> i & 1u)
            return (int)i;
    return -1;
}

/* The rising edge: `winner` (cm_arbiter_rr_pick's) was accepted if ready. */
static inline void cm_arbiter_rr_clock(struct cm_arbiter_rr *a, int winner, bool ready)
{
    if (winner >= 0 && ready)
        a->prio = (unsigned)winner + 1 == a->n ? 0 : (unsigned)winner + 1;
}

#endif
