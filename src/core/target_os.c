/*
 * The "os" target: files and block devices of this machine through system
 * calls, resolved through the sandbox's allow list (guard.h), its page cache
 * (cache.c) and device facts (device.c). A file's stdio stream for the
 * per-character calls lives here too, kept coherent with the descriptor.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cache.h"
#include "device.h"
#include "guard.h"
#include "hot.h"
#include "progress.h"
#include "safety.h"
#include "file.h"
#include "target.h"
#include "zone.h"

#define FILL_CHUNK (1u << 20)

/*
 * Reserve the space a file grows by, from `have` to o->size, before it is
 * written, as fio's fallocate= does when it lays out a file: PL_ALLOC_FALLOCATE
 * is fallocate(2) where the filesystem has it (fio's native: nothing where it
 * has not), PL_ALLOC_POSIX posix_fallocate(3) (glibc writes the blocks where
 * the filesystem cannot), PL_ALLOC_KEEP fallocate(2) with FALLOC_FL_KEEP_SIZE
 * and PL_ALLOC_TRUNCATE ftruncate(2) to the size. 0 or -errno, with e set.
 */
static int reserve(int fd, const struct pl_open_opts *o, uint64_t have, struct pl_error *e)
{
    off_t off = (off_t)have, len = (off_t)(o->size - have);
    int rc = 0;
    switch (o->alloc) {
    case PL_ALLOC_NONE: return 0;
    case PL_ALLOC_FALLOCATE:
        rc = fallocate(fd, 0, off, len) < 0 ? -errno : 0;
        if (rc == -EOPNOTSUPP || rc == -ENOSYS)
            rc = 0;
        break;
    case PL_ALLOC_POSIX: rc = -posix_fallocate(fd, off, len); break;
    case PL_ALLOC_KEEP: rc = fallocate(fd, FALLOC_FL_KEEP_SIZE, off, len) < 0 ? -errno : 0; break;
    case PL_ALLOC_TRUNCATE: rc = ftruncate(fd, (off_t)o->size) < 0 ? -errno : 0; break;
    }
    if (rc)
        pl_error_set(e, -rc, o->alloc == PL_ALLOC_TRUNCATE ? "ftruncate" : "fallocate");
    return rc;
}

/*
 * Make the file behind fd (a regular file opened for writing, buffered) at
 * least `size` bytes of real data (or a hole when sparse), so direct-I/O rules
 * do not apply. Refuses up front when the filesystem cannot hold the growth.
 * On failure (or Ctrl-C, which stops a long fill) the file is cut back to the
 * size it had; the caller removes a file it made.
 */
static int grow_file(int fd, const struct pl_open_opts *o, struct pl_error *e)
{
    struct stat st;
    if (fstat(fd, &st) < 0) {
        pl_error_set(e, errno, "size");
        return -e->err;
    }
    uint64_t have = (uint64_t)st.st_size;
    if (have >= o->size)
        return 0;
    /* a hole needs no room; reserved blocks and a fill do, checked before any is taken */
    int takes_room = !o->sparse || (o->alloc != PL_ALLOC_NONE && o->alloc != PL_ALLOC_TRUNCATE);
    if (!takes_room) {
        int rc = ftruncate(fd, (off_t)o->size) < 0 ? -errno : 0;
        if (rc)
            pl_error_set(e, -rc, "ftruncate");
        return rc;
    }
    struct statvfs vfs;
    if (fstatvfs(fd, &vfs) == 0) {
        uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
        uint64_t need = o->size - have;
        if (need > avail) {
            pl_error_set(e, ENOSPC, "size");
            snprintf(e->msg, sizeof e->msg, "need %llu more bytes but the filesystem has %llu free",
                     (unsigned long long)need, (unsigned long long)avail);
            return -ENOSPC;
        }
    }
    int rc = reserve(fd, o, have, e);
    if (rc) {
        (void)ftruncate(fd, (off_t)have);
        return rc;
    }
    if (o->sparse) { /* reserved, left unwritten: the size, and no fill */
        rc = ftruncate(fd, (off_t)o->size) < 0 ? -errno : 0;
        if (rc)
            pl_error_set(e, -rc, "ftruncate");
        return rc;
    }
    /* a small file needs no 1 MiB buffer; whole pages of it hold the same bytes */
    uint64_t grow = o->size - have;
    size_t chunk = grow < FILL_CHUNK ? (size_t)((grow + 4095) & ~(uint64_t)4095) : FILL_CHUNK;
    void *buf = malloc(chunk);
    if (!buf) {
        pl_error_set(e, ENOMEM, "malloc");
        return -ENOMEM;
    }
    pl_file_fill_buffer(buf, chunk, o->fill, o->seed ^ 0x5eedf111ull);
    uint64_t off = have;
    pl_progress_begin(&grow, "filling the file (size=)", NULL, 0); /* a long fill shows */
    while (off < o->size) {
        if (pl_interrupted) {
            rc = -EINTR;
            pl_error_set(e, EINTR, "write");
            snprintf(e->msg, sizeof e->msg, "interrupted while filling the file");
            break;
        }
        size_t n = o->size - off < chunk ? (size_t)(o->size - off) : chunk;
        ssize_t w = pwrite(fd, buf, n, (off_t)off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            rc = w < 0 ? -errno : -ENOSPC;
            pl_error_set(e, -rc, "write");
            break;
        }
        off += (uint64_t)w;
        pl_progress_count('B', off - have, grow);
    }
    pl_progress_end(&grow);
    free(buf);
    if (rc)
        (void)ftruncate(fd, (off_t)have);
    return rc;
}

