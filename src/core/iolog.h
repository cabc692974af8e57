/*
 * fio's per-job log files (write_lat_log, write_bw_log, write_iops_log), made
 * in the job loop: each line "time, value, ddir, bs[, offset], prio" as fio
 * 3.33's iolog.c writes it, formatted into a buffer per log and written to
 * the log's descriptor whenever the buffer fills and at the end. The job
 * calls in only when p.run's `log` is set.
 *
 * avg_ms == 0: a line per I/O (fio's log_avg_msec=0): lat, clat and bw at
 * each completion, slat at each submission (when the job times it), iops
 * at each completion with the value 1; bw is bytes * 10^6 / clat in ns.
 *
 * avg_ms > 0: fio's averaged windows. lat, clat and slat: per direction, the
 * samples since the direction's window began; the first sample at or past
 * avg_ms after it closes the window (itself included) with a line stamped at
 * that sample's time, valued at the mean rounded half up (fio's
 * __add_stat_to_log), and the next window starts at the last multiple of
 * avg_ms; at the end a window with samples closes at the end time. bw and
 * iops: windows on a fixed grid of avg_ms from the start of measurement; a
 * window closes with a line per direction that moved data in it (KiB/s
 * rounded down, I/Os per second rounded down), stamped at its end; the last,
 * partial window is not logged (fio's helper thread logs whole periods only).
 * Averaged lines have bs 0 and offset 0. Times are whole ms since the start
 * of measurement (after the ramp), rounded down.
 */
#ifndef PLATTER_CORE_IOLOG_H
#define PLATTER_CORE_IOLOG_H

#include <stdint.h>

enum pl_log_kind { PL_LOG_LAT, PL_LOG_CLAT, PL_LOG_SLAT, PL_LOG_BW, PL_LOG_IOPS, PL_LOG_KINDS };

struct pl_log_spec {
    int fd[PL_LOG_KINDS]; /* -1: that log is not written */
    uint64_t avg_ms;      /* 0: a line per I/O */
    int offset;           /* fio's log_offset: the offset column */
};

struct pl_iolog;

/* A log set for one job; 0 or -errno (ENOMEM, EINVAL: no descriptor at all). */
int pl_iolog_open(struct pl_iolog **out, const struct pl_log_spec *s);
/* Whether the job must time each submission for it (a slat log). */
int pl_iolog_wants_slat(const struct pl_iolog *g);
/* A completion at t_ns since the start of measurement: dir 0 read, 1 write. */
void pl_iolog_done(struct pl_iolog *g, uint64_t t_ns, int dir, uint64_t bytes, uint64_t off,
                   uint64_t lat_ns, uint64_t clat_ns);
/* A submission's slat, at t_ns since the start of measurement. */
void pl_iolog_submitted(struct pl_iolog *g, uint64_t t_ns, int dir, uint64_t bytes, uint64_t off,
                        uint64_t slat_ns);
/* The end of the job at t_ns: the last windows, the buffers written, the set
   freed. 0, or the -errno of the first write that failed. */
int pl_iolog_close(struct pl_iolog *g, uint64_t t_ns);

#endif
