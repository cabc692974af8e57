-- p.run's verify: a write job with verify writes blocks that name
-- themselves (header, offset, checksum); a read job with verify, or the
-- write job's verify_pass, checks every block read. A block changed on disk
-- between the write and the check is found, named (offset, expected, got)
-- and counted; verify_fatal stops at it.
local T = ...
local p = require "platter"

local BLK, NB = 4096, 64

local function fresh(name, blocks)
  local path = T.tmpdir() .. "/" .. (name or "v.dat")
  T.sh("rm -f " .. T.q(path))
  return assert(p.open(path, { create = true, write = true, size = (blocks or NB) * BLK })), path
end

-- overwrite block b of f with a block of another file's random bytes (no header)
local function corrupt(f, b)
  local src = assert(p.open(T.tmpdir() .. "/junk.dat",
    { create = true, write = true, size = BLK, fill = "random" }))
  T.eq(src:pread(0, BLK), BLK, "random bytes into its buffer")
  T.eq(f:pwrite(b * BLK, BLK, src), BLK, "corrupting write")
  src:close()
  f:fsync()
end

for _, kind in ipairs({ "crc32c", "md5", "sha256" }) do
  T.test("verify " .. kind .. ": written blocks read back good, a changed one is found", function()
    local f = fresh()
    local w = p.run { file = f, op = "write", bs = BLK, verify = kind, progress = false, seed = 1 }
    T.eq(w.ops, NB, "writes")
    T.eq(w.verify_errors, 0, "no check on a write job without verify_pass")
    local r = p.run { file = f, op = "read", bs = BLK, verify = kind, progress = false }
    T.eq(r.ops, NB, "reads")
    T.eq(r.verify_errors, 0, "all good")
    T.eq(r.verify_error, nil, "no description")
    corrupt(f, 5)
    r = p.run { file = f, op = "read", bs = BLK, verify = kind, progress = false }
    T.eq(r.ops, NB, "without verify_fatal every block is read")
    T.eq(r.verify_errors, 1, "one bad block")
    T.has(r.verify_error, "magic at offset " .. 5 * BLK, "named by offset")
    T.has(r.verify_error, "expected 0x42564c50", "expected magic")
    T.eq(r.stopped, "bytes", "ran to its end")
    f:close()
  end)
end

T.test("verify: a flipped data byte is a checksum mismatch, expected vs got", function()
  local f, path = fresh()
  p.run { file = f, op = "write", bs = BLK, verify = "crc32c", progress = false }
  f:close()
  local d = assert(T.read(path))
  local at = 9 * BLK + 1000 -- inside block 9's data
  local c = string.char((d:byte(at + 1) + 1) % 256)
  T.write(path, d:sub(1, at) .. c .. d:sub(at + 2))
  f = assert(p.open(path, {}))
  local r = p.run { file = f, op = "read", bs = BLK, verify = "crc32c", progress = false }
  T.eq(r.verify_errors, 1, "one bad block")
  local exp, got = r.verify_error:match("^crc32c at offset 36864 of .-: expected (0x%x+), got (0x%x+)$")
  T.ok(exp and got and exp ~= got, "crc32c mismatch described: " .. r.verify_error)
  f:close()
end)

T.test("verify: a block written elsewhere has the wrong offset", function()
  local f = fresh()
  p.run { file = f, op = "write", bs = BLK, verify = "md5", progress = false }
  -- block 3's bytes copied onto block 7
  T.eq(f:pread(3 * BLK, BLK), BLK, "block 3 into f's buffer")
  T.eq(f:pwrite(7 * BLK, BLK, f), BLK, "written over block 7")
  local r = p.run { file = f, op = "read", bs = BLK, verify = "md5", progress = false }
  T.eq(r.verify_errors, 1, "one bad block")
  T.has(r.verify_error, "offset at offset 28672", "the offset check")
  T.has(r.verify_error, "expected 28672, got 12288", "where it belongs vs where it was read")
  f:close()
end)

