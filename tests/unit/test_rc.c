/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_rc.c - the root complex with the PCIe link: DMA reads and writes
 * as a device (a small requester model here) sees them.
 *
 * Boundary cases: every transfer size 1..4096 over the MPS x MRRS x RCB
 * grid in both completion styles; unaligned buffers; 8 tags against a
 * 550 ns round trip (latency-bound) and ample tags (bandwidth-bound).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "host/host_mem.h"
#include "pcie/pcie_cfg.h"
#include "pcie/pcie_link.h"
#include "pcie/rc.h"

#define HOST_BASE 0x100000000ull

struct fx {
    struct host_mem mem;
    struct pcie_cfg cfg;
    struct rc rc;
    struct pcie_link *up, *down; /* device->host, host->device */
    uint8_t *buf;
    uint64_t bus;
    struct tlp t;
};

static int fx_setup(struct fx *f, const struct pcie_cfg *cfg, double mem_ns)
{
    memset(f, 0, sizeof(*f));
    f->cfg = *cfg;
    if (host_mem_init(&f->mem, HOST_BASE, 1u << 20) != 0)
        return -1;
    f->buf = host_mem_alloc(&f->mem, 1u << 19, 4096, &f->bus);
    if (!f->buf || rc_init(&f->rc, &f->mem, cfg, mem_ns) != 0)
        return -1;
    f->up = pcie_link_create(cfg);
    f->down = pcie_link_create(cfg);
    return f->up && f->down ? 0 : -1;
}

static void fx_teardown(struct fx *f)
{
    pcie_link_destroy(f->up);
    pcie_link_destroy(f->down);
    rc_destroy(&f->rc);
    host_mem_destroy(&f->mem);
}

/* Move everything through: MRds up, completions down, until quiet.
 * Returns the time the last completion arrived at the device. */
static sim_ps_t fx_drain(struct fx *f)
{
    sim_ps_t last = 0;

    for (;;) {
        sim_ps_t tu = pcie_link_next_arrival(f->up), tc = rc_next_cpl(&f->rc);
        sim_ps_t td = pcie_link_next_arrival(f->down);
        if (tu == SIM_PS_NEVER && tc == SIM_PS_NEVER && td == SIM_PS_NEVER)
            return last;
        if (tu <= tc && tu <= td) {
            assert_int_equal(rc_receive(&f->rc, pcie_link_peek(f->up), tu), RC_NONE);
            pcie_link_pop(f->up);
        } else if (tc <= td) {
            assert_int_equal(pcie_link_send(f->down, tc, rc_peek_cpl(&f->rc)), 0);
            rc_pop_cpl(&f->rc);
        } else {
            last = td;
            pcie_link_pop(f->down);
        }
    }
}

static uint32_t roundup4(uint32_t x) { return (x + 3) & ~3u; }

/*
 * Table-driven: a DMA read of `sz` bytes from an aligned buffer, split by
 * the requester at MRRS and answered by the root complex, costs on the
 * link what pcie-model's arithmetic says: ceil(sz/MRRS) x 24 B up and
 * ceil(sz/MPS) x 20 B + sz down (ceil(sz/RCB) with rcb_chunks), once the
 * payload is rounded to whole DWs as the wire carries it.  pcie-model's
 * completion count assumes MRRS >= MPS; with MRRS < MPS each request is
 * completed on its own, so the count is per request (checked here too).
 * Writes cost ceil(sz/MPS) x 24 B + sz.
 */
