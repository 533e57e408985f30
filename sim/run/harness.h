/* SPDX-License-Identifier: Apache-2.0 */
/*
 * harness.h - one simulation: driver on a simulated CPU, PCIe link, host
 * memory, a device backend, and the wire scoreboard, on one timeline.
 *
 * sim_create() builds the world from a validated config and brings the
 * queue up (the driver probes and programs the device through the link);
 * sim_run() runs pktgen until every packet is sent and reclaimed, or a
 * watchdog ends the run with a diagnosis.  Everything hangs off struct sim;
 * two simulations can share a process.  Given the same config (and seed),
 * a run is deterministic: every figure but the wall-clock ones repeats.
 */
#ifndef NICTX_HARNESS_H
#define NICTX_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host/cacheline.h"
#include "host/cpu.h"
#include "device/dev_area.h"
#include "device/device.h"
#include "dql.h"
#include "pcie/pcie_cfg.h"
#include "pcie/pcie_link.h"
#include "run/inject.h"
#include "run/rd_pool.h"
#include "check/scoreboard.h"
#include "host/stbuf.h"
#include "lib/cover.h"
#include "obs/obs.h"
#include "txq.h"
#include "buf_place.h"

enum sim_layout { SIM_LAYOUT_SPLIT, SIM_LAYOUT_PACKED };
/* The device's transmit scheduler across queues (NICTX_REG_SCHED). */
enum sim_sched { SIM_SCHED_RR, SIM_SCHED_DRR };

#define SIM_QUEUES_MAX 64u   /* NICTX_Q_MAX */
#define SIM_WEIGHT_MAX 255u  /* a queue's WEIGHT */
/* --weights: n values; n == 1 gives every queue v[0]. */
struct sim_weights {
    unsigned n;
    unsigned v[SIM_QUEUES_MAX];
};
enum sim_source { SIM_SOURCE_PKTGEN, SIM_SOURCE_QDISC };
/* The qdisc's root with several queues: one per queue (the kernel's mq
 * default), or one all queues share (a single-queue root qdisc). */
enum sim_qdisc_root { SIM_ROOT_PER_QUEUE, SIM_ROOT_SHARED };
/* One CPU: when the cleanup runs (two CPUs: the completion CPU's interrupt). */
/* What the device writes back under --completion desc-wb (--desc-wb). */
enum sim_desc_wb {
    SIM_DESC_WB_WORD, /* a 4 B done word (DD) in the batch's last descriptor */
    SIM_DESC_WB_FULL, /* every descriptor of the batch, 16 B (Intel 82599 write-back) */
};

enum sim_napi {
    SIM_NAPI_POLL, /* a cleanup pass after every burst (busy polling) */
    SIM_NAPI_IRQ,  /* the interrupt's NAPI poll, between bursts */
};

/* Where pktgen's buffers lie (driver/buf_place.h); align: BUF_PLACE_ALIGN's. */
struct sim_buf_place {
    enum buf_place_mode mode;
    unsigned align;
};

