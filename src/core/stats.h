/*
 * Counters and a log-linear latency histogram (fio's scheme): values below
 * 2*64 ns have a bucket each; above, each power of two is split into 64
 * linear buckets, so a bucket's midpoint is within 1/128 of any value in it.
 * Fixed size, no allocation: recording costs a few instructions.
 */
#ifndef PLATTER_CORE_STATS_H
#define PLATTER_CORE_STATS_H

#include <stdint.h>

#define PL_HIST_BITS 6 /* 64 sub-buckets per group */
#define PL_HIST_SUB (1u << PL_HIST_BITS)
#define PL_HIST_MSB 43 /* top group: 2^43 ns ~ 2.4 h */
#define PL_HIST_NR ((PL_HIST_MSB - PL_HIST_BITS + 2) * PL_HIST_SUB)
#define PL_STATS_ERRNOS 8 /* distinct errnos counted */

struct pl_hist {
    uint64_t count;
    uint64_t bins[PL_HIST_NR];
};

/* Bucket index for a value in ns (values past the top land in the last bucket). */
unsigned pl_hist_index(uint64_t ns);
/* Smallest value that falls into bucket idx. */
uint64_t pl_hist_lower(unsigned idx);
/* Representative value of bucket idx (its midpoint). */
uint64_t pl_hist_value(unsigned idx);

void pl_hist_reset(struct pl_hist *h);
void pl_hist_add(struct pl_hist *h, uint64_t ns);
void pl_hist_merge(struct pl_hist *dst, const struct pl_hist *src);
/*
 * Latency at percentile p (0..100, clamped), nearest-rank on buckets: the
 * value of the bucket holding the ceil(p/100 * count)-th smallest sample
 * (at least the 1st, so p = 0 gives the lowest non-empty bucket); 0 if empty.
 */
uint64_t pl_hist_percentile(const struct pl_hist *h, double p);

struct pl_errcount {
    int err; /* positive errno, 0 = free slot */
    uint64_t n;
};

struct pl_stats {
    uint64_t ops;                             /* completed operations (errors not included) */
    uint64_t bytes;                           /* bytes transferred */
    uint64_t errors;                          /* failed operations, all errnos */
    uint64_t lat_sum;                         /* ns, for the mean */
    uint64_t lat_sq_lo, lat_sq_hi;            /* sum of ns^2, 128 bits exact: the stdev */
    uint64_t lat_min;                         /* ns; UINT64_MAX while empty */
    uint64_t lat_max;                         /* ns */
    uint64_t t_start;                         /* pl_clock_ns() at start, 0 if not started */
    uint64_t t_end;                           /* pl_clock_ns() at stop, 0 while running */
    double user, sys;                         /* CPU seconds spent between start and stop */
    struct pl_errcount errs[PL_STATS_ERRNOS]; /* per-errno counts; extras go to the last */
    struct pl_hist hist;
};

void pl_stats_reset(struct pl_stats *s);
/* Record one successful operation of `bytes` bytes that took `ns`. */
static inline void pl_stats_record(struct pl_stats *s, uint64_t bytes, uint64_t ns)
{
    s->ops++;
    s->bytes += bytes;
    s->lat_sum += ns;
    unsigned __int128 sq = (unsigned __int128)ns * ns;
    uint64_t lo = s->lat_sq_lo + (uint64_t)sq;
    s->lat_sq_hi += (uint64_t)(sq >> 64) + (lo < s->lat_sq_lo);
    s->lat_sq_lo = lo;
    if (ns < s->lat_min)
        s->lat_min = ns;
    if (ns > s->lat_max)
        s->lat_max = ns;
    pl_hist_add(&s->hist, ns);
}
/*
 * Record one failed operation with errno err (a negative -errno is taken as
 * its positive; 0 counts in errors only). Each new errno takes the first free
 * slot of errs[]; once all are taken, further new errnos are added to the last
 * slot, which keeps its err, so its count means "that errno or later ones".
 */
void pl_stats_error(struct pl_stats *s, int err);
/* Count for errno err (0 if never seen; the last slot may include extras). */
uint64_t pl_stats_errcount(const struct pl_stats *s, int err);
/*
 * Add src into dst: counters summed, histograms merged, min/max combined,
 * the time span widened to cover both (earliest nonzero start, latest end),
 * CPU times summed, errno counts added slot by slot as by pl_stats_error.
 */
void pl_stats_merge(struct pl_stats *dst, const struct pl_stats *src);
/* Mean latency in ns (0 if empty). */
double pl_stats_mean(const struct pl_stats *s);
/*
 * Sample standard deviation of the latencies in ns, dividing by n-1 as fio
 * does (0 with fewer than 2 ops). Exact: the sum of squares is a 128-bit
 * integer, so no cancellation however small the spread is beside the mean.
 */
double pl_stats_stdev(const struct pl_stats *s);
/* Wall seconds between start and stop (or now, if still running). */
double pl_stats_seconds(const struct pl_stats *s);

/*
 * Running moments of a series of integers (p.run's io_samples: each I/O's
 * bandwidth): count, min, max, sum and the 128-bit sum of squares, so the
 * standard deviation is exact as pl_stats_stdev's.
 */
struct pl_moments {
    uint64_t n, min, max, sum; /* min UINT64_MAX while empty */
    uint64_t sq_lo, sq_hi;
};

void pl_moments_reset(struct pl_moments *m);
static inline void pl_moments_add(struct pl_moments *m, uint64_t v)
{
    m->n++;
    m->sum += v;
    unsigned __int128 sq = (unsigned __int128)v * v;
    uint64_t lo = m->sq_lo + (uint64_t)sq;
    m->sq_hi += (uint64_t)(sq >> 64) + (lo < m->sq_lo);
    m->sq_lo = lo;
    if (v < m->min)
        m->min = v;
    if (v > m->max)
        m->max = v;
}
void pl_moments_merge(struct pl_moments *dst, const struct pl_moments *src);
/* Mean (0 if empty) and sample standard deviation, n-1 (0 with fewer than 2). */
double pl_moments_mean(const struct pl_moments *m);
double pl_moments_stdev(const struct pl_moments *m);

#endif
