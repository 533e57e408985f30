/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_inject.c - the fault plan's syntax (sim/run/inject.h): every kind, lists,
 * the blackout length, the queue (KIND@Q/N), and each way a plan can be
 * wrong.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "run/inject.h"

static void test_inject_each_kind(void **state)
{
    static const struct {
        const char *spec;
        enum inj_kind kind;
    } k[] = {{"ur@0", INJ_UR},           {"ca@1", INJ_CA},         {"ep@2", INJ_EP},
             {"timeout@3", INJ_TIMEOUT}, {"db-off@4", INJ_DB_OFF}, {"blackout@5:7", INJ_BLACKOUT}};
    struct inj_plan p;
    char err[160], back[64];

    (void)state;
    for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
        assert_int_equal(inj_parse(&p, k[i].spec, err, sizeof(err)), 0);
        assert_int_equal(p.n, 1);
        assert_int_equal(p.v[0].kind, k[i].kind);
        assert_int_equal(p.v[0].at, i);
        assert_true(p.v[0].ns == (k[i].kind == INJ_BLACKOUT ? 7.0 : 0.0));
        assert_int_equal(inj_on_read(k[i].kind), k[i].kind <= INJ_TIMEOUT);
        inj_format(&p, back, sizeof(back));
        assert_string_equal(back, k[i].spec);
    }
    assert_string_equal(inj_kind_name(INJ_KINDS), "invalid");
}

static void test_inject_lists_and_none(void **state)
{
    struct inj_plan p;
    char err[160], back[128];

    (void)state;
    assert_int_equal(inj_parse(&p, "ur@10,blackout@20:1000000000,timeout@18446744073709551615",
                               err, sizeof(err)), 0);
    assert_int_equal(p.n, 3);
    assert_true(p.v[1].ns == 1e9);
    assert_true(p.v[2].at == UINT64_MAX);
    inj_format(&p, back, sizeof(back));
    assert_string_equal(back, "ur@10,blackout@20:1000000000,timeout@18446744073709551615");
    assert_int_equal(inj_parse(&p, "none", err, sizeof(err)), 0);
    assert_int_equal(p.n, 0);
    assert_int_equal(inj_parse(&p, "", err, sizeof(err)), 0);
    inj_format(&p, back, sizeof(back));
    assert_string_equal(back, "none");
}

static void test_inject_rejects(void **state)
{
    static const char *const bad[] = {
        "ur",              /* no @N */
        "bogus@1",         /* unknown kind */
        "ur@",             /* no number */
        "ur@01",           /* octal-looking */
        "ur@-1",           /* sign */
        "ur@0x10",         /* hex */
        "ur@ 1",           /* blank */
        "ur@1:5",          /* only blackout takes a length */
        "blackout@1",      /* blackout needs one */
        "blackout@1:0",    /* empty blackout */
        "blackout@1:1000000001", /* over a second */
        "ur@1,",           /* empty item */
        ",ur@1",
        "ur@1,,ca@2",
        "UR@1",            /* names are lower case */
        "ur@18446744073709551616", /* 2^64 */
    };
    struct inj_plan p;
    char err[160];

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        err[0] = '\0';
        if (inj_parse(&p, bad[i], err, sizeof(err)) != -1)
            fail_msg("'%s' was accepted", bad[i]);
        assert_non_null(strstr(err, "--inject"));
    }
}

/* KIND@Q/N names queue Q's packet N; KIND@N is queue 0's, and queue 0 is
 * printed without its number, so a plan of one queue reads as before. */
static void test_inject_queue(void **state)
{
    static const char *const bad[] = {
        "ur@/1",   /* no queue */
        "ur@1/",   /* no packet */
        "ur@x/1",  /* not a number */
        "ur@01/1", /* octal-looking */
        "ur@1/01",
        "ur@1/2/3",
        "ur@64/1", /* beyond the largest queue */
        "blackout@/5:7",
        "blackout@2/:7",
    };
    struct inj_plan p;
    char err[160], back[128];

    (void)state;
    assert_int_equal(inj_parse(&p, "ur@2/100", err, sizeof(err)), 0);
    assert_int_equal(p.n, 1);
    assert_int_equal(p.v[0].kind, INJ_UR);
    assert_int_equal(p.v[0].q, 2);
    assert_int_equal(p.v[0].at, 100);
    assert_int_equal(inj_parse(&p, "ur@100", err, sizeof(err)), 0);
    assert_int_equal(p.v[0].q, 0);
    assert_int_equal(p.v[0].at, 100);
    assert_int_equal(inj_parse(&p, "timeout@1/5,db-off@0/7,blackout@63/9:1000,ep@3", err,
                               sizeof(err)), 0);
    assert_int_equal(p.n, 4);
    assert_int_equal(p.v[0].q, 1);
    assert_int_equal(p.v[1].q, 0);
    assert_int_equal(p.v[2].q, 63);
    assert_int_equal(p.v[2].at, 9);
    assert_true(p.v[2].ns == 1000.0);
    assert_int_equal(p.v[3].q, 0);
    inj_format(&p, back, sizeof(back));
    assert_string_equal(back, "timeout@1/5,db-off@7,blackout@63/9:1000,ep@3");
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        err[0] = '\0';
        if (inj_parse(&p, bad[i], err, sizeof(err)) != -1)
            fail_msg("'%s' was accepted", bad[i]);
        assert_non_null(strstr(err, "--inject"));
    }
}

static void test_inject_at_most_max(void **state)
{
    char spec[INJ_MAX * 16 + 16] = "";
    struct inj_plan p;
    char err[160];

    (void)state;
    for (unsigned i = 0; i < INJ_MAX; i++)
        snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec), "%sep@%u", i ? "," : "", i);
    assert_int_equal(inj_parse(&p, spec, err, sizeof(err)), 0);
    assert_int_equal(p.n, INJ_MAX);
    strcat(spec, ",ep@99");
    assert_int_equal(inj_parse(&p, spec, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "at most"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inject_each_kind),
        cmocka_unit_test(test_inject_lists_and_none),
        cmocka_unit_test(test_inject_rejects),
        cmocka_unit_test(test_inject_queue),
        cmocka_unit_test(test_inject_at_most_max),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
