-- platter rerun RESULT.json [PATH...] [--json NEW.json]: run a recorded test again.
--
-- The script text stored in the result (not today's copy of the workload)
-- goes to a temporary file, and this platter binary runs it with the
-- recorded arguments, seed, --repeat/--ci and --sim, in the sandbox like
-- any shared script (--trust and --destroy only when given to rerun).
-- A record is not trusted: its text must match its sha256, and every path its
-- arguments would grant the sandboxed run beyond what the current directory and
-- $TMPDIR give unnamed must be named again on rerun's own command line (or
-- --grant-recorded).
-- With --json the new run writes its own result, for `platter compare OLD NEW`.
-- Built-in command: runs trusted, arguments in `...`. See docs/results.md.
if select("#", ...) == 1 and (...) == "platter.cmd.rerun" then
  error("platter.cmd.rerun is the 'platter rerun' command, not a module", 2)
end

local p = require "platter"
local core = require "platter.core"
local resultfile = require "platter.resultfile"

local format = string.format

local o = p.args({
  name = "rerun",
  usage = "[options] RESULT.json [PATH...]",
  summary = "Run the script recorded in RESULT.json again, with its arguments and seed, "
    .. "sandboxed.",
  options = {
    { "--json", arg = "FILE", help = "write the new run's result record to FILE" },
    { "--csv", arg = "FILE", help = "write the new run's CSV to FILE" },
    { "--repeat", arg = "N", type = "int", help = "repetitions (default: as recorded)" },
    { "--ci", arg = "P%", help = "repeat until the 95% half-width is under P% (default: as "
      .. "recorded)" },
    { "--seed", arg = "N", help = "another seed (default: the recorded one)" },
    { "--grant-recorded", help = "grant every path the recorded arguments name, without "
      .. "naming them again" },
    { "--trust", help = "lift the sandbox (only for a script you have read)" },
    { "--destroy", help = "allow writing to block devices" },
    { "--quiet", "-q", help = "no informational messages" },
    { "--dry-run", "-n", help = "print the grants and the command instead of running it" },
    { "--mpirun", arg = "ARGS", help = "a record of several MPI ranks: more mpirun arguments "
      .. "(\"--hostfile hosts\"); needed when the ranks were on several nodes" },
  },
  positional = { { "result", arg = "RESULT.json" } },
  rest = true,
  epilog = "The recorded arguments are a stranger's: every path among them (an argument, the\n"
    .. "value of key=value, the value glued to a short option as in -d/mnt/x) is granted to\n"
    .. "the run, as on any command line. rerun lists them first and runs only if each one\n"
    .. "outside the current directory and $TMPDIR (or one there that naming frees from the\n"
    .. "sandbox's rules: a dot file, a file platter did not make) is named again as a PATH\n"
    .. "after RESULT.json (platter rerun r.json /mnt/x /dev/sdb), or with --grant-recorded.\n"
    .. "A PATH that is a directory covers what is inside it. PATHs are only compared,\n"
    .. "never passed to the run.\n"
    .. "A record without script.sha256, or whose script text does not match it, is refused.\n"
    .. "A global --json (platter --json NEW.json rerun OLD.json) works like --json.",
}, ...)

local function fail(msg)
  p.ewrite("platter: rerun: ", msg, "\n")
  p.exit(1)
end

