-- hdparm -t/-T: buffered disk reads and cached reads in 2 MiB blocks, the lines of hdparm 5.5 to 9.65 and 1996
--
-- What hdparm 9.65 does for each DEVICE (a block device, or a regular file
-- for testing): print "\nDEVICE:\n", then
--   -T  read the first 2 MiB once, flush the cache, pause 1 s, then re-read
--       those 2 MiB (lseek 0 + read) until 2 s have passed; subtract the time
--       of as many lseek+clock calls alone; flush again, pause 1 s:
--       " Timing cached reads:   N MB in  T seconds = R MB/sec"
--   -t  read on in 2 MiB blocks from the start (or --offset GiB) until 3 s
--       have passed or the device ends; flush the cache afterwards:
--       " Timing buffered disk reads: N MB in  T seconds =  R MB/sec"
-- Each test first syncs and pauses 3 s ("give time for I/O to settle").
-- A lone -t is not preceded by a flush: that is hdparm's rule (--flush-first
-- adds one). --as picks an older hdparm (read from hdparm.c of 5.5, 5.8,
-- 6.1, 6.6, 6.9, 7.1, 7.7, 8.6, 8.9, 9.43, 9.65): ERAS below; 1996/1999 are the
-- fixed-size "buffer-cache" test of hdparm up to 3.x that seed 002 shows.
-- --style is the older name (9 = 9.29, 6 = 8.6).
local p = require "platter"
-- the manifest (platter describe, platter plan); the arguments are read below,
-- with the original tool's syntax
p.script({
  name = "hdparm", version = "1.0", api = "platter/1", args = "own",
  description = "hdparm -t / -T: buffered disk reads and cached reads",
  params = {
    device = { type = "path", positional = true, help = "the device (or file) to time" },
    disk = { type = "bool", flag = "-t", help = "time sequential reads (buffered disk reads)" },
    cached = { type = "bool", flag = "-T", help = "time re-reads of the first 2 MiB (cached reads)" },
    direct = { type = "bool", flag = "--direct", help = "open with O_DIRECT" },
  },
  needs = { write = false, device = "any", root = true },
}, ...)
local classic = require "platter.classic"

local NAME = "hdparm"
local MiB, GiB = 1024 * 1024, 1024 * 1024 * 1024
local EIO = 5

local o = p.args({
  name = NAME,
  usage = "[-tT] [--direct] [--offset GiB] DEVICE...",
  summary = "hdparm's read timings: -T cached reads, -t buffered disk reads, "
    .. "as hdparm 9.x (or, with --as, an older release) prints them.",
  options = {
    { "-t", help = "time sequential 2 MiB reads for 3 s (buffered disk reads)" },
    { "-T", help = "time re-reads of the first 2 MiB for 2 s (cached reads)" },
    { "--direct", help = "open with O_DIRECT: bypass the page cache" },
    { "--offset", arg = "GiB", type = "int", help = "start -t this many GiB into the device" },
    { "-q", help = "do not print the \"DEVICE:\" line" },
    { "--as", arg = "VERSION", choices = { "9.29", "8.6", "7.1", "6.9", "5.8", "5.5", "1999", "1996" },
      default = "9.29",
      help = "behave and print as this hdparm: 9.29 (to 9.65), 8.6 (8.x to 9.28), 7.1 (to 7.7), "
        .. "6.9, 5.8 (to 6.6: -T figures doubled), 5.5 (\"buffer-cache\"), or the fixed-size "
        .. "\"buffer-cache\" test of 1999 (64 MB) or 1996 (16 MB)" },
    { "--style", arg = "VERSION", choices = { "9", "6", "1999", "1996" },
      help = "the older name of --as: 9 = 9.29, 6 = 8.6" },
    { "--buffer-cache", help = "the 1999 test and wording of seed 002: same as --as 1999" },
    { "--timing-mb", arg = "MB", type = "int",
      help = "with --as 1996/1999: MB read by -t (-T reads twice as much)" },
    { "--flush-first", help = "drop DEVICE's cached pages before -t (hdparm does not)" },
    { "--settle", arg = "TIME", type = "time", default = "3s",
      help = "pause after the sync that starts each test" },
    { "--pause", arg = "TIME", type = "time", default = "1s", help = "pause after each cache flush" },
    { "--cached-time", arg = "TIME", type = "time", default = "2s", help = "minimum time of -T" },
    { "--disk-time", arg = "TIME", type = "time", default = "3s", help = "minimum time of -t" },
  },
  positional = { { "device", arg = "DEVICE" } },
  rest = true,
  epilog = "DEVICE may be a block device or, for testing, a regular file; several may be\n"
    .. "given. platter has no system-wide sync(): an fsync of DEVICE stands in for it.",
}, ...)