/* A refusal of the sandbox or the destroy guard: the reason goes in e->msg. */
static int refused(struct pl_error *e)
{
    e->err = EACCES;
    e->op = "open";
    return PL_FS_REFUSED;
}

/*
 * The descriptor to do I/O with, opened from the O_PATH one (the same inode:
 * the name is not looked up again). Without /proc, the name is resolved once
 * more through the allow list and must still be the same file.
 */
static int reopen(const char *path, int pfd, const struct stat *st, int flags, struct pl_error *e)
{
    int fd = pl_fs_reopen(pfd, flags);
    if (fd != -ENOENT)
        return fd;
    fd = pl_fs_open(path, flags, 0, e->msg, sizeof e->msg);
    struct stat now;
    if (fd >= 0 && (fstat(fd, &now) < 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino)) {
        close(fd);
        snprintf(e->msg, sizeof e->msg, "%s changed while it was being opened", path);
        return -EAGAIN;
    }
    return fd;
}

/* An open that failed with err: the error, and for EINVAL on an O_DIRECT open the
   likely reason (tmpfs once, /dev/null and /dev/zero refuse O_DIRECT so). */
static void open_failed(struct pl_error *e, int err, const struct pl_open_opts *o)
{
    pl_error_set(e, err, "open");
    if (err == EINVAL && o->direct)
        snprintf(e->msg, sizeof e->msg, "this file or device does not take O_DIRECT");
}

