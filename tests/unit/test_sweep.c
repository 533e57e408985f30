/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sweep.c - cmocka tests for the sweep plan: value lists and ranges
 * (sim/sweep/sweep_values.c), parameters, the cross product, seeds, ids and run
 * arguments (sim/sweep/sweep.c), sweep files (sim/sweep/sweep_file.c) and series
 * (sim/sweep/sweep_series.c).  Every boundary case is named in its test.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep/sweep.h"
#include "sweep/sweep_file.h"
#include "sweep/sweep_point.h"
#include "sweep/sweep_series.h"
#include "sweep/sweep_values.h"

/* ---- helpers ------------------------------------------------------------- */

/* The list parsed and joined with '|', or "ERR: why". */
static const char *values(const char *list)
{
    static char out[4096]; /* one test at a time */
    char err[256];
    struct strv v;

    strv_init(&v);
    if (sweep_values_parse(list, &v, err, sizeof(err)) != 0) {
        snprintf(out, sizeof(out), "ERR: %s", err);
        assert_int_equal(v.n, 0); /* unchanged on failure */
        return out;
    }
    out[0] = '\0';
    for (size_t k = 0; k < v.n; k++)
        snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s", k ? "|" : "", v.v[k]);
    strv_free(&v);
    return out;
}

static void expect_err(const char *list, const char *why)
{
    const char *got = values(list);

    if (strncmp(got, "ERR: ", 5) != 0 || !strstr(got, why))
        print_error("list '%s': got '%s', expected an error with '%s'\n", list, got, why);
    assert_true(strncmp(got, "ERR: ", 5) == 0 && strstr(got, why));
}

/* A spec from --set assignments (NULL-terminated). */
static void spec_of(struct sweep_spec *s, const char *const *sets)
{
    char err[256];

    sweep_spec_init(s);
    for (; *sets; sets++)
        if (sweep_spec_set(s, *sets, err, sizeof(err)) != 0)
            fail_msg("%s: %s", *sets, err);
}

/* Point i's run arguments joined with ' '. */
static const char *args_of(const struct sweep_spec *s, size_t i)
{
    static char out[4096];
    struct strv a;

    strv_init(&a);
    assert_int_equal(sweep_point_args(s, i, &a), 0);
    out[0] = '\0';
    for (size_t k = 0; k < a.n; k++)
        snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s", k ? " " : "", a.v[k]);
    strv_free(&a);
    return out;
}

/* The seed of the point of s whose label is `label`. */
static uint64_t seed_of(const struct sweep_spec *s, const char *label)
{
    char buf[256];

    for (size_t i = 0; i < sweep_npoints(s); i++) {
        sweep_point_label(s, i, buf, sizeof(buf));
        if (strcmp(buf, label) == 0)
            return sweep_point_seed(s, i);
    }
    fail_msg("no point %s", label);
    return 0;
}

/* ---- value lists ----------------------------------------------------------- */

static void test_sweep_values_list(void **state)
{
    (void)state;
    assert_string_equal(values("tail,owner,wc"), "tail|owner|wc");
    assert_string_equal(values(" 1 , 2 "), "1|2");           /* blanks around items */
    assert_string_equal(values("x86"), "x86");               /* one value */
    assert_string_equal(values("ph=1\\,pd=32,ph=2"), "ph=1,pd=32|ph=2"); /* escaped comma */
    assert_string_equal(values("../p.ini"), "../p.ini");     /* ".." not after a digit */
    assert_string_equal(values("2.5"), "2.5");               /* a decimal is a value */
}

