/*
 * Unit tests of the engine layer: the registry (every engine keeps the ops
 * contract, pl_engine_find finds each by name and nothing else), and for each
 * engine a round trip on a scratch file driven through the ops table
 * directly: write 4 KiB blocks whose bytes encode the block number, fsync,
 * read every block back into its own buffer and verify it. io_uring and libaio
 * also run 64 I/Os through a queue of 8 and must complete every one, with the
 * data right. The null
 * engine moves no data, so it has tests of its own: full lengths, no byte of
 * a buffer or the file touched, and its queued form at depth.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"
#include "engine.h"
#include "file.h"

#define BLK 4096u
#define NBLK 16u /* blocks in the round trip */

/* The byte at position j of block b: distinct per block, never all zero. */
static unsigned char pattern_byte(uint64_t b, size_t j)
{
    return (unsigned char)((b * 131u + j * 7u + (j >> 8) + 1u) & 0xff);
}

static void fill_block(unsigned char *p, uint64_t b)
{
    for (size_t j = 0; j < BLK; j++)
        p[j] = pattern_byte(b, j);
    memcpy(p, &b, sizeof b); /* the block number itself leads the block */
}

/* 0 when p holds block b, else the first bad byte + 1. */
static size_t check_block(const unsigned char *p, uint64_t b)
{
    uint64_t got;
    memcpy(&got, p, sizeof got);
    if (got != b)
        return 1;
    for (size_t j = sizeof b; j < BLK; j++)
        if (p[j] != pattern_byte(b, j))
            return j + 1;
    return 0;
}

/* ---- fixture: one scratch file per test ---------------------------------------- */

struct fixture {
    char path[64];
    struct pl_file f;
    struct pl_file *files[1];
    struct pl_engine e;
    void *bufs[64];
    unsigned nbufs;
    const struct pl_engine_ops *ops;
    int inited;
};

static int setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof *fx);
    if (!fx)
        return -1;
    snprintf(fx->path, sizeof fx->path, "/tmp/pl-test-engines-XXXXXX");
    int fd = mkstemp(fx->path);
    if (fd < 0) {
        free(fx);
        return -1;
    }
    close(fd);
    struct pl_open_opts o = {.write = 1};
    struct pl_error err;
    if (pl_file_open(&fx->f, fx->path, &o, &err) < 0) {
        unlink(fx->path);
        free(fx);
        return -1;
    }
    fx->files[0] = &fx->f;
    fx->ops = *state; /* the engine under test (prestate), or NULL */
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;
    if (!fx)
        return 0;
    if (fx->inited && fx->e.ops->cleanup)
        fx->e.ops->cleanup(&fx->e);
    for (unsigned i = 0; i < fx->nbufs; i++)
        free(fx->bufs[i]);
    pl_file_close(&fx->f);
    unlink(fx->path);
    free(fx);
    return 0;
}

/* Prepare fx->e for the engine with qd and nbufs 4 KiB buffers; init it. */
static void engine_up(struct fixture *fx, unsigned qd, unsigned nbufs)
{
    assert_true(nbufs <= 64);
    for (unsigned i = 0; i < nbufs; i++) {
        assert_int_equal(posix_memalign(&fx->bufs[i], 4096, BLK), 0);
        memset(fx->bufs[i], 0, BLK);
    }
    fx->nbufs = nbufs;
    memset(&fx->e, 0, sizeof fx->e);
    fx->e.ops = fx->ops;
    fx->e.files = fx->files;
    fx->e.nfiles = 1;
    fx->e.qd = qd;
    fx->e.bufs = fx->bufs;
    fx->e.buflen = BLK;
    if (fx->ops->init) {
        const char *why = NULL;
        int rc = fx->ops->init(&fx->e, &why);
        if (rc < 0)
            fail_msg("%s: init failed: %s (%s)", fx->ops->name, strerror(-rc),
                     why ? why : "no reason");
    }
    fx->inited = 1;
}

