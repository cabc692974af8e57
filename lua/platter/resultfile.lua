-- platter.resultfile: the result record's format (docs/results.md). What a
-- phase record holds, the per-phase summaries over repetitions, the JSON and
-- CSV texts, reading a record back, and the number texts that go with them.
-- Used by platter.recorder (which writes) and the built-in commands (which
-- read). It touches no file: callers read and write them.

-- This module's own instances of the pure modules it uses. A sandboxed script may
-- require platter.statmath and cjson, and gets the tables in package.loaded; were
-- they these, it could rewrite statmath.summary or cjson.new and so forge the
-- record. Each is loaded on its first use: for a run that records, when the
-- recorder installs (M.prepare, before any script runs); a run that records
-- nothing does not load them.
local function private(name)
  local loader = package and package.preload and package.preload[name]
  if loader then return loader(name) end
  return require(name)
end
local function on_first_use(name)
  return setmetatable({}, { __index = function(t, k)
    local m = private(name)
    setmetatable(t, { __index = m })
    return m[k]
  end })
end
local statmath = on_first_use("platter.statmath")
local cjson = on_first_use("cjson")

local M = {}

--- prepare(): load the private statmath and cjson now, not in the first phase's hook
function M.prepare()
  return statmath.summary ~= nil and cjson.new ~= nil
end

-- 2 added a phase's interrupted = true (a phase cut by Ctrl-C); 3 added platter.build,
-- cwd, args_abs, pid, files[].abs_path, status.message on errors and the cache fields
-- resident_end_pct, served_pct, intended. Readers take every version up to this one.
M.SCHEMA_VERSION = 3
M.PERCENTILES = { 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99 }

local floor, format = math.floor, string.format

--- finite(x) -> x when it is a finite number (JSON has no inf or NaN), else nil
local function finite(x)
  if type(x) ~= "number" or x ~= x or x == math.huge or x == -math.huge then return nil end
  return x
end
M.finite = finite

--- pct_label(99.9) -> "p99.9": the key of a percentile in lat_ns
local function pct_label(p)
  return "p" .. (p == floor(p) and format("%d", p) or tostring(p))
end
M.pct_label = pct_label

