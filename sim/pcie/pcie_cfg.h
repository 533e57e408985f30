/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pcie_cfg.h - PCIe link configuration and the pure arithmetic of the link.
 *
 * What it models: the bandwidth a PCIe link offers at the TLP layer, the wire
 * size of each TLP, and how a transfer is split into TLPs.  Every figure
 * follows pcie-bench's open model `pcie-model` (Neugebauer et al., "Understanding
 * PCIe performance for end host networking", SIGCOMM 2018; repository
 * pcie-bench/pcie-model, files model/pcie.py and model/mem_bw.py), whose tables
 * come from the PCIe Base Spec rev 5.0 (Tables 2-46..2-48: UpdateFC rate;
 * Tables 3-7..3-9: Ack limits):
 *
 *   raw       = GT/s per lane * encoding * lanes
 *               (2.5/5/8/16/32 GT/s for Gen1..5; 8b/10b Gen1-2, 128b/130b Gen3-5)
 *   overhead  = 8/AckLimit + 8/FCGuide + 4/1538   (fraction of raw: 8 B ACK DLLP
 *               per AckLimit bytes, 8 B UpdateFC DLLP per FCGuide bytes, 4 B SKP
 *               ordered set per 1538 bytes)
 *   TLP-layer = raw * (1 - overhead)
 *
 * Gen4/Gen5 use Gen3's tables (as in pcie-model); for x1..x16 the FC table
 * equals the Ack table.  Per-TLP wire overhead with 64-bit addresses:
 * MWr/MRd 24 B (2 B framing + 2 B sequence + 4 B LCRC, 4 B generic header,
 * 12 B request header), CplD 20 B (8 + 4 + 8); payload travels in whole DWs.
 * No ECRC, no 32-bit address headers.
 *
 * Contract: a `struct pcie_cfg` is plain data owned by the caller.  Check it
 * with pcie_cfg_validate() before use; the arithmetic functions assume a
 * valid config and return 0 for one they cannot evaluate (they never divide
 * by zero or index out of their tables).
 */
#ifndef NICTX_PCIE_CFG_H
#define NICTX_PCIE_CFG_H

#include <stddef.h>
#include <stdint.h>

#include "pcie/tlp.h"

/* Per-TLP wire overheads in bytes (64-bit addressing, no ECRC). */
#define PCIE_DLLP_FRAMING_BYTES 8u  /* 2 B framing + 2 B seq + 4 B LCRC */
#define PCIE_MWR_OVERHEAD_BYTES 24u /* 8 + 4 generic header + 12 MWr 64 */
#define PCIE_MRD_OVERHEAD_BYTES 24u /* 8 + 4 generic header + 12 MRd 64 */
#define PCIE_CPLD_OVERHEAD_BYTES 20u /* 8 + 4 generic header + 8 CplD */
#define PCIE_DLLP_BYTES 8u          /* ACK / UpdateFC DLLP on the wire */
#define PCIE_SKP_BYTES 4u           /* SKP ordered set ... */
#define PCIE_SKP_INTERVAL 1538u     /* ... once per this many raw bytes */

/*
 * Default one-way latency of the link, ns: 100.  An ASSUMPTION standing for
 * the PHY/data-link pipelines at both ends and the root complex's
 * forwarding.  With the harness's default host memory service time of
 * 350 ns, a DMA read's round trip is 100 + 350 + 100 = 550 ns plus
 * serialization, which is pcie-bench's measured median for a 64 B DMA read
 * on Xeon E5 hosts (~546 ns; docs/model.md, Sources).  An MMIO read then takes
 * about 2 x 100 ns plus the device's response, inside the "hundreds of ns"
 * published for uncached reads.  docs/model.md has the derivation.
 */
#define PCIE_DEFAULT_LATENCY_NS 100.0

