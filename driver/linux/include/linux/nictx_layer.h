/* SPDX-License-Identifier: Apache-2.0 */
/*
 * linux/nictx_layer.h - what every header of nictx's kernel layer shares:
 * the platform of the CPU running the code (driver/linux/kcpu.h), and the
 * mark that refuses, at compile time and with a message, a kernel call the
 * layer does not model (docs/own-driver.md, What the layer has).  Not a
 * kernel header: a driver never includes it itself.
 */
#ifndef _NICTX_LINUX_NICTX_LAYER_H
#define _NICTX_LINUX_NICTX_LAYER_H

#include "linux/kcpu.h"
#include "platform.h"

/* A declaration marked so cannot be called: the build stops with
 * "call to 'f' declared with attribute error: not modelled by ...". */
#define NICTX_UNMODELLED(what)                                                                  \
    __attribute__((error("not modelled by nictx's kernel layer (driver/linux/): " what       \
                         "; docs/own-driver.md, What the layer has")))

#endif
