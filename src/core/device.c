/*
 * What a file or block device sits on: sizes and block sizes (fstat, ioctls,
 * statx DIO alignment), the backing device's sysfs queue facts, and the
 * filesystem and mount options from /proc/self/mountinfo.
 */
#include "device.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "config.h"

/*
 * statx and STATX_DIOALIGN. When <sys/stat.h> pulled in the kernel's
 * <linux/stat.h> (modern glibc does), STATX_DIOALIGN is defined here and
 * glibc's struct statx is the kernel one, dio fields included. Otherwise the
 * build may still know STATX_DIOALIGN from the kernel headers while glibc's own
 * struct statx stops short of the dio fields: then we ask the kernel directly
 * with the raw syscall. If glibc has no statx at all, <linux/stat.h> can be
 * included without clashing; if glibc has its own struct statx, including it
 * would redefine the struct, so we describe the kernel ABI layout ourselves
 * (it only ever grows at the end, so the offsets below are fixed).
 */
#if defined(STATX_DIOALIGN) && PL_HAVE_STATX
#define PL_STATX_GLIBC 1
#elif PL_HAVE_STATX_DIOALIGN && defined(SYS_statx)
#if !PL_HAVE_STATX && !defined(STATX_DIOALIGN)
#include <linux/stat.h>
#endif
#if defined(STATX_DIOALIGN)
#define PL_STATX_KERNEL 1
#else
#define PL_STATX_MIRROR 1
#define PL_STATX_DIOALIGN_BIT 0x00002000U
struct pl_kstatx {
    uint32_t mask;             /* offset 0: stx_mask */
    uint32_t before[37];       /* blksize .. stx_mnt_id */
    uint32_t dio_mem_align;    /* offset 152 */
    uint32_t dio_offset_align; /* offset 156 */
    uint32_t after[24];        /* rest of the 256-byte struct */
};
_Static_assert(offsetof(struct pl_kstatx, dio_mem_align) == 152, "stx_dio_mem_align at 152");
_Static_assert(sizeof(struct pl_kstatx) == 256, "kernel struct statx is 256 bytes");
#endif
#endif

/* ---- small string and file helpers ------------------------------------- */

