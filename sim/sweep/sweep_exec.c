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
#include <unistd.h>

/* In the child, before exec: no signal blocked, stdin from /dev/null,
 * into dir; then exec.  Never returns. */
static void child_exec(char *const argv[], const char *dir)
{
    sigset_t none;
    int fd = open("/dev/null", O_RDONLY);

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

int sweep_exec_capture(char *const argv[], const char *dir, struct sweep_capture *c)
{
    struct grow out = {NULL, 0, 0}, err = {NULL, 0, 0};
    int po[2], pe[2], rc;
    pid_t pid;

    memset(c, 0, sizeof(*c));
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
    rc = pid < 0 ? -1 : capture_pipes(po[0], pe[0], &out, &err);
    close(po[0]);
    close(pe[0]);
    c->status = pid < 0 ? -1 : sweep_exec_wait(pid);
    c->out = grow_text(&out);
    c->err = grow_text(&err);
    if (rc != 0 || c->status < 0 || !c->out || !c->err) {
        sweep_capture_free(c);
        c->status = -1;
        return -1;
    }
    return 0;
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
