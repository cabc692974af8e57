/*
 * Lua values and stats objects as bytes (l_pack.c), for p.parallel's result
 * pipes and p.mpi's messages between ranks.
 *
 * Plain values: a tagged binary form of platter's own, not JSON: numbers
 * keep every bit (lua-cjson writes 14 significant digits), keys keep their
 * types (cjson turns {[1] = x, a = y} into {"1": x, ...}) and Lua 5.4's
 * integers stay integers. Both ends are this binary: native byte order (the
 * ranks of an MPI run are one build on one architecture).
 *
 * Stats records: a stats object's counters, histogram and sub-stats, as
 * raw pl_stats, so that merging them is the exact merge of s:merge.
 */
#ifndef PLATTER_BIND_L_PACK_H
#define PLATTER_BIND_L_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "compat.h"
#include "stats.h"

#define PL_PACK_MAX (48u << 20) /* packed values: what a 64 MiB pipe blob leaves room for */
#define PL_PACK_DEPTH 32        /* nested tables (deeper: a cycle, most likely) */

struct pl_pack {
    char *p; /* malloc'd; the caller frees it */
    size_t len, cap;
    const char *err; /* the first thing that cannot be packed */
};

struct pl_unpack {
    const char *p, *end;
};

/* Append the value at idx (absolute); is_key: a key (no tables). */
void pl_pack_value(lua_State *L, struct pl_pack *k, int idx, int depth, int is_key);
/* Push one packed value; 0, or -1 (nothing pushed) on a malformed buffer. */
int pl_unpack_value(lua_State *L, struct pl_unpack *u, int depth);

struct pl_stats_rec {
    uint32_t has_stats; /* 0: no stats object (a failed worker) */
    uint32_t sub_mask;  /* which of read/write/fsync, r.slat's read/write are in sub[] */
    uint64_t shorts;
    char name[64];
    char stopped[24];
    char error[200];
    struct pl_stats st;
    struct pl_stats sub[5]; /* read, write, fsync; p.run's r.slat read and write */
};

/* Fill r from the stats object at idx (stopping it first, as p.parallel does). */
void pl_stats_rec_fill(lua_State *L, int idx, struct pl_stats_rec *r);
/* Push a new stats object holding r; returns it. */
struct pl_phase *pl_stats_rec_push(lua_State *L, const struct pl_stats_rec *r);
/* dst += src: the counts and histograms (pl_stats_merge, s:merge's), sub-stats too. */
void pl_stats_rec_merge(struct pl_stats_rec *dst, const struct pl_stats_rec *src);

#endif
