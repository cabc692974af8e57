/*
 * p.run{...}: turn a Lua table into a pl_job_spec, run the job in C, and
 * return its stats (with read/write/fsync sub-stats). The optional `gen`
 * function is the only Lua code that runs inside the loop.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "guard.h"
#include "io.h"
#include "budget.h"
#include "job.h"
#include "l_util.h"
#include "l_file.h"
#include "l_open.h"
#include "l_stats.h"
#include "progress.h"
#include "rng.h"
#include "units.h"
#include "host.h"
#include "hot.h"

static const char *const run_keys[] = {
    "align",
    "batch",
    "bs",
    "bs_list",
    "bytes",
    "center",
    "compress_chunk",
    "compress_pct",
    "count",
    "engine",
    "file",
    "files",
    "fdatasync",
    "fsync_every",
    "gen",
    "interval",
    "invalidate_every",
    "io_samples",
    "iopoll",
    "live",
    "live_slot",
    "log",
    "name",
    "offsets",
    "on_error",
    "op",
    "pareto_h",
    "pattern",
    "progress",
    "qd",
    "ramp",
    "random_pct",
    "range",
    "rate_bps",
    "rate_cycle_ms",
    "rate_iops",
    "rate_latency",
    "rate_min_bps",
    "rate_min_iops",
    "rate_process",
    "read_pct",
    "reap_max",
    "reap_min",
    "refill",
    "sample_ms",
    "scatter",
    "seconds",
    "seed",
    "seq_nr",
    "sigma",
    "skip",
    "slat",
    "sqpoll",
    "sqpoll_idle_ms",
    "steady",
    "stride",
    "theta",
    "think_us",
    "timeline",
    "verify",
    "verify_fatal",
    "verify_pass",
    "weights",
    "write_bs",
    "write_bs_list",
    "write_weights",
    "zones",
    NULL,
};

/* A boolean field: 1 or 0 (def when absent). */
static int getbool(lua_State *L, int t, const char *k, int def)
{
    lua_getfield(L, t, k);
    int v = def;
    if (lua_isboolean(L, -1))
        v = lua_toboolean(L, -1);
    else if (!lua_isnil(L, -1))
        luaL_error(L, "run: '%s' must be a boolean, not %s", k, luaL_typename(L, -1));
    lua_pop(L, 1);
    return v;
}

static int getnum(lua_State *L, int t, const char *k, lua_Number *v)
{
    lua_getfield(L, t, k);
    int has = !lua_isnil(L, -1);
    if (has) {
        if (!lua_isnumber(L, -1) || lua_type(L, -1) == LUA_TSTRING)
            luaL_error(L, "run: '%s' must be a number, not %s", k, luaL_typename(L, -1));
        *v = lua_tonumber(L, -1);
        if (*v < 0 || *v != *v)
            luaL_error(L, "run: '%s' must not be negative", k);
    }
    lua_pop(L, 1);
    return has;
}

static uint64_t getint(lua_State *L, int t, const char *k, uint64_t def)
{
    lua_Number v;
    if (!getnum(L, t, k, &v))
        return def;
    if (!pl_isexact(v))
        luaL_error(L, "run: '%s' must be an integer (below 2^53)", k);
    return (uint64_t)v;
}

/*
 * The size at stack index idx, a number or a string like "4k", from the field
 * named what ("'bs'", "range[2]"): errors name the field, not a stack slot.
 */
/* The size string at idx parsed from byte from on (past skip's sign); an error quotes
   it whole. */
static uint64_t sizestr(lua_State *L, int idx, size_t from, const char *what)
{
    uint64_t v;
    const char *why, *str = lua_tostring(L, idx);
    if (pl_nul_inside(L, idx, &why) || pl_units_parse_size(str + from, &v, &why) < 0)
        luaL_error(L, "run: %s: bad size '%s': %s", what, str, why);
    return v;
}

static uint64_t fieldsize(lua_State *L, int idx, const char *what)
{
    if (lua_type(L, idx) == LUA_TSTRING)
        return sizestr(L, idx, 0, what);
    if (lua_type(L, idx) != LUA_TNUMBER)
        luaL_error(L, "run: %s must be a size (a number or a string like \"4k\"), not %s", what,
                   luaL_typename(L, idx));
    lua_Number n = lua_tonumber(L, idx);
    if (n < 0)
        luaL_error(L, "run: %s must not be negative", what);
    if (!pl_isexact(n))
        luaL_error(L, "run: %s must be an integer (below 2^53)", what);
    return (uint64_t)n;
}

/* A name with a NUL byte inside (the string on top, field k) is refused: C would
 * look up only the part before it. */
static void refuse_nul(lua_State *L, const char *k)
{
    const char *why;
    if (pl_nul_inside(L, -1, &why))
        luaL_error(L, "run: '%s' holds a NUL byte", k);
}

/* The name in field k of the table at 1 (def when nil), pushed: a string, without
 * a NUL byte inside. */
static const char *optname(lua_State *L, const char *k, const char *def)
{
    lua_getfield(L, 1, k);
    if (lua_isnil(L, -1))
        return def;
    if (lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "run: '%s' must be a string, not %s", k, luaL_typename(L, -1));
    refuse_nul(L, k);
    return lua_tostring(L, -1);
}

/* An integer field that C keeps in an unsigned int: within lo..hi, or an error
 * (a value past 2^32 must not wrap around to a small one). */
static unsigned getuint(lua_State *L, int t, const char *k, unsigned def, unsigned lo, unsigned hi)
{
    uint64_t v = getint(L, t, k, def);
    if (v < lo || v > hi) {
        char msg[96]; /* (lua_pushfstring has no %u) */
        snprintf(msg, sizeof msg, "run: '%s' must be within %u..%u", k, lo, hi);
        luaL_error(L, "%s", msg);
    }
    return (unsigned)v;
}

/* A size field: a number or a string like "4k". */
static uint64_t getsize(lua_State *L, int t, const char *k, uint64_t def)
{
    lua_getfield(L, t, k);
    uint64_t v = def;
    if (!lua_isnil(L, -1)) {
        char what[48];
        snprintf(what, sizeof what, "'%s'", k);
        v = fieldsize(L, lua_gettop(L), what);
    }
    lua_pop(L, 1);
    return v;
}

/* Copy a Lua array of sizes into a malloc'd array (kept alive as a userdata). */
static uint64_t *getlist(lua_State *L, int t, const char *k, size_t *n)
{
    lua_getfield(L, t, k);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        *n = 0;
        return NULL;
    }
    if (!lua_istable(L, -1))
        luaL_error(L, "run: '%s' must be a list", k);
    int list = lua_gettop(L);
    *n = pl_rawlen(L, list);
    uint64_t *out = lua_newuserdata(L, (*n ? *n : 1) * sizeof *out);
    lua_insert(L, list); /* the userdata stays below the list until the run ends */
    for (size_t i = 0; i < *n; i++) {
        lua_rawgeti(L, list + 1, (int)i + 1);
        if (lua_type(L, -1) == LUA_TSTRING) {
            char what[64];
            snprintf(what, sizeof what, "%s[%d]", k, (int)i + 1);
            out[i] = fieldsize(L, lua_gettop(L), what);
        } else {
            lua_Number v = lua_tonumber(L, -1);
            if (!lua_isnumber(L, -1) || !pl_isexact(v))
                luaL_error(L, "run: %s[%d] must be a non-negative integer", k, (int)i + 1);
            out[i] = (uint64_t)v;
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1); /* the list; the userdata stays on the stack */
    return out;
}

/* A string field that must be one of list (def when absent): its index. */
static int getoption(lua_State *L, int t, const char *k, const char *def, const char *const list[])
{
    lua_getfield(L, t, k);
    const char *v = lua_isnil(L, -1)                 ? def
                    : lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1)
                                                     : NULL;
    if (v && !lua_isnil(L, -1))
        refuse_nul(L, k);
    for (int i = 0; v && list[i]; i++)
        if (strcmp(v, list[i]) == 0) {
            lua_pop(L, 1);
            return i;
        }
    char names[128] = "";
    for (int i = 0; list[i]; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                 list[i]);
    if (!v)
        luaL_error(L, "run: '%s' must be a string (%s), not %s", k, names, luaL_typename(L, -1));
    return luaL_error(L, "run: unknown %s '%s' (%s)", k, v, names);
}

static void check_keys(lua_State *L, int t)
{
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        int ok = 0;
        if (lua_type(L, -1) == LUA_TSTRING)
            for (int i = 0; run_keys[i]; i++)
                ok |= strcmp(lua_tostring(L, -1), run_keys[i]) == 0;
        if (!ok)
            luaL_error(L, "run: unknown field '%s'",
                       lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, -1));
    }
}

