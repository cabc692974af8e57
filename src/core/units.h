/*
 * Sizes and durations as people write them: "4k", "64m", "1g", "512", "1.5g",
 * "4KiB", "2s", "500ms". Binary multiples (k = 1024), as dd, fio and bonnie do.
 */
#ifndef PLATTER_CORE_UNITS_H
#define PLATTER_CORE_UNITS_H

#include <stdint.h>

/*
 * Parse a size: digits with an optional fraction, then an optional unit
 * (b, k/kb/kib, m/mb/mib, g/gb/gib, t/tb/tib; case-insensitive; no space).
 * Returns 0 and stores bytes (rounded down) in *out, or -1 with a static
 * reason ("empty", "not a number", "unknown unit 'x'", "too large",
 * "negative") in *why.
 * The number is plain decimal: a '.' needs digits on both sides ("1.", ".5"
 * are not numbers), no sign, no spaces, no exponent ("1e3" is an unknown
 * unit 'e3'). Fraction digits past the 19th are ignored. The "unknown unit"
 * text lives in a thread-local buffer valid until the next call on the thread.
 */
int pl_units_parse_size(const char *s, uint64_t *out, const char **why);

/*
 * Parse a duration: a number with optional unit ns, us, ms, s (default), m, h
 * (case-insensitive, so "M" is minutes too). Same number syntax and reasons
 * as for sizes. Returns 0 and stores nanoseconds (rounded down) in *out, or
 * -1 with *why set.
 */
int pl_units_parse_time(const char *s, uint64_t *out, const char **why);

/*
 * A count of ns (or bytes) from a double, clamped to [0, 2^62] (146 years of
 * ns): absurd rates, scales and deadlines must not cast out of range, and
 * 2^62 still leaves room to add two of them.
 */
#define PL_U64_CAP UINT64_C(4611686018427387904)
static inline uint64_t pl_u64_clamp(double x)
{
    if (!(x > 0))
        return 0;
    return x >= 4611686018427387904.0 ? PL_U64_CAP : (uint64_t)x;
}

#endif
