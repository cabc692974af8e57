/*
 * Unit tests of the job loop (pl_job_run): stop rules (count, bytes, time,
 * the default of seq/list, interrupt), op mix, fsync_every, ramp, rate,
 * refusals with their reasons, error and short-transfer accounting, the
 * generator, round-robin files and io_uring at depth. Real I/O runs on a
 * scratch file in /tmp; where the test must see every offset or inject a
 * failure it runs through a recording engine defined here (the engine layer
 * is an ops table, so the loop cannot tell).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "clock.h"
#include "config.h"
#include "job.h"

#define KIB (UINT64_C(1) << 10)
#define MIB (UINT64_C(1) << 20)
#define SEC 1000000000ull

/* ---- a recording engine ------------------------------------------------------------ */

#define REC_CAP 100000

struct rec_entry {
    enum pl_op op;
    unsigned findex;
    uint64_t off, len;
};

static struct {
    uint64_t n;                  /* submits seen (all of them) */
    struct rec_entry e[REC_CAP]; /* the first REC_CAP of them */
    uint64_t fail_every;         /* fail I/O number k (1-based) when k % fail_every == 0 */
    uint64_t fail_at;            /* or only I/O number fail_at (1-based); 0 = never */
    int fail_err;
    int short_io; /* move half of what is asked */
    /* async flavour */
    struct pl_io *queue[4096];
    unsigned nq, maxq, maxflight;
    unsigned writes_inflight;
    unsigned fsync_with_writes; /* fsyncs submitted while writes were still in flight */
} rec;

static void rec_reset(void)
{
    memset(&rec, 0, sizeof rec);
    rec.fail_err = EIO;
}

static void rec_do(struct pl_io *io)
{
    uint64_t k = ++rec.n;
    if (k <= REC_CAP)
        rec.e[k - 1] = (struct rec_entry){io->op, io->findex, io->off, io->len};
    if ((rec.fail_every && k % rec.fail_every == 0) || (rec.fail_at && k == rec.fail_at))
        io->res = -rec.fail_err;
    else if (io->op == PL_OP_FSYNC)
        io->res = 0;
    else
        io->res = (int64_t)(rec.short_io ? io->len / 2 : io->len);
}

static int rec_submit(struct pl_engine *e, struct pl_io *io)
{
    (void)e;
    rec_do(io);
    return PL_Q_DONE;
}

static const struct pl_engine_ops rec_engine = {
    .name = "rec",
    .flags = PL_ENGINE_SYNC,
    .submit = rec_submit,
};

static int arec_submit(struct pl_engine *e, struct pl_io *io)
{
    if (rec.nq >= e->qd)
        return PL_Q_BUSY;
    if (io->op == PL_OP_FSYNC && rec.writes_inflight)
        rec.fsync_with_writes++;
    if (io->op == PL_OP_WRITE)
        rec.writes_inflight++;
    rec.queue[rec.nq++] = io;
    if (rec.nq > rec.maxflight)
        rec.maxflight = rec.nq;
    return PL_Q_QUEUED;
}

/* Completes the oldest first, as many as asked for (at least min if queued). */
static int arec_reap(struct pl_engine *e, unsigned min, struct pl_io **out, unsigned max)
{
    (void)e;
    (void)min;
    unsigned n = rec.nq < max ? rec.nq : max;
    for (unsigned i = 0; i < n; i++) {
        struct pl_io *io = rec.queue[i];
        rec_do(io);
        if (io->op == PL_OP_WRITE)
            rec.writes_inflight--;
        out[i] = io;
    }
    memmove(rec.queue, rec.queue + n, (rec.nq - n) * sizeof rec.queue[0]);
    rec.nq -= n;
    return (int)n;
}

static const struct pl_engine_ops arec_engine = {
    .name = "arec",
    .submit = arec_submit,
    .reap = arec_reap,
};

/* ---- fixture ------------------------------------------------------------------------ */

