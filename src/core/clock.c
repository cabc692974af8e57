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
#include <sys/prctl.h>
#include <sys/resource.h>


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
    if (pl_clock_virtual) {  /* virtual time passes at once */
        pl_clock_virtual->advance(ns);
        return;
    }

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

/* ---- TSC calibration ------------------------------------------------------------ */

struct pl_clock_cal pl_clock_cal;

const struct pl_clock_source *pl_clock_virtual;

void pl_clock_set_source(const struct pl_clock_source *src)
{
    pl_clock_virtual = src;
}

static int cpu_has_invariant_tsc(void)
{
    FILE *fp = fopen("/proc/cpuinfo", "r");
    if (!fp)
        return 0;
    char line[4096];
    int ok = 0;
    while (fgets(line, sizeof line, fp)) {
        if (strncmp(line, "flags", 5) == 0) {
            ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
            break;
        }
    }
    fclose(fp);
    return ok;
}

#if PL_HAVE_TSC
/* A (tsc, monotonic) pair read as close together as this machine allows. */
static void paired_reading(uint64_t *tsc, uint64_t *ns)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 9; i++) {
        uint64_t a = __rdtsc();
        uint64_t m = pl_clock_mono_ns();
        uint64_t b = __rdtsc();
        if (b - a < best) {
            best = b - a;
            *tsc = a + (b - a) / 2;
            *ns = m;
        }
    }
}
#endif

void pl_clock_init(void)
{
    const char *want = getenv("PLATTER_CLOCK");
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);  /* sleeps end when asked, not up to 50 µs later */
    pl_clock_cal.tsc = 0;
#if PL_HAVE_TSC
    if ((want && strcmp(want, "monotonic") == 0) || !cpu_has_invariant_tsc())
        return;
    uint64_t t0 = 0, n0 = 0, t1 = 0, n1 = 0;
    paired_reading(&t0, &n0);
    /* 2 ms: each paired reading is good to ~100 ns, so the rate is good to ~0.005% */
    struct timespec d = {0, 2 * 1000 * 1000};
    while (nanosleep(&d, &d) < 0 && errno == EINTR)
        ;
    paired_reading(&t1, &n1);
    if (t1 <= t0 || n1 <= n0)
        return;
    pl_clock_cal.mult = (uint64_t)((((unsigned __int128)(n1 - n0)) << 32) / (t1 - t0));
    pl_clock_cal.tsc0 = t0;  /* the earlier point: later readings never fall below it */
    pl_clock_cal.ns0 = n0;
    pl_clock_cal.tsc = pl_clock_cal.mult > 0;
#else
    (void)want;
#endif
}

const char *pl_clock_method(void)
{
    if (pl_clock_virtual)
        return pl_clock_virtual->name;
    return pl_clock_cal.tsc ? "tsc" : "clock_gettime";
}

void pl_clock_cpu(double *user, double *sys)
{
    if (pl_clock_virtual) {
        pl_clock_virtual->cpu(user, sys);
        return;
    }
    struct rusage self, kids;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &kids);
    *user = (double)(self.ru_utime.tv_sec + kids.ru_utime.tv_sec) +
            (double)(self.ru_utime.tv_usec + kids.ru_utime.tv_usec) / 1e6;
    *sys = (double)(self.ru_stime.tv_sec + kids.ru_stime.tv_sec) +
           (double)(self.ru_stime.tv_usec + kids.ru_stime.tv_usec) / 1e6;
}
