/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sweep_run.c - cmocka tests for how a sweep's points run: one point
 * interrupted (sim/sweep/sweep_point.c), children captured at once with a
 * deadline (sim/sweep/sweep_exec.c), the ssh hosts file and its check
 * (sim/sweep/sweep_hosts.c; the hosts here are fake ssh commands that run
 * the check on this machine), parallel's job log and why a point has no
 * result (sim/sweep/sweep_joblog.c), the inputs --transfer sends
 * (sim/sweep/sweep_transfer.c) and the Slurm site options and paths
 * (sim/sweep/sweep_slurm.c).  Real ssh and Slurm: tests/sweep/.
 */
#define _GNU_SOURCE /* mkdtemp, setenv */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sweep/sweep.h"
#include "sweep/sweep_exec.h"
#include "sweep/sweep_hosts.h"
#include "sweep/sweep_joblog.h"
#include "sweep/sweep_point.h"
#include "sweep/sweep_slurm.h"
#include "sweep/sweep_transfer.h"

#define PATH_BYTES 512

struct tmp {
    char dir[64];
};

static int tmp_setup(void **state)
{
    struct tmp *t = calloc(1, sizeof(*t));

    if (!t)
        return -1;
    snprintf(t->dir, sizeof(t->dir), "/tmp/test_sweep_run.XXXXXX");
    if (!mkdtemp(t->dir)) {
        free(t);
        return -1;
    }
    *state = t;
    return 0;
}

static int tmp_teardown(void **state)
{
    struct tmp *t = *state;
    char cmd[128];

    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
    assert_int_equal(system(cmd), 0);
    free(t);
    return 0;
}

/* dir/name */
static const char *at(const struct tmp *t, const char *name)
{
    static char path[4][PATH_BYTES];
    static int k;

    k = (k + 1) % 4;
    snprintf(path[k], PATH_BYTES, "%s/%s", t->dir, name);
    return path[k];
}

static void write_file(const char *path, const char *text, int mode)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, (mode_t)mode), 0);
}

/* A whole file (malloc'd). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char *buf = calloc(1, 65536);
    size_t n;

    assert_non_null(f);
    assert_non_null(buf);
    n = fread(buf, 1, 65535, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static int exists(const char *path)
{
    return access(path, F_OK) == 0;
}

/* ---- one point, interrupted ------------------------------------------------- */

/* The plan burst=1 (one point), its files in t->dir/points. */
static void one_point(const struct tmp *t, struct sweep_spec *s, char *json, char *log)
{
    char err[256], id[SWEEP_ID_BYTES];

    sweep_spec_init(s);
    assert_int_equal(sweep_spec_set(s, "burst=1", err, sizeof(err)), 0);
    assert_int_equal(mkdir(at(t, "points"), 0777), 0);
    sweep_point_id(s, 0, id);
    assert_int_equal(sweep_point_paths(t->dir, id, json, log, PATH_BYTES), 0);
}

/* Any "*.tmp.*" left in points/? */
static int tmp_left(const struct tmp *t)
{
    char cmd[PATH_BYTES];

    snprintf(cmd, sizeof(cmd), "ls '%s/points' | grep -q '\\.tmp\\.'", t->dir);
    return system(cmd) == 0;
}

/*
 * A run stopped by Ctrl-C after its JSON was written (the JSON is written
 * whole, then the signal ends the run before it exits): the point must not
 * look done without its log, so neither is left.  The fake nictx writes
 * the JSON its --json names (the last argument), then sends SIGINT to the
 * sweep (its parent), which forwards it.
 */
static void stopped_leaves_nothing(const struct tmp *t)
{
    struct sweep_spec s;
    char json[PATH_BYTES], log[PATH_BYTES];
    int sig = -1;

    write_file(at(t, "fake"), "#!/bin/sh\n"
                              "for a; do last=$a; done\n"
                              "echo '{\"status\": \"ok\"}' > \"$last\"\n"
                              "kill -INT $PPID\n"
                              "exec sleep 10\n", 0755);
    one_point(t, &s, json, log);
    assert_int_equal(sweep_point_run(&s, t->dir, 0, at(t, "fake"), &sig), SWEEP_POINT_STOPPED);
    assert_int_equal(sig, 2);
    assert_false(exists(log));
    assert_false(exists(json));
    assert_false(tmp_left(t));
    assert_int_equal(sweep_point_result(&s, t->dir, 0), 0);
    sweep_spec_free(&s);
}

