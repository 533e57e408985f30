/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sweep_cli.c - `nictx sweep` as a user meets it (tests/common/cli_harness.c
 * runs $NICTX or ./build/nictx): a parallel (-j 2) and a serial (-j 1)
 * sweep give byte-identical results; a rerun resumes (skips the points
 * done, reruns a removed one); the Slurm path (script, `sweep point` per
 * task, `sweep merge`) gives the same table; bad input exits 2 naming the
 * parameter before anything runs; a failed point is reported and exits 1;
 * plots whose x axis was not swept are skipped with a note; a refused
 * sweep leaves nothing behind (no directory, no plan, no script, and the
 * results a --fresh would have rerun).  Over --hosts, with fake ssh
 * commands that run here (a host that logs in, one that is down, one that
 * goes down after the check): hosts are checked and named, points retried,
 * and the counts add up with every missing point said where it is;
 * --transfer sends and returns through rsync.  `sweep compare` exits 0
 * (equal, a new column named), 1 (the table of what moved) or 2 (bad
 * usage, unreadable input).  Real sshd and Slurm:
 * tests/sweep/.  Points are 2000-3000 packets: each sweep takes well
 * under two seconds.
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
    /* What a CI job runs: the figures compared, equal. */
    NICTX(c, &r, "sweep", "compare", at(c, "par", ""), at(c, "ser", "results.csv"));
    expect_status(&r, 0);
    expect_has(r.out, "compare: 4 points, ");
    expect_has(r.out, " columns compared: every figure equal\n");
    run_free(&r);
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
    char *script, job[PATH_BYTES];
    struct stat st, st2;

    snprintf(job, sizeof(job), "%s", at(c, "job.sh", ""));
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "s", ""), "--emit-slurm", job, "--slurm-opt",
          "partition=debug", "--slurm-opt", "time=5:00", "--slurm-opt", "job-name=mine", RUN_ARGS);
    expect_status(&r, 0);
    expect_has(r.out, "4 array tasks");
    expect_has(r.out, "  sbatch --wait ");
    run_free(&r);
    assert_int_equal(dir_entries(at(c, "s", "points")), 0); /* nothing ran */
    script = must_slurp(job);
    expect_has(script, "#SBATCH --array=1-4\n");
    expect_has(script, " sweep point ");
    expect_has(script, "\"$SLURM_ARRAY_TASK_ID\"");
    /* Site options; one the script sets itself replaces its line. */
    expect_has(script, "#SBATCH --partition=debug\n#SBATCH --time=5:00\n#SBATCH --job-name=mine\n");
    assert_null(strstr(script, "--job-name=nictx-"));
    /* The binary is under this directory (the checkout): named relative to
     * it; the results directory is not: named as it is, and said so. */
    expect_has(script, "\nexec build"); /* build/nictx, or build-san/nictx */
    expect_has(script, "/nictx sweep point /");
    expect_has(script, "is outside ");
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
    /* With a merge job, for when the array has ended. */
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "s2", ""), "--emit-slurm", job, "--slurm-merge",
          at(c, "merge.sh", ""), RUN_ARGS);
    expect_status(&r, 0);
    expect_has(r.out, "sbatch --dependency=afterany:$(sbatch --parsable ");
    run_free(&r);
    script = must_slurp(at(c, "merge.sh", ""));
    expect_has(script, "#SBATCH --job-name=nictx-t-merge\n");
    expect_has(script, "\nexec build");
    expect_has(script, "/nictx sweep merge /");
    assert_int_equal(stat(at(c, "merge.sh", ""), &st), 0);
    assert_true((st.st_mode & 0111) != 0);
    free(script);
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
    assert_int_equal(dir_entries(at(c, "bad", "")), -1); /* nothing written */
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
    assert_int_equal(dir_entries(at(c, "bad", "")), -1);
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


/* ---- refusals leave nothing ------------------------------------------------------ */

