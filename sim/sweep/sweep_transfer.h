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
 * is not under profiles/ here (found through $NICTX_PROFILE_DIR).  No
 * global state.
 */
#ifndef NICTX_SWEEP_TRANSFER_H
#define NICTX_SWEEP_TRANSFER_H

#include <stddef.h>

#include "lib/strv.h"
#include "sweep/sweep.h"

int sweep_transfer_inputs(const struct sweep_spec *s, const char *cwd, struct strv *files,
                          char *err, size_t errlen);

#endif /* NICTX_SWEEP_TRANSFER_H */
