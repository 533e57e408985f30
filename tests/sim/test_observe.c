/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_observe.c - what a run shows of itself (docs/observability.md):
 * the timeline against the run's counters, the waveform's window, the C
 * model's waveform against the RTL's (same names, same values), pcap out
 * read back with libpcap, a capture replayed (the IMIX capture this test
 * makes, shipped as tests/corpus/pcap/imix.pcap), and the snapshot a
 * failing run leaves.
 */
#define _DEFAULT_SOURCE /* getline, mkdtemp, the BSD types of pcap.h */
#include <pcap/pcap.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fstapi.h"
#include "lib/json_flat.h"
#include "run/harness.h"
#include "run/sim_world.h"

/* A scratch directory per test binary. */
static char dir[64];

static const char *path_in(const char *name)
{
    static char buf[4][256];
    static unsigned k;
    char *p = buf[k++ % 4];

    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

/* Run cfg on ops to its end; the result, the sim kept (the caller destroys). */
static struct sim *run(const struct sim_cfg *cfg, const struct device_ops *ops,
                       struct sim_result *r, int *rc)
{
    char err[512] = "";
    struct sim *s = sim_create(cfg, ops, err, sizeof(err));

    if (!s)
        fail_msg("sim_create: %s", err);
    *rc = sim_run(s);
    sim_result(s, r);
    return s;
}

/* ------------------------------------------------------------ the timeline */

/* Events of a timeline by track and name. */
struct tl_count {
    char track[40];
    char name[48];
    char ph;
    unsigned n;
    uint64_t dur_ps; /* slices: their durations, summed */
};

struct tl {
    struct tl_count c[512];
    unsigned n;
    char tracks[512][40]; /* tid -> thread name (per pid, tids are unique here) */
};

static void tl_add(struct tl *t, const char *track, const char *name, char ph, uint64_t dur)
{
    for (unsigned i = 0; i < t->n; i++)
        if (t->c[i].ph == ph && !strcmp(t->c[i].track, track) && !strcmp(t->c[i].name, name)) {
            t->c[i].n++;
            t->c[i].dur_ps += dur;
            return;
        }
    if (t->n < 512) {
        snprintf(t->c[t->n].track, sizeof(t->c[0].track), "%s", track);
        snprintf(t->c[t->n].name, sizeof(t->c[0].name), "%s", name);
        t->c[t->n].ph = ph;
        t->c[t->n].dur_ps = dur;
        t->c[t->n++].n = 1;
    }
}

/* A time as the timeline writes it (us with six decimals), in ps. */
static uint64_t us_text_ps(const char *v)
{
    const char *dot = strchr(v, '.');
    uint64_t ps = strtoull(v, NULL, 10) * 1000000u;

    if (dot)
        ps += strtoull(dot + 1, NULL, 10); /* always six digits */
    return ps;
}

static uint64_t tl_dur(const struct tl *t, const char *track, const char *name)
{
    uint64_t d = 0;

    for (unsigned i = 0; i < t->n; i++)
        if (t->c[i].ph == 'X' && !strcmp(t->c[i].track, track) && !strcmp(t->c[i].name, name))
            d += t->c[i].dur_ps;
    return d;
}

static unsigned tl_get(const struct tl *t, const char *track, const char *name, char ph)
{
    unsigned n = 0;

    for (unsigned i = 0; i < t->n; i++)
        if (t->c[i].ph == ph && (!track || !strcmp(t->c[i].track, track)) &&
            !strncmp(t->c[i].name, name, strlen(name)))
            n += t->c[i].n;
    return n;
}

/* One event (a JSON object on its line, as the writer puts each) into t. */
static void tl_event(struct tl *t, const char *line, size_t len)
{
    struct json_flat f;
    char err[256], ph = 0, name[96] = "", track[40] = "";
    unsigned tid = 0;
    uint64_t dur = 0;

    if (json_flat_parse(&f, line, len, err, sizeof(err)) != 0)
        fail_msg("timeline event %.*s: %s", (int)len, line, err);
    for (size_t i = 0; i < f.n; i++) {
        const char *key = f.items[i].key, *v = f.items[i].text;
        if (!strcmp(key, "ph"))
            ph = v[0];
        else if (!strcmp(key, "name"))
            snprintf(name, sizeof(name), "%s", v);
        else if (!strcmp(key, "tid"))
            tid = (unsigned)atoi(v);
        else if (!strcmp(key, "dur"))
            dur = us_text_ps(v);
        else if (!strcmp(key, "args.name") && tid < 512)
            snprintf(t->tracks[tid], sizeof(t->tracks[0]), "%s", v);
    }
    json_flat_free(&f);
    if (ph == 'M')
        return;
    snprintf(track, sizeof(track), "%s", tid < 512 ? t->tracks[tid] : "");
    tl_add(t, track, name, ph, dur);
}

/* Load a timeline and count its events.  The writer puts each event on a
 * line of its own; each must parse as JSON, and the document's frame
 * around them is checked as written (whole-document parses of big files
 * are slow with sim/lib/json_flat.c: test_observe_timeline_per_queue
 * parses one whole). */
static void tl_load(struct tl *t, const char *path)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0, events = 0;
    ssize_t n;
    int closed = 0;

    memset(t, 0, sizeof(*t));
    if (!f)
        fail_msg("%s: cannot read", path);
    while ((n = getline(&line, &cap, f)) > 0) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == ','))
            line[--n] = '\0';
        if (events == 0 && !strncmp(line, "{\"displayTimeUnit\"", 18))
            continue;
        if (!strcmp(line, "\"traceEvents\":["))
            continue;
        if (!strcmp(line, "]}")) {
            closed = 1;
            continue;
        }
        assert_false(closed);
        tl_event(t, line, (size_t)n);
        events++;
    }
    free(line);
    fclose(f);
    assert_true(closed && events > 0);
}

