/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stopchk.c - the stop/wake protocol checker (see stopchk.h).
 */
#include "check/stopchk.h"

#include <stdio.h>

#include "run/sim_world.h"

unsigned stopchk_queue(struct sim *s, const uint32_t *state)
{
    /* Queue 0's is in struct sim; queue q's in s->xq[q - 1], one struct
     * sim_queue after another (a marked load asks for every one). */
    if (s->nq > 1) {
        const uintptr_t p = (uintptr_t)state, x0 = (uintptr_t)&s->xq[0].txq.stopped;
        const size_t i = (size_t)(p - x0) / sizeof(s->xq[0]);
        if (p >= x0 && i + 1 < s->nq && &s->xq[i].txq.stopped == state)
            return (unsigned)i + 1;
    }
    return 0;
}

int stopchk_is_state(struct sim *s, const uint32_t *w)
{
    return s->nq > 0 && &sim_txq(s, stopchk_queue(s, w))->stopped == w;
}

/* The driver field at `p`, for a message: a struct txq's by name, other
 * driver state (a driver's own struct, kzalloc'd) by its place in its
 * block. */
static void stopchk_name(struct sim *s, const void *p, char *out, size_t n)
{
    for (unsigned q = 0; q < s->nq; q++) {
        const struct txq *x = sim_txq(s, q);
        if (p == &x->next_to_clean)
            snprintf(out, n, "next_to_clean");
        else if (p == &x->next_to_use)
            snprintf(out, n, "next_to_use");
        else if (p == &x->stopped)
            snprintf(out, n, "the queue state");
        else if ((const char *)p >= (const char *)x && (const char *)p < (const char *)(x + 1))
            snprintf(out, n, "txq+%zu", (size_t)((const char *)p - (const char *)x));
        else
            continue;
        return;
    }
    for (unsigned i = 0; i < s->nshr; i++) {
        const struct sim_shared *r = &s->shr[i];
        if ((uintptr_t)p >= r->lo && (uintptr_t)p < r->hi) {
            snprintf(out, n, "driver state +%zu of %zu B", (size_t)((uintptr_t)p - r->lo),
                     (size_t)(r->hi - r->lo));
            return;
        }
    }
    snprintf(out, n, "%p", p);
}

static void stopchk_learn(struct sim *s, const void *src)
{
    for (unsigned i = 0; i < s->nrecheck; i++)
        if (s->recheck[i] == src)
            return;
    if (s->nrecheck < STOPCHK_LOCS)
        s->recheck[s->nrecheck++] = src;
}

void stopchk_stop(struct sim_cpu *c, const uint32_t *state)
{
    c->stop_word = state;
    c->stop_t = c->cpu.now;
    c->stop_fenced = 0;
}

void stopchk_store(struct sim_cpu *c, const void *dst)
{
    for (unsigned i = 0; i < c->nunfenced; i++)
        if (c->unfenced[i] == dst)
            return;
    if (c->nunfenced < STOPCHK_LOCS)
        c->unfenced[c->nunfenced++] = dst;
}

void stopchk_mb(struct sim_cpu *c)
{
    c->nunfenced = 0;
    c->stop_fenced = 1;
}

void stopchk_load(struct sim_cpu *c, const void *src)
{
    struct sim *s = c->sim;
    char what[48], detail[280];

    if (c->stop_word == NULL || src == c->stop_word)
        return;
    stopchk_learn(s, src);
    if (!c->stop_fenced) {
        stopchk_name(s, src, what, sizeof(what));
        snprintf(detail, sizeof(detail),
                 "CPU %u stopped the queue at %.1f ns and re-read %s at %.1f ns with no "
                 "smp_mb() between: a cleanup can miss the stop and the re-check its room "
                 "(netif_tx_stop_queue(); smp_mb(); re-check)",
                 c->id, (double)c->stop_t / 1e3, what, (double)c->cpu.now / 1e3);
        sim_violation_at(s, stopchk_queue(s, c->stop_word), "stop_unordered", c->cpu.now, -1,
                         "re-check", detail);
    }
    c->stop_word = NULL;
}

static int stopchk_learnt(const struct sim *s, const void *p)
{
    for (unsigned i = 0; i < s->nrecheck; i++)
        if (s->recheck[i] == p)
            return 1;
    return 0;
}

void stopchk_load_plain(struct sim_cpu *c, const void *src)
{
    if (c->recheck_plain) { /* the rest of a plain re-check (both indices) */
        stopchk_learn(c->sim, src);
        return;
    }
    if (c->stop_word == NULL || src == c->stop_word)
        return;
    if (c->stop_fenced || stopchk_learnt(c->sim, src)) {
        c->recheck_plain = 1;
        stopchk_load(c, src);
    }
}

void stopchk_store_plain(struct sim_cpu *c, const void *dst)
{
    if (stopchk_learnt(c->sim, dst))
        stopchk_store(c, dst);
}

/* The CPU that stopped tests again with no shared load since. */
static void stopchk_no_recheck(struct sim_cpu *c)
{
    char detail[240];

    snprintf(detail, sizeof(detail),
             "CPU %u stopped the queue at %.1f ns and tested it again without re-reading "
             "the consumer index: room freed before the stop was visible wakes nothing "
             "(stop; smp_mb(); re-check; start it if room)",
             c->id, (double)c->stop_t / 1e3);
    sim_violation_at(c->sim, stopchk_queue(c->sim, c->stop_word), "stop_no_recheck",
                     c->cpu.now, -1, "queue test", detail);
    c->stop_word = NULL;
}

void stopchk_xmit_tested(struct sim_cpu *c, const uint32_t *state)
{
    if (c->stop_word == state)
        stopchk_no_recheck(c);
}

void stopchk_tested(struct sim_cpu *c, const uint32_t *state)
{
    struct sim *s = c->sim;
    char what[48], detail[280];

    if (c->stop_word == state) {
        stopchk_no_recheck(c);
        return;
    }
    for (unsigned i = 0; i < s->nrecheck; i++) {
        for (unsigned k = 0; k < c->nunfenced; k++) {
            if (c->unfenced[k] != s->recheck[i])
                continue;
            stopchk_name(s, s->recheck[i], what, sizeof(what));
            snprintf(detail, sizeof(detail),
                     "CPU %u tested the queue's state at %.1f ns with no smp_mb() since its "
                     "store to %s: a stopping transmit path can re-read the old value while "
                     "the test misses the stop (smp_mb() before the test)",
                     c->id, (double)c->cpu.now / 1e3, what);
            sim_violation_at(s, stopchk_queue(s, state), "wake_unordered", c->cpu.now, -1,
                             "queue test", detail);
            c->nunfenced = 0; /* once per store */
            return;
        }
    }
}
