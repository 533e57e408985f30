/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rd_pool.h - how long the device's read pools were at their caps: read
 * tags (--tags), read bytes in flight (--max-read-bytes) and descriptor
 * fetches in flight (--desc-fetch-inflight).
 *
 * The harness sees a read take its tag when the device's MRd leaves the
 * device, and give it back when the device takes the read's last
 * completion: the same events the device's own counts move on.  A pool is
 * at its cap while no further read of its kind could start: every tag
 * taken; fewer than an MRRS of bytes left in the budget; every fetch slot
 * taken.  The time at each cap over the measured run tells a run that is
 * starved by a pool from one that waits on latency alone (metrics.c names
 * the bound from it).
 */
#ifndef NICTX_RD_POOL_H
#define NICTX_RD_POOL_H

#include <stdint.h>

#include "lib/simtime.h"

enum rd_pool_kind { RD_POOL_TAGS, RD_POOL_BYTES, RD_POOL_FETCHES, RD_POOL_COUNT };

struct rd_pool {
    unsigned cap_tags, cap_fetches; /* 0: no cap */
    uint32_t cap_bytes, mrrs;       /* cap_bytes 0: no budget */
    unsigned tags, fetches;         /* in flight now */
    uint64_t bytes;
    uint32_t len[256];              /* each tag's read length, 0: free */
    uint8_t desc[256];              /* ... and whether it fetches descriptors */
    unsigned full;                  /* bit per kind: at its cap now */
    sim_ps_t since;                 /* when the counting (re)started or `full` changed */
    sim_ps_t full_ps[RD_POOL_COUNT];
};

void rd_pool_init(struct rd_pool *p, unsigned tags, unsigned fetches, uint32_t max_bytes,
                  uint32_t mrrs);
/* Count the time at each cap from `now` on (the measured run's start). */
void rd_pool_restart(struct rd_pool *p, sim_ps_t now);
/* An MRd of `len` bytes with `tag` left the device at now; a tag already
 * taken is given back first. */
void rd_pool_issue(struct rd_pool *p, unsigned tag, uint32_t len, int desc, sim_ps_t now);
/* The device took tag's last completion at now (a free tag: nothing). */
void rd_pool_done(struct rd_pool *p, unsigned tag, sim_ps_t now);
/* Time at kind's cap from the restart up to `end`. */
sim_ps_t rd_pool_full_ps(const struct rd_pool *p, enum rd_pool_kind kind, sim_ps_t end);
/* "tags", "read_bytes", "fetches". */
const char *rd_pool_name(enum rd_pool_kind kind);

#endif /* NICTX_RD_POOL_H */
