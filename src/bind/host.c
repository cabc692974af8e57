/*
 * The Lua host: one state per process, the embedded library in
 * package.preload, the sandbox (a fresh environment of allowed names, text-
 * only load, embedded-only require, path allow list in guard.c), every call
 * under pcall with a traceback, signals, and the exit status.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <sys/time.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compat.h"
#include "config.h"
#include "embedded.h"
#include "budget.h"
#include "cache.h"
#include "guard.h"
#include "out.h"
#include "plan.h"
#include "record.h"
#include "sandbox.h"
#include "worker.h"
#include "l_mpi.h"
#include "host.h"
#include "l_util.h"
#include "l_open.h"
#include "l_stats.h"

int luaopen_cjson(lua_State *L);

struct pl_config pl_cfg = {.seed = 1, .repeat = 1};

static lua_State *global_L;

const char *pl_host_lua_release(void)
{
    return PL_LUA_RELEASE;
}

/* {====================================================================
** Signals. The first SIGINT/SIGTERM sets pl_interrupted: every platter call
** raises "interrupted" from then on, and a count hook raises it again at each
** Lua instruction of the script, so a script that catches errors cannot run on.
** The hook stays set until host.c runs the exit hook. It does not raise inside
** platter's own Lua code (lua/platter/, workloads/), which finishes its
** bookkeeping (recording a phase, printing dd's statistics) and then returns
** to the script, where the hook raises again. The second signal exits at once
** (a loop that LuaJIT compiled never sees the hook), unless it comes within
** SIGNAL_ECHO_NS of the first: that is one stop sent twice (coreutils' timeout
** signals the command and then its own process group, which holds the command),
** not a person pressing Ctrl-C again, and it must not lose what was measured.
** ===================================================================== */

#define SIGNAL_ECHO_NS 100000000LL /* 0.1 s: a person takes longer to press again */

#define STOP_MASK (LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT)

/* A script file given by path (its chunk is "@" and the path as given). */
static const char *script_path;

/* The chunk name of a module or workload built into the binary ("@" e->path),
   unless it is also the script file's: that one is not platter's code. */
static int is_platter_code(const char *source)
{
    if (source[0] != '@' || (script_path && strcmp(source + 1, script_path) == 0))
        return 0;
    for (const struct pl_embedded *e = pl_embedded; e->name; e++)
        if (strcmp(source + 1, e->path) == 0)
            return 1;
    return 0;
}

static void stop_hook(lua_State *L, lua_Debug *ar)
{
    if (!pl_interrupted) { /* the exit hook cleared the flag: stand down */
        lua_sethook(L, NULL, 0, 0);
        return;
    }
    /* a C function is left to finish (platter's own ones check the flag) */
    if (lua_getinfo(L, "S", ar) && (ar->what[0] == 'C' || is_platter_code(ar->source)))
        return;
    luaL_error(L, "interrupted");
}

static void arm_stop_hook(lua_State *L)
{
    if (lua_gethook(L) != stop_hook)
        lua_sethook(L, stop_hook, STOP_MASK, 1);
}

static volatile sig_atomic_t signals_seen;
/* The coroutine the sandbox's resume or wrap is running (Lua 5.4 keeps a hook
   per thread; LuaJIT has one for all). */
static lua_State *volatile running_co;

static volatile long long first_signal_ns; /* CLOCK_MONOTONIC at the first signal */

static long long signal_clock_ns(void)
{
    struct timespec ts; /* clock_gettime is async-signal-safe */
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * The first signal has not stopped the script within STOP_HINT_S: a loop that LuaJIT
 * compiled, or one long C call, never sees the hook. Say so once, and what a second
 * signal does, so a person is not left waiting. Only platter's own process says it
 * (its workers got the signal too); not once the script has ended (pmain cancels
 * it then).
 */
#define STOP_HINT_S 5
#define STOP_HINT_QUOTE(s) #s
#define STOP_HINT_TEXT(s) STOP_HINT_QUOTE(s) /* the number, as the text says it */

static pid_t signals_owner;

static void on_stop_hint(int sig)
{
    (void)sig;
    static const char hint[] = "platter: the script has not stopped " STOP_HINT_TEXT(
        STOP_HINT_S) " s after the signal (a loop "
                     "that LuaJIT compiled, or one long C call, never sees it): a "
                     "second Ctrl-C ends platter at once";
    static const char kept[] = ", and --json/--csv keep the phases that finished";
    if (!pl_interrupted || getpid() != signals_owner)
        return;
    int saved = errno;
    ssize_t rc = write(2, hint, sizeof hint - 1);
    if (rc > 0 && pl_record_keeping())
        rc = write(2, kept, sizeof kept - 1);
    if (rc > 0)
        rc = write(2, "\n", 1);
    (void)rc;
    errno = saved;
}

static void arm_stop_hint(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_hint;
    sa.sa_flags = SA_RESTART; /* a system call under way goes on */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL); /* the plan's budget, if any, is spent or moot now */
    alarm(STOP_HINT_S);
}

/* forward: pass the stop on to this process's p.parallel workers (a signal that
   reached platter alone; a terminal's Ctrl-C reaches the whole process group) */
static void stop_signal(int sig, int forward)
{
    if (signals_seen || pl_interrupted) {
        if (signals_seen && signal_clock_ns() - first_signal_ns < SIGNAL_ECHO_NS)
            return;          /* the same stop, sent twice */
        pl_record_end_now(); /* the record as far as the run got (record.h) */
        pl_scratch_cleanup();
        _exit(sig == SIGINT ? PL_EXIT_INTR : 128 + sig);
    }
    first_signal_ns = signal_clock_ns(); /* before the flag a second handler reads */
    signals_seen = 1;
    pl_interrupted = sig;
    int saved = errno;
    arm_stop_hint();
    if (forward)
        pl_workers_signal(sig);
    errno = saved;
    if (global_L)
        lua_sethook(global_L, stop_hook, STOP_MASK, 1);
    lua_State *co = running_co;
    if (co)
        lua_sethook(co, stop_hook, STOP_MASK, 1);
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    stop_signal(sig, !si || si->si_code != SI_KERNEL); /* SI_KERNEL: from the terminal */
}

/* platter plan --budget: the run is stopped, as a Ctrl-C stops it, when the budget of
   real time is spent (a plan on the simulated disk runs a whole workload, and a long
   one, such as the PTS's 25 rounds of minutes, would take hours) */
static volatile sig_atomic_t plan_budget_spent;

static void on_budget(int sig)
{
    (void)sig;
    if (pl_interrupted)
        return; /* the user's Ctrl-C came first */
    plan_budget_spent = 1;
    stop_signal(SIGINT, 1);
}

static void plan_budget(uint64_t ns)
{
    struct itimerval t;
    memset(&t, 0, sizeof t);
    if (ns) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_budget;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGALRM, &sa, NULL);
        t.it_value.tv_sec = (time_t)(ns / 1000000000u);
        t.it_value.tv_usec = (suseconds_t)(ns % 1000000000u / 1000u);
        if (!t.it_value.tv_sec && !t.it_value.tv_usec)
            t.it_value.tv_usec = 1;
    }
    setitimer(ITIMER_REAL, &t, NULL); /* 0: disarmed */
}

void pl_host_signals(void)
{
    signals_owner = getpid();
    pl_guard_share(); /* before any worker: what they register is put back here */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    atexit(pl_scratch_cleanup);
}

/* }==================================================================== */

/* {====================================================================
** The bounded heap (--max-memory): the state's own allocator (LuaJIT's, or
** libc's on PUC Lua), wrapped to count the bytes in use against the bound
** that the I/O buffers share (budget.h). An allocation that would go past
** the bound fails, and Lua raises its memory error.
** ===================================================================== */