static int is_sync(const struct pl_engine_ops *ops)
{
    return (ops->flags & PL_ENGINE_SYNC) != 0;
}

/*
 * Run the I/Os in ios (n of them, at most e->qd at a time for async
 * engines, all of them queued at once when they fit) to completion; every
 * one must succeed with its full length (0 for fsync).
 */
static void run_ios(struct fixture *fx, struct pl_io *ios, unsigned n)
{
    struct pl_engine *e = &fx->e;
    const struct pl_engine_ops *ops = fx->ops;
    if (is_sync(ops)) {
        for (unsigned i = 0; i < n; i++) {
            ios[i].res = -12345;
            int rc = ops->submit(e, &ios[i]);
            assert_int_equal(rc, PL_Q_DONE);
            if (ios[i].res != (int64_t)ios[i].len)
                fail_msg("%s: I/O %u (op %d at %llu) returned %lld, wanted %llu", ops->name, i,
                         ios[i].op, (unsigned long long)ios[i].off, (long long)ios[i].res,
                         (unsigned long long)ios[i].len);
        }
        return;
    }
    unsigned next = 0, inflight = 0, done = 0;
    unsigned char *seen = calloc(n, 1);
    struct pl_io **out = calloc(n, sizeof *out);
    assert_non_null(seen);
    assert_non_null(out);
    while (done < n) {
        while (next < n && inflight < e->qd) {
            ios[next].res = -12345;
            int rc = ops->submit(e, &ios[next]);
            if (rc == PL_Q_BUSY)
                break;
            if (rc < 0)
                fail_msg("%s: submit failed: %s", ops->name, strerror(-rc));
            if (rc == PL_Q_DONE) {
                seen[next] = 1;
                done++;
            } else {
                assert_int_equal(rc, PL_Q_QUEUED);
                inflight++;
            }
            next++;
        }
        if (!inflight)
            continue;
        int got = ops->reap(e, 1, out, n);
        if (got < 0)
            fail_msg("%s: reap failed: %s", ops->name, strerror(-got));
        assert_true(got >= 1); /* min = 1: at least one */
        for (int k = 0; k < got; k++) {
            struct pl_io *io = out[k];
            assert_true(io >= ios && io < ios + n);
            unsigned idx = (unsigned)(io - ios);
            if (seen[idx])
                fail_msg("%s: I/O %u completed twice", ops->name, idx);
            seen[idx] = 1;
        }
        inflight -= (unsigned)got;
        done += (unsigned)got;
    }
    for (unsigned i = 0; i < n; i++) {
        assert_true(seen[i]);
        if (ios[i].res != (int64_t)ios[i].len)
            fail_msg("%s: I/O %u (op %d at %llu) returned %lld, wanted %llu", ops->name, i,
                     ios[i].op, (unsigned long long)ios[i].off, (long long)ios[i].res,
                     (unsigned long long)ios[i].len);
    }
    free(seen);
    free(out);
}

static struct pl_io mkio(enum pl_op op, uint64_t block, unsigned slot, void *buf)
{
    struct pl_io io;
    memset(&io, 0, sizeof io);
    io.op = op;
    io.findex = 0;
    io.off = block * BLK;
    io.len = op == PL_OP_FSYNC ? 0 : BLK;
    io.buf = buf;
    io.slot = slot;
    return io;
}

/* ---- registry -------------------------------------------------------------------- */

