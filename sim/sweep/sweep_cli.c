/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_cli.c - `nictx sweep`, `nictx sweep merge`, `nictx sweep point`
 * (see sweep_cli.h); `nictx sweep compare` is sweep_compare_cli.c.
 */
#define _GNU_SOURCE /* getopt_long, realpath */

#include "sweep/sweep_cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/json.h"
#include "sweep/sweep.h"
#include "sweep/sweep_check.h"
#include "sweep/sweep_exec.h"
#include "sweep/sweep_file.h"
#include "sweep/sweep_hosts.h"
#include "sweep/sweep_joblog.h"
#include "sweep/sweep_merge.h"
#include "sweep/sweep_point.h"
#include "sweep/sweep_progress.h"
#include "sweep/sweep_run.h"
#include "sweep/sweep_slurm.h"
#include "sweep/sweep_target.h"
#include "sweep/sweep_transfer.h"

#define ERR_BYTES 1024
#define MAX_JOBS 4096
#define DEFAULT_RETRIES 3
#define DEFAULT_TIMEOUT_S 10
#define MAX_RETRIES 100
#define MAX_TIMEOUT_S 3600
#define MAX_SHOWN_MISSING 10 /* points named on stderr; report.md has every one */

static void usage(FILE *f)
{
    fprintf(f,
"usage: nictx sweep [FILE.ini] [--set NAME=VALUES]... [options] [-- RUN-OPTIONS...]\n"
"       nictx sweep merge DIR [--no-plots]\n"
"       nictx sweep point DIR N\n"
"       nictx sweep compare OLD NEW [--tol [FIGURE=]PCT]... (see its --help)\n"
"\n"
"Runs `nictx run` over the cross product of parameter values and collects every\n"
"figure of every run into one table, plots and a report (docs/user-guide.md).\n"
"\n"
"parameters:\n"
"  --set NAME=VALUES     sweep NAME over VALUES (repeat for more parameters; a NAME\n"
"                        set again replaces its values).  NAME is any option of\n"
"                        `nictx run` without its dashes (burst -> --burst V) or a\n"
"                        profile key with its section (cpu.wmb_ns -> --set\n"
"                        cpu.wmb_ns=V; see nictx run --list-keys).  One value fixes\n"
"                        NAME for every point, as a column of the table.\n"
"  VALUES                values separated by ',' (a comma inside a value: \\,), or\n"
"                        ranges: A..B (step 1), A..B+S (step S), A..B*F (times F):\n"
"                        burst=1..32*2 is 1,2,4,8,16,32; pkt-size=64..1518+64;\n"
"                        ranges and values mix: burst=1,3,8..64*2\n"
"  FILE.ini              a sweep file: [sweep] name, seed, x, args,\n"
"                        lockstep_packets; [params] NAME = VALUES\n"
"                        (docs/user-guide.md); --set replaces its lists\n"
"  -- RUN-OPTIONS        passed as they are to every run (--profile mlx4-2014\n"
"                        --packets 200000); flags (--rcb-chunks) go here\n"
"  --seed N              the sweep seed (1).  Each point's --seed is a hash of it\n"
"                        and the point's NAME=VALUE pairs (not its position), unless\n"
"                        seed is itself a parameter\n"
"output:\n"
"  --name NAME           the sweep's name (the file's name, else 'sweep')\n"
"  --out DIR             results directory (results/NAME): sweep.ini (the plan),\n"
"                        results.csv and results.json (a row per point: its\n"
"                        parameters and every figure of its JSON but the wall-clock\n"
"                        ones under \"sim\"), report.md, plots/ (PNG, SVG, data,\n"
"                        gnuplot scripts), points/ID.json and points/ID.log\n"
"  --x NAME              x axis of the line plots and the headline table (burst)\n"
"  --no-plots            do not run gnuplot\n"
"running:\n"
"  --device M            the device model of every point: c (the default: the C\n"
"                        model, cycle-exact to the RTL and faster), rtl or lockstep;\n"
"                        run options or a parameter that name --device win\n"
"  --area                every point also reports its engine's area (nictx run --area:\n"
"                        Yosys, cached by hardware combination): area.* columns in\n"
"                        results.csv and the area plot, throughput against area with\n"
"                        the Pareto front (docs/codesign.md)\n"
"  --target COL>=V       print the cheapest point whose COL meets the target (also\n"
"                        <=, >, <), with its margin: --target mpps>=148.8\n"
"  --cost COL            what cheapest means (area.xc7_luts)\n"
"  --lockstep-packets K  before a point runs on the C model, its first K packets\n"
"                        run with the RTL beside it (--device lockstep), compared on\n"
"                        every clock; a divergence fails the point, its log's first\n"
"                        line the command that shows it (2000; 0: no check)\n"
"  -j, --jobs N          points at once: through GNU parallel, default one per core;\n"
"                        -j 1 runs them one after the other in this process.  With\n"
"                        --hosts, jobs per host (default: one per CPU of each)\n"
"  --hosts FILE          run on the machines of an ssh login file (parallel\n"
"                        --sshloginfile): a host a line, [N/]LOGIN, LOGIN ':' (here),\n"
"                        [user@]host, or a whole ssh command ending in the host\n"
"                        ('4/ssh -p 2222 -i ~/.ssh/key user@host').  Every host is\n"
"                        checked first (login, perl, libraries; without --transfer,\n"
"                        that it sees the binary and the results directory at the\n"
"                        same paths); one that fails is left out, saying why\n"
"  --retries N           with --hosts: try a point whose job fails (no result: ssh\n"
"                        lost, host down) up to N times in all, on another host while\n"
"                        there is one (parallel --retries; default 3)\n"
"  --connect-timeout S   with --hosts: every ssh gives up on a host that does not\n"
"                        answer in S seconds, and on one silent for 3 S during a run\n"
"                        (ConnectTimeout, ServerAliveInterval; default 10); BatchMode\n"
"  --transfer            with --hosts, for hosts without this checkout: send the\n"
"                        binary, the plan and the profiles the runs read to each job,\n"
"                        run it in a directory of its own there, and bring each\n"
"                        point's JSON and log back (rsync on both ends)\n"
"  --emit-slurm FILE     write an sbatch array script (a task per pending point)\n"
"                        instead of running, its paths relative to this directory;\n"
"                        submit it from here: sbatch --wait FILE; nictx sweep merge DIR\n"
"  --slurm-merge FILE    with --emit-slurm: also write a merge job for when the array\n"
"                        has ended (sbatch --dependency=afterany:ARRAY-JOB FILE)\n"
"  --slurm-opt KEY[=V]   with --emit-slurm: an #SBATCH --KEY[=V] line in the scripts,\n"
"                        e.g. partition=short, time=30:00, account=lab (repeatable)\n"
"  --fresh               rerun every point.  Otherwise a point whose JSON exists and\n"
"                        is newer than the nictx binary is kept: an interrupted or\n"
"                        extended sweep resumes where it stopped\n"
"  --check               check every point with `nictx run --check`, then exit\n"
"  merge DIR             collect the results in DIR (from any of the above) into the\n"
"                        table, plots and report again\n"
"  point DIR N           run point N of the sweep in DIR (what each job runs): prints\n"
"                        N ok, N failed or N noresult; exits 1 only without a result\n"
"  compare OLD NEW       compare two sweeps' figures by point id and column name,\n"
"                        within --tol PCT or per FIGURE=PCT; exits 1 when a figure\n"
"                        moved (nictx sweep compare --help)\n"
"\n"
"Before any point runs, nictx itself checks every parameter name and every point's\n"
"command: bad input exits 2 with a message naming the parameter.  Progress (points\n"
"done, ETA, the current point) is shown on stderr when it is a terminal.  Exit\n"
"status: 0 when every point ran and its status is ok; 1 when some point failed or\n"
"has no result (the report lists them, and where each missing one is); 2 bad\n"
"input, before anything runs or is written; 128+N stopped by signal N.\n");
}

