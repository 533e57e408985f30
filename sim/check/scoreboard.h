/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scoreboard.h - the wire checker: every frame the device puts on the wire
 * is regenerated from (seed, sequence number) and compared, so nothing is
 * stored per packet in flight.
 *
 * Packet contents.  Packet `seq` (0, 1, 2, ... in the order the driver
 * posts them) has a buffer length sb_pkt_len() (the Ethernet frame without
 * its 4 B FCS: 60 B for a 64 B frame) and bytes sb_pkt_fill():
 *
 *   offset  0  dst MAC 02:00:00:00:00:01
 *   offset  6  src MAC 02:00:00:00:QQ:02, QQ (offset 10) the queue
 *   offset 12  ethertype 0x88B5 (IEEE local experimental), big-endian
 *   offset 14  seq, 8 bytes little-endian
 *   offset 22  payload: splitmix64 words (little-endian) from a state
 *              derived from (seed, queue, seq); a shorter buffer of the
 *              same packet is a prefix of a longer one.
 *
 * Queues: each queue has its own sequence 0, 1, 2, ... and its packets are
 * a function of (seed, queue, seq), queue 0's exactly those of a run with
 * one queue (the length too: sb_pkt_len).  The scoreboard learns a frame's
 * queue from offset 10 and checks order, contents, loss and latency (from
 * that queue's doorbell) per queue; rate and latency figures cover every
 * frame.  The contended window, while every queue has frames to send,
 * runs from the frame that makes every queue have sent one to the first
 * frame that is the last of its queue; each queue's bytes in it are kept
 * (sb_queue_result) for the fairness figures (sim/run/fairness.h).
 *
 * The device's MAC appends the FCS, crc32_fcs() of the buffer (sim/lib/crc32.h:
 * IEEE 802.3 CRC-32), sent least significant byte first.
 *
 * Checking.  The harness tells the scoreboard when doorbells publish packets
 * (sb_note_published) and hands it every frame seen on the wire
 * (sb_check_frame).  Each queue's frames must arrive in its seq order (a
 * queue's descriptors leave in ring order; the MAC keeps order).  The scoreboard counts frames seen, checked (length, bytes and FCS
 * all as expected), lost (seqs skipped, or never seen by sb_finish) and
 * corrupted (anything else, including frames whose seq is not the next
 * expected or beyond the run), dropped by reason (seqs skipped that the
 * harness noted with sb_note_dropped), and measures doorbell-to-wire latency and
 * the steady-state rate.  A clean run has lost == corrupted == unpublished
 * == stamp_overrun == 0 and checked == sent_expected.
 *
 * Latency is split at each packet's descriptor fetch, when the harness
 * says when it happened (sb_note_fetched_q): queueing from the doorbell to
 * the fetch, service from the fetch to the wire.
 *
 * Cost: sb_create allocates 40 B per ring entry (a doorbell and a fetch
 * stamp, a drop note) and 576 KiB for the rate (sb_rate.h), whatever the
 * run length.  The three latency histograms are exact (lat_hist.h: 1 ns
 * bins below SB_LAT_MAX_NS, 17.2 s, in pages allocated when a latency first
 * lands in them); latencies of 50 us, 200 us and 2 ms need three pages and
 * a 4 KB directory each.  The
 * hot calls allocate only there (sb_check_frame, for a page not seen
 * before), and sb_check_frame makes one pass over the frame (expected
 * bytes generated in 256 B chunks, compared and CRC'd in step).
 */
#ifndef NICTX_SCOREBOARD_H
#define NICTX_SCOREBOARD_H

#include <stddef.h>
#include <stdint.h>

#include "check/lat_hist.h"
#include "lib/crc32.h"
#include "lib/simtime.h"

#define SB_MIN_LEN 60u    /* shortest buffer: 64 B frame without FCS */
#define SB_MAX_LEN 16383u /* longest buffer: 16387 B frame without FCS */
#define SB_HDR_LEN 22u    /* Ethernet header + seq: least sb_pkt_fill takes */
#define SB_FCS_LEN 4u
#define SB_LAT_MAX_NS LAT_HIST_MAX_NS /* latencies binned: below 17.2 s */
#define SB_MAX_MISMATCH 8u     /* mismatch descriptions kept */
#define SB_MISMATCH_LEN 160u   /* bytes per description, NUL included */
#define SB_MAX_EXPECTED (1ull << 40) /* packets per run */
#define SB_MAX_REASONS 8u      /* drop reasons (sb_note_dropped) */
#define SB_MAX_QUEUES 64u      /* queues a run may have */
#define SB_QUEUE_OFF 10u       /* the byte that names the queue (src MAC) */

/* What packet `seq` of a run looks like. */
struct sb_gen_cfg {
    uint64_t seed;
    unsigned min_len, max_len; /* buffer length (no FCS), SB_MIN_LEN..SB_MAX_LEN;
                                  equal for a fixed size */
    /* NULL, or the frames to send instead (a capture replayed, --pcap-in;
     * one queue): frame seq's bytes, its length in *len (min_len..max_len).
     * A frame then carries no seq: the scoreboard takes each one as the
     * next expected frame, or, if it is not, as one of the next
     * SB_SOURCE_LOOKAHEAD (those before it lost); else it is corrupted. */
    const uint8_t *(*frame)(const void *ctx, uint64_t seq, unsigned *len);
    const void *frame_ctx;
};
#define SB_SOURCE_LOOKAHEAD 8u

/* Buffer length of packet `seq`: min_len if min_len == max_len, else
 * uniform in [min_len, max_len] from a hash of (seed, seq). */
unsigned sb_pkt_len(const struct sb_gen_cfg *g, uint64_t seq);

/* Write the first `len` bytes of packet `seq` to buf (layout above).
 * len >= SB_HDR_LEN; shorter lengths write nothing. */
void sb_pkt_fill(const struct sb_gen_cfg *g, uint64_t seq, uint8_t *buf, unsigned len);

/* The same for packet `seq` of queue `queue` (0..SB_MAX_QUEUES - 1); queue
 * 0's are sb_pkt_len's and sb_pkt_fill's. */
unsigned sb_pkt_len_q(const struct sb_gen_cfg *g, unsigned queue, uint64_t seq);
void sb_pkt_fill_q(const struct sb_gen_cfg *g, unsigned queue, uint64_t seq, uint8_t *buf,
                   unsigned len);

struct sb_cfg {
    struct sb_gen_cfg gen;
    uint64_t expected;        /* packets the run will send, 0..SB_MAX_EXPECTED */
    unsigned max_outstanding; /* bound on packets published but not yet on the
                                 wire (the ring size, each queue's); 1..2^30 */
    unsigned queues;          /* 1..SB_MAX_QUEUES (0: 1); queue q expects
                                 sb_queue_expected() of the packets */
};

/* Packets queue q sends: floor(expected / queues), plus one for each of
 * the first expected mod queues queues. */
uint64_t sb_queue_expected(const struct sb_cfg *cfg, unsigned q);

struct scoreboard; /* opaque */

/* Returns NULL if cfg is invalid (lengths out of range or min > max,
 * expected or max_outstanding out of range) or memory is short. */
struct scoreboard *sb_create(const struct sb_cfg *cfg);
void sb_destroy(struct scoreboard *sb); /* NULL is fine */

/* A doorbell at time t published packets seq < count (count is cumulative
 * and never decreases; a smaller count is ignored).  Packets not stamped
 * before get doorbell time t.  Stamps live in a ring of max_outstanding
 * entries (rounded up to a power of two); publishing more than that ahead
 * of the wire overwrites stamps of unseen packets, which their frames later
 * count as stamp_overrun. */
void sb_note_published(struct scoreboard *sb, uint64_t count, sim_ps_t t);
/* The same for queue q's packets (sb_note_published is queue 0's); a q
 * beyond the run's queues is ignored. */
void sb_note_published_q(struct scoreboard *sb, unsigned q, uint64_t count, sim_ps_t t);
/* The device fetched queue q's descriptors of packets seq < count at t
 * (count is cumulative; a smaller one, or packets not published, are
 * ignored): each packet stamped but not yet fetched gets fetch time t. */
void sb_note_fetched_q(struct scoreboard *sb, unsigned q, uint64_t count, sim_ps_t t);

/* One frame seen on the wire: `len` bytes without FCS, the FCS the MAC
 * sent, and the time its first byte went out (non-decreasing from frame to
 * frame).  Frames whose seq (offset 14) is unreadable, below the next
 * expected seq or >= expected are corrupted and change nothing else; a seq
 * above the next expected counts the skipped ones as lost. */
void sb_check_frame(struct scoreboard *sb, const uint8_t *frame, unsigned len, uint32_t fcs,
                    sim_ps_t t_start);

/* Packet `seq` will not reach the wire, for reason `reason` (0..
 * SB_MAX_REASONS - 1, the caller's numbering): the driver reclaimed it
 * without sending it (a queue reset), or a fault made the device skip it.
 * When the wire skips it, or the run ends without it, it counts in
 * dropped[reason] instead of lost; if a frame with that seq arrives after
 * all, it is checked as usual and the note is forgotten.  Notes live in the
 * stamp ring's window: seq must be in [next expected, next expected +
 * max_outstanding) and below expected.  0, or -1 (nothing noted) for a seq
 * outside the window or a bad reason. */
int sb_note_dropped(struct scoreboard *sb, uint64_t seq, unsigned reason);
/* The same for queue q's packet seq (sb_note_dropped is queue 0's); -1 for
 * a q beyond the run's queues. */
int sb_note_dropped_q(struct scoreboard *sb, unsigned q, uint64_t seq, unsigned reason);
/* The same for a drop that is final (a queue reset dropped it, after
 * reclaiming every packet the device sent before it): each packet of the
 * queue before seq has been seen or noted, and none of those noted and
 * seq will come.  The notes at the head of the queue's sequence, up to
 * seq, count as dropped at once, so the note window moves on: drops of
 * resets in a row, with no frame of the queue on the wire in between,
 * all fit. */
int sb_note_dropped_final_q(struct scoreboard *sb, unsigned q, uint64_t seq, unsigned reason);

/* End of run: packets never seen count as lost (or dropped, if noted).  Calling it again does
 * nothing.  A frame handed to sb_check_frame() after it is not the run's (the
 * device runs on while the harness reads its registers): it is counted in
 * after_end alone, neither checked nor corrupted, and changes no other
 * figure. */
void sb_finish(struct scoreboard *sb);

struct sb_result {
    uint64_t sent_expected; /* cfg.expected */
    uint64_t seen;          /* frames handed to sb_check_frame */
    uint64_t checked;       /* frames equal to what was sent */
    uint64_t lost;          /* neither seen nor noted as dropped */
    uint64_t dropped[SB_MAX_REASONS]; /* noted (sb_note_dropped) and not seen */
    uint64_t dropped_total;
    uint64_t corrupted;
    uint64_t unpublished;   /* frames on the wire before their doorbell */
    uint64_t stamp_overrun; /* frames whose doorbell stamp was overwritten
                               (more than max_outstanding ahead of the wire) */
    double mpps, gbps;      /* steady-state rate, see sb_result(); NAN: not measurable */
    double lat_p50_ns, lat_p99_ns, lat_max_ns; /* NAN without samples */
    uint64_t lat_samples;   /* frames with a doorbell-to-wire latency */
    uint64_t lat_unrecorded; /* of those, not in the histogram (SB_LAT_MAX_NS
                                or more, or memory was short): p50/p99 are
                                NAN if nonzero */
    /* the latency's parts, for the frames whose fetch was noted */
    uint64_t lat_split_samples;
    double lat_queue_p50_ns, lat_queue_p99_ns;     /* doorbell to fetch */
    double lat_service_p50_ns, lat_service_p99_ns; /* fetch to wire */
    uint64_t frame_bytes;   /* sum of frame sizes incl. FCS, checked frames */
    uint64_t wire_bytes;    /* sum of frame sizes incl. FCS, every frame seen */
    uint64_t after_end;     /* frames on the wire after sb_finish (not in seen) */
};

/* Results so far.
 *
 * Figures that cannot be measured are NAN (the report prints them as null
 * and "n/a"), never 0 or a guess.
 *
 * Rate: with n frames seen at start times t_i, k1 = n - 1 and k0 = n / 10
 * (warm-up excluded) if n >= 20, else 0; mpps = (k1 - k0) / (t_k1 - t_k0)
 * per microsecond and gbps = 8 * (frame bytes incl. FCS of frames
 * k0..k1-1) / (t_k1 - t_k0) in bits per ns.  Both NAN when the window holds
 * no interval to time: n < 2 (a one-frame run has no rate), or t_k1 ==
 * t_k0.  k0 is capped at expected / 10 + 102 (for n more than about
 * expected + 1000: a run with that many unexpected frames), and for a run
 * that ends more than about 327 k frames short of expected, k0 is rounded
 * down to a sampled frame (sb_rate.h; exact for runs of up to 367 k).
 *
 * Latency: doorbell stamp to frame start, in a histogram of 1 ns bins up
 * to SB_LAT_MAX_NS (see Cost above); p50/p99 are the lower edge (in
 * ns) of the bin where the cumulative count first reaches ceil(q *
 * samples), so they equal that sample's latency rounded down to the ns;
 * max is exact (ps resolution).  All three NAN without samples; p50/p99
 * also NAN if lat_unrecorded > 0. */
void sb_result(const struct scoreboard *sb, struct sb_result *out);

/* One queue's figures. */
struct sb_queue_result {
    uint64_t expected;     /* packets it sends */
    uint64_t seen, checked, lost, dropped, corrupted;
    uint64_t wire_bytes;   /* frames incl. FCS, every frame of the queue */
    uint64_t window_bytes; /* of those, in the contended window (up to the
                              latest frame if no queue has sent its last
                              frame; 0 before the window opens) */
    double gbps;           /* 8 x window_bytes over the window; NAN if the
                              window is empty or not open */
};
unsigned sb_queues(const struct scoreboard *sb);
/* 0, or -1 (zeroed) for a q beyond the run's queues. */
int sb_queue_result(const struct scoreboard *sb, unsigned q, struct sb_queue_result *out);
/* The contended window, ns: from the start of the frame that made every
 * queue have sent one to the start of the first frame that was the last
 * of its queue (the latest frame if none was); NAN until every queue has
 * sent a frame. */
double sb_window_ns(const struct scoreboard *sb);

/* Descriptions of the first SB_MAX_MISMATCH corrupted frames: the count
 * kept, and line i ("seq S: offset O: reason"), NULL if i >= count. */
size_t sb_mismatch_count(const struct scoreboard *sb);
const char *sb_mismatch(const struct scoreboard *sb, size_t i);

#endif /* NICTX_SCOREBOARD_H */
