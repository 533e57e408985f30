/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_slurm.c - an sbatch array script for a sweep's pending points, and
 * the merge job after it (see sweep_slurm.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "sweep/sweep_slurm.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "sweep/sweep_exec.h"
#include "sweep/sweep_point.h"

#define ARRAY_BYTES 65536
#define KEY_CHARS "abcdefghijklmnopqrstuvwxyz0123456789-"

int sweep_slurm_ranges(const unsigned char *todo, size_t n, char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        int w;
        if (!todo[i])
            continue;
        while (j + 1 < n && todo[j + 1])
            j++;
        w = j > i ? snprintf(buf + used, len - used, "%s%zu-%zu", used ? "," : "", i + 1, j + 1)
                  : snprintf(buf + used, len - used, "%s%zu", used ? "," : "", i + 1);
        if (w < 0 || (size_t)w >= len - used)
            return -1;
        used += (size_t)w;
        i = j;
    }
    return 0;
}

/* ---- site options ----------------------------------------------------------- */

/* The options the script needs as it writes them. */
static const char *const own_keys[] = {"array", "chdir", "wrap"};

int sweep_slurm_opt_check(const char *kv, char *err, size_t errlen)
{
    size_t k = strcspn(kv, "=");
    const char *v = kv[k] ? kv + k + 1 : NULL;

    if (k == 0 || kv[0] == '-' || strspn(kv, KEY_CHARS) != k) {
        snprintf(err, errlen, "--slurm-opt '%s': expected KEY or KEY=VALUE, KEY an sbatch "
                              "option without its dashes (partition=short, time=30:00)", kv);
        return -1;
    }
    for (size_t o = 0; o < sizeof(own_keys) / sizeof(own_keys[0]); o++)
        if (strlen(own_keys[o]) == k && strncmp(kv, own_keys[o], k) == 0) {
            snprintf(err, errlen, "--slurm-opt %s: the script sets --%s itself", kv,
                     own_keys[o]);
            return -1;
        }
    if (v && (!*v || strpbrk(v, " \t\r\n'\"\\"))) {
        snprintf(err, errlen, "--slurm-opt %s: the value must be non-empty, without blanks, "
                              "quotes or backslashes", kv);
        return -1;
    }
    return 0;
}

/* Does an option of opt set KEY? */
static int user_sets(const struct strv *opt, const char *key)
{
    size_t n = strlen(key);

    for (size_t k = 0; opt && k < opt->n; k++)
        if (strncmp(opt->v[k], key, n) == 0 && (opt->v[k][n] == '=' || !opt->v[k][n]))
            return 1;
    return 0;
}

/* "#SBATCH --KEY=VALUE" unless the user sets KEY. */
static void sbatch_line(FILE *f, const struct strv *opt, const char *key, const char *value)
{
    if (!user_sets(opt, key))
        fprintf(f, "#SBATCH --%s=%s\n", key, value);
}

static void user_lines(FILE *f, const struct strv *opt)
{
    for (size_t k = 0; opt && k < opt->n; k++)
        fprintf(f, "#SBATCH --%s\n", opt->v[k]);
}

/* A job's #SBATCH lines: its name, its array (NULL: none), one task on one
 * CPU, the output file "OUT/<output>", then the user's --slurm-opt lines. */
static void sbatch_head(FILE *f, const struct sweep_slurm *sl, const char *out, const char *job,
                        const char *array, const char *output)
{
    char val[SWEEP_PATH_BYTES + 128];

    sbatch_line(f, sl->opt, "job-name", job);
    if (array)
        fprintf(f, "#SBATCH --array=%s\n", array);
    sbatch_line(f, sl->opt, "ntasks", "1");
    sbatch_line(f, sl->opt, "cpus-per-task", "1");
    snprintf(val, sizeof(val), "%s/%s", out, output);
    sbatch_line(f, sl->opt, "output", val);
    user_lines(f, sl->opt);
}

/* ---- paths ---------------------------------------------------------------------- */

