/*
 * xoshiro256** with its state filled from splitmix64, plus unbiased bounded
 * integers (Lemire's multiply-and-reject), doubles in [0, 1) and aligned
 * offsets inside a range.
 */
#include "rng.h"
#include "hot.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void pl_rng_seed(struct pl_rng *r, uint64_t seed)
{
    /* four consecutive splitmix64 outputs are distinct, so never all zero */
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

PL_HOT uint64_t pl_rng_next(struct pl_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

PL_HOT uint64_t pl_rng_below(struct pl_rng *r, uint64_t n)
{
    if (n == 0)
        return 0;

    /*
     * The high word of x * n is uniform in [0, n) except that some values get
     * one extra preimage; those show up as a low word below 2^64 mod n, so
     * redrawing them removes the bias. The mod is only paid when needed.
     */
    unsigned __int128 m = (unsigned __int128)pl_rng_next(r) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        uint64_t cut = (0 - n) % n;
        while (low < cut) {
            m = (unsigned __int128)pl_rng_next(r) * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

double pl_rng_double(struct pl_rng *r)
{
    return (double)(pl_rng_next(r) >> 11) * 0x1.0p-53;
}

PL_HOT int pl_rng_range(struct pl_rng *r, uint64_t lo, uint64_t hi, uint64_t align, uint64_t *out)
{
    if (align == 0)
        align = 1;
    if (lo > hi)
        return -1;

    /*
     * Work in multiples of align (quotients) so nothing overflows: the
     * candidates are first*align .. last*align.
     */
    uint64_t first, last;
    if ((align & (align - 1)) == 0) { /* a power of two: shifts, not divisions */
        int s = __builtin_ctzll(align);
        first = (lo >> s) + ((lo & (align - 1)) != 0);
        last = hi >> s;
    } else {
        first = lo / align + (lo % align != 0);
        last = hi / align;
    }
    if (first > last)
        return -1;

    uint64_t span = last - first;
    uint64_t pick = span == UINT64_MAX ? pl_rng_next(r) : pl_rng_below(r, span + 1);
    *out = (first + pick) * align;
    return 0;
}

struct pl_rng pl_rng_process;
uint64_t pl_rng_process_seed = 1;

void pl_rng_process_reseed(uint64_t seed)
{
    pl_rng_process_seed = seed;
    pl_rng_seed(&pl_rng_process, seed);
}
