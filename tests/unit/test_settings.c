/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_settings.c - the settings table (sim/run/settings.h): every row is
 * well formed (names, options and keys unique; a type, a help and a group
 * where it needs them); every default parses and the defaults validate;
 * what a row prints, it parses back; each range refuses just outside its
 * bounds (boundaries named in each case) with a message naming the option;
 * option values are refused with the command line's reasons and leave the
 * configuration untouched; the JSON config block names every reported row
 * once; the text report's header shows what it should.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "run/settings.h"

/* ------------------------------------------------------------ helpers */

static const struct sim_setting *row(const char *name)
{
    const struct sim_setting *s = sim_setting_find(name);

    if (s == NULL)
        fail_msg("no setting %s", name);
    return s;
}

/* Set the row to `text` as the option (or key) spells it; 0 or -1. */
static int set_text(const struct sim_setting *s, struct sim_cfg *c, const char *text)
{
    char why[256];

    if (s->opt)
        return sim_setting_parse_opt(s, c, text, why, sizeof(why)) == 0 ? 0 : -1;
    return sim_setting_parse_key(s, c, text, why, sizeof(why));
}

/* The row's range check on the default configuration with the row at `text`. */
static int check_at(const struct sim_setting *s, const char *text, char *err, size_t n)
{
    struct sim_cfg c;

    sim_cfg_default(&c);
    if (set_text(s, &c, text) != 0)
        fail_msg("%s: '%s' does not parse", s->name, text);
    return sim_setting_check(s, &c, err, n);
}

static void expect_in(const char *name, const char *text)
{
    char err[256];

    if (check_at(row(name), text, err, sizeof(err)) != 0)
        fail_msg("%s %s refused: %s", name, text, err);
}

/* Refused by the range, the message naming the option (or key) and value. */
static void expect_out(const char *name, const char *text, const char *must)
{
    const struct sim_setting *s = row(name);
    char err[256] = "", label[64], want[128];

    if (check_at(s, text, err, sizeof(err)) == 0)
        fail_msg("%s %s accepted", name, text);
    snprintf(want, sizeof(want), "%s ", sim_setting_label(s, label, sizeof(label)));
    if (strncmp(err, want, strlen(want)) != 0 || strstr(err, must) == NULL)
        fail_msg("%s %s: '%s' lacks '%s...%s'", name, text, err, want, must);
}

/* ------------------------------------------------------------ the rows */

/* Names, options and keys are unique; an option has a group and, unless a
 * flag, a value name; a key's section is listed; every setting has a help,
 * a reported-only row its JSON. */
static void test_settings_rows_well_formed(void **state)
{
    size_t n, nsec;
    const struct sim_setting *s = sim_settings(&n);
    const char *const *sec = sim_setting_sections(&nsec);

    (void)state;
    assert_true(n > 0 && n <= SIM_SETTINGS_MAX);
    for (size_t i = 0; i < n; i++) {
        int known = 0;
        assert_non_null(s[i].help);
        if (s[i].type == NULL) {
            assert_non_null(s[i].json);
            assert_null(s[i].opt);
            assert_null(s[i].key);
        }
        for (size_t j = 0; j < i; j++) {
            assert_string_not_equal(s[i].name, s[j].name);
            if (s[i].opt && s[j].opt)
                assert_string_not_equal(s[i].opt, s[j].opt);
            if (s[i].key && s[j].key && strcmp(s[i].section, s[j].section) == 0)
                assert_string_not_equal(s[i].key, s[j].key);
        }
        if (s[i].opt) {
            assert_true(s[i].group != SET_G_NONE);
            assert_int_equal(s[i].arg != NULL, sim_setting_takes_value(&s[i]));
            assert_ptr_equal(sim_setting_by_opt(s[i].opt), &s[i]);
        }
        if (!s[i].key)
            continue;
        for (size_t k = 0; k < nsec; k++)
            known |= strcmp(sec[k], s[i].section) == 0;
        assert_true(known);
        assert_ptr_equal(sim_setting_by_key(s[i].section, s[i].key), &s[i]);
    }
}

