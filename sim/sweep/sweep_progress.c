/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_progress.c - the progress line of a sweep on a terminal (see
 * sweep_progress.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "sweep/sweep_progress.h"

#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

double sweep_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void sweep_fmt_duration(double s, char *buf, size_t len)
{
    long t = (long)(s + 0.5);

    if (t >= 3600)
        snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60)
        snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(buf, len, "%lds", t);
}

void sweep_progress_start(struct sweep_progress *p, FILE *f, size_t total)
{
    p->f = f;
    p->on = isatty(fileno(f));
    p->total = total;
    p->done = p->failed = 0;
    p->t0 = sweep_now();
}

void sweep_progress_step(struct sweep_progress *p, int failed)
{
    p->done++;
    p->failed += failed != 0;
}

static int term_width(FILE *f)
{
    struct winsize ws;

    if (ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20)
        return ws.ws_col;
    return 80;
}

void sweep_progress_show(struct sweep_progress *p, const char *current)
{
    char line[512], fail[32] = "", eta[32] = "";
    int n, w;

    if (!p->on)
        return;
    if (p->failed)
        snprintf(fail, sizeof(fail), " %zu failed", p->failed);
    if (p->done > 0 && p->done < p->total) {
        double left = (sweep_now() - p->t0) / (double)p->done * (double)(p->total - p->done);
        memcpy(eta, "  ETA ", 7);
        sweep_fmt_duration(left, eta + 6, sizeof(eta) - 6);
    }
    n = snprintf(line, sizeof(line), "[%zu/%zu]%s%s  %s", p->done, p->total, fail, eta,
                 current);
    w = term_width(p->f) - 1;
    fprintf(p->f, "\r\033[K%.*s", n < w ? n : w, line);
    fflush(p->f);
}

void sweep_progress_end(struct sweep_progress *p)
{
    if (!p->on)
        return;
    fprintf(p->f, "\r\033[K");
    fflush(p->f);
}