struct fixture {
    char path[64];
    struct pl_file f; /* read-write, 1 MiB of data */
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
    snprintf(fx->path, sizeof fx->path, "/tmp/pl-test-job-XXXXXX");
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
    fx->s.pat.kind = PL_PAT_SEQ;
    fx->s.engine = pl_engine_find("psync");
    fx->s.qd = 1;
    fx->s.seed = 42;
    fx->s.stop_on_error = 1;
    rec_reset();
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

/* Run fx->s; it must start. */
static struct pl_job_result *run_ok(struct fixture *fx)
{
    const char *why = NULL;
    int rc = pl_job_run(&fx->s, fx->r, &why);
    if (rc != 0)
        fail_msg("pl_job_run: %s (%s)", strerror(-rc), why ? why : "no reason");
    return fx->r;
}

/* Run fx->s; it must be refused with err and a reason containing `sub`. */
static void run_refused(struct fixture *fx, int err, const char *sub)
{
    const char *why = NULL;
    int rc = pl_job_run(&fx->s, fx->r, &why);
    if (rc != -err)
        fail_msg("expected -%d (%s), got %d (%s)", err, strerror(err), rc, why ? why : "no reason");
    assert_non_null(why);
    if (!strstr(why, sub))
        fail_msg("reason \"%s\" does not mention \"%s\"", why, sub);
}

/* ---- stop rules --------------------------------------------------------------------- */

static void test_count_stop(void **state)
{
    struct fixture *fx = *state;
    fx->s.pat.kind = PL_PAT_RANDOM;
    fx->s.count = 1000;
    struct pl_job_result *r = run_ok(fx);
    assert_int_equal(r->stopped, PL_STOP_COUNT);
    assert_int_equal(r->all.ops, 1000);
    assert_int_equal(r->all.bytes, 1000 * 4 * KIB);
    assert_int_equal(r->all.errors, 0);
    assert_int_equal(r->by_op[PL_OP_READ].ops, 1000);
    assert_int_equal(r->by_op[PL_OP_WRITE].ops, 0);
    assert_int_equal(r->by_op[PL_OP_FSYNC].ops, 0);
    assert_int_equal(r->shorts, 0);
    assert_int_equal(r->err, 0);
    assert_true(r->all.lat_min > 0 && r->all.lat_min <= r->all.lat_max);
    assert_int_equal(r->all.hist.count, 1000);
    assert_true(r->all.t_end > r->all.t_start);
    assert_string_equal(pl_job_stop_name(r->stopped), "count");

    /* exactly count submits, no more (the engine sees them all) */
    fx->s.engine = &rec_engine;
    fx->s.count = 777;
    r = run_ok(fx);
    assert_int_equal(rec.n, 777);
    assert_int_equal(r->all.ops, 777);
}

static void test_bytes_stop(void **state)
{
    struct fixture *fx = *state;
    fx->s.bytes = 3 * MIB; /* three passes over the 1 MiB file */
    fx->s.engine = &rec_engine;
    struct pl_job_result *r = run_ok(fx);
    assert_int_equal(r->stopped, PL_STOP_BYTES);
    assert_int_equal(r->all.ops, 768);
    assert_int_equal(r->all.bytes, 3 * MIB);
    assert_int_equal(rec.n, 768);
    for (uint64_t i = 0; i < 768; i++) /* seq wraps back to 0 at the end */
        assert_int_equal(rec.e[i].off, (i % 256) * 4 * KIB);

    /* a limit that is not a multiple of bs stops at the first I/O reaching it */
    rec_reset();
    fx->s.bytes = 10 * KIB;
    r = run_ok(fx);
    assert_int_equal(r->all.ops, 3);
    assert_int_equal(r->all.bytes, 12 * KIB);

    fx->s.engine = pl_engine_find("psync");
    fx->s.bytes = 2 * MIB;
    r = run_ok(fx);
    assert_int_equal(r->stopped, PL_STOP_BYTES);
    assert_int_equal(r->all.bytes, 2 * MIB);
}

static void test_seconds_stop(void **state)
{
    struct fixture *fx = *state;
    fx->s.pat.kind = PL_PAT_RANDOM;
    fx->s.seconds_ns = SEC / 2;
    uint64_t t0 = pl_clock_ns();
    struct pl_job_result *r = run_ok(fx);
    double wall = (double)(pl_clock_ns() - t0) / 1e9;
    double secs = pl_stats_seconds(&r->all);
    assert_int_equal(r->stopped, PL_STOP_TIME);
    /* it ran [1, 1.5]x the time; the stats end at the last completion, which may be a
       moment before the deadline (one I/O's latency: allow 1 ms) */
    if (wall < 0.5 || wall > 0.75)
        fail_msg("a 0.5 s job ran %.3f s", wall);
    if (secs < 0.499 || secs > 0.75)
        fail_msg("a 0.5 s job measured %.4f s (wall %.3f s)", secs, wall);
    assert_true(r->all.ops > 100);
    assert_string_equal(pl_job_stop_name(r->stopped), "time");
}

/* sample_ns: full windows on a grid, the partial last one dropped, the cap kept. */
static void test_samples(void **state)
{
    struct fixture *fx = *state;
    fx->s.pat.kind = PL_PAT_RANDOM;
    fx->s.engine = pl_engine_find("null");
    fx->s.seconds_ns = SEC / 5;
    fx->s.sample_ns = SEC / 50; /* 20 ms: 10 windows */
    struct pl_job_result *r = run_ok(fx);
    assert_int_equal(r->nsamples, 10);
    assert_int_equal(r->samples_dropped, 0);
    uint64_t ops = 0, bytes = 0;
    size_t busy = 0;
    for (size_t i = 0; i < r->nsamples; i++) {
        const struct pl_sample *w = &r->samples[i];
        assert_true(w->t_ns == (i + 1) * (SEC / 50));
        /* a window may hold no I/O when a loaded machine (ctest -j) takes the CPU from
           the job for longer than 20 ms; what it holds is reads of 4 KiB only */
        busy += w->ops[0] > 0;
        assert_true(w->ops[1] == 0 && w->bytes[0] == w->ops[0] * 4 * KIB);
        assert_true(w->lat_min[1] == 0 && w->lat_max[1] == 0);
        assert_true(w->lat_min[0] <= w->lat_max[0]);
        ops += w->ops[0];
        bytes += w->bytes[0];
    }
    if (busy < r->nsamples / 2)
        fail_msg("only %zu of %zu windows of a null-engine job hold an I/O", busy, r->nsamples);
    assert_true(ops <= r->all.ops && r->all.ops - ops <= 1); /* qd 1: one past the deadline */
    assert_true(bytes <= r->all.bytes);
    pl_job_result_free(r);
    assert_null(r->samples);

    /* count-stopped: the window the last I/O completed in is partial, not a sample */
    fx->s.seconds_ns = 0;
    fx->s.count = 3;
    r = run_ok(fx);
    assert_int_equal(r->nsamples, 0);
    pl_job_result_free(r);

    /* 1 us windows for 0.4 s: 400000 of them, more than the cap; the rest counted */
    fx->s.count = 0;
    fx->s.seconds_ns = SEC * 2 / 5;
    fx->s.sample_ns = 1000;
    r = run_ok(fx);
    assert_int_equal(r->nsamples, PL_SAMPLES_MAX);
    assert_int_equal(r->nsamples + r->samples_dropped, 400000);
    assert_true(r->samples[PL_SAMPLES_MAX - 1].t_ns == (uint64_t)PL_SAMPLES_MAX * 1000);
    pl_job_result_free(r);
}

/* seq over 1 MiB with no stop rule reads it once, every block in order. */
static void test_seq_default_covers_once(void **state)
{
    struct fixture *fx = *state;
    struct pl_job_result *r = run_ok(fx);
    assert_int_equal(r->all.ops, 256);
    assert_int_equal(r->all.bytes, MIB);
    assert_int_equal(r->stopped, PL_STOP_BYTES);

    fx->s.engine = &rec_engine;
    r = run_ok(fx);
    assert_int_equal(rec.n, 256);
    for (uint64_t i = 0; i < 256; i++) {
        assert_int_equal(rec.e[i].op, PL_OP_READ);
        assert_int_equal(rec.e[i].off, i * 4 * KIB);
        assert_int_equal(rec.e[i].len, 4 * KIB);
    }

    /* a sub-range: {256 KiB, 512 KiB} is 64 blocks from 256 KiB */
    rec_reset();
    fx->s.pat.lo = 256 * KIB;
    fx->s.pat.hi = 512 * KIB;
    r = run_ok(fx);
    assert_int_equal(r->all.ops, 64);
    for (uint64_t i = 0; i < 64; i++)
        assert_int_equal(rec.e[i].off, 256 * KIB + i * 4 * KIB);

    /* reverse covers it once too, from the top */
    rec_reset();
    fx->s.pat.kind = PL_PAT_REVERSE;
    r = run_ok(fx);
    assert_int_equal(r->all.ops, 64);
    for (uint64_t i = 0; i < 64; i++)
        assert_int_equal(rec.e[i].off, 512 * KIB - (i + 1) * 4 * KIB);

    /* stride without a stop rule: range / bs I/Os */
    rec_reset();
    fx->s.pat.kind = PL_PAT_STRIDE;
    fx->s.pat.stride = 16 * KIB;
    r = run_ok(fx);
    assert_int_equal(r->all.ops, 64);
}

static void test_list_pattern(void **state)
{
    struct fixture *fx = *state;
    static const uint64_t offs[] = {12288, 0, 40960, 4096, 1044480, 40960, 524288};
    const size_t n = sizeof offs / sizeof offs[0];
    fx->s.pat.kind = PL_PAT_LIST;
    fx->s.pat.list = offs;
    fx->s.pat.nlist = n;
    fx->s.engine = &rec_engine;
    struct pl_job_result *r = run_ok(fx);
    assert_int_equal(r->all.ops, n);
    assert_int_equal(r->stopped, PL_STOP_COUNT);
    assert_int_equal(rec.n, n);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(rec.e[i].off, offs[i]);

    /* with a count beyond the list it starts over */
    rec_reset();
    fx->s.count = 2 * n + 1;
    r = run_ok(fx);
    assert_int_equal(rec.n, 2 * n + 1);
    for (size_t i = 0; i < 2 * n + 1; i++)
        assert_int_equal(rec.e[i].off, offs[i % n]);

    /* and for real */
    fx->s.count = 0;
    fx->s.engine = pl_engine_find("psync");
    r = run_ok(fx);
    assert_int_equal(r->all.ops, n);
    assert_int_equal(r->all.bytes, n * 4 * KIB);
}

static void test_mix_read_pct(void **state)
{
    struct fixture *fx = *state;
    fx->s.op = PL_JOB_MIX;
    fx->s.read_pct = 70;
    fx->s.pat.kind = PL_PAT_RANDOM;
    fx->s.count = 10000;
    struct pl_job_result *r = run_ok(fx);
    uint64_t rd = r->by_op[PL_OP_READ].ops, wr = r->by_op[PL_OP_WRITE].ops;
    assert_int_equal(rd + wr, 10000);
    assert_int_equal(r->all.ops, 10000);
    if (rd < 6700 || rd > 7300)
        fail_msg("read_pct 70 gave %llu reads of 10000", (unsigned long long)rd);
    assert_int_equal(r->by_op[PL_OP_READ].bytes, rd * 4 * KIB);

    /* the same seed gives the same mix; the extremes are pure */
    uint64_t rd1 = rd;
    r = run_ok(fx);
    assert_int_equal(r->by_op[PL_OP_READ].ops, rd1);
    fx->s.read_pct = 100;
    r = run_ok(fx);
    assert_int_equal(r->by_op[PL_OP_WRITE].ops, 0);
    fx->s.read_pct = 0;
    r = run_ok(fx);
    assert_int_equal(r->by_op[PL_OP_READ].ops, 0);
    fx->s.read_pct = 101;
    run_refused(fx, EINVAL, "read_pct");
}

static void check_fsync_every(struct fixture *fx, const char *engine, unsigned qd)
{
    fx->s.engine = pl_engine_find(engine);
    if (!fx->s.engine)
        return;
    fx->s.qd = qd;
    fx->s.op = PL_JOB_WRITE;
    fx->s.pat.kind = PL_PAT_RANDOM;
    fx->s.count = 1000;
    fx->s.fsync_every = 100;
    struct pl_job_result *r = run_ok(fx);
    if (r->by_op[PL_OP_FSYNC].ops != 10)
        fail_msg("%s qd %u: %llu fsyncs for 1000 writes, fsync_every 100", engine, qd,
                 (unsigned long long)r->by_op[PL_OP_FSYNC].ops);
    assert_int_equal(r->by_op[PL_OP_WRITE].ops, 1000);
    assert_int_equal(r->by_op[PL_OP_READ].ops, 0);
    assert_int_equal(r->all.ops, 1010); /* fsyncs count as operations of the job */
    assert_int_equal(r->all.bytes, 1000 * 4 * KIB);
    assert_int_equal(r->by_op[PL_OP_FSYNC].bytes, 0);
    assert_int_equal(r->all.errors, 0);
}

static void test_fsync_every(void **state)
{
    struct fixture *fx = *state;
    check_fsync_every(fx, "psync", 1);
    check_fsync_every(fx, "sync", 1);
    check_fsync_every(fx, "io_uring", 8);

    /* at depth, an fsync waits until every earlier write has completed */
    rec_reset();
    fx->s.engine = &arec_engine;
    fx->s.qd = 8;
    struct pl_job_result *r = run_ok(fx);
    assert_int_equal(r->by_op[PL_OP_FSYNC].ops, 10);
    assert_int_equal(r->by_op[PL_OP_WRITE].ops, 1000);
    assert_int_equal(rec.fsync_with_writes, 0);
    assert_true(rec.maxflight > 1);
    /* every 100th write is followed by an fsync before write 101 is submitted */
    uint64_t w = 0;
    for (uint64_t i = 0; i < rec.n; i++) {
        if (rec.e[i].op == PL_OP_WRITE)
            w++;
        else
            assert_int_equal(w % 100, 0);
    }
}

/* seconds 1, ramp 0.5: the stats cover the last second only. */
static void test_ramp_excluded(void **state)
{
    struct fixture *fx = *state;
    fx->s.engine = &rec_engine;
    fx->s.pat.kind = PL_PAT_RANDOM;
    fx->s.seconds_ns = SEC;
    fx->s.ramp_ns = SEC / 2;
    fx->s.rate_iops = 10000; /* so the ops say how long was measured */
    uint64_t t0 = pl_clock_ns();
    struct pl_job_result *r = run_ok(fx);
    double wall = (double)(pl_clock_ns() - t0) / 1e9;
    double secs = pl_stats_seconds(&r->all);
    assert_int_equal(r->stopped, PL_STOP_TIME);
    if (secs < 0.95 || secs > 1.15)
        fail_msg("seconds 1 + ramp 0.5 measured %.3f s", secs);
    if (wall < 1.45 || wall > 1.8)
        fail_msg("seconds 1 + ramp 0.5 ran %.3f s", wall);
    /* ~15000 I/Os issued, ~10000 of them measured */
    if (rec.n < 14500 || rec.n > 15300)
        fail_msg("%llu I/Os issued in 1.5 s at 10000/s", (unsigned long long)rec.n);
    if (r->all.ops < 9700 || r->all.ops > 10300)
        fail_msg("%llu I/Os measured in 1 s at 10000/s", (unsigned long long)r->all.ops);
    /* measuring starts at the end of the ramp itself (not whenever the loop noticed it) */
    assert_true(r->all.t_start >= t0 + SEC / 2);
    assert_true(r->all.t_start < t0 + SEC / 2 + 20 * 1000 * 1000);
}

/* rate_iops is an open loop: 2000/s for 1 s measures 2000 IOPS within 2%. */
static void test_rate_iops(void **state)
{
    struct fixture *fx = *state;
    fx->s.pat.kind = PL_PAT_RANDOM;
    fx->s.seconds_ns = SEC;
    fx->s.rate_iops = 2000;
    struct pl_job_result *r = run_ok(fx);
    double iops = (double)r->all.ops / pl_stats_seconds(&r->all);
    if (iops < 1960 || iops > 2040)
        fail_msg("rate_iops 2000 measured %.1f IOPS", iops);

    fx->s.rate_iops = 0;
    fx->s.rate_bps = 8 * MIB; /* 2048 I/Os of 4 KiB a second */
    fx->s.seconds_ns = SEC / 2;
    r = run_ok(fx);
    double bps = (double)r->all.bytes / pl_stats_seconds(&r->all);
    if (bps < 0.98 * 8 * MIB || bps > 1.02 * 8 * MIB)
        fail_msg("rate_bps 8 MiB/s measured %.0f B/s", bps);

    /* a slot past the deadline is not waited for: 2/s for 0.6 s is I/Os at 0 and 0.5 s */
    fx->s.rate_bps = 0;
    fx->s.rate_iops = 2;
    fx->s.seconds_ns = 6 * SEC / 10;
    uint64_t t0 = pl_clock_ns();
    r = run_ok(fx);
    double wall = (double)(pl_clock_ns() - t0) / 1e9;
    assert_int_equal(r->stopped, PL_STOP_TIME);
    assert_int_equal(r->all.ops, 2);
    if (wall > 0.8)
        fail_msg("a 0.6 s job at 2 IOPS ran %.3f s", wall);
}

/* ---- refusals ------------------------------------------------------------------------ */

static void test_write_on_readonly_refused(void **state)
{
    struct fixture *fx = *state;
    struct pl_file ro;
    struct pl_open_opts o = {0};
    struct pl_error err;
    assert_int_equal(pl_file_open(&ro, fx->path, &o, &err), 0);
    struct pl_file *files[1] = {&ro};
    fx->s.files = files;
    fx->s.op = PL_JOB_WRITE;
    run_refused(fx, EBADF, "write");
    fx->s.op = PL_JOB_MIX;
    run_refused(fx, EBADF, "write");
    fx->s.op = PL_JOB_READ; /* reading is fine */
    assert_int_equal(run_ok(fx)->all.ops, 256);
    pl_file_close(&ro);
    /* a closed file is refused too */
    run_refused(fx, EBADF, "closed");
}

static void test_direct_misaligned_refused(void **state)
{
    struct fixture *fx = *state;
    struct pl_file d;
    struct pl_open_opts o = {.direct = 1, .write = 1};
    struct pl_error err;
    if (pl_file_open(&d, fx->path, &o, &err) < 0) {
        print_message("O_DIRECT not supported on /tmp: skipping\n");
        skip();
    }
    struct pl_file *files[1] = {&d};
    fx->s.files = files;
    fx->s.bs = 100;
    run_refused(fx, EINVAL, "O_DIRECT");
    run_refused(fx, EINVAL, "alignment");
    fx->s.bs = 4 * KIB;
    fx->s.pat.lo = 100; /* a misaligned range */
    run_refused(fx, EINVAL, "O_DIRECT");
    fx->s.pat.lo = 0;
    fx->s.pat.kind = PL_PAT_LIST;
    static const uint64_t offs[] = {0, 4096, 4097};
    fx->s.pat.list = offs;
    fx->s.pat.nlist = 3;
    run_refused(fx, EINVAL, "O_DIRECT");
    fx->s.pat.nlist = 2; /* aligned: runs */
    struct pl_job_result *r = run_ok(fx);
    assert_int_equal(r->all.ops, 2);
    assert_int_equal(r->all.errors, 0);
    pl_file_close(&d);
}

static void test_bad_specs_refused(void **state)
{
    struct fixture *fx = *state;
    fx->s.qd = 4; /* psync is synchronous */
    run_refused(fx, EINVAL, "qd");
    fx->s.engine = pl_engine_find("sync");
    run_refused(fx, EINVAL, "qd");
    fx->s.engine = pl_engine_find("psync");
    fx->s.qd = 5000;
    run_refused(fx, EINVAL, "qd");
    fx->s.qd = 1;

    fx->s.pat.kind = PL_PAT_RANDOM; /* random never ends by itself */
    run_refused(fx, EINVAL, "stop rule");
    fx->s.pat.kind = PL_PAT_ZIPF;
    fx->s.pat.theta = 1.2;
    run_refused(fx, EINVAL, "stop rule");
    fx->s.pat.kind = PL_PAT_SEQ;

    fx->s.nfiles = 0;
    run_refused(fx, EINVAL, "file");
    fx->s.nfiles = 1;
    fx->s.engine = NULL;
    run_refused(fx, EINVAL, "engine");
    static const struct pl_engine_ops broken = {.name = "broken"};
    fx->s.engine = &broken;
    run_refused(fx, EINVAL, "engine");
    fx->s.engine = pl_engine_find("psync");

    fx->s.bs = 2 * MIB; /* bigger than the 1 MiB range */
    run_refused(fx, EINVAL, "range");
    fx->s.bs = 4 * KIB;
    fx->s.pat.lo = MIB; /* empty range */
    fx->s.pat.hi = MIB;
    run_refused(fx, EINVAL, "range");
    fx->s.pat.lo = 0;
    fx->s.pat.hi = 0;

    static const uint64_t sizes[] = {4096, 0};
    fx->s.bs = 0;
    fx->s.bs_list = sizes;
    fx->s.nbs = 2;
    run_refused(fx, EINVAL, "0");
    static const uint64_t sizes2[] = {4096, 8192};
    static const double w0[] = {0, 0};
    fx->s.bs_list = sizes2;
    fx->s.bs_weights = w0;
    run_refused(fx, EINVAL, "weights");
}

/* ---- interrupt, errors, shorts ------------------------------------------------------ */

static void on_usr1(int sig)
{
    (void)sig;
}

struct raiser {
    volatile sig_atomic_t *flag;
    pthread_t target;
};

/* After 200 ms: raise the flag, then signal the job's thread (as SIGINT would). */
static void *raise_later(void *arg)
{
    struct raiser *ra = arg;
    struct timespec d = {0, 200 * 1000 * 1000};
    nanosleep(&d, NULL);
    *ra->flag = 1;
    pthread_kill(ra->target, SIGUSR1);
    return NULL;
}

static void test_interrupt(void **state)
{
    struct fixture *fx = *state;
    volatile sig_atomic_t flag = 1;
    fx->s.stop = &flag;
    fx->s.pat.kind = PL_PAT_RANDOM;
    fx->s.seconds_ns = 5 * SEC;
    uint64_t t0 = pl_clock_ns();
    struct pl_job_result *r = run_ok(fx);
    assert_int_equal(r->stopped, PL_STOP_INTERRUPT);
    assert_int_equal(r->all.ops, 0);
    assert_true(pl_clock_ns() - t0 < SEC / 2);
    assert_string_equal(pl_job_stop_name(r->stopped), "interrupted");

    if (pl_engine_find("io_uring")) {
        fx->s.engine = pl_engine_find("io_uring");
        fx->s.qd = 16;
        r = run_ok(fx);
        assert_int_equal(r->stopped, PL_STOP_INTERRUPT);
        assert_int_equal(r->all.ops, 0);
    }
    /* a flag raised mid-job (as the SIGINT handler does) cuts a rate wait short */
    fx->s.engine = pl_engine_find("psync");
    fx->s.qd = 1;
    flag = 0;
    fx->s.rate_iops = 0.5; /* one I/O, then a 2 s wait for the next */
    fx->s.count = 3;
    fx->s.seconds_ns = 0;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1; /* no SA_RESTART: the sleep sees EINTR */
    sigaction(SIGUSR1, &sa, &old);
    struct raiser ra = {.flag = &flag, .target = pthread_self()};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, raise_later, &ra), 0);
    t0 = pl_clock_ns();
    r = run_ok(fx);
    double wall = (double)(pl_clock_ns() - t0) / 1e9;
    pthread_join(th, NULL);
    sigaction(SIGUSR1, &old, NULL);
    assert_int_equal(r->stopped, PL_STOP_INTERRUPT);
    assert_int_equal(r->all.ops, 1);
    assert_true(r->all.lat_max < SEC); /* nothing issued ahead of its slot */
    if (wall > 1.0)
        fail_msg("the interrupted job took %.3f s", wall);
}