static void test_registry_contract(void **state)
{
    (void)state;
    int n = 0, have_sync = 0, have_uring = 0, have_aio = 0;
    for (int i = 0; pl_engines[i]; i++, n++) {
        const struct pl_engine_ops *ops = pl_engines[i];
        assert_non_null(ops->name);
        if (pl_engine_check(ops) != 0)
            fail_msg("engine %s breaks the contract", ops->name);
        assert_non_null(ops->submit);
        if (!is_sync(ops))
            assert_non_null(ops->reap);
        /* names are unique: find returns this very table */
        assert_ptr_equal(pl_engine_find(ops->name), ops);
        have_sync += strcmp(ops->name, "sync") == 0;
        have_uring += strcmp(ops->name, "io_uring") == 0;
        have_aio += strcmp(ops->name, "libaio") == 0;
    }
    assert_true(n >= 4);
    assert_int_equal(have_sync, 1);
    assert_int_equal(have_uring, PL_HAVE_URING ? 1 : 0);
    assert_int_equal(have_aio, PL_HAVE_AIO ? 1 : 0);
    static const char *const always[] = {"sync", "psync", "stdio", "mmap"};
    for (int i = 0; i < 4; i++) {
        const struct pl_engine_ops *ops = pl_engine_find(always[i]);
        assert_non_null(ops);
        assert_string_equal(ops->name, always[i]);
        assert_true(is_sync(ops));
    }
#if PL_HAVE_URING
    assert_non_null(pl_engine_find("io_uring"));
    assert_false(is_sync(pl_engine_find("io_uring")));
#else
    assert_null(pl_engine_find("io_uring"));
#endif
#if PL_HAVE_AIO
    assert_false(is_sync(pl_engine_find("libaio")));
    assert_true(pl_engine_find("libaio")->flags & PL_ENGINE_FDS);
#else
    assert_null(pl_engine_find("libaio"));
#endif
    /* null: synchronous, with a queued form of the same name for qd > 1 */
    const struct pl_engine_ops *null = pl_engine_find("null");
    assert_non_null(null);
    assert_true(is_sync(null));
    assert_non_null(null->queued);
    assert_false(is_sync(null->queued));
    assert_string_equal(null->queued->name, "null");
    assert_ptr_equal(pl_engine_for_qd(null, 1), null);
    assert_ptr_equal(pl_engine_for_qd(null, 2), null->queued);
    assert_ptr_equal(pl_engine_for_qd(pl_engine_find("psync"), 8), pl_engine_find("psync"));
    for (int i = 0; pl_engines[i]; i++)
        assert_ptr_not_equal(pl_engines[i], null->queued); /* not a second "null" */
    assert_null(pl_engine_find("aio"));
    assert_null(pl_engine_find(""));
    assert_null(pl_engine_find("SYNC"));
    assert_null(pl_engine_find("psync "));
}

static int fake_submit(struct pl_engine *e, struct pl_io *io)
{
    (void)e;
    io->res = (int64_t)io->len;
    return PL_Q_DONE;
}

static int fake_reap(struct pl_engine *e, unsigned min, struct pl_io **out, unsigned max)
{
    (void)e, (void)min, (void)out, (void)max;
    return 0;
}

static void test_check_rejects(void **state)
{
    (void)state;
    assert_int_equal(pl_engine_check(NULL), -EINVAL);
    struct pl_engine_ops ok_sync = {.name = "x", .flags = PL_ENGINE_SYNC, .submit = fake_submit};
    assert_int_equal(pl_engine_check(&ok_sync), 0);
    struct pl_engine_ops ok_async = {.name = "x", .submit = fake_submit, .reap = fake_reap};
    assert_int_equal(pl_engine_check(&ok_async), 0);
    struct pl_engine_ops no_name = {.flags = PL_ENGINE_SYNC, .submit = fake_submit};
    assert_int_equal(pl_engine_check(&no_name), -EINVAL);
    struct pl_engine_ops no_submit = {.name = "x", .flags = PL_ENGINE_SYNC};
    assert_int_equal(pl_engine_check(&no_submit), -EINVAL);
    struct pl_engine_ops async_no_reap = {.name = "x", .submit = fake_submit};
    assert_int_equal(pl_engine_check(&async_no_reap), -EINVAL);
    /* a queued variant must keep the contract, keep the name and not be SYNC */
    struct pl_engine_ops with_q = ok_sync;
    with_q.queued = &ok_async;
    assert_int_equal(pl_engine_check(&with_q), 0);
    with_q.queued = &ok_sync;
    assert_int_equal(pl_engine_check(&with_q), -EINVAL);
    with_q.queued = &async_no_reap;
    assert_int_equal(pl_engine_check(&with_q), -EINVAL);
    struct pl_engine_ops other_name = ok_async;
    other_name.name = "y";
    with_q.queued = &other_name;
    assert_int_equal(pl_engine_check(&with_q), -EINVAL);
    /* pl_engine_with: the same engine, with settings */
    static const int opts = 7;
    struct pl_engine_ops copy;
    const struct pl_engine_ops *c = pl_engine_with(&copy, &ok_async, &opts);
    assert_ptr_equal(c, &copy);
    assert_ptr_equal(c->submit, ok_async.submit);
    assert_ptr_equal(c->reap, ok_async.reap);
    assert_string_equal(c->name, "x");
    assert_ptr_equal(c->opts, &opts);
    assert_null(ok_async.opts);
    assert_int_equal(pl_engine_check(c), 0);
}

