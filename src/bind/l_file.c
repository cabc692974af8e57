/*
 * The "platter.file" userdata and p.open: every I/O method calls the timed
 * core function and records the result into the active phases. Misuse
 * raises; OS failures return nil, "op path: strerror", errno.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "budget.h"
#include "cache.h"
#include "device.h"
#include "file.h"
#include "guard.h"
#include "io.h"
#include "host.h"
#include "l_util.h"
#include "l_file.h"
#include "l_open.h"
#include "progress.h"
#include "safety.h"
#include "target.h"
#include "units.h"
#include "zone.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "hot.h"

/*
 * The address of file_owner marks the userdata of a platter file (its owner
 * field), which no script can forge. Checking it with two C API calls costs a
 * fraction of luaL_checkudata's lookup of the metatable by name, and half of
 * comparing metatables; that matters on Lua 5.4, where every f:pread goes
 * through here.
 */
static const char file_owner;

PL_HOT static struct pl_file *checkfile(lua_State *L, int idx)
{
    struct pl_file *u = lua_touserdata(L, idx);
    /* the size first: a smaller userdata has no owner field to read */
    if (u != NULL && pl_rawlen(L, idx) == sizeof *u && u->owner == &file_owner)
        return u;
    /* the same message on both flavours (LuaJIT's own would say "userdata") */
    const char *got = luaL_typename(L, idx);
    if (lua_getmetatable(L, idx)) {
        lua_getfield(L, -1, "__name");
        if (lua_type(L, -1) == LUA_TSTRING)
            got = lua_tostring(L, -1);
    }
    luaL_argerror(L, idx, lua_pushfstring(L, PL_FILE_MT " expected, got %s", got));
    return NULL;
}

/* The open file at argument 1, for a call that does no I/O: it works even after Ctrl-C,
 * so a script can still put back what it changed (readahead) and close its files. */
PL_HOT static struct pl_file *tofile_any(lua_State *L)
{
    struct pl_file *f = checkfile(L, 1);
    if (f->fd < 0)
        luaL_error(L, "attempt to use a closed file");
    return f;
}

/* The open file at argument 1, for an I/O call: raises "interrupted" after Ctrl-C. */
PL_HOT static struct pl_file *tofile(lua_State *L)
{
    struct pl_file *f = tofile_any(L);
    pl_checkintr(L);
    return f;
}

static const char too_long[] = "length must be at most 1 GiB";

/*
 * The checks of an I/O call (pl_file_check_io, which the FFI path uses too),
 * raised as errors: the length at argument len_arg, then the O_DIRECT rule.
 */
PL_HOT static void check_io(lua_State *L, struct pl_file *f, const char *fn, int has_off,
                            uint64_t off, uint64_t len, int len_arg)
{
    enum pl_check c = pl_file_check_io(f, has_off, off, len);
    if (__builtin_expect(c == PL_CHECK_OK, 1))
        return;
    if (c == PL_CHECK_TOO_LONG)
        luaL_argerror(L, len_arg, too_long);
    /* %f prints 100 on LuaJIT but 100.0 on Lua 5.4: format the integers here */
    char num[32];
    int bad_off = c == PL_CHECK_OFFSET;
    snprintf(num, sizeof num, "%llu", (unsigned long long)(bad_off ? off : len));
    luaL_error(L,
               "%s: %s %s is not a multiple of %d: O_DIRECT on %s needs offsets and "
               "lengths aligned to %d bytes",
               fn, bad_off ? "offset" : "length", num, (int)f->align, f->path, (int)f->align);
}

/* nil, msg, errno of a failed I/O on f: the alignment rule, or the memory bound that
   refused its buffer, in the message */
static int io_error(lua_State *L, struct pl_file *f, const char *op, int err)
{
    char extra[256] = "";
    if (err == EINVAL && f->direct)
        snprintf(extra, sizeof extra, "O_DIRECT needs the position and length aligned to %u bytes",
                 f->align);
    else if (err == ENOMEM && pl_budget.refused)
        pl_budget_why("a buffer", extra, sizeof extra);
    return pl_pusherror(L, op, f->path ? f->path : "(closed)", err, extra);
}

/* Common tail of every transfer (io.c has counted it): bytes or nil,msg,errno. */
PL_HOT static int io_result(lua_State *L, struct pl_file *f, const char *op, int64_t r)
{
    if (r >= 0) {
        pl_pushu64(L, (uint64_t)r);
        return 1;
    }
    return io_error(L, f, op, (int)-r);
}

/* f:read(n) -> bytes read at the current position (short at end of file) */
PL_HOT static int l_file_read(lua_State *L)
{
    struct pl_file *f = tofile(L);
    uint64_t n = pl_checkoffset(L, 2, "length");
    check_io(L, f, "read", 0, 0, n, 2);
    return io_result(L, f, "read", pl_io_rw(f, PL_OP_READ, PL_AT_POS, 0, n, NULL));
}

