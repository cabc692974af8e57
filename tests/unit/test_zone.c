/*
 * Zoned block devices in the core: the names, the os calls' ENOTTY on what is
 * not a block device, and the sim target's zone ops on its zoned presets (the
 * rules, the write pointer, the costs on the virtual clock).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "clock.h"
#include "file.h"
#include "io.h"
#include "target.h"
#include "zone.h"

#define MiB (1ull << 20)

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(pl_zone_type_name(PL_ZONE_CONVENTIONAL), "conventional");
    assert_string_equal(pl_zone_type_name(PL_ZONE_SEQ_REQUIRED), "seq-write-required");
    assert_string_equal(pl_zone_type_name(PL_ZONE_SEQ_PREFERRED), "seq-write-preferred");
    assert_string_equal(pl_zone_type_name(9), "unknown");
    assert_string_equal(pl_zone_cond_name(PL_ZONE_IMP_OPEN), "implicit-open");
    assert_string_equal(pl_zone_cond_name(PL_ZONE_FULL), "full");
    assert_string_equal(pl_zone_cond_name(PL_ZONE_OFFLINE), "offline");
    assert_string_equal(pl_zone_cond_name(7), "unknown");
    assert_string_equal(pl_zone_op_names[PL_ZONE_FINISH], "finish");
    assert_null(pl_zone_op_names[4]);
}

/* A regular file and a character device are not zoned block devices. */
static void test_os_not_block(void **state)
{
    (void)state;
    char path[] = "/tmp/platter-zone-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    struct pl_zone z[4];
    struct pl_error e = {0};
    assert_int_equal(pl_zone_report_fd(fd, 0, z, 4, &e), -ENOTTY);
    assert_string_equal(e.op, "zones");
    assert_int_equal(e.err, ENOTTY);
    assert_int_equal(pl_zone_op_fd(fd, PL_ZONE_RESET, 0, 0, &e), -ENOTTY);
    assert_string_equal(e.op, "reset");
    close(fd);
    unlink(path);
    fd = open("/dev/null", O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(pl_zone_op_fd(fd, PL_ZONE_FINISH, 0, 0, &e), -ENOTTY);
    close(fd);
}

static struct pl_file open_dev(const char *preset, int writable)
{
    struct pl_open_opts o;
    struct pl_error e = {0};
    struct pl_file f;
    assert_int_equal(pl_target_use("sim", preset), 0);
    memset(&o, 0, sizeof o);
    o.write = writable;
    o.direct = 1;
    o.destroy = 1;
    assert_int_equal(pl_file_open(&f, "/dev/sda", &o, &e), 0);
    return f;
}

static struct pl_zone zone_at(struct pl_file *f, uint64_t off)
{
    struct pl_zone z;
    struct pl_error e = {0};
    assert_int_equal(f->target->zones(f, off, &z, 1, &e), 1);
    return z;
}

static void test_sim_rules(void **state)
{
    (void)state;
    struct pl_file f = open_dev("smr-hm", 1);
    struct pl_zone z[300];
    struct pl_error e = {0};
    assert_int_equal(f.target->zones(&f, 0, z, 300, &e), 256);
    assert_int_equal(z[3].type, PL_ZONE_CONVENTIONAL);
    assert_int_equal(z[4].type, PL_ZONE_SEQ_REQUIRED);
    assert_int_equal(z[4].cond, PL_ZONE_EMPTY);
    uint64_t s = z[4].start;
    assert_int_equal(s, 4 * 256 * MiB);
    assert_int_equal(pl_io_rw(&f, PL_OP_WRITE, PL_AT_OFFSET, s, MiB, NULL), (int64_t)MiB);
    assert_int_equal(zone_at(&f, s).wp, s + MiB);
    assert_int_equal(zone_at(&f, s).cond, PL_ZONE_IMP_OPEN);
    assert_int_equal(pl_io_rw(&f, PL_OP_WRITE, PL_AT_OFFSET, s, 4096, NULL), -EIO);
    assert_int_equal(pl_io_rw(&f, PL_OP_WRITE, PL_AT_OFFSET, s + 2 * MiB, 4096, NULL), -EIO);
    assert_int_equal(zone_at(&f, s).wp, s + MiB);
    /* a reset costs the drive its zone_op_ms (2 ms) on the virtual clock */
    uint64_t t0 = pl_clock_ns();
    assert_int_equal(f.target->zone_op(&f, PL_ZONE_RESET, s, 0, &e), 0);
    uint64_t took = pl_clock_ns() - t0;
    assert_true(took >= 2000000 && took < 2100000);
    assert_int_equal(zone_at(&f, s).wp, s);
    assert_int_equal(zone_at(&f, s).cond, PL_ZONE_EMPTY);
    assert_int_equal(f.target->zone_op(&f, PL_ZONE_RESET, s + 4096, 0, &e), -EINVAL);
    assert_int_equal(f.target->zone_op(&f, PL_ZONE_RESET, 0, 0, &e), -EIO);
    pl_file_close(&f);
    /* a reset needs a descriptor open for writing */
    f = open_dev("smr-hm", 0);
    assert_int_equal(f.target->zone_op(&f, PL_ZONE_RESET, s, 0, &e), -EBADF);
    pl_file_close(&f);
}

/* Writes that continue the last one stream at the media rate of their place. */
static void test_sim_stream(void **state)
{
    (void)state;
    struct pl_file f = open_dev("smr-hm", 1);
    uint64_t at[2] = {4 * 256 * MiB, 255 * 256 * MiB}, ns[2];
    for (int k = 0; k < 2; k++) {
        assert_int_equal(pl_io_rw(&f, PL_OP_WRITE, PL_AT_OFFSET, at[k], MiB, NULL), (int64_t)MiB);
        uint64_t t0 = pl_clock_ns();
        assert_int_equal(pl_io_rw(&f, PL_OP_WRITE, PL_AT_OFFSET, at[k] + MiB, MiB, NULL),
                         (int64_t)MiB);
        ns[k] = pl_clock_ns() - t0;
    }
    /* 1 MiB at 260 -> 130 MB/s (linear in the offset), plus 50 us and the 1 us call */
    for (int k = 0; k < 2; k++) {
        double rate = 260e6 - 130e6 * (double)(at[k] + MiB) / (double)(64ull << 30);
        double want = (double)MiB / rate * 1e9 + 51e3;
        assert_true((double)ns[k] > want * 0.999 && (double)ns[k] < want * 1.001);
    }
    pl_file_close(&f);
}

static void test_sim_not_zoned(void **state)
{
    (void)state;
    struct pl_file f = open_dev("nvme", 1);
    struct pl_zone z;
    struct pl_error e = {0};
    assert_int_equal(f.target->zones(&f, 0, &z, 1, &e), -ENOTTY);
    assert_int_equal(f.target->zone_op(&f, PL_ZONE_OPEN, 0, 0, &e), -ENOTTY);
    pl_file_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),         cmocka_unit_test(test_os_not_block),
        cmocka_unit_test(test_sim_rules),     cmocka_unit_test(test_sim_stream),
        cmocka_unit_test(test_sim_not_zoned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