struct pcie_cfg {
    unsigned gen;       /* 1..5 */
    unsigned lanes;     /* 1, 2, 4, 8, 16 */
    unsigned mps;       /* max payload size: 128..4096, power of two */
    unsigned mrrs;      /* max read request size: 128..4096, power of two */
    unsigned rcb;       /* read completion boundary: 64 or 128 */
    int rcb_chunks;     /* nonzero: root complex completes in RCB-sized pieces;
                           else in pieces of up to MPS */
    double latency_ns;  /* one-way propagation latency of the link (fixed) */
};

/* One piece of a split transfer. */
struct pcie_chunk {
    uint64_t addr;
    uint32_t len;
};

/*
 * Defaults: Gen3 x8, MPS 256, MRRS 512, RCB 64, MPS-sized completions
 * (rcb_chunks = 0), latency PCIE_DEFAULT_LATENCY_NS.  These are pcie-bench's
 * "simple NIC" figures (docs/model.md, Sources).  Never fails.
 */
void pcie_cfg_default(struct pcie_cfg *cfg);

/*
 * Parse a link name "gen<G>x<L>" (case-insensitive: "gen3x8", "Gen3X16") and
 * set cfg->gen and cfg->lanes.  Returns 0 on success; -1 (cfg untouched) on a
 * malformed string, a NULL argument, G outside 1..5 or L not 1/2/4/8/16.
 */
int pcie_cfg_parse_link(struct pcie_cfg *cfg, const char *s);

/*
 * Check every field.  Returns 0 if valid; -1 if not, writing a one-line
 * message naming the bad field into err (if err != NULL and errlen > 0;
 * truncated to errlen, always NUL-terminated).
 */
int pcie_cfg_validate(const struct pcie_cfg *cfg, char *err, size_t errlen);

/* Spec table entries for this config (bytes); 0 if gen/lanes/mps invalid. */
unsigned pcie_cfg_ack_limit(const struct pcie_cfg *cfg);
unsigned pcie_cfg_fc_guide(const struct pcie_cfg *cfg);

/* Raw bandwidth after line encoding, Gb/s; 0.0 if gen/lanes invalid. */
double pcie_cfg_raw_gbps(const struct pcie_cfg *cfg);
/* ACK + UpdateFC + SKP overhead as a fraction of raw; 0.0 if invalid. */
double pcie_cfg_overhead(const struct pcie_cfg *cfg);
/* TLP-layer bandwidth raw * (1 - overhead), Gb/s; 0.0 if invalid. */
double pcie_cfg_tlp_gbps(const struct pcie_cfg *cfg);

/*
 * Wire bytes of one TLP.  `type` is enum tlp_type.  MWr: 24 + payload DWs*4,
 * CplD: 20 + payload DWs*4, where payload DWs = ceil(((addr & 3) + len) / 4)
 * (the first and last DW carry byte enables); MRd: 24 regardless of len.
 * Returns 0 for an unknown type.
 */
static inline unsigned pcie_tlp_wire_bytes(unsigned type, uint64_t addr, unsigned len)
{
    unsigned payload = (((unsigned)(addr & 3u) + len + 3u) / 4u) * 4u;
    switch (type) {
    case TLP_MWR:
        return PCIE_MWR_OVERHEAD_BYTES + payload;
    case TLP_MRD:
        return PCIE_MRD_OVERHEAD_BYTES;
    case TLP_CPLD:
        return PCIE_CPLD_OVERHEAD_BYTES + payload;
    case TLP_CPL: /* the same header, no data */
        return PCIE_CPLD_OVERHEAD_BYTES;
    default:
        return 0;
    }
}

