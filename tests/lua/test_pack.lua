-- Packs (issue 16): platter.packfile's format, its reader's checks and the scan of
-- require calls, and what a pack's members may do when it runs (the sandbox's
-- require serves them, nothing more). tests/cli/cmd_pack.t covers the commands.
local T = ...
local packfile = require "platter.packfile"
local cjson = require "cjson"

local function names(list)
  local out = {}
  for i, r in ipairs(list) do out[i] = r.name .. "@" .. r.line end
  return table.concat(out, " ")
end

T.test("requires: literal names in every call form, none from comments or strings", function()
  local found, dynamic = packfile.requires(table.concat({
    'local a = require "one"',
    "local b = require 'two' local c = require(\"three\")",
    "local d = require [[four]] local e = require ( 'five' )",
    "local f = require[==[six]==]",
    "-- require 'comment'",
    "--[[ require 'long comment'",
    "  require 'still comment' ]]",
    "--[==[ ]] require 'inner' ]==] local g = require 'seven'",
    "local s = \"require 'in a string'\" .. [[require 'long string']]",
    "local h = t.require 'field' local i = t:require 'method'",
    "local require = require local j = require(name) local k = require('a' .. x)",
    "local l = require 'with\\'escape'",
    "local m = require\"eight\" local n = 1.5e3 require 'nine.ten'",
  }, "\n"))
  T.eq(names(found), "one@1 two@2 three@2 four@3 five@3 six@4 seven@8 eight@13 nine.ten@13")
  T.eq(table.concat(dynamic, " "), "11 11 12", "the lines of computed names")
end)

T.test("requires: line numbers stay right after long strings and escaped line breaks", function()
  local found = packfile.requires("local s = [[\n\n\n]]\nlocal t = 'a\\\nb'\nrequire 'x'\n")
  T.eq(names(found), "x@7")
end)

T.test("module names map to members as require finds them", function()
  T.eq(table.concat(packfile.module_members("a.b"), " "), "a/b.lua a/b/init.lua")
  T.eq(table.concat(packfile.module_members("my-lib_2"), " "), "my-lib_2.lua my-lib_2/init.lua")
  for _, bad in ipairs({ "", ".a", "a.", "a..b", "a/b", "../x", "a b", "é" }) do
    T.eq(packfile.module_members(bad), nil, bad)
  end
  T.eq(packfile.module_name("a/b.lua"), "a.b")
  T.eq(packfile.module_name("a/init.lua"), "a")
  T.eq(packfile.module_name("x.y.lua"), nil, "a dot in a file name")
  T.ok(packfile.valid_name("a/b-c_d.e.lua"))
  for _, bad in ipairs({ "a.txt", "/a.lua", "a//b.lua", "../a.lua", ".a.lua", "a/.b.lua", "a b.lua" }) do
    T.ok(not packfile.valid_name(bad), bad)
  end
end)

local function members()
  return { { name = "lib.lua", text = "return 1\n" }, { name = "main.lua", text = "print(1)" },
    { name = "d/init.lua", text = "" } }
end

