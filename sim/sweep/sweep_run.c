/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_run.c - the pending points of a sweep run serially or through GNU
 * parallel (see sweep_run.h).
 */
#define _GNU_SOURCE /* signalfd */

#include "sweep/sweep_run.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "lib/strv.h"
#include "sweep/sweep_exec.h"
#include "sweep/sweep_joblog.h"
#include "sweep/sweep_point.h"
#include "sweep/sweep_progress.h"
#include "sweep/sweep_transfer.h"

#define LABEL_BYTES 1024
#define CMD_BYTES 16384

void sweep_run_report_line(size_t i, int result, char *buf, size_t len)
{
    snprintf(buf, len, "%zu %s\n", i + 1,
             result == 1 ? "ok" : result == 2 ? "failed" : "noresult");
}

/* The progress line naming point i, after `what` ("" or "last done: "). */
static void show_point(struct sweep_progress *pr, const struct sweep_spec *s, size_t i,
                       const char *what)
{
    char label[LABEL_BYTES], line[LABEL_BYTES + 16];

    sweep_point_label(s, i, label, sizeof(label));
    snprintf(line, sizeof(line), "%s%s", what, label);
    sweep_progress_show(pr, line);
}

/* ---- serially, here ------------------------------------------------------- */

static void run_serial(const struct sweep_spec *s, const struct sweep_run_opts *o,
                       const unsigned char *todo, struct sweep_run_stats *st)
{
    struct sweep_progress pr;
    size_t n = sweep_npoints(s);

    sweep_progress_start(&pr, stderr, st->todo);
    for (size_t i = 0; i < n && !st->stopped; i++) {
        enum sweep_point_status ps;
        int sig;
        if (!todo[i])
            continue;
        show_point(&pr, s, i, "");
        ps = sweep_point_run(s, o->dir, i, o->bin, &sig);
        st->stopped = sig;
        if (ps == SWEEP_POINT_STOPPED)
            break;
        st->ran += ps != SWEEP_POINT_ERROR;
        st->failed += ps == SWEEP_POINT_FAILED;
        sweep_progress_step(&pr, ps != SWEEP_POINT_OK);
    }
    sweep_progress_end(&pr);
}

/* ---- through GNU parallel ------------------------------------------------- */

static int have_gnu_parallel(void)
{
    char *argv[] = {"parallel", "--version", NULL};
    struct sweep_capture c;
    int yes;

    if (sweep_exec_capture(argv, NULL, &c) != 0)
        return 0;
    yes = c.status == 0 && strstr(c.out, "GNU parallel") != NULL;
    sweep_capture_free(&c);
    return yes;
}

/* The pending points' numbers (1-based), one a line, into a new file. */
static int write_pending(const char *path, const struct sweep_spec *s, const unsigned char *todo)
{
    FILE *f = fopen(path, "w");

    if (!f)
        return -1;
    for (size_t i = 0; i < sweep_npoints(s); i++)
        if (todo[i])
            fprintf(f, "%zu\n", i + 1);
    return fclose(f) == 0 ? 0 : -1;
}

/* Append text as it is (not quoted) to buf: 0, or -1 if it does not fit. */
static int append(char *buf, size_t len, const char *text)
{
    size_t n = strlen(buf);

    if (n + strlen(text) + 1 > len)
        return -1;
    strcpy(buf + n, text);
    return 0;
}

/* --transfer: the inputs go, the point's files come back. */
static int transfer_argv(const struct sweep_run_opts *o, const char *stage, struct strv *a,
                         char *cmd, size_t len)
{
    const char *base = strrchr(o->bin, '/') ? strrchr(o->bin, '/') + 1 : o->bin;
    int rc = strv_push(a, "--workdir") | strv_push(a, "...");

    /* What the job needs, gathered in stage (sweep_transfer.h): one rsync. */
    rc |= strv_push(a, "--transferfile") | strv_pushf(a, "%s/./.", stage);
    /* The job's points/ holds its point's JSON and log alone: one rsync. */
    rc |= strv_push(a, "--return") | strv_pushf(a, "%s/./points", o->dir);
    rc |= strv_push(a, "--cleanup");
    /* The job runs in its own directory there: ./nictx sweep point . N */
    if (append(cmd, len, "mkdir -p points && ./") != 0 || sweep_shell_quote(base, cmd, len) != 0 ||
        append(cmd, len, " sweep point . {}") != 0)
        return -1;
    return rc ? -1 : 0;
}

