/* SPDX-License-Identifier: Apache-2.0 */
/*
 * asm/byteorder.h - cpu_to_le64 and friends, for nictx's kernel layer: the
 * host is little-endian (x86-64, arm64), so the little-endian conversions
 * are the identity and the big-endian ones swap.
 */
#ifndef _NICTX_ASM_BYTEORDER_H
#define _NICTX_ASM_BYTEORDER_H

#include "linux/types.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "nictx's kernel layer assumes a little-endian host"
#endif

#define cpu_to_le16(x) ((__le16)(u16)(x))
#define cpu_to_le32(x) ((__le32)(u32)(x))
#define cpu_to_le64(x) ((__le64)(u64)(x))
#define le16_to_cpu(x) ((u16)(__le16)(x))
#define le32_to_cpu(x) ((u32)(__le32)(x))
#define le64_to_cpu(x) ((u64)(__le64)(x))
#define cpu_to_be16(x) ((__be16)__builtin_bswap16((u16)(x)))
#define cpu_to_be32(x) ((__be32)__builtin_bswap32((u32)(x)))
#define cpu_to_be64(x) ((__be64)__builtin_bswap64((u64)(x)))
#define be16_to_cpu(x) __builtin_bswap16((u16)(__be16)(x))
#define be32_to_cpu(x) __builtin_bswap32((u32)(__be32)(x))
#define be64_to_cpu(x) __builtin_bswap64((u64)(__be64)(x))

#endif
