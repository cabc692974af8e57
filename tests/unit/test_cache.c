/*
 * Unit tests for core/cache.c: resident-page counts before and after drops,
 * range edge cases, fadvise, readahead on a file, error reporting, and (as
 * root) drop_caches plus readahead and BLKFLSBUF on a loop device.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "cache.h"
#include "loop_image.h"
#include "device.h"

#define MiB (1u << 20)
#define FILE_BYTES (4u * MiB)
#define IMG_BYTES (64u * MiB)

static char file_path[PATH_MAX];  /* 4 MiB file in the cwd */
static char empty_path[PATH_MAX]; /* empty file in the cwd */
static char shm_path[PATH_MAX];   /* file on tmpfs, "" if none */
static struct loop_image li;      /* the image in /tmp and its loop device */
static struct pl_file file;       /* file_path, O_RDWR */
static struct pl_file loop;       /* li.dev, O_RDWR */
static uint64_t page;
static unsigned char iobuf[MiB];

/* Build a struct pl_file by hand (file.c is not needed for these tests). */
static void fake_file(struct pl_file *f, int fd, const char *path, enum pl_file_kind kind)
{
    memset(f, 0, sizeof *f);
    f->fd = fd;
    f->path = (char *)path;
    f->kind = kind;
    f->align = 1;
}

/* Write n bytes of a pattern at offset 0 of fd. 0 or -1. */
static int fill(int fd, size_t n, unsigned char seed)
{
    size_t done = 0;

    for (size_t i = 0; i < sizeof iobuf; i++)
        iobuf[i] = (unsigned char)(i * 13 + seed);
    while (done < n) {
        size_t k = n - done < sizeof iobuf ? n - done : sizeof iobuf;
        ssize_t w = pwrite(fd, iobuf, k, (off_t)done);
        if (w <= 0)
            return -1;
        done += (size_t)w;
    }
    return 0;
}

/* Read [0, n) of fd through the page cache. */
static void read_range(int fd, size_t n)
{
    size_t done = 0;

    while (done < n) {
        size_t k = n - done < sizeof iobuf ? n - done : sizeof iobuf;
        ssize_t r = pread(fd, iobuf, k, (off_t)done);
        assert_true(r > 0);
        done += (size_t)r;
    }
}

static void resident(struct pl_file *f, uint64_t off, uint64_t len, uint64_t *res, uint64_t *tot)
{
    struct pl_error e = {0};

    *res = *tot = 12345;
    assert_int_equal(pl_cache_resident(f, off, len, res, tot, &e), 0);
    assert_int_equal(e.err, 0);
}

static void setup_loop(void)
{
    int fd;

    if (loop_image_attach(&li, "/tmp/pl_test_cache_XXXXXX", IMG_BYTES, NULL, 0) < 0)
        return;
    fd = open(li.dev, O_RDWR);
    if (fd < 0) {
        snprintf(li.why, sizeof li.why, "open %s: %s", li.dev, strerror(errno));
        return;
    }
    fake_file(&loop, fd, li.dev, PL_FILE_BLOCK);
}

static int group_teardown(void **state);

static int group_setup(void **state)
{
    int fd;

    (void)state;
    page = (uint64_t)sysconf(_SC_PAGESIZE);
    file.fd = loop.fd = -1;

    snprintf(file_path, sizeof file_path, "pl_test_cache_XXXXXX");
    fd = mkstemp(file_path);
    if (fd < 0) {
        file_path[0] = '\0';
        return -1;
    }
    fake_file(&file, fd, file_path, PL_FILE_REGULAR);
    snprintf(empty_path, sizeof empty_path, "pl_test_cache_empty_XXXXXX");
    fd = mkstemp(empty_path);
    if (fd < 0)
        empty_path[0] = '\0';
    else
        close(fd);
    if (fill(file.fd, FILE_BYTES, 1) < 0 || empty_path[0] == '\0') {
        group_teardown(NULL);
        return -1;
    }

    snprintf(shm_path, sizeof shm_path, "/dev/shm/pl_test_cache_XXXXXX");
    fd = mkstemp(shm_path);
    if (fd < 0)
        shm_path[0] = '\0';
    else
        close(fd);

    setup_loop();
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    if (file.fd >= 0)
        close(file.fd);
    if (file_path[0])
        unlink(file_path);
    if (empty_path[0])
        unlink(empty_path);
    if (shm_path[0])
        unlink(shm_path);
    if (loop.fd >= 0)
        close(loop.fd);
    loop_image_remove(&li);
    return 0;
}