static void expect_refused(struct run *r, const char *why)
{
    expect_status(r, 2);
    expect_has(r->err, why);
    assert_string_equal(r->out, "");
    run_free(r);
}

static void test_sweep_cli_refusals_leave_nothing(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    FILE *f;

    /* A refused --fresh keeps the results it would have rerun (burst=1 and
     * 8 are the same points, with the same ids, in both plans). */
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "a", ""), "-j", "1", "--no-plots", RUN_ARGS);
    expect_status(&r, 0);
    run_free(&r);
    NICTX(c, &r, "sweep", PLAN, "--set", "burst=1,8,x", "--out", at(c, "a", ""), "--fresh",
          "--no-plots", RUN_ARGS);
    expect_refused(&r, "parameter burst=x");
    expect_points(c, "a", 4);
    /* --emit-slurm to a path that cannot be written: no results directory,
     * no plan. */
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "b", ""), "--emit-slurm",
          at(c, "nodir/job.sh", ""), RUN_ARGS);
    expect_refused(&r, "--emit-slurm ");
    expect_has(at(c, "nodir/job.sh", ""), "nodir"); /* (the path named) */
    assert_int_equal(dir_entries(at(c, "b", "")), -1);
    /* Options that go with others only, site options the script needs. */
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "b", ""), "--transfer", RUN_ARGS);
    expect_refused(&r, "--transfer works with --hosts only");
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "b", ""), "--slurm-opt", "time=5", RUN_ARGS);
    expect_refused(&r, "--slurm-opt works with --emit-slurm only");
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "b", ""), "--emit-slurm", at(c, "j.sh", ""),
          "--slurm-opt", "array=1-9", RUN_ARGS);
    expect_refused(&r, "--slurm-opt array=1-9: the script sets --array itself");
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "b", ""), "--hosts", at(c, "hosts", ""),
          "--retries", "0", RUN_ARGS);
    expect_refused(&r, "--retries 0: expected the tries per point, 1..100");
    f = fopen(at(c, "hosts", ""), "w");
    assert_non_null(f);
    fputs("# nobody\n", f);
    fclose(f);
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "b", ""), "--hosts", at(c, "hosts", ""), RUN_ARGS);
    expect_refused(&r, "no host in it");
    /* A key given twice in a sweep file. */
    f = fopen(at(c, "twice.ini", ""), "w");
    assert_non_null(f);
    fputs("[params]\nburst = 1,8\nprotocol = tail\nburst = 32\n", f);
    fclose(f);
    NICTX(c, &r, "sweep", at(c, "twice.ini", ""), "--out", at(c, "b", ""), RUN_ARGS);
    expect_refused(&r, "twice.ini:4: parameter 'burst' given again (first on line 2)");
    assert_int_equal(dir_entries(at(c, "b", "")), -1);
    assert_false(dir_has_tmp(c->work));
}

/* ---- over ssh, with fake ssh commands ---------------------------------------- */

/*
 * c->work/NAME/ssh, a program named ssh that drops the options and the host
 * and runs the command here, as ssh runs it there (with a SHELL, as sshd sets
 * one even where the caller has none).  fails: "" never,
 * "always" as ssh does when the host is down, "after-first" so after its
 * first call (the sweep's check of the host; mkdir makes "first" atomic
 * when parallel calls it several times at once).
 */
static void fake_ssh(const struct cli *c, const char *name, const char *fails)
{
    char dir[PATH_BYTES], path[PATH_BYTES + 8];
    FILE *f;

    snprintf(dir, sizeof(dir), "%s/%s", c->work, name);
    assert_int_equal(mkdir(dir, 0777), 0);
    snprintf(path, sizeof(path), "%s/ssh", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\n"
               "while [ \"$1\" = -o ]; do shift 2; done\n"
               "host=$1\n"
               "shift\n"
               "[ \"$1\" = -- ] && shift\n"
               /* sshd gives the command a SHELL (the login shell); parallel's
                * remote worker runs the job in it */
               ": \"${SHELL:=/bin/sh}\"; export SHELL\n");
    if (*fails)
        fprintf(f, "if %s; then\n"
                   "    echo \"ssh: connect to host $host port 22: Connection refused\" >&2\n"
                   "    exit 255\n"
                   "fi\n", strcmp(fails, "always") == 0 ? "true" : "! mkdir \"$0.first\" 2>/dev/null");
    fprintf(f, "exec sh -c \"$*\"\n");
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, 0755), 0);
}