static void test_errors_stop(void **state)
{
    struct fixture *fx = *state;
    fx->s.engine = &rec_engine;
    fx->s.op = PL_JOB_WRITE;
    fx->s.count = 1000;
    rec.fail_at = 51;
    rec.fail_err = ENOSPC;
    struct pl_job_result *r = run_ok(fx);
    assert_int_equal(r->stopped, PL_STOP_ERROR);
    assert_int_equal(rec.n, 51);
    assert_int_equal(r->all.ops, 50); /* what came before is kept */
    assert_int_equal(r->all.bytes, 50 * 4 * KIB);
    assert_int_equal(r->all.errors, 1);
    assert_int_equal(pl_stats_errcount(&r->all, ENOSPC), 1);
    assert_int_equal(pl_stats_errcount(&r->by_op[PL_OP_WRITE], ENOSPC), 1);
    assert_int_equal(r->err, ENOSPC);
    assert_int_equal(r->err_op, PL_OP_WRITE);
    assert_int_equal(r->err_off, 50 * 4 * KIB);
    assert_int_equal(r->err_file, 0);
    assert_string_equal(pl_job_stop_name(r->stopped), "error");
}

static void test_errors_continue(void **state)
{
    struct fixture *fx = *state;
    fx->s.engine = &rec_engine;
    fx->s.op = PL_JOB_READ;
    fx->s.pat.kind = PL_PAT_RANDOM;
    fx->s.count = 1000;
    fx->s.stop_on_error = 0;
    rec.fail_every = 10;
    struct pl_job_result *r = run_ok(fx);
    assert_int_equal(r->stopped, PL_STOP_COUNT);
    assert_int_equal(rec.n, 1000);
    assert_int_equal(r->all.errors, 100);
    assert_int_equal(r->all.ops, 900);
    assert_int_equal(pl_stats_errcount(&r->all, EIO), 100);
    assert_int_equal(r->by_op[PL_OP_READ].errors, 100);
    assert_int_equal(r->err, EIO);
    assert_int_equal(r->err_off, rec.e[9].off); /* the first one */

    /* the same at depth */
    rec_reset();
    rec.fail_every = 10;
    fx->s.engine = &arec_engine;
    fx->s.qd = 8;
    r = run_ok(fx);
    assert_int_equal(r->all.errors, 100);
    assert_int_equal(r->all.ops, 900);
    assert_int_equal(r->stopped, PL_STOP_COUNT);

    /* and at depth with stop: ends, keeps what completed */
    rec_reset();
    rec.fail_at = 300;
    fx->s.stop_on_error = 1;
    r = run_ok(fx);
    assert_int_equal(r->stopped, PL_STOP_ERROR);
    assert_int_equal(r->all.errors, 1);
    assert_true(r->all.ops >= 299 && r->all.ops < 1000);
    assert_int_equal(r->all.ops + r->all.errors, rec.n); /* nothing lost in flight */
}

