/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dev_lockstep.c - the Verilated RTL and the C model side by side behind
 * struct device_ops (--device lockstep; docs/c-model.md).  Both get the same
 * inputs on every clock; the RTL's outputs drive the run; every output of
 * the two is compared on every clock, the fields of beats not offered and
 * the lanes of a beat's unused bytes included (the C model is cycle-exact
 * at the ports).  The first difference is kept as the device's fault
 * (device_ops.fault): the harness ends the run with it, naming the clock
 * and both sides' outputs.  After it the C model is no longer stepped.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"

#define LS_RUN_MAX 1024u /* clocks of a run at most */

struct dev_lockstep {
    const struct device_ops *ref_ops, *dut_ops; /* the reference; the model checked */
    void *ref, *dut;
    uint64_t clock;  /* clocks stepped since the reset, skipped ones included */
    char fault[640]; /* the first difference; "" while none */
    uint8_t trace[LS_RUN_MAX]; /* the model checked's clocks of a run (ls_run) */
};

void *dev_lockstep_create(const struct device_ops *ref, const struct device_ops *dut)
{
    struct dev_lockstep *d;

    if (!ref || !dut || ref->width != dut->width || !(d = calloc(1, sizeof(*d))))
        return NULL;
    d->ref_ops = ref;
    d->dut_ops = dut;
    d->ref = dev_create(ref);
    d->dut = dev_create(dut);
    if (!d->ref || !d->dut) {
        if (d->ref)
            d->ref_ops->destroy(d->ref);
        if (d->dut)
            d->dut_ops->destroy(d->dut);
        free(d);
        return NULL;
    }
    return d;
}

static void ls_destroy(void *dev)
{
    struct dev_lockstep *d = dev;

    if (d) {
        d->ref_ops->destroy(d->ref);
        d->dut_ops->destroy(d->dut);
        free(d);
    }
}

static void ls_reset(void *dev)
{
    struct dev_lockstep *d = dev;

    d->ref_ops->reset(d->ref);
    d->dut_ops->reset(d->dut);
    d->clock = 0;
    d->fault[0] = '\0';
}

/* One side's outputs, on one line. */
static int ls_print(char *buf, size_t len, unsigned w, const struct dev_out *o)
{
    int n = snprintf(buf, len,
                     "h2d_ready %u d2h %u sop %u eop %u type %u tag %u len %u addr %#" PRIx64
                     " err %u wire %u sop %u eop %u bytes %u fcs %08" PRIx32
                     " idle %u wait %u wake %" PRIu32 " d2h.data",
                     o->h2d_ready, o->d2h.valid, o->d2h.sop, o->d2h.eop, o->d2h.type, o->d2h.tag,
                     o->d2h.len, o->d2h.addr, o->d2h.err, o->wire.valid, o->wire.sop,
                     o->wire.eop, o->wire.bytes, o->wire.fcs, o->idle, o->waiting, o->wake);
    for (unsigned i = 0; i < (w < 8 ? w : 8u) && n > 0 && (size_t)n < len; i++)
        n += snprintf(buf + n, len - (size_t)n, " %02x", o->d2h.data[i]);
    return n;
}

/* The first of W data lanes of a port that differ, on one line ("wire.data
 * lane 3: rtl 0x5, c 0x7"): 1; 0 if none does. */
static int ls_lane_diff(char *buf, size_t len, unsigned w, const char *port, const char *an,
                        const char *bn, const uint8_t *a, const uint8_t *b)
{
    for (unsigned i = 0; i < w; i++)
        if (a[i] != b[i]) {
            snprintf(buf, len, "%s.data lane %u: %s %#x, %s %#x", port, i, an, a[i], bn, b[i]);
            return 1;
        }
    return 0;
}

/* The first field in which two sides' outputs differ, on one line: the
 * port, the field, both values ("d2h.tag: rtl 5, c 7"; a data lane by
 * number). */
