/*
 * The progress line: on a terminal, a phase or run that lasts longer than a
 * second shows one line on stderr (name, percent or elapsed time, current
 * rate, the last interval of its time series if it keeps one, ETA), rewritten in place a few times a second and erased when it
 * ends. Nothing is printed unless pl_progress_init enabled it, and only on
 * an empty line (out.h): while a workload's text is on the line the report is
 * kept and drawn after the workload's next newline.
 *
 * Costs nothing measurable per I/O: the hot loop compares the clock reading
 * it already has against pl_progress_due (UINT64_MAX while nothing is due or
 * progress is off); one-call-at-a-time phases decrement pl_progress_countdown
 * (0 = off) and read the clock only when it reaches zero, with a batch that
 * adapts so the clock is read every ~20-200 ms. No Lua.
 */
#ifndef PLATTER_CORE_PROGRESS_H
#define PLATTER_CORE_PROGRESS_H

#include <stdint.h>

#include "series.h"
#include "stats.h"

/* Clock time (pl_clock_ns) of the next report; UINT64_MAX = none due. */
extern uint64_t pl_progress_due;
/* One-call-at-a-time phases: records left until the next clock check; 0 = off. */
extern uint32_t pl_progress_countdown;

/* Turn the line on (stderr is a terminal and not --quiet) or off. Once per process. */
void pl_progress_init(int enabled);

/*
 * A phase or run begins: key identifies it for pl_progress_end; st (may be
 * NULL) is read at each report when the caller does not pass its own stats.
 * Nested frames stack; the innermost one is shown. hide: the workload prints
 * its own live output during it, so no line is drawn (nor for frames inside).
 */
void pl_progress_begin(const void *key, const char *name, const struct pl_stats *st, int hide);
/*
 * The frame of key keeps the time series sr (NULL: none): its reports show the
 * last closed interval's MB/s and p99 beside the rates. A frame without one
 * shows the series of the nearest frame around it that has one. sr must stay
 * valid until pl_progress_end(key); it is only read.
 */
void pl_progress_series(const void *key, const struct pl_series *sr);
/* It ended: erase the line if shown; drops this frame and any above it (no-op if absent). */
void pl_progress_end(const void *key);
/* pl_progress_countdown reached 0: read the clock, report when due, set the next batch. */
void pl_progress_poll(void);
/*
 * Report the innermost frame now (call when now >= pl_progress_due): st are
 * its counters (NULL = the frame's own), frac its completed fraction (< 0
 * when unknown).
 */
void pl_progress_report(uint64_t now, const struct pl_stats *st, double frac);
/* Erase the line if it is showing (before other output, and at exit). */
void pl_progress_clear(void);
/*
 * The workload's own count for the innermost frame: done units so far, of
 * total (0 = unknown; it gives the percentage and ETA). unit 'B' (bytes,
 * shown as MB/s) or 'c' (characters, shown as chars/s); from then on the line
 * shows that instead of the frame's IOPS and MB/s. Reads the clock and reports
 * when due.
 */
void pl_progress_count(char unit, uint64_t done, uint64_t total);
/* n more units (the same unit keeps the count and total; another starts afresh). */
void pl_progress_add(char unit, uint64_t n);
/* Draw the latest report again if there is one and the line is empty (out.c, after a newline). */
void pl_progress_redraw(void);

#endif
