/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sim_world.h - the inside of struct sim, shared by the run layer's files
 * (world.c builds it, loop.c runs it, host_tlp.c serves the host's side of
 * the link, cpu_sched.c the CPUs, platform_sim.c the driver's platform
 * calls, dev_port.c the device port, pktgen_hooks.c, fault.c, metrics.c,
 * progress.c) and by the checkers that read it (check/).  The API of a run
 * is harness.h.
 */
#ifndef NICTX_SIM_WORLD_H
#define NICTX_SIM_WORLD_H

#include "host/cacheline.h"
#include "lib/coro.h"
#include "host/cpu.h"
#include "device/device.h"
#include "host/explore.h"
#include "run/harness.h"
#include "host/host_mem.h"
#include "check/dmachk.h"
#include "check/ownchk_set.h"
#include "pcie/pcie_link.h"
#include "pktgen.h"
#include "run/progress.h"
#include "run/rd_pool.h"
#include "pcie/rc.h"
#include "check/scoreboard.h"
#include "host/memhist.h"
#include "host/stbuf.h"
#include "obs/obs.h"
#include "obs/obs_pcap.h"
#include "check/stopchk.h"
#include "pcie/tlp_queue.h"
#include "txq.h"
#include "linux/kcpu.h"

#define SIM_BAR0_BASE 0xfe000000ull  /* bus address of BAR0 */
#define SIM_HOST_BASE 0x100000000ull /* bus address of host DMA memory */
#define SIM_MSIX_ADDR RC_MSI_BASE    /* MSI-X address the driver programs */

struct sim_cpu;

/* What the driver holds: the world, and the CPU its code runs on. */
struct platform {
    struct sim *sim;
    struct sim_cpu *cpu;
};

enum sim_cpu_state { SIM_CPU_RUN, SIM_CPU_WAIT, SIM_CPU_DONE };

/* The access instrumented driver code announced last (plain_access.c),
 * settled at the CPU's next platform call or access, or when it yields:
 * by then the compiler has made it. */
enum sim_pend_kind { SIM_PEND_NONE, SIM_PEND_STORE, SIM_PEND_LOAD };
struct sim_pending {
    enum sim_pend_kind kind;
    uint8_t *addr;
    unsigned len;          /* 1..16; a store of 16 is two of 8 */
    uint64_t bus;          /* STORE: its bus address */
    sim_ps_t t[2], vis[2]; /* STORE: when each half was issued, when visible */
    uint8_t real[16];      /* LOAD: what memory held (the load was shown a view) */
    /* Plain loads' cache-line accesses, in order, made when settled,
     * except one whose bytes a plain store writes next (the compiler's
     * x++, whatever it puts in between: one read-for-ownership, as the
     * CPU's read-modify-write asks for it). */
#define SIM_PEND_LINES 4
    const void *line_at[SIM_PEND_LINES];
    unsigned line_len[SIM_PEND_LINES];
    unsigned nline;
};

