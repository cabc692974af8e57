-- What a sandboxed script can reach of platter's own state: p.config is a
-- read-only view, the result writer reads platter's private copy, and the host
-- hooks and platter.core stay out of reach. (The sandbox's path and library
-- rules are in test_sandbox.lua.)
local T = ...
local cjson = require "cjson"

local write, read = T.write, T.read

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
print(core._script().text == "forged", core._script().name)
local c = core._config()
c.json, c.argv[1] = "evil.json", "forged"
print(core._config().json, core._config().argv[1] == "forged", core._config() ~= core._config())
]] }, { cwd = T.tmpdir() })
  T.eq(rc, 0, "status (" .. err .. ")")
  T.eq(out, "false\t-e\nr.json\tfalse\ttrue\n", "fresh copies every call")
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
print("recorder", pcall(require, "platter.recorder"))
print("resultfile", pcall(require, "platter.resultfile"))
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
  T.has(out, "recorder\tfalse\t", "platter.recorder refused")
  T.has(out, "resultfile\tfalse\t", "platter.resultfile refused")
  T.has(out, "package\tfalse\t", "no package (and so no package.loaded)")
  T.has(out, "registry\tfalse\t", "no debug (and so no registry)")
  local doc = cjson.decode((assert(read(d .. "/r.json"), "the exit hook still wrote r.json")))
  T.eq(doc.phases[1].name, "kept", "the record holds the phase")
end)

-- }------------------------------------------------------------------------------

