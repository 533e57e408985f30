/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_cli.c - the command line as a user meets it: runs build/nictx (or
 * $NICTX) in a child process with stdout and stderr captured to files, and
 * checks exit statuses (0 ok, 1 failed run, 2 bad argument) and what the
 * messages say.  Strict numbers: every kind of refused text, each named in
 * its test.  --json: refused before the run when it could not be written,
 * and an existing file replaced atomically.  --check and --list-options,
 * what `nictx sweep` asks of run.  Runs are short (2000-3000 packets, well
 * under a second each).  The process plumbing is tests/common/cli_harness.c.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, clock_gettime */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/cli_harness.h"

/* ---- refused arguments ------------------------------------------------------ */

/*
 * `run --packets 2000 --quiet --OPT VAL` exits 2 at once, names the option
 * and says `why`, and prints nothing on stdout.  --packets 2000 comes first
 * so that a value wrongly accepted gives a short run that exits 0.
 */
static void expect_refused(struct cli *c, const char *opt, const char *val, const char *why)
{
    struct run r = {0};
    char named[64];

    NICTX(c, &r, "run", "--packets", "2000", "--quiet", opt, val);
    expect_status(&r, 2);
    snprintf(named, sizeof(named), "nictx: %s ", opt);
    expect_has(r.err, named);
    expect_has(r.err, why);
    expect_has(r.err, "(see nictx --help)");
    assert_string_equal(r.out, "");
    run_free(&r);
}

/* ---- files ------------------------------------------------------------------ */

/*
 * Textually one complete JSON object: it opens with '{', every bracket
 * outside strings closes in order, and nothing but blanks follows the last.
 * (Not a parser; it catches truncated and concatenated documents.)
 */
static int json_complete(const char *s)
{
    char stack[64];
    int depth = 0, in_str = 0;

    s += strspn(s, " \t\r\n");
    if (*s != '{')
        return 0;
    for (; *s; s++) {
        if (in_str) {
            if (*s == '\\' && s[1])
                s++;
            else if (*s == '"')
                in_str = 0;
        } else if (*s == '"') {
            in_str = 1;
        } else if (*s == '{' || *s == '[') {
            if (depth == (int)sizeof(stack))
                return 0;
            stack[depth++] = *s == '{' ? '}' : ']';
        } else if (*s == '}' || *s == ']') {
            if (depth == 0 || stack[--depth] != *s)
                return 0;
            if (depth == 0)
                return s[1 + strspn(s + 1, " \t\r\n")] == '\0';
        }
    }
    return 0;
}

/* `path` holds one whole JSON result of a run of `packets` packets with
 * this status ("ok", "violation"). */
static void expect_json_result(const char *path, const char *packets, const char *status)
{
    char *doc = slurp(path);
    char want[64];

    assert_non_null(doc);
    if (!json_complete(doc))
        print_error("%s is not one complete JSON object:\n%.2000s\n", path, doc);
    assert_true(json_complete(doc));
    snprintf(want, sizeof(want), "\"packets\": %s,", packets);
    expect_has(doc, want);
    snprintf(want, sizeof(want), "\"status\": \"%s\"", status);
    expect_has(doc, want);
    free(doc);
}

/* ---- help and listings: exit 0 ------------------------------------------ */

static void test_cli_help(void **state)
{
    struct cli *c = *state;
    struct run r = {0};

    NICTX(c, &r, "--help");
    expect_status(&r, 0);
    expect_has(r.out, "usage: nictx run [options]");
    expect_has(r.out, "--ring N");
    expect_has(r.out, "--json FILE");
    expect_has(r.out, "--driver-bug NAME");
    expect_has(r.out, "--queues N");
    expect_has(r.out, "--sched S");
    expect_has(r.out, "--weights W[,W...]");
    expect_has(r.out, "--drr-quantum N");
    expect_has(r.out, "Numbers are decimal");
    assert_string_equal(r.err, "");
    run_free(&r);

    NICTX(c, &r, "run", "--help");
    expect_status(&r, 0);
    expect_has(r.out, "usage: nictx run [options]");
    run_free(&r);
}

/* --help's option lines wrap greedily at 80 columns (sim/cli/options.c,
 * help_wrap), continued 24 columns in: no line longer, none ending in a
 * blank, and no continued line whose first word would have fitted on the
 * line before it (a wrap that cuts early, or keeps a blank it should trim,
 * breaks one of these). */
#define HELP_COLS 80
#define HELP_CONT 24

