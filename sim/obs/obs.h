/* SPDX-License-Identifier: Apache-2.0 */
/*
 * obs.h - what a run shows of itself: a ring of recent events, and the
 * outputs made from it (docs/observability.md).
 *
 * What it models: nothing.  The parts of a run (the CPUs and their
 * platform calls, both link directions, the device port, the checkers)
 * tell the tracer what happened, as raw facts of 32 bytes (struct obs_ev):
 * a time, a kind, a track (a CPU, a link direction) and a few numbers.
 * The tracer keeps them in a ring; what they mean on a timeline (slices,
 * lanes, flows from a doorbell to the wire, counters) is worked out only
 * when the timeline takes them from the ring (obs_timeline.h), a batch at a
 * time.  So recording an event costs a few stores, and a run with no
 * tracer (no --wave, --timeline or --pcap-out) costs one predictable
 * branch per hook (`if (obs)`).  A run that stops is run again with a
 * tracer for its snapshot (sim_snapshot, harness.h).
 *
 * The window: [from, to) in simulated picoseconds, each bound given as a
 * time or as a packet number (struct obs_point).  A packet bound becomes a
 * time when it happens: `from` packet N when the driver posts its N-th
 * packet (counted from 0 over every queue), `to` packet N when the N-th
 * frame has left the wire.  Until then the bound is SIM_PS_NEVER.  The
 * waveform writers (device backends) and the timeline read the same
 * window (obs_window()).
 *
 * Also here: every frame that leaves the wire goes to the pcap writer
 * (obs_pcap.h) if there is one.
 *
 * Contract: a struct obs belongs to one run (struct sim owns it); no global
 * state.  obs_create fails with a message (a file that cannot be written,
 * no memory).  Events are recorded in call order, which is not time order
 * (a TLP is recorded when it starts, a store's visibility ahead of time):
 * whoever reads them orders them by their time.
 */
#ifndef NICTX_OBS_H
#define NICTX_OBS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/simtime.h"

#define OBS_PATH_MAX 1024 /* bytes of a file name, NUL included */

/* A window bound: a time (ps) or a packet number; unset: open. */
struct obs_point {
    uint64_t v;  /* ps, or a packet number */
    uint8_t set; /* given */
    uint8_t pkt; /* v is a packet number */
};

/* A run's observability settings (the settings table's rows; sim_cfg.obs). */
struct obs_cfg {
    char wave[OBS_PATH_MAX];     /* --wave FILE.fst: the device's signals, in the window */
    char timeline[OBS_PATH_MAX]; /* --timeline FILE.json: Chrome trace events, in the window */
    char pcap_out[OBS_PATH_MAX]; /* --pcap-out FILE: every frame off the wire */
    char pcap_in[OBS_PATH_MAX];  /* --pcap-in FILE: the frames to send */
    struct obs_point from, to;   /* --wave-from, --wave-to */
    double pcap_timing;          /* --pcap-timing: inter-arrival times x this (0: off) */
    int no_snapshot;             /* --no-snapshot */
    double snapshot_us;          /* --snapshot-us: the window before a stop */
};

/* The kinds of raw event; what each field holds is in its comment
 * (t: time; a, b: 64-bit numbers; c: 32 bits; x: 16 bits; track). */
