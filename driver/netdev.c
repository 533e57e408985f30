/* SPDX-License-Identifier: Apache-2.0 */
/*
 * netdev.c - the kernel's side of a transmit queue (see netdev.h).
 */
#include "netdev.h"

#include <stdio.h>

void netif_tx_stop_queue(struct platform *p, uint32_t *state)
{
    plat_set_bit(p, NETDEV_XOFF_DRV, state);
}

void netif_tx_start_queue(struct platform *p, uint32_t *state)
{
    plat_clear_bit(p, NETDEV_XOFF_DRV, state);
}

int netif_tx_wake_queue(struct platform *p, uint32_t *state)
{
    return plat_test_and_clear_bit(p, NETDEV_XOFF_DRV, state);
}

int netif_tx_queue_stopped(struct platform *p, const uint32_t *state)
{
    return plat_test_bit(p, NETDEV_XOFF_DRV, state);
}

int netif_xmit_stopped(struct platform *p, const uint32_t *state)
{
    return (plat_read_once32(p, state) & (1u << NETDEV_XOFF_DRV | 1u << NETDEV_XOFF_STACK)) != 0;
}

void netdev_tx_sent_queue(struct platform *p, uint32_t *state, struct dql *dql, unsigned bytes)
{
    dql_queued(dql, p, bytes);
    if (dql_avail(dql, p) >= 0)
        return;
    plat_set_bit(p, NETDEV_XOFF_STACK, state);
    /* The re-check below is ordered after the stop, so a completion that
     * made room meanwhile is seen (pairs with the smp_mb() below). */
    plat_smp_mb__after_atomic(p);
    if (dql_avail(dql, p) >= 0)
        plat_clear_bit(p, NETDEV_XOFF_STACK, state);
}

int netdev_tx_completed_queue(struct platform *p, uint32_t *state, struct dql *dql,
                              unsigned bytes)
{
    /* As the kernel's: nothing completed reads nothing (its BUG_ON on
     * overcompletion is in dql_completed()). */
    if (bytes == 0)
        return 0;
    unsigned in_flight = dql_in_flight(dql, p);
    if (bytes > in_flight) {
        char detail[200];
        snprintf(detail, sizeof(detail),
                 "netdev_tx_completed_queue(%u bytes) with only %u in flight: the cleanup "
                 "reports bytes it never queued with netdev_tx_sent_queue (the kernel BUG()s)",
                 bytes, in_flight);
        plat_bug(p, state, "bql_overcompleted", detail);
        return 0;
    }
    dql_completed(dql, p, bytes);
    /* Without it, a transmit path stopping now may miss the new limit and
     * this test its stop: stopped forever. */
    plat_smp_mb(p);
    if (dql_avail(dql, p) < 0)
        return 0;
    return plat_test_and_clear_bit(p, NETDEV_XOFF_STACK, state);
}

void netdev_tx_reset_queue(struct platform *p, uint32_t *state, struct dql *dql)
{
    plat_clear_bit(p, NETDEV_XOFF_STACK, state);
    dql_reset(dql, p);
}
