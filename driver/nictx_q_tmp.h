/* TEMPORARY until the register map lands */
/* SPDX-License-Identifier: Apache-2.0 */
/*
 * nictx_q_tmp.h - the multi-queue registers of /work/spec/queues.md, by
 * hand, until `make regs` generates them into nictx_regs_gen.h.  Each name
 * yields to the generated one (#ifndef).  Delete this file at the merge.
 */
#ifndef NICTX_Q_TMP_H
#define NICTX_Q_TMP_H

/* Global registers (register page). */
#ifndef NICTX_REG_QUEUES
#define NICTX_REG_QUEUES          0x9Cu
#endif
#ifndef NICTX_REG_QUEUES_RESET
#define NICTX_REG_QUEUES_RESET    0x00000001u
#endif
#ifndef NICTX_REG_SCHED
#define NICTX_REG_SCHED           0xA0u
#endif
#ifndef NICTX_REG_SCHED_RESET
#define NICTX_REG_SCHED_RESET     0x00000000u
#endif
#ifndef NICTX_SCHED_RR
#define NICTX_SCHED_RR            0u
#endif
#ifndef NICTX_SCHED_DRR
#define NICTX_SCHED_DRR           1u
#endif
#ifndef NICTX_REG_DRR_QUANTUM
#define NICTX_REG_DRR_QUANTUM     0xA4u
#endif
#ifndef NICTX_REG_DRR_QUANTUM_RESET
#define NICTX_REG_DRR_QUANTUM_RESET 0x00000800u
#endif

/* Queue register blocks. */
#ifndef NICTX_Q_BASE
#define NICTX_Q_BASE              0x1000u
#endif
#ifndef NICTX_Q_STRIDE
#define NICTX_Q_STRIDE            0x40u
#endif
#ifndef NICTX_Q_MAX
#define NICTX_Q_MAX               64u
#endif
#ifndef NICTX_REG_Q
#define NICTX_REG_Q(q, r)         (NICTX_Q_BASE + (q) * NICTX_Q_STRIDE + (r))
#endif
#ifndef NICTX_QREG_TAIL
#define NICTX_QREG_TAIL           0x00u
#endif
#ifndef NICTX_QREG_HEAD
#define NICTX_QREG_HEAD           0x04u
#endif
#ifndef NICTX_QREG_RING_BASE_LO
#define NICTX_QREG_RING_BASE_LO   0x08u
#endif
#ifndef NICTX_QREG_RING_BASE_HI
#define NICTX_QREG_RING_BASE_HI   0x0Cu
#endif
#ifndef NICTX_QREG_RING_LOG2
#define NICTX_QREG_RING_LOG2      0x10u
#endif
#ifndef NICTX_QREG_WEIGHT
#define NICTX_QREG_WEIGHT         0x14u
#endif
#ifndef NICTX_QREG_WEIGHT_RESET
#define NICTX_QREG_WEIGHT_RESET   0x00000001u
#endif
#ifndef NICTX_QREG_WB_ADDR_LO
#define NICTX_QREG_WB_ADDR_LO     0x18u
#endif
#ifndef NICTX_QREG_WB_ADDR_HI
#define NICTX_QREG_WB_ADDR_HI     0x1Cu
#endif
#ifndef NICTX_QREG_CNT_PKTS
#define NICTX_QREG_CNT_PKTS       0x20u
#endif
#ifndef NICTX_QREG_CNT_BYTES_LO
#define NICTX_QREG_CNT_BYTES_LO   0x24u
#endif
#ifndef NICTX_QREG_CNT_BYTES_HI
#define NICTX_QREG_CNT_BYTES_HI   0x28u
#endif

#endif /* NICTX_Q_TMP_H */
