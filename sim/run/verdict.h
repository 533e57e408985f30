/* SPDX-License-Identifier: Apache-2.0 */
/*
 * verdict.h - a run's verdict, decided in one place: the status the table
 * heads with, the JSON's "status" and "diagnosis", the one line --quiet
 * prints, an exploration's stop, and the exit status all come from
 * sim_verdict_of(), so they cannot disagree (docs/results.md, status).
 *
 * In order, the first that applies:
 *   failed           the run did not end (rc < 0): the watchdog, a deadlock, a
 *                    queue reset the device never took, a probe that failed;
 *   violation        a checker or the device named a broken rule (rc > 0): the
 *                    run stopped grace_us after it, or it was found at the
 *                    end (ERR bits no injected fault explains, BQL's balance);
 *   unclean          the run ended, but frames were lost, corrupted, never
 *                    accounted for or dropped by a reset no fault explains,
 *                    or the hang check reset the adapter with no fault
 *                    injected (its timeout too short, or a hung device);
 *   bug_not_reached  a one-shot driver bug (--driver-bug) never found its
 *                    occasion from packet --bug-at on: the run proved
 *                    nothing about it;
 *   ok               every frame checked on the wire or dropped by an
 *                    injected fault, and nothing above.
 * Every status but ok exits 1.  Pure functions of their arguments.
 */
#ifndef NICTX_VERDICT_H
#define NICTX_VERDICT_H

#include <stddef.h>

struct sim_cfg;
struct sim_result;

enum sim_status {
    SIM_STATUS_OK,
    SIM_STATUS_FAILED,
    SIM_STATUS_VIOLATION,
    SIM_STATUS_UNCLEAN,
    SIM_STATUS_BUG_NOT_REACHED,
};

struct sim_verdict {
    enum sim_status status;
    const char *name;    /* the JSON's "status": "ok", "failed", ... */
    const char *heading; /* the table's first line before the diagnosis
                            ("RUN FAILED"); NULL for ok */
    int exit;            /* the exit status: 0 for ok, else 1 */
    char why[1024];      /* the diagnosis, "" for ok */
};

/* The verdict of a run that returned rc (sim_run) with result r and
 * diagnosis diag (sim_diag; "" when none). */
void sim_verdict_of(const struct sim_cfg *cfg, int rc, const struct sim_result *r,
                    const char *diag, struct sim_verdict *v);

/* The verdict of a run that never started (sim_create failed: err). */
void sim_verdict_not_started(const char *err, struct sim_verdict *v);

/* sim_verdict_of()'s exit status is 0. */
int sim_result_clean(const struct sim_cfg *cfg, int rc, const struct sim_result *r);
/* sim_verdict_of()'s name. */
const char *sim_verdict(const struct sim_cfg *cfg, int rc, const struct sim_result *r);

#endif /* NICTX_VERDICT_H */
