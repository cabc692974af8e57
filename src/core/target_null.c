/*
 * The "null" target: files are names with a size and nothing else. Every
 * read and write completes at once without a system call (reads return what
 * the size allows, writes extend it), so a run on it measures platter itself:
 * the engine, the job loop, timing and counting. The clock stays real.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "guard.h"
#include "file.h"
#include "target.h"

#define NULL_DEVICE_SIZE (UINT64_C(1) << 40) /* what a /dev/... name holds: 1 TiB */

struct null_name {
    char *path;
    uint64_t size;
    int refs; /* open files on it */
    int gone; /* removed: freed when the last of them closes */
    struct null_name *next;
};

static void drop_name(struct null_name *n)
{
    if (n->gone && !n->refs) {
        free(n->path);
        free(n);
    }
}

static struct null_name *names;

struct null_file {
    struct null_name *n;
    uint64_t pos;
};

#define NF(f) ((struct null_file *)(f)->tdata)

static struct null_name *lookup(const char *path, int make)
{
    for (struct null_name *n = names; n; n = n->next)
        if (strcmp(n->path, path) == 0)
            return n;
    if (!make)
        return NULL;
    struct null_name *n = calloc(1, sizeof *n);
    if (!n || !(n->path = strdup(path))) {
        free(n);
        return NULL;
    }
    n->next = names;
    names = n;
    return n;
}

static int null_open(struct pl_file *f, const char *path, const struct pl_open_opts *o,
                     struct pl_error *e)
{
    e->op = "open";
    if (pl_allow_check_dot(path, e->msg, sizeof e->msg) == PL_FS_REFUSED) {
        e->err = EACCES;
        return PL_FS_REFUSED;
    }
    int device = strncmp(path, "/dev/", 5) == 0;
    struct null_name *n = lookup(path, 0);
    if (!n && !device && !o->create) {
        e->err = ENOENT;
        return -ENOENT;
    }
    struct null_file *nf = calloc(1, sizeof *nf);
    if (!nf || !(n = n ? n : lookup(path, 1))) {
        free(nf);
        e->err = ENOMEM;
        return -ENOMEM;
    }
    if (device && !n->size)
        n->size = NULL_DEVICE_SIZE;
    if (o->size > n->size)
        n->size = o->size;
    f->fd = open("/dev/null", O_RDONLY | O_CLOEXEC); /* a real descriptor keeps fd checks valid */
    if (f->fd < 0) {
        e->err = errno;
        free(nf);
        return -e->err;
    }
    nf->n = n;
    n->refs++;
    f->tdata = nf;
    f->kind = device ? PL_FILE_BLOCK : PL_FILE_REGULAR;
    f->align = o->direct ? 512 : 1;
    return 0;
}

static int null_close(struct pl_file *f)
{
    struct null_file *nf = f->tdata;
    if (nf) {
        nf->n->refs--;
        drop_name(nf->n);
        free(nf);
        f->tdata = NULL;
    }
    return 0;
}

static int64_t null_size(struct pl_file *f)
{
    return (int64_t)NF(f)->n->size;
}

static int64_t null_rw(struct pl_file *f, enum pl_op op, enum pl_how how, void *buf, uint64_t n,
                       uint64_t off)
{
    (void)buf;
    struct null_file *nf = NF(f);
    if (how == PL_AT_POS)
        off = nf->pos;
    if (op == PL_OP_READ) {
        n = off >= nf->n->size ? 0 : n < nf->n->size - off ? n : nf->n->size - off;
    } else {
        if (!f->writable)
            return -EBADF;
        if (off + n > nf->n->size)
            nf->n->size = off + n;
    }
    if (how == PL_AT_POS)
        nf->pos = off + n;
    return (int64_t)n;
}

static int null_sync(struct pl_file *f, int data_only)
{
    (void)f;
    (void)data_only;
    return 0;
}

static int64_t null_chars(struct pl_file *f, enum pl_op op, unsigned char *buf, uint64_t n,
                          int64_t at)
{
    struct null_file *nf = NF(f);
    if (at >= 0)
        nf->pos = (uint64_t)at;
    return null_rw(f, op, PL_AT_POS, buf, n, 0);
}

static int64_t null_seek(struct pl_file *f, int64_t off, int whence)
{
    struct null_file *nf = NF(f);
    int64_t base = whence == SEEK_CUR   ? (int64_t)nf->pos
                   : whence == SEEK_END ? (int64_t)nf->n->size
                                        : 0;
    if (base + off < 0)
        return -EINVAL;
    nf->pos = (uint64_t)(base + off);
    return (int64_t)nf->pos;
}

static int null_truncate(struct pl_file *f, uint64_t size)
{
    NF(f)->n->size = size;
    return 0;
}

static int null_drop(struct pl_file *f, struct pl_error *e)
{
    (void)f;
    (void)e;
    return 0;
}

static int null_resident(struct pl_file *f, uint64_t off, uint64_t len, uint64_t *res,
                         uint64_t *total, struct pl_error *e)
{
    (void)f;
    (void)off;
    (void)len;
    (void)e;
    *res = *total = 0; /* nothing is cached: there is nothing */
    return 0;
}

static int64_t null_readahead(struct pl_file *f, int64_t set_kb, struct pl_error *e)
{
    (void)f;
    (void)set_kb;
    (void)e;
    return 0;
}

static int null_advise(struct pl_file *f, int advice, uint64_t off, uint64_t len,
                       struct pl_error *e)
{
    (void)f;
    (void)advice;
    (void)off;
    (void)len;
    (void)e;
    return 0;
}

static int null_drop_all(struct pl_error *e)
{
    (void)e;
    return 0;
}

static void null_sync_all(void)
{
}

static int null_info(struct pl_file *f, struct pl_devinfo *d)
{
    memset(d, 0, sizeof *d);
    snprintf(d->kind, sizeof d->kind, "%s", f->kind == PL_FILE_BLOCK ? "block" : "file");
    d->size = NF(f)->n->size;
    d->logical_block = d->physical_block = 512;
    d->dio_mem_align = d->dio_offset_align = 512;
    snprintf(d->device, sizeof d->device, "null");
    snprintf(d->model, sizeof d->model, "null target (no I/O)");
    return 0;
}

static int null_remove(const char *path, char *why, size_t n)
{
    if (pl_allow_check_dot(path, why, n) == PL_FS_REFUSED)
        return PL_FS_REFUSED;
    struct null_name **p = &names;
    while (*p && strcmp((*p)->path, path) != 0)
        p = &(*p)->next;
    if (!*p || strncmp(path, "/dev/", 5) == 0)
        return -ENOENT;
    struct null_name *gone = *p;
    *p = gone->next;
    gone->gone = 1; /* open files keep their size until they close */
    drop_name(gone);
    return 0;
}

static int null_scratch(const char *path, char *why, size_t n)
{
    return pl_allow_check_dot(path, why, n) == PL_FS_REFUSED ? PL_FS_REFUSED : 0;
}

const struct pl_target_ops pl_target_null = {
    .name = "null",
    .flags = PL_TARGET_VIRTUAL,
    .no_dirs = "on the null target (it has no directories)",
    .open = null_open,
    .close = null_close,
    .size = null_size,
    .rw = null_rw,
    .sync = null_sync,
    .chars = null_chars,
    .seek = null_seek,
    .truncate = null_truncate,
    .drop = null_drop,
    .resident = null_resident,
    .readahead = null_readahead,
    .advise = null_advise,
    .drop_all = null_drop_all,
    .sync_all = null_sync_all,
    .info = null_info,
    .ram = pl_device_ram,
    .remove = null_remove,
    .scratch = null_scratch,
};
