/*
 * p.sha256(text) -> hex digest, through OpenSSL's libcrypto (loaded at the
 * first call: lazylib.h), so a result record can name exactly which script
 * produced it.
 */
#include "lazylib.h"

#include "l_util.h"
#include "l_open.h"

/* p.sha256(s) -> 64 lowercase hex digits */
static int l_sha256(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    const char *why = NULL;
    const struct pl_libcrypto *ssl = pl_libcrypto(&why);
    if (!ssl)
        return luaL_error(L, "sha256 needs " PL_LIBCRYPTO_SONAME ": %s", why);
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!ssl->EVP_Digest(s, len, md, &n, ssl->EVP_sha256(), NULL))
        return luaL_error(L, "sha256: libcrypto failed");
    char hex[2 * EVP_MAX_MD_SIZE + 1];
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
