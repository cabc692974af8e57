/*
 * The binding modules' entry points, which host.c opens into platter.core,
 * and the global print. Each is defined in the l_*.c file of its name.
 */
#ifndef PLATTER_BIND_L_OPEN_H
#define PLATTER_BIND_L_OPEN_H

#include "compat.h"

int luaopen_platter_hash(lua_State *L);
int luaopen_platter_run(lua_State *L);
int luaopen_platter_worker(lua_State *L);
int luaopen_platter_stats(lua_State *L);
int luaopen_platter_file(lua_State *L);
int luaopen_platter_mpi(lua_State *L);
int luaopen_platter_core(lua_State *L);
/* The global print: Lua's own, but written through the line state (src/core/out.h). */
int pl_print(lua_State *L);

#endif
