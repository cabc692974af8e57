-- platter pack SCRIPT... [-o NAME.platter] [-m MODULE]... [-x MODULE]...: one plain-text
-- file holding a script and the Lua modules it requires from beside it (the format:
-- lua/platter/packfile.lua, docs/sharing.md). The first SCRIPT is the entry point;
-- the modules are found from the literal names of require calls, in the script and
-- in every module found, by the rule a pack's require follows when it runs:
-- require "a.b" is a/b.lua, else a/b/init.lua, under the entry script's directory.
-- Built-in command: runs trusted, arguments in `...`.
if select("#", ...) == 1 and (...) == "platter.cmd.pack" then
  error("platter.cmd.pack is the 'platter pack' command, not a module", 2)
end

local p = require "platter"
local core = require "platter.core"
local packfile = require "platter.packfile"

local format = string.format

local o = p.args({
  name = "pack",
  usage = "SCRIPT.lua [MORE.lua...] [-o NAME.platter] [-m MODULE]... [-x MODULE]...",
  summary = "Write one file holding a script and the Lua modules it requires from beside it.",
  options = {
    { "-o", "--output", arg = "NAME.platter", help = "the pack to write (default: the first "
      .. "script's name with .platter, in the current directory)" },
    { "-m", "--module", arg = "MODULE", multi = true, help = "also pack MODULE (one that is "
      .. "required by a computed name), found as require finds it" },
    { "-x", "--exclude", arg = "MODULE", multi = true, help = "leave MODULE out (one the "
      .. "receiver has installed, for a --trust run)" },
    { "--quiet", "-q", help = "print nothing but errors" },
  },
  positional = { { "script", arg = "SCRIPT.lua" } },
  rest = true,
  epilog = "Modules are found from require calls with a literal name (require \"mylib\",\n"
    .. "require(\"a.b\")): mylib.lua, else mylib/init.lua, in the first SCRIPT's\n"
    .. "directory (a.b: a/b.lua, else a/b/init.lua), then in the modules found, and so\n"
    .. "on. platter's own modules (platter, platter.args, cjson, ...) and Lua's libraries\n"
    .. "are not packed. A literal name that is none of these and has no file is an\n"
    .. "error. More SCRIPTs are packed too, by their path under the first one's\n"
    .. "directory. Run the pack with 'platter NAME.platter ARGS...'; check it with\n"
    .. "'platter verify NAME.platter'.",
}, ...)

local function fail(msg)
  p.ewrite("platter: pack: ", msg, "\n")
  p.exit(1)
end
local function note(...)
  if not (o.quiet or p.quiet) then p.ewrite("pack: ", ...) p.ewrite("\n") end
end

local function read(path)
  local r, kind = core._resolve(path)
  if not r then return nil, kind end
  if kind ~= "file" then return nil, kind == "new" and "No such file or directory" or "not a file" end
  local f, err = io.open(path, "rb")
  if not f then return nil, err end
  local text = f:read("*a")
  f:close()
  if text:sub(1, 1) == "\27" then return nil, "a bytecode chunk: a pack holds source text only" end
  return text
end

-- Names no pack holds: platter's own modules and Lua's own libraries.
local LUA_LIBS = { coroutine = true, debug = true, io = true, math = true, os = true,
  package = true, string = true, table = true, utf8 = true, bit = true, bit32 = true,
  ffi = true, jit = true }
local function builtin(name)
  return LUA_LIBS[name] or name:match("^jit%.") or package.preload[name] ~= nil
    or package.loaded[name] ~= nil
end

local entry_path = o.script
local dir, base = entry_path:match("^(.*)/([^/]*)$")
if not dir then dir, base = ".", entry_path end
if dir == "" then dir = "/" end
if not packfile.valid_name(base) then
  p.usage_error("pack", format("%s: a script's file name ends in .lua (letters, digits, _ - .)",
    entry_path))
end
local root = core._resolve(dir)
-- a member's file as the user names it
local function on_disk(name) return dir == "." and name or dir:gsub("/$", "") .. "/" .. name end
local out = o.output or base:gsub("%.lua$", "") .. ".platter"
if not out:match("[^/]%.platter$") then
  p.usage_error("pack", format("-o %s: a pack's name ends in .platter (platter runs it by that "
    .. "name)", out))
end
local exclude = {}
for _, x in ipairs(o.exclude) do exclude[x] = true end