/* Copy src into dst (capacity cap), truncating and always terminating. */
static void copy_str(char *dst, size_t cap, const char *src)
{
    size_t n;

    if (cap == 0)
        return;
    n = strlen(src);
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* Strip leading and trailing white space in place; returns the new start. */
static char *trim(char *s)
{
    size_t n;

    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

/* Join dir and name into buf; -ENAMETOOLONG if it does not fit. */
static int join(char *buf, size_t cap, const char *dir, const char *name)
{
    int n = snprintf(buf, cap, "%s/%s", dir, name);

    if (n < 0 || (size_t)n >= cap)
        return -ENAMETOOLONG;
    return 0;
}

/* Read a small text file (a sysfs attribute) into buf, trimmed. 0 or -errno. */
static int read_text(const char *path, char *buf, size_t cap)
{
    char tmp[512];
    ssize_t n;
    int fd;

    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    do {
        n = read(fd, tmp, sizeof tmp - 1);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        int err = errno;
        close(fd);
        return -err;
    }
    close(fd);
    tmp[n] = '\0';
    copy_str(buf, cap, trim(tmp));
    return 0;
}

/* Read dir/name into buf. 0 or -errno. */
static int read_attr(const char *dir, const char *name, char *buf, size_t cap)
{
    char path[PATH_MAX];
    int rc = join(path, sizeof path, dir, name);

    if (rc < 0)
        return rc;
    return read_text(path, buf, cap);
}

/* dir/name as a non-negative integer, or -1 if missing or not a number. */
static long long read_attr_num(const char *dir, const char *name)
{
    char buf[64], *end;
    long long v;

    if (read_attr(dir, name, buf, sizeof buf) < 0 || buf[0] == '\0')
        return -1;
    errno = 0;
    v = strtoll(buf, &end, 10);
    if (errno != 0 || *end != '\0' || v < 0)
        return -1;
    return v;
}

static int is_dir(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ---- sysfs --------------------------------------------------------------- */

/*
 * Resolve /sys/dev/block/MAJ:MIN. dev_dir gets the device's own sysfs
 * directory (its basename is the kernel name, "vda1" for a partition) and
 * queue_dir the queue/ directory that governs it: the device's own, or for a
 * partition (which has none) its parent disk's. 0, -ENOENT or -ENAMETOOLONG.
 */
static int sysfs_dirs(unsigned major, unsigned minor, char *dev_dir, size_t dcap, char *queue_dir,
                      size_t qcap)
{
    char link[64], real[PATH_MAX], parent[PATH_MAX], q[PATH_MAX];
    char *slash;

    snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major, minor);
    if (realpath(link, real) == NULL)
        return -ENOENT;
    if (strlen(real) >= dcap)
        return -ENAMETOOLONG;
    copy_str(dev_dir, dcap, real);

    if (join(q, sizeof q, real, "queue") == 0 && is_dir(q)) {
        if (strlen(q) >= qcap)
            return -ENAMETOOLONG;
        copy_str(queue_dir, qcap, q);
        return 0;
    }
    copy_str(parent, sizeof parent, real);
    slash = strrchr(parent, '/');
    if (slash == NULL || slash == parent)
        return -ENOENT;
    *slash = '\0';
    if (join(q, sizeof q, parent, "queue") == 0 && is_dir(q)) {
        if (strlen(q) >= qcap)
            return -ENAMETOOLONG;
        copy_str(queue_dir, qcap, q);
        return 0;
    }
    return -ENOENT;
}

/* buf gets the queue/ directory itself (".../block/vda/queue"). */
int pl_device_queue_dir(unsigned major, unsigned minor, char *buf, unsigned len)
{
    char dev_dir[PATH_MAX];

    return sysfs_dirs(major, minor, dev_dir, sizeof dev_dir, buf, len);
}

/* Fill the sysfs facts of the device major:minor. Returns 0 if it was found. */
static int fill_sysfs(struct pl_devinfo *d, unsigned major, unsigned minor)
{
    char dev_dir[PATH_MAX], queue_dir[PATH_MAX], disk_dir[PATH_MAX], buf[256];
    const char *base, *open_br, *close_br;
    char *slash;
    long long v;

    if (sysfs_dirs(major, minor, dev_dir, sizeof dev_dir, queue_dir, sizeof queue_dir) < 0)
        return -ENOENT;

    base = strrchr(dev_dir, '/');
    copy_str(d->device, sizeof d->device, base ? base + 1 : dev_dir);

    /* The whole disk is the directory holding queue/: it owns device/model. */
    copy_str(disk_dir, sizeof disk_dir, queue_dir);
    slash = strrchr(disk_dir, '/');
    if (slash != NULL)
        *slash = '\0';
    if (read_attr(disk_dir, "device/model", buf, sizeof buf) == 0)
        copy_str(d->model, sizeof d->model, buf);

    if (d->logical_block == 0 && (v = read_attr_num(queue_dir, "logical_block_size")) > 0)
        d->logical_block = (uint32_t)v;
    if (d->physical_block == 0 && (v = read_attr_num(queue_dir, "physical_block_size")) > 0)
        d->physical_block = (uint32_t)v;
    v = read_attr_num(queue_dir, "rotational");
    if (v == 0 || v == 1)
        d->rotational = (int)v;
    v = read_attr_num(queue_dir, "read_ahead_kb");
    if (v >= 0 && v <= INT_MAX)
        d->read_ahead_kb = (int)v;

    /* "none [mq-deadline] kyber": the bracketed one is in use. */
    if (read_attr(queue_dir, "scheduler", buf, sizeof buf) == 0) {
        open_br = strchr(buf, '[');
        close_br = open_br ? strchr(open_br, ']') : NULL;
        if (open_br != NULL && close_br != NULL) {
            size_t n = (size_t)(close_br - open_br - 1);
            if (n >= sizeof d->scheduler)
                n = sizeof d->scheduler - 1;
            memcpy(d->scheduler, open_br + 1, n);
            d->scheduler[n] = '\0';
        } else {
            copy_str(d->scheduler, sizeof d->scheduler, "none");
        }
    }
    if (read_attr(queue_dir, "write_cache", buf, sizeof buf) == 0)
        copy_str(d->write_cache, sizeof d->write_cache, buf);
    /* zoned devices: a zone is chunk_sectors (512-byte sectors) long */
    if (read_attr(queue_dir, "zoned", buf, sizeof buf) == 0)
        copy_str(d->zoned, sizeof d->zoned, buf);
    if (d->zoned[0] && strcmp(d->zoned, "none") != 0) {
        if ((v = read_attr_num(queue_dir, "chunk_sectors")) > 0)
            d->zone_size = (uint64_t)v << 9;
        if ((v = read_attr_num(queue_dir, "nr_zones")) > 0 && v <= UINT32_MAX)
            d->nr_zones = (uint32_t)v;
        if ((v = read_attr_num(queue_dir, "max_open_zones")) > 0 && v <= UINT32_MAX)
            d->max_open_zones = (uint32_t)v;
        if ((v = read_attr_num(queue_dir, "max_active_zones")) > 0 && v <= UINT32_MAX)
            d->max_active_zones = (uint32_t)v;
    }
    return 0;
}

/* ---- statx DIO alignment ----------------------------------------------- */

static void fill_dio(int fd, struct pl_devinfo *d)
{
#if defined(PL_STATX_GLIBC)
    struct statx sx;

    memset(&sx, 0, sizeof sx);
    if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN)) {
        d->dio_mem_align = sx.stx_dio_mem_align;
        d->dio_offset_align = sx.stx_dio_offset_align;
    }
#elif defined(PL_STATX_KERNEL)
    struct statx sx;

    memset(&sx, 0, sizeof sx);
    if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 &&
        (sx.stx_mask & STATX_DIOALIGN)) {
        d->dio_mem_align = sx.stx_dio_mem_align;
        d->dio_offset_align = sx.stx_dio_offset_align;
    }
