/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pcie_link.c - one direction of a PCIe link: transmit queues with
 * flow-control credits and ordering, one serializer, fixed latency.
 *
 * Storage (all rings are powers of two that double when full, and all
 * growth happens in pcie_link_send() / pcie_link_rx_release() before any
 * state changes, so event processing never allocates):
 *  - three transmit queues (P, NP, CPL): a ring of struct q_ent plus a byte
 *    ring holding their payloads back to back;
 *  - TLPs in flight: a ring of struct fly_hdr plus a byte ring; the oldest
 *    is materialized into one `struct tlp` (cur) for pcie_link_peek().  Its
 *    capacity is reserved for every queued TLP too;
 *  - UpdateFCs on their way back to this link's transmitter (struct cr_ent),
 *    kept by the link they credit, whichever link carries them.
 *
 * Event processing (pump()) handles the links of a pair together, in time
 * order: credit arrivals, unpaired UpdateFC departures, and serializer
 * decisions (an UpdateFC first, else the oldest eligible queue head).
 * Afterwards eager() commits, ahead of time, TLPs whose start nothing can
 * change any more (see pcie_link.h); with infinite credits that is every
 * TLP at its send, the old FIFO arithmetic.
 *
 * The earliest internal event of each link (internal_next()) depends only
 * on the link's state, never on the time asked, and the simulator asks for
 * it on every device clock; so it is kept in h.next_int, recomputed for both
 * links of a pair by refresh() whenever a call changes either (send,
 * rx_release, pump with work, blackout, set_fc, pair, destroy).
 *
 * Rate and DLLP/SKP accounting follow pcie-bench's pcie-model (model/pcie.py):
 * see pcie_cfg.h.
 */
#include "pcie/pcie_link.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FLY_RING_INIT 64u
#define FLY_BUF_INIT 16384u
#define Q_RING_INIT 16u
#define Q_BUF_INIT 1024u
#define CR_RING_INIT 8u
#define NO_STALL (-1)
#define NO_SEQ UINT64_MAX

/* Element ring (FIFO), capacity a power of two. */
struct ring {
    unsigned char *v;
    size_t esz, cap, head, count;
};

/* Byte ring (FIFO), capacity a power of two. */
struct bring {
    uint8_t *b;
    size_t cap, head, used;
};

/* A TLP serialized: in flight or arrived, not yet popped. */
struct fly_hdr {
    sim_ps_t arrival;
    uint64_t addr;
    uint16_t len;
    uint8_t type, kind, tag, last, ro, status, ep;
};

/* A TLP waiting in a transmit queue. */
struct q_ent {
    uint64_t seq; /* send order: smaller is older */
    sim_ps_t sent;
    uint64_t addr;
    uint16_t len, wire, dcr; /* payload, wire bytes, data credits */
    uint8_t type, kind, tag, last, ro, status, ep;
};

/* An UpdateFC on its way to this link's transmitter. */
struct cr_ent {
    sim_ps_t arrival;
    uint32_t hdr, data;
    unsigned cls;
};

struct txq {
    struct ring q;      /* struct q_ent */
    struct bring data;  /* their payloads */
    uint64_t st_seq;    /* head whose stall state is tracked (NO_SEQ: none) */
    int st_type;        /* its shortage: enum pcie_fc_type or NO_STALL */
    sim_ps_t st_since;  /* since when */
    sim_ps_t last_start; /* start of the last TLP of this class serialized */
};

struct pcie_link {
    struct pcie_link_head h; /* first: what the inline readers see (pcie_link.h) */
    struct pcie_cfg cfg;
    double gbps;         /* TLP-layer rate in use */
    double ps_per_byte;  /* serialization time of one wire byte */
    double raw_per_byte; /* 1 / (1 - overhead in use) */
    double ack_limit;    /* bytes of raw traffic per ACK DLLP */
    double fc_guide;     /* bytes of raw traffic per UpdateFC DLLP */
    int fc_explicit;     /* carries explicit UpdateFCs: no statistical FC share */
    sim_ps_t latency_ps;

    /* Serializer: free at free_ps + free_frac (0 <= frac < 1). */
    sim_ps_t free_ps;
    double free_frac;
    double busy_exact; /* sum of serialization times, ps */
    int ovh_stale;     /* stats' DLLP/SKP and busy figures not yet brought up
                        * to date (stats_sync) since a TLP or UpdateFC */

    /* Transmitter's credits (far-end receiver's advertisement). */
    struct pcie_fc_cfg fc;
    int fc_finite;
    uint32_t limit[PCIE_FC_TYPES]; /* 0 = infinite */
    uint64_t consumed[PCIE_FC_TYPES], returned[PCIE_FC_TYPES];
    struct ring cr;  /* struct cr_ent, arrival order */
    sim_ps_t t_elig; /* latest credit arrival processed */
    sim_ps_t bo_from, bo_until; /* credit blackout: no TLP starts in [from, until) */

