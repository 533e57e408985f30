/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scoreboard.c - the wire checker (see scoreboard.h for the contract).
 *
 * Hot path: sb_check_frame() regenerates the expected bytes of the frame in
 * 256 B chunks on the stack and compares each chunk with memcmp; a frame
 * equal to its packet then has its FCS computed in one crc32_update() (a
 * fold of 16 bytes a step where the CPU has carry-less multiplication).
 * Nothing is allocated.
 */
#include "check/scoreboard.h"
#include "check/lat_hist.h"
#include "check/sb_rate.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- pseudo-random numbers: splitmix64 ------------------------------- */

#define SB_GOLDEN 0x9e3779b97f4a7c15ull
#define SB_DOMAIN_LEN 0x6c656e677468ull      /* "length" */
#define SB_DOMAIN_PAYLOAD 0x7061796c6f6164ull /* "payload" */
#define SB_DOMAIN_QUEUE 0x7175657565ull        /* "queue" */

static inline uint64_t sb_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Independent 64-bit key for (seed, seq) in one use (domain). */
static inline uint64_t sb_key(uint64_t seed, uint64_t seq, uint64_t domain)
{
    return sb_mix64(sb_mix64(seed ^ sb_mix64(domain)) + seq * SB_GOLDEN);
}

/* Written out byte by byte (not as loops) so that gcc -O2 merges them into
 * one 8-byte access on little-endian hosts. */
static inline void sb_store_le64(uint8_t *p, uint64_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
    p[4] = (uint8_t)(v >> 32);
    p[5] = (uint8_t)(v >> 40);
    p[6] = (uint8_t)(v >> 48);
    p[7] = (uint8_t)(v >> 56);
}

static inline uint64_t sb_load_le64(const uint8_t *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
           (uint64_t)p[7] << 56;
}

/* ---- packet generation --------------------------------------------------- */

/* The seed of g's queue: queue 0's is the run's seed (single-queue runs
 * are unchanged), queue q's an independent one. */
static inline uint64_t sb_seed(const struct sb_gen_cfg *g, unsigned queue)
{
    return queue ? g->seed ^ sb_mix64(SB_DOMAIN_QUEUE + queue) : g->seed;
}

unsigned sb_pkt_len(const struct sb_gen_cfg *g, uint64_t seq)
{
    return sb_pkt_len_q(g, 0, seq);
}

unsigned sb_pkt_len_q(const struct sb_gen_cfg *g, unsigned queue, uint64_t seq)
{
    if (g->frame) {
        unsigned len;
        g->frame(g->frame_ctx, seq, &len);
        return len;
    }
    if (g->max_len <= g->min_len)
        return g->min_len;
    uint64_t span = (uint64_t)g->max_len - g->min_len + 1;
    /* multiply-shift: top 32 bits of the key scaled to [0, span) */
    uint64_t r = ((sb_key(sb_seed(g, queue), seq, SB_DOMAIN_LEN) >> 32) * span) >> 32;
    return g->min_len + (unsigned)r;
}

static void sb_fill_hdr(unsigned queue, uint64_t seq, uint8_t *h)
{
    static const uint8_t eth[14] = {
        0x02, 0x00, 0x00, 0x00, 0x00, 0x01, /* dst */
        0x02, 0x00, 0x00, 0x00, 0x00, 0x02, /* src */
        0x88, 0xb5,                         /* ethertype, local experimental */
    };
    memcpy(h, eth, sizeof eth);
    h[SB_QUEUE_OFF] = (uint8_t)queue;
    sb_store_le64(h + 14, seq);
}

/* Payload generator: word w (bytes 22+8w..) is sb_mix64(state + (w+1)*GOLDEN). */
struct sb_pgen {
    uint64_t s;
};

static inline void sb_pgen_init(struct sb_pgen *pg, const struct sb_gen_cfg *g, unsigned queue,
                                uint64_t seq)
{
    pg->s = sb_key(sb_seed(g, queue), seq, SB_DOMAIN_PAYLOAD);
}

/* Next n payload bytes to out (n rounded up to whole words: out must hold
 * n rounded up to 8, and n must be a multiple of 8 except at the end). */