/* parallel's command line: each job is `nictx sweep point DIR N`. */
static int parallel_argv(const struct sweep_run_opts *o, const char *pending,
                         const char *joblog, const char *stage, struct strv *a)
{
    char cmd[CMD_BYTES] = "";
    int rc = strv_push(a, "parallel") | strv_push(a, "--will-cite");

    if (o->jobs)
        rc |= strv_push(a, "-j") | strv_pushf(a, "%u", o->jobs);
    if (o->hosts)
        rc |= strv_push(a, "--sshloginfile") | strv_push(a, o->hosts) | strv_push(a, "--retries") |
              strv_pushf(a, "%u", o->retries ? o->retries : 1) | strv_push(a, "--joblog") |
              strv_push(a, joblog);
    rc |= strv_push(a, "-a") | strv_push(a, pending);
    if (o->hosts && o->transfer) {
        if (transfer_argv(o, stage, a, cmd, sizeof(cmd)) != 0)
            return -1;
    } else {
        if (o->hosts)
            rc |= strv_push(a, "--workdir") | strv_push(a, o->cwd);
        /* parallel hands the command to a shell: quote the paths. */
        if (sweep_shell_quote(o->bin, cmd, sizeof(cmd)) != 0 ||
            append(cmd, sizeof(cmd), " sweep point ") != 0 ||
            sweep_shell_quote(o->dir, cmd, sizeof(cmd)) != 0 ||
            append(cmd, sizeof(cmd), " {}") != 0)
            return -1;
    }
    return rc | strv_push(a, cmd) ? -1 : 0;
}

/* What the jobs said so far; a point counts once, at its first result. */
struct job_follow {
    const struct sweep_spec *s;
    struct sweep_progress *pr;
    struct sweep_run_stats *st;
    unsigned char *seen; /* a point's job said it has a result */
};

/* One "N STATUS" line from a job. */
static void job_line(const char *line, struct job_follow *jf)
{
    char word[16] = "";
    size_t n = 0;
    int bad;

    if (sscanf(line, "%zu %15s", &n, word) != 2 || n == 0 || n > sweep_npoints(jf->s) ||
        strcmp(word, "noresult") == 0 || jf->seen[n - 1])
        return;
    bad = strcmp(word, "ok") != 0;
    jf->seen[n - 1] = 1;
    jf->st->ran++;
    jf->st->failed += bad;
    sweep_progress_step(jf->pr, bad);
    show_point(jf->pr, jf->s, n - 1, "last done: ");
}

/* Split what arrived into lines; keep a partial line in buf. */
static void job_lines(char *buf, size_t *len, struct job_follow *jf)
{
    char *nl, *start = buf;

    while ((nl = memchr(start, '\n', *len - (size_t)(start - buf))) != NULL) {
        *nl = '\0';
        job_line(start, jf);
        start = nl + 1;
    }
    *len -= (size_t)(start - buf);
    memmove(buf, start, *len);
}

