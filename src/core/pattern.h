/*
 * Access patterns: where the next I/O goes. seq, reverse, random, reread,
 * stride, zipf, normal, list, shuffle, pareto, zoned and zoned_abs, each over a
 * byte range [lo, hi) with an
 * alignment, driven by a seeded pl_rng so a seed gives the same offsets on
 * every build. Pure computation: no I/O, no Lua.
 */
#ifndef PLATTER_CORE_PATTERN_H
#define PLATTER_CORE_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"

enum pl_pattern_kind {
    PL_PAT_SEQ,
    PL_PAT_REVERSE,
    PL_PAT_RANDOM,
    PL_PAT_REREAD,
    PL_PAT_STRIDE,
    PL_PAT_ZIPF,
    PL_PAT_NORMAL,
    PL_PAT_LIST,
    PL_PAT_SHUFFLE,
    PL_PAT_PARETO,
    PL_PAT_ZONED,
    PL_PAT_ZONED_ABS,
};

/* How zipf and pareto place a rank on a block. */
enum pl_scatter {
    PL_SCATTER_SPREAD, /* a bijection (multiplier coprime with nblocks): every rank its own block */
    PL_SCATTER_FIO,    /* fio's: (rank * 0x61C8864680B583EB + off) mod nblocks, 64-bit wrap;
                          ranks may share a block (as fio's lib/zipf.c does) */
    PL_SCATTER_NONE,   /* rank r at block (r + off) mod nblocks: the hottest at the centre */
};

/* zoned: access percent and the zone's size in percent of the range; zoned_abs: the
   size in bytes. Zones follow each other from lo. */
struct pl_zone {
    unsigned access;
    uint64_t size;
};

#define PL_ZONE_SLOTS 100

struct pl_pattern_spec {
    enum pl_pattern_kind kind;
    uint64_t lo, hi;      /* byte range [lo, hi); hi > lo (not used by list) */
    uint64_t align;       /* offsets are lo + k*align (random, zipf, normal); 0 means 1 */
    uint64_t stride;      /* stride: distance between consecutive I/Os (bytes, >= len) */
    double theta;         /* zipf skew: any finite value > 0, 1 included (0.8..1.2 typical) */
    double sigma;         /* normal: standard deviation as a fraction of the range (> 0) */
    const uint64_t *list; /* list: offsets, used in order and then from the start; borrowed,
                               so it must outlive the pattern */
    size_t nlist;
    double pareto_h;             /* pareto: fio's h, in (0, 1) (0.2 is fio's default) */
    int has_center;              /* zipf, pareto: center given (else drawn from the seed) */
    double center;               /* where rank 0 goes before the scatter's hash, a fraction
                                    of the blocks in 0..1 (fio's :center) */
    enum pl_scatter scatter;     /* zipf, pareto */
    const struct pl_zone *zones; /* zoned, zoned_abs: borrowed, like list */
    size_t nzones;
    /*
     * Random kinds (random, shuffle, zipf, pareto, normal, zoned, zoned_abs): fio's
     * rw=randread:N and percentage_random. Every seq_nr-th I/O (the first included)
     * is a candidate for a random offset and takes one with probability 100 - seq_pct
     * percent (fio's percentage_random = 100 - seq_pct); every other I/O starts where
     * the previous one ended (a random offset when that would not fit). seq_nr 0 or 1
     * and seq_pct 0: always random.
     */
    unsigned seq_nr;
    unsigned seq_pct;
    int64_t skip; /* seq: fio's rw=read:N, bytes between the end of an I/O and the next
                     (negative: backwards; see pl_pattern_next) */
    uint64_t seed;
};

struct pl_pattern {
    struct pl_pattern_spec s; /* copy of the spec, with align 0 turned into 1 */
    struct pl_rng rng;
    uint64_t len;     /* the I/O size given to init; pl_pattern_next(p, 0) uses it */
    uint64_t pos;     /* seq/reverse/stride: next offset */
    uint64_t pass;    /* stride: passes since the last return to lo */
    size_t li;        /* list: next index */
    uint64_t nblocks; /* random/zipf/normal: aligned starts that fit, (hi-len-lo)/align + 1 */
    /*
     * zipf (Gray et al.'s method): zeta_n = zeta(nblocks, theta), zeta_2 =
     * 1 + 2^-theta, alpha = 1/(1 - theta) (or ln(2/nblocks) when theta is 1),
     * eta the scale of the tail's closed form.
     */
    double zeta_n, zeta_2, alpha, eta;
    uint64_t zipf_mult; /* multiplier coprime with nblocks: scatters hot blocks */
    uint64_t zipf_add;  /* block of the hottest rank (drawn from the seed) */
    /*
     * shuffle: a pass runs a counter over [0, sh_mask] (sh_mask + 1 the power of two
     * at or above nblocks) through a keyed bijection of that interval and keeps the
     * images below nblocks, so each block comes once per pass; each pass draws new keys.
     */
    uint64_t sh_mask, sh_ctr, sh_key[3], sh_mul[3];
    unsigned sh_shift;
    double pareto_pow; /* pareto: ln(h) / ln(1 - h) */
    uint64_t fio_off;  /* scatter fio / none: the offset added after the hash */
    /* zoned: for each of the 100 access slots, its zone's first block and block count */
    uint64_t zone_start[PL_ZONE_SLOTS], zone_blocks[PL_ZONE_SLOTS];
    /* seq_nr / random_pct (mixed != 0): its own generator, so the random offsets are
       those of the plain pattern; seq_left counts down to the next candidate */
    int mixed;
    unsigned seq_left;
    uint64_t last_end;
    struct pl_rng mix_rng;
};

