/*
 * Access patterns: the offset of each next I/O inside [lo, hi). Stepping
 * patterns are integer arithmetic; zipf uses Gray et al.'s closed-form
 * sampler with a bijective scatter of ranks, normal uses Box-Muller.
 */
#include "pattern.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include "hot.h"

/*
 * zeta(n, theta) is summed term by term up to this many terms; past it the
 * rest is the Euler-Maclaurin tail, exact to rounding at this size, so that
 * init stays a few milliseconds even for 2^40 blocks.
 */
#define ZETA_EXACT_TERMS (UINT64_C(1) << 16)

/* normal: draws outside the range before falling back to a uniform pick */
#define NORMAL_MAX_TRIES 1000

/* theta this close to 1 uses the logarithmic (theta == 1) forms */
#define THETA_ONE_EPS 1e-9

static const char *const names[] = {
    [PL_PAT_SEQ] = "seq",       [PL_PAT_REVERSE] = "reverse", [PL_PAT_RANDOM] = "random",
    [PL_PAT_REREAD] = "reread", [PL_PAT_STRIDE] = "stride",   [PL_PAT_ZIPF] = "zipf",
    [PL_PAT_NORMAL] = "normal", [PL_PAT_LIST] = "list",       [PL_PAT_SHUFFLE] = "shuffle",
    [PL_PAT_PARETO] = "pareto", [PL_PAT_ZONED] = "zoned",     [PL_PAT_ZONED_ABS] = "zoned_abs",
};

/* fio's hash.h: GOLDEN_RATIO_64, the multiplier of __hash_u64 */
#define FIO_GOLDEN_64 UINT64_C(0x61C8864680B583EB)

#define NKINDS (sizeof(names) / sizeof(names[0]))

int pl_pattern_kind_of(const char *name)
{
    if (name == NULL)
        return -1;
    for (size_t i = 0; i < NKINDS; i++)
        if (strcmp(name, names[i]) == 0)
            return (int)i;
    return -1;
}

const char *pl_pattern_name(enum pl_pattern_kind k)
{
    if ((unsigned)k >= NKINDS)
        return "unknown";
    return names[k];
}

static int theta_is_one(double theta)
{
    return fabs(theta - 1.0) < THETA_ONE_EPS;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b != 0) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* (a * b + c) mod n without overflow; n > 0 */
static uint64_t mul_add_mod(uint64_t a, uint64_t b, uint64_t c, uint64_t n)
{
    return (uint64_t)(((unsigned __int128)a * b + c) % n);
}

/*
 * sum_{i=a}^{b} i^-theta for large a by Euler-Maclaurin: the integral, half
 * the end terms, and the first two derivative corrections (B2 and B4). With
 * a around a million the next term is below 1e-30.
 */
static double zeta_tail(uint64_t a, uint64_t b, double theta)
{
    double fa = (double)a, fb = (double)b;
    double integral;

    if (theta_is_one(theta)) {
        integral = log(fb / fa);
    } else {
        /* a^(1-t) * (e^((1-t) ln(b/a)) - 1) / (1-t), without cancellation */
        double e = 1.0 - theta;
        integral = pow(fa, e) * expm1(e * log(fb / fa)) / e;
    }

    double ends = 0.5 * (pow(fa, -theta) + pow(fb, -theta));
    /* f'(x) = -theta x^(-theta-1); f'''(x) = -theta(theta+1)(theta+2) x^(-theta-3) */
    double d1 = -theta * (pow(fb, -theta - 1.0) - pow(fa, -theta - 1.0));
    double d3 =
        -theta * (theta + 1.0) * (theta + 2.0) * (pow(fb, -theta - 3.0) - pow(fa, -theta - 3.0));
    return integral + ends + d1 / 12.0 - d3 / 720.0;
}