/* ---- null --------------------------------------------------------------------------- */

/* Every I/O completes with its full length (0 for fsync), and no byte moves: neither
   the buffers nor the file change, and reads past the end of the file are full too. */
static void test_null_moves_nothing(void **state)
{
    struct fixture *fx = *state;
    assert_int_equal(ftruncate(fx->f.fd, 2 * BLK), 0);
    assert_int_equal(pwrite(fx->f.fd, "abcd", 4, 0), 4);
    engine_up(fx, 1, 2);
    memset(fx->bufs[0], 0x5a, BLK);
    memset(fx->bufs[1], 0xa5, BLK);
    struct pl_io ios[4] = {
        mkio(PL_OP_READ, 0, 0, fx->bufs[0]),
        mkio(PL_OP_WRITE, 1, 1, fx->bufs[1]),
        mkio(PL_OP_READ, 1000, 0, fx->bufs[0]), /* far past the end */
        mkio(PL_OP_FSYNC, 0, 0, fx->bufs[0]),
    };
    run_ios(fx, ios, 4);
    for (size_t j = 0; j < BLK; j++) {
        assert_int_equal(((unsigned char *)fx->bufs[0])[j], 0x5a);
        assert_int_equal(((unsigned char *)fx->bufs[1])[j], 0xa5);
    }
    char head[4];
    assert_int_equal(pread(fx->f.fd, head, 4, 0), 4);
    assert_memory_equal(head, "abcd", 4);
    char z;
    assert_int_equal(pread(fx->f.fd, &z, 1, BLK), 1);
    assert_int_equal(z, 0); /* the write left the file alone */
    struct stat st;
    assert_int_equal(fstat(fx->f.fd, &st), 0);
    assert_int_equal(st.st_size, 2 * BLK);
}

/* The queued form: up to qd I/Os wait, the next one is BUSY, and a reap completes
   them oldest first (at most max at a time). */
static void test_null_queued(void **state)
{
    struct fixture *fx = *state;
    fx->ops = pl_engine_for_qd(fx->ops, 8);
    const struct pl_engine_ops *ops = fx->ops;
    assert_false(is_sync(ops));
    engine_up(fx, 8, 8);
    struct pl_io ios[9];
    for (unsigned i = 0; i < 9; i++) {
        ios[i] = mkio(i % 3 == 2 ? PL_OP_FSYNC
                      : i % 3    ? PL_OP_WRITE
                                 : PL_OP_READ,
                      i, i % 8, fx->bufs[i % 8]);
        ios[i].res = -12345;
    }
    for (unsigned i = 0; i < 8; i++)
        assert_int_equal(ops->submit(&fx->e, &ios[i]), PL_Q_QUEUED);
    assert_int_equal(ops->submit(&fx->e, &ios[8]), PL_Q_BUSY);
    struct pl_io *out[8];
    assert_int_equal(ops->reap(&fx->e, 1, out, 3), 3);
    for (unsigned i = 0; i < 3; i++)
        assert_ptr_equal(out[i], &ios[i]);
    assert_int_equal(ops->submit(&fx->e, &ios[8]), PL_Q_QUEUED);
    assert_int_equal(ops->reap(&fx->e, 0, out, 8), 6);
    for (unsigned i = 0; i < 6; i++)
        assert_ptr_equal(out[i], &ios[i + 3]);
    assert_int_equal(ops->reap(&fx->e, 0, out, 8), 0);
    for (unsigned i = 0; i < 9; i++)
        assert_int_equal(ios[i].res, ios[i].op == PL_OP_FSYNC ? 0 : (int64_t)BLK);
    /* and the round trip of the other engines' tests, less the data */
    struct pl_io many[64];
    for (unsigned i = 0; i < 64; i++)
        many[i] = mkio(PL_OP_READ, i, i % 8, fx->bufs[i % 8]);
    run_ios(fx, many, 64);
}