static void test_cli_help_wrapped(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    size_t prev = 0, cont = 0;
    int in_opt = 0;

    NICTX(c, &r, "--help");
    expect_status(&r, 0);
    for (const char *l = r.out; *l;) {
        size_t n = strcspn(l, "\n"), ind = strspn(l, " ");
        if (n > HELP_COLS || (n > 0 && l[n - 1] == ' '))
            fail_msg("--help line of %zu columns%s: '%.*s'", n,
                     n > HELP_COLS ? "" : " ending in a blank", (int)n, l);
        if (in_opt && ind == HELP_CONT && n > ind) {
            size_t w = strcspn(l + ind, " \n");
            if (prev + 1 + w <= HELP_COLS)
                fail_msg("--help: '%.*s' would fit on the line before it (%zu columns)",
                         (int)w, l + ind, prev);
            cont++;
        } else {
            in_opt = strncmp(l, "  --", 4) == 0;
        }
        prev = n;
        l += n + (l[n] == '\n');
    }
    assert_true(cont > 20); /* many options' help is continued */
    run_free(&r);
}

/* --check parses and validates, then exits: at once even for a run that
 * would take minutes, 2 for what a run would refuse. */
static void test_cli_check(void **state)
{
    struct cli *c = *state;
    struct run r = {0};

    NICTX(c, &r, "run", "--packets", "100000000", "--protocol", "owner", "--check");
    expect_status(&r, 0);
    assert_string_equal(r.out, "");
    assert_true(r.secs < 5);
    run_free(&r);
    NICTX(c, &r, "run", "--check", "--ring", "8");
    expect_status(&r, 2);
    expect_has(r.err, "wb-thresh");
    run_free(&r);
    NICTX(c, &r, "run", "--check", "--set", "cpu.nope=1");
    expect_status(&r, 2);
    expect_has(r.err, "cpu.nope");
    run_free(&r);
}

/* --list-options: every option, and whether it takes a value. */
static void test_cli_list_options(void **state)
{
    struct cli *c = *state;
    struct run r = {0};

    NICTX(c, &r, "run", "--list-options");
    expect_status(&r, 0);
    expect_has(r.out, "burst value\n");
    expect_has(r.out, "set value\n");
    expect_has(r.out, "rcb-chunks flag\n");
    expect_has(r.out, "check flag\n");
    run_free(&r);
}

static void test_cli_driver_bug_list(void **state)
{
    struct cli *c = *state;
    struct run r = {0};

    NICTX(c, &r, "run", "--driver-bug", "list");
    expect_status(&r, 0);
    expect_has(r.out, "zero-len");
    expect_has(r.out, "no-dma-wmb");
    run_free(&r);
}

static void test_cli_list_keys(void **state)
{
    struct cli *c = *state;
    struct run r = {0};

    NICTX(c, &r, "run", "--list-keys");
    expect_status(&r, 0);
    expect_has(r.out, "cpu.lock_ns");
    expect_has(r.out, "cpu.xmit_pkt_ns");
    run_free(&r);
}

/* ---- bad command lines: exit 2 ------------------------------------------ */

static void test_cli_no_arguments(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    const char *const none[] = {NULL};

    nictx_argv(c, &r, none);
    expect_status(&r, 2);
    expect_has(r.err, "usage: nictx run");
    run_free(&r);
}

static void test_cli_unknown_command(void **state)
{
    struct cli *c = *state;
    struct run r = {0};

    NICTX(c, &r, "frob");
    expect_status(&r, 2);
    expect_has(r.err, "unknown command 'frob'");
    run_free(&r);
}

static void test_cli_unknown_option(void **state)
{
    struct cli *c = *state;
    struct run r = {0};

    NICTX(c, &r, "run", "--packets", "2000", "--bogus", "3");
    expect_status(&r, 2);
    expect_has(r.err, "unknown");
    expect_has(r.err, "--bogus");
    assert_string_equal(r.out, "");
    run_free(&r);

    NICTX(c, &r, "run", "--packets", "2000", "-x");
    expect_status(&r, 2);
    expect_has(r.err, "unknown option -x");
    run_free(&r);
}

static void test_cli_missing_value(void **state)
{
    struct cli *c = *state;
    struct run r = {0};

    NICTX(c, &r, "run", "--packets", "2000", "--ring");
    expect_status(&r, 2);
    expect_has(r.err, "nictx: --ring needs a value");
    assert_string_equal(r.out, "");
    run_free(&r);
}

