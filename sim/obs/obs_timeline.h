/* SPDX-License-Identifier: Apache-2.0 */
/*
 * obs_timeline.h - the tracer's events as Chrome trace-event JSON, which
 * Perfetto (ui.perfetto.dev) and chrome://tracing open
 * (docs/observability.md, The timeline).
 *
 * Tracks: a process "host" with a thread per CPU (each platform call and
 * the time it books by cause as slices; stores becoming visible, MMIO
 * writes, doorbells and coroutine switches as instants; ring occupancy and
 * the BQL limit as counters); "pcie" with a thread per link direction
 * (each TLP a slice, with its kind, bytes and tag) and one for each
 * direction's credit stalls; "engine" with descriptor fetches and payload
 * fetches (a slice per read, from the MRd leaving the device to its last
 * completion taken, on lanes so that reads in flight together do not
 * overlap), the wire (a slice per frame), completion writes and interrupts
 * (instants), each per queue when there are several, and the tags in use
 * as a counter; "checks" with violations and the run's end.  Flow arrows
 * follow each packet: from its publication (the doorbell, or the owner bit)
 * to the descriptor fetch that read it, the payload fetch, and its frame on
 * the wire.
 *
 * Times are in microseconds with picosecond digits ("ts": 1.234567).
 * Events enter in batches (obs_tl_take) in the order they were recorded;
 * only those that start inside the window are written; an event that
 * completes another (a completion ending a fetch) is matched whatever its
 * window.  The file is written under a temporary name and renamed when
 * closed.
 */
#ifndef NICTX_OBS_TIMELINE_H
#define NICTX_OBS_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "obs/obs.h"

struct obs_timeline;

/* NULL with the reason in err. */
struct obs_timeline *obs_tl_open(const char *path, char *err, size_t n);
/* Events [first, end) of o's ring, in the window. */
void obs_tl_take(struct obs_timeline *w, const struct obs *o, uint64_t first, uint64_t end,
                 const struct obs_window *win);
/* Events written so far (slices, instants, counters and flows). */
uint64_t obs_tl_count(const struct obs_timeline *w);
/* End the JSON, rename into place, free: 0, or -1 with a message. */
int obs_tl_close(struct obs_timeline *w, char *err, size_t n);
/* Remove and free; NULL is fine. */
void obs_tl_abort(struct obs_timeline *w);

#endif /* NICTX_OBS_TIMELINE_H */
