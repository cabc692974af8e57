-- p.run's io_samples (each I/O's bandwidth, fio's per-I/O bw and iops
-- samples) on the simulated disk, against the bw log of the same run: r.io_bw
-- holds the moments of the log's values, per direction; and platter fio's
-- report of them, a group's summed as fio's sum_stat sums them.
local T = ...
local cjson = require "cjson"

-- run Lua code in a fresh platter on the simulated disk, in dir; its stdout
local function sim(dir, code)
  local out, err, rc = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " --quiet --sim nvme -e " ..
    T.q("local p = require 'platter'\n" ..
      "local f = assert(p.open(p.scratch('s.dat'), { create = true, write = true, size = '16m' }))\n" ..
      code))
  if rc ~= 0 then error("platter --sim nvme failed (" .. rc .. "): " .. out .. err, 2) end
  return out
end

-- a log's values per direction: { [0] = {...}, [1] = {...} }
local function log_values(path)
  local v = { [0] = {}, [1] = {} }
  for line in assert(io.open(path)):lines() do
    local x, d = line:match("^%d+, (%d+), (%d)")
    T.ok(x, "a log line: " .. line)
    local t = v[tonumber(d)]
    t[#t + 1] = tonumber(x)
  end
  return v
end

-- n, min, max, mean, S (the sum of squared deviations: two passes, the second
-- summed with Neumaier's compensation, so its error does not grow with n); the
-- sum of the values is exact (integers below 2^53)
local function moments(xs)
  local n, min, max, sum = #xs, math.huge, -math.huge, 0
  for _, x in ipairs(xs) do
    min, max, sum = math.min(min, x), math.max(max, x), sum + x
  end
  local mean, S, c = sum / n, 0, 0
  for _, x in ipairs(xs) do
    local y = (x - mean) ^ 2
    local t = S + y
    if math.abs(S) >= math.abs(y) then c = c + ((S - t) + y) else c = c + ((y - t) + S) end
    S = t
  end
  return { n = n, min = min, max = max, mean = mean, S = S + c }
end

local function rel(x) return 1e-12 * math.abs(x) + 1e-9 end

local SHOW = [[
  for _, d in ipairs({ "read", "write" }) do
    local b, i = r.io_bw[d], r.io_iops[d]
    print(string.format("%s n=%d min=%d max=%d mean=%.17g stdev=%.17g ops=%d in=%d imin=%d imax=%d " ..
      "imean=%.17g istdev=%.17g", d, b.n, b.min, b.max, b.mean, b.stdev, r[d].ops, i.n, i.min, i.max,
      i.mean, i.stdev))
  end
]]

local function parse(out)
  local t = {}
  for line in out:gmatch("[^\n]+") do
    local d = line:match("^(%a+) ")
    if d then
      t[d] = {}
      for k, v in line:gmatch("(%w+)=(%S+)") do t[d][k] = tonumber(v) end
    end
  end
  return t
end

T.test("io_samples: r.io_bw is the moments of the bw log's values, r.io_iops one sample of 1 per I/O", function()
  local dir = T.tmpdir()
  -- a mixed random job at depth 1 with a ramp: the ramp's I/Os are neither logged nor sampled
  local got = parse(sim(dir, [[
    local w = assert(p.output_file("bw.log"))
    local r = p.run { file = f, op = "mix", read_pct = 70, pattern = "random", bs = "4k", seconds = 0.5,
      ramp = 0.1, progress = false, io_samples = true, log = { bw = w } }
    w:close()
  ]] .. SHOW))
  local want = log_values(dir .. "/bw.log")
  for d, name in pairs({ [0] = "read", [1] = "write" }) do
    local g, m = got[name], moments(want[d])
    T.ok(m.n > 100, name .. ": some I/Os logged")
    T.eq(g.n, m.n, name .. ": a sample per logged I/O")
    T.eq(g.ops, m.n, name .. ": a sample per measured I/O")
    T.eq(g.min, m.min, name .. ": min")
    T.eq(g.max, m.max, name .. ": max")
    T.eq(g.mean, m.mean, name .. ": mean (the sum is exact, so is the mean)")
    local sd = math.sqrt(m.S / (m.n - 1))
    T.near(g.stdev, sd, rel(sd), name .. ": stdev")
    T.eq(g["in"], m.n, name .. ": an iops sample per I/O")
    for k, one in pairs({ imin = 1, imax = 1, imean = 1, istdev = 0 }) do
      T.eq(g[k], one, name .. ": " .. k .. ", each iops sample 1")
    end
  end
end)

T.test("io_samples: off by default; a direction without I/O has no entry", function()
  local out = sim(T.tmpdir(), [[
    local r = p.run { file = f, op = "read", bs = "4k", count = 10, progress = false }
    print("default", tostring(r.io_bw), tostring(r.io_iops))
    r = p.run { file = f, op = "read", bs = "4k", count = 10, progress = false, io_samples = true }
    print("reads", r.io_bw.read.n, tostring(r.io_bw.write), r.io_iops.read.n, tostring(r.io_iops.write))
  ]])
  T.has(out, "default\tnil\tnil\n", "no figures unless asked")
  T.has(out, "reads\t10\tnil\t10\tnil\n", "read only")
end)

T.test("platter fio: per-I/O bw and iops samples in the report, a group's summed as fio's sum_stat", function()
  local dir = T.tmpdir()
  local job = dir .. "/g.fio"
  T.write(job, "[g]\nrw=randrw\nbs=4k\nsize=8m\nruntime=300ms\ntime_based\nnumjobs=2\ngroup_reporting\n" ..
    "write_bw_log=pio\nwrite_iops_log=pio\n[single]\nnew_group\nrw=randrw\nbs=4k\nsize=8m\nio_size=1m\n" ..
    "write_bw_log=one\n")
  local out, err, rc = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) ..
    " --quiet --sim nvme fio --output-format=json --output=out.json " .. T.q(job))
  T.eq(rc, 0, "ran: " .. out .. err)
  local jobs = cjson.decode(T.read(dir .. "/out.json")).jobs
  local logs = { log_values(dir .. "/pio_bw.1.log"), log_values(dir .. "/pio_bw.2.log") }
  for d, name in pairs({ [0] = "read", [1] = "write" }) do
    local j = jobs[1][name]
    -- fio's pure sum: min, max, mean, S and samples of the jobs added up
    local n, min, max, mean, S = 0, 0, 0, 0, 0
    for _, lv in ipairs(logs) do
      local m = moments(lv[d])
      n, min, max, mean, S = n + m.n, min + m.min, max + m.max, mean + m.mean, S + m.S
    end
    T.eq(j.bw_samples, n, name .. ": the group's samples, both jobs' lines")
    T.eq(j.total_ios, n, name .. ": a sample per I/O")
    T.eq(j.bw_min, min, name .. ": the sum of the jobs' minima")
    T.eq(j.bw_max, max, name .. ": the sum of the jobs' maxima")
    T.near(j.bw_mean, mean, 1e-6 + rel(mean), name .. ": the sum of the jobs' means")
    T.near(j.bw_dev, math.sqrt(S / (n - 1)), 1e-6, name .. ": from the summed S")
    T.eq(j.iops_samples, n, name .. ": iops samples")
    for k, want in pairs({ iops_min = 2, iops_max = 2, iops_mean = 2, iops_stddev = 0 }) do
      T.eq(j[k], want, name .. ": " .. k .. ", each job's iops samples 1, summed")
    end
    -- the single job (fio's job 3): a bw log only, so its iops samples are the 500 ms windows
    local s, m = jobs[2][name], moments(log_values(dir .. "/one_bw.3.log")[d])
    T.eq(s.bw_samples, m.n, name .. ": single job's bw samples")
    T.eq(s.bw_min, m.min, name .. ": single job's bw min")
    T.eq(s.bw_max, m.max, name .. ": single job's bw max")
    T.near(s.bw_mean, m.mean, 1e-6 + rel(m.mean), name .. ": single job's mean")
    T.ok(s.iops_samples < 10, name .. ": its iops samples are windows, not I/Os: " .. s.iops_samples)
  end
end)
