/*
 * The "platter.stats" userdata of p.phase, p.run and p.parallel (l_stats.c):
 * a phase's counters, CPU times and histogram, started and stopped around
 * what it measures, and the hook a trusted module hears finished phases on.
 */
#ifndef PLATTER_BIND_L_STATS_H
#define PLATTER_BIND_L_STATS_H

#include <stdint.h>

#include "compat.h"
#include "engine.h"
#include "series.h"
#include "stats.h"

#define PL_STATS_MT "platter.stats"

struct pl_phase {
    struct pl_stats st;
    double ru_user0, ru_sys0; /* getrusage at start: self + children */
    int active;               /* in the recording list */
    int noprogress;           /* p.phase(..., {progress = false}): no progress line */
    int cache_intended;       /* p.phase(..., {cache = true}): measures the page cache */
    int ref;                  /* registry ref while active */
    int sub[3];      /* registry refs of the read/write/fsync stats of p.run, or LUA_NOREF */
    uint64_t shorts; /* p.run: transfers shorter than asked */
    int slat;        /* p.run with slat: registry ref of r.slat ({read=, write=}), or LUA_NOREF */
    int samples;     /* p.run with sample_ms: registry ref of r.samples, or LUA_NOREF */
    uint64_t samples_dropped; /* p.run: windows past the cap, not in r.samples */
    int steady;               /* p.run with steady: registry ref of r.steady, or LUA_NOREF */
    int io_bw, io_iops;       /* p.run with io_samples: refs of r.io_bw, r.io_iops, or LUA_NOREF */
    char name[64];
    char stopped[24]; /* p.run: why it ended ("count", "time", "error", ...) or "" */
    char error[200];  /* "pwrite x at offset 4096: No space left on device" or "" */
    int has_depths;   /* p.run: the fio depth figures below are set (r.depths, ...) */
    uint64_t depths[PL_DIST_NR], depth_rw, submit[PL_DIST_NR], complete[PL_DIST_NR];
    int has_verify;            /* p.run with verify: r.verify_errors is set */
    uint64_t verify_errors;    /* bad blocks read */
    char verify_error[300];    /* the first: "crc32c at offset 8192 of f: expected .., got .." */
    uint64_t *tl_t, *tl_bytes; /* p.run with timeline: each completion's time and bytes done
                                  by then (malloc'd, freed with the userdata) */
    size_t tl_n, tl_cap;       /* tl_cap: what the memory bound counts for them (budget.h) */
    int has_tl;                /* the timeline is kept (even if empty) */
    uint64_t tl_lost;          /* completions memory could not keep */
    int extra; /* registry ref of fields a trusted module attached (s.world), or LUA_NOREF */
    uint64_t interval_ns;     /* p.phase's interval (or --interval): keep a time series */
    struct pl_series *series; /* s.series: malloc'd, freed with the userdata; or NULL */
};

/*
 * The `interval` of p.phase's options or p.run's table at idx (who names it in errors):
 * a duration string ("100ms") or seconds; absent: --interval's (0 = no series); false:
 * none. At least a microsecond.
 */
uint64_t pl_interval_arg(lua_State *L, int idx, const char *who);

/* New stats userdata on the stack, reset, not started. */
struct pl_phase *pl_phase_new(lua_State *L, const char *name);
struct pl_phase *pl_checkphase(lua_State *L, int arg);
/* Tell the "phase_start" hook (p._hook) that the stats at arg are about to start
   (p.phase's and p.parallel's, before their clocks start). */
void pl_hook_phase_start(lua_State *L, int arg);
/* Start timing the phase at arg and make it record every timed call. */
void pl_phase_start(lua_State *L, int arg);
/* Stop it (idempotent). */
void pl_phase_stop(lua_State *L, struct pl_phase *ph);
/*
 * Tell the "phase" hook (set by a trusted module with p._hook) that the stats
 * at idx finished; kind is "phase", "run" or "parallel"; extra (0 = none) is
 * a stack index passed along (p.parallel's result table).
 */
void pl_hook_phase(lua_State *L, int idx, const char *kind, int extra);
/* The same under a pcall, for a phase or run an error or a Ctrl-C cut: whatever
   the hook raises is dropped, so the caller's own error goes on unchanged. */
void pl_hook_phase_protected(lua_State *L, int idx, const char *kind);
/*
 * After a Ctrl-C: stop every p.phase still recording (one started without a
 * function), innermost first, and tell the hook of each, as stopped =
 * "interrupted". A phase given a function was closed by p.phase already.
 */
void pl_phase_close_interrupted(lua_State *L);
/* The name of the last phase recorded as interrupted or ended by an error ("" if
   none): the outermost one cut, once the error has left them all. */
const char *pl_phase_cut_name(void);
/* A p.run that a Ctrl-C stopped is the phase cut too (its name, for a worker's result). */
void pl_phase_set_cut_name(const char *name);
/*
 * A phase or run that the error value at err ended: stopped = "error" and error =
 * its message (r.failed), or stopped = "exit" for p.exit's request. What it did
 * until then is then recorded as any result is (docs/api.md, p.phase).
 */
void pl_phase_set_ended(lua_State *L, int err, struct pl_phase *ph);

#endif
