/* SPDX-License-Identifier: Apache-2.0 */
/*
 * observe.c - what a run shows of itself (docs/observability.md): the
 * tracer (sim/obs/obs.h) built, told what it needs of the run and attached
 * to the links and the device; a capture loaded as the traffic source
 * (--pcap-in) and paced (--pcap-timing); the outputs finished when the run
 * ends; and the snapshot of a run that stopped: the timeline from the
 * tracer's ring, the waveform from the same run again on the
 * trace-enabled model.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nictx_hw.h"
#include "obs/obs_timeline.h"
#include "run/sim_world.h"

/* The ring: 2^16 events (2 MiB), some tens of microseconds of a busy run. */
#define SIM_OBS_RING_LOG2 16

static const char *obs_cause_name(unsigned c) { return cpu_cause_name((enum cpu_cause)c); }
static const char *obs_fc_name(unsigned t) { return pcie_fc_type_name(t); }

/* The queue a device write reports on: an interrupt's vector; a
 * completion write's queue by the address it writes. */
static unsigned obs_write_queue(const void *ctx, uint64_t addr, int irq)
{
    struct sim *s = (struct sim *)(uintptr_t)ctx;

    if (irq)
        return sim_cfg_msix_vector(addr) < s->nq ? sim_cfg_msix_vector(addr) : 0;
    for (unsigned q = 0; q < s->nq; q++) {
        const struct txq *x = sim_txq(s, q);
        uint64_t ring_end = x->ring_dma + (uint64_t)x->size * NICTX_DESC_BYTES;
        if (addr == x->wb_dma || (addr >= x->ring_dma && addr < ring_end) ||
            (x->cq_dma && addr >= x->cq_dma && addr < x->cq_dma + (uint64_t)x->size * NICTX_CQE_BYTES))
            return q;
    }
    return 0;
}

/* The capture's frame seq (the scoreboard's source). */
static const uint8_t *obs_cap_frame(const void *ctx, uint64_t seq, unsigned *len)
{
    const struct obs_capture *c = ctx;

    *len = obs_capture_len(c, seq);
    return obs_capture_frame(c, seq);
}

int sim_obs_build(struct sim *s, char *err, size_t n)
{
    const struct obs_cfg *oc = &s->cfg.obs;
    struct obs_run_info *in;

    if (oc->pcap_in[0]) {
        char why[512];
        if (obs_capture_load(&s->cap, oc->pcap_in, why, sizeof(why)) != 0) {
            snprintf(err, n, "--pcap-in %s: %s", oc->pcap_in, why);
            return -1;
        }
        s->gen.frame = obs_cap_frame;
        s->gen.frame_ctx = &s->cap;
        s->gen.min_len = s->cap.min_len;
        s->gen.max_len = s->cap.max_len;
    }
    if (!oc->wave[0] && !oc->timeline[0] && !oc->pcap_out[0])
        return 0; /* nothing to show: no tracer, every hook skipped */
    if (!(s->obs = obs_create(oc, SIM_OBS_RING_LOG2, err, n)))
        return -1;
    in = obs_info(s->obs);
    in->ncpu = s->cfg.cpus;
    in->nqueues = s->nq;
    in->ring_size = s->cfg.ring_size;
    in->desc_bytes = NICTX_DESC_BYTES;
    in->cause_name = obs_cause_name;
    in->tlp_kind_name = tlp_kind_name;
    in->fc_name = obs_fc_name;
    in->idle_cause = CPU_IDLE;
    in->kind_doorbell = TLP_KIND_DOORBELL;
    in->kind_desc_rd = TLP_KIND_DESC_RD;
    in->kind_payload_rd = TLP_KIND_PAYLOAD_RD;
    in->kind_completion = TLP_KIND_COMPLETION;
    in->kind_irq = TLP_KIND_IRQ;
    in->write_queue = obs_write_queue;
    in->ctx = s;
    return 0;
}

