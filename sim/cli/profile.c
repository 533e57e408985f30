/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile.c - run profiles: one const key table drives the INI parser
 * (libinih), --set assignments and the key listing (see profile.h).
 */
#include "cli/profile.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#define NNAMES(a) (sizeof(a) / sizeof((a)[0]))
#define DIGITS "0123456789"
#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"
#define PATH_BYTES 4096
#define MSG_BYTES 256

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

/* ------------------------------------------------------------ value types */

/* Parse s into *field: 0, or -1 (field untouched). */
typedef int (*pk_parse_fn)(const char *s, void *field);
/* Enums: the name of value v; "invalid" past the last one. */
typedef const char *(*pk_choice_fn)(unsigned v);

struct pk_type {
    const char *name;    /* listed type; NULL for an enum (its choices are listed) */
    const char *expect;  /* what a bad value is told to be (not for enums) */
    pk_parse_fn parse;
    pk_choice_fn choice; /* enums only */
};

/*
 * Strict decimal: digits, optionally a fraction, optionally an exponent
 * (fractions and exponents only if `real`).  No sign, no blanks, no hex,
 * no inf or nan, nothing after the number.
 */
static int decimal_ok(const char *s, int real)
{
    size_t mant = strspn(s, DIGITS);
    const char *p = s + mant;

    if (real && *p == '.') {
        size_t frac = strspn(p + 1, DIGITS);
        mant += frac;
        p += 1 + frac;
    }
    if (mant == 0)
        return 0;
    if (real && (*p == 'e' || *p == 'E')) {
        size_t exp;
        p += (p[1] == '+' || p[1] == '-') ? 2 : 1;
        exp = strspn(p, DIGITS);
        if (exp == 0)
            return 0;
        p += exp;
    }
    return *p == '\0';
}

static int parse_number(const char *s, void *field)
{
    double v;

    if (!decimal_ok(s, 1))
        return -1;
    v = strtod(s, NULL);
    if (!isfinite(v))
        return -1;
    *(double *)field = v;
    return 0;
}

static int parse_unsigned(const char *s, void *field)
{
    unsigned long v;

    if (!decimal_ok(s, 0))
        return -1;
    errno = 0;
    v = strtoul(s, NULL, 10);
    if (errno == ERANGE || v > UINT_MAX)
        return -1;
    *(unsigned *)field = (unsigned)v;
    return 0;
}

static int parse_link(const char *s, void *field)
{
    return pcie_cfg_parse_link(field, s);
}

/* An enum whose names sim_cfg.c owns. */
#define PK_SIM_ENUM(tag, etype, namefn, parsefn)                              \
    static const char *tag##_choice(unsigned v) { return namefn((etype)v); } \
    static int tag##_parse(const char *s, void *f) { return parsefn(s, f); }

PK_SIM_ENUM(proto, enum txq_proto, sim_proto_name, sim_parse_proto)
PK_SIM_ENUM(barrier, enum txq_barrier, sim_barrier_name, sim_parse_barrier)
PK_SIM_ENUM(ordering, enum stbuf_order, sim_ordering_name, sim_parse_ordering)

PK_SIM_ENUM(layout, enum sim_layout, sim_layout_name, sim_parse_layout)
PK_SIM_ENUM(dql, enum dql_order, sim_dql_name, sim_parse_dql)
PK_SIM_ENUM(source, enum sim_source, sim_source_name, sim_parse_source)
PK_SIM_ENUM(napi, enum sim_napi, sim_napi_name, sim_parse_napi)
PK_SIM_ENUM(completion, enum txq_clean_mode, sim_completion_name, sim_parse_completion)
PK_SIM_ENUM(sched, enum sim_sched, sim_sched_name, sim_parse_sched)

static int parse_weights(const char *s, void *field)
{
    return sim_parse_weights(s, field);
}

/* on|off into an int flag. */
static const char *onoff_choice(unsigned v)
{
    return v == 0 ? "off" : v == 1 ? "on" : "invalid";
}