-- {--- text the script controls, in the CSV and the JSON ------------------------------

-- A strict RFC 4180 reader: rows of { fields = {...}, quoted = {bool...} }. A quote
-- inside an unquoted field, or anything but a comma or a line break after a closing
-- quote, is an error.
local function csv_read(s)
  local rows, row, quoted, i, n = {}, {}, {}, 1, #s
  while i <= n do
    local val, q
    if s:sub(i, i) == '"' then
      local buf = {}
      i = i + 1
      while true do
        local j = s:find('"', i, true)
        if not j then error("unterminated quoted field") end
        buf[#buf + 1] = s:sub(i, j - 1)
        if s:sub(j + 1, j + 1) == '"' then
          buf[#buf + 1] = '"'
          i = j + 2
        else
          i = j + 1
          break
        end
      end
      val, q = table.concat(buf), true
    else
      local j = s:find('[,\r\n"]', i) or n + 1
      if s:sub(j, j) == '"' then error("a quote inside an unquoted field at byte " .. j) end
      val, q = s:sub(i, j - 1), false
      i = j
    end
    row[#row + 1], quoted[#row + 1] = val, q
    local c = s:sub(i, i)
    if c == "," then
      i = i + 1
    elseif c == "\r" or c == "\n" or c == "" then
      i = i + (s:sub(i, i + 1) == "\r\n" and 2 or 1)
      rows[#rows + 1] = { fields = row, quoted = quoted }
      row, quoted = {}, {}
    else
      error(string.format("%q after a field at byte %d", c, i))
    end
  end
  if #row > 0 then rows[#rows + 1] = { fields = row, quoted = quoted } end
  return rows
end

T.test("the RFC 4180 reader of these tests reads what it should and refuses the rest",
  function()
  local rows = csv_read('a,"b,""c""",\r\n"x\ny",2\n')
  T.eq(#rows, 2, "rows")
  T.eq(rows[1].fields[2], 'b,"c"', "doubled quotes")
  T.eq(rows[1].fields[3], "", "empty last field")
  T.eq(rows[2].fields[1], "x\ny", "line break inside quotes")
  T.eq(rows[2].quoted[1], true, "quoted")
  T.eq(rows[2].quoted[2], false, "bare")
  T.raises(function() csv_read('a"b,c\n') end, "a quote inside an unquoted field")
  T.raises(function() csv_read('"ab"c\n') end, "after a field")
end)

-- names a script may give its phases: separators, quotes, line breaks, and the
-- leading characters spreadsheets take for formulas
local NAMES = { "a,b", 'say "hi"', "two\nlines", "cr\rlf\r\n", "=SUM(A1:A2)", "|calc",
  "+1", "-2", "@x", " padded ", '"', ",", "tab\there", "last" }

T.test("CSV and JSON: phase names a script chose come back exactly, every text field quoted",
  function()
  local d = T.tmpdir()
  local list = {}
  for i, s in ipairs(NAMES) do list[i] = string.format("%q", s):gsub("\\\n", "\\n") end
  write(d .. "/names.lua", "local p = require 'platter'\nlocal names = { "
    .. table.concat(list, ", ") .. [[ }
local f = assert(p.open("c.dat", { create = true, write = true, size = "64k" }))
f:pwrite(0, 65536)
for _, n in ipairs(names) do p.phase(n, function() f:pread(0, 4096) end) end
f:close()
]])
  local _, err, rc = T.platter({ "--json", "r.json", "--csv", "r.csv", "names.lua" }, { cwd = d })
  T.eq(rc, 0, "status (" .. err .. ")")
  local text = assert(read(d .. "/r.csv"), "r.csv written")
  local rows = csv_read(text)
  local resultfile = require "platter.resultfile"
  T.eq(#rows, #NAMES + 1, "a header and one row per phase")
  local col = {}
  for i, c in ipairs(rows[1].fields) do col[c] = i end
  T.eq(#rows[1].fields, #resultfile.CSV_COLUMNS, "header width")
  for i, want in ipairs(NAMES) do
    local r = rows[i + 1]
    T.eq(#r.fields, #resultfile.CSV_COLUMNS, "row " .. i .. " width")
    T.eq(r.fields[col.name], want, "row " .. i .. " name")
    T.eq(r.quoted[col.name], true, "row " .. i .. " name quoted")
    T.eq(r.fields[col.kind], "phase", "row " .. i .. " kind")
    T.eq(r.quoted[col.kind], true, "row " .. i .. " kind quoted")
    T.eq(r.fields[col.seq], tostring(i), "row " .. i .. " seq")
    T.eq(r.quoted[col.ops], false, "row " .. i .. " numbers bare")
  end

  local json = assert(read(d .. "/r.json"), "r.json written")
  T.ok(not json:find("[%z\1-\31]"), "no raw control character in the JSON text")
  local doc = cjson.decode(json)
  for i, want in ipairs(NAMES) do T.eq(doc.phases[i].name, want, "JSON phases[" .. i .. "].name") end
  -- the cache warning quotes a phase name: it reaches the record as text, escaped
  T.ok(type(doc.warnings) == "table" and #doc.warnings == 1, "one cache warning")
  T.has(doc.warnings[1], "phase 'a,b' used c.dat", "the warning names the phase exactly")
end)

-- }------------------------------------------------------------------------------

-- {--- platter rerun: what a record grants -----------------------------------------

T.test("rerun: a recorded block device is listed read only, read-write only with --destroy",
  function()
  local dev = T.sh("find /dev -maxdepth 1 -type b 2>/dev/null | sort | head -n 1"):match("[^\n]+")
  if not dev then T.skip("no block device under /dev") end
  local d = T.tmpdir()
  local _, err, rc = T.platter({ "--json", "r.json", "-e", "print(1)" }, { cwd = d })
  T.eq(rc, 0, "status (" .. err .. ")")
  local doc = cjson.decode((assert(read(d .. "/r.json"))))
  doc.args = { dev }
  write(d .. "/dev.json", cjson.encode(doc))
  local _, err1, rc1 = T.platter({ "rerun", "-n", "dev.json" }, { cwd = d })
  T.eq(rc1, 0, "--dry-run status (" .. err1 .. ")")
  T.has(err1, "rerun:   " .. dev .. ": a block device, read only (writing needs --destroy)  "
    .. "[not named again]", "read only")
  T.has(err1, "name it again after RESULT.json (platter rerun dev.json " .. dev .. ")",
    "what to name")
  local _, err2 = T.platter({ "rerun", "-n", "--destroy", "dev.json", dev }, { cwd = d })
  T.has(err2, "rerun:   " .. dev .. ": a block device, read-write (--destroy: it may be "
    .. "overwritten)\n", "read-write with --destroy, named again")
  T.ok(not err2:find("a real run would stop here", 1, true), "nothing missing")
  local _, err3, rc3 = T.platter({ "rerun", "dev.json" }, { cwd = d })
  T.eq(rc3, 2, "refused without naming it")
  T.has(err3, "--grant-recorded", "the flag is named")
end)

T.test("rerun: a forged argument cannot forge the listing (control characters are escaped)",
  function()
  local d = T.tmpdir()
  local _, err, rc = T.platter({ "--json", "r.json", "-e", "print(1)" }, { cwd = d })
  T.eq(rc, 0, "status (" .. err .. ")")
  local doc = cjson.decode((assert(read(d .. "/r.json"))))
  doc.args = { "/etc\nrerun: nothing is granted", "/\27[2Jx" }
  write(d .. "/f.json", cjson.encode(doc))
  local _, err1, rc1 = T.platter({ "rerun", "f.json" }, { cwd = d })
  T.eq(rc1, 2, "refused")
  T.ok(not err1:find("\nrerun: nothing", 1, true), "no line of the record's making")
  T.ok(not err1:find("\27", 1, true), "no raw escape character")
  T.has(err1, "'/\\027[2Jx'", "shown escaped")
  doc.args = { "a\0/etc" }
  write(d .. "/nul.json", cjson.encode(doc))
  local _, err2, rc2 = T.platter({ "rerun", "--grant-recorded", "nul.json" }, { cwd = d })
  T.eq(rc2, 1, "a NUL byte is refused")
  T.has(err2, "nul.json: args[1] holds a NUL byte: refused", "its message")
end)

-- }------------------------------------------------------------------------------

T.test("a script cannot reach the stats metatable, so it cannot forge the record's figures",
  function()
  local d = T.tmpdir()
  write(d .. "/s.lua", [[
local p = require "platter"
local s = p.phase("first", function() end)
local mt = getmetatable(s)
print(type(mt), mt)
if type(mt) == "table" then  -- what a script could do with the real metatable
  mt.methods.percentile = function() return 42 end
  local index = mt.__index
  mt.__index = function(o, k) if k == "ops" then return 1e6 end return index(o, k) end
end
p.phase("second", function() end)
]])
  local out, err, rc = T.platter({ "--json", "r.json", "s.lua" }, { cwd = d })
  T.eq(rc, 0, "status (" .. err .. ")")
  T.eq(out, "string\tplatter.stats\n", "getmetatable gives the type name")
  local doc = cjson.decode((assert(read(d .. "/r.json"))))
  T.eq(doc.phases[2].name, "second", "second phase")
  T.eq(doc.phases[2].ops, 0, "ops as measured")
  T.eq(doc.phases[2].lat_ns.p99, 0, "p99 as measured")
end)

T.test("rewriting the statmath or cjson a script can require does not change the record",
  function()
  local d = T.tmpdir()
  write(d .. "/s.lua", [[
local p = require "platter"
local sm, cj = require "platter.statmath", require "cjson"
sm.summary = function() return { n = 1, mean = 123456789 } end
sm.hist_merge_list = function() return { { 1, 2, 999 } } end
cj.new = function()
  return { encode_number_precision = function() end,
           encode = function() return '{"forged":true}' end }
end
cj.encode = cj.new().encode
p.phase("x", function() end)
]])
  local _, err, rc = T.platter({ "--json", "r.json", "s.lua" }, { cwd = d })
  T.eq(rc, 0, "status (" .. err .. ")")
  local doc = cjson.decode((assert(read(d .. "/r.json"))))
  T.eq(doc.forged, nil, "the record is platter's, not the script's encoder's")
  T.eq(doc.phases[1].name, "x", "the phase")
  T.eq(doc.summary[1].figures.iops.mean, doc.phases[1].iops, "the summary's own mean")
  T.eq(#doc.summary[1].hist, 0, "the summary's own (empty) histogram")
end)
