/* SPDX-License-Identifier: Apache-2.0 */
/*
 * main.c - the nictx command line.
 *
 *   nictx run [options]     run one experiment, print the table (and JSON)
 *   nictx sweep ...         run many, one table, plots (sweep_cli.h)
 *   nictx draw [--seed N]   random legal `nictx run` argument lists (draw.h)
 *   nictx cover RUN.json... the cover points added up over runs (cover.h)
 *   nictx --help
 *
 * The options are the settings table's (sim/run/settings.h) and the command
 * line's own (sim/cli/options.h).  Bad arguments print a message naming the
 * option and exit with status 2: numbers that are not strict decimal
 * (sim/lib/num.h), and a --json FILE that could not be written, are refused
 * before the run.  A run exits with its verdict's status (run/verdict.h:
 * 0 for "ok", 1 for every other status), the one its table and JSON show;
 * one that could not start exits 1 with a JSON of status "failed"; when
 * the JSON cannot be written after the run, the run exits 1 and a file
 * left at the path from before is removed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "device/dev_models.h"
#include "run/fault.h"
#include "run/harness.h"
#include "run/settings.h"
#include "run/verdict.h"
#include "lib/json.h"
#include "lib/num.h"
#include "cli/options.h"
#include "cli/profile.h"
#include "cli/report.h"
#include "cli/run_args.h"
#include "cli/area.h"
#include "cli/cover.h"
#include "cli/draw.h"
#include "sweep/sweep_cli.h"


/*
 * Can report_json_file write `path` after the run?  It writes a temporary
 * file beside path and renames it over path, so: path is not a directory or
 * other non-regular file (a rename would replace a device or FIFO), and
 * that temporary file can be created (the directory exists and is
 * writable).  The probe is the same afile_open, then afile_abort, which
 * leaves nothing behind.  0, or -1 with the reason in err.
 */
static int json_writable(const char *path, char *err, size_t errlen)
{
    struct afile af;
    struct stat st;

    if (!*path) {
        snprintf(err, errlen, "empty; expected a file name");
        return -1;
    }
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s; the JSON replaces a regular file",
                 S_ISDIR(st.st_mode) ? "is a directory" : "exists and is not a regular file");
        return -1;
    }
    if (afile_open(&af, path) != 0) {
        snprintf(err, errlen, "cannot create a file in its directory: %s", strerror(errno));
        return -1;
    }
    afile_abort(&af);
    return 0;
}

/* The one-line repro of exploration schedule `sched`: the command line
 * without --explore, with --schedule S. */
static void explore_repro(FILE *f, const struct cli_run_opts *ro, uint64_t sched)
{
    fprintf(f, "repro: nictx run");
    for (int i = 1; i < ro->argc; i++) {
        const char *a = ro->argv[i];
        if (strcmp(a, "--explore") == 0 || strcmp(a, "--schedule") == 0) {
            i++; /* and its value */
            continue;
        }
        if (strncmp(a, "--explore=", 10) == 0 || strncmp(a, "--schedule=", 11) == 0)
            continue;
        fprintf(f, " %s", a);
    }
    fprintf(f, " --schedule %" PRIu64 "\n", sched);
}

/* --json could not be written after the run (errno says why): said, and a
 * file left at the path from before is removed, so that no result there
 * contradicts the exit status (1). */
static int json_not_written(const char *path)
{
    int e = errno, gone = unlink(path) == 0;

    fprintf(stderr, "nictx: --json %s: cannot write: %s%s\n", path, strerror(e),
            gone ? "; the file that was there is removed" : "");
    return 1;
}

/* A run that could not start (err): said, and its JSON written with
 * status "failed" when --json was given; exit status 1. */
static int run_not_started(const struct cli_run_opts *ro, const char *model, const char *err)
{
    struct sim_verdict v;

    sim_verdict_not_started(err, &v);
    fprintf(stderr, "nictx: %s\n", v.why);
    if (ro->json && report_json_not_started(ro->json, &ro->cfg, &v, model) != 0)
        json_not_written(ro->json);
    return v.exit;
}

/* One schedule of an exploration: its verdict's exit status, its result,
 * diagnosis and return kept for the report; -1 when it could not start. */
static int explore_one(const struct cli_run_opts *ro, const struct device_ops *ops, uint64_t sched,
                       struct sim_result *res, char *diag, size_t diaglen, int *rc)
{
    struct sim_cfg cfg = ro->cfg;
    struct sim_verdict v;
    char err[512];
    struct sim *s;

    cfg.schedule = sched;
    s = sim_create(&cfg, ops, err, sizeof(err));
    if (!s) {
        run_not_started(ro, ops->name, err);
        return -1;
    }
    *rc = sim_run(s);
    sim_result(s, res);
    snprintf(diag, diaglen, "%s", sim_diag(s));
    sim_destroy(s);
    sim_verdict_of(&cfg, *rc, res, diag, &v);
    return v.exit;
}

