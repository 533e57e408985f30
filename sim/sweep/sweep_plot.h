/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_plot.h - a sweep's plots, drawn by gnuplot (PNG and SVG) from data
 * files and scripts written into DIR/plots, where they stay, so a plot can
 * be restyled and redrawn by hand (`cd DIR/plots && gnuplot mpps.gp`).
 *
 * The plots (x: the sweep's x parameter, `burst` unless set; a line or a
 * group of bars per series, sweep_series.h):
 *   mpps     throughput (Mpps) against x, with the line rate and the
 *            tightest PCIe bound at each x as dashed lines (the PCIe bound:
 *            the link's TLP-layer rate, which nets out DLLP and SKP
 *            overhead, over the TLP and UpdateFC bytes per packet of the
 *            busier direction); a bound far above the data is named in a
 *            label instead of drawn
 *   cpu      CPU ns per packet, stacked by cause (cpu_ns_per_pkt)
 *   pcie     PCIe bytes per packet, stacked by TLP kind, a panel per
 *            direction (pcie_bytes_per_pkt.h2d, .d2h)
 *   latency  doorbell-to-wire latency p50 and p99 (ns) against x
 *   area     throughput against area (area.xc7_luts: sweep --area), every
 *            point, the Pareto front (sweep_pareto.h) joined by a line; a
 *            sweep without the area columns has no area plot (name NULL)
 * mpps and latency need a swept, numeric x parameter; without one they are
 * skipped, and the reason is kept for the report.  Stacks show the causes
 * and kinds that are not zero everywhere.
 *
 * Contract: sweep_plots_make writes DIR/plots/NAME.dat, NAME.gp (each
 * atomically) and runs gnuplot, which draws NAME.png and NAME.svg (each
 * drawn to a temporary name and renamed, so a failed drawing leaves the
 * previous one).  It returns 0 and fills *out (made, or why not: skipped,
 * gnuplot missing or failing); -1 only when DIR/plots cannot be written.
 * No global state.
 */
#ifndef NICTX_SWEEP_PLOT_H
#define NICTX_SWEEP_PLOT_H

#include <stddef.h>

#include "sweep/sweep.h"
#include "sweep/sweep_table.h"

#define SWEEP_NPLOTS 5
#define SWEEP_NOTE_BYTES 256

struct sweep_plot {
    const char *name;  /* file stem: "mpps", "cpu", "pcie", "latency", "area" */
    char title[SWEEP_NOTE_BYTES]; /* what it shows, for the report */
    int made;          /* NAME.png and NAME.svg were drawn */
    char note[SWEEP_NOTE_BYTES]; /* why not, or a remark ("" if none) */
};

struct sweep_plots {
    struct sweep_plot p[SWEEP_NPLOTS];
};

int sweep_plots_make(const struct sweep_spec *s, const struct sweep_table *t, const char *dir,
                     struct sweep_plots *out, char *err, size_t errlen);

#endif /* NICTX_SWEEP_PLOT_H */
