/*
 * Lua values and stats objects as bytes (l_pack.h): the plain values and
 * the stats records p.parallel's workers send through their pipe, and p.mpi
 * sends between ranks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "l_pack.h"
#include "l_stats.h"
#include "target.h"

/* {====================================================================
** Plain values
** ===================================================================== */

static void pack_bytes(struct pl_pack *k, const void *src, size_t n)
{
    if (k->err)
        return;
    if (k->len + n > PL_PACK_MAX) {
        k->err = "larger than 48 MiB";
        return;
    }
    if (k->len + n > k->cap) {
        size_t cap = k->cap ? k->cap : 256;
        while (cap < k->len + n)
            cap *= 2;
        /* a value that names one string many times packs into as many copies of it:
           what the memory bound leaves must hold them (1024 workers each packing 48 MiB
           held 48 GiB) */
        if (!pl_budget_fits(cap)) {
            static char why[160];
            char room[32];
            snprintf(why, sizeof why, "larger than the %s that %s leaves",
                     pl_budget_size(pl_budget_left(), room, sizeof room),
                     pl_budget.worker ? "this worker's share of --max-memory" : "--max-memory");
            k->err = why;
            return;
        }
        char *p = realloc(k->p, cap);
        if (!p) {
            k->err = "not enough memory";
            return;
        }
        k->p = p;
        k->cap = cap;
    }
    memcpy(k->p + k->len, src, n);
    k->len += n;
}

static void pack_tag(struct pl_pack *k, char tag)
{
    pack_bytes(k, &tag, 1);
}

/* The value at idx (absolute); keys go through here too (is_key: no tables). */
void pl_pack_value(lua_State *L, struct pl_pack *k, int idx, int depth, int is_key)
{
    switch (lua_type(L, idx)) {
    case LUA_TNIL:
        if (is_key)
            k->err = "nil as a key";
        else
            pack_tag(k, 'N'); /* only at the top: a table holds no nil */
        break;
    case LUA_TBOOLEAN: pack_tag(k, lua_toboolean(L, idx) ? 'T' : 'F'); break;
    case LUA_TNUMBER:
        if (pl_isinteger(L, idx)) {
            int64_t i = (int64_t)lua_tointeger(L, idx);
            pack_tag(k, 'i');
            pack_bytes(k, &i, sizeof i);
        } else {
            double d = (double)lua_tonumber(L, idx);
            pack_tag(k, 'n');
            pack_bytes(k, &d, sizeof d);
        }
        break;
    case LUA_TSTRING: {
        size_t n;
        const char *str = lua_tolstring(L, idx, &n);
        uint32_t n32 = (uint32_t)n;
        if (n > PL_PACK_MAX) {
            k->err = "larger than 48 MiB";
            break;
        }
        pack_tag(k, 's');
        pack_bytes(k, &n32, sizeof n32);
        pack_bytes(k, str, n);
        break;
    }
    case LUA_TTABLE:
        if (is_key) {
            k->err = "a table as a key";
            break;
        }
        if (depth >= PL_PACK_DEPTH) {
            k->err = "tables nested too deep (a cycle?)";
            break;
        }
        if (!lua_checkstack(L, 4)) {
            k->err = "not enough memory";
            break;
        }
        pack_tag(k, '{');
        lua_pushnil(L);
        while (!k->err && lua_next(L, idx)) {
            int top = lua_gettop(L);
            pl_pack_value(L, k, top - 1, depth + 1, 1);
            pl_pack_value(L, k, top, depth + 1, 0);
            lua_pop(L, 1);
        }
        if (k->err)
            lua_pop(L, 1); /* the key lua_next left */
        pack_tag(k, '}');
        break;
    default:
        if (!k->err)
            k->err = lua_type(L, idx) == LUA_TFUNCTION   ? "a function"
                     : lua_type(L, idx) == LUA_TUSERDATA ? "a userdata (stats? files?)"
                                                         : "a value that is not plain data";
    }
}

static int take(struct pl_unpack *u, void *dst, size_t n)
{
    if ((size_t)(u->end - u->p) < n)
        return -1;
    memcpy(dst, u->p, n);
    u->p += n;
    return 0;
}

