/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fz_host.c - the host around the device for the TLP fuzzer; the contract
 * and the checks are in fz_host.h.
 */
#include "fz_host.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nictx_hw.h"

#define FZ_BAR0 0xfe000000ull
#define FZ_TAG_SLACK 8 /* engine tags allocated but not yet seen on d2h */
#define FZ_BAR0_MASK 0x1fffu /* BAR0 is 8 KiB: the device decodes 13 offset bits */

void fz_fail(struct fz_host *h, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "fuzz_tlp: clock %llu: ", (unsigned long long)h->cycle);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

int fz_init(struct fz_host *h, const struct device_ops *ops)
{
    memset(h, 0, sizeof(*h));
    h->ops = ops;
    h->tag_seen_max = -1;
    h->queues_lo = h->queues_hi = NICTX_REG_QUEUES_RESET;
    h->d2h_mask = h->wire_mask = 0xff;
    h->trace = getenv("FUZZ_TLP_TRACE") != NULL;
    for (unsigned i = 0; i < FZ_MEM_SIZE; i++)
        h->mem[i] = (uint8_t)(i * 131u + 7u);
    h->dev = ops->create();
    if (!h->dev)
        return -1;
    ops->reset(h->dev);
    return 0;
}

void fz_fini(struct fz_host *h)
{
    if (h->dev)
        h->ops->destroy(h->dev);
    h->dev = NULL;
}

void fz_set_ready(struct fz_host *h, uint8_t d2h, uint8_t wire)
{
    h->d2h_mask = d2h ? d2h : 0xff;
    h->wire_mask = wire ? wire : 0xff;
}

void fz_expect_err(struct fz_host *h, uint32_t bits)
{
    if (!h->reset_unsure) /* a reset clears ERR whenever it is finally taken */
        h->expect_err |= bits;
}

void fz_reset_done(struct fz_host *h)
{
    /* A reset waits for the engine's reads to drain or for the completion
     * timeout: a read still unanswered was given up on, and an answer to it
     * now would be later than the timeout, so its tag may be reused. */
    for (unsigned i = 0; i < h->n_mrd; i++)
        h->mrd[i].tainted = 1;
    if (h->n_mrd)
        h->tainted_any = 1;
    h->reset_unsure = 0;
    h->expect_err = 0;
}

static int fz_in_mem(uint64_t addr, uint64_t len)
{
    return addr >= FZ_MEM_BASE && len <= FZ_MEM_SIZE && addr - FZ_MEM_BASE <= FZ_MEM_SIZE - len;
}

/* ------------------------------------------------------------ device to host */

static void fz_drop_mrd(struct fz_host *h, unsigned i)
{
    memmove(&h->mrd[i], &h->mrd[i + 1], (h->n_mrd - i - 1) * sizeof(h->mrd[0]));
    h->n_mrd--;
}

static void fz_engine_mrd(struct fz_host *h, const struct dev_beat *b)
{
    struct fz_mrd *m;

    if (b->len == 0 || b->len > 4096 || (b->addr & 0xfff) + b->len > 4096)
        fz_fail(h, "engine MRd of %u bytes at 0x%llx: empty, too long or across a 4 KiB page",
                b->len, (unsigned long long)b->addr);
    for (unsigned i = 0; i < h->n_mrd; i++) {
        if (h->mrd[i].tag != b->tag)
            continue;
        if (!h->mrd[i].tainted && h->mrd[i].resets == h->resets)
            fz_fail(h, "engine reused tag %u while its MRd (clock %llu, %u of %u bytes "
                       "answered) is outstanding", b->tag,
                    (unsigned long long)h->mrd[i].cycle, h->mrd[i].done, h->mrd[i].len);
        fz_drop_mrd(h, i); /* abandoned by a reset, or its accounting is unknowable */
        break;
    }
    if (h->n_mrd == FZ_MAX_MRDS)
        fz_fail(h, "more than %u engine MRds outstanding", FZ_MAX_MRDS);
    m = &h->mrd[h->n_mrd++];
    memset(m, 0, sizeof(*m));
    m->addr = b->addr;
    m->len = b->len;
    m->tag = b->tag;
    m->cycle = h->cycle;
    m->resets = h->resets;
    if ((int)b->tag > h->tag_seen_max)
        h->tag_seen_max = b->tag;
}

