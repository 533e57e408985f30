/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_scoreboard.c - cmocka tests for sim/check/scoreboard.c: packet generation,
 * FCS, the wire checks (clean, lost, corrupted, unexpected, unpublished),
 * latency percentiles (exact to 1 ns at any latency), the steady-state rate
 * against the 10G figure, and figures that cannot be measured (NAN).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "check/scoreboard.h"

/* Bitwise reference CRC-32 (IEEE 802.3), independent of the table code. */
static uint32_t ref_crc32(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int b = 0; b < 8; b++)
            c = (c >> 1) ^ ((c & 1u) ? 0xedb88320u : 0u);
    }
    return ~c;
}

/* ---- fixture: a 100-packet run of 60 B buffers, ring of 128 --------------- */

#define FX_EXPECTED 100u

struct fx {
    struct sb_cfg cfg;
    struct scoreboard *sb;
    uint8_t buf[SB_MAX_LEN + 64];
};

static int fx_setup(void **state)
{
    struct fx *f = test_calloc(1, sizeof *f);
    if (!f)
        return -1;
    f->cfg.gen.seed = 0x1234;
    f->cfg.gen.min_len = 60;
    f->cfg.gen.max_len = 60;
    f->cfg.expected = FX_EXPECTED;
    f->cfg.max_outstanding = FX_EXPECTED; /* every test may publish the whole run at once */
    f->sb = sb_create(&f->cfg);
    if (!f->sb) {
        test_free(f);
        return -1;
    }
    *state = f;
    return 0;
}

static int fx_teardown(void **state)
{
    struct fx *f = *state;
    sb_destroy(f->sb);
    test_free(f);
    return 0;
}

/* Put packet seq on the wire unchanged at time t. */
static void fx_send(struct fx *f, uint64_t seq, sim_ps_t t)
{
    unsigned len = sb_pkt_len(&f->cfg.gen, seq);
    sb_pkt_fill(&f->cfg.gen, seq, f->buf, len);
    sb_check_frame(f->sb, f->buf, len, crc32_fcs(f->buf, len), t);
}

static struct sb_result fx_result(const struct fx *f)
{
    struct sb_result r;
    sb_result(f->sb, &r);
    return r;
}

/* ---- CRC ------------------------------------------------------------------ */

static void test_scoreboard_crc_known_answers(void **state)
{
    (void)state;
    const uint8_t check[] = "123456789";
    assert_int_equal(crc32_fcs(check, 9), 0xcbf43926u); /* CRC-32 check value */
    assert_int_equal(crc32_fcs(check, 0), 0x00000000u); /* boundary: empty */
    const uint8_t zero = 0;
    assert_int_equal(crc32_fcs(&zero, 1), 0xd202ef8du);
}

/* n pseudo-random bytes from seed x (an LCG's top byte). */
static void crc_data(uint8_t *data, size_t n, uint64_t x)
{
    for (size_t i = 0; i < n; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        data[i] = (uint8_t)(x >> 56);
    }
}

static void test_scoreboard_crc_matches_bitwise_reference(void **state)
{
    (void)state;
    uint8_t data[600];
    crc_data(data, sizeof data, 99);
    /* every length 0..300 from every alignment 0..7: exercises the 8-byte
     * loop and the 0..7 byte tail */
    for (size_t a = 0; a < 8; a++)
        for (size_t n = 0; n <= 300; n++)
            assert_int_equal(crc32_fcs(data + a, n), ref_crc32(data + a, n));
}

/* An FCS taken in two updates, split anywhere, is the whole one's: the
 * register carries over between the tables' path and the folding one
 * (crc32.c folds 32 bytes or more where the CPU can). */
static void test_scoreboard_crc_update_chains(void **state)
{
    (void)state;
    uint8_t data[1600];
    crc_data(data, sizeof data, 5);
    for (size_t n = 1500; n <= 1518; n += 18) {
        const uint32_t whole = ref_crc32(data, n);
        for (size_t cut = 0; cut <= n; cut++) {
            uint32_t c = crc32_update(0xffffffffu, data, cut);
            assert_int_equal(~crc32_update(c, data + cut, n - cut), whole);
        }
    }
}

static void test_scoreboard_crc_fcs_residue(void **state)
{
    (void)state;
    /* frame || FCS sent little-endian has the fixed IEEE residue */
    uint8_t buf[64];
    struct sb_gen_cfg g = {.seed = 7, .min_len = 60, .max_len = 60};
    sb_pkt_fill(&g, 3, buf, 60);
    uint32_t fcs = crc32_fcs(buf, 60);
    for (int i = 0; i < 4; i++)
        buf[60 + i] = (uint8_t)(fcs >> (8 * i));
    assert_int_equal(crc32_fcs(buf, 64), 0x2144df1cu);
}

/* ---- generation ------------------------------------------------------------ */

static void test_scoreboard_pkt_len_fixed(void **state)
{
    (void)state;
    struct sb_gen_cfg g = {.seed = 1, .min_len = 1514, .max_len = 1514};
    for (uint64_t s = 0; s < 1000; s++)
        assert_int_equal(sb_pkt_len(&g, s), 1514);
}

static void test_scoreboard_pkt_len_uniform_range(void **state)
{
    (void)state;
    /* boundary: a span of 4 values so both ends must appear */
    struct sb_gen_cfg g = {.seed = 42, .min_len = 60, .max_len = 63};
    unsigned hist[4] = {0};
    for (uint64_t s = 0; s < 40000; s++) {
        unsigned l = sb_pkt_len(&g, s);
        assert_in_range(l, 60, 63);
        hist[l - 60]++;
        assert_int_equal(sb_pkt_len(&g, s), l); /* deterministic */
    }
    for (int i = 0; i < 4; i++)
        assert_in_range(hist[i], 9500, 10500);

    /* full range; a different seed gives a different sequence */
    struct sb_gen_cfg g1 = {.seed = 1, .min_len = SB_MIN_LEN, .max_len = SB_MAX_LEN};
    struct sb_gen_cfg g2 = {.seed = 2, .min_len = SB_MIN_LEN, .max_len = SB_MAX_LEN};
    unsigned differ = 0, lo = SB_MAX_LEN, hi = 0;
    for (uint64_t s = 0; s < 10000; s++) {
        unsigned l = sb_pkt_len(&g1, s);
        lo = l < lo ? l : lo;
        hi = l > hi ? l : hi;
        differ += l != sb_pkt_len(&g2, s);
    }
    assert_true(differ > 9900);
    assert_in_range(lo, SB_MIN_LEN, SB_MIN_LEN + 20);
    assert_in_range(hi, SB_MAX_LEN - 20, SB_MAX_LEN);
}

static void test_scoreboard_pkt_fill_layout(void **state)
{
    (void)state;
    struct sb_gen_cfg g = {.seed = 5, .min_len = 60, .max_len = 60};
    uint8_t a[300], b[300];
    const uint8_t hdr[14] = {2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 0x88, 0xb5};
    uint64_t seq = 0x0102030405060708ull;
    sb_pkt_fill(&g, seq, a, 300);
    assert_memory_equal(a, hdr, 14);
    for (int i = 0; i < 8; i++)
        assert_int_equal(a[14 + i], (uint8_t)(seq >> (8 * i)));

    /* a shorter buffer of the same packet is a prefix; odd tails included */
    for (unsigned len = SB_HDR_LEN; len < 300; len += 7) {
        memset(b, 0xee, sizeof b);
        sb_pkt_fill(&g, seq, b, len);
        assert_memory_equal(a, b, len);
        assert_int_equal(b[len], 0xee); /* nothing written past len */
    }

    /* boundary: len < 22 writes nothing */
    memset(b, 0xee, sizeof b);
    sb_pkt_fill(&g, seq, b, SB_HDR_LEN - 1);
    assert_int_equal(b[0], 0xee);

    /* payload depends on seq and on seed */
    sb_pkt_fill(&g, seq + 1, b, 300);
    assert_memory_not_equal(a + SB_HDR_LEN, b + SB_HDR_LEN, 300 - SB_HDR_LEN);
    struct sb_gen_cfg g2 = g;
    g2.seed = 6;
    sb_pkt_fill(&g2, seq, b, 300);
    assert_memory_equal(a, b, SB_HDR_LEN);
    assert_memory_not_equal(a + SB_HDR_LEN, b + SB_HDR_LEN, 300 - SB_HDR_LEN);
}

