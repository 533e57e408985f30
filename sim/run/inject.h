/* SPDX-License-Identifier: Apache-2.0 */
/*
 * inject.h - a run's fault plan: which faults to inject, at which packet
 * (--inject KIND@N[,KIND@N...]; docs/faults.md).
 *
 * Each fault is tied to a packet: `KIND@N`, queue 0's packet N (its
 * sequence number, from 0), or `KIND@Q/N`, queue Q's packet N (each queue
 * numbers its own packets, as its pktgen and the scoreboard do).  Kinds:
 *   ur, ca, ep  the first DMA read of packet N's frame completes with
 *               Unsupported Request, Completer Abort, or poisoned (EP);
 *   timeout     that read's completions never come;
 *   db-off      the device is disabled just before packet N is posted, so
 *               its doorbell finds it off;
 *   blackout    written blackout@N:T (blackout@Q/N:T): from packet N's
 *               posting, the link returns no flow-control credits for T
 *               ns, both directions.
 * The plan is parsed and checked here; the harness carries it out.
 */
#ifndef NICTX_INJECT_H
#define NICTX_INJECT_H

#include <stddef.h>
#include <stdint.h>

enum inj_kind { INJ_UR, INJ_CA, INJ_EP, INJ_TIMEOUT, INJ_DB_OFF, INJ_BLACKOUT, INJ_KINDS };

#define INJ_MAX 16u                 /* faults per run */
#define INJ_BLACKOUT_MAX_NS 1e9     /* longest credit blackout */
#define INJ_QUEUES_MAX 64u          /* Q in KIND@Q/N: 0..63 */

struct inj {
    enum inj_kind kind;
    unsigned q;   /* the queue whose packet it is (0 unless KIND@Q/N) */
    uint64_t at;  /* packet sequence number, the queue's own */
    double ns;    /* blackout: its length; 0 for the others */
};

struct inj_plan {
    unsigned n;
    struct inj v[INJ_MAX];
};

/* Parse `spec` ("ur@100,ep@2/300,blackout@2000:50000"; "" or "none": no
 * faults) into *p.  Q and N are strict decimal; Q below INJ_QUEUES_MAX
 * (whether the run has that queue is sim_cfg_validate's).  0, or -1 with a
 * message naming the bad item in err. */
int inj_parse(struct inj_plan *p, const char *spec, char *err, size_t errlen);

/* The kind's name as the option spells it ("db-off"), "invalid" if none. */
const char *inj_kind_name(enum inj_kind k);

/* Does the fault act on a DMA read of the packet's frame? */
int inj_on_read(enum inj_kind k);

/* The plan in the option's syntax ("none" when empty; a fault of queue 0
 * as KIND@N, of another as KIND@Q/N), truncated to len. */
void inj_format(const struct inj_plan *p, char *buf, size_t len);

#endif /* NICTX_INJECT_H */
