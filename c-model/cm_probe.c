/* SPDX-License-Identifier: Apache-2.0 */
/* cm_probe.c - the C model's signals by the RTL's names (cm_probe.h). */
#include "cm_probe.h"

#include <stdio.h>

#define CM_PROBE_DEF(id, scope, name, width) {scope, name, width},
static const struct cm_probe_def defs[CM_P_TAIL0] = {CM_PROBE_SIGNALS(CM_PROBE_DEF)};
#undef CM_PROBE_DEF

void cm_probe_def(unsigned i, struct cm_probe_def *d, char *name_buf, unsigned n)
{
    if (i < CM_P_TAIL0) {
        *d = defs[i];
        return;
    }
    snprintf(name_buf, n, "tail_m[%u]", i - CM_P_TAIL0);
    d->scope = "u_regs";
    d->name = name_buf;
    d->width = 16;
}
