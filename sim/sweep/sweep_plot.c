/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_plot.c - data files and gnuplot scripts for a sweep's plots, and
 * gnuplot run on them (see sweep_plot.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "sweep/sweep_plot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/json.h"
#include "sweep/sweep_exec.h"
#include "sweep/sweep_gnuplot.h"
#include "sweep/sweep_point.h"
#include "sweep/sweep_pareto.h"
#include "sweep/sweep_series.h"
#include "sweep/sweep_target.h"

#define LABEL_BYTES 512
#define MAX_BARS 400 /* stacked plots of more points would be unreadable */

/* What every plot needs: the sweep, its table, and where each point sits. */
struct plot_ctx {
    const struct sweep_spec *s;
    const struct sweep_table *t;
    struct sweep_series ss;
    char dir[SWEEP_PATH_BYTES];  /* DIR/plots */
    long *row;                   /* [series * nx + xpos]: table row, or -1 */
    size_t *xorder;              /* x positions in increasing numeric order */
    double *xval;                /* numeric x value per position */
    int xnumeric;                /* every x value is a number */
    struct sweep_gp gp;          /* what the scripts need */
};

/* ---- the context ---------------------------------------------------------- */

static int parse_double(const char *s, double *v)
{
    char *end;

    *v = strtod(s, &end);
    return *s && *end == '\0' && isfinite(*v);
}

static void sort_x(struct plot_ctx *c)
{
    /* Insertion sort: a handful of x values. */
    for (size_t a = 0; a < c->ss.nx; a++)
        c->xorder[a] = a;
    for (size_t a = 1; a < c->ss.nx; a++)
        for (size_t b = a; b > 0 && c->xval[c->xorder[b]] < c->xval[c->xorder[b - 1]]; b--) {
            size_t tmp = c->xorder[b];
            c->xorder[b] = c->xorder[b - 1];
            c->xorder[b - 1] = tmp;
        }
}

static int ctx_init(struct plot_ctx *c, const struct sweep_spec *s, const struct sweep_table *t,
                    const char *dir)
{
    size_t cells;

    memset(c, 0, sizeof(*c));
    c->s = s;
    c->t = t;
    sweep_series_init(&c->ss, s);
    snprintf(c->dir, sizeof(c->dir), "%s/plots", dir);
    cells = c->ss.nseries * c->ss.nx;
    c->row = malloc(cells * sizeof(*c->row));
    c->xorder = malloc(c->ss.nx * sizeof(*c->xorder));
    c->xval = malloc(c->ss.nx * sizeof(*c->xval));
    if (!c->row || !c->xorder || !c->xval)
        return -1;
    for (size_t k = 0; k < cells; k++)
        c->row[k] = -1;
    for (size_t r = 0; r < t->nrows; r++) {
        size_t i = t->rows[r].point;
        c->row[sweep_series_of(&c->ss, s, i) * c->ss.nx + sweep_series_xpos(&c->ss, s, i)] =
            (long)r;
    }
    c->xnumeric = c->ss.x >= 0;
    for (size_t j = 0; j < c->ss.nx && c->xnumeric; j++)
        c->xnumeric = parse_double(s->params[c->ss.x].values.v[j], &c->xval[j]);
    if (c->xnumeric)
        sort_x(c);
    c->gp = (struct sweep_gp){s, &c->ss, c->xval, c->xorder, t->nrows};
    return 0;
}

static void ctx_free(struct plot_ctx *c)
{
    free(c->row);
    free(c->xorder);
    free(c->xval);
}

static long row_at(const struct plot_ctx *c, size_t k, size_t j)
{
    return c->row[k * c->ss.nx + j];
}

/* Row r's number under key, or NAN. */
static double fig(const struct plot_ctx *c, long r, const char *key)
{
    double v;

    return r >= 0 && sweep_table_num(c->t, (size_t)r, key, &v) ? v : NAN;
}

/* ---- what to stack -------------------------------------------------------- */

/* The direct children of prefix ("cpu_ns_per_pkt") that are numbers and not
 * zero in some row, but for the names in skip: their full keys, in column
 * order. */
static int stack_keys(const struct plot_ctx *c, const char *prefix, const char *const *skip,
                      struct strv *out)
{
    size_t n = strlen(prefix);

    for (size_t col = 0; col < c->t->cols.n; col++) {
        const char *key = c->t->cols.v[col], *leaf = key + n + 1;
        int skipped = 0, nonzero = 0;
        if (strncmp(key, prefix, n) != 0 || key[n] != '.' || strchr(leaf, '.'))
            continue;
        for (const char *const *k = skip; *k; k++)
            skipped |= strcmp(leaf, *k) == 0;
        for (size_t r = 0; r < c->t->nrows && !skipped && !nonzero; r++)
            nonzero = fig(c, (long)r, key) != 0 && !isnan(fig(c, (long)r, key));
        if (!skipped && nonzero && strv_push(out, key) != 0)
            return -1;
    }
    return 0;
}

/* ---- files ---------------------------------------------------------------- */

/* Open DIR/plots/NAME atomically. */
static int plot_open(const struct plot_ctx *c, struct afile *af, const char *name)
{
    char path[SWEEP_PATH_BYTES + 64];

    snprintf(path, sizeof(path), "%s/%s", c->dir, name);
    return afile_open(af, path);
}

static void put_num(FILE *f, double v)
{
    if (isnan(v))
        fputs(" NaN", f);
    else
        fprintf(f, " %.10g", v);
}

/* Line data: per series a block "x v1 v2...", x increasing; blocks apart
 * by two blank lines (gnuplot's `index`). */
static void write_lines(FILE *f, const struct plot_ctx *c, const char *const *keys)
{
    char label[LABEL_BYTES];

    for (size_t k = 0; k < c->ss.nseries; k++) {
        sweep_series_label(&c->ss, c->s, k, " / ", label, sizeof(label));
        fprintf(f, "# %s\n", label);
        for (size_t a = 0; a < c->ss.nx; a++) {
            size_t j = c->xorder[a];
            fprintf(f, "%.10g", c->xval[j]);
            for (const char *const *key = keys; *key; key++)
                put_num(f, fig(c, row_at(c, k, j), *key));
            fputc('\n', f);
        }
        fputs("\n\n", f);
    }
}

/* One bar: its label, then the stacked figures (a kind a point does not
 * have is 0 in its stack; a point without a result is all NaN). */
static void write_bar(FILE *f, const struct plot_ctx *c, long r, const char *label,
                      const struct strv *keys)
{
    sweep_gp_quote(f, label);
    for (size_t q = 0; q < keys->n; q++) {
        double v = fig(c, r, keys->v[q]);
        put_num(f, isnan(v) && r >= 0 ? 0 : v);
    }
    fputc('\n', f);
}

/* Bar data: per series a block of "\"x\" v1 v2 ..." rows; without an x
 * axis one block, a bar per point labelled with its values. */
static void write_bars(FILE *f, const struct plot_ctx *c, const struct strv *keys)
{
    char label[LABEL_BYTES];

    if (c->ss.x < 0) {
        for (size_t k = 0; k < c->ss.nseries; k++) {
            sweep_series_label(&c->ss, c->s, k, " / ", label, sizeof(label));
            write_bar(f, c, row_at(c, k, 0), label, keys);
        }
        return;
    }
    for (size_t k = 0; k < c->ss.nseries; k++) {
        sweep_series_label(&c->ss, c->s, k, " / ", label, sizeof(label));
        fprintf(f, "# %s\n", label);
        for (size_t a = 0; a < c->ss.nx; a++) {
            size_t j = c->xnumeric ? c->xorder[a] : a;
            write_bar(f, c, row_at(c, k, j), c->s->params[c->ss.x].values.v[j], keys);
        }
        fputs("\n\n", f);
    }
}


/* ---- the plots ------------------------------------------------------------ */

static const char *const skip_total[] = {"total", NULL};
static const char *const skip_cpu[] = {"total", "idle", NULL};

/* Row r's line rate in Mpps (frame + 20 B preamble and gap), for fixed-size
 * frames; else NAN. */
static double line_mpps(const struct plot_ctx *c, long r)
{
    double gbps = fig(c, r, "config.line_gbps"), size = fig(c, r, "config.pkt_size");

    if (fig(c, r, "config.pkt_size_max") != size || !(gbps > 0))
        return NAN;
    return gbps * 1e3 / (8 * (size + 20));
}

/* Row r's PCIe bound in Mpps: the TLP-layer rate (which already nets out
 * DLLP and SKP overhead, docs/pcie.md) over the busier direction's TLP and
 * UpdateFC bytes per packet; NAN if unknown. */
static double pcie_mpps(const struct plot_ctx *c, long r)
{
    static const char *const dirs[2][2] = {
        {"pcie_bytes_per_pkt.h2d.total", "pcie_bytes_per_pkt.h2d.updatefc"},
        {"pcie_bytes_per_pkt.d2h.total", "pcie_bytes_per_pkt.d2h.updatefc"},
    };
    double tlp = fig(c, r, "config.pcie.tlp_gbps"), bytes = 0;

    for (int d = 0; d < 2; d++) {
        double b = fig(c, r, dirs[d][0]), fc = fig(c, r, dirs[d][1]);
        b += isnan(fc) ? 0 : fc;
        bytes = b > bytes ? b : bytes;
    }
    return bytes > 0 && tlp > 0 ? tlp * 1e3 / (8 * bytes) : NAN;
}

/* Keep the larger (max) or the smaller (min) of *acc and v; NAN is none. */
static void keep_max(double *acc, double v)
{
    if (!isnan(v) && (isnan(*acc) || v > *acc))
        *acc = v;
}

static void keep_min(double *acc, double v)
{
    if (!isnan(v) && (isnan(*acc) || v < *acc))
        *acc = v;
}

/* bounds.dat ("x line pcie": the highest line rate and the tightest PCIe
 * bound among the points at x) and the plot's extremes. */
static void write_bounds(FILE *f, const struct plot_ctx *c, struct sweep_gp_bounds *b)
{
    b->data_max = b->line_min = b->line_max = b->pcie_min = b->pcie_max = NAN;
    fputs("# x  line_rate_mpps  pcie_bound_mpps\n", f);
    for (size_t a = 0; a < c->ss.nx; a++) {
        size_t j = c->xorder[a];
        double line = NAN, pcie = NAN;
        for (size_t k = 0; k < c->ss.nseries; k++) {
            long r = row_at(c, k, j);
            keep_max(&b->data_max, fig(c, r, "mpps"));
            keep_max(&line, line_mpps(c, r));
            keep_min(&pcie, pcie_mpps(c, r));
        }
        fprintf(f, "%.10g", c->xval[j]);
        put_num(f, line);
        put_num(f, pcie);
        fputc('\n', f);
        keep_min(&b->line_min, line);
        keep_max(&b->line_max, line);
        keep_min(&b->pcie_min, pcie);
        keep_max(&b->pcie_max, pcie);
    }
    b->have_line = !isnan(b->line_max);
    b->have_pcie = !isnan(b->pcie_min);
}

static int plot_mpps(const struct plot_ctx *c, struct sweep_plot *p)
{
    static const char *const keys[] = {"mpps", NULL};
    struct afile data, bounds, gp;
    struct sweep_gp_bounds b;
    double ymax;
    int pcie_drawn;

    if (plot_open(c, &data, "mpps.dat") != 0)
        return -1;
    write_lines(data.f, c, keys);
    if (afile_commit(&data) != 0 || plot_open(c, &bounds, "bounds.dat") != 0)
        return -1;
    write_bounds(bounds.f, c, &b);
    if (afile_commit(&bounds) != 0)
        return -1;
    if (isnan(b.data_max)) {
        snprintf(p->note, sizeof(p->note), "no point has a throughput figure");
        return 1;
    }
    ymax = b.have_line && b.line_max > b.data_max ? b.line_max : b.data_max;
    pcie_drawn = b.have_pcie && b.pcie_min <= 1.5 * ymax;
    if (pcie_drawn && b.pcie_min > ymax)
        ymax = b.pcie_min;
    if (plot_open(c, &gp, "mpps.gp") != 0)
        return -1;
    sweep_gp_mpps(gp.f, &c->gp, &b, ymax * 1.12, pcie_drawn);
    return afile_commit(&gp);
}

static int plot_latency(const struct plot_ctx *c, struct sweep_plot *p)
{
    static const char *const keys[] = {"latency_ns.p50", "latency_ns.p99", NULL};
    struct afile data, gp;
    int any = 0;

    for (size_t r = 0; r < c->t->nrows && !any; r++)
        any = !isnan(fig(c, (long)r, "latency_ns.p50"));
    if (!any) {
        snprintf(p->note, sizeof(p->note), "no point has a latency figure");
        return 1;
    }
    if (plot_open(c, &data, "latency.dat") != 0)
        return -1;
    write_lines(data.f, c, keys);
    if (afile_commit(&data) != 0 || plot_open(c, &gp, "latency.gp") != 0)
        return -1;
    sweep_gp_latency(gp.f, &c->gp);
    return afile_commit(&gp);
}

/* Throughput against area (--area), the Pareto front apart: area.dat's
 * block 0 every point "cost mpps", block 1 the front by cost. */
static int plot_area(const struct plot_ctx *c, struct sweep_plot *p)
{
    size_t n = c->t->nrows, on;
    double *cost = calloc(n + 1, sizeof(*cost)), *mpps = calloc(n + 1, sizeof(*mpps));
    unsigned char *front = malloc(n + 1);
    size_t *order = malloc((n + 1) * sizeof(*order));
    struct afile data, gp;
    int rc = -1;

    if (!cost || !mpps || !front || !order)
        goto out;
    for (size_t r = 0; r < n; r++) {
        cost[r] = fig(c, (long)r, SWEEP_COST_DEFAULT);
        mpps[r] = fig(c, (long)r, "mpps");
    }
    if ((on = sweep_pareto(cost, mpps, n, front)) == 0) {
        snprintf(p->note, sizeof(p->note), "no point has an area (nictx sweep --area)");
        rc = 1;
        goto out;
    }
    on = 0;
    for (size_t r = 0; r < n; r++) /* the front by cost: insertion sort */
        if (front[r]) {
            size_t k = on++;
            for (; k > 0 && cost[order[k - 1]] > cost[r]; k--)
                order[k] = order[k - 1];
            order[k] = r;
        }
    if (plot_open(c, &data, "area.dat") != 0)
        goto out;
    for (size_t r = 0; r < n; r++)
        if (!isnan(cost[r]) && !isnan(mpps[r]))
            fprintf(data.f, "%.10g %.10g\n", cost[r], mpps[r]);
    fputs("\n\n", data.f);
    for (size_t k = 0; k < on; k++)
        fprintf(data.f, "%.10g %.10g\n", cost[order[k]], mpps[order[k]]);
    if (afile_commit(&data) != 0 || plot_open(c, &gp, "area.gp") != 0)
        goto out;
    sweep_gp_area(gp.f, &c->gp, SWEEP_COST_DEFAULT);
    rc = afile_commit(&gp);
out:
    free(cost);
    free(mpps);
    free(front);
    free(order);
    return rc;
}

/* Write DIR/plots/NAME.dat with the stack of prefix. */
static int stack_data(const struct plot_ctx *c, const char *name, const char *prefix,
                      const char *const *skip, struct strv *keys)
{
    struct afile data;

    if (stack_keys(c, prefix, skip, keys) != 0 || plot_open(c, &data, name) != 0)
        return -1;
    write_bars(data.f, c, keys);
    return afile_commit(&data);
}

static int plot_cpu(const struct plot_ctx *c, struct sweep_plot *p)
{
    static const char prefix[] = "cpu_ns_per_pkt";
    struct strv keys;
    struct afile gp;
    int rc = -1;

    strv_init(&keys);
    if (stack_data(c, "cpu.dat", prefix, skip_cpu, &keys) != 0)
        goto out;
    rc = 1;
    if (keys.n == 0) {
        snprintf(p->note, sizeof(p->note), "no point has CPU time by cause");
        goto out;
    }
    rc = -1;
    if (plot_open(c, &gp, "cpu.gp") != 0)
        goto out;
    sweep_gp_cpu(gp.f, &c->gp, &keys, sizeof(prefix));
    rc = afile_commit(&gp);
out:
    strv_free(&keys);
    return rc;
}

static int plot_pcie(const struct plot_ctx *c, struct sweep_plot *p)
{
    static const char h2d[] = "pcie_bytes_per_pkt.h2d", d2h[] = "pcie_bytes_per_pkt.d2h";
    struct strv kh, kd;
    struct afile gp;
    int rc = -1;

    strv_init(&kh);
    strv_init(&kd);
    if (stack_data(c, "pcie_h2d.dat", h2d, skip_total, &kh) != 0 ||
        stack_data(c, "pcie_d2h.dat", d2h, skip_total, &kd) != 0)
        goto out;
    rc = 1;
    if (kh.n == 0 || kd.n == 0) {
        snprintf(p->note, sizeof(p->note), "no point has PCIe bytes by TLP kind");
        goto out;
    }
    rc = -1;
    if (plot_open(c, &gp, "pcie.gp") != 0)
        goto out;
    sweep_gp_pcie(gp.f, &c->gp, &kh, sizeof(h2d), &kd, sizeof(d2h));
    rc = afile_commit(&gp);
out:
    strv_free(&kh);
    strv_free(&kd);
    return rc;
}

/* ---- drawing -------------------------------------------------------------- */

/* First line of text, for a note. */
static void first_line(const char *text, char *buf, size_t len)
{
    snprintf(buf, len, "%.*s", (int)strcspn(text, "\n"), text);
}

/* Run gnuplot on NAME.gp; rename its NAME.tmp.png/svg over NAME.png/svg. */
static void draw(const struct plot_ctx *c, struct sweep_plot *p)
{
    char script[64], from[SWEEP_PATH_BYTES + 64], to[SWEEP_PATH_BYTES + 64], why[200];
    char *argv[] = {"gnuplot", script, NULL};
    struct sweep_capture cap;
    int ok = 1;

    snprintf(script, sizeof(script), "%s.gp", p->name);
    if (sweep_exec_capture(argv, c->dir, &cap) != 0) {
        snprintf(p->note, sizeof(p->note), "gnuplot could not be started");
        return;
    }
    if (cap.status == 127) {
        snprintf(p->note, sizeof(p->note), "gnuplot is not installed (apt-get install "
                 "gnuplot-nox); the data and script are in plots/");
        ok = 0;
    } else if (cap.status != 0) {
        first_line(cap.err, why, sizeof(why));
        snprintf(p->note, sizeof(p->note), "gnuplot failed: %s", why);
        ok = 0;
    }
    sweep_capture_free(&cap);
    for (int k = 0; k < 2; k++) {
        const char *fmt = k ? "svg" : "png";
        snprintf(from, sizeof(from), "%s/%s.tmp.%s", c->dir, p->name, fmt);
        snprintf(to, sizeof(to), "%s/%s.%s", c->dir, p->name, fmt);
        if (!ok) {
            unlink(from); /* half drawn */
        } else if (rename(from, to) != 0) {
            snprintf(p->note, sizeof(p->note), "gnuplot drew no %s", fmt);
            ok = 0;
        }
    }
    p->made = ok;
}

typedef int (*plot_fn)(const struct plot_ctx *c, struct sweep_plot *p);

static const struct {
    const char *name, *title; /* title: %s is the x parameter */
    plot_fn fn;
    int needs_x; /* a line plot: needs a swept, numeric x */
} plots[SWEEP_NPLOTS] = {
    {"mpps", "Throughput against %s, with the line rate and the PCIe bound", plot_mpps, 1},
    {"cpu", "CPU time per packet, stacked by cause", plot_cpu, 0},
    {"pcie", "PCIe bytes per packet, stacked by TLP kind, per direction", plot_pcie, 0},
    {"latency", "Doorbell-to-wire latency, p50 and p99, against %s", plot_latency, 1},
    {"area", "Throughput against area (" SWEEP_COST_DEFAULT "), the Pareto front marked",
     plot_area, 0},
};

/* Why a plot is not made before trying, or NULL. */
static const char *skip_reason(const struct plot_ctx *c, int needs_x, char *buf, size_t len)
{
    if (c->t->nrows == 0)
        return "no point has a result";
    if (needs_x && c->ss.x < 0) {
        snprintf(buf, len, "skipped: its x axis, %s, was not swept (set x in the sweep "
                 "file or --x)", c->s->x);
        return buf;
    }
    if (needs_x && !c->xnumeric) {
        snprintf(buf, len, "skipped: the values of its x axis, %s, are not numbers", c->s->x);
        return buf;
    }
    if (!needs_x && c->t->nrows > MAX_BARS) {
        snprintf(buf, len, "skipped: more than %d points to draw as bars", MAX_BARS);
        return buf;
    }
    return NULL;
}

int sweep_plots_make(const struct sweep_spec *s, const struct sweep_table *t, const char *dir,
                     struct sweep_plots *out, char *err, size_t errlen)
{
    struct plot_ctx c;
    char buf[SWEEP_NOTE_BYTES];
    int rc = 0;

    memset(out, 0, sizeof(*out));
    if (ctx_init(&c, s, t, dir) != 0 || (mkdir(c.dir, 0777) != 0 && errno != EEXIST)) {
        snprintf(err, errlen, "%s: cannot create: %s", c.dir, strerror(errno));
        ctx_free(&c);
        return -1;
    }
    for (int k = 0; k < SWEEP_NPLOTS && rc == 0; k++) {
        struct sweep_plot *p = &out->p[k];
        const char *why = skip_reason(&c, plots[k].needs_x, buf, sizeof(buf));
        int made;
        if (plots[k].fn == plot_area && strv_find(&t->cols, SWEEP_COST_DEFAULT) < 0)
            continue; /* a sweep without --area: no area plot, not even its title */
        p->name = plots[k].name;
        snprintf(p->title, sizeof(p->title), plots[k].title, s->x);
        if (why) {
            snprintf(p->note, sizeof(p->note), "%s", why);
            continue;
        }
        if ((made = plots[k].fn(&c, p)) < 0) {
            snprintf(err, errlen, "%s: cannot write the %s plot's files: %s", c.dir, p->name,
                     strerror(errno));
            rc = -1;
        } else if (made == 0) {
            draw(&c, p);
        }
    }
    ctx_free(&c);
    return rc;
}