-- {====================================================================
-- Phase records: stats objects to plain tables
-- =====================================================================

local function errnos(t)
  local out, any = {}, false
  for k, v in pairs(t or {}) do
    out[tostring(k)] = v
    any = true
  end
  return any and out or nil
end

-- { {lo, hi, count}, ... } of a stats object
local function buckets(s)
  local out = {}
  for i, b in ipairs(s:buckets()) do out[i] = { b[1], b[2], b[3] } end
  return out
end

-- s.series as plain tables (a phase or run with an interval), or nil
local SERIES_KEYS = { "t", "ops", "bytes", "iops", "bw", "lat_mean", "lat_min", "lat_p50", "lat_p99",
  "lat_max" }
local function series(s)
  local sr = s.series
  if not sr then return nil end
  local out = {}
  for i, x in ipairs(sr) do
    local e = {}
    for _, k in ipairs(SERIES_KEYS) do e[k] = finite(x[k]) end
    out[i] = e
  end
  return out
end

local function latencies(s)
  local lat = { mean = finite(s:mean()), min = s:min(), max = s:max() }
  for _, p in ipairs(M.PERCENTILES) do lat[pct_label(p)] = s:percentile(p) end
  return lat
end

--- snapshot(s [, light]) -> the plain-table record of a stats object; light leaves
-- out by_op (the per-operation records, which are light snapshots themselves)
function M.snapshot(s, light)
  local r = {
    name = s.name, ops = s.ops, bytes = s.bytes, seconds = finite(s.seconds),
    user = finite(s.user), sys = finite(s.sys), cpu_pct = finite(s.cpu_pct),
    iops = finite(s.iops), bw = finite(s.bw), mbps = finite(s.mbps), errors = s.errors,
    errno = errnos(s.errno), shorts = s.shorts, stopped = s.stopped, error = s.error,
    failed = s.failed or nil, interrupted = s.stopped == "interrupted" or nil,
  }
  r.lat_ns = latencies(s)
  r.hist = buckets(s)
  r.series = series(s)
  if r.series then r.series_dropped = s.series_dropped end
  if not light then
    local by, any = {}, false
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
-- Summaries: one entry per phase over its repetitions
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

-- the phase records grouped by (kind, name, occurrence), in first-seen order
local function group_phases(phases)
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
  return order
end

local function summarize_group(g)
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
      local v = finite(f[2](r))
      if v then vals[#vals + 1] = v end
    end
    if #vals > 0 then s.figures[f[1]] = statmath.summary(vals) end
  end
  s.main = bytes > 0 and "bw" or "iops"
  s.hist = statmath.hist_merge_list(hists)
  return s
end

M.phase_key = phase_key

--- normalize_path(path [, pid]) -> path with the run's pid in its last component
-- written "<pid>" (Bonnie.<pid>, platter-sweep.<pid>.dat), so that scratch names of two
-- runs compare equal. Without the pid (schema_version 1) a run of two or more digits
-- between dots, or after the last dot, is taken as one.
function M.normalize_path(path, pid)
  if type(path) ~= "string" then return path end
  local dir, base = path:match("^(.-)([^/]*)$")
  if type(pid) == "number" and pid > 0 then
    local ps = format("%d", pid)
    base = base:gsub("%f[%d]" .. ps .. "%f[%D]", "<pid>")
  else
    base = base:gsub("%.%d%d+%.", ".<pid>."):gsub("%.%d%d+$", ".<pid>")
  end
  return dir .. base
end

--- position(name [, parse]) -> head, offset for a phase named "HEAD at OFFSET" or
-- "HEAD: OFFSET" (OFFSET in bytes, or with a unit when parse, such as p.parse_size,
-- reads it): "zone 3 at 1234567890" -> "zone 3", 1234567890. nil for other names.
function M.position(name, parse)
  name = type(name) == "string" and name or ""
  local head, num = name:match("^(.-)%s+at%s+([%d.]+%a*)$")
  if not head then head, num = name:match("^(.-):%s*([%d.]+%a*)$") end
  if not head then return nil end
  local v = tonumber(num)
  if not v and parse then
    local ok, r = pcall(parse, num)
    v = ok and tonumber(r) or nil
  end
  if not v then return nil end
  return head, v
end

--- extents(doc) -> phase key (kind, name, occurrence) -> the size in bytes of the file
-- or device the phase used (its first file), where the record says
function M.extents(doc)
  local sizes, byid = {}, {}
  for _, f in ipairs(type(doc.files) == "table" and doc.files or {}) do
    if type(f) == "table" and f.id then byid[f.id] = f end
  end
  for _, r in ipairs(type(doc.phases) == "table" and doc.phases or {}) do
    local k = phase_key(r)
    local id = type(r.files) == "table" and r.files[1]
    local f = id and byid[id]
    if sizes[k] == nil and f and tonumber(f.size) and f.size > 0 then sizes[k] = f.size end
  end
  return sizes
end

--- summarize(phases) -> one entry per phase (kind, name, occurrence) in first-seen
-- order: { name, kind, occurrence, samples, figures = {iops = summary, ...}, hist,
-- lat_min, lat_max, main, cache_tainted }
function M.summarize(phases)
  local out = {}
  for i, g in ipairs(group_phases(phases)) do out[i] = summarize_group(g) end
  return out
end

--- summary_of(doc) -> the per-phase summaries of a result record (recomputed when absent)
function M.summary_of(doc)
  if type(doc.summary) == "table" and #doc.summary > 0 then return doc.summary end
  return M.summarize(doc.phases)
end

-- }====================================================================

-- {====================================================================
-- The texts: JSON and CSV
-- =====================================================================

--- encode(doc) -> the JSON text of a result record, or of a part of one (raises what
-- lua-cjson raises)
local encoder
function M.encode(doc)
  if not encoder then
    encoder = cjson.new()
    encoder.encode_number_precision(14)
  end
  return encoder.encode(doc)
end

--- decode(text, name) -> the decoded result record, or nil, message (name is for messages)
function M.decode(text, name)
  local json = cjson.new()
  local ok, doc = pcall(json.decode, text)
  if not ok then return nil, format("%s is not valid JSON: %s", name, tostring(doc)) end
  if type(doc) ~= "table" or doc.schema_version == nil then
    return nil, format("%s is not a platter result file (no schema_version)", name)
  end
  if type(doc.schema_version) ~= "number" or doc.schema_version > M.SCHEMA_VERSION then
    local v = doc.schema_version
    return nil, format("%s has schema_version %s; this platter reads up to %d", name,
      type(v) == "number" and format("%g", v) or tostring(v), M.SCHEMA_VERSION)
  end
  local bad = M.shape_error(doc)
  if bad then return nil, format("%s is not a well-formed platter result file: %s", name, bad) end
  return doc
end

-- The types of the record's fields that readers (compare, plot, rerun) rely on:
-- "list" and "object" are tables (cjson writes an empty list as {}), "list:T" a list
-- whose items are T. Fields absent are fine; fields not named here are not checked.
-- (command_line, args, args_abs and seed are checked by rerun itself, which refuses
-- a record with its own words; compare shows them as text)
local TOP_SHAPE = {
  platter = "object", params = "object", cwd = "string", pid = "number",
  options = "object", script = "object", start_time = "string",
  end_time = "string", start_unix = "number", end_unix = "number", status = "object",
  environment = "object", files = "list:object", repetitions = "object", phases = "list:object",
  summary = "list:object", warnings = "list:string", reports = "list:object",
  verdict = "object", verdicts = "list:object", rerun_of = "object",
}
local PHASE_SHAPE = {
  kind = "string", name = "string", rep = "number", seq = "number",
  occurrence = "number", params = "object", files = "list", ops = "number", bytes = "number",
  errors = "number", shorts = "number", seconds = "number", user = "number", sys = "number",
  cpu_pct = "number", iops = "number", bw = "number", mbps = "number", errno = "object",
  stopped = "string", error = "string", failed = "boolean", interrupted = "boolean",
  lat_ns = "object", hist = "list:object", series = "object",
}

local SUMMARY_SHAPE = {
  kind = "string", name = "string", occurrence = "number", main = "string",
  samples = "number", lat_min = "number", lat_max = "number", cache_tainted = "boolean",
  hist = "list:object", figures = "object",
}
local FILE_SHAPE = {
  id = "number", path = "string", abs_path = "string", kind = "string", size = "number",
  fs_size = "number", direct = "boolean", fs_type = "string", mount_point = "string",
  mount_options = "string", device = "string", model = "string", rotational = "boolean",
  scheduler = "string", read_ahead_kb = "number", write_cache = "string",
  logical_block = "number", physical_block = "number", dio_align = "number",
  dio_mem_align = "number", zoned = "string",
}
local SUB_SHAPES = {  -- objects inside the top level, each field's type
  repetitions = { requested = "number", done = "number", ci_target_pct = "number",
    ci_met = "boolean" },
  status = { exit = "number", message = "string", interrupted = "boolean", complete = "boolean" },
  environment = { kernel = "string", kernel_version = "string", os = "string", arch = "string",
    hostname = "string", cpu = "object", ram = "number", clock = "object", mpi = "object",
    sandbox = "string" },
  script = { name = "string", kind = "string", sha256 = "string", text = "string",
    pack = "object", workloads = "list:object" },
  options = { repeats = "number", ci = "number", sim = "string", target = "string" },
}

local function article(t)  -- "a number", "an object"
  return (t:find("^[aeiou]") and "an " or "a ") .. t
end

local function type_error(where, want, v)
  local alts = {}
  for alt in want:gsub("^list:.*", "list"):gmatch("[^|]+") do alts[#alts + 1] = article(alt) end
  return format("%s must be %s, not %s", where, table.concat(alts, " or "), type(v))
end

local function check_value(where, want, v)
  local base, item = want:match("^(list):(.+)$")
  base = base or want
  local t = type(v)
  if base == "list" or base == "object" then
    if t ~= "table" then return type_error(where, want, v) end
    if item then
      for i, x in ipairs(v) do
        if type(x) ~= (item == "object" and "table" or item) then
          return format("%s[%d] must be %s, not %s", where, i, article(item), type(x))
        end
      end
    end
    return nil
  end
  for alt in want:gmatch("[^|]+") do
    if t == alt then return nil end
  end
  return type_error(where, want, v)
end

local function check_fields(where, t, shape)
  for k, want in pairs(shape) do
    if t[k] ~= nil then
      local e = check_value(where .. k, want, t[k])
      if e then return e end
    end
  end
end

local function check_hist(where, hist)
  for j, b in ipairs(type(hist) == "table" and hist or {}) do
    if type(b[1]) ~= "number" or type(b[2]) ~= "number" or type(b[3]) ~= "number" then
      return format("%s[%d] must be [lo, hi, count]", where, j)
    end
  end
end

local function check_numbers(where, t)  -- phases[i].lat_ns: every value a number
  for k, v in pairs(type(t) == "table" and t or {}) do
    if type(v) ~= "number" then
      return format("%s%s must be a number, not %s", where, tostring(k), type(v))
    end
  end
end

local FIGURE_SHAPE = { n = "number", mean = "number", min = "number", max = "number",
  ci = "number", sd = "number", ci_pct = "number", lo = "number", hi = "number",
  values = "list:number" }

local function check_figures(where, figs)  -- summary[i].figures: name -> statistics
  for name, f in pairs(type(figs) == "table" and figs or {}) do
    if type(f) ~= "table" then
      return format("%s%s must be an object, not %s", where, tostring(name), type(f))
    end
    local e = check_fields(where .. tostring(name) .. ".", f, FIGURE_SHAPE)
    if e then return e end
  end
end

--- shape_error(doc) -> nil, or what is wrong with the types of a decoded record
function M.shape_error(doc)
  local e = check_fields("", doc, TOP_SHAPE)
  if e then return e end
  for k, shape in pairs(SUB_SHAPES) do
    if type(doc[k]) == "table" then
      e = check_fields(k .. ".", doc[k], shape)
      if e then return e end
    end
  end
  local env = type(doc.environment) == "table" and doc.environment or {}
  e = type(env.clock) == "table" and check_fields("environment.clock.", env.clock,
      { source = "string", overhead_ns = "number" })
    or type(env.cpu) == "table" and check_fields("environment.cpu.", env.cpu,
      { model = "string", count = "number" })
  if e then return e end
  for i, f in ipairs(type(doc.files) == "table" and doc.files or {}) do
    e = check_fields(format("files[%d].", i), f, FILE_SHAPE)
    if e then return e end
  end
  for _, part in ipairs { { "phases", PHASE_SHAPE }, { "summary", SUMMARY_SHAPE } } do
    local list = type(doc[part[1]]) == "table" and doc[part[1]] or {}
    for i, x in ipairs(list) do
      local at = format("%s[%d].", part[1], i)
      e = check_fields(at, x, part[2]) or check_hist(at .. "hist", x.hist)
        or check_numbers(at .. "lat_ns.", x.lat_ns) or check_figures(at .. "figures.", x.figures)
      if e then return e end
    end
  end
  return nil
end

M.CSV_COLUMNS = { "rep", "seq", "kind", "name", "occurrence", "ops", "bytes", "seconds", "iops",
  "bw", "mbps", "user", "sys", "cpu_pct", "lat_mean_ns", "lat_min_ns", "lat_max_ns", "p50_ns",
  "p90_ns", "p99_ns", "p99.9_ns", "p99.99_ns", "errors", "stopped", "cache_tainted",
  "resident_pct", "interrupted" }

--- csv_field(v) -> one CSV field (RFC 4180). Numbers and booleans are written bare;
-- every text field is quoted, whatever it holds, with each quote doubled: phase
-- names come from scripts, and a name such as `a,b`, one with a quote or a line
-- break, or one that starts like a formula (=, +, -, @, |) must stay one field,
-- byte for byte.
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

local function csv_row(r)
  local l = r.lat_ns or {}
  local row = { r.rep, r.seq, r.kind, r.name, r.occurrence, r.ops, r.bytes, r.seconds, r.iops,
    r.bw, r.mbps, r.user, r.sys, r.cpu_pct, l.mean, l.min, l.max, l.p50, l.p90, l.p99,
    l["p99.9"], l["p99.99"], r.errors, r.stopped, r.cache_tainted, r.resident_pct,
    r.interrupted == true }
  for i = 1, #M.CSV_COLUMNS do row[i] = csv_field(row[i]) end
  return table.concat(row, ",", 1, #M.CSV_COLUMNS)
end
M.csv_row = csv_row

--- csv(phases) -> the text of the CSV file: a header, then one row per phase record
function M.csv(phases)
  local lines = { table.concat(M.CSV_COLUMNS, ",") }
  for _, r in ipairs(phases) do lines[#lines + 1] = csv_row(r) end
  return table.concat(lines, "\n") .. "\n"
end

-- }====================================================================

-- {====================================================================
-- The recorded command line: global options, the script, its arguments
-- =====================================================================

local VALUE_OPTS = { ["--seed"] = "seed", ["--json"] = "json", ["--csv"] = "csv",
  ["--sim"] = "sim", ["--repeat"] = "repeat", ["--ci"] = "ci", ["--lua-dir"] = "lua_dir",
  ["--interval"] = "interval", ["--target"] = "target", ["--max-memory"] = "max_memory" }
local FLAG_OPTS = { ["--trust"] = "trust", ["--destroy"] = "destroy", ["--quiet"] = "quiet",
  ["-q"] = "quiet", ["--verbose"] = "verbose", ["-v"] = "verbose", ["--help"] = "help",
  ["-h"] = "help", ["--version"] = "version", ["-V"] = "version" }

--- absolute_args(args, resolve) -> a copy of args in which every relative path
-- that exists (resolve(word) gives a kind other than "new") is made absolute: a word
-- as it is, the value of key=value, or the value glued to a short option ("-dsub"),
-- the three forms a sandboxed run grants. Words that name nothing stay as given.
function M.absolute_args(args, resolve)
  local function abs(w)
    if w == "" or w:sub(1, 1) == "/" then return nil end
    local ok, r, kind = pcall(resolve, w)
    if ok and r and kind and kind ~= "new" then return r end
    return nil
  end
  local out = {}
  for i, a in ipairs(args) do
    local eq = a:find("=", 1, true)
    local whole = abs(a)
    if whole and a:sub(1, 1) ~= "-" then
      out[i] = whole
    elseif eq and eq < #a and a:sub(1, 1) ~= "-" and abs(a:sub(eq + 1)) then
      out[i] = a:sub(1, eq) .. abs(a:sub(eq + 1))
    elseif a:sub(1, 1) == "-" and #a >= 3 and a:sub(2, 2) ~= "-" and abs(a:sub(3)) then
      out[i] = a:sub(1, 2) .. abs(a:sub(3))
    else
      out[i] = a
    end
  end
  return out
end

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
-- Numbers as text, for what the commands and the recorder print
-- =====================================================================

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

--- interrupted_line(r) -> platter's line on a phase record cut by Ctrl-C: what it
-- did until then, in the units of the repeats table (MB = 10^6 bytes, µs)
function M.interrupted_line(r)
  local fmt = M.fmt
  local ops, bytes, secs = r.ops or 0, r.bytes or 0, r.seconds or 0
  local what = format("%d ops", ops)
  if bytes > 0 then what = what .. ", " .. fmt(bytes / 1e6) .. " MB" end
  local kind = r.kind or "phase"
  local t = kind == "parallel"  -- the workers' merged phase: named after the call
    and format("platter: interrupted p.parallel after %s s: %s", fmt(secs), what)
    or format("platter: interrupted %s '%s' after %s s: %s", kind, tostring(r.name), fmt(secs),
      what)
  if ops > 0 and secs > 0 then
    t = t .. format(" (%s IOPS", fmt(ops / secs))
    if bytes > 0 then t = t .. format(", %s MB/s", fmt(bytes / secs / 1e6)) end
    t = t .. ")"
    local l = r.lat_ns or {}
    if l.mean then
      t = t .. format(", latency µs: mean %s, p50 %s, p99 %s, max %s", fmt(l.mean / 1e3),
        fmt((l.p50 or 0) / 1e3), fmt((l.p99 or 0) / 1e3), fmt((l.max or 0) / 1e3))
    end
  end
  return t .. "\n"
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

-- }====================================================================

return M
