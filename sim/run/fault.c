/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fault.c - carrying out the fault plan and accounting for it (fault.h).
 */
#include "run/fault.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "check/livechk.h"
#include "run/sim_world.h"

static const char *const drop_names[SIM_DROP_REASONS] = {"ur", "ca", "ep", "timeout",
                                                         "db-off", "blackout", "reset"};

const char *sim_drop_reason_name(unsigned reason)
{
    return reason < SIM_DROP_REASONS ? drop_names[reason] : "invalid";
}

static enum rc_fault_kind fault_rc_kind(enum inj_kind k)
{
    switch (k) {
    case INJ_CA: return RC_FAULT_CA;
    case INJ_EP: return RC_FAULT_EP;
    case INJ_TIMEOUT: return RC_FAULT_LOST;
    default: return RC_FAULT_UR;
    }
}

/* The harness's own posted register write (another agent on the bus). */
static void fault_reg_write(struct sim *s, uint32_t off, uint32_t val)
{
    struct tlp t;

    memset(&t, 0, offsetof(struct tlp, data));
    t.type = TLP_MWR;
    t.kind = TLP_KIND_MMIO_WR;
    t.last = 1;
    t.len = 4;
    t.addr = SIM_BAR0_BASE + off;
    memcpy(t.data, &val, 4);
    sim_cpu_send(s, &t, s->now);
}

static void fault_fire(struct sim *s, unsigned i, unsigned q, uint64_t seq, const uint8_t *buf,
                       unsigned len)
{
    const struct inj *f = &s->cfg.inject.v[i];
    uint64_t bus = host_mem_bus(&s->mem, buf);

    if (inj_on_read(f->kind)) {
        if (rc_arm_fault(&s->rc, fault_rc_kind(f->kind), bus, bus + len, i) != 0)
            sim_fail(s, "--inject: too many read faults armed at once");
        /* The engine skips a frame whose read fails; a lost completion
         * stalls the queue instead, and the reset drops it. */
        if (f->kind != INJ_TIMEOUT)
            sb_note_dropped_q(s->sb, q, seq, f->kind);
    } else if (f->kind == INJ_DB_OFF) {
        fault_reg_write(s, NICTX_REG_CTRL, 0);
        s->drop_cause = INJ_DB_OFF;
    } else {
        sim_ps_t until = s->now + sim_ns_to_ps(f->ns);
        sim_deliver_dirty(s);
        pcie_link_blackout(s->h2d, s->now, until);
        pcie_link_blackout(s->d2h, s->now, until);
        s->drop_cause = INJ_BLACKOUT;
    }
    s->inj_fired++;
    s->inj_fired_kinds |= 1u << f->kind;
}

uint32_t sim_fault_err_explained(const struct sim *s)
{
    uint32_t k = s->inj_fired_kinds, err = 0;

    if (k & (1u << INJ_UR | 1u << INJ_CA | 1u << INJ_EP))
        err |= NICTX_ERR_DMA;
    if (k & 1u << INJ_TIMEOUT)
        err |= NICTX_ERR_CPL_TIMEOUT;
    if (k & 1u << INJ_DB_OFF)
        err |= NICTX_ERR_DB_OFF;
    /* Reads a blackout holds past the completion timeout time out, and
     * their completions come late. */
    if (k & 1u << INJ_BLACKOUT)
        err |= NICTX_ERR_CPL_TIMEOUT | NICTX_ERR_UNEXP_CPL;
    return err;
}

void sim_fault_posting(struct sim *s, unsigned q, uint64_t seq, const uint8_t *buf,
                       unsigned len)
{
    for (unsigned i = 0; i < s->cfg.inject.n; i++)
        if (s->cfg.inject.v[i].q == q && s->cfg.inject.v[i].at == seq)
            fault_fire(s, i, q, seq, buf, len);
}

void sim_fault_fired(struct sim *s)
{
    s->drop_cause = s->cfg.inject.v[s->rc.last_fault.id].kind;
}

void sim_fault_dropped(struct sim *s, unsigned q, uint64_t seq)
{
    /* The reset reclaimed what the device sent before seq: final. */
    sb_note_dropped_final_q(s->sb, q, seq, s->drop_cause);
    s->last_progress = s->now;
}

