/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fake_platform.c - recording fake of driver/platform.h (see fake_platform.h).
 */
#include "common/fake_platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nictx_hw.h"
#include "txq_reg.h"

#define FAKE_LOG_INIT_CAP 1024u
#define FAKE_MEM_ALIGN    4096u

int fake_platform_init(struct platform *p, size_t mem_size)
{
    memset(p, 0, sizeof(*p));
    p->log_touches = 1;
    size_t rounded = (mem_size + FAKE_MEM_ALIGN - 1) & ~(size_t)(FAKE_MEM_ALIGN - 1);
    if (rounded == 0)
        rounded = FAKE_MEM_ALIGN;
    p->mem = aligned_alloc(FAKE_MEM_ALIGN, rounded);
    p->log = malloc(FAKE_LOG_INIT_CAP * sizeof(*p->log));
    if (p->mem == NULL || p->log == NULL) {
        free(p->mem);
        free(p->log);
        p->mem = NULL;
        p->log = NULL;
        return -1;
    }
    memset(p->mem, 0, rounded);
    p->mem_size = mem_size;
    p->log_cap = FAKE_LOG_INIT_CAP;
    p->id = NICTX_ID_VALUE;
    p->pend_log = -1;
    fake_platform_use(p);
    return 0;
}

void fake_platform_use(struct platform *p)
{
    p->kcpu.plat = p;
    kcpu_swap(&p->kcpu);
}

void fake_platform_share(struct platform *p, const void *addr, size_t len)
{
    plat_shared(p, addr, len);
}

void fake_platform_destroy(struct platform *p)
{
    if (kcpu_this() == &p->kcpu)
        kcpu_swap(NULL);
    free(p->mem);
    free(p->log);
    p->mem = NULL;
    p->log = NULL;
    p->log_len = p->log_cap = 0;
}

/* The store announced last is made: its value into its log entry. */
static void fake_settle(struct platform *p)
{
    if (p->pend_log < 0)
        return;
    for (unsigned k = 0; k < p->pend_n; k++) {
        uint64_t v = 0;
        if ((size_t)p->pend_log + k >= p->log_len)
            break;
        memcpy(&v, p->pend_at + k * p->pend_len, p->pend_len);
        p->log[p->pend_log + k].val = v;
    }
    p->pend_log = -1;
}

static void fake_log(struct platform *p, enum fake_op_kind kind, uint64_t addr, uint64_t val)
{
    fake_settle(p);
    if (p->log_len == p->log_cap) {
        size_t cap = p->log_cap ? p->log_cap * 2 : FAKE_LOG_INIT_CAP;
        struct fake_op *log = realloc(p->log, cap * sizeof(*log));
        if (log == NULL) {
            fprintf(stderr, "fake_platform: out of memory for the op log\n");
            abort();
        }
        p->log = log;
        p->log_cap = cap;
    }
    p->log[p->log_len].kind = kind;
    p->log[p->log_len].addr = addr;
    p->log[p->log_len].val = val;
    p->log_len++;
}

void fake_platform_clear_log(struct platform *p)
{
    fake_settle(p);
    p->log_len = 0;
}

void *fake_platform_bus_to_cpu(const struct platform *p, dma_addr_t bus, size_t len)
{
    if (bus < FAKE_BUS_BASE)
        return NULL;
    uint64_t off = bus - FAKE_BUS_BASE;
    if (off > p->mem_used || len > p->mem_used - off)
        return NULL;
    return p->mem + off;
}

dma_addr_t fake_platform_cpu_to_bus(const struct platform *p, const void *cpu)
{
    const uint8_t *c = cpu;
    if (p->mem == NULL || c < p->mem || c >= p->mem + p->mem_used)
        return 0;
    return FAKE_BUS_BASE + (uint64_t)(c - p->mem);
}

/* Host-memory access check: inside allocated memory and naturally aligned. */
static uint8_t *fake_mem_at(struct platform *p, const void *cpu, size_t len)
{
    dma_addr_t bus = fake_platform_cpu_to_bus(p, cpu);
    if (bus == 0 || (bus & (len - 1)) != 0 ||
        fake_platform_bus_to_cpu(p, bus, len) == NULL) {
        p->bad_access++;
        return NULL;
    }
    return p->mem + (bus - FAKE_BUS_BASE);
}

