-- ioping 1.3: I/O latency "ping" of a directory, file or device, one line per request and a summary
--
-- As ioping.c does it: each request reads (or with -W writes, then
-- fdatasyncs) `-s` bytes at a random multiple of the size within the
-- working set (-L: sequentially), timed around the call; requests follow
-- each other at `-i` intervals (1 s). A directory is tested through a
-- temporary file filled with random data (1 MiB, 64 MiB with -R). Unless
-- -C, each request's range is dropped from the page cache first. The first
-- request is warmup; the summary counts the valid ones:
--
--   4 KiB <<< . (ext4 /dev/sda3 457.4 GiB): request=1 time=221.3 us (warmup)
--   ...
--   --- . (ext4 /dev/sda3 457.4 GiB) ioping statistics ---
--   9 requests completed in 2.05 ms, 36 KiB read, 4.39 k iops, 17.1 MiB/s
--   generated 10 requests in 9.00 s, 40 KiB, 1 iops, 4.44 KiB/s
--   min/avg/max/mdev = 180.2 us / 227.8 us / 301.5 us / 35.9 us
--
-- Offsets come from platter's seeded generator (--seed), not ioping's
-- clock-seeded one, so a run can be repeated.
local p = require "platter"
-- the manifest (platter describe, platter plan); the arguments are read below,
-- with the original tool's syntax
p.script({
  name = "ioping", version = "1.0", api = "platter/1", args = "own",
  description = "ioping: I/O latency, one request at a time",
  params = {
    target = { type = "path", positional = true,
      help = "a directory (a temporary file is made in it), file or device" },
    count = { type = "int", flag = "-c", help = "stop after COUNT requests" },
    interval = { type = "time", flag = "-i", help = "interval between requests (1s)" },
    size = { type = "size", flag = "-s", help = "request size (4k)" },
    write = { type = "bool", flag = "-W", help = "write requests instead of reads" },
  },
  needs = { write = true, device = "any" },
}, ...)
local classic = require "platter.classic"

local NAME = "ioping"
local EISDIR, EINVAL = 21, 22
local KiB, MiB = 1024, 1024 * 1024

local o = p.args({
  name = NAME,
  long_only = true,  -- ioping 1.3 parses with getopt_long_only: "-count 2", "-quiet"
  usage = "[options] DIRECTORY|FILE|DEVICE",
  summary = "ioping 1.3: time single requests at an interval and print ioping's lines and summary.",
  options = {
    { "-c", "--count", arg = "COUNT", help = "stop after COUNT requests" },
    { "-w", "--work-time", arg = "TIME", help = "stop after TIME" },
    { "-i", "--interval", arg = "TIME", help = "interval between requests (1s)" },
    { "-s", "--size", arg = "SIZE", help = "request size (4k; 256k with -L)" },
    { "-S", "--work-size", arg = "SIZE",
      help = "working set size (1m in a directory, 64m with -R; else the whole target)" },
    { "-o", "--work-offset", arg = "SIZE", help = "working set offset (0)" },
    { "-a", "--warmup", arg = "COUNT", help = "ignore COUNT first requests (1)" },
    { "-t", "--min-time", arg = "TIME", help = "minimal valid request time (0us)" },
    { "-T", "--max-time", arg = "TIME", help = "maximum valid request time" },
    { "-p", "--print-count", arg = "COUNT", help = "print raw statistics for every COUNT requests" },
    { "-P", "--print-interval", arg = "TIME", help = "print raw statistics for every TIME" },
    { "-D", "--direct", help = "use direct I/O (O_DIRECT)" },
    { "-C", "--cached", help = "use cached I/O (no cache drop, no fdatasync after writes)" },
    { "-W", "--write", count = true,
      help = "write requests; a file or device needs -WWW (it is overwritten)" },
    { "-G", "--read-write", help = "alternate write and read requests" },
    { "-L", "--linear", help = "sequential requests (default size 256k)" },
    { "-R", "--rapid", help = "rapid test: -q -i 0 -w 3 and a 64m working set" },
    { "-Y", "--sync", help = "use sync I/O (O_SYNC)" },
    { "-y", "--dsync", help = "use data sync I/O (O_DSYNC)" },
    { "-k", "--keep", help = "keep and reuse the temporary file DIRECTORY/ioping.tmp" },
    { "-q", "--quiet", help = "no per-request lines" },
    { "-B", "--batch", help = "print the final statistics as raw numbers only" },
    { "-v", "--version", help = "print ioping's version line (of --as) and exit" },
    -- ioping 1.3's other options: named, so that they say they are not here
    { "-J", "--json", unsupported = "JSON output" },
    { "-I", "--time", unsupported = "printing the time of each request" },
    { "-A", "--async", unsupported = "asynchronous I/O (libaio)" },
    { "-N", "--nowait", unsupported = "RWF_NOWAIT requests" },
    { "-H", "--hipri", unsupported = "RWF_HIPRI polled requests" },
    { "-b", "--burst", arg = "COUNT", unsupported = "bursts of requests" },
    { "-l", "--speed-limit", arg = "SIZE", unsupported = "a speed limit" },
    { "-r", "--rate-limit", arg = "COUNT", unsupported = "a rate limit" },
    { "-e", "--entropy", arg = "SEED", unsupported = "a random seed (use platter --seed)" },
    { "--as", arg = "VERSION", choices = { "1.3", "1.2", "1.0", "0.9" }, default = "1.3",
      help = "behave and print as this ioping: 1.3, 1.2 (fast/slow by the range seen), "
        .. "1.0 (to 1.1: also no filesystem size, no -a), 0.9 (0.7 to 0.9: \"from\"/\"to\", "
        .. "microseconds, no warmup, no \"generated\" line)" },
  },
  positional = { { "target", arg = "TARGET", optional = true } },
  epilog = "Sizes take ioping's suffixes (k = 1024, m, g, sector, page); times take ns, us,\n"
    .. "ms, s (the default), min and hour; counts take k = 1000, M, G.",
}, ...)

