/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_mac.c - the transmit MAC of the C model (cm_mac.h), after the contract
 * in rtl/nictx_mac.sv's header.
 */
#include "cm_mac.h"

#include "lib/crc32.h"

#define CM_MAC_WAKE_NEVER 0xFFFFFFu /* wake: no bound (24 bits of ones) */

int cm_mac_reset(struct cm_mac *m, unsigned data_bytes)
{
    if (data_bytes != 8 && data_bytes != 16 && data_bytes != 32 && data_bytes != 64)
        return -1;
    m->data_bytes = data_bytes;
    m->credit = 0;
    m->in_frame = false;
    m->crc = 0xFFFFFFFFu;
    return 0;
}

static bool cm_mac_send(const struct cm_mac *m, const struct cm_mac_in *in, bool *valid)
{
    *valid = in->fr_valid && !in->fr_skip && (m->in_frame || (in->fr_sop && m->credit >= 0));
    return *valid && in->wire_ready;
}

/* The clocks a frame waiting for credit may leave out after this one: the
 * clocks whose growth still leaves the credit below 0, less one. */
static uint32_t cm_mac_wake(const struct cm_mac *m, const struct cm_mac_in *in)
{
    if (!in->fr_valid || in->fr_skip || m->in_frame || m->credit >= 0 || in->line_rate == 0)
        return CM_MAC_WAKE_NEVER;
    uint32_t owed = (uint32_t)(-((int64_t)m->credit + 1));
    uint32_t clocks = owed / in->line_rate;
    if (clocks > 0xFFFFFEu)
        return 0xFFFFFDu;
    return clocks == 0 ? 0 : clocks - 1;
}

/* The CRC register after this beat (the FCS so far is its inverse). */
static uint32_t cm_mac_crc(const struct cm_mac *m, const struct cm_mac_in *in)
{
    return crc32_update(in->fr_sop ? 0xFFFFFFFFu : m->crc, in->fr_data, in->fr_bytes);
}

/* The outputs (cm_mac_send's valid and send), with the CRC register after
 * a beat sent (crc). */
static void cm_mac_outputs(const struct cm_mac *m, const struct cm_mac_in *in, bool valid,
                           bool send, uint32_t crc, struct cm_mac_out *out)
{
    bool skip_beat = in->fr_valid && in->fr_skip;

    out->wire_valid = valid;
    out->fr_ready = skip_beat || send;
    out->wire_sop = in->fr_sop;
    out->wire_eop = in->fr_eop;
    out->wire_data = in->fr_data;
    out->wire_bytes = in->fr_bytes;
    out->wire_fcs = send ? ~crc : 0;
    out->pkt_done = (send && in->fr_eop) || skip_beat;
    out->pkt_len = in->fr_len;
    out->pkt_q = in->fr_q;
    out->wait = !send && !skip_beat;
    out->wake = cm_mac_wake(m, in);
    out->idle = cm_mac_idle(m);
}

void cm_mac_eval(const struct cm_mac *m, const struct cm_mac_in *in, struct cm_mac_out *out)
{
    bool valid, send = cm_mac_send(m, in, &valid);

    cm_mac_outputs(m, in, valid, send, send ? cm_mac_crc(m, in) : 0, out);
}

/* The rising edge, with the CRC register after a beat sent (crc). */
static void cm_mac_edge(struct cm_mac *m, const struct cm_mac_in *in, bool send, uint32_t crc)
{
    /* The credit grows by a clock's worth, for this clock and each one
     * left out before it; a frame's start costs its bytes on the wire. */
    int64_t credit = (int64_t)m->credit + in->line_rate + (int64_t)in->line_rate * in->skip;

    if (send) {
        if (in->fr_sop)
            credit -= (int64_t)(in->fr_len + 24u) << 16;
        m->crc = crc;
        m->in_frame = !in->fr_eop;
    }
    /* Nothing waiting saves no credit; a frame waiting saves at most one
     * clock's worth. */
    if (!in->fr_valid && credit > 0)
        credit = 0;
    if (credit > (int64_t)in->line_rate)
        credit = in->line_rate;
    m->credit = (int32_t)credit;
}

void cm_mac_clock(struct cm_mac *m, const struct cm_mac_in *in)
{
    bool valid, send = cm_mac_send(m, in, &valid);

    cm_mac_edge(m, in, send, send ? cm_mac_crc(m, in) : 0);
}

bool cm_mac_stream(struct cm_mac *m, const struct cm_mac_in *in, uint32_t *fcs)
{
    bool valid, send = cm_mac_send(m, in, &valid);
    uint32_t crc = send ? cm_mac_crc(m, in) : 0;

    cm_mac_edge(m, in, send, crc);
    *fcs = ~crc;
    return send;
}

/* (cm_mac_edge()'s credit over n clocks with a frame offered: a clock's
 * worth more each, to one clock's worth at most.) */
void cm_mac_wait_start(struct cm_mac *m, unsigned n, uint32_t line_rate)
{
    const int64_t credit = (int64_t)m->credit + (int64_t)line_rate * n;

    m->credit = (int32_t)(credit > (int64_t)line_rate ? line_rate : credit);
}

/* (cm_mac_edge() n times: the credit grows by a clock's worth each, to one
 * clock's worth at most while a frame is offered, to 0 while none is.) */
uint32_t cm_mac_send_beats(struct cm_mac *m, const uint8_t *bytes, unsigned n, uint32_t line_rate)
{
    m->crc = crc32_update(m->crc, bytes, (size_t)n * m->data_bytes);
    cm_mac_wait_start(m, n, line_rate); /* (the credit alike) */
    return ~m->crc;
}

void cm_mac_no_frame(struct cm_mac *m, unsigned n, uint32_t line_rate)
{
    const int64_t credit = (int64_t)m->credit + (int64_t)line_rate * n;

    m->credit = (int32_t)(credit > 0 ? 0 : credit);
}

uint32_t cm_mac_credit_clocks(const struct cm_mac *m, uint32_t line_rate)
{
    /* cm_mac_send(): a first beat starts once the credit is not below 0;
     * each clock adds line_rate. */
    if (m->in_frame || m->credit >= 0 || line_rate == 0)
        return 0;
    const uint32_t owed = (uint32_t)-(int64_t)m->credit; /* 1 .. 2^31 */
    return (uint32_t)(((uint64_t)owed + line_rate - 1) / line_rate);
}

void cm_mac_step(struct cm_mac *m, const struct cm_mac_in *in, struct cm_mac_out *out)
{
    bool valid, send = cm_mac_send(m, in, &valid);
    uint32_t crc = send ? cm_mac_crc(m, in) : 0;

    cm_mac_outputs(m, in, valid, send, crc, out);
    cm_mac_edge(m, in, send, crc);
}
