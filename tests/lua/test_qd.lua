-- Queue depth on the simulated disk (its device queue: docs/sim.md) and the probes
-- built on it, qd-knee and rw-mix (docs/workloads.md): on the sim every figure is
-- exact, so the knee is the preset's channels and Little's law holds; on the real
-- machine a short smoke run of each on a small scratch file.
local T = ...
local cjson = require "cjson"

-- run platter in a fresh directory; stdout, stderr, status, the directory
local function run(args)
  local dir = T.tmpdir()
  local out, err, rc = T.platter(args, { cwd = dir })
  return out, err, rc, dir
end

local function sim(preset, code, ...)
  local out, err, rc = run({ "--quiet", "--sim", preset, "-e", code, ... })
  if rc ~= 0 then error("platter --sim " .. preset .. " failed (" .. rc .. "): " .. out .. err, 2) end
  return out
end

-- a workload's report from its --json record (the run must succeed)
local function report(name, args)
  local dir = T.tmpdir()
  local json = dir .. "/r.json"
  local all = { "--quiet", "--json", json }
  for _, a in ipairs(args) do all[#all + 1] = a end
  local out, err, rc = T.platter(all, { cwd = dir })
  if rc ~= 0 then error(name .. " failed (" .. rc .. "): " .. out .. err, 2) end
  local doc = cjson.decode(T.read(json))
  for _, r in ipairs(doc.reports or {}) do
    if r.name == name then return r.data, out, doc end
  end
  error("no report " .. name .. " in the record", 2)
end

local DEPTHS = [[
  local p = require "platter"
  local f = assert(p.open("d.dat", { create = true, write = true, size = "64m", direct = true }))
  for _, q in ipairs({ 1, 2, 4, 8, 16, 32, 64, 128 }) do
    local r = p.run { file = f, op = "read", bs = "4k", pattern = "random", qd = q,
      seconds = 0.05, engine = arg[1] }
    print(q, r.iops, r:mean())
  end
]]

local function rows(out)
  local t = {}
  for q, iops, mean in out:gmatch("(%d+)\t(%S+)\t(%S+)\n") do
    t[#t + 1] = { qd = tonumber(q), iops = tonumber(iops), mean = tonumber(mean) }
  end
  return t
end

T.test("sim: IOPS grow with the depth up to the preset's channels, then latency does", function()
  local r = rows(sim("nvme", DEPTHS, "io_uring"))
  T.eq(#r, 8, "rows")
  for i = 2, #r do
    local gain = r[i].iops / r[i - 1].iops
    if r[i].qd <= 32 then
      T.near(gain, 2, 0.02, "IOPS double up to QD 32 (QD " .. r[i].qd .. ")")
      T.near(r[i].mean, r[1].mean, r[1].mean * 0.01, "latency stays (QD " .. r[i].qd .. ")")
    else
      T.near(gain, 1, 0.02, "IOPS stay past QD 32 (QD " .. r[i].qd .. ")")
      T.near(r[i].mean / r[i - 1].mean, 2, 0.05, "latency doubles (QD " .. r[i].qd .. ")")
    end
    T.near(r[i].iops * r[i].mean / 1e9 / r[i].qd, 1, 0.01, "Little's law at QD " .. r[i].qd)
  end
end)

T.test("sim: libaio at depth is served as io_uring is, and every run repeats", function()
  local a = sim("nvme", DEPTHS, "io_uring")
  T.eq(sim("nvme", DEPTHS, "libaio"), a, "libaio")
  T.eq(sim("nvme", DEPTHS, "io_uring"), a, "again")
end)

T.test("sim: a rotating disk serves one request at a time", function()
  local out = sim("ata-5400-1999", [[
    local p = require "platter"
    local f = assert(p.open(arg[1], { direct = true }))
    for _, q in ipairs({ 1, 8 }) do
      local r = p.run { file = f, op = "read", bs = "4k", pattern = "random", qd = q, seconds = 3 }
      print(q, r.iops, r:mean())
    end
  ]], "/dev/sda")
  local r = rows(out)
  T.near(r[2].iops / r[1].iops, 1, 0.1, "IOPS barely move")
  T.near(r[2].mean / r[1].mean, 8, 0.8, "latency grows with the queue")
end)

T.test("sim: under a rate limit at depth, an idle device's latency is its service time", function()
  local out = sim("nvme", [[
    local p = require "platter"
    local f = assert(p.open("d.dat", { create = true, write = true, size = "64m", direct = true }))
    local a = p.run { file = f, op = "read", bs = "4k", pattern = "random", count = 100 }
    local b = p.run { file = f, op = "read", bs = "4k", pattern = "random", qd = 8,
      rate_iops = 1000, seconds = 0.1 }
    print(a:mean(), b:mean(), b:max(), b.ops)
  ]])
  local qd1, at, max, ops = out:match("(%S+)\t(%S+)\t(%S+)\t(%S+)")
  T.eq(tonumber(ops), 100, "ops at 1000 IOPS for 0.1 s")
  T.eq(tonumber(at), tonumber(qd1), "the mean is the depth-1 latency: no polling slack")
  T.eq(tonumber(max), tonumber(qd1), "and so is the largest")
end)

T.test("qd-knee: on the sim the knee is the preset's channels, and Little's law holds", function()
  local d, out, doc = report("qd-knee", { "--sim", "nvme", "qd-knee", "--seconds", "0.05",
    "--size", "64m", "--qd-max", "128" })
  T.eq(d.knee_qd, 32, "knee")
  T.eq(doc.verdict.probe, "qd-knee", "the record's verdict")
  T.eq(doc.verdict.answer, "knee", "its answer")
  T.eq(doc.verdict.knee_qd, 32, "its knee")
  T.eq(doc.verdict.text, d.verdict, "the verdict line")
  T.eq(d.little_ok, true, "little")
  T.eq(#d.rows, 8, "rows 1..128")
  for _, r in ipairs(d.rows) do
    T.ok(r.little_ok, "row QD " .. r.qd)
    T.near(r.little, 1, 0.01, "IOPS x latency / QD at " .. r.qd)
  end
  T.has(out, "The knee is at QD 32", "verdict")
  T.has(out, "Little's law holds in every row", "little verdict")
  local h = report("qd-knee", { "--sim", "ata-5400-1999", "qd-knee", "--seconds", "2",
    "--qd-max", "4" })
  T.eq(h.knee_qd, 1, "a disk with one head: the knee at QD 1")
end)

T.test("rw-mix: on the sim, read latency rises with the write rate", function()
  local d, out, doc = report("rw-mix", { "--sim", "nvme", "rw-mix", "--seconds", "0.2",
    "--size", "256m", "--steps", "5" })
  T.eq(doc.verdict.probe, "rw-mix", "the record's verdict")
  T.eq(doc.verdict.answer, "reads slowed", "its answer")
  T.eq(doc.verdict.ok_up_to_write_bps, d.ok_up_to_write_bps, "its rate")
  T.eq(#d.rows, 6, "rows: 0 and 5 steps")
  T.eq(d.rows[1].write_bps, 0, "no writes in the first")
  for i = 2, #d.rows do
    T.ok(d.rows[i].read_lat_mean_us > d.rows[i - 1].read_lat_mean_us,
      "mean read latency rises at step " .. (i - 1))
    T.ok(d.rows[i].write_bps_asked > d.rows[i - 1].write_bps_asked, "write rate rises")
  end
  T.ok(d.rows[#d.rows].read_lat_p99_us > 2 * d.rows[1].read_lat_p99_us, "p99 more than doubles")
  T.ok(d.ok_up_to_write_bps < d.rows[#d.rows].write_bps_asked, "the verdict's rate is below the max")
  T.has(out, "Background writes cost reads latency", "verdict")
end)

T.test("qd-knee and rw-mix: arguments are checked from their manifests", function()
  local cases = {
    { { "qd-knee", "--qd-max", "0" }, "--qd-max 0: must be at least 1" },
    { { "qd-knee", "--op", "both" }, "bad value 'both' for --op" },
    { { "qd-knee", "--qd-list", "4,2" }, "--qd-list: the depths must increase" },
    { { "qd-knee", "--qd-list", "1,x" }, "--qd-list: bad depth 'x'" },
    { { "qd-knee", "--bs", "1000" }, "--bs must be a multiple of 512" },
    { { "qd-knee", "--seconds", "soon" }, "--seconds" },
    { { "rw-mix", "--qd", "1" }, "--qd 1: must be at least 2" },
    { { "rw-mix", "--steps", "0" }, "--steps 0: must be at least 1" },
    { { "rw-mix", "--write-bs", "1000" }, "--write-bs must be a multiple of 512" },
    { { "rw-mix", "--arrivals", "bursty" }, "bad value 'bursty' for --arrivals" },
  }
  for _, c in ipairs(cases) do
    local args = { "--sim", "nvme" }
    for _, a in ipairs(c[1]) do args[#args + 1] = a end
    local _, err, rc = run(args)
    T.eq(rc, 2, table.concat(c[1], " ") .. ": usage error")
    T.has(err, c[2], table.concat(c[1], " "))
  end
  local out, _, rc = run({ "qd-knee", "--help" })
  T.eq(rc, 0, "--help")
  T.has(out, "--qd-max N", "help lists --qd-max")
end)

-- a short run on this machine's file system: O_DIRECT, io_uring (else libaio)
local function smoke(args)
  for _, engine in ipairs({ "io_uring", "libaio" }) do
    local all = {}
    for _, a in ipairs(args) do all[#all + 1] = a end
    all[#all + 1] = "--engine"
    all[#all + 1] = engine
    local out, err, rc, dir = run(all)
    if rc == 0 then return out, dir end
    if not (err:find("io_uring") or err:find("libaio") or err:find("O_DIRECT") or
        err:find("Invalid argument")) then
      error(table.concat(args, " ") .. " failed (" .. rc .. "): " .. out .. err, 2)
    end
  end
  T.skip("neither io_uring nor libaio with O_DIRECT works here")
end

T.test("qd-knee: a smoke run on a small scratch file of this machine", function()
  local out, dir = smoke({ "qd-knee", "--size", "8m", "--seconds", "0.1", "--qd-max", "4" })
  T.has(out, "# verdict: ", "verdict")
  T.has(out, "# little: ", "little")
  local n = 0
  for _ in out:gmatch("\n +%d+ +[%d.]+ ") do n = n + 1 end
  T.eq(n, 3, "rows QD 1, 2, 4")
  T.eq(T.sh_ok("ls -A " .. T.q(dir)), "", "the scratch file is gone")
end)

T.test("rw-mix: a smoke run on a small scratch file of this machine", function()
  local out, dir = smoke({ "rw-mix", "--size", "8m", "--seconds", "0.1", "--steps", "1",
    "--qd", "4" })
  T.has(out, "# verdict: ", "verdict")
  T.has(out, "write_MB/s", "header")
  T.eq(T.sh_ok("ls -A " .. T.q(dir)), "", "the scratch file is gone")
end)

T.test("p.report: plain data into the record's reports, copied when called; misuse raises", function()
  local dir = T.tmpdir()
  local out, err, rc = T.platter({ "--quiet", "--json", dir .. "/r.json", "-e", [[
    local p = require "platter"
    local t = { a = 1, list = { 1, 2, "three" }, ok = true }
    p.report("mine", t)
    t.a = 2
    print(pcall(p.report, "bad", { f = print }))
    print(pcall(p.report, "bad", { x = 0 / 0 }))
    print(pcall(p.report, "", {}))
  ]] }, { cwd = dir })
  T.eq(rc, 0, "status: " .. err)
  T.has(out, "report: data.f: a function cannot be recorded", "a function")
  T.has(out, "report: data.x is not a finite number", "nan")
  T.has(out, "report: name must be a non-empty string", "name")
  local doc = cjson.decode(T.read(dir .. "/r.json"))
  T.eq(#doc.reports, 1, "one report")
  T.eq(doc.reports[1].name, "mine", "name")
  T.eq(doc.reports[1].rep, 1, "repetition")
  T.eq(doc.reports[1].data.a, 1, "the copy made at the call")
  T.eq(doc.reports[1].data.list[3], "three", "list")
end)

T.test("plot --kind qd: IOPS and latency against the depth from a qd-knee record", function()
  local _, _, rc = T.sh("command -v gnuplot >/dev/null 2>&1")
  if rc ~= 0 then T.skip("no gnuplot") end
  local dir = T.tmpdir()
  T.sh_ok("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " --quiet --json r.json --sim nvme qd-knee "
    .. "--size 64m --seconds 0.02 --qd-max 8 >/dev/null")
  local out, err, prc = T.platter({ "plot", "r.json", "-o", "q.svg" }, { cwd = dir })
  T.eq(prc, 0, "plot: " .. out .. err)
  T.has(err, "(qd, 2 lines)", "chosen by itself, two panels")
  T.has(T.read(dir .. "/q.svg"), "queue depth", "the x axis")
end)

T.test("plot --kind rwmix: read latency against the write rate from an rw-mix record", function()
  local _, _, rc = T.sh("command -v gnuplot >/dev/null 2>&1")
  if rc ~= 0 then T.skip("no gnuplot") end
  local dir = T.tmpdir()
  T.sh_ok("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " --quiet --json r.json --sim nvme rw-mix "
    .. "--size 64m --seconds 0.05 --steps 2 >/dev/null")
  local out, err, prc = T.platter({ "plot", "r.json", "-o", "m.svg" }, { cwd = dir })
  T.eq(prc, 0, "plot: " .. out .. err)
  T.has(err, "(rwmix, 3 lines)", "chosen by itself from the report: p99, p50 and mean")
  local svg = T.read(dir .. "/m.svg")
  T.has(svg, "writes done beside the reads", "the x axis")
  T.has(svg, "read p99", "the p99 line")
  -- a record without an rw-mix report: a clear error
  T.sh_ok("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " --quiet --json q.json --sim nvme -e "
    .. T.q("local p = require 'platter'; p.phase('x', function() end)"))
  local _, err2, rc2 = T.platter({ "plot", "q.json", "-o", "n.svg", "--kind", "rwmix" }, { cwd = dir })
  T.eq(rc2, 1, "no report: status 1")
  T.has(err2, "no rw-mix report", "the message")
end)
