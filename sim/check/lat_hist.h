/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lat_hist.h - an exact latency histogram: 1 ns bins below LAT_HIST_MAX_NS
 * (17.2 s), in pages of LAT_HIST_PAGE bins (32 KiB, 4.096 us) allocated
 * when a sample first lands in them, under a directory of 8 B per page that
 * doubles as needed.
 *
 * Memory is bounded by the largest sample L: at most ceil(L / 4.096 us)
 * pages and never more pages than samples, plus a directory of at most
 * max(16, 2 * L / 4.096 us) pointers (about 4 KB per ms of L, under 32 MB
 * for any L below LAT_HIST_MAX_NS).  Samples spanning a few microseconds
 * need one or two pages.  lat_hist_add allocates only for a page not seen
 * before.
 */
#ifndef NICTX_LAT_HIST_H
#define NICTX_LAT_HIST_H

#include <stddef.h>
#include <stdint.h>

#include "lib/simtime.h"

#define LAT_HIST_PAGE 4096u            /* 1 ns bins per page */
#define LAT_HIST_MAX_NS (1ull << 34)   /* samples binned: below 17.2 s */

struct lat_hist_page;

struct lat_hist {
    struct lat_hist_page **dir; /* NULL entries until a sample lands there */
    size_t dir_n;
    uint64_t count;      /* samples added */
    uint64_t unrecorded; /* of which not binned (too long, or memory short) */
    sim_ps_t max;        /* the largest, exact */
};

/* Empty: 0, or -1 if memory is short. */
int lat_hist_init(struct lat_hist *h);
void lat_hist_free(struct lat_hist *h); /* a zeroed one is fine */
/* One sample; one of LAT_HIST_MAX_NS or more, or one that finds memory
 * short, is counted (and in max) but not binned. */
void lat_hist_add(struct lat_hist *h, sim_ps_t lat);
/* The lower edge (ns) of the 1 ns bin where the cumulative count first
 * reaches ceil(num / den * count): that sample rounded down to the ns.
 * NAN without samples, or if any sample is not binned. */
double lat_hist_quantile(const struct lat_hist *h, uint64_t num, uint64_t den);
/* The largest sample in ns (ps resolution); NAN without samples. */
double lat_hist_max_ns(const struct lat_hist *h);

#endif /* NICTX_LAT_HIST_H */