/* f:reads(count, len) / f:writes(count, len) -> bytes: count read(2)/write(2)
   calls of len bytes each at the position, in C, as one timed operation */
static int repeat_calls(lua_State *L, enum pl_op op, const char *what)
{
    struct pl_file *f = tofile(L);
    uint64_t count = pl_checkoffset(L, 2, "count");
    uint64_t n = pl_checkoffset(L, 3, "length");
    luaL_argcheck(L, n >= 1, 3, "length must be at least 1");
    check_io(L, f, what, 0, 0, n, 3);
    return io_result(L, f, what, pl_io_repeat(f, op, count, n));
}

static int l_file_reads(lua_State *L)
{
    return repeat_calls(L, PL_OP_READ, "read");
}

static int l_file_writes(lua_State *L)
{
    return repeat_calls(L, PL_OP_WRITE, "write");
}

/* f:rewrites(count, len) -> bytes, longest ns: count times read len bytes at the
   position, seek back and write them again (bonnie++'s Rewriting), in C */
static int l_file_rewrites(lua_State *L)
{
    struct pl_file *f = tofile(L);
    uint64_t count = pl_checkoffset(L, 2, "count");
    uint64_t n = pl_checkoffset(L, 3, "length");
    luaL_argcheck(L, n >= 1, 3, "length must be at least 1");
    check_io(L, f, "rewrite", 0, 0, n, 3);
    uint64_t longest;
    const char *failed;
    int64_t r = pl_io_rewrite(f, count, n, &longest, &failed);
    pl_checkintr(L); /* a run cut short by Ctrl-C raises "interrupted", as a step would */
    if (r < 0)
        return io_result(L, f, failed, r);
    pl_pushu64(L, (uint64_t)r);
    pl_pushu64(L, longest);
    return 2;
}

/*
 * The optional source at argument arg: another file whose buffer holds the
 * bytes (what its last read brought in), from byte *src_off (argument arg+1,
 * default 0) of that buffer; NULL when the argument is nil.
 */
static struct pl_file *source_file(lua_State *L, int arg, size_t n, uint64_t *src_off)
{
    *src_off = 0;
    if (lua_isnoneornil(L, arg))
        return NULL;
    struct pl_file *src = checkfile(L, arg);
    *src_off = pl_optoffset(L, arg + 1, "source offset", 0);
    if (src->fd < 0)
        luaL_argerror(L, arg, "the source file is closed");
    if (!src->buf || *src_off + n > src->buflen)
        luaL_argerror(L, arg,
                      lua_pushfstring(L, "the source buffer holds %d bytes, not %d",
                                      (int)src->buflen, (int)(*src_off + n)));
    return src;
}

/* The bytes a write with a source sends (NULL: f's own buffer). */
static const void *write_source(lua_State *L, struct pl_file *f, int arg, size_t n)
{
    uint64_t off;
    struct pl_file *src = source_file(L, arg, n, &off);
    if (!src)
        return NULL;
    if (f->direct && off % f->mem_align)
        luaL_argerror(L, arg + 1, "O_DIRECT needs the source offset aligned to the buffer");
    return (const char *)src->buf + off;
}

/* f:write(n [, src [, src_off]]) -> bytes written at the current position; with src,
 * the bytes come from that file's buffer (what it last read) instead of f's own */
PL_HOT static int l_file_write(lua_State *L)
{
    struct pl_file *f = tofile(L);
    uint64_t n = pl_checkoffset(L, 2, "length");
    check_io(L, f, "write", 0, 0, n, 2);
    const void *src = write_source(L, f, 3, (size_t)n);
    return io_result(L, f, "write", pl_io_rw(f, PL_OP_WRITE, PL_AT_POS, 0, n, src));
}

/*
 * f:stage(off, src, src_off, n) -> true: copy n bytes of src's buffer (what its
 * last read brought in, from src_off) into f's own buffer at off, or n zero
 * bytes when src is nil. Not timed, no I/O. f's buffer grows as needed and
 * keeps what it held, so records can be gathered into one block and written
 * with f:write(n, f) (dd's ibs/obs re-blocking).
 */
static int l_file_stage(lua_State *L)
{
    struct pl_file *f = tofile_any(L);
    uint64_t off = pl_checkoffset(L, 2, "offset");
    uint64_t n = pl_checkoffset(L, 5, "length");
    if (n > PL_IO_MAX)
        luaL_argerror(L, 5, too_long);
    uint64_t src_off;
    struct pl_file *src = source_file(L, 3, (size_t)n, &src_off);
    if (off + n > PL_IO_MAX)
        luaL_argerror(L, 2, "the buffer can hold at most 1 GiB");
    int rc = pl_file_stage(f, off, src, src_off, n);
    if (rc < 0)
        return io_error(L, f, "stage", -rc);
    lua_pushboolean(L, 1);
    return 1;
}