T.test("verify_fatal: the job stops at the first bad block", function()
  local f = fresh()
  p.run { file = f, op = "write", bs = BLK, verify = "sha256", progress = false }
  corrupt(f, 10)
  corrupt(f, 20)
  local r = p.run { file = f, op = "read", bs = BLK, verify = "sha256", verify_fatal = true,
                    progress = false }
  T.eq(r.stopped, "verify", "stopped")
  T.eq(r.ops, 11, "blocks 0..10 read, none after")
  T.eq(r.verify_errors, 1, "counted")
  local all = p.run { file = f, op = "read", bs = BLK, verify = "sha256", progress = false }
  T.eq(all.verify_errors, 2, "without it both are counted")
  T.has(all.verify_error, "at offset " .. 10 * BLK, "the first is described")
  f:close()
end)

T.test("verify: a read of several written blocks checks each", function()
  local f = fresh()
  p.run { file = f, op = "write", bs = BLK, verify = "crc32c", progress = false }
  local r = p.run { file = f, op = "read", bs = 4 * BLK, verify = "crc32c", progress = false }
  T.eq(r.ops, NB / 4, "16k reads")
  T.eq(r.verify_errors, 0, "4 headers in each, all good")
  corrupt(f, 6)
  r = p.run { file = f, op = "read", bs = 4 * BLK, verify = "crc32c", progress = false }
  T.eq(r.verify_errors, 1, "the read holding block 6")
  T.has(r.verify_error, "at offset " .. 6 * BLK, "the block, not the read's start")
  f:close()
end)

T.test("verify_pass: the write job reads back what it wrote, as its reads", function()
  local f = fresh()
  local r = p.run { file = f, op = "write", bs = BLK, verify = "crc32c", verify_pass = true,
                    progress = false }
  T.eq(r.ops, NB, "the job's own figures are the writes")
  T.eq(r.write.ops, NB, "writes")
  T.eq(r.read.ops, NB, "the verify pass read every block")
  T.eq(r.read.bytes, NB * BLK, "read bytes")
  T.ok(r.read.seconds > 0, "the pass has its own time")
  T.eq(r.verify_errors, 0, "all good")
  -- random order with overwrites, two files, at depth: replayed the same way
  local g = fresh("v2.dat")
  local q = p.run { files = { f, g }, op = "write", bs = BLK, pattern = "random",
                    count = 300, seed = 9, verify = "md5", verify_pass = true, progress = false,
                    qd = p.have_uring and 8 or 1 }
  T.eq(q.read.ops, 300, "every write read back")
  T.eq(q.verify_errors, 0, "overwritten blocks are whole")
  -- mixed sizes in sequence: each block as long as its write
  local b = p.run { file = g, op = "write", bs_list = { BLK, 2 * BLK, 8 * BLK }, seed = 2,
                    count = 12, verify = "crc32c", verify_pass = true, progress = false }
  T.ok(b.read.ops == 12 and b.read.bytes == b.write.bytes, "all read back")
  T.eq(b.verify_errors, 0, "good")
  -- overlapping writes of different sizes break the longer block: found, as fio would
  local o = p.run { file = g, op = "write", bs_list = { BLK, 2 * BLK }, pattern = "random",
                    count = 300, seed = 9, verify = "crc32c", verify_pass = true, progress = false }
  T.ok(o.verify_errors > 0, "a longer block cut by a later shorter write is bad")
  -- a mix job: only its writes are read back
  local m = p.run { file = f, op = "mix", read_pct = 30, bs = BLK, pattern = "shuffle", seed = 4,
                    verify = "sha256", verify_pass = true, progress = false }
  T.eq(m.read.ops - (m.ops - m.write.ops), m.write.ops, "reads = the mix's reads + one per write")
  T.eq(m.verify_errors, 0, "good")
  f:close()
  g:close()
end)

