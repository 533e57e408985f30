/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simtime.h - the one simulated timeline.
 *
 * Every part of the simulator (CPU, PCIe link, host memory, device clock)
 * schedules in integer picoseconds on one timeline.  64 bits of ps cover
 * about 213 days of simulated time, far beyond any run.
 */
#ifndef NICTX_SIMTIME_H
#define NICTX_SIMTIME_H

#include <stdint.h>

typedef uint64_t sim_ps_t;

#define SIM_PS_PER_NS 1000ull
#define SIM_PS_PER_US 1000000ull
#define SIM_PS_NEVER  UINT64_MAX

/* Nanoseconds (possibly fractional) to picoseconds, rounded to nearest. */
static inline sim_ps_t sim_ns_to_ps(double ns)
{
    return (sim_ps_t)(ns * 1000.0 + 0.5);
}

#endif /* NICTX_SIMTIME_H */
