/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_merge.h - collect a sweep's per-point results (DIR/points/ID.json,
 * however they were run: serially, by GNU parallel, by a Slurm array) into
 * DIR/results.csv, DIR/results.json, the plots and DIR/report.md.
 *
 * Contract: every point of the sweep whose JSON exists becomes a row, in
 * point order; a point without one is missing (the report lists it); a
 * JSON that cannot be read is reported on stderr and counted missing.
 * Every file is written atomically.  Returns 0 with *st filled in, or -1
 * with a message in err when an output cannot be written.  No global
 * state.
 */
#ifndef NICTX_SWEEP_MERGE_H
#define NICTX_SWEEP_MERGE_H

#include <stddef.h>
#include <stdio.h>

#include "sweep/sweep.h"

struct sweep_merge_stats {
    size_t points;  /* in the sweep */
    size_t missing; /* without a result */
    size_t not_ok;  /* results whose status is not "ok" */
    unsigned char *result; /* NULL, or the caller's array of `points`
                            * entries, set to 0 no result, 1 ok, 2 not ok */
};

/* plots: draw them (else the report says they were not); headline: where
 * to write the headline table too (Markdown), or NULL.  st->result is the
 * caller's (set it before the call). */
int sweep_merge(const struct sweep_spec *s, const char *dir, const char *shown_dir, int plots,
                FILE *headline, struct sweep_merge_stats *st, char *err, size_t errlen);

#endif /* NICTX_SWEEP_MERGE_H */
