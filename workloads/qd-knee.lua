-- qd-knee: IOPS and latency against queue depth, the knee by a stated rule, and Little's law per row
--
-- One p.run per depth (1, 2, 4, ... up to --qd-max, or the depths of --qd-list),
-- --seconds each, at that many I/Os in flight through io_uring (or --engine libaio),
-- O_DIRECT, on TARGET or a scratch file. With --jobs N every depth runs N workers
-- (p.parallel), each keeping QD in flight, so the device sees N x QD.
--
-- The knee: the smallest depth D whose next row (2D with the default list) adds
-- less than --gain percent IOPS while the mean latency grows by more than
-- --lat-growth percent. Past it the device is saturated: more depth only queues.
--
-- Little's law: with the queue kept full, IOPS x mean latency = D (the I/Os in
-- flight). Each row prints that product over D; a row more than --tolerance percent
-- below 1 did not keep its queue full (the submitter, not the device, set the pace).
--
-- The rows, the rule, the knee and the verdict are also the record's report
-- "qd-knee" (--json), and each depth is a phase named "qd D" (or "qd D x N jobs").
local p = require "platter"

local NAME = "qd-knee"

local P = p.script({
  name = NAME, version = "1.0", api = "platter/1",
  description = "IOPS and latency for queue depths 1..N: the knee, and a Little's-law check",
  usage = "[options] [TARGET]",
  params = {
    target = { type = "path", positional = true, arg = "TARGET",
      help = "a file or block device (read only unless --op write); default a scratch file" },
    size = { type = "size", default = "1g", min = "1m", help = "size of the scratch file" },
    bs = { type = "size", default = "4k", min = 512, help = "block size" },
    op = { type = "enum", values = { "read", "write" }, default = "read" },
    pattern = { type = "enum", values = { "random", "seq" }, default = "random" },
    qd_max = { type = "int", default = 256, min = 1, max = 4096, arg = "N",
      help = "the deepest queue: depths 1, 2, 4, ... up to N" },
    qd_list = { type = "string", arg = "LIST", help = "the depths instead, comma-separated (e.g. 1,8,64)" },
    jobs = { type = "int", default = 1, min = 1, max = 64, arg = "N",
      help = "workers per depth (fio's numjobs), each with QD in flight" },
    seconds = { type = "time", default = "5s", min = "1ms", help = "time per depth" },
    ramp = { type = "time", default = "0s", help = "time per depth run before measuring" },
    engine = { type = "enum", values = { "io_uring", "libaio" }, default = "io_uring" },
    gain = { type = "number", default = 10, min = 0, max = 1000, arg = "PCT",
      help = "knee rule: the next depth adds less than PCT% IOPS" },
    lat_growth = { type = "number", default = 50, min = 0, max = 1000, arg = "PCT",
      help = "knee rule: ... while mean latency grows more than PCT%" },
    tolerance = { type = "number", default = 10, min = 0, max = 100, arg = "PCT",
      help = "Little's law: IOPS x mean latency within PCT% of the depth" },
  },
  needs = { write = true, device = "any" },
  epilog = "Without TARGET a scratch file of --size bytes is made in the current directory and\n"
    .. "removed at the end. Writing to a block device needs --destroy.",
}, ...)