static int os_open(struct pl_file *f, const char *path, const struct pl_open_opts *o,
                   struct pl_error *e)
{
    /*
     * Every name is resolved once, through the sandbox. A file to write is
     * first looked at through an O_PATH descriptor, so that what it is (a block
     * device in use?) decides before anything is opened for writing; the
     * descriptor for I/O is then opened from that one. A new file (made here,
     * so a regular file) and a file only read are opened for I/O at once.
     */
    int flags = o->write ? O_RDWR : O_RDONLY;
    if (o->direct)
        flags |= O_DIRECT;
    if (o->sync)
        flags |= O_SYNC;
    if (o->dsync)
        flags |= O_DSYNC;
    int made = 0, exists = 0, fd = -1, pfd = -ENOENT;
    if (o->create) {
        /* a new file is a regular file: opened for I/O at once, in one lookup as
           open(2) would (bonnie++'s create test times this) */
        pfd = pl_fs_open(path, flags | O_CREAT | O_EXCL, 0644, e->msg, sizeof e->msg);
        made = pfd >= 0;
        fd = made ? pfd : -1;
        exists = pfd == -EEXIST;
    }
    if (!made && (!o->create || exists)) {
        /* reading changes nothing: opened as it is; else first an O_PATH look */
        int direct_open = !o->write && !o->size;
        pfd =
            pl_fs_open(path, direct_open ? flags : O_PATH | PL_FS_CHANGE, 0, e->msg, sizeof e->msg);
        if (direct_open && pfd >= 0)
            fd = pfd;
    }
    if (pfd == -ENOENT && exists) { /* there, and not: a symlink that leads nowhere */
        snprintf(e->msg, sizeof e->msg,
                 "%s is a dangling symlink (platter does not create "
                 "a file through one)",
                 path);
        return refused(e);
    }
    if (pfd == PL_FS_REFUSED)
        return refused(e);
    if (pfd < 0) {
        open_failed(e, -pfd, o);
        return pfd;
    }
    struct stat st;
    int rc = 0;
    if (fstat(pfd, &st) < 0) {
        rc = -errno;
        pl_error_set(e, -rc, "fstat");
    } else if (S_ISDIR(st.st_mode)) {
        rc = -EISDIR;
        pl_error_set(e, EISDIR, "open");
    } else if (S_ISBLK(st.st_mode) && o->write) {
        char why[512];
        if (!o->destroy) {
            snprintf(e->msg, sizeof e->msg,
                     "%s is a block device: opening it for writing "
                     "would destroy its contents; pass --destroy to allow it",
                     path);
            rc = refused(e);
        } else if (pl_safety_block_in_use(major(st.st_rdev), minor(st.st_rdev), why, sizeof why) <
                   0) {
            snprintf(e->msg, sizeof e->msg, "refusing to write to %s even with --destroy: %s", path,
                     why);
            rc = refused(e);
        }
    } else if (o->size && !S_ISREG(st.st_mode)) {
        rc = -EINVAL;
        pl_error_set(e, EINVAL, "size");
        snprintf(e->msg, sizeof e->msg, "size= applies to regular files only");
    } else if (o->size) {
        int gfd = reopen(path, pfd, &st, O_WRONLY, e);
        if (gfd < 0) {
            rc = gfd;
            pl_error_set(e, -rc, "open");
        } else {
            rc = grow_file(gfd, o, e);
            close(gfd);
        }
    }
    if (rc == 0 && fd < 0) {
        fd = reopen(path, pfd, &st, flags, e);
        if (fd < 0) {
            rc = fd;
            open_failed(e, -rc, o);
        }
    }
    if (rc < 0 && made) /* leave no half-made file behind a refused or failed open */
        pl_fs_unlink_if_same(path, pfd);
    if (pfd != fd || rc < 0)
        close(pfd);
    if (rc < 0)
        return rc;
    f->fd = fd;
    f->kind = S_ISREG(st.st_mode)   ? PL_FILE_REGULAR
              : S_ISBLK(st.st_mode) ? PL_FILE_BLOCK
                                    : PL_FILE_OTHER;
    if (o->direct) {
        struct pl_devinfo d;
        uint32_t a = 0;
        if (pl_device_info(fd, path, &d) == 0) {
            a = d.dio_offset_align ? d.dio_offset_align : d.logical_block;
            if (d.dio_mem_align > f->mem_align)
                f->mem_align = d.dio_mem_align;
        }
        f->align = a ? a : 512;
    }
    return 0;
}

/* A file's stdio stream (tdata), made at the first per-character call. */
struct os_file {
    FILE *stdio;
    int dirty;               /* the stream holds position/buffer state */
    int last_write;          /* its last call wrote (a read after it needs a seek) */
    uint64_t pos;            /* the stream's position while dirty */
    unsigned char hist[256]; /* getc results land here (defeats the optimiser) */
};

static int os_close(struct pl_file *f)
{
    struct os_file *s = f->tdata;
    int rc = 0;
    if (s) {
        if (s->stdio && fclose(s->stdio) != 0) /* flushes; closes the dup'd descriptor only */
            rc = -errno;
        free(s);
        f->tdata = NULL;
    }
    return rc;
}

static int64_t os_size(struct pl_file *f)
{
    struct stat st;
    if (fstat(f->fd, &st) < 0)
        return -errno;
    if (S_ISBLK(st.st_mode)) {
        uint64_t n = 0;
        if (ioctl(f->fd, BLKGETSIZE64, &n) < 0)
            return -errno;
        return (int64_t)n;
    }
    return st.st_size;
}

/*
 * Plain fd calls after stdio calls must see the stream's logical position and
 * flushed data; stdio calls after fd calls must drop what the stream buffered.
 */
