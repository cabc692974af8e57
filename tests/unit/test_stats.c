/*
 * Unit tests of the statistics: histogram bucket math (index, bounds and
 * midpoint, error bound), percentiles against sorted raw samples, merging of
 * histograms and stats, per-errno counts, mean and elapsed seconds.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clock.h"
#include "rng.h"
#include "stats.h"

#define TOP (UINT64_C(1) << (PL_HIST_MSB + 1)) /* first value that clamps */
#define NSAMPLES 100000

/* Number of values bucket idx holds (the last bucket: nominally). */
static uint64_t width(unsigned idx)
{
    if (idx + 1 < PL_HIST_NR)
        return pl_hist_lower(idx + 1) - pl_hist_lower(idx);
    return TOP - pl_hist_lower(idx);
}

static void test_index_known(void **state)
{
    (void)state;
    assert_int_equal(PL_HIST_NR, 2496);
    assert_int_equal(pl_hist_index(0), 0);
    assert_int_equal(pl_hist_index(1), 1);
    assert_int_equal(pl_hist_index(63), 63);
    assert_int_equal(pl_hist_index(64), 64);
    assert_int_equal(pl_hist_index(127), 127);
    assert_int_equal(pl_hist_index(128), 128);
    assert_int_equal(pl_hist_index(129), 128);
    assert_int_equal(pl_hist_index(130), 129);
    assert_int_equal(pl_hist_index(255), 191);
    assert_int_equal(pl_hist_index(256), 192);
    assert_int_equal(pl_hist_index(259), 192);
    assert_int_equal(pl_hist_index(260), 193);
    /* 2^20: msb 20, 14 low bits dropped, group 15 */
    assert_int_equal(pl_hist_index(UINT64_C(1) << 20), 15 * 64);
    assert_int_equal(pl_hist_index((UINT64_C(1) << 20) + 16383), 15 * 64);
    assert_int_equal(pl_hist_index((UINT64_C(1) << 20) + 16384), 15 * 64 + 1);
    assert_int_equal(pl_hist_index((UINT64_C(1) << 20) + 5 * 16384 + 77), 15 * 64 + 5);
    assert_int_equal(pl_hist_index((UINT64_C(1) << 21) - 1), 15 * 64 + 63);
    /* top of the range and beyond */
    assert_int_equal(pl_hist_index(TOP - 1), PL_HIST_NR - 1);
    assert_int_equal(pl_hist_index(TOP), PL_HIST_NR - 1);
    assert_int_equal(pl_hist_index(TOP * 1000), PL_HIST_NR - 1);
    assert_int_equal(pl_hist_index(UINT64_MAX), PL_HIST_NR - 1);
    assert_int_equal(pl_hist_index(TOP / 2), PL_HIST_NR - 64);
    assert_int_equal(pl_hist_index(TOP / 2 - 1), PL_HIST_NR - 65);

    assert_true(pl_hist_lower(0) == 0);
    assert_true(pl_hist_lower(127) == 127);
    assert_true(pl_hist_lower(128) == 128);
    assert_true(pl_hist_lower(129) == 130);
    assert_true(pl_hist_lower(15 * 64 + 5) == (UINT64_C(1) << 20) + 5 * 16384);
    assert_true(pl_hist_value(5) == 5);
    assert_true(pl_hist_value(128) == 129);
    assert_true(pl_hist_value(15 * 64) == (UINT64_C(1) << 20) + 8192);
}

static void test_buckets_tile(void **state)
{
    (void)state;
    /* buckets are contiguous, start at 0, double in width every 64 past 128 */
    assert_true(pl_hist_lower(0) == 0);
    for (unsigned i = 0; i < PL_HIST_NR; i++) {
        uint64_t lo = pl_hist_lower(i), w = width(i);
        assert_true(w >= 1);
        assert_true((w & (w - 1)) == 0);
        if (i >= 128 && i % 64 == 0 && i + 64 < PL_HIST_NR)
            assert_true(width(i + 64) == 2 * w);
        assert_int_equal(pl_hist_index(lo), i);
        assert_int_equal(pl_hist_index(lo + w - 1), i);
        if (i > 0)
            assert_int_equal(pl_hist_index(lo - 1), i - 1);
        /* the representative value is inside its bucket */
        uint64_t v = pl_hist_value(i);
        assert_true(v >= lo && v < lo + w);
        assert_int_equal(pl_hist_index(v), i);
    }
    assert_true(pl_hist_lower(PL_HIST_NR - 1) + width(PL_HIST_NR - 1) == TOP);
}

