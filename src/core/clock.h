/*
 * Monotonic clock for timing every operation, and its measured cost.
 * Uses nothing but clock_gettime(CLOCK_MONOTONIC); no Lua.
 */
#ifndef PLATTER_CORE_CLOCK_H
#define PLATTER_CORE_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Nanoseconds on the monotonic clock; cheap (vDSO), never goes back. */
static inline uint64_t pl_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

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