-- ioping's err()/errx(): "ioping: MSG" on stderr and its exit status.
local function die(code, msg)
  p.flush()
  p.ewrite(NAME, ": ", msg, "\n")
  p.exit(code)
end

local function parse(fn, v)
  if v == nil then return nil end
  local n, why = fn(v)
  if not n then p.usage_error(NAME, why) end
  return n
end

-- the release reproduced (ioping.c of v0.9, v1.0, v1.1, v1.2, v1.3): the options it
-- had (getopt strings: 0.9 "hvkALRDCWBqi:w:s:S:c:o:p:P:", 1.0 adds G Y y t T l,
-- 1.2 a), and what it printed
local version = tonumber(o.as)
if o.version then  -- version(): on stdout from 1.3, on stderr before
  if version >= 1.3 then p.write(NAME, " ", o.as, "\n") else p.ewrite(NAME, " ", o.as, "\n") end
  p.exit(0)
end
if not o.target then p.usage_error(NAME, "missing TARGET") end
local since = { read_write = 1.0, sync = 1.0, dsync = 1.0, min_time = 1.0, max_time = 1.0,
  warmup = 1.2 }
local flag_of = { read_write = "-G", sync = "-Y", dsync = "-y", min_time = "-t", max_time = "-T",
  warmup = "-a" }
for k, v in pairs(since) do
  if o[k] and version < v then
    p.usage_error(NAME, string.format("%s came with ioping %.1f (not in --as %s)", flag_of[k], v, o.as))
  end
end
local old09 = version < 1.0

-- -s 0 means the default size since ioping 1.0 (size stays 0 until main picks the
-- default); 0.9 refused it, with its own spelling
local size = parse(classic.ioping_parse_size, o.size)
if not size or (size == 0 and not old09) then size = o.linear and 256 * KiB or 4 * KiB end
local count = parse(classic.ioping_parse_int, o.count) or 0
local interval = parse(classic.ioping_parse_time, o.interval) or (o.rapid and 0 or 1e9)
local deadline = parse(classic.ioping_parse_time, o.work_time) or (o.rapid and 3e9 or 0)
local wsize = parse(classic.ioping_parse_size, o.work_size) or 0
local offset = parse(classic.ioping_parse_size, o.work_offset) or 0
local warmup = parse(classic.ioping_parse_int, o.warmup) or 1
local min_valid = parse(classic.ioping_parse_time, o.min_time) or 0
local max_valid = parse(classic.ioping_parse_time, o.max_time) or math.huge
local period_request = parse(classic.ioping_parse_int, o.print_count) or 0
local period_time = parse(classic.ioping_parse_time, o.print_interval) or 0
local quiet = o.quiet or o.rapid or o.batch
local randomize = not o.linear
local cached = o.cached
local write_test = o.write + (o.read_write and 1 or 0)
local temp_wsize = o.rapid and 64 * MiB or MiB
local path = o.target

if size <= 0 then
  die(1, old09 and "request size must be greather than zero" or "request size must be greater than zero")
end
if wsize > 0 then
  temp_wsize = wsize
elseif size > temp_wsize then
  temp_wsize = size
end

-- ---- the target ----------------------------------------------------------------

