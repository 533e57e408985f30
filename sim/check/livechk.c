/* SPDX-License-Identifier: Apache-2.0 */
/*
 * livechk.c - stuck-queue diagnosis (see livechk.h).
 */
#include "check/livechk.h"

#include <stdio.h>

#include "netdev.h"
#include "run/sim_world.h"

/* How long a stuck state must last before it is named. */
static sim_ps_t live_stuck_ps(const struct sim *s)
{
    double us = s->to.tx_us > 0 ? s->to.tx_us / 2 : s->to.watchdog_us / 4;

    return sim_ns_to_ps(us * 1000.0);
}

/* Queue q is stopped with nothing in flight, and has been for `stuck`. */
static int live_lost_wakeup(struct sim *s, unsigned q, sim_ps_t now, sim_ps_t stuck)
{
    const struct txq *x = sim_txq(s, q);
    char detail[320];

    if (!txq_stopped(x) || x->resetting || txq_in_flight(x) != 0 ||
        sim_ns_to_ps((double)x->progress_ns) + stuck > now)
        return 0;
    unsigned bql_bytes = x->dql.num_queued - x->dql.num_completed;
    if (!(x->stopped & 1u << NETDEV_XOFF_DRV) && bql_bytes != 0) {
        snprintf(detail, sizeof(detail),
                 "queue %u stopped by BQL with an empty ring, BQL still counting %u bytes in "
                 "flight: netdev_tx_completed_queue() was given fewer bytes than "
                 "netdev_tx_sent_queue() (or no netdev_tx_reset_queue() after a reset)",
                 q, bql_bytes);
        sim_violation_at(s, q, "bql_unbalanced", now, -1, "queue stopped", detail);
        return 1;
    }
    snprintf(detail, sizeof(detail),
             "queue %u stopped (%s) with nothing in flight and %u descriptors free, for %.1f "
             "us: a lost wakeup, nothing will wake it (the cleanup's wake test missed the "
             "stop: Linux stops, smp_mb(), re-checks; the cleanup does smp_mb() before it "
             "tests netif_tx_queue_stopped())",
             q, x->stopped & 1u << NETDEV_XOFF_DRV ? "ring full" : "BQL limit", txq_free(x),
             (double)(now - sim_ns_to_ps((double)x->progress_ns)) / 1e6);
    sim_violation_at(s, q, "lost_wakeup", now, -1, "queue stopped", detail);
    return 1;
}

/* Queue q's driver holds descriptors the device completed `stuck` ago,
 * and every one it wrote has completed. */
static int live_unreclaimed(struct sim *s, unsigned q, sim_ps_t now, sim_ps_t stuck)
{
    const struct txq *x = sim_txq(s, q);
    sim_ps_t since;
    char detail[240];

    if (txq_in_flight(x) == 0 || x->resetting || !ownchk_all_completed(&s->ck.q[q], &since) ||
        since + stuck > now)
        return 0;
    snprintf(detail, sizeof(detail),
             "the device completed every descriptor of queue %u by %.1f us, but %.1f us later "
             "the driver still counts %u in flight (next_to_clean %u): its cleanup does not "
             "reclaim what completed", q, (double)since / 1e6, (double)(now - since) / 1e6,
             txq_in_flight(x), x->next_to_clean);
    sim_violation_at(s, q, "completion_unreclaimed", now, -1, "queue stuck", detail);
    return 1;
}

/* Name what each queue not named yet is stuck in, once it has been for
 * `stuck`. */
static void live_check_at(struct sim *s, sim_ps_t now, sim_ps_t stuck)
{
    for (unsigned q = 0; q < s->nq; q++) {
        uint64_t bit = 1ull << q;
        if (s->live_reported & bit)
            continue;
        if (live_lost_wakeup(s, q, now, stuck) || ownchk_unpublished(&s->ck.q[q], now, stuck) ||
            ownchk_unannounced(&s->ck.q[q], now, stuck) || live_unreclaimed(s, q, now, stuck))
            s->live_reported |= bit;
    }
}

void sim_live_check(struct sim_cpu *c)
{
    live_check_at(c->sim, c->cpu.now, live_stuck_ps(c->sim));
}

void sim_live_diagnose(struct sim *s)
{
    live_check_at(s, s->now, 0);
}

void sim_live_final(struct sim *s)
{
    for (unsigned q = 0; q < s->nq; q++) {
        const struct txq *x = sim_txq(s, q);
        unsigned bql_bytes = x->dql.num_queued - x->dql.num_completed;
        char detail[240];
        if (!x->bql || txq_in_flight(x) != 0 || bql_bytes == 0 || (s->live_reported >> q & 1))
            continue;
        snprintf(detail, sizeof(detail),
                 "queue %u's ring is empty at the end of the run, but BQL still counts %u bytes "
                 "in flight: netdev_tx_completed_queue() was given fewer bytes than "
                 "netdev_tx_sent_queue()", q, bql_bytes);
        sim_violation_at(s, q, "bql_unbalanced", s->now, -1, "end of run", detail);
    }
}
