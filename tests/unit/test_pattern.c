/*
 * Unit tests of the access patterns: exact coverage of seq, reverse and
 * stride (bitmap over blocks), random and normal bounds and statistics, the
 * shape of zipf against the exact pmf, list order, names and invalid specs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <math.h>

#include <cmocka.h>

#include "pattern.h"

#define KIB (UINT64_C(1) << 10)
#define MIB (UINT64_C(1) << 20)

static struct pl_pattern_spec spec(enum pl_pattern_kind kind, uint64_t lo, uint64_t hi)
{
    struct pl_pattern_spec s;
    memset(&s, 0, sizeof(s));
    s.kind = kind;
    s.lo = lo;
    s.hi = hi;
    s.seed = 42;
    return s;
}

static void init_ok(struct pl_pattern *p, const struct pl_pattern_spec *s, uint64_t len)
{
    const char *why = NULL;
    int rc = pl_pattern_init(p, s, len, &why);
    if (rc != 0)
        fail_msg("init failed: %s", why ? why : "(no reason)");
}

/*
 * Take n offsets of a len-stepping pattern and check that each is a
 * len-block of [lo, lo + nb*len) seen for the first time. Returns the bitmap
 * (caller frees) so the caller may check it is full.
 */
static unsigned char *take_blocks(struct pl_pattern *p, uint64_t lo, uint64_t len, uint64_t nb,
                                  uint64_t n)
{
    unsigned char *seen = calloc(nb, 1);
    assert_non_null(seen);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t off = pl_pattern_next(p, len);
        assert_true(off >= lo);
        assert_int_equal((off - lo) % len, 0);
        uint64_t b = (off - lo) / len;
        assert_true(b < nb);
        if (seen[b])
            fail_msg("op %llu: block %llu visited twice", (unsigned long long)i,
                     (unsigned long long)b);
        seen[b] = 1;
    }
    return seen;
}

static void assert_full(const unsigned char *seen, uint64_t nb)
{
    for (uint64_t b = 0; b < nb; b++)
        if (!seen[b])
            fail_msg("block %llu never visited", (unsigned long long)b);
}

/* ------------------------------------------------------------------------ */

static void test_names(void **state)
{
    (void)state;
    static const char *const all[] = {
        "seq", "reverse", "random", "reread", "stride", "zipf", "normal", "list", "shuffle",
    };
    for (int i = 0; i < 9; i++) {
        int k = pl_pattern_kind_of(all[i]);
        assert_int_not_equal(k, -1);
        assert_string_equal(pl_pattern_name((enum pl_pattern_kind)k), all[i]);
    }
    assert_int_equal(pl_pattern_kind_of("seq"), PL_PAT_SEQ);
    assert_int_equal(pl_pattern_kind_of("zipf"), PL_PAT_ZIPF);
    assert_int_equal(pl_pattern_kind_of("list"), PL_PAT_LIST);
    assert_int_equal(pl_pattern_kind_of("shuffle"), PL_PAT_SHUFFLE);
    assert_int_equal(pl_pattern_kind_of("sequential"), -1);
    assert_int_equal(pl_pattern_kind_of("SEQ"), -1);
    assert_int_equal(pl_pattern_kind_of(""), -1);
    assert_int_equal(pl_pattern_kind_of(NULL), -1);
    assert_string_equal(pl_pattern_name((enum pl_pattern_kind)99), "unknown");
}

static void test_seq_covers_once(void **state)
{
    (void)state;
    const uint64_t lo = 3 * 4 * KIB + 7, len = 4 * KIB, nb = MIB / len;
    struct pl_pattern_spec s = spec(PL_PAT_SEQ, lo, lo + MIB);
    struct pl_pattern p;
    init_ok(&p, &s, len);

    assert_int_equal(pl_pattern_next(&p, len), lo);
    assert_int_equal(pl_pattern_next(&p, len), lo + len);
    init_ok(&p, &s, len);
    unsigned char *seen = take_blocks(&p, lo, len, nb, nb);
    assert_full(seen, nb);
    free(seen);
    /* the second pass starts again at lo and is the same */
    for (uint64_t i = 0; i < nb; i++)
        assert_int_equal(pl_pattern_next(&p, len), lo + i * len);

    /* a range that is not a multiple of len: the tail is skipped */
    s.hi = lo + 10 * len + 100;
    init_ok(&p, &s, len);
    for (int pass = 0; pass < 3; pass++)
        for (uint64_t i = 0; i < 10; i++)
            assert_int_equal(pl_pattern_next(&p, len), lo + i * len);

    /* len 0 means the len given to init */
    init_ok(&p, &s, len);
    assert_int_equal(pl_pattern_next(&p, 0), lo);
    assert_int_equal(pl_pattern_next(&p, 0), lo + len);
}

static void test_reverse_descends_and_covers(void **state)
{
    (void)state;
    const uint64_t lo = 5000, len = 4 * KIB, nb = MIB / len;
    struct pl_pattern_spec s = spec(PL_PAT_REVERSE, lo, lo + MIB);
    struct pl_pattern p;
    init_ok(&p, &s, len);

    for (int pass = 0; pass < 2; pass++) {
        unsigned char *seen = calloc(nb, 1);
        assert_non_null(seen);
        uint64_t prev = UINT64_MAX;
        for (uint64_t i = 0; i < nb; i++) {
            uint64_t off = pl_pattern_next(&p, len);
            if (i == 0)
                assert_int_equal(off, lo + MIB - len);
            else
                assert_true(off < prev);
            assert_int_equal((off - lo) % len, 0);
            assert_true(off + len <= lo + MIB);
            uint64_t b = (off - lo) / len;
            assert_false(seen[b]);
            seen[b] = 1;
            prev = off;
        }
        assert_int_equal(prev, lo);
        assert_full(seen, nb);
        free(seen);
    }

    /* range not a multiple of len: top is lo + (floor(range/len) - 1)*len */
    s.hi = lo + 10 * len + 4000;
    init_ok(&p, &s, len);
    for (int pass = 0; pass < 2; pass++)
        for (uint64_t i = 0; i < 10; i++)
            assert_int_equal(pl_pattern_next(&p, len), lo + (9 - i) * len);

    /* a range of exactly one block: always lo */
    s.hi = lo + len;
    init_ok(&p, &s, len);
    for (int i = 0; i < 5; i++)
        assert_int_equal(pl_pattern_next(&p, len), lo);
}

