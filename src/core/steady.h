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

/*
 * A group of jobs judged as one (fio's group_reporting): each second of the
 * group's grid (from the first member's start of measurement) is the sum of
 * the members' reads and writes completed in it, judged by one window that
 * all members share. The group lives in a shared anonymous mapping made
 * before the members are forked; a member publishes each second it closes,
 * and the member that completes a second (every live member has published
 * it) judges it. A member that has not joined or has left is not waited for
 * (fio's check skips jobs not running); a second no member published is not
 * a sample. Reaching steady state stops every member.
 */
#define PL_SSG_RING 256 /* seconds a member may run ahead of the judged ones */

struct pl_ssg_member {
    int live;           /* joined, not left */
    int joined;         /* joined once */
    uint64_t first;     /* the first second it contributes to */
    uint64_t published; /* seconds below this are published (or were skipped) */
    uint64_t ops[PL_SSG_RING], bytes[PL_SSG_RING];
};

struct pl_steady_group {
    int lock;
    int attained;
    int started;     /* origin is set */
    uint64_t origin; /* the grid's start: the first member's start of measurement */
    uint64_t judged; /* seconds of the grid judged (or skipped) */
    uint64_t ramp_ns;
    unsigned n;
    struct pl_steady ss; /* its window in the mapping */
    size_t size;         /* of the mapping */
    struct pl_ssg_member m[];
};

/* A group of n members in a shared mapping, or NULL (errno set). */
struct pl_steady_group *pl_ssg_new(unsigned n, unsigned flags, double limit, unsigned dur,
                                   uint64_t ramp_ns);
void pl_ssg_free(struct pl_steady_group *g);
/* Member i starts measuring at now: the end of its first second on the grid. */
uint64_t pl_ssg_join(struct pl_steady_group *g, unsigned i, uint64_t now);
/* Member i closed second k with these counts; 1 once the group reached steady state. */
int pl_ssg_publish(struct pl_steady_group *g, unsigned i, uint64_t k, uint64_t ops, uint64_t bytes);
/* Member i has stopped: judge what no longer waits for it. */
void pl_ssg_leave(struct pl_steady_group *g, unsigned i);
static inline int pl_ssg_attained(const struct pl_steady_group *g)
{
    return __atomic_load_n(&g->attained, __ATOMIC_RELAXED);
}
/* A private copy of the group's window (pl_steady_free it); 0 or -ENOMEM. */
int pl_ssg_copy(struct pl_steady_group *g, struct pl_steady *out);

#endif
