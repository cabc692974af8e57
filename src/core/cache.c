/*
 * Page-cache control for a target: drop its pages (fadvise, BLKFLSBUF), count
 * what is resident (mmap + mincore), get and set readahead (BLKRAGET/BLKRASET
 * or the sysfs knob), fadvise hints, and the system-wide drop_caches.
 */
#include "cache.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "device.h"
#include "guard.h"

/* Map (and so size the mincore vector for) at most this much at a time. */
#define PL_RESIDENT_CHUNK (1ULL << 30)

/* Record a failure in *e (if given) and return -err. */
static int fail(struct pl_error *e, const char *op, int err)
{
    if (e != NULL) {
        e->err = err;
        e->op = op;
        e->msg[0] = '\0';
    }
    return -err;
}

/* Like fail(), with the path of the file involved as extra text. */
static int fail_path(struct pl_error *e, const char *op, int err, const char *path)
{
    if (e != NULL) {
        int n;

        fail(e, op, err);
        n = snprintf(e->msg, sizeof e->msg, "%s", path);
        if (n < 0)
            e->msg[0] = '\0';
    }
    return -err;
}

int pl_cache_drop(struct pl_file *f, struct pl_error *e)
{
    int rc;
    if (f->kind == PL_FILE_BLOCK) {
        if (fsync(f->fd) < 0)
            return fail(e, "fsync", errno);
        /* Writes back and invalidates the device's buffer cache (root only). */
        if (ioctl(f->fd, BLKFLSBUF, 0) < 0)
            return fail(e, "BLKFLSBUF", errno);
    } else {
        if (fdatasync(f->fd) < 0)
            return fail(e, "fdatasync", errno);
    }
    /* posix_fadvise reports the error number itself and leaves errno alone. */
    rc = posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);
    if (rc != 0)
        return fail(e, "posix_fadvise", rc);
    return 0;
}

/* Size of the target in bytes: st_size, or BLKGETSIZE64 for a device. */
static int target_size(int fd, uint64_t *size, struct pl_error *e)
{
    struct stat st;

    if (fstat(fd, &st) < 0)
        return fail(e, "fstat", errno);
    if (S_ISBLK(st.st_mode)) {
        uint64_t bytes = 0;

        if (ioctl(fd, BLKGETSIZE64, &bytes) < 0)
            return fail(e, "BLKGETSIZE64", errno);
        *size = bytes;
    } else {
        *size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
    }
    return 0;
}

int pl_cache_resident(struct pl_file *f, uint64_t off, uint64_t len, uint64_t *resident,
                      uint64_t *total, struct pl_error *e)
{
    long page_l = sysconf(_SC_PAGESIZE);
    uint64_t page, size = 0, start, end, pos, chunk_max, n_res = 0;
    unsigned char *vec;
    int rc;

    *resident = 0;
    *total = 0;
    if (page_l <= 0)
        return fail(e, "sysconf", EINVAL);
    page = (uint64_t)page_l;

    rc = target_size(f->fd, &size, e);
    if (rc < 0)
        return rc;
    if (off >= size)
        return 0;
    end = (len == 0 || len > size - off) ? size : off + len;
    start = off - off % page;

    chunk_max = PL_RESIDENT_CHUNK;
    if (chunk_max > end - start)
        chunk_max = end - start;
    vec = malloc((size_t)((chunk_max + page - 1) / page));
    if (vec == NULL)
        return fail(e, "malloc", ENOMEM);

    /*
     * Map the range a chunk at a time and ask mincore which pages are in the
     * page cache. Mapping does not fault anything in. (The kernel only answers
     * truthfully for files the caller could write, or owns; otherwise pages not
     * mapped by this process read as absent.)
     */
    for (pos = start; pos < end;) {
        uint64_t clen = end - pos, pages, i;
        void *map;

        if (clen > PL_RESIDENT_CHUNK)
            clen = PL_RESIDENT_CHUNK;
        pages = (clen + page - 1) / page;
        map = mmap(NULL, (size_t)clen, PROT_READ, MAP_SHARED, f->fd, (off_t)pos);
        if (map == MAP_FAILED) {
            rc = fail(e, "mmap", errno);
            free(vec);
            return rc;
        }
        if (mincore(map, (size_t)clen, vec) < 0) {
            rc = fail(e, "mincore", errno);
            munmap(map, (size_t)clen);
            free(vec);
            return rc;
        }
        munmap(map, (size_t)clen);
        for (i = 0; i < pages; i++)
            n_res += vec[i] & 1;
        *total += pages;
        pos += clen;
    }
    free(vec);
    *resident = n_res;
    return 0;
}

