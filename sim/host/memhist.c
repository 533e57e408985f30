/* SPDX-License-Identifier: Apache-2.0 */
/*
 * memhist.c - recent writes to host memory (see memhist.h).
 */
#include "host/memhist.h"

#include <stdlib.h>
#include <string.h>

int memhist_init(struct memhist *h)
{
    memset(h, 0, sizeof(*h));
    h->ent = calloc(MEMHIST_CAP, sizeof(*h->ent));
    return h->ent ? 0 : -1;
}

void memhist_destroy(struct memhist *h)
{
    free(h->ent);
    h->ent = NULL;
}

void memhist_write(struct memhist *h, const void *p, const void *old, size_t len, unsigned who,
                   sim_ps_t t, uint64_t tlp)
{
    const uint8_t *o = old;

    for (size_t k = 0; k < len; k += 8) {
        struct memhist_ent *e = &h->ent[h->n % MEMHIST_CAP];
        if (h->n >= MEMHIST_CAP && e->t > h->lost_t)
            h->lost_t = e->t;
        e->addr = (uintptr_t)p + k;
        e->len = (uint8_t)(len - k < 8 ? len - k : 8);
        e->who = (uint8_t)who;
        e->t = t;
        e->tlp = tlp;
        memcpy(e->old, o + k, e->len);
        h->n++;
    }
}

void memhist_view(const struct memhist *h, const void *p, uint8_t *buf, size_t len, sim_ps_t t,
                  unsigned skip, uint64_t *undone_tlp, uint64_t *seen_tlp)
{
    uintptr_t a = (uintptr_t)p;
    uint64_t kept = h->n < MEMHIST_CAP ? h->n : MEMHIST_CAP;

    *undone_tlp = *seen_tlp = 0;
    for (uint64_t i = 0; i < kept; i++) {
        const struct memhist_ent *e = &h->ent[(h->n - 1 - i) % MEMHIST_CAP];
        if (e->addr >= a + len || a >= e->addr + e->len || e->who == skip)
            continue;
        if (e->t <= t) {
            if (e->who == MEMHIST_DEVICE && !*seen_tlp)
                *seen_tlp = e->tlp;
            continue;
        }
        if (e->who == MEMHIST_DEVICE && !*undone_tlp)
            *undone_tlp = e->tlp;
        /* Restore the overlapping bytes. */
        uintptr_t lo = e->addr > a ? e->addr : a;
        uintptr_t hi = e->addr + e->len < a + len ? e->addr + e->len : a + len;
        memcpy(buf + (lo - a), e->old + (lo - e->addr), hi - lo);
    }
}

void memhist_clamp(struct memhist *h, unsigned who, uint64_t from, sim_ps_t t)
{
    if (h->n > MEMHIST_CAP && from < h->n - MEMHIST_CAP)
        from = h->n - MEMHIST_CAP;
    for (uint64_t i = from; i < h->n; i++) {
        struct memhist_ent *e = &h->ent[i % MEMHIST_CAP];
        if (e->who == who && e->t > t)
            e->t = t;
    }
}
