/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_point.h - one point of a sweep, run: `nictx run ARGS --json
 * DIR/points/ID.json` with its output in DIR/points/ID.log.
 *
 * What it models: nothing; it is the unit of work that the serial loop, GNU
 * parallel's jobs and a Slurm array's tasks all run (`nictx sweep point DIR
 * N` runs it from the command line).
 *
 * Contract:
 *  - Nothing is ever half-written: the run writes its JSON atomically
 *    (report.h), and the log goes to ID.log.tmp.PID, renamed to ID.log when
 *    the run ends; an interrupted run leaves neither (its temporary log is
 *    removed, and a JSON it wrote before the signal ended it too), so a
 *    point never looks done without its log.  A run that had ended when
 *    the signal came keeps both.  The log starts with the command,
 *    shell-quoted, so it can be run again by hand.
 *  - A point is done when its JSON exists and is not older than the nictx
 *    binary that would run it (a rebuilt simulator reruns every point);
 *    `--fresh` sweeps ignore that.
 *  - No global state.
 */
#ifndef NICTX_SWEEP_POINT_H
#define NICTX_SWEEP_POINT_H

#include <stddef.h>

#include "lib/strv.h"
#include "sweep/sweep.h"

#define SWEEP_PATH_BYTES 4096

/* How a point's run ended. */
enum sweep_point_status {
    SWEEP_POINT_OK,      /* the run exited 0 (or the point was done) */
    SWEEP_POINT_FAILED,  /* the run exited non-zero (its JSON may say why) */
    SWEEP_POINT_ERROR,   /* it could not be started or its log written */
    SWEEP_POINT_STOPPED, /* a signal interrupted it */
};

/* DIR/points/ID.json and DIR/points/ID.log: 0, or -1 if too long. */
int sweep_point_paths(const char *dir, const char *id, char *json, char *log, size_t len);

/* 1 if point i's JSON exists (and, with bin, is not older than bin). */
int sweep_point_done(const struct sweep_spec *s, const char *dir, size_t i, const char *bin);

/* The point's command: bin run ARGS --json DIR/points/ID.json. */
int sweep_point_argv(const struct sweep_spec *s, const char *dir, size_t i, const char *bin,
                     struct strv *argv);

/* Run point i with the nictx binary bin; *sig is the signal forwarded to
 * it, else 0: SWEEP_POINT_STOPPED if the signal ended it, else the run had
 * ended on its own and its status is returned.  A run that exited non-zero
 * leaves no JSON whose status is "ok" (one there is moved to
 * ID.json.rejected), so the point is a problem either way. */
enum sweep_point_status sweep_point_run(const struct sweep_spec *s, const char *dir, size_t i,
                                        const char *bin, int *sig);

/* Point i's result in DIR: 0 none (no JSON, or one without a "status"
 * that can be read), 1 its status is "ok", 2 another status. */
int sweep_point_result(const struct sweep_spec *s, const char *dir, size_t i);

#endif /* NICTX_SWEEP_POINT_H */
