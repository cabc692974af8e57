/*
 * p.run{...}: turn a Lua table into a pl_job_spec, run the job in C, and
 * return its stats (with read/write/fsync sub-stats). The optional `gen`
 * function is the only Lua code that runs inside the loop.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "job.h"
#include "l_util.h"
#include "progress.h"
#include "hot.h"

static const char *const run_keys[] = {
    "align", "batch", "bs", "bs_list", "bytes", "count", "engine", "file", "files",
    "fsync_every", "gen", "iopoll", "name", "offsets", "on_error", "op", "pattern", "progress",
    "qd", "ramp", "range", "rate_bps", "rate_iops", "read_pct", "seconds", "seed", "sigma",
    "sqpoll", "sqpoll_idle_ms", "stride", "theta", "think_us", "weights", NULL,
};

struct gen_ctx {
    lua_State *L;
    int fn;                 /* stack index of the generator */
    const char *names[3];   /* the op names as interned strings, kept on the stack */
    char err[256];
};

static const char *const op_names[] = {"read", "write", "fsync", NULL};

/* What gen(i + 1) returned, the four values on top of the stack (left there):
   1 and the I/O, 0 when op is nil (the generator is done), or -1 with the
   message in g->err. */
PL_HOT static int gen_parse(struct gen_ctx *g, uint64_t i, enum pl_op *op, uint64_t *off,
                            uint64_t *len, uint64_t *think)
{
    lua_State *L = g->L;
    int rc = 1;
    if (lua_isnil(L, -4)) {
        rc = 0;
    } else {
        /* equal short strings are one interned object on both flavours (LuaJIT
           interns every string, Lua 5.4 those up to 40 bytes): the op is found by
           pointer, and a string that is none of the three pointers is none of them
           (a number turns into such a string here) */
        const char *name = lua_tolstring(L, -4, NULL);
        int k = -1;
        for (int n = 0; name && n < 3; n++)
            if (name == g->names[n]) {
                k = n;
                break;
            }
        uint64_t o = 0, n = 0;
        int exact = pl_tooffset(L, -3, &o) && pl_tooffset(L, -2, &n);
        if (k < 0) {
            snprintf(g->err, sizeof g->err, "gen: I/O %llu: op must be \"read\", \"write\" or "
                     "\"fsync\"", (unsigned long long)i + 1);
            rc = -1;
        } else if (k != PL_OP_FSYNC && !exact) {
            snprintf(g->err, sizeof g->err, "gen: I/O %llu: offset and length must be "
                     "non-negative integers", (unsigned long long)i + 1);
            rc = -1;
        } else {
            *op = (enum pl_op)k;
            *off = k == PL_OP_FSYNC ? 0 : o;
            *len = k == PL_OP_FSYNC ? 0 : n;
            if (!lua_isnil(L, -1)) {
                int ok_t = 0;
                lua_Number t = lua_tonumberx(L, -1, &ok_t);
                if (ok_t)
                    *think = pl_scale_u64(t, 1000.0);
            }
        }
    }
    return rc;
}

/* The C side of `gen = function(i) return op, offset, len [, think_us] end`, for
   the C loop (jobs that cannot be stepped: io_uring above qd 1). A generator's
   error is caught here, so that the loop can finish its I/O in flight. */
PL_HOT static int gen_call(void *ud, uint64_t i, enum pl_op *op, uint64_t *off, uint64_t *len,
                    uint64_t *think)
{
    struct gen_ctx *g = ud;
    lua_State *L = g->L;
    lua_pushvalue(L, g->fn);
    pl_pushu64(L, i + 1);
    if (lua_pcall(L, 1, 4, 0) != 0) {
        snprintf(g->err, sizeof g->err, "%s", lua_isstring(L, -1) ? lua_tostring(L, -1)
                                                                  : "(error object is not a string)");
        lua_pop(L, 1);
        return -1;
    }
    int rc = gen_parse(g, i, op, off, len, think);
    lua_pop(L, 4);
    return rc;
}

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