-- What changed between the releases (hdparm.c of each): the -t label's spaces
-- (label "6": two after the colon, until 9.28), what comes between -T's first
-- read and its loop (a full cache flush from 8.x, before that sync + sleep),
-- whether -t ends with a flush (from 7.1; before, only with -f), and 5.4-6.6's
-- BUFCACHE_FACTOR, which doubled the MB figure and the rate of -T.
local ERAS = {
  ["9.29"] = { label = "9", preflush = true, tflush = true },
  ["8.6"] = { label = "6", preflush = true, tflush = true },
  ["7.1"] = { label = "6", tflush = true },
  ["6.9"] = { label = "6" },
  ["5.8"] = { label = "6", factor = 2 },
  ["5.5"] = { label = "1999", factor = 2, no_direct = true },
  ["1999"] = { label = "1999", legacy = true },
  ["1996"] = { label = "1996", legacy = true },
}
local STYLES = { ["9"] = "9.29", ["6"] = "8.6", ["1999"] = "1999", ["1996"] = "1996" }
local version = o.buffer_cache and "1999" or (o.style and STYLES[o.style]) or o.as
local era = ERAS[version]
local style = era.label
local legacy = era.legacy
if not o.t and not o.T then p.usage_error(NAME, "nothing to do: give -t, -T or both") end
if o.offset and version ~= "9.29" then
  p.usage_error(NAME, "--offset needs --as 9.29 (it came with hdparm 9.29)")
end
if o.direct and era.no_direct then
  p.usage_error(NAME, "--direct needs --as 5.8 or later (it came with hdparm 5.8)")
end
if o.offset and o.offset < 0 then p.usage_error(NAME, "--offset must not be negative") end
local timing_mb = o.timing_mb or (version == "1996" and 16 or 64)
if timing_mb < 1 then p.usage_error(NAME, "--timing-mb must be at least 1") end

local function secs(ns) return ns / 1e9 end

-- hdparm's sync(): platter has none system-wide; flush this device's writes.
local function sync(f) f:fsync() end

-- flush_buffer_cache: sync, fsync, fdatasync, BLKFLSBUF (f:drop_cache does the
-- last three for a device, fdatasync + fadvise DONTNEED for a file).
local function flush(f, is_block)
  sync(f)
  local ok, msg = f:drop_cache()
  if not ok and is_block and tostring(msg):find("^BLKFLSBUF") then
    p.ewrite("BLKFLSBUF failed: ", classic.strerror(msg), "\n")
  end
end

-- read_big_block: one read of `bytes`; anything short is an error (EIO). From
-- 5.5 on hdparm then touches every 512th byte of the buffer "to ensure the read
-- fully completed" (hdparm.c read_big_block, 5.5 to 9.65), inside the timing.
local function read_big_block(f, bytes, touch)
  local n, msg = f:read(bytes)
  if n == bytes then
    if touch then f:touch(bytes, 512) end
    return true
  end
  if not n then
    p.ewrite("read() failed: ", classic.strerror(msg), "\n")
  elseif n == 0 then
    p.ewrite("read() hit EOF - device too small\n")
  else
    p.ewrite(string.format("read(%d) returned %d bytes\n", bytes, n))
  end
  return false
end

local function label(kind)
  p.write(classic.hdparm_label(kind, style, o.direct, o.offset))
  p.flush()
end

-- ---- hdparm 9.x -------------------------------------------------------------

local BUF = 2 * MiB

