/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep.h - a sweep: run parameters, each with a list of values, and the
 * cross product of those lists as points, each one `nictx run` command.
 *
 * What it models: nothing; it is the experiment plan of `nictx sweep`
 * (docs/user-guide.md).  The sweep tool knows no run parameter by name: a
 * parameter NAME becomes the run option `--NAME VALUE`, and a dotted name
 * SECTION.KEY becomes `--set SECTION.KEY=VALUE` (a profile key), so a new
 * run option or profile key joins sweeps without code here.
 *
 * Contract:
 *  - Points are numbered 0..sweep_npoints()-1 (shown 1-based to users).  The
 *    first parameter varies slowest, the last fastest, like nested loops in
 *    the order the parameters were given.
 *  - A point's command is, after "run": `--seed S` (unless `seed` is itself
 *    a parameter), the sweep's fixed run arguments (args), then each
 *    parameter's option in order; a later option overrides an earlier one.
 *  - S is a function of the sweep seed and every NAME=VALUE of the point,
 *    taken in name order: not of the point's index, so a point keeps its
 *    seed when values are added to the sweep or parameters reordered.
 *  - A point's id (12 hex digits) is a hash of its whole command; results
 *    are stored under it, so a changed command never reuses a result.
 *  - Functions that can fail return 0, or -1 with a one-line message in
 *    err (NUL-terminated, truncated to errlen).  No global state.
 */
#ifndef NICTX_SWEEP_H
#define NICTX_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "lib/strv.h"

#define SWEEP_NAME_BYTES 128
#define SWEEP_ID_BYTES 13        /* 12 hex digits and the NUL */
#define SWEEP_MAX_POINTS 1000000
#define SWEEP_DEFAULT_X "burst"  /* the line plots' x axis unless set */
/* A point runs on the C model unless its command names a device; its first
 * SWEEP_LOCKSTEP_PACKETS packets are checked in lockstep first
 * (sweep_point.h). */
#define SWEEP_DEFAULT_DEVICE "c"
#define SWEEP_LOCKSTEP_PACKETS 2000u
#define SWEEP_LOCKSTEP_MAX 100000000u

struct sweep_param {
    char *name;         /* "burst", "cpu.wmb_ns" */
    struct strv values; /* at least one once the spec is checked */
};

struct sweep_spec {
    char name[SWEEP_NAME_BYTES]; /* names results/NAME; "" until set */
    uint64_t seed;               /* the sweep seed (default 1) */
    char x[SWEEP_NAME_BYTES];    /* x axis of the line plots */
    struct sweep_param *params;
    size_t nparams;
    struct strv args;            /* fixed run arguments, passed verbatim */
    unsigned lockstep_packets;   /* a C-model point's lockstep check (0: none) */
};

void sweep_spec_init(struct sweep_spec *s);
void sweep_spec_free(struct sweep_spec *s);

/* Add the values of LIST (sweep_values.h syntax) to parameter NAME,
 * creating it after the others if it is new. */
int sweep_spec_add(struct sweep_spec *s, const char *name, const char *list,
                   char *err, size_t errlen);
/* "NAME=LIST": replace NAME's values (keeping its place), or add it. */
int sweep_spec_set(struct sweep_spec *s, const char *assignment, char *err, size_t errlen);
/* Index of parameter NAME, or -1. */
long sweep_param_find(const struct sweep_spec *s, const char *name);
/* The value of run option --NAME in argv[0..n) (the last one, as the run
 * takes it: "--NAME V" or "--NAME=V"), or NULL. */
const char *sweep_argv_option(char *const *argv, size_t n, const char *name);
/* Add "--device M" to the fixed arguments unless the arguments or a
 * parameter already name the device: 0, or -1 (no memory). */
int sweep_spec_default_device(struct sweep_spec *s, const char *model);

/*
 * Is the spec one the sweep can run?  Every parameter name is a run option
 * or profile key in form (letters, digits, '-', '_', '.'; not one the sweep
 * sets itself: json, check, help, list-keys, list-options, quiet), has at
 * least one value, no fixed argument is one of those options, and there are
 * at most SWEEP_MAX_POINTS points.  Whether the run knows the names and
 * takes the values is asked of nictx itself (sweep_check.h).
 */
int sweep_spec_check(const struct sweep_spec *s, char *err, size_t errlen);

/* The number of points: the product of the value counts (1 without
 * parameters). */
size_t sweep_npoints(const struct sweep_spec *s);
/* The index of parameter p's value at point i. */
size_t sweep_point_vindex(const struct sweep_spec *s, size_t i, size_t p);
/* Parameter p's value at point i. */
const char *sweep_point_value(const struct sweep_spec *s, size_t i, size_t p);
/* The point's seed (see above). */
uint64_t sweep_point_seed(const struct sweep_spec *s, size_t i);
/* Append the point's run arguments (without "run" and --json) to argv. */
int sweep_point_args(const struct sweep_spec *s, size_t i, struct strv *argv);
/* The point's id: 12 lower-case hex digits. */
void sweep_point_id(const struct sweep_spec *s, size_t i, char id[SWEEP_ID_BYTES]);
/* "burst=8 protocol=owner" (every parameter; "" without any), truncated. */
void sweep_point_label(const struct sweep_spec *s, size_t i, char *buf, size_t len);

/* The run option a parameter maps to: "--burst", or "--set" for a
 * dotted name (whose value is then "NAME=VALUE"). */
int sweep_param_is_key(const char *name);

#endif /* NICTX_SWEEP_H */