/* Every default parses as its key spells it, and the defaults validate. */
static void test_settings_defaults_parse_and_validate(void **state)
{
    size_t n;
    const struct sim_setting *s = sim_settings(&n);
    struct sim_cfg c;
    char err[256];

    (void)state;
    for (size_t i = 0; i < n; i++) {
        sim_cfg_default(&c);
        if (s[i].def && sim_setting_parse_key(&s[i], &c, s[i].def, err, sizeof(err)) != 0)
            fail_msg("%s: default '%s': %s", s[i].name, s[i].def, err);
    }
    sim_cfg_default(&c);
    if (sim_cfg_validate(&c, err, sizeof(err)) != 0)
        fail_msg("the defaults: %s", err);
    assert_int_equal(c.burst, 8);
    assert_int_equal(c.dev_width, DEV_WIDTH_DEFAULT);
    assert_int_equal(c.proto, TXQ_PROTO_TAIL);
    assert_int_equal(c.pcie.gen, 3); /* pcie_cfg_default's */
    assert_true(c.costs.mmio_write_ns == 100.0); /* the x86 table's */
    assert_string_equal(c.cpu_profile, "x86");
}

/* What a key prints of the default, it parses back to the same text. */
static void test_settings_format_parses_back(void **state)
{
    size_t n;
    const struct sim_setting *s = sim_settings(&n);
    struct sim_cfg c, d;
    char text[256], again[256], err[256];

    (void)state;
    sim_cfg_default(&d);
    for (size_t i = 0; i < n; i++) {
        if (!s[i].key)
            continue;
        c = d;
        sim_setting_format(&s[i], &d, 0, text, sizeof(text));
        if (sim_setting_parse_key(&s[i], &c, text, err, sizeof(err)) != 0)
            fail_msg("%s: '%s': %s", s[i].name, text, err);
        sim_setting_format(&s[i], &c, 0, again, sizeof(again));
        assert_string_equal(text, again);
    }
}

/* ------------------------------------------------------------ ranges */

/* A range case: the row at `text` is in range (must NULL) or refused with
 * a message that has `must`. */
static const struct range_case {
    const char *name, *text, *must;
} range_cases[] = {
    {"pkt_size", "64", NULL},
    {"pkt_size", "16387", NULL},
    {"pkt_size", "63", "must be 64..16387"},
    {"pkt_size", "16388", "must be 64..16387"},
    {"packets", "1099511627776", NULL},
    {"packets", "1099511627777", "must be 1..2^40"},
    {"packets", "0", "1..2^40"},
    {"line_gbps", "800g", NULL},
    {"line_gbps", "800.5g", "must be 0.1..800"},
    {"line_gbps", "0.05g", "0.1..800"},
    {"mem_latency_ns", "0", NULL},
    {"mem_latency_ns", "1000001", "must be 0..1e6"},
    {"tx_timeout_us", "0", NULL}, /* 0: no hang check */
    {"tx_timeout_us", "1e10", "must be 0 or 1..1e9"},
    {"tx_timeout_us", "0.5", "0 or 1..1e9"},
    {"tx_timeout_us", "auto", NULL}, /* derived (sim_cfg_timeouts) */
    {"cpl_timeout_us", "auto", NULL},
    {"cpl_timeout_us", "50001", "must be 1..50000, or auto"},
    {"watchdog_us", "0", "must be 1..1e9, or auto"},
    {"max_read_bytes", "0", NULL},
    {"max_read_bytes", "4096", NULL},
    {"max_read_bytes", "4095", "must be 0 or 4096..2097151"},
    {"max_read_bytes", "2097152", "0 or 4096..2097151"},
    {"ring_size", "8", NULL},
    {"ring_size", "65536", NULL},
    {"ring_size", "1000", "must be a power of two 8..65536"},
    {"ring_size", "4", "a power of two"},
    {"ring_size", "131072", "a power of two"},
    {"store_buffer_entries", "0", "must be 1..4096"}, /* a key, no option */
    {"weights", "1,255", NULL},
    {"weights", "1,256", "must be 1..255"},
    {"cpus", "64", NULL},
    {"cpus", "65", "must be 1..64"},
    {"cpus", "0", "must be 1..64"},
    {"xps", "auto", NULL},
    {"xps", "0,63", NULL},
    {"xps", "0,64", "must be 0..63"},
    {"fc_update_ns", "45000", NULL}, /* the spec's UpdateFC timer: 30 us +50% */
    {"fc_update_ns", "45000.5", "must be 0..45000"},
};

/* Boundaries: each end in, one past it out. */
static void test_settings_ranges(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(range_cases) / sizeof(range_cases[0]); i++) {
        const struct range_case *k = &range_cases[i];
        if (k->must)
            expect_out(k->name, k->text, k->must);
        else
            expect_in(k->name, k->text);
    }
}

