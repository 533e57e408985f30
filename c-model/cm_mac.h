/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_mac.h - the transmit MAC of the C model (docs/c-model.md), cycle-exact
 * at the ports of rtl/nictx_mac.sv: line-rate pacing by a byte credit, the
 * Ethernet FCS of each frame, the frame beats passed to the wire, and the
 * skipped-clock interface (wait, wake, skip) of sim/device/device.h.
 *
 * Written from the RTL's contract, not from its netlist: the FCS is the
 * byte-wise table CRC-32 of IEEE 802.3 (the RTL's is a nibble network), the
 * pacing the arithmetic the RTL's header states.  tests/rtl/test_mac.cpp runs
 * both in lockstep on random legal streams and compares every output on
 * every clock.
 *
 * A clock, as the RTL's: present the inputs (struct cm_mac_in), read the
 * outputs of this clock (cm_mac_eval: combinational, no state changes),
 * then take the rising edge (cm_mac_clock, with the same inputs).  Each
 * struct cm_mac is one MAC; nothing is shared between them.
 */
#ifndef NICTX_CM_MAC_H
#define NICTX_CM_MAC_H

#include <stdbool.h>
#include <stdint.h>

#define CM_MAC_MAX_BYTES 64u /* the widest beat (DataBytes) */

struct cm_mac_in {
    uint32_t line_rate;     /* bytes per clock, 8.16 fixed point (24 bits) */
    bool fr_valid, fr_sop, fr_eop, fr_skip;
    const uint8_t *fr_data; /* data_bytes bytes, byte 0 first on the wire */
    unsigned fr_bytes;      /* frame bytes in this beat, 1..data_bytes */
    unsigned fr_len;        /* the frame's length without FCS (14 bits) */
    unsigned fr_q;          /* the frame's queue */
    bool wire_ready;
    uint32_t skip;          /* clocks left out before this one (24 bits) */
};

struct cm_mac_out {
    bool fr_ready;
    bool wire_valid, wire_sop, wire_eop;
    const uint8_t *wire_data; /* the frame beat's bytes (fr_data) */
    unsigned wire_bytes;
    uint32_t wire_fcs;  /* the FCS of the frame so far, on a beat that leaves; else 0 */
    bool pkt_done;      /* a frame left (its last beat) or was skipped */
    unsigned pkt_len, pkt_q;
    bool wait;          /* nothing but the credit changes on this clock */
    uint32_t wake;      /* clocks that may be left out after this one (24 bits) */
    bool idle;
};

struct cm_mac {
    unsigned data_bytes; /* 8, 16, 32 or 64 */
    int32_t credit;      /* bytes, 16 fractional bits */
    bool in_frame;
    uint32_t crc;        /* the CRC register over the frame so far */
};

/* Reset a MAC of data_bytes (8, 16, 32 or 64) bytes a beat.  Returns -1
 * (and leaves m untouched) for another width. */
int cm_mac_reset(struct cm_mac *m, unsigned data_bytes);
/* This clock's outputs for these inputs. */
void cm_mac_eval(const struct cm_mac *m, const struct cm_mac_in *in, struct cm_mac_out *out);
/* The rising edge with these inputs. */
void cm_mac_clock(struct cm_mac *m, const struct cm_mac_in *in);
/* Both on one clock whose inputs are all known: eval's outputs, then the
 * edge on the same decisions (the beat's CRC worked out once). */
void cm_mac_step(struct cm_mac *m, const struct cm_mac_in *in, struct cm_mac_out *out);
/* cm_mac_step()'s edge on a clock with no frame's last beat, no skip beat
 * and no clocks left out before it (the engine's stream clocks), without
 * its outputs but these: whether the beat is sent, and then its FCS so
 * far in *fcs. */
bool cm_mac_stream(struct cm_mac *m, const struct cm_mac_in *in, uint32_t *fcs);
/* And n such clocks at once: each sending a beat of the frame it is in
 * (the n beats' bytes, n x data_bytes, none the last), returning the FCS so
 * far after them; or with no frame offered. */
uint32_t cm_mac_send_beats(struct cm_mac *m, const uint8_t *bytes, unsigned n, uint32_t line_rate);
void cm_mac_no_frame(struct cm_mac *m, unsigned n, uint32_t line_rate);
/* Out of a frame, the clocks from this one on on which a frame's first
 * beat offered does not start for want of credit (0: it may start now, or
 * no count: no line rate, whose credit never grows); and n of those clocks
 * at once (n at most that many), a frame's first beat offered on each. */
uint32_t cm_mac_credit_clocks(const struct cm_mac *m, uint32_t line_rate);
void cm_mac_wait_start(struct cm_mac *m, unsigned n, uint32_t line_rate);
/* idle (cm_mac_out), which the state alone gives. */
static inline bool cm_mac_idle(const struct cm_mac *m)
{
    return !m->in_frame && m->credit == 0;
}
/* The CRC-32 register after `len` bytes from `crc` (reflected, polynomial
 * 0xEDB88320, no final inversion): a frame's FCS is
 * ~cm_crc32(0xFFFFFFFF, frame, len). */
uint32_t cm_crc32(uint32_t crc, const uint8_t *p, unsigned len);

#endif
