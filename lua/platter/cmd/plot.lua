-- platter plot RESULT.json [MORE.json ...] -o OUT.png|svg [--kind sweep|zones|qd|rwmix|latency|series|steady]
--
-- Draws result files with gnuplot (Debian package gnuplot-nox): the data and
-- a gnuplot script go to a temporary directory, gnuplot writes OUT.
--   sweep    req/s and MB/s against block size (log axis), one line per
--            test x mode, from phases named "TEST BSIZE MODE" (workloads/sweep.lua)
--   zones    MiB/s against offset, from phases named "... at OFFSET" or
--            "...: OFFSET" (OFFSET in bytes or with a unit, such as 1g); with
--            --x fraction against the fraction of the device, so that devices
--            of different sizes overlay
--   qd       IOPS and mean latency (µs) against queue depth (log axis), from phases
--            named "qd D" or "qd D x N jobs" (workloads/qd-knee.lua; x = D x N)
--   latency  latency percentiles (µs) against the percentile on a "nines"
--            axis (90, 99, 99.9, ...), one line per file x phase
--   series   MB/s and p99 latency (µs) over time, one line per phase with a time
--            series (p.phase's or p.run's interval, --interval); never chosen by itself
--   steady   the tracked IOPS per round of workloads/steady.lua (phases "round R 4k 0/100")
--            with the window p.steady gives, its average and the ±10% and ±20% bands
-- Without --kind the first that fits the phase names is used. Built-in
-- command: runs trusted, arguments in `...`. See docs/results.md.
if select("#", ...) == 1 and (...) == "platter.cmd.plot" then
  error("platter.cmd.plot is the 'platter plot' command, not a module", 2)
end

local p = require "platter"
local resultfile = require "platter.resultfile"
local statmath = require "platter.statmath"

local format = string.format

local o = p.args({
  name = "plot",
  usage = "[options] RESULT.json [MORE.json ...] -o OUT.png|OUT.svg",
  summary = "Plot result files with gnuplot: a block-size sweep, a zones curve, a queue-depth "
    .. "curve, read latency under writes, latency percentiles, time series or steady-state rounds.",
  options = {
    { "-o", "--output", arg = "FILE", help = "the image to write: .png or .svg" },
    { "-k", "--kind", arg = "KIND", choices = { "sweep", "zones", "qd", "rwmix", "latency", "series", "steady" },
      help = "sweep, zones, qd, rwmix, latency, series or steady (default: from the phase names)" },
    { "--phase", arg = "TEXT", help = "only phases whose name contains TEXT" },
    { "--title", arg = "TEXT", help = "the plot's title" },
    { "--size", arg = "WxH", default = "1000x700", help = "image size in pixels" },
    { "--x", arg = "AXIS", choices = { "offset", "fraction" }, default = "offset",
      help = "zones: x is the offset (GB) or the fraction of the device (0 to 1)" },
  },
  positional = { { "result", arg = "RESULT.json" } },
  rest = true,
}, ...)

local dir  -- the temporary directory, once made