static void test_cli_flag_given_a_value(void **state)
{
    struct cli *c = *state;
    struct run r = {0};

    NICTX(c, &r, "run", "--packets", "2000", "--quiet=1");
    expect_status(&r, 2);
    expect_has(r.err, "nictx: --quiet takes no value");
    run_free(&r);
}

static void test_cli_unexpected_argument(void **state)
{
    struct cli *c = *state;
    struct run r = {0};

    NICTX(c, &r, "run", "--packets", "2000", "extra");
    expect_status(&r, 2);
    expect_has(r.err, "unexpected argument 'extra'");
    run_free(&r);
}

/* A well-formed number the configuration does not allow: sim_cfg_validate. */
static void test_cli_invalid_config(void **state)
{
    struct cli *c = *state;
    struct run r = {0};

    NICTX(c, &r, "run", "--packets", "2000", "--ring", "1000");
    expect_status(&r, 2);
    expect_has(r.err, "nictx: --ring 1000: must be a power of two");
    assert_string_equal(r.out, "");
    run_free(&r);
}

/* `run --check ARGS...` exits 2 and its message has every string of `has`
 * (NULL-terminated): the queue refusals name both options. */
static void expect_check_refused(struct cli *c, const char *const *args, size_t nargs,
                                 const char *const *has)
{
    struct run r = {0};
    const char *argv[16] = {"run", "--check"};

    assert_true(nargs + 3 <= 16);
    for (size_t i = 0; i < nargs; i++)
        argv[2 + i] = args[i];
    argv[nargs + 2] = NULL;
    nictx_argv(c, &r, argv);
    expect_status(&r, 2);
    for (; *has; has++)
        expect_has(r.err, *has);
    assert_string_equal(r.out, "");
    run_free(&r);
}

#define CHECK_REFUSED(c, has, ...)                                             \
    do {                                                                       \
        const char *a_[] = {__VA_ARGS__};                                      \
        expect_check_refused(c, a_, sizeof(a_) / sizeof(a_[0]), has);          \
    } while (0)

/* BQL's stall detector (--bql-stall-ms): 0 or 4..128 (net-sysfs's
 * stall_thrs range at HZ 1000), and only with --bql on; a run with it on
 * reports the bql block in the text and the JSON. */
static void test_cli_bql_stall(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    static const char *const range3[] = {"--bql-stall-ms 3: must be 0 or 4..128", NULL};
    static const char *const range129[] = {"--bql-stall-ms 129: must be 0 or 4..128", NULL};
    static const char *const nobql[] = {"--bql-stall-ms 4 needs --bql on", NULL};
    char path[160], *j;

    CHECK_REFUSED(c, range3, "--bql", "on", "--bql-stall-ms", "3");
    CHECK_REFUSED(c, range129, "--bql", "on", "--bql-stall-ms", "129");
    CHECK_REFUSED(c, nobql, "--bql-stall-ms", "4");
    snprintf(path, sizeof(path), "%s/b.json", c->work);
    NICTX(c, &r, "run", "--packets", "2000", "--bql", "on", "--bql-stall-ms", "128", "--json",
          path);
    expect_status(&r, 0);
    expect_has(r.out, "bql stall 128 ms");
    expect_has(r.out, "  bql               stops ");
    j = slurp(path);
    assert_non_null(j);
    expect_has(j, "\"bql_stall_ms\": 128");
    expect_has(j, "\"stalls\": 0");
    free(j);
    run_free(&r);
}

/* --queues and the scheduler: ranges (boundaries 0/65, 63/65537, 0/256),
 * the weight count, and what more than one queue refuses (docs/device.md,
 * Queues), each message naming both options; the largest accepted. */
