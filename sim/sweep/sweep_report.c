/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_report.c - report.md of a sweep (see sweep_report.h).
 */
#include "sweep/sweep_report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "sweep/sweep_series.h"

#define LABEL_BYTES 1024

/* The key figures of a point, as the table shows them. */
static const struct {
    const char *key, *head;
    int prec; /* digits after the point; -1 for text */
} figures[] = {
    {"mpps", "Mpps", 3},
    {"gbps", "Gb/s", 3},
    {"bound", "bound", -1},
    {"cpu_ns_per_pkt.total", "CPU ns/pkt", 1},
    {"pcie_bytes_per_pkt.h2d.total", "PCIe h2d B/pkt", 1},
    {"pcie_bytes_per_pkt.d2h.total", "PCIe d2h B/pkt", 1},
    {"doorbells_per_pkt", "doorbells/pkt", 3},
    {"latency_ns.p50", "latency p50 ns", 0},
    {"latency_ns.p99", "latency p99 ns", 0},
    {"status", "status", -1},
};
#define NFIGURES (sizeof(figures) / sizeof(figures[0]))

/* A table cell: the figure with prec digits, text as it is, n/a for null;
 * then mark. */
static void cell(FILE *f, const struct sweep_table *t, long r, const char *key, int prec,
                 const char *mark)
{
    const struct json_flat_item *it = r >= 0 ? sweep_table_cell(t, (size_t)r, key) : NULL;

    if (!it || it->type == JSON_FLAT_NULL)
        fprintf(f, " n/a%s |", mark);
    else if (it->type == JSON_FLAT_NUM && prec >= 0)
        fprintf(f, " %.*f%s |", prec, strtod(it->text, NULL), mark);
    else
        fprintf(f, " %s%s |", it->text, mark);
}

/* The table row of point i, or -1 if it has no result. */
static long row_of(const struct sweep_table *t, size_t i)
{
    /* Rows are in point order: bisect. */
    size_t lo = 0, hi = t->nrows;

    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->rows[mid].point < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->nrows && t->rows[lo].point == i ? (long)lo : -1;
}

size_t sweep_report_missing(const struct sweep_spec *s, const struct sweep_table *t)
{
    return sweep_npoints(s) - t->nrows;
}

static int row_ok(const struct sweep_table *t, size_t r)
{
    const struct json_flat_item *it = sweep_table_cell(t, r, "status");

    return it && strcmp(it->text, "ok") == 0;
}

size_t sweep_report_not_ok(const struct sweep_table *t)
{
    size_t n = 0;

    for (size_t r = 0; r < t->nrows; r++)
        n += !row_ok(t, r);
    return n;
}

/* ---- headline ------------------------------------------------------------- */

/* Without a swept x: a row per point, its varying values and its Mpps. */
static int headline_points(FILE *f, const struct sweep_series *ss, const struct sweep_spec *s,
                           const struct sweep_table *t)
{
    char names[LABEL_BYTES], label[LABEL_BYTES];
    int starred = 0;

    sweep_series_names(ss, s, " | ", names, sizeof(names));
    fprintf(f, "| %s | Mpps |\n|", *names ? names : "point");
    for (size_t k = 0; k < (ss->nvarying ? ss->nvarying : 1) + 1; k++)
        fputs("---|", f);
    fputc('\n', f);
    for (size_t i = 0; i < sweep_npoints(s); i++) {
        long r = row_of(t, i);
        int bad = r >= 0 && !row_ok(t, (size_t)r);
        sweep_series_label(ss, s, sweep_series_of(ss, s, i), " | ", label, sizeof(label));
        fprintf(f, "| %s |", ss->nvarying ? label : "1");
        cell(f, t, r, "mpps", 3, bad ? "\\*" : "");
        fputc('\n', f);
        starred |= bad;
    }
    return starred;
}