enum obs_kind {
    OBS_CPU,     /* CPU track: [t, a) booked to cause x (enum cpu_cause) */
    OBS_OP,      /* CPU track: [t, a) a platform call x (enum obs_op), c its count */
    OBS_VISIBLE, /* CPU track: at t, the store to bus address b, issued at a, is visible */
    OBS_MMIO,    /* CPU track: at t, MMIO write x (enum tlp_kind) of a at offset b, queue c */
    OBS_PUBLISH, /* CPU track: at t, queue x's packets below b are the device's */
    OBS_POST,    /* CPU track: at t, queue x posts packet b, frame at bus address a,
                    in slot c & 0xffff, c >> 16 descriptors in use */
    OBS_UNMAP,   /* CPU track: at t, the buffer at bus address a is reclaimed */
    OBS_RESUME,  /* CPU track: at t, the CPU's coroutine runs again */
    OBS_QUEUE,   /* CPU track: at t, queue x has c descriptors in use, BQL limit a
                    (UINT64_MAX: no BQL) */
    OBS_TLP,     /* link track (0 h2d, 1 d2h): [t, a) serializes a TLP: kind x & 0xff,
                    tag x >> 8, address b, length c & 0xffff, wire bytes c >> 16 */
    OBS_STALL,   /* link track: [t, a) the head TLP waited for credits of type x */
    OBS_DEV_TLP, /* device: at t, a TLP leaves it: kind x & 0xff, tag x >> 8, address b,
                    length c; a tags in use after it */
    OBS_DEV_CPL, /* device: at t, it took the last completion of tag x (c: an error);
                    a tags in use after it */
    OBS_FRAME,   /* wire: [t, a) frame b (its seq) of queue x, c bytes without FCS:
                    its first beat on the wire port to past its last */
    OBS_VIOL,    /* at t, violation a (const char *kind), b (const char *detail or 0),
                    queue x */
    OBS_NOTE,    /* at t, the run ends: a (const char *why) */
    OBS_KINDS
};

/* Platform calls shown as one slice each (OBS_OP). */
enum obs_op {
    OBS_OP_DMA_WMB, OBS_OP_WMB, OBS_OP_SMP_MB, OBS_OP_SMP_WMB, OBS_OP_SMP_RMB,
    OBS_OP_XMIT, OBS_OP_CLEAN_POLL, OBS_OP_CLEAN_DESC, OBS_OP_QDISC, OBS_OP_MMIO_READ,
    OBS_OP_LOCK, OBS_OP_UNLOCK, OBS_OPS
};
const char *obs_op_name(unsigned op);

struct obs_ev {
    sim_ps_t t;
    uint64_t a, b;
    uint32_t c;
    uint8_t kind, track;
    uint16_t x;
};

/* The window in ps, bounds resolved so far. */
struct obs_window {
    sim_ps_t from, to;
};

/* What a timeline needs to know of the run to read the events. */
struct obs_run_info {
    unsigned ncpu, nqueues;
    uint64_t ring_base[64];   /* each queue's descriptor ring (bus address) */
    unsigned ring_size;       /* descriptors in each */
    unsigned desc_bytes;      /* bytes a descriptor */
    /* The names of the layers after this one (a cause, a TLP kind, a
     * credit type), and the TLP kinds the timeline tells apart. */
    const char *(*cause_name)(unsigned cause);
    const char *(*tlp_kind_name)(unsigned kind);
    const char *(*fc_name)(unsigned type);
    unsigned idle_cause;
    unsigned kind_doorbell, kind_desc_rd, kind_payload_rd, kind_completion, kind_irq;
    /* The queue a device write to addr reports on (irq: an MSI-X message). */
    unsigned (*write_queue)(const void *ctx, uint64_t addr, int irq);
    const void *ctx;
};

struct obs_timeline;
struct obs_pcap;

struct obs {
    struct obs_ev *ring;
    uint64_t mask;       /* ring size - 1 (a power of two) */
    uint64_t n;          /* events recorded so far */
    uint64_t done;       /* ... of which the timeline has taken */
    uint64_t flush_at;   /* n at which the timeline takes them (UINT64_MAX: never) */
    struct obs_window win;
    struct obs_point from_cfg, to_cfg;
    uint64_t posted, frames; /* packets posted, frames on the wire: packet bounds */
    uint64_t tags;       /* device reads outstanding (tags in use) */
    struct obs_run_info info;
    struct obs_timeline *tl; /* --timeline, or NULL */
    struct obs_pcap *pcap;   /* --pcap-out, or NULL */
};

/* A tracer for the settings: a ring of 2^ring_log2 events, the timeline
 * and pcap files opened (written through temporary files, renamed by
 * obs_close).  NULL with a message in err.  info may be filled in later
 * (obs_info), before the first event that needs it. */
struct obs *obs_create(const struct obs_cfg *cfg, unsigned ring_log2, char *err, size_t n);
struct obs_run_info *obs_info(struct obs *o);
/* Finish the outputs: the rest of the timeline, then every file renamed
 * into place.  0, or -1 with a message (the files are removed). */
