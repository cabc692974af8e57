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
  [130]
  $ platter --trust -e '
  > local doc = require("cjson").decode(assert(io.open("r.json")):read("*a"))
  > local d = function(x) return string.format("%d", x) end
  > print(d(doc.status.exit), doc.status.message, doc.status.interrupted, doc.status.complete)
  > for _, r in ipairs(doc.phases) do print(r.kind, r.name, d(r.ops), r.stopped) end'
  130\tinterrupted\ttrue\tfalse (esc)
  phase\tfirst\t16\tnil (esc)
  run\tsecond\t16\tcount (esc)
  phase\tthird\t0\tinterrupted (esc)
  $ cut -d, -f1-6 r.csv
  rep,seq,kind,name,occurrence,ops
  1,1,"phase","first",1,16
  1,2,"run","second",1,16
  1,3,"phase","third",1,0

No temporary file is left behind, and the scratch file is gone.

  $ ls
  out
  r.csv
  r.json
  wait.lua
