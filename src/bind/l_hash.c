/*
 * p.sha256(text) -> hex digest (src/core/sha256.c), so a result record can
 * name exactly which script produced it.
 */
#include "l_util.h"
#include "l_open.h"
#include "sha256.h"

/* p.sha256(s) -> 64 lowercase hex digits */
static int l_sha256(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    uint8_t md[PL_SHA256_LEN];
    unsigned n = PL_SHA256_LEN;
    pl_sha256(s, len, md);
    char hex[2 * PL_SHA256_LEN + 1];
    static const char digits[] = "0123456789abcdef";
    for (unsigned i = 0; i < n; i++) {
        hex[2 * i] = digits[md[i] >> 4];
        hex[2 * i + 1] = digits[md[i] & 15];
    }
    lua_pushlstring(L, hex, 2 * n);
    return 1;
}

static const luaL_Reg hash_funcs[] = {
    {"sha256", l_sha256},
    {NULL, NULL},
};

int luaopen_platter_hash(lua_State *L)
{
    luaL_newlib(L, hash_funcs);
    return 1;
}