static struct heap {
    lua_Alloc real;
    void *real_ud;
    uint64_t used;  /* bytes the state holds (pl_budget.used counts them too) */
    int reached;    /* an allocation was refused */
    int room_given; /* heap_headroom raised the limit once */
} heap;

static void *bounded_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    struct heap *h = ud;
    size_t old = ptr ? osize : 0; /* without ptr, osize is a type tag (5.4) */
    if (nsize > old && pl_budget_take(nsize - old)) {
        h->reached = 1;
        pl_budget.refused = 0; /* Lua's memory error says it (pl_host_heap_error) */
        return NULL;
    }
    void *p = h->real(h->real_ud, ptr, osize, nsize);
    if (nsize > old) {
        if (!p)
            pl_budget_give(nsize - old);
    } else if (p || nsize == 0) {
        pl_budget_give(old - nsize);
    }
    if (p || nsize == 0)
        h->used = h->used - old + nsize;
    return p;
}

uint64_t pl_host_default_max_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0)
        return 0;
    return (uint64_t)pages * (uint64_t)size / 4;
}

/* Room given back for the result writer once the script has hit the bound. */
static void heap_headroom(lua_State *L)
{
    if (heap.reached && pl_budget.limit && !heap.room_given) {
        lua_gc(L, LUA_GCCOLLECT, 0);
        uint64_t more = pl_budget.limit / 4;
        pl_budget.limit += more < (32u << 20) ? (32u << 20) : more;
        heap.room_given = 1;
    }
}

void pl_host_heap_unbound(int on)
{
    static uint64_t kept;
    if (on) {
        kept = pl_budget.limit;
        pl_budget.limit = 0;
    } else {
        pl_budget.limit = kept;
    }
}

int pl_host_heap_error(lua_State *L, int idx)
{
    return heap.reached && lua_type(L, idx) == LUA_TSTRING &&
           strcmp(lua_tostring(L, idx), "not enough memory") == 0;
}

static void bound_heap(lua_State *L)
{
    heap.real = lua_getallocf(L, &heap.real_ud);
    heap.used = (uint64_t)lua_gc(L, LUA_GCCOUNT, 0) * 1024 + (uint64_t)lua_gc(L, LUA_GCCOUNTB, 0);
    pl_budget.used += heap.used; /* made before the count began; freed through it */
    pl_budget.limit = pl_cfg.max_memory;
    heap.reached = 0;
    heap.room_given = 0;
    lua_setallocf(L, bounded_alloc, &heap);
}

/* }==================================================================== */

/* {====================================================================
** Embedded sources, optionally overridden from a source tree
** ===================================================================== */

static const struct pl_embedded *find_embedded(const char *name, int workload)
{
    for (const struct pl_embedded *e = pl_embedded; e->name; e++)
        if (e->workload == workload && strcmp(e->name, name) == 0)
            return e;
    return NULL;
}

/* The most a script (a pack included: at most 64 MiB of members) may hold. Read
   before any limit of the Lua heap applies, so without it `platter /dev/zero`
   grew until the kernel's OOM killer stopped it, or another process. */
#define PL_SCRIPT_MAX ((size_t)128 << 20)

/* The whole file at path (NUL not added): NULL with errno, EFBIG past PL_SCRIPT_MAX. */
static char *read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t cap = 8192, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, fp);
        n += got;
        if (n > PL_SCRIPT_MAX) {
            free(buf);
            fclose(fp);
            errno = EFBIG;
            return NULL;
        }
        if (n < cap)
            break;
        char *nb = realloc(buf, cap *= 2);
        if (!nb) {
            free(buf);
            buf = NULL;
        }
        buf = nb;
    }
    int err = ferror(fp) ? errno : 0;
    fclose(fp);
    if (err) {
        free(buf);
        errno = err;
        return NULL;
    }
    *len = n;
    return buf;
}

/*
 * Load an embedded module or workload (from --lua-dir when given) as a
 * function on the stack. Returns 0, or a lua_load status with the message
 * on the stack, or -1 when there is no such source (nothing pushed).
 */
static int load_embedded(lua_State *L, const struct pl_embedded *e)
{
    char chunk[512];
    snprintf(chunk, sizeof chunk, "@%s", e->path);
    if (pl_cfg.lua_dir) {
        char path[4096];
        size_t len;
        snprintf(path, sizeof path, "%s/%s", pl_cfg.lua_dir, e->path);
        char *text = read_file(path, &len);
        if (text) {
            int rc = luaL_loadbufferx(L, text, len, chunk, "t");
            free(text);
            return rc;
        }
    }
    return luaL_loadbufferx(L, e->text, e->len, chunk, "t");
}

/* package.preload loader for an embedded module: upvalue 1 is the entry. */
static int preload_loader(lua_State *L)
{
    const struct pl_embedded *e = lua_touserdata(L, lua_upvalueindex(1));
    if (load_embedded(L, e) != 0)
        return lua_error(L);
    lua_pushstring(L, e->name);
    lua_call(L, 1, 1);
    return 1;
}

void pl_host_preload(lua_State *L)
{
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "preload");
    for (const struct pl_embedded *e = pl_embedded; e->name; e++) {
        if (e->workload)
            continue;
        lua_pushlightuserdata(L, (void *)e);
        lua_pushcclosure(L, preload_loader, 1);
        lua_setfield(L, -2, e->name);
    }
    lua_pushcfunction(L, luaopen_platter_core);
    lua_setfield(L, -2, "platter.core");
    lua_pushcfunction(L, luaopen_cjson); /* Debian lua-cjson, linked in */
    lua_setfield(L, -2, "cjson");
    lua_pop(L, 2);
}

/* }==================================================================== */

/* {====================================================================
** The sandbox
** ===================================================================== */

static const char *const safe_globals[] = {
    "assert", "collectgarbage", "error",        "getmetatable", "ipairs",   "next",
    "pairs",  "pcall",          "print",        "rawequal",     "rawget",   "rawlen",
    "rawset", "select",         "setmetatable", "tonumber",     "tostring", "type",
    "unpack", "xpcall",         "_VERSION",     NULL,
};
static const char *const copied_libs[] = {"bit",   "coroutine", "math", "string",
                                          "table", "utf8",      NULL};
static const char *const safe_os[] = {"clock", "date", "difftime", "time", NULL};
/* Names a portable script may test for; reading them gives nil, not an error. */
static const char *const maybe_absent[] = {"bit",        "bit32",  "getfenv", "jit",
                                           "loadstring", "module", "rawlen",  "setfenv",
                                           "unpack",     "utf8",   NULL};

static int in_list(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i], s) == 0)
            return 1;
    return 0;
}

static int sandbox_undefined(lua_State *L)
{
    const char *k = lua_tostring(L, 2);
    if (lua_type(L, 2) != LUA_TSTRING || in_list(maybe_absent, k))
        return 0;
    if (in_list((const char *const[]){"io", "debug", "package", "ffi", "dofile", "loadfile",
                                      "require_c", NULL},
                k))
        return luaL_error(L, "'%s' is not available in the sandbox (run with --trust to allow it)",
                          k);
    return luaL_error(L, "undefined global '%s'", k);
}

static int sandbox_os_undefined(lua_State *L)
{
    static const char *const refused[] = {"execute", "exit",      "getenv",  "remove",
                                          "rename",  "setlocale", "tmpname", NULL};
    const char *k = lua_tostring(L, 2);
    if (lua_type(L, 2) == LUA_TSTRING && in_list(refused, k))
        return luaL_error(L,
                          "'os.%s' is not available in the sandbox (run with --trust to "
                          "allow it)",
                          k);
    return 0;
}