static void test_sweep_point_stopped_leaves_nothing(void **state)
{
    stopped_leaves_nothing(*state);
}

/* The same where the sweep started with SIGINT ignored, as a shell without
 * job control starts `nictx sweep ... &`: the run it starts must still stop
 * on the SIGINT forwarded to it. */
static void test_sweep_point_stopped_with_int_ignored(void **state)
{
    void (*old)(int) = signal(SIGINT, SIG_IGN);

    stopped_leaves_nothing(*state);
    signal(SIGINT, old);
}

/* A run that had ended (it ignores SIGINT) when the signal came keeps its
 * JSON and its log: it is done. */
static void test_sweep_point_ended_keeps_result(void **state)
{
    struct tmp *t = *state;
    struct sweep_spec s;
    char json[PATH_BYTES], log[PATH_BYTES];
    int sig = -1;

    write_file(at(t, "fake"), "#!/bin/sh\n"
                              "trap '' INT\n"
                              "for a; do last=$a; done\n"
                              "echo '{\"status\": \"violation\"}' > \"$last\"\n"
                              "kill -INT $PPID\n"
                              "exit 1\n", 0755);
    one_point(t, &s, json, log);
    assert_int_equal(sweep_point_run(&s, t->dir, 0, at(t, "fake"), &sig), SWEEP_POINT_FAILED);
    assert_int_equal(sig, 2);
    assert_true(exists(log));
    assert_true(exists(json));
    assert_false(tmp_left(t));
    assert_int_equal(sweep_point_result(&s, t->dir, 0), 2); /* a result, not ok */
    sweep_spec_free(&s);
}

/* ---- the lockstep check of a C-model point --------------------------------------- */

/* The plan burst=1 with ARGS as its fixed run arguments. */
static void args_point(const struct tmp *t, struct sweep_spec *s, const char *args, char *json,
                       char *log)
{
    char err[256], id[SWEEP_ID_BYTES], buf[256], *save = NULL;

    sweep_spec_init(s);
    assert_int_equal(sweep_spec_set(s, "burst=1", err, sizeof(err)), 0);
    snprintf(buf, sizeof(buf), "%s", args);
    for (char *a = strtok_r(buf, " ", &save); a; a = strtok_r(NULL, " ", &save))
        assert_int_equal(strv_push(&s->args, a), 0);
    if (!exists(at(t, "points")))
        assert_int_equal(mkdir(at(t, "points"), 0777), 0);
    sweep_point_id(s, 0, id);
    assert_int_equal(sweep_point_paths(t->dir, id, json, log, PATH_BYTES), 0);
}

/* A fake nictx: each call appends its arguments to t->dir/calls; a call
 * with "--device lockstep" writes {"status": LS} and exits LS_EXIT, except
 * that with "--packets 2000" it exits REFUSE (when not 0); the point's own
 * run writes {"status": "ok", "main": 1}. */
static void fake_nictx(const struct tmp *t, const char *ls, int ls_exit, int refuse)
{
    char text[1024];

    snprintf(text, sizeof(text),
             "#!/bin/sh\n"
             "echo \"$*\" >> '%s/calls'\n"
             "for a; do last=$a; done\n"
             "case \"$*\" in\n"
             "*'--device lockstep --packets 2000'*) [ %d -ne 0 ] && exit %d ;;\n"
             "esac\n"
             "case \"$*\" in\n"
             "*'--device lockstep'*) echo '{\"status\": \"%s\"}' > \"$last\"; exit %d ;;\n"
             "esac\n"
             "echo '{\"status\": \"ok\", \"main\": 1}' > \"$last\"\n",
             t->dir, refuse, refuse, ls, ls_exit);
    write_file(at(t, "fake"), text, 0755);
}

