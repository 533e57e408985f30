/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_rr_pick.h - rtl/prim_rr_pick.sv in the C model (docs/c-model.md): the
 * first requester at or after a pointer, wrapping, among up to 64.  As the
 * RTL's: a mask and the lowest set bit, no loop over the requesters.
 */
#ifndef NICTX_CM_RR_PICK_H
#define NICTX_CM_RR_PICK_H

#include <stdbool.h>
#include <stdint.h>

/* The first bit of `req` at or after `ptr` (< 64), wrapping past bit 63 to
 * bit 0 (the RTL's N: req has no bit at or above it); 0 when req is 0. */
static inline unsigned cm_rr_pick(uint64_t req, unsigned ptr)
{
    const uint64_t hi = req & ~((1ull << ptr) - 1);

    return req == 0 ? 0 : (unsigned)__builtin_ctzll(hi != 0 ? hi : req);
}

#endif
