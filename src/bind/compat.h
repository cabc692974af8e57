/*
 * The differences between LuaJIT 2.1 (Lua 5.1 API plus 5.2 extras) and
 * PUC Lua 5.4 that platter needs, and nothing else.
 */
#ifndef PLATTER_BIND_COMPAT_H
#define PLATTER_BIND_COMPAT_H

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#if LUA_VERSION_NUM >= 502
#define pl_rawlen(L, i) lua_rawlen(L, (i))
#else
#define pl_rawlen(L, i) lua_objlen(L, (i))
#endif

#if LUA_VERSION_NUM >= 503
#define pl_isinteger(L, i) lua_isinteger(L, (i))
#else
#define pl_isinteger(L, i) 0
#endif

/* Set the environment (globals) of the function at the top of the stack to
 * the table just below it, popping the table. Main chunks only on 5.2+. */
static inline void pl_setchunkenv(lua_State *L)
{
#if LUA_VERSION_NUM >= 502
    if (!lua_setupvalue(L, -2, 1)) /* _ENV is a main chunk's first upvalue */
        lua_pop(L, 1);
#else
    lua_setfenv(L, -2);
#endif
}

/* Version string of the running interpreter ("LuaJIT 2.1.0-beta3", "Lua 5.4.4"). */
#if LUA_VERSION_NUM == 501
#include <luajit.h>
#define PL_LUA_RELEASE LUAJIT_VERSION
#else
#define PL_LUA_RELEASE LUA_RELEASE
#endif

#endif
