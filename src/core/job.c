/*
 * The hot loop. For each I/O: pick op, size and offset (pattern or the
 * generator), wait for its slot under a rate limit, submit through the
 * engine, and record the completion. Latency runs from the moment an I/O was
 * due, so a late start under a rate limit counts against the device (no
 * coordinated omission). Uses clock, pattern, engine and stats.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cache.h"
#include "clock.h"
#include "job.h"
#include "progress.h"
#include "rng.h"
#include "units.h"
#include "io.h"
#include "hot.h"

#define SPIN_NS 200000 /* the last 200 µs before a due I/O are spun, not slept */

struct loop {
    const struct pl_job_spec *s;
    struct pl_job_result *r;
    struct pl_engine e;
    struct pl_pattern pat;
    struct pl_rng rng; /* op mix and block-size choice */
    struct pl_io *ios;
    struct pl_io **done;
    unsigned *free_slots, nfree;
    double *bs_cum;       /* cumulative weights of bs_list */
    double *write_bs_cum; /* and of write_bs_list */
    uint64_t start, meas_start, deadline;
    uint64_t log_t0; /* the log's lines count from here: meas_start, or a verify's job's */
    uint64_t last;   /* pl_job_step: when the previous step ended */
    uint64_t issued, issued_bytes, writes;
    uint64_t next_pass;  /* invalidate_every: issued_bytes at which the cache is dropped next */
    unsigned inflight;   /* queue depth > 1: submitted, not yet reaped */
    int engine_rc;       /* the engine failed: its -errno (the job ended there) */
    uint64_t period_ns;  /* rate_iops: time between I/Os */
    int poisson;         /* spec rate_poisson under a rate limit */
    uint64_t poisson_at; /* poisson: when the next I/O is due, from start */
    struct pl_rng prng;  /* poisson: the gaps */
    int measuring;       /* past the ramp */
    int stopping;
    int sync;             /* a synchronous engine at queue depth 1 */
    int commits;          /* the engine counts its own submit calls (PL_ENGINE_COMMITS) */
    int queued_completes; /* a queued I/O counts as a completion call (PL_ENGINE_NO_COMMIT) */
    uint64_t sync_meas, sync_rw; /* sync: I/Os (reads and writes) submitted while measuring */
    double cpu0;                 /* user+sys seconds at the start of measurement */
    double user0, sys0;
    uint64_t next_sample; /* end of the open sample window; UINT64_MAX: not sampling */
    struct pl_sample win; /* the open window */
    size_t samples_cap;
    unsigned reap_min, reap_max; /* at depth: fewest a full queue waits for, most per reap */
    uint64_t rate_check;         /* rate_min: when the next check is due; UINT64_MAX: none */
    uint64_t rate_last_t[2], rate_last_bytes[2], rate_last_ops[2];
    enum pl_vfy_kind vfill, vcheck; /* verify: fill the blocks written, check those read */
    struct pl_rng vrng;             /* verify: the seed of each block's data */
    uint64_t next_ss;               /* steady state: end of the open second; UINT64_MAX: off */
    uint64_t ss_secs;               /* seconds judged (or skipped under ss_ramp_ns) */
    uint64_t ss_ops, ss_bytes;      /* reads and writes completed by the previous second's end */
    uint64_t ss_k;                  /* ss_group: the open second's index on the group's grid */
    struct pl_iolog *log;           /* spec log: fio's log files, or NULL */
    int refill;                     /* new data in each write's buffer (spec refill) */
    struct pl_rng dfill;            /* refill: the data */
};

static const char *const stop_names[] = {
    "none",          "count",           "bytes",    "time",   "error",  "interrupted",
    "generator end", "generator error", "rate_min", "verify", "steady",
};

const char *pl_job_stop_name(enum pl_job_stop s)
{
    return (unsigned)s < sizeof stop_names / sizeof stop_names[0] ? stop_names[s] : "?";
}

/* CPU time has one definition (clock.h): this process and its waited children. */
static void cpu_now(double *user, double *sys)
{
    pl_clock_cpu(user, sys);
}

static void begin_measuring(struct loop *l, uint64_t now)
{
    l->measuring = 1;
    l->meas_start = now;
    if (!l->log_t0)
        l->log_t0 = now;
    cpu_now(&l->user0, &l->sys0);
    l->r->all.t_start = now;
    for (int i = 0; i < 3; i++)
        l->r->by_op[i].t_start = now;
    l->e.submit_map = l->r->submit; /* a committing engine counts its calls from now */
    if (l->s->sample_ns)
        l->next_sample = now + l->s->sample_ns;
    if (l->s->series_ns)
        pl_series_init(&l->r->series, l->s->series_ns, now); /* no memory: no series */
    if (l->s->ss_group) {
        l->next_ss = pl_ssg_join(l->s->ss_group, l->s->ss_member, now);
        l->ss_k = (l->next_ss - l->s->ss_group->origin) / 1000000000u - 1;
    } else if (l->s->ss_dur) {
        l->next_ss = now + 1000000000u;
    }
}

static void window_reset(struct pl_sample *w)
{
    memset(w, 0, sizeof *w);
    w->lat_min[0] = w->lat_min[1] = UINT64_MAX;
}

/* Keep the open window as a sample ending at its boundary (or count it as dropped). */
static void window_keep(struct loop *l)
{
    struct pl_job_result *r = l->r;
    struct pl_sample *w = &l->win;
    w->t_ns = l->next_sample - l->meas_start;
    for (int d = 0; d < 2; d++)
        if (!w->ops[d])
            w->lat_min[d] = 0;
    if (r->nsamples == l->samples_cap && r->nsamples < PL_SAMPLES_MAX) {
        size_t cap = l->samples_cap ? l->samples_cap * 2 : 64;
        struct pl_sample *p = realloc(r->samples, cap * sizeof *p);
        if (p) {
            r->samples = p;
            l->samples_cap = cap;
        }
    }
    if (r->nsamples < l->samples_cap)
        r->samples[r->nsamples++] = *w;
    else
        r->samples_dropped++;
    window_reset(w);
    l->next_sample += l->s->sample_ns;
}

/* Close every window that ended by `now` (the caller checked the first did). */
static void windows_close(struct loop *l, uint64_t now)
{
    /* nothing is measured past a time limit: a late last completion (a loaded
       machine) closes no window beyond it */
    if (l->deadline && now > l->deadline)
        now = l->deadline;
    while (l->next_sample <= now && l->r->nsamples < PL_SAMPLES_MAX)
        window_keep(l);
    if (l->next_sample <= now) { /* past the cap: count the windows, however many */
        uint64_t n = (now - l->next_sample) / l->s->sample_ns + 1;
        l->r->samples_dropped += n;
        l->next_sample += n * l->s->sample_ns;
        window_reset(&l->win);
    }
}

PL_HOT static void window_add(struct pl_sample *w, const struct pl_io *io, uint64_t lat)
{
    int d = io->op == PL_OP_WRITE;
    w->bytes[d] += (uint64_t)io->res;
    w->ops[d]++;
    w->lat_sum[d] += lat;
    if (lat < w->lat_min[d])
        w->lat_min[d] = lat;
    if (lat > w->lat_max[d])
        w->lat_max[d] = lat;
}

static void stop(struct loop *l, enum pl_job_stop why)
{
    if (!l->stopping) {
        l->stopping = 1;
        l->r->stopped = why;
    }
}

