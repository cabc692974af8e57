/*
 * fio's log files, formatted in C (iolog.h): the lines of each log go into
 * a buffer of its own, written out when the next line might not fit.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hot.h"
#include "iolog.h"

#define LOG_BUF (64 * 1024)
#define LINE_MAX_LEN 128 /* five 20-digit numbers and their separators fit */

struct avgwin {
    uint64_t n;
    double sum;
    uint64_t last_ms; /* where the direction's window began */
};

struct logbuf {
    int fd;
    size_t used;
    char *buf;
    struct avgwin win[2]; /* averaged lat, clat, slat: per direction */
};

struct pl_iolog {
    struct pl_log_spec s;
    struct logbuf b[PL_LOG_KINDS];
    int err;
    /* averaged bw and iops: the open window of the grid */
    uint64_t grid_end_ns;
    uint64_t bytes[2], ops[2];
};

static void flush_buf(struct pl_iolog *g, struct logbuf *b)
{
    const char *p = b->buf;
    size_t left = b->used;
    while (left > 0) {
        ssize_t w = write(b->fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (!g->err)
                g->err = w < 0 ? -errno : -EIO;
            break;
        }
        p += w;
        left -= (size_t)w;
    }
    b->used = 0;
}

static char *put_u64(char *p, uint64_t v)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *p++ = tmp[--n];
    return p;
}

static char *put_sep(char *p, uint64_t v)
{
    *p++ = ',';
    *p++ = ' ';
    return put_u64(p, v);
}

/* One line: time, value, ddir, bs[, offset], prio (always 0: no priorities here). */
PL_HOT static void line(struct pl_iolog *g, struct logbuf *b, uint64_t ms, uint64_t val, int dir,
                        uint64_t bs, uint64_t off)
{
    if (b->used + LINE_MAX_LEN > LOG_BUF)
        flush_buf(g, b);
    char *p = b->buf + b->used;
    p = put_u64(p, ms);
    p = put_sep(p, val);
    p = put_sep(p, (uint64_t)dir);
    p = put_sep(p, bs);
    if (g->s.offset)
        p = put_sep(p, off);
    p = put_sep(p, 0);
    *p++ = '\n';
    b->used = (size_t)(p - b->buf);
}

int pl_iolog_open(struct pl_iolog **out, const struct pl_log_spec *s)
{
    *out = NULL;
    int any = 0;
    for (int k = 0; k < PL_LOG_KINDS; k++)
        any |= s->fd[k] >= 0;
    if (!any)
        return -EINVAL;
    struct pl_iolog *g = calloc(1, sizeof *g);
    if (!g)
        return -ENOMEM;
    g->s = *s;
    for (int k = 0; k < PL_LOG_KINDS; k++) {
        g->b[k].fd = s->fd[k];
        if (s->fd[k] >= 0 && !(g->b[k].buf = malloc(LOG_BUF))) {
            for (int j = 0; j < k; j++)
                free(g->b[j].buf);
            free(g);
            return -ENOMEM;
        }
    }
    g->grid_end_ns = s->avg_ms * 1000000u;
    *out = g;
    return 0;
}

int pl_iolog_wants_slat(const struct pl_iolog *g)
{
    return g && g->b[PL_LOG_SLAT].fd >= 0;
}

/* Averaged lat/clat/slat: the window's line, and a new window. */
static void avg_emit(struct pl_iolog *g, struct logbuf *b, int dir, uint64_t ms)
{
    struct avgwin *w = &b->win[dir];
    if (w->n)
        line(g, b, ms, (uint64_t)(w->sum / (double)w->n + 0.5), dir, 0, 0);
    w->n = 0;
    w->sum = 0;
}

PL_HOT static void avg_add(struct pl_iolog *g, struct logbuf *b, int dir, uint64_t ms, uint64_t val)
{
    struct avgwin *w = &b->win[dir];
    w->n++;
    w->sum += (double)val;
    if (ms < w->last_ms || ms - w->last_ms < g->s.avg_ms)
        return;
    avg_emit(g, b, dir, ms);
    w->last_ms = ms - ms % g->s.avg_ms;
}

