/*
 * Unit tests of pl_sha256: the FIPS 180-4 examples (empty, "abc", the two
 * multi-block messages, a million 'a'), and every length around the padding's
 * block boundaries (55/56, 63/64/65, 119/120, 127/128), against digests that
 * Python's hashlib gave for the same bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sha256.h"

static void check(const void *data, size_t len, const char *want)
{
    uint8_t md[PL_SHA256_LEN];
    char hex[2 * PL_SHA256_LEN + 1];
    pl_sha256(data, len, md);
    for (int i = 0; i < PL_SHA256_LEN; i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
    if (strcmp(hex, want) != 0)
        fail_msg("sha256 of %zu bytes: %s, want %s", len, hex, want);
}

static void test_fips_examples(void **state)
{
    (void)state;
    check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    check(m448, strlen(m448), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    const char *m896 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                       "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    check(m896, strlen(m896), "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
    char *a = malloc(1000000);
    assert_non_null(a);
    memset(a, 'a', 1000000);
    check(a, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(a);
}

static void test_block_boundaries(void **state)
{
    (void)state;
    static const struct {
        size_t len;
        const char *want;
    } cases[] = {
        {55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b"},
        {56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27"},
        {63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055"},
        {64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241"},
        {65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e"},
        {119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e"},
        {120, "7836b787757e95e58b3ca5aec90b1b004e8deba1e50e9675af9cabf1a13a04b5"},
        {127, "a8d23e75d936f303d248888d9b165ee543f4cbafcad3c9dd2a79bd84faa11d07"},
        {128, "d2742f1f4ac6bb7ca2b239ee18402ba8b3f9f8e652d2a72973c2b9ba11c08cf6"},
    };
    uint8_t buf[128];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i * 7 + 3);  /* the bytes the expected digests were made of */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check(buf, cases[i].len, cases[i].want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fips_examples),
        cmocka_unit_test(test_block_boundaries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
