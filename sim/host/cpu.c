/* SPDX-License-Identifier: Apache-2.0 */
#include "host/cpu.h"

#include <string.h>

/*
 * Cost tables (--cpu).  "x86": a server Xeon running a Linux netdev driver;
 * each figure's source is in docs/model.md.  "cheap": a CPU whose costs are
 * negligible, so that the device, the link or the wire must be the bound.
 */
static const struct cpu_costs cpu_profile_x86 = {
    .xmit_pkt_ns = 60.0,
    .clean_poll_ns = 20.0,
    .clean_desc_ns = 10.0,
    .store_ns = 1.0,
    .load_ns = 1.0,
    .dma_wmb_ns = 0.0,
    .wmb_ns = 10.0,
    .smp_mb_ns = 6.0,
    .mmio_write_ns = 100.0,
    .mmio_read_ns = 0.0,
    .wc_store_ns = 1.0,
    .drain_hit_ns = 2.0,
    .drain_miss_ns = 20.0,
    .wc_drain_max_ns = 200.0,
    .sb_entries = 56,
    .line_xfer_ns = 48.0,
    .line_upgrade_ns = 48.0,
    .lock_ns = 11.0,
    .uc_drain_ns = 0.0,
    .qdisc_pkt_ns = 0.0,
};

static const struct cpu_costs cpu_profile_cheap = {
    .xmit_pkt_ns = 1.0,
    .clean_poll_ns = 1.0,
    .clean_desc_ns = 0.5,
    .store_ns = 0.1,
    .load_ns = 0.1,
    .dma_wmb_ns = 0.0,
    .wmb_ns = 0.5,
    .smp_mb_ns = 0.5,
    .mmio_write_ns = 1.0,
    .mmio_read_ns = 0.0,
    .wc_store_ns = 0.1,
    .drain_hit_ns = 0.5,
    .drain_miss_ns = 2.0,
    .wc_drain_max_ns = 20.0,
    .sb_entries = 56,
    .line_xfer_ns = 1.0,
    .line_upgrade_ns = 1.0,
    .lock_ns = 0.5,
    .uc_drain_ns = 0.0,
    .qdisc_pkt_ns = 0.0,
};

/*
 * "graviton2": an AWS Graviton2 (Arm Neoverse N1, 2.5 GHz) running the same
 * driver under --ordering weak.  Cycle counts are converted at 2.5 GHz; each
 * value's source, and which are assumptions, is in docs/profiles.md
 * (graviton2), which test_profile checks against this table.
 */
static const struct cpu_costs cpu_profile_graviton2 = {
    .xmit_pkt_ns = 72.0,    /* the x86 table's 180 cycles */
    .clean_poll_ns = 24.0,  /* 60 cycles */
    .clean_desc_ns = 12.0,  /* 30 cycles */
    .store_ns = 1.2,        /* 3 cycles */
    .load_ns = 1.6,         /* N1 L1D load-to-use, 4 cycles */
    .dma_wmb_ns = 2.4,      /* dmb oshst issue, 6 cycles */
    .wmb_ns = 2.4,          /* dsb st issue, 6 cycles; its wait is drain_wait */
    .smp_mb_ns = 2.4,       /* dmb ish issue, 6 cycles */
    .mmio_write_ns = 1.2,   /* a store to Device-nGnRE memory, 3 cycles */
    .mmio_read_ns = 0.0,
    .wc_store_ns = 1.2,
    .drain_hit_ns = 2.4,
    .drain_miss_ns = 20.0,
    .wc_drain_max_ns = 200.0,
    .sb_entries = 56,
    .line_xfer_ns = 47.0,   /* Graviton2 core-to-core CAS median */
    .line_upgrade_ns = 47.0,
    .lock_ns = 13.6,        /* 34 cycles */
    .uc_drain_ns = 50.0,
    .qdisc_pkt_ns = 40.0,   /* 100 cycles */
};

static const struct {
    const char *name;
    const struct cpu_costs *costs;
} cpu_profiles[] = {{"x86", &cpu_profile_x86},
                    {"cheap", &cpu_profile_cheap},
                    {"graviton2", &cpu_profile_graviton2}};

#define CPU_PROFILES (sizeof(cpu_profiles) / sizeof(cpu_profiles[0]))

int cpu_costs_profile(struct cpu_costs *c, const char *name)
{
    for (size_t i = 0; i < CPU_PROFILES; i++) {
        if (strcmp(name, cpu_profiles[i].name) == 0) {
            *c = *cpu_profiles[i].costs;
            return 0;
        }
    }
    return -1;
}

const char *cpu_costs_profile_name(unsigned i)
{
    return i < CPU_PROFILES ? cpu_profiles[i].name : NULL;
}

void cpu_init(struct cpu *c, const struct cpu_costs *costs)
{
    memset(c, 0, sizeof(*c));
    c->costs = *costs;
}

void cpu_charge(struct cpu *c, enum cpu_cause cause, double ns)
{
    sim_ps_t ps = sim_ns_to_ps(ns);

    c->now += ps;
    c->by_cause[cause] += ps;
}

void cpu_wait_until(struct cpu *c, sim_ps_t t, enum cpu_cause cause)
{
    if (t > c->now) {
        c->by_cause[cause] += t - c->now;
        c->now = t;
    }
}

const char *cpu_cause_name(enum cpu_cause cause)
{
    static const char *const names[CPU_CAUSE_COUNT] = {
        "driver", "desc_write", "barrier", "drain_wait", "doorbell", "mmio_read",
        "wc_copy", "lock_stall", "cacheline", "idle",
    };
    return (unsigned)cause < CPU_CAUSE_COUNT ? names[cause] : "invalid";
}
