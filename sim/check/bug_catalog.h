/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bug_catalog.h - the catalogue of deliberately broken drivers
 * (driver/drv_bug.h): for each, its command-line name, what it gets wrong,
 * the scenario in which it bites, and the diagnostic (sim/check/ownchk.h or the
 * root complex) that must name it.  `nictx run --driver-bug list` prints
 * it; tests/sim/test_sim.c runs every entry; docs/driver-validation.md explains
 * it.  Read-only data: no state.
 */
#ifndef NICTX_BUG_CATALOG_H
#define NICTX_BUG_CATALOG_H

#include <stddef.h>
#include <stdio.h>

#include "drv_bug.h"
#include "host/stbuf.h"
#include "txq.h"

struct bug_entry {
    enum drv_bug bug;
    const char *name;            /* --driver-bug NAME */
    const char *what;            /* what the broken driver does */
    enum txq_proto proto;        /* the scenario in which it bites */
    enum stbuf_order ordering;
    unsigned burst;
    const char *expect;          /* the violation kind that names it */
    unsigned pkt_size;           /* frame size of the scenario (0: the default) */
    unsigned cpus;               /* CPUs of the scenario (0: the default) */
    int bql;                     /* the scenario runs with --bql on */
    enum txq_clean_mode clean;   /* its completion mode (0: head-wb, the default) */
    unsigned explore;            /* schedules it needs (--explore N; 0: a plain run) */
};

/* The entries, DRV_BUG_NONE excluded; *n gets their number. */
const struct bug_entry *bug_catalog(size_t *n);
/* The entry called `name`, or NULL. */
const struct bug_entry *bug_find(const char *name);
/* The --driver-bug name of `bug` ("none" for DRV_BUG_NONE). */
const char *bug_name(enum drv_bug bug);
/* One line per entry: name, scenario, expected diagnostic, description. */
void bug_catalog_print(FILE *f);

#endif /* NICTX_BUG_CATALOG_H */