/* dev_width is checked as the option is parsed too; the key is checked by
 * validation (boundary: 24, between two widths). */
static void test_settings_range_early(void **state)
{
    const struct sim_setting *s = row("dev_width");
    struct sim_cfg c, before;
    char why[256];

    (void)state;
    sim_cfg_default(&c);
    before = c;
    assert_int_equal(sim_setting_parse_opt(s, &c, "24", why, sizeof(why)), SET_BAD_VALUE);
    assert_string_equal(why, "expected 8, 16, 32 or 64");
    assert_memory_equal(&c, &before, sizeof(c));
    assert_int_equal(sim_setting_parse_key(s, &c, "24", why, sizeof(why)), 0);
    assert_int_equal(sim_setting_check(s, &c, why, sizeof(why)), -1);
    assert_string_equal(why, "--dev-width 24: must be 8, 16, 32 or 64");
}

/* ------------------------------------------------------------ rules */

/* A configuration sim_cfg_validate refuses (err has `must`), or accepts
 * (must NULL), after `set` changes the defaults. */
static void expect_rule(void (*set)(struct sim_cfg *c), const char *must)
{
    struct sim_cfg c;
    char err[512];

    sim_cfg_default(&c);
    set(&c);
    if (!must) {
        if (sim_cfg_validate(&c, err, sizeof(err)) != 0)
            fail_msg("refused: %s", err);
        return;
    }
    if (sim_cfg_validate(&c, err, sizeof(err)) == 0)
        fail_msg("accepted; expected '%s'", must);
    if (!strstr(err, must))
        fail_msg("'%s' does not say '%s'", err, must);
}

/* Host memory (sim_cfg_host_mem): what the driver allocates, every queue's
 * ring, CQ and buffers; the largest single queue fits, 4 of them with the
 * largest frames at buffer offset 63 do not (8.01 GiB: each buffer a
 * kmalloc'd 32 KiB skb head, as Linux allocates it). */
static void mem_one_queue_max(struct sim_cfg *c)
{
    c->ring_size = 65536;
    c->clean = TXQ_CLEAN_CQ;
    c->pkt_size = c->pkt_size_max = 16387;
    c->buf_offset = 63;
}
static void mem_four_queues_max(struct sim_cfg *c)
{
    mem_one_queue_max(c);
    c->queues = 4;
}
static void mem_64_queues_small(struct sim_cfg *c)
{
    c->queues = 64;
    c->ring_size = 65536;
    c->clean = TXQ_CLEAN_CQ;
}

static void test_settings_host_memory(void **state)
{
    struct sim_cfg c;
    struct txq_cfg tc;

    (void)state;
    expect_rule(mem_one_queue_max, NULL);
    expect_rule(mem_64_queues_small, NULL);
    expect_rule(mem_four_queues_max, "the driver's DMA memory would be 8.01 GiB");
    /* CQ mode counts its completion queue (--completion cq --ring 8192 ran
     * out at the probe: 64 KiB of CQ in 64 KiB of slack). */
    sim_cfg_default(&c);
    c.ring_size = 8192;
    size_t tail = sim_cfg_host_mem(&c);
    c.clean = TXQ_CLEAN_CQ;
    sim_cfg_txq(&c, &tc);
    assert_int_equal(sim_cfg_host_mem(&c) - tail, 8192 * NICTX_CQE_BYTES + TXQ_CACHELINE - 1);
    assert_true(txq_dma_bytes(&tc) >= 8192 * (NICTX_DESC_BYTES + NICTX_CQE_BYTES) + 64);
}

/* --desc-fetch-max: the most DESC_FETCH_MAX takes (DescFetchMaxHw, 64) is
 * accepted, one more refused (the setting's span). */
static void fetch_64(struct sim_cfg *c) { c->desc_fetch_max = 64; }
static void fetch_65(struct sim_cfg *c) { c->desc_fetch_max = 65; }

static void test_settings_desc_fetch_max(void **state)
{
    (void)state;
    expect_rule(fetch_64, NULL);
    expect_rule(fetch_65, "must be 1..64");
}

/* A timeout the user set is used as set, and refused when shorter than
 * what it watches (or longer than CPL_TIMEOUT counts). */
