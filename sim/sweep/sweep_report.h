/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_report.h - report.md, the page a person reads: what the sweep was,
 * the headline table (throughput by x, a row per series), the plots,
 * every point's key figures, and what went wrong.
 *
 * Contract: the report is a function of the sweep, its table and its plots
 * (no date, no wall time), so two sweeps of one plan write the same page;
 * and, for a point without a result, of what the results directory holds
 * about it (its log, which it links only when it exists, or its ssh job:
 * sweep_joblog.h).  Paths in it are relative to the results directory; `shown_dir` is
 * the directory as the user named it, for the command that regenerates it.
 * sweep_report_write writes it atomically: 0, or -1 with a message in err.
 * sweep_report_headline writes the headline table alone (Markdown), e.g.
 * to stdout at the end of a sweep.  No global state.
 */
#ifndef NICTX_SWEEP_REPORT_H
#define NICTX_SWEEP_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "sweep/sweep.h"
#include "sweep/sweep_joblog.h"
#include "sweep/sweep_plot.h"
#include "sweep/sweep_table.h"

struct sweep_report_in {
    const struct sweep_spec *s;
    const struct sweep_table *t;
    const struct sweep_plots *plots; /* NULL: plots were not made */
    const char *shown_dir;
    const char *dir;                 /* the results directory */
    const struct sweep_joblog *jobs; /* its ssh jobs (may be empty) */
};

int sweep_report_write(const struct sweep_report_in *in, const char *path, char *err,
                       size_t errlen);
void sweep_report_headline(FILE *f, const struct sweep_spec *s, const struct sweep_table *t);

/* Points with no result, and results whose status is not "ok". */
size_t sweep_report_missing(const struct sweep_spec *s, const struct sweep_table *t);
size_t sweep_report_not_ok(const struct sweep_table *t);

#endif /* NICTX_SWEEP_REPORT_H */
