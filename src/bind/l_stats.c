/*
 * The "platter.stats" userdata: one phase's counters, CPU times and latency
 * histogram (owned by the userdata), the list of active phases that timed
 * calls record into, and p.phase().
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "budget.h"
#include "clock.h"
#include "host.h"
#include "guard.h"
#include "io.h"
#include "job.h"
#include "l_util.h"
#include "l_open.h"
#include "l_file.h"
#include "l_stats.h"
#include "progress.h"
#include "units.h"
#include "hot.h"

/* The p.phase phases recording now, in start order: those a Ctrl-C leaves open
   are closed from here (pl_phase_close_interrupted). */
static struct pl_phase *open_phases[PL_IO_MAX_PHASES];
static int n_open;

static void forget_open(struct pl_phase *ph)
{
    for (int i = 0; i < n_open; i++) {
        if (open_phases[i] == ph) {
            memmove(open_phases + i, open_phases + i + 1,
                    (size_t)(n_open - i - 1) * sizeof *open_phases);
            n_open--;
            return;
        }
    }
}

uint64_t pl_interval_arg(lua_State *L, int idx, const char *who)
{
    uint64_t ns = 0;
    if (lua_isnil(L, idx))
        return pl_cfg.interval_ns;
    if (lua_isboolean(L, idx) && !lua_toboolean(L, idx))
        return 0;
    if (lua_type(L, idx) == LUA_TNUMBER) {
        double v = lua_tonumber(L, idx);
        ns = v > 0 ? pl_scale_u64(v, 1e9) : 0;
    } else if (lua_type(L, idx) == LUA_TSTRING) {
        const char *why;
        if (pl_nul_inside(L, idx, &why) || pl_units_parse_time(lua_tostring(L, idx), &ns, &why) < 0)
            luaL_error(L, "%s: bad 'interval' '%s': %s", who, lua_tostring(L, idx), why);
    } else {
        luaL_error(L, "%s: 'interval' must be a duration such as \"100ms\" or seconds, not %s", who,
                   luaL_typename(L, idx));
    }
    if (ns < 1000)
        luaL_error(L, "%s: 'interval' must be at least 1us", who);
    return ns;
}

struct pl_phase *pl_phase_new(lua_State *L, const char *name)
{
    struct pl_phase *ph = lua_newuserdata(L, sizeof *ph);
    memset(ph, 0, sizeof *ph);
    pl_stats_reset(&ph->st);
    ph->ref = LUA_NOREF;
    ph->sub[0] = ph->sub[1] = ph->sub[2] = LUA_NOREF;
    ph->samples = LUA_NOREF;
    ph->slat = LUA_NOREF;
    ph->steady = LUA_NOREF;
    ph->io_bw = ph->io_iops = LUA_NOREF;
    ph->extra = LUA_NOREF;
    snprintf(ph->name, sizeof ph->name, "%s", name ? name : "");
    luaL_getmetatable(L, PL_STATS_MT);
    lua_setmetatable(L, -2);
    return ph;
}

struct pl_phase *pl_checkphase(lua_State *L, int arg)
{
    return luaL_checkudata(L, arg, PL_STATS_MT);
}

