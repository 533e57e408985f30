/* SPDX-License-Identifier: Apache-2.0 */
/*
 * linux/skbuff.h - the sk_buff a transmit path sees, for nictx's kernel
 * layer: one linear frame (no fragments, no GSO), its data and len, and
 * the queue it is sent on (skb->dev); struct sk_buff is the harness's
 * struct txq_pkt (driver/txq.h).  The driver frees it once the device is
 * done with it:
 *   napi_consume_skb, dev_consume_skb_any: sent (the queue's completion
 *       callback gets its cookie);
 *   dev_kfree_skb_any, dev_kfree_skb: dropped (the queue's drop callback,
 *       or its completion callback when it has none).
 */
#ifndef _NICTX_LINUX_SKBUFF_H
#define _NICTX_LINUX_SKBUFF_H

#include "linux/nictx_layer.h"
#include "linux/types.h"
#include "txq.h"

#define sk_buff txq_pkt

void dev_consume_skb_any(struct sk_buff *skb);
void dev_kfree_skb_any(struct sk_buff *skb);
#define dev_kfree_skb(skb) dev_kfree_skb_any(skb)
#define napi_consume_skb(skb, budget) ((void)(budget), dev_consume_skb_any(skb))

static inline unsigned int skb_headlen(const struct sk_buff *skb)
{
    return skb->len;
}

struct skb_shared_info;
struct skb_shared_info *skb_shinfo(const struct sk_buff *skb)
    NICTX_UNMODELLED("skb fragments and GSO (one linear buffer per frame)");
bool skb_is_gso(const struct sk_buff *skb) NICTX_UNMODELLED("GSO (one frame per skb)");
int skb_padto(struct sk_buff *skb, unsigned int len)
    NICTX_UNMODELLED("skb_padto() (frames come at their final length)");
void skb_tx_timestamp(struct sk_buff *skb) NICTX_UNMODELLED("timestamping");
int skb_checksum_help(struct sk_buff *skb) NICTX_UNMODELLED("checksum offload");

#endif
