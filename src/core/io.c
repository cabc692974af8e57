/*
 * One-call I/O (io.h): build the one-I/O submission, time it, count it into
 * the active phases. Uses engine (psync, stdio), clock, stats, progress and
 * the interrupt flag.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "guard.h"
#include "hot.h"
#include "io.h"
#include "progress.h"

#define CHARS_CHUNK (UINT64_C(1) << 20)

extern const struct pl_engine_ops pl_engine_psync, pl_engine_stdio;

static struct pl_stats *phases[PL_IO_MAX_PHASES];
static struct pl_series *series[PL_IO_MAX_PHASES]; /* of phases[i], or NULL */
static unsigned nphases;
unsigned pl_io_series_on;

int pl_io_phase_add(struct pl_stats *st)
{
    if (nphases == PL_IO_MAX_PHASES)
        return -ENOSPC;
    series[nphases] = NULL;
    phases[nphases++] = st;
    return 0;
}

unsigned pl_io_phase_count(void)
{
    return nphases;
}

void pl_io_phase_remove(struct pl_stats *st)
{
    for (unsigned i = 0; i < nphases; i++) {
        if (phases[i] == st) {
            if (series[i])
                pl_io_series_on--;
            memmove(&phases[i], &phases[i + 1], (nphases - i - 1) * sizeof phases[0]);
            memmove(&series[i], &series[i + 1], (nphases - i - 1) * sizeof series[0]);
            nphases--;
            return;
        }
    }
}

void pl_io_phase_series(struct pl_stats *st, struct pl_series *sr)
{
    for (unsigned i = 0; i < nphases; i++) {
        if (phases[i] == st) {
            pl_io_series_on += (sr != NULL) - (series[i] != NULL);
            series[i] = sr;
            return;
        }
    }
}

void pl_io_series_feed(const struct pl_io *io, uint64_t now, uint64_t lat)
{
    if (io->res < 0)
        return; /* errors are not ops */
    for (unsigned i = 0; i < nphases; i++)
        if (series[i])
            pl_series_add(series[i], now, (uint64_t)io->res, lat);
}

static void absorb(const struct pl_stats *st, int fed)
{
    if (!fed && pl_io_series_on) {
        uint64_t now = pl_clock_ns();
        for (unsigned i = 0; i < nphases; i++)
            if (series[i])
                pl_series_merge(series[i], now, st);
    }
    for (unsigned i = 0; i < nphases; i++) {
        struct pl_stats *d = phases[i];
        uint64_t t0 = d->t_start, t1 = d->t_end;
        double u = d->user, s = d->sys;
        pl_stats_merge(d, st);
        d->t_start = t0; /* the phase keeps its own clock and CPU account */
        d->t_end = t1;
        d->user = u;
        d->sys = s;
    }
}

void pl_io_phase_absorb(const struct pl_stats *st)
{
    absorb(st, 0);
}

void pl_io_phase_absorb_fed(const struct pl_stats *st)
{
    absorb(st, 1);
}

/* Submit io on f with engine ops at queue depth 1; returns how long it took (ns). */
PL_HOT static uint64_t submit_one(const struct pl_engine_ops *ops, struct pl_file *f,
                                  struct pl_io *io)
{
    struct pl_file *files[1] = {f};
    struct pl_engine e = {.ops = ops, .files = files, .nfiles = 1, .qd = 1};
    uint64_t t0 = pl_clock_ns();
    ops->submit(&e, io);
    return pl_clock_ns() - t0;
}

/* Count a finished one-call I/O into every active phase. */
PL_HOT static void count(const struct pl_io *io, uint64_t ns)
{
    for (unsigned i = 0; i < nphases; i++)
        pl_io_count(phases[i], io, ns);
    if (__builtin_expect(pl_io_series_on != 0, 0)) /* a phase keeps a time series */
        pl_io_series_feed(io, pl_clock_ns(), ns);
    if (pl_progress_countdown && !--pl_progress_countdown)
        pl_progress_poll(); /* the progress line: a clock check every few hundred calls */
}

PL_HOT int64_t pl_io_rw(struct pl_file *f, enum pl_op op, enum pl_how how, uint64_t off,
                        uint64_t len, const void *src)
{
    struct pl_io io = {.op = op, .off = off, .len = len, .how = how};
    if (src) {
        io.buf = (void *)src;
    } else {
        int rc = pl_file_reserve(f, (size_t)len);
        if (rc < 0)
            return rc;
        io.buf = f->buf;
    }
    uint64_t ns = submit_one(&pl_engine_psync, f, &io);
    count(&io, ns);
    return io.res;
}

