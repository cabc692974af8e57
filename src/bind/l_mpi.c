/*
 * p.mpi: the ranks of a distributed run and their collectives (barrier,
 * bcast, gather, allgather, allreduce, agree, reduce), the same code on one
 * rank and on many: only the transport below differs (src/mpi/pl_mpi.h).
 * Every platter has the one-rank transport here; under mpirun the module
 * platter_mpi.so (src/mpi/platter_mpi.c) replaces it.
 *
 * Every collective starts with an exchange of fixed-size descriptors (its
 * kind, name, root, payload size, sequence number, and whether the rank
 * failed), so that ranks that disagree, or a rank whose script failed, are
 * reported on every rank instead of hanging. The payload follows.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "host.h"
#include "l_mpi.h"
#include "l_open.h"
#include "l_pack.h"
#include "l_stats.h"
#include "l_util.h"
#include "out.h"
#include "mpi/pl_mpi.h"

/* {====================================================================
** The one-rank transport
** ===================================================================== */

static int one_exchange(const void *mine, void *all, size_t n, double timeout_s)
{
    (void)timeout_s;
    memcpy(all, mine, n);
    return 0;
}

static int one_release(void)
{
    return 0;
}

static int one_bcast(void *buf, size_t n, int root)
{
    (void)buf, (void)n, (void)root;
    return 0;
}

static int one_gatherv(const void *buf, size_t n, void *all, const size_t *lens, int root)
{
    (void)lens, (void)root;
    memcpy(all, buf, n);
    return 0;
}

static void one_abort(int status)
{
    fflush(stdout);
    _exit(status);
}

static void one_finalize(void)
{
}

static struct pl_mpi one = {
    .abi = PL_MPI_ABI,
    .rank = 0,
    .size = 1,
    .node = 0,
    .nodes = 1,
    .local_rank = 0,
    .local_size = 1,
    .exchange = one_exchange,
    .release = one_release,
    .bcast = one_bcast,
    .gatherv = one_gatherv,
    .abort = one_abort,
    .finalize = one_finalize,
};

/* }==================================================================== */

static struct pl_mpi *T = &one;
static pid_t owner;            /* the rank's process; a forked p.parallel worker is not it */
static uint64_t seq;           /* collectives so far */
static int dead;               /* a collective failed on every rank: no exchange after it */
static double timeout_s = 600; /* PLATTER_MPI_TIMEOUT */

enum kind {
    K_BARRIER,
    K_BCAST,
    K_GATHER,
    K_ALLGATHER,
    K_ALLREDUCE,
    K_AGREE,
    K_REDUCE,
    K_END,
    K_FAILED
};
static const char *const kind_names[] = {"barrier", "bcast",  "gather", "allgather", "allreduce",
                                         "agree",   "reduce", "end",    "failed"};

struct desc {
    uint32_t kind;
    int32_t root;
    uint64_t seq;
    uint64_t len;    /* payload bytes this rank gives */
    char name[64];   /* barrier's name, reduce's stats names, allreduce's op */
    char where[96];  /* the script's line that called it */
    char error[160]; /* K_FAILED: the rank's error */
};

const struct pl_mpi *pl_mpi_transport(void)
{
    return T;
}

int pl_mpi_active(void)
{
    return T != &one;
}

void pl_mpi_set_transport(struct pl_mpi *m)
{
    T = m ? m : &one;
    const char *t = getenv("PLATTER_MPI_TIMEOUT");
    if (t && *t) {
        char *end;
        double v = strtod(t, &end);
        if (!*end && v > 0)
            timeout_s = v;
    }
}

