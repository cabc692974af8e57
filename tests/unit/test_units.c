/*
 * Unit tests of the size and duration parsers: accepted spellings with their
 * exact values (fractions rounded down, limits of 64 bits) and the reason
 * given for each kind of bad input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "units.h"

struct good {
    const char *in;
    uint64_t want;
};

struct bad {
    const char *in;
    const char *why;
};

#define KIB (UINT64_C(1) << 10)
#define MIB (UINT64_C(1) << 20)
#define GIB (UINT64_C(1) << 30)
#define TIB (UINT64_C(1) << 40)
#define SEC UINT64_C(1000000000)

typedef int (*parse_fn)(const char *, uint64_t *, const char **);

static void check_good(parse_fn parse, const struct good *g, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t out = 0xdeadbeef;
        const char *why = NULL;
        int rc = parse(g[i].in, &out, &why);
        if (rc != 0 || out != g[i].want)
            fail_msg("'%s': rc %d out %llu (%s), want %llu", g[i].in, rc, (unsigned long long)out,
                     why ? why : "-", (unsigned long long)g[i].want);
    }
}

static void check_bad(parse_fn parse, const struct bad *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t out = 0xdeadbeef;
        const char *why = NULL;
        int rc = parse(b[i].in, &out, &why);
        if (rc != -1)
            fail_msg("'%s' accepted as %llu", b[i].in ? b[i].in : "(null)",
                     (unsigned long long)out);
        assert_non_null(why);
        if (strcmp(why, b[i].why) != 0)
            fail_msg("'%s': reason '%s', want '%s'", b[i].in ? b[i].in : "(null)", why, b[i].why);
        /* output untouched on failure */
        assert_true(out == 0xdeadbeef);
    }
}

static void test_size_good(void **state)
{
    (void)state;
    static const struct good g[] = {
        {"0", 0},
        {"512", 512},
        {"007", 7},
        {"4k", 4 * KIB},
        {"4K", 4 * KIB},
        {"4kb", 4 * KIB},
        {"4kB", 4 * KIB},
        {"4KiB", 4 * KIB},
        {"4kib", 4 * KIB},
        {"64m", 64 * MIB},
        {"64MiB", 64 * MIB},
        {"1g", GIB},
        {"1GB", GIB},
        {"1.5g", 3 * GIB / 2},
        {"2t", 2 * TIB},
        {"2TiB", 2 * TIB},
        {"100b", 100},
        {"100B", 100},
        {"1.5", 1}, /* fractional bytes round down */
        {"0.5b", 0},
        {"0.001k", 1},                       /* 1.024 */
        {"0.0009k", 0},                      /* 0.9216 */
        {"0.1m", 104857},                    /* 104857.6 */
        {"1.0000000000000000000009k", 1024}, /* digits past the 19th ignored */
        {"0.99999999999999999999999999999999k", 1023},
        {"18446744073709551615", UINT64_MAX},
        {"18446744073709551615.9", UINT64_MAX},
        {"16777215.9999999999999t", UINT64_MAX},
        {"16777215t", 16777215 * TIB},
        {"16777215.999999t", UINT64_C(18446744073708452104)},
        {"17179869183.5g", UINT64_MAX - GIB / 2 + 1},
    };
    check_good(pl_units_parse_size, g, sizeof(g) / sizeof(g[0]));
}

static void test_size_bad(void **state)
{
    (void)state;
    static const struct bad b[] = {
        {NULL, "empty"},
        {"", "empty"},
        {"abc", "not a number"},
        {"k", "not a number"},
        {"+4", "not a number"},
        {" 4k", "not a number"},
        {"1.", "not a number"},
        {".5k", "not a number"},
        {"1.k", "not a number"},
        {"-1", "negative"},
        {"-4k", "negative"},
        {"4x", "unknown unit 'x'"},
        {"1e3", "unknown unit 'e3'"},
        {"4 k", "unknown unit ' k'"},
        {"4k ", "unknown unit 'k '"},
        {"4kk", "unknown unit 'kk'"},
        {"4ki", "unknown unit 'ki'"},
        {"4kibb", "unknown unit 'kibb'"},
        {"1p", "unknown unit 'p'"},
        {"2s", "unknown unit 's'"},
        {"1.2.3", "unknown unit '.3'"},
        {"18446744073709551616", "too large"},
        {"99999999999999999999999", "too large"},
        {"16777216t", "too large"},
        {"17179869184g", "too large"},
        {"16777216.0t", "too large"},
        {"18446744073709551615.5k", "too large"},
    };
    check_bad(pl_units_parse_size, b, sizeof(b) / sizeof(b[0]));
}

static void test_size_long_unit(void **state)
{
    (void)state;
    /* a long bogus unit is quoted, cut short, and does not overflow */
    const char *why = NULL;
    uint64_t out;
    static const char long_unit[] = "1xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
    assert_int_equal(pl_units_parse_size(long_unit, &out, &why), -1);
    assert_non_null(why);
    assert_true(strncmp(why, "unknown unit 'xxxx", 18) == 0);
    assert_true(strlen(why) < 48);

    /* why may be NULL */
    assert_int_equal(pl_units_parse_size("4x", &out, NULL), -1);
    assert_int_equal(pl_units_parse_size("4k", &out, NULL), 0);
    assert_true(out == 4096);
}

static void test_time_good(void **state)
{
    (void)state;
    static const struct good g[] = {
        {"0", 0},
        {"2s", 2 * SEC},
        {"2S", 2 * SEC},
        {"500ms", 500000000},
        {"500MS", 500000000},
        {"10us", 10000},
        {"5ns", 5},
        {"1.5", 3 * SEC / 2}, /* default unit: seconds */
        {"2", 2 * SEC},
        {"2m", 120 * SEC},
        {"1h", 3600 * SEC},
        {"1.5h", 5400 * SEC},
        {"0.25m", 15 * SEC},
        {"1.5ms", 1500000},
        {"2.5us", 2500},
        {"0.5ns", 0},
        {"1.000000001", SEC + 1},
        {"0.0000000019", 1}, /* 1.9 ns rounds down */
        {"5124095h", UINT64_C(5124095) * 3600 * SEC},
        {"18446744073.709551615", UINT64_MAX},
        {"18446744073709551615ns", UINT64_MAX},
    };
    check_good(pl_units_parse_time, g, sizeof(g) / sizeof(g[0]));
}

static void test_time_bad(void **state)
{
    (void)state;
    static const struct bad b[] = {
        {NULL, "empty"},
        {"", "empty"},
        {"abc", "not a number"},
        {"s", "not a number"},
        {"1.s", "not a number"},
        {"-1s", "negative"},
        {"2x", "unknown unit 'x'"},
        {"2sec", "unknown unit 'sec'"},
        {"2 s", "unknown unit ' s'"},
        {"1e3", "unknown unit 'e3'"},
        {"1d", "unknown unit 'd'"},
        {"4k", "unknown unit 'k'"},
        {"5124096h", "too large"},
        {"18446744073.709551616", "too large"},
        {"18446744074", "too large"},
        {"18446744073709551616ns", "too large"},
    };
    check_bad(pl_units_parse_time, b, sizeof(b) / sizeof(b[0]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_size_good),      cmocka_unit_test(test_size_bad),
        cmocka_unit_test(test_size_long_unit), cmocka_unit_test(test_time_good),
        cmocka_unit_test(test_time_bad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
