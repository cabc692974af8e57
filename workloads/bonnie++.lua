-- bonnie++ 1.97 (or --as 2.00a, 1.03): byte and block I/O, rewrite, seekers, file tests
--
-- Russell Coker's bonnie++ 1.97, as shared/spec/classic-benchmarks.md section
-- 2 describes it. I/O tests on <dir>/Bonnie.<pid> of -s MiB in 8 KiB chunks:
-- 1-byte write(2)s over -f MiB (3 by default), block writes, rewrite (read,
-- seek back, write), 1-byte read(2)s, block reads, then 8192 seeks by 5
-- processes (a ticket divisible by 10 also rewrites its chunk). Every phase
-- opens its file before the clock starts and fsyncs and closes it before the
-- clock stops. Then the file tests: create, stat and delete -n x 1024 files,
-- in sequence order, then with the names' number last and in random order.
-- Tests shorter than 0.5 s print +++++. Progress goes to stderr; the text
-- report to stdout (stderr with -q), then one CSV line (format 1.97) to stdout.
--
-- --as 2.00a (Debian 12's): the same tests; -s MiB[:chunk[:seeks[:procs]]]
-- sets the seek count and seekers (8192 and 5); its text report (Name:Size
-- etc, rates in k/m/g) and its CSV (format 1.98, with seeks and procs).
-- --as 1.03 (and 1.03e, which adds -D): stdio putc()/getc() over the whole
-- file, which is split into 1 GiB files Bonnie.<pid>.000, .001...; close
-- without fsync unless -b; 3 seekers, each one's every 10th seek rewrites;
-- %07d file names and no sync() in the file tests; -f means fast (skip the
-- per-character tests); no -c, -z, latency, concurrency or seed; its text
-- report and CSV. docs/workloads.md lists what is not reproduced.
--
-- What differs from 1.97 (see docs/reproduce.md):
--   * -u/-g print bonnie++'s "Using uid:U, gid:G." line with the ids platter
--     runs as: platter never changes user, so root needs no -u. -p, -y and -Z are not offered. -c N is reported (and used
--     in the RAM rule) as 1.97 does, without running N copies.
--   * The seekers are p.parallel workers released by a barrier, and the
--     8192 tickets are dealt round-robin instead of taken from a pipe by
--     whichever seeker is free; no 3 s pause unless --seek-delay 3s. A
--     seek's latency is that of its slowest single call (read, write or
--     fsync), not of the seek + read [+ seek + write] together.
--   * File tests: in the directory <dir>/Bonnie.<pid>, sequential tests in
--     readdir order, stat(2) then a read of a non-empty file, unlink then
--     rmdir, and the timed sync() that ends create and delete, as 1.97.
--     -n with several directories, hard links (max -1) or symlinks (max -2)
--     is refused. Under --sim (no directories in the model) the files are
--     <dir>/Bonnie.<pid>.<name>, in creation order, and opened for stat.
--   * -D opens the block-write file O_DIRECT as 1.97 does; the byte-write
--     file stays buffered (1-byte O_DIRECT writes fail with EINVAL).
--   * The seed in the CSV is -z, else platter's --seed (default 1); 1.97
--     used pid ^ time.
--   * Ctrl-C prints the report (text and CSV) of the run it cut, with the
--     tests that finished and blank cells, bonnie++'s mark of a skipped
--     test, for the others; then platter exits 130. 1.97 printed nothing.
local p = require "platter"
-- the manifest (platter describe, platter plan); the arguments are read below,
-- with the original tool's syntax
p.script({
  name = "bonnie++", version = "1.0", api = "platter/1", args = "own",
  description = "bonnie++ 1.97/2.00a: sequential per-char and block I/O, random seeks, file creation",
  params = {
    dir = { type = "path", flag = "-d", default = ".", help = "directory for the test files" },
    size = { type = "string", flag = "-s", arg = "MiB[:CHUNK]", help = "file size in MiB[:CHUNK]" },
    files = { type = "string", flag = "-n", arg = "N[:MAX[:MIN[:DIRS[:CHUNK]]]]",
      help = "files for the creation tests, N[:MAX[:MIN[:DIRS[:CHUNK]]]] (units of 1024)" },
    ram = { type = "int", flag = "-r", help = "RAM size to assume, MiB (0: no check)" },
    machine = { type = "string", flag = "-m", arg = "NAME", help = "machine name in the report" },
    quiet = { type = "bool", flag = "-q", help = "quiet: the text report to stderr, the CSV to stdout" },
  },
  needs = { write = true, device = "file" },
}, ...)
local B = require "platter.classic_bonnie"
local classic = require "platter.classic"

