/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dev_hw.h - the hardware parameters of a device model (struct dev_hw,
 * sim/device/device.h) as data: one table names each one's RTL parameter
 * (rtl/nictx_tx_top.sv), its letter in a model's key, its range and its
 * default; the checks, the key (build/models/<key>/, docs/codesign.md) and
 * the Verilator and Yosys parameter lists are written from it.
 *
 * Contract: pure functions over const data; no global state.  Functions
 * that can fail return 0 or -1 and write a one-line message.
 */
#ifndef NICTX_DEV_HW_H
#define NICTX_DEV_HW_H

#include <stddef.h>

#include "device/device.h"

#define DEV_HW_KEY_MAX 96 /* a key's bytes, the terminating 0 included */
#define DEV_HW_NPARAMS 7  /* DataBytes and struct dev_hw's six */

/* 1 if W and *hw are the prebuilt models' combination (DEV_WIDTH_* any,
 * struct dev_hw DEV_HW_DEFAULT). */
int dev_hw_is_default(const struct dev_hw *hw);
/* 0 if the RTL and the C model both take W and *hw (each parameter in its
 * range; the payload buffer holds the descriptor buffer and a 16383-byte
 * frame); else -1 and why. */
int dev_hw_check(unsigned w, const struct dev_hw *hw, char *err, size_t n);
/* The model's key: "w8-q64-t256-r8-d256-p32768-k256" (width, queues, tags,
 * desc reads, desc buf, payload buffer, frames). */
void dev_hw_key(unsigned w, const struct dev_hw *hw, char out[DEV_HW_KEY_MAX]);
/* The RTL parameter i (0..DEV_HW_NPARAMS-1): its name and value at W, *hw. */
const char *dev_hw_param_name(unsigned i);
unsigned dev_hw_param_value(unsigned i, unsigned w, const struct dev_hw *hw);

#endif
