/* SPDX-License-Identifier: Apache-2.0 */
/* sweep_pareto.c - the Pareto front and the cheapest point meeting a target
 * (sweep_pareto.h). */
#include "sweep/sweep_pareto.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t sweep_pareto(const double *cost, const double *perf, size_t n, unsigned char *front)
{
    size_t on = 0;

    for (size_t i = 0; i < n; i++) {
        int dominated = isnan(cost[i]) || isnan(perf[i]);
        for (size_t j = 0; j < n && !dominated; j++)
            dominated = j != i && !isnan(cost[j]) && !isnan(perf[j]) && cost[j] <= cost[i] &&
                        perf[j] >= perf[i] && (cost[j] < cost[i] || perf[j] > perf[i]);
        front[i] = !dominated;
        on += front[i];
    }
    return on;
}

int sweep_target_parse(const char *text, struct sweep_target *t, char *err, size_t n)
{
    static const char *const ops[] = {">=", "<=", ">", "<"};
    const char *at = NULL, *num;
    size_t k = 0, len;
    char *end;

    memset(t, 0, sizeof(*t));
    for (const char *p = text; *p && !at; p++)
        for (k = 0; k < 4 && !at; k++)
            if (strncmp(p, ops[k], strlen(ops[k])) == 0)
                at = p;
    k--;
    len = at ? (size_t)(at - text) : 0;
    if (!at || len == 0 || len >= sizeof(t->col)) {
        snprintf(err, n, "--target '%s': expected COLUMN>=VALUE (or <=, >, <), e.g. "
                         "mpps>=148.8", text);
        return -1;
    }
    memcpy(t->col, text, len);
    snprintf(t->op, sizeof(t->op), "%s", ops[k]);
    num = at + strlen(ops[k]);
    t->value = strtod(num, &end);
    if (!*num || *end || !isfinite(t->value)) {
        snprintf(err, n, "--target '%s': '%s' is not a number", text, num);
        return -1;
    }
    return 0;
}

int sweep_target_met(const struct sweep_target *t, double v)
{
    if (isnan(v))
        return 0;
    if (strcmp(t->op, ">=") == 0)
        return v >= t->value;
    if (strcmp(t->op, "<=") == 0)
        return v <= t->value;
    if (strcmp(t->op, ">") == 0)
        return v > t->value;
    return v < t->value;
}

/* a is better than b for the target (further past it). */
static int better(const struct sweep_target *t, double a, double b)
{
    return t->op[0] == '>' ? a > b : a < b;
}

long sweep_target_pick(const struct sweep_target *t, const double *cost, const double *val,
                       size_t n)
{
    long best = -1;

    for (size_t i = 0; i < n; i++) {
        if (isnan(cost[i]) || !sweep_target_met(t, val[i]))
            continue;
        if (best < 0 || cost[i] < cost[best] ||
            (cost[i] == cost[best] && better(t, val[i], val[best])))
            best = (long)i;
    }
    return best;
}
