/*
 * pcie_link.h - one direction of a PCIe link.
 *
 * What it models: a FIFO server that serializes TLPs one after another at the
 * link's TLP-layer rate (pcie_cfg_tlp_gbps(): raw rate less ACK, UpdateFC and
 * SKP overhead, after pcie-bench's pcie-model) and delivers each one a fixed
 * propagation latency (cfg->latency_ns) after its last byte left.  A TLP's
 * serialization time is pcie_tlp_wire_bytes() * 8 / TLP-layer rate.
 *
 * Not modelled: flow-control credits (the receiver always has room), replay,
 * and link errors.  DLLPs and SKP ordered sets are not separate events: the
 * rate already excludes them, and they are *counted* in the stats the way
 * pcie-model charges them, in the same direction as the data (strictly, ACKs
 * and UpdateFCs for this direction's TLPs travel on the opposite direction;
 * pcie-model folds them into this direction's budget and so do we).
 *
 * Contract:
 *  - Callers call pcie_link_send() with non-decreasing `now`.  Serialization
 *    starts at max(now, end of previous TLP); the end is kept exactly (with a
 *    sub-ps remainder), so rounding never accumulates; arrival is the end
 *    rounded up to a whole ps, plus the latency.  Arrivals are in FIFO order.
 *  - The link copies each TLP (header and its `len` data bytes; none for MRd)
 *    into its own rings, so the caller's struct may be reused at once.
 *  - pcie_link_peek() returns the oldest TLP in flight; the pointer stays
 *    valid until the next pcie_link_pop() or pcie_link_destroy().  The caller
 *    pops it once pcie_link_next_arrival() <= its current time (the link
 *    does not check the time on pop).
 *  - No global state; no allocation per TLP except when a ring doubles.
 */
#ifndef NICTX_PCIE_LINK_H
#define NICTX_PCIE_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "pcie_cfg.h"
#include "simtime.h"
#include "tlp.h"

struct pcie_link_stats {
    uint64_t tlps[TLP_KIND_COUNT];  /* TLP count by kind (enum tlp_kind) */
    uint64_t bytes[TLP_KIND_COUNT]; /* wire bytes by kind: pcie_tlp_wire_bytes() */
    uint64_t tlp_bytes;             /* sum of bytes[] */
    uint64_t dllp_bytes;            /* ACK + UpdateFC DLLP bytes charged (8 B each) */
    uint64_t skp_bytes;             /* SKP ordered-set bytes (4 B per 1538 raw bytes) */
    sim_ps_t busy_ps;               /* time the serializer was busy (rounded) */
};

struct pcie_link; /* opaque */

/*
 * Create an idle, empty link.  cfg is copied.  Returns NULL if cfg fails
 * pcie_cfg_validate() or on allocation failure.
 */
struct pcie_link *pcie_link_create(const struct pcie_cfg *cfg);

/* Free the link and everything in flight.  NULL is a no-op. */
void pcie_link_destroy(struct pcie_link *l);

/*
 * Enqueue TLP *t at time `now` (see contract above).  Returns 0 on success;
 * -1, leaving the link unchanged, on allocation failure (growing a ring) or
 * a malformed TLP (type not enum tlp_type, kind >= TLP_KIND_COUNT, len 0 or
 * len > TLP_MAX_DATA).
 */
int pcie_link_send(struct pcie_link *l, sim_ps_t now, const struct tlp *t);

/* Arrival time of the oldest TLP in flight; SIM_PS_NEVER when empty. */
sim_ps_t pcie_link_next_arrival(const struct pcie_link *l);

/* The oldest TLP in flight, or NULL if empty. */
const struct tlp *pcie_link_peek(const struct pcie_link *l);

/* Drop the oldest TLP in flight (after it arrived).  No-op when empty. */
void pcie_link_pop(struct pcie_link *l);

/* Number of TLPs in flight (sent, not yet popped). */
size_t pcie_link_in_flight(const struct pcie_link *l);

/* Counters since creation (never reset by pop). */
const struct pcie_link_stats *pcie_link_stats(const struct pcie_link *l);

/* The link's config as copied at creation. */
const struct pcie_cfg *pcie_link_cfg(const struct pcie_link *l);

/*
 * Name of an enum tlp_kind: "doorbell", "mmio_wr", "bf_wr", "mmio_rd",
 * "mmio_cpl", "desc_rd", "desc_cpl", "payload_rd", "payload_cpl",
 * "completion", "irq", "other"; "invalid" for kind >= TLP_KIND_COUNT.
 */
const char *tlp_kind_name(unsigned kind);

#endif /* NICTX_PCIE_LINK_H */