/* f:pread(off, n) -> bytes read at off */
PL_HOT static int l_file_pread(lua_State *L)
{
    struct pl_file *f = tofile(L);
    uint64_t off = pl_checkoffset(L, 2, "offset");
    uint64_t n = pl_checkoffset(L, 3, "length");
    check_io(L, f, "pread", 1, off, n, 3);
    return io_result(L, f, "pread", pl_io_rw(f, PL_OP_READ, PL_AT_OFFSET, off, n, NULL));
}

/* f:pwrite(off, n [, src [, src_off]]) -> bytes written at off (src: as f:write) */
PL_HOT static int l_file_pwrite(lua_State *L)
{
    struct pl_file *f = tofile(L);
    uint64_t off = pl_checkoffset(L, 2, "offset");
    uint64_t n = pl_checkoffset(L, 3, "length");
    check_io(L, f, "pwrite", 1, off, n, 3);
    const void *src = write_source(L, f, 4, (size_t)n);
    return io_result(L, f, "pwrite", pl_io_rw(f, PL_OP_WRITE, PL_AT_OFFSET, off, n, src));
}

/* f:truncate(size) -> true | nil, msg, errno */
static int l_file_truncate(lua_State *L)
{
    struct pl_file *f = tofile_any(L);
    uint64_t size = pl_checkoffset(L, 2, "size");
    int rc = pl_file_truncate(f, size);
    if (rc < 0)
        return pl_pusherror(L, "truncate", f->path, -rc, NULL);
    lua_pushboolean(L, 1);
    return 1;
}

/*
 * n putc() or getc() calls, timed as one operation (io.c runs them in chunks on
 * a real file, so that the progress line can show characters per second).
 */
static int chars(lua_State *L, const char *op, enum pl_op dir)
{
    struct pl_file *f = tofile(L);
    uint64_t n = pl_checkoffset(L, 2, "count");
    if (f->direct)
        luaL_error(L, "%s: per-character stdio I/O is not possible on an O_DIRECT file", op);
    return io_result(L, f, op, pl_io_chars(f, dir, n));
}

/* f:putc(n) -> characters written with n putc() calls, timed as one operation */
static int l_file_putc(lua_State *L)
{
    return chars(L, "putc", PL_OP_WRITE);
}

/* f:getc(n) -> characters read with n getc() calls (fewer at end of file) */
static int l_file_getc(lua_State *L)
{
    return chars(L, "getc", PL_OP_READ);
}

static int sync_result(lua_State *L, struct pl_file *f, const char *op, int rc)
{
    if (rc == 0) {
        lua_pushboolean(L, 1);
        return 1;
    }
    return pl_pusherror(L, op, f->path, -rc, NULL);
}

/* f:fsync() -> true | nil, msg, errno (timed) */
static int l_file_fsync(lua_State *L)
{
    struct pl_file *f = tofile(L);
    return sync_result(L, f, "fsync", pl_io_sync(f, 0));
}

/* f:fdatasync() -> true | nil, msg, errno (timed) */
static int l_file_fdatasync(lua_State *L)
{
    struct pl_file *f = tofile(L);
    return sync_result(L, f, "fdatasync", pl_io_sync(f, 1));
}

/* f:seek([off [, whence]]) -> new position; whence "set" (default), "cur", "end" */
static int l_file_seek(lua_State *L)
{
    static const char *const names[] = {"set", "cur", "end", NULL};
    static const int modes[] = {SEEK_SET, SEEK_CUR, SEEK_END};
    struct pl_file *f = tofile(L);
    int64_t off;
    if (lua_isnoneornil(L, 2)) {
        off = 0;
    } else {
        lua_Number n = luaL_checknumber(L, 2);
        /* the range first: casting 1e300 or NaN to an integer is undefined */
        if (!(n <= PL_MAX_EXACT && n >= -PL_MAX_EXACT) || n != (lua_Number)(int64_t)n)
            luaL_argerror(L, 2, "offset must be an integer");
        off = (int64_t)n;
    }
    int w = modes[luaL_checkoption(L, 3, "set", names)];
    if (w == SEEK_SET && off < 0)
        luaL_argerror(L, 2, "offset must not be negative");
    if (lua_isnoneornil(L, 2) && lua_isnoneornil(L, 3))
        w = SEEK_CUR; /* f:seek() tells the position, as file:seek() does */
    int64_t r = pl_file_seek(f, off, w);
    if (r < 0)
        return pl_pusherror(L, "seek", f->path, (int)-r, NULL);
    pl_pushu64(L, (uint64_t)r);
    return 1;
}

