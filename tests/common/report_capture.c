/* SPDX-License-Identifier: Apache-2.0 */
/* report_capture.c - a run's report as a string (report_capture.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "cli/report.h"
#include "common/report_capture.h"

char *report_capture(const struct sim_cfg *cfg, const struct sim_result *r, int rc,
                     const char *diag, int json)
{
    FILE *f = tmpfile();
    long n;
    char *buf;

    assert_non_null(f);
    if (json)
        assert_int_equal(report_json(f, cfg, r, rc, diag, "rtl"), 0);
    else
        report_text(f, cfg, r, rc, diag);
    n = ftell(f);
    assert_true(n > 0);
    rewind(f);
    buf = test_malloc((size_t)n + 1);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    return buf;
}