PL_HOT static int leave_stdio(struct pl_file *f)
{
    struct os_file *s = f->tdata;
    if (__builtin_expect(!s || !s->dirty, 1))
        return 0;
    if (fflush(s->stdio) != 0)
        return -errno;
    s->dirty = 0;
    if (lseek(f->fd, (off_t)s->pos, SEEK_SET) < 0)
        return -errno;
    return 0;
}

static int enter_stdio(struct pl_file *f, struct os_file **out)
{
    struct os_file *s = f->tdata;
    if (!s) {
        if (!(s = calloc(1, sizeof *s)))
            return -ENOMEM;
        f->tdata = s;
    }
    if (!s->stdio) {
        int fd = dup(f->fd); /* shares the offset; fclose must not close f->fd */
        if (fd < 0)
            return -errno;
        s->stdio = fdopen(fd, f->writable ? "r+" : "r");
        if (!s->stdio) {
            int err = errno;
            close(fd);
            return -err;
        }
    }
    if (!s->dirty) {
        off_t pos = lseek(f->fd, 0, SEEK_CUR);
        if (pos < 0 || fseeko(s->stdio, pos, SEEK_SET) != 0)
            return -errno;
        s->pos = (uint64_t)pos;
        s->dirty = 1;
    }
    *out = s;
    return 0;
}

PL_HOT static int64_t os_rw(struct pl_file *f, enum pl_op op, enum pl_how how, void *buf,
                            uint64_t n, uint64_t off)
{
    int rc = leave_stdio(f);
    if (rc)
        return rc;
    ssize_t r;
    if (how == PL_AT_OFFSET) {
        r = op == PL_OP_READ ? pread(f->fd, buf, n, (off_t)off) : pwrite(f->fd, buf, n, (off_t)off);
    } else {
        if (how == PL_SEEK_FIRST && lseek(f->fd, (off_t)off, SEEK_SET) < 0)
            return -errno;
        r = op == PL_OP_READ ? read(f->fd, buf, n) : write(f->fd, buf, n);
    }
    return r < 0 ? -errno : r;
}

static int os_sync(struct pl_file *f, int data_only)
{
    int rc = leave_stdio(f);
    if (rc)
        return rc;
    return (data_only ? fdatasync(f->fd) : fsync(f->fd)) < 0 ? -errno : 0;
}

/* The one per-character loop: putc/getc on the file's stream, as Bonnie's tests do. */
/*
 * The per-character loops, each a function of its own on a 64-byte boundary:
 * their speed is that of the libc putc/getc they call, and it moved by 20%
 * with where the linker happened to place an inlined copy (W6,
 * docs/performance.md).
 */
#define CHAR_LOOP __attribute__((noinline, aligned(64)))

CHAR_LOOP static uint64_t put_buf(FILE *fp, const unsigned char *buf, uint64_t n)
{
    uint64_t i;
    for (i = 0; i < n; i++)
        if (putc(buf[i], fp) == EOF)
            break;
    return i;
}

CHAR_LOOP static uint64_t put_pattern(FILE *fp, uint64_t n)
{
    uint64_t i;
    for (i = 0; i < n; i++)
        if (putc((int)(i & 0x7f), fp) == EOF)
            break;
    return i;
}

CHAR_LOOP static uint64_t get_buf(FILE *fp, unsigned char *buf, uint64_t n)
{
    uint64_t i;
    int c;
    for (i = 0; i < n; i++) {
        if ((c = getc(fp)) == EOF)
            break;
        buf[i] = (unsigned char)c;
    }
    return i;
}

CHAR_LOOP static uint64_t get_count(FILE *fp, unsigned char *hist, uint64_t n)
{
    uint64_t i;
    int c;
    for (i = 0; i < n; i++) {
        if ((c = getc(fp)) == EOF)
            break;
        hist[c & 0xff]++;
    }
    return i;
}