static void test_short_transfers(void **state)
{
    struct fixture *fx = *state;
    fx->s.engine = &rec_engine;
    rec.short_io = 1;
    fx->s.count = 100;
    struct pl_job_result *r = run_ok(fx);
    assert_int_equal(r->shorts, 100);
    assert_int_equal(r->all.ops, 100);
    assert_int_equal(r->all.bytes, 100 * 2 * KIB);

    /* reading past the end of the real file is short (0 bytes), not an error */
    fx->s.engine = pl_engine_find("psync");
    fx->s.pat.hi = 2 * MIB; /* the file has 1 MiB */
    fx->s.count = 512;
    r = run_ok(fx);
    assert_int_equal(r->all.errors, 0);
    assert_int_equal(r->shorts, 256);
    assert_int_equal(r->all.bytes, MIB);
}

/* ---- generator, files, sizes ---------------------------------------------------------- */

struct gen_state {
    uint64_t n;   /* I/Os to issue */
    int too_long; /* then one longer than the job's buffer */
    uint64_t calls;
};

/* A generator, as p.run's `gen` is: 1 and the I/O for call i, 0 at its end. */
static int test_gen(struct gen_state *g, uint64_t i, enum pl_op *op, uint64_t *off, uint64_t *len)
{
    g->calls++;
    if (i >= g->n) {
        if (!g->too_long)
            return 0;
        *op = PL_OP_READ;
        *off = 0;
        *len = 64 * MIB;
        return 1;
    }
    *op = i % 5 == 4 ? PL_OP_FSYNC : (i % 2 ? PL_OP_WRITE : PL_OP_READ);
    *off = (i * 3 % 256) * 4 * KIB;
    *len = 4 * KIB;
    return 1;
}

