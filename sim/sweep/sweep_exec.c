/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_exec.c - starting, capturing and waiting for the children of a
 * sweep (see sweep_exec.h).
 */
#define _GNU_SOURCE /* pipe2 */

#include "sweep/sweep_exec.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* In the child, before exec: no signal blocked, stdin from /dev/null,
 * into dir; then exec.  Never returns.  The signals a sweep forwards (INT,
 * TERM, HUP) get their default action back: one ignored where the sweep
 * started (a shell without job control starts `cmd &` with INT ignored)
 * would otherwise not stop the run it is forwarded to. */
static void child_exec(char *const argv[], const char *dir)
{
    sigset_t none;
    int fd = open("/dev/null", O_RDONLY);

    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (fd >= 0 && fd != STDIN_FILENO) {
        dup2(fd, STDIN_FILENO);
        close(fd);
    }
    if (dir && chdir(dir) != 0) {
        dprintf(STDERR_FILENO, "%s: %s\n", dir, strerror(errno));
        _exit(127);
    }
    execvp(argv[0], argv);
    dprintf(STDERR_FILENO, "%s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

static int exit_status(int wst)
{
    return WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
}

int sweep_exec_wait(pid_t pid)
{
    int wst;

    while (waitpid(pid, &wst, 0) < 0)
        if (errno != EINTR)
            return -1;
    return exit_status(wst);
}

/* ---- capture -------------------------------------------------------------- */

struct grow {
    char *p;
    size_t n, cap;
};

/* Read what fd has into g: 1 more may come, 0 at its end, -1 on error. */
static int grow_read(struct grow *g, int fd)
{
    ssize_t r;

    if (g->cap - g->n < 4096) {
        char *np = realloc(g->p, g->cap + 65536);
        if (!np)
            return -1;
        g->p = np;
        g->cap += 65536;
    }
    r = read(fd, g->p + g->n, g->cap - g->n - 1);
    if (r < 0)
        return errno == EINTR ? 1 : -1;
    g->n += (size_t)r;
    g->p[g->n] = '\0';
    return r > 0;
}

/* Drain both pipes until both close: 0, or -1. */
static int capture_pipes(int fo, int fe, struct grow *out, struct grow *err)
{
    struct pollfd pf[2] = {{fo, POLLIN, 0}, {fe, POLLIN, 0}};
    struct grow *g[2] = {out, err};
    int open_n = 2, rc = 0;

    while (open_n > 0) {
        if (poll(pf, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        for (int k = 0; k < 2; k++) {
            int more;
            if (pf[k].fd < 0 || !(pf[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            if ((more = grow_read(g[k], pf[k].fd)) <= 0) {
                rc |= more;
                pf[k].fd = -1;
                open_n--;
            }
        }
    }
    return rc ? -1 : 0;
}

/* The captured text: never NULL unless out of memory. */
static char *grow_text(struct grow *g)
{
    if (!g->p && (g->p = malloc(1)))
        g->p[0] = '\0';
    return g->p;
}

void sweep_capture_free(struct sweep_capture *c)
{
    free(c->out);
    free(c->err);
    memset(c, 0, sizeof(*c));
}

/* Start argv in dir with stdout and stderr on new pipes (*fo, *fe: the
 * reading ends): its pid, or -1. */
static pid_t spawn_captured(char *const argv[], const char *dir, int *fo, int *fe)
{
    int po[2], pe[2];
    pid_t pid;

    if (pipe2(po, O_CLOEXEC) != 0)
        return -1;
    if (pipe2(pe, O_CLOEXEC) != 0) {
        close(po[0]);
        close(po[1]);
        return -1;
    }
    if ((pid = fork()) == 0) {
        dup2(po[1], STDOUT_FILENO);
        dup2(pe[1], STDERR_FILENO);
        child_exec(argv, dir);
    }
    close(po[1]);
    close(pe[1]);
    if (pid < 0) {
        close(po[0]);
        close(pe[0]);
        return -1;
    }
    *fo = po[0];
    *fe = pe[0];
    return pid;
}

int sweep_exec_capture(char *const argv[], const char *dir, struct sweep_capture *c)
{
    struct grow out = {NULL, 0, 0}, err = {NULL, 0, 0};
    int fo, fe, rc;
    pid_t pid;

    memset(c, 0, sizeof(*c));
    if ((pid = spawn_captured(argv, dir, &fo, &fe)) < 0)
        return -1;
    rc = capture_pipes(fo, fe, &out, &err);
    close(fo);
    close(fe);
    c->status = sweep_exec_wait(pid);
    c->out = grow_text(&out);
    c->err = grow_text(&err);
    if (rc != 0 || c->status < 0 || !c->out || !c->err) {
        sweep_capture_free(c);
        c->status = -1;
        return -1;
    }
    return 0;
}

/* ---- several at once, with a deadline -------------------------------------- */

struct capt_child {
    pid_t pid;
    int fd[2];         /* stdout, stderr; -1 once closed */
    struct grow g[2];
    int exited, wst, timed_out;
};

static double mono_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Reap the children that ended; the number still running. */
static size_t reap(struct capt_child *ch, size_t n)
{
    size_t running = 0;

    for (size_t k = 0; k < n; k++) {
        if (ch[k].exited || ch[k].pid <= 0)
            continue;
        if (waitpid(ch[k].pid, &ch[k].wst, WNOHANG) == ch[k].pid)
            ch[k].exited = 1;
        else
            running++;
    }
    return running;
}

/* Read what is ready; an fd at its end (or failing) is closed.  Returns
 * the pollfds filled in (open fds) in pf, and their count in *m. */
static void fill_poll(struct capt_child *ch, size_t n, struct pollfd *pf, size_t *m,
                      size_t *who)
{
    *m = 0;
    for (size_t k = 0; k < n; k++)
        for (int j = 0; j < 2; j++)
            if (ch[k].fd[j] >= 0) {
                pf[*m].fd = ch[k].fd[j];
                pf[*m].events = POLLIN;
                pf[*m].revents = 0;
                who[*m] = 2 * k + (size_t)j;
                (*m)++;
            }
}

/* Kill what still runs (its pipes closed after), then wait for all. */
static void finish_children(struct capt_child *ch, size_t n, int timed_out)
{
    for (size_t k = 0; k < n; k++) {
        if (ch[k].pid > 0 && !ch[k].exited) {
            if (timed_out) {
                kill(ch[k].pid, SIGKILL);
                ch[k].timed_out = 1;
            }
            while (waitpid(ch[k].pid, &ch[k].wst, 0) < 0 && errno == EINTR)
                ;
            ch[k].exited = 1;
        }
        for (int j = 0; j < 2; j++)
            if (ch[k].fd[j] >= 0) {
                close(ch[k].fd[j]);
                ch[k].fd[j] = -1;
            }
    }
}

/* Follow every child to its end or the deadline: 0, or -1 on an error. */
static int follow_all(struct capt_child *ch, size_t n, double deadline)
{
    struct pollfd *pf = calloc(2 * n, sizeof(*pf));
    size_t *who = calloc(2 * n, sizeof(*who)), m;
    int rc = 0;

    if (!pf || !who)
        rc = -1;
    while (rc == 0) {
        double left = deadline - mono_now();
        fill_poll(ch, n, pf, &m, who);
        if (reap(ch, n) == 0 && m == 0)
            break;
        if (left <= 0) {
            finish_children(ch, n, 1);
            break;
        }
        /* Pipes closed but a child still running: look again soon. */
        if (poll(pf, m, m ? (int)(left * 1000) + 1 : 20) < 0 && errno != EINTR)
            rc = -1;
        for (size_t q = 0; q < m && rc == 0; q++) {
            struct capt_child *c = &ch[who[q] / 2];
            int j = (int)(who[q] % 2), more;
            if (!(pf[q].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            if ((more = grow_read(&c->g[j], c->fd[j])) <= 0) {
                rc = more < 0 ? -1 : 0;
                close(c->fd[j]);
                c->fd[j] = -1;
            }
        }
    }
    free(pf);
    free(who);
    return rc;
}

int sweep_exec_capture_all(char *const *const argvs[], size_t n, double timeout_s,
                           struct sweep_capture *c)
{
    struct capt_child *ch = calloc(n ? n : 1, sizeof(*ch));
    int rc = ch ? 0 : -1;

    for (size_t k = 0; k < n; k++) {
        memset(&c[k], 0, sizeof(c[k]));
        if (ch)
            ch[k].fd[0] = ch[k].fd[1] = -1;
    }
    for (size_t k = 0; k < n && rc == 0; k++) {
        ch[k].pid = spawn_captured(argvs[k], NULL, &ch[k].fd[0], &ch[k].fd[1]);
        if (ch[k].pid < 0)
            rc = -1;
    }
    if (rc == 0)
        rc = follow_all(ch, n, mono_now() + timeout_s);
    if (ch)
        finish_children(ch, n, rc != 0);
    for (size_t k = 0; ch && k < n; k++) {
        c[k].out = grow_text(&ch[k].g[0]);
        c[k].err = grow_text(&ch[k].g[1]);
        c[k].status = ch[k].pid > 0 ? exit_status(ch[k].wst) : -1;
        c[k].timed_out = ch[k].timed_out;
        if (!c[k].out || !c[k].err)
            rc = -1;
    }
    if (rc != 0)
        for (size_t k = 0; k < n; k++)
            sweep_capture_free(&c[k]);
    free(ch);
    return rc;
}

/* ---- a run with its output in a file --------------------------------------- */

/* Wait for pid with INT, TERM and HUP (blocked in *set with CHLD) forwarded
 * to it; *sig: the last one forwarded.  Its exit status, or -1. */
static int wait_forwarding(pid_t pid, const sigset_t *set, int *sig)
{
    int wst;

    for (;;) {
        int s = sigwaitinfo(set, NULL);
        pid_t w;
        if (s < 0 && errno != EINTR)
            return -1;
        if (s > 0 && s != SIGCHLD) {
            kill(pid, s);
            *sig = s;
        }
        w = waitpid(pid, &wst, WNOHANG);
        if (w == pid)
            return exit_status(wst);
        if (w < 0 && errno != EINTR)
            return -1;
    }
}

int sweep_exec_to_fd(char *const argv[], int fd, int *sig)
{
    sigset_t set, old;
    pid_t pid;
    int status;

    *sig = 0;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGCHLD);
    sigprocmask(SIG_BLOCK, &set, &old);
    if ((pid = fork()) == 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        if (fd > STDERR_FILENO)
            close(fd);
        child_exec(argv, NULL);
    }
    status = pid < 0 ? -1 : wait_forwarding(pid, &set, sig);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return status;
}

pid_t sweep_exec_pipe(char *const argv[], int *rfd)
{
    int p[2];
    pid_t pid;

    if (pipe2(p, O_CLOEXEC) != 0)
        return -1;
    if ((pid = fork()) == 0) {
        dup2(p[1], STDOUT_FILENO);
        child_exec(argv, NULL);
    }
    close(p[1]);
    if (pid < 0) {
        close(p[0]);
        return -1;
    }
    *rfd = p[0];
    return pid;
}

int sweep_exec_self(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);

    if (n <= 0 || (size_t)n >= len - 1)
        return -1;
    buf[n] = '\0';
    return 0;
}

int sweep_shell_quote(const char *s, char *buf, size_t len)
{
    size_t n = strlen(buf);
    int plain = *s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789-_./=:,+@%") == strlen(s);

    if (plain) {
        if (n + strlen(s) + 1 > len)
            return -1;
        strcat(buf, s);
        return 0;
    }
    if (n + 2 >= len)
        return -1;
    buf[n++] = '\'';
    for (; *s; s++) {
        const char *piece = *s == '\'' ? "'\\''" : NULL;
        size_t m = piece ? 4 : 1;
        if (n + m + 2 > len)
            return -1;
        if (piece)
            memcpy(buf + n, piece, m);
        else
            buf[n] = *s;
        n += m;
    }
    buf[n++] = '\'';
    buf[n] = '\0';
    return 0;
}