/* Queue 0's block is an alias of the single-queue registers, as in the
 * engine: such an access is performed and logged at the single-queue
 * offset, so a test names the register either way. */
static uint32_t fake_alias(uint32_t off)
{
    unsigned q;
    uint32_t r, legacy;

    if (txq_reg_decode(off, &q, &r) && q == 0 && (legacy = txq_reg_legacy(r)) != TXQ_REG_NONE)
        return legacy;
    return off;
}

static int fake_bar_ok(struct platform *p, uint32_t off, uint32_t len)
{
    if ((off & (len - 1)) != 0 || off > FAKE_BAR0_BYTES - len) {
        p->bad_access++;
        return 0;
    }
    return 1;
}

uint32_t fake_platform_reg(const struct platform *p, uint32_t off)
{
    off = fake_alias(off);
    return off < FAKE_BAR0_BYTES ? p->bar[off / 4] : 0;
}

void fake_platform_complete(struct platform *p, uint32_t head)
{
    p->head = head;
    uint64_t wb = (uint64_t)p->bar[NICTX_REG_WB_ADDR_HI / 4] << 32 |
                  p->bar[NICTX_REG_WB_ADDR_LO / 4];
    if (wb != 0) {
        uint8_t *cpu = fake_platform_bus_to_cpu(p, wb, sizeof(head));
        if (cpu != NULL)
            memcpy(cpu, &head, sizeof(head));
        else
            p->bad_access++;
    }
}

void plat_mmio_write32(struct platform *p, uint32_t off, uint32_t val)
{
    off = fake_alias(off);
    fake_log(p, FAKE_MMIO_W32, off, val);
    if (fake_bar_ok(p, off, 4))
        p->bar[off / 4] = val;
}

static void plat_mmio_write64_wc_log(struct platform *p, uint32_t off, uint64_t val)
{
    fake_log(p, FAKE_MMIO_WC, off, val);
    if (fake_bar_ok(p, off, 8)) {
        p->bar[off / 4] = (uint32_t)val;
        p->bar[off / 4 + 1] = (uint32_t)(val >> 32);
    }
}

void plat_mmio_write64(struct platform *p, uint32_t off, uint64_t val)
{
    off = fake_alias(off);
    fake_log(p, FAKE_MMIO_W64, off, val);
    if (fake_bar_ok(p, off, 8)) {
        p->bar[off / 4] = (uint32_t)val;
        p->bar[off / 4 + 1] = (uint32_t)(val >> 32);
    }
}

void plat_mmio_copy_wc(struct platform *p, uint32_t off, const void *src, size_t len)
{
    const uint8_t *b = src;
    size_t k;

    for (k = 0; k + 8 <= len; k += 8) {
        uint64_t v;
        memcpy(&v, b + k, 8);
        plat_mmio_write64_wc_log(p, off + (uint32_t)k, v);
    }
}

void plat_cpu_touch(struct platform *p, const void *addr, size_t len, enum plat_access how)
{
    if (p->log_touches)
        fake_log(p, how == PLAT_WRITE ? FAKE_TOUCH_W : FAKE_TOUCH_R, (uint64_t)(uintptr_t)addr, len);
}

/* Shared driver state: one CPU, so plain loads and stores, logged as the
 * touches they also are. */
uint32_t plat_read_once32(struct platform *p, const uint32_t *src)
{
    plat_cpu_touch(p, src, 4, PLAT_READ);
    return *src;
}

uint32_t plat_load_acquire32(struct platform *p, const uint32_t *src)
{
    return plat_read_once32(p, src);
}

void plat_write_once32(struct platform *p, uint32_t *dst, uint32_t val)
{
    plat_cpu_touch(p, dst, 4, PLAT_WRITE);
    *dst = val;
}

void plat_store_release32(struct platform *p, uint32_t *dst, uint32_t val)
{
    plat_write_once32(p, dst, val);
}

void plat_bug(struct platform *p, const uint32_t *state, const char *kind, const char *detail)
{
    (void)state;
    (void)detail;
    fake_log(p, FAKE_BUG, (uint64_t)(uintptr_t)kind, 0);
}

