-- platter.args: a small argument parser that accepts the flag styles of the
-- tools platter imitates: "-s 100", "-s100", "-tT", "--offset 2",
-- "--offset=2", "-html" and dd's "key=value"; prints per-workload --help.
local core = require "platter.core"

local M = {}

local function usage_error(spec, msg)
  local name = type(spec) == "table" and spec.name or spec or "script"
  error({ platter_usage = string.format("%s: %s\nTry 'platter %s --help'.", name, msg, name) }, 0)
end

-- The field an option is stored under: long name, else dd key, else short name.
local function key_of(opt)
  if opt.key then return opt.key end
  local best
  for _, n in ipairs(opt) do
    local long = n:match("^%-%-(.+)$")
    local dd = n:match("^([%w_]+)=$")
    local short = n:match("^%-(.+)$")
    if long then return (long:gsub("%-", "_")) end
    best = best or dd or short
  end
  return best and (best:gsub("%-", "_"))
end

-- platter's own options (src/main.c), true when they take a value. Given after
-- the workload name, one the workload does not define gets a hint rather than
-- being honoured: they take effect before the script's first line (--sim
-- starts the virtual clock, --json/--csv start the result keeper before the
-- sandbox closes, --seed seeds the generator), so a workload parsing its
-- arguments is too late for them; and --trust or --destroy read from a
-- script's own arguments would let a script grant itself what the sandbox
-- keeps from it (docs/sandbox.md).
local GLOBAL = {
  ["--trust"] = false, ["--destroy"] = false, ["--quiet"] = false, ["--verbose"] = false,
  ["--seed"] = true, ["--json"] = true, ["--csv"] = true, ["--repeat"] = true, ["--ci"] = true,
  ["--sim"] = true, ["--max-memory"] = true, ["--lua-dir"] = true, ["--interval"] = true,
  ["--target"] = true,
}

local function unknown_option(spec, name, value)
  if GLOBAL[name] ~= nil then
    local given = name
    if GLOBAL[name] then given = name .. " " .. (value or "...") end
    usage_error(spec, string.format("%s is a global option: put it before the workload name " ..
      "(platter %s %s ...)", name, given, type(spec) == "table" and spec.name or "script"))
  end
  usage_error(spec, "unknown option '" .. name .. "'")
end

local converters = {
  string = function(v) return v end,
  size = function(v)
    local n, why = core.parse_size(v)
    if not n then return nil, why end
    return n
  end,
  time = function(v)
    local n, why = core.parse_time(v)
    if not n then return nil, why end
    return n
  end,
  number = function(v)
    local n = tonumber(v)
    if not n then return nil, "not a number" end
    return n
  end,
  int = function(v)
    local n = tonumber(v)
    if not n or n ~= math.floor(n) then return nil, "not an integer" end
    return n
  end,
}

local function convert(spec, opt, name, v)
  local conv = converters[opt.type or "string"]
  if not conv then error("args: unknown type '" .. tostring(opt.type) .. "'", 3) end
  local out, why = conv(v)
  if out == nil then
    usage_error(spec, string.format("bad value '%s' for %s: %s", v, name, why))
  end
  if opt.choices then
    local ok = false
    for _, c in ipairs(opt.choices) do ok = ok or c == out end
    if not ok then
      usage_error(spec, string.format("bad value '%s' for %s: expected one of %s", v, name,
        table.concat(opt.choices, ", ")))
    end
  end
  return out
end

