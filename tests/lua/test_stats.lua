-- Phases and their statistics: p.phase in both forms, nesting, the fields,
-- latency percentiles and their consistency, merge, buckets, errors.
local T = ...
local p = require "platter"

local function scratch(size)
  local d = T.tmpdir()
  local path = d .. "/s.dat"
  return assert(p.open(path, { create = true, write = true, size = size or "1m" })), path
end

T.test("phase with a function records its I/O and returns stats", function()
  local f = scratch()
  local arg_seen
  local s = p.phase("reads", function(st)
    arg_seen = st
    for i = 0, 99 do f:pread(i * 4096, 4096) end
  end)
  T.eq(s.name, "reads", "name")
  T.eq(s.ops, 100, "ops")
  T.eq(s.bytes, 100 * 4096, "bytes")
  T.eq(arg_seen, s, "the function receives its stats object")
  T.eq(s.running, false, "stopped after the function")
  f:pread(0, 4096)
  T.eq(s.ops, 100, "I/O after the phase is not recorded")
  f:close()
end)

T.test("phase start/stop form: s:stop() ends recording", function()
  local f = scratch()
  local s = p.phase("manual")
  T.eq(s.running, true, "running")
  for i = 0, 9 do f:pwrite(i * 512, 512) end
  local live = s.ops
  T.eq(live, 10, "live ops while running")
  T.eq(s:stop(), s, "stop returns the stats")
  T.eq(s.running, false, "stopped")
  f:pread(0, 512)
  T.eq(s.ops, 10, "not recording after stop")
  T.eq(s.bytes, 5120, "bytes")
  local secs = s.seconds
  T.ok(secs > 0, "seconds > 0")
  p.sleep(0.01)
  T.eq(s.seconds, secs, "seconds frozen after stop")
  s:stop()  -- idempotent
  T.eq(s.ops, 10, "second stop changes nothing")
  f:close()
end)

T.test("nested phases both record; the outer one also sees the inner I/O", function()
  local f = scratch()
  local inner
  local outer = p.phase("outer", function()
    f:pread(0, 4096)
    inner = p.phase("inner", function()
      f:pread(4096, 4096)
      f:pread(8192, 4096)
    end)
    f:pread(12288, 4096)
  end)
  T.eq(inner.ops, 2, "inner ops")
  T.eq(outer.ops, 4, "outer ops")
  T.eq(outer.bytes, 4 * 4096, "outer bytes")
  T.ok(outer.seconds >= inner.seconds, "outer lasts at least as long as inner")
  f:close()
end)

T.test("stats fields and their relations", function()
  local f = scratch()
  local s = p.phase("fields", function()
    for i = 0, 255 do f:pread(i * 4096, 4096) end
  end)
  for _, k in ipairs { "ops", "bytes", "seconds", "user", "sys", "cpu_pct", "iops", "bw",
                       "mbps", "mibps", "errors" } do
    T.eq(type(s[k]), "number", "type of " .. k)
  end
  T.eq(type(s.errno), "table", "errno is a table")
  T.eq(next(s.errno), nil, "no errnos")
  T.eq(s.errors, 0, "errors")
  T.ok(s.seconds > 0, "seconds")
  T.ok(s.user >= 0 and s.sys >= 0, "cpu times")
  local rel = 1e-9
  T.near(s.iops, s.ops / s.seconds, s.iops * rel, "iops = ops / seconds")
  T.near(s.bw, s.bytes / s.seconds, s.bw * rel, "bw = bytes / seconds")
  T.near(s.mbps, s.bw / 1e6, s.mbps * rel, "mbps")
  T.near(s.mibps, s.bw / 1048576, s.mibps * rel, "mibps")
  T.near(s.cpu_pct, (s.user + s.sys) / s.seconds * 100, s.cpu_pct * 1e-6 + 1e-9, "cpu_pct")
  T.has(tostring(s), "platter.stats (fields: 256 ops", "tostring")
  f:close()
end)

T.test("an empty phase has zeros, not NaNs", function()
  local s = p.phase("empty", function() end)
  T.eq(s.ops, 0, "ops")
  T.eq(s.bytes, 0, "bytes")
  T.eq(s:percentile(50), 0, "p50")
  T.eq(s:min(), 0, "min")
  T.eq(s:max(), 0, "max")
  T.eq(s:mean(), 0, "mean")
  T.ok(s.iops == 0 and s.bw == 0, "rates")
end)

T.test("percentile/mean/min/max are consistent", function()
  local f = scratch()
  local s = p.phase("lat", function()
    for i = 0, 255 do f:pread(i * 4096, 4096) end
    f:pwrite(0, 4096)
    f:fsync()  -- one slower op (it has dirty data to write)
  end)
  local mn, mx, mean = s:min(), s:max(), s:mean()
  local p0, p50, p99, p100 = s:percentile(0), s:percentile(50), s:percentile(99), s:percentile(100)
  T.ok(mn > 0, "min > 0")
  T.ok(mn <= p0, "min <= p0 (" .. mn .. ", " .. p0 .. ")")
  T.ok(p0 <= p50, "p0 <= p50")
  T.ok(p50 <= p99, "p50 <= p99")
  T.ok(p99 <= p100, "p99 <= p100")
  T.ok(p100 <= mx, "p100 <= max (" .. p100 .. ", " .. mx .. ")")
  T.ok(mn <= mean and mean <= mx, "min <= mean <= max")
  T.ok(mx >= p50 * 1.5, "the fsync stands out as the max")
  -- percentiles are within the histogram's relative error of the truth
  T.near(p100, mx, mx / 64, "p100 ~ max")
  T.near(p0, mn, mn / 64 + 1, "p0 ~ min")
  T.eq(s.lat, s, "s.lat is the stats itself")
  T.eq(s.lat:percentile(99), p99, "s.lat:percentile(99)")
  f:close()
end)