local function q(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

local quiet = p.quiet or o.quiet
local function note(...)
  if not quiet then p.ewrite("rerun: ", ...) p.ewrite("\n") end
end

-- A word from the record, safe to print: control characters (a forged path could
-- hold a line break or a terminal escape) shown as \ddd, and quoted when not plain.
local function shown(s)
  s = tostring(s)
  if s ~= "" and not s:find("[^%w%./_,:@=+~%-]") then return s end
  return "'" .. s:gsub("[\\']", "\\%0"):gsub("[%c\127]", function(c)
    return format("\\%03d", c:byte())
  end) .. "'"
end

local f, err = io.open(o.result, "rb")
if not f then p.usage_error("rerun", err) end
local text = f:read("*a")
f:close()
local doc, derr = resultfile.decode(text, o.result)
if not doc then p.usage_error("rerun", derr) end
local function field(v, want) return type(v) == want and v or nil end
local script = field(doc.script, "table") or {}

-- The record is checked before anything of it is used. The sha256 is a consistency
-- check (a record edited by hand, or cut short), not a signature: whoever forges a
-- record can recompute it. What protects you is the grant check below.
if type(script.text) ~= "string" then
  local pk = field(script.pack, "table")
  fail(format("%s: the record holds no script text (script.text): refused%s", o.result,
    pk and format("; it was made from the pack %s, sha256 %s: run that pack again", shown(pk.name or
      script.name or "?"), shown(pk.sha256 or "?")) or ""))
end
if type(script.sha256) ~= "string" or script.sha256 == "" then
  fail(format("%s: the record has no script.sha256, so its script text cannot be checked: "
    .. "refused", o.result))
end
if p.sha256(script.text) ~= script.sha256:lower() then
  fail(format("%s: the script text does not match its script.sha256 (edited by hand?): refused",
    o.result))
end
if script.kind == "pack" then  -- made from a pack: the record's text is that pack
  local pk = field(script.pack, "table") or {}
  if pk.sha256 ~= script.sha256 then
    fail(format("%s: script.pack.sha256 is not the script's sha256: refused", o.result))
  end
  note(format("the record was made from the pack %s (sha256 %s); the record holds it, and it "
    .. "runs again from there", shown(script.name), shown(script.sha256)))
end

-- the recorded command line, for what the record lacks
local recorded_cl = field(doc.command_line, "table") or {}
for i, w in ipairs(recorded_cl) do
  if type(w) ~= "string" then
    fail(format("%s: command_line[%d] is not a string: refused", o.result, i))
  end
end
local cl = resultfile.split_command_line(recorded_cl)
local opts = field(doc.options, "table") or {}
for _, k in ipairs({ "seed", "sim" }) do
  local v = k == "seed" and doc.seed or opts[k]
  if v ~= nil and type(v) ~= "string" and type(v) ~= "number" then
    fail(format("%s: %s is a %s, not a string: refused", o.result,
      k == "seed" and "seed" or "options." .. k, type(v)))
  end
end

-- The script's arguments, as the new run will get them: a list of strings
local args = field(doc.args, "table") or cl.args
do
  local n = 0
  for k in pairs(args) do
    if type(k) ~= "number" or k < 1 or k ~= math.floor(k) then
      fail(format("%s: args is not a list of strings: refused", o.result))
    end
    n = math.max(n, k)
  end
  for i = 1, n do
    local a = args[i]
    if type(a) ~= "string" then
      fail(format("%s: args[%d] is not a string: refused", o.result, i))
    end
    if a:find("\0", 1, true) then
      fail(format("%s: args[%d] holds a NUL byte: refused", o.result, i))
    end
  end
end

-- From another directory than the recorded run's, the arguments that named existing
-- paths there are given as the absolute paths the record keeps beside them (args_abs,
-- schema_version 3): the same files, wherever rerun is started. They are checked as
-- args are, and granted only as below.
do
  local cwd, abs = field(doc.cwd, "string"), field(doc.args_abs, "table")
  local here = core._resolve(".")
  if cwd and abs and here and here ~= cwd then
    local changed = {}
    for i = 1, #args do
      local a = abs[i]
      if type(a) ~= "string" then
        fail(format("%s: args_abs[%d] is not a string: refused", o.result, i))
      end
      if a:find("\0", 1, true) then
        fail(format("%s: args_abs[%d] holds a NUL byte: refused", o.result, i))
      end
      if a ~= args[i] then changed[#changed + 1] = shown(args[i]) .. " -> " .. shown(a) end
    end
    if #changed > 0 then
      note(format("the record was made in %s: its relative paths are given as absolute ones: %s",
        shown(cwd), table.concat(changed, ", ")))
      local copy = {}
      for i = 1, #args do copy[i] = abs[i] end
      args = copy
    end
  end
end

-- {--- what the recorded arguments grant ---------------------------------------------
-- The sandboxed child platter adds to its allow list every word of its script
-- arguments that could be a path. This mirrors allow_args() in src/bind/host.c:
-- (1) each argument as it is, (2) the value after the first '=' of a key=value
-- argument, when not empty, (3) the rest of a short option with its value glued on
-- (a word that starts with '-', whose second character is not '-', and that has a
-- third: "-d/mnt/x" gives "/mnt/x"). core._resolve resolves a word as the allow list
-- does (src/core/guard.c): an existing path by realpath(3), a missing one by its
-- resolved parent; a word that does not resolve grants nothing. A directory grants
-- its whole tree. A named path is also exempt from the rules beneath the current
-- directory and $TMPDIR (a dot file, a symlink, a file platter did not make), so
-- one there is asked for like one outside when naming it gives more (its third
-- value): else a record could hand its script ~/.bashrc in your home directory.
local function path_words(list)
  local out = {}
  for _, a in ipairs(list) do
    out[#out + 1] = { word = a, arg = a }
    local eq = a:find("=", 1, true)
    if eq and eq < #a then out[#out + 1] = { word = a:sub(eq + 1), arg = a } end
    if a:sub(1, 1) == "-" and #a >= 3 and a:sub(2, 2) ~= "-" then
      out[#out + 1] = { word = a:sub(3), arg = a }
    end
  end
  return out
end

-- r is path itself or under a directory root (under() in src/core/guard.c)
local function under(r, root)
  if r == root.path then return true end
  if not root.tree then return false end
  return root.path == "/" or r:sub(1, #root.path + 1) == root.path .. "/"
end

local function root_of(path, tree)
  local r, kind = core._resolve(path)
  return r and { path = r, tree = tree or kind == "dir" } or nil
end

-- granted to every sandboxed run anyway, with their trees (default_roots() in
-- src/core/guard.c): the current directory and $TMPDIR (or /tmp when unset or empty)
local tmp = os.getenv("TMPDIR")
local defaults = { root_of(".", true), root_of(tmp and tmp ~= "" and tmp or "/tmp", true) }
local named = {}
for k = 2, #o do
  local r = root_of(o[k])
  if not r then p.usage_error("rerun", format("%s: %s", o[k], select(2, core._resolve(o[k])))) end
  named[#named + 1] = r
end

local grants, anyway, seen = {}, {}, {}
for _, w in ipairs(path_words(args)) do
  local r, kind, more = core._resolve(w.word)
  if r and not seen[r] then
    seen[r] = true
    local g = { path = r, kind = kind, word = w.word, arg = w.arg }
    local inside = false
    for _, d in ipairs(defaults) do inside = inside or under(r, d) end
    g.held = inside and more or nil
    if inside and not more then
      anyway[#anyway + 1] = g
    else
      for _, n in ipairs(named) do g.named = g.named or under(r, n) end
      grants[#grants + 1] = g
    end
  end
end

local KIND = {
  dir = "a directory: its whole tree, read, and read-write for the files platter makes in it",
  file = "a file, read-write", char = "a character device, read-write",
  other = "a special file (fifo or socket), read-write",
  new = "does not exist yet: may be created, then read-write",
}
local function describe(g)
  local what = KIND[g.kind] or KIND.other
  if g.kind == "block" then
    what = o.destroy and "a block device, read-write (--destroy: it may be overwritten)"
      or "a block device, read only (writing needs --destroy)"
  end
  local from = g.arg ~= g.path and format(" (from %s)", shown(g.arg)) or ""
  local held = g.held and format(" (%s: held back unless named)", g.held) or ""
  return format("%s%s: %s%s", shown(g.path), from, what, held)
end

local missing = {}
if o.trust then
  note("--trust: the run is not sandboxed and may use any path")
else
  if #grants > 0 then
    note("the recorded arguments grant the run these paths:")
    for _, g in ipairs(grants) do
      note("  ", describe(g), g.named and "" or "  [not named again]")
      if not g.named then missing[#missing + 1] = shown(g.path) end
    end
  end
  if #anyway > 0 then
    local l = {}
    for i, g in ipairs(anyway) do l[i] = shown(g.word) end
    note("inside the current directory or $TMPDIR, granted anyway and need not be named "
      .. "again: ", table.concat(l, ", "))
  end
end
local refuse
if #missing > 0 and not o.grant_recorded then
  refuse = format("%s: the recorded arguments would grant %s, more than the current directory "
    .. "and $TMPDIR give unnamed; to agree, name %s again after RESULT.json (platter rerun %s %s) "
    .. "or give --grant-recorded", shown(o.result), table.concat(missing, ", "),
    #missing == 1 and "it" or "each", shown(o.result), table.concat(missing, " "))
end
-- }------------------------------------------------------------------------------------

if refuse and not o.dry_run then p.usage_error("rerun", refuse) end

-- the platter binary running now (not the shell's: /proc/self would be the shell)
local pipe = io.popen("readlink /proc/" .. p.pid() .. "/exe 2>/dev/null")
local bin = pipe and pipe:read("*l")
if pipe then pipe:close() end
-- platter's own copy of the global options (p.config is the read-only view for scripts)
local cfg = core._config()
if not bin or bin == "" then bin = cfg.argv[1] or "platter" end

local words = {}
local function add(...)
  for _, w in ipairs({ ... }) do words[#words + 1] = q(w) end
end
-- a record of several MPI ranks runs again under mpirun, with as many ranks
local mpi = type(doc.environment) == "table" and type(doc.environment.mpi) == "table"
  and doc.environment.mpi or nil
local ranks = mpi and tonumber(mpi.size) or 1
if ranks ~= math.floor(ranks) or ranks < 1 or ranks > 1e6 then
  fail(format("%s: environment.mpi.size is not a number of ranks: refused", o.result))
end
if ranks > 1 then
  local nodes = tonumber(mpi.nodes) or 1
  note(format("the record was made by %d MPI ranks on %d node%s: this run needs mpirun -np %d",
    ranks, nodes, nodes == 1 and "" or "s", ranks))
  if p.mpi.active then
    p.usage_error("rerun", "rerun starts mpirun itself: run it outside mpirun (platter rerun "
      .. shown(o.result) .. ")")
  end
  if nodes > 1 and not o.mpirun and not o.dry_run then
    p.usage_error("rerun", format("%s was run on %d nodes: say where with --mpirun "
      .. "\"--hostfile FILE\" (platter rerun --mpirun \"--hostfile hosts\" %s)", shown(o.result), nodes,
      shown(o.result)))
  end
  add("mpirun", "-np", format("%d", ranks))
  for w in (o.mpirun or ""):gmatch("%S+") do add(w) end
elseif o.mpirun then
  p.usage_error("rerun", "--mpirun: " .. shown(o.result) .. " was not an MPI run of several ranks")
end
add(bin)
add("--seed", tostring(o.seed or doc.seed or cl.options.seed or "1"))
local rep = o["repeat"] or tonumber(cl.options["repeat"]) or nil
local ci = o.ci or cl.options.ci
if rep and rep > 1 then add("--repeat", tostring(rep)) end
if ci then add("--ci", tostring(ci)) end
local sim = opts.sim or cl.options.sim
if sim then add("--sim", tostring(sim)) end
local target = not sim and (opts.target or cl.options.target)
if target then add("--target", tostring(target)) end
local interval = cl.options.interval
if type(interval) == "string" then add("--interval", interval) end
if o.trust then add("--trust") end
if o.destroy then add("--destroy") end
if o.quiet then add("--quiet") end
local json = o.json or cfg.json
if json then add("--json", json) end
local csv = o.csv or cfg.csv
if csv then add("--csv", csv) end

if opts.trusted and not o.trust then
  note("the recorded run was trusted (--trust); this one runs in the sandbox "
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
local name = field(script.name, "string")
local base = (name or "script"):match("([^/]+)$") or "script"
if script.kind == "code" or base == "-e" then base = "code" end
-- a pack's record holds the whole pack as its text: it runs again as a pack, which
-- checks its members' hashes once more before its entry script starts
local ext = script.kind == "pack" and ".platter" or ".lua"
base = base:gsub("%.lua$", ""):gsub("%.platter$", ""):gsub("[^%w._-]", "_") .. ext
local path = tmpdir .. "/" .. base
if not o.dry_run then
  local sf = assert(io.open(path, "wb"))
  sf:write(script.text)
  sf:close()
end
add(path)
for _, a in ipairs(args) do add(a) end

local cmd = table.concat(words, " ")
if o.dry_run then
  if refuse then note("a real run would stop here: ", refuse) end
  p.write(cmd, "\n")
  return
end
do
  local l = {}
  for i, a in ipairs(args) do l[i] = shown(a) end
  note(format("%s (seed %s%s)", shown(name or "?"), shown(o.seed or doc.seed or "1"),
    #l > 0 and ", arguments: " .. table.concat(l, " ") or ""))
end
p.flush()
local r1, _, r3 = os.execute(cmd)
os.execute("rm -rf " .. q(tmpdir))

-- the new record names the script as the old one did, and says what it reran: in a
-- file, which is read back and replaced (a device, a pipe or /dev/stdout has gone by)
local st = json and p.stat(json)
if st and st.kind == "file" then
  local jf = io.open(json, "rb")
  local new = jf and resultfile.decode(jf:read("*a"), json)
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