/* Steady state: judge every second that ended by `now` (the caller checked the first). */
static void steady_seconds(struct loop *l, uint64_t now)
{
    struct pl_job_result *r = l->r;
    const struct pl_job_spec *s = l->s;
    while (l->next_ss <= now) {
        uint64_t ops = r->by_op[PL_OP_READ].ops + r->by_op[PL_OP_WRITE].ops;
        uint64_t bytes = r->by_op[PL_OP_READ].bytes + r->by_op[PL_OP_WRITE].bytes;
        uint64_t dops = ops - l->ss_ops, dbytes = bytes - l->ss_bytes;
        l->ss_ops = ops;
        l->ss_bytes = bytes;
        l->ss_secs++;
        l->next_ss += 1000000000u;
        if (s->ss_group) { /* the group judges its grid's seconds (its ramp rule too) */
            if (pl_ssg_publish(s->ss_group, s->ss_member, l->ss_k++, dops, dbytes)) {
                l->next_ss = UINT64_MAX;
                stop(l, PL_STOP_STEADY);
            }
            continue;
        }
        /* fio: samples begin with the check one second after ss_ramp has passed */
        if (s->ss_ramp_ns && l->ss_secs * 1000000000u < s->ss_ramp_ns + 1000000000u)
            continue;
        if (pl_steady_add(&r->steady, dops, dbytes)) {
            l->next_ss = UINT64_MAX;
            stop(l, PL_STOP_STEADY);
        }
    }
}

/* verify: make the block about to be written (its data from the job's seed). */
static void verify_fill(struct loop *l, struct pl_io *io)
{
    /* check_spec let only blocks of PL_VFY_HDR bytes or more through */
    pl_vfy_fill(l->vfill, io->buf, io->len, io->off, pl_rng_next(&l->vrng));
}

/* verify: check the blocks a read brought (after its latency was taken). */
static void verify_check(struct loop *l, const struct pl_io *io)
{
    struct pl_job_result *r = l->r;
    struct pl_vfy_fail f;
    if (io->res <= 0 || pl_vfy_check(l->vcheck, io->buf, (uint64_t)io->res, io->off, &f) == 0)
        return;
    if (!r->verify_errors++) {
        r->vfail = f;
        r->vfail_file = io->findex;
    }
    if (l->s->verify_fatal)
        stop(l, PL_STOP_VERIFY);
}

/* refill: n random bytes at p. */
static void fill_random(struct pl_rng *g, unsigned char *p, uint64_t n)
{
    for (; n >= 8; n -= 8, p += 8) {
        uint64_t w = pl_rng_next(g);
        memcpy(p, &w, 8);
    }
    if (n) {
        uint64_t w = pl_rng_next(g);
        memcpy(p, &w, n);
    }
}

/*
 * refill: new data in the block about to be written (fio's fill_io_buffer):
 * random, or with compress_pct, each chunk (compress_chunk bytes, 512 by
 * default, or what is left) random for its first chunk * (100 - pct) / 100
 * bytes and zero after them.
 */
static void refill(struct loop *l, struct pl_io *io)
{
    unsigned char *p = io->buf;
    uint64_t left = io->len;
    unsigned pct = l->s->compress_pct;
    if (!pct) {
        fill_random(&l->dfill, p, left);
        return;
    }
    uint64_t chunk = l->s->compress_chunk ? l->s->compress_chunk : 512;
    while (left) {
        uint64_t n = chunk < left ? chunk : left;
        uint64_t rnd = n * (100 - pct) / 100;
        fill_random(&l->dfill, p, rnd);
        memset(p + rnd, 0, n - rnd);
        p += n;
        left -= n;
    }
}

/* A completion's clat for the log and io_samples: from the submit call's return at
   depth, else its latency */
static inline uint64_t clat_of(const struct loop *l, const struct pl_io *io, uint64_t now,
                               uint64_t lat)
{
    return !l->sync && io->t_sub && now >= io->t_sub ? now - io->t_sub : lat;
}

/* spec timeline: one more completion, at now, of n bytes */
static void timeline_add(struct pl_job_result *r, uint64_t now, uint64_t n)
{
    if (r->tl_n == r->tl_cap) {
        size_t cap = r->tl_cap ? r->tl_cap * 2 : 1024;
        uint64_t more = (cap - r->tl_cap) * PL_TIMELINE_BYTES;
        if (pl_budget_try(more)) {
            r->tl_lost++;
            return;
        }
        uint64_t *t = realloc(r->tl_t, cap * sizeof *t);
        if (t)
            r->tl_t = t;
        uint64_t *b = t ? realloc(r->tl_bytes, cap * sizeof *b) : NULL;
        if (!b) {
            pl_budget_give(more);
            r->tl_lost++;
            return;
        }
        r->tl_bytes = b;
        r->tl_cap = cap;
    }
    uint64_t before = r->tl_n ? r->tl_bytes[r->tl_n - 1] : 0;
    r->tl_t[r->tl_n] = now;
    r->tl_bytes[r->tl_n] = before + n;
    r->tl_n++;
}

/* A measured completion into the job's series and the active phases' (series_ns or a phase
   with one): nothing after a time limit is measured, so a late one counts at the deadline */
static void series_add(struct loop *l, const struct pl_io *io, uint64_t now, uint64_t lat)
{
    if (l->r->series.hist)
        pl_series_add(&l->r->series, l->deadline && now > l->deadline ? l->deadline : now,
                      (uint64_t)io->res, lat);
    if (pl_io_series_on)
        pl_io_series_feed(io, now, lat);
}

/* Record one completion that finished at `now`. */
PL_HOT static void complete(struct loop *l, struct pl_io *io, uint64_t now)
{
    struct pl_job_result *r = l->r;
    if (l->vcheck && io->op == PL_OP_READ)
        verify_check(l, io);
    if (io->res < 0) {
        int err = (int)-io->res;
        pl_io_count(&r->all, io, 0);
        pl_io_count(&r->by_op[io->op], io, 0);
        if (!r->err) {
            r->err = err;
            r->err_op = io->op;
            r->err_off = io->off;
            r->err_file = io->findex;
        }
        if (l->s->stop_on_error)
            stop(l, PL_STOP_ERROR);
        return;
    }
    if (io->op != PL_OP_FSYNC && (uint64_t)io->res < io->len)
        r->shorts++;
    if (!l->measuring || io->t_due < l->meas_start)
        return; /* issued during the ramp */
    uint64_t lat = now - io->t_due;
    if (now >= l->next_sample) /* UINT64_MAX when not sampling */
        windows_close(l, now);
    if (now >= l->next_ss) /* UINT64_MAX when not judging steady state */
        steady_seconds(l, now);
    if (l->s->sample_ns && io->op != PL_OP_FSYNC)
        window_add(&l->win, io, lat);
    if ((l->log || l->s->io_samples) && io->op != PL_OP_FSYNC) {
        uint64_t clat = clat_of(l, io, now, lat), n = (uint64_t)io->res;
        int dir = io->op == PL_OP_WRITE;
        if (l->log)
            pl_iolog_done(l->log, now - l->log_t0, dir, n, io->off, lat, clat);
        if (l->s->io_samples) /* fio's add_bw_sample: bytes * 10^6 / clat, rounded down */
            pl_moments_add(&l->r->io_bw[dir], clat ? n * 1000000u / clat : 0);
    }
    pl_io_count(&r->all, io, lat);
    pl_io_count(&r->by_op[io->op], io, lat);
    if (__builtin_expect(r->series.hist != NULL || pl_io_series_on != 0, 0))
        series_add(l, io, now, lat);
    if (l->s->timeline)
        timeline_add(r, now, (uint64_t)io->res);
    if (l->s->live && io->op != PL_OP_FSYNC) { /* seen by another process: plain stores */
        struct pl_live_slot *v = l->s->live;
        __atomic_store_n(&v->ops[io->op], v->ops[io->op] + 1, __ATOMIC_RELAXED);
        __atomic_store_n(&v->bytes[io->op], v->bytes[io->op] + (uint64_t)io->res, __ATOMIC_RELAXED);
    }
    r->all.t_end = now;
    r->by_op[io->op].t_end = now;
}