struct sim_cfg {
    /* workload (pktgen) */
    unsigned pkt_size;     /* Ethernet frame size incl. 4 B FCS, 64..16387 */
    unsigned pkt_size_max; /* > pkt_size: sizes uniform in [pkt_size, max] */
    unsigned burst;        /* pktgen burst: N-1 with xmit_more, then a doorbell */
    uint64_t packets;
    uint64_t seed;
    unsigned buf_offset;   /* frame offset in its buffer, 0..PKTGEN_BUF_OFFSET_MAX */
    struct sim_buf_place buf_place; /* where the buffers lie (--buf-align) */
    /* host */
    char cpu_profile[16];  /* a --cpu cost table ("x86", "cheap", "graviton2") */
    struct cpu_costs costs;
    double mem_latency_ns; /* DMA read: arrival at the root complex to completion */
    double poll_ns;        /* a blocked driver re-polls after this long */
    /* link */
    struct pcie_cfg pcie;
    struct pcie_fc_cfg fc_dev;  /* credits the device advertises (host->device TLPs) */
    struct pcie_fc_cfg fc_host; /* credits the root complex advertises (device->host) */
    /* device */
    double dev_mhz;        /* device clock */
    unsigned dev_width;    /* datapath bytes per clock: 8, 16, 32, 64 (the model's) */
    enum dev_backend device; /* the device model: RTL, C model or both in lockstep */
    struct dev_hw hw;      /* the hardware's sizes (--hw-*): the register settings'
                              bounds; another combination than DEV_HW_DEFAULT is a
                              model of its own (docs/codesign.md) */
    double line_gbps;      /* Ethernet line rate */
    unsigned ring_size;    /* descriptors, power of two 8..65536 (each queue's) */
    unsigned queues;       /* transmit queues, 1..64 (docs/device.md, Queues) */
    enum sim_sched sched;  /* the scheduler across queues: rr | drr */
    struct sim_weights weights; /* per-queue WEIGHT, 1..255 (n 0: all 1) */
    struct sim_weights xps;     /* --xps: the CPU of each queue (the same list shape as
                                   weights; n 0: queue q on CPU q mod cpus) */
    unsigned drr_quantum;  /* DRR bytes per unit of weight per round, 64..65536 */
    unsigned desc_fetch_max;
    unsigned desc_inflight; /* descriptor reads in flight, 1..8 */
    unsigned tags;         /* DMA read tags the device may use, 1..256 */
    unsigned max_rd_bytes; /* outstanding DMA read bytes, 0 = no limit */
    unsigned wb_thresh;    /* head writeback every n completions (0: off) */
    unsigned irq_thresh;   /* interrupt every n completions (0: off) */
    double irq_usecs;      /* interrupt moderation timer, us (0: off) */
    enum txq_clean_mode clean; /* the completion mode (--completion) */
    enum sim_desc_wb desc_wb;  /* --completion desc-wb: a done word or whole descriptors */
    /* ownership (docs/ownership.md) */
    enum txq_proto proto;       /* tail | owner | wc */
    enum txq_barrier barrier;   /* descriptor-side barrier placement */
    enum stbuf_order ordering;  /* x86 | weak store visibility */
    unsigned reorder_window;    /* weak: stores that may overtake, 1..64 */
    enum drv_bug bug;           /* a deliberately broken driver, or NONE */
    uint64_t bug_at;            /* packet at which a one-shot bug fires */
    uint64_t schedule;          /* exploration schedule (sim/host/explore.h); 0: none */
    /* host CPUs and the stack (docs/calibration.md) */
    unsigned cpus;              /* 1..SIM_MAX_CPUS; one queue: CPU 0 sends, CPU 1 (if
                                   any) cleans up; several: each queue on its CPU (xps) */
    enum sim_layout layout;     /* ring producer/consumer fields: split or packed */
    int bql;                    /* byte queue limits on the queue */
    enum dql_order dql;         /* BQL dql_queued order */
    unsigned bql_stall_ms;      /* BQL stall detector threshold (ms, HZ 1000); 0: off */
    enum sim_source source;     /* pktgen bursts, or a qdisc bulk-dequeuing under BQL */
    enum sim_qdisc_root qdisc_root; /* with source qdisc: a root per queue, or shared */
    unsigned tail_coalesce;     /* defer the tail write up to N packets (0: off) */
    unsigned napi_budget;       /* descriptors one cleanup pass may reclaim */
    enum sim_napi napi;         /* one CPU: busy-poll after each burst, or on interrupts */
    char profile[32];           /* profile loaded (profiles/NAME.ini), "" if none */
    /* faults and recovery (docs/faults.md) */
    struct inj_plan inject; /* faults to inject (--inject) */
    /* The timeouts, each SIM_TIMEOUT_AUTO (derived, sim_cfg_timeouts) or as set. */
    double cpl_timeout_us;  /* the device's completion timeout (CPL_TIMEOUT) */
    double tx_timeout_us;   /* the driver's hang check: work in flight and no
                               completion for this long: queue reset (0: none) */
    /* run */
    double watchdog_us;    /* no frame and no completion for this long: stop */
    double grace_us;       /* after the first violation, run this long, then stop */
    int every_clock;       /* run every device clock, skip none: the same figures,
                              slower (checks the device's idle/wait/wake) */
    int area;              /* also report the engine's area (sim_result.area) */
    /* observability (docs/observability.md): waveforms, timeline, pcap out
     * and in, the snapshot of a run that stops */
    struct obs_cfg obs;
};

/* The default experiment's parameters (docs/model.md). */
void sim_cfg_default(struct sim_cfg *cfg);
/* 0, or -1 with a message naming the bad parameter. */
int sim_cfg_validate(const struct sim_cfg *cfg, char *err, size_t errlen);
/* The MAC's rate register: wire bytes per device cycle, unsigned 8.16. */
uint32_t sim_cfg_line_rate_fx(const struct sim_cfg *cfg);
/* The line rate that register programs, in Gb/s (what the MAC paces at). */
double sim_cfg_line_gbps_eff(const struct sim_cfg *cfg);

/* A timeout setting's value "auto": derived from the configuration. */
#define SIM_TIMEOUT_AUTO (-1.0)