int sweep_slurm_rel(const char *path, const char *base, char *buf, size_t len)
{
    size_t n = strlen(base);

    while (n > 1 && base[n - 1] == '/')
        n--;
    if (strncmp(path, base, n) == 0 && path[n] == '/' && path[n + 1]) {
        snprintf(buf, len, "%s", path + n + 1);
        return 1;
    }
    snprintf(buf, len, "%s", path);
    return 0;
}

/* The paths as the scripts name them (shell-quoted), and the comment that
 * says which are absolute. */
struct names {
    char bin[SWEEP_PATH_BYTES + 64], dir[SWEEP_PATH_BYTES + 64], out[SWEEP_PATH_BYTES + 64];
    char raw_bin[SWEEP_PATH_BYTES], raw_dir[SWEEP_PATH_BYTES];
    int rel_bin, rel_dir;
};

static void names_of(const struct sweep_run_opts *o, struct names *nm)
{
    nm->bin[0] = nm->dir[0] = '\0';
    nm->rel_bin = sweep_slurm_rel(o->bin, o->cwd, nm->raw_bin, sizeof(nm->raw_bin));
    nm->rel_dir = sweep_slurm_rel(o->dir, o->cwd, nm->raw_dir, sizeof(nm->raw_dir));
    sweep_shell_quote(nm->raw_bin, nm->bin, sizeof(nm->bin));
    sweep_shell_quote(nm->raw_dir, nm->dir, sizeof(nm->dir));
    snprintf(nm->out, sizeof(nm->out), "%s/slurm", nm->raw_dir);
}

/* The header lines on where paths are from, and the check that the task
 * runs where they are. */
static void paths_note(FILE *f, const struct sweep_run_opts *o, const struct names *nm)
{
    if (nm->rel_bin || nm->rel_dir)
        fprintf(f, "# Submit it from %s, the directory the sweep was planned in:\n"
                   "# the paths below are relative to it, so the nodes may mount it anywhere.\n",
                o->cwd);
    if (!nm->rel_bin)
        fprintf(f, "# %s is outside %s: named as it is, every node must see it there.\n",
                o->bin, o->cwd);
    if (!nm->rel_dir)
        fprintf(f, "# %s is outside %s: named as it is, every node must see it there.\n",
                o->dir, o->cwd);
}

static void body_check(FILE *f, const struct sweep_run_opts *o, const struct names *nm)
{
    fprintf(f, "cd \"${SLURM_SUBMIT_DIR:-.}\" || exit 1\n"
               "if [ ! -x %s ] || [ ! -f %s/sweep.ini ]; then\n"
               "    echo \"nictx sweep: no %s or %s/sweep.ini in $PWD: submit this from %s,"
               " where the sweep was planned\" >&2\n"
               "    exit 2\n"
               "fi\n",
            nm->bin, nm->dir, nm->raw_bin, nm->raw_dir, o->cwd);
}

/* "sbatch ..." lines a user runs, for the comments and the message. */
static void submit_lines(FILE *f, const char *prefix, const struct sweep_slurm *sl,
                         const struct names *nm)
{
    if (sl->merge)
        fprintf(f, "%ssbatch --dependency=afterany:$(sbatch --parsable %s) %s\n", prefix,
                sl->path, sl->merge);
    else
        fprintf(f, "%ssbatch --wait %s; %s sweep merge %s\n", prefix, sl->path, nm->bin,
                nm->dir);
}

void sweep_slurm_print_submit(FILE *f, const char *prefix, const struct sweep_slurm *sl,
                              const struct sweep_run_opts *o)
{
    struct names nm;

    names_of(o, &nm);
    submit_lines(f, prefix, sl, &nm);
}