/*
 * Bounded nesting. LuaJIT resumes a coroutine, and runs a string.gsub or load
 * callback, on the C stack without counting it: a chain of coroutines each
 * resuming the next crashes it at about 105,000 deep, nested gsub callbacks
 * (8 KiB buffer a level) at about 950. The sandbox's coroutine.resume and
 * coroutine.wrap, string.gsub (in the shared string table, which method calls
 * reach) and load's reader count how deeply they are nested, all in one count,
 * and raise "stack overflow" past PL_MAX_NESTING. PUC Lua 5.4 stops these at
 * its own C-call limit (200 levels, "C stack overflow"), often first.
 */
#define PL_MAX_NESTING 150

static int nesting;

/* Call the function at index base with the values above it as arguments, for
   nres results (or LUA_MULTRET), counted; co is the coroutine it runs, if any.
   Errors pass through, the count undone. Returns the number of values from base. */
static int counted_call(lua_State *L, int base, int nres, lua_State *co, const char *what)
{
    if (nesting >= PL_MAX_NESTING)
        return luaL_error(L, "stack overflow (%s nested too deeply)", what);
    lua_State *prev = running_co;
    nesting++;
    if (co) {
        running_co = co;
        if (pl_interrupted)
            arm_stop_hook(co);
    }
    int rc = lua_pcall(L, lua_gettop(L) - base, nres, 0);
    running_co = prev;
    nesting--;
    if (pl_interrupted)
        arm_stop_hook(L); /* Lua 5.4: the resuming thread may not have the hook yet */
    if (rc != LUA_OK)
        return lua_error(L);
    return lua_gettop(L) - base + 1;
}

/* coroutine.resume(co, ...): upvalue 1 is the real one */
static int sandbox_resume(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTHREAD); /* checked here: the real one would not know its name */
    lua_State *co = lua_tothread(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    return counted_call(L, 1, LUA_MULTRET, co, "coroutines");
}

/* the function coroutine.wrap returns: upvalue 1 is the real wrap's, 2 its thread */
static int sandbox_wrapped(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    return counted_call(L, 1, LUA_MULTRET, lua_tothread(L, lua_upvalueindex(2)), "coroutines");
}

/* coroutine.wrap(f): upvalue 1 is the real one */
static int sandbox_wrap(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_settop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 1, 1);
    /* the real wrap's function is a C closure over its thread, in both flavours */
    if (!lua_getupvalue(L, 1, 1))
        lua_pushnil(L);
    lua_pushcclosure(L, sandbox_wrapped, 2);
    return 1;
}

/* string.gsub(s, pattern, repl [, n]): upvalue 1 is the real one */
static int counted_gsub(lua_State *L)
{
    luaL_checkstring(L, 1);
    luaL_checkstring(L, 2);
    int t = lua_type(L, 3);
    luaL_argcheck(L, t == LUA_TNUMBER || t == LUA_TSTRING || t == LUA_TTABLE || t == LUA_TFUNCTION,
                  3, "string/function/table expected");
    luaL_optinteger(L, 4, 0);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    return counted_call(L, 1, LUA_MULTRET, NULL, "string.gsub calls");
}

/* Text-only load bound to the sandbox: load(chunk [, name [, mode [, env]]]) */
static int sandbox_load(lua_State *L)
{
    size_t len;
    const char *text;
    luaL_Buffer b;
    if (lua_type(L, 1) == LUA_TFUNCTION) { /* gather the pieces, then load as text */
        luaL_buffinit(L, &b);
        for (;;) {
            lua_pushvalue(L, 1);
            counted_call(L, lua_gettop(L), 1, NULL, "load readers");
            if (lua_isnil(L, -1) || (lua_type(L, -1) == LUA_TSTRING && pl_rawlen(L, -1) == 0)) {
                lua_pop(L, 1);
                break;
            }
            if (lua_type(L, -1) != LUA_TSTRING)
                return luaL_error(L, "load: reader function must return a string");
            luaL_addvalue(&b);
        }
        luaL_pushresult(&b);
        lua_replace(L, 1);
    }
    text = luaL_checklstring(L, 1, &len);
    const char *name = luaL_optstring(L, 2, text);
    if (is_platter_code(name)) /* same text shown, but the stop hook is not fooled */
        name = lua_pushfstring(L, "=%s", name + 1);
    if (len > 0 && text[0] == LUA_SIGNATURE[0]) {
        lua_pushnil(L);
        lua_pushliteral(L, "load: binary (bytecode) chunks are refused in the sandbox");
        return 2;
    }
    const char *mode = luaL_optstring(L, 3, "bt");
    if (!strchr(mode, 't')) {
        lua_pushnil(L);
        lua_pushfstring(L, "attempt to load a text chunk (mode is '%s')", mode);
        return 2;
    }
    /* an env must be a table: LuaJIT's lua_setfenv crashes on anything else */
    int has_env = !lua_isnoneornil(L, 4);
    if (has_env)
        luaL_checktype(L, 4, LUA_TTABLE);
    if (luaL_loadbufferx(L, text, len, name, "t") != 0) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    if (has_env)
        lua_pushvalue(L, 4);
    else
        lua_pushvalue(L, lua_upvalueindex(1));
    pl_setchunkenv(L);
    return 1;
}

/* require that resolves only platter's own embedded modules */
/*
 * Modules a sandboxed script may require: the public API and pure helpers.
 * Everything else (platter.core's raw entry points, platter.fast, the result
 * writer, the trusted commands) runs with the host's full globals, so it stays
 * out: an allow list, so that a new module is private until listed here.
 */
static const char *const sandbox_modules[] = {
    "cjson",
    "platter",
    "platter.args",
    "platter.classic",
    "platter.classic_bonnie",
    "platter.classic_iozone",
    "platter.fio_job",
    "platter.fio_report",
    "platter.fio_run",
    "platter.statmath",
    NULL,
};

/*
 * A pack's module (platter NAME.platter): require(name) finds the member
 * name.lua, else name/init.lua ("a.b" is a/b.lua), among the members the host
 * put in the registry (platter.pack.members), the same rule by which platter
 * pack found them beside the script (lua/platter/packfile.lua). Nothing is read
 * from disk. The member runs in the requiring script's environment (upvalue 1)
 * with its name as argument, once: upvalue 2 holds what each returned (true
 * for nothing), and a marker while it runs, so that a loop is an error.
 * Returns 1 with the module's value pushed, or 0 when the pack has no such
 * member (or this is no pack's run).
 */
static int pack_require(lua_State *L, const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 200 || strstr(name, "..") || name[0] == '.' || name[n - 1] == '.')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)name[i]) && !strchr("_-.", name[i]))
            return 0;
    lua_getfield(L, LUA_REGISTRYINDEX, "platter.pack.members");
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        return 0;
    }
    int members = lua_gettop(L);
    lua_pushvalue(L, 1);
    lua_rawget(L, lua_upvalueindex(2));
    if (lua_islightuserdata(L, -1))
        return luaL_error(L, "require '%s': a loop (the module requires itself, through others)",
                          name);
    if (!lua_isnil(L, -1))
        return 1;
    lua_pop(L, 1);
    char path[256];
    snprintf(path, sizeof path, "%s", name);
    for (char *c = path; *c; c++)
        if (*c == '.')
            *c = '/';
    static const char *const ends[] = {".lua", "/init.lua"};
    for (int k = 0; k < 2; k++) {
        lua_pushfstring(L, "%s%s", path, ends[k]);
        lua_rawget(L, members);
        if (lua_type(L, -1) != LUA_TSTRING) {
            lua_pop(L, 1);
            continue;
        }
        size_t len;
        const char *text = lua_tolstring(L, -1, &len);
        lua_getfield(L, LUA_REGISTRYINDEX, "platter.pack.name");
        const char *chunk = lua_pushfstring(L, "@%s:%s%s", lua_tostring(L, -1), path, ends[k]);
        if (luaL_loadbufferx(L, text, len, chunk, "t") != LUA_OK)
            return lua_error(L);
        lua_pushvalue(L, lua_upvalueindex(1));
        pl_setchunkenv(L);
        if (nesting >= PL_MAX_NESTING)
            return luaL_error(L, "stack overflow (require nested too deeply)");
        lua_pushvalue(L, 1);
        lua_pushlightuserdata(L, (void *)&pack_require); /* running: a loop marker */
        lua_rawset(L, lua_upvalueindex(2));
        lua_pushvalue(L, 1);
        nesting++;
        int rc = lua_pcall(L, 1, 1, 0);
        nesting--;
        if (rc != LUA_OK) {
            lua_pushvalue(L, 1);
            lua_pushnil(L);
            lua_rawset(L, lua_upvalueindex(2));
            return lua_error(L);
        }
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            lua_pushboolean(L, 1);
        }
        lua_pushvalue(L, 1);
        lua_pushvalue(L, -2);
        lua_rawset(L, lua_upvalueindex(2));
        return 1;
    }
    lua_settop(L, members - 1);
    return 0;
}

