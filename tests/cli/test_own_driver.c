/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_own_driver.c - drivers written against nictx's kernel layer
 * (driver/linux/, docs/own-driver.md), as a user builds and runs them:
 *  - nictx links nictx's own ThreadSanitizer runtime, not libtsan;
 *  - the example port (driver/examples/ixgbe_tx.c, built as
 *    DRIVER=... builds it: $(BUILD)/tests/nictx-ixgbe) runs clean, on one
 *    CPU and two, under both orderings and explored schedules, and refuses
 *    what it does not speak;
 *  - the port less one smp_mb() (the held-out bug of docs/own-driver.md:
 *    nictx-ixgbe-nowakemb) is named wake_unordered: its plain store of
 *    next_to_clean and its plain loads are in the model; and so it is
 *    with the re-check's loads swapped (nictx-ixgbe-nowakemb-ntu);
 *  - the project's driver less its doorbell wmb() (nictx-txq-nowmb), a
 *    driver with a plain-store ordering bug and no platform call, is named
 *    doorbell_before_desc under weak ordering;
 *  - a driver file using a kernel API the layer lacks fails to build, and
 *    says which (tests/drivers/).
 * The binaries are $(BUILD)/tests/nictx-* beside $NICTX's build.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "common/cli_harness.h"

/* $(BUILD) of the binary under test (./build by default). */
static void build_dir(const struct cli *c, char *out, size_t n)
{
    char b[256];

    snprintf(b, sizeof(b), "%s", c->bin);
    snprintf(out, n, "%s", dirname(b));
}

/* Run `nictx-NAME ARGS...` from $(BUILD)/tests. */
static void own(struct cli *c, struct run *r, const char *name, const char *const *args)
{
    char dir[256], bin[320];
    const char *saved = c->bin;

    build_dir(c, dir, sizeof(dir));
    snprintf(bin, sizeof(bin), "%s/tests/nictx-%s", dir, name);
    c->bin = bin;
    nictx_argv(c, r, args);
    c->bin = saved;
}
#define OWN(c, r, name, ...)                                      \
    do {                                                          \
        const char *const args_[] = {__VA_ARGS__, NULL};          \
        own((c), (r), (name), args_);                             \
    } while (0)

/* The output of a shell command, and its status. */
static char *sh(const char *cmd, int *status)
{
    FILE *f = popen(cmd, "r");
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);

    assert_non_null(f);
    assert_non_null(buf);
    while (n + 1 < cap && (n += fread(buf + n, 1, cap - 1 - n, f)) > 0 && !feof(f))
        ;
    buf[n] = '\0';
    int st = pclose(f);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    return buf;
}

/* The instrumentation's entry points are nictx's (driver/linux/kcsan.c):
 * defined in the binary, and no ThreadSanitizer runtime linked. */
static void test_own_driver_runtime_not_libtsan(void **state)
{
    struct cli *c = *state;
    char cmd[512];
    int st;

    snprintf(cmd, sizeof(cmd), "nm %s | grep -c ' T __tsan_\\(read\\|write\\|volatile_read\\)4$'",
             c->bin);
    char *out = sh(cmd, &st);
    assert_int_equal(atoi(out), 3);
    free(out);
    snprintf(cmd, sizeof(cmd), "ldd %s; nm %s | grep -c '__tsan_atomic\\|__tsan_mutex\\|__tsan_on_report'",
             c->bin, c->bin);
    out = sh(cmd, &st);
    if (strstr(out, "libtsan"))
        fail_msg("%s links libtsan:\n%s", c->bin, out);
    assert_non_null(strstr(out, "\n0\n"));
    free(out);
}

