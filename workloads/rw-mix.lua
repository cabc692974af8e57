-- rw-mix: read latency under a background write load of increasing rate
--
-- Two streams in one p.run at depth (io_uring or libaio, O_DIRECT), interleaved
-- as they are due: random reads of --read-bs at a steady --read-iops over the
-- first half of TARGET (or a scratch file), and writes of --write-bs (sequential
-- by default) over the second half at a rate that rises step by step: 0, then
-- --steps equal steps up to --max-write bytes/s. Both are open loops at their
-- rates with up to --qd I/Os in flight, and latency runs from when an I/O was
-- due, so a read that waited behind writes (for the device, or for a free slot)
-- counts that wait.
--
-- Unset, --read-iops is a quarter of what reads alone do at QD 1 (a light load
-- that mostly has one read in flight), and --max-write is what writes alone do at
-- --qd (saturation): both measured first, --seconds each.
--
-- Each step prints a row (the write rate asked and done, the reads' IOPS, mean,
-- p50 and p99, the writes' mean); the verdict is the highest write rate at which
-- the reads' p99 stays within --limit percent above its value with no writes.
-- The rows and the verdict are also the record's report "rw-mix" (--json), and
-- each step is a phase named "mix W" (W the write bytes/s asked).
local p = require "platter"

local NAME = "rw-mix"
local MB = 1e6

local P = p.script({
  name = NAME, version = "1.0", api = "platter/1",
  description = "read latency under a background write load of increasing rate",
  usage = "[options] [TARGET]",
  params = {
    target = { type = "path", positional = true, arg = "TARGET",
      help = "a file or block device (written: a device needs --destroy); default a scratch file" },
    size = { type = "size", default = "1g", min = "2m", help = "size of the scratch file" },
    read_bs = { type = "size", default = "4k", min = 512, help = "read block size" },
    write_bs = { type = "size", default = "128k", min = 512, help = "write block size" },
    write_pattern = { type = "enum", values = { "seq", "random" }, default = "seq" },
    read_iops = { type = "number", default = 0, min = 0, arg = "N",
      help = "the reads' rate (0: a quarter of the reads' QD-1 IOPS, measured)" },
    max_write = { type = "size", default = 0, arg = "BYTES",
      help = "the highest write rate, bytes/s (0: what writes alone do at --qd, measured)" },
    steps = { type = "int", default = 5, min = 1, max = 100, help = "write rates above 0" },
    qd = { type = "int", default = 32, min = 2, max = 4096, help = "I/Os in flight at most" },
    seconds = { type = "time", default = "5s", min = "1ms", help = "time per step" },
    limit = { type = "number", default = 100, min = 0, max = 100000, arg = "PCT",
      help = "verdict: read p99 at most PCT% above its value with no writes" },
    engine = { type = "enum", values = { "io_uring", "libaio" }, default = "io_uring" },
    arrivals = { type = "enum", values = { "poisson", "linear" }, default = "poisson",
      help = "the gaps between due times: exponential (a Poisson process) or even" },
  },
  needs = { write = true, device = "any" },
  epilog = "Without TARGET a scratch file of --size bytes is made in the current directory and\n"
    .. "removed at the end. TARGET's second half is overwritten.",
}, ...)

for _, k in ipairs({ "read_bs", "write_bs" }) do
  if P[k] % 512 ~= 0 then
    p.usage_error(NAME, string.format("--%s must be a multiple of 512", k:gsub("_", "-")))
  end
end

local path, scratch = P.target, false
if not path then
  path = p.scratch(string.format("platter-rw-mix.%d.dat", p.pid()))
  scratch = true
  p.log("%s: making scratch file %s (%s)", NAME, path, p.size_string(P.size))
  assert(p.open(path, { create = true, write = true, size = P.size, fill = "random" })):close()
end
local f, err = p.open(path, { direct = true, write = true })
if not f then
  p.ewrite("platter: ", NAME, ": ", err, "\n")
  p.exit(1)
end
local size = f:size()
local align = math.max(f:info().dio_align or 512, 512)
local half = math.floor(size / 2 / align) * align
if half < P.read_bs or size - half < P.write_bs then
  p.ewrite(string.format("platter: %s: %s is too small for --read-bs and --write-bs\n", NAME, path))
  p.exit(1)
end
local rlo, rhi = 0, half - half % P.read_bs         -- reads: [0, rhi)
local wlo = half
local wblocks = math.floor((size - wlo) / P.write_bs)  -- writes: whole blocks from half on

local function fail(what, r)
  p.ewrite(string.format("platter: %s: %s: %s\n", NAME, what, r.error))
  p.exit(1)
end

-- the calibrations
local read_iops, max_write = P.read_iops, P.max_write
if read_iops == 0 then
  local r = p.run { file = f, op = "read", bs = P.read_bs, pattern = "random", range = { rlo, rhi },
    qd = 1, engine = P.engine, seconds = P.seconds, name = "reads alone, qd 1" }
  if r.error then fail("reads alone", r) end
  read_iops = r.iops / 4
  if read_iops <= 0 then
    p.ewrite(string.format("platter: %s: reads alone did no I/O\n", NAME))
    p.exit(1)
  end
end
if max_write == 0 then
  local r = p.run { file = f, op = "write", bs = P.write_bs,
    pattern = P.write_pattern == "seq" and "seq" or "random",
    range = { wlo, wlo + wblocks * P.write_bs }, qd = P.qd, engine = P.engine,
    seconds = P.seconds, name = string.format("writes alone, qd %d", P.qd) }
  if r.error then fail("writes alone", r) end
  max_write = r.seconds > 0 and r.bytes / r.seconds or 0
end
p.log("%s: reads %s random at %.0f IOPS, writes %s %s up to %.1f MB/s, %d in flight at most, %s",
  NAME, p.size_string(P.read_bs), read_iops, p.size_string(P.write_bs), P.write_pattern,
  max_write / MB, P.qd, P.engine)

-- one step: reads at read_iops, writes at wbps, interleaved by due time
local function step(k, wbps)
  local wiops = wbps / P.write_bs
  local nr, nw, wnext = 0, 0, 0
  local rblocks = (rhi - rlo) / P.read_bs
  local function gen()
    -- the stream whose next I/O is due first (reads on ties)
    if wiops > 0 and nw / wiops < nr / read_iops then
      nw = nw + 1
      local b
      if P.write_pattern == "seq" then
        b = wnext
        wnext = (wnext + 1) % wblocks
      else
        b = p.random(0, wblocks - 1)
      end
      return "write", wlo + b * P.write_bs, P.write_bs
    end
    nr = nr + 1
    return "read", rlo + (p.random(0, rblocks - 1)) * P.read_bs, P.read_bs
  end
  local r = p.run { file = f, gen = gen, bs = math.max(P.read_bs, P.write_bs), qd = P.qd,
    engine = P.engine, rate_iops = read_iops + wiops, rate_process = P.arrivals, seconds = P.seconds,
    name = string.format("mix %.0f", wbps) }
  if r.error then fail(string.format("step %d", k), r) end
  local rd, wr = r.read, r.write
  return {
    step = k, write_bps_asked = wbps,
    write_bps = wr and r.seconds > 0 and wr.bytes / r.seconds or 0,
    write_lat_mean_us = wr and wr.ops > 0 and wr:mean() / 1e3 or 0,
    read_iops = rd and r.seconds > 0 and rd.ops / r.seconds or 0,
    read_lat_mean_us = rd and rd:mean() / 1e3 or 0,
    read_lat_p50_us = rd and rd:percentile(50) / 1e3 or 0,
    read_lat_p99_us = rd and rd:percentile(99) / 1e3 or 0,
  }
end

p.write(string.format("%11s %11s %10s %10s %10s %10s %10s\n", "write_MB/s", "done_MB/s",
  "read_IOPS", "rmean_us", "rp50_us", "rp99_us", "wmean_us"))
p.flush()
local rows = {}
for k = 0, P.steps do
  local row = step(k, max_write * k / P.steps)
  rows[#rows + 1] = row
  p.write(string.format("%11.1f %11.1f %10.1f %10.2f %10.2f %10.2f %10.2f\n",
    row.write_bps_asked / MB, row.write_bps / MB, row.read_iops, row.read_lat_mean_us,
    row.read_lat_p50_us, row.read_lat_p99_us, row.write_lat_mean_us))
  p.flush()
end

-- the verdict
local idle = rows[1].read_lat_p99_us
local bound = idle * (1 + P.limit / 100)
local ok_upto, first_bad = rows[1], nil
for i = 2, #rows do
  if rows[i].read_lat_p99_us <= bound and not first_bad then
    ok_upto = rows[i]
  elseif not first_bad then
    first_bad = rows[i]
  end
end
local saturated
for i = 2, #rows do
  if rows[i].write_bps < 0.9 * rows[i].write_bps_asked then
    saturated = rows[i]
    break
  end
end
local last = rows[#rows]
local verdict
if not first_bad then
  verdict = string.format("Reads keep their latency: p99 stays within %g%% of its %.1f us with no "
    .. "writes up to the highest write rate tried, %.1f MB/s (p99 %.1f us there).", P.limit, idle,
    last.write_bps_asked / MB, last.read_lat_p99_us)
else
  verdict = string.format("Background writes cost reads latency: p99 is %.1f us with no writes, "
    .. "stays within %g%% of it up to %.1f MB/s of writes, and is %.1f us (%.1fx) at %.1f MB/s.",
    idle, P.limit, ok_upto.write_bps_asked / MB, first_bad.read_lat_p99_us,
    idle > 0 and first_bad.read_lat_p99_us / idle or 0, first_bad.write_bps_asked / MB)
  if first_bad ~= last then
    verdict = verdict .. string.format(" At %.1f MB/s it is %.1f us.", last.write_bps_asked / MB,
      last.read_lat_p99_us)
  end
end
if saturated then
  verdict = verdict .. string.format(" At %.1f MB/s asked the device did only %.1f MB/s of writes "
    .. "beside the reads: saturated.", saturated.write_bps_asked / MB, saturated.write_bps / MB)
end
p.write("# rule: the highest write rate at which the reads' p99 stays within "
  .. string.format("%g%% above its value with no writes\n", P.limit))
p.write("# verdict: " .. verdict .. "\n")

p.report(NAME, {
  read_iops = read_iops, max_write_bps = max_write, read_bs = P.read_bs, write_bs = P.write_bs,
  write_pattern = P.write_pattern, qd = P.qd, engine = P.engine, seconds = P.seconds,
  limit_pct = P.limit, idle_read_p99_us = idle, ok_up_to_write_bps = ok_upto.write_bps_asked,
  saturated_at_write_bps = saturated and saturated.write_bps_asked or nil,
  rows = rows, verdict = verdict,
})
p.verdict(verdict, { probe = NAME, answer = first_bad and "reads slowed" or "reads kept",
  ok_up_to_write_bps = ok_upto.write_bps_asked, limit_pct = P.limit, idle_read_p99_us = idle })
f:close()
if scratch then p.remove(path) end
