-- The figures fio's report needs: s:stdev(), p.run's sample_ms windows
-- (r.samples), p.parallel's values, p.rusage() and p.diskstats().
local T = ...
local p = require "platter"

local function scratch(size)
  local path = T.tmpdir() .. "/f.dat"
  return assert(p.open(path, { create = true, write = true, size = size })), path
end

-- run Lua code in a fresh platter on a simulated disk; its stdout (must succeed)
local function sim(preset, code, env)
  local dir = T.tmpdir()
  local out, err, rc = T.sh((env or "") .. " cd " .. T.q(dir) .. " && " .. T.q(T.bin) ..
    " --quiet --sim " .. preset .. " -e " .. T.q(code))
  if rc ~= 0 then error("platter --sim " .. preset .. " failed (" .. rc .. "): " .. out .. err, 2) end
  return out
end

-- the values printed as "k=v" words, as numbers
local function fields(line)
  local t = {}
  for k, v in line:gmatch("(%S+)=(%S+)") do t[k] = tonumber(v) or v end
  return t
end

T.test("stdev: equals the two-pass stdev of each I/O's time on a virtual clock", function()
  -- on the simulated disk's clock, p.now() around a pread is exactly its recorded latency
  local out = sim("hitachi-85mb-1988", [[
    local p = require "platter"
    local f = assert(p.open(p.scratch("sd.dat"), { create = true, write = true, size = "4m" }))
    local lat = {}
    local s = p.phase("reads", function()
      for i = 1, 200 do
        local t0 = p.now()
        f:pread(((i * 7919) % 1000) * 4096, 4096)
        lat[i] = p.now() - t0
      end
    end)
    local m = 0
    for _, x in ipairs(lat) do m = m + x end
    m = m / #lat
    local q = 0
    for _, x in ipairs(lat) do q = q + (x - m) ^ 2 end
    print(string.format("ops=%d stdev=%.17g ref=%.17g mean=%.17g",
      s.ops, s:stdev(), math.sqrt(q / (#lat - 1)), s:mean()))
    local one = p.phase("one", function() f:pread(0, 4096) end)
    print(string.format("one=%.17g", one:stdev()))
  ]])
  local t = fields(out:match("ops=[^\n]+"))
  T.eq(t.ops, 200, "ops")
  T.ok(t.stdev > 1000, "a seeking disk's reads spread: " .. t.stdev)
  T.near(t.stdev, t.ref, t.ref * 1e-6, "stdev against the two-pass reference")
  T.eq(fields(out:match("one=%S+")).one, 0, "one op: stdev 0")
end)

T.test("stdev: the merged stdev of p.parallel is the pooled stdev of the workers", function()
  local f = scratch("4m")
  local res = p.parallel(3, function(i)
    return p.run { file = f, engine = "null", pattern = "random", count = 2000 * i, seed = i }
  end)
  T.eq(#res.failed, 0, "failed")
  -- pool (n, mean, sd) of the workers: sum of squares of each about the grand mean
  local n, sum = 0, 0
  for i = 1, 3 do
    n = n + res[i].ops
    sum = sum + res[i]:mean() * res[i].ops
  end
  local mean, q = sum / n, 0
  for i = 1, 3 do
    local s = res[i]
    q = q + (s.ops - 1) * s:stdev() ^ 2 + s.ops * (s:mean() - mean) ^ 2
  end
  local want = math.sqrt(q / (n - 1))
  T.eq(res.merged.ops, 12000, "merged ops")
  T.ok(res[1]:stdev() > 0, "a worker's stdev")
  T.near(res.merged:stdev(), want, want * 1e-6, "merged stdev")
  -- s:merge in the script: the same sums
  local m = p.run { file = f, engine = "null", count = 10 }
  local before = m:stdev()
  m:merge(res.merged)
  T.ok(m:stdev() ~= before, "merge changed the stdev")
  f:close()
end)

T.test("samples: a 1 s job in 100 ms windows has 10 samples whose bytes add up", function()
  local f = scratch("4m")
  for _, qd in ipairs { 1, 8 } do
    local r = p.run { file = f, engine = "null", pattern = "random", op = "mix", seconds = 1,
      sample_ms = 100, qd = qd }
    local what = "qd " .. qd
    T.eq(#r.samples, 10, what .. ": samples")
    T.eq(r.samples_dropped, 0, what .. ": dropped")
    local rb, wb, ops = 0, 0, 0
    for i, w in ipairs(r.samples) do
      T.eq(w.t_ms, 100 * i, what .. ": t_ms of window " .. i)
      T.ok(w.rops > 0 and w.wops > 0, what .. ": both directions in window " .. i)
      T.ok(w.rlat_min <= w.rlat_max and w.wlat_min <= w.wlat_max, what .. ": min <= max")
      T.ok(w.rlat_sum >= w.rlat_min * w.rops and w.rlat_sum <= w.rlat_max * w.rops,
        what .. ": rlat_sum within min and max")
      T.eq(w.rbytes, w.rops * 4096, what .. ": rbytes")
      rb, wb, ops = rb + w.rbytes, wb + w.wbytes, ops + w.rops + w.wops
    end
    -- the job ended at its deadline, the 10th boundary: all but what completed past it
    T.ok(rb <= r.read.bytes and wb <= r.write.bytes, what .. ": no more than the job moved")
    T.ok(r.ops - ops <= qd, what .. ": only I/O in flight at the deadline is left out: " ..
      (r.ops - ops))
  end
  local r = p.run { file = f, engine = "null", count = 100 }
  T.eq(r.samples, nil, "no sample_ms: no samples")
  T.raises(function() p.run { file = f, engine = "null", count = 1, sample_ms = 0 } end,
    "sample_ms", "sample_ms = 0")
  T.raises(function() p.run { file = f, engine = "null", count = 1, sample_ms = "x" } end,
    "'sample_ms' must be a number", "sample_ms a string")
  f:close()
end)

T.test("samples: the last partial window is dropped; exact counts on a virtual clock", function()
  -- 100 IOPS from the end of the ramp: windows of 1 s hold 100 I/Os each; the
  -- 50 of the third, partial window are no sample (count includes the ramp's 50)
  local code = [[
    local p = require "platter"
    local f = assert(p.open(p.scratch("s.dat"), { create = true, write = true, size = "4m" }))
    local r = p.run { file = f, pattern = "random", count = 300, rate_iops = 100,
      sample_ms = 1000, ramp = 0.5 }
    local w = r.samples
    print(string.format("n=%d ops=%d r1=%d r2=%d t1=%s t2=%s", #w, r.ops, w[1].rops, w[2].rops,
      w[1].t_ms, w[2].t_ms))
    local g = p.run { file = f, seconds = 2, sample_ms = 250, rate_iops = 1000,
      gen = function(k) return "write", (k % 64) * 4096, 4096 end }
    local sum = 0
    for _, s in ipairs(g.samples) do sum = sum + s.wops end
    print(string.format("gn=%d gops=%d gsum=%d", #g.samples, g.ops, sum))
  ]]
  for _, env in ipairs { "", "PLATTER_NO_FFI=1" } do
    local out = sim("nvme", code, env)
    local t = fields(out:match("n=[^\n]+"))
    -- the ramp's I/Os are not counted: 250 issued, those due in the first 0.5 s left out
    T.eq(t.n, 2, env .. ": samples")
    T.eq(t.r1, 100, env .. ": first window")
    T.eq(t.r2, 100, env .. ": second window")
    T.eq(t.t1, 1000, env .. ": t_ms 1")
    T.eq(t.t2, 2000, env .. ": t_ms 2")
    local g = fields(out:match("gn=[^\n]+"))
    T.eq(g.gn, 8, env .. ": gen job samples")
    T.ok(g.gops - g.gsum <= 1 and g.gsum > 1900, env .. ": gen job ops in samples " .. g.gsum)
  end
end)

T.test("parallel: fn's second value comes back as res.values[i]", function()
  local res = p.parallel(2, function(i)
    local s = p.phase("w", function() end)
    if i == 2 then return s end
    return s, { i = i, big = 2 ^ 53 - 1, third = 1 / 3, s = "a\0b", yes = true, no = false,
      list = { 10, 20, { deep = { deeper = "x" } } }, [7] = "seven", [2.5] = "frac",
      mixed = { "first", key = "v" }, empty = {}, rusage = p.rusage() }
  end)
  T.eq(#res.failed, 0, "failed")
  local v = T.ok(res.values[1], "values[1]")
  T.eq(res.values[2], nil, "a worker that returned no values")
  T.eq(v.i, 1, "i")
  T.eq(v.big, 2 ^ 53 - 1, "2^53 - 1 keeps every digit")
  T.eq(v.third, 1 / 3, "1/3 keeps every bit")
  T.eq(v.s, "a\0b", "a string with a NUL")
  T.eq(v.yes, true, "true")
  T.eq(v.no, false, "false")
  T.eq(#v.list, 3, "list length")
  T.eq(v.list[2], 20, "list item")
  T.eq(v.list[3].deep.deeper, "x", "nested")
  T.eq(v[7], "seven", "a number key stays a number")
  T.eq(v[2.5], "frac", "a fractional key")
  T.eq(v.mixed[1], "first", "mixed table: array part")
  T.eq(v.mixed.key, "v", "mixed table: hash part")
  T.eq(next(v.empty), nil, "empty table")
  T.eq(type(v.rusage.minf), "number", "a worker's rusage")
  if math.type then T.eq(math.type(v.i), "integer", "an integer stays an integer") end

  local bad = p.parallel(2, function(i)
    local s = p.phase("w", function() end)
    if i == 1 then return s, { f = print } end
    local c = {}
    c.c = c
    return s, c
  end)
  T.eq(#bad.failed, 2, "unpackable values fail the worker")
  T.has(bad.failed[1].error, "a function", "function")
  T.has(bad.failed[2].error, "a cycle", "cycle")
  T.eq(bad[1], false, "no result for that worker")
  local notab = p.parallel(1, function() return p.phase("w", function() end), 42 end)
  T.has(notab.failed[1].error, "not a table", "a number as values")
end)

T.test("rusage: the fields are there and move with the work done", function()
  local a = p.rusage()
  for _, k in ipairs { "user", "sys", "ctx", "majf", "minf" } do
    T.eq(type(a[k]), "number", k)
    T.ok(a[k] >= 0, k .. " >= 0")
  end
  T.ok(a.minf > 0, "a process that ran has had minor faults")
  local x, t0 = 0, os.clock()
  while os.clock() - t0 < 0.2 do x = x + 1 end
  local junk = {}
  for i = 1, 200000 do junk[i] = { i } end
  local b = p.rusage()
  T.eq(#junk, 200000, "the allocation")
  T.ok(b.user + b.sys >= a.user + a.sys + 0.15, "0.2 s of CPU shows: " .. (b.user - a.user))
  T.ok(b.minf > a.minf, "allocating faults pages in")
  T.ok(b.ctx >= a.ctx, "ctx does not go back")
  -- a worker's own, not the parent's
  local res = p.parallel(1, function() return p.phase("w", function() end), p.rusage() end)
  T.ok(res.values[1].user < b.user, "the worker's CPU is its own")
  local out = sim("nvme", [[
    local r = require("platter").rusage()
    print(string.format("u=%s c=%s m=%s", r.user, r.ctx, r.minf))
  ]])
  T.has(out, "c=0 m=0", "the simulated host has no switches or faults")
end)

T.test("diskstats: /proc/diskstats in fio's fields, in the kernel's order", function()
  local fh = io.open("/proc/diskstats")
  if not fh then T.skip("no /proc/diskstats here") end
  fh:close()
  local d = T.ok(p.diskstats(), "diskstats")
  local names = { "reads", "read_merges", "read_sectors", "read_ticks", "writes",
    "write_merges", "write_sectors", "write_ticks", "in_flight", "io_ticks", "time_in_queue" }
  -- read again afterwards: every counter but in_flight only grows
  local after = {}
  for line in io.lines("/proc/diskstats") do
    local w = {}
    for x in line:gmatch("%S+") do w[#w + 1] = x end
    local v = {}
    for i = 1, 11 do v[i] = tonumber(w[3 + i]) end
    after[w[3]] = v
  end
  local n = 0
  for dev, s in pairs(d) do
    n = n + 1
    T.ok(after[dev], dev .. " is a device of /proc/diskstats")
    for i, k in ipairs(names) do
      T.eq(type(s[k]), "number", dev .. "." .. k)
      if k ~= "in_flight" then
        T.ok(s[k] <= after[dev][i], dev .. "." .. k .. " <= the later reading")
      end
    end
  end
  local m = 0
  for _ in pairs(after) do m = m + 1 end
  T.eq(n, m, "every device")
  -- sandboxed, too, and nil + message on the simulated disk
  local out = T.sh_ok(T.q(T.bin) .. " -e " .. T.q([[
    local p = require "platter"
    local d = p.diskstats()
    local n = 0
    for _ in pairs(d) do n = n + 1 end
    print("sandboxed " .. n)
  ]]))
  T.has(out, "sandboxed " .. m, "sandboxed")
  out = sim("nvme", [[print(select(2, require("platter").diskstats()))]])
  T.has(out, "diskstats: the sim target has no /proc/diskstats", "sim")
end)
