/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bound.h - the name of what limits a run, from its measured figures
 * (docs/results.md, "What bounds a run", has the table).
 *
 * In order:
 *   1. A resource busy 90% of the measured run or more: the busiest of the
 *      CPU (its own time: work, barriers and locks, not the time it waits
 *      on the device), "pcie_h2d", "pcie_d2h", "device" (the engine's
 *      beats) and "wire".  The CPU is named by its largest own part:
 *      "cpu" (work), "cpu_barrier", "cpu_lock".
 *   2. A CPU busy 90% or more, counting its waits on the device: its
 *      largest part, "cpu_head_read" or "cpu_polling" ("cpu" when work is
 *      the largest).
 *   3. Nothing saturated, the device's datapath less than 75% busy, but a
 *      pool starved the device half the run or more: "credits" (a
 *      flow-control credit type ran out), then the read pool at its cap
 *      longest: "tags", "read_bytes", "fetches"; then
 *      "ring" (a queue's ring full of descriptors the device holds: the
 *      driver can post nothing until the device completes one).
 *   4. Otherwise "latency": round trips (DMA reads, the ring's refill)
 *      limit the run with no resource and no pool exhausted.
 */
#ifndef NICTX_BOUND_H
#define NICTX_BOUND_H

#include <stddef.h>

#include "run/harness.h"

#define SIM_BOUND_BUSY 0.9    /* a resource this busy limits the run */
#define SIM_BOUND_STARVED 0.5 /* a pool at its cap this long starves it */
/* ... if the device's datapath moved beats less than this of the run: the
 * beats leave out the clocks between frames, so a datapath that limits a
 * run of small frames shows 75-90%, and its pools sit at their caps
 * because it takes their work slowly (a fetch slot is taken again at once
 * for the few descriptors that fit), not the other way round. */
#define SIM_BOUND_DEVICE_BUSY 0.75

/* The bound's name (a static string); NULL if the run has no measured
 * time (r->util_cpu is NAN). */
const char *sim_bound(const struct sim_result *r);
/* One line saying why: the figure that shows the bound ("every read tag
 * in use 87% of the run").  "" when there is no bound. */
void sim_bound_why(const struct sim_result *r, char *buf, size_t n);
/* Name of CPU part k ("work", "head_read", ...). */
const char *sim_cpu_part_name(enum sim_cpu_part k);

#endif /* NICTX_BOUND_H */
