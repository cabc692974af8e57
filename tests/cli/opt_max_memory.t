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

The bound counts what platter allocates for the script in C too: a file's
I/O buffer (up to 1 GiB each, sized by the largest read or write on it) and
p.run's buffers. Before, three 1 GiB reads on three files held 3 GiB under a
64 MiB bound. A buffer past the bound is an I/O error that names it.

  $ cat > bufs.lua <<'LUA'
  > local p = require "platter"
  > local function show(n, msg, e) print(n or ("nil, " .. msg .. ", " .. e)) end
  > local fs = {}
  > for i = 1, 3 do
  >   fs[i] = assert(p.open(p.scratch("b" .. i), { create = true, write = true, size = 4096 }))
  >   show(fs[i]:pread(0, 16 * 2^20))
  > end
  > fs[1]:close()
  > show(fs[3]:pread(0, 16 * 2^20))
  > local ok, err = pcall(p.run, { file = fs[2], qd = 8, bs = "4m", count = 1, range = { 0, 2^22 } })
  > print(ok or err)
  > LUA
  $ platter --max-memory 40m bufs.lua
  4096
  4096
  nil, pread b3: Cannot allocate memory \(a buffer of 16 MiB: platter already holds 32.[0-9] MiB for this script, and --max-memory is 40 MiB\), 12 (re)
  4096
  run: a buffer of 4 MiB: platter already holds 3[0-9].[0-9] MiB for this script, and --max-memory is 40 MiB (re)
  $ ls
  bufs.lua
  hog.lua
  r.json

Closing the first file gave its buffer back, so the third could have one.
When the heap reaches the bound while buffers hold part of it, the message
says how much they held.

  $ platter --max-memory 64m -e '
  > local p = require "platter"
  > local f = assert(p.open(p.scratch("b"), { create = true, write = true, size = 4096 }))
  > assert(f:pread(0, 32 * 2^20))
  > local t = {} while true do t[#t + 1] = ("x"):rep(1000) .. #t end'
  platter: the Lua heap reached --max-memory (64 MiB, of which I/O buffers held 32 MiB)
  [1]

The bound holds for the whole tree of p.parallel workers, not for each: a
worker starts with a copy of what its parent holds and may hold 1/(n+1) of
what the parent had left. Before, 4 workers each held 50 MiB under a 64 MiB
bound, since each had the whole bound to itself.

  $ cat > tree.lua <<'LUA'
  > local p = require "platter"
  > local r = p.parallel(4, function()
  >   local t = {}
  >   for i = 1, 50 do t[i] = ("x"):rep(2^20) .. i end
  >   return p.phase("x", function() end)
  > end)
  > print(#r.failed)
  > for _, f in ipairs(r.failed) do print(f.error) end
  > LUA
  $ platter --max-memory 64m tree.lua
  4
  not enough memory: worker 1 reached its share of --max-memory \(12.[0-9] MiB\) (re)
  not enough memory: worker 2 reached its share of --max-memory \(12.[0-9] MiB\) (re)
  not enough memory: worker 3 reached its share of --max-memory \(12.[0-9] MiB\) (re)
  not enough memory: worker 4 reached its share of --max-memory \(12.[0-9] MiB\) (re)
  $ platter --max-memory 1g tree.lua
  0

Workers that would not each have their copy of the caller and 1 MiB more are
not started; nested workers share what their parent got.

  $ platter --max-memory 64m -e 'local p = require "platter" p.parallel(100, function() end)'
  platter: \(command line\):1: parallel: 100 workers at once would each start with a copy of the [0-9.]+ KiB this process holds \(its Lua heap and I/O buffers\) and need 1 MiB of their own: more than --max-memory \(64 MiB, shared by a run's workers\) leaves them; start fewer, hold less, or raise --max-memory (re)
  [1]
  $ platter --max-memory 64m -e '
  > local p = require "platter"
  > local r = p.parallel(1, function()
  >   local ok, err = pcall(p.parallel, 40, function() end)
  >   return p.phase("x", function() end), { err = err }
  > end)
  > print(r.values[1].err)'
  parallel: 40 workers at once would each start with a copy of the [0-9.]+ KiB this process holds \(its Lua heap and I/O buffers\) and need 1 MiB of their own: more than this worker's share of --max-memory \(3[0-9].[0-9] MiB, shared by a run's workers\) leaves them; start fewer, hold less, or raise --max-memory (re)

What a worker sends back must fit in its share too: a table that names one
string 30 times packs into 30 copies of it (1024 workers could each pack 48 MiB
so, 48 GiB in all).

  $ platter --max-memory 64m -e '
  > local p = require "platter"
  > local r = p.parallel(2, function()
  >   local s, t = ("x"):rep(2^20), {}
  >   for i = 1, 30 do t[i] = s end
  >   return p.phase("x", function() end), t
  > end)
  > print(#r.failed, r.values[1])
  > print(r.failed[1].error)'
  2\tnil (esc)
  worker 1: the second value of fn must be a plain table \(numbers, strings, booleans, tables\): larger than the [0-9.]+ MiB that this worker's share of --max-memory leaves (re)

A time series and a timeline grow with the run, and a stats object keeps
them for as long as the script holds it; they count too, and past the bound
they go without more. Before, each run's series could hold 64 MiB (2^20
intervals of 1us) however small the bound, and a script could keep hundreds.

  $ cat > grow.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open(p.scratch("g.dat"), { create = true, write = true, size = 4096 }))
  > local r = p.run { file = f, engine = "null", bs = 512, seconds = 0.4, interval = "1us" }
  > print(r.series_dropped > 0)
  > -- a timeline of 2e6 completions (16 bytes each) is past 16 MiB however fast the
  > -- build runs (a timed run under ASan once stayed within it)
  > local t = p.run { file = f, engine = "null", bs = 512, count = 2000000, timeline = true }
  > local ok, err = pcall(t.done_by, t, p.now())
  > print(ok or err)
  > LUA
  $ platter --max-memory 16m grow.lua
  true
  done_by: 'run' lost [0-9]+ completions of its timeline \(out of memory\) (re)

What a run or a file takes is given back: when it ends, when the file is
closed, or when the script drops the stats and the collector frees them (it is
told how much each holds in C, so it comes round at that pace). 600 runs with a
time series, a timeline, a 1 MiB read and shared counts each stay within the
smallest bound. (A series' histogram, freed when the run ended, was not given
back: 19 KiB a run, and this script stopped at its run 400 or so.)

  $ cat > many.lua <<'LUA'
  > local p = require "platter"
  > local path = p.scratch("m.dat")
  > local n = 0
  > for i = 1, 600 do
  >   local f = assert(p.open(path, { create = true, write = true, size = 65536 }))
  >   assert(f:pread(0, 2^20))
  >   local r = p.run { file = f, qd = 4, bs = "64k", count = 4, interval = "1ms", timeline = true }
  >   local c = p.live(1024)
  >   f:close()
  >   if r.ops == 4 then n = n + 1 end
  > end
  > print(n)
  > LUA
  $ platter --max-memory 8m many.lua 2>/dev/null
  600