static void check_stride_cycle(uint64_t lo, uint64_t range, uint64_t len, uint64_t stride)
{
    struct pl_pattern_spec s = spec(PL_PAT_STRIDE, lo, lo + range);
    s.stride = stride;
    struct pl_pattern p;
    init_ok(&p, &s, len);

    uint64_t nb = range / len;
    for (int cycle = 0; cycle < 2; cycle++) {
        unsigned char *seen = take_blocks(&p, lo, len, nb, nb);
        assert_full(seen, nb);
        free(seen);
    }
}

static void test_stride_covers_once(void **state)
{
    (void)state;
    const uint64_t lo = 8 * KIB, len = 4 * KIB, stride = 64 * KIB;
    struct pl_pattern_spec s = spec(PL_PAT_STRIDE, lo, lo + MIB);
    s.stride = stride;
    struct pl_pattern p;
    init_ok(&p, &s, len);

    /* first pass: lo, lo+stride, ... 16 of them; the second starts at lo+len */
    for (uint64_t i = 0; i < MIB / stride; i++)
        assert_int_equal(pl_pattern_next(&p, len), lo + i * stride);
    assert_int_equal(pl_pattern_next(&p, len), lo + len);
    assert_int_equal(pl_pattern_next(&p, len), lo + len + stride);

    check_stride_cycle(lo, MIB, len, stride);
    /* stride does not divide the range */
    check_stride_cycle(lo, 100 * len, len, 16 * len);
    /* range smaller than the stride: one I/O per pass */
    check_stride_cycle(lo, 10 * len, len, 16 * len);
    /* stride == len is seq */
    check_stride_cycle(lo, 64 * len, len, len);
}

static void test_random_range_align_seed(void **state)
{
    (void)state;
    const uint64_t lo = 1000, hi = lo + 63 * 512 + 1024 + 300, len = 1024, align = 512;
    struct pl_pattern_spec s = spec(PL_PAT_RANDOM, lo, hi);
    s.align = align;
    struct pl_pattern a, b, c;
    init_ok(&a, &s, len);
    init_ok(&b, &s, len);
    s.seed = 43;
    init_ok(&c, &s, len);

    /* starts lo + k*512 with room for 1024 bytes: k = 0 .. 63 */
    const uint64_t nk = 64;
    assert_int_equal(a.nblocks, nk);
    unsigned counts[64] = {0};
    int differ = 0;
    const int n = 64000;
    for (int i = 0; i < n; i++) {
        uint64_t x = pl_pattern_next(&a, len);
        uint64_t y = pl_pattern_next(&b, len);
        uint64_t z = pl_pattern_next(&c, len);
        assert_int_equal(x, y);
        differ += x != z;
        assert_true(x >= lo && x + len <= hi);
        assert_int_equal((x - lo) % align, 0);
        counts[(x - lo) / align]++;
    }
    assert_true(differ > n / 2);
    /* roughly uniform: each of 64 slots expects 1000 (sd ~31) */
    for (uint64_t k = 0; k < nk; k++)
        if (counts[k] < 850 || counts[k] > 1150)
            fail_msg("slot %llu drawn %u times of 1000 expected", (unsigned long long)k, counts[k]);

    /* align 0 means 1: odd offsets appear */
    s.align = 0;
    init_ok(&a, &s, 1);
    int odd = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = pl_pattern_next(&a, 1);
        assert_true(x >= lo && x < hi);
        odd += (x - lo) & 1;
    }
    assert_true(odd > 300);
}

static void test_reread(void **state)
{
    (void)state;
    struct pl_pattern_spec s = spec(PL_PAT_REREAD, 12345, 12345 + MIB);
    struct pl_pattern p;
    init_ok(&p, &s, 4 * KIB);
    for (int i = 0; i < 100; i++)
        assert_int_equal(pl_pattern_next(&p, 4 * KIB), 12345);
}

/* exact zeta by direct summation, smallest terms first */
static double ref_zeta(uint64_t n, double theta)
{
    double z = 0.0;
    for (uint64_t i = n; i >= 1; i--)
        z += pow((double)i, -theta);
    return z;
}

