/*
 * luaopen_platter_core: the module-level functions of platter.core (clock,
 * randomness, caches, host facts, output, scratch files), plus the functions
 * of l_file.c and l_stats.c. lua/platter/init.lua wraps it as "platter".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "cache.h"
#include "clock.h"
#include "config.h"
#include "device.h"
#include "guard.h"
#include "host.h"
#include "io.h"
#include "l_util.h"
#include "l_open.h"
#include "out.h"
#include "plan.h"
#include "progress.h"
#include "record.h"
#include "rng.h"
#include "sandbox.h"
#include "target.h"
#include "units.h"
#include "hot.h"

/* p.now() -> monotonic clock in ns */
PL_HOT static int l_now(lua_State *L)
{
    pl_pushu64(L, pl_clock_ns());
    return 1;
}

/* p.seed([n]) -> the seed in force (after setting it to n) */
static int l_seed(lua_State *L)
{
    if (!lua_isnoneornil(L, 1)) {
        pl_rng_process_reseed(pl_checkoffset(L, 1, "seed"));
    }
    pl_pushu64(L, pl_rng_process_seed);
    return 1;
}

/*
 * p.random() -> float in [0,1); p.random(m) -> integer in [1,m];
 * p.random(lo, hi [, align]) -> multiple of align in [lo,hi]
 */
PL_HOT static int l_random(lua_State *L)
{
    int n = lua_gettop(L);
    if (n == 0) {
        lua_pushnumber(L, pl_rng_double(&pl_rng_process));
        return 1;
    }
    uint64_t lo = 1, hi, align = 1, v;
    if (n == 1) {
        hi = pl_checkoffset(L, 1, "upper bound");
        luaL_argcheck(L, hi >= 1, 1, "interval is empty");
    } else {
        lo = pl_checkoffset(L, 1, "lower bound");
        hi = pl_checkoffset(L, 2, "upper bound");
        align = pl_optoffset(L, 3, "alignment", 1);
        luaL_argcheck(L, lo <= hi, 2, "interval is empty");
    }
    if (pl_rng_range(&pl_rng_process, lo, hi, align, &v) < 0)
        return luaL_argerror(L, 3, "no multiple of the alignment lies in the interval");
    pl_pushu64(L, v);
    return 1;
}

/* p.drop_caches() -> true | nil, msg, errno (needs root) */
static int l_drop_caches(lua_State *L)
{
    pl_checkintr(L);
    struct pl_error e = {0};
    if (pl_target->drop_all(&e) < 0) {
        lua_pushnil(L);
        lua_pushfstring(L, "drop_caches: %s: %s%s", e.op ? e.op : "?", strerror(e.err),
                        e.err == EACCES || e.err == EPERM ? " (needs root)" : "");
        lua_pushinteger(L, e.err);
        return 3;
    }
    lua_pushboolean(L, 1);
    return 1;
}

/* p.sync() flushes every filesystem's dirty data (sync(2)), as old benchmarks did */
static int l_sync(lua_State *L)
{
    (void)L;
    pl_target->sync_all();
    return 0;
}

/* p.sleep(seconds) */
static int l_sleep(lua_State *L)
{
    lua_Number s = luaL_checknumber(L, 1);
    luaL_argcheck(L, s >= 0, 1, "seconds must not be negative");
    pl_checkintr(L); /* a pending Ctrl-C (caught by a pcall) must not sleep on */
    pl_clock_sleep_ns(pl_scale_u64(s, 1e9), &pl_interrupted);
    pl_checkintr(L);
    return 0;
}

/* p.parse_size(s) -> bytes | nil, msg */
static int l_parse_size(lua_State *L)
{
    const char *s = luaL_checkstring(L, 1);
    uint64_t v;
    const char *why;
    if (pl_nul_inside(L, 1, &why) || pl_units_parse_size(s, &v, &why) < 0) {
        lua_pushnil(L);
        lua_pushfstring(L, "bad size '%s': %s", s, why);
        return 2;
    }
    pl_pushu64(L, v);
    return 1;
}

/* p.parse_time(s) -> seconds | nil, msg */
static int l_parse_time(lua_State *L)
{
    const char *s = luaL_checkstring(L, 1);
    uint64_t v;
    const char *why;
    if (pl_nul_inside(L, 1, &why) || pl_units_parse_time(s, &v, &why) < 0) {
        lua_pushnil(L);
        lua_pushfstring(L, "bad duration '%s': %s", s, why);
        return 2;
    }
    lua_pushnumber(L, (double)v / 1e9);
    return 1;
}

/* Every string argument, in order, through the line state (src/core/out.h). */
static int write_to(lua_State *L, enum pl_stream to)
{
    int n = lua_gettop(L);
    for (int i = 1; i <= n; i++) {
        size_t len;
        const char *s = luaL_checklstring(L, i, &len);
        pl_out_write(to, s, len);
    }
    return 0;
}

/* p.write(...) writes strings to stdout, as io.write does */
static int l_write(lua_State *L)
{
    return write_to(L, PL_STDOUT);
}

/*
 * p.ewrite(...) writes strings to stderr, after what stdout has buffered; when
 * both go to one terminal or file, not into a partial stdout line (it waits
 * for that line's end)
 */
static int l_ewrite(lua_State *L)
{
    return write_to(L, PL_STDERR);
}

/*
 * core._notice(...) -> platter's own stderr line(s) (a warning): written on an
 * empty line, or held until the workload ends the current one. For the result
 * writer.
 */
static int l_notice(lua_State *L)
{
    int n = lua_gettop(L); /* before luaL_buffinit: 5.4's buffer may take a stack slot */
    for (int i = 1; i <= n; i++)
        luaL_checkstring(L, i);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        lua_pushvalue(L, i);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    pl_out_notice(s, len);
    return 0;
}