/* Drive fx->s as an external job, as lua/platter/run.lua does: open, step, close. */
static struct pl_job_result *run_stepped(struct fixture *fx, struct gen_state *g, int *last)
{
    struct pl_job *j;
    const char *why = NULL;
    fx->s.external = 1;
    int rc = pl_job_open(&j, &fx->s, fx->r, &why);
    if (rc != 0)
        fail_msg("pl_job_open: %s (%s)", strerror(-rc), why ? why : "no reason");
    *last = 1;
    for (uint64_t i = 0; *last > 0; i++) {
        enum pl_op op;
        uint64_t off, len;
        if (!test_gen(g, i, &op, &off, &len))
            break;
        *last = pl_job_step(j, op, off, len, 0);
    }
    assert_int_equal(pl_job_close(j, 0, &why), 0);
    return fx->r;
}

static void test_generator(void **state)
{
    struct fixture *fx = *state;
    struct gen_state g = {.n = 50};
    int last;
    fx->s.engine = &rec_engine;
    struct pl_job_result *r = run_stepped(fx, &g, &last);
    assert_int_equal(r->stopped, PL_STOP_GEN_END);
    assert_int_equal(rec.n, 50);
    assert_int_equal(g.calls, 51);
    for (uint64_t i = 0; i < 50; i++) {
        assert_int_equal(rec.e[i].op,
                         i % 5 == 4 ? PL_OP_FSYNC : (i % 2 ? PL_OP_WRITE : PL_OP_READ));
        if (rec.e[i].op != PL_OP_FSYNC)
            assert_int_equal(rec.e[i].off, (i * 3 % 256) * 4 * KIB);
    }
    assert_int_equal(r->by_op[PL_OP_FSYNC].ops, 10);
    assert_int_equal(r->all.ops, 50);
    assert_string_equal(pl_job_stop_name(r->stopped), "generator end");

    /* a count ends a generator job too: the step says so, and the generator is
       not asked for an I/O the job would not issue */
    rec_reset();
    g = (struct gen_state){.n = 1000};
    fx->s.count = 20;
    r = run_stepped(fx, &g, &last);
    assert_int_equal(last, 0);
    assert_int_equal(r->stopped, PL_STOP_COUNT);
    assert_int_equal(rec.n, 20);
    assert_int_equal(g.calls, 20);

    /* an I/O longer than the job's buffer is refused, and nothing after it runs */
    rec_reset();
    fx->s.count = 0;
    g = (struct gen_state){.n = 3, .too_long = 1};
    r = run_stepped(fx, &g, &last);
    assert_int_equal(last, -1);
    assert_int_equal(r->stopped, PL_STOP_GEN_ERROR);
    assert_int_equal(r->err, EINVAL);
    assert_int_equal(rec.n, 3);
}

