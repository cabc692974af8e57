/*
 * Unit tests of fio's steady-state criteria (steady.h) on known series: when
 * the window fills, the least-squares slope against a direct computation,
 * fio's percentage slope over the integer mean (not the exact one), the
 * largest deviation, the sliding sums after many samples, a limit not met,
 * a zero mean, and the window's order as fio's JSON lists it; and a group of
 * jobs judged as one (fio's group_reporting): the members' seconds summed on
 * the group's grid, a second judged only once every live member closed it,
 * members that joined late or left, and the stop every member sees.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "steady.h"

/* The least-squares slope of y[0..n-1] against x = 0..n-1, computed directly. */
static double ls_slope(const double *y, unsigned n)
{
    double mx = (n - 1) / 2.0, my = 0, sxy = 0, sxx = 0;
    for (unsigned i = 0; i < n; i++)
        my += y[i] / n;
    for (unsigned i = 0; i < n; i++) {
        sxy += (i - mx) * (y[i] - my);
        sxx += (i - mx) * (i - mx);
    }
    return sxy / sxx;
}

static void test_slope_fills_then_judges(void **state)
{
    (void)state;
    struct pl_steady ss;
    assert_int_equal(pl_steady_init(&ss, PL_SS_IOPS | PL_SS_SLOPE | PL_SS_PCT, 5.0, 3), 0);
    assert_int_equal(pl_steady_add(&ss, 100, 1), 0);
    assert_int_equal(pl_steady_add(&ss, 110, 1), 0);
    assert_false(ss.full); /* two of three: nothing judged yet */
    assert_true(ss.criterion == 0.0);
    assert_int_equal(pl_steady_add(&ss, 120, 1), 0);
    assert_true(ss.full);
    assert_true(fabs(ss.slope - 10.0) < 1e-12);
    assert_true(fabs(ss.criterion - 100.0 * 10.0 / 110.0) < 1e-9); /* 9.09% >= 5% */
    /* 110, 120, 120: slope 5 over the integer mean 350 / 3 = 116, as fio divides */
    assert_int_equal(pl_steady_add(&ss, 120, 1), 1);
    assert_true(ss.attained);
    assert_true(fabs(ss.slope - 5.0) < 1e-12);
    assert_true(fabs(ss.criterion - 500.0 / 116.0) < 1e-9);
    assert_false(fabs(ss.criterion - 500.0 / (350.0 / 3.0)) < 1e-6);
    assert_int_equal(pl_steady_add(&ss, 999, 1), 1); /* ended: nothing more is taken */
    assert_int_equal(ss.added, 4);
    uint64_t iops[3], bw[3];
    pl_steady_window(&ss, iops, bw); /* attained: the window that met it, oldest first */
    assert_int_equal(iops[0], 110);
    assert_int_equal(iops[1], 120);
    assert_int_equal(iops[2], 120);
    assert_int_equal(pl_steady_mean(&ss, 1), 116);
    pl_steady_free(&ss);
}

/* The running sums slide over many samples: the slope each time equals a direct fit. */
static void test_slope_sliding_matches_direct_fit(void **state)
{
    (void)state;
    enum { N = 7, T = 200 };
    struct pl_steady ss;
    assert_int_equal(pl_steady_init(&ss, PL_SS_SLOPE, 1e-9, N), 0); /* bw, absolute */
    uint64_t y[T];
    uint64_t x = 12345;
    for (int t = 0; t < T; t++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        y[t] = 1000000 + (x >> 40) % 50000 + (uint64_t)t * 300; /* rising: never level */
        assert_int_equal(pl_steady_add(&ss, 7, y[t]), 0);
        if (t >= N - 1) {
            double w[N];
            for (int i = 0; i < N; i++)
                w[i] = (double)y[t - N + 1 + i];
            double want = ls_slope(w, N);
            assert_true(fabs(ss.slope - want) < 1e-6 * fabs(want) + 1e-6);
            assert_true(ss.criterion == ss.slope);
        }
    }
    uint64_t iops[N], bw[N];
    pl_steady_window(&ss, iops, bw); /* not attained, full: the last N, oldest first */
    for (int i = 0; i < N; i++) {
        assert_int_equal(bw[i], y[T - N + i]);
        assert_int_equal(iops[i], 7);
    }
    pl_steady_free(&ss);
}

