-- platter compare A.json B.json [C.json ...]: result files side by side.
--
-- First every difference besides the results (platter, script, options,
-- machine, files and devices; files matched by role and path, with the runs'
-- pids in scratch names normalised), then one table: phases aligned by kind,
-- name and occurrence (positional phases such as "zone 3 at OFFSET" by their
-- place instead: their offsets differ between devices of different sizes),
-- figures (IOPS, MB/s, p50, p99, CPU%) as `mean ± half-width`
-- where a file has repetitions, each file's ratio to the first, and where both
-- sides have repetitions Welch's t-test at 95%. Built-in command: runs
-- trusted, arguments in `...`. See docs/results.md.
if select("#", ...) == 1 and (...) == "platter.cmd.compare" then
  error("platter.cmd.compare is the 'platter compare' command, not a module", 2)
end

local p = require "platter"
local resultfile = require "platter.resultfile"
local statmath = require "platter.statmath"

local format = string.format

local o = p.args({
  name = "compare",
  usage = "[options] A.json B.json [C.json ...]",
  summary = "Compare result files (from --json): environment differences first, then each "
    .. "phase's\nfigures with ratios to the first file and, where both have repetitions, "
    .. "Welch's t-test.",
  options = {
    { "--phase", arg = "TEXT", help = "only phases whose name contains TEXT" },
  },
  positional = { { "a", arg = "A.json" }, { "b", arg = "B.json" } },
  rest = true,
}, ...)

local function slurp(path)
  local f, err = io.open(path, "rb")
  if not f then p.usage_error("compare", err) end
  local s = f:read("*a")
  f:close()
  return s
end

local docs, labels = {}, {}
for i, path in ipairs(o) do
  local doc, err = resultfile.decode(slurp(path), path)
  if not doc then p.usage_error("compare", err) end
  docs[i] = doc
  labels[i] = string.char(64 + i)  -- A, B, C, ...
end
if #docs > 26 then p.usage_error("compare", "at most 26 files") end

-- {--- widths with UTF-8 ("±", "µ") -------------------------------------------
local function width(s)
  local _, extra = s:gsub("[\128-\191]", "")
  return #s - extra
end
local function pad(s, w, right)
  local fill = string.rep(" ", w - width(s))
  return right and fill .. s or s .. fill
end
-- }------------------------------------------------------------------------------