T.test("percentile outside 0..100 raises", function()
  local s = p.phase("x", function() end)
  T.raises(function() s:percentile(101) end, "percentile must be within 0..100")
  T.raises(function() s:percentile(-1) end, "percentile must be within 0..100")
  T.raises(function() s:percentile("high") end, "number expected")
end)

T.test("merge sums ops, bytes and errors, and widens min/max", function()
  local f, path = scratch()
  local a = p.phase("a", function() for i = 0, 9 do f:pread(i * 4096, 4096) end end)
  local b = p.phase("b", function()
    for i = 0, 4 do f:pwrite(i * 512, 512) end
    f:fsync()
  end)
  local r = assert(p.open(path))
  local c = p.phase("c", function() r:pwrite(0, 1) end)
  r:close()
  local amin, amax, bmin, bmax = a:min(), a:max(), b:min(), b:max()
  T.eq(a:merge(b), a, "merge returns the target")
  T.eq(a.ops, 16, "ops summed")
  T.eq(a.bytes, 10 * 4096 + 5 * 512, "bytes summed")
  T.eq(a:min(), math.min(amin, bmin), "min")
  T.eq(a:max(), math.max(amax, bmax), "max")
  a:merge(c)
  T.eq(a.errors, 1, "errors summed")
  T.eq(a.errno[9], 1, "errno table merged")
  T.eq(b.ops, 6, "the source is unchanged")
  local total = 0
  for _, bk in ipairs(a:buckets()) do total = total + bk[3] end
  T.eq(total, 16, "merged histogram holds every op")
  T.raises(function() a:merge({}) end, "platter.stats expected")
  f:close()
end)

T.test("buckets() sums to ops and is ordered", function()
  local f = scratch()
  local s = p.phase("h", function()
    for i = 0, 199 do f:pread((i % 256) * 4096, 4096) end
    f:fdatasync()
  end)
  local total, last = 0, -1
  for _, bk in ipairs(s:buckets()) do
    local lo, hi, n = bk[1], bk[2], bk[3]
    T.ok(lo <= hi, "lo <= hi")
    T.ok(lo > last, "buckets in order, not overlapping")
    T.ok(n > 0, "only non-empty buckets")
    last = hi
    total = total + n
  end
  T.eq(total, s.ops, "bucket counts sum to ops")
  T.eq(total, 201, "ops")
  local b = s:buckets()
  T.ok(b[1][1] <= s:min() and s:min() <= b[1][2], "min falls in the first bucket")
  T.ok(b[#b][1] <= s:max() and s:max() <= b[#b][2], "max falls in the last bucket")
  f:close()
end)

T.test("an error inside the phase function propagates; the phase stops", function()
  local f = scratch()
  local seen
  local ok, err = pcall(p.phase, "boom", function(s)
    seen = s
    f:pread(0, 4096)
    error("boom in phase")
  end)
  T.eq(ok, false, "pcall result")
  T.has(err, "boom in phase", "message passed on untouched")
  T.eq(seen.running, false, "phase stopped")
  T.eq(seen.ops, 1, "recorded before the error")
  f:pread(0, 4096)
  T.eq(seen.ops, 1, "not recording after the error")
  -- a table error is passed on as the same table
  local obj = { code = 7 }
  local ok2, err2 = pcall(p.phase, "boom2", function() error(obj) end)
  T.eq(ok2, false, "pcall result")
  T.eq(err2, obj, "error object")
  f:close()
end)

T.test("an error in a nested phase stops both when it unwinds both", function()
  local f = scratch()
  local inner, outer
  pcall(p.phase, "outer", function(o)
    outer = o
    p.phase("inner", function(i)
      inner = i
      f:pread(0, 512)
      error("x")
    end)
  end)
  T.eq(inner.running, false, "inner stopped")
  T.eq(outer.running, false, "outer stopped")
  f:pread(0, 512)
  T.eq(outer.ops, 1, "outer no longer recording")
  f:close()
end)

T.test("an errored I/O counts in errors and errno, not in ops", function()
  local _, path = scratch()
  local r = assert(p.open(path))  -- read-only
  local s = p.phase("bad", function()
    T.eq(r:pwrite(0, 4096), nil, "pwrite on a read-only file")
    T.eq(r:write(4096), nil, "write on a read-only file")
    T.eq(r:pread(0, 4096), 4096, "a good read")
  end)
  T.eq(s.errors, 2, "errors")
  T.eq(s.errno[9], 2, "errno[EBADF]")
  T.eq(s.ops, 1, "ops")
  T.eq(s.bytes, 4096, "bytes")
  r:close()
end)

T.test("p.phase argument checks", function()
  T.raises(function() p.phase() end, "string expected")
  T.raises(function() p.phase("x", 42) end, "function expected")
end)
