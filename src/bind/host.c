/*
 * The Lua host: one state per process, the embedded library in
 * package.preload, the sandbox (a fresh environment of allowed names, text-
 * only load, embedded-only require, path allow list in guard.c), every call
 * under pcall with a traceback, signals, and the exit status.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compat.h"
#include "config.h"
#include "embedded.h"
#include "cache.h"
#include "guard.h"
#include "out.h"
#include "record.h"
#include "sandbox.h"
#include "host.h"
#include "l_util.h"

int luaopen_cjson(lua_State *L);

struct pl_config pl_cfg = {.seed = 1, .repeat = 1};

static lua_State *global_L;

const char *pl_host_lua_release(void)
{
    return PL_LUA_RELEASE;
}

/* {====================================================================
** Signals: the first SIGINT/SIGTERM asks the script to stop at the next C
** boundary (and, on PUC Lua, at the next hook); the second exits at once.
** ===================================================================== */

static void stop_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lua_sethook(L, NULL, 0, 0);
    luaL_error(L, "interrupted");
}

static volatile sig_atomic_t signals_seen;

static void on_signal(int sig)
{
    if (signals_seen++ || pl_interrupted) {
        pl_scratch_cleanup();
        _exit(sig == SIGINT ? PL_EXIT_INTR : 128 + sig);
    }
    pl_interrupted = sig;
    if (global_L)
        lua_sethook(global_L, stop_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

void pl_host_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    atexit(pl_scratch_cleanup);
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
    lua_pushcfunction(L, luaopen_cjson);  /* Debian lua-cjson, linked in */
    lua_setfield(L, -2, "cjson");
    lua_pop(L, 2);
}

/* }==================================================================== */

/* {====================================================================
** The sandbox
** ===================================================================== */

static const char *const safe_globals[] = {
    "assert", "collectgarbage", "error", "getmetatable", "ipairs", "next", "pairs", "pcall",
    "print", "rawequal", "rawget", "rawlen", "rawset", "select", "setmetatable", "tonumber",
    "tostring", "type", "unpack", "xpcall", "_VERSION", NULL,
};
static const char *const copied_libs[] = {"bit", "coroutine", "math", "string", "table", "utf8",
                                          NULL};
static const char *const safe_os[] = {"clock", "date", "difftime", "time", NULL};
/* Names a portable script may test for; reading them gives nil, not an error. */
static const char *const maybe_absent[] = {"bit", "bit32", "getfenv", "jit", "loadstring",
                                           "module", "rawlen", "setfenv", "unpack", "utf8", NULL};

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
                                      "require_c", NULL}, k))
        return luaL_error(L, "'%s' is not available in the sandbox (run with --trust to allow it)",
                          k);
    return luaL_error(L, "undefined global '%s'", k);
}

static int sandbox_os_undefined(lua_State *L)
{
    static const char *const refused[] = {"execute", "exit", "getenv", "remove", "rename",
                                          "setlocale", "tmpname", NULL};
    const char *k = lua_tostring(L, 2);
    if (lua_type(L, 2) == LUA_TSTRING && in_list(refused, k))
        return luaL_error(L, "'os.%s' is not available in the sandbox (run with --trust to "
                             "allow it)", k);
    return 0;
}

/* Text-only load bound to the sandbox: load(chunk [, name [, mode [, env]]]) */
static int sandbox_load(lua_State *L)
{
    size_t len;
    const char *text;
    luaL_Buffer b;
    if (lua_type(L, 1) == LUA_TFUNCTION) {  /* gather the pieces, then load as text */
        luaL_buffinit(L, &b);
        for (;;) {
            lua_pushvalue(L, 1);
            lua_call(L, 0, 1);
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
    "cjson", "platter", "platter.args", "platter.classic", "platter.classic_bonnie",
    "platter.classic_iozone", "platter.statmath", NULL,
};

static int sandbox_require(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    if (!in_list(sandbox_modules, name)) {
        if (find_embedded(name, 0) || strcmp(name, "platter.core") == 0)
            return luaL_error(L, "require '%s': an internal module, not available in the "
                                 "sandbox (run with --trust to allow it)", name);
        return luaL_error(L, "require '%s': only platter's own modules can be loaded in the "
                             "sandbox (run with --trust to load others)", name);
    }
    lua_getglobal(L, "require");  /* the real one, in the host's globals */
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
    return 1;
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
    lua_newtable(L);  /* os.execute & co: a clear refusal instead of "a nil value" */
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
    lua_pushcfunction(L, sandbox_require);
    lua_setfield(L, env, "require");
    lua_getglobal(L, "platter");
    lua_setfield(L, env, "platter");
    lua_pushvalue(L, env);
    lua_setfield(L, env, "_G");

    lua_newtable(L);  /* reading an unknown global is an error */
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
    const char *script;     /* workload name or path; NULL with code */
    const char *code;       /* -e */
    const struct pl_embedded *command;  /* a built-in command (runs trusted) */
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

static void report_error(lua_State *L, struct job *j)
{
    if (lua_istable(L, -1)) {
        /* raw: an error object's __index must not raise inside the error report */
        lua_pushliteral(L, "platter_exit");
        lua_rawget(L, -2);
        if (lua_isnumber(L, -1)) {
            j->status = (int)lua_tointeger(L, -1);
            return;
        }
        lua_pop(L, 1);
        lua_pushliteral(L, "platter_usage");
        lua_rawget(L, -2);
        if (lua_isstring(L, -1)) {
            pl_out_boundary();
            fprintf(stderr, "platter: %s\n", lua_tostring(L, -1));
            j->status = PL_EXIT_USAGE;
            return;
        }
        lua_pop(L, 1);
    }
    pl_out_boundary();  /* the message starts a line; held text goes first */
    if (pl_interrupted) {
        fprintf(stderr, "platter: interrupted\n");
        j->status = pl_interrupted == SIGINT ? PL_EXIT_INTR : 128 + pl_interrupted;
        return;
    }
    const char *msg = lua_tostring(L, -1);
    if (!msg)
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, -1));
    if (pl_cfg.verbose) {
        lua_getfield(L, LUA_REGISTRYINDEX, "platter.traceback");
        if (lua_isstring(L, -1))
            msg = lua_tostring(L, -1);
    }
    fprintf(stderr, "platter: %s\n", msg);
    j->status = PL_EXIT_ERROR;
}

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
            pl_allow_add(a + 2);  /* -d/mnt/x */
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
    return strchr(s, '/') || (n > 4 && strcmp(s + n - 4, ".lua") == 0);
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
    if (!get_hook(L, "repeat"))
        return 1;
    lua_pushinteger(L, rep);
    lua_pushinteger(L, pl_cfg.repeat);
    if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
        pl_out_boundary();
        fprintf(stderr, "platter: %s\n", lua_tostring(L, -1));
        lua_pop(L, 1);
        return 0;
    }
    int go = lua_isnil(L, -1) || lua_toboolean(L, -1);
    lua_pop(L, 1);
    return go;
}

