/* SPDX-License-Identifier: Apache-2.0 */
/*
 * linux/netdevice.h - a transmit queue's side of the kernel, for nictx's
 * kernel layer: the queue's XOFF state and BQL (include/linux/netdevice.h,
 * written over the platform in driver/netdev.c, checked by
 * sim/check/stopchk.h and livechk.h), netdev_xmit_more, and NAPI's budget.
 *
 * A queue's struct netdev_queue is the struct txq's `nq`.  BQL is the
 * queue's `dql`; with BQL off in the run (--bql off, CONFIG_BQL unset)
 * the netdev_tx_*_queue calls do nothing, as in the kernel.
 *   netif_tx_stop_queue, netif_tx_start_queue, netif_tx_wake_queue,
 *   netif_tx_queue_stopped: the driver's stop, restart, wake and test
 *       (set_bit, clear_bit, test_and_clear_bit, test_bit of
 *       __QUEUE_STATE_DRV_XOFF);
 *   netif_xmit_stopped: the stack's test (either XOFF bit);
 *   netdev_tx_sent_queue, netdev_tx_completed_queue, netdev_tx_reset_queue:
 *       BQL, with its own barriers;
 *   netdev_xmit_more(): the stack promises another packet (the harness
 *       sets it for each txq_xmit: the caller's `more`);
 *   NAPI: the harness's poll is txq_clean_budget(q, p, budget): the
 *       cleanup reclaims at most `budget` descriptors and returns how many;
 *       napi_complete_done is the poll's end (nothing to re-arm here).
 */
#ifndef _NICTX_LINUX_NETDEVICE_H
#define _NICTX_LINUX_NETDEVICE_H

#include "linux/bitops.h"
#include "linux/nictx_layer.h"
#include "linux/skbuff.h"
#include "linux/types.h"
#include "netdev.h"
#include "txq.h"

typedef enum netdev_tx {
    NETDEV_TX_OK = 0x00,
    NETDEV_TX_BUSY = 0x10,
} netdev_tx_t;

struct net_device;
struct napi_struct;

/* The kernel's names, each on the platform-style call of driver/netdev.h
 * (a macro of the same name calls the function, as the preprocessor does
 * not expand it again). */
#define netif_tx_stop_queue(txq) netif_tx_stop_queue(kcpu_plat(), &(txq)->state)
#define netif_tx_start_queue(txq) netif_tx_start_queue(kcpu_plat(), &(txq)->state)
/* (netif_tx_wake_queue returns whether the queue was stopped: nictx's
 * addition, for the driver's wake counter; the kernel's returns nothing.) */
#define netif_tx_wake_queue(txq)                                                                \
    ({                                                                                          \
        bool __woke = netif_tx_wake_queue(kcpu_plat(), &(txq)->state);                         \
        __woke;                                                                                 \
    })
#define netif_tx_queue_stopped(txq) ((bool)netif_tx_queue_stopped(kcpu_plat(), &(txq)->state))
#define netif_xmit_stopped(txq) ((bool)netif_xmit_stopped(kcpu_plat(), &(txq)->state))

void nictx_netdev_tx_sent_queue(struct netdev_queue *txq, unsigned int bytes);
void nictx_netdev_tx_completed_queue(struct netdev_queue *txq, unsigned int pkts,
                                     unsigned int bytes);
void nictx_netdev_tx_reset_queue(struct netdev_queue *txq);
#define netdev_tx_sent_queue(txq, bytes) nictx_netdev_tx_sent_queue(txq, bytes)
#define netdev_tx_completed_queue(txq, pkts, bytes) nictx_netdev_tx_completed_queue(txq, pkts, bytes)
#define netdev_tx_reset_queue(txq) nictx_netdev_tx_reset_queue(txq)

/* The stack's side (dev_hard_start_xmit): another packet follows. */
void nictx_netdev_xmit_set_more(bool more);

static inline bool netdev_xmit_more(void)
{
    struct kcpu *k = kcpu_this();

    return k != NULL && k->xmit_more;
}

static inline bool napi_complete_done(struct napi_struct *n, int work_done)
{
    (void)n;
    (void)work_done;
    return true;
}

void netif_tx_stop_all_queues(struct net_device *dev)
    NICTX_UNMODELLED("netif_tx_stop_all_queues() (stop the queue: netif_tx_stop_queue(&q->nq))");
void netif_stop_subqueue(struct net_device *dev, u16 queue_index)
    NICTX_UNMODELLED("netif_stop_subqueue() (stop the queue: netif_tx_stop_queue(&q->nq))");
void netif_start_subqueue(struct net_device *dev, u16 queue_index)
    NICTX_UNMODELLED("netif_start_subqueue() (netif_tx_start_queue(&q->nq))");
void netif_wake_subqueue(struct net_device *dev, u16 queue_index)
    NICTX_UNMODELLED("netif_wake_subqueue() (netif_tx_wake_queue(&q->nq))");
struct netdev_queue *netdev_get_tx_queue(const struct net_device *dev, unsigned int index)
    NICTX_UNMODELLED("netdev_get_tx_queue() (the queue's struct netdev_queue is &q->nq)");
void napi_schedule(struct napi_struct *n)
    NICTX_UNMODELLED("napi_schedule() (the harness schedules the poll)");
void netif_napi_add(struct net_device *dev, struct napi_struct *n, void *poll)
    NICTX_UNMODELLED("NAPI registration (the harness polls txq_clean_budget)");
void netif_carrier_off(struct net_device *dev) NICTX_UNMODELLED("carrier state");
void netif_carrier_on(struct net_device *dev) NICTX_UNMODELLED("carrier state");

#endif
