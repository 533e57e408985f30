/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cacheline.c - MESI cache-line coherence cost model (see cacheline.h).
 */
#include "host/cacheline.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CL_F_EXCL  1u /* one holder, E or M */
#define CL_F_DIRTY 2u /* that holder's copy is M */

/* One line's state for all CPUs; `alias` is 1 + the index of the line it
 * acts as (0: itself). */
struct cl_line {
    uint64_t holders; /* bit c: CPU c holds a copy */
    uint32_t alias;
    uint8_t flags;
};

static uint64_t cl_lineno(uint64_t addr)
{
    return addr / CL_LINE;
}

static uint32_t cl_resolve(const struct cl_model *m, uint32_t idx)
{
    while (m->line[idx].alias)
        idx = m->line[idx].alias - 1;
    return idx;
}

/* Make the line `from` act as `to` (both resolved first). */
static void cl_union(struct cl_model *m, uint32_t from, uint32_t to)
{
    from = cl_resolve(m, from);
    to = cl_resolve(m, to);
    if (from != to)
        m->line[from].alias = to + 1;
}

static int cl_cfg_ok(const struct cl_cfg *cfg)
{
    return cfg->ncpus >= 1 && cfg->ncpus <= CL_MAX_CPUS && isfinite(cfg->xfer_ns) &&
           cfg->xfer_ns >= 0 && isfinite(cfg->upgrade_ns) && cfg->upgrade_ns >= 0;
}

int cl_init(struct cl_model *m, const struct cl_cfg *cfg)
{
    memset(m, 0, sizeof(*m));
    if (!cl_cfg_ok(cfg))
        return -1;
    m->cfg = *cfg;
    return 0;
}

void cl_destroy(struct cl_model *m)
{
    free(m->line);
    memset(m, 0, sizeof(*m));
}

/* First position in the sorted order whose region ends after `addr`
 * (regions do not overlap, so ends are sorted too). */
