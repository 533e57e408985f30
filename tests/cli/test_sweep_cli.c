/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sweep_cli.c - `nictx sweep` as a user meets it (tests/common/cli_harness.c
 * runs $NICTX or ./build/nictx): a parallel (-j 2) and a serial (-j 1)
 * sweep give byte-identical results; a rerun resumes (skips the points
 * done, reruns a removed one); the Slurm path (script, `sweep point` per
 * task, `sweep merge`) gives the same table; bad input exits 2 naming the
 * parameter before anything runs; a failed point is reported and exits 1;
 * plots whose x axis was not swept are skipped with a note.  Points are
 * 2000-3000 packets: each sweep takes well under two seconds.
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
#include <sys/stat.h>
#include <unistd.h>

#include "common/cli_harness.h"

#define PATH_BYTES 256

/* The small plan every test sweeps: burst 1,8 x protocol tail,owner. */
#define PLAN "--set", "burst=1,8", "--set", "protocol=tail,owner", "--name", "t"
#define RUN_ARGS "--", "--packets", "3000"

/* c->work/sub/file */
static const char *at(const struct cli *c, const char *sub, const char *file)
{
    static char path[4][PATH_BYTES]; /* a few live at once */
    static int k;

    k = (k + 1) % 4;
    snprintf(path[k], PATH_BYTES, "%s/%s%s%s", c->work, sub, *file ? "/" : "", file);
    return path[k];
}

static char *must_slurp(const char *path)
{
    char *s = slurp(path);

    if (!s)
        fail_msg("%s: cannot read", path);
    return s;
}

static void expect_same_file(const char *a, const char *b)
{
    char *x = must_slurp(a), *y = must_slurp(b);

    if (strcmp(x, y) != 0)
        fail_msg("%s and %s differ", a, b);
    free(x);
    free(y);
}

/* points/ holds a JSON and a log per point and nothing half-written. */
static void expect_points(const struct cli *c, const char *sub, int n)
{
    assert_int_equal(dir_entries(at(c, sub, "points")), 2 * n);
    assert_false(dir_has_tmp(at(c, sub, "points")));
    assert_false(dir_has_tmp(at(c, sub, "")));
}

/* ---- determinism: parallel and serial give the same table ----------------- */

static void test_sweep_cli_parallel_equals_serial(void **state)
{
    struct cli *c = *state;
    struct run r = {0};

    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "par", ""), "-j", "2", "--no-plots", RUN_ARGS);
    expect_status(&r, 0);
    expect_has(r.out, "t, 4 points: 4 run (0 failed), 0 already done");
    expect_has(r.out, "| protocol | burst=1 | burst=8 |");
    run_free(&r);
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "ser", ""), "-j", "1", "--no-plots", RUN_ARGS);
    expect_status(&r, 0);
    run_free(&r);
    expect_same_file(at(c, "par", "results.csv"), at(c, "ser", "results.csv"));
    expect_same_file(at(c, "par", "results.json"), at(c, "ser", "results.json"));
    expect_same_file(at(c, "par", "sweep.ini"), at(c, "ser", "sweep.ini"));
    expect_points(c, "par", 4);
    expect_points(c, "ser", 4);
}

/* ---- resume ------------------------------------------------------------------ */

/* The JSON of the first point listed in points/ (any one will do). */
static void first_json(const struct cli *c, const char *sub, char *path, size_t len)
{
    char *csv = must_slurp(at(c, sub, "results.csv"));
    char *line = strchr(csv, '\n') + 1; /* "1,ID,..." */
    char id[13];

    snprintf(id, sizeof(id), "%.12s", strchr(line, ',') + 1);
    snprintf(path, len, "%s/points/%s.json", at(c, sub, ""), id);
    free(csv);
}

static void test_sweep_cli_resume(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    char *before, *after, json[PATH_BYTES];

    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "a", ""), "-j", "1", "--no-plots", RUN_ARGS);
    expect_status(&r, 0);
    run_free(&r);
    before = must_slurp(at(c, "a", "results.csv"));
    /* Everything done: nothing runs. */
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "a", ""), "--no-plots", RUN_ARGS);
    expect_status(&r, 0);
    expect_has(r.out, "t, 4 points: 0 run (0 failed), 4 already done");
    run_free(&r);
    /* A lost result is run again, the others kept: the same table. */
    first_json(c, "a", json, sizeof(json));
    assert_int_equal(unlink(json), 0);
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "a", ""), "-j", "2", "--no-plots", RUN_ARGS);
    expect_status(&r, 0);
    expect_has(r.out, "t, 4 points: 1 run (0 failed), 3 already done");
    run_free(&r);
    after = must_slurp(at(c, "a", "results.csv"));
    assert_string_equal(before, after);
    free(after);
    /* --fresh runs everything again. */
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "a", ""), "--fresh", "--no-plots", RUN_ARGS);
    expect_status(&r, 0);
    expect_has(r.out, "t, 4 points: 4 run (0 failed), 0 already done");
    run_free(&r);
    expect_points(c, "a", 4);
    free(before);
}

