/* SPDX-License-Identifier: Apache-2.0 */
/* linux/ktime.h - the CPU's clock, for nictx's kernel layer: the
 * simulated CPU's time (plat_time_ns). */
#ifndef _NICTX_LINUX_KTIME_H
#define _NICTX_LINUX_KTIME_H

#include "linux/nictx_layer.h"
#include "linux/types.h"

static inline u64 ktime_get_ns(void)
{
    return plat_time_ns(kcpu_plat());
}

unsigned long nictx_jiffies(void) NICTX_UNMODELLED("jiffies (use ktime_get_ns)");
#define jiffies nictx_jiffies()

#endif