/* require(name): platter's own public modules, then a pack's members */
static int sandbox_require(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    lua_settop(L, 1);
    if (!in_list(sandbox_modules, name)) {
        if (find_embedded(name, 0) || strcmp(name, "platter.core") == 0)
            return luaL_error(L,
                              "require '%s': an internal module, not available in the "
                              "sandbox (run with --trust to allow it)",
                              name);
        if (pack_require(L, name))
            return 1;
        lua_getfield(L, LUA_REGISTRYINDEX, "platter.pack.name");
        if (lua_isstring(L, -1))
            return luaL_error(L,
                              "require '%s': not a member of the pack %s, nor one of "
                              "platter's own modules",
                              name, lua_tostring(L, -1));
        return luaL_error(L,
                          "require '%s': only platter's own modules can be loaded in the "
                          "sandbox (run with --trust to load others)",
                          name);
    }
    lua_getglobal(L, "require"); /* the real one, in the host's globals */
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
    return 1;
}

/*
 * xpcall's message handler runs where the error was raised: for the stop
 * hook's "interrupted", inside the hook, where hooks are off, so a handler
 * that loops would never be stopped. The sandbox's xpcall hands the real one
 * this guard, which passes an interruption on without calling the script's
 * handler (upvalue 1).
 */
static int xpcall_guard(lua_State *L)
{
    if (pl_interrupted)
        return 1; /* the message as it is */
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/* xpcall(f, handler, ...): upvalue 1 is the real one */
static int sandbox_xpcall(lua_State *L)
{
    luaL_checkany(L, 2);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, xpcall_guard, 1);
    lua_replace(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/*
 * string.rep(s, n [, sep]): LuaJIT cuts n to 32 bits, so a count of 2^31 or
 * more gave "" (or a short string) without a word; Lua 5.4 copies an empty
 * string n times, so rep("", 2^40) ran for hours inside one C call, where no
 * Ctrl-C reaches. Here such a count raises, as Lua 5.4 does, and nothing
 * repeated is "" at once. Upvalue 1 is the real one.
 */
static int checked_rep(lua_State *L)
{
    size_t len, seplen = 0;
    luaL_checklstring(L, 1, &len);
    lua_Number n = luaL_checknumber(L, 2);
    luaL_optlstring(L, 3, "", &seplen);
    if (len == 0 && seplen == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    if (n >= 2147483648.0)
        return luaL_error(L, "resulting string too large");
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/* Replace field name of the table on top with fn wrapping it (an upvalue), unless
   it is wrapped already or is not a C function. */
static void wrap_once(lua_State *L, const char *name, lua_CFunction fn)
{
    lua_getfield(L, -1, name);
    if (lua_tocfunction(L, -1) != fn && lua_iscfunction(L, -1)) {
        lua_pushcclosure(L, fn, 1);
        lua_setfield(L, -2, name);
    } else {
        lua_pop(L, 1);
    }
}

/* Give the sandbox's coroutine table (at the top) counted resume and wrap, and
   the shared string table a counted gsub and a checked rep (once:
   the string table is shared by all the state's code). */
static void bound_nesting(lua_State *L)
{
    lua_getfield(L, -1, "resume");
    lua_pushcclosure(L, sandbox_resume, 1);
    lua_setfield(L, -2, "resume");
    lua_getfield(L, -1, "wrap");
    lua_pushcclosure(L, sandbox_wrap, 1);
    lua_setfield(L, -2, "wrap");

    lua_getglobal(L, "string");
    wrap_once(L, "gsub", counted_gsub);
    wrap_once(L, "rep", checked_rep);
    lua_pop(L, 1);
}

static void copy_table(lua_State *L, int src)
{
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, src)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -4);
    }
}

/* Push a fresh environment table for a sandboxed script. */
static void push_sandbox(lua_State *L)
{
    lua_newtable(L);
    int env = lua_gettop(L);
    for (int i = 0; safe_globals[i]; i++) {
        lua_getglobal(L, safe_globals[i]);
        lua_setfield(L, env, safe_globals[i]);
    }
    for (int i = 0; copied_libs[i]; i++) {
        lua_getglobal(L, copied_libs[i]);
        if (lua_istable(L, -1)) {
            copy_table(L, lua_gettop(L));
            if (strcmp(copied_libs[i], "coroutine") == 0)
                bound_nesting(L);
            lua_setfield(L, env, copied_libs[i]);
        }
        lua_pop(L, 1);
    }
    lua_getglobal(L, "os");
    lua_newtable(L);
    for (int i = 0; safe_os[i]; i++) {
        lua_getfield(L, -2, safe_os[i]);
        lua_setfield(L, -2, safe_os[i]);
    }
    lua_newtable(L); /* os.execute & co: a clear refusal instead of "a nil value" */
    lua_pushcfunction(L, sandbox_os_undefined);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
    lua_setfield(L, env, "os");
    lua_pop(L, 1);

    lua_pushvalue(L, env);
    lua_pushcclosure(L, sandbox_load, 1);
    lua_pushvalue(L, -1);
    lua_setfield(L, env, "load");
    lua_setfield(L, env, "loadstring");
    lua_pushvalue(L, env);
    lua_newtable(L); /* the pack modules this environment has loaded */
    lua_pushcclosure(L, sandbox_require, 2);
    lua_setfield(L, env, "require");
    lua_getglobal(L, "xpcall");
    lua_pushcclosure(L, sandbox_xpcall, 1);
    lua_setfield(L, env, "xpcall");
    lua_getglobal(L, "platter");
    lua_setfield(L, env, "platter");
    lua_pushvalue(L, env);
    lua_setfield(L, env, "_G");

    lua_newtable(L); /* reading an unknown global is an error */
    lua_pushcfunction(L, sandbox_undefined);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, env);

    /* strings share one metatable: keep scripts from reaching the real string table */
    lua_pushliteral(L, "");
    if (lua_getmetatable(L, -1)) {
        lua_pushliteral(L, "string");
        lua_setfield(L, -2, "__metatable");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* }==================================================================== */

/* {====================================================================
** Running code
** ===================================================================== */

struct job {
    const char *script;                /* workload name or path; NULL with code */
    const char *code;                  /* -e */
    const struct pl_embedded *command; /* a built-in command (runs trusted) */
    int argc;
    char **argv;
    int status;
};

/* Message handler: keep the message, stash a traceback for --verbose. */
static int msghandler(lua_State *L)
{
    if (lua_type(L, 1) == LUA_TSTRING || lua_isnumber(L, 1)) {
        luaL_traceback(L, L, lua_tostring(L, 1), 1);
        lua_setfield(L, LUA_REGISTRYINDEX, "platter.traceback");
    }
    lua_settop(L, 1);
    return 1;
}

/*
 * An error raised inside platter's own Lua code (a shipped workload, a
 * command, lua/platter/) is about the user's input or the system, not about a
 * line of a file the user never wrote: without --verbose its position
 * ("workloads/sweep.lua:55: ") gives way to the name of what ran ("sweep: ",
 * unless the message already starts so; name NULL: no prefix). Positions in
 * the user's own script (a file or -e) are left as they are.
 */
static const char *user_message(lua_State *L, const char *msg, const char *name)
{
    if (pl_cfg.verbose)
        return msg;
    for (const struct pl_embedded *e = pl_embedded; e->name; e++) {
        size_t n = strlen(e->path);
        if (strncmp(msg, e->path, n) != 0 || msg[n] != ':' || !isdigit((unsigned char)msg[n + 1]) ||
            (script_path && strcmp(e->path, script_path) == 0))
            continue;
        const char *rest = msg + n + 1;
        while (isdigit((unsigned char)*rest))
            rest++;
        if (rest[0] != ':' || rest[1] != ' ')
            continue;
        rest += 2;
        size_t k = name ? strlen(name) : 0;
        if (!name || (strncmp(rest, name, k) == 0 && rest[k] == ':'))
            return rest;
        return lua_pushfstring(L, "%s: %s", name, rest);
    }
    return msg;
}

/* What ran, as a user names it: "sweep", "compare", a script path; NULL for -e. */
static const char *job_name(const struct job *j)
{
    if (j->command)
        return strncmp(j->command->name, "platter.cmd.", 12) == 0 ? j->command->name + 12
                                                                  : j->command->name;
    return j->script;
}

/* The error a run ended with, as printed (without "platter: "), for the record's
   status.message: registry platter.error, handed to the exit hook. */
static void note_error(lua_State *L, const char *text)
{
    lua_pushstring(L, text);
    lua_setfield(L, LUA_REGISTRYINDEX, "platter.error");
}

/*
 * The status of p.exit's request at idx, or of a table a script made to look
 * like one: a number that is not an integer 0..255 is 1, never 0 (256, 2^32
 * and 0.5 would otherwise come out as success).
 */
static int exit_status(lua_State *L, int idx)
{
    int st = pl_exit_code(lua_tonumber(L, idx));
    return st < 0 ? 1 : st;
}

static void report_error(lua_State *L, struct job *j)
{
    if (lua_istable(L, -1)) {
        /* raw: an error object's __index must not raise inside the error report */
        lua_pushliteral(L, "platter_exit");
        lua_rawget(L, -2);
        if (lua_isnumber(L, -1)) {
            j->status = exit_status(L, -1);
            return;
        }
        lua_pop(L, 1);
        lua_pushliteral(L, "platter_usage");
        lua_rawget(L, -2);
        if (lua_isstring(L, -1)) {
            pl_out_boundary();
            pl_out_final("platter: %s\n", lua_tostring(L, -1));
            note_error(L, lua_tostring(L, -1));
            j->status = PL_EXIT_USAGE;
            return;
        }
        lua_pop(L, 1);
    }
    pl_out_boundary(); /* the message starts a line; held text goes first */
    if (pl_interrupted) {
        fprintf(stderr, "platter: interrupted\n");
        j->status = pl_interrupted == SIGINT ? PL_EXIT_INTR : 128 + pl_interrupted;
        return;
    }
    if (pl_host_heap_error(L, -1)) {
        char size[32], bufs[32], held[64] = "";
        uint64_t other = pl_budget.used > heap.used ? pl_budget.used - heap.used : 0;
        if (other >= (1u << 20)) /* I/O buffers and the like hold a part of the bound */
            snprintf(held, sizeof held, ", of which I/O buffers held %s",
                     pl_budget_size(other, bufs, sizeof bufs));
        fprintf(stderr, "platter: the Lua heap reached --max-memory (%s%s)\n",
                pl_budget_size(pl_cfg.max_memory, size, sizeof size), held);
        j->status = PL_EXIT_ERROR;
        return;
    }
    const char *msg = lua_tostring(L, -1);
    if (!msg)
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, -1));
    note_error(L, user_message(L, msg, job_name(j)));
    if (pl_cfg.verbose) {
        lua_getfield(L, LUA_REGISTRYINDEX, "platter.traceback");
        if (lua_isstring(L, -1))
            msg = lua_tostring(L, -1);
    }
    pl_out_final("platter: %s\n", user_message(L, msg, job_name(j)));
    j->status = PL_EXIT_ERROR;
}