PL_HOT static uint64_t pick_from(struct loop *l, uint64_t bs, const uint64_t *list, unsigned n,
                                 const double *cum)
{
    if (!n)
        return bs;
    double x = pl_rng_double(&l->rng) * cum[n - 1];
    for (unsigned i = 0; i < n; i++)
        if (x < cum[i])
            return list[i];
    return list[n - 1];
}

/* the size of the next I/O: a write of a job with sizes of its own for writes takes one
   of those */
PL_HOT static uint64_t pick_bs(struct loop *l, enum pl_op op)
{
    const struct pl_job_spec *s = l->s;
    if (op == PL_OP_WRITE && (s->write_bs || s->write_nbs))
        return pick_from(l, s->write_bs, s->write_bs_list, s->write_nbs, l->write_bs_cum);
    return pick_from(l, s->bs, s->bs_list, s->nbs, l->bs_cum);
}

/* Fill io with the next I/O of the pattern; think with the job's think time. */
PL_HOT static void next_io(struct loop *l, struct pl_io *io, uint64_t *think)
{
    const struct pl_job_spec *s = l->s;
    io->findex = s->nfiles > 1 ? (unsigned)(l->issued % s->nfiles) : 0;
    *think = s->think_ns;
    if (s->op == PL_JOB_MIX)
        io->op = pl_rng_below(&l->rng, 100) < s->read_pct ? PL_OP_READ : PL_OP_WRITE;
    else
        io->op = s->op == PL_JOB_READ ? PL_OP_READ : PL_OP_WRITE;
    io->len = pick_bs(l, io->op);
    io->off = pl_pattern_next(&l->pat, io->len);
}

/* Should the job stop before issuing another I/O? Sets the reason. */
PL_HOT static int should_stop(struct loop *l, uint64_t now)
{
    const struct pl_job_spec *s = l->s;
    if (l->stopping)
        return 1;
    if (s->stop && *s->stop)
        stop(l, PL_STOP_INTERRUPT);
    else if (s->count && l->issued >= s->count)
        stop(l, PL_STOP_COUNT);
    else if (s->bytes && l->issued_bytes >= s->bytes)
        stop(l, PL_STOP_BYTES);
    else if (l->deadline && now >= l->deadline)
        stop(l, PL_STOP_TIME);
    else if (s->ss_group && l->measuring && pl_ssg_attained(s->ss_group))
        stop(l, PL_STOP_STEADY); /* another member's second reached it */
    return l->stopping;
}

/* When the next I/O is due under a rate limit (0 = now). */
PL_HOT static uint64_t due_time(const struct loop *l)
{
    const struct pl_job_spec *s = l->s;
    if (l->poisson)
        return l->start + l->poisson_at;
    if (l->period_ns) {
        uint64_t d;
        if (__builtin_mul_overflow(l->issued, l->period_ns, &d) || d > PL_U64_CAP)
            d = PL_U64_CAP;
        return l->start + d;
    }
    if (s->rate_bps > 0)
        return l->start + pl_u64_clamp((double)l->issued_bytes / s->rate_bps * 1e9);
    return 0;
}

/*
 * rate_poisson: the gap after an I/O of len bytes, exponential with mean 1/rate_iops
 * (or len/rate_bps), so that I/Os arrive as a Poisson process of the rate (fio's
 * rate_process=poisson). 1 - u lies in (0, 1]: the log is finite.
 */
static void poisson_advance(struct loop *l, uint64_t len)
{
    const struct pl_job_spec *s = l->s;
    double mean = s->rate_iops > 0 ? 1e9 / s->rate_iops : (double)len * 1e9 / s->rate_bps;
    double gap = -log(1.0 - pl_rng_double(&l->prng)) * mean;
    uint64_t at = l->poisson_at + pl_u64_clamp(gap);
    l->poisson_at = at < l->poisson_at || at > PL_U64_CAP ? PL_U64_CAP : at;
}

static void wait_until(const struct loop *l, uint64_t due, uint64_t now)
{
    if (due <= now)
        return;
    if (pl_clock_virtual) { /* virtual time: the wait passes at once */
        pl_clock_sleep_ns(due - now, NULL);
        return;
    }
    /*
     * Timed from the issue (fio's clock), an overshoot of the sleep only
     * delays the issue: sleep the whole wait, as fio does. Spinning there
     * kept a CPU busy for 200 µs of every paced I/O, which on a VM is the
     * host's CPU too, and raised the disk's tail (docs/performance.md).
     */
    if (l->s->lat_from_issue) {
        pl_clock_sleep_ns(due - now, (volatile int *)l->s->stop);
        return;
    }
    /*
     * Otherwise sleep most of a long wait and spin the rest: a sleep can
     * overshoot by tens of µs even with 1 ns timer slack, and under a rate
     * limit that overshoot would count as device latency.
     */
    if (due - now > SPIN_NS + 10000)
        pl_clock_sleep_ns(due - now - SPIN_NS, (volatile int *)l->s->stop);
    while (pl_clock_ns() < due && !(l->s->stop && *l->s->stop))
        ;
}

PL_HOT static void maybe_ramp_end(struct loop *l, uint64_t now)
{
    /* measuring starts at the end of the ramp itself, not when the loop notices it, so
       I/Os due after it count even when the loop was late (a stall, a rate backlog) */
    if (!l->measuring && now >= l->start + l->s->ramp_ns)
        begin_measuring(l, l->start + l->s->ramp_ns);
}

/* An fsync after fsync_every writes; returns the time it completed. */
static uint64_t sync_fsync(struct loop *l, struct pl_io *io)
{
    struct pl_io f = *io;
    f.op = PL_OP_FSYNC;
    f.len = 0;
    f.data_only = l->s->fsync_data;
    f.t_due = pl_clock_ns();
    l->sync_meas += (unsigned)l->measuring;
    l->e.ops->submit(&l->e, &f);
    uint64_t t = pl_clock_ns();
    complete(l, &f, t);
    return t;
}

/* The think time after an I/O: never past the run's time limit, where the run
   ends anyway (a think time of hours would hold it there). */
static void think_for(const struct loop *l, uint64_t think)
{
    if (l->deadline) {
        uint64_t now = pl_clock_ns();
        think = now >= l->deadline ? 0 : think < l->deadline - now ? think : l->deadline - now;
    }
    pl_clock_sleep_ns(think, (volatile int *)l->s->stop);
}

/*
 * Issue io (fields set) and record it; the part of a synchronous step after
 * choosing. Returns the time the step ended (the completion, or the end of an
 * fsync or think time), which the caller's stop rules use as "now": the clock
 * is read twice per I/O, around the submit, and the latency does not include
 * choosing the I/O (a pattern, or a Lua generator).
 */
