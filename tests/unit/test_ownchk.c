/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_ownchk.c - the ownership checker (sim/check/ownchk.h) on hand-made event
 * sequences: each rule fires on the sequence that breaks it, names the
 * descriptor, and stays silent on the correct sequence next to it; a set
 * of checkers (one per queue) sends each event to its queue's checker, by
 * queue block, ring, completion write and buffer line, and each report
 * names its queue.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "nictx_hw.h"
#include "check/ownchk_set.h"
#include "txq_reg.h"

#define NS 1000ull
#define BASE 0x100000000ull

struct fx {
    struct host_mem mem;
    struct ownchk c;
    struct stbuf sb;
    uint64_t ring;      /* bus address of an 8-slot ring */
    uint64_t buf;       /* bus address of a payload buffer */
    unsigned n;
    const char *kind[16];
    long desc[16];
    char detail[16][200];
};

static void report(void *ctx, unsigned queue, const char *kind, sim_ps_t t, long desc,
                   const char *access, const char *detail)
{
    struct fx *f = ctx;
    (void)t;
    assert_int_equal(queue, 0);
    (void)access;
    assert_non_null(detail);
    if (f->n < 16) {
        f->kind[f->n] = kind;
        f->desc[f->n] = desc;
        snprintf(f->detail[f->n], sizeof(f->detail[0]), "%s", detail);
    }
    f->n++;
}

static int setup(void **state)
{
    static struct fx f;
    struct stbuf_cfg bc;
    uint64_t bus;

    memset(&f, 0, sizeof(f));
    assert_int_equal(host_mem_init(&f.mem, BASE, 1 << 16), 0);
    assert_non_null(host_mem_alloc(&f.mem, 8 * NICTX_DESC_BYTES, 128, &bus));
    f.ring = bus;
    assert_non_null(host_mem_alloc(&f.mem, 64, 64, &bus));
    f.buf = bus;
    memset(&bc, 0, sizeof(bc));
    bc.window = 8;
    bc.capacity = 8;
    assert_int_equal(stbuf_init(&f.sb, &bc), 0);
    ownchk_init(&f.c, &f.mem, report, &f);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    ownchk_destroy(&f->c);
    stbuf_destroy(&f->sb);
    host_mem_destroy(&f->mem);
    return 0;
}

/* The driver's probe as the checker snoops it. */
static void probe(struct fx *f, unsigned proto)
{
    ownchk_mmio(&f->c, NICTX_REG_RING_BASE_LO, f->ring, 8, 0);
    ownchk_mmio(&f->c, NICTX_REG_RING_LOG2, 3, 4, 0);
    ownchk_mmio(&f->c, NICTX_REG_PROTO, proto, 4, 0);
    ownchk_mmio(&f->c, NICTX_REG_CTRL, NICTX_CTRL_ENABLE, 4, 0);
}

/* Descriptor i's body stores, issued at t and visible at vis. */
static void body(struct fx *f, unsigned i, unsigned len, sim_ps_t t, sim_ps_t vis)
{
    uint64_t a = f->ring + (uint64_t)i * NICTX_DESC_BYTES;
    uint32_t l = len;
    ownchk_store(&f->c, a, &f->buf, 8, t, vis);
    ownchk_store(&f->c, a + 8, &l, 4, t, vis);
}

static void owner(struct fx *f, unsigned i, unsigned bit, sim_ps_t t, sim_ps_t vis)
{
    uint32_t w = bit ? NICTX_DESC_OWNER : 0;
    ownchk_store(&f->c, f->ring + (uint64_t)i * NICTX_DESC_BYTES + 12, &w, 4, t, vis);
}

static void tail(struct fx *f, uint32_t v, sim_ps_t t)
{
    ownchk_mmio(&f->c, NICTX_REG_TAIL, v, 4, t);
}

static void test_ownchk_tail_in_order_is_clean(void **state)
{
    struct fx *f = *state;
    probe(f, NICTX_PROTO_TAIL);
    body(f, 0, 60, 1 * NS, 2 * NS);
    body(f, 1, 60, 3 * NS, 4 * NS);
    tail(f, 2, 5 * NS); /* after both bodies became visible */
    assert_int_equal(f->n, 0);
    assert_int_equal(f->c.published, 2);
}

