/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_pareto.h - co-design over a sweep's points (docs/codesign.md): the
 * Pareto front of throughput against area, and the cheapest point that
 * meets a target ("mpps>=148.8").
 *
 * Contract: pure functions over arrays; NaN marks a point without the
 * figure (never on the front, never picked).  No global state.
 */
#ifndef NICTX_SWEEP_PARETO_H
#define NICTX_SWEEP_PARETO_H

#include <stddef.h>

/* front[i] = 1 when no other point costs no more and performs no worse,
 * one of the two strictly (its figures both numbers); else 0.  Returns the
 * points on the front. */
size_t sweep_pareto(const double *cost, const double *perf, size_t n, unsigned char *front);

/* A target: COLUMN OP VALUE, OP one of >= <= > < (no blanks needed). */
struct sweep_target {
    char col[128];
    char op[3];
    double value;
};

/* Parse "mpps>=148.8": 0, or -1 with a message. */
int sweep_target_parse(const char *text, struct sweep_target *t, char *err, size_t n);
/* 1 if v meets the target. */
int sweep_target_met(const struct sweep_target *t, double v);
/* The cheapest point whose val meets the target (ties: the better val,
 * then the first); -1 if none does. */
long sweep_target_pick(const struct sweep_target *t, const double *cost, const double *val,
                       size_t n);

#endif