static void test_cli_queues_refused(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    const char *const range[] = {"--queues", "1..64", NULL};
    const char *const quantum[] = {"--drr-quantum", "64..65536", NULL};
    const char *const weight[] = {"--weights", "1..255", NULL};
    const char *const count[] = {"--weights", "--queues", NULL};
    const char *const proto[] = {"--queues", "--protocol", NULL};
    const char *const inj[] = {"--inject ur@7/100", "queue 7", "--queues 4", NULL};
    const char *const inj_n[] = {"--inject ur@2/600", "queue 2's 500 packets", NULL};

    CHECK_REFUSED(c, range, "--queues", "0");
    CHECK_REFUSED(c, range, "--queues", "65");
    CHECK_REFUSED(c, quantum, "--drr-quantum", "63");
    CHECK_REFUSED(c, quantum, "--drr-quantum", "65537");
    CHECK_REFUSED(c, weight, "--weights", "0");
    CHECK_REFUSED(c, weight, "--queues", "2", "--weights", "1,256");
    CHECK_REFUSED(c, count, "--queues", "3", "--weights", "1,2");
    CHECK_REFUSED(c, proto, "--queues", "2", "--protocol", "wc");
    CHECK_REFUSED(c, inj, "--queues", "4", "--inject", "ur@7/100");
    CHECK_REFUSED(c, inj_n, "--packets", "2000", "--queues", "4", "--inject", "ur@2/600");
    expect_refused(c, "--sched", "wfq", "expected rr or drr");
    expect_refused(c, "--weights", "1,,2", "expected W[,W...]");
    expect_refused(c, "--weights", "01", "expected W[,W...]");

    NICTX(c, &r, "run", "--check", "--queues", "64", "--sched", "drr", "--weights", "255",
          "--drr-quantum", "65536", "--completion", "mmio");
    expect_status(&r, 0);
    run_free(&r);
    /* Completion modes and interrupts run per queue (issue 8 item 4): no
     * longer refused with several queues. */
    NICTX(c, &r, "run", "--check", "--queues", "2", "--completion", "desc-wb");
    expect_status(&r, 0);
    run_free(&r);
    NICTX(c, &r, "run", "--check", "--queues", "8", "--completion", "cq", "--irq-thresh", "8",
          "--irq-usecs", "5", "--set", "host.napi=irq");
    expect_status(&r, 0);
    run_free(&r);
    /* The owner protocol runs per queue too; the WC window serves one. */
    NICTX(c, &r, "run", "--check", "--queues", "4", "--protocol", "owner");
    expect_status(&r, 0);
    run_free(&r);
    /* Fault injection runs per queue (KIND@Q/N; KIND@N is queue 0's). */
    NICTX(c, &r, "run", "--packets", "2000", "--quiet", "--queues", "4", "--inject", "ur@100");
    expect_status(&r, 0); /* a clean run: every frame checked or dropped by the fault */
    run_free(&r);
    NICTX(c, &r, "run", "--check", "--queues", "4", "--inject", "ur@3/100,blackout@1/5:1000");
    expect_status(&r, 0);
    run_free(&r);
    NICTX(c, &r, "run", "--check", "--queues", "4", "--weights", "1,2,3,4", "--drr-quantum",
          "64", "--set", "device.sched=drr");
    expect_status(&r, 0);
    run_free(&r);
    NICTX(c, &r, "run", "--check", "--set", "device.queues=2", "--set", "device.weights=1,2,3");
    expect_status(&r, 2);
    expect_has(r.err, "--weights");
    run_free(&r);
}

static void test_cli_unknown_driver_bug(void **state)
{
    expect_refused(*state, "--driver-bug", "nope", "unknown driver bug");
}

/* ---- strict numbers: exit 2, naming the option ---------------------------- */

/* 010 was octal 8 (strtoull base 0), which then failed as a wb-thresh error. */
static void test_cli_number_octal(void **state)
{
    expect_refused(*state, "--ring", "010", "leading zero");
    expect_refused(*state, "--dev-mhz", "0250", "leading zero");
}

static void test_cli_number_hex(void **state)
{
    expect_refused(*state, "--ring", "0x10", "hex");
    expect_refused(*state, "--poll-ns", "0x1p10", "hex"); /* strtod's hex float */
}

/* " -1" was 2^64-1: strtoull skips blanks, then negates. */
static void test_cli_number_sign(void **state)
{
    expect_refused(*state, "--seed", "-1", "no sign");
    expect_refused(*state, "--bug-at", "+3", "no sign");
    expect_refused(*state, "--mem-latency-ns", "-5", "no sign");
}

static void test_cli_number_blanks(void **state)
{
    expect_refused(*state, "--seed", " 5", "blank");
    expect_refused(*state, "--seed", " -1", "blank");
    expect_refused(*state, "--packets", "5 ", "blank");
}

static void test_cli_number_empty(void **state)
{
    struct cli *c = *state;
    struct run r = {0};

    expect_refused(c, "--ring", "", "empty");
    expect_refused(c, "--watchdog-us", "", "empty");
    NICTX(c, &r, "run", "--packets", "2000", "--quiet", "--ring=");
    expect_status(&r, 2);
    expect_has(r.err, "nictx: --ring '': empty");
    run_free(&r);
}