/* A written descriptor not handed over is named once it is `age` old, the
 * oldest such first; younger ones, handed-over ones and half-written ones
 * are not (the checker keeps a bound on the oldest written slot). */
static void test_ownchk_unpublished_oldest(void **state)
{
    struct fx *f = *state;
    const sim_ps_t age = 50 * NS;
    uint64_t a3 = f->ring + 3 * NICTX_DESC_BYTES;

    probe(f, NICTX_PROTO_TAIL);
    body(f, 0, 60, 10 * NS, 11 * NS);
    tail(f, 1, 12 * NS);
    body(f, 1, 60, 20 * NS, 21 * NS);
    ownchk_store(&f->c, a3, &f->buf, 8, 30 * NS, 31 * NS); /* address only */
    body(f, 2, 60, 40 * NS, 41 * NS);
    assert_int_equal(ownchk_unpublished(&f->c, 60 * NS, age), 0); /* 1 is 40 ns old */
    tail(f, 2, 66 * NS);                                          /* 1 handed over */
    assert_int_equal(ownchk_unpublished(&f->c, 80 * NS, age), 0); /* 2 is 40 ns old */
    assert_int_equal(ownchk_unpublished(&f->c, 89 * NS, age), 0);
    assert_int_equal(f->n, 0);
    assert_int_equal(ownchk_unpublished(&f->c, 90 * NS, age), 1);
    assert_int_equal(f->n, 1);
    assert_string_equal(f->kind[0], "desc_unpublished");
    assert_int_equal(f->desc[0], 2);
}

/* Boundary: the doorbell leaves 1 ns before the last store is visible. */
static void test_ownchk_doorbell_before_desc(void **state)
{
    struct fx *f = *state;
    probe(f, NICTX_PROTO_TAIL);
    body(f, 0, 60, 1 * NS, 2 * NS);
    body(f, 1, 60, 3 * NS, 9 * NS);
    tail(f, 2, 8 * NS);
    assert_int_equal(f->n, 1);
    assert_string_equal(f->kind[0], "doorbell_before_desc");
    assert_int_equal(f->desc[0], 1);
}

static void test_ownchk_tail_rules(void **state)
{
    struct fx *f = *state;
    probe(f, NICTX_PROTO_TAIL);
    body(f, 0, 60, 1 * NS, 2 * NS);
    tail(f, 2, 5 * NS); /* slot 1 never written */
    tail(f, 8, 6 * NS); /* beyond an 8-slot ring */
    assert_int_equal(f->n, 2);
    assert_string_equal(f->kind[0], "tail_past_written");
    assert_int_equal(f->desc[0], 1);
    assert_string_equal(f->kind[1], "tail_out_of_range");
}

/* Owner protocol: the owner bit visible before the length is the missing
 * dma_wmb; after it, clean. */
static void test_ownchk_owner_before_body(void **state)
{
    struct fx *f = *state;
    probe(f, NICTX_PROTO_OWNER);
    body(f, 0, 60, 1 * NS, 3 * NS);
    owner(f, 0, 1, 2 * NS, 3 * NS); /* same instant: fine */
    body(f, 1, 60, 4 * NS, 9 * NS);
    owner(f, 1, 1, 5 * NS, 6 * NS); /* before its body: the bug */
    assert_int_equal(f->n, 1);
    assert_string_equal(f->kind[0], "owner_before_body");
    assert_int_equal(f->desc[0], 1);
}

/* The class behind "only the length store late": each field of a
 * descriptor (its address, its length) is stored on its own, one of them
 * late, the other early; under each rule that publishes a descriptor (the
 * tail doorbell, the owner bit) the late field alone is flagged, named in
 * the report, and the same field visible at the publishing instant
 * (boundary) is clean. */
enum { FIELD_ADDR, FIELD_LEN, FIELDS };
static const char *const field_name[FIELDS] = {"address", "length"};

