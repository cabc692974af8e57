-- steady: the SNIA PTS IOPS test, block sizes x R/W mixes in rounds until steady state (p.steady) or round 25
--
-- The SNIA Solid State Storage Performance Test Specification's IOPS test,
-- as its steps read:
--   1. Purge. Not done here: platter sends no security erase or format (do it
--      first with the device's own tool when the PTS is followed exactly).
--   2. Workload-independent preconditioning: sequential 128 KiB writes over
--      the range, twice its size (--precondition shortens it,
--      --skip-precondition leaves it out).
--   3. Rounds of the test loop: for each R/W mix (reads/writes in percent:
--      100/0, 95/5, 65/35, 50/50, 35/65, 5/95, 0/100), for each block size
--      (1024k, 128k, 64k, 32k, 16k, 8k, 4k, 0.5k), random I/O over the range
--      for --time (the PTS: one minute), with O_DIRECT. Each cell is a p.run
--      named "round R BS R/W" ("round 3 4k 0/100").
--   4. The tracking variable is the IOPS of 4 KiB 0/100 (all writes); after
--      each round p.steady judges the last five rounds by the PTS rule (data
--      excursion <= 20%, slope excursion <= 10% of the window's average). The
--      loop stops when it holds, or at round 25 (--rounds).
--   5. The report: the convergence table (one row per round, the window's
--      figures from round 5), the verdict, and the steady-state window's
--      table: average IOPS per block size x mix over its five rounds.
-- Differences from the PTS: the cell's IOPS is the whole cell's (the PTS takes
-- the average over the minute too); no purge; queue depth and threads are the
-- tester's choice in the PTS as here (--qd, --threads). --report FILE writes
-- the rounds, the verdict and the table as JSON; `platter plot --kind steady`
-- draws the tracking variable per round with the window's bands.
local p = require "platter"
local cjson = require "cjson"

local NAME = "steady"
local BS = "1024k,128k,64k,32k,16k,8k,4k,0.5k"
local MIXES = "100/0,95/5,65/35,50/50,35/65,5/95,0/100"

local o = p.script({
  name = NAME, version = "1.0", api = "platter/1",
  description = "SNIA PTS IOPS test: block sizes x R/W mixes in rounds until steady state",
  params = {
    target = { type = "path", positional = true, help = "file or block device (written!)" },
    size = { type = "size", min = "1m",
      help = "the range tested from offset 0 (default: all of TARGET; 1g for the scratch file)" },
    time = { type = "time", default = "1m", min = "1ms", short = "t", help = "time a cell runs" },
    qd = { type = "int", min = 1, max = 1024, short = "q", help = "queue depth (default 32)" },
    threads = { type = "int", default = 1, min = 1, max = 256, short = "j", help = "threads (worker processes)" },
    bs = { type = "string", default = BS, arg = "LIST", help = "block sizes, comma-separated" },
    mixes = { type = "string", default = MIXES, arg = "LIST", help = "R/W mixes (read/write %), comma-separated" },
    rounds = { type = "int", default = 25, min = 5, max = 1000, help = "stop at this round if not steady" },
    precondition = { type = "size",
      help = "bytes of sequential 128 KiB writes before round 1 (default: twice the range)" },
    skip_precondition = { type = "bool", help = "no preconditioning" },
    report = { type = "path", arg = "FILE", help = "write the rounds and the verdict as JSON to FILE" },
  },
  needs = { write = true, device = "any", root = false },
  epilog = "TARGET is written over its range. Without one, a scratch file of --size is made\n"
    .. "in the current directory and removed at the end. Writing a block device needs --destroy.",
}, ...)

local qd = o.qd or 32

-- "1024k" -> 1048576; the label kept for the tables
local function bs_list(text)
  local out, seen = {}, {}
  for w in text:gmatch("[^,]+") do
    local n = p.parse_size(w)
    if not n or n < 512 or n % 512 ~= 0 then
      p.usage_error(NAME, string.format("--bs: '%s': a size of at least 512, a multiple of 512", w))
    end
    if seen[n] then p.usage_error(NAME, string.format("--bs: '%s': given twice", w)) end
    seen[n] = true
    out[#out + 1] = { bytes = n, label = n % 1024 == 0 and math.floor(n / 1024) .. "k"
      or string.format("%gk", n / 1024) }
  end
  if #out == 0 then p.usage_error(NAME, "--bs: no block size") end
  return out
end

local function mix_list(text)
  local out, seen = {}, {}
  for w in text:gmatch("[^,]+") do
    local r, wr = w:match("^(%d+)/(%d+)$")
    r, wr = tonumber(r), tonumber(wr)
    if not r or r + wr ~= 100 then
      p.usage_error(NAME, string.format("--mixes: '%s': READ/WRITE percentages adding up to 100", w))
    end
    if seen[r] then p.usage_error(NAME, string.format("--mixes: '%s': given twice", w)) end
    seen[r] = true
    out[#out + 1] = { read = r, label = r .. "/" .. wr }
  end
  if #out == 0 then p.usage_error(NAME, "--mixes: no mix") end
  return out
end

local sizes, mixes = bs_list(o.bs), mix_list(o.mixes)
local track -- the PTS's tracking variable: 4 KiB, 0/100
for _, b in ipairs(sizes) do
  for _, m in ipairs(mixes) do
    if b.bytes == 4096 and m.read == 0 then track = { bs = b, mix = m } end
  end
end
if not track then
  p.usage_error(NAME, "the tracking variable is 4 KiB 0/100 (all writes): --bs needs 4k and --mixes 0/100")
end

-- the JSON report's file, opened first so that a bad name fails before the rounds
local report
if o.report then
  local why
  report, why = p.output_file(o.report)
  if not report then
    p.ewrite("platter: steady: ", why, "\n")
    p.exit(1)
  end
end

-- {--- the target ---------------------------------------------------------------------
local path = o.target
if not path then
  path = p.scratch(string.format("platter-steady.%d.dat", p.pid()))
  local size = o.size or p.parse_size("1g")
  p.log("steady: making scratch file %s (%s)", path, p.size_string(size))
  assert(p.open(path, { create = true, write = true, size = size })):close()
end
local f, err = p.open(path, { direct = true, write = true })
if not f then
  p.ewrite("platter: steady: ", err, "\n")
  p.exit(1)
end
local align = f:info().dio_align or 512
for _, b in ipairs(sizes) do
  if b.bytes % align ~= 0 then
    p.usage_error(NAME, string.format("--bs: %s: %s takes O_DIRECT I/O in multiples of %d bytes only",
      b.label, path, align))
  end
end
local range = f:size()
if o.size and o.size < range then range = o.size end
local biggest = 0
for _, b in ipairs(sizes) do biggest = math.max(biggest, b.bytes) end
range = range - range % biggest
if range < biggest then
  p.ewrite(string.format("platter: steady: %s is smaller than one %d-byte request\n", path, biggest))
  p.exit(1)
end
-- }------------------------------------------------------------------------------------

local function check(s)
  if s.error then
    p.ewrite("platter: steady: ", s.error, "\n")
    p.exit(1)
  end
  return s
end

-- one cell: random I/O of bs at mix over the range for o.time; its IOPS
local function cell(name, bs, read)
  local job = { file = f, op = read == 100 and "read" or read == 0 and "write" or "mix",
    read_pct = (read ~= 100 and read ~= 0) and read or nil, pattern = "random", bs = bs,
    range = { 0, range }, seconds = o.time, qd = qd, name = name }
  if o.threads == 1 then return check(p.run(job)).iops end
  local res = p.parallel(o.threads, function() return p.run(job) end, { name = name })
  if #res.failed > 0 then
    p.ewrite("platter: steady: ", tostring(res.failed[1].error), "\n")
    p.exit(1)
  end
  return res.merged.iops
end

p.printf("steady: SNIA PTS IOPS test on %s (%s from offset 0)\n", path, p.size_string(range))
p.printf("%d block sizes x %d R/W mixes of random I/O, %g s a cell, queue depth %d, %d thread%s, "
  .. "at most %d rounds\n", #sizes, #mixes, o.time, qd, o.threads, o.threads == 1 and "" or "s", o.rounds)

local pre = o.precondition or 2 * range
if o.skip_precondition or pre == 0 then
  p.printf("precondition: skipped\n")
else
  local s = check(p.run { file = f, op = "write", pattern = "seq", bs = "128k", range = { 0, range },
    bytes = pre, qd = qd, name = "precondition" })
  p.printf("precondition: %s of sequential 128 KiB writes in %.1f s, %.1f MB/s\n",
    p.size_string(s.bytes), s.seconds, s.mbps)
end
p.flush()

local function pct(v) return v and string.format("%.1f%%", v) or "-" end

p.printf("\n%5s  %12s  %7s  %10s  %9s  %9s  %s\n", "round", track.bs.label .. " " .. track.mix.label,
  "window", "average", "data exc", "slope exc", "steady")
local rounds, tracked, verdict = {}, {}, nil
for round = 1, o.rounds do
  local cells = {}
  for _, m in ipairs(mixes) do
    for _, b in ipairs(sizes) do
      local iops = cell(string.format("round %d %s %s", round, b.label, m.label), b.bytes, m.read)
      cells[b.label .. " " .. m.label] = iops
      if b == track.bs and m == track.mix then tracked[round] = iops end
    end
  end
  rounds[round] = cells
  verdict = p.steady(tracked, { max_rounds = o.rounds })
  if verdict.average then
    p.printf("%5d  %12.1f  %7s  %10.1f  %9s  %9s  %s\n", round, tracked[round],
      verdict.window.first .. "-" .. verdict.window.last, verdict.average, pct(verdict.excursion_pct),
      pct(verdict.slope_excursion_pct), verdict.steady and "yes" or "no")
  else
    p.printf("%5d  %12.1f\n", round, tracked[round])
  end
  p.flush()
  if verdict.done then break end
end

local w = verdict.window
p.printf("\n")
if verdict.steady then
  p.printf("steady state reached at round %d (window rounds %d-%d):\n", verdict.round, w.first, w.last)
else
  p.printf("steady state not reached in %d rounds (last rounds %d-%d):\n", verdict.rounds, w.first, w.last)
end
p.printf("  %s %s average %.1f IOPS, data excursion %.1f = %s (limit 20%%), slope excursion %.1f = %s "
  .. "(limit 10%%)\n", track.bs.label, track.mix.label, verdict.average, verdict.excursion,
  pct(verdict.excursion_pct), verdict.slope_excursion, pct(verdict.slope_excursion_pct))

-- the window's table: average IOPS per block size x mix over its rounds
if verdict.steady then
  p.printf("\nsteady-state window, rounds %d-%d: average IOPS\n", w.first, w.last)
else
  p.printf("\nthe last rounds, %d-%d (not steady): average IOPS\n", w.first, w.last)
end
p.printf("%-6s", "bs")
for _, m in ipairs(mixes) do p.printf("  %9s", m.label) end
p.printf("\n")
local table_out = {}
for _, b in ipairs(sizes) do
  p.printf("%-6s", b.label)
  local row = {}
  for _, m in ipairs(mixes) do
    local key, sum = b.label .. " " .. m.label, 0
    for r = w.first, w.last do sum = sum + rounds[r][key] end
    row[m.label] = sum / (w.last - w.first + 1)
    p.printf("  %9.1f", row[m.label])
  end
  table_out[b.label] = row
  p.printf("\n")
end

-- the findings: the record's report "steady" and verdict (--json), and --report FILE
local bl, ml = {}, {}
for i, b in ipairs(sizes) do bl[i] = b.label end
for i, m in ipairs(mixes) do ml[i] = m.label end
local findings = {
  target = path, range = range, cell_seconds = o.time, qd = qd, threads = o.threads,
  block_sizes = bl, mixes = ml, tracking = track.bs.label .. " " .. track.mix.label,
  tracked = tracked, rounds = rounds,
  steady = verdict.steady, round = verdict.round, window = w, average = verdict.average,
  excursion = verdict.excursion, excursion_pct = verdict.excursion_pct, slope = verdict.slope,
  slope_excursion = verdict.slope_excursion, slope_excursion_pct = verdict.slope_excursion_pct,
  window_table = table_out,
}
p.report(NAME, findings)
p.verdict(verdict.steady
  and string.format("Steady state (SNIA PTS) reached at round %d: %s %s averages %.1f IOPS over "
    .. "rounds %d-%d.", verdict.round, track.bs.label, track.mix.label, verdict.average, w.first, w.last)
  or string.format("Steady state (SNIA PTS) not reached in %d rounds.", verdict.rounds),
  { probe = NAME, answer = verdict.steady and "steady" or "not steady", round = verdict.round,
    rounds = verdict.rounds, average = verdict.average, excursion_pct = verdict.excursion_pct,
    slope_excursion_pct = verdict.slope_excursion_pct })
if report then
  report:write(cjson.encode(findings), "\n")
  report:close()
end
f:close()