/* A falling series: the slope is negative and its size is what is compared. */
static void test_slope_negative_absolute(void **state)
{
    (void)state;
    struct pl_steady ss;
    assert_int_equal(pl_steady_init(&ss, PL_SS_IOPS | PL_SS_SLOPE, 2.5, 4), 0);
    const uint64_t v[] = {1000, 997, 994, 991}; /* slope -3 */
    for (int i = 0; i < 4; i++)
        assert_int_equal(pl_steady_add(&ss, v[i], 0), 0);
    assert_true(fabs(ss.slope + 3.0) < 1e-12);
    assert_true(fabs(ss.criterion + 3.0) < 1e-12);
    assert_false(ss.attained); /* |-3| is not below 2.5 */
    /* 997, 994, 991, 990: slope -2.4, whose size is below 2.5 */
    assert_int_equal(pl_steady_add(&ss, 990, 0), 1);
    assert_true(fabs(ss.slope - ls_slope((const double[]){997, 994, 991, 990}, 4)) < 1e-9);
    assert_true(fabs(ss.slope + 2.4) < 1e-9);
    pl_steady_free(&ss);
}

static void test_deviation(void **state)
{
    (void)state;
    struct pl_steady ss;
    /* bw within 1% of the mean: 1000, 1010, 990 -> mean 1000, max deviation 10 = 1% */
    assert_int_equal(pl_steady_init(&ss, PL_SS_PCT, 1.0, 3), 0);
    assert_int_equal(pl_steady_add(&ss, 0, 1000), 0);
    assert_int_equal(pl_steady_add(&ss, 0, 1010), 0);
    assert_int_equal(pl_steady_add(&ss, 0, 990), 0); /* 1% is not below 1% */
    assert_true(fabs(ss.deviation - 10.0) < 1e-12);
    assert_true(fabs(ss.criterion - 1.0) < 1e-12);
    assert_true(ss.slope == 0.0);
    /* 1010, 990, 1001: mean 1000.33, farthest 990 */
    assert_int_equal(pl_steady_add(&ss, 0, 1001), 0);
    assert_true(fabs(ss.deviation - (3001.0 / 3 - 990)) < 1e-9);
    /* 990, 1001, 1000: mean 997, farthest 990 by 7: 0.702% */
    assert_int_equal(pl_steady_add(&ss, 0, 1000), 1);
    assert_true(fabs(ss.criterion - 700.0 / 997.0) < 1e-9);
    uint64_t iops[3], bw[3];
    pl_steady_window(&ss, iops, bw);
    assert_int_equal(bw[0], 990);
    assert_int_equal(bw[1], 1001);
    assert_int_equal(bw[2], 1000);
    assert_int_equal(pl_steady_mean(&ss, 0), 997);
    pl_steady_free(&ss);
}

/* Absolute IOPS deviation; and a zero mean never counts as steady (NaN). */
static void test_deviation_absolute_and_zero(void **state)
{
    (void)state;
    struct pl_steady ss;
    assert_int_equal(pl_steady_init(&ss, PL_SS_IOPS, 3.0, 2), 0);
    assert_int_equal(pl_steady_add(&ss, 500, 0), 0);
    assert_int_equal(pl_steady_add(&ss, 506, 0), 0); /* 3 from the mean: not below 3 */
    assert_int_equal(pl_steady_add(&ss, 501, 0), 1); /* 506, 501: 2.5 */
    assert_true(fabs(ss.criterion - 2.5) < 1e-12);
    pl_steady_free(&ss);

    assert_int_equal(pl_steady_init(&ss, PL_SS_IOPS | PL_SS_PCT, 50.0, 2), 0);
    assert_int_equal(pl_steady_add(&ss, 0, 0), 0);
    assert_int_equal(pl_steady_add(&ss, 0, 0), 0);
    assert_false(ss.attained);
    pl_steady_free(&ss);
}

/* Before the window fills: the samples from the start, zeros after, means over dur. */
static void test_window_not_full(void **state)
{
    (void)state;
    struct pl_steady ss;
    assert_int_equal(pl_steady_init(&ss, PL_SS_IOPS | PL_SS_SLOPE, 1.0, 4), 0);
    assert_int_equal(pl_steady_add(&ss, 10, 100), 0);
    assert_int_equal(pl_steady_add(&ss, 20, 200), 0);
    uint64_t iops[4], bw[4];
    pl_steady_window(&ss, iops, bw);
    assert_int_equal(iops[0], 10);
    assert_int_equal(iops[1], 20);
    assert_int_equal(iops[2], 0);
    assert_int_equal(bw[3], 0);
    assert_int_equal(pl_steady_mean(&ss, 1), 7); /* 30 / 4 */
    assert_int_equal(pl_steady_mean(&ss, 0), 75);
    pl_steady_free(&ss);
    assert_int_equal(pl_steady_init(&ss, 0, 1.0, 0), -22); /* dur 0: EINVAL */
}

#define SEC 1000000000ull

