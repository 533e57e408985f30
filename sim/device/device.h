/* SPDX-License-Identifier: Apache-2.0 */
/*
 * device.h - the device port contract, C side.
 *
 * A device backend (the Verilated RTL in dev_rtl.cpp, the cycle-exact C
 * model in dev_cm.c, or both in lockstep, dev_lockstep.c) is driven one
 * clock at a time through struct device_ops.  Its ports mirror
 * rtl/nictx_tx_top.sv, whose datapath is W = device_ops.width bytes wide
 * (8, 16, 32 or 64: the RTL parameter DataBytes, one model per width;
 * docs/width.md):
 *
 *  - h2d: host-to-device TLP beats (MWr/MRd to BAR0, CplD for the device's
 *    reads).  Header fields are repeated on every beat of a TLP; the data
 *    lanes follow the address (lane = address mod W), so a TLP of len bytes
 *    at address a has ceil(((a mod W) + len) / W) beats; an MRd has one.  A
 *    register MWr or MRd (4 or 8 bytes, naturally aligned) is one beat at
 *    any width.
 *  - d2h: device-to-host TLP beats, same rules; a register read the BAR
 *    does not support is answered with a Cpl (DEV_TLP_CPL, err set, len 0).
 *  - wire: frame bytes (without FCS) from byte 0, W per beat, `bytes` valid
 *    (1..W; W on every beat but the last); the MAC's FCS comes with the
 *    last beat.
 *
 * Data lanes are bytes: data[i] is lane i (bits 8i+7..8i of the RTL port).
 * Lanes at and above W carry nothing: the host side zeroes them on h2d, and
 * a device leaves them untouched on its outputs (read only W lanes).
 *
 * Each stream is valid/ready: a beat moves on a clock when valid and ready
 * are both high before that clock edge.  A beat's other fields mean
 * something only while its valid is high: a device may leave them as they
 * were on an earlier clock otherwise (the RTL shows its slice's stale head;
 * the C model builds a beat only when it is valid), and the lockstep
 * comparison (dev_lockstep.c) compares them only then.  device_ops.step() presents the
 * inputs, settles the logic, samples the outputs (which tell what moves on
 * this edge) and then applies one rising clock edge.
 *
 * Idle and skipped clocks: `idle` says no state can change without host
 * input (an h2d beat).  `waiting` says the same except for state that
 * changes with time alone (idle implies waiting): in the RTL model the
 * completion timer of reads that wait for their data and the MAC's line
 * credit.  While waiting, a caller may leave out up to `wake` - dev_in.skip
 * clocks after this one (none if that is below 1; UINT32_MAX: no limit) and
 * must say on the next clock it runs how many it left out (dev_in.skip);
 * the device then acts as if every clock had run.
 *
 * Tags: 8 bits, one pool for descriptor and payload reads; the harness
 * tells the two apart by address (the descriptor ring's range).
 */
#ifndef NICTX_DEVICE_H
#define NICTX_DEVICE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/simtime.h"
#include "obs/obs.h"

/* TLP type encoding on the ports (rtl/nictx_pkg.sv); same values as tlp.h. */
#define DEV_TLP_MWR 0u
#define DEV_TLP_MRD 1u
#define DEV_TLP_CPLD 2u
#define DEV_TLP_CPL 3u /* completion without data (len 0): from the device,
                          always with err (Unsupported Request) */

#define DEV_WIDTH_DEFAULT 8u /* bytes per beat of the default model */
#define DEV_WIDTH_MAX 64u    /* the widest model: every beat has room for it */

/* W is one of these (the models nictx builds). */
static inline int dev_width_ok(unsigned w)
{
    return w == 8 || w == 16 || w == 32 || w == 64;
}

/* The hardware parameters that size the engine's storage besides W: the
 * elaboration parameters of rtl/nictx_tx_top.sv, which the register
 * settings (QUEUES, MAX_TAGS, DESC_INFLIGHT) cap within (docs/codesign.md).
 * The prebuilt models have DEV_HW_DEFAULT; another combination is a model
 * of its own (sim/device/dev_models.h). */
