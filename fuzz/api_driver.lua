-- The Lua half of fuzz_api.c: the input bytes choose which platter functions,
-- file methods and stats methods to call, and with what arguments (nil,
-- booleans, awkward numbers, size and path strings, raw input bytes, tables
-- with run/open keys, objects earlier calls returned, callbacks, tables with
-- hostile metatables). Every call is protected: a Lua error is a normal
-- outcome; only a crash or a sanitizer report is a bug. It runs in a scratch
-- directory with platter's sandbox path checks on (fuzz_api.c).
local data = ...
local core = require "platter.core"
core.ewrite = function() end  -- warnings and notes: stderr stays for sanitizer reports
local p = require "platter"
local unpack = unpack or table.unpack

local pos = 1
local function byte()
  local b = data:byte(pos)
  pos = pos + 1
  return b or 0
end
local function left() return pos <= #data end
local function pick(t) return t[byte() % #t + 1] end

local NUMS = { 0, 1, -1, 2, 3, 7, 8, 100, 511, 512, 513, 4095, 4096, 4097, 65536, 1048576,
  0.5, -0.5, 1e-9, 1e9, 2 ^ 31, 2 ^ 32, 2 ^ 53, 2 ^ 53 + 2, 2 ^ 63, 2 ^ 64, 1e300, -1e300,
  1 / 0, -1 / 0, 0 / 0, -0.0, 255, 256, 30, 60, 1000000 }
local STRS = { "", "0", "1", "-1", "4k", "64k", "1m", "1.5m", "1e3", "0x10", " 4k", "4 k", "1t",
  "100ms", "2s", "1h", "f.dat", "g.dat", "d.dat", "new.dat", "sub/x", ".", "..", "/",
  "../x", "./f.dat", "/etc/passwd", "/etc/shadow", "/dev/null", "/dev/zero", "/dev/vda",
  "/proc/self/mem", "/tmp", "f.dat/..", "link", "read", "write", "mix", "fsync", "seq",
  "reverse", "random", "reread", "stride", "zipf", "normal", "list", "psync", "sync",
  "stdio", "mmap", "io_uring", "stop", "continue", "zero", "sequential", "willneed",
  "dontneed", "set", "cur", "end", "phase", "phase_start", "repeat", "exit", "%s%s%n%d",
  string.rep("a", 300), "\0", "x\0y", "--help", "-s", "--size=4k" }
local KEYS = { "file", "files", "op", "bs", "bs_list", "weights", "pattern", "align", "stride",
  "theta", "sigma", "offsets", "range", "count", "bytes", "seconds", "ramp", "fsync_every",
  "rate_iops", "rate_bps", "think_us", "qd", "batch", "engine", "seed", "on_error", "gen",
  "name", "read_pct", "direct", "write", "create", "size", "sparse", "sync", "dsync", "fill",
  "options", "positional", "usage", "summary", "keyvalue", "rest", 1, 2 }

local objs = {}
local function keep(v)
  local t = type(v)
  if t == "userdata" or t == "table" or t == "function" then
    if #objs < 24 then objs[#objs + 1] = v else objs[byte() % 24 + 1] = v end
  end
end
local function obj() return objs[byte() % (#objs + 1) + 1] end

local value
local GENS = {
  function(i) if i > 64 then return nil end return "read", (i % 8) * 4096, 4096 end,
  function(i) if i > 32 then return nil end return "write", i * 512, 512, 1 end,
  function(i) if i > 16 then return nil end return "fsync" end,
  function() return value(3), value(3), value(3), value(3) end,
  function() error("generator error") end,
  function() error({}) end,
  function(i)
    if i > 4 then return nil end
    pcall(p.run, { file = obj(), count = 2 })  -- a job inside a job's generator
    return "read", 0, 512
  end,
  function(i) if i > 8 then return nil end return "read", 2 ^ 53, 4096 end,
  function(i) if i > 8 then return nil end return "write", 0, 2 ^ 31 end,
}
local FNS = { function(...) return ... end, function() error("callback error") end,
  function(s) if type(s) == "userdata" then pcall(s.stop, s) end end,
  function() return p.phase("inner", function() end) end, collectgarbage }

local hostile = setmetatable({}, {
  __index = function() error("hostile __index") end,
  __newindex = function() error("hostile __newindex") end,
  __len = function() return 2 ^ 40 end,
  __tostring = function() error("hostile __tostring") end,
})

function value(depth)
  depth = depth or 0
  local k = byte() % 12
  if k == 0 then return nil
  elseif k == 1 then return byte() % 2 == 1
  elseif k == 2 then return pick(NUMS)
  elseif k == 3 then return byte() * 256 + byte()
  elseif k == 4 then return pick(STRS)
  elseif k == 5 then
    local n = byte() % 24
    local s = data:sub(pos, pos + n - 1)
    pos = pos + n
    return s
  elseif k == 6 then
    if depth > 2 then return {} end
    local t = {}
    for _ = 1, byte() % 6 do
      local key = byte() % 4 == 0 and byte() % 4 + 1 or pick(KEYS)
      t[key] = value(depth + 1)
    end
    return t
  elseif k == 7 then return obj()
  elseif k == 8 then return byte() % 2 == 0 and pick(GENS) or pick(FNS)
  elseif k == 9 then  -- a plausible run spec, to get past the first checks
    if depth > 2 then return {} end
    local t = { file = obj(), op = pick { "read", "write", "mix" },
      bs = pick { 512, 4096, "4k", 65536, 3, 1 }, pattern = pick { "seq", "random", "reverse",
      "reread", "stride", "zipf", "normal", "list" }, count = byte() % 64 + 1,
      qd = pick { 1, 1, 2, 8, 64 } }
    t.engine = pick { false, "psync", "sync", "stdio", "mmap", "io_uring" } or nil
    for _ = 1, byte() % 4 do t[pick(KEYS)] = value(depth + 1) end
    return t
  elseif k == 10 then  -- a plausible open option table
    if depth > 2 then return {} end
    local t = { create = byte() % 2 == 0, write = byte() % 2 == 0, direct = byte() % 3 == 0,
      size = pick { 0, 4096, "64k", 1, 511, nil } }
    for _ = 1, byte() % 3 do t[pick(KEYS)] = value(depth + 1) end
    return t
  else
    return pick { string.rep("x", 5000), hostile, { 1, 2, 3 }, { "4k", 0, -1 }, p, core,
      { file = hostile }, setmetatable({}, { __gc = function() error("gc") end }) }
  end
end

-- Memory-heavy fields are kept within what a fuzzer process can hold (qd x bs
-- buffers); everything else goes through unchanged.
local function tame(t)
  if type(t) ~= "table" or getmetatable(t) then return t end
  local function small(v)
    if type(v) == "number" and v > 1048576 then return 1048576 end
    if type(v) == "string" then
      local n = p.parse_size(v)
      if n and n > 1048576 then return "1m" end
    end
    return v
  end
  if type(t.qd) == "number" and t.qd > 64 then t.qd = 64 end
  t.bs = small(t.bs)
  if type(t.bs_list) == "table" and not getmetatable(t.bs_list) then
    for i, v in ipairs(t.bs_list) do t.bs_list[i] = small(v) end
  end
  return t
end

-- Whatever can be called: the API, internal core functions, methods.
-- forks; system-wide; runs a whole shipped workload (big scratch files, seconds)
local DENY = { parallel = true, drop_caches = true, workload = true }
local funcs = {}
for _, src in ipairs { p, core } do
  for k, v in pairs(src) do
    if type(v) == "function" and not DENY[k] then funcs[#funcs + 1] = { src, k } end
  end
end
table.sort(funcs, function(a, b)
  if a[2] == b[2] then return a[1] == p and b[1] ~= p end
  return a[2] < b[2]
end)

-- A few objects to start from, so calls get past the first checks.
local function setup()
  local f = p.open("f.dat", { create = true, write = true, size = 65536 })
  keep(f)
  local s = p.phase("setup")
  if f then f:pread(0, 4096) end
  s:stop()
  keep(s)
end
pcall(setup)

local file_methods, file_names = nil, {}
for _, o in ipairs(objs) do
  local mt = getmetatable(o)
  if type(o) == "userdata" and type(mt) == "table" and type(mt.__index) == "table" then
    file_methods = mt.__index
    break
  end
end
if file_methods then
  for k in pairs(file_methods) do
    if not (NO_READAHEAD and k == "readahead") then file_names[#file_names + 1] = k end
  end
  table.sort(file_names)
end
local STATS_METHODS = { "percentile", "mean", "min", "max", "merge", "stop", "buckets" }
local STATS_FIELDS = { "name", "ops", "bytes", "errors", "errno", "seconds", "user", "sys",
  "cpu_pct", "iops", "bw", "mbps", "mibps", "running", "lat", "read", "write", "fsync",
  "stopped", "error", "failed", "shorts", "nope", "merged", 1 }

local function args_of(n)
  local a = {}
  for i = 1, n do a[i] = value(0) end
  return a
end

local function call(fn, a, n)
  if type(a[1]) == "table" then a[1] = tame(a[1]) end
  local res = { pcall(fn, unpack(a, 1, n)) }
  for i = 2, #res do keep(res[i]) end
end

local ops = 0
while left() and ops < 48 do
  ops = ops + 1
  local kind = byte() % 6
  local n = byte() % 5
  if kind <= 2 then  -- a function of the API or of platter.core
    local f = pick(funcs)
    call(f[1][f[2]], args_of(n), n)
  elseif kind == 3 and #file_names > 0 then  -- a file method, on a file or on anything
    local m = pick(file_names)
    local a = args_of(n + 1)
    if byte() % 4 ~= 0 then a[1] = obj() end
    call(file_methods[m], a, n + 1)
  elseif kind == 4 then  -- a stats method or field on whatever object
    local o = obj()
    if byte() % 2 == 0 then
      local m = pick(STATS_METHODS)
      local a = args_of(n)
      call(function() return o[m](o, unpack(a, 1, n)) end, {}, 0)
    else
      local key = pick(STATS_FIELDS)
      call(function() return o[key] end, {}, 0)
    end
  else  -- odds and ends
    local o = obj()
    local w = byte() % 4
    if w == 0 then pcall(tostring, o)
    elseif w == 1 then collectgarbage()
    elseif w == 2 then objs[byte() % (#objs + 1) + 1] = nil
    else pcall(function() return #o end) end
  end
end
objs = nil
collectgarbage()
