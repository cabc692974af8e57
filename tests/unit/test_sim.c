/*
 * The simulated disk: presets, determinism, and the shape of the model
 * (seeks cost more with distance, the outer zone is faster, cache hits are
 * cheap, readahead helps sequential reads, the clock is virtual).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "clock.h"
#include "device.h"
#include "file.h"
#include "io.h"
#include "sim.h"
#include "target.h"

/* The sim target on a preset (the disk starts anew), as --sim PRESET chooses it. */
static int start_sim(const char *preset)
{
    return pl_target_use("sim", preset);
}

/* One-call I/O as f:pread, f:pwrite and f:fsync do it, with its virtual duration. */
static int64_t pread_ns(struct pl_file *f, uint64_t off, uint64_t len, uint64_t *ns)
{
    uint64_t t0 = pl_clock_ns();
    int64_t r = pl_io_rw(f, PL_OP_READ, PL_AT_OFFSET, off, len, NULL);
    *ns = pl_clock_ns() - t0;
    return r;
}

static int64_t pwrite_ns(struct pl_file *f, uint64_t off, uint64_t len, uint64_t *ns)
{
    uint64_t t0 = pl_clock_ns();
    int64_t r = pl_io_rw(f, PL_OP_WRITE, PL_AT_OFFSET, off, len, NULL);
    *ns = pl_clock_ns() - t0;
    return r;
}

static int fsync_ns(struct pl_file *f, uint64_t *ns)
{
    uint64_t t0 = pl_clock_ns();
    int r = pl_io_sync(f, 0);
    *ns = pl_clock_ns() - t0;
    return r;
}

static struct pl_file open_sim(const char *path, uint64_t size, int direct)
{
    struct pl_open_opts o;
    struct pl_error e = {0};
    struct pl_file f;
    memset(&o, 0, sizeof o);
    o.create = 1;
    o.write = 1;
    o.size = size;
    o.direct = direct;
    o.destroy = 1; /* /dev/... names: the whole simulated device, written */
    assert_int_equal(pl_file_open(&f, path, &o, &e), 0);
    assert_ptr_equal(f.target, pl_target_find("sim"));
    return f;
}

/* Virtual ns that n reads of len bytes at the offsets off(i) take. */
static uint64_t time_reads(struct pl_file *f, uint64_t n, uint64_t len,
                           uint64_t (*off)(uint64_t i, uint64_t size), uint64_t size)
{
    uint64_t ns, t0 = pl_clock_ns();
    for (uint64_t i = 0; i < n; i++)
        assert_int_equal(pread_ns(f, off(i, size), len, &ns), (ssize_t)len);
    return pl_clock_ns() - t0;
}

static uint64_t seq_off(uint64_t i, uint64_t size)
{
    (void)size;
    return i * 65536;
}

static uint64_t far_off(uint64_t i, uint64_t size)
{
    return (i % 2) ? size - 65536 - (i * 4096) % (1 << 20) : (i * 4096) % (1 << 20);
}

static uint64_t near_off(uint64_t i, uint64_t size)
{
    (void)size;
    return (i % 2) ? (8u << 20) + (i * 4096) % (1 << 20) : (i * 4096) % (1 << 20);
}

static void test_presets(void **state)
{
    (void)state;
    int n = 0;
    for (const struct pl_sim_preset *p = pl_sim_presets; p->name; p++, n++) {
        assert_ptr_equal(pl_sim_find(p->name), p);
        assert_true(p->capacity > 0 && p->sector >= 512 && p->ram > 0);
        assert_true(p->rate_outer >= p->rate_inner && p->rate_inner > 0);
    }
    assert_true(n >= 3);
    assert_non_null(pl_sim_find("hitachi-85mb-1988"));
    assert_non_null(pl_sim_find("ata-5400-1999"));
    assert_non_null(pl_sim_find("nvme"));
    assert_null(pl_sim_find("floppy"));
    assert_int_equal(start_sim("floppy"), -EINVAL);
}

static void test_virtual_clock(void **state)
{
    (void)state;
    assert_int_equal(start_sim("ata-5400-1999"), 0);
    uint64_t t0 = pl_clock_ns();
    assert_int_equal(pl_clock_ns(), t0);    /* no I/O, no time */
    pl_clock_sleep_ns(5000000000ull, NULL); /* returns at once, 5 virtual seconds later */
    assert_int_equal(pl_clock_ns() - t0, 5000000000ull);
    assert_int_equal(pl_target->ram(), pl_sim_find("ata-5400-1999")->ram);
    double u, s;
    pl_clock_cpu(&u, &s);
    assert_true(u == 0 && s == 0);
}