-- ioping takes a directory, a file or a device; a FIFO or a socket it refuses after
-- its stat (and opening a FIFO would wait for a writer)
local stat_ok, st = pcall(p.stat, path)  -- (under --sim a directory has no stat)
if stat_ok and st and st.kind == "other" then die(2, string.format('unsupported destination: "%s"', path)) end
local probe, msg, errno = p.open(path)
local is_dir = not probe and errno == EISDIR
if not probe and p.config and p.config.sim and (path == "." or path:sub(-1) == "/") then
  is_dir = true  -- the simulated disk has files but no directories
end
if not probe and not is_dir then
  die(2, string.format('stat "%s" failed: %s', path, classic.strerror(msg, path)))
end
local kind = probe and probe:info().kind or "dir"
if kind ~= "dir" and write_test > 0 and write_test < 3 then
  die(2, "think twice, then use -WWW to shred this target")
end

local st_size
local fstype, device, device_size = "", "", 0
if kind == "dir" or kind == "file" then
  st_size = kind == "dir" and offset + temp_wsize or probe:size()
elseif kind == "block" then
  st_size = probe:size()
  -- up to 1.1 the device's name carried the space before its size
  fstype, device, device_size = "block", version < 1.2 and "device " or "device", st_size
else
  st_size = offset + temp_wsize
  fstype, device = "character", "device"
end
if probe then probe:close() end

if wsize > st_size or offset > st_size - wsize then die(2, "target is too small for this") end
if wsize == 0 then wsize = st_size - offset end
if size > wsize then die(2, "request size is too big for this target") end

local open_opts = { direct = o.direct, write = write_test > 0, sync = o.sync, dsync = o.dsync }
local file_path = path
if kind == "dir" then
  -- ioping uses an unnamed O_TMPFILE; platter makes a named one and removes it
  file_path = path .. "/ioping.tmp" .. (o.keep and "" or ("." .. p.pid()))
  if not o.keep then p.scratch(file_path) end
  local prep = p.open(file_path, { create = true, write = true, fill = "random" })
  if not prep then die(2, string.format('failed to create temporary file at "%s"', path)) end
  if not (o.keep and prep:size() >= offset + wsize) then
    local woff = 0
    while woff < wsize do
      local n = math.min(size, wsize - woff)
      -- ioping.c 1.3 refills its buffer with random bytes before every
      -- write after the first: each block of the working set differs
      if woff > 0 then prep:fill("random", woff) end
      local w, wmsg = prep:pwrite(offset + woff, n)
      if not w or w <= 0 then die(2, "preparation write failed: " .. classic.strerror(wmsg)) end
      woff = woff + w
    end
  end
  local ok, fmsg = prep:fsync()
  if not ok then die(2, "fsync failed: " .. classic.strerror(fmsg)) end
  prep:close()
  open_opts.write = true
end

local f, open_errno
f, msg, open_errno = p.open(file_path, open_opts)
local plain = not f and open_opts.direct and open_errno == EINVAL and p.open(file_path)
if plain then
  -- ioping opens, then sets O_DIRECT with fcntl: the open works and the fcntl fails
  plain:close()
  die(2, "fcntl(O_DIRECT) failed, please retry without option -D: " .. classic.strerror(msg))
end
if not f then die(2, string.format('failed to open "%s": %s', path, classic.strerror(msg))) end

if kind == "dir" or kind == "file" then
  local info = f:info()
  fstype = info.fs_type or ""
  device = info.fs_source or (info.device and ("/dev/" .. info.device)) or info.fs_type or ""
  device_size = info.fs_size or 0
end
if version < 1.2 and kind ~= "block" then device_size = 0 end  -- no statvfs before 1.2
local target = classic.ioping_target(path, fstype, device, device_size, version >= 1.2)

if randomize or not cached then f:advise("random") end
-- ioping drops each request's range just before it with fadvise DONTNEED
-- alone (ioping.c 1.3, the request loop): no fdatasync, so no cache flush
-- reaches the device for a read. Dropping the whole working set the same
-- way first changes nothing for the requests and tells platter's result
-- checks that the page cache is not what is measured.
local function drop(at)
  f:advise("dontneed", at or offset, at and size or wsize)
end
if not cached then drop() end

local align = o.direct and f:info().dio_align or 1
if size % align ~= 0 or offset % align ~= 0 then
  die(3, "request failed: Invalid argument")
end

-- ---- the requests --------------------------------------------------------------

local start_time = p.now()
local valid_opts = { warmup = warmup, min_valid = min_valid, max_valid = max_valid,
  percent = version < 1.3 }
