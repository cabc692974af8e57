/*
 * Targets (target.h): the registry, choosing one, and the null target end to
 * end — one-call I/O and a p.run job on it go through the same ops as on the
 * OS, an engine that needs real descriptors is refused on it with its reason,
 * and every engine that works on any target runs there.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "io.h"
#include "job.h"
#include "target.h"

static struct pl_file open_null(const char *path, uint64_t size)
{
    struct pl_open_opts o = {.create = 1, .write = 1, .size = size};
    struct pl_error e = {0};
    struct pl_file f;
    assert_int_equal(pl_file_open(&f, path, &o, &e), 0);
    assert_ptr_equal(f.target, pl_target_find("null"));
    return f;
}

static void test_registry(void **state)
{
    (void)state;
    assert_non_null(pl_target_find("os"));
    assert_non_null(pl_target_find("sim"));
    assert_string_equal(pl_target_find("null")->name, "null");
    assert_null(pl_target_find("tape"));
    assert_int_equal(pl_target_use("tape", NULL), -ENOENT);
    assert_int_equal(pl_target_use("null", "x"), -EINVAL); /* it has no variants */
    for (unsigned i = 0; pl_targets[i]; i++) {
        const struct pl_target_ops *t = pl_targets[i];
        /* what every caller calls without asking first */
        assert_non_null(t->open);
        assert_non_null(t->close);
        assert_non_null(t->size);
        assert_non_null(t->rw);
        assert_non_null(t->sync);
        assert_non_null(t->chars);
        assert_non_null(t->seek);
        assert_non_null(t->drop);
        assert_non_null(t->resident);
        assert_non_null(t->readahead);
        assert_non_null(t->advise);
        assert_non_null(t->drop_all);
        assert_non_null(t->sync_all);
        assert_non_null(t->info);
        assert_non_null(t->ram);
        assert_non_null(t->remove);
        assert_non_null(t->scratch);
        if (!(t->flags & PL_TARGET_DIRS))
            assert_non_null(t->no_dirs);
        else /* the directory calls of p.mkdir, p.rmdir, p.stat, p.readdir */
            assert_true(t->mkdir && t->rmdir && t->stat && t->readdir);
        if (t->flags & PL_TARGET_SERIAL)
            assert_non_null(t->join);
    }
}

/* One-call I/O on the null target: sizes follow writes, reads stop at the end. */
static void test_null_one_call(void **state)
{
    (void)state;
    assert_int_equal(pl_target_use("null", NULL), 0);
    struct pl_file f = open_null("n1.dat", 8192);
    assert_int_equal(pl_file_size(&f), 8192);
    assert_int_equal(pl_io_rw(&f, PL_OP_READ, PL_AT_OFFSET, 4096, 4096, NULL), 4096);
    assert_int_equal(pl_io_rw(&f, PL_OP_READ, PL_AT_OFFSET, 6144, 4096, NULL), 2048);
    assert_int_equal(pl_io_rw(&f, PL_OP_WRITE, PL_AT_OFFSET, 65536, 512, NULL), 512);
    assert_int_equal(pl_file_size(&f), 65536 + 512);
    assert_int_equal(pl_file_seek(&f, 100, SEEK_SET), 100);
    assert_int_equal(pl_io_rw(&f, PL_OP_WRITE, PL_AT_POS, 0, 50, NULL), 50);
    assert_int_equal(pl_file_seek(&f, 0, SEEK_CUR), 150);
    assert_int_equal(pl_io_chars(&f, PL_OP_WRITE, 1000), 1000);
    assert_int_equal(pl_file_seek(&f, 0, SEEK_CUR), 1150);
    assert_int_equal(pl_io_sync(&f, 1), 0);
    assert_int_equal(pl_file_close(&f), 0);
    /* the name stays, with its size, until removed */
    struct pl_open_opts o = {0};
    struct pl_error e = {0};
    assert_int_equal(pl_file_open(&f, "n1.dat", &o, &e), 0);
    assert_int_equal(pl_file_size(&f), 65536 + 512);
    pl_file_close(&f);
    char why[128];
    assert_int_equal(pl_target->remove("n1.dat", why, sizeof why), 0);
    assert_int_equal(pl_file_open(&f, "n1.dat", &o, &e), -ENOENT);
    assert_int_equal(pl_target_use("os", NULL), 0);
}

