/* SPDX-License-Identifier: Apache-2.0 */
/*
 * set_types.c - the value types of the settings table, and the names of
 * the enumerated choices (see set_types.h).
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "run/set_types.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/bug_catalog.h"
#include "obs/obs_file.h"
#include "obs/obs_pcap.h"

#define NNAMES(a) (sizeof(a) / sizeof((a)[0]))
#define FIELD_OF(s, c) ((char *)(c) + (s)->off)
#define CFIELD_OF(s, c) ((const char *)(c) + (s)->off)

/* ------------------------------------------------------------ enum names */

static const char *const proto_names[] = {"tail", "owner", "wc"};
static const char *const barrier_names[] = {"per-desc", "per-batch", "wmb-per-desc", "none"};
static const char *const ordering_names[] = {"x86", "weak"};
static const char *const layout_names[] = {"split", "packed"};
static const char *const dql_names[] = {"write-first", "read-first"};
static const char *const source_names[] = {"pktgen", "qdisc"};
static const char *const napi_names[] = {"poll", "irq"};
static const char *const desc_wb_names[] = {"word", "full"};
static const char *const qdisc_root_names[] = {"per-queue", "shared"};
static const char *const sched_names[] = {"rr", "drr"};
static const char *const device_names[] = {"rtl", "c", "lockstep"}; /* enum dev_backend */
/* In enum txq_clean_mode's order. */
static const char *const completion_names[] = {"head-wb", "mmio", "desc-wb", "cq"};
_Static_assert(NNAMES(completion_names) == TXQ_CLEAN_COUNT, "a name for each completion mode");
/* --clean, the old spelling of the first two completion modes. */
static const char *const clean_names[] = {"wb", "mmio"};
static const char *const onoff_names[] = {"off", "on"};

static int name_find(const char *const *names, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return (int)i;
    return -1;
}

static const char *name_of(const char *const *names, size_t n, unsigned v)
{
    return v < n ? names[v] : "invalid";
}

/* The name of each value, and the parser back: one table per enum. */
#define SIM_NAMES(type, table, namefn, parsefn)                                       \
    const char *namefn(type v) { return name_of(table, NNAMES(table), (unsigned)v); } \
    int parsefn(const char *s, type *out)                                             \
    {                                                                                 \
        int i = name_find(table, NNAMES(table), s);                                   \
        if (i < 0)                                                                    \
            return -1;                                                                \
        *out = (type)i;                                                               \
        return 0;                                                                     \
    }

SIM_NAMES(enum txq_proto, proto_names, sim_proto_name, sim_parse_proto)
SIM_NAMES(enum txq_barrier, barrier_names, sim_barrier_name, sim_parse_barrier)
SIM_NAMES(enum stbuf_order, ordering_names, sim_ordering_name, sim_parse_ordering)
SIM_NAMES(enum sim_layout, layout_names, sim_layout_name, sim_parse_layout)
SIM_NAMES(enum dql_order, dql_names, sim_dql_name, sim_parse_dql)
SIM_NAMES(enum sim_source, source_names, sim_source_name, sim_parse_source)
SIM_NAMES(enum sim_napi, napi_names, sim_napi_name, sim_parse_napi)
SIM_NAMES(enum sim_qdisc_root, qdisc_root_names, sim_qdisc_root_name, sim_parse_qdisc_root)
SIM_NAMES(enum txq_clean_mode, completion_names, sim_completion_name, sim_parse_completion)
SIM_NAMES(enum sim_sched, sched_names, sim_sched_name, sim_parse_sched)
SIM_NAMES(enum dev_backend, device_names, sim_device_name, sim_parse_device)

/* One strict decimal integer (digits, no leading zero) of at most 9 digits. */
static int weight_parse_one(const char *s, size_t len, unsigned *v)
{
    if (len == 0 || len > 9 || strspn(s, "0123456789") < len || (s[0] == '0' && len > 1))
        return -1;
    *v = 0;
    for (size_t i = 0; i < len; i++)
        *v = *v * 10 + (unsigned)(s[i] - '0');
    return 0;
}

