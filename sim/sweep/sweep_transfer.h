/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_transfer.h - the input files a sweep's runs read, for --transfer:
 * each job then runs in a directory of its own on a host that has no copy
 * of this one (sweep_run.h), so what a run reads must be sent with it.
 *
 * What it models: nothing.  The only run option that reads a file is
 * --profile (the nictx binary and the plan are sent anyway): a profile
 * NAME is read from profiles/NAME.ini under the working directory, a
 * profile PATH.ini from that path.  Each is sent under the same relative
 * path, so the runs there find it as the runs here do.
 *
 * Contract: sweep_transfer_inputs appends "CWD/./REL" for every profile
 * the plan names (in its fixed arguments or as the values of a "profile"
 * parameter), once each; 0, or -1 with a message in err when one cannot
 * be sent that way: an absolute path, a path with "..", or a NAME that
 * is not under profiles/ here (found through $NICTX_PROFILE_DIR).
 *
 * sweep_transfer_stage gathers what a job needs into one new directory,
 * DIR/send.tmp.PID: the nictx binary under its own name, DIR/sweep.ini,
 * and each input at its REL, each a hard link where it can be, else a
 * copy; so one rsync sends it all (a job's own directory there is empty).
 * 0 with its path in stage, or -1 with a message in err and nothing left.
 * sweep_transfer_unstage removes it.  No global state.
 */
#ifndef NICTX_SWEEP_TRANSFER_H
#define NICTX_SWEEP_TRANSFER_H

#include <stddef.h>

#include "lib/strv.h"
#include "sweep/sweep.h"

int sweep_transfer_inputs(const struct sweep_spec *s, const char *cwd, struct strv *files,
                          char *err, size_t errlen);

int sweep_transfer_stage(const char *dir, const char *bin, const struct strv *inputs,
                         char *stage, size_t len, char *err, size_t errlen);
void sweep_transfer_unstage(const char *stage);

#endif /* NICTX_SWEEP_TRANSFER_H */