static void need_loop(void)
{
    if (loop.fd < 0) {
        print_message("skipped: no loop device: %s\n", li.why);
        skip();
    }
}

/* ---- resident pages ------------------------------------------------------ */

static void test_resident_after_read(void **state)
{
    uint64_t res, tot;

    (void)state;
    read_range(file.fd, FILE_BYTES);
    resident(&file, 0, 0, &res, &tot);
    assert_int_equal(tot, FILE_BYTES / page);
    assert_int_equal(res, tot);
    if (page == 4096)
        assert_int_equal(tot, 1024);
}

static void test_drop_then_reread(void **state)
{
    struct pl_error e = {0};
    uint64_t res, tot;

    (void)state;
    read_range(file.fd, FILE_BYTES);
    assert_int_equal(pl_cache_drop(&file, &e), 0);
    resident(&file, 0, 0, &res, &tot);
    assert_int_equal(tot, FILE_BYTES / page);
    assert_true(res <= 8);

    read_range(file.fd, MiB);
    resident(&file, 0, 0, &res, &tot);
    assert_true(res >= MiB / page);
    resident(&file, 0, MiB, &res, &tot);
    assert_int_equal(tot, MiB / page);
    assert_int_equal(res, tot);
}

/* Dirty pages must be written back first, or DONTNEED leaves them. */
static void test_drop_dirty(void **state)
{
    struct pl_error e = {0};
    uint64_t res, tot;

    (void)state;
    assert_int_equal(fill(file.fd, FILE_BYTES, 2), 0);
    resident(&file, 0, 0, &res, &tot);
    assert_int_equal(res, tot);
    assert_int_equal(pl_cache_drop(&file, &e), 0);
    resident(&file, 0, 0, &res, &tot);
    assert_true(res <= 8);
}

static void test_ranges(void **state)
{
    struct pl_file ef;
    uint64_t res, tot;
    int fd;

    (void)state;
    read_range(file.fd, FILE_BYTES);
    /* Empty and beyond-EOF ranges. */
    resident(&file, FILE_BYTES, 0, &res, &tot);
    assert_int_equal(tot, 0);
    assert_int_equal(res, 0);
    resident(&file, FILE_BYTES + 12345, 4096, &res, &tot);
    assert_int_equal(tot, 0);
    assert_int_equal(res, 0);
    /* An unaligned range touching two pages. */
    resident(&file, 10 * page + 100, page, &res, &tot);
    assert_int_equal(tot, 2);
    assert_int_equal(res, 2);
    /* A range running past EOF is clamped. */
    resident(&file, FILE_BYTES - page, 1ull << 40, &res, &tot);
    assert_int_equal(tot, 1);
    /* len 0 from the middle means "to the end". */
    resident(&file, FILE_BYTES / 2, 0, &res, &tot);
    assert_int_equal(tot, FILE_BYTES / 2 / page);
    assert_int_equal(res, tot);

    fd = open(empty_path, O_RDONLY);
    assert_true(fd >= 0);
    fake_file(&ef, fd, empty_path, PL_FILE_REGULAR);
    resident(&ef, 0, 0, &res, &tot);
    close(fd);
    assert_int_equal(tot, 0);
    assert_int_equal(res, 0);
}

/* ---- fadvise ------------------------------------------------------------- */