static void test_sweep_values_ranges(void **state)
{
    (void)state;
    assert_string_equal(values("1..4"), "1|2|3|4");
    assert_string_equal(values("1..32*2"), "1|2|4|8|16|32");
    assert_string_equal(values("1..33*2"), "1|2|4|8|16|32");    /* end not reached */
    assert_string_equal(values("64..320+64"), "64|128|192|256|320");
    assert_string_equal(values("5..5"), "5");                    /* start = end */
    assert_string_equal(values("0.1..0.3+0.1"), "0.1|0.2|0.3"); /* fractions, end reached */
    assert_string_equal(values("0.5..2*2"), "0.5|1|2");
    assert_string_equal(values("1,3,8..32*2"), "1|3|8|16|32");   /* mixed */
    assert_string_equal(values("18446744073709551614..18446744073709551615"),
                        "18446744073709551614|18446744073709551615"); /* no overflow */
}

static void test_sweep_values_errors(void **state)
{
    (void)state;
    expect_err("", "empty list");
    expect_err("  ", "empty list");
    expect_err("1,,2", "empty value");
    expect_err("1,", "empty value");
    expect_err("a b", "blank");
    expect_err("8..1", "start is above the end");
    expect_err("18446744073709551615..18446744073709551614", "start is above the end"); /* exact */
    expect_err("1..8+0", "step must be above 0");
    expect_err("1..8*1", "factor must be above 1");
    expect_err("0..8*2", "start above 0");
    expect_err("1..", "bad range");
    expect_err("1..x", "bad range");
    expect_err("01..4", "bad range");   /* leading zero */
    expect_err("1..4-1", "bad range");  /* no such step */
    expect_err("1..2+1e3", "bad range"); /* no exponent */
    expect_err("1..20000", "more than 10000");
    expect_err("1..18446744073709551616", "above 18446744073709551615"); /* 2^64 */
    expect_err("1,2,1", "'1' is given twice");
    expect_err("4,1..8*2", "'4' is given twice"); /* a duplicate made by a range */
}

static void test_sweep_values_escape(void **state)
{
    char buf[16];

    (void)state;
    assert_int_equal(sweep_value_escape("a,b", buf, sizeof(buf)), 0);
    assert_string_equal(buf, "a\\,b");
    assert_int_equal(sweep_value_escape("0123456789abcdef", buf, sizeof(buf)), -1); /* too long */
}

/* ---- the spec ----------------------------------------------------------- */

static void test_sweep_spec_set_replaces(void **state)
{
    static const char *const sets[] = {"burst=1,2", "protocol=tail", "burst=4,8,16", NULL};
    struct sweep_spec s;
    char err[256];

    (void)state;
    spec_of(&s, sets);
    assert_int_equal(s.nparams, 2);
    assert_string_equal(s.params[0].name, "burst"); /* keeps its place */
    assert_int_equal(s.params[0].values.n, 3);
    assert_int_equal(sweep_spec_add(&s, "protocol", "owner", err, sizeof(err)), 0);
    assert_int_equal(s.params[1].values.n, 2); /* add appends */
    assert_int_equal(sweep_spec_add(&s, "protocol", "tail", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "given twice"));
    assert_int_equal(sweep_spec_set(&s, "=1", err, sizeof(err)), -1); /* no name */
    assert_int_equal(sweep_spec_set(&s, "burst", err, sizeof(err)), -1); /* no '=' */
    assert_non_null(strstr(err, "expected NAME=VALUES"));
    sweep_spec_free(&s);
}

static void test_sweep_spec_check(void **state)
{
    static const char *const bad_names[] = {"json", "check", "quiet", "-burst", ".x", "a b", "a/b"};
    struct sweep_spec s;
    char err[256], set[64];

    (void)state;
    for (size_t k = 0; k < sizeof(bad_names) / sizeof(bad_names[0]); k++) {
        sweep_spec_init(&s);
        snprintf(set, sizeof(set), "%s=1", bad_names[k]);
        if (sweep_spec_set(&s, set, err, sizeof(err)) == 0)
            assert_int_equal(sweep_spec_check(&s, err, sizeof(err)), -1);
        sweep_spec_free(&s);
    }
    sweep_spec_init(&s);
    assert_int_equal(sweep_spec_set(&s, "cpu.wmb_ns=1", err, sizeof(err)), 0);
    assert_int_equal(strv_push(&s.args, "--json=x"), 0);
    assert_int_equal(sweep_spec_check(&s, err, sizeof(err)), -1); /* a fixed --json */
    assert_non_null(strstr(err, "--json=x"));
    sweep_spec_free(&s);
    sweep_spec_init(&s); /* 10^7 points: too many (10^6 is the most) */
    for (int p = 0; p < 7; p++) {
        snprintf(set, sizeof(set), "p%d=1..10", p);
        assert_int_equal(sweep_spec_set(&s, set, err, sizeof(err)), 0);
    }
    assert_int_equal(sweep_spec_check(&s, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "points"));
    sweep_spec_free(&s);
}