struct dev_hw {
    unsigned queues;     /* NumQueues: 1 or a power of two up to 64 */
    unsigned tags;       /* NumTags: a power of two, 2..256 */
    unsigned desc_reads; /* DescReads: descriptor reads outstanding (a FIFO's depth) */
    unsigned desc_buf;   /* DescBufDescs: descriptor buffer slots */
    unsigned pay_buf;    /* PayBufBytes: the payload reassembly buffer */
    unsigned pkts;       /* MaxPkts: frames in the payload buffer at once (FIFO depth) */
};
#define DEV_HW_DEFAULT {64u, 256u, 8u, 256u, 32768u, 256u}

struct dev_beat {
    uint8_t valid;
    uint8_t sop, eop;
    uint8_t type;  /* DEV_TLP_* */
    uint8_t tag;
    uint16_t len;  /* payload bytes of the whole TLP (MRd: requested bytes) */
    uint64_t addr; /* CplD to the device: address of its first byte; from the
                      device: the register offset of the read it answers */
    uint8_t err;   /* CplD to the device: its data is unusable: a status other
                      than Successful (UR, CA) or poisoned (EP); data lanes zero.
                      Cpl from the device: status Unsupported Request */
    uint8_t data[DEV_WIDTH_MAX]; /* lanes 0..W-1 */
};

struct dev_wire_beat {
    uint8_t valid;
    uint8_t sop, eop;
    uint8_t bytes; /* 1..W */
    uint32_t fcs;  /* on the eop beat */
    uint8_t data[DEV_WIDTH_MAX]; /* frame bytes in lanes 0..bytes-1 */
};

struct dev_in {
    struct dev_beat h2d; /* h2d.valid: a beat is offered */
    uint8_t d2h_ready;
    uint8_t wire_ready;
    uint32_t skip;       /* clocks left out just before this one (see above) */
};

struct dev_out {
    uint8_t fault;           /* the device cannot go on: device_ops.fault says why
                                (an RTL assertion, a lockstep difference) */
    uint8_t h2d_ready;       /* the offered h2d beat is taken on this edge */
    struct dev_beat d2h;     /* taken on this edge iff d2h.valid && d2h_ready */
    struct dev_wire_beat wire; /* likewise with wire_ready */
    uint8_t idle;            /* no state can change without host input */
    uint8_t waiting;         /* ... but a completion timer (above) */
    uint32_t wake;           /* when waiting: clocks that may be left out after this
                                one, plus this clock's dev_in.skip (above) */
};

/* A waveform of the device's signals (docs/observability.md, Waveforms):
 * FST written to `path` (through a temporary file, renamed by wave_close),
 * one sample a clock inside the window: at the start of the clock period
 * that ends at the edge *now (so at *now - period_ps), every signal as the
 * edge samples it, with the clock high, and the clock low half a period
 * later.  `now` and `win` are the caller's and change as the run goes. */
struct dev_wave {
    const char *path;
    const sim_ps_t *now;
    const struct obs_window *win;
    sim_ps_t period_ps;
};