/* ---- Slurm: a script, a `sweep point` per task, then merge ------------------ */

static void test_sweep_cli_slurm_and_merge(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    char *script;
    const char *job = at(c, "job.sh", "");
    struct stat st, st2;

    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "s", ""), "--emit-slurm", job, RUN_ARGS);
    expect_status(&r, 0);
    expect_has(r.out, "4 array tasks");
    run_free(&r);
    assert_int_equal(dir_entries(at(c, "s", "points")), 0); /* nothing ran */
    script = must_slurp(job);
    expect_has(script, "#SBATCH --array=1-4\n");
    expect_has(script, " sweep point ");
    expect_has(script, "\"$SLURM_ARRAY_TASK_ID\"");
    free(script);
    /* What the four tasks run. */
    for (int n = 1; n <= 4; n++) {
        char num[4], line[8];
        snprintf(num, sizeof(num), "%d", n);
        snprintf(line, sizeof(line), "%d ok\n", n);
        NICTX(c, &r, "sweep", "point", at(c, "s", ""), num);
        expect_status(&r, 0);
        assert_string_equal(r.out, line);
        run_free(&r);
    }
    /* A task run twice keeps the result it has. */
    assert_int_equal(stat(at(c, "s", "sweep.ini"), &st), 0);
    NICTX(c, &r, "sweep", "merge", at(c, "s", ""), "--no-plots");
    expect_status(&r, 0);
    expect_has(r.out, "report: ");
    run_free(&r);
    assert_int_equal(stat(at(c, "s", "sweep.ini"), &st2), 0);
    assert_true(st.st_ino == st2.st_ino);
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "ser", ""), "-j", "1", "--no-plots", RUN_ARGS);
    expect_status(&r, 0);
    run_free(&r);
    expect_same_file(at(c, "s", "results.csv"), at(c, "ser", "results.csv"));
    expect_points(c, "s", 4);
    NICTX(c, &r, "sweep", "point", at(c, "s", ""), "5");
    expect_status(&r, 2);
    expect_has(r.err, "point 5");
    run_free(&r);
}

/* ---- bad input: exit 2, the parameter named, nothing run ------------------- */

static void expect_bad(struct cli *c, const char *set, const char *out, const char *why)
{
    struct run r = {0};

    NICTX(c, &r, "sweep", "--set", "burst=1,8", "--set", set, "--out", out, "--no-plots",
          RUN_ARGS);
    expect_status(&r, 2);
    expect_has(r.err, "nictx sweep: ");
    expect_has(r.err, why);
    assert_string_equal(r.out, "");
    run_free(&r);
}

static void test_sweep_cli_bad_input(void **state)
{
    struct cli *c = *state;
    const char *out = at(c, "bad", "");
    FILE *f;

    expect_bad(c, "bur=1,2", out, "parameter bur: not an option of nictx run");
    expect_bad(c, "dev_width=8,64", out, "parameter dev_width: not an option of nictx run; "
                                         "the option is dev-width (--dev-width)");
    expect_bad(c, "dev-width=8,12", out, "parameter dev-width=12: nictx: --dev-width 12");
    expect_bad(c, "protocol=", out, "parameter protocol: empty list");
    expect_bad(c, "ring=1024..8", out, "parameter ring: bad range '1024..8'");
    expect_bad(c, "ring=8..64*1", out, "the factor must be above 1");
    expect_bad(c, "cpu.nope=1,2", out, "parameter cpu.nope: not a profile key");
    expect_bad(c, "rcb-chunks=1", out, "parameter rcb-chunks: --rcb-chunks takes no value");
    expect_bad(c, "json=x", out, "the sweep sets --json itself");
    expect_bad(c, "protocol=tail,nope", out, "parameter protocol=nope: nictx: --protocol nope");
    /* Refused alone, with the defaults: the parameter is named. */
    expect_bad(c, "ring=8,1024", out, "parameter ring=8: nictx: --wb-thresh 32");
    assert_int_equal(dir_entries(at(c, "bad", "points")), 0); /* nothing ran */
    /* An --out that cannot be written. */
    f = fopen(at(c, "file", ""), "w");
    assert_non_null(f);
    fclose(f);
    expect_bad(c, "protocol=tail", at(c, "file", "sub"), "cannot write there");
}

