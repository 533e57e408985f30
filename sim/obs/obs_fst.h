/* SPDX-License-Identifier: Apache-2.0 */
/*
 * obs_fst.h - a waveform file in FST (GTKWave's format) for signals whose
 * values the caller holds: the C model's ports and state
 * (docs/observability.md, Waveforms).  On GTKWave's fstapi, the copy
 * Verilator ships and links (verilated_fst_c).
 *
 * Signals are declared first, each by its scope path ("nictx.nictx_tx_top.
 * u_regs"), name and width; names follow Verilator's FST writer ("head_q
 * [15:0]" for a vector, "tail_m[3] [15:0]" for an array element), so a
 * GTKWave save file that names a Verilated model's signals finds the same
 * names here.  Declare them grouped by scope.  Then, per time point
 * (non-decreasing), the values: only those that changed are written.
 * Values are little-endian bytes, up to 512 bits.  Written under a
 * temporary name, renamed by obs_fst_close.
 */
#ifndef NICTX_OBS_FST_H
#define NICTX_OBS_FST_H

#include <stddef.h>
#include <stdint.h>

#include "lib/simtime.h"

struct obs_fst;

/* NULL with the reason in err.  Time unit: 1 ps. */
struct obs_fst *obs_fst_open(const char *path, char *err, size_t n);
/* A signal of `width` bits (1..512) in `scope`; `alias` >= 0 names the
 * same signal again (another scope, the same values).  Its id, or -1 when
 * out of room. */
int obs_fst_var(struct obs_fst *w, const char *scope, const char *name, unsigned width,
                int alias);
/* At time t (ps): signal id's value (width bits of le[]), or a small one. */
void obs_fst_time(struct obs_fst *w, sim_ps_t t);
void obs_fst_bytes(struct obs_fst *w, int id, const uint8_t *le);
void obs_fst_u64(struct obs_fst *w, int id, uint64_t v);
/* Close and rename into place: 0, or -1 with a message; NULL is fine. */
int obs_fst_close(struct obs_fst *w, char *err, size_t n);
void obs_fst_abort(struct obs_fst *w);

#endif /* NICTX_OBS_FST_H */
