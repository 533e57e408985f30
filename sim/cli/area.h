/* SPDX-License-Identifier: Apache-2.0 */
/*
 * area.h - `nictx area [options]`: the engine's area at the hardware
 * combination the options give (--dev-width and the --hw-* options; any
 * `nictx run` option is accepted, the others do not change the area), by
 * Yosys 0.23 (sim/device/dev_area.h; docs/codesign.md).
 *
 * Contract: no global state; the exit status is 0, or 1 when synthesis
 * failed, 2 for a bad argument.
 */
#ifndef NICTX_CLI_AREA_H
#define NICTX_CLI_AREA_H

/* argv[0] is "area". */
int cli_area_main(int argc, char **argv);

#endif
