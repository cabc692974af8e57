/*
 * One-call I/O: f:pread, f:write, f:putc, f:fsync ... each is one engine
 * submission at queue depth 1 on the file's target (psync; stdio for the
 * per-character calls), timed at one point and counted by the one counting
 * function into every active phase. The Lua bindings and the LuaJIT FFI path
 * both call these; p.run is the same submission in a loop (job.c). No Lua.
 */
#ifndef PLATTER_CORE_IO_H
#define PLATTER_CORE_IO_H

#include <stdint.h>

#include "engine.h"
#include "file.h"
#include "series.h"
#include "stats.h"

/* The one counting function: a completed I/O into st (an error counts as one). */
__attribute__((always_inline)) static inline void pl_io_count(struct pl_stats *st,
                                                              const struct pl_io *io, uint64_t lat)
{
    if (io->res < 0)
        pl_stats_error(st, (int)-io->res);
    else
        pl_stats_record(st, (uint64_t)io->res, lat);
}

/* The active phases, which one-call I/O is counted into (p.phase nests them). */
#define PL_IO_MAX_PHASES 32
int pl_io_phase_add(struct pl_stats *st); /* 0, or -ENOSPC past PL_IO_MAX_PHASES */
void pl_io_phase_remove(struct pl_stats *st);
unsigned pl_io_phase_count(void); /* how many are active now */
/* Merge a finished job's or worker's stats into every active phase (their clocks and
   CPU accounts stay their own); a phase's series takes them all now (a worker's I/O,
   timed in another process). */
void pl_io_phase_absorb(const struct pl_stats *st);
/* The same for stats whose completions the series were fed one by one (p.run's, through
   pl_io_series_feed). */
void pl_io_phase_absorb_fed(const struct pl_stats *st);

/*
 * Time series of the active phases: sr (NULL: none) records the completions counted
 * into the phase st (p.phase's `interval`). pl_io_series_on is how many active phases
 * have one: the counting paths test it once (0 = off, and the only cost).
 */
void pl_io_phase_series(struct pl_stats *st, struct pl_series *sr);
extern unsigned pl_io_series_on;
/* A completion at clock time now, of latency lat, into the active phases' series. */
void pl_io_series_feed(const struct pl_io *io, uint64_t now, uint64_t lat);

/*
 * One read or write of len bytes on f: at off, seeking first, or at the
 * position (how). Writes take src (another buffer) or f's own buffer, reads
 * land in f's buffer. The caller has checked the call (pl_file_check_io).
 * Returns bytes moved or -errno; either way counted.
 */
int64_t pl_io_rw(struct pl_file *f, enum pl_op op, enum pl_how how, uint64_t off, uint64_t len,
                 const void *src);
/*
 * count read(2) or write(2) calls (op) of len bytes each at the position, one
 * after another in C, timed and counted as one operation of their total bytes
 * (bonnie++'s byte-at-a-time tests). Stops at a short transfer or an error,
 * and soon after a Ctrl-C. Bytes moved, or -errno when the first call failed.
 */
int64_t pl_io_repeat(struct pl_file *f, enum pl_op op, uint64_t count, uint64_t len);
/*
 * count rewrites of len bytes at the position (bonnie++'s Rewriting): each
 * reads len bytes into f's buffer, seeks back len bytes and writes them again.
 * Every read and write is timed and counted as its own operation, as f:read
 * and f:write count them; *longest is the longest rewrite (read to end of
 * write) in ns. Stops at a short read or write, an error or soon after a
 * Ctrl-C. Returns the bytes rewritten, or -errno when the first rewrite
 * failed, with *failed naming the call ("read", "seek" or "write").
 */
int64_t pl_io_rewrite(struct pl_file *f, uint64_t count, uint64_t len, uint64_t *longest,
                      const char **failed);
/* fsync or fdatasync, timed and counted (0 bytes). 0 or -errno. */
int pl_io_sync(struct pl_file *f, int data_only);
/*
 * n putc (op WRITE) or getc calls at the position, counted as one operation.
 * On a target with real cost they run in chunks so that the progress line can
 * show characters per second. Characters moved or -errno.
 */
int64_t pl_io_chars(struct pl_file *f, enum pl_op op, uint64_t n);

#endif