/*
 * Split rules.  Each writes the chunks of [addr, addr+len) in address order to
 * out[0..n) and returns n.  Returns 0 (out contents unspecified) if len is 0,
 * out is NULL, more than `max` chunks are needed, or addr+len overflows.
 *
 * pcie_split_read_req: the requester's read requests.  Each is at most MRRS
 * and ends on an MRRS-aligned address (or at the end of the buffer):
 * chunk = min(remaining, MRRS - addr % MRRS).  Since MRRS divides 4096 no
 * request crosses a 4 KiB boundary; aligned buffers give ceil(len/MRRS).
 *
 * pcie_split_cpl: the completer's (root complex's) completions for ONE read
 * request (addr, len as requested).  Each carries at most MPS bytes and every
 * one but the last ends on an RCB-aligned address (spec rule).  With
 * cfg->rcb_chunks each completion ends at the next RCB boundary (aligned:
 * ceil(len/RCB) completions); otherwise each is the largest piece <= MPS
 * that ends on an RCB boundary or finishes the request (aligned:
 * ceil(len/MPS)).
 *
 * pcie_split_write: posted writes.  Each is at most MPS and ends on an
 * MPS-aligned address (or at the end), hence never crosses 4 KiB.
 */
size_t pcie_split_read_req(const struct pcie_cfg *cfg, uint64_t addr, uint32_t len,
                           struct pcie_chunk *out, size_t max);
size_t pcie_split_cpl(const struct pcie_cfg *cfg, uint64_t addr, uint32_t len,
                      struct pcie_chunk *out, size_t max);
size_t pcie_split_write(const struct pcie_cfg *cfg, uint64_t addr, uint32_t len,
                        struct pcie_chunk *out, size_t max);

/*
 * pcie-model's transfer arithmetic (model/mem_bw.py write()/read()), exactly
 * as it states it, for buffers aligned to the split boundaries:
 *   write:    ceil(sz/MPS) * 24 + sz
 *   read req: ceil(sz/MRRS) * 24
 *   read cpl: ceil(sz/MPS) * 20 + sz   (rcb_chunks: ceil(sz/RCB) * 20 + sz)
 * Note pcie-model charges `sz` payload bytes, not DW-rounded ones; the split
 * rules plus pcie_tlp_wire_bytes() give the same totals when sz is a multiple
 * of 4 (and MRRS >= MPS for completions), else up to 3 B more per TLP.
 * Returns 0 if the divisor field is 0.
 */
uint64_t pcie_model_write_bytes(const struct pcie_cfg *cfg, uint64_t sz);
uint64_t pcie_model_read_req_bytes(const struct pcie_cfg *cfg, uint64_t sz);
uint64_t pcie_model_read_cpl_bytes(const struct pcie_cfg *cfg, uint64_t sz);

/*
 * TLP-layer rate when UpdateFC DLLPs are sent explicitly on the link (see
 * pcie_link.h): the statistical FC share 8/FCGuide is left out, ACK and SKP
 * stay.  overhead_no_fc = 8/AckLimit + 4/1538; tlp_gbps_no_fc = raw * (1 -
 * overhead_no_fc).  0.0 if gen/lanes/mps invalid.
 */
double pcie_cfg_overhead_no_fc(const struct pcie_cfg *cfg);
double pcie_cfg_tlp_gbps_no_fc(const struct pcie_cfg *cfg);

/* ------------------------------------------------------- flow control
 *
 * Credit-based flow control (PCIe Base Spec section 2.6).  The receiver at
 * the far end of a link advertises, per credit *class* (Posted, Non-Posted,
 * Completion), header credits (one per TLP) and data credits (one per 16 B =
 * 4 DW of payload, counted in whole DWs as on the wire: ceil(payload_DWs/4);
 * MRd carries no data and needs no data credit).  An advertisement of 0
 * means infinite, as the spec allows (an endpoint must advertise infinite
 * completion credits; a root port need not).  These are plain data and pure
 * arithmetic; pcie_link.h does the accounting.
 */

enum pcie_fc_class {
    PCIE_FC_CLASS_P = 0, /* posted requests: MWr */
    PCIE_FC_CLASS_NP,    /* non-posted requests: MRd */
    PCIE_FC_CLASS_CPL,   /* completions: CplD */
    PCIE_FC_CLASSES
};

