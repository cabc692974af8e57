platter describe SCRIPT [--json]: a script's manifest, read without running
the script's benchmark: p.script prints it and ends the run.

  $ cat > demo.lua <<'LUA'
  > local p = require "platter"
  > local P = p.script({ name = "demo", version = "1.0", api = "platter/1",
  >   description = "a demo of describe",
  >   params = {
  >     size = { type = "size", default = "1g", min = "1m", help = "file size" },
  >     qd = { type = "int", default = 32, min = 1, max = 1024, short = "q" },
  >     mode = { type = "enum", values = { "read", "write" }, default = "read" },
  >     target = { type = "path", positional = true },
  >   }, needs = { write = true, device = "file" } }, ...)
  > p.open(P.target or "data", { create = true, write = true, size = P.size }):close()
  > print("ran")
  > LUA
  $ platter describe demo.lua
  name: demo
  version: 1.0
  api: platter/1
  description: a demo of describe
  needs: write yes, device file, root no
  parameters:
    --mode read|write  (one of read, write, default read)
    -q, --qd N         (int, 1 to 1024, default 32)
    --size SIZE        file size (size, at least 1m, default 1g)
    TARGET             (path)
  $ ls
  demo.lua
  $ platter describe --json demo.lua > d.json
  $ platter -e 'local d = require("cjson").decode(platter.read_text("d.json")) print(d.name, d.version, d.api, d.description) print(d.needs.write, d.needs.device, d.needs.root) local k = {} for n in pairs(d.params) do k[#k + 1] = n end table.sort(k) local function s(v) return type(v) == "number" and string.format("%g", v) or tostring(v) end for _, n in ipairs(k) do local q = d.params[n] print(n, q.type, q.option or "-", s(q.default), s(q.min), s(q.max), s(q.positional), q.values and table.concat(q.values, "|")) end'
  demo\t1.0\tplatter/1\ta demo of describe (esc)
  true\tfile\tfalse (esc)
  mode\tenum\t--mode\tread\tnil\tnil\tnil\tread|write (esc)
  qd\tint\t--qd\t32\t1\t1024\tnil\tnil (esc)
  size\tsize\t--size\t1g\t1m\tnil\tnil\tnil (esc)
  target\tpath\t-\tnil\tnil\tnil\ttrue\tnil (esc)

A script without a manifest says so, exit status 1; one that reaches for a
file (or a phase, or stdout through platter) before p.script is stopped
there, so describe never runs a benchmark.

  $ echo 'local x = 1' > plain.lua
  $ platter describe plain.lua
  platter: plain.lua: declares no manifest (p.script)
  [1]
  $ printf 'local p = require "platter"\np.open("made", { create = true, write = true })\n' > early.lua
  $ platter describe early.lua
  platter: early.lua: declares no manifest before p.open (describe reads p.script, which must come before any I/O)
  [1]
  $ ls made
  ls: cannot access 'made': No such file or directory
  [2]
  $ platter describe
  platter: describe: usage: platter describe [--json] SCRIPT
  Try 'platter --help'.
  [2]
  $ platter describe a.lua b.lua
  platter: describe: usage: platter describe [--json] SCRIPT
  Try 'platter --help'.
  [2]
  $ platter describe nosuch
  platter: no workload named 'nosuch' (see 'platter list'; a script file needs a '/' or a .lua ending)
  [2]

An api this platter does not speak, and a bad manifest, as when running.

  $ printf 'platter.script({ name = "future", api = "platter/2" })\n' > future.lua
  $ platter describe future.lua
  platter: future: needs api platter/2; this platter supports platter/1
  [2]
  $ printf 'platter.script({ name = "x", api = "platter/1", params = { n = { type = "int", bogus = 1 } } })\n' > bad.lua
  $ platter describe bad.lua
  platter: bad.lua:1: p.script: params.n.bogus: unknown key
  [1]