/* Any check JSON ("*.lockstep.json") left in points/? */
static int lockstep_left(const struct tmp *t)
{
    char cmd[PATH_BYTES];

    snprintf(cmd, sizeof(cmd), "ls '%s/points' | grep -q 'lockstep'", t->dir);
    return system(cmd) == 0;
}

static int count_lines(const char *path)
{
    char *c = slurp(path);
    int n = 0;

    for (char *p = c; *p; p++)
        n += *p == '\n';
    free(c);
    return n;
}

/* A C-model point whose lockstep check diverges: the point failed, the
 * check's JSON is its result, the log's first line is the check's command
 * (the repro), and the point's own run never ran. */
static void test_sweep_point_lockstep_divergence(void **state)
{
    struct tmp *t = *state;
    struct sweep_spec s;
    char json[PATH_BYTES], log[PATH_BYTES];
    int sig = -1;

    fake_nictx(t, "failed", 1, 0);
    args_point(t, &s, "--packets 50000 --device c", json, log);
    assert_int_equal(sweep_point_run(&s, t->dir, 0, at(t, "fake"), &sig), SWEEP_POINT_FAILED);
    assert_int_equal(sweep_point_result(&s, t->dir, 0), 2);
    char *l = slurp(log);
    assert_non_null(strstr(l, "--device c --burst 1 --device lockstep --packets 2000 --json "));
    assert_true(l[0] == '$');
    free(l);
    assert_int_equal(count_lines(at(t, "calls")), 1);
    char *j = slurp(json);
    assert_null(strstr(j, "main"));
    free(j);
    assert_false(lockstep_left(t));
    sweep_spec_free(&s);
}

/* The check passes: then the point runs on the C model, its JSON the
 * result; the log holds both commands; no check JSON is left. */
static void test_sweep_point_lockstep_passes(void **state)
{
    struct tmp *t = *state;
    struct sweep_spec s;
    char json[PATH_BYTES], log[PATH_BYTES];
    int sig = -1;

    fake_nictx(t, "ok", 0, 0);
    args_point(t, &s, "--packets 50000 --device c", json, log);
    assert_int_equal(sweep_point_run(&s, t->dir, 0, at(t, "fake"), &sig), SWEEP_POINT_OK);
    char *j = slurp(json);
    assert_non_null(strstr(j, "\"main\": 1"));
    free(j);
    char *c = slurp(at(t, "calls"));
    assert_non_null(strstr(c, "--device lockstep --packets 2000"));
    assert_non_null(strstr(strchr(c, '\n'), "--device c --burst 1 --json"));
    free(c);
    assert_int_equal(count_lines(at(t, "calls")), 2);
    assert_false(lockstep_left(t));
    sweep_spec_free(&s);
}

/* The check's length: a point shorter than the check checks all of it; a
 * check refused for its length (exit 2: a fault planned later) checks the
 * whole point; no check for the RTL, nor with lockstep_packets 0. */
static void test_sweep_point_lockstep_length(void **state)
{
    struct tmp *t = *state;
    struct sweep_spec s;
    char json[PATH_BYTES], log[PATH_BYTES], *c;
    int sig = -1;

    fake_nictx(t, "ok", 0, 0);
    args_point(t, &s, "--packets 500 --device c", json, log);
    assert_int_equal(sweep_point_run(&s, t->dir, 0, at(t, "fake"), &sig), SWEEP_POINT_OK);
    c = slurp(at(t, "calls"));
    assert_non_null(strstr(c, "--device lockstep --packets 500 --json"));
    free(c);
    sweep_spec_free(&s);
    unlink(at(t, "calls"));

    fake_nictx(t, "ok", 0, 2);
    args_point(t, &s, "--packets 50000 --device c", json, log);
    assert_int_equal(sweep_point_run(&s, t->dir, 0, at(t, "fake"), &sig), SWEEP_POINT_OK);
    assert_int_equal(count_lines(at(t, "calls")), 3); /* refused, whole, the point */
    c = slurp(at(t, "calls"));
    assert_non_null(strstr(strchr(c, '\n'), "--device lockstep --json"));
    free(c);
    sweep_spec_free(&s);
    unlink(at(t, "calls"));

    args_point(t, &s, "--packets 50000 --device rtl", json, log);
    assert_int_equal(sweep_point_run(&s, t->dir, 0, at(t, "fake"), &sig), SWEEP_POINT_OK);
    assert_int_equal(count_lines(at(t, "calls")), 1);
    sweep_spec_free(&s);
    unlink(at(t, "calls"));

    args_point(t, &s, "--packets 50000 --device=c", json, log);
    s.lockstep_packets = 0;
    assert_int_equal(sweep_point_run(&s, t->dir, 0, at(t, "fake"), &sig), SWEEP_POINT_OK);
    assert_int_equal(count_lines(at(t, "calls")), 1);
    sweep_spec_free(&s);
}

