/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_slurm.h - a sweep as a Slurm job array: an sbatch script with one
 * array task per pending point, each running `nictx sweep point DIR N`
 * (sweep_point.h), the same command GNU parallel's jobs run.  After the
 * tasks, `nictx sweep merge DIR` collects the results.
 *
 * Contract: sweep_slurm_write writes the script atomically (temporary
 * file, rename; mode 0755) and creates DIR/slurm for the tasks' output;
 * 0, or -1 with a message in err.  The array lists the pending points'
 * numbers as ranges ("1-3,5,7-72").  No global state.
 */
#ifndef NICTX_SWEEP_SLURM_H
#define NICTX_SWEEP_SLURM_H

#include <stddef.h>

#include "sweep/sweep.h"
#include "sweep/sweep_run.h"

int sweep_slurm_write(const struct sweep_spec *s, const struct sweep_run_opts *o,
                      const unsigned char *todo, const char *path, char *err, size_t errlen);

/* The numbers (1-based) of the points with todo[i] set, as Slurm array
 * ranges, into buf: 0, or -1 if it does not fit. */
int sweep_slurm_ranges(const unsigned char *todo, size_t n, char *buf, size_t len);

#endif /* NICTX_SWEEP_SLURM_H */