/* Draw n zipf offsets over nb blocks of len bytes; counts[rank]. */
static void zipf_counts(double theta, uint64_t nb, unsigned n, unsigned *by_rank)
{
    const uint64_t lo = 3 * MIB, len = 4 * KIB;
    struct pl_pattern_spec s = spec(PL_PAT_ZIPF, lo, lo + nb * len);
    s.theta = theta;
    s.align = len;
    struct pl_pattern p;
    init_ok(&p, &s, len);
    assert_int_equal(p.nblocks, nb);

    /* the scatter is a bijection from rank to block */
    uint64_t *rank_of = malloc(nb * sizeof(*rank_of));
    assert_non_null(rank_of);
    for (uint64_t b = 0; b < nb; b++)
        rank_of[b] = UINT64_MAX;
    for (uint64_t r = 0; r < nb; r++) {
        uint64_t b = (uint64_t)(((unsigned __int128)r * p.zipf_mult + p.zipf_add) % nb);
        assert_int_equal(rank_of[b], UINT64_MAX);
        rank_of[b] = r;
    }

    /* scattered: the ten hottest blocks are spread, not packed together */
    if (nb >= 100) {
        uint64_t min = UINT64_MAX, max = 0;
        for (uint64_t r = 0; r < 10; r++) {
            uint64_t b = (uint64_t)(((unsigned __int128)r * p.zipf_mult + p.zipf_add) % nb);
            min = b < min ? b : min;
            max = b > max ? b : max;
        }
        assert_true(max - min > nb / 2);
    }

    memset(by_rank, 0, nb * sizeof(*by_rank));
    for (unsigned i = 0; i < n; i++) {
        uint64_t off = pl_pattern_next(&p, len);
        assert_true(off >= lo && off + len <= lo + nb * len);
        assert_int_equal((off - lo) % len, 0);
        by_rank[rank_of[(off - lo) / len]]++;
    }
    free(rank_of);
}

static int cmp_desc(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x < y) - (x > y);
}

static void check_share(unsigned count, unsigned n, double want, const char *what)
{
    double got = (double)count / n;
    if (fabs(got - want) > 0.10 * want)
        fail_msg("%s: share %.5f, exact pmf %.5f", what, got, want);
}

static void test_zipf_shape(void **state)
{
    (void)state;
    enum { NB = 1000, N = 200000 };
    const double theta = 1.2;
    unsigned *by_rank = malloc(NB * sizeof(*by_rank));
    assert_non_null(by_rank);
    zipf_counts(theta, NB, N, by_rank);

    double z = ref_zeta(NB, theta);
    check_share(by_rank[0], N, 1.0 / z, "rank 0");
    check_share(by_rank[1], N, 1.0 / (pow(2.0, theta) * z), "rank 1");

    /* the hottest block is rank 0's, and sorted counts start with ranks 0..9 */
    unsigned *sorted = malloc(NB * sizeof(*sorted));
    assert_non_null(sorted);
    memcpy(sorted, by_rank, NB * sizeof(*sorted));
    qsort(sorted, NB, sizeof(*sorted), cmp_desc);
    for (int r = 0; r < 10; r++)
        if (sorted[r] != by_rank[r])
            fail_msg("rank %d drawn %u times, but the %d-th highest count is %u", r, by_rank[r], r,
                     sorted[r]);

    /* frequency falls with rank: per-rank averages over bands of ranks */
    static const unsigned bands[] = {0, 10, 30, 100, 300, 1000};
    double prev = INFINITY;
    for (int i = 0; i + 1 < 6; i++) {
        double sum = 0;
        for (unsigned r = bands[i]; r < bands[i + 1]; r++)
            sum += by_rank[r];
        double avg = sum / (bands[i + 1] - bands[i]);
        if (!(avg < prev))
            fail_msg("ranks %u..%u average %.1f, not below %.1f", bands[i], bands[i + 1], avg,
                     prev);
        prev = avg;
    }
    /* every rank is reachable, the tail included */
    unsigned tail = 0;
    for (unsigned r = 900; r < NB; r++)
        tail += by_rank[r];
    assert_true(tail > 0);

    free(sorted);
    free(by_rank);
}

static void test_zipf_other_thetas(void **state)
{
    (void)state;
    enum { NB = 1000, N = 200000 };
    static const double thetas[] = {0.5, 0.8, 0.99, 1.0, 1.01, 2.0};
    unsigned *by_rank = malloc(NB * sizeof(*by_rank));
    assert_non_null(by_rank);
    for (size_t i = 0; i < sizeof(thetas) / sizeof(thetas[0]); i++) {
        zipf_counts(thetas[i], NB, N, by_rank);
        double z = ref_zeta(NB, thetas[i]);
        check_share(by_rank[0], N, 1.0 / z, "rank 0");
        check_share(by_rank[1], N, 1.0 / (pow(2.0, thetas[i]) * z), "rank 1");
        assert_true(by_rank[0] > by_rank[1]);
        assert_true(by_rank[1] > by_rank[10]);
    }
    free(by_rank);
}

static void test_zipf_small_and_seeded(void **state)
{
    (void)state;
    const uint64_t len = 4096;
    struct pl_pattern_spec s = spec(PL_PAT_ZIPF, 0, len);
    s.theta = 1.1;
    struct pl_pattern p, q;

    /* one block, two blocks: no tail, still in range */
    init_ok(&p, &s, len);
    for (int i = 0; i < 100; i++)
        assert_int_equal(pl_pattern_next(&p, len), 0);
    s.hi = 2 * len;
    s.align = len;
    init_ok(&p, &s, len);
    unsigned n0 = 0;
    for (int i = 0; i < 10000; i++) {
        uint64_t off = pl_pattern_next(&p, len);
        assert_true(off == 0 || off == len);
        n0 += off == p.zipf_add * len;
    }
    /* rank 0 share is 1 / (1 + 2^-1.1) = 0.682 */
    assert_in_range(n0, 6500, 7150);

    /* same seed, same offsets; another seed, other offsets */
    s.hi = 1000 * len;
    init_ok(&p, &s, len);
    init_ok(&q, &s, len);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(pl_pattern_next(&p, len), pl_pattern_next(&q, len));
    s.seed = 7;
    init_ok(&q, &s, len);
    int differ = 0;
    for (int i = 0; i < 1000; i++)
        differ += pl_pattern_next(&p, len) != pl_pattern_next(&q, len);
    assert_true(differ > 500);
}

