platter plan: a dry run on the simulated disk, with what the script touched (docs/sharing.md)

  $ cat > w.lua <<'LUA'
  > local p = require "platter"
  > local P = p.script({ name = "w", api = "platter/1", needs = { write = false, device = "file" },
  >   params = { size = { type = "size", default = "64k" } } }, ...)
  > local f = assert(p.open(p.scratch("a.dat"), { create = true, write = true }))
  > f:pwrite(0, P.size)
  > f:close()
  > assert(p.open("in.dat")):close()
  > p.remove("in.dat")
  > print("done")
  > LUA
  $ platter -e 'assert(platter.open("in.dat", { create = true, write = true })):write(10)'
  $ platter plan ./w.lua --size 8k | sed "s|$(pwd -P)|PWD|"
  plan: ./w.lua on --sim nvme (a dry run: nothing on this machine was written)
  manifest: w (platter/1), needs write no, device file, root no
  run: ran to its end (exit status 0)
  
  paths:
    PWD/a.dat   write, create, scratch; wrote 8192 bytes (8 KiB)
    PWD/in.dat  read, remove; exists
  written: 8192 bytes (8 KiB)
  needs --destroy: no
  needs root: no
  observed: write yes, device file, root no
  the manifest under-declares: needs.write is false, but the run wrote 8192 bytes (8 KiB)
  
  --- what the run printed (on --sim nvme) ---
  done
  $ ls
  in.dat
  w.lua

A usage error is the run's, with its exit status; the manifest is still shown:

  $ platter plan --sim ata-5400-1999 ./w.lua --size 0x
  plan: ./w.lua on --sim ata-5400-1999 (a dry run: nothing on this machine was written)
  manifest: w (platter/1), needs write no, device file, root no
  run: refused its arguments (exit status 2): w: --size 0x: bad size '0x': unknown unit 'x'
  
  paths: none
  written: nothing
  needs --destroy: no
  needs root: no
  observed: write no, device none, root no
  
  --- what the run printed (on --sim ata-5400-1999) ---
  platter: w: --size 0x: bad size '0x': unknown unit 'x'
  Try 'platter w --help'.
  [2]

The command's own mistakes:

  $ platter plan
  platter: plan: usage: platter plan [--json] [--sim PRESET] [--budget T] [--env NAME] SCRIPT [args...]
  Try 'platter --help'.
  [2]
  $ platter plan --bogus w.lua
  platter: plan: unknown option '--bogus' (usage: platter plan [--json] [--sim PRESET] [--budget T] [--env NAME] SCRIPT [args...])
  Try 'platter --help'.
  [2]
  $ platter plan --sim nosuch w.lua
  platter: unknown --sim preset 'nosuch' (see 'platter --sim list')
  Try 'platter --help'.
  [2]
  $ platter plan nosuch
  platter: no workload named 'nosuch' (see 'platter list'; a script file needs a '/' or a .lua ending)
  [2]

What the script read of the environment: the variables p.getenv got, and those
the sandbox refused; --env grants one, before or after plan:

  $ cat > env.lua <<'LUA'
  > local p = require "platter"
  > print(p.getenv("PL_SIZE"))
  > print(select(2, pcall(p.getenv, "HOME")))
  > LUA
  $ PL_SIZE=8k platter plan --env PL_SIZE env.lua | grep -E '^(written|environment|8k|getenv)'
  written: nothing
  environment read: PL_SIZE
  environment refused: HOME (grant one with --env NAME)
  8k
  getenv: $HOME is not granted to a sandboxed script: name it with --env HOME (or run with --trust)
  $ PL_SIZE=8k platter --env PL_SIZE plan --json env.lua > plan.json
  $ python3 -c '
  > import json; e = json.load(open("plan.json"))["env"]
  > print([(v["name"], v["read"], v["refused"]) for v in e])'
  [('PL_SIZE', True, False), ('HOME', False, True)]
  $ platter plan env.lua | grep -E '^(run|environment)'
  run: stopped with an error (exit status 1): env.lua:2: getenv: $PL_SIZE is not granted to a sandboxed script: name it with --env PL_SIZE (or run with --trust)
  environment refused: PL_SIZE (grant one with --env NAME)
A name past the 63 bytes a plan keeps is listed once, however often asked:

  $ printf 'local p = require "platter"\nfor _ = 1, 3 do pcall(p.getenv, string.rep("A", 80)) end\n' > long.lua
  $ platter plan --json long.lua | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["env"]))'
  1
  $ platter plan --env 9X env.lua
  platter: bad --env '9X': expected the name of an environment variable, such as SIZE
  Try 'platter --help'.
  [2]