    /* Far-end receiver: released credits waiting for an UpdateFC. */
    sim_ps_t upd_lat_ps;
    uint32_t rx_hdr[PCIE_FC_CLASSES], rx_data[PCIE_FC_CLASSES];
    sim_ps_t rx_sched[PCIE_FC_CLASSES]; /* UpdateFC queue time; NEVER: none */
    unsigned rx_nsched;

    struct pcie_link *pair;
    sim_ps_t t_call; /* latest time of a call on this link or its partner */

    struct txq txq[PCIE_FC_CLASSES];
    uint64_t seq_next;
    size_t q_count, q_bytes;

    struct ring fly;    /* struct fly_hdr */
    struct bring fbuf;  /* their payloads */
    struct tlp cur;     /* copy of the oldest TLP in flight */

    struct pcie_link_stats stats;
    struct obs *obs;    /* the tracer (pcie_link_set_obs), or NULL */
    unsigned obs_dir;
};

static const char *const kind_names[TLP_KIND_COUNT] = {
    [TLP_KIND_DOORBELL] = "doorbell",
    [TLP_KIND_MMIO_WR] = "mmio_wr",
    [TLP_KIND_BF_WR] = "bf_wr",
    [TLP_KIND_MMIO_RD] = "mmio_rd",
    [TLP_KIND_MMIO_CPL] = "mmio_cpl",
    [TLP_KIND_DESC_RD] = "desc_rd",
    [TLP_KIND_DESC_CPL] = "desc_cpl",
    [TLP_KIND_PAYLOAD_RD] = "payload_rd",
    [TLP_KIND_PAYLOAD_CPL] = "payload_cpl",
    [TLP_KIND_COMPLETION] = "completion",
    [TLP_KIND_IRQ] = "irq",
    [TLP_KIND_OTHER] = "other",
};

const char *tlp_kind_name(unsigned kind)
{
    if (kind >= TLP_KIND_COUNT || kind_names[kind] == NULL)
        return "invalid";
    return kind_names[kind];
}

/* ------------------------------------------------------------------ rings */

static int ring_init(struct ring *r, size_t esz, size_t cap)
{
    r->esz = esz;
    r->cap = cap;
    r->head = 0;
    r->count = 0;
    r->v = malloc(esz * cap);
    return r->v != NULL ? 0 : -1;
}

/* The i-th oldest element. */
static void *ring_at(const struct ring *r, size_t i)
{
    return r->v + ((r->head + i) & (r->cap - 1)) * r->esz;
}

/* ring_reserve's growth: n > r->cap. */
static int ring_grow(struct ring *r, size_t n)
{
    unsigned char *nv;
    size_t cap = r->cap, first;
    while (cap < n)
        cap *= 2;
    nv = malloc(cap * r->esz);
    if (nv == NULL)
        return -1;
    /* Linearize: oldest at index 0. */
    first = r->cap - r->head;
    if (first > r->count)
        first = r->count;
    memcpy(nv, r->v + r->head * r->esz, first * r->esz);
    memcpy(nv + first * r->esz, r->v, (r->count - first) * r->esz);
    free(r->v);
    r->v = nv;
    r->cap = cap;
    r->head = 0;
    return 0;
}

/* Capacity for n elements in all; 0 ok, -1 on allocation failure. */
static inline int ring_reserve(struct ring *r, size_t n)
{
    return n <= r->cap ? 0 : ring_grow(r, n);
}

/* Append (capacity reserved by the caller); returns the new slot. */
static void *ring_push(struct ring *r)
{
    void *p = ring_at(r, r->count);
    r->count++;
    return p;
}

static void ring_pop(struct ring *r)
{
    r->head = (r->head + 1) & (r->cap - 1);
    r->count--;
}

static int bring_init(struct bring *b, size_t cap)
{
    b->cap = cap;
    b->head = 0;
    b->used = 0;
    b->b = malloc(cap);
    return b->b != NULL ? 0 : -1;
}

/* Copy len bytes starting at the oldest one. */
static void bring_read(const struct bring *b, uint8_t *dst, size_t len)
{
    size_t first = b->cap - b->head;
    if (first > len)
        first = len;
    memcpy(dst, b->b + b->head, first);
    if (len > first) /* wrapped */
        memcpy(dst + first, b->b, len - first);
}

/* bring_reserve's growth: fewer than len bytes free. */
static int bring_grow(struct bring *b, size_t len)
{
    uint8_t *n;
    size_t cap = b->cap;
    while (cap - b->used < len)
        cap *= 2;
    n = malloc(cap);
    if (n == NULL)
        return -1;
    bring_read(b, n, b->used);
    free(b->b);
    b->b = n;
    b->cap = cap;
    b->head = 0;
    return 0;
}

