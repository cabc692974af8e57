/*
 * The minimal C loop platter is measured against (bench/run builds it with
 * gcc -O2). One worker, queue depth 1: pread BS bytes at a random BS-aligned
 * offset drawn from xorshift64, with clock_gettime(CLOCK_MONOTONIC) before
 * and after every pread, until SECONDS have passed. The generator starts
 * from SEED when given (bench/run gives the same fresh seed to platter and
 * fio), else from the process id.
 *
 *   cloop FILE SECONDS [BS [direct [SEED]]]
 *   cloop FILE calls N
 *   cloop null SECONDS [mono|tsc|tsc1]
 *
 * Prints one line of key=value pairs:
 *   ops=N seconds=S iops=X mean_ns=M p50_ns=A p99_ns=B p999_ns=C max_ns=D
 * Latencies go into a 1-ns-resolution array up to 1 ms (and a coarse
 * overflow array above), so the percentiles are exact where they matter.
 *
 * The calls mode measures what one step of such a loop costs with the
 * cheapest read there is (1 byte at a random 4 KiB-aligned offset of a
 * small cached file), for comparison with the same step in Lua: the best
 * of 5 batches of N steps, in ns per step:
 *   clock_ns  one clock_gettime(CLOCK_MONOTONIC)
 *   pread1_ns one pread of 1 byte at offset 0
 *   loop1_ns  xorshift offset + clock + pread of 1 byte + clock (the W1 step)
 *
 * The null mode is the floor of a loop that does no I/O at all, for the null
 * engine (platter's p.run{engine = "null"}, fio --ioengine=null): per step an
 * xorshift offset, the clock read around nothing and the latency added to a
 * log-linear histogram like platter's (64 sub-buckets per power of two), for
 * SECONDS. The clock: mono is clock_gettime(CLOCK_MONOTONIC), read twice a
 * step; tsc is rdtsc scaled to ns as platter scales it, twice a step; tsc1 reads
 * it once a step, the end of one step being the start of the next. It prints
 * ops, seconds, iops, ns_per_op and mean_ns.
 *
 * With CLOOP_SECCOMP=1 in the environment, every mode first loads the seccomp
 * filter platter's sandbox loads (src/core/sandbox_calls.h, the same rules and
 * attributes as sandbox.c), so the loop pays the kernel's filtered system-call
 * entry as a sandboxed platter does: the base that isolates platter's own
 * cost from the kernel layer's (docs/performance.md, "The sandbox's kernel
 * layer"). Build: gcc -O2 -o cloop bench/cloop.c -lseccomp
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <seccomp.h>
#include <unistd.h>

#include "../src/core/sandbox_calls.h" /* the filter platter loads */

#define FINE_NS 1000000u   /* 1-ns buckets below 1 ms */
#define COARSE_US 1000000u /* 1-us buckets below 1 s */

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint32_t *fine, *coarse;

static uint64_t percentile(uint64_t ops, double p)
{
    uint64_t rank = (uint64_t)(p / 100.0 * (double)ops + 0.999999);
    uint64_t seen = 0;
    if (rank < 1)
        rank = 1;
    for (uint64_t i = 0; i < FINE_NS; i++)
        if ((seen += fine[i]) >= rank)
            return i;
    for (uint64_t i = 0; i < COARSE_US; i++)
        if ((seen += coarse[i]) >= rank)
            return i * 1000u + 500u;
    return UINT64_MAX;
}

