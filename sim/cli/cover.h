/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cover.h - the functional cover points added up over runs: `nictx cover`,
 * which make regress and make coverage run (docs/coverage.md).
 *
 *   nictx cover [--require P,...] RUN.json...   the points' totals over the
 *       runs' JSON ("cover" object), how many were hit, and each point never
 *       hit with what it stands for (a per-queue point's never-hit queues as
 *       a range: queue_active[27..63]); --require: exit 1 unless every point
 *       named (name or name[q]) was hit, naming the ones that were not.
 *   nictx cover --list                           the list (lib/cover.h): a
 *       line a point, "name<TAB>instances<TAB>where<TAB>what".
 *
 * The device's points count only in runs whose device counts them (the C
 * model: --device c or lockstep; "cover_dev" below); with none, the report
 * says so instead of listing them as never hit.  Exit status: 0; 1 when a
 * --require point was not hit; 2 on bad usage, or a file that is not a
 * run's JSON with a "cover" object.
 *
 * Contract: no global state; a struct cover_sum owns the totals.
 */
#ifndef NICTX_CLI_COVER_H
#define NICTX_CLI_COVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/cover.h"

struct cover_sum {
    uint64_t count[COVER_N];
    unsigned runs;
    bool cover_dev; /* some run counted the device's points */
};

/* Point i's (< COVER_N) name ("ring_wrap", "queue_active[3]") into buf;
 * its list entry's where (enum cover_where) and what, if not NULL. */
void cover_point(unsigned i, char *buf, size_t n, unsigned *where, const char **what);
/* The index of a point by name (as cover_point writes it), or -1. */
int cover_find(const char *name);

void cover_sum_init(struct cover_sum *s);
/* Add one run's JSON: 0, or -1 with a message in err. */
int cover_sum_add_json(struct cover_sum *s, const char *path, char *err, size_t errlen);
/* Points hit / counted (the device's only with cover_dev). */
unsigned cover_sum_hit(const struct cover_sum *s, unsigned *counted);
/* The summary line and the never-hit points, as `nictx cover` prints them. */
void cover_sum_report(const struct cover_sum *s, FILE *f);

int cli_cover_main(int argc, char **argv);

#endif /* NICTX_CLI_COVER_H */
