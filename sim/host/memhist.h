/* SPDX-License-Identifier: Apache-2.0 */
/*
 * memhist.h - recent writes to host memory, so a load can be performed
 * early: what a location held at an earlier time.
 *
 * Under weak ordering a CPU may satisfy a load before earlier loads in
 * program order (ARMv8: loads to different addresses are not ordered
 * without a barrier, acquire or dependency).  Exploration (sim/host/explore.h)
 * performs some loads early; this is where their old values come from.
 * Each entry is one write of 1..8 bytes: who wrote it (a CPU, or the
 * device), the bytes it overwrote, and when it became visible (a CPU
 * store: its visibility time; a device write: its arrival).  Entries live
 * in a ring of MEMHIST_CAP; a view older than the oldest entry kept is
 * clamped to it (memhist_oldest).  Owned by struct sim; nothing global.
 */
#ifndef NICTX_MEMHIST_H
#define NICTX_MEMHIST_H

#include <stddef.h>
#include <stdint.h>

#include "lib/simtime.h"

#define MEMHIST_CAP 4096u
#define MEMHIST_DEVICE 0xffu /* `who` of a device write */

struct memhist_ent {
    uintptr_t addr;   /* CPU address of the bytes */
    sim_ps_t t;       /* visible from then on */
    uint64_t tlp;     /* device writes: the TLP's number (one write, many entries) */
    uint8_t len;
    uint8_t who;      /* CPU id, or MEMHIST_DEVICE */
    uint8_t old[8];
};

struct memhist {
    struct memhist_ent *ent; /* MEMHIST_CAP entries, a ring */
    uint64_t n;              /* entries ever written */
    sim_ps_t lost_t;         /* latest time of an entry overwritten */
};

/* 0, or -1 on allocation failure. */
int memhist_init(struct memhist *h);
void memhist_destroy(struct memhist *h);

/* `who` writes [p, p + len) (any length; split in 8-byte pieces), visible
 * at t; `old` is what the bytes held before.  `tlp` numbers a device
 * write (0 for a CPU). */
void memhist_write(struct memhist *h, const void *p, const void *old, size_t len, unsigned who,
                   sim_ps_t t, uint64_t tlp);

/* `buf` holds memory's bytes [p, p + len) now: undo in it, newest first,
 * every write not visible at t, except `skip`'s (a CPU sees its own
 * writes at once; MEMHIST_DEVICE + 1: skip none).  The newest device
 * write undone goes to *undone_tlp (0: none), the newest device write
 * kept to *seen_tlp (0: none). */
void memhist_view(const struct memhist *h, const void *p, uint8_t *buf, size_t len, sim_ps_t t,
                  unsigned skip, uint64_t *undone_tlp, uint64_t *seen_tlp);

/* A barrier of CPU `who` at t: its writes numbered from `from` on (the
 * count memhist's `n` had) that were not visible yet are visible at t. */
void memhist_clamp(struct memhist *h, unsigned who, uint64_t from, sim_ps_t t);

/* The earliest time a view can go back to. */
static inline sim_ps_t memhist_oldest(const struct memhist *h)
{
    return h->lost_t;
}

#endif /* NICTX_MEMHIST_H */
