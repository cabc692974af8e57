/*
 * I/O engines as an ops table (fio's shape): how I/O is issued. "sync"
 * (seek + read/write), "psync" (pread/pwrite), "stdio" (per-character
 * putc/getc) and "null" (no I/O at all: platter's own cost) work on any
 * target (target.h), through its ops; "mmap", "io_uring" and "libaio" need a
 * target whose files have real descriptors. On a target without them that has
 * a device queue of its own (target.h's queue and complete),
 * io_uring and libaio run at depth through that queue instead: the job swaps
 * the engine's ops for a form that calls the target (pl_engine_for_target,
 * engine_queue.c) once, at set-up, so the OS path is the engine itself with
 * no test per I/O. The job loop
 * (job.c) alone timestamps and records, so every engine is measured the same
 * way; engines only move data. A one-call f:pread is a psync submission at
 * queue depth 1 (io.h).
 */
#ifndef PLATTER_CORE_ENGINE_H
#define PLATTER_CORE_ENGINE_H

#include <stdint.h>

#include "file.h"
#include "target.h"

/* What submit says happened. Negative values are -errno of the engine itself. */
enum { PL_Q_DONE = 0, PL_Q_QUEUED = 1, PL_Q_BUSY = 2 };

#define PL_ENGINE_SYNC 1u /* submit completes the I/O before returning */
#define PL_ENGINE_FDS 2u  /* needs real descriptors (a target with PL_TARGET_FDS) */
/* hands I/O to the kernel in calls of its own (io_submit, io_uring_enter) and counts
   each call with pl_engine_mark_submit; for the other engines every submit is one call */
#define PL_ENGINE_COMMITS 4u
/* queues each I/O in its submit call, with no commit step (fio's posixaio): fio counts
   such a queued I/O as a completion call of one I/O too, besides what its reaps return,
   and so does the job loop */
#define PL_ENGINE_NO_COMMIT 8u

/* fio's I/O count buckets (its io_u_submit / io_u_complete maps): the I/Os one submit
   or reap call moved, 0, 1..4, 5..8, 9..16, 17..32, 33..64, more. */
#define PL_DIST_NR 7
static inline unsigned pl_dist_index(unsigned n)
{
    return n == 0 ? 0 : n <= 4 ? 1 : n <= 8 ? 2 : n <= 16 ? 3 : n <= 32 ? 4 : n <= 64 ? 5 : 6;
}
/* fio's depth buckets (its io_u_map): I/Os in flight 1, 2..3, 4..7, 8..15, 16..31,
   32..63, 64 and more (0 counts as 1). */
static inline unsigned pl_depth_index(unsigned d)
{
    return d < 2 ? 0 : d < 4 ? 1 : d < 8 ? 2 : d < 16 ? 3 : d < 32 ? 4 : d < 64 ? 5 : 6;
}

struct pl_io {
    enum pl_op op;
    unsigned findex; /* which of the job's files */
    uint64_t off;
    uint64_t len;
    enum pl_how how; /* psync: where (PL_AT_OFFSET for every job I/O) */
    int data_only;   /* PL_OP_FSYNC: fdatasync (sync engines) */
    void *buf;       /* len bytes, aligned for O_DIRECT; stdio: NULL = a pattern */
    uint64_t t_due;  /* ns: when it was issued, or due under a rate limit */
    int64_t res;     /* bytes moved, or -errno */
    unsigned slot;   /* index in the job's io array */
    uint64_t t_sub;  /* ns: when the submit call returned (at depth, with slat or a log) */
};

struct pl_engine {
    const struct pl_engine_ops *ops;
    void *data; /* the engine's own state */
    struct pl_file **files;
    unsigned nfiles;
    unsigned qd; /* queue depth (1 for sync engines) */
    void **bufs; /* qd buffers of buflen bytes, owned by the job */
    uint64_t buflen;
    unsigned batch_submit; /* io_uring, libaio: submit after this many queued (0 = the
                              default, 1) */
    uint64_t *submit_map;  /* NULL, or where a PL_ENGINE_COMMITS engine counts its submit
                              calls (PL_DIST_NR buckets; the job's, while it measures) */
};

