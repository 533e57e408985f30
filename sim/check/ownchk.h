/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ownchk.h - the descriptor-ownership checker: ground truth about who owns
 * each descriptor, and a named diagnosis of every ordering or ownership bug.
 *
 * The simulator knows what no real system does: when each CPU store becomes
 * visible (stbuf.h), when each doorbell leaves the CPU, what the device
 * reads and when it completes.  ownchk follows every ring slot through
 *   FREE -> WRITTEN (the driver stores to it) -> DEVICE (published: covered
 *   by a tail doorbell, or its owner bit set with the pass's phase) -> FREE
 *   (the device's head writeback passes it),
 * and reports, through the caller's callback, each rule a driver broke:
 *   doorbell_before_desc  tail doorbell left before a descriptor it publishes
 *                         was visible (missing wmb before the doorbell)
 *   owner_before_body     owner bit visible before the descriptor body
 *                         (missing dma_wmb before the owner bit)
 *   doorbell_before_owner kick left before an owner bit was visible
 *   stale_desc_read       the device read a published descriptor while part
 *                         of it was still invisible (it used stale data)
 *   tail_past_written     tail publishes a slot not written since its
 *                         last completion
 *   tail_out_of_range     tail beyond the ring
 *   desc_reuse            store to a slot the device still owns
 *   doorbell_missing      owner protocol: owner bits no doorbell announced,
 *                         the queue stuck since (ownchk_unannounced)
 *   unmap_missing         a slot rewritten while the buffer it carried last
 *                         pass was never unmapped (a mapping leak)
 *   ring_overfill         tail protocol: size descriptors in flight, one
 *                         too many (the tail reads as empty), seen at the
 *                         store to the oldest slot or at the tail doorbell
 *   buf_overwrite         CPU wrote a payload buffer the device still owns
 *   owner_wrong_phase     owner bit with the wrong phase for the pass
 *   desc_zero_len, desc_len_too_big, desc_addr_unmapped   bad contents
 *   wc_unfenced           the driver went on after a WC copy without the
 *                         sfence that sends it
 *   wc_reordered, wc_merged, wc_torn   write-combining push out of order,
 *                         overwritten before it drained, or in pieces
 *   reclaim_past_head     the cleanup unmapped a buffer the device still
 *                         owns (reclaimed past the device's head)
 *   desc_unpublished      a descriptor written long ago and never handed to
 *                         the device (no doorbell past it, no owner bit)
 *   wc_before_desc        a WC block reached the device before the ring
 *                         descriptor it duplicates was visible (missing
 *                         wmb() before the WC copy)
 *   wc_mismatch           a WC block whose contents or slot differ from the
 *                         ring descriptor the driver wrote
 *   wc_reuse              a WC block written into the buffer the previous
 *                         block used, which the device may still be reading
 *                         (the two buffers not alternated)
 * The register writes the driver makes (ring base and size, protocol,
 * enable, queue reset, completion mode, writeback and completion queue
 * addresses) are snooped from the MMIO stream, as a bus analyser would;
 * enable starts every slot afresh (FREE), and a queue reset turns the
 * checker off until the next enable.
 *
 * One checker (struct ownchk) follows one queue; it reads its registers by
 * queue 0's names of the register page (NICTX_REG_*).  Each report names
 * its checker's queue.  sim/check/ownchk_set.h holds one per queue and routes
 * each event to its queue's.
 * No global state.
 */
#ifndef NICTX_OWNCHK_H
#define NICTX_OWNCHK_H

#include <stddef.h>
#include <stdint.h>

#include "host/host_mem.h"
#include "lib/simtime.h"
#include "host/stbuf.h"

/* Report one violation: the checker's queue, kind (a static string), time,
 * descriptor index (-1: none), the access it was found on (a TLP such as
 * "MWr BAR0 0x14 4 B", or a CPU store), and a sentence with the likely
 * cause. */
typedef void (*ownchk_report_fn)(void *ctx, unsigned queue, const char *kind, sim_ps_t t,
                                 long desc, const char *access, const char *detail);

/* Payload buffers the device owns, per 64 B line of host memory: how many
 * device-owned buffers cover the line, so a CPU write can tell at once
 * whether it hits one.  A checker has its own; the checkers of a set share
 * the set's, which also keeps, per line, the queue whose buffers they are
 * (OWNCHK_BUF_MIXED: several queues'). */
#define OWNCHK_BUF_MIXED 0xFFu
struct ownchk_bufs {
    uint32_t *refs;         /* allocated at the first enable */
    uint8_t *queue;         /* tagged only: the owners' queue */
    size_t nlines;
    int tagged;
};

/* The queue of a violation no queue made (the device's ERR, the root
 * complex's refusals) in a run with several queues. */
#define OWNCHK_QUEUE_NONE 0xFFFFFFFFu

struct ownchk_slot {
    uint8_t state;          /* OWNCHK_FREE, _WRITTEN, _DEVICE */
    uint8_t written;        /* bit 0 address, bit 1 length, bit 2 owner word */
    uint32_t pass;          /* 1 on the first pass over the ring, then 2, ... */
    sim_ps_t wr_t;          /* when the driver first stored to it this pass */
    sim_ps_t addr_vis, len_vis, owner_vis;
    uint64_t buf;           /* payload address and length as written */
    uint32_t len;
    uint8_t owed;           /* handed to the device, not unmapped since */
    uint64_t seq;           /* its place in the queue's order: published before it */
};

struct ownchk {
    ownchk_report_fn report;
    void *ctx;
    const struct host_mem *mem;
    unsigned proto;         /* NICTX_PROTO_* as programmed */
    uint64_t ring_base;
    unsigned ring_log2;
    uint32_t size;          /* 0 until the queue is enabled */
    struct ownchk_slot *slot;
    uint32_t nslot;         /* slots allocated (size is 0 while off) */
    uint32_t pub;           /* tail protocol: next slot a doorbell publishes */
    uint32_t done;          /* next slot to complete */
    sim_ps_t written_min;   /* at most the oldest wr_t of a slot written and not
                             * handed over (ownchk_unpublished's early out) */
    uint32_t unmap_next;    /* oldest slot whose buffer may still be owed */
    sim_ps_t done_t;        /* when a slot last completed */
    uint32_t kick_slot;     /* owner: slot of the latest owner bit since the last kick */
    sim_ps_t kick_vis;      /* ... and when it becomes visible (0: none) */
    uint64_t wc_last_seq;   /* producer order of the last WC block that arrived */
    int wc_any;
    unsigned wc_last_buf;   /* the WC buffer that block used (valid with wc_any) */
    uint64_t count;         /* violations reported */
    const char *acc_what;   /* the access being checked, for reports ... */
    uint64_t acc_addr;      /* ... formatted only when one is made */
    unsigned acc_len;
    struct ownchk_bufs *bufs; /* own_bufs, or its set's */
    struct ownchk_bufs own_bufs;
    unsigned id;            /* its queue, in reports */
    unsigned cpl_mode;      /* NICTX_CPL_MODE_* as programmed */
    uint64_t wb_addr;       /* head writeback word (0: off) */
    uint64_t cq_base;       /* completion queue (CPL_MODE CQ) */
    unsigned cq_log2;
    uint64_t published;     /* descriptors handed to the device so far */
    sim_ps_t published_t;   /* when the latest was (non-decreasing) */
    uint64_t fetched;       /* descriptors seq < fetched the device has read owned */
    /* The ring full of the device's descriptors (size - 1 or more held,
     * published and not completed): the driver can post nothing. */
    uint64_t completed;     /* descriptors given back (completed, or reset) */
    int full;
    sim_ps_t full_since, full_ps;
    uint64_t *pub_moved;    /* bit id set when published moves: own_pub_moved, or its set's */
    uint64_t own_pub_moved;
};

/* A checker of queue 0 on its own (ownchk_set_init makes a set's). */
void ownchk_init(struct ownchk *c, const struct host_mem *mem, ownchk_report_fn report,
                 void *ctx);
void ownchk_destroy(struct ownchk *c);

/* An MMIO write of `len` bytes to BAR0 `off` left the CPU at t; `off` is
 * the register's name on the register page (NICTX_REG_*, queue 0's). */
void ownchk_mmio(struct ownchk *c, uint32_t off, uint64_t val, unsigned len, sim_ps_t t);
/* A CPU store to DMA memory, issued at t, visible at vis. */
void ownchk_store(struct ownchk *c, uint64_t addr, const void *data, unsigned len, sim_ps_t t,
                  sim_ps_t vis);
/* The CPU wrote [addr, addr + len) of a payload buffer at t. */
void ownchk_touch(struct ownchk *c, uint64_t addr, size_t len, sim_ps_t t);
/* A WC piece (BAR0 offset, bytes) left the CPU at t. */
void ownchk_wc_piece(struct ownchk *c, uint32_t off, const uint8_t *data, unsigned len,
                     sim_ps_t t);
/* The CPU went on at t with a copied WC block not yet fenced. */
void ownchk_wc_unfenced(struct ownchk *c, sim_ps_t t);
/* A WC store at t merged into an undrained line of BAR0 offset `off`. */
void ownchk_wc_merge(struct ownchk *c, uint32_t off, sim_ps_t t);
/* The root complex serves a descriptor read [addr, addr + len) at t; the
 * CPUs' store buffers `sb[0..nsb)` say which stores are still invisible.
 * The published slots it reads as the device's move `fetched` on.  0, or
 * -1 if addr is not in the ring. */
int ownchk_desc_read(struct ownchk *c, uint64_t addr, unsigned len, sim_ps_t t,
                      const struct stbuf *const *sb, unsigned nsb);
/* Count the time the ring is full from t on (the measured run's start). */
void ownchk_ring_restart(struct ownchk *c, sim_ps_t t);
/* The time it was full from the restart up to `end`. */
sim_ps_t ownchk_ring_full_ps(const struct ownchk *c, sim_ps_t end);
/* A report of head index `head` (head writeback, DD, CQE or HEAD read)
 * reached the host at t: the slots before it are free.  A head behind the
 * one already taken (a report overtaken by a later one) changes nothing. */
void ownchk_head(struct ownchk *c, uint32_t head, sim_ps_t t);
/* A device write [addr, addr + len) reached host memory at t: at the head
 * writeback word, a DD in the ring (CPL_MODE DESC_WB) or a CQE (CPL_MODE
 * CQ), it completes slots (ownchk_head); elsewhere nothing. */
void ownchk_dev_write(struct ownchk *c, uint64_t addr, const void *data, unsigned len,
                      sim_ps_t t);

/* The driver unmapped [addr, addr + len) at t (dma_unmap_single in its
 * cleanup): it pays back a completed slot's buffer (1 if it was one of
 * c's), the oldest that owes it, even if the buffer is in flight again (a
 * cleanup may free the skb before it unmaps); otherwise it must not be a
 * buffer the device still owns. */
void ownchk_unmap(struct ownchk *c, uint64_t addr, size_t len, sim_ps_t t);
int ownchk_unmap_completed(struct ownchk *c, uint64_t addr);
/* At t, with the queue stuck: report (desc_unpublished) the oldest
 * descriptor written before t - age and never handed to the device.  1 if
 * one was. */
int ownchk_unpublished(struct ownchk *c, sim_ps_t t, sim_ps_t age);
/* Owner protocol, at t with the queue stuck: report (doorbell_missing) an
 * owner bit visible since before t - age that no doorbell has announced
 * while the device holds uncompleted descriptors.  1 if it did. */
int ownchk_unannounced(struct ownchk *c, sim_ps_t t, sim_ps_t age);
/* The device holds no descriptor and none is written but unpublished:
 * every descriptor the driver wrote has completed.  *since gets the time
 * of the last completion. */
int ownchk_all_completed(const struct ownchk *c, sim_ps_t *since);
/* The slots that still carry a mapped buffer: written, handed to the
 * device, or completed and not yet unmapped (0 while the checker is off). */
uint32_t ownchk_carried(const struct ownchk *c);

/* For sim/check/ownchk_set.c: an MMIO write to register `off` (the register-page
 * name) at BAR0 offset `shown` (what a report names); a CPU write into
 * [addr, addr + len) against this checker's device-owned payload buffers
 * (1 if it hit one); the shared buffer table's memory freed. */
void ownchk_mmio_as(struct ownchk *c, uint32_t off, uint32_t shown, uint64_t val, unsigned len,
                    sim_ps_t t);
int ownchk_touch_slot(struct ownchk *c, uint64_t addr, size_t len, sim_ps_t t, int unmap);
void ownchk_bufs_free(struct ownchk_bufs *b);

#endif /* NICTX_OWNCHK_H */
