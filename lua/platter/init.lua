-- platter: the public Lua API. The C module platter.core does the I/O,
-- timing and device work; this file adds what is easier said in Lua.
local core = require "platter.core"

local fast = require "platter.fast"
fast.install(core)
require("platter.run").install(core, fast.job_step)

local M = {}
for k, v in pairs(core) do
  if k:sub(1, 1) ~= "_" then M[k] = v end
end

-- platter.args is loaded by the first p.args or p.usage_error, not at start-up. Both
-- are tail calls, so error levels and messages are those of calling it directly.
local require, args = require, nil
local function args_module()
  args = args or require "platter.args"
  return args
end

--- p.args(spec, ...) -> options table; see lua/platter/args.lua
function M.args(...) return args_module().parse(...) end

--- p.usage_error(name, msg): stop with "platter: name: msg" and exit status 2
function M.usage_error(...) return args_module().usage_error(...) end

--- p.steady(series [, opts]) -> the SNIA PTS steady-state verdict; see lua/platter/steady.lua
local steady
function M.steady(...)
  steady = steady or require "platter.steady"
  return steady.steady(...)
end

--- p.printf(fmt, ...) writes a formatted string to stdout
function M.printf(fmt, ...)
  core.write(string.format(fmt, ...))
end

--- p.log(fmt, ...) writes a line to stderr unless --quiet
function M.log(fmt, ...)
  if not core.quiet then
    core.ewrite(string.format(fmt, ...), "\n")
  end
end

--- p.size_string(bytes) -> "64 MiB" style text for messages
function M.size_string(n)
  if type(n) ~= "number" or not (n >= 0 and n < math.huge) then  -- (NaN fails both)
    error(string.format("bad argument #1 to 'size_string' (a number of bytes expected, got %s)",
      type(n) == "number" and tostring(n) or type(n)), 2)
  end
  local units = { "B", "KiB", "MiB", "GiB", "TiB" }
  local i = 1
  while n >= 1024 and i < #units and n % 1024 == 0 do
    n = n / 1024
    i = i + 1
  end
  return string.format("%s %s", n == math.floor(n) and string.format("%d", n)
    or string.format("%.1f", n), units[i])
end

-- Collective phases across the ranks of p.mpi: p.phase(name, fn, { collective = true }),
-- and p.run inside one (lua/platter/collective.lua)
require("platter.collective").install(core, M)

-- Result records (--json/--csv/--repeat/--ci) and the cache warning: sets the host
-- hooks (lua/platter/recorder.lua).
local record_params  -- the recorder's setter of the record's typed params (p.script)
local report_into    -- the recorder's keeper of p.report's findings
local record_verdict -- ... and of p.verdict's answers
do
  local found, recorder = pcall(require, "platter.recorder")  -- absent from an older binary
  local ok, err, verdict = true, nil, nil
  if found then ok, err, verdict = pcall(recorder.install, core) end
  if not ok then core.ewrite("platter: results: ", tostring(err), "\n") end
  if ok and type(err) == "function" then record_params = err end
  if found and ok then report_into = recorder.report end
  if ok and type(verdict) == "function" then record_verdict = verdict end
end

-- A copy of v holding only what a record can keep (finite numbers, strings, booleans,
-- tables of them), or raises naming the first thing that is not (where: its path,
-- "data.rows.3"). p.report and p.verdict both copy through it.
local function plain_copy(v, where, depth)
  local t = type(v)
  if t == "number" then
    if v ~= v or v == math.huge or v == -math.huge then
      error(string.format("%s is not a finite number", where), 0)
    end
    return v
  elseif t == "string" or t == "boolean" then
    return v
  elseif t ~= "table" then
    error(string.format("%s: a %s cannot be recorded", where, t), 0)
  end
  if depth > 32 then error(string.format("%s is nested more than 32 deep", where), 0) end
  local c = {}
  for k, x in pairs(v) do
    if type(k) ~= "string" and type(k) ~= "number" then
      error(string.format("%s: a %s key cannot be recorded", where, type(k)), 0)
    end
    c[k] = plain_copy(x, where .. "." .. tostring(k), depth + 1)
  end
  return c
end

--- p.report(name, data): a script's own findings into the --json record's `reports`.
-- data is copied now (plain_copy).
function M.report(name, data)
  if type(name) ~= "string" or name == "" then error("report: name must be a non-empty string", 2) end
  if type(data) ~= "table" then error("report: data must be a table", 2) end
  local ok, copy = pcall(plain_copy, data, "data", 1)
  if not ok then error("report: " .. copy, 2) end
  if report_into then report_into(name, copy) end
end

--- p.verdict(text [, facts]) -> text: a probe's answer in plain words, with the facts
-- behind it, kept as the record's `verdict` (docs/api.md)
function M.verdict(text, facts)
  if type(text) ~= "string" then
    error(string.format("bad argument #1 to 'verdict' (string expected, got %s)", type(text)), 2)
  end
  if facts ~= nil and type(facts) ~= "table" then
    error(string.format("bad argument #2 to 'verdict' (table expected, got %s)", type(facts)), 2)
  end
  local ok, copy = pcall(plain_copy, facts or {}, "facts", 1)
  if not ok then error("bad argument #2 to 'verdict' (" .. copy .. ")", 2) end
  if record_verdict then record_verdict(text, copy) end
  return text
end

-- p.script(manifest, ...) -> params: the script's manifest (lua/platter/script.lua).
-- Under 'platter describe' (and 'platter complete') it raises the checked manifest
-- instead, so nothing after it runs.
local script_module
local mode = core._config().mode  -- "describe", "describe-json", "plan" or nil
function M.script(manifest, ...)
  script_module = script_module or require "platter.script"
  if mode == "plan" or mode == "plan-json" then  -- beside what the run did, even a usage error
    local plan = require "platter.plan"
    plan.manifest = plan.manifest or script_module.manifest(manifest)
  end
  local values, typed, m = script_module.declare(manifest, ...)
  if record_params then record_params(m, typed) end
  return values
end

-- platter describe: p.script prints the manifest and ends the run; before it the
-- script may compute but not act: every call with an effect (files, phases, output)
-- is refused, so describing a script never runs its benchmark.
if mode == "describe" or mode == "describe-json" then
  local PURE = { args = true, clock_info = true, cpu = true, decimal_point = true, diskstats = true,
    ewrite = true, exit = true, getenv = true, hostname = true, ids = true, interrupted = true,
    isatty = true, log = true, now = true, parse_size = true, parse_time = true, pid = true,
    ram = true, random = true, read_text = true, readdir = true, rusage = true, sandbox = true,
    scratch = true, seed = true, sha256 = true, size_string = true, stat = true, statfs = true,
    steady = true, usage_error = true }
  for k, v in pairs(M) do
    if type(v) == "function" and not PURE[k] and k ~= "script" then
      M[k] = function()
        error(string.format("%s: declares no manifest before p.%s (describe reads p.script, " ..
          "which must come before any I/O)", core._script().name or "script", k), 0)
      end
    end
  end
  function M.script(manifest)
    script_module = script_module or require "platter.script"
    local m = script_module.manifest(manifest)
    core.write(mode == "describe" and script_module.describe_text(m) or script_module.describe_json(m))
    core._described()
    core.exit(0)
  end
end

return M
