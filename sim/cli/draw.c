/* SPDX-License-Identifier: Apache-2.0 */
/*
 * draw.c - legal random configurations (see draw.h).
 */
#define _GNU_SOURCE /* open_memstream */
#include "cli/draw.h"

#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/num.h"
#include "cli/run_args.h"
#include "device/dev_hw.h"
#include "run/harness.h"

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------ the rules */

enum draw_kind {
    DRAW_SKIP,  /* never drawn */
    DRAW_FIXED, /* always `value` */
    DRAW_SPAN,  /* a number in lo..hi (log-uniform when wide) */
    DRAW_POW2,  /* a power of two in lo..hi */
    DRAW_PICK,  /* one of `value`'s comma-separated choices */
};

struct draw_rule {
    const char *name; /* the settings row */
    enum draw_kind kind;
    double lo, hi;
    const char *value;
    const char *why;
};

#define DRAW_PACKETS_MIN 2000
#define SHORT "bounded so that a run stays short"
#define AUTO_WHY                                                                          \
    "auto derives it from the configuration (docs/faults.md, Timeouts); a random one "  \
    "shorter than the configuration needs stops or resets a healthy run, which "        \
    "validation does not refuse"
#define OUTPUT_WHY "an output file, not a configuration (a failing seed's snapshot is kept)"

/* The rows drawn otherwise than from their type and range, and why. */
/* A hardware combination is a Verilated model of its own, built on demand
 * in minutes (docs/codesign.md): a draw keeps the prebuilt one unless
 * --hw K gives it a pool of K combinations (draw_hw). */
#define HW_WHY                                                                            \
    "a new hardware combination builds its RTL model (minutes): drawn only with --hw K, " \
    "one draw in four, from a pool of K combinations shared by every seed"
