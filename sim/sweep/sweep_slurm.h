/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_slurm.h - a sweep as a Slurm job array: an sbatch script with one
 * array task per pending point, each running `nictx sweep point DIR N`
 * (sweep_point.h), the same command GNU parallel's jobs run; and, if
 * asked, a merge job that runs `nictx sweep merge DIR` once the array has
 * ended (submitted with --dependency=afterany on it).
 *
 * Paths.  The scripts name the nictx binary and the results directory
 * relative to the directory the sweep was planned in (the checkout, o->cwd)
 * when they are inside it, so the nodes may mount the checkout anywhere;
 * the scripts are to be submitted from there (Slurm runs a job in the
 * directory it was submitted from, and the task's output file is relative
 * to it too), and a task started elsewhere stops, saying so, before it
 * runs anything.  A path outside the checkout stays absolute, and the
 * script says that every node must see it there.
 *
 * Site options.  Each --slurm-opt KEY[=VALUE] becomes "#SBATCH
 * --KEY[=VALUE]" in both scripts; KEY is lower-case letters, digits and
 * '-'; a KEY the script sets itself (job-name, ntasks, cpus-per-task,
 * output) replaces the script's own line; array, chdir and wrap are
 * refused (the script needs its own); VALUE has no blank, quote or
 * backslash.
 *
 * Contract: sweep_slurm_begin creates the scripts' temporary files (so a
 * path that cannot be written is refused before anything else is done),
 * sweep_slurm_finish writes them and renames them into place (mode 0755)
 * and creates DIR/slurm for the tasks' output, sweep_slurm_abort removes
 * the temporary files.  Each returns 0, or -1 with a message in err.  The
 * array lists the pending points' numbers as ranges ("1-3,5,7-72").  No
 * global state.
 */
#ifndef NICTX_SWEEP_SLURM_H
#define NICTX_SWEEP_SLURM_H

#include <stddef.h>
#include <stdio.h>

#include "lib/json.h"
#include "lib/strv.h"
#include "sweep/sweep.h"
#include "sweep/sweep_run.h"

struct sweep_slurm {
    const char *path;       /* the array script */
    const char *merge;      /* the merge job's script, or NULL */
    const struct strv *opt; /* --slurm-opt KEY[=VALUE], checked */
    struct afile af, mf;
};

/* Is "KEY[=VALUE]" a site option the script can take?  0, or -1 (err). */
int sweep_slurm_opt_check(const char *kv, char *err, size_t errlen);

int sweep_slurm_begin(struct sweep_slurm *sl, char *err, size_t errlen);
int sweep_slurm_finish(struct sweep_slurm *sl, const struct sweep_spec *s,
                       const struct sweep_run_opts *o, const unsigned char *todo, char *err,
                       size_t errlen);
void sweep_slurm_abort(struct sweep_slurm *sl);

/* The command that submits the scripts (and, without a merge job, waits
 * and merges), a line after prefix. */
void sweep_slurm_print_submit(FILE *f, const char *prefix, const struct sweep_slurm *sl,
                              const struct sweep_run_opts *o);

/* The numbers (1-based) of the points with todo[i] set, as Slurm array
 * ranges, into buf: 0, or -1 if it does not fit. */
int sweep_slurm_ranges(const unsigned char *todo, size_t n, char *buf, size_t len);

/* path as the scripts name it: relative to base if inside it, else as it
 * is; 1 if it was made relative. */
int sweep_slurm_rel(const char *path, const char *base, char *buf, size_t len);

#endif /* NICTX_SWEEP_SLURM_H */
