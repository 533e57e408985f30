/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_args.c - `nictx run`'s command line, parsed (see run_args.h).
 */
#define _GNU_SOURCE
#include "cli/run_args.h"

#include <getopt.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "lib/num.h"
#include "cli/options.h"
#include "cli/profile.h"

int cli_run_bad_arg(FILE *f, const char *opt, const char *val, const char *why)
{
    /* Quote a value a reader could not otherwise see: empty or with blanks. */
    const char *q = (!*val || strpbrk(val, " \t\n\v\f\r")) ? "'" : "";

    fprintf(f, "nictx: --%s %s%s%s: %s (see nictx --help)\n", opt, q, val, q, why);
    return 2;
}

/* profiles/ beside the build directory of this binary (build/nictx ->
 * profiles/), for a NAME not found from the current directory. */
static int profile_beside_binary(const char *name, char *path, size_t len)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    char *slash;

    if (n <= 0 || strchr(name, '/') || strstr(name, ".ini"))
        return -1;
    exe[n] = '\0';
    slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    if ((size_t)snprintf(path, len, "%s/../profiles/%s.ini", exe, name) >= len)
        return -1;
    return access(path, R_OK) == 0 ? 0 : -1;
}

/* Load every --profile NAME in argv (the last wins where they overlap). */
static int apply_profile(int argc, char **argv, struct sim_cfg *cfg, FILE *msg)
{
    char err[256], path[4200];
    int i;

    for (i = 1; i < argc; i++) {
        const char *name = NULL;
        if (strcmp(argv[i], "--profile") == 0 && i + 1 < argc)
            name = argv[++i];
        else if (strncmp(argv[i], "--profile=", 10) == 0)
            name = argv[i] + 10;
        if (!name)
            continue;
        if (profile_load(cfg, name, err, sizeof(err)) == 0)
            continue;
        if (profile_beside_binary(name, path, sizeof(path)) == 0 &&
            profile_load(cfg, path, err, sizeof(err)) == 0) {
            snprintf(cfg->profile, sizeof(cfg->profile), "%s", name);
            continue;
        }
        fprintf(msg, "nictx: --profile %s: %s\n", name, err);
        return -1;
    }
    return 0;
}




/* A setting's option with its value `a` (NULL for a flag): CLI_RUN_GO, or the
 * exit status (0 after --driver-bug list, 2 after a message). */
static int run_setting(const struct sim_setting *s, const char *a, struct cli_run_opts *ro)
{
    size_t rows, i;
    const struct sim_setting *table = sim_settings(&rows);
    struct sim_cfg tmp = ro->cfg;
    char why[256];
    int rc;

    i = (size_t)(s - table);
    if (a && strcmp(a, "list") == 0 && sim_setting_print_list(s, stdout) == 0)
        return 0;
    /* A late option is checked here and applied after the others. */
    rc = sim_setting_parse_opt(s, (s->flags & SET_LATE) ? &tmp : &ro->cfg, a, why, sizeof(why));
    if (rc == SET_BAD_MSG) {
        fprintf(ro->msg, "nictx: %s\n", why);
        return 2;
    }
    if (rc != 0)
        return cli_run_bad_arg(ro->msg, s->opt, a, why);
    ro->given[i] = 1;
    if (s->flags & SET_LATE)
        ro->late[i] = a;
    return CLI_RUN_GO;
}

/* --explore N: 1..1000000 schedules. */
static int run_explore_opt(const char *a, struct cli_run_opts *ro)
{
    char buf[64];
    enum num_err e = num_uint(a, NUM_STRICT, &ro->explore);

    if (e != NUM_OK)
        return cli_run_bad_arg(ro->msg, "explore", a, num_why(e, UINT_MAX, buf, sizeof(buf)));
    if (ro->explore < 1 || ro->explore > 1000000)
        return cli_run_bad_arg(ro->msg, "explore", a, "expected 1..1000000 schedules");
    return CLI_RUN_GO;
}

/* One of the command line's own options with its value `a`: CLI_RUN_GO, or the
 * exit status (0 after a listing such as --help, 2 after a message naming
 * a bad argument). */
static int run_own(enum cli_opt id, const char *a, struct cli_run_opts *ro)
{
    char err[256];

    switch (id) {
    case CLI_PROFILE: break; /* loaded before the other options */
    case CLI_SET:
        if (profile_set(&ro->cfg, a, err, sizeof(err)) != 0) {
            fprintf(ro->msg, "nictx: %s\n", err);
            return 2;
        }
        break;
    case CLI_LIST_KEYS:
        if (ro->markdown)
            cli_options_markdown(stdout);
        else
            profile_list_keys(stdout);
        return 0;
    case CLI_EXPLORE: return run_explore_opt(a, ro);
    case CLI_JSON: ro->json = a; break;
    case CLI_QUIET: ro->quiet = 1; break;
    case CLI_CHECK: ro->check = 1; break;
    case CLI_LIST_OPTIONS: cli_options_list(stdout); return 0;
    case CLI_MARKDOWN: break; /* read before the options, for --list-keys */
    case CLI_HELP: cli_options_usage(stdout); return 0;
    case CLI_OPTS: break;
    }
    return CLI_RUN_GO;
}