static void test_advise(void **state)
{
    struct pl_error e = {0};
    uint64_t res, tot;
    int tries;

    (void)state;
    assert_int_equal(pl_cache_advise(&file, PL_ADV_NORMAL, 0, 0, &e), 0);
    assert_int_equal(pl_cache_advise(&file, PL_ADV_SEQUENTIAL, 0, 0, &e), 0);
    assert_int_equal(pl_cache_advise(&file, PL_ADV_RANDOM, 0, 0, &e), 0);

    /* DONTNEED on clean pages empties the cache... */
    assert_int_equal(fdatasync(file.fd), 0);
    read_range(file.fd, FILE_BYTES);
    assert_int_equal(pl_cache_advise(&file, PL_ADV_DONTNEED, 0, 0, &e), 0);
    resident(&file, 0, 0, &res, &tot);
    assert_true(res <= 8);

    /* ...and WILLNEED starts reading it back (asynchronously). */
    assert_int_equal(pl_cache_advise(&file, PL_ADV_WILLNEED, 0, 0, &e), 0);
    for (tries = 0; tries < 200; tries++) {
        resident(&file, 0, 0, &res, &tot);
        if (res == tot)
            break;
        usleep(10000);
    }
    assert_int_equal(res, tot);
    assert_int_equal(pl_cache_advise(&file, PL_ADV_NORMAL, 0, 0, &e), 0);

    /* DONTNEED over a range (ioping's per-request drop) leaves the rest cached */
    read_range(file.fd, FILE_BYTES);
    assert_int_equal(pl_cache_advise(&file, PL_ADV_DONTNEED, 0, FILE_BYTES / 2, &e), 0);
    resident(&file, 0, FILE_BYTES / 2, &res, &tot);
    assert_true(res <= 8);
    resident(&file, FILE_BYTES / 2, 0, &res, &tot);
    assert_int_equal(res, tot);

    assert_int_equal(pl_cache_advise(&file, (enum pl_advice)99, 0, 0, &e), -EINVAL);
    assert_int_equal(e.err, EINVAL);
    assert_non_null(e.op);
}

/* ---- errors ---------------------------------------------------------------- */

static void test_errors(void **state)
{
    struct pl_error e;
    struct pl_file wf, bad, pf;
    uint64_t res, tot;
    int fd, fds[2];

    (void)state;
    /* mincore needs a readable mapping: a write-only fd cannot be mapped. */
    fd = open(file_path, O_WRONLY);
    assert_true(fd >= 0);
    fake_file(&wf, fd, file_path, PL_FILE_REGULAR);
    memset(&e, 0, sizeof e);
    assert_int_equal(pl_cache_resident(&wf, 0, 0, &res, &tot, &e), -EACCES);
    close(fd);
    assert_int_equal(e.err, EACCES);
    assert_string_equal(e.op, "mmap");

    fake_file(&bad, -1, "nowhere", PL_FILE_REGULAR);
    memset(&e, 0, sizeof e);
    assert_int_equal(pl_cache_drop(&bad, &e), -EBADF);
    assert_int_equal(e.err, EBADF);
    assert_string_equal(e.op, "fdatasync");
    memset(&e, 0, sizeof e);
    assert_int_equal(pl_cache_resident(&bad, 0, 0, &res, &tot, &e), -EBADF);
    assert_int_equal(e.err, EBADF);
    assert_string_equal(e.op, "fstat");

    /* posix_fadvise returns its error rather than setting errno. */
    assert_int_equal(pipe(fds), 0);
    fake_file(&pf, fds[0], "pipe", PL_FILE_OTHER);
    memset(&e, 0, sizeof e);
    assert_int_equal(pl_cache_advise(&pf, PL_ADV_RANDOM, 0, 0, &e), -ESPIPE);
    close(fds[0]);
    close(fds[1]);
    assert_int_equal(e.err, ESPIPE);
    assert_string_equal(e.op, "posix_fadvise");
}

/* ---- readahead on a file ------------------------------------------------- */