void pl_hook_phase_start(lua_State *L, int arg)
{
    lua_getfield(L, LUA_REGISTRYINDEX, "platter.hooks");
    if (lua_istable(L, -1)) {
        lua_getfield(L, -1, "phase_start");
        if (lua_isfunction(L, -1)) {
            lua_pushvalue(L, arg);
            lua_call(L, 1, 0);
        } else {
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
}

void pl_phase_start(lua_State *L, int arg)
{
    struct pl_phase *ph = pl_checkphase(L, arg);
    if (ph->active)
        return;
    if (pl_io_phase_count() == 0)
        pl_closed_reset(L); /* the files this phase closes are listed afresh */
    if (pl_io_phase_add(&ph->st) < 0)
        luaL_error(L, "phase: more than %d phases nested", PL_IO_MAX_PHASES);
    if (arg < 0)
        arg = lua_gettop(L) + arg + 1;
    pl_hook_phase_start(L, arg);
    pl_progress_begin(ph, ph->name, &ph->st, ph->noprogress);
    lua_pushvalue(L, arg);
    ph->ref = luaL_ref(L, LUA_REGISTRYINDEX); /* alive while it records */
    ph->active = 1;
    open_phases[n_open++] = ph; /* as many as pl_io_phase_add takes */
    pl_clock_cpu(&ph->ru_user0, &ph->ru_sys0);
    ph->st.t_end = 0;
    ph->st.t_start = pl_clock_ns();
    if (ph->interval_ns) { /* a time series from the start (no memory: none) */
        struct pl_series *sr = ph->series ? ph->series : malloc(sizeof *sr);
        if (sr && ph->series)
            pl_series_free(sr);
        if (sr && pl_series_init(sr, ph->interval_ns, ph->st.t_start) == 0) {
            ph->series = sr;
            pl_io_phase_series(&ph->st, sr);
            pl_progress_series(ph, sr); /* the line shows its last interval */
        } else {
            free(sr);
            ph->series = NULL;
        }
    }
}

void pl_phase_stop(lua_State *L, struct pl_phase *ph)
{
    if (!ph->active)
        return;
    ph->st.t_end = pl_clock_ns();
    double u, s;
    pl_clock_cpu(&u, &s);
    ph->st.user += u - ph->ru_user0;
    ph->st.sys += s - ph->ru_sys0;
    if (ph->series)
        pl_series_finish(ph->series, ph->st.t_end);
    pl_progress_end(ph);
    pl_io_phase_remove(&ph->st);
    forget_open(ph);
    ph->active = 0;
    luaL_unref(L, LUA_REGISTRYINDEX, ph->ref);
    ph->ref = LUA_NOREF;
}

void pl_hook_phase(lua_State *L, int idx, const char *kind, int extra)
{
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    extra = extra < 0 ? lua_gettop(L) + extra + 1 : extra;
    lua_getfield(L, LUA_REGISTRYINDEX, "platter.hooks");
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    lua_getfield(L, -1, "phase");
    lua_remove(L, -2);
    if (!lua_isfunction(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    lua_pushvalue(L, idx);
    lua_pushstring(L, kind);
    if (extra)
        lua_pushvalue(L, extra);
    else
        lua_pushnil(L);
    lua_call(L, 3, 0);
}

/* ---- methods ----------------------------------------------------------------- */

/* s:percentile(p) -> latency in ns at percentile p (0..100) */
static int l_stats_percentile(lua_State *L)
{
    struct pl_phase *ph = pl_checkphase(L, 1);
    lua_Number p = luaL_checknumber(L, 2);
    luaL_argcheck(L, p >= 0 && p <= 100, 2, "percentile must be within 0..100");
    uint64_t v = pl_hist_percentile(&ph->st.hist, p);
    /* a bin's representative value can lie outside what was seen: keep
     * min <= percentile <= max, which the exact answer always satisfies */
    if (ph->st.hist.count && ph->st.lat_min <= ph->st.lat_max) {
        if (v < ph->st.lat_min)
            v = ph->st.lat_min;
        if (v > ph->st.lat_max)
            v = ph->st.lat_max;
    }
    pl_pushu64(L, v);
    return 1;
}

/* s:mean() -> mean latency in ns */
static int l_stats_mean(lua_State *L)
{
    lua_pushnumber(L, pl_stats_mean(&pl_checkphase(L, 1)->st));
    return 1;
}

/* s:stdev() -> sample standard deviation of the latencies in ns (n-1; 0 below 2 ops) */
static int l_stats_stdev(lua_State *L)
{
    lua_pushnumber(L, pl_stats_stdev(&pl_checkphase(L, 1)->st));
    return 1;
}

/* s:min() -> smallest latency in ns (0 when empty) */
static int l_stats_min(lua_State *L)
{
    struct pl_phase *ph = pl_checkphase(L, 1);
    pl_pushu64(L, ph->st.ops ? ph->st.lat_min : 0);
    return 1;
}

/* s:max() -> largest latency in ns */
static int l_stats_max(lua_State *L)
{
    pl_pushu64(L, pl_checkphase(L, 1)->st.lat_max);
    return 1;
}

/* s:merge(other) -> s, with other's counts, histogram and CPU added */
static int l_stats_merge(lua_State *L)
{
    struct pl_phase *a = pl_checkphase(L, 1);
    struct pl_phase *b = pl_checkphase(L, 2);
    pl_stats_merge(&a->st, &b->st);
    lua_settop(L, 1);
    return 1;
}

/* s:stop() -> s, stops a phase started with p.phase(name) */
static int l_stats_stop(lua_State *L)
{
    struct pl_phase *ph = pl_checkphase(L, 1);
    int was_active = ph->active;
    pl_phase_stop(L, ph);
    lua_settop(L, 1);
    if (was_active)
        pl_hook_phase(L, 1, "phase", 0);
    return 1;
}

/* s:buckets() -> { {lo, hi, count}, ... } of the non-empty histogram bins */
static int l_stats_buckets(lua_State *L)
{
    struct pl_phase *ph = pl_checkphase(L, 1);
    lua_newtable(L);
    int n = 0;
    for (unsigned i = 0; i < PL_HIST_NR; i++) {
        if (!ph->st.hist.bins[i])
            continue;
        lua_createtable(L, 3, 0);
        pl_pushu64(L, pl_hist_lower(i));
        lua_rawseti(L, -2, 1);
        pl_pushu64(L, i + 1 < PL_HIST_NR ? pl_hist_lower(i + 1) - 1 : UINT64_MAX);
        lua_rawseti(L, -2, 2);
        pl_pushu64(L, ph->st.hist.bins[i]);
        lua_rawseti(L, -2, 3);
        lua_rawseti(L, -2, ++n);
    }
    return 1;
}

static void push_errnos(lua_State *L, const struct pl_stats *st)
{
    lua_newtable(L);
    for (int i = 0; i < PL_STATS_ERRNOS; i++) {
        if (!st->errs[i].err)
            continue;
        pl_pushu64(L, st->errs[i].n);
        lua_rawseti(L, -2, st->errs[i].err);
    }
}

/* r.depths, r.submit, r.complete: {c1, ..., c7, total = N} (docs/api.md) */
static void push_dist(lua_State *L, const uint64_t *map, uint64_t total)
{
    lua_createtable(L, PL_DIST_NR, 1);
    for (int i = 0; i < PL_DIST_NR; i++) {
        pl_pushu64(L, map[i]);
        lua_rawseti(L, -2, i + 1);
    }
    pl_pushu64(L, total);
    lua_setfield(L, -2, "total");
}

static uint64_t dist_sum(const uint64_t *map)
{
    uint64_t n = 0;
    for (int i = 0; i < PL_DIST_NR; i++)
        n += map[i];
    return n;
}

/* s:done_by(t) -> ops, bytes: of a p.run with timeline = true, the completions at or
   before t (p.now()'s clock, ns), by a binary search of the timeline */
static int l_stats_done_by(lua_State *L)
{
    struct pl_phase *ph = pl_checkphase(L, 1);
    lua_Number t = luaL_checknumber(L, 2);
    if (!ph->has_tl)
        return luaL_error(L, "done_by: '%s' has no timeline (give p.run timeline = true)",
                          ph->name);
    if (ph->tl_lost) { /* (lua_pushfstring has no %llu: Lua 5.4 raised "invalid option") */
        char n[24];
        snprintf(n, sizeof n, "%llu", (unsigned long long)ph->tl_lost);
        return luaL_error(L, "done_by: '%s' lost %s completions of its timeline (out of memory)",
                          ph->name, n);
    }
    size_t lo = 0, hi = ph->tl_n; /* the first completion after t */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((lua_Number)ph->tl_t[mid] <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    pl_pushu64(L, (uint64_t)lo);
    pl_pushu64(L, lo ? ph->tl_bytes[lo - 1] : 0);
    return 2;
}

/* core._attach(s, key, value): a field a trusted module adds to stats (s.world of a
   collective phase); read as s.key after the built-in fields */
static int l_stats_attach(lua_State *L)
{
    struct pl_phase *ph = pl_checkphase(L, 1);
    luaL_checkstring(L, 2);
    lua_settop(L, 3);
    if (ph->extra == LUA_NOREF) {
        lua_newtable(L);
        ph->extra = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, ph->extra);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    lua_rawset(L, -3);
    return 0;
}

static const luaL_Reg stats_methods[] = {
    {"buckets", l_stats_buckets},
    {"done_by", l_stats_done_by},
    {"max", l_stats_max},
    {"mean", l_stats_mean},
    {"merge", l_stats_merge},
    {"min", l_stats_min},
    {"percentile", l_stats_percentile},
    {"stdev", l_stats_stdev},
    {"stop", l_stats_stop},
    {NULL, NULL},
};

/* s.series: { {t, ops, bytes, iops, bw, lat_mean, lat_min, lat_p50, lat_p99, lat_max}, ... }
   of the intervals kept so far (t: the end, in seconds from the start); nil without one */
static void push_series(lua_State *L, const struct pl_series *sr)
{
    if (!sr) {
        lua_pushnil(L);
        return;
    }
    lua_createtable(L, (int)sr->n, 0);
    uint64_t prev = 0;
    for (size_t i = 0; i < sr->n; i++) {
        const struct pl_series_point *p = &sr->pts[i];
        double secs = (double)(p->t_ns - prev) / 1e9; /* this interval's length */
        prev = p->t_ns;
        lua_createtable(L, 0, 10);
        lua_pushnumber(L, (double)p->t_ns / 1e9);
        lua_setfield(L, -2, "t");
        pl_pushu64(L, p->ops);
        lua_setfield(L, -2, "ops");
        pl_pushu64(L, p->bytes);
        lua_setfield(L, -2, "bytes");
        lua_pushnumber(L, secs > 0 ? (double)p->ops / secs : 0.0);
        lua_setfield(L, -2, "iops");
        lua_pushnumber(L, secs > 0 ? (double)p->bytes / secs : 0.0);
        lua_setfield(L, -2, "bw");
        lua_pushnumber(L, p->ops ? (double)p->lat_sum / (double)p->ops : 0.0);
        lua_setfield(L, -2, "lat_mean");
        const uint64_t v[4] = {p->lat_min, p->p50, p->p99, p->lat_max};
        static const char *const names[4] = {"lat_min", "lat_p50", "lat_p99", "lat_max"};
        for (int k = 0; k < 4; k++) {
            pl_pushu64(L, v[k]);
            lua_setfield(L, -2, names[k]);
        }
        lua_rawseti(L, -2, (int)i + 1);
    }
}

/* Fields are computed on access, so a running phase shows live values. */
static int l_stats__index(lua_State *L)
{
    struct pl_phase *ph = pl_checkphase(L, 1);
    const struct pl_stats *st = &ph->st;
    const char *k = luaL_checkstring(L, 2);
    double secs = pl_stats_seconds(st);
    if (strcmp(k, "name") == 0)
        lua_pushstring(L, ph->name);
    else if (strcmp(k, "ops") == 0)
        pl_pushu64(L, st->ops);
    else if (strcmp(k, "bytes") == 0)
        pl_pushu64(L, st->bytes);
    else if (strcmp(k, "errors") == 0)
        pl_pushu64(L, st->errors);
    else if (strcmp(k, "errno") == 0)
        push_errnos(L, st);
    else if (strcmp(k, "seconds") == 0)
        lua_pushnumber(L, secs);
    else if (strcmp(k, "user") == 0)
        lua_pushnumber(L, st->user);
    else if (strcmp(k, "sys") == 0)
        lua_pushnumber(L, st->sys);
    else if (strcmp(k, "cpu_pct") == 0)
        lua_pushnumber(L, secs > 0 ? (st->user + st->sys) / secs * 100.0 : 0.0);
    else if (strcmp(k, "iops") == 0)
        lua_pushnumber(L, secs > 0 ? (double)st->ops / secs : 0.0);
    else if (strcmp(k, "bw") == 0)
        lua_pushnumber(L, secs > 0 ? (double)st->bytes / secs : 0.0);
    else if (strcmp(k, "mbps") == 0)
        lua_pushnumber(L, secs > 0 ? (double)st->bytes / secs / 1e6 : 0.0);
    else if (strcmp(k, "mibps") == 0)
        lua_pushnumber(L, secs > 0 ? (double)st->bytes / secs / 1048576.0 : 0.0);
    else if (strcmp(k, "running") == 0)
        lua_pushboolean(L, ph->active);
    else if (strcmp(k, "cache_intended") == 0)
        lua_pushboolean(L, ph->cache_intended);
    else if (strcmp(k, "lat") == 0)
        lua_pushvalue(L, 1); /* r.lat:percentile(99) reads as in the design sketch */
    else if (strcmp(k, "read") == 0 || strcmp(k, "write") == 0 || strcmp(k, "fsync") == 0) {
        int ref = ph->sub[k[0] == 'r' ? 0 : k[0] == 'w' ? 1 : 2];
        if (ref == LUA_NOREF)
            lua_pushnil(L);
        else
            lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    } else if (strcmp(k, "stopped") == 0) {
        if (ph->stopped[0])
            lua_pushstring(L, ph->stopped);
        else
            lua_pushnil(L);
    } else if (strcmp(k, "error") == 0) {
        if (ph->error[0])
            lua_pushstring(L, ph->error);
        else
            lua_pushnil(L);
    } else if (strcmp(k, "failed") == 0)
        lua_pushboolean(L, ph->error[0] != 0 && strcmp(ph->stopped, "error") == 0);
    else if (strcmp(k, "shorts") == 0)
        pl_pushu64(L, ph->shorts);
    else if (ph->has_depths && strcmp(k, "depths") == 0)
        push_dist(L, ph->depths, ph->depth_rw);
    else if (ph->has_depths && strcmp(k, "submit") == 0)
        push_dist(L, ph->submit, dist_sum(ph->submit));
    else if (ph->has_depths && strcmp(k, "complete") == 0)
        push_dist(L, ph->complete, dist_sum(ph->complete));
    else if (strcmp(k, "slat") == 0) {
        if (ph->slat == LUA_NOREF)
            lua_pushnil(L);
        else
            lua_rawgeti(L, LUA_REGISTRYINDEX, ph->slat);
    } else if (strcmp(k, "samples") == 0) {
        if (ph->samples == LUA_NOREF)
            lua_pushnil(L);
        else
            lua_rawgeti(L, LUA_REGISTRYINDEX, ph->samples);
    } else if (strcmp(k, "steady") == 0) {
        if (ph->steady == LUA_NOREF)
            lua_pushnil(L);
        else
            lua_rawgeti(L, LUA_REGISTRYINDEX, ph->steady);
    } else if (strcmp(k, "io_bw") == 0 || strcmp(k, "io_iops") == 0) {
        int ref = k[3] == 'b' ? ph->io_bw : ph->io_iops;
        if (ref == LUA_NOREF)
            lua_pushnil(L);
        else
            lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    } else if (strcmp(k, "samples_dropped") == 0)
        pl_pushu64(L, ph->samples_dropped);
    else if (strcmp(k, "series") == 0)
        push_series(L, ph->series);
    else if (strcmp(k, "series_dropped") == 0) {
        if (ph->series)
            pl_pushu64(L, ph->series->dropped);
        else
            lua_pushnil(L);
    } else if (ph->has_verify && strcmp(k, "verify_errors") == 0)
        pl_pushu64(L, ph->verify_errors);
    else if (ph->has_verify && strcmp(k, "verify_error") == 0) {
        if (ph->verify_error[0])
            lua_pushstring(L, ph->verify_error);
        else
            lua_pushnil(L);
    } else {
        if (ph->extra != LUA_NOREF) {
            lua_rawgeti(L, LUA_REGISTRYINDEX, ph->extra);
            lua_getfield(L, -1, k);
            if (!lua_isnil(L, -1))
                return 1;
            lua_pop(L, 2);
        }
        luaL_getmetatable(L, PL_STATS_MT);
        lua_getfield(L, -1, "methods");
        lua_getfield(L, -1, k);
    }
    return 1;
}

static int l_stats__tostring(lua_State *L)
{
    struct pl_phase *ph = pl_checkphase(L, 1);
    double secs = pl_stats_seconds(&ph->st);
    lua_pushfstring(L, "platter.stats (%s: %d ops in %f s)", ph->name, (int)ph->st.ops, secs);
    return 1;
}

static int l_stats__gc(lua_State *L)
{
    struct pl_phase *ph = pl_checkphase(L, 1);
    /* active phases hold a registry ref, so they are never collected while recording;
       but lua_close collects them too: leave no pointer to freed memory in the list */
    if (ph->active) {
        pl_io_phase_remove(&ph->st);
        forget_open(ph);
        ph->active = 0;
    }
    for (int i = 0; i < 3; i++) {
        luaL_unref(L, LUA_REGISTRYINDEX, ph->sub[i]);
        ph->sub[i] = LUA_NOREF;
    }
    luaL_unref(L, LUA_REGISTRYINDEX, ph->samples);
    ph->samples = LUA_NOREF;
    luaL_unref(L, LUA_REGISTRYINDEX, ph->slat);
    ph->slat = LUA_NOREF;
    luaL_unref(L, LUA_REGISTRYINDEX, ph->steady);
    ph->steady = LUA_NOREF;
    luaL_unref(L, LUA_REGISTRYINDEX, ph->io_bw);
    luaL_unref(L, LUA_REGISTRYINDEX, ph->io_iops);
    ph->io_bw = ph->io_iops = LUA_NOREF;
    luaL_unref(L, LUA_REGISTRYINDEX, ph->extra);
    ph->extra = LUA_NOREF;
    free(ph->tl_t);
    free(ph->tl_bytes);
    pl_budget_give(ph->tl_cap * PL_TIMELINE_BYTES);
    ph->tl_t = ph->tl_bytes = NULL;
    ph->tl_n = ph->tl_cap = 0;
    if (ph->series) {
        pl_series_free(ph->series);
        free(ph->series);
        ph->series = NULL;
    }
    return 0;
}

/* pl_hook_phase of the stats at 1, the kind a light userdata at 2 (pushing it
   allocates nothing, so it works at the --max-memory bound) */
static int hook_protected(lua_State *L)
{
    pl_hook_phase(L, 1, (const char *)lua_touserdata(L, 2), 0);
    return 0;
}

void pl_hook_phase_protected(lua_State *L, int idx, const char *kind)
{
    if (idx < 0)
        idx = lua_gettop(L) + idx + 1;
    lua_pushcfunction(L, hook_protected);
    lua_pushvalue(L, idx);
    lua_pushlightuserdata(L, (void *)kind);
    if (lua_pcall(L, 2, 0, 0) != LUA_OK)
        lua_pop(L, 1);
}

/* The phase at idx, stopped by a Ctrl-C: recorded as interrupted, whatever the
   hook raises (the caller's own error goes on). */
static char cut_name[64]; /* the last phase a Ctrl-C or an error cut */

const char *pl_phase_cut_name(void)
{
    return cut_name;
}

void pl_phase_set_cut_name(const char *name)
{
    snprintf(cut_name, sizeof cut_name, "%s", name ? name : "");
}

static void record_interrupted(lua_State *L, int idx, struct pl_phase *ph)
{
    snprintf(ph->stopped, sizeof ph->stopped, "interrupted");
    snprintf(cut_name, sizeof cut_name, "%s", ph->name);
    pl_hook_phase_protected(L, idx, "phase");
}

void pl_phase_set_ended(lua_State *L, int err, struct pl_phase *ph)
{
    const char *msg = NULL;
    int is_exit = 0;
    lua_pushvalue(L, err); /* a copy: lua_tostring turns a number into a string where it is,
                              and the error goes on unchanged */
    if (lua_type(L, err) == LUA_TSTRING || lua_type(L, err) == LUA_TNUMBER) {
        msg = lua_tostring(L, -1);
    } else if (lua_istable(L, err)) { /* platter's own: p.exit's request, a usage error */
        lua_pushliteral(L, "platter_exit");
        lua_rawget(L, err);
        is_exit = !lua_isnil(L, -1);
        lua_pop(L, 1);
        lua_pushliteral(L, "platter_usage");
        lua_rawget(L, err);
        if (lua_type(L, -1) == LUA_TSTRING)
            msg = lua_tostring(L, -1); /* (the table keeps it alive) */
        lua_pop(L, 1);
    }
    snprintf(ph->stopped, sizeof ph->stopped, "%s", is_exit ? "exit" : "error");
    ph->error[0] = 0;
    if (!is_exit && msg)
        snprintf(ph->error, sizeof ph->error, "%s", msg);
    else if (!is_exit)
        snprintf(ph->error, sizeof ph->error, "(error object is a %s value)",
                 luaL_typename(L, err));
    lua_pop(L, 1);
}

/* The phase at idx, ended by the error value at err (not a Ctrl-C): recorded as
   far as it got, whatever the hook raises (the caller's error goes on unchanged).
   After --max-memory's error the record gets room beyond the bound meanwhile. */
static void record_error(lua_State *L, int idx, int err, struct pl_phase *ph, int memerr)
{
    pl_phase_set_ended(L, err, ph);
    snprintf(cut_name, sizeof cut_name, "%s", ph->name); /* a worker's result is named so */
    if (memerr)
        pl_host_heap_unbound(1);
    pl_hook_phase_protected(L, idx, "phase");
    if (memerr)
        pl_host_heap_unbound(0);
}

void pl_phase_close_interrupted(lua_State *L)
{
    while (n_open > 0) {
        struct pl_phase *ph = open_phases[n_open - 1];
        lua_rawgeti(L, LUA_REGISTRYINDEX, ph->ref); /* kept alive across the stop */
        int s = lua_gettop(L);
        pl_phase_stop(L, ph);
        record_interrupted(L, s, ph);
        lua_settop(L, s - 1);
    }
}

/* p.phase(name [, fn]) -> stats: with fn, runs it and stops; without, starts */
static int l_phase(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    int has_fn = !lua_isnoneornil(L, 2);
    if (has_fn)
        luaL_checktype(L, 2, LUA_TFUNCTION);
    int hide = 0, cache = 0;
    uint64_t interval = pl_cfg.interval_ns;
    if (!lua_isnoneornil(L, 3)) {
        luaL_checktype(L, 3, LUA_TTABLE);
        lua_getfield(L, 3, "collective");
        int collective = lua_toboolean(L, -1);
        lua_pop(L, 1);
        if (collective) { /* a phase of all ranks: lua/platter/collective.lua, set as a hook */
            lua_settop(L, 3);
            lua_getfield(L, LUA_REGISTRYINDEX, "platter.hooks");
            if (lua_istable(L, -1))
                lua_getfield(L, -1, "collective_phase");
            if (!lua_isfunction(L, -1))
                return luaL_error(L, "phase: collective phases are not available here");
            lua_insert(L, 1);
            lua_settop(L, 4);
            lua_call(L, 3, LUA_MULTRET);
            return lua_gettop(L);
        }
        lua_getfield(L, 3, "progress");
        luaL_argcheck(L, lua_isnil(L, -1) || lua_isboolean(L, -1), 3,
                      "'progress' must be a boolean");
        hide = lua_isboolean(L, -1) && !lua_toboolean(L, -1);
        lua_pop(L, 1);
        lua_getfield(L, 3, "cache");
        luaL_argcheck(L, lua_isnil(L, -1) || lua_isboolean(L, -1), 3, "'cache' must be a boolean");
        cache = lua_toboolean(L, -1);
        lua_pop(L, 1);
        lua_getfield(L, 3, "interval");
        interval = pl_interval_arg(L, -1, "phase");
        lua_pop(L, 1);
    }
    lua_settop(L, 2);
    pl_checkintr(L);
    struct pl_phase *ph = pl_phase_new(L, name);
    ph->noprogress = hide;
    ph->cache_intended = cache;
    ph->interval_ns = interval;
    int s = lua_gettop(L);
    pl_phase_start(L, s);
    if (!has_fn)
        return 1;
    lua_pushvalue(L, 2);
    lua_pushvalue(L, s);
    int rc = lua_pcall(L, 1, 0, 0);
    pl_phase_stop(L, ph);
    /* Ctrl-C: the phase so far is a result too (stopped = "interrupted", as a
       p.run cut short), recorded before the error goes on */
    if (rc != LUA_OK && pl_interrupted)
        record_interrupted(L, s, ph);
    else if (rc != LUA_OK) /* an error: as far as it got, too, with the error's message */
        record_error(L, s, lua_gettop(L), ph, pl_host_heap_error(L, -1));
    if (rc != LUA_OK)
        return lua_error(L); /* the phase is closed; pass the error on untouched */
    lua_settop(L, s);
    pl_hook_phase(L, s, "phase", 0);
    return 1;
}

static const luaL_Reg stats_meta[] = {
    {"__gc", l_stats__gc},
    {"__index", l_stats__index},
    {"__tostring", l_stats__tostring},
    {NULL, NULL},
};

static const luaL_Reg stats_funcs[] = {
    {"phase", l_phase},
    {"_attach", l_stats_attach},
    {NULL, NULL},
};

int luaopen_platter_stats(lua_State *L)
{
    /* a virtual clock: no line unless a test asks for one (progress.c) */
    pl_progress_init(isatty(2) && !pl_cfg.quiet &&
                     (!pl_clock_virtual || getenv("PLATTER_PROGRESS_MS") != NULL));
    luaL_newmetatable(L, PL_STATS_MT);
    lua_pushliteral(L, PL_STATS_MT); /* LuaJIT does not set it: type errors name it */
    lua_setfield(L, -2, "__name");
    luaL_setfuncs(L, stats_meta, 0);
    lua_newtable(L);
    luaL_setfuncs(L, stats_methods, 0);
    lua_setfield(L, -2, "methods");
    /* Every stats object shares this metatable, and the result writer reads phases
       through it: a script that could reach it (getmetatable) could rewrite the
       methods or __index and so forge the figures of the record. */
    lua_pushliteral(L, PL_STATS_MT);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
    luaL_newlib(L, stats_funcs);
    return 1;
}