/* Everything the command line says. */
struct cli {
    struct sweep_spec spec;
    const char *file;        /* FILE.ini, or NULL */
    const char *out;         /* --out as given, or NULL */
    const char *name;        /* --name, or NULL */
    const char *x;           /* --x, or NULL */
    const char *hosts;
    const char *slurm;
    const char *slurm_merge;
    const char *seed;        /* --seed as given */
    const char *device;      /* --device as given, or NULL */
    const char *lockstep;    /* --lockstep-packets as given, or NULL */
    struct strv sets;        /* --set assignments, in order */
    struct strv slurm_opts;  /* --slurm-opt, checked */
    struct strv send;        /* --transfer: the profiles, "CWD/./REL" */
    struct sweep_hosts hs;   /* --hosts, read */
    unsigned jobs, retries, timeout_s;
    int retries_set, timeout_set, transfer;
    int fresh, check, plots;
    int area;                /* --area: every point reports its engine's area */
    const char *cost;        /* --cost COLUMN, or NULL */
    int has_target;          /* --target given: tgt */
    struct sweep_target tgt;
    char shown[SWEEP_PATH_BYTES]; /* the results directory as named */
    char dir[SWEEP_PATH_BYTES];   /* ... absolute */
    char bin[SWEEP_PATH_BYTES];   /* this nictx */
    char cwd[SWEEP_PATH_BYTES];
    char login[SWEEP_PATH_BYTES + 32]; /* the checked hosts' login file */
    struct made {                      /* the directories the sweep created */
        char path[8][SWEEP_PATH_BYTES];
        int n;
    } made;
};

/* "nictx sweep: MESSAGE (see nictx sweep --help)" on stderr; returns 2.
 * A message that already points somewhere (a run's "(see nictx --help)")
 * keeps its own pointer. */
static int fail2(const char *fmt, const char *a, const char *b)
{
    char msg[2 * SWEEP_PATH_BYTES + ERR_BYTES];

    snprintf(msg, sizeof(msg), fmt, a, b);
    fprintf(stderr, "nictx sweep: %s%s\n", msg,
            strstr(msg, "(see ") ? "" : " (see nictx sweep --help)");
    return 2;
}

