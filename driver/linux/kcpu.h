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
#define KCPU_SKIPS 2

struct kcpu {
    struct platform *plat; /* the CPU's platform (driver/platform.h) */
    int xmit_more;         /* softnet_data.xmit.more: the stack promises
                              another packet (netdev_xmit_more) */
    int no_kcsan;          /* inside data_race(): accesses not modelled */
    /* Where the platform models accesses (kcsan.c asks it about these
     * only): with `windowed` set, [win_lo[i], win_lo[i] + win_len[i]) for
     * i < KCPU_WINDOWS and the __iomem cookies (linux/io.h); everywhere
     * otherwise.  An access elsewhere is private (the stack, the driver's
     * private memory) and costs a few comparisons. */
    int windowed;
    uintptr_t win_lo[KCPU_WINDOWS], win_len[KCPU_WINDOWS];
    /* Inside window 1, ranges the platform found private (the gaps
     * between many regions of driver state): not announced either. */
    uintptr_t skip_lo[KCPU_SKIPS], skip_len[KCPU_SKIPS];
    unsigned skip_next;
};

/* Make `k` (NULL: none) current on this thread; the one it replaces. */
struct kcpu *kcpu_swap(struct kcpu *k);
/* The current kcpu, or NULL. */
struct kcpu *kcpu_this(void);
/* The current kcpu's platform; aborts, saying so, when there is none (a
 * kernel-layer call made outside a simulated CPU). */
struct platform *kcpu_plat(void);

#endif /* NICTX_KCPU_H */
