/* SPDX-License-Identifier: Apache-2.0 */
/*
 * platform.h - the only way the driver touches the world.
 *
 * The driver (txq.c, pktgen.c) is written like a Linux netdev transmit path
 * and calls nothing but these functions.  The simulator implements them in
 * sim/run/platform_sim.c, where each call advances the simulated CPU's clock by
 * its modelled cost; unit tests implement them with a recording fake.  The
 * binding is at link time: exactly one implementation is linked into each
 * binary.  Every function takes the platform object first; there is no
 * global state.
 *
 * Memory model: the driver must be correct under the Linux kernel's rules,
 * whatever CPU it runs on.  Stores to DMA-coherent memory that the device
 * reads (descriptors) go through plat_store32/64: they stand for the plain
 * stores a Linux driver does (WRITE_ONCE).  They may become visible to the
 * device later than they are issued, and (on weakly ordered CPUs) in another
 * order, unless a barrier orders them:
 *  - plat_dma_wmb(): earlier stores to coherent memory are visible before
 *    later ones (x86: a compiler barrier; arm64: dmb oshst);
 *  - plat_wmb(): earlier stores of any kind, write-combining ones included,
 *    are visible before later stores and MMIO writes (x86: sfence; arm64:
 *    dsb st);
 *  - plat_smp_mb(): a full barrier (x86: lock addl).
 * The simulator (sim/host/stbuf.h) models what each costs and what goes wrong
 * without it; sim/check/ownchk.h names every ordering bug it sees.
 */
#ifndef NICTX_PLATFORM_H
#define NICTX_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t dma_addr_t;

struct platform;

/* Modelled CPU work that is not a memory-system operation. */
enum plat_work {
    PLAT_WORK_XMIT_PKT,    /* per-packet driver work in ndo_start_xmit */
    PLAT_WORK_CLEAN_DESC,  /* per-descriptor work in the completion cleanup */
    PLAT_WORK_CLEAN_POLL,  /* one cleanup pass (reading head, loop set-up) */
    PLAT_WORK_QDISC_PKT,   /* the qdisc's dequeue work per packet */
};

/* Posted uncached MMIO write to BAR0 at byte offset `off` (4-byte aligned).
 * It orders like writel_relaxed(): on a weakly ordered CPU it may pass
 * earlier stores to memory, so a doorbell needs plat_wmb() before it (as
 * ixgbe writes `wmb(); writel()`); on x86 it waits for them. */
void plat_mmio_write32(struct platform *p, uint32_t off, uint32_t val);
/* 64-bit write as one TLP (8-byte aligned `off`). */
void plat_mmio_write64(struct platform *p, uint32_t off, uint64_t val);
/* Write-combining copy of `len` bytes (a multiple of 8, 8-aligned `off`)
 * into BAR0 with 64-bit stores through a WC mapping (mlx4_bf_copy,
 * __iowrite64_copy).  The stores collect in the CPU's 64-byte WC buffers,
 * which drain to the link as whole lines when full, or when a plat_wmb()
 * (sfence) flushes them; without that fence they drain late and in any
 * order. */
void plat_mmio_copy_wc(struct platform *p, uint32_t off, const void *src, size_t len);
/* Uncached MMIO read: the CPU stalls until the device's completion returns. */
uint32_t plat_mmio_read32(struct platform *p, uint32_t off);

/* Store to DMA-coherent memory (`dst` from plat_dma_alloc). */
void plat_store32(struct platform *p, void *dst, uint32_t val);
void plat_store64(struct platform *p, void *dst, uint64_t val);
/* Load of a DMA-coherent location the device writes (head writeback). */
uint32_t plat_load32(struct platform *p, const void *src);

/* spin_lock / spin_unlock of `lock` (a word in memory the CPUs share).
 * spin_lock is a locked instruction: besides its own cost it waits until
 * the CPU's earlier uncached (posted) MMIO writes have left the core;
 * spin_unlock is a release store (x86) and does not wait.  A lock another
 * CPU holds makes spin_lock spin until it is released (the simulator keeps
 * the holder in the word: the caller only zeroes it before first use). */
