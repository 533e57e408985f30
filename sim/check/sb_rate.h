/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sb_rate.h - the scoreboard's memory of frame start times, for the
 * steady-state rate, in a fixed amount of memory whatever the run length.
 *
 * What it serves: sb_result() measures the rate between frame k0 = n / 10
 * (n frames seen in all, warm-up excluded) and the last frame, so it needs
 * the start time t_k and the bytes of frames 0..k-1 (sum_k) of frame k0,
 * and n is known only when the run ends.  Keeping every frame up to
 * expected / 10 cost 1.6 B per packet (16 MB for 10 M packets).
 *
 * Layout.  With hi = expected / 10 + SB_RATE_SLACK (frames at or above hi
 * are never asked for: k0 is capped at hi - 1, as before):
 *  - a window of SB_RATE_WINDOW consecutive frames [lo, hi), lo = hi -
 *    SB_RATE_WINDOW (0 if that is negative), kept exactly: every run whose
 *    n is at least about expected - 10 * SB_RATE_WINDOW (every run that
 *    sends what it was asked to, including ones that lose or drop up to
 *    about 327 k frames) gets exactly the k0 it always had;
 *  - below lo, one frame in `stride` (frames 0, stride, 2 * stride, ...),
 *    stride = ceil(lo / SB_RATE_SAMPLES): a run that ends earlier than that
 *    (a watchdog or a violation stops it) measures from the sampled frame
 *    at or below n / 10, at most stride - 1 frames earlier (237 for 10 M
 *    packets).  Runs of up to about 367 k expected frames have stride 1:
 *    every k0 is exact.
 *
 * Cost: (SB_RATE_WINDOW + SB_RATE_SAMPLES) * 16 B = 576 KiB allocated at
 * sb_rate_init whatever `expected` is (pages never written are never
 * touched); sb_rate_note is a compare and two stores, no allocation.
 */
#ifndef NICTX_SB_RATE_H
#define NICTX_SB_RATE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/simtime.h"

#define SB_RATE_SLACK 103u       /* frames kept beyond expected / 10 */
#define SB_RATE_WINDOW 32768u    /* exact frames just below hi */
#define SB_RATE_SAMPLES 4096u    /* sampled frames below the window */

struct sb_rate_entry {
    sim_ps_t t;   /* start time of the frame */
    uint64_t sum; /* frame bytes of all frames before it */
};

struct sb_rate {
    uint64_t hi;       /* frames >= hi are not kept */
    uint64_t lo;       /* frames [lo, hi) are kept exactly */
    uint64_t stride;   /* frames below lo: every stride-th */
    struct sb_rate_entry *win;  /* SB_RATE_WINDOW entries, frame lo + i */
    struct sb_rate_entry *samp; /* SB_RATE_SAMPLES entries, frame i * stride */
};

/* 0, or -1 when memory is short (r is then safe to free). */
int sb_rate_init(struct sb_rate *r, uint64_t expected);
void sb_rate_free(struct sb_rate *r);

/* Frame k (0, 1, 2, ... in wire order) started at t after `sum` frame
 * bytes.  Frames not kept are ignored. */
static inline void sb_rate_note(struct sb_rate *r, uint64_t k, sim_ps_t t, uint64_t sum)
{
    struct sb_rate_entry *e = NULL;

    if (k >= r->lo) {
        if (k < r->hi)
            e = &r->win[k - r->lo];
    } else if (k % r->stride == 0) {
        e = &r->samp[k / r->stride];
    }
    if (e) {
        e->t = t;
        e->sum = sum;
    }
}

/* The kept frame to measure from for k0 (see above): its index, and its
 * time and byte sum in *e.  k0 must be below the number of frames noted. */
uint64_t sb_rate_at(const struct sb_rate *r, uint64_t k0, struct sb_rate_entry *e);

/* Bytes allocated (the same for every `expected`). */
size_t sb_rate_bytes(const struct sb_rate *r);

#endif /* NICTX_SB_RATE_H */