/* A cleanup pass or a burst of some queue is running (it may yield). */
static int fault_driver_busy(struct sim *s)
{
    for (unsigned q = 0; q < s->nq; q++)
        if (sim_txq(s, q)->in_clean || sim_pg(s, q)->in_burst)
            return 1;
    return 0;
}

/* Hold every CPU off every queue (netif_tx_disable, napi_disable). */
static void fault_quiesce_driver(struct sim_cpu *c)
{
    struct sim *s = c->sim;

    for (unsigned q = 0; q < s->nq; q++)
        sim_txq(s, q)->resetting = 1;
    while (fault_driver_busy(s))
        cpu_wait(c, c->cpu.now + sim_ns_to_ps(s->cfg.poll_ns), 0);
}

/* The hang check has run on c now: some queue has work in flight and no
 * completion for the tx timeout (never, with no hang check). */
static int fault_any_hung(struct sim_cpu *c)
{
    struct sim *s = c->sim;
    uint64_t now_ns = plat_time_ns(&c->plat), timeout_ns = (uint64_t)(s->to.tx_us * 1000.0);

    s->hang_checked_ps = c->cpu.now;
    if (s->to.tx_us == 0)
        return 0;
    for (unsigned q = 0; q < s->nq; q++)
        if (txq_hung(sim_txq(s, q), now_ns, timeout_ns))
            return 1;
    return 0;
}

/* The CPU that watches: the last one; once it is done (several queues:
 * all of its own queues are), whichever CPU asks, so that a queue that
 * hangs late still has a watcher. */
static int fault_watcher(const struct sim_cpu *c)
{
    const struct sim *s = c->sim;

    return c->id == s->ncpu - 1 || s->cpus[s->ncpu - 1].state == SIM_CPU_DONE;
}

/* The adapter reset over every queue (txq_reset_all), the driver held
 * off meanwhile.  The ERR bits found, or -1. */
static long fault_reset_adapter(struct sim_cpu *c, unsigned *dropped)
{
    struct sim *s = c->sim;
    struct txq *qs[SIM_QUEUES_MAX];

    for (unsigned q = 0; q < s->nq; q++)
        qs[q] = sim_txq(s, q);
    fault_quiesce_driver(c);
    long err = txq_reset_all(qs, s->nq, &c->plat, dropped);
    for (unsigned q = 0; q < s->nq; q++)
        qs[q]->resetting = 0;
    if (err < 0)
        return err;
    /* A read fault still armed was for a frame the reset dropped before
     * the device read it (or one a burst gave back, posted again later):
     * left armed, it would hit whichever frame reuses the buffer, and that
     * skip no fault would announce. */
    rc_disarm_faults(&s->rc);
    return err;
}

/* The tx timeout: if any queue is hung, reset the adapter.  1 if it reset
 * (or the reset failed the run). */
static int fault_tx_timeout(struct sim_cpu *c)
{
    struct sim *s = c->sim;
    unsigned dropped;

    if (!fault_any_hung(c))
        return 0;
    long err = fault_reset_adapter(c, &dropped);
    s->drop_cause = SIM_DROP_RESET; /* the next reset needs a fault of its own */
    s->last_progress = s->now;
    if (err < 0) {
        sim_fail(s, "queue reset: the device never became quiescent");
        return 1;
    }
    s->reset_err |= (uint32_t)err;
    /* An error the reset found and cleared that no fault explains is the
     * device's (or the driver's), as at the end of a run (loop.c). */
    if ((uint32_t)err & ~sim_fault_err_explained(s))
        sim_device_error(s, (uint32_t)err & ~sim_fault_err_explained(s), "found by the adapter reset");
    return 1;
}

int sim_fault_check_hang(struct sim_cpu *c)
{
    struct sim *s = c->sim;

    if (!fault_watcher(c) || s->txq.resetting)
        return 0;
    sim_live_check(c); /* a stuck queue named before the reset acts */
    return fault_tx_timeout(c);
}

int sim_fault_poll_hang(struct sim_cpu *c)
{
    struct sim *s = c->sim;

    /* The stuck-queue diagnosis scans the rings: only when a reset is due. */
    if (!fault_watcher(c) || s->txq.resetting || !fault_any_hung(c))
        return 0;
    return sim_fault_check_hang(c);
}
