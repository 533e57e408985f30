/* SPDX-License-Identifier: Apache-2.0 */
/* obs_timeline.c - the tracer's events as Chrome trace-event JSON (obs_timeline.h). */
#include "obs/obs_timeline.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "obs/obs_file.h"

enum { PID_HOST = 1, PID_PCIE = 2, PID_ENGINE = 3, PID_CHECKS = 4 };
#define TL_TRACKS 512
#define TL_LANES 32
#define TL_QUEUES 64
#define TL_HASH_MAX (1u << 20)

/* A packet's way along its flow arrow. */
enum flow_stage { FL_NONE, FL_POSTED, FL_PUBLISHED, FL_FETCHED, FL_PAYLOAD };

struct flow {
    uint64_t seq;
    uint8_t stage;
};

/* A device read in flight: from its MRd to its last completion. */
struct rd {
    sim_ps_t t0;
    uint64_t addr, seq;
    unsigned len, q;
    uint8_t kind, open, has_seq;
};

/* Frame address -> (queue, seq) of the packet posted with it. */
struct hent {
    uint64_t addr, seq;
    unsigned q;
};

struct obs_timeline {
    struct obs_file of;
    FILE *f;
    uint64_t count;
    unsigned ntracks;
    struct {
        char name[40];
        uint8_t pid;
    } track[TL_TRACKS];
    struct rd rd[256];
    sim_ps_t lane_end[2][TL_QUEUES][TL_LANES]; /* desc, payload fetch */
    uint64_t *slot_seq[TL_QUEUES];             /* seq + 1 posted in each slot (0: none) */
    struct flow *flows[TL_QUEUES];             /* by seq mod fmask + 1 */
    uint64_t fmask;
    uint64_t pub[TL_QUEUES];                   /* packets published so far */
    unsigned in_use[TL_QUEUES];
    uint8_t in_use_known[TL_QUEUES];
    struct hent *hash;
    uint64_t hmask;
    unsigned last_pay_q;
    int setup;
};

/* ------------------------------------------------------------ output */

/* ps as microseconds with six decimals, exactly. */
static void put_us(FILE *f, const char *key, sim_ps_t ps)
{
    fprintf(f, ",\"%s\":%" PRIu64 ".%06" PRIu64, key, ps / 1000000u, ps % 1000000u);
}

static void put_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

/* The track's thread id, named on first use. */
static unsigned tid_of(struct obs_timeline *w, unsigned pid, const char *name)
{
    for (unsigned i = 0; i < w->ntracks; i++)
        if (w->track[i].pid == pid && strcmp(w->track[i].name, name) == 0)
            return i + 1;
    if (w->ntracks == TL_TRACKS)
        return TL_TRACKS; /* the last one takes the rest */
    unsigned tid = ++w->ntracks;
    snprintf(w->track[tid - 1].name, sizeof(w->track[0].name), "%s", name);
    w->track[tid - 1].pid = (uint8_t)pid;
    fprintf(w->f, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,"
            "\"args\":{\"name\":", pid, tid);
    put_str(w->f, name);
    fprintf(w->f, "}},\n{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%u,\"tid\":%u,"
            "\"args\":{\"sort_index\":%u}}", pid, tid, tid);
    return tid;
}

/* The start of an event: ph, name, pid, tid, ts (args and the rest follow). */
static void ev_begin(struct obs_timeline *w, char ph, const char *name, unsigned pid,
                     unsigned tid, sim_ps_t ts)
{
    fprintf(w->f, ",\n{\"ph\":\"%c\",\"cat\":\"nictx\",\"name\":", ph);
    put_str(w->f, name);
    fprintf(w->f, ",\"pid\":%u,\"tid\":%u", pid, tid);
    put_us(w->f, "ts", ts);
    w->count++;
}

static void slice(struct obs_timeline *w, const char *name, unsigned pid, unsigned tid,
                  sim_ps_t t0, sim_ps_t t1)
{
    ev_begin(w, 'X', name, pid, tid, t0);
    put_us(w->f, "dur", t1 > t0 ? t1 - t0 : 0);
}