/* "barrier('read')", "bcast at job.lua:12", "the end of the script" */
static void describe(const struct desc *d, char *out, size_t n)
{
    if (d->kind == K_END) {
        snprintf(out, n, "the end of the script");
        return;
    }
    const char *k = d->kind <= K_FAILED ? kind_names[d->kind] : "?";
    if (d->name[0])
        snprintf(out, n, "%s('%.60s')%s%.90s", k, d->name, d->where[0] ? " at " : "", d->where);
    else
        snprintf(out, n, "%s%s%.90s", k, d->where[0] ? " at " : "", d->where);
}

static int failure(lua_State *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int failure(lua_State *L, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    dead = 1;
    if (L)
        return luaL_error(L, "%s", msg);
    pl_out_boundary();
    fprintf(stderr, "platter: %s\n", msg);
    return -1;
}

/*
 * The descriptor exchange every collective starts with. all gets every
 * rank's descriptor; a mismatch or a failed rank raises (L) or reports and
 * returns -1 (L NULL: the end of the run).
 */
static int exchange(lua_State *L, struct desc *d, struct desc **out)
{
    d->seq = ++seq;
    struct desc *all = calloc((size_t)T->size, sizeof *all);
    if (!all)
        return L ? luaL_error(L, "p.mpi: not enough memory") : -1;
    if (T->exchange(d, all, sizeof *d, timeout_s) < 0) {
        char what[256];
        describe(d, what, sizeof what);
        pl_out_boundary();
        fprintf(stderr,
                "platter: rank %d: %s (collective %llu) waited more than %g s for the other "
                "ranks (PLATTER_MPI_TIMEOUT); aborting the run\n",
                T->rank, what, (unsigned long long)d->seq, timeout_s);
        fflush(stderr);
        T->abort(1);
        _exit(1);
    }
    for (int r = 0; r < T->size; r++) {
        if (all[r].kind == K_FAILED && d->kind != K_FAILED) {
            char err[sizeof all[r].error];
            memcpy(err, all[r].error, sizeof err);
            err[sizeof err - 1] = '\0';
            free(all);
            return failure(L, "rank %d failed: %s", r, err);
        }
    }
    if (d->kind == K_FAILED) { /* the failing rank: the others now know */
        free(all);
        dead = 1;
        return -1;
    }
    for (int r = 1; r < T->size; r++) {
        if (all[r].kind != all[0].kind || strncmp(all[r].name, all[0].name, sizeof d->name) ||
            all[r].root != all[0].root) {
            char a[256], b[256];
            all[r].name[sizeof d->name - 1] = all[0].name[sizeof d->name - 1] = '\0';
            all[r].where[sizeof d->where - 1] = all[0].where[sizeof d->where - 1] = '\0';
            describe(&all[r], a, sizeof a);
            describe(&all[0], b, sizeof b);
            unsigned long long s = (unsigned long long)d->seq;
            free(all);
            return failure(L,
                           "collective %llu does not match across ranks: rank %d called %s "
                           "while rank 0 called %s",
                           s, r, a, b);
        }
    }
    if (out)
        *out = all;
    else
        free(all);
    return 0;
}

/* Start collective kind from Lua: the checks every one makes, then the exchange. */
static struct desc *begin(lua_State *L, const char *fn, enum kind kind, const char *name, int root,
                          uint64_t len)
{
    if (getpid() != owner)
        luaL_error(L,
                   "p.mpi.%s: called in a p.parallel worker; only the rank's own process "
                   "takes part in collectives",
                   fn);
    if (dead)
        luaL_error(L, "p.mpi.%s: an earlier collective failed; the run is ending", fn);
    pl_checkintr(L);
    struct desc d;
    memset(&d, 0, sizeof d);
    d.kind = kind;
    d.root = root;
    d.len = len;
    snprintf(d.name, sizeof d.name, "%s", name ? name : "");
    luaL_where(L, 1);
    const char *w = lua_tostring(L, -1);
    size_t wl = strlen(w);
    snprintf(d.where, sizeof d.where, "%.*s", (int)(wl > 2 ? wl - 2 : 0), w); /* no ": " */
    lua_pop(L, 1);
    struct desc *all;
    exchange(L, &d, &all);
    return all;
}

static int checkroot(lua_State *L, int arg, const char *fn)
{
    /* a number, not luaL_optinteger: LuaJIT's would take 1.5 as rank 1 */
    lua_Number r = luaL_optnumber(L, arg, 0);
    if (!(r >= 0 && r < T->size && r == (lua_Number)(int)r)) {
        char num[32];
        snprintf(num, sizeof num, "%.14g", (double)r);
        luaL_error(L, "p.mpi.%s: root %s is not a rank (0..%d)", fn, num, T->size - 1);
    }
    return (int)r;
}

static void pack_arg(lua_State *L, int arg, struct pl_pack *k, const char *fn)
{
    memset(k, 0, sizeof *k);
    pl_pack_value(L, k, arg, 0, 0);
    if (k->err) {
        free(k->p);
        luaL_error(L,
                   "p.mpi.%s: the value must be plain data (nil, numbers, strings, "
                   "booleans, tables of them): %s",
                   fn, k->err);
    }
}

static void push_unpacked(lua_State *L, const char *p, size_t n, const char *fn)
{
    struct pl_unpack u = {p, p + n};
    if (pl_unpack_value(L, &u, 0) < 0)
        luaL_error(L, "p.mpi.%s: a malformed message", fn);
}

/* p.mpi.barrier(name): every rank waits here until all have come */
static int l_barrier(lua_State *L)
{
    const char *name = luaL_optstring(L, 1, "");
    free(begin(L, "barrier", K_BARRIER, name, 0, 0));
    if (T->release() < 0)
        return luaL_error(L, "p.mpi.barrier: the MPI barrier failed");
    return 0;
}

/* p.mpi.bcast(v [, root]) -> root's v, at every rank */
static int l_bcast(lua_State *L)
{
    int root = checkroot(L, 2, "bcast");
    lua_settop(L, 1);
    struct pl_pack k = {0};
    if (T->rank == root)
        pack_arg(L, 1, &k, "bcast");
    struct desc *all = begin(L, "bcast", K_BCAST, "", root, k.len);
    size_t n = all[root].len;
    free(all);
    char *buf = T->rank == root ? k.p : malloc(n ? n : 1);
    if (!buf || T->bcast(buf, n, root) < 0) {
        free(buf);
        return luaL_error(L, "p.mpi.bcast: the MPI broadcast failed");
    }
    lua_settop(L, 0);
    push_unpacked(L, buf, n, "bcast");
    free(buf);
    return 1;
}

/* Every rank's packed value at arg, as a list, at root (root < 0: at every rank);
   elsewhere nothing is pushed. Returns whether a list was pushed. */
static int gather_values(lua_State *L, int arg, int root, const char *fn, enum kind kind,
                         const char *name, struct pl_pack *k)
{
    pack_arg(L, arg, k, fn);
    struct desc *all = begin(L, fn, kind, name, root < 0 ? -1 : root, k->len);
    size_t *lens = calloc((size_t)T->size, sizeof *lens);
    size_t total = 0;
    for (int r = 0; lens && r < T->size; r++)
        total += lens[r] = all[r].len;
    free(all);
    int here = root < 0 || root == T->rank;
    char *buf = here ? malloc(total ? total : 1) : NULL;
    if (!lens || (here && !buf) || T->gatherv(k->p, k->len, buf, lens, root) < 0) {
        free(lens), free(buf), free(k->p);
        k->p = NULL;
        luaL_error(L, "p.mpi.%s: the MPI gather failed", fn);
    }
    free(k->p);
    k->p = NULL;
    if (!here) {
        free(lens);
        return 0;
    }
    lua_createtable(L, T->size, 0);
    size_t off = 0;
    for (int r = 0; r < T->size; r++) {
        push_unpacked(L, buf + off, lens[r], fn);
        lua_rawseti(L, -2, r + 1);
        off += lens[r];
    }
    free(lens), free(buf);
    return 1;
}

/* p.mpi.gather(v [, root]) -> {rank 0's v, rank 1's, ...} at root, nil elsewhere */
static int l_gather(lua_State *L)
{
    int root = checkroot(L, 2, "gather");
    lua_settop(L, 1);
    struct pl_pack k;
    if (!gather_values(L, 1, root, "gather", K_GATHER, "", &k))
        lua_pushnil(L);
    return 1;
}

/* p.mpi.allgather(v) -> {rank 0's v, rank 1's, ...} at every rank */
static int l_allgather(lua_State *L)
{
    lua_settop(L, 1);
    struct pl_pack k;
    gather_values(L, 1, -1, "allgather", K_ALLGATHER, "", &k);
    return 1;
}

/* p.mpi.allreduce(x, op) -> x folded over the ranks in rank order: op "sum", "min",
   "max" (numbers), "and", "or" (any value, as its truth) */
static int l_allreduce(lua_State *L)
{
    static const char *const ops[] = {"sum", "min", "max", "and", "or", NULL};
    int op = luaL_checkoption(L, 2, NULL, ops);
    if (op <= 2 && lua_type(L, 1) != LUA_TNUMBER)
        return luaL_error(L, "p.mpi.allreduce: '%s' needs a number, got %s", ops[op],
                          luaL_typename(L, 1));
    if (op > 2)
        lua_pushboolean(L, lua_toboolean(L, 1));
    else
        lua_pushvalue(L, 1);
    lua_replace(L, 1);
    lua_settop(L, 1);
    struct pl_pack k;
    gather_values(L, 1, -1, "allreduce", K_ALLREDUCE, ops[op], &k);
    int list = lua_gettop(L);
    if (op > 2) {
        int acc = op == 3;
        for (int r = 1; r <= T->size; r++) {
            lua_rawgeti(L, list, r);
            int v = lua_toboolean(L, -1);
            acc = op == 3 ? acc && v : acc || v;
            lua_pop(L, 1);
        }
        lua_pushboolean(L, acc);
        return 1;
    }
    int ints = 1;
    lua_Number sum = 0;
    int64_t isum = 0;
    lua_rawgeti(L, list, 1); /* the running min or max */
    int best = lua_gettop(L);
    for (int r = 1; r <= T->size; r++) {
        lua_rawgeti(L, list, r);
        lua_Number v = lua_tonumber(L, -1);
        if (!pl_isinteger(L, -1))
            ints = 0;
        else
            isum += (int64_t)lua_tointeger(L, -1);
        sum += v;
        if ((op == 1 && v < lua_tonumber(L, best)) || (op == 2 && v > lua_tonumber(L, best)))
            lua_replace(L, best);
        else
            lua_pop(L, 1);
    }
    if (op == 0 && ints)
        lua_pushinteger(L, (lua_Integer)isum);
    else if (op == 0)
        lua_pushnumber(L, sum);
    else
        lua_pushvalue(L, best);
    return 1;
}

/* p.mpi.agree(cond) -> true when cond is true at every rank */
static int l_agree(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_pushboolean(L, lua_toboolean(L, 1));
    lua_replace(L, 1);
    lua_settop(L, 1);
    struct pl_pack k;
    gather_values(L, 1, -1, "agree", K_AGREE, "", &k);
    int acc = 1;
    for (int r = 1; r <= T->size; r++) {
        lua_rawgeti(L, -1, r);
        acc = acc && lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
    lua_pushboolean(L, acc);
    return 1;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * p.mpi.reduce(stats [, root]) -> merged, per_rank at root; nil elsewhere.
 * stats is one stats object, or a table of them keyed by name (every rank
 * the same names): merged is then such a table. per_rank[r + 1] is rank r's
 * (a copy). The merge is s:merge's, in rank order: counts and histogram
 * bins summed, so merged percentiles are those of all the samples.
 */
static int l_reduce(lua_State *L)
{
    int root = checkroot(L, 2, "reduce");
    lua_settop(L, 1);
    int single = luaL_testudata(L, 1, PL_STATS_MT) != NULL;
    if (!single && !lua_istable(L, 1))
        return luaL_error(L,
                          "p.mpi.reduce: expected a stats object or a table of them keyed "
                          "by name, got %s",
                          luaL_typename(L, 1));
    /* the names, sorted, so that every rank packs them in one order */
    size_t n = 0;
    const char *names[256];
    if (!single) {
        lua_pushnil(L);
        while (lua_next(L, 1)) {
            if (lua_type(L, -2) != LUA_TSTRING || !luaL_testudata(L, -1, PL_STATS_MT))
                return luaL_error(L, "p.mpi.reduce: the table must map names to stats objects");
            if (n == sizeof names / sizeof *names)
                return luaL_error(L, "p.mpi.reduce: more than 256 stats objects");
            names[n++] = lua_tostring(L, -2);
            lua_pop(L, 1);
        }
        qsort(names, n, sizeof *names, cmp_names);
    } else {
        n = 1;
    }
    size_t cnt = n ? n : 1;
    struct pl_stats_rec *mine = calloc(cnt, sizeof *mine);
    if (!mine)
        return luaL_error(L, "p.mpi.reduce: not enough memory");
    char key[64] = "";
    for (size_t i = 0; i < n; i++) {
        if (single) {
            pl_stats_rec_fill(L, 1, &mine[0]);
        } else {
            lua_getfield(L, 1, names[i]);
            pl_stats_rec_fill(L, -1, &mine[i]);
            lua_pop(L, 1);
            size_t kl = strlen(key);
            snprintf(key + kl, sizeof key - kl, "%s%s", i ? "," : "", names[i]);
        }
    }
    if (single) {
        memcpy(key, mine[0].name, sizeof key);
        key[sizeof key - 1] = '\0';
    }
    size_t len = n * sizeof *mine;
    struct desc *all = begin(L, "reduce", K_REDUCE, key, root, len);
    size_t *lens = calloc((size_t)T->size, sizeof *lens);
    int ok = lens != NULL;
    for (int r = 0; ok && r < T->size; r++) {
        lens[r] = all[r].len;
        ok = all[r].len == len; /* the names agreed; a short list (cut at 64 chars) may not */
    }
    free(all);
    int here = T->rank == root;
    struct pl_stats_rec *recs = here ? calloc((size_t)T->size * cnt, sizeof *recs) : NULL;
    if (!ok || (here && !recs) || T->gatherv(mine, len, recs, lens, root) < 0) {
        free(mine), free(lens), free(recs);
        return luaL_error(L, "p.mpi.reduce: the ranks' stats tables differ, or the MPI gather "
                             "failed");
    }
    free(mine), free(lens);
    if (!here) {
        lua_pushnil(L);
        return 1;
    }
    /* merged: rank 0's, then rank 1's, ... added, as s:merge does */
    if (!single)
        lua_newtable(L);
    int merged = lua_gettop(L);
    for (size_t i = 0; i < n; i++) {
        struct pl_stats_rec m = recs[i];
        for (int r = 1; r < T->size; r++)
            pl_stats_rec_merge(&m, &recs[(size_t)r * n + i]);
        pl_stats_rec_push(L, &m);
        if (!single)
            lua_setfield(L, merged, names[i]);
    }
    if (single)
        merged = lua_gettop(L);
    lua_createtable(L, T->size, 0);
    for (int r = 0; r < T->size; r++) {
        if (!single)
            lua_newtable(L);
        for (size_t i = 0; i < n; i++) {
            pl_stats_rec_push(L, &recs[(size_t)r * n + i]);
            if (!single)
                lua_setfield(L, -2, names[i]);
        }
        lua_rawseti(L, -2, r + 1);
    }
    free(recs);
    (void)merged;
    return 2;
}

/* }==================================================================== */

/* {====================================================================
** Loading the MPI module
** ===================================================================== */

static struct pl_mpi ompi;

/* The environment variable mpirun (or another PMI launcher) set, as "NAME=value". */
static const char *launcher(char *buf, size_t len)
{
    static const char *const names[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE",
                                        NULL};
    for (int i = 0; names[i]; i++) {
        const char *v = getenv(names[i]);
        if (v) {
            snprintf(buf, len, "%s=%s", names[i], v);
            return buf;
        }
    }
    return NULL;
}

/* dlopen the module: $PLATTER_MPI_MODULE, else beside the executable (a build
   tree), else where the install put it; why says what failed. */
static void *open_module(char *why, size_t len)
{
    const char *env = getenv("PLATTER_MPI_MODULE");
    char exe[4096], path[4200];
    why[0] = '\0';
    if (env && *env) {
        void *h = dlopen(env, RTLD_NOW | RTLD_GLOBAL);
        if (!h)
            snprintf(why, len, "%s", dlerror());
        return h;
    }
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(why, len, "cannot find the executable: %s", strerror(errno));
        return NULL;
    }
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    const char *tries[] = {"platter_mpi.so", PL_MPI_MODULE_REL};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", exe, tries[i]);
        if (access(path, F_OK) != 0)
            continue;
        void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL); /* Open MPI's plugins need libmpi's
                                                           symbols global */
        if (!h)
            snprintf(why, len, "%s", dlerror());
        return h;
    }
    snprintf(why, len, "no %.200s/platter_mpi.so or %.200s/%s", exe, exe, PL_MPI_MODULE_REL);
    return NULL;
}

