/* SPDX-License-Identifier: Apache-2.0 */
/*
 * loop.c - the event loop of a run.
 *
 * Time: `now` is the device's next clock edge.  Before each edge the loop
 * (1) delivers every event due by then in time order (host_tlp.c); (2)
 * resumes the CPUs whose clock is not ahead of the device's (cpu_sched.c);
 * (3) clocks the device once (dev_port.c).  When the device is idle and
 * nothing is due, the loop jumps to the next event (idle skip) and counts
 * the cycles it skipped; while a CPU runs, its next step is that event,
 * and the loop leaves the device's clocks out one at a time as long as
 * the device allows and nothing arrives for it (sim_may_leave_out()).  A
 * watchdog ends a run that makes no progress, with a diagnosis; the first
 * violation ends it after its grace period.
 * sim_run() is the measured run and the device's own view read after it.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check/livechk.h"
#include "run/fault.h"
#include "nictx_hw.h"
#include "run/sim_world.h"

static sim_ps_t sim_next_event(const struct sim *s, int cpu_may_run)
{
    sim_ps_t t = tlpq_next(&s->cpu_out), x;

    if ((x = rc_next_cpl(&s->rc)) < t) t = x;
    if ((x = pcie_link_next_event(s->h2d)) < t) t = x;
    if ((x = pcie_link_next_event(s->d2h)) < t) t = x;
    if (cpu_may_run && (x = sim_cpus_next_event(s)) < t)
        t = x;
    if (s->stop_at > s->now && s->stop_at < t)
        t = s->stop_at;
    return t;
}

/* What queue 0's driver has been doing since its last completion, and
 * whether its hang check ran: a CPU that posts and polls without end names
 * itself here (the passes that found nothing), as does a hang check its CPU
 * never reached. */
static void sim_watchdog_driver(const struct sim *s, char *buf, size_t n)
{
    const struct txq *q = &s->txq;
    double since_us = ((double)s->now / 1e3 - (double)q->progress_ns) / 1e3;
    int k = snprintf(buf, n,
                     "; queue 0: %u in flight, last completion %.1f us ago, %" PRIu64
                     " cleanup passes since found nothing",
                     txq_in_flight(q), since_us, q->st_cleans - q->cleans_at_reclaim);

    if (k < 0 || (size_t)k >= n)
        return;
    if (s->to.tx_us == 0)
        snprintf(buf + k, n - (size_t)k, "; no hang check (--tx-timeout-us 0)");
    else if (s->hang_checked_ps == 0)
        snprintf(buf + k, n - (size_t)k, "; hang check (tx timeout %.1f us) never ran",
                 s->to.tx_us);
    else
        snprintf(buf + k, n - (size_t)k, "; hang check (tx timeout %.1f us) last ran %.1f us ago",
                 s->to.tx_us, (double)(s->now - s->hang_checked_ps) / 1e6);
}

static void sim_watchdog_diag(struct sim *s, const char *why)
{
    struct txq_stats ts;
    struct sb_result r;
    char cpus[96] = "", drv[256];
    size_t n = 0;
    unsigned i;

    sim_live_diagnose(s); /* a named cause, if the queues show one */
    txq_get_stats(&s->txq, &ts);
    sb_result(s->sb, &r);
    for (i = 0; i < s->ncpu && n < sizeof(cpus); i++)
        n += (size_t)snprintf(cpus + n, sizeof(cpus) - n, " cpu%u %s", i,
                              sim_cpu_state_name(&s->cpus[i]));
    sim_watchdog_driver(s, drv, sizeof(drv));
    sim_fail(s,
             "%s at %.3f us: %" PRIu64 " of %" PRIu64 " packets on the wire, "
             "%" PRIu64 " reclaimed; driver next_to_use=%u next_to_clean=%u "
             "stopped=%d doorbells=%" PRIu64 "; published=%" PRIu64 "; "
             "link in flight h2d=%zu d2h=%zu; completions queued=%zu;%s%s",
             why, (double)s->now / 1e6, r.seen, s->cfg.packets, ts.reclaimed,
             s->txq.next_to_use, s->txq.next_to_clean, s->txq.stopped,
             ts.doorbells, s->ck.q[0].published, pcie_link_in_flight(s->h2d),
             pcie_link_in_flight(s->d2h), s->rc.cpl.count, cpus, drv);
}

/* Leave the device's next k clocks out: it is told at its next clock
 * (dev_in.skip). */
static inline void sim_leave_out(struct sim *s, uint64_t k)
{
    s->now += k * s->period_ps;
    s->skipped += k;
    s->skip_pending += k;
}

