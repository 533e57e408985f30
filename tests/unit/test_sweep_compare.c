/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sweep_compare.c - cmocka tests for reading results.csv back
 * (sim/sweep/sweep_csv.c: RFC 4180 quoting, errors naming the line) and for
 * comparing two sweep tables (sim/sweep/sweep_compare.c): a column only NEW
 * has is not a difference, one only OLD has is; a point only one side has
 * (and a note when one with the same parameters has another id),
 * a status change and a figure outside its tolerance are; tolerances for
 * every number and per figure (exact name, prefix, the most specific
 * wins); the table's order and cap; bad input returns 2.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep_compare.h"
#include "sweep/sweep_csv.h"

/* ---- helpers ------------------------------------------------------------- */

static void must_parse(struct sweep_csv *t, const char *text)
{
    char err[256];

    if (sweep_csv_parse(t, text, strlen(text), "t.csv", err, sizeof(err)) != 0)
        fail_msg("%s", err);
}

/* The error parsing text gives, or "" if it parses. */
static const char *parse_err(const char *text, size_t len)
{
    static char err[256];
    struct sweep_csv t;

    if (sweep_csv_parse(&t, text, len, "t.csv", err, sizeof(err)) == 0) {
        sweep_csv_free(&t);
        return "";
    }
    assert_int_equal(t.cols.n, 0); /* nothing left on failure */
    assert_null(t.cells);
    return err;
}

/* A comparison's status and what it printed (or its error). */
struct outcome {
    int rc;
    char out[4096];
};

static struct outcome compare_with(const char *old, const char *nw,
                                   const struct sweep_compare_opts *o)
{
    struct outcome r;
    struct sweep_csv a, b;
    char *buf = NULL, err[256] = "";
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    assert_non_null(f);
    must_parse(&a, old);
    must_parse(&b, nw);
    r.rc = sweep_compare(&a, &b, o, f, err, sizeof(err));
    fclose(f);
    snprintf(r.out, sizeof(r.out), "%s%s", buf, err);
    if (r.rc == 2)
        assert_int_equal(len, 0); /* nothing printed on bad input */
    free(buf);
    sweep_csv_free(&a);
    sweep_csv_free(&b);
    return r;
}

static struct outcome compare(const char *old, const char *nw)
{
    struct sweep_compare_opts o = {0, NULL, 0, NULL, SWEEP_COMPARE_SHOW};

    return compare_with(old, nw, &o);
}

static void expect_out(const struct outcome *r, int rc, const char *has)
{
    if (r->rc != rc || !strstr(r->out, has))
        fail_msg("got %d and:\n%s\nexpected %d and '%s'", r->rc, r->out, rc, has);
}

static void expect_lacks(const struct outcome *r, const char *what)
{
    if (strstr(r->out, what))
        fail_msg("'%s' in:\n%s", what, r->out);
}

#define BASE                                                        \
    "point,id,burst,status,bound,mpps,lat.p50,lat.p99\n"             \
    "1,aaa,1,ok,cpu,10,100,200\n"                                   \
    "2,bbb,8,ok,pcie,20,110,220\n"

/* ---- CSV ------------------------------------------------------------------ */

static void test_sweep_csv_quoting(void **state)
{
    struct sweep_csv t;

    (void)state;
    must_parse(&t, "id,\"a,b\",c\r\n"
                   "x,\"1,2\",\"say \"\"hi\"\"\"\r\n"
                   "y,\"two\nlines\",\n"
                   "z,,\" edge \"");
    assert_int_equal(t.cols.n, 3);
    assert_string_equal(t.cols.v[1], "a,b");
    assert_int_equal(t.nrows, 3);
    assert_string_equal(sweep_csv_cell(&t, 0, 1), "1,2");
    assert_string_equal(sweep_csv_cell(&t, 0, 2), "say \"hi\"");
    assert_string_equal(sweep_csv_cell(&t, 1, 1), "two\nlines");
    assert_string_equal(sweep_csv_cell(&t, 1, 2), "");
    assert_string_equal(sweep_csv_cell(&t, 2, 0), "z"); /* no line break at the end */
    assert_string_equal(sweep_csv_cell(&t, 2, 2), " edge ");
    sweep_csv_free(&t);
    assert_int_equal(t.nrows, 0);
}