/*
 * Before a readahead is first changed, remember its value to put back at exit
 * (guard.c): a device's readahead is a system-wide setting, and a benchmark
 * must not leave it changed. The knob is the device queue's read_ahead_kb;
 * the disk's diskseq tells at exit whether it is still the same device.
 */
static void knob_paths(const char *qdir, char *knob, size_t klen, char *ident, size_t ilen)
{
    const char *slash = strrchr(qdir, '/');
    int dlen = slash ? (int)(slash - qdir) : 0;

    snprintf(knob, klen, "%s/read_ahead_kb", qdir);
    snprintf(ident, ilen, "%.*s/diskseq", dlen, qdir);
}

static void remember_readahead(const char *qdir, const char *old_text)
{
    char knob[PATH_MAX + 16], ident[PATH_MAX + 16];

    knob_paths(qdir, knob, sizeof knob, ident, sizeof ident);
    pl_restore_add(knob, old_text, ident);
}

/* After a change: the value platter left, as the knob reads it. */
static void note_readahead(const char *qdir, int64_t kb)
{
    char knob[PATH_MAX + 16], ident[PATH_MAX + 16], text[32];

    knob_paths(qdir, knob, sizeof knob, ident, sizeof ident);
    snprintf(text, sizeof text, "%lld", (long long)kb);
    pl_restore_wrote(knob, text);
}

/* Readahead through the device ioctls: 512-byte sectors, KiB for us. */
static int64_t readahead_block(struct pl_file *f, int64_t set_kb, struct pl_error *e)
{
    long sectors = 0;
    char qdir[PATH_MAX];
    int have_q = 0;

    if (set_kb >= 0) {
        struct stat st;
        if (set_kb > (int64_t)(LONG_MAX / 2))
            return fail(e, "BLKRASET", EINVAL);
        if (fstat(f->fd, &st) == 0 &&
            pl_device_queue_dir(major(st.st_rdev), minor(st.st_rdev), qdir, sizeof qdir) == 0)
            have_q = 1;
        if (have_q && ioctl(f->fd, BLKRAGET, &sectors) == 0) {
            char text[32];
            snprintf(text, sizeof text, "%ld", sectors / 2);
            remember_readahead(qdir, text);
        }
        if (ioctl(f->fd, BLKRASET, (unsigned long)(set_kb * 2)) < 0)
            return fail(e, "BLKRASET", errno);
    }
    if (ioctl(f->fd, BLKRAGET, &sectors) < 0)
        return fail(e, "BLKRAGET", errno);
    if (have_q)
        note_readahead(qdir, (int64_t)(sectors / 2));
    return (int64_t)(sectors / 2);
}