static void test_rc_split_grid_counts(void **state)
{
    static const unsigned mpss[] = {128, 256, 512};
    static const unsigned rcbs[] = {64, 128};
    struct pcie_chunk req[64], wr[64];
    struct fx f;
    unsigned im, ir, ib, style, sz;
    uint64_t configs = 0;

    (void)state;
    for (im = 0; im < 3; im++)
        for (ir = 128; ir <= 4096; ir *= 2)
            for (ib = 0; ib < 2; ib++)
                for (style = 0; style < 2; style++) {
                    struct pcie_cfg cfg;
                    pcie_cfg_default(&cfg);
                    cfg.mps = mpss[im];
                    cfg.mrrs = ir;
                    cfg.rcb = rcbs[ib];
                    cfg.rcb_chunks = (int)style;
                    assert_int_equal(fx_setup(&f, &cfg, 0), 0);
                    configs++;
                    for (sz = 1; sz <= 4096; sz++) {
                        const struct pcie_link_stats *su = pcie_link_stats(f.up);
                        const struct pcie_link_stats *sd = pcie_link_stats(f.down);
                        uint64_t up0 = su->tlp_bytes, down0 = sd->tlp_bytes, exp_down;
                        size_t n = pcie_split_read_req(&cfg, f.bus, sz, req, 64), i;
                        unsigned x = style ? cfg.rcb : cfg.mps;

                        assert_true(n > 0);
                        for (i = 0; i < n; i++) {
                            f.t.type = TLP_MRD;
                            f.t.kind = TLP_KIND_PAYLOAD_RD;
                            f.t.tag = (uint8_t)i;
                            f.t.addr = req[i].addr;
                            f.t.len = (uint16_t)req[i].len;
                            assert_int_equal(pcie_link_send(f.up, 0, &f.t), 0);
                        }
                        fx_drain(&f);
                        assert_int_equal(su->tlp_bytes - up0, pcie_model_read_req_bytes(&cfg, sz));
                        if (cfg.mrrs >= x) {
                            exp_down = pcie_model_read_cpl_bytes(&cfg, sz) + roundup4(sz) - sz;
                        } else { /* per request: ceil(r / x) completions each */
                            exp_down = roundup4(sz);
                            for (i = 0; i < n; i++)
                                exp_down += 20ull * ((req[i].len + x - 1) / x);
                        }
                        assert_int_equal(sd->tlp_bytes - down0, exp_down);

                        /* Writes of the same size. */
                        up0 = su->tlp_bytes;
                        n = pcie_split_write(&cfg, f.bus, sz, wr, 64);
                        for (i = 0; i < n; i++) {
                            f.t.type = TLP_MWR;
                            f.t.kind = TLP_KIND_OTHER;
                            f.t.addr = wr[i].addr;
                            f.t.len = (uint16_t)wr[i].len;
                            assert_int_equal(pcie_link_send(f.up, 0, &f.t), 0);
                        }
                        while (pcie_link_peek(f.up)) {
                            assert_int_equal(rc_receive(&f.rc, pcie_link_peek(f.up), 0), RC_WROTE);
                            pcie_link_pop(f.up);
                        }
                        assert_int_equal(su->tlp_bytes - up0,
                                         pcie_model_write_bytes(&cfg, sz) + roundup4(sz) - sz);
                    }
                    fx_teardown(&f);
                }
    assert_int_equal(configs, 3 * 6 * 2 * 2);
}

/*
 * Unaligned, worked by hand (MPS 256, RCB 64, completions up to MPS):
 * a read of 300 B at 0x...1003 is one request (MRRS 512 does not cut it);
 * the first completion may not cross an RCB boundary unless it is
 * MPS-limited: it runs from 0x1003 up to the largest RCB boundary within
 * 256 B, 0x1100 (253 B), then 0x1100..0x112F (47 B).  On the wire:
 * 20 + 256 (253 B from lane 3: DWs 0x1000..0x10FF) and 20 + 48.
 * With RCB chunks: 61, 64, 64, 64, 47 B.  A 5000 B read at 0x1F00 crosses
 * 4 KiB: requests 256 (to 0x2000), 512 x 9, 136.
 */
static void test_rc_unaligned_by_hand(void **state)
{
    struct pcie_cfg cfg;
    struct pcie_chunk c[64];
    size_t n;

    (void)state;
    pcie_cfg_default(&cfg);
    n = pcie_split_cpl(&cfg, 0x1003, 300, c, 64);
    assert_int_equal(n, 2);
    assert_int_equal(c[0].len, 253);
    assert_int_equal(c[1].addr, 0x1100);
    assert_int_equal(c[1].len, 47);
    assert_int_equal(pcie_tlp_wire_bytes(TLP_CPLD, c[0].addr, c[0].len), 20 + 256);
    assert_int_equal(pcie_tlp_wire_bytes(TLP_CPLD, c[1].addr, c[1].len), 20 + 48);
    cfg.rcb_chunks = 1;
    n = pcie_split_cpl(&cfg, 0x1003, 300, c, 64);
    assert_int_equal(n, 5);
    assert_int_equal(c[0].len, 61);
    assert_int_equal(c[4].len, 47);
    cfg.rcb_chunks = 0;
    n = pcie_split_read_req(&cfg, 0x1f00, 5000, c, 64);
    assert_int_equal(n, 11);
    assert_int_equal(c[0].len, 256);
    assert_int_equal(c[1].addr, 0x2000);
    assert_int_equal(c[10].len, 5000 - 256 - 9 * 512);
}

