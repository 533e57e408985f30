/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_sched.h - the transmit scheduler of the C model (docs/c-model.md),
 * cycle-exact at the ports of rtl/nictx_tx_sched.sv: which queue's head
 * descriptor leaves next, round robin or deficit round robin by bytes with
 * per-queue weights (docs/device.md, Queues), and its wait output.
 *
 * A clock: cm_sched_queue() names the candidate from the state and the
 * ready mask alone; the caller answers with that queue's head (len, bad)
 * and weight in struct cm_sched_in, as the engine's fetcher and register
 * block do; cm_sched_eval() gives this clock's outputs, cm_sched_clock()
 * takes the rising edge with the same inputs.  tests/rtl/test_tx_sched.cpp
 * runs it in lockstep with the RTL.
 */
#ifndef NICTX_CM_SCHED_H
#define NICTX_CM_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#define CM_SCHED_MAX_QUEUES 64u

struct cm_sched_in {
    bool multi;          /* QUEUES > 1 */
    bool drr;            /* SCHED DRR */
    uint32_t quantum;    /* DRR_QUANTUM, bytes (17 bits) */
    uint64_t rdy;        /* bit q: queue q's next descriptor is in the buffer */
    uint64_t backlog;    /* bit q: its ring holds descriptors not yet fetched */
    unsigned len;        /* the candidate's head: frame bytes (14 bits) */
    bool bad;            /* ... bad (costs 0) */
    unsigned weight;     /* the candidate's WEIGHT (8 bits) */
    bool take;           /* the candidate's head left */
    bool flush;          /* the fetcher takes the candidate's head back */
};

struct cm_sched_out {
    unsigned q;          /* the candidate queue */
    bool valid;          /* its head may leave */
    bool wait;           /* no state changes on this clock */
};

struct cm_sched {
    unsigned queues;     /* NumQueues: 1 or a power of two up to 64 */
    unsigned ptr, hq;    /* the next turn starts at ptr; hq: the held (RR) or serving (DRR) queue */
    bool hold, turn;     /* RR: a candidate offered, not taken; DRR: hq's turn is on */
    uint32_t def[CM_SCHED_MAX_QUEUES]; /* DRR deficits, bytes (26 bits) */
};

/* Reset a scheduler built for `queues` queues (1, or a power of two up to
 * 64).  Returns -1 (s untouched) for another count. */
int cm_sched_reset(struct cm_sched *s, unsigned queues);
/* The candidate queue this clock (needs in->multi, drr, rdy only). */
unsigned cm_sched_queue(const struct cm_sched *s, const struct cm_sched_in *in);
/* The candidate and whether its head may leave: cm_sched_eval()'s q and
 * valid alone (wait is left as it was; take and flush are not read). */
void cm_sched_head(const struct cm_sched *s, const struct cm_sched_in *in, struct cm_sched_out *out);
/* This clock's outputs; in->len, bad and weight are the candidate's. */
void cm_sched_eval(const struct cm_sched *s, const struct cm_sched_in *in, struct cm_sched_out *out);
/* The rising edge with these inputs. */
/* ... true when a DRR turn ended with the queue's deficit kept for its next
 * turn (its head costs more; a cover point, drr_carry). */
bool cm_sched_clock(struct cm_sched *s, const struct cm_sched_in *in);

#endif
