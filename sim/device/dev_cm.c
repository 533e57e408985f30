/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dev_cm.c - the C model of the engine (c-model/cm_engine.h) behind struct
 * device_ops, one ops per datapath width as the RTL's (sim/device/device.h).
 */
#include <stddef.h>

#include "cm_engine.h"
#include "device/device.h"

#define DEV_CM_WIDTH(w)                                                                         \
    static void *cm_create_w##w(void) { return cm_engine_create(w); }                          \
    static const struct device_ops dev_cm_ops_w##w = {"c",        w,        cm_create_w##w,    \
                                                       cm_destroy, cm_reset, cm_step, NULL};

static void cm_destroy(void *dev) { cm_engine_destroy(dev); }
static void cm_reset(void *dev) { cm_engine_reset(dev); }
static void cm_step(void *dev, const struct dev_in *in, struct dev_out *out)
{
    cm_engine_step(dev, in, out);
}

DEV_CM_WIDTH(8)
DEV_CM_WIDTH(16)
DEV_CM_WIDTH(32)
DEV_CM_WIDTH(64)

const struct device_ops *dev_cm_ops_width(unsigned w)
{
    switch (w) {
    case 8: return &dev_cm_ops_w8;
    case 16: return &dev_cm_ops_w16;
    case 32: return &dev_cm_ops_w32;
    case 64: return &dev_cm_ops_w64;
    default: return NULL;
    }
}