/* Every TLP of each direction, every doorbell, barrier and frame of a run
 * is on its timeline: the slice counts are the run's counters. */
static void test_observe_timeline_matches_counters(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;
    struct tl *t = calloc(1, sizeof(*t));
    struct sim *s;
    uint64_t h2d = 0, d2h = 0;
    int rc;

    (void)state;
    sim_cfg_default(&cfg);
    cfg.packets = 600;
    cfg.ordering = STBUF_WEAK; /* dma_wmb and wmb both issued */
    cfg.proto = TXQ_PROTO_OWNER;
    snprintf(cfg.obs.timeline, sizeof(cfg.obs.timeline), "%s", path_in("t.json"));
    s = run(&cfg, &dev_rtl_ops, &r, &rc);
    assert_int_equal(rc, 0);
    for (unsigned k = 0; k < TLP_KIND_COUNT; k++) {
        h2d += pcie_link_stats(s->h2d)->tlps[k];
        d2h += pcie_link_stats(s->d2h)->tlps[k];
    }
    tl_load(t, cfg.obs.timeline);
    assert_true(h2d > 600 && d2h > 600);
    for (unsigned k = 0; k < TLP_KIND_COUNT; k++) {
        assert_int_equal(tl_get(t, "h2d", tlp_kind_name(k), 'X'), pcie_link_stats(s->h2d)->tlps[k]);
        assert_int_equal(tl_get(t, "d2h", tlp_kind_name(k), 'X'), pcie_link_stats(s->d2h)->tlps[k]);
    }
    assert_int_equal(tl_get(t, "cpu0", "doorbell q0", 'i'), r.txq.doorbells);
    assert_int_equal(tl_get(t, "cpu0", "doorbell q0", 'i'),
                     pcie_link_stats(s->h2d)->tlps[TLP_KIND_DOORBELL]);
    assert_true(r.txq.dma_wmbs > 0 && r.txq.wmbs > 0);
    assert_int_equal(tl_get(t, "cpu0", "dma_wmb", 'X'), r.txq.dma_wmbs);
    assert_int_equal(tl_get(t, "cpu0", "wmb", 'X'), r.txq.wmbs);
    assert_int_equal(tl_get(t, "wire", "frame", 'X'), r.sb.seen);
    /* Each packet's flow: published, its descriptor fetched, its payload
     * fetched, on the wire. */
    assert_int_equal(tl_get(t, NULL, "packet", 's'), cfg.packets);
    assert_int_equal(tl_get(t, NULL, "packet", 'f'), cfg.packets);
    assert_int_equal(tl_get(t, NULL, "packet", 't'), 2 * cfg.packets);
    assert_true(tl_get(t, "desc fetch #0", "desc fetch", 'X') > 0);
    assert_true(tl_get(t, NULL, "tags in use", 'C') > 0);
    assert_true(tl_get(t, NULL, "ring q0", 'C') > 0);
    sim_destroy(s);
    free(t);
}

