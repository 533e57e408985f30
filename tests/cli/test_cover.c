/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_cover.c - the functional cover points (sim/lib/cover.h,
 * docs/coverage.md) as `nictx cover` adds them up: the directed runs below
 * must hit the points the random regression reaches rarely or never (each
 * run names the points it is for; `nictx cover --require` fails naming a
 * point none of them hit), and the aggregation itself: a point no run hit
 * is listed as never hit and fails --require; an unknown point name, a file
 * without "cover" and no file at all are refused (exit 2).  The runs are on
 * the C model (--device c, which counts the device's points) and short
 * (1000-3000 packets).
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli_harness.h"

#define PATH_BYTES 256
#define MAX_ARGS 24

/* One directed run: its options, the exit status it must end with (1: a
 * driver bug's violation), and the points it is there to hit. */
struct directed {
    const char *args[MAX_ARGS];
    int status;
    const char *points;
};

static const struct directed runs[] = {
    {{"--packets", "1500", "--ring", "64", "--protocol", "tail", "--completion", "head-wb"}, 0,
     "ring_wrap,proto_tail,cpl_head_wb"},
    {{"--packets", "1500", "--protocol", "owner", "--completion", "desc-wb"}, 0,
     "proto_owner,cpl_desc_wb,flush_reads"},
    {{"--packets", "1500", "--protocol", "wc", "--burst", "1"}, 0, "proto_wc,wc_flip"},
    {{"--packets", "1500", "--completion", "cq", "--irq-usecs", "5"}, 0, "cpl_cq,mod_timer"},
    {{"--packets", "1500", "--completion", "desc-wb", "--desc-wb", "full", "--mps", "128"}, 0,
     "cpl_desc_wb_full"},
    {{"--packets", "1500", "--queues", "4", "--sched", "drr", "--weights", "1,2,3,4", "--pkt-size-max",
      "1518"},
     0, "queue_active[3],drr_carry,tags_exhausted"},
    {{"--packets", "3000", "--queues", "64", "--sched", "drr", "--weights", "3"}, 0, "queue_active[63]"},
    {{"--packets", "1500", "--inject", "timeout@500"}, 0, "err_cpl_timeout,reset_busy"},
    {{"--packets", "1500", "--inject", "ur@100,db-off@900"}, 0, "err_dma,err_db_off"},
    {{"--packets", "1500", "--tags", "64", "--max-read-bytes", "4096", "--pkt-size", "1518"}, 0,
     "bytes_full"},
    {{"--packets", "1500", "--pkt-size", "1518", "--mps", "128", "--protocol", "wc", "--fc-update-ns",
      "1000", "--fc-dev", "ph=127,pd=8,nph=127,npd=8,cplh=127,cpld=8", "--fc-host",
      "ph=127,pd=8,nph=127,npd=8,cplh=127,cpld=8"},
     0, "stall_pd,stall_cpld"},
    {{"--packets", "1500", "--pkt-size", "256", "--fc-dev", "ph=1,pd=16,nph=1,npd=1,cplh=1,cpld=16",
      "--fc-host", "ph=1,pd=16,nph=1,npd=1,cplh=1,cpld=16"},
     0, "stall_ph,stall_nph,stall_cplh"},
    {{"--packets", "1500", "--driver-bug", "tail-beyond-ring"}, 1, "err_tail_range"},
    {{"--packets", "1500", "--driver-bug", "zero-len"}, 1, "err_bad_desc"},
    {{"--packets", "1500", "--driver-bug", "bf-wrong-slot", "--protocol", "wc", "--burst", "4"}, 1,
     "wc_stale"},
};
#define NRUNS (sizeof(runs) / sizeof(runs[0]))

static const char *work_file(const struct cli *c, unsigned k, char *buf)
{
    snprintf(buf, PATH_BYTES, "%s/run%u.json", c->work, k);
    return buf;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* nictx run ARGS --device c --quiet --json PATH */
static void directed_run(struct cli *c, const struct directed *d, const char *json)
{
    const char *args[MAX_ARGS + 8] = {"run"};
    size_t n = 1;
    struct run r;

    for (size_t i = 0; i < MAX_ARGS && d->args[i]; i++)
        args[n++] = d->args[i];
    args[n++] = "--device";
    args[n++] = "c";
    args[n++] = "--quiet";
    args[n++] = "--json";
    args[n++] = json;
    args[n] = NULL;
    nictx_argv(c, &r, args);
    expect_status(&r, d->status);
    run_free(&r);
}

/* Every directed run hits the points it names: nictx cover --require over
 * their JSON exits 0 (and 1, naming them, if one were missed). */
static void test_directed_runs_hit_their_points(void **state)
{
    struct cli *c = *state;
    char json[NRUNS][PATH_BYTES], req[1024] = "";
    const char *args[NRUNS + 4] = {"cover", "--require", req};
    struct run r;

    for (unsigned k = 0; k < NRUNS; k++) {
        directed_run(c, &runs[k], work_file(c, k, json[k]));
        args[3 + k] = json[k];
        strcat(req, k ? "," : "");
        strcat(req, runs[k].points);
    }
    args[3 + NRUNS] = NULL;
    nictx_argv(c, &r, args);
    expect_status(&r, 0);
    expect_has(r.out, "points hit over 15 runs");
    assert_null(strstr(r.out, "required, not hit"));
    run_free(&r);
}

/* Hand-written runs: one point hit in one, another in the other; every
 * other point is never hit, and --require of one of those fails naming it. */
static void test_a_point_never_hit_is_listed_and_fails_require(void **state)
{
    struct cli *c = *state;
    char a[PATH_BYTES], b[PATH_BYTES];
    struct run r;

    work_file(c, 100, a);
    work_file(c, 101, b);
    write_file(a, "{\"cover\": {\"ring_wrap\": 3, \"wc_torn\": 0, \"queue_active[5]\": 0}}\n");
    write_file(b, "{\"cover\": {\"wc_torn\": 2, \"stall_ph\": 0}}\n");
    NICTX(c, &r, "cover", a, b);
    expect_status(&r, 0);
    expect_has(r.out, "cover: 2 of 95 points hit over 2 runs");
    expect_has(r.out, "  proto_tail ");
    expect_has(r.out, "  queue_active[0..63] ");
    assert_null(strstr(r.out, "  ring_wrap "));
    assert_null(strstr(r.out, "  wc_torn "));
    run_free(&r);

    NICTX(c, &r, "cover", "--require", "ring_wrap,wc_torn", a, b);
    expect_status(&r, 0);
    run_free(&r);
    NICTX(c, &r, "cover", "--require", "ring_wrap,stall_ph,queue_active[5]", a, b);
    expect_status(&r, 1);
    expect_has(r.out, "required, not hit: stall_ph");
    expect_has(r.out, "required, not hit: queue_active[5]");
    assert_null(strstr(r.out, "required, not hit: ring_wrap"));
    run_free(&r);
}

/* Only the links' points are counted when no run counted the device's. */
static void test_device_points_need_a_device_that_counts(void **state)
{
    struct cli *c = *state;
    char a[PATH_BYTES];
    struct run r;

    work_file(c, 102, a);
    write_file(a, "{\"cover\": {\"stall_ph\": 1}}\n");
    NICTX(c, &r, "cover", a);
    expect_status(&r, 0);
    expect_has(r.out, "cover: 1 of 6 points hit over 1 run");
    expect_has(r.out, "the device's points not counted");
    assert_null(strstr(r.out, "  ring_wrap "));
    run_free(&r);
}

static void test_bad_input_exits_2(void **state)
{
    struct cli *c = *state;
    char a[PATH_BYTES], b[PATH_BYTES];
    struct run r;

    work_file(c, 103, a);
    work_file(c, 104, b);
    write_file(a, "{\"mpps\": 1.5}\n");
    write_file(b, "{\"cover\": {\"ring_wrap\": 1}}\n");
    NICTX(c, &r, "cover", a);
    expect_status(&r, 2);
    expect_has(r.err, "no \"cover\" object");
    run_free(&r);
    NICTX(c, &r, "cover", "--require", "no_such_point", b);
    expect_status(&r, 2);
    expect_has(r.err, "no cover point 'no_such_point'");
    run_free(&r);
    NICTX(c, &r, "cover");
    expect_status(&r, 2);
    run_free(&r);
}

/* --list: the list, a line a point, the per-queue one with its count. */
static void test_list(void **state)
{
    struct cli *c = *state;
    struct run r;

    NICTX(c, &r, "cover", "--list");
    expect_status(&r, 0);
    expect_has(r.out, "ring_wrap\t1\tdev\t");
    expect_has(r.out, "queue_active\t64\tdev\t");
    expect_has(r.out, "stall_cpld\t1\tlink\t");
    run_free(&r);
}

#define COVER_TEST(t) cmocka_unit_test_setup_teardown(t, cli_setup, cli_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        COVER_TEST(test_directed_runs_hit_their_points),
        COVER_TEST(test_a_point_never_hit_is_listed_and_fails_require),
        COVER_TEST(test_device_points_need_a_device_that_counts),
        COVER_TEST(test_bad_input_exits_2),
        COVER_TEST(test_list),
    };

    return cmocka_run_group_tests_name("cover", tests, NULL, NULL);
}
