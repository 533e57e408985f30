/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_compare.c - two sweep tables compared by point id and column name
 * (see sweep_compare.h).
 */
#include "sweep/sweep_compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"

#define CELL_SHOWN 48 /* characters of a field the table shows */

/* ---- --tol ------------------------------------------------------------------- */

int sweep_compare_tol_parse(const char *arg, struct sweep_compare_tol *t, char *err,
                            size_t errlen)
{
    const char *eq = strrchr(arg, '=');
    const char *pct = eq ? eq + 1 : arg;
    size_t nlen = eq ? (size_t)(eq - arg) : 0;
    char *end;

    memset(t, 0, sizeof(*t));
    if (eq && (nlen == 0 || nlen >= sizeof(t->name))) {
        snprintf(err, errlen, "--tol %s: expected FIGURE=PCT with a column name", arg);
        return -1;
    }
    errno = 0;
    t->pct = strtod(pct, &end);
    if (!*pct || strspn(pct, "0123456789.") != strlen(pct) || *end || errno ||
        !isfinite(t->pct)) {
        snprintf(err, errlen, "--tol %s: expected PCT or FIGURE=PCT, PCT a percentage "
                              "such as 1 or 0.5", arg);
        return -1;
    }
    memcpy(t->name, arg, nlen);
    t->name[nlen] = '\0';
    return 0;
}

/* How specifically rule name matches col: 0 not at all, else the longer
 * the more specific (an exact name beats a prefix of its length). */
static size_t tol_match(const char *name, const char *col)
{
    size_t n = strlen(name);

    if (n && name[n - 1] == '*')
        return strncmp(col, name, n - 1) == 0 ? n : 0;
    return strcmp(col, name) == 0 ? n + 1 : 0;
}

/* ---- the comparison ------------------------------------------------------------ */

enum cmp_kind { CMP_COLUMN, CMP_OLD_POINT, CMP_NEW_POINT, CMP_FIELD };

struct cmp_diff {
    enum cmp_kind kind;
    size_t row; /* in OLD (in NEW for CMP_NEW_POINT) */
    size_t col; /* in OLD */
};

struct cmp_key {
    const char *id;
    size_t row;
};

struct cmp {
    const struct sweep_csv *a, *b; /* OLD, NEW */
    const struct sweep_compare_opts *o;
    long aid, bid, apoint, bpoint; /* the id and point columns, or -1 */
    long *bcol;                    /* per OLD column: NEW's, or -1 */
    double *tol;                   /* per OLD column */
    struct cmp_key *akeys, *bkeys; /* the rows by id */
    unsigned char *bmatched;       /* per NEW row */
    struct cmp_diff *d;
    size_t nd, cap, ncompared;
};

static int id_cmp(const void *x, const void *y)
{
    return strcmp(((const struct cmp_key *)x)->id, ((const struct cmp_key *)y)->id);
}

/* By id, then row: one order whatever qsort does with equal keys. */
static int key_cmp(const void *x, const void *y)
{
    const struct cmp_key *a = x, *b = y;
    int d = id_cmp(a, b);

    return d ? d : (a->row > b->row) - (a->row < b->row);
}

/* t's rows sorted by id into *keys: 0, -1 out of memory, or -2 an id twice
 * (named in err). */
static int sort_ids(const struct sweep_csv *t, long idcol, const char *which,
                    struct cmp_key **keys, char *err, size_t errlen)
{
    *keys = malloc((t->nrows ? t->nrows : 1) * sizeof(**keys));
    if (!*keys)
        return -1;
    for (size_t r = 0; r < t->nrows; r++)
        (*keys)[r] = (struct cmp_key){sweep_csv_cell(t, r, (size_t)idcol), r};
    qsort(*keys, t->nrows, sizeof(**keys), key_cmp);
    for (size_t r = 1; r < t->nrows; r++)
        if (strcmp((*keys)[r - 1].id, (*keys)[r].id) == 0) {
            snprintf(err, errlen, "%s: point id '%s' twice (rows %zu and %zu)", which,
                     (*keys)[r].id, (*keys)[r - 1].row + 1, (*keys)[r].row + 1);
            return -2;
        }
    return 0;
}

