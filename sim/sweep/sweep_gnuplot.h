/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_gnuplot.h - the gnuplot scripts of a sweep's plots (sweep_plot.h
 * says what each plot shows; sweep_plot.c writes the data files they read).
 *
 * Every script draws its plot twice, with pngcairo (png if cairo is
 * missing) and svg, to NAME.tmp.png and NAME.tmp.svg in its own directory,
 * reading its data files from there: mpps.dat and bounds.dat (a block per
 * series, "x mpps"; "x line_rate pcie_bound"), latency.dat ("x p50 p99"),
 * cpu.dat, pcie_h2d.dat, pcie_d2h.dat (a block per series, "\"x\" v1 v2
 * ...", one column per stacked key).  Text is written with enhanced mode
 * off, so names with '_' print as they are.  Axes carry their units; the x
 * axis is log2 when its values span a factor of 16 or more.  Line series
 * get a colour per combination of all but the first series parameter and,
 * when that one has at most 4 values, a dash pattern per value of it.
 *
 * Contract: the functions write to f and report nothing; the caller checks
 * the FILE for write errors.  No global state.
 */
#ifndef NICTX_SWEEP_GNUPLOT_H
#define NICTX_SWEEP_GNUPLOT_H

#include <stddef.h>
#include <stdio.h>

#include "lib/strv.h"
#include "sweep/sweep.h"
#include "sweep/sweep_series.h"

/* What the scripts need to know of the sweep. */
struct sweep_gp {
    const struct sweep_spec *s;
    const struct sweep_series *ss;
    const double *xval;   /* numeric x value per position (line plots) */
    const size_t *xorder; /* x positions in increasing order */
    size_t nrows;         /* points with a result: sets the bar plots' width */
};

/* The throughput plot's extremes (NAN: none). */
struct sweep_gp_bounds {
    double data_max, line_min, line_max, pcie_min, pcie_max;
    int have_line, have_pcie;
};

/* s between double quotes, for a script or a data file (\ and " escaped, a
 * line break as \n). */
void sweep_gp_quote(FILE *f, const char *s);

/* mpps.gp: y from 0 to ymax; the PCIe bound drawn, or named in a label. */
void sweep_gp_mpps(FILE *f, const struct sweep_gp *g, const struct sweep_gp_bounds *b,
                   double ymax, int pcie_drawn);
/* latency.gp: p50 and p99 panels. */
void sweep_gp_latency(FILE *f, const struct sweep_gp *g);
/* area.gp: throughput against the cost column, every point and the Pareto
 * front (area.dat's blocks 0 and 1). */
void sweep_gp_area(FILE *f, const struct sweep_gp *g, const char *cost);
/* cpu.gp and pcie.gp: stacked bars of the keys (leaf_at: where a key's
 * own name starts, for the legend). */
void sweep_gp_cpu(FILE *f, const struct sweep_gp *g, const struct strv *keys, size_t leaf_at);
void sweep_gp_pcie(FILE *f, const struct sweep_gp *g, const struct strv *h2d, size_t h2d_leaf,
                   const struct strv *d2h, size_t d2h_leaf);

#endif /* NICTX_SWEEP_GNUPLOT_H */
