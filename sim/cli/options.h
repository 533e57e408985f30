/* SPDX-License-Identifier: Apache-2.0 */
/*
 * options.h - the options of `nictx run`: every setting's option (the
 * settings table, sim/run/settings.h) and the command line's own (--json,
 * --profile, --set, --check, the listings), in --help's order.
 *
 * From that one list come the getopt table, --help, --list-options, and
 * the Markdown table of settings in docs/profiles.md (`nictx run
 * --list-keys --markdown`).  Const data and pure functions; the getopt
 * table is built into the caller's array.
 */
#ifndef NICTX_OPTIONS_H
#define NICTX_OPTIONS_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include "run/settings.h"

/* The command line's own options. */
enum cli_opt {
    CLI_PROFILE, CLI_SET, CLI_LIST_KEYS, CLI_EXPLORE, CLI_JSON, CLI_QUIET, CLI_CHECK,
    CLI_LIST_OPTIONS, CLI_MARKDOWN, CLI_HELP, CLI_OPTS
};

/* getopt_long's val: a setting's (CLI_VAL_SETTING + its row) or one of the
 * command line's own (CLI_VAL_OWN + enum cli_opt).  Both above any
 * character, so an unknown short option is told apart. */
#define CLI_VAL_SETTING 256
#define CLI_VAL_OWN 1024
#define CLI_OPTIONS_MAX (SIM_SETTINGS_MAX + 16) /* with the command line's own */

/* Fill out[CLI_OPTIONS_MAX] with the getopt table, {0}-terminated. */
void cli_options_getopt(struct option *out);
/* The row of a setting's val, or NULL for the command line's own. */
const struct sim_setting *cli_options_setting(int val);
/* The option's name of a val ("?" if none). */
const char *cli_options_name(int val);

/* --help: usage, then every option by group, with its range and default. */
void cli_options_usage(FILE *f);
/* --list-options: "NAME value" or "NAME flag", a line each. */
void cli_options_list(FILE *f);
/* --list-keys --markdown: every setting that has a key or an option, as a
 * Markdown table (docs/profiles.md, between its settings:begin/end marks). */
void cli_options_markdown(FILE *f);

#endif /* NICTX_OPTIONS_H */
