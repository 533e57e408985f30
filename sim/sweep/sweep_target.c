/* SPDX-License-Identifier: Apache-2.0 */
/* sweep_target.c - the cheapest point meeting a target (sweep_target.h). */
#include "sweep/sweep_target.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep_point.h"
#include "sweep/sweep_csv.h"

/* Column name's numbers, NaN where a cell is not one; -1 if no column. */
static int column(const struct sweep_csv *t, const char *name, double *v)
{
    long c = strv_find(&t->cols, name);

    if (c < 0)
        return -1;
    for (size_t r = 0; r < t->nrows; r++) {
        const char *s = sweep_csv_cell(t, r, (size_t)c);
        char *end;
        v[r] = strtod(s, &end);
        if (!*s || *end)
            v[r] = NAN;
    }
    return 0;
}

/* Row r by its parameters' values ("dev-width=64 hw-tags=256"), else its id. */
static void point_name(FILE *f, const struct sweep_csv *csv, const struct sweep_spec *s, long r)
{
    long idc = strv_find(&csv->cols, "id");
    int any = 0;

    for (size_t p = 0; p < s->nparams; p++) {
        long c = strv_find(&csv->cols, s->params[p].name);
        if (c >= 0)
            fprintf(f, "%s%s=%s", any++ ? " " : "", s->params[p].name,
                    sweep_csv_cell(csv, (size_t)r, (size_t)c));
    }
    if (!any)
        fputs(idc >= 0 ? sweep_csv_cell(csv, (size_t)r, (size_t)idc) : "?", f);
}

static void report(FILE *f, const struct sweep_csv *csv, const struct sweep_spec *s,
                   const struct sweep_target *t, const char *cost_col, const double *cost,
                   const double *val, long at)
{
    double margin = val[at] - t->value;

    fprintf(f, "target %s%s%g: cheapest point ", t->col, t->op, t->value);
    point_name(f, csv, s, at);
    fprintf(f, ": %s %.0f, %s %.6g (margin %+.6g, %+.1f%%)\n", cost_col, cost[at], t->col,
            val[at], margin, t->value != 0 ? 100.0 * margin / fabs(t->value) : 0.0);
}

int sweep_target_report(FILE *f, const char *dir, const struct sweep_spec *s,
                        const struct sweep_target *t, const char *cost_col, char *err, size_t n)
{
    char path[SWEEP_PATH_BYTES + 32];
    struct sweep_csv csv;
    double *cost = NULL, *val = NULL;
    int rc = -1;

    snprintf(path, sizeof(path), "%s/results.csv", dir);
    if (sweep_csv_load(&csv, path, err, n) != 0)
        return -1;
    cost = malloc((csv.nrows + 1) * sizeof(*cost));
    val = malloc((csv.nrows + 1) * sizeof(*val));
    if (!cost || !val)
        snprintf(err, n, "out of memory");
    else if (column(&csv, t->col, val) != 0)
        snprintf(err, n, "--target: %s has no column %s", path, t->col);
    else if (column(&csv, cost_col, cost) != 0)
        snprintf(err, n, "--target: %s has no cost column %s (run the sweep with --area)", path,
                 cost_col);
    else
        rc = 0;
    if (rc == 0) {
        long at = sweep_target_pick(t, cost, val, csv.nrows);
        double best = NAN;
        for (size_t r = 0; r < csv.nrows; r++)
            if (!isnan(val[r]) &&
                (isnan(best) || (t->op[0] == '>' ? val[r] > best : val[r] < best)))
                best = val[r];
        if (at >= 0)
            report(f, &csv, s, t, cost_col, cost, val, at);
        else
            fprintf(f, "target %s%s%g: no point meets it (the best %s is %.6g)\n", t->col,
                    t->op, t->value, t->col, best);
    }
    free(cost);
    free(val);
    sweep_csv_free(&csv);
    return rc;
}
