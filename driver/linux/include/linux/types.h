/* SPDX-License-Identifier: Apache-2.0 */
/*
 * linux/types.h - the kernel's fixed-width and bus types, for nictx's
 * kernel layer (docs/own-driver.md).  Little-endian host: the __le types
 * are their CPU types (no sparse checking).
 */
#ifndef _NICTX_LINUX_TYPES_H
#define _NICTX_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "platform.h" /* dma_addr_t */

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef u16 __le16;
typedef u32 __le32;
typedef u64 __le64;
typedef u16 __be16;
typedef u32 __be32;
typedef u64 __be64;
typedef u64 resource_size_t;
typedef u64 phys_addr_t;
typedef unsigned int gfp_t;
typedef long ssize_t;

/* atomic_t: linux/atomic.h */
typedef struct {
    int counter;
} atomic_t;

#define __iomem
#define __force
#define __rcu
#define __user

#endif
