/* SPDX-License-Identifier: Apache-2.0 */
/*
 * nictx/queue.h - the harness's side of a queue, for a driver written
 * against nictx's kernel layer (docs/own-driver.md, The contract): what
 * the Linux stack would own (struct netdev_queue, BQL, the skbs' owner)
 * lives in struct txq (driver/txq.h), and a driver's txq_init brings it up
 * with nictx_queue_init before its own state.
 */
#ifndef _NICTX_QUEUE_H
#define _NICTX_QUEUE_H

#include "linux/nictx_layer.h"
#include "txq.h"

/* The harness's fields of q for queue cfg->queue on platform p, as the
 * stack brings a queue up: the platform, the ring size, the completion
 * callback (no drop callback: txq_set_drop sets one), the XOFF state
 * clear, the transmit lock free, BQL on or off with its order, the
 * kernel's limits and the stall threshold (netdev_init_one_queue,
 * dql_init, sysfs), the reset flags and every counter 0.  0, or -EINVAL
 * (a stall threshold out of range). */
int nictx_queue_init(struct txq *q, struct platform *p, const struct txq_cfg *cfg,
                     txq_complete_fn done, void *done_ctx);

#endif
