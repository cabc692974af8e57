/*
 * Targets: where the bytes live, as an ops table beside the engines (which
 * say how I/O is issued). "os" is the machine itself: files and devices
 * through system calls, its page cache and device facts (target_os.c). "sim"
 * is the simulated disk (sim.c), which drives the clock itself. "null" holds
 * no bytes and completes every I/O at once (target_null.c). Exactly one target
 * is in use per process; every open file keeps the one it was opened on.
 * Nothing outside a target's own file knows which one runs. No Lua.
 */
#ifndef PLATTER_CORE_TARGET_H
#define PLATTER_CORE_TARGET_H

#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "error.h"

struct pl_devinfo;
struct pl_file;
struct pl_open_opts;
struct pl_zone;

enum pl_op { PL_OP_READ = 0, PL_OP_WRITE = 1, PL_OP_FSYNC = 2 };
/* Their names, as results and p.run's `op` and generators spell them; NULL-terminated. */
extern const char *const pl_op_names[];

/* How a transfer finds its place in the file. */
enum pl_how {
    PL_AT_OFFSET = 0,  /* pread/pwrite at off; the position stays */
    PL_SEEK_FIRST = 1, /* seek to off, then read/write (the 1988 tests' pair of calls) */
    PL_AT_POS = 2,     /* read/write at the position, which advances (off unused) */
};

enum pl_target_flag {
    PL_TARGET_FDS = 1u << 0,     /* files have real descriptors: io_uring, mmap work */
    PL_TARGET_DIRS = 1u << 1,    /* has directories (mkdir, readdir, stat) */
    PL_TARGET_SERIAL = 1u << 2,  /* serves one request at a time: p.parallel workers
                                       run one after another, on the target's clock */
    PL_TARGET_VIRTUAL = 1u << 3, /* costs nothing real: long calls need no chunking */
};

/* what the advise op is told (posix_fadvise's advice) */
enum pl_advice {
    PL_ADV_NORMAL,
    PL_ADV_SEQUENTIAL,
    PL_ADV_RANDOM,
    PL_ADV_WILLNEED,
    PL_ADV_DONTNEED
};

/* A finished I/O of a target's own queue (queue/complete below): the caller's tag, and
   bytes moved or -errno. */
struct pl_target_done {
    void *tag;
    int64_t res;
};

struct pl_target_ops {
    const char *name;
    unsigned flags;
    /* without PL_TARGET_DIRS: the end of "mkdir: not available ..." */
    const char *no_dirs;
    /* fixed identity, so names such as Bonnie.<pid> repeat run after run (0 / NULL: real) */
    long pid;
    const char *hostname;

    /* Optional: take the variant named arg (a preset); 0 or -EINVAL. */
    int (*start)(const char *arg);
    /* Optional: print the variants, one per line. */
    void (*list)(FILE *out);

    /* Open path into f (already cleared; f->target set). 0 or -errno, or
       PL_FS_REFUSED with the reason in e->msg. Sets kind, direct, writable,
       align, mem_align, fd (a real descriptor or one on /dev/null), tdata. */
    int (*open)(struct pl_file *f, const char *path, const struct pl_open_opts *o,
                struct pl_error *e);
    /* Release the target's part of f (not the descriptor nor the buffer); 0 or -errno. */
    int (*close)(struct pl_file *f);
    int64_t (*size)(struct pl_file *f);

    /* One read or write of n bytes to/from buf; bytes moved or -errno. */
    int64_t (*rw)(struct pl_file *f, enum pl_op op, enum pl_how how, void *buf, uint64_t n,
                  uint64_t off);
    /* fsync (data_only: fdatasync); 0 or -errno. */
    int (*sync)(struct pl_file *f, int data_only);
    /*
     * n putc (op WRITE) or getc calls at the position through one stdio
     * stream per file. buf: the bytes to put / where got ones go; NULL puts a
     * repeating pattern and counts got bytes. at >= 0 first moves to at. Returns
     * the characters moved or -errno.
     */
    int64_t (*chars)(struct pl_file *f, enum pl_op op, unsigned char *buf, uint64_t n, int64_t at);
    /* Optional: hand what the stream buffers to the file (after a stdio job). 0 or -errno. */
    int (*flush)(struct pl_file *f);
    int64_t (*seek)(struct pl_file *f, int64_t off, int whence);
    int (*truncate)(struct pl_file *f, uint64_t size);

