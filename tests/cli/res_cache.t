A buffered phase on a data set under twice RAM whose pages were not dropped
from the page cache gets one warning on stderr, and the phases are marked
cache_tainted in the result file, with the resident percentage at the start.
Direct files never are; a file dropped just before is not.

  $ cat > cache.lua <<'LUA'
  > local p = require "platter"
  > local mode = ...
  > local f = assert(p.open("c.dat", { create = true, write = true, size = "1m" }))
  > if mode == "direct" then
  >   f:close()
  >   f = assert(p.open("c.dat", { direct = true }))
  > elseif mode == "dropped" then
  >   assert(f:drop_cache())
  > end
  > p.phase("first", function() for i = 0, 255 do f:pread(i * 4096, 4096) end end)
  > p.phase("second", function() for i = 0, 255 do f:pread(i * 4096, 4096) end end)
  > print("done")
  > LUA
  $ cat > show.lua <<'LUA'
  > local f = assert(io.open(arg[1]))
  > local doc = require("cjson").decode(f:read("*a"))
  > for _, r in ipairs(doc.phases) do
  >   print(r.name, tostring(r.cache_tainted),
  >     r.resident_pct and string.format("%.0f%%", r.resident_pct) or "-")
  > end
  > print(#(doc.warnings or {}) .. " warning(s) recorded")
  > LUA

The file was just written, so all of it is in the cache: one warning for
two phases.

  $ platter --json b.json cache.lua
  platter: warning: phase 'first' used c.dat \(1 MiB\) through the page cache with [0-9.]+ [KMGT]iB of RAM, and 100% of it was in the page cache at the start: the cache may be answering \(drop it with f:drop_cache\(\) first, open it with direct = true, or use a data set over twice RAM\) (re)
  done
  $ platter --trust show.lua b.json
  first\ttrue\t100% (esc)
  second\ttrue\t100% (esc)
  1 warning(s) recorded

Without --json the warning is the same (the watch costs nothing per I/O).

  $ platter cache.lua 2>&1 >/dev/null | cut -c1-40
  platter: warning: phase 'first' used c.d

Direct I/O bypasses the cache: no warning, no mark.

  $ platter --json d.json cache.lua direct
  done
  $ platter --trust show.lua d.json
  first\tnil\t- (esc)
  second\tnil\t- (esc)
  0 warning(s) recorded

Dropped before the first phase: that one is clean, but the second rereads
what the first brought in.

  $ platter --json x.json cache.lua dropped
  platter: warning: phase 'second' used c.dat \(1 MiB\) through the page cache with .* (re)
  done
  $ platter --trust show.lua x.json
  first\tfalse\t0% (esc)
  second\ttrue\t100% (esc)
  1 warning(s) recorded

What a phase read counts too, not only what was cached at its start. A
file dropped just before a random run that reads it sixteen times over is
pulled into the cache by the run itself: most of what it moved was answered
from the cache. A sequential pass after the same drop reads each page once
and stays clean.

  $ cat > pull.lua <<'LUA'
  > local p = require "platter"
  > local pattern = ...
  > local f = assert(p.open("r.dat", { create = true, write = true, size = "1m" }))
  > assert(f:drop_cache())
  > local n = pattern == "seq" and 256 or 4096
  > p.run { file = f, op = "read", bs = "4k", pattern = pattern, count = n }
  > print("done")
  > LUA
  $ platter --json pr.json pull.lua random
  platter: warning: phase 'run' used r.dat \(1 MiB\) through the page cache with [0-9.]+ [KMGT]iB of RAM, and about [0-9]+% of the 16 MiB it moved came from the page cache \(0% of the file was in the cache at the start, 100% at the end\): the cache may be answering \(open it with direct = true, or use a data set over twice RAM\) (re)
  done
  $ cat > served.lua <<'LUA'
  > local doc = require("cjson").decode(assert(io.open(arg[1])):read("*a"))
  > for _, r in ipairs(doc.phases) do
  >   local c = r.cache or {}
  >   print(r.name, tostring(r.cache_tainted), c.served_pct and (c.served_pct > 90 and "most"
  >     or c.served_pct < 10 and "little" or "some") or "-", tostring(c.intended))
  > end
  > LUA
  $ platter --trust served.lua pr.json
  run\ttrue\tmost\tnil (esc)
  $ platter --json ps.json pull.lua seq
  done
  $ platter --trust served.lua ps.json
  run\tfalse\tlittle\tnil (esc)

The sweep drops its file before each cooked cell; on a small file the cell
then reads it from the cache for the rest of its time. The raw cells are
direct and clean. (Half a second a cell: reading the 256 blocks back from
the disk can take 50 ms on a busy host, all of a 0.05 s cell, which once
made "most" "some".)

  $ platter --json sw.json sweep -s 1m -d 0.5s -t random --min 4096 --max 4096 2>&1 | grep -c "^platter: warning: phase 'Random 4096 cooked' used platter-sweep.[0-9]*.dat (1 MiB) through the page cache.*about [0-9]*% of the .* it moved came from the page cache"
  1
  $ platter --trust served.lua sw.json
  Random 4096 cooked\ttrue\tmost\tnil (esc)
  Random 4096 raw\tnil\t-\tnil (esc)

Bonnie closes its file inside each phase; a file in use at the start of a
phase and closed during it counts as used, and its residency at the end is
taken by its path. It is still cached from the writes before, so the
reading phases are marked, the seekers' p.parallel too (its files were
open in the caller before the workers started); the writing phases, whose
bytes the storage counters account for, are judged clean.

  $ platter --json bo.json bonnie -s 4 2>&1 | grep -c "^platter: warning: phase 'ReWrite' used ./Bonnie.[0-9]* (4 MiB) through the page cache"
  1
  $ platter --trust show.lua bo.json
  Putc\tfalse\t- (esc)
  ReWrite\ttrue\t100% (esc)
  FastWrite\tfalse\t- (esc)
  Getc\ttrue\t100% (esc)
  FastRead\ttrue\t100% (esc)
  parallel\ttrue\t100% (esc)
  1 warning(s) recorded

