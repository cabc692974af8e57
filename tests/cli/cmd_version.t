platter --version names the platter version and the Lua it embeds (LuaJIT
or PUC Lua 5.4, so the flavour is matched with a pattern).

  $ platter --version
  platter [0-9]+\.[0-9]+\.[0-9]+ \((LuaJIT 2\.1\.[^)]+|Lua 5\.4\.[0-9]+)\) (re)

-V is the short form; options may come in any order before it.

  $ platter -V
  platter [0-9]+\.[0-9]+\.[0-9]+ \((LuaJIT 2\.1\.[^)]+|Lua 5\.4\.[0-9]+)\) (re)
  $ platter --quiet --version
  platter [0-9]+\.[0-9]+\.[0-9]+ \((LuaJIT 2\.1\.[^)]+|Lua 5\.4\.[0-9]+)\) (re)

With -v (before or after) it adds the clock in use, its cost per reading,
and whether io_uring support was built in.

  $ platter --version -v
  platter [0-9]+\.[0-9]+\.[0-9]+ \((LuaJIT 2\.1\.[^)]+|Lua 5\.4\.[0-9]+)\) (re)
  clock: .*, [0-9]+\.[0-9] ns per reading (re)
  io_uring: (built in|not built in) (re)
  sandbox: .* (re)
  $ platter -v --version | wc -l
  4

The first line agrees with what a script sees as p.version and p.lua.

  $ platter -e 'local p = require "platter"; print("platter " .. p.version .. " (" .. p.lua .. ")")' > from_lua
  $ platter --version | cmp - from_lua && echo same
  same

--version wins over a script name and runs nothing.

  $ platter --version -e 'print("ran")'
  platter .* (re)
