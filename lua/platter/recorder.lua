-- platter.recorder: what happens while a script runs, kept for the result
-- files. lua/platter/init.lua installs it before any script runs; it works
-- only through the host hooks (docs/results.md, "For developers"):
--
--   * always, the cache watch (platter.cachewatch) at the start and end of
--     every phase and p.run;
--   * with --json, --csv, --repeat N > 1 or --ci, the record: every finished
--     phase (p.phase, p.run, p.parallel) in platter.resultfile's format, the
--     repetitions and --ci's stopping rule, and at exit, on every path, the
--     files written to the paths of the command line (src/core/record.c).
--
-- Trusted: what it records comes from platter.core's own copies of the
-- configuration and the script, never from anything a script can reach.

local resultfile = require "platter.resultfile"
local cachewatch = require "platter.cachewatch"
local machine = require "platter.machine"

local format = string.format

local M = {}

-- {====================================================================
-- The recorder's state, and running hook work safely
-- =====================================================================

local function new_recorder(core)
  -- platter's own copy of the options and command line, made afresh from the C
  -- configuration on each call. Never p.config: that is the read-only view scripts
  -- get, and nothing a script can reach may decide where results go or what the
  -- record says was run.
  local cfg = core._config()
  return {
    core = core,
    cfg = cfg,
    record = cfg.json ~= nil or cfg.csv ~= nil or (cfg.repeats or 1) > 1
      or (cfg.ci or 0) > 0,
    start_time = os.time(),
    watch = cachewatch.new(core, cfg.virtual),
    pid = machine.pid(),  -- p.parallel's workers are forks: they neither warn nor record
    rep = 1, reps_done = 0, ci_met = nil,
    phases = {}, seq = 0, occ = {},  -- the records; occurrences of (kind, name) this rep
    cut = {},                        -- the records of phases a Ctrl-C cut short
    pending_run = nil,               -- the p.run that started, as described then
    -- where the run started, and its arguments with the paths that exist now made
    -- absolute (again at exit, for what the run made): rerun from another directory
    -- uses them (docs/results.md)
    cwd = core._resolve and core._resolve(".") or nil,
    args_abs = core._resolve and resultfile.absolute_args(
      resultfile.split_command_line(cfg.argv or {}).args, core._resolve) or nil,
  }
end

local function in_worker(R)
  return machine.pid() ~= R.pid
end

-- Run a hook's work so that a bug in it never stops the benchmark. A Ctrl-C
-- that lands inside it (the host's stop hook raises "interrupted" at the next
-- Lua instruction, once) is passed on after the work is done again, so a
-- phase that finished is still recorded.
local function protect(R, what, fn, ...)
  local ok, err = pcall(fn, ...)
  if ok then return end
  if R.core.interrupted() then
    pcall(fn, ...)
    error("interrupted", 0)
  end
  R.core._notice("platter: results: ", what, ": ", tostring(err), "\n")
end

-- }====================================================================

