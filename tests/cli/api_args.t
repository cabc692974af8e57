p.args parses a script's arguments in the flag styles of the tools platter
imitates, converts values, and prints a --help made from the spec.

  $ cat > demo.lua <<'LUA'
  > local p = require "platter"
  > local o = p.args({
  >   name = "demo", usage = "[options] FILE [MORE...]", summary = "A demo of p.args.",
  >   options = {
  >     { "-s", "--size", arg = "SIZE", type = "size", default = "64m", help = "file size" },
  >     { "-t", help = "flag t" },
  >     { "-T", help = "flag T" },
  >     { "-v", count = true, help = "more output" },
  >     { "-i", arg = "N", type = "int", multi = true, help = "test number" },
  >     { "-m", "--mode", arg = "M", choices = { "a", "b" }, default = "a", help = "mode" },
  >     { "bs=", arg = "BYTES", type = "size", help = "block size" },
  >     { "-html", help = "html output" },
  >     { "--run-time", arg = "T", type = "time", help = "how long" },
  >     { "-x", arg = "X", key = "ex", type = "number", help = "a number" },
  >   },
  >   positional = { { "file", arg = "FILE" }, { "more", optional = true, default = "none" } },
  >   rest = true,
  >   epilog = "Epilog text.",
  > }, ...)
  > local ks = {}
  > for k, v in pairs(o) do
  >   if type(v) == "table" then v = "{" .. table.concat(v, ",") .. "}" end
  >   ks[#ks + 1] = tostring(k) .. "=" .. tostring(v)
  > end
  > table.sort(ks)
  > print(table.concat(ks, " "))
  > LUA

Defaults: flags false, counts 0, multi an empty list, string defaults
converted, options with no default absent.

  $ platter demo.lua f1
  1=f1 T=false file=f1 html=false i={} mode=a more=none size=67108864 t=false v=0

Every style at once: attached values, bundled flags, repeated options,
--name=value, dd's key=value, a multi-letter single-dash flag; positionals
also land at [1..n].

  $ platter demo.lua -s100 -tT -vvv -i 0 -i1 --mode=b bs=4k -html --run-time 1.5s -x 2.5 f1 f2 f3
  1=f1 2=f2 3=f3 T=true bs=4096 ex=2.5 file=f1 html=true i={0,1} mode=b more=f2 run_time=1.5 size=100 t=true v=3
  $ platter demo.lua -ts 1k -- -v
  1=-v T=false file=-v html=false i={} mode=a more=none size=1024 t=true v=0
  $ platter demo.lua -5 f
  1=-5 2=f T=false file=-5 html=false i={} mode=a more=f size=67108864 t=false v=0

--help (or -h) prints the help and ends the script with status 0.

  $ platter demo.lua --help
  usage: platter demo [options] FILE [MORE...]
  A demo of p.args.
  
  options:
    -s, --size SIZE  file size (default 64m)
    -t               flag t
    -T               flag T
    -v               more output
    -i N             test number
    -m, --mode M     mode (default a)
    bs=BYTES         block size
    -html            html output
    --run-time T     how long
    -x X             a number
  
  Epilog text.
  $ platter demo.lua f -h | head -1
  usage: platter demo [options] FILE [MORE...]

Bad input is a usage error (status 2) that names the script.

  $ platter demo.lua
  platter: demo: missing FILE
  Try 'platter demo --help'.
  [2]
  $ platter demo.lua -q f
  platter: demo: unknown option '-q'
  Try 'platter demo --help'.
  [2]
  $ platter demo.lua -tq f
  platter: demo: unknown option '-q'
  Try 'platter demo --help'.
  [2]
  $ platter demo.lua --nope=3 f
  platter: demo: unknown option '--nope'
  Try 'platter demo --help'.
  [2]
  $ platter demo.lua f -s
  platter: demo: option '-s' needs a value
  Try 'platter demo --help'.
  [2]
  $ platter demo.lua -m c f
  platter: demo: bad value 'c' for -m: expected one of a, b
  Try 'platter demo --help'.
  [2]
  $ platter demo.lua -i 1.5 f
  platter: demo: bad value '1.5' for -i: not an integer
  Try 'platter demo --help'.
  [2]
  $ platter demo.lua bs=4q f
  platter: demo: bad value '4q' for bs=: bad size '4q': unknown unit 'q'
  Try 'platter demo --help'.
  [2]
  $ platter demo.lua --run-time=soon f
  platter: demo: bad value 'soon' for --run-time: bad duration 'soon': not a number
  Try 'platter demo --help'.
  [2]

Without rest, an extra positional is refused; with keyvalue, an unknown
key=value operand is.

  $ platter -e 'platter.args({ name = "one", positional = { { "a" } } }, ...)' x y
  platter: one: unexpected argument 'y'
  Try 'platter one --help'.
  [2]
  $ platter -e 'platter.args({ name = "dd", keyvalue = true, options = { { "if=", arg = "FILE" } } }, ...)' if=/dev/null count=3
  platter: dd: unknown operand 'count'
  Try 'platter dd --help'.
  [2]
