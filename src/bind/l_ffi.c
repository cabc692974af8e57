/*
 * LuaJIT FFI entry points for the per-call hot path (f:pread, f:pwrite,
 * f:read, f:write, p.now, p.random): JIT-compiled callers reach them without
 * the interpreter's C API call cost. They do the same work as the checked
 * bindings, but never raise: anything unusual (closed file, bad argument,
 * misalignment, a pending interrupt) returns PL_FFI_SLOW *before* any I/O,
 * and lua/platter/init.lua then calls the checked binding, which raises the
 * proper error. PUC Lua never uses this file's functions.
 */
#include <stdint.h>

#include "clock.h"
#include "file.h"
#include "guard.h"
#include "l_util.h"
#include "rng.h"
#include "hot.h"

#define PL_FFI_SLOW (-1000000)

static int64_t ffi_io(struct pl_file *f, int op, double off, double n)
{
    if (pl_interrupted || f->fd < 0 || !pl_isexact(off) || !pl_isexact(n) || n > (double)(1u << 30))
        return PL_FFI_SLOW;
    uint64_t o = (uint64_t)off, len = (uint64_t)n;
    if (f->direct && pl_file_check_align(f, op >= 2 ? 0 : o, len) < 0)
        return PL_FFI_SLOW;
    uint64_t ns = 0;
    int64_t r;
    switch (op) {
    case 0: r = pl_file_pread(f, o, (size_t)len, &ns); break;
    case 1: r = pl_file_pwrite(f, o, (size_t)len, &ns); break;
    case 2: r = pl_file_read(f, (size_t)len, &ns); break;
    default: r = pl_file_write(f, (size_t)len, &ns); break;
    }
    if (r >= 0)
        pl_phase_record((uint64_t)r, ns);
    else
        pl_phase_error((int)-r);
    return r;  /* bytes, or -errno (recorded; init.lua asks for the message) */
}

PL_HOT int64_t pl_ffi_pread(void *f, double off, double n)
{
    return ffi_io(f, 0, off, n);
}

PL_HOT int64_t pl_ffi_pwrite(void *f, double off, double n)
{
    return ffi_io(f, 1, off, n);
}

PL_HOT int64_t pl_ffi_read(void *f, double n)
{
    return ffi_io(f, 2, 0, n);
}

PL_HOT int64_t pl_ffi_write(void *f, double n)
{
    return ffi_io(f, 3, 0, n);
}

PL_HOT double pl_ffi_now(void)
{
    return (double)pl_clock_ns();
}

/* p.random(lo, hi [, align]) for integral 0 <= lo <= hi < 2^53; else PL_FFI_SLOW. */
PL_HOT double pl_ffi_random(double lo, double hi, double align)
{
    uint64_t v;
    if (!pl_isexact(lo) || !pl_isexact(hi) || !pl_isexact(align) || lo > hi)
        return PL_FFI_SLOW;
    if (pl_bind_random_range((uint64_t)lo, (uint64_t)hi, (uint64_t)align, &v) < 0)
        return PL_FFI_SLOW;
    return (double)v;
}
