/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_compare.h - two sweep tables (results.csv, sweep_table.h) compared
 * figure by figure, not byte by byte: `nictx sweep compare OLD NEW`, the
 * regression gate of docs/user-guide.md ("A regression run in CI").
 *
 * Matching.  Rows are matched by their `id` column (a hash of the point's
 * command, the same in every run of one plan), columns by name; `point`
 * (the row's number, which moves when a plan gains a value) and `id` are
 * not compared.  Every other column both tables have is compared.
 *
 * What differs.  A column only OLD has; a point only one table has; a
 * field that differs: numbers (JSON numbers, as the table writes them) as
 * numbers, |new - old| <= PCT/100 * |old| (PCT 0: equal as numbers, so 1
 * and 1.0 are equal), any other field (`status`, `bound`, an empty one) as
 * text, exactly.  A column only NEW has (a figure the run gained) is named
 * once and is not a difference: a gate that breaks on every new column
 * would be turned off.
 *
 * Tolerances.  `--tol PCT` is every numeric column's; `--tol FIGURE=PCT`
 * one column's: FIGURE is a column's exact name (latency_ns.p99), or a
 * prefix ending in '*' (latency_ns.* : every column whose name starts with
 * "latency_ns.").  Where several match a column the most specific wins: an
 * exact name, else the longest prefix; of equals, the last given.  A
 * FIGURE that matches no compared column is bad input (a typo would
 * otherwise pass everything).
 *
 * Output (to out).  When something differs, a table of what did, one line
 * each: point, id, the parameters' values (when the caller names the
 * parameter columns), figure, old, new, the change in % of old (numbers,
 * old not 0).  Its order is stable: the columns only OLD has, the points
 * only OLD has, the points only NEW has, then OLD's points in order, each
 * with its `status` first and then its columns in OLD's order; at most
 * `show` lines, then "... and N more".  Then "new columns, not compared:
 * ..." when there are any; a note when points only OLD has have the
 * parameter values of points only NEW has (their commands differ, so do
 * their ids); and a summary line, "compare: 72 points, 227 columns
 * compared: every figure equal" or "...: 3 differences".
 *
 * Contract: sweep_compare returns 0 (every figure equal), 1 (something
 * differs), or 2 with the reason in err and nothing printed (a table
 * without an `id` column, an id twice in a table, a FIGURE no column
 * matches, out of memory).  No global state.
 */
#ifndef NICTX_SWEEP_COMPARE_H
#define NICTX_SWEEP_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "lib/strv.h"
#include "sweep/sweep_csv.h"

#define SWEEP_COMPARE_NAME 256 /* a FIGURE's bytes, its NUL included */
#define SWEEP_COMPARE_SHOW 20  /* lines of the table, by default */

/* One --tol: FIGURE=PCT, or PCT alone (name ""). */
struct sweep_compare_tol {
    char name[SWEEP_COMPARE_NAME];
    double pct;
};

struct sweep_compare_opts {
    double tol;                           /* every numeric column's (0) */
    const struct sweep_compare_tol *tols; /* FIGURE=PCT, in the order given */
    size_t ntols;
    const struct strv *params; /* parameter column names for the table, or NULL */
    size_t show;               /* table lines at most; 0: all */
};

/* "PCT" or "FIGURE=PCT" (PCT a non-negative decimal, e.g. 1 or 0.5): 0, or
 * -1 with the reason in err. */
int sweep_compare_tol_parse(const char *arg, struct sweep_compare_tol *t, char *err,
                            size_t errlen);

/* old against nw, what differs printed to out: 0, 1 or 2 (see above). */
int sweep_compare(const struct sweep_csv *old, const struct sweep_csv *nw,
                  const struct sweep_compare_opts *o, FILE *out, char *err, size_t errlen);

#endif /* NICTX_SWEEP_COMPARE_H */