/* NEW's row with OLD row r's id, or -1. */
static long find_row(const struct cmp *c, size_t r)
{
    struct cmp_key k = {sweep_csv_cell(c->a, r, (size_t)c->aid), 0};
    const struct cmp_key *hit = bsearch(&k, c->bkeys, c->b->nrows, sizeof(k), id_cmp);

    return hit ? (long)hit->row : -1;
}

static int compared(const struct cmp *c, size_t col)
{
    return c->bcol[col] >= 0 && (long)col != c->aid && (long)col != c->apoint;
}

/* Each OLD column's tolerance; 0, or 2 when a FIGURE matches none. */
static int set_tols(struct cmp *c, char *err, size_t errlen)
{
    for (size_t k = 0; k < c->o->ntols; k++) {
        int used = 0;
        for (size_t col = 0; col < c->a->cols.n; col++)
            used |= compared(c, col) && tol_match(c->o->tols[k].name, c->a->cols.v[col]);
        if (!used) {
            snprintf(err, errlen, "--tol %s=%g: %s names no column both tables have",
                     c->o->tols[k].name, c->o->tols[k].pct, c->o->tols[k].name);
            return 2;
        }
    }
    for (size_t col = 0; col < c->a->cols.n; col++) {
        size_t best = 0, m;
        c->tol[col] = c->o->tol;
        for (size_t k = 0; k < c->o->ntols; k++)
            if ((m = tol_match(c->o->tols[k].name, c->a->cols.v[col])) && m >= best) {
                best = m;
                c->tol[col] = c->o->tols[k].pct;
            }
    }
    return 0;
}

/* The columns, ids and tolerances: 0, or 2 with err. */
static int cmp_setup(struct cmp *c, char *err, size_t errlen)
{
    int rc;

    c->aid = strv_find(&c->a->cols, "id");
    c->bid = strv_find(&c->b->cols, "id");
    c->apoint = strv_find(&c->a->cols, "point");
    c->bpoint = strv_find(&c->b->cols, "point");
    if (c->aid < 0 || c->bid < 0) {
        snprintf(err, errlen, "%s: no id column: not a sweep's results.csv",
                 c->aid < 0 ? "OLD" : "NEW");
        return 2;
    }
    c->bcol = malloc((c->a->cols.n + 1) * sizeof(*c->bcol));
    c->tol = malloc((c->a->cols.n + 1) * sizeof(*c->tol));
    c->bmatched = calloc(c->b->nrows + 1, 1);
    if (!c->bcol || !c->tol || !c->bmatched)
        return snprintf(err, errlen, "out of memory"), 2;
    for (size_t col = 0; col < c->a->cols.n; col++) {
        c->bcol[col] = strv_find(&c->b->cols, c->a->cols.v[col]);
        c->ncompared += compared(c, col);
    }
    if ((rc = sort_ids(c->a, c->aid, "OLD", &c->akeys, err, errlen)) == 0)
        rc = sort_ids(c->b, c->bid, "NEW", &c->bkeys, err, errlen);
    if (rc == -1)
        snprintf(err, errlen, "out of memory");
    return rc ? 2 : set_tols(c, err, errlen);
}

static void cmp_free(struct cmp *c)
{
    free(c->bcol);
    free(c->tol);
    free(c->akeys);
    free(c->bkeys);
    free(c->bmatched);
    free(c->d);
}

static int add_diff(struct cmp *c, enum cmp_kind kind, size_t row, size_t col)
{
    if (c->nd == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        struct cmp_diff *nd = realloc(c->d, cap * sizeof(*nd));
        if (!nd)
            return -1;
        c->d = nd;
        c->cap = cap;
    }
    c->d[c->nd++] = (struct cmp_diff){kind, row, col};
    return 0;
}