/* The seq is all 8 bytes at offset 14, little-endian: in a run of
 * SB_MAX_EXPECTED packets, frames whose seqs use each of the bytes 0..4
 * (each byte a different value) are checked, and the seqs skipped before
 * them are lost.  (Runs below 2^24 packets leave bytes 3..7 zero, so
 * every other test reads the same seq with any of them misplaced.) */
static void test_scoreboard_seq_all_eight_bytes(void **state)
{
    (void)state;
    struct sb_cfg c = {.gen = {.seed = 3, .min_len = 60, .max_len = 60},
                       .expected = SB_MAX_EXPECTED,
                       .max_outstanding = 16};
    const uint64_t seq[2] = {0x0102030405ull, 0xf0e0d0c0b0ull};
    struct scoreboard *sb = sb_create(&c);
    assert_non_null(sb);
    uint8_t buf[64];
    for (unsigned i = 0; i < 2; i++) {
        assert_true(seq[i] < SB_MAX_EXPECTED);
        sb_pkt_fill(&c.gen, seq[i], buf, 60);
        sb_check_frame(sb, buf, 60, crc32_fcs(buf, 60), 1000 * (i + 1));
    }
    struct sb_result r;
    sb_result(sb, &r);
    assert_int_equal(r.seen, 2);
    assert_int_equal(r.checked, 2);
    assert_int_equal(r.corrupted, 0);
    assert_int_equal(r.lost, seq[1] - 1);
    assert_int_equal(sb_mismatch_count(sb), 0);
    sb_destroy(sb);
}

/* ---- create --------------------------------------------------------------- */

static void test_scoreboard_create_rejects_bad_cfg(void **state)
{
    (void)state;
    struct sb_cfg ok = {.gen = {.seed = 1, .min_len = 60, .max_len = 60},
                        .expected = 10,
                        .max_outstanding = 1};
    struct scoreboard *sb = sb_create(&ok); /* boundary: ring of 1 */
    assert_non_null(sb);
    sb_destroy(sb);
    sb_destroy(NULL);
    assert_null(sb_create(NULL));

    struct sb_cfg c = ok;
    c.gen.min_len = SB_MIN_LEN - 1; /* runt */
    c.gen.max_len = SB_MIN_LEN - 1;
    assert_null(sb_create(&c));
    c = ok;
    c.gen.max_len = SB_MAX_LEN + 1;
    assert_null(sb_create(&c));
    c = ok;
    c.gen.min_len = 100; /* min > max */
    c.gen.max_len = 99;
    assert_null(sb_create(&c));
    c = ok;
    c.max_outstanding = 0;
    assert_null(sb_create(&c));
    c = ok;
    c.expected = SB_MAX_EXPECTED + 1;
    assert_null(sb_create(&c));
    c = ok;
    c.max_outstanding = (1u << 30) + 1;
    assert_null(sb_create(&c));
    c = ok;
    c.expected = 0; /* boundary: an empty run is valid; all-zero results */
    sb = sb_create(&c);
    assert_non_null(sb);
    sb_finish(sb);
    struct sb_result r;
    sb_result(sb, &r);
    assert_int_equal(r.lost + r.checked + r.seen, 0);
    sb_destroy(sb);
}

/* ---- wire checks ------------------------------------------------------------ */

static void test_scoreboard_clean_run(void **state)
{
    struct fx *f = *state;
    sb_note_published(f->sb, FX_EXPECTED, 0);
    for (uint64_t s = 0; s < FX_EXPECTED; s++)
        fx_send(f, s, 1000 * (s + 1));
    sb_finish(f->sb);
    struct sb_result r = fx_result(f);
    assert_int_equal(r.sent_expected, FX_EXPECTED);
    assert_int_equal(r.seen, FX_EXPECTED);
    assert_int_equal(r.checked, FX_EXPECTED);
    assert_int_equal(r.lost, 0);
    assert_int_equal(r.corrupted, 0);
    assert_int_equal(r.unpublished, 0);
    assert_int_equal(r.stamp_overrun, 0);
    assert_int_equal(r.frame_bytes, FX_EXPECTED * 64);
    assert_int_equal(sb_mismatch_count(f->sb), 0);
    assert_null(sb_mismatch(f->sb, 0));
}

static void test_scoreboard_variable_sizes_clean(void **state)
{
    (void)state;
    /* buffers from 60 to the largest, across chunk boundaries */
    struct sb_cfg c = {.gen = {.seed = 77, .min_len = SB_MIN_LEN, .max_len = SB_MAX_LEN},
                       .expected = 300,
                       .max_outstanding = 8};
    struct scoreboard *sb = sb_create(&c);
    assert_non_null(sb);
    static uint8_t buf[SB_MAX_LEN];
    uint64_t bytes = 0;
    for (uint64_t s = 0; s < c.expected; s++) {
        sb_note_published(sb, s + 1, 0);
        unsigned len = sb_pkt_len(&c.gen, s);
        bytes += len + 4;
        sb_pkt_fill(&c.gen, s, buf, len);
        sb_check_frame(sb, buf, len, ref_crc32(buf, len), 100);
    }
    sb_finish(sb);
    struct sb_result r;
    sb_result(sb, &r);
    assert_int_equal(r.checked, c.expected);
    assert_int_equal(r.corrupted, 0);
    assert_int_equal(r.frame_bytes, bytes);
    sb_destroy(sb);
}

static void test_scoreboard_lost_gap_and_tail(void **state)
{
    struct fx *f = *state;
    sb_note_published(f->sb, FX_EXPECTED, 0);
    for (uint64_t s = 0; s < 90; s++)
        if (s != 3 && s != 4 && s != 50)
            fx_send(f, s, 1000 * (s + 1));
    struct sb_result r = fx_result(f);
    assert_int_equal(r.lost, 3); /* gaps only, before finish */
    sb_finish(f->sb);
    sb_finish(f->sb); /* second call does nothing */
    r = fx_result(f);
    assert_int_equal(r.lost, 3 + 10); /* seqs 90..99 never seen */
    assert_int_equal(r.checked, 87);
    assert_int_equal(r.corrupted, 0);
}

/* A frame after the end (the device runs on while the harness reads its
 * registers) is not the run's: counted apart, neither checked nor
 * corrupted, and the rate and counts stay as they were at the end. */
static void test_scoreboard_frame_after_end_ignored(void **state)
{
    struct fx *f = *state;
    sb_note_published(f->sb, FX_EXPECTED, 0);
    for (uint64_t s = 0; s < 90; s++)
        fx_send(f, s, 1000 * (s + 1));
    sb_finish(f->sb);
    struct sb_result before = fx_result(f);
    fx_send(f, 90, 91000); /* seq 90 was counted lost at the end */
    fx_send(f, 95, 96000);
    struct sb_result r = fx_result(f);
    assert_int_equal(r.after_end, 2);
    assert_int_equal(r.corrupted, 0);
    assert_int_equal(r.checked, before.checked);
    assert_int_equal(r.lost, before.lost);
    assert_int_equal(r.seen, before.seen);
    assert_int_equal(r.wire_bytes, before.wire_bytes);
    assert_true(r.mpps == before.mpps);
}