void plat_spin_lock(struct platform *p, void *lock);
void plat_spin_unlock(struct platform *p, void *lock);

/* Barriers as the Linux kernel names them. */
void plat_dma_wmb(struct platform *p);
void plat_wmb(struct platform *p);
void plat_smp_mb(struct platform *p);
/* smp_wmb(): the CPU's earlier stores to shared driver state are visible
 * to other CPUs before its later ones (x86: a compiler barrier; arm64:
 * dmb ishst).  It does not order what the device sees: descriptors need
 * dma_wmb(), doorbells wmb().  smp_rmb(), and dma_rmb() for memory the device writes:
 * later loads are performed after earlier ones (x86: a compiler barrier;
 * arm64: dmb ishld / oshld).  Under weak ordering an explored run performs
 * some loads early; these (and smp_mb, acquire, the fully ordered
 * atomics, spin_lock, an MMIO read) stop that. */
void plat_smp_wmb(struct platform *p);
void plat_smp_rmb(struct platform *p);

/*
 * Driver state that CPUs share without a lock (ring indices, the stopped
 * flag): READ_ONCE / WRITE_ONCE, smp_load_acquire / smp_store_release.
 * A write enters the CPU's store buffer and reaches another CPU only when
 * it becomes visible, under the ordering model: TSO (x86) lets a later
 * load pass it; weak lets any later access to other bytes pass it.  A CPU
 * reads its own writes at once.  The simulator may switch CPUs at each of
 * these calls (and explores such switches, sim/host/explore.h).  Each costs
 * what the cache-line model says, as plat_cpu_touch.
 *  - plat_store_release32: every earlier store is visible first (x86: a
 *    plain store; arm64: stlr);
 *  - plat_load_acquire32: later loads stay after it (x86: a plain load;
 *    arm64: ldar).
 */
uint32_t plat_read_once32(struct platform *p, const uint32_t *src);
void plat_write_once32(struct platform *p, uint32_t *dst, uint32_t val);
uint32_t plat_load_acquire32(struct platform *p, const uint32_t *src);
void plat_store_release32(struct platform *p, uint32_t *dst, uint32_t val);

/*
 * Bit operations on a word of shared driver state (Linux bitops, as the
 * kernel's queue state bits use them; driver/netdev.h).  Atomic
 * read-modify-writes of the newest value.  Ordering, as Linux defines it:
 *  - plat_set_bit / plat_clear_bit order nothing (x86: a locked bts/btr,
 *    which costs and drains as smp_mb(); arm64: stset, relaxed); follow
 *    one with plat_smp_mb__after_atomic() to order it before later
 *    accesses;
 *  - plat_test_and_set_bit / plat_test_and_clear_bit return the old bit
 *    and are fully ordered (smp_mb() before and after);
 *  - plat_test_bit is a READ_ONCE.
 * The simulator checks the queue-state protocol on them (sim/check/stopchk.h).
 */
void plat_set_bit(struct platform *p, unsigned nr, uint32_t *word);
void plat_clear_bit(struct platform *p, unsigned nr, uint32_t *word);
int plat_test_and_set_bit(struct platform *p, unsigned nr, uint32_t *word);
int plat_test_and_clear_bit(struct platform *p, unsigned nr, uint32_t *word);
int plat_test_bit(struct platform *p, unsigned nr, const uint32_t *word);
/* smp_mb__after_atomic(): a full barrier after a set_bit / clear_bit
 * (x86: free, the locked op already was one; arm64: dmb ish). */
void plat_smp_mb__after_atomic(struct platform *p);

/* The kernel's BUG()/WARN() on a misuse of one of its calls by the driver,
 * about the queue whose state word is `state`: `kind` names the rule (a
 * violation in the simulator), `detail` says what happened. */
void plat_bug(struct platform *p, const uint32_t *state, const char *kind, const char *detail);

/*
 * The CPU reads or writes `len` bytes at `addr` through a plain pointer:
 * driver state that more than one CPU shares (ring indices, BQL, stats,
 * the queue-stopped flag) or a DMA buffer it fills.  Costs what the
 * cache-line model says (a line another CPU modified is transferred; a
 * write to a shared line is an upgrade), and lets the simulator check that
 * a written DMA buffer is not one the device still owns.  Call it where the
 * real code makes the access, in the same order.
 */