/* Descriptor i's body with field `late` visible at vis, the other at t. */
static void body_field_late(struct fx *f, unsigned i, unsigned late, sim_ps_t t, sim_ps_t vis)
{
    uint64_t a = f->ring + (uint64_t)i * NICTX_DESC_BYTES;
    uint32_t l = 60;
    ownchk_store(&f->c, a, &f->buf, 8, t, late == FIELD_ADDR ? vis : t);
    ownchk_store(&f->c, a + 8, &l, 4, t, late == FIELD_LEN ? vis : t);
}

/* Publish slot 0 at `at` under `proto` (tail 1, or its owner bit). */
static void publish0(struct fx *f, unsigned proto, sim_ps_t at)
{
    if (proto == NICTX_PROTO_TAIL)
        tail(f, 1, at);
    else
        owner(f, 0, 1, at, at);
}

static void check_field_late(void **state, unsigned proto, const char *kind)
{
    struct fx *f = *state;

    for (unsigned fld = 0; fld < FIELDS; fld++) {
        for (int late = 0; late < 2; late++) {
            teardown(state);
            setup(state);
            f = *state;
            probe(f, proto);
            /* late: visible 1 ns after the publishing store; else at it */
            body_field_late(f, 0, fld, 1 * NS, (late ? 6 : 5) * NS);
            publish0(f, proto, 5 * NS);
            if (!late) {
                assert_int_equal(f->n, 0);
                continue;
            }
            assert_int_equal(f->n, 1);
            assert_string_equal(f->kind[0], kind);
            assert_int_equal(f->desc[0], 0);
            assert_non_null(strstr(f->detail[0], field_name[fld]));
        }
    }
}

static void test_ownchk_tail_each_field_late(void **state)
{
    check_field_late(state, NICTX_PROTO_TAIL, "doorbell_before_desc");
}

static void test_ownchk_owner_each_field_late(void **state)
{
    check_field_late(state, NICTX_PROTO_OWNER, "owner_before_body");
}

/* The phase flips per pass: owner 1 on pass 1, 0 on pass 2. */
static void test_ownchk_owner_phase(void **state)
{
    struct fx *f = *state;
    probe(f, NICTX_PROTO_OWNER);
    for (unsigned i = 0; i < 8; i++) {
        body(f, i, 60, 1 * NS, 1 * NS);
        owner(f, i, 1, 1 * NS, 1 * NS);
    }
    assert_int_equal(f->n, 0);
    assert_int_equal(f->c.published, 8);
    body(f, 0, 60, 2 * NS, 2 * NS); /* slot 0 is still the device's: both stores */
    assert_int_equal(f->n, 2);
    assert_string_equal(f->kind[0], "desc_reuse");
    assert_string_equal(f->kind[1], "desc_reuse");
    assert_int_equal(f->desc[0], 0);
    ownchk_head(&f->c, 3, 3 * NS); /* slots 0..2 completed */
    for (unsigned i = 0; i < 2; i++) /* the cleanup unmaps slots 0 and 1 */
        assert_true(ownchk_unmap_completed(&f->c, f->buf));
    body(f, 1, 60, 4 * NS, 4 * NS); /* free again: fine */
    assert_int_equal(f->n, 2);
}

/* A completed slot rewritten before its buffer was unmapped: the cleanup
 * leaked the mapping.  Unmapped first, the same rewrite is clean. */
static void test_ownchk_unmap_missing(void **state)
{
    struct fx *f = *state;
    probe(f, NICTX_PROTO_TAIL);
    for (unsigned i = 0; i < 3; i++)
        body(f, i, 60, 1 * NS, 1 * NS);
    tail(f, 3, 2 * NS);
    ownchk_head(&f->c, 2, 3 * NS);  /* slots 0 and 1 completed */
    assert_true(ownchk_unmap_completed(&f->c, f->buf)); /* slot 0 only */
    body(f, 0, 60, 4 * NS, 4 * NS);
    assert_int_equal(f->n, 0);
    body(f, 1, 60, 5 * NS, 5 * NS);  /* slot 1's buffer still mapped */
    assert_int_equal(f->n, 1);
    assert_string_equal(f->kind[0], "unmap_missing");
    assert_int_equal(f->desc[0], 1);
    assert_false(ownchk_unmap_completed(&f->c, f->buf + 64)); /* no such buffer */
}