/* {====================================================================
** Nested workloads: p.workload(name, args) runs a shipped workload inside the
** caller's run. Same process, same state: the allow list, the kernel layer,
** the line state, --sim and the result record are the caller's, so there is
** nothing to grant and nothing to escape to. Only the chunk's globals are new.
** ===================================================================== */

static int run_trusted; /* the running script is trusted (--trust, a command) */

/* Push the text of an embedded workload as it would load (--lua-dir first). */
static void push_source(lua_State *L, const struct pl_embedded *e)
{
    if (pl_cfg.lua_dir) {
        char path[4096];
        size_t len;
        snprintf(path, sizeof path, "%s/%s", pl_cfg.lua_dir, e->path);
        char *text = read_file(path, &len);
        if (text) {
            lua_pushlstring(L, text, len);
            free(text);
            return;
        }
    }
    lua_pushlstring(L, e->text, e->len);
}

/*
 * Note the call for the result record: registry platter.workloads holds one
 * {name, args, text} per distinct name and argument list, in first-call order
 * (a loop of a thousand calls records one). argt is the arg table, text the
 * source's index.
 */
static void record_workload(lua_State *L, const char *name, int argt, int text)
{
    int n = (int)pl_rawlen(L, argt);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, name);
    for (int i = 1; i <= n; i++) { /* each argument after its length: any bytes */
        char len[32];
        lua_rawgeti(L, argt, i);
        snprintf(len, sizeof len, "\n%zu:", (size_t)pl_rawlen(L, -1));
        lua_pop(L, 1);
        luaL_addstring(&b, len);
        lua_rawgeti(L, argt, i);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    int key = lua_gettop(L);
    lua_getfield(L, LUA_REGISTRYINDEX, "platter.workloads");
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, "platter.workloads");
    }
    int list = lua_gettop(L);
    lua_pushvalue(L, key);
    lua_rawget(L, list);
    if (lua_isnil(L, -1)) {
        lua_createtable(L, 0, 3);
        lua_pushstring(L, name);
        lua_setfield(L, -2, "name");
        lua_createtable(L, n, 0);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, argt, i);
            lua_rawseti(L, -2, i);
        }
        lua_setfield(L, -2, "args");
        lua_pushvalue(L, text);
        lua_setfield(L, -2, "text");
        lua_rawseti(L, list, (int)pl_rawlen(L, list) + 1);
        lua_pushvalue(L, key);
        lua_pushboolean(L, 1);
        lua_rawset(L, list);
    }
    lua_settop(L, key - 1);
}

/*
 * p.workload(name [, args]) -> what the workload's chunk returns. The chunk
 * gets a fresh environment (the sandbox's; under --trust one that reads the
 * host's globals), with arg = {[0] = name, ...}, and the arguments as its
 * varargs, as `platter NAME ARGS...` would give them. Its errors come back as
 * "NAME: message" strings the caller can catch: a usage error's text, an
 * error's text without the position inside the workload, "NAME: exited with
 * status N" for p.exit(N); p.exit(0) (as after --help) just returns. An
 * interruption passes through as it was raised.
 */
