/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dev_cm.c - the C model of the engine (c-model/cm_engine.h) behind struct
 * device_ops, one ops per datapath width as the RTL's (sim/device/device.h).
 *
 * Waveforms (--wave): the C model writes its own FST (sim/obs/obs_fst.h)
 * with the RTL's names: the top's ports under nictx and nictx.nictx_tx_top,
 * and the probe's registers and nets (c-model/cm_probe.h), sampled as the
 * trace-enabled RTL model samples (struct dev_wave).  That is the ops of
 * device_ops.traced, a device of its own (struct dev_cm): the plain ops
 * step the engine with nothing else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm_engine.h"
#include "cm_probe.h"
#include "device/device.h"
#include "obs/obs_fst.h"

#define TOP "nictx"
#define TOP_MOD "nictx.nictx_tx_top"

/* The top's ports, in the order of rtl/nictx_tx_top.sv. */
enum cm_port {
    P_CLK, P_RST, P_H2D_VALID, P_H2D_READY, P_H2D_SOP, P_H2D_EOP, P_H2D_TYPE, P_H2D_TAG,
    P_H2D_LEN, P_H2D_ADDR, P_H2D_DATA, P_H2D_ERR, P_D2H_VALID, P_D2H_READY, P_D2H_SOP,
    P_D2H_EOP, P_D2H_TYPE, P_D2H_TAG, P_D2H_LEN, P_D2H_ADDR, P_D2H_DATA, P_D2H_ERR,
    P_WIRE_VALID, P_WIRE_READY, P_WIRE_SOP, P_WIRE_EOP, P_WIRE_DATA, P_WIRE_BYTES, P_WIRE_FCS,
    P_IDLE, P_WAIT, P_SKIP, P_WAKE, P_N
};

struct cm_wave {
    struct obs_fst *f;
    struct dev_wave w;
    int port[P_N];
    int sig[CM_PROBE_N];
    uint64_t vals[CM_PROBE_N];
};

struct dev_cm {
    struct cm_engine *e;
    unsigned w;
    struct cm_wave *wave;
};

static void *cmw_create_hw(unsigned w, const struct dev_hw *hw)
{
    struct dev_cm *d = calloc(1, sizeof(*d));

    if (d && !(d->e = cm_engine_create_hw(w, hw))) {
        free(d);
        return NULL;
    }
    if (d)
        d->w = w;
    return d;
}

static void cmw_destroy(void *dev)
{
    struct dev_cm *d = dev;

    if (!d)
        return;
    if (d->wave) {
        obs_fst_abort(d->wave->f);
        free(d->wave);
    }
    cm_engine_destroy(d->e);
    free(d);
}

static void cmw_reset(void *dev)
{
    cm_engine_reset(((struct dev_cm *)dev)->e);
}

/* ---------------------------------------------------------------- waves */

static int port_widths(unsigned w, unsigned p)
{
    static const unsigned fixed[P_N] = {
        [P_CLK] = 1, [P_RST] = 1, [P_H2D_VALID] = 1, [P_H2D_READY] = 1, [P_H2D_SOP] = 1,
        [P_H2D_EOP] = 1, [P_H2D_TYPE] = 2, [P_H2D_TAG] = 8, [P_H2D_LEN] = 13,
        [P_H2D_ADDR] = 64, [P_H2D_ERR] = 1, [P_D2H_VALID] = 1, [P_D2H_READY] = 1,
        [P_D2H_SOP] = 1, [P_D2H_EOP] = 1, [P_D2H_TYPE] = 2, [P_D2H_TAG] = 8, [P_D2H_LEN] = 13,
        [P_D2H_ADDR] = 64, [P_D2H_ERR] = 1, [P_WIRE_VALID] = 1, [P_WIRE_READY] = 1,
        [P_WIRE_SOP] = 1, [P_WIRE_EOP] = 1, [P_WIRE_FCS] = 32, [P_IDLE] = 1, [P_WAIT] = 1,
        [P_SKIP] = 24, [P_WAKE] = 24};

    if (p == P_H2D_DATA || p == P_D2H_DATA || p == P_WIRE_DATA)
        return (int)(8 * w);
    if (p == P_WIRE_BYTES)
        return __builtin_ctz(w) + 1; /* $clog2(W) + 1 */
    return (int)fixed[p];
}

static const char *const port_names[P_N] = {
    "clk_i", "rst_ni", "h2d_valid_i", "h2d_ready_o", "h2d_sop_i", "h2d_eop_i", "h2d_type_i",
    "h2d_tag_i", "h2d_len_i", "h2d_addr_i", "h2d_data_i", "h2d_err_i", "d2h_valid_o",
    "d2h_ready_i", "d2h_sop_o", "d2h_eop_o", "d2h_type_o", "d2h_tag_o", "d2h_len_o",
    "d2h_addr_o", "d2h_data_o", "d2h_err_o", "wire_valid_o", "wire_ready_i", "wire_sop_o",
    "wire_eop_o", "wire_data_o", "wire_bytes_o", "wire_fcs_o", "idle_o", "wait_o", "skip_i",
    "wake_o"};