static inline void sb_pgen_words(struct sb_pgen *pg, uint8_t *out, unsigned n)
{
    for (unsigned i = 0; i < n; i += 8) {
        pg->s += SB_GOLDEN;
        sb_store_le64(out + i, sb_mix64(pg->s));
    }
}

void sb_pkt_fill(const struct sb_gen_cfg *g, uint64_t seq, uint8_t *buf, unsigned len)
{
    sb_pkt_fill_q(g, 0, seq, buf, len);
}

void sb_pkt_fill_q(const struct sb_gen_cfg *g, unsigned queue, uint64_t seq, uint8_t *buf,
                   unsigned len)
{
    if (g->frame) {
        unsigned n;
        const uint8_t *f = g->frame(g->frame_ctx, seq, &n);
        memcpy(buf, f, len < n ? len : n);
        return;
    }
    if (len < SB_HDR_LEN)
        return;
    sb_fill_hdr(queue, seq, buf);
    struct sb_pgen pg;
    sb_pgen_init(&pg, g, queue, seq);
    unsigned n = len - SB_HDR_LEN, whole = n & ~7u;
    sb_pgen_words(&pg, buf + SB_HDR_LEN, whole);
    if (n > whole) {
        uint8_t w[8];
        sb_pgen_words(&pg, w, 8);
        memcpy(buf + SB_HDR_LEN + whole, w, n - whole);
    }
}

/* ---- the scoreboard ------------------------------------------------------ */

#define SB_CHUNK 256u /* expected bytes generated per step (multiple of 8) */
#define SB_MAX_OUTSTANDING (1u << 30)
struct sb_stamp {
    uint64_t seq;     /* packet this stamp belongs to; UINT64_MAX: none */
    sim_ps_t t;       /* its doorbell time */
    sim_ps_t t_fetch; /* its descriptor's fetch (SIM_PS_NEVER: not yet) */
};

/* A drop note: packet seq (UINT64_MAX: none) will not come, for reason. */
struct sb_drop {
    uint64_t seq;
    unsigned reason;
};

/* One queue's sequence: its stamps, drop notes, wire order and counters. */
struct sb_queue {
    unsigned id;            /* its number: its packets are (seed, id, seq) */
    uint64_t expected;      /* packets this queue sends */
    struct sb_stamp *ring;
    struct sb_drop *drop;   /* drop notes, same window as the stamps */
    uint64_t published;     /* packets seq < published have been stamped */
    uint64_t fetched;       /* ... and seq < fetched have a fetch stamp */
    uint64_t next;          /* next expected seq */
    uint64_t seen, checked, lost, corrupted, unpublished, stamp_overrun;
    uint64_t dropped[SB_MAX_REASONS];
    uint64_t frame_bytes;   /* checked frames, incl. FCS */
    uint64_t wire_bytes;    /* every frame of this queue, incl. FCS */
    uint64_t window_base;   /* wire_bytes before the contended window opened */
    uint64_t window_bytes;  /* of those, in the contended window */
};

struct scoreboard {
    struct sb_cfg cfg;
    unsigned nq;            /* queues */
    struct sb_queue *q;
    uint64_t ring_mask;     /* stamp ring entries - 1 (each queue's) */
    int finished;
    uint64_t after_end;     /* frames after sb_finish: not the run's */

    /* all frames: count, rate: start times and byte sums of the frames k0
     * may be (sb_rate.h), plus the latest frame */
    uint64_t seen;
    struct sb_rate rate;
    uint64_t bytes_all; /* frame bytes incl. FCS of all frames seen */
    uint64_t last_size;
    sim_ps_t t_last;        /* the latest frame's start */
    /* contended window: opened by the frame that makes every queue have
     * sent one, closed by the first frame that is the last of its queue */
    unsigned started;       /* queues that have sent a frame */
    int window_open, window_closed;
    sim_ps_t t_window_open, t_window;

    /* latency: doorbell to wire, and its two parts: doorbell to the
     * descriptor's fetch (queueing), fetch to wire (service) */
    struct lat_hist lat, lat_queue, lat_service;

    size_t n_mismatch;
    char mismatch[SB_MAX_MISMATCH][SB_MISMATCH_LEN];
};

static unsigned sb_cfg_queues(const struct sb_cfg *cfg)
{
    return cfg->queues ? cfg->queues : 1;
}

