/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_engine.h - the transmit engine of the C model (docs/c-model.md): the
 * blocks of c-model/ wired as rtl/nictx_tx_top.sv wires the RTL modules,
 * cycle-exact at the top's ports, which are the device port contract of
 * sim/device/device.h (struct dev_in, struct dev_out).  Its sizes are the
 * top's parameters: the datapath width W (8, 16, 32 or 64) and struct
 * dev_hw (by default 256 tags, 8 descriptor reads, 256 descriptor slots, a
 * 32 KiB payload buffer, 256 frames, 64 queues; docs/codesign.md).
 *
 * sim/device/dev_cm.c puts it behind struct device_ops; sim/device/dev_lockstep.c runs
 * it beside the Verilated RTL and compares every output on every clock.
 */
#ifndef NICTX_CM_ENGINE_H
#define NICTX_CM_ENGINE_H

#include "device/device.h"

struct cm_engine;

/* Power-on (every register and RAM 0, as Verilator starts the RTL) of an
 * engine of W bytes a beat; NULL for another width or no memory.  Hold
 * reset (cm_engine_reset) before the first clock. */
struct cm_engine *cm_engine_create(unsigned w);
/* The same with the hardware parameters `hw` (the top's NumQueues,
 * NumTags, DescReads, DescBufDescs, PayBufBytes, MaxPkts, in the ranges
 * sim/device/dev_hw.c checks); NULL for a parameter a block refuses or no
 * memory. */
struct cm_engine *cm_engine_create_hw(unsigned w, const struct dev_hw *hw);
void cm_engine_destroy(struct cm_engine *e);
/* rst_ni low for some clocks, then high: every register reset (RAMs keep
 * their contents), as device_ops.reset. */
void cm_engine_reset(struct cm_engine *e);
/* One clock, as device_ops.step: the outputs for these inputs, then the
 * rising edge. */
void cm_engine_step(struct cm_engine *e, const struct dev_in *in, struct dev_out *out);
/* The same clock, leaving the value of each waveform signal in
 * vals[CM_PROBE_N] (cm_probe.h). */
void cm_engine_step_probe(struct cm_engine *e, const struct dev_in *in, struct dev_out *out,
                          uint64_t *vals);

/* Several clocks at once, as device_ops.run (struct dev_run in device.h):
 * each as cm_engine_step() gives it; a clock on which only the data stream
 * moves (the h2d completion data into the payload buffer, a frame's beats
 * through the MAC, the port slices) is worked out as just that
 * (docs/c-model.md, Runs).  Returns the clocks run. */
uint32_t cm_engine_run(struct cm_engine *e, struct dev_run *r);

/* The device's cover point counters since creation (lib/cover.h: COVER_N
 * of them, the device's; the link's stay 0). */
const uint64_t *cm_engine_cover(const struct cm_engine *e);

#endif