/* The longest a healthy run of the configuration takes for what each
 * timeout waits on, in ns: upper bounds from the settings alone (tags,
 * MRRS, the latencies, credits, the CPU costs, the burst, the line, the
 * queues' shares).  docs/faults.md, Timeouts, has each formula. */
struct sim_bounds {
    double rt_ns;      /* a DMA read's round trip: memory, the link and UpdateFC both ways */
    double read_ns;    /* a healthy read's wait for its data: its round trip and
                          serialization, the reads' completions ahead of it, credits */
    double frame_ns;   /* the largest frame, end to end: its reads at the tags
                          the configuration allows, the link, the datapath, the wire */
    double pkt_cpu_ns; /* the most one packet costs the CPU */
    double burst_ns;   /* the longest the CPU posts with no doorbell (burst or tail
                          coalescing, at most the ring), and a cleanup pass */
    double batch_ns;   /* a queue with work in flight, until its next completion */
    double fill_ns;    /* the CPU posting into a stopped device: every queue's
                          ring filled, then a cleanup pass (an upper bound of
                          the busy passes around the hang check, which runs
                          between them: sim_fault_poll_hang) */
    double gap_ns;     /* the run with no frame and no device write */
};
void sim_cfg_bounds(const struct sim_cfg *cfg, struct sim_bounds *b);

/* The timeouts a run uses, in us.  A timeout the user set is used as set
 * (sim_cfg_validate refuses one that cannot work: below the bound it
 * must exceed); "auto" derives it (docs/faults.md, Timeouts):
 *   completion timeout  max(100, 50 x rt, 4 x read), at most what CPL_TIMEOUT
 *                       counts (2^24 - 1 device cycles);
 *   tx hang check       max(500, 4 x the completion timeout, 4 x batch)
 *                       (tx_timeout_us 0: no hang check, tx_us 0);
 *   reset wait          2 x (the completion timeout + frame + rt): how long the
 *                       driver waits for the device to take a queue reset;
 *   watchdog            max(1000, 2 x max(tx, cpl, gap), tx + reset, with
 *                       --inject fill + tx + reset) plus the longest injected
 *                       credit blackout. */
struct sim_timeouts {
    double cpl_us, tx_us, reset_us, watchdog_us;
};
void sim_cfg_timeouts(const struct sim_cfg *cfg, struct sim_timeouts *t);

/* The host memory a run allocates for the driver's DMA (its rings,
 * writeback words, completion queues and buffers, every queue's), in
 * bytes; sim_cfg_validate refuses more than SIM_HOST_MEM_MAX. */
#define SIM_HOST_MEM_MAX (4ull << 30)
size_t sim_cfg_host_mem(const struct sim_cfg *cfg);
/* The driver's queue configuration (txq_init's) for a run: queue 0's;
 * sim_cfg_txq_queue() sets another queue's fields (queue, weight). */
void sim_cfg_txq(const struct sim_cfg *cfg, struct txq_cfg *tc);
void sim_cfg_txq_queue(const struct sim_cfg *cfg, unsigned q, struct txq_cfg *tc);
/* Names of the enumerated choices, and their parsers (0, or -1 if unknown). */
const char *sim_proto_name(enum txq_proto p);
const char *sim_barrier_name(enum txq_barrier b);
const char *sim_ordering_name(enum stbuf_order o);
const char *sim_layout_name(enum sim_layout l);
const char *sim_dql_name(enum dql_order d);
const char *sim_source_name(enum sim_source x);
const char *sim_qdisc_root_name(enum sim_qdisc_root x);
const char *sim_napi_name(enum sim_napi n);
const char *sim_completion_name(enum txq_clean_mode m);
int sim_parse_completion(const char *s, enum txq_clean_mode *out);
const char *sim_sched_name(enum sim_sched x);
int sim_parse_sched(const char *s, enum sim_sched *out);
const char *sim_device_name(enum dev_backend b);
int sim_parse_device(const char *s, enum dev_backend *out);
/* "W[,W...]": 1..SIM_QUEUES_MAX strict decimal values (their range is
 * sim_cfg_validate's); 0, or -1 (out untouched). */
int sim_parse_weights(const char *s, struct sim_weights *out);
/* Queue q's weight under the configuration (1 when none are given). */
unsigned sim_cfg_weight(const struct sim_cfg *cfg, unsigned q);
/* The CPU that sends on queue q (and runs its cleanup): --xps, or the
 * kernel's default of a queue per CPU, q mod cpus. */