static void test_sweep_cross_product(void **state)
{
    static const char *const sets[] = {"ordering=x86,weak", "protocol=tail,owner,wc",
                                       "burst=1,8", NULL};
    struct sweep_spec s;
    char label[128];

    (void)state;
    spec_of(&s, sets);
    assert_int_equal(sweep_npoints(&s), 12);
    /* The first parameter varies slowest, the last fastest. */
    sweep_point_label(&s, 0, label, sizeof(label));
    assert_string_equal(label, "ordering=x86 protocol=tail burst=1");
    sweep_point_label(&s, 1, label, sizeof(label));
    assert_string_equal(label, "ordering=x86 protocol=tail burst=8");
    sweep_point_label(&s, 2, label, sizeof(label));
    assert_string_equal(label, "ordering=x86 protocol=owner burst=1");
    sweep_point_label(&s, 11, label, sizeof(label));
    assert_string_equal(label, "ordering=weak protocol=wc burst=8");
    assert_int_equal(sweep_point_vindex(&s, 7, 0), 1);
    sweep_spec_free(&s);
    sweep_spec_init(&s); /* no parameters: one point, the fixed arguments */
    assert_int_equal(sweep_npoints(&s), 1);
    sweep_spec_free(&s);
}

static void test_sweep_point_args(void **state)
{
    static const char *const sets[] = {"burst=8", "cpu.wmb_ns=2.5", "protocol=owner", NULL};
    static const char *const with_seed[] = {"seed=7", "burst=8", NULL};
    struct sweep_spec s;
    char want[256];

    (void)state;
    spec_of(&s, sets);
    assert_int_equal(strv_push(&s.args, "--packets"), 0);
    assert_int_equal(strv_push(&s.args, "2000"), 0);
    /* --seed, the fixed arguments, then each parameter: --NAME V or --set K=V. */
    snprintf(want, sizeof(want), "--seed %llu --packets 2000 --burst 8 --set cpu.wmb_ns=2.5 "
             "--protocol owner", (unsigned long long)sweep_point_seed(&s, 0));
    assert_string_equal(args_of(&s, 0), want);
    sweep_spec_free(&s);
    spec_of(&s, with_seed); /* a swept seed is the seed */
    assert_string_equal(args_of(&s, 0), "--seed 7 --burst 8");
    sweep_spec_free(&s);
}

static void test_sweep_seed_is_of_the_point(void **state)
{
    static const char *const a[] = {"protocol=tail,owner", "burst=1,8", NULL};
    static const char *const b[] = {"burst=1,4,8", "protocol=owner,tail,wc", NULL};
    struct sweep_spec s, t;
    uint64_t s1;

    (void)state;
    spec_of(&s, a);
    spec_of(&t, b); /* more values, other order: the same points keep their seeds */
    s1 = seed_of(&s, "protocol=owner burst=8");
    assert_true(s1 == seed_of(&t, "burst=8 protocol=owner"));
    assert_true(seed_of(&s, "protocol=tail burst=1") == seed_of(&t, "burst=1 protocol=tail"));
    /* Points differ from one another, and are 48-bit and non-zero. */
    assert_true(s1 != seed_of(&s, "protocol=owner burst=1"));
    assert_true(s1 != seed_of(&s, "protocol=tail burst=8"));
    assert_true(s1 > 0 && s1 < (1ULL << 48));
    /* The sweep seed changes every point's seed, repeatably. */
    t.seed = 2;
    assert_true(s1 != seed_of(&t, "burst=8 protocol=owner"));
    t.seed = 1;
    assert_true(s1 == seed_of(&t, "burst=8 protocol=owner"));
    sweep_spec_free(&s);
    sweep_spec_free(&t);
}

