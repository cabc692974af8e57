-- Time series (issue 16): p.phase's and p.run's `interval`, --interval, s.series,
-- the series in the JSON record and `platter plot --kind series`. On the simulated
-- disk (a virtual clock) every figure is exact and repeatable.
local T = ...
local cjson = require "cjson"

-- run Lua code in a fresh platter on a simulated disk; its stdout (must succeed)
local function sim(preset, code, opts)
  local dir = T.tmpdir()
  local out, err, rc = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " --quiet --sim " ..
    preset .. " " .. (opts or "") .. " -e " .. T.q(code))
  if rc ~= 0 then error("platter --sim " .. preset .. " failed (" .. rc .. "): " .. out .. err, 2) end
  return out, dir
end

-- the values printed as "k=v" words, as numbers
local function fields(line)
  local t = {}
  for k, v in line:gmatch("(%S+)=(%S+)") do t[k] = tonumber(v) or v end
  return t
end

-- what the series of a stats object sums to, printed as "k=v" words
local SUMS = [[
  local function sums(tag, s)
    local n, b, last = 0, 0, 0
    for _, x in ipairs(s.series) do
      assert(x.t > last, "t increases")
      last = x.t
      n, b = n + x.ops, b + x.bytes
    end
    print(string.format("%s n=%d ops=%d sops=%d bytes=%d sbytes=%d last=%.9f secs=%.9f", tag,
      #s.series, s.ops, n, s.bytes, b, last, s.seconds))
  end
]]

T.test("series: a phase's and a p.run's intervals sum exactly to their ops and bytes", function()
  local out = sim("ata-5400-1999", SUMS .. [[
    local p = require "platter"
    local f = assert(p.open(p.scratch("s.dat"), { create = true, write = true, size = "8m" }))
    local s = p.phase("mixed", function()
      for i = 1, 300 do f:pread(((i * 7919) % 2000) * 4096, 4096) end
      f:fsync()
      p.run { file = f, op = "read", pattern = "random", bs = "4k", count = 500 }
    end, { interval = "50ms" })
    sums("phase", s)
    local r = p.run { file = f, op = "write", pattern = "random", bs = "8k", seconds = 0.5,
      interval = 0.1 }
    sums("run", r)
    local q = p.run { file = f, op = "read", bs = "4k", count = 100 }
    print("plain", tostring(q.series), tostring(p.phase("none", function() f:pread(0, 1) end).series))
  ]])
  local ph = fields(out:match("phase [^\n]+"))
  T.ok(ph.n > 3, "several intervals: " .. ph.n)
  T.eq(ph.ops, 801, "the phase's ops (fsync included)")
  T.eq(ph.sops, ph.ops, "the phase's series sums to its ops")
  T.eq(ph.sbytes, ph.bytes, "the phase's series sums to its bytes")
  T.near(ph.last, ph.secs, 1e-9, "the last interval ends with the phase")
  local r = fields(out:match("run [^\n]+"))
  T.eq(r.n, 5, "0.5 s in 100 ms intervals")
  T.eq(r.sops, r.ops, "the run's series sums to its ops")
  T.eq(r.sbytes, r.bytes, "the run's series sums to its bytes")
  T.near(r.last, 0.5, 1e-9, "the last interval ends at the time limit")
  T.has(out, "plain\tnil\tnil", "no interval: no series")
end)

T.test("series: each interval's percentiles are those of its own I/Os", function()
  local out = sim("ata-5400-1999", [[
    local p = require "platter"
    local f = assert(p.open(p.scratch("s.dat"), { create = true, write = true, size = "64m" }))
    local t0, done = nil, {}
    local s = p.phase("reads", function()
      t0 = p.now()
      for i = 1, 400 do
        local a = p.now()
        f:pread(((i * 104729) % 16000) * 4096, 4096)
        local b = p.now()
        done[i] = { t = b - t0, lat = b - a }
      end
    end, { interval = "200ms" })
    -- the histogram's rule (src/core/stats.c): the bucket's value of the nearest-rank sample
    local function value(x)
      if x < 128 then return x end
      local msb = 0
      while 2 ^ (msb + 1) <= x do msb = msb + 1 end
      local w = 2 ^ (msb - 6)
      return math.floor(x / w) * w + math.floor(w / 2)
    end
    local function pct(l, q)
      local rank = math.max(1, math.ceil(q * #l / 100 - 1e-9))
      local v = value(l[rank])
      return math.min(math.max(v, l[1]), l[#l])
    end
    local k, bad = 1, 0
    for n, x in ipairs(s.series) do
      local lats, sum = {}, 0
      while done[k] and done[k].t <= x.t * 1e9 + 0.5 do
        lats[#lats + 1] = done[k].lat
        sum = sum + done[k].lat
        k = k + 1
      end
      table.sort(lats)
      if #lats ~= x.ops or (#lats > 0 and (pct(lats, 50) ~= x.lat_p50 or pct(lats, 99) ~= x.lat_p99
          or lats[1] ~= x.lat_min or lats[#lats] ~= x.lat_max
          or math.abs(sum / #lats - x.lat_mean) > 1e-6 * x.lat_mean)) then
        bad = bad + 1
        print(string.format("interval %d: ops %d/%d p50 %s/%s p99 %s/%s", n, #lats, x.ops,
          tostring(lats[1] and pct(lats, 50)), x.lat_p50, tostring(lats[1] and pct(lats, 99)), x.lat_p99))
      end
    end
    print(string.format("n=%d bad=%d left=%d", #s.series, bad, #done - k + 1))
    -- one interval longer than the phase: its figures are the phase's own
    local one = p.phase("one", function()
      for i = 1, 50 do f:pread(((i * 7919) % 16000) * 4096, 4096) end
    end, { interval = "1h" })
    local x = one.series[1]
    print(string.format("one n=%d p50=%d/%d p99=%d/%d max=%d/%d", #one.series, x.lat_p50,
      one:percentile(50), x.lat_p99, one:percentile(99), x.lat_max, one:max()))
  ]])
  local t = fields(out:match("n=%d+ bad[^\n]+"))
  T.ok(t.n >= 3, "several intervals: " .. t.n)
  T.eq(t.bad, 0, "intervals whose figures differ from their I/Os':\n" .. out)
  T.eq(t.left, 0, "every I/O in an interval")
  local o = out:match("one [^\n]+")
  T.has(o, "one n=1 ", "one interval")
  local a, b = o:match("p50=(%d+)/(%d+)")
  T.eq(a, b, "p50 of one interval = s:percentile(50)")
  a, b = o:match("p99=(%d+)/(%d+)")
  T.eq(a, b, "p99 of one interval = s:percentile(99)")
end)

T.test("series: --interval gives every phase and run one, kept in the JSON record", function()
  local dir = T.tmpdir()
  local json = dir .. "/r.json"
  local out = sim("nvme", SUMS .. [[
    local p = require "platter"
    local f = assert(p.open(p.scratch("s.dat"), { create = true, write = true, size = "8m" }))
    local a = p.phase("a", function() for i = 0, 2047 do f:pwrite((i % 2048) * 4096, 4096) end end)
    sums("a", a)
    local r = p.run { name = "b", file = f, op = "read", bs = "4k", seconds = 0.02 }
    sums("b", r)
    local c = p.phase("c", function() f:pread(0, 4096) end, { interval = false })
    print("c", tostring(c.series))
  ]], "--interval 5ms --json " .. T.q(json))
  local a = fields(out:match("a [^\n]+"))
  T.ok(a.n >= 1 and a.sops == 2048 and a.sbytes == a.bytes, "phase a: " .. out)
  local b = fields(out:match("b [^\n]+"))
  T.eq(b.n, 4, "run b: 20 ms in 5 ms intervals")
  T.eq(b.sops, b.ops, "run b sums")
  T.has(out, "c\tnil", "interval = false: none")
  local doc = cjson.decode(T.read(json))
  local seen = {}
  for _, ph in ipairs(doc.phases) do seen[ph.name] = ph end
  T.ok(seen.a.series and seen.b.series, "the record holds the series")
  T.eq(seen.c.series, nil, "none for c")
  T.eq(#seen.b.series, 4, "b's intervals in the record")
  local n = 0
  for _, x in ipairs(seen.b.series) do
    n = n + x.ops
    T.ok(x.t and x.iops and x.bw and x.lat_p50 and x.lat_p99 and x.lat_mean and x.lat_max, "fields")
  end
  T.eq(n, seen.b.ops, "the record's series sums to the record's ops")
end)

T.test("series: bad intervals are refused", function()
  local dir = T.tmpdir()
  local out, err, rc = T.sh(T.q(T.bin) .. " --interval 0 -e 'print(1)'")
  T.eq(rc, 2, "--interval 0: a usage error " .. out)
  T.has(err, "--interval", "names the option")
  local _, err2, rc2 = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) ..
    [[ --sim nvme -e 'require"platter".phase("x", function() end, {interval = "5 parsecs"})']])
  T.ok(rc2 ~= 0, "a bad interval string raises")
  T.has(err2, "interval", "names the field")
end)

T.test("series: platter plot --kind series draws throughput and p99 over time", function()
  local _, _, rc = T.sh("command -v gnuplot")
  if rc ~= 0 then T.skip("gnuplot not found") end
  local dir = T.tmpdir()
  local json = dir .. "/r.json"
  sim("nvme", [[
    local p = require "platter"
    local f = assert(p.open(p.scratch("s.dat"), { create = true, write = true, size = "8m" }))
    p.run { name = "seq read", file = f, op = "read", bs = "4k", seconds = 0.05 }
    p.run { name = "rand write", file = f, op = "write", pattern = "random", bs = "4k", seconds = 0.05 }
  ]], "--interval 5ms --json " .. T.q(json))
  local svg = dir .. "/s.svg"
  local out, err, code = T.sh(T.q(T.bin) .. " plot " .. T.q(json) .. " --kind series -o " .. T.q(svg))
  T.eq(code, 0, "plot: " .. out .. err)
  local text = T.read(svg)
  T.has(text, "<svg", "an svg")
  T.has(text, "seq read", "the phase is in the legend")
  -- a record without any series: a clear error
  local json2 = dir .. "/n.json"
  sim("nvme", [[
    local p = require "platter"
    local f = assert(p.open(p.scratch("s.dat"), { create = true, write = true, size = "1m" }))
    p.run { file = f, op = "read", bs = "4k", count = 10 }
  ]], "--json " .. T.q(json2))
  _, err, code = T.sh(T.q(T.bin) .. " plot " .. T.q(json2) .. " --kind series -o " .. T.q(svg))
  T.ok(code ~= 0, "no series: fails")
  T.has(err, "interval", "says how to get one")
end)