/* ---- children at once, with a deadline ---------------------------------------- */

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One quick child, one that never ends (as ssh to a silent host would
 * without a timeout): the second is killed at the deadline. */
static void test_sweep_exec_capture_all_deadline(void **state)
{
    char *quick[] = {"sh", "-c", "echo hi; echo oops >&2; exit 3", NULL};
    char *hang[] = {"sh", "-c", "echo started; exec sleep 30", NULL};
    char *const *const argvs[] = {quick, hang};
    struct sweep_capture c[2];
    double t0 = now_s();

    (void)state;
    assert_int_equal(sweep_exec_capture_all(argvs, 2, 0.5, c), 0);
    assert_true(now_s() - t0 < 5);
    assert_string_equal(c[0].out, "hi\n");
    assert_string_equal(c[0].err, "oops\n");
    assert_int_equal(c[0].status, 3);
    assert_false(c[0].timed_out);
    assert_string_equal(c[1].out, "started\n");
    assert_true(c[1].timed_out);
    assert_int_equal(c[1].status, 128 + 9);
    sweep_capture_free(&c[0]);
    sweep_capture_free(&c[1]);
}

/* ---- the hosts file ----------------------------------------------------------- */

static void test_sweep_hosts_load(void **state)
{
    struct tmp *t = *state;
    struct sweep_hosts hs;
    char err[512], buf[1024], *login;

    unsetenv("PARALLEL_SSH");
    write_file(at(t, "hosts"), "# lab machines\n"
                               "\n"
                               "  4/ssh -p 2222 -i ~/.ssh/lab user@big  \n"
                               "@fast/2/node7\n"
                               ":\n"
                               "autossh -M 0 far\n", 0644);
    sweep_hosts_init(&hs);
    assert_int_equal(sweep_hosts_load(&hs, at(t, "hosts"), err, sizeof(err)), 0);
    assert_int_equal(hs.n, 4);
    /* The whole ssh command: the host is its last word, options before it. */
    assert_int_equal(hs.h[0].lineno, 3);
    assert_string_equal(hs.h[0].text, "4/ssh -p 2222 -i ~/.ssh/lab user@big");
    assert_int_equal(hs.h[0].cpus, 4);
    assert_string_equal(hs.h[0].cmd, "ssh -p 2222 -i ~/.ssh/lab");
    assert_string_equal(hs.h[0].login, "user@big");
    assert_int_equal(sweep_host_sshlogin(&hs.h[0], 7, buf, sizeof(buf)), 0);
    assert_string_equal(buf, "ssh -p 2222 -i ~/.ssh/lab -o ConnectTimeout=7 -o BatchMode=yes "
                             "-o ServerAliveInterval=7 user@big");
    /* A host group and a CPU count; a bare host gets ssh. */
    assert_string_equal(hs.h[1].groups, "@fast/");
    assert_int_equal(hs.h[1].cpus, 2);
    assert_int_equal(sweep_host_sshlogin(&hs.h[1], 10, buf, sizeof(buf)), 0);
    assert_string_equal(buf, "ssh -o ConnectTimeout=10 -o BatchMode=yes "
                             "-o ServerAliveInterval=10 node7");
    /* This machine: nothing to check, nothing to add. */
    assert_true(hs.h[2].usable);
    assert_int_equal(sweep_host_sshlogin(&hs.h[2], 10, buf, sizeof(buf)), 0);
    assert_string_equal(buf, ":");
    /* Not ssh: left as it is. */
    assert_int_equal(sweep_host_sshlogin(&hs.h[3], 10, buf, sizeof(buf)), 0);
    assert_string_equal(buf, "autossh -M 0 far");
    /* The login file parallel gets: the usable hosts, each with its CPUs. */
    hs.h[0].usable = 1;
    hs.h[3].usable = 0;
    hs.h[1].usable = 1;
    assert_int_equal(sweep_hosts_write(&hs, 5, at(t, "login"), err, sizeof(err)), 0);
    login = slurp(at(t, "login"));
    assert_string_equal(login, "4/ssh -p 2222 -i ~/.ssh/lab -o ConnectTimeout=5 -o BatchMode=yes "
                               "-o ServerAliveInterval=5 user@big\n"
                               "@fast/2/ssh -o ConnectTimeout=5 -o BatchMode=yes "
                               "-o ServerAliveInterval=5 node7\n"
                               ":\n");
    free(login);
    sweep_hosts_free(&hs);
}

