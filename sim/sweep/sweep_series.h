/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_series.h - a sweep seen as lines on a plot: the x axis is one
 * parameter, and each series (a line, a row of the headline table, a group
 * of bars) is one combination of the values of the other parameters.
 *
 * Only parameters with more than one value vary; one with a single value
 * is fixed and names no series.  Without a swept x parameter (it is not a
 * parameter, or has one value) there is no x axis (x < 0) and each point is
 * a series of its own.
 *
 * Series are numbered in point order: the first varying parameter (other
 * than x) slowest.  No global state.
 */
#ifndef NICTX_SWEEP_SERIES_H
#define NICTX_SWEEP_SERIES_H

#include <stddef.h>

#include "sweep/sweep.h"

struct sweep_series {
    long x;          /* index of the x parameter, or -1 if it is not swept */
    size_t nx;       /* its number of values (1 without x) */
    size_t nseries;  /* combinations of the other varying parameters */
    size_t nvarying; /* how many parameters name a series */
};

void sweep_series_init(struct sweep_series *ss, const struct sweep_spec *s);
/* The series of point i, and its position on the x axis (the index of its
 * x value; 0 without x). */
size_t sweep_series_of(const struct sweep_series *ss, const struct sweep_spec *s, size_t i);
size_t sweep_series_xpos(const struct sweep_series *ss, const struct sweep_spec *s, size_t i);
/* Does parameter p name series (varies, and is not x)? */
int sweep_series_param(const struct sweep_series *ss, const struct sweep_spec *s, size_t p);
/* Series k's values of the series parameters joined with sep ("tail /
 * per-desc"), or "all points" when nothing varies; truncated to len. */
void sweep_series_label(const struct sweep_series *ss, const struct sweep_spec *s, size_t k,
                        const char *sep, char *buf, size_t len);
/* The series parameters' names joined with sep ("protocol / barrier"). */
void sweep_series_names(const struct sweep_series *ss, const struct sweep_spec *s,
                        const char *sep, char *buf, size_t len);
/* Value index of series parameter p (sweep_series_param) in series k. */
size_t sweep_series_vindex(const struct sweep_series *ss, const struct sweep_spec *s, size_t k,
                           size_t p);

#endif /* NICTX_SWEEP_SERIES_H */