/* A decimal 1..max: 0, or -1. */
static int parse_count(const char *a, unsigned long max, unsigned *v)
{
    char *end;
    unsigned long x;

    if (!*a || strspn(a, "0123456789") != strlen(a) || (a[0] == '0' && a[1]))
        return -1;
    errno = 0;
    x = strtoul(a, &end, 10);
    if (errno || x < 1 || x > max)
        return -1;
    *v = (unsigned)x;
    return 0;
}

enum { O_SET = 256, O_NAME, O_OUT, O_SEED, O_X, O_HOSTS, O_SLURM, O_FRESH, O_CHECK, O_NOPLOTS,
       O_HELP, O_RETRIES, O_TIMEOUT, O_TRANSFER, O_SLURM_OPT, O_SLURM_MERGE, O_DEVICE,
       O_LOCKSTEP, O_AREA, O_TARGET, O_COST };

static const struct option opts[] = {
    {"set", required_argument, NULL, O_SET},     {"name", required_argument, NULL, O_NAME},
    {"out", required_argument, NULL, O_OUT},     {"seed", required_argument, NULL, O_SEED},
    {"x", required_argument, NULL, O_X},         {"jobs", required_argument, NULL, 'j'},
    {"hosts", required_argument, NULL, O_HOSTS}, {"emit-slurm", required_argument, NULL, O_SLURM},
    {"fresh", no_argument, NULL, O_FRESH},       {"check", no_argument, NULL, O_CHECK},
    {"no-plots", no_argument, NULL, O_NOPLOTS},  {"help", no_argument, NULL, O_HELP},
    {"retries", required_argument, NULL, O_RETRIES},
    {"connect-timeout", required_argument, NULL, O_TIMEOUT},
    {"transfer", no_argument, NULL, O_TRANSFER},
    {"slurm-opt", required_argument, NULL, O_SLURM_OPT},
    {"slurm-merge", required_argument, NULL, O_SLURM_MERGE},
    {"device", required_argument, NULL, O_DEVICE},
    {"lockstep-packets", required_argument, NULL, O_LOCKSTEP},
    {"area", no_argument, NULL, O_AREA},
    {"target", required_argument, NULL, O_TARGET},
    {"cost", required_argument, NULL, O_COST},
    {NULL, 0, NULL, 0},
};

/* One option: -1 to go on, else the exit status. */
static int cli_opt(struct cli *c, int o, const char *a)
{
    char err[ERR_BYTES];

    switch (o) {
    case O_SET: return strv_push(&c->sets, a) == 0 ? -1 : 2;
    case O_NAME: c->name = a; return -1;
    case O_OUT: c->out = a; return -1;
    case O_SEED: c->seed = a; return -1;
    case O_DEVICE:
        if (strcmp(a, "c") != 0 && strcmp(a, "rtl") != 0 && strcmp(a, "lockstep") != 0)
            return fail2("--device %s: expected c, rtl or lockstep%s", a, "");
        c->device = a;
        return -1;
    case O_LOCKSTEP: c->lockstep = a; return -1;
    case O_AREA: c->area = 1; return -1;
    case O_COST: c->cost = a; return -1;
    case O_TARGET:
        if (sweep_target_parse(a, &c->tgt, err, sizeof(err)) != 0)
            return fail2("%s%s", err, "");
        c->has_target = 1;
        return -1;
    case O_X: c->x = a; return -1;
    case 'j':
        return parse_count(a, MAX_JOBS, &c->jobs) == 0 ? -1
               : fail2("-j %s: expected a number of jobs, 1..4096%s", a, "");
    case O_RETRIES:
        c->retries_set = 1;
        return parse_count(a, MAX_RETRIES, &c->retries) == 0 ? -1
               : fail2("--retries %s: expected the tries per point, 1..100%s", a, "");
    case O_TIMEOUT:
        c->timeout_set = 1;
        return parse_count(a, MAX_TIMEOUT_S, &c->timeout_s) == 0 ? -1
               : fail2("--connect-timeout %s: expected seconds, 1..3600%s", a, "");
    case O_TRANSFER: c->transfer = 1; return -1;
    case O_SLURM_MERGE: c->slurm_merge = a; return -1;
    case O_SLURM_OPT:
        if (sweep_slurm_opt_check(a, err, sizeof(err)) != 0)
            return fail2("%s%s", err, "");
        return strv_push(&c->slurm_opts, a) == 0 ? -1 : 2;
    case O_HOSTS: c->hosts = a; return -1;
    case O_SLURM: c->slurm = a; return -1;
    case O_FRESH: c->fresh = 1; return -1;
    case O_CHECK: c->check = 1; return -1;
    case O_NOPLOTS: c->plots = 0; return -1;
    case O_HELP: usage(stdout); return 0;
    case ':': return fail2("%s needs a value%s", "an option", "");
    default: return 2;
    }
}

/* Options before "--" (at argv[nopt]); the sweep file may be among them. */
static int cli_parse(struct cli *c, int nopt, char **argv)
{
    int o, rc;

    optind = 1;
    opterr = 0;
    while ((o = getopt_long(nopt, argv, ":j:", opts, NULL)) != -1) {
        if (o == '?')
            return fail2("unknown option %s%s", argv[optind - 1], "");
        if (o == ':')
            return fail2("%s needs a value%s", argv[optind - 1], "");
        if ((rc = cli_opt(c, o, optarg)) >= 0)
            return rc;
    }
    if (optind < nopt)
        c->file = argv[optind++];
    if (optind < nopt)
        return fail2("unexpected argument '%s'%s", argv[optind], "");
    return -1;
}

