/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rc.h - the root complex: the host side of the PCIe link.
 *
 * It takes the TLPs the device sends to the host and answers them as a host
 * bridge does:
 *  - MRd: reads host memory *as the device sees it when the request arrives*
 *    (memory, less the CPU stores not yet visible then: rc->view; so a read
 *    issued after a doorbell never sees memory older than the doorbell's
 *    own writes), splits the answer into CplDs by the completer rules
 *    (pcie_split_cpl: RCB boundaries, MPS), and releases them after the
 *    memory service time, in arrival order;
 *  - MWr: writes host memory, or, in the x86 MSI window 0xFEExxxxx, raises
 *    an interrupt;
 *  - CplD: an answer to a CPU MMIO read; the caller matches it.
 * Accesses outside host memory are refused, as an IOMMU would, and
 * reported; a refused read completes with zeros.
 *
 * Faults (rc_arm_fault): the next MRd that overlaps an armed range gets
 * the fault on all its completions: a status (UR, CA), poisoned data (EP),
 * or no completion at all (lost).  Each armed fault fires once.
 */
#ifndef NICTX_RC_H
#define NICTX_RC_H

#include <stdint.h>

#include "host/host_mem.h"
#include "pcie/pcie_cfg.h"
#include "lib/simtime.h"
#include "pcie/tlp_queue.h"

enum rc_event {
    RC_NONE,           /* MRd queued for completion */
    RC_WROTE,          /* MWr landed in host memory */
    RC_IRQ,            /* MWr to the MSI window: an interrupt */
    RC_MMIO_CPL,       /* CplD answering a CPU read: the caller's */
    RC_UNMAPPED_READ,  /* MRd outside host memory (completed with zeros) */
    RC_FAULTED,        /* MRd answered with an armed fault (rc->last_fault) */
    RC_UNMAPPED_WRITE, /* MWr outside host memory (dropped) */
    RC_NOMEM,          /* could not queue completions */
};

struct rc_stats {
    uint64_t reads, read_bytes, cpls, writes, write_bytes, irqs;
    uint64_t faults; /* MRds answered with an armed fault */
};

enum rc_fault_kind {
    RC_FAULT_UR,   /* completions with Unsupported Request, zero data */
    RC_FAULT_CA,   /* completions with Completer Abort, zero data */
    RC_FAULT_EP,   /* completions with their data, poisoned */
    RC_FAULT_LOST, /* no completion ever */
};

#define RC_MAX_FAULTS 16u

struct rc_fault {
    enum rc_fault_kind kind;
    uint64_t lo, hi; /* bus addresses [lo, hi) */
    unsigned id;     /* the caller's, reported back in last_fault */
};

/* Fix up `buf`, memory's bytes at [addr, addr + len), to what a read
 * arriving at `at` sees (the CPU's store buffer: sim/host/stbuf.h). */
typedef void (*rc_view_fn)(void *ctx, uint64_t addr, uint8_t *buf, size_t len, sim_ps_t at);

struct rc {
    struct host_mem *mem;
    rc_view_fn view;  /* NULL: memory as it is */
    void *view_ctx;
    struct pcie_cfg pcie;
    sim_ps_t mem_latency_ps;
    struct tlpq cpl;
    struct rc_stats st;
    struct rc_fault fault[RC_MAX_FAULTS]; /* armed, oldest first */
    unsigned nfault;
    struct rc_fault last_fault; /* the one RC_FAULTED reported */
};

/*
 * Posted requests (CPU MMIO and WC writes) the root port holds for the
 * device while they wait for its credits: a CPU posted write that finds
 * this many waiting cannot leave the core and stalls the CPU until one
 * starts on the link.  Read completions may not pass them (PCIe ordering),
 * so this also bounds how many a completion can wait behind.  An
 * assumption (docs/model.md): about a core's outstanding uncached writes.
 */
#define RC_POSTED_MAX 16u

#define RC_MSI_BASE 0xfee00000ull
#define RC_MSI_SIZE 0x00100000ull

/* Is a memory write to `addr` an MSI/MSI-X message (x86 window)? */
static inline int rc_is_msi(uint64_t addr)
{
    return addr >= RC_MSI_BASE && addr < RC_MSI_BASE + RC_MSI_SIZE;
}

/* 0, or -1 on allocation failure.  `mem` is borrowed. */
int rc_init(struct rc *rc, struct host_mem *mem, const struct pcie_cfg *pcie,
            double mem_latency_ns);
void rc_destroy(struct rc *rc);

/* Arm a fault for the next MRd overlapping [lo, hi): 0, or -1 when
 * RC_MAX_FAULTS are armed already or the range is empty. */
int rc_arm_fault(struct rc *rc, enum rc_fault_kind kind, uint64_t lo, uint64_t hi, unsigned id);
/* Forget every armed fault: the frames they were armed for will not be
 * read (a queue reset dropped them); the number forgotten. */
unsigned rc_disarm_faults(struct rc *rc);

/* A device TLP arrives at time `at` (non-decreasing between calls). */
enum rc_event rc_receive(struct rc *rc, const struct tlp *t, sim_ps_t at);

/* Completions ready to go down the link, oldest first. */
/* SIM_PS_NEVER when none (inline: asked on every device clock) */
static inline sim_ps_t rc_next_cpl(const struct rc *rc) { return tlpq_next(&rc->cpl); }
const struct tlp *rc_peek_cpl(const struct rc *rc);
void rc_pop_cpl(struct rc *rc);

#endif /* NICTX_RC_H */
