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

#include "budget.h"
#include "clock.h"
#include "guard.h"
#include "host.h"
#include "io.h"
#include "target.h"
#include "l_util.h"
#include "l_file.h"
#include "l_open.h"
#include "l_pack.h"
#include "l_stats.h"
#include "out.h"
#include "worker.h"

#define BLOB_MAGIC 0x706c7772u /* "plwr" */

struct blob {
    uint32_t magic;
    uint64_t vclock;          /* the worker's clock when it finished (the target's, if virtual) */
    double cpu_user, cpu_sys; /* the worker's CPU account when it finished */
    struct pl_stats_rec r;    /* fn's stats (r.has_stats), or r.error: fn's error */
    uint32_t values_len;      /* bytes of packed values after the blob (0: fn returned none) */
};

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
    struct pl_pack values = {0};
    if (rc == 0 && !lua_isnil(L, -1)) {
        if (lua_istable(L, -1))
            pl_pack_value(L, &values, lua_gettop(L), 0, 0);
        else
            values.err = "not a table";
    }
    if (rc == 0)
        lua_pop(L, 1); /* the values: the stats are on top, as before */
    if (counting)
        pl_io_phase_remove(all);
    if (rc != 0) {
        /* a Ctrl-C or an error stopped fn part-way: what it did is the result, and
           the error (the worker fails: exit status 1) */
        all->t_end = pl_clock_ns();
        double u, sy;
        pl_clock_cpu(&u, &sy);
        all->user = u - u0;
        all->sys = sy - s0;
        b->r.has_stats = 1;
        b->r.st = *all;
        snprintf(b->r.name, sizeof b->r.name, "%s", pl_phase_cut_name()); /* fn's phase */
        snprintf(b->r.stopped, sizeof b->r.stopped, "%s", pl_interrupted ? "interrupted" : "error");
        if (!pl_interrupted && pl_host_heap_error(L, -1)) {
            char size[32];
            snprintf(b->r.error, sizeof b->r.error,
                     "not enough memory: worker %d reached its share of --max-memory (%s)", number,
                     pl_budget_size(pl_budget.limit, size, sizeof size));
        } else if (!pl_interrupted) {
            const char *m = lua_tostring(L, -1);
            snprintf(b->r.error, sizeof b->r.error, "%s", m ? m : "(error object is not a string)");
        }
    } else if (values.err) {
        snprintf(b->r.error, sizeof b->r.error,
                 "worker %d: the second value of fn must be a plain table (numbers, strings, "
                 "booleans, tables): %s",
                 number, values.err);
    } else if (luaL_testudata(L, -1, PL_STATS_MT)) {
        pl_stats_rec_fill(L, -1, &b->r);
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
    pl_worker_exit(sent < 0 || b->r.error[0] ? 1 : 0);
}

/* What worker w sent, if it is a whole blob (with its values), else NULL. */
static const struct blob *blob_of(const struct pl_worker *w)
{
    const struct blob *b = w->data;
    if (!b || w->len < sizeof *b || b->magic != BLOB_MAGIC || w->len != sizeof *b + b->values_len)
        return NULL;
    return b;
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

#define MAX_WORKERS 1024 /* p.max_workers */

/*
 * The workers this process may still start, its own and theirs: a run holds
 * at most MAX_WORKERS besides platter itself, however deep p.parallel is
 * nested. Each of n workers gets (share - n) / n for its own, so the whole
 * tree holds at most n + n * that. Without it p.parallel(1024) in each of
 * 1024 workers asked for a million processes, past pid_max (32768 here).
 */
static uint64_t share = MAX_WORKERS;

/* In a worker just forked: its bound is its share of what its parent had left (budget.h) */
static void bound_worker(uint64_t each)
{
    if (pl_budget.limit) {
        pl_budget.limit = each;
        pl_budget.worker = 1;
    }
}

static int l_parallel(lua_State *L)
{
    uint64_t n = pl_checkoffset(L, 1, "worker count"); /* (LuaJIT's checkinteger takes 1.5 as 1) */
    if (n < 1 || n > MAX_WORKERS)
        luaL_argerror(L, 1, lua_pushfstring(L, "worker count must be within 1..%d", MAX_WORKERS));
    if (n > share)
        luaL_argerror(L, 1,
                      lua_pushfstring(L,
                                      "a worker may start at most %d workers of its own here (a "
                                      "run holds at most %d, its workers' workers included)",
                                      (int)share, MAX_WORKERS));
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
        /* n workers at once, and this process while they run (its tick): a share each */
        uint64_t each;
        char why[400];
        if (pl_budget_share((unsigned)n, 1, &each, why, sizeof why) < 0)
            return luaL_error(L, "parallel: %s", why);
        int rc = pl_workers_fork(&ws, (unsigned)n);
        if (rc < 0)
            return luaL_error(L, "parallel: cannot start workers: %s", strerror(-rc));
        if (ws.index >= 0) {
            share = (share - n) / n;
            bound_worker(each);
            run_child(L, &ws, ws.index + 1); /* does not return */
        }
        close_handoff(L);
        pl_workers_release(&ws);
        if (tick) {
            uint64_t bound = pl_budget.limit;
            if (bound)
                pl_budget.limit = pl_budget.used + each;
            wait_ticking(L, &ws, tick, tick_ms);
            pl_budget.limit = bound;
        }
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
            /* one at a time, the results of those before held here */
            uint64_t each;
            char why[400];
            if (pl_budget_share(1, 0, &each, why, sizeof why) < 0) {
                pl_workers_free(&ws);
                return luaL_error(L, "parallel: %s", why);
            }
            int rc = pl_workers_fork(&one, 1);
            if (rc < 0) {
                pl_workers_free(&ws);
                return luaL_error(L, "parallel: cannot start workers: %s", strerror(-rc));
            }
            if (one.index >= 0) {
                share = (share - n) / n;
                bound_worker(each);
                run_child(L, &one, (int)i + 1);
            }
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
            struct pl_unpack u = {(const char *)(b + 1), (const char *)(b + 1) + b->values_len};
            if (pl_unpack_value(L, &u, 0) == 0)
                lua_rawseti(L, values, (int)i + 1);
        }
        int stopped = b && strcmp(b->r.stopped, "interrupted") == 0;
        if (b && b->r.has_stats) {
            pl_stats_rec_push(L, &b->r);
            lua_rawseti(L, res, (int)i + 1);
            pl_stats_merge(&merged->st, &b->r.st);
            merged->shorts += b->r.shorts;
            if (b->r.st.t_end && b->r.st.t_end < first)
                first = b->r.st.t_end;
            if (b->r.st.t_end > last)
                last = b->r.st.t_end;
        } else {
            lua_pushboolean(L, 0);
            lua_rawseti(L, res, (int)i + 1);
        }
        /* a worker stopped by a signal that platter did not get failed */
        int bad = !b || !b->r.has_stats || !WIFEXITED(w->status) || WEXITSTATUS(w->status) != 0 ||
                  (stopped && !cut);
        if (bad) {
            char why[300] = "", said[256];
            if (w->refused) { /* (this process had room for its share: a safety net) */
                pl_budget.refused = w->refused;
                snprintf(why, sizeof why, "worker %u: %s", i + 1,
                         pl_budget_why("its result", said, sizeof said));
            }
            push_failure(L, i, w,
                         w->refused ? why
                         : b        ? (b->r.error[0] || !stopped ? b->r.error : "interrupted")
                                    : NULL);
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
    lua_pushinteger(L, MAX_WORKERS);
    lua_setfield(L, -2, "max_workers");
    return 1;
}