static void expect_hosts_err(const struct tmp *t, const char *text, const char *why)
{
    struct sweep_hosts hs;
    char err[512];

    write_file(at(t, "hosts"), text, 0644);
    sweep_hosts_init(&hs);
    assert_int_equal(sweep_hosts_load(&hs, at(t, "hosts"), err, sizeof(err)), -1);
    if (!strstr(err, why))
        print_error("'%s' lacks '%s'\n", err, why);
    assert_non_null(strstr(err, why));
    sweep_hosts_free(&hs);
}

static void test_sweep_hosts_errors(void **state)
{
    struct tmp *t = *state;

    expect_hosts_err(t, "# nothing\n\n", "no host in it");
    expect_hosts_err(t, "a\n0/b\n", ":2: '0/b': the CPU count");
    expect_hosts_err(t, "@grp\n", "a host group (@GROUPS/) without its '/'");
    expect_hosts_err(t, "4/\n", "'4/': no host");
    expect_hosts_err(t, "ssh -p 22 :\n", "':' (this machine) takes no ssh command");
    {
        struct sweep_hosts hs;
        char err[512];
        sweep_hosts_init(&hs);
        assert_int_equal(sweep_hosts_load(&hs, "/nonexistent/hosts", err, sizeof(err)), -1);
        assert_string_equal(err, "--hosts /nonexistent/hosts: No such file or directory");
    }
}

/*
 * The check, with fake ssh commands that run it here: "ok" runs it as it
 * comes; "gone" fails as ssh does for a host that is down; "private" runs
 * it where the token file is another (a host with its own copy of the
 * results directory).  A fake is a program named ssh, so it gets the
 * options; it drops them and the host, and runs the command.
 */
