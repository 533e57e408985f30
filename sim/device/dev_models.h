/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dev_models.h - the device models of a run at any hardware combination
 * (struct dev_hw; docs/codesign.md).
 *
 * The default combination (DEV_HW_DEFAULT) is the prebuilt models'
 * (dev_ops_for).  Another is:
 *  - the C model, which takes the parameters at run time
 *    (dev_cm_create_with);
 *  - the Verilated RTL built for it into the model cache,
 *    <root>/build/models/<key>/model.so (dev_hw_key), by
 *    scripts/model-build.sh on the first run that asks (a progress line on
 *    stderr; one builder per key under a lock, installed by a rename), then
 *    loaded with dlopen;
 *  - both in lockstep.
 * The cache and the builder: sim/device/dev_cache.h.
 *
 * Contract: a struct dev_models owns the ops it hands out and the loaded
 * model; they live until dev_models_close, after every device made from
 * them is destroyed.  No global state.
 */
#ifndef NICTX_DEV_MODELS_H
#define NICTX_DEV_MODELS_H

#include <stddef.h>

#include "device/device.h"

struct dev_models {
    struct dev_hw hw;
    void *so;                    /* the RTL model's shared object, or NULL */
    struct device_ops rtl, cm, cmw, ls; /* cmw: the C model with waveforms */
};

void dev_models_init(struct dev_models *m);
/* The ops of backend `b` at W and *hw (building the RTL model if the cache
 * has none); NULL with a message when the combination is refused
 * (dev_hw_check) or its model cannot be built or loaded. */
const struct device_ops *dev_models_ops(struct dev_models *m, enum dev_backend b, unsigned w,
                                        const struct dev_hw *hw, char *err, size_t n);
void dev_models_close(struct dev_models *m);
#endif
