/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pcie_cfg.c - PCIe link configuration and pure PCIe arithmetic.
 *
 * Sources (see pcie_cfg.h): pcie-bench/pcie-model model/pcie.py (rates,
 * encodings, Ack/FC tables, header sizes, TLP-layer bandwidth formula) and
 * model/mem_bw.py (transfer arithmetic); PCIe Base Spec rev 5.0 Tables
 * 2-46..2-48 and 3-7..3-9.  Written independently from those descriptions.
 */
#include "pcie/pcie_cfg.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>

#define GEN_MAX 5u
#define TBL_GENS 3  /* Gen1, Gen2, Gen3 (Gen4/Gen5 use Gen3's rows) */
#define TBL_LANES 5 /* x1, x2, x4, x8, x16 */
#define TBL_MPS 6   /* 128, 256, 512, 1024, 2048, 4096 */

/*
 * Ack limit (PCIe Base Spec 5.0 Tables 3-7..3-9) in bytes, indexed
 * [gen][log2(lanes)][log2(mps/128)].  pcie-model's FC_Guide (Tables
 * 2-46..2-48) has the same entries for x1..x16, so one table serves both.
 */
static const unsigned short ack_limit_tbl[TBL_GENS][TBL_LANES][TBL_MPS] = {
    { /* Gen1 (2.5 GT/s) */
        {237, 416, 559, 1071, 2095, 4143}, /* x1 */
        {128, 217, 289, 545, 1057, 2081},  /* x2 */
        {73, 118, 154, 282, 538, 1050},    /* x4 */
        {67, 107, 86, 150, 278, 534},      /* x8 */
        {48, 72, 86, 150, 278, 534},       /* x16 */
    },
    { /* Gen2 (5 GT/s) */
        {288, 467, 610, 1122, 2146, 4194},
        {179, 268, 340, 596, 1108, 2132},
        {124, 169, 205, 333, 589, 1101},
        {118, 158, 137, 201, 329, 585},
        {99, 123, 137, 201, 329, 585},
    },
    { /* Gen3 (8 GT/s), also used for Gen4 and Gen5 */
        {333, 512, 655, 1167, 2191, 4239},
        {224, 313, 385, 641, 1153, 2177},
        {169, 214, 250, 378, 634, 1146},
        {163, 203, 182, 246, 374, 630},
        {144, 168, 182, 246, 374, 630},
    },
};

/* Transfer rate per lane, GT/s, Gen1..Gen5. */
static const double gts_per_lane[GEN_MAX] = {2.5, 5.0, 8.0, 16.0, 32.0};