static void test_sweep_hosts_check(void **state)
{
    struct tmp *t = *state;
    struct sweep_hosts hs;
    struct sweep_hosts_want w = {3, 0, "/bin/sh", t->dir, t->dir};
    char err[512], text[2048], *login;

    assert_int_equal(mkdir(at(t, "ok"), 0777), 0);
    assert_int_equal(mkdir(at(t, "gone"), 0777), 0);
    assert_int_equal(mkdir(at(t, "private"), 0777), 0);
    write_file(at(t, "ok/ssh"), "#!/bin/sh\n"
                                "while [ \"$1\" = -o ]; do shift 2; done\n"
                                "exec sh -c \"$2\"\n", 0755);
    write_file(at(t, "gone/ssh"), "#!/bin/sh\n"
                                  "echo 'ssh: connect to host gone port 22: Connection "
                                  "refused' >&2\n"
                                  "exit 255\n", 0755);
    write_file(at(t, "private/ssh"), "#!/bin/sh\n"
                                     "while [ \"$1\" = -o ]; do shift 2; done\n"
                                     "exec sh -c \"$(echo \"$2\" | sed 's/probe\\.tmp/other/')\"\n",
               0755);
    snprintf(text, sizeof(text), "%s/ok/ssh h1\n%s/gone/ssh h2\n3/%s/private/ssh h3\n:\n", t->dir,
             t->dir, t->dir);
    write_file(at(t, "hosts"), text, 0644);
    sweep_hosts_init(&hs);
    assert_int_equal(sweep_hosts_load(&hs, at(t, "hosts"), err, sizeof(err)), 0);
    assert_int_equal(sweep_hosts_check(&hs, &w, err, sizeof(err)), 2);
    assert_true(hs.h[0].usable);
    assert_true(hs.h[0].cpus >= 1); /* what the check found */
    assert_false(hs.h[1].usable);
    assert_string_equal(hs.h[1].why, "ssh failed (exit 255): ssh: connect to host gone port 22: "
                                     "Connection refused");
    assert_false(hs.h[2].usable);
    assert_non_null(strstr(hs.h[2].why, "does not see"));
    assert_non_null(strstr(hs.h[2].why, "no shared filesystem"));
    assert_true(hs.h[3].usable);
    assert_false(exists(at(t, "probe.tmp.1"))); /* the token is gone */
    /* Not there: the binary. */
    w.bin = "/nonexistent/nictx";
    assert_int_equal(sweep_hosts_check(&hs, &w, err, sizeof(err)), 1);
    assert_non_null(strstr(hs.h[0].why, "it has no /nonexistent/nictx: it does not share"));
    /* With --transfer, the binary is sent, and the host with its own copy
     * of the results is fine. */
    w.transfer = 1;
    assert_int_equal(sweep_hosts_check(&hs, &w, err, sizeof(err)), 3);
    assert_int_equal(hs.h[2].cpus, 3); /* as the file says */
    /* What parallel gets: the usable hosts, the options in, their CPUs. */
    assert_int_equal(sweep_hosts_write(&hs, 3, at(t, "login"), err, sizeof(err)), 0);
    login = slurp(at(t, "login"));
    snprintf(text, sizeof(text),
             "%ld/%s/ok/ssh -o ConnectTimeout=3 -o BatchMode=yes -o ServerAliveInterval=3 h1\n"
             "3/%s/private/ssh -o ConnectTimeout=3 -o BatchMode=yes -o ServerAliveInterval=3 h3\n"
             ":\n", sysconf(_SC_NPROCESSORS_ONLN), t->dir, t->dir);
    assert_string_equal(login, text);
    free(login);
    sweep_hosts_free(&hs);
}

/* ---- the job log ------------------------------------------------------------- */