/* print(...) as Lua's own (tostring of each, tabs, a newline), written to stdout like p.write */
int pl_print(lua_State *L)
{
    int n = lua_gettop(L);
    lua_getglobal(L, "tostring");
    for (int i = 1; i <= n; i++) {
        size_t len;
        lua_pushvalue(L, -1);
        lua_pushvalue(L, i);
        lua_call(L, 1, 1);
        const char *s = lua_tolstring(L, -1, &len);
        if (!s)
            return luaL_error(L, "'tostring' must return a string to 'print'");
        if (i > 1)
            pl_out_write(PL_STDOUT, "\t", 1);
        pl_out_write(PL_STDOUT, s, len);
        lua_pop(L, 1);
    }
    pl_out_write(PL_STDOUT, "\n", 1);
    return 0;
}

/*
 * p.progress(bytes [, total]): the workload's own count for the progress line
 * of the innermost phase (dd: bytes copied), shown as MB/s, with a percentage
 * and ETA when total is given, instead of the phase's IOPS and MB/s
 */
static int l_progress(lua_State *L)
{
    uint64_t done = pl_checkoffset(L, 1, "bytes");
    uint64_t total = lua_isnoneornil(L, 2) ? 0 : pl_checkoffset(L, 2, "total");
    pl_progress_count('B', done, total);
    return 0;
}

/* p.flush() flushes stdout */
static int l_flush(lua_State *L)
{
    (void)L;
    fflush(stdout);
    return 0;
}

/* p.exit([code]) ends the script with this exit status (after cleanup) */
static int l_exit(lua_State *L)
{
    /* a number, not luaL_optinteger: LuaJIT's would take 2.5 as 2 */
    int code = pl_exit_code(luaL_optnumber(L, 1, 0));
    luaL_argcheck(L, code >= 0, 1, "exit status must be within 0..255");
    lua_newtable(L);
    lua_pushinteger(L, code);
    lua_setfield(L, -2, "platter_exit");
    return lua_error(L);
}

/*
 * The file system calls below go through the chokepoint in core/guard.c,
 * which resolves the path beneath an allowed root (or refuses). A refusal is
 * an error raised at the script's line; an OS failure is nil, msg, errno.
 */
static int fs_fail(lua_State *L, const char *fn, const char *path, int rc, const char *why)
{
    if (rc == PL_FS_REFUSED || rc == PL_FS_NOTFILE)
        return luaL_error(L, "%s: %s", fn, why);
    return pl_pusherror(L, fn, path, -rc, NULL);
}

/* p.scratch(path) -> path: remove the file (or empty directory) at exit, whatever the exit path */
static int l_scratch(lua_State *L)
{
    const char *path = pl_checkpath(L, 1);
    char why[1024];
    int rc;
    if ((rc = pl_target->scratch(path, why, sizeof why)) < 0) {
        if (rc == PL_FS_REFUSED)
            return luaL_error(L, "scratch: %s", why);
        return luaL_error(L, "scratch: cannot track %s: %s", path,
                          rc == -ENOSPC ? "too many scratch files" : strerror(-rc));
    }
    lua_settop(L, 1);
    return 1;
}

/* p.remove(path) -> true | nil, msg, errno */
static int l_remove(lua_State *L)
{
    const char *path = pl_checkpath(L, 1);
    char why[1024];
    int rc = pl_target->remove(path, why, sizeof why);
    if (rc < 0)
        return fs_fail(L, "remove", path, rc, why);
    lua_pushboolean(L, 1);
    return 1;
}

/* The refusal shared by the directory calls, on a target without directories. */
static void check_dirs(lua_State *L, const char *fn)
{
    if (!(pl_target->flags & PL_TARGET_DIRS))
        luaL_error(L, "%s: not available %s", fn, pl_target->no_dirs);
}

/* p.mkdir(path) -> true | nil, msg, errno (mode 0700, as bonnie++ makes its directory) */
static int l_mkdir(lua_State *L)
{
    const char *path = pl_checkpath(L, 1);
    char why[1024];
    check_dirs(L, "mkdir");
    int rc = pl_target->mkdir(path, 0700, why, sizeof why);
    if (rc < 0)
        return fs_fail(L, "mkdir", path, rc, why);
    lua_pushboolean(L, 1);
    return 1;
}

/* p.rmdir(path) -> true | nil, msg, errno (an empty directory) */
static int l_rmdir(lua_State *L)
{
    const char *path = pl_checkpath(L, 1);
    char why[1024];
    check_dirs(L, "rmdir");
    int rc = pl_target->rmdir(path, why, sizeof why);
    if (rc < 0)
        return fs_fail(L, "rmdir", path, rc, why);
    lua_pushboolean(L, 1);
    return 1;
}

/* The names readdir gathers before any of them reaches Lua (a memory error
   there must not leave the directory open). */
struct names {
    char **v;
    size_t n, cap;
};

static int add_name(void *ud, const char *name)
{
    struct names *ns = ud;
    if (ns->n == ns->cap) {
        size_t cap = ns->cap ? ns->cap * 2 : 64;
        char **v = realloc(ns->v, cap * sizeof *v);
        if (!v)
            return -ENOMEM;
        ns->v = v;
        ns->cap = cap;
    }
    if (!(ns->v[ns->n] = strdup(name)))
        return -ENOMEM;
    ns->n++;
    return 0;
}

/* p.readdir(path) -> { names in the order readdir(3) gives, without . and .. } | nil, msg, errno */
static int l_readdir(lua_State *L)
{
    const char *path = pl_checkpath(L, 1);
    char why[1024];
    check_dirs(L, "readdir");
    struct names ns = {NULL, 0, 0};
    int rc = pl_target->readdir(path, add_name, &ns, why, sizeof why);
    if (rc == 0)
        lua_createtable(L, (int)ns.n, 0);
    for (size_t i = 0; i < ns.n; i++) {
        if (rc == 0) {
            lua_pushstring(L, ns.v[i]);
            lua_rawseti(L, -2, (int)i + 1);
        }
        free(ns.v[i]);
    }
    free(ns.v);
    if (rc < 0)
        return fs_fail(L, "readdir", path, rc, why);
    return 1;
}

