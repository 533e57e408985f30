/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_merge.c - a sweep's results collected into its table, plots and
 * report (see sweep_merge.h).
 */
#include "sweep/sweep_merge.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/json.h"
#include "lib/json_flat.h"
#include "sweep/sweep_plot.h"
#include "sweep/sweep_point.h"
#include "sweep/sweep_report.h"
#include "sweep/sweep_table.h"

/* Every point's JSON that exists, as rows: 0, or -1 out of memory. */
static int load_rows(const struct sweep_spec *s, const char *dir, struct sweep_table *t)
{
    char id[SWEEP_ID_BYTES], json[SWEEP_PATH_BYTES], log[SWEEP_PATH_BYTES], why[512];
    size_t n = sweep_npoints(s);

    for (size_t i = 0; i < n; i++) {
        struct json_flat result;
        sweep_point_id(s, i, id);
        if (sweep_point_paths(dir, id, json, log, sizeof(json)) != 0 || access(json, F_OK) != 0)
            continue;
        if (json_flat_load(&result, json, why, sizeof(why)) != 0) {
            fprintf(stderr, "nictx sweep: point %zu: %s; counted as missing\n", i + 1, why);
            continue;
        }
        if (sweep_table_add(t, s, i, &result) != 0)
            return -1;
    }
    return 0;
}

typedef int (*table_writer)(const struct sweep_table *t, const char *name, FILE *f);

static int csv_writer(const struct sweep_table *t, const char *name, FILE *f)
{
    (void)name;
    return sweep_table_csv(t, f);
}

/* DIR/FILE written by fn, atomically. */
static int write_table(const char *dir, const char *file, table_writer fn,
                       const struct sweep_table *t, const char *name, char *err, size_t errlen)
{
    char path[SWEEP_PATH_BYTES + 32];
    struct afile af;

    snprintf(path, sizeof(path), "%s/%s", dir, file);
    if (afile_open(&af, path) != 0 || fn(t, name, af.f) != 0 || afile_commit(&af) != 0) {
        afile_abort(&af);
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

static int write_outputs(const struct sweep_spec *s, const struct sweep_table *t,
                         const char *dir, const char *shown_dir, int plots, char *err,
                         size_t errlen)
{
    const char *name = *s->name ? s->name : "sweep";
    struct sweep_plots pl;
    struct sweep_joblog jobs;
    struct sweep_report_in in = {s, t, NULL, shown_dir, dir, &jobs};
    char path[SWEEP_PATH_BYTES + 32];
    int rc;

    if (write_table(dir, "results.csv", csv_writer, t, name, err, errlen) != 0 ||
        write_table(dir, "results.json", sweep_table_json, t, name, err, errlen) != 0)
        return -1;
    if (plots) {
        if (sweep_plots_make(s, t, dir, &pl, err, errlen) != 0)
            return -1;
        in.plots = &pl;
    }
    if (sweep_joblog_load(&jobs, dir) != 0) {
        snprintf(err, errlen, "out of memory reading %s/%s", dir, SWEEP_JOBLOG);
        return -1;
    }
    snprintf(path, sizeof(path), "%s/report.md", dir);
    rc = sweep_report_write(&in, path, err, errlen);
    sweep_joblog_free(&jobs);
    return rc;
}

int sweep_merge(const struct sweep_spec *s, const char *dir, const char *shown_dir, int plots,
                FILE *headline, struct sweep_merge_stats *st, char *err, size_t errlen)
{
    struct sweep_table t;
    int rc;

    sweep_table_init(&t);
    if (load_rows(s, dir, &t) != 0) {
        snprintf(err, errlen, "out of memory reading the results");
        sweep_table_free(&t);
        return -1;
    }
    st->points = sweep_npoints(s);
    if (st->result) {
        memset(st->result, 0, st->points);
        for (size_t r = 0; r < t.nrows; r++) {
            const struct json_flat_item *it = sweep_table_cell(&t, r, "status");
            st->result[t.rows[r].point] = it && strcmp(it->text, "ok") == 0 ? 1 : 2;
        }
    }
    st->missing = sweep_report_missing(s, &t);
    st->not_ok = sweep_report_not_ok(&t);
    rc = write_outputs(s, &t, dir, shown_dir, plots, err, errlen);
    if (rc == 0 && headline)
        sweep_report_headline(headline, s, &t);
    sweep_table_free(&t);
    return rc;
}
