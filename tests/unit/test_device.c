/*
 * Unit tests for core/device.c: facts about a regular file on the build
 * filesystem, a tmpfs file, character devices, a deleted file, and (as root)
 * a loop device, a partition on it and a tmpfs mounted on a path with escapes.
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
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"
#include "device.h"
#include "loop_image.h"

#define FILE_BYTES ((1u << 20) + 123u)
#define IMG_BYTES (64u << 20)

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif
#ifndef EXT4_SUPER_MAGIC
#define EXT4_SUPER_MAGIC 0xEF53
#endif

static char file_path[PATH_MAX]; /* regular file in the cwd */
static char shm_path[PATH_MAX];  /* regular file on tmpfs, "" if none */
static struct loop_image li;     /* the image in /tmp and its loop device */
static char mnt_dir[PATH_MAX];   /* tmpfs mount for the escape test, "" if none */
static int mnt_done;             /* mnt_dir is mounted */

static int is_pow2(uint64_t v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

/* Write n bytes of a pattern to a fresh file at path. 0 or -1. */
static int make_file(const char *path, size_t n)
{
    char buf[4096];
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

    if (fd < 0)
        return -1;
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (char)(i * 31 + 7);
    while (n > 0) {
        size_t k = n < sizeof buf ? n : sizeof buf;
        ssize_t w = write(fd, buf, k);
        if (w <= 0) {
            close(fd);
            return -1;
        }
        n -= (size_t)w;
    }
    fsync(fd);
    return close(fd);
}

/* Read a sysfs-like text file; 0 or -1. */
static int slurp(const char *path, char *buf, size_t cap)
{
    FILE *fp = fopen(path, "r");
    size_t n;

    if (fp == NULL)
        return -1;
    n = fread(buf, 1, cap - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
        buf[--n] = '\0';
    return 0;
}

static int has_sysfs_entry(unsigned ma, unsigned mi)
{
    char p[64];

    snprintf(p, sizeof p, "/sys/dev/block/%u:%u", ma, mi);
    return access(p, F_OK) == 0;
}

/* A minimal MBR with one Linux partition from sector 2048 to the end. */
static int write_mbr(int fd, uint32_t sectors)
{
    unsigned char mbr[512];
    uint32_t start = 2048, count = sectors - 2048;

    memset(mbr, 0, sizeof mbr);
    mbr[446 + 4] = 0x83;
    for (int i = 0; i < 4; i++) {
        mbr[446 + 8 + i] = (unsigned char)(start >> (8 * i));
        mbr[446 + 12 + i] = (unsigned char)(count >> (8 * i));
    }
    mbr[510] = 0x55;
    mbr[511] = 0xAA;
    return pwrite(fd, mbr, sizeof mbr, 0) == (ssize_t)sizeof mbr ? 0 : -1;
}

static int mbr_image(int fd, off_t bytes)
{
    return write_mbr(fd, (uint32_t)(bytes / 512));
}

/* Create the image and attach it (with partition scan); on failure say why. */
static void setup_loop(void)
{
    loop_image_attach(&li, "/tmp/pl_test_device_XXXXXX", IMG_BYTES, mbr_image, 1);
}

static int group_teardown(void **state);

static int group_setup(void **state)
{
    int fd;

    (void)state;
    snprintf(file_path, sizeof file_path, "pl_test_device_XXXXXX");
    fd = mkstemp(file_path);
    if (fd < 0) {
        file_path[0] = '\0';
        return -1;
    }
    close(fd);
    if (make_file(file_path, FILE_BYTES) < 0) {
        group_teardown(NULL);
        return -1;
    }

    snprintf(shm_path, sizeof shm_path, "/dev/shm/pl_test_device_XXXXXX");
    fd = mkstemp(shm_path);
    if (fd < 0 || close(fd) < 0 || make_file(shm_path, 4096) < 0) {
        if (fd >= 0)
            unlink(shm_path);
        shm_path[0] = '\0';
    }
    setup_loop();
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    if (file_path[0])
        unlink(file_path);
    if (shm_path[0])
        unlink(shm_path);
    loop_image_remove(&li);
    if (mnt_dir[0]) {
        char f[PATH_MAX + 16];
        snprintf(f, sizeof f, "%s/f", mnt_dir);
        unlink(f);
        if (mnt_done && umount2(mnt_dir, 0) < 0)
            fprintf(stderr, "warning: could not unmount %s: %s\n", mnt_dir, strerror(errno));
        rmdir(mnt_dir);
    }
    return 0;
}

static void need_loop(void)
{
    if (li.dev[0] == '\0') {
        print_message("skipped: no loop device: %s\n", li.why);
        skip();
    }
}

static int open_info(const char *path, struct pl_devinfo *d, struct stat *st)
{
    int fd = open(path, O_RDONLY);
    int rc;

    assert_true(fd >= 0);
    assert_int_equal(fstat(fd, st), 0);
    rc = pl_device_info(fd, path, d);
    close(fd);
    return rc;
}

/* ---- regular file on the build filesystem ---------------------------- */

static void test_file_basics(void **state)
{
    struct pl_devinfo d;
    struct stat st;

    (void)state;
    assert_int_equal(open_info(file_path, &d, &st), 0);
    assert_string_equal(d.kind, "file");
    assert_int_equal(d.size, FILE_BYTES);
    assert_true(d.rotational >= -1 && d.rotational <= 1);
    assert_true(d.read_ahead_kb >= -1);
    if (has_sysfs_entry(major(st.st_dev), minor(st.st_dev))) {
        assert_int_equal(d.dev_major, major(st.st_dev));
        assert_int_equal(d.dev_minor, minor(st.st_dev));
    }
    if (d.logical_block != 0) {
        assert_true(is_pow2(d.logical_block));
        assert_true(d.logical_block >= 512);
    }
    if (d.physical_block != 0) {
        assert_true(is_pow2(d.physical_block));
        assert_true(d.physical_block >= d.logical_block);
    }
}

static void test_file_sysfs(void **state)
{
    struct pl_devinfo d;
    struct stat st;
    char link[64], real[PATH_MAX], q[PATH_MAX], p[PATH_MAX + 32], buf[256];
    const char *base;

    (void)state;
    assert_int_equal(open_info(file_path, &d, &st), 0);
    snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
    if (realpath(link, real) == NULL) {
        print_message("skipped: %s has no %s (not on a block device)\n", file_path, link);
        skip();
    }
    base = strrchr(real, '/') + 1;
    assert_string_equal(d.device, base);
    assert_true(d.logical_block >= 512 && is_pow2(d.logical_block));
    assert_true(d.physical_block >= d.logical_block && is_pow2(d.physical_block));
    assert_true(d.rotational == 0 || d.rotational == 1);
    assert_true(d.scheduler[0] != '\0');
    assert_null(strchr(d.scheduler, '['));
    assert_null(strchr(d.scheduler, ' '));
    assert_true(d.write_cache[0] != '\0');
    assert_null(strchr(d.model, '\n'));
    if (d.model[0])
        assert_true(d.model[strlen(d.model) - 1] != ' ');

    /* Cross-check against the queue directory read independently. */
    assert_int_equal(pl_device_queue_dir(d.dev_major, d.dev_minor, q, sizeof q), 0);
    snprintf(p, sizeof p, "%s/read_ahead_kb", q);
    assert_int_equal(slurp(p, buf, sizeof buf), 0);
    assert_int_equal(d.read_ahead_kb, atoi(buf));
    snprintf(p, sizeof p, "%s/logical_block_size", q);
    assert_int_equal(slurp(p, buf, sizeof buf), 0);
    assert_int_equal(d.logical_block, atoi(buf));
    snprintf(p, sizeof p, "%s/scheduler", q);
    assert_int_equal(slurp(p, buf, sizeof buf), 0);
    if (strchr(buf, '[') != NULL) {
        char want[80];
        snprintf(want, sizeof want, "[%s]", d.scheduler);
        assert_non_null(strstr(buf, want));
    } else {
        assert_string_equal(d.scheduler, "none");
    }
    print_message("device %s model '%s' lbs %u pbs %u rot %d ra %d KiB sched %s wc '%s'\n",
                  d.device, d.model, d.logical_block, d.physical_block, d.rotational,
                  d.read_ahead_kb, d.scheduler, d.write_cache);
}

/* Each comma-separated option appears once. */
static void assert_no_dup_opts(const char *opts)
{
    char copy[256], *save = NULL, *tok, *seen[64];
    int n = 0;

    snprintf(copy, sizeof copy, "%s", opts);
    for (tok = strtok_r(copy, ",", &save); tok && n < 64; tok = strtok_r(NULL, ",", &save)) {
        for (int i = 0; i < n; i++)
            assert_string_not_equal(seen[i], tok);
        seen[n++] = tok;
    }
}

static int has_token(const char *opts, const char *want)
{
    char copy[256], *save = NULL, *tok;

    snprintf(copy, sizeof copy, "%s", opts);
    for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        if (strcmp(tok, want) == 0)
            return 1;
    return 0;
}

static void assert_covers(const char *mp, const char *path)
{
    size_t n = strlen(mp);

    assert_true(n > 0);
    if (strcmp(mp, "/") != 0) {
        assert_memory_equal(mp, path, n);
        assert_true(path[n] == '/' || path[n] == '\0');
    } else {
        assert_true(path[0] == '/');
    }
}

static void check_fs_type(const char *path, const char *fs_type)
{
    struct statfs sf;

    assert_int_equal(statfs(path, &sf), 0);
    if ((unsigned long)sf.f_type == EXT4_SUPER_MAGIC)
        assert_memory_equal(fs_type, "ext", 3);
    else if ((unsigned long)sf.f_type == TMPFS_MAGIC)
        assert_string_equal(fs_type, "tmpfs");
}

static void test_file_mount(void **state)
{
    struct pl_devinfo d;
    struct stat st;
    char real[PATH_MAX];

    (void)state;
    assert_int_equal(open_info(file_path, &d, &st), 0);
    assert_non_null(realpath(file_path, real));
    assert_true(d.fs_type[0] != '\0');
    check_fs_type(file_path, d.fs_type);
    assert_covers(d.mount_point, real);
    assert_true(has_token(d.mount_options, "rw") || has_token(d.mount_options, "ro"));
    assert_false(has_token(d.mount_options, "rw") && has_token(d.mount_options, "ro"));
    assert_no_dup_opts(d.mount_options);
    print_message("fs %s on %s options %s\n", d.fs_type, d.mount_point, d.mount_options);
}

static void test_file_dio(void **state)
{
    struct pl_devinfo d;
    struct stat st;
    struct utsname u;
    int kmaj = 0, kmin = 0;

    (void)state;
    assert_int_equal(open_info(file_path, &d, &st), 0);
    print_message("dio mem align %u offset align %u\n", d.dio_mem_align, d.dio_offset_align);
    if (d.dio_offset_align != 0) {
        assert_true(is_pow2(d.dio_offset_align));
        assert_true(is_pow2(d.dio_mem_align));
        if (strncmp(d.fs_type, "ext", 3) == 0 && d.logical_block != 0)
            assert_int_equal(d.dio_offset_align, d.logical_block);
    }
    /* ext4 reports STATX_DIOALIGN since Linux 6.1: with support, expect it. */
    assert_int_equal(uname(&u), 0);
    sscanf(u.release, "%d.%d", &kmaj, &kmin);
    if (PL_HAVE_STATX_DIOALIGN && strcmp(d.fs_type, "ext4") == 0 &&
        (kmaj > 6 || (kmaj == 6 && kmin >= 1)))
        assert_true(d.dio_offset_align != 0);
}

/* The mount lookup falls back to /proc/self/fd when the path is gone. */
static void test_deleted_file(void **state)
{
    struct pl_devinfo a, b, c;
    struct stat st;
    char path[PATH_MAX];
    int fd;

    (void)state;
    assert_int_equal(open_info(file_path, &a, &st), 0); /* same directory */
    snprintf(path, sizeof path, "pl_test_device_del_XXXXXX");
    fd = mkstemp(path);
    assert_true(fd >= 0);
    unlink(path);
    assert_int_equal(pl_device_info(fd, path, &b), 0);
    assert_int_equal(pl_device_info(fd, NULL, &c), 0);
    close(fd);
    assert_string_equal(b.kind, "file");
    assert_string_equal(b.fs_type, a.fs_type);
    assert_string_equal(b.mount_point, a.mount_point);
    assert_string_equal(c.fs_type, a.fs_type);
    assert_string_equal(c.mount_point, a.mount_point);
    assert_string_equal(c.mount_options, a.mount_options);
}

/* ---- no block device behind the file --------------------------------- */

static void test_tmpfs_file(void **state)
{
    struct pl_devinfo d;
    struct stat st;

    (void)state;
    if (shm_path[0] == '\0') {
        print_message("skipped: cannot create a file in /dev/shm\n");
        skip();
    }
    assert_int_equal(open_info(shm_path, &d, &st), 0);
    assert_string_equal(d.kind, "file");
    assert_int_equal(d.size, 4096);
    check_fs_type(shm_path, d.fs_type);
    assert_true(d.fs_type[0] != '\0');
    assert_covers(d.mount_point, "/dev/shm/x");
    if (!has_sysfs_entry(major(st.st_dev), minor(st.st_dev))) {
        assert_string_equal(d.device, "");
        assert_int_equal(d.logical_block, 0);
        assert_int_equal(d.rotational, -1);
        assert_int_equal(d.read_ahead_kb, -1);
        assert_string_equal(d.scheduler, "");
    }
}

static void test_other_kinds(void **state)
{
    struct pl_devinfo d;
    struct stat st;
    int fds[2];

    (void)state;
    assert_int_equal(open_info("/dev/null", &d, &st), 0);
    assert_string_equal(d.kind, "other");
    assert_int_equal(d.size, 0);

    assert_int_equal(pipe(fds), 0);
    assert_int_equal(pl_device_info(fds[0], NULL, &d), 0);
    close(fds[0]);
    close(fds[1]);
    assert_string_equal(d.kind, "other");
    assert_string_equal(d.fs_type, "");
    assert_int_equal(d.logical_block, 0);
}

static void test_bad_fd(void **state)
{
    struct pl_devinfo d;

    (void)state;
    memset(&d, 0x5a, sizeof d);
    assert_int_equal(pl_device_info(-1, "nowhere", &d), -EBADF);
    assert_string_equal(d.kind, "");
    assert_int_equal(d.rotational, -1);
    assert_int_equal(d.read_ahead_kb, -1);
}

static void test_queue_dir(void **state)
{
    struct stat st;
    char q[PATH_MAX], small[4], p[PATH_MAX + 32];
    size_t n;

    (void)state;
    assert_int_equal(pl_device_queue_dir(4095, 1048575, q, sizeof q), -ENOENT);
    assert_int_equal(stat(file_path, &st), 0);
    if (!has_sysfs_entry(major(st.st_dev), minor(st.st_dev))) {
        print_message("skipped: the build directory is not on a block device\n");
        skip();
    }
    assert_int_equal(pl_device_queue_dir(major(st.st_dev), minor(st.st_dev), q, sizeof q), 0);
    n = strlen(q);
    assert_true(n > 6);
    assert_string_equal(q + n - 6, "/queue");
    snprintf(p, sizeof p, "%s/logical_block_size", q);
    assert_int_equal(access(p, R_OK), 0);
    assert_true(pl_device_queue_dir(major(st.st_dev), minor(st.st_dev), small, sizeof small) < 0);
}

static void test_ram(void **state)
{
    uint64_t ram = pl_device_ram();

    (void)state;
    assert_true(ram >= (64u << 20));
    assert_int_equal(ram % (uint64_t)sysconf(_SC_PAGESIZE), 0);
}

/* ---- root only --------------------------------------------------------- */

/* Mount points with a space or backslash are octal-escaped in mountinfo. */
static void test_mount_escape(void **state)
{
    struct pl_devinfo d;
    struct stat st;
    char f[PATH_MAX + 16];

    (void)state;
    if (geteuid() != 0) {
        print_message("skipped: mounting tmpfs needs root\n");
        skip();
    }
    snprintf(mnt_dir, sizeof mnt_dir, "/tmp/pl test\\mnt_XXXXXX");
    if (mkdtemp(mnt_dir) == NULL) {
        mnt_dir[0] = '\0';
        print_message("skipped: mkdtemp: %s\n", strerror(errno));
        skip();
    }
    if (mount("tmpfs", mnt_dir, "tmpfs", 0, "size=1m") < 0) {
        print_message("skipped: mount tmpfs: %s\n", strerror(errno));
        skip();
    }
    mnt_done = 1;
    snprintf(f, sizeof f, "%s/f", mnt_dir);
    assert_int_equal(make_file(f, 100), 0);
    assert_int_equal(open_info(f, &d, &st), 0);
    assert_string_equal(d.fs_type, "tmpfs");
    assert_string_equal(d.mount_point, mnt_dir);
    assert_true(has_token(d.mount_options, "size=1024k"));
}

static void test_loop_block(void **state)
{
    struct pl_devinfo d;
    struct stat st;
    char q[PATH_MAX], p[PATH_MAX + 32], buf[64];

    (void)state;
    need_loop();
    assert_int_equal(open_info(li.dev, &d, &st), 0);
    assert_true(S_ISBLK(st.st_mode));
    assert_string_equal(d.kind, "block");
    assert_int_equal(d.size, IMG_BYTES);
    assert_true(d.logical_block >= 512 && is_pow2(d.logical_block));
    assert_true(d.physical_block >= d.logical_block && is_pow2(d.physical_block));
    assert_string_equal(d.device, strrchr(li.dev, '/') + 1);
    assert_string_equal(d.fs_type, "");
    assert_int_equal(d.dev_major, major(st.st_rdev));
    assert_int_equal(d.dev_minor, minor(st.st_rdev));
    assert_true(d.read_ahead_kb >= 0);
    assert_true(d.scheduler[0] != '\0');

    assert_int_equal(pl_device_queue_dir(d.dev_major, d.dev_minor, q, sizeof q), 0);
    snprintf(p, sizeof p, "%s/logical_block_size", q);
    assert_int_equal(slurp(p, buf, sizeof buf), 0);
    assert_int_equal(d.logical_block, atoi(buf));
    print_message("%s: lbs %u pbs %u dio %u/%u ra %d KiB sched %s\n", li.dev, d.logical_block,
                  d.physical_block, d.dio_mem_align, d.dio_offset_align, d.read_ahead_kb,
                  d.scheduler);
}

/* A partition has no queue/ of its own: the parent disk's is used. */
static void test_loop_partition(void **state)
{
    const char *name;
    char devf[PATH_MAX], buf[64], q[PATH_MAX], want[PATH_MAX], disk[PATH_MAX];
    unsigned ma, mi;
    int tries;

    (void)state;
    need_loop();
    name = strrchr(li.dev, '/') + 1;
    snprintf(devf, sizeof devf, "/sys/block/%s/%sp1/dev", name, name);
    for (tries = 0; tries < 20 && access(devf, R_OK) != 0; tries++)
        usleep(50000);
    if (access(devf, R_OK) != 0) {
        print_message("skipped: the kernel made no partition for %s (no MBR support?)\n", li.dev);
        skip();
    }
    assert_int_equal(slurp(devf, buf, sizeof buf), 0);
    assert_int_equal(sscanf(buf, "%u:%u", &ma, &mi), 2);
    assert_int_equal(pl_device_queue_dir(ma, mi, q, sizeof q), 0);
    snprintf(disk, sizeof disk, "/sys/block/%s/queue", name);
    assert_non_null(realpath(disk, want));
    assert_string_equal(q, want);
}

static void test_diskstat_parse(void **state)
{
    (void)state;
    struct pl_diskstat d;
    /* a 5.5+ kernel's line: 11 classic counters, then discards and flushes (ignored) */
    assert_int_equal(pl_diskstat_parse("   7       0 loop0 7562104 41 105259272 416298 612113 "
                                       "386300 19579758 122313 0 182464 606015 0 0 0 0 148218 "
                                       "67403\n",
                                       &d),
                     0);
    assert_string_equal(d.name, "loop0");
    const uint64_t want[PL_DISKSTAT_NR] = {7562104,  41,     105259272, 416298, 612113, 386300,
                                           19579758, 122313, 0,         182464, 606015};
    for (int i = 0; i < PL_DISKSTAT_NR; i++)
        assert_true(d.v[i] == want[i]);
    assert_string_equal(pl_diskstat_fields[0], "reads");
    assert_string_equal(pl_diskstat_fields[3], "read_ticks");
    assert_string_equal(pl_diskstat_fields[8], "in_flight");
    assert_string_equal(pl_diskstat_fields[10], "time_in_queue");
    /* an old kernel's 14 fields, a 64-bit counter */
    assert_int_equal(
        pl_diskstat_parse(" 259 0 nvme0n1 18446744073709551615 2 3 4 5 6 7 8 9 10 11", &d), 0);
    assert_string_equal(d.name, "nvme0n1");
    assert_true(d.v[0] == UINT64_MAX && d.v[10] == 11);
    /* too few counters, or not numbers: not a line */
    assert_int_equal(pl_diskstat_parse("8 0 sda 1 2 3 4 5 6 7 8 9 10", &d), -1);
    assert_int_equal(pl_diskstat_parse("8 0 sda 1 2 3 x 5 6 7 8 9 10 11", &d), -1);
    assert_int_equal(pl_diskstat_parse("", &d), -1);
    assert_int_equal(pl_diskstat_parse("8 0 sda 1 2 3 4 5 6 7 8 9 10 99999999999999999999", &d),
                     -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_file_basics),    cmocka_unit_test(test_file_sysfs),
        cmocka_unit_test(test_file_mount),     cmocka_unit_test(test_file_dio),
        cmocka_unit_test(test_deleted_file),   cmocka_unit_test(test_tmpfs_file),
        cmocka_unit_test(test_other_kinds),    cmocka_unit_test(test_bad_fd),
        cmocka_unit_test(test_queue_dir),      cmocka_unit_test(test_ram),
        cmocka_unit_test(test_mount_escape),   cmocka_unit_test(test_loop_block),
        cmocka_unit_test(test_loop_partition), cmocka_unit_test(test_diskstat_parse),
    };

    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