/* A cleanup may free the skb before it unmaps (ixgbe_clean_tx_irq), and
 * another CPU post the buffer again meanwhile: the unmap for its completed
 * slot finds it in flight in a later slot.  It pays the completed slot
 * back, and is no reclaim past the head; an unmap with no completed slot
 * owing it, of the buffer the device holds, still is. */
static void test_ownchk_unmap_after_reuse(void **state)
{
    struct fx *f = *state;
    probe(f, NICTX_PROTO_TAIL);
    body(f, 0, 60, 1 * NS, 1 * NS);
    tail(f, 1, 2 * NS);
    ownchk_head(&f->c, 1, 3 * NS);           /* slot 0 completed, its unmap owed */
    body(f, 1, 60, 4 * NS, 4 * NS);          /* the same buffer posted again */
    tail(f, 2, 5 * NS);
    ownchk_unmap(&f->c, f->buf, 60, 6 * NS); /* slot 0's */
    assert_int_equal(f->n, 0);
    body(f, 0, 60, 7 * NS, 7 * NS);          /* paid back: rewriting it is clean */
    assert_int_equal(f->n, 0);
    ownchk_unmap(&f->c, f->buf, 60, 8 * NS); /* nothing owed: slot 1 is the device's */
    assert_int_equal(f->n, 1);
    assert_string_equal(f->kind[0], "reclaim_past_head");
    assert_int_equal(f->desc[0], 1);
}

/* Tail protocol, a ring of 8: at most 7 in flight.  An eighth descriptor
 * written is fine (slot 7 is free); the tail that hands it over makes the
 * ring read as empty, and writing slot 0 while the device still owns it is
 * the same bug seen from the producer: both are ring_overfill. */
static void test_ownchk_ring_overfill(void **state)
{
    struct fx *f = *state;
    probe(f, NICTX_PROTO_TAIL);
    for (unsigned i = 0; i < 7; i++)
        body(f, i, 60, 1 * NS, 1 * NS);
    tail(f, 7, 2 * NS);
    assert_int_equal(f->n, 0); /* 7 of 8: full, and legal */
    body(f, 7, 60, 3 * NS, 3 * NS);
    assert_int_equal(f->n, 0);
    body(f, 0, 60, 4 * NS, 4 * NS); /* the producer overruns the oldest */
    assert_int_equal(f->n, 2);      /* its two stores */
    assert_string_equal(f->kind[0], "ring_overfill");
    assert_int_equal(f->desc[0], 0);
    tail(f, 0, 5 * NS);             /* every slot the device's */
    assert_string_equal(f->kind[f->n - 1], "ring_overfill");
    ownchk_head(&f->c, 2, 6 * NS);  /* slots 0 and 1 completed: room for one */
    body(f, 0, 60, 7 * NS, 7 * NS);
    size_t n = f->n;
    tail(f, 1, 8 * NS);             /* 7 in flight again: legal */
    assert_int_equal(f->n, n);
}

/* Two reports of the head reach the host out of order: the answer to a
 * HEAD read (head 2) before a completion write the device captured at
 * head 1 (nictx draw --seed 40 --hw 2).  The late one says nothing new:
 * slots 2 and 3 stay the device's (boundary: the report one behind), and
 * the BlueFlame block for slot 3, the batch's last, names a written slot.
 * A head past them completes them; a report equal to the head taken
 * changes nothing. */