/* f:size() -> bytes */
static int l_file_size(lua_State *L)
{
    struct pl_file *f = tofile_any(L);
    int64_t s = pl_file_size(f);
    if (s < 0)
        return pl_pusherror(L, "size", f->path, (int)-s, NULL);
    pl_pushu64(L, (uint64_t)s);
    return 1;
}

static int error_result(lua_State *L, const struct pl_error *e, const char *path)
{
    return pl_pusherror(L, e->op ? e->op : "?", path, e->err, e->msg);
}

/*
 * The buffered files closed while a phase runs, for the cache watch's look at
 * the phase's end (platter.cachewatch): their paths in order, in the registry's
 * "platter.closed" (emptied when an outermost p.phase starts, at most
 * PL_CLOSED_MAX). Nothing is measured here, inside the phase's time.
 */
#define PL_CLOSED_MAX 4096

static void note_closed(lua_State *L, const struct pl_file *f)
{
    if (f->fd < 0 || f->direct || !f->path || pl_io_phase_count() == 0)
        return;
    lua_getfield(L, LUA_REGISTRYINDEX, "platter.closed");
    if (lua_istable(L, -1)) {
        size_t n = pl_rawlen(L, -1);
        if (n < PL_CLOSED_MAX) {
            lua_pushstring(L, f->path);
            lua_rawseti(L, -2, (int)n + 1);
        }
    }
    lua_pop(L, 1);
}

void pl_closed_reset(lua_State *L)
{
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, "platter.closed");
}

/* core._closed_files() -> the paths of the buffered files closed since the
   outermost p.phase started (the table itself: read it, do not keep it) */
static int l_closed_files(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, "platter.closed");
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        pl_closed_reset(L);
        lua_getfield(L, LUA_REGISTRYINDEX, "platter.closed");
    }
    return 1;
}

/* core._resident_path(path) -> resident pages, total pages, size | nil, msg: the
   page-cache residency of a file by its path (opened read-only, buffered, for
   the look only) */
static int l_resident_path(lua_State *L)
{
    const char *path = pl_checkpath(L, 1);
    struct pl_open_opts o = {0};
    struct pl_file f;
    struct pl_error e = {0};
    if (pl_file_open(&f, path, &o, &e) < 0)
        return error_result(L, &e, path);
    uint64_t res = 0, total = 0;
    int rc = f.target->resident(&f, 0, 0, &res, &total, &e);
    int64_t size = pl_file_size(&f);
    pl_file_close(&f);
    if (rc < 0)
        return error_result(L, &e, path);
    pl_pushu64(L, res);
    pl_pushu64(L, total);
    pl_pushu64(L, size < 0 ? 0 : (uint64_t)size);
    return 3;
}

/* f:close() -> true | nil, msg, errno */
static int l_file_close(lua_State *L)
{
    struct pl_file *f = tofile_any(L);
    note_closed(L, f);
    char path[512];
    snprintf(path, sizeof path, "%s", f->path);
    int rc = pl_file_close(f);
    if (rc < 0)
        return pl_pusherror(L, "close", path, -rc, NULL);
    lua_pushboolean(L, 1);
    return 1;
}

/* f:drop_cache() -> true | nil, msg, errno */
static int l_file_drop_cache(lua_State *L)
{
    struct pl_file *f = tofile_any(L);
    struct pl_error e = {0};
    if (f->target->drop(f, &e) < 0)
        return error_result(L, &e, f->path);
    lua_pushboolean(L, 1);
    return 1;
}

/* f:resident([off [, len]]) -> resident pages, total pages */
static int l_file_resident(lua_State *L)
{
    struct pl_file *f = tofile_any(L);
    uint64_t off = pl_optoffset(L, 2, "offset", 0);
    uint64_t len = pl_optoffset(L, 3, "length", 0);
    uint64_t res = 0, total = 0;
    struct pl_error e = {0};
    if (f->target->resident(f, off, len, &res, &total, &e) < 0)
        return error_result(L, &e, f->path);
    pl_pushu64(L, res);
    pl_pushu64(L, total);
    return 2;
}

/* f:readahead([kb]) -> readahead in KiB (after setting it, when kb is given) */
static int l_file_readahead(lua_State *L)
{
    struct pl_file *f = tofile_any(L);
    int64_t set = -1;
    if (!lua_isnoneornil(L, 2))
        set = (int64_t)pl_checkoffset(L, 2, "readahead");
    struct pl_error e = {0};
    int64_t kb = f->target->readahead(f, set, &e);
    if (kb < 0)
        return error_result(L, &e, f->path);
    pl_pushu64(L, (uint64_t)kb);
    return 1;
}

/* f:advise(kind [, off [, len]]) -> true | nil, msg, errno; kind "normal" |
   "sequential" | ...; over the whole file, or [off, off + len) (len 0 or nil:
   to the end) */