/* progress = false in the p.run table at 1: the workload shows its own live output */
static int hide_progress(lua_State *L)
{
    lua_getfield(L, 1, "progress");
    int hide = lua_isboolean(L, -1) && !lua_toboolean(L, -1);
    lua_pop(L, 1);
    return hide;
}

static struct pl_file *checkfile(lua_State *L, int idx, const char *what)
{
    struct pl_file *f = luaL_testudata(L, idx, PL_FILE_MT);
    if (!f)
        luaL_error(L, "run: '%s' must be a file from p.open, not %s", what, luaL_typename(L, idx));
    if (f->fd < 0)
        luaL_error(L, "run: '%s' is a closed file", what);
    return f;
}

/* Files of the job into a userdata array; returns the count. */
static struct pl_file **getfiles(lua_State *L, int t, unsigned *n)
{
    lua_getfield(L, t, "file");
    lua_getfield(L, t, "files");
    int one = lua_gettop(L) - 1, many = lua_gettop(L);
    if (!lua_isnil(L, one) && !lua_isnil(L, many))
        luaL_error(L, "run: give 'file' or 'files', not both");
    if (lua_isnil(L, one) && lua_isnil(L, many))
        luaL_error(L, "run: 'file' is missing (a file from p.open)");
    struct pl_file **fs;
    if (!lua_isnil(L, one)) {
        fs = lua_newuserdata(L, sizeof *fs);
        fs[0] = checkfile(L, one, "file");
        *n = 1;
    } else {
        if (!lua_istable(L, many))
            luaL_error(L, "run: 'files' must be a list of files, not %s", luaL_typename(L, many));
        *n = (unsigned)pl_rawlen(L, many);
        if (!*n)
            luaL_error(L, "run: 'files' is empty");
        fs = lua_newuserdata(L, *n * sizeof *fs);
        for (unsigned i = 0; i < *n; i++) {
            lua_rawgeti(L, many, (int)i + 1);
            fs[i] = checkfile(L, lua_gettop(L), "files[i]");
            lua_pop(L, 1);
        }
    }
    lua_replace(L, one); /* keep the userdata (files stay referenced by the table) */
    lua_pop(L, 1);
    return fs;
}

static void describe_error(char *buf, size_t n, const struct pl_job_result *r,
                           struct pl_file **files)
{
    if (r->stopped == PL_STOP_RATE_MIN && r->rate_min_iops) /* fio's words */
        snprintf(buf, n, "rate_iops_min=%llu not met, got %llu IOPS",
                 (unsigned long long)r->rate_min_want, (unsigned long long)r->rate_min_got);
    else if (r->stopped == PL_STOP_RATE_MIN)
        snprintf(buf, n, "rate_min=%lluB/s not met, got %lluB/s",
                 (unsigned long long)r->rate_min_want, (unsigned long long)r->rate_min_got);
    else if (r->err_op == PL_OP_FSYNC)
        snprintf(buf, n, "fsync %s: %s", files[r->err_file]->path, strerror(r->err));
    else
        snprintf(buf, n, "%s %s at offset %llu: %s", pl_op_names[r->err_op],
                 files[r->err_file]->path, (unsigned long long)r->err_off, strerror(r->err));
}

/* r.verify_error: "crc32c at offset 8192 of f.dat: expected 0x..., got 0x..." */
static void describe_verify(char *buf, size_t n, const struct pl_job_result *r,
                            struct pl_file **files)
{
    const struct pl_vfy_fail *f = &r->vfail;
    snprintf(buf, n, "%s at offset %llu of %s: expected %s, got %s", f->what,
             (unsigned long long)f->off, files[r->vfail_file]->path, f->expected, f->got);
}

/* iopoll, sqpoll and sqpoll_idle_ms (io_uring only): a copy of the engine's ops carrying
   them, left on the stack as a userdata with the other arrays of the spec. */
static void get_uring_opts(lua_State *L, struct pl_job_spec *s)
{
    int iopoll = getbool(L, 1, "iopoll", 0), sqpoll = getbool(L, 1, "sqpoll", 0);
    lua_Number idle = 0;
    int has_idle = getnum(L, 1, "sqpoll_idle_ms", &idle);
    if (!iopoll && !sqpoll && !has_idle)
        return;
    const char *which = iopoll ? "iopoll" : sqpoll ? "sqpoll" : "sqpoll_idle_ms";
    if (strcmp(s->engine->name, "io_uring") != 0)
        luaL_error(L, "run: '%s' needs engine = \"io_uring\" (not \"%s\")", which, s->engine->name);
    if (has_idle && !sqpoll)
        luaL_error(L, "run: 'sqpoll_idle_ms' needs sqpoll = true");
    if (iopoll && s->fsync_every)
        luaL_error(L, "run: an iopoll ring takes reads and writes only, not 'fsync_every'");
    if (!pl_isexact(idle) || idle > 4294967295.0)
        luaL_error(L, "run: 'sqpoll_idle_ms' must be an integer number of milliseconds");
    struct uring_ops {
        struct pl_engine_ops ops;
        struct pl_uring_opts o;
    } *u = lua_newuserdata(L, sizeof *u);
    u->o.iopoll = iopoll;
    u->o.sqpoll = sqpoll;
    u->o.sq_idle_ms = (unsigned)idle;
    s->engine = pl_engine_with(&u->ops, s->engine, &u->o);
}

/* rate_min_bps / rate_min_iops: a number (both directions) or { read =, write = } */
static void get_per_dir(lua_State *L, const char *k, double out[2])
{
    lua_getfield(L, 1, k);
    if (lua_istable(L, -1)) {
        int t = lua_gettop(L);
        lua_Number v;
        if (getnum(L, t, "read", &v))
            out[0] = v;
        if (getnum(L, t, "write", &v))
            out[1] = v;
        lua_pushnil(L);
        while (lua_next(L, t)) {
            lua_pop(L, 1);
            const char *key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
            if (strcmp(key, "read") != 0 && strcmp(key, "write") != 0)
                luaL_error(L, "run: '%s' takes a number or { read =, write = }", k);
        }
    } else if (!lua_isnil(L, -1)) {
        lua_Number v;
        getnum(L, 1, k, &v);
        out[0] = out[1] = v;
    }
    lua_pop(L, 1);
}

#define PL_SSG_MT "platter.steady_group"

/* The criteria of a steady table at t: kind, pct, limit, duration_s, ramp_s (job.h ss_*). */
static void steady_criteria(lua_State *L, int t, const char *what, unsigned *flags, double *limit,
                            unsigned *dur, uint64_t *ramp_ns)
{
    static const char *const kinds[] = {"iops", "iops_slope", "bw", "bw_slope", NULL};
    int kind = getoption(L, t, "kind", "iops_slope", kinds);
    *flags = (kind < 2 ? PL_SS_IOPS : 0) | (kind % 2 ? PL_SS_SLOPE : 0);
    if (getbool(L, t, "pct", 0))
        *flags |= PL_SS_PCT;
    lua_Number v;
    if (!getnum(L, t, "limit", &v))
        luaL_error(L, "%s needs a limit", what);
    *limit = v;
    if (!getnum(L, t, "duration_s", &v) || !pl_isexact(v) || v < 1 || v > 1e6)
        luaL_error(L, "%s needs duration_s, a whole number of seconds (1 or more)", what);
    *dur = (unsigned)v;
    *ramp_ns = getnum(L, t, "ramp_s", &v) ? pl_scale_u64(v, 1e9) : 0;
}

/* p.steady_group(n, steady) -> a group of n p.run jobs judged as one (steady.h) */
static int l_steady_group(lua_State *L)
{
    uint64_t n = pl_checkoffset(L, 1, "member count"); /* (LuaJIT's checkinteger takes 1.5 as 1) */
    luaL_argcheck(L, n >= 1 && n <= 1024, 1, "member count must be within 1..1024");
    luaL_checktype(L, 2, LUA_TTABLE);
    unsigned flags, dur;
    double limit;
    uint64_t ramp;
    steady_criteria(L, 2, "steady_group: the steady table", &flags, &limit, &dur, &ramp);
    struct pl_steady_group **u = lua_newuserdata(L, sizeof *u);
    *u = NULL;
    luaL_getmetatable(L, PL_SSG_MT);
    lua_setmetatable(L, -2);
    *u = pl_ssg_new((unsigned)n, flags, limit, dur, ramp);
    if (!*u)
        return luaL_error(L, "steady_group: cannot map the shared group: %s", strerror(errno));
    return 1;
}