/* Seeking further costs more: alternating ends of the disk vs a few MiB apart. */
static void test_seek_distance(void **state)
{
    (void)state;
    assert_int_equal(start_sim("ata-5400-1999"), 0);
    struct pl_file f = open_sim("/dev/sdsim", 0, 1);
    uint64_t size = (uint64_t)pl_file_size(&f);
    assert_int_equal(size, pl_sim_find("ata-5400-1999")->capacity);
    uint64_t far = time_reads(&f, 200, 4096, far_off, size);
    uint64_t near = time_reads(&f, 200, 4096, near_off, size);
    assert_true(far > near * 3 / 2);
    /* the average seek of the preset shows: 200 full-stroke-ish reads take > 200 x 9.5 ms */
    assert_true(far > 200ull * 9500000ull);
    pl_file_close(&f);
}

/* Zones: the outer edge of the disk reads faster than the inner edge. */
static void test_zones(void **state)
{
    (void)state;
    assert_int_equal(start_sim("ata-5400-1999"), 0);
    struct pl_file f = open_sim("/dev/sdsim", 0, 1);
    uint64_t size = (uint64_t)pl_file_size(&f), ns;
    uint64_t t0 = pl_clock_ns();
    for (uint64_t i = 0; i < 64; i++)
        pread_ns(&f, i << 20, 1 << 20, &ns);
    uint64_t outer = pl_clock_ns() - t0;
    t0 = pl_clock_ns();
    for (uint64_t i = 0; i < 64; i++)
        pread_ns(&f, size - (65 << 20) + (i << 20), 1 << 20, &ns);
    uint64_t inner = pl_clock_ns() - t0;
    double mb_outer = 64.0 * 1048576 / (double)outer * 1e3; /* MB/s */
    double mb_inner = 64.0 * 1048576 / (double)inner * 1e3;
    assert_true(mb_outer > 13.0 && mb_outer < 15.5);
    assert_true(mb_inner > 8.0 && mb_inner < 9.5);
    pl_file_close(&f);
}

/* Buffered reads: a second pass over a small file is served by the page cache. */
static void test_page_cache(void **state)
{
    (void)state;
    assert_int_equal(start_sim("ata-5400-1999"), 0);
    struct pl_file f = open_sim("cached.dat", 8u << 20, 0);
    struct pl_error e = {0};
    uint64_t res, total;
    assert_int_equal(pl_target->drop(&f, &e), 0);
    pl_target->resident(&f, 0, 0, &res, &total, &e);
    assert_int_equal(res, 0);
    assert_int_equal(total, 2048);
    uint64_t cold = time_reads(&f, 128, 65536, seq_off, 0);
    pl_target->resident(&f, 0, 0, &res, &total, &e);
    assert_int_equal(res, total);
    uint64_t warm = time_reads(&f, 128, 65536, seq_off, 0);
    assert_true(warm * 5 < cold); /* 1999: ~120 MB/s copies vs ~15 MB/s media */
    double u, s;
    pl_clock_cpu(&u, &s);
    assert_true(s > 0); /* copies out of the cache are system time */
    pl_file_close(&f);
}

/* Readahead: small sequential buffered reads are much cheaper with it than without. */
static void test_readahead(void **state)
{
    (void)state;
    /* each request of the SSD costs its access time, which readahead's large requests share
       (the 1988 disk misses a revolution per block either way: test_1988) */
    assert_int_equal(start_sim("nvme"), 0);
    struct pl_file f = open_sim("ra.dat", 4u << 20, 0);
    struct pl_error e = {0};
    uint64_t ns;
    assert_int_equal(pl_target->readahead(&f, -1, &e), 128);
    assert_int_equal(pl_target->readahead(&f, 64, &e), 64);
    pl_target->drop(&f, &e);
    uint64_t t0 = pl_clock_ns();
    for (uint64_t off = 0; off < (1u << 20); off += 2048)
        pread_ns(&f, off, 2048, &ns);
    uint64_t with = pl_clock_ns() - t0;
    assert_int_equal(pl_target->readahead(&f, 0, &e), 0);
    pl_target->drop(&f, &e);
    t0 = pl_clock_ns();
    for (uint64_t off = 0; off < (1u << 20); off += 2048)
        pread_ns(&f, off, 2048, &ns);
    uint64_t without = pl_clock_ns() - t0;
    assert_true(without > with * 2);
    pl_file_close(&f);
}

