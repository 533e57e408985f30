/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cacheline.h - what moving cache lines between the simulated CPUs (and
 * snooping them for the device's DMA) costs: a MESI coherence cost model.
 *
 * The model tracks 64-byte lines of registered regions only.  A region is a
 * named byte range ("txq.prod", "dql.enqueue", "ring", ...) registered with
 * cl_region; every line it touches is tracked, and each access is booked to
 * a region for statistics.  Accesses to lines no region touches cost 0 and
 * change nothing.  Two regions may not share a byte, but may share a line
 * (two fields of one struct): that line is one line with one state.
 *
 * Each tracked line holds, per CPU, a MESI state, stored compactly as a
 * holder bitmask plus "exclusive" (one holder, E or M) and "dirty" (M).
 * The CPUs are on one socket: a transfer costs the same between any two of
 * them (no distance; cross-socket transfers, 108-134 ns, are not modelled).
 * A CPU access (cl_access) handles every line [addr, addr + len) covers;
 * for each line, with `others` the CPUs other than the accessing one:
 *
 *   read,  hit (the CPU holds the line in any state)      0
 *   read,  another CPU holds it E or M                    xfer_ns: the line
 *          moves (an M owner writes it back); both end S
 *   read,  others hold it S, or nobody holds it           0: served by the
 *          LLC, no cross-core traffic; nobody held it -> reader E
 *   write, no other CPU holds it (writer M/E/S or I)      0 (LLC hit)
 *   write, another CPU holds it E or M                    xfer_ns (an RFO
 *          that moves the line)
 *   write, others hold it S (writer S or I)               upgrade_ns (the
 *          invalidations of an RFO/upgrade)
 *   after any write: writer M, every other CPU I.
 *
 * So a read-then-write of a line the other CPU dirtied costs xfer + upgrade
 * while a write-first costs xfer alone (dql_queued's write-first, about 10%
 * in a TCP stream with completions on another CPU), and dirtying a line
 * other CPUs read costs an upgrade plus a transfer for each re-reader
 * (loopback's last_rx).  A read of a line held E elsewhere costs a full
 * transfer, as a snoop of the holder's core does on server parts; LLC
 * misses to DRAM are not modelled (every miss is an LLC hit).
 *
 * Device DMA (cl_device) snoops the CPUs: a device read of a line a CPU
 * holds E or M leaves it S in that CPU (written back); a device write
 * invalidates every CPU copy.  Neither costs the CPU anything here, and the
 * device is not a sharer: after a device read, a write by the CPU that
 * still holds the line S costs 0 (no other CPU holds it); after a device
 * write, the next CPU read costs 0 (LLC hit, DDIO) and leaves that CPU E.
 * What the CPU pays to re-own a line the device touched is the store
 * buffer's miss (stbuf.h), so it is not counted twice.
 *
 * Layout experiments (cl_alias): accesses to one line can be made to behave
 * as accesses to another, so a producer field and a consumer field can be
 * put "on one line" without changing the C struct.  Statistics stay booked
 * to the region of the address actually accessed.
 *
 * Statistics count line accesses: an access covering two lines counts two
 * reads (or writes), each booked to the region holding the first tracked
 * byte the access touches on that line (or, when it touches only untracked
 * bytes of a tracked line, to a region holding that line).
 *
 * Lookup is a binary search over regions sorted by address (behind a cache
 * of recent lines, and of the untracked gap between regions found last: a
 * CPU access the two know untracked returns at once) plus an index into
 * one line-state array; cl_access and cl_device never allocate.
 * Deterministic; no global state.
 */
#ifndef NICTX_CACHELINE_H
#define NICTX_CACHELINE_H

#include <stddef.h>
#include <stdint.h>

#define CL_LINE        64u
#define CL_MAX_CPUS    64u /* one holder bit each in a uint64_t */
#define CL_MAX_REGIONS 128u
#define CL_MAX_LINES   (1u << 22) /* tracked lines in all (256 MiB of memory) */
#define CL_NAME_MAX    32u        /* region names are truncated to 31 chars */
#define CL_LOOKUP      1024u      /* lines in the lookup cache (a power of 2) */

struct cl_cfg {
    unsigned ncpus;    /* 1..CL_MAX_CPUS */
    double xfer_ns;    /* a line moves from another CPU's E/M copy (~48 ns same
                        * socket, 108-134 ns cross socket) */
    double upgrade_ns; /* a write invalidates other CPUs' S copies */
};

/* Per region; counts are of line accesses. */
struct cl_stats {
    uint64_t reads, writes; /* CPU line accesses */
    uint64_t xfers;         /* of those, lines that moved from another CPU */
    uint64_t upgrades;      /* of those, writes that invalidated S copies */
    uint64_t dev_reads, dev_writes; /* device line accesses */
    uint64_t snoops;        /* device accesses that changed a CPU copy */
    double cost_ns;         /* CPU cost booked: xfers and upgrades */
};

enum cl_mesi { CL_I, CL_S, CL_E, CL_M };

struct cl_region {
    uint64_t base, end;          /* bytes [base, end) */
    uint32_t line0;              /* line-state index of base's line */
    char name[CL_NAME_MAX];
    struct cl_stats st;
};

struct cl_line;

struct cl_model {
    struct cl_cfg cfg;
    struct cl_region reg[CL_MAX_REGIONS]; /* by id */
    uint8_t order[CL_MAX_REGIONS];        /* ids sorted by base */
    unsigned nreg;
    struct cl_line *line;                 /* line states, grown by cl_region */
    uint32_t nline, line_cap;
    /* A cache of the lookup (accesses repeat their lines), direct-mapped
     * by line: a line untracked, or wholly in one region; cl_region
     * empties it. */
    struct cl_lookup {
        uint64_t ln1; /* the line + 1; 0: empty */
        int id;       /* its region, or -1: untracked */
        uint32_t li;  /* its resolved line-state index (id >= 0) */
    } look[CL_LOOKUP];
    /* Lines [gap_lo, gap_hi) no region touches: the gap between two
     * regions (or before the first, after the last) the lookup last found
     * an untracked line in; empty (gap_lo == gap_hi) until then, and again
     * after cl_region. */
    uint64_t gap_lo, gap_hi;
};

/* 0, or -1 on a bad cfg (ncpus outside 1..CL_MAX_CPUS, a cost negative or
 * not finite); the model then holds nothing to destroy. */
int cl_init(struct cl_model *m, const struct cl_cfg *cfg);
void cl_destroy(struct cl_model *m);

/*
 * Track the lines of [addr, addr + len) under `name` (copied).  Returns the
 * region id (0, 1, ... in order of registration), or -1 when len is 0,
 * the range wraps (or ends at 2^64), it overlaps a registered region's
 * bytes, name is NULL, or the region or line limit is reached (or
 * allocation fails).
 */
int cl_region(struct cl_model *m, uint64_t addr, size_t len, const char *name);
unsigned cl_nregions(const struct cl_model *m);
/* The region's name, or NULL for a bad id. */
const char *cl_region_name(const struct cl_model *m, int id);
/* Copies the region's statistics to *out: 0, or -1 for a bad id. */
int cl_region_stats(const struct cl_model *m, int id, struct cl_stats *out);

/*
 * From now on, accesses to the line holding `from` act on the line holding
 * `to`: one state, as if both lived on one line.  Aliasing merges: lines
 * already one line (by alias, or shared by two regions) stay one line.  The
 * merged line keeps `to`'s state; `from`'s is dropped, so set aliases up
 * before the accesses.  0, or -1 when either line is not tracked.
 */
int cl_alias(struct cl_model *m, uint64_t from, uint64_t to);

/*
 * CPU `cpu` (< ncpus, asserted) reads (write 0) or writes (write != 0)
 * [addr, addr + len): updates every tracked line it covers and returns
 * the cost in ns (0 for untracked lines and for len 0).
 */
double cl_access(struct cl_model *m, unsigned cpu, uint64_t addr, size_t len, int write);

/*
 * The device reads (write 0) or writes [addr, addr + len) by DMA: snoops
 * the CPUs as above.  Returns the number of lines whose CPU copies changed.
 */
unsigned cl_device(struct cl_model *m, uint64_t addr, size_t len, int write);

/* CPU `cpu`'s state for the line holding addr (after aliasing); CL_I for an
 * untracked line or a bad cpu. */
enum cl_mesi cl_state(const struct cl_model *m, unsigned cpu, uint64_t addr);

#endif /* NICTX_CACHELINE_H */
