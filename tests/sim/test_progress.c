/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_progress.c - cmocka tests for sim/run/progress.c: when the status line
 * speaks (terminal, NICTX_PROGRESS), what it says, and that a run that
 * reports its progress gives the same results as one that does not.
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

#include "run/harness.h"
#include "run/progress.h"

static void test_progress_decide(void **state)
{
    double t = 0;

    (void)state;
    assert_int_equal(progress_decide(1, NULL, &t), 1); /* a terminal: on, every second */
    assert_true(t == 1.0);
    assert_int_equal(progress_decide(0, NULL, &t), 0); /* a file or pipe: silent */
    assert_int_equal(progress_decide(1, "", &t), 1);   /* empty = unset */
    assert_int_equal(progress_decide(0, "", &t), 0);
    assert_int_equal(progress_decide(1, "0", &t), 0);  /* "0" silences a terminal */
    assert_int_equal(progress_decide(0, "0.25", &t), 1);
    assert_true(t == 0.25);
    assert_int_equal(progress_decide(0, "2", &t), 1);
    assert_true(t == 2.0);
    /* boundary: not a positive number: silent */
    assert_int_equal(progress_decide(1, "-1", &t), 0);
    assert_int_equal(progress_decide(1, "fast", &t), 0);
    assert_int_equal(progress_decide(1, "1s", &t), 0);
    assert_int_equal(progress_decide(1, "nan", &t), 0);
}

static void test_progress_format(void **state)
{
    struct progress_sample x = {2000, 1000, 990, 1234567890};
    char line[256], tiny[16];

    (void)state;
    progress_format(line, sizeof(line), &x, 195000.4);
    assert_string_equal(line, "nictx: 1.235 ms simulated, 1000/2000 packets sent, "
                              "990 checked (49.5%), 195000 packets/s");
    progress_format(line, sizeof(line), &x, -1.0); /* no rate yet */
    assert_string_equal(line, "nictx: 1.235 ms simulated, 1000/2000 packets sent, "
                              "990 checked (49.5%)");
    /* boundary: a buffer too short is cut, still a string */
    progress_format(tiny, sizeof(tiny), &x, 1.0);
    assert_int_equal(strlen(tiny), sizeof(tiny) - 1);
    /* boundary: a run of 0 packets */
    memset(&x, 0, sizeof(x));
    progress_format(line, sizeof(line), &x, 0.0);
    assert_non_null(strstr(line, "0/0 packets sent, 0 checked (0.0%)"));
}

/* Run `packets` with stderr in a temporary file; its text (malloc'd) in
 * *err_text. */
static void run_captured(uint64_t packets, struct sim_result *r, char **err_text)
{
    char path[] = "/tmp/nictx_progress_XXXXXX", err[256] = "";
    struct sim_cfg cfg;
    struct sim *s;
    int fd = mkstemp(path), saved;
    long n;
    FILE *f;

    assert_true(fd >= 0);
    fflush(stderr);
    saved = dup(STDERR_FILENO);
    assert_true(saved >= 0 && dup2(fd, STDERR_FILENO) >= 0);
    sim_cfg_default(&cfg);
    assert_int_equal(cpu_costs_profile(&cfg.costs, "cheap"), 0);
    cfg.packets = packets;
    cfg.burst = 32;
    s = sim_create(&cfg, &dev_rtl_ops, err, sizeof(err));
    if (s) {
        assert_int_equal(sim_run(s), 0);
        sim_result(s, r);
        sim_destroy(s);
    }
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    if (!s)
        fail_msg("sim_create: %s", err);
    f = fdopen(fd, "r");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    *err_text = calloc(1, (size_t)n + 1);
    assert_non_null(*err_text);
    assert_int_equal(fread(*err_text, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    unlink(path);
}

/* NICTX_PROGRESS=0.001 on a file: newline-terminated lines, and the same
 * figures as a silent run. */
static void test_progress_lines_change_nothing(void **state)
{
    struct sim_result quiet, loud;
    char *q_text, *l_text;

    (void)state;
    setenv(PROGRESS_ENV, "0", 1);
    run_captured(40000, &quiet, &q_text);
    setenv(PROGRESS_ENV, "0.001", 1);
    run_captured(40000, &loud, &l_text);
    unsetenv(PROGRESS_ENV);

    assert_string_equal(q_text, "");
    assert_non_null(strstr(l_text, "nictx: "));
    assert_non_null(strstr(l_text, "/40000 packets sent, "));
    assert_non_null(strstr(l_text, " packets/s\n"));
    assert_null(strchr(l_text, '\r')); /* not a terminal: no rewriting */
    print_message("  first line: %.*s\n", (int)strcspn(l_text, "\n"), l_text);

    assert_int_equal(loud.sb.checked, quiet.sb.checked);
    assert_true(loud.sb.mpps == quiet.sb.mpps);
    assert_true(loud.sb.lat_p99_ns == quiet.sb.lat_p99_ns);
    assert_int_equal(loud.cycles_evaluated, quiet.cycles_evaluated);
    assert_int_equal(loud.sim_time_ps, quiet.sim_time_ps);
    assert_true(loud.cpu_ns_total == quiet.cpu_ns_total);
    free(q_text);
    free(l_text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_progress_decide),
        cmocka_unit_test(test_progress_format),
        cmocka_unit_test(test_progress_lines_change_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
