/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_profile.c - run profiles (sim/cli/profile.h): the shipped INI files load,
 * validate and set every key; each key sets its own field; bad keys, values
 * and lines are refused with file:line and the cfg untouched; later keys
 * override earlier ones; what is not a text file (a NUL byte, a FIFO, a
 * directory) is refused; NAME lookup in ./profiles and $NICTX_PROFILE_DIR.
 *
 * Run from the repository root (make test does): the shipped profiles are
 * read as profiles/NAME.ini and the key listing is checked against
 * docs/profiles.md.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <ini.h>

#include "nictx_hw.h"

#include "cli/profile.h"
#include "host/cpu.h"

#define MAX_KEYS 128
#define KEY_LEN 64
#define MAX_FILES 16

static const char *const shipped[] = {"mlx4-2014", "ixgbe-2012", "modern-gen4", "graviton2"};
#define NSHIPPED (sizeof(shipped) / sizeof(shipped[0]))

/* ------------------------------------------------------------ fixture */

/* A temporary directory and the files written into it. */
struct fx {
    char dir[64];
    char files[MAX_FILES][128];
    size_t nfiles;
};

static int fx_setup(void **state)
{
    struct fx *f = calloc(1, sizeof(*f));

    if (f == NULL)
        return -1;
    snprintf(f->dir, sizeof(f->dir), "/tmp/nictx-profile-XXXXXX");
    if (mkdtemp(f->dir) == NULL) {
        free(f);
        return -1;
    }
    unsetenv(PROFILE_DIR_ENV);
    *state = f;
    return 0;
}

static int fx_teardown(void **state)
{
    struct fx *f = *state;
    size_t i;

    for (i = 0; i < f->nfiles; i++)
        remove(f->files[i]);
    rmdir(f->dir);
    unsetenv(PROFILE_DIR_ENV);
    free(f);
    return 0;
}

/* Write text to dir/name; returns the path (valid until teardown). */
static const char *fx_write(struct fx *f, const char *name, const char *text)
{
    char buf[sizeof(f->files[0])], *path;
    FILE *fp;

    assert_true(f->nfiles < MAX_FILES);
    snprintf(buf, sizeof(buf), "%s/%s", f->dir, name);
    path = memcpy(f->files[f->nfiles++], buf, sizeof(buf));
    fp = fopen(path, "w");
    assert_non_null(fp);
    assert_int_equal(fputs(text, fp) >= 0, 1);
    assert_int_equal(fclose(fp), 0);
    return path;
}

/* ------------------------------------------------------------ helpers */

/* The keys profile_list_keys() prints, "section.key" each. */
static size_t listed_keys(char keys[][KEY_LEN])
{
    FILE *tmp = tmpfile();
    char line[512];
    size_t n = 0;

    assert_non_null(tmp);
    profile_list_keys(tmp);
    rewind(tmp);
    while (fgets(line, sizeof(line), tmp) != NULL) {
        assert_true(n < MAX_KEYS);
        assert_int_equal(sscanf(line, "%63s", keys[n]), 1);
        n++;
    }
    fclose(tmp);
    return n;
}

struct seen {
    char keys[MAX_KEYS][KEY_LEN];
    size_t n;
};

static int collect_key(void *user, const char *section, const char *name, const char *value)
{
    struct seen *s = user;

    (void)value;
    if (s->n < MAX_KEYS)
        snprintf(s->keys[s->n++], KEY_LEN, "%s.%s", section, name);
    return 1;
}

static int has_key(const struct seen *s, const char *key)
{
    size_t i;

    for (i = 0; i < s->n; i++)
        if (strcmp(s->keys[i], key) == 0)
            return 1;
    return 0;
}

static int names_source(const char *line)
{
    return strstr(line, "source") || strstr(line, "derived") || strstr(line, "assumption");
}

/* Every key line has a comment naming its source on the same line or in
 * the comment block right above it. */
