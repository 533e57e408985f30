/* SPDX-License-Identifier: Apache-2.0 */
/* cm_fifo.c - rtl/prim_fifo_sync.sv in the C model (cm_fifo.h). */
#include "cm_fifo.h"

#include <string.h>

int cm_fifo_init(struct cm_fifo *f, unsigned depth)
{
    if (depth < 2 || depth > CM_FIFO_MAX_DEPTH || (depth & (depth - 1)) != 0)
        return -1;
    memset(f, 0, sizeof(*f));
    f->depth = depth;
    return 0;
}

void cm_fifo_reset(struct cm_fifo *f)
{
    f->wptr = 0;
    f->rptr = 0;
}

void cm_fifo_clock(struct cm_fifo *f, bool wvalid, uint64_t wdata, bool rready)
{
    bool push = wvalid && cm_fifo_wready(f);
    bool pop = rready && cm_fifo_rvalid(f);

    if (push)
        f->mem[f->wptr++ & (f->depth - 1)] = wdata;
    if (pop)
        f->rptr++;
}
