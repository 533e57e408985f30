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
    const char *why; /* why the range is narrower than the RTL's, or NULL */
};

/* The C model's descriptor fetcher (c-model/cm_desc_fetch.h) has its
 * sizes as constants: DescReads 8 and DescBufDescs 256 alone. */
#define CM_FIXED "the C model's descriptor fetcher is built for this size alone"


static const struct dev_hw_param params[DEV_HW_NPARAMS] = {
    {"DataBytes", 'w', -1, 8, 64, NULL},
    {"NumQueues", 'q', (long)offsetof(struct dev_hw, queues), 1, 64, NULL},
    {"NumTags", 't', (long)offsetof(struct dev_hw, tags), 2, 256, NULL},
    {"DescReads", 'r', (long)offsetof(struct dev_hw, desc_reads), 8, 8, CM_FIXED},
    {"DescBufDescs", 'd', (long)offsetof(struct dev_hw, desc_buf), 256, 256, CM_FIXED},
    {"PayBufBytes", 'p', (long)offsetof(struct dev_hw, pay_buf), 16384, 262144, NULL},
    {"MaxPkts", 'k', (long)offsetof(struct dev_hw, pkts), 2, 256, NULL},
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
            if (params[i].why)
                snprintf(err, n, "%s %u: %u alone (%s; docs/codesign.md)", params[i].rtl, v,
                         params[i].lo, params[i].why);
            else
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
