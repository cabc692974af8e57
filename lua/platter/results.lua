-- platter.results: result records (--json, --csv), repeats with confidence
-- intervals (--repeat, --ci) and the cache warning. Trusted: it reads /proc
-- and writes the result files. lua/platter/init.lua installs it:
--
--   * always, the cache watch: at the start and end of every phase (hooks
--     "phase_start" and "run_start", so no per-I/O cost and no wrapped
--     functions) the page-cache residency of the open buffered files is taken;
--     a buffered phase on a data set under twice RAM that was partly in the
--     cache at its start prints one warning.
--   * with --json, --csv, --repeat N > 1 or --ci, the record: every finished
--     phase (p.phase, p.run, p.parallel) is kept, and the exit hook writes
--     the files on every exit path. See docs/results.md for the schema.
-- This module's own instances of the pure modules it uses. A sandboxed script may
-- require platter.statmath and cjson, and gets the tables in package.loaded; were
-- they these, it could rewrite statmath.summary or cjson.new and so forge the
-- record. Loaded when init.lua loads this module, before any script runs.
local function private(name)
  local loader = package and package.preload and package.preload[name]
  if loader then return loader(name) end
  return require(name)
end
local statmath = private("platter.statmath")
local cjson = private("cjson")

local M = {}

M.SCHEMA_VERSION = 1
M.PERCENTILES = { 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99 }

local floor, format = math.floor, string.format

local function pct_label(p)
  return "p" .. (p == floor(p) and format("%d", p) or tostring(p))
end
M.pct_label = pct_label

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

local function trim(s)
  return s and (s:gsub("^%s+", ""):gsub("%s+$", "")) or nil
end

-- A finite number (JSON has no inf or NaN), or nil.
local function num(x)
  if type(x) ~= "number" or x ~= x or x == math.huge or x == -math.huge then return nil end
  return x
end

local function iso_time(t)
  return os.date("!%Y-%m-%dT%H:%M:%SZ", t)
end

--- size_text(bytes) -> "64 MiB", "7.8 GiB": for messages
function M.size_text(n)
  local units = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" }
  local i = 1
  while n >= 1024 and i < #units do
    n = n / 1024
    i = i + 1
  end
  if i == 1 or n == floor(n) then return format("%d %s", n, units[i]) end
  return format("%.1f %s", n, units[i])
end

