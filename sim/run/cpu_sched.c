/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cpu_sched.c - the simulated host CPUs: what each one runs, and when.
 *
 * Each CPU runs straight-line driver code as a coroutine (coro.h) on the
 * one timeline.  It gives control back whenever it must wait:
 *  - its clock is ahead of the device's (cpu_sync, at every platform
 *    call): so CPUs and device interleave at their true times, and a
 *    cache line or a doorbell is seen in the order it happened;
 *  - an MMIO read is outstanding (only this CPU stalls);
 *  - it has nothing to do (cpu_wait): until a deadline, or until a device
 *    write or interrupt reaches the host, or until another CPU kicks it.
 * The scheduler (sim_cpu_pick; sim_cpus_flush_pick in the event loop, loop.c)
 * always resumes the runnable CPU whose clock is earliest.
 *
 * Programs:
 *  - one CPU: pktgen bursts; without interrupts each is followed by a
 *    cleanup pass (busy-polling NAPI), with them the interrupt's NAPI poll
 *    runs between bursts on the same CPU;
 *  - two CPUs or more, one queue: CPU 0 sends (pktgen bursts, or the
 *    qdisc); CPU 1 runs the completion: woken by head writeback or an
 *    interrupt, it cleans up to the NAPI budget per pass and kicks CPU 0
 *    when the queue wakes; any other CPU has no queue and stays idle;
 *  - several queues (--queues > 1, 1..SIM_MAX_CPUS CPUs): queue q belongs
 *    to CPU sim_cfg_queue_cpu(q) (XPS: q mod cpus, or --xps; c->txq_of
 *    lists a CPU's), and each CPU steps its queues in turn (pktgen_step: a
 *    burst, then a cleanup pass), waiting for a device write when none of
 *    them could do anything (a CPU with no queue is done at once); with
 *    host.napi=irq each queue's interrupt
 *    (MSI-X vector q) schedules that queue's NAPI poll on its CPU, run
 *    between its bursts (as prog_single_irq for one queue).
 * Both first wait in a parked state: CPU 0 probes the device and brings
 * the queue up during sim_create(); the measured run starts in
 * sim_run().  Whenever a program has to wait it runs the driver's hang
 * check (sim_fault_check_hang: one CPU watches every queue), and between
 * its busy passes the same test (sim_fault_poll_hang), so that a CPU that
 * never runs out of work still resets a hung queue at the tx timeout.
 */
#include <stdlib.h>
#include <string.h>

#include "run/fault.h"
#include "run/sim_world.h"

#define SIM_CPU_STACK (256u * 1024u)

/* ----------------------------------------------------------- waiting */

void cpu_wait(struct sim_cpu *c, sim_ps_t deadline, int wake_on_dev)
{
    c->state = SIM_CPU_WAIT;
    c->deadline = deadline;
    c->wake_on_dev = wake_on_dev;
    coro_yield(&c->co);
}

/* Wake a waiting CPU at time t (its idle time ends). */
static void cpu_wake_at(struct sim_cpu *c, sim_ps_t t)
{
    if (c->state != SIM_CPU_WAIT)
        return;
    cpu_wait_until(&c->cpu, t, CPU_IDLE);
    c->state = SIM_CPU_RUN;
    sim_cpus_dirty(c->sim);
}

void sim_cpus_device_wrote(struct sim *s, sim_ps_t t, int irq, unsigned vec)
{
    unsigned i;

    /* With interrupts on (a threshold or a moderation timer), a waiting
     * CPU sleeps until one (NAPI re-arms the interrupt and waits); without,
     * any device write wakes it (a busy-polling loop sees the writeback). */
    if ((s->cfg.irq_thresh > 0 || sim_cfg_irq_timer(&s->cfg) > 0) && !irq)
        return;
    /* Several queues: vector q is queue q's, handled by the CPU that owns
     * the queue (its XPS CPU); only that CPU wakes. */
    if (irq && s->nq > 1) {
        struct sim_cpu *c = &s->cpus[vec < s->nq ? sim_cfg_queue_cpu(&s->cfg, vec) : 0];
        if (vec < s->nq)
            s->qirq_pending |= 1ull << vec;
        c->irq_pending = 1;
        if (c->wake_on_dev)
            cpu_wake_at(c, t);
        return;
    }
    for (i = 0; i < s->ncpu && irq; i++)
        s->cpus[i].irq_pending = 1;
    for (i = 0; i < s->ncpu; i++)
        if (s->cpus[i].wake_on_dev)
            cpu_wake_at(&s->cpus[i], t);
}