/* A size field: a number or a string like "4k". */
static uint64_t getsize(lua_State *L, int t, const char *k, uint64_t def)
{
    lua_getfield(L, t, k);
    uint64_t v = def;
    if (lua_type(L, -1) == LUA_TSTRING) {
        v = pl_checksize(L, lua_gettop(L));
    } else if (!lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return getint(L, t, k, def);
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
    lua_insert(L, list);  /* the userdata stays below the list until the run ends */
    for (size_t i = 0; i < *n; i++) {
        lua_rawgeti(L, list + 1, (int)i + 1);
        if (lua_type(L, -1) == LUA_TSTRING) {
            out[i] = pl_checksize(L, lua_gettop(L));
        } else {
            lua_Number v = lua_tonumber(L, -1);
            if (!lua_isnumber(L, -1) || !pl_isexact(v))
                luaL_error(L, "run: %s[%d] must be a non-negative integer", k, (int)i + 1);
            out[i] = (uint64_t)v;
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);  /* the list; the userdata stays on the stack */
    return out;
}

/* A string field that must be one of list (def when absent): its index. */
static int getoption(lua_State *L, int t, const char *k, const char *def,
                     const char *const list[])
{
    lua_getfield(L, t, k);
    const char *v = lua_isnil(L, -1) ? def : lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1)
                                                                          : NULL;
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
            luaL_error(L, "run: unknown field '%s'", lua_type(L, -1) == LUA_TSTRING
                                                          ? lua_tostring(L, -1)
                                                          : luaL_typename(L, -1));
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
    lua_replace(L, one);  /* keep the userdata (files stay referenced by the table) */
    lua_pop(L, 1);
    return fs;
}

static void describe_error(char *buf, size_t n, const struct pl_job_result *r,
                           struct pl_file **files)
{
    static const char *const names[] = {"read", "write", "fsync"};
    if (r->err_op == PL_OP_FSYNC)
        snprintf(buf, n, "fsync %s: %s", files[r->err_file]->path, strerror(r->err));
    else
        snprintf(buf, n, "%s %s at offset %llu: %s", names[r->err_op], files[r->err_file]->path,
                 (unsigned long long)r->err_off, strerror(r->err));
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
        luaL_error(L, "run: '%s' needs engine = \"io_uring\" (not \"%s\")", which,
                   s->engine->name);
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

/*
 * Read the p.run table at index 1 into *sp. Arrays it needs (files, sizes,
 * offsets) are userdata left on the stack above index 1: keep them there, or
 * anchored, for as long as the job runs. g receives the generator, if any.
 */
static void parse_spec(lua_State *L, struct pl_job_spec *sp, struct gen_ctx *g)
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
    s.read_pct = (unsigned)getint(L, 1, "read_pct", 50);
    if (s.read_pct > 100)
        luaL_error(L, "run: 'read_pct' must be within 0..100");
    s.bs = getsize(L, 1, "bs", 0);
    size_t nbs = 0, nw = 0;
    s.bs_list = getlist(L, 1, "bs_list", &nbs);
    s.nbs = (unsigned)nbs;
    uint64_t *w = getlist(L, 1, "weights", &nw);
    if (w) {
        if (nw != nbs)
            luaL_error(L, "run: 'weights' must have one entry per 'bs_list' entry");
        double *dw = lua_newuserdata(L, nw * sizeof *dw);
        for (size_t i = 0; i < nw; i++)
            dw[i] = (double)w[i];
        s.bs_weights = dw;
    }
    if (s.bs && s.nbs)
        luaL_error(L, "run: give 'bs' or 'bs_list', not both");

    lua_getfield(L, 1, "pattern");
    const char *pat = luaL_optstring(L, -1, "seq");
    int kind = pl_pattern_kind_of(pat);
    if (kind < 0)
        luaL_error(L, "run: unknown pattern '%s' (seq, reverse, random, reread, stride, zipf, "
                      "normal, list)", pat);
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
        s.pat.lo = pl_checksize(L, r + 1);
        s.pat.hi = pl_checksize(L, r + 2);
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
    s.fsync_every = getint(L, 1, "fsync_every", 0);
    if (getnum(L, 1, "rate_iops", &v))
        s.rate_iops = v;
    if (getnum(L, 1, "rate_bps", &v))
        s.rate_bps = v;
    if (getnum(L, 1, "think_us", &v))
        s.think_ns = pl_scale_u64(v, 1000.0);
    s.qd = (unsigned)getint(L, 1, "qd", 1);
    s.batch_submit = (unsigned)getint(L, 1, "batch", 0);

    lua_getfield(L, 1, "engine");
    const char *eng = luaL_optstring(L, -1, s.qd > 1 ? "io_uring" : "psync");
    s.engine = pl_engine_find(eng);
    if (!s.engine) {
        if (strcmp(eng, "io_uring") == 0)
            luaL_error(L, "run: this platter was built without io_uring (install liburing-dev "
                          "and rebuild)");
        luaL_error(L, "run: unknown engine '%s' (sync, psync, stdio, mmap, io_uring, null)", eng);
    }
    s.engine = pl_engine_for_qd(s.engine, s.qd);  /* null above qd 1: its queued form */
    lua_pop(L, 1);
    get_uring_opts(L, &s);

    lua_getfield(L, 1, "seed");
    if (lua_isnil(L, -1)) {
        /* a fresh seed from p.random's generator: a script's runs differ, yet --seed repeats them */
        s.seed = pl_bind_random_u64();
    } else {
        s.seed = pl_checkoffset(L, lua_gettop(L), "seed");
    }
    lua_pop(L, 1);
    s.stop_on_error = getoption(L, 1, "on_error", "stop", on_err) == 0;

    lua_getfield(L, 1, "gen");
    if (!lua_isnil(L, -1)) {
        if (!lua_isfunction(L, -1))
            luaL_error(L, "run: 'gen' must be a function, not %s", luaL_typename(L, -1));
        g->L = L;
        g->fn = lua_gettop(L);  /* stays on the stack, and so do the names */
        for (int n = 0; n < 3; n++) {
            lua_pushstring(L, op_names[n]);
            g->names[n] = lua_tostring(L, -1);
        }
        s.gen = gen_call;
        s.gen_ud = g;
        if (!s.bs && !s.nbs)
            s.bs = 1u << 20;  /* the largest len a generator may return */
    } else {
        lua_pop(L, 1);
    }
    s.stop = &pl_interrupted;
    *sp = s;
}

static void gen_error(lua_State *L, const struct pl_job_result *r, const struct pl_job_spec *s,
                      const char *err)
{
    if (err && err[0])
        luaL_error(L, "%s", err);
    char msg[600];  /* %llu: lua_pushfstring's %f prints "4096.0" on Lua 5.4 */
    snprintf(msg, sizeof msg, "gen: the I/O at offset %llu is longer than bs (%llu bytes) or not "
             "aligned as O_DIRECT on %s requires", (unsigned long long)r->err_off,
             (unsigned long long)s->bs, s->files[r->err_file]->path);
    luaL_error(L, "%s", msg);
}

/* Push the stats of a finished job (with sub-stats) and add it to the active phases. */
static void push_job_stats(lua_State *L, const char *name, const struct pl_job_spec *s,
                           const struct pl_job_result *r)
{
    static const char *const subnames[] = {"read", "write", "fsync"};
    struct pl_phase *ph = pl_phase_new(L, name);
    ph->st = r->all;
    ph->shorts = r->shorts;
    snprintf(ph->stopped, sizeof ph->stopped, "%s", pl_job_stop_name(r->stopped));
    if (r->err)
        describe_error(ph->error, sizeof ph->error, r, s->files);
    for (int i = 0; i < 3; i++) {
        if (!r->by_op[i].ops && !r->by_op[i].errors)
            continue;
        struct pl_phase *sub = pl_phase_new(L, subnames[i]);
        sub->st = r->by_op[i];
        ph->sub[i] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    pl_phase_absorb(&r->all);
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

struct run_job;
static struct run_job *open_stepped(lua_State *L, const struct pl_job_spec *s);
static int run_stepped(lua_State *L, struct run_job *j, struct gen_ctx *g);

/* p.run{ file=, op=, bs=, pattern=, ... } -> stats (see docs/api.md) */
static int l_run(lua_State *L)
{
    struct gen_ctx g = {.L = L, .fn = 0, .err = ""};
    struct pl_job_spec s;
    lua_settop(L, 1);
    parse_spec(L, &s, &g);
    lua_getfield(L, 1, "name");
    const char *name = luaL_optstring(L, -1, "run");
    hook_run_start(L);
    if (s.gen) {  /* a synchronous job at qd 1 is stepped: no protected call per I/O */
        struct run_job *j = open_stepped(L, &s);
        if (j)
            return run_stepped(L, j, &g);
        lua_pop(L, 1);  /* the job, closed: io_uring above qd 1 runs in the C loop */
    }

    struct pl_job_result *r = malloc(sizeof *r);
    if (!r)
        return luaL_error(L, "run: not enough memory");
    const char *why = NULL;
    pl_progress_begin(r, name, NULL, hide_progress(L));
    int rc = pl_job_run(&s, r, &why);
    pl_progress_end(r);
    if (rc < 0) {
        free(r);
        start_error(L, rc, why);
    }
    if (r->stopped == PL_STOP_GEN_ERROR) {
        struct pl_job_result copy = *r;
        free(r);
        gen_error(L, &copy, &s, g.err);
    }
    push_job_stats(L, name, &s, r);
    free(r);
    pl_hook_phase(L, -1, "run", 0);
    return 1;
}

/* {====================================================================
** The stepped form of a `gen` job: the caller drives the generator, one
** pl_job_step per I/O. p.run does it in C (run_stepped); on LuaJIT with the
** FFI, lua/platter/fast.lua does it in Lua, so the JIT compiles the loop
** ===================================================================== */

#define PL_JOB_MT "platter.job"

struct run_job {
    struct pl_job *job;         /* NULL once closed */
    struct pl_job_result *r;
    struct pl_job_spec s;
    int anchor;                 /* registry ref: the table and arrays the spec points into */
    char name[64];
};

static int never_called(void *ud, uint64_t i, enum pl_op *op, uint64_t *off, uint64_t *len,
                        uint64_t *think)
{
    (void)ud, (void)i, (void)op, (void)off, (void)len, (void)think;
    return -1;
}

static void close_job(struct run_job *j)
{
    pl_progress_end(j);
    if (j->job)
        pl_job_close(j->job, 0, NULL);
    j->job = NULL;
    free(j->r);
    j->r = NULL;
}

static int l_job__gc(lua_State *L)
{
    struct run_job *j = luaL_checkudata(L, 1, PL_JOB_MT);
    close_job(j);  /* closed already, unless an error got past p.run (a safety net) */
    luaL_unref(L, LUA_REGISTRYINDEX, j->anchor);
    j->anchor = LUA_NOREF;
    return 0;
}

/*
 * Open the job of spec s (whose gen the caller drives) as a "platter.job"
 * userdata on the stack; its __gc closes it if nothing else did. NULL (the job
 * closed, still on the stack) when it cannot be stepped. Reads the name from
 * the p.run table at 1.
 */
static struct run_job *open_stepped(lua_State *L, const struct pl_job_spec *spec)
{
    struct pl_job_spec s = *spec;
    s.gen = never_called;  /* the caller chooses every I/O through pl_job_step */
    s.gen_ud = NULL;

    int top = lua_gettop(L);
    lua_createtable(L, top, 0);  /* anchor the spec table and every array parse_spec made */
    for (int i = 1; i <= top; i++) {
        lua_pushvalue(L, i);
        lua_rawseti(L, -2, i);
    }
    int anchor = luaL_ref(L, LUA_REGISTRYINDEX);

    struct run_job *j = lua_newuserdata(L, sizeof *j);
    memset(j, 0, sizeof *j);
    j->anchor = LUA_NOREF;
    luaL_getmetatable(L, PL_JOB_MT);
    lua_setmetatable(L, -2);
    j->anchor = anchor;
    j->s = s;
    lua_getfield(L, 1, "name");
    snprintf(j->name, sizeof j->name, "%s", luaL_optstring(L, -1, "run"));
    lua_pop(L, 1);
    j->r = malloc(sizeof *j->r);
    if (!j->r)
        luaL_error(L, "run: not enough memory");
    const char *why = NULL;
    int rc = pl_job_open(&j->job, &j->s, j->r, &why);
    if (rc < 0)
        start_error(L, rc, why);
    if (!pl_job_steppable(j->job)) {
        close_job(j);
        return NULL;
    }
    pl_progress_begin(j, j->name, NULL, hide_progress(L));
    return j;
}

/* Close job j and push its stats; raise the generator error err, or a step's error. */
static int end_stepped(lua_State *L, struct run_job *j, const char *err)
{
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
        free(r);
        start_error(L, rc, why);
    }
    if (err || r->stopped == PL_STOP_GEN_ERROR) {
        struct pl_job_result copy = *r;
        free(r);
        gen_error(L, &copy, &j->s, err);
    }
    push_job_stats(L, j->name, &j->s, r);
    free(r);
    pl_hook_phase(L, -1, "run", 0);
    return 1;
}

/* Close a job that an error left open, now rather than when it is collected
   (the progress line would keep its frame until then). */
static void abort_stepped(lua_State *L, struct run_job *j)
{
    close_job(j);
    luaL_unref(L, LUA_REGISTRYINDEX, j->anchor);
    j->anchor = LUA_NOREF;
}

/*
 * The loop of a stepped gen job, run by lua_pcall once per job with the job
 * and the gen_ctx (light userdata) and the generator as arguments: call
 * gen(i) and issue what it returns, until it returns nil or the job ends.
 * Returns 0, or -1 with the message in g->err for what gen got wrong. The
 * generator is called unprotected: one protected call per job, not per I/O,
 * which would cost about a tenth of a Lua 5.4 step.
 */
static int stepped_loop(lua_State *L)
{
    struct run_job *j = lua_touserdata(L, 1);
    struct gen_ctx *g = lua_touserdata(L, 2);
    int rc = 1, k = 1;
    for (uint64_t i = 0; rc > 0; i++) {
        enum pl_op op = PL_OP_READ;
        uint64_t off = 0, len = 0, think = 0;
        lua_pushvalue(L, 3);
        pl_pushu64(L, i + 1);
        lua_call(L, 1, 4);
        k = gen_parse(g, i, &op, &off, &len, &think);
        lua_pop(L, 4);
        if (k <= 0)
            break;
        rc = pl_job_step(j->job, op, off, len, think);
    }
    lua_pushinteger(L, k < 0 ? -1 : 0);
    return 1;
}

/*
 * p.run{gen=...} on a job that can be stepped (the C API path; LuaJIT's FFI
 * path is lua/platter/fast.lua). An error in the generator (or Ctrl-C in it)
 * closes the job and goes on up unchanged.
 */
static int run_stepped(lua_State *L, struct run_job *j, struct gen_ctx *g)
{
    lua_pushcfunction(L, stepped_loop);
    lua_pushlightuserdata(L, j);
    lua_pushlightuserdata(L, g);
    lua_pushvalue(L, g->fn);
    if (lua_pcall(L, 3, 1, 0) != 0) {
        abort_stepped(L, j);
        return lua_error(L);  /* the same error object, raised again */
    }
    int bad = lua_tointeger(L, -1) < 0;
    lua_pop(L, 1);
    return end_stepped(L, j, bad ? g->err : NULL);
}

/* p._run_begin{...} -> job, or nothing when the job cannot be stepped (use p.run) */
static int l_run_begin(lua_State *L)
{
    struct gen_ctx g = {.L = L, .fn = 0, .err = ""};
    struct pl_job_spec s;
    lua_settop(L, 1);
    parse_spec(L, &s, &g);
    if (!s.gen)
        return luaL_error(L, "run: _run_begin needs 'gen'");
    hook_run_start(L);
    return open_stepped(L, &s) ? 1 : 0;
}

/* p._run_abort(job): close a job whose generator raised (lua/platter/fast.lua) */
static int l_run_abort(lua_State *L)
{
    abort_stepped(L, luaL_checkudata(L, 1, PL_JOB_MT));
    return 0;
}

/* p._run_end(job [, err]) -> stats; raises the generator error err, or a step's error */
static int l_run_end(lua_State *L)
{
    struct run_job *j = luaL_checkudata(L, 1, PL_JOB_MT);
    return end_stepped(L, j, luaL_optstring(L, 2, NULL));
}

/* FFI: one I/O of a stepped job (see pl_job_step); -1 also for a finished job. */
PL_HOT int pl_ffi_job_step(void *ud, int op, double off, double len, double think_us)
{
    struct run_job *j = ud;
    if (!j || !j->job || !pl_isexact(off) || !pl_isexact(len) || !(think_us >= 0))
        return -2;
    return pl_job_step(j->job, (enum pl_op)op, (uint64_t)off, (uint64_t)len,
                       pl_scale_u64(think_us, 1000.0));
}

/* }==================================================================== */

static const luaL_Reg run_funcs[] = {
    {"_run_begin", l_run_begin},
    {"_run_end", l_run_end},
    {"_run_abort", l_run_abort},
    {"run", l_run},
    {NULL, NULL},
};

int luaopen_platter_run(lua_State *L)
{
    luaL_newmetatable(L, PL_JOB_MT);
    lua_pushliteral(L, PL_JOB_MT);
    lua_setfield(L, -2, "__name");
    lua_pushcfunction(L, l_job__gc);
    lua_setfield(L, -2, "__gc");
    lua_pop(L, 1);
    luaL_newlib(L, run_funcs);
    return 1;
}
