-- Files: every method of the platter.file userdata, the open options, the
-- cache controls, direct-I/O alignment, OS errors, and block devices (root).
local T = ...
local p = require "platter"

local function slurp(path)
  local fh = assert(io.open(path, "rb"))
  local s = fh:read("*a")
  fh:close()
  return s
end

local function count_nonzero(s)
  local n = 0
  for i = 1, #s do
    if s:byte(i) ~= 0 then n = n + 1 end
  end
  return n
end

local function sh1(cmd)
  local out, err, rc = T.sh(cmd)
  T.eq(rc, 0, cmd .. " status (stderr: " .. err .. ")")
  return (out:gsub("%s+$", ""))
end

local function newfile(opts, name)
  local d = T.tmpdir()
  local path = d .. "/" .. (name or "f.dat")
  opts = opts or { create = true, write = true, size = "64k" }
  local f = assert(p.open(path, opts))
  return f, path, d
end

-- {{{ open options

T.test("open: create + write + numeric size makes a file of that size", function()
  local f, path = newfile({ create = true, write = true, size = 12288 })
  T.eq(f:size(), 12288, "f:size()")
  T.eq(tonumber(sh1("stat -c %s " .. T.q(path))), 12288, "stat size")
  f:close()
end)

T.test("open: size strings 64k and 1m", function()
  local f = newfile({ create = true, write = true, size = "64k" })
  T.eq(f:size(), 65536, "64k")
  f:close()
  local g = newfile({ create = true, write = true, size = "1m" })
  T.eq(g:size(), 1048576, "1m")
  g:close()
end)

T.test("open: size grows an existing file and never shrinks it", function()
  local f, path = newfile({ create = true, write = true, size = "8k" })
  f:close()
  local g = assert(p.open(path, { write = true, size = "16k" }))
  T.eq(g:size(), 16384, "grown")
  g:close()
  local h = assert(p.open(path, { size = "4k" }))
  T.eq(h:size(), 16384, "not shrunk")
  h:close()
end)

T.test("open: without create a missing file is ENOENT even with size", function()
  local d = T.tmpdir()
  local f, msg, err = p.open(d .. "/missing", { write = true, size = "4k" })
  T.eq(f, nil, "file")
  T.has(msg, "No such file or directory", "message")
  T.eq(err, 2, "errno")
end)

T.test("open: size writes real data; sparse=true makes a hole", function()
  local _, dense = newfile({ create = true, write = true, size = "1m" }, "dense")
  local f, sparse = newfile({ create = true, write = true, size = "1m", sparse = true }, "sparse")
  T.eq(f:size(), 1048576, "sparse size")
  f:close()
  local dense_blocks = tonumber(sh1("stat -c %b " .. T.q(dense)))
  local sparse_blocks = tonumber(sh1("stat -c %b " .. T.q(sparse)))
  T.ok(dense_blocks >= 2048, "dense file has its 1 MiB allocated (" .. dense_blocks .. " blocks)")
  T.ok(sparse_blocks < 64, "sparse file is a hole (" .. sparse_blocks .. " blocks)")
end)

T.test("open: fill=zero writes zero bytes, fill=random non-zero bytes", function()
  local z, zpath = newfile({ create = true, write = true, size = "64k", fill = "zero" }, "z")
  local r, rpath = newfile({ create = true, write = true, size = "64k", fill = "random" }, "r")
  z:close()
  r:close()
  local zs, rs = slurp(zpath), slurp(rpath)
  T.eq(#zs, 65536, "zero file length")
  T.eq(count_nonzero(zs), 0, "non-zero bytes in the zero-filled file")
  T.eq(#rs, 65536, "random file length")
  T.ok(count_nonzero(rs) > 65536 * 0.95, "random file is mostly non-zero")
  T.ok(rs:sub(1, 4096) ~= rs:sub(4097, 8192), "random data is not a repeated page")
end)

T.test("open: the fill also applies to what pwrite writes; f:fill switches it", function()
  local f, path = newfile({ create = true, write = true, fill = "random" }, "w")
  T.eq(f:pwrite(0, 8192), 8192, "pwrite random")
  T.eq(f:fill("zero"), f, "f:fill returns the file")
  T.eq(f:pwrite(8192, 8192), 8192, "pwrite zero")
  f:close()
  local s = slurp(path)
  T.eq(#s, 16384, "length")
  T.ok(count_nonzero(s:sub(1, 8192)) > 8000, "first half random")
  T.eq(count_nonzero(s:sub(8193)), 0, "second half zero")
  T.raises(function() local g = newfile(); g:fill("blue") end, "invalid option 'blue'")
end)

T.test("fill: the same bytes on every call; a seed gives that seed's bytes", function()
  local f, path = newfile({ create = true, write = true }, "s")
  f:fill("random")
  f:pwrite(0, 4096)
  f:fill("random")
  f:pwrite(4096, 4096)
  f:fill("random", 7)
  f:pwrite(8192, 4096)
  f:fill("random", 8)
  f:pwrite(12288, 4096)
  f:fill("random", 7)
  f:pwrite(16384, 4096)
  f:close()
  local s = slurp(path)
  local b = function(i) return s:sub(i * 4096 + 1, (i + 1) * 4096) end
  T.eq(b(0), b(1), "no seed: the file's own bytes again")
  T.ok(b(2) ~= b(1) and b(3) ~= b(2), "seeds 7 and 8 differ from each other and the file's")
  T.eq(b(4), b(2), "seed 7 again: the same bytes")
  T.ok(count_nonzero(b(3)) > 4000, "random")
  T.raises(function() local g = newfile(); g:fill("random", -1) end, "seed")
end)

T.test("open: direct=true opens O_DIRECT and aligned I/O works", function()
  local f = newfile({ create = true, write = true, size = "64k", direct = true })
  T.has(tostring(f), ", direct)", "tostring")
  T.eq(f:info().direct, true, "info().direct")
  local a = f:info().dio_align
  T.ok(type(a) == "number" and a >= 1, "dio_align")
  T.eq(f:pread(0, 4096), 4096, "aligned pread")
  T.eq(f:pwrite(4096, 4096), 4096, "aligned pwrite")
  T.eq(f:seek(8192), 8192, "seek")
  T.eq(f:read(4096), 4096, "aligned read")
  T.eq(f:write(4096), 4096, "aligned write")
  f:close()
end)

T.test("a path with a NUL byte inside is refused, never cut short at the NUL", function()
  -- C sees "x.dat" in "x.dat\0y": before, p.open opened (and p.remove removed) x.dat
  local d = T.tmpdir()
  local f = assert(p.open(d .. "/x.dat", { create = true, write = true, size = 4096 }))
  f:close()
  for _, fn in ipairs { "open", "scratch", "remove", "mkdir", "rmdir", "readdir", "stat", "statfs",
                        "read_text", "output_file" } do
    T.raises(function() p[fn](d .. "/x.dat\0y") end, "the path holds a NUL byte", fn)
  end
  T.ok(p.stat(d .. "/x.dat"), "x.dat is still there")
end)

T.test("open: O_DIRECT refused by the file or device is said so", function()
  -- /dev/zero takes no O_DIRECT: EINVAL alone did not say why
  local f, msg, errno = p.open("/dev/zero", { direct = true })
  T.eq(f, nil, "no file")
  T.eq(errno, 22, "EINVAL")
  T.has(msg, "open /dev/zero: Invalid argument (this file or device does not take O_DIRECT)", "the message")
  f = assert(p.open("/dev/zero"))
  f:close()
end)

T.test("open: unknown and mistyped options are errors naming them", function()
  local d = T.tmpdir()
  T.raises(function() p.open(d .. "/x", { create = true, sise = 4 }) end, "unknown option 'sise'")
  T.raises(function() p.open(d .. "/x", { create = true, size = "12q" }) end, "bad size '12q'")
  T.raises(function() p.open(d .. "/x", { create = true, size = -1 }) end, "size")
  T.raises(function() p.open(d .. "/x", { create = true, fill = "blue" }) end, "'blue'")
  T.raises(function() p.open(d .. "/x", 5) end, "table expected")
end)

-- }}}
-- {{{ positioned and sequential I/O

T.test("read/write at the current position, seek set/cur/end, seek() tells", function()
  local f = newfile({ create = true, write = true, size = "64k" })
  T.eq(f:seek(), 0, "initial position")
  T.eq(f:write(4096), 4096, "write")
  T.eq(f:seek(), 4096, "after write")
  T.eq(f:read(100), 100, "read")
  T.eq(f:seek(), 4196, "after read")
  T.eq(f:seek(1000), 1000, "seek set (default)")
  T.eq(f:seek(24, "cur"), 1024, "seek cur")
  T.eq(f:seek(-24, "cur"), 1000, "seek cur backwards")
  T.eq(f:seek(0, "end"), 65536, "seek end")
  T.eq(f:seek(-536, "end"), 65000, "seek end backwards")
  T.eq(f:read(4096), 536, "short read at the end")
  T.eq(f:read(4096), 0, "read at EOF")
  T.eq(f:seek(10, "set"), 10, "seek set")
  T.raises(function() f:seek(-1) end, "must not be negative")
  T.raises(function() f:seek(0, "middle") end, "invalid option 'middle'")
  local r, msg, err = f:seek(-100, "cur")
  T.eq(r, nil, "seek before the start")
  T.has(msg, "Invalid argument", "message")
  T.eq(err, 22, "errno")
  f:close()
end)

T.test("write past the end extends the file", function()
  local f = newfile({ create = true, write = true, size = "64k" })
  f:seek(0, "end")
  T.eq(f:write(1000), 1000, "append")
  T.eq(f:size(), 66536, "size after append")
  T.eq(f:pwrite(1048576, 4096), 4096, "pwrite far out")
  T.eq(f:size(), 1048576 + 4096, "size after pwrite")
  f:close()
end)

T.test("stage gathers pieces of other buffers (or zeros) into a block that write sends", function()
  local d = T.tmpdir()
  local src = d .. "/src.txt"
  local fh = assert(io.open(src, "wb"))
  fh:write("abcdefgh")
  fh:close()
  local a = assert(p.open(src))
  T.eq(a:read(8), 8, "read the source")
  local o, path = newfile({ create = true, write = true }, "out.dat")
  T.eq(o:stage(0, a, 4, 4), true, "stage from another file")
  T.eq(o:stage(4, nil, 0, 2), true, "stage zeros")
  T.eq(o:stage(6, a, 0, 3), true, "stage more")
  T.eq(o:stage(100000, a, 0, 1), true, "grow the buffer")  -- keeps what it held
  T.eq(o:stage(9, o, 0, 2), true, "from its own buffer")
  T.eq(o:write(11, o), 11, "write the staged block")
  o:close()
  T.eq(slurp(path), "efgh\0\0abcef", "the file holds the staged bytes")
  T.raises(function() o:stage(0, a, 0, 1) end, "closed file")
  local b = assert(p.open(src))
  T.raises(function() b:stage(0, a, 0, 2 ^ 31) end, "at most 1 GiB")
  a:close()
  T.raises(function() b:stage(0, a, 0, 1) end, "the source file is closed")
  T.raises(function() b:stage(0, "x", 0, 1) end, "platter.file expected, got string")
  b:close()
end)

T.test("directories: mkdir, readdir, stat, rmdir; a scratch directory goes at exit", function()
  local d = T.tmpdir()
  local dir = d .. "/sub"
  T.eq(p.mkdir(dir), true, "mkdir")
  local ok, msg, errno = p.mkdir(dir)
  T.eq(ok, nil, "mkdir again")
  T.has(msg, "mkdir " .. dir .. ": File exists", "message")
  T.eq(errno, 17, "EEXIST")
  for _, n in ipairs { "a", "b", "c" } do
    assert(p.open(dir .. "/" .. n, { create = true, write = true, size = 4096 })):close()
  end
  local names = assert(p.readdir(dir))
  table.sort(names)
  T.eq(table.concat(names, ","), "a,b,c", "readdir names, without . and ..")
  local st = assert(p.stat(dir .. "/b"))
  T.eq(st.kind, "file", "kind")
  T.eq(st.size, 4096, "size")
  T.ok(st.mtime > 1e9, "mtime")
  T.eq(assert(p.stat(dir)).kind, "dir", "a directory")
  local _, smsg, serr = p.stat(dir .. "/none")
  T.has(smsg, "stat " .. dir .. "/none: No such file or directory", "stat message")
  T.eq(serr, 2, "ENOENT")
  -- statfs: the filesystem that holds a path, against df's figures for it
  local fs = assert(p.statfs(dir .. "/b"))
  T.eq(fs.path, sh1("realpath " .. dir .. "/b"), "statfs: the path resolved")
  local blocks, bsize = sh1("stat -f -c '%b %S' " .. dir):match("^(%d+) (%d+)$")
  T.eq(fs.size, tonumber(blocks) * tonumber(bsize), "statfs: size is blocks x block size")
  T.eq(fs.files, tonumber(sh1("stat -f -c %c " .. dir)), "statfs: inodes")
  T.ok(fs.free <= fs.size and fs.avail <= fs.free and fs.ffree <= fs.files, "statfs: free within size")
  local _, fmsg, ferr = p.statfs(dir .. "/none")
  T.has(fmsg, "statfs " .. dir .. "/none: No such file or directory", "statfs message")
  T.eq(ferr, 2, "statfs ENOENT")
  local _, rmsg = p.rmdir(dir)
  T.has(rmsg, "Directory not empty", "rmdir of a full directory")
  for _, n in ipairs(names) do assert(p.remove(dir .. "/" .. n)) end
  T.eq(p.rmdir(dir), true, "rmdir")
  T.eq(p.stat(dir), nil, "gone")
  -- a scratch directory a script leaves (empty) is removed at exit, even after an error
  local out, err, rc = T.platter({ "-e", "local p = require 'platter' assert(p.mkdir('left')) " ..
    "p.scratch('left') assert(p.open('left/x', {create = true, write = true})):close() " ..
    "p.scratch('left/x') error('boom')" }, { cwd = d })
  T.eq(rc, 1, "status: " .. out .. err)
  T.eq(p.stat(d .. "/left"), nil, "the scratch directory and its file are gone")
  -- under --sim there are no directories
  err, rc = select(2, T.platter({ "--sim", "nvme", "-e", "require('platter').mkdir('x')" },
    { cwd = d }))
  T.eq(rc, 1, "status under --sim")
  T.has(err, "mkdir: not available under --sim", "message under --sim")
end)

T.test("pread/pwrite do not move the position", function()
  local f = newfile({ create = true, write = true, size = "64k" })
  f:seek(500)
  T.eq(f:pread(8192, 4096), 4096, "pread")
  T.eq(f:pwrite(16384, 4096), 4096, "pwrite")
  T.eq(f:seek(), 500, "position kept")
  f:close()
end)

T.test("short pread at EOF returns the short count, and 0 past EOF", function()
  local f = newfile({ create = true, write = true, size = "64k" })
  T.eq(f:pread(65536 - 100, 4096), 100, "short")
  T.eq(f:pread(65536, 4096), 0, "at EOF")
  T.eq(f:pread(10 * 1048576, 4096), 0, "far past EOF")
  T.eq(f:pread(0, 0), 0, "zero length")
  f:close()
end)

T.test("fsync and fdatasync return true and count as ops of a phase", function()
  local f = newfile({ create = true, write = true, size = "64k" })
  local s = p.phase("sync", function()
    T.eq(f:fsync(), true, "fsync")
    T.eq(f:fdatasync(), true, "fdatasync")
  end)
  T.eq(s.ops, 2, "ops")
  T.eq(s.bytes, 0, "bytes")
  T.ok(s:max() > 0, "latency recorded")
  f:close()
end)

T.test("putc n then getc n reads them back; getc past EOF returns fewer", function()
  local f, path = newfile({ create = true, write = true })
  T.eq(f:putc(1000), 1000, "putc")
  T.eq(f:seek(), 1000, "position after putc")
  T.eq(f:seek(0), 0, "rewind")
  T.eq(f:getc(1000), 1000, "getc")
  T.eq(f:seek(), 1000, "position after getc")
  T.eq(f:getc(50), 0, "getc at EOF")
  f:seek(990)
  T.eq(f:getc(50), 10, "getc across EOF")
  T.eq(f:fsync(), true, "fsync after stdio")
  f:close()
  local s = slurp(path)
  T.eq(#s, 1000, "file length")
  local ok = true
  for i = 1, #s do ok = ok and s:byte(i) == (i - 1) % 128 end
  T.ok(ok, "putc wrote the bytes 0..127 repeated")
end)

T.test("putc/getc interleave with pread/pwrite at the right positions", function()
  local f = newfile({ create = true, write = true, size = "64k" })
  f:seek(100)
  T.eq(f:putc(10), 10, "putc")
  T.eq(f:pwrite(0, 50), 50, "pwrite in between")
  T.eq(f:seek(), 110, "position after putc then pwrite")
  T.eq(f:read(10), 10, "read continues after the putc bytes")
  T.eq(f:seek(), 120, "position")
  T.eq(f:getc(5), 5, "getc continues")
  T.eq(f:seek(), 125, "position after getc")
  f:close()
end)

T.test("putc/getc on a direct file are refused with a message", function()
  local f = newfile({ create = true, write = true, size = "64k", direct = true })
  T.raises(function() f:putc(1) end, "not possible on an O_DIRECT file")
  T.raises(function() f:getc(1) end, "not possible on an O_DIRECT file")
  f:close()
end)

T.test("putc/getc count as one op each, with the characters as bytes", function()
  local f = newfile({ create = true, write = true })
  local s = p.phase("chars", function()
    f:putc(4096)
    f:seek(0)
    f:getc(4096)
  end)
  T.eq(s.ops, 2, "ops")
  T.eq(s.bytes, 8192, "bytes")
  f:close()
end)

-- }}}
-- {{{ closed files, tostring, size, info

T.test("after close every method raises 'attempt to use a closed file'", function()
  local f = newfile()
  T.eq(f:close(), true, "close")
  T.eq(tostring(f), "platter.file (closed)", "tostring of a closed file")
  local calls = {
    read = { 1 }, write = { 1 }, pread = { 0, 1 }, pwrite = { 0, 1 }, seek = { 0 },
    fsync = {}, fdatasync = {}, putc = { 1 }, getc = { 1 }, size = {}, info = {},
    drop_cache = {}, resident = {}, readahead = {}, advise = { "normal" },
    fill = { "zero" }, close = {},
  }
  local n = 0
  for name, a in pairs(calls) do
    T.raises(function() f[name](f, (table.unpack or unpack)(a)) end, "attempt to use a closed file", name)
    n = n + 1
  end
  T.eq(n, 17, "methods tried")
end)

T.test("tostring names the path", function()
  local f, path = newfile()
  T.eq(tostring(f), "platter.file (" .. path .. ")", "tostring")
  f:close()
end)

T.test("f:size() follows writes", function()
  local f = newfile({ create = true, write = true })
  T.eq(f:size(), 0, "empty")
  f:pwrite(0, 5000)
  T.eq(f:size(), 5000, "after pwrite")
  f:close()
end)

T.test("f:info() fields of a regular file", function()
  local f, path, d = newfile()
  local i = f:info()
  T.eq(i.path, path, "path")
  T.eq(i.kind, "file", "kind")
  T.eq(i.size, 65536, "size")
  T.eq(i.direct, false, "direct")
  for _, k in ipairs { "logical_block", "physical_block", "dio_align" } do
    T.ok(type(i[k]) == "number" and i[k] >= 512 and i[k] % 512 == 0, k .. " = " .. tostring(i[k]))
  end
  T.ok(i.physical_block >= i.logical_block, "physical >= logical")
  local fstype = sh1("df --output=fstype " .. T.q(d) .. " | tail -1")
  local magic = sh1("stat -f -c %T " .. T.q(d))
  if fstype == "ext4" then
    T.eq(magic, "ext2/ext3", "stat -f agrees it is ext*")
    T.eq(i.fs_type, "ext4", "fs_type")
  else
    T.eq(i.fs_type, fstype, "fs_type (the tmp dir is " .. fstype .. ")")
  end
  T.ok(type(i.mount_options) == "string" and i.mount_options ~= "", "mount_options")
  f:close()
end)

-- }}}
-- {{{ page cache

T.test("drop_cache empties the page cache of the file; resident counts pages", function()
  local f = newfile({ create = true, write = true, size = "1m", fill = "random" })
  T.eq(f:pread(0, 1048576), 1048576, "read it all")
  local res, total = f:resident()
  local pages = 256
  T.eq(total, pages, "total pages")
  T.eq(res, total, "all resident after reading")
  T.eq(f:drop_cache(), true, "drop_cache")
  res, total = f:resident()
  T.eq(total, pages, "total after drop")
  T.ok(res <= 2, "resident after drop_cache is near 0 (" .. res .. ")")
  f:close()
end)

T.test("resident with off and len counts that range only", function()
  local f = newfile({ create = true, write = true, size = "1m" })
  f:drop_cache()
  T.eq(f:pread(40960, 8192), 8192, "read 2 pages")
  local res, total = f:resident(40960, 8192)
  T.eq(total, 2, "pages in range")
  T.eq(res, 2, "both resident")
  total = select(2, f:resident(0, 4096))
  T.eq(total, 1, "one page")
  total = select(2, f:resident(1048576 - 4096))
  T.eq(total, 1, "from off to the end")
  res, total = f:resident(2 * 1048576, 4096)
  T.eq(total, 0, "past the end")
  T.eq(res, 0, "past the end resident")
  f:close()
end)

T.test("readahead() returns a number of KiB", function()
  local f = newfile()
  local kb, msg = f:readahead()
  if kb == nil and tostring(msg):find("No such device", 1, true) then
    T.skip("no block device behind the tmp dir: " .. msg)
  end
  T.ok(type(kb) == "number" and kb >= 0, "readahead: " .. tostring(kb) .. " " .. tostring(msg))
  T.eq(kb, f:info().read_ahead_kb, "same as info().read_ahead_kb")
  f:close()
end)

T.test("advise accepts each kind and refuses others", function()
  local f = newfile()
  for _, k in ipairs { "normal", "sequential", "random", "willneed", "dontneed" } do
    T.eq(f:advise(k), true, "advise " .. k)
  end
  T.raises(function() f:advise("often") end, "invalid option 'often'")
  T.raises(function() f:advise() end, "string expected")
  f:close()
end)

-- }}}
-- {{{ direct I/O alignment

T.test("direct I/O: misaligned offsets and lengths name the alignment", function()
  local f, path = newfile({ create = true, write = true, size = "64k", direct = true })
  local a = f:info().dio_align
  local want = "multiple of " .. a
  local e = T.raises(function() f:pread(100, a) end, "offset 100 is not a " .. want)
  T.has(e, path, "message names the file")
  T.has(e, "aligned to " .. a .. " bytes", "message says the alignment")
  T.raises(function() f:pread(0, 100) end, "length 100 is not a " .. want)
  T.raises(function() f:pwrite(100, a) end, "offset 100 is not a " .. want)
  T.raises(function() f:pwrite(0, 100) end, "length 100 is not a " .. want)
  T.raises(function() f:read(100) end, "length 100 is not a " .. want)
  T.raises(function() f:write(100) end, "length 100 is not a " .. want)
  -- the refused calls did no I/O and left the file as it was
  T.eq(f:size(), 65536, "size unchanged")
  f:close()
end)

T.test("buffered files accept any offset and length", function()
  local f = newfile()
  T.eq(f:pread(100, 100), 100, "pread")
  T.eq(f:pwrite(333, 77), 77, "pwrite")
  f:close()
end)

-- }}}
-- {{{ OS errors

T.test("ENOENT: nil, 'open PATH: No such file or directory', 2", function()
  local d = T.tmpdir()
  local path = d .. "/nope/x"
  local f, msg, err = p.open(path)
  T.eq(f, nil, "file")
  T.eq(msg, "open " .. path .. ": No such file or directory", "message")
  T.eq(err, 2, "errno")
end)

T.test("EISDIR: opening a directory", function()
  local d = T.tmpdir()
  local f, msg, err = p.open(d)
  T.eq(f, nil, "file")
  T.eq(msg, "open " .. d .. ": Is a directory", "message")
  T.eq(err, 21, "errno")
  local fw, _, werr = p.open(d, { write = true })
  T.eq(fw, nil, "file for writing")
  T.eq(werr, 21, "errno for writing")
end)

T.test("EACCES: a file without permission", function()
  local d = T.tmpdir()
  local path = d .. "/locked"
  sh1("chmod 755 " .. T.q(d) .. " && touch " .. T.q(path) .. " && chmod 000 " .. T.q(path))
  if not T.root then
    local f, msg, err = p.open(path)
    T.eq(f, nil, "file")
    T.eq(msg, "open " .. path .. ": Permission denied", "message")
    T.eq(err, 13, "errno")
    return
  end
  -- root bypasses permissions: check it as nobody, through setpriv
  local _, _, rc = T.sh("command -v setpriv")
  if rc ~= 0 then T.skip("root bypasses file permissions and setpriv is not installed") end
  local out, err
  out, err, rc = T.sh("cd " .. T.q(d) .. " && setpriv --reuid=65534 --regid=65534 --clear-groups "
    .. T.q(T.bin) .. " -e " .. T.q("print(require('platter').open(arg[1]))") .. " " .. T.q(path))
  if rc ~= 0 and err:find("cannot read", 1, true) then T.skip("nobody cannot run platter: " .. err) end
  T.eq(rc, 0, "status (" .. err .. ")")
  T.eq(out, "nil\topen " .. path .. ": Permission denied\t13\n", "result as nobody")
end)

T.test("an I/O error returns nil, message, errno (pwrite on a read-only file)", function()
  local f, path = newfile()
  f:close()
  local r = assert(p.open(path))
  local n, msg, err = r:pwrite(0, 10)
  T.eq(n, nil, "result")
  T.eq(msg, "pwrite " .. path .. ": Bad file descriptor", "message")
  T.eq(err, 9, "errno")
  r:close()
end)

-- }}}
-- {{{ block devices (root)

local function with_loop(size_mb, fn)
  if not T.root then T.skip("needs root for a loop device") end
  local _, _, rc = T.sh("command -v losetup")
  if rc ~= 0 then T.skip("losetup is not installed") end
  local d = T.tmpdir()
  local img = d .. "/disk.img"
  sh1("truncate -s " .. size_mb .. "M " .. T.q(img))
  local out, err, lrc = T.sh("losetup -f --show " .. T.q(img))
  local dev = out:gsub("%s+$", "")
  if lrc ~= 0 or not dev:match("^/dev/loop%d+$") then
    os.remove(img)
    T.skip("cannot set up a loop device: " .. err)
  end
  local ok, e = pcall(fn, dev, img)
  T.sh("losetup -d " .. T.q(dev))
  os.remove(img)
  if not ok then error(e, 0) end
end

T.test("block device: writing without --destroy is refused", function()
  with_loop(8, function(dev)
    local e = T.raises(function() p.open(dev, { write = true }) end, "is a block device")
    T.has(e, dev, "names the device")
    T.has(e, "--destroy", "says how to allow it")
    -- reading is fine
    local f = assert(p.open(dev))
    T.eq(f:pread(0, 4096), 4096, "pread")
    f:close()
  end)
end)

T.test("block device: kind, size, drop_cache (BLKFLSBUF), readahead round trip", function()
  with_loop(8, function(dev)
    local f = assert(p.open(dev))
    local i = f:info()
    T.eq(i.kind, "block", "kind")
    T.eq(i.size, 8 * 1048576, "info size")
    T.eq(f:size(), 8 * 1048576, "f:size()")
    T.eq(i.logical_block, 512, "logical_block")
    T.eq(f:pread(0, 1048576), 1048576, "read 1 MiB")
    T.eq(f:drop_cache(), true, "drop_cache")
    local old = f:readahead()
    T.ok(type(old) == "number", "readahead get")
    T.eq(f:readahead(256), 256, "readahead set returns the new value")
    T.eq(f:readahead(), 256, "readahead get after set")
    T.eq(tonumber(sh1("blockdev --getra " .. T.q(dev))), 512, "blockdev --getra (sectors)")
    T.eq(f:readahead(old), old, "restore")
    f:close()
  end)
end)

T.test("block device: --destroy allows writing an unused device", function()
  with_loop(8, function(dev, img)
    local out, err, rc = T.platter({ "--trust", "--destroy", "-e", [[
      local p = require "platter"
      local f = assert(p.open(arg[1], { write = true, fill = "random" }))
      print(f:pwrite(4096, 4096))
      f:fsync()
    ]], dev })
    T.eq(rc, 0, "status (" .. err .. ")")
    T.eq(out, "4096\n", "pwrite result")
    local s = slurp(img)
    T.ok(count_nonzero(s:sub(4097, 8192)) > 4000, "the data reached the image")
    T.eq(count_nonzero(s:sub(1, 4096)), 0, "nothing else was written")
  end)
end)

T.test("p.drop_caches() is true as root, nil + 'needs root' otherwise", function()
  local ok, msg = p.drop_caches()
  if T.root then
    T.eq(ok, true, "drop_caches as root (" .. tostring(msg) .. ")")
  else
    T.eq(ok, nil, "drop_caches as a user")
    T.has(msg, "needs root", "message")
  end
end)

-- }}}

T.test("touch: every stride-th byte of the buffer gets & 1, in place; the rest is unchanged",
  function()
  local dir = T.tmpdir()
  local src = dir .. "/src"
  local fh = assert(io.open(src, "wb"))
  fh:write(string.rep("\3", 2048))
  fh:close()
  local f = assert(p.open(src))
  T.eq(f:read(2048), 2048)
  T.eq(f:touch(2048, 512), f, "returns the file")
  local out = assert(p.open(dir .. "/out", { create = true, write = true }))
  T.eq(out:write(2048, f), 2048)
  out:close()
  T.raises(function() f:touch(16, 0) end, "stride must be at least 1")
  f:close()
  local s = slurp(dir .. "/out")
  for i = 1, 2048 do
    T.eq(s:byte(i), (i - 1) % 512 == 0 and 1 or 3, "byte " .. (i - 1))
  end
end)

T.test("advise: dontneed over a range drops that range only", function()
  local dir = T.tmpdir()
  -- page-sized writes and random-advised reads keep the page cache's folios
  -- small: DONTNEED drops only the folios wholly inside the range
  local f = assert(p.open(dir .. "/a", { create = true, write = true }))
  for i = 0, 255 do f:pwrite(i * 4096, 4096) end
  assert(f:fsync())
  assert(f:advise("dontneed"))
  assert(f:advise("random"))
  -- Pages this test did not drop can leave the cache under it (another process on the
  -- host dropping caches, or reclaim: CI once saw 253 of 256 cached right after the
  -- reads): such a round is done again, up to 5 times. A range the advice did not drop
  -- fails at once.
  local why
  for _ = 1, 5 do
    for i = 0, 255 do f:pread(i * 4096, 4096) end
    local all, total = f:resident()
    if all == total then
      assert(f:advise("dontneed", 0, 524288))
      local res = f:resident(0, 524288)
      T.ok(res <= 2, "first half dropped: " .. res)
      local res2, total2 = f:resident(524288)
      if res2 == total2 then why = nil break end
      why = "second half still cached: " .. res2 .. " of " .. total2
    else
      why = "all cached before: " .. all .. " of " .. total
    end
  end
  T.ok(not why, why)
  f:close()
end)

T.test("reads/writes: count calls of n bytes in C, one operation of their total; short at EOF",
  function()
  local dir = T.tmpdir()
  local f = assert(p.open(dir .. "/rw", { create = true, write = true }))
  local s = p.phase("w", function() T.eq(f:writes(10, 3), 30) end)
  T.eq(s.ops, 1, "one operation")
  T.eq(s.bytes, 30)
  T.eq(f:size(), 30)
  f:seek(0)
  T.eq(f:reads(5, 4), 20)
  T.eq(f:reads(5, 4), 10, "a short read ends the run")
  T.eq(f:reads(3, 1), 0, "at the end")
  T.raises(function() f:reads(1, 0) end, "length must be at least 1")
  f:close()
  T.raises(function() f:writes(1, 1) end, "closed")
end)

T.test("rewrites: read, seek back, write again, in C; each read and write counted; short at EOF",
  function()
  local dir = T.tmpdir()
  local data = {}
  for i = 1, 40 do data[i] = string.char((i * 37) % 256) end
  data = table.concat(data)
  T.write(dir .. "/rw", data)
  local f = assert(p.open(dir .. "/rw", { write = true }))
  local n, longest
  local s = p.phase("rw", function() n, longest = f:rewrites(3, 10) end)
  T.eq(n, 30)
  T.ok(longest > 0 and longest < 1e9, "the longest rewrite in ns: " .. tostring(longest))
  T.eq(s.ops, 6, "three reads and three writes")
  T.eq(s.bytes, 60)
  T.eq(f:seek(), 30, "the position moved on by what was rewritten")
  T.eq(f:rewrites(5, 4), 8, "a short read ends the run: two more of 4")
  T.eq(f:size(), 40)
  T.eq(T.read(dir .. "/rw"), data, "what was read is what was written back")
  T.raises(function() f:rewrites(1, 0) end, "length must be at least 1")
  local ro = assert(p.open(dir .. "/rw"))
  local r, msg = ro:rewrites(1, 4)
  T.eq(r, nil)
  T.has(msg, "write " .. dir .. "/rw: Bad file descriptor")
  ro:close()
  f:close()
  T.raises(function() f:rewrites(1, 1) end, "closed")
end)

T.test("evict: no I/O, returns the file; the cache and line sizes are checked", function()
  local dir = T.tmpdir()
  local f = assert(p.open(dir .. "/e", { create = true, write = true, size = 65536 }))
  T.eq(f:read(4096), 4096)
  local s = p.phase("e", function() T.eq(f:evict(4096), f) end)
  T.eq(s.ops, 0, "no I/O recorded")
  T.eq(f:evict(1048576, 65536, 64), f)
  T.raises(function() f:evict(4096, 1000) end, "power of 2")
  T.raises(function() f:evict(4096, 65536, 0) end, "line size")
  f:close()
end)