local NAME = "bonnie++"
local VERSIONS = { "1.97", "2.00a", "1.03", "1.03e" }

-- -f takes an optional value that must be attached (getopt "f::"): a bare
-- -f (or -qf, -bf...) means "skip the byte I/O", the same as -f0.
local argv = { ... }
for i, a in ipairs(argv) do
  if a == "--" then break end
  if a:match("^%-[bqD]*f$") then argv[i] = a .. "0" end
end

local o = p.args({
  name = NAME,
  usage = "[-d scratch-dir] [-c concurrency] [-s size(MiB)[:chunk-size(b)]] "
    .. "[-n number-to-stat[:max-size[:min-size]]] [-m machine-name] [-r ram-size-in-MiB] "
    .. "[-x number-of-tests] [-q] [-f[MiB]] [-b] [-D] [-z seed]",
  summary = "bonnie++ 1.97: per-byte and block I/O, rewrite, 5 seekers, and small-file "
    .. "create/stat/delete; text report and CSV (format 1.97).",
  options = {
    { "-d", arg = "DIR", default = ".", help = "directory for the test files" },
    { "-s", arg = "MiB[:CHUNK]", help = "file size in MiB (g suffix: GiB; 0 skips the I/O "
      .. "tests), and the chunk (256 to 1m, a power of 2; default 8k). Default: 300, or twice "
      .. "the RAM when larger" },
    { "-n", arg = "N[:MAX[:MIN[:DIRS[:CHUNK]]]]", help = "number of files, in units of 1024 "
      .. "(default 16; 0 skips the file tests), their largest and smallest size, and the "
      .. "write chunk" },
    { "-m", arg = "NAME", help = "machine name in the report (default: the host name)" },
    { "-r", arg = "MiB", type = "int", help = "RAM size to assume (0: no check)" },
    { "-x", arg = "N", type = "int", help = "run N times, CSV only, after a header line" },
    { "-q", help = "quiet: no progress; the text report goes to stderr, the CSV to stdout" },
    { "-f", arg = "MiB", type = "int", help = "MiB of per-byte I/O (default 3); a bare -f "
      .. "skips the per-byte tests" },
    { "-b", help = "no write buffering: fsync after each file create and seek update" },
    { "-D", help = "O_DIRECT for the block writes" },
    { "-c", arg = "N", type = "int", default = 1, help = "concurrency shown in the report "
      .. "(1..200)" },
    { "-z", arg = "SEED", type = "int", help = "random seed (default: platter's --seed)" },
    { "-u", arg = "USER[:GROUP]", help = "accepted and ignored (platter does not change user)" },
    { "-g", arg = "GROUP", help = "accepted and ignored" },
    { "--seek-delay", arg = "TIME", type = "time", default = "0",
      help = "pause before the seekers start (1.97 and 2.00a slept 3s, 1.03 5s)" },
    { "--as", arg = "VERSION", default = "1.97", choices = VERSIONS,
      help = "the bonnie++ to reproduce: 1.97; 2.00a (Debian 12's: k/m/g rates, -s "
        .. "MiB:chunk:seeks:procs, CSV format 1.98); 1.03 or 1.03e (stdio putc/getc over the "
        .. "whole file split into 1 GiB files, 3 seekers, fsync only with -b, -f = fast, no "
        .. "latency)" },
  },
  epilog = "The I/O file should be at least twice the RAM: without -s it is made so, and a\n"
    .. "smaller -s is refused unless -r states less RAM (as bonnie++ does).",
}, (table.unpack or unpack)(argv))

