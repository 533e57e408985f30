/* SPDX-License-Identifier: Apache-2.0 */
/*
 * undeclared_call.c - a driver file that calls a kernel function the layer
 * has never heard of (napi_gro_flush): it must fail to build, and say it
 * is not modelled (tests/cli/test_own_driver.c).  Never linked.
 */
#include <linux/netdevice.h>

void nictx_test_undeclared_call(struct napi_struct *napi);
void nictx_test_undeclared_call(struct napi_struct *napi)
{
    napi_gro_flush(napi, false);
}