/* 1 if two fields differ beyond pct percent of a (numbers) or at all. */
static int fields_differ(const char *a, const char *b, double pct)
{
    if (strcmp(a, b) == 0)
        return 0;
    if (!json_is_number(a) || !json_is_number(b))
        return 1;
    double x = strtod(a, NULL), y = strtod(b, NULL);
    /* |y - x| <= pct% of |x|, without dividing (5% of 220 is 11 exactly). */
    return pct > 0 ? fabs(y - x) * 100 > pct * fabs(x) : x != y;
}

/* OLD row r against NEW row br: status first, then the columns in order. */
static int cmp_row(struct cmp *c, size_t r, size_t br)
{
    long st = strv_find(&c->a->cols, "status");
    int rc = 0;

    if (st >= 0 && compared(c, (size_t)st) &&
        fields_differ(sweep_csv_cell(c->a, r, (size_t)st),
                      sweep_csv_cell(c->b, br, (size_t)c->bcol[st]), 0))
        rc = add_diff(c, CMP_FIELD, r, (size_t)st);
    for (size_t col = 0; col < c->a->cols.n && rc == 0; col++) {
        if ((long)col == st || !compared(c, col))
            continue;
        if (fields_differ(sweep_csv_cell(c->a, r, col),
                          sweep_csv_cell(c->b, br, (size_t)c->bcol[col]), c->tol[col]))
            rc = add_diff(c, CMP_FIELD, r, col);
    }
    return rc;
}

/* Every difference, in the order sweep_compare.h gives: 0, or -1 out of memory. */
static int cmp_collect(struct cmp *c)
{
    long *brow = malloc((c->a->nrows + 1) * sizeof(*brow));
    int rc = brow ? 0 : -1;

    for (size_t col = 0; col < c->a->cols.n && rc == 0; col++)
        if (c->bcol[col] < 0)
            rc = add_diff(c, CMP_COLUMN, 0, col);
    for (size_t r = 0; r < c->a->nrows && rc == 0; r++) {
        brow[r] = find_row(c, r);
        if (brow[r] < 0)
            rc = add_diff(c, CMP_OLD_POINT, r, 0);
        else
            c->bmatched[brow[r]] = 1;
    }
    for (size_t r = 0; r < c->b->nrows && rc == 0; r++)
        if (!c->bmatched[r])
            rc = add_diff(c, CMP_NEW_POINT, r, 0);
    for (size_t r = 0; r < c->a->nrows && rc == 0; r++)
        if (brow[r] >= 0)
            rc = cmp_row(c, r, (size_t)brow[r]);
    free(brow);
    return rc;
}

/* ---- the table ------------------------------------------------------------------- */

enum { F_POINT, F_ID, F_PARAMS, F_FIGURE, F_OLD, F_NEW, F_CHANGE, NFIELDS };

static const char *const heads[NFIELDS] = {"point", "id", "parameters", "figure",
                                           "old", "new", "change"};

/* A field as the table shows it: control characters as blanks, cut to
 * CELL_SHOWN characters, an empty one as "(empty)". */
static void shown(const char *s, char *buf, size_t len)
{
    size_t n = 0;

    if (!*s)
        s = "(empty)";
    for (; *s && n + 1 < len && n < CELL_SHOWN; s++)
        buf[n++] = (unsigned char)*s < ' ' ? ' ' : *s;
    buf[n] = '\0';
    if (*s && len > 4)
        memcpy(buf + (n > len - 4 ? len - 4 : n), "...", 4);
}