/* ---- the plan ------------------------------------------------------------- */

/* The sweep file's name without directory and ".ini". */
static void file_stem(const char *path, char *buf, size_t len)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t n = strlen(base);

    if (n > 4 && strcmp(base + n - 4, ".ini") == 0)
        n -= 4;
    snprintf(buf, len, "%.*s", (int)n, base);
}

static int parse_seed(const char *a, uint64_t *seed)
{
    char *end;

    if (!*a || strspn(a, "0123456789") != strlen(a) || (a[0] == '0' && a[1]))
        return -1;
    errno = 0;
    *seed = strtoull(a, &end, 10);
    return errno ? -1 : 0;
}

/* File, then --set lists, then the other options, then "-- ARGS". */
static int build_spec(struct cli *c, int nrun, char **run)
{
    struct sweep_spec *s = &c->spec;
    char err[ERR_BYTES];

    if (c->file && sweep_file_load(s, c->file, err, sizeof(err)) != 0)
        return fail2("%s%s", err, "");
    if (c->file && !*s->name)
        file_stem(c->file, s->name, sizeof(s->name));
    for (size_t k = 0; k < c->sets.n; k++)
        if (sweep_spec_set(s, c->sets.v[k], err, sizeof(err)) != 0)
            return fail2("%s%s", err, "");
    if (c->name)
        snprintf(s->name, sizeof(s->name), "%s", c->name);
    if (!*s->name)
        snprintf(s->name, sizeof(s->name), "sweep");
    if (!sweep_name_ok(s->name))
        return fail2("name '%s': letters, digits, '.', '_' and '-' only%s", s->name, "");
    if (c->x)
        snprintf(s->x, sizeof(s->x), "%s", c->x);
    if (c->seed && parse_seed(c->seed, &s->seed) != 0)
        return fail2("--seed %s: expected a decimal integer%s", c->seed, "");
    for (int k = 0; k < nrun; k++)
        if (strpbrk(run[k], " \t\n") || strv_push(&s->args, run[k]) != 0)
            return fail2("run option '%s': a blank inside an argument cannot be kept in "
                         "the sweep's plan%s", run[k], "");
    if (c->lockstep) {
        uint64_t k;
        if (parse_seed(c->lockstep, &k) != 0 || k > SWEEP_LOCKSTEP_MAX)
            return fail2("--lockstep-packets %s: expected packets, 0..100000000 (0: no "
                         "check)%s", c->lockstep, "");
        s->lockstep_packets = (unsigned)k;
    }
    if (c->device && (sweep_param_find(s, "device") >= 0 ||
                      sweep_argv_option(s->args.v, s->args.n, "device")))
        return fail2("--device %s: the sweep's run options or parameters name the device "
                     "already%s", c->device, "");
    if (sweep_spec_default_device(s, c->device ? c->device : SWEEP_DEFAULT_DEVICE) != 0)
        return fail2("out of memory%s%s", "", "");
    if (c->area && !sweep_argv_option(s->args.v, s->args.n, "area") &&
        strv_push(&s->args, "--area") != 0)
        return fail2("out of memory%s%s", "", "");
    if (sweep_spec_check(s, err, sizeof(err)) != 0)
        return fail2("%s%s", err, "");
    return -1;
}

/* ---- the options together ----------------------------------------------- */

/* What only goes with --hosts or --emit-slurm; the hosts file read: -1 to
 * go on, else 2 with a message. */
static int check_combination(struct cli *c)
{
    char err[ERR_BYTES];

    if (c->jobs == 1 && c->hosts)
        return fail2("--hosts runs the points with GNU parallel; -j 1 runs them here%s%s", "",
                     "");
    if (!c->hosts && (c->transfer || c->retries_set || c->timeout_set))
        return fail2("%s works with --hosts only%s",
                     c->transfer ? "--transfer" : c->retries_set ? "--retries"
                                                                 : "--connect-timeout", "");
    if (!c->slurm && (c->slurm_merge || c->slurm_opts.n))
        return fail2("%s works with --emit-slurm only%s",
                     c->slurm_merge ? "--slurm-merge" : "--slurm-opt", "");
    if (c->slurm && c->hosts)
        return fail2("--emit-slurm and --hosts: choose one way to run the points%s%s", "", "");
    if (c->hosts && sweep_hosts_load(&c->hs, c->hosts, err, sizeof(err)) != 0)
        return fail2("%s%s", err, "");
    for (size_t k = 0; c->transfer && k < c->hs.n; k++)
        if (strcmp(c->hs.h[k].login, ":") == 0)
            return fail2("--hosts %s: ':' (this machine) cannot take --transfer jobs; name "
                         "it by ssh (localhost), or leave --transfer out%s", c->hosts, "");
    return -1;
}

/* ---- the results directory ------------------------------------------------ */

