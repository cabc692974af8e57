/*
 * Synchronous engines, each doing its I/O inside submit():
 *   sync  - seek + read/write, as the 1988 tests did
 *   psync - pread/pwrite (or at the position, for one-call f:read/f:write)
 *   stdio - one putc/getc per byte on the file's stream (Bonnie's per-character tests)
 *   mmap  - memcpy to/from a shared mapping of the whole file; fsync is msync
 * The first three work through the file's target; mmap needs a real descriptor.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "engine.h"
#include "hot.h"

/* ---- sync ------------------------------------------------------------------------ */

/* An fsync (or fdatasync) through the target; the engines below share it. */
static int64_t target_sync(struct pl_file *f, const struct pl_io *io)
{
    return f->target->sync(f, io->data_only);
}

PL_HOT static int sync_submit(struct pl_engine *e, struct pl_io *io)
{
    struct pl_file *f = e->files[io->findex];
    io->res = io->op == PL_OP_FSYNC
                  ? target_sync(f, io)
                  : f->target->rw(f, io->op, PL_SEEK_FIRST, io->buf, io->len, io->off);
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
    struct pl_file *f = e->files[io->findex];
    io->res = io->op == PL_OP_FSYNC ? target_sync(f, io)
                                    : f->target->rw(f, io->op, io->how, io->buf, io->len, io->off);
    return PL_Q_DONE;
}

const struct pl_engine_ops pl_engine_psync = {
    .name = "psync",
    .flags = PL_ENGINE_SYNC,
    .submit = psync_submit,
};

/* ---- stdio ----------------------------------------------------------------------- */

static int stdio_init(struct pl_engine *e, const char **why)
{
    for (unsigned i = 0; i < e->nfiles; i++) {
        if (e->files[i]->direct) {
            *why = "the stdio engine cannot work on an O_DIRECT file";
            return -EINVAL;
        }
    }
    return 0;
}

/* The file's own stream (the target's), as f:putc and f:getc use it: one per-character loop. */
PL_HOT static int stdio_submit(struct pl_engine *e, struct pl_io *io)
{
    struct pl_file *f = e->files[io->findex];
    if (io->op == PL_OP_FSYNC)
        io->res = target_sync(f, io); /* flushes the stream first */
    else
        io->res = f->target->chars(f, io->op, io->buf, io->len,
                                   io->how == PL_AT_POS ? -1 : (int64_t)io->off);
    return PL_Q_DONE;
}

/* The streams stay the files' own; what they buffer reaches the files now. */
static void stdio_cleanup(struct pl_engine *e)
{
    for (unsigned i = 0; i < e->nfiles; i++) {
        struct pl_file *f = e->files[i];
        if (f->target->flush)
            (void)f->target->flush(f);
    }
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
        /* fio's mmap engine (fadvise_hint): the mapping is advised as the file was, so a
           page fault reads ahead for sequential access and only its page for random */
        int adv = f->access == PL_ADV_RANDOM       ? POSIX_MADV_RANDOM
                  : f->access == PL_ADV_SEQUENTIAL ? POSIX_MADV_SEQUENTIAL
                                                   : POSIX_MADV_NORMAL;
        if (adv != POSIX_MADV_NORMAL) {
            int rc = posix_madvise(p, (size_t)size, adv);
            if (rc != 0) {
                munmap(p, (size_t)size);
                *why = "posix_madvise on the mapping failed";
                return -rc;
            }
        }
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
    .flags = PL_ENGINE_SYNC | PL_ENGINE_FDS,
    .init = mmap_init,
    .submit = mmap_submit,
    .cleanup = mmap_cleanup,
};
