Every byte a script prints goes through platter's line state
(src/core/out.c). With stdout and stderr in one file (2>&1), stderr text
never lands inside a partial stdout line: it waits for that line's newline.
Apart, each stream keeps its own bytes in order.

  $ cat > mid.lua <<'LUA'
  > local p = require "platter"
  > p.write("row: 1 2")
  > p.ewrite("note\n")
  > p.write(" 3 4\n")
  > p.ewrite("partial")
  > LUA
  $ platter mid.lua 2>&1
  row: 1 2 3 4
  note
  partial (no-eol)
  $ platter mid.lua 2>/dev/null
  row: 1 2 3 4
  $ platter mid.lua 2>&1 >/dev/null
  note
  partial (no-eol)

A warning that arrives while a workload's stderr line is unfinished waits
for that line's end, which the workload's own text brings: the text does not
wait behind the warning (here the cache warning of a fully cached reread).

  $ cat > held.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open(p.scratch("c.dat"), { create = true, write = true, size = 1048576 }))
  > for i = 0, 255 do f:pread(i * 4096, 4096) end
  > p.ewrite("Reading...")
  > p.phase("read", function() for i = 0, 255 do f:pread(i * 4096, 4096) end end)
  > p.ewrite("done\n")
  > p.ewrite("Next...")
  > p.write("table\n")
  > p.ewrite("done\n")
  > LUA
  $ platter held.lua 2>&1 | cut -c1-32
  Reading...done
  platter: warning: phase 'read' u
  Next...table
  done
  $ platter held.lua 2>&1 >/dev/null | cut -c1-32
  Reading...done
  platter: warning: phase 'read' u
  Next...done

platter's final error starts a line of its own.

  $ platter -e 'local p = require "platter" p.write("abc") error("boom", 0)' 2>&1
  abc
  platter: boom
  [1]

print is Lua's own, written the same way.

  $ platter -e 'print(1, nil, true, setmetatable({}, { __tostring = function() return "T" end }))'
  1\tnil\ttrue\tT (esc)

The progress options are checked.

  $ platter -e 'local p = require "platter" p.phase("x", function() end, { progress = 1 })'
  platter: (command line):1: bad argument #3 to 'phase' ('progress' must be a boolean)
  [1]
  $ platter -e 'local p = require "platter" p.progress("x")'
  platter: (command line):1: bad argument #1 to 'progress' (number expected, got string)
  [1]
  $ platter -e 'local p = require "platter" print(p.run{ file = assert(p.open(p.scratch("x.dat"), { create = true, write = true, size = "64k", direct = true })), bs = 4096, count = 4, progress = false }.ops)'
  4
