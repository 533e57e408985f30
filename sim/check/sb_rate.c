/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sb_rate.c - frame start times for the steady-state rate in fixed memory
 * (see sb_rate.h).
 */
#include "check/sb_rate.h"

#include <stdlib.h>

int sb_rate_init(struct sb_rate *r, uint64_t expected)
{
    r->hi = expected / 10 + SB_RATE_SLACK;
    r->lo = r->hi > SB_RATE_WINDOW ? r->hi - SB_RATE_WINDOW : 0;
    r->stride = r->lo > SB_RATE_SAMPLES ? (r->lo + SB_RATE_SAMPLES - 1) / SB_RATE_SAMPLES : 1;
    r->win = calloc(SB_RATE_WINDOW, sizeof *r->win);
    r->samp = calloc(SB_RATE_SAMPLES, sizeof *r->samp);
    return r->win && r->samp ? 0 : -1;
}

void sb_rate_free(struct sb_rate *r)
{
    free(r->win);
    free(r->samp);
    r->win = r->samp = NULL;
}

uint64_t sb_rate_at(const struct sb_rate *r, uint64_t k0, struct sb_rate_entry *e)
{
    if (k0 >= r->hi)
        k0 = r->hi - 1;
    if (k0 >= r->lo) {
        *e = r->win[k0 - r->lo];
        return k0;
    }
    k0 -= k0 % r->stride;
    *e = r->samp[k0 / r->stride];
    return k0;
}

size_t sb_rate_bytes(const struct sb_rate *r)
{
    (void)r;
    return (size_t)(SB_RATE_WINDOW + SB_RATE_SAMPLES) * sizeof(struct sb_rate_entry);
}