static int onoff_parse(const char *s, void *field)
{
    if (strcmp(s, "on") != 0 && strcmp(s, "off") != 0)
        return -1;
    *(int *)field = strcmp(s, "on") == 0;
    return 0;
}

static const struct pk_type pk_number = {
    "number", "a decimal number >= 0 (e.g. 60 or 2.5)", parse_number, NULL};
static const struct pk_type pk_unsigned = {
    "unsigned", "a decimal integer 0..4294967295", parse_unsigned, NULL};
static const struct pk_type pk_link = {
    "genGxW", "genGxW, G 1..5, W 1/2/4/8/16 (e.g. gen3x8)", parse_link, NULL};
static const struct pk_type pk_proto = {NULL, NULL, proto_parse, proto_choice};
static const struct pk_type pk_barrier = {NULL, NULL, barrier_parse, barrier_choice};
static const struct pk_type pk_ordering = {NULL, NULL, ordering_parse, ordering_choice};
static const struct pk_type pk_layout = {NULL, NULL, layout_parse, layout_choice};
static const struct pk_type pk_dql = {NULL, NULL, dql_parse, dql_choice};
static const struct pk_type pk_source = {NULL, NULL, source_parse, source_choice};
static const struct pk_type pk_napi = {NULL, NULL, napi_parse, napi_choice};
static const struct pk_type pk_completion = {NULL, NULL, completion_parse, completion_choice};
static const struct pk_type pk_onoff = {NULL, NULL, onoff_parse, onoff_choice};
static const struct pk_type pk_sched = {NULL, NULL, sched_parse, sched_choice};
static const struct pk_type pk_weights = {
    "W[,W...]", "W[,W...]: 1 to 64 decimal weights (e.g. 1,2,3,4)", parse_weights, NULL};