static void instant(struct obs_timeline *w, const char *name, unsigned pid, unsigned tid,
                    sim_ps_t t, char scope)
{
    ev_begin(w, 'i', name, pid, tid, t);
    fprintf(w->f, ",\"s\":\"%c\"", scope);
}

static void counter(struct obs_timeline *w, const char *name, const char *series, unsigned pid,
                    sim_ps_t t, uint64_t v)
{
    ev_begin(w, 'C', name, pid, 0, t);
    fprintf(w->f, ",\"args\":{\"%s\":%" PRIu64 "}}", series, v);
}

static void flow(struct obs_timeline *w, char ph, unsigned q, uint64_t seq, unsigned pid,
                 unsigned tid, sim_ps_t t)
{
    ev_begin(w, ph, "packet", pid, tid, t);
    fprintf(w->f, ",\"id\":%" PRIu64 "%s}", ((uint64_t)q << 40 | seq) + 1,
            ph == 'f' ? ",\"bp\":\"e\"" : "");
}

/* ------------------------------------------------------------ state */

static int in_win(const struct obs_window *win, sim_ps_t t)
{
    return t >= win->from && t < win->to;
}

static struct flow *flow_at(struct obs_timeline *w, unsigned q, uint64_t seq)
{
    if (q >= TL_QUEUES || !w->flows[q])
        return NULL;
    struct flow *fl = &w->flows[q][seq & w->fmask];
    return fl->seq == seq ? fl : NULL;
}

static void hash_put(struct obs_timeline *w, uint64_t addr, unsigned q, uint64_t seq)
{
    uint64_t h = (addr * 0x9e3779b97f4a7c15ull) >> 20;

    for (unsigned k = 0; k < 16; k++) {
        struct hent *e = &w->hash[(h + k) & w->hmask];
        if (e->addr == addr || e->addr == 0 || k == 15) {
            e->addr = addr;
            e->q = q;
            e->seq = seq;
            return;
        }
    }
}

static const struct hent *hash_get(const struct obs_timeline *w, uint64_t addr)
{
    uint64_t h = (addr * 0x9e3779b97f4a7c15ull) >> 20;

    for (unsigned k = 0; k < 16; k++) {
        const struct hent *e = &w->hash[(h + k) & w->hmask];
        if (e->addr == addr)
            return e;
        if (e->addr == 0)
            return NULL;
    }
    return NULL;
}

/* Tables sized by the run (its queues and rings), once. */
static int tl_setup(struct obs_timeline *w, const struct obs_run_info *in)
{
    unsigned nq = in->nqueues ? in->nqueues : 1;
    uint64_t hs = 64;

    if (w->setup)
        return 0;
    w->setup = 1;
    w->fmask = 1;
    while (w->fmask < 4ull * (in->ring_size ? in->ring_size : 1))
        w->fmask <<= 1;
    w->fmask--;
    for (unsigned q = 0; q < nq && q < TL_QUEUES; q++) {
        w->slot_seq[q] = calloc(in->ring_size ? in->ring_size : 1, sizeof(uint64_t));
        w->flows[q] = calloc(w->fmask + 1, sizeof(struct flow));
        if (!w->slot_seq[q] || !w->flows[q])
            return -1;
        for (uint64_t i = 0; i <= w->fmask; i++)
            w->flows[q][i].seq = UINT64_MAX;
    }
    while (hs < 4ull * nq * (in->ring_size + 64u) && hs < TL_HASH_MAX)
        hs <<= 1;
    w->hash = calloc(hs, sizeof(*w->hash));
    w->hmask = hs - 1;
    return w->hash ? 0 : -1;
}

/* The queue and slot of a descriptor address; -1 if in no ring. */
static int ring_slot(const struct obs_run_info *in, uint64_t addr, unsigned *q, unsigned *slot)
{
    uint64_t bytes = (uint64_t)in->ring_size * in->desc_bytes;

    for (unsigned i = 0; i < in->nqueues && i < TL_QUEUES; i++)
        if (addr >= in->ring_base[i] && addr < in->ring_base[i] + bytes) {
            *q = i;
            *slot = (unsigned)((addr - in->ring_base[i]) / in->desc_bytes);
            return 0;
        }
    return -1;
}

