/*
 * p.parallel(n, fn): fork n workers that inherit the script's state, release
 * them together, run fn(i) in each, and gather the stats each returns (sent
 * back as raw pl_stats through a pipe) into per-worker results plus a merged
 * one, and the plain table fn may return beside them (packed below). A worker
 * that dies or fails is reported; the others' results are kept.
 */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "clock.h"
#include "guard.h"
#include "io.h"
#include "target.h"
#include "l_util.h"
#include "l_file.h"
#include "l_open.h"
#include "l_stats.h"
#include "out.h"
#include "worker.h"

#define BLOB_MAGIC 0x706c7772u /* "plwr" */
#define VALUES_MAX (48u << 20) /* packed values: what the pipe's 64 MiB blob leaves room for */
#define VALUES_DEPTH 32        /* nested tables (deeper: a cycle, most likely) */

struct blob {
    uint32_t magic;
    uint32_t has_stats; /* fn returned a stats object */
    uint32_t sub_mask;  /* which of read/write/fsync, slat read/write follow the main stats */
    uint64_t shorts;
    uint64_t vclock;          /* the worker's clock when it finished (the target's, if virtual) */
    double cpu_user, cpu_sys; /* the worker's CPU account when it finished */
    char name[64];
    char stopped[24];
    char error[200]; /* fn's error, or the run's failure */
    struct pl_stats st;
    struct pl_stats sub[5]; /* read, write, fsync; r.slat's read and write */
    uint32_t values_len;    /* bytes of packed values after the blob (0: fn returned none) */
};

/* {====================================================================
** The values: fn's second result, a plain table, packed for the pipe. A
** tagged binary form of platter's own, not JSON: numbers keep every bit
** (lua-cjson writes 14 significant digits), keys keep their types (cjson
** turns {[1] = x, a = y} into {"1": x, ...}) and Lua 5.4's integers stay
** integers. Both ends are this binary on one machine: native byte order.
** ===================================================================== */

struct pack {
    char *p;
    size_t len, cap;
    const char *err; /* the first thing that cannot be packed */
};

static void pack_bytes(struct pack *k, const void *src, size_t n)
{
    if (k->err)
        return;
    if (k->len + n > VALUES_MAX) {
        k->err = "larger than 48 MiB";
        return;
    }
    if (k->len + n > k->cap) {
        size_t cap = k->cap ? k->cap : 256;
        while (cap < k->len + n)
            cap *= 2;
        char *p = realloc(k->p, cap);
        if (!p) {
            k->err = "not enough memory";
            return;
        }
        k->p = p;
        k->cap = cap;
    }
    memcpy(k->p + k->len, src, n);
    k->len += n;
}

static void pack_tag(struct pack *k, char tag)
{
    pack_bytes(k, &tag, 1);
}

/* The value at idx (absolute); keys go through here too (is_key: no tables). */
static void pack_value(lua_State *L, struct pack *k, int idx, int depth, int is_key)
{
    switch (lua_type(L, idx)) {
    case LUA_TBOOLEAN: pack_tag(k, lua_toboolean(L, idx) ? 'T' : 'F'); break;
    case LUA_TNUMBER:
        if (pl_isinteger(L, idx)) {
            int64_t i = (int64_t)lua_tointeger(L, idx);
            pack_tag(k, 'i');
            pack_bytes(k, &i, sizeof i);
        } else {
            double d = (double)lua_tonumber(L, idx);
            pack_tag(k, 'n');
            pack_bytes(k, &d, sizeof d);
        }
        break;
    case LUA_TSTRING: {
        size_t n;
        const char *str = lua_tolstring(L, idx, &n);
        uint32_t n32 = (uint32_t)n;
        if (n > VALUES_MAX) {
            k->err = "larger than 48 MiB";
            break;
        }
        pack_tag(k, 's');
        pack_bytes(k, &n32, sizeof n32);
        pack_bytes(k, str, n);
        break;
    }
    case LUA_TTABLE:
        if (is_key) {
            k->err = "a table as a key";
            break;
        }
        if (depth >= VALUES_DEPTH) {
            k->err = "tables nested too deep (a cycle?)";
            break;
        }
        if (!lua_checkstack(L, 4)) {
            k->err = "not enough memory";
            break;
        }
        pack_tag(k, '{');
        lua_pushnil(L);
        while (!k->err && lua_next(L, idx)) {
            int top = lua_gettop(L);
            pack_value(L, k, top - 1, depth + 1, 1);
            pack_value(L, k, top, depth + 1, 0);
            lua_pop(L, 1);
        }
        if (k->err)
            lua_pop(L, 1); /* the key lua_next left */
        pack_tag(k, '}');
        break;
    default:
        if (!k->err)
            k->err = lua_type(L, idx) == LUA_TFUNCTION   ? "a function"
                     : lua_type(L, idx) == LUA_TUSERDATA ? "a userdata (stats? files?)"
                                                         : "a value that is not plain data";
    }
}

