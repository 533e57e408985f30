/* SPDX-License-Identifier: Apache-2.0 */
/*
 * missing_header.c - a driver file that includes a kernel header nictx's
 * kernel layer does not have: it must fail to build, and say so
 * (tests/cli/test_own_driver.c).  Never linked.
 */
#include <linux/netdevice.h>
#include <linux/ethtool.h>

int nictx_test_missing_header(void);
int nictx_test_missing_header(void)
{
    return 0;
}
