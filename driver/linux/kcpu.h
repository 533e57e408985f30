/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kcpu.h - the CPU that runs driver code, as the kernel layer
 * (driver/linux/) sees it.
 *
 * Kernel code never names its CPU: wmb(), writel(), netdev_xmit_more() and
 * every load and store the compiler instruments act on "this CPU".  The
 * layer finds it here.  A platform that runs driver code owns one struct
 * kcpu per simulated CPU and makes it current on the host thread whenever
 * that CPU's code runs: the simulator at every switch to a CPU's coroutine
 * (sim/run/cpu_sched.c), the unit tests' fake for as long as it lives, the
 * SystemC platform in its host thread.
 *
 * The current kcpu is the one piece of mutable state outside a context
 * struct in nictx: a thread-local pointer (driver/linux/kcsan.c), as the
 * kernel's own `current` and KCSAN's per-task context are per-CPU state
 * the scheduler switches.  It is what the compiler's instrumentation
 * calls (__tsan_read4(addr): an address, no context) can reach.  It holds
 * nothing but the pointer: every kcpu belongs to its platform, so two
 * simulations in one process (in one thread, each switching it at its
 * coroutine switches, or in two threads, one pointer each) never see each
 * other's.  With no kcpu current (harness code outside a CPU), accesses
 * are not modelled and a layer call that needs a CPU aborts.
 */
#ifndef NICTX_KCPU_H
#define NICTX_KCPU_H

#include <stdint.h>

struct platform;

#define KCPU_WINDOWS 4
#define KCPU_MAP_MODELLED 0x80000000u /* win_map: the granule holds modelled state */

struct kcpu {
    struct platform *plat; /* the CPU's platform (driver/platform.h) */
    int xmit_more;         /* softnet_data.xmit.more: the stack promises
                              another packet (netdev_xmit_more) */
    int no_kcsan;          /* inside data_race(): accesses not modelled */
    /* Where the platform models accesses (kcsan.c asks it about these
     * only): with `windowed` set, [win_lo[i], win_lo[i] + win_len[i]) for
     * i < KCPU_WINDOWS and the __iomem cookies (linux/io.h); everywhere
     * otherwise (a zeroed kcpu: every window empty).  An access elsewhere
     * is private (the stack, the driver's private memory) and costs a few
     * comparisons. */
    int windowed;
    uintptr_t win_lo[KCPU_WINDOWS], win_len[KCPU_WINDOWS];
    /* Window 1, when not empty, by granules: granule g, the bytes
     * [win_lo[1] + (g << win_shift), + 1 << win_shift), holds no state the
     * platform models unless win_map[g] has KCPU_MAP_MODELLED set; an
     * access in such a granule is private too (the driver's memory
     * between many regions of driver state).  The other bits of an entry
     * are the platform's.  Invariant: win_map is set whenever win_len[1]
     * is not 0 (kcpu_map_all: every byte modelled), and a granule any
     * modelled byte of window 1 falls in has the bit set. */
    const uint32_t *win_map;
    unsigned win_shift;
};

/* A map of window 1 as one granule, modelled throughout: win_map for a
 * window without a map of its own, with win_shift KCPU_MAP_ALL_SHIFT. */
static const uint32_t kcpu_map_all[1] = {KCPU_MAP_MODELLED};
#define KCPU_MAP_ALL_SHIFT (sizeof(uintptr_t) * 8 - 1)

/* Whether an access at `a` must be announced to k's platform: inside a
 * window (window 1 less the granules its map says are private) or an
 * __iomem cookie (whose top 16 bits are 0xd1c0, BAR0, or 0xd1c1, the WC
 * BAR: linux/io.h, driver/linux/kapi.c), or anywhere when k is not
 * windowed.  The two windows most accesses fall in are asked first. */
static inline int kcpu_models(const struct kcpu *k, uintptr_t a)
{
    if (a - k->win_lo[0] < k->win_len[0])
        return 1;
    if (a - k->win_lo[1] < k->win_len[1])
        return (k->win_map[(a - k->win_lo[1]) >> k->win_shift] & KCPU_MAP_MODELLED) != 0;
    return !k->windowed || a - k->win_lo[2] < k->win_len[2] || a - k->win_lo[3] < k->win_len[3] ||
           (a >> 49) == (0xd1c0u >> 1);
}

/* Make `k` (NULL: none) current on this thread; the one it replaces. */
struct kcpu *kcpu_swap(struct kcpu *k);
/* The current kcpu, or NULL. */
struct kcpu *kcpu_this(void);
/* The current kcpu's platform; aborts, saying so, when there is none (a
 * kernel-layer call made outside a simulated CPU). */
struct platform *kcpu_plat(void);

#endif /* NICTX_KCPU_H */
