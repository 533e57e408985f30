/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_table.h - a sweep's results as one table: a row per point, a
 * column per parameter and per figure of the point's run JSON; written as
 * results.csv and results.json.
 *
 * Columns: `point` (1-based), `id`, each parameter in the sweep's order,
 * then every key of the run's JSON flattened (json_flat.h: "mpps",
 * "latency_ns.p99", "pcie_bytes_per_pkt.h2d.doorbell").  Keys under "sim"
 * are left out: they hold the simulator's wall-clock figures, which differ
 * between two runs of one point (report.h), and the table must not, so that
 * two sweeps of one plan give byte-identical files.  The per-point JSON
 * keeps them.
 *
 * Order.  Rows stay in the order they were added (the caller adds them in
 * point order).  Columns are in the order of the first row that has them; a
 * key first met in a later row goes right after the key that precedes it
 * in that row.  So the table depends only on the rows, not on when or
 * where they were run.
 *
 * Files.  CSV (RFC 4180, sweep_csv.h): a header of column names, one
 * line per row, fields quoted when they hold a comma, quote, line break or
 * edge blank, JSON null and a key a row lacks as an empty field.  JSON: {"name",
 * "columns": [...], "rows": [{...}, ...]}, each row with its keys in column
 * order, numbers exactly as the run wrote them, a key the row lacks left out.
 *
 * Contract: functions that can fail return 0, or -1 (out of memory, or a
 * write error on the FILE).  No global state.
 */
#ifndef NICTX_SWEEP_TABLE_H
#define NICTX_SWEEP_TABLE_H

#include <stdio.h>

#include "lib/json_flat.h"
#include "lib/strv.h"
#include "sweep/sweep.h"

struct sweep_row {
    size_t point;           /* 0-based point index */
    struct json_flat cells; /* point, id, parameters, then figures */
};

struct sweep_table {
    struct strv cols;
    struct sweep_row *rows;
    size_t nrows, cap;
};

void sweep_table_init(struct sweep_table *t);
void sweep_table_free(struct sweep_table *t);

/* 1 if a run-JSON key goes into the table: not under "sim" (wall-clock
 * figures) nor "cover" (the cover points, docs/coverage.md). */
int sweep_table_keeps(const char *key);

/* Add point i of s as a row with the figures of *result, whose items the
 * table takes (*result is left empty, also on failure). */
int sweep_table_add(struct sweep_table *t, const struct sweep_spec *s, size_t i,
                    struct json_flat *result);

/* Row r's cell for a column key, or NULL if the row lacks it. */
const struct json_flat_item *sweep_table_cell(const struct sweep_table *t, size_t r,
                                              const char *key);
/* The cell as a number: 1 with *v set, or 0 (missing, null, not a number). */
int sweep_table_num(const struct sweep_table *t, size_t r, const char *key, double *v);

int sweep_table_csv(const struct sweep_table *t, FILE *f);
int sweep_table_json(const struct sweep_table *t, const char *name, FILE *f);

#endif /* NICTX_SWEEP_TABLE_H */
