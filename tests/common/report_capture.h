/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report_capture.h - a run's report as a string, for the cmocka tests that
 * check what the table and the JSON say (tests/sim/test_sim.c,
 * tests/sim/test_ownership.c).
 */
#ifndef NICTX_TESTS_REPORT_CAPTURE_H
#define NICTX_TESTS_REPORT_CAPTURE_H

#include "run/harness.h"

/* The run's text table (json 0) or JSON (json 1), as report_text() and
 * report_json() write them for exit status rc and diagnosis diag (sim/
 * report.h), NUL-terminated; the caller test_free()s it.  A failed write
 * fails the test. */
char *report_capture(const struct sim_cfg *cfg, const struct sim_result *r, int rc,
                     const char *diag, int json);

#endif