static void test_zipf_large_n(void **state)
{
    (void)state;
    /* past the exact-sum limit the Euler-Maclaurin tail matches a direct sum */
    const uint64_t n = 3 * MIB + 17;
    static const double thetas[] = {0.8, 1.0, 1.2};
    for (size_t i = 0; i < 3; i++) {
        struct pl_pattern_spec s = spec(PL_PAT_ZIPF, 0, n);
        s.theta = thetas[i];
        struct pl_pattern p;
        init_ok(&p, &s, 1);
        assert_int_equal(p.nblocks, n);
        double want = ref_zeta(n, thetas[i]);
        if (fabs(p.zeta_n - want) > 1e-10 * want)
            fail_msg("theta %g: zeta %.15g, direct sum %.15g", thetas[i], p.zeta_n, want);
    }

    /* 2^40 blocks: values from mpmath (zeta(t) - hurwitz_zeta(t, N + 1)) */
    static const struct {
        double theta, zeta;
    } big[] = {
        {0.8, 1275.56246158421957},
        {1.0, 28.3031028872997999},
        {1.2, 5.57205119117775363},
        {2.0, 1.64493406684731694},
    };
    const uint64_t nb = UINT64_C(1) << 40, len = 4096;
    for (size_t i = 0; i < 4; i++) {
        struct pl_pattern_spec s = spec(PL_PAT_ZIPF, len, len + nb * len);
        s.theta = big[i].theta;
        s.align = len;
        struct pl_pattern p;
        init_ok(&p, &s, len);
        assert_int_equal(p.nblocks, nb);
        if (fabs(p.zeta_n - big[i].zeta) > 1e-12 * big[i].zeta)
            fail_msg("theta %g: zeta %.17g, want %.17g", big[i].theta, p.zeta_n, big[i].zeta);
        for (int k = 0; k < 10000; k++) {
            uint64_t off = pl_pattern_next(&p, len);
            assert_true(off >= len && off + len <= len + nb * len);
            assert_int_equal(off % len, 0);
        }
    }
}

static void test_normal_moments(void **state)
{
    (void)state;
    const uint64_t lo = 1 * MIB, range = 64 * MIB, len = 4 * KIB;
    const double sigma = 0.1;
    struct pl_pattern_spec s = spec(PL_PAT_NORMAL, lo, lo + range);
    s.sigma = sigma;
    struct pl_pattern p, q;
    init_ok(&p, &s, len);
    init_ok(&q, &s, len);

    const int n = 100000;
    double sum = 0, sum2 = 0;
    for (int i = 0; i < n; i++) {
        uint64_t off = pl_pattern_next(&p, len);
        assert_int_equal(off, pl_pattern_next(&q, len));
        assert_true(off >= lo && off + len <= lo + range);
        /* the I/O's middle, relative to the range's middle */
        double x = (double)(off + len / 2) - (double)(lo + range / 2);
        sum += x;
        sum2 += x * x;
    }
    double mean = sum / n, sd = sqrt(sum2 / n - mean * mean);
    double want_sd = sigma * (double)range;
    /* standard error of the mean is sd/sqrt(n) = 0.0003 of the range */
    if (fabs(mean) > 0.002 * (double)range)
        fail_msg("mean %.0f bytes from the middle", mean);
    if (fabs(sd - want_sd) > 0.02 * want_sd)
        fail_msg("sd %.0f, want %.0f", sd, want_sd);

    /* aligned to 4 KiB from an unaligned lo */
    s.lo = 1000;
    s.hi = 1000 + range;
    s.align = 4 * KIB;
    init_ok(&p, &s, len);
    for (int i = 0; i < 10000; i++) {
        uint64_t off = pl_pattern_next(&p, len);
        assert_true(off >= s.lo && off + len <= s.hi);
        assert_int_equal((off - s.lo) % s.align, 0);
    }

    /* very wide and very narrow: truncation keeps everything inside */
    s.sigma = 10.0;
    init_ok(&p, &s, len);
    for (int i = 0; i < 10000; i++) {
        uint64_t off = pl_pattern_next(&p, len);
        assert_true(off >= s.lo && off + len <= s.hi);
    }
    s.align = 1;
    s.sigma = 1e-9;
    init_ok(&p, &s, len);
    for (int i = 0; i < 100; i++) {
        /* the middle start, or one below it when the draw falls just short */
        uint64_t off = pl_pattern_next(&p, len), mid = s.lo + (range - len) / 2;
        assert_true(off == mid || off == mid - 1);
    }

    /* a window of two starts far inside a wide bell: no endless redraw */
    s.hi = s.lo + len + 1;
    s.sigma = 1000.0;
    init_ok(&p, &s, len);
    for (int i = 0; i < 100; i++) {
        uint64_t off = pl_pattern_next(&p, len);
        assert_true(off == s.lo || off == s.lo + 1);
    }
}

static void test_list_order_and_wrap(void **state)
{
    (void)state;
    static const uint64_t offs[] = {40960, 0, 8192, 4096, UINT64_C(1) << 40};
    struct pl_pattern_spec s = spec(PL_PAT_LIST, 0, 0);
    s.list = offs;
    s.nlist = 5;
    struct pl_pattern p;
    init_ok(&p, &s, 4096);
    for (int i = 0; i < 17; i++)
        assert_int_equal(pl_pattern_next(&p, 4096), offs[i % 5]);

    s.nlist = 1;
    init_ok(&p, &s, 4096);
    for (int i = 0; i < 3; i++)
        assert_int_equal(pl_pattern_next(&p, 4096), offs[0]);
}

