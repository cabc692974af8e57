/*
 * posixaio engine: POSIX asynchronous I/O as glibc provides it (aio_read,
 * aio_write, aio_fsync, aio_suspend), as fio's "posixaio". glibc runs each
 * request on a thread of its own pool (requests on one descriptor one after
 * another), so the kernel sees plain pread/pwrite/fsync calls from those
 * threads; what the engine adds over psync is the hand-over to the thread and
 * the wake-up on completion, which is what a fio posixaio job measures.
 *
 * Each I/O uses the aiocb of its slot. submit hands it to glibc (a call of its
 * own, so no COMMITS flag: every submit is one call of one I/O, and, as fio
 * counts an engine without a commit hook, also a completion call of one:
 * NO_COMMIT); reap looks at every slot in flight, from where the last one
 * stopped, and when fewer than min have finished waits in aio_suspend.
 *
 * glibc keeps finished threads idle for a second, waiting for work. A process
 * forked in that time has none of them but believes it has, and its first
 * request then never runs (tested on glibc 2.36: aio_suspend times out in the
 * child). So a process forked from one that used this engine refuses it,
 * naming why, instead of hanging; platter fio runs every job in a worker of
 * a parent that never uses it.
 */
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "hot.h"

#define SUSPEND_MAX 64 /* aiocbs one aio_suspend waits on (the first in flight) */

struct paio {
    struct aiocb *cbs;  /* one per slot */
    struct pl_io **ios; /* the I/O of each slot in flight, or NULL */
    unsigned inflight;
    unsigned next_scan; /* where the last reap stopped: no slot is starved */
};

/* The process that first used glibc's AIO (0: none): a child of it refuses it. */
static pid_t aio_user;

static int paio_init(struct pl_engine *e, const char **why)
{
    pid_t self = getpid();
    if (aio_user && aio_user != self) {
        *why = "the posixaio engine cannot run in a process forked from one that has "
               "used it (glibc's POSIX AIO threads do not survive fork): use it only in "
               "p.parallel's workers, or only outside p.parallel";
        return -EBUSY;
    }
    aio_user = self;
    struct paio *a = calloc(1, sizeof *a);
    if (!a)
        return -ENOMEM;
    e->data = a;
    unsigned qd = e->qd ? e->qd : 1;
    a->cbs = calloc(qd, sizeof *a->cbs);
    a->ios = calloc(qd, sizeof *a->ios);
    if (!a->cbs || !a->ios)
        return -ENOMEM;
    return 0;
}

PL_HOT static int paio_submit(struct pl_engine *e, struct pl_io *io)
{
    struct paio *a = e->data;
    if (io->slot >= e->qd)
        return -EINVAL;
    if (a->inflight >= e->qd)
        return PL_Q_BUSY;
    struct aiocb *cb = &a->cbs[io->slot];
    memset(cb, 0, sizeof *cb);
    cb->aio_fildes = e->files[io->findex]->fd;
    cb->aio_offset = (off_t)io->off;
    cb->aio_buf = io->buf;
    cb->aio_nbytes = (size_t)io->len;
    cb->aio_sigevent.sigev_notify = SIGEV_NONE;
    int rc;
    switch (io->op) {
    case PL_OP_READ: rc = aio_read(cb); break;
    case PL_OP_WRITE: rc = aio_write(cb); break;
    case PL_OP_FSYNC: rc = aio_fsync(io->data_only ? O_DSYNC : O_SYNC, cb); break;
    default: return -EINVAL;
    }
    if (rc < 0) {
        if (errno == EAGAIN && a->inflight)
            return PL_Q_BUSY; /* glibc's queue is full: after a reap */
        io->res = -errno;     /* refused: this I/O fails, the job goes on */
        return PL_Q_DONE;
    }
    a->ios[io->slot] = io;
    a->inflight++;
    return PL_Q_QUEUED;
}

/* The I/O of slot s, finished: its result, off the list. */
static struct pl_io *take(struct paio *a, unsigned s, int err)
{
    struct pl_io *io = a->ios[s];
    ssize_t r = aio_return(&a->cbs[s]); /* frees glibc's record of it, error or not */
    io->res = err ? -(int64_t)err : (int64_t)r;
    a->ios[s] = NULL;
    a->inflight--;
    return io;
}

PL_HOT static int paio_reap(struct pl_engine *e, unsigned min, struct pl_io **out, unsigned max)
{
    struct paio *a = e->data;
    unsigned got = 0;
    unsigned qd = e->qd;
    for (;;) {
        const struct aiocb *wait[SUSPEND_MAX];
        unsigned nwait = 0;
        for (unsigned k = 0; k < qd && got < max && a->inflight; k++) {
            unsigned s = (a->next_scan + k) % qd;
            if (!a->ios[s])
                continue;
            int err = aio_error(&a->cbs[s]);
            if (err == EINPROGRESS) {
                if (nwait < SUSPEND_MAX)
                    wait[nwait++] = &a->cbs[s];
                continue;
            }
            out[got++] = take(a, s, err);
            a->next_scan = (s + 1) % qd;
        }
        if (got >= min || got >= max || !a->inflight || !nwait)
            return (int)got;
        if (aio_suspend(wait, (int)nwait, NULL) < 0 && errno == EINTR)
            return (int)got; /* a signal: the loop looks at its stop flag */
    }
}

static void paio_cleanup(struct pl_engine *e)
{
    struct paio *a = e->data;
    if (!a)
        return;
    /* the loop drains first; anything still with glibc is waited for, since its
       buffer is about to be freed (a request already running cannot be cancelled) */
    for (unsigned s = 0; s < e->qd && a->inflight; s++) {
        if (!a->ios[s])
            continue;
        const struct aiocb *one[1] = {&a->cbs[s]};
        while (aio_error(&a->cbs[s]) == EINPROGRESS)
            aio_suspend(one, 1, NULL);
        take(a, s, 0);
    }
    free(a->cbs);
    free(a->ios);
    free(a);
    e->data = NULL;
}

const struct pl_engine_ops pl_engine_posixaio = {
    .name = "posixaio",
    .flags = PL_ENGINE_FDS | PL_ENGINE_NO_COMMIT,
    .init = paio_init,
    .submit = paio_submit,
    .reap = paio_reap,
    .cleanup = paio_cleanup,
};
