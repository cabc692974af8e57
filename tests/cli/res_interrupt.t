Ctrl-C in the middle of a run: the result file is still written, valid,
with the phases that finished, the phase that was running (as far as it
got, stopped = "interrupted") and the interruption in its status.

  $ cat > wait.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open(p.scratch("s.dat"), { create = true, write = true, size = 65536, direct = true }))
  > p.phase("first", function() for i = 0, 15 do f:pread(i * 4096, 4096) end end)
  > p.run{ file = f, pattern = "seq", bs = 4096, count = 16, name = "second" }
  > p.write("ready\n"); p.flush()
  > p.phase("third", function() p.sleep(30) end)
  > LUA
  $ ready() { for i in $(seq 200); do grep -q ready out 2>/dev/null && return; sleep 0.05; done; }

  $ platter --json r.json --csv r.csv wait.lua > out & pid=$!; ready; kill -INT $pid; wait $pid
  platter: interrupted
  platter: interrupted phase 'third' after * s: 0 ops (glob)
  [130]
  $ platter --trust -e '
  > local doc = require("cjson").decode(assert(io.open("r.json")):read("*a"))
  > local d = function(x) return string.format("%d", x) end
  > print(d(doc.status.exit), doc.status.message, doc.status.interrupted, doc.status.complete)
  > for _, r in ipairs(doc.phases) do print(r.kind, r.name, d(r.ops), r.stopped, r.interrupted) end'
  130\tinterrupted\ttrue\tfalse (esc)
  phase\tfirst\t16\tnil\tnil (esc)
  run\tsecond\t16\tcount\tnil (esc)
  phase\tthird\t0\tinterrupted\ttrue (esc)
  $ cut -d, -f1-6,27 r.csv
  rep,seq,kind,name,occurrence,ops,interrupted
  1,1,"phase","first",1,16,false
  1,2,"run","second",1,16,false
  1,3,"phase","third",1,0,true

No temporary file is left behind, and the scratch file is gone.

  $ ls
  out
  r.csv
  r.json
  wait.lua