static unsigned cl_first_after(const struct cl_model *m, uint64_t addr)
{
    unsigned lo = 0, hi = m->nreg;

    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (m->reg[m->order[mid]].end > addr)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/*
 * The region to book the piece [first, last] (within one line) to: the one
 * holding its first tracked byte, else one holding the line; -1 if the
 * line is untracked.
 */
static int cl_find_at(const struct cl_model *m, uint64_t first, uint64_t last, unsigned pos)
{
    uint64_t ln = cl_lineno(first);

    if (pos < m->nreg && m->reg[m->order[pos]].base <= last)
        return m->order[pos];
    if (pos > 0 && cl_lineno(m->reg[m->order[pos - 1]].end - 1) == ln)
        return m->order[pos - 1];
    if (pos < m->nreg && cl_lineno(m->reg[m->order[pos]].base) == ln)
        return m->order[pos];
    return -1;
}

static int cl_find(const struct cl_model *m, uint64_t first, uint64_t last)
{
    return cl_find_at(m, first, last, cl_first_after(m, first));
}

/* The resolved line-state index of line `ln` of region `id`. */
static uint32_t cl_line_of(const struct cl_model *m, int id, uint64_t ln)
{
    const struct cl_region *r = &m->reg[id];

    return cl_resolve(m, r->line0 + (uint32_t)(ln - cl_lineno(r->base)));
}

/* A line no region touches, `pos` the first region in order ending after
 * it (and so starting after it): the gap between regions it lies in is
 * the model's gap (struct cl_model). */
static void cl_gap(struct cl_model *m, unsigned pos)
{
    m->gap_lo = pos > 0 ? cl_lineno(m->reg[m->order[pos - 1]].end - 1) + 1 : 0;
    m->gap_hi = pos < m->nreg ? cl_lineno(m->reg[m->order[pos]].base) : UINT64_MAX;
}

/* cl_find for a piece of line `ln`, through the lookup cache.  Only lines
 * whose answer does not depend on the piece are cached: untracked ones
 * (cl_find found no region byte on the line), and those wholly inside one
 * region (a piece's first byte is that region's; regions do not
 * overlap). */
static inline int cl_find_cached(struct cl_model *m, uint64_t ln, uint64_t first, uint64_t last,
                                 uint32_t *li)
{
    struct cl_lookup *e = &m->look[ln & (CL_LOOKUP - 1)];
    uint64_t a = ln * CL_LINE;
    unsigned pos;
    int id;

    if (e->ln1 == ln + 1) {
        *li = e->li;
        return e->id;
    }
    pos = cl_first_after(m, first);
    id = cl_find_at(m, first, last, pos);
    if (id < 0)
        cl_gap(m, pos);
    *li = id >= 0 ? cl_line_of(m, id, ln) : 0;
    if (id < 0 || (m->reg[id].base <= a && m->reg[id].end - a >= CL_LINE)) {
        e->ln1 = ln + 1;
        e->id = id;
        e->li = *li;
    }
    return id;
}

static int cl_grow(struct cl_model *m, uint32_t n)
{
    uint32_t cap = m->line_cap ? m->line_cap : 1024;
    struct cl_line *p;

    if (n > CL_MAX_LINES - m->nline)
        return -1;
    while (cap < m->nline + n)
        cap *= 2;
    if (cap == m->line_cap)
        return 0;
    p = realloc(m->line, (size_t)cap * sizeof(*p));
    if (!p)
        return -1;
    m->line = p;
    m->line_cap = cap;
    return 0;
}

/* The new region `id` at sorted position `pos` shares its boundary lines
 * with its neighbours: those lines become one line. */
static void cl_share_bounds(struct cl_model *m, int id, unsigned pos)
{
    const struct cl_region *r = &m->reg[id];
    uint64_t first = cl_lineno(r->base), last = cl_lineno(r->end - 1);
    uint32_t nlast = r->line0 + (uint32_t)(last - first);

    if (pos > 0) {
        int p = m->order[pos - 1];
        if (cl_lineno(m->reg[p].end - 1) == first)
            cl_union(m, r->line0, cl_line_of(m, p, first));
    }
    if (pos + 1 < m->nreg) {
        int s = m->order[pos + 1];
        if (cl_lineno(m->reg[s].base) == last)
            cl_union(m, nlast, cl_line_of(m, s, last));
    }
}

static int cl_overlaps(const struct cl_model *m, unsigned pos, uint64_t addr, uint64_t end)
{
    if (pos < m->nreg && m->reg[m->order[pos]].base < end)
        return 1;
    return pos > 0 && m->reg[m->order[pos - 1]].end > addr;
}

int cl_region(struct cl_model *m, uint64_t addr, size_t len, const char *name)
{
    struct cl_region *r;
    uint64_t end, nlines;
    unsigned pos;
    int id = (int)m->nreg;

    if (!name || len == 0 || len > UINT64_MAX - addr || m->nreg >= CL_MAX_REGIONS)
        return -1;
    end = addr + len;
    pos = cl_first_after(m, addr);
    nlines = cl_lineno(end - 1) - cl_lineno(addr) + 1;
    if (cl_overlaps(m, pos, addr, end) || nlines > CL_MAX_LINES ||
        cl_grow(m, (uint32_t)nlines) != 0)
        return -1;
    memset(&m->line[m->nline], 0, (size_t)nlines * sizeof(*m->line));
    r = &m->reg[id];
    memset(r, 0, sizeof(*r));
    r->base = addr;
    r->end = end;
    r->line0 = m->nline;
    strncpy(r->name, name, CL_NAME_MAX - 1);
    m->nline += (uint32_t)nlines;
    memmove(&m->order[pos + 1], &m->order[pos], m->nreg - pos);
    m->order[pos] = (uint8_t)id;
    m->nreg++;
    memset(m->look, 0, sizeof(m->look));
    m->gap_lo = m->gap_hi = 0;
    cl_share_bounds(m, id, pos);
    return id;
}

unsigned cl_nregions(const struct cl_model *m)
{
    return m->nreg;
}

const char *cl_region_name(const struct cl_model *m, int id)
{
    if (id < 0 || (unsigned)id >= m->nreg)
        return NULL;
    return m->reg[id].name;
}

int cl_region_stats(const struct cl_model *m, int id, struct cl_stats *out)
{
    if (id < 0 || (unsigned)id >= m->nreg)
        return -1;
    *out = m->reg[id].st;
    return 0;
}

/* The resolved line index for the byte `addr`, or -1 if untracked. */
static int64_t cl_line_at(const struct cl_model *m, uint64_t addr)
{
    int id = cl_find(m, addr, addr);

    return id < 0 ? -1 : (int64_t)cl_line_of(m, id, cl_lineno(addr));
}

int cl_alias(struct cl_model *m, uint64_t from, uint64_t to)
{
    int64_t f = cl_line_at(m, from), t = cl_line_at(m, to);

    if (f < 0 || t < 0)
        return -1;
    cl_union(m, (uint32_t)f, (uint32_t)t);
    memset(m->look, 0, sizeof(m->look)); /* resolved indices cached there */
    return 0;
}

/* CPU `bit` reads the line: the cost, booked to `st`. */
static double cl_line_read(const struct cl_model *m, struct cl_line *l, uint64_t bit,
                           struct cl_stats *st)
{
    st->reads++;
    if (l->holders & bit)
        return 0;
    if (!l->holders) {
        l->holders = bit;
        l->flags = CL_F_EXCL;
        return 0;
    }
    l->holders |= bit;
    if (!(l->flags & CL_F_EXCL))
        return 0;
    l->flags = 0;
    st->xfers++;
    return m->cfg.xfer_ns;
}

/* CPU `bit` writes the line: the cost, booked to `st`. */
static double cl_line_write(const struct cl_model *m, struct cl_line *l, uint64_t bit,
                            struct cl_stats *st)
{
    uint64_t others = l->holders & ~bit;
    double cost = 0;

    st->writes++;
    if (others && (l->flags & CL_F_EXCL)) {
        st->xfers++;
        cost = m->cfg.xfer_ns;
    } else if (others) {
        st->upgrades++;
        cost = m->cfg.upgrade_ns;
    }
    l->holders = bit;
    l->flags = CL_F_EXCL | CL_F_DIRTY;
    return cost;
}

/* The device reads or writes the line: 1 if a CPU copy changed. */
static unsigned cl_line_device(struct cl_line *l, int write, struct cl_stats *st)
{
    if (write) {
        st->dev_writes++;
        if (!l->holders)
            return 0;
        l->holders = 0;
    } else {
        st->dev_reads++;
        if (!(l->flags & CL_F_EXCL))
            return 0;
    }
    l->flags = 0;
    st->snoops++;
    return 1;
}

/* Last byte of [addr, addr + len), len > 0, clamped to the address space. */
static uint64_t cl_last(uint64_t addr, size_t len)
{
    return len - 1 > UINT64_MAX - addr ? UINT64_MAX : addr + (len - 1);
}

/* Calls `fn` with (region id, resolved line) for each tracked line of
 * [addr, addr + len), len > 0; sums its results.  Inlined into its two
 * callers, so that `fn` is a direct call (every CPU access comes here). */
typedef double (*cl_line_fn)(struct cl_model *m, int id, struct cl_line *l, void *arg);

static inline __attribute__((always_inline)) double
cl_each_line(struct cl_model *m, uint64_t addr, size_t len, cl_line_fn fn, void *arg)
{
    uint64_t last = cl_last(addr, len), ln = cl_lineno(addr), lnlast = cl_lineno(last);
    uint64_t first = addr;
    double sum = 0;

    for (;;) {
        uint64_t end = ln == lnlast ? last : ln * CL_LINE + (CL_LINE - 1);
        uint32_t li;
        int id = cl_find_cached(m, ln, first, end, &li);
        if (id >= 0)
            sum += fn(m, id, &m->line[li], arg);
        if (ln == lnlast)
            return sum;
        first = ++ln * CL_LINE;
    }
}

struct cl_cpu_op {
    uint64_t bit;
    int write;
};

static double cl_cpu_line(struct cl_model *m, int id, struct cl_line *l, void *arg)
{
    const struct cl_cpu_op *op = arg;
    struct cl_stats *st = &m->reg[id].st;
    double cost = op->write ? cl_line_write(m, l, op->bit, st) : cl_line_read(m, l, op->bit, st);

    st->cost_ns += cost;
    return cost;
}

static __attribute__((noinline)) double cl_cpu_lines(struct cl_model *m, unsigned cpu,
                                                     uint64_t addr, size_t len, int write)
{
    struct cl_cpu_op op;

    op.bit = UINT64_C(1) << cpu;
    op.write = write;
    return cl_each_line(m, addr, len, cl_cpu_line, &op);
}

double cl_access(struct cl_model *m, unsigned cpu, uint64_t addr, size_t len, int write)
{
    uint64_t ln = cl_lineno(addr), lnlast;
    const struct cl_lookup *e = &m->look[ln & (CL_LOOKUP - 1)];

    assert(cpu < m->cfg.ncpus);
    if (len == 0 || cpu >= m->cfg.ncpus)
        return 0;
    /* Known untracked, nothing to do (without a call): one line the cache
     * knows, or else lines in the gap found last. */
    lnlast = cl_lineno(cl_last(addr, len));
    if (e->ln1 == ln + 1) {
        if (e->id < 0 && lnlast == ln)
            return 0;
    } else if (ln - m->gap_lo < m->gap_hi - m->gap_lo &&
               lnlast - m->gap_lo < m->gap_hi - m->gap_lo) {
        return 0;
    }
    return cl_cpu_lines(m, cpu, addr, len, write);
}

static double cl_dev_line(struct cl_model *m, int id, struct cl_line *l, void *arg)
{
    return cl_line_device(l, *(const int *)arg, &m->reg[id].st);
}

unsigned cl_device(struct cl_model *m, uint64_t addr, size_t len, int write)
{
    if (len == 0)
        return 0;
    return (unsigned)cl_each_line(m, addr, len, cl_dev_line, &write);
}

enum cl_mesi cl_state(const struct cl_model *m, unsigned cpu, uint64_t addr)
{
    int64_t i = cpu < m->cfg.ncpus ? cl_line_at(m, addr) : -1;
    const struct cl_line *l;

    if (i < 0)
        return CL_I;
    l = &m->line[i];
    if (!(l->holders & (UINT64_C(1) << cpu)))
        return CL_I;
    if (l->flags & CL_F_DIRTY)
        return CL_M;
    return (l->flags & CL_F_EXCL) ? CL_E : CL_S;
}