/* Noted drops count by reason where the wire skips them, in a gap or at
 * the end; a noted packet that arrives is checked and its note forgotten;
 * notes outside the window are refused. */
static void test_scoreboard_dropped_by_reason(void **state)
{
    struct fx *f = *state;
    sb_note_published(f->sb, FX_EXPECTED, 0);
    assert_int_equal(sb_note_dropped(f->sb, 3, 1), 0);
    assert_int_equal(sb_note_dropped(f->sb, 5, 2), 0);   /* arrives after all */
    assert_int_equal(sb_note_dropped(f->sb, 6, SB_MAX_REASONS), -1);
    for (uint64_t s = 0; s < 10; s++)
        if (s != 3 && s != 4)
            fx_send(f, s, 1000 * (s + 1));
    assert_int_equal(sb_note_dropped(f->sb, 2, 1), -1);  /* already past */
    struct sb_result r = fx_result(f);
    assert_int_equal(r.dropped[1], 1);
    assert_int_equal(r.dropped[2], 0);
    assert_int_equal(r.lost, 1); /* seq 4: not noted */
    assert_int_equal(r.checked, 8);
    assert_int_equal(sb_note_dropped(f->sb, FX_EXPECTED, 3), -1); /* beyond the run */
    assert_int_equal(sb_note_dropped(f->sb, FX_EXPECTED - 1, 3), 0);
    assert_int_equal(sb_note_dropped(f->sb, 10, 0), 0);
    sb_finish(f->sb);
    r = fx_result(f);
    assert_int_equal(r.dropped[0], 1);
    assert_int_equal(r.dropped[3], 1);
    assert_int_equal(r.dropped_total, 3);
    assert_int_equal(r.lost, 1 + (FX_EXPECTED - 10) - 2);
    assert_int_equal(r.checked + r.lost + r.dropped_total, FX_EXPECTED);
}

/* Drop notes live in the window [next expected, + max_outstanding). */
static void test_scoreboard_drop_window(void **state)
{
    (void)state;
    struct sb_cfg c = {.gen = {.seed = 1, .min_len = SB_MIN_LEN, .max_len = SB_MIN_LEN},
                       .expected = 100,
                       .max_outstanding = 8};
    struct scoreboard *sb = sb_create(&c);
    assert_non_null(sb);
    assert_int_equal(sb_note_dropped(sb, 8, 0), -1);
    assert_int_equal(sb_note_dropped(sb, 7, 0), 0);
    assert_int_equal(sb_note_dropped(sb, 0, 0), 0);
    sb_finish(sb);
    struct sb_result r;
    sb_result(sb, &r);
    assert_int_equal(r.dropped[0], 2);
    assert_int_equal(r.lost, 98);
    sb_destroy(sb);
}

/* Corrupt one byte at `off` of packet seq and check it is reported there. */
static void corrupt_at(struct fx *f, uint64_t seq, unsigned off)
{
    unsigned len = sb_pkt_len(&f->cfg.gen, seq);
    sb_pkt_fill(&f->cfg.gen, seq, f->buf, len);
    uint32_t fcs = crc32_fcs(f->buf, len); /* FCS of the good frame */
    uint8_t want = f->buf[off];
    f->buf[off] ^= 0x40;
    size_t before = sb_mismatch_count(f->sb);
    sb_check_frame(f->sb, f->buf, len, fcs, 0);
    assert_int_equal(sb_mismatch_count(f->sb), before + 1);
    char expect[SB_MISMATCH_LEN];
    snprintf(expect, sizeof expect, "seq %llu: offset %u: byte 0x%02x, expected 0x%02x",
             (unsigned long long)seq, off, f->buf[off], want);
    assert_string_equal(sb_mismatch(f->sb, before), expect);
}

static void test_scoreboard_corrupt_byte_offsets(void **state)
{
    struct fx *f = *state;
    f->cfg.gen.min_len = f->cfg.gen.max_len = 600;
    sb_destroy(f->sb);
    f->sb = sb_create(&f->cfg);
    assert_non_null(f->sb);
    sb_note_published(f->sb, FX_EXPECTED, 0);
    corrupt_at(f, 0, 0);               /* boundary: first header byte */
    corrupt_at(f, 1, 13);              /* boundary: last ethertype byte */
    corrupt_at(f, 2, SB_HDR_LEN);      /* boundary: first payload byte */
    corrupt_at(f, 3, SB_HDR_LEN + 255); /* boundary: last byte of chunk 1 */
    corrupt_at(f, 4, SB_HDR_LEN + 256); /* boundary: first byte of chunk 2 */
    corrupt_at(f, 5, 599);             /* boundary: last byte */
    fx_send(f, 6, 0);
    struct sb_result r = fx_result(f);
    assert_int_equal(r.corrupted, 6);
    assert_int_equal(r.checked, 1);
    assert_int_equal(r.lost, 0);
    assert_int_equal(r.frame_bytes, 604);
}

static void test_scoreboard_bad_fcs_and_length(void **state)
{
    struct fx *f = *state;
    sb_note_published(f->sb, FX_EXPECTED, 0);
    sb_pkt_fill(&f->cfg.gen, 0, f->buf, 60);
    uint32_t fcs = crc32_fcs(f->buf, 60);
    sb_check_frame(f->sb, f->buf, 60, fcs ^ 1, 0); /* FCS off by one bit */
    char line[SB_MISMATCH_LEN];
    snprintf(line, sizeof line, "seq 0: offset 60: FCS 0x%08x, expected 0x%08x", fcs ^ 1, fcs);
    assert_string_equal(sb_mismatch(f->sb, 0), line);

    sb_pkt_fill(&f->cfg.gen, 1, f->buf, 61); /* one byte too long, prefix right */
    sb_check_frame(f->sb, f->buf, 61, crc32_fcs(f->buf, 61), 0);
    assert_string_equal(sb_mismatch(f->sb, 1), "seq 1: offset 60: length 61, expected 60");

    sb_pkt_fill(&f->cfg.gen, 2, f->buf, 59); /* one byte short, bad byte at 30 */
    f->buf[30] ^= 1;
    sb_check_frame(f->sb, f->buf, 59, crc32_fcs(f->buf, 59), 0);
    assert_string_equal(sb_mismatch(f->sb, 2), "seq 2: offset 30: length 59, expected 60");

    struct sb_result r = fx_result(f);
    assert_int_equal(r.corrupted, 3);
    assert_int_equal(r.checked, 0);
    assert_int_equal(r.lost, 0);
}

static void test_scoreboard_unexpected_frames(void **state)
{
    struct fx *f = *state;
    sb_note_published(f->sb, FX_EXPECTED, 0);
    fx_send(f, 0, 0);
    fx_send(f, 1, 0);
    fx_send(f, 1, 0);                 /* duplicate: below next */
    fx_send(f, 0, 0);                 /* reordered: below next */
    fx_send(f, FX_EXPECTED, 0);       /* boundary: seq == expected */
    fx_send(f, UINT64_MAX, 0);        /* far beyond the run */
    sb_pkt_fill(&f->cfg.gen, 2, f->buf, 60);
    sb_check_frame(f->sb, f->buf, SB_HDR_LEN - 1, 0, 0); /* boundary: too short for a seq */
    fx_send(f, 2, 0); /* next is still 2: no loss from the junk above */
    struct sb_result r = fx_result(f);
    assert_int_equal(r.seen, 8);
    assert_int_equal(r.checked, 3);
    assert_int_equal(r.corrupted, 5);
    assert_int_equal(r.lost, 0);
    assert_string_equal(sb_mismatch(f->sb, 0), "seq 1: offset 14: unexpected seq (next 2, run of 100)");
    assert_string_equal(sb_mismatch(f->sb, 4), "frame #6: offset 21: too short (21 B) to hold a seq");
}

