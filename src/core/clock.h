/*
 * Monotonic clock for timing every operation, and its measured cost. Where
 * the CPU has an invariant TSC, readings come from rdtsc scaled by a factor
 * calibrated against CLOCK_MONOTONIC (about 2x cheaper here); elsewhere, or
 * with PLATTER_CLOCK=monotonic, from clock_gettime. The calibration does not
 * wait at start-up: readings come from clock_gettime until the TSC's rate is
 * known well enough (see pl_clock_init). No Lua.
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
    int tsc;       /* 1 when readings come from the TSC */
    int pending;   /* 1 while the TSC is being calibrated (readings: clock_gettime) */
    uint64_t tsc0; /* TSC at the reference point */
    uint64_t ns0;  /* CLOCK_MONOTONIC at the reference point */
    uint64_t mult; /* ns per tick, as a 32.32 fixed-point number */
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

/* A reading of CLOCK_MONOTONIC while the TSC is being calibrated; the first one
   late enough finishes the calibration (clock.c). */
uint64_t pl_clock_calibrating_ns(void);

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
    if (__builtin_expect(pl_clock_cal.pending, 0))
        return pl_clock_calibrating_ns();
#endif
    return pl_clock_mono_ns();
}

/*
 * Choose the clock: the TSC when the CPU has an invariant TSC (CPUID, or
 * constant_tsc and nonstop_tsc in /proc/cpuinfo) and PLATTER_CLOCK is not
 * "monotonic"; otherwise clock_gettime. It does not wait: it takes one
 * (TSC, CLOCK_MONOTONIC) pair, and pl_clock_ns goes on reading clock_gettime
 * until its first call at least 5 ms later, which takes a second pair and
 * switches to the TSC once the two pairs bound the TSC's rate to 10 ppm
 * (else it tries again after twice the time). Every reading is therefore
 * CLOCK_MONOTONIC itself or the TSC at a rate within 0.001% of it, and none
 * goes back at the switch. Call once before timing; until then (and in unit
 * tests that never call it) pl_clock_ns uses clock_gettime.
 */
void pl_clock_init(void);

/*
 * Finish a pending calibration now, sleeping for what is left of its window:
 * the rest of the first 5 ms of the process, or on a machine too noisy for
 * the first tries, up to the last one (640 ms). For callers that want the
 * final clock, such as the overhead measurement; no-op otherwise.
 */
void pl_clock_settle(void);

/* "tsc" or "clock_gettime": what pl_clock_ns reads (or will, once calibrated). */
const char *pl_clock_method(void);

/*
 * CPU seconds of this process plus its waited children (or the virtual
 * clock's account). The one definition of CPU time: a phase and a p.run job
 * both take the difference of two readings, so a job counts the CPU of the
 * workers it waited for too (a job waits for none).
 */
void pl_clock_cpu(double *user, double *sys);

/* The cost in ns of one pl_clock_ns() call (the least of 31 batches), measured once (after
   pl_clock_settle) and cached. */
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