PL_HOT static uint64_t issue_sync(struct loop *l, struct pl_io *io, uint64_t think, uint64_t start)
{
    const struct pl_job_spec *s = l->s;
    if (s->verify) { /* the clock is read after the block is made and the last one checked */
        if (l->vfill && io->op == PL_OP_WRITE)
            verify_fill(l, io);
        start = 0;
    } else if (l->refill && io->op == PL_OP_WRITE) {
        refill(l, io);
        start = 0;
    }
    uint64_t due = due_time(l);
    if (due) {
        uint64_t now = pl_clock_ns();
        /* a slot past the deadline, or a wait cut short by an interrupt: do not issue
           (an I/O issued before its due time would record a negative latency) */
        if (l->deadline && due >= l->deadline) {
            stop(l, PL_STOP_TIME);
            return now;
        }
        wait_until(l, due, now);
        if (s->stop && *s->stop) {
            stop(l, PL_STOP_INTERRUPT);
            return pl_clock_ns();
        }
        io->t_due = s->lat_from_issue ? pl_clock_ns() : due; /* fio's clock, or the due time */
    } else {
        /* start: when the previous step of the C loop ended (one clock reading per
           I/O); 0: read it now (after a generator, or the progress line) */
        io->t_due = start ? start : pl_clock_ns();
        if (l->deadline && io->t_due >= l->deadline) {
            stop(l, PL_STOP_TIME); /* the window is over: this one would not count */
            return io->t_due;
        }
    }
    maybe_ramp_end(l, io->t_due);
    l->sync_meas += (unsigned)l->measuring; /* depth 1, one per submit and per "reap" */
    l->sync_rw += (unsigned)l->measuring;
    l->e.ops->submit(&l->e, io);
    uint64_t t = pl_clock_ns();
    complete(l, io, t);
    l->issued++;
    l->issued_bytes += io->len;
    if (l->poisson)
        poisson_advance(l, io->len);
    if (io->op == PL_OP_WRITE && s->fsync_every && ++l->writes % s->fsync_every == 0)
        t = sync_fsync(l, io);
    if (think) {
        think_for(l, think);
        t = pl_clock_ns();
    }
    return t;
}

/* The progress line (progress.h); reached only when a report is due. */
static void progress(const struct loop *l, uint64_t now)
{
    const struct pl_job_spec *s = l->s;
    double frac = -1, f;
    if (s->count)
        frac = (double)l->issued / (double)s->count;
    if (s->bytes && (f = (double)l->issued_bytes / (double)s->bytes) > frac)
        frac = f;
    if (l->deadline && (f = (double)(now - l->start) / (double)(l->deadline - l->start)) > frac)
        frac = f;
    pl_progress_report(now, &l->r->all, frac > 1 ? 1 : frac);
}

PL_HOT static void release(struct loop *l, struct pl_io *io)
{
    l->free_slots[l->nfree++] = io->slot;
}

/* The engine failed: the job ends here, with its -errno for pl_job_close. */
static void engine_failed(struct loop *l, int rc)
{
    if (!l->engine_rc)
        l->engine_rc = rc;
    stop(l, PL_STOP_ERROR);
}

/* Reap at least min completions (0: what is there) and record them; the count, or
   -errno after an engine failure (then the job is ending). */
PL_HOT static int reap_some(struct loop *l, unsigned min)
{
    if (min > l->reap_max)
        min = l->reap_max; /* fio: a max below the min is raised to it (setup) */
    int n = l->e.ops->reap(&l->e, min, l->done, l->reap_max);
    if (n < 0) {
        engine_failed(l, n);
        return n;
    }
    if (l->measuring)
        l->r->complete[pl_dist_index((unsigned)n)]++; /* fio counts empty reaps too */
    uint64_t now = pl_clock_ns();
    for (int i = 0; i < n; i++) {
        complete(l, l->done[i], now);
        release(l, l->done[i]);
    }
    l->inflight -= (unsigned)n;
    return n;
}

/* Wait for everything in flight, so that no buffer is freed under the kernel. */
static void drain(struct loop *l)
{
    while (l->inflight && reap_some(l, 1) > 0)
        ;
}

/* Submit io (a free slot, filled) and account for it; 0, or -errno of the engine. */
PL_HOT static int submit_async(struct loop *l, struct pl_io *io)
{
    int rc;
    if (l->measuring) {
        /* fio's depth of an I/O: how many are in flight once it is, itself included */
        struct pl_job_result *r = l->r;
        r->depths[pl_depth_index(l->inflight + 1)]++;
        r->depth_rw += io->op != PL_OP_FSYNC;
        if (!l->commits)
            r->submit[1]++; /* every submit a call of its own, of one I/O */
    }
    while ((rc = l->e.ops->submit(&l->e, io)) == PL_Q_BUSY)
        if (reap_some(l, 1) < 0) {
            release(l, io);
            return l->engine_rc;
        }
    if (rc < 0) {
        release(l, io);
        engine_failed(l, rc);
        return rc;
    }
    if ((l->s->slat || l->log || l->s->io_samples) && io->op != PL_OP_FSYNC) {
        uint64_t t = pl_clock_ns();
        io->t_sub = t;
        if (l->s->slat && l->measuring) { /* fio's slat: handed to the kernel */
            pl_stats_record(&l->r->slat[io->op == PL_OP_WRITE], io->len, t - io->t_due);
            if (l->log)
                pl_iolog_submitted(l->log, t - l->log_t0, io->op == PL_OP_WRITE, io->len, io->off,
                                   t - io->t_due);
        }
    }
    if (rc == PL_Q_DONE) {
        if (l->measuring && !l->commits)
            l->r->complete[1]++; /* done in the submit call, as a sync engine's */
        complete(l, io, pl_clock_ns());
        release(l, io);
    } else {
        if (l->measuring && l->queued_completes)
            l->r->complete[1]++; /* fio's td_io_queue for an engine without commit */
        l->inflight++;
    }
    return 0;
}

/* fsync_every at depth: after every earlier write has completed, an fsync alone. */
static void fsync_barrier(struct loop *l)
{
    drain(l);
    if (l->engine_rc || !l->nfree)
        return;
    struct pl_io *io = &l->ios[l->free_slots[--l->nfree]];
    io->op = PL_OP_FSYNC;
    io->data_only = l->s->fsync_data;
    io->off = io->len = 0;
    io->t_due = pl_clock_ns();
    if (submit_async(l, io) == 0)
        drain(l);
}

/* While a rate limit holds the next I/O back with I/O in flight: how long to wait
   before looking for completions again. Every 20 us, or until the engine's next
   completion when it knows it (a target's queue on a virtual clock: exact). */
static uint64_t poll_to(const struct loop *l, uint64_t due, uint64_t now)
{
    if (!l->inflight)
        return due;
    if (l->e.ops->next_done) {
        uint64_t t = l->e.ops->next_done((struct pl_engine *)&l->e);
        return t > now && t < due ? t : due;
    }
    return due > now + 20000 ? now + 20000 : due;
}

/*
 * Queue depth > 1: issue req (op, off, len, findex chosen) keeping up to qd
 * I/Os in flight, reaping as the queue fills and while a rate limit makes the
 * I/O wait (so that no completion is held back). Returns when the step
 * ended. The same step serves the C loop and pl_job_step.
 */