static const struct draw_rule rules[] = {
    {"device", DRAW_FIXED, 0, 0, "lockstep",
     "always lockstep: the RTL and the C model compared every clock"},
    {"packets", DRAW_SPAN, DRAW_PACKETS_MIN, 20000, NULL, SHORT " (fewer for large frames)"},
    {"seed", DRAW_SPAN, 1, 4294967295.0, NULL, "the table gives no range: any 32-bit seed"},
    {"driver_bug", DRAW_SKIP, 0, 0, NULL,
     "a deliberately broken driver: its run is meant to end in a violation"},
    {"bug_at", DRAW_SKIP, 0, 0, NULL, "acts only with --driver-bug"},
    {"schedule", DRAW_SKIP, 0, 0, NULL,
     "an exploration schedule is --explore's; a plain run is schedule 0"},
    {"clean", DRAW_SKIP, 0, 0, NULL, "the old spelling of --completion, which is drawn"},
    {"barrier", DRAW_PICK, 0, 0, "per-desc,per-batch,wmb-per-desc",
     "not none: 'only for validation; not correct on any CPU' (docs/ownership.md), so a "
     "violation is its expected end"},
    {"cpl_timeout_us", DRAW_SKIP, 0, 0, NULL, AUTO_WHY},
    {"tx_timeout_us", DRAW_SKIP, 0, 0, NULL, AUTO_WHY},
    {"watchdog_us", DRAW_SKIP, 0, 0, NULL, AUTO_WHY},
    {"wave", DRAW_SKIP, 0, 0, NULL, OUTPUT_WHY},
    {"wave_from", DRAW_SKIP, 0, 0, NULL, "the window of --wave and --timeline, not drawn"},
    {"wave_to", DRAW_SKIP, 0, 0, NULL, "the window of --wave and --timeline, not drawn"},
    {"timeline", DRAW_SKIP, 0, 0, NULL, OUTPUT_WHY},
    {"pcap_out", DRAW_SKIP, 0, 0, NULL, OUTPUT_WHY},
    {"pcap_in", DRAW_SKIP, 0, 0, NULL, "needs a capture file; the drawn runs send generated frames"},
    {"pcap_timing", DRAW_SKIP, 0, 0, NULL, "acts only with --pcap-in"},
    {"no_snapshot", DRAW_SKIP, 0, 0, NULL, "a failing seed must leave its snapshot"},
    {"area", DRAW_SKIP, 0, 0, NULL,
     "a Yosys synthesis (minutes; make test-codesign), not configuration"},
    {"hw_queues", DRAW_SKIP, 0, 0, NULL, HW_WHY},
    {"hw_tags", DRAW_SKIP, 0, 0, NULL, HW_WHY},
    {"hw_desc_reads", DRAW_SKIP, 0, 0, NULL, HW_WHY},
    {"hw_desc_buf", DRAW_SKIP, 0, 0, NULL, HW_WHY},
    {"hw_pay_buf", DRAW_SKIP, 0, 0, NULL, HW_WHY},
    {"hw_pkts", DRAW_SKIP, 0, 0, NULL, HW_WHY},
    {"ring_size", DRAW_POW2, 8, 4096, NULL, SHORT},
    {"burst", DRAW_SPAN, 1, 4096, NULL, SHORT},
    {"mem_latency_ns", DRAW_SPAN, 0, 5000, NULL, SHORT},
    {"poll_ns", DRAW_SPAN, 1, 20000, NULL, SHORT},
    {"line_gbps", DRAW_SPAN, 1, 800, NULL, SHORT " (from 1 Gb/s)"},
    {"pcie.mps", DRAW_POW2, 128, 4096, NULL, "the table gives no range: pcie_cfg_validate's"},
    {"pcie.mrrs", DRAW_POW2, 128, 4096, NULL, "the table gives no range: pcie_cfg_validate's"},
    {"pcie.rcb", DRAW_PICK, 0, 0, "64,128", "the table gives no range: pcie_cfg_validate's"},
    {"buf_align", DRAW_PICK, 0, 0, "frag,skb,packed,64,512,4096",
     "a placement or an alignment: the three placements and three boundaries"},
    {"pcie.latency_ns", DRAW_SPAN, 0, 2000, NULL, SHORT},
    {"fc_update_ns", DRAW_SPAN, 0, 2000, NULL, SHORT},
    {"irq_usecs", DRAW_SPAN, 0, 200, NULL, "the table gives no range; " SHORT},
    {"tail_coalesce", DRAW_SPAN, 0, 256, NULL, "the table gives no range (below --ring)"},
    {"wb_thresh", DRAW_SPAN, 0, 1024, NULL, "below --ring (at most 4096 here)"},
    {"irq_thresh", DRAW_SPAN, 0, 1024, NULL, SHORT},
    {"snapshot_us", DRAW_SPAN, 0.001, 100, NULL, "a snapshot's window, " SHORT},
    {"grace_us", DRAW_SPAN, 0, 100, NULL, SHORT},
    /* (a name ending in '*': every row it begins) */
    {"cpu_costs_ns.*", DRAW_SPAN, 0, 5000, NULL,
     SHORT ": up to 5 us, above the dearest real cost (an MMIO read's microsecond); "
     "the table allows 1e6, which test_sim_costs_at_their_limits runs"},
};

static const struct draw_rule *rule_of(const struct sim_setting *s)
{
    for (size_t i = 0; i < NELEMS(rules); i++) {
        size_t n = strlen(rules[i].name);
        if (rules[i].name[n - 1] == '*' ? strncmp(rules[i].name, s->name, n - 1) == 0
                                         : strcmp(rules[i].name, s->name) == 0)
            return &rules[i];
    }
    return NULL;
}

int cli_draw_settable(const struct sim_setting *s)
{
    return s->type != NULL && (s->opt != NULL || s->key != NULL);
}

const char *cli_draw_rule_why(const struct sim_setting *s, int *skipped)
{
    const struct draw_rule *r = rule_of(s);

    *skipped = r && r->kind == DRAW_SKIP;
    return r ? r->why : NULL;
}

/* ------------------------------------------------------------ the stream */

/* splitmix64: one stream per (seed, attempt). */
struct draw_rng {
    uint64_t s;
};

