/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dev_rtl_widths.c - the Verilated RTL model for a datapath width
 * (sim/device/device.h).  Linked with every model (nictx and the width tests);
 * binaries that use only the default model do without it.
 */
#include "device/device.h"

const struct device_ops *dev_rtl_ops_width(unsigned w)
{
    switch (w) {
    case 8: return &dev_rtl_ops_w8;
    case 16: return &dev_rtl_ops_w16;
    case 32: return &dev_rtl_ops_w32;
    case 64: return &dev_rtl_ops_w64;
    default: return NULL;
    }
}

const struct device_ops *dev_rtl_trace_ops_width(unsigned w)
{
    const struct device_ops *o = dev_rtl_ops_width(w);

    return o ? o->traced : NULL;
}
