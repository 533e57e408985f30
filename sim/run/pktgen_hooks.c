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

static void sim_pkt_fill(void *ctx, uint64_t seq, uint8_t *buf, unsigned len)
{
    struct sim *s = ctx;
    sb_pkt_fill(&s->gen, seq, buf, len);
    sim_fault_posting(s, 0, seq, buf, len);
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
        pc->ctx = s;
        return;
    }
    pc->len = sim_queue_pkt_len;
    pc->fill = sim_queue_pkt_fill;
    pc->on_drop = sim_queue_pkt_dropped;
    pc->ctx = x;
}
