-- p.run's steady (fio's steady-state detection) on the simulated disk, whose
-- virtual clock makes the second a job reaches steady state exact; and
-- platter fio's steadystate report.
local T = ...

-- run Lua code in a fresh platter on a simulated disk; its stdout (must succeed)
local function sim(preset, code)
  local dir = T.tmpdir()
  local out, err, rc = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " --quiet --sim " .. preset ..
    " -e " .. T.q("local p = require 'platter'\n" ..
      "local f = assert(p.open(p.scratch('s.dat'), { create = true, write = true, size = '64m' }))\n" ..
      code))
  if rc ~= 0 then error("platter --sim " .. preset .. " failed (" .. rc .. "): " .. out .. err, 2) end
  return out
end

local function words(out)
  local t = {}
  for k, v in out:gmatch("(%S+)=(%S+)") do t[k] = tonumber(v) or v end
  return t
end

local SHOW = [[
  local s = r.steady
  print(string.format("stopped=%s seconds=%.6f attained=%s full=%s samples=%d crit=%.17g slope=%.17g " ..
    "dev=%.17g imean=%d bmean=%d iops=%s bw=%s", r.stopped, r.seconds, tostring(s.attained),
    tostring(s.full), s.samples, s.criterion, s.slope, s.deviation, s.iops_mean, s.bw_mean,
    table.concat(s.iops, ","), table.concat(s.bw, ",")))
]]

T.test("steady: an even rate is steady once the window fills, and the job stops there", function()
  local w = words(sim("nvme", [[
    local r = p.run { file = f, bs = "4k", seconds = 10, rate_iops = 1000, progress = false,
      steady = { kind = "iops", limit = 5, pct = true, duration_s = 2 } }
  ]] .. SHOW))
  T.eq(w.stopped, "steady", "stopped on it")
  T.eq(w.attained, "true", "attained")
  T.eq(w.samples, 2, "two one-second samples")
  T.ok(w.seconds >= 2 and w.seconds < 2.01, "stopped at the second second: " .. w.seconds)
  T.eq(w.iops, "1000,1000", "the window, oldest first")
  T.eq(w.bw, "4096000,4096000", "bytes per second")
  T.eq(w.crit, 0, "no deviation")
  T.eq(w.imean, 1000, "iops mean")
end)

T.test("steady: ramp_s delays the first sample to the second after it", function()
  local w = words(sim("nvme", [[
    local r = p.run { file = f, bs = "4k", seconds = 10, rate_iops = 500, progress = false,
      steady = { kind = "bw", limit = 1, duration_s = 3, ramp_s = 2 } }
  ]] .. SHOW))
  T.eq(w.stopped, "steady", "stopped on it")
  T.eq(w.samples, 3, "three samples")
  -- seconds 3, 4 and 5 (those ending at ramp_s + 1 or later)
  T.ok(w.seconds >= 5 and w.seconds < 5.01, "stopped at 5 s: " .. w.seconds)
  T.eq(w.bw, "2048000,2048000,2048000", "bw")
end)

T.test("steady: a limit never met runs the job out; the window is the last seconds", function()
  local w = words(sim("nvme", [[
    local r = p.run { file = f, bs = "4k", seconds = 5, rate_iops = 200, progress = false,
      steady = { kind = "iops", limit = 0, duration_s = 3 } }
  ]] .. SHOW))
  T.eq(w.stopped, "time", "ran its time")
  T.eq(w.attained, "false", "not attained: 0 is never below 0")
  T.eq(w.full, "true", "the window filled")
  -- the second ending at the deadline has no completion at or past it: not judged
  T.eq(w.samples, 4, "seconds 1-4")
  T.eq(w.iops, "200,200,200", "the last three")
end)

T.test("steady: before the window fills there is no criterion, and zeros pad it", function()
  local w = words(sim("nvme", [[
    local r = p.run { file = f, bs = "4k", seconds = 2.5, rate_iops = 100, progress = false,
      steady = { kind = "iops_slope", limit = 10, pct = true, duration_s = 4 } }
  ]] .. SHOW))
  T.eq(w.stopped, "time", "ran its time")
  T.eq(w.full, "false", "not full")
  T.eq(w.iops, "100,100,0,0", "two samples, then zeros")
  T.eq(w.imean, 50, "fio's mean counts the zeros")
end)