/* One simulated CPU (cpu_sched.c). */
struct sim_cpu {
    struct sim *sim;
    unsigned id;
    struct cpu cpu;        /* clock, costs, time by cause */
    struct stbuf stb;      /* its store buffer and WC buffers */
    struct platform plat;
    struct coro co;        /* the driver code it runs */
    void (*program)(struct sim_cpu *c);
    int stb_up, co_up;
    enum sim_cpu_state state;
    sim_ps_t deadline;     /* WAIT: runs again by then (SIM_PS_NEVER: parked) */
    int wake_on_dev;       /* WAIT: a device write or interrupt wakes it */
    int in_coro;           /* its coroutine is running now */
    int mmio_waiting;      /* an MMIO read is outstanding */
    uint8_t mmio_tag;
    uint32_t mmio_value;
    sim_ps_t mmio_t;
    int wc_unfenced;       /* a WC copy has not been fenced yet */
    int irq_pending;       /* an interrupt arrived: one CPU runs NAPI next */
    sim_ps_t uc_drained;   /* its uncached writes have all left the core by then */
    struct explore_sched sched; /* its part of the exploration schedule */
    uint64_t shared_n;     /* shared accesses made (plat_read_once32, ...) */
    uint64_t explore_rng;  /* its preemption draws (explore_preempt_ns) */
    int preempted;         /* exploration has it off its CPU (cpu_preempted) */
    sim_ps_t preempt_after; /* and may do so again from then on */
    const uint32_t *stop_word; /* a queue it stopped, not yet re-checked (stopchk.h) */
    sim_ps_t stop_t;       /* when */
    int stop_fenced;       /* an smp_mb() since */
    int recheck_plain;     /* re-checking by plain loads: each one, up to its next
                              platform call, is a re-checked location (stopchk.h) */
    const void *unfenced[STOPCHK_LOCS]; /* its shared stores since its last smp_mb() */
    unsigned nunfenced;
    /* Early loads (weak, explored; platform_sim.c): no load is performed
     * before load_floor (its last load barrier), nor a location before a
     * time it was already read at (corr); obs: device writes its loads
     * have seen since that barrier. */
    sim_ps_t load_floor;
    const void *corr_addr[8];
    sim_ps_t corr_t[8];
    unsigned ncorr;
    uint64_t obs[8];
    unsigned nobs;
    sim_ps_t t1[CPU_CAUSE_COUNT]; /* time by cause when the measured run ended */
    /* Polling: cleanup passes that reclaimed nothing (part of CPU_DRIVER);
     * the latest pass's cost is open until the next work says whether it
     * reclaimed. */
    sim_ps_t poll_ps, poll_open, poll_t1;
    /* Several queues: the queues it sends on and cleans up (sim_cfg_queue_cpu),
     * in order; none: it has nothing to do once the run starts. */
    uint8_t txq_of[SIM_QUEUES_MAX];
    unsigned ntxq;
    /* Driver code compiled with the kernel layer (driver/linux/,
     * plain_access.c): the CPU as that code sees it (current while its
     * coroutine runs), its plain stores to shared driver state (a store
     * buffer of their own: visible to other CPUs at their time, made
     * visible by the barriers, never waited for), the memory history
     * from which on they are its, and the access announced last. */
    struct kcpu kcpu;
    struct stbuf lane;
    int lane_up;
    uint64_t lane_hist;
    struct sim_pending pend;
    int plain_full;        /* its plain accesses of driver state are modelled in
                              full: several CPUs, a history, or exploration */
};

/* Driver state the CPUs share, as plain_access.c looks it up: [lo, hi),
 * and whether the cache-line model tracks it (cpu_line). */
struct sim_shared {
    uintptr_t lo, hi;
    int cl;
};
#define SIM_SHR_FEW 3           /* as many as the kcpu windows beside host memory */
#define SIM_SHR_GRAIN_LOG2 6    /* the span's map: granules of a cache line, */
#define SIM_SHR_MAP_MAX (1u << 20) /* or larger ones when more would be needed */

/* Queue q > 0 of a run with several (docs/device.md, Queues); queue 0 is
 * struct sim's txq and pg, as in a run with one.  CPU 0 brings every queue
 * up; then queue q belongs to CPU sim_cfg_queue_cpu(q) (--xps), which
 * steps it. */
struct sim_queue {
    struct txq txq;          /* first: 64-byte aligned */
    struct pktgen pg;
    struct sim *s;
    unsigned id;
    struct txq_cfg tc;
    struct pktgen_cfg pc;
    int txq_up, pg_up;
};

/* MMIO read tags (8 bits): the requester in the low 7 (0 the harness, i + 1
 * CPU i, up to SIM_MAX_CPUS), a sequence bit above it.  Each requester has
 * one read outstanding at most, so the bit tells its read from the one
 * before. */
#define SIM_TAG_WHO_MASK 0x7fu
#define SIM_TAG_SEQ      0x80u
_Static_assert(SIM_MAX_CPUS < SIM_TAG_WHO_MASK, "every CPU has a requester number");
static inline uint8_t sim_tag_next(uint8_t prev, unsigned who)
{
    return (uint8_t)(((prev ^ SIM_TAG_SEQ) & SIM_TAG_SEQ) | who);
}

