/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_joblog.h - why a point of a sweep has no result: its log, or the
 * job GNU parallel ran for it over ssh (DIR/joblog, parallel's --joblog
 * of the last ssh sweep into DIR: the host and how each point's last try
 * ended).
 *
 * What it models: nothing; it is what turns "N points have no result"
 * into where they are: which host, which exit, which log.
 *
 * Contract: sweep_joblog_load reads DIR/joblog (a missing file is an
 * empty log; a log of no job says that no host could run a point) and
 * returns 0, or -1 out of memory.  A job's point is the
 * last word of its command (`nictx sweep point DIR N`).  The hosts are
 * shown without the options the sweep adds to every ssh
 * (sweep_hosts.h).  No global state.
 */
#ifndef NICTX_SWEEP_JOBLOG_H
#define NICTX_SWEEP_JOBLOG_H

#include <stddef.h>

#include "sweep/sweep.h"

#define SWEEP_JOBLOG "joblog"

struct sweep_job {
    size_t point; /* 0-based */
    int exitval;
    int signal;
    char *host;   /* the sshlogin, as the user wrote it */
};

struct sweep_joblog {
    struct sweep_job *j;
    size_t n;
    int present; /* DIR/joblog exists: the last run was over ssh */
};

int sweep_joblog_load(struct sweep_joblog *jl, const char *dir);
/* DIR/joblog with no job in it (atomically): no host could run a point. */
int sweep_joblog_write_empty(const char *dir);
void sweep_joblog_free(struct sweep_joblog *jl);
/* Point i's job (the last listed), or NULL. */
const struct sweep_job *sweep_joblog_find(const struct sweep_joblog *jl, size_t i);

/* Why point i has no result, one line (Markdown: paths in backticks):
 * "its run left no result; see `points/ID.log`", "its job could not
 * reach `host1` (ssh exit 255)", ... */
void sweep_missing_why(const struct sweep_spec *s, const char *dir, size_t i,
                       const struct sweep_joblog *jl, char *buf, size_t len);

#endif /* NICTX_SWEEP_JOBLOG_H */