static void test_invalid_specs(void **state)
{
    (void)state;
    static const uint64_t one[] = {0};
    struct bad {
        struct pl_pattern_spec s;
        uint64_t len;
        const char *why;
    } bad[] = {
        {{.kind = PL_PAT_SEQ, .lo = 10, .hi = 10}, 1, "range is empty"},
        {{.kind = PL_PAT_SEQ, .lo = 20, .hi = 10}, 1, "range is empty"},
        {{.kind = PL_PAT_RANDOM, .lo = 0, .hi = 4095}, 4096, "range smaller than the block size"},
        {{.kind = PL_PAT_REVERSE, .lo = 0, .hi = 4096}, 0, "block size is zero"},
        {{.kind = PL_PAT_STRIDE, .lo = 0, .hi = MIB}, 4096, "stride needs a stride > 0"},
        {{.kind = PL_PAT_STRIDE, .lo = 0, .hi = MIB, .stride = 2048},
         4096,
         "stride must be at least the block size"},
        {{.kind = PL_PAT_ZIPF, .lo = 0, .hi = MIB}, 4096, "zipf needs theta > 0"},
        {{.kind = PL_PAT_ZIPF, .lo = 0, .hi = MIB, .theta = -1}, 4096, "zipf needs theta > 0"},
        {{.kind = PL_PAT_ZIPF, .lo = 0, .hi = MIB, .theta = NAN}, 4096, "zipf needs theta > 0"},
        {{.kind = PL_PAT_ZIPF, .lo = 0, .hi = MIB, .theta = INFINITY},
         4096,
         "zipf needs theta > 0"},
        {{.kind = PL_PAT_NORMAL, .lo = 0, .hi = MIB}, 4096, "normal needs sigma > 0"},
        {{.kind = PL_PAT_NORMAL, .lo = 0, .hi = MIB, .sigma = -0.1},
         4096,
         "normal needs sigma > 0"},
        {{.kind = PL_PAT_LIST}, 4096, "list is empty"},
        {{.kind = PL_PAT_LIST, .list = one}, 4096, "list is empty"},
        {{.kind = PL_PAT_LIST, .nlist = 3}, 4096, "list is empty"},
        {{.kind = (enum pl_pattern_kind)42, .lo = 0, .hi = MIB}, 4096, "unknown pattern"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct pl_pattern p;
        const char *why = NULL;
        int rc = pl_pattern_init(&p, &bad[i].s, bad[i].len, &why);
        if (rc != -EINVAL || why == NULL || strcmp(why, bad[i].why) != 0)
            fail_msg("case %zu: rc %d, why '%s', want '%s'", i, rc, why ? why : "(null)",
                     bad[i].why);
    }
    /* a NULL why is allowed */
    assert_int_equal(pl_pattern_init(&(struct pl_pattern){0}, &bad[0].s, 1, NULL), -EINVAL);
}

static void test_len_changes(void **state)
{
    (void)state;
    /* a larger len than init's stays inside the range; one too large gets lo */
    const uint64_t lo = 4096, hi = lo + 64 * KIB;
    static const enum pl_pattern_kind kinds[] = {
        PL_PAT_SEQ, PL_PAT_REVERSE, PL_PAT_RANDOM, PL_PAT_STRIDE, PL_PAT_ZIPF, PL_PAT_NORMAL,
    };
    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        struct pl_pattern_spec s = spec(kinds[k], lo, hi);
        s.stride = 16 * KIB;
        s.theta = 0.9;
        s.sigma = 0.3;
        s.align = 4096;
        struct pl_pattern p;
        init_ok(&p, &s, 4096);
        for (int i = 0; i < 2000; i++) {
            uint64_t len = i % 3 == 0 ? 4096 : i % 3 == 1 ? 12288 : 512;
            uint64_t off = pl_pattern_next(&p, len);
            if (off < lo || off + len > hi)
                fail_msg("%s: [%llu, +%llu) outside the range", pl_pattern_name(kinds[k]),
                         (unsigned long long)off, (unsigned long long)len);
        }
        assert_int_equal(pl_pattern_next(&p, hi - lo + 1), lo);
    }
}

/*
 * shuffle: each pass visits every block exactly once, for block counts on
 * either side of a power of two (the permutation's interval) and down to 1;
 * passes differ from each other; a seed repeats its order, another seed does
 * not; the order is not the sequential one.
 */
static void test_shuffle_once_per_pass(void **state)
{
    (void)state;
    static const uint64_t counts[] = {1, 2, 3, 7, 8, 9, 63, 64, 65, 1000, 4096, 4097, 100003};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        uint64_t nb = counts[c], len = 4 * KIB, lo = 3 * len;
        struct pl_pattern_spec s = spec(PL_PAT_SHUFFLE, lo, lo + nb * len + len / 2);
        s.align = len;
        struct pl_pattern p;
        init_ok(&p, &s, len);
        assert_int_equal(p.nblocks, nb);
        for (int pass = 0; pass < 3; pass++) {
            unsigned char *seen = take_blocks(&p, lo, len, nb, nb);
            assert_full(seen, nb);
            free(seen);
        }
    }
}

static void take_order(struct pl_pattern *p, uint64_t *out, uint64_t n, uint64_t len)
{
    for (uint64_t i = 0; i < n; i++)
        out[i] = pl_pattern_next(p, len) / len;
}