PL_HOT static uint64_t issue_async(struct loop *l, const struct pl_io *req, uint64_t think)
{
    const struct pl_job_spec *s = l->s;
    while (l->inflight >= s->qd || !l->nfree)
        if (reap_some(l, l->reap_min) < 0)
            return pl_clock_ns();
    uint64_t due = due_time(l), now = pl_clock_ns();
    if (due > now) {
        if (l->deadline && due >= l->deadline) {
            stop(l, PL_STOP_TIME);
            return now;
        }
        while (now < due && !(s->stop && *s->stop)) {
            int n = l->inflight ? reap_some(l, 0) : 0;
            if (n < 0)
                return pl_clock_ns();
            if (n == 0)
                wait_until(l, poll_to(l, due, now), now);
            now = pl_clock_ns();
        }
        if (s->stop && *s->stop) {
            stop(l, PL_STOP_INTERRUPT);
            return now;
        }
    }
    struct pl_io *io = &l->ios[l->free_slots[--l->nfree]];
    io->op = req->op;
    io->off = req->off;
    io->len = req->len;
    io->findex = req->findex;
    if (l->vfill && io->op == PL_OP_WRITE) {
        verify_fill(l, io);
        now = pl_clock_ns(); /* making the block is not the device's time */
    } else if (l->refill && io->op == PL_OP_WRITE) {
        refill(l, io);
        now = pl_clock_ns();
    }
    io->t_due = due && !s->lat_from_issue ? due : now;
    maybe_ramp_end(l, io->t_due);
    if (submit_async(l, io) < 0)
        return pl_clock_ns();
    l->issued++;
    l->issued_bytes += io->len;
    if (l->poisson)
        poisson_advance(l, io->len);
    if (io->op == PL_OP_WRITE && s->fsync_every && ++l->writes % s->fsync_every == 0)
        fsync_barrier(l);
    /* a full queue is reaped now, before the next I/O is chosen: a generator's time
       then is not in the latency of I/O that completed meanwhile (at depth 1, none) */
    if (l->inflight >= s->qd)
        reap_some(l, l->reap_min);
    if (think)
        think_for(l, think);
    return pl_clock_ns();
}

/* The step of either kind: synchronous at queue depth 1 (from start, see
   issue_sync), else at depth. */
PL_HOT static uint64_t issue(struct loop *l, struct pl_io *io, uint64_t think, uint64_t start)
{
    return l->sync ? issue_sync(l, io, think, start) : issue_async(l, io, think);
}

/* invalidate_every: a pass over the files is done; drop their cached pages
   (fio's invalidate at each loop), as a posix_fadvise DONTNEED writes nothing back. */
static void drop_pass(struct loop *l)
{
    const struct pl_job_spec *s = l->s;
    for (unsigned i = 0; i < s->nfiles; i++) {
        struct pl_error e = {0};
        (void)s->files[i]->target->advise(s->files[i], PL_ADV_DONTNEED, 0, 0, &e);
    }
    while (l->next_pass <= l->issued_bytes)
        l->next_pass += s->invalidate_every;
}

/*
 * rate_min (fio's __check_min_rate): the first check after the 2 s settle only
 * records where each direction is; later ones, once per cycle, compare the rate
 * since the previous one with the minimum, in fio's integer arithmetic.
 */
static void check_min_rate(struct loop *l, uint64_t now)
{
    const struct pl_job_spec *s = l->s;
    uint64_t cycle = s->rate_cycle_ns ? s->rate_cycle_ns : 1000000000u;
    l->rate_check = now + cycle;
    if (!l->measuring)
        return;
    for (int d = 0; d < 2; d++) {
        const struct pl_stats *st = &l->r->by_op[d];
        if (!(s->rate_min_bps[d] > 0) && !(s->rate_min_iops[d] > 0))
            continue;
        if (!st->bytes)
            continue; /* fio checks a direction once it has done some I/O */
        if (l->rate_last_bytes[d] || l->rate_last_ops[d]) {
            uint64_t spent = (now - l->rate_last_t[d]) / 1000000u;
            if (spent == 0 || spent * 1000000u < cycle)
                continue;
            int iops = !(s->rate_min_bps[d] > 0);
            uint64_t want = (uint64_t)(iops ? s->rate_min_iops[d] : s->rate_min_bps[d]);
            uint64_t got = iops ? (st->ops - l->rate_last_ops[d]) * 1000 / spent
                                : (st->bytes - l->rate_last_bytes[d]) * 1000 / spent;
            if (got < want) {
                struct pl_job_result *r = l->r;
                r->rate_min_dir = d;
                r->rate_min_iops = iops;
                r->rate_min_want = want;
                r->rate_min_got = got;
                if (!r->err) {
                    r->err = EIO;
                    r->err_op = d == 1 ? PL_OP_WRITE : PL_OP_READ;
                }
                stop(l, PL_STOP_RATE_MIN);
                return;
            }
        }
        l->rate_last_bytes[d] = st->bytes;
        l->rate_last_ops[d] = st->ops;
        l->rate_last_t[d] = now;
    }
}

/* The C loop of a pattern job: choose the next I/O, issue it, until a stop rule. */
PL_HOT static void run_pattern(struct loop *l)
{
    struct pl_io req = {0};
    struct pl_io *io = l->sync ? &l->ios[0] : &req;
    uint64_t now = pl_clock_ns();
    for (;;) {
        uint64_t start = now; /* the end of the last step is the start of this one */
        if (now >= pl_progress_due) {
            progress(l, now);
            start = 0; /* drawing the line is not the device's time */
        }
        maybe_ramp_end(l, now);
        if (should_stop(l, now))
            break;
        if (l->s->invalidate_every && l->issued_bytes >= l->next_pass) {
            drop_pass(l);
            start = 0; /* the fadvise is not the device's time */
        }
        uint64_t think;
        next_io(l, io, &think);
        now = issue(l, io, think, start);
        if (now >= l->rate_check) /* UINT64_MAX without rate_min */
            check_min_rate(l, now);
    }
}

static int default_stop(struct loop *l, struct pl_job_spec *s, uint64_t range, const char **why)
{
    if (s->count || s->bytes || s->seconds_ns || s->external)
        return 0;
    switch (s->pat.kind) {
    case PL_PAT_LIST: s->count = s->pat.nlist; return 0;
    case PL_PAT_SEQ:
    case PL_PAT_REVERSE: s->bytes = range; return 0;
    case PL_PAT_STRIDE: s->count = range / (s->nbs ? s->bs_list[0] : s->bs); return 0;
    case PL_PAT_SHUFFLE: s->count = l->pat.nblocks; return 0; /* one pass */
    default: *why = "this pattern needs a stop rule: count, bytes or seconds"; return -EINVAL;
    }
}

/* What verify needs: a pattern job, blocks that hold a header, somewhere that keeps data. */
static int check_verify(const struct pl_job_spec *s, const char **why)
{
    uint64_t minbs = s->nbs ? UINT64_MAX : s->bs;
    for (unsigned i = 0; i < s->nbs; i++)
        if (s->bs_list[i] < minbs)
            minbs = s->bs_list[i];
    if (!pl_vfy_sum_len(s->verify))
        *why = "unknown verify kind";
    else if (s->external)
        *why = "verify needs a pattern job, not a generator";
    else if (minbs < PL_VFY_HDR)
        *why = "verify needs blocks of at least 64 bytes (the header of each block)";
    else if (strcmp(s->engine->name, "null") == 0)
        *why = "verify needs an engine that moves data, not null";
    else
        for (unsigned i = 0; i < s->nfiles; i++)
            if (s->files[i] && (s->files[i]->target->flags & PL_TARGET_VIRTUAL))
                *why = "verify needs a target that keeps what is written (not the simulated "
                       "disk or the null target)";
    static char lib_why[PATH_MAX + 96]; /* the checksum's library, loaded now: not in a timed I/O */
    if (!*why && pl_vfy_load(s->verify, lib_why, sizeof lib_why) < 0)
        *why = lib_why;
    return *why ? -1 : 0;
}