/* --explore N: schedules 1..N of the scenario, until one is not ok. */
static int run_explore(const struct cli_run_opts *ro, const struct device_ops *ops)
{
    struct sim_result *res = malloc(sizeof(*res));
    struct sim_cfg cfg = ro->cfg;
    struct sim_verdict v;
    char diag[1024];
    struct timespec t0, t1;
    int rc = 0, st = 0;
    unsigned n;

    if (!res) {
        fprintf(stderr, "nictx: out of memory\n");
        return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (n = 1; n <= ro->explore && st == 0; n++)
        st = explore_one(ro, ops, n, res, diag, sizeof(diag), &rc);
    n--;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    cfg.schedule = n;
    if (st >= 0)
        sim_verdict_of(&cfg, rc, res, diag, &v);
    if (st > 0) {
        if (!ro->quiet)
            report_text(stdout, &cfg, res, rc, diag);
        printf("explore: schedule %u of %u failed (%s): %s\n", n, ro->explore, v.name,
               res->nviolations ? res->violations[0].kind : v.why);
        explore_repro(stdout, ro, n);
    } else if (st == 0) {
        printf("explore: %u schedules clean, %.1f schedules/s\n", n, wall > 0 ? n / wall : 0.0);
    }
    if (st >= 0 && ro->json && report_json_file(ro->json, &cfg, res, rc, diag, ops->name) != 0)
        st = json_not_written(ro->json);
    free(res);
    return st == 0 ? 0 : 1;
}

static int run_with(const struct cli_run_opts *ro, const struct device_ops *ops);

/* The run's device model (the hardware combination's: dev_models.h), then
 * the run. */
static int run_one(const struct cli_run_opts *ro)
{
    const struct sim_cfg *cfg = &ro->cfg;
    struct dev_models models;
    const struct device_ops *ops;
    char err[512] = "";
    int status;

    dev_models_init(&models);
    ops = dev_models_ops(&models, cfg->device, cfg->dev_width, &cfg->hw, err, sizeof(err));
    if (!ops) {
        if (!err[0])
            snprintf(err, sizeof(err), "no %u-byte %s device model in this build",
                     cfg->dev_width, sim_device_name(cfg->device));
        return run_not_started(ro, sim_device_name(cfg->device), err);
    }
    status = ro->explore ? run_explore(ro, ops) : run_with(ro, ops);
    dev_models_close(&models);
    return status;
}

/* Run the experiment on `ops` and report it; its exit status is the
 * verdict's (sim_verdict_of: 0 for ok, else 1), or 1 when the JSON could not
 * be written. */
static int run_with(const struct cli_run_opts *ro, const struct device_ops *ops)
{
    const struct sim_cfg *cfg = &ro->cfg;
    struct sim_verdict v;
    struct sim_result res;
    struct sim *s;
    char err[512];
    int rc, status;

    s = sim_create(cfg, ops, err, sizeof(err));
    if (!s)
        return run_not_started(ro, ops->name, err);
    rc = sim_run(s);
    sim_result(s, &res);
    sim_verdict_of(cfg, rc, &res, sim_diag(s), &v);
    status = v.exit;
    if (cfg->area) {
        res.has_area = dev_area_get(cfg->dev_width, &cfg->hw, &res.area, err, sizeof(err)) == 0;
        if (!res.has_area) {
            fprintf(stderr, "nictx: --area: %s\n", err);
            status = 1;
        }
    }
    if (!ro->quiet)
        report_text(stdout, cfg, &res, rc, sim_diag(s));
    else if (v.status != SIM_STATUS_OK)
        fprintf(stderr, "nictx: run %s: %s\n", v.name, v.why);
    if (rc != 0 && !cfg->obs.no_snapshot) { /* the window before the stop (observability.md) */
        char msg[2 * OBS_PATH_MAX + 256];
        if (sim_snapshot(s, ro->json, msg, sizeof(msg)) == 0 || msg[0])
            fprintf(stderr, "nictx: %s\n", msg);
    }
    if (ro->json && report_json_file(ro->json, cfg, &res, rc, sim_diag(s), ops->name) != 0)
        status = json_not_written(ro->json);
    sim_destroy(s);
    return status;
}

static int cmd_run(int argc, char **argv)
{
    struct cli_run_opts ro;
    char err[512];
    int rc = cli_run_parse_valid(argc, argv, stderr, &ro);

    if (rc != CLI_RUN_GO)
        return rc;
    /* Before the run, not after it: a bad path is a bad argument. */
    if (ro.json && json_writable(ro.json, err, sizeof(err)) != 0)
        return cli_run_bad_arg(stderr, "json", ro.json, err);
    if (ro.check)
        return 0;
    return run_one(&ro);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        cli_options_usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        cli_options_usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "run") == 0)
        return cmd_run(argc - 1, argv + 1);
    if (strcmp(argv[1], "area") == 0)
        return cli_area_main(argc - 1, argv + 1);
    if (strcmp(argv[1], "draw") == 0)
        return cli_draw_main(argc - 1, argv + 1);
    if (strcmp(argv[1], "cover") == 0)
        return cli_cover_main(argc - 1, argv + 1);
    if (strcmp(argv[1], "sweep") == 0)
        return sweep_main(argc - 1, argv + 1);
    fprintf(stderr, "nictx: unknown command '%s' (see nictx --help)\n", argv[1]);
    return 2;
}