/* Values each accepted alone, refused together: the point is named. */
static void test_sweep_cli_bad_combination(void **state)
{
    struct cli *c = *state;
    struct run r = {0};

    NICTX(c, &r, "sweep", "--set", "ring=64,1024", "--set", "wb-thresh=32,128", "--out",
          at(c, "bad", ""), RUN_ARGS);
    expect_status(&r, 2);
    expect_has(r.err, "nictx sweep: point 2 (ring=64 wb-thresh=128): nictx: ");
    run_free(&r);
    assert_int_equal(dir_entries(at(c, "bad", "points")), 0);
}

/* ---- a failed point ------------------------------------------------------------ */

static void test_sweep_cli_failed_point(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    char *report, *csv;

    NICTX(c, &r, "sweep", "--set", "bug-at=300,600", "--out", at(c, "f", ""), "--no-plots",
          "--", "--packets", "2000", "--driver-bug", "zero-len");
    expect_status(&r, 1);
    expect_has(r.err, "2 points' runs did not end ok");
    run_free(&r);
    report = must_slurp(at(c, "f", "report.md"));
    expect_has(report, "- point 1 (bug-at=300): status violation");
    free(report);
    csv = must_slurp(at(c, "f", "results.csv"));
    expect_has(csv, ",violation,");
    free(csv);
}

/* ---- plots and report ------------------------------------------------------------ */

static void test_sweep_cli_plots_and_report(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    char *report;
    struct stat st;

    NICTX(c, &r, "sweep", "--set", "burst=1,8", "--out", at(c, "p", ""), "--", "--packets",
          "2000");
    expect_status(&r, 0);
    run_free(&r);
    report = must_slurp(at(c, "p", "report.md"));
    expect_has(report, "| Mpps | ");
    expect_has(report, "## Every point");
    if (strstr(report, "gnuplot is not installed")) {
        print_message("gnuplot missing: the plots are not drawn (their data and scripts are)\n");
    } else {
        expect_has(report, "![Throughput against burst");
        assert_int_equal(stat(at(c, "p", "plots/mpps.png"), &st), 0);
        assert_int_equal(stat(at(c, "p", "plots/mpps.svg"), &st), 0);
        assert_int_equal(stat(at(c, "p", "plots/pcie.png"), &st), 0);
    }
    assert_int_equal(stat(at(c, "p", "plots/mpps.gp"), &st), 0);
    assert_false(dir_has_tmp(at(c, "p", "plots")));
    free(report);
    /* x (burst) not swept: the line plots are skipped, with the reason. */
    NICTX(c, &r, "sweep", "--set", "protocol=tail,wc", "--out", at(c, "q", ""), "--", "--packets",
          "2000");
    expect_status(&r, 0);
    run_free(&r);
    report = must_slurp(at(c, "q", "report.md"));
    expect_has(report, "Not drawn: skipped: its x axis, burst, was not swept");
    free(report);
}

/* ---- help and --check -------------------------------------------------------------- */

static void test_sweep_cli_help_and_check(void **state)
{
    static const char *const options[] = {"--set NAME=VALUES", "A..B*F", "FILE.ini", "--out DIR",
                                          "--x NAME", "-j, --jobs N", "--hosts FILE",
                                          "--emit-slurm FILE", "--fresh", "--check",
                                          "--no-plots", "--seed N", "merge DIR", "point DIR N"};
    struct cli *c = *state;
    struct run r = {0};

    NICTX(c, &r, "sweep", "--help");
    expect_status(&r, 0);
    for (size_t k = 0; k < sizeof(options) / sizeof(options[0]); k++)
        expect_has(r.out, options[k]);
    run_free(&r);
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "k", ""), "--check", RUN_ARGS);
    expect_status(&r, 0);
    expect_has(r.out, "4 points, all accepted by nictx run; 4 to run, 0 done");
    run_free(&r);
    assert_int_equal(dir_entries(at(c, "k", "points")), 0);
}

#define SWEEP_TEST(t) cmocka_unit_test_setup_teardown(t, cli_setup, cli_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        SWEEP_TEST(test_sweep_cli_parallel_equals_serial),
        SWEEP_TEST(test_sweep_cli_resume),
        SWEEP_TEST(test_sweep_cli_slurm_and_merge),
        SWEEP_TEST(test_sweep_cli_bad_input),
        SWEEP_TEST(test_sweep_cli_bad_combination),
        SWEEP_TEST(test_sweep_cli_failed_point),
        SWEEP_TEST(test_sweep_cli_plots_and_report),
        SWEEP_TEST(test_sweep_cli_help_and_check),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