int pl_host_workload(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    if (nesting >= PL_MAX_NESTING)
        return luaL_error(L, "stack overflow (p.workload nested too deeply)");
    const struct pl_embedded *e = find_embedded(name, 1);
    if (!e)
        return luaL_error(L,
                          "p.workload: no workload named '%s' (only the shipped workloads "
                          "of 'platter list')",
                          name);
    if (lua_isnoneornil(L, 2))
        lua_newtable(L);
    else
        luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    int n = (int)pl_rawlen(L, 2);
    luaL_checkstack(L, n + 16, "too many arguments to p.workload");

    lua_createtable(L, n, 1); /* 3: arg */
    lua_pushstring(L, name);
    lua_rawseti(L, 3, 0);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, 2, i);
        int t = lua_type(L, -1);
        if (t != LUA_TSTRING && t != LUA_TNUMBER)
            return luaL_error(L, "p.workload: %s: argument %d is a %s (arguments are strings)",
                              name, i, lua_typename(L, t));
        lua_tostring(L, -1); /* a number becomes its text, as on a command line */
        lua_rawseti(L, 3, i);
    }

    push_source(L, e); /* 4 */
    record_workload(L, name, 3, 4);
    char chunk[512];
    snprintf(chunk, sizeof chunk, "@%s", e->path);
    size_t len;
    const char *text = lua_tolstring(L, 4, &len);
    if (luaL_loadbufferx(L, text, len, chunk, "t") != LUA_OK)
        return lua_error(L);
    int fn = lua_gettop(L);

    if (run_trusted) {
        lua_newtable(L); /* its own globals, reading through to the host's */
        lua_newtable(L);
#if LUA_VERSION_NUM >= 502
        lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
#else
        lua_pushvalue(L, LUA_GLOBALSINDEX);
#endif
        lua_setfield(L, -2, "__index");
        lua_setmetatable(L, -2);
    } else {
        push_sandbox(L);
    }
    lua_pushvalue(L, 3);
    lua_setfield(L, -2, "arg");
    pl_setchunkenv(L);

    lua_pushcfunction(L, msghandler);
    lua_insert(L, fn);
    for (int i = 1; i <= n; i++)
        lua_rawgeti(L, 3, i);
    nesting++;
    int rc = lua_pcall(L, n, LUA_MULTRET, fn);
    nesting--;
    if (rc == LUA_OK)
        return lua_gettop(L) - fn;

    if (pl_interrupted)
        return lua_error(L);
    if (lua_istable(L, -1)) {
        lua_pushliteral(L, "platter_exit");
        lua_rawget(L, -2);
        if (lua_isnumber(L, -1)) {
            int code = exit_status(L, -1);
            if (code == 0)
                return 0;
            lua_pushfstring(L, "%s: exited with status %d", name, code);
            return lua_error(L);
        }
        lua_pop(L, 1);
        lua_pushliteral(L, "platter_usage");
        lua_rawget(L, -2);
        if (lua_type(L, -1) == LUA_TSTRING)
            return lua_error(L);
        lua_pop(L, 1);
        return lua_error(L); /* some other error object: as it is */
    }
    if (lua_type(L, -1) != LUA_TSTRING)
        return lua_error(L);
    const char *msg = lua_tostring(L, -1);
    const char *shown = user_message(L, msg, name);
    size_t k = strlen(name);
    if (shown == msg && !(strncmp(msg, name, k) == 0 && msg[k] == ':'))
        shown = lua_pushfstring(L, "%s: %s", name, msg);
    lua_pushstring(L, shown);
    return lua_error(L);
}

/* }==================================================================== */

/* Paths named on the command line become part of the sandbox allow list. */
static void allow_args(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *eq = strchr(a, '=');
        pl_allow_add(a);
        if (eq && eq[1])
            pl_allow_add(eq + 1);
        if (a[0] == '-' && a[1] && a[1] != '-' && a[2])
            pl_allow_add(a + 2); /* -d/mnt/x */
    }
}

static int usage_error(struct job *j, const char *msg)
{
    fprintf(stderr, "platter: %s\n", msg);
    j->status = PL_EXIT_USAGE;
    return 0;
}

static int is_path(const char *s)
{
    size_t n = strlen(s);
    return strchr(s, '/') || (n > 4 && strcmp(s + n - 4, ".lua") == 0) ||
           (n > 8 && strcmp(s + n - 8, ".platter") == 0);
}

/* A pack (platter pack) starts so, whatever its file is called; a file called
   NAME.platter is read as one (and refused when it is not one). */
static int is_pack(const char *name, const char *text, size_t len)
{
    size_t n = strlen(name);
    return (len >= 13 && memcmp(text, "platter-pack ", 13) == 0) ||
           (n > 8 && strcmp(name + n - 8, ".platter") == 0);
}

/*
 * A pack about to run: platter.packfile checks it (every sha256) and returns
 * the entry script's text and chunk name ("@NAME.platter:member.lua"), the
 * members (kept in the registry for sandbox_require: platter.pack.members and
 * platter.pack.name) and the record's pack section, which goes into the table
 * at rec (the registry's platter.script). Trusted, the members are in
 * package.preload instead. Leaves the entry's text and chunk name on the stack
 * and returns LUA_OK, or an error status with the message on the stack.
 */
static int start_pack(lua_State *L, const char *text, size_t len, const char *name, int trusted,
                      int rec, int mh)
{
    lua_getglobal(L, "require");
    lua_pushliteral(L, "platter.packfile");
    int rc = lua_pcall(L, 1, 1, mh);
    if (rc != LUA_OK)
        return rc;
    lua_getfield(L, -1, "start");
    lua_remove(L, -2);
    lua_pushlstring(L, text, len);
    lua_pushstring(L, name);
    lua_pushboolean(L, trusted);
    rc = lua_pcall(L, 3, 4, mh);
    if (rc != LUA_OK)
        return rc;
    lua_setfield(L, rec, "pack");
    lua_setfield(L, LUA_REGISTRYINDEX, "platter.pack.members");
    lua_pushstring(L, name);
    lua_setfield(L, LUA_REGISTRYINDEX, "platter.pack.name");
    return LUA_OK;
}

/*
 * Hooks a trusted module (the result writer) sets with p._hook(name, fn):
 * "repeat" (rep) -> false stops the --repeat loop early; "exit" (status,
 * message) runs after the script on every path, with the interrupt flag
 * cleared so it can still write what was measured (a second Ctrl-C still
 * ends the process at once).
 */
static int get_hook(lua_State *L, const char *name)
{
    lua_getfield(L, LUA_REGISTRYINDEX, "platter.hooks");
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        return 0;
    }
    lua_getfield(L, -1, name);
    lua_remove(L, -2);
    if (!lua_isfunction(L, -1)) {
        lua_pop(L, 1);
        return 0;
    }
    return 1;
}

static int call_repeat_hook(lua_State *L, int rep)
{
    int top = lua_gettop(L);
    if (!get_hook(L, "repeat"))
        return 1;
    lua_pushinteger(L, rep);
    lua_pushinteger(L, pl_cfg.repeat);
    if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
        pl_out_boundary();
        const char *msg = lua_tostring(L, -1);
        fprintf(stderr, "platter: %s\n",
                msg ? user_message(L, msg, NULL) : "(error object is not a string)");
        lua_settop(L, top);
        return 0;
    }
    int go = lua_isnil(L, -1) || lua_toboolean(L, -1);
    lua_pop(L, 1);
    return go;
}