static void test_round_trip_random(void **state)
{
    (void)state;
    struct pl_rng r;
    pl_rng_seed(&r, 100);
    for (int i = 0; i < 1000000; i++) {
        /* log-uniform over the whole range, plus plain small values */
        unsigned bits = (unsigned)pl_rng_below(&r, PL_HIST_MSB + 2);
        uint64_t v = bits ? pl_rng_next(&r) >> (64 - bits) : 0;
        unsigned idx = pl_hist_index(v);
        assert_true(idx < PL_HIST_NR);
        uint64_t lo = pl_hist_lower(idx);
        assert_true(lo <= v && v < lo + width(idx));
        if (v < 128) {
            assert_true(pl_hist_value(idx) == v);
        } else {
            /* |value - v| / v <= 1/128, in exact integer arithmetic */
            uint64_t val = pl_hist_value(idx);
            uint64_t diff = val > v ? val - v : v - val;
            assert_true(diff * 128 <= v);
        }
    }
    /* the worst case: the lowest value of a bucket */
    for (unsigned i = 128; i < PL_HIST_NR; i++) {
        uint64_t lo = pl_hist_lower(i);
        assert_true((pl_hist_value(i) - lo) * 128 <= lo);
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static double normal(struct pl_rng *r)
{
    double u1 = 1.0 - pl_rng_double(r), u2 = pl_rng_double(r);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

enum dist { D_UNIFORM, D_SMALL, D_EXP, D_LOGNORMAL, D_BIMODAL, D_LOGUNIFORM, D_CONST, D_NR };

static uint64_t draw(struct pl_rng *r, enum dist d)
{
    switch (d) {
    case D_UNIFORM: return pl_rng_below(r, 2000000);
    case D_SMALL: return pl_rng_below(r, 300);
    case D_EXP: return (uint64_t)(-80000.0 * log(1.0 - pl_rng_double(r)));
    case D_LOGNORMAL: return (uint64_t)exp(log(200000.0) + 1.5 * normal(r));
    case D_BIMODAL:
        if (pl_rng_below(r, 100) < 95)
            return (uint64_t)fabs(100000.0 + 5000.0 * normal(r));
        return 20000000 + pl_rng_below(r, 5000000);
    case D_LOGUNIFORM: return pl_rng_next(r) >> (64 - 1 - pl_rng_below(r, PL_HIST_MSB + 1));
    case D_CONST:
    default: return 4321;
    }
}

static uint64_t samples[NSAMPLES];
static struct pl_hist hist, hist_a, hist_b;

static void test_percentiles(void **state)
{
    (void)state;
    /* percentiles in thousandths of a percent, so the rank is exact here */
    static const uint64_t pm[] = {0,     1,     1000,  10000, 25000, 50000, 75000,
                                  90000, 95000, 99000, 99900, 99990, 99999, 100000};
    struct pl_rng r;
    pl_rng_seed(&r, 200);

    for (int d = 0; d < D_NR; d++) {
        pl_hist_reset(&hist);
        assert_true(pl_hist_percentile(&hist, 50) == 0);
        for (int i = 0; i < NSAMPLES; i++) {
            samples[i] = draw(&r, (enum dist)d);
            assert_true(samples[i] < TOP);
            pl_hist_add(&hist, samples[i]);
        }
        assert_true(hist.count == NSAMPLES);
        qsort(samples, NSAMPLES, sizeof(samples[0]), cmp_u64);

        for (size_t k = 0; k < sizeof(pm) / sizeof(pm[0]); k++) {
            uint64_t rank = (pm[k] * NSAMPLES + 99999) / 100000;
            if (rank == 0)
                rank = 1;
            uint64_t want = samples[rank - 1];
            uint64_t got = pl_hist_percentile(&hist, (double)pm[k] / 1000.0);
            uint64_t diff = got > want ? got - want : want - got;
            if (diff * 128 > want)
                fail_msg("dist %d p%.3f: got %llu, sorted %llu", d, (double)pm[k] / 1000.0,
                         (unsigned long long)got, (unsigned long long)want);
        }
        /* p = 0 is the lowest bucket, out-of-range p clamps */
        assert_true(pl_hist_percentile(&hist, 0) == pl_hist_value(pl_hist_index(samples[0])));
        assert_true(pl_hist_percentile(&hist, -5) == pl_hist_percentile(&hist, 0));
        assert_true(pl_hist_percentile(&hist, 250) ==
                    pl_hist_value(pl_hist_index(samples[NSAMPLES - 1])));
    }
}

static void test_percentile_small(void **state)
{
    (void)state;
    pl_hist_reset(&hist);
    assert_true(pl_hist_percentile(&hist, 0) == 0);
    assert_true(pl_hist_percentile(&hist, 100) == 0);

    /* 1..10: nearest rank of p50 is the 5th, p51 the 6th, p10 the 1st */
    for (uint64_t v = 10; v >= 1; v--)
        pl_hist_add(&hist, v);
    assert_true(pl_hist_percentile(&hist, 0) == 1);
    assert_true(pl_hist_percentile(&hist, 10) == 1);
    assert_true(pl_hist_percentile(&hist, 10.5) == 2);
    assert_true(pl_hist_percentile(&hist, 50) == 5);
    assert_true(pl_hist_percentile(&hist, 51) == 6);
    assert_true(pl_hist_percentile(&hist, 99.9) == 10);
    assert_true(pl_hist_percentile(&hist, 100) == 10);

    /* a single huge value lands in the last bucket */
    pl_hist_reset(&hist);
    pl_hist_add(&hist, UINT64_MAX);
    assert_true(hist.bins[PL_HIST_NR - 1] == 1);
    assert_true(pl_hist_percentile(&hist, 50) == pl_hist_value(PL_HIST_NR - 1));
}

static void test_hist_merge(void **state)
{
    (void)state;
    struct pl_rng r;
    pl_rng_seed(&r, 300);
    pl_hist_reset(&hist);
    pl_hist_reset(&hist_a);
    pl_hist_reset(&hist_b);
    for (int i = 0; i < NSAMPLES; i++) {
        uint64_t v = draw(&r, D_LOGNORMAL);
        uint64_t w = draw(&r, D_LOGUNIFORM);
        pl_hist_add(&hist_a, v);
        pl_hist_add(&hist_b, w);
        pl_hist_add(&hist, v);
        pl_hist_add(&hist, w);
    }
    pl_hist_merge(&hist_a, &hist_b);
    assert_true(hist_a.count == 2 * NSAMPLES);
    assert_memory_equal(&hist_a, &hist, sizeof(hist));

    /* merging an empty histogram changes nothing */
    pl_hist_reset(&hist_b);
    pl_hist_merge(&hist_a, &hist_b);
    assert_memory_equal(&hist_a, &hist, sizeof(hist));
}

static struct pl_stats st_a, st_b, st_all;

static void test_stats_reset_record(void **state)
{
    (void)state;
    memset(&st_a, 0x5a, sizeof(st_a));
    pl_stats_reset(&st_a);
    assert_true(st_a.lat_min == UINT64_MAX);
    assert_true(st_a.ops == 0 && st_a.bytes == 0 && st_a.errors == 0 && st_a.lat_max == 0);
    assert_true(st_a.t_start == 0 && st_a.t_end == 0);
    assert_true(st_a.user == 0 && st_a.sys == 0);
    assert_true(st_a.hist.count == 0 && st_a.hist.bins[PL_HIST_NR - 1] == 0);
    assert_true(st_a.errs[0].err == 0 && st_a.errs[0].n == 0);
    assert_true(pl_stats_mean(&st_a) == 0);

    pl_stats_record(&st_a, 4096, 1000);
    pl_stats_record(&st_a, 4096, 3000);
    pl_stats_record(&st_a, 512, 200);
    assert_true(st_a.ops == 3 && st_a.bytes == 8704);
    assert_true(st_a.lat_min == 200 && st_a.lat_max == 3000);
    assert_true(pl_stats_mean(&st_a) == 1400.0);
    assert_true(st_a.hist.count == 3);
}

static void test_stats_merge(void **state)
{
    (void)state;
    struct pl_rng r;
    pl_rng_seed(&r, 400);
    pl_stats_reset(&st_a);
    pl_stats_reset(&st_b);
    pl_stats_reset(&st_all);
    for (int i = 0; i < 10000; i++) {
        uint64_t v = draw(&r, D_EXP) + 1000, w = draw(&r, D_UNIFORM) + 50;
        pl_stats_record(&st_a, 4096, v);
        pl_stats_record(&st_b, 512, w);
        pl_stats_record(&st_all, 4096, v);
        pl_stats_record(&st_all, 512, w);
    }
    pl_stats_error(&st_a, EIO);
    pl_stats_error(&st_b, EIO);
    pl_stats_error(&st_b, ENOSPC);
    st_a.t_start = 5000;
    st_a.t_end = 9000;
    st_b.t_start = 6000;
    st_b.t_end = 12000;
    st_a.user = 1.25;
    st_b.user = 0.5;
    st_a.sys = 0.25;
    st_b.sys = 2.0;

    pl_stats_merge(&st_a, &st_b);
    assert_true(st_a.ops == st_all.ops && st_a.ops == 20000);
    assert_true(st_a.bytes == st_all.bytes);
    assert_true(st_a.lat_sum == st_all.lat_sum);
    assert_true(st_a.lat_min == st_all.lat_min);
    assert_true(st_a.lat_max == st_all.lat_max);
    assert_memory_equal(&st_a.hist, &st_all.hist, sizeof(st_a.hist));
    assert_true(st_a.errors == 3);
    assert_true(pl_stats_errcount(&st_a, EIO) == 2);
    assert_true(pl_stats_errcount(&st_a, ENOSPC) == 1);
    assert_true(st_a.t_start == 5000 && st_a.t_end == 12000);
    assert_true(st_a.user == 1.75 && st_a.sys == 2.25);
    assert_true(pl_stats_seconds(&st_a) == 7000 / 1e9);

    /* an unstarted, empty source changes neither the span nor min/max */
    pl_stats_reset(&st_b);
    uint64_t min = st_a.lat_min, max = st_a.lat_max;
    pl_stats_merge(&st_a, &st_b);
    assert_true(st_a.t_start == 5000 && st_a.t_end == 12000);
    assert_true(st_a.lat_min == min && st_a.lat_max == max);

    /* merging into a fresh total takes the source's start */
    pl_stats_reset(&st_all);
    st_b.t_start = 777;
    st_b.t_end = 888;
    st_b.lat_min = 10;
    st_b.lat_max = 20;
    pl_stats_merge(&st_all, &st_b);
    assert_true(st_all.t_start == 777 && st_all.t_end == 888);
    assert_true(st_all.lat_min == 10 && st_all.lat_max == 20);
    pl_stats_merge(&st_all, &st_a);
    assert_true(st_all.t_start == 777 && st_all.t_end == 12000);
    assert_true(st_all.lat_min == 10 && st_all.lat_max == max);
}

/* Two-pass sample stdev (n-1) of what was recorded, for comparison. */
static double stdev_ref(const uint64_t *v, size_t n)
{
    double m = 0, q = 0;
    for (size_t i = 0; i < n; i++)
        m += (double)v[i];
    m /= (double)n;
    for (size_t i = 0; i < n; i++)
        q += ((double)v[i] - m) * ((double)v[i] - m);
    return sqrt(q / (double)(n - 1));
}

static uint64_t sd_vals[20000];

static void test_stdev(void **state)
{
    (void)state;
    pl_stats_reset(&st_a);
    assert_true(pl_stats_stdev(&st_a) == 0);
    pl_stats_record(&st_a, 1, 500);
    assert_true(pl_stats_stdev(&st_a) == 0); /* one op: no spread */
    pl_stats_record(&st_a, 1, 700);
    assert_true(fabs(pl_stats_stdev(&st_a) - sqrt(20000.0)) < 1e-9); /* n-1, not n */
    /* 2, 4, 4, 4, 5, 5, 7, 9: population stdev 2, sample stdev sqrt(32/7) */
    static const uint64_t w[] = {2, 4, 4, 4, 5, 5, 7, 9};
    pl_stats_reset(&st_a);
    for (int i = 0; i < 8; i++)
        pl_stats_record(&st_a, 1, w[i]);
    assert_true(fabs(pl_stats_stdev(&st_a) - sqrt(32.0 / 7)) < 1e-12);

    /* a tiny spread on a huge mean (1 h +- 1 ns): a double sum of squares would have
       lost it to cancellation; the 128-bit sum keeps it */
    pl_stats_reset(&st_a);
    for (int i = 0; i < 1000; i++)
        pl_stats_record(&st_a, 1, 3600000000000ull + (uint64_t)(i & 1) * 2);
    assert_true(st_a.lat_sq_hi > 0); /* the low word did carry */
    assert_true(fabs(pl_stats_stdev(&st_a) - sqrt(1000.0 / 999)) < 1e-9);

    /* merged = recorded into one: exactly the same sums, and the reference's stdev */
    struct pl_rng r;
    pl_rng_seed(&r, 77);
    pl_stats_reset(&st_a);
    pl_stats_reset(&st_b);
    pl_stats_reset(&st_all);
    for (int i = 0; i < 20000; i++) {
        uint64_t v = draw(&r, i < 10000 ? D_EXP : D_UNIFORM) + 100;
        sd_vals[i] = v;
        pl_stats_record(i < 10000 ? &st_a : &st_b, 4096, v);
        pl_stats_record(&st_all, 4096, v);
    }
    pl_stats_merge(&st_a, &st_b);
    assert_true(st_a.lat_sq_lo == st_all.lat_sq_lo && st_a.lat_sq_hi == st_all.lat_sq_hi);
    double ref = stdev_ref(sd_vals, 20000);
    assert_true(ref > 0);
    assert_true(fabs(pl_stats_stdev(&st_a) - ref) < ref * 1e-9);
    assert_true(pl_stats_stdev(&st_a) == pl_stats_stdev(&st_all));
}

/* pl_moments (p.run's io_samples): min, max, mean, the exact stdev, and a merge
   that equals adding into one */
static void test_moments(void **state)
{
    (void)state;
    struct pl_moments a, b, all;
    pl_moments_reset(&a);
    assert_true(a.n == 0 && a.min == UINT64_MAX && pl_moments_mean(&a) == 0);
    assert_true(pl_moments_stdev(&a) == 0);
    static const uint64_t w[] = {2, 4, 4, 4, 5, 5, 7, 9};
    for (int i = 0; i < 8; i++)
        pl_moments_add(&a, w[i]);
    assert_true(a.n == 8 && a.min == 2 && a.max == 9 && a.sum == 40);
    assert_true(pl_moments_mean(&a) == 5.0);
    assert_true(fabs(pl_moments_stdev(&a) - sqrt(32.0 / 7)) < 1e-12);
    /* values whose squares carry into the high word */
    pl_moments_reset(&a);
    pl_moments_reset(&b);
    pl_moments_reset(&all);
    for (uint64_t i = 0; i < 1000; i++) {
        uint64_t v = 5000000000ull + (i & 1) * 2;
        pl_moments_add(i < 300 ? &a : &b, v);
        pl_moments_add(&all, v);
    }
    pl_moments_merge(&a, &b);
    assert_memory_equal(&a, &all, sizeof a);
    assert_true(all.sq_hi > 0);
    assert_true(fabs(pl_moments_stdev(&a) - sqrt(1000.0 / 999)) < 1e-9);
}

static void test_errno_counting(void **state)
{
    (void)state;
    pl_stats_reset(&st_a);
    assert_true(pl_stats_errcount(&st_a, EIO) == 0);
    for (int i = 0; i < 3; i++)
        pl_stats_error(&st_a, EIO);
    pl_stats_error(&st_a, ENOSPC);
    pl_stats_error(&st_a, -ENOSPC); /* -errno is taken as errno */
    assert_true(st_a.errors == 5);
    assert_true(st_a.ops == 0);
    assert_true(pl_stats_errcount(&st_a, EIO) == 3);
    assert_true(pl_stats_errcount(&st_a, ENOSPC) == 2);
    assert_true(pl_stats_errcount(&st_a, -ENOSPC) == 2);
    assert_true(pl_stats_errcount(&st_a, EAGAIN) == 0);
    assert_true(pl_stats_errcount(&st_a, 0) == 0);
    assert_true(st_a.errs[0].err == EIO && st_a.errs[1].err == ENOSPC);

    /* errno 0 is an error without a slot */
    pl_stats_error(&st_a, 0);
    assert_true(st_a.errors == 6);
    assert_true(st_a.errs[2].err == 0);

    /* fill every slot, then overflow into the last one */
    pl_stats_reset(&st_a);
    for (int e = 1; e <= PL_STATS_ERRNOS; e++)
        pl_stats_error(&st_a, e);
    for (int e = 1; e <= PL_STATS_ERRNOS; e++)
        assert_true(pl_stats_errcount(&st_a, e) == 1);
    pl_stats_error(&st_a, 100);
    pl_stats_error(&st_a, 101);
    pl_stats_error(&st_a, 1); /* a known errno still finds its slot */
    assert_true(st_a.errors == PL_STATS_ERRNOS + 3);
    assert_true(pl_stats_errcount(&st_a, 100) == 0);
    assert_true(pl_stats_errcount(&st_a, 1) == 2);
    assert_true(st_a.errs[PL_STATS_ERRNOS - 1].err == PL_STATS_ERRNOS);
    assert_true(pl_stats_errcount(&st_a, PL_STATS_ERRNOS) == 3);
    uint64_t sum = 0;
    for (int i = 0; i < PL_STATS_ERRNOS; i++)
        sum += st_a.errs[i].n;
    assert_true(sum == st_a.errors);

    /* merge adds per errno, including into a table with other errnos */
    pl_stats_reset(&st_b);
    pl_stats_error(&st_b, EIO);
    pl_stats_error(&st_b, EIO);
    pl_stats_error(&st_b, EROFS);
    pl_stats_reset(&st_all);
    pl_stats_error(&st_all, EROFS);
    pl_stats_merge(&st_all, &st_b);
    assert_true(st_all.errors == 4);
    assert_true(pl_stats_errcount(&st_all, EROFS) == 2);
    assert_true(pl_stats_errcount(&st_all, EIO) == 2);
}

static void test_seconds(void **state)
{
    (void)state;
    pl_stats_reset(&st_a);
    assert_true(pl_stats_seconds(&st_a) == 0);
    st_a.t_start = 1000000000;
    st_a.t_end = 3500000000;
    assert_true(pl_stats_seconds(&st_a) == 2.5);

    /* still running: measured up to now */
    st_a.t_start = pl_clock_ns();
    st_a.t_end = 0;
    pl_clock_sleep_ns(20000000, NULL);
    double s = pl_stats_seconds(&st_a);
    assert_true(s >= 0.02 && s < 5.0);
    assert_true(pl_stats_seconds(&st_a) >= s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_known),
        cmocka_unit_test(test_buckets_tile),
        cmocka_unit_test(test_round_trip_random),
        cmocka_unit_test(test_percentiles),
        cmocka_unit_test(test_percentile_small),
        cmocka_unit_test(test_hist_merge),
        cmocka_unit_test(test_stats_reset_record),
        cmocka_unit_test(test_stats_merge),
        cmocka_unit_test(test_stdev),
        cmocka_unit_test(test_moments),
        cmocka_unit_test(test_errno_counting),
        cmocka_unit_test(test_seconds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