/* mkdir -p path, noting what it created: 0, or -1 with errno. */
static int make_dirs(const char *path, struct made *m)
{
    char buf[SWEEP_PATH_BYTES];
    size_t n = strlen(path);

    if (n == 0 || n >= sizeof(buf)) {
        errno = n ? ENAMETOOLONG : ENOENT;
        return -1;
    }
    memcpy(buf, path, n + 1);
    for (char *p = buf + 1;; p++) {
        int last = *p == '\0';
        if (*p != '/' && !last)
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) == 0) {
            if (m->n < (int)(sizeof(m->path) / sizeof(m->path[0])))
                snprintf(m->path[m->n++], sizeof(m->path[0]), "%s", buf);
        } else if (errno != EEXIST) {
            return -1;
        }
        if (last)
            return 0;
        *p = '/';
    }
}

/* Remove what make_dirs created (if still empty), last first. */
static void unmake_dirs(struct made *m)
{
    int e = errno;

    while (m->n > 0)
        rmdir(m->path[--m->n]);
    errno = e;
}

/* The results directory as named, and absolute: where it is, or where it
 * will be (it is created only once the sweep is accepted). */
static void locate_dir(struct cli *c)
{
    if (c->out)
        snprintf(c->shown, sizeof(c->shown), "%s", c->out);
    else
        snprintf(c->shown, sizeof(c->shown), "results/%s", c->spec.name);
    if (realpath(c->shown, c->dir))
        return;
    if (c->shown[0] == '/' || strlen(c->cwd) + strlen(c->shown) + 2 > sizeof(c->dir))
        memcpy(c->dir, c->shown, sizeof(c->dir));
    else
        strcat(strcat(strcpy(c->dir, c->cwd), "/"), c->shown);
}

/* Create DIR and DIR/points, check that files can be written there, and
 * learn DIR's absolute path: -1 to go on, or 2 with a message (and
 * nothing left that was created). */
static int prepare_dir(struct cli *c)
{
    char points[SWEEP_PATH_BYTES + 16], probe[SWEEP_PATH_BYTES + 16];
    struct afile af;

    snprintf(points, sizeof(points), "%s/points", c->shown);
    snprintf(probe, sizeof(probe), "%s/sweep.ini", c->shown);
    if (make_dirs(points, &c->made) != 0 || afile_open(&af, probe) != 0) {
        unmake_dirs(&c->made);
        return fail2("--out %s: cannot write there: %s", c->shown, strerror(errno));
    }
    afile_abort(&af);
    if (!realpath(c->shown, c->dir)) {
        unmake_dirs(&c->made);
        return fail2("--out %s: %s", c->shown, strerror(errno));
    }
    return -1;
}

/* ---- the commands --------------------------------------------------------- */

/* Which points still need a run (with --fresh, all of them). */
static unsigned char *pending(const struct cli *c)
{
    size_t n = sweep_npoints(&c->spec);
    unsigned char *todo = calloc(n ? n : 1, 1);

    for (size_t i = 0; todo && i < n; i++)
        todo[i] = (c->fresh && !c->check) || !sweep_point_done(&c->spec, c->dir, i, c->bin);
    return todo;
}

/* --fresh, once the sweep is accepted: forget the results it reruns. */
static void forget_results(const struct cli *c)
{
    char id[SWEEP_ID_BYTES], json[SWEEP_PATH_BYTES], log[SWEEP_PATH_BYTES];

    for (size_t i = 0; c->fresh && i < sweep_npoints(&c->spec); i++) {
        sweep_point_id(&c->spec, i, id);
        if (sweep_point_paths(c->dir, id, json, log, sizeof(json)) == 0)
            unlink(json);
    }
}

static size_t count(const unsigned char *todo, size_t n)
{
    size_t k = 0;

    for (size_t i = 0; i < n; i++)
        k += todo[i] != 0;
    return k;
}

/* Check every name and point with nictx itself: -1 to go on, else the
 * exit status (--check ends here). */
static int check_points(struct cli *c, const unsigned char *todo)
{
    char err[ERR_BYTES];
    size_t n = sweep_npoints(&c->spec);

    if (sweep_check_names(&c->spec, c->bin, err, sizeof(err)) != 0 ||
        sweep_check_points(&c->spec, c->bin, todo, err, sizeof(err)) != 0)
        return fail2("%s%s", err, "");
    if (c->transfer && sweep_transfer_inputs(&c->spec, c->cwd, &c->send, err, sizeof(err)) != 0)
        return fail2("%s%s", err, "");
    if (c->check) {
        printf("nictx sweep: %zu points, all accepted by nictx run; %zu to run, %zu done\n", n,
               count(todo, n), n - count(todo, n));
        return 0;
    }
    return -1;
}

/* DIR/sweep.ini: -1 to go on, or 2. */
static int write_plan(struct cli *c)
{
    char err[ERR_BYTES], plan[SWEEP_PATH_BYTES + 16];

    snprintf(plan, sizeof(plan), "%s/sweep.ini", c->dir);
    if (sweep_file_write(&c->spec, plan, err, sizeof(err)) != 0)
        return fail2("%s%s", err, "");
    return -1;
}

static void run_opts(const struct cli *c, struct sweep_run_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->dir = c->dir;
    o->bin = c->bin;
    o->cwd = c->cwd;
    o->jobs = c->jobs;
    o->hosts = c->hosts ? c->login : NULL;
    o->retries = c->retries;
    o->transfer = c->transfer;
    o->send = &c->send;
}

