/* SPDX-License-Identifier: Apache-2.0 */
/*
 * drv_bug.h - deliberately broken driver variants, for driver validation.
 *
 * `--driver-bug NAME` swaps one of these into the driver (txq.c, pktgen.c)
 * so that a test can show the simulator names the bug (sim/check/ownchk.h) and
 * that nothing hangs.  DRV_BUG_NONE is the correct driver.  Bugs that break
 * a rule once fire at the packet with index `at` (struct txq_cfg, struct
 * pktgen_cfg); barrier bugs hold for every packet.  The catalogue with
 * names, scenarios and expected diagnostics is sim/check/bug_catalog.c.
 */
#ifndef NICTX_DRV_BUG_H
#define NICTX_DRV_BUG_H

enum drv_bug {
    DRV_BUG_NONE = 0,
    DRV_BUG_NO_DMA_WMB,        /* owner bit stored with no dma_wmb() before it */
    DRV_BUG_NO_WMB_DOORBELL,   /* doorbell written with no wmb() before it */
    DRV_BUG_BF_NO_SFENCE,      /* BlueFlame copy with no wmb() (sfence) after it */
    DRV_BUG_TAIL_PAST_WRITTEN, /* tail one beyond the last written descriptor */
    DRV_BUG_TAIL_BEYOND_RING,  /* tail value >= ring size */
    DRV_BUG_DESC_REUSE,        /* previous (in-flight) slot rewritten */
    DRV_BUG_BUF_OVERWRITE,     /* an in-flight payload buffer filled again */
    DRV_BUG_WRONG_PHASE,       /* owner phase not flipped on ring wrap */
    DRV_BUG_ZERO_LEN,          /* descriptor length 0 */
    DRV_BUG_LEN_TOO_BIG,       /* descriptor length above 16383 */
    DRV_BUG_BAD_DMA_ADDR,      /* buffer address outside the allocated memory */
    DRV_BUG_BF_NO_WMB,         /* BlueFlame copy with no wmb() before it */
    DRV_BUG_BF_WRONG_SLOT,     /* one BlueFlame block copies the slot after the
                                  batch's last (next_to_use, not next_to_use - 1) */
    DRV_BUG_BF_SAME_BUF,       /* BlueFlame copies never alternate the two buffers */
    DRV_BUG_RECLAIM_PAST_HEAD, /* one cleanup reclaims a descriptor past the head */
    DRV_BUG_OWNER_SKIPPED,     /* one batch's first owner bit never set */
    DRV_BUG_NO_WAKE,           /* the cleanup never wakes a stopped queue */
    DRV_BUG_STOP_NO_RECHECK,   /* the transmit path stops with no smp_mb() and
                                  no re-check of the consumer index */
    DRV_BUG_STOP_NO_MB,        /* it re-checks with no smp_mb() after the stop */
    DRV_BUG_WAKE_NO_MB,        /* the cleanup tests `stopped` with no smp_mb() */
    DRV_BUG_RING_OVERFILL,     /* free room counted from the ring's size, not
                                  size - 1: a full ring reads as empty */
    DRV_BUG_NTC_UNSTORED,      /* the cleanup never stores next_to_clean back */
    DRV_BUG_BQL_SHORT,         /* BQL completed 4 bytes short per frame */
    DRV_BUG_NO_UNMAP,          /* the cleanup never unmaps what it reclaims */
    DRV_BUG_CQ_NO_RMB,         /* a CQE read with no dma_rmb() after its owner bit */
    DRV_BUG_SMP_WMB_DOORBELL,  /* smp_wmb() for wmb() before the doorbell */
    DRV_BUG_OWNER_NO_KICK,     /* owner protocol: owner bits set, no doorbell */
    DRV_BUG_UNMAP_SHORT,       /* the cleanup unmaps each buffer 4 bytes short */
    DRV_BUG_UNMAP_DIR,         /* ... as DMA_FROM_DEVICE (mapped DMA_TO_DEVICE) */
    DRV_BUG_UNMAP_TWICE,       /* ... twice */
    DRV_BUG_UNMAP_BAD_ADDR,    /* ... by an address it never mapped */
    DRV_BUG_COUNT
};

/* The bug acts from packet bug_at on (its first occasion at or after it);
 * the others hold for every packet: the barrier bugs and wrong-phase. */
static inline int drv_bug_uses_at(enum drv_bug b)
{
    switch (b) {
    case DRV_BUG_NONE:
    case DRV_BUG_NO_DMA_WMB:
    case DRV_BUG_NO_WMB_DOORBELL:
    case DRV_BUG_BF_NO_SFENCE:
    case DRV_BUG_BF_NO_WMB:
    case DRV_BUG_BF_SAME_BUF:
    case DRV_BUG_WRONG_PHASE:
    case DRV_BUG_SMP_WMB_DOORBELL:
        return 0;
    default:
        return 1;
    }
}

/* The bug acts once, at its first occasion from packet bug_at on, which
 * may never come (a burst that starts there, a batch still in flight, a
 * doorbell after it): txq's or pktgen's bug_fired says whether it did. */
static inline int drv_bug_one_shot(enum drv_bug b)
{
    switch (b) {
    case DRV_BUG_OWNER_SKIPPED:
    case DRV_BUG_BF_WRONG_SLOT:
    case DRV_BUG_TAIL_PAST_WRITTEN:
    case DRV_BUG_TAIL_BEYOND_RING:
    case DRV_BUG_DESC_REUSE:
    case DRV_BUG_RECLAIM_PAST_HEAD:
    case DRV_BUG_BUF_OVERWRITE:
        return 1;
    default:
        return 0;
    }
}

#endif /* NICTX_DRV_BUG_H */