-- ioping 0.9 counts every request, in microseconds, with no warmup
local function stats09() return { n = 0, sum = 0, sum2 = 0, min = math.huge, max = -math.huge, size = size } end
local part09, total09 = stats09(), stats09()
local function merge09(t, s)
  t.n, t.sum, t.sum2 = t.n + s.n, t.sum + s.sum, t.sum2 + s.sum2
  if s.min < t.min then t.min = s.min end
  if s.max > t.max then t.max = s.max end
end
local time_now = p.now()
local part = classic.ioping_stats(time_now)
local total = classic.ioping_stats(time_now)
if deadline > 0 then deadline = deadline + time_now end
local period_deadline = time_now + period_time
local time_next = time_now
local request, woffset, notice = 0, 0, nil
local slots = math.floor(wsize / size)

-- -L: the next request follows this one, wrapping at the working set's end
local function next_offset()
  if not randomize then
    woffset = woffset + size
    if woffset + size > wsize then woffset = 0 end
  end
end

local function one_request()
  request = request + 1
  if randomize then woffset = p.random(0, slots - 1) * size end
  local at = offset + woffset
  if not cached then drop(at) end
  local write = write_test > 0
  if o.read_write then write = request % 2 == 1 end

  if write then f:fill("random", request) end  -- fresh random bytes for each write, as ioping
  local t0 = p.now()
  local n, rmsg
  if write then
    n, rmsg = f:pwrite(at, size)
  else
    n, rmsg = f:pread(at, size)
  end
  if not n then die(3, "request failed: " .. classic.strerror(rmsg)) end
  if n < size then
    p.ewrite(string.format("%s: request returned less than expected: %d\n", NAME, n))
  end
  if write and not cached then
    local ok, smsg = f:fdatasync()
    if not ok then
      die(3, "fdatasync failed, please retry with option -C: " .. classic.strerror(smsg))
    end
  end
  time_now = p.now()
  local this_time = time_now - t0

  if old09 then  -- a sleep of -i after each request; no warmup, no notices
    time_next = time_now + interval
    local us = math.floor(this_time / 1000)
    part09.n, part09.sum, part09.sum2 = part09.n + 1, part09.sum + us, part09.sum2 + us * us
    if us < part09.min then part09.min = us end
    if us > part09.max then part09.max = us end
    if not quiet then p.write(classic.ioping_request_09(n, write, target, request, us)) end
    if (period_request > 0 and part09.n >= period_request)
      or (period_time > 0 and time_next >= period_deadline) then
      p.write(classic.ioping_raw_09(part09))
      p.flush()
      merge09(total09, part09)
      part09 = stats09()
      period_deadline = time_now + period_time
    end
    next_offset()
    return
  end

  time_next = time_next + interval
  if time_now - time_next > 0 then time_next = time_now end

  if n > 0 then
    local _
    _, notice = part:add(this_time, request, valid_opts)
  end
  if not quiet then
    p.write(classic.ioping_request(n, write, target, request, this_time, notice))
  end

  if (period_request > 0 and part.valid >= period_request)
    or (period_time > 0 and time_next >= period_deadline) then
    part:finish(time_now, size)
    p.write(part:raw())
    p.flush()
    total:merge(part)
    part = classic.ioping_stats(time_now)
    period_deadline = time_now + period_time
  end

  next_offset()
end

-- The request lines are ioping's live output: no progress line over them (-q has none).
local ok, err = classic.protected(p.phase, "ioping", function()
  while true do
    one_request()
    if count > 0 and request >= count then break end
    if deadline > 0 and time_next >= deadline then break end
    if time_next - time_now > 0 then
      if not quiet then p.flush() end
      p.sleep((time_next - time_now) / 1e9)
    end
  end
end, { progress = quiet and true or false })
-- Like ioping, the first Ctrl-C ends the pings and still prints the summary
-- (platter then reports the interruption and exits 130).
if not ok and not p.interrupted() then error(err, 0) end

time_now = p.now()
part:finish(time_now, size)
total:merge(part)
total:finish(time_now, size)
merge09(total09, part09)
total09.total = math.floor((time_now - start_time) / 1000)

if old09 then
  if o.batch then
    p.write(classic.ioping_raw_09(total09))
  elseif not (quiet and (period_time > 0 or period_request > 0)) then
    p.write(classic.ioping_summary_09(target, total09))
  end
elseif o.batch then
  p.write(total:raw())
elseif not (quiet and (period_time > 0 or period_request > 0)) then
  local mode = o.read_write and "rw" or (write_test > 0 and "write" or "read")
  p.write(classic.ioping_summary(target, total, mode))
end
p.flush()
if ok then f:close() end