#elif defined(PL_STATX_MIRROR)
    struct pl_kstatx sx;

    memset(&sx, 0, sizeof sx);
    if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH, PL_STATX_DIOALIGN_BIT, &sx) == 0 &&
        (sx.mask & PL_STATX_DIOALIGN_BIT)) {
        d->dio_mem_align = sx.dio_mem_align;
        d->dio_offset_align = sx.dio_offset_align;
    }
#else
    (void)fd;
    (void)d;
#endif
}

/* ---- /proc/self/mountinfo ----------------------------------------------- */

struct mount_hit {
    int found;
    size_t point_len; /* length of the matched mount point */
    char point[PATH_MAX];
    char type[64];
    char source[PATH_MAX];
    char opts[512];       /* per-mount options */
    char super_opts[512]; /* filesystem (super block) options */
};

/* Undo mountinfo's octal escapes (\040 space, \011 tab, \012 newline, \134 \\). */
static void unescape(char *s)
{
    char *out = s;

    while (*s) {
        if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
            s[3] >= '0' && s[3] <= '7') {
            *out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
            s += 4;
        } else {
            *out++ = *s++;
        }
    }
    *out = '\0';
}

/* Is the mount point mp a whole-component prefix of the absolute path p? */
static int covers(const char *mp, const char *p)
{
    size_t n = strlen(mp);

    if (strcmp(mp, "/") == 0)
        return p[0] == '/';
    return strncmp(mp, p, n) == 0 && (p[n] == '/' || p[n] == '\0');
}

/*
 * Find the mount of device major:minor. With a path, the one whose mount point
 * is the longest prefix of it (a later entry wins a tie: it is mounted on top);
 * with no path, or when no mount point is a prefix, the first entry of that
 * device.
 */
