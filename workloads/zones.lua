-- zones: sequential read throughput at N evenly spaced offsets across a device or file (outer vs inner zones)
--
-- Seed 002 (1999): a 5400-RPM drive reads 15 MB/s at its start and 9 MB/s
-- at its end, because the outer cylinders hold more sectors per track. This
-- reads --bytes sequentially (--bs requests) at each of --points offsets
-- spread evenly from the start to the end of TARGET, with O_DIRECT unless
-- --cached, and prints one row per point, for a plot:
--
--   zone<TAB>offset<TAB>MiB/s         header
--   <i><TAB><byte offset><TAB>%.2f     one row per point, i = 0 .. N-1
--   # first <MiB/s>, last <MiB/s>, last/first <ratio>
--
-- Offset i is i * (size - bytes) / (N - 1), rounded down to a multiple of
-- 1 MiB (or of the request size when that is larger), so the first point
-- reads the start and the last one ends at the end. Each point is a p.run
-- phase named "zone <i> at <offset>" (offset in bytes), which is what
-- `platter plot --kind zones` reads from a result record. MiB/s is bytes /
-- seconds / 2^20 (the seed's tools said MB and meant MiB).
local p = require "platter"
-- the manifest (platter describe, platter plan); the arguments are read below,
-- with the original tool's syntax
p.script({
  name = "zones", version = "1.0", api = "platter/1", args = "own",
  description = "a zone curve: sequential read throughput at evenly spaced offsets",
  params = {
    target = { type = "path", positional = true,
      help = "a block device or file, read only; without one, a scratch file is made" },
    points = { type = "int", flag = "-n", default = 10, help = "number of offsets" },
    bytes = { type = "size", flag = "-b", default = "64m", help = "bytes read at each offset" },
    bs = { type = "size", flag = "--bs", default = "1m", help = "request size" },
    size = { type = "size", flag = "-s", default = "256m", help = "size of the scratch file" },
  },
  needs = { write = true, device = "any" },
}, ...)

local NAME = "zones"
local MiB = 1048576

local o = p.args({
  name = NAME,
  usage = "[options] [TARGET]",
  summary = "Sequential read throughput at evenly spaced offsets across TARGET: "
    .. "outer vs inner zones of a disk.",
  options = {
    { "-n", "--points", arg = "N", type = "int", default = 10, help = "number of offsets" },
    { "-b", "--bytes", arg = "SIZE", type = "size", default = "64m", help = "bytes read at each offset" },
    { "--bs", arg = "SIZE", type = "size", default = "1m", help = "request size" },
    { "--cached", help = "read through the page cache (dropped before each point) instead of O_DIRECT" },
    { "-s", "--size", arg = "SIZE", type = "size", default = "256m",
      help = "size of the scratch file made when no TARGET is given" },
  },
  positional = { { "target", arg = "TARGET", optional = true } },
  epilog = "TARGET is a block device or a file, read only; without one, a scratch file of\n"
    .. "--size bytes is made in the current directory and removed at the end. --bytes\n"
    .. "shrinks to fit when TARGET is small.",
}, ...)

if o.points < 1 then p.usage_error(NAME, "--points must be at least 1") end
if o.bs < 512 or o.bs % 512 ~= 0 then p.usage_error(NAME, "--bs must be a multiple of 512") end
if o.bytes < o.bs then p.usage_error(NAME, "--bytes must be at least --bs") end

local path = o.target
if not path then
  path = p.scratch(string.format("platter-zones.%d.dat", p.pid()))
  p.log("zones: making scratch file %s (%s)", path, p.size_string(o.size))
  assert(p.open(path, { create = true, write = true, size = o.size, fill = "random" })):close()
end

local f, err = p.open(path, { direct = not o.cached })
if not f then
  p.ewrite("platter: zones: ", err, "\n")
  p.exit(1)
end
local size = f:size()
local info = f:info()
local align = math.max(MiB, o.bs)
if (info.dio_align or 512) > align then align = info.dio_align end

-- What fits: whole requests, at least one.
local bytes = o.bytes - o.bytes % o.bs
if bytes > size then bytes = size - size % o.bs end
if bytes < o.bs then
  p.ewrite(string.format("platter: zones: %s is smaller than one %d-byte request\n", path, o.bs))
  p.exit(1)
end

local offsets = {}
for i = 0, o.points - 1 do
  local off = 0
  if o.points > 1 then off = math.floor(i * (size - bytes) / (o.points - 1)) end
  off = off - off % align
  if off + bytes > size then off = size - bytes - (size - bytes) % o.bs end
  offsets[#offsets + 1] = off
end

p.log("zones: %s, %d points of %s in %s requests, %s", path, o.points, p.size_string(bytes),
  p.size_string(o.bs), o.cached and "through the page cache" or "O_DIRECT")
p.write("zone\toffset\tMiB/s\n")
p.flush()

local rates = {}
for i, off in ipairs(offsets) do
  if o.cached then f:drop_cache() end
  local s = p.run {
    file = f, op = "read", bs = o.bs, pattern = "seq", range = { off, off + bytes },
    bytes = bytes, engine = "psync", name = string.format("zone %d at %d", i - 1, off),
  }
  if s.error then
    p.ewrite("platter: zones: ", s.error, "\n")
    p.exit(1)
  end
  local rate = s.seconds > 0 and s.bytes / s.seconds / MiB or 0
  rates[i] = rate
  p.printf("%d\t%d\t%.2f\n", i - 1, off, rate)
  p.flush()
end

if #rates > 1 and rates[1] > 0 then
  p.printf("# first %.2f, last %.2f, last/first %.2f\n", rates[1], rates[#rates],
    rates[#rates] / rates[1])
end
f:close()
if not o.target then p.remove(path) end
