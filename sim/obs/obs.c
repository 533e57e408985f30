/* SPDX-License-Identifier: Apache-2.0 */
/* obs.c - the tracer: its ring, window and outputs (obs.h). */
#include "obs/obs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "obs/obs_pcap.h"
#include "obs/obs_timeline.h"

static const char *const op_names[OBS_OPS] = {
    [OBS_OP_DMA_WMB] = "dma_wmb", [OBS_OP_WMB] = "wmb",
    [OBS_OP_SMP_MB] = "smp_mb",   [OBS_OP_SMP_WMB] = "smp_wmb",
    [OBS_OP_SMP_RMB] = "smp_rmb", [OBS_OP_XMIT] = "xmit",
    [OBS_OP_CLEAN_POLL] = "clean", [OBS_OP_CLEAN_DESC] = "reclaim",
    [OBS_OP_QDISC] = "qdisc",     [OBS_OP_MMIO_READ] = "mmio read",
    [OBS_OP_LOCK] = "spin_lock",  [OBS_OP_UNLOCK] = "spin_unlock",
};

const char *obs_op_name(unsigned op)
{
    return op < OBS_OPS ? op_names[op] : "?";
}

/* A time bound is resolved from the start; a packet bound when it passes. */
static sim_ps_t bound_time(const struct obs_point *p, sim_ps_t open)
{
    if (!p->set)
        return open;
    return p->pkt ? SIM_PS_NEVER : p->v;
}

struct obs *obs_create(const struct obs_cfg *cfg, unsigned ring_log2, char *err, size_t n)
{
    struct obs *o = calloc(1, sizeof(*o));

    if (!o || !(o->ring = malloc(sizeof(*o->ring) << ring_log2))) {
        snprintf(err, n, "out of memory for the tracer");
        free(o);
        return NULL;
    }
    o->mask = (1ull << ring_log2) - 1;
    o->flush_at = UINT64_MAX;
    o->from_cfg = cfg->from;
    o->to_cfg = cfg->to;
    o->win.from = bound_time(&cfg->from, 0);
    o->win.to = bound_time(&cfg->to, SIM_PS_NEVER);
    if (cfg->timeline[0]) {
        char why[512];
        if (!(o->tl = obs_tl_open(cfg->timeline, why, sizeof(why)))) {
            snprintf(err, n, "--timeline %s: %s", cfg->timeline, why);
            obs_destroy(o);
            return NULL;
        }
        o->flush_at = o->mask + 1;
    }
    if (cfg->pcap_out[0]) {
        char why[512];
        if (!(o->pcap = obs_pcap_open(cfg->pcap_out, why, sizeof(why)))) {
            snprintf(err, n, "--pcap-out %s: %s", cfg->pcap_out, why);
            obs_destroy(o);
            return NULL;
        }
    }
    return o;
}

struct obs_run_info *obs_info(struct obs *o)
{
    return &o->info;
}

/*
 * The timeline takes what it has not taken.  While the window has not
 * opened (a packet bound not reached yet) it takes nothing: the older
 * half of the ring is let go and the newer half kept, so the events just
 * before the bound are still there when it passes.
 */
void obs_flush(struct obs *o)
{
    uint64_t size = o->mask + 1;

    if (!o->tl) {
        o->flush_at = UINT64_MAX;
        return;
    }
    if (o->win.from == SIM_PS_NEVER) {
        if (o->n - o->done >= size)
            o->done = o->n - size / 2;
    } else {
        obs_tl_take(o->tl, o, o->done, o->n, &o->win);
        o->done = o->n;
    }
    o->flush_at = o->done + size;
}

/* The next event's slot, its time, kind and track set. */
static inline struct obs_ev *obs_push(struct obs *o, unsigned kind, unsigned track, sim_ps_t t)
{
    struct obs_ev *e;

    if (__builtin_expect(o->n == o->flush_at, 0))
        obs_flush(o);
    e = &o->ring[o->n++ & o->mask];
    e->t = t;
    e->kind = (uint8_t)kind;
    e->track = (uint8_t)track;
    return e;
}

void obs_cpu(struct obs *o, unsigned cpu, unsigned cause, sim_ps_t t0, sim_ps_t t1)
{
    struct obs_ev *e = obs_push(o, OBS_CPU, cpu, t0);
    e->a = t1;
    e->x = (uint16_t)cause;
}