static void find_mount(unsigned major, unsigned minor, const char *path, struct mount_hit *h)
{
    FILE *fp;
    char *line = NULL;
    size_t cap = 0;
    int have_fallback = 0;
    struct mount_hit fallback;

    memset(h, 0, sizeof *h);
    fp = fopen("/proc/self/mountinfo", "re");
    if (fp == NULL)
        return;

    while (getline(&line, &cap, fp) > 0) {
        /* id parent maj:min root point opts [optional...] - type source super */
        char *f[64], *save = NULL, *tok;
        int nf = 0, dash = -1;
        unsigned ma, mi;
        struct mount_hit *dst;

        for (tok = strtok_r(line, " \n", &save); tok && nf < 64;
             tok = strtok_r(NULL, " \n", &save)) {
            if (dash < 0 && nf >= 6 && strcmp(tok, "-") == 0)
                dash = nf;
            f[nf++] = tok;
        }
        if (dash < 0 || nf < dash + 4)
            continue;
        if (sscanf(f[2], "%u:%u", &ma, &mi) != 2 || ma != major || mi != minor)
            continue;
        unescape(f[4]);
        unescape(f[dash + 2]);

        if (path != NULL && covers(f[4], path)) {
            size_t n = strlen(f[4]);
            if (h->found && n < h->point_len)
                continue;
            dst = h;
            dst->point_len = n;
        } else if (!have_fallback) {
            dst = &fallback;
            have_fallback = 1;
        } else {
            continue;
        }
        dst->found = 1;
        copy_str(dst->point, sizeof dst->point, f[4]);
        copy_str(dst->opts, sizeof dst->opts, f[5]);
        copy_str(dst->type, sizeof dst->type, f[dash + 1]);
        copy_str(dst->source, sizeof dst->source, f[dash + 2]);
        copy_str(dst->super_opts, sizeof dst->super_opts, f[dash + 3]);
    }
    free(line);
    fclose(fp);
    if (!h->found && have_fallback)
        *h = fallback;
}

/* Is the option tok already in the comma-separated list? */
static int has_opt(const char *list, const char *tok, size_t toklen)
{
    const char *p = list;

    while (*p) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == toklen && strncmp(p, tok, n) == 0)
            return 1;
        if (end == NULL)
            break;
        p = end + 1;
    }
    return 0;
}

/*
 * Mount options as one list: the per-mount options ("rw,relatime") followed by
 * the filesystem's own options ("rw,discard,...") that are not already there.
 * The super block's rw/ro is dropped: the per-mount flag is what governs this
 * path (a read-only bind mount of a read-write filesystem is read-only). Items
 * that do not fit in the buffer are left out whole.
 */
static void merge_opts(char *out, size_t cap, const char *mnt, const char *super)
{
    const char *p = super;
    size_t len;

    copy_str(out, cap, mnt);
    len = strlen(out);
    while (*p) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        int skip = n == 0 || (n == 2 && (strncmp(p, "rw", 2) == 0 || strncmp(p, "ro", 2) == 0)) ||
                   has_opt(out, p, n);

        if (!skip && len + 1 + n < cap) {
            if (len > 0)
                out[len++] = ',';
            memcpy(out + len, p, n);
            len += n;
            out[len] = '\0';
        }
        if (end == NULL)
            break;
        p = end + 1;
    }
}

/* Absolute path of the open file: realpath(path), else /proc/self/fd/N. */
static int file_realpath(int fd, const char *path, char *buf)
{
    char link[64];
    ssize_t n;
    const char *deleted = " (deleted)";
    size_t dl = strlen(deleted);

    if (path != NULL && realpath(path, buf) != NULL)
        return 0;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    n = readlink(link, buf, PATH_MAX - 1);
    if (n <= 0 || buf[0] != '/')
        return -1;
    buf[n] = '\0';
    if ((size_t)n > dl && strcmp(buf + n - dl, deleted) == 0)
        buf[n - dl] = '\0';
    return 0;
}

/* ---- public ------------------------------------------------------------- */

