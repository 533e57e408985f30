/* SPDX-License-Identifier: Apache-2.0 */
/*
 * nictx/cpu_work.h - the one nictx call a port adds, where it wants the
 * CPU time of the code around it in the figures: the instrumentation sees
 * memory accesses, barriers and MMIO, not the instructions between them,
 * so the per-packet work of the stack and the driver is charged from the
 * CPU's cost table (docs/model.md: xmit_pkt_ns, clean_poll_ns,
 * clean_desc_ns).  A port without it runs and is checked the same; its
 * throughput counts only what the memory system costs.
 */
#ifndef _NICTX_CPU_WORK_H
#define _NICTX_CPU_WORK_H

#include "linux/nictx_layer.h"

#define NICTX_WORK_XMIT_PKT PLAT_WORK_XMIT_PKT     /* a transmit, once it will post */
#define NICTX_WORK_CLEAN_POLL PLAT_WORK_CLEAN_POLL /* a cleanup pass */
#define NICTX_WORK_CLEAN_DESC PLAT_WORK_CLEAN_DESC /* a descriptor reclaimed */

static inline void nictx_cpu_work(enum plat_work what)
{
    plat_cpu_work(kcpu_plat(), what, 1);
}

#endif