/* Room for len more bytes; 0 ok, -1 on allocation failure. */
static inline int bring_reserve(struct bring *b, size_t len)
{
    return b->cap - b->used >= len ? 0 : bring_grow(b, len);
}

/* Append len bytes (room reserved by the caller). */
static void bring_write(struct bring *b, const uint8_t *src, size_t len)
{
    size_t off = (b->head + b->used) & (b->cap - 1);
    size_t first = b->cap - off;
    if (first > len)
        first = len;
    memcpy(b->b + off, src, first);
    if (len > first) /* wraps */
        memcpy(b->b, src + first, len - first);
    b->used += len;
}

static void bring_consume(struct bring *b, size_t len)
{
    b->head = (b->head + len) & (b->cap - 1);
    b->used -= len;
}

/* Move the oldest len bytes of src to the end of dst. */
static void bring_move(struct bring *dst, struct bring *src, size_t len)
{
    size_t first = src->cap - src->head;
    if (first > len)
        first = len;
    bring_write(dst, src->b + src->head, first);
    bring_write(dst, src->b, len - first);
    bring_consume(src, len);
}

/* ---------------------------------------------------------------- helpers */

static sim_ps_t ps_max(sim_ps_t a, sim_ps_t b)
{
    return a > b ? a : b;
}

static sim_ps_t ps_add_sat(sim_ps_t a, sim_ps_t b)
{
    return a > SIM_PS_NEVER - b ? SIM_PS_NEVER : a + b;
}

static size_t data_len(uint8_t type, uint16_t len)
{
    return type == TLP_MRD || type == TLP_CPL ? 0 : len;
}

/* DLLP/SKP charged against the raw bytes the serialized stream consumes
 * ((TLP + explicit UpdateFC bytes) / (1 - overhead)), as pcie-model does,
 * and the busy time rounded: figures of the totals alone, so brought up to
 * date only when read (pcie_link_stats) or before the rate changes. */
static void stats_sync(struct pcie_link *x)
{
    struct pcie_link_stats *st = &x->stats;
    double raw = (double)(st->tlp_bytes + st->updatefc_bytes) * x->raw_per_byte;
    uint64_t n = (uint64_t)floor(raw / x->ack_limit);
    if (!x->fc_explicit)
        n += (uint64_t)floor(raw / x->fc_guide);
    st->dllp_bytes = PCIE_DLLP_BYTES * n;
    st->skp_bytes = PCIE_SKP_BYTES * (uint64_t)floor(raw / PCIE_SKP_INTERVAL);
    st->busy_ps = (sim_ps_t)(x->busy_exact + 0.5);
    x->ovh_stale = 0;
}

/* Rate and overhead in use (see Rate in pcie_link.h). */
static void rate_update(struct pcie_link *x)
{
    if (x->ovh_stale)
        stats_sync(x); /* the figures so far, at the rate they had */
    x->fc_explicit = x->pair != NULL && x->pair->fc_finite;
    if (x->fc_explicit) {
        x->gbps = pcie_cfg_tlp_gbps_no_fc(&x->cfg);
        x->raw_per_byte = 1.0 / (1.0 - pcie_cfg_overhead_no_fc(&x->cfg));
    } else {
        x->gbps = pcie_cfg_tlp_gbps(&x->cfg);
        x->raw_per_byte = 1.0 / (1.0 - pcie_cfg_overhead(&x->cfg));
    }
    x->ps_per_byte = 8000.0 / x->gbps; /* 8 bits / (Gb/s) = ns; *1000 ps */
}

/* Serialize `bytes` starting at max(cand, free), keeping the end exactly.
 * Returns the end rounded up to a whole ps; *start gets the start (floor). */
static sim_ps_t ser_run(struct pcie_link *x, sim_ps_t cand, unsigned bytes, sim_ps_t *start)
{
    double ser = (double)bytes * x->ps_per_byte, start_frac, end, whole;
    sim_ps_t start_ps;
    if (cand > x->free_ps) {
        start_ps = cand;
        start_frac = 0.0;
    } else {
        start_ps = x->free_ps;
        start_frac = x->free_frac;
    }
    end = start_frac + ser;
    whole = floor(end);
    x->free_ps = start_ps + (sim_ps_t)whole;
    x->free_frac = end - whole;
    x->busy_exact += ser;
    x->ovh_stale = 1;
    *start = start_ps;
    return x->free_ps + (x->free_frac > 0.0 ? 1u : 0u);
}

/* First whole ps at which the serializer is free. */
static sim_ps_t ceil_free(const struct pcie_link *x)
{
    return x->free_ps + (x->free_frac > 0.0 ? 1u : 0u);
}

static int64_t credits_avail(const struct pcie_link *x, unsigned type)
{
    return (int64_t)x->limit[type] - (int64_t)(x->consumed[type] - x->returned[type]);
}