-- {====================================================================
-- The command line: global options, the script, its arguments
-- =====================================================================

local VALUE_OPTS = { ["--seed"] = "seed", ["--json"] = "json", ["--csv"] = "csv",
  ["--sim"] = "sim", ["--repeat"] = "repeat", ["--ci"] = "ci", ["--lua-dir"] = "lua_dir" }
local FLAG_OPTS = { ["--trust"] = "trust", ["--destroy"] = "destroy", ["--quiet"] = "quiet",
  ["-q"] = "quiet", ["--verbose"] = "verbose", ["-v"] = "verbose", ["--help"] = "help",
  ["-h"] = "help", ["--version"] = "version", ["-V"] = "version" }

--- split_command_line(argv) -> { options = {name = value|true}, script = s|nil,
-- code = s|nil, args = {...} }, parsing argv (argv[1] is the program) as
-- src/main.c does.
function M.split_command_line(argv)
  local r = { options = {}, args = {} }
  local i, n = 2, #argv
  while i <= n do
    local a = argv[i]
    if a:sub(1, 1) ~= "-" or a == "-" then break end
    if a == "--" then
      i = i + 1
      break
    end
    local name, val = a:match("^(%-%-[%w-]+)=(.*)$")
    if name and VALUE_OPTS[name] then
      r.options[VALUE_OPTS[name]] = val
    elseif VALUE_OPTS[a] then
      r.options[VALUE_OPTS[a]] = argv[i + 1]
      i = i + 1
    elseif FLAG_OPTS[a] then
      r.options[FLAG_OPTS[a]] = true
    elseif a == "-e" then
      r.code = argv[i + 1]
      i = i + 2
      break
    else
      break
    end
    i = i + 1
  end
  if not r.code then
    r.script = argv[i]
    i = i + 1
  end
  for k = i, n do r.args[#r.args + 1] = argv[k] end
  return r
end

-- }====================================================================

-- {====================================================================
-- The environment
-- =====================================================================

local function cpu_facts()
  local text = read_file("/proc/cpuinfo") or ""
  local model, count = nil, 0
  for line in text:gmatch("[^\n]+") do
    local k, v = line:match("^([^:]-)%s*:%s*(.-)%s*$")
    if k == "processor" then count = count + 1 end
    if not model and (k == "model name" or k == "Model" or k == "cpu model") then model = v end
  end
  if count == 0 then count = nil end
  return model, count
end

local function os_name()
  local text = read_file("/etc/os-release") or ""
  return text:match('PRETTY_NAME="([^"\n]*)"') or text:match("PRETTY_NAME=([^\n]*)")
end

--- environment(p) -> the machine facts of a result record
function M.environment(p)
  local model, count = cpu_facts()
  local clock = p.clock_info and p.clock_info() or {}
  return {
    kernel = trim(read_file("/proc/sys/kernel/osrelease")),
    kernel_version = trim(read_file("/proc/sys/kernel/version")),
    os = os_name(),
    arch = trim(read_file("/proc/sys/kernel/arch")),
    hostname = p.hostname and p.hostname() or nil,
    cpu = { model = model, count = count },
    ram = p.ram and p.ram() or nil,
    clock = { source = clock.source, overhead_ns = num(clock.overhead_ns) },
    sandbox = p.sandbox and p.sandbox() or nil,   -- "kernel", "checks-only" or "off"
  }
end

-- }====================================================================

-- {====================================================================
-- Stats objects to plain tables
-- =====================================================================

local function errnos(t)
  local out, any = {}, false
  for k, v in pairs(t or {}) do
    out[tostring(k)] = v
    any = true
  end
  return any and out or nil
end

--- buckets(s) -> { {lo, hi, count}, ... } of a stats object
local function buckets(s)
  local out = {}
  for i, b in ipairs(s:buckets()) do out[i] = { b[1], b[2], b[3] } end
  return out
end

--- snapshot(s [, light]) -> the plain-table record of a stats object (see docs/results.md)
function M.snapshot(s, light)
  local r = {
    name = s.name, ops = s.ops, bytes = s.bytes, seconds = num(s.seconds),
    user = num(s.user), sys = num(s.sys), cpu_pct = num(s.cpu_pct), iops = num(s.iops),
    bw = num(s.bw), mbps = num(s.mbps), errors = s.errors, errno = errnos(s.errno),
    shorts = s.shorts, stopped = s.stopped, error = s.error, failed = s.failed or nil,
  }
  local lat = { mean = num(s:mean()), min = s:min(), max = s:max() }
  for _, p in ipairs(M.PERCENTILES) do lat[pct_label(p)] = s:percentile(p) end
  r.lat_ns = lat
  r.hist = buckets(s)
  if not light then
    local by = {}
    local any = false
    for _, k in ipairs({ "read", "write", "fsync" }) do
      local sub = s[k]
      if sub then
        by[k] = M.snapshot(sub, true)
        any = true
      end
    end
    r.by_op = any and by or nil
  end
  return r
end

-- }====================================================================

-- {====================================================================
-- Repeats: per-phase summaries
-- =====================================================================

-- The figures summarised over repetitions: name -> function(phase record) -> number
M.FIGURES = {
  { "iops", function(r) return r.iops end },
  { "bw", function(r) return r.bw end },
  { "seconds", function(r) return r.seconds end },
  { "cpu_pct", function(r) return r.cpu_pct end },
  { "lat_mean", function(r) return r.lat_ns and r.lat_ns.mean end },
  { "p50", function(r) return r.lat_ns and r.lat_ns.p50 end },
  { "p90", function(r) return r.lat_ns and r.lat_ns.p90 end },
  { "p99", function(r) return r.lat_ns and r.lat_ns.p99 end },
  { "p99.9", function(r) return r.lat_ns and r.lat_ns["p99.9"] end },
}

local function phase_key(r)
  return (r.kind or "phase") .. "\0" .. (r.name or "") .. "\0" .. (r.occurrence or 1)
end

--- summarize(phases) -> one entry per phase (kind, name, occurrence) in first-seen
-- order: { name, kind, occurrence, samples, figures = {iops = summary, ...}, hist,
-- lat_min, lat_max, main, cache_tainted }
function M.summarize(phases)
  local groups, order = {}, {}
  for _, r in ipairs(phases or {}) do
    local k = phase_key(r)
    local g = groups[k]
    if not g then
      g = { name = r.name, kind = r.kind, occurrence = r.occurrence or 1, recs = {} }
      groups[k] = g
      order[#order + 1] = g
    end
    g.recs[#g.recs + 1] = r
  end
  local out = {}
  for _, g in ipairs(order) do
    local s = { name = g.name, kind = g.kind, occurrence = g.occurrence, samples = #g.recs,
      figures = {} }
    local hists, bytes = {}, 0
    for _, r in ipairs(g.recs) do
      hists[#hists + 1] = r.hist
      bytes = bytes + (r.bytes or 0)
      if r.cache_tainted then s.cache_tainted = true end
      local l = r.lat_ns or {}
      if (r.ops or 0) > 0 and l.min and l.max then
        s.lat_min = math.min(s.lat_min or l.min, l.min)
        s.lat_max = math.max(s.lat_max or l.max, l.max)
      end
    end
    for _, f in ipairs(M.FIGURES) do
      local vals = {}
      for _, r in ipairs(g.recs) do
        local v = num(f[2](r))
        if v then vals[#vals + 1] = v end
      end
      if #vals > 0 then s.figures[f[1]] = statmath.summary(vals) end
    end
    s.main = bytes > 0 and "bw" or "iops"
    s.hist = statmath.hist_merge_list(hists)
    out[#out + 1] = s
  end
  return out
end

-- }====================================================================

-- {====================================================================
-- CSV
-- =====================================================================

M.CSV_COLUMNS = { "rep", "seq", "kind", "name", "occurrence", "ops", "bytes", "seconds", "iops",
  "bw", "mbps", "user", "sys", "cpu_pct", "lat_mean_ns", "lat_min_ns", "lat_max_ns", "p50_ns",
  "p90_ns", "p99_ns", "p99.9_ns", "p99.99_ns", "errors", "stopped", "cache_tainted",
  "resident_pct" }

-- One CSV field (RFC 4180). Numbers and booleans are written bare; every text
-- field is quoted, whatever it holds, with each quote doubled: phase names come
-- from scripts, and a name such as `a,b`, one with a quote or a line break, or one
-- that starts like a formula (=, +, -, @, |) must stay one field, byte for byte.
local function csv_field(v)
  if v == nil then return "" end
  if type(v) == "boolean" then return v and "true" or "false" end
  if type(v) == "number" then
    if v ~= v or v == math.huge or v == -math.huge then return "" end
    if v == floor(v) and math.abs(v) < 2 ^ 53 then return format("%d", v) end
    return format("%.10g", v)
  end
  return '"' .. tostring(v):gsub('"', '""') .. '"'
end
M.csv_field = csv_field

--- csv(phases) -> the text of the CSV file: a header, then one row per phase record
function M.csv(phases)
  local lines = { table.concat(M.CSV_COLUMNS, ",") }
  for _, r in ipairs(phases) do
    local l = r.lat_ns or {}
    local row = { r.rep, r.seq, r.kind, r.name, r.occurrence, r.ops, r.bytes, r.seconds, r.iops,
      r.bw, r.mbps, r.user, r.sys, r.cpu_pct, l.mean, l.min, l.max, l.p50, l.p90, l.p99,
      l["p99.9"], l["p99.99"], r.errors, r.stopped, r.cache_tainted, r.resident_pct }
    for i = 1, #M.CSV_COLUMNS do row[i] = csv_field(row[i]) end
    lines[#lines + 1] = table.concat(row, ",", 1, #M.CSV_COLUMNS)
  end
  return table.concat(lines, "\n") .. "\n"
end

-- }====================================================================

--- fmt(x) -> a number with about four significant digits, without exponents
function M.fmt(x)
  if x == nil then return "-" end
  local a = math.abs(x)
  if a >= 100 then return format("%.0f", x) end
  if a >= 10 then return format("%.1f", x) end
  if a >= 1 then return format("%.2f", x) end
  if a == 0 then return "0" end
  return format("%.3g", x)
end

--- decode(text, name) -> the decoded result record, or nil, message (name is for messages)
function M.decode(text, path)
  local json = cjson.new()
  local ok, doc = pcall(json.decode, text)
  if not ok then return nil, format("%s is not valid JSON: %s", path, tostring(doc)) end
  if type(doc) ~= "table" or doc.schema_version == nil then
    return nil, format("%s is not a platter result file (no schema_version)", path)
  end
  if type(doc.schema_version) ~= "number" or doc.schema_version > M.SCHEMA_VERSION then
    local v = doc.schema_version
    return nil, format("%s has schema_version %s; this platter reads up to %d", path,
      type(v) == "number" and format("%g", v) or tostring(v), M.SCHEMA_VERSION)
  end
  return doc
end

--- summary_of(doc) -> the per-phase summaries of a result record (recomputed when absent)
function M.summary_of(doc)
  if type(doc.summary) == "table" and #doc.summary > 0 then return doc.summary end
  return M.summarize(doc.phases)
end

--- print_repeats(summary, reps, out) -> writes the `mean ± half-width` table
function M.print_repeats(summary, reps, write)
  local rows = { { "phase", "IOPS", "MB/s", "p99 µs" } }
  for _, s in ipairs(summary) do
    local function cell(fig, scale)
      local f = s.figures[fig]
      if not f or not f.mean then return "-" end
      scale = scale or 1
      local t = M.fmt(f.mean / scale)
      if f.ci then
        t = t .. " ± " .. M.fmt(f.ci / scale)
        if f.ci_pct then t = t .. format(" (%.1f%%)", f.ci_pct) end
      end
      return t
    end
    local name = s.name or "?"
    if (s.occurrence or 1) > 1 then name = name .. " #" .. s.occurrence end
    rows[#rows + 1] = { name, cell("iops"), cell("bw", 1e6), cell("p99", 1e3) }
  end
  local w = {}
  for _, r in ipairs(rows) do
    for i, c in ipairs(r) do
      local len = utf8 and utf8.len(c) or #c:gsub("[\128-\191]", "")
      if not w[i] or len > w[i] then w[i] = len end
    end
  end
  write(format("\n%d repetitions: mean ± half-width of the 95%% confidence interval "
    .. "(Student t)\n", reps))
  for _, r in ipairs(rows) do
    local parts = {}
    for i, c in ipairs(r) do
      local len = utf8 and utf8.len(c) or #c:gsub("[\128-\191]", "")
      local pad = string.rep(" ", w[i] - len)
      parts[i] = i == 1 and c .. pad or pad .. c
    end
    write(table.concat(parts, "   "), "\n")
  end
end

-- {====================================================================
-- Installation: the hooks
-- =====================================================================

--- install(core [, P]): P is the public platter table (unused: nothing is wrapped). Once only:
-- init.lua calls it before any script runs, so a sandboxed script that requires
-- this module cannot install it again with a core of its own making.
local installed = false
function M.install(core, P)
  if installed then error("platter.results: already installed", 2) end
  installed = true
  -- platter's own copy of the options and command line, made afresh from the C
  -- configuration on each call. Never p.config: that is the read-only view scripts
  -- get, and nothing a script can reach may decide where results go or what the
  -- record says was run.
  local cfg = core._config()
  local record = cfg.json ~= nil or cfg.csv ~= nil or (cfg.repeats or 1) > 1
    or (cfg.ci or 0) > 0
  local methods = core._file_methods or {}
  local known = core._files or {}  -- weak set of every file p.open made
  local ram = core.ram and core.ram() or 0
  local start_time = os.time()
  local info_of = methods.info
  local size_of = methods.size
  local resident_of = methods.resident

  local S = {
    rep = 1, reps_done = 0, phases = {}, seq = 0, occ = {},
    files = {}, by_key = {},               -- file entries, in first-seen order
    open = setmetatable({}, { __mode = "k" }),   -- file object -> entry (once seen)
    starts = setmetatable({}, { __mode = "k" }), -- stats object -> phase-start snapshot
    warned = false, warnings = {}, ci_met = nil,
  }

  -- Run a hook's work so that a bug in it never stops the benchmark. A Ctrl-C
  -- that lands inside it (the host's stop hook raises "interrupted" at the next
  -- Lua instruction, once) is passed on after the work is done again, so a
  -- phase that finished is still recorded.
  local function protect(what, fn, ...)
    local ok, err = pcall(fn, ...)
    if ok then return end
    if core.interrupted() then
      pcall(fn, ...)
      error("interrupted", 0)
    end
    core._notice("platter: results: ", what, ": ", tostring(err), "\n")
  end

  -- p.parallel's workers are forks of this process: they neither warn nor record
  local function own_pid()
    local stat = read_file("/proc/self/stat")
    return stat and stat:match("^(%d+)")
  end
  local pid = own_pid()
  local function in_worker() return own_pid() ~= pid end

  -- a file object's entry (made on first sight); entries are shared by every
  -- handle with the same path and mode, so repetitions reuse them
  local function entry(f)
    local e = S.open[f]
    if e then return e end
    local ok, info = pcall(info_of, f)
    if not ok or type(info) ~= "table" then return nil end
    local key = tostring(info.path) .. (info.direct and "\0direct" or "")
    e = S.by_key[key]
    if not e then
      e = { id = #S.files + 1, info = info, direct = info.direct and true or false,
            path = info.path }
      S.files[#S.files + 1] = e
      S.by_key[key] = e
    else
      e.info = info
    end
    S.open[f] = e
    return e
  end

  local function is_open(f)
    local ok, size = pcall(size_of, f)
    return ok and type(size) == "number", size
  end

  -- pages of f in the page cache, as a percentage of [off, off + len) (whole file by
  -- default); nil when not worth measuring (direct, empty, or 2 x RAM and more)
  local function residency(f, e, size, off, len)
    if e.direct or not size or size == 0 or (ram > 0 and size >= 2 * ram) then return nil end
    local ok, res, total = pcall(resident_of, f, off, len)
    if not ok or type(res) ~= "number" or not total or total == 0 then return nil end
    return 100 * res / total, res, total
  end

  -- every open file p.open made, with its entry
  local function open_files()
    local out = {}
    for f in pairs(known) do
      local e = S.open[f] or entry(f)
      if e and is_open(f) then out[#out + 1] = { f = f, entry = e } end
    end
    return out
  end

  -- p.run: what it will touch, measured before it starts (the "run" hook takes it)
  local RUN_PARAMS = { "op", "bs", "bs_list", "weights", "pattern", "qd", "engine", "count",
    "bytes", "seconds", "ramp", "read_pct", "fsync_every", "rate_iops", "rate_bps", "think_us",
    "align", "stride", "theta", "sigma", "batch", "on_error" }
  local function describe_run(t)
    local params, files = {}, {}
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
    local list = t.files or { t.file }
    local lo, hi
    if type(t.range) == "table" then
      lo = tonumber(t.range[1]) or core.parse_size(t.range[1])
      hi = tonumber(t.range[2]) or core.parse_size(t.range[2])
    end
    for _, f in ipairs(list) do
      local e = entry(f)
      if e then
        local open, size = is_open(f)
        local c = { entry = e, size = size }
        if open and not e.direct then
          local off, len = 0, nil
          if lo and hi and hi > lo then
            off, len = lo, hi - lo
            c.size = len
          end
          c.pct, c.res, c.total = residency(f, e, size, off, len)
        end
        files[#files + 1] = c
      end
    end
    params.files = {}
    for i, c in ipairs(files) do params.files[i] = c.entry.id end
    return { params = params, files = files, name = t.name or "run" }
  end

  core._hook("run_start", function(t)
    S.pending_run = nil
    protect("run_start", function()
      if not in_worker() then S.pending_run = describe_run(t) end
    end)
  end)

  -- bytes this process had the storage read and write (/proc/self/io), or nil
  local function storage_bytes()
    local text = read_file("/proc/self/io")
    local r = text and tonumber(text:match("read_bytes:%s*(%d+)"))
    local w = text and tonumber(text:match("\nwrite_bytes:%s*(%d+)"))
    return r and w and r + w or nil
  end

  -- phase start: residency of every open buffered file under 2 x RAM
  local function phase_start(s)
    if in_worker() then return end
    local snap = { files = {}, direct_open = false }
    for _, o in ipairs(open_files()) do
      local f, e = o.f, o.entry
      if e.direct then
        snap.direct_open = true
      else
        local _, size = is_open(f)
        local pct, res, total = residency(f, e, size)
        snap.files[#snap.files + 1] = { f = f, entry = e, size = size, pct = pct, res = res,
          total = total }
      end
    end
    -- both kinds open: the storage counters can tell which one a phase used
    if snap.direct_open and #snap.files > 0 and not cfg.sim then snap.io = storage_bytes() end
    S.starts[s] = snap
  end
  core._hook("phase_start", function(s) protect("phase_start", phase_start, s) end)

  -- the cache verdict of a finished phase: candidates {entry, size, pct}. A buffered
  -- file under twice RAM taints the phase when more than 1% of it was in the page
  -- cache at the start (a range dropped with f:drop_cache or p.drop_caches holds ~0%).
  local function cache_verdict(r, candidates)
    local worst, tainted, dataset, facts, maxpct = nil, false, 0, {}, nil
    for _, c in ipairs(candidates) do
      local e = c.entry
      if not e.direct and c.size then
        dataset = dataset + c.size
        local small = ram == 0 or c.size < 2 * ram
        local t = small and (c.pct or 0) > 1
        facts[#facts + 1] = { file = e.id, size = c.size, resident_pct = c.pct, tainted = t }
        if c.pct and (not maxpct or c.pct > maxpct) then maxpct = c.pct end
        if t then
          tainted = true
          if not worst or (c.pct or 0) > (worst.pct or 0) then worst = c end
        end
      end
    end
    if #facts == 0 then return end
    r.cache = { files = facts, dataset_bytes = dataset, ram = ram, tainted = tainted }
    r.cache_tainted = tainted
    r.resident_pct = maxpct
    if tainted and not S.warned and (r.ops or 0) > 0 then
      S.warned = true
      local e = worst.entry
      local why = format("%.0f%% of it was in the page cache at the start", worst.pct)
      local msg = format("phase '%s' used %s (%s) through the page cache with %s of RAM, "
        .. "and %s: the cache may be answering (drop it with f:drop_cache() first, open it "
        .. "with direct = true, or use a data set over twice RAM)",
        r.name or "?", e.path or "?", M.size_text(worst.size), M.size_text(ram), why)
      S.warnings[#S.warnings + 1] = msg
      core._notice("platter: warning: ", msg, "\n")  -- at a line boundary, never mid-row
    end
  end

  -- which buffered files a p.phase used: those whose residency changed (reads bring
  -- pages in, writes dirty new ones), or opened during it. Without such evidence, the
  -- open buffered files; but when a direct file was open too, only if the storage
  -- moved less than a tenth of the phase's bytes (/proc/self/io), that is, the page
  -- cache answered: else the phase is taken as direct.
  local function phase_candidates(s)
    local snap = S.starts[s]
    if not snap then return {} end
    local seen, used, all = {}, {}, {}
    for _, c in ipairs(snap.files) do
      seen[c.entry] = true
      local open, size = is_open(c.f)
      if open then
        local pct, res = residency(c.f, c.entry, size)
        c.size = c.size or size
        all[#all + 1] = c
        if res ~= c.res then used[#used + 1] = c end
      end
    end
    local direct = snap.direct_open
    for _, o in ipairs(open_files()) do  -- opened during the phase: residency at its end
      local f, e = o.f, o.entry
      if not seen[e] then
        seen[e] = true
        if e.direct then
          direct = true
        else
          local _, size = is_open(f)
          local pct = residency(f, e, size)
          used[#used + 1] = { entry = e, size = size, pct = pct }
        end
      end
    end
    if #used > 0 then return used end
    if direct then
      local now = snap.io and storage_bytes()
      local bytes = s.bytes or 0
      if now and bytes > 0 and now - snap.io < 0.1 * bytes then return all end
      return {}
    end
    return all
  end

  local function record_phase(s, kind, extra)
    local r
    if record then
      r = M.snapshot(s)
    else
      r = { name = s.name, ops = s.ops, bytes = s.bytes }
    end
    r.kind = kind
    if kind == "run" then
      local d = S.pending_run
      if d then
        r.params = d.params
        r.files = d.params.files
        local cands = {}
        for _, c in ipairs(d.files) do
          if not c.entry.direct then cands[#cands + 1] = c end
        end
        cache_verdict(r, cands)
      end
    elseif kind == "phase" then
      local cands = phase_candidates(s)
      local ids = {}
      for i, c in ipairs(cands) do ids[i] = c.entry.id end
      if #ids > 0 then r.files = ids end
      cache_verdict(r, cands)
    elseif kind == "parallel" and record and type(extra) == "table" then
      local workers, failed = {}, {}
      local i = 1
      while extra[i] ~= nil do
        local w = extra[i]
        workers[i] = w and M.snapshot(w) or false
        i = i + 1
      end
      r.workers = workers
      r.params = { workers = i - 1 }
      for k, f in ipairs(extra.failed or {}) do
        failed[k] = { worker = f.worker, status = f.status, signal = f.signal, error = f.error }
      end
      if #failed > 0 then r.failed_workers = failed end
    end
    if kind == "run" then S.pending_run = nil end
    if not record then return end
    S.seq = S.seq + 1
    r.seq = S.seq
    r.rep = S.rep
    local ok = kind .. "\0" .. tostring(r.name)
    S.occ[ok] = (S.occ[ok] or 0) + 1
    r.occurrence = S.occ[ok]
    S.phases[#S.phases + 1] = r
  end

  core._hook("phase", function(s, kind, extra)
    protect("phase", function()
      if not in_worker() then record_phase(s, kind, extra) end
    end)
  end)

  if not record then return end

  -- {--- repeats ------------------------------------------------------------
  local function ci_status()
    local worst
    for _, s in ipairs(M.summarize(S.phases)) do
      local f = s.figures[s.main]
      if f and f.mean and f.mean > 0 then
        local pct = f.ci_pct or math.huge
        if not worst or pct > worst.pct then worst = { name = s.name, pct = pct } end
      end
    end
    return worst
  end

  core._hook("repeat", function(rep, repeats)
    S.reps_done = rep - 1
    if rep > 1 and (cfg.ci or 0) > 0 and rep - 1 >= 3 then
      local worst = ci_status()
      if not worst or worst.pct < cfg.ci then
        S.ci_met = true
        if not core.quiet then
          core._notice(format("platter: --ci %g%%: every phase is within it after %d repetitions\n",
            cfg.ci, rep - 1))
        end
        return false
      end
    end
    S.rep = rep
    S.occ = {}
    if rep > 1 and not core.quiet then
      core._notice(format("platter: repetition %d of %s\n", rep,
        (cfg.ci or 0) > 0 and format("at most %d", repeats) or tostring(repeats)))
    end
    return true
  end)
  -- }------------------------------------------------------------------------

  local function build(status, msg)
    local script = core._script()
    local cl = M.split_command_line(cfg.argv or {})
    local seed = cl.options.seed or format("%.0f", cfg.seed or 1)
    local files = {}
    for i, e in ipairs(S.files) do
      local info = {}
      for k, v in pairs(e.info or {}) do info[k] = v end
      info.id = e.id
      files[i] = info
    end
    local summary = M.summarize(S.phases)
    local doc = {
      schema_version = M.SCHEMA_VERSION,
      platter = { version = core.version, lua = core.lua },
      command_line = cfg.argv,
      args = cl.args,
      options = { repeats = cfg.repeats, ci = cfg.ci, sim = cfg.sim, trusted = core.trusted,
        destroy = cfg.destroy, quiet = core.quiet, seed_given = cfg.seed_given },
      seed = seed,
      script = { name = script.name, kind = cl.code and "code" or (script.name and
        (script.name:find("/") or script.name:find("%.lua$")) and "file" or "workload"),
        sha256 = script.text and core.sha256(script.text), text = script.text },
      start_time = iso_time(start_time), start_unix = start_time,
      end_time = iso_time(os.time()), end_unix = os.time(),
      status = { exit = status, message = msg ~= "" and msg or nil,
        interrupted = msg == "interrupted", complete = status == 0 },
      environment = M.environment(core),
      files = files,
      repetitions = { requested = cfg.repeats, done = S.reps_done, ci_target_pct =
        (cfg.ci or 0) > 0 and cfg.ci or nil, ci_met = S.ci_met },
      phases = S.phases,
      summary = summary,
      warnings = #S.warnings > 0 and S.warnings or nil,
    }
    return doc, summary
  end

  core._hook("exit", function(status, msg)
    cfg = core._config()
    local script = core._script()
    if script.name and script.name:find("^platter%.cmd_") then return end  -- a command
    -- the last repetition that started is done, or was cut short: count it if it left phases
    local last = 0
    for _, r in ipairs(S.phases) do last = math.max(last, r.rep) end
    S.reps_done = math.max(S.reps_done, last)
    if (cfg.ci or 0) > 0 and S.ci_met == nil then
      local worst = ci_status()
      S.ci_met = S.reps_done >= 2 and worst ~= nil and worst.pct < cfg.ci
      if not S.ci_met and not core.quiet and S.reps_done >= 2 then
        core._notice(format("platter: --ci %g%%: not reached after %d repetitions%s\n", cfg.ci,
          S.reps_done, worst and format(" (widest: '%s', ±%.1f%%)", worst.name, worst.pct) or ""))
      end
    end
    local doc, summary = build(status, msg)
    if S.reps_done >= 2 and #summary > 0 then
      M.print_repeats(summary, S.reps_done, core.write)
      core.flush()
    end
    local errs = {}
    if cfg.json then
      local json = cjson.new()
      json.encode_number_precision(14)
      -- platter's own writer, to the path given on the command line (src/core/record.c)
      local ok, text = pcall(json.encode, doc)
      local done, err = false, text
      if ok then done, err = core._record_write("json", text) end
      if not done then errs[#errs + 1] = format("--json %s", tostring(err)) end
    end
    if cfg.csv then
      local ok, text = pcall(M.csv, S.phases)
      local done, err = false, text
      if ok then done, err = core._record_write("csv", text) end
      if not done then errs[#errs + 1] = format("--csv %s", tostring(err)) end
    end
    if #errs > 0 then error(table.concat(errs, "; "), 0) end
  end)
end

-- }====================================================================

return M
