-- platter rerun RESULT.json [--json NEW.json]: run a recorded test again.
--
-- The script text stored in the result (not today's copy of the workload)
-- goes to a temporary file, and this platter binary runs it with the
-- recorded arguments, seed, --repeat/--ci and --sim, in the sandbox like
-- any shared script (--trust and --destroy only when given to rerun).
-- With --json the new run writes its own result, for `platter compare OLD NEW`.
-- Built-in command: runs trusted, arguments in `...`. See docs/results.md.
if select("#", ...) == 1 and (...) == "platter.cmd_rerun" then
  error("platter.cmd_rerun is the 'platter rerun' command, not a module", 2)
end

local p = require "platter"
local results = require "platter.results"

local format = string.format

local o = p.args({
  name = "rerun",
  usage = "[options] RESULT.json",
  summary = "Run the script recorded in RESULT.json again, with its arguments and seed, "
    .. "sandboxed.",
  options = {
    { "--json", arg = "FILE", help = "write the new run's result record to FILE" },
    { "--csv", arg = "FILE", help = "write the new run's CSV to FILE" },
    { "--repeat", arg = "N", type = "int", help = "repetitions (default: as recorded)" },
    { "--ci", arg = "P%", help = "repeat until the 95% half-width is under P% (default: as "
      .. "recorded)" },
    { "--seed", arg = "N", help = "another seed (default: the recorded one)" },
    { "--trust", help = "lift the sandbox (only for a script you have read)" },
    { "--destroy", help = "allow writing to block devices" },
    { "--quiet", "-q", help = "no informational messages" },
    { "--dry-run", "-n", help = "print the command instead of running it" },
  },
  positional = { { "result", arg = "RESULT.json" } },
  epilog = "A global --json (platter --json NEW.json rerun OLD.json) works like --json.",
}, ...)

local function fail(msg)
  p.ewrite("platter: rerun: ", msg, "\n")
  p.exit(1)
end

local function q(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

local f, err = io.open(o.result, "rb")
if not f then p.usage_error("rerun", err) end
local text = f:read("*a")
f:close()
local doc, derr = results.decode(text, o.result)
if not doc then p.usage_error("rerun", derr) end
local script = doc.script or {}
if type(script.text) ~= "string" then fail(o.result .. " holds no script text") end
if script.sha256 and p.sha256(script.text) ~= script.sha256 then
  fail(format("%s: the script text does not match its sha256 (edited by hand?)", o.result))
end

-- the platter binary running now (not the shell's: /proc/self would be the shell)
local pipe = io.popen("readlink /proc/" .. p.pid() .. "/exe 2>/dev/null")
local bin = pipe and pipe:read("*l")
if pipe then pipe:close() end
if not bin or bin == "" then bin = (p.config.argv or {})[1] or "platter" end

-- the recorded command line, for what the record lacks
local cl = results.split_command_line(doc.command_line or {})
local opts = doc.options or {}

local words = { q(bin) }
local function add(...)
  for _, w in ipairs({ ... }) do words[#words + 1] = q(w) end
end
add("--seed", o.seed or doc.seed or cl.options.seed or "1")
local rep = o["repeat"] or tonumber(cl.options["repeat"]) or nil
local ci = o.ci or cl.options.ci
if rep and rep > 1 then add("--repeat", tostring(rep)) end
if ci then add("--ci", tostring(ci)) end
local sim = opts.sim or cl.options.sim
if sim then add("--sim", sim) end
if o.trust then add("--trust") end
if o.destroy then add("--destroy") end
if o.quiet then add("--quiet") end
local json = o.json or p.config.json
if json then add("--json", json) end
local csv = o.csv or p.config.csv
if csv then add("--csv", csv) end

local quiet = p.quiet or o.quiet
if opts.trusted and not o.trust and not quiet then
  p.log("rerun: the recorded run was trusted (--trust); this one runs in the sandbox "
    .. "(give --trust to rerun after reading the script)")
end

local tmpdir
if o.dry_run then
  tmpdir = "TMPDIR"
else
  pipe = io.popen("mktemp -d 2>/dev/null")
  tmpdir = pipe and pipe:read("*l")
  if pipe then pipe:close() end
  if not tmpdir or tmpdir == "" then fail("cannot make a temporary directory") end
end
local base = (script.name or "script"):match("([^/]+)$") or "script"
if script.kind == "code" or base == "-e" then base = "code" end
base = base:gsub("%.lua$", ""):gsub("[^%w._-]", "_") .. ".lua"
local path = tmpdir .. "/" .. base
if not o.dry_run then
  local sf = assert(io.open(path, "wb"))
  sf:write(script.text)
  sf:close()
end
add(path)
local args = doc.args or cl.args or {}
for _, a in ipairs(args) do add(a) end

local cmd = table.concat(words, " ")
if o.dry_run then
  p.write(cmd, "\n")
  return
end
if not quiet then
  p.log("rerun: %s (seed %s%s)", script.name or "?", o.seed or doc.seed or "1",
    #args > 0 and ", arguments: " .. table.concat(args, " ") or "")
end
p.flush()
local r1, _, r3 = os.execute(cmd)
os.execute("rm -rf " .. q(tmpdir))

-- the new record names the script as the old one did, and says what it reran
if json then
  local jf = io.open(json, "rb")
  local new = jf and results.decode(jf:read("*a"), json)
  if jf then jf:close() end
  if new and new.script then
    new.script.name = script.name
    new.script.kind = script.kind
    new.rerun_of = { file = o.result, start_time = doc.start_time,
      sha256 = script.sha256, command_line = doc.command_line }
    local enc = require("cjson").new()
    enc.encode_number_precision(14)
    local out = io.open(json .. ".tmp", "wb")
    if out and out:write(enc.encode(new)) and out:close() then
      os.rename(json .. ".tmp", json)
    end
  end
end
local status
if type(r1) == "number" then
  status = r1 >= 256 and math.floor(r1 / 256) or r1  -- LuaJIT: the raw wait status
else
  status = r3 or (r1 and 0 or 1)
end
if status ~= 0 then p.exit(status) end