static int l_file_advise(lua_State *L)
{
    static const char *const names[] = {"normal",   "sequential", "random",
                                        "willneed", "dontneed",   NULL};
    static const enum pl_advice adv[] = {PL_ADV_NORMAL, PL_ADV_SEQUENTIAL, PL_ADV_RANDOM,
                                         PL_ADV_WILLNEED, PL_ADV_DONTNEED};
    struct pl_file *f = tofile_any(L);
    enum pl_advice a = adv[luaL_checkoption(L, 2, NULL, names)];
    uint64_t off = pl_optoffset(L, 3, "offset", 0);
    uint64_t len = pl_optoffset(L, 4, "length", 0);
    struct pl_error e = {0};
    if (f->target->advise(f, (int)a, off, len, &e) < 0)
        return error_result(L, &e, f->path);
    if (off == 0 && len == 0 && a <= PL_ADV_RANDOM)
        f->access = (int)a; /* an access pattern for the whole file: kept for mmap */
    lua_pushboolean(L, 1);
    return 1;
}

/* f:fill(kind [, seed]) -> f; kind "zero" | "random": what writes carry from now
   on; a seed gives the random bytes of that seed (else the file's own) */
static int l_file_fill(lua_State *L)
{
    static const char *const names[] = {"zero", "random", NULL};
    struct pl_file *f = tofile_any(L);
    int random = luaL_checkoption(L, 2, NULL, names);
    if (!lua_isnoneornil(L, 3)) /* checked before anything changes */
        f->seed = pl_checkoffset(L, 3, "seed");
    pl_file_set_fill(f, random ? PL_FILL_RANDOM : PL_FILL_ZERO);
    lua_settop(L, 1);
    return 1;
}

/*
 * f:evict(n [, cache [, line]]) -> f: iozone -p's purgeit(): read one byte of
 * each line (32 bytes) of a separate buffer, min(n, cache (1 MiB)) bytes of it,
 * from where it maps to the same cache sets as f's buffer, so that what the
 * CPU cache held of f's buffer is pushed out. No I/O; a phase's time includes
 * it, as iozone's does (it runs before every record inside the timing).
 */
static int l_file_evict(lua_State *L)
{
    static unsigned char *pbuf;
    static size_t pcache;
    struct pl_file *f = tofile_any(L);
    uint64_t n = pl_checkoffset(L, 2, "length");
    uint64_t cache = pl_optoffset(L, 3, "cache size", 1u << 20);
    uint64_t line = pl_optoffset(L, 4, "line size", 32);
    luaL_argcheck(L, cache >= 64 && (cache & (cache - 1)) == 0 && cache <= (1u << 30), 3,
                  "the cache size must be a power of 2 from 64 bytes to 1 GiB");
    luaL_argcheck(L, line >= 1 && line <= cache, 4,
                  "the line size must be from 1 to the cache size");
    if (pcache != cache) {
        free(pbuf);
        pbuf = NULL;
        if (posix_memalign((void **)&pbuf, (size_t)cache, (size_t)(2 * cache)) != 0)
            return luaL_error(L, "evict: not enough memory");
        memset(pbuf, 0, (size_t)(2 * cache));
        pcache = (size_t)cache;
    }
    volatile unsigned char *where = pbuf + ((uintptr_t)f->buf & (cache - 1));
    uint64_t lines = (n < cache ? n : cache) / line;
    unsigned char x = 0;
    for (uint64_t i = 0; i < lines; i++, where += line)
        x ^= *where;
    (void)x;
    lua_settop(L, 1);
    return 1;
}

/* f:touch(n [, stride]) -> f: read-modify-write one byte of every stride (512)
   of the first n bytes of f's buffer, in C (hdparm's check that a read fully
   completed, which -T and -t time with the read) */
static int l_file_touch(lua_State *L)
{
    struct pl_file *f = tofile_any(L);
    uint64_t n = pl_checkoffset(L, 2, "length");
    uint64_t stride = pl_optoffset(L, 3, "stride", 512);
    luaL_argcheck(L, stride > 0, 3, "stride must be at least 1");
    volatile unsigned char *b = f->buf;
    if (n > f->buflen)
        n = f->buflen;
    for (uint64_t i = 0; i < n; i += stride)
        b[i] &= 1;
    lua_settop(L, 1);
    return 1;
}

static void setstr(lua_State *L, const char *k, const char *v)
{
    if (v && *v) {
        lua_pushstring(L, v);
        lua_setfield(L, -2, k);
    }
}

static void setnum(lua_State *L, const char *k, uint64_t v)
{
    pl_pushu64(L, v);
    lua_setfield(L, -2, k);
}

