/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_desc_fetch.h - the descriptor fetcher of the C model
 * (docs/c-model.md), cycle-exact at the ports of rtl/nictx_desc_fetch.sv
 * at its BufDescs and MaxReads (struct cm_desc_fetch_params, at run
 * time; the storage is sized for the largest): per-queue fetch pointers
 * and buffer regions (QUEUES rounded up to a power of two), reads of up to
 * DESC_FETCH_MAX descriptors cut at the ring's wrap, the region's wrap and
 * the region's free slots (one queue: a whole batch or nothing), in-order
 * retirement through a FIFO naming each read's queue, the ready and work
 * masks; the three ownership protocols (Tail; Owner and Wc with a consumer
 * index and phase per queue, arming doorbells, the doorbell-since rule and
 * the not-owned flush); DMA errors (bad with err in Tail, a flush in the
 * owner protocols); Wc's published bound and the held write-combining
 * block (insertion at the fetch pointer, substitution of a not-owned ring
 * copy at the head, drops); wait_o and idle_o.
 *
 * Combinational paths (rtl/nictx_tx_top.sv: rdy and work go to the
 * scheduler, whose q and valid come back as sq and sched_valid; the head's
 * len and bad go to the scheduler too; f_q goes to the register block,
 * whose ring_base, ring_log2 and tail come back).  Each output depends on
 * the state and on these inputs only:
 *   rdy, work, req_valid, req_addr, req_len, req_wptr: the state alone
 *     (cm_desc_fetch_state_out());
 *   desc_q: sq;  desc_addr, desc_len, desc_bad, desc_err: sq, queues_log2
 *     (cm_desc_fetch_head());
 *   f_q, not_owned_cnt: queues, queues_log2, proto, sq, sched_valid.  f_q
 *     is NOT from the state alone: with several queues an unusable head in
 *     an owner protocol (sched_valid, and the head's owner bit or failed
 *     read) makes sq the fetch queue (cm_desc_fetch_fq());
 *   desc_valid: sq, queues_log2, proto, sched_valid;
 *   not_owned, flush, wc_used, wc_drop, wait, idle: any input.
 * So the engine's order on each clock (no loop):
 *   1. cm_desc_fetch_state_out(): rdy and work for the scheduler;
 *   2. the scheduler names sq (cm_sched_queue());
 *   3. cm_desc_fetch_head() with in->sq, in->queues_log2: the head's len
 *      and bad for the scheduler, which gives sched_valid;
 *   4. cm_desc_fetch_fq() with in->queues, queues_log2, proto, sq,
 *      sched_valid: f_q, which the register block answers with
 *      ring_base, ring_log2 and tail (and sq with h_ring_log2), and
 *      desc_valid, with which the payload fetch answers desc_ready;
 *   5. cm_desc_fetch_eval() with every input, then cm_desc_fetch_clock()
 *      with the same inputs; or cm_desc_fetch_step(), both in one pass
 *      (the clock's decisions worked out once), or, with the outputs of
 *      steps 1, 3 and 4 kept in its out, cm_desc_fetch_step_split() (the
 *      engine's way: a quiet clock then costs little more than its check).
 * eval works out steps 1, 3 and 4 again itself (they agree).
 * As the RTL assumes: sq is 0 with QUEUES 1 (nictx_tx_sched's q_o), sq
 * and db_q are below QUEUES, and Wc runs with QUEUES 1.

 * Storage: the descriptor words (mem_a, mem_l) and the retirement FIFOs'
 * words are RAMs, kept across cm_desc_fetch_reset() as the RTL keeps them
 * (a FIFO's read data while empty is its stale slot, which the ready mask
 * reads); cm_desc_fetch_init() is power-on (all 0, as Verilator starts).
 */
#ifndef NICTX_CM_DESC_FETCH_H
#define NICTX_CM_DESC_FETCH_H

#include <stdbool.h>
#include <stdint.h>

/* The parameters' ranges: BufDescs a power of two in 32..256 (the RTL's
 * gen_buf_check), MaxReads in 2..8 (prim_fifo_sync's Depth is a power of
 * two >= 2; the register block takes DescReadsHw up to 15, DESC_INFLIGHT's
 * 4 bits), NumQueues in 1..64 and at most BufDescs (gen_queues_check). */
#define CM_DESC_FETCH_MIN_SLOTS 32u
#define CM_DESC_FETCH_MAX_SLOTS 256u
#define CM_DESC_FETCH_MIN_READS 2u
#define CM_DESC_FETCH_MAX_READS 8u
#define CM_DESC_FETCH_MAX_QUEUES 64u

/* The elaboration parameters (rtl/nictx_desc_fetch.sv's). */
struct cm_desc_fetch_params {
    unsigned data_bytes;    /* DataBytes: 8, 16, 32, 64 */
    unsigned num_queues;    /* NumQueues */
    unsigned buf_descs;     /* BufDescs: descriptor buffer slots */
    unsigned max_reads;     /* MaxReads: reads outstanding, the retirement FIFOs' depth */
};

enum { CM_DF_PROTO_TAIL = 0, CM_DF_PROTO_OWNER = 1, CM_DF_PROTO_WC = 2 };

struct cm_desc_fetch_in {
    bool enable;
    unsigned queues;        /* QUEUES, 1..NumQueues (7 bits) */
    unsigned queues_log2;   /* log2 of QUEUES rounded up to a power of two (3 bits) */
    unsigned db_q;          /* doorbell's queue */
    unsigned db_tail;       /* ... and its tail now (16 bits) */
    unsigned sq;            /* the scheduler's queue */
    bool sched_valid;       /* ... whose head may leave */
    unsigned proto;         /* PROTO (2 bits) */
    bool stop;              /* ErrDma */
    bool doorbell;
    bool wc_close, wc_idx_valid;
    unsigned wc_idx;        /* 16 bits */
    uint64_t ring_base;     /* f_q's registers */
    unsigned ring_log2, tail;
    unsigned h_ring_log2;   /* sq's ring */
    unsigned fetch_max;     /* DESC_FETCH_MAX's field (7 bits) */
    unsigned inflight;      /* 4 bits */
    bool blk_valid;
    unsigned blk_idx;
    uint64_t blk_w0, blk_w1;
    bool req_ready;
    bool wr_valid;
    uint32_t wr_ptr;        /* byte pointer of the beat's lane 0 (SlotW + 4 bits) */
    unsigned wr_words;      /* bit j: 8-byte word j carries read data */
    const uint8_t *wr_data; /* DataBytes lanes (read only with wr_valid) */
    bool done, done_err;
    bool desc_ready;
};

struct cm_desc_fetch_out {
    unsigned f_q;
    uint64_t rdy, work;
    unsigned desc_q;
    bool req_valid;
    uint64_t req_addr;
    unsigned req_len;       /* bytes (14 bits) */
    uint32_t req_wptr;      /* slot * 16 (SlotW + 4 bits) */
    bool desc_valid;
    uint64_t desc_addr;
    unsigned desc_len;      /* 14 bits */
    bool desc_bad, desc_err;
    bool not_owned;
    unsigned not_owned_cnt; /* 16 bits */
    bool flush, wc_used, wc_drop, wait, idle;
    bool wc_stale;          /* the held WC block is stale (a cover point) */
    uint8_t quiet;          /* a step's path: 1 quiet (only read data's descriptor words
                               written), 2 quiet but for a descriptor leaving, 0 the full one */
};

/* A retirement FIFO entry: {queue, block, size}. */
struct cm_desc_fetch_nf {
    uint8_t q;
    bool blk;
    uint16_t size;          /* SlotW + 1 bits */
};

struct cm_desc_fetch {
    unsigned w, nwords;     /* DataBytes, its 8-byte words */
    unsigned queues;        /* NumQueues */
    unsigned qimask;        /* a queue index's bits (NumQueues - 1) */
    uint64_t qmask;         /* its bits in the masks */
    unsigned slots, slotw;  /* BufDescs, SlotW (its log2) */
    unsigned smask, pmask;  /* a slot's bits (BufDescs - 1), a slot count's (2 BufDescs - 1) */
    unsigned reads;         /* MaxReads */
    unsigned fimask, fpmask; /* a retirement FIFO's index bits, its pointers' (with the wrap) */
    uint64_t mem_a[CM_DESC_FETCH_MAX_SLOTS], mem_l[CM_DESC_FETCH_MAX_SLOTS]; /* RAM */
    /* Per queue */
    uint16_t fetch[CM_DESC_FETCH_MAX_QUEUES];   /* next ring index to fetch */
    uint16_t alloc[CM_DESC_FETCH_MAX_QUEUES];   /* slots handed to reads (SlotW + 1 bits) */
    uint16_t ready[CM_DESC_FETCH_MAX_QUEUES];   /* ... whose read retired */
    uint16_t rd[CM_DESC_FETCH_MAX_QUEUES];      /* ... consumed */
    uint16_t cons[CM_DESC_FETCH_MAX_QUEUES];    /* owner: next index to leave */
    uint8_t phase[CM_DESC_FETCH_MAX_QUEUES];    /* ... its owner bit */
    uint64_t work, rdy, armed, db_since;
    unsigned fptr, tot, fl_q;
    bool req_valid;
    uint64_t req_addr;
    unsigned req_len;
    uint32_t req_wptr;
    bool unb, lim_valid, flush, fl_cnt;
    unsigned lim;
    uint64_t derr[CM_DESC_FETCH_MAX_SLOTS / 64]; /* slot filled by a failed read */
    bool blk_valid;
    unsigned blk_idx;
    uint64_t blk_w0, blk_w1;
    /* The retirement FIFOs (pointers with a wrap bit; storage is RAM) */
    struct cm_desc_fetch_nf nf[CM_DESC_FETCH_MAX_READS];
    bool df[CM_DESC_FETCH_MAX_READS];
    unsigned nf_wr, nf_rd, df_wr, df_rd;
    /* Derived from the registers above (kept by reset and the edge, not a
     * register): the quiet check's state part, CM_DF_QS_* bits. */
    uint8_t qs;
};
#define CM_DF_QS_BUSY 1u  /* blk_valid, flush, or a retirement at the FIFO's head */
#define CM_DF_QS_TAIL 2u  /* armed or unb: the edge clears them outside the owner protocols */
#define CM_DF_QS_OWNER 4u /* unb without armed: the edge clears it */
#define CM_DF_QS_FLUSH 8u /* a flush with no block held, no retirement at the FIFO's head
                             and not QS_OWNER: it may wait for its reads (quiet_flush()) */

/* Power-on (storage 0) and reset of a fetcher with parameters p in their
 * ranges (above); -1 for others. */
int cm_desc_fetch_init(struct cm_desc_fetch *d, const struct cm_desc_fetch_params *p);
/* The reset input (registers; the RAMs keep their words); -1 as above. */
int cm_desc_fetch_reset(struct cm_desc_fetch *d, const struct cm_desc_fetch_params *p);
/* rdy, work and req_* from the state alone. */
void cm_desc_fetch_state_out(const struct cm_desc_fetch *d, struct cm_desc_fetch_out *out);
/* desc_q, desc_addr, desc_len, desc_bad, desc_err: need in->sq, queues_log2. */
void cm_desc_fetch_head(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                        struct cm_desc_fetch_out *out);
/* f_q, and desc_valid into *desc_valid unless NULL: need in->queues,
 * queues_log2, proto, sq, sched_valid. */
unsigned cm_desc_fetch_fq(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                          bool *desc_valid);
/* A quiet clock, from every input (those of step 5): no retirement (done,
 * or the oldest read an inserted block or with its done queued), no
 * doorbell, WC close or block in, none held, no flush, no request taken
 * now, no descriptor leaving (desc_valid && desc_ready), no unusable head
 * in an owner protocol, nothing fetched, and the registers a clock
 * rewrites at their values (armed and unb 0 in Tail; unb 0 with armed 0;
 * with several queues the work mask's f_q bit and the round robin's
 * pointer).  Read data may arrive.  On such a clock not_owned, flush,
 * wc_used and wc_drop are 0, not_owned_cnt, wait and idle come from the
 * state and the enable, stop, inflight, tail and ring registers, and the
 * rising edge writes the read data's descriptor words and nothing else.
 * A flush of an owner protocol that waits for its reads in flight is quiet
 * too: nothing arrives but read data (no retirement, doorbell, WC close or
 * block, no request taken now), no block is held, with several queues the
 * work mask is the armed one; then the outputs are the state's and the
 * head's (desc_valid 0), and the edge writes the read data's words alone.
 * eval, clock and step take it as a fast path, and with Tail and QUEUES
 * 1 also a clock quiet but for a descriptor leaving; the full path on
 * every other clock (false is never wrong, only slower). */
bool cm_desc_fetch_quiet(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in);
/* The rising edge of a quiet clock with read data (wr_valid, wr_ptr,
 * wr_words, wr_data), for a caller that knows the clock is quiet and that
 * nothing else of the fetcher changes or is looked at (the engine's stream
 * clocks with one queue: the slots a read fills are never the head's while
 * it may leave). */
void cm_desc_fetch_write(struct cm_desc_fetch *d, uint32_t wr_ptr, unsigned wr_words,
                         const uint8_t *wr_data);
void cm_desc_fetch_eval(const struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                        struct cm_desc_fetch_out *out);
void cm_desc_fetch_clock(struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in);
/* eval and clock in one pass (the decisions worked out once): this clock's
 * outputs, then the rising edge with the same inputs. */
void cm_desc_fetch_step(struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                        struct cm_desc_fetch_out *out);
/* cm_desc_fetch_step() for a caller that has called the split functions
 * on this clock (the engine): *out must hold, for these inputs and this
 * state, rdy, work and req_* from cm_desc_fetch_state_out(), desc_q,
 * desc_addr, desc_len, desc_bad and desc_err from cm_desc_fetch_head(),
 * and f_q and desc_valid (cm_desc_fetch_fq()'s value and *desc_valid).  A
 * clock the fast paths take (cm_desc_fetch_quiet()) leaves those as they
 * are and fills the rest; any other writes all of them, as step. */
void cm_desc_fetch_step_split(struct cm_desc_fetch *d, const struct cm_desc_fetch_in *in,
                              struct cm_desc_fetch_out *out);

#endif