/* At exit: wait (without spinning) until every rank is here, so that no rank's
   exit makes mpirun end the others while rank 0 still writes its results. */
static void finalize_at_exit(void)
{
    if (getpid() != owner || T != &ompi)
        return;
    fflush(NULL);
    char *all = calloc((size_t)T->size, 1), c = 0;
    if (all && T->exchange(&c, all, 1, timeout_s) < 0) {
        fprintf(stderr,
                "platter: rank %d: the other ranks did not end within %g s "
                "(PLATTER_MPI_TIMEOUT); aborting the run\n",
                T->rank, timeout_s);
        T->abort(1);
    }
    free(all);
    T->finalize();
}

int pl_mpi_start(int forced)
{
    char env[160];
    const char *by = launcher(env, sizeof env);
    if (!by && !forced)
        return 0;
    char why[600];
    void *h = PL_HAVE_MPI ? open_module(why, sizeof why) : NULL;
    if (!h) {
        if (!PL_HAVE_MPI)
            fprintf(stderr,
                    "platter: %s%s%s but built without MPI support; rebuild with "
                    "-DPLATTER_MPI=on (Open MPI's libopenmpi-dev installed)\n",
                    by ? "started by mpirun (" : "--mpi given", by ? by : "", by ? ")" : "");
        else
            fprintf(stderr, "platter: %s%s%s but the MPI module cannot be loaded: %s\n",
                    by ? "started by mpirun (" : "--mpi given", by ? by : "", by ? ")" : "", why);
        return -1;
    }
    pl_mpi_init_fn init = (pl_mpi_init_fn)dlsym(h, PL_MPI_INIT);
    if (!init) {
        fprintf(stderr, "platter: the MPI module has no %s: %s\n", PL_MPI_INIT, dlerror());
        return -1;
    }
    memset(&ompi, 0, sizeof ompi);
    if (init(&ompi, why, sizeof why) < 0) {
        fprintf(stderr, "platter: MPI: %s\n", why);
        return -1;
    }
    if (ompi.abi != PL_MPI_ABI) {
        fprintf(stderr,
                "platter: the MPI module is from another platter build (ABI %d, not "
                "%d)\n",
                ompi.abi, PL_MPI_ABI);
        ompi.abort(1);
        return -1;
    }
    owner = getpid();
    pl_mpi_set_transport(&ompi);
    atexit(finalize_at_exit);
    if (ompi.rank != 0 && !getenv("PLATTER_MPI_ALL_OUTPUT")) {
        /* one report: rank 0's. The others keep stderr for their errors. */
        int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (fd >= 0) {
            fflush(stdout);
            dup2(fd, 1);
            close(fd);
        }
        pl_cfg.quiet = 1;
        pl_cfg.json_path = pl_cfg.csv_path = NULL;
    }
    return 1;
}

