/*
 * Monotonic clock for timing every operation, and its measured cost. Where
 * the CPU has an invariant TSC, readings come from rdtsc scaled by a factor
 * calibrated against CLOCK_MONOTONIC at start-up (about 2x cheaper here);
 * elsewhere, or with PLATTER_CLOCK=monotonic, from clock_gettime. No Lua.
 */
#ifndef PLATTER_CORE_CLOCK_H
#define PLATTER_CORE_CLOCK_H

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define PL_HAVE_TSC 1
#else
#define PL_HAVE_TSC 0
#endif

/* Nanoseconds of CLOCK_MONOTONIC through clock_gettime (vDSO). */
static inline uint64_t pl_clock_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Calibration of the TSC against CLOCK_MONOTONIC (see pl_clock_init). */
struct pl_clock_cal {
    int tsc;            /* 1 when readings come from the TSC */
    uint64_t tsc0;      /* TSC at the reference point */
    uint64_t ns0;       /* CLOCK_MONOTONIC at the reference point */
    uint64_t mult;      /* ns per tick, as a 32.32 fixed-point number */
};
extern struct pl_clock_cal pl_clock_cal;

/*
 * A virtual clock, set by a target that models time itself (target.h): its
 * readings, its sleeps (time passes at once) and its CPU account replace the
 * real ones while it is set.
 */
struct pl_clock_source {
    const char *name;                       /* what pl_clock_method says */
    const uint64_t *now;                    /* the reading, ns */
    void (*advance)(uint64_t ns);           /* a sleep of ns */
    void (*cpu)(double *user, double *sys); /* as pl_clock_cpu */
};
extern const struct pl_clock_source *pl_clock_virtual;

/* Use src (NULL: the real clock again). */
void pl_clock_set_source(const struct pl_clock_source *src);

/* Nanoseconds on the monotonic clock (or the virtual one); never goes back. */
static inline uint64_t pl_clock_ns(void)
{
    if (__builtin_expect(pl_clock_virtual != NULL, 0))
        return *pl_clock_virtual->now;
#if PL_HAVE_TSC
    if (pl_clock_cal.tsc) {
        uint64_t d = __rdtsc() - pl_clock_cal.tsc0;
        return pl_clock_cal.ns0 + (uint64_t)(((unsigned __int128)d * pl_clock_cal.mult) >> 32);
    }
#endif
    return pl_clock_mono_ns();
}

/*
 * Choose the clock: the TSC when /proc/cpuinfo shows constant_tsc and
 * nonstop_tsc (and PLATTER_CLOCK is not "monotonic"), calibrated over ~2 ms;
 * otherwise clock_gettime. Call once before timing; until then (and in unit
 * tests that never call it) pl_clock_ns uses clock_gettime.
 */
void pl_clock_init(void);

/* "tsc" or "clock_gettime": what pl_clock_ns reads. */
const char *pl_clock_method(void);

/*
 * CPU seconds of this process plus its waited children (or the virtual
 * clock's account). The one definition of CPU time: a phase and a p.run job
 * both take the difference of two readings, so a job counts the CPU of the
 * workers it waited for too (a job waits for none).
 */
void pl_clock_cpu(double *user, double *sys);

/* Median cost in ns of one pl_clock_ns() call, measured once and cached. */
double pl_clock_overhead_ns(void);

/*
 * Name of the kernel clocksource ("tsc", "kvm-clock", ...) or "unknown";
 * read from sysfs on the first call, then cached (static storage).
 */
const char *pl_clock_source(void);

/*
 * Sleep for ns nanoseconds to an absolute monotonic deadline (resumes after
 * signals unless stop is non-NULL and *stop is set).
 */
void pl_clock_sleep_ns(uint64_t ns, volatile int *stop);

#endif