/* What sweep_csv_field writes reads back as it was. */
static void test_sweep_csv_round_trip(void **state)
{
    static const char *const fields[] = {"plain", "a,b", "q\"q", "l1\nl2", " lead", "", "\"\""};
    size_t n = sizeof(fields) / sizeof(fields[0]);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct sweep_csv t;

    (void)state;
    for (int rec = 0; rec < 2; rec++) {
        for (size_t k = 0; k < n; k++) {
            if (k)
                fputc(',', f);
            sweep_csv_field(f, fields[k]);
        }
        fputc('\n', f);
    }
    fclose(f);
    must_parse(&t, buf);
    assert_int_equal(t.cols.n, n);
    assert_int_equal(t.nrows, 1);
    for (size_t k = 0; k < n; k++) {
        assert_string_equal(t.cols.v[k], fields[k]);
        assert_string_equal(sweep_csv_cell(&t, 0, k), fields[k]);
    }
    sweep_csv_free(&t);
    free(buf);
}

static void test_sweep_csv_errors(void **state)
{
    (void)state;
    assert_string_equal(parse_err("a,b\n1,2\n", 8), "");
    assert_string_equal(parse_err("a,b\n1,\"2\n", 9), "t.csv:2: a quoted field is not closed");
    assert_string_equal(parse_err("a,b\n1,2\"x\n", 10),
                        "t.csv:2: a quote inside an unquoted field");
    assert_string_equal(parse_err("a,b\n1,\"2\"x\n", 11), "t.csv:2: text after a closing quote");
    assert_string_equal(parse_err("a,b\n1,2\n3\n", 10), "t.csv:3: 1 fields, the header has 2");
    /* The line a record starts on, after one with a line break inside. */
    assert_string_equal(parse_err("a,b\n\"x\ny\",2\n1,2,3\n", 18),
                        "t.csv:4: 3 fields, the header has 2");
    assert_string_equal(parse_err("a,b\r1,2\n", 8),
                        "t.csv:1: a carriage return outside quotes and not before a line feed");
    assert_string_equal(parse_err("", 0), "t.csv:1: no header (the file is empty)");
    assert_string_equal(parse_err("\n", 1), "t.csv:1: an empty header");
    assert_string_equal(parse_err("a,b\n1\0,2\n", 9), "t.csv: a NUL byte: not a CSV file");
}

static void test_sweep_csv_load(void **state)
{
    char path[] = "/tmp/test_sweep_compare.XXXXXX", err[512];
    struct sweep_csv t;
    FILE *f;
    int fd = mkstemp(path);

    (void)state;
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    fputs(BASE, f);
    fclose(f);
    assert_int_equal(sweep_csv_load(&t, path, err, sizeof(err)), 0);
    assert_int_equal(t.nrows, 2);
    assert_string_equal(sweep_csv_cell(&t, 1, 5), "20");
    sweep_csv_free(&t);
    assert_int_equal(remove(path), 0);
    assert_int_equal(sweep_csv_load(&t, path, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "No such file"));
}

/* ---- comparing ---------------------------------------------------------------- */

static void test_sweep_compare_equal(void **state)
{
    struct outcome r;

    (void)state;
    r = compare(BASE, BASE);
    assert_string_equal(r.out, "compare: 2 points, 6 columns compared: every figure equal\n");
    assert_int_equal(r.rc, 0);
    /* Numbers as numbers; rows and columns in any order; point not compared. */
    r = compare(BASE, "lat.p99,point,id,burst,status,bound,mpps,lat.p50\n"
                      "220,7,bbb,8,ok,pcie,20.0,1.1e2\n"
                      "2e2,9,aaa,1,ok,cpu,10,100\n");
    expect_out(&r, 0, "every figure equal");
}