/* The credit type a TLP of class c needing dcr data credits is short of
 * (header first), or NO_STALL. */
static int credit_short(const struct pcie_link *x, unsigned c, unsigned dcr)
{
    unsigned ht = 2 * c, dt = 2 * c + 1;
    if (x->limit[ht] != 0 && credits_avail(x, ht) < 1)
        return (int)ht;
    if (x->limit[dt] != 0 && credits_avail(x, dt) < (int64_t)dcr)
        return (int)dt;
    return NO_STALL;
}

static const struct q_ent *q_head(const struct pcie_link *x, unsigned c)
{
    return x->txq[c].q.count ? ring_at(&x->txq[c].q, 0) : NULL;
}

/* Head of queue c may start now: credits and ordering. */
static int head_ok(const struct pcie_link *x, unsigned c)
{
    const struct q_ent *h = q_head(x, c), *p;
    if (h == NULL || credit_short(x, c, h->dcr) != NO_STALL)
        return 0;
    if (c != PCIE_FC_CLASS_P && !h->ro) {
        p = q_head(x, PCIE_FC_CLASS_P);
        if (p != NULL && p->seq < h->seq)
            return 0; /* never passes an older posted request */
    }
    return 1;
}

/* Earliest time a head could start, given it is eligible: it cannot start
 * before it was sent nor before the credits that made it eligible came. */
/* t, or the end of the credit blackout if t falls inside it. */
static sim_ps_t after_blackout(const struct pcie_link *x, sim_ps_t t)
{
    return t >= x->bo_from && t < x->bo_until ? x->bo_until : t;
}

static sim_ps_t ready_time(const struct pcie_link *x, const struct q_ent *h)
{
    return after_blackout(x, ps_max(h->sent, x->t_elig));
}

/* Earliest queue time of an UpdateFC waiting for x's serializer (for its
 * partner's receiver); class in *cls.  NEVER if none. */
static sim_ps_t dllp_next(const struct pcie_link *x, unsigned *cls)
{
    const struct pcie_link *o = x->pair;
    sim_ps_t best = SIM_PS_NEVER;
    *cls = 0;
    if (o == NULL || o->rx_nsched == 0)
        return SIM_PS_NEVER;
    for (unsigned c = 0; c < PCIE_FC_CLASSES; c++) {
        if (o->rx_sched[c] < best) {
            best = o->rx_sched[c];
            *cls = c;
        }
    }
    return best;
}

/* Unpaired x: earliest scheduled UpdateFC (credits return without carrier). */
static sim_ps_t rx_next(const struct pcie_link *x, unsigned *cls)
{
    sim_ps_t best = SIM_PS_NEVER;
    *cls = 0;
    for (unsigned c = 0; c < PCIE_FC_CLASSES; c++) {
        if (x->rx_sched[c] < best) {
            best = x->rx_sched[c];
            *cls = c;
        }
    }
    return best;
}

/* Next serializer decision of x with the current state; NEVER if none. */
static sim_ps_t decide_time(const struct pcie_link *x)
{
    unsigned dc;
    sim_ps_t r = dllp_next(x, &dc), cf;
    if (x->q_count != 0) {
        for (unsigned c = 0; c < PCIE_FC_CLASSES; c++) {
            if (head_ok(x, c)) {
                sim_ps_t rt = ready_time(x, q_head(x, c));
                if (rt < r)
                    r = rt;
            }
        }
    }
    if (r == SIM_PS_NEVER)
        return SIM_PS_NEVER;
    cf = ceil_free(x);
    return after_blackout(x, r > cf ? r : cf);
}

/* No UpdateFC can be queued for x's serializer at or before D: none is
 * scheduled by then, and none can be scheduled by a later release. */
static int dllp_free_until(const struct pcie_link *x, sim_ps_t D)
{
    unsigned dc;
    if (x->pair == NULL || !x->pair->fc_finite)
        return 1;
    if (dllp_next(x, &dc) <= D)
        return 0;
    return D < ps_add_sat(x->t_call, x->pair->upd_lat_ps);
}

/* ------------------------------------------------------------ accounting */

/* Re-evaluate the stall state of every queue head at time t. */
static void stall_eval(struct pcie_link *x, sim_ps_t t)
{
    for (unsigned c = 0; c < PCIE_FC_CLASSES; c++) {
        struct txq *q = &x->txq[c];
        const struct q_ent *h = q_head(x, c);
        uint64_t seq = h != NULL ? h->seq : NO_SEQ;
        int st = h != NULL ? credit_short(x, c, h->dcr) : NO_STALL;
        if (seq == q->st_seq && st == q->st_type)
            continue;
        if (q->st_type != NO_STALL && t > q->st_since) {
            x->stats.stall_ps[q->st_type] += t - q->st_since;
            x->stats.stalls[q->st_type]++;
            if (x->obs)
                obs_stall(x->obs, x->obs_dir, q->st_since, t, (unsigned)q->st_type);
        }
        /* A new head is at the head from when the TLP before it started
         * (which may be ahead of t: a TLP committed ahead of time); the
         * same head with another shortage from now on. */
        if (seq != q->st_seq)
            q->st_since = ps_max(t, q->last_start);
        else if (t > q->st_since)
            q->st_since = t;
        q->st_seq = seq;
        q->st_type = st;
    }
}