static int calls(const char *path, long n)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        perror(path);
        return 1;
    }
    off_t size = lseek(fd, 0, SEEK_END);
    uint64_t blocks = (uint64_t)size / 4096;
    if (!blocks) {
        fprintf(stderr, "%s: too small\n", path);
        return 1;
    }
    static char buf[4096];
    double best[3] = {1e30, 1e30, 1e30};
    uint64_t x = 88172645463325252ull, sink = 0;
    for (int b = 0; b < 5; b++) {
        uint64_t t0 = now_ns();
        for (long i = 0; i < n; i++)
            sink += now_ns();
        uint64_t t1 = now_ns();
        for (long i = 0; i < n; i++)
            if (pread(fd, buf, 1, 0) != 1)
                return 1;
        uint64_t t2 = now_ns();
        for (long i = 0; i < n; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            uint64_t a = now_ns();
            if (pread(fd, buf, 1, (off_t)((x % blocks) * 4096)) != 1)
                return 1;
            sink += now_ns() - a;
        }
        uint64_t t3 = now_ns();
        double d[3] = {(double)(t1 - t0) / n, (double)(t2 - t1) / n, (double)(t3 - t2) / n};
        for (int k = 0; k < 3; k++)
            if (d[k] < best[k])
                best[k] = d[k];
    }
    printf("ops=%ld clock_ns=%.1f pread1_ns=%.1f loop1_ns=%.1f sink=%d\n", n, best[0], best[1],
           best[2], (int)(sink & 1));
    return 0;
}

/* ---- null: no I/O, only the clock and the histogram ---------------------------- */

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#else
#define HAVE_TSC 0
#endif

static uint64_t tsc0, ns0, mult; /* ns = ns0 + (tsc - tsc0) * mult / 2^32 */

static void tsc_calibrate(void)
{
#if HAVE_TSC
    uint64_t n0 = now_ns(), t0 = __rdtsc();
    while (now_ns() < n0 + 10000000u)
        ;
    uint64_t n1 = now_ns(), t1 = __rdtsc();
    mult = (uint64_t)((((unsigned __int128)(n1 - n0)) << 32) / (t1 - t0));
    tsc0 = t0;
    ns0 = n0;
#endif
}

static inline uint64_t tsc_ns(void)
{
#if HAVE_TSC
    return ns0 + (uint64_t)(((unsigned __int128)(__rdtsc() - tsc0) * mult) >> 32);
#else
    return now_ns();
#endif
}

#define HBITS 6
#define HSUB (1u << HBITS)
static uint64_t hist[64 * HSUB];

static inline unsigned hist_index(uint64_t ns)
{
    if (ns < 2 * HSUB)
        return (unsigned)ns;
    unsigned msb = 63u - (unsigned)__builtin_clzll(ns);
    unsigned shift = msb - HBITS;
    return ((shift + 1) << HBITS) + (unsigned)((ns >> shift) & (HSUB - 1));
}

static int null_loop(double seconds, const char *clock)
{
    int mode = strcmp(clock, "mono") == 0   ? 0
               : strcmp(clock, "tsc") == 0  ? 1
               : strcmp(clock, "tsc1") == 0 ? 2
                                            : -1;
    if (mode < 0) {
        fprintf(stderr, "cloop null: clock must be mono, tsc or tsc1\n");
        return 2;
    }
    if (mode > 0)
        tsc_calibrate();
    uint64_t x = 88172645463325252ull ^ (uint64_t)getpid(), sink = 0;
    uint64_t ops = 0, sum = 0;
    uint64_t start = mode ? tsc_ns() : now_ns();
    uint64_t end = start + (uint64_t)(seconds * 1e9), t = start;
    while (t < end) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        sink += x % 262144u; /* the offset a 1 GiB file of 4 KiB blocks would get */
        uint64_t t0 = t;
        if (mode == 0) {
            t0 = now_ns();
            t = now_ns();
        } else if (mode == 1) {
            t0 = tsc_ns();
            t = tsc_ns();
        } else {
            t = tsc_ns();
        }
        uint64_t lat = t - t0;
        sum += lat;
        hist[hist_index(lat)]++;
        ops++;
    }
    double secs = (double)(t - start) / 1e9;
    printf("ops=%llu seconds=%.6f iops=%.1f ns_per_op=%.2f mean_ns=%.1f sink=%d\n",
           (unsigned long long)ops, secs, (double)ops / secs, secs * 1e9 / (double)ops,
           (double)sum / (double)ops, (int)(sink & 1));
    return 0;
}