int obs_close(struct obs *o, char *err, size_t n);
/* Free everything; outputs not closed are removed.  NULL is fine. */
void obs_destroy(struct obs *o);

/* The window as resolved so far. */
static inline const struct obs_window *obs_window(const struct obs *o)
{
    return &o->win;
}

/* The timeline takes the events recorded since it last did. */
void obs_flush(struct obs *o);

/* Each kind's event, recorded: one call a hook makes behind its
 * `if (obs)`: out of line and cold (GCC puts the calls, their argument
 * set-up and these functions apart from the hot code), so that a run
 * without a tracer pays the branch alone. */
#define OBS_COLD __attribute__((cold))
/* [t0, t1) on CPU `cpu` booked to `cause`. */
OBS_COLD void obs_cpu(struct obs *o, unsigned cpu, unsigned cause, sim_ps_t t0, sim_ps_t t1);
/* A platform call on CPU `cpu`, [t0, t1), n of them (a batch of work). */
OBS_COLD void obs_op(struct obs *o, unsigned cpu, enum obs_op op, sim_ps_t t0, sim_ps_t t1, unsigned n);
OBS_COLD void obs_visible(struct obs *o, unsigned cpu, uint64_t addr, sim_ps_t issued, sim_ps_t vis);
OBS_COLD void obs_mmio(struct obs *o, unsigned cpu, sim_ps_t t, unsigned kind, uint32_t off, uint64_t val,
              unsigned queue);
OBS_COLD void obs_publish(struct obs *o, unsigned cpu, sim_ps_t t, unsigned queue, uint64_t count);
/* Packet posting: a function (it resolves a packet bound of the window). */
OBS_COLD void obs_post(struct obs *o, unsigned cpu, sim_ps_t t, unsigned queue, uint64_t seq,
              uint64_t frame_bus, unsigned slot, unsigned in_use);

OBS_COLD void obs_unmap(struct obs *o, unsigned cpu, sim_ps_t t, uint64_t bus);
OBS_COLD void obs_resume(struct obs *o, unsigned cpu, sim_ps_t t);
OBS_COLD void obs_queue(struct obs *o, unsigned cpu, sim_ps_t t, unsigned queue, unsigned in_use,
               uint64_t bql_limit);

/* A TLP serialized on link direction `dir` (0 h2d, 1 d2h). */
OBS_COLD void obs_tlp(struct obs *o, unsigned dir, sim_ps_t t0, sim_ps_t t1, unsigned kind, unsigned tag,
             uint64_t addr, unsigned len, unsigned wire);
OBS_COLD void obs_stall(struct obs *o, unsigned dir, sim_ps_t t0, sim_ps_t t1, unsigned fc_type);
/* A TLP leaves the device; a read (mrd) takes a tag. */
OBS_COLD void obs_dev_tlp(struct obs *o, sim_ps_t t, unsigned kind, unsigned tag, uint64_t addr,
                 unsigned len, int mrd);
/* The device took the last completion of a read. */
OBS_COLD void obs_dev_cpl(struct obs *o, sim_ps_t t, unsigned tag, int err);

/* A frame left the wire (also to the pcap file; resolves a packet bound). */
OBS_COLD void obs_frame(struct obs *o, sim_ps_t t0, sim_ps_t t1, unsigned queue, uint64_t seq,
               const uint8_t *frame, unsigned len);
/* A violation, and the run's end (why: text that lives as long as the run). */
OBS_COLD void obs_violation(struct obs *o, sim_ps_t t, unsigned queue, const char *kind,
                   const char *detail);
OBS_COLD void obs_note(struct obs *o, sim_ps_t t, const char *why);

static inline const struct obs_ev *obs_at(const struct obs *o, uint64_t i)
{
    return &o->ring[i & o->mask];
}

/* "12.5us", "800ns", "2ms", "1500ps", "0.001s" (a time) or "100" (a packet
 * number): 0, or -1 with the reason in why. */
int obs_point_parse(const char *s, struct obs_point *p, char *why, size_t n);
void obs_point_format(const struct obs_point *p, char *buf, size_t n);

#endif /* NICTX_OBS_H */
