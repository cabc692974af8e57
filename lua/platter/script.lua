-- platter.script: a script's manifest, p.script{...} (docs/api.md, "Script
-- manifests: p.script"). It checks the manifest, refuses an api this platter
-- does not speak, turns the typed params into a platter.args spec (so the
-- flag styles and the global-option hints are p.args's), checks ranges, and
-- returns the parsed values. The help text is generated from the manifest.
local core = require "platter.core"
local args = require "platter.args"

local M = {}

-- the api versions this platter runs
M.APIS = { "platter/1" }

local TYPES = { size = true, int = true, number = true, time = true, enum = true, bool = true,
  string = true, path = true }
local TYPE_LIST = "size, int, number, time, enum, bool, string, path"
local KEYS = { name = "string", version = "string", api = "string", description = "string",
  params = "table", needs = "table", usage = "string", epilog = "string", args = "string" }
local PARAM_KEYS = { type = "string", default = true, min = true, max = true, values = "table",
  help = "string", positional = true, required = "boolean", short = "string", arg = "string",
  flag = "string" }
local NEEDS_KEYS = { write = "boolean", device = "string", root = "boolean" }
local DEVICES = { block = true, file = true, any = true }
local METAVAR = { size = "SIZE", int = "N", number = "NUM", time = "TIME", string = "STRING",
  path = "PATH" }


local function bad(key, msg)
  error({ manifest_error = string.format("p.script: %s: %s", key, msg) }, 0)
end

local function check_keys(t, allowed, where)
  for k, v in pairs(t) do
    local want = allowed[k]
    local key = where .. tostring(k)
    if type(k) ~= "string" or want == nil then bad(key, "unknown key") end
    if want ~= true and type(v) ~= want then
      bad(key, string.format("%s expected, got %s", want, type(v)))
    end
  end
end

-- a number from a manifest's min/max/default: sizes and times may be strings
local function number_of(ptype, v, key)
  if ptype == "size" or ptype == "time" then
    if type(v) == "string" then
      local n, why = (ptype == "size" and core.parse_size or core.parse_time)(v)
      if not n then bad(key, string.format("'%s': %s", v, why)) end
      return n
    end
  end
  if type(v) ~= "number" then bad(key, "number expected, got " .. type(v)) end
  if ptype == "int" and v ~= math.floor(v) then bad(key, "integer expected") end
  return v
end

local function check_param(name, p)
  local where = "params." .. name
  if type(name) ~= "string" or not name:match("^[%a][%w_]*$") then
    bad("params." .. tostring(name), "a parameter name is a word of letters, digits and '_'")
  end
  if type(p) ~= "table" then bad(where, "table expected, got " .. type(p)) end
  check_keys(p, PARAM_KEYS, where .. ".")
  if p.type == nil then bad(where .. ".type", "missing (one of " .. TYPE_LIST .. ")") end
  if not TYPES[p.type] then
    bad(where .. ".type", string.format("unknown type '%s' (one of %s)", p.type, TYPE_LIST))
  end
  local q = { name = name, type = p.type, help = p.help, required = p.required or nil,
    short = p.short, arg = p.arg, flag = p.flag }
  if p.positional ~= nil and p.positional ~= true
    and (type(p.positional) ~= "number" or p.positional < 1 or p.positional ~= math.floor(p.positional)) then
    bad(where .. ".positional", "true or a position (1, 2, ...) expected")
  end
  q.positional = p.positional
  if p.short ~= nil and not p.short:match("^%w$") then
    bad(where .. ".short", "one letter or digit expected (\"n\" for -n)")
  end
  if p.type == "enum" then
    if type(p.values) ~= "table" or #p.values == 0 then
      bad(where .. ".values", "an enum needs a list of values")
    end
    for i, v in ipairs(p.values) do
      if type(v) ~= "string" then bad(where .. ".values[" .. i .. "]", "string expected") end
    end
    q.values = p.values
  elseif p.values ~= nil then
    bad(where .. ".values", "only an enum has values")
  end
  local ranged = p.type == "size" or p.type == "time" or p.type == "int" or p.type == "number"
  for _, k in ipairs({ "min", "max" }) do
    if p[k] ~= nil then
      if not ranged then bad(where .. "." .. k, "only a size, int, number or time has a range") end
      q[k] = number_of(p.type, p[k], where .. "." .. k)
      q[k .. "_text"] = tostring(p[k])
      q[k .. "_given"] = p[k]
    end
  end
  if p.default ~= nil then
    local d = p.default
    local key = where .. ".default"
    if ranged then
      q.default = number_of(p.type, d, key)
    elseif p.type == "bool" then
      if type(d) ~= "boolean" then bad(key, "boolean expected, got " .. type(d)) end
      q.default = d
    else
      if type(d) ~= "string" then bad(key, "string expected, got " .. type(d)) end
      if p.type == "enum" then
        local ok = false
        for _, v in ipairs(p.values) do ok = ok or v == d end
        if not ok then bad(key, string.format("'%s' is not one of its values", d)) end
      end
      q.default = d
    end
    q.default_text = tostring(d)
    q.default_given = d
    if p.required then bad(where .. ".required", "a parameter with a default is not required") end
  end
  return q
end

--- check(m) -> the checked manifest (a new table); raises { manifest_error = msg }
function M.check(m)
  if type(m) ~= "table" then bad("manifest", "table expected, got " .. type(m)) end
  check_keys(m, KEYS, "")
  if m.name == nil then bad("name", "missing") end
  if not m.name:match("^[%w][%w._+-]*$") then bad("name", "a name is a word (letters, digits, . _ + -)") end
  if m.api == nil then bad("api", "missing (\"" .. M.APIS[#M.APIS] .. "\")") end
  if m.args ~= nil and m.args ~= "own" then
    bad("args", string.format("'%s': the only value is \"own\" (the script reads its arguments itself)",
      m.args))
  end
  local out = { name = m.name, version = m.version, api = m.api, description = m.description,
    usage = m.usage, epilog = m.epilog, params = {}, order = {}, own_args = m.args == "own" }
  for name, p in pairs(m.params or {}) do
    out.params[name] = check_param(name, p)
    out.order[#out.order + 1] = name
    if p.flag ~= nil and not out.own_args then
      bad("params." .. name .. ".flag", "only a script that reads its own arguments (args = \"own\") names its flags")
    end
  end
  table.sort(out.order)
  local shorts = {}
  for _, name in ipairs(out.order) do
    local s = out.params[name].short
    if s then
      if shorts[s] then bad("params." .. name .. ".short", "-" .. s .. " is also " .. shorts[s] .. "'s") end
      shorts[s] = name
    end
  end
  if m.needs ~= nil then
    check_keys(m.needs, NEEDS_KEYS, "needs.")
    if m.needs.device ~= nil and not DEVICES[m.needs.device] then
      bad("needs.device", string.format("'%s': expected block, file or any", m.needs.device))
    end
    out.needs = { write = m.needs.write or false, device = m.needs.device or "any",
      root = m.needs.root or false }
  else
    out.needs = { write = false, device = "any", root = false }
  end
  return out
end

local function supported(api)
  for _, a in ipairs(M.APIS) do
    if a == api then return true end
  end
  return false
end

local function flag_of(name)
  return "--" .. name:gsub("_", "-")
end

local function positionals(m)
  local list = {}
  for _, name in ipairs(m.order) do
    if m.params[name].positional then list[#list + 1] = m.params[name] end
  end
  table.sort(list, function(a, b)
    local pa = a.positional == true and 1 or a.positional
    local pb = b.positional == true and 1 or b.positional
    if pa ~= pb then return pa < pb end
    return a.name < b.name
  end)
  return list
end

local function metavar(q)
  if q.arg then return q.arg end
  if q.type == "enum" then return table.concat(q.values, "|") end
  if q.positional then return q.name:upper() end
  return METAVAR[q.type]
end

-- "int, 1 to 1024, default 32"
local function describe_param(q)
  local parts = { q.type }
  if q.type == "enum" then parts[1] = "one of " .. table.concat(q.values, ", ") end
  if q.min_text and q.max_text then
    parts[#parts + 1] = q.min_text .. " to " .. q.max_text
  elseif q.min_text then
    parts[#parts + 1] = "at least " .. q.min_text
  elseif q.max_text then
    parts[#parts + 1] = "at most " .. q.max_text
  end
  if q.default_text and q.default ~= false then parts[#parts + 1] = "default " .. q.default_text end
  if q.required then parts[#parts + 1] = "required" end
  return table.concat(parts, ", ")
end
M.describe_param = describe_param

--- help(m) -> the --help text of a checked manifest
function M.help(m)
  local lines = {}
  local usage = m.usage
  if not usage then
    local u = { "[options]" }
    for _, q in ipairs(positionals(m)) do
      u[#u + 1] = q.required and metavar(q) or "[" .. metavar(q) .. "]"
    end
    usage = table.concat(u, " ")
  end
  lines[#lines + 1] = string.format("usage: platter %s %s", m.name, usage)
  local title = m.name .. (m.version and (" " .. m.version) or "") .. " (" .. m.api .. ")"
  lines[#lines + 1] = m.description and (title .. ": " .. m.description) or title
  local rows, width = {}, 0
  for _, name in ipairs(m.order) do
    local q = m.params[name]
    local left
    if q.flag then  -- the tool's own spelling: "if=", "-s", "--size"
      left = q.flag
      if q.type ~= "bool" then left = left .. (q.flag:sub(-1) == "=" and "" or " ") .. metavar(q) end
    elseif q.positional then
      left = metavar(q)
    else
      left = (q.short and ("-" .. q.short .. ", ") or "") .. flag_of(name)
      if q.type ~= "bool" then left = left .. " " .. metavar(q) end
    end
    local help = (q.help and (q.help .. " ") or "") .. "(" .. describe_param(q) .. ")"
    rows[#rows + 1] = { left, help }
    if #left > width then width = #left end
  end
  if #rows > 0 then
    lines[#lines + 1] = ""
    lines[#lines + 1] = "parameters:"
    for _, r in ipairs(rows) do
      lines[#lines + 1] = string.format("  %-" .. width .. "s  %s", r[1], r[2])
    end
  end
  if m.epilog then
    lines[#lines + 1] = ""
    lines[#lines + 1] = m.epilog
  end
  return table.concat(lines, "\n") .. "\n"
end

-- the platter.args spec of a checked manifest
local function args_spec(m)
  local spec = { name = m.name, options = {}, positional = {}, help_text = M.help(m) }
  for _, name in ipairs(m.order) do
    local q = m.params[name]
    if not q.positional then
      local opt = { key = name, help = q.help }
      if q.short then opt[#opt + 1] = "-" .. q.short end
      opt[#opt + 1] = flag_of(name)
      if q.type ~= "bool" then
        opt.arg = metavar(q)
        opt.choices = q.values
      end
      spec.options[#spec.options + 1] = opt
    end
  end
  for _, q in ipairs(positionals(m)) do
    spec.positional[#spec.positional + 1] = { q.name, arg = metavar(q), optional = not q.required,
      choices = q.values }
  end
  return spec
end

-- a parameter's value from its text, or nil and why
local function convert(q, text)
  if q.type == "size" then return core.parse_size(text) end
  if q.type == "time" then return core.parse_time(text) end
  if q.type == "int" or q.type == "number" then
    local n = tonumber(text)
    if not n then return nil, "not a number" end
    if q.type == "int" and n ~= math.floor(n) then return nil, "not an integer" end
    return n
  end
  return text  -- string, path, enum (platter.args checked the choice)
end

--- parse(m, ...) -> the parsed values of a checked manifest's params
function M.parse(m, ...)
  local spec = args_spec(m)
  local o = args.parse(spec, ...)
  local out = {}
  for _, name in ipairs(m.order) do
    local q = m.params[name]
    local v = o[name]
    local shown = q.positional and metavar(q) or flag_of(name)
    if q.type == "bool" and not q.positional then
      v = v or q.default or false
    elseif v == nil then
      if q.required then args.usage_error(spec, "missing " .. shown) end
      v = q.default
    else
      local text, why = v
      v, why = convert(q, text)
      if v == nil then args.usage_error(spec, string.format("%s %s: %s", shown, text, why)) end
      if q.min and v < q.min then
        args.usage_error(spec, string.format("%s %s: must be at least %s", shown, text, q.min_text))
      end
      if q.max and v > q.max then
        args.usage_error(spec, string.format("%s %s: must be at most %s", shown, text, q.max_text))
      end
    end
    out[name] = v
  end
  for k, v in ipairs(o) do out[k] = v end
  return out
end

--- the record of parsed params: { name = { type =, value = } }
function M.typed(m, values)
  local t = {}
  for _, name in ipairs(m.order) do
    t[name] = { type = m.params[name].type, value = values[name] }
  end
  return t
end

--- describe_text(m) -> 'platter describe''s text of a checked manifest
function M.describe_text(m)
  local lines = { "name: " .. m.name }
  if m.version then lines[#lines + 1] = "version: " .. m.version end
  lines[#lines + 1] = "api: " .. m.api
  if m.description then lines[#lines + 1] = "description: " .. m.description end
  local n = m.needs
  lines[#lines + 1] = string.format("needs: write %s, device %s, root %s", n.write and "yes" or "no",
    n.device, n.root and "yes" or "no")
  if m.own_args then lines[#lines + 1] = "arguments: read by the script itself (see --help)" end
  local help = M.help(m)
  local params = help:match("\nparameters:\n(.*)$")
  if params then
    lines[#lines + 1] = "parameters:"
    lines[#lines + 1] = (params:gsub("\n$", ""))
  else
    lines[#lines + 1] = "parameters: none"
  end
  return table.concat(lines, "\n") .. "\n"
end

--- describe_json(m) -> the same as JSON (one line)
function M.describe_json(m)
  local cjson = require "cjson"
  local params = {}
  for _, name in ipairs(m.order) do
    local q = m.params[name]
    params[name] = { type = q.type, default = q.default_given, min = q.min_given, max = q.max_given,
      values = q.values, required = q.required, positional = q.positional, short = q.short,
      help = q.help, option = q.flag or (not q.positional and flag_of(name)) or nil }
  end
  local out = { name = m.name, version = m.version, api = m.api, description = m.description,
    needs = m.needs, params = next(params) and params or nil, args = m.own_args and "own" or nil }
  return cjson.encode(out) .. "\n"
end

-- The manifest checked and its api supported; a mistake is raised at `level`, counted
-- from the function that calls this one (not a tail call: see its two callers)
local function checked(manifest, level)
  local ok, m = pcall(M.check, manifest)
  if not ok then
    if type(m) == "table" and m.manifest_error then error(m.manifest_error, level + 1) end
    error(m, 0)
  end
  if not supported(m.api) then
    error({ platter_usage = string.format("%s: needs api %s; this platter supports %s", m.name, m.api,
      table.concat(M.APIS, ", ")) }, 0)
  end
  return m
end

--- manifest(manifest) -> checked manifest, for 'platter describe': errors at the line of
--- p.script's caller, an unsupported api refused
function M.manifest(manifest)
  local m = checked(manifest, 3)
  return m
end

--- declare(manifest, ...) -> params, typed params; p.script. Errors in the manifest
--- carry the line of p.script's caller (p.script calls this, level 3).
function M.declare(manifest, ...)
  local m = checked(manifest, 3)
  if m.own_args then return nil, nil, m end  -- args = "own": the script parses them itself
  local values = M.parse(m, ...)
  return values, M.typed(m, values), m
end

return M
