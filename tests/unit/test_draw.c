/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_draw.c - the random configurations of `nictx draw` (sim/cli/draw.h):
 * a seed gives the same list every time, different seeds differ; every
 * list passes --check's validation and always runs --device lockstep; over
 * K seeds every settable row of the settings table is drawn at least once,
 * or has a rule saying why not (so a new setting is covered, or the test
 * names it); every profile of profiles/ is drawn; with a hardware pool of
 * K, a quarter of the draws run one of K combinations, never the prebuilt
 * one, each within its hardware.
 *
 * Run from the repository root (make test does): profiles/ is read there.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/draw.h"
#include "run/settings.h"

#define K_SEEDS 400 /* seeds over which every setting must come up */

static struct cli_draw *draw_seed_hw(uint64_t seed, unsigned hw_pool)
{
    struct cli_draw *d = malloc(sizeof(*d));
    char err[512] = "";

    assert_non_null(d);
    if (cli_draw(seed, "profiles", hw_pool, d, NULL, err, sizeof(err)) != 0)
        fail_msg("seed %llu: %s", (unsigned long long)seed, err);
    return d;
}

static struct cli_draw *draw_seed(uint64_t seed)
{
    return draw_seed_hw(seed, 0);
}

static void join(const struct cli_draw *d, char *buf, size_t n)
{
    size_t len = 0;

    buf[0] = '\0';
    for (int i = 0; i < d->argc && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? " " : "", d->argv[i]);
}

static void test_draw_deterministic(void **state)
{
    static char a[16384], b[16384], c[16384];

    (void)state;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        struct cli_draw *d1 = draw_seed(seed), *d2 = draw_seed(seed), *d3 = draw_seed(seed + 1000);
        join(d1, a, sizeof(a));
        join(d2, b, sizeof(b));
        join(d3, c, sizeof(c));
        assert_string_equal(a, b);
        assert_int_equal(d1->attempts, d2->attempts);
        assert_string_not_equal(a, c);
        free(d1);
        free(d2);
        free(d3);
    }
}

/* Every draw passes the validation of --check, starts with "run" and has
 * --device lockstep; a broken list does not pass. */
static void test_draw_valid(void **state)
{
    char err[512];

    (void)state;
    for (uint64_t seed = 1; seed <= 100; seed++) {
        struct cli_draw *d = draw_seed(seed);
        int lockstep = 0;
        assert_string_equal(d->argv[0], "run");
        if (cli_draw_check(d->argc, d->argv, err, sizeof(err)) != 0)
            fail_msg("seed %llu: %s", (unsigned long long)seed, err);
        for (int i = 1; i + 1 < d->argc; i++)
            lockstep |= strcmp(d->argv[i], "--device") == 0 &&
                        strcmp(d->argv[i + 1], "lockstep") == 0;
        assert_true(lockstep);
        free(d);
    }
    char *bad[] = {"run", "--queues", "4", "--protocol", "wc"};
    assert_int_equal(cli_draw_check(5, bad, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "--queues"));
    char *unknown[] = {"run", "--no-such-option"};
    assert_int_equal(cli_draw_check(2, unknown, err, sizeof(err)), -1);
}

/* Row s appears in d: its option, or its key as --set section.key=V. */
static int drawn_in(const struct sim_setting *s, const struct cli_draw *d)
{
    char opt[64], key[64];

    snprintf(opt, sizeof(opt), "--%s", s->opt ? s->opt : "");
    snprintf(key, sizeof(key), "%s.%s=", s->section ? s->section : "", s->key ? s->key : "");
    for (int i = 1; i < d->argc; i++) {
        if (s->opt && strcmp(d->argv[i], opt) == 0)
            return 1;
        if (!s->opt && s->key && strcmp(d->argv[i], "--set") == 0 && i + 1 < d->argc &&
            strncmp(d->argv[i + 1], key, strlen(key)) == 0)
            return 1;
    }
    return 0;
}

static void test_draw_covers_table(void **state)
{
    size_t rows, missing = 0;
    const struct sim_setting *table = sim_settings(&rows);
    unsigned char *seen = calloc(rows, 1);
    static const char *const profiles[] = {"ixgbe-2012", "mlx4-2014", "modern-gen4"};
    int prof_seen[3] = {0};

    (void)state;
    assert_non_null(seen);
    for (uint64_t seed = 1; seed <= K_SEEDS; seed++) {
        struct cli_draw *d = draw_seed(seed);
        for (size_t i = 0; i < rows; i++)
            seen[i] |= drawn_in(&table[i], d);
        for (int i = 1; i + 1 < d->argc; i++)
            for (int p = 0; p < 3; p++)
                prof_seen[p] |= strcmp(d->argv[i], "--profile") == 0 &&
                                strcmp(d->argv[i + 1], profiles[p]) == 0;
        free(d);
    }
    for (size_t i = 0; i < rows; i++) {
        const struct sim_setting *s = &table[i];
        int skipped;
        char label[64];
        if (!cli_draw_settable(s))
            continue;
        (void)cli_draw_rule_why(s, &skipped);
        if (skipped) {
            assert_false(seen[i]); /* a row not drawn is not */
            continue;
        }
        if (!seen[i]) {
            print_message("not drawn in %d seeds and no rule says why: %s\n", K_SEEDS,
                          sim_setting_label(s, label, sizeof(label)));
            missing++;
        }
    }
    for (int p = 0; p < 3; p++)
        if (!prof_seen[p])
            fail_msg("profile %s never drawn", profiles[p]);
    free(seen);
    assert_int_equal(missing, 0);
}