static void fz_engine_mwr(struct fz_host *h, const struct dev_beat *b)
{
    unsigned lane = (unsigned)(b->addr % h->ops->width);

    if (b->len == 0 || lane + b->len > h->ops->width)
        fz_fail(h, "engine MWr of %u bytes at 0x%llx: not one beat", b->len,
                (unsigned long long)b->addr);
    if (!fz_in_mem(b->addr, b->len))
        return; /* outside host memory: a master abort the host ignores */
    memcpy(&h->mem[b->addr - FZ_MEM_BASE], b->data + lane, b->len);
}

static void fz_engine_cpl(struct fz_host *h, const struct dev_beat *b)
{
    if (h->n_hrd == 0)
        fz_fail(h, "engine CplD (tag %u) for no host read", b->tag);
    if (b->tag != h->hrd_tag[0] || (b->addr & FZ_BAR0_MASK) != h->hrd_off[0])
        fz_fail(h, "engine CplD tag %u offset 0x%llx, the oldest host read is tag %u offset 0x%x",
                b->tag, (unsigned long long)(b->addr & FZ_BAR0_MASK), h->hrd_tag[0],
                h->hrd_off[0]);
    if ((b->type == DEV_TLP_CPL) != (b->err != 0) || (b->type == DEV_TLP_CPL && b->len != 0) ||
        (h->hrd_bad[0] != 2 && h->hrd_bad[0] != (b->type == DEV_TLP_CPL)))
        fz_fail(h, "engine answered the %s read at offset 0x%x with type %u err %u len %u",
                h->hrd_bad[0] == 2 ? "queue block" : h->hrd_bad[0] ? "unsupported" : "register",
                h->hrd_off[0], b->type, b->err, b->len);
    h->last_cpl_tag = b->tag;
    h->last_cpl_data = (uint32_t)dev_lanes_get(b->data, h->hrd_off[0] % h->ops->width & ~3u, 4);
    /* A read of QUEUES with no write that may have set it since: exact. */
    if (b->type == DEV_TLP_CPLD && h->hrd_qwrs[0] == h->queues_wrs &&
        ((h->hrd_off[0] == NICTX_REG_QUEUES && h->hrd_len[0] == 4) ||
         (h->hrd_off[0] == NICTX_REG_QUEUES - 4 && h->hrd_len[0] == 8))) {
        unsigned q = (unsigned)dev_lanes_get(b->data, NICTX_REG_QUEUES % h->ops->width, 4);
        if (q < 1 || q > NICTX_Q_MAX)
            fz_fail(h, "QUEUES reads %u", q);
        h->queues_lo = h->queues_hi = q;
    }
    h->cpls_seen++;
    memmove(&h->hrd_tag[0], &h->hrd_tag[1], h->n_hrd - 1);
    memmove(&h->hrd_off[0], &h->hrd_off[1], (h->n_hrd - 1) * sizeof(h->hrd_off[0]));
    memmove(&h->hrd_bad[0], &h->hrd_bad[1], h->n_hrd - 1);
    memmove(&h->hrd_len[0], &h->hrd_len[1], h->n_hrd - 1);
    memmove(&h->hrd_qwrs[0], &h->hrd_qwrs[1], (h->n_hrd - 1) * sizeof(h->hrd_qwrs[0]));
    h->n_hrd--;
}

static void fz_d2h(struct fz_host *h, const struct dev_beat *b)
{
    if (h->trace)
        fprintf(stderr, "fuzz_tlp: clock %llu: d2h type %u tag %u len %u addr 0x%llx data 0x%llx\n",
                (unsigned long long)h->cycle, b->type, b->tag, b->len,
                (unsigned long long)b->addr,
                (unsigned long long)dev_lanes_get(b->data, (unsigned)(b->addr % h->ops->width) & ~7u, 8));
    if (!b->sop || !b->eop)
        fz_fail(h, "engine TLP of more than one beat (type %u)", b->type);
    switch (b->type) {
    case DEV_TLP_MRD: fz_engine_mrd(h, b); break;
    case DEV_TLP_MWR: fz_engine_mwr(h, b); break;
    case DEV_TLP_CPLD:
    case DEV_TLP_CPL: fz_engine_cpl(h, b); break;
    default: fz_fail(h, "engine TLP of type %u", b->type);
    }
}