static void ls_first_diff(char *buf, size_t len, unsigned w, const char *an, const char *bn,
                          const struct dev_out *a, const struct dev_out *b)
{
#define LS_F(field, name)                                                                     \
    if (a->field != b->field) {                                                               \
        snprintf(buf, len, "%s: %s %#" PRIx64 ", %s %#" PRIx64, name, an,                     \
                 (uint64_t)a->field, bn, (uint64_t)b->field);                                 \
        return;                                                                               \
    }
    LS_F(h2d_ready, "h2d.ready")
    LS_F(d2h.valid, "d2h.valid")
    if (a->d2h.valid) { /* a beat's fields mean something while valid (device.h) */
        LS_F(d2h.sop, "d2h.sop")
        LS_F(d2h.eop, "d2h.eop")
        LS_F(d2h.type, "d2h.type")
        LS_F(d2h.tag, "d2h.tag")
        LS_F(d2h.len, "d2h.len")
        LS_F(d2h.addr, "d2h.addr")
        LS_F(d2h.err, "d2h.err")
        if (ls_lane_diff(buf, len, w, "d2h", an, bn, a->d2h.data, b->d2h.data))
            return;
    }
    LS_F(wire.valid, "wire.valid")
    if (a->wire.valid) {
        LS_F(wire.sop, "wire.sop")
        LS_F(wire.eop, "wire.eop")
        LS_F(wire.bytes, "wire.bytes")
        LS_F(wire.fcs, "wire.fcs")
        if (ls_lane_diff(buf, len, w, "wire", an, bn, a->wire.data, b->wire.data))
            return;
    }
    LS_F(idle, "idle")
    LS_F(waiting, "wait")
    LS_F(wake, "wake")
#undef LS_F
    snprintf(buf, len, "none");
}

/* Whether two valid d2h beats differ (W data lanes). */
static int ls_d2h_differ(unsigned w, const struct dev_beat *a, const struct dev_beat *b)
{
    return a->sop != b->sop || a->eop != b->eop || a->type != b->type || a->tag != b->tag ||
           a->len != b->len || a->addr != b->addr || a->err != b->err ||
           memcmp(a->data, b->data, w) != 0;
}

/* Whether two valid wire beats differ (W data lanes). */
static int ls_wire_differ(unsigned w, const struct dev_wire_beat *a, const struct dev_wire_beat *b)
{
    return a->sop != b->sop || a->eop != b->eop || a->bytes != b->bytes || a->fcs != b->fcs ||
           memcmp(a->data, b->data, w) != 0;
}

/* Whether two sides' outputs differ on a W-byte port: every flag, and a
 * beat's fields while it is valid (device.h). */
static int ls_differ(unsigned w, const struct dev_out *a, const struct dev_out *b)
{
    return a->h2d_ready != b->h2d_ready || a->d2h.valid != b->d2h.valid ||
           (a->d2h.valid && ls_d2h_differ(w, &a->d2h, &b->d2h)) ||
           a->wire.valid != b->wire.valid ||
           (a->wire.valid && ls_wire_differ(w, &a->wire, &b->wire)) || a->idle != b->idle ||
           a->waiting != b->waiting || a->wake != b->wake;
}

/* The first difference, kept as the fault: the clock, the first field
 * that differs, on clock i + 1 of a run of n clocks (n 0: a step), and
 * both sides' outputs (dut NULL: not printed). */
static void ls_set_fault(struct dev_lockstep *d, const char *first, uint32_t i, uint32_t n,
                         const struct dev_out *ref, const struct dev_out *dut)
{
    const unsigned w = d->ref_ops->width;
    const size_t len = sizeof(d->fault);
    int k = snprintf(d->fault, len,
                     "lockstep: model %s differs from %s at device clock %" PRIu64
                     " (width %u), first in %s",
                     d->dut_ops->name, d->ref_ops->name, d->clock - 1, w, first);
    if (n)
        k += snprintf(d->fault + k, len - (size_t)k, ", on clock %u of a run of %u", i + 1, n);
    if (dut) {
        k += snprintf(d->fault + k, len - (size_t)k, "\n  %-4s ", d->ref_ops->name);
        k += ls_print(d->fault + k, len - (size_t)k, w, ref);
        k += snprintf(d->fault + k, len - (size_t)k, "\n  %-4s ", d->dut_ops->name);
        ls_print(d->fault + k, len - (size_t)k, w, dut);
    }
}

