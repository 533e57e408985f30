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

struct platform;

struct kcpu {
    struct platform *plat; /* the CPU's platform (driver/platform.h) */
    int xmit_more;         /* softnet_data.xmit.more: the stack promises
                              another packet (netdev_xmit_more) */
    int no_kcsan;          /* inside data_race(): accesses not modelled */
};

/* Make `k` (NULL: none) current on this thread; the one it replaces. */
struct kcpu *kcpu_swap(struct kcpu *k);
/* The current kcpu, or NULL. */
struct kcpu *kcpu_this(void);
/* The current kcpu's platform; aborts, saying so, when there is none (a
 * kernel-layer call made outside a simulated CPU). */
struct platform *kcpu_plat(void);

#endif /* NICTX_KCPU_H */