/* zeta(n, theta) = sum_{i=1}^{n} i^-theta */
static double zeta(uint64_t n, double theta)
{
    uint64_t head = n < ZETA_EXACT_TERMS ? n : ZETA_EXACT_TERMS;
    double sum = 0.0;

    /* smallest terms first, so they are not lost against the large ones */
    for (uint64_t i = head; i >= 1; i--)
        sum += pow((double)i, -theta);
    if (n > head)
        sum += zeta_tail(head + 1, n, theta);
    return sum;
}

uint64_t pl_pattern_fio_scatter(uint64_t rank, uint64_t off, uint64_t n)
{
    return (rank * FIO_GOLDEN_64 + off) % n;
}

/*
 * The offset that places rank 0: fio's rand_off (a 32-bit draw, or nblocks * center)
 * for scatter fio and none; with a center, the spread's additive term as well.
 */
static int fail(const char **why, const char *reason);

static void scatter_prepare(struct pl_pattern *p)
{
    uint64_t n = p->nblocks;
    if (p->s.has_center) {
        uint64_t c = (uint64_t)((double)n * p->s.center);
        p->fio_off = c;
        p->zipf_add = c % n;
    } else {
        p->fio_off = pl_rng_next(&p->rng) & UINT64_C(0xffffffff);
    }
}

/* A rank of zipf or pareto on its block. */
PL_HOT static uint64_t scatter(const struct pl_pattern *p, uint64_t r)
{
    uint64_t n = p->nblocks;
    switch (p->s.scatter) {
    case PL_SCATTER_FIO: return pl_pattern_fio_scatter(r, p->fio_off, n);
    case PL_SCATTER_NONE: return (uint64_t)(((unsigned __int128)r + p->fio_off) % n);
    case PL_SCATTER_SPREAD: break;
    }
    return mul_add_mod(r, p->zipf_mult, p->zipf_add, n);
}

static void pareto_prepare(struct pl_pattern *p)
{
    /* the spread's multiplier, as for zipf */
    uint64_t n = p->nblocks;
    uint64_t m = (uint64_t)(((unsigned __int128)n * UINT64_C(0x9e3779b97f4a7c15)) >> 64);
    if (m == 0)
        m = 1;
    while (gcd64(m, n) != 1)
        m = m + 1 < n ? m + 1 : 1;
    p->zipf_mult = m;
    p->zipf_add = pl_rng_below(&p->rng, n);
    p->pareto_pow = log(p->s.pareto_h) / log(1.0 - p->s.pareto_h);
    scatter_prepare(p);
}

/* fio's pareto_next before the scatter: (n - 1) * u^pow, truncated */
PL_HOT static uint64_t pareto_rank(struct pl_pattern *p)
{
    double u = pl_rng_double(&p->rng);
    double x = (double)(p->nblocks - 1) * pow(u, p->pareto_pow);
    uint64_t r = x >= 0 ? (uint64_t)x : 0;
    return r < p->nblocks ? r : p->nblocks - 1;
}

/* zoned, zoned_abs: each access slot's first block and number of blocks */
static int zones_prepare(struct pl_pattern *p, const char **why)
{
    const struct pl_pattern_spec *s = &p->s;
    uint64_t lastb = p->nblocks;
    unsigned slot = 0;
    uint64_t size_prev = 0;
    if (s->zones == NULL || s->nzones == 0)
        return fail(why, "zoned needs zones");
    for (size_t i = 0; i < s->nzones; i++) {
        const struct pl_zone *z = &s->zones[i];
        if (z->access > PL_ZONE_SLOTS - slot)
            return fail(why, "zone access percentages add up to more than 100");
        uint64_t start, count;
        if (s->kind == PL_PAT_ZONED) {
            if (z->size > 100 - size_prev)
                return fail(why, "zone size percentages add up to more than 100");
            start = (uint64_t)(((unsigned __int128)size_prev * lastb) / 100);
            count = (uint64_t)(((unsigned __int128)lastb * z->size) / 100);
        } else {
            if (z->size > UINT64_MAX - size_prev)
                return fail(why, "zone sizes overflow");
            start = size_prev / s->align;
            uint64_t end = (size_prev + z->size) / s->align;
            if (end > lastb)
                return fail(why, "zoned_abs sizes exceed the range");
            count = end - start;
        }
        for (unsigned k = 0; k < z->access; k++, slot++) {
            p->zone_start[slot] = start;
            p->zone_blocks[slot] = count;
        }
        size_prev += z->size;
    }
    if (slot != PL_ZONE_SLOTS)
        return fail(why, "zone access percentages must add up to 100");
    return 0;
}