/* Several clocks in one call (device_ops.run).  Each is one step() would
 * give with d2h_ready and wire_ready high and skip 0, and on h2d, while
 * `h2d` is non-NULL, the beats of one TLP: *h2d on the first clock, kept on
 * offer until the device takes it, then the h2d_rest after it (0: *h2d is
 * the TLP's last beat, eop set), each as *h2d but for sop (0) and its
 * lanes, at h2d_next + (j - 1) * W for the j-th after it, but the last of
 * them, the TLP's last beat, the same with eop set and h2d_last_bytes
 * bytes in its lanes, the rest 0 (h2d NULL: nothing offered
 * on any clock).  dev_run_beat() builds them.  The run ends on the clock
 * that takes the last beat (h2d_taken counts it).
 *
 * The clocks a run holds are those whose outputs need nothing of the
 * caller but to count the clock, take the beats and gather the wire
 * bytes: no d2h beat, and a wire beat (if any) that does not end its
 * frame, with W bytes of wire_room left, inside a frame (the caller's open
 * one, frame_open 1, or one the run started) or starting one while none
 * is open (wire_sop: its clock, the run's first wire beat); and a beat
 * offered or a wire beat out (so not quiescent).  Its last clock may
 * instead be one that needs more (a d2h beat, a wire beat ending a frame,
 * or another one starting or outside a frame):
 * `last` non-NULL lets the device run that one too and end there, its
 * outputs in *last (ended 1; its wire beat is not gathered, its h2d beat,
 * if taken, not counted).  The device stops before any other clock, after
 * `max`; it may run none (then the caller steps that clock).  The caller
 * uses it only where nothing of its own happens over those clocks.
 *
 * The device is at a clock boundary only between runs: --device lockstep
 * steps the reference on each clock of a run and compares its ports with
 * what the run did (trace), and every output again on the next step. */
struct dev_run { /* (no padding: the harness clears one for each run) */
    uint32_t max;               /* clocks at most */
    uint32_t wire_room;         /* bytes of room at `wire` (below; past the beats
                                   gathered, the device's scratch) */
    const struct dev_beat *h2d; /* the beat on offer, or NULL */
    const uint8_t *h2d_next;    /* the lanes of the beats after it, W apiece */
    uint32_t h2d_rest;          /* beats after *h2d in its TLP (0: none) */
    uint32_t h2d_last_bytes;    /* the bytes of the TLP's last beat, 1..W */
    uint8_t *wire;              /* the wire beats' W bytes apiece, in order */
    uint8_t *trace;             /* NULL, or max bytes: per clock run, DEV_RUN_* */
    struct dev_out *last;       /* NULL, or the outputs of an ending clock */
    /* out */
    uint32_t clocks;            /* clocks run */
    uint32_t h2d_taken;         /* h2d beats taken (but on an ending clock) */
    uint32_t wire_beats;        /* wire beats gathered at `wire` */
    uint32_t streamed;          /* of the clocks, those the device ran without
                                   evaluating all of itself (the C model's stream
                                   clocks): a figure only, changing nothing */
    uint32_t wire_sop;          /* the clock (1: the first) whose wire beat, the
                                   first gathered, started a frame; 0: none */
    uint8_t frame_open;         /* in: a frame is open at the caller */
    uint8_t ended;              /* the last clock was an ending one: *last */
    uint8_t idle;               /* the last clock's dev_out.idle */
    uint8_t fault;              /* as dev_out.fault, after the clocks run */
};
#define DEV_RUN_H2D 1u  /* trace: the beat offered was taken on this clock */
#define DEV_RUN_WIRE 2u /* trace: a wire beat was out on this clock */
#define DEV_RUN_IDLE 4u /* trace: dev_out.idle on this clock */

static inline void dev_lanes_copy(uint8_t *dst, const uint8_t *src, unsigned w);
static inline void dev_lanes_zero(uint8_t *dst, unsigned w);
/* The h2d beat a run offers after `taken` were taken: *r->h2d, then the
 * ones after it (struct dev_run). */
static inline void dev_run_beat(unsigned w, const struct dev_run *r, uint32_t taken,
                                struct dev_beat *b)
{
    memcpy(b, r->h2d, offsetof(struct dev_beat, data));
    if (taken == 0) {
        dev_lanes_copy(b->data, r->h2d->data, w);
        return;
    }
    const uint8_t *lanes = r->h2d_next + (size_t)(taken - 1) * w;
    b->sop = 0;
    if (taken < r->h2d_rest) {
        dev_lanes_copy(b->data, lanes, w);
        return;
    }
    b->eop = 1;
    dev_lanes_zero(b->data, w);
    memcpy(b->data, lanes, r->h2d_last_bytes);
}

