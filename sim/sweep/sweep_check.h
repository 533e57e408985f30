/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_check.h - before any point runs, ask nictx itself whether it takes
 * the sweep: every parameter name (`nictx run --list-options`,
 * `--list-keys`), the fixed run arguments, and every point's whole command
 * (`nictx run ARGS --check`, which parses and validates, then exits).
 *
 * The sweep tool has no list of run parameters of its own, so what nictx
 * run accepts is by construction what a sweep accepts, and its messages
 * (which name the option) are the ones the user sees.
 *
 * Contract: each function returns 0, or -1 with a one-line message in err
 * naming what was refused: "parameter bur: not an option of nictx run",
 * "run arguments: nictx: ...", "parameter burst=x: nictx: --burst x: not a
 * decimal integer", or, when only a combination is refused, "point 7
 * (ring=8 desc-fetch-max=16): nictx: ...".  -1 also when nictx could not be
 * run at all.  No global state.
 */
#ifndef NICTX_SWEEP_CHECK_H
#define NICTX_SWEEP_CHECK_H

#include <stddef.h>

#include "sweep/sweep.h"

/* Every parameter is a run option that takes a value, or a profile key. */
int sweep_check_names(const struct sweep_spec *s, const char *bin, char *err, size_t errlen);

/* The fixed arguments, then every point i with todo[i] set (all if todo is
 * NULL), are accepted by `bin run ... --check`. */
int sweep_check_points(const struct sweep_spec *s, const char *bin, const unsigned char *todo,
                       char *err, size_t errlen);

#endif /* NICTX_SWEEP_CHECK_H */
