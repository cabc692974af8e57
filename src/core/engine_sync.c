/*
 * Synchronous engines, each doing its I/O inside submit():
 *   sync  - lseek + read/write, as the 1988 tests did
 *   psync - pread/pwrite
 *   stdio - one putc/getc per byte on a FILE* (Bonnie's per-character tests)
 *   mmap  - memcpy to/from a shared mapping of the whole file; fsync is msync
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "engine.h"
#include "hot.h"

static int64_t do_fsync(int fd)
{
    return fsync(fd) < 0 ? -errno : 0;
}

/* ---- sync ------------------------------------------------------------------------ */

PL_HOT static int sync_submit(struct pl_engine *e, struct pl_io *io)
{
    int fd = e->files[io->findex]->fd;
    if (io->op == PL_OP_FSYNC) {
        io->res = do_fsync(fd);
        return PL_Q_DONE;
    }
    if (lseek(fd, (off_t)io->off, SEEK_SET) < 0) {
        io->res = -errno;
        return PL_Q_DONE;
    }
    ssize_t r = io->op == PL_OP_READ ? read(fd, io->buf, io->len) : write(fd, io->buf, io->len);
    io->res = r < 0 ? -errno : r;
    return PL_Q_DONE;
}

const struct pl_engine_ops pl_engine_sync = {
    .name = "sync",
    .flags = PL_ENGINE_SYNC,
    .submit = sync_submit,
};

/* ---- psync ----------------------------------------------------------------------- */

PL_HOT static int psync_submit(struct pl_engine *e, struct pl_io *io)
{
    int fd = e->files[io->findex]->fd;
    ssize_t r;
    if (io->op == PL_OP_READ)
        r = pread(fd, io->buf, io->len, (off_t)io->off);
    else if (io->op == PL_OP_WRITE)
        r = pwrite(fd, io->buf, io->len, (off_t)io->off);
    else
        r = fsync(fd);
    io->res = r < 0 ? -errno : r;
    return PL_Q_DONE;
}

const struct pl_engine_ops pl_engine_psync = {
    .name = "psync",
    .flags = PL_ENGINE_SYNC,
    .submit = psync_submit,
};

/* ---- stdio ----------------------------------------------------------------------- */

struct stdio_file {
    FILE *fp;
    uint64_t pos;       /* where the stream is, to skip needless fseeks */
    int last_write;     /* the last operation wrote (a read after it needs a seek) */
};

static int stdio_init(struct pl_engine *e, const char **why)
{
    struct stdio_file *s = calloc(e->nfiles, sizeof *s);
    if (!s)
        return -ENOMEM;
    e->data = s;
    for (unsigned i = 0; i < e->nfiles; i++) {
        struct pl_file *f = e->files[i];
        if (f->direct) {
            *why = "the stdio engine cannot work on an O_DIRECT file";
            return -EINVAL;
        }
        int fd = dup(f->fd);
        if (fd < 0)
            return -errno;
        s[i].fp = fdopen(fd, f->writable ? "r+" : "r");
        if (!s[i].fp) {
            int err = errno;
            close(fd);
            return -err;
        }
        s[i].pos = UINT64_MAX;  /* unknown: seek first */
    }
    return 0;
}

static int stdio_submit(struct pl_engine *e, struct pl_io *io)
{
    struct stdio_file *s = &((struct stdio_file *)e->data)[io->findex];
    FILE *fp = s->fp;
    if (io->op == PL_OP_FSYNC) {
        io->res = fflush(fp) != 0 ? -errno : do_fsync(fileno(fp));
        return PL_Q_DONE;
    }
    int writing = io->op == PL_OP_WRITE;
    if (s->pos != io->off || s->last_write != writing) {
        if (fseeko(fp, (off_t)io->off, SEEK_SET) != 0) {
            io->res = -errno;
            return PL_Q_DONE;
        }
    }
    unsigned char *b = io->buf;
    uint64_t i;
    if (writing) {
        for (i = 0; i < io->len; i++)
            if (putc(b[i], fp) == EOF)
                break;
    } else {
        int c;
        for (i = 0; i < io->len; i++) {
            if ((c = getc(fp)) == EOF)
                break;
            b[i] = (unsigned char)c;
        }
    }
    s->last_write = writing;
    s->pos = io->off + i;
    io->res = (i < io->len && ferror(fp)) ? -(errno ? errno : EIO) : (int64_t)i;
    if (io->res < 0) {
        clearerr(fp);
        s->pos = UINT64_MAX;
    }
    return PL_Q_DONE;
}

static void stdio_cleanup(struct pl_engine *e)
{
    struct stdio_file *s = e->data;
    if (!s)
        return;
    for (unsigned i = 0; i < e->nfiles; i++)
        if (s[i].fp)
            fclose(s[i].fp);
    free(s);
    e->data = NULL;
}

const struct pl_engine_ops pl_engine_stdio = {
    .name = "stdio",
    .flags = PL_ENGINE_SYNC,
    .init = stdio_init,
    .submit = stdio_submit,
    .cleanup = stdio_cleanup,
};

/* ---- mmap ------------------------------------------------------------------------ */

struct map {
    unsigned char *p;
    uint64_t len;
};

static int mmap_init(struct pl_engine *e, const char **why)
{
    struct map *m = calloc(e->nfiles, sizeof *m);
    if (!m)
        return -ENOMEM;
    e->data = m;
    for (unsigned i = 0; i < e->nfiles; i++) {
        struct pl_file *f = e->files[i];
        int64_t size = pl_file_size(f);
        if (size <= 0) {
            *why = "the mmap engine needs files that are not empty";
            return size < 0 ? (int)size : -EINVAL;
        }
        int prot = PROT_READ | (f->writable ? PROT_WRITE : 0);
        void *p = mmap(NULL, (size_t)size, prot, MAP_SHARED, f->fd, 0);
        if (p == MAP_FAILED)
            return -errno;
        m[i].p = p;
        m[i].len = (uint64_t)size;
    }
    return 0;
}

static int mmap_submit(struct pl_engine *e, struct pl_io *io)
{
    struct map *m = &((struct map *)e->data)[io->findex];
    if (io->op == PL_OP_FSYNC) {
        io->res = msync(m->p, m->len, MS_SYNC) < 0 ? -errno : 0;
        return PL_Q_DONE;
    }
    if (io->off >= m->len) {
        io->res = 0;
        return PL_Q_DONE;
    }
    uint64_t n = io->len < m->len - io->off ? io->len : m->len - io->off;
    if (io->op == PL_OP_WRITE) {
        if (!e->files[io->findex]->writable) {
            io->res = -EBADF;
            return PL_Q_DONE;
        }
        memcpy(m->p + io->off, io->buf, n);
    } else {
        memcpy(io->buf, m->p + io->off, n);
    }
    io->res = (int64_t)n;
    return PL_Q_DONE;
}

static void mmap_cleanup(struct pl_engine *e)
{
    struct map *m = e->data;
    if (!m)
        return;
    for (unsigned i = 0; i < e->nfiles; i++)
        if (m[i].p)
            munmap(m[i].p, m[i].len);
    free(m);
    e->data = NULL;
}

const struct pl_engine_ops pl_engine_mmap = {
    .name = "mmap",
    .flags = PL_ENGINE_SYNC,
    .init = mmap_init,
    .submit = mmap_submit,
    .cleanup = mmap_cleanup,
};