static int l_steady_group_gc(lua_State *L)
{
    struct pl_steady_group **u = luaL_checkudata(L, 1, PL_SSG_MT);
    pl_ssg_free(*u);
    *u = NULL;
    return 0;
}

#define PL_LIVE_MT "platter.live"

struct live {
    struct pl_live_slot *slot;
    unsigned n;
};

/* p.live(n) -> n slots of running counts in memory shared with forked workers */
static int l_live(lua_State *L)
{
    uint64_t n = pl_checkoffset(L, 1, "slot count");
    luaL_argcheck(L, n >= 1 && n <= 1024, 1, "slot count must be within 1..1024");
    struct live *u = lua_newuserdata(L, sizeof *u);
    u->slot = NULL;
    u->n = 0;
    luaL_getmetatable(L, PL_LIVE_MT);
    lua_setmetatable(L, -2);
    if (pl_budget_take((size_t)n * sizeof *u->slot)) {
        char why[256];
        return luaL_error(L, "live: %s", pl_budget_why("shared counts", why, sizeof why));
    }
    void *m = mmap(NULL, (size_t)n * sizeof *u->slot, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        pl_budget_give((size_t)n * sizeof *u->slot);
        return luaL_error(L, "live: cannot map the shared counts: %s", strerror(errno));
    }
    u->slot = m;
    u->n = (unsigned)n;
    lua_gc(L, LUA_GCSTEP, (int)((size_t)n * sizeof *u->slot / 1024)); /* (as push_job_stats) */
    return 1;
}

static struct pl_live_slot *live_slot(lua_State *L, int idx, int arg)
{
    struct live *u = luaL_checkudata(L, idx, PL_LIVE_MT);
    uint64_t i = pl_checkoffset(L, arg, "slot");
    if (!u->slot || i < 1 || i > (uint64_t)u->n) {
        char num[24]; /* (%f would print 2.0 on Lua 5.4) */
        snprintf(num, sizeof num, "%llu", (unsigned long long)i);
        luaL_error(L, "live: slot %s is not within 1..%d", num, (int)u->n);
    }
    return &u->slot[i - 1];
}

/* c:get(i) -> reads, writes, read bytes, written bytes, mark */
static int l_live_get(lua_State *L)
{
    const struct pl_live_slot *v = live_slot(L, 1, 2);
    for (int k = 0; k < 2; k++)
        pl_pushu64(L, __atomic_load_n(&v->ops[k], __ATOMIC_RELAXED));
    for (int k = 0; k < 2; k++)
        pl_pushu64(L, __atomic_load_n(&v->bytes[k], __ATOMIC_RELAXED));
    lua_pushinteger(L, (lua_Integer)__atomic_load_n(&v->mark, __ATOMIC_RELAXED));
    return 5;
}

/* c:mark(i, code): the script's own state code for slot i */
static int l_live_mark(lua_State *L)
{
    struct pl_live_slot *v = live_slot(L, 1, 2);
    __atomic_store_n(&v->mark, (int64_t)luaL_checkinteger(L, 3), __ATOMIC_RELAXED);
    return 0;
}

static int l_live_gc(lua_State *L)
{
    struct live *u = luaL_checkudata(L, 1, PL_LIVE_MT);
    if (u->slot) {
        munmap(u->slot, (size_t)u->n * sizeof *u->slot);
        pl_budget_give((size_t)u->n * sizeof *u->slot);
    }
    u->slot = NULL;
    return 0;
}

/* live = c, live_slot = i: count the run's completions in slot i of p.live's c */
static void get_live(lua_State *L, struct pl_job_spec *s)
{
    lua_getfield(L, 1, "live");
    if (!lua_isnil(L, -1)) {
        if (!luaL_testudata(L, -1, PL_LIVE_MT))
            luaL_error(L, "run: 'live' must be counts of p.live, not %s", luaL_typename(L, -1));
        lua_getfield(L, 1, "live_slot");
        if (!lua_isnumber(L, -1))
            luaL_error(L, "run: 'live' needs 'live_slot', the slot to count in");
        s->live = live_slot(L, -2, lua_gettop(L));
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* steady = { kind = "iops"|"iops_slope"|"bw"|"bw_slope", limit = n, pct = bool,
   duration_s = n, ramp_s = n [, group = g, member = i] }: fio's steady state (job.h ss_*) */
static void get_steady(lua_State *L, struct pl_job_spec *s)
{
    static const char *const keys[] = {"kind",   "limit", "pct",    "duration_s",
                                       "ramp_s", "group", "member", NULL};
    lua_getfield(L, 1, "steady");
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    if (!lua_istable(L, -1))
        luaL_error(L, "run: 'steady' must be a table, not %s", luaL_typename(L, -1));
    int t = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        const char *key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
        int i = 0;
        while (keys[i] && strcmp(key, keys[i]) != 0)
            i++;
        if (!keys[i])
            luaL_error(L, "run: 'steady' takes kind, limit, pct, duration_s, ramp_s, group and "
                          "member");
    }
    steady_criteria(L, t, "run: 'steady'", &s->ss_flags, &s->ss_limit, &s->ss_dur, &s->ss_ramp_ns);
    lua_getfield(L, t, "group");
    if (!lua_isnil(L, -1)) {
        struct pl_steady_group **u = luaL_testudata(L, -1, PL_SSG_MT);
        if (!u || !*u)
            luaL_error(L, "run: 'steady.group' must be a group of p.steady_group, not %s",
                       luaL_typename(L, -1));
        struct pl_steady_group *g = *u;
        if (g->ss.flags != s->ss_flags || g->ss.limit != s->ss_limit || g->ss.dur != s->ss_dur ||
            g->ramp_ns != s->ss_ramp_ns)
            luaL_error(L, "run: 'steady' must have its group's kind, limit, pct, duration_s and "
                          "ramp_s");
        lua_Number m;
        if (!getnum(L, t, "member", &m) || !pl_isexact(m) || m < 1 || m > g->n)
            luaL_error(L,
                       "run: 'steady.member' must be a whole number within 1..%d (the group's "
                       "members)",
                       (int)g->n);
        if (g->m[(unsigned)m - 1].joined)
            luaL_error(L, "run: member %d of the steady group has run already", (int)m);
        s->ss_group = g;
        s->ss_member = (unsigned)m - 1;
    } else if (!lua_isnil(L, (lua_getfield(L, t, "member"), -1))) {
        luaL_error(L, "run: 'steady.member' needs 'steady.group'");
    }
    lua_pop(L, 2);
}

/* skip: a signed number of bytes, or a size string with an optional leading '-' */
static int64_t get_skip(lua_State *L)
{
    lua_getfield(L, 1, "skip");
    int64_t v = 0;
    if (lua_type(L, -1) == LUA_TSTRING) {
        int neg = lua_tostring(L, -1)[0] == '-';
        uint64_t u = sizestr(L, lua_gettop(L), (size_t)neg, "'skip'");
        if (u > (uint64_t)INT64_MAX)
            luaL_error(L, "run: 'skip' is too large");
        v = neg ? -(int64_t)u : (int64_t)u;
    } else if (!lua_isnil(L, -1)) {
        lua_Number n = lua_tonumber(L, -1);
        if (!lua_isnumber(L, -1) || n != n || n != (lua_Number)(int64_t)n || n > PL_MAX_EXACT ||
            n < -PL_MAX_EXACT)
            luaL_error(L, "run: 'skip' must be an integer number of bytes (or a size string)");
        v = (int64_t)n;
    }
    lua_pop(L, 1);
    return v;
}

/* zones = { {access, size}, ... }: size a percentage (zoned) or bytes (zoned_abs) */
static struct pl_zone *get_zones(lua_State *L, size_t *n)
{
    lua_getfield(L, 1, "zones");
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        *n = 0;
        return NULL;
    }
    if (!lua_istable(L, -1))
        luaL_error(L, "run: 'zones' must be a list of {access, size}");
    int list = lua_gettop(L);
    *n = pl_rawlen(L, list);
    if (*n == 0 || *n > PL_ZONE_SLOTS)
        luaL_error(L, "run: 'zones' must have 1..100 entries");
    struct pl_zone *z = lua_newuserdata(L, *n * sizeof *z);
    lua_insert(L, list); /* below the list, kept until the run ends */
    for (size_t i = 0; i < *n; i++) {
        lua_rawgeti(L, list + 1, (int)i + 1);
        int e = lua_gettop(L);
        if (!lua_istable(L, e))
            luaL_error(L, "run: zones[%d] must be {access, size}", (int)i + 1);
        lua_rawgeti(L, e, 1);
        lua_rawgeti(L, e, 2);
        lua_Number a = lua_tonumber(L, e + 1);
        if (!lua_isnumber(L, e + 1) || !pl_isexact(a) || a > 100)
            luaL_error(L, "run: zones[%d]: access must be a percentage 0..100", (int)i + 1);
        z[i].access = (unsigned)a;
        if (lua_isnil(L, e + 2))
            luaL_error(L, "run: zones[%d]: a size is missing", (int)i + 1);
        char what[48];
        snprintf(what, sizeof what, "zones[%d]", (int)i + 1);
        z[i].size = fieldsize(L, e + 2, what);
        lua_pop(L, 3);
    }
    lua_pop(L, 1);
    return z;
}