/* Follow parallel's output until it closes; forward a stopping signal. */
static void follow(int rfd, int sfd, pid_t pid, struct job_follow *jf)
{
    struct pollfd pf[2] = {{rfd, POLLIN, 0}, {sfd, POLLIN, 0}};
    char buf[4096];
    size_t len = 0;

    for (;;) {
        ssize_t r;
        if (poll(pf, 2, -1) < 0 && errno != EINTR)
            break;
        if (pf[1].revents & POLLIN) {
            struct signalfd_siginfo si;
            if (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
                jf->st->stopped = (int)si.ssi_signo;
                kill(pid, (int)si.ssi_signo);
            }
        }
        if (!(pf[0].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        r = read(rfd, buf + len, sizeof(buf) - 1 - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        len += (size_t)r;
        job_lines(buf, &len, jf);
        if (len == sizeof(buf) - 1)
            len = 0; /* a line too long to be ours */
    }
}

/* Start parallel and follow it to its end: its exit status, or -1. */
static int run_following(const struct strv *argv, struct job_follow *jf)
{
    struct sweep_progress *pr = jf->pr;
    sigset_t set, old;
    int rfd = -1, sfd, status;
    pid_t pid = -1;

    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigprocmask(SIG_BLOCK, &set, &old);
    sfd = signalfd(-1, &set, SFD_CLOEXEC);
    sweep_progress_start(pr, stderr, jf->st->todo);
    sweep_progress_show(pr, "");
    if (sfd >= 0)
        pid = sweep_exec_pipe(argv->v, &rfd);
    if (pid > 0) {
        follow(rfd, sfd, pid, jf);
        close(rfd);
    }
    status = pid > 0 ? sweep_exec_wait(pid) : -1;
    sweep_progress_end(pr);
    if (sfd >= 0)
        close(sfd);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return status;
}

static int run_parallel(const struct sweep_spec *s, const struct sweep_run_opts *o,
                        const unsigned char *todo, struct sweep_run_stats *st, char *err,
                        size_t errlen)
{
    char pending[SWEEP_PATH_BYTES + 64], joblog[SWEEP_PATH_BYTES + 64];
    char done[SWEEP_PATH_BYTES + 64], stage[SWEEP_PATH_BYTES + 64] = "";
    struct sweep_progress pr;
    struct job_follow jf = {s, &pr, st, calloc(sweep_npoints(s), 1)};
    struct strv argv;
    int status;

    snprintf(pending, sizeof(pending), "%s/pending.tmp.%ld", o->dir, (long)getpid());
    snprintf(joblog, sizeof(joblog), "%s/%s.tmp.%ld", o->dir, SWEEP_JOBLOG, (long)getpid());
    snprintf(done, sizeof(done), "%s/%s", o->dir, SWEEP_JOBLOG);
    strv_init(&argv);
    unlink(done); /* it would describe another run */
    if (o->hosts && o->transfer &&
        sweep_transfer_stage(o->dir, o->bin, o->send, stage, sizeof(stage), err, errlen) != 0) {
        free(jf.seen);
        return -1;
    }
    if (!jf.seen || write_pending(pending, s, todo) != 0 ||
        parallel_argv(o, pending, joblog, stage, &argv) != 0) {
        snprintf(err, errlen, "%s: cannot write the list of points: %s", pending,
                 strerror(errno));
        unlink(pending);
        if (*stage)
            sweep_transfer_unstage(stage);
        strv_free(&argv);
        free(jf.seen);
        return -1;
    }
    status = run_following(&argv, &jf);
    unlink(pending);
    if (*stage)
        sweep_transfer_unstage(stage);
    strv_free(&argv);
    free(jf.seen);
    if (o->hosts && rename(joblog, done) != 0)
        unlink(joblog);
    /* 1..101: jobs failed (their points have no result, said later); 255
     * and others: parallel itself did not run. */
    if (status < 0 || (status > 101 && !st->stopped && st->ran == 0)) {
        snprintf(err, errlen, "GNU parallel failed (exit status %d); see its message above",
                 status);
        return -1;
    }
    return 0;
}

int sweep_run_points(const struct sweep_spec *s, const struct sweep_run_opts *o,
                     const unsigned char *todo, struct sweep_run_stats *st, char *err,
                     size_t errlen)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    size_t n = sweep_npoints(s);

    memset(st, 0, sizeof(*st));
    for (size_t i = 0; i < n; i++)
        st->todo += todo[i] != 0;
    if (!o->hosts) {
        char joblog[SWEEP_PATH_BYTES + 16];
        snprintf(joblog, sizeof(joblog), "%s/%s", o->dir, SWEEP_JOBLOG);
        unlink(joblog); /* it would describe another run */
    }
    if (st->todo == 0)
        return 0;
    if (o->jobs == 1 || (o->jobs == 0 && !o->hosts && cores <= 1)) {
        run_serial(s, o, todo, st);
        return 0;
    }
    if (!have_gnu_parallel()) {
        if (o->hosts) {
            snprintf(err, errlen, "--hosts needs GNU parallel (apt-get install parallel)");
            return -1;
        }
        fprintf(stderr, "nictx sweep: GNU parallel not found (apt-get install parallel): "
                        "running the points one at a time\n");
        run_serial(s, o, todo, st);
        return 0;
    }
    return run_parallel(s, o, todo, st, err, errlen);
}
