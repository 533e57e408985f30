/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_file.h - sweep files: a sweep written as INI (parsed with libinih),
 * read by `nictx sweep FILE.ini`, and written by every sweep into its
 * results directory as sweep.ini, the record `nictx sweep merge` and each
 * point's job (`nictx sweep point`) read back.
 *
 * Format (docs/user-guide.md):
 *
 *   [sweep]
 *   name = flagship          ; results/NAME; letters, digits, '.', '_', '-'
 *   seed = 1                 ; the sweep seed (strict decimal)
 *   x = burst                ; x axis of the line plots
 *   args = --packets 200000  ; fixed run arguments, split at blanks
 *   [params]
 *   burst = 1..32*2          ; any run option or profile key: a value list
 *   protocol = tail,owner,wc
 *
 * Every key is optional.  A [params] key or `args` named again, or
 * continued on an indented line, adds to what it had, so a long list can
 * span lines; lines are at most SWEEP_FILE_LINE characters.  Comments start
 * with ';' or '#' at the start of a line, or " ;" inside one.
 *
 * Contract: sweep_file_load applies the file to *s on top of what it holds
 * ([sweep] keys replace, [params] and args add) and returns 0; or -1 with
 * "FILE:LINE: reason" in err (unknown section or key, a bad value or list,
 * an over-long line, a file that cannot be read); *s may then hold part of
 * the file.  sweep_file_write writes *s so that loading it into an empty
 * spec gives the same sweep, atomically (temporary file, rename); 0 or -1
 * with the reason in err.  No global state (inih's defaults are used).
 */
#ifndef NICTX_SWEEP_FILE_H
#define NICTX_SWEEP_FILE_H

#include <stddef.h>

#include "sweep/sweep.h"

#define SWEEP_FILE_LINE 196

int sweep_file_load(struct sweep_spec *s, const char *path, char *err, size_t errlen);
int sweep_file_write(const struct sweep_spec *s, const char *path, char *err, size_t errlen);

/* A name for results/NAME: letters, digits, '.', '_', '-', not starting
 * with '.': 1 if ok. */
int sweep_name_ok(const char *name);

#endif /* NICTX_SWEEP_FILE_H */