/* The device is quiescent: jump to the clock edge at or after t, no
 * further than its wake allows (dev_wake: a read's completion timer, the
 * MAC's credit) nor past the watchdog's expiry: the watchdog fires on the
 * first clock edge past it, as when every clock runs, however the clocks
 * before were skipped or left out. */
static void sim_skip_to(struct sim *s, sim_ps_t t)
{
    sim_ps_t wd_end = sim_wd_end(s);
    uint64_t k;

    if (s->cfg.every_clock)
        return;
    if (t > wd_end)
        t = wd_end;
    if (t <= s->now)
        return;
    k = (t - s->now + s->period_ps - 1) / s->period_ps;
    if (k > s->dev_wake)
        k = s->dev_wake; /* a read's completion timer acts then */
    sim_leave_out(s, k); /* (right after a clock: none pending before) */
}

/* Whether the clock at now may be left out: the device's last clock left
 * it quiescent and its wake lets it be left alone on this one too, no h2d
 * TLP has arrived to offer on it, and the next event (a CPU's next step,
 * as a rule) is due by the next edge (by cpus_next and deliver_next, which
 * may say earlier), so that the skip after that clock stopped short of
 * this one.  The CPUs go on interleaving with the clock edges as before:
 * what they do reaches the device through the links, a latency later.
 * Never past the watchdog's expiry (sim_skip_to()); not when a waveform is
 * written (it shows every clock the CPUs' steps bring), nor while the
 * device waits under exploration (a waiting device's clock may make it
 * idle, which a preempted CPU watches: sim_cpus_quiet()). */
static int sim_may_leave_out(struct sim *s)
{
    const sim_ps_t next = s->now + s->period_ps;

    return s->dev_quiet && s->skip_pending < s->dev_wake && !s->cfg.every_clock &&
           !s->cfg.obs.wave[0] && !(s->cfg.schedule != 0 && !s->dev_idle) &&
           next < sim_wd_end(s) && pcie_link_next_arrival(s->h2d) > s->now &&
           (s->cpus_next <= next || s->deliver_next <= next);
}

/*
 * Advance the world by one step: deliver due events, clock the device, or
 * jump over idle time.  `stop_at`: never jump past it.  Returns 0, or -1
 * when the run must end (watchdog, deadlock, failure).
 */
int sim_step_world(struct sim *s, int cpu_may_run, sim_ps_t stop_at)
{
    sim_deliver(s);
    if (s->failed)
        return -1;
    if (cpu_may_run && sim_may_leave_out(s)) {
        sim_leave_out(s, 1);
        return 0;
    }
    /* Several clocks at once before anything is due: the next delivery,
     * a CPU (it runs when the loop finds the time reached), the stops. */
    if (s->ops->run) {
        sim_ps_t until = s->deliver_next < stop_at ? s->deliver_next : stop_at;
        if (cpu_may_run && s->cpus_next < until)
            until = s->cpus_next;
        if (s->stop_at < until)
            until = s->stop_at;
        if (sim_clock_run(s, until))
            return s->failed ? -1 : 0;
    }
    if (sim_clock(s)) {
        sim_ps_t t = sim_next_event(s, cpu_may_run);
        /* The harness's register read returns on the clock its completion
         * arrived unless the device is idle, as when every clock ran. */
        if (!s->dev_idle && !cpu_may_run && !s->hreg_waiting)
            return 0;
        if (s->dev_idle && t == SIM_PS_NEVER && stop_at == SIM_PS_NEVER) {
            if (!cpu_may_run && !s->hreg_waiting)
                return 0; /* the register read just completed */
            sim_watchdog_diag(s, "deadlock: device idle and nothing pending");
            return -1;
        }
        sim_skip_to(s, t < stop_at ? t : stop_at);
    }
    if (s->now >= sim_wd_end(s)) {
        char why[96];
        snprintf(why, sizeof(why), "watchdog: no frame and no device write for %g us",
                 s->to.watchdog_us);
        sim_watchdog_diag(s, why);
        return -1;
    }
    return 0;
}

uint32_t sim_reg_read(struct sim *s, uint32_t off)
{
    struct tlp t;

    memset(&t, 0, offsetof(struct tlp, data));
    t.type = TLP_MRD;
    t.kind = TLP_KIND_MMIO_RD;
    t.tag = sim_tag_next(s->hreg_tag, 0);
    s->hreg_tag = t.tag;
    t.last = 1;
    t.len = 4;
    t.addr = SIM_BAR0_BASE + off;
    s->hreg_waiting = 1;
    sim_cpu_send(s, &t, s->now);
    while (s->hreg_waiting && !s->failed)
        if (sim_step_world(s, 0, SIM_PS_NEVER) != 0)
            break;
    if (s->hreg_waiting) {
        s->hreg_waiting = 0;
        return 0xffffffffu; /* what a failed read returns on PCIe */
    }
    return s->hreg_value;
}