/* Credit types: class c has header type 2c and data type 2c + 1. */
enum pcie_fc_type {
    PCIE_FC_PH = 0,
    PCIE_FC_PD,
    PCIE_FC_NPH,
    PCIE_FC_NPD,
    PCIE_FC_CPLH,
    PCIE_FC_CPLD,
    PCIE_FC_TYPES
};

#define PCIE_FC_DATA_UNIT 16u /* bytes per data credit */
/* Largest advertisements accepted: 127 header / 2047 data credits scaled by
 * 16, the Scaled Flow Control maxima (PCIe 4.0 and later; without scaling
 * the limits are 127 / 2047).  The scale granularity is not enforced. */
#define PCIE_FC_HDR_MAX (127u * 16u)
#define PCIE_FC_DATA_MAX (2047u * 16u)

/* The latest a receiver may send freed credits back: the spec's UpdateFC
 * timer schedules one at least every 30 us (-0%/+50%; PCIe Base Spec
 * 2.6.1.2), so nothing released waits longer than 45 us for its UpdateFC. */
#define PCIE_FC_UPDATE_MAX_NS 45000.0

struct pcie_fc_cfg {
    unsigned ph, pd, nph, npd, cplh, cpld; /* advertised by the receiver at this
                                              link's far end; 0 = infinite */
    double update_latency_ns; /* receiver frees a TLP's buffer -> its UpdateFC
                                 DLLP is queued for transmission */
};

/* All six types infinite, update latency 0.  Never fails. */
void pcie_fc_cfg_infinite(struct pcie_fc_cfg *fc);

/*
 * Check an advertisement for a link whose max payload size is `mps`.
 * Returns 0 if valid; -1 if not, writing a one-line message into err (as
 * pcie_cfg_validate()).  Rules: header counts <= PCIE_FC_HDR_MAX, data counts
 * <= PCIE_FC_DATA_MAX; a finite PD or CPLD must be at least mps/16, the
 * spec's minimum advertisement (one max-size TLP must fit, else a max-size
 * write or completion could never be sent); update_latency_ns finite,
 * 0..PCIE_FC_UPDATE_MAX_NS.
 */
int pcie_fc_cfg_validate(const struct pcie_fc_cfg *fc, unsigned mps, char *err, size_t errlen);

/* Advertised credits of one enum pcie_fc_type (0 = infinite, also returned
 * for type >= PCIE_FC_TYPES). */
unsigned pcie_fc_cfg_limit(const struct pcie_fc_cfg *fc, unsigned type);

/* Nonzero if any of the six types is finite. */
int pcie_fc_cfg_any_finite(const struct pcie_fc_cfg *fc);

/* Credit class of an enum tlp_type; -1 for an unknown type. */
static inline int pcie_tlp_fc_class(unsigned type)
{
    switch (type) {
    case TLP_MWR:
        return PCIE_FC_CLASS_P;
    case TLP_MRD:
        return PCIE_FC_CLASS_NP;
    case TLP_CPLD:
    case TLP_CPL:
        return PCIE_FC_CLASS_CPL;
    default:
        return -1;
    }
}

/* Data credits a TLP needs: MRd 0; MWr/CplD ceil(ceil(((addr & 3) + len) / 4)
 * / 4), i.e. its payload DWs in units of 4 DW.  0 for an unknown type. */
static inline unsigned pcie_tlp_data_credits(unsigned type, uint64_t addr, unsigned len)
{
    unsigned dws;
    if (type != TLP_MWR && type != TLP_CPLD)
        return 0;
    dws = ((unsigned)(addr & 3u) + len + 3u) / 4u;
    return (dws + 3u) / 4u;
}

/* "ph", "pd", "nph", "npd", "cplh", "cpld"; "invalid" for type >= PCIE_FC_TYPES. */
const char *pcie_fc_type_name(unsigned type);

#endif /* NICTX_PCIE_CFG_H */