local function usage(msg) p.usage_error(NAME, msg) end
local as = o.as
local v103 = as == "1.03" or as == "1.03e"
local v200 = as == "2.00a"
if v103 then
  if o.c ~= 1 then usage("-c is not in bonnie++ " .. as) end
  if o.z then usage("-z is not in bonnie++ " .. as) end
  if o.D and as == "1.03" then usage("-D is not in bonnie++ 1.03 (1.03e has it)") end
  if o.f and o.f ~= 0 then usage("-f takes no value in bonnie++ " .. as .. " (it means fast)") end
end
local function fail(msg)
  p.ewrite(msg)
  p.exit(1)
end

-- ---- options, as bonnie++.cpp reads and checks them ------------------------
local file_size, io_chunk, set_size = B.PP_FILE_SIZE, B.PP_CHUNK, false
local seeks, nproc = B.PP_SEEKS, v103 and B.PP_SEEKERS_103 or B.PP_SEEKERS
if o.s and v200 then
  -- strtok(":"): size, chunk, seeks (k suffix), then the rest is procs
  local w = {}
  for x in o.s:gmatch("[^:]+") do w[#w + 1] = x end
  local function num(i, conv, what)
    local v = w[i] and B.pp_size_from_str(w[i], conv)
    if not v then usage("bad " .. what .. " in -s " .. o.s) end
    return v
  end
  file_size = num(1, "gt", "size")
  if w[2] then io_chunk = num(2, "k", "chunk size") end
  if w[3] then seeks = num(3, "k", "seek count") end
  if w[4] then nproc = num(4, "", "seeker count") end
  if w[5] then usage("bad seeker count in -s " .. o.s) end
  if seeks < 1 or nproc < 1 then usage("-s: the seeks and seekers must be at least 1") end
  set_size = true
elseif o.s then
  local size, chunk = o.s:match("^([^:]*):?(.*)$")
  file_size = B.pp_size_from_str(size, v103 and "g" or "gt")
  if not file_size then usage("bad size '" .. o.s .. "'") end
  if chunk ~= "" then
    io_chunk = B.pp_size_from_str(chunk, "k")
    if not io_chunk then usage("bad chunk size in '" .. o.s .. "'") end
  end
  set_size = true
end

local dir_size, max_size, min_size, num_dirs, file_chunk = B.PP_DIR_SIZE, 0, 0, 1, B.PP_CHUNK
if o.n then
  local parts = {}
  for w in (o.n .. ":"):gmatch("([^:]*):") do parts[#parts + 1] = w end
  local function num(i, conv)
    local v = B.pp_size_from_str(parts[i], conv)
    if not v then usage("bad value '" .. parts[i] .. "' in -n " .. o.n) end
    return v
  end
  -- 1.03 reads them with sscanf("%d:%d:%d:%d"): no suffixes, no chunk
  dir_size = num(1, v103 and "" or "m")
  if parts[2] then max_size = num(2, v103 and "" or "kmg") end
  if parts[3] then min_size = num(3, v103 and "" or "kmg") end
  if parts[4] then num_dirs = num(4, v103 and "" or "k") end
  if parts[5] then
    if v103 then usage("-n: bonnie++ " .. as .. " has no file chunk") end
    file_chunk = num(5, "kmg")
  end
end

local concurrency = o.c
if concurrency < 1 or concurrency > 200 then usage("-c must be within 1..200") end

-- RAM in MiB as 1.97 computes it: page_size/1024 * (pages/1024)
local ram = 4 * math.floor(math.floor(p.ram() / 4096) / 1024)
if o.r then ram = o.r end
if ram ~= 0 and not set_size then
  if file_size < ram * 2 then file_size = ram * 2 end
  if file_size % 1024 > 512 then file_size = file_size + 1024 - file_size % 1024 end
end
local byte_io = o.f or B.PP_BYTE_IO
if v103 then byte_io = o.f and 0 or file_size end  -- putc/getc over the whole file
byte_io = math.max(0, math.min(file_size, byte_io))

local name = o.m or p.hostname()
local quiet = o.q

if file_size < 0 or dir_size < 0 or (file_size == 0 and dir_size == 0) then
  usage("nothing to do: -s and -n are both 0")
end
local function power_of_2(n)
  if n < 256 or n > B.PP_UNIT then return false end
  while n > 1 do
    if n % 2 ~= 0 then return false end
    n = n / 2
  end
  return true
end
if not power_of_2(io_chunk) then usage("the chunk of -s must be a power of 2 from 256 to 1m") end
if not power_of_2(file_chunk) then usage("the chunk of -n must be a power of 2 from 256 to 1m") end
if max_size ~= -1 and max_size ~= -2 and (max_size < min_size or max_size < 0 or min_size < 0) then
  usage("-n: the largest file size must not be below the smallest")
end
if dir_size > 0 and max_size < 0 then
  usage("-n: hard links and symlinks are not offered: platter has no link() or symlink()")
end
if num_dirs < 1 then usage("-n: the number of directories must be at least 1") end
if file_size > B.PP_IO_FILE_103 * 1000 and v103 then usage("-s: at most 1000 files of 1 GiB") end
if file_size ~= 0 and ram ~= 0 and file_size * concurrency < ram * 2 then
  p.ewrite(string.format("File size should be double RAM for good results, RAM is %dM.\n", ram))
  if v103 then p.exit(1) end  -- 1.03 checks it in TestFileOps: no usage
  usage("the file (-s) must be at least twice the RAM; -r states a smaller RAM")
end
local data_per_file = v103 and 7 + 12 + 6 + 1 + 4 or B.PP_DATA_PER_FILE
if dir_size > 0 then
  if ram ~= 0 and dir_size * data_per_file * 2 > ram * 1024 then
    fail(string.format("When testing %dK of files in %d MiB of RAM the system is likely to\n"
      .. "start paging Bonnie++ data and the test will give suspect\n"
      .. "results, use less files or install more RAM for this test.\n", dir_size, ram))
  end
  if dir_size * data_per_file > 1048576 then
    fail(string.format("Not enough ram to test with %dK files.\n", dir_size))
  end
end

local test_count = o.x or -1
if o.z and o.z < 0 then usage("the seed (-z) must not be negative") end
local seed = o.z or p.config.seed
local line_open = false  -- a progress line on stderr waits for its "done"
local function say(s)
  if quiet then return end
  p.ewrite(s)
  line_open = s:sub(-1) ~= "\n"
end

-- bon_setugid: -u/-g name the user to run as; platter runs on as itself and
-- says so as bonnie++ does after switching
if o.u or o.g then
  local uid, gid = p.ids()
  say(string.format("Using uid:%d, gid:%d.\n", uid, gid))
end

-- ---- the I/O tests (TestFileOps) ------------------------------------------
local path = string.format("%s/Bonnie.%d", o.d, p.pid())

-- CFileOp::reopen: create = unlink + create (O_DIRECT with -D); else O_RDWR
local function reopen(create, direct)
  if create then
    p.remove(path)
    p.scratch(path)  -- p.remove forgets it: removed at exit on every path
    return assert(p.open(path, { create = true, write = true, direct = direct or nil }))
  end
  return assert(p.open(path, { write = true }))
end

-- CFileOp::Close: fsync, then close
local function close(f)
  assert(f:fsync())
  f:close()
end

-- a timed test: fn(lat) does the work and reports each unit's latency (s)
local function measure(label, fn)
  local maxlat = 0
  local function lat(ns)
    if ns > maxlat then maxlat = ns end
  end
  local s = p.phase(label, function() fn(lat) end)
  return { elapsed = s.seconds, cpu = s.user + s.sys, latency = maxlat / 1e9 }
end

-- full(want, what, f:read(n)): the call moved exactly `want` bytes
local function full(want, what, n, msg)
  assert(n, msg)
  if n ~= want then error(string.format("%s: got %d of %d bytes", what, n, want), 0) end
end

local function io_tests(t)
  local chunk = io_chunk
  local num_chunks = B.PP_UNIT / chunk * file_size
  local char_chunks = B.PP_UNIT / chunk * byte_io
  local now = p.now

  local f = reopen(true)
  if char_chunks > 0 then
    say("Writing a byte at a time...")
    t.putc = measure("Writing a byte at a time", function(lat)
      for _ = 1, char_chunks do
        local t0 = now()
        full(chunk, "write", f:writes(chunk, 1))  -- chunk write(2)s of one byte, in C
        lat(now() - t0)
      end
      close(f)
    end)
    say("done\n")
  else
    f:close()
  end

  f = reopen(true, o.D)
  say("Writing intelligently...")
  t.put_block = measure("Writing intelligently", function(lat)
    for _ = 1, num_chunks do
      local t0 = now()
      full(chunk, "write", f:write(chunk))
      lat(now() - t0)
    end
    close(f)
  end)
  say("done\n")

  f = reopen(false)
  f:seek(0)
  say("Rewriting...")
  t.rewrite = measure("Rewriting", function(lat)
    -- each chunk: read(2), lseek(2) back, write(2), in C; the longest chunk
    local n, longest = f:rewrites(num_chunks, chunk)
    full(chunk * num_chunks, "rewrite", n, longest)
    lat(longest)
    close(f)
  end)
  say("done\n")

  if char_chunks > 0 then
    f = reopen(false)
    say("Reading a byte at a time...")
    t.getc = measure("Reading a byte at a time", function(lat)
      for _ = 1, char_chunks do
        local t0 = now()
        full(chunk, "read", f:reads(chunk, 1))  -- chunk read(2)s of one byte, in C
        lat(now() - t0)
      end
      close(f)
    end)
    say("done\n")
  end

  f = reopen(false)
  f:seek(0)
  say("Reading intelligently...")
  t.get_block = measure("Reading intelligently", function(lat)
    for _ = 1, num_chunks do
      local t0 = now()
      full(chunk, "read(2)", f:read(chunk))
      lat(now() - t0)
    end
    close(f)
  end)
  say("done\n")

  -- seek_test: 8192 random tickets (divisible by 10: also write), dealt to 5
  -- seekers. A seeker's clock runs from the start to after its fsync + close.
  local tickets = {}
  for w = 1, nproc do tickets[w] = {} end
  for k = 0, seeks - 1 do
    local list = tickets[k % nproc + 1]
    list[#list + 1] = p.random(0, 2147483646)
  end
  -- 2.00a's seekers are threads that each open the file; the parent closes
  -- its own; the first seeker done unlinks it (~CFileOp), so the last one's
  -- close frees the file inside its seek window (ext4: ~0.2 s for 1 GiB
  -- written). Here the files are handed off: p.parallel closes platter's
  -- copies once the workers are forked. Not under --sim, whose seekers run
  -- one after another.
  local unlink_in_seeks = as == "2.00a" and p.config.sim == nil
  local files = {}
  for w = 1, nproc do files[w] = reopen(false) end
  if o.seek_delay > 0 then p.sleep(o.seek_delay) end
  say("start 'em...")
  local sync = o.b
  local function seeker(w, sf)
    return function()
      for _, ticket in ipairs(tickets[w]) do
        local off = ticket % num_chunks * chunk
        sf:seek(off)
        full(chunk, "read", sf:read(chunk))
        if ticket % B.PP_UPDATE == 0 then
          sf:seek(off)
          full(chunk, "write", sf:write(chunk))
          if sync then assert(sf:fsync()) end
        end
      end
      close(sf)
    end
  end
  local r = p.parallel(nproc, function(w)
    local sf = files[w]
    for j = 1, nproc do  -- each seeker holds only its own file
      if j ~= w then files[j]:close() end
    end
    local s = p.phase("seeker " .. w, seeker(w, sf))
    if unlink_in_seeks then p.remove(path) end  -- the first seeker done; later ones find it gone
    return s
  end, { handoff = unlink_in_seeks and files or nil })
  if not unlink_in_seeks then  -- (handed-off files are closed already)
    for w = 1, nproc do files[w]:close() end
  end
  if #r.failed > 0 then error("seeker " .. r.failed[1].worker .. ": " .. r.failed[1].error, 0) end
  local maxlat = 0
  for w = 1, nproc do maxlat = math.max(maxlat, r[w]:max()) end
  say(string.rep("done...", nproc) .. "\n")
  t.seeks = { elapsed = r.merged.seconds, cpu = r.merged.user + r.merged.sys,
    latency = maxlat / 1e9 }
  p.remove(path)
end

-- ---- 1.03's I/O tests: stdio per character, 1 GiB files -------------------
local function io_tests_103(t)
  local chunk = io_chunk
  local num_chunks = B.PP_UNIT / chunk * file_size
  local cpf = B.PP_UNIT / chunk * B.PP_IO_FILE_103  -- chunks per file
  local nparts = math.ceil(num_chunks / cpf)  -- the last one is shorter
  local function part_path(i) return string.format("%s.%03d", path, i - 1) end

  -- CFileOp::reopen: every part; create = unlink + O_CREAT|O_EXCL (fopen "w+")
  local function open_all(create, direct)
    local files = {}
    for i = 1, nparts do
      if create then
        p.remove(part_path(i))
        p.scratch(part_path(i))
      end
      files[i] = assert(p.open(part_path(i), { create = create or nil, write = true,
        direct = direct or nil }))
    end
    return files
  end
  -- CFileOp::close: fsync (descriptors, not streams) only with -b
  local function close_all(files, stream)
    for _, f in ipairs(files) do
      if o.b and not stream then assert(f:fsync()) end
      f:close()
    end
  end
  -- after chunk c (0-based), 1.03 moves to the next part at a part's end
  local function after(files, c)
    local part = math.floor(c / cpf) + 1
    if (c + 1) % cpf == 0 and part < nparts then files[part + 1]:seek(0) end
  end
  local function part_of(files, c) return files[math.floor(c / cpf) + 1] end

  local files = open_all(true)
  if byte_io > 0 then
    say("Writing with putc()...")
    t.putc = measure("Writing with putc()", function()
      for c = 0, num_chunks - 1 do
        full(chunk, "putc", part_of(files, c):putc(chunk))
        after(files, c)
      end
      close_all(files, true)
    end)
    say("done\n")
  else
    close_all(files, true)
  end

  files = open_all(true, o.D)
  say("Writing intelligently...")
  t.put_block = measure("Writing intelligently", function()
    for c = 0, num_chunks - 1 do
      full(chunk, "write(2)", part_of(files, c):write(chunk))
      after(files, c)
    end
    close_all(files)
  end)
  say("done\n")

  files = open_all(false)
  say("Rewriting...")
  t.rewrite = measure("Rewriting", function()
    for c = 0, num_chunks - 1 do
      local f = part_of(files, c)
      full(chunk, "read", f:read(chunk))
      after(files, c)
      f:seek(c % cpf * chunk)
      full(chunk, "re write(2)", f:write(chunk))
      after(files, c)
    end
    close_all(files)
  end)
  say("done\n")

  if byte_io > 0 then
    files = open_all(false)
    say("Reading with getc()...")
    t.getc = measure("Reading with getc()", function()
      for c = 0, num_chunks - 1 do
        full(chunk, "getc", part_of(files, c):getc(chunk))
        after(files, c)
      end
      close_all(files, true)
    end)
    say("done\n")
  end

  files = open_all(false)
  say("Reading intelligently...")
  t.get_block = measure("Reading intelligently", function()
    for c = 0, num_chunks - 1 do
      full(chunk, "read(2)", part_of(files, c):read(chunk))
      after(files, c)
    end
    close_all(files)
  end)
  say("done\n")

  -- seek_test: 8192 tickets to 3 seekers, dealt round-robin. The children of
  -- one fork share the parent's rand() state, so each one seeks the same
  -- chunks (rand() % chunks) in the same order; its every 10th seek (the
  -- first too) rewrites the chunk, taking one more rand() for the byte it
  -- touches.
  local per = math.ceil(seeks / nproc)
  local list, upd = {}, {}
  for j = 1, per do
    list[j] = p.random(0, 2147483646) % num_chunks
    upd[j] = (j - 1) % B.PP_UPDATE == 0
    if upd[j] then p.random(0, 2147483646) end
  end
  local held = {}
  for w = 1, nproc do held[w] = open_all(false) end
  if o.seek_delay > 0 then p.sleep(o.seek_delay) end
  say("start 'em...")
  local r = p.parallel(nproc, function(w)
    for j = 1, nproc do  -- each seeker holds only its own files
      if j ~= w then close_all(held[j], true) end
    end
    local mine = held[w]
    local count = math.floor(seeks / nproc) + ((w - 1) < seeks % nproc and 1 or 0)
    return p.phase("seeker " .. w, function()
      for j = 1, count do
        local c = list[j]
        local f = part_of(mine, c)
        f:seek(c % cpf * chunk)
        full(chunk, "read", f:read(chunk))
        after(mine, c)
        if upd[j] then
          f:seek(c % cpf * chunk)
          full(chunk, "write", f:write(chunk))
          after(mine, c)
          if o.b then assert(f:fsync()) end
        end
      end
      close_all(mine)
    end)
  end)
  for w = 1, nproc do close_all(held[w], true) end
  if #r.failed > 0 then error("seeker " .. r.failed[1].worker .. ": " .. r.failed[1].error, 0) end
  say(string.rep("done...", nproc) .. "\n")
  t.seeks = { elapsed = r.merged.seconds, cpu = r.merged.user + r.merged.sys }
  for i = 1, nparts do p.remove(part_path(i)) end
end

-- ---- the file tests (TestDirOps) ------------------------------------------
local nfiles = dir_size * B.PP_DIR_UNIT
-- 1.97 makes the directory Bonnie.<pid> for them. The simulated disk has no
-- directories: under --sim the files are Bonnie.<pid>.<name> beside it.
local sim = p.config.sim ~= nil
local fdir = string.format("%s/Bonnie.%d", o.d, p.pid())
local prefix = sim and fdir .. "." or fdir .. "/"
local function rand(n) return p.random(n) - 1 end

-- With -n N:max:min:D (D > 1) the files go into D directories 00000, 00001...
-- inside it, filled in order (COpenTest::make_names: a directory takes one name
-- more than N/D before the next one starts); under --sim they are a name prefix.
local function sub_dir(d) return string.format(sim and "%05d." or "%05d/", d) end

local function make_dir()
  if sim then return end
  local ok, msg = p.mkdir(fdir)
  if not ok then error("Can't make directory: " .. msg, 0) end
  p.scratch(fdir)  -- removed at exit when it is left behind, empty
  if num_dirs > 1 then
    for d = 0, num_dirs - 1 do
      local sd = fdir .. "/" .. string.format("%05d", d)
      ok, msg = p.mkdir(sd)
      if not ok then error("Can't make directory " .. string.format("%05d", d) .. ": " .. msg, 0) end
      p.scratch(sd)
    end
  end
end

-- The sequential tests take the files in the order readdir gives, as 1.97:
-- directory by directory.
local function dir_order(names)
  if sim then return names end
  local list = {}
  for d = 0, num_dirs - 1 do
    local dir = num_dirs > 1 and fdir .. "/" .. string.format("%05d", d) or fdir
    local pre = num_dirs > 1 and prefix .. sub_dir(d) or prefix
    for _, n in ipairs(assert(p.readdir(dir))) do list[#list + 1] = pre .. n end
  end
  return list
end

local function make_names(random_order)
  local names = {}
  local num_fmt = v103 and "%07d" or nil
  local per_dir, in_dir, d = math.floor(nfiles / num_dirs), 0, 0
  for i = 0, nfiles - 1 do
    local dir = num_dirs > 1 and sub_dir(d) or ""
    names[i + 1] = prefix .. dir .. B.pp_file_name(i, random_order, rand, num_fmt)
    in_dir = in_dir + 1
    if in_dir > per_dir then in_dir, d = 0, d + 1 end
  end
  for _, n in ipairs(names) do
    local f = p.open(n)
    if f then
      f:close()
      error(n .. " exists already: not overwriting it", 0)
    end
  end
  return names
end

local function random_sort(names)
  for i = 1, #names do
    local j = rand(#names) + 1
    names[i], names[j] = names[j], names[i]
  end
end

-- Move size bytes through f in file_chunk pieces: "write" or "read".
local function whole(f, size, op)
  local done = 0
  while done < size do
    local k = math.min(file_chunk, size - done)
    local n, msg
    if op == "write" then n, msg = f:write(k) else n, msg = f:read(k) end
    full(k, op, n, msg)
    done = done + k
  end
end

local function create(names, label)
  local range = max_size - min_size
  return measure(label, function(lat)
    local now = p.now
    for _, n in ipairs(names) do
      local size = range ~= 0 and min_size + rand(range + 1) or max_size
      local t0 = now()
      local f = assert(p.open(n, { create = true, write = true }))
      whole(f, size, "write")
      if o.b then assert(f:fsync()) end
      f:close()
      lat(now() - t0)
    end
    if not v103 then p.sync() end  -- 1.97 ends the create tests with a timed sync()
  end)
end

-- stat(2) each file, and read it whole when it is not empty (under --sim,
-- where there is no stat, opening it stands in).
local function stat(names, label)
  return measure(label, function(lat)
    local now = p.now
    for _, n in ipairs(names) do
      local t0 = now()
      local size = sim and -1 or assert(p.stat(n)).size
      if size ~= 0 then
        local f = assert(p.open(n))
        whole(f, f:size(), "read")
        f:close()
      end
      lat(now() - t0)
    end
  end)
end

local function delete(names, label)
  return measure(label, function(lat)
    local now = p.now
    for _, n in ipairs(names) do
      local t0 = now()
      assert(p.remove(n))
      lat(now() - t0)
    end
    if not sim then
      for d = 0, num_dirs > 1 and num_dirs - 1 or -1 do
        assert(p.rmdir(fdir .. "/" .. string.format("%05d", d)))
      end
      assert(p.rmdir(fdir))
    end
    if not v103 then p.sync() end  -- and the delete tests too
  end)
end

local function file_tests(t)
  local names
  local ok, err = pcall(function()
    names = make_names(false)
    make_dir()
    say("Create files in sequential order...")
    t.seq_create = create(names, "Create files in sequential order")
    say("done.\nStat files in sequential order...")
    t.seq_stat = stat(dir_order(names), "Stat files in sequential order")
    say("done.\nDelete files in sequential order...")
    t.seq_del = delete(dir_order(names), "Delete files in sequential order")
    say("done.\n")
    names = make_names(true)
    make_dir()
    say("Create files in random order...")
    t.ran_create = create(names, "Create files in random order")
    say("done.\nStat files in random order...")
    random_sort(names)
    t.ran_stat = stat(names, "Stat files in random order")
    say("done.\nDelete files in random order...")
    random_sort(names)
    t.ran_del = delete(names, "Delete files in random order")
    say("done.\n")
    names = nil
  end)
  if not ok then
    for _, n in ipairs(names or {}) do p.remove(n) end  -- what is left of them
    if not sim then
      for d = 0, num_dirs > 1 and num_dirs - 1 or -1 do
        p.rmdir(fdir .. "/" .. string.format("%05d", d))
      end
      p.rmdir(fdir)
    end
    error(err, 0)
  end
end

-- ---- runs and reports --------------------------------------------------------
if test_count > 1 then p.write(B.pp_csv_header(as)) end
local seeded = false
while test_count > 0 or test_count == -1 do
  -- BonTimer::Initialize resets the random source for every run; 1.03 seeds
  -- rand() once
  if not (v103 and seeded) then p.seed(seed) end
  seeded = true
  local t = {}
  local ok, err = classic.protected(function()
    if file_size > 0 then
      if v103 then io_tests_103(t) else io_tests(t) end
    end
    if dir_size > 0 then file_tests(t) end
  end)
  if not ok and not p.interrupted() then error(err, 0) end
  if not ok and line_open then p.ewrite("\n") end
  local R = { name = name, concurrency = concurrency, seed = string.format("%d", seed),
    file_size = file_size, char_size = byte_io, io_chunk = io_chunk, num_files = dir_size,
    max_size = max_size, min_size = min_size, num_dirs = num_dirs, file_chunk = file_chunk,
    as = as, version = as, seeks = seeks, seek_procs = nproc, t = t }
  if test_count == -1 then
    local text = B.pp_text(R)
    if quiet then p.ewrite(text) else p.write(text) end
  end
  p.write(B.pp_csv(R))
  p.flush()
  if not ok then error(err, 0) end  -- Ctrl-C: the tests that finished are above
  if test_count == -1 then break end
  test_count = test_count - 1
end