int sim_parse_weights(const char *s, struct sim_weights *out)
{
    struct sim_weights w = {0};

    for (;;) {
        size_t len = strcspn(s, ",");
        if (w.n == SIM_QUEUES_MAX || weight_parse_one(s, len, &w.v[w.n]) != 0)
            return -1;
        w.n++;
        if (s[len] == '\0')
            break;
        s += len + 1;
    }
    *out = w;
    return 0;
}

/* ------------------------------------------------------------ shared parts */

void set_choices(const struct set_type *t, const char *sep, const char *last, char *buf,
                 size_t n)
{
    size_t len = 0;
    const char *name, *next;

    buf[0] = '\0';
    for (unsigned i = 0; (name = t->choice(t, i)) != NULL && len < n; i++) {
        next = t->choice(t, i + 1);
        len += (size_t)snprintf(buf + len, n - len, "%s%s", name,
                                next == NULL ? "" : t->choice(t, i + 2) ? sep : last);
    }
}

/* "expected " and the type's form, as a reason. */
static int expected(const struct set_type *t, char *why, size_t n)
{
    char list[160];

    if (t->expect != NULL) {
        snprintf(why, n, "expected %s", t->expect);
    } else {
        set_choices(t, ", ", " or ", list, sizeof(list));
        snprintf(why, n, "expected %s", list);
    }
    return SET_BAD_VALUE;
}

int set_range_has(const struct set_range *r, double v)
{
    int span = v >= r->lo && v <= r->hi;

    switch (r->kind) {
    case SET_RANGE_NONE: return 1;
    case SET_RANGE_SPAN: return span;
    case SET_RANGE_OR_0: return v == 0 || span;
    case SET_RANGE_POW2:
        return span && v == floor(v) && ((uint64_t)v & ((uint64_t)v - 1)) == 0;
    }
    return 0;
}

double set_value(const struct set_type *t, const struct sim_setting *s, const struct sim_cfg *c)
{
    const char *f = CFIELD_OF(s, c);

    switch (t->num) {
    case SET_NUM_UINT: return *(const unsigned *)f;
    case SET_NUM_U64: return (double)*(const uint64_t *)f;
    case SET_NUM_REAL: return *(const double *)f;
    case SET_NUM_NONE: break;
    }
    return NAN;
}

static int num_in_range(const struct set_type *t, const struct sim_setting *s,
                        const struct sim_cfg *c)
{
    return set_range_has(&s->range, set_value(t, s, c));
}

/* ------------------------------------------------------------ numbers */

/* A number of the type's C type (t->num) into the field. */
static int num_parse(const struct set_type *t, const struct sim_setting *s, struct sim_cfg *c,
                     const char *v, enum num_rules rules, char *why, size_t n)
{
    char *f = FIELD_OF(s, c), buf[64];
    enum num_err e = NUM_SYNTAX;
    uint64_t max = 0; /* for num_why: 0 for a real */

    switch (t->num) {
    case SET_NUM_UINT: e = num_uint(v, rules, (unsigned *)f), max = UINT_MAX; break;
    case SET_NUM_U64: e = num_u64(v, UINT64_MAX, rules, (uint64_t *)f), max = UINT64_MAX; break;
    case SET_NUM_REAL: e = num_real(v, rules, (double *)f); break;
    case SET_NUM_NONE: break;
    }
    if (e == NUM_OK)
        return 0;
    snprintf(why, n, "%s", num_why(e, max, buf, sizeof(buf)));
    return SET_BAD_VALUE;
}

/* v as %g when that reads back as v, else with every digit it needs
 * (1000001, not 1e+06: a refusal names the value refused). */
static void real_format(double v, const char *suffix, char *buf, size_t n)
{
    snprintf(buf, n, "%g%s", v, suffix);
    if (strtod(buf, NULL) != v)
        snprintf(buf, n, "%.17g%s", v, suffix);
}

static void num_format(const struct set_type *t, const struct sim_setting *s,
                       const struct sim_cfg *c, char *buf, size_t n)
{
    if (t->num == SET_NUM_REAL)
        real_format(*(const double *)CFIELD_OF(s, c), "", buf, n);
    else if (t->num == SET_NUM_U64)
        snprintf(buf, n, "%" PRIu64, *(const uint64_t *)CFIELD_OF(s, c));
    else
        snprintf(buf, n, "%u", *(const unsigned *)CFIELD_OF(s, c));
}

