/* SPDX-License-Identifier: Apache-2.0 */
/* obs_pcap.c - frames out to a capture, a capture in as traffic (obs_pcap.h). */
#define _DEFAULT_SOURCE /* the BSD types <pcap/pcap.h> uses */
#include "obs/obs_pcap.h"

#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "obs/obs_file.h"

/* A snap length that takes the largest frame whole. */
#define OBS_PCAP_SNAPLEN 65535

struct obs_pcap {
    struct obs_file of;
    pcap_t *dead;
    pcap_dumper_t *d;
};

struct obs_pcap *obs_pcap_open(const char *path, char *err, size_t n)
{
    struct obs_pcap *p = calloc(1, sizeof(*p));

    if (!p) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    if (obs_file_begin(&p->of, path, 0, err, n) != 0) {
        free(p);
        return NULL;
    }
    p->dead = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, OBS_PCAP_SNAPLEN,
                                                   PCAP_TSTAMP_PRECISION_NANO);
    if (p->dead)
        p->d = pcap_dump_open(p->dead, p->of.tmp);
    if (!p->d) {
        snprintf(err, n, "cannot create a file in its directory: %s",
                 p->dead ? pcap_geterr(p->dead) : "libpcap failed");
        if (p->dead)
            pcap_close(p->dead);
        free(p);
        return NULL;
    }
    return p;
}

void obs_pcap_write(struct obs_pcap *p, sim_ps_t t, const uint8_t *frame, unsigned len)
{
    struct pcap_pkthdr h;
    uint64_t ns = t / SIM_PS_PER_NS;

    /* With nanosecond precision tv_usec holds nanoseconds (pcap(3PCAP)). */
    h.ts.tv_sec = (time_t)(ns / 1000000000u);
    h.ts.tv_usec = (suseconds_t)(ns % 1000000000u);
    h.caplen = len;
    h.len = len;
    pcap_dump((u_char *)p->d, &h, frame);
}

int obs_pcap_close(struct obs_pcap *p, char *err, size_t n)
{
    int rc = pcap_dump_flush(p->d);

    pcap_dump_close(p->d);
    pcap_close(p->dead);
    if (rc != 0) {
        snprintf(err, n, "--pcap-out %s: cannot write", p->of.path);
        obs_file_abort(&p->of);
        free(p);
        return -1;
    }
    rc = obs_file_commit(&p->of, err, n);
    free(p);
    return rc;
}

void obs_pcap_abort(struct obs_pcap *p)
{
    if (!p)
        return;
    pcap_dump_close(p->d);
    pcap_close(p->dead);
    obs_file_abort(&p->of);
    free(p);
}

/* ------------------------------------------------------------ capture in */

void obs_capture_free(struct obs_capture *c)
{
    free(c->bytes);
    free(c->off);
    free(c->len);
    free(c->t);
    memset(c, 0, sizeof(*c));
}

static int cap_grow(struct obs_capture *c, size_t *cap, size_t *bcap, size_t need)
{
    if (c->n == *cap) {
        size_t m = *cap ? 2 * *cap : 1024;
        size_t *off = realloc(c->off, m * sizeof(*off));
        unsigned *len = off ? realloc(c->len, m * sizeof(*len)) : NULL;
        sim_ps_t *t = len ? realloc(c->t, m * sizeof(*t)) : NULL;
        if (off)
            c->off = off;
        if (len)
            c->len = len;
        if (!t)
            return -1;
        c->t = t;
        *cap = m;
    }
    if (need > *bcap) {
        size_t m = *bcap ? *bcap : 65536;
        while (m < need)
            m *= 2;
        uint8_t *b = realloc(c->bytes, m);
        if (!b)
            return -1;
        c->bytes = b;
        *bcap = m;
    }
    return 0;
}

/* The time of a record, ns since the epoch (the file's precision, asked as ns). */
static uint64_t rec_ns(const struct pcap_pkthdr *h)
{
    return (uint64_t)h->ts.tv_sec * 1000000000u + (uint64_t)h->ts.tv_usec;
}

int obs_capture_load(struct obs_capture *c, const char *path, char *err, size_t n)
{
    char ebuf[PCAP_ERRBUF_SIZE] = "";
    struct pcap_pkthdr *h;
    const u_char *data;
    size_t cap = 0, bcap = 0, used = 0;
    uint64_t t0 = 0, prev = 0;
    pcap_t *p;
    int rc;

    memset(c, 0, sizeof(*c));
    p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, ebuf);
    if (!p) {
        snprintf(err, n, "not a capture libpcap reads (%s)", ebuf);
        return -1;
    }
    if (pcap_datalink(p) != DLT_EN10MB) {
        snprintf(err, n, "link type %s; only Ethernet (EN10MB) frames can be sent",
                 pcap_datalink_val_to_name(pcap_datalink(p)) ? pcap_datalink_val_to_name(
                     pcap_datalink(p)) : "unknown");
        pcap_close(p);
        return -1;
    }
    while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
        unsigned len = h->caplen < OBS_CAP_MIN_LEN ? OBS_CAP_MIN_LEN : h->caplen;
        uint64_t ns = rec_ns(h);
        if (h->caplen < h->len) {
            snprintf(err, n, "frame %zu is cut short by the capture (%u of %u bytes; "
                     "capture with a larger snap length)", c->n + 1, h->caplen, h->len);
            goto fail;
        }
        if (h->caplen > OBS_CAP_MAX_LEN) {
            snprintf(err, n, "frame %zu has %u bytes; the device sends at most %u", c->n + 1,
                     h->caplen, OBS_CAP_MAX_LEN);
            goto fail;
        }
        if (cap_grow(c, &cap, &bcap, used + len) != 0) {
            snprintf(err, n, "out of memory at frame %zu", c->n + 1);
            goto fail;
        }
        if (c->n == 0)
            t0 = prev = ns;
        if (ns < prev) /* out of order: keep the order, no time going back */
            ns = prev;
        prev = ns;
        memcpy(c->bytes + used, data, h->caplen);
        memset(c->bytes + used + h->caplen, 0, len - h->caplen);
        c->off[c->n] = used;
        c->len[c->n] = len;
        c->t[c->n] = (ns - t0) * SIM_PS_PER_NS;
        used += len;
        if (c->n == 0 || len < c->min_len)
            c->min_len = len;
        if (len > c->max_len)
            c->max_len = len;
        c->n++;
    }
    if (rc == PCAP_ERROR) {
        snprintf(err, n, "read error after %zu frames: %s", c->n, pcap_geterr(p));
        goto fail;
    }
    pcap_close(p);
    if (c->n == 0) {
        snprintf(err, n, "the capture holds no frame");
        obs_capture_free(c);
        return -1;
    }
    c->span = c->t[c->n - 1];
    return 0;
fail:
    pcap_close(p);
    obs_capture_free(c);
    return -1;
}

int obs_capture_check(const char *path, char *err, size_t n)
{
    struct obs_capture c;

    if (obs_capture_load(&c, path, err, n) != 0)
        return -1;
    obs_capture_free(&c);
    return 0;
}

sim_ps_t obs_capture_due(const struct obs_capture *c, uint64_t seq, double scale)
{
    uint64_t loop = seq / c->n;
    /* A loop lasts the capture's span and one mean gap between its frames. */
    double gap = c->n > 1 ? (double)c->span / (double)(c->n - 1) : 0.0;
    double t = (double)c->t[seq % c->n] + (double)loop * ((double)c->span + gap);

    return (sim_ps_t)(t * scale + 0.5);
}