/* The engine's track name: "[qN ]what[ #lane]". */
static unsigned engine_tid(struct obs_timeline *w, const struct obs_run_info *in, unsigned q,
                           const char *what, int lane)
{
    char name[40];
    char qs[8] = "";

    if (in->nqueues > 1)
        snprintf(qs, sizeof(qs), "q%u ", q);
    if (lane >= 0)
        snprintf(name, sizeof(name), "%s%s #%d", qs, what, lane);
    else
        snprintf(name, sizeof(name), "%s%s", qs, what);
    return tid_of(w, PID_ENGINE, name);
}

static int lane_take(struct obs_timeline *w, unsigned which, unsigned q, sim_ps_t t0, sim_ps_t t1)
{
    sim_ps_t *ends = w->lane_end[which][q < TL_QUEUES ? q : 0];
    int k;

    for (k = 0; k < TL_LANES - 1 && ends[k] > t0; k++)
        ;
    ends[k] = t1;
    return k;
}

static const char *cpu_track(char *buf, size_t n, unsigned cpu)
{
    snprintf(buf, n, "cpu%u", cpu);
    return buf;
}

/* ------------------------------------------------------------ events */

static void ev_cpu(struct obs_timeline *w, const struct obs_run_info *in, const struct obs_ev *e,
                   const struct obs_window *win)
{
    char name[64], tn[16];
    unsigned tid = tid_of(w, PID_HOST, cpu_track(tn, sizeof(tn), e->track));

    switch (e->kind) {
    case OBS_CPU:
        if (e->x == in->idle_cause || !in_win(win, e->t))
            return;
        slice(w, in->cause_name ? in->cause_name(e->x) : "cpu", PID_HOST, tid, e->t, e->a);
        fputc('}', w->f);
        return;
    case OBS_OP:
        if (!in_win(win, e->t))
            return;
        slice(w, obs_op_name(e->x), PID_HOST, tid, e->t, e->a);
        if (e->c > 1)
            fprintf(w->f, ",\"args\":{\"n\":%u}", e->c);
        fputc('}', w->f);
        return;
    case OBS_VISIBLE:
        if (!in_win(win, e->t))
            return;
        instant(w, "store visible", PID_HOST, tid, e->t, 't');
        fprintf(w->f, ",\"args\":{\"addr\":\"0x%" PRIx64 "\",\"after_ns\":%.3f}}", e->b,
                (double)(e->t - e->a) / 1e3);
        return;
    case OBS_MMIO:
        if (!in_win(win, e->t))
            return;
        if (e->x == in->kind_doorbell)
            snprintf(name, sizeof(name), "doorbell q%u", e->c);
        else
            snprintf(name, sizeof(name), "mmio write");
        instant(w, name, PID_HOST, tid, e->t, 't');
        fprintf(w->f, ",\"args\":{\"offset\":\"0x%" PRIx64 "\",\"value\":%" PRIu64 "}}", e->b,
                e->a);
        return;
    case OBS_RESUME:
        if (in_win(win, e->t)) {
            instant(w, "resume", PID_HOST, tid, e->t, 't');
            fputc('}', w->f);
        }
        return;
    default:
        return;
    }
}

static void ring_counter(struct obs_timeline *w, unsigned q, sim_ps_t t,
                         const struct obs_window *win)
{
    char name[32];

    if (q >= TL_QUEUES || !w->in_use_known[q] || !in_win(win, t))
        return;
    snprintf(name, sizeof(name), "ring q%u", q);
    counter(w, name, "in use", PID_HOST, t, w->in_use[q]);
}