static void num_json(const struct set_type *t, const struct sim_setting *s,
                     const struct sim_cfg *c, struct json *j, const char *key)
{
    if (t->num == SET_NUM_REAL)
        json_num(j, key, *(const double *)CFIELD_OF(s, c));
    else if (t->num == SET_NUM_U64) /* exact: not through a double */
        json_u64(j, key, *(const uint64_t *)CFIELD_OF(s, c));
    else
        json_u64(j, key, *(const unsigned *)CFIELD_OF(s, c));
}

#define SET_NUMBER(kind, name_, expect_)                                       \
    {.name = name_, .expect = expect_, .num = kind, .parse = num_parse,        \
     .format = num_format, .json = num_json, .in_range = num_in_range}

const struct set_type set_unsigned =
    SET_NUMBER(SET_NUM_UINT, "unsigned", "a decimal integer 0..4294967295");
const struct set_type set_u64 =
    SET_NUMBER(SET_NUM_U64, "unsigned 64-bit", "a decimal integer 0..18446744073709551615");
const struct set_type set_number =
    SET_NUMBER(SET_NUM_REAL, "number", "a decimal number >= 0 (e.g. 60 or 2.5)");

/* A timeout in us, or "auto" (SIM_TIMEOUT_AUTO): derived from the rest of
 * the configuration (sim_cfg_timeouts). */
static int timeout_parse(const struct set_type *t, const struct sim_setting *s,
                         struct sim_cfg *c, const char *v, enum num_rules rules, char *why,
                         size_t n)
{
    if (strcmp(v, "auto") == 0) {
        *(double *)FIELD_OF(s, c) = SIM_TIMEOUT_AUTO;
        return 0;
    }
    return num_parse(t, s, c, v, rules, why, n);
}

static void timeout_format(const struct set_type *t, const struct sim_setting *s,
                           const struct sim_cfg *c, char *buf, size_t n)
{
    if (*(const double *)CFIELD_OF(s, c) == SIM_TIMEOUT_AUTO)
        snprintf(buf, n, "auto");
    else
        num_format(t, s, c, buf, n);
}

static int timeout_in_range(const struct set_type *t, const struct sim_setting *s,
                            const struct sim_cfg *c)
{
    return *(const double *)CFIELD_OF(s, c) == SIM_TIMEOUT_AUTO || num_in_range(t, s, c);
}

const struct set_type set_timeout = {
    .name = "number or auto", .expect = "auto, or a decimal number >= 0 (e.g. 500 or 2.5)",
    .num = SET_NUM_REAL, .parse = timeout_parse, .format = timeout_format, .json = num_json,
    .in_range = timeout_in_range, .auto_ok = 1};

/* --line: Gb/s written with a g ("10g", "2.5G"). */
static int rate_parse(const struct set_type *t, const struct sim_setting *s, struct sim_cfg *c,
                      const char *v, enum num_rules rules, char *why, size_t n)
{
    size_t len = strlen(v);
    char buf[32];

    if (len < 2 || len >= sizeof(buf) || (v[len - 1] != 'g' && v[len - 1] != 'G'))
        return expected(t, why, n);
    memcpy(buf, v, len - 1);
    buf[len - 1] = '\0';
    if (num_real(buf, rules, (double *)FIELD_OF(s, c)) != NUM_OK)
        return expected(t, why, n);
    return 0;
}

static void rate_format(const struct set_type *t, const struct sim_setting *s,
                        const struct sim_cfg *c, char *buf, size_t n)
{
    (void)t;
    real_format(*(const double *)CFIELD_OF(s, c), "g", buf, n);
}

const struct set_type set_rate = {
    .name = "<Gb/s>g", .expect = "decimal Gb/s and g, e.g. 10g, 25g, 40g, 100g",
    .num = SET_NUM_REAL, .parse = rate_parse, .format = rate_format, .json = num_json,
    .in_range = num_in_range};

/* --fc-update-ns: one UpdateFC latency for both directions' credits. */
static int fc_update_parse(const struct set_type *t, const struct sim_setting *s,
                           struct sim_cfg *c, const char *v, enum num_rules rules, char *why,
                           size_t n)
{
    int rc = num_parse(t, s, c, v, rules, why, n);

    c->fc_host.update_latency_ns = c->fc_dev.update_latency_ns;
    return rc;
}