/* Credits short on the host-to-device link: the credit stall slices add
 * up to the stall time the link counted; BQL's limit is a counter. */
static void test_observe_timeline_credit_stalls(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;
    struct tl *t = calloc(1, sizeof(*t));
    struct sim *s;
    uint64_t stall = 0;
    int rc;

    (void)state;
    sim_cfg_default(&cfg);
    cfg.packets = 400;
    cfg.pkt_size = cfg.pkt_size_max = 1518;
    cfg.bql = 1;
    cfg.fc_dev.cplh = 2;
    cfg.fc_dev.cpld = 32;
    cfg.fc_dev.update_latency_ns = 100;
    cfg.fc_host.update_latency_ns = 100;
    snprintf(cfg.obs.timeline, sizeof(cfg.obs.timeline), "%s", path_in("fc.json"));
    s = run(&cfg, &dev_rtl_ops, &r, &rc);
    assert_int_equal(rc, 0);
    for (unsigned k = 0; k < PCIE_FC_TYPES; k++)
        stall += pcie_link_stats(s->h2d)->stall_ps[k];
    tl_load(t, cfg.obs.timeline);
    assert_true(stall > 0);
    assert_int_equal(tl_dur(t, "h2d credit stalls", "credit stall"), stall);
    assert_true(tl_get(t, NULL, "bql limit q0", 'C') > 0);
    sim_destroy(s);
    free(t);
}

/* With several queues, the engine's tracks are per queue. */
static void test_observe_timeline_per_queue(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;
    struct tl *t = calloc(1, sizeof(*t));
    struct sim *s;
    int rc;

    (void)state;
    sim_cfg_default(&cfg);
    cfg.packets = 200;
    cfg.queues = 2;
    cfg.irq_thresh = 8;
    snprintf(cfg.obs.timeline, sizeof(cfg.obs.timeline), "%s", path_in("q.json"));
    s = run(&cfg, &dev_rtl_ops, &r, &rc);
    assert_int_equal(rc, 0);
    {
        struct json_flat f; /* the whole document is JSON */
        char err[256];
        if (json_flat_load(&f, cfg.obs.timeline, err, sizeof(err)) != 0)
            fail_msg("%s", err);
        json_flat_free(&f);
    }
    tl_load(t, cfg.obs.timeline);
    assert_int_equal(tl_get(t, "q0 wire", "frame", 'X') + tl_get(t, "q1 wire", "frame", 'X'),
                     r.sb.seen);
    assert_true(tl_get(t, "q1 wire", "frame", 'X') > 0);
    assert_true(tl_get(t, "q1 interrupts", "interrupt", 'i') > 0);
    sim_destroy(s);
    free(t);
}

/* ------------------------------------------------------------ waveforms */

/* Every value change of an FST: per signal (full name), its (time, value)s. */
struct fst_sig {
    char name[160];
    unsigned n, cap;
    uint64_t *t;
    char **v;
};

struct fst_all {
    struct fst_sig *sig; /* by handle */
    unsigned nsig;
    struct { /* every name, aliases too (Verilator names a net of another's value so) */
        char name[160];
        unsigned h;
    } *names;
    unsigned nnames;
    uint64_t start, end, tmin, tmax;
};