/* p.stat(path) -> { kind, size, mode, mtime } | nil, msg, errno: stat(2), following links */
static int l_stat(lua_State *L)
{
    const char *path = pl_checkpath(L, 1);
    char why[1024];
    check_dirs(L, "stat");
    struct stat st;
    int rc = pl_target->stat(path, &st, why, sizeof why);
    if (rc < 0)
        return fs_fail(L, "stat", path, rc, why);
    const char *kind = S_ISREG(st.st_mode)   ? "file"
                       : S_ISDIR(st.st_mode) ? "dir"
                       : S_ISBLK(st.st_mode) ? "block"
                       : S_ISCHR(st.st_mode) ? "char"
                                             : "other";
    lua_createtable(L, 0, 4);
    lua_pushstring(L, kind);
    lua_setfield(L, -2, "kind");
    pl_pushu64(L, (uint64_t)st.st_size);
    lua_setfield(L, -2, "size");
    lua_pushinteger(L, (lua_Integer)(st.st_mode & 07777));
    lua_setfield(L, -2, "mode");
    lua_pushnumber(L, (lua_Number)st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9);
    lua_setfield(L, -2, "mtime");
    return 1;
}

/* p.statfs(path) -> { path, size, free, avail, files, ffree, bsize } | nil, msg, errno:
   statfs(2) of the filesystem that holds path, with path resolved (what IOR shows) */
static int l_statfs(lua_State *L)
{
    const char *path = pl_checkpath(L, 1);
    char why[1024];
    check_dirs(L, "statfs");
    int fd = pl_fs_open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK, 0, why, sizeof why);
    if (fd < 0)
        return fs_fail(L, "statfs", path, fd, why);
    struct statfs sf;
    char link[64], real[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, real, sizeof real - 1);
    int rc = fstatfs(fd, &sf), err = errno;
    close(fd);
    if (rc < 0)
        return pl_pusherror(L, "statfs", path, err, NULL);
    real[n > 0 ? n : 0] = 0;
    lua_createtable(L, 0, 7);
    lua_pushstring(L, n > 0 ? real : path);
    lua_setfield(L, -2, "path");
    pl_pushu64(L, (uint64_t)sf.f_blocks * (uint64_t)sf.f_bsize);
    lua_setfield(L, -2, "size");
    pl_pushu64(L, (uint64_t)sf.f_bfree * (uint64_t)sf.f_bsize);
    lua_setfield(L, -2, "free");
    pl_pushu64(L, (uint64_t)sf.f_bavail * (uint64_t)sf.f_bsize);
    lua_setfield(L, -2, "avail");
    pl_pushu64(L, (uint64_t)sf.f_files);
    lua_setfield(L, -2, "files");
    pl_pushu64(L, (uint64_t)sf.f_ffree);
    lua_setfield(L, -2, "ffree");
    pl_pushu64(L, (uint64_t)sf.f_bsize);
    lua_setfield(L, -2, "bsize");
    return 1;
}

/* p.read_text(path [, max]) -> string | nil, msg, errno: a whole regular file as text
   (a job file), at most max bytes (1 MiB by default); through the path rules */
static int l_read_text(lua_State *L)
{
    const char *path = pl_checkpath(L, 1);
    uint64_t max = pl_optoffset(L, 2, "max", 1 << 20);
    char why[1024];
    luaL_argcheck(L, max <= (1 << 30), 2, "max must be 0 to 1 GiB");
    int fd = pl_fs_open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK, 0, why, sizeof why);
    if (fd < 0)
        return fs_fail(L, "read_text", path, fd, why);
    struct stat st;
    int st_rc = fstat(fd, &st);
    if (st_rc < 0 || !S_ISREG(st.st_mode)) {
        int err = st_rc < 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        close(fd);
        return pl_pusherror(L, "read_text", path, err, NULL);
    }
    if ((uint64_t)st.st_size > max) {
        close(fd);
        lua_pushnil(L);
        lua_pushfstring(L, "read_text %s: larger than %d bytes", path, (int)max);
        lua_pushinteger(L, EFBIG);
        return 3;
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    char chunk[8192];
    size_t total = 0;
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int err = errno;
            close(fd);
            return pl_pusherror(L, "read_text", path, err, NULL);
        }
        if (n == 0 || (total += (size_t)n) > (size_t)max)
            break;
        luaL_addlstring(&b, chunk, (size_t)n);
    }
    close(fd);
    luaL_pushresult(&b);
    return 1;
}

/* p.getenv(name) -> string | nil: an environment variable (fio job files expand them) */
static int l_getenv(lua_State *L)
{
    /* the environment holds secrets (tokens, keys) a script could put in a record
       someone posts: sandboxed, only the variables named with --env, and TMPDIR (the
       sandbox's own: a script may use that directory, so knowing it tells nothing) */
    const char *name = luaL_checkstring(L, 1), *why;
    luaL_argcheck(L, !pl_nul_inside(L, 1, &why), 1, "the name holds a NUL byte");
    int granted = pl_cfg.trust || strcmp(name, "TMPDIR") == 0;
    for (int i = 0; i < pl_cfg.nenv && !granted; i++)
        granted = strcmp(pl_cfg.env[i], name) == 0;
    pl_plan_note_env(name, granted); /* platter plan lists what a script reads */
    if (!granted)
        return luaL_error(L,
                          "getenv: $%s is not granted to a sandboxed script: name it with --env %s "
                          "(or run with --trust)",
                          name, name);
    lua_pushstring(L, getenv(name)); /* NULL pushes nil */
    return 1;
}

/* ---- p.output_file: text output to a file named on the command line ---- */

#define OUTPUT_MT "platter.output"

struct output {
    int fd; /* -1 once closed */
    char path[256];
};

static struct output *check_output(lua_State *L)
{
    struct output *o = luaL_checkudata(L, 1, OUTPUT_MT);
    if (o->fd < 0)
        luaL_error(L, "attempt to use a closed output file");
    return o;
}

/* The descriptor of the writer at idx (p.run's log), or -1: not a writer, or closed. */
int pl_output_fd(lua_State *L, int idx)
{
    struct output *o = luaL_testudata(L, idx, OUTPUT_MT);
    return o ? o->fd : -1;
}

