-- luacheck's settings for platter's Lua. `luacheck .` from the top of the tree
-- checks every file listed here; ctest runs it as lint.luacheck (tests/CMakeLists.txt)
-- and tools/dev.sh installs it (Debian's lua-check). Zero warnings is the rule:
-- fix the code, or say here why a warning does not apply.

include_files = {
  "lua/**/*.lua", "workloads/*.lua", "tests/lua/*.lua", "bench/*.lua", "examples/*.lua",
  "fuzz/*.lua", ".luacheckrc",
}

-- Everything runs on LuaJIT and on PUC Lua 5.4, so the names of both are known.
-- Code that needs one flavour's name tests for it first (`utf8 and utf8.len(s)`,
-- `table.unpack or unpack`).
std = "luajit+lua54"

-- src/bind/host.c sets the global platter (require "platter") for every script.
read_globals = { "platter" }

max_line_length = 120

-- W581 would turn `not (x > 0)` into `x <= 0`: platter writes the first on purpose,
-- since it is also true when x is NaN (a "--seconds nan" must be refused).
ignore = { "581" }

-- Names a sandboxed script does not get (push_sandbox in src/bind/host.c). Those
-- of maybe_absent there (getfenv, jit, ...) read as nil in the sandbox, so a use
-- of one is dead code. luacheck cannot take fields away: os is cut to clock,
-- date, difftime and time at run time, and the sandbox refuses the rest by name.
local not_in_sandbox = {
  "bit32", "debug", "dofile", "gcinfo", "getfenv", "io", "jit", "loadfile", "module",
  "newproxy", "package", "setfenv", "warn",
}

-- Workloads, bench/bench.lua and the examples run in the sandbox.
files["workloads/*.lua"] = {
  not_globals = not_in_sandbox,
  -- a workload's first line is the one-line description `platter list` prints
  max_comment_line_length = false,
}
files["bench/*.lua"] = { not_globals = not_in_sandbox }
files["examples/*.lua"] = { not_globals = not_in_sandbox }

-- fuzz/fuzz_api.c sets NO_READAHEAD off tmpfs (f:readahead would set a real device's).
files["fuzz/api_driver.lua"] = { read_globals = { "NO_READAHEAD" } }

-- Tests hold expected output (report rows, CSV lines) as long literal strings.
files["tests/lua/*.lua"] = { max_string_line_length = false }