static void test_sweep_compare_new_column_ignored(void **state)
{
    struct outcome r;

    (void)state;
    r = compare(BASE, "point,id,burst,status,bound,mpps,lat.p50,lat.p99,lat.p999,wc\n"
                      "1,aaa,1,ok,cpu,10,100,200,300,\n"
                      "2,bbb,8,ok,pcie,20,110,220,330,x\n");
    assert_string_equal(r.out, "new columns, not compared: lat.p999, wc\n"
                               "compare: 2 points, 6 columns compared: every figure equal\n");
    assert_int_equal(r.rc, 0);
}

static void test_sweep_compare_missing_column(void **state)
{
    struct outcome r;

    (void)state;
    r = compare(BASE, "point,id,burst,status,bound,mpps,lat.p50\n"
                      "1,aaa,1,ok,cpu,10,100\n"
                      "2,bbb,8,ok,pcie,20,110\n");
    expect_out(&r, 1, "-      -   lat.p99  (column)  missing\n");
    expect_out(&r, 1, "compare: 2 points, 5 columns compared: 1 difference\n");
}

static void test_sweep_compare_points(void **state)
{
    struct outcome r;

    (void)state;
    /* bbb gone, ccc new: two differences, OLD's first. */
    r = compare(BASE, "point,id,burst,status,bound,mpps,lat.p50,lat.p99\n"
                      "1,aaa,1,ok,cpu,10,100,200\n"
                      "2,ccc,4,ok,cpu,15,105,210\n");
    expect_out(&r, 1, "point  id   figure  old      new      change\n"
                      "2      bbb  -       (point)  missing\n"
                      "2      ccc  -       missing  (point)\n"
                      "compare: 2 points, 6 columns compared: 2 differences\n");
}

/* A point whose command changed (a run option added to every point) has a
 * new id: the note says so when its parameters are the same. */
static void test_sweep_compare_ids_changed(void **state)
{
    static const char *const names[] = {"burst"};
    struct strv params = {(char **)names, 1, 2};
    struct sweep_compare_opts o = {0, NULL, 0, &params, SWEEP_COMPARE_SHOW};
    struct outcome r;

    (void)state;
    r = compare_with(BASE, "point,id,burst,status,bound,mpps,lat.p50,lat.p99\n"
                           "1,aaa,1,ok,cpu,10,100,200\n"
                           "2,ccc,8,ok,pcie,20,110,220\n", &o);
    expect_out(&r, 1, "note: 1 point only OLD has has the parameters of one only NEW has: "
                      "the run options differ");
    r = compare_with(BASE, "point,id,burst,status,bound,mpps,lat.p50,lat.p99\n"
                           "1,aaa,1,ok,cpu,10,100,200\n"
                           "2,ccc,4,ok,pcie,20,110,220\n", &o);
    expect_out(&r, 1, ": 2 differences");
    expect_lacks(&r, "note:");
}

static void test_sweep_compare_status_first(void **state)
{
    struct outcome r;

    (void)state;
    /* Point 2 failed and its figures moved: its status leads. */
    r = compare(BASE, "point,id,burst,status,bound,mpps,lat.p50,lat.p99\n"
                      "1,aaa,1,ok,cpu,10,100,200\n"
                      "2,bbb,8,failed,PCIE,19,110,\n");
    expect_out(&r, 1, "point  id   figure   old   new      change\n"
                      "2      bbb  status   ok    failed\n"
                      "2      bbb  bound    pcie  PCIE\n"
                      "2      bbb  mpps     20    19       -5%\n"
                      "2      bbb  lat.p99  220   (empty)\n"
                      "compare: 2 points, 6 columns compared: 4 differences\n");
}

#define MOVED                                                       \
    "point,id,burst,status,bound,mpps,lat.p50,lat.p99\n"             \
    "1,aaa,1,ok,cpu,10.5,103,200\n"                                 \
    "2,bbb,8,ok,pcie,20,110,209\n"