/*
 * Ordering at the root complex: a read is served against memory as it is
 * when the read arrives.  Memory written before the arrival is seen (the
 * doorbell's own writes); memory rewritten after the arrival but before
 * the completion is ready is not.  A model that read memory when the
 * completion leaves would fail the second check.
 */
static void test_rc_read_sees_memory_at_arrival(void **state)
{
    struct pcie_cfg cfg;
    struct fx f;
    const struct tlp *c;

    (void)state;
    pcie_cfg_default(&cfg);
    assert_int_equal(fx_setup(&f, &cfg, 350.0), 0);
    memset(f.buf, 0xAA, 64);      /* the driver's write before the doorbell */
    f.t.type = TLP_MRD;
    f.t.kind = TLP_KIND_DESC_RD;
    f.t.tag = 7;
    f.t.addr = f.bus;
    f.t.len = 64;
    assert_int_equal(rc_receive(&f.rc, &f.t, 1000000), RC_NONE);
    memset(f.buf, 0x55, 64);      /* rewritten 1 ns later, before the completion */
    assert_int_equal(rc_next_cpl(&f.rc), 1000000 + 350000);
    c = rc_peek_cpl(&f.rc);
    assert_non_null(c);
    assert_int_equal(c->type, TLP_CPLD);
    assert_int_equal(c->kind, TLP_KIND_DESC_CPL);
    assert_int_equal(c->tag, 7);
    assert_int_equal(c->len, 64);
    assert_int_equal(c->status, TLP_STATUS_SC); /* a good read: successful, */
    assert_false(c->ep);                        /* not poisoned, */
    assert_true(c->last);                       /* in one piece */
    assert_int_equal(c->data[0], 0xAA);
    assert_int_equal(c->data[63], 0xAA);
    fx_teardown(&f);
}

/* One MRd of 64 bytes at bus + off, tag 1; the completion's first piece. */
static enum rc_event fault_read(struct fx *f, unsigned off, sim_ps_t at)
{
    f->t.type = TLP_MRD;
    f->t.kind = TLP_KIND_PAYLOAD_RD;
    f->t.tag = 1;
    f->t.addr = f->bus + off;
    f->t.len = 64;
    return rc_receive(&f->rc, &f->t, at);
}

/* Armed faults: each read takes the fault it meets (RC_FAULTED), whichever
 * of the list it is, and leaves the others armed in order; UR and CA
 * completions carry zeros, EP ones the data; a lost read answers nothing. */
