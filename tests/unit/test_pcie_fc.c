/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_pcie_fc.c - cmocka tests for flow-control credits, UpdateFC DLLPs and
 * transaction ordering in sim/pcie/pcie_link.c (and the credit arithmetic in
 * sim/pcie/pcie_cfg.c).
 *
 * Expected times are computed here from the link's contract: a serialization
 * starts at max(ready time, end of the previous one), ends exactly (sub-ps
 * remainder kept), and arrives at the end rounded up to a whole ps plus the
 * latency; the rate is pcie_cfg_tlp_gbps() (or pcie_cfg_tlp_gbps_no_fc() on
 * a link that carries explicit UpdateFCs).  Default config: Gen3 x8, MPS
 * 256, latency 100 ns.  Wire sizes: MWr 64 B aligned = 88 B, MWr 256 B =
 * 280 B, MRd = 24 B, CplD 4096 B = 4116 B, UpdateFC = 8 B.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "pcie/pcie_cfg.h"
#include "pcie/pcie_link.h"

#define US 1000000ull
#define NS 1000ull

/* ---------------------------------------------------------------- helpers */

/* Reference serializer: the plain arithmetic of the contract. */
struct ref {
    sim_ps_t ps;
    double frac;
};

/* Serialize `bytes` at `ppb` ps/byte, ready at cand; returns the end rounded
 * up; *start (if not NULL) gets the whole-ps start. */
static sim_ps_t ref_run(struct ref *r, sim_ps_t cand, unsigned bytes, double ppb, sim_ps_t *start)
{
    double ser = (double)bytes * ppb, sf, end, whole;
    sim_ps_t sp;
    if (cand > r->ps) {
        sp = cand;
        sf = 0.0;
    } else {
        sp = r->ps;
        sf = r->frac;
    }
    end = sf + ser;
    whole = floor(end);
    r->ps = sp + (sim_ps_t)whole;
    r->frac = end - whole;
    if (start != NULL)
        *start = sp;
    return r->ps + (r->frac > 0.0 ? 1u : 0u);
}

static double ppb_of(double gbps)
{
    return 8000.0 / gbps;
}

/* splitmix64: deterministic test randomness from an explicit state. */
static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void mk(struct tlp *t, unsigned type, unsigned kind, uint64_t addr, unsigned len,
               unsigned ro)
{
    t->type = (uint8_t)type;
    t->kind = (uint8_t)kind;
    t->tag = (uint8_t)(addr >> 4);
    t->last = 1;
    t->addr = addr;
    t->len = (uint16_t)len;
    t->ro = (uint8_t)ro;
    for (unsigned i = 0; i < len && type != TLP_MRD; i++)
        t->data[i] = (uint8_t)(addr + i);
}

/* One end of the world: a link, whether its receiver frees each TLP as it
 * arrives, and what arrived. */
#define LOG_MAX 64
struct rec {
    sim_ps_t at;
    uint64_t addr;
    uint8_t type, ro;
};
struct side {
    struct pcie_link *link;
    int release;
    size_t n;
    struct rec log[LOG_MAX];
};

/* Pop (and release, if asked) every TLP on s that arrived by t. */
static void drain(struct side *s, sim_ps_t t)
{
    while (pcie_link_next_arrival(s->link) <= t) {
        const struct tlp *p = pcie_link_peek(s->link);
        sim_ps_t at = pcie_link_next_arrival(s->link);
        assert_non_null(p);
        if (s->n < LOG_MAX) {
            s->log[s->n].at = at;
            s->log[s->n].addr = p->addr;
            s->log[s->n].type = p->type;
            s->log[s->n].ro = p->ro;
        }
        s->n++;
        if (s->release)
            assert_int_equal(pcie_link_rx_release(s->link, at, p), 0);
        pcie_link_pop(s->link);
    }
}

/* Run the event loop of a (b may be NULL) up to `until`, the way a harness
 * does: jump to the next event, advance, take arrivals. */
static void drive(struct side *a, struct side *b, sim_ps_t until)
{
    for (;;) {
        sim_ps_t t = pcie_link_next_event(a->link), u;
        if (b != NULL && (u = pcie_link_next_event(b->link)) < t)
            t = u;
        if (t == SIM_PS_NEVER || t > until)
            break;
        pcie_link_advance(a->link, t);
        if (b != NULL)
            pcie_link_advance(b->link, t);
        drain(a, t);
        if (b != NULL)
            drain(b, t);
    }
}

/* Fixture: l (A->B) and m (B->A), paired, default config. */
struct fx {
    struct pcie_cfg cfg;
    struct side l, m;
    struct tlp *t;
    sim_ps_t lat;
};

static int setup(void **state)
{
    struct fx *f = calloc(1, sizeof *f);
    if (f == NULL)
        return -1;
    pcie_cfg_default(&f->cfg);
    f->l.link = pcie_link_create(&f->cfg);
    f->m.link = pcie_link_create(&f->cfg);
    f->t = calloc(1, sizeof *f->t);
    if (f->l.link == NULL || f->m.link == NULL || f->t == NULL)
        return -1;
    if (pcie_link_pair(f->l.link, f->m.link) != 0)
        return -1;
    f->l.release = f->m.release = 1;
    f->lat = sim_ns_to_ps(f->cfg.latency_ns);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    pcie_link_destroy(f->l.link);
    pcie_link_destroy(f->m.link);
    free(f->t);
    free(f);
    return 0;
}

/* Credits for l's receiver: everything infinite but the given type(s). */
static void set_l_fc(struct fx *f, unsigned type, unsigned n, unsigned type2, unsigned n2,
                     double upd_ns)
{
    struct pcie_fc_cfg fc;
    pcie_fc_cfg_infinite(&fc);
    fc.update_latency_ns = upd_ns;
    if (type == PCIE_FC_PH) fc.ph = n;
    if (type == PCIE_FC_PD) fc.pd = n;
    if (type == PCIE_FC_NPH) fc.nph = n;
    if (type2 == PCIE_FC_PD) fc.pd = n2;
    assert_int_equal(pcie_link_set_fc(f->l.link, &fc), 0);
}

/* ------------------------------------------------------- credit arithmetic */