/* Push one packed value; 0, or -1 (nothing pushed) on a malformed buffer. */
int pl_unpack_value(lua_State *L, struct pl_unpack *u, int depth)
{
    char tag;
    if (take(u, &tag, 1) < 0 || depth > PL_PACK_DEPTH || !lua_checkstack(L, 4))
        return -1;
    switch (tag) {
    case 'N': lua_pushnil(L); return 0;
    case 'T':
    case 'F': lua_pushboolean(L, tag == 'T'); return 0;
    case 'i': {
        int64_t i;
        if (take(u, &i, sizeof i) < 0)
            return -1;
        lua_pushinteger(L, (lua_Integer)i);
        return 0;
    }
    case 'n': {
        double d;
        if (take(u, &d, sizeof d) < 0)
            return -1;
        lua_pushnumber(L, d);
        return 0;
    }
    case 's': {
        uint32_t n;
        if (take(u, &n, sizeof n) < 0 || (size_t)(u->end - u->p) < n)
            return -1;
        lua_pushlstring(L, u->p, n);
        u->p += n;
        return 0;
    }
    case '{':
        lua_newtable(L);
        for (;;) {
            if (u->p < u->end && *u->p == '}') {
                u->p++;
                return 0;
            }
            if (pl_unpack_value(L, u, depth + 1) < 0)
                break;
            if (pl_unpack_value(L, u, depth + 1) < 0) {
                lua_pop(L, 1);
                break;
            }
            if (lua_isnil(L, -2) ||
                (lua_type(L, -2) == LUA_TNUMBER && lua_tonumber(L, -2) != lua_tonumber(L, -2))) {
                lua_pop(L, 2); /* nil or NaN keys cannot be packed: malformed */
                break;
            }
            lua_rawset(L, -3);
        }
        lua_pop(L, 1);
        return -1;
    default: return -1;
    }
}

/* }==================================================================== */

/* {====================================================================
** Stats records
** ===================================================================== */

void pl_stats_rec_fill(lua_State *L, int idx, struct pl_stats_rec *r)
{
    struct pl_phase *ph = pl_checkphase(L, idx);
    pl_phase_stop(L, ph);
    r->has_stats = 1;
    r->st = ph->st;
    r->shorts = ph->shorts;
    memcpy(r->name, ph->name, sizeof r->name);
    memcpy(r->stopped, ph->stopped, sizeof r->stopped);
    memcpy(r->error, ph->error, sizeof r->error);
    r->sub_mask = 0;
    for (int i = 0; i < 3; i++) {
        if (ph->sub[i] == LUA_NOREF)
            continue;
        lua_rawgeti(L, LUA_REGISTRYINDEX, ph->sub[i]);
        r->sub[i] = pl_checkphase(L, -1)->st;
        r->sub_mask |= 1u << i;
        lua_pop(L, 1);
    }
    if (ph->slat != LUA_NOREF) { /* p.run's r.slat = { read = s, write = s } */
        lua_rawgeti(L, LUA_REGISTRYINDEX, ph->slat);
        for (int i = 0; i < 2; i++) {
            lua_getfield(L, -1, pl_op_names[i]);
            struct pl_phase *sub = luaL_testudata(L, -1, PL_STATS_MT);
            if (sub) {
                r->sub[3 + i] = sub->st;
                r->sub_mask |= 1u << (3 + i);
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
}

struct pl_phase *pl_stats_rec_push(lua_State *L, const struct pl_stats_rec *r)
{
    char name[sizeof r->name];
    memcpy(name, r->name, sizeof name);
    name[sizeof name - 1] = '\0';
    struct pl_phase *ph = pl_phase_new(L, name);
    ph->st = r->st;
    ph->shorts = r->shorts;
    memcpy(ph->stopped, r->stopped, sizeof ph->stopped);
    memcpy(ph->error, r->error, sizeof ph->error);
    ph->stopped[sizeof ph->stopped - 1] = '\0';
    ph->error[sizeof ph->error - 1] = '\0';
    for (int i = 0; i < 3; i++) {
        if (!(r->sub_mask & (1u << i)))
            continue;
        struct pl_phase *sub = pl_phase_new(L, pl_op_names[i]);
        sub->st = r->sub[i];
        ph->sub[i] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    if (r->sub_mask & (3u << 3)) { /* r.slat, as p.run gave it */
        lua_createtable(L, 0, 2);
        for (int i = 0; i < 2; i++) {
            if (!(r->sub_mask & (1u << (3 + i))))
                continue;
            struct pl_phase *sub = pl_phase_new(L, pl_op_names[i]);
            sub->st = r->sub[3 + i];
            lua_setfield(L, -2, pl_op_names[i]);
        }
        ph->slat = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    return ph;
}

void pl_stats_rec_merge(struct pl_stats_rec *dst, const struct pl_stats_rec *src)
{
    pl_stats_merge(&dst->st, &src->st);
    dst->shorts += src->shorts;
    for (int i = 0; i < 5; i++) {
        if (!(src->sub_mask & (1u << i)))
            continue;
        if (dst->sub_mask & (1u << i)) {
            pl_stats_merge(&dst->sub[i], &src->sub[i]);
        } else {
            dst->sub[i] = src->sub[i];
            dst->sub_mask |= 1u << i;
        }
    }
    if (!dst->error[0] && src->error[0])
        memcpy(dst->error, src->error, sizeof dst->error);
}

/* }==================================================================== */