T.test("steady: a slope criterion is fio's formula over the window it reports", function()
  -- random reads on a 1999 disk: the IOPS vary from second to second (125, 126, 116, ...)
  local w = words(sim("ata-5400-1999", [[
    local r = p.run { file = f, bs = "4k", pattern = "random", seconds = 60, progress = false,
      steady = { kind = "iops_slope", limit = 1, pct = true, duration_s = 5 } }
  ]] .. SHOW))
  T.eq(w.stopped, "steady", "reached")
  local y, n = {}, 5
  for v in tostring(w.iops):gmatch("%d+") do y[#y + 1] = tonumber(v) end
  T.eq(#y, n, "five samples")
  local sx, sxx, sy, sxy = 0, 0, 0, 0
  for i = 1, n do
    local x = i - 1
    sx, sxx, sy, sxy = sx + x, sxx + x * x, sy + y[i], sxy + x * y[i]
  end
  local slope = (sxy - sx * sy / n) / (sxx - sx * sx / n)
  T.ok(math.abs(slope - w.slope) < 1e-9, "slope " .. w.slope .. " vs " .. slope)
  local crit = 100 * slope / math.floor(sy / n)
  T.ok(math.abs(crit - w.crit) < 1e-9, "criterion over the integer mean: " .. w.crit .. " vs " .. crit)
  T.ok(math.abs(w.crit) < 1, "below the limit")
  T.ok(w.samples > n, "the window slid before it was met: " .. w.samples)
  T.ok(w.slope ~= 0, "a slope that is not 0")
  T.ok(math.abs(crit - 100 * slope / (sy / n)) > 1e-6, "the integer mean makes a difference here")
end)

T.test("steady: wrong tables raise", function()
  local p = require "platter"
  local f = assert(p.open(T.tmpdir() .. "/e.dat", { create = true, write = true, size = "1m" }))
  local function run(st) return function() p.run { file = f, count = 1, progress = false, steady = st } end end
  T.raises(run({ kind = "lat", limit = 1, duration_s = 2 }), "unknown kind", "an unknown kind")
  T.raises(run({ kind = "iops", duration_s = 2 }), "needs a limit", "no limit")
  T.raises(run({ kind = "iops", limit = 1, duration_s = 0 }), "duration_s", "duration 0")
  T.raises(run({ kind = "iops", limit = 1, duration_s = 1.5 }), "duration_s", "a fraction")
  T.raises(run({ kind = "iops", limit = 1, duration_s = 2, window = 3 }), "takes kind", "an unknown key")
  T.raises(run(5), "must be a table", "not a table")
  local r = p.run { file = f, count = 1, progress = false }
  T.eq(r.steady, nil, "no r.steady without steady")
  f:close()
end)

T.test("platter fio: steadystate= stops the job and reports it as fio does", function()
  local dir = T.tmpdir()
  local job = dir .. "/ss.fio"
  local fh = assert(io.open(job, "w"))
  fh:write("[ss]\nioengine=psync\nrw=read\nbs=4k\nsize=16m\ntime_based\nruntime=20\n" ..
    "rate_iops=300\nsteadystate=iops_slope:0.5%\nss_dur=3\n")
  fh:close()
  local out, err, rc = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) ..
    " --quiet --sim nvme fio --output-format=normal,json " .. T.q(job))
  T.eq(rc, 0, "ran: " .. err)
  T.has(out, "  steadystate  : attained=yes, bw=1200KiB/s (1200kB/s), iops=300, iops slope=0.000%\n",
    "the normal report's line")
  T.has(out, '"ss" : "iops_slope:0.500000%"', "the criterion as fio writes it")
  T.has(out, '"attained" : 1', "attained")
  T.has(out, '"bw_mean" : 1228800,', "an integer mean")
  T.has(out, "run=3000-3000msec", "stopped at 3 s, not 20")
end)