/* "NAME=VALUE ..." for the parameter columns t has, of row r. */
static void params_label(const struct sweep_compare_opts *o, const struct sweep_csv *t,
                         size_t r, char *buf, size_t len)
{
    size_t n = 0;

    buf[0] = '\0';
    for (size_t p = 0; o->params && p < o->params->n && n + 1 < len; p++) {
        long col = strv_find(&t->cols, o->params->v[p]);
        if (col >= 0)
            n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", n ? " " : "",
                                  o->params->v[p], sweep_csv_cell(t, r, (size_t)col));
    }
    if (n >= len)
        buf[len - 1] = '\0';
}

/* The change from a to b in % of a, or "" (not numbers, or a is 0). */
static void change(const char *a, const char *b, char *buf, size_t len)
{
    double x, y;

    buf[0] = '\0';
    if (!json_is_number(a) || !json_is_number(b) || (x = strtod(a, NULL)) == 0)
        return;
    y = strtod(b, NULL);
    snprintf(buf, len, "%+.3g%%", (y - x) / fabs(x) * 100);
}

/* The table line of difference d, field by field. */
static void diff_fields(const struct cmp *c, const struct cmp_diff *d, char f[NFIELDS][128])
{
    const struct sweep_csv *t = d->kind == CMP_NEW_POINT ? c->b : c->a;
    long pcol = d->kind == CMP_NEW_POINT ? c->bpoint : c->apoint;
    long idcol = d->kind == CMP_NEW_POINT ? c->bid : c->aid;
    long bcol = c->bcol[d->col];

    for (int k = 0; k < NFIELDS; k++)
        snprintf(f[k], 128, "-");
    f[F_CHANGE][0] = f[F_PARAMS][0] = '\0';
    if (d->kind == CMP_COLUMN) {
        shown(c->a->cols.v[d->col], f[F_FIGURE], 128);
        snprintf(f[F_OLD], 128, "(column)");
        snprintf(f[F_NEW], 128, "missing");
        return;
    }
    if (pcol >= 0)
        shown(sweep_csv_cell(t, d->row, (size_t)pcol), f[F_POINT], 128);
    else
        snprintf(f[F_POINT], 128, "%zu", d->row + 1);
    shown(sweep_csv_cell(t, d->row, (size_t)idcol), f[F_ID], 128);
    params_label(c->o, t, d->row, f[F_PARAMS], 128);
    if (d->kind != CMP_FIELD) {
        snprintf(f[F_OLD], 128, d->kind == CMP_OLD_POINT ? "(point)" : "missing");
        snprintf(f[F_NEW], 128, d->kind == CMP_OLD_POINT ? "missing" : "(point)");
        return;
    }
    size_t br = (size_t)find_row(c, d->row);
    shown(c->a->cols.v[d->col], f[F_FIGURE], 128);
    shown(sweep_csv_cell(c->a, d->row, d->col), f[F_OLD], 128);
    shown(sweep_csv_cell(c->b, br, (size_t)bcol), f[F_NEW], 128);
    change(sweep_csv_cell(c->a, d->row, d->col), sweep_csv_cell(c->b, br, (size_t)bcol),
           f[F_CHANGE], 128);
}

static void print_line(FILE *out, char f[NFIELDS][128], const int *w, int params)
{
    char line[NFIELDS * 132];
    size_t n = 0;

    for (int k = 0; k < NFIELDS; k++)
        if (k != F_PARAMS || params)
            n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%-*s", n ? "  " : "", w[k],
                                  f[k]);
    while (n && line[n - 1] == ' ')
        n--;
    fprintf(out, "%.*s\n", (int)n, line);
}

static void print_table(const struct cmp *c, FILE *out)
{
    size_t n = c->o->show && c->nd > c->o->show ? c->o->show : c->nd;
    int w[NFIELDS], params = c->o->params && c->o->params->n;
    char f[NFIELDS][128];

    for (int k = 0; k < NFIELDS; k++)
        w[k] = (int)strlen(heads[k]);
    for (size_t i = 0; i < n; i++) {
        diff_fields(c, &c->d[i], f);
        for (int k = 0; k < NFIELDS; k++)
            w[k] = (int)strlen(f[k]) > w[k] ? (int)strlen(f[k]) : w[k];
    }
    for (int k = 0; k < NFIELDS; k++)
        snprintf(f[k], 128, "%s", heads[k]);
    print_line(out, f, w, params);
    for (size_t i = 0; i < n; i++) {
        diff_fields(c, &c->d[i], f);
        print_line(out, f, w, params);
    }
    if (c->nd > n)
        fprintf(out, "... and %zu more\n", c->nd - n);
}

