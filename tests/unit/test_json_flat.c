/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_json_flat.c - cmocka tests for sim/lib/json_flat.c: flattening to
 * dotted keys in document order, values kept exactly (numbers as written),
 * escapes and Unicode, and every kind of malformed document refused with
 * its line and column.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/json_flat.h"

/* The flattened document as "key=text;" items, or "ERR: why". */
static const char *flat(const char *doc)
{
    static char out[4096];
    struct json_flat f;
    char err[256];

    if (json_flat_parse(&f, doc, strlen(doc), err, sizeof(err)) != 0) {
        assert_int_equal(f.n, 0);
        snprintf(out, sizeof(out), "ERR: %s", err);
        return out;
    }
    out[0] = '\0';
    for (size_t k = 0; k < f.n; k++)
        snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s=%s;", f.items[k].key,
                 f.items[k].text);
    json_flat_free(&f);
    return out;
}

static void expect_err(const char *doc, const char *why)
{
    const char *got = flat(doc);

    if (strncmp(got, "ERR: ", 5) != 0 || !strstr(got, why))
        print_error("doc '%s': got '%s', expected an error with '%s'\n", doc, got, why);
    assert_true(strncmp(got, "ERR: ", 5) == 0 && strstr(got, why) != NULL);
}

static void test_json_flat_nested(void **state)
{
    (void)state;
    assert_string_equal(flat("{\"a\": 1, \"b\": {\"c\": \"x\", \"d\": [true, null, {\"e\": 2}]}}"),
                        "a=1;b.c=x;b.d.0=true;b.d.1=null;b.d.2.e=2;");
    /* Empty containers give no item; a dotted name reads like two levels. */
    assert_string_equal(flat("{\"a\": {}, \"b\": [], \"txq.ro\": {\"n\": 0}}"), "txq.ro.n=0;");
    assert_string_equal(flat("  42 \n"), "=42;"); /* a top-level scalar, blanks around */
}

static void test_json_flat_types_and_numbers(void **state)
{
    struct json_flat f;
    char err[256];
    static const char doc[] = "{\"n\": -0.30000000000000004e+10, \"s\": \"1\", \"t\": false, "
                              "\"z\": null, \"i\": 18446744073709551615}";

    (void)state;
    assert_int_equal(json_flat_parse(&f, doc, strlen(doc), err, sizeof(err)), 0);
    assert_int_equal(f.n, 5);
    assert_int_equal(f.items[0].type, JSON_FLAT_NUM);
    assert_string_equal(f.items[0].text, "-0.30000000000000004e+10"); /* exactly as written */
    assert_int_equal(f.items[1].type, JSON_FLAT_STR);
    assert_int_equal(f.items[2].type, JSON_FLAT_BOOL);
    assert_int_equal(f.items[3].type, JSON_FLAT_NULL);
    assert_string_equal(f.items[4].text, "18446744073709551615"); /* beyond a double */
    assert_non_null(json_flat_get(&f, "t"));
    assert_null(json_flat_get(&f, "nope"));
    json_flat_free(&f);
}

static void test_json_flat_strings(void **state)
{
    (void)state;
    assert_string_equal(flat("{\"k\\\"q\": \"a\\\\b\\/c\\n\\t\"}"), "k\"q=a\\b/c\n\t;");
    assert_string_equal(flat("[\"\\u00e9\\u20ac\"]"), "0=\xc3\xa9\xe2\x82\xac;");  /* 2 and 3 bytes */
    assert_string_equal(flat("[\"\\ud83d\\ude00\"]"), "0=\xf0\x9f\x98\x80;");     /* a pair */
    assert_string_equal(flat("[\"\xc3\xa9\"]"), "0=\xc3\xa9;"); /* UTF-8 passes through */
}

static void test_json_flat_errors(void **state)
{
    char deep[200];

    (void)state;
    expect_err("", "line 1, column 1: unexpected end");
    expect_err("{\"a\": 1,}", "expected a member name");
    expect_err("{\"a\" 1}", "expected ':'");
    expect_err("{\"a\": 1}\n{}", "line 2, column 1: more after the end");
    expect_err("[1 2]", "expected ','");
    expect_err("[01]", "expected ','");        /* leading zero: 0, then junk */
    expect_err("[-]", "bad number");
    expect_err("[1.]", "bad number");
    expect_err("[1e]", "bad number");
    expect_err("[.5]", "expected a value");
    expect_err("[tru]", "expected a value");
    expect_err("[\"abc", "unterminated string");
    expect_err("[\"a\nb\"]", "control character");
    expect_err("[\"\\x\"]", "bad escape");
    expect_err("[\"\\u12\"]", "bad \\u escape");
    expect_err("[\"\\ud83d\"]", "unpaired surrogate");
    expect_err("[\"\\ude00\"]", "unpaired surrogate");
    expect_err("[\"\\u0000\"]", "\\u0000");
    expect_err("{\"a\": 1, \"a\": 2}", "key 'a' appears twice");
    expect_err("{\"a.b\": 1, \"a\": {\"b\": 2}}", "key 'a.b' appears twice"); /* by flattening */
    memset(deep, '[', 65);
    deep[65] = '\0';
    expect_err(deep, "nested deeper than 64");
}

static void test_json_flat_load(void **state)
{
    struct json_flat f;
    char err[256];
    FILE *tmp;
    char path[] = "/tmp/test_json_flat.XXXXXX";
    int fd = mkstemp(path);

    (void)state;
    assert_true(fd >= 0);
    tmp = fdopen(fd, "w");
    assert_non_null(tmp);
    fputs("{\"mpps\": 11.142, \"sim\": {\"wall_s\": 1.5}}\n", tmp);
    assert_int_equal(fclose(tmp), 0);
    assert_int_equal(json_flat_load(&f, path, err, sizeof(err)), 0);
    assert_int_equal(f.n, 2);
    assert_string_equal(f.items[1].key, "sim.wall_s");
    json_flat_free(&f);
    unlink(path);
    assert_int_equal(json_flat_load(&f, path, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "No such file"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_flat_nested),
        cmocka_unit_test(test_json_flat_types_and_numbers),
        cmocka_unit_test(test_json_flat_strings),
        cmocka_unit_test(test_json_flat_errors),
        cmocka_unit_test(test_json_flat_load),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