static void test_ownchk_head_behind_ignored(void **state)
{
    struct fx *f = *state;
    uint8_t blk[NICTX_WC_BLOCK] = {0};
    const uint16_t idx = 3;
    const void *ring3 = host_mem_ptr(&f->mem, f->ring + 3 * NICTX_DESC_BYTES, NICTX_DESC_BYTES);

    probe(f, NICTX_PROTO_WC);
    for (unsigned i = 0; i < 4; i++) {
        body(f, i, 60, 1 * NS, 1 * NS);
        owner(f, i, 1, 1 * NS, 1 * NS);
    }
    ownchk_head(&f->c, 2, 2 * NS); /* the HEAD read: slots 0 and 1 completed */
    ownchk_head(&f->c, 1, 3 * NS); /* the completion write captured at head 1 */
    ownchk_head(&f->c, 2, 3 * NS);
    assert_int_equal(f->c.completed, 2);
    assert_non_null(ring3);
    memcpy(blk, ring3, NICTX_DESC_BYTES); /* the ring descriptor as written */
    memcpy(blk + NICTX_WC_IDX_OFF, &idx, sizeof(idx));
    ownchk_wc_piece(&f->c, NICTX_WC_BASE, blk, NICTX_WC_BLOCK, 4 * NS);
    assert_int_equal(f->n, 0);
    body(f, 2, 60, 5 * NS, 5 * NS); /* slot 2 is still the device's */
    assert_int_equal(f->n, 2);
    assert_string_equal(f->kind[0], "desc_reuse");
    assert_int_equal(f->desc[0], 2);
    ownchk_head(&f->c, 4, 6 * NS); /* slots 2 and 3 completed */
    assert_int_equal(f->c.completed, 4);
}

static void test_ownchk_wrong_phase_on_second_pass(void **state)
{
    struct fx *f = *state;
    probe(f, NICTX_PROTO_OWNER);
    for (unsigned i = 0; i < 8; i++) {
        body(f, i, 60, 1 * NS, 1 * NS);
        owner(f, i, 1, 1 * NS, 1 * NS);
    }
    ownchk_head(&f->c, 4, 2 * NS); /* slots 0..3 completed */
    for (unsigned i = 0; i < 2; i++) /* the cleanup unmaps slots 0 and 1 */
        assert_true(ownchk_unmap_completed(&f->c, f->buf));
    body(f, 0, 60, 3 * NS, 3 * NS);
    owner(f, 0, 0, 3 * NS, 3 * NS); /* pass 2 expects 0: fine */
    body(f, 1, 60, 3 * NS, 3 * NS);
    owner(f, 1, 1, 3 * NS, 3 * NS); /* not flipped: the bug */
    assert_int_equal(f->n, 1);
    assert_string_equal(f->kind[0], "owner_wrong_phase");
    assert_int_equal(f->desc[0], 1);
}

static void test_ownchk_bad_contents(void **state)
{
    struct fx *f = *state;
    probe(f, NICTX_PROTO_TAIL);
    body(f, 0, 0, 1 * NS, 1 * NS);     /* length 0 */
    body(f, 1, 16384, 1 * NS, 1 * NS); /* boundary: one above 16383 */
    body(f, 2, 64, 1 * NS, 1 * NS);    /* boundary: the whole 64 B buffer: fine */
    body(f, 3, 65, 1 * NS, 1 * NS);    /* one byte past the allocation */
    tail(f, 4, 2 * NS);
    assert_int_equal(f->n, 3);
    assert_string_equal(f->kind[0], "desc_zero_len");
    assert_string_equal(f->kind[1], "desc_len_too_big");
    assert_string_equal(f->kind[2], "desc_addr_unmapped");
    assert_int_equal(f->desc[2], 3);
}

/* The CPU writing a buffer a published descriptor points at; after the
 * completion the same write is fine. */
static void test_ownchk_buffer_overwrite(void **state)
{
    struct fx *f = *state;
    probe(f, NICTX_PROTO_TAIL);
    ownchk_touch(&f->c, f->buf, 60, 0); /* filling it first: fine */
    body(f, 0, 60, 1 * NS, 1 * NS);
    tail(f, 1, 2 * NS);
    ownchk_touch(&f->c, f->buf + 4, 8, 3 * NS);
    assert_int_equal(f->n, 1);
    assert_string_equal(f->kind[0], "buf_overwrite");
    assert_int_equal(f->desc[0], 0);
    ownchk_head(&f->c, 1, 4 * NS);
    ownchk_touch(&f->c, f->buf, 60, 5 * NS);
    assert_int_equal(f->n, 1);
}

/* ---- a set: one checker per queue ----------------------------------------- */

#define SQ 3 /* queues */

