-- p.run's rate_process: "poisson" spaces the due times of a rate limit by
-- exponential gaps (fio's rate_process=poisson), "linear" evenly; on the
-- simulated disk, whose virtual clock makes the gaps exact and the runs repeat.
local T = ...

-- run Lua code in a fresh platter on a simulated disk; its stdout (must succeed)
local function sim(code)
  local dir = T.tmpdir()
  local out, err, rc = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) ..
    " --quiet --sim nvme -e " .. T.q(code))
  if rc ~= 0 then error("platter --sim nvme failed (" .. rc .. "): " .. out .. err, 2) end
  return out
end

-- The script: N reads at a rate, each asked of a generator that notes the
-- virtual time it is called at (the previous I/O's completion, which follows
-- its due time by the disk's read time: nearly constant on one block). Prints
-- the gaps' mean (ns) and coefficient of variation, the C loop's seconds for
-- the same job, and a digest of the gaps.
local function script(args)
  return [[
local p = require "platter"
local f = assert(p.open(p.scratch("r.dat"), { create = true, write = true, size = "1m" }))
local N = 4000
local t = {}
local function job(extra)
  local j = { file = f, bs = 4096, ]] .. args .. [[, progress = false }
  for k, v in pairs(extra) do j[k] = v end
  return j
end
local r = p.run(job { gen = function(i)
  t[i] = p.now()
  if i > N then return nil end
  return "read", 0, 4096
end })
local sum, sq, h = 0, 0, 0
for i = 2, N + 1 do
  local g = t[i] - t[i - 1]
  sum = sum + g
  h = (h * 31 + g) % 2147483647
end
local mean = sum / N
for i = 2, N + 1 do sq = sq + (t[i] - t[i - 1] - mean) ^ 2 end
local cv = math.sqrt(sq / (N - 1)) / mean
local c = p.run(job { count = N })
print(string.format("ops=%d mean=%.0f cv=%.4f loop_s=%.4f digest=%d", r.ops, mean, cv, c.seconds, h))
]]
end

local function fields(line)
  local v = {}
  for k, x in line:gmatch("(%S+)=(%S+)") do v[k] = tonumber(x) end
  T.ok(v.mean and v.cv and v.loop_s, "the script's figures in " .. line)
  return v
end

T.test("rate_process poisson: exponential gaps of mean 1/rate_iops (cv ~1), linear even (cv ~0)",
  function()
  local po = fields(sim(script('rate_iops = 100, rate_process = "poisson", seed = 7')))
  local li = fields(sim(script("rate_iops = 100, seed = 7")))
  T.eq(po.ops, 4000, "poisson ops")
  -- 4000 exponential gaps: the mean's standard error is 1.6%, the cv's about 2%
  T.near(po.mean, 1e7, 0.05 * 1e7, "poisson mean gap (ns)")
  T.near(po.cv, 1, 0.08, "poisson coefficient of variation")
  T.near(li.mean, 1e7, 0.001 * 1e7, "linear mean gap (ns)")
  T.ok(li.cv < 0.05, "linear coefficient of variation " .. li.cv)
  -- the C loop (no generator) paces the same way: N I/Os take about N/rate
  T.near(po.loop_s, 40, 0.05 * 40, "poisson loop seconds")
  T.near(li.loop_s, 40, 0.01 * 40, "linear loop seconds")
end)

T.test("rate_process poisson with rate_bps: mean gap of the I/O's length / rate", function()
  -- 4 KiB at 409600 B/s: 100 I/Os a second
  local po = fields(sim(script('rate_bps = 409600, rate_process = "poisson", seed = 3')))
  T.near(po.mean, 1e7, 0.05 * 1e7, "mean gap (ns)")
  T.near(po.cv, 1, 0.08, "coefficient of variation")
end)

T.test("rate_process poisson: the same seed repeats the gaps, another seed does not", function()
  local a = fields(sim(script('rate_iops = 100, rate_process = "poisson", seed = 11')))
  local b = fields(sim(script('rate_iops = 100, rate_process = "poisson", seed = 11')))
  local c = fields(sim(script('rate_iops = 100, rate_process = "poisson", seed = 12')))
  T.eq(b.digest, a.digest, "digest of the gaps, seed 11 twice")
  T.eq(b.mean, a.mean, "mean gap, seed 11 twice")
  T.ok(c.digest ~= a.digest, "seed 12 gives other gaps than seed 11")
end)

T.test("rate_process: errors name the key", function()
  local p = require "platter"
  local f = assert(p.open(T.tmpdir() .. "/e.dat", { create = true, write = true, size = "64k" }))
  local ok, err = pcall(p.run, { file = f, count = 1, rate_process = "poisson" })
  T.ok(not ok, "poisson without a rate raises")
  T.has(tostring(err), "'rate_process' \"poisson\" needs a rate (rate_iops or rate_bps)", "message")
  ok, err = pcall(p.run, { file = f, count = 1, rate_iops = 10, rate_process = "bursty" })
  T.ok(not ok, "an unknown process raises")
  T.has(tostring(err), "unknown rate_process 'bursty' (linear, poisson)", "message")
  f:close()
end)
