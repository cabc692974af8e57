/*
 * io_uring engine (liburing): queue depth > 1 from one thread. By default the
 * files and the job's buffers are registered with the ring (READ_FIXED /
 * WRITE_FIXED on fixed files), the tuning fio needs --fixedbufs
 * --registerfiles for, and each I/O is submitted as it is queued (batch 1,
 * measured best; a job may batch submissions). A job's
 * struct pl_uring_opts (the ops' opts) may ask for IORING_SETUP_IOPOLL
 * (completions polled from the device, checked to be possible before the
 * ring is made) or IORING_SETUP_SQPOLL (a kernel thread submits).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>

#include <liburing.h>

#include "device.h"
#include "engine.h"
#include "hot.h"
#include "ringbroker.h"

struct uring {
    struct io_uring ring;
    int ring_ok;
    int fixed_files, fixed_bufs;
    int enter_to_look; /* completions show only when we enter the kernel (DEFER_TASKRUN
                               posts them then; IOPOLL finds them by polling then) */
    unsigned batch;    /* submit once this many are queued */
    unsigned queued;   /* prepared but not yet submitted */
};

static const struct pl_uring_opts no_opts;

/* A reason with a name in it: *why must outlive the engine (the job reports it after
   cleanup), and one job at a time sets up an engine in a process. */
static char why_buf[2048];

/*
 * The default batch: 1, each I/O submitted as it is queued. Measured at QD 32
 * on the development VM (docs/performance.md, "W3: the submit batch"): batch
 * 1 against 2, 4, qd/4 and qd/2, interleaved, 1 was ahead and qd/2 (the
 * default before) last, by 12%. The loop's reap submits what is still queued in
 * the call that waits, so a larger batch saves no system call once the queue
 * is full (each cycle refills the few slots that completed); it only holds
 * I/Os back and hands them to the device together.
 */
static unsigned default_batch(unsigned qd)
{
    (void)qd;
    return 1;
}

/*
 * IORING_SETUP_IOPOLL makes the kernel poll the device's queue for
 * completions instead of taking an interrupt. The kernel accepts such a ring
 * anywhere and then fails each I/O with EOPNOTSUPP where it cannot poll:
 * check first that every file is O_DIRECT and on a block device whose queue
 * has poll queues (queue/io_poll is 1), and say which one is not.
 */
static int check_iopoll(const struct pl_engine *e, const char **why)
{
    for (unsigned i = 0; i < e->nfiles; i++) {
        const struct pl_file *f = e->files[i];
        if (!f->direct) {
            snprintf(why_buf, sizeof why_buf, "iopoll needs O_DIRECT: open %s with direct = true",
                     f->path);
            *why = why_buf;
            return -EINVAL;
        }
        struct stat st;
        if (fstat(f->fd, &st) < 0)
            return -errno;
        dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
        char q[512], path[600], val[16] = "";
        if (pl_device_queue_dir(major(dev), minor(dev), q, sizeof q) < 0) {
            snprintf(why_buf, sizeof why_buf,
                     "iopoll needs a block device with poll queues, "
                     "and %s is on no block device",
                     f->path);
            *why = why_buf;
            return -EOPNOTSUPP;
        }
        snprintf(path, sizeof path, "%s/io_poll", q);
        FILE *fp = fopen(path, "r");
        if (fp) {
            if (!fgets(val, sizeof val, fp))
                val[0] = '\0';
            fclose(fp);
            val[strcspn(val, "\n")] = '\0';
        }
        if (val[0] != '1') {
            /* the device's name: the directory above queue/ */
            char *end = strrchr(q, '/'), *name = q;
            if (end) {
                *end = '\0';
                char *s = strrchr(q, '/');
                name = s ? s + 1 : q;
            }
            snprintf(why_buf, sizeof why_buf,
                     "iopoll needs a device with poll queues, and %s "
                     "(under %s) has none (/sys/block/%s/queue/io_poll is %s; for NVMe, load "
                     "the driver with poll_queues=N)",
                     name, f->path, name, val[0] ? val : "missing");
            *why = why_buf;
            return -EOPNOTSUPP;
        }
    }
    return 0;
}

