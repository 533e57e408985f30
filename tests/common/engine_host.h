/* SPDX-License-Identifier: Apache-2.0 */
/*
 * engine_host.h - the host a cmocka test puts around the Verilated engine
 * (sim/device/device.h, dev_rtl_ops): shared by tests/engine/test_engine.c and
 * tests/engine/test_limits.c.
 *
 * What it models, one device clock per eh_step():
 *  - the device: cfg.ops (default dev_rtl_ops), whose width W sets the
 *    beats on every port (sim/device/device.h);
 *  - host memory: cfg.mem_size bytes at bus address cfg.mem_base, zeroed;
 *    the descriptor ring at cfg.ring_bus, frame buffers from cfg.buf_bus to
 *    the end of memory;
 *  - a root complex: the host's TLPs (register MWr/MRd to BAR0 at EH_BAR0,
 *    WC MWrs, CplDs) queue in order and are offered one beat per clock;
 *    the engine's MWrs are written to host memory (ignored outside it) and
 *    passed to cfg.on_mwr; the CplD of a register read ends eh_rd32();
 *  - completions: an engine MRd taken on clock c (the c-th eh_step, from 0)
 *    has its data copied from host memory on clock c and its CplDs, split
 *    at 64-byte (RCB) boundaries, queued behind the host's TLPs at the start
 *    of clock c + cfg.cpl_lat.  Completions go out in MRd order: one not yet
 *    due, or held (eh_hold), holds back the later ones.  eh_fail_reads()
 *    makes chosen reads complete with UR (err set, zero data);
 *  - d2h ready: high unless eh_hold_d2h() or a stall (below);
 *  - the wire: ready unless eh_hold_wire(); each frame must be the
 *    next one expected (eh_post with expect), byte for byte against host
 *    memory at its buffer as it arrives, with the right FCS;
 *  - ready stalls (eh_stall): d2h and wire ready go low in seeded random
 *    bursts; a beat offered while ready is low must be offered again on
 *    the next clock, unchanged (valid never waits for ready, a beat holds
 *    until taken: rtl/nictx_tx_top.sv), which is what makes "nothing is
 *    taken while ready is low" observable at the port;
 *  - the driver's side of the ring: the producer count, descriptors with
 *    the owner bit of their ring pass (OWNER and WC protocols), the TAIL
 *    doorbell and WC block writes.
 * Checked on every engine TLP: single-beat TLPs; MRds of 1..MRRS bytes
 *   within one MRRS-aligned block (eh_set_mrrs_log2; reset 512), in the
 *   ring (descriptor reads) or the buffers (payload reads).
 * Checked on every engine MRd: its tag is not in flight (in flight: from
 *   the MRd taken to its last CplD taken).  Checked on every clock: a
 *   device idle on the clock before, with no h2d beat offered, is idle
 *   still (idle: no state can change without host input).
 * Recorded for tests to read (fields below; do not write them): MRd
 *   counts, the first EH_MRD_LOG MRds, the latest one, the tags used, a
 *   digest of every MRd, outstanding reads and bytes with their maxima
 *   (pending: until the CplDs are queued; in flight: until the last is
 *   taken), frames and bytes on the wire, the first EH_SOP_LOG frame start
 *   cycles, clocks each output's ready was low and a beat waited on it.
 *
 * Failures are cmocka failures (assert_*, fail_msg) of the calling test;
 * eh_init is the exception: it returns -1.
 * Limits: EH_MAX_TLPS host TLPs queued (completions wait while fewer than
 * 64 slots are free), EH_MAX_PEND engine MRds pending, cfg.max_frames
 * frames expected per context, a register read fails after EH_RD_TIMEOUT
 * clocks.  All state hangs off struct eh; yet keep one device alive at a
 * time (Verilator 5.006 deadlocks when a model is destroyed while another,
 * created later, is alive or was).
 */
#ifndef NICTX_ENGINE_HOST_H
#define NICTX_ENGINE_HOST_H