    /* The cache: as cache.h describes for the OS. Each 0/value or -errno (*e set). */
    int (*drop)(struct pl_file *f, struct pl_error *e);
    int (*resident)(struct pl_file *f, uint64_t off, uint64_t len, uint64_t *res, uint64_t *total,
                    struct pl_error *e);
    int64_t (*readahead)(struct pl_file *f, int64_t set_kb, struct pl_error *e);
    /* posix_fadvise over [off, off + len) (len 0: to the end); advice an enum pl_advice */
    int (*advise)(struct pl_file *f, int advice, uint64_t off, uint64_t len, struct pl_error *e);
    int (*drop_all)(struct pl_error *e); /* every cache of the host */
    void (*sync_all)(void);              /* sync(2) */

    /* Facts: the device behind f, and the host's RAM. */
    int (*info)(struct pl_file *f, struct pl_devinfo *d);
    uint64_t (*ram)(void);

    /* Names: remove a file; track a scratch file. Each 0 or -errno / PL_FS_REFUSED (why). */
    int (*remove)(const char *path, char *why, size_t n);
    int (*scratch)(const char *path, char *why, size_t n);
    /* Directories, with PL_TARGET_DIRS (else NULL). Each 0 or -errno / PL_FS_REFUSED (why);
       readdir calls fn for each name but . and .., in readdir(3)'s order, until fn returns
       non-zero (which it then returns). */
    int (*mkdir)(const char *path, unsigned mode, char *why, size_t n);
    int (*rmdir)(const char *path, char *why, size_t n);
    int (*stat)(const char *path, struct stat *st, char *why, size_t n);
    int (*readdir)(const char *path, int (*fn)(void *ud, const char *name), void *ud, char *why,
                   size_t n);

    /* With PL_TARGET_SERIAL: a worker that ran from the parent's clock ended at
       clock (ns) having used user/sys CPU seconds; the parent goes on from there. */
    void (*join)(uint64_t clock, double user, double sys);

    /* {== A device queue of the target's own (optional) ==
     * For a target whose files have no descriptors (no PL_TARGET_FDS): the queued
     * engines (io_uring, libaio) cannot reach it through the kernel, so a job at depth
     * on such a target runs through these instead. The engine is replaced once, when
     * the job is set up (pl_engine_for_target, engine.h): nothing changes per I/O on a
     * target with descriptors. owner is the job's engine (one queue serves every job;
     * each takes back only its own I/O); tag is the caller's name for the I/O.
     *   queue: take one I/O (op, off, len of f; data_only for an fsync; buf the data).
     *     1 when queued; 0 when the target did it in the call (*res set: bytes moved or
     *     -errno); or -errno of the queue itself.
     *   complete: hand over up to max of owner's finished I/Os, earliest first, first
     *     waiting on the target's clock until at least min have finished (fewer only
     *     when a signal cut the wait); the count, or -errno.
     *   next_done: when the first of owner's queued I/Os finishes (ns on the target's
     *     clock), 0 when none is queued; a rate-limited loop waits until then. */
    int (*queue)(void *owner, struct pl_file *f, enum pl_op op, uint64_t off, uint64_t len,
                 int data_only, void *buf, void *tag, int64_t *res);
    int (*complete)(void *owner, unsigned min, struct pl_target_done *out, unsigned max);
    uint64_t (*next_done)(void *owner);
    /* }== */
    /* Optional, zoned block devices (zone.h); without them f is not one (-ENOTTY).
       zones: at most max zones from the one holding byte `from` into z; how many
       (0 past the end) or -errno. zone_op: an enum pl_zone_op over the zones of
       [start, start + len) (len 0: the zone at start); 0 or -errno. *e set on error. */
    int (*zones)(struct pl_file *f, uint64_t from, struct pl_zone *z, unsigned max,
                 struct pl_error *e);
    int (*zone_op)(struct pl_file *f, int op, uint64_t start, uint64_t len, struct pl_error *e);
};

/* The target in use (the OS until pl_target_use chooses another). */
extern const struct pl_target_ops *pl_target;

/* Every target, NULL-terminated; the one called name, or NULL. */
extern const struct pl_target_ops *const pl_targets[];
const struct pl_target_ops *pl_target_find(const char *name);

/* Use target name (with its variant arg, may be NULL). 0, -ENOENT (no such
   target) or -EINVAL (no such variant). */
int pl_target_use(const char *name, const char *arg);

#endif
