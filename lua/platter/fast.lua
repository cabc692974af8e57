-- platter.fast: on LuaJIT, routes the per-call hot path (f:pread, f:pwrite,
-- f:read, f:write, p.now, p.random, and each step of a p.run generator) through the FFI, which the JIT compiles
-- into the trace, instead of the classic C API. The C functions never
-- raise: on anything unusual they return SLOW before doing any I/O and the
-- checked C API binding runs instead, so errors read the same on both paths.
-- PLATTER_NO_FFI=1 turns it off. On PUC Lua this module does nothing.
local M = {}

function M.install(core)
  if not jit or os.getenv("PLATTER_NO_FFI") then return false end
  local ok, ffi = pcall(require, "ffi")
  if not ok then return false end
  local C = ffi.C
  local cdef_ok = pcall(ffi.cdef, [[
    int64_t pl_ffi_pread(void *f, double off, double n);
    int64_t pl_ffi_pwrite(void *f, double off, double n);
    int64_t pl_ffi_read(void *f, double n);
    int64_t pl_ffi_write(void *f, double n);
    double pl_ffi_now(void);
    double pl_ffi_random(double lo, double hi, double align);
    int pl_ffi_job_step(void *job, int op, double off, double len, double think_us);
  ]])
  if not cdef_ok or not pcall(function() return C.pl_ffi_now end) then return false end

  local SLOW = -1000000
  local methods = core._file_methods
  local ioerror = core._ioerror
  local files = core._files  -- weak set of every file p.open made (filled in C)
  local tonumber, type = tonumber, type

  local function wrap2(name, cfn)
    local slow = methods[name]
    methods[name] = function(f, off, n, ...)
      if files[f] and type(off) == "number" and type(n) == "number" and select("#", ...) == 0 then
        local r = cfn(f, off, n)
        if r >= 0 then return tonumber(r) end
        if r ~= SLOW then return ioerror(f, name, tonumber(-r)) end
      end
      return slow(f, off, n, ...)
    end
  end
  local function wrap1(name, cfn)
    local slow = methods[name]
    methods[name] = function(f, n, ...)
      if files[f] and type(n) == "number" and select("#", ...) == 0 then
        local r = cfn(f, n)
        if r >= 0 then return tonumber(r) end
        if r ~= SLOW then return ioerror(f, name, tonumber(-r)) end
      end
      return slow(f, n, ...)
    end
  end
  wrap2("pread", C.pl_ffi_pread)
  wrap2("pwrite", C.pl_ffi_pwrite)
  wrap1("read", C.pl_ffi_read)
  wrap1("write", C.pl_ffi_write)

  local now = C.pl_ffi_now
  core.now = function() return now() end
  local random, slow_random = C.pl_ffi_random, core.random
  core.random = function(...)
    local n = select("#", ...)
    if n == 2 or n == 3 then
      local lo, hi, align = ...
      if align == nil then align = 1 end
      if type(lo) == "number" and type(hi) == "number" and type(align) == "number" then
        local v = random(lo, hi, align)
        if v ~= SLOW then return v end
      end
    end
    return slow_random(...)  -- other forms and every error: the checked binding
  end

  -- p.run{gen=...}: platter.run's loop takes this step, which the JIT compiles
  -- into the generator's trace (no C API call per I/O)
  M.job_step = C.pl_ffi_job_step
  return true
end

return M
