/* SPDX-License-Identifier: Apache-2.0 */
/* linux/vmalloc.h - vmalloc and friends, for nictx's kernel layer: as
 * kmalloc (linux/slab.h), shared driver state in the memory model. */
#ifndef _NICTX_LINUX_VMALLOC_H
#define _NICTX_LINUX_VMALLOC_H

#include "linux/slab.h"

#define vmalloc(size) nictx_kmalloc(size, GFP_KERNEL)
#define vzalloc(size) nictx_kmalloc(size, GFP_KERNEL | __GFP_ZERO)
#define vfree(p) kfree(p)

#endif
