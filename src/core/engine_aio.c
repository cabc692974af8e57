/*
 * libaio engine (Linux native AIO through Debian's libaio): queue depth > 1
 * from one thread, as fio's "libaio". Each I/O gets the iocb of its slot,
 * is queued and handed to the kernel with io_submit once `batch` are queued
 * (1 by default, as io_uring's); reap submits what is still queued and
 * waits with io_getevents. Reads and writes are truly asynchronous only on
 * files opened with O_DIRECT; on the page cache io_submit itself does the
 * copy, as with fio. libaio itself is loaded when the first job sets the
 * engine up (lazylib.h).
 *
 * fsync is IOCB_CMD_FSYNC (IOCB_CMD_FDSYNC for data_only), which kernels
 * since 4.18 run on a work queue. Where the kernel refuses it (EINVAL from
 * io_submit: an older kernel, or a file system without aio fsync) the engine
 * falls back to fsync(2)/fdatasync(2) in the submitting call for the rest of
 * the job, as fio's libaio does for every fsync: that fsync does not wait for
 * I/O still in flight (the job loop drains before fsync_every's fsync).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "hot.h"
#include "lazylib.h"

#define EAGAIN_TRIES 100000 /* io_submit EAGAIN with nothing in flight: ~0.1 s of retries */

struct aio {
    const struct pl_libaio *lib; /* io_setup, io_submit, io_getevents, io_destroy */
    io_context_t ctx;
    int ctx_ok;
    struct iocb *iocbs;    /* one per slot */
    struct iocb **pending; /* queued, not yet submitted, in order */
    unsigned npending;     /* of pending */
    unsigned inflight;     /* submitted to the kernel, not yet reaped */
    struct io_event *events;
    struct pl_io **done; /* finished without the kernel's queue (fsync fallback,
                               an iocb io_submit refused): handed out by the next reap */
    unsigned ndone;
    unsigned batch; /* submit once this many are queued */
    int fsync_sync; /* the kernel refused aio fsync: fsync(2) instead */
};

static char why_buf[512];

static int is_sync_cmd(const struct iocb *cb)
{
    return cb->aio_lio_opcode == IO_CMD_FSYNC || cb->aio_lio_opcode == IO_CMD_FDSYNC;
}

static int aio_init(struct pl_engine *e, const char **why)
{
    struct aio *a = calloc(1, sizeof *a);
    if (!a)
        return -ENOMEM;
    e->data = a;
    const char *err = NULL;
    if (!(a->lib = pl_libaio(&err))) {
        snprintf(why_buf, sizeof why_buf, "the libaio engine needs " PL_LIBAIO_SONAME ": %s", err);
        *why = why_buf;
        return -ENOENT;
    }
    unsigned qd = e->qd ? e->qd : 1;
    a->iocbs = calloc(qd, sizeof *a->iocbs);
    a->pending = calloc(qd, sizeof *a->pending);
    a->events = calloc(qd, sizeof *a->events);
    a->done = calloc(qd, sizeof *a->done);
    if (!a->iocbs || !a->pending || !a->events || !a->done)
        return -ENOMEM;
    int rc = a->lib->io_setup((int)qd, &a->ctx);
    if (rc < 0) {
        snprintf(why_buf, sizeof why_buf,
                 "io_setup(%u) failed: %s (the system's AIO limit is "
                 "/proc/sys/fs/aio-max-nr)",
                 qd, strerror(-rc));
        *why = why_buf;
        return rc;
    }
    a->ctx_ok = 1;
    a->batch = e->batch_submit ? e->batch_submit : 1;
    if (a->batch > qd)
        a->batch = qd;
    return 0;
}

/* fsync(2) or fdatasync(2) of io's file, now: the fallback. */
static void sync_now(struct pl_engine *e, struct pl_io *io)
{
    int fd = e->files[io->findex]->fd;
    io->res = (io->data_only ? fdatasync(fd) : fsync(fd)) < 0 ? -errno : 0;
}

/* The first pending iocb finished without the kernel's queue: off the list, onto done. */
static void finish_first(struct aio *a)
{
    a->done[a->ndone++] = a->pending[0]->data;
    a->npending--;
    memmove(a->pending, a->pending + 1, a->npending * sizeof *a->pending);
}

/*
 * Hand what is queued to the kernel. 0 when all of it went, or some is left
 * for after a reap (EAGAIN with I/O in flight); -errno when the kernel keeps
 * refusing with nothing in flight.
 */