static void test_sweep_joblog_why(void **state)
{
    struct tmp *t = *state;
    struct sweep_spec s;
    struct sweep_joblog jl;
    char err[256], why[1024], id[SWEEP_ID_BYTES], log[PATH_BYTES], text[2048];

    sweep_spec_init(&s);
    assert_int_equal(sweep_spec_set(&s, "burst=1..6", err, sizeof(err)), 0);
    snprintf(text, sizeof(text),
             "Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\tCommand\n"
             "1\tssh -F cfg -o ConnectTimeout=10 -o BatchMode=yes -o ServerAliveInterval=10 dead"
             "\t1.0\t0.1\t0\t0\t255\t0\t/x/nictx sweep point /r 2\n"
             "2\tssh -o ConnectTimeout=4 -o BatchMode=yes -o ServerAliveInterval=4 far"
             "\t1.0\t0.1\t0\t0\t0\t0\t/x/nictx sweep point /r 3\n"
             "3\tssh bare\t1.0\t0.1\t0\t0\t127\t0\tmkdir -p points && ./nictx sweep point . 4\n"
             "4\tssh bare\t1.0\t0.1\t0\t0\t0\t15\t/x/nictx sweep point /r 5\n");
    write_file(at(t, SWEEP_JOBLOG), text, 0644);
    assert_int_equal(mkdir(at(t, "points"), 0777), 0);
    sweep_point_id(&s, 5, id); /* point 6: a run that left its log */
    snprintf(log, sizeof(log), "%s/points/%s.log", t->dir, id);
    write_file(log, "$ nictx run\nSegmentation fault\n", 0644);
    assert_int_equal(sweep_joblog_load(&jl, t->dir), 0);
    assert_int_equal(jl.n, 4);
    sweep_missing_why(&s, t->dir, 1, &jl, why, sizeof(why));
    assert_string_equal(why, "its job could not reach `ssh -F cfg dead` (ssh exit 255)");
    sweep_missing_why(&s, t->dir, 2, &jl, why, sizeof(why));
    assert_non_null(strstr(why, "its job ended on `far`, but its result is not in this "
                                "directory: that host does not share it"));
    sweep_missing_why(&s, t->dir, 3, &jl, why, sizeof(why));
    assert_string_equal(why, "its job could not start nictx on `bare` (exit 127)");
    sweep_missing_why(&s, t->dir, 4, &jl, why, sizeof(why));
    assert_string_equal(why, "its job on `bare` was killed by signal 15");
    sweep_missing_why(&s, t->dir, 5, &jl, why, sizeof(why));
    snprintf(text, sizeof(text), "its run left no result; see `points/%s.log`", id);
    assert_string_equal(why, text);
    sweep_missing_why(&s, t->dir, 0, &jl, why, sizeof(why));
    assert_string_equal(why, "no ssh host ran it (no log; the hosts left out are named when the "
                             "sweep starts)");
    sweep_joblog_free(&jl);
    /* A log of no job (no host could run the points): the same. */
    assert_int_equal(sweep_joblog_write_empty(t->dir), 0);
    assert_int_equal(sweep_joblog_load(&jl, t->dir), 0);
    assert_int_equal(jl.n, 0);
    assert_true(jl.present);
    sweep_missing_why(&s, t->dir, 1, &jl, why, sizeof(why));
    assert_non_null(strstr(why, "no ssh host ran it"));
    sweep_joblog_free(&jl);
    /* No job log: an empty one; a Slurm sweep's, or one not run. */
    assert_int_equal(unlink(at(t, SWEEP_JOBLOG)), 0);
    assert_int_equal(sweep_joblog_load(&jl, t->dir), 0);
    assert_int_equal(jl.n, 0);
    assert_false(jl.present);
    sweep_missing_why(&s, t->dir, 0, &jl, why, sizeof(why));
    assert_string_equal(why, "not run (no log)");
    assert_int_equal(mkdir(at(t, "slurm"), 0777), 0);
    sweep_missing_why(&s, t->dir, 0, &jl, why, sizeof(why));
    assert_string_equal(why, "no log: no Slurm task has run it yet (their output: `slurm/`)");
    sweep_spec_free(&s);
}

/* ---- --transfer's inputs ---------------------------------------------------------- */

static void expect_inputs_err(struct sweep_spec *s, const char *cwd, const char *set,
                              const char *why)
{
    struct strv files;
    char err[512];

    assert_int_equal(sweep_spec_set(s, set, err, sizeof(err)), 0);
    strv_init(&files);
    assert_int_equal(sweep_transfer_inputs(s, cwd, &files, err, sizeof(err)), -1);
    if (!strstr(err, why))
        print_error("'%s' lacks '%s'\n", err, why);
    assert_non_null(strstr(err, why));
    strv_free(&files);
}

