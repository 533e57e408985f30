/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_probe.h - the C model's signals in a waveform, by the RTL's names
 * (docs/observability.md, Waveforms).
 *
 * Each entry names a signal of the Verilated RTL (its scope under
 * nictx.nictx_tx_top, its name, its width) that the C model has exactly,
 * clock for clock: a register of a block (its value before the edge) or a
 * net of the top the C model works out on every clock.  With a probe
 * attached (cm_engine_probe), every clock leaves each one's value in the
 * caller's array, so a waveform of the C model and one of the RTL show the
 * same names with the same values (tests/sim/test_observe.c compares
 * them); the ports are the device port's (sim/device/dev_cm.c).
 * Per-queue registers are the CM_PROBE_QUEUES entries of u_regs' tail
 * array, "tail_m[q]".
 */
#ifndef NICTX_CM_PROBE_H
#define NICTX_CM_PROBE_H

#include <stdint.h>

/* X(id, scope, name, width) */
#define CM_PROBE_SIGNALS(X)                                \
    X(DOORBELL, "", "doorbell", 1)                         \
    X(DB_Q, "", "db_q", 6)                                 \
    X(DB_TAIL, "", "db_tail", 16)                          \
    X(S_Q, "", "s_q", 6)                                   \
    X(F_Q, "", "f_q", 6)                                   \
    X(Q_WORK, "", "q_work", 64)                            \
    X(Q_RDY, "", "q_rdy", 64)                              \
    X(DESC_VALID, "", "desc_valid", 1)                     \
    X(DESC_TAKE, "", "desc_take", 1)                       \
    X(MRD_VALID, "", "mrd_valid", 1)                       \
    X(MRD_TAG, "", "mrd_tag", 8)                           \
    X(MRD_ADDR, "", "mrd_addr", 64)                        \
    X(MRD_LEN, "", "mrd_len", 13)                          \
    X(MRD_DEST, "", "mrd_dest", 1)                         \
    X(RD_STALL, "", "rd_stall", 1)                         \
    X(FR_VALID, "", "fr_valid", 1)                         \
    X(FR_SOP, "", "fr_sop", 1)                             \
    X(FR_EOP, "", "fr_eop", 1)                             \
    X(FR_LEN, "", "fr_len", 14)                            \
    X(PKT_DONE, "", "pkt_done", 1)                         \
    X(PKT_Q, "", "pkt_q", 6)                               \
    X(PKT_LEN, "", "pkt_len", 14)                          \
    X(PKT_SENT, "", "pkt_sent", 1)                         \
    X(CW_VALID, "", "cw_valid", 1)                         \
    X(RD_OUT, "u_dma_rd", "out_q", 9)                      \
    X(RD_OBYTES, "u_dma_rd", "obytes_q", 21)               \
    X(RD_FRESH, "u_dma_rd", "fresh_q", 9)                  \
    X(RD_MRD_VALID, "u_dma_rd", "mrd_valid_q", 1)          \
    X(RD_WAIT, "u_dma_rd", "wait_q", 24)                   \
    X(DF_WORK, "u_desc_fetch", "work_q", 64)               \
    X(DF_RDY, "u_desc_fetch", "rdy_q", 64)                 \
    X(DF_ARMED, "u_desc_fetch", "armed_q", 64)             \
    X(DF_REQ_VALID, "u_desc_fetch", "req_valid_q", 1)      \
    X(DF_TOT, "u_desc_fetch", "tot_q", 9)                  \
    X(SC_PTR, "u_tx_sched", "ptr_q", 6)                    \
    X(SC_HQ, "u_tx_sched", "hq_q", 6)                      \
    X(SC_HOLD, "u_tx_sched", "hold_q", 1)                  \
    X(SC_TURN, "u_tx_sched", "turn_q", 1)                  \
    X(PF_ALLOC, "u_payload_fetch", "alloc_q", 13)          \
    X(PF_BASE, "u_payload_fetch", "base_q", 13)            \
    X(PF_BEAT, "u_payload_fetch", "beat_q", 12)            \
    X(PF_REQ_VALID, "u_payload_fetch", "req_valid_q", 1)   \
    X(MAC_CREDIT, "u_mac", "credit_q", 32)                 \
    X(MAC_IN_FRAME, "u_mac", "in_frame_q", 1)              \
    X(MAC_CRC, "u_mac", "crc_q", 32)                       \
    X(CPL_HEAD, "u_cpl", "head_q", 16)                     \
    X(CPL_WB_CNT, "u_cpl", "wb_cnt_q", 16)                 \
    X(CPL_IRQ_CNT, "u_cpl", "irq_cnt_q", 16)               \
    X(CPL_TMR, "u_cpl", "tmr_q", 24)                       \
    X(CPL_TMR_RUN, "u_cpl", "tmr_run_q", 1)                \
    X(CPL_WB_PEND, "u_cpl", "wb_pend_q", 1)                \
    X(CPL_IRQ_PEND, "u_cpl", "irq_pend_q", 1)              \
    X(CPL_MPEND, "u_cpl", "mpend_q", 64)                   \
    X(CPL_MIRQ, "u_cpl", "mirq_q", 64)                     \
    X(RG_ENABLE, "u_regs", "enable_q", 1)                  \
    X(RG_ERR, "u_regs", "err_q", 8)

#define CM_PROBE_ID(id, scope, name, width) CM_P_##id,
enum cm_probe_id { CM_PROBE_SIGNALS(CM_PROBE_ID) CM_P_TAIL0 };
#undef CM_PROBE_ID
#define CM_PROBE_QUEUES 64
#define CM_PROBE_N (CM_P_TAIL0 + CM_PROBE_QUEUES)

struct cm_probe_def {
    const char *scope; /* under nictx.nictx_tx_top; "" for the top itself */
    const char *name;
    unsigned width;
};

/* Entry i's definition (i < CM_PROBE_N; the tail array's names are
 * "tail_m[q]" in u_regs). */
void cm_probe_def(unsigned i, struct cm_probe_def *d, char *name_buf, unsigned n);

#endif /* NICTX_CM_PROBE_H */