/* Another CPU made work for c (netif_wake_queue): wake it now. */
static void cpu_kick(struct sim_cpu *c, sim_ps_t t)
{
    if (c->state == SIM_CPU_WAIT && c->deadline != SIM_PS_NEVER)
        cpu_wake_at(c, t);
}

/* ---------------------------------------------------------- programs */

/* Bring the queue up (the driver's probe); 0, or -1 with s->probe_rc. */
static int prog_probe(struct sim_cpu *c)
{
    struct sim *s = c->sim;

    s->probe_rc = txq_init(&s->txq, &c->plat, &s->tc, pktgen_complete, &s->pg);
    if (s->probe_rc != 0)
        return -1;
    s->txq_up = 1;
    s->probe_rc = pktgen_init(&s->pg, &c->plat, &s->txq, &s->pc);
    if (s->probe_rc != 0)
        return -1;
    s->pg_up = 1;
    return 0;
}

/* Several queues: CPU 0 brings them all up, in order (the last one's
 * txq_init enables the device); then each belongs to the CPU that steps it
 * (its XPS CPU), whose platform its driver code uses from then on. */
static int prog_probe_queues(struct sim_cpu *c)
{
    struct sim *s = c->sim;

    if (prog_probe(c) != 0)
        return -1;
    for (unsigned q = 1; q < s->nq; q++) {
        struct sim_queue *x = &s->xq[q - 1];
        s->probe_rc = txq_init(&x->txq, &c->plat, &x->tc, pktgen_complete, &x->pg);
        if (s->probe_rc != 0)
            return -1;
        x->txq_up = 1;
        s->probe_rc = pktgen_init(&x->pg, &c->plat, &x->txq, &x->pc);
        if (s->probe_rc != 0)
            return -1;
        x->pg_up = 1;
    }
    for (unsigned q = 0; q < s->nq; q++) {
        struct platform *p = &s->cpus[sim_cfg_queue_cpu(&s->cfg, q)].plat;
        sim_txq(s, q)->plat = p;
        sim_pg(s, q)->plat = p;
    }
    return 0;
}

/* Wait, off the clock, until sim_run() starts the measured run. */
static void prog_park(struct sim_cpu *c)
{
    cpu_wait(c, SIM_PS_NEVER, 0);
}

static void prog_blocked(struct sim_cpu *c, int wake_on_dev)
{
    const struct sim *s = c->sim;
    sim_ps_t t = c->cpu.now + sim_ns_to_ps(s->cfg.poll_ns);

    if (s->pg.cfg.avail && s->pg.stats.sent < s->pg.cfg.count) { /* a paced capture */
        sim_ps_t due = sim_pace_due(s, s->pg.stats.sent);
        if (due > c->cpu.now && due < t)
            t = due;
    }
    cpu_wait(c, t, wake_on_dev);
}

/* Probe, wait for the run, then call step() until it is done: one CPU
 * (pktgen_step: a burst, then a cleanup pass, until every packet is back;
 * a device write wakes it) or CPU 0 of two (pktgen_send: until every packet
 * is sent; pktgen spins, and the completion CPU kicks it). */
static void prog_source(struct sim_cpu *c, enum pktgen_ret (*step)(struct pktgen *),
                        int wake_on_dev)
{
    struct sim *s = c->sim;

    if (prog_probe(c) != 0)
        return;
    prog_park(c);
    for (;;) {
        enum pktgen_ret r = step(&s->pg);
        if (s->obs)
            sim_obs_queue(c, 0);
        if (r == PKTGEN_DONE)
            return;
        if (r == PKTGEN_ERROR) {
            sim_fail(s, "pktgen failed: bad packet length");
            return;
        }
        if (r == PKTGEN_BLOCKED) {
            prog_blocked(c, wake_on_dev);
            sim_fault_check_hang(c);
        } else {
            sim_fault_poll_hang(c);
        }
    }
}

/* One CPU with interrupts on: pktgen sends, and the NAPI poll an
 * interrupt schedules runs on the same CPU between bursts (the softirq at
 * local_bh_enable), as with a queue's interrupt bound to its transmit CPU.
 * With nothing to send the CPU waits for the interrupt (or the poll
 * interval) and then polls. */
