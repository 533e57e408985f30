/* SPDX-License-Identifier: Apache-2.0 */
/*
 * nictx_hw.h - the device's programming interface as the driver sees it:
 * BAR0 registers and the transmit descriptor layout.
 *
 * The register map (NICTX_REG_* offsets, field masks, reset values,
 * NICTX_PROTO_*, NICTX_WC_BASE, NICTX_BAR0_SIZE and the table NICTX_REGS)
 * is generated from rtl/regs/nictx_regs.rdl into nictx_regs_gen.h by
 * `make regs`, like the RTL's package rtl/nictx_reg_pkg.sv; docs/device.md
 * has the table.  tests/engine/test_limits.c reads every register's reset value
 * and access at the device port from that table, so the map and the RTL
 * cannot disagree unnoticed.  What is written here by hand is the layout of
 * what the driver writes into memory and into the WC window.
 *
 * All registers are 32 bits, little-endian, 4-byte aligned.  64-bit values
 * are LO/HI pairs at an 8-byte aligned offset and may be written with one
 * 64-bit MMIO write.
 */
#ifndef NICTX_HW_H
#define NICTX_HW_H

#include <stdint.h>

#include "nictx_regs_gen.h"

/* Names kept from before the map was generated. */
#define NICTX_ID_VALUE          NICTX_REG_ID_RESET          /* "nx", version 1 */
#define NICTX_CPL_TIMEOUT_RESET NICTX_REG_CPL_TIMEOUT_RESET /* 1 ms at 250 MHz */

/*
 * Write-combining descriptor push (BlueFlame): two 256-byte buffers in the
 * BAR0 WC window (NICTX_WC_BASE), used alternately.  The driver copies a
 * 64-byte block into one with 64-bit stores through a WC mapping; the block
 * is closed by the write of its last 8-byte word (offset 56).  Block layout:
 * bytes 0..15 the descriptor (owner bit included), bytes 16..17 its ring
 * index, the rest zero.
 */
#define NICTX_WC_BUF_SIZE      0x100u
#define NICTX_WC_BUFS          2u
#define NICTX_WC_BLOCK         64u
#define NICTX_WC_IDX_OFF       16u
#if NICTX_WC_BUF_SIZE * NICTX_WC_BUFS != NICTX_WC_SIZE
#error "the WC buffers do not fill the register map's WC window"
#endif

/*
 * Transmit descriptor, 16 bytes, little-endian, in host memory.
 * One descriptor carries one whole frame (without FCS; the MAC appends it).
 */
struct nictx_tx_desc {
    uint64_t addr;      /* bus address of the frame's first byte, any alignment */
    uint32_t len_flags; /* [15:0] length in bytes (1..16383); [31:16] flags */
    uint32_t rsvd;      /* [31] owner bit (NICTX_PROTO_OWNER/WC); other bits 0 */
};

/* Owner bit in rsvd.  The device owns a descriptor whose owner bit equals the
 * ring pass's phase: 1 on the first pass over the ring, 0 on the second, ... */
#define NICTX_DESC_OWNER 0x80000000u

/* Descriptor writeback (CPL_MODE DESC_WB): the device sets the done bit in
 * rsvd of the last descriptor of each completion batch, with bit 31 the
 * phase of its ring pass (1 on the first pass); the driver counts a DD only
 * with the phase it gave the slot, so one left from the previous pass is
 * never taken for new. */
#define NICTX_DESC_DD 0x1u

/* Completion queue entry (CPL_MODE CQ), 8 bytes, little-endian: [15:0] the
 * last descriptor the batch completed, [31:16] how many it completed, [63]
 * the phase: 1 on the first pass over the CQ, flipped each wrap. */
#define NICTX_CQE_BYTES 8u
#define NICTX_CQE_IDX_MASK 0xFFFFull
#define NICTX_CQE_CNT_SHIFT 16u
#define NICTX_CQE_PHASE (1ull << 63)

#define NICTX_DESC_BYTES 16u
#define NICTX_DESC_LEN_MASK 0x3FFFu

#endif /* NICTX_HW_H */