struct sim {
    struct sim_cfg cfg;
    const struct device_ops *ops;
    void *dev;
    struct host_mem mem;
    struct sim_cpu *cpus;  /* ncpu of them (sim_cpus_init), 64-byte aligned: a
                              one-CPU run holds one, not SIM_MAX_CPUS */
    unsigned ncpu;
    uint64_t key_cpus;     /* bit i: CPU i may hold stores to driver state not yet
                              visible (its store buffer's or its lane's); set at
                              such a store, cleared by cpu_view when none is */
    sim_ps_t key_vis;      /* no store to driver state is visible later than this */
    struct ownchk_set ck;  /* descriptor ownership ground truth: a checker a queue */
    struct dmachk dk;      /* the driver's DMA mappings (DMA-API debug) */
    struct cl_model cl;    /* cache lines shared by the CPUs and the device */
    int cl_up;
    struct memhist hist;   /* weak ordering, explored: loads may be early */
    int hist_up;
    uint64_t hist_tlps;    /* device writes numbered for it */
    /* Driver state the CPUs share (plain_access.c): sorted by address,
     * apart; shr_lo/shr_hi bound them all.  Of more than a few (nshr >
     * SIM_SHR_FEW), shr_map maps their span [shr_lo, shr_hi) by granules
     * of 1 << shr_shift bytes, the least shift (from SIM_SHR_GRAIN_LOG2)
     * that needs at most SIM_SHR_MAP_MAX of them, shr_map_cap >= their
     * number.  Invariant unless shr_stale (set at every change of the
     * regions, cleared when the map is rebuilt, at the next lookup):
     * entry g holds the index of the first region ending after granule
     * g's start, flagged (KCPU_MAP_MODELLED) iff a region starts before
     * the granule's end, and the CPUs' kcpu windows use the map; while
     * stale they do not. */
    struct sim_shared *shr;
    unsigned nshr, shr_cap;
    uintptr_t shr_lo, shr_hi;
    uint32_t *shr_map;
    size_t shr_map_cap;
    unsigned shr_shift;
    int shr_stale;
#define SIM_CL_SNAP SIM_MAX_LINES
    struct cl_stats cl_t0[SIM_CL_SNAP]; /* region counters when the measurement began */
    struct txq_cfg tc;     /* the driver's configuration (probe) */
    struct pktgen_cfg pc;
    int probe_rc;          /* txq_init / pktgen_init result */
    /* The harness's own register reads (not a CPU's). */
    int hreg_waiting;
    uint8_t hreg_tag;
    uint32_t hreg_value;
    struct pcie_link *h2d, *d2h;
    struct scoreboard *sb;
    struct sb_gen_cfg gen;
    struct txq txq;
    struct pktgen pg;
    int txq_up, pg_up;
    _Alignas(64) struct pktgen_root root; /* --qdisc-root shared: the queues' one root */
    unsigned nq;               /* queues (cfg.queues) */
    struct sim_queue *xq;      /* queues 1..nq-1 (xq[q - 1]), NULL with one */
    /* Several queues with interrupts: bit q, queue q's interrupt arrived
     * and its NAPI poll is due on its CPU (--xps); interrupts per
     * queue (MSI-X vector q) over the run. */
    uint64_t qirq_pending;
    uint64_t qirqs[SIM_QUEUES_MAX];

    sim_ps_t now;          /* device time: the next clock edge */
    /* No CPU can run, nor send a drained WC line, before this time
     * (sim_cpus_next_event) unless one is woken or its MMIO read answered
     * (sim_cpus_dirty sets it to 0): the world steps alone until then
     * (sim_loop). */
    sim_ps_t cpus_next;
    /* Nothing is due for sim_deliver before this time (its own answer, kept
     * until a TLP is queued or sent or a link changes outside it, which
     * set it to 0: sim_deliver_dirty). */
    sim_ps_t deliver_next;
    sim_ps_t period_ps;
    uint64_t cycles, skipped;
    uint64_t run_cycles;   /* of cycles, those in the device's runs (sim_clock_run) */
    uint64_t stream_cycles; /* of run_cycles, those the device streamed (dev_run.streamed) */
    int dev_idle;          /* the last clock's dev_out.idle (not only waiting) */
    uint32_t dev_wake;     /* the last clock's dev_out.wake: clocks it may skip */
    uint64_t skip_pending; /* clocks skipped since the last one (dev_in.skip) */
    int dev_quiet;         /* the last clock left the device quiescent (sim_clock's
                              1): dev_wake clocks after it may be left out */

    struct tlpq cpu_out;   /* MMIO TLPs the CPU issued, by departure time */
    sim_ps_t cpu_out_last; /* departure time of the newest one */
    struct rc rc;          /* root complex: serves the device's reads and writes */