/*
 * The ring is set up as fio 3.33 sets up its own: one task submits
 * (SINGLE_ISSUER), and completion work runs when that task asks for
 * completions rather than by interrupting it (DEFER_TASKRUN, COOP_TASKRUN).
 * Worth a few per cent at QD 32 here (docs/performance.md). Kernels before
 * 6.1 refuse these flags: then fewer, then none. With SQPOLL the kernel's
 * thread submits and runs that work itself, so only SINGLE_ISSUER is asked
 * for (the kernel refuses the other two with it). IOPOLL goes with any set.
 * In a sandboxed run the broker sets the ring up with the same flags.
 */
static int ring_init(struct uring *u, unsigned entries, const struct pl_uring_opts *o)
{
    static const unsigned plain[] = {
        IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN,
        IORING_SETUP_COOP_TASKRUN,
        0,
    };
    static const unsigned sq[] = {
        IORING_SETUP_SQPOLL | IORING_SETUP_SINGLE_ISSUER,
        IORING_SETUP_SQPOLL,
    };
    const unsigned *tries = o->sqpoll ? sq : plain;
    unsigned n = o->sqpoll ? sizeof sq / sizeof sq[0] : sizeof plain / sizeof plain[0];
    int rc = -EINVAL;
    for (unsigned i = 0; i < n; i++) {
        struct io_uring_params p;
        memset(&p, 0, sizeof p);
        p.flags = tries[i] | (o->iopoll ? IORING_SETUP_IOPOLL : 0);
        p.sq_thread_idle = o->sq_idle_ms;
        rc = pl_ring_broker_on() ? pl_ring_broker_ring(entries, &p, &u->ring)
                                 : io_uring_queue_init_params(entries, &u->ring, &p);
        if (rc == 0) {
            u->enter_to_look = (p.flags & IORING_SETUP_DEFER_TASKRUN) || o->iopoll;
            return 0;
        }
        if (rc != -EINVAL)
            break; /* not a matter of flags (ENOMEM, EPERM, ENOSYS) */
    }
    return rc;
}

static int uring_init(struct pl_engine *e, const char **why)
{
    const struct pl_uring_opts *o = e->ops->opts ? e->ops->opts : &no_opts;
    struct uring *u = calloc(1, sizeof *u);
    if (!u)
        return -ENOMEM;
    e->data = u;
    if (o->iopoll) {
        int rc = check_iopoll(e, why);
        if (rc < 0)
            return rc;
    }
    int rc = ring_init(u, e->qd < 2 ? 2 : e->qd, o);
    if (rc < 0) {
        if (o->sqpoll)
            *why = "io_uring_queue_init with IORING_SETUP_SQPOLL failed (the kernel refused "
                   "a submission thread)";
        else
            *why = "io_uring_queue_init failed (is io_uring disabled on this kernel?)";
        return rc;
    }
    u->ring_ok = 1;
    u->batch = e->batch_submit ? e->batch_submit : default_batch(e->qd);
    if (u->batch > e->qd)
        u->batch = e->qd ? e->qd : 1;

    int *fds = malloc(e->nfiles * sizeof *fds);
    if (!fds)
        return -ENOMEM;
    for (unsigned i = 0; i < e->nfiles; i++)
        fds[i] = e->files[i]->fd;
    u->fixed_files = io_uring_register_files(&u->ring, fds, e->nfiles) == 0;
    free(fds);
    /* a broker's SQPOLL thread is the broker's: a plain descriptor number would name
       one of its files, not ours, so the files must be the ring's own */
    if (o->sqpoll && pl_ring_broker_on() && !u->fixed_files) {
        *why = "sqpoll in the sandbox needs the files registered with the ring, and "
               "registering them failed";
        return -EPERM;
    }

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
    pl_engine_mark_submit(e, (unsigned)rc);
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
        io_uring_prep_fsync(sqe, fd, io->data_only ? IORING_FSYNC_DATASYNC : 0);
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
    if (u->queued >= u->batch) {
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
        if (rc >= 0) {
            pl_engine_mark_submit(e, (unsigned)rc);
            u->queued = 0;
        }
    } else if (min) {
        rc = io_uring_wait_cqe_nr(&u->ring, &cqe, min);
        if (rc < 0 && rc != -EINTR)
            return rc;
    }
    if (!min && u->enter_to_look) {
        /* a look without waiting: finished I/O is only posted (or polled) when we enter */
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
    .flags = PL_ENGINE_FDS | PL_ENGINE_COMMITS,
    .init = uring_init,
    .submit = uring_submit,
    .reap = uring_reap,
    .cleanup = uring_cleanup,
};
