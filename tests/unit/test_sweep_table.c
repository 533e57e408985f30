/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sweep_table.c - cmocka tests for sim/sweep/sweep_table.c: rows of point,
 * id, parameters and flattened figures; the wall-clock "sim" figures left
 * out; stable column order when later rows bring new keys; CSV quoting;
 * JSON with numbers exactly as the runs wrote them.
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

#include "lib/json_flat.h"
#include "sweep/sweep.h"
#include "sweep/sweep_table.h"

/* A sweep burst=1,8 x protocol=tail (two points) and its table. */
struct fx {
    struct sweep_spec s;
    struct sweep_table t;
};

static int fx_setup(void **state)
{
    struct fx *x = calloc(1, sizeof(*x));
    char err[256];

    if (!x)
        return -1;
    sweep_spec_init(&x->s);
    if (sweep_spec_set(&x->s, "burst=1,8", err, sizeof(err)) != 0 ||
        sweep_spec_set(&x->s, "protocol=tail", err, sizeof(err)) != 0)
        return -1;
    sweep_table_init(&x->t);
    *state = x;
    return 0;
}

static int fx_teardown(void **state)
{
    struct fx *x = *state;

    sweep_table_free(&x->t);
    sweep_spec_free(&x->s);
    free(x);
    return 0;
}

/* Add point i with the figures of a JSON document. */
static void add(struct fx *x, size_t i, const char *doc)
{
    struct json_flat f;
    char err[256];

    assert_int_equal(json_flat_parse(&f, doc, strlen(doc), err, sizeof(err)), 0);
    assert_int_equal(sweep_table_add(&x->t, &x->s, i, &f), 0);
    assert_int_equal(f.n, 0); /* taken */
}

/* What a writer wrote, as a string (freed by the caller). */
static char *csv_text(const struct sweep_table *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    assert_non_null(f);
    assert_int_equal(sweep_table_csv(t, f), 0);
    fclose(f);
    return buf;
}

static void test_sweep_table_columns(void **state)
{
    struct fx *x = *state;
    char id0[SWEEP_ID_BYTES], id1[SWEEP_ID_BYTES], want[512];
    char *csv;

    add(x, 0, "{\"mpps\": 4.5, \"sim\": {\"wall_s\": 1.2}, \"status\": \"ok\"}");
    /* A later row brings "diagnosis" right after "status", where it is in
     * that row, and lacks "mpps"; null is an empty field. */
    add(x, 1, "{\"status\": \"violation\", \"diagnosis\": \"no barrier, d=3\", "
              "\"latency_ns\": {\"p50\": null}}");
    sweep_point_id(&x->s, 0, id0);
    sweep_point_id(&x->s, 1, id1);
    snprintf(want, sizeof(want),
             "point,id,burst,protocol,mpps,status,diagnosis,latency_ns.p50\n"
             "1,%s,1,tail,4.5,ok,,\n"
             "2,%s,8,tail,,violation,\"no barrier, d=3\",\n", id0, id1);
    csv = csv_text(&x->t);
    assert_string_equal(csv, want); /* sim.wall_s is nowhere */
    free(csv);
}

static void test_sweep_table_keeps(void **state)
{
    (void)state;
    assert_false(sweep_table_keeps("sim"));
    assert_false(sweep_table_keeps("sim.wall_s"));
    assert_true(sweep_table_keeps("simple"));   /* only the "sim" object */
    assert_true(sweep_table_keeps("mpps"));
}

static void test_sweep_table_csv_quoting(void **state)
{
    struct fx *x = *state;
    char *csv;

    add(x, 0, "{\"a\": \"say \\\"hi\\\"\", \"b\": \"x\\ny\", \"c\": \" pad\", \"d\": \"plain\"}");
    csv = csv_text(&x->t);
    assert_non_null(strstr(csv, ",\"say \"\"hi\"\"\",\"x\ny\",\" pad\",plain\n"));
    free(csv);
}

static void test_sweep_table_json_exact(void **state)
{
    struct fx *x = *state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    add(x, 0, "{\"mpps\": 11.142000000000001, \"big\": 18446744073709551615, \"z\": null, "
              "\"ok\": true}");
    add(x, 1, "{\"mpps\": 1e3}");
    assert_non_null(f);
    assert_int_equal(sweep_table_json(&x->t, "t", f), 0);
    fclose(f);
    assert_non_null(strstr(buf, "\"mpps\": 11.142000000000001,"));
    assert_non_null(strstr(buf, "\"big\": 18446744073709551615,"));
    assert_non_null(strstr(buf, "\"z\": null,"));
    assert_non_null(strstr(buf, "\"ok\": true"));
    assert_non_null(strstr(buf, "\"mpps\": 1e3"));
    assert_non_null(strstr(buf, "\"burst\": 8,"));        /* a number-like parameter */
    assert_non_null(strstr(buf, "\"protocol\": \"tail\"")); /* a word */
    assert_null(strstr(buf, "\"big\": null"));             /* a key a row lacks is left out */
    free(buf);
}

static void test_sweep_table_num(void **state)
{
    struct fx *x = *state;
    double v = 0;

    add(x, 0, "{\"mpps\": 4.5, \"bound\": \"cpu\", \"p\": null}");
    assert_true(sweep_table_num(&x->t, 0, "mpps", &v));
    assert_true(v == 4.5);
    assert_false(sweep_table_num(&x->t, 0, "bound", &v)); /* text */
    assert_false(sweep_table_num(&x->t, 0, "p", &v));     /* null */
    assert_false(sweep_table_num(&x->t, 0, "nope", &v));  /* missing */
    assert_false(sweep_table_num(&x->t, 1, "mpps", &v));  /* no such row */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sweep_table_columns, fx_setup, fx_teardown),
        cmocka_unit_test(test_sweep_table_keeps),
        cmocka_unit_test_setup_teardown(test_sweep_table_csv_quoting, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_sweep_table_json_exact, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_sweep_table_num, fx_setup, fx_teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