/* Queue q's stamps and notes, all empty: 0, or -1 if memory is short. */
static int sb_queue_init(struct scoreboard *sb, unsigned q, uint64_t ring_n)
{
    struct sb_queue *x = &sb->q[q];

    x->id = q;
    x->expected = sb_queue_expected(&sb->cfg, q);
    x->ring = malloc(ring_n * sizeof *x->ring);
    x->drop = malloc(ring_n * sizeof *x->drop);
    if (!x->ring || !x->drop)
        return -1;
    for (uint64_t i = 0; i < ring_n; i++) {
        x->ring[i].seq = UINT64_MAX;
        x->ring[i].t = 0;
        x->ring[i].t_fetch = SIM_PS_NEVER;
        x->drop[i].seq = UINT64_MAX;
        x->drop[i].reason = 0;
    }
    return 0;
}

uint64_t sb_queue_expected(const struct sb_cfg *cfg, unsigned q)
{
    unsigned n = sb_cfg_queues(cfg);

    return cfg->expected / n + (q < cfg->expected % n ? 1 : 0);
}

struct scoreboard *sb_create(const struct sb_cfg *cfg)
{
    if (!cfg || cfg->gen.min_len < SB_MIN_LEN || cfg->gen.max_len > SB_MAX_LEN ||
        cfg->gen.min_len > cfg->gen.max_len || cfg->max_outstanding == 0 ||
        cfg->max_outstanding > SB_MAX_OUTSTANDING || cfg->expected > SB_MAX_EXPECTED ||
        sb_cfg_queues(cfg) > SB_MAX_QUEUES)
        return NULL;

    uint64_t ring_n = 1;
    while (ring_n < cfg->max_outstanding)
        ring_n <<= 1;

    struct scoreboard *sb = calloc(1, sizeof *sb);
    if (!sb)
        return NULL;
    sb->cfg = *cfg;
    sb->nq = sb_cfg_queues(cfg);
    sb->q = calloc(sb->nq, sizeof *sb->q);
    int rate_rc = sb_rate_init(&sb->rate, cfg->expected);
    int lat_rc = lat_hist_init(&sb->lat) | lat_hist_init(&sb->lat_queue) |
                 lat_hist_init(&sb->lat_service);
    if (!sb->q || rate_rc != 0 || lat_rc != 0) {
        sb_destroy(sb);
        return NULL;
    }
    for (unsigned q = 0; q < sb->nq; q++)
        if (sb_queue_init(sb, q, ring_n) != 0) {
            sb_destroy(sb);
            return NULL;
        }
    sb->ring_mask = ring_n - 1;
    return sb;
}

void sb_destroy(struct scoreboard *sb)
{
    if (!sb)
        return;
    for (unsigned q = 0; sb->q && q < sb->nq; q++) {
        free(sb->q[q].ring);
        free(sb->q[q].drop);
    }
    free(sb->q);
    sb_rate_free(&sb->rate);
    lat_hist_free(&sb->lat);
    lat_hist_free(&sb->lat_queue);
    lat_hist_free(&sb->lat_service);
    free(sb);
}

int sb_note_dropped(struct scoreboard *sb, uint64_t seq, unsigned reason)
{
    return sb_note_dropped_q(sb, 0, seq, reason);
}

int sb_note_dropped_q(struct scoreboard *sb, unsigned q, uint64_t seq, unsigned reason)
{
    if (q >= sb->nq)
        return -1;
    struct sb_queue *x = &sb->q[q];

    if (reason >= SB_MAX_REASONS || seq < x->next || seq >= x->expected ||
        seq - x->next >= sb->cfg.max_outstanding)
        return -1;
    x->drop[seq & sb->ring_mask].seq = seq;
    x->drop[seq & sb->ring_mask].reason = reason;
    return 0;
}

/* Packets [x->next, end) of queue x will not come: each counts as dropped
 * if noted, else lost.  Notes exist only within the ring's window from next. */
static void sb_skip_to(struct scoreboard *sb, struct sb_queue *x, uint64_t end)
{
    uint64_t win = x->next + sb->ring_mask + 1, s;

    for (s = x->next; s < end && s < win; s++) {
        struct sb_drop *d = &x->drop[s & sb->ring_mask];
        if (d->seq == s) {
            x->dropped[d->reason]++;
            d->seq = UINT64_MAX;
        } else {
            x->lost++;
        }
    }
    if (end > s)
        x->lost += end - s;
    if (end > x->next)
        x->next = end;
}