void plat_smp_wmb(struct platform *p)
{
    (void)p;
}

void plat_smp_rmb(struct platform *p)
{
    (void)p;
}

void plat_dma_unmap(struct platform *p, dma_addr_t dma, size_t len, unsigned dir)
{
    (void)dir;
    fake_log(p, FAKE_DMA_UNMAP, dma, len);
}

void plat_spin_lock(struct platform *p, void *lock)
{
    fake_log(p, FAKE_LOCK, (uint64_t)(uintptr_t)lock, 0);
}

void plat_spin_unlock(struct platform *p, void *lock)
{
    fake_log(p, FAKE_UNLOCK, (uint64_t)(uintptr_t)lock, 0);
}

uint64_t plat_time_ns(struct platform *p)
{
    return p->now_ns;
}

uint32_t plat_mmio_read32(struct platform *p, uint32_t off)
{
    off = fake_alias(off);
    uint32_t val = 0;
    if (fake_bar_ok(p, off, 4)) {
        if (off == NICTX_REG_HEAD)
            val = p->head;
        else if (off == NICTX_REG_ID)
            val = p->id;
        else
            val = p->bar[off / 4];
    }
    fake_log(p, FAKE_MMIO_R32, off, val);
    return val;
}

void plat_store32(struct platform *p, void *dst, uint32_t val)
{
    fake_log(p, FAKE_STORE32, fake_platform_cpu_to_bus(p, dst), val);
    uint8_t *m = fake_mem_at(p, dst, sizeof(val));
    if (m != NULL)
        memcpy(m, &val, sizeof(val));
}

void plat_store64(struct platform *p, void *dst, uint64_t val)
{
    fake_log(p, FAKE_STORE64, fake_platform_cpu_to_bus(p, dst), val);
    uint8_t *m = fake_mem_at(p, dst, sizeof(val));
    if (m != NULL)
        memcpy(m, &val, sizeof(val));
}

uint32_t plat_load32(struct platform *p, const void *src)
{
    uint32_t val = 0;
    const uint8_t *m = fake_mem_at(p, src, sizeof(val));
    if (m != NULL)
        memcpy(&val, m, sizeof(val));
    fake_log(p, FAKE_LOAD32, fake_platform_cpu_to_bus(p, src), val);
    return val;
}

void plat_dma_wmb(struct platform *p)
{
    fake_log(p, FAKE_DMA_WMB, 0, 0);
}

void plat_wmb(struct platform *p)
{
    fake_log(p, FAKE_WMB, 0, 0);
}

void plat_smp_mb(struct platform *p)
{
    fake_log(p, FAKE_SMP_MB, 0, 0);
}

void plat_cpu_work(struct platform *p, enum plat_work what, unsigned n)
{
    fake_log(p, FAKE_CPU_WORK, (uint64_t)what, n);
    if ((unsigned)what < sizeof(p->work) / sizeof(p->work[0]))
        p->work[what] += n;
    else
        p->bad_access++;
}

void *plat_dma_alloc(struct platform *p, size_t size, size_t align, dma_addr_t *dma)
{
    if (align == 0 || (align & (align - 1)) != 0 || align > FAKE_MEM_ALIGN) {
        fake_log(p, FAKE_DMA_ALLOC, 0, size);
        p->bad_access++;
        return NULL;
    }
    size_t start = (p->mem_used + align - 1) & ~(align - 1);
    if (start > p->mem_size || size > p->mem_size - start) {
        fake_log(p, FAKE_DMA_ALLOC, 0, size);
        return NULL;
    }
    p->mem_used = start + size;
    *dma = FAKE_BUS_BASE + start;
    fake_log(p, FAKE_DMA_ALLOC, *dma, size);
    memset(p->mem + start, 0, size);
    return p->mem + start;
}

static int fake_match(const struct fake_op *op, enum fake_op_kind kind, uint64_t addr)
{
    return op->kind == kind && (addr == FAKE_ANY || op->addr == addr);
}

size_t fake_platform_count(const struct platform *p, enum fake_op_kind kind, uint64_t addr)
{
    size_t n = 0;
    fake_settle((struct platform *)p);
    for (size_t i = 0; i < p->log_len; i++)
        n += (size_t)fake_match(&p->log[i], kind, addr);
    return n;
}