/* Declare every signal: the ports in both scopes (the module's repeat
 * the top's), then the probe's, grouped by scope. */
static int cm_wave_declare(struct cm_wave *v, unsigned w)
{
    static const char *const scopes[] = {"",      "u_cpl",  "u_desc_fetch", "u_dma_rd",
                                         "u_mac", "u_payload_fetch", "u_regs", "u_tx_sched"};
    char scope[96], name[32];
    int bad = 0;

    for (unsigned p = 0; p < P_N; p++)
        bad |= (v->port[p] = obs_fst_var(v->f, TOP, port_names[p], port_widths(w, p), -1)) < 0;
    for (unsigned p = 0; p < P_N; p++)
        bad |= obs_fst_var(v->f, TOP_MOD, port_names[p], port_widths(w, p), v->port[p]) < 0;
    for (unsigned s = 0; s < sizeof(scopes) / sizeof(scopes[0]); s++) {
        snprintf(scope, sizeof(scope), "%s%s%s", TOP_MOD, scopes[s][0] ? "." : "", scopes[s]);
        for (unsigned i = 0; i < CM_PROBE_N; i++) {
            struct cm_probe_def d;
            cm_probe_def(i, &d, name, sizeof(name));
            if (strcmp(d.scope, scopes[s]) == 0)
                bad |= (v->sig[i] = obs_fst_var(v->f, scope, d.name, d.width, -1)) < 0;
        }
    }
    return bad ? -1 : 0;
}

static void put_port(struct cm_wave *v, unsigned p, uint64_t x)
{
    obs_fst_u64(v->f, v->port[p], x);
}

/* One clock's sample (dev_wave's rule, as the RTL's). */
static void cm_wave_sample(struct dev_cm *d, const struct dev_in *in, const struct dev_out *o)
{
    struct cm_wave *v = d->wave;
    const sim_ps_t edge = *v->w.now;
    const sim_ps_t t0 = edge > v->w.period_ps ? edge - v->w.period_ps : 0;

    if (t0 < v->w.win->from || t0 >= v->w.win->to)
        return;
    obs_fst_time(v->f, t0);
    put_port(v, P_CLK, 1);
    put_port(v, P_RST, 1);
    put_port(v, P_H2D_VALID, in->h2d.valid);
    put_port(v, P_H2D_READY, o->h2d_ready);
    put_port(v, P_H2D_SOP, in->h2d.sop);
    put_port(v, P_H2D_EOP, in->h2d.eop);
    put_port(v, P_H2D_TYPE, in->h2d.type);
    put_port(v, P_H2D_TAG, in->h2d.tag);
    put_port(v, P_H2D_LEN, in->h2d.len);
    put_port(v, P_H2D_ADDR, in->h2d.addr);
    obs_fst_bytes(v->f, v->port[P_H2D_DATA], in->h2d.data);
    put_port(v, P_H2D_ERR, in->h2d.err);
    put_port(v, P_D2H_VALID, o->d2h.valid);
    put_port(v, P_D2H_READY, in->d2h_ready);
    put_port(v, P_D2H_SOP, o->d2h.sop);
    put_port(v, P_D2H_EOP, o->d2h.eop);
    put_port(v, P_D2H_TYPE, o->d2h.type);
    put_port(v, P_D2H_TAG, o->d2h.tag);
    put_port(v, P_D2H_LEN, o->d2h.len);
    put_port(v, P_D2H_ADDR, o->d2h.addr);
    obs_fst_bytes(v->f, v->port[P_D2H_DATA], o->d2h.data);
    put_port(v, P_D2H_ERR, o->d2h.err);
    put_port(v, P_WIRE_VALID, o->wire.valid);
    put_port(v, P_WIRE_READY, in->wire_ready);
    put_port(v, P_WIRE_SOP, o->wire.sop);
    put_port(v, P_WIRE_EOP, o->wire.eop);
    obs_fst_bytes(v->f, v->port[P_WIRE_DATA], o->wire.data);
    put_port(v, P_WIRE_BYTES, o->wire.bytes);
    put_port(v, P_WIRE_FCS, o->wire.fcs);
    put_port(v, P_IDLE, o->idle);
    put_port(v, P_WAIT, o->waiting);
    put_port(v, P_SKIP, in->skip < 0xffffffu ? in->skip : 0xffffffu);
    put_port(v, P_WAKE, o->wake == UINT32_MAX ? 0xffffffu : o->wake);
    for (unsigned i = 0; i < CM_PROBE_N; i++)
        obs_fst_u64(v->f, v->sig[i], v->vals[i]);
    if (t0 + v->w.period_ps / 2 < v->w.win->to) {
        obs_fst_time(v->f, t0 + v->w.period_ps / 2);
        put_port(v, P_CLK, 0);
    }
}

