/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host_tlp.c - the host's side of the link: TLPs the CPUs issue go onto the
 * host-to-device link in time order; TLPs arriving from the device are
 * served as they arrive: the store buffers and checkers see the access
 * first (host_snoop), then the root complex answers (a read completes
 * later, a write lands in memory and wakes the CPUs waiting for it, an
 * MMIO read's completion goes to the CPU that asked), and what it refuses
 * is a violation.  sim_deliver() runs every event due by the device's next
 * clock edge, in time order.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "run/fault.h"
#include "run/sim_world.h"

/* The root complex's view of memory: the CPUs' invisible stores undone. */
void sim_dev_view(void *ctx, uint64_t addr, uint8_t *buf, size_t len, sim_ps_t at)
{
    struct sim *s = ctx;
    unsigned i;

    for (i = 0; i < s->ncpu; i++)
        stbuf_device_view(&s->cpus[i].stb, addr, buf, len, at);
}

/* What the CPU's stores and the checkers must see of a device access that
 * reaches host memory at `at`: a descriptor read, and the device's
 * completion writes (head writeback, DD, CQE), which free the slots they
 * report, each for its own queue's checker. */
static void host_snoop(struct sim *s, const struct tlp *t, sim_ps_t at)
{
    const struct stbuf *sb[SIM_MAX_CPUS];
    unsigned i;

    if (t->type == TLP_CPLD || t->type == TLP_CPL || rc_is_msi(t->addr))
        return;
    for (i = 0; i < s->ncpu; i++)
        sb[i] = &s->cpus[i].stb;
    if (t->kind == TLP_KIND_DESC_RD) {
        int q = ownchk_set_desc_read(&s->ck, t->addr, t->len, at, sb, s->ncpu);
        if (q >= 0) /* the latency's split: doorbell to fetch, fetch to wire */
            sb_note_fetched_q(s->sb, (unsigned)q, s->ck.q[q].fetched, at);
    }
    if (s->cl_up) {
        const void *cpu = host_mem_ptr(&s->mem, t->addr, t->len);
        if (cpu)
            cl_device(&s->cl, (uint64_t)(uintptr_t)cpu, t->len, t->type == TLP_MWR);
    }
    for (i = 0; i < s->ncpu; i++) {
        stbuf_snoop(&s->cpus[i].stb, t->addr, t->len);
        /* Stores visible by now can no longer be undone for anyone: the
         * link delivers device TLPs in time order, so `at` only grows. */
        stbuf_retire(&s->cpus[i].stb, at);
    }
    if (t->type == TLP_MWR)
        ownchk_set_dev_write(&s->ck, t->addr, t->data, t->len, at);
    if (s->hist_up && t->type == TLP_MWR) { /* what it overwrites, before rc_receive */
        const void *cpu = host_mem_ptr(&s->mem, t->addr, t->len);
        if (cpu)
            memhist_write(&s->hist, cpu, cpu, t->len, MEMHIST_DEVICE, at, ++s->hist_tlps);
    }
}

/* The root complex refused a device access. */
static void host_refused(struct sim *s, const char *kind, const char *type, const struct tlp *t,
                         sim_ps_t at, const char *why)
{
    char access[64], detail[160];

    snprintf(access, sizeof(access), "%s 0x%" PRIx64 " %u B", type, t->addr, t->len);
    snprintf(detail, sizeof(detail), "device %s of %u B at 0x%" PRIx64 " %s",
             t->type == TLP_MRD ? "read" : "write", t->len, t->addr, why);
    sim_violation_at(s, sim_no_queue(s), kind, at, -1, access, detail);
}

/* A register read's completion: to the CPU (or the harness) that asked. */
static void host_mmio_cpl(struct sim *s, const struct tlp *t, sim_ps_t at)
{
    unsigned who = t->tag & SIM_TAG_WHO_MASK;
    uint32_t v = 0xFFFFFFFFu; /* what a CPU load gets from an error completion */

    if (t->status == TLP_STATUS_SC)
        memcpy(&v, t->data, t->len < 4 ? t->len : 4);
    if (who == 0 && s->hreg_waiting && t->tag == s->hreg_tag) {
        s->hreg_value = v;
        s->hreg_waiting = 0;
    } else if (who >= 1 && who <= s->ncpu && s->cpus[who - 1].mmio_waiting &&
               t->tag == s->cpus[who - 1].mmio_tag) {
        struct sim_cpu *c = &s->cpus[who - 1];
        c->mmio_value = v;
        c->mmio_t = at;
        c->mmio_waiting = 0;
        sim_cpus_dirty(s);
    } else {
        sim_violation(s, "unexpected_cpl", "completion tag %u with no MMIO read waiting",
                      t->tag);
    }
}

/* A device TLP arrives at the host at time `at`. */
static void host_receive(struct sim *s, const struct tlp *t, sim_ps_t at)
{
    host_snoop(s, t, at);
    switch (rc_receive(&s->rc, t, at)) {
    case RC_NONE:
        break;
    case RC_WROTE:
    case RC_IRQ: {
        int irq = t->kind == TLP_KIND_IRQ || rc_is_msi(t->addr);
        unsigned vec = irq ? sim_cfg_msix_vector(t->addr) : 0;
        s->last_progress = at;
        if (irq && vec < SIM_QUEUES_MAX)
            s->qirqs[vec]++;
        sim_cpus_device_wrote(s, at, irq, vec);
        break;
    }
    case RC_MMIO_CPL:
        host_mmio_cpl(s, t, at);
        break;
    case RC_UNMAPPED_READ:
        host_refused(s, "dma_read_unmapped", "MRd", t, at,
                     "outside host DMA memory: answered with Unsupported Request");
        break;
    case RC_FAULTED:
        sim_fault_fired(s);
        break;
    case RC_UNMAPPED_WRITE:
        host_refused(s, "dma_write_unmapped", "MWr", t, at, "outside host DMA memory: dropped");
        break;
    case RC_NOMEM:
        sim_fail(s, "out of memory queueing completions");
        break;
    }
}

/* Deliver every event due at or before `now`, in time order.  The links'
 * own events (a TLP that waited for credits starting, UpdateFC DLLPs) are
 * processed by pcie_link_advance() at their time, before anything else
 * that happens at or after it. */
void sim_deliver_due(struct sim *s)
{
    for (;;) {
        sim_ps_t tc = tlpq_next(&s->cpu_out);
        sim_ps_t tm = rc_next_cpl(&s->rc);
        sim_ps_t td = pcie_link_next_arrival(s->d2h);
        sim_ps_t tl = pcie_link_next_internal(s->h2d); /* both directions */
        sim_ps_t t = tc < tm ? tc : tm;

        if (td < t)
            t = td;
        if (tl < t)
            t = tl;
        if (t > s->now) {
            s->deliver_next = t;
            return;
        }
        pcie_link_advance(s->h2d, t);
        if (t == tl)
            continue;
        if (t == td) {
            const struct tlp *p = pcie_link_peek(s->d2h);
            host_receive(s, p, t);
            /* The root complex takes every TLP as it arrives. */
            if (pcie_link_rx_release(s->d2h, t, p) != 0)
                sim_fail(s, "device-to-host link: credit release failed");
            pcie_link_pop(s->d2h);
        } else if (t == tc) {
            if (pcie_link_send(s->h2d, t, tlpq_peek(&s->cpu_out)) != 0)
                sim_fail(s, "host-to-device link refused an MMIO TLP");
            tlpq_pop(&s->cpu_out);
        } else {
            if (pcie_link_send(s->h2d, t, rc_peek_cpl(&s->rc)) != 0)
                sim_fail(s, "host-to-device link refused a completion");
            rc_pop_cpl(&s->rc);
        }
    }
}

void sim_cpu_send(struct sim *s, const struct tlp *t, sim_ps_t at)
{
    struct tlp *q;

    if (at < s->cpu_out_last)
        at = s->cpu_out_last;
    s->cpu_out_last = at;
    sim_deliver_dirty(s);
    q = tlpq_push(&s->cpu_out, at);
    if (!q) {
        sim_fail(s, "out of memory queueing an MMIO TLP");
        return;
    }
    q->type = t->type;
    q->kind = t->kind;
    q->tag = t->tag;
    q->last = 1;
    q->ro = t->ro;
    q->status = TLP_STATUS_SC;
    q->ep = 0;
    q->len = t->len;
    q->addr = t->addr;
    if (t->type != TLP_MRD)
        memcpy(q->data, t->data, t->len);
}