    /* Device input: beat index into the h2d link's oldest TLP. */
    unsigned h2d_beat;
    /* The device's inputs, kept across clocks: dev_in.h2d is beat h2d_beat
     * of that TLP while h2d_built, else all zero or stale (rebuilt or
     * zeroed before the next clock uses it). */
    struct dev_in dev_in;
    int h2d_built;
    /* Device output being assembled. */
    struct tlp d2h_tlp;
    unsigned d2h_beat;     /* beat index within it */
    /* The queues' descriptor rings' bus addresses (txq ring_dma), sorted,
     * for telling descriptor reads apart (sim_in_ring).  Invariant while
     * ring_key is host memory's brk + 1: they are every queue's ring_dma
     * now (a ring moves only with a new allocation, which moves brk; a
     * table with a ring not yet allocated, 0, is never kept: ring_key 0). */
    uint64_t ring_at[SIM_QUEUES_MAX];
    size_t ring_key;
    uint8_t frame[16384 + DEV_WIDTH_MAX];
    unsigned frame_len;
    int frame_open;
    sim_ps_t frame_t0;
    sim_ps_t wire_free;    /* the wire is busy until then: the latest frame's
                              start plus its wire time (bytes, FCS, preamble, IFG) */
    uint64_t engine_beats;
    struct rd_pool pool;   /* time the read pools were at their caps */

    uint64_t rd_stall_cycles; /* device counters, read after the run */
    uint64_t not_owned, wc_used, wc_dropped;
    uint32_t dev_err;

    /* derived once from the configuration (sim_create) */
    struct sim_timeouts to;    /* completion timeout, hang check, watchdog */
    sim_ps_t watchdog_ps;
    double wire_ps_per_byte;   /* at the programmed line rate */

    /* faults (fault.h) */
    unsigned inj_fired;    /* faults of the plan carried out */
    uint32_t inj_fired_kinds; /* bit k: a fault of enum inj_kind k was */
    unsigned drop_cause;   /* scoreboard reason for the next reset's drops */
    uint32_t reset_err;    /* ERR bits queue resets found */
    uint64_t live_reported; /* bit q: a stuck queue q was named (livechk.h) */
    sim_ps_t hang_checked_ps; /* the driver's hang check last ran then (on its CPU's clock) */
    const void *recheck[STOPCHK_LOCS]; /* what stops are re-checked by (stopchk.h) */
    unsigned nrecheck;

    /* progress and diagnosis */
    sim_ps_t last_progress;
    int failed;
    sim_ps_t stop_at;      /* a violation ends the run here (grace period) */
    int stopped;           /* ... and it did */
    char diag[1024];
    size_t nviol;
    struct sim_violation viol[SIM_MAX_VIOLATIONS];
    double wall_s;
    struct progress progress; /* the status line of a long run (progress.h) */
    /* link statistics when the measurement started and ended */
    struct pcie_link_stats h2d_t0, d2h_t0, h2d_t1, d2h_t1;
    sim_ps_t t_measure0, t_measure1; /* the measured run */
    int measured;

    /* observability (observe.c; docs/observability.md) */
    struct obs *obs;        /* the tracer: NULL when the run shows nothing */
    int wave_up;            /* the device writes a waveform */
    struct obs_capture cap; /* --pcap-in: the frames the source sends (cap.n 0: none) */
    sim_ps_t pace_t0;       /* --pcap-timing: when packet 0 was due */
};

/* The watchdog's expiry: it fires at the first clock edge at or after it
 * (no frame and no device write for longer than watchdog_ps; loop.c), so
 * a run of clocks (sim_clock_run()) ends before it. */
static inline sim_ps_t sim_wd_end(const struct sim *s)
{
    return s->last_progress + s->watchdog_ps + 1;
}

/* A CPU was woken or its MMIO read answered: sim_loop must look again. */
static inline void sim_cpus_dirty(struct sim *s)
{
    s->cpus_next = 0;
}

/* A TLP was queued or sent, or a link changed, outside sim_deliver: it
 * must look again. */
static inline void sim_deliver_dirty(struct sim *s)
{
    s->deliver_next = 0;
}