static void assert_keys_sourced(const char *path)
{
    FILE *fp = fopen(path, "r");
    char line[256];
    int lineno = 0, block_ok = 0;

    assert_non_null(fp);
    while (fgets(line, sizeof(line), fp) != NULL) {
        lineno++;
        if (line[0] == ';' || line[0] == '#') {
            block_ok |= names_source(line);
            continue;
        }
        if (line[0] != '\n' && line[0] != '[' && !block_ok &&
            !(strstr(line, " ;") && names_source(strstr(line, " ;")))) {
            print_error("%s:%d: value without a source comment\n", path, lineno);
            fail();
        }
        block_ok = 0;
    }
    fclose(fp);
}

static void cfg_copy(struct sim_cfg *dst, const struct sim_cfg *src)
{
    memcpy(dst, src, sizeof(*dst));
}

static void assert_cfg_same(const struct sim_cfg *a, const struct sim_cfg *b)
{
    assert_memory_equal(a, b, sizeof(*a));
}

/* ------------------------------------------------------------ shipped */

/* Each shipped profile loads by name from ./profiles and validates. */
static void test_profile_shipped_load_and_validate(void **state)
{
    char err[256];
    size_t i;

    (void)state;
    for (i = 0; i < NSHIPPED; i++) {
        struct sim_cfg cfg;

        sim_cfg_default(&cfg);
        if (profile_load(&cfg, shipped[i], err, sizeof(err)) != 0)
            fail_msg("%s: %s", shipped[i], err);
        if (sim_cfg_validate(&cfg, err, sizeof(err)) != 0)
            fail_msg("%s: %s", shipped[i], err);
        assert_string_equal(cfg.profile, shipped[i]);
        assert_int_equal(strncmp(cfg.cpu_profile, shipped[i], 15), 0);
    }
}

/* Each shipped profile sets every listed key, each with its source. */
static void test_profile_shipped_complete_and_sourced(void **state)
{
    char keys[MAX_KEYS][KEY_LEN], path[128];
    size_t n = listed_keys(keys), i, k;

    (void)state;
    for (i = 0; i < NSHIPPED; i++) {
        struct seen s;

        memset(&s, 0, sizeof(s));
        snprintf(path, sizeof(path), "profiles/%s.ini", shipped[i]);
        assert_int_equal(ini_parse(path, collect_key, &s), 0);
        for (k = 0; k < n; k++)
            if (!has_key(&s, keys[k]))
                fail_msg("%s does not set %s", path, keys[k]);
        assert_keys_sourced(path);
    }
}

/* The settings the profiles stand for. */
static void test_profile_shipped_settings(void **state)
{
    struct sim_cfg c;
    char err[256];

    (void)state;
    sim_cfg_default(&c);
    assert_int_equal(profile_load(&c, "mlx4-2014", err, sizeof(err)), 0);
    assert_true(c.line_gbps == 10.0 && c.pcie.gen == 3 && c.pcie.lanes == 8);
    assert_true(c.proto == TXQ_PROTO_WC && c.ordering == STBUF_X86);
    assert_true(c.cpus == 2 && c.burst == 8 && c.source == SIM_SOURCE_PKTGEN);
    assert_true(c.costs.line_xfer_ns >= 44 && c.costs.line_xfer_ns <= 51);
    assert_true(c.costs.lock_ns > 11.0 && c.costs.lock_ns < 11.5); /* 34 cycles, 3 GHz */

    sim_cfg_default(&c);
    assert_int_equal(profile_load(&c, "ixgbe-2012", err, sizeof(err)), 0);
    assert_true(c.line_gbps == 10.0 && c.pcie.gen == 2 && c.pcie.lanes == 8);
    assert_true(c.proto == TXQ_PROTO_TAIL && c.burst == 1 && c.tail_coalesce == 0);
    assert_true(c.source == SIM_SOURCE_QDISC && c.cpus == 1 && c.napi == SIM_NAPI_IRQ);

    sim_cfg_default(&c);
    assert_int_equal(profile_load(&c, "modern-gen4", err, sizeof(err)), 0);
    assert_true(c.line_gbps == 100.0 && c.pcie.gen == 4 && c.pcie.lanes == 16);
}

