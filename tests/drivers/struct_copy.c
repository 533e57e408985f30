/* SPDX-License-Identifier: Apache-2.0 */
/*
 * struct_copy.c - a driver file whose struct assignment and array zeroing
 * the compiler makes with calls of memcpy and memset: the build points
 * them at the kernel layer's (linux/string.h), which announce each 8-byte
 * piece, and the object builds (tests/cli/test_own_driver.c).  Never
 * linked.
 */
#include <linux/types.h>

struct nictx_test_big {
    u64 w[32];
};

void nictx_test_struct_copy(struct nictx_test_big *dst, const struct nictx_test_big *src,
                            struct nictx_test_big *zero);
void nictx_test_struct_copy(struct nictx_test_big *dst, const struct nictx_test_big *src,
                            struct nictx_test_big *zero)
{
    *dst = *src;
    *zero = (struct nictx_test_big){{0}};
}
