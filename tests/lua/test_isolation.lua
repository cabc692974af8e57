-- What a sandboxed script can reach of platter's own state: p.config is a
-- read-only view, the result writer reads platter's private copy, and the host
-- hooks and platter.core stay out of reach. (The sandbox's path and library
-- rules are in test_sandbox.lua.)
local T = ...
local cjson = require "cjson"

local function write(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

local function read(path)
  local f = io.open(path)
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

local function exists(path) return read(path) ~= nil end

-- {--- p.config ---------------------------------------------------------------------

T.test("p.config: every write raises, nested argv too; reads work; the metatable is hidden",
  function()
  local out, err, rc = T.platter({ "--seed", "9", "--repeat", "1", "-e", [[
local p = require "platter"
local function try(what, f)
  local ok, e = pcall(f)
  print(what, ok, e)
end
try("json", function() p.config.json = "/root/.bashrc" end)
try("seed", function() p.config.seed = 5 end)
try("new", function() p.config.other = 1 end)
try("argv1", function() p.config.argv[1] = "forged" end)
try("argv+", function() p.config.argv[99] = "more" end)
try("setmt", function() setmetatable(p.config, nil) end)
print("mt", getmetatable(p.config), getmetatable(p.config.argv))
print("read", p.config.seed, p.config.repeats, p.config.argv[2], p.config.argv[3],
  p.config.json, p.config.sim)
local n = 0
for _ in pairs(p.config) do n = n + 1 end
print("pairs", _VERSION == "Lua 5.4" and n == 6 or n == 0)  -- repeats ci seed seed_given destroy argv
]], "arg1" })
  T.eq(rc, 0, "status (" .. err .. ")")
  for _, what in ipairs({ "json", "seed", "new", "argv1", "argv+" }) do
    T.has(out, what .. "\tfalse\t(command line):", what .. ": raised at the writing line")
  end
  local n = 0
  for _ in out:gmatch("attempt to change platter's configuration\n") do n = n + 1 end
  T.eq(n, 5, "the five writes name what was refused")
  T.has(out, "setmt\tfalse\t", "setmetatable is refused")
  T.has(out, "protected metatable", "setmetatable's own message")
  T.has(out, "mt\tplatter's configuration (read-only)\tplatter's configuration (read-only)",
    "getmetatable gives a string, not the table")
  T.has(out, "read\t9\t1\t--seed\t9\tnil\tnil", "reading keys works as before")
  T.has(out, "pairs\ttrue", "pairs sees the keys under Lua 5.4 (LuaJIT ignores __pairs)")
end)

T.test("a script cannot redirect --json/--csv or forge the record's command line", function()
  local d = T.tmpdir()
  write(d .. "/forge.lua", [[
local p = require "platter"
pcall(function() p.config.json = "evil.json" end)
pcall(function() p.config.csv = "evil.csv" end)
pcall(function() p.config.argv[2] = "forged" end)
-- rawset and replacing the public field change only what this script sees
rawset(p.config, "json", "evil.json")
rawset(p.config, "argv", { "forged", "--trust" })
p.config = { json = "evil.json", csv = "evil.csv", argv = { "forged" }, repeats = 5 }
p.phase("x", function() end)
print(p.config.json)
]])
  local out, err, rc = T.platter({ "--json", "r.json", "--csv", "r.csv", "forge.lua", "a" },
    { cwd = d })
  T.eq(rc, 0, "status (" .. err .. ")")
  T.eq(out, "evil.json\n", "the script changed its own view")
  T.ok(not exists(d .. "/evil.json"), "no evil.json")
  T.ok(not exists(d .. "/evil.csv"), "no evil.csv")
  local doc = cjson.decode((assert(read(d .. "/r.json"), "r.json written")))
  T.ok(exists(d .. "/r.csv"), "r.csv written")
  local cl = doc.command_line
  T.eq(#cl, 7, "command_line length")
  T.eq(cl[2], "--json", "command_line[2]")
  T.eq(cl[3], "r.json", "command_line[3]")
  T.eq(cl[6], "forge.lua", "command_line[6]")
  T.eq(doc.args[1], "a", "args")
  T.eq(doc.options.repeats, 1, "options.repeats")
  T.eq(doc.repetitions.requested, 1, "repetitions.requested")
  T.eq(doc.options.trusted, false, "options.trusted")
end)

T.test("core._script() and core._config() hand out copies", function()
  local out, err, rc = T.platter({ "--trust", "--json", "r.json", "-e", [[
local core = require "platter.core"
local s = core._script()
s.text, s.name = "forged", "forged.lua"
local c = core._config()
c.json, c.argv[1] = "evil.json", "forged"
print(core._script().text == "forged", core._script().name, core._config().json,
  core._config().argv[1] == "forged", core._config() ~= core._config())
]] }, { cwd = T.tmpdir() })
  T.eq(rc, 0, "status (" .. err .. ")")
  T.eq(out, "false\t-e\tr.json\tfalse\ttrue\n", "fresh copies every call")
end)

T.test("a sandboxed script cannot reach platter.core, the hooks or the result writer", function()
  local d = T.tmpdir()
  write(d .. "/s.lua", [[
local p = require "platter"
local names = {}
for k in pairs(p) do if tostring(k):sub(1, 1) == "_" then names[#names + 1] = k end end
print("underscore names", #names, table.concat(names, " "))
print("hook", p._hook, p._script, p._config, p._resolve)
print("core", pcall(require, "platter.core"))
print("results", pcall(require, "platter.results"))
print("package", pcall(function() return package end))
print("registry", pcall(function() return debug end))
-- a stand-in for the exit hook, were it reachable: it would stop the record
local function silence() end
if p._hook then p._hook("exit", silence) end
p.phase("kept", function() end)
]])
  local out, err, rc = T.platter({ "--json", "r.json", "s.lua" }, { cwd = d })
  T.eq(rc, 0, "status (" .. err .. ")")
  T.has(out, "underscore names\t0\t\n", "no _ names in the public table")
  T.has(out, "hook\tnil\tnil\tnil\tnil\n", "no host hooks or private helpers")
  T.has(out, "core\tfalse\t", "platter.core refused")
  T.has(out, "require 'platter.core': an internal module", "its message")
  T.has(out, "results\tfalse\t", "platter.results refused")
  T.has(out, "package\tfalse\t", "no package (and so no package.loaded)")
  T.has(out, "registry\tfalse\t", "no debug (and so no registry)")
  local doc = cjson.decode((assert(read(d .. "/r.json"), "the exit hook still wrote r.json")))
  T.eq(doc.phases[1].name, "kept", "the record holds the phase")
end)

-- }------------------------------------------------------------------------------
