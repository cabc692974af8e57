/*
 * Time series (series.h): the open interval's counters and histogram, closed
 * into a fixed record per interval. Uses stats only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "series.h"

static void cur_reset(struct pl_series *s)
{
    memset(&s->cur, 0, sizeof s->cur);
    s->cur.lat_min = UINT64_MAX;
}

int pl_series_init(struct pl_series *s, uint64_t interval_ns, uint64_t t0)
{
    memset(s, 0, sizeof *s);
    if (pl_budget_try(sizeof *s->hist))
        return -ENOMEM;
    s->hist = malloc(sizeof *s->hist);
    if (!s->hist) {
        pl_budget_give(sizeof *s->hist);
        return -ENOMEM;
    }
    pl_hist_reset(s->hist);
    s->interval_ns = interval_ns ? interval_ns : 1;
    s->t0 = t0;
    s->next = t0 + s->interval_ns;
    cur_reset(s);
    return 0;
}

void pl_series_free(struct pl_series *s)
{
    pl_budget_give((s->hist ? sizeof *s->hist : 0) + s->cap * sizeof *s->pts);
    free(s->hist);
    free(s->pts);
    s->hist = NULL;
    s->pts = NULL;
    s->n = s->cap = 0;
}

/* s:percentile's rule: the bucket's value, kept within min..max */
static uint64_t pct(const struct pl_series *s, double p)
{
    uint64_t v = pl_hist_percentile(s->hist, p);
    if (v < s->cur.lat_min)
        v = s->cur.lat_min;
    if (v > s->cur.lat_max)
        v = s->cur.lat_max;
    return v;
}

/* Keep the open interval as ending at clock time end, and open the next. */
static void keep(struct pl_series *s, uint64_t end)
{
    struct pl_series_point *c = &s->cur;
    c->t_ns = end - s->t0;
    if (c->ops) {
        c->p50 = pct(s, 50);
        c->p99 = pct(s, 99);
        pl_hist_reset(s->hist); /* only an interval with ops touched it */
    } else {
        c->lat_min = 0;
    }
    if (s->n == s->cap && s->n < PL_SERIES_MAX) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        struct pl_series_point *p = NULL;
        if (pl_budget_try((cap - s->cap) * sizeof *p) == 0) { /* else: dropped */
            p = realloc(s->pts, cap * sizeof *p);
            if (!p)
                pl_budget_give((cap - s->cap) * sizeof *p);
        }
        if (p) {
            s->pts = p;
            s->cap = cap;
        }
    }
    if (s->n < s->cap)
        s->pts[s->n++] = *c;
    else
        s->dropped++;
    cur_reset(s);
}

void pl_series_advance(struct pl_series *s, uint64_t now)
{
    if (s->finished)
        return;
    while (s->next < now) {
        if (s->n >= PL_SERIES_MAX && !s->cur.ops) { /* past the cap: count them all at once */
            uint64_t k = (now - s->next - 1) / s->interval_ns + 1;
            s->dropped += k;
            s->next += k * s->interval_ns;
            break;
        }
        keep(s, s->next);
        s->next += s->interval_ns;
    }
}

void pl_series_merge(struct pl_series *s, uint64_t now, const struct pl_stats *st)
{
    if (!st->ops)
        return;
    if (now > s->next)
        pl_series_advance(s, now);
    struct pl_series_point *c = &s->cur;
    c->ops += st->ops;
    c->bytes += st->bytes;
    c->lat_sum += st->lat_sum;
    if (st->lat_min < c->lat_min)
        c->lat_min = st->lat_min;
    if (st->lat_max > c->lat_max)
        c->lat_max = st->lat_max;
    pl_hist_merge(s->hist, &st->hist);
}

void pl_series_finish(struct pl_series *s, uint64_t end)
{
    if (s->finished || !s->hist)
        return;
    if (end > s->next)
        pl_series_advance(s, end);
    uint64_t start = s->next - s->interval_ns;
    if (end > start || s->cur.ops) /* the last interval, partial or whole */
        keep(s, end > start ? end : start);
    s->finished = 1;
    free(s->hist); /* the intervals are kept; the histogram is not needed again */
    pl_budget_give(sizeof *s->hist);
    s->hist = NULL;
}
