/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep.c - a sweep's parameters, its points, their seeds, ids and run
 * arguments (see sweep.h).
 */
#include "sweep/sweep.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep_values.h"

#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_."

/* Options the sweep sets itself, or that make a run print instead of run. */
static const char *const reserved[] = {
    "json", "check", "help", "list-keys", "list-options", "quiet",
};

void sweep_spec_init(struct sweep_spec *s)
{
    memset(s, 0, sizeof(*s));
    s->seed = 1;
    s->lockstep_packets = SWEEP_LOCKSTEP_PACKETS;
    snprintf(s->x, sizeof(s->x), "%s", SWEEP_DEFAULT_X);
    strv_init(&s->args);
}

void sweep_spec_free(struct sweep_spec *s)
{
    for (size_t p = 0; p < s->nparams; p++) {
        free(s->params[p].name);
        strv_free(&s->params[p].values);
    }
    free(s->params);
    strv_free(&s->args);
    sweep_spec_init(s);
}

long sweep_param_find(const struct sweep_spec *s, const char *name)
{
    for (size_t p = 0; p < s->nparams; p++)
        if (strcmp(s->params[p].name, name) == 0)
            return (long)p;
    return -1;
}

int sweep_param_is_key(const char *name)
{
    return strchr(name, '.') != NULL;
}

/* A new, empty parameter NAME at the end: its index, or -1. */
static long param_new(struct sweep_spec *s, const char *name)
{
    struct sweep_param *np = realloc(s->params, (s->nparams + 1) * sizeof(*np));
    size_t n = strlen(name) + 1;

    if (!np)
        return -1;
    s->params = np;
    np += s->nparams;
    if (!(np->name = malloc(n)))
        return -1;
    memcpy(np->name, name, n);
    strv_init(&np->values);
    return (long)s->nparams++;
}