static int emit_slurm(struct cli *c, struct sweep_slurm *sl, const unsigned char *todo)
{
    struct sweep_run_opts o;
    size_t n = sweep_npoints(&c->spec);
    char err[ERR_BYTES];

    run_opts(c, &o);
    if (count(todo, n) == 0) {
        sweep_slurm_abort(sl);
        printf("nictx sweep: all %zu points are done; nothing to submit.  nictx sweep merge "
               "%s collects them.\n", n, c->shown);
        return 0;
    }
    if (sweep_slurm_finish(sl, &c->spec, &o, todo, err, sizeof(err)) != 0)
        return fail2("%s%s", err, "");
    snprintf(err, sizeof(err), "%s/%s", c->dir, SWEEP_JOBLOG);
    unlink(err); /* an earlier ssh run's: it would explain these points wrongly */
    /* What the script cannot name relative to the checkout. */
    if (!sweep_slurm_rel(c->bin, c->cwd, err, sizeof(err)))
        fprintf(stderr, "nictx sweep: note: %s is outside this directory: the script names it "
                        "so, and every node must see it at that path\n", c->bin);
    if (!sweep_slurm_rel(c->dir, c->cwd, err, sizeof(err)))
        fprintf(stderr, "nictx sweep: note: %s is outside this directory: the script names it "
                        "so, and every node must see it at that path\n", c->dir);
    if (c->slurm_merge)
        printf("nictx sweep: wrote %s (%zu array tasks) and %s (the merge, once they have "
               "ended).  Submit both from this directory:\n", c->slurm, count(todo, n),
               c->slurm_merge);
    else
        printf("nictx sweep: wrote %s: %zu array tasks.  Submit it from this directory, "
               "wait for the tasks, then collect the results:\n", c->slurm, count(todo, n));
    sweep_slurm_print_submit(stdout, "  ", sl, &o);
    return 0;
}

/* Why each point without a result has none, on stderr (the first few;
 * report.md has all), then the counts; 0 when every point has a result
 * and it is ok, else 1. */
static int merge_status(const struct sweep_spec *s, const char *dir,
                        const struct sweep_merge_stats *ms)
{
    struct sweep_joblog jl;
    char label[1024], why[1024];
    size_t shown = 0;

    if (ms->missing) {
        fprintf(stderr, "nictx sweep: %zu of %zu points have no result (see report.md):\n",
                ms->missing, ms->points);
        if (sweep_joblog_load(&jl, dir) != 0)
            jl.n = 0;
        for (size_t i = 0; ms->result && i < ms->points && shown < MAX_SHOWN_MISSING; i++) {
            if (ms->result[i])
                continue;
            sweep_point_label(s, i, label, sizeof(label));
            sweep_missing_why(s, dir, i, &jl, why, sizeof(why));
            fprintf(stderr, "  point %zu (%s): %s\n", i + 1, label, why);
            shown++;
        }
        if (ms->missing > shown)
            fprintf(stderr, "  and %zu more\n", ms->missing - shown);
        sweep_joblog_free(&jl);
    }
    if (ms->not_ok)
        fprintf(stderr, "nictx sweep: %zu points' runs did not end ok (see report.md)\n",
                ms->not_ok);
    return ms->missing || ms->not_ok ? 1 : 0;
}

/* Collect, then print the summary (counted from the results themselves,
 * so that run, failed, without a result and already done add up), the
 * headline table and why points have no result. */
static int finish(struct cli *c, const unsigned char *todo, double secs)
{
    size_t n = sweep_npoints(&c->spec), ntodo = count(todo, n), ran = 0, failed = 0;
    struct sweep_merge_stats ms = {0, 0, 0, calloc(n ? n : 1, 1)};
    char err[ERR_BYTES], took[32], *head = NULL;
    size_t headlen = 0;
    FILE *hf = open_memstream(&head, &headlen);
    int rc = -1;

    if (ms.result && hf)
        rc = sweep_merge(&c->spec, c->dir, c->shown, c->plots, hf, &ms, err, sizeof(err));
    else
        snprintf(err, sizeof(err), "out of memory");
    if (hf)
        fclose(hf);
    if (rc == 0) {
        for (size_t i = 0; i < n; i++) {
            ran += todo[i] && ms.result[i];
            failed += todo[i] && ms.result[i] == 2;
        }
        sweep_fmt_duration(secs, took, sizeof(took));
        printf("nictx sweep: %s, %zu point%s: %zu run (%zu failed), ", c->spec.name, n,
               n == 1 ? "" : "s", ran, failed);
        if (ntodo > ran)
            printf("%zu without a result, ", ntodo - ran);
        printf("%zu already done, in %s\n\n%s", n - ntodo, took, head ? head : "");
        printf("\nreport: %s/report.md (results.csv, results.json, plots/)\n", c->shown);
        if (c->has_target &&
            sweep_target_report(stdout, c->dir, &c->spec, &c->tgt,
                                c->cost ? c->cost : SWEEP_COST_DEFAULT, err, sizeof(err)) != 0)
            fprintf(stderr, "nictx sweep: %s\n", err);
        fflush(stdout);
        rc = merge_status(&c->spec, c->dir, &ms);
    } else {
        fprintf(stderr, "nictx sweep: %s\n", err);
        rc = 1;
    }
    free(head);
    free(ms.result);
    return rc;
}