/* f:info() -> table of device and filesystem facts (absent facts are nil) */
static int l_file_info(lua_State *L)
{
    struct pl_file *f = tofile_any(L);
    struct pl_devinfo d;
    int rc = 0;
    rc = f->target->info(f, &d);
    if (rc < 0)
        return pl_pusherror(L, "info", f->path, -rc, NULL);
    lua_newtable(L);
    setstr(L, "path", f->path);
    setstr(L, "kind", d.kind);
    setnum(L, "size", d.size);
    if (d.logical_block)
        setnum(L, "logical_block", d.logical_block);
    if (d.physical_block)
        setnum(L, "physical_block", d.physical_block);
    setnum(L, "dio_align",
           f->direct ? f->align
                     : (d.dio_offset_align ? d.dio_offset_align
                                           : (d.logical_block ? d.logical_block : 512)));
    if (d.dio_mem_align)
        setnum(L, "dio_mem_align", d.dio_mem_align);
    if (d.rotational >= 0) {
        lua_pushboolean(L, d.rotational);
        lua_setfield(L, -2, "rotational");
    }
    if (d.read_ahead_kb >= 0)
        setnum(L, "read_ahead_kb", (uint64_t)d.read_ahead_kb);
    setstr(L, "device", d.device);
    setstr(L, "model", d.model);
    setstr(L, "scheduler", d.scheduler);
    setstr(L, "write_cache", d.write_cache);
    setstr(L, "fs_type", d.fs_type);
    setstr(L, "mount_point", d.mount_point);
    setstr(L, "mount_options", d.mount_options);
    if (d.fs_size)
        setnum(L, "fs_size", d.fs_size);
    setstr(L, "zoned", d.zoned);
    if (d.zone_size)
        setnum(L, "zone_size", d.zone_size);
    if (d.nr_zones)
        setnum(L, "nr_zones", d.nr_zones);
    if (d.zone_size) { /* 0: no limit */
        setnum(L, "max_open_zones", d.max_open_zones);
        setnum(L, "max_active_zones", d.max_active_zones);
    }
    lua_pushboolean(L, f->direct);
    lua_setfield(L, -2, "direct");
    return 1;
}

/* A zone call's failure: nil, "op path: strerror (why)", errno; ENOTTY says what it means. */
static int zone_error(lua_State *L, struct pl_file *f, const char *op, int err)
{
    return pl_pusherror(L, op, f->path, err, err == ENOTTY ? "not a zoned block device" : NULL);
}

#define ZONE_BATCH 256u

/* f:zones([from [, count]]) -> list of zones from the one holding byte from (0), at
   most count (all) | nil, msg, errno; each {start, len, capacity, wp, type, cond} */
static int l_file_zones(lua_State *L)
{
    struct pl_file *f = tofile_any(L);
    uint64_t from = pl_optoffset(L, 2, "offset", 0);
    uint64_t count = lua_isnoneornil(L, 3) ? UINT64_MAX : pl_checkoffset(L, 3, "count");
    if (!f->target->zones)
        return zone_error(L, f, "zones", ENOTTY);
    struct pl_zone z[ZONE_BATCH];
    struct pl_error e = {0};
    lua_newtable(L);
    uint64_t n = 0;
    while (n < count) {
        unsigned want = count - n < ZONE_BATCH ? (unsigned)(count - n) : ZONE_BATCH;
        int got = f->target->zones(f, from, z, want, &e);
        if (got < 0)
            return zone_error(L, f, "zones", -got);
        for (int i = 0; i < got; i++) {
            lua_newtable(L);
            setnum(L, "start", z[i].start);
            setnum(L, "len", z[i].len);
            setnum(L, "capacity", z[i].capacity);
            if (z[i].type != PL_ZONE_CONVENTIONAL)
                setnum(L, "wp", z[i].wp);
            setstr(L, "type", pl_zone_type_name(z[i].type));
            setstr(L, "cond", pl_zone_cond_name(z[i].cond));
            lua_rawseti(L, -2, (int)++n);
        }
        if ((unsigned)got < want || got == 0)
            break;
        from = z[got - 1].start + z[got - 1].len;
    }
    return 1;
}

/* f:zone_reset / zone_open / zone_close / zone_finish(start [, len]) -> true |
   nil, msg, errno: the zones of [start, start + len) (len: the zone at start) */
static int zone_op(lua_State *L, enum pl_zone_op op)
{
    static const char *const names[] = {"zone_reset", "zone_open", "zone_close", "zone_finish"};
    struct pl_file *f = tofile(L);
    uint64_t start = pl_checkoffset(L, 2, "offset");
    uint64_t len = pl_optoffset(L, 3, "length", 0);
    luaL_argcheck(L, lua_isnoneornil(L, 3) || len > 0, 3, "length must be at least 1");
    if (!f->target->zone_op)
        return zone_error(L, f, names[op], ENOTTY);
    struct pl_error e = {0};
    int rc = f->target->zone_op(f, (int)op, start, len, &e);
    if (rc < 0)
        return zone_error(L, f, names[op], -rc);
    lua_pushboolean(L, 1);
    return 1;
}

