/*
 * A job: the hot loop that runs pattern x engine x stop rule in C and
 * records every completion into stats. Lua plans a job (p.run{...}); only an
 * optional generator callback brings the interpreter into the loop.
 */
#ifndef PLATTER_CORE_JOB_H
#define PLATTER_CORE_JOB_H

#include <signal.h>
#include <stdint.h>

#include "budget.h"
#include "engine.h"
#include "iolog.h"
#include "pattern.h"
#include "series.h"
#include "stats.h"
#include "steady.h"
#include "verify.h"

enum pl_job_op { PL_JOB_READ, PL_JOB_WRITE, PL_JOB_MIX };

enum pl_job_stop {
    PL_STOP_NONE,
    PL_STOP_COUNT,
    PL_STOP_BYTES,
    PL_STOP_TIME,
    PL_STOP_ERROR,
    PL_STOP_INTERRUPT,
    PL_STOP_GEN_END,
    PL_STOP_GEN_ERROR,
    PL_STOP_RATE_MIN,
    PL_STOP_VERIFY, /* verify_fatal: a block read back was bad */
    PL_STOP_STEADY, /* fio's steady state was reached (ss_dur) */
};

/* The deepest queue a job may keep. */
#define PL_MAX_QD 4096

struct pl_job_spec {
    struct pl_file **files; /* round-robin over nfiles */
    unsigned nfiles;
    enum pl_job_op op;
    unsigned read_pct;        /* MIX: percentage of reads */
    uint64_t bs;              /* block size (when nbs == 0) */
    const uint64_t *bs_list;  /* optional sizes, picked by weight */
    const double *bs_weights; /* NULL = equal weights */
    unsigned nbs;
    /* MIX: the writes' own sizes (fio's bs=R,W and bssplit=...,...); with neither
       write_bs nor write_nbs set the writes take bs / bs_list as the reads do */
    uint64_t write_bs;
    const uint64_t *write_bs_list;
    const double *write_bs_weights;
    unsigned write_nbs;
    struct pl_pattern_spec pat;        /* hi == 0: the size of the first file */
    uint64_t count, bytes, seconds_ns; /* stop rules; 0 = unused */
    uint64_t ramp_ns;                  /* excluded from the stats */
    uint64_t invalidate_every;         /* drop the files' cached pages after each this many
                                          bytes issued (0: never); pattern jobs */
    int fsync_data;                    /* fsync_every syncs with fdatasync (fio's fdatasync=N) */
    int lat_from_issue;                /* under a rate limit, latency from the issue (fio), not
                                          from the due time */
    int slat;                          /* time each submission (fio's slat) into r->slat */
    uint64_t sample_ns;                /* windowed samples of this length (0 = none) */
    int timeline;                      /* keep each completion's time and bytes (r->tl_*) */
    uint64_t series_ns;                /* a time series of this interval (r->series; 0 = none) */
    int io_samples;                    /* the moments of each measured I/O's bandwidth in
                                          r->io_bw: fio's per-I/O bw sample, its bytes
                                          * 10^6 / its clat in ns */
    uint64_t fsync_every;              /* fsync after every N writes */
    double rate_iops, rate_bps;        /* open-loop rate; 0 = as fast as possible */
    int rate_poisson;                  /* under a rate: exponential gaps between due times (fio's
                                          rate_process=poisson), drawn from the seed; else even */
    uint64_t think_ns;                 /* pause after each I/O (closed loop) */
    const struct pl_engine_ops *engine;
    unsigned qd;           /* 1..PL_MAX_QD */
    unsigned batch_submit; /* 0 = engine default */
    /*
     * Reaping at depth (fio's iodepth_batch_complete_min/max): a full queue waits
     * for at least reap_min completions (0 = 1) and every reap takes at most
     * reap_max (0 = qd: all there are). fio's default is 1 and 1.
     */
    unsigned reap_min, reap_max;
    /*
     * fio's rate_min / rate_iops_min, per direction ([0] read, [1] write; 0 = none):
     * after the first 2 s of the job (ramp included; not checked during the ramp),
     * every rate_cycle_ns (0 = fio's 1 s) the direction's completed bytes (or I/Os)
     * since the previous check, per whole millisecond elapsed, must reach it; else
     * the job stops (PL_STOP_RATE_MIN) with err EIO.
     */
    double rate_min_bps[2], rate_min_iops[2];
    uint64_t rate_cycle_ns;
    /*
     * fio's steady state (steady.h; ss_dur 0 = off): every second of measured time
     * (from the end of the ramp) is a sample of the reads and writes completed in it
     * (IOPS and bytes/s); a second is judged when the first completion at or past its
     * end arrives. With ss_ramp_ns, the seconds that end before ss_ramp_ns + 1 s are
     * not samples (fio's rule). Once ss_dur samples fill the window, each new one is
     * judged by ss_flags and ss_limit; reaching steady state stops the job
     * (PL_STOP_STEADY). r->steady holds the window and the criterion.
     */
    unsigned ss_flags, ss_dur;
    double ss_limit;
    uint64_t ss_ramp_ns;
    /* with ss_group (same criteria), the job is member ss_member of a group judged
       as one (steady.h): its seconds are on the group's grid, summed with the others' */
    struct pl_steady_group *ss_group;
    unsigned ss_member;
    /* live: where each completed read and write is also counted as it happens (a slot of
       memory shared with the process that forked the job, which reads it while it runs) */
    struct pl_live_slot *live;
    uint64_t seed;
    int stop_on_error;
    /* verify (verify.h): a write job writes verified blocks, a read job checks every
       block it reads; verify_fatal stops the job at the first bad one. Needs blocks
       of at least PL_VFY_HDR bytes, a target that keeps data and not the null engine. */
    enum pl_vfy_kind verify;
    int verify_fatal;
    /* fio's log files (iolog.h): NULL = none; the loop then pays one test per I/O */
    const struct pl_log_spec *log;
    int log_keep; /* with log: leave the log open at the end (r->log) for a verify pass */
    /* write buffers: refill = new random data before every write (fio's refill_buffers);
       compress_pct 1..99 = each compress_chunk (0: 512) bytes of it that share zeros
       after the random bytes (fio's buffer_compress_percentage, which refills); 100 =
       all zeros, once. Not with verify (which makes the blocks itself). */
    int refill;
    unsigned compress_pct;
    uint64_t compress_chunk;
    int external;                /* the caller chooses every I/O (pl_job_step): no pattern */
    volatile sig_atomic_t *stop; /* checked between I/Os */
};