int sb_note_dropped_final_q(struct scoreboard *sb, unsigned q, uint64_t seq, unsigned reason)
{
    if (sb_note_dropped_q(sb, q, seq, reason) != 0)
        return -1;
    struct sb_queue *x = &sb->q[q];
    /* Nothing before seq can still come unannounced: the notes at the
     * head of the queue's sequence count now, and the window moves on. */
    while (x->next <= seq && x->drop[x->next & sb->ring_mask].seq == x->next)
        sb_skip_to(sb, x, x->next + 1);
    return 0;
}

void sb_note_published_q(struct scoreboard *sb, unsigned q, uint64_t count, sim_ps_t t)
{
    if (q >= sb->nq || count <= sb->q[q].published)
        return;
    struct sb_queue *x = &sb->q[q];
    uint64_t ring_n = sb->ring_mask + 1;
    /* only the last ring_n stamps can survive in the ring */
    uint64_t s = count - x->published > ring_n ? count - ring_n : x->published;
    for (; s < count; s++) {
        struct sb_stamp *e = &x->ring[s & sb->ring_mask];
        e->seq = s;
        e->t = t;
        e->t_fetch = SIM_PS_NEVER;
    }
    x->published = count;
}

void sb_note_fetched_q(struct scoreboard *sb, unsigned q, uint64_t count, sim_ps_t t)
{
    if (q >= sb->nq)
        return;
    struct sb_queue *x = &sb->q[q];
    if (count > x->published)
        count = x->published;
    if (count <= x->fetched)
        return;
    uint64_t ring_n = sb->ring_mask + 1;
    uint64_t s = count - x->fetched > ring_n ? count - ring_n : x->fetched;
    for (; s < count; s++) {
        struct sb_stamp *e = &x->ring[s & sb->ring_mask];
        if (e->seq == s && e->t_fetch == SIM_PS_NEVER)
            e->t_fetch = t;
    }
    x->fetched = count;
}

void sb_note_published(struct scoreboard *sb, uint64_t count, sim_ps_t t)
{
    sb_note_published_q(sb, 0, count, t);
}

static void sb_note_mismatch(struct scoreboard *sb, const char *fmt, ...)
{
    if (sb->n_mismatch >= SB_MAX_MISMATCH)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sb->mismatch[sb->n_mismatch], SB_MISMATCH_LEN, fmt, ap);
    va_end(ap);
    sb->n_mismatch++;
}

#define SB_QTAG_LEN 24u
/* "queue Q: " before a mismatch of a run with several queues, else "";
 * written to buf (SB_QTAG_LEN bytes). */
static const char *sb_qtag(const struct scoreboard *sb, const struct sb_queue *x, char *buf)
{
    buf[0] = '\0';
    if (sb->nq > 1)
        snprintf(buf, SB_QTAG_LEN, "queue %u: ", x->id);
    return buf;
}

static inline unsigned sb_first_diff(const uint8_t *a, const uint8_t *b, unsigned n)
{
    unsigned i = 0;
    while (i < n && a[i] == b[i])
        i++;
    return i;
}

/* Byte `off` of packet seq, for diagnostics. */
static uint8_t sb_expected_byte(const struct sb_gen_cfg *g, unsigned queue, uint64_t seq,
                                unsigned off)
{
    if (g->frame) {
        unsigned n;
        const uint8_t *f = g->frame(g->frame_ctx, seq, &n);
        return off < n ? f[off] : 0;
    }
    if (off < SB_HDR_LEN) {
        uint8_t h[SB_HDR_LEN];
        sb_fill_hdr(queue, seq, h);
        return h[off];
    }
    uint64_t w = (off - SB_HDR_LEN) / 8;
    uint64_t v = sb_mix64(sb_key(sb_seed(g, queue), seq, SB_DOMAIN_PAYLOAD) + (w + 1) * SB_GOLDEN);
    return (uint8_t)(v >> (8 * ((off - SB_HDR_LEN) % 8)));
}

/* Compare frame[0..n) with packet seq's first n bytes (n >= SB_HDR_LEN).
 * Returns the offset of the first differing byte, or n if all are equal, in
 * which case *crc is the CRC register (not yet inverted) over frame[0..n). */
