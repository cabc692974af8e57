/*
 * What the monotonic clock costs and where it comes from: the median price
 * of one pl_clock_ns() call, the kernel clocksource name, and an interruptible
 * sleep to an absolute deadline.
 */
#include "clock.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OVERHEAD_BATCHES 31
#define OVERHEAD_CALLS   1000
#define CLOCKSOURCE_PATH "/sys/devices/system/clocksource/clocksource0/current_clocksource"

static pthread_once_t overhead_once = PTHREAD_ONCE_INIT;
static double overhead_ns;

static pthread_once_t source_once = PTHREAD_ONCE_INIT;
static char source_name[64];

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void measure_overhead(void)
{
    double per_call[OVERHEAD_BATCHES];
    volatile uint64_t sink = 0;

    for (int b = 0; b < OVERHEAD_BATCHES; b++) {
        uint64_t t0 = pl_clock_ns();
        for (int i = 0; i < OVERHEAD_CALLS; i++)
            sink += pl_clock_ns();
        uint64_t t1 = pl_clock_ns();
        per_call[b] = (double)(t1 - t0) / OVERHEAD_CALLS;
    }
    (void)sink;
    qsort(per_call, OVERHEAD_BATCHES, sizeof(per_call[0]), cmp_double);
    overhead_ns = per_call[OVERHEAD_BATCHES / 2];
}

double pl_clock_overhead_ns(void)
{
    pthread_once(&overhead_once, measure_overhead);
    return overhead_ns;
}

static void read_source(void)
{
    strcpy(source_name, "unknown");

    FILE *f = fopen(CLOCKSOURCE_PATH, "re");
    if (!f)
        return;
    char buf[sizeof(source_name)];
    if (fgets(buf, sizeof(buf), f)) {
        buf[strcspn(buf, "\r\n")] = '\0';
        if (buf[0])
            memcpy(source_name, buf, sizeof(buf));
    }
    fclose(f);
}

const char *pl_clock_source(void)
{
    pthread_once(&source_once, read_source);
    return source_name;
}

void pl_clock_sleep_ns(uint64_t ns, volatile int *stop)
{
    if (ns == 0)
        return;

    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += (time_t)(ns / 1000000000u);
    until.tv_nsec += (long)(ns % 1000000000u);
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }

    for (;;) {
        int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
        if (rc != EINTR)
            return;
        if (stop && *stop)
            return;
    }
}