/*
 * One window of sample_ns (p.run's sample_ms): what completed in
 * [t_ns - sample_ns, t_ns) of measured time, by direction ([0] read, [1]
 * write; fsyncs are not in it). lat_min is 0 for a direction without ops.
 */
struct pl_sample {
    uint64_t t_ns; /* end of the window, from the start of measurement */
    uint64_t bytes[2], ops[2], lat_sum[2], lat_min[2], lat_max[2];
};
#define PL_SAMPLES_MAX (1u << 18) /* windows kept; later ones are counted, not kept */

#define PL_TIMELINE_BYTES (2 * sizeof(uint64_t)) /* a timeline entry: time and bytes */

struct pl_job_result {
    struct pl_stats all;
    struct pl_stats by_op[3];   /* read, write, fsync */
    struct pl_stats slat[2];    /* with spec slat: queued to the submit call's return, read/write */
    uint64_t shorts;            /* transfers shorter than asked */
    struct pl_moments io_bw[2]; /* spec io_samples: the per-I/O bandwidths, read/write */
    enum pl_job_stop stopped;
    int err; /* first errno that ended (or occurred in) the job */
    enum pl_op err_op;
    uint64_t err_off;
    unsigned err_file;
    /* fio's I/O depth figures, counted while measuring (fio resets them after its ramp):
       depths: I/Os (fsyncs too) by how many were in flight when each was submitted,
       itself included, in pl_depth_index's buckets; depth_rw: reads and writes submitted
       (fio's denominator for them: its fsyncs are in the buckets, not in the total);
       submit, complete: submit and reap calls by the I/Os each moved (pl_dist_index) */
    uint64_t depths[PL_DIST_NR], depth_rw;
    uint64_t submit[PL_DIST_NR], complete[PL_DIST_NR];
    struct pl_sample *samples; /* malloc'd (pl_job_result_free), nsamples of them */
    size_t nsamples;
    uint64_t samples_dropped; /* windows past PL_SAMPLES_MAX, or lost to memory */
    /* PL_STOP_RATE_MIN: the direction (0 read, 1 write), whether iops (else bytes/s),
       the minimum and the rate found (fio's integers) */
    int rate_min_dir, rate_min_iops;
    uint64_t rate_min_want, rate_min_got;
    uint64_t steps;           /* I/Os the job chose (ramp included): a verify pass replays them */
    uint64_t range_hi;        /* the end of the range the pattern ran over */
    uint64_t verify_errors;   /* bad blocks read (spec verify on a read, or a verify pass) */
    struct pl_vfy_fail vfail; /* the first of them */
    unsigned vfail_file;
    struct pl_steady steady; /* spec ss_dur: the window and criterion (pl_job_result_free) */
    int log_err;             /* spec log: the -errno of the first log write that failed, else 0 */
    /* spec log_keep: the log left open at the job's end for its verify pass to go on
       writing (fio logs a verify's reads with the job's), and the time its lines count
       from; pl_job_verify_pass takes it over, pl_job_log_close closes what is left */
    struct pl_iolog *log;
    uint64_t log_t0;
    /* spec timeline: for each measured completion in order, its time (the job's clock,
       ns) and the bytes done by then (all completions, this one included); malloc'd
       (pl_job_result_free), tl_n of them, room for tl_cap, which the memory bound
       counts (budget.h: tl_cap * PL_TIMELINE_BYTES, given back where they are freed);
       tl_lost counts those memory could not keep */
    uint64_t *tl_t, *tl_bytes;
    size_t tl_n, tl_cap;
    uint64_t tl_lost;
    /* spec series_ns: the time series of the measured completions, from the start of
       measurement to the end of the measured time (pl_job_result_free) */
    struct pl_series series;
};