static void cli_init(struct cli *c)
{
    memset(c, 0, sizeof(*c));
    sweep_spec_init(&c->spec);
    strv_init(&c->sets);
    strv_init(&c->slurm_opts);
    strv_init(&c->send);
    sweep_hosts_init(&c->hs);
    c->plots = 1;
    c->retries = DEFAULT_RETRIES;
    c->timeout_s = DEFAULT_TIMEOUT_S;
}

static void cli_free(struct cli *c)
{
    sweep_spec_free(&c->spec);
    strv_free(&c->sets);
    strv_free(&c->slurm_opts);
    strv_free(&c->send);
    sweep_hosts_free(&c->hs);
}

/* Check the hosts and write the login file parallel gets: the number of
 * hosts that can run the points, or -1 (a message said why). */
static long check_hosts(struct cli *c)
{
    struct sweep_hosts_want w = {c->timeout_s, c->transfer, c->bin, c->dir, c->cwd};
    char err[ERR_BYTES];
    long usable = sweep_hosts_check(&c->hs, &w, err, sizeof(err));

    if (usable < 0) {
        fprintf(stderr, "nictx sweep: %s\n", err);
        return -1;
    }
    for (size_t k = 0; k < c->hs.n; k++)
        if (!c->hs.h[k].usable)
            fprintf(stderr, "nictx sweep: host '%s' (%s line %d) left out: %s\n",
                    c->hs.h[k].text, c->hosts, c->hs.h[k].lineno, c->hs.h[k].why);
    if (usable == 0) {
        fprintf(stderr, "nictx sweep: no host of %s can run the points: none runs\n",
                c->hosts);
        /* For the report: an ssh sweep of no job. */
        if (sweep_joblog_write_empty(c->dir) != 0)
            fprintf(stderr, "nictx sweep: %s/%s: %s\n", c->dir, SWEEP_JOBLOG, strerror(errno));
        return 0;
    }
    if ((size_t)usable < c->hs.n)
        fprintf(stderr, "nictx sweep: running on the other %ld host%s of %s\n", usable,
                usable == 1 ? "" : "s", c->hosts);
    snprintf(c->login, sizeof(c->login), "%s/sshlogins.tmp.%ld", c->dir, (long)getpid());
    if (sweep_hosts_write(&c->hs, c->timeout_s, c->login, err, sizeof(err)) != 0) {
        fprintf(stderr, "nictx sweep: %s\n", err);
        return -1;
    }
    return usable;
}

/* Run the pending points, then collect. */
static int run_and_finish(struct cli *c, const unsigned char *todo)
{
    struct sweep_run_opts o;
    struct sweep_run_stats rs;
    char err[ERR_BYTES];
    double t0 = sweep_now();
    long usable = 1;
    int rc = 0;

    if (c->hosts && count(todo, sweep_npoints(&c->spec)) > 0 && (usable = check_hosts(c)) < 0)
        return 1;
    run_opts(c, &o);
    memset(&rs, 0, sizeof(rs));
    if (usable > 0)
        rc = sweep_run_points(&c->spec, &o, todo, &rs, err, sizeof(err));
    if (*c->login)
        unlink(c->login);
    if (rc != 0) {
        fprintf(stderr, "nictx sweep: %s\n", err);
        return 1;
    }
    if (rs.stopped) {
        fprintf(stderr, "nictx sweep: stopped by signal %d after %zu of %zu points; the same "
                        "command resumes\n", rs.stopped, rs.ran, rs.todo);
        return 128 + rs.stopped;
    }
    return finish(c, todo, sweep_now() - t0);
}

/* Everything that can refuse the sweep, before anything is written. */
static int accept_sweep(struct cli *c, int argc, char **argv, int nopt, unsigned char **todo)
{
    int rc = cli_parse(c, nopt, argv);

    if (rc < 0)
        rc = build_spec(c, nopt < argc ? argc - nopt - 1 : 0, argv + nopt + 1);
    if (rc < 0)
        rc = check_combination(c);
    if (rc < 0 && (sweep_exec_self(c->bin, sizeof(c->bin)) != 0 || !getcwd(c->cwd, sizeof(c->cwd))))
        rc = fail2("cannot find this program or the current directory: %s%s", strerror(errno),
                   "");
    if (rc < 0) {
        locate_dir(c);
        if (!(*todo = pending(c)))
            rc = fail2("out of memory%s%s", "", "");
    }
    if (rc < 0)
        rc = check_points(c, *todo);
    return rc;
}

