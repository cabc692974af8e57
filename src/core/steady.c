/*
 * fio's steady-state criteria (steady.h), step by step as fio 3.33 takes
 * them, so that a series of samples reaches steady state at the same sample
 * and with the same criterion value as under fio.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

/* ---- groups judged as one (steady.h) ---- */

struct pl_steady_group *pl_ssg_new(unsigned n, unsigned flags, double limit, unsigned dur,
                                   uint64_t ramp_ns)
{
    if (!n || !dur) {
        errno = EINVAL;
        return NULL;
    }
    size_t head = sizeof(struct pl_steady_group) + (size_t)n * sizeof(struct pl_ssg_member);
    head = (head + 15) & ~(size_t)15;
    size_t size = head + 2 * (size_t)dur * sizeof(uint64_t);
    void *mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED)
        return NULL;
    struct pl_steady_group *g = mem; /* the mapping is zeroed */
    g->size = size;
    g->n = n;
    g->ramp_ns = ramp_ns;
    g->ss.flags = flags;
    g->ss.limit = limit;
    g->ss.dur = dur;
    g->ss.iops = (uint64_t *)((char *)mem + head);
    g->ss.bw = g->ss.iops + dur;
    g->ss.sum_x = (uint64_t)dur * (dur - 1) / 2;
    g->ss.sum_x_sq = (uint64_t)(dur - 1) * dur * (2 * (uint64_t)dur - 1) / 6;
    return g;
}

void pl_ssg_free(struct pl_steady_group *g)
{
    if (g)
        munmap(g, g->size);
}

static void ssg_lock(struct pl_steady_group *g)
{
    while (__atomic_exchange_n(&g->lock, 1, __ATOMIC_ACQUIRE))
        sched_yield();
}

static void ssg_unlock(struct pl_steady_group *g)
{
    __atomic_store_n(&g->lock, 0, __ATOMIC_RELEASE);
}

/* Second k can be judged: some member published it and no live member is still in it. */
static int ssg_ready(const struct pl_steady_group *g, uint64_t k)
{
    int any = 0;
    for (unsigned i = 0; i < g->n; i++) {
        const struct pl_ssg_member *m = &g->m[i];
        if (m->published > k && m->first <= k)
            any = 1;
        else if (m->live && m->first <= k)
            return 0;
    }
    return any;
}

/* Judge the next second of the grid with what its members published. */
static void ssg_judge(struct pl_steady_group *g)
{
    uint64_t k = g->judged++, ops = 0, bytes = 0;
    int any = 0;
    for (unsigned i = 0; i < g->n; i++) {
        const struct pl_ssg_member *m = &g->m[i];
        if (m->published > k && m->first <= k && m->published - k <= PL_SSG_RING) {
            ops += m->ops[k % PL_SSG_RING];
            bytes += m->bytes[k % PL_SSG_RING];
            any = 1;
        }
    }
    /* fio: samples begin with the check one second after ss_ramp has passed */
    if (!any || (g->ramp_ns && (k + 1) * 1000000000u < g->ramp_ns + 1000000000u))
        return;
    if (pl_steady_add(&g->ss, ops, bytes))
        __atomic_store_n(&g->attained, 1, __ATOMIC_RELAXED);
}

static void ssg_catch_up(struct pl_steady_group *g)
{
    while (!g->attained && ssg_ready(g, g->judged))
        ssg_judge(g);
}

uint64_t pl_ssg_join(struct pl_steady_group *g, unsigned i, uint64_t now)
{
    ssg_lock(g);
    if (!g->started) {
        g->started = 1;
        g->origin = now;
    }
    uint64_t k = now > g->origin ? (now - g->origin) / 1000000000u : 0;
    if (k < g->judged)
        k = g->judged; /* a second already judged: it contributes from the next */
    struct pl_ssg_member *m = &g->m[i];
    m->first = m->published = k;
    m->live = m->joined = 1;
    ssg_unlock(g);
    return g->origin + (k + 1) * 1000000000u;
}

int pl_ssg_publish(struct pl_steady_group *g, unsigned i, uint64_t k, uint64_t ops, uint64_t bytes)
{
    ssg_lock(g);
    struct pl_ssg_member *m = &g->m[i];
    /* a member this far ahead would overwrite a second not judged yet: judge it now */
    while (!g->attained && k >= g->judged + PL_SSG_RING)
        ssg_judge(g);
    if (k >= m->first) {
        m->ops[k % PL_SSG_RING] = ops;
        m->bytes[k % PL_SSG_RING] = bytes;
        m->published = k + 1;
    }
    ssg_catch_up(g);
    int done = g->attained;
    ssg_unlock(g);
    return done;
}

void pl_ssg_leave(struct pl_steady_group *g, unsigned i)
{
    ssg_lock(g);
    g->m[i].live = 0;
    ssg_catch_up(g);
    ssg_unlock(g);
}

int pl_ssg_copy(struct pl_steady_group *g, struct pl_steady *out)
{
    unsigned dur = g->ss.dur;
    uint64_t *iops = malloc(dur * sizeof *iops), *bw = malloc(dur * sizeof *bw);
    if (!iops || !bw) {
        free(iops);
        free(bw);
        return -ENOMEM;
    }
    ssg_lock(g);
    *out = g->ss;
    memcpy(iops, g->ss.iops, dur * sizeof *iops);
    memcpy(bw, g->ss.bw, dur * sizeof *bw);
    ssg_unlock(g);
    out->iops = iops;
    out->bw = bw;
    return 0;
}