static int cm_wave_open(void *dev, const struct dev_wave *w, char *err, size_t n)
{
    struct dev_cm *d = dev;
    struct cm_wave *v;

    if (d->wave) {
        snprintf(err, n, "the waveform is already open");
        return -1;
    }
    if (!(v = calloc(1, sizeof(*v)))) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    if (!(v->f = obs_fst_open(w->path, err, n))) {
        free(v);
        return -1;
    }
    v->w = *w;
    if (cm_wave_declare(v, d->w) != 0) {
        snprintf(err, n, "%s: too many signals for the waveform writer", w->path);
        obs_fst_abort(v->f);
        free(v);
        return -1;
    }
    d->wave = v;
    return 0;
}

static int cm_wave_close(void *dev, char *err, size_t n)
{
    struct dev_cm *d = dev;
    int rc;

    if (!d->wave)
        return 0;
    rc = obs_fst_close(d->wave->f, err, n);
    free(d->wave);
    d->wave = NULL;
    return rc;
}

/* ---------------------------------------------------------------- ops */

/* Outside the window the engine steps as the plain one does. */
static void cmw_step(void *dev, const struct dev_in *in, struct dev_out *out)
{
    struct dev_cm *d = dev;
    const struct cm_wave *v = d->wave;
    sim_ps_t t0;

    if (!v) {
        cm_engine_step(d->e, in, out);
        return;
    }
    t0 = *v->w.now > v->w.period_ps ? *v->w.now - v->w.period_ps : 0;
    if (t0 < v->w.win->from || t0 >= v->w.win->to) {
        cm_engine_step(d->e, in, out);
        return;
    }
    cm_engine_step_probe(d->e, in, out, d->wave->vals);
    cm_wave_sample(d, in, out);
}

/* The plain engine: the device is the struct cm_engine itself. */
static void cm_destroy(void *dev) { cm_engine_destroy(dev); }
static void cm_reset(void *dev) { cm_engine_reset(dev); }
static void cm_step(void *dev, const struct dev_in *in, struct dev_out *out)
{
    cm_engine_step(dev, in, out);
}
static uint32_t cm_run(void *dev, struct dev_run *r) { return cm_engine_run(dev, r); }

static void *cmw_create(unsigned w)
{
    const struct dev_hw hw = DEV_HW_DEFAULT;

    return cmw_create_hw(w, &hw);
}

/* Another hardware combination (device_ops.create_with, dev_models.c): the
 * plain engine at self->width and *self->hw, and the one that writes
 * waveforms. */
void *dev_cm_create_with(const struct device_ops *self)
{
    return cm_engine_create_hw(self->width, self->hw);
}

void *dev_cm_wave_create_with(const struct device_ops *self)
{
    return cmw_create_hw(self->width, self->hw);
}

static const uint64_t *cm_cover(const void *dev) { return cm_engine_cover(dev); }
static const uint64_t *cmw_cover(const void *dev)
{
    return cm_engine_cover(((const struct dev_cm *)dev)->e);
}

#define DEV_CM_WIDTH(w)                                                                         \
    static void *cm_create_w##w(void) { return cm_engine_create(w); }                          \
    static void *cmw_create_w##w(void) { return cmw_create(w); }                               \
    static const struct device_ops dev_cm_wave_ops_w##w = {                                     \
        "c",          w,             cmw_create_w##w,       cmw_destroy, cmw_reset, cmw_step,   \
        NULL,         cm_wave_open,  cm_wave_close,         &dev_cm_wave_ops_w##w, cmw_cover,   \
        NULL,         NULL,          NULL,                  NULL};                              \
    static const struct device_ops dev_cm_ops_w##w = {                                          \
        "c",  w,    cm_create_w##w, cm_destroy,           cm_reset, cm_step,                    \
        NULL, NULL, NULL,           &dev_cm_wave_ops_w##w, cm_cover, NULL,  NULL,   NULL, cm_run};

DEV_CM_WIDTH(8)
DEV_CM_WIDTH(16)
DEV_CM_WIDTH(32)
DEV_CM_WIDTH(64)

const struct device_ops *dev_cm_ops_width(unsigned w)
{
    switch (w) {
    case 8: return &dev_cm_ops_w8;
    case 16: return &dev_cm_ops_w16;
    case 32: return &dev_cm_ops_w32;
    case 64: return &dev_cm_ops_w64;
    default: return NULL;
    }
}
