/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_exec.h - the child processes of a sweep: nictx itself (runs,
 * checks, listings), GNU parallel and gnuplot.
 *
 * What it models: nothing; it is the process plumbing of `nictx sweep`,
 * written once: start a program, capture what it prints, or hand its
 * output to a file or a pipe, and wait for it.
 *
 * Contract:
 *  - Children get the caller's signal dispositions with no signal blocked;
 *    stdin is /dev/null unless said otherwise.
 *  - An exit status is the child's exit code, or 128 + the signal that
 *    ended it; -1 means it could not be started (errno set).  A program
 *    that is not found exits 127.
 *  - sweep_exec_to_fd waits with SIGINT, SIGTERM and SIGHUP blocked and
 *    forwards each to the child, so an interrupted point ends its run and
 *    the caller learns which signal (to stop, and to leave no half-written
 *    file).  The caller must not ignore SIGCHLD.
 *  - No global state.
 */
#ifndef NICTX_SWEEP_EXEC_H
#define NICTX_SWEEP_EXEC_H

#include <stddef.h>
#include <sys/types.h>

/* What a captured child printed, and how it ended. */
struct sweep_capture {
    char *out;     /* stdout, NUL-terminated (malloc'd) */
    char *err;     /* stderr */
    int status;    /* see above */
    int timed_out; /* sweep_exec_capture_all: killed at its deadline */
};

/* Run argv[0] (searched in PATH if it has no '/') in directory dir (NULL:
 * here) to its end, capturing stdout and stderr: 0, or -1 if it could not
 * be started or captured (c is then empty). */
int sweep_exec_capture(char *const argv[], const char *dir, struct sweep_capture *c);
void sweep_capture_free(struct sweep_capture *c);

/* Run n commands at once (argvs[k], as for sweep_exec_capture), capturing
 * each into c[k], until every one has ended or timeout_s seconds have
 * passed: one still running then is killed (SIGKILL), its status 128 + 9
 * and timed_out set.  0, or -1 if one could not be started or captured
 * (every c[k] is then empty; those started are killed and waited for). */
int sweep_exec_capture_all(char *const *const argvs[], size_t n, double timeout_s,
                           struct sweep_capture *c);

/* Run argv with stdout and stderr on fd and wait (see above); *sig is the
 * signal forwarded to it, or 0.  The exit status, or -1. */
int sweep_exec_to_fd(char *const argv[], int fd, int *sig);

/* Start argv with stdout on a new pipe (*rfd, the reading end) and stderr
 * shared: its pid, or -1. */
pid_t sweep_exec_pipe(char *const argv[], int *rfd);
/* Wait for pid: its exit status, or -1. */
int sweep_exec_wait(pid_t pid);

/* This program's path (/proc/self/exe): 0, or -1. */
int sweep_exec_self(char *buf, size_t len);

/* s quoted for a POSIX shell ('...', ' as '\''), appended to buf of len
 * (NUL-terminated): 0, or -1 if it does not fit. */
int sweep_shell_quote(const char *s, char *buf, size_t len);

#endif /* NICTX_SWEEP_EXEC_H */