/* "new columns, not compared: a, b, ..." (the first 10). */
static void print_new_columns(const struct cmp *c, FILE *out)
{
    size_t n = 0;

    for (size_t col = 0; col < c->b->cols.n; col++) {
        if (strv_find(&c->a->cols, c->b->cols.v[col]) >= 0)
            continue;
        if (n < 10)
            fprintf(out, "%s%s", n ? ", " : "new columns, not compared: ", c->b->cols.v[col]);
        n++;
    }
    if (n > 10)
        fprintf(out, " and %zu more", n - 10);
    if (n)
        fputc('\n', out);
}

/* How many points only OLD has have the parameter values of a point only
 * NEW has: their commands, so their ids, differ (run options the plan or
 * nictx sweep adds changed), which the note below says. */
static size_t same_params(const struct cmp *c)
{
    char la[512], lb[512];
    size_t n = 0;

    for (size_t i = 0; i < c->nd; i++) {
        if (c->d[i].kind != CMP_OLD_POINT)
            continue;
        params_label(c->o, c->a, c->d[i].row, la, sizeof(la));
        for (size_t j = 0; *la && j < c->nd; j++) {
            if (c->d[j].kind != CMP_NEW_POINT)
                continue;
            params_label(c->o, c->b, c->d[j].row, lb, sizeof(lb));
            if (strcmp(la, lb) == 0) {
                n++;
                break;
            }
        }
    }
    return n;
}

static void print_summary(const struct cmp *c, FILE *out)
{
    const char *sep = " (";

    fprintf(out, "compare: %zu point%s, %zu column%s compared", c->a->nrows,
            c->a->nrows == 1 ? "" : "s", c->ncompared, c->ncompared == 1 ? "" : "s");
    if (c->o->tol > 0) {
        fprintf(out, "%snumbers within %g%%", sep, c->o->tol);
        sep = "; ";
    }
    for (size_t k = 0; k < c->o->ntols; k++, sep = "; ")
        fprintf(out, "%s%s within %g%%", sep, c->o->tols[k].name, c->o->tols[k].pct);
    if (*sep == ';')
        fputc(')', out);
    if (c->nd)
        fprintf(out, ": %zu difference%s\n", c->nd, c->nd == 1 ? "" : "s");
    else
        fprintf(out, ": every figure equal\n");
}

int sweep_compare(const struct sweep_csv *old, const struct sweep_csv *nw,
                  const struct sweep_compare_opts *o, FILE *out, char *err, size_t errlen)
{
    struct cmp c;
    int rc;

    memset(&c, 0, sizeof(c));
    c.a = old;
    c.b = nw;
    c.o = o;
    rc = cmp_setup(&c, err, errlen);
    if (rc == 0 && cmp_collect(&c) != 0) {
        snprintf(err, errlen, "out of memory");
        rc = 2;
    }
    if (rc == 0) {
        if (c.nd)
            print_table(&c, out);
        print_new_columns(&c, out);
        size_t moved = same_params(&c);
        if (moved)
            fprintf(out, "note: %zu point%s only OLD has %s the parameters of one only NEW has: "
                         "the run options differ (the plan's args, or those nictx sweep "
                         "adds), so do the ids\n", moved, moved == 1 ? "" : "s",
                    moved == 1 ? "has" : "have");
        print_summary(&c, out);
        rc = c.nd ? 1 : 0;
    }
    cmp_free(&c);
    return rc;
}
