/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dmachk.c - the DMA-API debug checks (see dmachk.h).
 */
#include "check/dmachk.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DMACHK_CAP0 1024u

static const char *const dmachk_dir_name[] = {"DMA_BIDIRECTIONAL", "DMA_TO_DEVICE",
                                              "DMA_FROM_DEVICE", "DMA_NONE"};

static const char *dir_name(unsigned dir)
{
    return dir < 4 ? dmachk_dir_name[dir] : "an unknown direction";
}

static double ns(sim_ps_t t) { return (double)t / 1000.0; }

/* splitmix64's finaliser: buffers lie at multiples of 64, spread them. */
static size_t dmachk_hash(uint64_t bus, size_t cap)
{
    bus ^= bus >> 30;
    bus *= 0xbf58476d1ce4e5b9ull;
    bus ^= bus >> 27;
    bus *= 0x94d049bb133111ebull;
    bus ^= bus >> 31;
    return (size_t)bus & (cap - 1);
}

/* The entry of `bus`, or the empty one where it would go (NULL: no table). */
static struct dmachk_map *dmachk_slot(const struct dmachk *d, uint64_t bus)
{
    size_t i;

    if (!d->tab)
        return NULL;
    for (i = dmachk_hash(bus, d->cap); d->tab[i].bus != 0 && d->tab[i].bus != bus;
         i = (i + 1) & (d->cap - 1))
        ;
    return &d->tab[i];
}

/* Room for one more address; -1 when the table cannot grow. */
static int dmachk_room(struct dmachk *d)
{
    struct dmachk_map *old = d->tab;
    size_t n = d->cap;

    if (d->tab && 2 * (d->used + 1) <= d->cap)
        return 0;
    d->cap = d->cap ? 2 * d->cap : DMACHK_CAP0;
    d->tab = calloc(d->cap, sizeof(*d->tab));
    if (!d->tab) {
        d->tab = old;
        d->cap = n;
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (old[i].bus)
            *dmachk_slot(d, old[i].bus) = old[i];
    free(old);
    return 0;
}

void dmachk_init(struct dmachk *d, ownchk_report_fn report, void *ctx, unsigned queue)
{
    memset(d, 0, sizeof(*d));
    d->report = report;
    d->ctx = ctx;
    d->queue = queue;
}

void dmachk_destroy(struct dmachk *d)
{
    free(d->tab);
    d->tab = NULL;
    d->cap = d->used = 0;
}

void dmachk_map(struct dmachk *d, uint64_t bus, size_t len, unsigned dir)
{
    struct dmachk_map *m;

    d->maps++;
    if (bus == 0 || d->nomem)
        return;
    if (dmachk_room(d) != 0) {
        d->nomem = 1;
        return;
    }
    m = dmachk_slot(d, bus);
    if (m->bus == 0) {
        m->bus = bus;
        d->used++;
    }
    m->len = (uint32_t)len;
    m->dir = (uint8_t)dir;
    m->live++;
    d->live++;
}

static void say(struct dmachk *d, const char *kind, sim_ps_t t, uint64_t bus, size_t len,
                const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void say(struct dmachk *d, const char *kind, sim_ps_t t, uint64_t bus, size_t len,
                const char *fmt, ...)
{
    char access[64], detail[320];
    va_list ap;

    snprintf(access, sizeof(access), "dma_unmap 0x%" PRIx64 " %zu B", bus, len);
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    d->report(d->ctx, d->queue, kind, t, -1, access, detail);
}

void dmachk_unmap(struct dmachk *d, uint64_t bus, size_t len, unsigned dir, sim_ps_t t)
{
    struct dmachk_map *m = d->nomem ? NULL : dmachk_slot(d, bus);

    d->unmaps++;
    if (d->nomem)
        return;
    if (m == NULL || m->bus == 0) {
        say(d, "dma_unmap_unknown", t, bus, len,
            "the driver unmapped 0x%" PRIx64 " (%zu B) at %.1f ns, an address it never "
            "mapped: a bad address kept for the unmap? (DMA-API: device driver tries to free "
            "DMA memory it has not allocated)", bus, len, ns(t));
        return;
    }
    if (m->live == 0) {
        say(d, "dma_unmap_twice", t, bus, len,
            "the driver unmapped 0x%" PRIx64 " (%zu B) at %.1f ns, but its mapping was "
            "unmapped already at %.1f ns: a double unmap (the cleanup and another path "
            "both freeing the buffer?)", bus, len, ns(t), ns(m->unmap_t));
        return;
    }
    m->live--;
    d->live--;
    m->unmap_t = t;
    if (len != m->len)
        say(d, "dma_unmap_size", t, bus, len,
            "the driver unmapped 0x%" PRIx64 " with %zu B at %.1f ns, but mapped it with "
            "%" PRIu32 " B: the length kept for the unmap is wrong (DMA-API: device driver "
            "frees DMA memory with different size)", bus, len, ns(t), m->len);
    else if (dir != m->dir)
        say(d, "dma_unmap_dir", t, bus, len,
            "the driver unmapped 0x%" PRIx64 " as %s at %.1f ns, but mapped it as %s "
            "(DMA-API: device driver frees DMA memory with different direction)", bus,
            dir_name(dir), ns(t), dir_name(m->dir));
}

int dmachk_final(struct dmachk *d, uint64_t carried, sim_ps_t t)
{
    const struct dmachk_map *m = NULL;
    char detail[320];

    if (d->nomem || d->live <= carried)
        return 0;
    for (size_t i = 0; i < d->cap && !m; i++) /* one of them, to name */
        if (d->tab[i].bus != 0 && d->tab[i].live != 0)
            m = &d->tab[i];
    snprintf(detail, sizeof(detail),
             "%" PRIu64 " DMA mappings live at the end of the run, but only %" PRIu64
             " descriptors still carry a buffer: %" PRIu64 " were never unmapped (one live: "
             "0x%" PRIx64 ", %" PRIu32 " B): a path that frees buffers without "
             "dma_unmap_single() (a mapping leak)", d->live, carried, d->live - carried,
             m ? m->bus : 0, m ? m->len : 0);
    d->report(d->ctx, d->queue, "dma_map_leak", t, -1, "end of run", detail);
    return 1;
}
