-- platter.packfile: the pack format (docs/sharing.md, "Packs"): one plain-text
-- file holding a script and the Lua modules it requires, each member with its
-- size and sha256, and a sha256 over the whole content. Writes a pack
-- (platter pack), reads and checks one (platter verify, and the host before a
-- pack runs), and finds the modules a script requires by the literal names of
-- its require calls. Runs with platter's own rights only (a command, or the
-- host before the sandbox): a sandboxed script cannot require it.
local core = require "platter.core"

local format = string.format

local M = {}

M.MAGIC = "platter-pack"
M.FORMAT = 1           -- the format this platter writes and reads
M.MAX_BYTES = 64 * 1024 * 1024  -- a larger pack is refused
M.MAX_MEMBERS = 1000

local COMMENT = {
  "# A platter pack: a script and the Lua modules it requires, as plain text.",
  "# Run it with 'platter NAME.platter ARGS...'; check it with 'platter verify NAME.platter'.",
  "# The format is in platter's docs/sharing.md. Each member below is its file's bytes,",
  "# unchanged; editing one by hand breaks its sha256, and the pack is then refused.",
}

--- valid_name(s) -> true when s can name a member: a relative path of words
-- (letters, digits, _ - and inner dots, not starting with a dot), ending in .lua
function M.valid_name(s)
  if type(s) ~= "string" or #s > 255 or not s:match("%.lua$") then return false end
  for part in (s .. "/"):gmatch("(.-)/") do
    if part == "" or part:sub(1, 1) == "." or part:find("[^%w_.%-]") then return false end
  end
  return true
end

--- module_members(name) -> the member names require(name) looks for, in order
-- ("a.b" -> "a/b.lua", "a/b/init.lua"), or nil when name is not a plain module name
function M.module_members(name)
  if type(name) ~= "string" or #name > 200 or name:find("..", 1, true) then return nil end
  if not (name:match("^[%w_%-]+$") or name:match("^[%w_%-][%w_%.%-]*[%w_%-]$")) then return nil end
  local path = name:gsub("%.", "/")
  return { path .. ".lua", path .. "/init.lua" }
end

--- module_name(member) -> the name require uses for a member ("a/b.lua" -> "a.b",
-- "a/init.lua" -> "a"), or nil when no require name maps to it
function M.module_name(member)
  local path = member:gsub("/init%.lua$", ""):gsub("%.lua$", "")
  if path:find(".", 1, true) then return nil end  -- a dot in a file name: not reachable
  local name = path:gsub("/", ".")
  local c = M.module_members(name)
  return c and (c[1] == member or c[2] == member) and name or nil
end

