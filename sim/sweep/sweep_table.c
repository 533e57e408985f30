/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_table.c - rows and stable columns of a sweep's results, written as
 * CSV and JSON (see sweep_table.h).
 */
#include "sweep/sweep_table.h"

#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "sweep/sweep_csv.h"

void sweep_table_init(struct sweep_table *t)
{
    memset(t, 0, sizeof(*t));
    strv_init(&t->cols);
}

void sweep_table_free(struct sweep_table *t)
{
    for (size_t r = 0; r < t->nrows; r++)
        json_flat_free(&t->rows[r].cells);
    free(t->rows);
    strv_free(&t->cols);
    sweep_table_init(t);
}

/* key is `top` or under it. */
static int under(const char *key, const char *top)
{
    size_t n = strlen(top);

    return strncmp(key, top, n) == 0 && (key[n] == '\0' || key[n] == '.');
}

int sweep_table_keeps(const char *key)
{
    return !under(key, "sim") && !under(key, "cover");
}

/* The cells of point i: point, id, parameters, then the kept figures. */
static int row_cells(struct json_flat *c, const struct sweep_spec *s, size_t i,
                     const struct json_flat *result)
{
    char id[SWEEP_ID_BYTES], num[32];
    int rc;

    snprintf(num, sizeof(num), "%zu", i + 1);
    sweep_point_id(s, i, id);
    rc = json_flat_add(c, "point", JSON_FLAT_NUM, num) |
         json_flat_add(c, "id", JSON_FLAT_STR, id);
    for (size_t p = 0; p < s->nparams && rc == 0; p++) {
        const char *v = sweep_point_value(s, i, p);
        rc = json_flat_add(c, s->params[p].name,
                           json_is_number(v) ? JSON_FLAT_NUM : JSON_FLAT_STR, v);
    }
    for (size_t k = 0; k < result->n && rc == 0; k++) {
        const struct json_flat_item *it = &result->items[k];
        /* A figure named like a parameter column would repeat it: the
         * parameter's column already holds what the point asked for. */
        if (sweep_table_keeps(it->key) && !json_flat_get(c, it->key))
            rc = json_flat_add(c, it->key, it->type, it->text);
    }
    return rc ? -1 : 0;
}

/* Merge the row's keys into the columns (see the order in sweep_table.h). */
static int merge_columns(struct strv *cols, const struct json_flat *c)
{
    long prev = -1;

    for (size_t k = 0; k < c->n; k++) {
        const char *key = c->items[k].key;
        long at = (size_t)(prev + 1) < cols->n && strcmp(cols->v[prev + 1], key) == 0
                      ? prev + 1
                      : strv_find(cols, key);
        if (at < 0) {
            at = prev + 1;
            if (strv_insert(cols, (size_t)at, key) != 0)
                return -1;
        }
        prev = at;
    }
    return 0;
}

int sweep_table_add(struct sweep_table *t, const struct sweep_spec *s, size_t i,
                    struct json_flat *result)
{
    struct json_flat cells;
    int rc = -1;

    json_flat_init(&cells);
    if (t->nrows == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        struct sweep_row *nr = realloc(t->rows, cap * sizeof(*nr));
        if (!nr)
            goto out;
        t->rows = nr;
        t->cap = cap;
    }
    if (row_cells(&cells, s, i, result) != 0 || merge_columns(&t->cols, &cells) != 0)
        goto out;
    t->rows[t->nrows].point = i;
    t->rows[t->nrows++].cells = cells;
    json_flat_init(&cells);
    rc = 0;
out:
    json_flat_free(&cells);
    json_flat_free(result);
    return rc;
}

const struct json_flat_item *sweep_table_cell(const struct sweep_table *t, size_t r,
                                              const char *key)
{
    return r < t->nrows ? json_flat_get(&t->rows[r].cells, key) : NULL;
}

int sweep_table_num(const struct sweep_table *t, size_t r, const char *key, double *v)
{
    const struct json_flat_item *it = sweep_table_cell(t, r, key);

    if (!it || it->type != JSON_FLAT_NUM)
        return 0;
    *v = strtod(it->text, NULL);
    return 1;
}

/* The cell of column c in row cells, looked up from a cursor that follows
 * the columns (rows mostly hold their keys in column order). */
static const struct json_flat_item *cell_at(const struct json_flat *cells, size_t *cursor,
                                            const char *col)
{
    if (*cursor < cells->n && strcmp(cells->items[*cursor].key, col) == 0)
        return &cells->items[(*cursor)++];
    return json_flat_get(cells, col);
}

/* ---- CSV ------------------------------------------------------------------ */

int sweep_table_csv(const struct sweep_table *t, FILE *f)
{
    for (size_t c = 0; c < t->cols.n; c++) {
        if (c)
            fputc(',', f);
        sweep_csv_field(f, t->cols.v[c]);
    }
    fputc('\n', f);
    for (size_t r = 0; r < t->nrows; r++) {
        size_t cursor = 0;
        for (size_t c = 0; c < t->cols.n; c++) {
            const struct json_flat_item *it = cell_at(&t->rows[r].cells, &cursor, t->cols.v[c]);
            if (c)
                fputc(',', f);
            if (it && it->type != JSON_FLAT_NULL)
                sweep_csv_field(f, it->text);
        }
        fputc('\n', f);
    }
    return fflush(f) != 0 || ferror(f) ? -1 : 0;
}

/* ---- JSON ----------------------------------------------------------------- */

static void json_cell(struct json *j, const struct json_flat_item *it)
{
    switch (it->type) {
    case JSON_FLAT_NULL: json_null(j, it->key); break;
    case JSON_FLAT_BOOL: json_bool(j, it->key, strcmp(it->text, "true") == 0); break;
    case JSON_FLAT_NUM: json_num_text(j, it->key, it->text); break;
    case JSON_FLAT_STR: json_str(j, it->key, it->text); break;
    }
}

int sweep_table_json(const struct sweep_table *t, const char *name, FILE *f)
{
    struct json j;

    json_init(&j, f);
    json_obj_begin(&j, NULL);
    json_str(&j, "name", name);
    json_arr_begin(&j, "columns");
    for (size_t c = 0; c < t->cols.n; c++)
        json_str(&j, NULL, t->cols.v[c]);
    json_arr_end(&j);
    json_arr_begin(&j, "rows");
    for (size_t r = 0; r < t->nrows; r++) {
        size_t cursor = 0;
        json_obj_begin(&j, NULL);
        for (size_t c = 0; c < t->cols.n; c++) {
            const struct json_flat_item *it = cell_at(&t->rows[r].cells, &cursor, t->cols.v[c]);
            if (it)
                json_cell(&j, it);
        }
        json_obj_end(&j);
    }
    json_arr_end(&j);
    json_obj_end(&j);
    return json_finish(&j);
}