/* A hosts file of lines "N/WORK/NAME/ssh HOST". */
static const char *hosts_file(const struct cli *c, const char *file, const char *lines)
{
    const char *path = at(c, file, "");
    FILE *f = fopen(path, "w");
    char buf[256];
    const char *p = lines;

    assert_non_null(f);
    /* lines: "2 good h1;1 gone h2" */
    while (*p) {
        unsigned n;
        char name[32], host[32];
        int used;
        assert_int_equal(sscanf(p, "%u %31s %31[^;]%n", &n, name, host, &used), 3);
        snprintf(buf, sizeof(buf), "%u/%s/%s/ssh %s\n", n, c->work, name, host);
        fputs(buf, f);
        p += used;
        if (*p == ';')
            p++;
    }
    assert_int_equal(fclose(f), 0);
    return path;
}

/* The points of report.md's Problems without a result link no log. */
static void expect_no_dead_links(const struct cli *c, const char *sub)
{
    char *report = must_slurp(at(c, sub, "report.md"));
    char *p = strstr(report, "## Problems");

    assert_non_null(p);
    assert_null(strstr(p, ".log`"));
    free(report);
}

static void test_sweep_cli_hosts(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    const char *hosts;

    fake_ssh(c, "good", "");
    fake_ssh(c, "gone", "always");
    fake_ssh(c, "flaky", "after-first"); /* logs in for the check, then never again */
    fake_ssh(c, "flaky2", "after-first");
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "ser", ""), "-j", "1", "--no-plots", RUN_ARGS);
    expect_status(&r, 0);
    run_free(&r);
    /* A host that is down, and one that logs in: it is named, left out, and
     * every point runs on the other, with the same results. */
    hosts = hosts_file(c, "h1", "1 gone h2;2 good h1");
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "a", ""), "--hosts", hosts, "--no-plots",
          RUN_ARGS);
    expect_status(&r, 0);
    expect_has(r.err, "gone/ssh h2' (");
    expect_has(r.err, " line 1) left out: ssh failed (exit 255): ssh: connect to host h2 port "
                      "22: Connection refused\n");
    expect_has(r.err, "running on the other 1 host of ");
    expect_has(r.out, "t, 4 points: 4 run (0 failed), 0 already done");
    run_free(&r);
    expect_same_file(at(c, "a", "results.csv"), at(c, "ser", "results.csv"));
    expect_same_file(at(c, "a", "results.json"), at(c, "ser", "results.json"));
    expect_points(c, "a", 4);
    /* A host that goes down after the check: its points are tried again on
     * the other (--retries 3 by default). */
    hosts = hosts_file(c, "h2", "2 flaky h3;1 good h1");
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "b", ""), "--hosts", hosts, "--no-plots",
          RUN_ARGS);
    expect_status(&r, 0);
    expect_has(r.out, "t, 4 points: 4 run (0 failed), 0 already done");
    run_free(&r);
    expect_same_file(at(c, "b", "results.csv"), at(c, "ser", "results.csv"));
    /* Tried once, on it alone: every point is missing, and said where. */
    hosts = hosts_file(c, "h3", "2 flaky2 h4");
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "c", ""), "--hosts", hosts, "--retries", "1",
          "--no-plots", RUN_ARGS);
    expect_status(&r, 1);
    expect_has(r.out, "t, 4 points: 0 run (0 failed), 4 without a result, 0 already done");
    expect_has(r.err, "4 of 4 points have no result (see report.md):\n  point 1 (burst=1 "
                      "protocol=tail): its job could not reach `");
    expect_has(r.err, "flaky2/ssh h4` (ssh exit 255)\n");
    run_free(&r);
    expect_no_dead_links(c, "c");
    /* No host at all: nothing runs, and the counts say so. */
    hosts = hosts_file(c, "h4", "1 gone h5");
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "d", ""), "--hosts", hosts, "--no-plots",
          RUN_ARGS);
    expect_status(&r, 1);
    expect_has(r.err, "nictx sweep: no host of ");
    expect_has(r.out, "t, 4 points: 0 run (0 failed), 4 without a result, 0 already done");
    expect_has(r.err, "  point 4 (burst=8 protocol=owner): no ssh host ran it (no log; the hosts "
                      "left out are named when the sweep starts)\n");
    run_free(&r);
    expect_no_dead_links(c, "d");
    /* The one that is missing comes back: the same command resumes. */
    hosts = hosts_file(c, "h5", "2 good h1");
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "d", ""), "--hosts", hosts, "--no-plots",
          RUN_ARGS);
    expect_status(&r, 0);
    run_free(&r);
    expect_same_file(at(c, "d", "results.csv"), at(c, "ser", "results.csv"));
}