uint32_t fz_hash(const uint8_t *p, unsigned n)
{
    uint32_t v = 2166136261u;

    for (unsigned i = 0; i < n; i++)
        v = (v ^ p[i]) * 16777619u;
    return v;
}

static void fz_wire(struct fz_host *h, const struct dev_wire_beat *w)
{
    if (h->trace && (w->sop || w->eop))
        fprintf(stderr, "fuzz_tlp: clock %llu: wire%s%s, %u bytes\n", (unsigned long long)h->cycle,
                w->sop ? " sop" : "", w->eop ? " eop" : "", w->bytes);
    if (w->sop) {
        if (h->in_frame)
            fz_fail(h, "wire: start of frame inside a frame");
        h->in_frame = 1;
        h->frame_len = 0;
    } else if (!h->in_frame) {
        fz_fail(h, "wire: beat outside a frame");
    }
    if (w->bytes == 0 || w->bytes > h->ops->width || (!w->eop && w->bytes != h->ops->width))
        fz_fail(h, "wire: %u bytes in a %s beat", w->bytes, w->eop ? "last" : "middle");
    if (h->frame_len + w->bytes > 16383)
        fz_fail(h, "wire: frame longer than 16383 bytes");
    memcpy(&h->frame[h->frame_len], w->data, w->bytes);
    h->frame_len += w->bytes;
    if (w->eop) {
        h->in_frame = 0;
        h->done_len[h->frames % FZ_DONE_LOG] = h->frame_len;
        h->done_hash[h->frames % FZ_DONE_LOG] = fz_hash(h->frame, h->frame_len);
        h->frames++;
    }
}

/* ------------------------------------------------------------ clocks */

int fz_cycle(struct fz_host *h, const struct dev_beat *offer)
{
    struct dev_in in;
    struct dev_out out;
    unsigned bit = 1u << (h->cycle & 7);

    memset(&in, 0, sizeof(in));
    if (offer)
        in.h2d = *offer;
    in.d2h_ready = (h->d2h_mask & bit) != 0;
    in.wire_ready = (h->wire_mask & bit) != 0;
    h->ops->step(h->dev, &in, &out);
    h->cycle++;
    if (out.d2h.valid && in.d2h_ready)
        fz_d2h(h, &out.d2h);
    if (out.wire.valid && in.wire_ready)
        fz_wire(h, &out.wire);
    return offer && offer->valid && out.h2d_ready;
}

void fz_idle(struct fz_host *h, unsigned n)
{
    uint64_t end = h->cycle + n;

    while (h->cycle < end) {
        if (!(h->auto_answer && fz_answer(h, 0, 0) == 0))
            fz_cycle(h, NULL);
    }
}

/* ------------------------------------------------------------ host TLPs */

/* The BAR0 map (docs/device.md, Registers and Queues): the register page
 * 0x000..0x0FF; the WC window 0x200..0x3FF, MWr only; the MSI-X table at
 * 0x800 + v * 0x10, vector v in use for v < QUEUES; the PBA 0xC00..0xC07;
 * 0x100..0x1FF, 0x400..0x7FF and 0xC08..0xFFF nothing; queue q's block at
 * 0x1000 + q * 0x40, in use for q < QUEUES.  Every register access is 4 bytes 4-aligned or 8 bytes
 * 8-aligned.  Only these map-level refusals are modelled: a write the
 * map accepts may still be refused by its register (read-only, unlisted,
 * out of range, ring configuration while enabled: ERR.BAD_ACCESS or
 * ERR.CFG), which the host does not predict, so it never checks that
 * those bits stay clear; a read the map accepts is always answered with
 * data, which it checks. */
int fz_bar0_bad(const struct fz_host *h, unsigned off, unsigned len, int write)
{
    unsigned q;

    off &= FZ_BAR0_MASK;
    if (write && off >= NICTX_WC_BASE && off < NICTX_WC_BASE + 2 * NICTX_WC_BUF_SIZE)
        return 0;
    if (!((len == 4 && off % 4 == 0) || (len == 8 && off % 8 == 0)))
        return 1;
    if (off < 0x100)
        return 0;
    if (off >= NICTX_REG_PBA_LO && off < NICTX_REG_PBA_HI + 4)
        return 0;
    if (off >= NICTX_MSIX_BASE && off < NICTX_REG_MSIX(NICTX_MSIX_MAX, 0)) {
        q = (off - NICTX_MSIX_BASE) / NICTX_MSIX_STRIDE;
        return q < h->queues_lo ? 0 : q >= h->queues_hi ? 1 : 2;
    }
    if (off < NICTX_Q_BASE)
        return 1;
    q = (off - NICTX_Q_BASE) / NICTX_Q_STRIDE;
    return q < h->queues_lo ? 0 : q >= h->queues_hi ? 1 : 2;
}