static void ev_packet(struct obs_timeline *w, const struct obs_run_info *in,
                      const struct obs_ev *e, const struct obs_window *win)
{
    unsigned q = e->x < TL_QUEUES ? e->x : 0;
    char tn[16];

    switch (e->kind) {
    case OBS_POST: {
        unsigned slot = e->c & 0xffffu;
        if (w->slot_seq[q] && slot < in->ring_size)
            w->slot_seq[q][slot] = e->b + 1;
        if (w->flows[q]) {
            struct flow *fl = &w->flows[q][e->b & w->fmask];
            fl->seq = e->b;
            fl->stage = FL_POSTED;
        }
        hash_put(w, e->a, q, e->b);
        w->in_use[q] = (e->c >> 16) + 1;
        w->in_use_known[q] = 1;
        ring_counter(w, q, e->t, win);
        return;
    }
    case OBS_PUBLISH: {
        uint64_t from = w->pub[q], to = e->b;
        unsigned tid = tid_of(w, PID_HOST, cpu_track(tn, sizeof(tn), e->track));
        if (to <= from)
            return;
        w->pub[q] = to;
        if (!in_win(win, e->t))
            return;
        if (to - from > w->fmask)
            from = to - w->fmask;
        char name[48];
        snprintf(name, sizeof(name), "publish q%u", q);
        slice(w, name, PID_HOST, tid, e->t, e->t);
        fprintf(w->f, ",\"args\":{\"first\":%" PRIu64 ",\"packets\":%" PRIu64 "}}", from,
                to - from);
        for (uint64_t s = from; s < to; s++) {
            struct flow *fl = flow_at(w, q, s);
            if (fl && fl->stage == FL_POSTED) {
                flow(w, 's', q, s, PID_HOST, tid, e->t);
                fl->stage = FL_PUBLISHED;
            }
        }
        return;
    }
    case OBS_UNMAP: {
        const struct hent *h = hash_get(w, e->a);
        unsigned uq = h ? h->q : 0;
        if ((h || in->nqueues <= 1) && uq < TL_QUEUES && w->in_use_known[uq] &&
            w->in_use[uq] > 0) {
            w->in_use[uq]--;
            ring_counter(w, uq, e->t, win);
        }
        return;
    }
    case OBS_QUEUE:
        w->in_use[q] = e->c;
        w->in_use_known[q] = 1;
        ring_counter(w, q, e->t, win);
        if (e->a != UINT64_MAX && in_win(win, e->t)) {
            char name[32];
            snprintf(name, sizeof(name), "bql limit q%u", q);
            counter(w, name, "bytes", PID_HOST, e->t, e->a);
        }
        return;
    default:
        return;
    }
}

static void ev_link(struct obs_timeline *w, const struct obs_run_info *in, const struct obs_ev *e,
                    const struct obs_window *win)
{
    const char *dir = e->track ? "d2h" : "h2d";
    char name[40];

    if (!in_win(win, e->t))
        return;
    if (e->kind == OBS_STALL) {
        snprintf(name, sizeof(name), "%s credit stalls", dir);
        slice(w, "credit stall", PID_PCIE, tid_of(w, PID_PCIE, name), e->t, e->a);
        fprintf(w->f, ",\"args\":{\"type\":\"%s\"}}",
                in->fc_name ? in->fc_name(e->x) : "?");
        return;
    }
    unsigned kind = e->x & 0xffu, tag = e->x >> 8;
    /* The serializer's end is rounded up to the ps, the next start down:
     * a ps off the end keeps back-to-back TLPs from overlapping. */
    slice(w, in->tlp_kind_name ? in->tlp_kind_name(kind) : "tlp", PID_PCIE,
          tid_of(w, PID_PCIE, dir), e->t, e->a > e->t + 1 ? e->a - 1 : e->a);
    fprintf(w->f, ",\"args\":{\"bytes\":%u,\"wire_bytes\":%u,\"tag\":%u,\"addr\":\"0x%" PRIx64
            "\"}}", e->c & 0xffffu, e->c >> 16, tag, e->b);
}

/* A read leaves the device: its queue and packet, if known. */
static void dev_read(struct obs_timeline *w, const struct obs_run_info *in, const struct obs_ev *e)
{
    unsigned kind = e->x & 0xffu, tag = e->x >> 8, q = 0, slot;
    struct rd *r = &w->rd[tag];

    memset(r, 0, sizeof(*r));
    r->t0 = e->t;
    r->addr = e->b;
    r->len = e->c;
    r->kind = (uint8_t)kind;
    r->open = 1;
    if (kind == in->kind_desc_rd) {
        if (ring_slot(in, e->b, &q, &slot) == 0)
            r->q = q;
    } else {
        const struct hent *h = hash_get(w, e->b);
        if (h) {
            r->q = h->q;
            r->seq = h->seq;
            r->has_seq = 1;
            w->last_pay_q = h->q;
        } else {
            r->q = w->last_pay_q; /* a later piece of a frame split at MRRS */
        }
    }
}