const struct set_type set_fc_update = {
    .name = "number", .expect = "a decimal number >= 0 (e.g. 60 or 2.5)", .num = SET_NUM_REAL,
    .parse = fc_update_parse, .format = num_format, .json = num_json, .in_range = num_in_range};

/* ------------------------------------------------------------ flags, enums */

static int flag_parse(const struct set_type *t, const struct sim_setting *s, struct sim_cfg *c,
                      const char *v, enum num_rules rules, char *why, size_t n)
{
    (void)t, (void)v, (void)rules, (void)why, (void)n;
    *(int *)FIELD_OF(s, c) = 1;
    return 0;
}

static void flag_format(const struct set_type *t, const struct sim_setting *s,
                        const struct sim_cfg *c, char *buf, size_t n)
{
    (void)t;
    snprintf(buf, n, "%s", *(const int *)CFIELD_OF(s, c) ? "on" : "off");
}

static void bool_json(const struct set_type *t, const struct sim_setting *s,
                      const struct sim_cfg *c, struct json *j, const char *key)
{
    (void)t;
    json_bool(j, key, *(const int *)CFIELD_OF(s, c));
}

const struct set_type set_flag = {
    .name = "flag", .parse = flag_parse, .format = flag_format, .json = bool_json, .flag = 1};

static const char *names_choice(const struct set_type *t, unsigned i)
{
    return i < t->nnames ? t->names[i] : NULL;
}

/* Enum fields are unsigned ints (settings.c checks each one's size). */
static int enum_parse(const struct set_type *t, const struct sim_setting *s, struct sim_cfg *c,
                      const char *v, enum num_rules rules, char *why, size_t n)
{
    int i = name_find(t->names, t->nnames, v);

    (void)rules;
    if (i < 0)
        return expected(t, why, n);
    *(unsigned *)FIELD_OF(s, c) = (unsigned)i;
    return 0;
}

static void enum_format(const struct set_type *t, const struct sim_setting *s,
                        const struct sim_cfg *c, char *buf, size_t n)
{
    snprintf(buf, n, "%s", name_of(t->names, t->nnames, *(const unsigned *)CFIELD_OF(s, c)));
}

/* The value as text (enums, the driver bug, the fault plan). */
static void text_json(const struct set_type *t, const struct sim_setting *s,
                      const struct sim_cfg *c, struct json *j, const char *key)
{
    char buf[256];

    t->format(t, s, c, buf, sizeof(buf));
    json_str(j, key, buf);
}

static int enum_in_range(const struct set_type *t, const struct sim_setting *s,
                         const struct sim_cfg *c)
{
    return *(const unsigned *)CFIELD_OF(s, c) < t->nnames;
}

#define SET_ENUM(table)                                                             \
    {.names = table, .nnames = NNAMES(table), .choice = names_choice,               \
     .parse = enum_parse, .format = enum_format, .json = text_json,                 \
     .in_range = enum_in_range}

const struct set_type set_proto = SET_ENUM(proto_names);
const struct set_type set_barrier = SET_ENUM(barrier_names);
const struct set_type set_ordering = SET_ENUM(ordering_names);
const struct set_type set_layout = SET_ENUM(layout_names);
const struct set_type set_dql = SET_ENUM(dql_names);
const struct set_type set_source = SET_ENUM(source_names);
const struct set_type set_napi = SET_ENUM(napi_names);
const struct set_type set_desc_wb = SET_ENUM(desc_wb_names);
const struct set_type set_qdisc_root = SET_ENUM(qdisc_root_names);
const struct set_type set_completion = SET_ENUM(completion_names);
const struct set_type set_sched = SET_ENUM(sched_names);
const struct set_type set_device = SET_ENUM(device_names);

/* on|off into an int flag; JSON true/false. */
const struct set_type set_onoff = {
    .names = onoff_names, .nnames = NNAMES(onoff_names), .choice = names_choice,
    .parse = enum_parse, .format = enum_format, .json = bool_json, .in_range = enum_in_range};

/* --clean wb|mmio: the completion field; it prints the modes it cannot
 * spell by their --completion names. */