/* verify = "crc32c" | "md5" | "sha256" and verify_fatal (verify_pass: l_run) */
static void get_verify(lua_State *L, struct pl_job_spec *s)
{
    static const char *const kinds[] = {"none", "crc32c", "md5", "sha256", NULL};
    lua_getfield(L, 1, "verify");
    int given = !lua_isnil(L, -1);
    lua_pop(L, 1);
    if (given) /* the list is in enum pl_vfy_kind's order */
        s->verify = (enum pl_vfy_kind)getoption(L, 1, "verify", "none", kinds);
    s->verify_fatal = getbool(L, 1, "verify_fatal", 0);
    if (s->verify_fatal && !s->verify)
        luaL_error(L, "run: 'verify_fatal' needs 'verify'");
    lua_getfield(L, 1, "gen");
    int gen = !lua_isnil(L, -1);
    lua_pop(L, 1);
    if (s->verify && gen)
        luaL_error(L, "run: 'verify' needs a pattern job, not 'gen'");
}

/* The log spec of a job: descriptors of its own (dup'd), closed when it is collected. */
#define PL_LOGSPEC_MT "platter.logspec"

static int l_logspec_gc(lua_State *L)
{
    struct pl_log_spec *ls = luaL_checkudata(L, 1, PL_LOGSPEC_MT);
    for (int k = 0; k < PL_LOG_KINDS; k++)
        if (ls->fd[k] >= 0) {
            close(ls->fd[k]);
            ls->fd[k] = -1;
        }
    return 0;
}

/*
 * log = { lat = w, clat = w, slat = w, bw = w, iops = w, avg_ms = N, offset = bool }:
 * fio's log files, each to a writer of p.output_file (iolog.h). The spec is a
 * userdata left on the stack (as parse_spec's arrays are).
 */
static const struct pl_log_spec *get_log(lua_State *L)
{
    static const char *const kinds[PL_LOG_KINDS] = {"lat", "clat", "slat", "bw", "iops"};
    static const char *const keys[] = {"lat",  "clat",   "slat",   "bw",
                                       "iops", "avg_ms", "offset", NULL};
    lua_getfield(L, 1, "log");
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return NULL;
    }
    if (!lua_istable(L, -1))
        luaL_error(L, "run: 'log' must be a table, not %s", luaL_typename(L, -1));
    int t = lua_gettop(L);
    for (lua_pushnil(L); lua_next(L, t); lua_pop(L, 1)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        int i = 0;
        while (k && keys[i] && strcmp(k, keys[i]) != 0)
            i++;
        if (!k || !keys[i])
            luaL_error(L,
                       "run: unknown key '%s' in 'log' (lat, clat, slat, bw, iops, avg_ms, offset)",
                       k ? k : luaL_typename(L, -2));
    }
    struct pl_log_spec *ls = lua_newuserdata(L, sizeof *ls);
    for (int k = 0; k < PL_LOG_KINDS; k++)
        ls->fd[k] = -1;
    luaL_getmetatable(L, PL_LOGSPEC_MT);
    lua_setmetatable(L, -2);
    lua_insert(L, t); /* below the table, so it stays on the stack */
    t++;
    int any = 0;
    for (int k = 0; k < PL_LOG_KINDS; k++) {
        lua_getfield(L, t, kinds[k]);
        if (!lua_isnil(L, -1)) {
            int fd = pl_output_fd(L, lua_gettop(L));
            if (fd < 0)
                luaL_error(L, "run: log.%s must be a writer of p.output_file (not closed)",
                           kinds[k]);
            ls->fd[k] = fcntl(fd, F_DUPFD_CLOEXEC, 0);
            if (ls->fd[k] < 0)
                luaL_error(L, "run: log.%s: %s", kinds[k], strerror(errno));
            any = 1;
        }
        lua_pop(L, 1);
    }
    if (!any)
        luaL_error(L, "run: 'log' needs at least one of lat, clat, slat, bw, iops");
    lua_Number v;
    ls->avg_ms = 0;
    if (getnum(L, t, "avg_ms", &v)) {
        if (!pl_isexact(v))
            luaL_error(L, "run: 'log.avg_ms' must be an integer");
        ls->avg_ms = (uint64_t)v;
    }
    lua_getfield(L, t, "offset");
    ls->offset = lua_toboolean(L, -1);
    lua_pop(L, 2); /* offset, the table */
    return ls;
}

/* bs, or bs_list with weights (pre "": every I/O's; "write_": a mix job's writes') */
static void get_sizes(lua_State *L, const char *pre, uint64_t *bs, const uint64_t **list,
                      const double **weights, unsigned *n)
{
    char kbs[32], klist[32], kw[32];
    snprintf(kbs, sizeof kbs, "%sbs", pre);
    snprintf(klist, sizeof klist, "%sbs_list", pre);
    snprintf(kw, sizeof kw, "%sweights", pre);
    *bs = getsize(L, 1, kbs, 0);
    size_t nbs = 0, nw = 0;
    *list = getlist(L, 1, klist, &nbs);
    *n = (unsigned)nbs;
    uint64_t *w = getlist(L, 1, kw, &nw);
    if (w) {
        if (nw != nbs)
            luaL_error(L, "run: '%s' must have one entry per '%s' entry", kw, klist);
        double *dw = lua_newuserdata(L, nw * sizeof *dw);
        for (size_t i = 0; i < nw; i++)
            dw[i] = (double)w[i];
        *weights = dw;
    }
    if (*bs && *n)
        luaL_error(L, "run: give '%s' or '%s', not both", kbs, klist);
}

/*
 * Read the p.run table at index 1 into *sp. Arrays it needs (files, sizes,
 * offsets) are userdata left on the stack above index 1: keep them there, or
 * anchored, for as long as the job runs. g receives the generator, if any.
 */