struct sfx {
    struct host_mem mem;
    struct ownchk_set s;
    struct stbuf sb;
    uint64_t ring[SQ];  /* 8-slot rings */
    uint64_t cq[SQ];    /* 8-entry CQs */
    uint64_t wb[SQ];    /* head writeback words */
    uint64_t buf;       /* a 64 B line: queue 1's buffer, then queue 2's too */
    unsigned n;
    const char *kind[16];
    unsigned queue[16];
    long desc[16];
};

static void sreport(void *ctx, unsigned queue, const char *kind, sim_ps_t t, long desc,
                    const char *access, const char *detail)
{
    struct sfx *f = ctx;
    (void)t;
    (void)access;
    assert_non_null(detail);
    if (f->n < 16) {
        f->kind[f->n] = kind;
        f->queue[f->n] = queue;
        f->desc[f->n] = desc;
    }
    f->n++;
}

static int ssetup(void **state)
{
    static struct sfx f;
    struct stbuf_cfg bc;

    memset(&f, 0, sizeof(f));
    assert_int_equal(host_mem_init(&f.mem, BASE, 1 << 16), 0);
    for (unsigned q = 0; q < SQ; q++) {
        assert_non_null(host_mem_alloc(&f.mem, 8 * NICTX_DESC_BYTES, 128, &f.ring[q]));
        assert_non_null(host_mem_alloc(&f.mem, 8 * NICTX_CQE_BYTES, 64, &f.cq[q]));
        assert_non_null(host_mem_alloc(&f.mem, 64, 64, &f.wb[q]));
    }
    assert_non_null(host_mem_alloc(&f.mem, 64, 64, &f.buf));
    memset(&bc, 0, sizeof(bc));
    bc.window = 8;
    bc.capacity = 8;
    assert_int_equal(stbuf_init(&f.sb, &bc), 0);
    assert_int_equal(ownchk_set_init(&f.s, SQ, &f.mem, sreport, &f), 0);
    *state = &f;
    return 0;
}

static int steardown(void **state)
{
    struct sfx *f = *state;
    ownchk_set_destroy(&f->s);
    stbuf_destroy(&f->sb);
    host_mem_destroy(&f->mem);
    return 0;
}

/* The probe as the driver writes it: each queue's block (CQ_BASE in two
 * 4-byte writes), the device-wide PROTO and CPL_MODE, then CTRL.ENABLE. */
static void sprobe(struct sfx *f, unsigned proto, unsigned cpl_mode)
{
    for (unsigned q = 0; q < SQ; q++) {
        ownchk_set_mmio(&f->s, txq_reg(q, NICTX_QREG_RING_BASE_LO), f->ring[q], 8, 0);
        ownchk_set_mmio(&f->s, txq_reg(q, NICTX_QREG_RING_LOG2), 3, 4, 0);
        ownchk_set_mmio(&f->s, txq_reg(q, NICTX_QREG_WB_ADDR_LO), f->wb[q], 8, 0);
        ownchk_set_mmio(&f->s, txq_reg(q, NICTX_QREG_CQ_BASE_LO), (uint32_t)f->cq[q], 4, 0);
        ownchk_set_mmio(&f->s, txq_reg(q, NICTX_QREG_CQ_BASE_HI), f->cq[q] >> 32, 4, 0);
        ownchk_set_mmio(&f->s, txq_reg(q, NICTX_QREG_CQ_LOG2), 3, 4, 0);
    }
    ownchk_set_mmio(&f->s, NICTX_REG_PROTO, proto, 4, 0);
    ownchk_set_mmio(&f->s, NICTX_REG_CPL_MODE, cpl_mode, 4, 0);
    ownchk_set_mmio(&f->s, NICTX_REG_CTRL, NICTX_CTRL_ENABLE, 4, 0);
}

/* Queue q's descriptor i: body (buffer `buf`, length len) at t, visible at vis. */
static void sbody(struct sfx *f, unsigned q, unsigned i, uint64_t buf, unsigned len, sim_ps_t t,
                  sim_ps_t vis)
{
    uint64_t a = f->ring[q] + (uint64_t)i * NICTX_DESC_BYTES;
    uint32_t l = len;
    ownchk_set_store(&f->s, a, &buf, 8, t, vis);
    ownchk_set_store(&f->s, a + 8, &l, 4, t, vis);
}

