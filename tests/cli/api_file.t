The file methods of docs/api.md, checked from a script: positions, short
reads at the end of a file, the two kinds of error, and O_DIRECT's rule.

  $ cat > file.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open("f.dat", { create = true, write = true, size = "64k" }))
  > print("size", f:size(), "pos", f:seek())
  > print("seek", f:seek(100), f:seek(), f:seek(-10, "cur"), f:seek(0, "end"), f:seek(nil, "end"))
  > print("eof", f:pread(65536 - 100, 4096), f:pread(1e6, 512), f:read(10))
  > print("write", f:pwrite(0, 4096), f:seek(0), f:write(512), f:seek())
  > print("putc", f:putc(100), f:seek())
  > print("sync", f:fsync(), f:fdatasync())
  > print("fill", f:fill("random") == f, f:info().kind, f:info().size, f:info().direct)
  > print("bad seek", f:seek(-1, "cur") ~= nil, select(2, f:seek(-100000, "cur")))
  > print("close", f:close(), tostring(f))
  > print("closed", pcall(f.size, f))
  > local r = assert(p.open("f.dat"))
  > print("read-only", r:pwrite(0, 1))
  > print("missing", p.open("nope.dat"))
  > print("dir", p.open("."))
  > LUA
  $ platter file.lua
  size\t65536\tpos\t0 (esc)
  seek\t100\t100\t90\t65536\t65536 (esc)
  eof\t100\t0\t0 (esc)
  write\t4096\t0\t512\t512 (esc)
  putc\t100\t612 (esc)
  sync\ttrue\ttrue (esc)
  fill\ttrue\tfile\t65536\tfalse (esc)
  bad seek\ttrue\tseek f.dat: Invalid argument\t22 (esc)
  close\ttrue\tplatter.file (closed) (esc)
  closed\tfalse\tattempt to use a closed file (esc)
  read-only\tnil\tpwrite f.dat: Bad file descriptor\t9 (esc)
  missing\tnil\topen nope.dat: No such file or directory\t2 (esc)
  dir\tnil\topen .: Is a directory\t21 (esc)

Every timed call counts in the running phase: fsync as an operation of no
bytes, a failed call as an error under its errno. (stderr is dropped: the
file is in the page cache, which platter may warn about.)

  $ platter -e 'local p = require "platter"
  > local f = assert(p.open("f.dat"))
  > local s = p.phase("mixed", function()
  >   f:pread(0, 4096); f:read(100); f:fsync(); f:pwrite(0, 1)
  > end)
  > print(s.name, s.ops, s.bytes, s.errors, s.errno[9], s.running, s:min() <= s:percentile(50), s:percentile(50) <= s:max())' 2>/dev/null
  mixed\t3\t4196\t1\t1\tfalse\ttrue\ttrue (esc)

Misuse raises at the caller's line.

  $ platter -e 'local f = platter.open("f.dat")
  > f:pread(-1, 10)'
  platter: (command line):2: bad argument #1 to 'pread' (offset must not be negative)
  [1]
  $ platter -e 'local f = platter.open("f.dat")
  > f:pread(0.5, 10)'
  platter: (command line):2: bad argument #1 to 'pread' (offset must be a non-negative integer)
  [1]
  $ platter -e 'platter.open("f.dat"):read(2^31)'
  platter: (command line):1: bad argument #1 to 'read' (length must be at most 1 GiB)
  [1]
  $ platter -e 'platter.open("f.dat"):seek(-1)'
  platter: (command line):1: bad argument #1 to 'seek' (offset must not be negative)
  [1]
  $ platter -e 'platter.open("f.dat"):advise("soon")'
  platter: (command line):1: bad argument #1 to 'advise' (invalid option 'soon')
  [1]

O_DIRECT files check the alignment before the call and name the rule.

  $ platter -e 'local f = assert(platter.open("f.dat", { direct = true }))
  > local a = f:info().dio_align
  > print(a >= 512, f:pread(0, a) == a)
  > f:pread(100, a)' 2>&1 | sed 's/ [0-9][0-9]* bytes$/ N bytes/; s/multiple of [0-9]*/multiple of N/'
  true\ttrue (esc)
  platter: (command line):4: pread: offset 100 is not a multiple of N: O_DIRECT on f.dat needs offsets and lengths aligned to N bytes
  $ platter -e 'platter.open("f.dat", { direct = true }):read(100)' 2>&1 | grep -o 'read: length 100 is not a multiple of'
  read: length 100 is not a multiple of
  $ platter -e 'platter.open("f.dat", { direct = true }):putc(1)'
  platter: (command line):1: putc: per-character stdio I/O is not possible on an O_DIRECT file
  [1]

Cache control on a file needs no root.

  $ platter -e 'local f = assert(platter.open("f.dat"))
  > f:pread(0, 65536)
  > local res, total = f:resident()
  > print(res == total, total)
  > print(f:drop_cache(), (f:resident()))
  > print(f:advise("sequential"), f:resident(65536))'
  true\t16 (esc)
  true\t0 (esc)
  true\t0\t0 (esc)
  $ rm f.dat

p.open's allocate reserves the space size adds before it is written (fio's
fallocate=). With sparse, which writes nothing, the reservation is all there
is: stat's 512-byte blocks are there with "fallocate", "posix" and "keep"
(which reserves them without growing the file, and sparse then sets the
size), and not with "none" or "truncate" (which extends the file with a
hole). The file reads as zeros either way:

  $ for a in none fallocate posix keep truncate; do rm -f a.dat
  >   platter -e "assert(platter.open('a.dat', { create = true, write = true, size = '1m', sparse = true, allocate = '$a' }))" a.dat
  >   echo "$a: $(stat -c '%s %b' a.dat), bytes not zero: $(tr -d '\000' < a.dat | wc -c)"; done
  none: 1048576 0, bytes not zero: 0
  fallocate: 1048576 2048, bytes not zero: 0
  posix: 1048576 2048, bytes not zero: 0
  keep: 1048576 2048, bytes not zero: 0
  truncate: 1048576 0, bytes not zero: 0

Reserving takes room, so a reservation the filesystem has no room for is
refused before any block is taken, as a fill is; a hole needs none:

  $ platter -e "print(platter.open('r.dat', { create = true, write = true, size = '1000t', sparse = true, allocate = 'posix' }))" r.dat | tr '\t' '|'
  nil|size r.dat: No space left on device (need 1099511627776000 more bytes but the filesystem has * free)|28 (glob)
  $ test -e r.dat || echo "not made"
  not made
  $ platter -e "assert(platter.open('r.dat', { create = true, write = true, size = '1t', sparse = true }))" r.dat
  $ stat -c '%s %b' r.dat; rm r.dat
  1099511627776 0
  $ platter -e "platter.open('a.dat', { write = true, allocate = 'lots' })" a.dat
  platter: (command line):1: bad argument #2 to 'open' (option 'allocate': invalid value 'lots' (expected "none", "fallocate", "posix", "keep" or "truncate"))
  [1]
  $ rm a.dat