static void parse_spec(lua_State *L, struct pl_job_spec *sp)
{
    static const char *const ops[] = {"read", "write", "mix", NULL};
    static const char *const on_err[] = {"stop", "continue", NULL};
    luaL_checktype(L, 1, LUA_TTABLE);
    check_keys(L, 1);
    pl_checkintr(L);

    struct pl_job_spec s;
    memset(&s, 0, sizeof s);
    s.files = getfiles(L, 1, &s.nfiles);

    s.op = (enum pl_job_op)getoption(L, 1, "op", "read", ops);
    s.read_pct = getuint(L, 1, "read_pct", 50, 0, 100);
    get_sizes(L, "", &s.bs, &s.bs_list, &s.bs_weights, &s.nbs);
    get_sizes(L, "write_", &s.write_bs, &s.write_bs_list, &s.write_bs_weights, &s.write_nbs);

    const char *pat = optname(L, "pattern", "seq");
    int kind = pl_pattern_kind_of(pat);
    if (kind < 0)
        luaL_error(L,
                   "run: unknown pattern '%s' (seq, reverse, random, reread, stride, zipf, "
                   "normal, list, shuffle, pareto, zoned, zoned_abs)",
                   pat);
    lua_pop(L, 1);
    s.pat.kind = (enum pl_pattern_kind)kind;
    s.pat.align = getsize(L, 1, "align", 0);
    s.pat.stride = getsize(L, 1, "stride", 0);
    lua_Number v;
    if (getnum(L, 1, "theta", &v))
        s.pat.theta = v;
    else
        s.pat.theta = 1.2;
    if (getnum(L, 1, "sigma", &v))
        s.pat.sigma = v;
    else
        s.pat.sigma = 0.1;
    s.pat.pareto_h = 0.2;
    if (getnum(L, 1, "pareto_h", &v)) {
        if (!(v > 0 && v < 1))
            luaL_error(L, "run: 'pareto_h' must be within (0, 1)");
        s.pat.pareto_h = v;
    }
    if (getnum(L, 1, "center", &v)) {
        if (v > 1)
            luaL_error(L, "run: 'center' must be within 0..1");
        s.pat.has_center = 1;
        s.pat.center = v;
    }
    static const char *const scatters[] = {"spread", "fio", "none", NULL};
    s.pat.scatter = (enum pl_scatter)getoption(L, 1, "scatter", "spread", scatters);
    size_t nzones = 0;
    s.pat.zones = get_zones(L, &nzones);
    s.pat.nzones = nzones;
    if ((s.pat.kind == PL_PAT_ZONED || s.pat.kind == PL_PAT_ZONED_ABS) && !s.pat.zones)
        luaL_error(L, "run: pattern '%s' needs 'zones'", pat);
    s.pat.seq_nr = getuint(L, 1, "seq_nr", 1, 0, UINT_MAX);
    uint64_t rpct = getint(L, 1, "random_pct", 100);
    if (rpct > 100)
        luaL_error(L, "run: 'random_pct' must be within 0..100");
    s.pat.seq_pct = (unsigned)(100 - rpct);
    s.pat.skip = get_skip(L);
    size_t nlist = 0;
    s.pat.list = getlist(L, 1, "offsets", &nlist);
    s.pat.nlist = nlist;
    if (s.pat.kind == PL_PAT_LIST && !s.pat.list)
        luaL_error(L, "run: pattern 'list' needs 'offsets'");
    lua_getfield(L, 1, "range");
    if (!lua_isnil(L, -1)) {
        if (!lua_istable(L, -1))
            luaL_error(L, "run: 'range' must be {lo, hi}, not %s", luaL_typename(L, -1));
        int r = lua_gettop(L);
        lua_rawgeti(L, r, 1);
        lua_rawgeti(L, r, 2);
        s.pat.lo = fieldsize(L, r + 1, "range[1]");
        s.pat.hi = fieldsize(L, r + 2, "range[2]");
        if (s.pat.hi <= s.pat.lo)
            luaL_error(L, "run: 'range' must be {lo, hi} with lo < hi");
        lua_pop(L, 2);
    }
    lua_pop(L, 1);

    s.count = getint(L, 1, "count", 0);
    s.bytes = getsize(L, 1, "bytes", 0);
    if (getnum(L, 1, "seconds", &v))
        s.seconds_ns = pl_scale_u64(v, 1e9);
    if (getnum(L, 1, "ramp", &v))
        s.ramp_ns = pl_scale_u64(v, 1e9);
    if (getnum(L, 1, "sample_ms", &v)) {
        s.sample_ns = pl_scale_u64(v, 1e6);
        if (s.sample_ns < 1000)
            luaL_error(L, "run: 'sample_ms' must be at least 0.001 (a microsecond)");
    }
    lua_getfield(L, 1, "interval");
    s.series_ns = pl_interval_arg(L, -1, "run");
    lua_pop(L, 1);
    s.slat = getbool(L, 1, "slat", 0);
    s.timeline = getbool(L, 1, "timeline", 0);
    s.io_samples = getbool(L, 1, "io_samples", 0);
    s.fsync_data = getbool(L, 1, "fdatasync", 0);
    {
        static const char *const froms[] = {"due", "issue", NULL};
        s.lat_from_issue = getoption(L, 1, "rate_latency", "due", froms);
    }
    s.log = get_log(L);
    s.refill = getbool(L, 1, "refill", 0);
    s.compress_pct = getuint(L, 1, "compress_pct", 0, 0, 100);
    s.compress_chunk = getsize(L, 1, "compress_chunk", 0);
    s.fsync_every = getint(L, 1, "fsync_every", 0);
    s.invalidate_every = getsize(L, 1, "invalidate_every", 0);
    if (getnum(L, 1, "rate_iops", &v))
        s.rate_iops = v;
    if (getnum(L, 1, "rate_bps", &v))
        s.rate_bps = v;
    {
        static const char *const procs[] = {"linear", "poisson", NULL};
        s.rate_poisson = getoption(L, 1, "rate_process", "linear", procs);
        if (s.rate_poisson && !(s.rate_iops > 0) && !(s.rate_bps > 0))
            luaL_error(L, "run: 'rate_process' \"poisson\" needs a rate (rate_iops or rate_bps)");
    }
    if (getnum(L, 1, "think_us", &v))
        s.think_ns = pl_scale_u64(v, 1000.0);
    s.qd = getuint(L, 1, "qd", 1, 1, PL_MAX_QD);
    /* above qd they mean qd (as in fio), so any size is taken, but none wraps */
    s.batch_submit = getuint(L, 1, "batch", 0, 0, UINT_MAX);
    s.reap_min = getuint(L, 1, "reap_min", 0, 0, UINT_MAX);
    s.reap_max = getuint(L, 1, "reap_max", 0, 0, UINT_MAX);
    get_steady(L, &s);
    get_live(L, &s);
    get_per_dir(L, "rate_min_bps", s.rate_min_bps);
    get_per_dir(L, "rate_min_iops", s.rate_min_iops);
    if (getnum(L, 1, "rate_cycle_ms", &v)) {
        s.rate_cycle_ns = pl_scale_u64(v, 1e6);
        if (s.rate_cycle_ns < 1000000)
            luaL_error(L, "run: 'rate_cycle_ms' must be at least 1");
    }

    const char *eng = optname(L, "engine", s.qd > 1 ? "io_uring" : "psync");
    s.engine = pl_engine_find(eng);
    if (!s.engine) {
        if (strcmp(eng, "io_uring") == 0)
            luaL_error(L, "run: this platter was built without io_uring (install liburing-dev "
                          "and rebuild)");
        if (strcmp(eng, "libaio") == 0)
            luaL_error(L, "run: this platter was built without libaio (install libaio-dev "
                          "and rebuild)");
        luaL_error(
            L,
            "run: unknown engine '%s' (sync, psync, stdio, mmap, io_uring, libaio, posixaio, null)",
            eng);
    }
    s.engine = pl_engine_for_qd(s.engine, s.qd); /* null above qd 1: its queued form */
    lua_pop(L, 1);
    get_uring_opts(L, &s);

    lua_getfield(L, 1, "seed");
    int fresh = lua_isnil(L, -1);
    lua_pop(L, 1);
    /* none: a fresh seed from p.random's generator (a script's runs differ, yet --seed
       repeats them) */
    s.seed = fresh ? pl_rng_next(&pl_rng_process) : getint(L, 1, "seed", 0);
    s.stop_on_error = getoption(L, 1, "on_error", "stop", on_err) == 0;
    get_verify(L, &s);

    lua_getfield(L, 1, "gen");
    if (!lua_isnil(L, -1)) {
        if (!lua_isfunction(L, -1))
            luaL_error(L, "run: 'gen' must be a function, not %s", luaL_typename(L, -1));
        s.external = 1; /* the generator chooses each I/O (p.run's Lua driver calls it) */
        if (!s.bs && !s.nbs)
            s.bs = 1u << 20; /* the largest len a generator may return */
    }
    lua_pop(L, 1);
    s.stop = &pl_interrupted;
    *sp = s;
}

static void gen_error(lua_State *L, const struct pl_job_result *r, const struct pl_job_spec *s,
                      const char *err)
{
    if (err && err[0])
        luaL_error(L, "%s", err);
    char msg[600]; /* %llu: lua_pushfstring's %f prints "4096.0" on Lua 5.4 */
    snprintf(msg, sizeof msg,
             "gen: the I/O at offset %llu is longer than bs (%llu bytes) or not "
             "aligned as O_DIRECT on %s requires",
             (unsigned long long)r->err_off, (unsigned long long)s->bs,
             s->files[r->err_file]->path);
    luaL_error(L, "%s", msg);
}

/* r.samples: a list of { t_ms, rbytes, wbytes, rops, wops, rlat_sum, wlat_sum,
   rlat_min, rlat_max, wlat_min, wlat_max }, kept by ph as a registry ref */
static void push_samples(lua_State *L, struct pl_phase *ph, const struct pl_job_result *r)
{
    static const char *const names[][5] = {
        {"rbytes", "rops", "rlat_sum", "rlat_min", "rlat_max"},
        {"wbytes", "wops", "wlat_sum", "wlat_min", "wlat_max"},
    };
    lua_createtable(L, (int)r->nsamples, 0);
    for (size_t i = 0; i < r->nsamples; i++) {
        const struct pl_sample *w = &r->samples[i];
        lua_createtable(L, 0, 11);
        lua_pushnumber(L, (double)w->t_ns / 1e6);
        lua_setfield(L, -2, "t_ms");
        for (int d = 0; d < 2; d++) {
            const uint64_t v[5] = {w->bytes[d], w->ops[d], w->lat_sum[d], w->lat_min[d],
                                   w->lat_max[d]};
            for (int k = 0; k < 5; k++) {
                pl_pushu64(L, v[k]);
                lua_setfield(L, -2, names[d][k]);
            }
        }
        lua_rawseti(L, -2, (int)i + 1);
    }
    ph->samples = luaL_ref(L, LUA_REGISTRYINDEX);
    ph->samples_dropped = r->samples_dropped;
}