unsigned sim_cfg_queue_cpu(const struct sim_cfg *cfg, unsigned q);
/* Packets queue q sends: floor(P/N), +1 for the first P mod N queues. */
uint64_t sim_cfg_queue_packets(const struct sim_cfg *cfg, unsigned q);
/* IRQ_TIMER for the run: irq_usecs in device cycles, rounded. */
uint32_t sim_cfg_irq_timer(const struct sim_cfg *cfg);
/* MSI-X vector q's message address (queue q's interrupt): the MSI window's
 * base + 16 * q; its data is the same for every vector.
 * sim_cfg_msix_vector() is the vector of a message to `addr` (an address
 * in the MSI window), the inverse. */
uint64_t sim_cfg_msix_addr(unsigned q);
unsigned sim_cfg_msix_vector(uint64_t addr);
int sim_parse_napi(const char *s, enum sim_napi *out);
int sim_parse_layout(const char *s, enum sim_layout *out);
int sim_parse_dql(const char *s, enum dql_order *out);
int sim_parse_source(const char *s, enum sim_source *out);
int sim_parse_qdisc_root(const char *s, enum sim_qdisc_root *out);
int sim_parse_proto(const char *s, enum txq_proto *out);
int sim_parse_barrier(const char *s, enum txq_barrier *out);
int sim_parse_ordering(const char *s, enum stbuf_order *out);

#define SIM_MAX_VIOLATIONS 16
/* Shared driver structures the cache-line model reports: queue 0's eight,
 * and a shared root qdisc's lock and counters (--qdisc-root shared). */
#define SIM_MAX_LINES 10
/* --cpus: at most 64, one socket (docs/model.md, CPUs).  Per-CPU arrays are
 * sized by it; runs loop over the CPUs that exist (cfg.cpus) only. */
#define SIM_MAX_CPUS 64

/* A busy CPU's time: work, or one of the ways it waits while busy. */
enum sim_cpu_part {
    SIM_CPU_WORK,      /* driver work, stores, barriers' issue, doorbells */
    SIM_CPU_HEAD_READ, /* stalled on an MMIO read (a head or register read) */
    SIM_CPU_BARRIER,   /* a barrier waiting for earlier stores to drain */
    SIM_CPU_LOCK,      /* a locked instruction waiting behind posted writes */
    SIM_CPU_POLLING,   /* cleanup passes that reclaimed nothing */
    SIM_CPU_PART_COUNT
};

struct sim_violation {
    const char *kind;  /* e.g. "owner_before_body", "dma_read_unmapped" */
    uint64_t time_ps;
    unsigned queue;
    long desc;         /* descriptor index, -1 when none applies */
    char access[64];   /* the TLP or CPU access it was found on ("" if none) */
    char detail[240];
};

/* Figures that cannot be measured are NAN (null in the JSON, n/a in the
 * table): per-packet figures when no packet was checked, utilisations when
 * the measured run has no length (bound is NULL then). */
/* One queue's figures (--queues > 1; docs/user-guide.md, Queues). */
struct sim_queue_result {
    unsigned id, weight;
    uint64_t packets;       /* frames of the queue on the wire */
    uint64_t bytes;         /* their wire bytes (frame incl. FCS) */
    double gbps;            /* 8 x bytes over the run's wire span */
    double share;           /* of the bytes in the contended window */
    double expected_share;  /* weight / sum of weights (DRR), 1 / N (RR) */
    uint64_t irqs;          /* its interrupts (MSI-X vector id) over the run */
    uint64_t checked;       /* of its frames on the wire, those as sent */
    uint64_t dropped;       /* its packets dropped by faults (any reason) */
};