local members, by_name = {}, {}
local function add(name, text, why)
  local m = { name = name, text = text, why = why }
  members[#members + 1] = m
  by_name[name] = m
  return m
end

local entry_text, err = read(entry_path)
if not entry_text then p.usage_error("pack", format("cannot read %s: %s", entry_path, err)) end
add(base, entry_text, "the entry script")

-- more SCRIPTs: named by their path under the entry's directory
for k = 2, #o do
  local path = o[k]
  local d, b = path:match("^(.*)/([^/]*)$")
  if not d then d, b = ".", path end
  local rd = core._resolve(d == "" and "/" or d)
  local rel = rd and root and (rd == root and "" or rd:sub(1, #root + 1) == root .. "/"
    and rd:sub(#root + 2) .. "/" or root == "/" and rd:sub(2) .. "/")
  if not rel then
    p.usage_error("pack", format("%s is not in %s's directory (%s) or below it: a member is "
      .. "named by its path there", path, entry_path, dir))
  end
  local name = rel .. b
  if not packfile.valid_name(name) then
    p.usage_error("pack", format("%s: a member's name is a path of words ending in .lua", path))
  end
  local text, why = read(path)
  if not text then p.usage_error("pack", format("cannot read %s: %s", path, why)) end
  if not by_name[name] then add(name, text, "named on the command line") end
end

-- the modules: from each member's literal requires, then those found, until none is new
local function find(name)
  for _, rel in ipairs(packfile.module_members(name) or {}) do
    local text, why = read(dir .. "/" .. rel)
    if text then return rel, text end
    if why ~= "No such file or directory" then
      fail(format("%s/%s: %s", dir, rel, why))
    end
  end
  return nil
end

local function missing(name, where)
  local c = packfile.module_members(name)
  if not c then
    fail(format("%srequire '%s': not a module name a pack can hold (words of letters, digits, "
      .. "_ and -, joined by dots)", where, name))
  end
  fail(format("%srequire '%s': no %s or %s beside %s (give -x %s to leave it out)", where, name,
    on_disk(c[1]), on_disk(c[2]), entry_path, name))
end

local wanted = {}
for _, name in ipairs(o.module) do
  if builtin(name) then fail(format("-m %s: one of platter's own modules or Lua's: not packed", name)) end
  wanted[#wanted + 1] = { name = name, why = "-m " .. name, where = format("-m %s: ", name) }
end
local scanned = 0
local seen = {}
while true do
  -- scan the members not scanned yet (the list grows while we go)
  while scanned < #members do
    scanned = scanned + 1
    local m = members[scanned]
    local found, dynamic = packfile.requires(m.text)
    for _, r in ipairs(found) do
      if not builtin(r.name) and not exclude[r.name] then
        wanted[#wanted + 1] = { name = r.name, why = format("require \"%s\" at %s:%d", r.name,
          m.name, r.line), where = format("%s:%d: ", on_disk(m.name), r.line) }
      end
    end
    for _, line in ipairs(dynamic) do
      note(format("%s:%d: a require with a computed name is not followed (name its module "
        .. "with -m MODULE)", on_disk(m.name), line))
    end
  end
  if #wanted == 0 then break end
  local w = table.remove(wanted, 1)
  if not seen[w.name] then
    seen[w.name] = true
    local rel, text = find(w.name)
    if not rel then missing(w.name, w.where) end
    if not by_name[rel] then add(rel, text, w.why) end
  end
end

if #members > packfile.MAX_MEMBERS then
  fail(format("%d members: a pack holds at most %d", #members, packfile.MAX_MEMBERS))
end
local pack = packfile.encode(base, members)
if #pack > packfile.MAX_BYTES then
  fail(format("%d bytes: a pack holds at most %d MiB", #pack, packfile.MAX_BYTES / 1048576))
end
local check, perr = packfile.parse(pack, out)
if not check then fail("the pack does not read back: " .. perr) end  -- never: a bug

local tmp = out .. ".tmp"
local f, ferr = io.open(tmp, "wb")
if not f then p.usage_error("pack", format("cannot write %s: %s", tmp, ferr)) end
local ok, werr = f:write(pack)
ok = ok and f:close()
if not ok then
  os.remove(tmp)
  fail(format("cannot write %s: %s", out, werr or "close failed"))
end
local rok, rerr = os.rename(tmp, out)
if not rok then
  os.remove(tmp)
  fail(format("cannot write %s: %s", out, rerr))
end

if not (o.quiet or p.quiet) then
  p.write(format("%s: %d member%s, %d bytes (platter-pack %d)\n", out, #members,
    #members == 1 and "" or "s", #pack, packfile.FORMAT))
  p.write(format("sha256 %s\n", check.sha256))
  local w = 0
  for _, m in ipairs(members) do w = math.max(w, #m.name) end
  for _, m in ipairs(members) do
    p.write(format("  %-" .. w .. "s %7d bytes  %s\n", m.name, #m.text, m.why))
  end
end
