-- vwc: is the device's write cache volatile, and is a flush honoured? Plain writes against write+fdatasync and O_DSYNC writes
--
-- A drive with a volatile write cache completes a write once the data is in
-- its cache; only a flush (what fsync and fdatasync send, and an O_DSYNC
-- write implies) makes the drive write the cache to its media. This probe
-- times three runs of --count direct (O_DIRECT) writes of --bs bytes, each
-- run going sequentially through the first MiB of TARGET:
--
--   1. "write": plain writes;
--   2. "write+fdatasync": each write followed by fdatasync;
--   3. "O_DSYNC write": writes through a second descriptor opened O_DSYNC.
--
-- Before each run an fdatasync (not timed) empties the drive's cache of the
-- run before. The rule: a flush is honoured when a write and its fdatasync
-- take, by their medians, at least RATIO (3) times the plain write's median
-- and at least FLOOR_US (20 us) more. Linux sends flushes only to a device
-- whose queue/write_cache says "write back", so the verdict reads that too:
--
--   flush costs  write_cache     verdict
--   yes          write back/?    volatile write cache, flushes honoured
--   no           write back      flushes appear to be ignored
--   either       write through   no volatile cache (write-through)
--   no           unknown         no volatile cache seen (write-through, or flushes ignored)
local p = require "platter"

local NAME = "vwc"
local RATIO, FLOOR_US = 3, 20
local SPAN = 1048576

local P = p.script({
  name = NAME, version = "1.0", api = "platter/1",
  description = "is the write cache volatile and is a flush honoured: write vs "
    .. "write+fdatasync vs O_DSYNC latency",
  params = {
    target = { type = "path", positional = true,
      help = "a file or block device to write (its first MiB); default: a scratch file" },
    bs = { type = "size", default = "4k", min = "512", max = "1m", help = "bytes per write" },
    count = { type = "int", default = 200, min = 10, max = 1000000, short = "c",
      help = "writes per run" },
    seconds = { type = "time", default = "10s", min = "1ms", help = "time limit of each run" },
    size = { type = "size", default = "4m", min = "1m",
      help = "size of the scratch file made when no TARGET is given" },
  },
  needs = { write = true, device = "any" },
  epilog = "Writes go to the first MiB of TARGET, which they overwrite (a block device needs\n"
    .. "--destroy). The rule: a flush is honoured when write+fdatasync takes at least "
    .. RATIO .. "x\nthe plain write's median latency and at least " .. FLOOR_US
    .. " us more.",
}, ...)

local path = P.target
if not path then
  path = p.scratch(string.format("platter-vwc.%d.dat", p.pid()))
  p.log("vwc: making scratch file %s (%s)", path, p.size_string(P.size))
  assert(p.open(path, { create = true, write = true, size = P.size })):close()
end

local function open(opts, what)
  local f, err = p.open(path, opts)
  if not f then
    p.ewrite(string.format("platter: vwc: %s%s\n", err, err:find("O_DIRECT", 1, true) and ""
      or string.format(" (the probe needs %s)", what)))
    p.exit(1)
  end
  return f
end
local f = open({ write = true, direct = true }, "O_DIRECT writes")
local g = open({ write = true, direct = true, dsync = true }, "O_DIRECT and O_DSYNC writes")
local info = f:info()
local span = math.min(SPAN, f:size())
if P.bs % (info.dio_align or 512) ~= 0 then
  p.usage_error(NAME, string.format("--bs %d is not a multiple of %s's O_DIRECT alignment (%d)",
    P.bs, path, info.dio_align or 512))
end
if span < P.bs then
  p.ewrite(string.format("platter: vwc: %s is too small: %d bytes, less than --bs %d\n", path,
    f:size(), P.bs))
  p.exit(1)
end
span = span - span % P.bs

local function job(file, name, extra)
  assert(f:fdatasync())  -- the run before leaves nothing in the drive's cache
  local t = { file = file, name = name, op = "write", bs = P.bs, range = { 0, span },
    count = P.count, seconds = P.seconds }
  for k, v in pairs(extra or {}) do t[k] = v end
  return p.run(t)
end
local plain = job(f, "write")
local synced = job(f, "write+fdatasync", { fsync_every = 1, fdatasync = true })
local dsync = job(g, "O_DSYNC write")

-- medians in ns: a write's; a write and its fdatasync's; an O_DSYNC write's
local w50 = plain.write:percentile(50)
local f50 = synced.write:percentile(50) + (synced.fsync and synced.fsync:percentile(50) or 0)
local d50 = dsync.write:percentile(50)
local function costly(x) return x >= RATIO * w50 and x - w50 >= FLOOR_US * 1000 end
local flush_costs, dsync_costs = costly(f50), costly(d50)

local function us(ns) return string.format("%.1f", ns / 1000) end
local function ratio(ns) return w50 > 0 and string.format("%.2fx", ns / w50) or "-" end
local wc = info.write_cache
local where = info.kind == "block" and "block device" or (info.fs_type or info.kind)
if info.device then where = where .. " on " .. info.device end
p.printf("vwc: write cache probe of %s (%s, write_cache: %s)\n", path, where, wc or "unknown")
p.printf("%d direct writes of %s per run, sequential over the first %s\n\n", P.count,
  p.size_string(P.bs), p.size_string(span))
local rows = {
  { "write", plain.write.ops, w50, plain.write:mean() },
  { "write+fdatasync", synced.write.ops, f50,
    synced.write:mean() + (synced.fsync and synced.fsync:mean() or 0) },
  { "O_DSYNC write", dsync.write.ops, d50, dsync.write:mean() },
}
p.printf("%-16s %6s %10s %10s %9s\n", "run", "ops", "p50 us", "mean us", "vs write")
for _, r in ipairs(rows) do
  p.printf("%-16s %6d %10s %10s %9s\n", r[1], r[2], us(r[3]), us(r[4]), ratio(r[3]))
end
p.printf("\nrule: a flush is honoured when write+fdatasync takes at least %gx the plain write's\n"
  .. "median latency and at least %d us more\n", RATIO, FLOOR_US)

local answer, text
if wc == "write through" then
  answer, text = "write-through", "no volatile cache (write-through)"
elseif flush_costs then
  answer, text = "honoured", "volatile write cache, flushes honoured"
elseif wc == "write back" then
  answer, text = "ignored", "flushes appear to be ignored"
else
  answer, text = "unknown", "no volatile cache seen (write-through, or flushes ignored: the "
    .. "device does not say which)"
end
if answer == "write-through" then
  p.printf("the device says write through: the kernel sends it no flushes%s\n", flush_costs
    and string.format(", so fdatasync's %s us is the file system's own writing", us(f50 - w50))
    or "")
elseif answer == "ignored" then
  p.printf("the device says write back (a volatile cache), yet a flush costs %s us more than a "
    .. "write\n", us(f50 - w50))
end
if flush_costs ~= dsync_costs and answer ~= "write-through" then
  p.printf("note: O_DSYNC writes %s (%s): they are written %s\n", dsync_costs and "cost" or
    "do not cost more", ratio(d50), dsync_costs and "through though fdatasync is cheap" or
    "with FUA or not at all, which a drive may ignore")
end
p.printf("verdict: %s\n", text)
p.verdict(text, { probe = NAME, answer = answer, write_cache = wc, write_p50_ns = w50,
  flush_p50_ns = f50, dsync_p50_ns = d50, flush_costs = flush_costs, dsync_costs = dsync_costs,
  rule = { ratio = RATIO, floor_us = FLOOR_US } })
f:close()
g:close()
if not P.target then p.remove(path) end