static void test_sweep_point_id(void **state)
{
    static const char *const sets[] = {"burst=1,8", NULL};
    struct sweep_spec s;
    char a[SWEEP_ID_BYTES], b[SWEEP_ID_BYTES], c[SWEEP_ID_BYTES];

    (void)state;
    spec_of(&s, sets);
    sweep_point_id(&s, 0, a);
    sweep_point_id(&s, 1, b);
    assert_int_equal(strlen(a), 12);
    assert_int_equal(strspn(a, "0123456789abcdef"), 12);
    assert_string_not_equal(a, b);
    assert_int_equal(strv_push(&s.args, "--packets"), 0); /* another command: another id */
    assert_int_equal(strv_push(&s.args, "5000"), 0);
    sweep_point_id(&s, 0, c);
    assert_string_not_equal(a, c);
    sweep_spec_free(&s);
}

/* ---- sweep files ------------------------------------------------------------ */

struct tmp {
    char dir[64];
    char path[128];
};

static int tmp_setup(void **state)
{
    struct tmp *t = calloc(1, sizeof(*t));

    if (!t)
        return -1;
    snprintf(t->dir, sizeof(t->dir), "/tmp/test_sweep.XXXXXX");
    if (!mkdtemp(t->dir)) {
        free(t);
        return -1;
    }
    snprintf(t->path, sizeof(t->path), "%s/s.ini", t->dir);
    *state = t;
    return 0;
}