static void fst_cb(void *ud, uint64_t t, fstHandle h, const unsigned char *val)
{
    struct fst_all *a = ud;
    struct fst_sig *s;

    if (h == 0 || h > a->nsig)
        return;
    s = &a->sig[h - 1];
    if (t < a->tmin)
        a->tmin = t;
    if (t > a->tmax)
        a->tmax = t;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->t = realloc(s->t, s->cap * sizeof(*s->t));
        s->v = realloc(s->v, s->cap * sizeof(*s->v));
    }
    s->t[s->n] = t;
    s->v[s->n++] = strdup((const char *)val);
}

static void fst_load(struct fst_all *a, const char *path)
{
    void *r = fstReaderOpen(path);
    struct fstHier *h;
    char scope[16][64];
    unsigned depth = 0;

    if (!r)
        fail_msg("%s: not an FST file", path);
    memset(a, 0, sizeof(*a));
    a->tmin = UINT64_MAX;
    a->nsig = (unsigned)fstReaderGetMaxHandle(r);
    a->sig = calloc(a->nsig + 1, sizeof(*a->sig));
    a->names = calloc(fstReaderGetVarCount(r) + 1, sizeof(*a->names));
    a->start = fstReaderGetStartTime(r);
    a->end = fstReaderGetEndTime(r);
    while ((h = fstReaderIterateHier(r))) {
        if (h->htyp == FST_HT_SCOPE && depth < 16)
            snprintf(scope[depth++], 64, "%s", h->u.scope.name);
        else if (h->htyp == FST_HT_UPSCOPE && depth)
            depth--;
        else if (h->htyp == FST_HT_VAR && h->u.var.handle <= a->nsig) {
            char *n = a->names[a->nnames].name;
            size_t len = 0;
            for (unsigned i = 0; i < depth; i++)
                len += (size_t)snprintf(n + len, 160 - len, "%s.", scope[i]);
            snprintf(n + len, 160 - len, "%s", h->u.var.name);
            a->names[a->nnames++].h = h->u.var.handle;
            if (!h->u.var.is_alias)
                snprintf(a->sig[h->u.var.handle - 1].name, 160, "%s", n);
        }
    }
    fstReaderSetFacProcessMaskAll(r);
    fstReaderIterBlocks(r, fst_cb, a, NULL);
    fstReaderClose(r);
}

static void fst_free(struct fst_all *a)
{
    for (unsigned i = 0; i < a->nsig; i++) {
        for (unsigned k = 0; k < a->sig[i].n; k++)
            free(a->sig[i].v[k]);
        free(a->sig[i].t);
        free(a->sig[i].v);
    }
    free(a->sig);
    free(a->names);
}

static const struct fst_sig *fst_find(const struct fst_all *a, const char *name)
{
    for (unsigned i = 0; i < a->nnames; i++)
        if (!strcmp(a->names[i].name, name))
            return &a->sig[a->names[i].h - 1];
    return NULL;
}

/* A window of 3 us from packet 100 on: the waveform holds that window and
 * nothing else. */
static void test_observe_wave_window(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;
    struct fst_all a;
    struct sim *s;
    int rc;

    (void)state;
    sim_cfg_default(&cfg);
    cfg.packets = 400;
    snprintf(cfg.obs.wave, sizeof(cfg.obs.wave), "%s", path_in("w.fst"));
    cfg.obs.from = (struct obs_point){8000000, 1, 0}; /* 8 us */
    cfg.obs.to = (struct obs_point){11000000, 1, 0};  /* 11 us */
    s = run(&cfg, &dev_rtl_ops, &r, &rc);
    assert_int_equal(rc, 0);
    sim_destroy(s);
    fst_load(&a, cfg.obs.wave);
    if (a.start < 8000000 || a.end >= 11000000 || a.tmin < 8000000 || a.tmax >= 11000000)
        fail_msg("window 8..11 us, file %llu..%llu ps, changes %llu..%llu ps",
                 (unsigned long long)a.start, (unsigned long long)a.end,
                 (unsigned long long)a.tmin, (unsigned long long)a.tmax);
    assert_true(a.end - a.start > 2900000); /* the window, not a piece of it */
    assert_non_null(fst_find(&a, "nictx.nictx_tx_top.doorbell"));
    fst_free(&a);
}

