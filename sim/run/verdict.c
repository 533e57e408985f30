/* SPDX-License-Identifier: Apache-2.0 */
/*
 * verdict.c - a run's verdict, in one place (see verdict.h).
 */
#include "run/verdict.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "run/fault.h"
#include "run/harness.h"
#include "check/bug_catalog.h"

static void set(struct sim_verdict *v, enum sim_status st, const char *name, const char *heading)
{
    v->status = st;
    v->name = name;
    v->heading = heading;
    v->exit = st == SIM_STATUS_OK ? 0 : 1;
}

/* Every frame is accounted for: checked intact on the wire, or dropped by
 * an injected fault; none lost, corrupted or dropped by a reset no fault
 * explains. */
static int frames_clean(const struct sim_cfg *cfg, const struct sim_result *r)
{
    return r->sb.lost == 0 && r->sb.corrupted == 0 && r->sb.dropped[SIM_DROP_RESET] == 0 &&
           r->sb.checked + r->sb.dropped_total == cfg->packets;
}

static void frames_why(const struct sim_cfg *cfg, const struct sim_result *r, char *buf,
                       size_t len)
{
    uint64_t seen = r->sb.checked + r->sb.dropped_total;

    snprintf(buf, len,
             "%" PRIu64 " frame%s lost, %" PRIu64 " corrupted, %" PRIu64 " dropped by a queue "
             "reset no fault explains, %" PRIu64 " of %" PRIu64 " never accounted for; no "
             "protocol violation was seen, so the cause is outside what the checkers name",
             r->sb.lost, r->sb.lost == 1 ? "" : "s", r->sb.corrupted,
             r->sb.dropped[SIM_DROP_RESET], seen < cfg->packets ? cfg->packets - seen : 0,
             cfg->packets);
}

void sim_verdict_of(const struct sim_cfg *cfg, int rc, const struct sim_result *r,
                    const char *diag, struct sim_verdict *v)
{
    v->why[0] = '\0';
    if (rc < 0) {
        set(v, SIM_STATUS_FAILED, "failed", "RUN FAILED");
        snprintf(v->why, sizeof(v->why), "%s", diag && *diag ? diag : "the run did not end");
    } else if (rc > 0) {
        set(v, SIM_STATUS_VIOLATION, "violation", "RUN STOPPED");
        snprintf(v->why, sizeof(v->why), "%s", diag && *diag ? diag : "a protocol violation");
    } else if (!frames_clean(cfg, r)) {
        set(v, SIM_STATUS_UNCLEAN, "unclean", "RUN UNCLEAN");
        frames_why(cfg, r, v->why, sizeof(v->why));
    } else if (r->resets > 0 && r->faults_fired == 0) {
        set(v, SIM_STATUS_UNCLEAN, "unclean", "RUN UNCLEAN");
        snprintf(v->why, sizeof(v->why),
                 "the hang check reset the adapter %" PRIu64 " time%s with no fault injected: "
                 "a healthy queue went longer than the tx timeout without a completion (a "
                 "--tx-timeout-us too short for the configuration), or the device hung",
                 r->resets, r->resets == 1 ? "" : "s");
    } else if (drv_bug_one_shot(cfg->bug) && !r->bug_fired) {
        set(v, SIM_STATUS_BUG_NOT_REACHED, "bug_not_reached", "DRIVER BUG NOT REACHED");
        snprintf(v->why, sizeof(v->why),
                 "--driver-bug %s acts once, at its first occasion from packet --bug-at %" PRIu64
                 " on, and none came in this run: it tested nothing (an earlier --bug-at, more "
                 "--packets or the bug's scenario in --driver-bug list)",
                 bug_name(cfg->bug), cfg->bug_at);
    } else {
        set(v, SIM_STATUS_OK, "ok", NULL);
    }
}

void sim_verdict_not_started(const char *err, struct sim_verdict *v)
{
    set(v, SIM_STATUS_FAILED, "failed", "RUN FAILED");
    snprintf(v->why, sizeof(v->why), "%s", err && *err ? err : "the run could not start");
}

int sim_result_clean(const struct sim_cfg *cfg, int rc, const struct sim_result *r)
{
    struct sim_verdict v;

    sim_verdict_of(cfg, rc, r, "", &v);
    return v.exit == 0;
}

const char *sim_verdict(const struct sim_cfg *cfg, int rc, const struct sim_result *r)
{
    struct sim_verdict v;

    sim_verdict_of(cfg, rc, r, "", &v);
    return v.name;
}