static void test_cli_number_garbage(void **state)
{
    expect_refused(*state, "--packets", "12abc", "not a decimal integer");
    expect_refused(*state, "--packets", "1e6", "not a decimal integer"); /* reals only */
    expect_refused(*state, "--burst", "8.0", "not a decimal integer");
    expect_refused(*state, "--grace-us", "1.5us", "not a decimal number");
    expect_refused(*state, "--grace-us", "1e", "not a decimal number");
}

static void test_cli_number_integer_overflow(void **state)
{
    expect_refused(*state, "--seed", "99999999999999999999", "out of range");
    expect_refused(*state, "--packets", "18446744073709551616", "out of range");
    expect_refused(*state, "--ring", "4294967296", "out of range (at most 4294967295)");
}

static void test_cli_number_double_overflow(void **state)
{
    expect_refused(*state, "--dev-mhz", "1e999", "out of range");
    expect_refused(*state, "--pcie-latency-ns", "1e-999", "out of range");
}

static void test_cli_number_not_finite(void **state)
{
    expect_refused(*state, "--dev-mhz", "nan", "not a finite number");
    expect_refused(*state, "--watchdog-us", "inf", "not a finite number");
    expect_refused(*state, "--mmio-write-ns", "NaN", "not a finite number");
    expect_refused(*state, "--grace-us", "infinity", "not a finite number");
}

/* Numbers inside other options' values obey the same rules. */
static void test_cli_number_inside_values(void **state)
{
    expect_refused(*state, "--line", "0x10g", "expected decimal Gb/s");
    expect_refused(*state, "--line", "infg", "expected decimal Gb/s");
    expect_refused(*state, "--fc-dev", "ph=010", "TYPE=N");
    expect_refused(*state, "--fc-host", "cpld=-1", "TYPE=N");
}

/* What is allowed still works, at the edges of each form. */
static void test_cli_numbers_accepted(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    char path[160];

    snprintf(path, sizeof(path), "%s/r.json", c->work);
    NICTX(c, &r, "run", "--packets=2000", "--quiet", "--seed", "18446744073709551615",
          "--pcie-latency-ns", "1e2", "--dev-mhz", "250.0", "--line", "10.0g",
          "--buf-offset", "0", "--grace-us", "20.", "--fc-update-ns", ".5", "--json", path);
    expect_status(&r, 0);
    expect_json_result(path, "2000", "ok");
    run_free(&r);
    r.out = slurp(path);
    expect_has(r.out, "\"seed\": 18446744073709551615,");
    run_free(&r);
}

/* ---- runs: exit 0, and 1 for a run that fails ------------------------------ */

static void test_cli_run_json(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    char path[160];

    snprintf(path, sizeof(path), "%s/r.json", c->work);
    NICTX(c, &r, "run", "--packets", "2000", "--json", path);
    expect_status(&r, 0);
    expect_has(r.out, "Mpps");
    assert_string_equal(r.err, "");
    expect_json_result(path, "2000", "ok");
    assert_int_equal(dir_entries(c->work), 1);
    run_free(&r);
}

static void test_cli_driver_bug_stops(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    char path[160];

    snprintf(path, sizeof(path), "%s/bug.json", c->work);
    NICTX(c, &r, "run", "--driver-bug", "zero-len", "--packets", "3000", "--bug-at", "300",
          "--json", path);
    expect_status(&r, 1);
    expect_has(r.out, "RUN STOPPED");
    expect_has(r.out, "desc_zero_len");
    expect_json_result(path, "3000", "violation"); /* the JSON is written all the same */
    run_free(&r);
}

/* --check and a run agree (issue 33): a configuration --check accepts
 * runs, and one it refuses, the run refuses with the same message, before
 * anything runs.  Each: CQ mode at ring 8192 (its host memory was short,
 * the probe failed with no JSON), host memory past the simulator's, a
 * link latency the completion timer cannot count, a --bug-at beyond the
 * run. */
