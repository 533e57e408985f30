/* SPDX-License-Identifier: Apache-2.0 */
/*
 * progress.c - a long run's progress on stderr (see progress.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "run/progress.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "run/sim_world.h"

static double progress_wall(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int progress_decide(int tty, const char *env, double *period_s)
{
    char *end;
    double v;

    *period_s = 1.0;
    if (!env || !*env)
        return tty;
    v = strtod(env, &end);
    if (*end != '\0' || !isfinite(v) || v <= 0.0)
        return 0; /* "0", or not a number: silent */
    *period_s = v;
    return 1;
}

void progress_format(char *buf, size_t n, const struct progress_sample *x, double rate_pps)
{
    double pct = x->total ? 100.0 * (double)x->checked / (double)x->total : 0.0;
    int k = snprintf(buf, n,
                     "nictx: %.3f ms simulated, %llu/%llu packets sent, %llu checked (%.1f%%)",
                     (double)x->sim_ps / 1e9, (unsigned long long)x->sent,
                     (unsigned long long)x->total, (unsigned long long)x->checked, pct);

    if (rate_pps >= 0.0 && k >= 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, ", %.0f packets/s", rate_pps);
}

static void progress_start(struct progress *p)
{
    p->tty = isatty(STDERR_FILENO);
    p->state = progress_decide(p->tty, getenv(PROGRESS_ENV), &p->period) ? 1 : -1;
    p->out = stderr;
    p->t_last = progress_wall();
}

static void progress_sample_sim(const struct sim *s, struct progress_sample *x)
{
    struct sb_result r;
    struct txq_stats ts;

    sb_result(s->sb, &r);
    txq_get_stats(&s->txq, &ts);
    x->total = s->cfg.packets;
    x->sent = ts.pkts;
    for (unsigned q = 1; q < s->nq; q++) /* the other queues' */
        x->sent += s->xq[q - 1].txq.st_pkts;
    x->checked = r.checked;
    x->sim_ps = s->now > s->t_measure0 ? s->now - s->t_measure0 : 0;
}

void progress_poll(struct progress *p, const struct sim *s)
{
    struct progress_sample x;
    char line[256];
    double now;

    p->countdown = PROGRESS_STEPS - 1;
    if (p->state == 0)
        progress_start(p);
    if (p->state < 0) {
        p->countdown = UINT32_MAX; /* silent: come back rarely, do nothing */
        return;
    }
    now = progress_wall();
    if (now - p->t_last < p->period)
        return;
    progress_sample_sim(s, &x);
    progress_format(line, sizeof(line), &x,
                    (double)(x.checked - p->checked_last) / (now - p->t_last));
    fprintf(p->out, p->tty ? "\r%s\033[K" : "%s\n", line);
    fflush(p->out);
    p->shown = 1;
    p->t_last = now;
    p->checked_last = x.checked;
}

void progress_end(struct progress *p)
{
    if (p->state > 0 && p->tty && p->shown) {
        fputs("\r\033[K", p->out);
        fflush(p->out);
    }
    p->shown = 0;
}