/* What a host MWr/MRd to BAR0 means for the checks: reads to answer, ERR
 * bits earned by a bad access, ERR cleared, a queue reset asked for,
 * QUEUES maybe written. */
static void fz_note_bar0(struct fz_host *h, unsigned type, uint8_t tag, uint64_t addr,
                         unsigned len, const uint8_t *data)
{
    unsigned off = (unsigned)(addr & FZ_BAR0_MASK);
    int wc = type == DEV_TLP_MWR && off >= NICTX_WC_BASE &&
             off < NICTX_WC_BASE + 2 * NICTX_WC_BUF_SIZE;
    int bad = fz_bar0_bad(h, off, len, type == DEV_TLP_MWR);

    if (type == DEV_TLP_MRD) {
        if (h->n_hrd == FZ_MAX_HRDS)
            fz_fail(h, "%u host reads unanswered", FZ_MAX_HRDS);
        h->hrd_tag[h->n_hrd] = tag;
        h->hrd_bad[h->n_hrd] = (uint8_t)bad;
        h->hrd_len[h->n_hrd] = (uint8_t)(len > 255 ? 255 : len);
        h->hrd_qwrs[h->n_hrd] = h->queues_wrs;
        h->hrd_off[h->n_hrd++] = (uint16_t)off;
    }
    if (bad == 1)
        fz_expect_err(h, NICTX_ERR_BAD_ACCESS);
    if (type != DEV_TLP_MWR || wc)
        return;
    if (data && bad == 0 && off <= NICTX_REG_QUEUES && off + len >= NICTX_REG_QUEUES + 4) {
        /* Accepted only between a reset and the next enable and only for
         * 1..64 (field bits: the low 7): the host widens what it knows. */
        unsigned k = NICTX_REG_QUEUES - off;
        uint32_t v = (uint32_t)data[k] | (uint32_t)data[k + 1] << 8 |
                     (uint32_t)data[k + 2] << 16 | (uint32_t)data[k + 3] << 24;
        unsigned cands[2] = {v <= NICTX_Q_MAX ? v : 0, v & NICTX_QUEUES_VALUE_MASK};
        h->queues_wrs++;
        for (unsigned c = 0; c < 2; c++) {
            if (cands[c] < 1 || cands[c] > NICTX_Q_MAX)
                continue;
            if (cands[c] < h->queues_lo)
                h->queues_lo = cands[c];
            if (cands[c] > h->queues_hi)
                h->queues_hi = cands[c];
        }
    }
    if (off < NICTX_REG_ERR + 4 && off + len > NICTX_REG_ERR)
        h->expect_err = 0; /* an ERR write (W1C) may clear anything */
    if (off == 0 && len >= 1 && data && (data[0] & NICTX_CTRL_RESET)) {
        h->resets++;
        h->reset_unsure = 1;
        h->expect_err = 0;
        /* The reset waits for the reads only CPL_TIMEOUT long: an answer
         * after that may land in a tag it reissued (docs/faults.md). */
        for (unsigned i = 0; i < h->n_mrd; i++)
            h->mrd[i].tainted = 1;
        if (h->n_mrd)
            h->tainted_any = 1;
    }
}