/* fio's zoned pick: a slot, then a uniform block of its zone (its first if it has none) */
PL_HOT static uint64_t zoned_block(struct pl_pattern *p)
{
    unsigned v = (unsigned)pl_rng_below(&p->rng, PL_ZONE_SLOTS);
    uint64_t n = p->zone_blocks[v];
    return p->zone_start[v] + (n > 1 ? pl_rng_below(&p->rng, n) : 0);
}

static void zipf_prepare(struct pl_pattern *p)
{
    uint64_t n = p->nblocks;
    double theta = p->s.theta;

    p->zeta_n = zeta(n, theta);
    p->zeta_2 = 1.0 + pow(0.5, theta);
    p->alpha = 0.0;
    p->eta = 0.0;
    if (n > 2) {
        /*
         * Past rank 2 the sampler inverts the continuous law x^-theta on
         * [2, n], scaled to the mass the first two ranks leave over.
         */
        double rest = 1.0 - p->zeta_2 / p->zeta_n;
        if (theta_is_one(theta)) {
            p->alpha = log(2.0 / (double)n);
            p->eta = 1.0 / rest;
        } else {
            p->alpha = 1.0 / (1.0 - theta);
            p->eta = (1.0 - pow(2.0 / (double)n, 1.0 - theta)) / rest;
        }
    }

    /*
     * Multiplier near n / golden ratio, moved up to the next value coprime
     * with n: consecutive ranks land far apart and every block is reachable.
     */
    uint64_t m = (uint64_t)(((unsigned __int128)n * UINT64_C(0x9e3779b97f4a7c15)) >> 64);
    if (m == 0)
        m = 1;
    while (gcd64(m, n) != 1)
        m = m + 1 < n ? m + 1 : 1;
    p->zipf_mult = m;
    p->zipf_add = pl_rng_below(&p->rng, n);
    scatter_prepare(p);
}

/* Zipf rank in [0, nblocks): 0 is the most likely. */
PL_HOT static uint64_t zipf_rank(struct pl_pattern *p)
{
    uint64_t n = p->nblocks;
    double u = pl_rng_double(&p->rng);
    double uz = u * p->zeta_n;

    if (uz < 1.0)
        return 0;
    if (uz < p->zeta_2 || n <= 2)
        return n > 1 ? 1 : 0;

    double x;
    if (theta_is_one(p->s.theta))
        x = (double)n * exp(p->alpha * (1.0 - u) * p->eta);
    else
        x = (double)n * pow(1.0 - p->eta * (1.0 - u), p->alpha);

    /* rounding can put x just outside [2, n) */
    if (!(x >= 2.0))
        return 2;
    if (x >= (double)n)
        return n - 1;
    uint64_t r = (uint64_t)x;
    return r < n ? r : n - 1;
}

/* Offset relative to lo of a normal draw: a multiple of align in [0, width]. */
PL_HOT static uint64_t normal_rel(struct pl_pattern *p, uint64_t width)
{
    uint64_t align = p->s.align;
    double centre = (double)width / 2.0;
    double sd = p->s.sigma * (double)(p->s.hi - p->s.lo);
    uint64_t x;

    for (int tries = 0; tries < NORMAL_MAX_TRIES; tries++) {
        /* Box-Muller: u1 in (0, 1] keeps the log finite */
        double u1 = 1.0 - pl_rng_double(&p->rng);
        double u2 = pl_rng_double(&p->rng);
        double z = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
        double rel = centre + sd * z;

        if (!(rel >= 0.0 && rel <= (double)width))
            continue;
        x = (uint64_t)rel;
        if (x > width)
            x = width;
        return x - x % align;
    }
    /*
     * Only when almost nothing of the bell lies in the range (tiny window,
     * huge sigma): take a uniform aligned start rather than spin.
     */
    pl_rng_range(&p->rng, 0, width, align, &x);
    return x;
}