void obs_op(struct obs *o, unsigned cpu, enum obs_op op, sim_ps_t t0, sim_ps_t t1,
            unsigned n)
{
    struct obs_ev *e = obs_push(o, OBS_OP, cpu, t0);
    e->a = t1;
    e->x = (uint16_t)op;
    e->c = n;
}

void obs_visible(struct obs *o, unsigned cpu, uint64_t addr, sim_ps_t issued,
                 sim_ps_t vis)
{
    struct obs_ev *e = obs_push(o, OBS_VISIBLE, cpu, vis);
    e->a = issued;
    e->b = addr;
}

void obs_mmio(struct obs *o, unsigned cpu, sim_ps_t t, unsigned kind, uint32_t off,
              uint64_t val, unsigned queue)
{
    struct obs_ev *e = obs_push(o, OBS_MMIO, cpu, t);
    e->x = (uint16_t)kind;
    e->b = off;
    e->a = val;
    e->c = queue;
}

void obs_publish(struct obs *o, unsigned cpu, sim_ps_t t, unsigned queue,
                 uint64_t count)
{
    struct obs_ev *e = obs_push(o, OBS_PUBLISH, cpu, t);
    e->x = (uint16_t)queue;
    e->b = count;
}

void obs_tlp(struct obs *o, unsigned dir, sim_ps_t t0, sim_ps_t t1, unsigned kind,
             unsigned tag, uint64_t addr, unsigned len, unsigned wire)
{
    struct obs_ev *e = obs_push(o, OBS_TLP, dir, t0);
    e->a = t1;
    e->b = addr;
    e->x = (uint16_t)(kind | tag << 8);
    e->c = len | wire << 16;
}

void obs_stall(struct obs *o, unsigned dir, sim_ps_t t0, sim_ps_t t1,
               unsigned fc_type)
{
    struct obs_ev *e = obs_push(o, OBS_STALL, dir, t0);
    e->a = t1;
    e->x = (uint16_t)fc_type;
}

void obs_dev_tlp(struct obs *o, sim_ps_t t, unsigned kind, unsigned tag,
                 uint64_t addr, unsigned len, int mrd)
{
    struct obs_ev *e = obs_push(o, OBS_DEV_TLP, 0, t);
    o->tags += mrd ? 1 : 0;
    e->x = (uint16_t)(kind | tag << 8);
    e->b = addr;
    e->c = len;
    e->a = o->tags;
}

void obs_dev_cpl(struct obs *o, sim_ps_t t, unsigned tag, int err)
{
    struct obs_ev *e = obs_push(o, OBS_DEV_CPL, 0, t);
    o->tags -= o->tags ? 1 : 0;
    e->x = (uint16_t)tag;
    e->c = (uint32_t)err;
    e->a = o->tags;
}

void obs_unmap(struct obs *o, unsigned cpu, sim_ps_t t, uint64_t bus)
{
    struct obs_ev *e = obs_push(o, OBS_UNMAP, cpu, t);
    e->a = bus;
}

void obs_resume(struct obs *o, unsigned cpu, sim_ps_t t)
{
    obs_push(o, OBS_RESUME, cpu, t);
}

void obs_queue(struct obs *o, unsigned cpu, sim_ps_t t, unsigned queue, unsigned in_use,
               uint64_t bql_limit)
{
    struct obs_ev *e = obs_push(o, OBS_QUEUE, cpu, t);
    e->x = (uint16_t)queue;
    e->c = in_use;
    e->a = bql_limit;
}

void obs_post(struct obs *o, unsigned cpu, sim_ps_t t, unsigned queue, uint64_t seq,
              uint64_t frame_bus, unsigned slot, unsigned in_use)
{
    struct obs_ev *e = obs_push(o, OBS_POST, cpu, t);

    e->x = (uint16_t)queue;
    e->b = seq;
    e->a = frame_bus;
    e->c = (slot & 0xffffu) | (in_use > 0xffffu ? 0xffffu : in_use) << 16;
    if (o->from_cfg.pkt && o->posted == o->from_cfg.v && o->win.from == SIM_PS_NEVER)
        o->win.from = t;
    o->posted++;
}

