/* SPDX-License-Identifier: Apache-2.0 */
/*
 * atomic_builtin.c - a driver file that uses a C11 atomic builtin, which
 * the memory model cannot see: the build refuses the object, and says so
 * (tests/cli/test_own_driver.c).  Never linked.
 */
#include <linux/types.h>

int nictx_test_atomic_builtin(int *counter);
int nictx_test_atomic_builtin(int *counter)
{
    return __atomic_fetch_add(counter, 1, __ATOMIC_SEQ_CST);
}