/* ------------------------------------------------------------ transitions */

static void materialize_head(struct pcie_link *x)
{
    const struct fly_hdr *h = ring_at(&x->fly, 0);
    x->cur.type = h->type;
    x->cur.kind = h->kind;
    x->cur.tag = h->tag;
    x->cur.last = h->last;
    x->cur.len = h->len;
    x->cur.addr = h->addr;
    x->cur.ro = h->ro;
    x->cur.status = h->status;
    x->cur.ep = h->ep;
    bring_read(&x->fbuf, x->cur.data, data_len(h->type, h->len));
    x->h.next_arrival = h->arrival;
    x->h.peek = &x->cur;
}

/*
 * Start TLP *e on the serializer at max(cand, free): consume its credits,
 * put it in flight with its data (from `data`, or moved out of `src`).
 * Capacity is reserved.  Returns the start (floor).
 */
static sim_ps_t tlp_start(struct pcie_link *x, const struct q_ent *e, sim_ps_t cand,
                          const uint8_t *data, struct bring *src)
{
    unsigned c = (unsigned)pcie_tlp_fc_class(e->type);
    size_t dlen = data_len(e->type, e->len);
    sim_ps_t start, end = ser_run(x, cand, e->wire, &start);
    struct fly_hdr *f = ring_push(&x->fly);

    f->arrival = end + x->latency_ps;
    f->addr = e->addr;
    f->len = e->len;
    f->type = e->type;
    f->kind = e->kind;
    f->tag = e->tag;
    f->last = e->last;
    f->ro = e->ro ? 1 : 0;
    f->status = e->status;
    f->ep = e->ep;
    if (data != NULL)
        bring_write(&x->fbuf, data, dlen);
    else
        bring_move(&x->fbuf, src, dlen);
    if (x->fly.count == 1)
        materialize_head(x);

    x->txq[c].last_start = start;
    x->consumed[2 * c] += 1;
    x->consumed[2 * c + 1] += e->dcr;
    x->stats.tlps[e->kind]++;
    x->stats.bytes[e->kind] += e->wire;
    x->stats.tlp_bytes += e->wire;
    if (start > e->sent)
        x->stats.queue_ps[e->kind] += start - e->sent;
    if (x->obs)
        obs_tlp(x->obs, x->obs_dir, start, end, e->kind, e->tag, e->addr, e->len, e->wire);
    return start;
}

/* Start the head of queue c. */
static void queued_start(struct pcie_link *x, unsigned c)
{
    struct txq *q = &x->txq[c];
    const struct q_ent *h = ring_at(&q->q, 0);
    size_t dlen = data_len(h->type, h->len);
    sim_ps_t start = tlp_start(x, h, ready_time(x, h), NULL, &q->data);
    ring_pop(&q->q);
    x->q_count--;
    x->q_bytes -= dlen;
    stall_eval(x, start);
}

/* Append an UpdateFC for o's transmitter, keeping arrivals in order. */
static void cr_push(struct pcie_link *o, unsigned c, sim_ps_t arrival)
{
    struct cr_ent *e;
    if (o->cr.count != 0) {
        const struct cr_ent *last = ring_at(&o->cr, o->cr.count - 1);
        arrival = ps_max(arrival, last->arrival);
    }
    e = ring_push(&o->cr);
    e->arrival = arrival;
    e->cls = c;
    e->hdr = o->rx_hdr[c];
    e->data = o->rx_data[c];
    o->rx_hdr[c] = 0;
    o->rx_data[c] = 0;
    o->rx_sched[c] = SIM_PS_NEVER;
    o->rx_nsched--;
}

/* x serializes the UpdateFC of class c for its partner, queued at q. */
static void dllp_start(struct pcie_link *x, unsigned c, sim_ps_t q)
{
    sim_ps_t start, end = ser_run(x, q, PCIE_DLLP_BYTES, &start);
    cr_push(x->pair, c, end + x->latency_ps);
    x->stats.updatefc_dllps++;
    x->stats.updatefc_bytes += PCIE_DLLP_BYTES;
}

