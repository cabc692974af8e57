/*
 * Unit tests of the progress line's time-series part (progress.h): a frame
 * with a series shows its last closed interval's MB/s and p99 after the
 * rates; an inner frame without one shows the series around it; none until
 * an interval closes; and on a narrow terminal the rates give way to it. The
 * line is written to fd 2, which the tests point at a pipe (80 columns, since
 * a pipe has no window size).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <fcntl.h>

#include "clock.h"
#include "progress.h"
#include "series.h"
#include "stats.h"

static int pipefd[2], saved_err = -1;

static int setup(void **state)
{
    (void)state;
    if (pipe(pipefd) != 0)
        return -1;
    fcntl(pipefd[0], F_SETFL, O_NONBLOCK); /* a read finds what was written, or nothing */
    saved_err = dup(2);
    dup2(pipefd[1], 2);
    unsetenv("PLATTER_PROGRESS_MS");
    pl_progress_init(1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    dup2(saved_err, 2);
    close(saved_err);
    close(pipefd[0]);
    close(pipefd[1]);
    return 0;
}

/* What was written to fd 2 since the last call: the text of the last report drawn. */
static void last_line(char *buf, size_t n)
{
    char raw[4096];
    ssize_t got = read(pipefd[0], raw, sizeof raw - 1);
    assert_true(got > 0);
    raw[got] = 0;
    /* a report is "\r" TEXT "\033[K"; keep the last TEXT */
    char *end = NULL, *p = raw;
    while ((p = strstr(p, "\033[K")) != NULL)
        end = p++;
    assert_non_null(end);
    *end = 0;
    char *start = strrchr(raw, '\r');
    assert_non_null(start);
    snprintf(buf, n, "%s", start + 1);
}

/* A series of 100 ms from t0 with i+1 ops of 4096 bytes taking lat ns in interval i. */
static void fill(struct pl_series *sr, uint64_t t0, int intervals, uint64_t lat)
{
    assert_int_equal(pl_series_init(sr, 100000000ull, t0), 0);
    for (int i = 0; i < intervals; i++)
        for (int k = 0; k <= i; k++)
            pl_series_add(sr, t0 + (uint64_t)i * 100000000ull + 1000 + (uint64_t)k, 4096, lat);
    /* an add in the next interval closes the last one asked for */
    pl_series_add(sr, t0 + (uint64_t)intervals * 100000000ull + 1, 4096, lat);
}

static void test_last_interval_after_the_rates(void **state)
{
    (void)state;
    struct pl_stats st;
    pl_stats_reset(&st);
    struct pl_series sr;
    uint64_t t0 = pl_clock_ns();
    int key;
    pl_progress_begin(&key, "fill", &st, 0);
    fill(&sr, t0, 3, 250000); /* 3 closed intervals; the last has 3 ops of 4096 B at 250 us */
    pl_progress_series(&key, &sr);
    st.ops = 10;
    st.bytes = 40960;
    pl_progress_report(t0 + 2000000000ull, NULL, -1);
    char line[512];
    last_line(line, sizeof line);
    /* 3 * 4096 B in 0.1 s = 0.12288 MB/s; p99 of three 250 us ops is 250 us */
    assert_non_null(strstr(line, "fill: "));
    assert_non_null(strstr(line, " IOPS, "));
    assert_non_null(strstr(line, "; last 100 ms: 0.1 MB/s, p99 250 us"));
    pl_progress_end(&key);
    pl_series_free(&sr);
    char drain[256];
    (void)!read(pipefd[0], drain, sizeof drain); /* the erase */
}

static void test_inner_frame_shows_the_outer_series(void **state)
{
    (void)state;
    struct pl_stats st, inner;
    pl_stats_reset(&st);
    pl_stats_reset(&inner);
    struct pl_series sr;
    uint64_t t0 = pl_clock_ns();
    int outer_key, inner_key;
    pl_progress_begin(&outer_key, "phase", &st, 0);
    pl_progress_series(&outer_key, NULL); /* none yet: nothing shown */
    pl_progress_report(t0 + 1000000000ull, NULL, -1);
    char line[512];
    last_line(line, sizeof line);
    assert_null(strstr(line, "; last"));
    fill(&sr, t0, 2, 3000000); /* the last closed interval: 2 ops at 3 ms */
    pl_progress_series(&outer_key, &sr);
    pl_progress_begin(&inner_key, "run", &inner, 0);
    pl_progress_report(t0 + 2000000000ull, NULL, -1);
    last_line(line, sizeof line);
    /* the unnamed run shows the phase's name and the phase's series */
    assert_non_null(strstr(line, "phase: "));
    assert_non_null(strstr(line, "; last 100 ms: 0.1 MB/s, p99 3.00 ms"));
    pl_progress_end(&inner_key);
    pl_progress_end(&outer_key);
    pl_series_free(&sr);
    char drain[256];
    (void)!read(pipefd[0], drain, sizeof drain);
}

static void test_narrow_line_drops_the_rates(void **state)
{
    (void)state;
    struct pl_stats st;
    pl_stats_reset(&st);
    struct pl_series sr;
    uint64_t t0 = pl_clock_ns();
    int key;
    /* with the rates the line passes 79 columns (104), without them it fits (73) */
    pl_progress_begin(&key, "long phase name", &st, 0);
    fill(&sr, t0, 1, 12000);
    pl_progress_series(&key, &sr);
    st.ops = 123456789;
    st.bytes = 123456789ull * 4096;
    pl_progress_report(t0 + 1000000000ull, NULL, 0.5);
    char line[512];
    last_line(line, sizeof line);
    assert_true(strlen(line) <= 79);
    assert_null(strstr(line, "IOPS"));
    assert_non_null(strstr(line, ", ETA "));
    assert_non_null(strstr(line, "; last 100 ms: 0.0 MB/s, p99 12 us"));
    pl_progress_end(&key);
    pl_series_free(&sr);
    char drain[256];
    (void)!read(pipefd[0], drain, sizeof drain);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_last_interval_after_the_rates),
        cmocka_unit_test(test_inner_frame_shows_the_outer_series),
        cmocka_unit_test(test_narrow_line_drops_the_rates),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