/* p.output_file(path) -> writer | nil, msg, errno */
static int l_output_file(lua_State *L)
{
    const char *path = pl_checkpath(L, 1);
    char why[1024];
    int fd = pl_fs_open_output(path, why, sizeof why);
    if (fd < 0)
        return fs_fail(L, "output_file", path, fd, why);
    struct output *o = lua_newuserdata(L, sizeof *o);
    o->fd = fd;
    snprintf(o->path, sizeof o->path, "%s", path);
    luaL_getmetatable(L, OUTPUT_MT);
    lua_setmetatable(L, -2);
    return 1;
}

/* w:write(...) -> w | nil, msg, errno: strings and numbers, no separators */
static int l_output_write(lua_State *L)
{
    struct output *o = check_output(L);
    int n = lua_gettop(L);
    for (int i = 2; i <= n; i++) {
        size_t len;
        const char *s = luaL_checklstring(L, i, &len);
        while (len > 0) {
            ssize_t w = write(o->fd, s, len);
            if (w < 0 && errno == EINTR)
                continue;
            if (w < 0)
                return pl_pusherror(L, "write", o->path, errno, NULL);
            s += w;
            len -= (size_t)w;
        }
    }
    lua_settop(L, 1);
    return 1;
}

/* w:close() -> true | nil, msg, errno */
static int l_output_close(lua_State *L)
{
    struct output *o = check_output(L);
    int rc = close(o->fd);
    o->fd = -1;
    if (rc < 0)
        return pl_pusherror(L, "close", o->path, errno, NULL);
    lua_pushboolean(L, 1);
    return 1;
}

static int l_output_gc(lua_State *L)
{
    struct output *o = luaL_checkudata(L, 1, OUTPUT_MT);
    if (o->fd >= 0)
        close(o->fd);
    o->fd = -1;
    return 0;
}

static int l_output_tostring(lua_State *L)
{
    struct output *o = luaL_checkudata(L, 1, OUTPUT_MT);
    lua_pushfstring(L, "platter.output (%s%s)", o->path, o->fd < 0 ? ", closed" : "");
    return 1;
}

static void output_metatable(lua_State *L)
{
    static const luaL_Reg methods[] = {
        {"write", l_output_write},
        {"close", l_output_close},
        {NULL, NULL},
    };
    luaL_newmetatable(L, OUTPUT_MT);
    lua_newtable(L);
    for (const luaL_Reg *m = methods; m->name; m++) {
        lua_pushcfunction(L, m->func);
        lua_setfield(L, -2, m->name);
    }
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, l_output_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, l_output_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushliteral(L, OUTPUT_MT);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
}

/* p.sandbox() -> "kernel", "checks-only" or "off": how the sandbox holds this run */
static int l_sandbox(lua_State *L)
{
    lua_pushstring(L, pl_sandbox_mode());
    return 1;
}

/*
 * core._record_write("json"|"csv", text) -> true | nil, msg: replace the
 * result file named by --json/--csv (platter's own state, not the script's)
 * with text. Private to the result writer: init.lua does not copy "_" names
 * into the public table.
 */
static int l_record_write(lua_State *L)
{
    static const char *const kinds[] = {"json", "csv", NULL};
    int k = luaL_checkoption(L, 1, NULL, kinds);
    size_t len;
    const char *text = luaL_checklstring(L, 2, &len);
    const char *path = pl_record_path((enum pl_record_kind)k);
    if (!path)
        return luaL_error(L, "no --%s file was given", kinds[k]);
    pl_out_boundary(); /* what platter printed comes first, should the result go there too */
    int rc = pl_record_write((enum pl_record_kind)k, text, len);
    if (rc < 0) {
        lua_pushnil(L);
        lua_pushfstring(L, "%s: %s", path, strerror(-rc));
        return 2;
    }
    lua_pushboolean(L, 1);
    return 1;
}

/*
 * core._record_hold("head"|"part"|"tail", "json"|"csv", text) -> true | nil, msg:
 * give the keeper the record as far as the run got, for it to write should
 * platter end without writing the file itself (src/core/record.h). Private to
 * the result writer, as _record_write.
 */
static int l_record_hold(lua_State *L)
{
    static const char *const ops[] = {"head", "part", "tail", NULL};
    static const char *const kinds[] = {"json", "csv", NULL};
    int op = luaL_checkoption(L, 1, NULL, ops);
    int k = luaL_checkoption(L, 2, NULL, kinds);
    size_t len;
    const char *text = luaL_checklstring(L, 3, &len);
    int rc =
        pl_record_hold((enum pl_record_op)(PL_RECORD_HEAD + op), (enum pl_record_kind)k, text, len);
    if (rc < 0) {
        lua_pushnil(L);
        lua_pushstring(L, strerror(-rc));
        return 2;
    }
    lua_pushboolean(L, 1);
    return 1;
}

/* core._phases_open() -> how many phases are timing now (the recorder holds a finished
   phase's record only when none is, so that its work is in no phase's time) */
static int l_phases_open(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)pl_io_phase_count());
    return 1;
}

/* p.ram() -> bytes of RAM */
static int l_ram(lua_State *L)
{
    pl_pushu64(L, pl_target->ram());
    return 1;
}

/* p.pid() -> process id */
static int l_pid(lua_State *L)
{
    /* a target may fix it, so that names such as Bonnie.<pid> repeat in every run */
    lua_pushinteger(L, pl_target->pid ? (lua_Integer)pl_target->pid : (lua_Integer)getpid());
    return 1;
}

/* p.isatty(stream) -> whether "stdout", "stderr" or "stdin" is a terminal */
static int l_isatty(lua_State *L)
{
    static const char *const names[] = {"stdin", "stdout", "stderr", NULL};
    int fd = luaL_checkoption(L, 1, NULL, names);
    lua_pushboolean(L, isatty(fd));
    return 1;
}

/* p.ids() -> real user id, real group id (what bonnie++ -u reports) */
static int l_ids(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)getuid());
    lua_pushinteger(L, (lua_Integer)getgid());
    return 2;
}