/* r.steady: fio's steady-state result (docs/api.md), kept by ph as a registry ref */
static void push_steady(lua_State *L, struct pl_phase *ph, const struct pl_job_spec *s,
                        const struct pl_job_result *r)
{
    static const char *const kinds[] = {"bw", "iops", "bw_slope", "iops_slope"};
    const struct pl_steady *ss = &r->steady;
    unsigned n = ss->dur;
    uint64_t *v = malloc(2 * (size_t)n * sizeof *v);
    if (!v)
        luaL_error(L, "run: not enough memory");
    pl_steady_window(ss, v, v + n);
    lua_createtable(L, 0, 16);
    lua_pushstring(L, kinds[s->ss_flags & 3]);
    lua_setfield(L, -2, "kind");
    lua_pushnumber(L, s->ss_limit);
    lua_setfield(L, -2, "limit");
    lua_pushboolean(L, (s->ss_flags & PL_SS_PCT) != 0);
    lua_setfield(L, -2, "pct");
    lua_pushinteger(L, (lua_Integer)n);
    lua_setfield(L, -2, "duration_s");
    lua_pushnumber(L, (double)s->ss_ramp_ns / 1e9);
    lua_setfield(L, -2, "ramp_s");
    lua_pushboolean(L, ss->attained);
    lua_setfield(L, -2, "attained");
    lua_pushboolean(L, ss->full);
    lua_setfield(L, -2, "full");
    lua_pushnumber(L, ss->criterion);
    lua_setfield(L, -2, "criterion");
    lua_pushnumber(L, ss->slope);
    lua_setfield(L, -2, "slope");
    lua_pushnumber(L, ss->deviation);
    lua_setfield(L, -2, "deviation");
    pl_pushu64(L, ss->added);
    lua_setfield(L, -2, "samples");
    pl_pushu64(L, pl_steady_mean(ss, 1));
    lua_setfield(L, -2, "iops_mean");
    pl_pushu64(L, pl_steady_mean(ss, 0));
    lua_setfield(L, -2, "bw_mean");
    for (int k = 0; k < 2; k++) {
        lua_createtable(L, (int)n, 0);
        for (unsigned i = 0; i < n; i++) {
            pl_pushu64(L, v[k * n + i]);
            lua_rawseti(L, -2, (int)i + 1);
        }
        lua_setfield(L, -2, k ? "bw" : "iops");
    }
    free(v);
    ph->steady = luaL_ref(L, LUA_REGISTRYINDEX);
}

/* One direction's moments as { n =, min =, max =, mean =, stdev = }. */
static void push_moments(lua_State *L, uint64_t n, uint64_t min, uint64_t max, double mean,
                         double stdev)
{
    lua_createtable(L, 0, 5);
    pl_pushu64(L, n);
    lua_setfield(L, -2, "n");
    pl_pushu64(L, min);
    lua_setfield(L, -2, "min");
    pl_pushu64(L, max);
    lua_setfield(L, -2, "max");
    lua_pushnumber(L, mean);
    lua_setfield(L, -2, "mean");
    lua_pushnumber(L, stdev);
    lua_setfield(L, -2, "stdev");
}

/*
 * io_samples: r.io_bw = { read = m, write = m } of the per-I/O bandwidths and
 * r.io_iops likewise of the per-I/O IOPS samples (each 1, fio's add_iops_sample),
 * a direction only when it has I/Os; the two refs on ph.
 */
static void push_io_samples(lua_State *L, struct pl_phase *ph, const struct pl_job_result *r)
{
    for (int k = 0; k < 2; k++) {
        lua_createtable(L, 0, 2);
        for (int d = 0; d < 2; d++) {
            const struct pl_moments *m = &r->io_bw[d];
            if (!m->n)
                continue;
            if (k == 0)
                push_moments(L, m->n, m->min, m->max, pl_moments_mean(m), pl_moments_stdev(m));
            else
                push_moments(L, m->n, 1, 1, 1.0, 0.0);
            lua_setfield(L, -2, pl_op_names[d]);
        }
        *(k ? &ph->io_iops : &ph->io_bw) = luaL_ref(L, LUA_REGISTRYINDEX);
    }
}

