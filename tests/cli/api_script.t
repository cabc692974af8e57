p.script: a script's manifest. Its params become options, checked by type
and range, with --help generated from it.

  $ cat > demo.lua <<'LUA'
  > local p = require "platter"
  > local P = p.script({ name = "demo", version = "1.0", api = "platter/1",
  >   description = "a demo of p.script",
  >   params = {
  >     size = { type = "size", default = "1g", min = "1m", max = "4g", help = "file size" },
  >     qd = { type = "int", default = 32, min = 1, max = 1024, short = "q", help = "queue depth" },
  >     rate = { type = "number", default = 0.5, min = 0, max = 1 },
  >     mode = { type = "enum", values = { "read", "write" }, default = "read" },
  >     verbose = { type = "bool" },
  >     ramp = { type = "time", default = "1s", min = "10ms" },
  >     label = { type = "string" },
  >     dir = { type = "path", required = true },
  >     target = { type = "path", positional = true },
  >   }, needs = { write = true, device = "file" } }, ...)
  > for _, k in ipairs({ "size", "qd", "rate", "mode", "verbose", "ramp", "label", "dir", "target" }) do
  >   local v = P[k]
  >   print(k, type(v) == "number" and string.format("%.15g", v) or v)
  > end
  > LUA
  $ platter demo.lua --dir d
  size\t1073741824 (esc)
  qd\t32 (esc)
  rate\t0.5 (esc)
  mode\tread (esc)
  verbose\tfalse (esc)
  ramp\t1 (esc)
  label\tnil (esc)
  dir\td (esc)
  target\tnil (esc)
  $ platter demo.lua --dir=d -q 7 --size 2g --rate 0.25 --mode write --verbose --ramp 50ms --label x t1
  size\t2147483648 (esc)
  qd\t7 (esc)
  rate\t0.25 (esc)
  mode\twrite (esc)
  verbose\ttrue (esc)
  ramp\t0.05 (esc)
  label\tx (esc)
  dir\td (esc)
  target\tt1 (esc)
  $ platter demo.lua --help
  usage: platter demo [options] [TARGET]
  demo 1.0 (platter/1): a demo of p.script
  
  parameters:
    --dir PATH         (path, required)
    --label STRING     (string)
    --mode read|write  (one of read, write, default read)
    -q, --qd N         queue depth (int, 1 to 1024, default 32)
    --ramp TIME        (time, at least 10ms, default 1s)
    --rate NUM         (number, 0 to 1, default 0.5)
    --size SIZE        file size (size, 1m to 4g, default 1g)
    TARGET             (path)
    --verbose          (bool)

Each type, each range, each choice, a missing required parameter: a usage
error naming the parameter, exit status 2.

  $ platter demo.lua --dir d --qd 0
  platter: demo: --qd 0: must be at least 1
  Try 'platter demo --help'.
  [2]
  $ platter demo.lua --dir d --qd 2000
  platter: demo: --qd 2000: must be at most 1024
  Try 'platter demo --help'.
  [2]
  $ platter demo.lua --dir d --qd 1.5
  platter: demo: --qd 1.5: not an integer
  Try 'platter demo --help'.
  [2]
  $ platter demo.lua --dir d --size 512k
  platter: demo: --size 512k: must be at least 1m
  Try 'platter demo --help'.
  [2]
  $ platter demo.lua --dir d --size 5g
  platter: demo: --size 5g: must be at most 4g
  Try 'platter demo --help'.
  [2]
  $ platter demo.lua --dir d --size lots
  platter: demo: --size lots: bad size 'lots': not a number
  Try 'platter demo --help'.
  [2]
  $ platter demo.lua --dir d --rate 2
  platter: demo: --rate 2: must be at most 1
  Try 'platter demo --help'.
  [2]
  $ platter demo.lua --dir d --ramp 1ms
  platter: demo: --ramp 1ms: must be at least 10ms
  Try 'platter demo --help'.
  [2]
  $ platter demo.lua --dir d --mode both
  platter: demo: bad value 'both' for --mode: expected one of read, write
  Try 'platter demo --help'.
  [2]
  $ platter demo.lua
  platter: demo: missing --dir
  Try 'platter demo --help'.
  [2]
  $ platter demo.lua --dir d --bogus
  platter: demo: unknown option '--bogus'
  Try 'platter demo --help'.
  [2]
  $ platter demo.lua --dir d a b
  platter: demo: unexpected argument 'b'
  Try 'platter demo --help'.
  [2]

An api this platter does not support is refused; a mistake in the manifest
itself is an error at the script's line naming the key.

  $ platter -e 'platter.script({ name = "future", api = "platter/2" })'
  platter: future: needs api platter/2; this platter supports platter/1
  [2]
  $ platter -e 'platter.script({ name = "x", api = "platter/1", parms = {} })'
  platter: (command line):1: p.script: parms: unknown key
  [1]
  $ platter -e 'platter.script({ name = "x", api = "platter/1", params = { qd = { type = "integer" } } })'
  platter: (command line):1: p.script: params.qd.type: unknown type 'integer' (one of size, int, number, time, enum, bool, string, path)
  [1]
  $ platter -e 'platter.script({ name = "x", api = "platter/1", params = { qd = { type = "int", min = "a" } } })'
  platter: (command line):1: p.script: params.qd.min: number expected, got string
  [1]
  $ platter -e 'platter.script({ name = "x", api = "platter/1", params = { s = { type = "size", min = "abc" } } })'
  platter: (command line):1: p.script: params.s.min: 'abc': bad size 'abc': not a number
  [1]
  $ platter -e 'platter.script({ name = "x", api = "platter/1", params = { m = { type = "enum", values = { "a" }, default = "b" } } })'
  platter: (command line):1: p.script: params.m.default: 'b' is not one of its values
  [1]
  $ platter -e 'platter.script({ name = "x", api = "platter/1", needs = { device = "tape" } })'
  platter: (command line):1: p.script: needs.device: 'tape': expected block, file or any
  [1]
  $ platter -e 'platter.script({ name = "x" })'
  platter: (command line):1: p.script: api: missing ("platter/1")
  [1]
  $ platter -e 'platter.script({ name = 3, api = "platter/1" })'
  platter: (command line):1: p.script: name: string expected, got number
  [1]
  $ platter -e 'platter.script("x")'
  platter: (command line):1: p.script: manifest: table expected, got string
  [1]

The record keeps the parsed params with their types, and the manifest's
name, version and api.

  $ platter --json r.json demo.lua --dir d -q 3 >/dev/null
  $ platter -e 'local d = require("cjson").decode(platter.read_text("r.json")) local k = {} for n in pairs(d.params) do k[#k + 1] = n end table.sort(k) for _, n in ipairs(k) do local v = d.params[n].value print(n, d.params[n].type, type(v) == "number" and string.format("%.15g", v) or v) end print(d.script.manifest.name, d.script.manifest.version, d.script.manifest.api)'
  dir\tpath\td (esc)
  label\tstring\tnil (esc)
  mode\tenum\tread (esc)
  qd\tint\t3 (esc)
  ramp\ttime\t1 (esc)
  rate\tnumber\t0.5 (esc)
  size\tsize\t1073741824 (esc)
  target\tpath\tnil (esc)
  verbose\tbool\tfalse (esc)
  demo\t1.0\tplatter/1 (esc)