int pl_mpi_library_version(char *buf, size_t len)
{
    buf[0] = '\0';
    if (!PL_HAVE_MPI)
        return 0;
    char why[600];
    void *h = open_module(why, sizeof why);
    pl_mpi_version_fn v = h ? (pl_mpi_version_fn)dlsym(h, PL_MPI_VERSION) : NULL;
    if (!v) {
        snprintf(buf, len, "module not loadable: %s", h ? dlerror() : why);
        return 0;
    }
    v(buf, len);
    return 1;
}

/* }==================================================================== */

int pl_mpi_end(lua_State *L, int status)
{
    if (getpid() != owner)
        return status;
    if (dead)
        return status == PL_EXIT_OK ? PL_EXIT_ERROR : status;
    struct desc d;
    memset(&d, 0, sizeof d);
    d.kind = status == PL_EXIT_OK ? K_END : K_FAILED;
    if (status != PL_EXIT_OK) {
        lua_getfield(L, LUA_REGISTRYINDEX, "platter.error");
        const char *m = lua_tostring(L, -1);
        snprintf(d.error, sizeof d.error, "%s",
                 m                        ? m
                 : status == PL_EXIT_INTR ? "interrupted"
                                          : "exited with an error");
        lua_pop(L, 1);
    }
    if (T->size == 1 && d.kind == K_FAILED)
        return status;
    /* the run is ending: a mismatch or another rank's failure is this rank's error too */
    if (exchange(NULL, &d, NULL) < 0 && d.kind != K_FAILED) {
        lua_pushstring(L, "another rank failed, or the ranks did not end together");
        lua_setfield(L, LUA_REGISTRYINDEX, "platter.error");
        return PL_EXIT_ERROR;
    }
    return status;
}