static void test_cli_check_agrees_with_run(void **state)
{
    static const char *const refused[][10] = {
        {"--queues", "4", "--ring", "65536", "--pkt-size", "16387", "--buf-offset", "63",
         "--completion", "cq"},
        {"--pcie-latency-ns", "50000000"},
        {"--driver-bug", "zero-len", "--packets", "1000", "--bug-at", "1000"},
    };
    static const char *const why[] = {"DMA memory would be", "completion timeout can count",
                                      "would never act"};
    struct cli *c = *state;
    struct run r = {0};
    char path[160], first[512];

    NICTX(c, &r, "run", "--completion", "cq", "--ring", "8192", "--packets", "2000", "--check");
    expect_status(&r, 0);
    run_free(&r);
    snprintf(path, sizeof(path), "%s/cq.json", c->work);
    NICTX(c, &r, "run", "--completion", "cq", "--ring", "8192", "--packets", "2000", "--json",
          path);
    expect_status(&r, 0);
    expect_json_result(path, "2000", "ok");
    run_free(&r);
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        const char *args[16] = {"run", "--check"};
        size_t n = 2;
        for (size_t k = 0; k < 10 && refused[i][k]; k++)
            args[n++] = refused[i][k];
        nictx_argv(c, &r, args);
        expect_status(&r, 2);
        expect_has(r.err, why[i]);
        snprintf(first, sizeof(first), "%s", r.err);
        run_free(&r);
        args[1] = "--quiet"; /* the run itself */
        nictx_argv(c, &r, args);
        expect_status(&r, 2);
        assert_string_equal(r.err, first);
        assert_true(r.secs < 5);
        run_free(&r);
    }
}

/* The exit status, the table's first line, --quiet's line and the JSON's
 * status are the verdict's (run/verdict.h), for each way a run ends: ok
 * with a fault's ERR bit left at the end (it was a device_error
 * violation); a one-shot driver bug that never found its occasion (exit 0,
 * status ok, no warning: now bug_not_reached, exit 1). */
static void test_cli_verdict_agrees(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    char path[160];

    snprintf(path, sizeof(path), "%s/v.json", c->work);
    NICTX(c, &r, "run", "--packets", "2000", "--inject", "ur@1999", "--json", path);
    expect_status(&r, 0);
    expect_json_result(path, "2000", "ok");
    expect_has(r.out, "violations        0");
    run_free(&r);
    /* buf-overwrite acts on the first burst to start at or after packet
     * 1999; bursts of 8 start at 1992, then none. */
    NICTX(c, &r, "run", "--packets", "2000", "--driver-bug", "buf-overwrite", "--bug-at",
          "1999", "--json", path);
    expect_status(&r, 1);
    expect_has(r.out, "\nDRIVER BUG NOT REACHED: --driver-bug buf-overwrite acts once");
    expect_json_result(path, "2000", "bug_not_reached");
    run_free(&r);
    NICTX(c, &r, "run", "--packets", "2000", "--driver-bug", "buf-overwrite", "--bug-at",
          "1999", "--quiet");
    expect_status(&r, 1);
    expect_has(r.err, "nictx: run bug_not_reached: --driver-bug buf-overwrite");
    assert_string_equal(r.out, "");
    run_free(&r);
}

/* --dev-width: each width runs its own model and says so in the header and
 * the JSON; a width there is no model of is refused, naming the option
 * (boundary: 24, between two widths; 0 and 128 outside them). */
static void test_cli_dev_width(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    char path[160], *doc;

    snprintf(path, sizeof(path), "%s/w.json", c->work);
    NICTX(c, &r, "run", "--packets", "2000", "--dev-width", "64", "--json", path);
    expect_status(&r, 0);
    expect_has(r.out, "device 64 B/clock at 250 MHz");
    expect_json_result(path, "2000", "ok");
    doc = slurp(path);
    assert_non_null(doc);
    expect_has(doc, "\"dev_width\": 64,");
    free(doc);
    run_free(&r);

    NICTX(c, &r, "run", "--packets", "2000", "--set", "device.dev_width=16", "--json", path);
    expect_status(&r, 0);
    expect_has(r.out, "device 16 B/clock");
    run_free(&r);

    NICTX(c, &r, "run", "--help");
    expect_has(r.out, "--dev-width N");
    run_free(&r);

    expect_refused(c, "--dev-width", "24", "expected 8, 16, 32 or 64");
    expect_refused(c, "--dev-width", "0", "expected 8, 16, 32 or 64");
    expect_refused(c, "--dev-width", "128", "expected 8, 16, 32 or 64");
    expect_refused(c, "--dev-width", "8B", "not a decimal integer");
    NICTX(c, &r, "run", "--check", "--set", "device.dev_width=12");
    expect_status(&r, 2);
    expect_has(r.err, "--dev-width 12: must be 8, 16, 32 or 64");
    run_free(&r);
}

/* ---- --json: checked before the run, replaced atomically ------------------ */