static void test_rc_faults_taken_in_place(void **state)
{
    struct pcie_cfg cfg;
    struct fx f;
    const struct tlp *c;

    (void)state;
    pcie_cfg_default(&cfg);
    assert_int_equal(fx_setup(&f, &cfg, 100.0), 0);
    memset(f.buf, 0xAA, 4096);
    assert_int_equal(rc_arm_fault(&f.rc, RC_FAULT_UR, f.bus, f.bus + 64, 10), 0);
    assert_int_equal(rc_arm_fault(&f.rc, RC_FAULT_CA, f.bus + 1024, f.bus + 1088, 11), 0);
    assert_int_equal(rc_arm_fault(&f.rc, RC_FAULT_EP, f.bus + 2048, f.bus + 2112, 12), 0);
    assert_int_equal(rc_arm_fault(&f.rc, RC_FAULT_LOST, f.bus + 3072, f.bus + 3136, 13), 0);
    assert_int_equal(rc_arm_fault(&f.rc, RC_FAULT_UR, f.bus, f.bus, 14), -1); /* empty */

    /* The second of four first: the rest stay, in order. */
    assert_int_equal(fault_read(&f, 1024, 1000), RC_FAULTED);
    assert_int_equal(f.rc.nfault, 3);
    assert_int_equal(f.rc.last_fault.id, 11);
    assert_int_equal(f.rc.fault[0].id, 10);
    assert_int_equal(f.rc.fault[1].id, 12);
    assert_int_equal(f.rc.fault[2].id, 13);
    c = rc_peek_cpl(&f.rc);
    assert_int_equal(c->status, TLP_STATUS_CA);
    assert_int_equal(c->data[0], 0);
    assert_int_equal(c->data[c->len - 1], 0);
    rc_pop_cpl(&f.rc);
    /* The middle one of three. */
    assert_int_equal(fault_read(&f, 2048, 2000), RC_FAULTED);
    assert_int_equal(f.rc.nfault, 2);
    assert_int_equal(f.rc.fault[0].id, 10);
    assert_int_equal(f.rc.fault[1].id, 13);
    c = rc_peek_cpl(&f.rc);
    assert_int_equal(c->status, TLP_STATUS_SC);
    assert_true(c->ep);
    assert_int_equal(c->data[0], 0xAA);
    rc_pop_cpl(&f.rc);
    /* The last: no completion. */
    assert_int_equal(fault_read(&f, 3072, 3000), RC_FAULTED);
    assert_int_equal(f.rc.nfault, 1);
    assert_int_equal(f.rc.last_fault.id, 13);
    assert_int_equal(rc_next_cpl(&f.rc), SIM_PS_NEVER);
    /* The first: UR, zeros; then a read meets nothing. */
    assert_int_equal(fault_read(&f, 0, 4000), RC_FAULTED);
    assert_int_equal(f.rc.nfault, 0);
    c = rc_peek_cpl(&f.rc);
    assert_int_equal(c->status, TLP_STATUS_UR);
    assert_int_equal(c->data[0], 0);
    rc_pop_cpl(&f.rc);
    assert_int_equal(fault_read(&f, 0, 5000), RC_NONE);
    assert_int_equal(rc_peek_cpl(&f.rc)->status, TLP_STATUS_SC);
    assert_int_equal(f.rc.st.faults, 4);
    fx_teardown(&f);
}

/* An armed range is half-open, [lo, hi): a read that ends at lo or starts
 * at hi touches none of it and is answered normally; a read that shares
 * one byte with it at either end takes the fault. */
static void test_rc_fault_range_edges(void **state)
{
    struct pcie_cfg cfg;
    struct fx f;

    (void)state;
    pcie_cfg_default(&cfg);
    assert_int_equal(fx_setup(&f, &cfg, 100.0), 0);
    assert_int_equal(rc_arm_fault(&f.rc, RC_FAULT_UR, f.bus + 64, f.bus + 128, 20), 0);
    assert_int_equal(fault_read(&f, 0, 1000), RC_NONE);   /* [0, 64): ends at lo */
    assert_int_equal(fault_read(&f, 128, 2000), RC_NONE); /* [128, 192): starts at hi */
    assert_int_equal(f.rc.nfault, 1);
    assert_int_equal(f.rc.st.faults, 0);
    for (unsigned k = 0; k < 2; k++) {
        assert_int_equal(rc_peek_cpl(&f.rc)->status, TLP_STATUS_SC);
        rc_pop_cpl(&f.rc);
    }
    assert_int_equal(fault_read(&f, 127, 3000), RC_FAULTED); /* its last byte */
    assert_int_equal(f.rc.last_fault.id, 20);
    assert_int_equal(rc_peek_cpl(&f.rc)->status, TLP_STATUS_UR);
    rc_pop_cpl(&f.rc);
    assert_int_equal(rc_arm_fault(&f.rc, RC_FAULT_CA, f.bus + 64, f.bus + 128, 21), 0);
    assert_int_equal(fault_read(&f, 1, 4000), RC_FAULTED); /* [1, 65): its first byte */
    assert_int_equal(f.rc.last_fault.id, 21);
    assert_int_equal(rc_peek_cpl(&f.rc)->status, TLP_STATUS_CA);
    assert_int_equal(f.rc.st.faults, 2);
    fx_teardown(&f);
}

