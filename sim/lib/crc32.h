/* SPDX-License-Identifier: Apache-2.0 */
/*
 * crc32.h - the Ethernet FCS: CRC-32 of IEEE 802.3 (reflected polynomial
 * 0xEDB88320).  The scoreboard checks every frame's FCS with it; the C
 * model's MAC (c-model/cm_mac.c) computes the FCS with it.  Pure functions.
 */
#ifndef NICTX_CRC32_H
#define NICTX_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* The CRC register after shifting in p[0..n) from register c (reflected,
 * no inversion on the way in or out). */
uint32_t crc32_update(uint32_t c, const uint8_t *p, size_t n);

/* The FCS of buf[0..len): initial value 0xFFFFFFFF, final xor 0xFFFFFFFF,
 * i.e. ~crc32_update(0xFFFFFFFF, buf, len).  The MAC sends it least
 * significant byte first. */
uint32_t crc32_fcs(const uint8_t *buf, size_t len);

#endif