At a chosen instant, the same on every machine: under --sim the clock is
virtual, and PLATTER_SIM_SIGINT=S raises SIGINT once it has run S seconds.
The phases cut short are closed then, innermost first: the p.run, the
p.phase around it, and a phase started without a function (p.phase(name),
never stopped). Each gets a line after "platter: interrupted" with what it
did until then, and a record with interrupted = true after the finished
phases.

  $ cat > cut.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open(p.scratch("s.dat"), { create = true, write = true, size = 1048576, direct = true }))
  > p.phase("first", function() for i = 0, 15 do f:pread(i * 4096, 4096) end end)
  > local outer = p.phase("outer")
  > p.run{ file = f, pattern = "seq", bs = 4096, count = 16, name = "second" }
  > p.phase("third", function()
  >   for i = 0, 255 do f:pread(i * 4096, 4096) end
  >   p.run{ file = f, pattern = "random", bs = 4096, seconds = 60, name = "long" }
  > end)
  > print("not reached")
  > LUA
  $ PLATTER_SIM_SIGINT=3 platter --sim ata-5400-1999 --json r.json --csv r.csv cut.lua
  platter: interrupted
  platter: interrupted run 'long' after 2.81 s: 237 ops, 0.971 MB (84.4 IOPS, 0.346 MB/s), latency \xc2\xb5s: mean 11851, p50 9896, p99 33817, max 34953 (esc)
  platter: interrupted phase 'third' after 2.91 s: 493 ops, 2.02 MB (169 IOPS, 0.694 MB/s), latency \xc2\xb5s: mean 5904, p50 379, p99 32899, max 34953 (esc)
  platter: interrupted phase 'outer' after 2.92 s: 509 ops, 2.08 MB (174 IOPS, 0.714 MB/s), latency \xc2\xb5s: mean 5740, p50 379, p99 32899, max 34953 (esc)
  [130]
  $ cut -d, -f1-8,24,27 r.csv
  rep,seq,kind,name,occurrence,ops,bytes,seconds,stopped,interrupted
  1,1,"phase","first",1,16,65536,0.013817593,,false
  1,2,"run","second",1,16,65536,0.011111111,"count",false
  1,3,"run","long",1,237,970752,2.808644486,"interrupted",true
  1,4,"phase","third",1,493,2019328,2.910504637,"interrupted",true
  1,5,"phase","outer",1,509,2084864,2.921615748,"interrupted",true
  $ platter --trust -e '
  > local doc = require("cjson").decode(assert(io.open("r.json")):read("*a"))
  > local d = function(x) return string.format("%d", x) end
  > print(d(doc.schema_version), d(doc.status.exit), doc.status.interrupted)
  > for _, r in ipairs(doc.phases) do
  >   print(r.name, r.interrupted, d(r.lat_ns.p50), #r.hist > 0)
  > end'
  3\t130\ttrue (esc)
  first\tnil\t378880\ttrue (esc)
  second\tnil\t378880\ttrue (esc)
  long\ttrue\t9895936\ttrue (esc)
  third\ttrue\t378880\ttrue (esc)
  outer\ttrue\t378880\ttrue (esc)

Without --json or --csv the lines are printed all the same, and --quiet
keeps them: they are results.

  $ PLATTER_SIM_SIGINT=3 platter --sim ata-5400-1999 --quiet cut.lua 2>&1 | cut -c1-40
  platter: interrupted
  platter: interrupted run 'long' after 2.
  platter: interrupted phase 'third' after
  platter: interrupted phase 'outer' after

A phase that did nothing yet says so; one the signal missed (it finished
before the script stopped) is an ordinary phase.

  $ PLATTER_SIM_SIGINT=1 platter --sim ata-5400-1999 -e '
  > local p = require "platter"
  > p.phase("short", function() p.sleep(0.5) end)
  > p.phase("waiting", function() p.sleep(10) end)'
  platter: interrupted
  platter: interrupted phase 'waiting' after 0.5 s: 0 ops
  [130]

p.parallel: the workers are cut too. Under --sim they run one after
another on the disk's clock: the signal lands in the second, which sends
what it did so far (its p.phase's name, interrupted = true); the third is
never started (false, and not a failure). The merged phase is the partial
one, after the finished phases.

  $ cat > pcut.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open(p.scratch("s.dat"), { create = true, write = true, size = 1048576, direct = true }))
  > p.phase("first", function() for i = 0, 15 do f:pread(i * 4096, 4096) end end)
  > local r = p.parallel(3, function(i)
  >   return p.phase("worker " .. i, function()
  >     for k = 0, 255 do f:pread(((k * 7 + i) % 256) * 4096, 4096) end
  >   end)
  > end)
  > print("not reached", r.merged.ops)
  > LUA
  $ cat > workers.lua <<'LUA'
  > local doc = require("cjson").decode(assert(io.open(arg[1])):read("*a"))
  > local d = function(x) return string.format("%d", x) end
  > local n = arg[2] and function(x) return x > 0 and "some" or "none" end or d  -- masked
  > print(d(doc.status.exit), doc.status.interrupted)
  > for _, r in ipairs(doc.phases) do
  >   print(r.kind, r.name, n(r.ops), r.stopped, r.interrupted, r.failed_workers and #r.failed_workers)
  >   for i, w in ipairs(r.workers or {}) do
  >     if w then print("", i, w.name, n(w.ops), w.interrupted) else print("", i, w) end
  >   end
  > end
  > LUA
  $ PLATTER_SIM_SIGINT=0.8 platter --sim ata-5400-1999 --json r.json pcut.lua
  platter: interrupted
  platter: interrupted p.parallel after 0.706 s: 330 ops, 1.35 MB (468 IOPS, 1.92 MB/s), latency \xc2\xb5s: mean 2139, p50 1911, p99 9765, max 10057 (esc)
  [130]
  $ platter --trust workers.lua r.json
  130\ttrue (esc)
  phase\tfirst\t16\tnil\tnil\tnil (esc)
  parallel\tparallel\t330\tinterrupted\ttrue\tnil (esc)
  \t1\tworker 1\t256\tnil (esc)
  \t2\tworker 2\t74\ttrue (esc)
  \t3\tfalse (esc)

A real Ctrl-C reaches every process of the terminal's process group, the
workers with platter (here a signal to the group that setsid made): each
worker's run stops at that instant and is sent back as a result.

  $ cat > pwait.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open(p.scratch("s.dat"), { create = true, write = true, size = 1048576 }))
  > local r = p.parallel(2, function(i)
  >   if i == 2 then p.write("ready\n"); p.flush() end
  >   return p.run{ file = f, op = "read", bs = 4096, pattern = "random", seconds = 30, name = "w" .. i }
  > end)
  > print("not reached", r.merged.ops)
  > LUA
  $ setsid platter --json r.json pwait.lua > out 2> err & pid=$!; ready; sleep 0.2; kill -INT -- -$pid; wait $pid
  [130]
  $ grep -v '^platter: warning' err | cut -c1-37
  platter: interrupted
  platter: interrupted p.parallel after
  $ platter --trust workers.lua r.json masked
  130\ttrue (esc)
  parallel\tparallel\tsome\tinterrupted\ttrue\tnil (esc)
  \t1\tw1\tsome\ttrue (esc)
  \t2\tw2\tsome\ttrue (esc)

f:rewrites (bonnie++'s Rewriting, one call for the whole file) stops after
the chunk in which Ctrl-C lands and raises "interrupted", as a step of a
Lua loop would: the phase keeps every read and write it made, two per
chunk, and the script goes no further.

  $ cat > rw.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open(p.scratch("s.dat"), { create = true, write = true, size = 4194304 }))
  > f:seek(0)
  > p.phase("rw", function() p.write(f:rewrites(512, 8192), "\n") end)
  > p.write("not reached\n")
  > LUA
  $ PLATTER_SIM_SIGINT=0.35 platter --sim ata-5400-1999 rw.lua
  platter: interrupted
  platter: interrupted phase 'rw' after 0.0593 s: 174 ops, 1.43 MB (2935 IOPS, 24.0 MB/s), latency \xc2\xb5s: mean 340, p50 72.3, p99 3686, max 14251 (esc)
  [130]
  $ platter --sim ata-5400-1999 rw.lua
  4194304
  not reached
