-- The sandbox: scripts run without --trust must not reach the OS except
-- through p.open on allowed paths. Every escape attempt below must fail with
-- exit status 1 and a message that names the problem; the allowed paths must
-- work; --trust lifts it all.
local T = ...

local write = T.write

local function exists(path)
  local fh = io.open(path, "rb")
  if fh then fh:close() end
  return fh ~= nil
end

-- A fresh layout: D/cwd (the current directory), D/tmp ($TMPDIR), D/outside
-- (allowed only when named), D/scripts (where the script file lives: naming
-- the script does not allow its directory).
local function layout()
  local d = T.tmpdir()
  local L = { d = d, cwd = d .. "/cwd", tmp = d .. "/tmp", outside = d .. "/outside",
              scripts = d .. "/scripts" }
  T.sh("mkdir -p " .. T.q(L.cwd) .. " " .. T.q(L.tmp) .. " " .. T.q(L.outside) .. " "
    .. T.q(L.scripts))
  write(L.outside .. "/secret", "secret\n")
  return L
end

-- Run `code` as the script D/scripts/s.lua from D/cwd with TMPDIR=D/tmp.
-- Returns stdout, stderr, status.
local function run(L, code, args, flags)
  local script = L.scripts .. "/s.lua"
  write(script, code)
  local words = {}
  for _, a in ipairs(flags or {}) do words[#words + 1] = T.q(a) end
  words[#words + 1] = T.q(script)
  for _, a in ipairs(args or {}) do words[#words + 1] = T.q(a) end
  return T.sh("cd " .. T.q(L.cwd) .. " && TMPDIR=" .. T.q(L.tmp) .. " " .. T.q(T.bin) .. " "
    .. table.concat(words, " "))
end

-- The script must fail (status 1) with "platter: ...s.lua:LINE: ...msg...".
local function refused(L, code, msg, args)
  local out, err, rc = run(L, code, args)
  T.eq(rc, 1, "exit status (stdout " .. out .. ", stderr " .. err .. ")")
  T.has(err, "platter: ", "stderr prefix")
  T.has(err, msg, "message")
  T.ok(not out:find("ESCAPED", 1, true), "the code after the refused call did not run")
  return err
end

-- The script must succeed; returns its stdout.
local function allowed(L, code, args, flags)
  local out, err, rc = run(L, code, args, flags)
  T.eq(rc, 0, "exit status (stderr " .. err .. ")")
  return out
end

local NOT_AVAIL = "is not available in the sandbox (run with --trust to allow it)"
local ONLY_OURS = "only platter's own modules can be loaded in the sandbox"

-- {{{ escape attempts: functions and libraries
local escapes = {
  { "os.execute", [[os.execute("touch PWNED") print("ESCAPED")]], "'os.execute' " .. NOT_AVAIL },
  { "io.popen", [[io.popen("id") print("ESCAPED")]], "'io' " .. NOT_AVAIL },
  { "io.open", [[io.open("/etc/passwd") print("ESCAPED")]], "'io' " .. NOT_AVAIL },
  { "io.write via _G", [[_G.io.write("ESCAPED")]], "'io' " .. NOT_AVAIL },
  { "os.remove", [[os.remove(arg[1]) print("ESCAPED")]], "'os.remove' " .. NOT_AVAIL },
  { "os.rename", [[os.rename(arg[1], arg[1] .. "2") print("ESCAPED")]], "'os.rename' " .. NOT_AVAIL },
  { "os.exit", [[os.exit(0) print("ESCAPED")]], "'os.exit' " .. NOT_AVAIL },
  { "os.getenv", [[print(os.getenv("HOME")) print("ESCAPED")]], "'os.getenv' " .. NOT_AVAIL },
  { "os.tmpname", [[print(os.tmpname()) print("ESCAPED")]], "'os.tmpname' " .. NOT_AVAIL },
  { "dofile", [[dofile("/etc/passwd") print("ESCAPED")]], "'dofile' " .. NOT_AVAIL },
  { "loadfile", [[loadfile("/etc/passwd") print("ESCAPED")]], "'loadfile' " .. NOT_AVAIL },
  { "require io", [[require "io" print("ESCAPED")]], "require 'io': " .. ONLY_OURS },
  { "require os", [[require "os" print("ESCAPED")]], "require 'os': " .. ONLY_OURS },
  { "require ffi", [[require "ffi" print("ESCAPED")]], "require 'ffi': " .. ONLY_OURS },
  { "require debug", [[require "debug" print("ESCAPED")]], "require 'debug': " .. ONLY_OURS },
  { "require jit", [[require "jit" print("ESCAPED")]], "require 'jit': " .. ONLY_OURS },
  { "require socket", [[require "socket" print("ESCAPED")]], "require 'socket': " .. ONLY_OURS },
  { "require string (the real table)", [[require "string" print("ESCAPED")]],
    "require 'string': " .. ONLY_OURS },
  { "require platter.core", [[require "platter.core" print("ESCAPED")]], "require 'platter.core'" },
  -- platter.fast's install() wraps FFI calls that take any userdata as a file:
  -- reachable from the sandbox it crashed platter (a memory-corruption primitive)
  { "require platter.fast", [[require "platter.fast" print("ESCAPED")]],
    "require 'platter.fast': an internal module, not available in the sandbox" },
  { "package.loadlib", [[package.loadlib("libc.so.6", "system") print("ESCAPED")]],
    "'package' " .. NOT_AVAIL },
  { "package.cpath", [[package.cpath = "/tmp/?.so" print("ESCAPED")]], "'package' " .. NOT_AVAIL },
  { "debug.getinfo", [[debug.getinfo(1) print("ESCAPED")]], "'debug' " .. NOT_AVAIL },
  { "debug.sethook", [[debug.sethook() print("ESCAPED")]], "'debug' " .. NOT_AVAIL },
  { "debug.getregistry", [[debug.getregistry() print("ESCAPED")]], "'debug' " .. NOT_AVAIL },
  { "string.dump + load", [[
      local b = string.dump(function() print("ESCAPED") end)
      local f, msg = load(b)
      assert(f == nil and type(msg) == "string")
      assert(load(b))]], "load: binary (bytecode) chunks are refused in the sandbox" },
  { "string.dump + load with mode 'b'", [[
      assert(load(string.dump(function() print("ESCAPED") end), "x", "b"))]],
    "load: binary (bytecode) chunks are refused in the sandbox" },
  { "string.dump + loadstring", [[
      assert(loadstring(string.dump(function() print("ESCAPED") end)))]],
    "load: binary (bytecode) chunks are refused in the sandbox" },
  { "bytecode through a load reader function", [[
      local b = string.dump(function() print("ESCAPED") end)
      local i = 0
      assert(load(function() i = i + 1; return i <= #b and b:sub(i, i) or nil end))]],
    "load: binary (bytecode) chunks are refused in the sandbox" },
  { "getfenv(0)", [[local g = getfenv(0) print("ESCAPED", g)]], "getfenv" },
  { "setfenv on a platter function", [[
      setfenv(require("platter").printf, { string = { format = print } }) print("ESCAPED")]],
    "setfenv" },
  { "undefined global", [[print(undefined_thing) print("ESCAPED")]],
    "undefined global 'undefined_thing'" },
  { "newproxy / gcinfo are not there", [[local x = newproxy print("ESCAPED")]],
    "undefined global 'newproxy'" },
  { "string metatable cannot be replaced", [[setmetatable("", {}) print("ESCAPED")]],
    "table expected, got string" },
}

local shared  -- these attempts change nothing when refused: one layout serves them all
for _, e in ipairs(escapes) do
  T.test("refused: " .. e[1], function()
    shared = shared or layout()
    local L = shared
    local err = refused(L, e[2], e[3], { L.outside .. "/secret" })
    T.has(err, "s.lua:", "names the script")
    T.ok(not exists(L.cwd .. "/PWNED"), "no command ran")
    T.ok(exists(L.outside .. "/secret"), "nothing was removed")
  end)
end

T.test("refused: a bytecode script file (names the file)", function()
  local L = layout()
  local bc = L.scripts .. "/bc.luac"
  local _, err, rc = T.sh(T.q(T.bin) .. " --trust -e " .. T.q(
    "local f = io.open(arg[1], 'wb') f:write(string.dump(function() print('bytecode ran') end)) f:close()")
    .. " " .. T.q(bc))
  T.eq(rc, 0, "writing the bytecode (" .. err .. ")")
  local out, err2, rc2 = T.sh("cd " .. T.q(L.cwd) .. " && " .. T.q(T.bin) .. " " .. T.q(bc))
  T.eq(rc2, 1, "status")
  T.eq(out, "", "did not run")
  T.eq(err2, "platter: " .. bc .. ": binary (bytecode) chunks are refused in the sandbox (run "
    .. "with --trust to allow them)\n", "message")
  local out3, _, rc3 = T.sh("cd " .. T.q(L.cwd) .. " && " .. T.q(T.bin) .. " --trust " .. T.q(bc))
  T.eq(rc3, 0, "runs under --trust")
  T.eq(out3, "bytecode ran\n", "bytecode output")
end)

T.test("require: a module beside a plain script is not loaded; a pack serves only its members", function()
  -- packs (platter pack) brought a rule for finding modules beside a script: it must
  -- not reach plain scripts, nor let a pack fall back to the disk beside it
  local d = T.tmpdir()
  write(d .. "/helper.lua", 'print("LOADED FROM DISK") return {}')
  write(d .. "/main.lua", 'require "helper" print("RAN")')
  local out, err, rc = T.sh("cd " .. T.q(d) .. " && " .. T.q(T.bin) .. " ./main.lua")
  T.eq(rc, 1, "a plain script: status")
  T.eq(out, "", "helper.lua did not run, nor the rest")
  T.has(err, "require 'helper': " .. ONLY_OURS, "a plain script: the refusal")
  -- packed without the module (-x), the pack runs beside helper.lua but must not load it
  local _, perr, prc = T.sh("cd " .. T.q(d) .. " && " .. T.q(T.bin) .. " pack -q -x helper main.lua -o m.platter")
  T.eq(prc, 0, "pack (" .. perr .. ")")
  local out2, err2, rc2 = T.sh("cd " .. T.q(d) .. " && " .. T.q(T.bin) .. " m.platter")
  T.eq(rc2, 1, "the pack: status")
  T.eq(out2, "", "the pack did not load helper.lua from the disk")
  T.has(err2, "require 'helper'", "the pack: the refusal names the module")
end)

T.test("--trust: a Lua C module from package.cpath loads and runs", function()
  -- the Lua 5.4 build links Lua statically: the executable exports the C API for such modules
  local out, err, rc = T.sh(T.q(T.bin) .. " --trust -e " .. T.q([[
    local path = package.searchpath("cjson", package.cpath)
    if not path then print("none") return end
    local open = assert(package.loadlib(path, "luaopen_cjson"))
    print(open().encode({ 1, 2 }))]]))
  T.eq(rc, 0, "status (" .. err .. ")")
  if out == "none\n" then T.skip("no Lua C module (lua-cjson) on package.cpath") end
  T.eq(out, "[1,2]\n", "the module's own encode ran")
end)

T.test("load: text only, bound to the sandbox, and never a crash", function()
  local L = layout()
  local out = allowed(L, [[
    print(load("return 1 + 1")())
    print(load("return io", "=x", "t", { io = 42 })())     -- an explicit env is used
    print(pcall(load("return io")))                          -- the sandbox env by default
    print(load("return 7", "=x", "t", nil)())                -- nil env: the sandbox env
    print(pcall(load, "return 1", "=x", "t", 5))             -- LuaJIT crashed on a non-table env
    print(load("return 1", "=x", "b"))
    print(load("syntax error here"))
  ]])
  local lines = {}
  for l in out:gmatch("[^\n]*\n") do lines[#lines + 1] = l end
  T.eq(lines[1], "2\n", "text load")
  T.eq(lines[2], "42\n", "explicit env")
  T.has(lines[3], "false\t", "io stays unreachable in a loaded chunk")
  T.has(lines[3], "'io' is not available", "message in a loaded chunk")
  T.eq(lines[4], "7\n", "nil env")
  T.has(lines[5], "false\t", "a number env is an error")
  T.has(lines[5], "table expected, got number", "message")
  T.eq(lines[6], "nil\tattempt to load a text chunk (mode is 'b')\n", "mode 'b' refuses text")
  T.has(lines[7], "nil\t", "syntax error: nil + message")
end)

T.test("getfenv/setfenv read as nil (LuaJIT has them, 5.4 does not)", function()
  local L = layout()
  local out = allowed(L, [[print(getfenv, setfenv, rawget(_G, "getfenv"), jit, bit32)]])
  T.eq(out, "nil\tnil\tnil\tnil\tnil\n", "absent names read as nil")
end)

T.test("getmetatable('') gives the string 'string', not the real string table", function()
  local L = layout()
  local out = allowed(L, [[
    local mt = getmetatable("")
    print(type(mt), mt)
    print(mt.__index)              -- indexes the string "string": nil
    print(("x"):rep(3))            -- string methods still work
  ]])
  T.eq(out, "string\tstring\nnil\nxxx\n", "protected string metatable")
end)

T.test("changing string.* in the sandbox does not change platter's own modules", function()
  local L = layout()
  local out = allowed(L, [[
    local p = require "platter"
    string.format = function() return "HIJACKED" end
    string.rep = function() return "HIJACKED" end
    p.printf("%d-%s\n", 5, "x")          -- init.lua's printf uses the real string.format
    print(p.size_string(1048576))        -- so does size_string
    print(("ab"):rep(2))                 -- method calls reach the real string table
    print(string.format("%d", 1))        -- the sandbox's own copy did change
  ]])
  T.eq(out, "5-x\n1 MiB\nabab\nHIJACKED\n", "output")
end)

T.test("rawget(_G, 'io') is nil and _G.io raises", function()
  local L = layout()
  local out = allowed(L, [[
    print(rawget(_G, "io"), rawget(_G, "os") ~= nil, rawget(_G, "debug"), rawget(_G, "package"))
    print(pcall(function() return _G.io end))
  ]])
  local l1, l2 = out:match("^(.-)\n(.-)\n")
  T.eq(l1, "nil\ttrue\tnil\tnil", "rawget")
  T.has(l2, "false\t", "_G.io raises")
  T.has(l2, "'io' " .. NOT_AVAIL, "message")
end)

T.test("os keeps only clock/date/difftime/time", function()
  local L = layout()
  local out = allowed(L, [[
    print(type(os.clock()), type(os.time()), type(os.date("%Y")), os.difftime(5, 3))
    print(os.somethingelse)
  ]])
  T.eq(out, "number\tnumber\tstring\t" .. tostring(os.difftime(5, 3)) .. "\nnil\n",
    "safe os functions")
end)

T.test("collectgarbage is harmless", function()
  local L = layout()
  local out = allowed(L, [[
    collectgarbage("collect")
    collectgarbage("stop")
    local t = {} for i = 1, 1000 do t[i] = {} end
    collectgarbage("restart")
    collectgarbage("step")
    print(collectgarbage("count") > 0)
  ]])
  T.eq(out, "true\n", "output")
end)

T.test("the undefined-global error; jit, bit32, unpack read as nil or a value", function()
  local L = layout()
  local err = refused(L, [[local x = jit; local y = bit32; local z = setfenv
    print(nosuchglobal)]], "undefined global 'nosuchglobal'")
  T.has(err, "s.lua:2:", "line of the read")
end)

-- }}}
-- {{{ escape attempts: paths

local OUTSIDE = "is outside the current directory, $TMPDIR and the paths named on the command line"

T.test("refused: p.open('../x') escaping the cwd", function()
  local L = layout()
  local err = refused(L, [[require("platter").open("../x", { create = true, write = true })
    print("ESCAPED")]], OUTSIDE)
  T.has(err, "../x -> " .. L.d .. "/x", "names the path and where it leads")
  T.ok(not exists(L.d .. "/x"), "../x was not created")
end)

T.test("refused: ../ out of a directory named on the command line", function()
  local L = layout()
  local allowed_dir = L.d .. "/named"
  T.sh("mkdir " .. T.q(allowed_dir))
  refused(L, [[require("platter").open(arg[1] .. "/../outside/secret") print("ESCAPED")]], OUTSIDE,
    { allowed_dir })
end)

T.test("refused: a symlink in the cwd pointing to /etc/hostname", function()
  local L = layout()
  T.sh("ln -s /etc/hostname " .. T.q(L.cwd .. "/link"))
  local err = refused(L, [[require("platter").open("link") print("ESCAPED")]], OUTSIDE)
  T.has(err, "link -> /etc/hostname", "names the target")
end)

T.test("refused: a dangling symlink in the cwd pointing outside (create does not create)", function()
  local L = layout()
  local target = L.outside .. "/created-by-sandbox"
  T.sh("ln -s " .. T.q(target) .. " " .. T.q(L.cwd .. "/dangling"))
  local err = refused(L, [[require("platter").open("dangling", { create = true, write = true,
    size = 4096 }) print("ESCAPED")]], "dangling is a dangling symlink leading outside")
  T.has(err, "s.lua:1:", "line")
  T.ok(not exists(target), "the target was not created")
end)

T.test("refused: a new file under a symlinked directory pointing outside", function()
  local L = layout()
  T.sh("ln -s " .. T.q(L.outside) .. " " .. T.q(L.cwd .. "/ldir"))
  refused(L, [[require("platter").open("ldir/new", { create = true, write = true })
    print("ESCAPED")]], OUTSIDE)
  T.ok(not exists(L.outside .. "/new"), "not created")
end)

T.test("refused: p.open('/etc/passwd')", function()
  local L = layout()
  local err = refused(L, [[require("platter").open("/etc/passwd") print("ESCAPED")]], OUTSIDE)
  T.has(err, "open: /etc/passwd " .. OUTSIDE .. " (run with --trust to lift the sandbox)",
    "full message")
end)

T.test("refused: p.open('/proc/self/mem')", function()
  local L = layout()
  refused(L, [[require("platter").open("/proc/self/mem", { write = true }) print("ESCAPED")]],
    "/proc/self/mem -> /proc/")
end)

T.test("refused: p.open('/dev/null') when not named on the command line", function()
  local L = layout()
  refused(L, [[require("platter").open("/dev/null") print("ESCAPED")]], "/dev/null " .. OUTSIDE)
end)

T.test("refused: a sibling of a file named on the command line", function()
  local L = layout()
  write(L.outside .. "/other", "x")
  refused(L, [[require("platter").open((arg[1]:gsub("secret$", "other"))) print("ESCAPED")]],
    OUTSIDE, { L.outside .. "/secret" })
end)

T.test("refused: the script's own directory is not allowed by running it", function()
  local L = layout()
  refused(L, [[require("platter").open(arg[0]) print("ESCAPED")]], OUTSIDE)
end)

T.test("refused: p.stat, p.readdir, p.statfs, p.mkdir and p.rmdir of paths outside", function()
  local L = layout()
  local err = refused(L, [[require("platter").stat("../outside/secret") print("ESCAPED")]],
    "stat: ../outside/secret -> " .. L.outside .. "/secret " .. OUTSIDE)
  T.has(err, "s.lua:1:", "line")
  refused(L, [[require("platter").readdir("../outside") print("ESCAPED")]],
    "readdir: ../outside -> " .. L.outside .. " " .. OUTSIDE)
  refused(L, [[require("platter").statfs("../outside") print("ESCAPED")]],
    "statfs: ../outside -> " .. L.outside .. " " .. OUTSIDE)
  refused(L, [[require("platter").mkdir("../outside/new") print("ESCAPED")]],
    "mkdir: ../outside/new -> " .. L.outside .. "/new " .. OUTSIDE)
  T.ok(not exists(L.outside .. "/new"), "no directory made")
  refused(L, [[require("platter").rmdir("../outside") print("ESCAPED")]],
    "rmdir: ../outside -> " .. L.outside .. " " .. OUTSIDE)
  T.ok(exists(L.outside .. "/secret"), "still there")
end)

T.test("refused: p.remove of a path outside", function()
  local L = layout()
  local err = refused(L, [[require("platter").remove("../outside/secret") print("ESCAPED")]],
    "remove: ../outside/secret -> " .. L.outside .. "/secret " .. OUTSIDE)
  T.has(err, "s.lua:1:", "line")
  T.ok(exists(L.outside .. "/secret"), "still there")
end)

T.test("refused: p.scratch of a path outside", function()
  local L = layout()
  refused(L, [[require("platter").scratch("]] .. L.outside .. [[/secret") print("ESCAPED")]],
    "scratch: " .. L.outside .. "/secret " .. OUTSIDE)
  T.ok(exists(L.outside .. "/secret"), "not removed at exit")
end)

-- }}}
-- {{{ allowed paths

T.test("allowed: a file in the cwd (create, write, remove)", function()
  local L = layout()
  T.sh("mkdir " .. T.q(L.cwd .. "/sub"))
  local out = allowed(L, [[
    local p = require "platter"
    local f = assert(p.open("a.dat", { create = true, write = true, size = 8192 }))
    print(f:pread(0, 4096), f:size())
    f:close()
    local g = assert(p.open("./sub/../b.dat", { create = true, write = true }))
    g:close()
    print(p.remove("b.dat"))
  ]], nil)
  T.eq(out, "4096\t8192\ntrue\n", "output")
  T.ok(exists(L.cwd .. "/a.dat"), "a.dat created in the cwd")
  T.ok(not exists(L.cwd .. "/b.dat"), "b.dat removed")
end)

T.test("allowed: a file in $TMPDIR", function()
  local L = layout()
  local out = allowed(L, [[
    local p = require "platter"
    local f = assert(p.open("]] .. L.tmp .. [[/t.dat", { create = true, write = true, size = 4096 }))
    print(f:size())
  ]])
  T.eq(out, "4096\n", "output")
  T.ok(exists(L.tmp .. "/t.dat"), "created in TMPDIR")
end)

T.test("allowed: p.scratch in the cwd removes the file at exit", function()
  local L = layout()
  local out = allowed(L, [[
    local p = require "platter"
    p.scratch("s.dat")
    assert(p.open("s.dat", { create = true, write = true, size = 4096 })):close()
    print("made")
  ]])
  T.eq(out, "made\n", "output")
  T.ok(not exists(L.cwd .. "/s.dat"), "scratch file removed at exit")
end)

T.test("allowed: a path named on the command line as a plain argument", function()
  local L = layout()
  local out = allowed(L, [[
    local p = require "platter"
    local f = assert(p.open(arg[1]))
    print(f:pread(0, 100))
    local g = assert(p.open(arg[2], { create = true, write = true, size = 512 }))
    print(g:size())
  ]], { L.outside .. "/secret", L.outside .. "/new.dat" })
  T.eq(out, "7\n512\n", "read the named file; created a named file that did not exist")
end)

T.test("allowed: a path named as key=value", function()
  local L = layout()
  local out = allowed(L, [[
    local p = require "platter"
    local path = arg[1]:match("^if=(.*)$")
    print(assert(p.open(path)):pread(0, 100))
  ]], { "if=" .. L.outside .. "/secret" })
  T.eq(out, "7\n", "output")
end)

T.test("allowed: -dDIR and -d DIR allow files inside the directory", function()
  local L = layout()
  local out = allowed(L, [[
    local p = require "platter"
    local dir = arg[1]:sub(3)
    local f = assert(p.open(dir .. "/inside.dat", { create = true, write = true, size = 1024 }))
    print(f:size())
  ]], { "-d" .. L.outside })
  T.eq(out, "1024\n", "-dDIR")
  T.sh("mkdir " .. T.q(L.outside .. "/deeper"))
  local out2 = allowed(L, [[
    local p = require "platter"
    local f = assert(p.open(arg[2] .. "/deeper/../inside2.dat", { create = true, write = true }))
    print(f:size())
  ]], { "-d", L.outside })
  T.eq(out2, "0\n", "-d DIR")
  T.ok(exists(L.outside .. "/inside.dat") and exists(L.outside .. "/inside2.dat"), "created")
end)

T.test("allowed: a device named on the command line (/dev/null)", function()
  local L = layout()
  local out = allowed(L, [[print(require("platter").open("/dev/null"):pread(0, 10))]],
    { "/dev/null" })
  T.eq(out, "0\n", "read /dev/null")
end)

T.test("--trust lifts the sandbox", function()
  local L = layout()
  local out = allowed(L, [[
    local fh = assert(io.open("/etc/hostname"))
    print(type(fh:read("*l")))
    fh:close()
    print(type(os.getenv("PATH")), type(require("debug").getinfo))
    local f = assert(require("platter").open("/etc/hostname"))
    print(f:size() > 0)
  ]], nil, { "--trust" })
  T.eq(out, "string\nstring\tfunction\ntrue\n", "output")
end)

-- }}}