/* The serializer of x decides at D (decide_time(x) == D). */
static void decide(struct pcie_link *x, sim_ps_t D)
{
    unsigned dc, best = PCIE_FC_CLASSES;
    uint64_t best_seq = NO_SEQ;
    sim_ps_t dq = dllp_next(x, &dc);
    if (dq <= D) {
        dllp_start(x, dc, dq);
        return;
    }
    for (unsigned c = 0; c < PCIE_FC_CLASSES; c++) {
        if (head_ok(x, c)) {
            const struct q_ent *h = q_head(x, c);
            if (ready_time(x, h) <= D && h->seq < best_seq) {
                best = c;
                best_seq = h->seq;
            }
        }
    }
    if (best < PCIE_FC_CLASSES)
        queued_start(x, best);
}

/* Credits of the oldest UpdateFC on its way to x arrive. */
static void cr_arrive(struct pcie_link *x)
{
    const struct cr_ent *e = ring_at(&x->cr, 0);
    sim_ps_t a = e->arrival;
    x->returned[2 * e->cls] += e->hdr;
    x->returned[2 * e->cls + 1] += e->data;
    ring_pop(&x->cr);
    x->t_elig = ps_max(x->t_elig, a);
    stall_eval(x, a);
}

/* Commit ahead of time the TLPs whose start nothing can change. */
static void eager(struct pcie_link *x)
{
    while (x->q_count != 0) {
        unsigned c, oldest = PCIE_FC_CLASSES;
        uint64_t seq = NO_SEQ;
        const struct q_ent *h;
        sim_ps_t D;
        for (c = 0; c < PCIE_FC_CLASSES; c++) {
            h = q_head(x, c);
            if (h != NULL && h->seq < seq) {
                seq = h->seq;
                oldest = c;
            }
        }
        h = q_head(x, oldest);
        if (credit_short(x, oldest, h->dcr) != NO_STALL)
            return;
        D = ps_max(ceil_free(x), ready_time(x, h));
        if (!dllp_free_until(x, D))
            return;
        queued_start(x, oldest);
    }
}

static int link_idle(const struct pcie_link *x)
{
    return x->q_count == 0 && x->cr.count == 0 && x->rx_nsched == 0;
}

/* Earliest internal event of x. */
static sim_ps_t internal_next(const struct pcie_link *x)
{
    sim_ps_t t, u;
    unsigned c;
    if (link_idle(x) && (x->pair == NULL || x->pair->rx_nsched == 0))
        return SIM_PS_NEVER; /* nothing queued, no UpdateFC on its way or due */
    t = decide_time(x);
    if (x->cr.count != 0 && (u = ((const struct cr_ent *)ring_at(&x->cr, 0))->arrival) < t)
        t = u;
    if (x->pair == NULL && x->rx_nsched != 0 && (u = rx_next(x, &c)) < t)
        t = u;
    return t;
}

/* The state of l (and of its partner) changed: recompute their next_int. */
static void refresh(struct pcie_link *l)
{
    l->h.next_int = internal_next(l);
    if (l->pair != NULL)
        l->pair->h.next_int = internal_next(l->pair);
}

enum { EV_CR, EV_DEPART, EV_DECIDE };

/* pump() with work to do: the events in time order, then what can be
 * committed ahead. */
static void pump_events(struct pcie_link *l, sim_ps_t T)
{
    struct pcie_link *g[2];
    int n = 1;
    g[0] = l;
    if (l->pair != NULL)
        g[n++] = l->pair;
    for (;;) {
        sim_ps_t best = SIM_PS_NEVER, t;
        struct pcie_link *bx = NULL;
        int kind = EV_CR;
        unsigned cls = 0, c;
        for (int i = 0; i < n; i++) {
            struct pcie_link *x = g[i];
            if (x->cr.count != 0 &&
                (t = ((const struct cr_ent *)ring_at(&x->cr, 0))->arrival) < best) {
                best = t;
                bx = x;
                kind = EV_CR;
            }
            if (x->pair == NULL && x->rx_nsched != 0 && (t = rx_next(x, &c)) < best) {
                best = t;
                bx = x;
                kind = EV_DEPART;
                cls = c;
            }
            if ((t = decide_time(x)) < best) {
                best = t;
                bx = x;
                kind = EV_DECIDE;
            }
        }
        if (bx == NULL || best > T)
            break;
        if (kind == EV_CR)
            cr_arrive(bx);
        else if (kind == EV_DEPART)
            cr_push(bx, cls, ps_add_sat(best, bx->latency_ps));
        else
            decide(bx, best);
    }
    for (int i = 0; i < n; i++)
        eager(g[i]);
    refresh(l);
}

/* Process the internal events of l and its partner up to T, then commit
 * what can be committed ahead (nothing to do for idle links: inline). */
static inline void pump(struct pcie_link *l, sim_ps_t T)
{
    struct pcie_link *o = l->pair;
    l->t_call = ps_max(l->t_call, T);
    if (o != NULL)
        o->t_call = ps_max(o->t_call, T);
    if (link_idle(l) && (o == NULL || link_idle(o)))
        return;
    pump_events(l, T);
}

/* ------------------------------------------------------------------- API */

