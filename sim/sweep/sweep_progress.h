/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_progress.h - a sweep's progress line on a terminal: points done of
 * total, failures, the estimated time left and the current point.
 *
 * Contract: only when the stream is a terminal is anything written (one
 * line redrawn in place, cut to the terminal's width); otherwise every
 * call is silent, so logs and pipes stay clean.  sweep_progress_end clears
 * the line.  The ETA is the mean wall time per point done so far times the
 * points left (shown once a point is done).  No global state.
 */
#ifndef NICTX_SWEEP_PROGRESS_H
#define NICTX_SWEEP_PROGRESS_H

#include <stddef.h>
#include <stdio.h>

struct sweep_progress {
    FILE *f;
    int on;         /* f is a terminal */
    size_t total;   /* points to run */
    size_t done;    /* points finished */
    size_t failed;  /* of which failed */
    double t0;      /* monotonic seconds at the start */
};

void sweep_progress_start(struct sweep_progress *p, FILE *f, size_t total);
/* One more point finished (failed: its run did not exit 0). */
void sweep_progress_step(struct sweep_progress *p, int failed);
/* Redraw the line naming the current point. */
void sweep_progress_show(struct sweep_progress *p, const char *current);
void sweep_progress_end(struct sweep_progress *p);

/* Monotonic seconds. */
double sweep_now(void);
/* "1h02m", "3m05s", "12s" into buf. */
void sweep_fmt_duration(double s, char *buf, size_t len);

#endif /* NICTX_SWEEP_PROGRESS_H */