static void tmo_cpl_short(struct sim_cfg *c) { c->cpl_timeout_us = 1; }
static void tmo_cpl_long(struct sim_cfg *c) { c->cpl_timeout_us = 50000, c->dev_mhz = 2000; }
static void tmo_tx_short(struct sim_cfg *c)
{
    c->tags = 1;
    c->pcie.mrrs = 128;
    c->pkt_size = c->pkt_size_max = 9018;
    c->tx_timeout_us = 500; /* the old default: a writeback's worth takes ~1.7 ms */
}
static void tmo_tx_off(struct sim_cfg *c) { tmo_tx_short(c), c->tx_timeout_us = 0; }
static void tmo_wd_short(struct sim_cfg *c) { c->ring_size = 32768, c->burst = 20000, c->watchdog_us = 1000; }
static void tmo_wd_faults(struct sim_cfg *c)
{
    char err[128];
    assert_int_equal(inj_parse(&c->inject, "timeout@500", err, sizeof(err)), 0);
    c->watchdog_us = 600; /* above what a healthy run needs, below hang check + reset */
}
static void tmo_latency(struct sim_cfg *c) { c->pcie.latency_ns = 50e6; }

static void test_settings_timeouts(void **state)
{
    (void)state;
    expect_rule(tmo_cpl_short, "--cpl-timeout-us 1: a healthy DMA read can wait");
    expect_rule(tmo_cpl_long, "CPL_TIMEOUT counts at most 16777215");
    expect_rule(tmo_tx_short, "--tx-timeout-us 500: a healthy queue can go");
    expect_rule(tmo_tx_off, NULL);
    expect_rule(tmo_wd_short, "--watchdog-us 1000: a healthy run can go");
    expect_rule(tmo_wd_faults, "need the CPU to fill the rings");
    expect_rule(tmo_latency, "longer than the device's completion timeout can count");
}

/* A driver bug that acts from --bug-at on, beyond the run: refused (it
 * ran clean and exited 0, having tested nothing); one that acts on every
 * packet ignores --bug-at. */
static void bug_beyond(struct sim_cfg *c) { c->bug = DRV_BUG_ZERO_LEN, c->packets = 1000, c->bug_at = 1000; }
static void bug_last(struct sim_cfg *c) { c->bug = DRV_BUG_ZERO_LEN, c->packets = 1000, c->bug_at = 999; }
static void bug_queues(struct sim_cfg *c) { bug_beyond(c), c->queues = 4, c->bug_at = 250; }
static void bug_barrier(struct sim_cfg *c) { c->bug = DRV_BUG_NO_WMB_DOORBELL, c->packets = 10; }

static void test_settings_bug_at_in_run(void **state)
{
    (void)state;
    expect_rule(bug_beyond, "--bug-at 1000: driver bug zero-len acts from that packet on, but the "
                            "run posts packets 0..999");
    expect_rule(bug_last, NULL);
    expect_rule(bug_queues, "packets 0..249 on each queue");
    expect_rule(bug_barrier, NULL);
}

/* ------------------------------------------------------------ parsing */

/* Refused values: the command line's reasons, the key's "expected", the
 * configuration untouched; a fault plan's own message names the option. */
static void test_settings_parse_refusals(void **state)
{
    struct sim_cfg c, before;
    char why[256];

    (void)state;
    sim_cfg_default(&c);
    before = c;
    assert_int_equal(sim_setting_parse_opt(row("protocol"), &c, "token", why, sizeof(why)),
                     SET_BAD_VALUE);
    assert_string_equal(why, "expected tail, owner or wc");
    assert_int_equal(sim_setting_parse_opt(row("ring_size"), &c, "010", why, sizeof(why)),
                     SET_BAD_VALUE);
    assert_non_null(strstr(why, "leading zero"));
    assert_int_equal(sim_setting_parse_key(row("ring_size"), &c, "010", why, sizeof(why)), 0);
    assert_int_equal(c.ring_size, 10); /* a key's leading zero is decimal */
    c = before;
    assert_int_equal(sim_setting_parse_key(row("protocol"), &c, "token", why, sizeof(why)), -1);
    assert_string_equal(why, "driver.protocol = 'token': expected tail|owner|wc");
    assert_int_equal(sim_setting_parse_opt(row("inject"), &c, "ur@x", why, sizeof(why)),
                     SET_BAD_MSG);
    assert_non_null(strstr(why, "--inject"));
    assert_int_equal(sim_setting_parse_opt(row("line_gbps"), &c, "10", why, sizeof(why)),
                     SET_BAD_VALUE); /* the option wants the g */
    assert_memory_equal(&c, &before, sizeof(c));
    assert_int_equal(sim_setting_parse_opt(row("line_gbps"), &c, "25g", why, sizeof(why)), 0);
    assert_true(c.line_gbps == 25.0);
    assert_int_equal(sim_setting_parse_opt(row("fc_update_ns"), &c, "20", why, sizeof(why)), 0);
    assert_true(c.fc_dev.update_latency_ns == 20.0 && c.fc_host.update_latency_ns == 20.0);
    assert_int_equal(sim_setting_parse_opt(row("pcie.rcb_chunks"), &c, NULL, why, sizeof(why)), 0);
    assert_int_equal(c.pcie.rcb_chunks, 1);
}