static void test_round_robin_files(void **state)
{
    struct fixture *fx = *state;
    struct pl_file *files[3] = {&fx->f, &fx->f, &fx->f};
    fx->s.files = files;
    fx->s.nfiles = 3;
    fx->s.engine = &rec_engine;
    fx->s.count = 30;
    struct pl_job_result *r = run_ok(fx);
    assert_int_equal(r->all.ops, 30);
    for (uint64_t i = 0; i < 30; i++)
        assert_int_equal(rec.e[i].findex, i % 3);
}

static void test_bs_list(void **state)
{
    struct fixture *fx = *state;
    static const uint64_t sizes[] = {4096, 16384, 65536};
    static const double w[] = {0, 1, 3};
    fx->s.bs = 0;
    fx->s.bs_list = sizes;
    fx->s.bs_weights = w;
    fx->s.nbs = 3;
    fx->s.pat.kind = PL_PAT_RANDOM;
    fx->s.count = 4000;
    fx->s.engine = &rec_engine;
    struct pl_job_result *r = run_ok(fx);
    uint64_t n[3] = {0};
    for (uint64_t i = 0; i < 4000; i++) {
        int k = rec.e[i].len == 4096    ? 0
                : rec.e[i].len == 16384 ? 1
                : rec.e[i].len == 65536 ? 2
                                        : -1;
        assert_true(k >= 0);
        n[k]++;
        assert_true(rec.e[i].off + rec.e[i].len <= MIB);
    }
    assert_int_equal(n[0], 0); /* weight 0: never */
    if (n[2] < 2850 || n[2] > 3150)
        fail_msg("weights 1:3 gave %llu:%llu", (unsigned long long)n[1], (unsigned long long)n[2]);
    assert_int_equal(r->all.bytes, n[1] * 16384 + n[2] * 65536);
}