static void test_sweep_transfer_inputs(void **state)
{
    struct tmp *t = *state;
    struct sweep_spec s;
    struct strv files;
    char err[512], here[PATH_BYTES];

    assert_non_null(getcwd(here, sizeof(here)));
    assert_int_equal(chdir(t->dir), 0);
    assert_int_equal(mkdir("profiles", 0777), 0);
    assert_int_equal(mkdir("mine", 0777), 0);
    write_file("profiles/lab.ini", "[cpu]\n", 0644);
    write_file("mine/a.ini", "[cpu]\n", 0644);
    sweep_spec_init(&s);
    assert_int_equal(strv_push(&s.args, "--profile"), 0);
    assert_int_equal(strv_push(&s.args, "lab"), 0);
    assert_int_equal(sweep_spec_set(&s, "profile=lab,mine/a.ini", err, sizeof(err)), 0);
    strv_init(&files);
    assert_int_equal(sweep_transfer_inputs(&s, "/c", &files, err, sizeof(err)), 0);
    assert_int_equal(files.n, 2); /* lab once */
    assert_string_equal(files.v[0], "/c/./profiles/lab.ini");
    assert_string_equal(files.v[1], "/c/./mine/a.ini");
    strv_free(&files);
    /* What cannot be sent under the same relative path. */
    expect_inputs_err(&s, "/c", "profile=/etc/p.ini", "--profile /etc/p.ini: give the "
                                                      "profile's path relative");
    expect_inputs_err(&s, "/c", "profile=../p.ini", "--profile ../p.ini");
    expect_inputs_err(&s, "/c", "profile=elsewhere", "profile elsewhere is not "
                                                     "profiles/elsewhere.ini under this");
    sweep_spec_free(&s);
    assert_int_equal(chdir(here), 0);
}

/* ---- Slurm --------------------------------------------------------------------------- */

static void test_sweep_slurm_opts_and_paths(void **state)
{
    static const char *const good[] = {"partition=short", "time=1-00:00:00", "exclusive",
                                       "mail-user=a@b.c", "constraint=x86&avx2", "job-name=mine"};
    static const char *const bad[] = {"array=1-3", "chdir=/x", "wrap=true", "--partition=x",
                                      "Partition=x", "time=1 h", "=x", "comment=\"a\"",
                                      "time=", "part_ition=x"};
    char err[256], buf[PATH_BYTES];

    (void)state;
    for (size_t k = 0; k < sizeof(good) / sizeof(good[0]); k++)
        assert_int_equal(sweep_slurm_opt_check(good[k], err, sizeof(err)), 0);
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
        if (sweep_slurm_opt_check(bad[k], err, sizeof(err)) != -1)
            fail_msg("--slurm-opt %s was accepted", bad[k]);
        assert_non_null(strstr(err, "--slurm-opt "));
    }
    /* Inside the checkout: relative; outside (or the checkout itself): as it is. */
    assert_int_equal(sweep_slurm_rel("/w/nictx/build/nictx", "/w/nictx", buf, sizeof(buf)), 1);
    assert_string_equal(buf, "build/nictx");
    assert_int_equal(sweep_slurm_rel("/w/nictx/results/t", "/w/nictx/", buf, sizeof(buf)), 1);
    assert_string_equal(buf, "results/t");
    assert_int_equal(sweep_slurm_rel("/w/nictx2/results", "/w/nictx", buf, sizeof(buf)), 0);
    assert_string_equal(buf, "/w/nictx2/results");
    assert_int_equal(sweep_slurm_rel("/scratch/t", "/w/nictx", buf, sizeof(buf)), 0);
    assert_int_equal(sweep_slurm_rel("/w/nictx/", "/w/nictx", buf, sizeof(buf)), 0);
}

#define TMP_TEST(t) cmocka_unit_test_setup_teardown(t, tmp_setup, tmp_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        TMP_TEST(test_sweep_point_stopped_leaves_nothing),
        TMP_TEST(test_sweep_point_stopped_with_int_ignored),
        TMP_TEST(test_sweep_point_ended_keeps_result),
        TMP_TEST(test_sweep_point_lockstep_divergence),
        TMP_TEST(test_sweep_point_lockstep_passes),
        TMP_TEST(test_sweep_point_lockstep_length),
        cmocka_unit_test(test_sweep_exec_capture_all_deadline),
        TMP_TEST(test_sweep_hosts_load),
        TMP_TEST(test_sweep_hosts_errors),
        TMP_TEST(test_sweep_hosts_check),
        TMP_TEST(test_sweep_joblog_why),
        TMP_TEST(test_sweep_transfer_inputs),
        cmocka_unit_test(test_sweep_slurm_opts_and_paths),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