int pl_device_info(int fd, const char *path, struct pl_devinfo *d)
{
    struct stat st;
    struct mount_hit *h;
    char *real;
    dev_t backing;
    int is_block;

    memset(d, 0, sizeof *d);
    d->rotational = -1;
    d->read_ahead_kb = -1;
    if (fstat(fd, &st) < 0)
        return -errno;

    is_block = S_ISBLK(st.st_mode);
    if (S_ISREG(st.st_mode)) {
        copy_str(d->kind, sizeof d->kind, "file");
        d->size = (uint64_t)st.st_size;
    } else if (is_block) {
        uint64_t bytes = 0;
        int lbs = 0;
        unsigned int pbs = 0;

        copy_str(d->kind, sizeof d->kind, "block");
        if (ioctl(fd, BLKGETSIZE64, &bytes) == 0)
            d->size = bytes;
        if (ioctl(fd, BLKSSZGET, &lbs) == 0 && lbs > 0)
            d->logical_block = (uint32_t)lbs;
        if (ioctl(fd, BLKPBSZGET, &pbs) == 0)
            d->physical_block = pbs;
    } else {
        copy_str(d->kind, sizeof d->kind, "other");
        d->size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
    }
    fill_dio(fd, d);

    backing = is_block ? st.st_rdev : st.st_dev;
    d->dev_major = major(backing);
    d->dev_minor = minor(backing);

    /* Big buffers live on the heap; if that fails we just know less. */
    h = malloc(sizeof *h);
    real = malloc(PATH_MAX);
    if (h == NULL || real == NULL) {
        free(h);
        free(real);
        fill_sysfs(d, d->dev_major, d->dev_minor);
        return 0;
    }

    if (is_block) {
        /* A raw device has no filesystem of its own; note where it is mounted. */
        find_mount(d->dev_major, d->dev_minor, NULL, h);
        if (h->found)
            copy_str(d->mount_point, sizeof d->mount_point, h->point);
        fill_sysfs(d, d->dev_major, d->dev_minor);
    } else {
        int have_real = file_realpath(fd, path, real) == 0;

        struct statvfs vfs;
        if (fstatvfs(fd, &vfs) == 0)
            d->fs_size = (uint64_t)vfs.f_frsize * (uint64_t)vfs.f_blocks;
        find_mount(d->dev_major, d->dev_minor, have_real ? real : NULL, h);
        if (h->found) {
            copy_str(d->fs_type, sizeof d->fs_type, h->type);
            copy_str(d->mount_point, sizeof d->mount_point, h->point);
            merge_opts(d->mount_options, sizeof d->mount_options, h->opts, h->super_opts);
        }
        if (fill_sysfs(d, d->dev_major, d->dev_minor) < 0 && h->found &&
            strncmp(h->source, "/dev/", 5) == 0) {
            /*
             * Filesystems such as btrfs give files an anonymous st_dev that
             * has no sysfs entry; the mount source names the real device.
             */
            struct stat sst;

            if (stat(h->source, &sst) == 0 && S_ISBLK(sst.st_mode) &&
                fill_sysfs(d, major(sst.st_rdev), minor(sst.st_rdev)) == 0) {
                d->dev_major = major(sst.st_rdev);
                d->dev_minor = minor(sst.st_rdev);
            }
        }
    }
    free(h);
    free(real);
    return 0;
}

uint64_t pl_device_ram(void)
{
    long pages = sysconf(_SC_PHYS_PAGES);
    long page = sysconf(_SC_PAGESIZE);

    if (pages <= 0 || page <= 0)
        return 0;
    return (uint64_t)pages * (uint64_t)page;
}

const char *const pl_diskstat_fields[PL_DISKSTAT_NR] = {
    "reads",         "read_merges", "read_sectors", "read_ticks", "writes",        "write_merges",
    "write_sectors", "write_ticks", "in_flight",    "io_ticks",   "time_in_queue",
};

int pl_diskstat_parse(const char *line, struct pl_diskstat *d)
{
    unsigned major, minor;
    int used = 0;
    memset(d, 0, sizeof *d);
    if (sscanf(line, " %u %u %63s%n", &major, &minor, d->name, &used) != 3)
        return -1;
    const char *p = line + used;
    for (int i = 0; i < PL_DISKSTAT_NR; i++) {
        char *end;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p < '0' || *p > '9')
            return -1;
        errno = 0;
        unsigned long long v = strtoull(p, &end, 10);
        if (errno || end == p)
            return -1;
        d->v[i] = v;
        p = end;
    }
    return 0;
}