/* Push the stats of a finished job (with sub-stats) and add it to the active phases. */
static void push_job_stats(lua_State *L, const char *name, const struct pl_job_spec *s,
                           struct pl_job_result *r)
{
    struct pl_phase *ph = pl_phase_new(L, name);
    if (r->stopped == PL_STOP_INTERRUPT)
        pl_phase_set_cut_name(name);
    ph->st = r->all;
    ph->shorts = r->shorts;
    ph->has_depths = 1;
    memcpy(ph->depths, r->depths, sizeof ph->depths);
    memcpy(ph->submit, r->submit, sizeof ph->submit);
    memcpy(ph->complete, r->complete, sizeof ph->complete);
    ph->depth_rw = r->depth_rw;
    snprintf(ph->stopped, sizeof ph->stopped, "%s", pl_job_stop_name(r->stopped));
    if (r->err)
        describe_error(ph->error, sizeof ph->error, r, s->files);
    if (s->verify) {
        ph->has_verify = 1;
        ph->verify_errors = r->verify_errors;
        if (r->verify_errors)
            describe_verify(ph->verify_error, sizeof ph->verify_error, r, s->files);
    }
    for (int i = 0; i < 3; i++) {
        if (!r->by_op[i].ops && !r->by_op[i].errors)
            continue;
        struct pl_phase *sub = pl_phase_new(L, pl_op_names[i]);
        sub->st = r->by_op[i];
        ph->sub[i] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    if (s->sample_ns)
        push_samples(L, ph, r);
    if (s->timeline) { /* the timeline moves to the stats object */
        ph->tl_t = r->tl_t;
        ph->tl_bytes = r->tl_bytes;
        ph->tl_n = r->tl_n;
        ph->tl_cap = r->tl_cap;
        ph->tl_lost = r->tl_lost;
        ph->has_tl = 1;
        r->tl_t = r->tl_bytes = NULL;
        r->tl_n = r->tl_cap = 0;
    }
    if (s->series_ns && (ph->series = malloc(sizeof *ph->series)) != NULL) {
        *ph->series = r->series; /* the series moves to the stats object */
        memset(&r->series, 0, sizeof r->series);
    }
    /* The collector sees the userdata, not what it holds in C: a step as if those bytes
       were the heap's, so that the records of runs the script dropped are freed at the
       pace they come (else they counted against --max-memory until a cycle came round) */
    size_t held = ph->tl_cap * PL_TIMELINE_BYTES +
                  (ph->series ? ph->series->cap * sizeof *ph->series->pts : 0);
    if (held >= 1024)
        lua_gc(L, LUA_GCSTEP, (int)(held / 1024));
    if (s->ss_dur)
        push_steady(L, ph, s, r);
    if (s->io_samples)
        push_io_samples(L, ph, r);
    if (s->slat && (r->slat[0].ops || r->slat[1].ops)) { /* r.slat = { read = s, write = s } */
        lua_createtable(L, 0, 2);
        for (int i = 0; i < 2; i++) {
            if (!r->slat[i].ops)
                continue;
            struct pl_phase *sub = pl_phase_new(L, pl_op_names[i]);
            sub->st = r->slat[i];
            lua_setfield(L, -2, pl_op_names[i]);
        }
        ph->slat = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    pl_io_phase_absorb_fed(&r->all); /* a phase's series had each completion (job.c) */
}

static void start_error(lua_State *L, int rc, const char *why)
{
    if (why)
        luaL_error(L, "run: %s", why);
    luaL_error(L, "run: cannot run the job: %s", strerror(-rc));
}

/* The "run_start" hook (p._hook): fn(the p.run table), checked, before the job opens. */
static void hook_run_start(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, "platter.hooks");
    if (lua_istable(L, -1)) {
        lua_getfield(L, -1, "run_start");
        if (lua_isfunction(L, -1)) {
            lua_pushvalue(L, 1);
            lua_call(L, 1, 0);
        } else {
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
}

/*
 * verify_pass: fio's do_verify after the job in *w (unless it ended on an error
 * or an interrupt, as fio skips it then): the pass's reads become w's reads
 * (w->by_op[PL_OP_READ], with their own times; a mix job's reads and the
 * pass's together), its depth figures are added,
 * and its verify results and a verify or interrupt stop are w's. The job's
 * own figures (w->all) stay the write pass's. 0 or -errno.
 */
static int verify_after(lua_State *L, const struct pl_job_spec *s, struct pl_job_result *w,
                        const char *name, const char **why)
{
    if (w->stopped == PL_STOP_ERROR || w->stopped == PL_STOP_INTERRUPT)
        return 0;
    struct pl_job_result *v = malloc(sizeof *v);
    if (!v)
        return -ENOMEM;
    pl_progress_begin(v, name, NULL, hide_progress(L));
    int rc = pl_job_verify_pass(s, w, v, why);
    pl_progress_end(v);
    if (rc == 0) {
        struct pl_stats *rd = &w->by_op[PL_OP_READ];
        if (rd->ops || rd->errors) {
            /* a mix job's own reads and the pass's, timed as fio adds the two up: the
               reads' seconds are the mix's plus the pass's */
            uint64_t mixed = rd->t_end > rd->t_start ? rd->t_end - rd->t_start : 0;
            pl_stats_merge(rd, &v->by_op[PL_OP_READ]);
            rd->t_end = v->by_op[PL_OP_READ].t_end;
            rd->t_start = v->by_op[PL_OP_READ].t_start - mixed;
        } else {
            *rd = v->by_op[PL_OP_READ];
        }
        pl_stats_merge(&w->slat[0], &v->slat[0]);
        pl_moments_merge(&w->io_bw[0], &v->io_bw[0]); /* fio samples a verify's reads too */
        for (int i = 0; i < PL_DIST_NR; i++) {
            w->depths[i] += v->depths[i];
            w->submit[i] += v->submit[i];
            w->complete[i] += v->complete[i];
        }
        w->depth_rw += v->depth_rw;
        w->shorts += v->shorts;
        w->verify_errors = v->verify_errors;
        w->vfail = v->vfail;
        w->vfail_file = v->vfail_file;
        if (v->stopped == PL_STOP_VERIFY || v->stopped == PL_STOP_INTERRUPT ||
            v->stopped == PL_STOP_ERROR)
            w->stopped = v->stopped;
        if (v->err && !w->err) {
            w->err = v->err;
            w->err_op = v->err_op;
            w->err_off = v->err_off;
            w->err_file = v->err_file;
        }
        pl_io_phase_absorb_fed(&v->all); /* the pass's reads count in the phases around it */
    }
    if (v->log_err && !w->log_err) /* the logs the pass went on writing */
        w->log_err = v->log_err;
    pl_job_result_free(v);
    free(v);
    return rc;
}

/* p.run{ file=, op=, bs=, pattern=, ... } -> stats (see docs/api.md). A job with
   `gen` goes through the stepped functions below, which lua/platter/run.lua drives. */
/* core._gen_driver(fn): the Lua driver of generator jobs (lua/platter/run.lua), once */
static int l_gen_driver(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_getfield(L, LUA_REGISTRYINDEX, "platter.gen_driver");
    if (!lua_isnil(L, -1))
        return luaL_error(L, "run: the generator driver is set already");
    lua_pushvalue(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, "platter.gen_driver");
    return 0;
}

static int l_run(lua_State *L)
{
    struct pl_job_spec s;
    lua_settop(L, 1);
    if (lua_istable(L, 1)) { /* a generator job: the Lua driver (lua/platter/run.lua) */
        lua_getfield(L, 1, "gen");
        int gen = lua_isfunction(L, -1);
        lua_pop(L, 1);
        if (gen) {
            lua_getfield(L, LUA_REGISTRYINDEX, "platter.gen_driver");
            if (lua_isfunction(L, -1)) {
                lua_insert(L, 1);
                lua_call(L, 1, 1);
                return 1;
            }
            lua_pop(L, 1);
        }
    }
    parse_spec(L, &s);
    if (s.external)
        return luaL_error(L, "run: a 'gen' job is driven by platter.run (p.run)");
    const char *name = optname(L, "name", "run");
    int verify_pass = getbool(L, 1, "verify_pass", 0);
    if (verify_pass && (!s.verify || s.op == PL_JOB_READ))
        return luaL_error(L, "run: 'verify_pass' needs 'verify' and op = \"write\" or \"mix\"");
    hook_run_start(L);
    struct pl_job_result *r = malloc(sizeof *r);
    if (!r)
        return luaL_error(L, "run: not enough memory");
    const char *why = NULL;
    pl_progress_begin(r, name, NULL, hide_progress(L));
    pl_progress_series(r, &r->series); /* empty until the run measures (job.c) */
    s.log_keep = verify_pass && s.log; /* the verify pass's reads go to the same logs */
    int rc = pl_job_run(&s, r, &why);
    pl_progress_end(r);
    if (rc < 0) {
        pl_job_result_free(r);
        free(r);
        start_error(L, rc, why);
    }
    if (verify_pass && (rc = verify_after(L, &s, r, name, &why)) < 0) {
        pl_job_result_free(r);
        free(r);
        start_error(L, rc, why);
    }
    pl_job_log_close(r); /* kept for a verify pass that did not run */
    if (r->log_err) {
        int err = -r->log_err;
        pl_job_result_free(r);
        free(r);
        return luaL_error(L, "run: writing a log file: %s", strerror(err));
    }
    push_job_stats(L, name, &s, r);
    pl_job_result_free(r);
    free(r);
    pl_hook_phase(L, -1, "run", 0);
    return 1;
}

/* {====================================================================
** A `gen` job, one I/O at a time: a loop calls the generator and hands
** each I/O it returns to one checked step, step_checked (LuaJIT: the Lua
** loop of lua/platter/run.lua through the FFI entry pl_ffi_job_step; the C
** API flavours: the same loop in C, _run_loop).
** ===================================================================== */

#define PL_JOB_MT "platter.job"

struct run_job {
    struct pl_job *job; /* NULL once closed */
    struct pl_job_result *r;
    struct pl_job_spec s;
    int anchor;     /* registry ref: the table and arrays the spec points into */
    uint64_t calls; /* I/Os the generator returned */
    char name[64];
    char err[160]; /* what the generator got wrong, or "" */
};

static void close_job(struct run_job *j)
{
    pl_progress_end(j);
    if (j->job)
        pl_job_close(j->job, 0, NULL);
    j->job = NULL;
    if (j->r)
        pl_job_result_free(j->r);
    free(j->r);
    j->r = NULL;
}

static int l_job__gc(lua_State *L)
{
    struct run_job *j = luaL_checkudata(L, 1, PL_JOB_MT);
    close_job(j); /* closed already, unless an error got past p.run (a safety net) */
    luaL_unref(L, LUA_REGISTRYINDEX, j->anchor);
    j->anchor = LUA_NOREF;
    return 0;
}

/* p._run_begin{...} -> job: check the table and open its job (a "platter.job"
   userdata; its __gc closes it if nothing else did). */
static int l_run_begin(lua_State *L)
{
    struct pl_job_spec s;
    lua_settop(L, 1);
    parse_spec(L, &s);
    if (!s.external)
        return luaL_error(L, "run: _run_begin needs 'gen'");
    char name[sizeof((struct run_job *)0)->name]; /* checked before the run is announced */
    snprintf(name, sizeof name, "%s", optname(L, "name", "run"));
    lua_pop(L, 1);
    hook_run_start(L);
    int top = lua_gettop(L);
    lua_createtable(L, top, 0); /* anchor the spec table and every array parse_spec made */
    for (int i = 1; i <= top; i++) {
        lua_pushvalue(L, i);
        lua_rawseti(L, -2, i);
    }
    int anchor = luaL_ref(L, LUA_REGISTRYINDEX);
    struct run_job *j = lua_newuserdata(L, sizeof *j);
    memset(j, 0, sizeof *j);
    j->anchor = anchor;
    luaL_getmetatable(L, PL_JOB_MT);
    lua_setmetatable(L, -2);
    j->s = s;
    memcpy(j->name, name, sizeof j->name);
    j->r = malloc(sizeof *j->r);
    if (!j->r)
        return luaL_error(L, "run: not enough memory");
    const char *why = NULL;
    int rc = pl_job_open(&j->job, &j->s, j->r, &why);
    if (rc < 0)
        start_error(L, rc, why);
    pl_progress_begin(j, j->name, NULL, hide_progress(L));
    pl_progress_series(j, &j->r->series);
    return 1;
}

/*
 * The one check of what the generator returned, and the step: op is 0..2
 * (read, write, fsync; anything else -1), off and len numbers (-1 when they
 * were not), think_us a number. 1 to go on, 0 when the job ended, -1 when the
 * I/O is wrong: the message is in j->err, or (too long, misaligned) in the
 * job's result.
 */
PL_HOT static int step_checked(struct run_job *j, int op, double off, double len, double think_us)
{
    if (!j || !j->job)
        return 0;
    j->calls++;
    if (op < 0 || op > PL_OP_FSYNC) {
        snprintf(j->err, sizeof j->err,
                 "gen: I/O %llu: op must be \"read\", \"write\" or "
                 "\"fsync\"",
                 (unsigned long long)j->calls);
        return -1;
    }
    if (op != PL_OP_FSYNC && (!pl_isexact(off) || !pl_isexact(len))) {
        snprintf(j->err, sizeof j->err,
                 "gen: I/O %llu: offset and length must be "
                 "non-negative integers",
                 (unsigned long long)j->calls);
        return -1;
    }
    uint64_t o = op == PL_OP_FSYNC ? 0 : (uint64_t)off, n = op == PL_OP_FSYNC ? 0 : (uint64_t)len;
    return pl_job_step(j->job, (enum pl_op)op, o, n, pl_scale_u64(think_us, 1000.0));
}

/* The number at idx (not a numeric string), or def. On Lua 5.4 an integer is read
   with lua_tointegerx, which lua_tonumber would hand to an out-of-line conversion. */
static inline double number_or(lua_State *L, int idx, double def)
{
    if (lua_type(L, idx) != LUA_TNUMBER)
        return def;
#if LUA_VERSION_NUM >= 503
    int isint;
    lua_Integer v = lua_tointegerx(L, idx, &isint);
    if (isint)
        return (double)v;
#endif
    return lua_tonumber(L, idx);
}

/*
 * p._run_loop(job, gen) -> 0 | -1: the same loop as platter.run's, in C, for
 * the C API (Lua 5.4, and LuaJIT without the FFI), where calling gen from C
 * costs less than calling a C step from Lua (about 100 ns per I/O on Lua
 * 5.4). What gen returned goes to the same step_checked; the op is matched
 * by pointer against the interned names (equal short strings are one object
 * on both flavours). Runs unprotected: platter.run calls it in one pcall.
 */
static int l_run_loop(lua_State *L)
{
    struct run_job *j = luaL_checkudata(L, 1, PL_JOB_MT);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    const char *names[3];
    for (int n = 0; n < 3; n++) {
        lua_pushstring(L, pl_op_names[n]); /* kept on the stack: the pointers stay valid */
        names[n] = lua_tostring(L, -1);
    }
    int rc = 1;
    for (uint64_t i = 1; rc > 0; i++) {
        lua_pushvalue(L, 2);
        pl_pushu64(L, i);
        lua_call(L, 1, 4);
        /* the op with one API call (Lua 5.4 pays ~2-4 ns a call): a number in its place
           becomes a string here, which matches no name all the same */
        const char *name = lua_tolstring(L, -4, NULL);
        if (!name && lua_isnil(L, -4)) {
            lua_pop(L, 4);
            break;
        }
        int op = -1;
        for (int n = 0; name && n < 3; n++)
            if (name == names[n])
                op = n;
        double off = number_or(L, -3, -1), len = number_or(L, -2, -1);
        double think = number_or(L, -1, 0);
        lua_pop(L, 4);
        rc = step_checked(j, op, off, len, think);
    }
    lua_pushinteger(L, rc < 0 ? -1 : 0);
    return 1;
}

/* FFI: the same step for LuaJIT's compiled loop. */
PL_HOT int pl_ffi_job_step(void *ud, int op, double off, double len, double think_us)
{
    return step_checked(ud, op, off, len, think_us);
}

/*
 * p._run_abort(job, err): close a job whose generator raised err (or that a
 * Ctrl-C stopped there). What it did until then is a result too: counted into
 * the phases around it and recorded, with stopped = "interrupted", or "error"
 * and err's message. Raises nothing: the driver raises err next, unchanged.
 */
static int l_run_abort(lua_State *L)
{
    struct run_job *j = luaL_checkudata(L, 1, PL_JOB_MT);
    lua_settop(L, 2);
    struct pl_job_result *r = NULL;
    if (j->job) {
        const char *why = NULL;
        int rc = pl_job_close(j->job, 0, &why);
        j->job = NULL;
        if (rc == 0) {
            r = j->r;
            j->r = NULL;
        }
    }
    close_job(j); /* the rest: the progress line, a result not taken */
    luaL_unref(L, LUA_REGISTRYINDEX, j->anchor);
    j->anchor = LUA_NOREF;
    if (!r)
        return 0;
    if (pl_interrupted)
        r->stopped = PL_STOP_INTERRUPT;
    /* after --max-memory's error the record gets room beyond the bound meanwhile */
    int memerr = pl_host_heap_error(L, 2);
    if (memerr)
        pl_host_heap_unbound(1);
    push_job_stats(L, j->name, &j->s, r); /* counts it into the phases around it */
    pl_job_result_free(r);
    free(r);
    if (!pl_interrupted)
        pl_phase_set_ended(L, 2, luaL_checkudata(L, 3, PL_STATS_MT));
    pl_hook_phase_protected(L, 3, "run");
    if (memerr)
        pl_host_heap_unbound(0);
    return 0;
}

/* p._run_end(job) -> stats; raises what the generator got wrong, or a step's error */
static int l_run_end(lua_State *L)
{
    struct run_job *j = luaL_checkudata(L, 1, PL_JOB_MT);
    if (!j->job)
        return luaL_error(L, "run: job already finished");
    const char *why = NULL;
    int rc = pl_job_close(j->job, 0, &why);
    j->job = NULL;
    pl_progress_end(j);
    luaL_unref(L, LUA_REGISTRYINDEX, j->anchor);
    j->anchor = LUA_NOREF;
    struct pl_job_result *r = j->r;
    j->r = NULL;
    if (rc < 0) {
        pl_job_result_free(r);
        free(r);
        start_error(L, rc, why);
    }
    if (j->err[0] || r->stopped == PL_STOP_GEN_ERROR) {
        pl_job_result_free(r);
        struct pl_job_result copy = *r;
        free(r);
        gen_error(L, &copy, &j->s, j->err);
    }
    push_job_stats(L, j->name, &j->s, r);
    pl_job_result_free(r);
    free(r);
    pl_hook_phase(L, -1, "run", 0);
    return 1;
}

/* }==================================================================== */

static const luaL_Reg run_funcs[] = {
    {"_gen_driver", l_gen_driver},
    {"_run_begin", l_run_begin},
    {"_run_loop", l_run_loop},
    {"_run_end", l_run_end},
    {"_run_abort", l_run_abort},
    {"run", l_run},
    {"steady_group", l_steady_group},
    {"live", l_live},
    {NULL, NULL},
};

int luaopen_platter_run(lua_State *L)
{
    luaL_newmetatable(L, PL_LIVE_MT);
    lua_pushcfunction(L, l_live_gc);
    lua_setfield(L, -2, "__gc");
    lua_newtable(L);
    lua_pushcfunction(L, l_live_get);
    lua_setfield(L, -2, "get");
    lua_pushcfunction(L, l_live_mark);
    lua_setfield(L, -2, "mark");
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    luaL_newmetatable(L, PL_SSG_MT);
    lua_pushcfunction(L, l_steady_group_gc);
    lua_setfield(L, -2, "__gc");
    lua_pop(L, 1);
    luaL_newmetatable(L, PL_LOGSPEC_MT);
    lua_pushcfunction(L, l_logspec_gc);
    lua_setfield(L, -2, "__gc");
    lua_pop(L, 1);
    luaL_newmetatable(L, PL_JOB_MT);
    lua_pushliteral(L, PL_JOB_MT);
    lua_setfield(L, -2, "__name");
    lua_pushcfunction(L, l_job__gc);
    lua_setfield(L, -2, "__gc");
    lua_pop(L, 1);
    luaL_newlib(L, run_funcs);
    lua_newtable(L); /* _op_names: the codes a step takes, by name (pl_op_names) */
    for (int i = 0; pl_op_names[i]; i++) {
        lua_pushinteger(L, i);
        lua_setfield(L, -2, pl_op_names[i]);
    }
    lua_setfield(L, -2, "_op_names");
    return 1;
}
