/* SPDX-License-Identifier: Apache-2.0 */
/* lat_hist.c - exact paged latency histogram (lat_hist.h). */
#include "check/lat_hist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LAT_HIST_DIR_INIT 16u /* pages in the first directory: 65.5 us */

struct lat_hist_page {
    uint64_t count; /* samples in this page */
    uint64_t bin[LAT_HIST_PAGE];
};

int lat_hist_init(struct lat_hist *h)
{
    memset(h, 0, sizeof(*h));
    h->dir = calloc(LAT_HIST_DIR_INIT, sizeof *h->dir);
    if (!h->dir)
        return -1;
    h->dir_n = LAT_HIST_DIR_INIT;
    return 0;
}

void lat_hist_free(struct lat_hist *h)
{
    if (h->dir)
        for (size_t p = 0; p < h->dir_n; p++)
            free(h->dir[p]);
    free(h->dir);
    memset(h, 0, sizeof(*h));
}

/* Make the directory hold page p (doubling): 0, or -1 if memory is short. */
static int lat_hist_grow(struct lat_hist *h, uint64_t p)
{
    size_t n = h->dir_n ? h->dir_n : LAT_HIST_DIR_INIT;
    while (n <= p) {
        if (n > SIZE_MAX / 2 / sizeof *h->dir)
            return -1;
        n *= 2;
    }
    struct lat_hist_page **d = realloc(h->dir, n * sizeof *d);
    if (!d)
        return -1;
    memset(d + h->dir_n, 0, (n - h->dir_n) * sizeof *d);
    h->dir = d;
    h->dir_n = n;
    return 0;
}

void lat_hist_add(struct lat_hist *h, sim_ps_t lat)
{
    uint64_t ns = lat / SIM_PS_PER_NS, p = ns / LAT_HIST_PAGE;

    h->count++;
    if (lat > h->max)
        h->max = lat;
    if (ns >= LAT_HIST_MAX_NS || (p >= h->dir_n && lat_hist_grow(h, p) != 0)) {
        h->unrecorded++;
        return;
    }
    struct lat_hist_page *pg = h->dir[p];
    if (!pg) {
        pg = calloc(1, sizeof *pg);
        if (!pg) {
            h->unrecorded++;
            return;
        }
        h->dir[p] = pg;
    }
    pg->bin[ns % LAT_HIST_PAGE]++;
    pg->count++;
}

double lat_hist_quantile(const struct lat_hist *h, uint64_t num, uint64_t den)
{
    if (h->count == 0 || h->unrecorded != 0)
        return NAN;
    /* ceil(num * count / den), split so that it cannot overflow */
    uint64_t target = (h->count / den) * num + ((h->count % den) * num + den - 1) / den;
    if (target == 0)
        target = 1;
    uint64_t cum = 0;
    for (size_t p = 0; p < h->dir_n; p++) {
        const struct lat_hist_page *pg = h->dir[p];
        if (!pg)
            continue;
        if (cum + pg->count < target) {
            cum += pg->count;
            continue;
        }
        for (unsigned i = 0; i < LAT_HIST_PAGE; i++) {
            cum += pg->bin[i];
            if (cum >= target)
                return (double)((uint64_t)p * LAT_HIST_PAGE + i);
        }
    }
    return NAN; /* not reached: the pages hold count samples */
}

double lat_hist_max_ns(const struct lat_hist *h)
{
    return h->count ? (double)h->max / (double)SIM_PS_PER_NS : NAN;
}