void fz_send(struct fz_host *h, unsigned type, uint8_t tag, int err, uint64_t addr,
             unsigned len, const uint8_t *data)
{
    unsigned beats = dev_tlp_beats(h->ops->width, type, addr, len), k, stall = 0;
    struct dev_beat b;

    if (beats == 0)
        beats = 1; /* a 0-byte TLP still has its header beat */
    if (h->trace)
        fprintf(stderr, "fuzz_tlp: clock %llu: h2d type %u tag %u len %u addr 0x%llx err %d\n",
                (unsigned long long)h->cycle, type, tag, len, (unsigned long long)addr, err);
    if (type != DEV_TLP_CPLD)
        fz_note_bar0(h, type, tag, addr, len, data);
    for (k = 0; k < beats;) {
        memset(&b, 0, sizeof(b));
        b.valid = 1;
        b.sop = k == 0;
        b.eop = k + 1 == beats;
        b.type = (uint8_t)type;
        b.tag = tag;
        b.len = (uint16_t)len;
        b.addr = addr;
        b.err = (uint8_t)(err != 0);
        if (type != DEV_TLP_MRD && data)
            dev_beat_data(h->ops->width, addr, len, data, k, b.data);
        if (fz_cycle(h, &b)) {
            k++;
            stall = 0;
        } else if (++stall > FZ_STALL_MAX) {
            fz_fail(h, "h2d beat %u of a type %u TLP (%u bytes at 0x%llx) not taken in %u clocks",
                    k, type, len, (unsigned long long)addr, FZ_STALL_MAX);
        }
    }
}

/* ------------------------------------------------------------ completions */

int fz_answer(struct fz_host *h, int partial, int err)
{
    static const uint8_t zero[FZ_RCB];
    struct fz_mrd m;
    int bad;

    if (h->n_mrd == 0)
        return -1;
    m = h->mrd[0];
    bad = err || !fz_in_mem(m.addr, m.len); /* UR outside memory */
    if (bad && !m.tainted)
        fz_expect_err(h, NICTX_ERR_DMA);
    do {
        uint64_t a = m.addr + m.done;
        unsigned piece = FZ_RCB - (unsigned)(a % FZ_RCB);

        if (piece > m.len - m.done)
            piece = m.len - m.done;
        m.done += piece;
        if (m.done == m.len)
            fz_drop_mrd(h, 0); /* before its last piece: the tag may come back at once */
        else
            h->mrd[0].done = m.done;
        fz_send(h, DEV_TLP_CPLD, m.tag, bad, a, piece, bad ? zero : &h->mem[a - FZ_MEM_BASE]);
        /* a tainted MRd may have been dropped meanwhile (its tag reused) */
    } while (!partial && m.done < m.len && h->n_mrd && h->mrd[0].tag == m.tag &&
             h->mrd[0].cycle == m.cycle);
    return 0;
}

void fz_raw_cpl(struct fz_host *h, uint8_t tag, uint64_t addr, unsigned len, int err,
                const uint8_t *data)
{
    int known = 0;

    /* Sent first: the engine may issue an MRd with this tag while the
     * completion's beats wait their turn on the port, and then takes it. */
    fz_send(h, DEV_TLP_CPLD, tag, err, addr, len, data);
    for (unsigned i = 0; i < h->n_mrd; i++)
        if (h->mrd[i].tag == tag) {
            h->mrd[i].tainted = 1;
            h->tainted_any = known = 1;
        }
    /* The engine hands tags out 0, 1, 2, ... until each was used once: one
     * far above every tag seen (the slack covers the port's slice) cannot
     * be outstanding. */
    if (!known && (int)tag > h->tag_seen_max + FZ_TAG_SLACK)
        fz_expect_err(h, NICTX_ERR_UNEXP_CPL);
    else
        h->tainted_any = 1; /* it may have landed in a read the host cannot see */
}

/* ------------------------------------------------------------ registers */

void fz_wr(struct fz_host *h, uint32_t off, unsigned len, uint64_t val)
{
    uint8_t d[8];

    for (unsigned i = 0; i < 8; i++)
        d[i] = (uint8_t)(val >> (8 * i));
    fz_send(h, DEV_TLP_MWR, 0, 0, FZ_BAR0 + off, len, d);
}

void fz_mrd_raw(struct fz_host *h, uint32_t off, unsigned len, uint8_t tag)
{
    fz_send(h, DEV_TLP_MRD, tag, 0, FZ_BAR0 + off, len, NULL);
}

uint32_t fz_rd32(struct fz_host *h, uint32_t off, unsigned max)
{
    uint64_t end = h->cycle + max;

    fz_mrd_raw(h, off, 4, (uint8_t)(0xc0u | (h->cpls_seen & 0x3f)));
    while (h->n_hrd) {
        if (h->cycle >= end)
            fz_fail(h, "register read of 0x%x not answered in %u clocks", off, max);
        fz_idle(h, 1);
    }
    return h->last_cpl_data;
}