static void test_scoreboard_mismatch_list_is_bounded(void **state)
{
    struct fx *f = *state;
    sb_note_published(f->sb, FX_EXPECTED, 0);
    for (uint64_t s = 0; s < SB_MAX_MISMATCH + 3; s++) {
        sb_pkt_fill(&f->cfg.gen, s, f->buf, 60);
        sb_check_frame(f->sb, f->buf, 60, 0, 0);
    }
    assert_int_equal(fx_result(f).corrupted, SB_MAX_MISMATCH + 3);
    assert_int_equal(sb_mismatch_count(f->sb), SB_MAX_MISMATCH);
    assert_non_null(sb_mismatch(f->sb, SB_MAX_MISMATCH - 1));
    assert_null(sb_mismatch(f->sb, SB_MAX_MISMATCH)); /* boundary: one past the end */
    /* the last kept line is the 8th bad frame, seq 7 */
    sb_pkt_fill(&f->cfg.gen, SB_MAX_MISMATCH - 1, f->buf, 60);
    char line[SB_MISMATCH_LEN];
    snprintf(line, sizeof line, "seq %u: offset 60: FCS 0x00000000, expected 0x%08x",
             SB_MAX_MISMATCH - 1, crc32_fcs(f->buf, 60));
    assert_string_equal(sb_mismatch(f->sb, SB_MAX_MISMATCH - 1), line);
}

/* ---- doorbell stamps and latency ------------------------------------------ */

static void test_scoreboard_unpublished_frame(void **state)
{
    struct fx *f = *state;
    sb_note_published(f->sb, 2, 1000);
    fx_send(f, 0, 5000);
    fx_send(f, 1, 6000);
    fx_send(f, 2, 7000); /* boundary: seq == published */
    sb_note_published(f->sb, 3, 8000); /* too late for seq 2 */
    struct sb_result r = fx_result(f);
    assert_int_equal(r.unpublished, 1);
    assert_int_equal(r.checked, 3); /* contents are still right */
    assert_int_equal(r.lat_samples, 2);
    assert_true(r.lat_max_ns == 5.0);
}

static void test_scoreboard_latency_percentiles_exact(void **state)
{
    struct fx *f = *state;
    /* packet s published at 0 and sent at s+1 ns + 500 ps: latencies
     * 1.5, 2.5, ..., 100.5 ns -> buckets 1..100 */
    sb_note_published(f->sb, FX_EXPECTED, 0);
    for (uint64_t s = 0; s < FX_EXPECTED; s++)
        fx_send(f, s, 1000 * (s + 1) + 500);
    struct sb_result r = fx_result(f);
    assert_int_equal(r.lat_samples, 100);
    assert_true(r.lat_p50_ns == 50.0); /* ceil(0.5 * 100) = 50th -> bucket 50 */
    assert_true(r.lat_p99_ns == 99.0); /* ceil(0.99 * 100) = 99th -> bucket 99 */
    assert_true(r.lat_max_ns == 100.5);
}

static void test_scoreboard_latency_small_counts(void **state)
{
    struct fx *f = *state;
    /* boundary: one sample is every percentile */
    sb_note_published(f->sb, 1, 0);
    fx_send(f, 0, 7999); /* 7.999 ns -> bucket 7 */
    struct sb_result r = fx_result(f);
    assert_true(r.lat_p50_ns == 7.0);
    assert_true(r.lat_p99_ns == 7.0);
    assert_true(r.lat_max_ns == 7.999);

    /* three samples 7, 20, 30 ns: p50 = 2nd (ceil 1.5), p99 = 3rd (ceil 2.97) */
    sb_note_published(f->sb, 3, 10000);
    fx_send(f, 1, 30000);
    fx_send(f, 2, 40000);
    r = fx_result(f);
    assert_true(r.lat_p50_ns == 20.0);
    assert_true(r.lat_p99_ns == 30.0);
    assert_true(r.lat_max_ns == 30.0);
}

/* The latency's split at each packet's descriptor fetch: queueing from
 * the doorbell to the fetch, service from the fetch to the wire; frames
 * whose fetch was never noted stay out of the split; a fetch beyond what
 * was published, or noted again, changes nothing. */
static void test_scoreboard_latency_split(void **state)
{
    struct fx *f = *state;
    const sim_ps_t ns = SIM_PS_PER_NS;

    sb_note_published(f->sb, 3, 100 * ns);
    sb_note_fetched_q(f->sb, 0, 2, 300 * ns);
    sb_note_fetched_q(f->sb, 0, 2, 900 * ns); /* again: the first stamp stays */
    sb_note_fetched_q(f->sb, 0, 1, 950 * ns); /* smaller: ignored */
    sb_note_fetched_q(f->sb, 5, 3, 950 * ns); /* no such queue: ignored */
    fx_send(f, 0, 1000 * ns);
    fx_send(f, 1, 1100 * ns);
    fx_send(f, 2, 1200 * ns); /* never fetched */
    struct sb_result r = fx_result(f);
    assert_int_equal(r.lat_samples, 3);
    assert_int_equal(r.lat_split_samples, 2);
    assert_true(r.lat_queue_p50_ns == 200.0 && r.lat_queue_p99_ns == 200.0);
    assert_true(r.lat_service_p50_ns == 700.0 && r.lat_service_p99_ns == 800.0);

    /* a fetch noted past the published count stamps only what was published */
    sb_note_fetched_q(f->sb, 0, 10, 1300 * ns);
    sb_note_published(f->sb, 5, 1400 * ns);
    sb_note_fetched_q(f->sb, 0, 5, 1500 * ns);
    fx_send(f, 3, 2000 * ns);
    fx_send(f, 4, 2000 * ns);
    r = fx_result(f);
    assert_int_equal(r.lat_split_samples, 4);
    assert_true(r.lat_queue_p99_ns == 200.0); /* 200, 200, 100, 100 */
    assert_true(r.lat_service_p99_ns == 800.0); /* 700, 800, 500, 500 */
}

static void test_scoreboard_latency_no_samples(void **state)
{
    struct fx *f = *state;
    /* boundary: nothing seen: no latency, no rate (NAN, not 0) */
    struct sb_result r = fx_result(f);
    assert_int_equal(r.lat_samples, 0);
    assert_true(isnan(r.lat_p50_ns) && isnan(r.lat_p99_ns) && isnan(r.lat_max_ns));
    assert_true(isnan(r.mpps) && isnan(r.gbps));

    /* frames seen, but none with a doorbell stamp: still no latency */
    fx_send(f, 0, 1000);
    fx_send(f, 1, 2000);
    r = fx_result(f);
    assert_int_equal(r.unpublished, 2);
    assert_int_equal(r.lat_samples, 0);
    assert_true(isnan(r.lat_p50_ns) && isnan(r.lat_p99_ns) && isnan(r.lat_max_ns));
    assert_true(r.mpps == 1000.0); /* two frames 1 ns apart are one interval */
}

/* The 1-packet run: checked, with a latency, but no rate. */
static void test_scoreboard_one_packet_run(void **state)
{
    (void)state;
    struct sb_cfg c = {.gen = {.seed = 5, .min_len = 60, .max_len = 60},
                       .expected = 1,
                       .max_outstanding = 1};
    struct scoreboard *sb = sb_create(&c);
    assert_non_null(sb);
    uint8_t buf[64];
    sb_note_published(sb, 1, 2000000);
    sb_pkt_fill(&c.gen, 0, buf, 60);
    sb_check_frame(sb, buf, 60, crc32_fcs(buf, 60), 3334000); /* 1334 ns later */
    sb_finish(sb);
    struct sb_result r;
    sb_result(sb, &r);
    assert_int_equal(r.seen, 1);
    assert_int_equal(r.checked, 1);
    assert_int_equal(r.lost, 0);
    assert_int_equal(r.frame_bytes, 64);
    assert_int_equal(r.wire_bytes, 64);
    assert_true(isnan(r.mpps) && isnan(r.gbps));
    assert_int_equal(r.lat_samples, 1);
    assert_true(r.lat_p50_ns == 1334.0 && r.lat_p99_ns == 1334.0 && r.lat_max_ns == 1334.0);
    sb_destroy(sb);
}