-- {--- writing -------------------------------------------------------------------------

--- encode(entry, members) -> the pack's text. members: a list of { name, text }, the
-- entry among them; the entry is listed first, the others in the order given.
function M.encode(entry, members)
  local list = {}
  for _, m in ipairs(members) do
    if m.name == entry then table.insert(list, 1, m) else list[#list + 1] = m end
  end
  assert(list[1] and list[1].name == entry, "the entry is not a member")
  local out = { M.MAGIC .. " " .. M.FORMAT }
  for _, c in ipairs(COMMENT) do out[#out + 1] = c end
  out[#out + 1] = "entry " .. entry
  for _, m in ipairs(list) do
    out[#out + 1] = format("member %s %d %s", m.name, #m.text, core.sha256(m.text))
  end
  out[#out + 1] = ""
  for _, m in ipairs(list) do
    out[#out + 1] = "--- member " .. m.name
    out[#out + 1] = m.text
  end
  out[#out + 1] = "--- end"
  local body = table.concat(out, "\n") .. "\n"
  return body .. "sha256 " .. core.sha256(body) .. "\n"
end

-- }-------------------------------------------------------------------------------------

-- {--- reading -------------------------------------------------------------------------

--- parse(text, label) -> pack, or nil, message, pack so far (members read, each with
-- ok = whether its bytes match its sha256). label names the pack in messages. A pack:
-- { format, entry, members = { { name, size, sha256, text, ok } }, by_name,
--   content_sha256, sha256 (of the whole file, as sha256sum prints it), size }.
-- Every hash is checked: a member whose bytes do not match is named in the message.
function M.parse(text, label)
  local pack = { members = {}, by_name = {}, size = #text }
  local function fail(msg) return nil, label .. ": " .. msg, pack end
  if #text > M.MAX_BYTES then
    return fail(format("larger than %d MiB: not a pack platter reads", M.MAX_BYTES / 1048576))
  end
  pack.sha256 = core.sha256(text)
  local pos, lineno = 1, 0
  local function line()
    local nl = text:find("\n", pos, true)
    if not nl then return nil end
    local l = text:sub(pos, nl - 1)
    pos = nl + 1
    lineno = lineno + 1
    return l
  end
  local first = line()
  local version = first and first:match("^platter%-pack (%d+)$")
  if not version then
    return fail(format("not a platter pack (its first line is not '%s %d')", M.MAGIC, M.FORMAT))
  end
  pack.format = tonumber(version)
  if pack.format ~= M.FORMAT then
    return fail(format("a pack of format %d; this platter reads format %d", pack.format, M.FORMAT))
  end
  -- the header: comments, the entry, the members; an empty line ends it
  while true do
    local l = line()
    if not l then return fail("it is cut short (its header has no end)") end
    if l == "" then break end
    local name, size, sha = l:match("^member (%S+) (%d+) (%x+)$")
    if name then
      if not M.valid_name(name) then
        return fail(format("line %d: '%s' cannot name a member (a relative path ending in .lua)",
          lineno, name))
      end
      if pack.by_name[name] then return fail(format("line %d: member %s twice", lineno, name)) end
      if #sha ~= 64 then return fail(format("line %d: member %s: a sha256 has 64 hex digits", lineno, name)) end
      if #pack.members >= M.MAX_MEMBERS then return fail(format("more than %d members", M.MAX_MEMBERS)) end
      local m = { name = name, size = tonumber(size), sha256 = sha:lower() }
      pack.members[#pack.members + 1] = m
      pack.by_name[name] = m
    elseif l:match("^entry ") then
      if pack.entry then return fail(format("line %d: a second entry line", lineno)) end
      pack.entry = l:sub(7)
    elseif l:sub(1, 1) ~= "#" then
      return fail(format("line %d: not a header line (entry, member or # comment)", lineno))
    end
  end
  if not pack.entry then return fail("no entry line in its header") end
  if not pack.by_name[pack.entry] then
    return fail(format("its entry %s is not one of its members", pack.entry))
  end
  -- the members' bytes, each after its marker line, in header order
  local bad, before = {}, nil
  local function wrong_size(m)
    return fail(format("member %s is not the %d bytes its header says (the pack is damaged or "
      .. "was altered)", m.name, m.size))
  end
  for _, m in ipairs(pack.members) do
    local marker = line()
    if marker == nil then return fail(format("it is cut short (before member %s)", m.name)) end
    if marker ~= "--- member " .. m.name then
      if before then return wrong_size(before) end
      return fail(format("line %d: expected the line '--- member %s'", lineno, m.name))
    end
    if pos + m.size > #text then return fail(format("it is cut short (in member %s)", m.name)) end
    local body = text:sub(pos, pos + m.size - 1)
    if #body ~= m.size or text:sub(pos + m.size, pos + m.size) ~= "\n" then return wrong_size(m) end
    before = m
    m.text = body
    m.ok = core.sha256(body) == m.sha256
    if not m.ok then bad[#bad + 1] = m.name end
    local _, lines = body:gsub("\n", "")
    lineno = lineno + lines
    pos = pos + m.size + 1
    lineno = lineno + 1
  end
  if #bad > 0 then
    return fail(format("%s %s %s not match %s sha256 (the pack is damaged or was altered)",
      #bad == 1 and "member" or "members", table.concat(bad, ", "), #bad == 1 and "does" or "do",
      #bad == 1 and "its" or "their"))
  end
  for _, m in ipairs(pack.members) do
    if m.text:sub(1, 1) == "\27" then
      return fail(format("member %s is bytecode: a pack holds source text only", m.name))
    end
  end
  local last_marker = line()
  if last_marker == nil then return fail("it is cut short (before its end)") end
  if last_marker ~= "--- end" then return wrong_size(before) end
  local content = text:sub(1, pos - 1)
  local last = line()
  local sum = last and last:match("^sha256 (%x+)$")
  if not sum or pos <= #text then
    return fail("it does not end with one line 'sha256 HEX' after '--- end'")
  end
  pack.content_sha256 = sum:lower()
  if core.sha256(content) ~= pack.content_sha256 then
    return fail("its header or layout was altered (the content does not match its closing sha256)")
  end
  return pack
end

--- record(pack, name) -> what a result record keeps of a pack (docs/results.md)
function M.record(pack, name)
  local members = {}
  for i, m in ipairs(pack.members) do members[i] = { name = m.name, size = m.size, sha256 = m.sha256 } end
  return { name = name, sha256 = pack.sha256, format = pack.format, entry = pack.entry,
    members = members }
end

--- start(text, name, trusted) -> entry text, its chunk name, members (member name ->
-- text), the record's pack section. For the host (src/bind/host.c), before a pack
-- runs: the pack is checked first, and a damaged one raises (no position). Trusted,
-- require finds the members through package.preload; sandboxed, the host's require
-- serves them (sandbox_require).
function M.start(text, name, trusted)
  local pack, err = M.parse(text, name)
  if not pack then error(err, 0) end
  local members = {}
  for _, m in ipairs(pack.members) do members[m.name] = m.text end
  if trusted then  -- each name as require would find it: a/b.lua before a/b/init.lua
    for _, m in ipairs(pack.members) do
      local mod = M.module_name(m.name)
      local first = mod and M.module_members(mod)[1]
      local shadowed = mod and first ~= m.name and members[first]
      -- platter's own modules stay platter's, as in the sandbox
      if mod and not shadowed and package.preload[mod] == nil
          and package.loaded[mod] == nil then
        local chunk = "@" .. name .. ":" .. m.name
        package.preload[mod] = function(...)
          local fn = assert(load(m.text, chunk, "t"))
          return fn(...)
        end
      end
    end
  end
  return pack.by_name[pack.entry].text, "@" .. name .. ":" .. pack.entry, members,
    M.record(pack, name)
end

-- }-------------------------------------------------------------------------------------

-- {--- finding what a script requires --------------------------------------------------

-- The tokens of Lua source that matter here: names, strings (with their values when
-- plain) and single-character punctuation, each with its line. Comments, numbers and
-- whitespace are skipped, so a require inside a comment or a string is not one.
local function tokens(src)
  local list, i, n, line = {}, 1, #src, 1
  local function long_bracket(at)  -- [==[ ... ]==] at `at`: its end and its content
    local eq = src:match("^%[(=*)%[", at)
    if not eq then return nil end
    local open = at + #eq + 2
    local close = src:find("]" .. eq .. "]", open, true)
    local stop = close and close + #eq + 1 or n
    local body = src:sub(open, close and close - 1 or n)
    local _, nl = body:gsub("\n", "")
    return stop, body:gsub("^\r?\n", ""), nl
  end
  while i <= n do
    local c = src:sub(i, i)
    if c == "\n" then
      line = line + 1
      i = i + 1
    elseif c:match("%s") then
      i = i + 1
    elseif src:sub(i, i + 1) == "--" then
      local stop, _, nl = long_bracket(i + 2)
      if stop then
        line = line + nl
        i = stop + 1
      else
        local e = src:find("\n", i, true)
        i = e or n + 1
      end
    elseif c:match("[%a_]") then
      local w = src:match("^[%w_]+", i)
      list[#list + 1] = { kind = "name", value = w, line = line }
      i = i + #w
    elseif c:match("%d") or (c == "." and src:sub(i + 1, i + 1):match("%d")) then
      i = i + #src:match("^[%w%.]+", i)
    elseif c == '"' or c == "'" then
      local j, plain, start = i + 1, true, line
      while j <= n do
        local d = src:sub(j, j)
        if d == "\\" then
          plain = false
          if src:sub(j + 1, j + 1) == "\n" then line = line + 1 end
          j = j + 2
        elseif d == c or d == "\n" then
          break
        else
          j = j + 1
        end
      end
      list[#list + 1] = { kind = "string", value = plain and src:sub(i + 1, j - 1) or nil, line = start }
      i = j + 1
    elseif c == "[" and long_bracket(i) then
      local stop, body, nl = long_bracket(i)
      list[#list + 1] = { kind = "string", value = body, line = line }
      line = line + nl
      i = stop + 1
    else
      list[#list + 1] = { kind = "op", value = c, line = line }
      i = i + 1
    end
  end
  return list
end

--- requires(src) -> the literal module names src requires, each { name, line } in
-- order of appearance, and the lines of require calls with a computed name. A call is
-- require "x", require 'x', require [[x]] or require("x") with the name `require`
-- (not a field such as t.require).
function M.requires(src)
  local t, found, dynamic = tokens(src), {}, {}
  for k, tok in ipairs(t) do
    local before = t[k - 1]
    if tok.kind == "name" and tok.value == "require" and not (before and before.kind == "op"
        and (before.value == "." or before.value == ":")) and not (before and before.kind == "name"
        and (before.value == "function" or before.value == "local")) then
      local a, b, c = t[k + 1], t[k + 2], t[k + 3]
      if a and a.kind == "string" then
        if a.value then found[#found + 1] = { name = a.value, line = tok.line }
        else dynamic[#dynamic + 1] = tok.line end
      elseif a and a.kind == "op" and a.value == "(" then
        if b and b.kind == "string" and b.value and c and c.kind == "op" and c.value == ")" then
          found[#found + 1] = { name = b.value, line = tok.line }
        else
          dynamic[#dynamic + 1] = tok.line
        end
      end
    end
  end
  return found, dynamic
end

-- }-------------------------------------------------------------------------------------

return M
