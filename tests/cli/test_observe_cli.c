/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_observe_cli.c - the observability options as a user meets them
 * (docs/observability.md): bad values refused with exit 2 and nothing
 * written, the files a run writes, and the snapshot a stopped run leaves
 * beside its JSON, named on stderr (a violation's stop and the watchdog's).
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/cli_harness.h"

static const char *in_work(const struct cli *c, const char *name)
{
    static char buf[4][256];
    static unsigned k;
    char *p = buf[k++ % 4];

    snprintf(p, 256, "%s/%s", c->work, name);
    return p;
}

/* Each bad value: exit 2, a message naming the option, no file left. */
static void test_observe_cli_refused(void **state)
{
    struct cli *c = *state;
    struct run r;
    static const struct {
        const char *opt, *val, *also, *also_val, *says;
    } bad[] = {
        {"--wave-from", "12.5", "--wave", "w.fst", "packet number"},
        {"--wave-to", "3min", "--timeline", "t.json", "unknown unit"},
        {"--wave-from", "1us", NULL, NULL, "window --wave or --timeline"},
        {"--pcap-in", "no-such.pcap", NULL, NULL, "no-such.pcap"},
        {"--pcap-timing", "1", NULL, NULL, "give --pcap-in"},
        {"--wave", "/no/such/dir/w.fst", NULL, NULL, "cannot create a file"},
        {"--timeline", ".", NULL, NULL, "is a directory"},
        {"--snapshot-us", "0", NULL, NULL, "--snapshot-us"},
    };

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const char *val = bad[i].val[0] == '/' || !strcmp(bad[i].val, ".") ||
                                  strstr(bad[i].opt, "wave-") || strstr(bad[i].opt, "timing") ||
                                  strstr(bad[i].opt, "snapshot")
                              ? bad[i].val
                              : in_work(c, bad[i].val);
        if (bad[i].also)
            NICTX(c, &r, "run", "--packets", "10", bad[i].opt, val, bad[i].also,
                  in_work(c, bad[i].also_val));
        else
            NICTX(c, &r, "run", "--packets", "10", bad[i].opt, val);
        expect_status(&r, 2);
        expect_has(r.err, bad[i].says);
        run_free(&r);
        assert_int_equal(dir_entries(c->work), 0);
    }
    /* A capture on several queues. */
    NICTX(c, &r, "run", "--packets", "10", "--queues", "2", "--pcap-in",
          "tests/corpus/pcap/imix.pcap");
    expect_status(&r, 2);
    expect_has(r.err, "one queue");
    run_free(&r);
}

/* The outputs of a passing run, and no snapshot. */
static void test_observe_cli_outputs(void **state)
{
    struct cli *c = *state;
    struct run r;

    NICTX(c, &r, "run", "--packets", "100", "--quiet", "--json", in_work(c, "r.json"),
          "--timeline", in_work(c, "t.json"), "--wave", in_work(c, "w.fst"), "--wave-from", "2us",
          "--wave-to", "4us", "--pcap-out", in_work(c, "o.pcap"), "--pcap-in",
          "tests/corpus/pcap/imix.pcap");
    expect_status(&r, 0);
    run_free(&r);
    for (const char *f = "r.json t.json w.fst o.pcap"; *f;) {
        char name[16];
        size_t n = strcspn(f, " ");
        snprintf(name, sizeof(name), "%.*s", (int)n, f);
        if (access(in_work(c, name), R_OK) != 0)
            fail_msg("%s not written", name);
        f += n + (f[n] == ' ');
    }
    assert_int_equal(dir_entries(c->work), 4);
    assert_false(dir_has_tmp(c->work));
}

/* A run that stops: its snapshot beside the JSON, named on stderr. */
static void test_observe_cli_snapshot(void **state)
{
    struct cli *c = *state;
    struct run r;

    NICTX(c, &r, "run", "--packets", "3000", "--quiet", "--json", in_work(c, "bug.json"),
          "--driver-bug", "no-wmb-doorbell", "--ordering", "weak");
    expect_status(&r, 1);
    expect_has(r.err, "bug.snapshot.json (timeline)");
    expect_has(r.err, "bug.snapshot.fst (waveform)");
    run_free(&r);
    assert_int_equal(access(in_work(c, "bug.snapshot.json"), R_OK), 0);
    assert_int_equal(access(in_work(c, "bug.snapshot.fst"), R_OK), 0);
    /* --no-snapshot: none. */
    NICTX(c, &r, "run", "--packets", "3000", "--quiet", "--json", in_work(c, "no.json"),
          "--driver-bug", "no-wmb-doorbell", "--ordering", "weak", "--no-snapshot");
    expect_status(&r, 1);
    assert_null(strstr(r.err, "snapshot"));
    run_free(&r);
    assert_int_not_equal(access(in_work(c, "no.snapshot.json"), F_OK), 0);
    /* A run that ends (an ERR bit set by a fault among the last packets,
     * which the fault explains: ok) did not stop: no snapshot. */
    NICTX(c, &r, "run", "--packets", "2000", "--quiet", "--json", in_work(c, "end.json"),
          "--inject", "ur@1999");
    expect_status(&r, 0);
    assert_null(strstr(r.err, "snapshot"));
    run_free(&r);
    assert_int_not_equal(access(in_work(c, "end.snapshot.json"), F_OK), 0);
}

/* A run the watchdog ends (a blackout longer than the completion timeout
 * with the hang check off: the queue stops, nothing recovers it) leaves its
 * snapshot too, its window before the last progress, the stop and its
 * diagnosis on the checks track. */
static void test_observe_cli_snapshot_watchdog(void **state)
{
    struct cli *c = *state;
    struct run r;
    char *tl;

    NICTX(c, &r, "run", "--packets", "3000", "--quiet", "--json", in_work(c, "wd.json"),
          "--tx-timeout-us", "0", "--cpl-timeout-us", "100", "--inject", "blackout@500:300000");
    expect_status(&r, 1);
    expect_has(r.err, "run failed: watchdog: no frame and no device write for ");
    expect_has(r.err, "wd.snapshot.json (timeline)");
    expect_has(r.err, "wd.snapshot.fst (waveform)");
    run_free(&r);
    assert_int_equal(access(in_work(c, "wd.snapshot.fst"), R_OK), 0);
    tl = slurp(in_work(c, "wd.snapshot.json"));
    assert_non_null(tl);
    expect_has(tl, "\"name\":\"run stopped\"");
    expect_has(tl, "\"why\":\"watchdog: no frame and no device write");
    free(tl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_observe_cli_refused, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_observe_cli_outputs, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_observe_cli_snapshot, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_observe_cli_snapshot_watchdog, cli_setup, cli_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