local out = {}
local function say(...) out[#out + 1] = table.concat({ ... }) end

-- {--- the files -----------------------------------------------------------------
for i, d in ipairs(docs) do
  local reps = d.repetitions and d.repetitions.done or 1
  local script = d.script and d.script.name or "?"
  say(format("%s: %s  (%s, %s%s)", labels[i], o[i], script, d.start_time or "?",
    reps and reps > 1 and format(", %d repetitions", reps) or ""))
end
-- }------------------------------------------------------------------------------

-- {--- what else differs -----------------------------------------------------------
local arguments, slots  -- below

local FILE_FACTS = { "path", "kind", "size", "direct", "fs_type", "mount_options", "device",
  "model", "rotational", "scheduler", "read_ahead_kb", "write_cache", "logical_block",
  "physical_block", "dio_align" }

local function show(v)
  if v == nil then return "-" end
  if type(v) == "boolean" then return v and "yes" or "no" end
  if type(v) == "number" then
    if v == math.floor(v) and math.abs(v) < 2 ^ 53 then return format("%d", v) end
    return format("%.6g", v)
  end
  return tostring(v)
end

local function pid_of(d) return type(d.pid) == "number" and d.pid or nil end

-- the script's arguments, with the paths made absolute when every file records them
-- (a rerun from another directory names the same files so), scratch pids normalised
local every_abs = true
for _, d in ipairs(docs) do every_abs = every_abs and type(d.args_abs) == "table" end
function arguments(d)
  local list = every_abs and d.args_abs or d.args
  if type(list) ~= "table" then return nil end
  local words = {}
  for i, a in ipairs(list) do words[i] = resultfile.normalize_path(tostring(a), pid_of(d)) end
  return table.concat(words, " ")
end

-- A file's role: what the run used it as (a file or a device, through the page cache
-- or direct). Files are matched across the records by role and path (pids normalised),
-- then what is left by role in the order each run first used them; a file no other
-- record has gets a slot of its own. Each slot: label, files[doc], norm[doc].
local function role(f)
  return tostring(f.kind or "file") .. (f.direct and " direct" or "")
end
slots = {}
do
  for _, d in ipairs(docs) do
    local mine = {}
    for _, f in ipairs(type(d.files) == "table" and d.files or {}) do
      if type(f) == "table" then
        mine[#mine + 1] = { f = f, role = role(f), norm = resultfile.normalize_path(f.path, pid_of(d)) }
      end
    end
    local taken = {}
    local function place(m, slot)
      slot.files[d], slot.norm[d] = m.f, m.norm
      taken[m] = true
    end
    for _, m in ipairs(mine) do  -- same role and path
      for _, slot in ipairs(slots) do
        if not slot.files[d] and slot.role == m.role and slot.key == m.norm then
          place(m, slot)
          break
        end
      end
    end
    for _, m in ipairs(mine) do  -- same role, another path: shown as a difference
      if not taken[m] then
        for _, slot in ipairs(slots) do
          if not slot.files[d] and slot.role == m.role then
            place(m, slot)
            break
          end
        end
      end
    end
    for _, m in ipairs(mine) do
      if not taken[m] then
        local slot = { role = m.role, key = m.norm, files = {}, norm = {} }
        slot.label = tostring(m.norm) .. (m.f.direct and " (direct)" or "")
        slots[#slots + 1] = slot
        place(m, slot)
      end
    end
  end
end

-- facts(doc) -> ordered list of {label, value}; a "same" function may relax equality
local function facts(d)
  local env, pl = d.environment or {}, d.platter or {}
  local cpu, clock = env.cpu or {}, env.clock or {}
  local script = d.script or {}
  local opts = d.options or {}
  local build = type(pl.build) == "table" and pl.build or {}
  local l = {
    { "platter version", pl.version },
    { "platter build", build.commit },
    { "Lua", pl.lua },
    { "script", script.name },
    { "script sha256", script.sha256 },
    { "script arguments", arguments(d) },
    { "seed", d.seed },
    { "--sim", opts.sim },
    { "--target", opts.target },
    { "kernel", env.kernel },
    { "os", env.os },
    { "arch", env.arch },
    { "host", env.hostname },
    { "CPU model", cpu.model },
    { "CPU count", cpu.count },
    { "RAM", env.ram and resultfile.size_text(env.ram) },
    { "clock source", clock.source },
    { "clock overhead", clock.overhead_ns, function(a, b)
        -- measured at start-up, so a loaded machine moves it: within 3x, or both
        -- under 60 ns (any TSC or vDSO read), is the same clock
        if type(a) ~= "number" or type(b) ~= "number" then return a == b end
        local lo, hi = math.min(a, b), math.max(a, b)
        return hi < 60 or (lo > 0 and hi / lo <= 3) or lo == hi
      end, function(v) return type(v) == "number" and format("%.1f ns", v) or show(v) end },
  }
  for _, slot in ipairs(slots) do
    local f = slot.files[d] or {}
    for _, k in ipairs(FILE_FACTS) do
      local v = f[k]
      if k == "path" then v = slot.files[d] and slot.norm[d] or nil end
      if k == "size" and v then v = format("%s (%s)", show(v), resultfile.size_text(v)) end
      l[#l + 1] = { format("file %s %s", slot.label, k), v }
    end
  end
  return l
end

local all = {}
for i, d in ipairs(docs) do all[i] = facts(d) end
local diffs = {}
for k, fact in ipairs(all[1]) do
  local same = fact[3] or function(a, b) return a == b end
  local differ = false
  for i = 2, #docs do
    local other = all[i][k]
    if not same(fact[2], other and other[2]) then differ = true end
  end
  if differ then
    local row = { "  " .. fact[1] }
    for i = 1, #docs do
      local v = all[i][k] and all[i][k][2]
      row[#row + 1] = labels[i] .. " " .. (fact[4] or show)(v)
    end
    diffs[#diffs + 1] = row
  end
end
say("")
if #diffs == 0 then
  say("No differences in platter, script, options, machine or files.")
else
  say("Differences besides the results:")
  local w = {}
  for _, r in ipairs(diffs) do
    for c, s in ipairs(r) do w[c] = math.max(w[c] or 0, width(s)) end
  end
  for _, r in ipairs(diffs) do
    local cells = {}
    for c, s in ipairs(r) do cells[c] = c < #r and pad(s, w[c]) or s end
    say(table.concat(cells, "   "))
  end
end
-- }------------------------------------------------------------------------------

-- {--- the table -------------------------------------------------------------------
local FIGS = {
  { "iops", "IOPS", 1 },
  { "bw", "MB/s", 1e6 },
  { "p50", "p50 µs", 1e3 },
  { "p99", "p99 µs", 1e3 },
  { "cpu_pct", "CPU %", 1 },
}

-- A phase's place in the table: kind, name and occurrence; but a positional phase
-- ("zone 3 at 1234567890", "outer: 1g") by its head and its place among the phases of
-- that head, so that the zones of two devices of different sizes line up by zone
-- index (their offsets differ); its title then gives the fraction of the device.
local keys, fractions, lists = {}, {}, {}  -- [doc][summary] -> key; [doc][key] -> fraction
for i, d in ipairs(docs) do
  keys[i], fractions[i] = {}, {}
  local sizes, count, last = resultfile.extents(d), {}, 0
  local list = resultfile.summary_of(d)
  lists[i] = list
  for _, s in ipairs(list) do  -- a device size for records without files: the last end
    local _, off = resultfile.position(s.name, p.parse_size)
    if off then last = math.max(last, off) end
  end
  for _, s in ipairs(list) do
    local head, off = resultfile.position(s.name, p.parse_size)
    local k
    if head then
      local hk = (s.kind or "phase") .. "\0" .. head
      count[hk] = (count[hk] or 0) + 1
      k = hk .. "\0@" .. count[hk]
      local size = sizes[resultfile.phase_key(s)] or last
      fractions[i][k] = size > 0 and off / size or nil
    else
      k = resultfile.phase_key(s)
    end
    keys[i][s] = k
  end
end

local sums, order, seen, heads = {}, {}, {}, {}
for i in ipairs(docs) do
  sums[i] = {}
  for _, s in ipairs(lists[i]) do
    local k = keys[i][s]
    sums[i][k] = s
    if not seen[k] and (not o.phase or (s.name or ""):find(o.phase, 1, true)) then
      seen[k] = true
      order[#order + 1] = k
      heads[k] = s
    end
  end
end

-- the title of a positional phase: its head and where it is, as a fraction of the
-- device, with every file's own where they differ
local function position_title(k, s)
  local head = resultfile.position(s.name, p.parse_size)
  local first, parts, differ = nil, {}, false
  for i = 1, #docs do
    local fr = fractions[i][k]
    if fr then
      first = first or fr
      if math.abs(fr - first) > 0.005 then differ = true end
      parts[#parts + 1] = format("%s %.1f%%", labels[i], fr * 100)
    end
  end
  if not first then return s.name or "?" end
  if differ then return format("%s at %s of the device", head, table.concat(parts, ", ")) end
  return format("%s at %.1f%% of the device", head, first * 100)
end

local function value(f, scale)
  if not f or not f.mean then return "-" end
  local t = resultfile.fmt(f.mean / scale)
  if f.ci then t = t .. " ± " .. resultfile.fmt(f.ci / scale) end
  return t
end

local header = { "phase / figure" }
for i = 1, #docs do
  header[#header + 1] = labels[i]
  if i > 1 then
    header[#header + 1] = labels[i] .. "/A"
    header[#header + 1] = "Welch 95%"
  end
end
local rows = { header }
for _, k in ipairs(order) do
  local s = heads[k]
  local positional = k:find("\0@", 1, true)
  local title = positional and position_title(k, s) or s.name or "?"
  if not positional and (s.occurrence or 1) > 1 then title = title .. " #" .. s.occurrence end
  if s.kind and s.kind ~= "phase" then title = title .. " (" .. s.kind .. ")" end
  rows[#rows + 1] = { title }
  for _, fig in ipairs(FIGS) do
    local row = { "  " .. fig[2] }
    local base = sums[1][k] and sums[1][k].figures and sums[1][k].figures[fig[1]]
    local any = false
    for i = 1, #docs do
      local f = sums[i][k] and sums[i][k].figures and sums[i][k].figures[fig[1]]
      any = any or (f and f.mean) ~= nil
      row[#row + 1] = value(f, fig[3])
      if i > 1 then
        if f and f.mean and base and base.mean and base.mean ~= 0 then
          row[#row + 1] = format("%.3f", f.mean / base.mean)
        else
          row[#row + 1] = "-"
        end
        local w = base and f and base.values and f.values and statmath.welch(base.values, f.values)
        if w then
          local ptext = w.p < 0.001 and "p<0.001" or format("p=%.3f", w.p)
          row[#row + 1] = (w.p < 0.05 and "significant" or "n.s.") .. " (" .. ptext .. ")"
        else
          row[#row + 1] = ""
        end
      end
    end
    if any then rows[#rows + 1] = row end
  end
end

say("")
local w = {}
for _, r in ipairs(rows) do
  if #r > 1 then
    for c, s in ipairs(r) do w[c] = math.max(w[c] or 0, width(s)) end
  end
end
w[1] = math.max(w[1] or 0, width(header[1]))
for _, r in ipairs(rows) do
  if #r == 1 then
    say(r[1])
  else
    local cells = {}
    for c, s in ipairs(r) do
      -- text columns (the first, Welch's verdicts) left, numbers right
      local left = c == 1 or (c > 1 and header[c] == "Welch 95%")
      cells[c] = pad(s, w[c], not left)
    end
    say((table.concat(cells, "  "):gsub("%s+$", "")))
  end
end
if #order == 0 then say("(no phases)") end
say("")
say("Values are means ± the half-width of the 95% confidence interval where a file has "
  .. "repetitions.")
say("Welch 95%: \"significant\" when Welch's t-test finds the means different at the 5% level,")
say("\"n.s.\" when it does not (both files need 2 or more repetitions).")
-- }------------------------------------------------------------------------------

p.write(table.concat(out, "\n"), "\n")