static void prog_single_irq(struct sim_cpu *c)
{
    struct sim *s = c->sim;

    if (prog_probe(c) != 0)
        return;
    prog_park(c);
    c->irq_pending = 0;
    while (s->pg.stats.completed < s->cfg.packets && !s->failed) {
        enum pktgen_ret r = pktgen_send(&s->pg);
        if (r == PKTGEN_ERROR) {
            sim_fail(s, "pktgen failed: bad packet length");
            return;
        }
        if (c->irq_pending) {
            c->irq_pending = 0;
            /* A full budget: NAPI polls again before re-arming. */
            if (txq_clean_budget(&s->txq, &c->plat, s->cfg.napi_budget) == s->cfg.napi_budget)
                c->irq_pending = 1;
        } else if (r != PKTGEN_SENT) {
            prog_blocked(c, 1);
            if (!sim_fault_check_hang(c))
                c->irq_pending = 1;
            continue;
        }
        sim_fault_poll_hang(c);
    }
}

static void prog_single(struct sim_cpu *c)
{
    if (c->sim->cfg.napi == SIM_NAPI_IRQ)
        prog_single_irq(c);
    else
        prog_source(c, pktgen_step, 1); /* busy-polling NAPI after each burst */
}

static void prog_tx(struct sim_cpu *c)
{
    prog_source(c, pktgen_send, 0);
}

/* One pass over the CPU's queues: -1 on a pktgen error, else whether any
 * made progress; *left: some queue is not done yet. */
static int prog_queues_pass(struct sim_cpu *c, int *left)
{
    struct sim *s = c->sim;
    int busy = 0;

    *left = 0;
    for (unsigned i = 0; i < c->ntxq; i++) {
        unsigned q = c->txq_of[i];
        enum pktgen_ret r = pktgen_step(sim_pg(s, q));
        if (r == PKTGEN_ERROR)
            return -1;
        if (s->obs)
            sim_obs_queue(c, q);
        *left |= r != PKTGEN_DONE;
        busy |= r == PKTGEN_SENT;
    }
    return busy;
}

/* Several queues: step this CPU's queues in turn until all are done. */
static void prog_queues(struct sim_cpu *c)
{
    struct sim *s = c->sim;
    int left;

    if (c->id == 0 && prog_probe_queues(c) != 0)
        return;
    prog_park(c);
    for (;;) {
        int busy = prog_queues_pass(c, &left);
        if (busy < 0) {
            sim_fail(s, "pktgen failed: bad packet length");
            return;
        }
        if (!left)
            return;
        if (!busy) {
            prog_blocked(c, 1);
            sim_fault_check_hang(c);
        } else {
            sim_fault_poll_hang(c);
        }
    }
}

/* Queue q's NAPI poll if its interrupt arrived: clean up to the budget; a
 * full budget polls again (the bit stays).  Whether it polled. */
static int prog_queue_napi(struct sim_cpu *c, unsigned q)
{
    struct sim *s = c->sim;
    uint64_t bit = 1ull << q;

    if (!(s->qirq_pending & bit))
        return 0;
    s->qirq_pending &= ~bit;
    if (txq_clean_budget(sim_txq(s, q), &c->plat, s->cfg.napi_budget) == s->cfg.napi_budget)
        s->qirq_pending |= bit;
    return 1;
}

/* Several queues, interrupts on, host.napi=irq: each of this CPU's queues
 * in turn sends a burst (pktgen_send), and runs its NAPI poll when its
 * interrupt arrived; with nothing to do the CPU waits for an interrupt (or
 * the poll interval, after which every queue of its polls, as
 * prog_single_irq does). */
static void prog_queues_irq(struct sim_cpu *c)
{
    struct sim *s = c->sim;

    if (c->id == 0 && prog_probe_queues(c) != 0)
        return;
    prog_park(c);
    for (;;) {
        int busy = 0, left = 0;
        for (unsigned i = 0; i < c->ntxq; i++) {
            unsigned q = c->txq_of[i];
            struct pktgen *g = sim_pg(s, q);
            if (g->stats.completed >= sim_cfg_queue_packets(&s->cfg, q))
                continue;
            left = 1;
            enum pktgen_ret r = pktgen_send(g);
            if (r == PKTGEN_ERROR) {
                sim_fail(s, "pktgen failed: bad packet length");
                return;
            }
            busy |= r == PKTGEN_SENT;
            busy |= prog_queue_napi(c, q);
        }
        if (!left || s->failed)
            return;
        if (!busy) {
            prog_blocked(c, 1);
            if (!sim_fault_check_hang(c) && !c->irq_pending)
                for (unsigned i = 0; i < c->ntxq; i++)
                    s->qirq_pending |= 1ull << c->txq_of[i];
            c->irq_pending = 0;
        } else {
            sim_fault_poll_hang(c);
        }
    }
}