static void clean_format(const struct set_type *t, const struct sim_setting *s,
                         const struct sim_cfg *c, char *buf, size_t n)
{
    unsigned v = *(const unsigned *)CFIELD_OF(s, c);

    snprintf(buf, n, "%s", v < t->nnames ? t->names[v] : sim_completion_name(v));
}

const struct set_type set_clean = {
    .names = clean_names, .nnames = NNAMES(clean_names), .choice = names_choice,
    .parse = enum_parse, .format = clean_format, .json = text_json};

/* ------------------------------------------------------------ the others */

static int link_parse(const struct set_type *t, const struct sim_setting *s, struct sim_cfg *c,
                      const char *v, enum num_rules rules, char *why, size_t n)
{
    (void)rules;
    return pcie_cfg_parse_link((struct pcie_cfg *)FIELD_OF(s, c), v) ? expected(t, why, n) : 0;
}

static void link_format(const struct set_type *t, const struct sim_setting *s,
                        const struct sim_cfg *c, char *buf, size_t n)
{
    const struct pcie_cfg *p = (const struct pcie_cfg *)CFIELD_OF(s, c);

    (void)t;
    snprintf(buf, n, "gen%ux%u", p->gen, p->lanes);
}

/* The link in JSON: its generation and lanes, two members. */
static void link_json(const struct set_type *t, const struct sim_setting *s,
                      const struct sim_cfg *c, struct json *j, const char *key)
{
    const struct pcie_cfg *p = (const struct pcie_cfg *)CFIELD_OF(s, c);

    (void)t, (void)key;
    json_u64(j, "gen", p->gen);
    json_u64(j, "lanes", p->lanes);
}

const struct set_type set_link = {
    .name = "genGxW", .expect = "genGxW, G 1..5, W 1/2/4/8/16 (e.g. gen3x8)",
    .parse = link_parse, .format = link_format, .json = link_json};

static int weights_parse(const struct set_type *t, const struct sim_setting *s,
                         struct sim_cfg *c, const char *v, enum num_rules rules, char *why,
                         size_t n)
{
    (void)rules;
    return sim_parse_weights(v, (struct sim_weights *)FIELD_OF(s, c)) ? expected(t, why, n) : 0;
}