/* shuffle: new keys for a pass (odd multipliers: each step is a bijection mod 2^k) */
static void shuffle_keys(struct pl_pattern *p)
{
    for (int i = 0; i < 3; i++) {
        p->sh_key[i] = pl_rng_next(&p->rng) & p->sh_mask;
        p->sh_mul[i] = (pl_rng_next(&p->rng) | 1) & p->sh_mask;
        if (!p->sh_mul[i])
            p->sh_mul[i] = 1;
    }
    p->sh_ctr = 0;
}

static void shuffle_prepare(struct pl_pattern *p)
{
    uint64_t m = p->nblocks - 1;
    m |= m >> 1;
    m |= m >> 2;
    m |= m >> 4;
    m |= m >> 8;
    m |= m >> 16;
    m |= m >> 32;
    p->sh_mask = m;
    unsigned bits = (unsigned)__builtin_popcountll(m);
    p->sh_shift = bits > 1 ? (bits + 1) / 2 : 0;
    shuffle_keys(p);
}

/*
 * A bijection of [0, sh_mask]: three rounds of add a key, multiply by an odd
 * number and xor with the value shifted right, each invertible modulo 2^k.
 */
PL_HOT static uint64_t shuffle_perm(const struct pl_pattern *p, uint64_t x)
{
    uint64_t mask = p->sh_mask;
    for (int i = 0; i < 3; i++) {
        x = (x + p->sh_key[i]) & mask;
        x = (x * p->sh_mul[i]) & mask;
        if (p->sh_shift)
            x ^= x >> p->sh_shift;
    }
    return x;
}

/* The next block of the pass (a new pass, with new keys, when this one is done);
   fewer than 2 counter steps per block on average, as nblocks > sh_mask / 2. */
PL_HOT static uint64_t shuffle_next(struct pl_pattern *p)
{
    for (;;) {
        if (p->sh_ctr > p->sh_mask)
            shuffle_keys(p);
        uint64_t b = shuffle_perm(p, p->sh_ctr++);
        if (b < p->nblocks)
            return b;
    }
}

/* The highest lo + k*len with room for len bytes; needs hi - lo >= len. */
PL_HOT static uint64_t reverse_top(const struct pl_pattern *p, uint64_t len)
{
    return p->s.lo + ((p->s.hi - p->s.lo) / len - 1) * len;
}

/* Pull an aligned start down so that len bytes fit; needs hi - lo >= len. */
PL_HOT static uint64_t fit_aligned(const struct pl_pattern *p, uint64_t off, uint64_t len)
{
    uint64_t width = p->s.hi - len - p->s.lo;

    if (off - p->s.lo <= width)
        return off;
    return p->s.lo + width - width % p->s.align;
}

PL_HOT static uint64_t stride_next(struct pl_pattern *p, uint64_t len)
{
    const struct pl_pattern_spec *s = &p->s;
    uint64_t width = s->hi - s->lo - len;

    if (p->pos < s->lo || p->pos - s->lo > width) {
        /* pass over: the next one starts one len further into the stride */
        p->pass++;
        uint64_t shift = (uint64_t)(((unsigned __int128)p->pass * len) % s->stride);
        if (shift == 0 || shift > width) {
            p->pass = 0;
            shift = 0;
        }
        p->pos = s->lo + shift;
    }

    uint64_t off = p->pos;
    p->pos = s->stride > UINT64_MAX - off ? UINT64_MAX : off + s->stride;
    return off;
}

