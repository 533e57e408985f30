/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tlp.h - one PCIe transaction layer packet as the simulator carries it.
 *
 * A TLP is a request (MWr, MRd) or a completion with data (CplD).  The link
 * (pcie_link.h) charges its wire size from type and length; the device port
 * (device.h) carries it as beats.  Each TLP is also tagged with the *kind* of
 * traffic it belongs to, purely for accounting (bytes per packet by kind);
 * the kind never changes behaviour.
 *
 * Data layout: data[] holds exactly `len` payload bytes, data[0] being the
 * byte at `addr`.  MRd carries no data; its `len` is the requested length.
 * For CplD, `addr` is the full address of the first byte returned (a real
 * CplD carries only Lower Address[6:0]; the device uses only those bits) and
 * `len` is the byte count of this completion.
 */
#ifndef NICTX_TLP_H
#define NICTX_TLP_H

#include <stdint.h>

#define TLP_MAX_DATA 4096u /* largest MPS the spec allows */

enum tlp_type {
    TLP_MWR = 0,  /* posted memory write */
    TLP_MRD = 1,  /* non-posted memory read */
    TLP_CPLD = 2, /* completion with data */
    TLP_CPL = 3,  /* completion without data (len 0): a status other than SC */
};

/* Accounting kinds; keep tlp_kind_name() in pcie_link.c in step. */
enum tlp_kind {
    TLP_KIND_DOORBELL = 0, /* H->D MWr to the tail register */
    TLP_KIND_MMIO_WR,      /* H->D MWr to any other register */
    TLP_KIND_BF_WR,        /* H->D write-combining descriptor push (BlueFlame) */
    TLP_KIND_MMIO_RD,      /* H->D MRd of a register */
    TLP_KIND_MMIO_CPL,     /* D->H CplD answering a register read */
    TLP_KIND_DESC_RD,      /* D->H MRd of descriptors */
    TLP_KIND_DESC_CPL,     /* H->D CplD carrying descriptors */
    TLP_KIND_PAYLOAD_RD,   /* D->H MRd of packet data */
    TLP_KIND_PAYLOAD_CPL,  /* H->D CplD carrying packet data */
    TLP_KIND_COMPLETION,   /* D->H MWr of the head index (head writeback) */
    TLP_KIND_IRQ,          /* D->H MWr of an MSI-X message */
    TLP_KIND_OTHER,
    TLP_KIND_COUNT
};

/* Completion status field (PCIe Base Spec, Completion Status). */
enum tlp_status {
    TLP_STATUS_SC = 0, /* Successful Completion */
    TLP_STATUS_UR = 1, /* Unsupported Request */
    TLP_STATUS_CA = 4, /* Completer Abort */
};

struct tlp {
    uint8_t type;  /* enum tlp_type */
    uint8_t kind;  /* enum tlp_kind */
    uint8_t tag;   /* MRd/CplD: transaction tag */
    uint8_t last;  /* CplD: last completion of its request */
    uint16_t len;  /* payload bytes (MRd: requested bytes), 1..4096; Cpl: 0 */
    uint64_t addr; /* byte address (see above for CplD) */
    uint8_t ro;    /* Relaxed Ordering attribute */
    uint8_t status; /* CplD: enum tlp_status */
    uint8_t ep;     /* CplD: poisoned (EP bit): its data must not be used */
    uint8_t data[TLP_MAX_DATA];
};

#endif /* NICTX_TLP_H */
