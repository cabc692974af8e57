/*
 * fio's steady-state detection (fio 3.33 steadystate.c): a rolling window of
 * `dur` one-second samples of IOPS and bandwidth, and a criterion on one of
 * them: the least-squares slope over the window, or the largest deviation of
 * a sample from the window's mean; either as an absolute value or as a
 * percentage of the mean. When the criterion is below the limit the job has
 * reached steady state. The arithmetic is fio's, integer steps included: the
 * sums are 64-bit integers, the x values are 0 .. dur-1 (the samples taken as
 * evenly spaced), and a percentage slope divides by the integer mean.
 */
#ifndef PLATTER_CORE_STEADY_H
#define PLATTER_CORE_STEADY_H

#include <stdint.h>

enum {
    PL_SS_IOPS = 1,  /* judge the IOPS samples (else the bandwidth ones) */
    PL_SS_SLOPE = 2, /* the slope (else the largest deviation from the mean) */
    PL_SS_PCT = 4,   /* the limit is a percentage of the mean */
};

struct pl_steady {
    unsigned flags; /* PL_SS_* */
    double limit;   /* IOPS, bytes/s, or percent; per second for a slope */
    unsigned dur;   /* samples in the window (0: off) */
    int full;       /* the window has filled once: the criterion is computed */
    int attained;   /* the criterion fell below the limit */
    unsigned head;  /* fio's ring indices */
    unsigned tail;
    uint64_t *iops; /* dur samples each (malloc'd) */
    uint64_t *bw;   /* bytes/s */
    uint64_t sum_x, sum_x_sq, sum_y, sum_xy, oldest_y;
    double slope;     /* the last computed, 0 before the window filled */
    double deviation; /* the last largest deviation (deviation criteria only) */
    double criterion; /* the last value compared with the limit */
    uint64_t added;   /* samples given */
};

/* Set up a window of dur samples (zeroed); 0, or -ENOMEM / -EINVAL (dur 0). */
int pl_steady_init(struct pl_steady *ss, unsigned flags, double limit, unsigned dur);
void pl_steady_free(struct pl_steady *ss);

/*
 * Add one second's sample (IOPS and bytes/s in it) and judge the window once
 * it is full; 1 when steady state is reached (then add no more), else 0.
 */
int pl_steady_add(struct pl_steady *ss, uint64_t iops, uint64_t bw);

/*
 * The window, oldest sample first, as fio's JSON lists it (dur values each;
 * zeros for samples not taken yet), and fio's means: the sum over dur,
 * truncated (zeros counted).
 */
void pl_steady_window(const struct pl_steady *ss, uint64_t *iops, uint64_t *bw);
uint64_t pl_steady_mean(const struct pl_steady *ss, int iops);

#endif