static void test_sweep_compare_tolerance(void **state)
{
    struct sweep_compare_tol tols[3];
    struct sweep_compare_opts o = {0, tols, 0, NULL, SWEEP_COMPARE_SHOW};
    char err[256];
    struct outcome r;

    (void)state;
    /* mpps +5%, lat.p50 +3%, lat.p99 -5%. */
    r = compare_with(BASE, MOVED, &o);
    expect_out(&r, 1, ": 3 differences");
    o.tol = 5;
    r = compare_with(BASE, MOVED, &o);
    expect_out(&r, 0, "(numbers within 5%): every figure equal");
    o.tol = 4.9;
    r = compare_with(BASE, MOVED, &o);
    expect_out(&r, 1, ": 2 differences"); /* mpps and lat.p99 */
    expect_lacks(&r, "lat.p50");
    /* One figure's own, within and outside. */
    o.tol = 0;
    assert_int_equal(sweep_compare_tol_parse("mpps=5", &tols[0], err, sizeof(err)), 0);
    o.ntols = 1;
    r = compare_with(BASE, MOVED, &o);
    expect_out(&r, 1, "(mpps within 5%): 2 differences");
    expect_lacks(&r, "aaa  mpps");
    assert_int_equal(sweep_compare_tol_parse("mpps=4.99", &tols[0], err, sizeof(err)), 0);
    r = compare_with(BASE, MOVED, &o);
    expect_out(&r, 1, ": 3 differences");
    /* A prefix for lat.*, the exact name more specific: lat.p99 stays strict. */
    assert_int_equal(sweep_compare_tol_parse("mpps=5", &tols[0], err, sizeof(err)), 0);
    assert_int_equal(sweep_compare_tol_parse("lat.*=10", &tols[1], err, sizeof(err)), 0);
    assert_int_equal(sweep_compare_tol_parse("lat.p99=0", &tols[2], err, sizeof(err)), 0);
    o.ntols = 3;
    r = compare_with(BASE, MOVED, &o);
    expect_out(&r, 1, "(mpps within 5%; lat.* within 10%; lat.p99 within 0%): 1 difference");
    expect_out(&r, 1, "bbb  lat.p99  220  209  -5%");
    o.ntols = 2;
    r = compare_with(BASE, MOVED, &o);
    expect_out(&r, 0, "every figure equal");
    /* Of two as specific, the last given wins. */
    assert_int_equal(sweep_compare_tol_parse("lat.*=1", &tols[0], err, sizeof(err)), 0);
    assert_int_equal(sweep_compare_tol_parse("lat.*=5", &tols[1], err, sizeof(err)), 0);
    assert_int_equal(sweep_compare_tol_parse("mpps=5", &tols[2], err, sizeof(err)), 0);
    o.ntols = 3;
    r = compare_with(BASE, MOVED, &o);
    expect_out(&r, 0, "every figure equal");
    /* Text compares exactly whatever the tolerance. */
    o.tol = 50;
    o.ntols = 0;
    r = compare_with(BASE, "point,id,burst,status,bound,mpps,lat.p50,lat.p99\n"
                           "1,aaa,1,ok,cpu,10,100,200\n"
                           "2,bbb,8,ok,cpu,20,110,220\n", &o);
    expect_out(&r, 1, "bbb  bound   pcie  cpu\n");
}

static void test_sweep_compare_tol_parse(void **state)
{
    struct sweep_compare_tol t;
    char err[256];

    (void)state;
    assert_int_equal(sweep_compare_tol_parse("0.5", &t, err, sizeof(err)), 0);
    assert_string_equal(t.name, "");
    assert_true(t.pct == 0.5);
    assert_int_equal(sweep_compare_tol_parse("latency_ns.p99=2", &t, err, sizeof(err)), 0);
    assert_string_equal(t.name, "latency_ns.p99");
    assert_true(t.pct == 2);
    static const char *const bad[] = {"", "-1", "x", "1%", "=1", "mpps=", "mpps=-1", "1e3",
                                      "1.2.3", "nan", "mpps=1,2"};
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
        err[0] = '\0';
        if (sweep_compare_tol_parse(bad[k], &t, err, sizeof(err)) == 0)
            fail_msg("--tol '%s' accepted", bad[k]);
        assert_non_null(strstr(err, "--tol "));
    }
}