/* The window by packet numbers: from the driver posting packet 50 to frame
 * 60 leaving the wire. */
static void test_observe_wave_window_packets(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;
    struct fst_all a;
    struct sim *s;
    int rc;

    (void)state;
    sim_cfg_default(&cfg);
    cfg.packets = 200;
    snprintf(cfg.obs.wave, sizeof(cfg.obs.wave), "%s", path_in("p.fst"));
    cfg.obs.from = (struct obs_point){50, 1, 1};
    cfg.obs.to = (struct obs_point){60, 1, 1};
    s = run(&cfg, &dev_rtl_ops, &r, &rc);
    assert_int_equal(rc, 0);
    sim_destroy(s);
    fst_load(&a, cfg.obs.wave);
    /* 11 frames of 64 B at 10G: about 0.75 us; the posting of packet 50
     * comes a ring's latency before. */
    assert_true(a.end > a.start);
    assert_true(a.end - a.start < 5000000);
    assert_true(a.start > 1000000);
    fst_free(&a);
}

/* The C model's waveform names its signals as the RTL's does, with the
 * same values on every clock of the window. */
static void test_observe_wave_c_same_as_rtl(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;
    struct fst_all rtl, cm;
    struct sim *s;
    unsigned compared = 0;
    int rc;

    (void)state;
    sim_cfg_default(&cfg);
    cfg.packets = 300;
    cfg.pkt_size_max = 1518;
    cfg.obs.from = (struct obs_point){6000000, 1, 0};
    cfg.obs.to = (struct obs_point){12000000, 1, 0};
    snprintf(cfg.obs.wave, sizeof(cfg.obs.wave), "%s", path_in("rtl.fst"));
    s = run(&cfg, &dev_rtl_ops, &r, &rc);
    assert_int_equal(rc, 0);
    sim_destroy(s);
    snprintf(cfg.obs.wave, sizeof(cfg.obs.wave), "%s", path_in("c.fst"));
    s = run(&cfg, dev_cm_ops_width(8), &r, &rc);
    assert_int_equal(rc, 0);
    sim_destroy(s);
    fst_load(&rtl, path_in("rtl.fst"));
    fst_load(&cm, path_in("c.fst"));
    unsigned bad = 0;
    for (unsigned i = 0; i < cm.nsig; i++) {
        const struct fst_sig *c = &cm.sig[i], *v = fst_find(&rtl, c->name);
        unsigned k;
        if (!c->name[0])
            continue;
        compared++;
        if (!v) {
            print_error("the C model's %s is not in the RTL's waveform\n", c->name);
            bad++;
            continue;
        }
        for (k = 0; k < c->n && k < v->n; k++)
            if (c->t[k] != v->t[k] || strcmp(c->v[k], v->v[k]) != 0)
                break;
        if (k < c->n || k < v->n) {
            print_error("%s: change %u of %u (RTL: %u) at %llu ps: C model %s, RTL %s at %llu ps\n",
                        c->name, k, c->n, v->n, (unsigned long long)(k < c->n ? c->t[k] : 0),
                        k < c->n ? c->v[k] : "-", k < v->n ? v->v[k] : "-",
                        (unsigned long long)(k < v->n ? v->t[k] : 0));
            bad++;
        }
    }
    assert_int_equal(bad, 0);
    assert_true(compared > 100);
    fst_free(&rtl);
    fst_free(&cm);
}

/* Lockstep writes both models' waveforms: FILE and FILE.c.fst. */
static void test_observe_wave_lockstep_both(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;
    struct sim *s;
    int rc;

    (void)state;
    sim_cfg_default(&cfg);
    cfg.packets = 50;
    cfg.device = DEV_BACKEND_LOCKSTEP;
    snprintf(cfg.obs.wave, sizeof(cfg.obs.wave), "%s", path_in("ls.fst"));
    s = run(&cfg, dev_lockstep_ops_width(8), &r, &rc);
    assert_int_equal(rc, 0);
    sim_destroy(s);
    assert_int_equal(access(path_in("ls.fst"), R_OK), 0);
    assert_int_equal(access(path_in("ls.c.fst"), R_OK), 0);
}

