/*
 * Unit tests of fio's I/O depth figures in a job's result (job.h: depths,
 * depth_rw, submit, complete): the bucket edges of pl_depth_index and
 * pl_dist_index (fio 3.33's io_u_mark_depth and __io_u_mark_map), a sync
 * engine (every I/O at depth 1, one per submit and per completion), the null
 * engine's queue (exact: it fills to qd, then one reap takes all of it), a
 * ramp (only measured I/O counts), and libaio and io_uring at depth, whose
 * submit calls the engine counts itself (with a batch, several I/Os a call).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"
#include "job.h"

#define KIB (UINT64_C(1) << 10)
#define MIB (UINT64_C(1) << 20)

struct fixture {
    char path[64];
    struct pl_file f;
    struct pl_file *files[1];
    struct pl_job_spec s;
    struct pl_job_result *r;
};

static int setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof *fx);
    if (!fx)
        return -1;
    fx->r = malloc(sizeof *fx->r);
    snprintf(fx->path, sizeof fx->path, "/tmp/pl-test-depths-XXXXXX");
    int fd = mkstemp(fx->path);
    if (fd < 0 || !fx->r)
        return -1;
    close(fd);
    struct pl_open_opts o = {.write = 1, .size = MIB};
    struct pl_error err;
    if (pl_file_open(&fx->f, fx->path, &o, &err) < 0) {
        unlink(fx->path);
        return -1;
    }
    fx->files[0] = &fx->f;
    fx->s.files = fx->files;
    fx->s.nfiles = 1;
    fx->s.op = PL_JOB_READ;
    fx->s.bs = 4 * KIB;
    fx->s.pat.kind = PL_PAT_RANDOM;
    fx->s.engine = pl_engine_find("psync");
    fx->s.qd = 1;
    fx->s.seed = 42;
    fx->s.stop_on_error = 1;
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;
    pl_file_close(&fx->f);
    unlink(fx->path);
    free(fx->r);
    free(fx);
    return 0;
}

static struct pl_job_result *run_ok(struct fixture *fx)
{
    const char *why = NULL;
    int rc = pl_job_run(&fx->s, fx->r, &why);
    if (rc != 0)
        fail_msg("pl_job_run: %s (%s)", strerror(-rc), why ? why : "no reason");
    return fx->r;
}

static uint64_t sum(const uint64_t *map)
{
    uint64_t n = 0;
    for (int i = 0; i < PL_DIST_NR; i++)
        n += map[i];
    return n;
}

/* fio 3.33: io_u_map 1, 2-3, 4-7, 8-15, 16-31, 32-63, >=64; submit/complete maps
   0, 1-4, 5-8, 9-16, 17-32, 33-64, >64 */
static void test_bucket_edges(void **state)
{
    (void)state;
    static const struct {
        unsigned n, depth, dist;
    } t[] = {
        {0, 0, 0},  {1, 0, 1},  {2, 1, 1},  {3, 1, 1},  {4, 2, 1},    {5, 2, 2},  {7, 2, 2},
        {8, 3, 2},  {9, 3, 3},  {15, 3, 3}, {16, 4, 3}, {17, 4, 4},   {31, 4, 4}, {32, 5, 4},
        {33, 5, 5}, {63, 5, 5}, {64, 6, 5}, {65, 6, 6}, {4096, 6, 6},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        if (pl_depth_index(t[i].n) != t[i].depth)
            fail_msg("depth %u: bucket %u, want %u", t[i].n, pl_depth_index(t[i].n), t[i].depth);
        if (pl_dist_index(t[i].n) != t[i].dist)
            fail_msg("%u I/Os a call: bucket %u, want %u", t[i].n, pl_dist_index(t[i].n),
                     t[i].dist);
    }
}

/* psync: every I/O at depth 1, each its own submit and completion; fsyncs are in the
   buckets and not in depth_rw, as fio's total_io_u leaves them out. */
static void test_sync_engine(void **state)
{
    struct fixture *fx = *state;
    fx->s.op = PL_JOB_MIX;
    fx->s.read_pct = 50;
    fx->s.count = 1000;
    fx->s.fsync_every = 10;
    struct pl_job_result *r = run_ok(fx);
    uint64_t fsyncs = r->by_op[PL_OP_FSYNC].ops;
    assert_true(fsyncs > 30);
    assert_int_equal(r->all.ops, 1000 + fsyncs);
    assert_int_equal(r->depths[0], 1000 + fsyncs);
    assert_int_equal(sum(r->depths), r->depths[0]);
    assert_int_equal(r->depth_rw, 1000);
    assert_int_equal(r->submit[1], 1000 + fsyncs);
    assert_int_equal(sum(r->submit), r->submit[1]);
    assert_int_equal(r->complete[1], 1000 + fsyncs);
    assert_int_equal(sum(r->complete), r->complete[1]);
}