PL_HOT static int64_t os_chars(struct pl_file *f, enum pl_op op, unsigned char *buf, uint64_t n,
                               int64_t at)
{
    struct os_file *s = NULL;
    int rc = enter_stdio(f, &s);
    if (rc)
        return rc;
    FILE *fp = s->stdio;
    int writing = op == PL_OP_WRITE;
    if ((at >= 0 && (uint64_t)at != s->pos) || s->last_write != writing) {
        uint64_t to = at >= 0 ? (uint64_t)at : s->pos;
        if (fseeko(fp, (off_t)to, SEEK_SET) != 0)
            return -errno;
        s->pos = to;
    }
    s->last_write = writing;
    uint64_t i;
    if (writing)
        i = buf ? put_buf(fp, buf, n) : put_pattern(fp, n);
    else
        i = buf ? get_buf(fp, buf, n) : get_count(fp, s->hist, n);
    s->pos += i;
    if (i < n && ferror(fp)) {
        int err = errno ? errno : EIO;
        clearerr(fp);
        return -err;
    }
    return (int64_t)i;
}

static int64_t os_seek(struct pl_file *f, int64_t off, int whence)
{
    int rc = leave_stdio(f);
    if (rc)
        return rc;
    off_t r = lseek(f->fd, (off_t)off, whence);
    return r < 0 ? -errno : (int64_t)r;
}

static int os_truncate(struct pl_file *f, uint64_t size)
{
    int rc = leave_stdio(f);
    if (rc)
        return rc;
    return ftruncate(f->fd, (off_t)size) < 0 ? -errno : 0;
}

static int os_advise(struct pl_file *f, int advice, uint64_t off, uint64_t len, struct pl_error *e)
{
    return pl_cache_advise(f, (enum pl_advice)advice, off, len, e);
}

static int os_info(struct pl_file *f, struct pl_devinfo *d)
{
    return pl_device_info(f->fd, f->path, d);
}

static int os_remove(const char *path, char *why, size_t n)
{
    /* scratch files only: never a device node, a directory or a FIFO */
    return pl_fs_remove_file(path, why, n);
}

static int os_scratch(const char *path, char *why, size_t n)
{
    return pl_scratch_add(path, why, n);
}

static int os_zones(struct pl_file *f, uint64_t from, struct pl_zone *z, unsigned max,
                    struct pl_error *e)
{
    return pl_zone_report_fd(f->fd, from, z, max, e);
}

static int os_zone_op(struct pl_file *f, int op, uint64_t start, uint64_t len, struct pl_error *e)
{
    return pl_zone_op_fd(f->fd, (enum pl_zone_op)op, start, len, e);
}

static int os_mkdir(const char *path, unsigned mode, char *why, size_t n)
{
    return pl_fs_mkdir(path, mode, why, n);
}

static int os_rmdir(const char *path, char *why, size_t n)
{
    return pl_fs_rmdir(path, why, n);
}

static int os_stat(const char *path, struct stat *st, char *why, size_t n)
{
    return pl_fs_stat(path, st, why, n);
}

static int os_readdir(const char *path, int (*fn)(void *ud, const char *name), void *ud, char *why,
                      size_t n)
{
    int fd = pl_fs_open(path, O_RDONLY | O_DIRECTORY, 0, why, n);
    if (fd < 0)
        return fd;
    DIR *d = fdopendir(fd);
    if (!d) {
        int err = errno;
        close(fd);
        return -err;
    }
    struct dirent *e;
    int rc = 0;
    errno = 0;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            rc = fn(ud, e->d_name);
        errno = 0;
    }
    if (rc == 0 && errno)
        rc = -errno;
    closedir(d);
    return rc;
}

const struct pl_target_ops pl_target_os = {
    .name = "os",
    .flags = PL_TARGET_FDS | PL_TARGET_DIRS,
    .open = os_open,
    .close = os_close,
    .size = os_size,
    .rw = os_rw,
    .sync = os_sync,
    .chars = os_chars,
    .flush = leave_stdio,
    .seek = os_seek,
    .truncate = os_truncate,
    .drop = pl_cache_drop,
    .resident = pl_cache_resident,
    .readahead = pl_cache_readahead,
    .advise = os_advise,
    .drop_all = pl_cache_drop_system,
    .sync_all = sync,
    .info = os_info,
    .ram = pl_device_ram,
    .remove = os_remove,
    .scratch = os_scratch,
    .zones = os_zones,
    .zone_op = os_zone_op,
    .mkdir = os_mkdir,
    .rmdir = os_rmdir,
    .stat = os_stat,
    .readdir = os_readdir,
};