/* Averaged bw and iops: every grid window that ended by t_ns. */
static void grid_close(struct pl_iolog *g, uint64_t t_ns)
{
    uint64_t win_ns = g->s.avg_ms * 1000000u;
    while (g->grid_end_ns <= t_ns) {
        uint64_t ms = g->grid_end_ns / 1000000u;
        for (int d = 0; d < 2; d++) {
            if (!g->ops[d])
                continue; /* fio: no line for a direction that did nothing */
            if (g->b[PL_LOG_BW].fd >= 0)
                line(g, &g->b[PL_LOG_BW], ms, g->bytes[d] * 1000u / g->s.avg_ms / 1024u, d, 0, 0);
            if (g->b[PL_LOG_IOPS].fd >= 0)
                line(g, &g->b[PL_LOG_IOPS], ms, g->ops[d] * 1000u / g->s.avg_ms, d, 0, 0);
            g->bytes[d] = g->ops[d] = 0;
        }
        if (t_ns - g->grid_end_ns > 64 * win_ns) /* a long gap: skip the empty windows */
            g->grid_end_ns += (t_ns - g->grid_end_ns) / win_ns * win_ns;
        g->grid_end_ns += win_ns;
    }
}

PL_HOT void pl_iolog_done(struct pl_iolog *g, uint64_t t_ns, int dir, uint64_t bytes, uint64_t off,
                          uint64_t lat_ns, uint64_t clat_ns)
{
    uint64_t ms = t_ns / 1000000u;
    struct logbuf *b = g->b;
    if (!g->s.avg_ms) {
        if (b[PL_LOG_LAT].fd >= 0)
            line(g, &b[PL_LOG_LAT], ms, lat_ns, dir, bytes, off);
        if (b[PL_LOG_CLAT].fd >= 0)
            line(g, &b[PL_LOG_CLAT], ms, clat_ns, dir, bytes, off);
        if (b[PL_LOG_BW].fd >= 0)
            line(g, &b[PL_LOG_BW], ms, clat_ns ? bytes * 1000000u / clat_ns : 0, dir, bytes, off);
        if (b[PL_LOG_IOPS].fd >= 0)
            line(g, &b[PL_LOG_IOPS], ms, 1, dir, bytes, off);
        return;
    }
    if (b[PL_LOG_LAT].fd >= 0)
        avg_add(g, &b[PL_LOG_LAT], dir, ms, lat_ns);
    if (b[PL_LOG_CLAT].fd >= 0)
        avg_add(g, &b[PL_LOG_CLAT], dir, ms, clat_ns);
    if (b[PL_LOG_BW].fd >= 0 || b[PL_LOG_IOPS].fd >= 0) {
        if (t_ns >= g->grid_end_ns)
            grid_close(g, t_ns);
        g->bytes[dir] += bytes;
        g->ops[dir]++;
    }
}

PL_HOT void pl_iolog_submitted(struct pl_iolog *g, uint64_t t_ns, int dir, uint64_t bytes,
                               uint64_t off, uint64_t slat_ns)
{
    struct logbuf *b = &g->b[PL_LOG_SLAT];
    if (b->fd < 0)
        return;
    uint64_t ms = t_ns / 1000000u;
    if (!g->s.avg_ms)
        line(g, b, ms, slat_ns, dir, bytes, off);
    else
        avg_add(g, b, dir, ms, slat_ns);
}

int pl_iolog_close(struct pl_iolog *g, uint64_t t_ns)
{
    if (!g)
        return 0;
    if (g->s.avg_ms) {
        uint64_t ms = t_ns / 1000000u;
        for (int k = PL_LOG_LAT; k <= PL_LOG_SLAT; k++)
            if (g->b[k].fd >= 0)
                for (int d = 0; d < 2; d++)
                    avg_emit(g, &g->b[k], d, ms);
        if (g->b[PL_LOG_BW].fd >= 0 || g->b[PL_LOG_IOPS].fd >= 0)
            grid_close(g, t_ns);
    }
    for (int k = 0; k < PL_LOG_KINDS; k++)
        if (g->b[k].fd >= 0) {
            flush_buf(g, &g->b[k]);
            free(g->b[k].buf);
        }
    int err = g->err;
    free(g);
    return err;
}