/* The arm64 profile: weak ordering, and its cpu.* values are the
 * "graviton2" cost table's (--cpu graviton2), field for field. */
static void test_profile_graviton2_is_the_table(void **state)
{
    struct sim_cfg c;
    struct cpu_costs table;
    char err[256];

    (void)state;
    sim_cfg_default(&c);
    assert_int_equal(profile_load(&c, "graviton2", err, sizeof(err)), 0);
    assert_int_equal(c.ordering, STBUF_WEAK);
    assert_int_equal(cpu_costs_profile(&table, "graviton2"), 0);
    assert_memory_equal(&c.costs, &table, sizeof(table));
    /* --ordering weak alone keeps the x86 table (the default) */
    sim_cfg_default(&c);
    assert_int_equal(profile_set(&c, "host.ordering=weak", err, sizeof(err)), 0);
    assert_int_equal(cpu_costs_profile(&table, "x86"), 0);
    assert_memory_equal(&c.costs, &table, sizeof(table));
}

/* The CPU cost tables by name: the walk by index ends with NULL right after
 * the last table, each name found again by cpu_costs_profile, and a name
 * no table has (empty, a prefix, another case, one past the last) is -1
 * with *c untouched.  A lookup that reads one past the table dies under
 * SAN=1 (ASan: global-buffer-overflow). */
static void test_profile_cpu_tables_by_name(void **state)
{
    static const char *const unknown[] = {"", "x8", "x86 ", "X86", "graviton", "cheap2", "arm64"};
    struct cpu_costs c, before;
    unsigned n = 0;

    (void)state;
    while (cpu_costs_profile_name(n) != NULL) {
        const char *name = cpu_costs_profile_name(n);
        assert_int_equal(cpu_costs_profile(&c, name), 0);
        for (unsigned j = 0; j < n; j++)
            assert_string_not_equal(cpu_costs_profile_name(j), name);
        n++;
        assert_true(n <= 16);
    }
    assert_null(cpu_costs_profile_name(n));
    assert_null(cpu_costs_profile_name(n + 1));
    for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
        memset(&c, 0x5a, sizeof(c));
        memcpy(&before, &c, sizeof(c));
        assert_int_equal(cpu_costs_profile(&c, unknown[i]), -1);
        assert_memory_equal(&c, &before, sizeof(c));
    }
}

/* docs/profiles.md cites each value of the graviton2 table: in its
 * "### graviton2" section, one row "| `cpu.KEY` | VALUE | ..." per cpu.* key.
 * Each documented value, set on a cfg holding the table, changes nothing. */
static void test_profile_graviton2_docs_cite_the_table(void **state)
{
    char keys[MAX_KEYS][KEY_LEN], line[1024], key[KEY_LEN], value[64], a[160], err[256];
    size_t n = listed_keys(keys), ncpu = 0, rows = 0, i;
    FILE *fp = fopen("docs/profiles.md", "r");
    struct sim_cfg c, before;
    int in = 0;

    (void)state;
    for (i = 0; i < n; i++)
        ncpu += strncmp(keys[i], "cpu.", 4) == 0;
    assert_non_null(fp);
    while (fgets(line, sizeof(line), fp) != NULL) {
        if (strncmp(line, "#", 1) == 0)
            in = strncmp(line, "### graviton2", 13) == 0;
        if (!in || sscanf(line, "| `%63[^`]` | %63[^ |] |", key, value) != 2 ||
            strncmp(key, "cpu.", 4) != 0)
            continue;
        sim_cfg_default(&c);
        assert_int_equal(cpu_costs_profile(&c.costs, "graviton2"), 0);
        cfg_copy(&before, &c);
        snprintf(a, sizeof(a), "%s=%s", key, value);
        if (profile_set(&c, a, err, sizeof(err)) != 0)
            fail_msg("docs/profiles.md graviton2 row %s: %s", a, err);
        if (memcmp(&c, &before, sizeof(c)) != 0)
            fail_msg("docs/profiles.md cites %s, the table holds another value", a);
        rows++;
    }
    fclose(fp);
    assert_int_equal(rows, ncpu);
}