static void write_array(FILE *f, const struct sweep_slurm *sl, const struct sweep_spec *s,
                        const struct sweep_run_opts *o, const char *array, size_t ntodo,
                        size_t n)
{
    const char *name = *s->name ? s->name : "sweep";
    char val[SWEEP_PATH_BYTES + 128];
    struct names nm;

    names_of(o, &nm);
    fprintf(f, "#!/bin/bash\n"
               "# nictx sweep %s: one Slurm array task per point still to run (%zu of %zu).\n",
            name, ntodo, n);
    paths_note(f, o, &nm);
    fprintf(f, "# Submit, wait for every task, then collect (merge any time: it collects\n"
               "# the points done so far):\n");
    submit_lines(f, "#   ", sl, &nm);
    fprintf(f, "# Slurm's MaxArraySize (often 1001) caps the task numbers; split a bigger "
               "sweep.\n");
    snprintf(val, sizeof(val), "nictx-%s", name);
    sbatch_head(f, sl, nm.out, val, array, "%A_%a.out");
    body_check(f, o, &nm);
    fprintf(f, "exec %s sweep point %s \"$SLURM_ARRAY_TASK_ID\"\n", nm.bin, nm.dir);
}

static void write_merge(FILE *f, const struct sweep_slurm *sl, const struct sweep_spec *s,
                        const struct sweep_run_opts *o)
{
    const char *name = *s->name ? s->name : "sweep";
    char val[SWEEP_PATH_BYTES + 128];
    struct names nm;

    names_of(o, &nm);
    fprintf(f, "#!/bin/bash\n"
               "# nictx sweep %s: collect the results into the table, plots and report\n"
               "# once the array job of %s has ended, however its tasks ended:\n",
            name, sl->path);
    submit_lines(f, "#   ", sl, &nm);
    paths_note(f, o, &nm);
    snprintf(val, sizeof(val), "nictx-%s-merge", name);
    sbatch_head(f, sl, nm.out, val, NULL, "merge_%j.out");
    body_check(f, o, &nm);
    fprintf(f, "exec %s sweep merge %s\n", nm.bin, nm.dir);
}

/* ---- the files ------------------------------------------------------------------- */

int sweep_slurm_begin(struct sweep_slurm *sl, char *err, size_t errlen)
{
    sl->af.f = sl->mf.f = NULL;
    if (afile_open(&sl->af, sl->path) != 0) {
        snprintf(err, errlen, "--emit-slurm %s: cannot write there: %s", sl->path,
                 strerror(errno));
        return -1;
    }
    if (sl->merge && afile_open(&sl->mf, sl->merge) != 0) {
        snprintf(err, errlen, "--slurm-merge %s: cannot write there: %s", sl->merge,
                 strerror(errno));
        afile_abort(&sl->af);
        return -1;
    }
    return 0;
}

void sweep_slurm_abort(struct sweep_slurm *sl)
{
    afile_abort(&sl->af);
    afile_abort(&sl->mf);
}

/* Make it executable and rename it into place. */
static int commit(struct afile *a, const char *opt, char *err, size_t errlen)
{
    if (fchmod(fileno(a->f), 0755) != 0 || afile_commit(a) != 0) {
        snprintf(err, errlen, "%s %s: cannot write: %s", opt, a->path, strerror(errno));
        afile_abort(a);
        return -1;
    }
    return 0;
}

int sweep_slurm_finish(struct sweep_slurm *sl, const struct sweep_spec *s,
                       const struct sweep_run_opts *o, const unsigned char *todo, char *err,
                       size_t errlen)
{
    char array[ARRAY_BYTES], logs[SWEEP_PATH_BYTES + 16];
    size_t n = sweep_npoints(s), ntodo = 0;

    for (size_t i = 0; i < n; i++)
        ntodo += todo[i] != 0;
    if (sweep_slurm_ranges(todo, n, array, sizeof(array)) != 0) {
        snprintf(err, errlen, "--emit-slurm %s: too many ranges of pending points for one "
                              "array", sl->path);
        sweep_slurm_abort(sl);
        return -1;
    }
    snprintf(logs, sizeof(logs), "%s/slurm", o->dir);
    if (mkdir(logs, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: %s", logs, strerror(errno));
        sweep_slurm_abort(sl);
        return -1;
    }
    write_array(sl->af.f, sl, s, o, array, ntodo, n);
    if (sl->merge)
        write_merge(sl->mf.f, sl, s, o);
    if (commit(&sl->af, "--emit-slurm", err, errlen) != 0) {
        sweep_slurm_abort(sl);
        return -1;
    }
    return sl->merge ? commit(&sl->mf, "--slurm-merge", err, errlen) : 0;
}
