/* SPDX-License-Identifier: Apache-2.0 */
/* dev_hw.c - the hardware parameters as data (dev_hw.h). */
#include "device/dev_hw.h"

#include "cm_regs.h"

#include <stdio.h>
#include <string.h>


/* The table: DataBytes first (W, not in struct dev_hw: off -1). */
struct dev_hw_param {
    const char *rtl; /* rtl/nictx_tx_top.sv's parameter */
    char letter;     /* in the key */
    long off;        /* offsetof(struct dev_hw, ...), -1: W */
    unsigned lo, hi; /* a power of two in lo..hi */
};

/* The ranges are the RTL's elaboration checks', which the C model takes
 * too (c-model/cm_desc_fetch.h): DescReads is a retirement FIFO's depth
 * (prim_fifo_sync: a power of two >= 2) and the register block takes at
 * most 15 (nictx_reg_pkg::hw_params_fit, DESC_INFLIGHT's 4 bits);
 * DescBufDescs is nictx_desc_fetch's gen_buf_check's 32..256, and
 * dev_hw_check() refuses a buffer below one fetch first. */

static const struct dev_hw_param params[DEV_HW_NPARAMS] = {
    {"DataBytes", 'w', -1, 8, 64},
    {"NumQueues", 'q', (long)offsetof(struct dev_hw, queues), 1, 64},
    {"NumTags", 't', (long)offsetof(struct dev_hw, tags), 2, 256},
    {"DescReads", 'r', (long)offsetof(struct dev_hw, desc_reads), 2, 8},
    {"DescBufDescs", 'd', (long)offsetof(struct dev_hw, desc_buf), 32, 256},
    {"PayBufBytes", 'p', (long)offsetof(struct dev_hw, pay_buf), 16384, 262144},
    {"MaxPkts", 'k', (long)offsetof(struct dev_hw, pkts), 2, 256},
};

const char *dev_hw_param_name(unsigned i)
{
    return i < DEV_HW_NPARAMS ? params[i].rtl : NULL;
}

unsigned dev_hw_param_value(unsigned i, unsigned w, const struct dev_hw *hw)
{
    if (i >= DEV_HW_NPARAMS)
        return 0;
    if (params[i].off < 0)
        return w;
    return *(const unsigned *)(const void *)((const char *)hw + params[i].off);
}

int dev_hw_is_default(const struct dev_hw *hw)
{
    const struct dev_hw d = DEV_HW_DEFAULT;

    for (unsigned i = 1; i < DEV_HW_NPARAMS; i++)
        if (dev_hw_param_value(i, 0, hw) != dev_hw_param_value(i, 0, &d))
            return 0;
    return 1;
}

int dev_hw_check(unsigned w, const struct dev_hw *hw, char *err, size_t n)
{
    /* One queue's fetch waits until it fits the buffer whole (docs/device.md,
     * Descriptor fetch): the buffer holds the largest (the RTL's elaboration
     * check, nictx_desc_fetch's gen_buf_check). */
    if (hw->desc_buf < CM_REGS_DESC_FETCH_MAX_HW) {
        snprintf(err, n, "DescBufDescs %u cannot hold one fetch of %u descriptors "
                 "(DescFetchMaxHw, the most --desc-fetch-max takes)", hw->desc_buf,
                 CM_REGS_DESC_FETCH_MAX_HW);
        return -1;
    }
    for (unsigned i = 0; i < DEV_HW_NPARAMS; i++) {
        const unsigned v = dev_hw_param_value(i, w, hw);
        if (v < params[i].lo || v > params[i].hi || (v & (v - 1)) != 0) {
            snprintf(err, n, "%s %u: the hardware takes a power of two in %u..%u",
                     params[i].rtl, v, params[i].lo, params[i].hi);
            return -1;
        }
    }
    if (hw->pay_buf < hw->desc_buf * 16u) {
        snprintf(err, n, "PayBufBytes %u is smaller than the descriptor buffer (%u slots of 16 B)",
                 hw->pay_buf, hw->desc_buf);
        return -1;
    }
    return 0;
}

void dev_hw_key(unsigned w, const struct dev_hw *hw, char out[DEV_HW_KEY_MAX])
{
    size_t k = 0;

    out[0] = 0;
    for (unsigned i = 0; i < DEV_HW_NPARAMS && k < DEV_HW_KEY_MAX; i++) {
        int m = snprintf(out + k, DEV_HW_KEY_MAX - k, "%s%c%u", i ? "-" : "", params[i].letter,
                         dev_hw_param_value(i, w, hw));
        k += m > 0 ? (size_t)m : 0;
    }
}
