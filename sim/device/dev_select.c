/* SPDX-License-Identifier: Apache-2.0 */
/* dev_select.c - the device backend of a run by model and width (--device). */
#include <stddef.h>

#include "device/device.h"

const struct device_ops *dev_ops_for(enum dev_backend b, unsigned w)
{
    switch (b) {
    case DEV_BACKEND_RTL: return dev_rtl_ops_width(w);
    case DEV_BACKEND_CM: return dev_cm_ops_width(w);
    case DEV_BACKEND_LOCKSTEP: return dev_lockstep_ops_width(w);
    }
    return NULL;
}
