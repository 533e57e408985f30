/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_target.h - `nictx sweep --target "mpps>=148.8"`: the cheapest point
 * of a sweep's results.csv that meets the target, with its margin
 * (docs/codesign.md).  Cheapest by a cost column, area.xc7_luts unless
 * --cost names another (the area columns come with --area).
 *
 * Contract: reads DIR/results.csv; prints one line (and the runner-up
 * figures) to f; 0, or -1 with a message (no such column, no file).  A
 * target no point meets is a line saying so and the best value seen, and
 * 0.  No global state.
 */
#ifndef NICTX_SWEEP_TARGET_H
#define NICTX_SWEEP_TARGET_H

#include <stddef.h>
#include <stdio.h>

#include "sweep/sweep.h"
#include "sweep/sweep_pareto.h"

#define SWEEP_COST_DEFAULT "area.xc7_luts"

/* The point is named by its values of the sweep's parameters (s: the
 * columns named like them), "dev-width=64 hw-tags=256". */
int sweep_target_report(FILE *f, const char *dir, const struct sweep_spec *s,
                        const struct sweep_target *t, const char *cost_col, char *err, size_t n);

#endif
