/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fz_host.h - the host the TLP fuzzer (fuzz_tlp.c) puts around one device
 * (struct device_ops, sim/device/device.h): host memory, a root complex that
 * answers the engine's reads when told to (well or badly), the host's own
 * TLPs to BAR0, and the checks a trustworthy engine must pass whatever the
 * host sends.
 *
 * What it models, one device clock per fz_cycle():
 *  - host memory: FZ_MEM_SIZE bytes at bus address FZ_MEM_BASE, a fixed
 *    pattern at start; engine MWrs inside it are written, others dropped;
 *  - the engine's MRds, kept in issue order until answered: fz_answer()
 *    sends the oldest one's CplDs (split at FZ_RCB), from memory, or with
 *    an error status (also for an address outside memory, as a root
 *    complex answers Unsupported Request); `auto_answer` answers each as
 *    soon as the h2d port is free;
 *  - host TLPs (fz_send): beats offered until taken, lanes by address;
 *  - d2h and wire ready follow 8-cycle masks (fz_set_ready); each has at
 *    least one ready cycle in eight.
 *
 * Checks (each a fz_fail(), which aborts: a libFuzzer crash):
 *  - h2d: an offered beat is taken within FZ_STALL_MAX clocks;
 *  - engine MRds: 1..4096 bytes, within one 4 KiB page, and never with a
 *    tag the engine still has outstanding, unless the host made that tag's
 *    accounting unknowable (a raw completion with its tag) or may have
 *    reset the queue since;
 *  - engine CplDs answer the oldest host MRd (same tag and offset), one
 *    beat each, with UR exactly when the read is bad by the BAR0 map
 *    (fz_bar0_bad: the 8 KiB map with the queue blocks, QUEUES as the host
 *    knows it); engine MWrs carry 1..8 bytes in one beat;
 *  - wire: frames well framed, 1..16383 bytes;
 *  - error bits the host has earned (fz_expect_err) are set when read.
 * The RTL's own assertions (--assert) abort the process on failure too.
 */
#ifndef NICTX_FZ_HOST_H
#define NICTX_FZ_HOST_H

#include <stdint.h>

#include "device/device.h"

#define FZ_MEM_BASE 0x100000000ull
#define FZ_MEM_SIZE 0x10000u
#define FZ_RCB 64u
#define FZ_MAX_MRDS 512u
#define FZ_MAX_HRDS 64u
#define FZ_STALL_MAX 20000u
#define FZ_MAX_LEN 8192u     /* 13-bit TLP length field */
#define FZ_DONE_LOG 16u

struct fz_mrd {                /* an engine MRd not yet fully answered */
    uint64_t addr, cycle;
    uint32_t len, done;        /* bytes requested, bytes answered */
    uint8_t tag, tainted;      /* a raw completion used its tag */
    uint32_t resets;           /* host reset writes before it was issued */
};

