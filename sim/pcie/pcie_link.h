/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pcie_link.h - one direction of a PCIe link, with flow-control credits.
 *
 * What it models: the transmitter at one end of a link direction, the wire,
 * and the flow-control side of the receiver at the far end.
 *
 *  - Transmit queues.  pcie_link_send() puts a TLP in one of three FIFO
 *    queues by credit class: Posted (MWr), Non-Posted (MRd), Completion
 *    (CplD).  Whenever the serializer is free it starts the *oldest eligible*
 *    TLP at the queue heads: its credits are available and the ordering
 *    rules below let it go.  UpdateFC DLLPs waiting to be sent on this
 *    direction go first (before queued TLPs, after the one being
 *    serialized).
 *  - Serializer.  One TLP (or DLLP) at a time at the link's TLP-layer rate
 *    (pcie_cfg_tlp_gbps(), after pcie-bench's pcie-model; see "Rate" below);
 *    its serialization time is wire bytes * 8 / rate.  It arrives a fixed
 *    propagation latency (cfg->latency_ns) after its last byte left.
 *  - Credits (PCIe Base Spec 2.6).  The far-end receiver advertises per type
 *    PH, PD, NPH, NPD, CPLH, CPLD (struct pcie_fc_cfg, pcie_cfg.h; 0 means
 *    infinite, the default).  A TLP consumes one header credit and
 *    pcie_tlp_data_credits() data credits of its class when it *starts*
 *    serialization.  When the caller says the receiver has freed a TLP's
 *    buffer (pcie_link_rx_release()), the credits go back to this link's
 *    transmitter in an UpdateFC DLLP on the *paired* link (the other
 *    direction, pcie_link_pair()):
 *      * at most one UpdateFC per credit class is scheduled at a time; it is
 *        queued update_latency_ns after the release that scheduled it, and
 *        every release of that class until it *starts* serialization rides
 *        on it (coalescing); a release after that schedules the next one;
 *      * it costs PCIE_DLLP_BYTES (8) on the paired link's serializer;
 *      * its credits become usable when it arrives (paired link's latency
 *        after its last byte).
 *    Classes whose header and data credits are both infinite send no
 *    UpdateFC (nothing to return), nor does a release that frees no finite
 *    credit.  The spec's periodic UpdateFC timer is not modelled.
 *    An UNPAIRED link with finite credits returns them without a carrier:
 *    the same coalescing, then the credits arrive update_latency_ns + this
 *    link's latency after the release that scheduled the update; no DLLP
 *    bytes are counted anywhere.
 *  - Ordering (PCIe Base Spec Table 2-40, simplified):
 *      * each queue is FIFO: a posted request never passes a posted request,
 *        reads never pass reads, completions never pass completions (the
 *        spec lets reads pass reads, completions with different transaction
 *        IDs pass each other, and a posted write with RO pass a posted
 *        write: not modelled);
 *      * a read or a completion never passes an older posted request unless
 *        its `ro` bit is set.  For completions that is the spec's rule
 *        (D2b, RO).  For reads the spec's relaxation is IDO with a different
 *        requester ID (B2b), not RO; we use `ro` on a read as that stand-in;
 *      * a posted request may pass a blocked read or completion (the spec's
 *        deadlock-avoidance rule), a completion may pass a blocked read, a
 *        read may pass a blocked completion (spec: permitted).
 *    With infinite credits nothing ever blocks, so every TLP starts in send
 *    order at max(send time, end of the previous serialization): exactly the
 *    FIFO link this module was before credits, whatever the `ro` bits.
 *  - Rate.  The TLP-layer rate deducts pcie-model's statistical ACK,
 *    UpdateFC and SKP overhead (pcie_cfg.h).  When the receiver at a link's
 *    far end has any finite credit type and the link is paired, its
 *    UpdateFCs are sent explicitly on the paired link, so the *paired* link
 *    (the one that carries them) drops the statistical FC share 8/FCGuide
 *    from its rate (pcie_cfg_tlp_gbps_no_fc()) and its stats count ACK and
 *    SKP statistically and UpdateFCs explicitly (updatefc_bytes).  Charging
 *    both would count the same DLLPs twice (about 4% of a Gen3 x8 link at
 *    MPS 256).  With all credits infinite every rate is the statistical one
 *    of old.  pcie_link_tlp_gbps() says which rate a link uses.
 *
 * Time and events.  All calls that take a time (send, rx_release, advance)
 * first process the link's internal events up to that time, then act; for
 * exact results give them non-decreasing times across BOTH links of a pair
 * (calls at the same ps act in call order).  Internal events are: an
 * UpdateFC starting serialization, an UpdateFC arriving (credits return),
 * a queued TLP starting.  pcie_link_next_event() is the earliest of those
 * and of the next TLP arrival; the caller must advance to it (it may be
 * earlier than any TLP arrival: TLPs waiting in queues are not yet in
 * flight, and pcie_link_next_arrival() cannot see them).  A paired link is
 * processed together with its partner: advancing either advances both, and
 * each one's next_event covers both partners' internal events.
 * A TLP is committed to the serializer at send time when nothing can change
 * its start (it is the oldest queued TLP, its credits are available, and no
 * UpdateFC can be queued on this link before it starts: with all credits of
 * the partner's receiver infinite, always) - that is the old behaviour and
 * keeps it exact; otherwise it is started by pcie_link_advance() at its
 * start time.  Calls with an earlier time than a previous call are accepted
 * (events already processed are not revisited; such a TLP may start at its
 * own send time if the serializer was free then, with the credits as of the
 * latest processed time).
 *
 * Stats.  stall_ps[type]: time a TLP at the head of its queue spent short of
 * credits of that type (if both its header and data credits are short, the
 * header type is charged), whether or not the serializer was free; charged
 * when the shortage ends (credits arrive or the TLP starts), so a stall in
 * progress is not yet counted.  queue_ps[kind]: time from send to the start
 * of serialization (credit stalls, ordering and waiting for the serializer).
 * ACK/UpdateFC/SKP bytes: as described under Rate; dllp_bytes stays the
 * statistical count (ACK, plus FC unless this link carries explicit
 * UpdateFCs), counted over the raw bytes this link's TLPs and explicit
 * UpdateFCs consume.
 *
 * Other contract points:
 *  - The link copies each TLP (header, `ro` and its `len` data bytes; none
 *    for MRd) into its own storage, so the caller's struct may be reused at
 *    once.  Arrivals are in serialization order.
 *  - pcie_link_peek() returns the oldest TLP in flight; the pointer stays
 *    valid until the next pcie_link_pop() or pcie_link_destroy().  The caller
 *    pops it once pcie_link_next_arrival() <= its current time (the link
 *    does not check the time on pop).
 *  - Not modelled: replay, link errors, ACK DLLPs as events, the receiver's
 *    own processing (the caller decides when a buffer is freed).
 *  - No global state; no allocation per TLP except when a ring doubles.
 */
#ifndef NICTX_PCIE_LINK_H
#define NICTX_PCIE_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "pcie/pcie_cfg.h"
#include "lib/simtime.h"
#include "obs/obs.h"
#include "pcie/tlp.h"

struct pcie_link_stats {
    uint64_t tlps[TLP_KIND_COUNT];  /* TLP count by kind (enum tlp_kind) */
    uint64_t bytes[TLP_KIND_COUNT]; /* wire bytes by kind: pcie_tlp_wire_bytes() */
    uint64_t tlp_bytes;             /* sum of bytes[] */
    uint64_t dllp_bytes;            /* statistical ACK (+ UpdateFC) DLLP bytes (8 B each) */
    uint64_t skp_bytes;             /* SKP ordered-set bytes (4 B per 1538 raw bytes) */
    sim_ps_t busy_ps;               /* time the serializer was busy (rounded) */
    /* Flow control and ordering (all 0 with infinite credits, but queue_ps). */
    sim_ps_t stall_ps[PCIE_FC_TYPES]; /* head-of-queue credit stall by enum pcie_fc_type */
    uint64_t stalls[PCIE_FC_TYPES];   /* ... how many (the stall_* cover points) */
    uint64_t updatefc_dllps;          /* explicit UpdateFC DLLPs this link carried */
    uint64_t updatefc_bytes;          /* their bytes (8 each), not in dllp_bytes */
    sim_ps_t queue_ps[TLP_KIND_COUNT]; /* send -> start of serialization, by kind */
};

/* The little a simulator polls on every device clock, kept up to date by
 * the link and read by the inline functions below: the first member of the
 * otherwise opaque struct pcie_link.  Read it only through them. */
struct pcie_link_head {
    sim_ps_t next_arrival;              /* pcie_link_next_arrival() */
    sim_ps_t next_int;                  /* this link's own internal events */
    const struct pcie_link_head *pair;  /* the partner's, or NULL */
    const struct tlp *peek;             /* pcie_link_peek() */
};

struct pcie_link; /* opaque but for its first member, a struct pcie_link_head */

static inline const struct pcie_link_head *pcie_link_head_of(const struct pcie_link *l)
{
    return (const struct pcie_link_head *)(const void *)l;
}

/*
 * Create an idle, empty, unpaired link with infinite credits.  cfg is
 * copied.  Returns NULL if cfg fails pcie_cfg_validate() or on allocation
 * failure.
 */
struct pcie_link *pcie_link_create(const struct pcie_cfg *cfg);

/* Free the link and everything in it.  A partner is unpaired (it keeps
 * working, as an unpaired link).  NULL is a no-op. */
void pcie_link_destroy(struct pcie_link *l);

/*
 * Set the credits the receiver at l's far end advertises (copied).  Call
 * before the first pcie_link_send() on l.  Returns 0; -1 (nothing changed)
 * if l or fc is NULL, fc fails pcie_fc_cfg_validate() for l's MPS, or l has
 * already been sent a TLP.  If l is paired this also sets the partner's rate
 * (see Rate above), so do it before the partner sends too.
 */
int pcie_link_set_fc(struct pcie_link *l, const struct pcie_fc_cfg *fc);

/* The credits l's far-end receiver advertises (all 0 = infinite by default). */
const struct pcie_fc_cfg *pcie_link_fc(const struct pcie_link *l);

/*
 * Make a and b the two directions of one link: UpdateFCs for a's receiver
 * travel on b and vice versa.  Call before either link sends.  Returns 0
 * (also if they are already paired with each other); -1 (nothing changed)
 * if a or b is NULL, a == b, either is paired with another link, or either
 * has already been sent a TLP.
 */
int pcie_link_pair(struct pcie_link *a, struct pcie_link *b);

/*
 * Enqueue TLP *t at time `now` (see Time and events).  Returns 0 on success;
 * -1, leaving the link unchanged, on allocation failure (growing a ring), a
 * malformed TLP (type not enum tlp_type, kind >= TLP_KIND_COUNT, len 0 or
 * len > TLP_MAX_DATA) or one that needs more data credits than the receiver
 * advertises (it could never be sent: e.g. a 512 B MWr with PD = 16).
 */
int pcie_link_send(struct pcie_link *l, sim_ps_t now, const struct tlp *t);

/*
 * The receiver at l's far end has consumed *t, a TLP it got from l, and
 * freed its buffer at time `now`: return its credits (one header credit and
 * pcie_tlp_data_credits() of its class) to l's transmitter by UpdateFC, as
 * described above.  Call once per TLP popped from l (t may be the pointer
 * from pcie_link_peek(), before the pop).  With that class infinite it does
 * nothing.  Returns 0; -1 (nothing changed) if l or t is NULL, t's type is
 * unknown, or on allocation failure.
 */
int pcie_link_rx_release(struct pcie_link *l, sim_ps_t now, const struct tlp *t);

/*
 * A credit blackout on l's transmitter: no TLP starts in [from, until), as
 * when the far end returns no credits for that long and the last ones are
 * spent (fault injection).  A TLP due inside waits for `until`; DLLPs go on.
 * A later call replaces the window; until <= from clears it.
 */
void pcie_link_blackout(struct pcie_link *l, sim_ps_t from, sim_ps_t until);

/*
 * Earliest time at which something happens on l: a TLP arrives on l, or an
 * internal event of l or its partner (see Time and events).  SIM_PS_NEVER
 * if nothing will happen without another call (empty, or every queued TLP
 * waits for credits that no release has been made for yet).
 */
sim_ps_t pcie_link_next_event(const struct pcie_link *l);

/* Earliest internal event of l or its partner, TLP arrivals left out: what
 * pcie_link_advance() would act on.  SIM_PS_NEVER if none. */
static inline sim_ps_t pcie_link_next_internal(const struct pcie_link *l)
{
    const struct pcie_link_head *h = pcie_link_head_of(l);
    sim_ps_t t = h->next_int;
    if (h->pair != NULL && h->pair->next_int < t)
        t = h->pair->next_int;
    return t;
}

/* Process internal events of l and its partner up to and including `now`. */
void pcie_link_advance(struct pcie_link *l, sim_ps_t now);

/* Arrival time of the oldest TLP in flight (serialized, not popped);
 * SIM_PS_NEVER when none.  Queued TLPs are not in flight. */
static inline sim_ps_t pcie_link_next_arrival(const struct pcie_link *l)
{
    return pcie_link_head_of(l)->next_arrival;
}

/* The oldest TLP in flight, or NULL if none. */
static inline const struct tlp *pcie_link_peek(const struct pcie_link *l)
{
    return pcie_link_head_of(l)->peek;
}

/* Drop the oldest TLP in flight (after it arrived).  No-op when none. */
void pcie_link_pop(struct pcie_link *l);

/* Number of TLPs sent and not yet popped: queued plus in flight. */
size_t pcie_link_in_flight(const struct pcie_link *l);

/* Number of TLPs waiting in the transmit queues (not yet serialized). */
size_t pcie_link_queued(const struct pcie_link *l);

/* Of those, the ones of credit class cls (enum pcie_fc_class); 0 for an
 * unknown class. */
size_t pcie_link_queued_class(const struct pcie_link *l, unsigned cls);

/*
 * Credits of one enum pcie_fc_type l's transmitter may still use, as of the
 * latest processed time (advertised - consumed + returned); UINT32_MAX for
 * an infinite type or type >= PCIE_FC_TYPES.
 */
uint32_t pcie_link_credits(const struct pcie_link *l, unsigned type);

/* Tell `obs` (NULL: nobody) of each TLP as it starts serialization and of
 * each credit stall as it ends, as link direction `dir` (0 h2d, 1 d2h;
 * sim/obs/obs.h). */
void pcie_link_set_obs(struct pcie_link *l, struct obs *obs, unsigned dir);

/* Counters since creation (never reset by pop).  The figures derived from
 * the totals (dllp_bytes, skp_bytes, busy_ps) are brought up to date by
 * this call, so read them through a fresh call, not an old pointer. */
const struct pcie_link_stats *pcie_link_stats(struct pcie_link *l);

/* The link's config as copied at creation. */
const struct pcie_cfg *pcie_link_cfg(const struct pcie_link *l);

/* The TLP-layer rate the link serializes at, Gb/s: pcie_cfg_tlp_gbps(), or
 * pcie_cfg_tlp_gbps_no_fc() when it carries explicit UpdateFCs. */
double pcie_link_tlp_gbps(const struct pcie_link *l);

/*
 * Name of an enum tlp_kind: "doorbell", "mmio_wr", "bf_wr", "mmio_rd",
 * "mmio_cpl", "desc_rd", "desc_cpl", "payload_rd", "payload_cpl",
 * "completion", "irq", "other"; "invalid" for kind >= TLP_KIND_COUNT.
 */
const char *tlp_kind_name(unsigned kind);

#endif /* NICTX_PCIE_LINK_H */