/* ------------------------------------------------------------ --set */

/* One key of each type sets its field and nothing else. */
static void test_profile_set_each_type(void **state)
{
    struct sim_cfg c, exp;
    char err[256];

    (void)state;
    sim_cfg_default(&c);
    cfg_copy(&exp, &c);
    assert_int_equal(profile_set(&c, "cpu.xmit_pkt_ns=42.5", err, sizeof(err)), 0);
    exp.costs.xmit_pkt_ns = 42.5;
    assert_cfg_same(&c, &exp);
    assert_int_equal(profile_set(&c, " cpu.sb_entries = 12 ", err, sizeof(err)), 0);
    exp.costs.sb_entries = 12;
    assert_cfg_same(&c, &exp);
    assert_int_equal(profile_set(&c, "cpu.lock_ns=1.5e1", err, sizeof(err)), 0);
    exp.costs.lock_ns = 15.0;
    assert_cfg_same(&c, &exp);
    assert_int_equal(profile_set(&c, "link.pcie=Gen4X16", err, sizeof(err)), 0);
    exp.pcie.gen = 4;
    exp.pcie.lanes = 16;
    assert_cfg_same(&c, &exp);
    assert_int_equal(profile_set(&c, "link.mps=512", err, sizeof(err)), 0);
    exp.pcie.mps = 512;
    assert_cfg_same(&c, &exp);
    assert_int_equal(profile_set(&c, "driver.protocol=owner", err, sizeof(err)), 0);
    exp.proto = TXQ_PROTO_OWNER;
    assert_cfg_same(&c, &exp);
    assert_int_equal(profile_set(&c, "driver.barrier=per-batch", err, sizeof(err)), 0);
    exp.barrier = TXQ_BARRIER_PER_BATCH;
    assert_cfg_same(&c, &exp);
    assert_int_equal(profile_set(&c, "host.ordering=weak", err, sizeof(err)), 0);
    exp.ordering = STBUF_WEAK;
    assert_cfg_same(&c, &exp);
}

/* The enums profile.c names itself. */
static void test_profile_set_local_enums(void **state)
{
    struct sim_cfg c, exp;
    char err[256];

    (void)state;
    sim_cfg_default(&c);
    cfg_copy(&exp, &c);
    assert_int_equal(profile_set(&c, "driver.layout=packed", err, sizeof(err)), 0);
    exp.layout = SIM_LAYOUT_PACKED;
    assert_int_equal(profile_set(&c, "driver.dql=read-first", err, sizeof(err)), 0);
    exp.dql = DQL_READ_FIRST;
    assert_int_equal(profile_set(&c, "driver.source=qdisc", err, sizeof(err)), 0);
    exp.source = SIM_SOURCE_QDISC;
    assert_cfg_same(&c, &exp);
    assert_int_equal(profile_set(&c, "driver.layout=split", err, sizeof(err)), 0);
    exp.layout = SIM_LAYOUT_SPLIT;
    assert_int_equal(profile_set(&c, "driver.dql=write-first", err, sizeof(err)), 0);
    exp.dql = DQL_WRITE_FIRST;
    assert_int_equal(profile_set(&c, "driver.source=pktgen", err, sizeof(err)), 0);
    exp.source = SIM_SOURCE_PKTGEN;
    assert_cfg_same(&c, &exp);
}

/* Refused, cfg untouched, and the message says why. */
static void assert_set_fails(const char *assignment, const char *why)
{
    struct sim_cfg c, before;
    char err[256] = "";

    sim_cfg_default(&c);
    cfg_copy(&before, &c);
    if (profile_set(&c, assignment, err, sizeof(err)) == 0)
        fail_msg("'%s' was accepted", assignment);
    assert_cfg_same(&c, &before);
    if (strstr(err, why) == NULL)
        fail_msg("'%s': message '%s' lacks '%s'", assignment, err, why);
}

