/*
 * Shared by the Lua-level fuzz targets: a Lua state set up as the platter
 * host sets up its own (standard libraries, the embedded platter modules in
 * package.preload, platter.core, cjson), without the host's main program.
 * Each input gets a fresh state, so nothing leaks from one input to the next.
 */
#ifndef PLATTER_FUZZ_LUA_H
#define PLATTER_FUZZ_LUA_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include "host.h"
#include "l_util.h"

/*
 * Lua-level coverage for libFuzzer: a line hook hashes (previous line, this
 * line) into libFuzzer's "extra counters", so that inputs which reach new
 * lines of args.lua, init.lua, recorder.lua or the driver count as progress,
 * not only new C code. (Interpreted Lua has no compiler instrumentation.)
 */
#define FUZZ_LUA_COUNTERS (1u << 15)
__attribute__((section("__libfuzzer_extra_counters"),
               used)) static uint8_t fuzz_lua_counters[FUZZ_LUA_COUNTERS];
static uint32_t fuzz_prev_line;

static inline void fuzz_line_hook(lua_State *L, lua_Debug *ar)
{
    if (!lua_getinfo(L, "S", ar))
        return;
    uint32_t h = 2166136261u; /* FNV-1a of the chunk name, then the line */
    for (const char *c = ar->source; c && *c; c++)
        h = (h ^ (uint8_t)*c) * 16777619u;
    h = (h ^ (uint32_t)ar->currentline) * 16777619u;
    uint32_t slot = (h ^ fuzz_prev_line) % FUZZ_LUA_COUNTERS;
    if (fuzz_lua_counters[slot] < 255)
        fuzz_lua_counters[slot]++;
    fuzz_prev_line = h >> 1;
}

/*
 * A fresh state with platter's modules preloaded; aborts when out of memory.
 * With `checked`, the Lua heap comes from malloc (pl_host_new_state), so ASan
 * checks Lua objects too. Only for states closed within one input: a LuaJIT
 * heap on malloc that lives on has blocks that LeakSanitizer cannot tell are
 * still referenced (LuaJIT tags the pointers it keeps in values).
 */
static inline lua_State *fuzz_new_state(int checked)
{
    lua_State *L = checked ? pl_host_new_state() : luaL_newstate();
    if (!L)
        abort();
    luaL_openlibs(L);
    pl_host_preload(L);
    fuzz_prev_line = 0;
    lua_sethook(L, fuzz_line_hook, LUA_MASKLINE, 0);
    return L;
}

/*
 * Run `driver` (Lua source) with the input bytes as its one argument. The
 * driver reports a broken invariant by raising a string that starts with
 * "FUZZ BUG"; that aborts, so libFuzzer keeps the input. Any other Lua error
 * only ends the input. The state is closed either way.
 */
static inline void fuzz_run_driver(const char *name, const char *driver, const uint8_t *data,
                                   size_t size)
{
    lua_State *L = fuzz_new_state(1);
    if (luaL_loadbufferx(L, driver, strlen(driver), name, "t") != 0) {
        fprintf(stderr, "%s: driver does not load: %s\n", name, lua_tostring(L, -1));
        abort();
    }
    lua_pushlstring(L, (const char *)data, size);
    if (lua_pcall(L, 1, 0, 0) != 0) {
        const char *msg = lua_tostring(L, -1);
        if (msg && strncmp(msg, "FUZZ BUG", 8) == 0) {
            fprintf(stderr, "%s: %s\n", name, msg);
            abort();
        }
    }
    lua_close(L);
}

#endif