#include <stdint.h>

#include "device/device.h"

#define EH_BAR0 0xfe000000ull    /* bus address of BAR0 */
#define EH_RCB 64u               /* completions are split at this boundary */
#define EH_MWR_MAX 512u          /* the longest host MWr (MPS 512): a WC write */
#define EH_MAX_TLPS 4096u
#define EH_MAX_PEND 512u
#define EH_MRD_LOG 4096u
#define EH_SOP_LOG 64u
#define EH_RD_TIMEOUT 200000u
#define EH_LINE_FAST 0x080000u   /* LINE_RATE of 8 B/cycle: the wire is no bottleneck */

struct eh_frame {                /* a frame expected on the wire */
    uint64_t addr;
    uint16_t len;
};

struct eh_cfg {
    uint64_t mem_base;           /* bus address of host memory byte 0 */
    uint32_t mem_size;
    uint64_t ring_bus;           /* the descriptor ring, in host memory */
    uint64_t buf_bus;            /* frame buffers: up to the end of host memory */
    unsigned cpl_lat;            /* clocks from taking an MRd to its CplDs (above) */
    unsigned max_frames;         /* frames expected in the life of a context */
    /* The device model (its width W is the port's); NULL: dev_rtl_ops. */
    const struct device_ops *ops;
    /* Optional: each engine MWr, after it is written to host memory, with
     * its last beat (a DESC_WB_FULL write's bytes: in host memory). */
    void (*on_mwr)(void *user, const struct dev_beat *b);
    /* Optional: which frame a frame starting with beat `first` must be
     * (several queues: the host cannot know the order); it is then checked
     * byte for byte and counted as expected.  NULL: the eh_post order. */
    struct eh_frame (*next_frame)(void *user, const struct dev_wire_beat *first);
    void *user;
};

struct eh_tlp {                  /* a host TLP to the device */
    uint8_t type, tag, err;
    uint8_t last;                /* CplD: the last of its MRd's */
    uint16_t len;
    uint16_t rd_len;             /* CplD: its MRd's length */
    uint64_t addr;
    uint8_t data[EH_MWR_MAX];    /* register MWr, WC write, or one CplD (<= EH_RCB) */
};

struct eh_pend {                 /* an engine MRd awaiting completion */
    uint64_t due, addr;
    uint16_t len;
    uint8_t tag, err;
    uint8_t data[4096];          /* host memory as the MRd found it */
};

struct eh_mrd {                  /* an engine MRd as taken */
    uint64_t cycle, addr;
    uint16_t len;
    uint8_t tag;
    uint8_t desc;                /* in the descriptor ring */
};

/* Ready-low bursts on one output stream: on each clock ready is high, a
 * burst starts with probability start / 65536 and lasts 1..max_len clocks
 * (uniform), the clock it starts included.  start 0: never. */
struct eh_stall {
    uint32_t start;
    unsigned max_len;
};

struct eh_stream {               /* one output stream's ready and what waited on it */
    struct eh_stall stall;
    uint64_t rng;
    unsigned left;               /* clocks of the current burst still to come */
    uint64_t low;                /* clocks ready was low */
    uint64_t blocked;            /* clocks a beat was offered with ready low */
    int held;                    /* last clock's beat waits: it must come again */
};

