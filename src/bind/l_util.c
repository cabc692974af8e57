/*
 * Argument and result helpers shared by every binding (luaposix's _helpers
 * idea): offsets, sizes, the nil/msg/errno triple, the interrupt check.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "guard.h"
#include "l_util.h"
#include "units.h"
#include "hot.h"

/* pl_checkoffset when pl_tooffset did not take the value: an integer beyond 2^53
   (Lua 5.4), or an error */
uint64_t pl_checkoffset_slow(lua_State *L, int arg, const char *what)
{
    if (pl_isinteger(L, arg)) {
        lua_Integer v = lua_tointeger(L, arg);
        if (v < 0)
            luaL_argerror(L, arg, lua_pushfstring(L, "%s must not be negative", what));
        return (uint64_t)v;
    }
    lua_Number n = luaL_checknumber(L, arg);
    if (n < 0) /* the same message as the integer path, on every flavour */
        luaL_argerror(L, arg, lua_pushfstring(L, "%s must not be negative", what));
    if (!pl_isexact(n))
        luaL_argerror(L, arg, lua_pushfstring(L, "%s must be a non-negative integer", what));
    return (uint64_t)n;
}

int pl_nul_inside(lua_State *L, int idx, const char **why)
{
    size_t len;
    const char *s = lua_tolstring(L, idx, &len);
    if (!s || strlen(s) == len)
        return 0;
    *why = "a NUL byte follows it";
    return 1;
}

const char *pl_checkpath(lua_State *L, int arg)
{
    const char *path = luaL_checkstring(L, arg), *why;
    if (pl_nul_inside(L, arg, &why)) /* C would see only the part before it: another path */
        luaL_argerror(L, arg, "the path holds a NUL byte");
    return path;
}

uint64_t pl_checksize(lua_State *L, int arg)
{
    if (lua_type(L, arg) == LUA_TSTRING) {
        uint64_t v;
        const char *why;
        const char *s = lua_tostring(L, arg);
        if (pl_nul_inside(L, arg, &why) || pl_units_parse_size(s, &v, &why) < 0)
            luaL_argerror(L, arg, lua_pushfstring(L, "bad size '%s': %s", s, why));
        return v;
    }
    if (lua_type(L, arg) != LUA_TNUMBER)
        luaL_argerror(L, arg, lua_pushfstring(L, "size expected, got %s", luaL_typename(L, arg)));
    return pl_checkoffset(L, arg, "size");
}

int pl_pusherror(lua_State *L, const char *op, const char *path, int err, const char *extra)
{
    lua_pushnil(L);
    if (extra && *extra)
        lua_pushfstring(L, "%s %s: %s (%s)", op, path, strerror(err), extra);
    else
        lua_pushfstring(L, "%s %s: %s", op, path, strerror(err));
    lua_pushinteger(L, err);
    return 3;
}

uint64_t pl_scale_u64(lua_Number v, double scale)
{
    return pl_u64_clamp((double)v * scale);
}

PL_HOT void pl_checkintr(lua_State *L)
{
    if (pl_interrupted)
        luaL_error(L, "interrupted"); /* the host's stop hook stays set: it raises again */
}
