/*
 * pcie_link.c - one direction of a PCIe link: FIFO serializer + fixed latency.
 *
 * Storage: TLPs in flight are kept as a ring of small headers plus a byte ring
 * holding their payloads back to back (MRd: none), both powers of two that
 * double when full.  The oldest TLP is additionally materialized into one
 * `struct tlp` (cur) so pcie_link_peek() can hand out a plain pointer.
 *
 * Rate and DLLP/SKP accounting follow pcie-bench's pcie-model (model/pcie.py):
 * see pcie_cfg.h.
 */
#include "pcie_link.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HDR_RING_INIT 64u
#define BYTE_RING_INIT 16384u

struct link_hdr {
    sim_ps_t arrival;
    uint64_t addr;
    uint16_t len;
    uint8_t type;
    uint8_t kind;
    uint8_t tag;
    uint8_t last;
};

struct pcie_link {
    struct pcie_cfg cfg;
    double ps_per_byte;      /* serialization time of one wire byte */
    double raw_per_tlp_byte; /* 1 / (1 - overhead) */
    double ack_limit;        /* bytes of raw traffic per ACK DLLP */
    double fc_guide;         /* bytes of raw traffic per UpdateFC DLLP */
    sim_ps_t latency_ps;

    /* End of the last serialization: free_ps + free_frac (0 <= frac < 1). */
    sim_ps_t free_ps;
    double free_frac;
    double busy_exact; /* sum of serialization times, ps */

    struct link_hdr *hdr; /* ring, capacity hdr_cap (power of two) */
    size_t hdr_cap, hdr_head, hdr_count;

    uint8_t *buf; /* byte ring, capacity buf_cap (power of two) */
    size_t buf_cap, buf_head, buf_used;

    int cur_valid;
    struct tlp cur; /* copy of the oldest TLP in flight */

    struct pcie_link_stats stats;
};

static const char *const kind_names[TLP_KIND_COUNT] = {
    [TLP_KIND_DOORBELL] = "doorbell",
    [TLP_KIND_MMIO_WR] = "mmio_wr",
    [TLP_KIND_BF_WR] = "bf_wr",
    [TLP_KIND_MMIO_RD] = "mmio_rd",
    [TLP_KIND_MMIO_CPL] = "mmio_cpl",
    [TLP_KIND_DESC_RD] = "desc_rd",
    [TLP_KIND_DESC_CPL] = "desc_cpl",
    [TLP_KIND_PAYLOAD_RD] = "payload_rd",
    [TLP_KIND_PAYLOAD_CPL] = "payload_cpl",
    [TLP_KIND_COMPLETION] = "completion",
    [TLP_KIND_IRQ] = "irq",
    [TLP_KIND_OTHER] = "other",
};

const char *tlp_kind_name(unsigned kind)
{
    if (kind >= TLP_KIND_COUNT || kind_names[kind] == NULL)
        return "invalid";
    return kind_names[kind];
}

struct pcie_link *pcie_link_create(const struct pcie_cfg *cfg)
{
    struct pcie_link *l;
    if (cfg == NULL || pcie_cfg_validate(cfg, NULL, 0) != 0)
        return NULL;
    l = calloc(1, sizeof *l);
    if (l == NULL)
        return NULL;
    l->cfg = *cfg;
    l->ps_per_byte = 8000.0 / pcie_cfg_tlp_gbps(cfg); /* 8 bits / (Gb/s) = ns */
    l->raw_per_tlp_byte = 1.0 / (1.0 - pcie_cfg_overhead(cfg));
    l->ack_limit = (double)pcie_cfg_ack_limit(cfg);
    l->fc_guide = (double)pcie_cfg_fc_guide(cfg);
    l->latency_ps = sim_ns_to_ps(cfg->latency_ns);
    l->hdr_cap = HDR_RING_INIT;
    l->buf_cap = BYTE_RING_INIT;
    l->hdr = malloc(l->hdr_cap * sizeof *l->hdr);
    l->buf = malloc(l->buf_cap);
    if (l->hdr == NULL || l->buf == NULL) {
        pcie_link_destroy(l);
        return NULL;
    }
    return l;
}

void pcie_link_destroy(struct pcie_link *l)
{
    if (l == NULL)
        return;
    free(l->hdr);
    free(l->buf);
    free(l);
}

/* Make room for one more header; 0 ok, -1 on allocation failure. */
static int hdr_reserve(struct pcie_link *l)
{
    struct link_hdr *n;
    size_t cap, first;
    if (l->hdr_count < l->hdr_cap)
        return 0;
    cap = l->hdr_cap * 2;
    n = malloc(cap * sizeof *n);
    if (n == NULL)
        return -1;
    /* Linearize: oldest at index 0. */
    first = l->hdr_cap - l->hdr_head;
    if (first > l->hdr_count)
        first = l->hdr_count;
    memcpy(n, l->hdr + l->hdr_head, first * sizeof *n);
    memcpy(n + first, l->hdr, (l->hdr_count - first) * sizeof *n);
    free(l->hdr);
    l->hdr = n;
    l->hdr_cap = cap;
    l->hdr_head = 0;
    return 0;
}

/* Copy len bytes out of the byte ring starting at offset off. */
static void buf_read(const struct pcie_link *l, size_t off, uint8_t *dst, size_t len)
{
    size_t first = l->buf_cap - off;
    if (first > len)
        first = len;
    memcpy(dst, l->buf + off, first);
    memcpy(dst + first, l->buf, len - first);
}

