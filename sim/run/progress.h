/* SPDX-License-Identifier: Apache-2.0 */
/*
 * progress.h - a long run's progress, once a second of wall time, on
 * stderr: packets the driver sent, frames checked on the wire, simulated
 * time and the wall rate in packets per second.
 *
 * When it speaks: on a terminal (stderr is a tty), a status line rewritten
 * in place and cleared when the run ends; otherwise nothing.  The variable
 * NICTX_PROGRESS overrides that: "0" silences it, a number of seconds S > 0
 * prints a line every S seconds even to a file or pipe (one line each,
 * newline-terminated).  It changes nothing in the run and its results.
 *
 * Cost: progress_tick() is a decrement and a branch; the wall clock is read
 * every PROGRESS_STEPS ticks (well under a millisecond of simulation), the
 * line formatted only when it is due.
 *
 * Contract: struct progress is zeroed by its owner (struct sim is); the
 * first tick decides whether it speaks.  The event loop ticks it once per
 * step and calls progress_end() when the run is over.  No global state.
 */
#ifndef NICTX_PROGRESS_H
#define NICTX_PROGRESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/simtime.h"

#define PROGRESS_ENV "NICTX_PROGRESS"
#define PROGRESS_STEPS 16384u

struct sim;

/* What a line says. */
struct progress_sample {
    uint64_t total;   /* packets the run sends */
    uint64_t sent;    /* packets the driver has posted */
    uint64_t checked; /* frames checked good on the wire */
    sim_ps_t sim_ps;  /* simulated time */
};

struct progress {
    int state;          /* 0: undecided, 1: on, -1: off */
    int tty;            /* rewrite one line in place */
    FILE *out;
    uint32_t countdown; /* ticks until the clock is read again */
    double period;      /* seconds between lines */
    double t_last;      /* wall time of the last line (or the start) */
    uint64_t checked_last;
    int shown;          /* a line is on the terminal */
};

void progress_poll(struct progress *p, const struct sim *s);

/* Once per event-loop step. */
static inline void progress_tick(struct progress *p, const struct sim *s)
{
    if (p->countdown-- == 0)
        progress_poll(p, s);
}

/* The run is over: clear the terminal's status line. */
void progress_end(struct progress *p);

/* Decide: out is a terminal (tty), what NICTX_PROGRESS says (env, NULL if
 * unset).  1 and the period in *period_s when it speaks, 0 when silent. */
int progress_decide(int tty, const char *env, double *period_s);

/* The line (no newline): "nictx: 1.234 ms simulated, 1000/2000 packets
 * sent, 990 checked (49.5%), 195000 packets/s".  rate_pps < 0: not shown. */
void progress_format(char *buf, size_t n, const struct progress_sample *x, double rate_pps);

#endif /* NICTX_PROGRESS_H */