void sim_advance_to(struct sim *s, sim_ps_t t)
{
    while (s->now < t && !s->failed)
        if (sim_step_world(s, 0, t) != 0)
            break;
    sim_deliver(s); /* what became due on the last clock */
}

/* The measured run: CPUs and world until every CPU is done, a violation's
 * grace period ends, or the watchdog fires. */
static void sim_loop(struct sim *s)
{
    while (!s->failed && !sim_cpus_done(s)) {
        struct sim_cpu *c;
        progress_tick(&s->progress, s);
        if (s->now >= s->stop_at) {
            s->stopped = 1;
            snprintf(s->diag, sizeof(s->diag), "stopped %g us after the first violation (%s)",
                     s->cfg.grace_us, s->viol[0].kind);
            return;
        }
        /* Before cpus_next no CPU runs or flushes (sim_world.h): no need
         * to look.  A CPU that ran leaves it stale, at or before now. */
        if (s->now >= s->cpus_next) {
            if ((c = sim_cpus_flush_pick(s)) != NULL) {
                sim_cpu_resume(c);
                continue;
            }
            s->cpus_next = sim_cpus_next_event(s);
        }
        if (sim_step_world(s, 1, SIM_PS_NEVER) != 0)
            return;
    }
}

/* The device's own view of the run, read through the harness's path. */
static void sim_read_device(struct sim *s)
{
    uint32_t err = sim_reg_read(s, NICTX_REG_ERR);

    /* What an injected fault left (a frame it skipped on the last
     * packets, the queue it stopped) is its outcome; any other bit is a
     * violation. */
    if (err & ~sim_fault_err_explained(s))
        sim_device_error(s, err, "at end of run");
    s->dev_err = err;
    s->rd_stall_cycles = sim_reg_read(s, NICTX_REG_CNT_RD_STALL);
    s->not_owned = sim_reg_read(s, NICTX_REG_CNT_NOT_OWNED);
    s->wc_used = sim_reg_read(s, NICTX_REG_CNT_WC);
    s->wc_dropped = sim_reg_read(s, NICTX_REG_CNT_WC_DROP);
}

/* The driver's DMA mappings at the end (dmachk_final): a mapping no
 * descriptor carries any more was leaked.  Not after a violation stopped
 * the run: a CPU may have stopped between a map and its descriptor. */
static void sim_dma_final(struct sim *s)
{
    uint64_t carried = 0;

    if (s->stopped)
        return;
    for (unsigned q = 0; q < s->ck.n; q++)
        carried += ownchk_carried(&s->ck.q[q]);
    dmachk_final(&s->dk, carried, s->now);
}

int sim_run(struct sim *s)
{
    struct timespec w0, w1;
    unsigned i;

    clock_gettime(CLOCK_MONOTONIC, &w0);
    sim_loop(s);
    progress_end(&s->progress);
    sb_finish(s->sb);
    s->h2d_t1 = *pcie_link_stats(s->h2d);
    s->d2h_t1 = *pcie_link_stats(s->d2h);
    for (i = 0; i < s->ncpu; i++) {
        memcpy(s->cpus[i].t1, s->cpus[i].cpu.by_cause, sizeof(s->cpus[i].t1));
        s->cpus[i].poll_t1 = s->cpus[i].poll_ps;
    }
    s->t_measure1 = s->now;
    s->measured = 1;
    clock_gettime(CLOCK_MONOTONIC, &w1);
    s->wall_s = (double)(w1.tv_sec - w0.tv_sec) + (double)(w1.tv_nsec - w0.tv_nsec) / 1e9;
    /* Reading the device's registers comes after the measurement and costs
     * nothing that is reported. */
    if (!s->failed) {
        sim_read_device(s);
        sim_live_final(s);
        sim_dma_final(s);
    }
    sim_obs_end(s); /* the waveform, timeline and capture written out */
    if (s->failed)
        return -1;
    /* A violation the run ended before its grace period was over, or one
     * found at the end (ERR, BQL's balance), is a violation too. */
    if (!s->stopped && s->nviol)
        snprintf(s->diag, sizeof(s->diag), "a violation before the run ended (%s)",
                 s->viol[0].kind);
    return s->stopped || s->nviol ? 1 : 0;
}