local function help_text(spec)
  local lines = {}
  local name = spec.name or "script"
  lines[#lines + 1] = string.format("usage: platter %s %s", name, spec.usage or "[options]")
  if spec.summary then lines[#lines + 1] = spec.summary end
  local rows, width = {}, 0
  for _, opt in ipairs(spec.options or {}) do
    if not opt.unsupported then  -- not in the help
      local names = {}
      for _, n in ipairs(opt) do names[#names + 1] = n end
      local left = table.concat(names, ", ")
      if opt.arg then
        left = left .. (left:sub(-1) == "=" and "" or " ") .. opt.arg
      end
      local help = opt.help or ""
      if opt.default ~= nil and opt.default ~= false then
        help = help .. string.format(" (default %s)", tostring(opt.default))
      end
      rows[#rows + 1] = { left, help }
      if #left > width then width = #left end
    end
  end
  if #rows > 0 then
    lines[#lines + 1] = ""
    lines[#lines + 1] = "options:"
    for _, r in ipairs(rows) do
      lines[#lines + 1] = string.format("  %-" .. width .. "s  %s", r[1], r[2])
    end
  end
  if spec.epilog then
    lines[#lines + 1] = ""
    lines[#lines + 1] = spec.epilog
  end
  return table.concat(lines, "\n") .. "\n"
end
M.help_text = help_text
M.usage_error = usage_error

-- Set by 'platter complete' (platter.cmd.complete) alone: parse then parses
-- nothing and raises { platter_spec = spec }, so that a workload's own spec
-- (its first p.args call) is what the completion and the man pages read. A
-- script that sets it only stops its own p.args calls.
M.describe_only = false

-- What is wrong with a spec (the script's own mistake), or nil: named by its field, so
-- that the error is one at the script's p.args line and never one from inside here.
local TYPES = "\"string\", \"size\", \"time\", \"number\" or \"int\""
local function entry_problem(e, where, positional)
  if type(e) ~= "table" then return where .. ": a table expected, got " .. type(e) end
  if #e == 0 then return where .. ": no name" end
  for j = 1, #e do
    local n = e[j]
    if type(n) ~= "string" or (not positional and not (n:match("^%-.") or n:match("^[%w_]+=$"))) then
      return string.format("%s[%d]: %s expected, got %s", where, j, positional and "a name"
        or "a name such as \"-s\", \"--size\" or \"bs=\"", type(n) == "string" and ("'" .. n .. "'") or type(n))
    end
  end
  for _, kw in ipairs { { "arg", "string" }, { "help", "string" }, { "key", "string" },
      { "multi", "boolean" }, { "count", "boolean" }, { "optional", "boolean" },
      { "unsupported", "string" } } do
    local k, want = kw[1], kw[2]
    if e[k] ~= nil and type(e[k]) ~= want then
      return string.format("%s.%s: a %s expected, got %s", where, k, want, type(e[k]))
    end
  end
  if e.type ~= nil and not converters[e.type] then
    return string.format("%s.type: %s expected, got %s", where, TYPES,
      type(e.type) == "string" and ("'" .. e.type .. "'") or type(e.type))
  end
  if e.choices ~= nil then
    if type(e.choices) ~= "table" then
      return where .. ".choices: a list expected, got " .. type(e.choices)
    end
    for j, c in ipairs(e.choices) do
      if type(c) ~= "string" and type(c) ~= "number" then
        return string.format("%s.choices[%d]: a string or number expected, got %s", where, j, type(c))
      end
    end
  end
end

local function spec_problem(spec)
  for _, k in ipairs { "name", "usage", "summary", "epilog", "help_text" } do
    if spec[k] ~= nil and type(spec[k]) ~= "string" then
      return string.format("%s: a string expected, got %s", k, type(spec[k]))
    end
  end
  for _, k in ipairs { "rest", "keyvalue", "long_only" } do
    if spec[k] ~= nil and type(spec[k]) ~= "boolean" then
      return string.format("%s: a boolean expected, got %s", k, type(spec[k]))
    end
  end
  for _, k in ipairs { "options", "positional" } do
    local list = spec[k]
    if list ~= nil and type(list) ~= "table" then
      return string.format("%s: a list of entries expected, got %s", k, type(list))
    end
    for i, e in ipairs(list or {}) do
      local why = entry_problem(e, string.format("%s[%d]", k, i), k == "positional")
      if why then return why end
    end
  end
end

--- parse(spec, ...) -> table of options (and positionals in order at [1..n])
function M.parse(spec, ...)
  if type(spec) ~= "table" then
    error("bad argument #1 to 'args' (table expected, got " .. type(spec) .. ")", 2)
  end
  local why = spec_problem(spec)
  if why then error("bad argument #1 to 'args' (" .. why .. ")", 2) end
  if M.describe_only then error({ platter_spec = spec }, 0) end
  local argv = { ... }
  local by_name, out = {}, {}
  for _, opt in ipairs(spec.options or {}) do
    opt.key = key_of(opt)
    for _, n in ipairs(opt) do by_name[n] = opt end
    if opt.multi then
      out[opt.key] = {}
    elseif opt.arg then
      if opt.default ~= nil then
        out[opt.key] = type(opt.default) == "string" and convert(spec, opt, opt[1], opt.default)
          or opt.default
      end
    else
      out[opt.key] = opt.count and 0 or false
    end
  end

  local function set(opt, name, value)
    if opt.unsupported then
      usage_error(spec, string.format("option '%s' is not supported by platter's %s: %s", name,
        spec.name or "script", opt.unsupported))
    end
    if opt.arg then
      local v = convert(spec, opt, name, value)
      if opt.multi then
        local list = out[opt.key]
        list[#list + 1] = v
      else
        out[opt.key] = v
      end
    elseif opt.count then
      out[opt.key] = out[opt.key] + 1
    else
      out[opt.key] = true
    end
  end

  local i, positional = 1, {}
  local function take_value(name)
    i = i + 1
    if argv[i] == nil then usage_error(spec, "option '" .. name .. "' needs a value") end
    return argv[i]
  end

  -- "-s100" or bundled flags "-tT"
  local function short_options(a)
    local k = 2
    while k <= #a do
      local name = "-" .. a:sub(k, k)
      local opt = by_name[name]
      if not opt then
        usage_error(spec, "unknown option '" .. (k == 2 and a or name) .. "'")
      end
      if opt.arg then
        local rest = a:sub(k + 1)
        set(opt, name, rest ~= "" and rest or take_value(name))
        break
      end
      set(opt, name)
      k = k + 1
    end
  end

  -- long_only (getopt_long_only, as ioping parses): "-count 2", "-count=2" and a unique
  -- abbreviation "-cou" name the long option; a single short letter stays short, and a
  -- word that names no long option is short options. The long option, or nil.
  local longs = {}
  for _, opt in ipairs(spec.options or {}) do
    for _, n in ipairs(opt) do
      local long = n:match("^%-%-(.+)$")
      if long then longs[#longs + 1] = { long, opt } end
    end
  end
  if not by_name["--help"] then longs[#longs + 1] = { "help", "help" } end
  local function long_only(a, name)
    local exact, found, seen = nil, {}, {}
    for _, l in ipairs(longs) do
      if l[1] == name then exact = l end
      if l[1]:sub(1, #name) == name and not seen[l[2]] then
        seen[l[2]] = true
        found[#found + 1] = l
      end
    end
    if exact then return exact end
    if #found > 1 then
      local names = {}
      for _, l in ipairs(found) do names[#names + 1] = "'-" .. l[1] .. "'" end
      usage_error(spec, string.format("option '%s' is ambiguous; possibilities: %s", a,
        table.concat(names, " ")))
    end
    return found[1]
  end

  while i <= #argv do
    local a = argv[i]
    local opt = by_name[a]
    if a == "--" then
      for k = i + 1, #argv do positional[#positional + 1] = argv[k] end
      break
    elseif opt and a:sub(-1) == "=" then
      set(opt, a, "")  -- dd's "if=" with an empty value: never take the next word
    elseif opt then
      set(opt, a, opt.arg and take_value(a) or nil)
    elseif (a == "--help" or a == "-h") and not by_name[a] then
      core.write(spec.help_text or help_text(spec))
      core.exit(0)
    elseif a:match("^%-%-[^=]+=") then
      local name, value = a:match("^(%-%-[^=]+)=(.*)$")
      opt = by_name[name]
      if not opt then unknown_option(spec, name, value) end
      if not opt.arg then usage_error(spec, "option '" .. name .. "' takes no value") end
      set(opt, name, value)
    elseif a:match("^[%w_]+=") and by_name[a:match("^([%w_]+=)")] then
      local name, value = a:match("^([%w_]+=)(.*)$")
      set(by_name[name], name, value)
    elseif a:match("^%-%-") then
      unknown_option(spec, a, argv[i + 1])
    elseif a:match("^%-.") and not tonumber(a) then
      local word, value = a:sub(2), nil
      if word:find("=", 1, true) then word, value = word:match("^([^=]*)=(.*)$") end
      local long = spec.long_only and (#a > 2 or not by_name[a]) and word ~= ""
        and long_only(a, word)
      if long and long[2] == "help" then
        core.write(spec.help_text or help_text(spec))
        core.exit(0)
      elseif long then
        opt = long[2]
        if opt.arg then
          set(opt, "-" .. word, value or take_value("-" .. word))
        elseif value then
          usage_error(spec, "option '-" .. long[1] .. "' takes no value")
        else
          set(opt, "-" .. word)
        end
      else
        short_options(a)
      end
    elseif a:match("^[%w_]+=") and spec.keyvalue then
      usage_error(spec, "unknown operand '" .. a:match("^([%w_]+)=") .. "'")
    else
      positional[#positional + 1] = a
    end
    i = i + 1
  end

  local pspec = spec.positional or {}
  for k, p in ipairs(pspec) do
    local v = positional[k]
    if v == nil and not p.optional then
      usage_error(spec, "missing " .. (p.arg or p[1]))
    end
    if v ~= nil then out[p[1]] = convert(spec, p, p.arg or p[1], v)
    elseif p.default ~= nil then out[p[1]] = p.default end
  end
  if #positional > #pspec and not spec.rest then
    usage_error(spec, "unexpected argument '" .. positional[#pspec + 1] .. "'")
  end
  for k, v in ipairs(positional) do out[k] = v end
  return out
end

return M
