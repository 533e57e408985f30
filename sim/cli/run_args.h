/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_args.h - the command line of `nictx run`, parsed: the settings'
 * options (sim/run/settings.h), --profile and --set, and the command
 * line's own (--json, --check, --explore, the listings).
 *
 * `nictx run` parses with it, and so does `nictx draw` (draw.h), which
 * validates a drawn argument list the way --check does, in-process.  After
 * cli_run_parse, sim_cfg_validate() is the rest of --check (cmd_run).
 *
 * Contract: no global state of its own; it uses getopt_long (optind,
 * optarg: the C library's), so it is not reentrant.  Messages go to the
 * caller's stream `msg`.
 */
#ifndef NICTX_RUN_ARGS_H
#define NICTX_RUN_ARGS_H

#include <stdio.h>

#include "run/harness.h"
#include "run/settings.h"

/* A run's settings as the command line gives them. */
struct cli_run_opts {
    struct sim_cfg cfg;
    const char *json; /* --json FILE, or NULL */
    int quiet;
    int check;        /* --check: validate, then exit */
    int markdown;     /* --markdown: --list-keys as a Markdown table */
    unsigned explore; /* --explore N: schedules 1..N; 0: one plain run */
    int argc;         /* the command line after "run", for --explore's repro */
    char **argv;
    unsigned char given[SIM_SETTINGS_MAX]; /* each setting row: its option was given */
    const char *late[SIM_SETTINGS_MAX];    /* SET_LATE rows: the value, applied last */
    FILE *msg;                             /* where messages go */
};
/* What cli_run_parse returns when the run goes on (exit statuses are 0..2). */
#define CLI_RUN_GO (-1)

/* Parse the command line after "run" (argv[0] is "run") into *ro, from
 * sim_cfg_default() and any --profile: CLI_RUN_GO, or the exit status (0
 * after a listing such as --help printed to stdout, 2 after a message to
 * msg naming the bad argument).  *ro keeps pointers into argv. */
int cli_run_parse(int argc, char **argv, FILE *msg, struct cli_run_opts *ro);
/* cli_run_parse, then sim_cfg_validate(): CLI_RUN_GO, or the exit status
 * (2 after "nictx: why" to msg for a configuration it refuses). */
int cli_run_parse_valid(int argc, char **argv, FILE *msg, struct cli_run_opts *ro);
/* "nictx: --OPT VAL: why (see nictx --help)" to f; returns 2. */
int cli_run_bad_arg(FILE *f, const char *opt, const char *val, const char *why);

#endif /* NICTX_RUN_ARGS_H */