static void stail(struct sfx *f, unsigned q, uint32_t v, sim_ps_t t)
{
    ownchk_set_mmio(&f->s, txq_reg(q, NICTX_QREG_TAIL), v, 4, t);
}

/* A tail doorbell before the body is visible, on queue 2 only: named on
 * queue 2; queues 0 and 1, written in order, stay silent. */
static void test_ownchk_set_tail_per_queue(void **state)
{
    struct sfx *f = *state;
    sprobe(f, NICTX_PROTO_TAIL, NICTX_CPL_MODE_HEAD_WB);
    for (unsigned q = 0; q < SQ; q++)
        sbody(f, q, 0, f->buf, 60, 1 * NS, q == 2 ? 9 * NS : 2 * NS);
    for (unsigned q = 0; q < SQ; q++)
        stail(f, q, 1, 5 * NS);
    assert_int_equal(f->n, 1);
    assert_string_equal(f->kind[0], "doorbell_before_desc");
    assert_int_equal(f->queue[0], 2);
    assert_int_equal(f->desc[0], 0);
    for (unsigned q = 0; q < SQ; q++)
        assert_int_equal(f->s.q[q].published, 1);
}

/* The owner protocol on several queues (PROTO is device-wide): an owner
 * bit visible before its body on queue 1, and queue 1's kick before it. */
static void test_ownchk_set_owner_per_queue(void **state)
{
    struct sfx *f = *state;
    uint32_t w = NICTX_DESC_OWNER;

    sprobe(f, NICTX_PROTO_OWNER, NICTX_CPL_MODE_HEAD_WB);
    sbody(f, 0, 0, f->buf, 60, 1 * NS, 2 * NS);
    ownchk_set_store(&f->s, f->ring[0] + 12, &w, 4, 3 * NS, 3 * NS);
    sbody(f, 1, 0, f->buf, 60, 1 * NS, 6 * NS);
    ownchk_set_store(&f->s, f->ring[1] + 12, &w, 4, 3 * NS, 4 * NS);
    stail(f, 0, 1, 5 * NS);
    stail(f, 1, 1, 3 * NS + 500); /* before queue 1's owner bit is visible */
    assert_int_equal(f->n, 2);
    assert_string_equal(f->kind[0], "owner_before_body");
    assert_int_equal(f->queue[0], 1);
    assert_string_equal(f->kind[1], "doorbell_before_owner");
    assert_int_equal(f->queue[1], 1);
}

/* Each queue's slots are freed by its own completion write: its head
 * writeback word, its CQE, a DD in its ring, or its descriptors written
 * back whole (the last one's DD); a HEAD read of its block.  Another
 * queue's completion frees none of them. */
