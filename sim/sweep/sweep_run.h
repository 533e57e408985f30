/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_run.h - running a sweep's pending points: one after the other in
 * this process (each a fork/exec of nictx), or through GNU parallel, on
 * this machine's cores or, with an ssh login file, on other machines.
 *
 * Every point runs the same way wherever it runs (sweep_point.h): the
 * serial loop calls sweep_point_run itself, and each of parallel's jobs is
 * `nictx sweep point DIR N`, which calls it and prints "N STATUS" on
 * stdout; that line is how this process follows parallel's progress.  A
 * job exits non-zero only when its point has no result, so parallel's
 * --retries tries again (on another host) only what did not run.
 *
 * Over ssh (hosts: the login file of the checked hosts, sweep_hosts.h)
 * parallel tries each point up to retries times, each try on a host where
 * it has not failed while one is left, and logs each point's last try in
 * DIR/joblog (sweep_joblog.h).  The machines share DIR, the binary and the
 * working directory at the same paths; or, with transfer, each job runs in
 * a directory of its own under ~/.parallel/tmp there, to which parallel
 * copies (rsync) the binary, DIR/sweep.ini and the files in send (paths
 * "CWD/./REL", copied to REL), gathered in DIR/send.tmp.PID for the time
 * of the run (sweep_transfer.h), and from which it copies points/ (the
 * point's JSON and log) back into DIR before removing it.
 *
 * Contract:
 *  - jobs 1 runs serially here.  jobs 0 means one job per core (parallel's
 *    default; serial on a 1-core machine without hosts).  If GNU parallel
 *    is not installed the points run serially, with a one-line note on
 *    stderr.
 *  - SIGINT, SIGTERM and SIGHUP stop the sweep: the running points are
 *    interrupted (and leave no file behind), no new point starts, and
 *    st->stopped says which signal.  Points already done stay done, so the
 *    same command resumes.
 *  - Returns 0 once every pending point was tried or the sweep was stopped
 *    (st counts what ran and what failed); -1 with a message in err when
 *    the points could not be started at all.  No global state.
 */
#ifndef NICTX_SWEEP_RUN_H
#define NICTX_SWEEP_RUN_H

#include <stddef.h>

#include "lib/strv.h"
#include "sweep/sweep.h"

struct sweep_run_opts {
    const char *dir;   /* the results directory, absolute */
    const char *bin;   /* the nictx binary, absolute */
    const char *cwd;   /* the runs' working directory, absolute */
    unsigned jobs;     /* see above; with hosts, jobs per host */
    const char *hosts; /* ssh login file for parallel (--sshloginfile), or NULL */
    unsigned retries;  /* with hosts: tries per point (parallel --retries) */
    int transfer;      /* with hosts: send the inputs, return the results */
    const struct strv *send; /* with transfer: more inputs, "CWD/./REL" */
};

struct sweep_run_stats {
    size_t todo;   /* points to run */
    size_t ran;    /* points whose job said they have a result */
    size_t failed; /* of which the run did not end ok */
    int stopped;   /* the signal that stopped the sweep, or 0 */
};

int sweep_run_points(const struct sweep_spec *s, const struct sweep_run_opts *o,
                     const unsigned char *todo, struct sweep_run_stats *st, char *err,
                     size_t errlen);

/* The line a point's job prints when it ends: "N STATUS\n" (N 1-based),
 * STATUS "ok" or "failed" (result 1 or 2 of sweep_point_result), or
 * "noresult" (0). */
void sweep_run_report_line(size_t i, int result, char *buf, size_t len);

#endif /* NICTX_SWEEP_RUN_H */