static void test_sweep_compare_cap_and_params(void **state)
{
    static const char *const names[] = {"burst", "nope"};
    struct strv params = {(char **)names, 2, 3};
    struct sweep_compare_opts o = {0, NULL, 0, &params, 2};
    struct outcome r;

    (void)state;
    r = compare_with(BASE, "point,id,burst,status,bound,mpps,lat.p50,lat.p99\n"
                           "1,aaa,1,ok,cpu,11,101,201\n"
                           "2,bbb,8,ok,pcie,21,111,221\n", &o);
    expect_out(&r, 1, "point  id   parameters  figure   old  new  change\n"
                      "1      aaa  burst=1     mpps     10   11   +10%\n"
                      "1      aaa  burst=1     lat.p50  100  101  +1%\n"
                      "... and 4 more\n"
                      "compare: 2 points, 6 columns compared: 6 differences\n");
    o.show = 0; /* every line */
    r = compare_with(BASE, "point,id,burst,status,bound,mpps,lat.p50,lat.p99\n"
                           "1,aaa,1,ok,cpu,11,101,201\n"
                           "2,bbb,8,ok,pcie,21,111,221\n", &o);
    expect_out(&r, 1, "2      bbb  burst=8     lat.p99  220  221  +0.455%\n");
    expect_lacks(&r, "more");
}

static void test_sweep_compare_bad_input(void **state)
{
    struct sweep_compare_tol tol = {"lat.p95", 1};
    struct sweep_compare_opts o = {0, &tol, 1, NULL, SWEEP_COMPARE_SHOW};
    struct outcome r;

    (void)state;
    r = compare("point,burst,mpps\n1,1,10\n", BASE);
    expect_out(&r, 2, "OLD: no id column: not a sweep's results.csv");
    r = compare(BASE, "point,burst,mpps\n1,1,10\n");
    expect_out(&r, 2, "NEW: no id column");
    r = compare(BASE, "id,mpps\naaa,1\nbbb,2\naaa,3\n");
    expect_out(&r, 2, "NEW: point id 'aaa' twice (rows 1 and 3)");
    /* A FIGURE no column both have: a typo must not pass everything. */
    r = compare_with(BASE, BASE, &o);
    expect_out(&r, 2, "--tol lat.p95=1: lat.p95 names no column both tables have");
    snprintf(tol.name, sizeof(tol.name), "lat.x*");
    r = compare_with(BASE, BASE, &o);
    expect_out(&r, 2, "names no column");
    snprintf(tol.name, sizeof(tol.name), "id"); /* not compared */
    r = compare_with(BASE, BASE, &o);
    expect_out(&r, 2, "names no column");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_csv_quoting),
        cmocka_unit_test(test_sweep_csv_round_trip),
        cmocka_unit_test(test_sweep_csv_errors),
        cmocka_unit_test(test_sweep_csv_load),
        cmocka_unit_test(test_sweep_compare_equal),
        cmocka_unit_test(test_sweep_compare_new_column_ignored),
        cmocka_unit_test(test_sweep_compare_missing_column),
        cmocka_unit_test(test_sweep_compare_points),
        cmocka_unit_test(test_sweep_compare_ids_changed),
        cmocka_unit_test(test_sweep_compare_status_first),
        cmocka_unit_test(test_sweep_compare_tolerance),
        cmocka_unit_test(test_sweep_compare_tol_parse),
        cmocka_unit_test(test_sweep_compare_cap_and_params),
        cmocka_unit_test(test_sweep_compare_bad_input),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
