/*
 * Unit tests of verified blocks (verify.h): the checksums against published
 * vectors (crc32c of "123456789", RFC 1321's md5 and FIPS 180's sha256 ones),
 * split input summing as whole input, the header's layout, a filled block
 * checking good, and each kind of damage found and described: magic, kind,
 * length, offset, a changed data byte, a changed header field.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "verify.h"

static void tohex(char *out, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", p[i]);
}

static void sum_hex(enum pl_vfy_kind k, const char *a, const char *b, char *out)
{
    uint8_t sum[32];
    assert_int_equal(pl_vfy_sum(k, a, strlen(a), b, strlen(b), sum), 0);
    tohex(out, sum, pl_vfy_sum_len(k));
}

static void test_vectors(void **state)
{
    (void)state;
    char h[65];
    uint8_t sum[32];
    assert_int_equal(pl_vfy_sum(PL_VFY_CRC32C, "123456789", 9, "", 0, sum), 0);
    uint32_t crc =
        (uint32_t)sum[0] | (uint32_t)sum[1] << 8 | (uint32_t)sum[2] << 16 | (uint32_t)sum[3] << 24;
    assert_int_equal(crc, 0xE3069283u);
    sum_hex(PL_VFY_MD5, "", "", h);
    assert_string_equal(h, "d41d8cd98f00b204e9800998ecf8427e");
    sum_hex(PL_VFY_MD5, "abc", "", h);
    assert_string_equal(h, "900150983cd24fb0d6963f7d28e17f72");
    sum_hex(PL_VFY_MD5, "message digest", "", h);
    assert_string_equal(h, "f96b697d7cb7938d525a2f31aaf161d0");
    sum_hex(PL_VFY_SHA256, "abc", "", h);
    assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    sum_hex(PL_VFY_SHA256, "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "", h);
    assert_string_equal(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* two pieces sum as one */
    char whole[65];
    for (int k = PL_VFY_CRC32C; k <= PL_VFY_SHA256; k++) {
        sum_hex((enum pl_vfy_kind)k, "1234", "56789", h);
        sum_hex((enum pl_vfy_kind)k, "", "123456789", whole);
        assert_string_equal(h, whole);
    }
    assert_int_equal(pl_vfy_sum(PL_VFY_NONE, "a", 1, "", 0, sum), -1);
}

static void test_names(void **state)
{
    (void)state;
    assert_int_equal(pl_vfy_kind_of("crc32c"), PL_VFY_CRC32C);
    assert_int_equal(pl_vfy_kind_of("md5"), PL_VFY_MD5);
    assert_int_equal(pl_vfy_kind_of("sha256"), PL_VFY_SHA256);
    assert_int_equal(pl_vfy_kind_of("crc32"), PL_VFY_NONE);
    assert_int_equal(pl_vfy_kind_of(NULL), PL_VFY_NONE);
    assert_string_equal(pl_vfy_name(PL_VFY_MD5), "md5");
    assert_int_equal(pl_vfy_sum_len(PL_VFY_CRC32C), 4);
    assert_int_equal(pl_vfy_sum_len(PL_VFY_MD5), 16);
    assert_int_equal(pl_vfy_sum_len(PL_VFY_SHA256), 32);
}

#define BLK 4096