static int tmp_teardown(void **state)
{
    struct tmp *t = *state;

    unlink(t->path);
    rmdir(t->dir);
    free(t);
    return 0;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void test_sweep_file_load(void **state)
{
    struct tmp *t = *state;
    struct sweep_spec s;
    char err[256];

    write_file(t->path, "; a sweep\n[sweep]\nname = fl\nseed = 9\nx = pkt-size\n"
                        "args = --packets 2000\n  --cpu cheap\n\n[params]\n"
                        "pkt-size = 64..192+64 ; frames\n"
                        "protocol = tail,\n"
                        "  owner\n"          /* a continued list */
                        "fc-dev = ph=1\\,pd=32\n");
    sweep_spec_init(&s);
    assert_int_equal(sweep_file_load(&s, t->path, err, sizeof(err)), 0);
    assert_string_equal(s.name, "fl");
    assert_true(s.seed == 9);
    assert_string_equal(s.x, "pkt-size");
    assert_int_equal(s.args.n, 4);
    assert_string_equal(s.args.v[3], "cheap");
    assert_int_equal(s.nparams, 3);
    assert_int_equal(s.params[0].values.n, 3);
    assert_string_equal(s.params[1].values.v[1], "owner");
    assert_string_equal(s.params[2].values.v[0], "ph=1,pd=32");
    sweep_spec_free(&s);
}

static void expect_file_err(const char *path, const char *text, const char *why)
{
    struct sweep_spec s;
    char err[256];

    write_file(path, text);
    sweep_spec_init(&s);
    assert_int_equal(sweep_file_load(&s, path, err, sizeof(err)), -1);
    if (!strstr(err, why))
        print_error("'%s' lacks '%s'\n", err, why);
    assert_non_null(strstr(err, why));
    sweep_spec_free(&s);
}

static void test_sweep_file_errors(void **state)
{
    struct tmp *t = *state;
    struct sweep_spec s;
    char longline[400], err[256];

    expect_file_err(t->path, "[sweep]\nnme = x\n", ":2: unknown key 'nme'");
    expect_file_err(t->path, "[swep]\nname = x\n", "unknown section [swep]");
    expect_file_err(t->path, "[sweep]\nseed = -1\n", "seed '-1'");
    expect_file_err(t->path, "[sweep]\nlockstep_packets = 100000001\n",
                    "lockstep_packets '100000001': expected packets, 0..100000000");
    expect_file_err(t->path, "[sweep]\nname = a/b\n", "name 'a/b'");
    expect_file_err(t->path, "[params]\nburst = 8..1\n", ":2: parameter burst: bad range");
    expect_file_err(t->path, "[params]\nburst\n", ":2: expected [section] or key = value");
    snprintf(longline, sizeof(longline), "[params]\nburst = %0300d\n", 1);
    expect_file_err(t->path, longline, "line longer than");
    /* A key given twice: refused, both lines named (a continuation line is
     * not a second key, nor is the same key in another section). */
    expect_file_err(t->path, "[params]\nburst = 1,2\nprotocol = tail\nburst = 4\n",
                    ":4: parameter 'burst' given again (first on line 2)");
    expect_file_err(t->path, "[params]\nburst = 1,\n  2\n; c\n  3\n[params]\nburst = 4\n",
                    ":7: parameter 'burst' given again (first on line 2)");
    expect_file_err(t->path, "[sweep]\nseed = 1\nname = a\nseed = 2\n",
                    ":4: key 'seed' given again (first on line 2)");
    expect_file_err(t->path, "[sweep]\nargs = --packets 10\nargs = --cpu cheap\n",
                    ":3: key 'args' given again");
    sweep_spec_init(&s);
    assert_int_equal(sweep_file_load(&s, "/nonexistent/s.ini", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "/nonexistent/s.ini: No such file"));
    sweep_spec_free(&s);
}

static void test_sweep_file_round_trip(void **state)
{
    struct tmp *t = *state;
    struct sweep_spec s, r;
    char err[256], set[1200];

    (void)state;
    sweep_spec_init(&s);
    snprintf(s.name, sizeof(s.name), "rt");
    s.seed = 18446744073709551615ULL;
    snprintf(s.x, sizeof(s.x), "ring");
    s.lockstep_packets = 0;
    assert_int_equal(strv_push(&s.args, "--packets"), 0);
    assert_int_equal(strv_push(&s.args, "3000"), 0);
    assert_int_equal(sweep_spec_set(&s, "ring=8..4096*2", err, sizeof(err)), 0);
    assert_int_equal(sweep_spec_set(&s, "fc-dev=ph=1\\,pd=32,ph=4", err, sizeof(err)), 0);
    /* A list longer than a line: written over continuation lines. */
    snprintf(set, sizeof(set), "cpu.wmb_ns=1..400");
    assert_int_equal(sweep_spec_set(&s, set, err, sizeof(err)), 0);
    assert_int_equal(sweep_file_write(&s, t->path, err, sizeof(err)), 0);
    sweep_spec_init(&r);
    assert_int_equal(sweep_file_load(&r, t->path, err, sizeof(err)), 0);
    assert_string_equal(r.name, "rt");
    assert_true(r.seed == s.seed);
    assert_string_equal(r.x, "ring");
    assert_int_equal(r.lockstep_packets, 0);
    assert_int_equal(r.args.n, 2);
    assert_int_equal(r.nparams, 3);
    for (size_t p = 0; p < 3; p++) {
        assert_string_equal(r.params[p].name, s.params[p].name);
        assert_int_equal(r.params[p].values.n, s.params[p].values.n);
        for (size_t v = 0; v < s.params[p].values.n; v++)
            assert_string_equal(r.params[p].values.v[v], s.params[p].values.v[v]);
    }
    for (size_t i = 0; i < sweep_npoints(&s); i += 97) /* the same commands */
        assert_string_equal(args_of(&r, i), args_of(&s, i));
    sweep_spec_free(&s);
    sweep_spec_free(&r);
}

/* A sweep's points run on the C model unless the run options or a
 * parameter name the device; the run takes an option's last value, and so
 * does sweep_argv_option. */
static void test_sweep_default_device(void **state)
{
    struct sweep_spec s;
    char err[256];
    char *argv[] = {"--device", "rtl", "--packets=9", "--device=lockstep", "--device"};

    (void)state;
    assert_string_equal(sweep_argv_option(argv, 2, "device"), "rtl");
    assert_string_equal(sweep_argv_option(argv, 4, "device"), "lockstep");
    assert_string_equal(sweep_argv_option(argv, 5, "device"), "lockstep"); /* no value: not one */
    assert_string_equal(sweep_argv_option(argv, 5, "packets"), "9");
    assert_null(sweep_argv_option(argv, 5, "dev"));

    sweep_spec_init(&s);
    assert_int_equal(s.lockstep_packets, SWEEP_LOCKSTEP_PACKETS);
    assert_int_equal(sweep_spec_default_device(&s, SWEEP_DEFAULT_DEVICE), 0);
    assert_int_equal(s.args.n, 2);
    assert_string_equal(s.args.v[1], "c");
    assert_int_equal(sweep_spec_default_device(&s, "rtl"), 0); /* named already */
    assert_int_equal(s.args.n, 2);
    sweep_spec_free(&s);

    sweep_spec_init(&s);
    assert_int_equal(strv_push(&s.args, "--device=rtl"), 0);
    assert_int_equal(sweep_spec_default_device(&s, "c"), 0);
    assert_int_equal(s.args.n, 1);
    sweep_spec_free(&s);

    sweep_spec_init(&s);
    assert_int_equal(sweep_spec_set(&s, "device=rtl,c", err, sizeof(err)), 0);
    assert_int_equal(sweep_spec_default_device(&s, "c"), 0);
    assert_int_equal(s.args.n, 0);
    sweep_spec_free(&s);
}

/* ---- series ----------------------------------------------------------------- */

static void test_sweep_series(void **state)
{
    static const char *const sets[] = {"ordering=x86,weak", "packets=2000", "protocol=tail,owner,wc",
                                       "burst=1,8", NULL};
    struct sweep_spec s;
    struct sweep_series ss;
    char buf[128];

    (void)state;
    spec_of(&s, sets);
    sweep_series_init(&ss, &s);
    assert_int_equal(ss.x, 3);
    assert_int_equal(ss.nx, 2);
    assert_int_equal(ss.nseries, 6); /* packets has one value: it names no series */
    assert_int_equal(ss.nvarying, 2);
    assert_int_equal(sweep_series_of(&ss, &s, 0), 0);
    assert_int_equal(sweep_series_of(&ss, &s, 1), 0);   /* burst 8: same line */
    assert_int_equal(sweep_series_xpos(&ss, &s, 1), 1);
    assert_int_equal(sweep_series_of(&ss, &s, 11), 5);
    sweep_series_label(&ss, &s, 4, " / ", buf, sizeof(buf));
    assert_string_equal(buf, "weak / owner");
    sweep_series_names(&ss, &s, " / ", buf, sizeof(buf));
    assert_string_equal(buf, "ordering / protocol");
    snprintf(s.x, sizeof(s.x), "pkt-size"); /* x not swept: a series per point */
    sweep_series_init(&ss, &s);
    assert_int_equal(ss.x, -1);
    assert_int_equal(ss.nseries, 12);
    sweep_spec_free(&s);
}

/* ---- a point's run ------------------------------------------------------------ */

/* A whole file, NUL-terminated (malloc'd). */
static char *read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    char *buf = calloc(1, 65536);

    assert_non_null(f);
    assert_non_null(buf);
    fread(buf, 1, 65535, f);
    fclose(f);
    return buf;
}