/* ---- round trip --------------------------------------------------------------------- */

static void test_round_trip(void **state)
{
    struct fixture *fx = *state;
    const struct pl_engine_ops *ops = fx->ops;
    assert_non_null(ops);
    /* mmap maps the file as it is: give it its size first */
    assert_int_equal(ftruncate(fx->f.fd, (off_t)NBLK * BLK), 0);
    /* one buffer per block so reads land in separate buffers (io_uring: registered) */
    unsigned qd = is_sync(ops) ? 1 : NBLK;
    engine_up(fx, qd, NBLK);

    struct pl_io ios[NBLK + 1];
    /* write the blocks in a scrambled order (7 is coprime with 16) */
    for (unsigned i = 0; i < NBLK; i++) {
        unsigned b = (i * 7u + 3u) % NBLK;
        fill_block(fx->bufs[b], b);
        ios[i] = mkio(PL_OP_WRITE, b, b, fx->bufs[b]);
    }
    run_ios(fx, ios, NBLK);
    ios[0] = mkio(PL_OP_FSYNC, 0, 0, fx->bufs[0]);
    run_ios(fx, ios, 1);
    assert_int_equal(ios[0].res, 0);

    /* forget what was written: every buffer is garbage before the read */
    for (unsigned b = 0; b < NBLK; b++)
        memset(fx->bufs[b], 0xee, BLK);
    for (unsigned i = 0; i < NBLK; i++) {
        unsigned b = (i * 5u + 1u) % NBLK;
        ios[i] = mkio(PL_OP_READ, b, b, fx->bufs[b]);
    }
    run_ios(fx, ios, NBLK);
    for (unsigned b = 0; b < NBLK; b++) {
        size_t bad = check_block(fx->bufs[b], b);
        if (bad)
            fail_msg("%s: block %u read back wrong at byte %zu", ops->name, b, bad - 1);
    }
    if (ops->cleanup)
        ops->cleanup(&fx->e);
    fx->inited = 0;

    /* and the data is on the file for anyone else too */
    unsigned char *p = malloc(BLK);
    assert_non_null(p);
    for (unsigned b = 0; b < NBLK; b++) {
        assert_int_equal(pread(fx->f.fd, p, BLK, (off_t)b * BLK), (ssize_t)BLK);
        size_t bad = check_block(p, b);
        if (bad)
            fail_msg("%s: block %u on the file is wrong at byte %zu", ops->name, b, bad - 1);
    }
    free(p);
}

/* Reading past the end of the file moves nothing (0 bytes), not an error. */
static void test_read_at_eof(void **state)
{
    struct fixture *fx = *state;
    const struct pl_engine_ops *ops = fx->ops;
    assert_int_equal(ftruncate(fx->f.fd, 2 * BLK), 0);
    engine_up(fx, is_sync(ops) ? 1 : 2, 2);
    struct pl_io io = mkio(PL_OP_READ, 5, 0, fx->bufs[0]);
    io.res = -12345;
    int rc = ops->submit(&fx->e, &io);
    if (rc == PL_Q_QUEUED) {
        struct pl_io *out[2];
        assert_int_equal(ops->reap(&fx->e, 1, out, 2), 1);
        assert_ptr_equal(out[0], &io);
    } else {
        assert_int_equal(rc, PL_Q_DONE);
    }
    assert_int_equal(io.res, 0);
}

