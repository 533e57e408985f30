/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fake_platform.h - a recording fake of driver/platform.h for unit tests.
 *
 * Models nothing in time.  It gives the driver:
 * - host memory: one zeroed, 4 KiB-aligned malloc'd block with a bump
 *   allocator; bus addresses start at FAKE_BUS_BASE (above 4 GiB, so the
 *   high halves of 64-bit addresses are exercised); CPU and bus offsets are
 *   equal, so CPU pointers have the alignment of their bus addresses;
 * - BAR0: a register file that MMIO writes land in; MMIO reads return the
 *   register, except NICTX_REG_HEAD (returns `head`) and NICTX_REG_ID
 *   (returns `id`, NICTX_ID_VALUE unless a test changes it); queue 0's
 *   register block is an alias of the single-queue registers, as in the
 *   engine, and is logged by their offsets;
 * - an ordered log of every call (kind, address, value) for tests to
 *   inspect, e.g. that wmb() sits between the last descriptor store and the
 *   doorbell.
 * A test plays the device with fake_platform_complete(), which sets the
 * head both for MMIO reads and in the head-writeback word the driver
 * programmed (NICTX_REG_WB_ADDR_*), if any.
 * Bad accesses (outside host memory or BAR0, misaligned) are not performed
 * and are counted in `bad_access`.
 * Driver code compiled with the kernel layer (driver/linux/) runs on the
 * fake it last initialised (kcpu.h: fake_platform_init makes it current,
 * fake_platform_use makes another): its instrumented stores to host
 * memory are logged as FAKE_STORE32/64 with the value stored, its loads as
 * FAKE_LOAD32/64, and its accesses to memory registered as shared (the
 * layer's kzalloc, fake_platform_share) as touches.
 * One fake per test; two fakes never share state.
 */
#ifndef NICTX_FAKE_PLATFORM_H
#define NICTX_FAKE_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

#include "linux/kcpu.h"
#include "platform.h"

#define FAKE_BUS_BASE   0x100000000ull
#define FAKE_BAR0_BYTES 0x2000u /* registers, the WC window and the queue blocks */
#define FAKE_ANY        UINT64_MAX /* wildcard address for the find helpers */

enum fake_op_kind {
    FAKE_MMIO_W32,  /* addr = BAR0 offset, val = value */
    FAKE_MMIO_W64,  /* addr = BAR0 offset, val = value */
    FAKE_MMIO_R32,  /* addr = BAR0 offset, val = value returned */
    FAKE_STORE32,   /* addr = bus address, val = value */
    FAKE_STORE64,   /* addr = bus address, val = value */
    FAKE_LOAD32,    /* addr = bus address, val = value returned */
    FAKE_DMA_WMB,   /* addr = 0, val = 0 */
    FAKE_WMB,
    FAKE_SMP_MB,
    FAKE_CPU_WORK,  /* addr = enum plat_work, val = n */
    FAKE_DMA_ALLOC, /* addr = bus address (0 on failure), val = size */
    FAKE_MMIO_WC,   /* one 8-byte WC store: addr = BAR0 offset, val = value */
    FAKE_TOUCH_R,   /* plat_cpu_touch read: addr = CPU pointer value, val = length */
    FAKE_TOUCH_W,   /* plat_cpu_touch write: likewise */
    FAKE_LOCK,      /* plat_spin_lock: addr = CPU pointer value of the lock */
    FAKE_UNLOCK,    /* plat_spin_unlock: likewise */
    FAKE_DMA_UNMAP, /* plat_dma_unmap: addr = bus address, val = length */
    FAKE_BUG,       /* plat_bug: addr = the kind string's pointer */
    FAKE_LOAD64,    /* an instrumented 8-byte load: addr = bus address, val = value */
};

struct fake_op {
    enum fake_op_kind kind;
    uint64_t addr;
    uint64_t val;
};

#define FAKE_SHARED_MAX 16u

struct platform {
    struct kcpu kcpu;   /* driver code runs on this fake (kcpu.h) */
    /* The store driver code announced last (instrumented: its value is
     * logged once it is made); its entry in the log, -1: none. */
    long pend_log;
    uint8_t *pend_at;
    unsigned pend_len, pend_n; /* bytes a piece, pieces (a store of 16: two) */
    struct { const uint8_t *lo, *hi; } shared[FAKE_SHARED_MAX];
    unsigned nshared;
    uint8_t *mem;       /* host memory, mem_size bytes */
    size_t mem_size;
    size_t mem_used;    /* bump pointer (offset) */
    uint32_t bar[FAKE_BAR0_BYTES / 4];
    uint32_t head;      /* value of MMIO reads of NICTX_REG_HEAD */
    uint32_t id;        /* value of MMIO reads of NICTX_REG_ID */
    struct fake_op *log;
    size_t log_len;
    size_t log_cap;
    uint64_t work[4];   /* plat_cpu_work units per enum plat_work */
    unsigned bad_access;
    uint64_t now_ns;    /* what plat_time_ns returns; tests set it */
    int log_touches;    /* log plat_cpu_touch calls (1 after init) */
};

/* Returns 0, or -1 if the host memory or the log cannot be allocated.
 * The fake is current (kcpu.h) until destroyed. */
int fake_platform_init(struct platform *p, size_t mem_size);
void fake_platform_destroy(struct platform *p);
/* A test's frame at bus address `bus` (>= FAKE_FRAME_BUS): its CPU pointer
 * for the skb's data, never dereferenced (the driver only maps it:
 * dma_map_single gives `bus` back). */
#define FAKE_FRAME_BUS 0x200000000ull
unsigned char *fake_platform_frame(dma_addr_t bus);

/* Make p current: driver code runs on it from now on. */
void fake_platform_use(struct platform *p);
/* [addr, addr + len) is shared driver state: its accesses are touches. */
void fake_platform_share(struct platform *p, const void *addr, size_t len);

/* Device completes up to `head`: MMIO HEAD value and writeback word. */
void fake_platform_complete(struct platform *p, uint32_t head);

/* CPU pointer for [bus, bus + len) in host memory, or NULL if outside. */
void *fake_platform_bus_to_cpu(const struct platform *p, dma_addr_t bus, size_t len);
/* Bus address of a CPU pointer into host memory, or 0 if outside. */
dma_addr_t fake_platform_cpu_to_bus(const struct platform *p, const void *cpu);

/* Current value of a BAR0 register (as last written). */
uint32_t fake_platform_reg(const struct platform *p, uint32_t off);

/* Number of logged ops of `kind` (and address `addr` unless FAKE_ANY). */
size_t fake_platform_count(const struct platform *p, enum fake_op_kind kind, uint64_t addr);
/* Index of the first such op at index >= from, or -1. */
long fake_platform_find(const struct platform *p, enum fake_op_kind kind, uint64_t addr,
                        size_t from);
/* Index of the last such op, or -1. */
long fake_platform_find_last(const struct platform *p, enum fake_op_kind kind, uint64_t addr);
/* Forget the log (memory, registers and counters stay). */
void fake_platform_clear_log(struct platform *p);

#endif /* NICTX_FAKE_PLATFORM_H */