struct device_ops {
    const char *name; /* "rtl", "c" or "lockstep" */
    unsigned width;   /* W: data bytes per beat on every stream */
    /* Create one device instance in reset; NULL on failure. */
    void *(*create)(void);
    void (*destroy)(void *dev);
    /* Hold reset for a few clocks, then release it. */
    void (*reset)(void *dev);
    /* One clock: see above. */
    void (*step)(void *dev, const struct dev_in *in, struct dev_out *out);
    /* NULL, or what went wrong inside the device (an RTL assertion, the
     * lockstep backend's first divergence), asked when a clock's
     * dev_out.fault is set: the caller ends the run with it.  May be NULL. */
    const char *(*fault)(const void *dev);
    /* Waveforms: NULL when this model cannot write them; else open the
     * FST (0, or -1 with a message) and, at the end, close it (0, or -1). */
    int (*wave_open)(void *dev, const struct dev_wave *w, char *err, size_t n);
    int (*wave_close)(void *dev, char *err, size_t n);
    /* The same model built to write waveforms (itself if it can; NULL if
     * this build has none: the Verilated RTL traces only in a model
     * Verilated with --trace-fst, a build of its own). */
    const struct device_ops *traced;
    /* NULL, or the device's functional cover point counters since creation
     * (COVER_N of them, by enum cover_id of lib/cover.h: the C model's;
     * the Verilated RTL counts its own `cover property`s, make coverage). */
    const uint64_t *(*cover)(const void *dev);
    /* Models of another hardware combination than DEV_HW_DEFAULT
     * (sim/device/dev_models.c): create_with(self) makes the instance in
     * place of create(), reading self->hw and self->ctx.  NULL on the
     * static ops; dev_create() picks. */
    void *(*create_with)(const struct device_ops *self);
    const struct dev_hw *hw; /* NULL: DEV_HW_DEFAULT */
    const void *ctx;
    /* NULL, or several clocks in one call (struct dev_run above): the
     * clocks run (0: the caller steps the next one). */
    uint32_t (*run)(void *dev, struct dev_run *r);
};

/* An instance of `ops` in reset (create or create_with); NULL on failure. */
static inline void *dev_create(const struct device_ops *ops)
{
    return ops->create_with ? ops->create_with(ops) : ops->create();
}

/* Beats of a TLP of `len` bytes at `addr` on a W-byte port (an MRd, and a
 * TLP without data, has one). */
/* (W is a power of two: lanes and beats by mask and shift, not division.) */
static inline unsigned dev_tlp_beats(unsigned w, unsigned type, uint64_t addr, unsigned len)
{
    return type == DEV_TLP_MRD || len == 0
               ? 1u
               : ((unsigned)(addr & (w - 1)) + len + w - 1) >> __builtin_ctz(w);
}

/* Lanes follow the address: byte `lane` of beat k of a TLP at `addr` is
 * TLP data byte k * W + lane - (addr mod W); -1 when it carries none. */
static inline long dev_beat_byte(unsigned w, uint64_t addr, unsigned len, unsigned k,
                                 unsigned lane)
{
    long i = (long)k * w + (long)lane - (long)(addr & (w - 1));
    return i >= 0 && i < (long)len ? i : -1;
}

/* W lanes copied or cleared by a move of a size fixed at compile time,
 * which the compiler inlines, not a library call with the size known only
 * at run time: a clock moves a few beats, and such a call costs more than
 * their bytes. */
static inline void dev_lanes_copy(uint8_t *dst, const uint8_t *src, unsigned w)
{
    switch (w) {
    case 8: memcpy(dst, src, 8); break;
    case 16: memcpy(dst, src, 16); break;
    case 32: memcpy(dst, src, 32); break;
    case 64: memcpy(dst, src, 64); break;
    default: memcpy(dst, src, w); break;
    }
}

static inline void dev_lanes_zero(uint8_t *dst, unsigned w)
{
    switch (w) {
    case 8: memset(dst, 0, 8); break;
    case 16: memset(dst, 0, 16); break;
    case 32: memset(dst, 0, 32); break;
    case 64: memset(dst, 0, 64); break;
    default: memset(dst, 0, w); break;
    }
}