/* ------------------------------------------------------------ reports */

/* The config block: every reported row's name once, in an object. */
static void test_settings_json_names_every_row(void **state)
{
    size_t n, size = 0;
    const struct sim_setting *s = sim_settings(&n);
    struct sim_cfg c;
    struct json j;
    char *doc = NULL, want[80];
    FILE *f = open_memstream(&doc, &size);

    (void)state;
    assert_non_null(f);
    sim_cfg_default(&c);
    c.seed = UINT64_MAX;
    json_init(&j, f);
    json_obj_begin(&j, NULL);
    sim_settings_json(&j, &c);
    json_obj_end(&j);
    assert_int_equal(json_finish(&j), 0);
    fclose(f);
    for (size_t i = 0; i < n; i++) {
        const char *dot = strchr(s[i].name, '.');
        if ((s[i].flags & SET_NOJSON) || strcmp(s[i].name, "pcie.link") == 0)
            continue; /* the link is "gen" and "lanes" */
        snprintf(want, sizeof(want), "\"%s\":", dot ? dot + 1 : s[i].name);
        if (strstr(doc, want) == NULL)
            fail_msg("config block lacks %s", want);
    }
    assert_non_null(strstr(doc, "\"seed\": 18446744073709551615,")); /* exact, 64 bits */
    assert_non_null(strstr(doc, "\"cpu_costs_ns\": {"));
    assert_non_null(strstr(doc, "\"gen\": 3,"));
    assert_null(strstr(doc, "\"every_clock\""));
    free(doc);
}

/* The header: shown always, shown when set, shown when another setting
 * says so. */
static void test_settings_text_header(void **state)
{
    struct sim_cfg c;
    char buf[256];

    (void)state;
    sim_cfg_default(&c);
    assert_int_equal(sim_setting_text(row("burst"), &c, buf, sizeof(buf)), 1);
    assert_string_equal(buf, "burst 8");
    assert_int_equal(sim_setting_text(row("dev_width"), &c, buf, sizeof(buf)), 1);
    assert_string_equal(buf, "device 8 B/clock at 250 MHz");
    assert_int_equal(sim_setting_text(row("driver_bug"), &c, buf, sizeof(buf)), 0);
    assert_int_equal(sim_setting_text(row("pkt_size_max"), &c, buf, sizeof(buf)), 0);
    assert_int_equal(sim_setting_text(row("reorder_window"), &c, buf, sizeof(buf)), 0);
    assert_int_equal(sim_setting_text(row("buf_offset"), &c, buf, sizeof(buf)), 0);
    assert_int_equal(set_text(row("driver_bug"), &c, "zero-len"), 0);
    assert_int_equal(sim_setting_text(row("driver_bug"), &c, buf, sizeof(buf)), 1);
    assert_string_equal(buf, "DRIVER BUG zero-len at packet 1000");
    c.pkt_size_max = 1518;
    assert_int_equal(sim_setting_text(row("pkt_size_max"), &c, buf, sizeof(buf)), 1);
    assert_string_equal(buf, "random sizes up to 1518 B");
    c.ordering = STBUF_WEAK;
    assert_int_equal(sim_setting_text(row("reorder_window"), &c, buf, sizeof(buf)), 1);
    assert_string_equal(buf, "window 8");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_settings_rows_well_formed),
        cmocka_unit_test(test_settings_defaults_parse_and_validate),
        cmocka_unit_test(test_settings_format_parses_back),
        cmocka_unit_test(test_settings_ranges),
        cmocka_unit_test(test_settings_range_early),
        cmocka_unit_test(test_settings_host_memory),
        cmocka_unit_test(test_settings_desc_fetch_max),
        cmocka_unit_test(test_settings_timeouts),
        cmocka_unit_test(test_settings_bug_at_in_run),
        cmocka_unit_test(test_settings_parse_refusals),
        cmocka_unit_test(test_settings_json_names_every_row),
        cmocka_unit_test(test_settings_text_header),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