/* With a swept x: a row per series, a column per x value. */
static int headline_by_x(FILE *f, const struct sweep_series *ss, const struct sweep_spec *s,
                         const struct sweep_table *t)
{
    char names[LABEL_BYTES], label[LABEL_BYTES];
    int starred = 0;

    sweep_series_names(ss, s, " | ", names, sizeof(names));
    fprintf(f, "| %s |", *names ? names : "throughput");
    for (size_t j = 0; j < ss->nx; j++)
        fprintf(f, " %s=%s |", s->x, s->params[ss->x].values.v[j]);
    fputs("\n|", f);
    for (size_t j = 0; j < ss->nx + (ss->nvarying ? ss->nvarying : 1); j++)
        fputs("---|", f);
    fputc('\n', f);
    for (size_t k = 0; k < ss->nseries; k++) {
        sweep_series_label(ss, s, k, " | ", label, sizeof(label));
        fprintf(f, "| %s |", ss->nvarying ? label : "Mpps");
        for (size_t i = 0; i < sweep_npoints(s); i++) {
            long r = row_of(t, i);
            int bad = r >= 0 && !row_ok(t, (size_t)r);
            if (sweep_series_of(ss, s, i) != k)
                continue;
            cell(f, t, r, "mpps", 3, bad ? "\\*" : "");
            starred |= bad;
        }
        fputc('\n', f);
    }
    return starred;
}

void sweep_report_headline(FILE *f, const struct sweep_spec *s, const struct sweep_table *t)
{
    struct sweep_series ss;
    int starred;

    sweep_series_init(&ss, s);
    starred = ss.x >= 0 ? headline_by_x(f, &ss, s, t) : headline_points(f, &ss, s, t);
    if (starred)
        fputs("\n\\* the run did not end ok: see Problems in report.md\n", f);
}

/* ---- the page ------------------------------------------------------------- */

static void put_code_words(FILE *f, const struct strv *words)
{
    for (size_t k = 0; k < words->n; k++)
        fprintf(f, "%s%s", k ? " " : "", words->v[k]);
}

static void intro(FILE *f, const struct sweep_report_in *in)
{
    const struct sweep_spec *s = in->s;

    fprintf(f, "# Sweep `%s`\n\n%zu points", *s->name ? s->name : "sweep", sweep_npoints(s));
    for (size_t p = 0; p < s->nparams; p++)
        fprintf(f, "%s%s (%zu)", p ? " x " : ": ", s->params[p].name, s->params[p].values.n);
    fputs(".  Every point is one `nictx run", f);
    if (sweep_param_find(s, "seed") < 0)
        fputs(" --seed S", f);
    if (s->args.n) {
        fputc(' ', f);
        put_code_words(f, &s->args);
    }
    for (size_t p = 0; p < s->nparams; p++)
        fprintf(f, sweep_param_is_key(s->params[p].name) ? " --set %s=V" : " --%s V",
                s->params[p].name);
    fputs("`", f);
    if (sweep_param_find(s, "seed") < 0)
        fprintf(f, ", its seed S derived from the sweep seed (%llu) and the point's values",
                (unsigned long long)s->seed);
    fprintf(f, ".\n\nValues:\n\n");
    for (size_t p = 0; p < s->nparams; p++) {
        fprintf(f, "- `%s`:", s->params[p].name);
        for (size_t v = 0; v < s->params[p].values.n; v++)
            fprintf(f, "%s %s", v ? "," : "", s->params[p].values.v[v]);
        fputc('\n', f);
    }
    fprintf(f, "\nRegenerate: `nictx sweep %s/sweep.ini --out %s` (add `--fresh` to rerun the "
               "points already done).  Every figure of every point is in `results.csv` and "
               "`results.json` (%zu columns; docs/results.md defines them); each point's run "
               "is in `points/ID.json` and `points/ID.log` (ID: the `id` column).\n\n",
            in->shown_dir, in->shown_dir, in->t->cols.n);
}