static void test_profile_set_rejects(void **state)
{
    (void)state;
    assert_set_fails("cpu.nope=1", "unknown key cpu.nope");
    assert_set_fails("nope.xmit_pkt_ns=1", "unknown key nope.xmit_pkt_ns");
    assert_set_fails("xmit_pkt_ns=1", "unknown key xmit_pkt_ns");
    assert_set_fails("cpu.xmit_pkt_ns", "expected section.key=value");
    assert_set_fails("driver.protocol=token", "expected tail|owner|wc");
    assert_set_fails("driver.layout=Packed", "expected split|packed");
    assert_set_fails("host.ordering=tso", "expected x86|weak");
    assert_set_fails("link.pcie=gen6x8", "expected genGxW");
    assert_set_fails("link.pcie=gen3x8x", "expected genGxW");
    /* numbers: strict decimal, finite, nothing after */
    assert_set_fails("cpu.xmit_pkt_ns=abc", "expected a decimal number");
    assert_set_fails("cpu.xmit_pkt_ns=1x", "expected a decimal number");
    assert_set_fails("cpu.xmit_pkt_ns=", "expected a decimal number");
    assert_set_fails("cpu.xmit_pkt_ns=0x10", "expected a decimal number");
    assert_set_fails("cpu.xmit_pkt_ns=inf", "expected a decimal number");
    assert_set_fails("cpu.xmit_pkt_ns=nan", "expected a decimal number");
    assert_set_fails("cpu.xmit_pkt_ns=-1", "expected a decimal number");
    assert_set_fails("cpu.xmit_pkt_ns=1e999", "expected a decimal number");
    assert_set_fails("cpu.xmit_pkt_ns=1e", "expected a decimal number");
    assert_set_fails("cpu.xmit_pkt_ns=.", "expected a decimal number");
    assert_set_fails("cpu.xmit_pkt_ns=1 2", "expected a decimal number");
    /* unsigned: no fraction, no sign, 32 bits */
    assert_set_fails("cpu.sb_entries=1.5", "expected a decimal integer");
    assert_set_fails("cpu.sb_entries=+1", "expected a decimal integer");
    assert_set_fails("cpu.sb_entries=4294967296", "expected a decimal integer");
}

/* Limits of the number syntax that are accepted. */
static void test_profile_set_number_edges(void **state)
{
    struct sim_cfg c;
    char err[256];

    (void)state;
    sim_cfg_default(&c);
    assert_int_equal(profile_set(&c, "cpu.store_ns=.5", err, sizeof(err)), 0);
    assert_true(c.costs.store_ns == 0.5);
    assert_int_equal(profile_set(&c, "cpu.store_ns=2.", err, sizeof(err)), 0);
    assert_true(c.costs.store_ns == 2.0);
    assert_int_equal(profile_set(&c, "cpu.store_ns=25E-1", err, sizeof(err)), 0);
    assert_true(c.costs.store_ns == 2.5);
    assert_int_equal(profile_set(&c, "device.tags=4294967295", err, sizeof(err)), 0);
    assert_int_equal(c.tags, 4294967295u);
    assert_int_equal(profile_set(&c, "device.tags=007", err, sizeof(err)), 0);
    assert_int_equal(c.tags, 7);
}

/* The listing and the parser read one table: every listed key is known. */
static void test_profile_list_keys_match_parser(void **state)
{
    char keys[MAX_KEYS][KEY_LEN], a[128], err[256];
    size_t n = listed_keys(keys), i;
    struct sim_cfg c;

    (void)state;
    assert_int_equal(n, 66);
    sim_cfg_default(&c);
    for (i = 0; i < n; i++) {
        snprintf(a, sizeof(a), "%s=@", keys[i]);
        assert_int_equal(profile_set(&c, a, err, sizeof(err)), -1);
        if (strstr(err, "expected") == NULL)
            fail_msg("listed key %s: %s", keys[i], err);
    }
}