/* Running counts of one job that another process can read (p.live): reads, writes. */
struct pl_live_slot {
    uint64_t ops[2], bytes[2];
    int64_t mark; /* the script's own state code for the job */
    uint64_t pad[3];
};

/* Free what a result owns beyond itself (its samples, its steady-state window); the
   result stays valid, empty of them. */
void pl_job_result_free(struct pl_job_result *r);

/*
 * Samples (sample_ns): windows on a fixed grid from the start of measurement
 * (after the ramp). A completion at or past the end of the open window closes
 * it (and any empty ones it skipped) before it is counted into the next: one
 * compare per completion. At the end of the job, windows that ended by the
 * end of the measured time (the deadline of a time-limited job, else the last
 * completion) are closed; the one still open is partial and is not a sample
 * (fio's rule: a partial last window is never a bw/iops sample).
 */

/*
 * Run the job (a pattern job: not external); fills *r (which may be large:
 * allocate it). Returns 0 when the job ran (even if I/O failed: see
 * r->stopped and r->err), or -errno when it could not start, with a static
 * reason in *why. The loop chooses each I/O from the pattern and issues it
 * exactly as pl_job_step does: one driver.
 */
int pl_job_run(const struct pl_job_spec *s, struct pl_job_result *r, const char **why);

/*
 * The same job one I/O at a time, for a caller that chooses each I/O itself
 * (p.run's `gen`, driven from Lua). pl_job_open checks and prepares (returns
 * 0 or -errno with *why); pl_job_step issues one I/O (op, off, len as a
 * generator returns them; think_ns 0 for the job's own) and returns 1 to go
 * on, 0 when a stop rule, an interrupt, the error policy or an engine failure
 * ended the job, -1 for an invalid I/O (an op out of range, longer than the
 * job's buffer, misaligned for O_DIRECT); at queue depth > 1 it keeps up to qd
 * I/Os in flight and reaps as the queue fills. pl_job_close waits for what is
 * in flight, finishes *r, frees the job and returns 0 or the engine's -errno.
 */
struct pl_job;
int pl_job_open(struct pl_job **j, const struct pl_job_spec *s, struct pl_job_result *r,
                const char **why);
int pl_job_step(struct pl_job *j, enum pl_op op, uint64_t off, uint64_t len, uint64_t think_ns);
int pl_job_close(struct pl_job *j, int rc, const char **why);

/* Close a log a job kept open (spec log_keep) and no verify pass took over: its
   lines end at the job's end. Safe to repeat. */
void pl_job_log_close(struct pl_job_result *r);
/*
 * fio's do_verify: after a write (or mix) job of spec s with verify set ran
 * into *w, fsync and drop the cache of its files (when the target has real
 * descriptors), then replay the job's choices from its seed and read back
 * every block it wrote, checking each (spec verify, verify_fatal). Reads only,
 * at the job's engine and depth, without its ramp, rate, think time, fsyncs
 * or samples. Fills *r as pl_job_run does (its reads in by_op[PL_OP_READ]);
 * a log the job kept open (w->log, spec log_keep) takes the pass's reads on the
 * job's time and is closed at the pass's end (r->log_err). 0, or -errno with *why.
 */
int pl_job_verify_pass(const struct pl_job_spec *s, struct pl_job_result *w,
                       struct pl_job_result *r, const char **why);

const char *pl_job_stop_name(enum pl_job_stop s);

#endif
