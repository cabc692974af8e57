-- readahead: is the kernel reading ahead? Its window (mincore) and short consecutive reads with readahead on and off (seed 004)
--
-- Seed 004 (1989): dd bs=8k from a block device took 144.8 s on one system
-- and 18.4 s on another. The answer was readahead: without it each short,
-- consecutive request waits about one revolution, 2 KiB / 18 ms = 114 KiB/s.
-- This probe answers the question for TARGET in one command:
--
--   1. The window: drop TARGET's cached pages, read one small request at
--      --offset, and count with mincore (f:resident) how much the kernel
--      brought in; then read --count consecutive requests and record how
--      far ahead of the reader the cached pages reach. The larger of the
--      two is the effective readahead window.
--   2. The cost per request: --count consecutive read(2) calls of each size
--      in --sizes (default 2 KiB and 8 KiB, the seed's), from a dropped
--      cache, with readahead as set and with it off. Off means BLKRASET 0
--      on a block device (root; restored afterwards on every exit path),
--      else POSIX_FADV_RANDOM on a second descriptor (which turns
--      readahead off for that descriptor only and changes nothing else).
--   3. A verdict: working or not, the window in KiB, and the time per
--      request and the rate with and without readahead.
--
-- The phases are "window <size>", "readahead on <size>" and "readahead off
-- <size>" (size in bytes), each of --count reads.
local p = require "platter"
-- the manifest (platter describe, platter plan); the arguments are read below,
-- with the original tool's syntax
p.script({
  name = "readahead", version = "1.0", api = "platter/1", args = "own",
  description = "a readahead probe: consecutive small reads with and without readahead",
  params = {
    target = { type = "path", positional = true,
      help = "a file or device to read; without one, a scratch file is made" },
    size = { type = "size", flag = "-s", default = "32m", help = "size of the scratch file" },
    count = { type = "int", flag = "-c", default = 256, help = "reads per size" },
    sizes = { type = "string", flag = "--sizes", default = "2k,8k", help = "request sizes, comma-separated" },
  },
  needs = { write = true, device = "any" },
}, ...)

local NAME = "readahead"

local o = p.args({
  name = NAME,
  usage = "[options] [TARGET]",
  summary = "Is readahead working? The window the kernel reads ahead, and short "
    .. "consecutive reads timed with readahead on and off.",
  options = {
    { "--sizes", arg = "LIST", default = "2k,8k", help = "request sizes, comma-separated" },
    { "-c", "--count", arg = "N", type = "int", default = 256,
      help = "consecutive requests per measurement" },
    { "--offset", arg = "SIZE", type = "size", default = "0", help = "where the reads start" },
    { "-s", "--size", arg = "SIZE", type = "size", default = "32m",
      help = "size of the scratch file made when no TARGET is given" },
  },
  positional = { { "target", arg = "TARGET", optional = true } },
  epilog = "TARGET is a block device or a file, read only; without one, a scratch file of\n"
    .. "--size bytes is made in the current directory and removed at the end. A device's\n"
    .. "readahead is set to 0 only for the 'off' measurement (needs root) and then put\n"
    .. "back; without root, or for a file, readahead is turned off with POSIX_FADV_RANDOM.",
}, ...)

local sizes = {}
for w in o.sizes:gmatch("[^,]+") do
  local n, why = p.parse_size(w)
  if not n or n < 1 then p.usage_error(NAME, string.format("bad size '%s' in --sizes%s", w,
    why and (": " .. why) or "")) end
  sizes[#sizes + 1] = n
end
if #sizes == 0 then p.usage_error(NAME, "--sizes is empty") end
if o.count < 1 then p.usage_error(NAME, "--count must be at least 1") end

local path = o.target
if not path then
  path = p.scratch(string.format("platter-readahead.%d.dat", p.pid()))
  p.log("readahead: making scratch file %s (%s)", path, p.size_string(o.size))
  assert(p.open(path, { create = true, write = true, size = o.size, fill = "random" })):close()
end

local f, err = p.open(path)
if not f then
  p.ewrite("platter: readahead: ", err, "\n")
  p.exit(1)
end
local info = f:info()
local size = f:size()
local largest = 0
for _, s in ipairs(sizes) do largest = math.max(largest, s) end
if o.offset + largest * o.count > size then
  p.ewrite(string.format("platter: readahead: %s is too small: %d reads of %d bytes from offset %d "
    .. "need %d bytes\n", path, o.count, largest, o.offset, o.offset + largest * o.count))
  p.exit(1)
end

local function kib(bytes)
  if bytes % 1024 == 0 then return string.format("%d KiB", bytes / 1024) end
  return string.format("%d B", bytes)
end

-- Drop TARGET's pages: f:drop_cache(), or fadvise DONTNEED when that fails
-- (BLKFLSBUF needs root).
local function drop(file)
  if not file:drop_cache() then file:advise("dontneed") end
end

-- The page size, from how many pages mincore counts for a known length.
local function page_size()
  local len = math.min(size, 1048576)
  local _, total = f:resident(0, len)
  if total and total > 0 then return math.floor(len / total + 0.5) end
  return 4096
end

-- ---------------------------------------------------------------------------
-- 1. The window
-- ---------------------------------------------------------------------------

local page = page_size()
local ra_kb = f:readahead()  -- nil when the filesystem has no block device
local span = size - o.offset
local window = { droppable = true }
do
  local sz = sizes[1]
  -- --count reads, or more, up to twice the readahead setting, so the window can ramp up
  local n = math.max(math.min(o.count, 16384), math.floor(2 * (ra_kb or 0) * 1024 / sz))
  n = math.min(n, 16384, math.floor((size - o.offset) / sz))
  local probe = math.min(span, n * sz + 2 * (ra_kb or 0) * 1024 + 1048576)
  drop(f)
  local before = f:resident(o.offset, probe)
  window.droppable = before ~= nil and before == 0
  -- Pages only arrive (the file fits in memory), so the growth of the cached
  -- count at each read is what that read made the kernel fetch.
  local first, chunk, lead, prev = 0, 0, 0, before or 0
  p.phase("window " .. sz, function()
    f:seek(o.offset)
    for k = 1, n do
      f:read(sz)
      local now = f:resident(o.offset, probe) or prev
      local got = (now - prev) * page
      if k == 1 then first = got end
      if got > chunk then chunk = got end
      local ahead = now * page - k * sz
      if ahead > lead then lead = ahead end
      prev = now
    end
  end)
  window.reads, window.first, window.chunk, window.lead = n, first, chunk, lead
  window.kb = math.floor(chunk / 1024)
end

-- ---------------------------------------------------------------------------
-- 2. Consecutive reads, readahead on and off
-- ---------------------------------------------------------------------------

local function consecutive(file, label, sz)
  drop(file)
  local s = p.phase(string.format("readahead %s %d", label, sz), function()
    file:seek(o.offset)
    for _ = 1, o.count do file:read(sz) end
  end)
  return { per = s.ops > 0 and s.seconds / s.ops or 0, rate = s.seconds > 0 and s.bytes / s.seconds or 0 }
end

local on, off = {}, {}
for i, sz in ipairs(sizes) do on[i] = consecutive(f, "on", sz) end

-- Off: BLKRASET 0 on a device (restored whatever happens), else FADV_RANDOM.
local how
if info.kind == "block" and ra_kb and ra_kb > 0 and f:readahead(0) == 0 then
  how = "BLKRASET 0"
  local ok, e = pcall(function()
    for i, sz in ipairs(sizes) do off[i] = consecutive(f, "off", sz) end
  end)
  -- After a signal every platter call raises "interrupted", so the restore can
  -- fail then: say how to put the setting back by hand.
  local back_ok, back = pcall(f.readahead, f, ra_kb)
  if not back_ok or back ~= ra_kb then
    p.ewrite(string.format("platter: readahead: could not restore the readahead of %s to %d KiB "
      .. "(%s): restore it with: blockdev --setra %d %s\n", path, ra_kb,
      tostring(back_ok and "read back " .. tostring(back) or back), ra_kb * 2, path))
  end
  if not ok then error(e, 0) end
else
  how = "POSIX_FADV_RANDOM"
  local g = assert(p.open(path))
  assert(g:advise("random"))
  for i, sz in ipairs(sizes) do off[i] = consecutive(g, "off", sz) end
  g:close()
end

-- ---------------------------------------------------------------------------
-- 3. Report
-- ---------------------------------------------------------------------------

local function us(sec)
  local v = sec * 1e6
  if v >= 1000 then return string.format("%.2f ms", v / 1000) end
  return string.format("%.1f us", v)
end

local function rate(bps)
  local k = bps / 1024
  if k >= 10240 then return string.format("%.1f MiB/s", k / 1024) end
  return string.format("%.1f KiB/s", k)
end

local where = info.kind == "block" and "block device" or (info.fs_type or info.kind)
if info.device then where = where .. " on " .. info.device end
local setting
if ra_kb then
  setting = string.format("read_ahead_kb %d", ra_kb)
else
  setting = "no block device: read_ahead_kb unknown"
end
p.printf("readahead probe of %s (%s, %s)\n", path, where, setting)
if not window.droppable then
  p.printf("its pages could not be dropped from the page cache: every read below is a cache hit\n")
end
p.printf("one %s read at offset %d after dropping the cache brought in %s\n", kib(sizes[1]), o.offset,
  kib(window.first))
p.printf("during %d consecutive %s reads it read ahead up to %s at a time and kept up to %s "
  .. "ahead of the reader\n", window.reads, kib(sizes[1]), kib(window.chunk), kib(window.lead))
p.printf("effective readahead window: %d KiB\n\n", window.kb)

local rows, wt, wr = {}, 0, 0
for i, sz in ipairs(sizes) do
  local r = { kib(sz), us(on[i].per), rate(on[i].rate), us(off[i].per), rate(off[i].rate) }
  rows[i] = r
  wt = math.max(wt, #r[2], #r[4])
  wr = math.max(wr, #r[3], #r[5])
end
local w1 = #"request"
for _, r in ipairs(rows) do w1 = math.max(w1, #r[1]) end
p.printf("%-" .. w1 .. "s  %-" .. (wt + wr + 2) .. "s  %s\n", "request", "readahead as set",
  "readahead off (" .. how .. ")")
local row_fmt = string.format("%%-%ds  %%%ds  %%%ds  %%%ds  %%%ds\n", w1, wt, wr, wt, wr)
for _, r in ipairs(rows) do p.printf(row_fmt, r[1], r[2], r[3], r[4], r[5]) end
p.write("\n")

local sz1 = sizes[1]
local speedup = on[1].per > 0 and off[1].per / on[1].per or 0
if not window.droppable then
  p.printf("cannot tell: the page cache could not be dropped for %s (tmpfs? overlay?), so the "
    .. "kernel never reads from a device here\n", path)
elseif window.chunk > math.ceil(sz1 / page) * page then
  p.printf("readahead is working: the kernel reads up to %d KiB ahead; consecutive %s reads take "
    .. "%s each with it and %s without (%.1fx)\n", window.kb, kib(sz1), us(on[1].per),
    us(off[1].per), speedup)
else
  p.printf("readahead is NOT working: a %s read brings in only %s, so each short consecutive "
    .. "read waits for the device: %s each (%s), against %s without readahead\n", kib(sz1),
    kib(window.first), us(on[1].per), rate(on[1].rate), us(off[1].per))
end
f:close()
if not o.target then p.remove(path) end