struct eh {
    struct eh_cfg cfg;
    const struct device_ops *ops;
    void *dev;
    unsigned width;              /* W: bytes per beat (ops->width) */
    uint64_t cycle;              /* clocks stepped */
    unsigned mwr_beat;           /* the beat of the engine's MWr that comes next */
    uint8_t *mem;
    uint8_t idle;                /* the device's idle output, last clock */
    uint8_t idle_quiet;          /* ... and no h2d beat was offered then */
    uint8_t waiting;             /* its waiting output (device.h), last clock */
    uint8_t wait_quiet;          /* ... and no h2d beat was offered then */
    uint32_t wake;               /* clocks it may be left out now (wake - skip) */
    uint32_t wake_out;           /* its wake output, last clock */
    uint32_t skip;               /* clocks left out before the next (eh_skip) */
    uint32_t skip_last;          /* ... before the last clock */
    /* host-to-device TLPs in order, one beat per clock */
    struct eh_tlp *q;
    unsigned q_head, q_count, q_beat;
    uint64_t q_pushed, q_taken;  /* TLPs queued and taken, ever */
    /* engine MRds waiting for their completions, in issue order */
    struct eh_pend *pend;
    unsigned p_head, p_count, p_max;
    uint32_t p_bytes, p_bytes_max;
    /* in flight: from the MRd taken to its last CplD taken */
    uint8_t tag_busy[256];
    unsigned f_count, f_max;
    uint32_t f_bytes, f_bytes_max;
    int hold;                    /* completions stop at an MRd at or above hold_from */
    uint64_t hold_from;
    uint64_t err_lo, err_hi;     /* reads overlapping [err_lo, err_hi) fail ... */
    unsigned err_left;           /* ... this many more times */
    /* every engine MRd */
    unsigned mrrs;
    unsigned n_mrds, n_desc_mrds;
    struct eh_mrd mrds[EH_MRD_LOG], last_mrd;
    uint8_t tag_seen[256];
    uint64_t mrd_hash;           /* of (cycle, addr, len, tag) of every MRd */
    /* register read in flight */
    uint8_t rd_tag, rd_done;
    uint32_t rd_val;
    uint64_t rd_data;            /* the whole aligned 8-byte word it answered with */
    uint64_t rd_off;
    /* output streams */
    struct eh_stream s_d2h, s_wire;
    struct dev_beat d2h_last;
    struct dev_wire_beat wire_last;
    /* wire */
    int wire_hold;
    int d2h_hold;                /* eh_hold_d2h */
    int in_frame;
    unsigned cur_off;
    uint32_t cur_crc;
    unsigned n_frames;
    uint64_t wire_bytes;
    uint64_t sop_cycle[EH_SOP_LOG];
    /* driver side */
    unsigned ring_log2;          /* reset 8 */
    uint32_t proto;              /* NICTX_PROTO_* */
    uint32_t prod;               /* descriptors posted, absolute */
    struct eh_frame *exp;
    unsigned n_exp;
    uint64_t exp_bytes;
};

/* A device from cfg.ops, reset, in a host as cfg says; -1 when out of
 * memory or the device cannot be made (eh_fini is still safe then). */
int eh_init(struct eh *h, const struct eh_cfg *cfg);
void eh_fini(struct eh *h);
/* The n (<= 8) bytes an engine TLP beat carries at its address's lanes,
 * little-endian (a single-beat MWr or CplD). */
uint64_t eh_beat_value(const struct eh *h, const struct dev_beat *b, unsigned n);
/* "  N cycles, N MRds, N frames" for verbose test runs. */
void eh_print_summary(const struct eh *h);

/* Host memory [addr, addr + len); fails outside it. */
uint8_t *eh_ptr(struct eh *h, uint64_t addr, unsigned len);

/* Clocks: one; n; until the engine is idle with nothing pending on either
 * side for 16 clocks (fails after max_cycles). */
void eh_step(struct eh *h);
void eh_run(struct eh *h, unsigned cycles);
void eh_settle(struct eh *h, unsigned max_cycles);
/* Leave out n clocks, as a simulator may while the device is waiting
 * (fails unless it was, with wake >= n, and no h2d beat is queued). */
void eh_skip(struct eh *h, unsigned n);

/* BAR0 registers: a write is queued; a read runs clocks until answered.
 * eh_wr64/eh_rd64: one 8-byte TLP (LO/HI pairs).  eh_mwr: a write of any
 * len (1..64) bytes, for bad sizes. */