static void test_pcie_fc_credit_arith(void **state)
{
    struct pcie_fc_cfg fc;
    char err[128];
    (void)state;
    assert_int_equal(pcie_tlp_fc_class(TLP_MWR), PCIE_FC_CLASS_P);
    assert_int_equal(pcie_tlp_fc_class(TLP_MRD), PCIE_FC_CLASS_NP);
    assert_int_equal(pcie_tlp_fc_class(TLP_CPLD), PCIE_FC_CLASS_CPL);
    assert_int_equal(pcie_tlp_fc_class(TLP_CPL), PCIE_FC_CLASS_CPL);
    assert_int_equal(pcie_tlp_fc_class(4), -1);
    assert_int_equal(pcie_tlp_data_credits(TLP_CPL, 0, 0), 0);
    assert_int_equal(pcie_tlp_wire_bytes(TLP_CPL, 0, 0), PCIE_CPLD_OVERHEAD_BYTES);
    /* Data credits: payload DWs in units of 4 DW. */
    assert_int_equal(pcie_tlp_data_credits(TLP_MWR, 0, 16), 1);
    assert_int_equal(pcie_tlp_data_credits(TLP_MWR, 0, 17), 2);  /* boundary: 1 B over */
    assert_int_equal(pcie_tlp_data_credits(TLP_MWR, 2, 14), 1);  /* 4 DWs exactly */
    assert_int_equal(pcie_tlp_data_credits(TLP_MWR, 2, 15), 2);  /* 5 DWs */
    assert_int_equal(pcie_tlp_data_credits(TLP_CPLD, 0, 256), 16);
    assert_int_equal(pcie_tlp_data_credits(TLP_CPLD, 0, 4096), 256);
    assert_int_equal(pcie_tlp_data_credits(TLP_MRD, 0, 512), 0); /* MRd: no data */
    assert_int_equal(pcie_tlp_data_credits(7, 0, 512), 0);
    assert_string_equal(pcie_fc_type_name(PCIE_FC_NPH), "nph");
    assert_string_equal(pcie_fc_type_name(PCIE_FC_CPLD), "cpld");
    assert_string_equal(pcie_fc_type_name(PCIE_FC_TYPES), "invalid");

    pcie_fc_cfg_infinite(&fc);
    assert_false(pcie_fc_cfg_any_finite(&fc));
    assert_int_equal(pcie_fc_cfg_validate(&fc, 256, err, sizeof err), 0);
    fc.pd = 15; /* boundary: one below MPS/16 */
    assert_int_equal(pcie_fc_cfg_validate(&fc, 256, err, sizeof err), -1);
    assert_non_null(strstr(err, "pd"));
    fc.pd = 16; /* boundary: exactly MPS/16 */
    assert_int_equal(pcie_fc_cfg_validate(&fc, 256, err, sizeof err), 0);
    assert_true(pcie_fc_cfg_any_finite(&fc));
    assert_int_equal(pcie_fc_cfg_limit(&fc, PCIE_FC_PD), 16);
    assert_int_equal(pcie_fc_cfg_validate(&fc, 512, err, sizeof err), -1); /* MPS 512: needs 32 */
    fc.pd = 0;
    fc.cplh = PCIE_FC_HDR_MAX + 1; /* boundary: above the scaled maximum */
    assert_int_equal(pcie_fc_cfg_validate(&fc, 256, err, sizeof err), -1);
    assert_non_null(strstr(err, "cplh"));
    fc.cplh = PCIE_FC_HDR_MAX;
    assert_int_equal(pcie_fc_cfg_validate(&fc, 256, err, sizeof err), 0);
    fc.npd = PCIE_FC_DATA_MAX + 1;
    assert_int_equal(pcie_fc_cfg_validate(&fc, 256, err, sizeof err), -1);
    fc.npd = 1;
    fc.update_latency_ns = -1.0;
    assert_int_equal(pcie_fc_cfg_validate(&fc, 256, err, sizeof err), -1);
    assert_non_null(strstr(err, "update_latency"));
    fc.update_latency_ns = NAN;
    assert_int_equal(pcie_fc_cfg_validate(&fc, 256, NULL, 0), -1);
    /* Boundary: the spec's UpdateFC timer (30 us -0%/+50%) returns pending
     * credits within 45 us at the latest. */
    fc.update_latency_ns = PCIE_FC_UPDATE_MAX_NS;
    assert_int_equal(pcie_fc_cfg_validate(&fc, 256, err, sizeof err), 0);
    fc.update_latency_ns = 45000.5;
    assert_int_equal(pcie_fc_cfg_validate(&fc, 256, err, sizeof err), -1);
    assert_non_null(strstr(err, "0..45000"));
    fc.update_latency_ns = 0.0;
    assert_int_equal(pcie_fc_cfg_validate(NULL, 256, NULL, 0), -1);
}

/* ---------------------------------------------------- infinite credits */

/*
 * Infinite credits (explicitly set, paired, advanced, released) give exactly
 * the timing of a plain unconfigured link and of the reference arithmetic:
 * start = max(send, previous end), whatever the RO bits.  Random traffic,
 * random gaps (many 0, some idle periods).
 */
static void test_pcie_fc_infinite_identical(void **state)
{
    struct fx *f = *state;
    struct pcie_link *plain = pcie_link_create(&f->cfg);
    struct pcie_fc_cfg fc;
    struct ref r = {0, 0.0};
    double ppb = ppb_of(pcie_cfg_tlp_gbps(&f->cfg));
    sim_ps_t now = 0, queue_ref[TLP_KIND_COUNT] = {0};
    uint64_t rng = 7;
    enum { N = 3000 };
    assert_non_null(plain);
    pcie_fc_cfg_infinite(&fc);
    fc.update_latency_ns = 500.0;
    assert_int_equal(pcie_link_set_fc(f->l.link, &fc), 0);
    assert_int_equal(pcie_link_set_fc(f->m.link, &fc), 0);
    /* No finite credits anywhere: statistical rate as before. */
    assert_true(pcie_link_tlp_gbps(f->l.link) == pcie_cfg_tlp_gbps(&f->cfg));
    assert_true(pcie_link_tlp_gbps(f->m.link) == pcie_cfg_tlp_gbps(&f->cfg));

    for (unsigned i = 0; i < N; i++) {
        uint64_t x = splitmix64(&rng);
        unsigned type = (unsigned)(x % 3), len = (unsigned)((x >> 8) % 512) + 1;
        unsigned kind = (unsigned)((x >> 20) % TLP_KIND_COUNT);
        sim_ps_t start, end, gap = (x >> 32) % 4 == 0 ? (x >> 40) % 200000 : 0;
        now += gap;
        mk(f->t, type, kind, (x >> 24) & 0xffff, len, (unsigned)(x >> 60) & 1);
        assert_int_equal(pcie_link_send(plain, now, f->t), 0);
        assert_int_equal(pcie_link_send(f->l.link, now, f->t), 0);
        end = ref_run(&r, now, pcie_tlp_wire_bytes(type, f->t->addr, len), ppb, &start);
        queue_ref[kind] += start - now;
        /* Committed at once: visible as an arrival, nothing queued. */
        assert_int_equal(pcie_link_queued(f->l.link), 0);
        assert_int_equal(pcie_link_next_event(f->l.link), pcie_link_next_arrival(f->l.link));
        while (pcie_link_next_arrival(plain) <= now) {
            const struct tlp *p = pcie_link_peek(f->l.link);
            assert_int_equal(pcie_link_next_arrival(f->l.link), pcie_link_next_arrival(plain));
            assert_int_equal(p->addr, pcie_link_peek(plain)->addr);
            assert_int_equal(p->ro, pcie_link_peek(plain)->ro);
            assert_int_equal(pcie_link_rx_release(f->l.link, now, p), 0); /* no-op */
            pcie_link_pop(plain);
            pcie_link_pop(f->l.link);
        }
        pcie_link_advance(f->l.link, now);
        pcie_link_advance(f->m.link, now);
        if (pcie_link_in_flight(plain) == 1)
            assert_int_equal(pcie_link_next_arrival(plain), end + f->lat);
    }
    while (pcie_link_in_flight(plain) > 0) {
        assert_int_equal(pcie_link_next_arrival(f->l.link), pcie_link_next_arrival(plain));
        pcie_link_pop(plain);
        pcie_link_pop(f->l.link);
    }
    assert_int_equal(pcie_link_next_event(f->l.link), SIM_PS_NEVER);
    {
        const struct pcie_link_stats *a = pcie_link_stats(plain), *b = pcie_link_stats(f->l.link);
        assert_int_equal(a->tlp_bytes, b->tlp_bytes);
        assert_int_equal(a->busy_ps, b->busy_ps);
        assert_int_equal(a->dllp_bytes, b->dllp_bytes);
        for (unsigned k = 0; k < PCIE_FC_TYPES; k++)
            assert_int_equal(b->stall_ps[k], 0);
        for (unsigned k = 0; k < TLP_KIND_COUNT; k++) {
            assert_int_equal(b->queue_ps[k], queue_ref[k]);
            assert_int_equal(a->queue_ps[k], queue_ref[k]);
        }
        assert_true(queue_ref[TLP_KIND_OTHER] > 0);
        assert_int_equal(pcie_link_stats(f->m.link)->updatefc_dllps, 0);
        assert_int_equal(pcie_link_credits(f->l.link, PCIE_FC_PH), UINT32_MAX);
    }
    pcie_link_destroy(plain);
}

/* --------------------------------------------------------- header credits */

/*
 * PH = 1, UpdateFC 2 us after the receiver frees a TLP: a burst of 10
 * posted writes needs a credit round trip per write:
 *   s0 = 0; a_k = s_k + ceil(ser88) + L (arrival, release)
 *   DLLP queued a_k + 2 us on idle m; credit back c_k = that + ceil(ser8) + L
 *   s_{k+1} = c_k.  stall_ps[PH] = s_9 (W_k waits from the start of W_{k-1}).
 */
