platter --version names the platter version and the Lua it embeds (LuaJIT
or PUC Lua 5.4, so the flavour is matched with a pattern).

  $ platter --version
  platter [0-9]+\.[0-9]+\.[0-9]+ \((LuaJIT 2\.1\.[^)]+|Lua 5\.4\.[0-9]+)\) (re)
  build: (commit [0-9a-f]{40}(-dirty)?|package [0-9]+\.[0-9]+\.[0-9]+.*) (re)

-V is the short form; options may come in any order before it.

  $ platter -V | head -1
  platter [0-9]+\.[0-9]+\.[0-9]+ \((LuaJIT 2\.1\.[^)]+|Lua 5\.4\.[0-9]+)\) (re)
  $ platter --quiet --version | head -1
  platter [0-9]+\.[0-9]+\.[0-9]+ \((LuaJIT 2\.1\.[^)]+|Lua 5\.4\.[0-9]+)\) (re)

With -v (before or after) it adds the clock in use, its cost per reading,
whether io_uring support was built in, and the MPI library the module
(platter_mpi.so) was built with, or "not built in".

  $ platter --version -v
  platter [0-9]+\.[0-9]+\.[0-9]+ \((LuaJIT 2\.1\.[^)]+|Lua 5\.4\.[0-9]+)\) (re)
  build: .* (re)
  clock: .*, [0-9]+\.[0-9] ns per reading (re)
  io_uring: (built in|not built in) (re)
  sandbox: .* (re)
  mpi: (Open MPI v.*|not built in|built in, module not loadable: .*) (re)
  $ platter -v --version | wc -l
  6

The first line agrees with what a script sees as p.version and p.lua.

  $ platter -e 'local p = require "platter"; print("platter " .. p.version .. " (" .. p.lua .. ")")' > from_lua
  $ platter --version | head -1 | cmp - from_lua && echo same
  same

--version wins over a script name and runs nothing.

  $ platter --version -e 'print("ran")'
  platter .* (re)
  build: .* (re)

The build line names the git commit the binary was built from, the one a
result file records; built from sources outside git (a tarball), the package
version instead.

  $ platter --version | sed -n 's/^build: commit //p' > commit
  $ platter --json r.json -e '' && python3 -c 'import json, sys; c = json.load(open("r.json"))["platter"]["build"]["commit"]; sys.stdout.write("" if c == "unknown" else c + "\n")' | cmp - commit && echo same
  same