static void plots_section(FILE *f, const struct sweep_report_in *in)
{
    fputs("## Plots\n\n", f);
    if (!in->plots) {
        fputs("Not drawn (--no-plots).\n\n", f);
        return;
    }
    for (int k = 0; k < SWEEP_NPLOTS; k++) {
        const struct sweep_plot *p = &in->plots->p[k];
        if (!p->name)
            continue; /* not part of this sweep (the area plot without --area) */
        fprintf(f, "### %s\n\n", p->title);
        if (p->made)
            fprintf(f, "![%s](plots/%s.png)\n\n[SVG](plots/%s.svg), data `plots/%s*.dat`, "
                       "script `plots/%s.gp`.\n\n", p->title, p->name, p->name, p->name, p->name);
        if (*p->note)
            fprintf(f, "%s%s.\n\n", p->made ? "Note: " : "Not drawn: ", p->note);
    }
}

static void points_section(FILE *f, const struct sweep_spec *s, const struct sweep_table *t)
{
    fputs("## Every point\n\n| point |", f);
    for (size_t p = 0; p < s->nparams; p++)
        fprintf(f, " %s |", s->params[p].name);
    for (size_t k = 0; k < NFIGURES; k++)
        fprintf(f, " %s |", figures[k].head);
    fputs("\n|", f);
    for (size_t k = 0; k < 1 + s->nparams + NFIGURES; k++)
        fputs("---|", f);
    fputc('\n', f);
    for (size_t r = 0; r < t->nrows; r++) {
        size_t i = t->rows[r].point;
        fprintf(f, "| %zu |", i + 1);
        for (size_t p = 0; p < s->nparams; p++)
            fprintf(f, " %s |", sweep_point_value(s, i, p));
        for (size_t k = 0; k < NFIGURES; k++)
            cell(f, t, (long)r, figures[k].key, figures[k].prec, "");
        fputc('\n', f);
    }
    fputc('\n', f);
}

/* One problem line: a point without a result, or one whose run was not ok. */
static void problem(FILE *f, const struct sweep_report_in *in, size_t i, long r)
{
    const struct sweep_spec *s = in->s;
    const struct sweep_table *t = in->t;
    const struct json_flat_item *st, *why, *first;
    char label[LABEL_BYTES], id[SWEEP_ID_BYTES], missing[LABEL_BYTES];

    sweep_point_label(s, i, label, sizeof(label));
    sweep_point_id(s, i, id);
    if (r < 0) {
        sweep_missing_why(s, in->dir, i, in->jobs, missing, sizeof(missing));
        fprintf(f, "- point %zu (%s): no result: %s\n", i + 1, label, missing);
        return;
    }
    st = sweep_table_cell(t, (size_t)r, "status");
    why = sweep_table_cell(t, (size_t)r, "diagnosis");
    first = sweep_table_cell(t, (size_t)r, "violations.0.detail");
    fprintf(f, "- point %zu (%s): status %s%s%s%s%s; see `points/%s.log`\n", i + 1, label,
            st ? st->text : "unknown", why ? ": " : "", why ? why->text : "",
            first ? ". First violation: " : "", first ? first->text : "", id);
}

static void problems_section(FILE *f, const struct sweep_report_in *in)
{
    const struct sweep_spec *s = in->s;
    const struct sweep_table *t = in->t;
    size_t n = sweep_npoints(s);

    if (sweep_report_missing(s, t) == 0 && sweep_report_not_ok(t) == 0) {
        fputs("## Problems\n\nNone: every point ran, and every run's status is `ok`.\n", f);
        return;
    }
    fputs("## Problems\n\n", f);
    for (size_t i = 0; i < n; i++) {
        long r = row_of(t, i);
        if (r < 0 || !row_ok(t, (size_t)r))
            problem(f, in, i, r);
    }
}

int sweep_report_write(const struct sweep_report_in *in, const char *path, char *err,
                       size_t errlen)
{
    struct sweep_series ss;
    struct afile af;

    if (afile_open(&af, path) != 0) {
        snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    intro(af.f, in);
    sweep_series_init(&ss, in->s);
    if (ss.x >= 0)
        fprintf(af.f, "## Throughput (Mpps) by %s\n\n", in->s->x);
    else
        fputs("## Throughput (Mpps)\n\n", af.f);
    sweep_report_headline(af.f, in->s, in->t);
    fputc('\n', af.f);
    plots_section(af.f, in);
    points_section(af.f, in->s, in->t);
    problems_section(af.f, in);
    if (afile_commit(&af) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
