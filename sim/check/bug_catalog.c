/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bug_catalog.c - the catalogue of broken drivers (see bug_catalog.h).
 */
#include "check/bug_catalog.h"

#include <string.h>

static const struct bug_entry bug_entries[] = {
    {DRV_BUG_NO_DMA_WMB, "no-dma-wmb", "owner bit stored with no dma_wmb() before it",
     TXQ_PROTO_OWNER, STBUF_WEAK, 8, "owner_before_body", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_NO_WMB_DOORBELL, "no-wmb-doorbell", "tail doorbell written with no wmb() before it",
     TXQ_PROTO_TAIL, STBUF_WEAK, 8, "doorbell_before_desc", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_BF_NO_SFENCE, "bf-no-sfence", "BlueFlame copy with no wmb() (sfence) after it",
     TXQ_PROTO_WC, STBUF_X86, 1, "wc_unfenced", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_TAIL_PAST_WRITTEN, "tail-past-written",
     "tail doorbell one slot beyond the last written descriptor", TXQ_PROTO_TAIL, STBUF_X86, 8,
     "tail_past_written", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_TAIL_BEYOND_RING, "tail-beyond-ring", "tail doorbell value beyond the ring",
     TXQ_PROTO_TAIL, STBUF_X86, 8, "tail_out_of_range", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_DESC_REUSE, "desc-reuse",
     "rewrites the previous descriptor (still in flight) through a stale index",
     TXQ_PROTO_TAIL, STBUF_X86, 8, "desc_reuse", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_BUF_OVERWRITE, "buf-overwrite",
     "fills the previous packet's buffer again while it is in flight", TXQ_PROTO_TAIL,
     STBUF_X86, 8, "buf_overwrite", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_WRONG_PHASE, "wrong-phase", "owner bit phase not flipped on ring wrap",
     TXQ_PROTO_OWNER, STBUF_X86, 8, "owner_wrong_phase", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_ZERO_LEN, "zero-len", "one descriptor with length 0", TXQ_PROTO_TAIL, STBUF_X86,
     8, "desc_zero_len", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_LEN_TOO_BIG, "len-too-big", "one descriptor with length above 16383",
     TXQ_PROTO_TAIL, STBUF_X86, 8, "desc_len_too_big", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_BAD_DMA_ADDR, "bad-dma-addr",
     "one descriptor pointing outside the allocated DMA memory", TXQ_PROTO_TAIL, STBUF_X86, 8,
     "desc_addr_unmapped", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_BF_NO_WMB, "bf-no-wmb", "BlueFlame copy with no wmb() before it", TXQ_PROTO_WC,
     STBUF_WEAK, 1, "wc_before_desc", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_BF_WRONG_SLOT, "bf-wrong-slot",
     "one BlueFlame block copies the slot after the batch's last", TXQ_PROTO_WC, STBUF_X86, 4,
     "wc_mismatch", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_BF_SAME_BUF, "bf-same-buf", "BlueFlame copies never alternate the two WC buffers",
     TXQ_PROTO_WC, STBUF_X86, 1, "wc_reuse", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_RECLAIM_PAST_HEAD, "reclaim-past-head",
     "one cleanup reclaims a descriptor past the head the device reported", TXQ_PROTO_TAIL,
     STBUF_X86, 8, "reclaim_past_head", 1518, 1, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_OWNER_SKIPPED, "owner-skipped", "one descriptor's owner bit is never set",
     TXQ_PROTO_OWNER, STBUF_X86, 8, "desc_unpublished", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_NO_WAKE, "no-wake", "the cleanup never wakes the queue once it has stopped",
     TXQ_PROTO_TAIL, STBUF_X86, 8, "lost_wakeup", 1518, 1, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_STOP_NO_RECHECK, "stop-no-recheck",
     "the transmit path stops the queue with no smp_mb() and no re-check", TXQ_PROTO_TAIL,
     STBUF_X86, 8, "stop_no_recheck", 1518, 2, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_STOP_NO_MB, "stop-no-mb", "the transmit path re-checks with no smp_mb() after the stop",
     TXQ_PROTO_TAIL, STBUF_X86, 8, "stop_unordered", 1518, 2, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_WAKE_NO_MB, "wake-no-mb", "the cleanup tests stopped with no smp_mb() before it",
     TXQ_PROTO_TAIL, STBUF_X86, 8, "wake_unordered", 1518, 2, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_RING_OVERFILL, "ring-overfill",
     "free room counted from the ring's size, not size - 1 (one descriptor too many)",
     TXQ_PROTO_TAIL, STBUF_X86, 8, "ring_overfill", 1518, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_NTC_UNSTORED, "ntc-unstored",
     "the cleanup reclaims but never stores next_to_clean back", TXQ_PROTO_TAIL, STBUF_X86, 8,
     "completion_unreclaimed", 1518, 1, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_BQL_SHORT, "bql-short", "the cleanup tells BQL each frame 4 bytes short",
     TXQ_PROTO_TAIL, STBUF_X86, 8, "bql_unbalanced", 0, 0, 1, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_NO_UNMAP, "no-unmap", "the cleanup never unmaps the buffers it reclaims",
     TXQ_PROTO_TAIL, STBUF_X86, 8, "unmap_missing", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_CQ_NO_RMB, "cq-no-rmb", "a CQE's index read with no dma_rmb() after its owner bit",
     TXQ_PROTO_TAIL, STBUF_WEAK, 8, "load_reordered", 0, 0, 0, TXQ_CLEAN_CQ, 20},
    {DRV_BUG_SMP_WMB_DOORBELL, "smp-wmb-doorbell", "smp_wmb() where wmb() belongs, before the doorbell",
     TXQ_PROTO_TAIL, STBUF_WEAK, 8, "doorbell_before_desc", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_OWNER_NO_KICK, "owner-no-kick", "owner bits set with no doorbell after them",
     TXQ_PROTO_OWNER, STBUF_X86, 8, "doorbell_missing", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_UNMAP_SHORT, "unmap-short", "the cleanup unmaps each buffer 4 bytes short",
     TXQ_PROTO_TAIL, STBUF_X86, 8, "dma_unmap_size", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_UNMAP_DIR, "unmap-dir", "the cleanup unmaps as DMA_FROM_DEVICE what was mapped to it",
     TXQ_PROTO_TAIL, STBUF_X86, 8, "dma_unmap_dir", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_UNMAP_TWICE, "unmap-twice", "the cleanup unmaps each buffer twice", TXQ_PROTO_TAIL,
     STBUF_X86, 8, "dma_unmap_twice", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
    {DRV_BUG_UNMAP_BAD_ADDR, "unmap-bad-addr",
     "the cleanup unmaps by a corrupted address, one it never mapped", TXQ_PROTO_TAIL,
     STBUF_X86, 8, "dma_unmap_unknown", 0, 0, 0, TXQ_CLEAN_HEAD_WB, 0},
};

_Static_assert(sizeof(bug_entries) / sizeof(bug_entries[0]) == DRV_BUG_COUNT - 1,
               "every drv_bug has a catalogue entry");

const struct bug_entry *bug_catalog(size_t *n)
{
    *n = sizeof(bug_entries) / sizeof(bug_entries[0]);
    return bug_entries;
}

const struct bug_entry *bug_find(const char *name)
{
    size_t i, n;
    const struct bug_entry *e = bug_catalog(&n);

    for (i = 0; i < n; i++)
        if (strcmp(e[i].name, name) == 0)
            return &e[i];
    return NULL;
}

const char *bug_name(enum drv_bug bug)
{
    size_t i, n;
    const struct bug_entry *e = bug_catalog(&n);

    for (i = 0; i < n; i++)
        if (e[i].bug == bug)
            return e[i].name;
    return "none";
}

void bug_catalog_print(FILE *f)
{
    static const char *const proto[] = {"tail", "owner", "wc"};
    size_t i, n;
    const struct bug_entry *e = bug_catalog(&n);

    fprintf(f, "%-18s %-36s %-21s %s\n", "driver bug", "bites with", "diagnostic", "what it does");
    for (i = 0; i < n; i++) {
        char scen[112];
        snprintf(scen, sizeof(scen), "--protocol %s --ordering %s --burst %u",
                 proto[e[i].proto], e[i].ordering == STBUF_WEAK ? "weak" : "x86", e[i].burst);
        size_t k = strlen(scen);
        if (e[i].pkt_size)
            k += (size_t)snprintf(scen + k, sizeof(scen) - k, " --pkt-size %u", e[i].pkt_size);
        if (e[i].cpus)
            k += (size_t)snprintf(scen + k, sizeof(scen) - k, " --cpus %u", e[i].cpus);
        if (e[i].bql)
            k += (size_t)snprintf(scen + k, sizeof(scen) - k, " --bql on");
        if (e[i].clean == TXQ_CLEAN_CQ)
            k += (size_t)snprintf(scen + k, sizeof(scen) - k, " --completion cq");
        if (e[i].explore)
            snprintf(scen + k, sizeof(scen) - k, " --explore %u", e[i].explore);
        fprintf(f, "%-18s %-36s %-21s %s\n", e[i].name, scen, e[i].expect, e[i].what);
    }
}
