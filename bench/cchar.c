/*
 * The minimal per-character loop platter's f:putc and f:getc are measured
 * against (bench/run, W6; Bonnie's "Per Char" columns): N putc() or getc()
 * calls on one stdio stream of FILE, the stream made as platter makes it
 * (fdopen of a descriptor opened read-write), timed around the loop only.
 *
 *   cchar FILE put N    truncate FILE, then N putc of a repeating pattern
 *   cchar FILE get N    N getc from the start of FILE (fewer at its end)
 *
 * Prints one line of key=value pairs (bench/run's): ops=1 bytes=N (the
 * characters) seconds=S bw=X (characters per second).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc != 4 || (strcmp(argv[2], "put") != 0 && strcmp(argv[2], "get") != 0)) {
        fprintf(stderr, "usage: cchar FILE put|get N\n");
        return 2;
    }
    int put = argv[2][0] == 'p';
    long n = atol(argv[3]);
    int fd = open(argv[1], put ? O_RDWR | O_CREAT | O_TRUNC : O_RDONLY, 0644);
    FILE *f = fd < 0 ? NULL : fdopen(fd, put ? "r+" : "r");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    unsigned char seen[256] = {0}; /* what getc returns goes somewhere, as in platter */
    long i;
    double t0 = now();
    if (put) {
        for (i = 0; i < n; i++)
            if (putc((int)(i & 0x7f), f) == EOF)
                break;
    } else {
        int c;
        for (i = 0; i < n; i++) {
            if ((c = getc(f)) == EOF)
                break;
            seen[c & 0xff]++;
        }
    }
    double t = now() - t0;
    if (fclose(f) != 0) {
        perror("fclose");
        return 1;
    }
    printf("ops=1 bytes=%ld seconds=%.6f bw=%.1f seen=%u\n", i, t, (double)i / t, seen[1]);
    return 0;
}