static int l_file_zone_reset(lua_State *L)
{
    return zone_op(L, PL_ZONE_RESET);
}

static int l_file_zone_open(lua_State *L)
{
    return zone_op(L, PL_ZONE_OPEN);
}

static int l_file_zone_close(lua_State *L)
{
    return zone_op(L, PL_ZONE_CLOSE);
}

static int l_file_zone_finish(lua_State *L)
{
    return zone_op(L, PL_ZONE_FINISH);
}

static int l_file__gc(lua_State *L)
{
    struct pl_file *f = luaL_checkudata(L, 1, PL_FILE_MT);
    if (f->fd >= 0 || f->buf || f->path)
        pl_file_close(f);
    return 0;
}

static int l_file__tostring(lua_State *L)
{
    struct pl_file *f = luaL_checkudata(L, 1, PL_FILE_MT);
    if (f->fd < 0)
        lua_pushliteral(L, "platter.file (closed)");
    else
        lua_pushfstring(L, "platter.file (%s%s)", f->path, f->direct ? ", direct" : "");
    return 1;
}

static int optbool(lua_State *L, int t, const char *k)
{
    lua_getfield(L, t, k);
    int v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

/* Refuse misspelt options instead of silently ignoring them. */
static void check_open_keys(lua_State *L, int t)
{
    static const char *const known[] = {"allocate", "create", "direct", "dsync", "fill", "seed",
                                        "size",     "sparse", "sync",   "write", NULL};
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        int ok = 0;
        if (lua_type(L, -1) == LUA_TSTRING)
            for (int i = 0; known[i]; i++)
                ok |= strcmp(lua_tostring(L, -1), known[i]) == 0;
        if (!ok)
            luaL_argerror(L, 2,
                          lua_pushfstring(L, "unknown option '%s'",
                                          lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1)
                                                                         : luaL_typename(L, -1)));
    }
}

/* A bad option value: the error names argument #2 and the option on every flavour
 * (not the stack slot the value happens to sit in). */
static void opt_error(lua_State *L, const char *k, const char *msg)
{
    luaL_argerror(L, 2, lua_pushfstring(L, "option '%s': %s", k, msg));
}

/* The option value on top of the stack: a non-negative integer (< 2^53), or with
 * sizes a string such as "64k". */
static uint64_t opt_u64(lua_State *L, const char *k, int size)
{
    if (size && lua_type(L, -1) == LUA_TSTRING) {
        uint64_t v;
        const char *why, *s = lua_tostring(L, -1);
        if (pl_nul_inside(L, -1, &why) || pl_units_parse_size(s, &v, &why) < 0)
            opt_error(L, k, lua_pushfstring(L, "bad size '%s': %s", s, why));
        return v;
    }
    if (lua_type(L, -1) != LUA_TNUMBER)
        opt_error(L, k,
                  lua_pushfstring(L, "%s expected, got %s", size ? "size" : "number",
                                  luaL_typename(L, -1)));
    lua_Number n = lua_tonumber(L, -1);
    if (n < 0)
        opt_error(L, k, "must not be negative");
    if (!pl_isexact(n))
        opt_error(L, k, "must be a non-negative integer");
    return (uint64_t)n;
}

/* The `allocate` option (how `size` reserves the space it adds): PL_ALLOC_NONE when absent. */
static enum pl_alloc opt_alloc(lua_State *L)
{
    static const char *const names[] = {"none", "fallocate", "posix", "keep", "truncate", NULL};
    lua_getfield(L, 2, "allocate");
    enum pl_alloc a = PL_ALLOC_NONE;
    if (!lua_isnil(L, -1)) {
        const char *v = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        int i = 0;
        while (v && names[i] && strcmp(v, names[i]) != 0)
            i++;
        if (!v || !names[i])
            opt_error(L, "allocate",
                      v ? lua_pushfstring(L,
                                          "invalid value '%s' (expected \"none\", \"fallocate\", "
                                          "\"posix\", \"keep\" or \"truncate\")",
                                          v)
                        : lua_pushfstring(L, "string expected, got %s", luaL_typename(L, -1)));
        a = (enum pl_alloc)i;
    }
    lua_pop(L, 1);
    return a;
}