/* host_tlp.c: the host's side of the link */
/* Queue a CPU TLP leaving at `at` (>= the previous one's). */
void sim_cpu_send(struct sim *s, const struct tlp *t, sim_ps_t at);
/* Every event due at or before s->now, in time order: sim_deliver_due()
 * when something is (inline: asked on every device clock). */
void sim_deliver_due(struct sim *s);
static inline void sim_deliver(struct sim *s)
{
    if (s->deliver_next <= s->now)
        sim_deliver_due(s);
}
/* The root complex's view of memory: the CPUs' invisible stores undone. */
void sim_dev_view(void *ctx, uint64_t addr, uint8_t *buf, size_t len, sim_ps_t at);

/* loop.c: the event loop */
/* The harness's own register read (no CPU): runs the world until the
 * completion returns; 0xffffffff if it never does. */
uint32_t sim_reg_read(struct sim *s, uint32_t off);
/* One step of the world: deliver due events, clock the device, or jump
 * over idle time, never past stop_at; CPUs count as events when
 * cpu_may_run.  0, or -1 when the run must end (watchdog, deadlock,
 * failure). */
int sim_step_world(struct sim *s, int cpu_may_run, sim_ps_t stop_at);

/* violation.c (check/) */
void sim_violation(struct sim *s, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* ownchk's report callback: queue (OWNCHK_QUEUE_NONE: none), kind, time,
 * descriptor (-1: none), access, detail. */
void sim_violation_at(void *s, unsigned queue, const char *kind, sim_ps_t t, long desc,
                      const char *access, const char *detail);
/* A device_error violation: ERR bits `err` (each named), found `when`
 * ("at end of run", "found by the adapter reset"). */
void sim_device_error(struct sim *s, uint32_t err, const char *when);
/* A device-wide violation's queue: none with several queues, 0 with one. */
unsigned sim_no_queue(const struct sim *s);

/* dev_port.c: whether a read at bus address addr falls in a queue's
 * descriptor ring */
int sim_in_ring(struct sim *s, uint64_t addr);
/* dev_port.c: one device clock; 1 if the device is quiescent after it
 * (idle or waiting, no beat moved), and then s->dev_idle says which and
 * s->dev_wake how many clocks may be left out (device.h) */
int sim_clock(struct sim *s);
/* dev_port.c: device clocks from now on, several at once, where nothing
 * of the harness's own happens before `until` (device_ops.run); 0 if
 * none ran (sim_clock runs the next one) */
uint32_t sim_clock_run(struct sim *s, sim_ps_t until);
/* world.c: the run cannot go on; the first message is kept (sim_diag) */
void sim_fail(struct sim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* platform_sim.c, for loop.c and cpu_sched.c */
void sim_cpu_flush_wc(struct sim_cpu *c); /* send WC lines drained by its clock */
/* ... and for plain_access.c: a platform call's start (fences: it is a
 * fence or a WC copy, so a WC copy not fenced yet is not its fault); a
 * store of len (1..8) bytes to DMA memory (val NULL: written by the
 * caller, ownchk told by it), its visibility; a load of DMA memory; a
 * store of shared driver state through the store buffer; what CPU c reads
 * of shared driver state (another CPU's invisible stores undone; early
 * loads under exploration); the cache-line model; an exploration switch
 * point; the scoreboard told what the checkers saw published. */
void cpu_enter(struct sim_cpu *c, int fences);
void cpu_enter_plain(struct sim_cpu *c);
sim_ps_t cpu_store_mem(struct sim_cpu *c, void *dst, const void *val, unsigned len,
                       sim_ps_t *issued);
void cpu_load_mem(struct sim_cpu *c, const void *src, void *buf, size_t len);
void cpu_load_dma(struct sim_cpu *c, const void *src, void *buf, size_t len);
void cpu_store_shared(struct sim_cpu *c, void *dst, const void *val, unsigned len);
void cpu_load_shared(struct sim_cpu *c, const void *src, void *buf, size_t len);
void cpu_view(struct sim_cpu *c, const void *src, void *buf, size_t len);
void cpu_line(struct sim_cpu *c, const void *addr, size_t len, int write);
void cpu_shared_access(struct sim_cpu *c);
void cpu_sync_published(struct sim *s, const struct sim_cpu *c);
/* Whether CPU c's schedule has switch points or preemptions (explore.h). */
static inline int cpu_explores(const struct sim_cpu *c)
{
    return c->sched.npoints != 0 || c->sched.preempt_per_4096 != 0;
}

/* plain_access.c: driver code compiled with the kernel layer */
/* Settle the access CPU c announced last (its store is made: the checkers
 * see its value; its load is made: memory holds its own bytes again). */
void sim_plain_settle(struct sim_cpu *c);
/* A barrier of CPU c (now): its plain stores to driver state are visible. */
void sim_lane_clamp(struct sim_cpu *c);
/* [p, p + len) is driver state the CPUs share; cl: the cache-line model
 * tracks it.  0, or -1 (out of memory). */
int sim_shared_add(struct sim *s, const void *p, size_t len, int cl);
void sim_shared_destroy(struct sim *s);
/* The registered region holding `addr`, or NULL. */
const struct sim_shared *sim_shared_find(struct sim *s, const void *addr);
/* Tell CPU c's kcpu where accesses are modelled (kcpu.h windows). */
void sim_kcpu_windows(const struct sim *s, struct sim_cpu *c);

/* pktgen_hooks.c: queue q's txq and pktgen (queue 0: s->txq, s->pg), and
 * the hooks of queue x's pktgen (NULL: queue 0's) */
struct txq *sim_txq(struct sim *s, unsigned q);
struct pktgen *sim_pg(struct sim *s, unsigned q);
void sim_pktgen_hooks(struct sim *s, struct sim_queue *x, struct pktgen_cfg *pc);

/* observe.c: the capture loaded and the tracer built (sim_obs_build),
 * attached to the links and the device once they exist (sim_obs_device),
 * told the rings once the driver has them (sim_obs_ready); the outputs
 * finished when the run ends
 * (0, or -1: the run fails with why); a queue's occupancy and BQL limit
 * noted after CPU c stepped it; packet seq's due time under
 * --pcap-timing. */
int sim_obs_build(struct sim *s, char *err, size_t n);
int sim_obs_device(struct sim *s, char *err, size_t n);
void sim_obs_ready(struct sim *s);
void sim_obs_end(struct sim *s);
void sim_obs_destroy(struct sim *s);
__attribute__((cold)) void sim_obs_queue(struct sim_cpu *c, unsigned q);
sim_ps_t sim_pace_due(const struct sim *s, uint64_t seq);

/* cpu_sched.c */
int sim_cpus_init(struct sim *s, const struct stbuf_cfg *bc);  /* 0 or -1 */
void sim_cpus_destroy(struct sim *s);
void sim_cpus_start(struct sim *s, sim_ps_t t);  /* the measured run starts */
struct sim_cpu *sim_cpu_pick(struct sim *s);     /* runnable, earliest; or NULL */
void sim_cpu_resume(struct sim_cpu *c);
sim_ps_t sim_cpus_next_event(const struct sim *s);
/* Drained WC lines of waiting CPUs leave at their time, then
 * sim_cpu_pick(): in one pass. */
struct sim_cpu *sim_cpus_flush_pick(struct sim *s);
/* A device write (irq: an MSI-X interrupt, to vector vec) reached the host at t: wakes
 * the CPUs waiting for one. */
void sim_cpus_device_wrote(struct sim *s, sim_ps_t t, int irq, unsigned vec);
/* Every CPU has finished its program (inline: asked on every loop turn). */
static inline int sim_cpus_done(const struct sim *s)
{
    for (unsigned i = 0; i < s->ncpu; i++)
        if (s->cpus[i].state != SIM_CPU_DONE)
            return 0;
    return 1;
}
/* Everything but CPU `self` is quiet: every other CPU waiting, done or
 * preempted by exploration, and the device idle. */
int sim_cpus_quiet(const struct sim *s, const struct sim_cpu *self);
const char *sim_cpu_state_name(const struct sim_cpu *c);
/* Inside a CPU's coroutine: give way until the world reaches its clock;
 * wait until a deadline (or a device write when wake_on_dev). */
static inline void cpu_sync(struct sim_cpu *c)
{
    while (c->in_coro && c->cpu.now > c->sim->now)
        coro_yield(&c->co);
}
void cpu_wait(struct sim_cpu *c, sim_ps_t deadline, int wake_on_dev);

#endif /* NICTX_SIM_WORLD_H */