static void test_ownchk_set_completions_per_queue(void **state)
{
    static const unsigned modes[] = {NICTX_CPL_MODE_HEAD_WB, NICTX_CPL_MODE_CQ,
                                     NICTX_CPL_MODE_DESC_WB, NICTX_CPL_MODE_DESC_WB_FULL,
                                     NICTX_CPL_MODE_HEAD_WB /* and HEAD register reads */};
    struct sfx *f = *state;

    for (unsigned m = 0; m < 5; m++) {
        uint32_t head = 1, dd = NICTX_DESC_DD, whole[4] = {0, 0, 0, NICTX_DESC_DD};
        uint64_t cqe = 0; /* descriptor 0 completed */
        ownchk_set_destroy(&f->s);
        assert_int_equal(ownchk_set_init(&f->s, SQ, &f->mem, sreport, f), 0);
        f->n = 0;
        sprobe(f, NICTX_PROTO_TAIL, modes[m]);
        for (unsigned q = 0; q < SQ; q++) {
            sbody(f, q, 0, f->buf, 60, 1 * NS, 1 * NS);
            stail(f, q, 1, 2 * NS);
        }
        /* Queue 1's completion: the wrong queue's address would free
         * queue 0's or 2's slot instead. */
        if (m == 0)
            ownchk_set_dev_write(&f->s, f->wb[1], &head, 4, 3 * NS);
        else if (m == 1)
            ownchk_set_dev_write(&f->s, f->cq[1], &cqe, 8, 3 * NS);
        else if (m == 2)
            ownchk_set_dev_write(&f->s, f->ring[1] + 12, &dd, 4, 3 * NS);
        else if (m == 3)
            ownchk_set_dev_write(&f->s, f->ring[1], whole, NICTX_DESC_BYTES, 3 * NS);
        else
            ownchk_set_mmio_read(&f->s, txq_reg(1, NICTX_QREG_HEAD), 1, 3 * NS);
        assert_true(ownchk_unmap_completed(&f->s.q[1], f->buf)); /* its cleanup */
        for (unsigned q = 0; q < SQ; q++)
            sbody(f, q, 0, f->buf, 60, 4 * NS, 4 * NS);
        /* Queue 0 and 2 still own slot 0 (two stores each): desc_reuse. */
        assert_int_equal(f->n, 4);
        for (unsigned k = 0; k < 4; k++) {
            assert_string_equal(f->kind[k], "desc_reuse");
            assert_int_not_equal(f->queue[k], 1);
        }
    }
}

/* A payload line that only queue 1's buffer covers, then both queue 1's
 * and queue 2's: a CPU write to it is named for the queue whose
 * descriptor owns the bytes written. */
static void test_ownchk_set_buffers_per_queue(void **state)
{
    struct sfx *f = *state;
    uint32_t head = 1;

    sprobe(f, NICTX_PROTO_TAIL, NICTX_CPL_MODE_HEAD_WB);
    ownchk_set_touch(&f->s, f->buf, 64, 0); /* nobody's yet: fine */
    sbody(f, 1, 0, f->buf, 32, 1 * NS, 1 * NS);
    stail(f, 1, 1, 2 * NS);
    ownchk_set_touch(&f->s, f->buf + 40, 8, 3 * NS); /* queue 1's line, not its bytes */
    assert_int_equal(f->n, 0);
    ownchk_set_touch(&f->s, f->buf + 8, 8, 3 * NS);
    assert_int_equal(f->n, 1);
    assert_string_equal(f->kind[0], "buf_overwrite");
    assert_int_equal(f->queue[0], 1);
    sbody(f, 2, 0, f->buf + 32, 32, 4 * NS, 4 * NS); /* the line is both queues' now */
    stail(f, 2, 1, 5 * NS);
    ownchk_set_touch(&f->s, f->buf + 40, 8, 6 * NS);
    assert_int_equal(f->n, 2);
    assert_int_equal(f->queue[1], 2);
    ownchk_set_dev_write(&f->s, f->wb[2], &head, 4, 7 * NS); /* queue 2's done */
    ownchk_set_touch(&f->s, f->buf + 40, 8, 8 * NS);
    assert_int_equal(f->n, 2);
    ownchk_set_touch(&f->s, f->buf, 8, 8 * NS); /* queue 1's still */
    assert_int_equal(f->n, 3);
    assert_int_equal(f->queue[2], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_ownchk_tail_in_order_is_clean, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ownchk_doorbell_before_desc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ownchk_unpublished_oldest, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ownchk_tail_rules, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ownchk_owner_before_body, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ownchk_tail_each_field_late, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ownchk_owner_each_field_late, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ownchk_owner_phase, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ownchk_ring_overfill, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ownchk_unmap_missing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ownchk_unmap_after_reuse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ownchk_wrong_phase_on_second_pass, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ownchk_head_behind_ignored, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ownchk_bad_contents, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ownchk_buffer_overwrite, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ownchk_set_tail_per_queue, ssetup, steardown),
        cmocka_unit_test_setup_teardown(test_ownchk_set_owner_per_queue, ssetup, steardown),
        cmocka_unit_test_setup_teardown(test_ownchk_set_completions_per_queue, ssetup,
                                        steardown),
        cmocka_unit_test_setup_teardown(test_ownchk_set_buffers_per_queue, ssetup, steardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
