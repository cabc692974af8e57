/*
 * Operation counters and the log-linear latency histogram: bucket math,
 * percentiles by nearest rank, per-errno error counts and merging of the
 * per-worker statistics into a total.
 */
#include "stats.h"

#include <math.h>
#include <string.h>

#include "clock.h"
#include "hot.h"

/* Values below this have a bucket of their own (two groups of PL_HIST_SUB). */
#define HIST_LINEAR_END ((uint64_t)PL_HIST_SUB * 2)

unsigned pl_hist_index(uint64_t ns)
{
    if (ns < HIST_LINEAR_END)
        return (unsigned)ns;
    if (ns >> (PL_HIST_MSB + 1))
        return PL_HIST_NR - 1;

    unsigned msb = 63u - (unsigned)__builtin_clzll(ns);
    unsigned shift = msb - PL_HIST_BITS;
    unsigned group = shift + 1;
    return (group << PL_HIST_BITS) + (unsigned)((ns >> shift) & (PL_HIST_SUB - 1));
}

/* Width of bucket idx as a power of two: log2 of the number of values it holds. */
static unsigned hist_shift(unsigned idx)
{
    unsigned group = idx >> PL_HIST_BITS;
    return group < 2 ? 0 : group - 1;
}

uint64_t pl_hist_lower(unsigned idx)
{
    if (idx >= PL_HIST_NR)
        idx = PL_HIST_NR - 1;
    if (idx < HIST_LINEAR_END)
        return idx;

    unsigned shift = hist_shift(idx);
    uint64_t top = (uint64_t)1 << (shift + PL_HIST_BITS);
    uint64_t sub = idx & (PL_HIST_SUB - 1);
    return top + (sub << shift);
}

uint64_t pl_hist_value(unsigned idx)
{
    if (idx >= PL_HIST_NR)
        idx = PL_HIST_NR - 1;
    uint64_t width = (uint64_t)1 << hist_shift(idx);
    return pl_hist_lower(idx) + width / 2;
}

void pl_hist_reset(struct pl_hist *h)
{
    memset(h, 0, sizeof(*h));
}

PL_HOT void pl_hist_add(struct pl_hist *h, uint64_t ns)
{
    h->bins[pl_hist_index(ns)]++;
    h->count++;
}

void pl_hist_merge(struct pl_hist *dst, const struct pl_hist *src)
{
    for (unsigned i = 0; i < PL_HIST_NR; i++)
        dst->bins[i] += src->bins[i];
    dst->count += src->count;
}

uint64_t pl_hist_percentile(const struct pl_hist *h, double p)
{
    if (h->count == 0)
        return 0;
    if (!(p > 0)) /* also catches NaN */
        p = 0;
    if (p > 100)
        p = 100;

    /*
     * Nearest rank: the smallest value with at least p% of the samples at or
     * below it. Multiplying before dividing keeps p = 99.9 and friends exact
     * for round counts; the tiny slack absorbs what rounding is left.
     */
    double want = p * (double)h->count / 100.0;
    uint64_t rank = (uint64_t)ceil(want - 1e-9);
    if (rank < 1)
        rank = 1;
    if (rank > h->count)
        rank = h->count;

    uint64_t seen = 0;
    for (unsigned i = 0; i < PL_HIST_NR; i++) {
        seen += h->bins[i];
        if (seen >= rank)
            return pl_hist_value(i);
    }
    /* count disagrees with the bins (corrupt or hand-edited): best effort */
    for (unsigned i = PL_HIST_NR; i-- > 0;)
        if (h->bins[i])
            return pl_hist_value(i);
    return 0;
}

void pl_stats_reset(struct pl_stats *s)
{
    memset(s, 0, sizeof(*s));
    s->lat_min = UINT64_MAX;
}

/* Add n failures with errno err to the per-errno table (not to s->errors). */
static void errs_add(struct pl_stats *s, int err, uint64_t n)
{
    for (unsigned i = 0; i < PL_STATS_ERRNOS; i++) {
        struct pl_errcount *c = &s->errs[i];
        if (c->err == err || c->err == 0) {
            c->err = err;
            c->n += n;
            return;
        }
    }
    s->errs[PL_STATS_ERRNOS - 1].n += n;
}