static void test_pcie_fc_ph1_burst(void **state)
{
    struct fx *f = *state;
    double gl, gm;
    sim_ps_t s = 0, sum_s = 0, a;
    set_l_fc(f, PCIE_FC_PH, 1, PCIE_FC_TYPES, 0, 2000.0);
    gl = pcie_link_tlp_gbps(f->l.link);
    gm = pcie_link_tlp_gbps(f->m.link);
    assert_true(gl == pcie_cfg_tlp_gbps(&f->cfg));       /* l carries no UpdateFC */
    assert_true(gm == pcie_cfg_tlp_gbps_no_fc(&f->cfg)); /* m carries l's */
    for (unsigned k = 0; k < 10; k++) {
        mk(f->t, TLP_MWR, TLP_KIND_COMPLETION, 0x1000 + 64 * k, 64, 0);
        assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    }
    assert_int_equal(pcie_link_queued(f->l.link), 9);
    assert_int_equal(pcie_link_in_flight(f->l.link), 10);
    assert_int_equal(pcie_link_credits(f->l.link, PCIE_FC_PH), 0);
    drive(&f->l, &f->m, SIM_PS_NEVER);
    assert_int_equal(f->l.n, 10);
    for (unsigned k = 0; k < 10; k++) {
        struct ref rl = {s, 0.0}, rm = {0, 0.0};
        a = ref_run(&rl, s, 88, ppb_of(gl), NULL) + f->lat;
        assert_int_equal(f->l.log[k].at, a);
        assert_int_equal(f->l.log[k].addr, 0x1000 + 64 * k);
        sum_s += s;
        if (k < 9)
            s = ref_run(&rm, a + 2 * US, 8, ppb_of(gm), NULL) + f->lat;
    }
    /* ~10 round trips of 2 us + 2 x 100 ns. */
    assert_true(s >= 9 * (2 * US + 2 * f->lat));
    assert_int_equal(pcie_link_stats(f->l.link)->stall_ps[PCIE_FC_PH], s);
    for (unsigned k = 1; k < PCIE_FC_TYPES; k++)
        assert_int_equal(pcie_link_stats(f->l.link)->stall_ps[k], 0);
    assert_int_equal(pcie_link_stats(f->l.link)->queue_ps[TLP_KIND_COMPLETION], sum_s);
    /* One UpdateFC per release (2 us apart: nothing to coalesce), on m. */
    assert_int_equal(pcie_link_stats(f->m.link)->updatefc_dllps, 10);
    assert_int_equal(pcie_link_stats(f->m.link)->updatefc_bytes, 80);
    assert_int_equal(pcie_link_stats(f->l.link)->updatefc_dllps, 0);
    assert_int_equal(pcie_link_stats(f->m.link)->tlp_bytes, 0);
    assert_int_equal(pcie_link_credits(f->l.link, PCIE_FC_PH), 1); /* all back */
    assert_int_equal(pcie_link_next_event(f->l.link), SIM_PS_NEVER);
}

/*
 * PH = 2 over a 20 us link, UpdateFC at once: two writes per credit round
 * trip.  W0 and W1 go back to back; W_k (k >= 2) starts when W_{k-2}'s
 * credit is back: its arrival a_{k-2}, then its own UpdateFC on the idle
 * m (8 B), then the latency.  Nothing coalesces: each release comes after
 * the previous UpdateFC left.
 */
static void test_pcie_fc_ph2_long_link(void **state)
{
    struct fx *f = *state;
    struct pcie_cfg cfg = f->cfg;
    struct side l = {0}, m = {0};
    struct pcie_fc_cfg fc;
    struct ref rl = {0, 0.0}, rm = {0, 0.0};
    sim_ps_t lat, a[8], c[8];
    double pl, pm;

    cfg.latency_ns = 20000.0;
    lat = sim_ns_to_ps(cfg.latency_ns);
    l.link = pcie_link_create(&cfg);
    m.link = pcie_link_create(&cfg);
    assert_non_null(l.link);
    assert_non_null(m.link);
    l.release = m.release = 1;
    assert_int_equal(pcie_link_pair(l.link, m.link), 0);
    pcie_fc_cfg_infinite(&fc);
    fc.ph = 2;
    assert_int_equal(pcie_link_set_fc(l.link, &fc), 0);
    pl = ppb_of(pcie_link_tlp_gbps(l.link));
    pm = ppb_of(pcie_link_tlp_gbps(m.link));
    for (unsigned k = 0; k < 8; k++) {
        mk(f->t, TLP_MWR, TLP_KIND_DOORBELL, 0x1000 + 64 * k, 4, 0);
        assert_int_equal(pcie_link_send(l.link, 0, f->t), 0);
    }
    assert_int_equal(pcie_link_queued_class(l.link, PCIE_FC_CLASS_P), 6);
    drive(&l, &m, SIM_PS_NEVER);
    assert_int_equal(l.n, 8);
    for (unsigned k = 0; k < 8; k++) {
        sim_ps_t ready = k < 2 ? 0 : c[k - 2];
        a[k] = ref_run(&rl, ready, 28, pl, NULL) + lat; /* MWr 4 B: 24 + 4 */
        c[k] = ref_run(&rm, a[k], 8, pm, NULL) + lat;
        assert_int_equal(l.log[k].at, a[k]);
    }
    /* Four round trips of 2 x 20 us for eight writes. */
    assert_true(a[7] > 3 * 2 * lat + lat && a[7] < 4 * 2 * lat);
    assert_int_equal(pcie_link_stats(m.link)->updatefc_dllps, 8);
    assert_int_equal(pcie_link_credits(l.link, PCIE_FC_PH), 2);
    pcie_link_destroy(l.link);
    pcie_link_destroy(m.link);
}

/* Boundary: PH = 0 is infinite: the same burst goes back to back. */
static void test_pcie_fc_ph_infinite_no_stall(void **state)
{
    struct fx *f = *state;
    struct ref r = {0, 0.0};
    set_l_fc(f, PCIE_FC_PH, 0, PCIE_FC_TYPES, 0, 2000.0);
    assert_true(pcie_link_tlp_gbps(f->m.link) == pcie_cfg_tlp_gbps(&f->cfg));
    for (unsigned k = 0; k < 10; k++) {
        mk(f->t, TLP_MWR, TLP_KIND_COMPLETION, 0x1000 + 64 * k, 64, 0);
        assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    }
    assert_int_equal(pcie_link_queued(f->l.link), 0);
    drive(&f->l, &f->m, SIM_PS_NEVER);
    for (unsigned k = 0; k < 10; k++)
        assert_int_equal(f->l.log[k].at,
                         ref_run(&r, 0, 88, ppb_of(pcie_cfg_tlp_gbps(&f->cfg)), NULL) + f->lat);
    assert_int_equal(pcie_link_stats(f->l.link)->stall_ps[PCIE_FC_PH], 0);
    assert_int_equal(pcie_link_stats(f->m.link)->updatefc_dllps, 0);
}

/* ----------------------------------------------------------- data credits */

/*
 * PD = 32 (512 B), 256 B writes (16 credits each): two go at once, the
 * third waits for the first's credits.  The second's release (38 ns after
 * the first) rides on the first's UpdateFC, which then returns 32 credits:
 * the third and fourth go back to back.
 */