static void test_shuffle_seeded_order(void **state)
{
    (void)state;
    enum { NB = 5000 };
    uint64_t len = 4 * KIB;
    static uint64_t a[2 * NB], b[2 * NB], c[2 * NB];
    struct pl_pattern_spec s = spec(PL_PAT_SHUFFLE, 0, NB * len);
    struct pl_pattern p;
    init_ok(&p, &s, len);
    take_order(&p, a, 2 * NB, len);
    init_ok(&p, &s, len);
    take_order(&p, b, 2 * NB, len);
    assert_memory_equal(a, b, sizeof a); /* the same seed, the same order, pass after pass */
    s.seed = 43;
    init_ok(&p, &s, len);
    take_order(&p, c, 2 * NB, len);
    unsigned same = 0, next_door = 0, first_vs_second = 0;
    for (unsigned i = 0; i < NB; i++) {
        same += a[i] == c[i];
        first_vs_second += a[i] == a[NB + i];
        if (i)
            next_door += a[i] == a[i - 1] + 1;
    }
    if (same > NB / 100 || first_vs_second > NB / 100 || next_door > NB / 100)
        fail_msg("shuffle looks ordered: %u of %u as seed 43, %u as the second pass, %u "
                 "sequential steps",
                 same, (unsigned)NB, first_vs_second, next_door);
    /* the first half of the blocks are not all in the first half of the pass */
    unsigned low = 0;
    for (unsigned i = 0; i < NB / 2; i++)
        low += a[i] < NB / 2;
    assert_true(low > NB / 2 * 4 / 10 && low < NB / 2 * 6 / 10);
}

/* shuffle with a larger I/O than align: offsets stay aligned and inside the range. */
static void test_shuffle_fits(void **state)
{
    (void)state;
    struct pl_pattern_spec s = spec(PL_PAT_SHUFFLE, 0, 64 * KIB);
    s.align = 4 * KIB;
    struct pl_pattern p;
    init_ok(&p, &s, 4 * KIB);
    for (int i = 0; i < 1000; i++) {
        uint64_t off = pl_pattern_next(&p, 16 * KIB);
        assert_int_equal(off % (4 * KIB), 0);
        assert_true(off + 16 * KIB <= 64 * KIB);
    }
}

/* ------------------------------------------------------------------------ */
/* pareto, zoned, fio's scatter, seq_nr / seq_pct, seq with a skip           */

static int cmp_desc64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Shares of the n draws on the hottest 1%, 10% and 50% of nb blocks, the hottest
   block's, and the fraction of blocks drawn at all (fio's iolog gives the same). */
struct shares {
    double top1, top10, top50, hottest, distinct;
};

static struct shares draw_shares(struct pl_pattern *p, uint64_t lo, uint64_t len, uint64_t nb,
                                 uint64_t n)
{
    uint64_t *c = calloc(nb, sizeof *c);
    assert_non_null(c);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t off = pl_pattern_next(p, len);
        assert_true(off >= lo);
        assert_int_equal((off - lo) % len, 0);
        uint64_t b = (off - lo) / len;
        assert_true(b < nb);
        c[b]++;
    }
    struct shares s = {0};
    uint64_t seen = 0;
    for (uint64_t b = 0; b < nb; b++)
        seen += c[b] != 0;
    qsort(c, nb, sizeof *c, cmp_desc64);
    uint64_t acc = 0;
    for (uint64_t b = 0; b < nb / 2; b++) {
        acc += c[b];
        if (b + 1 == nb / 100)
            s.top1 = (double)acc / (double)n;
        if (b + 1 == nb / 10)
            s.top10 = (double)acc / (double)n;
    }
    s.top50 = (double)acc / (double)n;
    s.hottest = (double)c[0] / (double)n;
    s.distinct = (double)seen / (double)nb;
    free(c);
    return s;
}

static void assert_near(double got, double want, double tol, const char *what)
{
    if (fabs(got - want) > tol)
        fail_msg("%s: %.4f, fio's %.4f (tolerance %.3f)", what, got, want, tol);
}

/*
 * Against fio 3.33: `fio --name=x --ioengine=null --rw=randread --bs=4k --size=64m
 * --norandommap --random_distribution=D --number_ios=200000 --io_size=100g
 * --write_iolog=L`, the blocks of L counted as here (16384 blocks, 200000 draws).
 */
static void test_fio_shapes(void **state)
{
    (void)state;
    static const struct {
        enum pl_pattern_kind kind;
        double param;
        struct shares fio;
    } cases[] = {
        {PL_PAT_PARETO, 0.2, {0.526825, 0.72916, 0.928915, 0.26099, 0.93738}},
        {PL_PAT_PARETO, 0.3, {0.256155, 0.5099, 0.83987, 0.05656, 0.99341}},
        {PL_PAT_ZIPF, 1.1, {0.684225, 0.863425, 0.97743, 0.14755, 0.76361}},
        {PL_PAT_ZIPF, 0.8, {0.31755, 0.58443, 0.87503, 0.03307, 0.98413}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int sc = PL_SCATTER_SPREAD; sc <= PL_SCATTER_FIO; sc++) {
            struct pl_pattern_spec s = spec(cases[i].kind, 0, 64 * MIB);
            s.align = 4 * KIB;
            s.theta = cases[i].param;
            s.pareto_h = cases[i].param;
            s.scatter = (enum pl_scatter)sc;
            struct pl_pattern p;
            init_ok(&p, &s, 4 * KIB);
            struct shares got = draw_shares(&p, 0, 4 * KIB, 16384, 200000);
            const struct shares *w = &cases[i].fio;
            assert_near(got.top1, w->top1, 0.01, "top 1%");
            assert_near(got.top10, w->top10, 0.01, "top 10%");
            assert_near(got.top50, w->top50, 0.01, "top 50%");
            assert_near(got.hottest, w->hottest, 0.01, "hottest block");
            /* fio's hash lets ranks share a block: fewer distinct blocks than the spread
               (a bijection) reaches; the spread stays within a few percent */
            assert_near(got.distinct, w->distinct, sc == PL_SCATTER_FIO ? 0.01 : 0.06,
                        "distinct blocks");
        }
    }
}