/* Refused at once: with 10^7 packets the run itself would take a minute. */
static void test_cli_json_missing_directory(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    char path[256], dir[192];

    snprintf(dir, sizeof(dir), "%s/missing", c->work);
    snprintf(path, sizeof(path), "%s/r.json", dir);
    NICTX(c, &r, "run", "--packets", "10000000", "--quiet", "--json", path);
    expect_status(&r, 2);
    expect_has(r.err, "nictx: --json ");
    expect_has(r.err, path);
    expect_has(r.err, "No such file or directory");
    assert_true(r.secs < 2.0);
    assert_string_equal(r.out, "");
    assert_int_equal(dir_entries(c->work), 0);
    run_free(&r);
}

static void test_cli_json_is_directory(void **state)
{
    struct cli *c = *state;
    struct run r = {0};

    NICTX(c, &r, "run", "--packets", "10000000", "--quiet", "--json", c->work);
    expect_status(&r, 2);
    expect_has(r.err, "nictx: --json ");
    expect_has(r.err, "is a directory");
    assert_true(r.secs < 2.0);
    assert_int_equal(dir_entries(c->work), 0);
    assert_int_equal(dir_entries(c->root), 3); /* work, stdout, stderr */
    run_free(&r);
}

/* "" was taken as a name: the temporary file went into the current
 * directory, and the rename failed after the run. */
static void test_cli_json_empty_name(void **state)
{
    struct cli *c = *state;
    struct run r = {0};

    NICTX(c, &r, "run", "--packets", "10000000", "--quiet", "--json", "");
    expect_status(&r, 2);
    expect_has(r.err, "nictx: --json '': empty");
    assert_true(r.secs < 2.0);
    run_free(&r);
}