PL_HOT static int aio_commit(struct pl_engine *e)
{
    struct aio *a = e->data;
    unsigned tries = 0;
    while (a->npending) {
        int rc = a->lib->io_submit(a->ctx, (long)a->npending, a->pending);
        if (rc > 0) {
            pl_engine_mark_submit(e, (unsigned)rc);
            a->inflight += (unsigned)rc;
            a->npending -= (unsigned)rc;
            memmove(a->pending, a->pending + rc, a->npending * sizeof *a->pending);
            continue;
        }
        if (rc == 0 || rc == -EINTR)
            continue;
        if (rc == -EAGAIN) {
            if (a->inflight)
                return 0; /* the reap that follows makes room */
            if (++tries > EAGAIN_TRIES)
                return rc;
            struct timespec ts = {0, 1000};
            nanosleep(&ts, NULL);
            continue;
        }
        struct iocb *cb = a->pending[0];
        struct pl_io *io = cb->data;
        if (rc == -EINVAL && is_sync_cmd(cb)) {
            a->fsync_sync = 1; /* no aio fsync here: fsync(2) from now on */
            sync_now(e, io);
        } else {
            io->res = rc; /* this iocb was refused: it fails, the rest go on */
        }
        finish_first(a);
    }
    return 0;
}

PL_HOT static int aio_submit(struct pl_engine *e, struct pl_io *io)
{
    struct aio *a = e->data;
    if (io->slot >= e->qd)
        return -EINVAL;
    if (a->npending + a->inflight + a->ndone >= e->qd)
        return PL_Q_BUSY;
    int fd = e->files[io->findex]->fd;
    struct iocb *cb = &a->iocbs[io->slot];
    switch (io->op) {
    case PL_OP_READ: io_prep_pread(cb, fd, io->buf, (size_t)io->len, (long long)io->off); break;
    case PL_OP_WRITE: io_prep_pwrite(cb, fd, io->buf, (size_t)io->len, (long long)io->off); break;
    case PL_OP_FSYNC:
        if (a->fsync_sync) {
            sync_now(e, io);
            return PL_Q_DONE;
        }
        if (io->data_only)
            io_prep_fdsync(cb, fd);
        else
            io_prep_fsync(cb, fd);
        break;
    default: return -EINVAL;
    }
    cb->data = io;
    a->pending[a->npending++] = cb;
    if (a->npending >= a->batch) {
        int rc = aio_commit(e);
        if (rc < 0)
            return rc;
    }
    return PL_Q_QUEUED;
}

PL_HOT static int aio_reap(struct pl_engine *e, unsigned min, struct pl_io **out, unsigned max)
{
    struct aio *a = e->data;
    int rc = aio_commit(e);
    if (rc < 0)
        return rc;
    unsigned got = 0;
    while (a->ndone && got < max) {
        out[got++] = a->done[0];
        a->ndone--;
        memmove(a->done, a->done + 1, a->ndone * sizeof *a->done);
    }
    if (got >= max || !a->inflight)
        return (int)got;
    unsigned want = got >= min ? 0 : min - got;
    if (want > a->inflight)
        want = a->inflight; /* never wait for I/O that is not in the kernel */
    unsigned room = max - got;
    if (room > a->inflight)
        room = a->inflight;
    rc = a->lib->io_getevents(a->ctx, (long)want, (long)room, a->events, NULL);
    if (rc < 0)
        return rc == -EINTR ? (int)got : rc;
    for (int i = 0; i < rc; i++) {
        struct pl_io *io = a->events[i].data;
        io->res = (int64_t)(long)a->events[i].res; /* bytes, or -errno */
        out[got++] = io;
    }
    a->inflight -= (unsigned)rc;
    return (int)got;
}

static void aio_cleanup(struct pl_engine *e)
{
    struct aio *a = e->data;
    if (!a)
        return;
    if (a->ctx_ok) {
        /* the loop drains first; anything still in the kernel is waited for */
        while (a->inflight) {
            int rc = a->lib->io_getevents(a->ctx, 1, (long)a->inflight, a->events, NULL);
            if (rc < 0 && rc != -EINTR)
                break;
            if (rc > 0)
                a->inflight -= (unsigned)rc;
        }
        a->lib->io_destroy(a->ctx);
    }
    free(a->iocbs);
    free(a->pending);
    free(a->events);
    free(a->done);
    free(a);
    e->data = NULL;
}

const struct pl_engine_ops pl_engine_aio = {
    .name = "libaio",
    .flags = PL_ENGINE_FDS | PL_ENGINE_COMMITS,
    .init = aio_init,
    .submit = aio_submit,
    .reap = aio_reap,
    .cleanup = aio_cleanup,
};