/* CPU 1 of two: NAPI-style cleanup, until every packet is back. */
static void prog_completion(struct sim_cpu *c)
{
    struct sim *s = c->sim;
    struct sim_cpu *tx = &s->cpus[0];

    prog_park(c);
    while (s->pg.stats.completed < s->cfg.packets && !s->failed) {
        unsigned n = txq_clean_budget(&s->txq, &c->plat, s->cfg.napi_budget);
        if (!txq_stopped(&s->txq))
            cpu_kick(tx, c->cpu.now); /* netif_wake_queue: pktgen goes on */
        if (n < s->cfg.napi_budget) {
            prog_blocked(c, 1); /* re-enable the interrupt, wait for it */
            if (sim_fault_check_hang(c))
                cpu_kick(tx, c->cpu.now); /* the queue runs again */
        }
    }
}

/* A CPU with no queue (one queue, CPU 2 and up): it waits for the run,
 * then is done. */
static void prog_idle(struct sim_cpu *c)
{
    prog_park(c);
}

/* ---------------------------------------------------------- lifecycle */

static void cpu_entry(void *arg)
{
    struct sim_cpu *c = arg;

    c->program(c);
}

int sim_cpus_init(struct sim *s, const struct stbuf_cfg *bc)
{
    unsigned i;
    size_t sz = ((size_t)s->cfg.cpus * sizeof(*s->cpus) + 63) & ~(size_t)63;

    s->cpus = aligned_alloc(64, sz); /* only the CPUs the run has */
    if (!s->cpus)
        return -1;
    memset(s->cpus, 0, sz);
    s->ncpu = s->cfg.cpus;
    for (i = 0; i < s->ncpu; i++) {
        struct sim_cpu *c = &s->cpus[i];
        struct stbuf_cfg b = *bc;
        c->sim = s;
        c->id = i;
        c->plat.sim = s;
        c->plat.cpu = c;
        c->state = SIM_CPU_RUN;
        cpu_init(&c->cpu, &s->cfg.costs);
        b.seed = bc->seed + i; /* each CPU drains in its own order */
        explore_sched_for(s->cfg.schedule, i, s->cfg.packets, &c->sched);
        b.tail_ns = c->sched.tail_ns;
        b.tail_per_256 = c->sched.tail_per_256;
        b.cpu_tail_per_256 = c->sched.cpu_tail_per_256;
        c->explore_rng = s->cfg.schedule * 0x9e3779b97f4a7c15ull + i + 1;
        b.hold_store = c->sched.hold_store;
        if (stbuf_init(&c->stb, &b) != 0)
            return -1;
        c->stb_up = 1;
        c->kcpu.plat = &c->plat;
        sim_kcpu_windows(s, c);
        c->plain_full = s->ncpu > 1 || s->hist_up || cpu_explores(c);
        c->ntxq = 0;
        for (unsigned q = 0; q < s->nq && s->cfg.queues > 1; q++)
            if (sim_cfg_queue_cpu(&s->cfg, q) == i)
                c->txq_of[c->ntxq++] = (uint8_t)q;
        /* The lane of plain stores to driver state (plain_access.c): read
         * by other CPUs only, so with one there is none; drained in its own
         * order, never full, holding no store on purpose. */
        if (s->ncpu > 1) {
            b.seed = bc->seed + i + 0x4c414e45ull; /* "LANE" */
            b.capacity = UINT32_MAX;
            b.hold_store = 0;
            b.mem_base = 0;
            b.mem_size = 0;
            if (stbuf_init(&c->lane, &b) != 0)
                return -1;
            c->lane_up = 1;
        }
        c->program = s->cfg.queues > 1 && s->cfg.napi == SIM_NAPI_IRQ ? prog_queues_irq
                     : s->cfg.queues > 1 ? prog_queues
                     : s->ncpu == 1   ? prog_single
                     : i == 0         ? prog_tx
                     : i == 1         ? prog_completion
                                      : prog_idle;
        if (coro_init(&c->co, cpu_entry, c, SIM_CPU_STACK) != 0)
            return -1;
        c->co_up = 1;
    }
    return 0;
}

void sim_cpus_destroy(struct sim *s)
{
    unsigned i;

    for (i = 0; i < s->ncpu; i++) {
        if (s->cpus[i].co_up)
            coro_destroy(&s->cpus[i].co);
        if (s->cpus[i].stb_up)
            stbuf_destroy(&s->cpus[i].stb);
        if (s->cpus[i].lane_up)
            stbuf_destroy(&s->cpus[i].lane);
    }
    free(s->cpus);
    s->cpus = NULL;
    s->ncpu = 0;
}