static int is_pow2(unsigned v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

/* log2 of a power of two. */
static unsigned ilog2(unsigned v)
{
    unsigned n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

static int lanes_ok(unsigned lanes)
{
    return is_pow2(lanes) && lanes <= 16;
}

static int size_ok(unsigned sz)
{
    return is_pow2(sz) && sz >= 128 && sz <= 4096;
}

void pcie_cfg_default(struct pcie_cfg *cfg)
{
    cfg->gen = 3;
    cfg->lanes = 8;
    cfg->mps = 256;
    cfg->mrrs = 512;
    cfg->rcb = 64;
    cfg->rcb_chunks = 0;
    cfg->latency_ns = PCIE_DEFAULT_LATENCY_NS;
}

/* Parse a short run of decimal digits; returns -1 if none or too many. */
static int parse_small_uint(const char **pp, unsigned *out)
{
    const char *p = *pp;
    unsigned v = 0;
    int n = 0;
    while (isdigit((unsigned char)*p)) {
        if (++n > 4)
            return -1;
        v = v * 10u + (unsigned)(*p - '0');
        p++;
    }
    if (n == 0)
        return -1;
    *out = v;
    *pp = p;
    return 0;
}

int pcie_cfg_parse_link(struct pcie_cfg *cfg, const char *s)
{
    unsigned gen, lanes;
    if (cfg == NULL || s == NULL)
        return -1;
    if (tolower((unsigned char)s[0]) != 'g' || tolower((unsigned char)s[1]) != 'e' ||
        tolower((unsigned char)s[2]) != 'n')
        return -1;
    s += 3;
    if (parse_small_uint(&s, &gen) != 0)
        return -1;
    if (*s != 'x' && *s != 'X')
        return -1;
    s++;
    if (parse_small_uint(&s, &lanes) != 0 || *s != '\0')
        return -1;
    if (gen < 1 || gen > GEN_MAX || !lanes_ok(lanes))
        return -1;
    cfg->gen = gen;
    cfg->lanes = lanes;
    return 0;
}

int pcie_cfg_validate(const struct pcie_cfg *cfg, char *err, size_t errlen)
{
    char buf[128];
    buf[0] = '\0';
    if (cfg == NULL)
        snprintf(buf, sizeof buf, "pcie: no config");
    else if (cfg->gen < 1 || cfg->gen > GEN_MAX)
        snprintf(buf, sizeof buf, "pcie: gen %u unsupported (1..5)", cfg->gen);
    else if (!lanes_ok(cfg->lanes))
        snprintf(buf, sizeof buf, "pcie: lanes x%u unsupported (1, 2, 4, 8, 16)", cfg->lanes);
    else if (!size_ok(cfg->mps))
        snprintf(buf, sizeof buf, "pcie: mps %u invalid (power of two, 128..4096)", cfg->mps);
    else if (!size_ok(cfg->mrrs))
        snprintf(buf, sizeof buf, "pcie: mrrs %u invalid (power of two, 128..4096)", cfg->mrrs);
    else if (cfg->rcb != 64 && cfg->rcb != 128)
        snprintf(buf, sizeof buf, "pcie: rcb %u invalid (64 or 128)", cfg->rcb);
    else if (!(cfg->latency_ns >= 0.0) || !isfinite(cfg->latency_ns) || cfg->latency_ns > 1e9)
        snprintf(buf, sizeof buf, "pcie: latency_ns %g invalid (0..1e9)", cfg->latency_ns);
    if (buf[0] == '\0')
        return 0;
    if (err != NULL && errlen > 0)
        snprintf(err, errlen, "%s", buf);
    return -1;
}

unsigned pcie_cfg_ack_limit(const struct pcie_cfg *cfg)
{
    unsigned g;
    if (cfg->gen < 1 || cfg->gen > GEN_MAX || !lanes_ok(cfg->lanes) || !size_ok(cfg->mps))
        return 0;
    g = cfg->gen > 3 ? 3 : cfg->gen;
    return ack_limit_tbl[g - 1][ilog2(cfg->lanes)][ilog2(cfg->mps / 128)];
}

unsigned pcie_cfg_fc_guide(const struct pcie_cfg *cfg)
{
    /* pcie-model FC_Guide == Ack_Limits for x1..x16 (see table comment). */
    return pcie_cfg_ack_limit(cfg);
}

double pcie_cfg_raw_gbps(const struct pcie_cfg *cfg)
{
    double enc;
    if (cfg->gen < 1 || cfg->gen > GEN_MAX || !lanes_ok(cfg->lanes))
        return 0.0;
    enc = cfg->gen <= 2 ? 8.0 / 10.0 : 128.0 / 130.0;
    return gts_per_lane[cfg->gen - 1] * enc * (double)cfg->lanes;
}

double pcie_cfg_overhead(const struct pcie_cfg *cfg)
{
    unsigned ack = pcie_cfg_ack_limit(cfg);
    unsigned fc = pcie_cfg_fc_guide(cfg);
    if (ack == 0 || fc == 0)
        return 0.0;
    return (double)PCIE_DLLP_BYTES / ack + (double)PCIE_DLLP_BYTES / fc +
           (double)PCIE_SKP_BYTES / PCIE_SKP_INTERVAL;
}

double pcie_cfg_tlp_gbps(const struct pcie_cfg *cfg)
{
    if (pcie_cfg_ack_limit(cfg) == 0)
        return 0.0;
    return pcie_cfg_raw_gbps(cfg) * (1.0 - pcie_cfg_overhead(cfg));
}

double pcie_cfg_overhead_no_fc(const struct pcie_cfg *cfg)
{
    unsigned ack = pcie_cfg_ack_limit(cfg);
    if (ack == 0)
        return 0.0;
    return (double)PCIE_DLLP_BYTES / ack + (double)PCIE_SKP_BYTES / PCIE_SKP_INTERVAL;
}

double pcie_cfg_tlp_gbps_no_fc(const struct pcie_cfg *cfg)
{
    if (pcie_cfg_ack_limit(cfg) == 0)
        return 0.0;
    return pcie_cfg_raw_gbps(cfg) * (1.0 - pcie_cfg_overhead_no_fc(cfg));
}

/*
 * Split [addr, addr+len) into pieces that each end on a multiple of `bound`
 * (a power of two) or at the end of the buffer.
 */
static size_t split_on_boundary(uint64_t addr, uint32_t len, uint64_t bound,
                                struct pcie_chunk *out, size_t max)
{
    size_t n = 0;
    uint64_t rem = len;
    if (out == NULL || len == 0 || bound == 0 || addr + len < addr)
        return 0;
    while (rem > 0) {
        uint64_t room = bound - (addr & (bound - 1));
        uint64_t c = rem < room ? rem : room;
        if (n == max)
            return 0;
        out[n].addr = addr;
        out[n].len = (uint32_t)c;
        n++;
        addr += c;
        rem -= c;
    }
    return n;
}

size_t pcie_split_read_req(const struct pcie_cfg *cfg, uint64_t addr, uint32_t len,
                           struct pcie_chunk *out, size_t max)
{
    if (!size_ok(cfg->mrrs))
        return 0;
    return split_on_boundary(addr, len, cfg->mrrs, out, max);
}

size_t pcie_split_write(const struct pcie_cfg *cfg, uint64_t addr, uint32_t len,
                        struct pcie_chunk *out, size_t max)
{
    if (!size_ok(cfg->mps))
        return 0;
    return split_on_boundary(addr, len, cfg->mps, out, max);
}

size_t pcie_split_cpl(const struct pcie_cfg *cfg, uint64_t addr, uint32_t len,
                      struct pcie_chunk *out, size_t max)
{
    uint64_t rcb = cfg->rcb, mps = cfg->mps, rem = len;
    size_t n = 0;
    if (!is_pow2(cfg->rcb) || !size_ok(cfg->mps) || rcb > mps)
        return 0;
    if (cfg->rcb_chunks)
        return split_on_boundary(addr, len, rcb, out, max);
    if (out == NULL || len == 0 || addr + len < addr)
        return 0;
    while (rem > 0) {
        uint64_t c;
        if (rem <= mps) {
            c = rem; /* the last completion may end anywhere */
        } else {
            /* Largest piece <= MPS ending on an RCB boundary; it is at least
             * RCB - addr%RCB > 0 bytes because MPS >= RCB. */
            uint64_t end = (addr + mps) & ~(rcb - 1);
            c = end - addr;
        }
        if (n == max)
            return 0;
        out[n].addr = addr;
        out[n].len = (uint32_t)c;
        n++;
        addr += c;
        rem -= c;
    }
    return n;
}

static uint64_t div_ceil(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

uint64_t pcie_model_write_bytes(const struct pcie_cfg *cfg, uint64_t sz)
{
    if (cfg->mps == 0)
        return 0;
    return div_ceil(sz, cfg->mps) * PCIE_MWR_OVERHEAD_BYTES + sz;
}

uint64_t pcie_model_read_req_bytes(const struct pcie_cfg *cfg, uint64_t sz)
{
    if (cfg->mrrs == 0)
        return 0;
    return div_ceil(sz, cfg->mrrs) * PCIE_MRD_OVERHEAD_BYTES;
}

uint64_t pcie_model_read_cpl_bytes(const struct pcie_cfg *cfg, uint64_t sz)
{
    unsigned unit = cfg->rcb_chunks ? cfg->rcb : cfg->mps;
    if (unit == 0)
        return 0;
    return div_ceil(sz, unit) * PCIE_CPLD_OVERHEAD_BYTES + sz;
}

/* ------------------------------------------------------- flow control */

static const char *const fc_type_names[PCIE_FC_TYPES] = {
    [PCIE_FC_PH] = "ph",     [PCIE_FC_PD] = "pd",     [PCIE_FC_NPH] = "nph",
    [PCIE_FC_NPD] = "npd",   [PCIE_FC_CPLH] = "cplh", [PCIE_FC_CPLD] = "cpld",
};

void pcie_fc_cfg_infinite(struct pcie_fc_cfg *fc)
{
    fc->ph = fc->pd = fc->nph = fc->npd = fc->cplh = fc->cpld = 0;
    fc->update_latency_ns = 0.0;
}

unsigned pcie_fc_cfg_limit(const struct pcie_fc_cfg *fc, unsigned type)
{
    switch (type) {
    case PCIE_FC_PH:
        return fc->ph;
    case PCIE_FC_PD:
        return fc->pd;
    case PCIE_FC_NPH:
        return fc->nph;
    case PCIE_FC_NPD:
        return fc->npd;
    case PCIE_FC_CPLH:
        return fc->cplh;
    case PCIE_FC_CPLD:
        return fc->cpld;
    default:
        return 0;
    }
}

int pcie_fc_cfg_any_finite(const struct pcie_fc_cfg *fc)
{
    for (unsigned k = 0; k < PCIE_FC_TYPES; k++)
        if (pcie_fc_cfg_limit(fc, k) != 0)
            return 1;
    return 0;
}

int pcie_fc_cfg_validate(const struct pcie_fc_cfg *fc, unsigned mps, char *err, size_t errlen)
{
    char buf[128];
    buf[0] = '\0';
    if (fc == NULL) {
        snprintf(buf, sizeof buf, "pcie fc: no config");
    } else {
        for (unsigned k = 0; k < PCIE_FC_TYPES && buf[0] == '\0'; k++) {
            unsigned v = pcie_fc_cfg_limit(fc, k);
            int is_data = (k & 1u) != 0;
            unsigned max = is_data ? PCIE_FC_DATA_MAX : PCIE_FC_HDR_MAX;
            if (v > max)
                snprintf(buf, sizeof buf, "pcie fc: %s %u above the maximum %u",
                         fc_type_names[k], v, max);
            else if (v != 0 && (k == PCIE_FC_PD || k == PCIE_FC_CPLD) &&
                     v < mps / PCIE_FC_DATA_UNIT)
                snprintf(buf, sizeof buf,
                         "pcie fc: %s %u below mps/16 = %u (a max-size TLP could never go)",
                         fc_type_names[k], v, mps / PCIE_FC_DATA_UNIT);
        }
        if (buf[0] == '\0' &&
            (!(fc->update_latency_ns >= 0.0) || !isfinite(fc->update_latency_ns) ||
             fc->update_latency_ns > PCIE_FC_UPDATE_MAX_NS))
            snprintf(buf, sizeof buf,
                     "pcie fc: update_latency_ns %g invalid (0..%.0f: a receiver sends an "
                     "UpdateFC at least every 30 us -0%%/+50%%)",
                     fc->update_latency_ns, PCIE_FC_UPDATE_MAX_NS);
    }
    if (buf[0] == '\0')
        return 0;
    if (err != NULL && errlen > 0)
        snprintf(err, errlen, "%s", buf);
    return -1;
}

const char *pcie_fc_type_name(unsigned type)
{
    return type < PCIE_FC_TYPES ? fc_type_names[type] : "invalid";
}
