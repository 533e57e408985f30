/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cover.c - the functional cover points added up over runs (cover.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/cover.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json_flat.h"
#include "lib/num.h"

/* The list's entries (lib/cover.h), each with its first counter. */
struct cover_entry {
    const char *name, *what;
    unsigned n, where, first;
};

#define COVER_ENTRY(id, name, n, where, what) {name, what, n, COVER_WHERE_##where, COVER_##id},
static const struct cover_entry cover_list[] = {COVER_POINTS(COVER_ENTRY)};
#undef COVER_ENTRY
#define COVER_ENTRIES (sizeof(cover_list) / sizeof(cover_list[0]))

static const struct cover_entry *entry_of(unsigned i)
{
    for (size_t k = COVER_ENTRIES; k-- > 0;)
        if (cover_list[k].first <= i)
            return &cover_list[k];
    return &cover_list[0];
}

void cover_point(unsigned i, char *buf, size_t n, unsigned *where, const char **what)
{
    const struct cover_entry *e = entry_of(i);

    if (e->n == 1)
        snprintf(buf, n, "%s", e->name);
    else
        snprintf(buf, n, "%s[%u]", e->name, i - e->first);
    if (where)
        *where = e->where;
    if (what)
        *what = e->what;
}

int cover_find(const char *name)
{
    char buf[64];

    for (unsigned i = 0; i < COVER_N; i++) {
        cover_point(i, buf, sizeof(buf), NULL, NULL);
        if (strcmp(buf, name) == 0)
            return (int)i;
    }
    return -1;
}

void cover_sum_init(struct cover_sum *s)
{
    memset(s, 0, sizeof(*s));
}

int cover_sum_add_json(struct cover_sum *s, const char *path, char *err, size_t errlen)
{
    struct json_flat f;
    char key[80];
    uint64_t c[COVER_N];
    bool dev = false;
    unsigned found = 0;

    if (json_flat_load(&f, path, err, errlen) != 0)
        return -1;
    for (unsigned i = 0; i < COVER_N; i++) {
        unsigned where;
        memcpy(key, "cover.", 6);
        cover_point(i, key + 6, sizeof(key) - 6, &where, NULL);
        const struct json_flat_item *it = json_flat_get(&f, key);
        c[i] = 0;
        if (!it)
            continue;
        if (it->type != JSON_FLAT_NUM || num_u64(it->text, UINT64_MAX, NUM_STRICT, &c[i]) != NUM_OK) {
            snprintf(err, errlen, "%s: %s is not a count", path, key);
            json_flat_free(&f);
            return -1;
        }
        found++;
        dev |= where == COVER_WHERE_dev;
    }
    json_flat_free(&f);
    if (found == 0) {
        snprintf(err, errlen, "%s: no \"cover\" object (not a nictx run's JSON?)", path);
        return -1;
    }
    for (unsigned i = 0; i < COVER_N; i++)
        s->count[i] += c[i];
    s->runs++;
    s->cover_dev |= dev;
    return 0;
}

static bool counted(const struct cover_sum *s, unsigned i)
{
    return s->cover_dev || entry_of(i)->where != COVER_WHERE_dev;
}

unsigned cover_sum_hit(const struct cover_sum *s, unsigned *ncounted)
{
    unsigned hit = 0, n = 0;

    for (unsigned i = 0; i < COVER_N; i++) {
        if (!counted(s, i))
            continue;
        n++;
        hit += s->count[i] != 0;
    }
    if (ncounted)
        *ncounted = n;
    return hit;
}

/* Entry e's never-hit instances, consecutive ones as a range. */
static void report_entry(const struct cover_sum *s, const struct cover_entry *e, FILE *f)
{
    for (unsigned q = 0; q < e->n; q++) {
        if (s->count[e->first + q] != 0)
            continue;
        unsigned last = q;
        while (last + 1 < e->n && s->count[e->first + last + 1] == 0)
            last++;
        char name[64];
        if (e->n == 1)
            snprintf(name, sizeof(name), "%s", e->name);
        else if (last == q)
            snprintf(name, sizeof(name), "%s[%u]", e->name, q);
        else
            snprintf(name, sizeof(name), "%s[%u..%u]", e->name, q, last);
        fprintf(f, "  %-22s %s\n", name, e->what);
        q = last;
    }
}

void cover_sum_report(const struct cover_sum *s, FILE *f)
{
    unsigned n, hit = cover_sum_hit(s, &n);

    fprintf(f, "cover: %u of %u points hit over %u run%s (docs/coverage.md)\n", hit, n, s->runs,
            s->runs == 1 ? "" : "s");
    if (!s->cover_dev)
        fprintf(f, "cover: the device's points not counted (no run on the C model: --device c "
                   "or lockstep)\n");
    if (hit == n)
        return;
    fprintf(f, "never hit (%u):\n", n - hit);
    for (size_t k = 0; k < COVER_ENTRIES; k++)
        if (s->cover_dev || cover_list[k].where != COVER_WHERE_dev)
            report_entry(s, &cover_list[k], f);
}

static void list(FILE *f)
{
    static const char *const where[] = {"dev", "link"};

    for (size_t k = 0; k < COVER_ENTRIES; k++)
        fprintf(f, "%s\t%u\t%s\t%s\n", cover_list[k].name, cover_list[k].n,
                where[cover_list[k].where], cover_list[k].what);
}

/* --require P,...: 0 when each was hit, 1 naming those not, 2 for a name
 * the list does not have. */
static int require(const struct cover_sum *s, const char *names)
{
    char *copy = strdup(names), *save = NULL;
    int rc = 0;

    if (!copy)
        return 2;
    for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        int i = cover_find(p);
        if (i < 0) {
            fprintf(stderr, "nictx cover: --require: no cover point '%s' (nictx cover --list)\n", p);
            rc = 2;
            break;
        }
        if (s->count[i] == 0) {
            printf("required, not hit: %s\n", p);
            rc = 1;
        }
    }
    free(copy);
    return rc;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: nictx cover [--require POINT,...] RUN.json...\n"
               "       nictx cover --list\n");
}

int cli_cover_main(int argc, char **argv)
{
    const char *req = NULL;
    struct cover_sum s;
    char err[512];
    int a = 1;

    for (; a < argc && argv[a][0] == '-'; a++) {
        if (strcmp(argv[a], "--list") == 0 && argc == 2) {
            list(stdout);
            return 0;
        } else if (strcmp(argv[a], "--require") == 0 && a + 1 < argc) {
            req = argv[++a];
        } else if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "nictx cover: bad argument '%s'\n", argv[a]);
            usage(stderr);
            return 2;
        }
    }
    if (a == argc) {
        fprintf(stderr, "nictx cover: no run's JSON given\n");
        usage(stderr);
        return 2;
    }
    cover_sum_init(&s);
    for (; a < argc; a++) {
        if (cover_sum_add_json(&s, argv[a], err, sizeof(err)) != 0) {
            fprintf(stderr, "nictx cover: %s\n", err);
            return 2;
        }
    }
    cover_sum_report(&s, stdout);
    return req ? require(&s, req) : 0;
}
