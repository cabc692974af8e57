/*
 * bench/sccost.c: what a seccomp filter costs per system call, the way
 * platter's kernel layer installs one (allow by default, ~50 calls refused
 * by number only, so the kernel's action cache answers every allowed call).
 * (The list is src/core/sandbox_calls.h.) One process times 4 KiB preads of a cached file before and after loading
 * the filter, alternating, and prints the median of each.
 *
 *   cc -O2 -o sccost bench/sccost.c -lseccomp && ./sccost FILE [ROUNDS]
 *
 * The filter cannot be unloaded, so the "before" figures of every round are
 * taken in a child forked before the filter goes on in the parent.
 */
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../src/core/sandbox_calls.h" /* the filter platter loads */

#define STEPS 1000000

static double ns_per_pread(int fd)
{
    static char buf[4096];
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < STEPS; i++)
        if (pread(fd, buf, sizeof buf, (off_t)((i * 7919) % 16384) * 4096) < 0)
            exit(1);
    clock_gettime(CLOCK_MONOTONIC, &b);
    return ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / STEPS;
}

static int cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: sccost FILE [ROUNDS]\n");
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 9;
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0 || rounds < 1 || rounds > 99) {
        perror(argv[1]);
        return 2;
    }
    /* the "without" side: children forked before any filter */
    int pfd[2], qfd[2]; /* child -> parent: its figure; parent -> child: go on */
    if (pipe(pfd) < 0 || pipe(qfd) < 0)
        return 1;
    double off[99], on[99];
    pid_t pid = fork();
    if (pid == 0) {
        for (int r = 0; r < rounds; r++) {
            double v = ns_per_pread(fd);
            if (write(pfd[1], &v, sizeof v) != sizeof v)
                _exit(1);
            char go;
            if (read(qfd[0], &go, 1) != 1) /* wait for the parent's measurement */
                _exit(1);
        }
        _exit(0);
    }
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (pl_refuse_calls(ctx) != 0)
        return 1;
    for (int r = 0; r < rounds; r++) {
        if (read(pfd[0], &off[r], sizeof off[r]) != sizeof off[r])
            return 1;
        if (r == 0 && seccomp_load(ctx) < 0)
            return 1;
        on[r] = ns_per_pread(fd);
        if (write(qfd[1], "g", 1) != 1)
            return 1;
    }
    waitpid(pid, NULL, 0);
    qsort(off, (size_t)rounds, sizeof off[0], cmp);
    qsort(on, (size_t)rounds, sizeof on[0], cmp);
    double a = off[rounds / 2], b = on[rounds / 2];
    printf("pread 4 KiB, cached: %.1f ns without a filter, %.1f ns with it: +%.1f ns (%.1f%%), "
           "median of %d alternating rounds\n",
           a, b, b - a, (b / a - 1) * 100, rounds);
    return 0;
}