/* p.hostname() -> the node name */
static int l_hostname(lua_State *L)
{
    char buf[256];
    if (pl_target->hostname)
        snprintf(buf, sizeof buf, "%s", pl_target->hostname);
    else if (gethostname(buf, sizeof buf) < 0)
        buf[0] = '\0';
    buf[sizeof buf - 1] = '\0';
    lua_pushstring(L, buf);
    return 1;
}

/* p.cpu() -> user, sys CPU seconds of this process and its waited children */
static int l_cpu(lua_State *L)
{
    double u, s;
    pl_clock_cpu(&u, &s);
    lua_pushnumber(L, u);
    lua_pushnumber(L, s);
    return 2;
}

/* "0-1,3": the CPUs of set, as ranges (at most len bytes, cut short with "..."). */
static void cpu_list(const cpu_set_t *set, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int c = 0; c < CPU_SETSIZE && n + 24 < len; c++) {
        if (!CPU_ISSET(c, set))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
            e++;
        n += (size_t)snprintf(buf + n, len - n, n ? ",%d" : "%d", c);
        if (e > c)
            n += (size_t)snprintf(buf + n, len - n, "-%d", e);
        c = e;
    }
    if (n + 24 >= len)
        snprintf(buf + n, len - n, "...");
}

/*
 * p.affinity() -> { cpu, ... }, ncpus: the CPUs this process may run on (ascending) and
 * how many the machine has (configured, fio's $ncpus).
 * p.affinity({ cpu, ... }) -> true | nil, msg, errno: run this process (a p.parallel
 * worker: that worker) on those CPUs only, as fio's cpus_allowed. Threads made later
 * (glibc's POSIX AIO) inherit it.
 */
static int l_affinity(lua_State *L)
{
    cpu_set_t set;
    if (lua_isnoneornil(L, 1)) {
        CPU_ZERO(&set);
        if (sched_getaffinity(0, sizeof set, &set) < 0)
            return pl_pusherror(L, "affinity", "sched_getaffinity", errno, NULL);
        lua_createtable(L, CPU_COUNT(&set), 0);
        int k = 0;
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set)) {
                lua_pushinteger(L, c);
                lua_rawseti(L, -2, ++k);
            }
        long n = sysconf(_SC_NPROCESSORS_CONF);
        lua_pushinteger(L, n > 0 ? n : k);
        return 2;
    }
    luaL_checktype(L, 1, LUA_TTABLE);
    CPU_ZERO(&set);
    int n = (int)pl_rawlen(L, 1);
    if (n == 0)
        luaL_argerror(L, 1, "a list of one CPU number or more");
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, 1, i);
        int isnum = 0;
        lua_Number v = lua_tonumberx(L, -1, &isnum);
        if (!isnum || v != v || v < 0 || v >= CPU_SETSIZE || v != (lua_Number)(int)v)
            luaL_argerror(L, 1,
                          lua_pushfstring(L,
                                          "CPU %d of the list is not a whole number from 0 to %d",
                                          i, CPU_SETSIZE - 1));
        CPU_SET((int)v, &set);
        lua_pop(L, 1);
    }
    if (sched_setaffinity(0, sizeof set, &set) < 0) {
        int err = errno;
        char want[256], have[256], what[300], extra[300];
        cpu_set_t now;
        CPU_ZERO(&now);
        sched_getaffinity(0, sizeof now, &now);
        cpu_list(&set, want, sizeof want);
        cpu_list(&now, have, sizeof have);
        snprintf(what, sizeof what, "to CPUs %s", want);
        snprintf(extra, sizeof extra, "this process may run on CPUs %s", have);
        return pl_pusherror(L, "affinity", what, err, extra);
    }
    lua_pushboolean(L, 1);
    return 1;
}

/* p.rusage() -> { user, sys, ctx, majf, minf } of this process alone (a p.parallel
   worker: its own), as fio reports them; on a virtual clock the simulated CPU and
   no switches or faults */
static int l_rusage(lua_State *L)
{
    double user, sys;
    uint64_t ctx = 0, majf = 0, minf = 0;
    if (pl_clock_virtual) {
        pl_clock_cpu(&user, &sys);
    } else {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
        sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
        ctx = (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
        majf = (uint64_t)ru.ru_majflt;
        minf = (uint64_t)ru.ru_minflt;
    }
    lua_createtable(L, 0, 5);
    lua_pushnumber(L, user);
    lua_setfield(L, -2, "user");
    lua_pushnumber(L, sys);
    lua_setfield(L, -2, "sys");
    pl_pushu64(L, ctx);
    lua_setfield(L, -2, "ctx");
    pl_pushu64(L, majf);
    lua_setfield(L, -2, "majf");
    pl_pushu64(L, minf);
    lua_setfield(L, -2, "minf");
    return 1;
}

/* p.diskstats() -> { [name] = { reads, read_merges, ..., time_in_queue } } from
   /proc/diskstats, or nil, message (read by platter itself, not under the
   script's path rules: counters only) */
static int l_diskstats(lua_State *L)
{
    if (strcmp(pl_target->name, "os") != 0) {
        lua_pushnil(L);
        lua_pushfstring(L, "diskstats: the %s target has no /proc/diskstats", pl_target->name);
        return 2;
    }
    FILE *f = fopen("/proc/diskstats", "re");
    if (!f) {
        int err = errno;
        lua_pushnil(L);
        lua_pushfstring(L, "diskstats: /proc/diskstats: %s", strerror(err));
        return 2;
    }
    lua_newtable(L);
    char line[512];
    struct pl_diskstat d;
    while (fgets(line, sizeof line, f)) {
        if (pl_diskstat_parse(line, &d) < 0)
            continue;
        lua_createtable(L, 0, PL_DISKSTAT_NR);
        for (int i = 0; i < PL_DISKSTAT_NR; i++) {
            pl_pushu64(L, d.v[i]);
            lua_setfield(L, -2, pl_diskstat_fields[i]);
        }
        lua_setfield(L, -2, d.name);
    }
    fclose(f);
    return 1;
}

/* p.clock_info() -> { source = "kvm-clock", overhead_ns = 21.3 } */
static int l_clock_info(lua_State *L)
{
    lua_newtable(L);
    lua_pushstring(L, pl_clock_source());
    lua_setfield(L, -2, "source");
    lua_pushnumber(L, pl_clock_overhead_ns());
    lua_setfield(L, -2, "overhead_ns");
    return 1;
}

/*
 * p.decimal_point() -> the decimal separator of the LC_NUMERIC locale that the
 * environment names (LC_ALL, then LC_NUMERIC, then LANG, as setlocale reads
 * them; LOCPATH is honoured), "." when that locale is C or is not installed.
 * platter itself always formats with ".": workloads that print as a tool that
 * honours the locale (GNU dd) convert. Looked up once.
 */
static int l_decimal_point(lua_State *L)
{
    static char dp[8];
    if (!dp[0]) {
        /* the process's LC_NUMERIC stays "C" (what Lua's formatting relies on):
           the environment's is loaded for the look, then put back */
        const char *was = setlocale(LC_NUMERIC, NULL);
        char saved[64];
        snprintf(saved, sizeof saved, "%s", was ? was : "C");
        const char *s = NULL;
        if (setlocale(LC_NUMERIC, "")) {
            const struct lconv *lc = localeconv();
            s = lc ? lc->decimal_point : NULL;
        }
        snprintf(dp, sizeof dp, "%s", s && *s ? s : ".");
        setlocale(LC_NUMERIC, saved);
    }
    lua_pushstring(L, dp);
    return 1;
}

/* p.interrupted() -> true once SIGINT/SIGTERM arrived */
static int l_interrupted(lua_State *L)
{
    lua_pushboolean(L, pl_interrupted != 0);
    return 1;
}

/* p._hook(name, fn): set a host hook ("repeat", "exit", "phase"); see host.c */
static int l_hook(lua_State *L)
{
    luaL_checkstring(L, 1);
    if (!lua_isnil(L, 2))
        luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    lua_getfield(L, LUA_REGISTRYINDEX, "platter.hooks");
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, "platter.hooks");
    }
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_settable(L, -3);
    return 0;
}