static void test_pcie_fc_pd_two_in_flight(void **state)
{
    struct fx *f = *state;
    double pl, pm;
    struct ref rl = {0, 0.0}, rm = {0, 0.0};
    sim_ps_t a0, a1, c0, s1, a2, a3;
    set_l_fc(f, PCIE_FC_PD, 32, PCIE_FC_TYPES, 0, 2000.0);
    pl = ppb_of(pcie_link_tlp_gbps(f->l.link));
    pm = ppb_of(pcie_link_tlp_gbps(f->m.link));
    for (unsigned k = 0; k < 4; k++) {
        mk(f->t, TLP_MWR, TLP_KIND_COMPLETION, 0x10000 + 256 * k, 256, 0);
        assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    }
    a0 = ref_run(&rl, 0, 280, pl, NULL) + f->lat;
    a1 = ref_run(&rl, 0, 280, pl, &s1) + f->lat;
    c0 = ref_run(&rm, a0 + 2 * US, 8, pm, NULL) + f->lat;
    a2 = ref_run(&rl, c0, 280, pl, NULL) + f->lat;
    a3 = ref_run(&rl, c0, 280, pl, NULL) + f->lat;
    assert_true(a1 - a0 < 2 * US); /* the premise of the coalescing */

    assert_int_equal(pcie_link_queued(f->l.link), 2);
    drive(&f->l, &f->m, c0 - 1);
    /* Just before the UpdateFC lands: two delivered, two still waiting. */
    assert_int_equal(f->l.n, 2);
    assert_int_equal(pcie_link_queued(f->l.link), 2);
    assert_int_equal(pcie_link_credits(f->l.link, PCIE_FC_PD), 0);
    assert_int_equal(pcie_link_credits(f->l.link, PCIE_FC_PH), UINT32_MAX);
    assert_int_equal(pcie_link_next_event(f->l.link), c0);
    /* At c0 the credits land and nothing can change the two starts any
     * more: both are committed to the serializer at once (neither waits
     * in the queue for its own start event). */
    pcie_link_advance(f->l.link, c0);
    assert_int_equal(pcie_link_queued(f->l.link), 0);
    assert_int_equal(pcie_link_in_flight(f->l.link), 2);
    drive(&f->l, &f->m, SIM_PS_NEVER);
    assert_int_equal(f->l.n, 4);
    assert_int_equal(f->l.log[0].at, a0);
    assert_int_equal(f->l.log[1].at, a1);
    assert_int_equal(f->l.log[2].at, a2);
    assert_int_equal(f->l.log[3].at, a3);
    /* W2 stalled on PD from W1's start to the UpdateFC; W3 never did. */
    assert_int_equal(pcie_link_stats(f->l.link)->stall_ps[PCIE_FC_PD], c0 - s1);
    assert_int_equal(pcie_link_stats(f->l.link)->stall_ps[PCIE_FC_PH], 0);
    /* Two UpdateFCs: {W0, W1} and {W2, W3}. */
    assert_int_equal(pcie_link_stats(f->m.link)->updatefc_dllps, 2);
    assert_int_equal(pcie_link_credits(f->l.link, PCIE_FC_PD), 32);
}

/* A TLP needing more data credits than advertised is refused (it could
 * never go); a config below MPS/16 is refused. */
static void test_pcie_fc_pd_too_big(void **state)
{
    struct fx *f = *state;
    struct pcie_fc_cfg fc;
    pcie_fc_cfg_infinite(&fc);
    fc.pd = 8; /* below 256/16 */
    assert_int_equal(pcie_link_set_fc(f->l.link, &fc), -1);
    fc.pd = 16;
    assert_int_equal(pcie_link_set_fc(f->l.link, &fc), 0);
    mk(f->t, TLP_MWR, TLP_KIND_OTHER, 0x1000, 512, 0); /* 32 credits > 16 */
    assert_int_equal(pcie_link_send(f->l.link, 0, f->t), -1);
    mk(f->t, TLP_MWR, TLP_KIND_OTHER, 0x1002, 256, 0); /* unaligned: 17 credits */
    assert_int_equal(pcie_link_send(f->l.link, 0, f->t), -1);
    assert_int_equal(pcie_link_in_flight(f->l.link), 0);
    mk(f->t, TLP_MWR, TLP_KIND_OTHER, 0x1000, 256, 0); /* boundary: exactly 16 */
    assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    assert_int_equal(pcie_link_credits(f->l.link, PCIE_FC_PD), 0);
    /* CplD and MRd are other classes: unaffected. */
    mk(f->t, TLP_CPLD, TLP_KIND_OTHER, 0x2000, 4096, 0);
    assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    assert_int_equal(pcie_link_queued(f->l.link), 0);
}

/* Short of both header and data credits: the header type is charged. */
static void test_pcie_fc_both_short_charges_header(void **state)
{
    struct fx *f = *state;
    set_l_fc(f, PCIE_FC_PH, 1, PCIE_FC_PD, 16, 1000.0);
    for (unsigned k = 0; k < 2; k++) {
        mk(f->t, TLP_MWR, TLP_KIND_OTHER, 0x1000 + 256 * k, 256, 0);
        assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    }
    drive(&f->l, &f->m, SIM_PS_NEVER);
    assert_int_equal(f->l.n, 2);
    /* W1 waited from W0's start (0) to the credits, which is its start. */
    assert_int_equal(pcie_link_stats(f->l.link)->stall_ps[PCIE_FC_PH],
                     pcie_link_stats(f->l.link)->queue_ps[TLP_KIND_OTHER]);
    assert_true(pcie_link_stats(f->l.link)->stall_ps[PCIE_FC_PH] > 1 * US);
    assert_int_equal(pcie_link_stats(f->l.link)->stall_ps[PCIE_FC_PD], 0);
}

/* --------------------------------------------------------------- ordering */

/*
 * PH = 1: W0 takes the credit, W1 stalls.  Behind it: a completion without
 * RO and a read with RO.  The read passes W1 (and the completion) and goes
 * right after W0; the completion does not pass W1.  Order: W0 R W1 C.
 */
static void test_pcie_fc_order_ro_passes_stalled_posted(void **state)
{
    struct fx *f = *state;
    struct ref r = {0, 0.0};
    double pl;
    set_l_fc(f, PCIE_FC_PH, 1, PCIE_FC_TYPES, 0, 1000.0);
    pl = ppb_of(pcie_link_tlp_gbps(f->l.link));
    mk(f->t, TLP_MWR, TLP_KIND_OTHER, 0x100, 64, 0);
    assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    mk(f->t, TLP_MWR, TLP_KIND_OTHER, 0x200, 64, 0);
    assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    mk(f->t, TLP_CPLD, TLP_KIND_OTHER, 0x300, 64, 0);
    assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    mk(f->t, TLP_MRD, TLP_KIND_OTHER, 0x400, 64, 1);
    assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    drive(&f->l, &f->m, SIM_PS_NEVER);
    assert_int_equal(f->l.n, 4);
    assert_int_equal(f->l.log[0].addr, 0x100);
    assert_int_equal(f->l.log[1].addr, 0x400);
    assert_int_equal(f->l.log[1].ro, 1);
    assert_int_equal(f->l.log[2].addr, 0x200);
    assert_int_equal(f->l.log[3].addr, 0x300);
    /* The read went right behind W0. */
    ref_run(&r, 0, 88, pl, NULL);
    assert_int_equal(f->l.log[1].at, ref_run(&r, 0, 24, pl, NULL) + f->lat);
    /* W1 starts when W0's credit is back (UpdateFC 1 us after W0 arrived,
     * on idle m); the completion goes right behind it. */
    {
        struct ref rm = {0, 0.0}, r2 = {0, 0.0};
        sim_ps_t a0 = f->l.log[0].at;
        sim_ps_t c = ref_run(&rm, a0 + 1 * US, 8, ppb_of(pcie_link_tlp_gbps(f->m.link)), NULL) +
                     f->lat;
        assert_int_equal(f->l.log[2].at, ref_run(&r2, c, 88, pl, NULL) + f->lat);
        assert_int_equal(f->l.log[3].at, ref_run(&r2, c, 84, pl, NULL) + f->lat);
        assert_int_equal(pcie_link_stats(f->l.link)->stall_ps[PCIE_FC_PH], c);
    }
}