/* fio's scatter is its hash: (rank * 0x61C8864680B583EB + off) mod n, wrapping */
static void test_fio_scatter_formula(void **state)
{
    (void)state;
    assert_int_equal(pl_pattern_fio_scatter(0, 7, 100), 7);
    assert_int_equal(pl_pattern_fio_scatter(1, 0, 1000), UINT64_C(0x61C8864680B583EB) % 1000);
    uint64_t h = UINT64_C(3) * UINT64_C(0x61C8864680B583EB) + UINT64_C(0xffffffff);
    assert_int_equal(pl_pattern_fio_scatter(3, 0xffffffff, 16384), h % 16384);

    /* pareto with scatter none and center 0: the rank itself, so rank 0 (block 0) takes
       the mass u < (1/(n-1))^(1/pow) exactly */
    struct pl_pattern_spec s = spec(PL_PAT_PARETO, 0, 1024 * 4 * KIB);
    s.align = 4 * KIB;
    s.pareto_h = 0.2;
    s.scatter = PL_SCATTER_NONE;
    s.has_center = 1;
    s.center = 0;
    struct pl_pattern p;
    init_ok(&p, &s, 4 * KIB);
    uint64_t zero = 0, n = 200000, lower = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t b = pl_pattern_next(&p, 0) / (4 * KIB);
        zero += b == 0;
        lower += b < 512;
    }
    double pw = log(0.2) / log(0.8);
    double want = pow(1.0 / 1023.0, 1.0 / pw);
    assert_near((double)zero / (double)n, want, 0.005, "pareto rank 0");
    assert_true(lower > n * 9 / 10); /* the head is at the start, not scattered */

    /* center 0.5 puts rank 0 at block n/2 (fio: rand_off = n * center) */
    s.center = 0.5;
    init_ok(&p, &s, 4 * KIB);
    uint64_t mid = 0;
    for (uint64_t i = 0; i < 10000; i++)
        mid += pl_pattern_next(&p, 0) == 512 * 4 * KIB;
    assert_true(mid > 10000 / 5);
}

static void test_pareto_seeded_and_bounds(void **state)
{
    (void)state;
    struct pl_pattern_spec s = spec(PL_PAT_PARETO, 12 * KIB, 12 * KIB + 777 * 8 * KIB);
    s.align = 8 * KIB;
    s.pareto_h = 0.25;
    s.scatter = PL_SCATTER_FIO;
    struct pl_pattern a, b;
    init_ok(&a, &s, 8 * KIB);
    init_ok(&b, &s, 8 * KIB);
    uint64_t first[8];
    for (int i = 0; i < 20000; i++) {
        uint64_t x = pl_pattern_next(&a, 0), y = pl_pattern_next(&b, 0);
        assert_int_equal(x, y);
        assert_true(x >= s.lo && x + 8 * KIB <= s.hi);
        assert_int_equal((x - s.lo) % (8 * KIB), 0);
        if (i < 8)
            first[i] = x;
    }
    /* pinned: the same draws on every build (and both Lua flavours run this C) */
    s.seed = 43;
    init_ok(&b, &s, 8 * KIB);
    int same = 0;
    for (int i = 0; i < 8; i++)
        same += pl_pattern_next(&b, 0) == first[i];
    assert_true(same < 8);
}

static void test_zoned_fractions(void **state)
{
    (void)state;
    /* fio's zoned:60/10:30/20:10/70 — 60% of I/O on the first 10% of the range, ... */
    static const struct pl_zone z[] = {{60, 10}, {30, 20}, {10, 70}};
    struct pl_pattern_spec s = spec(PL_PAT_ZONED, 4 * KIB, 4 * KIB + 1000 * 4 * KIB);
    s.align = 4 * KIB;
    s.zones = z;
    s.nzones = 3;
    struct pl_pattern p;
    init_ok(&p, &s, 4 * KIB);
    uint64_t in[3] = {0}, n = 100000;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t off = pl_pattern_next(&p, 0);
        assert_true(off >= s.lo && off + 4 * KIB <= s.hi);
        uint64_t b = (off - s.lo) / (4 * KIB);
        in[b < 100 ? 0 : b < 300 ? 1 : 2]++;
    }
    assert_near((double)in[0] / n, 0.60, 0.01, "zone 1");
    assert_near((double)in[1] / n, 0.30, 0.01, "zone 2");
    assert_near((double)in[2] / n, 0.10, 0.01, "zone 3");

    /* zoned_abs:50/8k:50/64k — sizes in bytes; the rest of the range is never touched */
    static const struct pl_zone za[] = {{50, 8 * KIB}, {50, 64 * KIB}};
    s = spec(PL_PAT_ZONED_ABS, 0, 1 * MIB);
    s.align = 4 * KIB;
    s.zones = za;
    s.nzones = 2;
    init_ok(&p, &s, 4 * KIB);
    uint64_t first = 0;
    for (uint64_t i = 0; i < 20000; i++) {
        uint64_t off = pl_pattern_next(&p, 0);
        assert_true(off < 72 * KIB);
        first += off < 8 * KIB;
    }
    assert_near((double)first / 20000, 0.5, 0.02, "zoned_abs first zone");

    /* bad tables */
    const char *why = NULL;
    static const struct pl_zone bad1[] = {{60, 10}, {30, 20}};
    s = spec(PL_PAT_ZONED, 0, 1 * MIB);
    s.zones = bad1;
    s.nzones = 2;
    assert_int_equal(pl_pattern_init(&p, &s, 4 * KIB, &why), -EINVAL);
    static const struct pl_zone bad2[] = {{100, 2 * MIB}};
    s = spec(PL_PAT_ZONED_ABS, 0, 1 * MIB);
    s.zones = bad2;
    s.nzones = 1;
    assert_int_equal(pl_pattern_init(&p, &s, 4 * KIB, &why), -EINVAL);
    assert_string_equal(why, "zoned_abs sizes exceed the range");
}