/* "1,2,3"; none given: "1" (every queue's). */
static void weights_format(const struct set_type *t, const struct sim_setting *s,
                           const struct sim_cfg *c, char *buf, size_t n)
{
    const struct sim_weights *w = (const struct sim_weights *)CFIELD_OF(s, c);
    size_t len = 0;

    (void)t;
    snprintf(buf, n, "1");
    for (unsigned i = 0; i < w->n && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s%u", i ? "," : "", w->v[i]);
}

/* A per-queue value as the run uses it, an array of --queues. */
static void per_queue_json(const struct sim_cfg *c, struct json *j, const char *key,
                           unsigned (*value)(const struct sim_cfg *, unsigned))
{
    json_arr_begin(j, key);
    for (unsigned q = 0; q < c->queues; q++)
        json_u64(j, NULL, value(c, q));
    json_arr_end(j);
}

/* Each queue's weight. */
static void weights_json(const struct set_type *t, const struct sim_setting *s,
                         const struct sim_cfg *c, struct json *j, const char *key)
{
    (void)t, (void)s;
    per_queue_json(c, j, key, sim_cfg_weight);
}

static int weights_in_range(const struct set_type *t, const struct sim_setting *s,
                            const struct sim_cfg *c)
{
    const struct sim_weights *w = (const struct sim_weights *)CFIELD_OF(s, c);

    (void)t;
    for (unsigned i = 0; i < w->n; i++)
        if (!set_range_has(&s->range, w->v[i]))
            return 0;
    return 1;
}

const struct set_type set_weights = {
    .name = "W[,W...]", .expect = "W[,W...]: 1 to 64 decimal weights (e.g. 1,2,3,4)",
    .parse = weights_parse, .format = weights_format, .json = weights_json,
    .in_range = weights_in_range};

/* --xps: "auto" (n 0: the kernel's queue per CPU), or CPUs in the weights'
 * list shape. */
static int xps_parse(const struct set_type *t, const struct sim_setting *s, struct sim_cfg *c,
                     const char *v, enum num_rules rules, char *why, size_t n)
{
    struct sim_weights *w = (struct sim_weights *)FIELD_OF(s, c);

    if (strcmp(v, "auto") == 0) {
        w->n = 0;
        return 0;
    }
    return weights_parse(t, s, c, v, rules, why, n);
}

static void xps_format(const struct set_type *t, const struct sim_setting *s,
                       const struct sim_cfg *c, char *buf, size_t n)
{
    if (((const struct sim_weights *)CFIELD_OF(s, c))->n == 0)
        snprintf(buf, n, "auto");
    else
        weights_format(t, s, c, buf, n);
}

/* Each queue's CPU. */
static void xps_json(const struct set_type *t, const struct sim_setting *s,
                     const struct sim_cfg *c, struct json *j, const char *key)
{
    (void)t, (void)s;
    per_queue_json(c, j, key, sim_cfg_queue_cpu);
}

const struct set_type set_xps = {
    .name = "auto|C[,C...]",
    .expect = "auto, or 1 to 64 decimal CPU numbers, one for all queues or one per queue "
              "(e.g. 0,0,1,1)",
    .parse = xps_parse, .format = xps_format, .json = xps_json, .in_range = weights_in_range};

/* The credit types of a flow-control list, in struct pcie_fc_cfg. */
static const struct {
    const char *name;
    size_t off;
} fc_types[] = {
    {"ph", offsetof(struct pcie_fc_cfg, ph)},     {"pd", offsetof(struct pcie_fc_cfg, pd)},
    {"nph", offsetof(struct pcie_fc_cfg, nph)},   {"npd", offsetof(struct pcie_fc_cfg, npd)},
    {"cplh", offsetof(struct pcie_fc_cfg, cplh)}, {"cpld", offsetof(struct pcie_fc_cfg, cpld)},
};

/* "ph=1,pd=32": set the named credit types; others stay as they are. */
static int fc_parse(const struct set_type *t, const struct sim_setting *s, struct sim_cfg *c,
                    const char *v, enum num_rules rules, char *why, size_t n)
{
    char buf[128], *tok, *save = NULL;

    if (strlen(v) >= sizeof(buf))
        return expected(t, why, n);
    strcpy(buf, v);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        size_t k;
        if (!eq)
            return expected(t, why, n);
        *eq = '\0';
        for (k = 0; k < NNAMES(fc_types) && strcmp(tok, fc_types[k].name) != 0; k++)
            ;
        if (k == NNAMES(fc_types) ||
            num_uint(eq + 1, rules, (unsigned *)(FIELD_OF(s, c) + fc_types[k].off)) != NUM_OK)
            return expected(t, why, n);
    }
    return 0;
}

/* The finite credits ("ph=1,pd=32"), or "infinite". */
static void fc_format(const struct set_type *t, const struct sim_setting *s,
                      const struct sim_cfg *c, char *buf, size_t n)
{
    size_t len = 0;

    (void)t;
    snprintf(buf, n, "infinite");
    for (size_t k = 0; k < NNAMES(fc_types) && len < n; k++) {
        unsigned v = *(const unsigned *)(CFIELD_OF(s, c) + fc_types[k].off);
        if (v)
            len += (size_t)snprintf(buf + len, n - len, "%s%s=%u", len ? "," : "",
                                    fc_types[k].name, v);
    }
}

static void fc_json(const struct set_type *t, const struct sim_setting *s,
                    const struct sim_cfg *c, struct json *j, const char *key)
{
    const struct pcie_fc_cfg *fc = (const struct pcie_fc_cfg *)CFIELD_OF(s, c);

    (void)t;
    json_obj_begin(j, key);
    for (size_t k = 0; k < NNAMES(fc_types); k++)
        json_u64(j, fc_types[k].name, *(const unsigned *)(CFIELD_OF(s, c) + fc_types[k].off));
    json_num(j, "update_latency_ns", fc->update_latency_ns);
    json_obj_end(j);
}

const struct set_type set_fc = {
    .name = "TYPE=N,...", .expect = "TYPE=N,... with TYPE in ph pd nph npd cplh cpld, N decimal",
    .parse = fc_parse, .format = fc_format, .json = fc_json};