local function q(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

local function fail(msg)
  if dir then os.execute("rm -rf " .. q(dir)) end
  p.ewrite("platter: plot: ", msg, "\n")
  p.exit(1)
end

if not o.output then p.usage_error("plot", "option '-o' is required (OUT.png or OUT.svg)") end
local ext = o.output:lower():match("%.(%w+)$")
if ext ~= "png" and ext ~= "svg" then
  p.usage_error("plot", format("cannot tell the image type of '%s': name it .png or .svg",
    o.output))
end
local W, H = o.size:match("^(%d+)x(%d+)$")
if not W then p.usage_error("plot", format("bad --size '%s': expected WxH, e.g. 1000x700", o.size)) end

local function shell(cmd)
  local r1, _, r3 = os.execute(cmd)
  if type(r1) == "number" then return r1 == 0 end  -- LuaJIT: the raw status
  return r1 == true and (r3 == nil or r3 == 0)
end

-- {--- the result files --------------------------------------------------------------
local docs = {}
for i, path in ipairs(o) do
  local f, err = io.open(path, "rb")
  if not f then p.usage_error("plot", err) end
  local text = f:read("*a")
  f:close()
  local doc, derr = resultfile.decode(text, path)
  if not doc then p.usage_error("plot", derr) end
  docs[i] = { path = path, label = path:match("([^/]+)$"):gsub("%.json$", ""),
    summary = resultfile.summary_of(doc), extents = resultfile.extents(doc),
    phases = type(doc.phases) == "table" and doc.phases or {},
    reports = type(doc.reports) == "table" and doc.reports or {} }
end

local function mean(s, fig)
  local f = s.figures and s.figures[fig]
  return f and f.mean
end
local function wanted(s)
  return not o.phase or (s.name or ""):find(o.phase, 1, true)
end
-- }------------------------------------------------------------------------------

-- {--- what each kind takes from the phase names -----------------------------------------
local function sweep_parts(name)
  local test, bs, mode = (name or ""):match("^(%a+) (%d+) (%a+)$")
  if test then return test, tonumber(bs), mode end
end

-- "zone 3 at 1234567890", "outer: 1g" -> group ("zone #"), offset in bytes
local function zone_parts(name)
  local head, v = resultfile.position(name, p.parse_size)
  if not head then return nil end
  local group = head:gsub("%d+", "#"):gsub("%s*#%s*$", "")
  return group ~= "" and group or "MiB/s", v
end

-- "qd 8", "qd 8 x 4 jobs" -> the depth in flight (8, 32)
local function qd_parts(name)
  local d, n = (name or ""):match("^qd (%d+) x (%d+) jobs$")
  if d then return tonumber(d) * tonumber(n) end
  d = (name or ""):match("^qd (%d+)$")
  return d and tonumber(d) or nil
end

-- the rows of a record's rw-mix report (workloads/rw-mix.lua), or nil
local function rwmix_rows(d)
  for _, r in ipairs(d.reports) do
    if r.name == "rw-mix" and type(r.data) == "table" and type(r.data.rows) == "table" then
      return r.data.rows
    end
  end
end

-- "round 3 4k 0/100" (workloads/steady.lua's tracked cell) -> 3
local function steady_round(name)
  local r = (name or ""):match("^round (%d+) 4k 0/100$")
  return r and tonumber(r)
end

local function count(fn)
  local n = 0
  for _, d in ipairs(docs) do
    for _, s in ipairs(d.summary) do
      if wanted(s) and fn(s.name) then n = n + 1 end
    end
  end
  return n
end

local kind = o.kind
if not kind then
  local rwmix = false
  for _, d in ipairs(docs) do rwmix = rwmix or rwmix_rows(d) ~= nil end
  if count(steady_round) >= 1 then
    kind = "steady"
  elseif rwmix then
    kind = "rwmix"
  elseif count(sweep_parts) >= 2 then
    kind = "sweep"
  elseif count(zone_parts) >= 2 then
    kind = "zones"
  elseif count(qd_parts) >= 2 then
    kind = "qd"
  else
    kind = "latency"
  end
end
-- }------------------------------------------------------------------------------

-- {--- gnuplot -----------------------------------------------------------------------------
if not shell("command -v gnuplot >/dev/null 2>&1") then
  fail("gnuplot not found: install the Debian package gnuplot-nox "
    .. "(apt-get install gnuplot-nox), or put gnuplot on PATH")
end

local pipe = io.popen("mktemp -d 2>/dev/null")
dir = pipe and pipe:read("*l")
if pipe then pipe:close() end
if not dir or dir == "" then
  dir = nil
  fail("cannot make a temporary directory")
end

local series = {}   -- { title, file, axis } per line
local function add_series(title, rows, extra)
  local path = format("%s/s%d.dat", dir, #series + 1)
  local f = assert(io.open(path, "w"))
  for _, r in ipairs(rows) do f:write(format("%.10g %.10g\n", r[1], r[2])) end
  f:close()
  local s = { title = title, file = path }
  for k, v in pairs(extra or {}) do s[k] = v end
  series[#series + 1] = s
  return s
end

-- A gnuplot single-quoted string, on one line. Names come from result files, which may
-- come from anyone, and gnuplot ends an unterminated string at the end of the line and
-- runs the next line as a command (system(...) runs a shell): every control character
-- becomes a space. (A single-quoted string takes no backquote substitution.)
local function gq(s)
  return "'" .. tostring(s):gsub("%c", " "):gsub("'", "''") .. "'"
end

local gp = {}
local function g(...) gp[#gp + 1] = table.concat({ ... }) end

if ext == "png" then
  g(format("set terminal pngcairo size %s,%s noenhanced font 'Sans,10'", W, H))
else
  g(format("set terminal svg size %s,%s dynamic noenhanced font 'Sans,10' background rgb 'white'",
    W, H))
end
g("set output ", gq(o.output))
g("set grid")
g("set key outside right top vertical Left reverse noautotitle")

local multi = #docs > 1
local function label(d, text)
  return multi and (d.label .. ": " .. text) or text
end

if kind == "sweep" then
  local lines, order = {}, {}
  for _, d in ipairs(docs) do
    for _, s in ipairs(d.summary) do
      local test, bs, mode = sweep_parts(s.name)
      if test and wanted(s) then
        local key = label(d, test .. " " .. mode)
        if not lines[key] then
          lines[key] = {}
          order[#order + 1] = key
        end
        table.insert(lines[key], { bs, mean(s, "iops") or 0, (mean(s, "bw") or 0) / 1e6 })
      end
    end
  end
  if #order == 0 then fail("no phases named like \"Random 4096 cooked\" (TEST BSIZE MODE) to plot") end
  local req, bw = {}, {}
  for _, key in ipairs(order) do
    table.sort(lines[key], function(a, b) return a[1] < b[1] end)
    local r1, r2 = {}, {}
    for i, r in ipairs(lines[key]) do
      r1[i] = { r[1], r[2] }
      r2[i] = { r[1], r[3] }
    end
    req[#req + 1] = add_series(key, r1)
    bw[#bw + 1] = add_series(key, r2)
  end
  local sizes, tics = {}, {}
  for _, key in ipairs(order) do
    for _, r in ipairs(lines[key]) do sizes[r[1]] = true end
  end
  for bs in pairs(sizes) do tics[#tics + 1] = bs end
  table.sort(tics)
  local xlo, xhi = tics[1] / 1.25, tics[#tics] * 1.25
  for i, bs in ipairs(tics) do
    local u, v = "", bs
    for _, unit in ipairs({ "k", "M", "G" }) do
      if v >= 1024 and v % 1024 == 0 then
        v, u = v / 1024, unit
      end
    end
    tics[i] = format("'%d%s' %d", v, u, bs)
  end
  g("set multiplot layout 2,1 title ", gq(o.title or "block-size sweep"))
  g("set logscale x 2")
  g("set logscale y 10")
  g("set xtics (", table.concat(tics, ", "), ")")
  g(format("set xrange [%g:%g]", xlo, xhi))
  g("set xlabel 'block size (bytes)'")
  g("set ylabel 'requests/s'")
  local parts = {}
  for _, s in ipairs(req) do
    parts[#parts + 1] = format("%s using 1:2 with linespoints title %s", gq(s.file), gq(s.title))
  end
  g("plot ", table.concat(parts, ", \\\n  "))
  g("set ylabel 'MB/s'")
  parts = {}
  for _, s in ipairs(bw) do
    parts[#parts + 1] = format("%s using 1:2 with linespoints title %s", gq(s.file), gq(s.title))
  end
  g("plot ", table.concat(parts, ", \\\n  "))
  g("unset multiplot")
elseif kind == "zones" then
  local lines, order = {}, {}
  local fraction = o.x == "fraction"
  for _, d in ipairs(docs) do
    -- the device's size: the record's size of each phase's file, else (an older or
    -- hand-made record) the largest offset, where the last point starts
    local last = 0
    for _, s in ipairs(d.summary) do
      local _, off = zone_parts(s.name)
      if off and wanted(s) then last = math.max(last, off) end
    end
    for _, s in ipairs(d.summary) do
      local group, off = zone_parts(s.name)
      if group and wanted(s) then
        local key = label(d, group)
        if not lines[key] then
          lines[key] = {}
          order[#order + 1] = key
        end
        local x = off / 1e9
        if fraction then
          local size = d.extents[resultfile.phase_key(s)] or last
          x = size > 0 and off / size or 0
        end
        table.insert(lines[key], { x, (mean(s, "bw") or 0) / 1048576 })
      end
    end
  end
  if #order == 0 then
    fail("no phases named like \"zone 3 at 1234567890\" or \"NAME: OFFSET\" to plot")
  end
  local parts = {}
  for _, key in ipairs(order) do
    table.sort(lines[key], function(a, b) return a[1] < b[1] end)
    local s = add_series(key, lines[key])
    parts[#parts + 1] = format("%s using 1:2 with linespoints title %s", gq(s.file), gq(s.title))
  end
  g("set title ", gq(o.title or "transfer rate across the device"))
  if fraction then
    g("set xlabel 'fraction of the device'")
    g("set xrange [0:1]")
  else
    g("set xlabel 'offset (GB)'")
  end
  g("set ylabel 'MiB/s'")
  g("set yrange [0:*]")
  g("plot ", table.concat(parts, ", \\\n  "))
elseif kind == "qd" then
  local iops, lat = {}, {}
  local lo, hi
  for _, d in ipairs(docs) do
    local r1, r2 = {}, {}
    for _, s in ipairs(d.summary) do
      local depth = qd_parts(s.name)
      if depth and wanted(s) then
        r1[#r1 + 1] = { depth, mean(s, "iops") or 0 }
        r2[#r2 + 1] = { depth, (mean(s, "lat_mean") or 0) / 1e3 }
        lo, hi = math.min(lo or depth, depth), math.max(hi or depth, depth)
      end
    end
    if #r1 > 0 then
      table.sort(r1, function(a, b) return a[1] < b[1] end)
      table.sort(r2, function(a, b) return a[1] < b[1] end)
      iops[#iops + 1] = add_series(multi and d.label or "IOPS", r1)
      lat[#lat + 1] = add_series(multi and d.label or "mean latency", r2)
    end
  end
  if #iops == 0 then fail("no phases named like \"qd 8\" (platter qd-knee) to plot") end
  g("set multiplot layout 2,1 title ", gq(o.title or "IOPS and latency against queue depth"))
  g("set logscale x 2")
  g(format("set xrange [%g:%g]", lo / 1.25, hi * 1.25))
  g("set xlabel 'queue depth (I/Os in flight)'")
  for _, panel in ipairs({ { iops, "IOPS" }, { lat, "mean latency (us)" } }) do
    g("set ylabel ", gq(panel[2]))
    g("set yrange [0:*]")
    local parts = {}
    for _, sr in ipairs(panel[1]) do
      parts[#parts + 1] = format("%s using 1:2 with linespoints title %s", gq(sr.file), gq(sr.title))
    end
    g("plot ", table.concat(parts, ", \\\n  "))
  end
  g("unset multiplot")
elseif kind == "steady" then
  -- per file: the tracked IOPS per round, and over p.steady's window its average,
  -- the ±10% (slope) and ±20% (data) bands and the least-squares line
  local parts, verdicts = {}, {}
  for _, d in ipairs(docs) do
    local ys, n = {}, 0
    for _, s in ipairs(d.summary) do
      local r = steady_round(s.name)
      if r and wanted(s) then
        ys[r] = mean(s, "iops") or 0
        n = math.max(n, r)
      end
    end
    local rows = {}
    for r = 1, n do
      if not ys[r] then fail(format("%s: no phase 'round %d 4k 0/100'", d.path, r)) end
      rows[r] = { r, ys[r] }
    end
    if n > 0 then
      local v = p.steady(ys)
      local s = add_series(label(d, "4k 0/100 IOPS"), rows)
      parts[#parts + 1] = format("%s using 1:2 with linespoints lw 2 pt 7 title %s", gq(s.file),
        gq(s.title))
      if v.average then
        local w, a = v.window, v.average
        local function flat(title, y, style)
          local b = add_series(label(d, title), { { w.first, y }, { w.last, y } })
          parts[#parts + 1] = format("%s using 1:2 with lines %s title %s", gq(b.file), style, gq(b.title))
        end
        flat(format("window %d-%d average %.1f", w.first, w.last, a), a, "lw 2 dt 1")
        flat("±10%", a * 1.1, "dt 2 lc rgb 'gray40'")
        flat("", a * 0.9, "dt 2 lc rgb 'gray40'")
        flat("±20%", a * 1.2, "dt 3 lc rgb 'gray60'")
        flat("", a * 0.8, "dt 3 lc rgb 'gray60'")
        local fit = add_series(label(d, format("least squares, slope %.3g", v.slope)),
          { { w.first, v.intercept + v.slope * w.first }, { w.last, v.intercept + v.slope * w.last } })
        parts[#parts + 1] = format("%s using 1:2 with lines dt 4 title %s", gq(fit.file), gq(fit.title))
      end
      verdicts[#verdicts + 1] = v.steady and format("steady at round %d", v.round)
        or format("not steady in %d rounds", v.rounds)
    end
  end
  if #parts == 0 then
    fail("no phases named like \"round 3 4k 0/100\" (platter steady --json) to plot")
  end
  g("set title ", gq(o.title or ("SNIA PTS steady state: " .. table.concat(verdicts, ", "))))
  g("set xlabel 'round'")
  g("set ylabel 'IOPS (4 KiB, 0/100)'")
  g("set yrange [0:*]")
  g("set xtics 1")
  g("plot ", table.concat(parts, ", \\\n  "))
elseif kind == "rwmix" then
  -- read latency (mean, p50, p99) against the write rate the device did beside them
  local parts = {}
  for _, d in ipairs(docs) do
    local rows = rwmix_rows(d)
    if rows then
      for _, fig in ipairs({ { "read_lat_p99_us", "read p99" }, { "read_lat_p50_us", "read p50" },
        { "read_lat_mean_us", "read mean" } }) do
        local pts = {}
        for _, r in ipairs(rows) do
          pts[#pts + 1] = { (tonumber(r.write_bps) or 0) / 1e6, tonumber(r[fig[1]]) or 0 }
        end
        local sr = add_series(label(d, fig[2]), pts)
        parts[#parts + 1] = format("%s using 1:2 with linespoints title %s", gq(sr.file), gq(sr.title))
      end
    end
  end
  if #parts == 0 then fail("no rw-mix report (platter rw-mix --json) to plot") end
  g("set title ", gq(o.title or "read latency under a background write load"))
  g("set xlabel 'writes done beside the reads (MB/s)'")
  g("set ylabel 'read latency (µs)'")
  g("set logscale y 10")
  g("plot ", table.concat(parts, ", \\\n  "))
elseif kind == "series" then
  local bw, lat = {}, {}
  for _, d in ipairs(docs) do
    for _, ph in ipairs(d.phases) do
      if type(ph.series) == "table" and #ph.series > 0 and wanted(ph) then
        local title = tostring(ph.name or "?")
        if (ph.occurrence or 1) > 1 then title = title .. " #" .. ph.occurrence end
        if (ph.rep or 1) > 1 then title = title .. " (rep " .. ph.rep .. ")" end
        local r1, r2 = {}, {}
        for i, x in ipairs(ph.series) do
          r1[i] = { x.t or 0, (x.bw or 0) / 1e6 }
          r2[i] = { x.t or 0, (x.lat_p99 or 0) / 1e3 }
        end
        bw[#bw + 1] = add_series(label(d, title), r1)
        lat[#lat + 1] = add_series(label(d, title), r2)
      end
    end
  end
  if #bw == 0 then
    fail("no phase with a time series to plot: run with --interval T, or give p.phase or p.run "
      .. "an interval")
  end
  if #bw > 40 then
    fail(format("%d lines is too many for one plot: choose phases with --phase TEXT", #bw))
  end
  g("set multiplot layout 2,1 title ", gq(o.title or "throughput and p99 latency over time"))
  g("set xlabel 'time from the phase start (s)'")
  g("set ylabel 'MB/s'")
  g("set yrange [0:*]")
  local parts = {}
  for _, s in ipairs(bw) do
    parts[#parts + 1] = format("%s using 1:2 with linespoints pt 7 ps 0.4 title %s", gq(s.file),
      gq(s.title))
  end
  g("plot ", table.concat(parts, ", \\\n  "))
  g("set ylabel 'p99 latency (µs)'")
  parts = {}
  for _, s in ipairs(lat) do
    parts[#parts + 1] = format("%s using 1:2 with linespoints pt 7 ps 0.4 title %s", gq(s.file),
      gq(s.title))
  end
  g("plot ", table.concat(parts, ", \\\n  "))
  g("unset multiplot")
else
  local parts, maxk = {}, 1
  for _, d in ipairs(docs) do
    for _, s in ipairs(d.summary) do
      local n = statmath.hist_count(s.hist)
      if wanted(s) and n > 0 then
        -- x = 1 / (1 - p): 10 at p90, 100 at p99, ...; up to what the sample count supports
        local top = math.log10 and math.log10(n) or math.log(n, 10)
        if top > maxk then maxk = top end
        local rows = {}
        local k = 0
        while k <= top + 1e-9 do
          local pc = 100 * (1 - 10 ^ -k)
          rows[#rows + 1] = { 10 ^ k, statmath.hist_percentile(s.hist, pc, s.lat_min, s.lat_max) / 1e3 }
          k = k + 0.02
        end
        rows[#rows + 1] = { 10 ^ top, statmath.hist_percentile(s.hist, 100, s.lat_min, s.lat_max) / 1e3 }
        local title = s.name or "?"
        if (s.occurrence or 1) > 1 then title = title .. " #" .. s.occurrence end
        local ser = add_series(label(d, title), rows)
        parts[#parts + 1] = format("%s using 1:2 with lines lw 2 title %s", gq(ser.file),
          gq(ser.title))
      end
    end
  end
  if #parts == 0 then fail("no phase with latency samples to plot") end
  if #parts > 40 then
    fail(format("%d lines is too many for one plot: choose phases with --phase TEXT", #parts))
  end
  local tics = {}
  for k = 0, math.ceil(maxk) do
    local lab = k == 0 and "0" or format("%." .. math.max(0, k - 2) .. "f", 100 * (1 - 10 ^ -k))
    tics[#tics + 1] = format("'%s' %g", lab, 10 ^ k)
  end
  g("set title ", gq(o.title or "latency percentiles"))
  g("set logscale x 10")
  g("set logscale y 10")
  g("set xrange [1:", format("%g", 10 ^ math.ceil(maxk)), "]")
  g("set xtics (", table.concat(tics, ", "), ")")
  g("set xlabel 'percentile'")
  g("set ylabel 'latency (µs)'")
  g("plot ", table.concat(parts, ", \\\n  "))
end
g("set output")

local script = dir .. "/plot.gp"
local f = assert(io.open(script, "w"))
f:write(table.concat(gp, "\n"), "\n")
f:close()
local errfile = dir .. "/gnuplot.err"
local ok = shell("gnuplot " .. q(script) .. " 2>" .. q(errfile))
local ef = io.open(errfile)
local err = ef and ef:read("*a") or ""
if ef then ef:close() end
shell("rm -rf " .. q(dir))
if not ok then
  fail("gnuplot failed" .. (err ~= "" and ":\n" .. err:gsub("%s+$", "") or ""))
end
if not p.quiet then p.log("plot: wrote %s (%s, %d lines)", o.output, kind, #series) end