-- {====================================================================
-- Phases: the hooks run_start, phase_start and phase
-- =====================================================================

-- the p.run parameters a record keeps
local RUN_PARAMS = { "op", "bs", "bs_list", "weights", "pattern", "qd", "engine", "count",
  "bytes", "seconds", "ramp", "read_pct", "fsync_every", "rate_iops", "rate_bps", "rate_process", "think_us",
  "align", "stride", "theta", "sigma", "batch", "on_error" }

local function run_params(t)
  local params = {}
  for _, k in ipairs(RUN_PARAMS) do
    local v = t[k]
    if type(v) == "number" or type(v) == "string" or type(v) == "boolean" then
      params[k] = v
    elseif type(v) == "table" then
      local l = {}
      for i, x in ipairs(v) do l[i] = x end
      params[k] = l
    end
  end
  if type(t.seed) == "number" then params.seed = format("%.0f", t.seed) end
  if type(t.range) == "table" then params.range = { t.range[1], t.range[2] } end
  if t.gen then params.gen = true end
  if type(t.offsets) == "table" then params.offsets = #t.offsets end
  return params
end

-- p.run spec t as it starts: its parameters, and its files as the cache watch saw them
local function start_run(R, t)
  if in_worker(R) then return end
  local params = run_params(t)
  local files = R.watch:run_files(t)
  params.files = {}
  for i, c in ipairs(files) do params.files[i] = c.entry.id end
  R.pending_run = { params = params, files = files }
end

local function start_phase(R, s)
  if in_worker(R) then return end
  R.watch:phase_start(s)
end

-- a p.run's record: what it was asked to do, and the cache verdict on its buffered files
local function note_run(R, r)
  local d = R.pending_run
  if not d then return end
  r.params = d.params
  r.files = d.params.files
  R.watch:run_end(d.files)
  local buffered = {}
  for _, c in ipairs(d.files) do
    -- the null engine reads nothing: no cache can answer it
    if not c.entry.direct and d.params.engine ~= "null" then buffered[#buffered + 1] = c end
  end
  R.watch:judge(r, buffered, { moved = d.files.moved })
end

-- a p.phase's record: the files it used, and the cache verdict on them
local function note_phase(R, r, s)
  local used, moved = R.watch:phase_files(s)
  local ids = {}
  for i, c in ipairs(used) do ids[i] = c.entry.id end
  if #ids > 0 then r.files = ids end
  R.watch:judge(r, used, { moved = moved or nil, intended = s.cache_intended or nil })
end

-- a p.parallel's record: each worker's own record (false for one that sent none),
-- and the workers that failed
local function note_workers(r, extra)
  local workers, failed = {}, {}
  local i = 1
  while extra[i] ~= nil do
    local w = extra[i]
    workers[i] = w and resultfile.snapshot(w) or false
    i = i + 1
  end
  r.workers = workers
  r.params = { workers = i - 1 }
  for k, f in ipairs(extra.failed or {}) do
    failed[k] = { worker = f.worker, status = f.status, signal = f.signal, error = f.error }
  end
  if #failed > 0 then r.failed_workers = failed end
end

-- add r to the record: its number, repetition and occurrence of (kind, name)
local function keep(R, r, kind)
  R.seq = R.seq + 1
  r.seq = R.seq
  r.rep = R.rep
  local k = kind .. "\0" .. tostring(r.name)
  R.occ[k] = (R.occ[k] or 0) + 1
  r.occurrence = R.occ[k]
  R.phases[#R.phases + 1] = r
  if R.hold then  -- the keeper's copy (below): its failure is said once, and ends it
    local ok, err = pcall(R.hold, r)
    if not ok then
      R.hold = nil
      R.core._notice("platter: results: ", tostring(err), "\n")
    end
  end
end

-- A finished phase, run or p.parallel (kind). Without a record only what the
-- cache warning needs is taken.
local function finish_phase(R, s, kind, extra)
  if in_worker(R) then return end
  local r
  -- cut short by Ctrl-C: a line on stderr too. (A p.phase that an error or p.exit
  -- ended, stopped = "error" or "exit", is recorded as any phase: the error is
  -- reported on its own, as the script or workload gives it.)
  local cut = s.stopped == "interrupted"
  if R.record or cut then
    r = resultfile.snapshot(s)
  else
    r = { name = s.name, ops = s.ops, bytes = s.bytes }
  end
  r.kind = kind
  if kind == "run" then
    note_run(R, r)
    R.pending_run = nil
  elseif kind == "phase" then
    note_phase(R, r, s)
  elseif kind == "parallel" then
    note_phase(R, r, s)  -- the workers' files are the caller's: what was open at the start
    if R.record and type(extra) == "table" then note_workers(r, extra) end
  end
  if R.record then keep(R, r, kind) end
  if cut then R.cut[#R.cut + 1] = r end
  R.by_stats[s] = r
end

-- }====================================================================

-- {====================================================================
-- Repetitions: the hook repeat, and --ci
-- =====================================================================

-- the phase whose main figure has the widest confidence interval: { name, pct }
local function widest_ci(R)
  local worst
  for _, s in ipairs(resultfile.summarize(R.phases)) do
    local f = s.figures[s.main]
    if f and f.mean and f.mean > 0 then
      local pct = f.ci_pct or math.huge
      if not worst or pct > worst.pct then worst = { name = s.name, pct = pct } end
    end
  end
  return worst
end

-- before repetition rep of at most repeats: false stops (--ci is met)
local function start_repetition(R, rep, repeats)
  local cfg, core = R.cfg, R.core
  R.reps_done = rep - 1
  if rep > 1 and (cfg.ci or 0) > 0 and rep - 1 >= 3 then
    local worst = widest_ci(R)
    if not worst or worst.pct < cfg.ci then
      R.ci_met = true
      if not core.quiet then
        core._notice(format("platter: --ci %g%%: every phase is within it after %d repetitions\n",
          cfg.ci, rep - 1))
      end
      return false
    end
  end
  R.rep = rep
  R.occ = {}
  if rep > 1 and not core.quiet then
    core._notice(format("platter: repetition %d of %s\n", rep,
      (cfg.ci or 0) > 0 and format("at most %d", repeats) or tostring(repeats)))
  end
  return true
end

-- at exit: the last repetition that started is done, or was cut short: count it if it
-- left phases; then the --ci verdict, unless a repetition already found it met
local function finish_repetitions(R)
  local cfg, core = R.cfg, R.core
  local last = 0
  for _, r in ipairs(R.phases) do last = math.max(last, r.rep) end
  R.reps_done = math.max(R.reps_done, last)
  if (cfg.ci or 0) > 0 and R.ci_met == nil then
    local worst = widest_ci(R)
    R.ci_met = R.reps_done >= 2 and worst ~= nil and worst.pct < cfg.ci
    if not R.ci_met and not core.quiet and R.reps_done >= 2 then
      core._notice(format("platter: --ci %g%%: not reached after %d repetitions%s\n", cfg.ci,
        R.reps_done, worst and format(" (widest: '%s', ±%.1f%%)", worst.name, worst.pct) or ""))
    end
  end
end

-- columns of text, counting each UTF-8 character once ("±", "µ")
local function text_width(c)
  return utf8 and utf8.len(c) or #c:gsub("[\128-\191]", "")
end

-- one cell of the repeats table: `mean ± half-width (pct%)`, scaled down by scale
local function repeat_cell(s, fig, scale)
  local f = s.figures[fig]
  if not f or not f.mean then return "-" end
  scale = scale or 1
  local t = resultfile.fmt(f.mean / scale)
  if f.ci then
    t = t .. " ± " .. resultfile.fmt(f.ci / scale)
    if f.ci_pct then t = t .. format(" (%.1f%%)", f.ci_pct) end
  end
  return t
end

-- the `mean ± half-width` table of reps repetitions, written with write(...)
local function print_repeats(summary, reps, write)
  local rows = { { "phase", "IOPS", "MB/s", "p99 µs" } }
  for _, s in ipairs(summary) do
    local name = s.name or "?"
    if (s.occurrence or 1) > 1 then name = name .. " #" .. s.occurrence end
    rows[#rows + 1] = { name, repeat_cell(s, "iops"), repeat_cell(s, "bw", 1e6),
      repeat_cell(s, "p99", 1e3) }
  end
  local w = {}
  for _, r in ipairs(rows) do
    for i, c in ipairs(r) do
      local len = text_width(c)
      if not w[i] or len > w[i] then w[i] = len end
    end
  end
  write(format("\n%d repetitions: mean ± half-width of the 95%% confidence interval "
    .. "(Student t)\n", reps))
  for _, r in ipairs(rows) do
    local parts = {}
    for i, c in ipairs(r) do
      local pad = string.rep(" ", w[i] - text_width(c))
      parts[i] = i == 1 and c .. pad or pad .. c
    end
    write(table.concat(parts, "   "), "\n")
  end
end

-- }====================================================================

-- {====================================================================
-- At exit: the record, and the files (the hook exit)
-- =====================================================================

local function iso_time(t)
  return os.date("!%Y-%m-%dT%H:%M:%SZ", t)
end

-- under mpirun: the ranks, the nodes and the library (rank 0 writes the record)
local function mpi_environment(core)
  local mpi = core.mpi
  if type(mpi) ~= "table" or not mpi.active then return nil end
  return { size = mpi.size, nodes = mpi.nodes, ranks_per_node = mpi.local_size, library = mpi.library }
end

-- the machine facts of the record
local function environment(core)
  local model, count = machine.cpu()
  local clock = core.clock_info and core.clock_info() or {}
  local release, version, arch = machine.kernel()
  return {
    kernel = release,
    kernel_version = version,
    os = machine.os_name(),
    arch = arch,
    hostname = core.hostname and core.hostname() or nil,
    cpu = { model = model, count = count },
    ram = core.ram and core.ram() or nil,
    clock = { source = clock.source, overhead_ns = resultfile.finite(clock.overhead_ns) },
    sandbox = core.sandbox and core.sandbox() or nil,   -- "kernel", "checks-only" or "off"
    mpi = mpi_environment(core),
  }
end

-- "code" (-e), "file" (a path), "pack" (a pack's path) or "workload" (a built-in name)
local function script_kind(cl, name, pack)
  if cl.code then return "code" end
  if pack or (name and name:find("%.platter$")) then return "pack" end  -- a refused one has no pack
  return name and (name:find("/") or name:find("%.lua$")) and "file" or "workload"
end

-- the shipped workloads the script ran with p.workload: name, args, sha256
local function workload_list(core, script)
  if not script.workloads then return nil end
  local list = {}
  for i, w in ipairs(script.workloads) do
    list[i] = { name = w.name, args = w.args, sha256 = w.text and core.sha256(w.text) }
  end
  return list
end

-- the record's files, in first-seen order, each with its id
local function file_list(R)
  local files = {}
  for i, e in ipairs(R.watch.files) do
    local info = {}
    for k, v in pairs(e.info or {}) do info[k] = v end
    info.id = e.id
    info.abs_path = e.abs_path
    files[i] = info
  end
  return files
end

-- the whole record (docs/results.md), and its per-phase summaries
local function build_record(R, status, msg)
  local core, cfg = R.core, R.cfg
  local script = core._script()
  local cl = resultfile.split_command_line(cfg.argv or {})
  local summary = resultfile.summarize(R.phases)
  local end_time = os.time()
  local doc = {
    schema_version = resultfile.SCHEMA_VERSION,
    platter = { version = core.version, lua = core.lua,
      build = { commit = core._build_commit or "unknown", package = core._package_version } },
    command_line = cfg.argv,
    args = cl.args,
    params = R.params,
    args_abs = R.args_abs and resultfile.absolute_args(R.args_abs, core._resolve),
    cwd = R.cwd,
    pid = core.pid and core.pid() or nil,
    options = { repeats = cfg.repeats, ci = cfg.ci, sim = cfg.sim, target = cfg.target,
      trusted = core.trusted,
      destroy = cfg.destroy, quiet = core.quiet, seed_given = cfg.seed_given },
    seed = cl.options.seed or format("%.0f", cfg.seed or 1),
    script = { name = script.name, kind = script_kind(cl, script.name, script.pack),
      sha256 = script.text and core.sha256(script.text), text = script.text, manifest = R.manifest,
      workloads = workload_list(core, script), pack = script.pack },
    start_time = iso_time(R.start_time), start_unix = R.start_time,
    end_time = iso_time(end_time), end_unix = end_time,
    status = { exit = status, message = msg ~= "" and msg or nil,
      interrupted = msg == "interrupted", complete = status == 0 },
    environment = environment(core),
    files = file_list(R),
    repetitions = { requested = cfg.repeats, done = R.reps_done, ci_target_pct =
      (cfg.ci or 0) > 0 and cfg.ci or nil, ci_met = R.ci_met },
    phases = R.phases,
    summary = summary,
    warnings = #R.watch.warnings > 0 and R.watch.warnings or nil,
    reports = R.reports,
    verdict = R.verdicts[#R.verdicts],
    verdicts = #R.verdicts > 1 and R.verdicts or nil,
  }
  return doc, summary
end

-- platter's own writer, to the paths given on the command line (src/core/record.c);
-- raises one message for every file that could not be written
local function write_files(R, doc)
  local cfg, core = R.cfg, R.core
  local errs = {}
  if cfg.json then
    local ok, text = pcall(resultfile.encode, doc)
    local done, err = false, text
    if ok then done, err = core._record_write("json", text) end
    if not done then errs[#errs + 1] = format("--json %s", tostring(err)) end
  end
  if cfg.csv then
    local ok, text = pcall(resultfile.csv, R.phases)
    local done, err = false, text
    if ok then done, err = core._record_write("csv", text) end
    if not done then errs[#errs + 1] = format("--csv %s", tostring(err)) end
  end
  if #errs > 0 then error(table.concat(errs, "; "), 0) end
end

-- The record as far as the run got, held by the keeper (src/core/record.c) for a run
-- that ends without writing its files: a second Ctrl-C or SIGTERM exits at once (a
-- loop LuaJIT compiled, or one long C call, never sees the first), or platter is
-- killed. The head (the record without its phases, status and files) goes with the
-- first phase, each phase once, and a tail (the files, the time of the last phase and
-- a status saying the record is cut short) after them. A phase that finishes inside
-- another waits for the outer one to finish: encoding and sending it (35-60 us a
-- phase, docs/performance.md) is then in no phase's time.
local HELD_STATUS = { complete = false, message = "platter ended "
  .. "before it wrote this record (a second Ctrl-C or SIGTERM, or it was killed): it "
  .. "holds the phases that had finished" }

local function holder(R)
  local core, cfg = R.core, R.cfg
  local script = core._script()
  if script.name and script.name:find("^platter%.cmd%.") then return nil end  -- a command
  local env = environment(core)  -- now, not inside the first phase's hook
  local n, files_text, files_count, files_changed, tail_time = 0, nil, -1, false, nil
  local status_text = resultfile.encode(HELD_STATUS)
  local waiting = {}
  local function hold(op, kind, text)
    local ok, err = core._record_hold(op, kind, text)
    if not ok then error("holding the record: " .. tostring(err), 0) end
  end
  local function send(r)
    if cfg.json then
      if n == 0 then
        local doc = build_record(R, nil, nil)
        doc.environment = env
        doc.phases, doc.status, doc.files, doc.summary = nil, nil, nil, nil
        doc.end_time, doc.end_unix, doc.repetitions = nil, nil, nil
        hold("head", "json", resultfile.encode(doc):sub(1, -2) .. ',"phases":[')
      end
      hold("part", "json", (n > 0 and "," or "") .. resultfile.encode(r))
      if #R.watch.files ~= files_count then
        files_count, files_changed = #R.watch.files, true
        files_text = files_count > 0 and ',"files":' .. resultfile.encode(file_list(R)) or ""
      end
      local now = os.time()
      if now ~= tail_time or files_changed then
        tail_time, files_changed = now, false
        hold("tail", "json", format('],"end_unix":%d,"end_time":"%s"%s,"status":%s}', now,
          iso_time(now), files_text, status_text))
      end
    end
    if cfg.csv then
      if n == 0 then hold("head", "csv", resultfile.csv({})) end
      hold("part", "csv", resultfile.csv_row(r) .. "\n")
    end
    n = n + 1
  end
  return function(r)
    waiting[#waiting + 1] = r
    if core._phases_open() > 0 then return end
    local list = waiting
    waiting = {}
    for _, w in ipairs(list) do send(w) end
  end
end

-- the phases a Ctrl-C cut short, one line each on stderr, after the workload's
-- output and platter's "interrupted" (also with --quiet: they are results)
local function report_cut(R)
  for _, r in ipairs(R.cut) do R.core._notice(resultfile.interrupted_line(r)) end
end

local function finish(R, status, msg)
  local core = R.core
  R.cfg = core._config()
  local script = core._script()
  if script.name and script.name:find("^platter%.cmd%.") then return end  -- a command
  finish_repetitions(R)
  local doc, summary = build_record(R, status, msg)
  if R.reps_done >= 2 and #summary > 0 then
    print_repeats(summary, R.reps_done, core.write)
    core.flush()
  end
  write_files(R, doc)
end

-- }====================================================================

--- install(core): set the host hooks. Once only: init.lua calls it before any
-- script runs, so a sandboxed script that requires this module cannot install it
-- again with a core of its own making.
local installed = false
--- amend(s, key, value): add a field to the record of the finished phase s (the
-- world figures of a collective phase, lua/platter/collective.lua)
local current = nil
function M.amend(s, key, value)
  local r = current and current.by_stats[s]
  if r then r[key] = value end
end

--- report(name, data): a script's own findings for the record's `reports` (p.report);
-- data is a plain copy. A worker's are not kept (its parent reports).
function M.report(name, data)
  local R = current
  if not R or not R.record or in_worker(R) then return end
  R.reports = R.reports or {}
  R.reports[#R.reports + 1] = { name = name, rep = R.rep, data = data }
end

function M.install(core)
  if installed then error("platter.recorder: already installed", 2) end
  installed = true
  local R = new_recorder(core)
  R.by_stats = setmetatable({}, { __mode = "k" })
  current = R
  if R.record then resultfile.prepare() end
  core._hook("run_start", function(t)
    R.pending_run = nil
    protect(R, "run_start", start_run, R, t)
  end)
  core._hook("phase_start", function(s) protect(R, "phase_start", start_phase, R, s) end)
  core._hook("phase", function(s, kind, extra)
    protect(R, "phase", finish_phase, R, s, kind, extra)
  end)
  core._hook("exit", function(status, msg)
    report_cut(R)
    if R.record then finish(R, status, msg) end
  end)
  -- p.script's typed params, given to platter.init alone (the return value): the
  -- first call's (a p.workload inside the script declares its own); typed is nil for a
  -- script that reads its own arguments (args = "own")
  local function set_params(m, typed)
    if R.manifest or in_worker(R) then return end
    R.params = typed
    R.manifest = { name = m.name, version = m.version, api = m.api }
  end
  -- p.verdict's answers (a copy of plain values, from platter.init): each with its repetition
  R.verdicts = {}
  local function set_verdict(text, facts)
    if not R.record or in_worker(R) then return end
    facts.text, facts.rep = text, R.rep
    R.verdicts[#R.verdicts + 1] = facts
  end
  if not R.record then return set_params, set_verdict end
  core._hook("repeat", function(rep, repeats)
    if rep == 1 and (R.cfg.json or R.cfg.csv) and not in_worker(R) then
      local ok, hold = pcall(holder, R)
      if ok then R.hold = hold else core._notice("platter: results: ", tostring(hold), "\n") end
    end
    return start_repetition(R, rep, repeats)
  end)
  return set_params, set_verdict
end

return M