/* io_uring at depth 32 completes every op. */
/* A generator at depth: stepped io_uring keeps I/O in flight, and closing drains it. */
static void test_stepped_at_depth(void **state)
{
    struct fixture *fx = *state;
    fx->s.engine = pl_engine_find("io_uring");
    if (!fx->s.engine)
        skip();
    fx->s.qd = 8;
    fx->s.fsync_every = 7;
    struct gen_state g = {.n = 500};
    int last;
    struct pl_job_result *r = run_stepped(fx, &g, &last);
    assert_int_equal(r->stopped, PL_STOP_GEN_END);
    assert_int_equal(r->all.errors, 0);
    /* 400 reads and writes (every fifth I/O of the generator is an fsync), and an
       fsync after every 7th write, each after the writes before it completed */
    assert_int_equal(r->by_op[PL_OP_READ].ops + r->by_op[PL_OP_WRITE].ops, 400);
    assert_int_equal(r->by_op[PL_OP_WRITE].ops, 200);
    assert_int_equal(r->by_op[PL_OP_FSYNC].ops, 100 + 200 / 7);
    assert_int_equal(r->all.ops, 500 + 200 / 7);
}

static void test_uring_qd32(void **state)
{
    struct fixture *fx = *state;
    fx->s.engine = pl_engine_find("io_uring");
    if (!fx->s.engine)
        skip();
    fx->s.qd = 32;
    fx->s.pat.kind = PL_PAT_RANDOM;
    fx->s.count = 10000;
    struct pl_job_result *r = run_ok(fx);
    assert_int_equal(r->stopped, PL_STOP_COUNT);
    assert_int_equal(r->all.ops, 10000);
    assert_int_equal(r->all.bytes, 10000 * 4 * KIB);
    assert_int_equal(r->all.errors, 0);
    assert_int_equal(r->by_op[PL_OP_READ].ops, 10000);

    /* writes and a mix, with small batches */
    fx->s.op = PL_JOB_MIX;
    fx->s.read_pct = 50;
    fx->s.batch_submit = 3;
    r = run_ok(fx);
    assert_int_equal(r->all.ops, 10000);
    assert_int_equal(r->by_op[PL_OP_READ].ops + r->by_op[PL_OP_WRITE].ops, 10000);

    /* O_DIRECT at depth */
    struct pl_file d;
    struct pl_open_opts o = {.direct = 1, .write = 1};
    struct pl_error err;
    if (pl_file_open(&d, fx->path, &o, &err) == 0) {
        struct pl_file *files[1] = {&d};
        fx->s.files = files;
        fx->s.op = PL_JOB_READ;
        fx->s.count = 2000;
        r = run_ok(fx);
        assert_int_equal(r->all.ops, 2000);
        assert_int_equal(r->all.errors, 0);
        pl_file_close(&d);
    }
}