static const luaL_Reg mpi_funcs[] = {
    {"agree", l_agree},         {"allgather", l_allgather},
    {"allreduce", l_allreduce}, {"barrier", l_barrier},
    {"bcast", l_bcast},         {"gather", l_gather},
    {"reduce", l_reduce},       {NULL, NULL},
};

/* platter.core's mpi table: p.mpi */
int luaopen_platter_mpi(lua_State *L)
{
    owner = getpid();
    lua_newtable(L);
    lua_newtable(L);
    luaL_setfuncs(L, mpi_funcs, 0);
    const struct {
        const char *name;
        int v;
    } ints[] = {{"rank", T->rank},
                {"size", T->size},
                {"node", T->node},
                {"nodes", T->nodes},
                {"local_rank", T->local_rank},
                {"local_size", T->local_size}};
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
        lua_pushinteger(L, ints[i].v);
        lua_setfield(L, -2, ints[i].name);
    }
    char host[256] = "";
    if (gethostname(host, sizeof host) < 0)
        host[0] = '\0';
    host[sizeof host - 1] = '\0';
    lua_pushstring(L, host);
    lua_setfield(L, -2, "host");
    lua_pushboolean(L, pl_mpi_active());
    lua_setfield(L, -2, "active");
    lua_pushstring(L, T->library);
    lua_setfield(L, -2, "library");
    lua_setfield(L, -2, "mpi");
    return 1;
}
