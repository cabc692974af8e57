/*
 * Deterministic random numbers: xoshiro256** seeded by splitmix64, so a seed
 * gives the same sequence on every build and Lua flavour.
 */
#ifndef PLATTER_CORE_RNG_H
#define PLATTER_CORE_RNG_H

#include <stdint.h>

struct pl_rng {
    uint64_t s[4];
};

/* Seed the generator; any seed (including 0) is valid. */
void pl_rng_seed(struct pl_rng *r, uint64_t seed);

/* Next 64 random bits. */
uint64_t pl_rng_next(struct pl_rng *r);

/* Uniform integer in [0, n) without modulo bias; n == 0 returns 0. */
uint64_t pl_rng_below(struct pl_rng *r, uint64_t n);

/* Uniform double in [0, 1) with 53 random bits. */
double pl_rng_double(struct pl_rng *r);

/*
 * Uniform multiple of align in [lo, hi] (inclusive; align 0 or 1 means any
 * integer). Returns 0 and stores it in *out, or -1 when no multiple of align
 * lies in the range.
 */
int pl_rng_range(struct pl_rng *r, uint64_t lo, uint64_t hi, uint64_t align, uint64_t *out);

/* The process's generator (p.random, and p.run's seeds when none is given),
   seeded by --seed or p.seed; pl_rng_process_seed is the seed in force. */
extern struct pl_rng pl_rng_process;
extern uint64_t pl_rng_process_seed;
void pl_rng_process_reseed(uint64_t seed);

#endif
