/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_cli.h - the `nictx sweep` command line: plan a sweep from a sweep
 * file and --set lists, check it with nictx itself, run its points
 * (serially, with GNU parallel, or as a Slurm array script), and collect
 * the results, plots and report; `nictx sweep merge DIR` collects alone;
 * `nictx sweep point DIR N` runs one point (what each job runs);
 * `nictx sweep compare OLD NEW` compares two sweeps' figures
 * (sweep_compare.h; exit 0 equal, 1 differ, 2 bad usage or input).
 *
 * Exit status: 0 when every point has a result whose status is ok; 1 when
 * a point failed or has no result (everything else is still written); 2
 * for bad input, before any point runs (a message names the parameter,
 * value or option); 128 + N when signal N stopped it (rerun to resume).
 * `nictx sweep --help` documents every option.
 */
#ifndef NICTX_SWEEP_CLI_H
#define NICTX_SWEEP_CLI_H

/* argv[0] is "sweep". */
int sweep_main(int argc, char **argv);
/* `nictx sweep compare ...`: argv[1] is "compare" (sweep_compare_cli.c). */
int sweep_compare_main(int argc, char **argv);

#endif /* NICTX_SWEEP_CLI_H */