/* The example port: clean where it speaks, refused where it does not. */
static void test_own_driver_port_clean(void **state)
{
    static const char *const runs[][14] = {
        {"run", "--packets", "5000", "--quiet", NULL},
        {"run", "--packets", "5000", "--ordering", "weak", "--burst", "1", "--quiet", NULL},
        {"run", "--packets", "3000", "--cpus", "2", "--pkt-size", "1518", "--ring", "64",
         "--quiet", NULL},
        {"run", "--packets", "3000", "--cpus", "2", "--ordering", "weak", "--bql", "on",
         "--quiet", NULL},
        {"run", "--packets", "2000", "--completion", "mmio", "--wb-thresh", "0", "--quiet",
         NULL},
        {"run", "--packets", "2000", "--cpus", "2", "--pkt-size", "1518", "--ring", "64",
         "--ordering", "weak", "--explore", "5", "--quiet"},
    };
    struct cli *c = *state;
    struct run r;

    for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
        size_t n = 0;
        while (n < 14 && runs[i][n])
            n++;
        const char *args[15];
        memcpy(args, runs[i], n * sizeof(args[0]));
        args[n] = NULL;
        own(c, &r, "ixgbe", args);
        expect_status(&r, 0);
        run_free(&r);
    }
    /* The owner protocol is not the port's: its probe says no. */
    OWN(c, &r, "ixgbe", "run", "--packets", "100", "--protocol", "owner");
    if (r.status == 0)
        fail_msg("the port ran the owner protocol:\n%s", r.out);
    expect_has(r.err, "txq_init -1");
    run_free(&r);
}

/* The figure after "driver " on the report's cpu ns/pkt line, as printed. */
static void driver_ns(const char *out, char *buf, size_t n)
{
    const char *line = strstr(out, "cpu ns/pkt"), *d = line ? strstr(line, " driver ") : NULL;

    if (!d)
        fail_msg("no cpu ns/pkt line with a driver figure:\n%s", out);
    d += strlen(" driver ");
    snprintf(buf, n, "%.*s", (int)strcspn(d, " \n"), d);
}

/* The port books the driver work the project's driver books for the same
 * run (a transmit, a cleanup poll and each cleaned descriptor: the cost
 * table's xmit_pkt, clean_poll and clean_desc): the same driver ns per
 * packet within 2%, with head writeback alone and with interrupts. */
static void test_own_driver_port_books_driver_work(void **state)
{
    static const char *const runs[][8] = {
        {"run", "--packets", "5000", NULL},
        {"run", "--packets", "3000", "--irq-thresh", "8", "--pkt-size", "512", NULL},
    };
    struct cli *c = *state;
    struct run r;
    char port[32], ours[32];

    for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
        own(c, &r, "ixgbe", runs[i]);
        expect_status(&r, 0);
        driver_ns(r.out, port, sizeof(port));
        run_free(&r);
        nictx_argv(c, &r, runs[i]);
        expect_status(&r, 0);
        driver_ns(r.out, ours, sizeof(ours));
        run_free(&r);
        /* the two clean up in passes of their own sizes: their poll costs
         * may differ by a fraction of a ns; a descriptor's cost is 12 ns */
        if (fabs(strtod(port, NULL) - strtod(ours, NULL)) > 0.02 * strtod(ours, NULL))
            fail_msg("run %zu: the port books %s driver ns/pkt, the project's driver %s", i, port,
                     ours);
    }
}

/* The held-out bug: the cleanup's smp_mb() before it tests the queue,
 * deleted.  Its store of next_to_clean and the re-check's load are plain
 * C; the checker names the half that broke. */
static void test_own_driver_held_out_bug(void **state)
{
    struct cli *c = *state;
    struct run r;

    OWN(c, &r, "ixgbe-nowakemb", "run", "--packets", "3000", "--cpus", "2", "--pkt-size",
        "1518", "--ring", "64");
    expect_status(&r, 1);
    expect_has(r.out, "wake_unordered");
    expect_has(r.out, "smp_mb() before the test");
    run_free(&r);
    /* The same, the re-check reading next_to_use before next_to_clean:
     * both loads are the re-check, whatever their order. */
    OWN(c, &r, "ixgbe-nowakemb-ntu", "run", "--packets", "3000", "--cpus", "2", "--pkt-size",
        "1518", "--ring", "64");
    expect_status(&r, 1);
    expect_has(r.out, "wake_unordered");
    run_free(&r);
}

/* A plain-store ordering bug in a driver with no platform call: the
 * project's driver without the wmb() before its doorbell.  Named under
 * weak ordering, where the descriptor's plain stores may drain after the
 * tail write; x86's TSO keeps them in order, so there it is not. */