/* Latencies far beyond the old 100 us cap are exact too. */
static void test_scoreboard_latency_beyond_100us(void **state)
{
    struct fx *f = *state;
    sb_note_published(f->sb, FX_EXPECTED, 0);
    for (uint64_t s = 0; s < 98; s++)
        fx_send(f, s, 10000); /* 10 ns */
    fx_send(f, 98, 99999999);  /* boundary: 99999.999 ns */
    fx_send(f, 99, 250000000); /* 250 us */
    struct sb_result r = fx_result(f);
    assert_true(r.lat_p50_ns == 10.0);
    assert_true(r.lat_p99_ns == 99999.0); /* 99th sample */
    assert_true(r.lat_max_ns == 250000.0);

    /* 98 samples at 10 ns and 2 at 150 us: the 99th is 150 us, not a cap */
    struct sb_cfg c = f->cfg;
    struct scoreboard *sb = sb_create(&c);
    assert_non_null(sb);
    sb_note_published(sb, FX_EXPECTED, 0);
    for (uint64_t s = 0; s < FX_EXPECTED; s++) {
        sb_pkt_fill(&c.gen, s, f->buf, 60);
        sim_ps_t t = s < 98 ? 10000 : 150000000 + 99 * (s - 97);
        sb_check_frame(sb, f->buf, 60, crc32_fcs(f->buf, 60), t);
    }
    struct sb_result r2;
    sb_result(sb, &r2);
    assert_int_equal(r2.lat_unrecorded, 0);
    assert_true(r2.lat_p99_ns == 150000.0);
    assert_true(r2.lat_max_ns == 150000.198);
    sb_destroy(sb);
}

/* 50 us, 200 us and 2 ms: the percentiles are those samples, to the ns. */
static void test_scoreboard_latency_50us_200us_2ms(void **state)
{
    struct fx *f = *state;
    /* three samples: p50 = 2nd (ceil 1.5), p99 = 3rd (ceil 2.97) = max */
    sb_note_published(f->sb, 3, 0);
    fx_send(f, 0, 50000000);   /* 50 us */
    fx_send(f, 1, 200000000);  /* 200 us */
    fx_send(f, 2, 2000000000); /* 2 ms */
    struct sb_result r = fx_result(f);
    assert_int_equal(r.lat_samples, 3);
    assert_int_equal(r.lat_unrecorded, 0);
    assert_true(r.lat_p50_ns == 200000.0);
    assert_true(r.lat_p99_ns == 2000000.0);
    assert_true(r.lat_max_ns == 2000000.0);

    /* 100 samples: 50 at 50 us, 48 at 200 us + 1 ns, 2 at 2 ms + 0.5 ns:
     * p50 is the 50th (50 us), p99 the 99th (2 ms, rounded down to the ns),
     * max exact to the ps */
    struct sb_cfg c = f->cfg;
    struct scoreboard *sb = sb_create(&c);
    assert_non_null(sb);
    sb_note_published(sb, FX_EXPECTED, 1000000);
    for (uint64_t s = 0; s < FX_EXPECTED; s++) {
        sim_ps_t lat = s < 50 ? 50000000 : s < 98 ? 200001000 : 2000000500;
        sb_pkt_fill(&c.gen, s, f->buf, 60);
        sb_check_frame(sb, f->buf, 60, crc32_fcs(f->buf, 60), 1000000 + lat);
    }
    sb_result(sb, &r);
    assert_int_equal(r.lat_samples, 100);
    assert_true(r.lat_p50_ns == 50000.0);
    assert_true(r.lat_p99_ns == 2000000.0);
    assert_true(r.lat_max_ns == 2000000.5);
    sb_destroy(sb);

    /* the 98th and 99th samples in neighbouring 1 ns bins stay apart */
    sb = sb_create(&c);
    assert_non_null(sb);
    sb_note_published(sb, FX_EXPECTED, 0);
    for (uint64_t s = 0; s < FX_EXPECTED; s++) {
        sim_ps_t lat = s < 98 ? 1999999999 : 2000000000; /* 1999999.999 ns, 2 ms */
        sb_pkt_fill(&c.gen, s, f->buf, 60);
        sb_check_frame(sb, f->buf, 60, crc32_fcs(f->buf, 60), lat);
    }
    sb_result(sb, &r);
    assert_true(r.lat_p50_ns == 1999999.0);
    assert_true(r.lat_p99_ns == 2000000.0);
    sb_destroy(sb);
}

/* A latency of a whole second: the directory grows, percentiles stay exact. */
static void test_scoreboard_latency_one_second(void **state)
{
    struct fx *f = *state;
    sb_note_published(f->sb, 2, 0);
    fx_send(f, 0, 3000);                 /* 3 ns */
    fx_send(f, 1, 1000000000000ull + 7); /* 1 s */
    struct sb_result r = fx_result(f);
    assert_int_equal(r.lat_unrecorded, 0);
    assert_true(r.lat_p50_ns == 3.0);
    assert_true(r.lat_p99_ns == 1e9);
    assert_true(r.lat_max_ns == 1e9 + 0.007);

    /* boundary: SB_LAT_MAX_NS is not binned: the percentiles are unknown,
     * the count and the maximum are still right */
    sb_note_published(f->sb, 3, 0);
    fx_send(f, 2, SB_LAT_MAX_NS * 1000);
    r = fx_result(f);
    assert_int_equal(r.lat_samples, 3);
    assert_int_equal(r.lat_unrecorded, 1);
    assert_true(isnan(r.lat_p50_ns) && isnan(r.lat_p99_ns));
    assert_true(r.lat_max_ns == (double)SB_LAT_MAX_NS);
}

static void test_scoreboard_latency_batched_doorbells_ring_wrap(void **state)
{
    (void)state;
    /* ring of 5 -> 8 entries; doorbell every 4 packets; 40 packets wrap it
     * five times; each frame leaves 300 ns after its batch's doorbell plus
     * 10 ns per position in the batch */
    struct sb_cfg c = {.gen = {.seed = 3, .min_len = 60, .max_len = 60},
                       .expected = 40,
                       .max_outstanding = 5};
    struct scoreboard *sb = sb_create(&c);
    assert_non_null(sb);
    uint8_t buf[64];
    for (uint64_t b = 0; b < 10; b++) {
        sim_ps_t db = 1000000 * b;
        sb_note_published(sb, 4 * (b + 1), db);
        sb_note_published(sb, 4 * (b + 1), db + 999); /* repeat: no restamp */
        for (uint64_t i = 0; i < 4; i++) {
            uint64_t s = 4 * b + i;
            sb_pkt_fill(&c.gen, s, buf, 60);
            sb_check_frame(sb, buf, 60, crc32_fcs(buf, 60), db + 300000 + 10000 * i);
        }
    }
    struct sb_result r;
    sb_result(sb, &r);
    assert_int_equal(r.checked, 40);
    assert_int_equal(r.lat_samples, 40);
    assert_int_equal(r.stamp_overrun, 0);
    assert_true(r.lat_p50_ns == 310.0); /* 10 each of 300/310/320/330 */
    assert_true(r.lat_p99_ns == 330.0);
    assert_true(r.lat_max_ns == 330.0);
    sb_destroy(sb);
}