static uint64_t rng_next(struct draw_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double rng_unit(struct draw_rng *r) /* [0, 1) */
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

static unsigned rng_below(struct draw_rng *r, unsigned n)
{
    return n ? (unsigned)(rng_next(r) % n) : 0;
}

/* A number in lo..hi: uniform, or log-uniform when hi > 100 lo (from
 * max(lo, 1), 0 one time in eight when lo is 0). */
static double rng_span(struct draw_rng *r, double lo, double hi)
{
    double base = lo > 0 ? lo : (lo < 1 && hi > 1 ? 1 : lo);

    if (lo <= 0 && rng_below(r, 8) == 0)
        return lo;
    if (base > 0 && hi > 100 * base)
        return exp(log(base) + rng_unit(r) * (log(hi) - log(base)));
    return lo + rng_unit(r) * (hi - lo);
}

/* ------------------------------------------------------------ the list */

struct draw_out {
    struct cli_draw *d;
    size_t used;
    int full;
};

static void out_arg(struct draw_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void out_arg(struct draw_out *o, const char *fmt, ...)
{
    struct cli_draw *d = o->d;
    va_list ap;
    int len;

    if (o->full || d->argc + 1 >= CLI_DRAW_ARGS_MAX) {
        o->full = 1;
        return;
    }
    va_start(ap, fmt);
    len = vsnprintf(d->buf + o->used, sizeof(d->buf) - o->used, fmt, ap);
    va_end(ap);
    if (len < 0 || (size_t)len >= sizeof(d->buf) - o->used) {
        o->full = 1;
        return;
    }
    d->argv[d->argc++] = d->buf + o->used;
    d->argv[d->argc] = NULL;
    o->used += (size_t)len + 1;
}

/* A number as the strict parsers take it: digits, a point, no exponent. */
static void num_text(double v, int integer, char *buf, size_t n)
{
    size_t len;

    if (integer) {
        snprintf(buf, n, "%.0f", floor(v));
        return;
    }
    snprintf(buf, n, "%.3f", v);
    len = strlen(buf);
    while (len > 1 && buf[len - 1] == '0')
        buf[--len] = '\0';
    if (len > 1 && buf[len - 1] == '.')
        buf[--len] = '\0';
}

/* What the draw so far decided, for the values that depend on it. */
struct draw_state {
    unsigned queues;
    double packets, size_max;
    const struct sim_cfg *hw; /* a drawn hardware combination, or NULL */
};

/* Row s's value by its rule or its table range: a number into buf. */
static void draw_number(struct draw_rng *r, const struct sim_setting *s,
                        const struct draw_rule *rule, int integer, char *buf, size_t n)
{
    const struct set_range *g = &s->range;
    double v, lo = g->lo, hi = g->hi;

    if (rule && rule->kind == DRAW_PICK) {
        char list[128], *save = NULL, *tok;
        unsigned k = 0, pick;
        snprintf(list, sizeof(list), "%s", rule->value);
        for (const char *p = list; *p; p++)
            k += *p == ',';
        pick = rng_below(r, k + 1);
        tok = strtok_r(list, ",", &save);
        while (pick-- && tok)
            tok = strtok_r(NULL, ",", &save);
        snprintf(buf, n, "%s", tok ? tok : "0");
        return;
    }
    if (rule && (rule->kind == DRAW_SPAN || rule->kind == DRAW_POW2)) {
        lo = rule->lo;
        hi = rule->hi;
    } else if (g->kind == SET_RANGE_NONE) {
        lo = 0;
        hi = 1000; /* no range in the table: a cost in ns, a count */
    }
    if ((rule && rule->kind == DRAW_POW2) || (!rule && g->kind == SET_RANGE_POW2)) {
        int e0 = (int)round(log2(lo)), e1 = (int)round(log2(hi));
        v = ldexp(1, e0 + (int)rng_below(r, (unsigned)(e1 - e0 + 1)));
    } else if (!rule && g->kind == SET_RANGE_OR_0 && rng_below(r, 2) == 0) {
        v = 0;
    } else {
        v = rng_span(r, lo, hi);
    }
    if (integer && v < lo)
        v = ceil(lo);
    num_text(v, integer, buf, n);
}

/* A --inject plan: one to three faults of the kinds docs/faults.md lists,
 * at packets within a queue's share. */
static void draw_inject(struct draw_rng *r, const struct draw_state *st, char *buf, size_t n)
{
    static const char *const kinds[] = {"ur", "ca", "ep", "timeout", "db-off", "blackout"};
    unsigned count = 1 + rng_below(r, 3), share = (unsigned)(st->packets / st->queues);
    size_t len = 0;

    buf[0] = '\0';
    for (unsigned i = 0; i < count && len < n; i++) {
        const char *k = kinds[rng_below(r, NELEMS(kinds))];
        unsigned q = rng_below(r, st->queues), at = rng_below(r, share > 1 ? share - 1 : 1);
        char where[32];
        if (q)
            snprintf(where, sizeof(where), "%u/%u", q, at);
        else
            snprintf(where, sizeof(where), "%u", at);
        if (strcmp(k, "blackout") == 0)
            len += (size_t)snprintf(buf + len, n - len, "%s%s@%s:%.0f", i ? "," : "", k, where,
                                    rng_span(r, 1, 100000));
        else
            len += (size_t)snprintf(buf + len, n - len, "%s%s@%s", i ? "," : "", k, where);
    }
}

/* Flow-control credits: some of the types, small to large. */
static void draw_fc(struct draw_rng *r, char *buf, size_t n)
{
    static const char *const types[] = {"ph", "pd", "nph", "npd", "cplh", "cpld"};
    size_t len = 0;

    buf[0] = '\0';
    for (size_t k = 0; k < NELEMS(types) && len < n; k++)
        if (rng_below(r, 2))
            len += (size_t)snprintf(buf + len, n - len, "%s%s=%.0f", len ? "," : "", types[k],
                                    floor(rng_span(r, 1, 1024)));
    if (!buf[0])
        snprintf(buf, n, "ph=%u", 1 + rng_below(r, 32));
}

/* One value for row s into buf: 1, or 0 when its type is not one drawn
 * (the unit test then finds the row never drawn). */
static int draw_value(struct draw_rng *r, const struct sim_setting *s, const struct draw_rule *rule,
                      const struct draw_state *st, int opt, char *buf, size_t n)
{
    char form[256];

    if (rule && rule->kind == DRAW_FIXED) {
        snprintf(buf, n, "%s", rule->value);
        return 1;
    }
    sim_setting_type_text(s, opt, "|", "|", form, sizeof(form));
    if (strcmp(form, "unsigned") == 0 || strcmp(form, "unsigned 64-bit") == 0) {
        draw_number(r, s, rule, 1, buf, n);
    } else if (strcmp(form, "number") == 0 || strcmp(form, "number or auto") == 0) {
        draw_number(r, s, rule, 0, buf, n);
    } else if (strcmp(form, "<Gb/s>g") == 0) {
        draw_number(r, s, rule, 0, buf, n);
        strncat(buf, "g", n - strlen(buf) - 1);
    } else if (strcmp(form, "genGxW") == 0) {
        snprintf(buf, n, "gen%ux%u", 1 + rng_below(r, 5), 1u << rng_below(r, 5));
    } else if (strcmp(form, "W[,W...]") == 0) {
        unsigned k = rng_below(r, 2) ? st->queues : 1;
        size_t len = 0;
        for (unsigned i = 0; i < k && len < n; i++)
            len += (size_t)snprintf(buf + len, n - len, "%s%.0f", i ? "," : "",
                                    floor(rng_span(r, s->range.lo, s->range.hi)));
    } else if (strcmp(form, "TYPE=N,...") == 0) {
        draw_fc(r, buf, n);
    } else if (strncmp(form, "KIND@N", 6) == 0) {
        draw_inject(r, st, buf, n);
    } else if (rule && rule->kind == DRAW_PICK) {
        draw_number(r, s, rule, 0, buf, n);
    } else if (strchr(form, '|') && !strchr(form, ' ') && strcmp(form, "TIME|PACKET") != 0) {
        char *save = NULL, *tok;
        unsigned k = 0, pick;
        for (const char *p = form; *p; p++)
            k += *p == '|';
        pick = rng_below(r, k + 1);
        tok = strtok_r(form, "|", &save);
        while (pick-- && tok)
            tok = strtok_r(NULL, "|", &save);
        snprintf(buf, n, "%s", tok ? tok : "");
    } else {
        return 0;
    }
    return 1;
}

/* The profiles of folder dir (NAME of NAME.ini), sorted; their number. */
static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static size_t list_profiles(const char *dir, char names[][64], size_t max)
{
    DIR *d = dir ? opendir(dir) : NULL;
    struct dirent *e;
    char *ptr[32];
    char tmp[32][64];
    size_t k = 0;

    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL && k < max && k < 32) {
        size_t len = strlen(e->d_name);
        if (len <= 4 || len >= 64 || strcmp(e->d_name + len - 4, ".ini") != 0 ||
            strspn(e->d_name, "abcdefghijklmnopqrstuvwxyz0123456789-_.") != len)
            continue;
        snprintf(tmp[k], sizeof(tmp[k]), "%.*s", (int)(len - 4), e->d_name);
        ptr[k] = tmp[k];
        k++;
    }
    closedir(d);
    qsort(ptr, k, sizeof(ptr[0]), name_cmp);
    for (size_t i = 0; i < k; i++)
        snprintf(names[i], 64, "%s", ptr[i]);
    return k;
}

/* ------------------------------------------------------------ hardware */

/* Row s sizes the hardware: --dev-width or a --hw-* row. */
static int is_hw_row(const struct sim_setting *s)
{
    return strcmp(s->name, "dev_width") == 0 ||
           (s->group == SET_G_HARDWARE && strncmp(s->name, "hw_", 3) == 0);
}

#define DRAW_HW_TRIES 256

/* Combination j of the pool into *c (its width and struct dev_hw, the rest
 * default): each hardware row a power of two in its range, from a stream
 * of j alone, so every seed that picks j picks the same model.  0, or -1
 * when no legal combination came (dev_hw_check). */
static int draw_hw(unsigned j, struct sim_cfg *c)
{
    size_t rows;
    const struct sim_setting *table = sim_settings(&rows);
    struct draw_rng r = {0x6877706f6f6cULL * (j + 1)};
    char val[64], why[256];

    for (unsigned t = 0; t < DRAW_HW_TRIES; t++) {
        sim_cfg_default(c);
        for (size_t i = 0; i < rows; i++) {
            if (!is_hw_row(&table[i]) || table[i].range.kind != SET_RANGE_POW2)
                continue;
            draw_number(&r, &table[i], NULL, 1, val, sizeof(val));
            if (sim_setting_parse_opt(&table[i], c, val, why, sizeof(why)) != 0)
                return -1;
        }
        if (!dev_hw_is_default(&c->hw) &&
            dev_hw_check(c->dev_width, &c->hw, why, sizeof(why)) == 0)
            return 0;
    }
    return -1;
}

/* The register settings the hardware caps (sim_cfg_validate_hw): a value
 * above the cap is drawn again below it. */
static void cap_to_hw(struct draw_rng *r, const struct sim_setting *s, const struct sim_cfg *hw,
                      char *val, size_t n)
{
    unsigned cap = 0;

    if (strcmp(s->name, "queues") == 0)
        cap = hw->hw.queues;
    else if (strcmp(s->name, "tags") == 0)
        cap = hw->hw.tags;
    else if (strcmp(s->name, "desc_fetch_inflight") == 0)
        cap = hw->hw.desc_reads;
    if (cap && strtoul(val, NULL, 10) > cap)
        snprintf(val, n, "%u", 1 + rng_below(r, cap));
}

/* Emit the combination's rows: every hardware row, so the line names the
 * model it runs. */
static void out_hw(struct draw_out *o, const struct sim_cfg *c)
{
    size_t rows;
    const struct sim_setting *table = sim_settings(&rows);
    char val[64];

    for (size_t i = 0; i < rows; i++)
        if (is_hw_row(&table[i]) && table[i].opt) {
            sim_setting_format(&table[i], c, 1, val, sizeof(val));
            out_arg(o, "--%s", table[i].opt);
            out_arg(o, "%s", val);
        }
}

/* One attempt: the whole list from stream r. */
static int draw_once(struct draw_rng *r, const char profiles[][64], size_t nprof,
                     const struct sim_cfg *pool, unsigned npool, struct cli_draw *d)
{
    size_t rows;
    const struct sim_setting *table = sim_settings(&rows);
    struct draw_out o = {d, 0, 0};
    struct draw_state st = {1, 2000, 64, NULL};
    char val[512];

    d->argc = 0;
    out_arg(&o, "run");
    if (nprof && rng_below(r, 4) == 0) {
        out_arg(&o, "--profile");
        out_arg(&o, "%s", profiles[rng_below(r, (unsigned)nprof)]);
    }
    if (npool && rng_below(r, 4) == 0) {
        st.hw = &pool[rng_below(r, npool)];
        out_hw(&o, st.hw);
    }
    for (size_t i = 0; i < rows; i++) {
        const struct sim_setting *s = &table[i];
        const struct draw_rule *rule = rule_of(s);
        int fixed = rule && rule->kind == DRAW_FIXED;
        if (!cli_draw_settable(s) || (rule && rule->kind == DRAW_SKIP) ||
            (st.hw && is_hw_row(s)))
            continue;
        /* packets always: its default is a long run */
        if (!fixed && strcmp(s->name, "packets") != 0 && rng_below(r, 2) == 0)
            continue;
        if (s->opt && !sim_setting_takes_value(s)) {
            if (rng_below(r, 2) == 0)
                out_arg(&o, "--%s", s->opt);
            continue;
        }
        if (!draw_value(r, s, rule, &st, s->opt != NULL, val, sizeof(val)))
            continue;
        if (st.hw)
            cap_to_hw(r, s, st.hw, val, sizeof(val));
        if (strcmp(s->name, "queues") == 0)
            st.queues = (unsigned)strtoul(val, NULL, 10);
        if (strcmp(s->name, "pkt_size") == 0 || strcmp(s->name, "pkt_size_max") == 0)
            st.size_max = fmax(st.size_max, strtod(val, NULL));
        if (strcmp(s->name, "packets") == 0) {
            /* fewer packets for large frames: about 16 MB of frames at most */
            double p = strtod(val, NULL), cap = floor(16e6 / st.size_max);
            st.packets = fmax(DRAW_PACKETS_MIN, fmin(p, cap));
            num_text(st.packets, 1, val, sizeof(val));
        }
        if (s->opt) {
            out_arg(&o, "--%s", s->opt);
            out_arg(&o, "%s", val);
        } else {
            out_arg(&o, "--set");
            out_arg(&o, "%s.%s=%s", s->section, s->key, val);
        }
    }
    return o.full ? -1 : 0;
}

int cli_draw_check(int argc, char **argv, char *err, size_t n)
{
    struct cli_run_opts *ro = malloc(sizeof(*ro));
    char *argcopy[CLI_DRAW_ARGS_MAX + 1];
    char *text = NULL;
    size_t len = 0;
    FILE *msg = open_memstream(&text, &len);
    int rc;

    if (!ro || !msg || argc > CLI_DRAW_ARGS_MAX) {
        snprintf(err, n, "out of memory");
        free(ro);
        if (msg)
            fclose(msg);
        free(text);
        return -1;
    }
    memcpy(argcopy, argv, (size_t)argc * sizeof(argv[0]));
    argcopy[argc] = NULL;
    rc = cli_run_parse(argc, argcopy, msg, ro);
    fclose(msg);
    if (rc != CLI_RUN_GO) {
        snprintf(err, n, "%s", text && *text ? text : "refused");
        err[strcspn(err, "\n")] = '\0';
        rc = -1;
    } else if (ro->check || ro->explore || ro->json) {
        snprintf(err, n, "not a plain run");
        rc = -1;
    } else {
        rc = sim_cfg_validate(&ro->cfg, err, n) == 0 ? 0 : -1;
    }
    free(text);
    free(ro);
    return rc;
}

int cli_draw(uint64_t seed, const char *profiles, unsigned hw_pool, struct cli_draw *d,
             FILE *log, char *err, size_t n)
{
    char names[32][64];
    size_t nprof = list_profiles(profiles, names, 32);
    struct sim_cfg *pool = NULL;
    char why[512];
    int rc = -1;

    if (hw_pool > CLI_DRAW_HW_MAX) {
        snprintf(err, n, "--hw %u: at most %u combinations", hw_pool, CLI_DRAW_HW_MAX);
        return -1;
    }
    if (hw_pool && (pool = malloc(hw_pool * sizeof(*pool))) == NULL) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    for (unsigned j = 0; j < hw_pool; j++)
        if (draw_hw(j, &pool[j]) != 0) {
            snprintf(err, n, "hardware combination %u: none legal in %u tries", j, DRAW_HW_TRIES);
            free(pool);
            return -1;
        }
    for (unsigned a = 0; a < CLI_DRAW_ATTEMPTS && rc != 0; a++) {
        struct draw_rng r = {seed * 0x2545f4914f6cdd1dULL + a};
        (void)rng_next(&r);
        d->attempts = a + 1;
        if (draw_once(&r, (const char(*)[64])names, nprof, pool, hw_pool, d) != 0)
            snprintf(why, sizeof(why), "the list is too long");
        else if ((rc = cli_draw_check(d->argc, d->argv, why, sizeof(why))) == 0)
            break;
        if (log)
            fprintf(log, "nictx draw: seed %" PRIu64 " attempt %u refused: %s\n", seed, a + 1,
                    why);
    }
    free(pool);
    if (rc != 0)
        snprintf(err, n, "seed %" PRIu64 ": no legal draw in %u attempts", seed,
                 CLI_DRAW_ATTEMPTS);
    return rc;
}

/* ------------------------------------------------------------ nictx draw */

static void draw_usage(FILE *f)
{
    fprintf(f,
            "usage: nictx draw [--seed N] [--count K] [--hw K] [--profiles DIR] [--verbose]\n"
            "                  [--rules]\n"
            "Print, for seeds N..N+K-1 (default 1, 1), one line each: the `nictx run`\n"
            "argument list of a legal random configuration, from the word run on (so\n"
            "`nictx $(nictx draw --seed N)` runs it).  Every setting of the\n"
            "table is drawn from its range or choices, or left at its default, always with\n"
            "--device lockstep; a draw --check would refuse is drawn again.  The same seed\n"
            "gives the same line.  make regress runs them (docs/testing.md).\n"
            "  --hw K          one draw in four runs hardware other than the prebuilt\n"
            "                  models': one of K combinations (the same K for every seed,\n"
            "                  so a regression builds at most K models; 0..%u, default 0)\n"
            "  --profiles DIR  the profiles to draw from (default: profiles)\n"
            "  --verbose       say each refused draw on stderr\n"
            "  --rules         list the settings drawn otherwise than from the table, and why\n",
            CLI_DRAW_HW_MAX);
}

static void draw_rules(FILE *f)
{
    size_t rows;
    const struct sim_setting *table = sim_settings(&rows);
    char label[64];
    int skipped;

    for (size_t i = 0; i < rows; i++) {
        const char *why;
        if (!cli_draw_settable(&table[i]) || (why = cli_draw_rule_why(&table[i], &skipped)) == NULL)
            continue;
        fprintf(f, "%-22s %s: %s\n", sim_setting_label(&table[i], label, sizeof(label)),
                skipped ? "not drawn" : "drawn", why);
    }
}

int cli_draw_main(int argc, char **argv)
{
    uint64_t seed = 1, count = 1, hw = 0;
    const char *profiles = "profiles";
    int verbose = 0;
    struct cli_draw *d;
    char err[512];

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int val = i + 1 < argc;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            draw_usage(stdout);
            return 0;
        } else if (strcmp(a, "--rules") == 0) {
            draw_rules(stdout);
            return 0;
        } else if (strcmp(a, "--verbose") == 0) {
            verbose = 1;
        } else if (strcmp(a, "--seed") == 0 && val) {
            if (num_u64(argv[++i], UINT64_MAX, NUM_STRICT, &seed) != NUM_OK) {
                fprintf(stderr, "nictx draw: --seed %s: expected a decimal integer\n", argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--count") == 0 && val) {
            if (num_u64(argv[++i], UINT64_MAX, NUM_STRICT, &count) != NUM_OK || count < 1 ||
                count > 1000000) {
                fprintf(stderr, "nictx draw: --count %s: expected 1..1000000\n", argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--hw") == 0 && val) {
            if (num_u64(argv[++i], CLI_DRAW_HW_MAX, NUM_STRICT, &hw) != NUM_OK) {
                fprintf(stderr, "nictx draw: --hw %s: expected 0..%u\n", argv[i],
                        CLI_DRAW_HW_MAX);
                return 2;
            }
        } else if (strcmp(a, "--profiles") == 0 && val) {
            profiles = argv[++i];
        } else {
            fprintf(stderr, "nictx draw: unknown or incomplete argument '%s' (nictx draw --help)\n",
                    a);
            return 2;
        }
    }
    d = malloc(sizeof(*d));
    if (!d) {
        fprintf(stderr, "nictx draw: out of memory\n");
        return 1;
    }
    for (uint64_t k = 0; k < count; k++) {
        if (cli_draw(seed + k, profiles, (unsigned)hw, d, verbose ? stderr : NULL, err,
                     sizeof(err)) != 0) {
            fprintf(stderr, "nictx draw: %s\n", err);
            free(d);
            return 1;
        }
        for (int j = 0; j < d->argc; j++)
            printf("%s%s", j ? " " : "", d->argv[j]);
        printf("\n");
    }
    free(d);
    return 0;
}