struct unpack {
    const char *p, *end;
};

static int take(struct unpack *u, void *dst, size_t n)
{
    if ((size_t)(u->end - u->p) < n)
        return -1;
    memcpy(dst, u->p, n);
    u->p += n;
    return 0;
}

/* Push one packed value; 0, or -1 (nothing pushed) on a malformed buffer. */
static int unpack_value(lua_State *L, struct unpack *u, int depth)
{
    char tag;
    if (take(u, &tag, 1) < 0 || depth > VALUES_DEPTH || !lua_checkstack(L, 4))
        return -1;
    switch (tag) {
    case 'T':
    case 'F': lua_pushboolean(L, tag == 'T'); return 0;
    case 'i': {
        int64_t i;
        if (take(u, &i, sizeof i) < 0)
            return -1;
        lua_pushinteger(L, (lua_Integer)i);
        return 0;
    }
    case 'n': {
        double d;
        if (take(u, &d, sizeof d) < 0)
            return -1;
        lua_pushnumber(L, d);
        return 0;
    }
    case 's': {
        uint32_t n;
        if (take(u, &n, sizeof n) < 0 || (size_t)(u->end - u->p) < n)
            return -1;
        lua_pushlstring(L, u->p, n);
        u->p += n;
        return 0;
    }
    case '{':
        lua_newtable(L);
        for (;;) {
            if (u->p < u->end && *u->p == '}') {
                u->p++;
                return 0;
            }
            if (unpack_value(L, u, depth + 1) < 0)
                break;
            if (unpack_value(L, u, depth + 1) < 0) {
                lua_pop(L, 1);
                break;
            }
            if (lua_isnil(L, -2) ||
                (lua_type(L, -2) == LUA_TNUMBER && lua_tonumber(L, -2) != lua_tonumber(L, -2))) {
                lua_pop(L, 2); /* nil or NaN keys cannot be packed: malformed */
                break;
            }
            lua_rawset(L, -3);
        }
        lua_pop(L, 1);
        return -1;
    default: return -1;
    }
}

/* }==================================================================== */

/* In the child: run fn(number), send what came of it, and leave. Everything
   the worker does is also counted apart (all), so that a Ctrl-C that stops
   fn part-way still sends what it did, as the worker's result, stopped =
   "interrupted". */
