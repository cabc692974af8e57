platter rerun runs the script recorded in a result file again: its text
(not today's copy), its arguments and its seed, in the sandbox. The same
seed gives the same offsets.

  $ cat > offsets.lua <<'LUA'
  > local p = require "platter"
  > local path, n = ...
  > local f = assert(p.open(path, { create = true, write = true, size = "1m", direct = true }))
  > local offs = {}
  > for i = 1, tonumber(n) do offs[i] = p.random(0, f:size() - 4096, 4096) end
  > print(table.concat(offs, " "))
  > p.phase("reads", function() for _, o in ipairs(offs) do f:pread(o, 4096) end end)
  > local r = p.run{ file = f, pattern = "random", bs = 4096, count = 50, name = "random" }
  > print(r.ops)
  > LUA
  $ platter --seed 7 --json old.json offsets.lua data.dat 5 > old.out
  $ rm offsets.lua
  $ platter rerun old.json --json new.json > new.out
  rerun: offsets.lua (seed 7, arguments: data.dat 5)
  $ cat new.out
  [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ (re)
  50
  $ cmp old.out new.out && echo same offsets
  same offsets

The new record names the same script and says what it reran, so compare
finds nothing else changed.

  $ platter compare old.json new.json | sed -n 4p
  No differences in platter, script, options, machine or files.
  $ platter --trust -e '
  > local doc = require("cjson").decode(assert(io.open("new.json")):read("*a"))
  > print(doc.script.name, doc.seed, doc.rerun_of.file, doc.args[1], doc.args[2])'
  offsets.lua\t7\told.json\tdata.dat\t5 (esc)

--dry-run shows the command; another seed can be given.

  $ platter rerun -n --seed 8 old.json | sed "s|'[^']*/platter'|PLATTER|"
  PLATTER '--seed' '8' 'TMPDIR/offsets.lua' 'data.dat' '5'

The rerun is sandboxed: a recorded script that reaches outside fails.

  $ platter --trust --json t.json -e 'io.write("trusted\n")'
  trusted
  $ platter rerun t.json
  rerun: the recorded run was trusted (--trust); this one runs in the sandbox (give --trust to rerun after reading the script)
  rerun: -e (seed 1)
  platter: .*code.lua:1: 'io' is not available in the sandbox \(run with --trust to allow it\) (re)
  [1]
  $ platter rerun --trust -q t.json
  trusted

Bad input.

  $ platter rerun nosuch.json
  platter: rerun: nosuch.json: No such file or directory
  Try 'platter rerun --help'.
  [2]
