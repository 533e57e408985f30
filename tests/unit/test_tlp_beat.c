/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_tlp_beat.c - TLPs to device port beats and back (sim/device/tlp_beat.h):
 * beat k built from the one before (tlp_beat_next) is beat k built whole
 * (tlp_beat_from_tlp), every byte of it; and a TLP's beats collected
 * (tlp_beat_collect) give its header and data back.
 *
 * Boundary cases: every width, every lane offset of the address, lengths
 * 1..300 (one beat, whole beats, a partial first and last), CplD with and
 * without an error, MWr, and an MRd (one beat, no data).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "device/tlp_beat.h"

static const unsigned widths[] = {8, 16, 32, 64};

static void tlp_fill(struct tlp *t, uint8_t type, uint64_t addr, unsigned len)
{
    memset(t, 0, sizeof(*t));
    t->type = type;
    t->tag = 0x5a;
    t->addr = addr;
    t->len = len;
    t->status = TLP_STATUS_SC;
    for (unsigned i = 0; i < len; i++)
        t->data[i] = (uint8_t)(i * 7 + 3);
}

/* Every beat of t two ways: whole, and from the one before. */
static void check_beats(unsigned w, const struct tlp *t)
{
    const unsigned n = dev_tlp_beats(w, t->type, t->addr, t->len);
    struct dev_beat next, whole;

    memset(&next, 0xa5, sizeof(next)); /* what beat 0 must overwrite */
    tlp_beat_from_tlp(w, t, 0, &next);
    for (unsigned k = 1; k < n; k++) {
        memset(&whole, 0xa5, sizeof(whole));
        tlp_beat_from_tlp(w, t, k, &whole);
        tlp_beat_next(w, t, k, &next);
        assert_int_equal(next.sop, 0);
        assert_int_equal(next.eop, k + 1 == n);
        assert_memory_equal(&next, &whole, offsetof(struct dev_beat, data));
        assert_memory_equal(next.data, whole.data, sizeof(whole.data));
    }
    assert_int_equal(next.eop, 1);
}

static void test_next_is_whole(void **state)
{
    (void)state;
    static const uint8_t types[] = {TLP_CPLD, TLP_MWR};
    struct tlp t;

    for (unsigned wi = 0; wi < 4; wi++)
        for (unsigned ti = 0; ti < 2; ti++)
            for (unsigned off = 0; off < widths[wi]; off++)
                for (unsigned len = 1; len <= 300; len++) {
                    tlp_fill(&t, types[ti], 0x100000000ull + 0x1000 + off, len);
                    check_beats(widths[wi], &t);
                }
}

static void test_next_keeps_error_header(void **state)
{
    (void)state;
    struct tlp t;

    tlp_fill(&t, TLP_CPLD, 0x2003, 100);
    t.status = TLP_STATUS_UR;
    for (unsigned wi = 0; wi < 4; wi++) {
        struct dev_beat b;
        tlp_beat_from_tlp(widths[wi], &t, 0, &b);
        assert_int_equal(b.err, 1);
        for (unsigned k = 1; k < dev_tlp_beats(widths[wi], t.type, t.addr, t.len); k++) {
            tlp_beat_next(widths[wi], &t, k, &b);
            assert_int_equal(b.err, 1);
            assert_int_equal(b.tag, 0x5a);
        }
        check_beats(widths[wi], &t);
    }
}

/* Beats built one from another, collected, give the TLP back. */
static void test_round_trip(void **state)
{
    (void)state;
    static struct tlp t, back;

    for (unsigned wi = 0; wi < 4; wi++)
        for (unsigned len = 1; len <= 200; len += 13) {
            const unsigned w = widths[wi];
            tlp_fill(&t, TLP_MWR, 0x4000 + len % w, len);
            memset(&back, 0, sizeof(back));
            unsigned beat = 0, n = dev_tlp_beats(w, t.type, t.addr, t.len), done = 0;
            struct dev_beat b;
            for (unsigned k = 0; k < n; k++) {
                if (k == 0)
                    tlp_beat_from_tlp(w, &t, 0, &b);
                else
                    tlp_beat_next(w, &t, k, &b);
                done = (unsigned)tlp_beat_collect(w, &back, &beat, &b);
                assert_int_equal(done, k + 1 == n);
            }
            assert_int_equal(back.type, TLP_MWR);
            assert_int_equal(back.len, len);
            assert_int_equal(back.addr, t.addr);
            assert_memory_equal(back.data, t.data, len);
        }
}

/* An MRd is one beat with no data. */
static void test_mrd_one_beat(void **state)
{
    (void)state;
    struct tlp t;
    struct dev_beat b;

    tlp_fill(&t, TLP_MRD, 0x8008, 512);
    for (unsigned wi = 0; wi < 4; wi++) {
        memset(&b, 0xa5, sizeof(b));
        tlp_beat_from_tlp(widths[wi], &t, 0, &b);
        assert_int_equal(b.sop, 1);
        assert_int_equal(b.eop, 1);
        assert_int_equal(b.len, 512);
        for (unsigned i = 0; i < sizeof(b.data); i++)
            assert_int_equal(b.data[i], 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_next_is_whole),
        cmocka_unit_test(test_next_keeps_error_header),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_mrd_one_beat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
