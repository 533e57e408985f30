/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_series.c - x axis and series of a sweep (see sweep_series.h).
 */
#include "sweep/sweep_series.h"

#include <stdio.h>
#include <string.h>

int sweep_series_param(const struct sweep_series *ss, const struct sweep_spec *s, size_t p)
{
    return (long)p != ss->x && s->params[p].values.n > 1;
}

void sweep_series_init(struct sweep_series *ss, const struct sweep_spec *s)
{
    long x = sweep_param_find(s, s->x);

    ss->x = x >= 0 && s->params[x].values.n > 1 ? x : -1;
    ss->nx = ss->x >= 0 ? s->params[ss->x].values.n : 1;
    ss->nseries = 1;
    ss->nvarying = 0;
    for (size_t p = 0; p < s->nparams; p++)
        if (sweep_series_param(ss, s, p)) {
            ss->nseries *= s->params[p].values.n;
            ss->nvarying++;
        }
}

size_t sweep_series_of(const struct sweep_series *ss, const struct sweep_spec *s, size_t i)
{
    size_t k = 0;

    for (size_t p = 0; p < s->nparams; p++)
        if (sweep_series_param(ss, s, p))
            k = k * s->params[p].values.n + sweep_point_vindex(s, i, p);
    return k;
}

size_t sweep_series_xpos(const struct sweep_series *ss, const struct sweep_spec *s, size_t i)
{
    return ss->x >= 0 ? sweep_point_vindex(s, i, (size_t)ss->x) : 0;
}

size_t sweep_series_vindex(const struct sweep_series *ss, const struct sweep_spec *s, size_t k,
                           size_t p)
{
    size_t q = s->nparams;

    /* Series numbers are mixed radix over the series parameters, the last
     * one least significant: strip those after p. */
    while (q-- > p + 1)
        if (sweep_series_param(ss, s, q))
            k /= s->params[q].values.n;
    return k % s->params[p].values.n;
}

/* Join, for each series parameter, its name or its value in series k. */
static void join(const struct sweep_series *ss, const struct sweep_spec *s, long k,
                 const char *sep, char *buf, size_t len)
{
    size_t n = 0;

    buf[0] = '\0';
    for (size_t p = 0; p < s->nparams && n < len; p++) {
        const char *w;
        int m;
        if (!sweep_series_param(ss, s, p))
            continue;
        w = k < 0 ? s->params[p].name
                  : s->params[p].values.v[sweep_series_vindex(ss, s, (size_t)k, p)];
        m = snprintf(buf + n, len - n, "%s%s", n ? sep : "", w);
        if (m < 0)
            break;
        n += (size_t)m;
    }
    if (ss->nvarying == 0)
        snprintf(buf, len, "%s", k < 0 ? "" : "all points");
}

void sweep_series_label(const struct sweep_series *ss, const struct sweep_spec *s, size_t k,
                        const char *sep, char *buf, size_t len)
{
    join(ss, s, (long)k, sep, buf, len);
}

void sweep_series_names(const struct sweep_series *ss, const struct sweep_spec *s,
                        const char *sep, char *buf, size_t len)
{
    join(ss, s, -1, sep, buf, len);
}
