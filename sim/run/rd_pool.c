/* SPDX-License-Identifier: Apache-2.0 */
/* rd_pool.c - time at the device's read pool caps (rd_pool.h). */
#include "run/rd_pool.h"

#include <string.h>

void rd_pool_init(struct rd_pool *p, unsigned tags, unsigned fetches, uint32_t max_bytes,
                  uint32_t mrrs)
{
    memset(p, 0, sizeof(*p));
    p->cap_tags = tags;
    p->cap_fetches = fetches;
    p->cap_bytes = max_bytes;
    p->mrrs = mrrs;
}

/* Book the time since the last change to the caps that held, then look
 * at the caps again. */
static void rd_pool_update(struct rd_pool *p, sim_ps_t now)
{
    unsigned full = 0;

    if (now > p->since) {
        for (unsigned k = 0; k < RD_POOL_COUNT; k++)
            if (p->full & (1u << k))
                p->full_ps[k] += now - p->since;
        p->since = now;
    }
    if (p->cap_tags && p->tags >= p->cap_tags)
        full |= 1u << RD_POOL_TAGS;
    if (p->cap_bytes && p->bytes + p->mrrs > p->cap_bytes)
        full |= 1u << RD_POOL_BYTES;
    if (p->cap_fetches && p->fetches >= p->cap_fetches)
        full |= 1u << RD_POOL_FETCHES;
    p->full = full;
}

void rd_pool_restart(struct rd_pool *p, sim_ps_t now)
{
    memset(p->full_ps, 0, sizeof(p->full_ps));
    p->since = now;
}

static void rd_pool_free_tag(struct rd_pool *p, unsigned tag)
{
    if (!p->len[tag])
        return;
    p->tags--;
    p->bytes -= p->len[tag];
    p->fetches -= p->desc[tag];
    p->len[tag] = 0;
    p->desc[tag] = 0;
}

void rd_pool_issue(struct rd_pool *p, unsigned tag, uint32_t len, int desc, sim_ps_t now)
{
    tag &= 0xffu;
    rd_pool_free_tag(p, tag);
    p->len[tag] = len ? len : 1;
    p->desc[tag] = desc ? 1 : 0;
    p->tags++;
    p->bytes += p->len[tag];
    p->fetches += p->desc[tag];
    rd_pool_update(p, now);
}

void rd_pool_done(struct rd_pool *p, unsigned tag, sim_ps_t now)
{
    tag &= 0xffu;
    if (!p->len[tag])
        return;
    rd_pool_free_tag(p, tag);
    rd_pool_update(p, now);
}

sim_ps_t rd_pool_full_ps(const struct rd_pool *p, enum rd_pool_kind kind, sim_ps_t end)
{
    sim_ps_t t = p->full_ps[kind];

    if ((p->full & (1u << kind)) && end > p->since)
        t += end - p->since;
    return t;
}

const char *rd_pool_name(enum rd_pool_kind kind)
{
    static const char *const names[RD_POOL_COUNT] = {"tags", "read_bytes", "fetches"};
    return (unsigned)kind < RD_POOL_COUNT ? names[kind] : "?";
}