static unsigned sb_compare(const struct sb_gen_cfg *g, unsigned queue, uint64_t seq,
                           const uint8_t *frame, unsigned n, uint32_t *crc)
{
    uint8_t exp[SB_CHUNK];
    uint32_t c = 0xffffffffu;

    if (g->frame) { /* a frame of the source, as it is */
        unsigned len;
        const uint8_t *f = g->frame(g->frame_ctx, seq, &len);
        unsigned k = sb_first_diff(f, frame, n < len ? n : len);
        if (k < n)
            return k;
        *crc = crc32_update(c, frame, n);
        return n;
    }
    sb_fill_hdr(queue, seq, exp);
    if (memcmp(exp, frame, SB_HDR_LEN) != 0)
        return sb_first_diff(exp, frame, SB_HDR_LEN);

    struct sb_pgen pg;
    sb_pgen_init(&pg, g, queue, seq);
    for (unsigned off = SB_HDR_LEN; off < n; off += SB_CHUNK) {
        unsigned m = n - off < SB_CHUNK ? n - off : SB_CHUNK;
        sb_pgen_words(&pg, exp, m);
        if (memcmp(exp, frame + off, m) != 0)
            return off + sb_first_diff(exp, frame + off, m);
    }
    *crc = crc32_update(c, frame, n); /* whole: the folding's set-up once */
    return n;
}

/* The queue a frame belongs to: its source MAC's byte SB_QUEUE_OFF; a
 * number beyond the run's queues is checked as queue 0's (and so fails
 * there at that offset). */
static struct sb_queue *sb_queue_of(struct scoreboard *sb, const uint8_t *frame)
{
    unsigned q = frame[SB_QUEUE_OFF];

    return &sb->q[q < sb->nq ? q : 0];
}

/* The contended window is [t_open, t_close): it opens with the frame
 * (starting at t) that makes every queue have sent one, before its bytes
 * count, and each queue's bytes from there on are the window's. */
static void sb_window_open(struct scoreboard *sb, sim_ps_t t)
{
    if (++sb->started != sb->nq)
        return;
    sb->window_open = 1;
    sb->t_window_open = t;
    for (unsigned q = 0; q < sb->nq; q++)
        sb->q[q].window_base = sb->q[q].wire_bytes;
}

/* The first frame that is the last of its queue (x, seq, starting at t)
 * closes the window; its own bytes are outside. */
static void sb_window_note(struct scoreboard *sb, const struct sb_queue *x, uint64_t seq,
                           sim_ps_t t)
{
    if (!sb->window_open || sb->window_closed || seq + 1 != x->expected)
        return;
    sb->window_closed = 1;
    sb->t_window = t;
    for (unsigned q = 0; q < sb->nq; q++)
        sb->q[q].window_bytes = sb->q[q].wire_bytes - sb->q[q].window_base -
                                (&sb->q[q] == x ? sb->last_size : 0);
}

/* A frame's latency from its stamp e, starting on the wire at t; split
 * at its descriptor's fetch when the fetch was seen (each part at least 0:
 * a fetch stamp before the doorbell is a read that raced it). */
static void sb_lat_record(struct scoreboard *sb, const struct sb_stamp *e, sim_ps_t t)
{
    lat_hist_add(&sb->lat, t > e->t ? t - e->t : 0);
    if (e->t_fetch == SIM_PS_NEVER)
        return;
    sim_ps_t f = e->t_fetch < e->t ? e->t : e->t_fetch > t ? t : e->t_fetch;
    lat_hist_add(&sb->lat_queue, f - e->t);
    lat_hist_add(&sb->lat_service, t > f ? t - f : 0);
}

/* Doorbell-to-wire latency of queue x's packet seq, from its stamp. */
static void sb_latency(struct scoreboard *sb, struct sb_queue *x, uint64_t seq, sim_ps_t t)
{
    if (seq >= x->published) {
        x->unpublished++;
        return;
    }
    const struct sb_stamp *e = &x->ring[seq & sb->ring_mask];
    if (e->seq != seq)
        x->stamp_overrun++;
    else
        sb_lat_record(sb, e, t);
}

