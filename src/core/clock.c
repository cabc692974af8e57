/*
 * The monotonic clock: the TSC's calibration against CLOCK_MONOTONIC (done
 * without waiting, see below), the median price of one pl_clock_ns() call,
 * the kernel clocksource name, and an interruptible sleep to an absolute
 * deadline.
 */
#include "clock.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#define OVERHEAD_BATCHES 31
#define OVERHEAD_CALLS 1000
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

    pl_clock_settle(); /* the cost of the clock the run ends up with */

    for (int b = 0; b < OVERHEAD_BATCHES; b++) {
        uint64_t t0 = pl_clock_ns();
        for (int i = 0; i < OVERHEAD_CALLS; i++)
            sink += pl_clock_ns();
        uint64_t t1 = pl_clock_ns();
        per_call[b] = (double)(t1 - t0) / OVERHEAD_CALLS;
    }
    (void)sink;
    /* the least batch: other work only ever adds to a batch, and with two tests
       at once on two cores the median once came out 3x another run's */
    qsort(per_call, OVERHEAD_BATCHES, sizeof(per_call[0]), cmp_double);
    overhead_ns = per_call[0];
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
    if (pl_clock_virtual) { /* virtual time passes at once */
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

/*
 * No sleep at start-up: pl_clock_init takes a (TSC, CLOCK_MONOTONIC) pair and
 * leaves pl_clock_cal.pending set, so pl_clock_ns keeps reading clock_gettime
 * (exact by definition). The first reading at least CAL_MIN_NS later takes a
 * second pair. Each pair brackets its clock_gettime between two rdtsc, so the
 * TSC's true count at that reading is known to within the bracket; the rate
 * from the two pairs is then off by at most (bracket 0 + bracket 1) / ticks
 * between them. When that is within 1 / CAL_ERR_DIV, the TSC takes over;
 * otherwise (a preempted or slow pair) the next try waits twice as long.
 */
#define CAL_MIN_NS (5 * 1000 * 1000ull)
#define CAL_ERR_DIV 100000ull /* 10 ppm: 0.001% */
#define CAL_TRIES 8           /* then settle for clock_gettime (5 ms .. 640 ms) */

struct pl_clock_cal pl_clock_cal;

const struct pl_clock_source *pl_clock_virtual;

void pl_clock_set_source(const struct pl_clock_source *src)
{
    pl_clock_virtual = src;
}

struct pair {
    uint64_t tsc;    /* the bracket's middle */
    uint64_t ns;     /* CLOCK_MONOTONIC, read inside the bracket */
    uint64_t spread; /* the bracket's width in ticks */
};

static struct pair cal_start; /* taken by pl_clock_init */
static uint64_t cal_next_ns;  /* CLOCK_MONOTONIC of the next try */
static int cal_tries;

static int cpu_has_invariant_tsc(void)
{
#if PL_HAVE_TSC
    unsigned a, b, c, d;
    /* the invariant TSC bit, from which Linux sets both constant_tsc and nonstop_tsc */
    if (__get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8)))
        return 1;
#endif
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
/* A (tsc, monotonic) pair read as close together as this machine allows: the
   narrowest bracket of a few tries. */
static struct pair paired_reading(void)
{
    struct pair p = {0, 0, UINT64_MAX};
    for (int i = 0; i < 9; i++) {
        uint64_t a = __rdtsc();
        uint64_t m = pl_clock_mono_ns();
        uint64_t b = __rdtsc();
        if (b - a < p.spread) {
            p.spread = b - a;
            p.tsc = a + (b - a) / 2;
            p.ns = m;
        }
    }
    return p;
}
#endif

uint64_t pl_clock_calibrating_ns(void)
{
    uint64_t now = pl_clock_mono_ns();
#if PL_HAVE_TSC
    if (now < cal_next_ns)
        return now;
    /* one caller does the work; another thread meanwhile reads clock_gettime */
    if (!__atomic_exchange_n(&pl_clock_cal.pending, 0, __ATOMIC_ACQ_REL))
        return now;
    struct pair p = paired_reading();
    if (p.tsc <= cal_start.tsc || p.ns <= cal_start.ns)
        return now; /* the TSC did not move on with the clock: keep clock_gettime */
    uint64_t ticks = p.tsc - cal_start.tsc;
    if ((cal_start.spread + p.spread) * CAL_ERR_DIV > ticks) {
        if (++cal_tries < CAL_TRIES) { /* too coarse yet: try again after twice the time */
            cal_next_ns = now + (now - cal_start.ns);
            __atomic_store_n(&pl_clock_cal.pending, 1, __ATOMIC_RELEASE);
        }
        return now;
    }
    pl_clock_cal.mult = (uint64_t)((((unsigned __int128)(p.ns - cal_start.ns)) << 32) / ticks);
    if (pl_clock_cal.mult == 0)
        return now;
    /*
     * Anchored at the second pair: every rdtsc from now on is past its bracket,
     * so every TSC reading is at least p.ns, which is at least every
     * clock_gettime reading made before (now included): nothing goes back.
     */
    pl_clock_cal.tsc0 = p.tsc;
    pl_clock_cal.ns0 = p.ns;
    __atomic_store_n(&pl_clock_cal.tsc, 1, __ATOMIC_RELEASE);
    return pl_clock_ns();
#else
    return now;
#endif
}

void pl_clock_settle(void)
{
    while (pl_clock_cal.pending && !pl_clock_virtual) {
        uint64_t now = pl_clock_mono_ns();
        if (now < cal_next_ns) {
            struct timespec d = {(time_t)((cal_next_ns - now) / 1000000000u),
                                 (long)((cal_next_ns - now) % 1000000000u)};
            while (nanosleep(&d, &d) < 0 && errno == EINTR)
                ;
        }
        (void)pl_clock_ns();
    }
}

void pl_clock_init(void)
{
    const char *want = getenv("PLATTER_CLOCK");
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0); /* sleeps end when asked, not up to 50 µs later */
    pl_clock_cal.tsc = 0;
    pl_clock_cal.pending = 0;
#if PL_HAVE_TSC
    if ((want && strcmp(want, "monotonic") == 0) || !cpu_has_invariant_tsc())
        return;
    cal_start = paired_reading();
    cal_next_ns = cal_start.ns + CAL_MIN_NS;
    cal_tries = 0;
    pl_clock_cal.pending = 1;
#else
    (void)want;
#endif
}

const char *pl_clock_method(void)
{
    if (pl_clock_virtual)
        return pl_clock_virtual->name;
    return pl_clock_cal.tsc || pl_clock_cal.pending ? "tsc" : "clock_gettime";
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