/*
 * Check the spec and prepare the state. `len` is the I/O size the pattern will
 * mostly see (for seq/reverse/stride stepping and to keep I/O inside the
 * range). 0, or -EINVAL with a static reason in *why (lowercase, no period).
 * Range patterns need len > 0 and hi - lo >= len; list takes its offsets as
 * given (the caller checks them against the file).
 */
int pl_pattern_init(struct pl_pattern *p, const struct pl_pattern_spec *s, uint64_t len,
                    const char **why);

/*
 * Offset of the next I/O of len bytes (0 means the len given to init). The
 * result always has off + len <= hi when hi - lo >= len; a larger len gets lo.
 *   seq      lo, lo+len, ...; back to lo when the next I/O would pass hi
 *   reverse  from the highest lo + k*len that fits down to lo, then again
 *   random   uniform over lo + k*align
 *   reread   always lo
 *   stride   lo, lo+stride, ... while it fits; pass p then starts at
 *            lo + (p*len) % stride (or lo again if that does not fit), so with
 *            stride a multiple of len every len-block is visited once per cycle
 *   zipf     rank r ~ Zipf(theta) over nblocks aligned starts, placed at block
 *            (r*zipf_mult + zipf_add) mod nblocks. Ranks 0 and 1 have their exact
 *            probabilities; higher ranks follow Gray's continuous approximation
 *   normal   the I/O's middle ~ N(middle of the range, sigma*(hi-lo)), redrawn
 *            until the start is in [lo, hi-len], then rounded down to lo + k*align
 *   list     list[0], list[1], ..., list[nlist-1], list[0], ...
 *   shuffle  every aligned start lo + k*align (k < nblocks) once per pass, in an
 *            order drawn from the seed, a new order each pass (fio's random map
 *            without its bitmap: a keyed permutation, not a rejected draw)
 *   pareto   fio's: rank floor((nblocks-1) * u^(ln h / ln(1-h))), u uniform in [0, 1),
 *            placed on a block by `scatter` as zipf's rank
 *   zoned    fio's zoned: a slot v uniform in 0..99 picks the zone whose access
 *            percentages cover v; the zone's blocks start at (size percent before
 *            it) * nblocks / 100 and number nblocks * (its size percent) / 100; a
 *            uniform block of it (its first block when it has none)
 *   zoned_abs the same with sizes in bytes: the zone's blocks from (bytes before it)
 *            / align to (bytes up to its end) / align
 *   seq with skip: fio's get_next_seq_offset on a file that ends at hi, W = hi - lo:
 *            pos = (end of the last I/O) - lo, plus skip unless pos is 0; a pos at or
 *            past hi (or below 0, in 64-bit wrap) becomes W + skip for skip < 0 and
 *            lo for skip > 0; the I/O goes to lo + pos (to lo if it does not fit).
 *            The first I/O is at lo, except that with skip < 0 and lo > 0 fio first
 *            takes the end of the last I/O to be W (its rewind, in file offsets)
 * seq, reverse, random, reread, stride, list and shuffle are exact integer arithmetic,
 * identical everywhere for a seed; zipf and normal use libm (pow, exp, log,
 * sqrt, cos), so they repeat exactly with the same libm and compiler flags
 * (no -ffast-math; fused multiply-add contraction may change the last bits).
 */
uint64_t pl_pattern_next(struct pl_pattern *p, uint64_t len);

/*
 * fio's scatter of a rank over n blocks (lib/zipf.c): the golden-ratio hash of the
 * rank, plus off, modulo n, in 64-bit arithmetic that wraps.
 */
uint64_t pl_pattern_fio_scatter(uint64_t rank, uint64_t off, uint64_t n);

/* Name <-> kind; pl_pattern_kind_of returns -1 for an unknown name, pl_pattern_name "unknown". */
int pl_pattern_kind_of(const char *name);
const char *pl_pattern_name(enum pl_pattern_kind k);

#endif
