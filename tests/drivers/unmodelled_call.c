/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unmodelled_call.c - a driver file that calls a kernel function the layer
 * declares but does not model (netif_tx_stop_all_queues): it must fail to
 * build with the layer's message (tests/cli/test_own_driver.c).  Never
 * linked.
 */
#include <linux/netdevice.h>

void nictx_test_unmodelled_call(struct net_device *dev);
void nictx_test_unmodelled_call(struct net_device *dev)
{
    netif_tx_stop_all_queues(dev);
}
