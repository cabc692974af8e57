/*
 * Open files, the target-neutral part: open through the target in use, the
 * aligned buffer and its fill, the alignment rule and the checks every I/O
 * call shares. What a file is and how its bytes move is the target's
 * (target.h); timing and counting is io.c's. Uses rng (random fill).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "budget.h"
#include "file.h"
#include "hot.h"
#include "rng.h"
#include "target.h"

void pl_file_fill_buffer(void *buf, size_t len, enum pl_fill fill, uint64_t seed)
{
    if (fill == PL_FILL_ZERO) {
        memset(buf, 0, len);
        return;
    }
    struct pl_rng r;
    pl_rng_seed(&r, seed);
    uint64_t *w = buf;
    size_t i, n = len / sizeof(uint64_t);
    for (i = 0; i < n; i++)
        w[i] = pl_rng_next(&r);
    unsigned char *tail = (unsigned char *)buf + n * sizeof(uint64_t);
    for (i = 0; i < len % sizeof(uint64_t); i++)
        tail[i] = (unsigned char)pl_rng_next(&r);
}

PL_HOT int pl_file_reserve(struct pl_file *f, size_t n)
{
    if (n <= f->buflen)
        return 0;
    size_t want = f->buflen ? f->buflen : 4096;
    while (want < n)
        want *= 2;
    void *p = NULL;
    if (pl_budget_take(want)) /* the old buffer is freed once the new one is filled */
        return -ENOMEM;
    if (posix_memalign(&p, f->mem_align, want) != 0) {
        pl_budget_give(want);
        return -ENOMEM;
    }
    pl_file_fill_buffer(p, want, f->fill, f->seed);
    free(f->buf);
    pl_budget_give(f->buflen);
    f->buf = p;
    f->buflen = want;
    return 0;
}

int pl_file_stage(struct pl_file *f, uint64_t off, const struct pl_file *src, uint64_t src_off,
                  size_t n)
{
    if (off + n > f->buflen) {
        void *old = f->buf;
        size_t oldlen = f->buflen;
        f->buf = NULL;
        f->buflen = 0;
        int rc = pl_file_reserve(f, off + n);
        if (rc < 0) {
            f->buf = old;
            f->buflen = oldlen;
            return rc;
        }
        if (old)
            memcpy(f->buf, old, oldlen);
        free(old);
        pl_budget_give(oldlen);
    }
    /* src's buffer is read after any growth of f's: src may be f itself */
    if (src)
        memmove((char *)f->buf + off, (const char *)src->buf + src_off, n);
    else
        memset((char *)f->buf + off, 0, n);
    return 0;
}

void pl_file_set_fill(struct pl_file *f, enum pl_fill fill)
{
    f->fill = fill;
    if (f->buf)
        pl_file_fill_buffer(f->buf, f->buflen, fill, f->seed);
}

int pl_file_open(struct pl_file *f, const char *path, const struct pl_open_opts *o,
                 struct pl_error *e)
{
    memset(f, 0, sizeof *f);
    f->fd = -1;
    pl_error_set(e, 0, NULL);
    f->target = pl_target;
    f->direct = o->direct;
    f->writable = o->write;
    f->dsync = o->dsync || o->sync;
    f->fill = o->fill;
    f->seed = o->seed;
    f->align = 1;
    f->mem_align = 4096;
    int rc = f->target->open(f, path, o, e);
    if (rc == 0 && !(f->path = strdup(path))) {
        pl_error_set(e, ENOMEM, "open");
        rc = -ENOMEM;
    }
    if (rc < 0)
        pl_file_close(f); /* what the target made so far */
    return rc;
}

int pl_file_close(struct pl_file *f)
{
    int rc = 0;
    if (f->target) {
        rc = f->target->close(f);
        f->target = NULL;
    }
    if (f->fd >= 0 && close(f->fd) < 0 && rc == 0)
        rc = -errno;
    f->fd = -1;
    free(f->buf);
    pl_budget_give(f->buflen);
    f->buf = NULL;
    f->buflen = 0;
    free(f->path);
    f->path = NULL;
    return rc;
}

int64_t pl_file_size(struct pl_file *f)
{
    return f->target->size(f);
}

int pl_file_check_align(const struct pl_file *f, uint64_t off, uint64_t len)
{
    if (!f->direct)
        return 0;
    if (off % f->align || len % f->align)
        return -EINVAL;
    return 0;
}

PL_HOT enum pl_check pl_file_check_io(const struct pl_file *f, int has_off, uint64_t off,
                                      uint64_t len)
{
    if (len > PL_IO_MAX)
        return PL_CHECK_TOO_LONG;
    if (f->direct) {
        if (has_off && off % f->align)
            return PL_CHECK_OFFSET;
        if (len % f->align)
            return PL_CHECK_LENGTH;
    }
    return PL_CHECK_OK;
}

int pl_file_truncate(struct pl_file *f, uint64_t size)
{
    return f->target->truncate ? f->target->truncate(f, size) : -ENOTSUP;
}

int64_t pl_file_seek(struct pl_file *f, int64_t off, int whence)
{
    return f->target->seek(f, off, whence);
}
