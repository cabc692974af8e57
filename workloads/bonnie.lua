-- Tim Bray's Bonnie (1996): putc, rewrite, block write, getc, block read, 3 seekers; its table
--
-- The 1996 release, as shared/spec/classic-benchmarks.md section 1 describes
-- it: one file <dir>/Bonnie.<pid> of -s MiB, written a character at a time
-- with putc(), rewritten in 16384-byte chunks (--chunk), written again,
-- read with getc(), read in chunks, then 4000 random chunk reads by 3 forked
-- seekers, every 10th seek of each rewriting its chunk. Each phase starts its
-- clock after opening the file and stops it after closing it; %CPU is the
-- process's user + system time over the wall time. Progress goes to stderr
-- and the table (or with -html one HTML row) to stdout, as the original
-- prints them.
--
-- Differences from the original, all small (see docs/reproduce.md, seed 001):
--   * The seekers are p.parallel workers released together by a barrier; the
--     original's parent slept 5 s and handed out 4000 one-byte tickets that
--     whichever child was free took. Here each worker does a fixed share
--     (1334, 1333, 1333), draws its chunks from p.random seeded per worker,
--     and there is no pause before "start 'em..." unless --seek-delay 5s.
--   * The chunk that is written back (rewrite, seek updates) carries the
--     data just read: the original first changes one int in it.
--   * Files are created with mode 0644 (the original: 0777, O_EXCL).
--   * A bad flag is a platter usage error (exit 2); the original printed its
--     usage line and exited with 1.
--   * --chunk 8192 gives the block size of the c.1990 copy and of the FreeBSD
--     port; Bonnie-64's GB and M/sec table is not offered.
--   * Ctrl-C prints the table with the tests that finished, the others as
--     blank cells (-html: empty ones), and exits 130; the original died at
--     once and printed nothing.
local p = require "platter"
-- the manifest (platter describe, platter plan); the arguments are read below,
-- with the original tool's syntax
p.script({
  name = "bonnie", version = "1.0", api = "platter/1", args = "own",
  description = "Bonnie (1996): per-character, block and rewrite I/O and random seeks on one scratch file",
  params = {
    dir = { type = "path", flag = "-d", arg = "DIR", default = ".",
      help = "directory for the scratch file Bonnie.<pid>" },
    size = { type = "int", flag = "-s", arg = "MB", default = 100, help = "file size in MB" },
    machine = { type = "string", flag = "-m", arg = "LABEL", help = "machine label for the first column" },
    html = { type = "bool", flag = "-html", help = "one HTML table row instead of the text table" },
  },
  needs = { write = true, device = "file" },
}, ...)
local B = require "platter.classic_bonnie"
local classic = require "platter.classic"

local o = p.args({
  name = "bonnie",
  usage = "[-d scratch-dir] [-s size-in-Mb] [-html] [-m machine-label]",
  summary = "Tim Bray's Bonnie (1996 release): sequential per-character and block I/O, "
    .. "rewrite, and random seeks by 3 processes, on one file of -s MiB.",
  options = {
    { "-d", arg = "DIR", default = ".", help = "directory for the scratch file Bonnie.<pid>" },
    { "-s", arg = "MB", type = "int", default = 100,
      help = "file size in MiB (rounded down to a whole number of chunks)" },
    { "-m", arg = "LABEL", help = "machine label for the table's first column (default: none)" },
    { "-html", help = "print one HTML table row instead of the text table" },
    { "--seek-delay", arg = "TIME", type = "time", default = "0",
      help = "pause before the seekers start (the original slept 5s)" },
    { "--chunk", arg = "BYTES", type = "size", default = "16384",
      help = "block size: 16384 in the 1996 release, 8192 in the c.1990 copy and the "
        .. "FreeBSD port" },
  },
  epilog = "The file should be at least twice the RAM, or the page cache answers.\n"
    .. "Progress lines go to stderr, the result table to stdout.",
}, ...)

if o.s < 1 then p.usage_error("bonnie", "the size (-s) must be at least 1 MiB") end
local CHUNK = o.chunk
local pow2 = 512
while pow2 < CHUNK and pow2 < 1048576 do pow2 = pow2 * 2 end
if CHUNK ~= pow2 then
  p.usage_error("bonnie", "the chunk (--chunk) must be a power of 2 from 512 to 1m")
end
local name = string.format("%s/Bonnie.%d", o.d, p.pid())
local size = CHUNK * math.floor(o.s * 1048576 / CHUNK)
local line_open = false  -- a progress line on stderr waits for its "done"
local function say(s)
  p.ewrite(s)
  line_open = s:sub(-1) ~= "\n"
