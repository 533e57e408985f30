/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dev_cache.h - the caches of the hardware combinations (docs/codesign.md):
 * where they are, and the scripts that fill them.
 *
 * <root> is the repository that holds the running binary: the first
 * directory above it with scripts/model-build.sh (NICTX_ROOT overrides it).
 * The models are cached in <root>/build/models (NICTX_MODEL_CACHE
 * overrides it; sim/device/dev_models.h), the areas in <root>/build/area
 * (sim/device/dev_area.h).  A script is run as
 * `SCRIPT CACHE KEY W Name=Value...` (the key and the RTL parameters of
 * sim/device/dev_hw.h) and fills CACHE/KEY under a lock of its own.
 *
 * Contract: no global state; 0, or -1 with a one-line message.
 */
#ifndef NICTX_DEV_CACHE_H
#define NICTX_DEV_CACHE_H

#include <stddef.h>

#include "device/device.h"

#define DEV_CACHE_BUILDER "scripts/model-build.sh"

/* The repository root and the model cache directory (see above). */
int dev_cache_dirs(char *root, size_t rn, char *cache, size_t cn, char *err, size_t n);
/* Run `script` (relative to root) for W and *hw into cache, and wait for
 * it: 0 if it exited 0, else -1.  Its output goes where nictx's does. */
int dev_cache_script(const char *root, const char *script, const char *cache, unsigned w,
                     const struct dev_hw *hw, char *err, size_t n);

#endif