/* --buf-align frag|skb|packed|N: where pktgen's buffers lie (buf_place.h). */
static const char *const place_names[] = {
    [BUF_PLACE_PACKED] = "packed", [BUF_PLACE_FRAG] = "frag", [BUF_PLACE_SKB] = "skb"};

static int place_parse(const struct set_type *t, const struct sim_setting *s, struct sim_cfg *c,
                       const char *v, enum num_rules rules, char *why, size_t n)
{
    struct sim_buf_place *p = (struct sim_buf_place *)FIELD_OF(s, c);
    unsigned a;

    for (unsigned k = 0; k < NNAMES(place_names); k++)
        if (place_names[k] && strcmp(v, place_names[k]) == 0) {
            p->mode = (enum buf_place_mode)k;
            p->align = 0;
            return 0;
        }
    if (num_uint(v, rules, &a) != NUM_OK || a < BUF_PLACE_ALIGN_MIN || a > BUF_PLACE_ALIGN_MAX ||
        (a & (a - 1)) != 0)
        return expected(t, why, n);
    p->mode = BUF_PLACE_ALIGN;
    p->align = a;
    return 0;
}

static void place_format(const struct set_type *t, const struct sim_setting *s,
                         const struct sim_cfg *c, char *buf, size_t n)
{
    const struct sim_buf_place *p = (const struct sim_buf_place *)CFIELD_OF(s, c);

    (void)t;
    if (p->mode == BUF_PLACE_ALIGN)
        snprintf(buf, n, "%u", p->align);
    else
        snprintf(buf, n, "%s", place_names[p->mode]);
}

static void place_json(const struct set_type *t, const struct sim_setting *s,
                       const struct sim_cfg *c, struct json *j, const char *key)
{
    char buf[32];

    place_format(t, s, c, buf, sizeof buf);
    json_str(j, key, buf);
}

const struct set_type set_buf_place = {
    .name = "frag|skb|packed|N",
    .expect = "frag, skb, packed or a power of two 64..65536",
    .parse = place_parse, .format = place_format, .json = place_json};

/* --cpu NAME: the cost table (every cpu.* key) and its name. */
static const char *cpu_choice(const struct set_type *t, unsigned i)
{
    (void)t;
    return cpu_costs_profile_name(i);
}

static int cpu_parse(const struct set_type *t, const struct sim_setting *s, struct sim_cfg *c,
                     const char *v, enum num_rules rules, char *why, size_t n)
{
    (void)s, (void)rules;
    if (cpu_costs_profile(&c->costs, v) != 0)
        return expected(t, why, n);
    snprintf(c->cpu_profile, sizeof(c->cpu_profile), "%s", v);
    return 0;
}

static void string_format(const struct set_type *t, const struct sim_setting *s,
                          const struct sim_cfg *c, char *buf, size_t n)
{
    (void)t;
    snprintf(buf, n, "%s", CFIELD_OF(s, c));
}

static void string_json(const struct set_type *t, const struct sim_setting *s,
                        const struct sim_cfg *c, struct json *j, const char *key)
{
    (void)t;
    json_str(j, key, CFIELD_OF(s, c));
}

const struct set_type set_cpu = {
    .choice = cpu_choice, .parse = cpu_parse, .format = string_format, .json = string_json};

/* A text field, set by other means (the profile's name). */
const struct set_type set_string = {.name = "text", .format = string_format, .json = string_json};

/* An output file (--wave, --timeline, --pcap-out): a name its directory
 * can take a new file under (checked as it is parsed: a bad path is a bad
 * argument, not a failed run). */
static int path_parse(const struct set_type *t, const struct sim_setting *s, struct sim_cfg *c,
                      const char *v, enum num_rules rules, char *why, size_t n)
{
    (void)t, (void)rules;
    if (obs_file_writable(v, why, n) != 0)
        return SET_BAD_VALUE;
    snprintf(FIELD_OF(s, c), OBS_PATH_MAX, "%s", v);
    return 0;
}

const struct set_type set_path = {
    .name = "FILE", .expect = "a file name", .parse = path_parse, .format = string_format,
    .json = string_json};

/* --pcap-in FILE: a capture libpcap reads, of Ethernet frames the device
 * can send (loaded as it is parsed, to say what is wrong with it). */