/* Boundary: the same read without RO stays behind the stalled write. */
static void test_pcie_fc_order_read_waits_for_posted(void **state)
{
    struct fx *f = *state;
    set_l_fc(f, PCIE_FC_PH, 1, PCIE_FC_TYPES, 0, 1000.0);
    mk(f->t, TLP_MWR, TLP_KIND_OTHER, 0x100, 64, 0);
    assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    mk(f->t, TLP_MWR, TLP_KIND_OTHER, 0x200, 64, 0);
    assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    mk(f->t, TLP_MRD, TLP_KIND_OTHER, 0x400, 64, 0);
    assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    /* Nothing can start until W0's credit returns. */
    assert_int_equal(pcie_link_queued(f->l.link), 2);
    assert_int_equal(pcie_link_next_event(f->l.link), pcie_link_next_arrival(f->l.link));
    drive(&f->l, &f->m, SIM_PS_NEVER);
    assert_int_equal(f->l.n, 3);
    assert_int_equal(f->l.log[1].addr, 0x200);
    assert_int_equal(f->l.log[2].addr, 0x400);
    assert_true(f->l.log[2].at > f->l.log[1].at);
    assert_true(f->l.log[1].at > 1 * US); /* a credit round trip later */
}

/* NPH = 1: R0 takes the credit, R1 stalls; a posted write and a completion
 * sent after R1 both pass it (deadlock avoidance / CPL may pass NP). */
static void test_pcie_fc_order_pass_stalled_read(void **state)
{
    struct fx *f = *state;
    struct ref r = {0, 0.0};
    double pl;
    set_l_fc(f, PCIE_FC_NPH, 1, PCIE_FC_TYPES, 0, 1000.0);
    pl = ppb_of(pcie_link_tlp_gbps(f->l.link));
    mk(f->t, TLP_MRD, TLP_KIND_DESC_RD, 0x100, 64, 0);
    assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    mk(f->t, TLP_MRD, TLP_KIND_DESC_RD, 0x200, 64, 0);
    assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    mk(f->t, TLP_MWR, TLP_KIND_COMPLETION, 0x300, 64, 0);
    assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    mk(f->t, TLP_CPLD, TLP_KIND_MMIO_CPL, 0x4, 4, 0);
    assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    /* W and C are not the oldest queued TLP (R1 is), so they are started
     * by an event: when the serializer is done with R0. */
    assert_int_equal(pcie_link_queued(f->l.link), 3);
    assert_int_equal(pcie_link_next_event(f->l.link), (sim_ps_t)ceil(24.0 * pl));
    assert_true(pcie_link_next_arrival(f->l.link) > (sim_ps_t)ceil(24.0 * pl));
    drive(&f->l, &f->m, SIM_PS_NEVER);
    assert_int_equal(f->l.n, 4);
    assert_int_equal(f->l.log[0].addr, 0x100);
    assert_int_equal(f->l.log[1].addr, 0x300);
    assert_int_equal(f->l.log[2].addr, 0x4);
    assert_int_equal(f->l.log[3].addr, 0x200);
    ref_run(&r, 0, 24, pl, NULL);
    assert_int_equal(f->l.log[1].at, ref_run(&r, 0, 88, pl, NULL) + f->lat);
    assert_int_equal(f->l.log[2].at, ref_run(&r, 0, 24, pl, NULL) + f->lat);
    assert_true(pcie_link_stats(f->l.link)->stall_ps[PCIE_FC_NPH] > 1 * US);
    assert_int_equal(pcie_link_stats(f->l.link)->stall_ps[PCIE_FC_PH], 0);
    assert_int_equal(pcie_link_stats(f->l.link)->stall_ps[PCIE_FC_CPLH], 0);
}

/* ---------------------------------------------------------------- UpdateFC */

/*
 * PH = 4, UpdateFC 1 us.  Three writes arrive ~12 ns apart and are freed at
 * once: one UpdateFC (queued 1 us after the first release) carries all three
 * credits.  A TLP sent on m exactly when that UpdateFC is queued starts 8 B
 * later (the DLLP goes first).  A release after the UpdateFC left schedules
 * a second one.
 */
static void test_pcie_fc_updatefc_coalesce_and_occupy(void **state)
{
    struct fx *f = *state;
    double pl, pm;
    struct ref rl = {0, 0.0}, rm = {0, 0.0};
    sim_ps_t a0, q, c, am;
    set_l_fc(f, PCIE_FC_PH, 4, PCIE_FC_TYPES, 0, 1000.0);
    pl = ppb_of(pcie_link_tlp_gbps(f->l.link));
    pm = ppb_of(pcie_link_tlp_gbps(f->m.link));
    for (unsigned k = 0; k < 3; k++) {
        mk(f->t, TLP_MWR, TLP_KIND_OTHER, 0x1000 + 64 * k, 64, 0);
        assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    }
    a0 = ref_run(&rl, 0, 88, pl, NULL) + f->lat;
    q = a0 + 1 * US;
    c = ref_run(&rm, q, 8, pm, NULL) + f->lat;
    am = ref_run(&rm, q, 88, pm, NULL) + f->lat; /* m's TLP behind the DLLP */

    drive(&f->l, &f->m, q - 1);
    assert_int_equal(f->l.n, 3);
    assert_int_equal(pcie_link_credits(f->l.link, PCIE_FC_PH), 1);
    /* The UpdateFC is due at q: m's next event. */
    assert_int_equal(pcie_link_next_event(f->m.link), q);
    mk(f->t, TLP_MWR, TLP_KIND_IRQ, 0xfee00000, 4, 0);
    f->t->len = 64;
    assert_int_equal(pcie_link_send(f->m.link, q, f->t), 0);
    assert_int_equal(pcie_link_stats(f->m.link)->updatefc_dllps, 1);
    assert_int_equal(pcie_link_next_arrival(f->m.link), am);
    /* Without the DLLP it would have arrived 8 B of serialization earlier. */
    assert_true(am > q + (sim_ps_t)ceil(88.0 * pm) + f->lat);
    drive(&f->l, &f->m, c - 1);
    assert_int_equal(pcie_link_credits(f->l.link, PCIE_FC_PH), 1);
    drive(&f->l, &f->m, c);
    assert_int_equal(pcie_link_credits(f->l.link, PCIE_FC_PH), 4); /* 3 in one */
    assert_int_equal(pcie_link_stats(f->m.link)->updatefc_dllps, 1);
    assert_int_equal(pcie_link_stats(f->m.link)->updatefc_bytes, 8);

    /* After the UpdateFC left: a new release needs a new one. */
    mk(f->t, TLP_MWR, TLP_KIND_OTHER, 0x2000, 64, 0);
    assert_int_equal(pcie_link_send(f->l.link, c, f->t), 0);
    drive(&f->l, &f->m, SIM_PS_NEVER);
    assert_int_equal(pcie_link_stats(f->m.link)->updatefc_dllps, 2);
    assert_int_equal(pcie_link_credits(f->l.link, PCIE_FC_PH), 4);
    assert_int_equal(f->m.n, 1);
    assert_int_equal(f->m.log[0].at, am);
}

/*
 * A link that carries only UpdateFCs (m: l's receiver has PH = 1, m sends
 * no TLP) still counts the statistical ACK and SKP bytes of the raw bytes
 * its DLLPs consume: raw = updatefc_bytes / (1 - overhead_no_fc), ACK
 * 8 x floor(raw / AckLimit), SKP 4 x floor(raw / 1538), as a link with
 * TLPs does.  Each of the N writes waits for the credit the previous one's
 * UpdateFC brings back, so m carries N DLLPs: 8N = 3200 B, two SKPs' worth.
 */