static void test_group_sums_members(void **state)
{
    (void)state;
    struct pl_steady_group *g = pl_ssg_new(2, PL_SS_IOPS | PL_SS_PCT, 5.0, 2, 0);
    assert_non_null(g);
    /* both start within the first second; the grid is the first one's */
    assert_int_equal(pl_ssg_join(g, 0, 100), 100 + SEC);
    assert_int_equal(pl_ssg_join(g, 1, 300), 100 + SEC);
    /* member 0 closes seconds 0 and 1 before member 1: nothing is judged yet */
    assert_int_equal(pl_ssg_publish(g, 0, 0, 1000, 4096000), 0);
    assert_int_equal(pl_ssg_publish(g, 0, 1, 1000, 4096000), 0);
    assert_int_equal(g->ss.added, 0);
    /* member 1 closes second 0: it is judged as 1000 + 900 */
    assert_int_equal(pl_ssg_publish(g, 1, 0, 900, 3686400), 0);
    assert_int_equal(g->ss.added, 1);
    assert_int_equal(g->ss.iops[0], 1900);
    assert_int_equal(g->ss.bw[0], 7782400);
    /* second 1: 1000 + 960 = 1960, within 5% of the mean 1930: both stop */
    assert_int_equal(pl_ssg_publish(g, 1, 1, 960, 3932160), 1);
    assert_int_equal(pl_ssg_attained(g), 1);
    struct pl_steady c;
    assert_int_equal(pl_ssg_copy(g, &c), 0);
    uint64_t iops[2], bw[2];
    pl_steady_window(&c, iops, bw);
    assert_int_equal(iops[0], 1900);
    assert_int_equal(iops[1], 1960);
    assert_true(c.attained);
    pl_steady_free(&c);
    pl_ssg_free(g);
}

static void test_group_late_and_leaving(void **state)
{
    (void)state;
    struct pl_steady_group *g = pl_ssg_new(3, PL_SS_IOPS, 0.0, 3, 0); /* never met */
    assert_non_null(g);
    pl_ssg_join(g, 0, 0);
    /* member 2 never joins: no second waits for it; member 0 alone is judged */
    assert_int_equal(pl_ssg_publish(g, 0, 0, 10, 1), 0);
    assert_int_equal(g->ss.added, 1);
    /* member 1 joins in second 2 (a second already judged would be skipped) */
    assert_int_equal(pl_ssg_join(g, 1, 2 * SEC + 5), 3 * SEC);
    assert_int_equal(pl_ssg_publish(g, 0, 1, 10, 1), 0);
    assert_int_equal(g->ss.added, 2);
    assert_int_equal(pl_ssg_publish(g, 0, 2, 10, 1), 0);
    assert_int_equal(g->ss.added, 2); /* member 1 is still in second 2 */
    assert_int_equal(pl_ssg_publish(g, 1, 2, 7, 1), 0);
    assert_int_equal(g->ss.added, 3);
    assert_int_equal(g->ss.iops[2], 17);
    /* member 0 runs ahead; member 1 leaves in second 3: its part of it is not counted */
    assert_int_equal(pl_ssg_publish(g, 0, 3, 10, 1), 0);
    assert_int_equal(g->ss.added, 3);
    pl_ssg_leave(g, 1);
    assert_int_equal(g->ss.added, 4);
    assert_int_equal(g->ss.iops[0], 10); /* the ring wrapped: second 3 is at 0 */
    pl_ssg_free(g);
}

static void test_group_ring_forces(void **state)
{
    (void)state;
    struct pl_steady_group *g = pl_ssg_new(2, PL_SS_IOPS, 0.0, 2, 0);
    assert_non_null(g);
    pl_ssg_join(g, 0, 0);
    pl_ssg_join(g, 1, 0);
    /* member 1 closes no second: member 0 waits for it until it would overwrite a
       second not judged yet, which is then judged without member 1 */
    for (uint64_t k = 0; k < PL_SSG_RING; k++)
        pl_ssg_publish(g, 0, k, 5, 1);
    assert_int_equal(g->ss.added, 0);
    pl_ssg_publish(g, 0, PL_SSG_RING, 5, 1);
    pl_ssg_publish(g, 0, PL_SSG_RING + 1, 5, 1);
    assert_int_equal(g->ss.added, 2);
    assert_int_equal(g->ss.iops[0], 5);
    assert_int_equal(g->judged, 2);
    pl_ssg_free(g);
}

static void test_group_bad_args(void **state)
{
    (void)state;
    assert_null(pl_ssg_new(0, PL_SS_IOPS, 1.0, 2, 0));
    assert_null(pl_ssg_new(2, PL_SS_IOPS, 1.0, 0, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slope_fills_then_judges),
        cmocka_unit_test(test_slope_sliding_matches_direct_fit),
        cmocka_unit_test(test_slope_negative_absolute),
        cmocka_unit_test(test_deviation),
        cmocka_unit_test(test_deviation_absolute_and_zero),
        cmocka_unit_test(test_window_not_full),
        cmocka_unit_test(test_group_sums_members),
        cmocka_unit_test(test_group_late_and_leaving),
        cmocka_unit_test(test_group_ring_forces),
        cmocka_unit_test(test_group_bad_args),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