/* seq with a skip: fio's get_next_seq_offset (see pattern.h) */
PL_HOT static uint64_t seq_skip_next(struct pl_pattern *p, uint64_t len)
{
    const struct pl_pattern_spec *s = &p->s;
    uint64_t lo = s->lo, w = s->hi - s->lo, last = p->pos;
    uint64_t add = (uint64_t)s->skip; /* two's complement: adding it subtracts */
    if (last == lo && lo && s->skip < 0)
        last = w; /* fio's rewind, a size taken as a file offset */
    uint64_t pos = last - lo;
    if (pos) {
        pos += add;
        if (pos >= s->hi)
            pos = s->skip > 0 ? lo : w + add;
    }
    if (pos > w || w - pos < len)
        pos = 0;
    p->pos = lo + pos + len;
    return lo + pos;
}

static uint64_t pattern_base(struct pl_pattern *p, uint64_t len);

/* seq_nr / seq_pct: the sequential I/O of fio's get_next_block, else the pattern's */
PL_HOT static uint64_t mixed_next(struct pl_pattern *p, uint64_t len)
{
    const struct pl_pattern_spec *s = &p->s;
    int random = 0;
    if (--p->seq_left == 0) {
        p->seq_left = s->seq_nr > 1 ? s->seq_nr : 1;
        random = !s->seq_pct || pl_rng_below(&p->mix_rng, 100) >= s->seq_pct;
    }
    uint64_t off = p->last_end;
    if (random || len > s->hi - s->lo || off < s->lo || off - s->lo > s->hi - s->lo - len)
        off = pattern_base(p, len);
    p->last_end = off + len;
    return off;
}

PL_HOT uint64_t pl_pattern_next(struct pl_pattern *p, uint64_t len)
{
    if (len == 0)
        len = p->len;
    if (p->mixed)
        return mixed_next(p, len);
    return pattern_base(p, len);
}

PL_HOT static uint64_t pattern_base(struct pl_pattern *p, uint64_t len)
{
    const struct pl_pattern_spec *s = &p->s;
    uint64_t off;

    if (s->kind == PL_PAT_LIST) {
        off = s->list[p->li];
        p->li = p->li + 1 < s->nlist ? p->li + 1 : 0;
        return off;
    }
    if (len > s->hi - s->lo)
        return s->lo;

    uint64_t width = s->hi - s->lo - len; /* last valid start, relative to lo */

    switch (s->kind) {
    case PL_PAT_SEQ:
        if (s->skip)
            return seq_skip_next(p, len);
        if (p->pos < s->lo || p->pos - s->lo > width)
            p->pos = s->lo;
        off = p->pos;
        p->pos += len;
        return off;

    case PL_PAT_REVERSE:
        if (p->pos < s->lo || p->pos - s->lo > width)
            p->pos = reverse_top(p, len);
        off = p->pos;
        p->pos = off - s->lo >= len ? off - len : reverse_top(p, len);
        return off;

    case PL_PAT_RANDOM: pl_rng_range(&p->rng, 0, width, s->align, &off); return s->lo + off;

    case PL_PAT_REREAD: return s->lo;

    case PL_PAT_STRIDE: return stride_next(p, len);

    case PL_PAT_ZIPF: return fit_aligned(p, s->lo + scatter(p, zipf_rank(p)) * s->align, len);
    case PL_PAT_PARETO: return fit_aligned(p, s->lo + scatter(p, pareto_rank(p)) * s->align, len);
    case PL_PAT_ZONED:
    case PL_PAT_ZONED_ABS: return fit_aligned(p, s->lo + zoned_block(p) * s->align, len);

    case PL_PAT_NORMAL:
        if (width == 0)
            return s->lo;
        return s->lo + normal_rel(p, width);

    case PL_PAT_SHUFFLE: return fit_aligned(p, s->lo + shuffle_next(p) * s->align, len);

    case PL_PAT_LIST: break;
    }
    return s->lo;
}