/* platter's seccomp filter, as sandbox.c's apply_seccomp loads it; 0 or -errno */
static int load_platter_filter(void)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx || seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1) != 0)
        return -ENOMEM;
    int rc = pl_refuse_calls(ctx);
    if (rc == 0)
        rc = seccomp_load(ctx);
    seccomp_release(ctx);
    return rc;
}

int main(int argc, char **argv)
{
    const char *sc = getenv("CLOOP_SECCOMP");
    if (sc && strcmp(sc, "1") == 0 && load_platter_filter() < 0) {
        fprintf(stderr, "cloop: cannot load the seccomp filter\n");
        return 1;
    }
    if (argc == 4 && strcmp(argv[2], "calls") == 0)
        return calls(argv[1], atol(argv[3]));
    if (argc >= 3 && strcmp(argv[1], "null") == 0)
        return null_loop(atof(argv[2]), argc > 3 ? argv[3] : "mono");
    if (argc < 3) {
        fprintf(stderr, "usage: cloop FILE SECONDS [BS [direct [SEED]]] | FILE calls N | "
                        "null SECONDS [mono|tsc|tsc1]\n");
        return 2;
    }
    double seconds = atof(argv[2]);
    uint64_t bs = argc > 3 ? strtoull(argv[3], NULL, 0) : 4096;
    int direct = argc > 4 && strcmp(argv[4], "direct") == 0;
    int fd = open(argv[1], O_RDONLY | (direct ? O_DIRECT : 0));
    if (fd < 0) {
        perror(argv[1]);
        return 1;
    }
    off_t size = lseek(fd, 0, SEEK_END); /* works for block devices too */
    if (size < (off_t)bs) {
        fprintf(stderr, "%s: too small\n", argv[1]);
        return 1;
    }
    uint64_t blocks = (uint64_t)size / bs;
    void *buf;
    if (posix_memalign(&buf, 4096, bs) != 0)
        return 1;
    memset(buf, 0, bs);
    fine = calloc(FINE_NS, sizeof *fine);
    coarse = calloc(COARSE_US, sizeof *coarse);
    if (!fine || !coarse)
        return 1;

    uint64_t seed = argc > 5 ? strtoull(argv[5], NULL, 0) : (uint64_t)getpid();
    uint64_t x = 88172645463325252ull ^ seed; /* xorshift needs a non-zero state */
    if (!x)
        x = 88172645463325252ull;
    uint64_t ops = 0, sum = 0, max = 0;
    uint64_t start = now_ns();
    uint64_t end = start + (uint64_t)(seconds * 1e9);
    uint64_t t = start;
    while (t < end) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        off_t off = (off_t)((x % blocks) * bs);
        uint64_t t0 = now_ns();
        ssize_t r = pread(fd, buf, bs, off);
        t = now_ns();
        if (r != (ssize_t)bs) {
            perror("pread");
            return 1;
        }
        uint64_t lat = t - t0;
        sum += lat;
        if (lat > max)
            max = lat;
        if (lat < FINE_NS)
            fine[lat]++;
        else if (lat / 1000u < COARSE_US)
            coarse[lat / 1000u]++;
        else
            coarse[COARSE_US - 1]++;
        ops++;
    }
    double secs = (double)(t - start) / 1e9;
    printf("ops=%llu seconds=%.6f iops=%.1f mean_ns=%.1f p50_ns=%llu p99_ns=%llu p999_ns=%llu "
           "max_ns=%llu\n",
           (unsigned long long)ops, secs, (double)ops / secs, (double)sum / (double)ops,
           (unsigned long long)percentile(ops, 50), (unsigned long long)percentile(ops, 99),
           (unsigned long long)percentile(ops, 99.9), (unsigned long long)max);
    return 0;
}
