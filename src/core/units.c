/*
 * Parsing of human-written sizes ("4k", "1.5g") into bytes and durations
 * ("500ms", "2m") into nanoseconds, in exact integer arithmetic: the number
 * is split into an integer part and a decimal fraction, then scaled.
 */
#include "units.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Fraction digits beyond this many are checked but do not count. */
#define FRAC_DIGITS_MAX 19

struct unit {
    const char *name;
    uint64_t mult;
};

static const struct unit size_units[] = {
    {"", 1},
    {"b", 1},
    {"k", 1ull << 10},
    {"kb", 1ull << 10},
    {"kib", 1ull << 10},
    {"m", 1ull << 20},
    {"mb", 1ull << 20},
    {"mib", 1ull << 20},
    {"g", 1ull << 30},
    {"gb", 1ull << 30},
    {"gib", 1ull << 30},
    {"t", 1ull << 40},
    {"tb", 1ull << 40},
    {"tib", 1ull << 40},
    {NULL, 0},
};

static const struct unit time_units[] = {
    {"", 1000000000ull},
    {"ns", 1ull},
    {"us", 1000ull},
    {"ms", 1000000ull},
    {"s", 1000000000ull},
    {"m", 60ull * 1000000000ull},
    {"h", 3600ull * 1000000000ull},
    {NULL, 0},
};

/* A number as written: integer part, and the fraction as frac / 10^frac_digits. */
struct number {
    uint64_t whole;
    uint64_t frac;
    unsigned frac_digits;
    int whole_overflow;
};

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/*
 * Read digits with an optional '.' and at least one digit after it. Returns
 * the position after the number, or NULL if s does not start with one.
 */
static const char *scan_number(const char *s, struct number *n)
{
    memset(n, 0, sizeof(*n));
    if (!is_digit(*s))
        return NULL;
    for (; is_digit(*s); s++) {
        unsigned d = (unsigned)(*s - '0');
        if (n->whole > (UINT64_MAX - d) / 10)
            n->whole_overflow = 1;
        else
            n->whole = n->whole * 10 + d;
    }
    if (*s != '.')
        return s;
    s++;
    if (!is_digit(*s))
        return NULL;
    for (; is_digit(*s); s++) {
        if (n->frac_digits < FRAC_DIGITS_MAX) {
            n->frac = n->frac * 10 + (uint64_t)(*s - '0');
            n->frac_digits++;
        }
    }
    return s;
}

static const char *unknown_unit(const char *u)
{
    static _Thread_local char buf[48];
    snprintf(buf, sizeof(buf), "unknown unit '%.24s'", u);
    return buf;
}

static int parse(const char *s, const struct unit *units, uint64_t *out, const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    if (!s || !*s) {
        *why = "empty";
        return -1;
    }
    if (*s == '-') {
        *why = "negative";
        return -1;
    }

    struct number n;
    const char *u = scan_number(s, &n);
    if (!u) {
        *why = "not a number";
        return -1;
    }

    const struct unit *unit = units;
    while (unit->name && strcasecmp(unit->name, u) != 0)
        unit++;
    if (!unit->name) {
        *why = unknown_unit(u);
        return -1;
    }

    unsigned __int128 v = (unsigned __int128)n.whole * unit->mult;
    if (n.frac_digits) {
        /* frac < 10^19 and mult < 2^42, so the product fits in 128 bits */
        unsigned __int128 pow10 = 1;
        for (unsigned i = 0; i < n.frac_digits; i++)
            pow10 *= 10;
        v += (unsigned __int128)n.frac * unit->mult / pow10;
    }
    if (n.whole_overflow || v > UINT64_MAX) {
        *why = "too large";
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

int pl_units_parse_size(const char *s, uint64_t *out, const char **why)
{
    return parse(s, size_units, out, why);
}

int pl_units_parse_time(const char *s, uint64_t *out, const char **why)
{
    return parse(s, time_units, out, why);
}