static void call_exit_hook(lua_State *L, struct job *j)
{
    int top = lua_gettop(L);
    if (pl_interrupted)
        pl_phase_close_interrupted(L); /* a phase the Ctrl-C left open is a result too */
    if (!get_hook(L, "exit"))
        return;
    sig_atomic_t intr = pl_interrupted;
    heap_headroom(L);
    lua_sethook(L, NULL, 0, 0);
    pl_interrupted = 0;
    lua_pushinteger(L, j->status);
    if (intr)
        lua_pushliteral(L, "interrupted");
    else
        lua_getfield(L, LUA_REGISTRYINDEX, "platter.error"); /* nil when none */
    if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
        pl_out_boundary();
        const char *msg = lua_tostring(L, -1);
        fprintf(stderr, "platter: writing results: %s\n",
                msg ? user_message(L, msg, NULL) : "(error object is not a string)");
        lua_settop(L, top);
        if (j->status == PL_EXIT_OK)
            j->status = PL_EXIT_ERROR;
    }
    pl_interrupted = intr;
}

/*
 * The kernel layer, applied once platter has opened what it needs itself (the
 * script text, the drop_caches knob, the result files' keeper) and before the
 * script's first line runs. 0, or -1 after reporting why the run cannot start.
 */
static int apply_sandbox(struct job *j)
{
    const char *env = getenv("PLATTER_SANDBOX");
    const char *ro[] = {pl_cfg.lua_dir, NULL};
    struct pl_sandbox_opts o = {pl_cfg.destroy, env && strcmp(env, "checks") == 0, ro};
    char why[512];
    pl_cache_preopen();
    int rc = pl_record_start_keeper();
    if (rc == 0)
        rc = pl_sandbox_apply(&o, why, sizeof why);
    else
        snprintf(why, sizeof why, "cannot start the result keeper: %s", strerror(-rc));
    if (rc < 0) {
        fprintf(stderr, "platter: sandbox: %s\n", why);
        j->status = PL_EXIT_ERROR;
        return -1;
    }
    if (rc == 0 && !pl_cfg.quiet)
        fprintf(stderr,
                "platter: sandbox: the kernel layer is off (%s); platter's own path "
                "checks still apply\n",
                why);
    return 0;
}

/*
 * platter plan, after the run: its output back from the capture, and the plan
 * (lua/platter/plan.lua) printed from what plan.c noted, the run's exit status
 * and that output.
 */
static void plan_report(lua_State *L, struct job *j, int mh)
{
    char *text;
    size_t len;
    pl_out_boundary();
    if (pl_plan_capture_end(&text, &len) < 0) {
        fprintf(stderr, "platter: plan: the run's output is lost: %s\n", strerror(errno));
        j->status = PL_EXIT_ERROR;
        return;
    }
    sig_atomic_t intr = pl_interrupted;
    pl_interrupted = 0;
    /* the budget stopped the run: the plan of what it did so far is the plan's answer */
    int budget = plan_budget_spent && intr == SIGINT && j->status == PL_EXIT_INTR;
    if (budget) {
        j->status = PL_EXIT_OK;
        intr = 0;
    }
    lua_getglobal(L, "require");
    lua_pushliteral(L, "platter.plan");
    if (lua_pcall(L, 1, 1, mh) == LUA_OK) {
        lua_getfield(L, -1, "report");
        lua_pushinteger(L, j->status);
        lua_pushlstring(L, text, len);
        lua_pushboolean(L, strcmp(pl_cfg.mode, "plan-json") == 0);
        if (budget)
            lua_pushnumber(L, (double)pl_cfg.plan_budget_ns / 1e9);
        else
            lua_pushnil(L);
        if (lua_pcall(L, 4, 0, mh) == LUA_OK)
            goto done;
    }
    pl_out_boundary();
    pl_out_final_text(text, len);
    pl_out_final("platter: plan: %s\n",
                 lua_isstring(L, -1) ? user_message(L, lua_tostring(L, -1), NULL) : "(no message)");
    j->status = PL_EXIT_ERROR;
done:
    fflush(stdout);
    pl_interrupted = intr;
    free(text);
}