/* A read's last completion: its slice, on a lane, and the packets' flows. */
static void dev_read_done(struct obs_timeline *w, const struct obs_run_info *in,
                          const struct obs_ev *e, const struct obs_window *win)
{
    struct rd *r = &w->rd[e->x & 0xffu];
    int desc = r->kind == in->kind_desc_rd;
    unsigned q = r->q < TL_QUEUES ? r->q : 0, tid;
    int lane;

    if (!r->open)
        return;
    r->open = 0;
    if (!in_win(win, r->t0))
        return;
    lane = lane_take(w, desc ? 0 : 1, q, r->t0, e->t);
    tid = engine_tid(w, in, q, desc ? "desc fetch" : "payload fetch", lane);
    slice(w, desc ? "desc fetch" : "payload fetch", PID_ENGINE, tid, r->t0, e->t);
    fprintf(w->f, ",\"args\":{\"tag\":%u,\"bytes\":%u,\"addr\":\"0x%" PRIx64 "\"%s}}",
            e->x & 0xffu, r->len, r->addr, e->c ? ",\"error\":1" : "");
    if (desc) {
        unsigned slot;
        unsigned rq;
        if (ring_slot(in, r->addr, &rq, &slot) != 0 || !w->slot_seq[rq])
            return;
        for (unsigned k = 0; k < r->len / in->desc_bytes; k++) {
            uint64_t s1 = w->slot_seq[rq][(slot + k) % in->ring_size];
            struct flow *fl = s1 ? flow_at(w, rq, s1 - 1) : NULL;
            if (fl && fl->stage == FL_PUBLISHED) {
                flow(w, 't', rq, s1 - 1, PID_ENGINE, tid, r->t0);
                fl->stage = FL_FETCHED;
            }
        }
    } else if (r->has_seq) {
        struct flow *fl = flow_at(w, q, r->seq);
        if (fl && fl->stage == FL_FETCHED) {
            flow(w, 't', q, r->seq, PID_ENGINE, tid, r->t0);
            fl->stage = FL_PAYLOAD;
        }
    }
}

static void ev_device(struct obs_timeline *w, const struct obs_run_info *in,
                      const struct obs_ev *e, const struct obs_window *win)
{
    unsigned kind = e->x & 0xffu;

    switch (e->kind) {
    case OBS_DEV_TLP:
        if (kind == in->kind_desc_rd || kind == in->kind_payload_rd) {
            dev_read(w, in, e);
            if (in_win(win, e->t))
                counter(w, "tags in use", "tags", PID_ENGINE, e->t, e->a);
        } else if ((kind == in->kind_completion || kind == in->kind_irq) && in_win(win, e->t)) {
            int irq = kind == in->kind_irq;
            unsigned q = in->write_queue ? in->write_queue(in->ctx, e->b, irq) : 0;
            instant(w, irq ? "interrupt" : "completion", PID_ENGINE,
                    engine_tid(w, in, q, irq ? "interrupts" : "completions", -1), e->t, 't');
            fprintf(w->f, ",\"args\":{\"addr\":\"0x%" PRIx64 "\",\"bytes\":%u}}", e->b, e->c);
        }
        return;
    case OBS_DEV_CPL:
        dev_read_done(w, in, e, win);
        if (in_win(win, e->t))
            counter(w, "tags in use", "tags", PID_ENGINE, e->t, e->a);
        return;
    case OBS_FRAME: {
        unsigned q = e->x < TL_QUEUES ? e->x : 0;
        if (!in_win(win, e->t))
            return;
        unsigned tid = engine_tid(w, in, q, "wire", -1);
        slice(w, "frame", PID_ENGINE, tid, e->t, e->a);
        fprintf(w->f, ",\"args\":{\"seq\":%" PRIu64 ",\"bytes\":%u}}", e->b, e->c);
        struct flow *fl = flow_at(w, q, e->b);
        if (fl && fl->stage >= FL_PUBLISHED) {
            flow(w, 'f', q, e->b, PID_ENGINE, tid, e->t);
            fl->stage = FL_NONE;
        }
        return;
    }
    default:
        return;
    }
}

