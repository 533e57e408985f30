/*
 * device.h - the device port contract, C side.
 *
 * A device backend (the Verilated RTL in dev_rtl.cpp; later the cycle-level
 * C model) is driven one clock at a time through struct device_ops.  Its
 * ports mirror rtl/nictx_tx_top.sv:
 *
 *  - h2d: host-to-device TLP beats (MWr/MRd to BAR0, CplD for the device's
 *    reads).  Header fields are repeated on every beat of a TLP; the data
 *    lanes follow the address (lane = address mod 8), so a TLP of len bytes
 *    at address a has ceil(((a mod 8) + len) / 8) beats; an MRd has one.
 *  - d2h: device-to-host TLP beats, same rules; a register read the BAR
 *    does not support is answered with a Cpl (DEV_TLP_CPL, err set, len 0).
 *  - wire: frame bytes (without FCS) from byte 0, 8 per beat, `bytes` valid;
 *    the MAC's FCS comes with the last beat.
 *
 * Each stream is valid/ready: a beat moves on a clock when valid and ready
 * are both high before that clock edge.  device_ops.step() presents the
 * inputs, settles the logic, samples the outputs (which tell what moves on
 * this edge) and then applies one rising clock edge.
 *
 * Idle and skipped clocks: `idle` says no state can change without host
 * input (an h2d beat).  `waiting` says the same except for the completion
 * timer of reads that wait for their data (idle implies waiting).  While
 * waiting, a caller may leave out up to `wake` - dev_in.skip clocks after
 * this one (none if that is below 1; UINT32_MAX: no limit) and must say on
 * the next clock it runs how many it left out (dev_in.skip).
 *
 * Tags: 8 bits, one pool for descriptor and payload reads; the harness
 * tells the two apart by address (the descriptor ring's range).
 */
#ifndef NICTX_DEVICE_H
#define NICTX_DEVICE_H

#include <stdint.h>

/* TLP type encoding on the ports (rtl/nictx_pkg.sv); same values as tlp.h. */
#define DEV_TLP_MWR 0u
#define DEV_TLP_MRD 1u
#define DEV_TLP_CPLD 2u
#define DEV_TLP_CPL 3u /* completion without data (len 0): from the device,
                          always with err (Unsupported Request) */

struct dev_beat {
    uint8_t valid;
    uint8_t sop, eop;
    uint8_t type;  /* DEV_TLP_* */
    uint8_t tag;
    uint16_t len;  /* payload bytes of the whole TLP (MRd: requested bytes) */
    uint64_t addr; /* CplD to the device: address of its first byte; from the
                      device: the register offset of the read it answers */
    uint64_t data;
    uint8_t err;   /* CplD to the device: its data is unusable: a status other
                      than Successful (UR, CA) or poisoned (EP); data lanes zero.
                      Cpl from the device: status Unsupported Request */
};

struct dev_wire_beat {
    uint8_t valid;
    uint8_t sop, eop;
    uint8_t bytes; /* 1..8 */
    uint32_t fcs;  /* on the eop beat */
    uint64_t data;
};

struct dev_in {
    struct dev_beat h2d; /* h2d.valid: a beat is offered */
    uint8_t d2h_ready;
    uint8_t wire_ready;
    uint32_t skip;       /* clocks left out just before this one (see above) */
};

struct dev_out {
    uint8_t h2d_ready;       /* the offered h2d beat is taken on this edge */
    struct dev_beat d2h;     /* taken on this edge iff d2h.valid && d2h_ready */
    struct dev_wire_beat wire; /* likewise with wire_ready */
    uint8_t idle;            /* no state can change without host input */
    uint8_t waiting;         /* ... but a completion timer (above) */
    uint32_t wake;           /* when waiting: clocks that may be left out after this
                                one, plus this clock's dev_in.skip (above) */
};

struct device_ops {
    const char *name; /* "rtl", later "cmodel" */
    /* Create one device instance in reset; NULL on failure. */
    void *(*create)(void);
    void (*destroy)(void *dev);
    /* Hold reset for a few clocks, then release it. */
    void (*reset)(void *dev);
    /* One clock: see above. */
    void (*step)(void *dev, const struct dev_in *in, struct dev_out *out);
};

/* Beats of a TLP of `len` bytes at `addr` (an MRd has one). */
static inline unsigned dev_tlp_beats(unsigned type, uint64_t addr, unsigned len)
{
    return type == DEV_TLP_MRD || len == 0 ? 1u : ((unsigned)(addr & 7) + len + 7) / 8;
}

/* Lanes follow the address: byte `lane` of beat k of a TLP at `addr` is
 * TLP data byte k * 8 + lane - (addr mod 8); -1 when it carries none. */
static inline long dev_beat_byte(uint64_t addr, unsigned len, unsigned k, unsigned lane)
{
    long i = (long)k * 8 + (long)lane - (long)(addr & 7);
    return i >= 0 && i < (long)len ? i : -1;
}

/* The data lanes of beat k of a TLP whose payload is data[0..len). */
static inline uint64_t dev_beat_data(uint64_t addr, unsigned len, const uint8_t *data, unsigned k)
{
    uint64_t d = 0;
    unsigned lane;

    for (lane = 0; lane < 8; lane++) {
        long i = dev_beat_byte(addr, len, k, lane);
        if (i >= 0)
            d |= (uint64_t)data[i] << (8 * lane);
    }
    return d;
}

/* The Verilated RTL backend (sim/dev_rtl.cpp). */
extern const struct device_ops dev_rtl_ops;

#endif /* NICTX_DEVICE_H */