static void run_child(lua_State *L, struct pl_workers *ws, int number)
{
    struct blob *b = calloc(1, sizeof *b);
    struct pl_stats *all = malloc(sizeof *all);
    if (!b || !all || pl_worker_wait_start(ws) < 0)
        pl_worker_exit(1);
    b->magic = BLOB_MAGIC;
    pl_stats_reset(all);
    double u0, s0;
    pl_clock_cpu(&u0, &s0);
    all->t_start = pl_clock_ns();
    int counting = pl_io_phase_add(all) == 0;
    lua_pushvalue(L, 2);
    lua_pushinteger(L, number);
    int rc = lua_pcall(L, 1, 2, 0);
    struct pack values = {0};
    if (rc == 0 && !lua_isnil(L, -1)) {
        if (lua_istable(L, -1))
            pack_value(L, &values, lua_gettop(L), 0, 0);
        else
            values.err = "not a table";
    }
    if (rc == 0)
        lua_pop(L, 1); /* the values: the stats are on top, as before */
    if (counting)
        pl_io_phase_remove(all);
    if (rc != 0 && pl_interrupted) {
        all->t_end = pl_clock_ns();
        double u, sy;
        pl_clock_cpu(&u, &sy);
        all->user = u - u0;
        all->sys = sy - s0;
        b->has_stats = 1;
        b->st = *all;
        snprintf(b->name, sizeof b->name, "%s", pl_phase_cut_name()); /* fn's phase */
        snprintf(b->stopped, sizeof b->stopped, "interrupted");
    } else if (rc != 0) {
        const char *m = lua_tostring(L, -1);
        snprintf(b->error, sizeof b->error, "%s", m ? m : "(error object is not a string)");
    } else if (values.err) {
        snprintf(b->error, sizeof b->error,
                 "worker %d: the second value of fn must be a plain table (numbers, strings, "
                 "booleans, tables): %s",
                 number, values.err);
    } else {
        struct pl_phase *ph = luaL_testudata(L, -1, PL_STATS_MT);
        if (ph) {
            pl_phase_stop(L, ph);
            b->has_stats = 1;
            b->st = ph->st;
            b->shorts = ph->shorts;
            memcpy(b->name, ph->name, sizeof b->name);
            memcpy(b->stopped, ph->stopped, sizeof b->stopped);
            memcpy(b->error, ph->error, sizeof b->error);
            for (int i = 0; i < 3; i++) {
                if (ph->sub[i] == LUA_NOREF)
                    continue;
                lua_rawgeti(L, LUA_REGISTRYINDEX, ph->sub[i]);
                b->sub[i] = pl_checkphase(L, -1)->st;
                b->sub_mask |= 1u << i;
                lua_pop(L, 1);
            }
            if (ph->slat != LUA_NOREF) { /* p.run's r.slat = { read = s, write = s } */
                lua_rawgeti(L, LUA_REGISTRYINDEX, ph->slat);
                for (int i = 0; i < 2; i++) {
                    lua_getfield(L, -1, pl_op_names[i]);
                    struct pl_phase *sub = luaL_testudata(L, -1, PL_STATS_MT);
                    if (sub) {
                        b->sub[3 + i] = sub->st;
                        b->sub_mask |= 1u << (3 + i);
                    }
                    lua_pop(L, 1);
                }
                lua_pop(L, 1);
            }
        }
    }
    b->vclock = pl_clock_ns();
    pl_clock_cpu(&b->cpu_user, &b->cpu_sys);
    size_t len = sizeof *b;
    if (!values.err && values.len) {
        struct blob *big = realloc(b, sizeof *b + values.len);
        if (big) {
            b = big;
            memcpy((char *)(b + 1), values.p, values.len);
            b->values_len = (uint32_t)values.len;
            len += values.len;
        }
    }
    int sent = pl_worker_send(ws, b, len);
    pl_worker_exit(sent < 0 || (!b->has_stats && b->error[0]) ? 1 : 0);
}

/* What worker w sent, if it is a whole blob (with its values), else NULL. */
static const struct blob *blob_of(const struct pl_worker *w)
{
    const struct blob *b = w->data;
    if (!b || w->len < sizeof *b || b->magic != BLOB_MAGIC || w->len != sizeof *b + b->values_len)
        return NULL;
    return b;
}

