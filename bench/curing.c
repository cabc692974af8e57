/*
 * A minimal io_uring loop for W3's analysis (bench/run builds it when
 * BENCH_EXTRA=1 and liburing is there): random BS-aligned O_DIRECT reads of
 * BS bytes at queue depth QD for SECONDS, with a registered file and
 * registered buffers, submissions in batches of QD/2 and completions reaped
 * as soon as one is there, as platter's io_uring engine does by default.
 * MODE picks the ring's setup flags:
 *   plain  no flags (what platter used before 2026-11-30)
 *   coop   IORING_SETUP_COOP_TASKRUN | SINGLE_ISSUER | DEFER_TASKRUN and a CQ
 *          ring the size of the SQ ring (what fio 3.33 asks for; platter asks
 *          for the same flags now, with its default CQ ring of twice the SQ)
 *
 *   curing FILE SECONDS QD MODE [BS]
 *
 * Prints ops=N seconds=S iops=X mean_ns=M p50_ns=A p99_ns=B p999_ns=C, the
 * latency of each read running from just before its submission to its reaping.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef IORING_SETUP_COOP_TASKRUN
#define IORING_SETUP_COOP_TASKRUN (1U << 8)
#endif
#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER (1U << 12)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN (1U << 13)
#endif

#define BUCKETS 1000000u /* 1-us buckets below 1 s */

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint32_t *hist;

static uint64_t percentile(uint64_t ops, double p)
{
    uint64_t rank = (uint64_t)(p / 100.0 * (double)ops + 0.999999), seen = 0;
    if (rank < 1)
        rank = 1;
    for (uint64_t i = 0; i < BUCKETS; i++)
        if ((seen += hist[i]) >= rank)
            return i * 1000u + 500u;
    return UINT64_MAX;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: curing FILE SECONDS QD plain|coop [BS]\n");
        return 2;
    }
    double seconds = atof(argv[2]);
    unsigned qd = (unsigned)atoi(argv[3]);
    int coop = strcmp(argv[4], "coop") == 0;
    uint64_t bs = argc > 5 ? strtoull(argv[5], NULL, 0) : 4096;
    if (qd < 1 || qd > 1024)
        return 2;
    int fd = open(argv[1], O_RDONLY | O_DIRECT);
    if (fd < 0) {
        perror(argv[1]);
        return 1;
    }
    off_t size = lseek(fd, 0, SEEK_END);
    uint64_t blocks = (uint64_t)size / bs;
    if (!blocks)
        return 1;

    struct io_uring ring;
    struct io_uring_params p;
    memset(&p, 0, sizeof p);
    if (coop) {
        p.flags = IORING_SETUP_CQSIZE | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER |
                  IORING_SETUP_DEFER_TASKRUN;
        p.cq_entries = qd;
    }
    int rc = io_uring_queue_init_params(qd, &ring, &p);
    if (rc < 0) {
        fprintf(stderr, "io_uring_queue_init_params: %s\n", strerror(-rc));
        return 1;
    }
    if (io_uring_register_files(&ring, &fd, 1) < 0)
        return 1;
    struct iovec *iov = calloc(qd, sizeof *iov);
    uint64_t *t_sub = calloc(qd, sizeof *t_sub);
    unsigned *free_slot = calloc(qd, sizeof *free_slot);
    hist = calloc(BUCKETS, sizeof *hist);
    if (!iov || !t_sub || !free_slot || !hist)
        return 1;
    for (unsigned i = 0; i < qd; i++) {
        if (posix_memalign(&iov[i].iov_base, 4096, bs) != 0)
            return 1;
        memset(iov[i].iov_base, 0, bs);
        iov[i].iov_len = bs;
        free_slot[i] = i;
    }
    if (io_uring_register_buffers(&ring, iov, qd) < 0)
        return 1;

    unsigned nfree = qd, inflight = 0, queued = 0, batch = qd > 1 ? qd / 2 : 1;
    uint64_t x = 88172645463325252ull ^ (uint64_t)getpid();
    uint64_t ops = 0, sum = 0;
    uint64_t start = now_ns(), end = start + (uint64_t)(seconds * 1e9), last = start;
    int stopping = 0;
    for (;;) {
        uint64_t t = now_ns();
        if (t >= end)
            stopping = 1;
        while (!stopping && nfree) {
            unsigned s = free_slot[--nfree];
            struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            io_uring_prep_read_fixed(sqe, 0, iov[s].iov_base, (unsigned)bs, (x % blocks) * bs,
                                     (int)s);
            sqe->flags |= IOSQE_FIXED_FILE;
            io_uring_sqe_set_data64(sqe, s);
            t_sub[s] = t;
            inflight++;
            if (++queued >= batch) {
                io_uring_submit(&ring);
                queued = 0;
            }
        }
        if (!inflight)
            break;
        rc = queued ? io_uring_submit_and_wait(&ring, 1) : 0;
        queued = 0;
        struct io_uring_cqe *cqe;
        if (rc >= 0 && io_uring_peek_cqe(&ring, &cqe) != 0)
            rc = io_uring_wait_cqe(&ring, &cqe);
        if (rc < 0 && rc != -EINTR) {
            fprintf(stderr, "io_uring wait: %s\n", strerror(-rc));
            return 1;
        }
        struct io_uring_cqe *cqes[64];
        unsigned n;
        uint64_t done = now_ns();
        while ((n = io_uring_peek_batch_cqe(&ring, cqes, 64)) > 0) {
            for (unsigned i = 0; i < n; i++) {
                unsigned s = (unsigned)io_uring_cqe_get_data64(cqes[i]);
                if (cqes[i]->res != (int)bs) {
                    fprintf(stderr, "read: %s\n",
                            cqes[i]->res < 0 ? strerror(-cqes[i]->res) : "short read");
                    return 1;
                }
                uint64_t lat = done - t_sub[s];
                sum += lat;
                hist[lat / 1000u < BUCKETS ? lat / 1000u : BUCKETS - 1]++;
                ops++;
                free_slot[nfree++] = s;
                inflight--;
            }
            io_uring_cq_advance(&ring, n);
        }
        last = done;
    }
    double secs = (double)(last - start) / 1e9;
    printf("ops=%llu seconds=%.6f iops=%.1f mean_ns=%.1f p50_ns=%llu p99_ns=%llu p999_ns=%llu\n",
           (unsigned long long)ops, secs, (double)ops / secs, (double)sum / (double)ops,
           (unsigned long long)percentile(ops, 50), (unsigned long long)percentile(ops, 99),
           (unsigned long long)percentile(ops, 99.9));
    io_uring_queue_exit(&ring);
    return 0;
}