/* Every engine runs a real seq write then read job over the file. */
static void test_every_engine_runs(void **state)
{
    struct fixture *fx = *state;
    for (int i = 0; pl_engines[i]; i++) {
        fx->s.engine = pl_engines[i];
        fx->s.qd = (pl_engines[i]->flags & PL_ENGINE_SYNC) ? 1 : 4;
        fx->s.op = PL_JOB_WRITE;
        struct pl_job_result *r = run_ok(fx);
        if (r->all.ops != 256 || r->all.errors)
            fail_msg("%s write: %llu ops, %llu errors", pl_engines[i]->name,
                     (unsigned long long)r->all.ops, (unsigned long long)r->all.errors);
        fx->s.op = PL_JOB_READ;
        r = run_ok(fx);
        if (r->all.ops != 256 || r->all.bytes != MIB || r->all.errors)
            fail_msg("%s read: %llu ops, %llu errors", pl_engines[i]->name,
                     (unsigned long long)r->all.ops, (unsigned long long)r->all.errors);
    }
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_count_stop),
        T(test_bytes_stop),
        T(test_seconds_stop),
        T(test_samples),
        T(test_seq_default_covers_once),
        T(test_list_pattern),
        T(test_mix_read_pct),
        T(test_fsync_every),
        T(test_ramp_excluded),
        T(test_rate_iops),
        T(test_write_on_readonly_refused),
        T(test_direct_misaligned_refused),
        T(test_bad_specs_refused),
        T(test_interrupt),
        T(test_errors_stop),
        T(test_errors_continue),
        T(test_short_transfers),
        T(test_generator),
        T(test_round_robin_files),
        T(test_bs_list),
        T(test_uring_qd32),
        T(test_stepped_at_depth),
        T(test_every_engine_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