T.test("verify_pass: its reads go to the job's log files after the writes, on the job's time", function()
  -- fio logs a verify's reads with the job's I/O (fio 3.33: a 4 KiB write job with
  -- verify and write_lat_log logs 16 writes, then 16 reads, times going on)
  local f = fresh("vl.dat", 16)
  local path = T.tmpdir() .. "/lat.log"
  local w = assert(p.output_file(path))
  local r = p.run { file = f, op = "write", bs = BLK, verify = "crc32c", verify_pass = true,
                    progress = false, log = { lat = w } }
  w:close()
  T.eq(r.read.ops, 16, "the pass read every block")
  local dirs, last, back = {}, -1, false
  for line in io.lines(path) do
    local t, _, d = line:match("^(%d+), (%d+), (%d+),")
    dirs[#dirs + 1] = tonumber(d)
    if tonumber(t) < last then back = true end
    last = tonumber(t)
  end
  T.eq(#dirs, 32, "a line per write and per verify read")
  for i = 1, 32 do T.eq(dirs[i], i <= 16 and 1 or 0, "line " .. i .. ": writes first, then reads") end
  T.ok(not back, "the times never go back: one clock for the job and its pass")
  -- without a verify pass the log is the writes alone, and closed at the job's end
  local path2 = T.tmpdir() .. "/lat2.log"
  local w2 = assert(p.output_file(path2))
  p.run { file = f, op = "write", bs = BLK, verify = "crc32c", progress = false, log = { lat = w2 } }
  w2:close()
  local n = 0
  for _ in io.lines(path2) do n = n + 1 end
  T.eq(n, 16, "writes only")
  f:close()
end)

T.test("verify: what it refuses", function()
  local f = fresh()
  T.raises(function() p.run { file = f, op = "write", verify = "crc64" } end, "unknown verify 'crc64'")
  T.raises(function() p.run { file = f, op = "write", bs = 32, verify = "md5" } end, "at least 64 bytes")
  T.raises(function() p.run { file = f, op = "read", verify = "md5", verify_pass = true } end,
    "'verify_pass' needs 'verify' and op")
  T.raises(function() p.run { file = f, op = "read", verify_fatal = true } end, "needs 'verify'")
  T.raises(function() p.run { file = f, op = "write", engine = "null", verify = "md5" } end, "not null")
  T.raises(function()
    p.run { file = f, op = "write", verify = "md5", gen = function() end }
  end, "not 'gen'")
  f:close()
end)

T.test("platter fio: a write job's verify pass as reads; a block changed on disk is err=84", function()
  local d = T.tmpdir()
  local out, err, rc = T.platter({ "fio", "--name=v", "--rw=write", "--size=1m", "--verify=crc32c" },
    { cwd = d })
  T.eq(rc, 0, "status: " .. err)
  T.has(out, "  read: IOPS=", "the verify pass is the job's reads")
  T.has(out, "  write: IOPS=", "and the writes")
  T.has(out, "issued rwts: total=256,256,0,0", "every block written and read back")
  T.has(out, "err= 0:", "no error")
  -- block 3 of the job's file overwritten with zeros, then a read job checks
  local f = assert(p.open(d .. "/v.0.0", { write = true }))
  T.eq(f:pwrite(3 * BLK, BLK), BLK, "zeros over block 3")
  f:close()
  out, err, rc = T.platter({ "fio", "--name=v", "--rw=read", "--size=1m", "--verify=crc32c" },
    { cwd = d })
  T.eq(rc, 1, "fio's status after a verify failure")
  T.has(err, "magic: verify failed at file v.0.0 offset 12288", "fio's message on stderr")
  T.has(out, "fio: pid=", "fio's error line")
  T.has(out, "err=84 (file:io_u.c:2152, func=io_u_sync_complete, error=Invalid or incomplete", "the job's err")
  T.has(out, "issued rwts: total=4,0,0,0", "it stopped at the bad block, as fio does")
end)
