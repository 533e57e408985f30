/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dev_area.h - the engine's area at a hardware combination (W and struct
 * dev_hw), by Yosys 0.23 through scripts/area.sh (docs/codesign.md): a
 * generic gate count, flops, memory bits and the longest logic path in
 * levels, and AMD/Xilinx 7-series LUTs (distributed RAM among them),
 * flip-flops and block RAMs.  Cached by key in
 * <root>/build/area/<key>.txt (NICTX_AREA_CACHE overrides the directory):
 * the first call synthesizes (minutes), the next read the file.
 *
 * Contract: no global state; 0 or -1 with a one-line message.
 */
#ifndef NICTX_DEV_AREA_H
#define NICTX_DEV_AREA_H

#include <stddef.h>
#include <stdio.h>

#include "device/device.h"

/* The figures, in the order of the file's lines (and of results.csv's area
 * columns, sweep --area). */
#define DEV_AREA_FIELDS(X)                                                 \
    X(gates, "generic gates (AND, OR, XOR, MUX...; memories apart)")        \
    X(flops, "generic flip-flops")                                          \
    X(mem_bits, "memory bits (the memories Yosys infers)")                  \
    X(levels, "longest logic path, gate levels (ltp)")                      \
    X(xc7_luts, "xc7 slice LUTs (logic and distributed RAM)")               \
    X(xc7_lutram, "xc7 LUTs used as distributed RAM (of xc7_luts)")         \
    X(xc7_ffs, "xc7 flip-flops")                                            \
    X(xc7_bram18, "xc7 18 Kbit block RAMs (a RAMB36 is two)")

struct dev_area {
#define DEV_AREA_MEMBER(name, help) unsigned long name;
    DEV_AREA_FIELDS(DEV_AREA_MEMBER)
#undef DEV_AREA_MEMBER
};

/* The area of W, *hw: from the cache, or synthesized into it. */
int dev_area_get(unsigned w, const struct dev_hw *hw, struct dev_area *a, char *err, size_t n);
/* Parse a cached file's "name=value" lines into *a; -1 if one is missing. */
int dev_area_parse(FILE *f, struct dev_area *a);
/* The field names, in order, and their count. */
const char *dev_area_name(unsigned i);
unsigned long dev_area_value(const struct dev_area *a, unsigned i);
#define DEV_AREA_N 8u

#endif