/* fio's rw=randread:4: the first I/O random, then 3 that follow it, ... */
static void test_seq_nr_and_pct(void **state)
{
    (void)state;
    struct pl_pattern_spec s = spec(PL_PAT_RANDOM, 0, 4096 * 4 * KIB);
    s.align = 4 * KIB;
    s.seq_nr = 4;
    struct pl_pattern p, plain;
    init_ok(&p, &s, 4 * KIB);
    struct pl_pattern_spec s0 = s;
    s0.seq_nr = 0;
    init_ok(&plain, &s0, 4 * KIB);
    uint64_t prev = 0;
    for (int i = 0; i < 400; i++) {
        uint64_t off = pl_pattern_next(&p, 0);
        if (i % 4 == 0) /* the random ones are the plain pattern's, in order */
            assert_int_equal(off, pl_pattern_next(&plain, 0));
        else if (prev + 4 * KIB < s.hi)
            assert_int_equal(off, prev + 4 * KIB);
        prev = off;
    }

    /* percentage_random=30: about 30% of I/Os random, the others follow the last */
    s.seq_nr = 1;
    s.seq_pct = 70;
    init_ok(&p, &s, 4 * KIB);
    uint64_t follow = 0, n = 50000;
    prev = UINT64_MAX;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t off = pl_pattern_next(&p, 0);
        follow += off == prev + 4 * KIB;
        prev = off;
    }
    assert_near((double)follow / n, 0.70, 0.01, "sequential share");

    /* seq_pct 100: sequential from lo, wrapping to a random offset at the end */
    s.seq_pct = 100;
    init_ok(&p, &s, 4 * KIB);
    assert_int_equal(pl_pattern_next(&p, 0) % (4 * KIB), 0); /* the first is random */
    uint64_t a = pl_pattern_next(&p, 0), b = pl_pattern_next(&p, 0);
    assert_int_equal(b, a + 4 * KIB);

    const char *why = NULL;
    s = spec(PL_PAT_SEQ, 0, 1 * MIB);
    s.seq_nr = 8;
    assert_int_equal(pl_pattern_init(&p, &s, 4 * KIB, &why), -EINVAL);
}

/* fio 3.33's offsets (write_iolog, ioengine=null, bs=4k, size=64k), in 4k blocks */
static void test_seq_skip_as_fio(void **state)
{
    (void)state;
    static const struct {
        int64_t skip;
        uint64_t lo;
        int n;
        int blocks[16];
    } cases[] = {
        {-8 * 1024, 0, 16, {0, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
        {-4 * 1024, 0, 4, {0, 0, 0, 0}},
        {-12 * 1024, 0, 16, {0, 13, 11, 9, 7, 5, 3, 1, 13, 11, 9, 7, 5, 3, 1, 13}},
        {-16 * 1024, 0, 16, {0, 12, 9, 6, 3, 0, 12, 9, 6, 3, 0, 12, 9, 6, 3, 0}},
        /* --offset=16k: fio's rewind mixes io_size and file offsets */
        {-8 * 1024, 16 * 1024, 16, {14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 18, 17, 16, 15, 14}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct pl_pattern_spec s = spec(PL_PAT_SEQ, cases[i].lo, cases[i].lo + 64 * KIB);
        s.skip = cases[i].skip;
        struct pl_pattern p;
        init_ok(&p, &s, 4 * KIB);
        for (int k = 0; k < cases[i].n; k++) {
            uint64_t off = pl_pattern_next(&p, 0);
            if (off != (uint64_t)cases[i].blocks[k] * 4 * KIB)
                fail_msg("skip %lld lo %llu: I/O %d at block %llu, fio's %d",
                         (long long)cases[i].skip, (unsigned long long)cases[i].lo, k,
                         (unsigned long long)(off / (4 * KIB)), cases[i].blocks[k]);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_seq_covers_once),
        cmocka_unit_test(test_reverse_descends_and_covers),
        cmocka_unit_test(test_stride_covers_once),
        cmocka_unit_test(test_random_range_align_seed),
        cmocka_unit_test(test_reread),
        cmocka_unit_test(test_zipf_shape),
        cmocka_unit_test(test_zipf_other_thetas),
        cmocka_unit_test(test_zipf_small_and_seeded),
        cmocka_unit_test(test_zipf_large_n),
        cmocka_unit_test(test_normal_moments),
        cmocka_unit_test(test_list_order_and_wrap),
        cmocka_unit_test(test_invalid_specs),
        cmocka_unit_test(test_len_changes),
        cmocka_unit_test(test_shuffle_once_per_pass),
        cmocka_unit_test(test_shuffle_seeded_order),
        cmocka_unit_test(test_shuffle_fits),
        cmocka_unit_test(test_fio_shapes),
        cmocka_unit_test(test_fio_scatter_formula),
        cmocka_unit_test(test_pareto_seeded_and_bounds),
        cmocka_unit_test(test_zoned_fractions),
        cmocka_unit_test(test_seq_nr_and_pct),
        cmocka_unit_test(test_seq_skip_as_fio),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