static int check_spec(const struct pl_job_spec *s, uint64_t *maxbs, const char **why)
{
    if (!s->nfiles || !s->files) {
        *why = "no file to run on";
        return -EINVAL;
    }
    if (!s->engine || pl_engine_check(s->engine) < 0) {
        *why = "the engine breaks the engine contract";
        return -EINVAL;
    }
    if (s->qd < 1 || s->qd > PL_MAX_QD) {
        *why = "qd must be within 1..4096";
        return -EINVAL;
    }
    if ((s->engine->flags & PL_ENGINE_SYNC) && s->qd > 1) {
        *why = "this engine completes each I/O before the next: qd > 1 needs io_uring, libaio or "
               "posixaio";
        return -EINVAL;
    }
    *maxbs = s->bs > s->write_bs ? s->bs : s->write_bs;
    for (unsigned i = 0; i < s->nbs + s->write_nbs; i++) {
        int w = i >= s->nbs; /* the writes' list after the reads' */
        uint64_t b = w ? s->write_bs_list[i - s->nbs] : s->bs_list[i];
        const double *wt = w ? s->write_bs_weights : s->bs_weights;
        if (!b) {
            *why = "a block size of 0 is not allowed";
            return -EINVAL;
        }
        if (b > *maxbs)
            *maxbs = b;
        if (wt && !(wt[w ? i - s->nbs : i] >= 0)) {
            *why = "block size weights must not be negative";
            return -EINVAL;
        }
    }
    if ((s->write_bs || s->write_nbs) && s->op != PL_JOB_MIX) {
        *why = "block sizes of the writes' own are for a mix job";
        return -EINVAL;
    }
    if ((s->write_bs || s->write_nbs) && (s->verify || s->external)) {
        *why = "block sizes of the writes' own do not go with verify or a generator";
        return -EINVAL;
    }
    if (!*maxbs || *maxbs > PL_IO_MAX) {
        *why = "block size must be within 1 byte..1 GiB";
        return -EINVAL;
    }
    if (s->op == PL_JOB_MIX && s->read_pct > 100) {
        *why = "read_pct must be within 0..100";
        return -EINVAL;
    }
    if (s->verify && check_verify(s, why) < 0)
        return -EINVAL;
    for (unsigned i = 0; i < s->nfiles; i++) {
        const struct pl_file *f = s->files[i];
        if (!f || f->fd < 0) {
            *why = "a file of the job is closed";
            return -EBADF;
        }
        if ((s->engine->flags & PL_ENGINE_FDS) && !(f->target->flags & PL_TARGET_FDS)) {
            *why = "this engine needs files with real descriptors, which the target in use "
                   "does not have (sync, psync and stdio work on every target)";
            return -EINVAL;
        }
        if (s->op != PL_JOB_READ && !f->writable && !s->external) {
            *why = "a write job needs files opened with write = true";
            return -EBADF;
        }
        if (!f->direct || s->external)
            continue;
        uint64_t a = s->pat.align ? s->pat.align : 0;
        int bad = (s->bs && s->bs % f->align) || (a && a % f->align) || s->pat.lo % f->align ||
                  (s->pat.hi && s->pat.hi % f->align) ||
                  (s->pat.kind == PL_PAT_STRIDE && s->pat.stride % f->align);
        for (unsigned k = 0; k < s->nbs; k++)
            bad |= s->bs_list[k] % f->align != 0;
        bad |= s->write_bs % f->align != 0;
        for (unsigned k = 0; k < s->write_nbs; k++)
            bad |= s->write_bs_list[k] % f->align != 0;
        if (s->pat.kind == PL_PAT_LIST)
            for (size_t k = 0; k < s->pat.nlist; k++)
                bad |= s->pat.list[k] % f->align != 0;
        if (bad) {
            *why = "O_DIRECT needs bs, offsets, range, align and stride in multiples of the "
                   "file's direct-I/O alignment";
            return -EINVAL;
        }
    }
    return 0;
}

static void free_loop(struct loop *l)
{
    if (l->e.ops && l->e.ops->cleanup)
        l->e.ops->cleanup(&l->e);
    if (l->e.bufs)
        for (unsigned i = 0; i < l->e.qd; i++)
            if (l->e.bufs[i]) {
                free(l->e.bufs[i]);
                pl_budget_give(l->e.buflen);
            }
    free(l->e.bufs);
    free(l->ios);
    free(l->done);
    free(l->free_slots);
    free(l->bs_cum);
    free(l->write_bs_cum);
}

/* the cumulative weights of a list of n block sizes (none for an empty list) */
static int cumulate(double **cum, unsigned n, const double *weights, const char **why)
{
    if (!n)
        return 0;
    *cum = calloc(n, sizeof **cum);
    if (!*cum)
        return -ENOMEM;
    double acc = 0;
    for (unsigned i = 0; i < n; i++) {
        acc += weights ? weights[i] : 1.0;
        (*cum)[i] = acc;
    }
    if (!(acc > 0)) {
        *why = "block size weights add up to 0";
        return -EINVAL;
    }
    return 0;
}

static int setup(struct loop *l, struct pl_job_spec *s, uint64_t maxbs, const char **why)
{
    unsigned qd = s->qd;
    size_t memalign = 4096;
    for (unsigned i = 0; i < s->nfiles; i++)
        if (s->files[i]->mem_align > memalign)
            memalign = s->files[i]->mem_align;
    uint64_t buflen = (maxbs + 4095) & ~(uint64_t)4095;
    l->e.ops = s->engine;
    l->e.files = s->files;
    l->e.nfiles = s->nfiles;
    l->e.qd = qd;
    l->e.buflen = buflen;
    l->e.batch_submit = s->batch_submit;
    l->e.bufs = calloc(qd, sizeof *l->e.bufs);
    l->ios = calloc(qd, sizeof *l->ios);
    l->done = calloc(qd, sizeof *l->done);
    l->free_slots = calloc(qd, sizeof *l->free_slots);
    if (!l->e.bufs || !l->ios || !l->done || !l->free_slots)
        return -ENOMEM;
    struct pl_rng fill;
    pl_rng_seed(&fill, s->seed ^ 0xf111f111ull);
    for (unsigned i = 0; i < qd; i++) {
        if (pl_budget_take(buflen)) {
            static char budget_why[256];
            *why = pl_budget_why("a buffer", budget_why, sizeof budget_why);
            return -ENOMEM;
        }
        if (posix_memalign(&l->e.bufs[i], memalign, buflen) != 0) {
            pl_budget_give(buflen);
            return -ENOMEM;
        }
        if (s->files[0]->fill == PL_FILL_RANDOM && s->compress_pct < 100) {
            uint64_t *w = l->e.bufs[i];
            for (uint64_t k = 0; k < buflen / 8; k++)
                w[k] = pl_rng_next(&fill);
        } else {
            memset(l->e.bufs[i], 0, buflen);
        }
        l->ios[i].slot = i;
        l->ios[i].buf = l->e.bufs[i];
        l->free_slots[qd - 1 - i] = i;
    }
    l->nfree = qd;
    int rc = cumulate(&l->bs_cum, s->nbs, s->bs_weights, why);
    if (rc == 0)
        rc = cumulate(&l->write_bs_cum, s->write_nbs, s->write_bs_weights, why);
    if (rc < 0)
        return rc;
    if (s->engine->init) {
        rc = s->engine->init(&l->e, why);
        if (rc < 0)
            return rc;
    }
    return 0;
}

