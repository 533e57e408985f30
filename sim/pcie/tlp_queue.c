/* SPDX-License-Identifier: Apache-2.0 */
#include "pcie/tlp_queue.h"

#include <stdlib.h>
#include <string.h>

int tlpq_init(struct tlpq *q, size_t cap)
{
    memset(q, 0, sizeof(*q));
    q->ring = malloc(cap * sizeof(*q->ring));
    q->cap = q->ring ? cap : 0;
    return q->ring ? 0 : -1;
}

void tlpq_destroy(struct tlpq *q)
{
    free(q->ring);
    memset(q, 0, sizeof(*q));
}

static int tlpq_grow(struct tlpq *q)
{
    size_t ncap = q->cap ? 2 * q->cap : 16, i;
    struct tlpq_entry *n = malloc(ncap * sizeof(*n));

    if (!n)
        return -1;
    for (i = 0; i < q->count; i++)
        n[i] = q->ring[(q->head + i) % q->cap];
    free(q->ring);
    q->ring = n;
    q->cap = ncap;
    q->head = 0;
    return 0;
}

struct tlp *tlpq_push(struct tlpq *q, sim_ps_t t)
{
    struct tlpq_entry *e;

    if (q->count == q->cap && tlpq_grow(q) != 0)
        return NULL;
    e = &q->ring[(q->head + q->count) % q->cap];
    q->count++;
    e->t = t;
    return &e->tlp;
}

const struct tlp *tlpq_peek(const struct tlpq *q)
{
    return q->count ? &q->ring[q->head].tlp : NULL;
}

void tlpq_pop(struct tlpq *q)
{
    if (q->count) {
        q->head = (q->head + 1) % q->cap;
        q->count--;
    }
}