/* Start the measured run: every parked CPU runs from `t`. */
void sim_cpus_start(struct sim *s, sim_ps_t t)
{
    unsigned i;

    for (i = 0; i < s->ncpu; i++) {
        struct sim_cpu *c = &s->cpus[i];
        if (c->state == SIM_CPU_WAIT && c->deadline == SIM_PS_NEVER) {
            if (c->cpu.now < t)
                c->cpu.now = t;
            c->state = SIM_CPU_RUN;
        }
        memset(c->cpu.by_cause, 0, sizeof(c->cpu.by_cause));
        c->poll_ps = c->poll_open = 0;
    }
    sim_cpus_dirty(s);
}

/* ---------------------------------------------------------- scheduling */

/* Can c run at device time `now`?  A deadline that passed wakes it. */
static int cpu_runnable(struct sim_cpu *c, sim_ps_t now)
{
    if (c->state == SIM_CPU_WAIT && c->deadline <= now)
        cpu_wake_at(c, c->deadline);
    return c->state == SIM_CPU_RUN && !c->mmio_waiting && c->cpu.now <= now;
}

struct sim_cpu *sim_cpu_pick(struct sim *s)
{
    struct sim_cpu *best = NULL;
    unsigned i;

    for (i = 0; i < s->ncpu; i++) {
        struct sim_cpu *c = &s->cpus[i];
        if (cpu_runnable(c, s->now) && (!best || c->cpu.now < best->cpu.now))
            best = c;
    }
    return best;
}

/* Run c's coroutine until it yields; its driver code sees c as the CPU
 * it runs on (driver/linux/kcpu.h) meanwhile, and the access it announced
 * last is made by the time it yields. */
void sim_cpu_resume(struct sim_cpu *c)
{
    struct kcpu *was = kcpu_swap(&c->kcpu);

    if (__builtin_expect(c->sim->obs != NULL, 0))
        obs_resume(c->sim->obs, c->id, c->cpu.now); /* a coroutine switch */
    c->in_coro = 1;
    if (!coro_resume(&c->co))
        c->state = SIM_CPU_DONE;
    c->in_coro = 0;
    kcpu_swap(was);
    if (c->pend.kind || c->pend.nline)
        sim_plain_settle(c);
}

sim_ps_t sim_cpus_next_event(const struct sim *s)
{
    sim_ps_t t = SIM_PS_NEVER, x;
    unsigned i;

    for (i = 0; i < s->ncpu; i++) {
        const struct sim_cpu *c = &s->cpus[i];
        if (c->state == SIM_CPU_RUN && !c->mmio_waiting && c->cpu.now < t)
            t = c->cpu.now;
        if (c->state == SIM_CPU_WAIT && c->deadline < t)
            t = c->deadline;
        /* An unfenced WC line drains while its CPU waits. */
        if (c->state != SIM_CPU_RUN && (x = stbuf_wc_next(&c->stb)) < t)
            t = x;
    }
    return t;
}

/* A waiting CPU's drained WC lines leave at their time. */
static void cpu_flush_wc(struct sim_cpu *c, sim_ps_t now)
{
    if (c->state != SIM_CPU_RUN && !stbuf_wc_empty(&c->stb) && stbuf_wc_next(&c->stb) <= now) {
        cpu_wait_until(&c->cpu, now, CPU_IDLE);
        sim_cpu_flush_wc(c);
    }
}

/* One pass for the event loop: each CPU in turn sends its drained WC
 * lines, then is considered as sim_cpu_pick() does.  Flushing a CPU touches
 * only that CPU and the MMIO queue, and a wake only its own CPU, so this
 * equals flushing all of them, then picking. */
struct sim_cpu *sim_cpus_flush_pick(struct sim *s)
{
    struct sim_cpu *best = NULL;
    unsigned i;

    for (i = 0; i < s->ncpu; i++) {
        struct sim_cpu *c = &s->cpus[i];
        cpu_flush_wc(c, s->now);
        if (cpu_runnable(c, s->now) && (!best || c->cpu.now < best->cpu.now))
            best = c;
    }
    return best;
}

int sim_cpus_quiet(const struct sim *s, const struct sim_cpu *self)
{
    for (unsigned i = 0; i < s->ncpu; i++)
        if (&s->cpus[i] != self && s->cpus[i].state == SIM_CPU_RUN && !s->cpus[i].preempted)
            return 0;
    return s->dev_idle;
}

const char *sim_cpu_state_name(const struct sim_cpu *c)
{
    if (c->mmio_waiting)
        return "stalled on an MMIO read";
    return c->state == SIM_CPU_RUN ? "running" : c->state == SIM_CPU_WAIT ? "waiting" : "done";
}
