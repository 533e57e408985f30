/* SPDX-License-Identifier: Apache-2.0 */
/*
 * violation.c - a run's violations: what the checkers, the root complex
 * and the end-of-run reads found, kept in order (the first SIM_MAX_VIOLATIONS
 * in full, all counted).  The first one starts the grace period after which
 * the run ends (--grace-us), so that its consequences still show.
 */
#include <stdarg.h>
#include <stdio.h>

#include "nictx_hw.h"
#include "run/sim_world.h"

void sim_violation_at(void *ctx, unsigned queue, const char *kind, sim_ps_t t, long desc,
                      const char *access, const char *detail)
{
    struct sim *s = ctx;

    if (s->nviol < SIM_MAX_VIOLATIONS) {
        struct sim_violation *v = &s->viol[s->nviol];
        v->kind = kind;
        v->time_ps = t;
        v->queue = queue;
        v->desc = desc;
        snprintf(v->access, sizeof(v->access), "%s", access);
        snprintf(v->detail, sizeof(v->detail), "%s", detail);
    }
    if (s->obs)
        obs_violation(s->obs, t, queue, kind,
                      s->nviol < SIM_MAX_VIOLATIONS ? s->viol[s->nviol].detail : NULL);
    /* The first violation starts the grace period: its consequences (a
     * stale read, a corrupted frame) still show, then the run ends. */
    if (s->nviol++ == 0)
        s->stop_at = (t > s->now ? t : s->now) + sim_ns_to_ps(s->cfg.grace_us * 1000.0);
}

/* A device-wide violation's queue: none with several queues, 0 with one
 * (as the JSON always showed). */
unsigned sim_no_queue(const struct sim *s)
{
    return s->nq > 1 ? OWNCHK_QUEUE_NONE : 0;
}

void sim_violation(struct sim *s, const char *kind, const char *fmt, ...)
{
    char detail[sizeof(s->viol[0].detail)];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    sim_violation_at(s, sim_no_queue(s), kind, s->now, -1, "", detail);
}

void sim_device_error(struct sim *s, uint32_t err, const char *when)
{
    sim_violation(s, "device_error", "ERR register 0x%x %s%s%s%s%s%s%s%s%s", err, when,
                  err & NICTX_ERR_TAIL_RANGE ? ": tail beyond the ring" : "",
                  err & NICTX_ERR_BAD_DESC ? ": descriptor with a bad length" : "",
                  err & NICTX_ERR_BAD_ACCESS ? ": bad MMIO access" : "",
                  err & NICTX_ERR_DMA ? ": DMA read error, queue stopped" : "",
                  err & NICTX_ERR_DB_OFF ? ": doorbell while disabled" : "",
                  err & NICTX_ERR_CFG ? ": configuration change refused" : "",
                  err & NICTX_ERR_CPL_TIMEOUT ? ": completion timeout, queue stopped" : "",
                  err & NICTX_ERR_UNEXP_CPL ? ": unexpected completion" : "");
}
