-- iozone 3.489: write/rewrite, read/reread, random, backward, record rewrite, stride, fwrite/fread, pwrite/pread
--
-- The single-stream tests of iozone as its source runs them, with its
-- splash lines, its two header rows, its table and its -R "Excel" report
-- byte for byte (lua/platter/classic_iozone.lua has the text and the number
-- rules). Each test opens the file, syncs it, starts the clock, does one
-- pass of numrecs = kB*1024/reclen records, and stops the clock; with -e
-- the fsync (fflush+fsync for fwrite) and with -c the close are inside the
-- clock, otherwise they follow it. Rate = (u64)(bytes / (t - 1 us)) >> 10,
-- "kB" meaning KiB truncated. Every measured pass is a platter phase named
-- "<test> <kB> <reclen kB>", such as "random read 1024 64".
--
-- Per test (iozone 3.489, read from its source and checked with strace):
--   0  write: unlink and create the file, open O_RDWR; write each record.
--      rewrite: open again, write each record.
--   1  read/reread: open O_RDONLY, read one record and seek back (not
--      timed), then read each record.
--   2  random read then random write: every record once, in one shuffled
--      order (for each i, swap i with rand() % n), lseek + read/write.
--   3  backward read: lseek to the last record, then read and lseek back
--      two records; two passes, the first is reported.
--   4  record rewrite: write record 0 and lseek to 0, numrecs times.
--   5  stride read: read, then lseek 17 records on (-j), wrapping to 1, 2,
--      ... records from the start at the end of the file.
--   6  fwrite/frewrite and 7 fread/freread: stdio with a reclen-sized
--      buffer (setvbuf), one fwrite/fread call per record.
--   9  pwrite/re-pwrite and 10 pread/re-pread, with -E only (as iozone).
--
-- Differences from iozone: platter identifies itself on the "Build:" line
-- and the command line starts with "iozone"; stdio is glibc's buffering
-- replayed in Lua (the same write(2)/read(2) calls, from platter's buffer,
-- without the memcpy); the random order comes from platter's generator
-- (--seed) rather than iozone's MT19937-64 with a fixed key; iozone's
-- sync(); sync() before each row is not done (platter has no sync()); the
-- buffer holds zeros, not iozone's pattern. mmap, async I/O, -O/-N, -p,
-- -T, -b and -+ options other than -+n (and -+u with -t) are not provided:
-- each is an error naming it.
--
-- --as VERSION prints as iozone 3.506 (to 3.508), 3.429 (3.428 to 3.430),
-- 3.420 (3.308 to 3.420) or 3.263 (3.152 to 3.303) instead
-- (classic_iozone.lua's LAYOUTS).
-- Throughput mode (-t N, -F, -+u) runs -i 0, 1 and 2 in N p.parallel
-- workers, without stonewalling (as iozone -x), the files made by the
-- parent as holes first (docs/workloads.md, iozone, says why).
-- Unlike iozone, a -f that exists must be a regular file: the write test
-- unlinks it, and iozone as root would unlink a device node.
-- Ctrl-C ends the row being measured with blank cells for the tests it did
-- not finish (iozone's padding for a test not selected), then prints what
-- iozone's signal handler prints ("iozone: interrupted", the -R report of
-- what was measured, "exiting iozone"); iozone left the row unfinished.
local p = require "platter"
-- the manifest (platter describe, platter plan); the arguments are read below,
-- with the original tool's syntax
p.script({
  name = "iozone", version = "1.0", api = "platter/1", args = "own",
  description = "iozone: file I/O by file and record size, iozone's reports",
  params = {
    file = { type = "path", flag = "-f", arg = "FILE", default = "iozone.tmp",
      help = "the test file; it is deleted and made anew" },
    size = { type = "string", flag = "-s", arg = "SIZE", help = "file size (kB, or k, m, g)" },
    record = { type = "string", flag = "-r", arg = "SIZE", help = "record size (kB, or k, m, g)" },
    test = { type = "int", flag = "-i", help = "tests to run: 0 write, 1 read, 2 random, ..." },
    auto = { type = "bool", flag = "-a", help = "auto mode: sizes and records doubling" },
    direct = { type = "bool", flag = "-I", help = "O_DIRECT" },
  },
  needs = { write = true, device = "file" },
}, ...)
local iz = require "platter.classic_iozone"
local classic = require "platter.classic"

local NAME = "iozone"
local argv = { ... }

local spec = {
  name = NAME,
  usage = "[-a] [-s SIZE]... [-r SIZE]... [-i N]... [options]",
  summary = "iozone 3.489's file tests (single-stream, and -t for tests 0-2) and its output, "
    .. "byte for byte; --as for other releases.",
  options = {
    { "-a", help = "auto mode: file sizes 64 kB..512 MB, records 4 kB..16 MB, doubling" },
    { "-s", arg = "SIZE", multi = true,
      help = "file size in kB, or with k, m or g; repeat for a list (auto mode over it)" },
    { "-r", arg = "SIZE", multi = true,
      help = "record size in kB, or with k, m or g; repeat for a list" },
    { "-i", arg = "N", type = "int", multi = true,
      help = "test: 0 write, 1 read, 2 random, 3 backward, 4 record rewrite, 5 stride, "
        .. "6 fwrite, 7 fread, 9 pwrite, 10 pread (9 and 10 need -E); repeatable" },
    { "-f", arg = "FILE", help = "the test file (default iozone.tmp); it is deleted and made anew" },
    { "-I", help = "O_DIRECT for all file operations (not the stdio tests)" },
    { "-e", help = "include the flush (fsync; fflush for stdio) in the timing" },
    { "-c", help = "include the close in the timing" },
    { "-o", help = "writes are synchronous (O_SYNC)" },
    { "-w", help = "do not unlink the file" },
    { "-R", help = "print the Excel-style report at the end" },
    { "-E", help = "extension tests: pwrite/re-pwrite (-i 9), pread/re-pread (-i 10)" },
    { "-n", arg = "SIZE", help = "auto mode: smallest file size (kB, or k, m, g)" },
    { "-g", arg = "SIZE", help = "auto mode: largest file size (kB, or k, m, g)" },
    { "-y", arg = "SIZE", help = "auto mode: smallest record size (kB, or k, m, g)" },
    { "-q", arg = "SIZE", help = "auto mode: largest record size (kB, or k, m, g)" },
    { "-z", help = "auto mode: keep small records for files over 16 MB" },
    { "-j", arg = "N", type = "int", help = "stride of the stride read, in records (default 17)" },
    { "-S", arg = "KB", type = "int", help = "processor cache size, kB (only printed)" },
    { "-L", arg = "BYTES", type = "int", help = "processor cache line size (only printed)" },
    { "-+", arg = "X", multi = true, key = "plus", help = "-+n: no re-tests (their columns print 0)" },
    { "-t", arg = "N", type = "int",
      help = "throughput mode: N processes, each on its own file (-i 0, 1 and 2 only)" },
    { "-F", help = "throughput mode: the N file names follow (after -t N)" },
    { "-x", help = "throughput mode: no stonewalling (platter never stonewalls; see docs)" },
    { "-K", help = "disrupted read patterns: every 100th record, a 1-byte read at 0 and at 4096" },
    { "-p", help = "purge the processor cache before each record (iozone's purgeit: -S/-L set it up)" },
    { "-T", help = "POSIX threads for -t (not provided: an error)" },
    { "-b", arg = "FILE", help = "also write the -R report as an Excel (BIFF 2) worksheet to FILE" },
    { "--as", arg = "VERSION", choices = iz.AS, default = iz.VERSION,
      help = "print as this iozone: 3.489 (3.434 to 3.489), 3.506 (3.506 to 3.508, wider "
        .. "columns), 3.429 (3.428 to 3.430: 3.489's columns, the older blanks), 3.420 (3.308 "
        .. "to 3.420: KB, Kbytes, narrower columns), 3.263 (3.152 to 3.303: as 3.420 without "
        .. "the blanks before record rewrite and stride read)" },
  },
  rest = true,
  epilog = "Sizes follow iozone: a bare number is kB; -s 100M is 102400 kB. Without -i all\n"
    .. "tests run (0..7, and 9, 10 with -E). The file is unlinked and created again by\n"
    .. "the write test and removed after each row unless -w is given; a FILE that exists\n"
    .. "must be a regular file.",
}
local o = p.args(spec, ...)
local L = iz.layout(o.as)

-- --as is platter's: iozone's own option loop and its "Command line used"
-- never see it.
do
  local kept, i = {}, 1
  while i <= #argv do
    local a = argv[i]
    if a == "--as" then
      i = i + 1
    elseif not a:match("^%-%-as=") then
      kept[#kept + 1] = a
    end
    i = i + 1
  end
  argv = kept
end

-- Options iozone has that platter accepts but does not provide: an error
-- that names them, never a silent run without them.
local unprovided = {
  T = "-T (POSIX threads: platter's throughput children are processes, as iozone's default)",
}
if o.T then p.usage_error(NAME, "unsupported option " .. unprovided.T) end

for _, x in ipairs(o.plus) do
  if x ~= "n" and not (x == "u" and o.t) then
    p.usage_error(NAME, "unsupported option '-+" .. x .. "' (only -+n" .. (o.t and " and -+u" or "") .. ")")
  end
end

-- ---------------------------------------------------------------------------
-- Options, in command-line order, as iozone's getopt loop handles them
-- ---------------------------------------------------------------------------

local takes = { s = true, r = true, i = true, f = true, n = true, g = true, y = true, q = true,
  j = true, S = true, L = true, ["+"] = true, t = true, b = true, F = "list" }
local st = {
  kilobytes = iz.KILOBYTES, reclen = 1024,
  min_file = iz.KILOBYTES_START, max_file = iz.KILOBYTES_END,
  min_rec = iz.RECLEN_START, max_rec = iz.MAXBUFFERSIZE,
  s_list = {}, r_list = {}, include = {}, stride = iz.STRIDE,
  cache_size = iz.CACHE_SIZE, line_size = iz.CACHE_LINE_SIZE,
}
local splash = {}

-- -+u: iozone's get_rusage_resolution(), the first step of the CPU clock
-- (p.cpu()) seen by polling it; 0 when it does not move within 200000
-- readings (as under --sim, where CPU time moves only with the I/O).
local cputime_res = 0
local function iz_rusage_resolution()
  local u, sy = p.cpu()
  local start = u + sy
  for _ = 1, 200000 do
    u, sy = p.cpu()
    if u + sy ~= start then
      cputime_res = u + sy - start
      return cputime_res
    end
  end
  return 0
end
local function say(fmt, ...) splash[#splash + 1] = string.format(fmt, ...) end

local function fatal(text, code)
  p.write(text)
  p.flush()
  p.exit(code)
end

local KB = L.kb  -- "kB", or "KB" before 3.424
local function max_rec_check(bytes)
  if bytes > iz.MAXBUFFERSIZE then
    fatal(string.format("Error: maximum record size %d %s is greater than maximum buffer size %d %s\n ",
      math.floor(bytes / 1024), KB, iz.MAXBUFFERSIZE / 1024, KB), 23)
  end
end

for _, ov in ipairs(iz.getopt(argv, takes)) do
  local c, v = ov[1], ov[2]
  if c == "I" then
    st.direct = true
    say("\tO_DIRECT feature enabled\n")
  elseif c == "a" then
    st.auto = true
    say("\tAuto Mode\n")
  elseif c == "c" then
    st.include_close = true
    say("\tInclude close in write timing\n")
  elseif c == "e" then
    st.include_flush = true
    say("\tInclude fsync in write timing\n")
  elseif c == "s" then
    local kb = iz.file_kb(v)
    if kb <= 0 then kb = iz.KILOBYTES end
    st.kilobytes = kb
    st.s_list[#st.s_list + 1] = kb
    st.max_file, st.min_file = kb, st.s_list[1]
    st.sflag = true
    say("\tFile size set to %d %s\n", kb, KB)
  elseif c == "r" then
    local b = iz.record_bytes(v)
    if b <= 0 then b = 4096 end
    st.reclen = b
    st.r_list[#st.r_list + 1] = b
    st.max_rec, st.min_rec = b, st.r_list[1]
    st.rflag = true
    say("\tRecord Size %d %s\n", math.floor(b / 1024), KB)
    max_rec_check(st.max_rec)
  elseif c == "R" then
    st.excel = true
    say("\tExcel chart generation enabled\n")
  elseif c == "b" then  -- the worksheet; -b implies -R's report, silently
    st.excel = true
    st.bif = v
  elseif c == "o" then
    st.osync = true
    say("\tSYNC Mode. \n")
  elseif c == "i" then
    local t = iz.atoi(v)
    if t < 0 then t = 0 end
    if t > iz.MAX_TEST then
      t = 0
      say("\tSelected test not available on the version.\n")
    end
    st.include[t] = true
    st.include_tflag = true
  elseif c == "w" then
    st.keep = true
    say("\tSetting no_unlink\n")
  elseif c == "n" then
    local kb = iz.file_kb(v)
    if kb < iz.RECLEN_START / 1024 then kb = iz.RECLEN_START / 1024 end
    st.minimum_file, st.nflag = kb, true
    say("\tUsing minimum file size of %d kilobytes.\n", kb)
  elseif c == "g" then
    local kb = iz.file_kb(v)
    if kb < iz.RECLEN_START / 1024 then kb = iz.RECLEN_START / 1024 end
    st.maximum_file, st.gflag = kb, true
    say("\tUsing maximum file size of %d kilobytes.\n", kb)
  elseif c == "z" then
    st.nocross = true
    say("\tCross over of record size disabled.\n")
  elseif c == "y" then
    local b = iz.record_bytes(v)
    if b <= 0 then b = iz.RECLEN_START end
    st.min_rec, st.yflag = b, true
    say("\tUsing Minimum Record Size %d %s\n", math.floor(b / 1024), KB)
  elseif c == "q" then
    local b = iz.record_bytes(v)
    st.max_rec, st.qflag = b, true
    if b <= 0 then st.min_rec = iz.MAXBUFFERSIZE end  -- sic: iozone sets the minimum here
    max_rec_check(b)
    say("\tUsing Maximum Record Size %d %s\n", math.floor(b / 1024), KB)
  elseif c == "+" and v == "n" then
    st.noretest = true
    say("\tNo retest option selected\n")
  elseif c == "+" and v == "u" then
    st.cpuutil = true
    say("\tCPU utilization Resolution = %5.3f seconds.\n", iz_rusage_resolution())
    say("\tCPU utilization Excel chart enabled\n")
  elseif c == "j" then
    st.stride = math.max(0, iz.atoi(v))
  elseif c == "S" then
    local kb = iz.atoi(v)
    st.cache_size = kb ~= 0 and kb * 1024 or iz.CACHE_SIZE
  elseif c == "L" then
    local b = iz.atoi(v)
    st.line_size = b ~= 0 and b or iz.CACHE_LINE_SIZE
  elseif c == "E" then
    st.extended = true
  elseif c == "t" then
    local n = iz.atoi(v)
    if n <= 0 then n = 8 end  -- as iozone
    st.children = n
  elseif c == "F" then
    if st.f_given then
      fatal("invalid options: -f and -F are mutually exclusive\n", 11)
    end
    if not st.children then fatal("invalid options: must specify -t N before -F\n", 12) end
    if #v < st.children then
      fatal(string.format("invalid options: not enough filenames for %d streams\n", st.children), 13)
    end
    if #v > st.children then p.usage_error(NAME, "unexpected argument '" .. v[st.children + 1] .. "'") end
    st.names = v
  elseif c == "f" then
    if st.names then fatal("invalid options: -f and -F are mutually exclusive\n", 11) end
    st.f_given = true
  elseif c == "x" then
    st.nostonewall = true
    say("\tStonewall disabled\n")
  elseif c == "K" then
    st.disrupt = true
    say("\tDisrupted read patterns selected.\n")
  elseif c == "p" then
    st.purge = true
    say("\tPurge Mode On\n")
  end
end
-- the words p.args left over are the names after -F, and nothing else
if #o > (st.names and #st.names or 0) then
  p.usage_error(NAME, "unexpected argument '" .. o[(st.names and #st.names or 0) + 1] .. "'")
end
if #st.r_list > 1 then st.auto, st.rflag, st.nocross = true, false, true end
if #st.s_list > 1 then st.auto, st.sflag, st.nocross = true, false, true end
-- what platter's -t provides (iozone's throughput_test() runs more)
if st.children then
  for t in pairs(st.include) do
    if t > 2 then
      p.usage_error(NAME, string.format("-t runs -i 0, 1 and 2 in platter (not -i %d)", t))
    end
  end
  if not st.include_tflag then
    p.usage_error(NAME, "-t without -i runs every throughput test; platter provides -i 0, 1 "
      .. "and 2: name them")
  end
  if st.excel then p.usage_error(NAME, "-R with -t (the throughput report) is not provided") end
  if st.auto then p.usage_error(NAME, "-a with -t is not provided") end
end
for t = 9, 10 do
  if st.include[t] and not st.extended then
    p.log("iozone: -i %d runs only with -E, as in iozone", t)
  end
end

-- The write test unlinks the file and creates it anew, as iozone does: only
-- a regular file (or a name that does not exist yet) is accepted, never a
-- device node such as /dev/null.
local path = o.f or "iozone.tmp"
do
  local f, err, errno = p.open(path)
  if f then
    local kind = f:info().kind
    f:close()
    if kind ~= "file" then
      p.usage_error(NAME, "'" .. path .. "' is not a regular file: iozone deletes and "
        .. "recreates its file (-f names a file to create)")
    end
  elseif errno ~= 2 then  -- ENOENT: iozone creates it
    p.usage_error(NAME, tostring(err))
  end
end

-- The date: the wall clock, or under --sim a fixed one so the output repeats.
local function began()
  if p.config and p.config.sim then return iz.ctime(os.date("!*t", 0)) end
  return iz.ctime(os.date("*t"))
end

p.write(iz.splash_head("platter-" .. p.version, began(), L))
p.write(table.concat(splash))
local words = { NAME }
for _, a in ipairs(argv) do words[#words + 1] = a end
p.write(iz.command_line(words))
p.write(iz.output_units(L))
if st.min_rec > st.max_rec then
  fatal(string.format("Error: minimum record size %d %s is greater than maximum record size %d %s\n ",
    math.floor(st.min_rec / 1024), KB, math.floor(st.max_rec / 1024), KB), 23)
end
if not st.auto and not st.rflag then st.max_rec = st.min_rec end
p.write(iz.splash_tail(st.stride, st.cache_size, st.line_size, L))
if st.children then
  p.printf("\tThroughput test with %d %s\n", st.children, st.children > 1 and "processes" or "process")
end
if not st.rflag then st.reclen = iz.RECLEN end
if st.reclen > iz.MAXBUFFERSIZE then
  fatal(string.format("Error: Maximum record length is %d bytes\n", iz.MAXBUFFERSIZE), 21)
end
if st.reclen < iz.MINBUFFERSIZE then
  fatal(string.format("Error: Minimum record length is %d bytes\n", iz.MINBUFFERSIZE), 22)
end
p.flush()

-- ---------------------------------------------------------------------------
-- The tests
-- ---------------------------------------------------------------------------

local res_prob, rec_prob = false, 0

-- seconds of a measured pass -> iozone's time (and its poor-resolution note)
local function itime(seconds, reclen)
  local t, poor = iz.elapsed(seconds)
  if poor then
    res_prob = true
    if rec_prob < reclen then rec_prob = reclen end
  end
  return t
end

local function perror(what, err)
  p.ewrite(what, ": ", (tostring(err or ""):gsub("^.*: ", "")), "\n")
end

-- p.open or iozone's message and exit status.
local function open_or_die(opts, text, code)
  local f, err = p.open(path, opts)
  if not f then
    p.write(text)
    perror("open", err)
    p.exit(code)
  end
  return f
end

local function io_fail(text, what, err, code)
  p.write(text)
  perror(what, err or "short transfer")
  p.exit(code)
end

local function phase(name, kb, reclen, fn)
  return p.phase(string.format("%s %d %d", name, kb, math.floor(reclen / 1024)), fn).seconds
end

-- After the clock: the flush and close that -e/-c did not put inside it.
local function finish(f)
  if not st.include_close then
    f:fsync()
    f:close()
  end
end

local function inside(f)
  if st.include_flush then f:fsync() end
  if st.include_close then f:close() end
end

local function passes() return st.noretest and 1 or 2 end

-- -p: iozone's purgeit() before every record, inside the timing: one byte of
-- each cache line of a separate buffer that maps to the same cache sets as
-- the record's buffer (f:evict). iozone masks with cache_size - 1, so a -S
-- that is not a power of 2 acts as the power of 2 below it.
local function pow2_below(n)
  local v = 64
  while v * 2 <= n do v = v * 2 end
  return v
end
local function purge(f, reclen)
  if st.purge then f:evict(reclen, pow2_below(st.cache_size), st.line_size) end
end

-- Record i of a test: f:read or f:write of reclen bytes at the current
-- position, or iozone's message and exit code when it comes up short.
local function record(f, op, reclen, i, code)
  purge(f, reclen)
  local n, err
  if op == "write" then n, err = f:write(reclen) else n, err = f:read(reclen) end
  if n ~= reclen then
    io_fail(string.format("\nError %s block %d\n", op == "write" and "writing" or "reading", i),
      op, err, code)
  end
end

-- One timed pass: body() inside the clock, then what -e/-c put inside it too;
-- the flush and close after the clock. Returns the time iozone reports.
local function timed(f, name, kb, reclen, body)
  local t = itime(phase(name, kb, reclen, function()
    body()
    inside(f)
  end), reclen)
  finish(f)
  return t
end

local function rates(times, bytes, n)
  local r = {}
  for j = 1, n or 2 do
    r[j] = times[j] and iz.rate(bytes, times[j]) or 0
  end
  return r
end

local tests = {}

tests[0] = function(kb, reclen, numrecs)  -- write, rewrite
  local names, times = iz.TESTS[0], {}
  for j = 1, passes() do
    if j == 1 then
      p.remove(path)
      if not st.keep then p.scratch(path) end
      open_or_die({ create = true, write = true },
        string.format("\nCan not create temp file: %s\n", path), 38):close()
    end
    local f = open_or_die({ write = true, direct = st.direct, sync = st.osync },
      string.format("\nCan not open temp file: %s\n", path), 39)
    f:fsync()
    times[j] = timed(f, names[j], kb, reclen, function()
      for i = 0, numrecs - 1 do record(f, "write", reclen, i, 74) end
    end)
  end
  return rates(times, numrecs * reclen)
end

-- -K: iozone's disrupt(), before every 100th record of a read pass: a
-- little read at offset 0 and at one page, then back where it was (a page
-- each under -I, one byte otherwise).
local PAGE = 4096
local function disrupt(f, i)
  if not st.disrupt or i % 100 ~= 0 then return end
  local cur = f:seek()
  local n = st.direct and PAGE or 1
  f:seek(0)
  f:read(n)
  f:seek(PAGE)
  f:read(n)
  f:seek(cur)
end

tests[1] = function(kb, reclen, numrecs)  -- read, reread
  local names, times = iz.TESTS[1], {}
  for j = 1, passes() do
    local f = open_or_die({ direct = st.direct },
      string.format("\nCan not open temporary file %s for read\n", path), 58)
    f:fsync()
    if f:read(reclen) ~= reclen then
      io_fail("\nError reading block 0\n", "read", nil, 60)
    end
    f:seek(0)
    times[j] = timed(f, names[j], kb, reclen, function()
      for i = 0, numrecs - 1 do
        disrupt(f, i)
        record(f, "read", reclen, i, 61)
      end
    end)
  end
  return rates(times, numrecs * reclen)
end

tests[2] = function(kb, reclen, numrecs)  -- random read, random write
  local names, times = iz.TESTS[2], {}
  p.seed(p.config and p.config.seed or 1)  -- iozone reseeds too: the same order every row
  local order = iz.shuffle(numrecs, function() return p.random(0, 2147483647) end)
  for j = 1, 2 do
    local f = open_or_die({ write = true, create = true, direct = st.direct, sync = st.osync },
      "\nCan not open temporary file for read/write\n", 66)
    local writing = j == 2
    times[j] = timed(f, names[j], kb, reclen, function()
      for i = 0, numrecs - 1 do
        local off = order[i] * reclen
        purge(f, reclen)
        f:seek(off)
        local n, err
        if writing then n, err = f:write(reclen) else n, err = f:read(reclen) end
        if n ~= reclen then
          io_fail(string.format("\nError %s block at %d\n", writing and "writing" or "reading", off),
            writing and "write" or "read", err, writing and 74 or 70)
        end
      end
    end)
  end
  return rates(times, numrecs * reclen)
end

tests[3] = function(kb, reclen, numrecs)  -- backward read: two passes, the first reported
  local times = {}
  for j = 1, passes() do
    local f = open_or_die({ direct = st.direct }, "\nCan not open temporary file for read\n", 75)
    f:fsync()
    times[j] = timed(f, iz.TESTS[3][1], kb, reclen, function()
      if not f:seek(-reclen, "end") then
        io_fail("", "lseek", "Invalid argument", 77)
      end
      for i = 0, numrecs - 1 do
        record(f, "read", reclen, i, 79)
        f:seek(-2 * reclen, "cur")  -- the last one fails before offset 0, as in iozone
      end
    end)
  end
  return { iz.rate(numrecs * reclen, times[1]) }
end

tests[4] = function(kb, reclen, numrecs)  -- record rewrite
  local f = open_or_die({ write = true, create = true, direct = st.direct, sync = st.osync },
    string.format("\nCan not open temporary file %s for write.\n", path), 84)
  f:fsync()
  local t = timed(f, iz.TESTS[4][1], kb, reclen, function()
    for i = 0, numrecs - 1 do
      record(f, "write", reclen, i, 74)
      f:seek(0)
    end
  end)
  return { iz.rate(numrecs * reclen, t) }
end

tests[5] = function(kb, reclen, numrecs)  -- stride read
  local f = open_or_die({ direct = st.direct }, "\nCan not open temporary file for read\n", 86)
  f:fsync()
  local t = timed(f, iz.TESTS[5][1], kb, reclen, function()
    local pos, wraps = 0, 0
    for i = 0, numrecs - 1 do
      record(f, "read", reclen, i, 88)
      pos, wraps = iz.stride_next(pos, numrecs, st.stride, wraps)
      f:seek(pos * reclen)
    end
  end)
  return { iz.rate(numrecs * reclen, t) }
end

tests[6] = function(kb, reclen, numrecs)  -- fwrite, frewrite: stdio, reclen-sized buffer
  local names, times = iz.TESTS[6], {}
  for j = 1, passes() do
    -- fopen "r+" when the file exists, else "w+" (creates it)
    local f = p.open(path, { write = true }) or open_or_die({ write = true, create = true },
      string.format("\nCan not fdopen temp file: %s\n", path), 49)
    f:fsync()
    local failed
    local stream = iz.stdio_writer(reclen, function(len)
      local n, err = f:write(len)
      if n ~= len then failed = err or "short write" end
    end)
    local function flush_sync()
      stream.fflush()
      f:fsync()
    end
    times[j] = itime(phase(names[j], kb, reclen, function()
      for i = 0, numrecs - 1 do
        purge(f, reclen)
        stream.fwrite(reclen)
        if failed then io_fail(string.format("\nError fwriting block %d\n", i), "fwrite", failed, 74) end
      end
      if st.include_flush then flush_sync() end
      if st.include_close then
        stream.fflush()
        f:close()
      end
    end), reclen)
    if not st.include_close then
      flush_sync()
      f:close()
    end
  end
  return rates(times, numrecs * reclen)
end

tests[7] = function(kb, reclen, numrecs)  -- fread, freread
  local names, times = iz.TESTS[7], {}
  for j = 1, passes() do
    local f = open_or_die(nil, string.format("\nCan not fdopen temp file: %s\n", path), 52)
    local g = p.open(path)  -- iozone syncs through a second descriptor
    if g then
      g:fsync()
      g:close()
    end
    local stream = iz.stdio_reader(reclen, function(len) return f:read(len) end)
    times[j] = itime(phase(names[j], kb, reclen, function()
      for i = 0, numrecs - 1 do
        purge(f, reclen)
        if stream.fread(reclen) ~= reclen then
          io_fail(string.format("\nError freading block %d\n", i), "read", nil, 54)
        end
      end
      if st.include_close then f:close() end  -- fflush of a read stream writes nothing
    end), reclen)
    if not st.include_close then f:close() end
  end
  return rates(times, numrecs * reclen)
end

tests[9] = function(kb, reclen, numrecs)  -- pwrite, re-pwrite
  local names, times = iz.TESTS[9], {}
  for j = 1, passes() do
    local f = open_or_die({ write = true, create = true, direct = st.direct, sync = st.osync },
      string.format("\nCan not open temp file: %s\n", path), 97)
    f:fsync()
    times[j] = timed(f, names[j], kb, reclen, function()
      for i = 0, numrecs - 1 do
        purge(f, reclen)
        local n, err = f:pwrite(i * reclen, reclen)
        if n ~= reclen then
          io_fail(string.format("\nError pwriting block %d\n", i), "pwrite", err, 74)
        end
      end
    end)
  end
  return rates(times, numrecs * reclen)
end

tests[10] = function(kb, reclen, numrecs)  -- pread, re-pread
  local names, times = iz.TESTS[10], {}
  for j = 1, passes() do
    local f = open_or_die({ direct = st.direct },
      string.format("\nCan not open temporary file %s for read\n", path), 101)
    times[j] = timed(f, names[j], kb, reclen, function()
      for i = 0, numrecs - 1 do
        purge(f, reclen)
        local n, err = f:pread(i * reclen, reclen)
        if n ~= reclen then
          io_fail(string.format("\nError reading block %d\n", i), "pread", err, 103)
        end
      end
    end)
  end
  return rates(times, numrecs * reclen)
end

-- ---------------------------------------------------------------------------
-- Throughput mode (-t N): iozone's throughput_test() for -i 0, 1 and 2
-- ---------------------------------------------------------------------------

-- Each child is a p.parallel worker on its own file. iozone's children
-- stonewall (the first to finish stops the others' counts); platter's
-- workers share nothing while they run (and run one after another under
-- --sim), so every child moves its whole file, as iozone -x does. A child's
-- time and rate are iozone's floats; the parent's time runs from the
-- release to the last child's end.
local function throughput()
  local n = st.children
  local kb = st.sflag and st.kilobytes or iz.THROUGHSIZE
  local reclen = st.reclen
  local numrecs = math.floor(kb * 1024 / reclen)
  local names = st.names or {}
  if not st.names then
    for i = 1, n do names[i] = string.format("%s.DUMMY.%d", path, i - 1) end
  end
  -- The parent makes each child's file, at its size as a hole, before the
  -- writers: p.parallel's workers share no file table under --sim, so a file
  -- a worker made would not be there for the readers. iozone's children
  -- create their own (O_RDWR|O_CREAT, no truncation).
  for _, name in ipairs(names) do
    if not st.keep then p.scratch(name) end
    if st.include[0] then
      local f, err = p.open(name, { create = true, write = true, size = kb * 1024, sparse = true })
      if not f then p.usage_error(NAME, tostring(err)) end
      f:close()
    end
  end
  p.printf("\tEach process writes a %d %s file in %d %s records\n", kb, L.kbyte,
    math.floor(reclen / 1024), L.kbyte)
  p.flush()
  local unit = L.kb

  -- iozone's children: a writer prints "Can not open temp file" and
  -- perror("open"), exit 125; a reader only perror(name), exit 130.
  local function child_open(name, writing, opts)
    local f, err = p.open(name, opts)
    if not f then
      if writing then
        p.write(string.format("\nCan not open temp file: %s\n", name))
        perror("open", err)
      else
        perror(name, err)
      end
      p.flush()
      p.exit(writing and 125 or 130)
    end
    return f
  end

  -- One child's pass over its file: op "write" or "read", random order or not.
  local function pass(i, label, op, random)
    local name = names[i]
    local writing = op == "write"
    local f = child_open(name, writing, writing and { write = true, create = true,
      direct = st.direct, sync = st.osync } or { direct = st.direct })
    local order
    if random then
      p.seed((p.config and p.config.seed or 1) + i)
      order = iz.shuffle(numrecs, function() return p.random(0, 2147483647) end)
    end
    local stats = p.phase(string.format("%s %d %d child %d", label, kb,
      math.floor(reclen / 1024), i), function()
      for r = 0, numrecs - 1 do
        if not writing and not random then disrupt(f, r) end
        if order then f:seek(order[r] * reclen) end
        record(f, op, reclen, r, writing and 74 or 61)
      end
      if writing and st.include_flush then f:fsync() end
      if st.include_close then f:close() end
    end)
    if not st.include_close then f:close() end
    return stats
  end

  local function run(label, fmtn, op, random)
    local res = p.parallel(n, function(i) return pass(i, label, op, random) end)
    if #res.failed > 0 then
      -- the child said why (on stderr); its exit status does not come back
      -- through p.parallel, so the run ends with iozone's status for a child
      -- of this test that could not open its file
      p.flush()
      p.exit(op == "write" and 125 or 130)
    end
    local rows = {}
    for i = 1, n do
      local t = iz.elapsed(res[i].seconds)
      rows[i] = iz.child_result(kb, t, res[i].seconds, res[i].user + res[i].sys)
    end
    local total_time = iz.elapsed(res.last_done)
    p.write("\n")
    p.write(iz.throughput_report(fmtn, n, rows, total_time, "process", unit,
      st.cpuutil and { res = cputime_res, first = label == "initial writers" } or nil))
    p.flush()
    p.sleep(2)  -- iozone's sync(); sleep(2) after each test (platter has no sync())
  end

  if st.include[0] then
    run("initial writers", "%2d initial writers \t", "write")
    if not st.noretest then run("rewriters", "%2d rewriters \t", "write") end
  end
  if st.include[1] then
    run("readers", "%2d readers \t\t", "read")
    if not st.noretest then run("re-readers", "%d re-readers \t", "read") end
  end
  if st.include[2] then
    run("random readers", "%d random readers \t", "read", true)
    run("random writers", "%d random writers \t", "write", true)
  end
  p.sleep(2)
  if not st.keep then
    for _, name in ipairs(names) do p.remove(name) end
  end
  p.write("\niozone test complete.\n")
  p.flush()
end

if st.children then
  local ok, err = classic.protected(throughput)
  if not ok then
    if p.interrupted() then
      p.write("\niozone: interrupted\n\nexiting iozone\n\n")
      p.flush()
    end
    error(err, 0)
  end
  return
end

-- ---------------------------------------------------------------------------
-- Rows
-- ---------------------------------------------------------------------------

local num_tests = st.extended and iz.NUM_TESTS_E or iz.NUM_TESTS
local rows = {}
local row_at  -- the next test of the row being printed, nil between rows

-- The cell, or the padding, that test t prints (nothing for a test that has
-- no text column).
local function cell_or_pad(t, v)
  if not st.include_tflag or st.include[t] then
    if tests[t] and v then return iz.cell(t, v, L) end
    return tests[t] and iz.pad(t, L) or ""
  end
  return iz.pad(t, L)
end

-- One row of the table: iozone's begin().
local function begin(kb, reclen)
  local numrecs = math.floor(kb * 1024 / reclen)
  local row = { kb, reclen, values = {} }
  rows[#rows + 1] = row
  p.write(iz.row_start(kb, reclen))
  p.flush()
  for t = 0, num_tests - 1 do
    row_at = t
    if (not st.include_tflag or st.include[t]) and tests[t] then
      row.values[t] = tests[t](kb, reclen, numrecs)
    end
    p.write(cell_or_pad(t, row.values[t]))
    p.flush()
  end
  row_at = nil
  p.write("\n")
  if not st.include_tflag then
    local w, r = row.values[0], row.values[1]
    if r and r[1] ~= 0 then
      local total = r[1] + w[1]
      if total < 10 then
        local good = math.floor((10 / total) * 2 * kb)
        p.printf("\nThe test completed too quickly to give a good result\n"
          .. "You will get a more precise measure of this machine's\n"
          .. "performance by re-running iozone using the command:\n")
        p.printf("\n\tiozone %d \t(i.e., file size = %d kilobytes64)\n", good, good)
      end
    else
      local good = math.floor(reclen / 2)
      p.printf("\nI/O error during read.  Try again with the command:\n")
      p.printf("\n\tiozone %d %d \t(i.e. record size = %d bytes)\n", kb, good, good)
    end
  end
  if not st.keep then p.remove(path) end
  p.flush()
end

p.write(iz.header(st.extended, L))
p.flush()
local rec_header = { st.reclen }
local ok, err = classic.protected(function()
  if st.auto then
    local min_file, max_file = st.min_file, st.max_file
    if st.gflag then max_file = st.maximum_file end
    if st.nflag then min_file = st.minimum_file end
    if st.min_rec > min_file * 1024 then
      fatal(string.format("Error: record length %d is greater than filesize %d %s\n ",
        st.min_rec, min_file, KB), 23)
    end
    local cfg = {
      min_file = min_file, max_file = max_file, min_rec = st.min_rec, max_rec = st.max_rec,
      s_list = st.s_list, r_list = st.r_list, rflag = st.rflag, sflag = st.sflag,
      yflag = st.yflag, qflag = st.qflag, nocross = st.nocross,
    }
    rec_header = {}
    local recs = iz.sizes(st.min_rec, st.max_rec, iz.MULTIPLIER, st.r_list)
    local r = iz.next_size(recs, 0)
    while r do
      rec_header[#rec_header + 1] = r
      r = iz.next_size(recs, r)
    end
    for _, row in ipairs(iz.plan(cfg)) do
      if row.dummy then
        rows[#rows + 1] = { row[1], row[2] }
      else
        begin(row[1], row[2])
      end
    end
  else
    begin(st.kilobytes, st.reclen)
  end
end)

-- the -R report of the selected tests, of what was measured
local function excel_report()
  local selected = {}
  for t = 0, num_tests - 1 do
    if iz.EXCEL_TITLES[t] and (not st.include_tflag or st.include[t]) then
      selected[#selected + 1] = t
    end
  end
  p.write(iz.excel(selected, rec_header, rows))
  if st.bif then  -- -b: the same tables as a BIFF worksheet (iozone's libbif)
    local w = assert(p.output_file(st.bif))
    assert(w:write(iz.biff(table.concat(words, " "), selected, rec_header, rows)))
    assert(w:close())
  end
end

local function resolution_note()
  if res_prob then
    p.printf("Timer resolution is poor. Some small transfers may have \n"
      .. "reported inaccurate results. Sizes %d %s and below.\n", math.floor(rec_prob / 1024), L.kbytes)
  end
end

if not ok then
  if p.interrupted() then  -- iozone's signal handler, after the row is closed
    if row_at then
      for t = row_at, num_tests - 1 do p.write(cell_or_pad(t)) end
      p.write("\n")
    end
    p.write("\niozone: interrupted\n\n")
    if st.excel then excel_report() end
    p.write("exiting iozone\n\n")
    resolution_note()
    p.flush()
  end
  error(err, 0)
end

p.write("\niozone test complete.\n")
resolution_note()
if st.excel then excel_report() end
p.flush()