struct pl_job {
    struct pl_job_spec s;
    struct loop l;
    struct pl_engine_ops on_target; /* the engine's form on a target's own queue */
};

int pl_job_open(struct pl_job **out, const struct pl_job_spec *spec, struct pl_job_result *r,
                const char **why)
{
    uint64_t maxbs = 0;
    *out = NULL;
    *why = NULL;
    memset(r, 0, sizeof *r);
    pl_stats_reset(&r->all);
    for (int i = 0; i < 3; i++)
        pl_stats_reset(&r->by_op[i]);
    pl_stats_reset(&r->slat[0]);
    pl_stats_reset(&r->slat[1]);
    pl_moments_reset(&r->io_bw[0]);
    pl_moments_reset(&r->io_bw[1]);
    struct pl_job *j = calloc(1, sizeof *j);
    if (!j)
        return -ENOMEM;
    struct pl_job_spec *s = &j->s;
    struct loop *l = &j->l;
    *s = *spec;
    /* a queued engine on a target without descriptors: through the target's queue */
    s->engine = pl_engine_for_target(&j->on_target, s->engine, s->files, s->nfiles);
    if (s->qd == 0)
        s->qd = 1;
    if (!s->bs && !s->nbs)
        s->bs = 4096;
    int rc = check_spec(s, &maxbs, why);
    if (rc < 0)
        goto fail;
    if (!s->external) {
        if (!s->pat.hi) {
            int64_t size = pl_file_size(s->files[0]);
            if (size < 0) {
                *why = "cannot get the size of the file";
                rc = (int)size;
                goto fail;
            }
            s->pat.hi = (uint64_t)size;
            /* a write job with a bytes rule may grow the file: its range is what it writes */
            if (s->op == PL_JOB_WRITE && s->bytes && s->pat.hi < s->pat.lo + s->bytes)
                s->pat.hi = s->pat.lo + s->bytes;
        }
        if (!s->pat.align)
            s->pat.align = s->nbs ? s->bs_list[0] : s->bs;
        rc = -EINVAL;
        if (s->pat.hi <= s->pat.lo) {
            *why = "the range is empty (is the file empty? give size= when opening it)";
            goto fail;
        }
        if (s->pat.hi - s->pat.lo < maxbs) {
            *why = "the range is smaller than the block size";
            goto fail;
        }
        s->pat.seed = s->seed;
        uint64_t len0 = s->nbs ? s->bs_list[0] : s->bs;
        uint64_t wlen0 = s->write_nbs ? s->write_bs_list[0] : s->write_bs;
        rc = pl_pattern_init(&l->pat, &s->pat, wlen0 > len0 ? wlen0 : len0, why);
        if (rc < 0)
            goto fail;
        rc = default_stop(l, s, s->pat.hi - s->pat.lo, why);
        if (rc < 0)
            goto fail;
        /* a virtual clock moves only with modelled I/O: a null engine's time limit never comes */
        if (pl_clock_virtual && strcmp(s->engine->name, "null") == 0 && !s->count && !s->bytes) {
            *why = "the null engine takes no time on a virtual clock (--sim): give count or bytes";
            rc = -EINVAL;
            goto fail;
        }
    }
    l->s = s;
    l->r = r;
    l->next_sample = UINT64_MAX;
    l->next_ss = UINT64_MAX;
    window_reset(&l->win);
    pl_rng_seed(&l->rng, s->seed ^ 0x0b5e55edull);
    pl_rng_seed(&l->vrng, s->seed ^ 0x7e51f1edull);
    l->vfill = s->op != PL_JOB_READ ? s->verify : PL_VFY_NONE;
    l->vcheck = s->op == PL_JOB_READ ? s->verify : PL_VFY_NONE;
    if (s->rate_iops > 0)
        l->period_ns = pl_u64_clamp(1e9 / s->rate_iops);
    l->poisson = s->rate_poisson && (s->rate_iops > 0 || s->rate_bps > 0);
    pl_rng_seed(&l->prng, s->seed ^ 0x9015503eull);
    rc = setup(l, s, maxbs, why);
    if (rc < 0) {
        if (!*why)
            *why = "cannot set up the engine";
        free_loop(l);
        goto fail;
    }
    l->sync = s->qd == 1 && (s->engine->flags & PL_ENGINE_SYNC);
    l->reap_max = s->reap_max && s->reap_max < s->qd ? s->reap_max : s->qd;
    l->reap_min = s->reap_min ? s->reap_min : 1;
    if (l->reap_min > s->qd)
        l->reap_min = s->qd;
    if (l->reap_max < l->reap_min) /* fio: max defaults to (and is at least) min */
        l->reap_max = l->reap_min;
    l->commits = (s->engine->flags & PL_ENGINE_COMMITS) != 0;
    l->queued_completes = (s->engine->flags & PL_ENGINE_NO_COMMIT) != 0;
    l->start = pl_clock_ns();
    l->last = l->start;
    if (s->seconds_ns)
        l->deadline = l->start + s->ramp_ns + s->seconds_ns;
    l->rate_check = UINT64_MAX;
    for (int d = 0; d < 2; d++)
        if (s->rate_min_bps[d] > 0 || s->rate_min_iops[d] > 0)
            l->rate_check = l->start + 2000000000u; /* fio's settle period */
    if (s->ss_dur && !s->ss_group) {
        rc = pl_steady_init(&r->steady, s->ss_flags, s->ss_limit, s->ss_dur);
        if (rc < 0) {
            *why = "no memory for the steady-state window";
            free_loop(l);
            goto fail;
        }
    }
    if (s->log && (rc = pl_iolog_open(&l->log, s->log)) < 0) {
        *why = "cannot set up the log files";
        free_loop(l);
        goto fail;
    }
    l->refill = !s->verify && (s->refill || (s->compress_pct > 0 && s->compress_pct < 100));
    pl_rng_seed(&l->dfill, s->seed ^ 0xd47af111ull);
    if (!s->ramp_ns)
        begin_measuring(l, l->start);
    *out = j;
    return 0;
fail:
    free(j);
    return rc;
}

PL_HOT int pl_job_step(struct pl_job *j, enum pl_op op, uint64_t off, uint64_t len,
                       uint64_t think_ns)
{
    struct loop *l = &j->l;
    uint64_t now = l->last; /* when the previous step ended: issue_sync reads the clock */
    if (now >= pl_progress_due)
        progress(l, now);
    maybe_ramp_end(l, now);
    if (should_stop(l, now))
        return 0;
    unsigned fi = l->s->nfiles > 1 ? (unsigned)(l->issued % l->s->nfiles) : 0;
    if ((unsigned)op > PL_OP_FSYNC || len > l->e.buflen ||
        (op != PL_OP_FSYNC && pl_file_check_align(l->s->files[fi], off, len) < 0)) {
        l->r->err = EINVAL;
        l->r->err_op = (unsigned)op > PL_OP_FSYNC ? PL_OP_READ : op;
        l->r->err_off = off;
        l->r->err_file = fi;
        stop(l, PL_STOP_GEN_ERROR);
        return -1;
    }
    struct pl_io req = {0};
    struct pl_io *io = l->sync ? &l->ios[0] : &req; /* the one slot, or a request */
    io->findex = fi;
    io->op = op;
    io->off = op == PL_OP_FSYNC ? 0 : off;
    io->len = op == PL_OP_FSYNC ? 0 : len;
    l->last = issue(l, io, think_ns ? think_ns : l->s->think_ns, 0);
    if (l->last >= l->rate_check)
        check_min_rate(l, l->last);
    /* stop rules are checked now, so the caller does not ask its generator for an I/O
       the job will not issue (the C loop checks them before calling it) */
    return !should_stop(l, l->last);
}

