/* SPDX-License-Identifier: Apache-2.0 */
/*
 * strv.c - growable vector of owned strings (see strv.h).
 */
#include "lib/strv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void strv_init(struct strv *sv)
{
    sv->v = NULL;
    sv->n = sv->cap = 0;
}

void strv_free(struct strv *sv)
{
    for (size_t i = 0; i < sv->n; i++)
        free(sv->v[i]);
    free(sv->v);
    strv_init(sv);
}

/* Room for one more string and the terminating NULL. */
static int strv_grow(struct strv *sv)
{
    size_t cap;
    char **nv;

    if (sv->n + 2 <= sv->cap)
        return 0;
    cap = sv->cap ? 2 * sv->cap : 8;
    nv = realloc(sv->v, cap * sizeof(*nv));
    if (!nv)
        return -1;
    sv->v = nv;
    sv->cap = cap;
    return 0;
}

/* Put the malloc'd s before index i; frees s on failure. */
static int strv_put(struct strv *sv, size_t i, char *s)
{
    if (!s || i > sv->n || strv_grow(sv) != 0) {
        free(s);
        return -1;
    }
    memmove(sv->v + i + 1, sv->v + i, (sv->n - i) * sizeof(*sv->v));
    sv->v[i] = s;
    sv->n++;
    sv->v[sv->n] = NULL;
    return 0;
}

static char *str_dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);

    return d ? memcpy(d, s, n) : NULL;
}

int strv_take(struct strv *sv, char *s)
{
    return strv_put(sv, sv->n, s);
}

int strv_push(struct strv *sv, const char *s)
{
    return strv_put(sv, sv->n, str_dup(s));
}

int strv_insert(struct strv *sv, size_t i, const char *s)
{
    return strv_put(sv, i, str_dup(s));
}

int strv_pushf(struct strv *sv, const char *fmt, ...)
{
    va_list ap;
    char *s;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !(s = malloc((size_t)n + 1)))
        return -1;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return strv_take(sv, s);
}

int strv_extend(struct strv *sv, const struct strv *other)
{
    for (size_t i = 0; i < other->n; i++)
        if (strv_push(sv, other->v[i]) != 0)
            return -1;
    return 0;
}

long strv_find(const struct strv *sv, const char *s)
{
    for (size_t i = 0; i < sv->n; i++)
        if (strcmp(sv->v[i], s) == 0)
            return (long)i;
    return -1;
}