/* --transfer: the binary and the plan go to a directory of the job's own
 * (through rsync), the point's JSON and log come back. */
static void test_sweep_cli_transfer(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    const char *hosts;

    if (system("rsync --version >/dev/null 2>&1") != 0) {
        print_message("rsync is not installed: --transfer not tested here "
                      "(scripts/install-deps.sh installs it)\n");
        return;
    }
    fake_ssh(c, "good", "");
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "ser", ""), "-j", "1", "--no-plots", RUN_ARGS);
    expect_status(&r, 0);
    run_free(&r);
    hosts = hosts_file(c, "h1", "2 good h1");
    NICTX(c, &r, "sweep", PLAN, "--out", at(c, "t", ""), "--hosts", hosts, "--transfer",
          "--no-plots", RUN_ARGS);
    expect_status(&r, 0);
    expect_has(r.out, "t, 4 points: 4 run (0 failed), 0 already done");
    run_free(&r);
    expect_same_file(at(c, "t", "results.csv"), at(c, "ser", "results.csv"));
    expect_same_file(at(c, "t", "results.json"), at(c, "ser", "results.json"));
    expect_points(c, "t", 4);
}

/* ---- compare ------------------------------------------------------------------ */

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

#define CMP_HEAD "point,id,burst,status,bound,mpps,lat.p99\n"

/* Exit 0 equal, 1 differs (the table names point, parameters, figure, old,
 * new and change), 2 bad usage or input; a new column is not a difference. */
