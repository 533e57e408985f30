/* SPDX-License-Identifier: Apache-2.0 */
/*
 * txq_reg.h - where queue q's registers are in BAR0, in one place.
 *
 * The multi-queue spec (issue 8 item 3; docs/user-guide.md, Queues) gives
 * queue q a block of
 * registers at NICTX_REG_Q(q, r), r a NICTX_QREG_* offset, and makes queue
 * 0's block an alias of today's TAIL, HEAD, RING_BASE_*, RING_LOG2,
 * WB_ADDR_*, CQ_BASE_* and CQ_LOG2 (issue 8 item 4: the per-queue CQ).  The driver reaches every queue, queue 0 too, through its
 * block.
 *
 * txq_reg(q, r): the BAR0 offset of queue q's register r.
 * txq_reg_legacy(r): queue 0's register r by its single-queue name, or
 * TXQ_REG_NONE for one that has none (WEIGHT, CNT_*).
 * txq_reg_decode(off, &q, &r): 1 if `off` is a queue register (either
 * form), with its queue and NICTX_QREG_* offset; else 0.
 */
#ifndef NICTX_TXQ_REG_H
#define NICTX_TXQ_REG_H

#include <stdint.h>

#include "nictx_hw.h"

#define TXQ_REG_NONE 0xFFFFFFFFu

/* Queue 0's registers by their names of before the queue blocks. */
static inline uint32_t txq_reg_legacy(uint32_t r)
{
    switch (r) {
    case NICTX_QREG_TAIL: return NICTX_REG_TAIL;
    case NICTX_QREG_HEAD: return NICTX_REG_HEAD;
    case NICTX_QREG_RING_BASE_LO: return NICTX_REG_RING_BASE_LO;
    case NICTX_QREG_RING_BASE_HI: return NICTX_REG_RING_BASE_HI;
    case NICTX_QREG_RING_LOG2: return NICTX_REG_RING_LOG2;
    case NICTX_QREG_WB_ADDR_LO: return NICTX_REG_WB_ADDR_LO;
    case NICTX_QREG_WB_ADDR_HI: return NICTX_REG_WB_ADDR_HI;
    case NICTX_QREG_CQ_BASE_LO: return NICTX_REG_CQ_BASE_LO;
    case NICTX_QREG_CQ_BASE_HI: return NICTX_REG_CQ_BASE_HI;
    case NICTX_QREG_CQ_LOG2: return NICTX_REG_CQ_LOG2;
    default: return TXQ_REG_NONE; /* WEIGHT, CNT_*: the block only */
    }
}

static inline uint32_t txq_reg(unsigned q, uint32_t r)
{
    return NICTX_REG_Q(q, r);
}

static inline int txq_reg_decode(uint32_t off, unsigned *q, uint32_t *r)
{
    static const uint32_t legacy[] = {
        NICTX_QREG_TAIL, NICTX_QREG_HEAD, NICTX_QREG_RING_BASE_LO, NICTX_QREG_RING_BASE_HI,
        NICTX_QREG_RING_LOG2, NICTX_QREG_WB_ADDR_LO, NICTX_QREG_WB_ADDR_HI,
        NICTX_QREG_CQ_BASE_LO, NICTX_QREG_CQ_BASE_HI, NICTX_QREG_CQ_LOG2,
    };

    if (off >= NICTX_Q_BASE && off < NICTX_REG_Q(NICTX_Q_MAX, 0u)) {
        *q = (off - NICTX_Q_BASE) / NICTX_Q_STRIDE;
        *r = (off - NICTX_Q_BASE) % NICTX_Q_STRIDE;
        return 1;
    }
    for (unsigned i = 0; i < sizeof(legacy) / sizeof(legacy[0]); i++)
        if (off == txq_reg_legacy(legacy[i])) {
            *q = 0;
            *r = legacy[i];
            return 1;
        }
    return 0;
}

#endif /* NICTX_TXQ_REG_H */