/* Copy the string fields (and a list of strings "args") of the table at src
   into the table at the top. */
static void copy_strings(lua_State *L, int src, const char *const *fields)
{
    for (int i = 0; fields[i]; i++) {
        lua_pushstring(L, fields[i]);
        lua_rawget(L, src);
        if (lua_type(L, -1) == LUA_TSTRING)
            lua_setfield(L, -2, fields[i]);
        else
            lua_pop(L, 1);
    }
    lua_pushliteral(L, "args");
    lua_rawget(L, src);
    if (lua_istable(L, -1)) {
        int a = lua_gettop(L);
        int n = (int)pl_rawlen(L, a);
        lua_createtable(L, n, 0);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, a, i);
            lua_rawseti(L, -2, i);
        }
        lua_setfield(L, a - 1, "args");
    }
    lua_pop(L, 1);
}

/* Push a copy of the plain value at idx: tables (keys and values of strings,
   numbers, booleans and such tables, depth bounded) are copied anew. */
static void copy_plain(lua_State *L, int idx, int depth)
{
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    if (!lua_istable(L, idx) || depth > 8) {
        if (lua_istable(L, idx))
            lua_pushnil(L);
        else
            lua_pushvalue(L, idx);
        return;
    }
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        int t = lua_type(L, -2);
        if (t == LUA_TSTRING || t == LUA_TNUMBER) {
            lua_pushvalue(L, -2);
            copy_plain(L, -2, depth + 1);
            lua_rawset(L, -5);
        }
        lua_pop(L, 1);
    }
}

/*
 * core._script() -> a new table { name = ..., text = ..., workloads = {...} }
 * of the script being run (empty before the host has loaded it); workloads
 * lists the shipped workloads it ran with p.workload, each { name, args, text },
 * once per distinct argument list (absent when none); pack is a pack's record
 * section (platter NAME.platter; lua/platter/packfile.lua). A copy: the registry
 * entries the host made stay as they were, whatever the caller does with it.
 */
static int l_script(lua_State *L)
{
    static const char *const fields[] = {"name", "text", NULL};
    lua_createtable(L, 0, 3);
    int t = lua_gettop(L);
    lua_getfield(L, LUA_REGISTRYINDEX, "platter.script");
    if (lua_istable(L, -1)) {
        lua_pushvalue(L, t);
        copy_strings(L, t + 1, fields);
        lua_pop(L, 1);
        lua_getfield(L, -1, "pack");
        if (lua_istable(L, -1)) {
            copy_plain(L, -1, 0);
            lua_setfield(L, t, "pack");
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, "platter.workloads");
    int n = lua_istable(L, -1) ? (int)pl_rawlen(L, -1) : 0;
    if (n > 0) {
        int w = lua_gettop(L);
        lua_createtable(L, n, 0);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, w, i);
            lua_createtable(L, 0, 3);
            copy_strings(L, lua_gettop(L) - 1, fields);
            lua_rawseti(L, -3, i);
            lua_pop(L, 1);
        }
        lua_setfield(L, t, "workloads");
    }
    lua_settop(L, t);
    return 1;
}

/* {====================================================================
** The configuration. Scripts see p.config, a read-only view made once;
** platter's own code (the result writer) calls core._config(), which builds
** a new plain table from pl_cfg on every call, so nothing a script does to
** what it can reach changes where results go or what the record says.
** ===================================================================== */

/* Push a new plain table of the global options and the whole command line; for a
   script's view, without a plan's mode (a script is planned as it would run). */