static void test_sweep_cli_compare(void **state)
{
    struct cli *c = *state;
    struct run r = {0};

    assert_int_equal(mkdir(at(c, "old", ""), 0777), 0);
    write_text(at(c, "old", "sweep.ini"), "[params]\nburst = 1,8\n");
    write_text(at(c, "old", "results.csv"), CMP_HEAD "1,aaa,1,ok,cpu,10,200\n"
                                                       "2,bbb,8,ok,\"pcie, dma\",20,220\n");
    write_text(at(c, "wider.csv", ""), "point,id,burst,status,bound,mpps,lat.p99,wc.new\n"
                                       "1,aaa,1,ok,cpu,10.0,200,1\n"
                                       "2,bbb,8,ok,\"pcie, dma\",20,220,2\n");
    write_text(at(c, "moved.csv", ""), CMP_HEAD "1,aaa,1,ok,cpu,10.1,200\n"
                                                "2,bbb,8,failed,\"pcie, dma\",20,231\n");
    NICTX(c, &r, "sweep", "compare", at(c, "old", ""), at(c, "wider.csv", ""));
    expect_status(&r, 0);
    assert_string_equal(r.out, "new columns, not compared: wc.new\n"
                               "compare: 2 points, 5 columns compared: every figure equal\n");
    run_free(&r);
    NICTX(c, &r, "sweep", "compare", at(c, "old", ""), at(c, "moved.csv", ""), "--tol",
          "mpps=1");
    expect_status(&r, 1);
    assert_string_equal(r.out,
                        "point  id   parameters  figure   old  new     change\n"
                        "2      bbb  burst=8     status   ok   failed\n"
                        "2      bbb  burst=8     lat.p99  220  231     +5%\n"
                        "compare: 2 points, 5 columns compared (mpps within 1%): 2 differences\n");
    assert_string_equal(r.err, "");
    run_free(&r);
    NICTX(c, &r, "sweep", "compare", at(c, "old", ""), at(c, "moved.csv", ""), "--tol", "4",
          "--tol", "status=0", "--show", "1");
    expect_status(&r, 1);
    expect_has(r.out, "... and 1 more\n");
    run_free(&r);
    /* Bad usage and unreadable input: 2, a message, nothing on stdout. */
    static const char *const bad[][4] = {
        {"compare", "x", NULL, NULL},
        {"compare", "--tol", "mpps", NULL},
        {"compare", "--bogus", NULL, NULL},
    };
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
        NICTX(c, &r, "sweep", bad[k][0], bad[k][1], bad[k][2]);
        expect_status(&r, 2);
        expect_has(r.err, "(see nictx sweep compare --help)");
        assert_string_equal(r.out, "");
        run_free(&r);
    }
    NICTX(c, &r, "sweep", "compare", at(c, "old", ""), at(c, "nope", ""));
    expect_status(&r, 2);
    expect_has(r.err, "nictx sweep compare: NEW: ");
    expect_has(r.err, "/nope: No such file or directory\n");
    run_free(&r);
    write_text(at(c, "open.csv", ""), CMP_HEAD "1,aaa,1,ok,\"cpu,10,200\n");
    NICTX(c, &r, "sweep", "compare", at(c, "open.csv", ""), at(c, "old", ""));
    expect_status(&r, 2);
    expect_has(r.err, "open.csv:2: a quoted field is not closed\n");
    assert_string_equal(r.out, "");
    run_free(&r);
    NICTX(c, &r, "sweep", "compare", at(c, "old", ""), at(c, "old", ""), "--tol", "mpp=1");
    expect_status(&r, 2);
    expect_has(r.err, "--tol mpp=1: mpp names no column both tables have");
    run_free(&r);
    NICTX(c, &r, "sweep", "compare", "--help");
    expect_status(&r, 0);
    expect_has(r.out, "usage: nictx sweep compare OLD NEW");
    expect_has(r.out, "--tol FIGURE=PCT");
    run_free(&r);
}

/* ---- help and --check -------------------------------------------------------------- */

static void test_sweep_cli_help_and_check(void **state)
{
    static const char *const options[] = {"--set NAME=VALUES", "A..B*F", "FILE.ini", "--out DIR",
                                          "--x NAME", "-j, --jobs N", "--hosts FILE",
                                          "--retries N", "--connect-timeout S", "--transfer",
                                          "--emit-slurm FILE", "--slurm-merge FILE",
                                          "--slurm-opt KEY[=V]", "--fresh", "--check",
                                          "--no-plots", "--seed N", "merge DIR", "point DIR N",
                                          "compare OLD NEW"};
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
    assert_int_equal(dir_entries(at(c, "k", "")), -1); /* --check writes nothing */
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
        SWEEP_TEST(test_sweep_cli_compare),
        SWEEP_TEST(test_sweep_cli_refusals_leave_nothing),
        SWEEP_TEST(test_sweep_cli_hosts),
        SWEEP_TEST(test_sweep_cli_transfer),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
