/* SPDX-License-Identifier: Apache-2.0 */
/*
 * obs_pcap.h - frames out to a capture file, and a capture in as traffic,
 * through libpcap (Debian libpcap-dev; docs/observability.md).
 *
 * Out: a classic pcap file, link type Ethernet, nanosecond timestamps
 * (the frame's first byte on the wire, in simulated time from 0), each
 * frame as the device sent it without its FCS.  Written through a
 * temporary file, renamed when the run ends.
 *
 * In: a pcap or pcapng file of Ethernet frames (libpcap reads both) is
 * loaded whole: each frame's bytes and time.  A frame shorter than the
 * 60-byte minimum is padded with zeros, as a driver pads it (the wire
 * carries the padded frame); a frame cut short by the capture's snap
 * length, a frame longer than 16383 bytes, another link type or an empty
 * capture is refused with a message naming the frame.
 */
#ifndef NICTX_OBS_PCAP_H
#define NICTX_OBS_PCAP_H

#include <stddef.h>
#include <stdint.h>

#include "lib/simtime.h"

#define OBS_CAP_MIN_LEN 60u    /* shortest frame without FCS (64 B on the wire) */
#define OBS_CAP_MAX_LEN 16383u /* longest: the device's largest */

struct obs_pcap;

/* 0 / NULL on failure, with the reason in err. */
struct obs_pcap *obs_pcap_open(const char *path, char *err, size_t n);
/* One frame whose first byte left at t. */
void obs_pcap_write(struct obs_pcap *p, sim_ps_t t, const uint8_t *frame, unsigned len);
/* Flush, close and rename into place: 0, or -1 with a message. */
int obs_pcap_close(struct obs_pcap *p, char *err, size_t n);
/* Close and remove; NULL is fine. */
void obs_pcap_abort(struct obs_pcap *p);

/* A capture loaded in memory. */
struct obs_capture {
    size_t n;            /* frames */
    uint8_t *bytes;      /* every frame's bytes, one after another */
    size_t *off;         /* frame i: bytes + off[i] */
    unsigned *len;       /* ... len[i] bytes (padded to OBS_CAP_MIN_LEN) */
    sim_ps_t *t;         /* ... captured at t[i] after the first frame (0 for it) */
    unsigned min_len, max_len;
    sim_ps_t span;       /* t[n - 1] */
};

/* Load `path`: 0, or -1 with a message (naming the frame, not the file). */
int obs_capture_load(struct obs_capture *c, const char *path, char *err, size_t n);
/* Check that `path` loads, without keeping it (for option parsing). */
int obs_capture_check(const char *path, char *err, size_t n);
void obs_capture_free(struct obs_capture *c);

/* Frame i of the run's sequence: the capture replayed in a loop. */
static inline unsigned obs_capture_len(const struct obs_capture *c, uint64_t seq)
{
    return c->len[seq % c->n];
}
static inline const uint8_t *obs_capture_frame(const struct obs_capture *c, uint64_t seq)
{
    return c->bytes + c->off[seq % c->n];
}
/* When packet seq is due, relative to the first: its capture time plus a
 * loop's length (span and one mean gap) per loop, times `scale`. */
sim_ps_t obs_capture_due(const struct obs_capture *c, uint64_t seq, double scale);

#endif /* NICTX_OBS_PCAP_H */
