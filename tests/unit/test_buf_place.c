/* SPDX-License-Identifier: Apache-2.0 */
/* test_buf_place.c - packet buffer placement as Linux allocates skb heads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "buf_place.h"

/* __netdev_alloc_skb's page fragments: a 1514 B frame's head is
 * SKB_DATA_ALIGN(64 + 1514) + 320 = 1920 B; 17 fit a 32 KiB page, taken
 * from the top down, the data 64 B into each. */
static void test_buf_place_frag(void **state)
{
    struct buf_layout l;

    (void)state;
    buf_layout_init(&l, BUF_PLACE_FRAG, 0, 1514);
    assert_int_equal(l.mode, BUF_PLACE_FRAG);
    assert_int_equal(l.piece, 1920);
    assert_int_equal(l.chunk, 32768);
    assert_int_equal(l.chunk_align, 32768);
    assert_int_equal(l.per_chunk, 17);
    assert_int_equal(buf_layout_offset(&l, 0), 32768 - 1920 + 64);
    assert_int_equal(buf_layout_offset(&l, 1), 32768 - 2 * 1920 + 64);
    assert_int_equal(buf_layout_offset(&l, 16), 32768 - 17 * 1920 + 64);
    /* 34 buffers: two pages, and the padding to align the first */
    assert_int_equal(buf_layout_bytes(&l, 34), 32767 + 2 * 32768);
    assert_int_equal(buf_layout_bytes(&l, 35), 32767 + 3 * 32768);
    /* boundary: 64 + 3712 = 3776 = SKB_WITH_OVERHEAD(4096) is still a fragment */
    buf_layout_init(&l, BUF_PLACE_FRAG, 0, 3712);
    assert_int_equal(l.mode, BUF_PLACE_FRAG);
    assert_int_equal(l.piece, 4096);
    assert_int_equal(l.per_chunk, 8);
}

/* Past SKB_WITH_OVERHEAD(PAGE_SIZE) the head is kmalloc'd: a power-of-two
 * size class, naturally aligned, the data NET_SKB_PAD in. */
static void test_buf_place_skb(void **state)
{
    struct buf_layout l;

    (void)state;
    buf_layout_init(&l, BUF_PLACE_FRAG, 0, 3713);
    assert_int_equal(l.mode, BUF_PLACE_SKB);
    assert_int_equal(l.chunk, 8192); /* 64 + 3713 -> 3840, + 320 = 4160 -> 8192 */
    buf_layout_init(&l, BUF_PLACE_SKB, 0, 60);
    assert_int_equal(l.chunk, 512); /* 128 + 320 = 448 -> kmalloc-512 */
    assert_int_equal(l.chunk_align, 512);
    assert_int_equal(l.per_chunk, 1);
    assert_int_equal(buf_layout_offset(&l, 0), 64);
    buf_layout_init(&l, BUF_PLACE_SKB, 0, 9014);
    assert_int_equal(l.chunk, 16384);
    assert_int_equal(buf_layout_bytes(&l, 3), 16383 + 3 * 16384);
}

/* An alignment: each buffer at the start of its slot; packed: 64 B. */
static void test_buf_place_align_packed(void **state)
{
    struct buf_layout l;

    (void)state;
    buf_layout_init(&l, BUF_PLACE_ALIGN, 512, 1514);
    assert_int_equal(l.chunk, 1536);
    assert_int_equal(l.chunk_align, 512);
    assert_int_equal(buf_layout_offset(&l, 0), 0);
    buf_layout_init(&l, BUF_PLACE_ALIGN, 4096, 60);
    assert_int_equal(l.chunk, 4096);
    buf_layout_init(&l, BUF_PLACE_PACKED, 0, 60);
    assert_int_equal(l.chunk, 64);
    assert_int_equal(l.chunk_align, 64);
    assert_int_equal(buf_layout_bytes(&l, 10), 63 + 640);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buf_place_frag),
        cmocka_unit_test(test_buf_place_skb),
        cmocka_unit_test(test_buf_place_align_packed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
