/* SPDX-License-Identifier: Apache-2.0 */
/* tlp_beat.c - TLPs to device port beats and back (tlp_beat.h). */
#include "device/tlp_beat.h"

#include <string.h>

void tlp_beat_from_tlp(unsigned w, const struct tlp *t, unsigned k, struct dev_beat *b)
{
    b->valid = 1;
    b->sop = k == 0;
    b->eop = k + 1 == dev_tlp_beats(w, t->type, t->addr, t->len);
    b->type = t->type;
    b->tag = t->tag;
    b->len = t->len;
    b->addr = t->addr;
    b->err = t->type == TLP_CPLD && (t->status != TLP_STATUS_SC || t->ep);
    if (t->type == TLP_MRD)
        memset(b->data, 0, sizeof(b->data));
    else
        dev_beat_data(w, t->addr, t->len, t->data, k, b->data);
}

void tlp_beat_next(unsigned w, const struct tlp *t, unsigned k, struct dev_beat *b)
{
    const long first = (long)k * w - (long)(t->addr & (w - 1)); /* TLP byte in lane 0 */

    b->sop = 0;
    b->eop = k + 1 == dev_tlp_beats(w, t->type, t->addr, t->len);
    if (first + (long)w <= (long)t->len) { /* (a whole beat: every later one but the last) */
        dev_lanes_copy(b->data, t->data + first, w);
        return;
    }
    dev_lanes_zero(b->data, w); /* (lanes from W on are 0 since beat 0) */
    if ((long)t->len > first)
        memcpy(b->data, t->data + first, (size_t)((long)t->len - first));
}

int tlp_beat_collect(unsigned w, struct tlp *t, unsigned *beat, const struct dev_beat *b)
{
    const unsigned k_max = TLP_MAX_DATA / w + 1;
    unsigned lane;

    if (b->sop) {
        t->type = b->type;
        t->tag = b->tag;
        t->len = b->len;
        t->addr = b->addr;
        t->last = 1;
        t->ro = 0;
        t->status = b->err ? TLP_STATUS_UR : TLP_STATUS_SC;
        t->ep = 0;
        *beat = 0;
    }
    if (t->type != TLP_MRD && *beat < k_max) {
        for (lane = 0; lane < w; lane++) {
            long i = dev_beat_byte(w, t->addr, t->len, *beat, lane);
            if (i >= 0)
                t->data[i] = b->data[lane];
        }
    }
    (*beat)++;
    if (!b->eop)
        return 0;
    *beat = 0;
    return 1;
}