static int pcap_in_parse(const struct set_type *t, const struct sim_setting *s,
                         struct sim_cfg *c, const char *v, enum num_rules rules, char *why,
                         size_t n)
{
    (void)t, (void)rules;
    if (strlen(v) >= OBS_PATH_MAX) {
        snprintf(why, n, "longer than %u bytes", OBS_PATH_MAX - 1);
        return SET_BAD_VALUE;
    }
    if (obs_capture_check(v, why, n) != 0)
        return SET_BAD_VALUE;
    snprintf(FIELD_OF(s, c), OBS_PATH_MAX, "%s", v);
    return 0;
}

const struct set_type set_pcap_in = {
    .name = "FILE", .expect = "a pcap or pcapng file", .parse = pcap_in_parse,
    .format = string_format, .json = string_json};

/* --wave-from, --wave-to: a time (12.5us) or a packet number (100). */
static int point_parse(const struct set_type *t, const struct sim_setting *s, struct sim_cfg *c,
                       const char *v, enum num_rules rules, char *why, size_t n)
{
    (void)t, (void)rules;
    return obs_point_parse(v, (struct obs_point *)FIELD_OF(s, c), why, n) ? SET_BAD_VALUE : 0;
}

static void point_format(const struct set_type *t, const struct sim_setting *s,
                         const struct sim_cfg *c, char *buf, size_t n)
{
    (void)t;
    obs_point_format((const struct obs_point *)CFIELD_OF(s, c), buf, n);
}

const struct set_type set_point = {
    .name = "TIME|PACKET", .expect = "a time (12.5us, 800ns, 2ms) or a packet number (100)",
    .parse = point_parse, .format = point_format, .json = text_json};

/* --driver-bug NAME: an entry of the catalogue (sim/check/bug_catalog.h). */
static int bug_parse(const struct set_type *t, const struct sim_setting *s, struct sim_cfg *c,
                     const char *v, enum num_rules rules, char *why, size_t n)
{
    const struct bug_entry *e = bug_find(v);

    (void)t, (void)rules;
    if (!e) {
        snprintf(why, n, "unknown driver bug (--driver-bug list)");
        return SET_BAD_VALUE;
    }
    *(enum drv_bug *)FIELD_OF(s, c) = e->bug;
    return 0;
}

static void bug_format(const struct set_type *t, const struct sim_setting *s,
                       const struct sim_cfg *c, char *buf, size_t n)
{
    enum drv_bug b = *(const enum drv_bug *)CFIELD_OF(s, c);
    const struct bug_entry *e;
    size_t i, nb;

    (void)t;
    snprintf(buf, n, "none");
    for (e = bug_catalog(&nb), i = 0; i < nb; i++)
        if (e[i].bug == b)
            snprintf(buf, n, "%s", e[i].name);
}

static int bug_in_range(const struct set_type *t, const struct sim_setting *s,
                        const struct sim_cfg *c)
{
    (void)t;
    return *(const enum drv_bug *)CFIELD_OF(s, c) < DRV_BUG_COUNT;
}

const struct set_type set_bug = {
    .name = "NAME (--driver-bug list)", .expect = "a driver bug's name (--driver-bug list)",
    .parse = bug_parse, .format = bug_format, .json = text_json, .in_range = bug_in_range,
    .list = bug_catalog_print};

/* --inject: a fault plan (sim/run/inject.h); its messages name the option. */
static int inject_parse(const struct set_type *t, const struct sim_setting *s,
                        struct sim_cfg *c, const char *v, enum num_rules rules, char *why,
                        size_t n)
{
    (void)t, (void)rules;
    return inj_parse((struct inj_plan *)FIELD_OF(s, c), v, why, n) ? SET_BAD_MSG : 0;
}

static void inject_format(const struct set_type *t, const struct sim_setting *s,
                          const struct sim_cfg *c, char *buf, size_t n)
{
    (void)t;
    inj_format((const struct inj_plan *)CFIELD_OF(s, c), buf, n);
}

const struct set_type set_inject = {
    .name = "KIND@N[,KIND@N...]", .expect = "KIND@N[,KIND@N...] (docs/faults.md)",
    .parse = inject_parse, .format = inject_format, .json = text_json};