static void push_result(lua_State *L, const struct blob *b)
{
    struct pl_phase *ph = pl_phase_new(L, b->name);
    ph->st = b->st;
    ph->shorts = b->shorts;
    memcpy(ph->stopped, b->stopped, sizeof ph->stopped);
    memcpy(ph->error, b->error, sizeof ph->error);
    ph->name[sizeof ph->name - 1] = ph->stopped[sizeof ph->stopped - 1] = '\0';
    ph->error[sizeof ph->error - 1] = '\0';
    for (int i = 0; i < 3; i++) {
        if (!(b->sub_mask & (1u << i)))
            continue;
        struct pl_phase *sub = pl_phase_new(L, pl_op_names[i]);
        sub->st = b->sub[i];
        ph->sub[i] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    if (b->sub_mask & (3u << 3)) { /* r.slat, as p.run gave it */
        lua_createtable(L, 0, 2);
        for (int i = 0; i < 2; i++) {
            if (!(b->sub_mask & (1u << (3 + i))))
                continue;
            struct pl_phase *sub = pl_phase_new(L, pl_op_names[i]);
            sub->st = b->sub[3 + i];
            lua_setfield(L, -2, pl_op_names[i]);
        }
        ph->slat = luaL_ref(L, LUA_REGISTRYINDEX);
    }
}

static void push_failure(lua_State *L, unsigned i, const struct pl_worker *w, const char *err)
{
    lua_createtable(L, 0, 4);
    lua_pushinteger(L, i + 1);
    lua_setfield(L, -2, "worker");
    if (WIFEXITED(w->status)) {
        lua_pushinteger(L, WEXITSTATUS(w->status));
        lua_setfield(L, -2, "status");
    } else if (WIFSIGNALED(w->status)) {
        lua_pushinteger(L, WTERMSIG(w->status));
        lua_setfield(L, -2, "signal");
    }
    if (err && *err)
        lua_pushstring(L, err);
    else if (WIFSIGNALED(w->status))
        lua_pushfstring(L, "worker %d killed by signal %d (%s)", (int)i + 1, WTERMSIG(w->status),
                        strsignal(WTERMSIG(w->status)));
    else
        lua_pushfstring(L, "worker %d returned no stats", (int)i + 1);
    lua_setfield(L, -2, "error");
}

/* the "phase" hook for the merged phase at 1 and the result table at 2, under a
   pcall: a p.parallel that a Ctrl-C cut is recorded before "interrupted" goes on */
static int hook_parallel_protected(lua_State *L)
{
    pl_hook_phase(L, 1, "parallel", 2);
    return 0;
}

/*
 * p.parallel(n, fn) -> { [i] = stats | false, merged = stats, first_done = s,
 *                        last_done = s, failed = { {worker, status|signal, error} },
 *                        values = { [i] = fn's second result } }
 */
/* The files of opts.handoff (argument 3) that are open, checked before any fork. */
static void check_handoff(lua_State *L)
{
    if (lua_isnoneornil(L, 3))
        return;
    luaL_checktype(L, 3, LUA_TTABLE);
    lua_getfield(L, 3, "handoff");
    if (!lua_isnil(L, -1)) {
        luaL_argcheck(L, lua_istable(L, -1), 3, "'handoff' must be a list of files");
        for (int i = 1;; i++) {
            lua_rawgeti(L, -1, i);
            if (lua_isnil(L, -1)) {
                lua_pop(L, 1);
                break;
            }
            if (lua_toboolean(L, -1) && !luaL_testudata(L, -1, PL_FILE_MT))
                luaL_argerror(L, 3, "'handoff' must be a list of files");
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
}

/* Close the caller's copies of the handed-off files: the workers keep theirs,
   so the last close of such a file is a worker's. */
static void close_handoff(lua_State *L)
{
    if (!lua_istable(L, 3))
        return;
    lua_getfield(L, 3, "handoff");
    for (int i = 1; lua_istable(L, -1); i++) {
        lua_rawgeti(L, -1, i);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            break;
        }
        struct pl_file *f = luaL_testudata(L, -1, PL_FILE_MT);
        if (f)
            pl_file_close(f);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/*
 * opts.tick: call fn every ms while the workers run (before any has sent its
 * result, and until all have), in this process. An error in fn is reported on
 * stderr and ends the ticks, not the workers.
 */
static void wait_ticking(lua_State *L, const struct pl_workers *ws, int fn, double ms)
{
    unsigned n = ws->n;
    struct pollfd *pf = calloc(n, sizeof *pf);
    char *ready = calloc(n, 1);
    if (!pf || !ready) {
        free(pf);
        free(ready);
        return;
    }
    uint64_t step = (uint64_t)(ms * 1e6), next = pl_clock_ns() + step;
    int ticking = 1;
    for (;;) {
        unsigned k = 0;
        for (unsigned i = 0; i < n; i++)
            if (!ready[i] && ws->w[i].fd >= 0) {
                pf[k].fd = ws->w[i].fd;
                pf[k].events = POLLIN;
                pf[k].revents = 0;
                k++;
            }
        if (!k)
            break;
        uint64_t now = pl_clock_ns();
        int timeout = !ticking ? -1 : next > now ? (int)((next - now) / 1000000u) + 1 : 0;
        if (poll(pf, k, timeout) > 0) {
            for (unsigned j = 0; j < k; j++)
                if (pf[j].revents)
                    for (unsigned i = 0; i < n; i++)
                        if (ws->w[i].fd == pf[j].fd)
                            ready[i] = 1;
        }
        now = pl_clock_ns();
        if (ticking && now >= next) {
            lua_pushvalue(L, fn);
            if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
                const char *m = lua_tostring(L, -1);
                char line[512];
                int len = snprintf(line, sizeof line, "platter: parallel: tick: %s\n",
                                   m ? m : "(error object is not a string)");
                pl_out_notice(line, len < (int)sizeof line ? (size_t)len : sizeof line - 1);
                lua_pop(L, 1);
                ticking = 0;
            }
            next += step;
            if (next <= now)
                next = now + step;
        }
    }
    free(pf);
    free(ready);
}

static int l_parallel(lua_State *L)
{
    lua_Integer n = luaL_checkinteger(L, 1);
    luaL_argcheck(L, n >= 1 && n <= 1024, 1, "worker count must be within 1..1024");
    luaL_checktype(L, 2, LUA_TFUNCTION);
    check_handoff(L);
    lua_settop(L, 3);
    int partial = 0;              /* opts.partial: after a Ctrl-C, return what the workers did */
    char pname[128] = "parallel"; /* opts.name: the merged phase's name */
    int tick = 0;                 /* opts.tick: its stack index */
    double tick_ms = 0;
    if (lua_istable(L, 3)) {
        lua_getfield(L, 3, "partial");
        partial = lua_toboolean(L, -1);
        lua_getfield(L, 3, "name");
        if (lua_type(L, -1) == LUA_TSTRING)
            snprintf(pname, sizeof pname, "%s", lua_tostring(L, -1));
        else if (!lua_isnil(L, -1))
            luaL_argerror(L, 3, "'name' must be a string");
        lua_pop(L, 2);
        lua_getfield(L, 3, "tick");
        if (!lua_isnil(L, -1)) {
            luaL_argcheck(L, lua_isfunction(L, -1), 3, "'tick' must be a function");
            lua_getfield(L, 3, "tick_ms");
            tick_ms = lua_tonumber(L, -1);
            luaL_argcheck(L, lua_isnumber(L, -1) && tick_ms >= 1, 3,
                          "'tick' needs 'tick_ms', a number of ms (1 or more)");
            lua_pop(L, 1);
            tick = lua_gettop(L);
        } else {
            lua_pop(L, 1);
        }
    }
    pl_checkintr(L);
    /* the merged phase: the hook sees it start (the cache watch), then end */
    struct pl_phase *merged = pl_phase_new(L, pname);
    int mi = lua_gettop(L);
    pl_hook_phase_start(L, mi);
    lua_settop(L, mi);

    struct pl_workers ws;
    unsigned ran = (unsigned)n; /* the workers that were started */
    if (!(pl_target->flags & PL_TARGET_SERIAL)) {
        int rc = pl_workers_fork(&ws, (unsigned)n);
        if (rc < 0)
            return luaL_error(L, "parallel: cannot start workers: %s", strerror(-rc));
        if (ws.index >= 0)
            run_child(L, &ws, ws.index + 1); /* does not return */
        close_handoff(L);
        pl_workers_release(&ws);
        if (tick)
            wait_ticking(L, &ws, tick, tick_ms);
        pl_workers_collect(&ws);
    } else {
        /*
         * A target that serves one request at a time: the workers run one after
         * another on its clock, each from where the last ended. After a Ctrl-C
         * the rest are not started.
         */
        memset(&ws, 0, sizeof ws);
        ws.n = (unsigned)n;
        ws.w = calloc((size_t)n, sizeof *ws.w);
        if (!ws.w)
            return luaL_error(L, "parallel: not enough memory");
        ws.released = pl_clock_ns();
        for (unsigned i = 0; i < (unsigned)n; i++) {
            if (pl_interrupted) {
                ran = i;
                break;
            }
            struct pl_workers one;
            double u0, s0;
            pl_clock_cpu(&u0, &s0);
            int rc = pl_workers_fork(&one, 1);
            if (rc < 0) {
                pl_workers_free(&ws);
                return luaL_error(L, "parallel: cannot start workers: %s", strerror(-rc));
            }
            if (one.index >= 0)
                run_child(L, &one, (int)i + 1);
            pl_workers_release(&one);
            pl_workers_collect(&one);
            ws.w[i] = one.w[0];
            free(one.w);
            const struct blob *b = blob_of(&ws.w[i]);
            if (b) {
                /* the target's clock moves on to the worker's end (a Ctrl-C
                   there reaches this process too) */
                pl_target->join(b->vclock, b->cpu_user - u0, b->cpu_sys - s0);
            }
        }
    }
    if (pl_target->flags & PL_TARGET_SERIAL)
        close_handoff(L); /* one after another: the caller's copies served them all */
    /* Ctrl-C reaches the workers and platter alike: the phase so far is a result */
    int cut = pl_interrupted != 0;

    lua_createtable(L, (int)n, 5);
    int res = lua_gettop(L);
    lua_newtable(L);
    int failed = lua_gettop(L);
    lua_newtable(L);
    int values = lua_gettop(L);
    int nfailed = 0;
    uint64_t first = UINT64_MAX, last = 0;
    for (unsigned i = 0; i < ran; i++) {
        const struct pl_worker *w = &ws.w[i];
        const struct blob *b = blob_of(w);
        if (b && b->values_len) {
            struct unpack u = {(const char *)(b + 1), (const char *)(b + 1) + b->values_len};
            if (unpack_value(L, &u, 0) == 0)
                lua_rawseti(L, values, (int)i + 1);
        }
        int stopped = b && strcmp(b->stopped, "interrupted") == 0;
        if (b && b->has_stats) {
            push_result(L, b);
            lua_rawseti(L, res, (int)i + 1);
            pl_stats_merge(&merged->st, &b->st);
            merged->shorts += b->shorts;
            if (b->st.t_end && b->st.t_end < first)
                first = b->st.t_end;
            if (b->st.t_end > last)
                last = b->st.t_end;
        } else {
            lua_pushboolean(L, 0);
            lua_rawseti(L, res, (int)i + 1);
        }
        /* a worker stopped by a signal that platter did not get failed */
        int bad = !b || !b->has_stats || !WIFEXITED(w->status) || WEXITSTATUS(w->status) != 0 ||
                  (stopped && !cut);
        if (bad) {
            push_failure(L, i, w, b ? (b->error[0] || !stopped ? b->error : "interrupted") : NULL);
            lua_rawseti(L, failed, ++nfailed);
        }
    }
    for (unsigned i = ran; i < (unsigned)n; i++) { /* not started: no result, no failure */
        lua_pushboolean(L, 0);
        lua_rawseti(L, res, (int)i + 1);
    }
    pl_workers_free(&ws);
    if (!merged->st.t_start)
        merged->st.t_start = merged->st.t_end = ws.released;
    if (cut) {
        snprintf(merged->stopped, sizeof merged->stopped, "interrupted");
    }
    lua_pushvalue(L, mi);
    lua_setfield(L, res, "merged");
    lua_pushvalue(L, failed);
    lua_setfield(L, res, "failed");
    lua_pushvalue(L, values);
    lua_setfield(L, res, "values");
    lua_pushnumber(L, first == UINT64_MAX ? 0.0 : (double)(first - ws.released) / 1e9);
    lua_setfield(L, res, "first_done");
    lua_pushnumber(L, last ? (double)(last - ws.released) / 1e9 : 0.0);
    lua_setfield(L, res, "last_done");
    lua_pushinteger(L, n);
    lua_setfield(L, res, "n");
    pl_io_phase_absorb(&merged->st);
    if (cut) {
        lua_pushcfunction(L, hook_parallel_protected);
        lua_pushvalue(L, mi);
        lua_pushvalue(L, res);
        if (lua_pcall(L, 2, 0, 0) != LUA_OK)
            lua_pop(L, 1);
        if (partial) { /* recorded as cut; the caller reports it and then stops */
            lua_pushboolean(L, 1);
            lua_setfield(L, res, "interrupted");
            lua_pushvalue(L, res);
            return 1;
        }
        pl_checkintr(L); /* raises "interrupted", as p.phase does after a cut */
    }
    pl_hook_phase(L, mi, "parallel", res);
    lua_pushvalue(L, res);
    return 1;
}

static const luaL_Reg worker_funcs[] = {
    {"parallel", l_parallel},
    {NULL, NULL},
};

int luaopen_platter_worker(lua_State *L)
{
    luaL_newlib(L, worker_funcs);
    return 1;
}
