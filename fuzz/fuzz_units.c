/*
 * libFuzzer target: the size and duration parsers of src/core/units.c.
 * Besides "no crash, no UB", it checks properties any input must keep:
 *   - a parse that succeeds starts with a digit and leaves *why alone;
 *   - case does not matter;
 *   - a plain decimal number is the same number as strtoull reads;
 *   - NUMBER "k" is 1024 x NUMBER, and NUMBER "s" is 1000 x NUMBER "ms",
 *     to the rounding (down) of each.
 * See docs/fuzzing.md.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "fuzz_units: property failed: %s (input '%s')\n", #c, s);              \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

typedef int (*parser)(const char *, uint64_t *, const char **);

static int plain_number(const char *s)
{
    int dot = 0;
    if (!isdigit((unsigned char)s[0]))
        return 0;
    for (const char *p = s; *p; p++) {
        if (*p == '.') {
            if (dot++ || !isdigit((unsigned char)p[1]))
                return 0;
        } else if (!isdigit((unsigned char)*p)) {
            return 0;
        }
    }
    return 1;
}

/* NUMBER+u1 against NUMBER+u2 where u1 = ratio x u2: floor(x*r*m) vs floor(x*m). */
static void scaled(const char *s, parser parse, const char *big, const char *small, uint64_t ratio)
{
    size_t n = strlen(s);
    char *a = malloc(n + 8), *b = malloc(n + 8);
    if (!a || !b)
        abort();
    snprintf(a, n + 8, "%s%s", s, big);
    snprintf(b, n + 8, "%s%s", s, small);
    uint64_t va, vb;
    const char *why;
    if (parse(a, &va, &why) == 0 && parse(b, &vb, &why) == 0) {
        /* vb = floor(x), va = floor(x * ratio): vb * ratio <= va < (vb + 1) * ratio */
        unsigned __int128 lo = (unsigned __int128)vb * ratio, hi = lo + ratio;
        CHECK(va >= lo && va < hi);
    }
    free(a);
    free(b);
}

static void one(const char *s, parser parse)
{
    uint64_t v = 12345;
    const char *why = "untouched";
    int rc = parse(s, &v, &why);
    CHECK(rc == 0 || rc == -1);
    if (rc == 0) {
        CHECK(isdigit((unsigned char)s[0]));
        CHECK(strcmp(why, "untouched") == 0);
    } else {
        CHECK(why != NULL && *why != '\0');
        CHECK(v == 12345);
    }

    size_t n = strlen(s);
    char *up = malloc(n + 1);
    if (!up)
        abort();
    for (size_t i = 0; i <= n; i++)
        up[i] = (char)toupper((unsigned char)s[i]);
    uint64_t vu;
    const char *whyu;
    int rcu = parse(up, &vu, &whyu);
    CHECK(rcu == rc);
    if (rc == 0)
        CHECK(vu == v);
    free(up);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0'; /* the parsers take C strings: an embedded NUL ends the input */

    one(s, pl_units_parse_size);
    one(s, pl_units_parse_time);
    /* NULL why is allowed */
    uint64_t v;
    pl_units_parse_size(s, &v, NULL);
    pl_units_parse_time(s, &v, NULL);

    if (plain_number(s)) {
        const char *why;
        if (!strchr(s, '.') && strlen(s) <= 19) {
            CHECK(pl_units_parse_size(s, &v, &why) == 0);
            CHECK(v == strtoull(s, NULL, 10));
        }
        scaled(s, pl_units_parse_size, "k", "", 1024);
        scaled(s, pl_units_parse_size, "g", "m", 1024);
        scaled(s, pl_units_parse_time, "s", "ms", 1000);
        scaled(s, pl_units_parse_time, "h", "m", 60);
    }
    free(s);
    return 0;
}
