-- platter complete WORKLOAD: a shipped workload's flags, read from its own
-- p.args spec, for the bash completion (tools/platter.bash-completion).
-- platter complete --json WORKLOAD: the whole spec as JSON, for the man pages
-- (tools/mkman.py). The workload runs only up to its first p.args call, which
-- raises the spec (platter.args.describe_only) instead of parsing: nothing is
-- opened or measured. Built-in command: runs trusted, arguments in `...`; not
-- listed in --help, since people do not type it.
if select("#", ...) == 1 and (...) == "platter.cmd.complete" then
  error("platter.cmd.complete is the 'platter complete' command, not a module", 2)
end

local p = require "platter"
local args = require "platter.args"
local cjson = require "cjson"

local argv = { ... }
local json = argv[1] == "--json"
if json then table.remove(argv, 1) end
local name = argv[1]
if name == "--help" or name == "-h" then  -- (its usage errors point here)
  p.write("usage: platter complete [--json] WORKLOAD\n",
    "The workload's options, for the shell's completion (--json: its p.args spec).\n")
  p.exit(0)
end
if not name or argv[2] then
  p.usage_error("complete", "usage: platter complete [--json] WORKLOAD")
end

args.describe_only = true
local ok, err = pcall(p.workload, name, {})
args.describe_only = false
if ok or type(err) ~= "table" or not err.platter_spec then
  if not ok and type(err) == "string" and err:match("no workload named") then
    p.usage_error("complete", "no workload named '" .. name .. "' (see 'platter list')")
  end
  error(ok and (name .. ": calls no p.args") or err, 0)
end
local spec = err.platter_spec

if json then
  -- only the plain fields: names, metavariables, types, defaults, help texts
  local out = { name = spec.name or name, usage = spec.usage, summary = spec.summary,
    epilog = spec.epilog, options = {}, positional = {} }
  for _, opt in ipairs(spec.options or {}) do
    if not opt.unsupported then  -- accepted only to say so: not offered
      local o = { names = {}, arg = opt.arg, type = opt.type, help = opt.help,
        choices = opt.choices, multi = opt.multi or nil, count = opt.count or nil }
      if opt.default ~= nil and opt.default ~= false then o.default = tostring(opt.default) end
      for _, n in ipairs(opt) do o.names[#o.names + 1] = n end
      out.options[#out.options + 1] = o
    end
  end
  for _, pos in ipairs(spec.positional or {}) do
    out.positional[#out.positional + 1] = { name = pos[1], arg = pos.arg,
      optional = pos.optional or nil }
  end
  if #out.options == 0 then out.options = nil end
  if #out.positional == 0 then out.positional = nil end
  p.write(cjson.encode(out), "\n")
  return
end

-- One line per flag: the flag, a tab, its metavariable (empty for a switch),
-- a tab, its choices separated by spaces (empty when any value goes).
for _, opt in ipairs(spec.options or {}) do
  for _, n in ipairs(opt.unsupported and {} or opt) do
    p.write(n, "\t", opt.arg or "", "\t", table.concat(opt.choices or {}, " "), "\n")
  end
end