/* ------------------------------------------------------------ pcap */

/* Every frame off the wire in the capture, FCS-less, with its bytes. */
static void test_observe_pcap_out(void **state)
{
    char ebuf[PCAP_ERRBUF_SIZE];
    struct sim_cfg cfg;
    struct sim_result r;
    struct pcap_pkthdr *h;
    const u_char *data;
    struct sim *s;
    uint8_t want[16384];
    uint64_t n = 0, prev = 0;
    pcap_t *p;
    int rc;

    (void)state;
    sim_cfg_default(&cfg);
    cfg.packets = 300;
    cfg.pkt_size_max = 1518;
    snprintf(cfg.obs.pcap_out, sizeof(cfg.obs.pcap_out), "%s", path_in("o.pcap"));
    s = run(&cfg, &dev_rtl_ops, &r, &rc);
    assert_int_equal(rc, 0);
    p = pcap_open_offline_with_tstamp_precision(cfg.obs.pcap_out, PCAP_TSTAMP_PRECISION_NANO,
                                                ebuf);
    if (!p)
        fail_msg("%s", ebuf);
    assert_int_equal(pcap_datalink(p), DLT_EN10MB);
    while (pcap_next_ex(p, &h, &data) == 1) {
        unsigned len = sb_pkt_len(&s->gen, n);
        uint64_t ns = (uint64_t)h->ts.tv_sec * 1000000000u + (uint64_t)h->ts.tv_usec;
        assert_int_equal(h->caplen, len);
        assert_int_equal(h->len, len);
        sb_pkt_fill(&s->gen, n, want, len);
        assert_memory_equal(data, want, len);
        assert_true(ns >= prev && ns > 0);
        prev = ns;
        n++;
    }
    pcap_close(p);
    assert_int_equal(n, cfg.packets);
    sim_destroy(s);
}

/* The IMIX capture: 7 : 4 : 1 frames of 64, 594 and 1518 bytes on the
 * wire (60, 590, 1514 without FCS), UDP over IPv4 with valid header
 * checksums, 24 frames 200 ns apart, mixed in a fixed order.  Written with
 * libpcap, nanosecond timestamps. */
static void imix_write(const char *path)
{
    static const unsigned order[12] = {0, 1, 0, 0, 2, 0, 1, 0, 0, 1, 0, 1};
    static const unsigned sizes[3] = {60, 590, 1514};
    pcap_t *dead = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 65535,
                                                        PCAP_TSTAMP_PRECISION_NANO);
    pcap_dumper_t *d = pcap_dump_open(dead, path);
    uint8_t f[1514];

    assert_non_null(d);
    for (unsigned i = 0; i < 24; i++) {
        unsigned len = sizes[order[i % 12]], ip_len = len - 14, sum = 0;
        struct pcap_pkthdr h;
        static const uint8_t hdr[34] = {
            0x02, 0x00, 0x00, 0x00, 0x00, 0x0b, 0x02, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x08, 0x00,
            0x45, 0x00, 0, 0, 0, 0, 0x40, 0x00, 0x40, 0x11, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2};
        memcpy(f, hdr, sizeof(hdr));
        f[16] = (uint8_t)(ip_len >> 8);
        f[17] = (uint8_t)ip_len;
        f[18] = 0;
        f[19] = (uint8_t)i; /* IP id */
        for (unsigned k = 14; k < 34; k += 2)
            sum += (unsigned)f[k] << 8 | f[k + 1];
        while (sum >> 16)
            sum = (sum & 0xffff) + (sum >> 16);
        f[24] = (uint8_t)(~sum >> 8);
        f[25] = (uint8_t)~sum;
        /* UDP 5000 -> 5001, no checksum; then a counting payload */
        f[34] = 0x13, f[35] = 0x88, f[36] = 0x13, f[37] = 0x89;
        f[38] = (uint8_t)((ip_len - 20) >> 8), f[39] = (uint8_t)(ip_len - 20);
        f[40] = f[41] = 0;
        for (unsigned k = 42; k < len; k++)
            f[k] = (uint8_t)(k + i);
        h.ts.tv_sec = 0;
        h.ts.tv_usec = (suseconds_t)(200 * i); /* ns (nanosecond precision) */
        h.caplen = h.len = len;
        pcap_dump((u_char *)d, &h, f);
    }
    pcap_dump_close(d);
    pcap_close(dead);
}