#if PL_HAVE_URING || PL_HAVE_AIO
/*
 * n I/Os through a queue of qd (at most 64 each): writes of scattered blocks, an
 * fsync, then reads of them; each completes once, with its full length, and the
 * reads bring back what was written.
 */
static void queued_write_read(struct fixture *fx, unsigned qd, unsigned n)
{
    const struct pl_engine_ops *ops = fx->ops;
    enum { MAXQ = 64, MAXN = 64 };
    assert_true(qd <= MAXQ && n <= MAXN && qd >= 1);
    assert_int_equal(ftruncate(fx->f.fd, (off_t)n * BLK), 0);
    engine_up(fx, qd, qd);

    for (int pass = 0; pass < 2; pass++) {
        enum pl_op op = pass == 0 ? PL_OP_WRITE : PL_OP_READ;
        struct pl_io ios[MAXQ];
        struct pl_io *out[MAXQ];
        unsigned free_slots[MAXQ], nfree = qd, next = 0, inflight = 0, completed = 0, maxflight = 0;
        unsigned char seen[MAXN] = {0};
        for (unsigned i = 0; i < qd; i++)
            free_slots[i] = qd - 1 - i;
        while (completed < n) {
            while (next < n && nfree) {
                unsigned s = free_slots[--nfree];
                uint64_t b = (next * 13u + 5u) % n; /* scattered order (13 is coprime with n) */
                if (op == PL_OP_WRITE)
                    fill_block(fx->bufs[s], b);
                else
                    memset(fx->bufs[s], 0xee, BLK);
                ios[s] = mkio(op, b, s, fx->bufs[s]);
                ios[s].res = -12345;
                int rc = ops->submit(&fx->e, &ios[s]);
                if (rc == PL_Q_BUSY) {
                    free_slots[nfree++] = s;
                    break;
                }
                assert_int_equal(rc, PL_Q_QUEUED);
                next++;
                inflight++;
            }
            if (inflight > maxflight)
                maxflight = inflight;
            int got = ops->reap(&fx->e, 1, out, qd);
            if (got < 0)
                fail_msg("reap: %s", strerror(-got));
            assert_true(got >= 1 && (unsigned)got <= inflight);
            for (int k = 0; k < got; k++) {
                struct pl_io *io = out[k];
                assert_true(io >= ios && io < ios + qd);
                if (io->res != (int64_t)BLK)
                    fail_msg("%s of block %llu returned %lld", op == PL_OP_WRITE ? "write" : "read",
                             (unsigned long long)(io->off / BLK), (long long)io->res);
                uint64_t b = io->off / BLK;
                assert_false(seen[b]);
                seen[b] = 1;
                if (op == PL_OP_READ) {
                    size_t bad = check_block(io->buf, b);
                    if (bad)
                        fail_msg("block %llu read back wrong at byte %zu", (unsigned long long)b,
                                 bad - 1);
                }
                free_slots[nfree++] = io->slot;
            }
            inflight -= (unsigned)got;
            completed += (unsigned)got;
        }
        assert_int_equal(next, n);
        assert_int_equal(inflight, 0);
        assert_int_equal(nfree, qd);
        for (unsigned b = 0; b < n; b++)
            assert_true(seen[b]);
        if (qd > 1)
            assert_true(maxflight > 1); /* the queue really ran deeper than 1 */
        /* nothing is left behind: a reap without waiting finds nothing */
        assert_int_equal(ops->reap(&fx->e, 0, out, qd), 0);
        if (pass == 0) {
            struct pl_io f = mkio(PL_OP_FSYNC, 0, 0, fx->bufs[0]);
            f.res = -12345;
            int rc = ops->submit(&fx->e, &f);
            if (rc == PL_Q_QUEUED) {
                assert_int_equal(ops->reap(&fx->e, 1, out, qd), 1);
                assert_ptr_equal(out[0], &f);
            } else {
                assert_int_equal(rc, PL_Q_DONE); /* libaio's fallback: fsync(2) */
            }
            assert_int_equal(f.res, 0);
        }
    }
    if (ops->cleanup)
        ops->cleanup(&fx->e);
    fx->inited = 0;
    for (unsigned i = 0; i < fx->nbufs; i++)
        free(fx->bufs[i]);
    fx->nbufs = 0;

    /* and the data is on the file for anyone else too (aligned: the file may be O_DIRECT) */
    void *mem = NULL;
    assert_int_equal(posix_memalign(&mem, 4096, BLK), 0);
    unsigned char *p = mem;
    for (unsigned b = 0; b < n; b++) {
        assert_int_equal(pread(fx->f.fd, p, BLK, (off_t)b * BLK), (ssize_t)BLK);
        size_t bad = check_block(p, b);
        if (bad)
            fail_msg("%s: block %u on the file is wrong at byte %zu", ops->name, b, bad - 1);
    }
    free(p);
}