static void test_pcie_fc_updatefc_only_link_overhead(void **state)
{
    struct fx *f = *state;
    enum { N = 400 };
    const struct pcie_link_stats *sm;
    double raw;
    set_l_fc(f, PCIE_FC_PH, 1, PCIE_FC_TYPES, 0, 0.0);
    for (unsigned k = 0; k < N; k++) {
        mk(f->t, TLP_MWR, TLP_KIND_OTHER, 0x1000 + 64 * (k % 16), 64, 0);
        assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    }
    drive(&f->l, &f->m, SIM_PS_NEVER);
    assert_int_equal(f->l.n, N);
    sm = pcie_link_stats(f->m.link);
    assert_int_equal(sm->tlp_bytes, 0);
    assert_int_equal(sm->updatefc_dllps, N);
    assert_int_equal(sm->updatefc_bytes, 8 * N);
    raw = (double)sm->updatefc_bytes / (1.0 - pcie_cfg_overhead_no_fc(&f->cfg));
    assert_true(raw > 2 * 1538.0);
    assert_int_equal(sm->dllp_bytes, 8 * (uint64_t)floor(raw / pcie_cfg_ack_limit(&f->cfg)));
    assert_int_equal(sm->skp_bytes, 4 * (uint64_t)floor(raw / 1538.0));
    assert_true(sm->dllp_bytes > 0);
}

/*
 * Credit starvation across directions.  m streams 4 KiB completions (sent
 * at 0; with l's credits finite m commits ahead only what starts before
 * the earliest possible UpdateFC, 100 ns).  l sends 3 writes with PH = 1,
 * UpdateFC 100 ns.  Each UpdateFC waits for the completion m is serializing
 * and goes before the next one:
 *   W0: 0..ser88, arrives a0, UpdateFC queued a0 + 100 ns, during C0
 *   DLLP0 right after C0, credit c0 = its end + L; W1 starts at c0
 *   C1 after DLLP0; W1 arrives a1, UpdateFC a1 + 100 ns during C1
 *   DLLP1 right after C1; W2 starts at c1.   stall_ps[PH] = c1.
 */
static void test_pcie_fc_starvation_across_directions(void **state)
{
    struct fx *f = *state;
    enum { NC = 20 };
    double pl, pm;
    struct ref rl = {0, 0.0}, rm = {0, 0.0};
    sim_ps_t a0, a1, a2, c0, c1, e0, e1, e2, last_end;
    const struct pcie_link_stats *sm;
    set_l_fc(f, PCIE_FC_PH, 1, PCIE_FC_TYPES, 0, 100.0);
    pl = ppb_of(pcie_link_tlp_gbps(f->l.link));
    pm = ppb_of(pcie_link_tlp_gbps(f->m.link));
    f->m.release = 0; /* m's receiver: infinite credits anyway */
    for (unsigned j = 0; j < NC; j++) {
        mk(f->t, TLP_CPLD, TLP_KIND_PAYLOAD_CPL, 0x100000 + 4096 * j, 4096, 0);
        assert_int_equal(pcie_link_send(f->m.link, 0, f->t), 0);
    }
    for (unsigned k = 0; k < 3; k++) {
        mk(f->t, TLP_MWR, TLP_KIND_COMPLETION, 0x1000 + 64 * k, 64, 0);
        assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    }
    /* Only C0 starts before 100 ns: C1.. wait in m's queue. */
    assert_int_equal(pcie_link_queued(f->m.link), NC - 1);
    e0 = ref_run(&rm, 0, 4116, pm, NULL);
    /* m's next event is C1's start, before C0 even arrives. */
    assert_int_equal(pcie_link_next_event(f->m.link), e0);
    assert_int_equal(pcie_link_next_arrival(f->m.link), e0 + f->lat);

    a0 = ref_run(&rl, 0, 88, pl, NULL) + f->lat;
    assert_true(a0 + 100 * NS < e0); /* queued during C0 */
    c0 = ref_run(&rm, a0 + 100 * NS, 8, pm, NULL) + f->lat;
    e1 = ref_run(&rm, 0, 4116, pm, NULL);
    a1 = ref_run(&rl, c0, 88, pl, NULL) + f->lat;
    assert_true(a1 + 100 * NS < e1 && a1 + 100 * NS > e0); /* queued during C1 */
    c1 = ref_run(&rm, a1 + 100 * NS, 8, pm, NULL) + f->lat;
    e2 = ref_run(&rm, 0, 4116, pm, NULL);
    a2 = ref_run(&rl, c1, 88, pl, NULL) + f->lat;
    assert_true(a2 + 100 * NS < e2 + 2 * 600 * NS);

    drive(&f->l, &f->m, SIM_PS_NEVER);
    assert_int_equal(f->l.n, 3);
    assert_int_equal(f->l.log[0].at, a0);
    assert_int_equal(f->l.log[1].at, a1);
    assert_int_equal(f->l.log[2].at, a2);
    assert_int_equal(pcie_link_stats(f->l.link)->stall_ps[PCIE_FC_PH], c1);
    /* Completions delayed by the DLLPs in front of them. */
    assert_int_equal(f->m.n, NC);
    assert_int_equal(f->m.log[0].at, e0 + f->lat);
    assert_int_equal(f->m.log[1].at, e1 + f->lat);
    assert_int_equal(f->m.log[2].at, e2 + f->lat);
    sm = pcie_link_stats(f->m.link);
    assert_int_equal(sm->updatefc_dllps, 3);
    assert_int_equal(sm->updatefc_bytes, 24);
    /* m never idled: TLP + statistical ACK/SKP + explicit UpdateFC bytes fill
     * the raw rate (no statistical FC share on m). */
    last_end = f->m.log[NC - 1].at - f->lat;
    assert_true(fabs((double)(sm->tlp_bytes + sm->dllp_bytes + sm->skp_bytes +
                              sm->updatefc_bytes) * 8.0 / (double)last_end * 1000.0 -
                     pcie_cfg_raw_gbps(&f->cfg)) <= 0.005 * pcie_cfg_raw_gbps(&f->cfg));
    assert_true(fabs((double)sm->busy_ps - (double)last_end) <= 2.0);
    /* Against an idle m the credits come back sooner. */
    {
        struct ref r2 = {0, 0.0};
        sim_ps_t c0_idle = ref_run(&r2, a0 + 100 * NS, 8, pm, NULL) + f->lat;
        assert_true(c0 - c0_idle > 300 * NS);
    }
}

/* Unpaired link with finite credits: credits come back update latency +
 * this link's latency after the release, with no DLLP bytes anywhere. */
static void test_pcie_fc_unpaired_return(void **state)
{
    struct fx *f = *state;
    struct pcie_link *u = pcie_link_create(&f->cfg);
    struct side s = {u, 1, 0, {{0}}};
    struct pcie_fc_cfg fc;
    struct ref r = {0, 0.0};
    double pl = ppb_of(pcie_cfg_tlp_gbps(&f->cfg));
    sim_ps_t a0, a1;
    assert_non_null(u);
    pcie_fc_cfg_infinite(&fc);
    fc.cplh = 1;
    fc.update_latency_ns = 500.0;
    assert_int_equal(pcie_link_set_fc(u, &fc), 0);
    assert_true(pcie_link_tlp_gbps(u) == pcie_cfg_tlp_gbps(&f->cfg));
    for (unsigned k = 0; k < 2; k++) {
        mk(f->t, TLP_CPLD, TLP_KIND_DESC_CPL, 0x40 * k, 64, 0);
        assert_int_equal(pcie_link_send(u, 0, f->t), 0);
    }
    a0 = ref_run(&r, 0, 84, pl, NULL) + f->lat;
    a1 = ref_run(&r, a0 + 500 * NS + f->lat, 84, pl, NULL) + f->lat;
    drive(&s, NULL, SIM_PS_NEVER);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.log[0].at, a0);
    assert_int_equal(s.log[1].at, a1);
    /* The second waited from the first's start (0) until the credit. */
    assert_int_equal(pcie_link_stats(u)->stall_ps[PCIE_FC_CPLH], a0 + 500 * NS + f->lat);
    assert_int_equal(pcie_link_stats(u)->updatefc_dllps, 0);
    assert_int_equal(pcie_link_credits(u, PCIE_FC_CPLH), 1);
    pcie_link_destroy(u);
}

/* ----------------------------------------------- credit conservation */