static int files_equal(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int ca, cb, same = fa && fb;

    while (same && ((ca = fgetc(fa)) != EOF || !feof(fb))) {
        cb = fgetc(fb);
        same = ca == cb;
        if (ca == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* The shipped IMIX capture is the one this test makes; replayed, every
 * frame reaches the wire as captured: none lost, none corrupted. */
static void test_observe_pcap_in_imix(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;
    struct sim *s;
    int rc;

    (void)state;
    imix_write(path_in("imix.pcap"));
    if (getenv("NICTX_WRITE_IMIX")) /* make it anew: NICTX_WRITE_IMIX=PATH */
        imix_write(getenv("NICTX_WRITE_IMIX"));
    if (!files_equal(path_in("imix.pcap"), "tests/corpus/pcap/imix.pcap"))
        fail_msg("tests/corpus/pcap/imix.pcap is not the capture this test makes (%s)",
                 path_in("imix.pcap"));
    sim_cfg_default(&cfg);
    cfg.packets = 240; /* the capture ten times over */
    snprintf(cfg.obs.pcap_in, sizeof(cfg.obs.pcap_in), "%s", "tests/corpus/pcap/imix.pcap");
    s = run(&cfg, &dev_rtl_ops, &r, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(r.sb.lost, 0);
    assert_int_equal(r.sb.corrupted, 0);
    assert_int_equal(r.sb.checked, cfg.packets);
    /* 7 : 4 : 1 of 64, 594, 1518 B with FCS, ten times over. */
    assert_int_equal(r.sb.frame_bytes, 10 * 2 * (7 * 64 + 4 * 594 + 1518));
    sim_destroy(s);
}

/* With its timing (x10: 2 us apart), the frames leave no earlier than
 * captured: 24 frames take at least 23 gaps. */
static void test_observe_pcap_in_timing(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;
    struct sim *s;
    int rc;

    (void)state;
    sim_cfg_default(&cfg);
    cfg.packets = 24;
    cfg.obs.pcap_timing = 10;
    snprintf(cfg.obs.pcap_in, sizeof(cfg.obs.pcap_in), "%s", "tests/corpus/pcap/imix.pcap");
    s = run(&cfg, &dev_rtl_ops, &r, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(r.sb.checked, 24);
    assert_true(r.sim_time_ps >= 23 * 2000000ull);
    sim_destroy(s);
}

/* ------------------------------------------------------------ the snapshot */

/* A run that stops on a catalogue bug leaves its snapshot: the timeline of
 * the window before the stop holds the violation and the stop, and the
 * waveform ends at the stop. */
static void test_observe_snapshot_on_violation(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;
    struct tl *t = calloc(1, sizeof(*t));
    struct fst_all a;
    char msg[2400];
    struct sim *s;
    int rc;

    (void)state;
    sim_cfg_default(&cfg);
    cfg.packets = 3000;
    cfg.ordering = STBUF_WEAK;
    cfg.bug = DRV_BUG_NO_WMB_DOORBELL;
    cfg.grace_us = 2;
    s = run(&cfg, &dev_rtl_ops, &r, &rc);
    assert_int_equal(rc, 1);
    assert_int_equal(sim_snapshot(s, path_in("bug.json"), msg, sizeof(msg)), 0);
    if (!strstr(msg, "bug.snapshot.json (timeline)") || !strstr(msg, "bug.snapshot.fst (waveform)"))
        fail_msg("%s", msg);
    tl_load(t, path_in("bug.snapshot.json"));
    assert_true(tl_get(t, "violations", "violation: doorbell_before_desc", 'i') >= 1);
    assert_int_equal(tl_get(t, "run", "run stopped", 'i'), 1);
    fst_load(&a, path_in("bug.snapshot.fst"));
    assert_true(a.end < sim_now(s) && a.end + 10000 >= sim_now(s) - 4000);
    assert_true(sim_now(s) - a.start <= sim_ns_to_ps(1000.0 * (cfg.obs.snapshot_us + cfg.grace_us)) +
                                             10000);
    fst_free(&a);
    sim_destroy(s);
    free(t);
}

/* --no-snapshot: none. */
static void test_observe_no_snapshot(void **state)
{
    struct sim_cfg cfg;
    struct sim_result r;
    char msg[256];
    struct sim *s;
    int rc;

    (void)state;
    sim_cfg_default(&cfg);
    cfg.packets = 3000;
    cfg.ordering = STBUF_WEAK;
    cfg.bug = DRV_BUG_NO_WMB_DOORBELL;
    cfg.obs.no_snapshot = 1;
    s = run(&cfg, &dev_rtl_ops, &r, &rc);
    assert_int_equal(rc, 1);
    assert_int_equal(sim_snapshot(s, path_in("none.json"), msg, sizeof(msg)), -1);
    assert_int_not_equal(access(path_in("none.snapshot.json"), F_OK), 0);
    sim_destroy(s);
}

/* A run with none of these options has no tracer: every hook is one
 * branch on a NULL pointer. */
static void test_observe_off_has_no_tracer(void **state)
{
    struct sim_cfg cfg;
    char err[256];
    struct sim *s;

    (void)state;
    sim_cfg_default(&cfg);
    cfg.packets = 10;
    s = sim_create(&cfg, &dev_rtl_ops, err, sizeof(err));
    assert_non_null(s);
    assert_null(s->obs);
    sim_destroy(s);
}

/* ------------------------------------------------------------ bounds */

static void test_observe_point_parse(void **state)
{
    struct obs_point p;
    char why[160], buf[32];

    (void)state;
    assert_int_equal(obs_point_parse("12.5us", &p, why, sizeof(why)), 0);
    assert_true(p.set && !p.pkt && p.v == 12500000);
    assert_int_equal(obs_point_parse("800ns", &p, why, sizeof(why)), 0);
    assert_true(p.v == 800000);
    assert_int_equal(obs_point_parse("100", &p, why, sizeof(why)), 0);
    assert_true(p.pkt && p.v == 100);
    obs_point_format(&p, buf, sizeof(buf));
    assert_string_equal(buf, "100");
    assert_int_equal(obs_point_parse("2ms", &p, why, sizeof(why)), 0);
    obs_point_format(&p, buf, sizeof(buf));
    assert_string_equal(buf, "2000us");
    assert_int_equal(obs_point_parse("12.5", &p, why, sizeof(why)), -1);
    assert_int_equal(obs_point_parse("5 us", &p, why, sizeof(why)), -1);
    assert_int_equal(obs_point_parse("5min", &p, why, sizeof(why)), -1);
    assert_int_equal(obs_point_parse("", &p, why, sizeof(why)), -1);
    assert_int_equal(obs_point_parse("007", &p, why, sizeof(why)), -1);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof(dir), "/tmp/nictx-observe-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[128];

    (void)state;
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_observe_point_parse),
        cmocka_unit_test(test_observe_off_has_no_tracer),
        cmocka_unit_test(test_observe_timeline_matches_counters),
        cmocka_unit_test(test_observe_timeline_credit_stalls),
        cmocka_unit_test(test_observe_timeline_per_queue),
        cmocka_unit_test(test_observe_wave_window),
        cmocka_unit_test(test_observe_wave_window_packets),
        cmocka_unit_test(test_observe_wave_c_same_as_rtl),
        cmocka_unit_test(test_observe_wave_lockstep_both),
        cmocka_unit_test(test_observe_pcap_out),
        cmocka_unit_test(test_observe_pcap_in_imix),
        cmocka_unit_test(test_observe_pcap_in_timing),
        cmocka_unit_test(test_observe_snapshot_on_violation),
        cmocka_unit_test(test_observe_no_snapshot),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