struct fz_host {
    const struct device_ops *ops;
    void *dev;
    uint64_t cycle;
    uint8_t mem[FZ_MEM_SIZE];
    uint8_t d2h_mask, wire_mask;
    int auto_answer;
    /* engine MRds outstanding, oldest first */
    struct fz_mrd mrd[FZ_MAX_MRDS];
    unsigned n_mrd;
    int tag_seen_max;          /* highest engine tag seen, -1: none */
    /* host MRds to BAR0 awaiting their CplD, oldest first */
    uint8_t hrd_tag[FZ_MAX_HRDS];
    uint16_t hrd_off[FZ_MAX_HRDS];
    uint8_t hrd_bad[FZ_MAX_HRDS]; /* 1: not a register read, answered with UR; 2: either
                               * (a queue block whose use the host cannot tell) */
    unsigned n_hrd;
    uint8_t last_cpl_tag;      /* tag of the latest CplD from the device */
    uint32_t last_cpl_data;    /* its low dword at the read's lanes */
    uint64_t cpls_seen;
    /* the host's own history */
    uint32_t resets;           /* CTRL writes with the reset bit */
    int reset_unsure;          /* one was asked for and may not be done yet */
    int tainted_any;           /* a raw completion may have fed an engine read */
    int trace;                 /* print every TLP (FUZZ_TLP_TRACE set) */
    uint32_t expect_err;       /* ERR bits the engine owes (cleared on an ERR write) */
    /* QUEUES as far as the host knows: in [queues_lo, queues_hi].  A write
     * that may have set it (whether the device accepted it depends on the
     * reset/enable history, not modelled) widens the range; a read of it
     * answered with no such write since narrows it to the value read. */
    unsigned queues_lo, queues_hi;
    uint32_t queues_wrs;       /* writes that may have set QUEUES */
    uint32_t hrd_qwrs[FZ_MAX_HRDS]; /* queues_wrs when each host MRd went out */
    uint8_t hrd_len[FZ_MAX_HRDS];
    /* wire */
    int in_frame;
    uint32_t frame_len;
    uint64_t frames;
    uint8_t frame[16384 + DEV_WIDTH_MAX];
    /* the last FZ_DONE_LOG frames done: frame k (counting from 0) at
     * k % FZ_DONE_LOG, its length and fz_hash of its bytes */
    uint32_t done_len[FZ_DONE_LOG], done_hash[FZ_DONE_LOG];
};

/* A fresh device in a fresh host; -1 if the device cannot be made. */
int fz_init(struct fz_host *h, const struct device_ops *ops);
void fz_fini(struct fz_host *h);

void fz_fail(struct fz_host *h, const char *fmt, ...) __attribute__((format(printf, 2, 3),
                                                                       noreturn));

/* Ready masks: bit (cycle mod 8) high = ready; 0 means always. */
void fz_set_ready(struct fz_host *h, uint8_t d2h, uint8_t wire);

/* One clock with `offer` on h2d (NULL: none); 1 if it was taken. */
int fz_cycle(struct fz_host *h, const struct dev_beat *offer);
/* n clocks, answering reads if auto_answer. */
void fz_idle(struct fz_host *h, unsigned n);

/* One host TLP, all its beats taken (or fz_fail): type, tag, err, addr,
 * len (a TLP of 0 bytes still has one beat), data[0..len) for MWr/CplD. */
void fz_send(struct fz_host *h, unsigned type, uint8_t tag, int err, uint64_t addr,
             unsigned len, const uint8_t *data);

/* Answer the oldest engine MRd: all of it, or only its next FZ_RCB piece
 * (partial); err: with an error status.  0, or -1 if none is pending. */
int fz_answer(struct fz_host *h, int partial, int err);
/* A raw CplD: any tag, address, length, status (marks that tag's MRd). */
void fz_raw_cpl(struct fz_host *h, uint8_t tag, uint64_t addr, unsigned len, int err,
                const uint8_t *data);

/* Host writes and reads of BAR0 through the link.  fz_rd32 waits for the
 * answer (answering engine reads meanwhile) and fails after max clocks. */
void fz_wr(struct fz_host *h, uint32_t off, unsigned len, uint64_t val);
void fz_mrd_raw(struct fz_host *h, uint32_t off, unsigned len, uint8_t tag);
uint32_t fz_rd32(struct fz_host *h, uint32_t off, unsigned max);

/* FNV-1a of n bytes (frames in done_hash). */
uint32_t fz_hash(const uint8_t *p, unsigned n);

/* BAR0 offset off (13 bits), len bytes, a write or a read: 0 a good access,
 * 1 a bad one (ERR.BAD_ACCESS, a read answered UR), 2 either (a queue
 * block q with queues_lo <= q < queues_hi).  WC window writes are good. */
int fz_bar0_bad(const struct fz_host *h, unsigned off, unsigned len, int write);

/* The engine owes these ERR bits (unless the host clears or resets; not
 * while a reset asked for may still come and clear them). */
void fz_expect_err(struct fz_host *h, uint32_t bits);
/* The host saw its queue reset done: the reads it abandoned are forgotten
 * (never answered) and ERR bits may be owed again. */
void fz_reset_done(struct fz_host *h);

#endif /* NICTX_FZ_HOST_H */
