/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stbuf.h - one CPU's store buffer and write-combining buffers: when each of
 * its stores becomes visible to the device.
 *
 * Host memory (host_mem.h) holds what the CPU sees: a store lands there at
 * once, so the CPU always reads its own stores (store forwarding,
 * coherence).  The store also enters this store buffer with a visibility
 * time and the bytes it overwrote.  What the *device* sees is memory with
 * every store not yet visible undone (stbuf_device_view): a DMA read sees
 * exactly the stores visible at its arrival.  Stores visible by a time are
 * forgotten with stbuf_retire.
 *
 * When a store becomes visible:
 *  - it drains after its service time: `hit_ns` to a line the CPU holds, or
 *    `miss_ns` (a read-for-ownership) to a line the device has read or
 *    written since the CPU last wrote it (stbuf_snoop);
 *  - STBUF_X86 (TSO): stores become visible in program order, and an
 *    uncached MMIO write leaves the CPU only after every earlier store is
 *    visible (stbuf_mmio_depart);
 *  - STBUF_WEAK (ARMv8-like): each store also waits a seeded random delay
 *    of up to one miss latency, so stores to different locations may become
 *    visible out of order, bounded by the window: a store is visible no
 *    later than the store `window` after it; only stores to the same bytes
 *    stay in order.  An MMIO write leaves at once, whatever is pending.
 *  - A barrier makes the CPU wait until every earlier store is visible
 *    (stbuf_drained_at); the harness books the wait as its own cause.
 *
 * Write-combining (WC) buffers: 64-byte lines of BAR0 written by
 * stbuf_wc_store.  A full line is due to drain after a seeded delay up to
 * `wc_drain_max_ns`; stbuf_wc_flush (sfence) drains every line at once, a
 * partial line as one TLP per run of contiguous bytes.  The caller emits the
 * drained lines as MWr TLPs (stbuf_wc_pop).  A store into a line that still
 * holds an undrained earlier copy merges into it, as WC buffers do; it is
 * counted and reported (stbuf_wc_store's return value).
 *
 * The same buffer holds the CPU's plain stores to driver state that other
 * CPUs read (plat_write_once32): their keys are the CPU pointer with bit
 * 63 set (STBUF_CPU_KEY), outside every bus address, so the device never
 * sees them; another CPU's load undoes them with stbuf_device_view until
 * they are visible.
 *
 * Deterministic: one seed drives every random choice.  No global state.
 */
#ifndef NICTX_STBUF_H
#define NICTX_STBUF_H

#include <stddef.h>
#include <stdint.h>

#include "lib/simtime.h"

enum stbuf_order { STBUF_X86, STBUF_WEAK };

#define STBUF_WINDOW_MAX 64u
#define STBUF_WC_LINES   8u   /* WC buffers (line fill buffers) per CPU */
#define STBUF_WC_LINE    64u
/* The key of a store to CPU memory (driver state), apart from bus addresses. */
#define STBUF_CPU_KEY(ptr) ((uint64_t)(uintptr_t)(ptr) | (1ull << 63))

struct stbuf_cfg {
    enum stbuf_order order;
    unsigned window;        /* weak: reorder window in stores, 1..STBUF_WINDOW_MAX */
    unsigned capacity;      /* store buffer entries; a full buffer stalls the CPU */
    double hit_ns;          /* drain of a store to a line the CPU holds */
    double miss_ns;         /* drain of a store to a line the device touched */
    double wc_drain_max_ns; /* an unfenced full WC line drains within this */
    uint64_t seed;
    /* Exploration (sim/host/explore.h; all 0 in a plain run): a store is also
     * held back, with probability tail_per_256 / 256, by a heavy-tailed
     * delay of up to tail_ns (a write-allocate miss, a snoop storm, an
     * interrupt between the store and its drain); store number hold_store
     * (1, 2, ...; 0: none) is held the whole tail_ns, as long as the
     * ordering rules and the barriers after it allow.  A store to driver
     * state (STBUF_CPU_KEY) is held with probability cpu_tail_per_256 / 256
     * instead. */
    double tail_ns;
    unsigned tail_per_256;
    unsigned cpu_tail_per_256;
    uint64_t hold_store;
    uint64_t mem_base;      /* bus address range whose lines are tracked */
    size_t mem_size;
};

/* A store not yet visible to the device (or not yet retired). */
struct stbuf_store {
    uint64_t addr;
    sim_ps_t vis;
    uint64_t seq;
    uint8_t len;
    uint8_t old[8];   /* the bytes it overwrote */
};

/* A WC line, or a drained piece of one. */
struct stbuf_wc_line {
    uint64_t off;         /* BAR0 offset of the line (piece: of its first byte) */
    uint64_t written;     /* bit i: byte i holds data not yet drained */
    sim_ps_t due;         /* drain time once full; SIM_PS_NEVER while partial */
    uint8_t data[STBUF_WC_LINE];
};

struct stbuf_stats {
    uint64_t stores, misses, wc_stores, wc_lines, wc_pieces, wc_merges;
    uint64_t cpu_stores; /* stores to driver state (STBUF_CPU_KEY) */
};

struct stbuf {
    struct stbuf_cfg cfg;
    struct stbuf_store *pend;     /* sorted by (vis, seq); retired from the front */
    size_t npend, cap;
    size_t nkey;                  /* of them, stores to driver state (STBUF_CPU_KEY) */
    uint64_t seq;
    sim_ps_t order_floor;         /* x86: visibility of the newest store or MMIO write */
    sim_ps_t max_vis;             /* latest visibility of any store issued */
    sim_ps_t win[STBUF_WINDOW_MAX]; /* weak: visibility of the last `window` stores */
    /* weak: the last `window` stores themselves (slot seq % window), whether
     * still pending: the only ones that can be visible after win_floor. */
    struct stbuf_recent {
        uint64_t addr, seq;
        sim_ps_t vis;
        uint8_t len, live;
    } recent[STBUF_WINDOW_MAX];
    sim_ps_t win_floor;           /* weak: max visibility of stores older than those */
    uint64_t rng;
    uint8_t *owned;               /* one bit per tracked line: the CPU holds it */
    struct stbuf_wc_line wc[STBUF_WC_LINES];
    unsigned nwc;
    struct stbuf_wc_line out[2 * STBUF_WC_LINES * 8]; /* drained, not yet popped */
    unsigned nout;
    struct stbuf_stats st;
};

/* 0, or -1 on a bad cfg or allocation failure. */
int stbuf_init(struct stbuf *b, const struct stbuf_cfg *cfg);
void stbuf_destroy(struct stbuf *b);

/*
 * A store of `len` (1..8) bytes at bus address `addr`, CPU pointer `mem`,
 * issued at `now`: writes `data` to `mem` (data NULL: the caller writes it
 * after the call, as instrumented driver code does) and returns the
 * store's visibility time.  The caller must first wait for room
 * (stbuf_room_at).
 */
sim_ps_t stbuf_store(struct stbuf *b, uint64_t addr, void *mem, const void *data, unsigned len,
                     sim_ps_t now);
/* Earliest time >= now at which the store buffer has a free entry. */
sim_ps_t stbuf_room_at(const struct stbuf *b, sim_ps_t now);
/* Time by which every store issued so far is visible (>= now). */
sim_ps_t stbuf_drained_at(const struct stbuf *b, sim_ps_t now);
/* The same for the stores to driver state (STBUF_CPU_KEY) alone. */
sim_ps_t stbuf_drained_cpu_at(const struct stbuf *b, sim_ps_t now);
/* Departure time of an uncached MMIO write issued at `now`: x86 waits for
 * earlier stores; weak does not.  Later x86 stores stay behind it. */
sim_ps_t stbuf_mmio_depart(struct stbuf *b, sim_ps_t now);

/* `buf` holds memory's bytes [addr, addr + len): undo in it every store not
 * visible at t, so it holds what a DMA read arriving at t sees.  Inline:
 * asked for every other CPU on every shared load, and most often nothing
 * of the kind asked for (a bus address, or driver state) is pending. */
void stbuf_device_view_pending(const struct stbuf *b, uint64_t addr, uint8_t *buf, size_t len,
                               sim_ps_t t);
static inline void stbuf_device_view(const struct stbuf *b, uint64_t addr, uint8_t *buf,
                                     size_t len, sim_ps_t t)
{
    size_t kind = addr & (1ull << 63) ? b->nkey : b->npend - b->nkey;

    if (kind != 0 && b->pend[b->npend - 1].vis > t)
        stbuf_device_view_pending(b, addr, buf, len, t);
}
/* A barrier at t makes every store issued so far visible by t, whatever
 * its drain time (a buffer the barrier does not wait for: see
 * sim/run/plain_access.c). */
void stbuf_clamp(struct stbuf *b, sim_ps_t t);
/* Forget every store visible by t (t must not decrease between calls). */
void stbuf_retire(struct stbuf *b, sim_ps_t t);
/* The device read or wrote [addr, addr + len): the CPU loses those lines. */
void stbuf_snoop(struct stbuf *b, uint64_t addr, size_t len);
/* Is any store to [addr, addr + len) still invisible at t?  Its latest
 * visibility time goes to *vis (when non-NULL). */
int stbuf_pending(const struct stbuf *b, uint64_t addr, size_t len, sim_ps_t t, sim_ps_t *vis);

/*
 * An 8-byte store to BAR0 offset `off` (8-aligned) through the WC mapping at
 * `now`.  Returns 1 when it merged into a line still holding an undrained
 * earlier copy (the earlier data is overwritten), else 0.
 */
int stbuf_wc_store(struct stbuf *b, uint32_t off, uint64_t val, sim_ps_t now);
/* sfence: every WC line drains at `now` (partial lines in pieces). */
void stbuf_wc_flush(struct stbuf *b, sim_ps_t now);
/* Earliest due time of a full undrained line, SIM_PS_NEVER if none. */
sim_ps_t stbuf_wc_next(const struct stbuf *b);
/* No WC line held or drained: stbuf_wc_next is SIM_PS_NEVER, stbuf_wc_collect
 * does nothing and stbuf_wc_peek is NULL (inline: asked at every platform
 * call and on every turn of the event loop). */
static inline int stbuf_wc_empty(const struct stbuf *b)
{
    return b->nwc == 0 && b->nout == 0;
}
/* Move lines due by `t` to the drained list (in due order). */
void stbuf_wc_collect(struct stbuf *b, sim_ps_t t);
/* Oldest drained piece, or NULL; stbuf_wc_pop removes it. */
const struct stbuf_wc_line *stbuf_wc_peek(const struct stbuf *b);
void stbuf_wc_pop(struct stbuf *b);

#endif /* NICTX_STBUF_H */