struct pcie_link *pcie_link_create(const struct pcie_cfg *cfg)
{
    struct pcie_link *l;
    int bad = 0;
    if (cfg == NULL || pcie_cfg_validate(cfg, NULL, 0) != 0)
        return NULL;
    l = calloc(1, sizeof *l);
    if (l == NULL)
        return NULL;
    l->cfg = *cfg;
    l->ack_limit = (double)pcie_cfg_ack_limit(cfg);
    l->fc_guide = (double)pcie_cfg_fc_guide(cfg);
    l->latency_ps = sim_ns_to_ps(cfg->latency_ns);
    pcie_fc_cfg_infinite(&l->fc);
    rate_update(l);
    for (unsigned c = 0; c < PCIE_FC_CLASSES; c++) {
        l->rx_sched[c] = SIM_PS_NEVER;
        l->txq[c].st_seq = NO_SEQ;
        l->txq[c].st_type = NO_STALL;
        bad |= ring_init(&l->txq[c].q, sizeof(struct q_ent), Q_RING_INIT);
        bad |= bring_init(&l->txq[c].data, Q_BUF_INIT);
    }
    bad |= ring_init(&l->fly, sizeof(struct fly_hdr), FLY_RING_INIT);
    bad |= bring_init(&l->fbuf, FLY_BUF_INIT);
    bad |= ring_init(&l->cr, sizeof(struct cr_ent), CR_RING_INIT);
    if (bad) {
        pcie_link_destroy(l);
        return NULL;
    }
    l->h.next_int = SIM_PS_NEVER; /* empty */
    l->h.next_arrival = SIM_PS_NEVER;
    return l;
}

void pcie_link_destroy(struct pcie_link *l)
{
    if (l == NULL)
        return;
    if (l->pair != NULL) {
        struct pcie_link *o = l->pair;
        o->pair = NULL;
        o->h.pair = NULL;
        l->pair = NULL;
        rate_update(o);
        refresh(o);
    }
    for (unsigned c = 0; c < PCIE_FC_CLASSES; c++) {
        free(l->txq[c].q.v);
        free(l->txq[c].data.b);
    }
    free(l->fly.v);
    free(l->fbuf.b);
    free(l->cr.v);
    free(l);
}

int pcie_link_set_fc(struct pcie_link *l, const struct pcie_fc_cfg *fc)
{
    if (l == NULL || fc == NULL || l->seq_next != 0 ||
        pcie_fc_cfg_validate(fc, l->cfg.mps, NULL, 0) != 0)
        return -1;
    l->fc = *fc;
    for (unsigned k = 0; k < PCIE_FC_TYPES; k++)
        l->limit[k] = pcie_fc_cfg_limit(fc, k);
    l->fc_finite = pcie_fc_cfg_any_finite(fc);
    l->upd_lat_ps = sim_ns_to_ps(fc->update_latency_ns);
    if (l->pair != NULL)
        rate_update(l->pair);
    refresh(l);
    return 0;
}

const struct pcie_fc_cfg *pcie_link_fc(const struct pcie_link *l)
{
    return &l->fc;
}

int pcie_link_pair(struct pcie_link *a, struct pcie_link *b)
{
    if (a == NULL || b == NULL || a == b)
        return -1;
    if (a->pair == b && b->pair == a)
        return 0;
    if (a->pair != NULL || b->pair != NULL || a->seq_next != 0 || b->seq_next != 0)
        return -1;
    a->pair = b;
    b->pair = a;
    a->h.pair = &b->h;
    b->h.pair = &a->h;
    rate_update(a);
    rate_update(b);
    refresh(a);
    return 0;
}