static void test_scoreboard_stamp_overrun(void **state)
{
    (void)state;
    /* ring of 4; publishing 10 ahead of the wire overwrites seqs 0..5 */
    struct sb_cfg c = {.gen = {.seed = 3, .min_len = 60, .max_len = 60},
                       .expected = 10,
                       .max_outstanding = 4};
    struct scoreboard *sb = sb_create(&c);
    assert_non_null(sb);
    uint8_t buf[64];
    sb_note_published(sb, 10, 1000);
    for (uint64_t s = 0; s < 10; s++) {
        sb_pkt_fill(&c.gen, s, buf, 60);
        sb_check_frame(sb, buf, 60, crc32_fcs(buf, 60), 3000);
    }
    struct sb_result r;
    sb_result(sb, &r);
    assert_int_equal(r.stamp_overrun, 6);
    assert_int_equal(r.lat_samples, 4);
    assert_int_equal(r.unpublished, 0);
    assert_int_equal(r.checked, 10);
    assert_true(r.lat_max_ns == 2.0);
    sb_destroy(sb);
}

/* ---- rate ----------------------------------------------------------------- */

/* n 64 B frames (60 B buffers) spaced `gap` ps after `t0`. */
static struct sb_result run_rate(uint64_t n, sim_ps_t t0, sim_ps_t gap, uint64_t warm,
                                 sim_ps_t warm_gap)
{
    struct sb_cfg c = {.gen = {.seed = 9, .min_len = 60, .max_len = 60},
                       .expected = n,
                       .max_outstanding = 16};
    struct scoreboard *sb = sb_create(&c);
    assert_non_null(sb);
    uint8_t buf[64];
    sim_ps_t t = t0;
    for (uint64_t s = 0; s < n; s++) {
        sb_note_published(sb, s + 1, t > 0 ? t - 1 : 0);
        sb_pkt_fill(&c.gen, s, buf, 60);
        sb_check_frame(sb, buf, 60, crc32_fcs(buf, 60), t);
        t += s < warm ? warm_gap : gap;
    }
    sb_finish(sb);
    struct sb_result r;
    sb_result(sb, &r);
    sb_destroy(sb);
    return r;
}

static void test_scoreboard_rate_10g_line_rate(void **state)
{
    (void)state;
    /* 64 B + 8 B preamble/SFD + 12 B IFG = 84 B = 672 bits = 67.2 ns at 10G */
    struct sb_result r = run_rate(100000, 5000000, 67200, 0, 0);
    assert_int_equal(r.checked, 100000);
    double pps = r.mpps * 1e6;
    assert_true(pps > 14880952.0 * 0.9999 && pps < 14880952.0 * 1.0001);
    assert_true(r.mpps > 14.88 * 0.9999 && r.mpps < 14.88 * 1.0001);
    /* frame data only: 512 bits per 67.2 ns */
    double want_gbps = 512.0 / 67.2;
    assert_true(r.gbps > want_gbps * 0.9999 && r.gbps < want_gbps * 1.0001);
}

static void test_scoreboard_rate_excludes_warmup(void **state)
{
    (void)state;
    /* n = 100: k0 = 10; the first 10 gaps are 1 us, then 67.2 ns exactly */
    struct sb_result r = run_rate(100, 0, 67200, 10, 1000000);
    assert_true(r.mpps == 89.0 * 1e6 / (89.0 * 67200.0));
    /* one more slow gap leaks into [k0, k1] and must show */
    struct sb_result r2 = run_rate(100, 0, 67200, 11, 1000000);
    assert_true(r2.mpps == 89.0 * 1e6 / (88.0 * 67200.0 + 1000000.0));
    assert_true(r2.gbps == 8.0 * 89.0 * 64.0 * 1e3 / (88.0 * 67200.0 + 1000000.0));
}

static void test_scoreboard_rate_small_counts(void **state)
{
    (void)state;
    /* boundary: n = 19 uses k0 = 0, so the slow first gap counts */
    struct sb_result r = run_rate(19, 0, 1000, 1, 10000);
    assert_true(r.mpps == 18.0 * 1e6 / (10000.0 + 17.0 * 1000.0));
    /* boundary: n = 20 uses k0 = 2 */
    r = run_rate(20, 0, 1000, 2, 10000);
    assert_true(r.mpps == 17.0 * 1e6 / (17.0 * 1000.0));
    /* boundary: n = 1 has no rate (NAN, not 0); n = 2 has one interval */
    r = run_rate(1, 0, 1000, 0, 0);
    assert_int_equal(r.checked, 1);
    assert_true(isnan(r.mpps) && isnan(r.gbps));
    r = run_rate(2, 0, 2000, 0, 0);
    assert_true(r.mpps == 500.0);
    assert_true(r.gbps == 8.0 * 64.0 / 2.0);
    /* all frames at one instant: no rate rather than a division by zero */
    r = run_rate(30, 7, 0, 0, 0);
    assert_true(isnan(r.mpps) && isnan(r.gbps));
}

static void test_scoreboard_rate_counts_unexpected_frames(void **state)
{
    (void)state;
    /* frames seen beyond the run still time the wire; n = 40: k0 = 4 */
    struct sb_cfg c = {.gen = {.seed = 9, .min_len = 100, .max_len = 100},
                       .expected = 20,
                       .max_outstanding = 64};
    struct scoreboard *sb = sb_create(&c);
    assert_non_null(sb);
    uint8_t buf[128];
    sb_note_published(sb, 20, 0);
    for (uint64_t s = 0; s < 40; s++) {
        sb_pkt_fill(&c.gen, s, buf, 100);
        sb_check_frame(sb, buf, 100, crc32_fcs(buf, 100), 1000 * s);
    }
    struct sb_result r;
    sb_result(sb, &r);
    assert_int_equal(r.seen, 40);
    assert_int_equal(r.checked, 20);
    assert_int_equal(r.corrupted, 20);
    assert_int_equal(r.frame_bytes, 20 * 104);
    assert_true(r.mpps == 35.0 * 1e6 / 35000.0);
    assert_true(r.gbps == 8.0 * 35.0 * 104.0 / 35.0);
    sb_destroy(sb);
}

/* ---- queues ----------------------------------------------------------------- */

/* Queue 0's packets are a one-queue run's (sb_pkt_fill's);
 * queue q's differ in offset 10 (the queue) and in the payload, and their
 * random lengths are their own; the same (seed, queue, seq) gives the
 * same bytes. */
static void test_scoreboard_queue_packets(void **state)
{
    struct sb_gen_cfg g0 = {.seed = 7, .min_len = 60, .max_len = 1514};
    uint8_t a[1514], b[1514], a0[1514];
    int len_differs = 0;

    (void)state;
    for (uint64_t seq = 0; seq < 64; seq++) {
        unsigned la = sb_pkt_len(&g0, seq), lb = sb_pkt_len_q(&g0, 5, seq);
        len_differs |= la != lb;
        assert_int_equal(sb_pkt_len_q(&g0, 0, seq), la);
        sb_pkt_fill(&g0, seq, a, la);
        sb_pkt_fill_q(&g0, 0, seq, a0, la);
        assert_memory_equal(a, a0, la);
        sb_pkt_fill_q(&g0, 5, seq, b, 60);
        assert_int_equal(a[SB_QUEUE_OFF], 0);
        assert_int_equal(b[SB_QUEUE_OFF], 5);
        assert_memory_equal(a + 14, b + 14, 8);                 /* the same seq */
        assert_memory_not_equal(a + SB_HDR_LEN, b + SB_HDR_LEN, 60 - SB_HDR_LEN);
    }
    assert_true(len_differs);
}