static int fail(const char **why, const char *reason)
{
    if (why != NULL)
        *why = reason;
    return -EINVAL;
}

int pl_pattern_init(struct pl_pattern *p, const struct pl_pattern_spec *s, uint64_t len,
                    const char **why)
{
    memset(p, 0, sizeof(*p));
    if (s == NULL)
        return fail(why, "no pattern spec");
    if ((unsigned)s->kind >= NKINDS)
        return fail(why, "unknown pattern");

    p->s = *s;
    if (p->s.align == 0)
        p->s.align = 1;
    p->len = len;
    pl_rng_seed(&p->rng, s->seed);

    if (s->kind == PL_PAT_LIST) {
        if (s->list == NULL || s->nlist == 0)
            return fail(why, "list is empty");
        return 0;
    }

    if (s->hi <= s->lo)
        return fail(why, "range is empty");
    if (len == 0)
        return fail(why, "block size is zero");
    if (s->hi - s->lo < len)
        return fail(why, "range smaller than the block size");

    uint64_t width = s->hi - s->lo - len;
    p->nblocks = width / p->s.align + 1;

    switch (s->kind) {
    case PL_PAT_SEQ:
    case PL_PAT_STRIDE:
        p->pos = s->lo;
        if (s->kind == PL_PAT_STRIDE) {
            if (s->stride == 0)
                return fail(why, "stride needs a stride > 0");
            if (s->stride < len)
                return fail(why, "stride must be at least the block size");
        }
        break;
    case PL_PAT_REVERSE: p->pos = reverse_top(p, len); break;
    case PL_PAT_ZIPF:
        if (!(s->theta > 0.0) || !isfinite(s->theta))
            return fail(why, "zipf needs theta > 0");
        zipf_prepare(p);
        break;
    case PL_PAT_NORMAL:
        if (!(s->sigma > 0.0) || !isfinite(s->sigma))
            return fail(why, "normal needs sigma > 0");
        break;
    case PL_PAT_SHUFFLE:
        if (p->nblocks > (UINT64_C(1) << 62))
            return fail(why, "shuffle needs fewer than 2^62 blocks");
        shuffle_prepare(p);
        break;
    case PL_PAT_PARETO:
        if (!(s->pareto_h > 0.0 && s->pareto_h < 1.0))
            return fail(why, "pareto needs 0 < h < 1");
        pareto_prepare(p);
        break;
    case PL_PAT_ZONED:
    case PL_PAT_ZONED_ABS: {
        int rc = zones_prepare(p, why);
        if (rc < 0)
            return rc;
        break;
    }
    case PL_PAT_RANDOM:
    case PL_PAT_REREAD:
    case PL_PAT_LIST: break;
    }
    if (s->has_center && !(s->center >= 0.0 && s->center <= 1.0))
        return fail(why, "center must be within 0..1");
    if (s->scatter > PL_SCATTER_NONE)
        return fail(why, "unknown scatter");
    if (s->seq_pct > 100)
        return fail(why, "seq_pct must be within 0..100");
    if (s->skip && s->kind != PL_PAT_SEQ)
        return fail(why, "skip needs pattern seq");
    if ((s->seq_nr > 1 || s->seq_pct) && s->kind != PL_PAT_RANDOM && s->kind != PL_PAT_SHUFFLE &&
        s->kind != PL_PAT_ZIPF && s->kind != PL_PAT_PARETO && s->kind != PL_PAT_NORMAL &&
        s->kind != PL_PAT_ZONED && s->kind != PL_PAT_ZONED_ABS)
        return fail(why, "seq_nr and seq_pct need a random pattern");
    if (s->seq_nr > 1 || s->seq_pct) {
        p->mixed = 1;
        p->seq_left = 1; /* fio: the first I/O is a candidate for a random offset */
        p->last_end = s->lo;
        pl_rng_seed(&p->mix_rng, s->seed ^ UINT64_C(0x5e9a11e5));
    }
    return 0;
}