end

-- "newfile": create (unlink, then create) or reopen read-write
local function newfile(create)
  if create then
    p.remove(name)  -- it may not exist yet
    p.scratch(name) -- p.remove forgets it: removed at exit on every path
    return assert(p.open(name, { create = true, write = true }))
  end
  return assert(p.open(name, { write = true }))
end

local res = {}
local function cpu_of(s) return { elapsed = s.seconds, cpu = s.user + s.sys } end

local function report()
  if o.html then
    p.write(B.bonnie_html(o.m or "", size, res))
  else
    p.write(B.bonnie_report(o.m or "", size, res))
  end
end

say(string.format("File '%s', size: %d\n", name, size))
local ok, err = classic.protected(function()
  -- Putc: one putc() per byte (byte i is i & 0x7f), then fclose
  say("Writing with putc()...")
  local f = newfile(true)
  res.putc = cpu_of(p.phase("Putc", function()
    local n, msg = f:putc(size)
    assert(n, msg)
    assert(n == size, "putc: short write")
    f:close()
  end))
  say("done\n")

  -- ReWrite: read a chunk, seek back over it, write it; until a short read
  f = newfile(false)
  f:seek(0)
  say("Rewriting...")
  res.rewrite = cpu_of(p.phase("ReWrite", function()
    local n = assert(f:read(CHUNK))
    while n == CHUNK do
      f:seek(-n, "cur")
      assert(f:write(n))
      n = assert(f:read(CHUNK))
    end
    f:close()
  end))
  say("done\n")

  -- FastWrite: create again and write size / Chunk chunks
  f = newfile(true)
  say("Writing intelligently...")
  res.fastwrite = cpu_of(p.phase("FastWrite", function()
    for _ = 1, math.floor(size / CHUNK) do
      assert(f:write(CHUNK) == CHUNK, "write(2): short write")
    end
    f:close()
  end))
  say("done\n")

  -- Getc: one getc() per byte (counted into a histogram in C)
  f = newfile(false)
  say("Reading with getc()...")
  res.getc = cpu_of(p.phase("Getc", function()
    local n, msg = f:getc(size)
    assert(n, msg)
    assert(n == size, "getc(3): unexpected end of file")
    f:close()
  end))
  say("done\n")

  -- FastRead: read chunks until read() returns 0
  f = newfile(false)
  f:seek(0)
  say("Reading intelligently...")
  res.fastread = cpu_of(p.phase("FastRead", function()
    repeat until assert(f:read(CHUNK)) == 0
    f:close()
  end))
  say("done\n")

  -- Lseek: 3 seekers, 4000 seeks between them. Each opens the file before the
  -- start; its clock runs from the start to after its close. Elapsed is the
  -- last end minus the first start, CPU the sum of the seekers' CPU.
  local NSEEK, NPROC = B.BONNIE_SEEKS, B.BONNIE_SEEKERS
  local chunks = math.floor(size / CHUNK)
  local files, seeds = {}, {}
  for i = 1, NPROC do
    files[i] = newfile(false)
    seeds[i] = p.random(2147483647)  -- the original: srandom(getpid()) in each child
    say(string.format("Seeker %d...", i))
  end
  if o.seek_delay > 0 then p.sleep(o.seek_delay) end
  say("start 'em...")
  local r = p.parallel(NPROC, function(i)
    local sf = files[i]
    for j = 1, NPROC do  -- each seeker holds only its own file, as in the original
      if j ~= i then files[j]:close() end
    end
    local share = math.floor(NSEEK / NPROC) + (i <= NSEEK % NPROC and 1 or 0)
    p.seed(seeds[i])
    return p.phase("Seeker " .. i, function()
      for k = 0, share - 1 do
        local off = (p.random(chunks) - 1) * CHUNK
        sf:seek(off)
        local n = assert(sf:read(CHUNK))
        if k % B.BONNIE_UPDATE == 0 then  -- the 1st, 11th, 21st... seek writes
          sf:seek(off)
          assert(sf:write(n))
        end
      end
      sf:close()
    end)
end)
for i = 1, NPROC do files[i]:close() end
if #r.failed > 0 then error("seeker " .. r.failed[1].worker .. ": " .. r.failed[1].error, 0) end
say(string.rep("done...", NPROC) .. "\n")
res.seeks = { elapsed = r.merged.seconds, cpu = r.merged.user + r.merged.sys, count = NSEEK }
end)
if not ok then
  if p.interrupted() then  -- the tests that finished, then platter reports the cut
    if line_open then p.ewrite("\n") end
    report()
  end
  error(err, 0)
end

report()
p.remove(name)