/* Make room for len more data bytes; 0 ok, -1 on allocation failure. */
static int buf_reserve(struct pcie_link *l, size_t len)
{
    uint8_t *n;
    size_t cap = l->buf_cap;
    if (l->buf_cap - l->buf_used >= len)
        return 0;
    while (cap - l->buf_used < len)
        cap *= 2;
    n = malloc(cap);
    if (n == NULL)
        return -1;
    buf_read(l, l->buf_head, n, l->buf_used);
    free(l->buf);
    l->buf = n;
    l->buf_cap = cap;
    l->buf_head = 0;
    return 0;
}

static void buf_write(struct pcie_link *l, const uint8_t *src, size_t len)
{
    size_t off = (l->buf_head + l->buf_used) & (l->buf_cap - 1);
    size_t first = l->buf_cap - off;
    if (first > len)
        first = len;
    memcpy(l->buf + off, src, first);
    memcpy(l->buf, src + first, len - first);
    l->buf_used += len;
}

static size_t data_len(uint8_t type, uint16_t len)
{
    return type == TLP_MRD ? 0 : len;
}

/* Copy the oldest header and its data into cur. */
static void materialize_head(struct pcie_link *l)
{
    const struct link_hdr *h = &l->hdr[l->hdr_head];
    l->cur.type = h->type;
    l->cur.kind = h->kind;
    l->cur.tag = h->tag;
    l->cur.last = h->last;
    l->cur.len = h->len;
    l->cur.addr = h->addr;
    buf_read(l, l->buf_head, l->cur.data, data_len(h->type, h->len));
    l->cur_valid = 1;
}

int pcie_link_send(struct pcie_link *l, sim_ps_t now, const struct tlp *t)
{
    struct link_hdr *h;
    unsigned wire;
    size_t dlen;
    sim_ps_t start_ps, end_ps;
    double start_frac, end, whole, ser, raw;

    if (t == NULL || t->kind >= TLP_KIND_COUNT || t->len == 0 || t->len > TLP_MAX_DATA)
        return -1;
    wire = pcie_tlp_wire_bytes(t->type, t->addr, t->len);
    if (wire == 0)
        return -1; /* unknown type */
    dlen = data_len(t->type, t->len);
    if (hdr_reserve(l) != 0 || buf_reserve(l, dlen) != 0)
        return -1;

    /* Serialize: start at max(now, free), keep the end exactly. */
    ser = (double)wire * l->ps_per_byte;
    if (now > l->free_ps) {
        start_ps = now;
        start_frac = 0.0;
    } else {
        start_ps = l->free_ps;
        start_frac = l->free_frac;
    }
    end = start_frac + ser;
    whole = floor(end);
    l->free_ps = start_ps + (sim_ps_t)whole;
    l->free_frac = end - whole;
    end_ps = l->free_ps + (l->free_frac > 0.0 ? 1u : 0u);
    l->busy_exact += ser;

    h = &l->hdr[(l->hdr_head + l->hdr_count) & (l->hdr_cap - 1)];
    h->arrival = end_ps + l->latency_ps;
    h->addr = t->addr;
    h->len = t->len;
    h->type = t->type;
    h->kind = t->kind;
    h->tag = t->tag;
    h->last = t->last;
    l->hdr_count++;
    buf_write(l, t->data, dlen);
    if (l->hdr_count == 1)
        materialize_head(l);

    /* Statistics, with DLLP/SKP charged against the raw bytes the TLP stream
     * consumes (tlp_bytes / (1 - overhead)), as pcie-model does. */
    l->stats.tlps[t->kind]++;
    l->stats.bytes[t->kind] += wire;
    l->stats.tlp_bytes += wire;
    raw = (double)l->stats.tlp_bytes * l->raw_per_tlp_byte;
    l->stats.dllp_bytes = PCIE_DLLP_BYTES * ((uint64_t)floor(raw / l->ack_limit) +
                                             (uint64_t)floor(raw / l->fc_guide));
    l->stats.skp_bytes = PCIE_SKP_BYTES * (uint64_t)floor(raw / PCIE_SKP_INTERVAL);
    l->stats.busy_ps = (sim_ps_t)(l->busy_exact + 0.5);
    return 0;
}

sim_ps_t pcie_link_next_arrival(const struct pcie_link *l)
{
    if (l->hdr_count == 0)
        return SIM_PS_NEVER;
    return l->hdr[l->hdr_head].arrival;
}

const struct tlp *pcie_link_peek(const struct pcie_link *l)
{
    return l->hdr_count > 0 && l->cur_valid ? &l->cur : NULL;
}

void pcie_link_pop(struct pcie_link *l)
{
    const struct link_hdr *h;
    size_t dlen;
    if (l->hdr_count == 0)
        return;
    h = &l->hdr[l->hdr_head];
    dlen = data_len(h->type, h->len);
    l->buf_head = (l->buf_head + dlen) & (l->buf_cap - 1);
    l->buf_used -= dlen;
    l->hdr_head = (l->hdr_head + 1) & (l->hdr_cap - 1);
    l->hdr_count--;
    l->cur_valid = 0;
    if (l->hdr_count > 0)
        materialize_head(l);
}

size_t pcie_link_in_flight(const struct pcie_link *l)
{
    return l->hdr_count;
}

const struct pcie_link_stats *pcie_link_stats(const struct pcie_link *l)
{
    return &l->stats;
}

const struct pcie_cfg *pcie_link_cfg(const struct pcie_link *l)
{
    return &l->cfg;
}