-- p.steady_group: jobs judged as one (fio's group_reporting)
local GROUP_SHOW = [[
  local function show(i, r)
    local s = r.steady
    print(string.format("stopped%d=%s seconds%d=%.6f attained%d=%s iops%d=%s ops%d=%d", i, r.stopped, i,
      r.seconds, i, tostring(s.attained), i, table.concat(s.iops, ","), i, r.ops))
  end
  for i = 1, 2 do show(i, res.values[i]) end
]]

T.test("steady group: on the simulated disk the workers run one after another, so the first judges alone " ..
  "and the second, joining once it holds, stops at once", function()
  local w = words(sim("nvme", [[
    local ss = { kind = "iops", limit = 5, pct = true, duration_s = 2 }
    local g = p.steady_group(2, ss)
    local res = p.parallel(2, function(i)
      local r = p.run { file = f, bs = "4k", seconds = 10, rate_iops = 1000, progress = false,
        steady = { kind = ss.kind, limit = ss.limit, pct = ss.pct, duration_s = 2, group = g, member = i } }
      return r, { stopped = r.stopped, seconds = r.seconds, steady = r.steady, ops = r.ops }
    end)
  ]] .. GROUP_SHOW))
  T.eq(w.stopped1, "steady", "the first stopped on it")
  T.ok(w.seconds1 >= 2 and w.seconds1 < 2.01, "at 2 s: " .. w.seconds1)
  T.eq(w.iops1, "1000,1000", "the group's window: the first's seconds alone")
  T.eq(w.stopped2, "steady", "the second stopped on the group's state")
  T.ok(w.ops2 <= 1, "the second did (almost) nothing: " .. w.ops2)
  T.eq(w.attained2, "true", "and reports the group's window")
  T.eq(w.iops2, "1000,1000", "the same window")
end)

T.test("steady group: workers that run together are judged on their summed seconds and stop together", function()
  local dir = T.tmpdir()
  local out, err, rc = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " --quiet -e " .. T.q([[
    local p = require 'platter'
    local path = p.scratch('g.dat')
    assert(p.open(path, { create = true, write = true, size = '1m' })):close()
    local ss = { kind = "iops", limit = 10, pct = true, duration_s = 2 }
    local g = p.steady_group(2, ss)
    local res = p.parallel(2, function(i)
      local f = assert(p.open(path))
      local r = p.run { file = f, bs = "4k", engine = "null", seconds = 10, rate_iops = 500 * i,
        progress = false, steady = { kind = "iops", limit = 10, pct = true, duration_s = 2, group = g, member = i } }
      return r, { stopped = r.stopped, seconds = r.seconds, steady = r.steady, ops = r.ops }
    end)
  ]] .. GROUP_SHOW))
  T.eq(rc, 0, "ran: " .. out .. err)
  local w = words(out)
  T.eq(w.stopped1, "steady", "the first stopped on it")
  T.eq(w.stopped2, "steady", "the second too")
  T.ok(w.seconds1 < 4 and w.seconds2 < 4, "both well before 10 s: " .. w.seconds1 .. ", " .. w.seconds2)
  T.ok(math.abs(w.seconds1 - w.seconds2) < 0.5, "together: " .. w.seconds1 .. ", " .. w.seconds2)
  T.eq(w.iops1, w.iops2, "one window")
  for v in tostring(w.iops1):gmatch("%d+") do
    -- 500 + 1000 a second: the sum, not either worker's rate
    T.ok(tonumber(v) > 1300 and tonumber(v) < 1700, "a summed second: " .. v)
  end
end)

T.test("steady group: wrong uses raise", function()
  local p = require "platter"
  local f = assert(p.open(T.tmpdir() .. "/e.dat", { create = true, write = true, size = "1m" }))
  local ss = { kind = "iops", limit = 1, duration_s = 2 }
  local g = p.steady_group(2, ss)
  local function run(st) return function() p.run { file = f, count = 1, progress = false, steady = st } end end
  T.raises(run({ kind = "bw", limit = 1, duration_s = 2, group = g, member = 1 }), "its group's kind",
    "other criteria than the group's")
  T.raises(run({ kind = "iops", limit = 1, duration_s = 2, group = g, member = 3 }), "within 1..2",
    "a member past the group")
  T.raises(run({ kind = "iops", limit = 1, duration_s = 2, group = g }), "within 1..2", "no member")
  T.raises(run({ kind = "iops", limit = 1, duration_s = 2, member = 1 }), "needs 'steady.group'", "no group")
  T.raises(run({ kind = "iops", limit = 1, duration_s = 2, group = f, member = 1 }), "p.steady_group",
    "not a group")
  T.raises(function() p.steady_group(0, ss) end, "1..1024", "no members")
  T.raises(function() p.steady_group(2, { kind = "iops", duration_s = 2 }) end, "needs a limit", "no limit")
  p.run { file = f, count = 1, progress = false, steady = { kind = "iops", limit = 1, duration_s = 2,
    group = g, member = 1 } }
  T.raises(run({ kind = "iops", limit = 1, duration_s = 2, group = g, member = 1 }), "has run already",
    "a member twice")
  f:close()
end)

T.test("platter fio: steadystate over a group_reporting group judges the group's sum", function()
  local dir = T.tmpdir()
  local job = dir .. "/ssg.fio"
  local fh = assert(io.open(job, "w"))
  fh:write("[ssg]\nioengine=psync\nrw=read\nbs=4k\nsize=16m\ntime_based\nruntime=20\nnumjobs=2\n" ..
    "group_reporting\nrate_iops=300\nsteadystate=iops:1%\nss_dur=3\n")
  fh:close()
  local out, err, rc = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) ..
    " --quiet --sim nvme fio --output-format=normal,json " .. T.q(job))
  T.eq(rc, 0, "ran: " .. err)
  T.has(out, "ssg: (groupid=0, jobs=2)", "one group of two")
  T.has(out, "  steadystate  : attained=yes, bw=1200KiB/s (1200kB/s), iops=300, iops mean dev=0.000%\n",
    "the group's line (one worker at a time on the simulated disk)")
  T.has(out, '"attained" : 1', "attained")
  T.has(out, "run=3000-3000msec", "stopped at 3 s, not 20")
  T.has(out, "issued rwts: total=901,", "the second job stopped at its first I/O")
end)
