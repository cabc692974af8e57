/*
 * fio's steady-state criteria (steady.h), step by step as fio 3.33 takes
 * them, so that a series of samples reaches steady state at the same sample
 * and with the same criterion value as under fio.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "steady.h"

int pl_steady_init(struct pl_steady *ss, unsigned flags, double limit, unsigned dur)
{
    memset(ss, 0, sizeof *ss);
    if (!dur)
        return -EINVAL;
    ss->iops = calloc(dur, sizeof *ss->iops);
    ss->bw = calloc(dur, sizeof *ss->bw);
    if (!ss->iops || !ss->bw) {
        pl_steady_free(ss);
        return -ENOMEM;
    }
    ss->flags = flags;
    ss->limit = limit;
    ss->dur = dur;
    /* the x values are 0 .. dur-1: their sum and the sum of their squares */
    ss->sum_x = (uint64_t)dur * (dur - 1) / 2;
    ss->sum_x_sq = (uint64_t)(dur - 1) * dur * (2 * (uint64_t)dur - 1) / 6;
    return 0;
}

void pl_steady_free(struct pl_steady *ss)
{
    free(ss->iops);
    free(ss->bw);
    ss->iops = ss->bw = NULL;
}

static const uint64_t *series(const struct pl_steady *ss)
{
    return ss->flags & PL_SS_IOPS ? ss->iops : ss->bw;
}

/* The least-squares slope of the window, with fio's running sums. */
static void judge_slope(struct pl_steady *ss, uint64_t y)
{
    const uint64_t *v = series(ss);
    unsigned n = ss->dur;
    if (!ss->full) { /* the first full window: sum it whole (head is 0 here) */
        ss->sum_y = ss->sum_xy = 0;
        for (unsigned i = 0; i < n; i++) {
            ss->sum_y += v[i];
            ss->sum_xy += (uint64_t)i * v[(ss->head + i) % n];
        }
        ss->full = 1;
    } else { /* slide by one: every x drops by one, the new sample gets x = n-1 */
        ss->sum_y = ss->sum_y - ss->oldest_y + y;
        ss->sum_xy = ss->sum_xy - ss->sum_y + (uint64_t)n * y; /* wraps back, as fio's */
    }
    ss->oldest_y = v[ss->head];
    ss->slope = ((double)ss->sum_xy - (double)ss->sum_x * (double)ss->sum_y / n) /
                ((double)ss->sum_x_sq - (double)ss->sum_x * (double)ss->sum_x / n);
    /* fio divides by the mean truncated to an integer */
    ss->criterion = ss->flags & PL_SS_PCT ? 100.0 * ss->slope / (double)(ss->sum_y / n) : ss->slope;
}

/* The largest distance of a sample from the window's mean. */
static void judge_deviation(struct pl_steady *ss)
{
    const uint64_t *v = series(ss);
    unsigned n = ss->dur;
    if (!ss->full) {
        ss->sum_y = 0;
        for (unsigned i = 0; i < n; i++)
            ss->sum_y += v[i];
        ss->full = 1;
    } else {
        ss->sum_y = ss->sum_y - ss->oldest_y + v[ss->tail];
    }
    ss->oldest_y = v[ss->head];
    double mean = (double)ss->sum_y / n;
    ss->deviation = 0.0;
    for (unsigned i = 0; i < n; i++) {
        double d = (double)v[i] - mean;
        if (d < 0)
            d = -d;
        if (d > ss->deviation)
            ss->deviation = d;
    }
    ss->criterion = ss->flags & PL_SS_PCT ? 100.0 * ss->deviation / mean : ss->deviation;
}

int pl_steady_add(struct pl_steady *ss, uint64_t iops, uint64_t bw)
{
    if (ss->attained || !ss->dur)
        return ss->attained;
    ss->iops[ss->tail] = iops;
    ss->bw[ss->tail] = bw;
    ss->added++;
    if (ss->full || ss->tail - ss->head == ss->dur - 1) {
        double c;
        if (ss->flags & PL_SS_SLOPE) {
            judge_slope(ss, ss->flags & PL_SS_IOPS ? iops : bw);
            c = ss->criterion < 0 ? -ss->criterion : ss->criterion;
        } else {
            judge_deviation(ss);
            c = ss->criterion;
        }
        if (c < ss->limit) { /* NaN (a zero mean) never is */
            ss->attained = 1;
            return 1;
        }
    }
    ss->tail = (ss->tail + 1) % ss->dur;
    if (ss->tail <= ss->head)
        ss->head = (ss->head + 1) % ss->dur;
    return 0;
}

void pl_steady_window(const struct pl_steady *ss, uint64_t *iops, uint64_t *bw)
{
    unsigned n = ss->dur, j = ss->head;
    /* after a step that did not end the check, head is the second oldest */
    if (ss->full && !ss->attained)
        j = j ? j - 1 : n - 1;
    for (unsigned k = 0; k < n; k++) {
        iops[k] = ss->iops[(j + k) % n];
        bw[k] = ss->bw[(j + k) % n];
    }
}

uint64_t pl_steady_mean(const struct pl_steady *ss, int iops)
{
    const uint64_t *v = iops ? ss->iops : ss->bw;
    uint64_t sum = 0;
    if (!ss->dur)
        return 0;
    for (unsigned i = 0; i < ss->dur; i++)
        sum += v[i];
    return sum / ss->dur;
}
