/* SPDX-License-Identifier: Apache-2.0 */
/*
 * draw.h - legal random configurations for the nightly regression
 * (`nictx draw`, `make regress`; docs/testing.md, Randomized regression).
 *
 * A draw is a `nictx run` argument list: for each row of the settings
 * table (sim/run/settings.h) that a user can set, with probability 1/2 a
 * value within its range or choices (log-uniform over wide numeric
 * ranges), else the default; key-only rows (the cpu.* costs, host.napi)
 * as --set section.key=V; a profile of profiles/ one draw in four; always
 * --device lockstep.  A few rows are not drawn, or drawn within a smaller
 * range so that a run stays short and its verdict must be ok: the rules of
 * draw.c's table, each with its reason (cli_draw_rule_why).  A row the
 * table names no rule for is drawn from its type and range alone, so a new
 * setting is covered without a change here.
 *
 * Legality: the list is parsed by the parser of `nictx run` (run_args.h)
 * and checked by sim_cfg_validate(), as --check does; a refused draw is
 * drawn again from the next attempt's stream.  The result depends on the
 * seed alone (and the profiles present).
 *
 * Contract: no global state; pure but for reading the profiles' folder.
 */
#ifndef NICTX_DRAW_H
#define NICTX_DRAW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "run/settings.h"

#define CLI_DRAW_ARGS_MAX 256
#define CLI_DRAW_ATTEMPTS 10000 /* draws tried per seed before giving up */

/* One drawn configuration: argv[0] is "run", then the options. */
struct cli_draw {
    int argc;
    char *argv[CLI_DRAW_ARGS_MAX];
    char buf[16384];   /* the strings argv points into */
    unsigned attempts; /* draws made until one was legal (1: the first) */
};

#define CLI_DRAW_HW_MAX 16 /* hardware combinations a pool may hold */

/* Draw seed's configuration, profiles from the folder `profiles` (NULL or
 * unreadable: none).  hw_pool K > 0: one draw in four runs one of K
 * hardware combinations (--dev-width and every --hw-* row, none the
 * prebuilt models'), each drawn from its index alone, so that the seeds of
 * a regression share at most K models; the register settings the hardware
 * caps are drawn within it.  0, or -1 with a message in err when no legal
 * draw came in CLI_DRAW_ATTEMPTS (or hw_pool > CLI_DRAW_HW_MAX).  log, if
 * not NULL, gets each refusal. */
int cli_draw(uint64_t seed, const char *profiles, unsigned hw_pool, struct cli_draw *d,
             FILE *log, char *err, size_t n);
/* --check's validation of `nictx run` argv[0..argc) (argv[0] "run"), in
 * process: 0, or -1 with the message in err. */
int cli_draw_check(int argc, char **argv, char *err, size_t n);
/* Why row s is not drawn, or drawn from a narrower range than the table's;
 * NULL when it is drawn from the table's type and range.  *skipped: 1 when
 * it is never drawn. */
const char *cli_draw_rule_why(const struct sim_setting *s, int *skipped);
/* Row s can be set by a user (an option, or a key for --set). */
int cli_draw_settable(const struct sim_setting *s);
/* `nictx draw [--seed N] [--count K] [--hw K] [--profiles DIR] [--rules]`. */
int cli_draw_main(int argc, char **argv);

#endif /* NICTX_DRAW_H */
