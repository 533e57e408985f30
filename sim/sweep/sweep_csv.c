/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_csv.c - RFC 4180 fields written and tables read (see sweep_csv.h).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "sweep/sweep_csv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void sweep_csv_init(struct sweep_csv *t)
{
    memset(t, 0, sizeof(*t));
    strv_init(&t->cols);
}

void sweep_csv_free(struct sweep_csv *t)
{
    for (size_t k = 0; t->cells && k < t->nrows * t->cols.n; k++)
        free(t->cells[k]);
    free(t->cells);
    strv_free(&t->cols);
    sweep_csv_init(t);
}

const char *sweep_csv_cell(const struct sweep_csv *t, size_t r, size_t c)
{
    return t->cells[r * t->cols.n + c];
}

void sweep_csv_field(FILE *f, const char *s)
{
    size_t n = strlen(s);

    if (!strpbrk(s, ",\"\r\n") && !(n && (s[0] == ' ' || s[n - 1] == ' '))) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* ---- reading ---------------------------------------------------------------- */

struct csv_parser {
    const char *s;
    size_t len, i;
    unsigned line;   /* of p->i, 1-based */
    char *buf;       /* the field being read */
    size_t blen, bcap;
    const char *why; /* set on failure */
};

static int put(struct csv_parser *p, char c)
{
    if (p->blen + 1 >= p->bcap) {
        size_t cap = p->bcap ? 2 * p->bcap : 256;
        char *nb = realloc(p->buf, cap);
        if (!nb)
            return p->why = "out of memory", -1;
        p->buf = nb;
        p->bcap = cap;
    }
    p->buf[p->blen++] = c;
    p->buf[p->blen] = '\0';
    return 0;
}

/* An empty field in the buffer. */
static int field_start(struct csv_parser *p)
{
    p->blen = 0;
    if (!p->buf && put(p, '\0') != 0)
        return -1;
    p->blen = 0;
    p->buf[0] = '\0';
    return 0;
}

/* A quoted field's text, from after its opening quote to after its closing one. */
static int quoted(struct csv_parser *p)
{
    for (;;) {
        if (p->i >= p->len)
            return p->why = "a quoted field is not closed", -1;
        char c = p->s[p->i++];
        if (c == '"' && !(p->i < p->len && p->s[p->i] == '"'))
            return 0;
        if (c == '"')
            p->i++; /* "" is one quote */
        if (c == '\n')
            p->line++;
        if (put(p, c) != 0)
            return -1;
    }
}

static int unquoted(struct csv_parser *p)
{
    while (p->i < p->len && !strchr(",\r\n", p->s[p->i])) {
        if (p->s[p->i] == '"')
            return p->why = "a quote inside an unquoted field", -1;
        if (put(p, p->s[p->i++]) != 0)
            return -1;
    }
    return 0;
}

/* The delimiter after a field: *more is 1 after a comma, 0 at the end of
 * the record (line break or end of text). */
static int delimiter(struct csv_parser *p, int *more)
{
    *more = 0;
    if (p->i >= p->len)
        return 0;
    if (p->s[p->i] == ',') {
        p->i++;
        *more = 1;
        return 0;
    }
    if (p->s[p->i] == '\r' && p->i + 1 < p->len && p->s[p->i + 1] == '\n')
        p->i++;
    if (p->s[p->i] == '\r')
        return p->why = "a carriage return outside quotes and not before a line feed", -1;
    if (p->s[p->i] != '\n')
        return p->why = "text after a closing quote", -1;
    p->i++;
    p->line++;
    return 0;
}

/* One record into rec (emptied first): 0, or -1 with p->why. */
static int record(struct csv_parser *p, struct strv *rec)
{
    int more = 1;

    strv_free(rec);
    while (more) {
        if (field_start(p) != 0)
            return -1;
        if (p->i < p->len && p->s[p->i] == '"') {
            p->i++;
            if (quoted(p) != 0)
                return -1;
        } else if (unquoted(p) != 0) {
            return -1;
        }
        if (delimiter(p, &more) != 0)
            return -1;
        if (strv_push(rec, p->buf) != 0)
            return p->why = "out of memory", -1;
    }
    return 0;
}

/* Append a row's fields to t (which takes the strings). */
static int add_row(struct sweep_csv *t, struct strv *rec, size_t *cap)
{
    size_t nc = t->cols.n;

    if ((t->nrows + 1) * nc > *cap) {
        size_t ncap = *cap ? 2 * *cap : 64 * nc;
        char **nv = realloc(t->cells, ncap * sizeof(*nv));
        if (!nv)
            return -1;
        t->cells = nv;
        *cap = ncap;
    }
    memcpy(t->cells + t->nrows * nc, rec->v, nc * sizeof(char *));
    t->nrows++;
    free(rec->v); /* the strings are the table's now */
    strv_init(rec);
    return 0;
}

static int parse_records(struct sweep_csv *t, struct csv_parser *p, char *msg, size_t len)
{
    struct strv rec;
    size_t cap = 0;
    unsigned at;
    int rc = 0;

    strv_init(&rec);
    while (rc == 0 && p->i < p->len) {
        at = p->line;
        if (record(p, &rec) != 0) {
            snprintf(msg, len, "%u: %s", at, p->why);
            rc = -1;
        } else if (t->cols.n == 0 && rec.n == 1 && !*rec.v[0]) {
            snprintf(msg, len, "%u: an empty header", at);
            rc = -1;
        } else if (t->cols.n == 0) {
            rc = strv_extend(&t->cols, &rec);
            if (rc != 0)
                snprintf(msg, len, "%u: out of memory", at);
        } else if (rec.n != t->cols.n) {
            snprintf(msg, len, "%u: %zu fields, the header has %zu", at, rec.n, t->cols.n);
            rc = -1;
        } else if (add_row(t, &rec, &cap) != 0) {
            snprintf(msg, len, "%u: out of memory", at);
            rc = -1;
        }
    }
    strv_free(&rec);
    if (rc == 0 && t->cols.n == 0) {
        snprintf(msg, len, "1: no header (the file is empty)");
        rc = -1;
    }
    return rc;
}

int sweep_csv_parse(struct sweep_csv *t, const char *text, size_t len, const char *name,
                    char *err, size_t errlen)
{
    struct csv_parser p = {text, len, 0, 1, NULL, 0, 0, NULL};
    char msg[256];
    int rc;

    sweep_csv_init(t);
    if (memchr(text, '\0', len)) {
        snprintf(err, errlen, "%s: a NUL byte: not a CSV file", name);
        return -1;
    }
    rc = parse_records(t, &p, msg, sizeof(msg));
    free(p.buf);
    if (rc != 0) {
        snprintf(err, errlen, "%s:%s", name, msg);
        sweep_csv_free(t);
    }
    return rc;
}

int sweep_csv_load(struct sweep_csv *t, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    size_t len = 0;
    FILE *m;
    int rc = -1;

    sweep_csv_init(t);
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    m = open_memstream(&text, &len);
    if (m) {
        char chunk[65536];
        size_t n;
        while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
            fwrite(chunk, 1, n, m);
        rc = ferror(f) ? -1 : 0;
        if (fclose(m) != 0)
            rc = -1;
    }
    if (rc != 0)
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno ? errno : EIO));
    else
        rc = sweep_csv_parse(t, text, len, path, err, errlen);
    fclose(f);
    free(text);
    return rc;
}
