/*
 * Helpers shared by the bindings (l_util.c): argument checks that give the
 * same message on LuaJIT and Lua 5.4, the nil/msg/errno return and the
 * interrupt check. The phases are l_stats.h's; the modules' entry points are
 * l_open.h's.
 */
#ifndef PLATTER_BIND_L_UTIL_H
#define PLATTER_BIND_L_UTIL_H

#include <stdint.h>

#include "compat.h"

#define PL_MAX_EXACT 9007199254740992.0 /* 2^53: the integers below it are exact doubles */

/* v is an integer in 0 .. 2^53 (exact as a double, safe to cast) */
static inline int pl_isexact(lua_Number v)
{
    return v >= 0 && v < PL_MAX_EXACT && v == (lua_Number)(int64_t)v;
}

/* v as a process exit status if it is an integer within 0..255, else -1 (p.exit
   refuses the rest; a forged request in an error exits 1) */
static inline int pl_exit_code(lua_Number v)
{
    return v >= 0 && v <= 255 && v == (lua_Number)(int)v ? (int)v : -1;
}

/* The value at arg if it is an integer in [0, 2^53) (a numeric string too), with
   one C API call: 1 and *out, else 0. Inline, because a Lua 5.4 loop of f:pread
   converts five arguments per step. LuaJIT's lua_tointegerx truncates 4096.5,
   so there the double is checked. */
static inline int pl_tooffset(lua_State *L, int arg, uint64_t *out)
{
    int isnum = 0;
#if LUA_VERSION_NUM >= 503
    lua_Integer v = lua_tointegerx(L, arg, &isnum);
    if (__builtin_expect(isnum && (lua_Unsigned)v < ((lua_Unsigned)1 << 53), 1)) {
#else
    lua_Number v = lua_tonumberx(L, arg, &isnum);
    if (isnum && pl_isexact(v)) {
#endif
        *out = (uint64_t)v;
        return 1;
    }
    return 0;
}

/* Integral, non-negative, exactly representable (< 2^53) number at arg; else raises
   an error that names what, the same on both flavours (pl_checkoffset_slow). */
uint64_t pl_checkoffset_slow(lua_State *L, int arg, const char *what);
static inline uint64_t pl_checkoffset(lua_State *L, int arg, const char *what)
{
    uint64_t v;
    return pl_tooffset(L, arg, &v) ? v : pl_checkoffset_slow(L, arg, what);
}
/* The same, or def when arg is none or nil. */
static inline uint64_t pl_optoffset(lua_State *L, int arg, const char *what, uint64_t def)
{
    uint64_t v;
    if (pl_tooffset(L, arg, &v))
        return v;
    return lua_isnoneornil(L, arg) ? def : pl_checkoffset_slow(L, arg, what);
}
/* The string at idx holds a NUL byte before its end, which C would not see: 1 and
   *why = "a NUL byte follows it" (for a message that quotes the part before), else 0.
   For the strings platter parses (sizes, durations); paths refuse one themselves. */
int pl_nul_inside(lua_State *L, int idx, const char **why);
/* A size: a number, or a string such as "4k" / "1g". */
uint64_t pl_checksize(lua_State *L, int arg);
/* The path at arg: a string without a NUL byte inside (else an argument error). */
const char *pl_checkpath(lua_State *L, int arg);
/* Push a count or byte total as an integer where the flavour has them. Inline: p.random
   and the generator loop push one a step. */
static inline void pl_pushu64(lua_State *L, uint64_t v)
{
#if LUA_VERSION_NUM >= 503
    if (v <= (uint64_t)LUA_MAXINTEGER) {
        lua_pushinteger(L, (lua_Integer)v);
        return;
    }
#endif
    lua_pushnumber(L, (lua_Number)v);
}
/* Return nil, "op path: strerror[ (extra)]", errno. Always returns 3. */
int pl_pusherror(lua_State *L, const char *op, const char *path, int err, const char *extra);
/* Raise "interrupted" if a signal asked us to stop. */
void pl_checkintr(lua_State *L);
/* v * scale as a count of ns (or us...): 0 for v <= 0 or NaN, at most 2^62 (146 years
   of ns), so that absurd values from a script neither overflow nor cast out of range. */
uint64_t pl_scale_u64(lua_Number v, double scale);
/* The descriptor of the p.output_file writer at idx, or -1 (not one, or closed); in
   l_platter.c, which owns the writers. */
int pl_output_fd(lua_State *L, int idx);

#endif