/* Writes are cached until fsync, which then costs disk time. */
static void test_write_back(void **state)
{
    (void)state;
    assert_int_equal(start_sim("hitachi-85mb-1988"), 0);
    struct pl_file f = open_sim("wb.dat", 0, 0);
    uint64_t ns;
    assert_int_equal(pwrite_ns(&f, 0, 32768, &ns), 32768);
    uint64_t write_ns = ns;
    assert_int_equal(fsync_ns(&f, &ns), 0);
    assert_true(ns > write_ns && ns > 60000000); /* the disk write: > 60 ms for 32 KiB */
    assert_int_equal(pl_file_size(&f), 32768);
    assert_int_equal(fsync_ns(&f, &ns), 0); /* nothing dirty: only the call */
    assert_true(ns < 1000000);
    pl_file_close(&f);
}

/*
 * The 1988 disk and its System V buffer cache: with no drive buffer a raw reread
 * of the same sector waits a whole revolution; no transfer beats the media rate
 * (522240 B/s); the cache's 192 blocks of 512 B hold a 64 KiB reread but not a
 * 128 KiB one (LRU: every block of a larger loop misses); a miss is one disk request
 * per block, each about a revolution.
 */
static void test_1988(void **state)
{
    (void)state;
    assert_int_equal(start_sim("hitachi-85mb-1988"), 0);
    struct pl_file raw = open_sim("/dev/sdsim", 0, 1);
    uint64_t ns, rev = 1000000000ull / 60;
    pread_ns(&raw, 0, 512, &ns);
    for (int i = 0; i < 8; i++) {
        assert_int_equal(pread_ns(&raw, 0, 512, &ns), 512);
        assert_true(ns >= rev - 1000 && ns < rev + 1000000);
    }
    for (uint64_t len = 4096; len <= (512u << 10); len *= 2) {
        assert_int_equal(pread_ns(&raw, 0, len, &ns), (ssize_t)len);
        assert_true((double)len / ((double)ns * 1e-9) < 522240.0);
        assert_int_equal(pread_ns(&raw, 1u << 20, len, &ns), (ssize_t)len);
        assert_true((double)len / ((double)ns * 1e-9) < 522240.0);
    }
    pl_file_close(&raw);

    struct pl_file f = open_sim("bc.dat", 1u << 20, 0);
    struct pl_error e = {0};
    pl_target->drop(&f, &e);
    uint64_t cold, warm;
    assert_int_equal(pread_ns(&f, 0, 65536, &cold), 65536);
    assert_true(cold > 128 * rev); /* 128 blocks, a revolution each */
    assert_int_equal(pread_ns(&f, 0, 65536, &warm), 65536);
    assert_true(warm < cold / 10 && warm > 65536 * 1000000000ull / 1000000); /* a copy */
    pl_target->drop(&f, &e);
    pread_ns(&f, 0, 131072, &cold);
    assert_int_equal(pread_ns(&f, 0, 131072, &warm), 131072);
    assert_true(warm > 256 * rev); /* the cache filled up: every block again */
    pl_file_close(&f);
}

/*
 * The flusher (scsi-7200-1999's flush_lag_ms): evicted dirty pages are written
 * while the writer goes on copying, so writing 4 times the page cache takes
 * about the longer of the two, not their sum; an fsync then waits for the disk.
 */
static void test_flusher(void **state)
{
    (void)state;
    assert_int_equal(start_sim("scsi-7200-1999"), 0);
    const struct pl_sim_preset *p = pl_sim_find("scsi-7200-1999");
    struct pl_file f = open_sim("wb.dat", 0, 0);
    uint64_t ns, n = 4 * p->page_cache, t0 = pl_clock_ns();
    for (uint64_t off = 0; off < n; off += 1u << 20)
        assert_int_equal(pwrite_ns(&f, off, 1u << 20, &ns), 1 << 20);
    double took = (double)(pl_clock_ns() - t0) * 1e-9;
    double copy = (double)n / p->write_copy_rate;
    double disk = (double)(n - p->page_cache) / p->rate_outer;
    assert_true(took >= copy && took >= disk * 0.9);
    assert_true(took < (copy + disk) * 0.8);
    assert_int_equal(fsync_ns(&f, &ns), 0);
    assert_true(ns > 500000000ull); /* the cache's dirty 16 MiB, at ~12 MB/s */
    pl_file_close(&f);
}

