/* SPDX-License-Identifier: Apache-2.0 */
/*
 * netdev.h - the kernel's side of a transmit queue, as the driver calls it:
 * the queue's XOFF state (netif_tx_stop_queue and friends) and byte queue
 * limits (netdev_tx_sent_queue and friends), written as
 * include/linux/netdevice.h writes them, over the platform's bitops and
 * barriers (platform.h).  The state is one word the driver owns and zeroes
 * (struct netdev_queue's `state`): bit NETDEV_XOFF_DRV is the driver's
 * stop, NETDEV_XOFF_STACK BQL's.  Names are the kernel's; no state of
 * their own.
 *
 * The driver's contract (Documentation/networking/driver.rst, ixgbe):
 *  - the transmit path that stops the queue then smp_mb()s and re-reads the
 *    ring's consumer index, and restarts the queue if room appeared;
 *  - the cleanup smp_mb()s between its store of the consumer index and its
 *    netif_tx_queue_stopped() test;
 *  - netdev_tx_completed_queue() gets exactly the bytes netdev_tx_sent_queue()
 *    got for what it reclaimed; netdev_tx_reset_queue() when the ring is
 *    reset.
 * The simulator checks each (sim/check/stopchk.h; bql_overcompleted through
 * plat_bug; bql_unbalanced, sim/check/livechk.h).
 */
#ifndef NICTX_NETDEV_H
#define NICTX_NETDEV_H

#include <stdint.h>

#include "dql.h"
#include "platform.h"

#define NETDEV_XOFF_DRV 0u   /* __QUEUE_STATE_DRV_XOFF */
#define NETDEV_XOFF_STACK 1u /* __QUEUE_STATE_STACK_XOFF */

/* The driver stops, restarts (after its re-check), wakes (the cleanup: 1
 * if it was stopped) and tests the queue. */
void netif_tx_stop_queue(struct platform *p, uint32_t *state);
void netif_tx_start_queue(struct platform *p, uint32_t *state);
int netif_tx_wake_queue(struct platform *p, uint32_t *state);
int netif_tx_queue_stopped(struct platform *p, const uint32_t *state);
/* The stack's test before it calls the transmit path: stopped by either. */
int netif_xmit_stopped(struct platform *p, const uint32_t *state);

/* BQL: `bytes` queued to the device (stops the queue when DQL's limit is
 * reached, re-checks after smp_mb__after_atomic); `bytes` completed (then
 * smp_mb, and a restart when DQL has room again: 1 if it restarted); the
 * ring was reset. */
void netdev_tx_sent_queue(struct platform *p, uint32_t *state, struct dql *dql, unsigned bytes);
int netdev_tx_completed_queue(struct platform *p, uint32_t *state, struct dql *dql,
                              unsigned bytes);
void netdev_tx_reset_queue(struct platform *p, uint32_t *state, struct dql *dql);

#endif /* NICTX_NETDEV_H */