/* "a|b|c" for an enum, else the type's name. */
static void type_describe(const struct pk_type *t, char *buf, size_t n)
{
    unsigned v;
    size_t len = 0;

    if (t->choice == NULL) {
        snprintf(buf, n, "%s", t->name);
        return;
    }
    buf[0] = '\0';
    for (v = 0; strcmp(t->choice(v), "invalid") != 0 && len < n; v++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s", v ? "|" : "", t->choice(v));
}

/* ------------------------------------------------------------ the keys */

struct pk_key {
    const char *section;
    const char *name;
    const struct pk_type *type;
    size_t offset;       /* of the field in struct sim_cfg */
    const char *meaning;
};

/* offsetof(struct sim_cfg, m); does not compile unless member m has type T. */
#define FIELD(m, T)                                                            \
    (offsetof(struct sim_cfg, m) +                                             \
     0 * sizeof(char[_Generic(((struct sim_cfg *)0)->m, T : 1, default : -1)]))
/* A key: section, name, value type, the member it sets, its meaning. */
#define K_NUM(s, n, m, txt) {s, n, &pk_number, FIELD(m, double), txt}
#define K_UNS(s, n, m, txt) {s, n, &pk_unsigned, FIELD(m, unsigned), txt}
#define K_TYPED(s, n, ty, T, m, txt) {s, n, &ty, FIELD(m, T), txt}
#define K_CPU(f, txt) K_NUM("cpu", #f, costs.f, txt)

static const struct pk_key pk_keys[] = {
    K_CPU(xmit_pkt_ns, "ns, ndo_start_xmit work per packet, excluding the costs below"),
    K_CPU(clean_poll_ns, "ns, one cleanup pass: read head, loop set-up"),
    K_CPU(clean_desc_ns, "ns, per reclaimed descriptor (unmap, free)"),
    K_CPU(store_ns, "ns, one 8-byte store to DMA-coherent memory"),
    K_CPU(load_ns, "ns, one load of a DMA-coherent word (head writeback)"),
    K_CPU(dma_wmb_ns, "ns, dma_wmb() issue cost (x86: compiler barrier)"),
    K_CPU(wmb_ns, "ns, wmb() issue cost (x86: sfence)"),
    K_CPU(smp_mb_ns, "ns, smp_mb() issue cost (x86: lock addl)"),
    K_CPU(mmio_write_ns, "ns, issue cost of an uncached posted MMIO write"),
    K_CPU(mmio_read_ns, "ns, issue cost of an uncached MMIO read, before its stall"),
    K_CPU(wc_store_ns, "ns, one 8-byte store through a write-combining mapping"),
    K_CPU(drain_hit_ns, "ns, a store to a line the CPU holds becomes visible"),
    K_CPU(drain_miss_ns, "ns, a store to a line the device touched becomes visible"),
    K_CPU(wc_drain_max_ns, "ns, an unfenced full WC line drains within this"),
    K_UNS("cpu", "sb_entries", costs.sb_entries, "store buffer entries"),
    K_CPU(line_xfer_ns, "ns, access to a line another CPU holds Modified"),
    K_CPU(line_upgrade_ns, "ns, write to a line other CPUs hold Shared"),
    K_CPU(lock_ns, "ns, spin_lock + spin_unlock, uncontended"),
    K_CPU(uc_drain_ns, "ns, a posted uncached write leaves the CPU after this; "
                       "a locked instruction waits for it"),
    K_CPU(qdisc_pkt_ns, "ns, qdisc dequeue work per packet"),
    K_NUM("host", "mem_latency_ns", mem_latency_ns,
          "ns, DMA read: arrival at the root complex to completion"),
    K_NUM("host", "poll_ns", poll_ns, "ns, a blocked driver re-polls after this long"),
    K_UNS("host", "cpus", cpus, "CPUs: 1 sends and cleans; 2 adds a completion CPU"),
    K_TYPED("host", "napi", pk_napi, enum sim_napi, napi,
            "one CPU: clean after each burst (poll), or on interrupts (irq)"),
    K_TYPED("host", "ordering", pk_ordering, enum stbuf_order, ordering,
           "store visibility: x86 (TSO) or weak (ARMv8-like)"),
    K_UNS("host", "reorder_window", reorder_window, "weak ordering: stores that may overtake"),
    K_TYPED("link", "pcie", pk_link, struct pcie_cfg, pcie, "PCIe generation and lanes"),
    K_UNS("link", "mps", pcie.mps, "bytes, max payload size"),
    K_UNS("link", "mrrs", pcie.mrrs, "bytes, max read request size"),
    K_UNS("link", "rcb", pcie.rcb, "bytes, read completion boundary"),
    K_NUM("link", "latency_ns", pcie.latency_ns, "ns, one-way link latency"),
    K_NUM("device", "line_gbps", line_gbps, "Gb/s, Ethernet line rate"),
    K_NUM("device", "dev_mhz", dev_mhz, "MHz, device clock"),
    K_UNS("device", "dev_width", dev_width, "bytes per device clock: 8, 16, 32 or 64"),
    K_UNS("device", "ring_size", ring_size, "descriptors in the TX ring, a power of two"),
    K_UNS("device", "queues", queues, "transmit queues, 1..64, each its own ring"),
    K_TYPED("device", "sched", pk_sched, enum sim_sched, sched,
            "scheduler across queues: rr (a frame a turn) or drr (deficit round robin)"),
    K_TYPED("device", "weights", pk_weights, struct sim_weights, weights,
            "queue weights 1..255: one for all queues, or one per queue"),
    K_UNS("device", "drr_quantum", drr_quantum, "bytes, DRR quantum per unit of weight"),
    K_UNS("device", "desc_fetch_max", desc_fetch_max, "descriptors per descriptor fetch"),
    K_UNS("device", "desc_fetch_inflight", desc_inflight, "descriptor reads in flight at once"),
    K_UNS("device", "tags", tags, "DMA read tags the device may use"),
    K_UNS("device", "wb_thresh", wb_thresh, "head writeback every n completions (0: off)"),
    K_UNS("device", "irq_thresh", irq_thresh, "interrupt every n completions (0: off)"),
    K_NUM("device", "irq_usecs", irq_usecs,
          "us, interrupt moderation timer from the first unsignalled completion (0: off)"),
    K_TYPED("driver", "protocol", pk_proto, enum txq_proto, proto, "descriptor ownership protocol"),
    K_TYPED("driver", "barrier", pk_barrier, enum txq_barrier, barrier,
           "descriptor-side barrier placement"),
    K_UNS("driver", "burst", burst, "pktgen burst: n-1 packets with xmit_more, then a doorbell"),
    K_TYPED("driver", "layout", pk_layout, enum sim_layout, layout,
           "ring producer/consumer fields on their own lines, or on one"),
    K_TYPED("driver", "bql", pk_onoff, int, bql, "byte queue limits (BQL) on the queue"),
    K_TYPED("driver", "dql", pk_dql, enum dql_order, dql, "BQL dql_queued() access order"),
    K_TYPED("driver", "source", pk_source, enum sim_source, source,
           "packets from pktgen bursts, or from a qdisc under BQL"),
    K_UNS("driver", "tail_coalesce", tail_coalesce, "defer the tail write up to n packets (0: off)"),
    K_UNS("driver", "napi_budget", napi_budget, "descriptors one cleanup pass may reclaim"),
    K_TYPED("driver", "completion", pk_completion, enum txq_clean_mode, clean,
           "how cleanup learns completions: head-wb, mmio, desc-wb (DD bits), cq"),
};

static const struct pk_key *key_find(const char *section, const char *name)
{
    size_t i;

    for (i = 0; i < NNAMES(pk_keys); i++)
        if (strcmp(pk_keys[i].section, section) == 0 && strcmp(pk_keys[i].name, name) == 0)
            return &pk_keys[i];
    return NULL;
}

static int section_known(const char *s, size_t len)
{
    size_t i;

    for (i = 0; i < NNAMES(pk_keys); i++)
        if (strlen(pk_keys[i].section) == len && strncmp(pk_keys[i].section, s, len) == 0)
            return 1;
    return 0;
}

/* Set section.name from value: 0, or -1 with a message in msg. */
static int key_apply(struct sim_cfg *cfg, const char *section, const char *name,
                     const char *value, char *msg, size_t n)
{
    const struct pk_key *k = key_find(section, name);
    char expect[96];

    if (k == NULL && *section == '\0') {
        snprintf(msg, n, "key %s outside a section", name);
        return -1;
    }
    if (k == NULL) {
        snprintf(msg, n, "unknown key %s.%s", section, name);
        return -1;
    }
    if (k->type->parse(value, (char *)cfg + k->offset) == 0)
        return 0;
    if (k->type->choice != NULL)
        type_describe(k->type, expect, sizeof(expect));
    else
        snprintf(expect, sizeof(expect), "%s", k->type->expect);
    snprintf(msg, n, "%s.%s = '%s': expected %s", section, name, value, expect);
    return -1;
}

/* ------------------------------------------------------------ INI files */

struct pf_parse {
    struct sim_cfg *cfg;
    FILE *f;
    const char *path;
    int lineno;   /* of the line last read */
    int failed;   /* a message is in err; stop */
    char *err;
    size_t errlen;
};

static void pf_fail(struct pf_parse *p, const char *fmt, ...) PRINTF_LIKE(2, 3);

/* "path:line: message" into err, once. */
static void pf_fail(struct pf_parse *p, const char *fmt, ...)
{
    char msg[MSG_BYTES];
    va_list ap;

    if (p->failed)
        return;
    p->failed = 1;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (p->err != NULL && p->errlen > 0)
        snprintf(p->err, p->errlen, "%s:%d: %s", p->path, p->lineno, msg);
}

/*
 * What inih would take differently from what it says: an indented line
 * after a key is a continuation of that key's value (inih's multi-line
 * values), so indentation is refused; a section header is checked here so
 * that an unknown section is an error even when it has no keys.
 */
static int pf_check_line(struct pf_parse *p, const char *line)
{
    const char *s = line + strspn(line, " \t\r\n");
    const char *end;

    if (*s == '\0' || *s == ';' || *s == '#')
        return 0;
    if (s != line) {
        pf_fail(p, "indented line: start keys and sections in the first column");
        return -1;
    }
    if (*s != '[' || (end = strchr(s, ']')) == NULL)
        return 0;
    if (!section_known(s + 1, (size_t)(end - s - 1))) {
        pf_fail(p, "unknown section [%.*s]", (int)(end - s - 1), s + 1);
        return -1;
    }
    return 0;
}

/* inih's line reader: fgets, counting lines, refusing long ones. */
static char *pf_reader(char *buf, int size, void *stream)
{
    struct pf_parse *p = stream;

    if (p->failed || fgets(buf, size, p->f) == NULL)
        return NULL;
    p->lineno++;
    if (strchr(buf, '\n') == NULL && !feof(p->f)) {
        pf_fail(p, "line longer than %d characters", size - 2);
        return NULL;
    }
    return pf_check_line(p, buf) == 0 ? buf : NULL;
}

static int pf_handler(void *user, const char *section, const char *name, const char *value)
{
    struct pf_parse *p = user;
    char msg[MSG_BYTES];

    if (p->failed)
        return 0;
    if (key_apply(p->cfg, section, name, value, msg, sizeof(msg)) != 0) {
        pf_fail(p, "%s", msg);
        return 0;
    }
    return 1;
}

static void err_set(char *err, size_t errlen, const char *fmt, ...) PRINTF_LIKE(3, 4);

static void err_set(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    if (err == NULL || errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Apply the keys of an open INI file to *cfg. */
static int pf_parse_file(struct sim_cfg *cfg, FILE *f, const char *path, char *err, size_t errlen)
{
    struct pf_parse p = {cfg, f, path, 0, 0, err, errlen};
    int line = ini_parse_stream(pf_reader, &p, pf_handler, &p);

    if (p.failed)
        return -1;
    if (line > 0) {
        err_set(err, errlen, "%s:%d: syntax error: expected [section] or key = value", path, line);
        return -1;
    }
    if (line < 0 || ferror(f)) {
        err_set(err, errlen, "%s: read error", path);
        return -1;
    }
    return 0;
}

static int ends_with_ini(const char *s)
{
    size_t n = strlen(s);
    return n > 4 && strcmp(s + n - 4, ".ini") == 0;
}

static int name_ok(const char *s)
{
    return *s != '\0' && strspn(s, NAME_CHARS) == strlen(s);
}

/* Open path; NULL with a message unless it simply does not exist (*missing). */
static FILE *open_try(const char *path, int *missing, char *err, size_t errlen)
{
    FILE *f;

    errno = 0;
    f = fopen(path, "r");
    *missing = f == NULL && errno == ENOENT;
    if (f == NULL && !*missing)
        err_set(err, errlen, "%s: %s", path, strerror(errno));
    return f;
}

/* profiles/NAME.ini, then $NICTX_PROFILE_DIR/NAME.ini; the path into path. */
static FILE *open_by_name(const char *name, char *path, size_t n, char *err, size_t errlen)
{
    const char *dir = getenv(PROFILE_DIR_ENV);
    char first[PATH_BYTES];
    int missing;
    FILE *f;

    snprintf(path, n, "profiles/%s.ini", name);
    if ((f = open_try(path, &missing, err, errlen)) != NULL || !missing)
        return f;
    if (dir == NULL || *dir == '\0') {
        err_set(err, errlen, "profile %s: %s not found (%s is not set)", name, path,
                PROFILE_DIR_ENV);
        return NULL;
    }
    snprintf(first, sizeof(first), "%s", path);
    if ((size_t)snprintf(path, n, "%s/%s.ini", dir, name) >= n) {
        err_set(err, errlen, "profile %s: %s is too long", name, PROFILE_DIR_ENV);
        return NULL;
    }
    if ((f = open_try(path, &missing, err, errlen)) == NULL && missing)
        err_set(err, errlen, "profile %s: not found as %s nor as %s", name, first, path);
    return f;
}

static FILE *profile_open(const char *name_or_path, char *path, size_t n, char *err, size_t errlen)
{
    int missing;
    FILE *f;

    if (ends_with_ini(name_or_path)) {
        if ((size_t)snprintf(path, n, "%s", name_or_path) >= n) {
            err_set(err, errlen, "profile path too long");
            return NULL;
        }
        if ((f = open_try(path, &missing, err, errlen)) == NULL && missing)
            err_set(err, errlen, "%s: no such file", path);
        return f;
    }
    if (!name_ok(name_or_path)) {
        err_set(err, errlen, "profile '%s': neither a name (letters, digits, '.', '_', '-') "
                "nor a path ending in .ini", name_or_path);
        return NULL;
    }
    return open_by_name(name_or_path, path, n, err, errlen);
}

/* Copy at most len bytes of src, truncated to fit dst[n], NUL-terminated. */
static void copy_trunc(char *dst, size_t n, const char *src, size_t len)
{
    if (len >= n)
        len = n - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* The profile's name: the file name without directory and ".ini". */
static void record_name(struct sim_cfg *cfg, const char *path)
{
    const char *base = strrchr(path, '/');
    size_t len;

    base = base ? base + 1 : path;
    len = strlen(base) - 4;
    copy_trunc(cfg->profile, sizeof(cfg->profile), base, len);
    copy_trunc(cfg->cpu_profile, sizeof(cfg->cpu_profile), base, len);
}

int profile_load(struct sim_cfg *cfg, const char *name_or_path, char *err, size_t errlen)
{
    char path[PATH_BYTES];
    struct sim_cfg tmp = *cfg;
    FILE *f = profile_open(name_or_path, path, sizeof(path), err, errlen);
    int rc;

    if (f == NULL)
        return -1;
    rc = pf_parse_file(&tmp, f, path, err, errlen);
    fclose(f);
    if (rc != 0)
        return -1;
    record_name(&tmp, path);
    *cfg = tmp;
    return 0;
}

/* ------------------------------------------------------------ --set */

/* s without leading and trailing blanks, in place. */
static char *trim(char *s)
{
    char *end;

    s += strspn(s, " \t");
    end = s + strlen(s);
    while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
        *--end = '\0';
    return s;
}

int profile_set(struct sim_cfg *cfg, const char *assignment, char *err, size_t errlen)
{
    char buf[MSG_BYTES], msg[MSG_BYTES];
    char *eq, *key, *dot;

    if ((size_t)snprintf(buf, sizeof(buf), "%s", assignment) >= sizeof(buf)) {
        err_set(err, errlen, "--set: assignment longer than %zu characters", sizeof(buf) - 1);
        return -1;
    }
    if ((eq = strchr(buf, '=')) == NULL) {
        err_set(err, errlen, "--set %s: expected section.key=value", assignment);
        return -1;
    }
    *eq = '\0';
    key = trim(buf);
    if ((dot = strchr(key, '.')) == NULL) {
        err_set(err, errlen, "--set %s: unknown key %s (keys are section.key)", assignment, key);
        return -1;
    }
    *dot = '\0';
    if (key_apply(cfg, key, dot + 1, trim(eq + 1), msg, sizeof(msg)) != 0) {
        err_set(err, errlen, "--set %s: %s", assignment, msg);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ listing */

void profile_list_keys(FILE *f)
{
    char full[64], type[96];
    size_t i;

    for (i = 0; i < NNAMES(pk_keys); i++) {
        snprintf(full, sizeof(full), "%s.%s", pk_keys[i].section, pk_keys[i].name);
        type_describe(pk_keys[i].type, type, sizeof(type));
        fprintf(f, "%-22s %-36s %s\n", full, type, pk_keys[i].meaning);
    }
}