/* getopt's complaint (c is ':' or '?'), said; the exit status. */
static int run_refused(int c, char **argv, FILE *msg)
{
    if (c == ':')
        fprintf(msg, "nictx: %s needs a value (see nictx --help)\n", argv[optind - 1]);
    /* optopt: a long option's value if it was given one it does not take; a
     * short option's letter; else 0 (unknown or ambiguous). */
    else if (optopt >= CLI_VAL_SETTING)
        fprintf(msg, "nictx: --%s takes no value (see nictx --help)\n",
                cli_options_name(optopt));
    else if (optopt > ' ' && optopt < 127)
        fprintf(msg, "nictx: unknown option -%c (see nictx --help)\n", optopt);
    else
        fprintf(msg, "nictx: unknown or ambiguous option %s (see nictx --help)\n",
                argv[optind - 1]);
    return 2;
}

/* A register cap not given on the command line (its default, or a
 * profile's) follows the hardware given: --hw-tags 64 alone runs with 64
 * tags, and --hw-desc-reads likewise; the queues, a workload's choice, are
 * only lowered to fit (--hw-queues 2 alone keeps one queue).  A cap given
 * above the hardware is refused (sim_cfg_validate). */
static void caps_fit_hw(struct cli_run_opts *ro, const struct sim_setting *table)
{
    struct sim_cfg *c = &ro->cfg;
    const struct {
        const char *row, *hw_row;
        unsigned *cap, hw;
        int follow; /* 1: the cap takes the hardware's value; 0: lowered to it */
    } caps[] = {{"tags", "hw_tags", &c->tags, c->hw.tags, 1},
                {"desc_fetch_inflight", "hw_desc_reads", &c->desc_inflight, c->hw.desc_reads, 1},
                {"queues", "hw_queues", &c->queues, c->hw.queues, 0}};

    for (size_t k = 0; k < sizeof(caps) / sizeof(caps[0]); k++) {
        if (ro->given[sim_setting_find(caps[k].row) - table])
            continue;
        if (*caps[k].cap > caps[k].hw ||
            (caps[k].follow && ro->given[sim_setting_find(caps[k].hw_row) - table]))
            *caps[k].cap = caps[k].hw;
    }
}

/* After the options: the late ones, --pkt-size-max following --pkt-size
 * unless it was given, and the register caps not given following the
 * hardware. */
static int run_finish(struct cli_run_opts *ro)
{
    size_t rows;
    const struct sim_setting *table = sim_settings(&rows);
    char why[256];

    for (size_t i = 0; i < rows; i++)
        if (ro->late[i] && sim_setting_parse_opt(&table[i], &ro->cfg, ro->late[i], why,
                                                 sizeof(why)) != 0)
            return cli_run_bad_arg(ro->msg, table[i].opt, ro->late[i], why);
    if (!ro->given[sim_setting_find("pkt_size_max") - table])
        ro->cfg.pkt_size_max = ro->cfg.pkt_size;
    caps_fit_hw(ro, table);
    return CLI_RUN_GO;
}

int cli_run_parse_valid(int argc, char **argv, FILE *msg, struct cli_run_opts *ro)
{
    char err[512];
    int rc = cli_run_parse(argc, argv, msg, ro);

    if (rc != CLI_RUN_GO)
        return rc;
    if (sim_cfg_validate(&ro->cfg, err, sizeof(err)) != 0) {
        fprintf(msg, "nictx: %s\n", err);
        return 2;
    }
    return CLI_RUN_GO;
}

/* The command line after "run": CLI_RUN_GO with *ro filled in, or the exit status. */
int cli_run_parse(int argc, char **argv, FILE *msg, struct cli_run_opts *ro)
{
    struct option opts[CLI_OPTIONS_MAX];
    int c, rc;

    memset(ro, 0, sizeof(*ro));
    ro->msg = msg;
    ro->argc = argc;
    ro->argv = argv;
    sim_cfg_default(&ro->cfg);
    cli_options_getopt(opts);
    for (int i = 1; i < argc; i++)
        ro->markdown |= strcmp(argv[i], "--markdown") == 0;
    /* A profile is the base the other options change, wherever it is on
     * the command line: load it first. */
    if (apply_profile(argc, argv, &ro->cfg, ro->msg) != 0)
        return 2;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        const struct sim_setting *s = cli_options_setting(c);
        if (c == ':' || c == '?')
            return run_refused(c, argv, ro->msg);
        rc = s ? run_setting(s, optarg, ro) : run_own((enum cli_opt)(c - CLI_VAL_OWN), optarg, ro);
        if (rc != CLI_RUN_GO)
            return rc;
    }
    if (optind < argc) {
        fprintf(ro->msg, "nictx: unexpected argument '%s' (see nictx --help)\n", argv[optind]);
        return 2;
    }
    return run_finish(ro);
}