long fake_platform_find(const struct platform *p, enum fake_op_kind kind, uint64_t addr,
                        size_t from)
{
    fake_settle((struct platform *)p);
    for (size_t i = from; i < p->log_len; i++)
        if (fake_match(&p->log[i], kind, addr))
            return (long)i;
    return -1;
}

long fake_platform_find_last(const struct platform *p, enum fake_op_kind kind, uint64_t addr)
{
    fake_settle((struct platform *)p);
    for (size_t i = p->log_len; i > 0; i--)
        if (fake_match(&p->log[i - 1], kind, addr))
            return (long)(i - 1);
    return -1;
}

/* ------------------------------------------------- the kernel layer's */

static int fake_is_shared(const struct platform *p, const void *addr)
{
    const uint8_t *a = addr;

    for (unsigned i = 0; i < p->nshared; i++)
        if (a >= p->shared[i].lo && a < p->shared[i].hi)
            return 1;
    return 0;
}

/* One CPU and no time: a store to host memory is logged as the
 * plat_store32/64 it is (16 bytes: two of 8), its value filled in once it
 * is made; a load as FAKE_LOAD32/64; an access to shared state as a
 * touch. */
void plat_access(struct platform *p, void *addr, size_t len, unsigned how)
{
    uint64_t bus = fake_platform_cpu_to_bus(p, addr);
    size_t piece = len > 8 ? 8 : len;

    fake_settle(p);
    if (bus != 0 && (how & PLAT_ACC_WRITE)) {
        for (size_t k = 0; k < len; k += piece)
            fake_log(p, piece == 8 ? FAKE_STORE64 : FAKE_STORE32, bus + k, 0);
        p->pend_log = (long)(p->log_len - len / piece);
        p->pend_at = addr;
        p->pend_len = (unsigned)piece;
        p->pend_n = (unsigned)(len / piece);
        return;
    }
    if (bus != 0) {
        for (size_t k = 0; k < len; k += piece) {
            uint64_t v = 0;
            memcpy(&v, (uint8_t *)addr + k, piece);
            fake_log(p, piece == 8 ? FAKE_LOAD64 : FAKE_LOAD32, bus + k, v);
        }
        return;
    }
    if (p->log_touches && fake_is_shared(p, addr))
        fake_log(p, how & PLAT_ACC_WRITE ? FAKE_TOUCH_W : FAKE_TOUCH_R,
                 (uint64_t)(uintptr_t)addr, len);
}

void plat_shared(struct platform *p, const void *addr, size_t len)
{
    if (len == 0) {
        for (unsigned i = 0; i < p->nshared; i++)
            if (p->shared[i].lo == addr) {
                p->shared[i] = p->shared[--p->nshared];
                return;
            }
        return;
    }
    if (p->nshared == FAKE_SHARED_MAX) {
        p->bad_access++;
        return;
    }
    p->shared[p->nshared].lo = addr;
    p->shared[p->nshared].hi = (const uint8_t *)addr + len;
    p->nshared++;
}

/* The tests' frames: a window of CPU pointers no one dereferences (not
 * canonical on x86-64), one to one with bus addresses from FAKE_FRAME_BUS. */
#define FAKE_FRAME_CPU 0xfa00000000000000ull

unsigned char *fake_platform_frame(dma_addr_t bus)
{
    return (unsigned char *)(uintptr_t)(FAKE_FRAME_CPU + (bus - FAKE_FRAME_BUS));
}

dma_addr_t plat_dma_map(struct platform *p, const void *cpu, size_t len, unsigned dir)
{
    (void)dir;
    uint64_t a = (uint64_t)(uintptr_t)cpu;
    if (a >= FAKE_FRAME_CPU && a - FAKE_FRAME_CPU < (1ull << 40))
        return FAKE_FRAME_BUS + (a - FAKE_FRAME_CPU);
    dma_addr_t bus = fake_platform_cpu_to_bus(p, cpu);

    return bus != 0 && fake_platform_bus_to_cpu(p, bus, len) != NULL ? bus : 0;
}
