/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cover.h - the functional cover points (docs/coverage.md): the one list
 * of their names, written once.  The C model counts the device's
 * (c-model/cm_engine.c), the links count the credit stalls
 * (sim/pcie/pcie_link.c); a run's JSON reports every point's count under
 * "cover" (zeros included), scripts/regress.sh adds them up over the seeds
 * and prints the points never hit, and scripts/coverage.sh reads this list
 * for the RTL's `cover property` of the same name (rtl/, NICTX_COVER).
 *
 * X(id, name, instances, where, what): `instances` 1, or one per queue
 * (name[q] in the JSON and the reports); `where` dev (the C model and the
 * RTL) or link (the simulator's PCIe links, both directions).
 */
#ifndef NICTX_COVER_H
#define NICTX_COVER_H

#define COVER_QUEUES 64 /* the engine's NumQueues: one queue_active point each */

#define COVER_POINTS(X)                                                                         \
    X(RING_WRAP, "ring_wrap", 1, dev, "a doorbell's tail below the queue's last (the ring wrapped)") \
    X(PROTO_TAIL, "proto_tail", 1, dev, "a frame sent under PROTO TAIL")                         \
    X(PROTO_OWNER, "proto_owner", 1, dev, "a frame sent under PROTO OWNER")                      \
    X(PROTO_WC, "proto_wc", 1, dev, "a frame sent under PROTO WC")                               \
    X(CPL_HEAD_WB, "cpl_head_wb", 1, dev, "a frame sent under CPL_MODE HEAD_WB")                 \
    X(CPL_DESC_WB, "cpl_desc_wb", 1, dev, "a frame sent under CPL_MODE DESC_WB")                 \
    X(CPL_CQ, "cpl_cq", 1, dev, "a frame sent under CPL_MODE CQ")                                \
    X(CPL_DESC_WB_FULL, "cpl_desc_wb_full", 1, dev, "a frame sent under CPL_MODE DESC_WB_FULL")  \
    X(ERR_TAIL_RANGE, "err_tail_range", 1, dev, "ERR.TAIL_RANGE set")                            \
    X(ERR_BAD_DESC, "err_bad_desc", 1, dev, "ERR.BAD_DESC set")                                  \
    X(ERR_BAD_ACCESS, "err_bad_access", 1, dev, "ERR.BAD_ACCESS set")                            \
    X(ERR_DMA, "err_dma", 1, dev, "ERR.DMA set")                                                 \
    X(ERR_DB_OFF, "err_db_off", 1, dev, "ERR.DB_OFF set")                                        \
    X(ERR_CFG, "err_cfg", 1, dev, "ERR.CFG set")                                                 \
    X(ERR_CPL_TIMEOUT, "err_cpl_timeout", 1, dev, "ERR.CPL_TIMEOUT set")                         \
    X(ERR_UNEXP_CPL, "err_unexp_cpl", 1, dev, "ERR.UNEXP_CPL set")                               \
    X(TAGS_EXHAUSTED, "tags_exhausted", 1, dev, "an MRd held: no free tag, or MAX_TAGS out")     \
    X(BYTES_FULL, "bytes_full", 1, dev, "an MRd held: MAX_RD_BYTES outstanding")                 \
    X(STALL_PH, "stall_ph", 1, link, "a TLP waited for posted header credits")                   \
    X(STALL_PD, "stall_pd", 1, link, "a TLP waited for posted data credits")                     \
    X(STALL_NPH, "stall_nph", 1, link, "a TLP waited for non-posted header credits")             \
    X(STALL_NPD, "stall_npd", 1, link, "a TLP waited for non-posted data credits")               \
    X(STALL_CPLH, "stall_cplh", 1, link, "a TLP waited for completion header credits")           \
    X(STALL_CPLD, "stall_cpld", 1, link, "a TLP waited for completion data credits")             \
    X(WC_FLIP, "wc_flip", 1, dev, "a BlueFlame block closed in the second buffer")               \
    X(WC_TORN, "wc_torn", 1, dev, "a BlueFlame block closed torn (words missing, out of ring)")  \
    X(WC_STALE, "wc_stale", 1, dev, "a held BlueFlame block found stale")                        \
    X(FLUSH_READS, "flush_reads", 1, dev, "a flush that waits for descriptor reads in flight")  \
    X(QUEUE_ACTIVE, "queue_active", COVER_QUEUES, dev, "a frame of the queue sent")              \
    X(DRR_CARRY, "drr_carry", 1, dev, "a DRR turn ended with its deficit kept")                  \
    X(MOD_TIMER, "mod_timer", 1, dev, "an interrupt raised by the moderation timer")             \
    X(RESET_BUSY, "reset_busy", 1, dev, "a queue reset pending while the datapath has work in flight")

/* Where a point is counted (the list's `where`). */
enum cover_where { COVER_WHERE_dev, COVER_WHERE_link };

/* Each point's first counter: cover[COVER_<id>] (a per-queue point's
 * queue q: cover[COVER_<id> + q]); COVER_N counters in all. */
#define COVER_ENUM(id, name, n, where, what) COVER_##id, COVER_##id##_END_ = COVER_##id + (n) - 1,
enum cover_id { COVER_POINTS(COVER_ENUM) COVER_N };
#undef COVER_ENUM

#endif /* NICTX_COVER_H */
