-- platter.fast: on LuaJIT, routes the per-call hot path (f:pread, f:pwrite,
-- f:read, f:write, p.now, p.random) through the FFI, which the JIT compiles
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

  -- p.run{gen=...}: drive the generator from Lua, one pl_job_step per I/O, so
  -- the JIT compiles generator and loop together (no C-to-Lua call per I/O).
  local run, begin, finish, step = core.run, core._run_begin, core._run_end, C.pl_ffi_job_step
  local abort = core._run_abort
  local OPS = { read = 0, write = 1, fsync = 2 }
  local fmt = string.format
  local BAD_OP = 'gen: I/O %d: op must be "read", "write" or "fsync"'
  local BAD_NUMBERS = "gen: I/O %d: offset and length must be non-negative integers"
  -- the loop of one job: nil when it ended, or the message of what gen got wrong
  local function loop(job, gen)
    local i = 0
    while true do
      i = i + 1
      local op, off, len, think = gen(i)
      if op == nil then return nil end
      local code = OPS[op]
      if code == nil then
        return fmt(BAD_OP, i)
      end
      if code ~= 2 and (type(off) ~= "number" or type(len) ~= "number") then
        return fmt(BAD_NUMBERS, i)
      end
      local rc = step(job, code, off or 0, len or 0, type(think) == "number" and think or 0)
      if rc <= 0 then
        if rc == -2 then
          return fmt(BAD_NUMBERS, i)
        end
        return nil
      end
    end
  end
  core.run = function(t)
    if type(t) ~= "table" or type(t.gen) ~= "function" then return run(t) end
    local begun, job = pcall(begin, t)
    if not begun then
      -- report bad fields at the caller's line, as the direct p.run does
      if type(job) == "string" then job = job:gsub("^lua/platter/fast%.lua:%d+: ", "") end
      error(job, 2)
    end
    if not job then return run(t) end  -- not a synchronous engine at qd 1
    -- one protected call per job: an error in gen (or Ctrl-C) closes the job
    -- at once, then goes on up unchanged
    local done, msg = pcall(loop, job, t.gen)
    if not done then
      abort(job)
      error(msg, 0)
    end
    return finish(job, msg)
  end
  return true
end

return M