struct sim_result {
    struct sb_result sb;
    /* queues: per queue, and fairness over the contended window (from
     * the first frame until the first queue sent its last); nqueues 1:
     * none of it is reported */
    unsigned nqueues;
    int queue_irqs;         /* interrupts are on: queues[].irqs is reported */
    int queue_faults;       /* a fault plan (--inject): queues[].dropped is reported */
    struct sim_queue_result queues[SIM_QUEUES_MAX];
    double fair_jain, fair_max_share_dev, fair_window_ns;
    uint64_t completed;            /* packets reclaimed by the driver */
    double cpu_ns_per_pkt[CPU_CAUSE_COUNT];
    double cpu_ns_total;           /* per packet, all causes but idle, all CPUs */
    unsigned ncpu;
    double cpu_ns_per_pkt_cpu[SIM_MAX_CPUS][CPU_CAUSE_COUNT]; /* by CPU */
    struct pcie_link_stats h2d, d2h;
    /* The functional cover points (lib/cover.h, docs/coverage.md) over the
     * whole run; the device's only when it counts them (cover_dev: the C
     * model, --device c or lockstep), else 0. */
    uint64_t cover[COVER_N];
    bool cover_dev;
    double doorbells_per_pkt, desc_fetches_per_pkt, irqs_per_pkt;
    /* fraction of the measured run each resource was busy (the busiest CPU) */
    double util_cpu, util_h2d, util_d2h, util_engine, util_wire;
    double cpu_part[SIM_CPU_PART_COUNT]; /* the busiest CPU's busy time by part */
    double busy_h2d, busy_d2h;     /* fraction of the measured time each link serialized */
    double pool_full[RD_POOL_COUNT]; /* fraction of it each read pool sat at its cap */
    double credit_stalled;         /* the longest credit stall of one type, as a fraction */
    double ring_full;              /* the longest a queue's ring was full of the device's
                                      descriptors, as a fraction */
    const char *bound;             /* what limits the run (run/bound.h names them) */
    double line_gbps_eff;          /* line rate the device was programmed with */
    uint64_t rd_stall_cycles;      /* device cycles a ready MRd waited for a tag/bytes */
    struct txq_stats txq;          /* the driver's counters */
    uint64_t not_owned;            /* device: descriptors fetched but not owned */
    uint64_t wc_used, wc_dropped;  /* device: WC descriptors used / dropped */
    uint32_t dev_err;              /* device ERR register at the end */
    uint32_t reset_err;            /* ERR bits the driver's queue resets found */
    uint64_t resets;               /* adapter resets: each resets every queue
                                      (txq.resets counts them per queue) */
    struct stbuf_stats stb;        /* store and WC buffer counters */
    unsigned nlines;               /* shared driver structures, by cache-line region */
    struct sim_lines {
        char name[CL_NAME_MAX];
        struct cl_stats st;        /* transfers and upgrades, measured run */
    } lines[SIM_MAX_LINES];
    int stopped_by_violation;      /* the run ended grace_us after a violation */
    unsigned faults_fired;         /* faults of the plan (--inject) carried out */
    int bug_fired;                 /* a one-shot driver bug (drv_bug_one_shot) acted,
                                      on some queue */
    uint64_t cycles_evaluated, cycles_skipped;
    uint64_t cycles_in_runs;       /* of those evaluated, in the device's runs (device_ops.run) */
    uint64_t cycles_streamed;      /* of those in runs, streamed (dev_run.streamed) */
    sim_ps_t sim_time_ps;
    double wall_s;
    int has_area;                  /* --area: `area` is the hardware's (set by nictx
                                      after the run: sim/device/dev_area.h) */
    struct dev_area area;
    size_t nviolations;            /* total; the first SIM_MAX_VIOLATIONS are kept */
    struct sim_violation violations[SIM_MAX_VIOLATIONS];
};

struct sim;
struct platform;

/* NULL on failure, with a message in err. */
struct sim *sim_create(const struct sim_cfg *cfg, const struct device_ops *ops,
                       char *err, size_t errlen);
void sim_destroy(struct sim *s);
/* 0 when all packets were sent and reclaimed; -1 when the watchdog or a
 * deadlock ended the run; 1 when it ended grace_us after a protocol
 * violation (sim_diag() says why).  Results are valid in every case. */
int sim_run(struct sim *s);
const char *sim_diag(const struct sim *s);
void sim_result(const struct sim *s, struct sim_result *r);
const struct sim_cfg *sim_cfg(const struct sim *s);
/* The platform the driver runs on, for tests that poke registers. */
struct platform *sim_platform(struct sim *s);
/* A run that stopped (sim_run() != 0 because a violation's grace period
 * ended it, or the watchdog, a deadlock or a device fault did; not one
 * that ended with a violation found at its end, msg ""): write its snapshot
 * (docs/observability.md, Snapshots): the window before the stop
 * (--snapshot-us before the first violation or the last progress, to the
 * stop) as a timeline, `base`.snapshot.json, and a waveform,
 * `base`.snapshot.fst, from the same configuration run again up to the
 * stop (a run is deterministic), recording only the window, on the
 * trace-enabled model.  Nothing is recorded on the run itself: a run that
 * passes pays nothing.  `base`: the JSON report's path without ".json";
 * NULL: $TMPDIR (or /tmp) nictx-PID.  0 with what was written in msg, or
 * -1 with why not. */
int sim_snapshot(struct sim *s, const char *base, char *msg, size_t n);

/* Settle: run the world (CPU idle) until simulated time t. */
void sim_advance_to(struct sim *s, sim_ps_t t);
sim_ps_t sim_now(const struct sim *s);

#endif /* NICTX_HARNESS_H */