void obs_frame(struct obs *o, sim_ps_t t0, sim_ps_t t1, unsigned queue, uint64_t seq,
               const uint8_t *frame, unsigned len)
{
    struct obs_ev *e = obs_push(o, OBS_FRAME, 0, t0);

    e->a = t1;
    e->b = seq;
    e->x = (uint16_t)queue;
    e->c = len;
    if (o->to_cfg.pkt && o->frames == o->to_cfg.v && o->win.to == SIM_PS_NEVER)
        o->win.to = t1;
    o->frames++;
    if (o->pcap)
        obs_pcap_write(o->pcap, t0, frame, len);
}

void obs_violation(struct obs *o, sim_ps_t t, unsigned queue, const char *kind,
                   const char *detail)
{
    struct obs_ev *e = obs_push(o, OBS_VIOL, 0, t);

    e->x = (uint16_t)queue;
    e->a = (uintptr_t)kind;
    e->b = (uintptr_t)detail;
}

void obs_note(struct obs *o, sim_ps_t t, const char *why)
{
    struct obs_ev *e = obs_push(o, OBS_NOTE, 0, t);

    e->a = (uintptr_t)why;
}

int obs_close(struct obs *o, char *err, size_t n)
{
    int rc = 0;

    if (o->tl) {
        if (o->win.from != SIM_PS_NEVER)
            obs_tl_take(o->tl, o, o->done, o->n, &o->win);
        o->done = o->n;
        rc |= obs_tl_close(o->tl, err, n);
        o->tl = NULL;
    }
    if (o->pcap) {
        char why[512];
        if (obs_pcap_close(o->pcap, why, sizeof(why)) != 0 && rc == 0) {
            snprintf(err, n, "%s", why);
            rc = -1;
        }
        o->pcap = NULL;
    }
    o->flush_at = UINT64_MAX;
    return rc ? -1 : 0;
}

void obs_destroy(struct obs *o)
{
    if (!o)
        return;
    obs_tl_abort(o->tl);
    obs_pcap_abort(o->pcap);
    free(o->ring);
    free(o);
}

/* ------------------------------------------------------------ window bounds */

static const struct {
    const char *unit;
    double ps;
} units[] = {{"ps", 1}, {"ns", 1e3}, {"us", 1e6}, {"ms", 1e9}, {"s", 1e12}};

int obs_point_parse(const char *s, struct obs_point *p, char *why, size_t n)
{
    const char *u = s;
    char *end;
    double v;

    while ((*u >= '0' && *u <= '9') || *u == '.')
        u++;
    if (u == s || (s[0] == '0' && s[1] >= '0' && s[1] <= '9')) {
        snprintf(why, n, "expected a packet number (100) or a time (12.5us, 800ns, 2ms)");
        return -1;
    }
    if (!*u) { /* a packet number: digits only */
        if (strchr(s, '.') || strlen(s) > 15) {
            snprintf(why, n, "a packet number is a decimal integer below 10^15");
            return -1;
        }
        p->v = strtoull(s, NULL, 10);
        p->set = 1;
        p->pkt = 1;
        return 0;
    }
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (strcmp(u, units[i].unit) != 0)
            continue;
        v = strtod(s, &end);
        if (end != u || !isfinite(v) || v * units[i].ps >= 1.8e19) {
            snprintf(why, n, "not a time: expected a number then ps, ns, us, ms or s");
            return -1;
        }
        p->v = (uint64_t)llround(v * units[i].ps);
        p->set = 1;
        p->pkt = 0;
        return 0;
    }
    snprintf(why, n, "unknown unit '%s': expected ps, ns, us, ms or s (or no unit: a packet "
             "number)", u);
    return -1;
}

void obs_point_format(const struct obs_point *p, char *buf, size_t n)
{
    if (!p->set)
        snprintf(buf, n, "open");
    else if (p->pkt)
        snprintf(buf, n, "%llu", (unsigned long long)p->v);
    else if (p->v % 1000000 == 0)
        snprintf(buf, n, "%lluus", (unsigned long long)(p->v / 1000000));
    else if (p->v % 1000 == 0)
        snprintf(buf, n, "%lluns", (unsigned long long)(p->v / 1000));
    else
        snprintf(buf, n, "%llups", (unsigned long long)p->v);
}
