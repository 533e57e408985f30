/* SPDX-License-Identifier: Apache-2.0 */
/*
 * linux/string.h - memcpy and memset, for nictx's kernel layer: each
 * 8-byte piece is a load and a store (memcpy) or a store (memset) as the
 * memory model sees the driver's own (platform.h, plat_access), so a
 * descriptor written with memcpy is written as with plain stores.  A copy
 * the compiler makes by itself (a large struct assignment, an array's
 * zeroing) calls memcpy or memset, not through this header: the build
 * points those calls at these (scripts/kdrv-cc.sh), and refuses a driver
 * object that calls memmove (docs/own-driver.md).
 */
#ifndef _NICTX_LINUX_STRING_H
#define _NICTX_LINUX_STRING_H

#include "linux/types.h"

void *nictx_memcpy(void *dst, const void *src, size_t n);
void *nictx_memset(void *dst, int c, size_t n);
#define memcpy(d, s, n) nictx_memcpy(d, s, n)
#define memset(d, c, n) nictx_memset(d, c, n)

#endif