void eh_wr32(struct eh *h, uint32_t off, uint32_t val);
uint32_t eh_rd32(struct eh *h, uint32_t off);
void eh_wr64(struct eh *h, uint32_t off, uint64_t val);
uint64_t eh_rd64(struct eh *h, uint32_t off);
void eh_mwr(struct eh *h, uint32_t off, const void *data, unsigned len);
/* Writes MRRS_LOG2, reads it back, checks MRds against it from now on. */
void eh_set_mrrs_log2(struct eh *h, unsigned log2);
/* One MWr of nwords (0..8; 0 sends nothing) 8-byte words to byte `off` of
 * WC buffer `buf`. */
void eh_wc_write(struct eh *h, unsigned buf, unsigned off, const uint64_t *w, unsigned nwords);

/* MRds a read of [addr, addr + len) takes at the MRRS the host checks
 * (one per MRRS-aligned block it touches). */
unsigned eh_mrd_count(const struct eh *h, uint64_t addr, unsigned len);

/* Completions stop at the first pending MRd at or above bus address
 * `from` (0: all of them) until eh_release, which makes every pending one
 * due now, in MRd order. */
void eh_hold(struct eh *h, uint64_t from);
void eh_release(struct eh *h);
/* The next n MRds overlapping [lo, hi) complete with UR. */
void eh_fail_reads(struct eh *h, uint64_t lo, uint64_t hi, unsigned n);
/* Wire ready low (on) or high. */
void eh_hold_wire(struct eh *h, int on);
/* d2h ready low (on) or high: no engine TLP leaves meanwhile (register
 * reads are not answered either), whatever the stall pattern says. */
void eh_hold_d2h(struct eh *h, int on);
/* Ready stalls on the d2h and the wire stream from now on (NULL: none),
 * drawn from `seed`: the same seed, the same pattern. */
void eh_stall(struct eh *h, uint64_t seed, const struct eh_stall *d2h,
              const struct eh_stall *wire);
/* Forget the outstanding-read maxima (p_max, p_bytes_max, f_max,
 * f_bytes_max): they start again from what is outstanding now. */
void eh_reset_maxima(struct eh *h);
/* The k-th pending MRd, oldest first; NULL if fewer are pending. */
const struct eh_pend *eh_pending(const struct eh *h, unsigned k);
/* Descriptor MRds among the logged ones from number `from` that cover ring
 * index idx (fails if MRds went unlogged). */
unsigned eh_desc_reads_of(const struct eh *h, unsigned from, uint32_t idx);

/* Ring of 2^log2 descriptors at cfg.ring_bus in protocol proto, the wire
 * at EH_LINE_FAST; the engine stays disabled (the caller sets CTRL). */
void eh_ring_setup(struct eh *h, unsigned log2, uint32_t proto);
uint32_t eh_ring_mask(const struct eh *h);
/* The owner bit (in descriptor word 1) for the descriptor posted as number
 * p (absolute): the ring pass's phase, 1 on the first; 0 in TAIL. */
uint64_t eh_owner_bit(const struct eh *h, uint32_t p);
void eh_write_desc(struct eh *h, uint32_t idx, uint64_t w0, uint64_t w1);
/* Descriptor for len bytes at bus address addr at the producer index,
 * expected on the wire unless `expect` is 0; its words to w[0..1] if w. */
void eh_post(struct eh *h, uint64_t addr, unsigned len, int expect, uint64_t *w);
/* A descriptor of raw words at the producer index (the owner bit added
 * per protocol), never expected on the wire: for bad lengths. */
void eh_post_raw(struct eh *h, uint64_t w0, uint64_t w1);
/* The driver's side after a queue reset: the producer moves on to index 0
 * of a pass with owner phase 1 (what was posted and not sent is dropped;
 * frames expected stay expected). */
void eh_ring_restart(struct eh *h);
/* TAIL = producer index. */
void eh_doorbell(struct eh *h);
/* Every expected frame is on the wire (each was checked as it arrived). */
void eh_check_frames(const struct eh *h);

#endif /* NICTX_ENGINE_HOST_H */
