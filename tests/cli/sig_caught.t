The first Ctrl-C stops even a script that catches errors: after it, every
Lua instruction of the script raises "interrupted" again until the script
has ended. (The loops make closures, which LuaJIT does not compile: a loop
it compiled never sees the hook, and needs a second Ctrl-C, which exits at
once; tests/lua/test_faults.lua covers that.) timeout sends one SIGINT after
a second, and SIGKILL 10 s later if platter is still running.

  $ stop() { timeout --preserve-status --foreground -s "$1" -k 10 1 platter -e "$2"; }
  $ spin='while true do local _ = function() end end'

  $ stop INT "while true do pcall(function() $spin end) end"
  platter: interrupted
  [130]
  $ stop TERM "while true do pcall(function() $spin end) end"
  platter: interrupted
  [143]

A message handler that loops is not run for the interruption.

  $ stop INT "local function loop() $spin end while true do xpcall(loop, loop) end"
  platter: interrupted
  [130]

Inside coroutines, which Lua 5.4 gives hooks of their own.

  $ stop INT "local co = coroutine.wrap(function() while true do pcall(function() $spin end) end end) co()"
  platter: interrupted
  [130]
  $ stop INT "while true do pcall(coroutine.wrap(function() $spin end)) end"
  platter: interrupted
  [130]
  $ stop INT "local co = coroutine.create(function() $spin end) while true do coroutine.resume(co) end"
  platter: interrupted
  [130]

Only the library and workloads built into platter are left to finish: a
script file that shares a shipped workload's path, or a chunk loaded under
such a name, is stopped like any other script.

  $ mkdir workloads; echo "while true do pcall(function() $spin end) end" > workloads/dd.lua
  $ timeout --preserve-status --foreground -s INT -k 10 1 platter workloads/dd.lua
  platter: interrupted
  [130]
  $ rm -r workloads
  $ stop INT "load('while true do pcall(function() $spin end) end', '@lua/platter/init.lua')()"
  platter: interrupted
  [130]

platter's own code still does its bookkeeping: a p.run that the Ctrl-C
cut short is recorded in --json (the result writer runs inside the script),
though the script catches the error and would run again.

  $ cat > caught.lua <<'LUA'
  > local p = require "platter"
  > local f = assert(p.open(p.scratch("s.dat"), { create = true, write = true, size = 65536, direct = true }))
  > p.phase("first", function() for i = 0, 15 do f:pread(i * 4096, 4096) end end)
  > while true do
  >   pcall(p.run, { file = f, pattern = "seq", bs = 4096, seconds = 30, name = "long" })
  > end
  > LUA
  $ timeout --preserve-status --foreground -s INT -k 10 1 platter --json r.json caught.lua
  platter: interrupted
  platter: interrupted run 'long' after * s: * ops, * MB (* IOPS, * MB/s), latency * (glob)
  [130]
  $ platter --trust -e '
  > local doc = require("cjson").decode(assert(io.open("r.json")):read("*a"))
  > print(string.format("%d", doc.status.exit), doc.status.interrupted, #doc.phases)
  > for _, r in ipairs(doc.phases) do print(r.kind, r.name, r.ops > 0) end'
  130\ttrue\t2 (esc)
  phase\tfirst\ttrue (esc)
  run\tlong\ttrue (esc)
  $ ls
  caught.lua
  r.json
