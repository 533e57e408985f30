/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_compare_cli.c - `nictx sweep compare OLD NEW [--tol ...]` (see
 * sweep_cli.h; the comparison: sweep_compare.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sweep/sweep.h"
#include "sweep/sweep_cli.h"
#include "sweep/sweep_compare.h"
#include "sweep/sweep_csv.h"
#include "sweep/sweep_file.h"
#include "sweep/sweep_point.h"

#define ERR_BYTES 1024

static void compare_usage(FILE *f)
{
    fprintf(f,
"usage: nictx sweep compare OLD NEW [--tol PCT] [--tol FIGURE=PCT]... [--show N]\n"
"\n"
"Compares two sweeps' figures point by point (docs/user-guide.md, A regression\n"
"run in CI).  OLD and NEW are results directories or their results.csv files.\n"
"Points are matched by id, figures by column name; point and id are not compared.\n"
"Numbers compare as numbers, any other field (status, bound) as text.  A column\n"
"only NEW has is named and not compared; a column only OLD has, a point only one\n"
"side has, a status that changed or a figure outside its tolerance is a difference.\n"
"\n"
"  --tol PCT             numbers may differ by PCT percent of OLD's value (0: equal)\n"
"  --tol FIGURE=PCT      FIGURE's own tolerance (repeatable): a column's exact name\n"
"                        (latency_ns.p99), or a prefix ending in '*' (latency_ns.*);\n"
"                        the most specific match wins: an exact name, else the\n"
"                        longest prefix, else the last given.  A FIGURE that matches\n"
"                        no column is an error\n"
"  --show N              lines of the table of differences (20; 0: every one)\n"
"\n"
"Prints what differs (point, id, its parameters, figure, old, new, change in %%),\n"
"the new columns, and a summary.  Exit status: 0 every figure equal, 1 something\n"
"differs, 2 bad usage or an input that cannot be read.\n");
}

/* "nictx sweep compare: MESSAGE" on stderr (usage: with a pointer to
 * --help); returns 2. */
static int compare_fail(int usage, const char *fmt, const char *a, const char *b)
{
    char msg[2 * ERR_BYTES];

    snprintf(msg, sizeof(msg), fmt, a, b);
    fprintf(stderr, "nictx sweep compare: %s%s\n", msg,
            usage ? " (see nictx sweep compare --help)" : "");
    return 2;
}

struct compare_args {
    const char *path[2]; /* OLD, NEW as given */
    struct sweep_compare_tol *tols;
    struct sweep_compare_opts o;
};

/* One option at argv[*i]: -1 to go on, else the exit status. */
static int compare_opt(struct compare_args *a, int argc, char **argv, int *i)
{
    const char *arg = argv[*i], *val = NULL;
    char err[ERR_BYTES];
    struct sweep_compare_tol t;

    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
        return compare_usage(stdout), 0;
    if (strncmp(arg, "--tol=", 6) == 0 || strncmp(arg, "--show=", 7) == 0)
        val = strchr(arg, '=') + 1;
    else if ((strcmp(arg, "--tol") == 0 || strcmp(arg, "--show") == 0) && *i + 1 < argc)
        val = argv[++*i];
    else if (strcmp(arg, "--tol") == 0 || strcmp(arg, "--show") == 0)
        return compare_fail(1, "%s needs a value%s", arg, "");
    else
        return compare_fail(1, "unknown option %s%s", arg, "");
    if (strncmp(arg, "--show", 6) == 0) {
        char *end;
        errno = 0;
        unsigned long n = strtoul(val, &end, 10);
        if (!*val || *end || errno || strspn(val, "0123456789") != strlen(val) || n > 1000000)
            return compare_fail(1, "--show %s: expected a number of lines, 0..1000000%s", val,
                                "");
        a->o.show = n;
        return -1;
    }
    if (sweep_compare_tol_parse(val, &t, err, sizeof(err)) != 0)
        return compare_fail(1, "%s%s", err, "");
    if (*t.name)
        a->tols[a->o.ntols++] = t;
    else
        a->o.tol = t.pct;
    return -1;
}

static int compare_parse(struct compare_args *a, int argc, char **argv)
{
    int npath = 0, rc;

    for (int i = 2; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1]) {
            if ((rc = compare_opt(a, argc, argv, &i)) >= 0)
                return rc;
        } else if (npath < 2) {
            a->path[npath++] = argv[i];
        } else {
            return compare_fail(1, "unexpected argument '%s'%s", argv[i], "");
        }
    }
    if (npath < 2)
        return compare_fail(1, "expected OLD and NEW, two results directories or "
                               "results.csv files%s%s", "", "");
    return -1;
}

/* A results directory's results.csv, or the file itself; into csv. */
static void csv_path(const char *given, char *csv, size_t len)
{
    struct stat st;

    if (stat(given, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(csv, len, "%s/results.csv", given);
    else
        snprintf(csv, len, "%s", given);
}

/* The parameter names of the sweep.ini beside csv, into names (left
 * empty when there is none or it cannot be read: the table then shows no
 * parameters). */
static void param_names(const char *csv, struct strv *names)
{
    char plan[SWEEP_PATH_BYTES + 16], err[ERR_BYTES];
    const char *slash = strrchr(csv, '/');
    struct sweep_spec s;

    snprintf(plan, sizeof(plan), "%.*ssweep.ini", slash ? (int)(slash - csv + 1) : 0, csv);
    sweep_spec_init(&s);
    if (sweep_file_load(&s, plan, err, sizeof(err)) == 0)
        for (size_t p = 0; p < s.nparams; p++)
            if (strv_push(names, s.params[p].name) != 0)
                break;
    sweep_spec_free(&s);
}

/* Both tables read and compared. */
static int compare_run(struct compare_args *a, struct sweep_csv t[2], struct strv *names)
{
    char csv[2][SWEEP_PATH_BYTES + 16], err[ERR_BYTES];
    int rc;

    for (int k = 0; k < 2; k++) {
        csv_path(a->path[k], csv[k], sizeof(csv[k]));
        if (sweep_csv_load(&t[k], csv[k], err, sizeof(err)) != 0)
            return compare_fail(0, "%s: %s", k ? "NEW" : "OLD", err);
    }
    param_names(csv[0], names);
    if (names->n == 0)
        param_names(csv[1], names);
    a->o.params = names;
    rc = sweep_compare(&t[0], &t[1], &a->o, stdout, err, sizeof(err));
    if (rc == 2)
        compare_fail(0, "%s%s", err, "");
    return rc;
}

int sweep_compare_main(int argc, char **argv)
{
    struct compare_args a;
    struct sweep_csv t[2];
    struct strv names;
    int rc;

    memset(&a, 0, sizeof(a));
    a.o.show = SWEEP_COMPARE_SHOW;
    a.tols = malloc((size_t)argc * sizeof(*a.tols));
    a.o.tols = a.tols;
    sweep_csv_init(&t[0]);
    sweep_csv_init(&t[1]);
    strv_init(&names);
    if (!a.tols)
        rc = compare_fail(0, "out of memory%s%s", "", "");
    else if ((rc = compare_parse(&a, argc, argv)) < 0)
        rc = compare_run(&a, t, &names);
    fflush(stdout);
    sweep_csv_free(&t[0]);
    sweep_csv_free(&t[1]);
    strv_free(&names);
    free(a.tols);
    return rc;
}