/* Length, bytes and FCS of queue x's packet seq. */
static void sb_contents(struct scoreboard *sb, struct sb_queue *x, uint64_t seq,
                        const uint8_t *frame, unsigned len, uint32_t fcs)
{
    char tag[SB_QTAG_LEN];
    const struct sb_gen_cfg *g = &sb->cfg.gen;
    unsigned exp_len = sb_pkt_len_q(g, x->id, seq);
    unsigned n = len < exp_len ? len : exp_len;
    uint32_t c = 0;
    unsigned off = sb_compare(g, x->id, seq, frame, n, &c);
    if (len != exp_len) {
        x->corrupted++;
        sb_note_mismatch(sb, "%sseq %llu: offset %u: length %u, expected %u", sb_qtag(sb, x, tag),
                         (unsigned long long)seq, off, len, exp_len);
    } else if (off < n) {
        x->corrupted++;
        sb_note_mismatch(sb, "%sseq %llu: offset %u: byte 0x%02x, expected 0x%02x",
                         sb_qtag(sb, x, tag), (unsigned long long)seq, off, frame[off],
                         sb_expected_byte(g, x->id, seq, off));
    } else if (fcs != ~c) {
        x->corrupted++;
        sb_note_mismatch(sb, "%sseq %llu: offset %u: FCS 0x%08x, expected 0x%08x",
                         sb_qtag(sb, x, tag), (unsigned long long)seq, len, fcs, ~c);
    } else {
        x->checked++;
        x->frame_bytes += (uint64_t)len + SB_FCS_LEN;
    }
}

/* A source's frame carries no seq: the next expected one if it is that,
 * else the first of the next SB_SOURCE_LOOKAHEAD it equals, else the next
 * (and so corrupted). */
static uint64_t sb_source_seq(const struct scoreboard *sb, const struct sb_queue *x,
                              const uint8_t *frame, unsigned len)
{
    const struct sb_gen_cfg *g = &sb->cfg.gen;

    for (uint64_t s = x->next; s < x->next + SB_SOURCE_LOOKAHEAD && s < x->expected; s++) {
        unsigned n;
        const uint8_t *f = g->frame(g->frame_ctx, s, &n);
        if (n == len && memcmp(f, frame, n) == 0)
            return s;
    }
    return x->next;
}

void sb_check_frame(struct scoreboard *sb, const uint8_t *frame, unsigned len, uint32_t fcs,
                    sim_ps_t t_start)
{
    if (sb->finished) { /* the run has ended: not one of its frames */
        sb->after_end++;
        return;
    }
    uint64_t k = sb->seen++;
    sb_rate_note(&sb->rate, k, t_start, sb->bytes_all);
    sb->last_size = (uint64_t)len + SB_FCS_LEN;
    sb->bytes_all += sb->last_size;
    sb->t_last = t_start;

    if (len < SB_HDR_LEN) {
        sb->q[0].corrupted++;
        sb_note_mismatch(sb, "frame #%llu: offset %u: too short (%u B) to hold a seq",
                         (unsigned long long)k, len, len);
        return;
    }
    struct sb_queue *x = sb->cfg.gen.frame ? &sb->q[0] : sb_queue_of(sb, frame);
    if (x->seen++ == 0)
        sb_window_open(sb, t_start);
    x->wire_bytes += sb->last_size;
    uint64_t seq = sb->cfg.gen.frame ? sb_source_seq(sb, x, frame, len)
                                     : sb_load_le64(frame + 14);
    char tag[SB_QTAG_LEN];
    if (seq < x->next || seq >= x->expected) {
        x->corrupted++;
        sb_note_mismatch(sb, "%sseq %llu: offset 14: unexpected seq (next %llu, run of %llu)",
                         sb_qtag(sb, x, tag), (unsigned long long)seq, (unsigned long long)x->next,
                         (unsigned long long)x->expected);
        return;
    }
    sb_skip_to(sb, x, seq);
    if (x->drop[seq & sb->ring_mask].seq == seq) /* it came after all */
        x->drop[seq & sb->ring_mask].seq = UINT64_MAX;
    x->next = seq + 1;
    sb_window_note(sb, x, seq, t_start);
    sb_latency(sb, x, seq, t_start);
    sb_contents(sb, x, seq, frame, len, fcs);
}

void sb_finish(struct scoreboard *sb)
{
    if (sb->finished)
        return;
    sb->finished = 1;
    for (unsigned q = 0; q < sb->nq; q++)
        sb_skip_to(sb, &sb->q[q], sb->q[q].expected);
}