/* docs/profiles.md documents every key. */
static void test_profile_docs_list_every_key(void **state)
{
    char keys[MAX_KEYS][KEY_LEN], *doc, quoted[KEY_LEN + 2];
    size_t n = listed_keys(keys), i;
    FILE *fp = fopen("docs/profiles.md", "r");
    long len;

    (void)state;
    assert_non_null(fp);
    assert_int_equal(fseek(fp, 0, SEEK_END), 0);
    len = ftell(fp);
    rewind(fp);
    doc = calloc(1, (size_t)len + 1);
    assert_non_null(doc);
    assert_int_equal(fread(doc, 1, (size_t)len, fp), (size_t)len);
    fclose(fp);
    for (i = 0; i < n; i++) {
        snprintf(quoted, sizeof(quoted), "`%s`", keys[i]);
        if (strstr(doc, quoted) == NULL)
            fail_msg("docs/profiles.md lacks %s", quoted);
    }
    free(doc);
}

/* ------------------------------------------------------------ files */

/* A bad key on line 5: file:line and key in the message, cfg untouched
 * although the lines before it were good. */
static void test_profile_file_unknown_key(void **state)
{
    struct fx *f = *state;
    const char *path = fx_write(f, "bad.ini",
                                "; a profile\n"
                                "[cpu]\n"
                                "xmit_pkt_ns = 7\n"
                                "\n"
                                "foo = 1\n");
    struct sim_cfg c, before;
    char err[256], want[256];

    sim_cfg_default(&c);
    cfg_copy(&before, &c);
    assert_int_equal(profile_load(&c, path, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s:5: unknown key cpu.foo", path);
    assert_string_equal(err, want);
    assert_cfg_same(&c, &before);
}

/* Load text as dir/name and expect "path:line: ..." containing why. */
static void assert_file_fails(struct fx *f, const char *name, const char *text, int line,
                              const char *why)
{
    const char *path = fx_write(f, name, text);
    struct sim_cfg c;
    char err[256], want[200];

    sim_cfg_default(&c);
    assert_int_equal(profile_load(&c, path, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s:%d: ", path, line);
    if (strncmp(err, want, strlen(want)) != 0 || strstr(err, why) == NULL)
        fail_msg("%s: got '%s', want '%s...%s'", name, err, want, why);
}

static void test_profile_file_errors(void **state)
{
    struct fx *f = *state;
    char longline[300];

    assert_file_fails(f, "e1.ini", "[cpu]\nxmit_pkt_ns = 1x\n", 2,
                      "cpu.xmit_pkt_ns = '1x': expected a decimal number");
    assert_file_fails(f, "e2.ini", "[cpu]\nstore_ns = 1\n[cpux]\n", 3, "unknown section [cpux]");
    assert_file_fails(f, "e3.ini", "[driver]\nburst = 2\n  burst = 3\n", 3, "indented line");
    assert_file_fails(f, "e4.ini", "[driver]\nburst\n", 2, "syntax error");
    assert_file_fails(f, "e5.ini", "burst = 2\n", 1, "key burst outside a section");
    assert_file_fails(f, "e6.ini", "[driver]\nprotocol = token ; inline comment\n", 2,
                      "driver.protocol = 'token': expected tail|owner|wc");
    assert_file_fails(f, "e7.ini", "[driver]\nburst = 2; no blank before ';'\n", 2,
                      "expected a decimal integer");
    memset(longline, 'x', sizeof(longline));
    memcpy(longline, "[cpu]\n; ", 8);
    strcpy(longline + sizeof(longline) - 2, "\n");
    assert_file_fails(f, "e8.ini", longline, 2, "line longer than");
}

/* What is not an INI text file is refused, not read as an empty profile or
 * waited on: a file with a NUL byte, a FIFO (with no writer: opening it
 * for reading would block), a directory; the cfg is untouched. */
static void test_profile_file_not_text(void **state)
{
    struct fx *f = *state;
    static const char bin[] = "[driver]\nburst = 2\n\x7f" "ELF\0\x02\x01";
    struct sim_cfg c, exp;
    char err[256], path[160];
    const char *p;
    FILE *fp;

    sim_cfg_default(&c);
    exp = c;
    p = fx_write(f, "bin.ini", "");
    fp = fopen(p, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(bin, 1, sizeof(bin), fp), sizeof(bin));
    assert_int_equal(fclose(fp), 0);
    assert_int_equal(profile_load(&c, p, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "not a text file (a NUL byte at offset 23)"));
    assert_memory_equal(&c, &exp, sizeof(c));

    snprintf(path, sizeof(path), "%s/fifo.ini", f->dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_int_equal(profile_load(&c, path, err, sizeof(err)), -1);
    remove(path);
    assert_non_null(strstr(err, "not a regular file"));

    snprintf(path, sizeof(path), "%s/dir.ini", f->dir);
    assert_int_equal(mkdir(path, 0700), 0);
    assert_int_equal(profile_load(&c, path, err, sizeof(err)), -1);
    rmdir(path);
    assert_non_null(strstr(err, "not a regular file"));
    assert_memory_equal(&c, &exp, sizeof(c));
}

/* Later keys override earlier ones; keys not named keep their values;
 * comments in all three forms are accepted. */
static void test_profile_file_later_overrides(void **state)
{
    struct fx *f = *state;
    const char *path = fx_write(f, "over.ini",
                                "# hash comment\n"
                                "[cpu]\n"
                                "xmit_pkt_ns = 10 ; inline comment\n"
                                "[driver]\n"
                                "burst = 4\n"
                                "[cpu]\n"
                                "xmit_pkt_ns = 20\n"
                                "[driver]\n"
                                "burst = 5\n");
    struct sim_cfg c, exp;
    char err[256];

    sim_cfg_default(&c);
    c.costs.clean_poll_ns = 99.0;
    cfg_copy(&exp, &c);
    assert_int_equal(profile_load(&c, path, err, sizeof(err)), 0);
    exp.costs.xmit_pkt_ns = 20.0;
    exp.burst = 5;
    snprintf(exp.profile, sizeof(exp.profile), "over");
    snprintf(exp.cpu_profile, sizeof(exp.cpu_profile), "over");
    assert_cfg_same(&c, &exp);
}

/* NAME: ./profiles/NAME.ini first, then $NICTX_PROFILE_DIR/NAME.ini. */
static void test_profile_env_dir_lookup(void **state)
{
    struct fx *f = *state;
    struct sim_cfg c;
    char err[256];

    fx_write(f, "zz-envtest.ini", "[driver]\nburst = 3\n");
    fx_write(f, "mlx4-2014.ini", "[driver]\nburst = 5\n");
    sim_cfg_default(&c);
    assert_int_equal(profile_load(&c, "zz-envtest", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "not found"));
    assert_non_null(strstr(err, PROFILE_DIR_ENV));

    assert_int_equal(setenv(PROFILE_DIR_ENV, f->dir, 1), 0);
    assert_int_equal(profile_load(&c, "zz-envtest", err, sizeof(err)), 0);
    assert_int_equal(c.burst, 3);
    assert_string_equal(c.profile, "zz-envtest");
    /* ./profiles comes first */
    assert_int_equal(profile_load(&c, "mlx4-2014", err, sizeof(err)), 0);
    assert_int_equal(c.burst, 8);
    assert_int_equal(profile_load(&c, "zz-missing", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "zz-missing.ini"));
}

/* Paths name the profile by their file name; names are checked. */
static void test_profile_paths_and_names(void **state)
{
    struct fx *f = *state;
    const char *path = fx_write(f, "a-very-long-profile-name.ini", "[host]\ncpus = 2\n");
    struct sim_cfg c;
    char err[256];

    sim_cfg_default(&c);
    assert_int_equal(profile_load(&c, path, err, sizeof(err)), 0);
    assert_string_equal(c.profile, "a-very-long-profile-name");
    assert_string_equal(c.cpu_profile, "a-very-long-pro"); /* first 15 */
    assert_int_equal(profile_load(&c, "../etc/x", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "neither a name"));
    assert_int_equal(profile_load(&c, "/nonexistent/x.ini", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "/nonexistent/x.ini"));
    assert_int_equal(profile_load(&c, "", err, sizeof(err)), -1);
}

/* The queue keys and their helpers: weights lists (boundaries: 64 values,
 * empty items, leading zeros), each queue's weight, and the packets split
 * floor(P/N), one more for the first P mod N queues. */
static void test_profile_queue_keys(void **state)
{
    struct sim_cfg c;
    struct txq_cfg tc;
    struct sim_weights w;
    char err[256], many[64 * 2 + 8] = "";

    (void)state;
    sim_cfg_default(&c);
    assert_int_equal(c.queues, 1);
    assert_int_equal(c.drr_quantum, 2048);
    assert_int_equal(sim_cfg_weight(&c, 0), 1);
    assert_int_equal(profile_set(&c, "device.queues=4", err, sizeof(err)), 0);
    assert_int_equal(profile_set(&c, "device.sched=drr", err, sizeof(err)), 0);
    assert_int_equal(profile_set(&c, "device.weights=1,2,3,4", err, sizeof(err)), 0);
    assert_int_equal(profile_set(&c, "device.drr_quantum=64", err, sizeof(err)), 0);
    assert_int_equal(sim_cfg_validate(&c, err, sizeof(err)), 0);
    assert_int_equal(c.sched, SIM_SCHED_DRR);
    assert_int_equal(sim_cfg_weight(&c, 3), 4);
    c.packets = 10;
    assert_int_equal(sim_cfg_queue_packets(&c, 0), 3);
    assert_int_equal(sim_cfg_queue_packets(&c, 1), 3);
    assert_int_equal(sim_cfg_queue_packets(&c, 2), 2);
    assert_int_equal(sim_cfg_queue_packets(&c, 3), 2);
    sim_cfg_txq(&c, &tc);
    assert_int_equal(tc.queues, 4);
    assert_int_equal(tc.sched, NICTX_SCHED_DRR);
    assert_int_equal(tc.drr_quantum, 64);
    assert_int_equal(tc.queue, 0);
    assert_int_equal(tc.weight, 1);
    sim_cfg_txq_queue(&c, 2, &tc);
    assert_int_equal(tc.queue, 2);
    assert_int_equal(tc.weight, 3);
    assert_int_equal(profile_set(&c, "device.weights=7", err, sizeof(err)), 0);
    assert_int_equal(sim_cfg_weight(&c, 3), 7); /* one value: every queue */
    assert_int_equal(profile_set(&c, "device.weights=1,,2", err, sizeof(err)), -1);
    assert_int_equal(profile_set(&c, "device.weights=01", err, sizeof(err)), -1);
    assert_int_equal(profile_set(&c, "device.weights=", err, sizeof(err)), -1);
    assert_int_equal(profile_set(&c, "device.sched=wfq", err, sizeof(err)), -1);
    for (unsigned i = 0; i < 64; i++)
        strcat(many, i ? ",1" : "1");
    assert_int_equal(sim_parse_weights(many, &w), 0);
    assert_int_equal(w.n, 64);
    strcat(many, ",1"); /* boundary: 65 values */
    assert_int_equal(sim_parse_weights(many, &w), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profile_shipped_load_and_validate),
        cmocka_unit_test(test_profile_shipped_complete_and_sourced),
        cmocka_unit_test(test_profile_shipped_settings),
        cmocka_unit_test(test_profile_graviton2_is_the_table),
        cmocka_unit_test(test_profile_graviton2_docs_cite_the_table),
        cmocka_unit_test(test_profile_cpu_tables_by_name),
        cmocka_unit_test(test_profile_set_each_type),
        cmocka_unit_test(test_profile_set_local_enums),
        cmocka_unit_test(test_profile_set_rejects),
        cmocka_unit_test(test_profile_set_number_edges),
        cmocka_unit_test(test_profile_list_keys_match_parser),
        cmocka_unit_test(test_profile_docs_list_every_key),
        cmocka_unit_test_setup_teardown(test_profile_file_unknown_key, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_profile_file_errors, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_profile_file_not_text, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_profile_file_later_overrides, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_profile_env_dir_lookup, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_profile_paths_and_names, fx_setup, fx_teardown),
        cmocka_unit_test(test_profile_queue_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