/* rc_disarm_faults forgets every armed fault: a read of a range that was
 * armed is answered as usual, and faults armed after it work. */
static void test_rc_faults_disarmed(void **state)
{
    struct pcie_cfg cfg;
    struct fx f;

    (void)state;
    pcie_cfg_default(&cfg);
    assert_int_equal(fx_setup(&f, &cfg, 100.0), 0);
    assert_int_equal(rc_arm_fault(&f.rc, RC_FAULT_UR, f.bus, f.bus + 64, 30), 0);
    assert_int_equal(rc_arm_fault(&f.rc, RC_FAULT_LOST, f.bus + 1024, f.bus + 1088, 31), 0);
    assert_int_equal(rc_disarm_faults(&f.rc), 2);
    assert_int_equal(rc_disarm_faults(&f.rc), 0);
    assert_int_equal(fault_read(&f, 0, 1000), RC_NONE);
    assert_int_equal(rc_peek_cpl(&f.rc)->status, TLP_STATUS_SC);
    rc_pop_cpl(&f.rc);
    assert_int_equal(fault_read(&f, 1024, 2000), RC_NONE);
    assert_int_equal(rc_peek_cpl(&f.rc)->status, TLP_STATUS_SC);
    rc_pop_cpl(&f.rc);
    assert_int_equal(rc_arm_fault(&f.rc, RC_FAULT_CA, f.bus, f.bus + 64, 32), 0);
    assert_int_equal(fault_read(&f, 0, 3000), RC_FAULTED);
    assert_int_equal(f.rc.last_fault.id, 32);
    assert_int_equal(f.rc.st.faults, 1);
    fx_teardown(&f);
}

/* Writes land in memory; the MSI window raises an interrupt instead;
 * outside host memory is refused. */
static void test_rc_writes_and_msi(void **state)
{
    struct pcie_cfg cfg;
    struct fx f;

    (void)state;
    pcie_cfg_default(&cfg);
    assert_int_equal(fx_setup(&f, &cfg, 350.0), 0);
    f.t.type = TLP_MWR;
    f.t.addr = f.bus + 8;
    f.t.len = 4;
    memcpy(f.t.data, "\x11\x22\x33\x44", 4);
    assert_int_equal(rc_receive(&f.rc, &f.t, 0), RC_WROTE);
    assert_memory_equal(f.buf + 8, "\x11\x22\x33\x44", 4);
    f.t.addr = RC_MSI_BASE + 0x10;
    assert_int_equal(rc_receive(&f.rc, &f.t, 0), RC_IRQ);
    assert_int_equal(f.rc.st.irqs, 1);
    f.t.addr = 0x1000; /* below host memory */
    assert_int_equal(rc_receive(&f.rc, &f.t, 0), RC_UNMAPPED_WRITE);
    f.t.type = TLP_MRD;
    f.t.len = 16;
    assert_int_equal(rc_receive(&f.rc, &f.t, 0), RC_UNMAPPED_READ);
    assert_int_equal(rc_peek_cpl(&f.rc)->data[0], 0); /* completed with zeros */
    fx_teardown(&f);
}

/*
 * A requester with `tags` tags reading `sz`-byte blocks back to back for
 * `reads` reads.  Returns data bytes per ns (= GB/s).  *rtt_ns gets the
 * unloaded round trip of one read (first read).
 */