T.test("encode then parse: the same members, the entry first, every hash checked", function()
  local text = packfile.encode("main.lua", members())
  local pack = assert(packfile.parse(text, "x.platter"))
  T.eq(pack.format, 1)
  T.eq(pack.entry, "main.lua")
  T.eq(#pack.members, 3)
  T.eq(pack.members[1].name, "main.lua", "the entry is listed first")
  T.eq(pack.by_name["lib.lua"].text, "return 1\n")
  T.eq(pack.by_name["main.lua"].text, "print(1)", "a member without a final newline")
  T.eq(pack.by_name["d/init.lua"].text, "", "an empty member")
  T.eq(pack.sha256, platter.sha256(text), "the pack's sha256 is the whole file's")
  T.eq(pack.by_name["lib.lua"].sha256, platter.sha256("return 1\n"))
  T.eq(packfile.encode("main.lua", members()), text, "the same files give the same pack")
  T.ok(text:find("\n--- member lib.lua\nreturn 1\n\n", 1, true), "the code as it was")
end)

T.test("parse refuses each kind of damage with what is wrong", function()
  local good = packfile.encode("main.lua", members())
  local cases = {
    { good:gsub("return 1", "return 2"), "member lib.lua does not match its sha256" },
    { good:gsub("return 1", "return 10"), "member lib.lua is not the 9 bytes its header says" },
    { good:gsub("print%(1%)", "print(2)"):gsub("return 1", "return 2"),
      "members main.lua, lib.lua do not match their sha256" },
    { good:gsub("# A platter", "# a platter"), "its header or layout was altered" },
    { good:gsub("entry main.lua", "entry lib.lua"), "its header or layout was altered" },
    { good:gsub("entry main.lua", "entry other.lua"), "its entry other.lua is not one of its members" },
    { good:gsub("entry main.lua\n", ""), "no entry line" },
    { good:gsub("member lib.lua", "member ../lib.lua"), "line 8: '../lib.lua' cannot name a member" },
    { good:gsub("(member lib.lua[^\n]*\n)", "%1%1"), "line 9: member lib.lua twice" },
    { good:gsub("\n%-%-%- member lib.lua", "\n--- member lob.lua"), "member main.lua is not the 8 bytes" },
    { good:gsub("sha256 %x+\n$", ""), "does not end with one line 'sha256 HEX'" },
    { good .. "more\n", "does not end with one line 'sha256 HEX'" },
    { good:sub(1, 200), "cut short" },
    { good:sub(1, #good - 100), "cut short" },
    { good:gsub("^platter%-pack 1", "platter-pack 7"), "a pack of format 7; this platter reads format 1" },
    { "print('hi')\n", "not a platter pack" },
    { good:gsub("\n# A platter", "\nnonsense\n# A platter"), "line 2: not a header line" },
  }
  for i, c in ipairs(cases) do
    local pack, err = packfile.parse(c[1], "x.platter")
    T.eq(pack, nil, "case " .. i)
    T.eq(err:sub(1, 11), "x.platter: ", "case " .. i .. ": the pack's name first")
    T.has(err, c[2], "case " .. i)
  end
end)

-- Write a pack of members (name -> text) with entry main.lua; run it; out, err, rc.
local function run_pack(list, args, opts)
  local dir = T.tmpdir()
  local m = {}
  for _, e in ipairs(list) do m[#m + 1] = { name = e[1], text = e[2] } end
  T.write(dir .. "/t.platter", packfile.encode("main.lua", m))
  local argv = {}
  for _, a in ipairs(opts or {}) do argv[#argv + 1] = a end
  argv[#argv + 1] = "t.platter"
  for _, a in ipairs(args or {}) do argv[#argv + 1] = a end
  return T.platter(argv, { cwd = dir })
end

T.test("a member runs once, in the script's sandboxed environment", function()
  local out, err, rc = run_pack({
    { "main.lua", "shared = 'set by main'\nlocal a = require 'm'\nlocal b = require 'm'\n"
      .. "print(a == b, a.seen, count)\n" .. "print(pcall(function() return io end))\n" },
    { "m.lua", "count = (rawget(_G, 'count') or 0) + 1\nreturn { seen = shared }\n" },
  })
  T.eq(rc, 0, err)
  local first, second = out:match("^([^\n]*)\n([^\n]*)\n$")
  T.eq(first, "true\tset by main\t1")
  T.has(second, "false", "io is refused to a member too")
  T.has(second, "'io' is not available in the sandbox")
end)

T.test("a pack cannot replace platter's own modules or reach its internal ones", function()
  local out, err, rc = run_pack({
    { "main.lua", "local p = require 'platter'\nprint(type(p.open), p.fake)\n"
      .. "print(pcall(require, 'platter.core'))\n" },
    { "platter.lua", "return { fake = 'from the pack' }\n" },
    { "platter/core.lua", "return {}\n" },
  })
  T.eq(rc, 0, err)
  local first, second = out:match("^([^\n]*)\n([^\n]*)\n$")
  T.eq(first, "function\tnil", "require 'platter' is platter's")
  T.has(second, "an internal module, not available in the sandbox")
  out, err, rc = run_pack({
    { "main.lua", "print(require('platter').fake)\n" },
    { "platter.lua", "return { fake = 'from the pack' }\n" },
  }, {}, { "--trust" })
  T.eq(rc, 0, err)
  T.eq(out, "nil\n", "trusted, platter's own modules stay platter's too")
end)

T.test("a bytecode member is refused", function()
  local _, err, rc = run_pack({
    { "main.lua", "require 'b'\n" },
    { "b.lua", "\27LuaJ fake bytecode" },
  })
  T.eq(rc, 1)
  T.has(err, "t.platter: member b.lua is bytecode: a pack holds source text only")
end)

T.test("a loop of requires is an error, not a hang", function()
  local _, err, rc = run_pack({
    { "main.lua", "require 'a'\n" },
    { "a.lua", "local b = require 'b'\nreturn b\n" },
    { "b.lua", "local a = require 'a'\nreturn a\n" },
  })
  T.eq(rc, 1)
  T.has(err, "t.platter:b.lua:1: require 'a': a loop")
end)

T.test("--repeat: each repetition loads the members afresh, with its own globals", function()
  local out, err, rc = run_pack({
    { "main.lua", "print(require('m'))\n" },
    { "m.lua", "n = (rawget(_G, 'n') or 0) + 1\nreturn n\n" },
  }, {}, { "--repeat", "2", "--quiet" })
  T.eq(rc, 0, err)
  T.eq(out, "1\n1\n")
end)

T.test("the record's script section names the pack and its members", function()
  local dir = T.tmpdir()
  T.write(dir .. "/t.platter", packfile.encode("main.lua", {
    { name = "main.lua", text = "require 'x'\n" }, { name = "x.lua", text = "return 1\n" } }))
  local _, err, rc = T.platter({ "--json", "r.json", "t.platter" }, { cwd = dir })
  T.eq(rc, 0, err)
  local doc = cjson.decode(T.read(dir .. "/r.json"))
  local s = doc.script
  T.eq(s.kind, "pack")
  T.eq(s.sha256, platter.sha256(T.read(dir .. "/t.platter")))
  T.eq(s.text, T.read(dir .. "/t.platter"), "the whole pack, so that rerun can run it again")
  T.eq(s.pack.sha256, s.sha256)
  T.eq(s.pack.entry, "main.lua")
  T.eq(#s.pack.members, 2)
  T.eq(s.pack.members[2].name, "x.lua")
  T.eq(s.pack.members[2].sha256, platter.sha256("return 1\n"))
  T.eq(doc.schema_version, 3, "nothing incompatible")
end)

T.test("a refused pack still leaves a record: kind pack, the error, no pack section", function()
  local dir = T.tmpdir()
  local text = packfile.encode("main.lua", { { name = "main.lua", text = "print('ran')\n" } })
  T.write(dir .. "/t.platter", (text:gsub("print%('ran'%)", "print('RAN')")))
  local out, err, rc = T.platter({ "--json", "r.json", "t.platter" }, { cwd = dir })
  T.eq(rc, 1)
  T.eq(out, "", "nothing of it ran")
  T.has(err, "member main.lua does not match its sha256")
  local doc = cjson.decode(T.read(dir .. "/r.json"))
  T.eq(doc.script.kind, "pack")
  T.eq(doc.script.pack, nil)
  T.has(doc.status.message, "t.platter: member main.lua does not match its sha256")
end)