-- the depths
local depths = {}
if P.qd_list then
  for w in P.qd_list:gmatch("[^,]+") do
    local d = tonumber(w)
    if not d or d < 1 or d > 4096 or d % 1 ~= 0 then
      p.usage_error(NAME, string.format("--qd-list: bad depth '%s' (an integer 1..4096)", w))
    end
    if #depths > 0 and d <= depths[#depths] then
      p.usage_error(NAME, "--qd-list: the depths must increase")
    end
    depths[#depths + 1] = d
  end
  if #depths == 0 then p.usage_error(NAME, "--qd-list: no depth given") end
else
  local d = 1
  while d <= P.qd_max do
    depths[#depths + 1] = d
    d = d * 2
  end
  if depths[#depths] ~= P.qd_max then depths[#depths + 1] = P.qd_max end
end
if P.bs % 512 ~= 0 then p.usage_error(NAME, "--bs must be a multiple of 512") end

-- the file
local path, scratch = P.target, false
if not path then
  path = p.scratch(string.format("platter-qd-knee.%d.dat", p.pid()))
  scratch = true
  p.log("%s: making scratch file %s (%s)", NAME, path, p.size_string(P.size))
  assert(p.open(path, { create = true, write = true, size = P.size, fill = "random" })):close()
end
local f, err = p.open(path, { direct = true, write = P.op == "write" })
if not f then
  p.ewrite("platter: ", NAME, ": ", err, "\n")
  p.exit(1)
end
if f:size() < P.bs then
  p.ewrite(string.format("platter: %s: %s is smaller than one %d-byte block\n", NAME, path, P.bs))
  p.exit(1)
end

local jobs = P.jobs
p.log("%s: %s %s %s on %s, %g s per depth, O_DIRECT, %s%s", NAME, P.pattern, P.op,
  p.size_string(P.bs), path, P.seconds, P.engine, jobs > 1 and string.format(", %d jobs", jobs) or "")

local function measure(qd)
  local name = jobs > 1 and string.format("qd %d x %d jobs", qd, jobs) or string.format("qd %d", qd)
  local spec = { file = f, op = P.op, bs = P.bs, pattern = P.pattern, qd = qd, engine = P.engine,
    seconds = P.seconds, ramp = P.ramp > 0 and P.ramp or nil, name = name }
  if jobs == 1 then return p.run(spec) end
  local res = p.parallel(jobs, function(i)
    spec.seed = i
    return p.run(spec)
  end, { name = name })
  if #res.failed > 0 then
    p.ewrite(string.format("platter: %s: %s: %s\n", NAME, name, tostring(res.failed[1].error)))
    p.exit(1)
  end
  return res.merged
end

local tol = P.tolerance / 100
p.write(string.format("%6s %11s %9s %10s %10s %10s %9s\n", "QD", "IOPS", "MiB/s", "mean_us",
  "p50_us", "p99_us", "little"))
p.flush()
local rows = {}
for _, qd in ipairs(depths) do
  local r = measure(qd)
  if r.error then
    p.ewrite(string.format("platter: %s: QD %d: %s\n", NAME, qd, r.error))
    p.exit(1)
  end
  local depth = qd * jobs
  local mean = r:mean()
  local little = depth > 0 and r.iops * mean / 1e9 / depth or 0
  local row = { qd = qd, jobs = jobs, depth = depth, ops = r.ops, iops = r.iops,
    mibps = r.seconds > 0 and r.bytes / r.seconds / 1048576 or 0,
    lat_mean_us = mean / 1e3, lat_p50_us = r:percentile(50) / 1e3,
    lat_p99_us = r:percentile(99) / 1e3, little = little,
    little_ok = math.abs(little - 1) <= tol }
  rows[#rows + 1] = row
  p.write(string.format("%6d %11.1f %9.1f %10.2f %10.2f %10.2f %5.2f %s\n", depth, row.iops,
    row.mibps, row.lat_mean_us, row.lat_p50_us, row.lat_p99_us, little,
    row.little_ok and "ok" or little < 1 and "low" or "high"))
  p.flush()
end

-- the knee
local knee
for i = 1, #rows - 1 do
  local a, b = rows[i], rows[i + 1]
  local gain = a.iops > 0 and (b.iops / a.iops - 1) * 100 or 0
  local growth = a.lat_mean_us > 0 and (b.lat_mean_us / a.lat_mean_us - 1) * 100 or 0
  a.next_gain_pct, a.next_lat_growth_pct = gain, growth
  if not knee and gain < P.gain and growth > P.lat_growth then knee = i end
end

local rule = string.format("the knee is the smallest QD whose next row (%s) adds less than %g%% "
  .. "IOPS while mean latency grows more than %g%%",
  P.qd_list and "the next depth listed" or "double the depth", P.gain, P.lat_growth)
local function us(x) return string.format("%.1f us", x) end
local function iops(x) return string.format("%.0f IOPS", x) end
local verdict
if knee then
  local k, n = rows[knee], rows[knee + 1]
  local from = knee == 1 and "" or string.format(" (QD %d: %s at %s)", rows[1].depth,
    iops(rows[1].iops), us(rows[1].lat_mean_us))
  verdict = string.format("The knee is at QD %d: %s at %s mean latency%s. Going on to QD %d adds "
    .. "%.1f%% IOPS and %.1f%% latency: past the knee the device is saturated and a deeper queue "
    .. "only waits longer.", k.depth, iops(k.iops), us(k.lat_mean_us), from, n.depth,
    k.next_gain_pct, k.next_lat_growth_pct)
elseif #rows < 2 then
  verdict = string.format("One depth only (QD %d: %s at %s): no knee can be found.", rows[1].depth,
    iops(rows[1].iops), us(rows[1].lat_mean_us))
else
  local last = rows[#rows - 1]
  verdict = string.format("No knee up to QD %d: the last step still added %.1f%% IOPS with %.1f%% "
    .. "more latency; try a larger --qd-max.", rows[#rows].depth, last.next_gain_pct,
    last.next_lat_growth_pct)
end
local low = {}
for _, row in ipairs(rows) do
  if not row.little_ok then low[#low + 1] = tostring(row.depth) end
end
local little_text
if #low == 0 then
  little_text = string.format("Little's law holds in every row (IOPS x mean latency within %g%% "
    .. "of QD): the queue was kept full.", P.tolerance)
else
  little_text = string.format("Little's law is off by more than %g%% at QD %s: there the queue "
    .. "was not kept full (or the latency includes waiting outside the device), so those rows do "
    .. "not measure the device at that depth.", P.tolerance, table.concat(low, ", "))
  if jobs > 1 and p.config.sim then
    little_text = little_text .. " Under --sim the workers run one after another."
  end
end
p.write("# rule: " .. rule .. "\n")
p.write("# verdict: " .. verdict .. "\n")
p.write("# little: " .. little_text .. "\n")

p.report(NAME, {
  rule = rule, gain_pct = P.gain, lat_growth_pct = P.lat_growth,
  little_tolerance_pct = P.tolerance, knee_qd = knee and rows[knee].depth or nil,
  little_ok = #low == 0, rows = rows, verdict = verdict, little = little_text,
  op = P.op, pattern = P.pattern, bs = P.bs, engine = P.engine, jobs = jobs,
  seconds = P.seconds,
})
p.verdict(verdict, { probe = NAME, answer = knee and "knee" or "no knee", rule = rule,
  knee_qd = knee and rows[knee].depth or nil, little_ok = #low == 0 })
f:close()
if scratch then p.remove(path) end
