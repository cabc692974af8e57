-- The platter side of bench/run: one measurement per invocation, printed as
-- one line of key=value pairs (the same keys as bench/cloop.c).
--
--   platter bench/bench.lua MODE FILE [ARGS...]
--
--   run    FILE SECONDS QD DIRECT [BATCH [sqpoll]]
--                                   4 KiB random reads with p.run (psync at
--                                   QD 1, io_uring above); DIRECT is 0 or 1;
--                                   BATCH (0: the default) is io_uring's batch
--   null   FILE SECONDS [QD]        p.run{engine = "null"}: no I/O, platter's own
--                                   cost per I/O (the file is opened, not read)
--   loop   FILE SECONDS             a Lua loop of f:pread inside p.phase, the
--                                   offset from p.random, the time check p.now()
--   gen    FILE SECONDS             p.run{gen = function(i) ... end}
--   seq    FILE                     1 MiB sequential O_DIRECT reads, one pass
--   write  FILE BYTES               1 MiB buffered sequential writes, then fsync
--   count  FILE N                   N random 512-byte reads (the memory check)
--   calls  FILE N                   what one step of each Lua path costs with the
--                                   cheapest read (1 byte at a random 4 KiB-aligned
--                                   offset of a small cached file): best of 5
--                                   batches of N, ns per step (see cloop.c)
--   steps  FILE loop|gen|run N      N steps of one of those paths, untimed
--                                   (for bench/callgrind.sh)
--   putc   FILE N                   truncate FILE, then f:putc(N) (W6, bench/cchar.c's
--                                   counterpart): ops=1 bytes=N seconds bw=chars/s
--   getc   FILE N                   f:getc(N) from the start of FILE
local p = require "platter"

local mode, path = arg[1], arg[2]

local function report(r, extra)
  local t = {
    string.format("ops=%d", r.ops),
    string.format("bytes=%d", r.bytes),
    string.format("seconds=%.6f", r.seconds),
    string.format("iops=%.1f", r.iops),
    string.format("bw=%.1f", r.bw),
    string.format("mean_ns=%.1f", r:mean()),
    string.format("p50_ns=%d", r:percentile(50)),
    string.format("p99_ns=%d", r:percentile(99)),
    string.format("p999_ns=%d", r:percentile(99.9)),
    string.format("errors=%d", r.errors),
  }
  if r.stopped then t[#t + 1] = "stopped=" .. r.stopped end
  for k, v in pairs(extra or {}) do t[#t + 1] = k .. "=" .. tostring(v) end
  print(table.concat(t, " "))
end

-- n steps of each W1' path with the cheapest read (1 byte at a random 4 KiB-aligned
-- offset): the `calls` timings and bench/callgrind.sh's instruction counts
local steps = {
  loop = function(f, hi, n)  -- the W1' loop body: a time check, a random offset, a read
    local i = 0
    while i < n do
      p.now()
      f:pread(p.random(0, hi, 4096), 1)
      i = i + 1
    end
  end,
  gen = function(f, hi, n)
    p.run{ file = f, count = n, gen = function() return "read", p.random(0, hi, 4096), 1 end }
  end,
  run = function(f, _, n)
    p.run{ file = f, count = n, pattern = "random", bs = 1, align = 4096 }
  end,
}

if mode == "run" then
  local secs, qd, direct = tonumber(arg[3]), tonumber(arg[4]), arg[5] == "1"
  local batch = tonumber(arg[6] or "0")
  local f = assert(p.open(path, { direct = direct }))
  report(p.run{ file = f, pattern = "random", bs = 4096, qd = qd,
                engine = qd > 1 and "io_uring" or "psync", seconds = secs,
                batch = batch > 0 and batch or nil, sqpoll = arg[7] == "sqpoll" or nil })
elseif mode == "null" then
  local secs, qd = tonumber(arg[3]), tonumber(arg[4] or "1")
  local f = assert(p.open(path))
  local r = p.run{ file = f, engine = "null", pattern = "random", bs = 4096, qd = qd,
                   seconds = secs }
  report(r, { ns_per_op = string.format("%.2f", 1e9 / r.iops) })
elseif mode == "loop" then
  local secs = tonumber(arg[3])
  local f = assert(p.open(path))
  local hi = f:size() - 4096
  local r = p.phase("loop", function()
    local deadline = p.now() + secs * 1e9
    while p.now() < deadline do
      f:pread(p.random(0, hi, 4096), 4096)
    end
  end)
  report(r)
elseif mode == "gen" then
  local secs = tonumber(arg[3])
  local f = assert(p.open(path))
  local hi = f:size() - 4096
  report(p.run{ file = f, seconds = secs,
                gen = function() return "read", p.random(0, hi, 4096), 4096 end })
elseif mode == "seq" then
  local f = assert(p.open(path, { direct = true }))
  report(p.run{ file = f, pattern = "seq", bs = "1m" })
elseif mode == "write" then
  local bytes = tonumber(arg[3])
  local t0 = p.now()
  local f = assert(p.open(path, { create = true, write = true }))
  -- range: a new file is empty, and p.run takes its range from the file size
  local r = p.run{ file = f, op = "write", pattern = "seq", bs = "1m", bytes = bytes,
                   range = { 0, bytes } }
  assert(f:fsync())
  assert(f:close())
  local total = (p.now() - t0) / 1e9
  report(r, { total_seconds = string.format("%.6f", total) })
elseif mode == "count" then
  local n = tonumber(arg[3])
  local f = assert(p.open(path))
  report(p.run{ file = f, pattern = "random", bs = 512, count = n })
elseif mode == "calls" then
  local n = tonumber(arg[3])
  local f = assert(p.open(path))
  local hi = f:size() - 4096
  local function best(fn)
    local b = math.huge
    for _ = 1, 5 do
      local t0 = p.now()
      fn()
      local d = (p.now() - t0) / n
      if d < b then b = d end
    end
    return b
  end
  local t = {
    string.format("ops=%d", n),
    string.format("empty_ns=%.1f", best(function() for _ = 1, n do end end)),
    string.format("now_ns=%.1f", best(function() for _ = 1, n do p.now() end end)),
    string.format("random_ns=%.1f", best(function() for _ = 1, n do p.random(0, hi, 4096) end end)),
    string.format("pread1_ns=%.1f", best(function() for _ = 1, n do f:pread(0, 1) end end)),
    string.format("loop1_ns=%.1f", best(function() steps.loop(f, hi, n) end)),
    string.format("gen1_ns=%.1f", best(function() steps.gen(f, hi, n) end)),
    string.format("run1_ns=%.1f", best(function() steps.run(f, hi, n) end)),
  }
  print(table.concat(t, " "))
elseif mode == "steps" then  -- bench/callgrind.sh counts the instructions of these
  local f = assert(p.open(path))
  local which, n = arg[3], tonumber(arg[4])
  local fn = assert(steps[which], "steps: loop, gen or run")
  -- inside a phase, as the W1' loop runs: every f:pread is recorded into it
  p.phase("steps", function() fn(f, f:size() - 4096, n) end)
elseif mode == "putc" or mode == "getc" then
  local n = tonumber(arg[3])
  local f = assert(p.open(path, { write = mode == "putc", create = mode == "putc" }))
  if mode == "putc" then assert(f:truncate(0)) end
  local got
  local r = p.phase(mode, function() got = f[mode](f, n) end)
  f:close()  -- (outside the timing, as cchar's fclose)
  print(string.format("ops=1 bytes=%d seconds=%.6f bw=%.1f", got, r.seconds, got / r.seconds))
else
  error("bench.lua: unknown mode " .. tostring(mode))
end
