/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tlp_queue.h - a FIFO of timed TLPs.
 *
 * Holds TLPs that become due at a time (an MMIO write the CPU issued at its
 * own clock, a DMA read completion ready after the memory latency).  Times
 * pushed must not decrease, so the oldest entry is also the earliest.  The
 * ring grows by doubling when full and never shrinks, so steady state does
 * no allocation.  Entries are whole struct tlp (4 KiB of data room each).
 */
#ifndef NICTX_TLP_QUEUE_H
#define NICTX_TLP_QUEUE_H

#include <stddef.h>

#include "lib/simtime.h"
#include "pcie/tlp.h"

struct tlpq_entry {
    sim_ps_t t;
    struct tlp tlp;
};

struct tlpq {
    struct tlpq_entry *ring;
    size_t cap, head, count;
};

/* 0, or -1 on allocation failure. */
int tlpq_init(struct tlpq *q, size_t cap);
void tlpq_destroy(struct tlpq *q);
/* Slot for a new entry at time t (t >= the newest entry's); the caller
 * fills in the TLP.  NULL on allocation failure. */
struct tlp *tlpq_push(struct tlpq *q, sim_ps_t t);
/* Time of the oldest entry, SIM_PS_NEVER when empty (inline: the harness
 * asks on every device clock). */
static inline sim_ps_t tlpq_next(const struct tlpq *q)
{
    return q->count ? q->ring[q->head].t : SIM_PS_NEVER;
}
const struct tlp *tlpq_peek(const struct tlpq *q);
void tlpq_pop(struct tlpq *q);

#endif /* NICTX_TLP_QUEUE_H */