/* The null engine's queue fills to qd and one reap completes all of it: per cycle of 8,
   depths 1, 2, 3, 4, 5, 6, 7, 8 (buckets 1, 2-3, 4-7, 8) and one reap of 8. */
static void test_null_queue_exact(void **state)
{
    struct fixture *fx = *state;
    fx->s.engine = pl_engine_for_qd(pl_engine_find("null"), 8);
    fx->s.qd = 8;
    fx->s.count = 800;
    struct pl_job_result *r = run_ok(fx);
    assert_int_equal(r->all.ops, 800);
    assert_int_equal(r->depths[0], 100);
    assert_int_equal(r->depths[1], 200);
    assert_int_equal(r->depths[2], 400);
    assert_int_equal(r->depths[3], 100);
    assert_int_equal(sum(r->depths), 800);
    assert_int_equal(r->depth_rw, 800);
    assert_int_equal(r->submit[1], 800); /* no commit call: each submit is one */
    assert_int_equal(sum(r->submit), 800);
    assert_int_equal(r->complete[2], 100); /* reaps of 8 */
    assert_int_equal(sum(r->complete), 100);
}

/* A ramp: only what was measured counts, and then exactly the measured I/O. */
static void test_ramp_not_counted(void **state)
{
    struct fixture *fx = *state;
    fx->s.engine = pl_engine_find("null");
    fx->s.ramp_ns = 30000000;
    fx->s.seconds_ns = 20000000;
    struct pl_job_result *r = run_ok(fx);
    assert_true(r->all.ops > 100);
    assert_int_equal(r->depths[0], r->all.ops);
    assert_int_equal(r->depth_rw, r->all.ops);
    assert_int_equal(r->submit[1], r->all.ops);
    assert_int_equal(r->complete[1], r->all.ops);
}

/* A committing engine at depth: depths sum to the I/O, submit calls are the engine's
   (batch 1: one I/O each; batch 8: up to 8 a call), every reap is counted. */
static void at_depth(struct fixture *fx, const char *engine)
{
    fx->s.engine = pl_engine_find(engine);
    if (!fx->s.engine)
        skip();
    assert_true(fx->s.engine->flags & PL_ENGINE_COMMITS);
    fx->s.qd = 32;
    fx->s.count = 4000;
    struct pl_job_result *r = run_ok(fx);
    assert_int_equal(r->all.ops, 4000);
    assert_int_equal(sum(r->depths), 4000);
    assert_int_equal(r->depth_rw, 4000);
    assert_true(r->depths[5] > 0); /* the queue reached 32 */
    assert_int_equal(r->depths[6], 0);
    assert_int_equal(r->submit[1], 4000);
    assert_int_equal(sum(r->submit), 4000);
    uint64_t reaps = sum(r->complete);
    assert_true(reaps >= 4000 / 32 && reaps <= 4000);
    assert_int_equal(r->complete[6], 0); /* never more than qd a reap */

    fx->s.batch_submit = 8;
    r = run_ok(fx);
    assert_int_equal(r->all.ops, 4000);
    assert_int_equal(sum(r->depths), 4000);
    uint64_t calls = sum(r->submit);
    if (r->submit[2] == 0 || calls > 4000 / 2 || calls < 4000 / 8)
        fail_msg("%s batch 8: %llu submit calls, %llu of 5..8 I/Os", engine,
                 (unsigned long long)calls, (unsigned long long)r->submit[2]);
    assert_int_equal(r->submit[3] + r->submit[4] + r->submit[5] + r->submit[6], 0);
}

static void test_aio_at_depth(void **state)
{
    at_depth(*state, "libaio");
}

static void test_uring_at_depth(void **state)
{
    at_depth(*state, "io_uring");
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bucket_edges),
        T(test_sync_engine),
        T(test_null_queue_exact),
        T(test_ramp_not_counted),
        T(test_aio_at_depth),
        T(test_uring_at_depth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