/* After the link and the device exist: the tracer attached to them. */
static int sim_obs_attach(struct sim *s, char *err, size_t n)
{
    const struct obs_cfg *oc = &s->cfg.obs;

    if (!s->obs)
        return 0;
    pcie_link_set_obs(s->h2d, s->obs, 0);
    pcie_link_set_obs(s->d2h, s->obs, 1);
    if (oc->wave[0]) {
        struct dev_wave w = {oc->wave, &s->now, obs_window(s->obs), s->period_ps};
        char why[512];
        if (!s->ops->wave_open || s->ops->wave_open(s->dev, &w, why, sizeof(why)) != 0) {
            snprintf(err, n, "--wave %s: %s", oc->wave,
                     s->ops->wave_open ? why : "this device model writes no waveform");
            return -1;
        }
        s->wave_up = 1;
    }
    return 0;
}

void sim_obs_ready(struct sim *s)
{
    s->pace_t0 = s->now;
    if (!s->obs)
        return;
    for (unsigned q = 0; q < s->nq && q < 64; q++)
        obs_info(s->obs)->ring_base[q] = sim_txq(s, q)->ring_dma;
}

/* The device and the links are built: attach (world.c calls this through
 * sim_obs_build's second half). */
int sim_obs_device(struct sim *s, char *err, size_t n)
{
    return sim_obs_attach(s, err, n);
}

void sim_obs_end(struct sim *s)
{
    char err[600] = "";
    int bad = 0;

    if (s->wave_up) {
        s->wave_up = 0;
        if (s->ops->wave_close(s->dev, err, sizeof(err)) != 0)
            bad = 1;
    }
    if (!s->obs)
        return;
    if (s->failed || s->stopped)
        obs_note(s->obs, s->now, s->diag);
    if (!bad && obs_close(s->obs, err, sizeof(err)) != 0)
        bad = 1;
    if (!bad)
        return;
    if (!s->failed)
        sim_fail(s, "%s", err);
    else
        fprintf(stderr, "nictx: %s\n", err);
}

void sim_obs_destroy(struct sim *s)
{
    if (s->wave_up && s->ops->wave_close) {
        char err[256];
        s->ops->wave_close(s->dev, err, sizeof(err));
    }
    s->wave_up = 0;
    obs_destroy(s->obs);
    s->obs = NULL;
    obs_capture_free(&s->cap);
}

void sim_obs_queue(struct sim_cpu *c, unsigned q)
{
    struct sim *s = c->sim;
    const struct txq *x = sim_txq(s, q);

    if (!s->obs)
        return;
    obs_queue(s->obs, c->id, c->cpu.now, q, (x->next_to_use - x->next_to_clean) & (x->size - 1),
              x->bql ? x->dql.limit : UINT64_MAX);
}

sim_ps_t sim_pace_due(const struct sim *s, uint64_t seq)
{
    return s->pace_t0 + obs_capture_due(&s->cap, seq, s->cfg.obs.pcap_timing);
}

/* ------------------------------------------------------------ the snapshot */

/* `base` and a suffix: the snapshot's file names; -1 if too long. */
static int snap_path(char *out, size_t n, const char *base, const char *suffix)
{
    size_t len = strlen(base);

    if (len > 5 && strcmp(base + len - 5, ".json") == 0)
        len -= 5;
    if (len + strlen(suffix) >= n)
        return -1;
    memcpy(out, base, len);
    memcpy(out + len, suffix, strlen(suffix) + 1);
    return 0;
}

/*
 * The snapshot: the same configuration run again (a run is deterministic:
 * it stops where this one did), writing the window [from, to) as a
 * timeline and, on the trace-enabled model, a waveform (fst NULL: none).
 * Nothing is recorded on a run that passes, so a snapshot costs it
 * nothing.  0, or -1 with why; *stop_at the second run's stop.
 */