/* Counting: one-call I/O lands in every active phase, through the one counting function. */
static void test_counted_into_phases(void **state)
{
    (void)state;
    assert_int_equal(pl_target_use("null", NULL), 0);
    struct pl_file f = open_null("n2.dat", 1 << 20);
    struct pl_stats a, b;
    pl_stats_reset(&a);
    pl_stats_reset(&b);
    assert_int_equal(pl_io_phase_add(&a), 0);
    assert_int_equal(pl_io_rw(&f, PL_OP_READ, PL_AT_OFFSET, 0, 4096, NULL), 4096);
    assert_int_equal(pl_io_phase_add(&b), 0);
    assert_int_equal(pl_io_rw(&f, PL_OP_READ, PL_AT_OFFSET, 0, 4096, NULL), 4096);
    pl_io_phase_remove(&a);
    pl_io_phase_remove(&b);
    assert_int_equal(pl_io_rw(&f, PL_OP_READ, PL_AT_OFFSET, 0, 4096, NULL), 4096);
    assert_int_equal(a.ops, 2);
    assert_int_equal(a.bytes, 8192);
    assert_int_equal(b.ops, 1);
    pl_file_close(&f);
    assert_int_equal(pl_target_use("os", NULL), 0);
}

static struct pl_job_result *run_on_null(const char *engine, unsigned qd, int *rc, const char **why)
{
    struct pl_file f = open_null("n3.dat", 1 << 20);
    struct pl_file *files[1] = {&f};
    struct pl_job_spec s = {
        .files = files,
        .nfiles = 1,
        .op = PL_JOB_MIX,
        .read_pct = 50,
        .bs = 4096,
        .pat = {.kind = PL_PAT_RANDOM},
        .count = 1000,
        .engine = pl_engine_find(engine),
        .qd = qd,
        .seed = 7,
    };
    struct pl_job_result *r = malloc(sizeof *r);
    assert_non_null(r);
    *rc = pl_job_run(&s, r, why);
    pl_file_close(&f);
    return r;
}

/* A job on the null target: the engines that work through a target's ops run there. */
static void test_null_job(void **state)
{
    (void)state;
    assert_int_equal(pl_target_use("null", NULL), 0);
    static const char *const any[] = {"sync", "psync", "stdio"};
    for (unsigned i = 0; i < 3; i++) {
        int rc;
        const char *why = NULL;
        struct pl_job_result *r = run_on_null(any[i], 1, &rc, &why);
        if (rc != 0)
            fail_msg("%s: %s", any[i], why ? why : "?");
        assert_int_equal(r->all.ops, 1000);
        assert_int_equal(r->all.bytes, 1000 * 4096);
        assert_int_equal(r->all.errors, 0);
        assert_int_equal(r->by_op[PL_OP_READ].ops + r->by_op[PL_OP_WRITE].ops, 1000);
        free(r);
    }
    assert_int_equal(pl_target_use("os", NULL), 0);
}

/* io_uring and mmap need real descriptors: refused on the null target, with the reason. */
static void test_fd_engines_refused(void **state)
{
    (void)state;
    assert_int_equal(pl_target_use("null", NULL), 0);
    static const char *const fds[] = {"mmap", "io_uring"};
    for (unsigned i = 0; i < 2; i++) {
        if (!pl_engine_find(fds[i]))
            continue; /* built without io_uring */
        int rc;
        const char *why = NULL;
        struct pl_job_result *r = run_on_null(fds[i], 1, &rc, &why);
        assert_int_equal(rc, -EINVAL);
        assert_non_null(why);
        assert_non_null(strstr(why, "real descriptors"));
        free(r);
    }
    assert_int_equal(pl_target_use("os", NULL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_null_one_call),
        cmocka_unit_test(test_counted_into_phases),
        cmocka_unit_test(test_null_job),
        cmocka_unit_test(test_fd_engines_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