static void ev_check(struct obs_timeline *w, const struct obs_ev *e, const struct obs_window *win)
{
    char name[96];

    if (!in_win(win, e->t) && !(e->kind == OBS_NOTE && e->t == win->to))
        return;
    if (e->kind == OBS_VIOL) {
        snprintf(name, sizeof(name), "violation: %s", (const char *)(uintptr_t)e->a);
        instant(w, name, PID_CHECKS, tid_of(w, PID_CHECKS, "violations"), e->t, 'g');
        fprintf(w->f, ",\"args\":{\"queue\":%u,\"detail\":", e->x);
        put_str(w->f, e->b ? (const char *)(uintptr_t)e->b : "");
        fprintf(w->f, "}}");
    } else {
        instant(w, "run stopped", PID_CHECKS, tid_of(w, PID_CHECKS, "run"), e->t, 'g');
        fprintf(w->f, ",\"args\":{\"why\":");
        put_str(w->f, (const char *)(uintptr_t)e->a);
        fprintf(w->f, "}}");
    }
}

/* ------------------------------------------------------------ API */

struct obs_timeline *obs_tl_open(const char *path, char *err, size_t n)
{
    static const char *const procs[] = {"", "host", "pcie", "engine", "checks"};
    struct obs_timeline *w = calloc(1, sizeof(*w));

    if (!w) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    if (obs_file_begin(&w->of, path, 1, err, n) != 0) {
        free(w);
        return NULL;
    }
    w->f = w->of.f;
    fprintf(w->f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"nictx\","
            "\"time\":\"simulated\"},\n\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"process_name\","
            "\"pid\":0,\"args\":{\"name\":\"nictx\"}}");
    for (unsigned p = PID_HOST; p <= PID_CHECKS; p++)
        fprintf(w->f, ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"args\":{\"name\":"
                "\"%s\"}},\n{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%u,"
                "\"args\":{\"sort_index\":%u}}", p, procs[p], p, p);
    return w;
}

void obs_tl_take(struct obs_timeline *w, const struct obs *o, uint64_t first, uint64_t end,
                 const struct obs_window *win)
{
    const struct obs_run_info *in = &o->info;

    if (tl_setup(w, in) != 0)
        return; /* out of memory: the flows and counters are left out */
    for (uint64_t i = first; i < end; i++) {
        const struct obs_ev *e = obs_at(o, i);
        switch (e->kind) {
        case OBS_CPU:
        case OBS_OP:
        case OBS_VISIBLE:
        case OBS_MMIO:
        case OBS_RESUME: ev_cpu(w, in, e, win); break;
        case OBS_POST:
        case OBS_PUBLISH:
        case OBS_UNMAP:
        case OBS_QUEUE: ev_packet(w, in, e, win); break;
        case OBS_TLP:
        case OBS_STALL: ev_link(w, in, e, win); break;
        case OBS_DEV_TLP:
        case OBS_DEV_CPL:
        case OBS_FRAME: ev_device(w, in, e, win); break;
        case OBS_VIOL:
        case OBS_NOTE: ev_check(w, e, win); break;
        default: break;
        }
    }
}

uint64_t obs_tl_count(const struct obs_timeline *w)
{
    return w->count;
}

static void tl_free(struct obs_timeline *w)
{
    for (unsigned q = 0; q < TL_QUEUES; q++) {
        free(w->slot_seq[q]);
        free(w->flows[q]);
    }
    free(w->hash);
    free(w);
}

int obs_tl_close(struct obs_timeline *w, char *err, size_t n)
{
    int rc;

    fprintf(w->f, "\n]}\n");
    rc = obs_file_commit(&w->of, err, n);
    tl_free(w);
    return rc;
}

void obs_tl_abort(struct obs_timeline *w)
{
    if (!w)
        return;
    obs_file_abort(&w->of);
    tl_free(w);
}