/* A rename over a FIFO (or /dev/null) would replace it: refused. */
static void test_cli_json_not_regular_file(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    char path[160];
    struct stat st;

    snprintf(path, sizeof(path), "%s/fifo", c->work);
    assert_int_equal(mkfifo(path, 0600), 0);
    NICTX(c, &r, "run", "--packets", "10000000", "--quiet", "--json", path);
    expect_status(&r, 2);
    expect_has(r.err, "nictx: --json ");
    expect_has(r.err, "not a regular file");
    assert_int_equal(stat(path, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(dir_entries(c->work), 1);
    run_free(&r);
}

/* Permissions do not bind root: skipped there. */
static void test_cli_json_read_only_directory(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    char path[160];

    if (geteuid() == 0)
        skip();
    snprintf(path, sizeof(path), "%s/r.json", c->work);
    assert_int_equal(chmod(c->work, 0500), 0);
    NICTX(c, &r, "run", "--packets", "10000000", "--quiet", "--json", path);
    chmod(c->work, 0700);
    expect_status(&r, 2);
    expect_has(r.err, "nictx: --json ");
    expect_has(r.err, "Permission denied");
    assert_int_equal(dir_entries(c->work), 0);
    run_free(&r);
}

/*
 * An existing file is replaced by a new one (a new inode: renamed over,
 * not rewritten in place), complete each time, and nothing else is left in
 * the directory.  The stale content is longer than nothing and not JSON, so
 * a write in place that kept a tail of it would show.
 */
static void test_cli_json_replaced_atomically(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    char path[160];
    struct stat before, after;
    FILE *f;
    int i;

    snprintf(path, sizeof(path), "%s/r.json", c->work);
    f = fopen(path, "w");
    assert_non_null(f);
    for (i = 0; i < 20000; i++)
        fputs("stale ", f);
    assert_int_equal(fclose(f), 0);
    for (i = 0; i < 2; i++) {
        assert_int_equal(stat(path, &before), 0);
        NICTX(c, &r, "run", "--packets", i ? "2500" : "2000", "--quiet", "--json", path);
        expect_status(&r, 0);
        assert_int_equal(stat(path, &after), 0);
        assert_true(before.st_ino != after.st_ino);
        expect_json_result(path, i ? "2500" : "2000", "ok");
        assert_int_equal(dir_entries(c->work), 1);
        assert_false(dir_has_tmp(c->work));
        run_free(&r);
    }
}

/* ---- nictx area: the cache ---------------------------------------------- */

static const char *const area_key = "w8-q64-t256-r8-d256-p32768-k256"; /* the default */
static const char *const area_names[] = {"gates",    "flops",      "mem_bits", "levels",
                                         "xc7_luts", "xc7_lutram", "xc7_ffs",  "xc7_bram18"};
#define AREA_N (sizeof(area_names) / sizeof(area_names[0]))

/* NICTX_AREA_CACHE/<key>.txt as scripts/area.sh leaves it, current (its
 * rtl= the script's --hash), each figure its index x 11; `skip` names a
 * line left out (NULL: none). */
static void area_file(const char *dir, const char *skip)
{
    char path[256], hash[64] = "";
    FILE *p = popen("bash scripts/area.sh --hash", "r"), *f;

    assert_non_null(p);
    assert_non_null(fgets(hash, sizeof(hash), p));
    assert_int_equal(pclose(p), 0);
    hash[strcspn(hash, "\n")] = '\0';
    assert_int_equal(strlen(hash), 12);
    snprintf(path, sizeof(path), "%s/%s.txt", dir, area_key);
    f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "key=%s\nrtl=%s\n", area_key, hash);
    for (unsigned i = 0; i < AREA_N; i++)
        if (!skip || strcmp(skip, area_names[i]) != 0)
            fprintf(f, "%s=%u\n", area_names[i], 11 * (i + 1));
    assert_int_equal(fclose(f), 0);
}

/* `nictx area` at a combination whose area is cached reads it (no Yosys
 * run: a synthesis would take minutes) and prints every figure by name; a
 * cached file that lacks one is refused (exit 1), not read as 0; a
 * combination outside the hardware's ranges is refused (exit 2). */
static void test_cli_area_from_cache(void **state)
{
    struct cli *c = *state;
    struct run r = {0};
    char dir[160], want[64];

    snprintf(dir, sizeof(dir), "%s/area", c->root);
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_int_equal(setenv("NICTX_AREA_CACHE", dir, 1), 0);
    area_file(dir, NULL);
    NICTX(c, &r, "area");
    expect_status(&r, 0);
    expect_has(r.out, area_key);
    for (unsigned i = 0; i < AREA_N; i++) {
        snprintf(want, sizeof(want), "  %-12s %10u  ", area_names[i], 11 * (i + 1));
        expect_has(r.out, want);
    }
    run_free(&r);
    area_file(dir, "xc7_lutram");
    NICTX(c, &r, "area");
    expect_status(&r, 1);
    expect_has(r.err, "not the area of");
    run_free(&r);
    NICTX(c, &r, "area", "--hw-tags", "512");
    expect_status(&r, 2);
    expect_has(r.err, "--hw-tags");
    run_free(&r);
    unsetenv("NICTX_AREA_CACHE");
}

#define CLI_TEST(t) cmocka_unit_test_setup_teardown(t, cli_setup, cli_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        CLI_TEST(test_cli_help),
        CLI_TEST(test_cli_help_wrapped),
        CLI_TEST(test_cli_check),
        CLI_TEST(test_cli_list_options),
        CLI_TEST(test_cli_driver_bug_list),
        CLI_TEST(test_cli_list_keys),
        CLI_TEST(test_cli_no_arguments),
        CLI_TEST(test_cli_unknown_command),
        CLI_TEST(test_cli_unknown_option),
        CLI_TEST(test_cli_missing_value),
        CLI_TEST(test_cli_flag_given_a_value),
        CLI_TEST(test_cli_unexpected_argument),
        CLI_TEST(test_cli_invalid_config),
        CLI_TEST(test_cli_unknown_driver_bug),
        CLI_TEST(test_cli_queues_refused),
        CLI_TEST(test_cli_bql_stall),
        CLI_TEST(test_cli_number_octal),
        CLI_TEST(test_cli_number_hex),
        CLI_TEST(test_cli_number_sign),
        CLI_TEST(test_cli_number_blanks),
        CLI_TEST(test_cli_number_empty),
        CLI_TEST(test_cli_number_garbage),
        CLI_TEST(test_cli_number_integer_overflow),
        CLI_TEST(test_cli_number_double_overflow),
        CLI_TEST(test_cli_number_not_finite),
        CLI_TEST(test_cli_number_inside_values),
        CLI_TEST(test_cli_numbers_accepted),
        CLI_TEST(test_cli_run_json),
        CLI_TEST(test_cli_driver_bug_stops),
        CLI_TEST(test_cli_check_agrees_with_run),
        CLI_TEST(test_cli_verdict_agrees),
        CLI_TEST(test_cli_dev_width),
        CLI_TEST(test_cli_json_missing_directory),
        CLI_TEST(test_cli_json_is_directory),
        CLI_TEST(test_cli_json_empty_name),
        CLI_TEST(test_cli_json_not_regular_file),
        CLI_TEST(test_cli_json_read_only_directory),
        CLI_TEST(test_cli_area_from_cache),
        CLI_TEST(test_cli_json_replaced_atomically),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
