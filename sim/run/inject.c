/* SPDX-License-Identifier: Apache-2.0 */
/*
 * inject.c - the fault plan: parsing and naming (inject.h).
 */
#include "run/inject.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const inj_names[INJ_KINDS] = {"ur", "ca", "ep", "timeout", "db-off",
                                                 "blackout"};

const char *inj_kind_name(enum inj_kind k)
{
    return (unsigned)k < INJ_KINDS ? inj_names[k] : "invalid";
}

int inj_on_read(enum inj_kind k)
{
    return k == INJ_UR || k == INJ_CA || k == INJ_EP || k == INJ_TIMEOUT;
}

/* Strict decimal: digits only, no leading zero but "0" itself, no overflow. */
static int inj_decimal(const char *s, size_t n, uint64_t *v)
{
    uint64_t x = 0;
    size_t i;

    if (n == 0 || (n > 1 && s[0] == '0'))
        return -1;
    for (i = 0; i < n; i++) {
        uint64_t d = (uint64_t)(s[i] - '0');
        if (s[i] < '0' || s[i] > '9' || x > (UINT64_MAX - d) / 10)
            return -1;
        x = x * 10 + d;
    }
    *v = x;
    return 0;
}

/* "N" or "Q/N" of length n into f->q and f->at: 0, or -1. */
static int inj_where(struct inj *f, const char *s, size_t n)
{
    const char *slash = memchr(s, '/', n);
    uint64_t q = 0;

    if (slash && (inj_decimal(s, (size_t)(slash - s), &q) != 0 || q >= INJ_QUEUES_MAX))
        return -1;
    f->q = (unsigned)q;
    if (slash) {
        n -= (size_t)(slash - s) + 1;
        s = slash + 1;
    }
    return inj_decimal(s, n, &f->at);
}

/* One item "KIND@N", "KIND@Q/N", "blackout@N:T" or "blackout@Q/N:T" of
 * length n. */
static int inj_item(struct inj *f, const char *s, size_t n, char *err, size_t errlen)
{
    const char *at = memchr(s, '@', n);
    size_t klen = at ? (size_t)(at - s) : n;
    unsigned k;

    for (k = 0; k < INJ_KINDS; k++)
        if (strlen(inj_names[k]) == klen && strncmp(s, inj_names[k], klen) == 0)
            break;
    if (k == INJ_KINDS || !at) {
        snprintf(err, errlen, "--inject '%.*s': expected KIND@N or KIND@Q/N with KIND one of "
                 "ur, ca, ep, timeout, db-off, or blackout@N:T", (int)n, s);
        return -1;
    }
    const char *num = at + 1;
    size_t rest = n - klen - 1;
    const char *colon = memchr(num, ':', rest);
    size_t nlen = colon ? (size_t)(colon - num) : rest;
    uint64_t t = 0;

    f->kind = (enum inj_kind)k;
    f->ns = 0;
    if (inj_where(f, num, nlen) != 0) {
        snprintf(err, errlen, "--inject '%.*s': N must be a packet number in decimal, "
                 "Q/N a queue 0..%u and its packet number", (int)n, s, INJ_QUEUES_MAX - 1);
        return -1;
    }
    if ((k == INJ_BLACKOUT) != (colon != NULL) ||
        (colon && (inj_decimal(colon + 1, rest - nlen - 1, &t) != 0 || t == 0 ||
                   (double)t > INJ_BLACKOUT_MAX_NS))) {
        snprintf(err, errlen, "--inject '%.*s': %s", (int)n, s,
                 k == INJ_BLACKOUT ? "expected blackout@N:T, T in ns, 1..1000000000"
                                   : "only blackout takes a length (:T)");
        return -1;
    }
    f->ns = (double)t;
    return 0;
}

int inj_parse(struct inj_plan *p, const char *spec, char *err, size_t errlen)
{
    const char *s = spec;

    memset(p, 0, sizeof(*p));
    if (strcmp(spec, "") == 0 || strcmp(spec, "none") == 0)
        return 0;
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        if (p->n == INJ_MAX) {
            snprintf(err, errlen, "--inject: at most %u faults", INJ_MAX);
            return -1;
        }
        if (inj_item(&p->v[p->n], s, n, err, errlen) != 0)
            return -1;
        p->n++;
        if (!comma)
            return 0;
        s = comma + 1;
    }
}

void inj_format(const struct inj_plan *p, char *buf, size_t len)
{
    size_t used = 0;
    unsigned i;

    if (len == 0)
        return;
    buf[0] = '\0';
    if (p->n == 0) {
        snprintf(buf, len, "none");
        return;
    }
    for (i = 0; i < p->n && used < len; i++) {
        const struct inj *f = &p->v[i];
        char q[16] = "";
        if (f->q != 0)
            snprintf(q, sizeof(q), "%u/", f->q);
        int w = f->kind == INJ_BLACKOUT
                    ? snprintf(buf + used, len - used, "%s%s@%s%llu:%.0f", i ? "," : "",
                               inj_kind_name(f->kind), q, (unsigned long long)f->at, f->ns)
                    : snprintf(buf + used, len - used, "%s%s@%s%llu", i ? "," : "",
                               inj_kind_name(f->kind), q, (unsigned long long)f->at);
        if (w < 0)
            return;
        used += (size_t)w;
    }
}