void pl_stats_error(struct pl_stats *s, int err)
{
    s->errors++;
    if (err < 0)
        err = -err;
    if (err > 0)
        errs_add(s, err, 1);
}

uint64_t pl_stats_errcount(const struct pl_stats *s, int err)
{
    if (err < 0)
        err = -err;
    if (err == 0)
        return 0;
    for (unsigned i = 0; i < PL_STATS_ERRNOS; i++)
        if (s->errs[i].err == err)
            return s->errs[i].n;
    return 0;
}

void pl_stats_merge(struct pl_stats *dst, const struct pl_stats *src)
{
    dst->ops += src->ops;
    dst->bytes += src->bytes;
    dst->errors += src->errors;
    dst->lat_sum += src->lat_sum;
    uint64_t lo = dst->lat_sq_lo + src->lat_sq_lo;
    dst->lat_sq_hi += src->lat_sq_hi + (lo < dst->lat_sq_lo);
    dst->lat_sq_lo = lo;
    if (src->lat_min < dst->lat_min)
        dst->lat_min = src->lat_min;
    if (src->lat_max > dst->lat_max)
        dst->lat_max = src->lat_max;

    if (src->t_start && (!dst->t_start || src->t_start < dst->t_start))
        dst->t_start = src->t_start;
    if (src->t_end > dst->t_end)
        dst->t_end = src->t_end;

    dst->user += src->user;
    dst->sys += src->sys;

    for (unsigned i = 0; i < PL_STATS_ERRNOS; i++)
        if (src->errs[i].err > 0)
            errs_add(dst, src->errs[i].err, src->errs[i].n);

    pl_hist_merge(&dst->hist, &src->hist);
}

double pl_stats_mean(const struct pl_stats *s)
{
    if (s->ops == 0)
        return 0;
    return (double)s->lat_sum / (double)s->ops;
}

/* sqrt(sum (x - mean)^2 / (n - 1)) from n, sum(x) and the 128-bit sum(x^2) */
static double stdev_of(uint64_t n, uint64_t sum, uint64_t sq_lo, uint64_t sq_hi)
{
    if (n < 2)
        return 0;
    /* (n-1) var = sum(x^2) - sum(x)^2 / n, in integers: with q, r the quotient and
       remainder of sum^2 / n, sum(x^2) >= q (Cauchy-Schwarz), and the difference
       minus r/n is the exact value, which only then becomes a floating number */
    unsigned __int128 sq = ((unsigned __int128)sq_hi << 64) | sq_lo;
    unsigned __int128 sum2 = (unsigned __int128)sum * sum;
    unsigned __int128 q = sum2 / n, r = sum2 % n;
    if (sq < q) /* counters edited by hand (or overflowed): no answer better than 0 */
        return 0;
    long double m2 = (long double)(sq - q) - (long double)r / (long double)n;
    if (m2 <= 0)
        return 0;
    return (double)sqrtl(m2 / (long double)(n - 1));
}

double pl_stats_stdev(const struct pl_stats *s)
{
    return stdev_of(s->ops, s->lat_sum, s->lat_sq_lo, s->lat_sq_hi);
}

void pl_moments_reset(struct pl_moments *m)
{
    memset(m, 0, sizeof *m);
    m->min = UINT64_MAX;
}

void pl_moments_merge(struct pl_moments *dst, const struct pl_moments *src)
{
    dst->n += src->n;
    dst->sum += src->sum;
    uint64_t lo = dst->sq_lo + src->sq_lo;
    dst->sq_hi += src->sq_hi + (lo < dst->sq_lo);
    dst->sq_lo = lo;
    if (src->min < dst->min)
        dst->min = src->min;
    if (src->max > dst->max)
        dst->max = src->max;
}

double pl_moments_mean(const struct pl_moments *m)
{
    return m->n ? (double)m->sum / (double)m->n : 0;
}

double pl_moments_stdev(const struct pl_moments *m)
{
    return stdev_of(m->n, m->sum, m->sq_lo, m->sq_hi);
}

double pl_stats_seconds(const struct pl_stats *s)
{
    if (s->t_start == 0)
        return 0;
    uint64_t end = s->t_end ? s->t_end : pl_clock_ns();
    if (end <= s->t_start)
        return 0;
    return (double)(end - s->t_start) / 1e9;
}
