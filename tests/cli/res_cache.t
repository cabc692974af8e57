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