static void call_exit_hook(lua_State *L, struct job *j)
{
    if (!get_hook(L, "exit"))
        return;
    sig_atomic_t intr = pl_interrupted;
    lua_sethook(L, NULL, 0, 0);
    pl_interrupted = 0;
    lua_pushinteger(L, j->status);
    lua_pushstring(L, intr ? "interrupted" : "");
    if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
        pl_out_boundary();
        fprintf(stderr, "platter: writing results: %s\n", lua_tostring(L, -1));
        lua_pop(L, 1);
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
        fprintf(stderr, "platter: sandbox: the kernel layer is off (%s); platter's own path "
                        "checks still apply\n", why);
    return 0;
}

/* Everything below runs inside lua_pcall, so no Lua error escapes. */
static int pmain(lua_State *L)
{
    struct job *j = lua_touserdata(L, 1);
    lua_settop(L, 0);
    luaL_openlibs(L);
    lua_pushcfunction(L, pl_print);  /* through the line state (src/core/out.h) */
    lua_setglobal(L, "print");
    pl_host_preload(L);

    pl_record_paths(pl_cfg.json_path, pl_cfg.csv_path);
    pl_allow_enable(!pl_cfg.trust && !j->command);
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

    /* the chunk */
    int rc;
    const char *shown;
    int trusted = pl_cfg.trust || j->command;
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
            return usage_error(j, lua_pushfstring(L, "cannot read script %s: %s", j->script,
                                                  strerror(errno)));
        text = owned;
        const char *chunk = lua_pushfstring(L, "@%s", j->script);
        if (!trusted && textlen > 0 && text[0] == LUA_SIGNATURE[0]) {
            /* name the file and the reason, not "attempt to load chunk with wrong mode" */
            lua_pushfstring(L, "%s: binary (bytecode) chunks are refused in the sandbox (run "
                               "with --trust to allow them)", j->script);
            rc = LUA_ERRSYNTAX;
        } else {
            rc = luaL_loadbufferx(L, text, textlen, chunk, trusted ? "bt" : "t");
        }
        lua_remove(L, -2);
    } else {
        shown = j->script;
        const struct pl_embedded *e = find_embedded(j->script, 1);
        if (!e)
            return usage_error(j, lua_pushfstring(L, "no workload named '%s' (see 'platter "
                                                     "list'; a script file needs a '/' or a .lua "
                                                     "ending)", j->script));
        rc = load_embedded(L, e);
        text = e->text;
        textlen = e->len;
    }
    /* what ran, for the result record: registry platter.script = {name, text} */
    lua_createtable(L, 0, 2);
    lua_pushstring(L, shown);
    lua_setfield(L, -2, "name");
    lua_pushlstring(L, text ? text : "", text ? textlen : 0);
    lua_setfield(L, -2, "text");
    lua_setfield(L, LUA_REGISTRYINDEX, "platter.script");
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
    } else if (apply_sandbox(j) < 0) {
        call_exit_hook(L, j);
        return 0;
    }

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
    call_exit_hook(L, j);
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
    return L;
#else
    return luaL_newstate();
#endif
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

int pl_host_run_script(const char *script, int argc, char **argv)
{
    struct job j = {.script = script, .argc = argc, .argv = argv};
    return run(&j);
}

int pl_host_run_command(const char *name, int argc, char **argv)
{
    char mod[128];
    snprintf(mod, sizeof mod, "platter.cmd_%s", name);
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
