/*
 * nictx_hw.h - the device's programming interface as the driver sees it:
 * BAR0 register offsets and the transmit descriptor layout.
 *
 * The RTL (rtl/nictx_pkg.sv) defines the same offsets; tests/test_limits.c
 * reads every register's reset value and bounds at the device port, so a
 * mismatch fails there.
 *
 * All registers are 32 bits, little-endian, 4-byte aligned.  64-bit values
 * are LO/HI pairs at an 8-byte aligned offset and may be written with one
 * 64-bit MMIO write.
 */
#ifndef NICTX_HW_H
#define NICTX_HW_H

#include <stdint.h>

#define NICTX_REG_CTRL         0x00u /* RW  bit0 enable; bit1 reset (write 1 while disabled:
                                        queue reset, docs/faults.md) */
#define NICTX_REG_ERR          0x04u /* W1C error bits, NICTX_ERR_* */
#define NICTX_REG_RING_BASE_LO 0x08u /* RW  ring bus address, 16-byte aligned */
#define NICTX_REG_RING_BASE_HI 0x0Cu
#define NICTX_REG_RING_LOG2    0x10u /* RW  ring size = 1 << n, n in 3..16 */
#define NICTX_REG_TAIL         0x14u /* RW  doorbell: index of the next free slot (reads back) */
#define NICTX_REG_HEAD         0x18u /* RO  index of the next descriptor to complete */
#define NICTX_REG_WB_THRESH    0x1Cu /* RW  head writeback every n completions, 0..65535;
                                        0 = off */
#define NICTX_REG_WB_ADDR_LO   0x20u /* RW  head writeback address, 4-byte aligned; 0 = off */
#define NICTX_REG_WB_ADDR_HI   0x24u
#define NICTX_REG_IRQ_THRESH   0x28u /* RW  interrupt every n completions, 0..65535;
                                        0 = off */
#define NICTX_REG_IRQ_DATA     0x2Cu /* RW  MSI-X message data */
#define NICTX_REG_IRQ_ADDR_LO  0x30u /* RW  MSI-X message address, 4-byte aligned */
#define NICTX_REG_IRQ_ADDR_HI  0x34u
#define NICTX_REG_MRRS_LOG2    0x38u /* RW  max read request size = 1 << n, n in 7..12 */
#define NICTX_REG_LINE_RATE    0x3Cu /* RW  wire bytes per device cycle, unsigned 8.16 fixed */
#define NICTX_REG_CNT_PKTS     0x40u /* RO  frames sent */
#define NICTX_REG_CNT_BYTES_LO 0x44u /* RO  frame bytes sent (without FCS) */
#define NICTX_REG_CNT_BYTES_HI 0x48u
#define NICTX_REG_CNT_DOORBELL 0x4Cu /* RO  tail writes accepted */
#define NICTX_REG_CNT_DESC_RD  0x50u /* RO  descriptor-fetch MRd TLPs */
#define NICTX_REG_CNT_DMA_RD   0x54u /* RO  all MRd TLPs */
#define NICTX_REG_ID           0x58u /* RO  NICTX_ID_VALUE */
#define NICTX_REG_DESC_FETCH_MAX 0x5Cu /* RW  descriptors per fetch, 1..32 */
#define NICTX_REG_MAX_TAGS     0x60u /* RW  DMA read tags in use at once, 1..256 (reset 32) */
#define NICTX_REG_MAX_RD_BYTES 0x64u /* RW  requested DMA read bytes outstanding: 0 = no
                                        limit, else 4096..2^21-1 (reset 0) */
#define NICTX_REG_CNT_RD_STALL 0x68u /* RO  cycles a ready MRd waited for a tag or bytes */
#define NICTX_REG_PROTO        0x6Cu /* RW  ownership protocol, NICTX_PROTO_* (reset 0) */
#define NICTX_REG_CNT_NOT_OWNED 0x70u /* RO  descriptors fetched but not owned (discarded) */
#define NICTX_REG_CNT_WC       0x74u /* RO  WC-pushed descriptors used (reads saved) */
#define NICTX_REG_CNT_WC_DROP  0x78u /* RO  WC blocks dropped: torn, stale or out of order */
#define NICTX_REG_STATUS       0x7Cu /* RO  NICTX_STATUS_* */
#define NICTX_REG_CPL_TIMEOUT  0x80u /* RW  DMA read completion timeout, device cycles,
                                        0..2^24-1; 0 = off (reset 250000: 1 ms at 250 MHz) */

/*
 * Write-combining descriptor push (BlueFlame): two 256-byte buffers in BAR0,
 * used alternately.  The driver copies a 64-byte block into one with 64-bit
 * stores through a WC mapping; the block is closed by the write of its last
 * 8-byte word (offset 56).  Block layout: bytes 0..15 the descriptor (owner
 * bit included), bytes 16..17 its ring index, the rest zero.
 */
#define NICTX_WC_BASE          0x200u
#define NICTX_WC_BUF_SIZE      0x100u
#define NICTX_WC_BUFS          2u
#define NICTX_WC_BLOCK         64u
#define NICTX_WC_IDX_OFF       16u
#define NICTX_BAR0_SIZE        0x400u

/* NICTX_REG_PROTO values. */
#define NICTX_PROTO_TAIL  0u /* device owns the slots between head and the tail doorbell */
#define NICTX_PROTO_OWNER 1u /* per-descriptor owner bit with a phase; doorbell = kick */
#define NICTX_PROTO_WC    2u /* owner, and the last of a batch pushed through BAR0 WC */

#define NICTX_ID_VALUE 0x6e780001u /* "nx", version 1 */

#define NICTX_CTRL_ENABLE 0x1u
#define NICTX_CTRL_RESET  0x2u /* queue reset, taken once quiescent: tail, head,
                                  fetch state and ERR cleared; config and counters kept */

#define NICTX_STATUS_QUIESCENT 0x1u /* a queue reset now cuts no frame and no TLP */
#define NICTX_STATUS_IDLE      0x2u /* nothing in flight in the datapath */
#define NICTX_STATUS_RESETTING 0x4u /* a queue reset waits for quiescence */
#define NICTX_CPL_TIMEOUT_RESET 250000u

#define NICTX_ERR_TAIL_RANGE 0x1u /* a tail write beyond the ring was ignored */
#define NICTX_ERR_BAD_DESC   0x2u /* a descriptor with length 0 or > 16383 was skipped */
#define NICTX_ERR_BAD_ACCESS 0x4u /* a write to an unknown or read-only offset, a value out
                                      of range, an access of a bad size, or any access
                                      beyond the register page (a read of an unused offset
                                      inside it returns 0 and sets nothing) */
#define NICTX_ERR_DMA        0x8u /* a DMA read completed with an error status (UR, CA) or
                                     poisoned (EP): what it carried was skipped and the
                                     queue stopped */
#define NICTX_ERR_DB_OFF     0x10u /* a doorbell (tail write or WC block) while disabled:
                                      ignored */
#define NICTX_ERR_CFG        0x20u /* refused: ring base, ring size or protocol written while
                                      enabled, enable with ring base 0, reset while enabled */
#define NICTX_ERR_CPL_TIMEOUT 0x40u /* a DMA read's completion never came: the queue is
                                       stopped until a queue reset */
#define NICTX_ERR_UNEXP_CPL  0x80u /* a completion for no outstanding read: discarded */

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

#define NICTX_DESC_BYTES 16u
#define NICTX_DESC_LEN_MASK 0x3FFFu

#endif /* NICTX_HW_H */