/* Three queues share 10 packets 4, 3, 3; frames interleave on the wire
 * as a scheduler would send them; each queue is checked in its own order. */
static void test_scoreboard_queues_interleaved(void **state)
{
    struct sb_cfg c = {.gen = {.seed = 3, .min_len = 60, .max_len = 60},
                       .expected = 10, .max_outstanding = 16, .queues = 3};
    struct scoreboard *sb = sb_create(&c);
    uint8_t buf[64];
    static const unsigned order[][2] = {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1},
                                        {0, 2}, {1, 2}, {2, 2}, {0, 3}};
    struct sb_result r;
    struct sb_queue_result qr;

    (void)state;
    assert_non_null(sb);
    assert_int_equal(sb_queue_expected(&c, 0), 4);
    assert_int_equal(sb_queue_expected(&c, 2), 3);
    for (unsigned q = 0; q < 3; q++)
        sb_note_published_q(sb, q, sb_queue_expected(&c, q), 0);
    for (unsigned i = 0; i < 10; i++) {
        sb_pkt_fill_q(&c.gen, order[i][0], order[i][1], buf, 60);
        sb_check_frame(sb, buf, 60, crc32_fcs(buf, 60), (sim_ps_t)(i + 1) * 1000);
    }
    sb_finish(sb);
    sb_result(sb, &r);
    assert_int_equal(r.checked, 10);
    assert_int_equal(r.lost + r.corrupted + r.unpublished, 0);
    assert_int_equal(r.lat_samples, 10);
    assert_int_equal(sb_queues(sb), 3);
    assert_int_equal(sb_queue_result(sb, 0, &qr), 0);
    assert_int_equal(qr.checked, 4);
    assert_int_equal(qr.wire_bytes, 4 * 64);
    /* The window opened with the 3rd frame (queue 2's first: every queue
     * has sent one) and closed at the 8th (queue 1's last, seq 2), which
     * is outside: frames 3..7 are queue 2, 0, 1, 2, 0. */
    assert_int_equal(qr.window_bytes, 2 * 64);
    assert_true(fabs(qr.gbps - 8.0 * 2 * 64 / 5.0) < 1e-9);
    assert_int_equal(sb_queue_result(sb, 1, &qr), 0);
    assert_int_equal(qr.window_bytes, 1 * 64);
    assert_int_equal(sb_queue_result(sb, 2, &qr), 0);
    assert_int_equal(qr.window_bytes, 2 * 64);
    assert_true(fabs(sb_window_ns(sb) - 5.0) < 1e-9); /* frame 3 at 3 ns, frame 8 at 8 ns */
    assert_int_equal(sb_queue_result(sb, 3, &qr), -1); /* boundary: past the last queue */
    sb_destroy(sb);
}

/* A frame out of order in one queue counts there only; a queue number
 * beyond the run's is checked as queue 0's and fails at offset 10. */
static void test_scoreboard_queues_order_per_queue(void **state)
{
    struct sb_cfg c = {.gen = {.seed = 3, .min_len = 60, .max_len = 60},
                       .expected = 8, .max_outstanding = 16, .queues = 2};
    struct scoreboard *sb = sb_create(&c);
    uint8_t buf[64];
    struct sb_queue_result q0, q1;

    (void)state;
    assert_non_null(sb);
    sb_pkt_fill_q(&c.gen, 1, 1, buf, 60); /* queue 1 skips its seq 0 */
    sb_check_frame(sb, buf, 60, crc32_fcs(buf, 60), 1000);
    sb_pkt_fill(&c.gen, 0, buf, 60);
    sb_check_frame(sb, buf, 60, crc32_fcs(buf, 60), 2000);
    buf[SB_QUEUE_OFF] = 9; /* no such queue */
    sb_check_frame(sb, buf, 60, crc32_fcs(buf, 60), 3000);
    sb_queue_result(sb, 0, &q0);
    sb_queue_result(sb, 1, &q1);
    assert_int_equal(q1.lost, 1);
    assert_int_equal(q1.checked, 1);
    assert_int_equal(q0.lost, 0);
    assert_int_equal(q0.checked, 1);
    assert_int_equal(q0.corrupted, 1);
    assert_non_null(strstr(sb_mismatch(sb, 0), "queue 0: seq 0: offset 14: unexpected seq"));
    sb_destroy(sb);
}

/* Drop notes are per queue: queue 2's seq 1 and queue 1's seq 2 are
 * dropped there (each queue's own window and sequence), not in queue 0,
 * and a queue beyond the run's is refused. */
static void test_scoreboard_queues_dropped(void **state)
{
    struct sb_cfg c = {.gen = {.seed = 3, .min_len = 60, .max_len = 60},
                       .expected = 9, .max_outstanding = 16, .queues = 3};
    struct scoreboard *sb = sb_create(&c);
    uint8_t buf[64];
    struct sb_queue_result qr[3];
    struct sb_result r;

    (void)state;
    assert_non_null(sb);
    for (unsigned q = 0; q < 3; q++)
        sb_note_published_q(sb, q, 3, 0);
    assert_int_equal(sb_note_dropped_q(sb, 2, 1, 4), 0);
    assert_int_equal(sb_note_dropped_q(sb, 1, 2, 5), 0);
    assert_int_equal(sb_note_dropped_q(sb, 3, 0, 4), -1); /* boundary: no queue 3 */
    assert_int_equal(sb_note_dropped_q(sb, 1, 3, 4), -1); /* beyond queue 1's 3 */
    for (unsigned q = 0; q < 3; q++)
        for (uint64_t seq = 0; seq < 3; seq++) {
            if ((q == 2 && seq == 1) || (q == 1 && seq == 2))
                continue;
            sb_pkt_fill_q(&c.gen, q, seq, buf, 60);
            sb_check_frame(sb, buf, 60, crc32_fcs(buf, 60), 1000 * (3 * q + seq + 1));
        }
    sb_finish(sb);
    sb_result(sb, &r);
    assert_int_equal(r.checked, 7);
    assert_int_equal(r.lost, 0);
    assert_int_equal(r.dropped[4], 1);
    assert_int_equal(r.dropped[5], 1);
    assert_int_equal(r.dropped_total, 2);
    for (unsigned q = 0; q < 3; q++)
        assert_int_equal(sb_queue_result(sb, q, &qr[q]), 0);
    assert_int_equal(qr[0].dropped, 0);
    assert_int_equal(qr[1].dropped, 1);
    assert_int_equal(qr[2].dropped, 1);
    assert_int_equal(qr[1].checked + qr[1].dropped, 3);
    assert_int_equal(qr[2].checked + qr[2].dropped, 3);
    sb_destroy(sb);
}

/* The class behind "totals checked on one queue only": every end-of-run
 * total sums every queue, and each queue's own figure counts its frames.
 * Three queues of three packets; one event on queue k only, for each k
 * (the first, a middle and the last queue) and each kind: its last packet
 * never sent (lost, found by sb_finish), a byte of one frame changed
 * (corrupted), its last frame on the wire before its doorbell
 * (unpublished).  The total is 1, queue k's figure is 1 and the others' 0,
 * and checked and wire bytes add up over the queues. */
enum { EV_LOST, EV_CORRUPT, EV_UNPUBLISHED, EV_KINDS };

static void queues_one_event(unsigned k, unsigned ev, struct sb_result *r,
                             struct sb_queue_result qr[3])
{
    struct sb_cfg c = {.gen = {.seed = 5, .min_len = 60, .max_len = 60},
                       .expected = 9, .max_outstanding = 16, .queues = 3};
    struct scoreboard *sb = sb_create(&c);
    uint8_t buf[64];