/* Readahead of a file's backing device through queue/read_ahead_kb. */
static int64_t readahead_sysfs(struct pl_file *f, int64_t set_kb, struct pl_error *e)
{
    struct pl_devinfo d;
    char qdir[PATH_MAX], knob[PATH_MAX], buf[64], *end;
    ssize_t n;
    long long v;
    int fd, rc;

    rc = pl_device_info(f->fd, f->path, &d);
    if (rc < 0)
        return fail(e, "fstat", -rc);
    if (pl_device_queue_dir(d.dev_major, d.dev_minor, qdir, sizeof qdir) < 0)
        return fail(e, "read_ahead_kb", ENODEV); /* no sysfs device behind it */
    n = snprintf(knob, sizeof knob, "%s/read_ahead_kb", qdir);
    if (n < 0 || (size_t)n >= sizeof knob)
        return fail(e, "read_ahead_kb", ENAMETOOLONG);

    if (set_kb >= 0) {
        int len = snprintf(buf, sizeof buf, "%lld\n", (long long)set_kb);

        fd = open(knob, O_RDONLY | O_CLOEXEC); /* the value to put back at exit */
        if (fd >= 0) {
            char old[32];
            ssize_t got = read(fd, old, sizeof old - 1);
            close(fd);
            if (got > 0) {
                old[got] = '\0';
                remember_readahead(qdir, old);
            }
        }
        fd = open(knob, O_WRONLY | O_CLOEXEC);
        if (fd < 0)
            return fail_path(e, "open read_ahead_kb", errno, knob);
        n = write(fd, buf, (size_t)len);
        if (n < 0) {
            rc = fail_path(e, "write read_ahead_kb", errno, knob);
            close(fd);
            return rc;
        }
        close(fd);
    }

    fd = open(knob, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fail_path(e, "open read_ahead_kb", errno, knob);
    n = read(fd, buf, sizeof buf - 1);
    if (n < 0) {
        rc = fail_path(e, "read read_ahead_kb", errno, knob);
        close(fd);
        return rc;
    }
    close(fd);
    buf[n] = '\0';
    errno = 0;
    v = strtoll(buf, &end, 10);
    if (errno != 0 || end == buf || v < 0)
        return fail_path(e, "read read_ahead_kb", EINVAL, knob);
    if (set_kb >= 0)
        note_readahead(qdir, (int64_t)v);
    return (int64_t)v;
}

int64_t pl_cache_readahead(struct pl_file *f, int64_t set_kb, struct pl_error *e)
{
    if (f->kind == PL_FILE_BLOCK)
        return readahead_block(f, set_kb, e);
    return readahead_sysfs(f, set_kb, e);
}

int pl_cache_advise(struct pl_file *f, enum pl_advice a, uint64_t off, uint64_t len,
                    struct pl_error *e)
{
    int adv, rc;

    switch (a) {
    case PL_ADV_NORMAL: adv = POSIX_FADV_NORMAL; break;
    case PL_ADV_SEQUENTIAL: adv = POSIX_FADV_SEQUENTIAL; break;
    case PL_ADV_RANDOM: adv = POSIX_FADV_RANDOM; break;
    case PL_ADV_WILLNEED: adv = POSIX_FADV_WILLNEED; break;
    case PL_ADV_DONTNEED: adv = POSIX_FADV_DONTNEED; break;
    default: return fail(e, "posix_fadvise", EINVAL);
    }
    if (off > (uint64_t)INT64_MAX || len > (uint64_t)INT64_MAX)
        return fail(e, "posix_fadvise", EINVAL);
    rc = posix_fadvise(f->fd, (off_t)off, (off_t)len, adv);
    if (rc != 0)
        return fail(e, "posix_fadvise", rc);
    return 0;
}

/* /proc/sys/vm/drop_caches, opened before the sandbox closes /proc to writes */
static int drop_fd = -1;

void pl_cache_preopen(void)
{
    if (drop_fd < 0)
        drop_fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
}

int pl_cache_drop_system(struct pl_error *e)
{
    static const char three[] = "3\n";
    ssize_t n;
    int fd, rc;

    sync();
    fd = drop_fd >= 0 ? drop_fd : open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return fail(e, "open /proc/sys/vm/drop_caches", errno);
    n = pwrite(fd, three, sizeof three - 1, 0);
    rc = n < 0 ? fail(e, "write /proc/sys/vm/drop_caches", errno) : 0;
    if (fd != drop_fd)
        close(fd);
    if (rc)
        return rc;
    if ((size_t)n != sizeof three - 1)
        return fail(e, "write /proc/sys/vm/drop_caches", EIO);
    return 0;
}