static void test_header_layout(void **state)
{
    (void)state;
    static uint8_t b[BLK];
    assert_int_equal(pl_vfy_fill(PL_VFY_MD5, b, BLK, 0x123456789aull, 77), 0);
    assert_memory_equal(b, "PLVB", 4);
    assert_int_equal(b[4], PL_VFY_MD5);
    assert_int_equal(b[8] | b[9] << 8 | b[10] << 16 | b[11] << 24, BLK);
    uint64_t off = 0, seed = 0;
    for (int i = 7; i >= 0; i--) {
        off = off << 8 | b[16 + i];
        seed = seed << 8 | b[24 + i];
    }
    assert_true(off == 0x123456789aull);
    assert_true(seed == 77);
    /* the checksum: of bytes 0..31 and 64..end */
    uint8_t sum[32];
    assert_int_equal(pl_vfy_sum(PL_VFY_MD5, b, 32, b + PL_VFY_HDR, BLK - PL_VFY_HDR, sum), 0);
    assert_memory_equal(b + 32, sum, 16);
    for (int i = 48; i < PL_VFY_HDR; i++)
        assert_int_equal(b[i], 0);
    /* the data: from the seed, so two seeds differ and one repeats */
    static uint8_t c[BLK], d[BLK];
    pl_vfy_fill(PL_VFY_MD5, c, BLK, 0x123456789aull, 78);
    pl_vfy_fill(PL_VFY_MD5, d, BLK, 0x123456789aull, 77);
    assert_memory_not_equal(b + PL_VFY_HDR, c + PL_VFY_HDR, BLK - PL_VFY_HDR);
    assert_memory_equal(b, d, BLK);
    /* too short for a header */
    assert_int_equal(pl_vfy_fill(PL_VFY_MD5, c, PL_VFY_HDR - 1, 0, 1), -1);
    assert_int_equal(pl_vfy_fill(PL_VFY_MD5, c, PL_VFY_HDR, 0, 1), 0);
}

static void test_check(void **state)
{
    (void)state;
    static uint8_t b[4 * BLK], keep[4 * BLK];
    struct pl_vfy_fail f;
    for (int k = PL_VFY_CRC32C; k <= PL_VFY_SHA256; k++) {
        for (int i = 0; i < 4; i++)
            pl_vfy_fill((enum pl_vfy_kind)k, b + i * BLK, BLK, 8 * BLK + i * BLK, (uint64_t)i);
        memcpy(keep, b, sizeof b);
        assert_int_equal(pl_vfy_check((enum pl_vfy_kind)k, b, sizeof b, 8 * BLK, &f), 0);
        assert_int_equal(pl_vfy_check((enum pl_vfy_kind)k, b + BLK, BLK, 9 * BLK, &f), 0);

        b[2 * BLK + 500] ^= 1; /* data of the third block */
        assert_int_equal(pl_vfy_check((enum pl_vfy_kind)k, b, sizeof b, 8 * BLK, &f), -1);
        assert_true(f.off == 10 * BLK);
        assert_string_equal(f.what, pl_vfy_name((enum pl_vfy_kind)k));
        assert_string_not_equal(f.expected, f.got);
        assert_int_equal(strlen(f.got), k == PL_VFY_CRC32C ? 10 : 2 * pl_vfy_sum_len(k));
        memcpy(b, keep, sizeof b);

        b[BLK + 24] ^= 0x80; /* the seed field: covered by the checksum too */
        assert_int_equal(pl_vfy_check((enum pl_vfy_kind)k, b, sizeof b, 8 * BLK, &f), -1);
        assert_true(f.off == 9 * BLK);
        assert_string_equal(f.what, pl_vfy_name((enum pl_vfy_kind)k));
        memcpy(b, keep, sizeof b);
    }
    /* read at the wrong place: the offset check */
    assert_int_equal(pl_vfy_check(PL_VFY_SHA256, b, BLK, 0, &f), -1);
    assert_string_equal(f.what, "offset");
    assert_string_equal(f.expected, "0");
    assert_string_equal(f.got, "32768");
    /* checked as another kind */
    assert_int_equal(pl_vfy_check(PL_VFY_MD5, b, BLK, 8 * BLK, &f), -1);
    assert_string_equal(f.what, "kind");
    assert_string_equal(f.expected, "md5");
    assert_string_equal(f.got, "sha256");
    /* a read shorter than the block */
    assert_int_equal(pl_vfy_check(PL_VFY_SHA256, b, BLK / 2, 8 * BLK, &f), -1);
    assert_string_equal(f.what, "length");
    assert_string_equal(f.got, "4096");
    /* zeros where a block should be */
    memset(b + BLK, 0, BLK);
    assert_int_equal(pl_vfy_check(PL_VFY_SHA256, b, 2 * BLK, 8 * BLK, &f), -1);
    assert_string_equal(f.what, "magic");
    assert_true(f.off == 9 * BLK);
    assert_string_equal(f.expected, "0x42564c50");
    assert_string_equal(f.got, "0x00000000");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_header_layout),
        cmocka_unit_test(test_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
