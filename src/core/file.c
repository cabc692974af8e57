/*
 * Benchmark targets: open a file or block device buffered or O_DIRECT, keep an
 * aligned buffer for its data, and time each I/O syscall around the call.
 * Uses clock, device (for the alignment rule) and rng (random fill).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "clock.h"
#include "device.h"
#include "file.h"
#include "guard.h"
#include "progress.h"
#include "rng.h"
#include "safety.h"
#include "sim.h"
#include "hot.h"

#define FILL_CHUNK (1u << 20)

static void set_error(struct pl_error *e, int err, const char *op)
{
    if (!e)
        return;
    e->err = err;
    e->op = op;
    e->msg[0] = '\0';
}

static void fill_buffer(void *buf, size_t len, enum pl_fill fill, uint64_t seed)
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
    if (posix_memalign(&p, f->mem_align, want) != 0)
        return -ENOMEM;
    fill_buffer(p, want, f->fill, f->seed);
    free(f->buf);
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
        fill_buffer(f->buf, f->buflen, fill, f->seed);
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
        set_error(e, errno, "size");
        return -e->err;
    }
    uint64_t have = (uint64_t)st.st_size;
    if (have >= o->size)
        return 0;
    if (o->sparse) {
        int rc = ftruncate(fd, (off_t)o->size) < 0 ? -errno : 0;
        if (rc)
            set_error(e, -rc, "ftruncate");
        return rc;
    }
    struct statvfs vfs;
    if (fstatvfs(fd, &vfs) == 0) {
        uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
        uint64_t need = o->size - have;
        if (need > avail) {
            set_error(e, ENOSPC, "size");
            snprintf(e->msg, sizeof e->msg,
                     "need %llu more bytes but the filesystem has %llu free",
                     (unsigned long long)need, (unsigned long long)avail);
            return -ENOSPC;
        }
    }
    /* a small file needs no 1 MiB buffer; whole pages of it hold the same bytes */
    uint64_t grow = o->size - have;
    size_t chunk = grow < FILL_CHUNK ? (size_t)((grow + 4095) & ~(uint64_t)4095) : FILL_CHUNK;
    void *buf = malloc(chunk);
    if (!buf) {
        set_error(e, ENOMEM, "malloc");
        return -ENOMEM;
    }
    fill_buffer(buf, chunk, o->fill, o->seed ^ 0x5eedf111ull);
    uint64_t off = have;
    int rc = 0;
    pl_progress_begin(&grow, "filling the file (size=)", NULL, 0);  /* a long fill shows */
    while (off < o->size) {
        if (pl_interrupted) {
            rc = -EINTR;
            set_error(e, EINTR, "write");
            snprintf(e->msg, sizeof e->msg, "interrupted while filling the file");
            break;
        }
        size_t n = o->size - off < chunk ? (size_t)(o->size - off) : chunk;
        ssize_t w = pwrite(fd, buf, n, (off_t)off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            rc = w < 0 ? -errno : -ENOSPC;
            set_error(e, -rc, "write");
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
static int reopen(const char *path, int pfd, const struct stat *st, int flags,
                  struct pl_error *e)
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

int pl_file_open(struct pl_file *f, const char *path, const struct pl_open_opts *o,
                 struct pl_error *e)
{
    memset(f, 0, sizeof *f);
    f->fd = -1;
    set_error(e, 0, NULL);
    if (pl_sim_on) {
        int rc = pl_sim_open(f, path, o, e);
        if (rc == 0 && !f->path) {
            pl_file_close(f);
            set_error(e, ENOMEM, "open");
            return -ENOMEM;
        }
        return rc;
    }
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
        pfd = pl_fs_open(path, direct_open ? flags : O_PATH, 0, e->msg, sizeof e->msg);
        if (direct_open && pfd >= 0)
            fd = pfd;
    }
    if (pfd == -ENOENT && exists) {  /* there, and not: a symlink that leads nowhere */
        snprintf(e->msg, sizeof e->msg, "%s is a dangling symlink (platter does not create "
                 "a file through one)", path);
        return refused(e);
    }
    if (pfd == PL_FS_REFUSED)
        return refused(e);
    if (pfd < 0) {
        set_error(e, -pfd, "open");
        return pfd;
    }
    struct stat st;
    int rc = 0;
    if (fstat(pfd, &st) < 0) {
        rc = -errno;
        set_error(e, -rc, "fstat");
    } else if (S_ISDIR(st.st_mode)) {
        rc = -EISDIR;
        set_error(e, EISDIR, "open");
    } else if (S_ISBLK(st.st_mode) && o->write) {
        char why[512];
        if (!o->destroy) {
            snprintf(e->msg, sizeof e->msg, "%s is a block device: opening it for writing "
                     "would destroy its contents; pass --destroy to allow it", path);
            rc = refused(e);
        } else if (pl_safety_block_in_use(major(st.st_rdev), minor(st.st_rdev), why,
                                          sizeof why) < 0) {
            snprintf(e->msg, sizeof e->msg, "refusing to write to %s even with --destroy: %s",
                     path, why);
            rc = refused(e);
        }
    } else if (o->size && !S_ISREG(st.st_mode)) {
        rc = -EINVAL;
        set_error(e, EINVAL, "size");
        snprintf(e->msg, sizeof e->msg, "size= applies to regular files only");
    } else if (o->size) {
        int gfd = reopen(path, pfd, &st, O_WRONLY, e);
        if (gfd < 0) {
            rc = gfd;
            set_error(e, -rc, "open");
        } else {
            rc = grow_file(gfd, o, e);
            close(gfd);
        }
    }
    if (rc == 0 && fd < 0) {
        fd = reopen(path, pfd, &st, flags, e);
        if (fd < 0) {
            rc = fd;
            set_error(e, -rc, "open");
        }
    }
    if (rc < 0 && made)  /* leave no half-made file behind a refused or failed open */
        pl_fs_unlink_if_same(path, pfd);
    if (pfd != fd || rc < 0)
        close(pfd);
    if (rc < 0)
        return rc;
    f->path = strdup(path);
    if (!f->path) {
        close(fd);
        set_error(e, ENOMEM, "open");
        return -ENOMEM;
    }
    f->fd = fd;
    f->kind = S_ISREG(st.st_mode) ? PL_FILE_REGULAR
            : S_ISBLK(st.st_mode) ? PL_FILE_BLOCK : PL_FILE_OTHER;
    f->direct = o->direct;
    f->writable = o->write;
    f->fill = o->fill;
    f->seed = o->seed;
    f->align = 1;
    f->mem_align = 4096;
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

int pl_file_close(struct pl_file *f)
{
    int rc = 0;
    pl_sim_close(f);
    if (f->stdio) {
        if (fclose(f->stdio) != 0)  /* flushes; closes the dup'd descriptor only */
            rc = -errno;
        f->stdio = NULL;
    }
    if (f->fd >= 0 && close(f->fd) < 0 && rc == 0)
        rc = -errno;
    f->fd = -1;
    free(f->buf);
    f->buf = NULL;
    f->buflen = 0;
    free(f->path);
    f->path = NULL;
    return rc;
}

int64_t pl_file_size(struct pl_file *f)
{
    if (f->sim)
        return (int64_t)pl_sim_size(f);
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

int pl_file_check_align(const struct pl_file *f, uint64_t off, uint64_t len)
{
    if (!f->direct)
        return 0;
    if (off % f->align || len % f->align)
        return -EINVAL;
    return 0;
}

/*
 * Plain fd calls after stdio calls must see the stream's logical position and
 * flushed data; stdio calls after fd calls must drop what the stream buffered.
 */
PL_HOT static int leave_stdio(struct pl_file *f)
{
    if (f->sim || !f->stdio || !f->stdio_dirty)
        return 0;
    off_t pos = ftello(f->stdio);
    if (fflush(f->stdio) != 0)
        return -errno;
    f->stdio_dirty = 0;
    if (pos >= 0 && lseek(f->fd, pos, SEEK_SET) < 0)
        return -errno;
    return 0;
}

static int enter_stdio(struct pl_file *f)
{
    if (!f->stdio) {
        int fd = dup(f->fd);  /* shares the offset; fclose must not close f->fd */
        if (fd < 0)
            return -errno;
        f->stdio = fdopen(fd, f->writable ? "r+" : "r");
        if (!f->stdio) {
            int err = errno;
            close(fd);
            return -err;
        }
    }
    if (!f->stdio_dirty) {
        off_t pos = lseek(f->fd, 0, SEEK_CUR);
        if (pos < 0 || fseeko(f->stdio, pos, SEEK_SET) != 0)
            return -errno;
        f->stdio_dirty = 1;
    }
    return 0;
}

static int prep(struct pl_file *f, size_t n)
{
    int rc = leave_stdio(f);
    if (rc)
        return rc;
    return pl_file_reserve(f, n);
}

/*
 * One transfer on a simulated file, timed on the virtual clock. at_pos: at the
 * file position (read/write), which then advances; else at off (pread/pwrite).
 */
static ssize_t sim_transfer(struct pl_file *f, enum pl_sim_op op, int at_pos, uint64_t off,
                            size_t n, uint64_t *ns)
{
    uint64_t t0 = pl_clock_ns();
    if (at_pos)
        off = pl_sim_pos(f);
    int64_t r = pl_sim_io(f, op, off, n);
    if (at_pos && r > 0)
        pl_sim_setpos(f, off + (uint64_t)r);
    *ns = pl_clock_ns() - t0;
    return r;
}

PL_HOT ssize_t pl_file_read(struct pl_file *f, size_t n, uint64_t *ns)
{
    int rc = prep(f, n);
    if (rc)
        return rc;
    if (f->sim)
        return sim_transfer(f, PL_SIM_READ, 1, 0, n, ns);
    uint64_t t0 = pl_clock_ns();
    ssize_t r = read(f->fd, f->buf, n);
    *ns = pl_clock_ns() - t0;
    return r < 0 ? -errno : r;
}

PL_HOT ssize_t pl_file_write(struct pl_file *f, size_t n, uint64_t *ns)
{
    return pl_file_write_from(f, NULL, n, ns);
}

ssize_t pl_file_write_from(struct pl_file *f, const void *src, size_t n, uint64_t *ns)
{
    int rc = prep(f, src ? 0 : n);
    if (rc)
        return rc;
    if (f->sim)
        return sim_transfer(f, PL_SIM_WRITE, 1, 0, n, ns);
    uint64_t t0 = pl_clock_ns();
    ssize_t r = write(f->fd, src ? src : f->buf, n);
    *ns = pl_clock_ns() - t0;
    return r < 0 ? -errno : r;
}

PL_HOT ssize_t pl_file_pread(struct pl_file *f, uint64_t off, size_t n, uint64_t *ns)
{
    int rc = prep(f, n);
    if (rc)
        return rc;
    if (f->sim)
        return sim_transfer(f, PL_SIM_READ, 0, off, n, ns);
    uint64_t t0 = pl_clock_ns();
    ssize_t r = pread(f->fd, f->buf, n, (off_t)off);
    *ns = pl_clock_ns() - t0;
    return r < 0 ? -errno : r;
}

PL_HOT ssize_t pl_file_pwrite(struct pl_file *f, uint64_t off, size_t n, uint64_t *ns)
{
    return pl_file_pwrite_from(f, NULL, off, n, ns);
}

PL_HOT ssize_t pl_file_pwrite_from(struct pl_file *f, const void *src, uint64_t off, size_t n,
                            uint64_t *ns)
{
    int rc = prep(f, src ? 0 : n);
    if (rc)
        return rc;
    if (f->sim)
        return sim_transfer(f, PL_SIM_WRITE, 0, off, n, ns);
    uint64_t t0 = pl_clock_ns();
    ssize_t r = pwrite(f->fd, src ? src : f->buf, n, (off_t)off);
    *ns = pl_clock_ns() - t0;
    return r < 0 ? -errno : r;
}

/* fsync or fdatasync, timed (the simulated disk writes back either way). */
static int sync_file(struct pl_file *f, int data_only, uint64_t *ns)
{
    int rc = leave_stdio(f);
    if (rc)
        return rc;
    uint64_t t0 = pl_clock_ns();
    int r;
    if (f->sim)
        r = pl_sim_fsync(f);
    else if ((data_only ? fdatasync(f->fd) : fsync(f->fd)) < 0)
        r = -errno;
    else
        r = 0;
    *ns = pl_clock_ns() - t0;
    return r;
}

int pl_file_fsync(struct pl_file *f, uint64_t *ns)
{
    return sync_file(f, 0, ns);
}

int pl_file_fdatasync(struct pl_file *f, uint64_t *ns)
{
    return sync_file(f, 1, ns);
}

int64_t pl_file_putc(struct pl_file *f, uint64_t n, uint64_t *ns)
{
    if (f->sim) {
        uint64_t t0 = pl_clock_ns();
        int64_t r = f->writable ? pl_sim_chars(f, PL_SIM_WRITE, n) : -EBADF;
        *ns = pl_clock_ns() - t0;
        return r;
    }
    int rc = enter_stdio(f);
    if (rc)
        return rc;
    FILE *s = f->stdio;
    uint64_t i;
    uint64_t t0 = pl_clock_ns();
    for (i = 0; i < n; i++)
        if (putc((int)(i & 0x7f), s) == EOF)
            break;
    *ns = pl_clock_ns() - t0;
    if (i < n)
        return ferror(s) ? -(errno ? errno : EIO) : (int64_t)i;
    return (int64_t)i;
}

int64_t pl_file_getc(struct pl_file *f, uint64_t n, uint64_t *ns)
{
    if (f->sim) {
        uint64_t t0 = pl_clock_ns();
        int64_t r = pl_sim_chars(f, PL_SIM_READ, n);
        *ns = pl_clock_ns() - t0;
        return r;
    }
    int rc = enter_stdio(f);
    if (rc)
        return rc;
    FILE *s = f->stdio;
    uint64_t i;
    int c = 0;
    uint64_t t0 = pl_clock_ns();
    for (i = 0; i < n; i++) {
        if ((c = getc(s)) == EOF)
            break;
        f->getc_hist[c & 0xff]++;
    }
    *ns = pl_clock_ns() - t0;
    if (c == EOF && ferror(s))
        return -(errno ? errno : EIO);
    return (int64_t)i;
}

int pl_file_truncate(struct pl_file *f, uint64_t size)
{
    if (f->sim)
        return -ENOTSUP;
    int rc = leave_stdio(f);
    if (rc)
        return rc;
    return ftruncate(f->fd, (off_t)size) < 0 ? -errno : 0;
}

int64_t pl_file_seek(struct pl_file *f, int64_t off, int whence)
{
    if (f->sim)
        return pl_sim_seek(f, off, whence);
    int rc = leave_stdio(f);
    if (rc)
        return rc;
    off_t r = lseek(f->fd, (off_t)off, whence);
    return r < 0 ? -errno : (int64_t)r;
}