/* Everything below runs inside lua_pcall, so no Lua error escapes. */
static int pmain(lua_State *L)
{
    struct job *j = lua_touserdata(L, 1);
    lua_settop(L, 0);
    luaL_openlibs(L);
    lua_pushcfunction(L, pl_print); /* through the line state (src/core/out.h) */
    lua_setglobal(L, "print");
    pl_host_preload(L);

    /* a result that cannot be written is a usage error, found before anything runs */
    const char *opt[] = {"--json", "--csv"}, *path[] = {pl_cfg.json_path, pl_cfg.csv_path};
    for (int k = 0; k < 2; k++) {
        const char *why = NULL;
        int err = path[k] ? pl_record_writable(path[k], &why) : 0;
        if (err < 0)
            return usage_error(j, lua_pushfstring(L, "%s %s: cannot write the result there: %s",
                                                  opt[k], path[k], why ? why : strerror(-err)));
        if (path[k])
            (void)pl_fs_reserve(path[k], opt[k]); /* not the script's to make or remove */
    }
    pl_record_paths(pl_cfg.json_path, pl_cfg.csv_path);
    pl_allow_enable(!pl_cfg.trust && !j->command);
    /* a command shows records that may come from anyone; an MPI rank's output reaches
       the terminal through mpirun */
    pl_out_guard(!pl_cfg.trust, pl_mpi_active());
    allow_args(j->argc, j->argv);

    lua_pushcfunction(L, msghandler);
    int mh = lua_gettop(L);

    /* platter = require "platter", in the host's globals */
    lua_getglobal(L, "require");
    lua_pushliteral(L, "platter");
    if (lua_pcall(L, 1, 1, mh) != LUA_OK) {
        report_error(L, j);
        return 0;
    }
    lua_setglobal(L, "platter");

    /* what ran, for the result record: filled in below */
    lua_createtable(L, 0, 3);
    int rec = lua_gettop(L);
    lua_pushvalue(L, rec);
    lua_setfield(L, LUA_REGISTRYINDEX, "platter.script");

    /* the chunk */
    int rc;
    const char *shown;
    int trusted = pl_cfg.trust || j->command;
    run_trusted = trusted;
    size_t textlen = 0;
    const char *text = NULL;
    char *owned = NULL;
    if (j->command) {
        shown = j->command->name;
        rc = load_embedded(L, j->command);
        text = j->command->text;
        textlen = j->command->len;
    } else if (j->code) {
        shown = "-e";
        text = j->code;
        textlen = strlen(j->code);
        rc = luaL_loadbufferx(L, text, textlen, "=(command line)", trusted ? "bt" : "t");
    } else if (is_path(j->script)) {
        shown = j->script;
        owned = read_file(j->script, &textlen);
        if (!owned)
            return usage_error(
                j, lua_pushfstring(L, "cannot read script %s: %s", j->script,
                                   errno == EFBIG ? "larger than 128 MiB" : strerror(errno)));
        text = owned;
        const char *chunk = lua_pushfstring(L, "@%s", j->script);
        if (is_pack(j->script, text, textlen)) {
            /* the record keeps the whole pack; the entry member is what runs */
            lua_pop(L, 1);
            lua_pushlstring(L, text, textlen);
            lua_setfield(L, rec, "text");
            rc = start_pack(L, text, textlen, j->script, trusted, rec, mh);
            if (rc == LUA_OK) {
                size_t elen;
                const char *entry = lua_tolstring(L, -2, &elen);
                rc = luaL_loadbufferx(L, entry, elen, lua_tostring(L, -1), "t");
                lua_replace(L, -3);
                lua_pop(L, 1);
            }
            text = NULL;
            lua_pushnil(L); /* in place of the chunk name, removed below */
            lua_insert(L, -2);
        } else if (!trusted && textlen > 0 && text[0] == LUA_SIGNATURE[0]) {
            /* name the file and the reason, not "attempt to load chunk with wrong mode" */
            lua_pushfstring(L,
                            "%s: binary (bytecode) chunks are refused in the sandbox (run "
                            "with --trust to allow them)",
                            j->script);
            rc = LUA_ERRSYNTAX;
        } else {
            rc = luaL_loadbufferx(L, text, textlen, chunk, trusted ? "bt" : "t");
        }
        lua_remove(L, -2);
    } else {
        shown = j->script;
        const struct pl_embedded *e = find_embedded(j->script, 1);
        if (!e)
            return usage_error(j, lua_pushfstring(L,
                                                  "no workload named '%s' (see 'platter "
                                                  "list'; a script file needs a '/' or a .lua "
                                                  "ending)",
                                                  j->script));
        rc = load_embedded(L, e);
        text = e->text;
        textlen = e->len;
    }
    /* what ran, for the result record: registry platter.script = {name, text [, pack]} */
    lua_pushstring(L, shown);
    lua_setfield(L, rec, "name");
    if (text) {
        lua_pushlstring(L, text, textlen);
        lua_setfield(L, rec, "text");
    }
    free(owned);
    if (rc != LUA_OK) {
        report_error(L, j);
        call_exit_hook(L, j);
        return 0;
    }
    int fn = lua_gettop(L);

    /* arg table */
    lua_createtable(L, j->argc, 1);
    lua_pushstring(L, shown);
    lua_rawseti(L, -2, 0);
    for (int i = 0; i < j->argc; i++) {
        lua_pushstring(L, j->argv[i]);
        lua_rawseti(L, -2, i + 1);
    }
    int argt = lua_gettop(L);
    if (trusted) {
        lua_pushvalue(L, argt);
        lua_setglobal(L, "arg");
        /* the keeper holds the record for a run that ends without writing it; a
           trusted run could write its files itself, but not after a second Ctrl-C */
        int rc = pl_record_start_keeper();
        if (rc < 0)
            fprintf(stderr,
                    "platter: cannot start the result keeper (%s): a run cut short "
                    "by a second Ctrl-C leaves no --json or --csv record\n",
                    strerror(-rc));
    } else if (apply_sandbox(j) < 0) {
        call_exit_hook(L, j);
        return 0;
    }

    /* platter plan: the notes start and the output is held from the script's first line */
    int plan = pl_cfg.mode && strncmp(pl_cfg.mode, "plan", 4) == 0 && !j->command && !j->code;
    if (plan && (pl_plan_start() < 0 || pl_plan_capture_begin() < 0)) {
        fprintf(stderr, "platter: plan: cannot start: %s\n", strerror(errno));
        j->status = PL_EXIT_ERROR;
        return 0;
    }
    if (plan && pl_cfg.plan_budget_ns)
        plan_budget(pl_cfg.plan_budget_ns);

    /* --repeat: the whole script again, each time in a fresh environment */
    for (int rep = 1; rep <= pl_cfg.repeat; rep++) {
        if (!call_repeat_hook(L, rep))
            break;
        if (!trusted) {
            push_sandbox(L);
            lua_pushvalue(L, argt);
            lua_setfield(L, -2, "arg");
            lua_pushvalue(L, fn);
            lua_insert(L, -2);
            pl_setchunkenv(L);
            lua_pop(L, 1);
        }
        lua_pushvalue(L, fn);
        for (int i = 0; i < j->argc; i++)
            lua_pushstring(L, j->argv[i]);
        if (lua_pcall(L, j->argc, 0, mh) != LUA_OK) {
            report_error(L, j);
            break;
        }
        if (pl_interrupted) {
            pl_out_boundary();
            fprintf(stderr, "platter: interrupted\n");
            j->status = pl_interrupted == SIGINT ? PL_EXIT_INTR : 128 + pl_interrupted;
            break;
        }
    }
    if (j->status == PL_EXIT_OK && pl_cfg.mode && strncmp(pl_cfg.mode, "describe", 8) == 0 &&
        !pl_host_described && !pl_interrupted) {
        /* p.script ends a describe: the script got to its end without one */
        pl_out_boundary();
        fprintf(stderr, "platter: %s: declares no manifest (p.script)\n", shown);
        j->status = PL_EXIT_ERROR;
    }
    /* the script has ended: no hint that it has not (on_stop_hint), and a plan's
       budget has nothing left to stop */
    alarm(0);
    heap_headroom(L); /* the end of the run allocates (an interned key) even at the bound */
    j->status = pl_mpi_end(L, j->status); /* every rank learns how the others ended */
    call_exit_hook(L, j);
    if (plan) {
        plan_budget(0);
        plan_report(L, j, mh);
    }
    return 0;
}

#if defined(PL_SANITIZE) && LUA_VERSION_NUM == 501
/*
 * Sanitizer builds: LuaJIT's heap comes from malloc instead of LuaJIT's own
 * mmap-based allocator, so ASan checks Lua objects (userdata) too, and
 * LeakSanitizer scans them: a buffer that only a Lua object points to is not
 * reported as leaked when a script ends with os.exit.
 */
static void *sanitize_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    (void)ud, (void)osize;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, nsize);
}

static int sanitize_panic(lua_State *L)
{
    fprintf(stderr, "PANIC: unprotected error in call to Lua API (%s)\n",
            lua_isstring(L, -1) ? lua_tostring(L, -1) : "?");
    return 0;
}
#endif

lua_State *pl_host_new_state(void)
{
#if defined(PL_SANITIZE) && LUA_VERSION_NUM == 501
    lua_State *L = lua_newstate(sanitize_alloc, NULL);
    if (L)
        lua_atpanic(L, sanitize_panic);
#else
    lua_State *L = luaL_newstate();
#endif
    if (L)
        bound_heap(L);
    return L;
}

static int run(struct job *j)
{
    lua_State *L = pl_host_new_state();
    if (!L) {
        fprintf(stderr, "platter: cannot create the Lua state: not enough memory\n");
        return PL_EXIT_ERROR;
    }
    global_L = L;
    lua_pushcfunction(L, pmain);
    lua_pushlightuserdata(L, j);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        pl_out_boundary();
        fprintf(stderr, "platter: %s\n", msg ? msg : "(error object is not a string)");
        j->status = PL_EXIT_ERROR;
    }
    fflush(stdout);
    global_L = NULL;
    lua_close(L);
    return j->status;
}

int pl_host_described;

int pl_host_run_script(const char *script, int argc, char **argv)
{
    script_path = is_path(script) ? script : NULL;
    struct job j = {.script = script, .argc = argc, .argv = argv};
    return run(&j);
}

int pl_host_run_command(const char *name, int argc, char **argv)
{
    char mod[128];
    snprintf(mod, sizeof mod, "platter.cmd.%s", name);
    const struct pl_embedded *e = find_embedded(mod, 0);
    if (!e)
        return -1;
    struct job j = {.command = e, .argc = argc, .argv = argv};
    return run(&j);
}

int pl_host_run_string(const char *code, int argc, char **argv)
{
    struct job j = {.code = code, .argc = argc, .argv = argv};
    return run(&j);
}

/* The first line of a workload, "-- text", is its description. */
static void describe(const char *text, size_t len, char *out, size_t n)
{
    out[0] = '\0';
    if (len < 3 || strncmp(text, "-- ", 3) != 0)
        return;
    size_t i = 3, k = 0;
    while (i < len && text[i] != '\n' && k + 1 < n)
        out[k++] = text[i++];
    out[k] = '\0';
}

int pl_host_list(void)
{
    for (const struct pl_embedded *e = pl_embedded; e->name; e++) {
        if (!e->workload)
            continue;
        char desc[256];
        size_t len = e->len;
        char *text = NULL;
        if (pl_cfg.lua_dir) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", pl_cfg.lua_dir, e->path);
            text = read_file(path, &len);
        }
        describe(text ? text : e->text, text ? len : e->len, desc, sizeof desc);
        free(text);
        printf("%-10s %s\n", e->name, desc);
    }
    return PL_EXIT_OK;
}

/* }==================================================================== */
