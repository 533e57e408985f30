/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report.h - what a run reports: a table for people, JSON for programs.
 *
 * The JSON's top-level keys are a stable interface (docs/architecture.md, Results):
 * config, mpps, gbps, bound, packets, cpu_ns_per_pkt, pcie_bytes_per_pkt,
 * doorbells_per_pkt, desc_fetches_per_pkt, irqs_per_pkt, latency_ns,
 * violations, sim.  Keys are added, never renamed.  Wall-clock figures
 * appear only under "sim", so two runs of one config compare equal with
 * `cmp` once "sim" is removed.
 */
#ifndef NICTX_REPORT_H
#define NICTX_REPORT_H

#include <stdio.h>

#include "run/harness.h"
#include "run/verdict.h"

/* status: sim_run()'s return; diag: sim_diag().  The verdict each shows
 * is sim_verdict_of()'s (run/verdict.h), as is the exit status. */
void report_text(FILE *f, const struct sim_cfg *cfg, const struct sim_result *r,
                 int status, const char *diag);
/* Write the JSON document to `f`.  0, or -1 on a write error. */
int report_json(FILE *f, const struct sim_cfg *cfg, const struct sim_result *r,
                int status, const char *diag, const char *model);
/* Write it to `path` atomically (temporary file, then rename).  0 or -1. */
int report_json_file(const char *path, const struct sim_cfg *cfg, const struct sim_result *r,
                     int status, const char *diag, const char *model);
/* A run that never started (sim_create failed, verdict v): the JSON holds
 * "config", "status" ("failed"), "diagnosis" and "sim" ("model") only.
 * Atomic as report_json_file.  0 or -1. */
int report_json_not_started(const char *path, const struct sim_cfg *cfg,
                            const struct sim_verdict *v, const char *model);

#endif /* NICTX_REPORT_H */