int pl_job_close(struct pl_job *j, int rc, const char **why)
{
    struct loop *l = &j->l;
    struct pl_job_result *r = l->r;
    drain(l); /* a stepped job at depth may still have I/O in flight */
    if (!rc)
        rc = l->engine_rc;
    if (!l->measuring)
        begin_measuring(l, pl_clock_ns());
    double u, sy;
    cpu_now(&u, &sy);
    r->all.user = u - l->user0;
    r->all.sys = sy - l->sys0;
    /* A job stopped by its time limit measured exactly its `seconds`: the I/Os due from
       the end of the ramp to the deadline. Ending the window at the last completion
       instead stretches it by however long the final I/Os waited: under a blkio throttle,
       which releases I/O once per 100 ms slice, up to 2% of a 5 s run. */
    if (r->stopped == PL_STOP_TIME && l->deadline) {
        r->all.t_end = l->deadline;
        for (int i = 0; i < 3; i++)
            r->by_op[i].t_end = l->deadline;
    }
    if (!r->all.t_end)
        r->all.t_end = pl_clock_ns();
    for (int i = 0; i < 3; i++)
        if (!r->by_op[i].t_end)
            r->by_op[i].t_end = r->all.t_end;
    if (l->next_sample <= r->all.t_end) /* full windows that no completion closed */
        windows_close(l, r->all.t_end);
    pl_series_finish(&r->series, r->all.t_end); /* the intervals to the end, the last partial */
    if (l->log && l->s->log_keep) {             /* a verify pass goes on with it */
        r->log = l->log;
        r->log_t0 = l->log_t0;
        l->log = NULL;
    } else if (l->log) {
        uint64_t end = r->all.t_end > l->log_t0 ? r->all.t_end - l->log_t0 : 0;
        int err = pl_iolog_close(l->log, end);
        if (!r->log_err)
            r->log_err = err;
        l->log = NULL;
    }
    if (l->s->ss_group) { /* the group's judging no longer waits for this member */
        pl_ssg_leave(l->s->ss_group, l->s->ss_member);
        if (pl_ssg_copy(l->s->ss_group, &r->steady) < 0 && !rc)
            rc = -ENOMEM;
    }
    if (r->stopped == PL_STOP_NONE)
        r->stopped = l->s->external ? PL_STOP_GEN_END : PL_STOP_COUNT;
    if (l->sync) { /* each I/O at depth 1, submitted and completed in one call (fio's 4=) */
        r->depths[0] += l->sync_meas;
        r->depth_rw += l->sync_rw;
        r->submit[1] += l->sync_meas;
        r->complete[1] += l->sync_meas;
    }
    r->steps = l->issued;
    r->range_hi = l->s->pat.hi;
    free_loop(l);
    free(j);
    if (rc < 0 && why)
        *why = "the engine failed";
    return rc < 0 ? rc : 0;
}

void pl_job_result_free(struct pl_job_result *r)
{
    pl_job_log_close(r);
    pl_steady_free(&r->steady);
    pl_series_free(&r->series);
    free(r->samples);
    r->samples = NULL;
    r->nsamples = 0;
    free(r->tl_t);
    free(r->tl_bytes);
    pl_budget_give(r->tl_cap * PL_TIMELINE_BYTES);
    r->tl_t = r->tl_bytes = NULL;
    r->tl_n = r->tl_cap = 0;
}

/* The verify pass: the write job's choices again, its writes read back and checked. */
static void run_replay(struct loop *l, uint64_t steps)
{
    struct pl_io req = {0};
    struct pl_io *io = l->sync ? &l->ios[0] : &req;
    unsigned nf = l->s->nfiles;
    uint64_t now = pl_clock_ns();
    for (uint64_t i = 0; i < steps; i++) {
        if (now >= pl_progress_due)
            progress(l, now);
        if (should_stop(l, now))
            break;
        uint64_t think;
        next_io(l, io, &think);
        io->findex = nf > 1 ? (unsigned)(i % nf) : 0; /* as the write pass chose it */
        if (io->op != PL_OP_WRITE) {
            now = pl_clock_ns();
            continue;
        }
        io->op = PL_OP_READ;
        now = issue(l, io, 0, 0);
    }
}

void pl_job_log_close(struct pl_job_result *r)
{
    if (!r->log)
        return;
    uint64_t end = r->all.t_end > r->log_t0 ? r->all.t_end - r->log_t0 : 0;
    int err = pl_iolog_close(r->log, end);
    if (!r->log_err)
        r->log_err = err;
    r->log = NULL;
}

int pl_job_verify_pass(const struct pl_job_spec *spec, struct pl_job_result *w,
                       struct pl_job_result *r, const char **why)
{
    struct pl_job_spec v = *spec;
    *why = NULL;
    if (!v.verify || v.op == PL_JOB_READ) {
        *why = "a verify pass follows a write or mix job with verify set";
        return -EINVAL;
    }
    /* fio invalidates the files first (posix_fadvise DONTNEED, strace shows, with no
       sync before it): clean pages go, written ones not yet on the device stay cached */
    for (unsigned i = 0; i < v.nfiles; i++) {
        struct pl_file *f = v.files[i];
        struct pl_error e = {0};
        if (f && f->fd >= 0 && (f->target->flags & PL_TARGET_FDS))
            (void)f->target->advise(f, PL_ADV_DONTNEED, 0, 0, &e);
    }
    v.pat.hi = w->range_hi; /* the range the writes ran over, whatever the file's size now */
    v.count = w->steps ? w->steps : 1;
    v.bytes = v.seconds_ns = v.ramp_ns = v.sample_ns = v.series_ns = v.fsync_every = v.think_ns = 0;
    v.invalidate_every = 0; /* the pass drops the cache once, before it starts */
    v.ss_dur = 0;
    v.rate_iops = v.rate_bps = 0;
    v.log = NULL; /* the write pass's log, if it kept one open, goes on below */
    v.log_keep = 0;
    struct pl_job *j;
    int rc = pl_job_open(&j, &v, r, why);
    if (rc < 0)
        return rc;
    if (w->log) { /* fio logs the verify's reads with the job's, on the job's time */
        j->l.log = w->log;
        j->l.log_t0 = w->log_t0;
        w->log = NULL;
    }
    j->l.vfill = PL_VFY_NONE;
    j->l.vcheck = v.verify;
    if (w->steps)
        run_replay(&j->l, w->steps);
    return pl_job_close(j, 0, why);
}

int pl_job_run(const struct pl_job_spec *spec, struct pl_job_result *r, const char **why)
{
    struct pl_job *j;
    int rc = pl_job_open(&j, spec, r, why);
    if (rc < 0)
        return rc;
    run_pattern(&j->l);
    return pl_job_close(j, rc, why);
}
