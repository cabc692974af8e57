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
#include "io.h"
#include "l_util.h"
#include "rng.h"
#include "hot.h"

#define PL_FFI_SLOW (-1000000)

/* The same checks and the same I/O call as the bindings (io.h): only the way out differs. */
PL_HOT static int64_t ffi_io(struct pl_file *f, enum pl_op op, enum pl_how how, double off,
                             double n)
{
    if (pl_interrupted || f->fd < 0 || !pl_isexact(off) || !pl_isexact(n) || n > (double)PL_IO_MAX)
        return PL_FFI_SLOW;
    uint64_t o = (uint64_t)off, len = (uint64_t)n;
    if (pl_file_check_io(f, how == PL_AT_OFFSET, o, len) != PL_CHECK_OK)
        return PL_FFI_SLOW;
    return pl_io_rw(f, op, how, o, len, NULL); /* bytes, or -errno (counted; init.lua
                                                   asks for the message) */
}

PL_HOT int64_t pl_ffi_pread(void *f, double off, double n)
{
    return ffi_io(f, PL_OP_READ, PL_AT_OFFSET, off, n);
}

PL_HOT int64_t pl_ffi_pwrite(void *f, double off, double n)
{
    return ffi_io(f, PL_OP_WRITE, PL_AT_OFFSET, off, n);
}

PL_HOT int64_t pl_ffi_read(void *f, double n)
{
    return ffi_io(f, PL_OP_READ, PL_AT_POS, 0, n);
}

PL_HOT int64_t pl_ffi_write(void *f, double n)
{
    return ffi_io(f, PL_OP_WRITE, PL_AT_POS, 0, n);
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
    if (pl_rng_range(&pl_rng_process, (uint64_t)lo, (uint64_t)hi, (uint64_t)align, &v) < 0)
        return PL_FFI_SLOW;
    return (double)v;
}