static void test_own_driver_plain_store_bug(void **state)
{
    struct cli *c = *state;
    struct run r;

    OWN(c, &r, "txq-nowmb", "run", "--packets", "2000", "--ordering", "weak");
    expect_status(&r, 1);
    expect_has(r.out, "doorbell_before_desc");
    expect_has(r.out, "missing wmb() before the doorbell");
    run_free(&r);
    OWN(c, &r, "txq-nowmb", "run", "--packets", "2000", "--ordering", "x86", "--quiet");
    expect_status(&r, 0);
    run_free(&r);
}

/* A driver file using what the layer lacks fails to build, and the
 * message says what is not modelled. */
static void test_own_driver_api_missing(void **state)
{
    static const struct {
        const char *file, *says;
    } cases[] = {
        {"missing_header.c", "<linux/ethtool.h> is not modelled by nictx's kernel layer"},
        {"unmodelled_call.c", "not modelled by nictx's kernel layer (driver/linux/): "
                              "netif_tx_stop_all_queues()"},
        {"undeclared_call.c", "not modelled by nictx's kernel layer (driver/linux/): "
                              "napi_gro_flush"},
        {"atomic_builtin.c", "which the memory model cannot see: atomic builtins"},
    };
    struct cli *c = *state;
    char dir[256], cmd[1024];

    build_dir(c, dir, sizeof(dir));
    snprintf(cmd, sizeof(cmd), "%s/kdrv-cmd", dir);
    char *cc = slurp(cmd);
    assert_non_null(cc);
    cc[strcspn(cc, "\n")] = '\0';
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int st;
        snprintf(cmd, sizeof(cmd),
                 "bash scripts/kdrv-cc.sh %s/drv.o tests/drivers/%s -- %s 2>&1",
                 c->work, cases[i].file, cc);
        char *out = sh(cmd, &st);
        if (st == 0 || !strstr(out, cases[i].says))
            fail_msg("%s: status %d, expected a failure saying \"%s\":\n%s", cases[i].file, st,
                     cases[i].says, out);
        free(out);
    }
    free(cc);
}

/* A copy the compiler makes by itself builds, announced: GCC's
 * instrumentation calls __tsan_read_range / __tsan_write_range for it,
 * clang's calls memcpy and memset, which the build points at the layer's
 * (scripts/kdrv-cc.sh); the C library's are never called. */
static void test_own_driver_compiler_copy(void **state)
{
    struct cli *c = *state;
    char dir[256], cmd[1024];
    int st;

    build_dir(c, dir, sizeof(dir));
    snprintf(cmd, sizeof(cmd), "%s/kdrv-cmd", dir);
    char *cc = slurp(cmd);
    assert_non_null(cc);
    cc[strcspn(cc, "\n")] = '\0';
    snprintf(cmd, sizeof(cmd),
             "bash scripts/kdrv-cc.sh %s/copy.o tests/drivers/struct_copy.c -- %s 2>&1 && "
             "nm -u %s/copy.o | awk '{ print $2 }' | "
             "grep -E '^((nictx_)?mem(cpy|set)|__tsan_(read|write)_range)$' | sort",
             c->work, cc, c->work);
    char *out = sh(cmd, &st);
    if (st != 0 || (strcmp(out, "nictx_memcpy\nnictx_memset\n") != 0 &&
                    strcmp(out, "__tsan_read_range\n__tsan_write_range\n") != 0))
        fail_msg("struct_copy.c: status %d, expected it built, its copies announced "
                 "(nictx_memcpy and nictx_memset, or __tsan_*_range), not memcpy:\n%s", st, out);
    free(out);
    free(cc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_own_driver_runtime_not_libtsan, cli_setup,
                                        cli_teardown),
        cmocka_unit_test_setup_teardown(test_own_driver_port_clean, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_own_driver_port_books_driver_work, cli_setup,
                                        cli_teardown),
        cmocka_unit_test_setup_teardown(test_own_driver_held_out_bug, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_own_driver_plain_store_bug, cli_setup,
                                        cli_teardown),
        cmocka_unit_test_setup_teardown(test_own_driver_api_missing, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_own_driver_compiler_copy, cli_setup, cli_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