    assert_non_null(sb);
    for (unsigned q = 0; q < 3; q++)
        sb_note_published_q(sb, q, q == k && ev == EV_UNPUBLISHED ? 2 : 3, 0);
    for (uint64_t seq = 0; seq < 3; seq++)
        for (unsigned q = 0; q < 3; q++) {
            if (q == k && ev == EV_LOST && seq == 2)
                continue;
            sb_pkt_fill_q(&c.gen, q, seq, buf, 60);
            if (q == k && ev == EV_CORRUPT && seq == 1)
                buf[40] ^= 1;
            sb_check_frame(sb, buf, 60, crc32_fcs(buf, 60), 1000 * (3 * seq + q + 1));
        }
    sb_finish(sb);
    sb_result(sb, r);
    for (unsigned q = 0; q < 3; q++)
        assert_int_equal(sb_queue_result(sb, q, &qr[q]), 0);
    sb_destroy(sb);
}

static void test_scoreboard_queues_totals_every_queue(void **state)
{
    (void)state;
    for (unsigned k = 0; k < 3; k++) {
        for (unsigned ev = 0; ev < EV_KINDS; ev++) {
            struct sb_result r;
            struct sb_queue_result qr[3];
            uint64_t checked = 0, bytes = 0;

            queues_one_event(k, ev, &r, qr);
            for (unsigned q = 0; q < 3; q++) {
                checked += qr[q].checked;
                bytes += qr[q].wire_bytes;
                assert_int_equal(qr[q].lost, q == k && ev == EV_LOST);
                assert_int_equal(qr[q].corrupted, q == k && ev == EV_CORRUPT);
            }
            assert_int_equal(r.lost, ev == EV_LOST);
            assert_int_equal(r.corrupted, ev == EV_CORRUPT);
            assert_int_equal(r.unpublished, ev == EV_UNPUBLISHED);
            assert_int_equal(r.checked, 9 - (ev != EV_UNPUBLISHED));
            assert_int_equal(checked, r.checked);
            assert_int_equal(bytes, r.wire_bytes);
            assert_int_equal(r.frame_bytes, 64 * r.checked);
        }
    }
}

/* Final drops (a reset's) count at once when every packet before them is
 * settled, so the note window moves on: two rings' worth of drops with no
 * frame on the wire in between all fit a window of 8; lazy notes beyond
 * the window are refused. */
static void test_scoreboard_dropped_final(void **state)
{
    struct sb_cfg c = {.gen = {.seed = 5, .min_len = 60, .max_len = 60},
                       .expected = 40, .max_outstanding = 8, .queues = 2};
    struct scoreboard *sb = sb_create(&c);
    uint8_t buf[64];
    struct sb_queue_result qr;
    struct sb_result r;

    (void)state;
    assert_non_null(sb);
    sb_note_published_q(sb, 1, 20, 0);
    assert_int_equal(sb_note_dropped_q(sb, 1, 8, 1), -1); /* lazy: beyond the window */
    assert_int_equal(sb_note_dropped_q(sb, 1, 2, 2), 0);  /* an engine skip, noted early */
    sb_pkt_fill_q(&c.gen, 1, 0, buf, 60);
    sb_check_frame(sb, buf, 60, crc32_fcs(buf, 60), 1000);
    sb_pkt_fill_q(&c.gen, 1, 1, buf, 60);
    sb_check_frame(sb, buf, 60, crc32_fcs(buf, 60), 2000);
    for (uint64_t seq = 3; seq < 17; seq++) /* two resets: 3..9, then 10..16 */
        assert_int_equal(sb_note_dropped_final_q(sb, 1, seq, 3), 0);
    assert_int_equal(sb_queue_result(sb, 1, &qr), 0);
    assert_int_equal(qr.dropped, 15); /* counted already: seq 2 and 3..16 */
    assert_int_equal(sb_note_dropped_final_q(sb, 2, 0, 3), -1); /* no queue 2 */
    for (uint64_t seq = 17; seq < 20; seq++) {
        sb_pkt_fill_q(&c.gen, 1, seq, buf, 60);
        sb_check_frame(sb, buf, 60, crc32_fcs(buf, 60), 3000 + seq);
    }
    sb_finish(sb);
    sb_result(sb, &r);
    assert_int_equal(r.lost, 20); /* queue 0's, never sent */
    assert_int_equal(r.corrupted, 0);
    assert_int_equal(r.dropped[2], 1);
    assert_int_equal(r.dropped[3], 14);
    sb_queue_result(sb, 1, &qr);
    assert_int_equal(qr.checked + qr.dropped, 20);
    assert_int_equal(qr.lost, 0);
    sb_destroy(sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scoreboard_crc_known_answers),
        cmocka_unit_test(test_scoreboard_crc_matches_bitwise_reference),
        cmocka_unit_test(test_scoreboard_crc_update_chains),
        cmocka_unit_test(test_scoreboard_crc_fcs_residue),
        cmocka_unit_test(test_scoreboard_pkt_len_fixed),
        cmocka_unit_test(test_scoreboard_pkt_len_uniform_range),
        cmocka_unit_test(test_scoreboard_pkt_fill_layout),
        cmocka_unit_test(test_scoreboard_seq_all_eight_bytes),
        cmocka_unit_test(test_scoreboard_create_rejects_bad_cfg),
        cmocka_unit_test_setup_teardown(test_scoreboard_clean_run, fx_setup, fx_teardown),
        cmocka_unit_test(test_scoreboard_variable_sizes_clean),
        cmocka_unit_test_setup_teardown(test_scoreboard_lost_gap_and_tail, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_scoreboard_frame_after_end_ignored, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_scoreboard_dropped_by_reason, fx_setup, fx_teardown),
        cmocka_unit_test(test_scoreboard_drop_window),
        cmocka_unit_test(test_scoreboard_queues_dropped),
        cmocka_unit_test(test_scoreboard_queues_totals_every_queue),
        cmocka_unit_test(test_scoreboard_dropped_final),
        cmocka_unit_test_setup_teardown(test_scoreboard_corrupt_byte_offsets, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_scoreboard_bad_fcs_and_length, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_scoreboard_unexpected_frames, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_scoreboard_mismatch_list_is_bounded, fx_setup,
                                        fx_teardown),
        cmocka_unit_test_setup_teardown(test_scoreboard_unpublished_frame, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_scoreboard_latency_percentiles_exact, fx_setup,
                                        fx_teardown),
        cmocka_unit_test_setup_teardown(test_scoreboard_latency_small_counts, fx_setup,
                                        fx_teardown),
        cmocka_unit_test_setup_teardown(test_scoreboard_latency_no_samples, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_scoreboard_latency_split, fx_setup, fx_teardown),
        cmocka_unit_test(test_scoreboard_one_packet_run),
        cmocka_unit_test_setup_teardown(test_scoreboard_latency_beyond_100us, fx_setup,
                                        fx_teardown),
        cmocka_unit_test_setup_teardown(test_scoreboard_latency_50us_200us_2ms, fx_setup,
                                        fx_teardown),
        cmocka_unit_test_setup_teardown(test_scoreboard_latency_one_second, fx_setup,
                                        fx_teardown),
        cmocka_unit_test(test_scoreboard_latency_batched_doorbells_ring_wrap),
        cmocka_unit_test(test_scoreboard_stamp_overrun),
        cmocka_unit_test(test_scoreboard_rate_10g_line_rate),
        cmocka_unit_test(test_scoreboard_rate_excludes_warmup),
        cmocka_unit_test(test_scoreboard_rate_small_counts),
        cmocka_unit_test(test_scoreboard_rate_counts_unexpected_frames),
        cmocka_unit_test(test_scoreboard_queue_packets),
        cmocka_unit_test(test_scoreboard_queues_interleaved),
        cmocka_unit_test(test_scoreboard_queues_order_per_queue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