static int cmd_sweep(int argc, char **argv)
{
    struct cli c;
    struct sweep_slurm sl;
    unsigned char *todo = NULL;
    int nopt = 0, rc;
    char err[ERR_BYTES];

    memset(&sl, 0, sizeof(sl));
    while (nopt < argc && strcmp(argv[nopt], "--") != 0)
        nopt++;
    cli_init(&c);
    rc = accept_sweep(&c, argc, argv, nopt, &todo);
    sl.path = c.slurm;
    sl.merge = c.slurm_merge;
    sl.opt = &c.slurm_opts;
    /* The script's path first: a bad one leaves nothing behind. */
    if (rc < 0 && c.slurm && sweep_slurm_begin(&sl, err, sizeof(err)) != 0)
        rc = fail2("%s%s", err, "");
    if (rc < 0 && (rc = prepare_dir(&c)) < 0 && (rc = write_plan(&c)) < 0)
        forget_results(&c);
    else if (rc >= 0)
        unmake_dirs(&c.made);
    if (rc >= 0 && c.slurm)
        sweep_slurm_abort(&sl);
    if (rc < 0)
        rc = c.slurm ? emit_slurm(&c, &sl, todo) : run_and_finish(&c, todo);
    free(todo);
    cli_free(&c);
    return rc;
}

/* DIR/sweep.ini into *s: 0, or 2 with a message. */
static int load_plan(const char *dir, struct sweep_spec *s)
{
    char plan[SWEEP_PATH_BYTES + 16], err[ERR_BYTES];

    snprintf(plan, sizeof(plan), "%s/sweep.ini", dir);
    if (sweep_file_load(s, plan, err, sizeof(err)) != 0 ||
        sweep_spec_check(s, err, sizeof(err)) != 0)
        return fail2("%s%s", err, "");
    return 0;
}

/* nictx sweep merge DIR [--no-plots] */
static int cmd_merge(int argc, char **argv)
{
    struct sweep_merge_stats ms;
    struct sweep_spec s;
    char dir[SWEEP_PATH_BYTES], err[ERR_BYTES];
    int plots = 1, rc;

    if (argc == 4 && strcmp(argv[3], "--no-plots") == 0)
        plots = 0;
    else if (argc != 3)
        return fail2("usage: nictx sweep merge DIR [--no-plots]%s%s", "", "");
    if (!realpath(argv[2], dir))
        return fail2("merge %s: %s", argv[2], strerror(errno));
    sweep_spec_init(&s);
    if ((rc = load_plan(dir, &s)) == 0) {
        ms.result = calloc(sweep_npoints(&s), 1);
        rc = ms.result ? sweep_merge(&s, dir, argv[2], plots, stdout, &ms, err, sizeof(err))
                       : -1;
        if (rc != 0)
            fprintf(stderr, "nictx sweep: %s\n", ms.result ? err : "out of memory");
        else
            printf("\nreport: %s/report.md (results.csv, results.json, plots/)\n", argv[2]);
        rc = rc ? 1 : merge_status(&s, dir, &ms);
        free(ms.result);
    }
    sweep_spec_free(&s);
    return rc;
}

/* nictx sweep point DIR N: prints "N ok", "N failed" or "N noresult" when
 * it ends; exits 0 when the point has a result (it then need not run
 * again), 1 when it has none. */
static int cmd_point(int argc, char **argv)
{
    struct sweep_spec s;
    char bin[SWEEP_PATH_BYTES], line[64], points[SWEEP_PATH_BYTES + 16];
    unsigned long n = 0;
    int rc, sig = 0;
    enum sweep_point_status st = SWEEP_POINT_OK;

    if (argc != 4)
        return fail2("usage: nictx sweep point DIR N%s%s", "", "");
    sweep_spec_init(&s);
    if ((rc = load_plan(argv[2], &s)) == 0) {
        n = strspn(argv[3], "0123456789") == strlen(argv[3]) ? strtoul(argv[3], NULL, 10) : 0;
        if (n < 1 || n > sweep_npoints(&s))
            rc = fail2("point %s: expected 1..the number of points%s", argv[3], "");
        else if (sweep_exec_self(bin, sizeof(bin)) != 0)
            rc = fail2("cannot find this program%s%s", "", "");
    }
    /* A job in a directory of its own (--transfer) starts without points/. */
    snprintf(points, sizeof(points), "%s/points", argv[2]);
    if (rc == 0 && mkdir(points, 0777) != 0 && errno != EEXIST)
        fprintf(stderr, "nictx sweep: %s: %s\n", points, strerror(errno));
    if (rc == 0 && !sweep_point_done(&s, argv[2], n - 1, bin))
        st = sweep_point_run(&s, argv[2], n - 1, bin, &sig);
    if (rc == 0 && st != SWEEP_POINT_STOPPED) {
        int result = sweep_point_result(&s, argv[2], n - 1);
        sweep_run_report_line(n - 1, result, line, sizeof(line));
        fputs(line, stdout);
        rc = result ? 0 : 1;
    } else if (rc == 0) {
        rc = 128 + sig;
    }
    sweep_spec_free(&s);
    return rc;
}

int sweep_main(int argc, char **argv)
{
    struct sigaction sa;

    /* Children are waited for: SIGCHLD must not be ignored (sweep_exec.h). */
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = SIG_DFL;
    sigaction(SIGCHLD, &sa, NULL);
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "merge") == 0)
        return cmd_merge(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "point") == 0)
        return cmd_point(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "compare") == 0)
        return sweep_compare_main(argc, argv);
    return cmd_sweep(argc, argv);
}