/* The same I/O gives the same times, run after run. */
static void test_deterministic(void **state)
{
    (void)state;
    uint64_t t[2];
    for (int k = 0; k < 2; k++) {
        assert_int_equal(start_sim("hitachi-85mb-1988"), 0);
        struct pl_file f = open_sim("det.dat", 1u << 20, 0);
        t[k] = time_reads(&f, 64, 4096, far_off, 1u << 20) + pl_clock_ns();
        pl_file_close(&f);
    }
    assert_int_equal(t[0], t[1]);
}

/* Files live only in the model: missing ones fail, removed ones vanish. */
static void test_namespace(void **state)
{
    (void)state;
    assert_int_equal(start_sim("nvme"), 0);
    struct pl_open_opts o;
    struct pl_error e = {0};
    struct pl_file f;
    memset(&o, 0, sizeof o);
    assert_int_equal(pl_file_open(&f, "no-such-file", &o, &e), -ENOENT);
    f = open_sim("ns.dat", 65536, 0);
    struct pl_devinfo d;
    assert_int_equal(pl_target->info(&f, &d), 0);
    assert_string_equal(d.kind, "file");
    assert_string_equal(d.fs_type, "simfs");
    assert_int_equal(d.rotational, 0);
    pl_file_close(&f);
    char why[256];
    assert_int_equal(pl_target->remove("ns.dat", why, sizeof why), 0);
    assert_int_equal(pl_target->remove("ns.dat", why, sizeof why), -ENOENT);
    assert_int_equal(pl_file_open(&f, "ns.dat", &o, &e), -ENOENT);
}

/* Many files: more than any fixed table held (bonnie++ -n 16 makes 16384 at
   once), and removed ones give their room back, also when removed while open. */
static void test_many_files(void **state)
{
    (void)state;
    assert_int_equal(start_sim("nvme"), 0);
    struct pl_open_opts o;
    struct pl_error e = {0};
    memset(&o, 0, sizeof o);
    o.create = 1;
    o.write = 1;
    char name[64], why[256];
    struct pl_file f;
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 20000; i++) {
            snprintf(name, sizeof name, "many.%d", i);
            assert_int_equal(pl_file_open(&f, name, &o, &e), 0);
            pl_file_close(&f);
        }
        for (int i = 0; i < 20000; i++) {
            snprintf(name, sizeof name, "many.%d", i);
            assert_int_equal(pl_target->remove(name, why, sizeof why), 0);
        }
    }
    /* removed while open: the name is free at once, the file lives until its close */
    assert_int_equal(pl_file_open(&f, "held.dat", &o, &e), 0);
    assert_int_equal(pl_target->remove("held.dat", why, sizeof why), 0);
    assert_int_equal(pl_target->remove("held.dat", why, sizeof why), -ENOENT);
    struct pl_file g;
    assert_int_equal(pl_file_open(&g, "held.dat", &o, &e), 0);
    pl_file_close(&f);
    pl_file_close(&g);
    assert_int_equal(pl_target->remove("held.dat", why, sizeof why), 0);
}

/* The probes' presets (issue 16). A volatile write cache: a direct write ends
   in the cache, the flush pays the media; the lying drive's flush writes nothing,
   and O_DSYNC writes flush too. */