int sweep_spec_add(struct sweep_spec *s, const char *name, const char *list,
                   char *err, size_t errlen)
{
    char why[256];
    long p = sweep_param_find(s, name);

    if (p < 0 && (p = param_new(s, name)) < 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (sweep_values_parse(list, &s->params[p].values, why, sizeof(why)) != 0) {
        snprintf(err, errlen, "parameter %s: %s", name, why);
        return -1;
    }
    return 0;
}

int sweep_spec_set(struct sweep_spec *s, const char *assignment, char *err, size_t errlen)
{
    const char *eq = strchr(assignment, '=');
    char name[SWEEP_NAME_BYTES];
    struct strv vals;
    char why[256];
    long p;

    if (!eq || eq == assignment || (size_t)(eq - assignment) >= sizeof(name)) {
        snprintf(err, errlen, "'%s': expected NAME=VALUES, e.g. burst=1,8,32", assignment);
        return -1;
    }
    snprintf(name, sizeof(name), "%.*s", (int)(eq - assignment), assignment);
    strv_init(&vals);
    if (sweep_values_parse(eq + 1, &vals, why, sizeof(why)) != 0) {
        snprintf(err, errlen, "parameter %s: %s", name, why);
        return -1;
    }
    p = sweep_param_find(s, name);
    if (p < 0 && (p = param_new(s, name)) < 0) {
        strv_free(&vals);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    strv_free(&s->params[p].values);
    s->params[p].values = vals;
    return 0;
}

static int is_reserved(const char *name)
{
    for (size_t k = 0; k < sizeof(reserved) / sizeof(reserved[0]); k++)
        if (strcmp(name, reserved[k]) == 0)
            return 1;
    return 0;
}

static int param_name_ok(const char *n, char *err, size_t errlen)
{
    if (!*n || strspn(n, NAME_CHARS) != strlen(n) || n[0] == '-' || n[0] == '.') {
        snprintf(err, errlen, "parameter '%s': a name is a run option without its "
                 "dashes (burst) or a profile key (cpu.wmb_ns)", n);
        return -1;
    }
    if (is_reserved(n)) {
        snprintf(err, errlen, "parameter '%s': the sweep sets --%s itself; it cannot be "
                 "swept", n, n);
        return -1;
    }
    return 0;
}

/* A fixed argument "--NAME" or "--NAME=..." that the sweep sets itself. */
static int arg_reserved(const char *a)
{
    char name[SWEEP_NAME_BYTES];

    if (strncmp(a, "--", 2) != 0)
        return 0;
    snprintf(name, sizeof(name), "%.*s", (int)strcspn(a + 2, "="), a + 2);
    return is_reserved(name);
}

const char *sweep_argv_option(char *const *argv, size_t n, const char *name)
{
    const char *v = NULL;
    size_t len = strlen(name);

    for (size_t k = 0; k < n; k++) {
        const char *a = argv[k];
        if (strncmp(a, "--", 2) != 0 || strncmp(a + 2, name, len) != 0)
            continue;
        if (a[2 + len] == '=')
            v = a + 3 + len;
        else if (a[2 + len] == '\0' && k + 1 < n)
            v = argv[++k];
    }
    return v;
}

int sweep_spec_default_device(struct sweep_spec *s, const char *model)
{
    if (sweep_param_find(s, "device") >= 0 || sweep_argv_option(s->args.v, s->args.n, "device"))
        return 0;
    return strv_push(&s->args, "--device") == 0 && strv_push(&s->args, model) == 0 ? 0 : -1;
}

int sweep_spec_check(const struct sweep_spec *s, char *err, size_t errlen)
{
    double points = 1;

    for (size_t p = 0; p < s->nparams; p++) {
        if (param_name_ok(s->params[p].name, err, errlen) != 0)
            return -1;
        if (s->params[p].values.n == 0) {
            snprintf(err, errlen, "parameter %s: empty list", s->params[p].name);
            return -1;
        }
        points *= (double)s->params[p].values.n;
    }
    for (size_t a = 0; a < s->args.n; a++)
        if (arg_reserved(s->args.v[a])) {
            snprintf(err, errlen, "run argument '%s': the sweep sets it itself", s->args.v[a]);
            return -1;
        }
    if (points > SWEEP_MAX_POINTS) {
        snprintf(err, errlen, "%.0f points: at most %d", points, SWEEP_MAX_POINTS);
        return -1;
    }
    return 0;
}

size_t sweep_npoints(const struct sweep_spec *s)
{
    size_t n = 1;

    for (size_t p = 0; p < s->nparams; p++)
        n *= s->params[p].values.n;
    return n;
}

size_t sweep_point_vindex(const struct sweep_spec *s, size_t i, size_t p)
{
    size_t k = s->nparams;

    /* Mixed radix, the last parameter the least significant digit. */
    while (--k > p)
        i /= s->params[k].values.n;
    return i % s->params[p].values.n;
}

const char *sweep_point_value(const struct sweep_spec *s, size_t i, size_t p)
{
    return s->params[p].values.v[sweep_point_vindex(s, i, p)];
}

/* ---- hashes ------------------------------------------------------------- */

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static uint64_t fnv1a(uint64_t h, const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        h ^= (unsigned char)s[k];
        h *= FNV_PRIME;
    }
    return h;
}

/* splitmix64's finaliser: every input bit moves every output bit. */
static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The parameter whose name follows `after` in name order (NULL: the
 * first): its index, or -1 after the last.  Names are unique. */
static long param_next_by_name(const struct sweep_spec *s, const char *after)
{
    long best = -1;

    for (size_t p = 0; p < s->nparams; p++) {
        const char *n = s->params[p].name;
        if (after && strcmp(n, after) <= 0)
            continue;
        if (best < 0 || strcmp(n, s->params[best].name) < 0)
            best = (long)p;
    }
    return best;
}

uint64_t sweep_point_seed(const struct sweep_spec *s, size_t i)
{
    uint64_t h = FNV_OFFSET;
    const char *prev = NULL;
    long p;

    while ((p = param_next_by_name(s, prev)) >= 0) {
        const char *v = sweep_point_value(s, i, (size_t)p);
        prev = s->params[p].name;
        h = fnv1a(h, prev, strlen(prev));
        h = fnv1a(h, "=", 1);
        h = fnv1a(h, v, strlen(v));
        h = fnv1a(h, "\n", 1);
    }
    /* 48 bits: exact in any JSON reader's double, and never 0. */
    h = mix64(h ^ mix64(s->seed)) >> 16;
    return h ? h : 1;
}

int sweep_point_args(const struct sweep_spec *s, size_t i, struct strv *argv)
{
    int rc = 0;

    if (sweep_param_find(s, "seed") < 0)
        rc |= strv_push(argv, "--seed") |
              strv_pushf(argv, "%" PRIu64, sweep_point_seed(s, i));
    rc |= strv_extend(argv, &s->args);
    for (size_t p = 0; p < s->nparams; p++) {
        const char *name = s->params[p].name, *v = sweep_point_value(s, i, p);
        if (sweep_param_is_key(name))
            rc |= strv_push(argv, "--set") | strv_pushf(argv, "%s=%s", name, v);
        else
            rc |= strv_pushf(argv, "--%s", name) | strv_push(argv, v);
    }
    return rc ? -1 : 0;
}

void sweep_point_id(const struct sweep_spec *s, size_t i, char id[SWEEP_ID_BYTES])
{
    struct strv argv;
    uint64_t h = FNV_OFFSET;

    strv_init(&argv);
    if (sweep_point_args(s, i, &argv) != 0)
        h = 0; /* out of memory: an id no point has */
    for (size_t k = 0; k < argv.n; k++)
        h = fnv1a(h, argv.v[k], strlen(argv.v[k]) + 1);
    strv_free(&argv);
    snprintf(id, SWEEP_ID_BYTES, "%012" PRIx64, mix64(h) >> 16);
}

void sweep_point_label(const struct sweep_spec *s, size_t i, char *buf, size_t len)
{
    size_t n = 0;

    if (len)
        buf[0] = '\0';
    for (size_t p = 0; p < s->nparams && n < len; p++) {
        int w = snprintf(buf + n, len - n, "%s%s=%s", p ? " " : "", s->params[p].name,
                         sweep_point_value(s, i, p));
        if (w < 0)
            break;
        n += (size_t)w;
    }
}
