/*
 * io_uring engine (liburing): queue depth > 1 from one thread. By default the
 * files and the job's buffers are registered with the ring (READ_FIXED /
 * WRITE_FIXED on fixed files) and submissions are batched, the tuning fio
 * needs --fixedbufs --registerfiles --iodepth_batch_submit for.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <liburing.h>

#include "engine.h"
#include "hot.h"

struct uring {
    struct io_uring ring;
    int ring_ok;
    int fixed_files, fixed_bufs;
    int defer;              /* IORING_SETUP_DEFER_TASKRUN: completions wait for us to ask */
    unsigned queued;        /* prepared but not yet submitted */
};

/*
 * The ring is set up as fio 3.33 sets up its own: one task submits
 * (SINGLE_ISSUER), and completion work runs when that task asks for
 * completions rather than by interrupting it (DEFER_TASKRUN, COOP_TASKRUN).
 * Worth a few per cent at QD 32 here (docs/performance.md). Kernels before
 * 6.1 refuse these flags: then fewer, then none.
 */
static int ring_init(struct uring *u, unsigned entries)
{
    static const unsigned tries[] = {
        IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN,
        IORING_SETUP_COOP_TASKRUN,
        0,
    };
    int rc = -EINVAL;
    for (unsigned i = 0; i < sizeof tries / sizeof tries[0]; i++) {
        struct io_uring_params p;
        memset(&p, 0, sizeof p);
        p.flags = tries[i];
        rc = io_uring_queue_init_params(entries, &u->ring, &p);
        if (rc == 0) {
            u->defer = (tries[i] & IORING_SETUP_DEFER_TASKRUN) != 0;
            return 0;
        }
        if (rc != -EINVAL)
            break;  /* not a matter of flags (ENOMEM, EPERM, ENOSYS) */
    }
    return rc;
}

static int uring_init(struct pl_engine *e, const char **why)
{
    struct uring *u = calloc(1, sizeof *u);
    if (!u)
        return -ENOMEM;
    e->data = u;
    int rc = ring_init(u, e->qd < 2 ? 2 : e->qd);
    if (rc < 0) {
        *why = "io_uring_queue_init failed (is io_uring disabled on this kernel?)";
        return rc;
    }
    u->ring_ok = 1;

    int *fds = malloc(e->nfiles * sizeof *fds);
    if (!fds)
        return -ENOMEM;
    for (unsigned i = 0; i < e->nfiles; i++)
        fds[i] = e->files[i]->fd;
    u->fixed_files = io_uring_register_files(&u->ring, fds, e->nfiles) == 0;
    free(fds);

    struct iovec *iov = malloc(e->qd * sizeof *iov);
    if (!iov)
        return -ENOMEM;
    for (unsigned i = 0; i < e->qd; i++) {
        iov[i].iov_base = e->bufs[i];
        iov[i].iov_len = e->buflen;
    }
    /* Registering pins memory (RLIMIT_MEMLOCK); without it plain reads still work. */
    u->fixed_bufs = io_uring_register_buffers(&u->ring, iov, e->qd) == 0;
    free(iov);
    return 0;
}

PL_HOT static int uring_commit(struct pl_engine *e)
{
    struct uring *u = e->data;
    if (!u->queued)
        return 0;
    int rc = io_uring_submit(&u->ring);
    if (rc < 0)
        return rc;
    u->queued = 0;
    return 0;
}

PL_HOT static int uring_submit(struct pl_engine *e, struct pl_io *io)
{
    struct uring *u = e->data;
    struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
    if (!sqe) {
        int rc = uring_commit(e);
        if (rc < 0)
            return rc;
        sqe = io_uring_get_sqe(&u->ring);
        if (!sqe)
            return PL_Q_BUSY;
    }
    int fd = u->fixed_files ? (int)io->findex : e->files[io->findex]->fd;
    if (io->op == PL_OP_FSYNC)
        io_uring_prep_fsync(sqe, fd, 0);
    else if (u->fixed_bufs && io->op == PL_OP_READ)
        io_uring_prep_read_fixed(sqe, fd, io->buf, (unsigned)io->len, io->off, (int)io->slot);
    else if (u->fixed_bufs)
        io_uring_prep_write_fixed(sqe, fd, io->buf, (unsigned)io->len, io->off, (int)io->slot);
    else if (io->op == PL_OP_READ)
        io_uring_prep_read(sqe, fd, io->buf, (unsigned)io->len, io->off);
    else
        io_uring_prep_write(sqe, fd, io->buf, (unsigned)io->len, io->off);
    if (u->fixed_files)
        sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data(sqe, io);
    u->queued++;
    unsigned batch = e->batch_submit ? e->batch_submit : (e->qd > 1 ? e->qd / 2 : 1);
    if (u->queued >= batch) {
        int rc = uring_commit(e);
        if (rc < 0)
            return rc;
    }
    return PL_Q_QUEUED;
}

PL_HOT static int uring_reap(struct pl_engine *e, unsigned min, struct pl_io **out, unsigned max)
{
    struct uring *u = e->data;
    struct io_uring_cqe *cqe;
    int rc;
    if (u->queued) {
        rc = io_uring_submit_and_wait(&u->ring, min);
        if (rc < 0 && rc != -EINTR)
            return rc;
        if (rc >= 0)
            u->queued = 0;
    } else if (min) {
        rc = io_uring_wait_cqe_nr(&u->ring, &cqe, min);
        if (rc < 0 && rc != -EINTR)
            return rc;
    }
    if (!min && u->defer) {
        /* a look without waiting: finished I/O is only posted when we enter */
        rc = io_uring_get_events(&u->ring);
        if (rc < 0 && rc != -EINTR)
            return rc;
    }
    struct io_uring_cqe *cqes[64];
    unsigned got = 0;
    while (got < max) {
        unsigned want = max - got < 64 ? max - got : 64;
        unsigned n = io_uring_peek_batch_cqe(&u->ring, cqes, want);
        if (!n)
            break;
        for (unsigned i = 0; i < n; i++) {
            struct pl_io *io = io_uring_cqe_get_data(cqes[i]);
            io->res = cqes[i]->res;
            out[got++] = io;
        }
        io_uring_cq_advance(&u->ring, n);
    }
    return (int)got;
}

static void uring_cleanup(struct pl_engine *e)
{
    struct uring *u = e->data;
    if (!u)
        return;
    if (u->ring_ok)
        io_uring_queue_exit(&u->ring);
    free(u);
    e->data = NULL;
}

const struct pl_engine_ops pl_engine_uring = {
    .name = "io_uring",
    .flags = PL_ENGINE_FDS,
    .init = uring_init,
    .submit = uring_submit,
    .reap = uring_reap,
    .cleanup = uring_cleanup,
};
