-- platter.fio_report: fio 3.33's reports from a model shaped like fio's JSON.
-- The main test runs the real fio (when installed) on small jobs of many
-- shapes with --output-format=normal,terse,json, decodes fio's JSON, renders
-- it with fr.normal, fr.terse and fr.json, and compares with fio's own text
-- byte for byte. Masked, because fio's JSON does not hold them: the pid on
-- each job's line, and that line's date (fio takes it a moment after the
-- JSON's "time"; the two differ when a second boundary falls between), and
-- where fio's JSON stddev or running mean (6 decimals) lies exactly half-way
-- between two printed values, one unit in the last digit (see same_but_ties).
-- Then fr.job on synthetic stats and on a real p.run.
local T = ...
local fr = require "platter.fio_report"
local p = require "platter"

-- fio's version line, or a skip
local function need_fio()
  local out, _, rc = T.sh("fio --version")
  if rc ~= 0 then T.skip("fio is not installed (apt-get install fio)") end
  if not out:match("^fio%-3%.33") then T.skip("fio is " .. out:gsub("\n", "") .. ", not fio-3.33") end
end

-- Split fio's combined output into the normal text, the terse lines and the JSON.
local function split(text)
  local normal, terse, json = {}, {}, {}
  local in_json = false
  for line in text:gmatch("([^\n]*)\n") do
    if in_json then
      json[#json + 1] = line
      if line == "}" then in_json = false end
    elseif line == "{" then
      in_json = true
      json[#json + 1] = line
    elseif line:match("^[2-5];") or (line:match("^;") and #terse > 0) then  -- v2 puts desc on a line of its own
      terse[#terse + 1] = line
    else
      normal[#normal + 1] = line
    end
  end
  local function join(t) return #t > 0 and table.concat(t, "\n") .. "\n" or "" end
  return join(normal), join(terse), join(json)
end

-- The first differing line of two texts, for the failure message.
local function first_diff(want, got)
  local wl, gl = {}, {}
  for l in want:gmatch("([^\n]*)\n") do wl[#wl + 1] = l end
  for l in got:gmatch("([^\n]*)\n") do gl[#gl + 1] = l end
  for i = 1, math.max(#wl, #gl) do
    if wl[i] ~= gl[i] then
      local w, g = tostring(wl[i]), tostring(gl[i])
      local at = 1
      while w:sub(at, at) == g:sub(at, at) do at = at + 1 end
      local from = math.max(1, at - 60)  -- long terse lines: around the first difference
      return string.format("line %d, byte %d:\n  fio:      %s\n  platter:  %s", i, at,
        w:sub(from, at + 60), g:sub(from, at + 60))
    end
  end
  return "same lines, different bytes"
end

local function same(what, want, got)
  if want ~= got then error(what .. " differs from fio's at " .. first_diff(want, got), 2) end
end

-- Every standard deviation in the model (latencies, bw, iops), the means of
-- the total latency (lat_ns: fio keeps no sum for it that would let its mean be
-- recovered exactly from the JSON's 6 decimals), and the bw and iops means
-- (running means of the per-interval samples, kept as doubles: an ASan CI
-- run printed avg=30737.55 where bw_mean/1000 from the JSON gives 30737.545
-- exactly, which %.2f rounds down).
local function deviations(top)
  local devs = {}
  local function walk(t)
    for k, v in pairs(t) do
      if type(v) == "table" then
        if k == "lat_ns" and type(v.mean) == "number" then devs[#devs + 1] = v.mean end
        walk(v)
      elseif (k == "stddev" or k == "bw_dev" or k == "iops_stddev" or k == "bw_mean"
              or k == "iops_mean") and type(v) == "number" then
        devs[#devs + 1] = v
      end
    end
  end
  walk(top)
  return devs
end

-- A standard deviation (and the total latency's, bw's and iops' means) are the
-- figures of fio's JSON (6 decimals) that can sit exactly half-way between two
-- printed values (their sums are not kept as whole numbers that could be
-- recovered, as the other means' are; a loaded CI run gave lat avg=1407.13 where the JSON said
-- 1407.125000). There, and only there, one unit in the last printed digit may differ: a number
-- pair whose midpoint, times 1, 1000 or 1e6, is such a JSON value.
local function same_but_ties(what, want, got, top)
  if want == got then return end
  local devs = deviations(top)
  local function tie(a, b)
    local x, y = tonumber(a), tonumber(b)
    local dec = #(a:match("%.(%d+)$") or "")
    if not x or not y or dec == 0 or #(b:match("%.(%d+)$") or "") ~= dec then return false end
    if math.abs(math.abs(x - y) - 10 ^ -dec) > 10 ^ -(dec + 3) then return false end
    local mid = (x + y) / 2
    for _, d in ipairs(devs) do
      for _, scale in ipairs { 1, 1000, 1e6 } do
        if math.abs(mid * scale - d) <= 1e-6 * math.max(1, scale / 1000) then return true end
      end
    end
    return false
  end
  local function tokens(text)
    local t = {}
    for num, other in text:gmatch("([%d.]*)([^%d.]*)") do
      if num ~= "" then t[#t + 1] = num end
      if other ~= "" then t[#t + 1] = other end
    end
    return t
  end
  local wt, gt = tokens(want), tokens(got)
  local ok = #wt == #gt
  for i = 1, ok and #wt or 0 do
    if wt[i] ~= gt[i] and not tie(wt[i], gt[i]) then ok = false; break end
  end
  if not ok then same(what, want, got) end
end

local dir
local function scratch()
  if not dir then
    dir = T.tmpdir()
    -- laid out beforehand, so fio prints no "Laying out IO file" note
    T.sh_ok("dd if=/dev/zero of=" .. T.q(dir .. "/f") .. " bs=1M count=16 status=none")
  end
  return dir .. "/f"
end

-- Terse adds the ns latency counts to the first us bucket. A ns bucket under
-- 0.01% shows as 0.01 in the JSON whatever its count (1 to total / 10000),
-- so that field is masked when a job has one.
local function mask_lat_nu(top, text, ver)
  local lines = {}
  local i = 0
  for line in text:gmatch("([^\n]*)\n") do
    local cont = line:match("^;")  -- v2's description line
    if not cont then i = i + 1 end
    local job = top.jobs[i]
    local total = 0
    for _, d in ipairs { "read", "write", "trim" } do total = total + (job[d] and job[d].total_ios or 0) end
    local floored = false
    for _, v in pairs(job.latency_ns or {}) do
      if v > 0 and v <= 0.01 and total > 10000 then floored = true end
    end
    if floored and not cont and not job.mixed then
      local fields = {}
      for f in (line .. ";"):gmatch("([^;]*);") do fields[#fields + 1] = f end
      local per = 41 + (ver == 5 and 6 or 0)
      local at = (ver == 2 and 4 or 5) + per * (ver == 3 and 2 or 3) + 12 + 1
      fields[at] = "(masked)"
      line = table.concat(fields, ";")
    end
    lines[#lines + 1] = line
  end
  return #lines > 0 and table.concat(lines, "\n") .. "\n" or ""
end

-- Run fio with `args` (a string), compare all three outputs; returns the model.
local function check(args, terse_version)
  local file = scratch()
  local out = dir .. "/out.txt"
  local fmt = args:find("json+", 1, true) and "" or " --output-format=normal,terse,json"
  local tv = terse_version and (" --terse-version=" .. terse_version) or ""
  -- --output first: fio prints each job's header line as it reads the job
  T.sh_ok("cd " .. T.q(dir) .. " && fio --output=" .. T.q(out) .. " --filename=" .. T.q(file) .. fmt ..
    tv .. " " .. args)
  local normal, terse, json = split(T.read(out))
  T.ok(json ~= "", "fio's JSON output")
  local top = fr.decode(json)
  same("fr.json", json, fr.json(top))
  local ours = fr.terse(top, { version = terse_version or 3 })
  terse, ours = mask_lat_nu(top, terse, terse_version or 3), mask_lat_nu(top, ours, terse_version or 3)
  same_but_ties("fr.terse", terse, ours, top)
  -- the masks: pid and the date of each job's line
  local masked = normal:gsub("(%(groupid=%d+, jobs=%d+%): err=[^\n]-): pid=%d+: [^\n]*",
    "%1: pid=0: " .. top.time:gsub("%%", "%%%%"))
  same_but_ties("fr.normal", masked, fr.normal(top), top)
  return top
end

-- The job shapes: each is fio's command line after --filename. Sizes give
-- I/O counts prime to 10 (999 = 3996k / 4k, not 1000 or 1024): fio keeps a
-- running mean, and a mean k / n with n = 2^a 5^b can end in a 5 just past
-- the digits printed, where only the last bit of fio's running sum decides
-- the rounding; the JSON's 6 decimals cannot tell that bit. Counts that are
-- multiples of 8 are avoided too (k / 264 can be j / 8, ending in 5 at the
-- third decimal); fio's randrepeat=1 keeps each shape's read/write split.
local SHAPES = {
  { "read", "--name=r --size=3996k --rw=read --bs=4k" },
  { "write", "--name=w --size=3136k --rw=write --bs=64k" },
  { "randrw 70/30", "--name=m --size=3996k --rw=randrw --rwmixread=70 --bs=4k" },
  { "io_uring QD32 direct", "--name=u --size=7996k --rw=randread --bs=4k --ioengine=io_uring --iodepth=32 --direct=1" },
  { "libaio QD16 direct", "--name=a --size=7996k --rw=randread --bs=4k --ioengine=libaio --iodepth=16 --direct=1" },
  { "numjobs=2", "--name=n --size=1996k --rw=randread --bs=4k --numjobs=2" },
  { "numjobs=2 group_reporting", "--name=n --size=1996k --rw=randread --bs=4k --numjobs=2 --group_reporting" },
  { "two groups, stonewall", "--size=1996k --bs=4k --name=a --rw=read --name=b --rw=write --stonewall" },
  { "time_based runtime=1 (bw/iops samples)", "--name=t --size=7996k --rw=randread --bs=4k --time_based --runtime=1" },
  { "bsrange", "--name=b --size=3996k --rw=randrw --bsrange=4k-16k" },
  { "bssplit", "--name=s --size=3996k --rw=randread --bssplit=4k/50:64k/50" },
  { "per-direction bs", "--name=s --size=3996k --rw=randrw --bs=4k,16k" },
  { "rate-limited", "--name=rl --size=996k --rw=randread --bs=4k --rate=1996k --time_based --runtime=1" },
  { "fsync (sync latencies)", "--name=fs --size=996k --rw=write --bs=4k --fsync=4" },
  { "kb_base=1000 first", "--name=k --size=3996k --kb_base=1000 --rw=read --bs=4k" },
  { "unit_base=1", "--name=k --size=3996k --rw=read --bs=4k --unit_base=1" },
  { "percentile_list", "--name=p --size=1996k --rw=randread --bs=4k --percentile_list=50:99.9:99.999" },
  { "lat_percentiles", "--name=p --size=1996k --rw=randread --bs=4k --lat_percentiles=1" },
  { "clat_percentiles=0", "--name=s --size=1996k --rw=read --bs=4k --clat_percentiles=0" },
  { "description", "--name=d --size=1996k --rw=read --bs=4k --description=hello" },
  { "threads", "--name=th --size=1996k --rw=read --bs=4k --thread=1 --numjobs=2" },
  { "unified_rw_reporting=mixed", "--name=m --size=1992k --rw=randrw --bs=4k --unified_rw_reporting=1" },
  { "unified_rw_reporting=both", "--name=m --size=1992k --rw=randrw --bs=4k --unified_rw_reporting=both" },
  { "seq rw:8", "--name=s --size=1996k --rw=rw:8 --bs=4k --rwmixwrite=20" },
  { "json+", "--name=jp --size=1996k --rw=randread --bs=4k --output-format=normal,terse,json+" },
  { "steadystate attained", "--name=ss --size=64m --rw=read --bs=4k --ioengine=null --rate_iops=1000 " ..
    "--time_based --runtime=10 --steadystate=iops:5% --ss_dur=2" },
  { "steadystate not attained, kb_base=1000", "--name=sn --size=64m --rw=read --bs=4k --ioengine=null " ..
    "--time_based --runtime=1200ms --kb_base=1000 --ss=bw_slope:1m --ss_dur=2" },
}

T.test("fio 3.33: normal, terse and json rendered from fio's own JSON, byte for byte", function()
  need_fio()
  for _, shape in ipairs(SHAPES) do
    local ok, err = pcall(check, shape[2])
    if not ok then error(shape[1] .. " (fio " .. shape[2] .. "): " .. tostring(err), 0) end
  end
end)

T.test("fio 3.33: terse versions 2, 4 and 5", function()
  need_fio()
  for _, v in ipairs { 2, 4, 5 } do
    -- v5 adds the bw and iops sample figures: a run long enough to have some
    local args = v == 5 and "--name=t --size=1992k --rw=randrw --bs=4k --time_based --runtime=1"
      or "--name=t --size=1992k --rw=randrw --bs=4k --description=d"
    local ok, err = pcall(check, args, v)
    if not ok then error("terse v" .. v .. ": " .. tostring(err), 0) end
  end
end)

T.test("num2str: fio's scaling and rounding", function()
  local n = fr.num2str
  T.eq(n(4096, 4, 1, true, 2), "4096B")
  T.eq(n(16384, 4, 1, true, 2), "16.0KiB")
  T.eq(n(90439680, 4, 1, true, 2), "86.2MiB", "86.25 rounds to even, as C's printf")
  T.eq(n(90415104, 4, 1, false, 2), "90.4MB")
  T.eq(n(22123, 4, 1, false, 0), "22.1k")
  T.eq(n(9906, 4, 1, false, 0), "9906")
  T.eq(n(1056300, 6, 1, false, 0), "1056.3k")
  T.eq(n(999999, 4, 1, false, 0), "1000k")
  T.eq(n(82739200, 4, 1, true, 4), "78.9MiB/s")
  T.eq(n(82739200, 4, 1, false, 5), "662Mbit/s")
  T.eq(fr.format("%.1f|%.2f|%5.1f%%|%3.2f%%|%d", 0.25, 0.125, 0.75, 2.5, 7), "0.2|0.12|  0.8%|2.50%|7")
end)

T.test("decode and json: key order, floats and fio's layout kept", function()
  local text = table.concat({
    '{',
    '  "fio version" : "fio-3.33",',
    '  "zeta" : 1,',
    '  "alpha" : 2.500000,',
    '  "jobs" : [',
    '    {',
    '      "jobname" : "a\\"b",',
    '      "job options" : {',
    '        "rw" : "read",',
    '        "name" : "x"',
    '      }',
    '    }',
    '  ]',
    '}', '' }, "\n")
  local top = fr.decode(text)
  T.eq(top.jobs[1].jobname, 'a"b')
  T.eq(fr.json(top), text, "round trip")
  -- a fresh table gets fio's order and its number formats
  local job = { minf = 3, usr_cpu = 1, jobname = "j", groupid = 0, read = { iops = 2, io_bytes = 5,
    clat_ns = { N = 1, max = 2, min = 1, mean = 1, stddev = 0, percentile = { ["99.000000"] = 5,
    ["5.000000"] = 4 } } } }
  local out = fr.json({ jobs = { job }, ["fio version"] = "fio-3.33" })
  T.has(out, '"jobname" : "j",\n      "groupid" : 0,\n      "read" : {\n        "io_bytes" : 5,\n' ..
    '        "iops" : 2.000000,')
  T.has(out, '"percentile" : {\n            "5.000000" : 4,\n            "99.000000" : 5\n')
  T.has(out, '"usr_cpu" : 1.000000,\n      "minf" : 3\n')
  T.has(out, '"jobs" : [\n    {\n')
  T.raises(function() fr.decode('{"a" : }') end, "fio_report.decode")
end)

-- A stand-in for a platter stats object: n ops of the given latencies.
local function fake(lats, bytes_each)
  local s = { ops = #lats, bytes = #lats * bytes_each }
  local sorted = {}
  for i, v in ipairs(lats) do sorted[i] = v end
  table.sort(sorted)
  function s.min() return sorted[1] end
  function s.max() return sorted[#sorted] end
  function s.mean()
    local t = 0
    for _, v in ipairs(sorted) do t = t + v end
    return t / #sorted
  end
  function s.percentile(_, pct) return sorted[math.max(1, math.ceil(pct / 100 * #sorted))] end
  function s.buckets()
    local b = {}
    for _, v in ipairs(sorted) do b[#b + 1] = { v, v, 1 } end
    return b
  end
  return s
end

T.test("fr.job: a job object from synthetic stats", function()
  local r = fake({ 100, 200, 300, 400, 1500, 2500, 60000, 3000000 }, 4096)
  local w = fake({ 50, 70 }, 8192)
  local meta = {
    name = "syn", groupid = 1, pid = 42, jobs = 1, runtime_ms = 2000, elapsed_s = 2,
    usr_cpu_s = 0.5, sys_cpu_s = 0.25, ctx = 10, majf = 1, minf = 2, iodepth = 1,
    options = { { "name", "syn" }, { "rw", "randrw" }, { "bs", "4k" } },
    samples = { { t_ms = 1000, rbytes = 16384, wbytes = 0, rops = 4, wops = 0 },
      { t_ms = 2000, rbytes = 16384, wbytes = 16384, rops = 4, wops = 2 } },
  }
  local job = fr.job(meta, { read = r, write = w })
  T.eq(job.jobname, "syn")
  T.eq(job.read.io_bytes, 8 * 4096)
  T.eq(job.read.bw_bytes, 16384, "bytes * 1000 / runtime_ms")
  T.eq(job.read.bw, 16)
  T.near(job.read.iops, 4, 1e-9, "iops")
  T.eq(job.read.clat_ns.min, 100)
  T.eq(job.read.clat_ns.max, 3000000)
  T.eq(job.read.clat_ns.N, 8)
  T.eq(job.read.clat_ns.stddev, 0, "no s:stdev(): 0")
  T.eq(job.read.clat_ns.percentile["50.000000"], 400)
  T.eq(job.read.clat_ns.percentile["99.990000"], 3000000)
  T.eq(job.read.lat_ns.percentile, nil, "lat percentiles are off by default")
  T.eq(job.read.slat_ns.N, 0)
  -- two read windows of 16 KiB/s, one write window (the first has no writes)
  T.eq(job.read.bw_samples, 2)
  T.eq(job.read.bw_min, 16)
  T.eq(job.read.iops_mean, 4)
  T.eq(job.write.bw_samples, 1)
  T.eq(job.write.iops_samples, 1)
  T.eq(job.write.iops_min, 2)
  T.eq(job.trim.io_bytes, 0)
  T.eq(job.trim.runtime, 0)
  T.near(job.usr_cpu, 25, 1e-9, "usr_cpu %")
  T.eq(job.iodepth_level["1"], 100)
  T.eq(job.iodepth_submit["4"], 100)
  -- 10 ops in fio's buckets, named by their upper edge: 50 and 70 ns in
  -- "100" (50..99), 100 and 200 in "250", 300 and 400 in "500"; 1.5 us in
  -- "2" (0..1 us), 2.5 us in "4", 60 us in "100", 3 ms in "4"
  T.eq(job.latency_ns["100"], 20)
  T.eq(job.latency_ns["250"], 20)
  T.eq(job.latency_ns["500"], 20)
  T.eq(job.latency_ns["50"], 0)
  T.eq(job.latency_us["2"], 10)
  T.eq(job.latency_us["4"], 10)
  T.eq(job.latency_us["100"], 10)
  T.eq(job.latency_ms["4"], 10)
  T.eq(job.latency_depth, 1)
  local top = fr.top({ job }, { time = 0 })
  local json = fr.json(top)
  T.has(json, '"job options" : {\n        "name" : "syn",\n        "rw" : "randrw",\n        "bs" : "4k"\n')
  local round = fr.decode(json)
  T.eq(fr.json(round), json, "decode(json(job)) writes the same text")
  local normal = fr.normal(top)
  T.has(normal, "syn: (groupid=1, jobs=1): err= 0: pid=42: ")
  T.has(normal, "  read: IOPS=4, BW=16.0KiB/s (16.4kB/s)(32.0KiB/2000msec)\n")
  T.has(normal, "   bw (  KiB/s): min=   16, max=   16, per=100.00%, avg=16.00, stdev= 0.00, samples=2\n")
  T.has(normal, "syn: (g=1): rw=randrw, bs=(R) 4096B-4096B")
  T.has(normal, "Run status group 0 (all jobs):\n\nRun status group 1 (all jobs):\n   READ: bw=16.0KiB/s")
  T.has(fr.terse(top), "3;fio-3.33;syn;1;0;32;16;4;2000;0;0;0.000000;0.000000;0;3000;")
  -- s:stdev() is used when the stats object has it
  r.stdev = function() return 1234.5 end
  T.eq(fr.job(meta, { read = r }).read.clat_ns.stddev, 1234.5)
  -- json+ bins: each bucket's middle (lo == hi here)
  local plus = fr.job({ name = "p", runtime_ms = 10, plus = true }, { read = w })
  T.eq(plus.read.clat_ns.bins["50"], 1)
  T.eq(plus.read.clat_ns.bins["70"], 1)
  T.eq(fr.json(fr.top({ plus }), false):find('"bins"'), nil, "json without plus drops the bins")
end)

T.test("fr.job: from a real p.run (null engine)", function()
  local d = T.tmpdir()
  local f = assert(p.open(d .. "/x", { write = true, create = true }))
  assert(f:pwrite(0, 65536))
  local r = p.run { file = f, op = "read", bs = 4096, count = 200, engine = "null" }
  local job = fr.job({ name = "null", runtime_ms = 1, iodepth = 1 }, { read = r.read })
  T.eq(job.read.total_ios, 200)
  T.eq(job.read.io_bytes, 200 * 4096)
  T.eq(job.read.clat_ns.N, 200)
  T.ok(job.read.clat_ns.min <= job.read.clat_ns.percentile["50.000000"], "min <= p50")
  T.ok(job.read.clat_ns.percentile["99.000000"] <= job.read.clat_ns.max + job.read.clat_ns.max / 64,
    "p99 <= max (within a bucket)")
  local sum = 0
  for _, k in ipairs { "latency_ns", "latency_us", "latency_ms" } do
    for _, v in pairs(job[k]) do sum = sum + v end
  end
  T.near(sum, 100, 0.5, "the latency buckets add up to 100%")
  if r.read.stdev then T.ok(job.read.clat_ns.stddev >= 0, "stddev") end
  T.has(fr.normal(fr.top({ job })), "  read: IOPS=200k, BW=781MiB/s (819MB/s)(800KiB/1msec)\n")
  f:close()
end)

T.test("fr.disk_util: deltas of two /proc/diskstats snapshots", function()
  local a = { vda = { reads = 10, writes = 4, read_merges = 1, write_merges = 2, read_ticks = 5,
    write_ticks = 6, io_ticks = 100, time_in_queue = 50 } }
  local b = { vda = { reads = 30, writes = 5, read_merges = 1, write_merges = 4, read_ticks = 9,
    write_ticks = 16, io_ticks = 400, time_in_queue = 90 } }
  local du = fr.disk_util(a, b, 1000)
  T.eq(#du, 1)
  T.eq(du[1].read_ios, 20)
  T.eq(du[1].in_queue, 40)
  T.near(du[1].util, 30, 1e-9, "util")
  local text = fr.normal(fr.top({}, { disk_util = du }), { header = false })
  T.eq(text, "\n\nDisk stats (read/write):\n  vda: ios=20/1, merge=0/2, ticks=4/10, in_queue=40, util=30.00%\n")
end)

T.test("the comparison's one tolerance: a stddev or running mean exactly half-way", function()
  local top = { jobs = { { read = { clat_ns = { stddev = 262444.6095, mean = 378852.643 } } } } }
  same_but_ties("t", "a;262.444609;b\n", "a;262.444610;b\n", top)
  T.raises(function() same_but_ties("t", "a;262.444608;b\n", "a;262.444610;b\n", top) end, "differs")
  T.raises(function() same_but_ties("t", "a;378.852642;b\n", "a;378.852643;b\n", top) end, "differs",
    "a mean is not a tie")
  T.raises(function() same_but_ties("t", "a;262.444609;b\n", "a;262.444610;c\n", top) end, "differs")
  -- a bw mean of a whole number of KiB/s, printed /1000 with 2 decimals: a tie
  local bw = { jobs = { { read = { bw_mean = 30737545.0, bw = 30737545 } } } }
  same_but_ties("t", "avg=30737.55, x\n", "avg=30737.54, x\n", bw)
  T.raises(function() same_but_ties("t", "avg=30737.56, x\n", "avg=30737.54, x\n", bw) end, "differs")
end)

T.test("a sandboxed script (workloads/fio.lua) may require platter.fio_report", function()
  local out, err, rc = T.platter { "-e", 'local fr = require "platter.fio_report"; ' ..
    'io = nil; print(fr.num2str(90439680, 4, 1, true, 2), #fr.json(fr.top({ fr.job({ name = "x" }, {}) })) > 0)' }
  T.eq(rc, 0, "exit status (" .. err .. ")")
  T.eq(out, "86.2MiB\ttrue\n")
end)