/* Each rule names a row of the table and gives a reason. */
static void test_draw_rules_named(void **state)
{
    size_t rows, skipped_n = 0;
    const struct sim_setting *table = sim_settings(&rows);

    (void)state;
    for (size_t i = 0; i < rows; i++) {
        int skipped;
        const char *why = cli_draw_rule_why(&table[i], &skipped);
        if (why)
            assert_true(strlen(why) > 10);
        skipped_n += skipped;
    }
    assert_true(skipped_n > 0);
    assert_non_null(cli_draw_rule_why(sim_setting_find("driver_bug"), &(int){0}));
}

/* The hardware rows of d ("--dev-width 16 --hw-queues 4 ..."), "" when it
 * names no --hw-* row; *queues, *tags: the register settings drawn. */
static void hw_of(const struct cli_draw *d, char *buf, size_t n, unsigned long *queues,
                  unsigned long *tags)
{
    size_t len = 0;
    int any = 0;

    buf[0] = '\0';
    *queues = *tags = 0;
    for (int i = 1; i + 1 < d->argc; i++) {
        const char *a = d->argv[i];
        if (strncmp(a, "--hw-", 5) == 0 || strcmp(a, "--dev-width") == 0) {
            any |= a[2] == 'h';
            len += (size_t)snprintf(buf + len, n - len, "%s %s ", a, d->argv[i + 1]);
        }
        if (strcmp(a, "--queues") == 0)
            *queues = strtoul(d->argv[i + 1], NULL, 10);
        if (strcmp(a, "--tags") == 0)
            *tags = strtoul(d->argv[i + 1], NULL, 10);
    }
    if (!any)
        buf[0] = '\0';
}

static unsigned long arg_value(const char *hw, const char *opt)
{
    const char *p = strstr(hw, opt);

    return p ? strtoul(p + strlen(opt), NULL, 10) : 0;
}

/* --hw 2: about a quarter of the draws name every hardware row, from two
 * combinations at most (the same for every seed), neither the prebuilt
 * one; the queues and tags drawn fit the hardware.  --hw 0 names none,
 * and a pool above CLI_DRAW_HW_MAX is refused. */
static void test_draw_hw_pool(void **state)
{
    char pool[2][512] = {"", ""}, hw[512], err[256];
    unsigned with = 0, combos = 0;
    unsigned long queues, tags;
    struct cli_draw d;

    (void)state;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        struct cli_draw *dh = draw_seed_hw(seed, 2), *d0 = draw_seed(seed);
        hw_of(d0, hw, sizeof(hw), &queues, &tags);
        assert_string_equal(hw, "");
        hw_of(dh, hw, sizeof(hw), &queues, &tags);
        free(dh);
        free(d0);
        if (!hw[0])
            continue;
        with++;
        for (const char *opt = "--hw-queues"; opt; opt = opt[5] == 'q' ? "--hw-tags" : NULL)
            assert_true(arg_value(hw, opt) > 0);
        assert_true(queues <= arg_value(hw, "--hw-queues "));
        assert_true(tags <= arg_value(hw, "--hw-tags "));
        assert_true(strstr(hw, "--hw-desc-buf ") && strstr(hw, "--hw-pay-buf ") &&
                    strstr(hw, "--hw-pkts ") && strstr(hw, "--hw-desc-reads "));
        if (strcmp(hw, pool[0]) != 0 && strcmp(hw, pool[1]) != 0) {
            assert_true(combos < 2);
            snprintf(pool[combos++], sizeof(pool[0]), "%s", hw);
        }
    }
    assert_true(with >= 25 && with <= 80); /* a quarter of 200, give or take */
    assert_int_equal(combos, 2);
    assert_int_equal(cli_draw(1, "profiles", CLI_DRAW_HW_MAX + 1, &d, NULL, err, sizeof(err)),
                     -1);
    assert_non_null(strstr(err, "--hw"));
}

/* The largest pool: the descriptor buffer and reads are drawn like every
 * hardware row, each value a power of two in its range (64..256 slots,
 * 2..8 reads), and not only the defaults (256, 8). */
static void test_draw_hw_desc_fetcher(void **state)
{
    char hw[512];
    unsigned long queues, tags, buf_seen = 0, reads_seen = 0;

    (void)state;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        struct cli_draw *d = draw_seed_hw(seed, CLI_DRAW_HW_MAX);
        hw_of(d, hw, sizeof(hw), &queues, &tags);
        free(d);
        if (!hw[0])
            continue;
        const unsigned long b = arg_value(hw, "--hw-desc-buf "),
                            r = arg_value(hw, "--hw-desc-reads ");
        assert_true(b >= 64 && b <= 256 && (b & (b - 1)) == 0);
        assert_true(r >= 2 && r <= 8 && (r & (r - 1)) == 0);
        buf_seen |= b;
        reads_seen |= r;
    }
    assert_true((buf_seen & (64 | 128)) != 0);
    assert_true((reads_seen & (2 | 4)) != 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_draw_deterministic),
        cmocka_unit_test(test_draw_valid),
        cmocka_unit_test(test_draw_covers_table),
        cmocka_unit_test(test_draw_rules_named),
        cmocka_unit_test(test_draw_hw_pool),
        cmocka_unit_test(test_draw_hw_desc_fetcher),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
