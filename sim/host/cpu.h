/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cpu.h - the host CPU that runs the driver: a clock and a cost table.
 *
 * Skeleton model: each platform operation advances the CPU's clock by a
 * fixed, documented cost (docs/model.md gives each figure's source), and
 * the time is booked to a cause so a run can say where CPU nanoseconds per
 * packet go.  Stalls whose length the simulation decides (an MMIO read
 * waiting for its completion, waiting for the device) are booked with
 * cpu_wait_until().  Store visibility (sim/host/stbuf.h) decides how long a
 * barrier waits for earlier stores to drain: that wait is its own cause,
 * apart from the barrier's issue cost.
 */
#ifndef NICTX_CPU_H
#define NICTX_CPU_H

#include "lib/simtime.h"

enum cpu_cause {
    CPU_DRIVER,     /* per-packet and per-completion driver work */
    CPU_DESC_WRITE, /* stores of descriptor words */
    CPU_BARRIER,    /* dma_wmb, wmb, smp_mb: issue cost */
    CPU_DRAIN,      /* a barrier (or a full store buffer) waiting for earlier
                       stores to become visible */
    CPU_DOORBELL,   /* uncached posted MMIO writes */
    CPU_MMIO_READ,  /* uncached MMIO reads: stall until the completion */
    CPU_WC_COPY,    /* write-combining descriptor push (BlueFlame) */
    CPU_LOCK_STALL, /* locked instruction after a posted write (later) */
    CPU_CACHELINE,  /* cache-line transfers between CPUs (later) */
    CPU_IDLE,       /* waiting for the device (not a cost of packets) */
    CPU_CAUSE_COUNT
};

/* Cost of each operation in ns. */
struct cpu_costs {
    double xmit_pkt_ns;   /* ndo_start_xmit work per packet, excluding the below */
    double clean_poll_ns; /* one cleanup pass: read head, loop set-up */
    double clean_desc_ns; /* per reclaimed descriptor (unmap, free) */
    double store_ns;      /* one 8-byte store to DMA-coherent memory */
    double load_ns;       /* one load of a DMA-coherent word (head writeback) */
    double dma_wmb_ns;    /* x86: compiler barrier */
    double wmb_ns;        /* x86: sfence */
    double smp_mb_ns;     /* x86: lock addl */
    double mmio_write_ns; /* issue cost of an uncached posted write */
    double mmio_read_ns;  /* issue cost of an uncached read, before the stall */
    double wc_store_ns;   /* one 8-byte store through a write-combining mapping */
    /* Store visibility (sim/host/stbuf.h). */
    double drain_hit_ns;  /* a store to a line the CPU holds becomes visible */
    double drain_miss_ns; /* ... to a line the device touched (read for ownership) */
    double wc_drain_max_ns; /* an unfenced full WC line drains within this */
    unsigned sb_entries;  /* store buffer entries */
    /* Between CPUs (sim/host/cacheline.h) and around locks. */
    double line_xfer_ns;  /* access to a line another CPU holds Modified */
    double line_upgrade_ns; /* write to a line other CPUs hold Shared */
    double lock_ns;       /* spin_lock + spin_unlock, uncontended */
    double uc_drain_ns;   /* an uncached posted write leaves the CPU after this;
                             a locked instruction waits for it */
    double qdisc_pkt_ns;  /* qdisc dequeue work per packet */
};

/* Fill *c from a named cost table ("x86", "cheap", "graviton2"); -1 if
 * unknown. */
int cpu_costs_profile(struct cpu_costs *c, const char *name);
/* The name of profile i (0, 1, ...), NULL past the last. */
const char *cpu_costs_profile_name(unsigned i);

struct cpu {
    sim_ps_t now;
    struct cpu_costs costs;
    sim_ps_t by_cause[CPU_CAUSE_COUNT];
};

void cpu_init(struct cpu *c, const struct cpu_costs *costs);
/* Advance the clock by ns (rounded to ps) and book it to `cause`. */
void cpu_charge(struct cpu *c, enum cpu_cause cause, double ns);
/* Advance the clock to t (if later) and book the wait to `cause`. */
void cpu_wait_until(struct cpu *c, sim_ps_t t, enum cpu_cause cause);
const char *cpu_cause_name(enum cpu_cause cause);

#endif /* NICTX_CPU_H */
