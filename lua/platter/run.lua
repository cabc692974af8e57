-- platter.run: p.run with a generator (`gen = function(i) return op, off, len
-- [, think_us] end`). The driver of such a job on both Lua flavours: a loop
-- calls gen and hands what it returned to one checked step in C
-- (step_checked in src/bind/l_run.c). On LuaJIT the loop is the Lua one
-- below, through the FFI, which the JIT compiles with the generator; with the
-- C API (Lua 5.4, PLATTER_NO_FFI) it is the same loop in C (core._run_loop),
-- where calling gen from C is cheaper than calling a step from Lua. Every
-- check and every error text of a step is in C; a job without gen is run by
-- the C loop directly.
local M = {}

function M.install(core, ffi_step)
  local begin, finish, abort = core._run_begin, core._run_end, core._run_abort
  local step = ffi_step
  local OPS = core._op_names  -- name -> the code a step takes (src/core: pl_op_names)
  local type, pcall, error = type, pcall, error

  -- one job's loop: until gen returns nil, or a step says the job ended (0) or
  -- that the I/O was wrong (-1, the message kept with the job)
  local function loop(job, gen)
    local i = 0
    while true do
      i = i + 1
      local op, off, len, think = gen(i)
      if op == nil then return end
      if type(off) ~= "number" then off = -1 end
      if type(len) ~= "number" then len = -1 end
      if type(think) ~= "number" then think = 0 end
      if step(job, OPS[op] or -1, off, len, think) <= 0 then return end
    end
  end

  -- an error of the C side is reported at the caller's line, as the direct p.run does:
  -- raise (1) <- drive (2) <- p.run, the C function (3) <- the caller (4)
  local function raise(e)
    if type(e) == "string" then e = e:gsub("^lua/platter/run%.lua:%d+: ", "") end
    error(e, 4)
  end

  -- p.run stays the C function (so that its errors are at the caller's line on both
  -- flavours); it hands a job with gen to this driver
  local function drive(t)
    local begun, job = pcall(begin, t)
    if not begun then raise(job) end
    -- one protected call per job: an error in gen (or Ctrl-C) closes the job
    -- at once (recording what it did until then), then goes on up unchanged
    local done, msg = pcall(step and loop or core._run_loop, job, t.gen)
    if not done then
      abort(job, msg)
      error(msg, 0)
    end
    local finished, r = pcall(finish, job)
    if not finished then raise(r) end
    return r
  end
  core._gen_driver(drive)
end

return M