static double dma_read_rate(const struct pcie_cfg *cfg, double mem_ns, unsigned tags,
                            unsigned sz, unsigned reads, double *rtt_ns)
{
    struct fx f;
    unsigned issued = 0, done = 0, in_flight = 0, i;
    uint8_t free_tags[256];
    unsigned nfree = 0;
    sim_ps_t now = 0, t_first = SIM_PS_NEVER, t_last = 0;
    uint64_t bytes = 0;

    assert_int_equal(fx_setup(&f, cfg, mem_ns), 0);
    for (i = 0; i < tags; i++)
        free_tags[nfree++] = (uint8_t)i;
    *rtt_ns = 0;
    while (done < reads) {
        sim_ps_t tu, tc, td;
        /* Issue while tags are free. */
        while (nfree && issued < reads) {
            f.t.type = TLP_MRD;
            f.t.kind = TLP_KIND_PAYLOAD_RD;
            f.t.tag = free_tags[--nfree];
            f.t.addr = f.bus + (uint64_t)(issued % 64) * 4096;
            f.t.len = (uint16_t)sz;
            assert_int_equal(pcie_link_send(f.up, now, &f.t), 0);
            issued++;
            in_flight++;
        }
        tu = pcie_link_next_arrival(f.up);
        tc = rc_next_cpl(&f.rc);
        td = pcie_link_next_arrival(f.down);
        if (tu <= tc && tu <= td) {
            now = tu;
            rc_receive(&f.rc, pcie_link_peek(f.up), now);
            pcie_link_pop(f.up);
        } else if (tc <= td) {
            now = tc;
            pcie_link_send(f.down, now, rc_peek_cpl(&f.rc));
            rc_pop_cpl(&f.rc);
        } else {
            const struct tlp *c = pcie_link_peek(f.down);
            now = td;
            if (t_first == SIM_PS_NEVER) {
                t_first = now;
                *rtt_ns = (double)now / 1000.0;
            }
            bytes += c->len;
            if (c->last) {
                free_tags[nfree++] = c->tag;
                in_flight--;
                done++;
                t_last = now;
            }
            pcie_link_pop(f.down);
        }
    }
    fx_teardown(&f);
    /* Rate between the first and the last completion (steady state). */
    return (double)(bytes - sz) / ((double)(t_last - t_first) / 1000.0);
}

/* Ample tags: the completion direction saturates, and the rate is what
 * the TLP arithmetic allows: TLP bandwidth x sz / (sz + 20 B per CplD). */
static void test_rc_bandwidth_bound(void **state)
{
    static const unsigned sizes[] = {64, 512};
    struct pcie_cfg cfg;
    double rtt, rate, bound;
    unsigned i;

    (void)state;
    pcie_cfg_default(&cfg);
    for (i = 0; i < 2; i++) {
        unsigned sz = sizes[i], ncpl = (sz + cfg.mps - 1) / cfg.mps;
        rate = dma_read_rate(&cfg, 350.0, 256, sz, 20000, &rtt);
        bound = pcie_cfg_tlp_gbps(&cfg) / 8.0 * sz / (sz + 20.0 * ncpl);
        print_message("bandwidth-bound %u B reads: %.3f GB/s, TLP arithmetic %.3f GB/s\n",
                      sz, rate, bound);
        assert_true(rate <= bound * 1.0001);
        assert_true(rate >= bound * 0.98);
    }
}

/* 8 tags, 550 ns round trip: latency-bound; Little's law predicts
 * 8 x sz per round trip. */
static void test_rc_latency_bound(void **state)
{
    struct pcie_cfg cfg;
    double rtt, rate, little, bw;
    const unsigned sz = 256, tags = 8;

    (void)state;
    pcie_cfg_default(&cfg);
    rate = dma_read_rate(&cfg, 350.0, tags, sz, 20000, &rtt);
    little = tags * sz / rtt;
    bw = pcie_cfg_tlp_gbps(&cfg) / 8.0 * sz / (sz + 20.0);
    print_message("latency-bound 8 tags x %u B: %.3f GB/s, Little's law %.3f GB/s "
                  "(round trip %.1f ns), bandwidth bound %.3f GB/s\n", sz, rate, little, rtt, bw);
    assert_true(rtt > 550.0 && rtt < 650.0);
    assert_true(little < 0.8 * bw); /* really latency-bound, not bandwidth-bound */
    assert_true(rate > little * 0.95 && rate < little * 1.05);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rc_split_grid_counts),
        cmocka_unit_test(test_rc_unaligned_by_hand),
        cmocka_unit_test(test_rc_read_sees_memory_at_arrival),
        cmocka_unit_test(test_rc_faults_taken_in_place),
        cmocka_unit_test(test_rc_fault_range_edges),
        cmocka_unit_test(test_rc_faults_disarmed),
        cmocka_unit_test(test_rc_writes_and_msi),
        cmocka_unit_test(test_rc_bandwidth_bound),
        cmocka_unit_test(test_rc_latency_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
