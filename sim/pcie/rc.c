/* SPDX-License-Identifier: Apache-2.0 */
#include "pcie/rc.h"

#include <string.h>

int rc_init(struct rc *rc, struct host_mem *mem, const struct pcie_cfg *pcie,
            double mem_latency_ns)
{
    memset(rc, 0, sizeof(*rc));
    rc->mem = mem;
    rc->pcie = *pcie;
    rc->mem_latency_ps = sim_ns_to_ps(mem_latency_ns);
    return tlpq_init(&rc->cpl, 256);
}

void rc_destroy(struct rc *rc)
{
    tlpq_destroy(&rc->cpl);
}

int rc_arm_fault(struct rc *rc, enum rc_fault_kind kind, uint64_t lo, uint64_t hi, unsigned id)
{
    if (rc->nfault == RC_MAX_FAULTS || hi <= lo)
        return -1;
    rc->fault[rc->nfault++] = (struct rc_fault){.kind = kind, .lo = lo, .hi = hi, .id = id};
    return 0;
}

unsigned rc_disarm_faults(struct rc *rc)
{
    unsigned n = rc->nfault;

    rc->nfault = 0;
    return n;
}

/* The armed fault the read [addr, addr + len) meets, taken off the list:
 * 1 with *f set, or 0. */
static int rc_take_fault(struct rc *rc, uint64_t addr, unsigned len, struct rc_fault *f)
{
    unsigned i;

    for (i = 0; i < rc->nfault; i++) {
        if (addr < rc->fault[i].hi && rc->fault[i].lo < addr + len) {
            *f = rc->fault[i];
            memmove(&rc->fault[i], &rc->fault[i + 1],
                    (rc->nfault - i - 1) * sizeof(rc->fault[0]));
            rc->nfault--;
            rc->st.faults++;
            rc->last_fault = *f;
            return 1;
        }
    }
    return 0;
}

/* Apply fault f to completion c (data already filled). */
static void rc_fault_cpl(const struct rc_fault *f, struct tlp *c)
{
    if (f->kind == RC_FAULT_EP) {
        c->ep = 1;
        return;
    }
    c->status = f->kind == RC_FAULT_CA ? TLP_STATUS_CA : TLP_STATUS_UR;
    memset(c->data, 0, c->len);
}

static enum rc_event rc_read(struct rc *rc, const struct tlp *rd, sim_ps_t at)
{
    struct pcie_chunk ch[TLP_MAX_DATA / 64 + 2];
    const uint8_t *src = host_mem_ptr(rc->mem, rd->addr, rd->len);
    sim_ps_t ready = at + rc->mem_latency_ps;
    uint8_t kind = rd->kind == TLP_KIND_DESC_RD ? TLP_KIND_DESC_CPL : TLP_KIND_PAYLOAD_CPL;
    size_t n, i;

    struct rc_fault f;
    int faulted = rc_take_fault(rc, rd->addr, rd->len, &f);

    rc->st.reads++;
    rc->st.read_bytes += rd->len;
    if (faulted && f.kind == RC_FAULT_LOST)
        return RC_FAULTED; /* the completions never come */
    n = pcie_split_cpl(&rc->pcie, rd->addr, rd->len, ch, sizeof(ch) / sizeof(ch[0]));
    for (i = 0; i < n; i++) {
        struct tlp *c = tlpq_push(&rc->cpl, ready);
        if (!c)
            return RC_NOMEM;
        c->type = TLP_CPLD;
        c->kind = kind;
        c->tag = rd->tag;
        c->last = i + 1 == n;
        c->ro = rd->ro;
        c->status = src ? TLP_STATUS_SC : TLP_STATUS_UR; /* no memory there */
        c->ep = 0;
        c->addr = ch[i].addr;
        c->len = (uint16_t)ch[i].len;
        if (src) {
            memcpy(c->data, src + (ch[i].addr - rd->addr), ch[i].len);
            if (rc->view)
                rc->view(rc->view_ctx, ch[i].addr, c->data, ch[i].len, at);
        } else
            memset(c->data, 0, ch[i].len);
        if (faulted)
            rc_fault_cpl(&f, c);
        rc->st.cpls++;
    }
    if (faulted)
        return RC_FAULTED;
    return src ? RC_NONE : RC_UNMAPPED_READ;
}

enum rc_event rc_receive(struct rc *rc, const struct tlp *t, sim_ps_t at)
{
    uint8_t *dst;

    switch (t->type) {
    case TLP_MRD:
        return rc_read(rc, t, at);
    case TLP_MWR:
        if (rc_is_msi(t->addr)) {
            rc->st.irqs++;
            return RC_IRQ;
        }
        dst = host_mem_ptr(rc->mem, t->addr, t->len);
        if (!dst)
            return RC_UNMAPPED_WRITE;
        memcpy(dst, t->data, t->len);
        rc->st.writes++;
        rc->st.write_bytes += t->len;
        return RC_WROTE;
    default:
        return RC_MMIO_CPL;
    }
}

const struct tlp *rc_peek_cpl(const struct rc *rc) { return tlpq_peek(&rc->cpl); }
void rc_pop_cpl(struct rc *rc) { tlpq_pop(&rc->cpl); }
