/*
 * A time series: per-interval ops, bytes and latency (mean, min, max, p50,
 * p99) of what a phase or a p.run completed, on a fixed grid from its start
 * (p.phase's and p.run's `interval`, --interval). Exact from the per-op
 * records: each interval's latencies go into one reusable histogram (the
 * stats scheme, reset when the interval closes), whose percentiles are taken
 * then, so a kept interval is a small fixed record. The last, partial,
 * interval is kept too (ending at the finish), so the intervals sum exactly
 * to the phase's ops and bytes.
 */
#ifndef PLATTER_CORE_SERIES_H
#define PLATTER_CORE_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

/* One interval: what completed in (t_ns - its length, t_ns] from the start. */
struct pl_series_point {
    uint64_t t_ns; /* the interval's end, from the series' start (the finish for the last) */
    uint64_t ops, bytes, lat_sum;
    uint64_t lat_min, lat_max; /* 0 without ops */
    uint64_t p50, p99;         /* ns, as s:percentile takes them (clamped to min..max) */
};
#define PL_SERIES_MAX (1u << 20) /* intervals kept; later ones are counted as dropped */

struct pl_series {
    uint64_t interval_ns;
    uint64_t t0;                 /* clock time of the start */
    uint64_t next;               /* clock time the open interval ends */
    struct pl_series_point cur;  /* the open interval (its t_ns unused) */
    struct pl_hist *hist;        /* the open interval's latencies (malloc'd) */
    struct pl_series_point *pts; /* kept intervals (malloc'd), n of them */
    size_t n, cap;
    uint64_t dropped; /* intervals past PL_SERIES_MAX or lost to memory */
    int finished;
};

/* Start a series of interval_ns (> 0) at clock time t0. 0 or -ENOMEM. */
int pl_series_init(struct pl_series *s, uint64_t interval_ns, uint64_t t0);
/* Free what it owns; it stays valid and empty. */
void pl_series_free(struct pl_series *s);
/* Keep every interval that ended before now (the caller checked now > s->next). */
void pl_series_advance(struct pl_series *s, uint64_t now);
/* One completed operation at clock time now, of bytes, that took lat ns. */
static inline void pl_series_add(struct pl_series *s, uint64_t now, uint64_t bytes, uint64_t lat)
{
    if (now > s->next)
        pl_series_advance(s, now);
    struct pl_series_point *c = &s->cur;
    c->ops++;
    c->bytes += bytes;
    c->lat_sum += lat;
    if (lat < c->lat_min)
        c->lat_min = lat;
    if (lat > c->lat_max)
        c->lat_max = lat;
    pl_hist_add(s->hist, lat);
}
/* Counts timed elsewhere (a worker's stats) all at clock time now. */
void pl_series_merge(struct pl_series *s, uint64_t now, const struct pl_stats *st);
/* The end, at clock time end: the intervals up to it, and the partial last one. */
void pl_series_finish(struct pl_series *s, uint64_t end);

#endif