enum plat_access { PLAT_READ, PLAT_WRITE };
void plat_cpu_touch(struct platform *p, const void *addr, size_t len, enum plat_access how);

/* The CPU's clock in ns (like ktime_get_ns / jiffies for timeouts). */
uint64_t plat_time_ns(struct platform *p);

/* Charge `n` units of modelled driver work. */
void plat_cpu_work(struct platform *p, enum plat_work what, unsigned n);

/*
 * DMA-coherent allocation of `size` bytes aligned to `align` (a power of
 * two).  Returns the CPU pointer and stores the device (bus) address in
 * *dma; returns NULL (and leaves *dma alone) when host memory is exhausted.
 * Memory is zeroed.  It lives as long as the platform; there is no free.
 */
void *plat_dma_alloc(struct platform *p, size_t size, size_t align, dma_addr_t *dma);

/*
 * The driver is done with the DMA buffer [dma, dma + len) (dma_unmap_single
 * in the completion cleanup, before the buffer is freed), mapped in
 * direction `dir` (Linux's enum dma_data_direction: 0 bidirectional, 1 to
 * the device, 2 from it): the device must no longer own it.  Free on a
 * coherent mapping; the simulator checks that the device has completed the
 * descriptor that carried it, and that the unmap matches a live mapping in
 * address, size and direction (sim/check/dmachk.h, as CONFIG_DMA_API_DEBUG).
 */
void plat_dma_unmap(struct platform *p, dma_addr_t dma, size_t len, unsigned dir);

/*
 * What the kernel layer (driver/linux/, docs/own-driver.md) needs besides
 * the calls above.
 *
 * A driver compiled with the layer is instrumented by the compiler
 * (ThreadSanitizer's instrumentation, with nictx's own runtime,
 * driver/linux/kcsan.c): each load and store it makes through a pointer is
 * announced just before it happens, with the platform of the CPU running
 * it.  `how`: PLAT_ACC_WRITE for a store, PLAT_ACC_MARKED for READ_ONCE /
 * WRITE_ONCE (a volatile access).  `len` is 1..16.  The platform judges it
 * by where it points:
 *  - DMA-coherent memory: a store is a plat_store, a load a plat_load,
 *    whatever their size;
 *  - driver state other CPUs may access (plat_shared): in the memory model,
 *    READ_ONCE / WRITE_ONCE as plat_read_once32 / plat_write_once32, a
 *    plain load as one too, a plain store held until it becomes visible;
 *  - anything else (the stack, memory the CPU alone uses): nothing.
 * The value of a store is read from memory once it is done, at the next
 * call (the compiler stores it after the announcement).
 */
#define PLAT_ACC_WRITE 1u
#define PLAT_ACC_MARKED 2u
void plat_access(struct platform *p, void *addr, size_t len, unsigned how);
/* [addr, addr + len) is driver state that more than one CPU may access
 * (the layer's kzalloc, kcalloc, ...): its plain accesses are seen. */
void plat_shared(struct platform *p, const void *addr, size_t len);
/* dma_map_single of `len` bytes at `cpu` in direction `dir` (as
 * plat_dma_unmap) on a coherent platform: the bus address of that host
 * memory, or 0 when it is not DMA-coherent memory.  The simulator keeps the
 * mapping to check its unmap. */
dma_addr_t plat_dma_map(struct platform *p, const void *cpu, size_t len, unsigned dir);
/* atomic_t: add `delta` to `word` and return its old value; `ordered`:
 * fully ordered (atomic_add_return, atomic_fetch_add: smp_mb() before and
 * after), else relaxed (atomic_add: x86's locked add, arm64's stadd). */
uint32_t plat_atomic_fetch_add32(struct platform *p, uint32_t *word, uint32_t delta, int ordered);
/* atomic_cmpxchg: if `word` holds `old`, store `val`; the value found.
 * Fully ordered. */
uint32_t plat_atomic_cmpxchg32(struct platform *p, uint32_t *word, uint32_t old, uint32_t val);

#endif /* NICTX_PLATFORM_H */