/* A PL_ENGINE_COMMITS engine's call that handed n I/Os to the kernel. */
static inline void pl_engine_mark_submit(struct pl_engine *e, unsigned n)
{
    if (e->submit_map)
        e->submit_map[pl_dist_index(n)]++;
}

/* The io_uring engine's settings for one job (p.run's iopoll, sqpoll, sqpoll_idle_ms),
   handed over as the opts of a copy of its ops (pl_engine_with). */
struct pl_uring_opts {
    int iopoll;          /* IORING_SETUP_IOPOLL: busy-poll the device for completions
                               (O_DIRECT on a device with poll queues only) */
    int sqpoll;          /* IORING_SETUP_SQPOLL: a kernel thread takes the submissions */
    unsigned sq_idle_ms; /* how long that thread spins without work before it sleeps
                               (0: the kernel's default, 1 s) */
};

struct pl_engine_ops {
    const char *name;
    unsigned flags;
    /* Optional: prepare (map files, set up rings). 0 or -errno; *why may name the problem. */
    int (*init)(struct pl_engine *e, const char **why);
    /* Required: start (or do) one I/O. PL_Q_DONE (io->res set), PL_Q_QUEUED, PL_Q_BUSY or -errno. */
    int (*submit)(struct pl_engine *e, struct pl_io *io);
    /* Required unless SYNC: push what is still queued, wait for at least min
       completions (in one call where the kernel allows), store up to max in out. */
    int (*reap)(struct pl_engine *e, unsigned min, struct pl_io **out, unsigned max);
    void (*cleanup)(struct pl_engine *e);
    /* Optional, for a SYNC engine: its variant for qd > 1 (same name, not SYNC),
       which pl_engine_for_qd picks. The null engine has one. */
    const struct pl_engine_ops *queued;
    /* Optional: the engine's own settings for a job (struct pl_uring_opts for
       io_uring), read by init; NULL in the registered tables (the defaults). */
    const void *opts;
    /* Optional (a target's queue on a virtual clock): when the first I/O in flight
       completes, ns, 0 if none. A loop waiting for a rate limit's due time then
       sleeps until that completion instead of polling every 20 us, so its latency
       is exact; only the waiting path looks at it. */
    uint64_t (*next_done)(struct pl_engine *e);
};

/* The engine called name, or NULL. */
const struct pl_engine_ops *pl_engine_find(const char *name);
/* Every registered engine, NULL-terminated. */
extern const struct pl_engine_ops *const pl_engines[];
/* 0 if ops keep the contract (submit; reap unless SYNC; a queued variant that keeps it
   too, under the same name and not SYNC), else -EINVAL. */
int pl_engine_check(const struct pl_engine_ops *ops);
/* The form of ops that runs at queue depth qd: its queued variant above qd 1 if it
   has one, else ops itself. */
const struct pl_engine_ops *pl_engine_for_qd(const struct pl_engine_ops *ops, unsigned qd);
/* The form of ops that runs on the files' target: ops itself, except for a queued
   engine that needs descriptors (PL_ENGINE_FDS, not SYNC) on a target without them
   that has a device queue (target.h): then *copy becomes an engine of the same name
   that hands each I/O to the target's queue (engine_queue.c), and is returned. Its
   opts (io_uring's iopoll, sqpoll) mean nothing there and are not used. */
const struct pl_engine_ops *pl_engine_for_target(struct pl_engine_ops *copy,
                                                 const struct pl_engine_ops *ops,
                                                 struct pl_file *const *files, unsigned nfiles);
/* ops with settings: *copy becomes ops with opts set, and is returned. A job runs it as
   it runs ops; copy and opts must outlive the job. */
const struct pl_engine_ops *pl_engine_with(struct pl_engine_ops *copy,
                                           const struct pl_engine_ops *ops, const void *opts);

#endif
