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
do
  local found, recorder = pcall(require, "platter.recorder")  -- absent from an older binary
  local ok, err = true, nil
  if found then ok, err = pcall(recorder.install, core) end
  if not ok then core.ewrite("platter: results: ", tostring(err), "\n") end
  if ok and type(err) == "function" then record_params = err end
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
    usage_error = true }
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
