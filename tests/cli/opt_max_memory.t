--max-memory SIZE bounds the Lua heap: past it an allocation fails, Lua
raises its memory error, and platter says which bound was reached (exit 1).
timeout keeps a missing bound from eating the machine.

  $ hog='local t = {} while true do t[#t+1] = ("x"):rep(1000) .. #t end'
  $ timeout 30 platter --max-memory 64m -e "$hog"
  platter: the Lua heap reached --max-memory (64 MiB)
  [1]
  $ timeout 30 platter --max-memory=40m -e 'print(#("x"):rep(2^30))'
  platter: the Lua heap reached --max-memory (40 MiB)
  [1]

A script under the bound is not affected, and one that catches the memory
error can go on (the memory it held is freed).

  $ platter --max-memory 64m -e 'local t = {} for i = 1, 10000 do t[i] = ("x"):rep(1000) .. i end print(#t)'
  10000
  $ timeout 30 platter --max-memory 64m -e "print(pcall(function() $hog end)) collectgarbage() print(#('y'):rep(2^20))"
  false\tnot enough memory (esc)
  1048576

Phases that finished before the bound was reached are still saved, and so
is the phase the bound ended, as far as it got (stopped by the error): the
result writer gets some room back at exit, and the record of that phase
room beyond the bound while it is made.

  $ cat > hog.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open(p.scratch("s.dat"), { create = true, write = true, size = 65536, direct = true }))
  > p.phase("first", function() for i = 0, 15 do f:pread(i * 4096, 4096) end end)
  > local t = {}
  > p.phase("hog", function() while true do t[#t + 1] = ("x"):rep(1000) .. #t end end)
  > LUA
  $ timeout 30 platter --max-memory 32m --json r.json hog.lua
  platter: the Lua heap reached --max-memory (32 MiB)
  [1]
  $ platter --trust -e '
  > local doc = require("cjson").decode(assert(io.open("r.json")):read("*a"))
  > print(string.format("%d", doc.status.exit), #doc.phases, doc.phases[1].name, doc.phases[2].name,
  >   doc.phases[2].stopped, doc.phases[2].error)'
  1\t2\tfirst\thog\terror\tnot enough memory (esc)
  $ ls
  hog.lua
  r.json

The same when the bound is reached in a p.run's generator: the reads the
run did until then count, in the run and in the phase around it.

  $ cat > genhog.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open(p.scratch("s.dat"), { create = true, write = true, size = 65536, direct = true }))
  > local t = {}
  > p.phase("hog", function()
  >   p.run { file = f, count = 1e9, gen = function(i)
  >     if i > 100 then t[#t + 1] = ("x"):rep(1000) .. #t end
  >     return "read", 0, 4096
  >   end }
  > end)
  > LUA
  $ timeout 60 platter --max-memory 32m --json g.json genhog.lua
  platter: the Lua heap reached --max-memory (32 MiB)
  [1]
  $ platter --trust -e '
  > local doc = require("cjson").decode(assert(io.open("g.json")):read("*a"))
  > local run, ph = doc.phases[1], doc.phases[2]
  > print(#doc.phases, run.kind, run.stopped, run.error, run.ops > 100, ph.name, ph.ops == run.ops)'
  2\trun\terror\tnot enough memory\ttrue\thog\ttrue (esc)
  $ rm genhog.lua g.json

Bad values are usage errors; 0 lifts the bound.

  $ platter --max-memory 1m -e 'print(1)'
  platter: bad --max-memory '1m': the Lua heap needs at least 8 MiB (0 for no bound)
  Try 'platter --help'.
  [2]
  $ platter --max-memory lots -e 'print(1)'
  platter: bad --max-memory 'lots': expected a size such as 256m or 2g
  Try 'platter --help'.
  [2]
  $ platter --max-memory
  platter: option '--max-memory' needs a size, such as 256m
  Try 'platter --help'.
  [2]
  $ platter --max-memory 0 -e 'print(#("x"):rep(100 * 2^20))'
  104857600