static void test_queued_qd8_64(void **state)
{
    queued_write_read(*state, 8, 64);
}
#endif

#if PL_HAVE_AIO
/* libaio at depth 1 and 32, on the page cache and with O_DIRECT (the scratch file in
   /tmp; a file system without O_DIRECT fails the test rather than skip it). */
static void test_aio_depths_direct(void **state)
{
    struct fixture *fx = *state;
    for (int direct = 0; direct < 2; direct++) {
        if (direct) {
            pl_file_close(&fx->f);
            struct pl_open_opts o = {.write = 1, .direct = 1};
            struct pl_error err;
            if (pl_file_open(&fx->f, fx->path, &o, &err) < 0)
                fail_msg("cannot open %s with O_DIRECT", fx->path);
            assert_true(fx->f.direct);
        }
        queued_write_read(fx, 1, 40);
        assert_int_equal(ftruncate(fx->f.fd, 0), 0);
        queued_write_read(fx, 32, 64);
        assert_int_equal(ftruncate(fx->f.fd, 0), 0);
    }
}
#endif

/* Named per engine so a failure says which one. */
#define ENGINE_TEST(fn, name)                                                                      \
    {                                                                                              \
#fn " [" name "]", fn, setup, teardown, (void *)pl_engine_find(name)                       \
    }
#define ENGINE_TESTS(name) ENGINE_TEST(test_round_trip, name), ENGINE_TEST(test_read_at_eof, name)

int main(void)
{
    /* prestates are evaluated at run time: check they exist before cmocka sees NULL */
    static const char *const names[] = {"sync", "psync", "stdio", "mmap", "null"};
    for (int i = 0; i < 5; i++)
        if (!pl_engine_find(names[i])) {
            fprintf(stderr, "engine %s is not registered\n", names[i]);
            return 1;
        }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_contract),
        cmocka_unit_test(test_check_rejects),
        ENGINE_TESTS("sync"),
        ENGINE_TESTS("psync"),
        ENGINE_TESTS("stdio"),
        ENGINE_TESTS("mmap"),
        ENGINE_TEST(test_null_moves_nothing, "null"),
        ENGINE_TEST(test_null_queued, "null"),
#if PL_HAVE_URING
        ENGINE_TESTS("io_uring"),
        ENGINE_TEST(test_queued_qd8_64, "io_uring"),
#endif
#if PL_HAVE_AIO
        ENGINE_TESTS("libaio"),
        ENGINE_TEST(test_queued_qd8_64, "libaio"),
        ENGINE_TEST(test_aio_depths_direct, "libaio"),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