int64_t pl_io_repeat(struct pl_file *f, enum pl_op op, uint64_t calls, uint64_t len)
{
    int rc = pl_file_reserve(f, (size_t)len);
    if (rc < 0)
        return rc;
    struct pl_file *files[1] = {f};
    struct pl_engine e = {.ops = &pl_engine_psync, .files = files, .nfiles = 1, .qd = 1};
    struct pl_io io = {.op = op, .len = len, .how = PL_AT_POS, .buf = f->buf};
    uint64_t done = 0;
    int64_t err = 0;
    uint64_t t0 = pl_clock_ns();
    for (uint64_t i = 0; i < calls; i++) {
        pl_engine_psync.submit(&e, &io);
        if (io.res < 0) {
            err = io.res;
            break;
        }
        done += (uint64_t)io.res;
        if ((uint64_t)io.res < len)
            break; /* the end of the file, or a short write */
        if ((i & 4095) == 4095 && pl_interrupted)
            break; /* Ctrl-C ends a long run of calls soon: a short count */
    }
    uint64_t ns = pl_clock_ns() - t0;
    io.res = err && !done ? err : (int64_t)done;
    count(&io, ns);
    return io.res;
}

int64_t pl_io_rewrite(struct pl_file *f, uint64_t calls, uint64_t len, uint64_t *longest,
                      const char **failed)
{
    *longest = 0;
    *failed = NULL;
    int rc = pl_file_reserve(f, (size_t)len);
    if (rc < 0)
        return rc;
    struct pl_file *files[1] = {f};
    struct pl_engine e = {.ops = &pl_engine_psync, .files = files, .nfiles = 1, .qd = 1};
    uint64_t done = 0;
    int64_t err = 0;
    for (uint64_t i = 0; i < calls && !err; i++) {
        struct pl_io rd = {.op = PL_OP_READ, .len = len, .how = PL_AT_POS, .buf = f->buf};
        struct pl_io wr = {.op = PL_OP_WRITE, .len = len, .how = PL_AT_POS, .buf = f->buf};
        uint64_t t0 = pl_clock_ns();
        pl_engine_psync.submit(&e, &rd);
        uint64_t t1 = pl_clock_ns();
        count(&rd, t1 - t0);
        if (rd.res != (int64_t)len) {
            err = rd.res < 0 ? rd.res : 0;
            *failed = rd.res < 0 ? "read" : NULL;
            break; /* an error, or the end of the file */
        }
        int64_t at = pl_file_seek(f, -(int64_t)len, SEEK_CUR);
        if (at < 0) {
            err = at;
            *failed = "seek";
            break;
        }
        uint64_t t2 = pl_clock_ns();
        pl_engine_psync.submit(&e, &wr);
        uint64_t t3 = pl_clock_ns();
        count(&wr, t3 - t2);
        if (wr.res < 0) {
            err = wr.res;
            *failed = "write";
            break;
        }
        done += (uint64_t)wr.res;
        if (t3 - t0 > *longest)
            *longest = t3 - t0;
        if ((uint64_t)wr.res < len || pl_interrupted)
            break; /* a short write; Ctrl-C ends the run soon: a short count */
    }
    return err && !done ? err : (int64_t)done;
}

int pl_io_sync(struct pl_file *f, int data_only)
{
    struct pl_io io = {.op = PL_OP_FSYNC, .data_only = data_only};
    uint64_t ns = submit_one(&pl_engine_psync, f, &io);
    count(&io, ns);
    return (int)io.res;
}

int64_t pl_io_chars(struct pl_file *f, enum pl_op op, uint64_t n)
{
    uint64_t ns = 0, done = 0;
    struct pl_io io = {.op = op, .how = PL_AT_POS}; /* buf NULL: a pattern, count what is got */
    do {
        io.len = (f->target->flags & PL_TARGET_VIRTUAL) || n - done < CHARS_CHUNK ? n - done
                                                                                  : CHARS_CHUNK;
        ns += submit_one(&pl_engine_stdio, f, &io);
        if (io.res < 0)
            break;
        done += (uint64_t)io.res;
        pl_progress_add('c', (uint64_t)io.res);
        if ((uint64_t)io.res < io.len)
            break;
    } while (done < n && !pl_interrupted); /* Ctrl-C ends a long f:putc(n) soon: a short count */
    if (io.res >= 0)
        io.res = (int64_t)done;
    count(&io, ns);
    return io.res;
}