/* p.open(path [, opts]) -> file | nil, msg, errno */
static int l_open(lua_State *L)
{
    const char *path = pl_checkpath(L, 1);
    struct pl_open_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        check_open_keys(L, 2);
        o.direct = optbool(L, 2, "direct");
        o.write = optbool(L, 2, "write");
        o.create = optbool(L, 2, "create");
        o.sync = optbool(L, 2, "sync");
        o.dsync = optbool(L, 2, "dsync");
        o.sparse = optbool(L, 2, "sparse");
        lua_getfield(L, 2, "size");
        if (!lua_isnil(L, -1))
            o.size = opt_u64(L, "size", 1);
        lua_pop(L, 1);
        lua_getfield(L, 2, "fill");
        if (!lua_isnil(L, -1)) {
            const char *v = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
            if (!v || (strcmp(v, "zero") != 0 && strcmp(v, "random") != 0))
                opt_error(L, "fill",
                          v ? lua_pushfstring(L,
                                              "invalid value '%s' (expected "
                                              "\"zero\" or \"random\")",
                                              v)
                            : lua_pushfstring(L, "string expected, got %s", luaL_typename(L, -1)));
            o.fill = strcmp(v, "random") == 0 ? PL_FILL_RANDOM : PL_FILL_ZERO;
        }
        lua_pop(L, 1);
        lua_getfield(L, 2, "seed");
        if (!lua_isnil(L, -1))
            o.seed = opt_u64(L, "seed", 0);
        lua_pop(L, 1);
        o.alloc = opt_alloc(L);
    }
    pl_checkintr(L);
    o.destroy = pl_cfg.destroy;

    struct pl_file *f = lua_newuserdata(L, sizeof *f); /* closed until open succeeds */
    memset(f, 0, sizeof *f);
    f->owner = &file_owner; /* __gc may see it before pl_file_open fills it */
    f->fd = -1;
    luaL_getmetatable(L, PL_FILE_MT);
    lua_setmetatable(L, -2);

    struct pl_error e = {0};
    int rc = pl_file_open(f, path, &o, &e); /* the sandbox and destroy rules live there */
    f->owner = &file_owner;                 /* after pl_file_open, which clears the struct */
    if (rc == PL_FS_REFUSED)
        return luaL_error(L, "open: %s", e.msg);
    if (rc < 0)
        return error_result(L, &e, path);
    lua_getfield(L, LUA_REGISTRYINDEX, "platter.files"); /* files the FFI path may take */
    lua_pushvalue(L, -2);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    return 1;
}

static const luaL_Reg file_methods[] = {
    {"advise", l_file_advise},
    {"close", l_file_close},
    {"drop_cache", l_file_drop_cache},
    {"fdatasync", l_file_fdatasync},
    {"fill", l_file_fill},
    {"fsync", l_file_fsync},
    {"getc", l_file_getc},
    {"info", l_file_info},
    {"pread", l_file_pread},
    {"putc", l_file_putc},
    {"pwrite", l_file_pwrite},
    {"read", l_file_read},
    {"reads", l_file_reads},
    {"readahead", l_file_readahead},
    {"resident", l_file_resident},
    {"seek", l_file_seek},
    {"size", l_file_size},
    {"evict", l_file_evict},
    {"stage", l_file_stage},
    {"touch", l_file_touch},
    {"truncate", l_file_truncate},
    {"write", l_file_write},
    {"writes", l_file_writes},
    {"rewrites", l_file_rewrites},
    {"zone_close", l_file_zone_close},
    {"zone_finish", l_file_zone_finish},
    {"zone_open", l_file_zone_open},
    {"zone_reset", l_file_zone_reset},
    {"zones", l_file_zones},
    {NULL, NULL},
};

static const luaL_Reg file_meta[] = {
    {"__gc", l_file__gc},
    {"__tostring", l_file__tostring},
    {NULL, NULL},
};

/* p._ioerror(f, op, errno) -> nil, msg, errno: the message of an I/O failure that the
 * FFI fast path already recorded (used by lua/platter/init.lua only) */
static int l_ioerror(lua_State *L)
{
    struct pl_file *f = luaL_checkudata(L, 1, PL_FILE_MT);
    const char *op = luaL_checkstring(L, 2);
    return io_error(L, f, op, (int)luaL_checkinteger(L, 3));
}

static const luaL_Reg file_funcs[] = {
    {"_closed_files", l_closed_files},
    {"_ioerror", l_ioerror},
    {"_resident_path", l_resident_path},
    {"open", l_open},
    {NULL, NULL},
};

int luaopen_platter_file(lua_State *L)
{
    luaL_newmetatable(L, PL_FILE_MT);
    luaL_setfuncs(L, file_meta, 0);
    luaL_newlib(L, file_methods);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "__index");
    lua_pushliteral(L, PL_FILE_MT);
    lua_setfield(L, -3, "__name");
    lua_pushliteral(L, PL_FILE_MT); /* getmetatable(f): a name, not the methods the writer uses */
    lua_setfield(L, -3, "__metatable");
    luaL_newlib(L, file_funcs);
    lua_insert(L, -2);
    lua_setfield(L, -2, "_file_methods"); /* fast.lua may put fast paths in front */
    lua_remove(L, -2);
    lua_newtable(L); /* weak set of every file p.open made: the FFI path checks it */
    lua_newtable(L);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, "platter.files");
    lua_setfield(L, -2, "_files");
    return 1;
}