/* The counters of every queue, summed. */
static void sb_result_counts(const struct scoreboard *sb, struct sb_result *out)
{
    for (unsigned q = 0; q < sb->nq; q++) {
        const struct sb_queue *x = &sb->q[q];
        out->checked += x->checked;
        out->lost += x->lost;
        for (unsigned r = 0; r < SB_MAX_REASONS; r++) {
            out->dropped[r] += x->dropped[r];
            out->dropped_total += x->dropped[r];
        }
        out->corrupted += x->corrupted;
        out->unpublished += x->unpublished;
        out->stamp_overrun += x->stamp_overrun;
        out->frame_bytes += x->frame_bytes;
    }
}

void sb_result(const struct scoreboard *sb, struct sb_result *out)
{
    memset(out, 0, sizeof *out);
    out->sent_expected = sb->cfg.expected;
    out->seen = sb->seen;
    out->after_end = sb->after_end;
    sb_result_counts(sb, out);
    out->wire_bytes = sb->bytes_all;

    out->mpps = out->gbps = NAN;
    uint64_t n = sb->seen;
    if (n >= 2) {
        uint64_t k1 = n - 1;
        uint64_t k0 = n >= 20 ? n / 10 : 0;
        struct sb_rate_entry e0;
        k0 = sb_rate_at(&sb->rate, k0, &e0);
        sim_ps_t t0 = e0.t, t1 = sb->t_last;
        if (t1 > t0) {
            double dt_ps = (double)(t1 - t0);
            uint64_t bytes = (sb->bytes_all - sb->last_size) - e0.sum;
            out->mpps = (double)(k1 - k0) * (double)SIM_PS_PER_US / dt_ps;
            out->gbps = 8.0 * (double)bytes * (double)SIM_PS_PER_NS / dt_ps;
        }
    }

    out->lat_samples = sb->lat.count;
    out->lat_unrecorded = sb->lat.unrecorded;
    out->lat_p50_ns = lat_hist_quantile(&sb->lat, 50, 100);
    out->lat_p99_ns = lat_hist_quantile(&sb->lat, 99, 100);
    out->lat_max_ns = lat_hist_max_ns(&sb->lat);
    out->lat_split_samples = sb->lat_queue.count;
    out->lat_queue_p50_ns = lat_hist_quantile(&sb->lat_queue, 50, 100);
    out->lat_queue_p99_ns = lat_hist_quantile(&sb->lat_queue, 99, 100);
    out->lat_service_p50_ns = lat_hist_quantile(&sb->lat_service, 50, 100);
    out->lat_service_p99_ns = lat_hist_quantile(&sb->lat_service, 99, 100);
}

unsigned sb_queues(const struct scoreboard *sb)
{
    return sb->nq;
}

int sb_queue_result(const struct scoreboard *sb, unsigned q, struct sb_queue_result *out)
{
    memset(out, 0, sizeof *out);
    if (q >= sb->nq)
        return -1;
    const struct sb_queue *x = &sb->q[q];
    out->expected = x->expected;
    out->seen = x->seen;
    out->checked = x->checked;
    out->lost = x->lost;
    for (unsigned r = 0; r < SB_MAX_REASONS; r++)
        out->dropped += x->dropped[r];
    out->corrupted = x->corrupted;
    out->wire_bytes = x->wire_bytes;
    out->window_bytes = !sb->window_open  ? 0
                        : sb->window_closed ? x->window_bytes
                                            : x->wire_bytes - x->window_base;
    double ns = sb_window_ns(sb);
    out->gbps = ns > 0 ? 8.0 * (double)out->window_bytes / ns : NAN;
    return 0;
}

double sb_window_ns(const struct scoreboard *sb)
{
    sim_ps_t end = sb->window_closed ? sb->t_window : sb->t_last;

    if (!sb->window_open)
        return NAN;
    return (double)(end - sb->t_window_open) / (double)SIM_PS_PER_NS;
}

size_t sb_mismatch_count(const struct scoreboard *sb)
{
    return sb->n_mismatch;
}

const char *sb_mismatch(const struct scoreboard *sb, size_t i)
{
    return i < sb->n_mismatch ? sb->mismatch[i] : NULL;
}