static void ls_step(void *dev, const struct dev_in *in, struct dev_out *out)
{
    struct dev_lockstep *d = dev;
    struct dev_out c;
    unsigned w = d->ref_ops->width;

    d->clock += (uint64_t)in->skip + 1;
    d->ref_ops->step(d->ref, in, out);
    if (d->fault[0]) {
        out->fault = 1;
        return;
    }
    if (out->fault) /* the reference's own (an RTL assertion) */
        return;
    d->dut_ops->step(d->dut, in, &c);
    if (ls_differ(w, out, &c)) {
        char first[128];
        ls_first_diff(first, sizeof(first), w, d->ref_ops->name, d->dut_ops->name, out, &c);
        ls_set_fault(d, first, 0, 0, out, &c);
        out->fault = 1;
    }
}

/* A run's clock on the reference: its outputs against what the model
 * checked did on it (trace, the wire bytes at `wire`, and sop: whether the
 * run says this clock's wire beat started a frame): the same beat taken,
 * nothing on d2h, the same wire beat (not a frame's last, W bytes), the
 * same idle.  NULL when they agree, else the first field that differs. */
static const char *ls_run_differs(unsigned w, const struct dev_in *in, const struct dev_out *o,
                                  uint8_t trace, const uint8_t *wire, bool sop)
{
    if ((in->h2d.valid && o->h2d_ready) != !!(trace & DEV_RUN_H2D))
        return "h2d_ready";
    if (o->d2h.valid)
        return "d2h.valid";
    if (o->wire.valid != !!(trace & DEV_RUN_WIRE))
        return "wire.valid";
    if (o->wire.valid && (o->wire.sop != sop || o->wire.eop || o->wire.bytes != w))
        return "wire.sop, eop or bytes";
    if (o->wire.valid && (!wire || memcmp(o->wire.data, wire, w) != 0))
        return "wire.data";
    if (o->idle != !!(trace & DEV_RUN_IDLE))
        return "idle";
    return NULL;
}

/* Several clocks (device_ops.run): the model checked runs them, the
 * reference steps each with the same inputs, and on each the two must
 * agree: on the clocks a run holds, the beat taken, nothing on d2h, the
 * same wire beat, idle (ls_run_differs); on an ending clock every output
 * (ls_differ).  After the run both are at a clock boundary, where the next
 * step compares every output again.  The reference's outputs are the
 * run's. */
static uint32_t ls_run(void *dev, struct dev_run *r)
{
    struct dev_lockstep *d = dev;
    const unsigned w = d->ref_ops->width;
    struct dev_run c = *r;
    struct dev_out last, o;
    uint32_t taken = 0;

    r->clocks = r->h2d_taken = r->wire_beats = r->streamed = r->wire_sop = 0;
    r->ended = r->idle = r->fault = 0;
    if (d->fault[0] || !d->dut_ops->run)
        return 0;
    c.trace = d->trace;
    c.last = r->last ? &last : NULL;
    if (c.max > LS_RUN_MAX)
        c.max = LS_RUN_MAX;
    if (d->dut_ops->run(d->dut, &c) == 0)
        return 0;
    for (uint32_t i = 0; i < c.clocks; i++) {
        const int ending = c.ended && i + 1 == c.clocks;
        struct dev_in in;
        char first[128];
        const char *diff;
        memset(&in, 0, sizeof(in));
        in.d2h_ready = in.wire_ready = 1;
        if (c.h2d)
            dev_run_beat(w, &c, taken, &in.h2d);
        d->ref_ops->step(d->ref, &in, &o);
        d->clock++;
        r->clocks = i + 1;
        if (o.fault) { /* the reference's own (an RTL assertion) */
            r->fault = 1;
            return r->clocks;
        }
        diff = ending ? NULL
                      : ls_run_differs(w, &in, &o, c.trace[i],
                                       o.wire.valid ? c.wire + r->wire_beats * w : NULL,
                                       c.wire_sop == i + 1);
        if (ending && ls_differ(w, &o, &last)) {
            ls_first_diff(first, sizeof(first), w, d->ref_ops->name, d->dut_ops->name, &o, &last);
            diff = first;
        }
        if (diff) {
            ls_set_fault(d, diff, i, c.clocks, &o, ending ? &last : NULL);
            r->fault = 1;
            return r->clocks;
        }
        if (ending)
            break;
        taken += in.h2d.valid && o.h2d_ready;
        r->wire_beats += o.wire.valid;
    }
    if (r->trace)
        memcpy(r->trace, c.trace, c.clocks);
    if (c.ended)
        *r->last = o;
    r->h2d_taken = c.h2d_taken;
    r->streamed = c.streamed;
    r->wire_sop = c.wire_sop;
    r->ended = c.ended;
    r->idle = c.idle;
    return r->clocks;
}

