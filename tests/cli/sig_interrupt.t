The first SIGINT or SIGTERM stops the script at the next platter call
(here p.sleep): platter says "interrupted", removes scratch files and exits
130 for SIGINT, 128+N for other signals.

  $ cat > wait.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open(p.scratch("scratch.dat"), { create = true, write = true, size = 4096 }))
  > p.write("ready\n"); p.flush()
  > p.sleep(30)
  > print("not reached")
  > LUA
  $ ready() { for i in $(seq 200); do grep -q ready out 2>/dev/null && return; sleep 0.05; done; }

  $ platter wait.lua > out & pid=$!; ready; ls scratch.dat; kill -INT $pid; wait $pid
  scratch.dat
  platter: interrupted
  [130]
  $ cat out
  ready
  $ ls
  out
  wait.lua

  $ rm out; platter wait.lua > out & pid=$!; ready; kill -TERM $pid; wait $pid
  platter: interrupted
  [143]
  $ ls
  out
  wait.lua

A per-character phase is cut too: f:getc(n) stops within 1 MiB after the
signal (here n would take many minutes from /dev/zero), with a short count,
and the phase is reported as far as it got.

  $ cat > getc.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open(..., {}))
  > p.phase("Getc", function() f:getc(2 ^ 42) end)
  > LUA
  $ timeout --preserve-status --foreground -s INT -k 10 1 platter getc.lua /dev/zero
  platter: interrupted
  platter: interrupted phase 'Getc' after * s: 1 ops, * MB (* IOPS, * MB/s), latency * (glob)
  [130]
  $ rm getc.lua