static void test_readahead_file(void **state)
{
    struct pl_error e = {0};
    struct stat st;
    char q[PATH_MAX], p[PATH_MAX + 32];
    FILE *fp;
    long want = -1;
    int64_t ra;

    (void)state;
    assert_int_equal(fstat(file.fd, &st), 0);
    ra = pl_cache_readahead(&file, -1, &e);
    if (pl_device_queue_dir(major(st.st_dev), minor(st.st_dev), q, sizeof q) < 0) {
        assert_int_equal(ra, -ENODEV);
        print_message("skipped: %s is not on a block device\n", file_path);
        skip();
    }
    snprintf(p, sizeof p, "%s/read_ahead_kb", q);
    fp = fopen(p, "r");
    assert_non_null(fp);
    assert_int_equal(fscanf(fp, "%ld", &want), 1);
    fclose(fp);
    assert_int_equal(ra, want);
    print_message("read_ahead_kb of the build device: %lld\n", (long long)ra);

    /* Writing the knob needs root; write back the same value (no change). */
    if (geteuid() == 0)
        assert_int_equal(pl_cache_readahead(&file, ra, &e), ra);
}

static void test_readahead_tmpfs(void **state)
{
    struct pl_error e = {0};
    struct pl_file sf;
    struct stat st;
    char link[64];
    int fd;

    (void)state;
    if (shm_path[0] == '\0') {
        print_message("skipped: cannot create a file in /dev/shm\n");
        skip();
    }
    fd = open(shm_path, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(fstat(fd, &st), 0);
    snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
    if (access(link, F_OK) == 0) {
        close(fd);
        print_message("skipped: /dev/shm is on a block device here\n");
        skip();
    }
    fake_file(&sf, fd, shm_path, PL_FILE_REGULAR);
    assert_int_equal(pl_cache_readahead(&sf, -1, &e), -ENODEV);
    close(fd);
    assert_int_equal(e.err, ENODEV);
    assert_non_null(e.op);
}

/* ---- root only ------------------------------------------------------------- */

static void test_drop_system(void **state)
{
    struct pl_error e = {0};
    uint64_t res, tot;
    int rc;

    (void)state;
    assert_int_equal(fdatasync(file.fd), 0);
    read_range(file.fd, FILE_BYTES);
    rc = pl_cache_drop_system(&e);
    if (geteuid() != 0) {
        assert_true(rc < 0);
        assert_int_equal(e.err, -rc);
        print_message("skipped: drop_caches needs root (got %s from %s)\n", strerror(-rc), e.op);
        skip();
    }
    if (rc == -EROFS || rc == -EACCES || rc == -EPERM) {
        print_message("skipped: /proc/sys is not writable here (%s from %s)\n", strerror(-rc),
                      e.op);
        skip();
    }
    assert_int_equal(rc, 0);
    resident(&file, 0, 0, &res, &tot);
    assert_true(res <= 8);
}

static void test_loop_readahead(void **state)
{
    struct pl_error e = {0};
    int64_t orig, ra;

    (void)state;
    need_loop();
    orig = pl_cache_readahead(&loop, -1, &e);
    assert_true(orig >= 0);
    print_message("%s readahead %lld KiB\n", li.dev, (long long)orig);
    ra = pl_cache_readahead(&loop, 256, &e);
    assert_int_equal(ra, 256);
    assert_int_equal(pl_cache_readahead(&loop, -1, &e), 256);
    assert_int_equal(pl_cache_readahead(&loop, orig, &e), orig);
    assert_int_equal(pl_cache_readahead(&loop, -1, &e), orig);
}

static void test_loop_drop(void **state)
{
    struct pl_error e = {0};
    uint64_t res, tot;

    (void)state;
    need_loop();
    assert_int_equal(fill(loop.fd, MiB, 3), 0);
    read_range(loop.fd, MiB);
    resident(&loop, 0, MiB, &res, &tot);
    assert_int_equal(tot, MiB / page);
    assert_int_equal(res, tot);
    resident(&loop, 0, 0, &res, &tot);
    assert_int_equal(tot, IMG_BYTES / page);

    assert_int_equal(pl_cache_drop(&loop, &e), 0);
    resident(&loop, 0, 0, &res, &tot);
    assert_true(res <= 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resident_after_read),
        cmocka_unit_test(test_drop_then_reread),
        cmocka_unit_test(test_drop_dirty),
        cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_advise),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_readahead_file),
        cmocka_unit_test(test_readahead_tmpfs),
        cmocka_unit_test(test_drop_system),
        cmocka_unit_test(test_loop_readahead),
        cmocka_unit_test(test_loop_drop),
    };

    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