/* The model checked's cover points (the C model's), else the reference's. */
static const uint64_t *ls_cover(const void *dev)
{
    const struct dev_lockstep *d = dev;

    if (d->dut_ops->cover)
        return d->dut_ops->cover(d->dut);
    return d->ref_ops->cover ? d->ref_ops->cover(d->ref) : NULL;
}

static const char *ls_fault(const void *dev)
{
    const struct dev_lockstep *d = dev;

    if (d->fault[0])
        return d->fault;
    return d->ref_ops->fault ? d->ref_ops->fault(d->ref) : NULL;
}

/* Waveforms of both: the reference's to the path, the model checked's
 * beside it, its name before the extension ("run.fst": "run.c.fst"). */
void dev_lockstep_wave_path(const char *path, const char *name, char *out, size_t n)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');

    if (!dot || (slash && dot < slash))
        snprintf(out, n, "%s.%s", path, name);
    else
        snprintf(out, n, "%.*s.%s%s", (int)(dot - path), path, name, dot);
}

static int ls_wave_open(void *dev, const struct dev_wave *w, char *err, size_t n)
{
    struct dev_lockstep *d = dev;
    struct dev_wave w2 = *w;
    char path2[OBS_PATH_MAX + 16];

    if (!d->ref_ops->wave_open || !d->dut_ops->wave_open) {
        snprintf(err, n, "no waveforms from this lockstep pair");
        return -1;
    }
    dev_lockstep_wave_path(w->path, d->dut_ops->name, path2, sizeof(path2));
    w2.path = path2;
    if (d->ref_ops->wave_open(d->ref, w, err, n) != 0)
        return -1;
    return d->dut_ops->wave_open(d->dut, &w2, err, n);
}

static int ls_wave_close(void *dev, char *err, size_t n)
{
    struct dev_lockstep *d = dev;
    int rc = d->ref_ops->wave_close ? d->ref_ops->wave_close(d->ref, err, n) : 0;

    if (d->dut_ops->wave_close && d->dut_ops->wave_close(d->dut, rc ? NULL : err, rc ? 0 : n))
        rc = -1;
    return rc;
}

/* Each width's pair, and the pair with the trace-enabled RTL model. */
#define DEV_LS_WIDTH(w)                                                                          \
    static void *ls_create_w##w(void)                                                           \
    {                                                                                           \
        return dev_lockstep_create(dev_rtl_ops_width(w), dev_cm_ops_width(w));                  \
    }                                                                                           \
    static void *ls_create_trace_w##w(void)                                                     \
    {                                                                                           \
        const struct device_ops *r = dev_rtl_trace_ops_width(w);                                \
        return r ? dev_lockstep_create(r, dev_cm_ops_width(w)->traced) : NULL;                  \
    }                                                                                           \
    static const struct device_ops dev_ls_trace_ops_w##w = {                                    \
        "lockstep", w, ls_create_trace_w##w, ls_destroy, ls_reset, ls_step, ls_fault,           \
        ls_wave_open, ls_wave_close, &dev_ls_trace_ops_w##w, ls_cover, NULL, NULL, NULL, NULL}; \
    static const struct device_ops dev_ls_ops_w##w = {                                          \
        "lockstep", w, ls_create_w##w, ls_destroy, ls_reset, ls_step, ls_fault, NULL, NULL,     \
        &dev_ls_trace_ops_w##w, ls_cover, NULL, NULL, NULL, ls_run};
DEV_LS_WIDTH(8)
DEV_LS_WIDTH(16)
DEV_LS_WIDTH(32)
DEV_LS_WIDTH(64)

const struct device_ops *dev_lockstep_ops_width(unsigned w)
{
    switch (w) {
    case 8: return &dev_ls_ops_w8;
    case 16: return &dev_ls_ops_w16;
    case 32: return &dev_ls_ops_w32;
    case 64: return &dev_ls_ops_w64;
    default: return NULL;
    }
}