/*
 * Random traffic both ways over a paired link whose receivers advertise
 * few credits of every type (a header credit or three, data near the MPS
 * minimum), with link latencies from 0 to 20 us and UpdateFC delays up to
 * 3 us; each receiver holds what arrives a random time before it frees it,
 * in any order.  At every event, per direction and class:
 *  - the transmitter never has more credits than advertised, nor fewer
 *    than none (pcie_link_credits);
 *  - what the receiver's buffer holds - TLPs on the wire plus TLPs it has
 *    not freed - never exceeds the header credits advertised (a credit
 *    counted twice would let one more in);
 * and at the end every TLP arrived, each class in send order, every credit
 * is back (a lost one would be missing, or would have stalled a TLP
 * forever) and nothing is left to happen.
 */
#define CONS_N 300u   /* TLPs per direction */
#define CONS_HELD 64u

struct cons_held {
    sim_ps_t until;
    uint64_t addr;
    uint16_t len;
    uint8_t type;
};

struct cons_dir {
    struct pcie_link *link;
    struct pcie_fc_cfg fc;
    struct tlp tl[CONS_N];
    sim_ps_t at[CONS_N];   /* send times, non-decreasing */
    unsigned next_send;
    unsigned sent[PCIE_FC_CLASSES], arrived[PCIE_FC_CLASSES];
    uint64_t last_addr[PCIE_FC_CLASSES]; /* send order: addresses increase */
    struct cons_held held[CONS_HELD];
    unsigned nheld, held_c[PCIE_FC_CLASSES];
    unsigned releases;
};

static void cons_fill(struct cons_dir *d, uint64_t *seed, unsigned mps, sim_ps_t gap)
{
    sim_ps_t t = 0;
    for (unsigned i = 0; i < CONS_N; i++) {
        unsigned type = (unsigned)(splitmix64(seed) % 3); /* MWr, MRd, CplD */
        unsigned len = 1 + (unsigned)(splitmix64(seed) % (mps - 3)); /* + offset fits MPS */
        uint64_t addr = 0x100000ull * (1 + type) + 0x1000ull * i + splitmix64(seed) % 4;
        mk(&d->tl[i], type, TLP_KIND_OTHER, addr, len, 0);
        if (splitmix64(seed) % 4 != 0)
            t += splitmix64(seed) % gap;
        d->at[i] = t;
    }
}

/* Take every arrival on d due by t into the receiver's buffer. */
static void cons_arrivals(struct cons_dir *d, sim_ps_t t, uint64_t *seed, sim_ps_t hold_max)
{
    while (pcie_link_next_arrival(d->link) <= t) {
        const struct tlp *p = pcie_link_peek(d->link);
        int c = pcie_tlp_fc_class(p->type);
        struct cons_held *h;
        assert_true(c >= 0);
        assert_true(p->addr > d->last_addr[c] || d->arrived[c] == 0); /* FIFO per class */
        d->last_addr[c] = p->addr;
        d->arrived[c]++;
        assert_true(d->nheld < CONS_HELD);
        h = &d->held[d->nheld++];
        h->until = t + splitmix64(seed) % (hold_max + 1);
        h->addr = p->addr;
        h->len = p->len;
        h->type = p->type;
        d->held_c[c]++;
        pcie_link_pop(d->link);
    }
}

/* The receiver frees every TLP whose hold ended by t (any order). */
static void cons_releases(struct cons_dir *d, sim_ps_t t, struct tlp *scratch)
{
    for (unsigned i = 0; i < d->nheld;) {
        if (d->held[i].until > t) {
            i++;
            continue;
        }
        mk(scratch, d->held[i].type, TLP_KIND_OTHER, d->held[i].addr, d->held[i].len, 0);
        assert_int_equal(pcie_link_rx_release(d->link, t, scratch), 0);
        d->held_c[pcie_tlp_fc_class(d->held[i].type)]--;
        d->releases++;
        d->held[i] = d->held[--d->nheld];
    }
}

static sim_ps_t cons_next_release(const struct cons_dir *d)
{
    sim_ps_t t = SIM_PS_NEVER;
    for (unsigned i = 0; i < d->nheld; i++)
        if (d->held[i].until < t)
            t = d->held[i].until;
    return t;
}

static void cons_check(const struct cons_dir *d)
{
    for (unsigned k = 0; k < PCIE_FC_TYPES; k++) {
        unsigned lim = pcie_fc_cfg_limit(&d->fc, k);
        uint32_t cr = pcie_link_credits(d->link, k);
        if (lim != 0)
            assert_true(cr <= lim);
    }
    for (unsigned c = 0; c < PCIE_FC_CLASSES; c++) {
        unsigned lim = pcie_fc_cfg_limit(&d->fc, 2 * c);
        unsigned wire = d->sent[c] - d->arrived[c] -
                        (unsigned)pcie_link_queued_class(d->link, c);
        assert_true(d->sent[c] >= d->arrived[c] + pcie_link_queued_class(d->link, c));
        if (lim != 0 && wire + d->held_c[c] > lim)
            fail_msg("class %u: %u on the wire + %u held > %u header credits", c, wire,
                     d->held_c[c], lim);
    }
}

static void test_pcie_fc_conservation_random(void **state)
{
    static const double lat_ns[] = {0.0, 100.0, 2000.0, 20000.0};
    struct fx *f = *state;
    struct tlp *scratch = f->t;
    uint64_t seed = 0x33c0ffee;
    (void)state;

    for (unsigned run = 0; run < 8; run++) {
        struct pcie_cfg cfg;
        struct cons_dir *d = calloc(2, sizeof(*d));
        sim_ps_t hold_max, t = 0;
        unsigned events = 0;

        assert_non_null(d);
        pcie_cfg_default(&cfg);
        cfg.latency_ns = lat_ns[run % 4];
        hold_max = (sim_ps_t)(splitmix64(&seed) % 5000) * NS;
        for (unsigned i = 0; i < 2; i++) {
            struct pcie_fc_cfg *fc = &d[i].fc;
            d[i].link = pcie_link_create(&cfg);
            assert_non_null(d[i].link);
            pcie_fc_cfg_infinite(fc);
            fc->ph = 1 + (unsigned)(splitmix64(&seed) % 3);
            fc->nph = 1 + (unsigned)(splitmix64(&seed) % 3);
            fc->cplh = 1 + (unsigned)(splitmix64(&seed) % 3);
            fc->pd = cfg.mps / 16 + (unsigned)(splitmix64(&seed) % 20);
            fc->npd = 1 + (unsigned)(splitmix64(&seed) % 3);
            fc->cpld = cfg.mps / 16 + (unsigned)(splitmix64(&seed) % 20);
            fc->update_latency_ns = (double)(splitmix64(&seed) % 3000);
            cons_fill(&d[i], &seed, cfg.mps, 2 * US);
        }
        assert_int_equal(pcie_link_pair(d[0].link, d[1].link), 0);
        for (unsigned i = 0; i < 2; i++)
            assert_int_equal(pcie_link_set_fc(d[i].link, &d[i].fc), 0);

        for (;;) {
            sim_ps_t n = SIM_PS_NEVER, u;
            for (unsigned i = 0; i < 2; i++) {
                if (d[i].next_send < CONS_N && (u = d[i].at[d[i].next_send]) < n)
                    n = u;
                if ((u = pcie_link_next_event(d[i].link)) < n)
                    n = u;
                if ((u = cons_next_release(&d[i])) < n)
                    n = u;
            }
            if (n == SIM_PS_NEVER)
                break;
            assert_true(n >= t);
            t = n;
            assert_true(++events < 100000);
            pcie_link_advance(d[0].link, t);
            for (unsigned i = 0; i < 2; i++) {
                cons_arrivals(&d[i], t, &seed, hold_max);
                cons_releases(&d[i], t, scratch);
                while (d[i].next_send < CONS_N && d[i].at[d[i].next_send] <= t) {
                    const struct tlp *x = &d[i].tl[d[i].next_send++];
                    assert_int_equal(pcie_link_send(d[i].link, t, x), 0);
                    d[i].sent[pcie_tlp_fc_class(x->type)]++;
                }
            }
            cons_check(&d[0]);
            cons_check(&d[1]);
        }
        for (unsigned i = 0; i < 2; i++) {
            for (unsigned c = 0; c < PCIE_FC_CLASSES; c++)
                assert_int_equal(d[i].arrived[c], d[i].sent[c]);
            assert_int_equal(d[i].nheld, 0);
            assert_int_equal(d[i].releases, CONS_N);
            for (unsigned k = 0; k < PCIE_FC_TYPES; k++)
                assert_int_equal(pcie_link_credits(d[i].link, k),
                                 pcie_fc_cfg_limit(&d[i].fc, k));
            assert_int_equal(pcie_link_next_event(d[i].link), SIM_PS_NEVER);
            /* Coalescing: never more UpdateFCs than releases. */
            assert_true(pcie_link_stats(d[1 - i].link)->updatefc_dllps <= CONS_N);
        }
        pcie_link_destroy(d[0].link);
        pcie_link_destroy(d[1].link);
        free(d);
    }
}