local function time_cache(f, is_block)
  sync(f)
  p.sleep(o.settle)
  f:seek(0)
  if not read_big_block(f, BUF, true) then return end
  label("cached")
  if era.preflush then flush(f, is_block) else sync(f) end  -- before 8.x: sync() alone
  p.sleep(o.pause)
  local iterations, elapsed = 0, 0
  local limit = o.cached_time * 1e9
  local ok = true
  p.phase("cached reads", function()
    local t0 = p.now()
    repeat
      iterations = iterations + 1
      f:seek(0)
      if not read_big_block(f, BUF, true) then
        ok = false
        return
      end
      elapsed = p.now() - t0
    until elapsed >= limit
  end, { cache = true })  -- the page cache is what -T measures: no cache warning
  if not ok then return end
  local total_mb = iterations * 2 * (era.factor or 1)  -- 5.4-6.6: BUFCACHE_FACTOR 2
  -- remove the lseek and clock overheads, as hdparm does
  local t1 = p.now()
  local overhead
  repeat
    f:seek(0)
    overhead = p.now() - t1
    iterations = iterations - 1
  until iterations == 0
  p.write(classic.hdparm_value(total_mb, secs(elapsed - overhead), "cached"))
  flush(f, is_block)
  p.sleep(o.pause)
end

local function time_device(f, size)
  local max_iterations = math.floor(size / BUF)
  sync(f)
  p.sleep(o.settle)
  label("disk")
  if o.offset and not f:seek(o.offset * GiB) then
    p.ewrite("lseek() failed: Invalid argument\n")
    return EIO
  end
  local iterations, elapsed, err = 0, 0, nil
  local limit = o.disk_time * 1e9
  p.phase("buffered disk reads", function()
    local t0 = p.now()
    repeat
      iterations = iterations + 1
      if not read_big_block(f, BUF, true) then
        err = EIO
        return
      end
      elapsed = p.now() - t0
    until not (elapsed < limit and iterations < max_iterations)
  end)
  if err then return err end
  p.write(classic.hdparm_value(iterations * 2, secs(elapsed), "disk"))
  return nil
end

-- ---- hdparm 1996-1999: fixed sizes in 1 MiB reads ------------------------------

local LBUF = MiB
local correction = 0

local function legacy_cache(f, is_block)
  sync(f)
  p.sleep(o.settle)
  f:seek(0)
  if not read_big_block(f, LBUF) then return end
  label("cached")
  sync(f)
  p.sleep(o.pause)
  local n = 2 * timing_mb
  local elapsed, ok = 0, true
  p.phase("cached reads", function()
    local t0 = p.now()
    for _ = 1, n do
      f:seek(0)
      if not read_big_block(f, LBUF) then
        ok = false
        return
      end
    end
    elapsed = p.now() - t0
  end, { cache = true })  -- the page cache is what -T measures: no cache warning
  if not ok then return end
  local t1 = p.now()
  for _ = 1, n do f:seek(0) end
  correction = secs(elapsed - (p.now() - t1))
  p.write(classic.hdparm_value_1996(n, correction))
  correction = correction / 2
  flush(f, is_block)
  p.sleep(o.pause)
end

local function legacy_device(f)
  sync(f)
  p.sleep(o.settle)
  label("disk")
  local elapsed, ok = 0, true
  p.phase("buffered disk reads", function()
    local t0 = p.now()
    for _ = 1, timing_mb do
      if not read_big_block(f, LBUF) then
        ok = false
        return
      end
    end
    elapsed = secs(p.now() - t0)
  end)
  if not ok then return end
  p.write(classic.hdparm_value_1996(timing_mb, elapsed))
  if elapsed <= correction * 2 then
    p.write("Hmm.. suspicious results: probably not enough free memory for a proper test.\n")
  end
end

-- ---- each device ---------------------------------------------------------------

local devices = {}
for i = 1, #o do devices[i] = o[i] end

for _, dev in ipairs(devices) do
  local f, msg, errno = p.open(dev, { direct = o.direct })
  if not f then
    p.flush()
    p.ewrite(dev, ": ", classic.strerror(msg, dev), "\n")
    p.exit(errno or 1)
  end
  local info = f:info()
  local is_block = info.kind == "block"
  if not o.q then p.write("\n", dev, ":\n") end
  local err
  correction = 0
  if legacy then
    if o.T then legacy_cache(f, is_block) end
    if o.t then legacy_device(f) end
  else
    if o.T then time_cache(f, is_block) end
    if o.t then
      if o.flush_first then flush(f, is_block) end
      err = time_device(f, f:size())
      if era.tflush then flush(f, is_block) end  -- from 7.1; before, only with -f
    end
  end
  p.flush()
  f:close()
  if err then p.exit(err) end
end