static void test_write_cache(void **state)
{
    (void)state;
    uint64_t ns, honest = 0, lying = 0;
    for (int k = 0; k < 2; k++) {
        assert_int_equal(start_sim(k ? "sata-7200-lying" : "sata-7200-wc"), 0);
        struct pl_file f = open_sim("c.dat", 1u << 20, 1);
        assert_int_equal(fsync_ns(&f, &ns), 0); /* the fill, out of the cache */
        assert_int_equal(pwrite_ns(&f, 0, 4096, &ns), 4096);
        assert_true(ns < 100000); /* the cache: overhead and the bus */
        assert_int_equal(fsync_ns(&f, &ns), 0);
        *(k ? &lying : &honest) = ns;
        struct pl_devinfo d;
        assert_int_equal(f.target->info(&f, &d), 0);
        assert_string_equal(d.write_cache, "write back");
        pl_file_close(&f);
    }
    assert_true(honest > 1000000); /* the media: most of a revolution at 7200 RPM */
    assert_true(lying < 100000);

    assert_int_equal(start_sim("sata-7200-wc"), 0);
    struct pl_open_opts o;
    struct pl_error e = {0};
    struct pl_file g;
    memset(&o, 0, sizeof o);
    o.create = o.write = o.direct = o.dsync = 1;
    assert_int_equal(pl_file_open(&g, "d.dat", &o, &e), 0);
    assert_int_equal(pwrite_ns(&g, 0, 4096, &ns), 4096);
    assert_true(ns > 1000000); /* O_DSYNC: written through */
    pl_file_close(&g);

    assert_int_equal(start_sim("nvme"), 0); /* no volatile cache: as before */
    struct pl_file h = open_sim("n.dat", 1u << 20, 1);
    struct pl_devinfo d;
    assert_int_equal(h.target->info(&h, &d), 0);
    assert_string_equal(d.write_cache, "write through");
    pl_file_close(&h);
}

/* An SLC region: its bytes at write_rate, the rest at slc_rate. */
static void test_slc_region(void **state)
{
    (void)state;
    assert_int_equal(start_sim("nvme-qlc"), 0);
    const struct pl_sim_preset *p = pl_sim_find("nvme-qlc");
    struct pl_file f = open_sim("s.dat", 0, 1);
    uint64_t ns, fast = 0, slow = 0, mib = 1u << 20;
    for (uint64_t off = 0; off < p->slc_bytes + 64 * mib; off += mib) {
        assert_int_equal(pwrite_ns(&f, off, mib, &ns), (int64_t)mib);
        if (off == 0)
            fast = ns;
        slow = ns;
    }
    assert_true(fast < 1e9 * (double)mib / p->write_rate * 1.1);
    assert_true(slow > 1e9 * (double)mib / p->slc_rate * 0.99);
    pl_file_close(&f);
}

/* 512e: a write off 4 KiB pays one more revolution; reads over one more sector a
   little; f:info() says 512 and 4096. */
static void test_512e(void **state)
{
    (void)state;
    assert_int_equal(start_sim("sata-5400-512e"), 0);
    struct pl_file f = open_sim("a.dat", 64u << 20, 1);
    struct pl_devinfo d;
    assert_int_equal(f.target->info(&f, &d), 0);
    assert_int_equal(d.logical_block, 512);
    assert_int_equal(d.physical_block, 4096);
    /* the same places, passes apart: 4096 past a base, and 512 more */
    uint64_t ns, sum[4] = {0};
    for (int k = 0; k < 4; k++)
        for (uint64_t i = 0; i < 64; i++) {
            uint64_t off = (((i * 7919) % 31) << 21) + 4096 + (k % 2 ? 512 : 0);
            if (k < 2)
                assert_int_equal(pwrite_ns(&f, off, 4096, &ns), 4096);
            else
                assert_int_equal(pread_ns(&f, off, 4096, &ns), 4096);
            sum[k] += ns;
        }
    uint64_t aligned = sum[0], off4k = sum[1], raligned = sum[2], roff = sum[3];
    double rev = 60e9 / 5400;
    assert_true((double)(off4k - aligned) / 64 > 0.7 * rev);
    assert_true((double)(off4k - aligned) / 64 < 1.3 * rev);
    assert_true((double)roff / (double)raligned < 1.2);
    pl_file_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_presets),       cmocka_unit_test(test_virtual_clock),
        cmocka_unit_test(test_seek_distance), cmocka_unit_test(test_zones),
        cmocka_unit_test(test_page_cache),    cmocka_unit_test(test_readahead),
        cmocka_unit_test(test_write_back),    cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_namespace),     cmocka_unit_test(test_many_files),
        cmocka_unit_test(test_1988),          cmocka_unit_test(test_flusher),
        cmocka_unit_test(test_write_cache),   cmocka_unit_test(test_slc_region),
        cmocka_unit_test(test_512e),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