/* The data lanes of beat k of a TLP whose payload is data[0..len) into
 * lanes[0..DEV_WIDTH_MAX): the bytes it carries, zero elsewhere. */
static inline void dev_beat_data(unsigned w, uint64_t addr, unsigned len, const uint8_t *data,
                                 unsigned k, uint8_t *lanes)
{
    long first = (long)k * w - (long)(addr & (w - 1)); /* TLP byte in lane 0 */
    long lo = first < 0 ? -first : 0;                  /* first lane with a byte */
    long hi = (long)len - first;                       /* lanes below it have one */

    memset(lanes, 0, DEV_WIDTH_MAX);
    if (lo == 0 && hi >= (long)w) { /* (a whole beat) */
        dev_lanes_copy(lanes, data + first, w);
        return;
    }
    if (hi > (long)w)
        hi = (long)w;
    if (hi > lo)
        memcpy(lanes + lo, data + first + lo, (size_t)(hi - lo));
}

/* A little-endian value of n (<= 8) bytes from lanes[lane..lane+n). */
static inline uint64_t dev_lanes_get(const uint8_t *lanes, unsigned lane, unsigned n)
{
    uint64_t v = 0;

    while (n--)
        v = v << 8 | lanes[lane + n];
    return v;
}

/* The Verilated RTL backend (sim/device/dev_rtl.cpp), one model per width:
 * dev_rtl_ops is the default (8-byte) one, the same as dev_rtl_ops_w8.
 * Every binary links the 8-byte model; those that link sim/device/dev_rtl_widths.c
 * and every model (nictx, the width tests) look the others up by width. */
extern const struct device_ops dev_rtl_ops;
extern const struct device_ops dev_rtl_ops_w8, dev_rtl_ops_w16, dev_rtl_ops_w32, dev_rtl_ops_w64;
/* The RTL model of W bytes per beat; NULL if W is not one (dev_width_ok). */
const struct device_ops *dev_rtl_ops_width(unsigned w);

/* The cycle-exact C model of the engine (c-model/, sim/device/dev_cm.c), one per
 * width like the RTL's; NULL if W is not one. */
const struct device_ops *dev_cm_ops_width(unsigned w);
/* The plain C model's create_with (struct device_ops): an engine of
 * self->width at *self->hw; NULL for a combination the C model has not. */
void *dev_cm_create_with(const struct device_ops *self);
/* ... and of the C model that writes waveforms (its ops' traced). */
void *dev_cm_wave_create_with(const struct device_ops *self);
/* The trace-enabled RTL model of W bytes per beat (--wave); NULL if W is
 * not one or this build has none. */
const struct device_ops *dev_rtl_trace_ops_width(unsigned w);
/* Both in lockstep (sim/device/dev_lockstep.c); NULL if W is not one. */
const struct device_ops *dev_lockstep_ops_width(unsigned w);
/* A lockstep device of any two backends of one width: `ref`'s outputs
 * drive the run, `dut`'s are compared with them (the ops of
 * dev_lockstep_ops_width() other than create work on it); NULL on failure. */
void *dev_lockstep_create(const struct device_ops *ref, const struct device_ops *dut);
/* The lockstep's second waveform file: `name` (the model checked) before
 * the extension of `path` ("run.fst", "c": "run.c.fst"). */
void dev_lockstep_wave_path(const char *path, const char *name, char *out, size_t n);

/* The device backends a run can use (--device; their names are
 * sim_cfg.c's): the Verilated RTL, the C model, or both in lockstep
 * (sim/device/dev_lockstep.c: every output compared on every clock, the RTL's
 * driving the run; the first difference ends it through device_ops.fault). */
enum dev_backend { DEV_BACKEND_RTL, DEV_BACKEND_CM, DEV_BACKEND_LOCKSTEP };
/* The backend `b` at width W (sim/device/dev_select.c); NULL if this build has no
 * such model. */
const struct device_ops *dev_ops_for(enum dev_backend b, unsigned w);

#endif /* NICTX_DEVICE_H */