static void push_config(lua_State *L, int for_script)
{
    lua_createtable(L, 0, 10);
    if (pl_cfg.json_path) {
        lua_pushstring(L, pl_cfg.json_path);
        lua_setfield(L, -2, "json");
    }
    if (pl_cfg.csv_path) {
        lua_pushstring(L, pl_cfg.csv_path);
        lua_setfield(L, -2, "csv");
    }
    if (pl_cfg.sim) {
        lua_pushstring(L, pl_cfg.sim);
        lua_setfield(L, -2, "sim");
    }
    if (pl_cfg.target) {
        lua_pushstring(L, pl_cfg.target);
        lua_setfield(L, -2, "target");
    }
    if (pl_target->flags & PL_TARGET_VIRTUAL) { /* --sim, --target null: no machine behind */
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, "virtual");
    }
    if (pl_cfg.mode && !(for_script && strncmp(pl_cfg.mode, "plan", 4) == 0)) {
        lua_pushstring(L, pl_cfg.mode);
        lua_setfield(L, -2, "mode");
    }
    lua_pushinteger(L, pl_cfg.repeat);
    lua_setfield(L, -2, "repeats");
    lua_pushnumber(L, pl_cfg.ci_pct);
    lua_setfield(L, -2, "ci");
    pl_pushu64(L, pl_cfg.seed);
    lua_setfield(L, -2, "seed");
    lua_pushboolean(L, pl_cfg.seed_given);
    lua_setfield(L, -2, "seed_given");
    lua_pushboolean(L, pl_cfg.destroy);
    lua_setfield(L, -2, "destroy");
    lua_createtable(L, pl_cfg.argc, 0);
    for (int i = 0; i < pl_cfg.argc; i++) {
        lua_pushstring(L, pl_cfg.argv[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "argv");
}

/* core._config() -> a new plain copy of the configuration, for platter's own use */
/* core._described(): p.script printed the manifest under 'platter describe' */
static int l_described(lua_State *L)
{
    (void)L;
    pl_host_described = 1;
    return 0;
}

static int l_config(lua_State *L)
{
    push_config(L, 0);
    return 1;
}

/* core._plan() -> { entries = { {path, what = {read=, ...}, written, output, why}, ... },
   dropped, written, root } | nil: what platter plan noted (plan.h) */
static int l_plan(lua_State *L)
{
    static const struct {
        unsigned bit;
        const char *name;
    } bits[] = {
        {PL_PLAN_READ, "read"},       {PL_PLAN_WRITE, "write"},       {PL_PLAN_CREATE, "create"},
        {PL_PLAN_WRITTEN, "written"}, {PL_PLAN_TRUNCATE, "truncate"}, {PL_PLAN_REMOVE, "remove"},
        {PL_PLAN_SCRATCH, "scratch"}, {PL_PLAN_BLOCK, "block"},       {PL_PLAN_DESTROY, "destroy"},
        {PL_PLAN_OUTPUT, "output"},   {PL_PLAN_REFUSED, "refused"},   {PL_PLAN_MISSING, "missing"},
        {PL_PLAN_EXISTED, "existed"}, {PL_PLAN_ABSENT, "absent"},     {PL_PLAN_BUSY, "busy"},
        {PL_PLAN_MKDIR, "mkdir"},     {PL_PLAN_RMDIR, "rmdir"},
    };
    unsigned n, dropped;
    const struct pl_plan_entry *e = pl_plan_entries(&n, &dropped);
    if (!e) {
        lua_pushnil(L);
        return 1;
    }
    lua_createtable(L, 0, 4);
    lua_createtable(L, (int)n, 0);
    for (unsigned i = 0; i < n; i++) {
        lua_createtable(L, 0, 5);
        lua_pushstring(L, e[i].path);
        lua_setfield(L, -2, "path");
        lua_newtable(L);
        for (size_t b = 0; b < sizeof bits / sizeof bits[0]; b++) {
            if (e[i].what & bits[b].bit) {
                lua_pushboolean(L, 1);
                lua_setfield(L, -2, bits[b].name);
            }
        }
        lua_setfield(L, -2, "what");
        pl_pushu64(L, e[i].written);
        lua_setfield(L, -2, "written");
        if (e[i].output >= 0) {
            pl_pushu64(L, (uint64_t)e[i].output);
            lua_setfield(L, -2, "output");
        }
        if (e[i].why[0]) {
            lua_pushstring(L, e[i].why);
            lua_setfield(L, -2, "why");
        }
        lua_rawseti(L, -2, (int)i + 1);
    }
    lua_setfield(L, -2, "entries");
    lua_pushinteger(L, (lua_Integer)dropped);
    lua_setfield(L, -2, "dropped");
    pl_pushu64(L, pl_plan_written());
    lua_setfield(L, -2, "written");
    lua_pushstring(L, pl_plan_root());
    lua_setfield(L, -2, "root");
    unsigned nenv;
    const struct pl_plan_env *env = pl_plan_env(&nenv);
    lua_createtable(L, (int)nenv, 0);
    for (unsigned i = 0; i < nenv; i++) {
        lua_createtable(L, 0, 3);
        lua_pushstring(L, env[i].name);
        lua_setfield(L, -2, "name");
        lua_pushboolean(L, (env[i].what & PL_PLAN_ENV_READ) != 0);
        lua_setfield(L, -2, "read");
        lua_pushboolean(L, (env[i].what & PL_PLAN_ENV_REFUSED) != 0);
        lua_setfield(L, -2, "refused");
        lua_rawseti(L, -2, (int)i + 1);
    }
    lua_setfield(L, -2, "env");
    return 1;
}

/* __newindex of a read-only view: every write is an error at the writing line */
static int ro_refuse(lua_State *L)
{
    return luaL_error(L, "attempt to change platter's configuration");
}

/* the iterator of a read-only view: next() over the hidden table (upvalue 1) */
static int ro_next(lua_State *L)
{
    lua_settop(L, 2);
    if (lua_next(L, lua_upvalueindex(1)))
        return 2;
    lua_pushnil(L);
    return 1;
}

/* __pairs (Lua 5.4; LuaJIT 2.1 does not consult it): the hidden table stays hidden */
static int ro_pairs(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushcclosure(L, ro_next, 1);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

/* __len (Lua 5.4; LuaJIT 2.1 ignores __len on tables) */
static int ro_len(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)pl_rawlen(L, lua_upvalueindex(1)));
    return 1;
}

/*
 * Push a read-only view of the table at idx: an empty table whose metatable
 * reads through to a private copy (nested tables become views too), refuses
 * every assignment, and is itself hidden from getmetatable.
 */