/* A fake nictx: writes {"status": "STATUS"} to the path after --json and
 * exits with EXIT. */
static void fake_bin(const char *path, const char *status, int exit_status)
{
    char text[512];

    snprintf(text, sizeof(text),
             "#!/bin/sh\n"
             "while [ $# -gt 0 ]; do\n"
             "  if [ \"$1\" = --json ]; then printf '{\"status\": \"%s\"}\\n' >\"$2\"; fi\n"
             "  shift\n"
             "done\n"
             "exit %d\n", status, exit_status);
    write_file(path, text);
    assert_int_equal(chmod(path, 0755), 0);
}

/* A run that exits non-zero leaves no result that says "ok" (issue 33: the
 * sweep said "Problems: None" and exited 0): the JSON is set aside as
 * ID.json.rejected and the log says why; a JSON whose status is not ok is
 * kept (report.md lists it with its diagnosis); exit 0 with ok is a result. */
static void test_sweep_point_exit_overrules_ok(void **state)
{
    static const char *const sets[] = {"burst=8", NULL};
    struct tmp *t = *state;
    struct sweep_spec s;
    char bin[128], pts[128], id[SWEEP_ID_BYTES], json[SWEEP_PATH_BYTES], log[SWEEP_PATH_BYTES];
    char rej[SWEEP_PATH_BYTES + 16], *text;
    int sig;

    spec_of(&s, sets);
    snprintf(bin, sizeof(bin), "%s/fake-nictx", t->dir);
    snprintf(pts, sizeof(pts), "%s/points", t->dir);
    assert_int_equal(mkdir(pts, 0755), 0);
    sweep_point_id(&s, 0, id);
    assert_int_equal(sweep_point_paths(t->dir, id, json, log, sizeof(json)), 0);
    snprintf(rej, sizeof(rej), "%s.rejected", json);

    fake_bin(bin, "ok", 1);
    assert_int_equal(sweep_point_run(&s, t->dir, 0, bin, &sig), SWEEP_POINT_FAILED);
    assert_int_equal(access(json, F_OK), -1);
    assert_int_equal(access(rej, F_OK), 0);
    text = read_file(log);
    assert_non_null(strstr(text, "the run exited 1, but"));
    assert_non_null(strstr(text, "says status ok; set aside as"));
    free(text);
    assert_int_equal(unlink(rej), 0);

    fake_bin(bin, "failed", 1);
    assert_int_equal(sweep_point_run(&s, t->dir, 0, bin, &sig), SWEEP_POINT_FAILED);
    assert_int_equal(access(json, F_OK), 0); /* its status is not ok: a result */
    assert_int_equal(access(rej, F_OK), -1);

    fake_bin(bin, "ok", 0);
    assert_int_equal(sweep_point_run(&s, t->dir, 0, bin, &sig), SWEEP_POINT_OK);
    assert_int_equal(access(json, F_OK), 0);
    assert_int_equal(access(rej, F_OK), -1);

    unlink(json);
    unlink(log);
    unlink(bin);
    rmdir(pts);
    sweep_spec_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_values_list),
        cmocka_unit_test(test_sweep_values_ranges),
        cmocka_unit_test(test_sweep_values_errors),
        cmocka_unit_test(test_sweep_values_escape),
        cmocka_unit_test(test_sweep_spec_set_replaces),
        cmocka_unit_test(test_sweep_spec_check),
        cmocka_unit_test(test_sweep_cross_product),
        cmocka_unit_test(test_sweep_point_args),
        cmocka_unit_test(test_sweep_seed_is_of_the_point),
        cmocka_unit_test(test_sweep_point_id),
        cmocka_unit_test(test_sweep_default_device),
        cmocka_unit_test_setup_teardown(test_sweep_file_load, tmp_setup, tmp_teardown),
        cmocka_unit_test_setup_teardown(test_sweep_file_errors, tmp_setup, tmp_teardown),
        cmocka_unit_test_setup_teardown(test_sweep_file_round_trip, tmp_setup, tmp_teardown),
        cmocka_unit_test(test_sweep_series),
        cmocka_unit_test_setup_teardown(test_sweep_point_exit_overrules_ok, tmp_setup,
                                        tmp_teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