static int snap_run(const struct sim *s, const char *tl, const char *fst, sim_ps_t from,
                    sim_ps_t to, sim_ps_t *stop_at, char *why, size_t n)
{
    struct sim_cfg cfg = s->cfg;
    struct sim *r;
    char err[600];
    int rc;

    memset(&cfg.obs, 0, sizeof(cfg.obs));
    memcpy(cfg.obs.pcap_in, s->cfg.obs.pcap_in, sizeof(cfg.obs.pcap_in)); /* the traffic */
    cfg.obs.pcap_timing = s->cfg.obs.pcap_timing;
    cfg.obs.no_snapshot = 1;
    cfg.obs.snapshot_us = s->cfg.obs.snapshot_us;
    memcpy(cfg.obs.timeline, tl, strlen(tl) + 1); /* (OBS_PATH_MAX names) */
    if (fst)
        memcpy(cfg.obs.wave, fst, strlen(fst) + 1);
    cfg.obs.from = (struct obs_point){from, 1, 0};
    cfg.obs.to = (struct obs_point){to, 1, 0};
    if (!(r = sim_create(&cfg, s->ops, err, sizeof(err)))) {
        snprintf(why, n, "%s", err);
        return -1;
    }
    sim_run(r);
    *stop_at = r->now;
    rc = r->failed && strncmp(r->diag, "--", 2) == 0 ? -1 : 0; /* an output not written */
    if (rc)
        snprintf(why, n, "%s", r->diag);
    sim_destroy(r);
    return rc;
}

int sim_snapshot(struct sim *s, const char *base, char *msg, size_t n)
{
    char tl[OBS_PATH_MAX], fst[OBS_PATH_MAX], why[1100] = "", again[96] = "", tmpbase[600];
    sim_ps_t width, first = s->now, from, to = s->now + s->period_ps, stop;
    int waves = s->ops->traced != NULL;

    if (s->cfg.obs.no_snapshot) {
        snprintf(msg, n, "no snapshot (--no-snapshot)");
        return -1;
    }
    if (!s->failed && !s->stopped) { /* it ended; a violation found at its end */
        snprintf(msg, n, "%s", "");
        return -1;
    }
    width = sim_ns_to_ps(s->cfg.obs.snapshot_us * 1000.0);
    if (s->nviol && s->viol[0].time_ps < first)
        first = s->viol[0].time_ps;
    if (s->last_progress < first)
        first = s->last_progress;
    from = first > width ? first - width : 0;
    if (!base) { /* no JSON to write it beside: the temporary directory */
        const char *dir = getenv("TMPDIR");
        snprintf(tmpbase, sizeof(tmpbase), "%s/nictx-%ld", dir && *dir ? dir : "/tmp",
                 (long)getpid());
        base = tmpbase;
    }
    if (snap_path(tl, sizeof(tl), base, ".snapshot.json") != 0 ||
        snap_path(fst, sizeof(fst), base, ".snapshot.fst") != 0) {
        snprintf(msg, n, "no snapshot: the --json name is too long to name it after");
        return -1;
    }
    if (snap_run(s, tl, waves ? fst : NULL, from, to, &stop, why, sizeof(why)) != 0) {
        snprintf(msg, n, "no snapshot: %s", why);
        return -1;
    }
    if (stop != s->now)
        snprintf(again, sizeof(again), "; but the run again stopped at %.3f us, not %.3f us",
                 (double)stop / 1e6, (double)s->now / 1e6);
    if (!waves)
        snprintf(why, sizeof(why), "; no waveform: this build has no trace-enabled %s model "
                 "(make builds one; make fast does not)", s->ops->name);
    snprintf(msg, n, "snapshot of %.3f..%.3f us: %s (timeline)%s%s%s%s", (double)from / 1e6,
             (double)to / 1e6, tl, waves ? ", " : "", waves ? fst : "", waves ? " (waveform)" : why,
             again);
    return 0;
}