static void push_readonly(lua_State *L, int idx)
{
    if (idx < 0)
        idx = lua_gettop(L) + idx + 1;
    lua_newtable(L); /* the private copy */
    int copy = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_istable(L, -1)) {
            push_readonly(L, lua_gettop(L));
            lua_replace(L, -2);
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, copy);
    }
    lua_newtable(L); /* the view */
    lua_createtable(L, 0, 5);
    lua_pushvalue(L, copy);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, ro_refuse);
    lua_setfield(L, -2, "__newindex");
    lua_pushvalue(L, copy);
    lua_pushcclosure(L, ro_pairs, 1);
    lua_setfield(L, -2, "__pairs");
    lua_pushvalue(L, copy);
    lua_pushcclosure(L, ro_len, 1);
    lua_setfield(L, -2, "__len");
    lua_pushliteral(L, "platter's configuration (read-only)");
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    lua_remove(L, copy);
}

/*
 * core._resolve(path) -> resolved, kind, more | nil, message. kind is "dir",
 * "file", "block", "char", "other", or "new" (does not exist yet; may be
 * created); more: why naming it grants more than the current directory and
 * $TMPDIR give it unnamed, or nil (pl_allow_named_gain). For platter rerun,
 * which shows what a recorded run will be granted.
 */
static int l_resolve(lua_State *L)
{
    size_t len;
    const char *path = luaL_checklstring(L, 1, &len);
    char r[PATH_MAX];
    if (len == 0 || strlen(path) != len) {
        lua_pushnil(L);
        lua_pushstring(L, len == 0 ? "empty path" : "the path holds a NUL byte");
        return 2;
    }
    int exists;
    int rc = pl_allow_resolve(path, r, &exists); /* the allow list's own rule */
    if (rc) {
        lua_pushnil(L);
        lua_pushstring(L, rc == -ELOOP ? "a dangling symlink" : strerror(-rc));
        return 2;
    }
    struct stat st;
    const char *kind = "new";
    if (stat(r, &st) == 0)
        kind = S_ISDIR(st.st_mode)   ? "dir"
               : S_ISREG(st.st_mode) ? "file"
               : S_ISBLK(st.st_mode) ? "block"
               : S_ISCHR(st.st_mode) ? "char"
                                     : "other";
    lua_pushstring(L, r);
    lua_pushstring(L, kind);
    lua_pushstring(L, pl_allow_named_gain(r)); /* NULL pushes nil */
    return 3;
}

/* }==================================================================== */

static const luaL_Reg core_funcs[] = {
    {"_config", l_config},
    {"_described", l_described},
    {"_hook", l_hook},
    {"_notice", l_notice},
    {"_plan", l_plan},
    {"_record_write", l_record_write},
    {"_record_hold", l_record_hold},
    {"_phases_open", l_phases_open},
    {"_resolve", l_resolve},
    {"_script", l_script},
    {"clock_info", l_clock_info},
    {"cpu", l_cpu},
    {"drop_caches", l_drop_caches},
    {"ewrite", l_ewrite},
    {"exit", l_exit},
    {"flush", l_flush},
    {"getenv", l_getenv},
    {"hostname", l_hostname},
    {"decimal_point", l_decimal_point},
    {"diskstats", l_diskstats},
    {"ids", l_ids},
    {"interrupted", l_interrupted},
    {"isatty", l_isatty},
    {"now", l_now},
    {"output_file", l_output_file},
    {"parse_size", l_parse_size},
    {"parse_time", l_parse_time},
    {"pid", l_pid},
    {"progress", l_progress},
    {"ram", l_ram},
    {"mkdir", l_mkdir},
    {"random", l_random},
    {"read_text", l_read_text},
    {"readdir", l_readdir},
    {"remove", l_remove},
    {"rmdir", l_rmdir},
    {"rusage", l_rusage},
    {"affinity", l_affinity},
    {"sandbox", l_sandbox},
    {"scratch", l_scratch},
    {"seed", l_seed},
    {"sleep", l_sleep},
    {"stat", l_stat},
    {"statfs", l_statfs},
    {"sync", l_sync},
    {"workload", pl_host_workload},
    {"write", l_write},
    {NULL, NULL},
};

/* Copy every field of the table on top into the table at index t, pop it. */
static void absorb(lua_State *L, int t)
{
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_settable(L, t);
    }
    lua_pop(L, 1);
}

int luaopen_platter_core(lua_State *L)
{
    pl_rng_process_reseed(pl_cfg.seed);
    output_metatable(L);
    luaL_newlib(L, core_funcs);
    int t = lua_gettop(L);
    luaopen_platter_file(L);
    absorb(L, t);
    luaopen_platter_stats(L);
    absorb(L, t);
    luaopen_platter_run(L);
    absorb(L, t);
    luaopen_platter_worker(L);
    absorb(L, t);
    luaopen_platter_hash(L);
    absorb(L, t);
    luaopen_platter_mpi(L);
    absorb(L, t);

    lua_pushliteral(L, PL_VERSION);
    lua_setfield(L, t, "version");
    lua_pushstring(L, pl_build_commit);
    lua_setfield(L, t, "_build_commit"); /* for the record only */
    lua_pushliteral(L, PL_PACKAGE_VERSION);
    lua_setfield(L, t, "_package_version"); /* for the record only */
    lua_pushstring(L, pl_host_lua_release());
    lua_setfield(L, t, "lua");
    lua_pushboolean(L, pl_cfg.quiet);
    lua_setfield(L, t, "quiet");
    lua_pushboolean(L, pl_cfg.trust);
    lua_setfield(L, t, "trusted");
    lua_pushboolean(L, pl_cfg.verbose);
    lua_setfield(L, t, "verbose");
    lua_pushboolean(L, PL_HAVE_URING);
    lua_setfield(L, t, "have_uring");
    lua_pushboolean(L, PL_HAVE_AIO);
    lua_setfield(L, t, "have_aio");

    /* p.config: a read-only view for scripts; platter's own code calls core._config() */
    push_config(L, 1);
    push_readonly(L, -1);
    lua_remove(L, -2);
    lua_setfield(L, t, "config");
    return 1;
}