int pcie_link_send(struct pcie_link *l, sim_ps_t now, const struct tlp *t)
{
    struct q_ent e;
    struct txq *q;
    unsigned wire, dcr;
    int cls;
    size_t dlen;

    if (l == NULL || t == NULL || t->kind >= TLP_KIND_COUNT || t->len > TLP_MAX_DATA ||
        (t->len == 0) != (t->type == TLP_CPL))
        return -1; /* a Cpl carries no data; every other TLP some */
    cls = pcie_tlp_fc_class(t->type);
    wire = pcie_tlp_wire_bytes(t->type, t->addr, t->len);
    if (cls < 0 || wire == 0)
        return -1; /* unknown type */
    dcr = pcie_tlp_data_credits(t->type, t->addr, t->len);
    if (l->limit[2 * cls + 1] != 0 && dcr > l->limit[2 * cls + 1])
        return -1; /* could never be sent */
    dlen = data_len(t->type, t->len);
    q = &l->txq[cls];
    /* Reserve everything first: queued TLPs keep room in flight too. */
    if (ring_reserve(&l->fly, l->fly.count + l->q_count + 1) != 0 ||
        bring_reserve(&l->fbuf, l->q_bytes + dlen) != 0 ||
        ring_reserve(&q->q, q->q.count + 1) != 0 || bring_reserve(&q->data, dlen) != 0)
        return -1;

    pump(l, now);

    e.seq = l->seq_next++;
    e.sent = now;
    e.addr = t->addr;
    e.len = t->len;
    e.wire = (uint16_t)wire;
    e.dcr = (uint16_t)dcr;
    e.type = t->type;
    e.kind = t->kind;
    e.tag = t->tag;
    e.last = t->last;
    e.ro = t->ro ? 1 : 0;
    e.status = t->status;
    e.ep = t->ep ? 1 : 0;

    /* Straight to the serializer when the queues would hand it over at
     * once: the old FIFO arithmetic, without a copy through a queue. */
    if (l->q_count == 0 && credit_short(l, (unsigned)cls, dcr) == NO_STALL &&
        after_blackout(l, now) == now) {
        unsigned dc;
        sim_ps_t cand = ps_max(now, l->t_elig), D = ps_max(ceil_free(l), cand);
        if (dllp_next(l, &dc) > D && (D <= now || dllp_free_until(l, D))) {
            tlp_start(l, &e, cand, t->data, NULL);
            refresh(l);
            return 0;
        }
    }
    *(struct q_ent *)ring_push(&q->q) = e;
    bring_write(&q->data, t->data, dlen);
    l->q_count++;
    l->q_bytes += dlen;
    stall_eval(l, now);
    pump(l, now);
    refresh(l);
    return 0;
}

int pcie_link_rx_release(struct pcie_link *l, sim_ps_t now, const struct tlp *t)
{
    int cls;
    uint32_t hdr, data;
    if (l == NULL || t == NULL || (cls = pcie_tlp_fc_class(t->type)) < 0)
        return -1;
    hdr = l->limit[2 * cls] != 0 ? 1u : 0u;
    data = l->limit[2 * cls + 1] != 0 ? pcie_tlp_data_credits(t->type, t->addr, t->len) : 0u;
    if (hdr == 0 && data == 0)
        return 0; /* nothing finite to return */
    /* Every scheduled UpdateFC ends up in l->cr: keep room for all. */
    if (ring_reserve(&l->cr, l->cr.count + l->rx_nsched + 1) != 0)
        return -1;
    pump(l, now);
    if (l->rx_sched[cls] == SIM_PS_NEVER) {
        l->rx_sched[cls] = ps_add_sat(now, l->upd_lat_ps);
        l->rx_nsched++;
    }
    l->rx_hdr[cls] += hdr;
    l->rx_data[cls] += data;
    pump(l, now);
    refresh(l);
    return 0;
}

sim_ps_t pcie_link_next_event(const struct pcie_link *l)
{
    sim_ps_t t = pcie_link_next_arrival(l), u = pcie_link_next_internal(l);
    return u < t ? u : t;
}

void pcie_link_advance(struct pcie_link *l, sim_ps_t now)
{
    pump(l, now);
}

void pcie_link_blackout(struct pcie_link *l, sim_ps_t from, sim_ps_t until)
{
    l->bo_from = from;
    l->bo_until = until > from ? until : from;
    refresh(l);
}

void pcie_link_pop(struct pcie_link *l)
{
    const struct fly_hdr *h;
    if (l->fly.count == 0)
        return;
    h = ring_at(&l->fly, 0);
    bring_consume(&l->fbuf, data_len(h->type, h->len));
    ring_pop(&l->fly);
    if (l->fly.count > 0) {
        materialize_head(l);
    } else {
        l->h.next_arrival = SIM_PS_NEVER;
        l->h.peek = NULL;
    }
}

size_t pcie_link_in_flight(const struct pcie_link *l)
{
    return l->fly.count + l->q_count;
}

size_t pcie_link_queued(const struct pcie_link *l)
{
    return l->q_count;
}

size_t pcie_link_queued_class(const struct pcie_link *l, unsigned cls)
{
    return cls < PCIE_FC_CLASSES ? l->txq[cls].q.count : 0;
}

uint32_t pcie_link_credits(const struct pcie_link *l, unsigned type)
{
    int64_t a;
    if (type >= PCIE_FC_TYPES || l->limit[type] == 0)
        return UINT32_MAX;
    a = credits_avail(l, type);
    return a < 0 ? 0u : (uint32_t)a;
}

void pcie_link_set_obs(struct pcie_link *l, struct obs *obs, unsigned dir)
{
    l->obs = obs;
    l->obs_dir = dir;
}

const struct pcie_link_stats *pcie_link_stats(struct pcie_link *l)
{
    if (l->ovh_stale)
        stats_sync(l);
    return &l->stats;
}

const struct pcie_cfg *pcie_link_cfg(const struct pcie_link *l)
{
    return &l->cfg;
}

double pcie_link_tlp_gbps(const struct pcie_link *l)
{
    return l->gbps;
}