A file opened and closed inside the phase is looked at too, by its path,
once the phase has ended (nothing is measured inside its time). How much
of it was cached when the phase opened it is not known, so the storage
counters decide: the first pass after a drop (of the file's pages, which
needs no root, unlike p.drop_caches) read it from the disk and is clean; the second pass was answered by the cache.

  $ cat > inside.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open("in.dat", { create = true, write = true, size = "4m" }))
  > assert(f:fsync()); assert(f:drop_cache()); f:close()
  > local function pass(name)
  >   p.phase(name, function()
  >     local g = assert(p.open("in.dat"))
  >     while g:read(65536) > 0 do end
  >     g:close()
  >   end)
  > end
  > pass("first pass")
  > pass("second pass")
  > LUA
  $ platter --json in.json inside.lua
  platter: warning: phase 'second pass' used in.dat \(4 MiB\) through the page cache with [0-9.]+ [KMGT]iB of RAM, and about 100% of the 4 MiB it moved came from the page cache \(the phase opened the file; 100% of it was in the cache at the end\): the cache may be answering \(open it with direct = true, or use a data set over twice RAM\) (re)
  $ platter --trust served.lua in.json
  first pass\tfalse\tlittle\tnil (esc)
  second pass\ttrue\tmost\tnil (esc)

Where the cache is what is measured, a phase says so with { cache = true }:
the facts are recorded, the phase is not marked and nothing is printed.
hdparm -T and its 1999 --buffer-cache test do this.

  $ cat > meant.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open("m.dat", { create = true, write = true, size = "1m" }))
  > p.phase("cached", function() for _ = 1, 4 do f:pread(0, 1048576) end end, { cache = true })
  > print("done")
  > LUA
  $ platter --json m.json meant.lua
  done
  $ platter --trust served.lua m.json
  cached\tfalse\tmost\ttrue (esc)
  $ platter -e 'require("platter").phase("x", function() end, { cache = 1 })'
  platter: (command line):1: bad argument #3 to 'phase' ('cache' must be a boolean)
  [1]
  $ head -c 2097152 /dev/zero > h.dat
  $ platter --json h.json hdparm -T --settle 0 --pause 0 --cached-time 0.1s h.dat
  
  h.dat:
   Timing cached reads: .* (re)
  $ platter --trust served.lua h.json
  cached reads\tfalse\tmost\ttrue (esc)
  $ platter hdparm -T --buffer-cache --settle 0 --pause 0 h.dat 2>&1 | grep -c warning
  0
  [1]
