/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pktgen_hooks.c - what each queue's pktgen asks of the world: a packet's
 * length and contents (the scoreboard's generator, so the wire can be
 * checked) and its faults (fault.h), armed as the packet is posted.
 */
#include "run/fault.h"
#include "run/sim_world.h"

static unsigned sim_pkt_len(void *ctx, uint64_t seq)
{
    struct sim *s = ctx;
    return sb_pkt_len(&s->gen, seq);
}

/* The tracer sees queue q's packet seq posted (its frame's bus address,
 * the ring slot it takes and the slots in use before it). */
static void sim_pkt_traced(struct sim *s, unsigned q, uint64_t seq, const uint8_t *buf)
{
    const struct txq *x = sim_txq(s, q);
    const struct sim_cpu *c = sim_pg(s, q)->plat->cpu;

    obs_post(s->obs, c->id, c->cpu.now, q, seq, host_mem_bus(&s->mem, buf),
             x->next_to_use & (x->size - 1), (x->next_to_use - x->next_to_clean) & (x->size - 1));
}

static void sim_pkt_fill(void *ctx, uint64_t seq, uint8_t *buf, unsigned len)
{
    struct sim *s = ctx;
    sb_pkt_fill(&s->gen, seq, buf, len);
    sim_fault_posting(s, 0, seq, buf, len);
    if (s->obs)
        sim_pkt_traced(s, 0, seq, buf);
}

/* --pcap-timing: the packets from seq on that are due by the CPU's clock. */
static uint64_t sim_pkt_avail(void *ctx, uint64_t seq)
{
    const struct sim *s = ctx;
    sim_ps_t now = s->pg.plat->cpu->cpu.now;
    uint64_t k = 0;

    while (k < 65536 && sim_pace_due(s, seq + k) <= now)
        k++;
    return k;
}

static void sim_pkt_dropped(void *ctx, uint64_t seq)
{
    sim_fault_dropped(ctx, 0, seq);
}

/* Queue q > 0's packets: (seed, q, seq), and its faults (KIND@Q/N). */
static unsigned sim_queue_pkt_len(void *ctx, uint64_t seq)
{
    const struct sim_queue *x = ctx;
    return sb_pkt_len_q(&x->s->gen, x->id, seq);
}

static void sim_queue_pkt_fill(void *ctx, uint64_t seq, uint8_t *buf, unsigned len)
{
    const struct sim_queue *x = ctx;
    sb_pkt_fill_q(&x->s->gen, x->id, seq, buf, len);
    sim_fault_posting(x->s, x->id, seq, buf, len);
    if (x->s->obs)
        sim_pkt_traced(x->s, x->id, seq, buf);
}

static void sim_queue_pkt_dropped(void *ctx, uint64_t seq)
{
    const struct sim_queue *x = ctx;
    sim_fault_dropped(x->s, x->id, seq);
}

struct txq *sim_txq(struct sim *s, unsigned q)
{
    return q == 0 ? &s->txq : &s->xq[q - 1].txq;
}

struct pktgen *sim_pg(struct sim *s, unsigned q)
{
    return q == 0 ? &s->pg : &s->xq[q - 1].pg;
}

/* Queue x's (NULL: queue 0's) packet hooks: lengths and contents from the
 * scoreboard's generator, faults armed as each is posted. */
void sim_pktgen_hooks(struct sim *s, struct sim_queue *x, struct pktgen_cfg *pc)
{
    if (!x) {
        pc->len = sim_pkt_len;
        pc->fill = sim_pkt_fill;
        pc->on_drop = sim_pkt_dropped;
        pc->avail = s->cap.n && s->cfg.obs.pcap_timing > 0 ? sim_pkt_avail : NULL;
        pc->ctx = s;
        return;
    }
    pc->len = sim_queue_pkt_len;
    pc->fill = sim_queue_pkt_fill;
    pc->on_drop = sim_queue_pkt_dropped;
    pc->ctx = x;
}