/* pcie_link_queued_class(): the TLPs of one class waiting to start. */
static void test_pcie_fc_queued_class(void **state)
{
    struct fx *f = *state;
    set_l_fc(f, PCIE_FC_PH, 1, PCIE_FC_TYPES, 0, 0.0);
    for (unsigned k = 0; k < 3; k++) {
        mk(f->t, TLP_MWR, TLP_KIND_DOORBELL, 0x1000 + 64 * k, 4, 0);
        assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    }
    mk(f->t, TLP_CPLD, TLP_KIND_DESC_CPL, 0x2000, 64, 0);
    assert_int_equal(pcie_link_send(f->l.link, 0, f->t), 0);
    /* W0 started; W1, W2 wait for the credit, the CplD behind them. */
    assert_int_equal(pcie_link_queued_class(f->l.link, PCIE_FC_CLASS_P), 2);
    assert_int_equal(pcie_link_queued_class(f->l.link, PCIE_FC_CLASS_NP), 0);
    assert_int_equal(pcie_link_queued_class(f->l.link, PCIE_FC_CLASS_CPL), 1);
    assert_int_equal(pcie_link_queued_class(f->l.link, PCIE_FC_CLASSES), 0);
    assert_int_equal(pcie_link_queued(f->l.link), 3);
    drive(&f->l, &f->m, SIM_PS_NEVER);
    assert_int_equal(pcie_link_queued_class(f->l.link, PCIE_FC_CLASS_P), 0);
    assert_int_equal(pcie_link_queued_class(f->l.link, PCIE_FC_CLASS_CPL), 0);
}

/* ------------------------------------------------------------ API misuse */

static void test_pcie_fc_api_errors(void **state)
{
    struct fx *f = *state;
    struct pcie_link *x = pcie_link_create(&f->cfg);
    struct pcie_fc_cfg fc;
    assert_non_null(x);
    pcie_fc_cfg_infinite(&fc);
    assert_int_equal(pcie_link_pair(f->l.link, f->m.link), 0); /* already: ok */
    assert_int_equal(pcie_link_pair(x, x), -1);
    assert_int_equal(pcie_link_pair(x, f->l.link), -1); /* l is taken */
    assert_int_equal(pcie_link_pair(NULL, x), -1);
    assert_int_equal(pcie_link_set_fc(NULL, &fc), -1);
    assert_int_equal(pcie_link_set_fc(x, NULL), -1);
    fc.ph = PCIE_FC_HDR_MAX + 1;
    assert_int_equal(pcie_link_set_fc(x, &fc), -1);
    assert_int_equal(pcie_link_fc(x)->ph, 0); /* unchanged */
    fc.ph = 2;
    assert_int_equal(pcie_link_set_fc(f->l.link, &fc), 0);
    assert_int_equal(pcie_link_fc(f->l.link)->ph, 2);
    assert_true(pcie_link_tlp_gbps(f->m.link) == pcie_cfg_tlp_gbps_no_fc(&f->cfg));
    /* Hand-computed Gen3 x8 MPS 256 rate without the FC share (Ack 203). */
    assert_true(fabs(pcie_cfg_tlp_gbps_no_fc(&f->cfg) -
                     8.0 * 128.0 / 130.0 * 8.0 * (1.0 - 8.0 / 203.0 - 4.0 / 1538.0)) < 1e-9);
    mk(f->t, TLP_MWR, TLP_KIND_OTHER, 0, 4, 0);
    assert_int_equal(pcie_link_send(x, 0, f->t), 0);
    assert_int_equal(pcie_link_set_fc(x, &fc), -1); /* after a send */
    {
        struct pcie_link *y = pcie_link_create(&f->cfg);
        assert_non_null(y);
        assert_int_equal(pcie_link_pair(x, y), -1); /* x has sent */
        pcie_link_destroy(y);
    }
    assert_int_equal(pcie_link_rx_release(f->l.link, 0, NULL), -1);
    f->t->type = 5;
    assert_int_equal(pcie_link_rx_release(f->l.link, 0, f->t), -1);
    assert_int_equal(pcie_link_credits(f->l.link, PCIE_FC_TYPES), UINT32_MAX);
    assert_int_equal(pcie_link_credits(f->l.link, PCIE_FC_PH), 2);
    /* Destroying a partner unpairs: m's rate goes back, l returns credits
     * without a carrier. */
    pcie_link_destroy(f->m.link);
    f->m.link = pcie_link_create(&f->cfg);
    assert_non_null(f->m.link);
    pcie_link_destroy(x);
}

static void test_pcie_fc_destroy_unpairs(void **state)
{
    struct fx *f = *state;
    const double per_raw = 1.0 / (1.0 - pcie_cfg_overhead_no_fc(&f->cfg));
    uint64_t bytes;
    set_l_fc(f, PCIE_FC_PH, 1, PCIE_FC_TYPES, 0, 0.0);
    assert_true(pcie_link_tlp_gbps(f->m.link) == pcie_cfg_tlp_gbps_no_fc(&f->cfg));
    /* m's traffic while it carries l's UpdateFCs: ACKs counted statistically,
     * no FC share; what was counted so stays so when the rate changes. */
    for (unsigned i = 0; i < 40; i++) {
        mk(f->t, TLP_MWR, TLP_KIND_OTHER, 0x1000 + 256 * i, 256, 0);
        assert_int_equal(pcie_link_send(f->m.link, 0, f->t), 0);
    }
    pcie_link_advance(f->m.link, 1000 * US); /* all of them serialized */
    pcie_link_destroy(f->l.link);
    f->l.link = NULL;
    assert_true(pcie_link_tlp_gbps(f->m.link) == pcie_cfg_tlp_gbps(&f->cfg));
    bytes = pcie_link_stats(f->m.link)->tlp_bytes;
    assert_int_equal(bytes, 40 * (256 + 24));
    assert_int_equal(pcie_link_stats(f->m.link)->dllp_bytes,
                     8 * (uint64_t)floor((double)bytes * per_raw /
                                         (double)pcie_cfg_ack_limit(&f->cfg)));
    /* m works on, unpaired. */
    mk(f->t, TLP_MWR, TLP_KIND_OTHER, 0, 4, 0);
    assert_int_equal(pcie_link_send(f->m.link, 0, f->t), 0);
    assert_int_equal(pcie_link_in_flight(f->m.link), 41); /* none popped */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pcie_fc_credit_arith),
        cmocka_unit_test_setup_teardown(test_pcie_fc_infinite_identical, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pcie_fc_ph1_burst, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pcie_fc_ph_infinite_no_stall, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pcie_fc_ph2_long_link, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pcie_fc_pd_two_in_flight, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pcie_fc_pd_too_big, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pcie_fc_both_short_charges_header, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pcie_fc_order_ro_passes_stalled_posted, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_pcie_fc_order_read_waits_for_posted, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_pcie_fc_order_pass_stalled_read, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pcie_fc_updatefc_coalesce_and_occupy, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_pcie_fc_updatefc_only_link_overhead, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_pcie_fc_starvation_across_directions, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_pcie_fc_unpaired_return, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pcie_fc_conservation_random, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pcie_fc_queued_class, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pcie_fc_api_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pcie_fc_destroy_unpairs, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
