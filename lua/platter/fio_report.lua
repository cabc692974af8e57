-- platter.fio_report: fio 3.33's reports (normal, terse v2-v5, json, json+)
-- rendered from one model, a table shaped exactly like fio 3.33's JSON output
-- (`top`: "fio version", "time", "global options", "jobs" = { job, ... },
-- "disk_util"). Formats read from fio-3.33's stat.c, json.c, lib/num2str.c,
-- init.c, backend.c and diskutil.c; the code is platter's own. Pure Lua, on
-- LuaJIT and Lua 5.4.
--
--   fr.normal(top [, opts]) -> text   the normal report, from the header lines
--       ("NAME: (g=0): rw=...", "fio-3.33", "Starting N processes") to
--       "Disk stats". opts.header = false leaves the header out; opts.defs
--       gives the job sections for it (default fr.defs(top)); opts.jobs[i] =
--       { pid, members, verror, time } what fio's JSON does not hold
--   fr.terse(top [, { version = 3 }]) -> text   one line per job (v2 to v5)
--   fr.json(top [, plus]) -> text     fio's JSON layout and key order; plus ==
--       false drops json+'s "bins"
--   fr.decode(text) -> top            reads fio's JSON, keeping key order and
--       which numbers had a decimal point (so fr.json gives fio's bytes back)
--   fr.job(meta, stats) -> job        a job object from platter stats objects
--   fr.top(jobs [, meta]) -> top      the whole model around the jobs
--   fr.disk_util(before, after, msec) "disk_util" from two p.diskstats()
--   fr.steadystate(r.steady)            "steadystate" from p.run's r.steady
--   fr.num2str, fr.format, fr.ordered, fr.keys, fr.defs, fr.header, fr.groups
local fj = require "platter.fio_job" -- fio's own reading of sizes and block sizes

local M = {}

local floor, concat = math.floor, table.concat
local sqrt, log = math.sqrt, math.log
local sformat = string.format

-- C's printf rounds a value exactly half-way to even ("%.1f" of 0.25 is
-- "0.2"); LuaJIT's own formatter rounds it up. fio's figures are C's, so on
-- such a flavour "%f" goes through ffix: the value is written with 20 more
-- digits, and a tail of exactly "5000..." rounds to even.
local half_up = sformat("%.1f", 0.25) ~= "0.2"

local function ffix(x, prec)
  local s = sformat("%." .. prec .. "f", x)
  if not half_up then return s end
  local long = sformat("%." .. (prec + 20) .. "f", x)
  local cut = #long - 20
  if not long:sub(cut + 1):match("^50*$") then return s end
  local kept = long:sub(1, cut)
  local last = kept:match("(%d)%.?$")
  if tonumber(last) % 2 == 0 then
    return prec == 0 and kept:gsub("%.$", "") or kept
  end
  return s  -- odd: rounding up is what C does too
end

-- string.format with C's rounding of %f (and %e-free formats only)
local function format(fmt, ...)
  if not half_up or not fmt:find("f", 1, true) then return sformat(fmt, ...) end
  local args, n = { ... }, 0
  return (fmt:gsub("%%([-0 +#]*)(%d*)%.?(%d*)([%a%%])", function(flags, width, prec, conv)
    if conv == "%" then return "%" end
    n = n + 1
    if conv ~= "f" then
      return sformat("%" .. flags .. width .. (prec ~= "" and "." .. prec or "") .. conv, args[n])
    end
    local v = ffix(args[n], tonumber(prec) or 6)
    local w = tonumber(width) or 0
    if #v < w then
      if flags:find("-", 1, true) then v = v .. (" "):rep(w - #v)
      elseif flags:find("0", 1, true) then
        local sign, rest = v:match("^(%-?)(.*)$")
        v = sign .. ("0"):rep(w - #v) .. rest
      else v = (" "):rep(w - #v) .. v end
    end
    return v
  end))
end
M.format = format

local function idiv(a, b) return floor(a / b) end

local function log10(x) return log(x) / log(10) end

-- ---------------------------------------------------------------------------
-- num2str: fio's number scaling (lib/num2str.c): at most `maxlen` digits,
-- dividing by 1000 (or 1024 when pow2) and keeping decimals that fit.

local SI = { [0] = "", "k", "M", "G", "T", "P", "E" }
local IEC = { [0] = "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" }
M.N2S = { NONE = 0, PERSEC = 1, BYTE = 2, BIT = 3, BYTEPERSEC = 4, BITPERSEC = 5 }
local UNIT = { [0] = "", "/s", "B", "bit", "B/s", "bit/s" }

function M.num2str(num, maxlen, base, pow2, units)
  local thousand = pow2 and 1024 or 1000
  local prefix = pow2 and IEC or SI
  local post = 0
  num = floor(num)
  while base > 1 do
    base = idiv(base, thousand)
    post = post + 1
  end
  if units == 3 or units == 5 then num = num * 8 end
  local modulo, carry
  while post <= 6 do
    if #format("%d", num) <= maxlen then break end
    modulo = num % thousand
    num = idiv(num, thousand)
    carry = modulo >= thousand / 2
    post = post + 1
  end
  if post > 6 then post = 0 end
  local tail = prefix[post] .. UNIT[units]
  if not modulo then return format("%d", num) .. tail end
  local width = #format("%d", num)
  if maxlen - width <= 1 then
    if carry then num = num + 1 end
    return format("%d", num) .. tail
  end
  local frac = format("%." .. (maxlen - width - 1) .. "f", modulo / thousand)
  if frac:sub(1, 1) == "1" then num = num + 1 end
  return format("%d", num) .. "." .. frac:sub(3) .. tail
end
local num2str = M.num2str

-- ---------------------------------------------------------------------------
-- Ordered tables: fio prints JSON keys in a fixed order. fr.decode records the
-- order it read; fr.ordered(t, keys) sets one; fr.keys(t) reads it back.

local ORDER = setmetatable({}, { __mode = "k" })
local FLOATS = setmetatable({}, { __mode = "k" })  -- [t][key] = true: written as a float

function M.ordered(t, keys)
  ORDER[t] = keys
  return t
end

-- Known orders by context (stat.c's show_thread_status_json and friends).
local ORDERS = {
  top = { "fio version", "timestamp", "timestamp_ms", "time", "global options", "client_stats",
    "jobs", "disk_util", "cpu idleness" },
  job = { "jobname", "groupid", "job_start", "error", "eta", "elapsed", "job options", "read",
    "write", "trim", "sync", "mixed", "job_runtime", "usr_cpu", "sys_cpu", "ctx", "majf", "minf",
    "iodepth_level", "iodepth_submit", "iodepth_complete", "latency_ns", "latency_us",
    "latency_ms", "total_err", "first_error", "latency_depth", "latency_target",
    "latency_percentile", "latency_window", "desc", "block", "steadystate" },
  dir = { "total_ios", "io_bytes", "io_kbytes", "bw_bytes", "bw", "iops", "runtime", "short_ios",
    "drop_ios", "slat_ns", "clat_ns", "lat_ns", "prios", "bw_min", "bw_max", "bw_agg", "bw_mean",
    "bw_dev", "bw_samples", "iops_min", "iops_max", "iops_mean", "iops_stddev", "iops_samples",
    "cachehit" },
  lat = { "min", "max", "mean", "stddev", "N", "percentile", "bins" },
  iodepth_level = { "1", "2", "4", "8", "16", "32", ">=64" },
  iodepth_submit = { "0", "4", "8", "16", "32", "64", ">=64" },
  latency_ns = { "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000" },
  latency_ms = { "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000" },
  steadystate = { "ss", "duration", "attained", "criterion", "max_deviation", "slope", "data" },
  ss_data = { "bw_mean", "iops_mean", "iops", "bw" },
  disk = { "name", "read_ios", "write_ios", "read_merges", "write_merges", "read_ticks",
    "write_ticks", "in_queue", "util", "aggr_read_ios", "aggr_write_ios", "aggr_read_merges",
    "aggr_write_merge", "aggr_read_ticks", "aggr_write_ticks", "aggr_in_queue", "aggr_util" },
}
ORDERS.iodepth_complete = ORDERS.iodepth_submit
ORDERS.latency_us = ORDERS.latency_ns
-- in a read/write/trim object io_bytes comes first; total_ios leads only in "sync"
ORDERS.dir_rw = {}
for i = 2, #ORDERS.dir do ORDERS.dir_rw[#ORDERS.dir_rw + 1] = ORDERS.dir[i] end
table.insert(ORDERS.dir_rw, 7, "total_ios")

-- The context of each key's value.
local CHILD = {
  top = { jobs = "jobs", disk_util = "disks", ["global options"] = "options" },
  jobs = "job", disks = "disk",
  job = { read = "dir_rw", write = "dir_rw", trim = "dir_rw", mixed = "dir_rw", sync = "dir",
    ["job options"] = "options", iodepth_level = "iodepth_level", iodepth_submit = "iodepth_submit",
    iodepth_complete = "iodepth_complete", latency_ns = "latency_ns", latency_us = "latency_us",
    latency_ms = "latency_ms", steadystate = "steadystate" },
  steadystate = { data = "ss_data" },
  dir_rw = { slat_ns = "lat", clat_ns = "lat", lat_ns = "lat" },
  dir = { lat_ns = "lat" },
  lat = { percentile = "numkeys", bins = "numkeys" },
}

local FLOAT_KEYS = {
  iops = true, mean = true, stddev = true, bw_agg = true, bw_mean = true, bw_dev = true,
  iops_mean = true, iops_stddev = true, usr_cpu = true, sys_cpu = true, util = true,
  aggr_util = true, latency_percentile = true, cachehit = true, max_deviation = true, slope = true,
}
local FLOAT_CTX = { iodepth_level = true, iodepth_submit = true, iodepth_complete = true,
  latency_ns = true, latency_us = true, latency_ms = true }

-- The keys of t in print order: a recorded order, else the context's order
-- (then any other keys, sorted), else numeric keys by value, else sorted.
local function keys_of(t, ctx)
  local rec = ORDER[t]
  local out, seen = {}, {}
  if rec then
    for _, k in ipairs(rec) do
      if t[k] ~= nil and not seen[k] then out[#out + 1] = k; seen[k] = true end
    end
  elseif ORDERS[ctx] then
    for _, k in ipairs(ORDERS[ctx]) do
      if t[k] ~= nil then out[#out + 1] = k; seen[k] = true end
    end
  end
  local rest = {}
  for k in pairs(t) do
    if type(k) == "string" and not seen[k] then rest[#rest + 1] = k end
  end
  if ctx == "numkeys" then
    table.sort(rest, function(a, b) return tonumber(a) < tonumber(b) end)
  else
    table.sort(rest)
  end
  for _, k in ipairs(rest) do out[#out + 1] = k end
  return out
end
M.keys = function(t, ctx) return keys_of(t, ctx) end

local function is_list(t)
  if next(t) == nil then return ORDER[t] == nil and getmetatable(t) == M.ARRAY end
  return t[1] ~= nil
end
M.ARRAY = {}  -- setmetatable({}, fr.ARRAY) marks an empty table as an empty JSON array

local function indent(level) return ("  "):rep(level) end

local function enc_string(s)
  return '"' .. s:gsub('[\\"]', "\\%0") .. '"'
end

local function enc_number(v, float)
  if float then return format("%f", v) end
  return format("%d", floor(v))
end

local enc_value
local function enc_object(t, level, ctx, out)
  out[#out + 1] = "{\n"
  local first = true
  for _, k in ipairs(keys_of(t, ctx)) do
    local v = t[k]
    if not (type(v) == "string" and v == "") then
      if not first then out[#out + 1] = ",\n" end
      first = false
      out[#out + 1] = indent(level + 1) .. '"' .. k .. '" : '
      local sub = CHILD[ctx]
      sub = type(sub) == "table" and sub[k] or (type(sub) == "string" and sub) or nil
      local float = FLOAT_KEYS[k] or FLOAT_CTX[ctx] or (FLOATS[t] and FLOATS[t][k])
      if ctx == "options" or ctx == "numkeys" or ctx == "ss_data" then
        float = FLOATS[t] and FLOATS[t][k]
      end
      enc_value(v, level + 1, sub, out, float)
    end
  end
  out[#out + 1] = "\n" .. indent(level) .. "}"
end

enc_value = function(v, level, ctx, out, float)
  local ty = type(v)
  if ty == "string" then
    out[#out + 1] = enc_string(v)
  elseif ty == "number" then
    out[#out + 1] = enc_number(v, float)
  elseif ty == "boolean" then
    out[#out + 1] = v and "1" or "0"
  elseif ty == "table" then
    if is_list(v) then
      out[#out + 1] = "[\n"
      local sub = CHILD[ctx]
      sub = type(sub) == "string" and sub or nil
      for i = 1, #v do
        if i > 1 then out[#out + 1] = ",\n" end
        out[#out + 1] = indent(level + 1)
        enc_value(v[i], level + 1, sub, out, FLOATS[v] and FLOATS[v][i])
      end
      out[#out + 1] = "\n" .. indent(level) .. "]"
    else
      enc_object(v, level, ctx, out)
    end
  else
    error("fio_report.json: cannot write a " .. ty)
  end
end

--- fr.json(top [, plus]) -> text: fio's JSON (json.c's layout), ending in "\n".
-- `plus` is accepted for symmetry: json+ differs from json only by the "bins"
-- objects, which are written when the model holds them (fr.job adds them when
-- meta.plus is set); with plus == false they are left out.
function M.json(top, plus)
  local out = {}
  if plus == false then
    top = M.strip_bins(top)
  end
  enc_value(top, 0, "top", out)
  out[#out + 1] = "\n"
  return concat(out)
end

-- A copy of top without the json+ "bins".
function M.strip_bins(t)
  if type(t) ~= "table" then return t end
  local c = {}
  for k, v in pairs(t) do
    if k ~= "bins" then c[k] = M.strip_bins(v) end
  end
  if ORDER[t] then ORDER[c] = ORDER[t] end
  if FLOATS[t] then FLOATS[c] = FLOATS[t] end
  return setmetatable(c, getmetatable(t))
end

-- ---------------------------------------------------------------------------
-- fr.decode(text) -> value: a JSON reader that keeps each object's key order
-- and notes which numbers were written with a decimal point, so fr.json
-- gives fio's text back byte for byte.

function M.decode(text)
  local pos = 1
  local function ws() pos = text:find("[^ \t\r\n]", pos) or #text + 1 end
  local function fail(what) error(format("fio_report.decode: %s at byte %d", what, pos), 0) end
  local value
  local function str()
    local out = {}
    pos = pos + 1
    while true do
      local c = text:sub(pos, pos)
      if c == "" then fail("unterminated string") end
      if c == '"' then pos = pos + 1; break end
      if c == "\\" then
        local e = text:sub(pos + 1, pos + 1)
        local map = { b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" }
        if e == "u" then
          local cp = tonumber(text:sub(pos + 2, pos + 5), 16) or fail("bad \\u escape")
          if cp < 128 then out[#out + 1] = string.char(cp)
          elseif cp < 2048 then out[#out + 1] = string.char(192 + floor(cp / 64), 128 + cp % 64)
          else
            out[#out + 1] = string.char(224 + floor(cp / 4096), 128 + floor(cp / 64) % 64,
              128 + cp % 64)
          end
          pos = pos + 6
        else
          out[#out + 1] = map[e] or e
          pos = pos + 2
        end
      else
        local stop = text:find('[\\"]', pos) or #text + 1
        out[#out + 1] = text:sub(pos, stop - 1)
        pos = stop
      end
    end
    return concat(out)
  end
  value = function()
    ws()
    local c = text:sub(pos, pos)
    if c == "{" then
      local t, order, floats = {}, {}, nil
      pos = pos + 1
      ws()
      if text:sub(pos, pos) == "}" then pos = pos + 1; ORDER[t] = order; return t end
      while true do
        ws()
        if text:sub(pos, pos) ~= '"' then fail("expected a key") end
        local k = str()
        ws()
        if text:sub(pos, pos) ~= ":" then fail("expected ':'") end
        pos = pos + 1
        local v, isfloat = value()
        if t[k] == nil then order[#order + 1] = k end
        t[k] = v
        if isfloat then floats = floats or {}; floats[k] = true end
        ws()
        local d = text:sub(pos, pos)
        pos = pos + 1
        if d == "}" then break end
        if d ~= "," then fail("expected ',' or '}'") end
      end
      ORDER[t] = order
      FLOATS[t] = floats
      return t
    elseif c == "[" then
      local t, floats = setmetatable({}, M.ARRAY), nil
      pos = pos + 1
      ws()
      if text:sub(pos, pos) == "]" then pos = pos + 1; return t end
      while true do
        local v, isfloat = value()
        t[#t + 1] = v
        if isfloat then floats = floats or {}; floats[#t] = true end
        ws()
        local d = text:sub(pos, pos)
        pos = pos + 1
        if d == "]" then break end
        if d ~= "," then fail("expected ',' or ']'") end
      end
      FLOATS[t] = floats
      return t
    elseif c == '"' then
      return str()
    else
      local lit = text:match("^-?[%d.eE+-]+", pos)
      if lit then
        pos = pos + #lit
        return tonumber(lit) or fail("bad number"), lit:find("[.eE]") ~= nil
      end
      for word, v in pairs { ["true"] = true, ["false"] = false } do
        if text:sub(pos, pos + #word - 1) == word then pos = pos + #word; return v end
      end
      if text:sub(pos, pos + 3) == "null" then pos = pos + 4; return nil end
      fail("unexpected character")
    end
  end
  local v = value()
  ws()
  if pos <= #text then fail("trailing text") end
  return v
end

-- fio's JSON holds a mean as "%f" (6 decimals), and its normal report rounds
-- the full double to 2: a JSON value ending in 5000 cannot say which way fio
-- rounded. A mean of n whole numbers is k / n: when such a ratio lies within
-- the JSON's rounding of x, it is the value fio had.
-- `how(k)` computes the value from the whole number k as fio does (the same
-- operations in the same order, so an exact tie rounds the same way).
local function refine(x, n, how)
  if not n or n <= 0 or x ~= x then return x end
  local k = floor(x * n + 0.5)
  local y = how and how(k) or k / n
  if math.abs(y - x) <= 5e-7 + 1e-13 * math.abs(x) then return y end
  return x
end
M.refine = refine

-- ---------------------------------------------------------------------------
-- Options that shape the reports, read from "job options" then "global options".

local function opt(top, job, name)
  local jo = job and job["job options"]
  if jo and jo[name] ~= nil then return jo[name] end
  local go = top and top["global options"]
  if go and go[name] ~= nil then return go[name] end
  return nil
end

local function truthy(v)
  if v == nil then return false end
  v = tostring(v)
  return v == "" or v == "1" or v == "true" or v == "yes" or v == "on"
end

-- an option set to 0 ("clat_percentiles=0" turns the percentiles off)
local function truthy0(v)
  return v ~= nil and (tostring(v) == "0" or tostring(v) == "false")
end

-- kb_base (1024 or 1000), unit_base (N2S_BYTEPERSEC or N2S_BITPERSEC), sig_figs
local function units_of(top, job)
  local kb = tonumber(opt(top, job, "kb_base")) or 1024
  local ub = tonumber(opt(top, job, "unit_base")) == 1 and 5 or 4
  local sf = tonumber(opt(top, job, "significant_figures")) or 4
  return kb, ub, sf
end

M.DEFAULT_PERCENTILES = "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99"

-- The percentile list (sorted numbers) and its print precision: the most
-- digits after a '.' in the option's text (parse.c's rule).
function M.percentile_list(text)
  text = text or M.DEFAULT_PERCENTILES
  local list, prec = {}, 0
  for w in tostring(text):gmatch("[^:]+") do list[#list + 1] = tonumber(w) end
  for digits in tostring(text):gmatch("%.(%d*)") do
    if #digits > prec then prec = #digits end
  end
  table.sort(list)
  return list, prec
end

local function pct_key(p) return format("%f", p) end

-- ---------------------------------------------------------------------------
-- Group statistics (stat.c's __show_run_stats), from the job objects.

local RW = { "read", "write", "trim" }

local function groups_of(top)
  local gs, maxg = {}, -1
  for _, job in ipairs(top.jobs or {}) do
    local g = job.groupid or 0
    if g > maxg then maxg = g end
    local rs = gs[g]
    if not rs then
      rs = { min_run = {}, max_run = { 0, 0, 0 }, min_bw = {}, max_bw = { 0, 0, 0 },
        iobytes = { 0, 0, 0 }, agg = { 0, 0, 0 } }
      gs[g] = rs
    end
    rs.kb_base, rs.unit_base, rs.sig_figs = units_of(top, job)
    -- unified_rw_reporting: "mixed" alone (fio's UNIFIED_MIXED) or beside read/write (BOTH)
    if job.mixed then rs.mixed = job.read and "both" or "mixed" end
    for d, name in ipairs(RW) do
      local dir = job[name]
      if d == 1 and job.mixed and not job.read then dir = job.mixed end
      local runt = dir and dir.runtime or 0
      if runt > 0 then
        if not rs.min_run[d] or runt < rs.min_run[d] then rs.min_run[d] = runt end
        if runt > rs.max_run[d] then rs.max_run[d] = runt end
        local bw = idiv(dir.io_bytes * 1000, runt)
        if not rs.min_bw[d] or bw < rs.min_bw[d] then rs.min_bw[d] = bw end
        if bw > rs.max_bw[d] then rs.max_bw[d] = bw end
        rs.iobytes[d] = rs.iobytes[d] + dir.io_bytes
      end
    end
  end
  for g = 0, maxg do
    local rs = gs[g]
    if not rs then
      rs = { min_run = {}, max_run = { 0, 0, 0 }, min_bw = {}, max_bw = { 0, 0, 0 },
        iobytes = { 0, 0, 0 }, agg = { 0, 0, 0 }, kb_base = 1024, unit_base = 4, sig_figs = 4 }
      gs[g] = rs
    end
    for d = 1, 3 do
      if rs.max_run[d] > 0 then rs.agg[d] = idiv(rs.iobytes[d] * 1000, rs.max_run[d]) end
    end
  end
  return gs, maxg
end
M.groups = groups_of

-- ---------------------------------------------------------------------------
-- The normal report.

local function lat_line(out, name, l)
  local min, max, mean, dev = l.min, l.max, refine(l.mean, l.N), l.stddev
  local base = "(nsec)"
  if min > 2000000 and max > 99999999 and dev > 1000000.0 then
    min, max, mean, dev = idiv(min, 1000000), idiv(max, 1000000), mean / 1e6, dev / 1e6
    base = "(msec)"
  elseif min > 2000 and max > 99999 and dev > 1000.0 then
    min, max, mean, dev = idiv(min, 1000), idiv(max, 1000), mean / 1000, dev / 1000
    base = "(usec)"
  end
  out[#out + 1] = format("    %s %s: min=%s, max=%s, avg=%5.2f, stdev=%5.2f\n", name, base,
    num2str(min, 6, 1, false, 0), num2str(max, 6, 1, false, 0), mean, dev)
end

-- the percentile values of a latency object, in the order of the sorted list
local function pct_values(l, list)
  local vals = {}
  local pc = l.percentile or {}
  for i, p in ipairs(list) do
    vals[i] = pc[pct_key(p)]
    if vals[i] == nil then return nil end
  end
  return vals
end

local function pct_table(out, pre, list, vals, prec)
  local minv, maxv = math.huge, 0
  for _, v in ipairs(vals) do
    if v < minv then minv = v end
    if v > maxv then maxv = v end
  end
  local scale, divisor, unit = 0, 1, "nsec"
  if minv > 2000000 and maxv > 99999999 then
    scale, divisor, unit = 2, 1000000, "msec"
  elseif minv > 2000 and maxv > 99999 then
    scale, divisor, unit = 1, 1000, "usec"
  end
  out[#out + 1] = format("    %s percentiles (%s):\n     |", pre, unit)
  local q = idiv(maxv, divisor)
  local tw = 5
  if q > 0 then tw = math.max(5, floor(log10(q) + 1)) end
  local fmt = " %" .. (prec + 3) .. "." .. prec .. "fth=[%" .. tw .. "d]%s"
  local per_line = idiv(80 - 7, prec + 10 + tw)
  for j = 0, #list - 1 do
    if j ~= 0 and j % per_line == 0 then out[#out + 1] = "     |" end
    local last = j == #list - 1
    local v = vals[j + 1]
    for _ = 1, scale do v = idiv(v + 999, 1000) end
    out[#out + 1] = format(fmt, list[j + 1], v, last and "\n" or ",")
    if last then break end
    if j % per_line == per_line - 1 then out[#out + 1] = "\n" end
  end
end

local function dir_block(out, top, job, name, rs, label)
  local dir = job[name]
  local runt = dir.runtime or 0
  if runt == 0 then return end
  local kb, ub, sf = units_of(top, job)
  local i2p = kb == 1024
  local bw = idiv(1000 * dir.io_bytes, runt)
  local iops = idiv(1000 * dir.total_ios, runt)
  local post = ""
  if name == "write" then post = "; 0 zone resets" end
  if name == "read" and dir.cachehit then post = format("; Cachehit=%0.2f%%", dir.cachehit) end
  if label == "mixed" and job.read then
    -- fio 3.33 prints this line with zero I/O (and no units) when
    -- unified_rw_reporting=both: its merged copy of the stats has no bytes
    out[#out + 1] = format("  mixed: IOPS=0, BW=0 (0)(0B/%dmsec)\n", runt)
  else
    out[#out + 1] = format("  %s: IOPS=%s, BW=%s (%s)(%s/%dmsec)%s\n", label,
      num2str(iops, sf, 1, false, 0), num2str(bw, sf, 1, i2p, ub), num2str(bw, sf, 1, not i2p, ub),
      num2str(dir.io_bytes, sf, 1, i2p, 2), runt, post)
  end
  for _, l in ipairs { { "slat", dir.slat_ns }, { "clat", dir.clat_ns }, { " lat", dir.lat_ns } } do
    if l[2] and (l[2].N or 0) > 0 then lat_line(out, l[1], l[2]) end
  end
  local list, prec = M.percentile_list(opt(top, job, "percentile_list"))
  for _, l in ipairs { { "slat", dir.slat_ns }, { "clat", dir.clat_ns }, { "lat", dir.lat_ns } } do
    local vals = l[2] and (l[2].N or 0) > 0 and l[2].percentile and pct_values(l[2], list)
    if vals then pct_table(out, l[1], list, vals, prec) end
  end
  if (dir.bw_samples or 0) > 0 then
    local min, max, mean, dev = dir.bw_min, dir.bw_max, refine(dir.bw_mean, dir.bw_samples), dir.bw_dev
    local bw_str = i2p and "KiB" or "kB"
    if mean > kb * kb then
      min, max, mean, dev = floor(min / kb), floor(max / kb), mean / kb, dev / kb
      bw_str = "MiB"
    end
    out[#out + 1] = format("   bw (%5s/s): min=%5d, max=%5d, per=%3.2f%%, avg=%5.2f, stdev=%5.2f, " ..
      "samples=%d\n", bw_str, min, max, dir.bw_agg, mean, dev, dir.bw_samples)
  end
  if (dir.iops_samples or 0) > 0 then
    out[#out + 1] = format("   iops        : min=%5d, max=%5d, avg=%5.2f, stdev=%5.2f, samples=%d\n",
      dir.iops_min, dir.iops_max, refine(dir.iops_mean, dir.iops_samples), dir.iops_stddev,
      dir.iops_samples)
  end
  local _ = rs
end

local LAT_N = { "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000" }
local LAT_M = { "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000" }

local function lat_dist(out, t, keys, unit, total)
  if not t then return end
  local line, shown, new_line = 0, false, true
  for _, k in ipairs(keys) do
    local v = t[k] or 0
    if v > 0 then
      if v > 0.01 then  -- (double) count / total * 100
        v = refine(v, total / 100, function(c) return c / total * 100.0 end)
      end
      shown = true
      if new_line then
        if line > 0 then out[#out + 1] = "\n" end
        out[#out + 1] = format("  lat (%s)   : ", unit)
        new_line, line = false, 0
      end
      if line > 0 then out[#out + 1] = ", " end
      out[#out + 1] = format("%s=%3.2f%%", k, v)
      line = line + 1
      if line == 5 then new_line = true end
    end
  end
  if shown then out[#out + 1] = "\n" end
end

local function dist(t, keys)
  local v = {}
  for i, k in ipairs(keys) do v[i] = (t and t[k]) or 0 end
  return v
end

local STRERROR = {
  [1] = "Operation not permitted", [2] = "No such file or directory", [5] = "Input/output error",
  [9] = "Bad file descriptor", [12] = "Cannot allocate memory", [13] = "Permission denied",
  [14] = "Bad address", [16] = "Device or resource busy", [17] = "File exists",
  [22] = "Invalid argument", [27] = "File too large", [28] = "No space left on device",
  [30] = "Read-only file system", [61] = "No data available", [95] = "Operation not supported",
  [110] = "Connection timed out", [121] = "Remote I/O error",
}
M.STRERROR = STRERROR

-- Per-job facts fio prints in the normal report that its JSON does not hold:
-- pid, members (jobs=N), verror. From opts.jobs[i], else the object's
-- hidden extras (fr.job sets them), else pid 0, members 1 (or numjobs under
-- group_reporting), verror "".
local EXTRA = setmetatable({}, { __mode = "k" })
M.EXTRA = EXTRA

local function extra_of(top, job, i, opts)
  local e = {}
  for k, v in pairs(EXTRA[job] or {}) do e[k] = v end
  for k, v in pairs(opts and opts.jobs and opts.jobs[i] or {}) do e[k] = v end
  if e.members == nil then
    -- group_reporting given as a bare flag is an empty string, which fio's
    -- JSON leaves out: a job of numjobs=N with no clone objects beside it
    -- was reported as one group
    local n = tonumber(opt(top, job, "numjobs")) or 1
    local clones = 0
    for _, other in ipairs(top.jobs or {}) do
      if other.jobname == job.jobname and other.groupid == job.groupid then clones = clones + 1 end
    end
    if clones > 1 and not truthy(opt(top, job, "group_reporting")) then n = 1 end
    e.members = n
  end
  e.pid = e.pid or 0
  return e
end

-- stat.c's show_ss_normal: the window's mean bw (in kB, both unit styles scaled by kb_base,
-- as fio does) and IOPS, and the last criterion (exact when fr.job made the job, else the
-- JSON's "%f" of it)
local function ss_line(out, top, job, e)
  local ss = job.steadystate
  local kb, ub, sf = units_of(top, job)
  local data = ss.data or {}
  local bw, iops = data.bw_mean or 0, data.iops_mean or 0
  local kind, pct = tostring(ss.ss or ""), tostring(ss.ss or ""):sub(-1) == "%"
  local crit = e.ss_criterion or tonumber((tostring(ss.criterion or "0"):gsub("%%$", ""))) or 0
  local attained = ss.attained == true or tonumber(ss.attained) == 1
  out[#out + 1] = format("  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n",
    attained and "yes" or "no", num2str(idiv(bw, kb), sf, kb, kb == 1024, ub),
    num2str(idiv(bw, kb), sf, kb, kb ~= 1024, ub), num2str(iops, sf, 1, false, 0),
    kind:sub(1, 4) == "iops" and "iops" or "bw", kind:find("_slope", 1, true) and " slope" or " mean dev",
    crit, pct and "%" or "")
end

local function job_block(out, top, job, i, opts, rs)
  local total, bytes = 0, 0
  for _, name in ipairs(RW) do
    local d = job[name]
    if name == "read" and not d then d = job.mixed end
    if d then total, bytes = total + (d.total_ios or 0), bytes + (d.io_bytes or 0) end
  end
  if total == 0 and bytes == 0 then return end
  local e = extra_of(top, job, i, opts)
  local when = e.time or top.time or ""
  if (job.error or 0) == 0 then
    out[#out + 1] = format("%s: (groupid=%d, jobs=%d): err=%2d: pid=%d: %s\n", job.jobname,
      job.groupid, e.members, job.error or 0, e.pid, when)
  else
    out[#out + 1] = format("%s: (groupid=%d, jobs=%d): err=%2d (%s): pid=%d: %s\n", job.jobname,
      job.groupid, e.members, job.error, e.verror or "", e.pid, when)
  end
  if job.desc then out[#out + 1] = format("  Description  : [%s]\n", job.desc) end
  for _, name in ipairs(RW) do
    if job[name] and (job[name].io_bytes or 0) > 0 then dir_block(out, top, job, name, rs, name) end
  end
  if job.mixed then dir_block(out, top, job, "mixed", rs, "mixed") end
  lat_dist(out, job.latency_ns, LAT_N, "nsec", total)
  lat_dist(out, job.latency_us, LAT_N, "usec", total)
  lat_dist(out, job.latency_ms, LAT_M, "msec", total)
  local sync = job.sync
  if sync and sync.lat_ns and (sync.lat_ns.N or 0) > 0 then
    out[#out + 1] = "  fsync/fdatasync/sync_file_range:\n"
    lat_line(out, "sync", sync.lat_ns)
    local list, prec = M.percentile_list(opt(top, job, "percentile_list"))
    local vals = sync.lat_ns.percentile and pct_values(sync.lat_ns, list)
    if vals then pct_table(out, "sync", list, vals, prec) end
  end
  -- cpu: milliseconds * 100 / job_runtime
  local runt = job.job_runtime or 0
  local function cpu(v) return refine(v, runt / 100, function(ms) return ms * 100 / runt end) end
  out[#out + 1] = format("  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%d, majf=%d, minf=%d\n",
    cpu(job.usr_cpu or 0), cpu(job.sys_cpu or 0), job.ctx or 0, job.majf or 0, job.minf or 0)
  local d = dist(job.iodepth_level, ORDERS.iodepth_level)
  out[#out + 1] = format("  IO depths    : 1=%3.1f%%, 2=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, " ..
    "32=%3.1f%%, >=64=%3.1f%%\n", d[1], d[2], d[3], d[4], d[5], d[6], d[7])
  for _, w in ipairs { { "submit  ", "iodepth_submit" }, { "complete", "iodepth_complete" } } do
    d = dist(job[w[2]], ORDERS.iodepth_submit)
    out[#out + 1] = format("     %s  : 0=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, " ..
      "64=%3.1f%%, >=64=%3.1f%%\n", w[1], d[1], d[2], d[3], d[4], d[5], d[6], d[7])
  end
  local function f(dn, k)
    if dn == "read" and job.mixed and not job.read then dn = "mixed" end
    return job[dn] and job[dn][k] or 0
  end
  out[#out + 1] = format("     issued rwts: total=%d,%d,%d,%d short=%d,%d,%d,0 dropped=%d,%d,%d,0\n",
    f("read", "total_ios"), f("write", "total_ios"), f("trim", "total_ios"), f("sync", "total_ios"),
    f("read", "short_ios"), f("write", "short_ios"), f("trim", "short_ios"),
    f("read", "drop_ios"), f("write", "drop_ios"), f("trim", "drop_ios"))
  if job.total_err then
    out[#out + 1] = format("     errors    : total=%d, first_error=%d/<%s>\n", job.total_err,
      job.first_error or 0, STRERROR[job.first_error or 0] or ("Unknown error " .. (job.first_error or 0)))
  end
  if job.latency_depth then
    out[#out + 1] = format("     latency   : target=%d, window=%d, percentile=%.2f%%, depth=%d\n",
      job.latency_target or 0, job.latency_window or 0, job.latency_percentile or 100,
      job.latency_depth)
  end
  if job.steadystate then ss_line(out, top, job, e) end
end

local function group_block(out, g, rs)
  out[#out + 1] = format("\nRun status group %d (all jobs):\n", g)
  local labels = { "   READ", "  WRITE", "   TRIM" }
  local i2p = rs.kb_base == 1024
  local sf, ub = rs.sig_figs, rs.unit_base
  for d = 1, 3 do
    if rs.max_run[d] > 0 then
      out[#out + 1] = format("%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%d-%dmsec\n",
        rs.mixed == "mixed" and "  MIXED" or labels[d],
        num2str(rs.agg[d], sf, 1, i2p, ub), num2str(rs.agg[d], sf, 1, not i2p, ub),
        num2str(rs.min_bw[d], sf, 1, i2p, ub), num2str(rs.max_bw[d], sf, 1, i2p, ub),
        num2str(rs.min_bw[d], sf, 1, not i2p, ub), num2str(rs.max_bw[d], sf, 1, not i2p, ub),
        num2str(rs.iobytes[d], sf, 1, i2p, 2), num2str(rs.iobytes[d], sf, 1, not i2p, 2),
        rs.min_run[d], rs.max_run[d])
    end
  end
  if rs.mixed == "both" then
    local io, agg, minb, maxb, minr, maxr = 0, 0, math.huge, 0, math.huge, 0
    for d = 1, 3 do
      if rs.max_run[d] > 0 then
        io, agg = io + rs.iobytes[d], agg + rs.agg[d]
        minb, maxb = math.min(minb, rs.min_bw[d]), math.max(maxb, rs.max_bw[d])
        minr, maxr = math.min(minr, rs.min_run[d]), math.max(maxr, rs.max_run[d])
      end
    end
    out[#out + 1] = format("  MIXED: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%d-%dmsec\n",
      num2str(agg, sf, 1, i2p, ub), num2str(agg, sf, 1, not i2p, ub),
      num2str(minb, sf, 1, i2p, ub), num2str(maxb, sf, 1, i2p, ub),
      num2str(minb, sf, 1, not i2p, ub), num2str(maxb, sf, 1, not i2p, ub),
      num2str(io, sf, 1, i2p, 2), num2str(io, sf, 1, not i2p, 2), minr, maxr)
  end
end

local function disk_lines(out, disks)
  if not disks or #disks == 0 then return end
  out[#out + 1] = "\nDisk stats (read/write):\n"
  for _, du in ipairs(disks) do
    local agg = du.aggr_read_ios ~= nil
    out[#out + 1] = format("%s  %s: ios=%d/%d, merge=%d/%d, ticks=%d/%d, in_queue=%d, util=%3.2f%%",
      agg and "  " or "", du.name, du.read_ios, du.write_ios, du.read_merges, du.write_merges,
      du.read_ticks, du.write_ticks, du.in_queue, du.util)
    if agg then
      out[#out + 1] = format(", aggrios=%d/%d, aggrmerge=%d/%d, aggrticks=%d/%d, aggrin_queue=%d, " ..
        "aggrutil=%3.2f%%", du.aggr_read_ios, du.aggr_write_ios, du.aggr_read_merges,
        du.aggr_write_merge, du.aggr_read_ticks, du.aggr_write_ticks, du.aggr_in_queue, du.aggr_util)
    end
    out[#out + 1] = "\n"
  end
end

-- ---------------------------------------------------------------------------
-- The header fio prints before the run: one line per job section ("..." for
-- its clones), the version, "Starting N processes".

local DDIR_STR = { read = "read", write = "write", rw = "rw", readwrite = "rw", randread = "randread",
  randwrite = "randwrite", randrw = "randrw", trim = "trim", randtrim = "randtrim",
  trimwrite = "trimwrite", randtrimwrite = "randtrimwrite" }

-- bs (or bsrange, range = true) option text -> { r = {lo, hi}, w = {lo, hi}, t = {lo, hi} },
-- read as fio reads it (platter.fio_job: ',' and for bs also ':' and '-' split it into
-- directions, and a suffix fio does not know counts as 1, so bs=4q is 4 bytes)
local function bs_ranges(text, kb, range)
  local d = fj.bs_dirs(tostring(text), kb, range)
  -- (fio_job has checked a job's own options before; a hand-made JSON may not be)
  if not d then error(sformat("fio: bs '%s' is not a size", tostring(text)), 0) end
  return { r = d.read, w = d.write, t = d.trim }
end

--- fr.defs(top) -> the job sections, as far as the JSON tells them: one per
-- job object, clones (same name and group, numjobs > 1 without
-- group_reporting) folded. Each: { name, groupid, rw, bs = {r=,w=,t=},
-- ioengine, iodepth, numjobs, thread }.
function M.defs(top)
  local defs = {}
  local jobs = top.jobs or {}
  local i = 1
  while i <= #jobs do
    local job = jobs[i]
    local function o(k) return opt(top, job, k) end
    local kb = tonumber(o("kb_base")) or 1024
    -- kb_base=1000 makes "4k" 4000 only in the options parsed after it
    local size_kb = 1024
    if kb == 1000 then
      local go, jo = top["global options"], job["job options"]
      if go and go.kb_base then size_kb = 1000 end
      if jo and jo.kb_base then
        for _, k in ipairs(ORDER[jo] or {}) do
          if k == "kb_base" then size_kb = 1000; break end
          if k == "bs" or k == "blocksize" or k == "bsrange" or k == "blocksize_range" then break end
        end
      end
    end
    local nj = tonumber(o("numjobs")) or 1
    local bs = o("bs") or o("blocksize") or "4k"
    local br = o("bsrange") or o("blocksize_range")
    local split = o("bssplit")
    if split then
      -- bssplit=4k/50:64k/50[,...]: each direction's smallest and largest size
      local parts = {}
      for part in (tostring(split) .. ","):gmatch("([^,]*),") do  -- "a,,c": write keeps 4 KiB
        local lo, hi
        for piece in part:gmatch("[^:]+") do  -- "4k/50", or "16k" alone (all of them)
          local size = piece:match("^[^/]*")
          local v = fj.size(size, 1024)
          if v then lo, hi = math.min(lo or v, v), math.max(hi or v, v) end
        end
        parts[#parts + 1] = lo and (lo .. "-" .. hi) or part == "" and "" or "4096"
      end
      br = table.concat(parts, ",")
    end
    local d = {
      name = job.jobname, groupid = job.groupid,
      rw = DDIR_STR[(tostring(o("rw") or o("readwrite") or "read"):match("^[^:]+"))] or "read",
      bs = bs_ranges(br or bs, size_kb, br ~= nil), ioengine = o("ioengine") or "psync",
      iodepth = tonumber(o("iodepth")) or 1, numjobs = nj,
      thread = o("thread") ~= nil and not truthy0(o("thread")),
      kb_base = kb, sig_figs = tonumber(o("significant_figures")) or 4,
    }
    defs[#defs + 1] = d
    i = i + 1
    local left = nj - 1  -- the clones of a job of numjobs > 1 (unless group-reported)
    while left > 0 and jobs[i] and jobs[i].jobname == job.jobname and jobs[i].groupid == job.groupid do
      i, left = i + 1, left - 1
    end
  end
  return defs
end

function M.header(defs, version)
  local out = {}
  local nproc, nthread = 0, 0
  for _, d in ipairs(defs) do
    local i2p = (d.kb_base or 1024) == 1024
    local sf = d.sig_figs or 4
    local function n(v) return num2str(v, sf, 1, i2p, 2) end
    out[#out + 1] = format("%s: (g=%d): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, " ..
      "iodepth=%d\n", d.name, d.groupid or 0, d.rw, n(d.bs.r[1]), n(d.bs.r[2]), n(d.bs.w[1]),
      n(d.bs.w[2]), n(d.bs.t[1]), n(d.bs.t[2]), d.ioengine, d.iodepth)
    if (d.numjobs or 1) > 1 then out[#out + 1] = "...\n" end
    if d.thread then nthread = nthread + (d.numjobs or 1) else nproc = nproc + (d.numjobs or 1) end
  end
  out[#out + 1] = (version or "fio-3.33") .. "\n"
  local s = "Starting "
  if nthread > 0 then s = s .. format("%d thread%s", nthread, nthread > 1 and "s" or "") end
  if nproc > 0 then
    if nthread > 0 then s = s .. " and " end
    s = s .. format("%d process%s", nproc, nproc > 1 and "es" or "")
  end
  out[#out + 1] = s .. "\n"
  return concat(out)
end

--- fr.normal(top [, opts]) -> text: fio 3.33's normal report. opts:
--   header = false    leave out the lines fio prints before the run
--   defs = {...}      the job sections for the header (default fr.defs(top))
--   jobs = { [i] = { pid =, members =, verror =, time = } } per job object
function M.normal(top, opts)
  opts = opts or {}
  local out = {}
  if opts.header ~= false then out[1] = M.header(opts.defs or M.defs(top), top["fio version"]) end
  out[#out + 1] = "\n"
  local gs, maxg = groups_of(top)
  for i, job in ipairs(top.jobs or {}) do
    job_block(out, top, job, i, opts, gs[job.groupid or 0])
  end
  for g = 0, maxg do group_block(out, g, gs[g]) end
  disk_lines(out, top.disk_util)
  return concat(out)
end

-- ---------------------------------------------------------------------------
-- Terse (stat.c's show_thread_status_terse_all), versions 2 to 5.

local function terse_lat(out, l)
  if l and (l.N or 0) > 0 then
    out[#out + 1] = format(";%d;%d;%f;%f", idiv(l.min, 1000), idiv(l.max, 1000),
      refine(l.mean, l.N) / 1000, l.stddev / 1000)
  else
    out[#out + 1] = ";0;0;0.000000;0.000000"
  end
end

local function terse_dir(out, top, job, dir, rs, d, ver)
  dir = dir or {}
  local runt = dir.runtime or 0
  local bw, iops = 0, 0
  if runt > 0 then
    bw = idiv(idiv(1000 * dir.io_bytes, runt), 1024)
    iops = idiv(1000 * dir.total_ios, runt)
  end
  out[#out + 1] = format(";%d;%d;%d;%d", idiv(dir.io_bytes or 0, 1024), bw, iops, runt)
  terse_lat(out, dir.slat_ns)
  terse_lat(out, dir.clat_ns)
  local list = M.percentile_list(opt(top, job, "percentile_list"))
  local src
  if dir.lat_ns and dir.lat_ns.percentile then src = dir.lat_ns
  elseif dir.clat_ns and dir.clat_ns.percentile then src = dir.clat_ns end
  local pct_on = src or not truthy0(opt(top, job, "clat_percentiles"))
  for i = 1, 20 do
    if pct_on and i <= #list then
      local v = src and src.percentile[pct_key(list[i])] or 0
      out[#out + 1] = format(";%f%%=%d", list[i], idiv(v, 1000))
    else
      out[#out + 1] = ";0%=0"
    end
  end
  terse_lat(out, dir.lat_ns)
  if (dir.bw_samples or 0) > 0 then
    local p = 100.0
    local agg = rs.agg[d] or 0
    if agg > 0 then
      local k = idiv(agg, 1024)
      p = k > 0 and dir.bw_mean * 100 / k or math.huge
      if p > 100.0 then p = 100.0 end
    end
    out[#out + 1] = format(";%d;%d;%f%%;%f;%f", dir.bw_min, dir.bw_max, p, dir.bw_mean, dir.bw_dev)
  else
    out[#out + 1] = ";0;0;0.000000%;0.000000;0.000000"
  end
  if ver == 5 then
    out[#out + 1] = format(";%d", dir.bw_samples or 0)
    if (dir.iops_samples or 0) > 0 then
      out[#out + 1] = format(";%d;%d;%f;%f;%d", dir.iops_min, dir.iops_max, dir.iops_mean,
        dir.iops_stddev, dir.iops_samples)
    else
      out[#out + 1] = ";0;0;0.000000;0.000000;0"
    end
  end
end

--- fr.terse(top [, opts]) -> text: one line per job object. opts.version:
-- 2, 3 (default), 4 or 5 (fio's --terse-version).
function M.terse(top, opts)
  opts = opts or {}
  local ver = opts.version or 3
  if ver < 2 or ver > 5 then error("fio: bad terse version!? " .. tostring(ver)) end
  local gs = groups_of(top)
  local out = {}
  for _, job in ipairs(top.jobs or {}) do
    local rs = gs[job.groupid or 0]
    if ver == 2 then
      out[#out + 1] = format("2;%s;%d;%d", job.jobname, job.groupid, job.error or 0)
    else
      out[#out + 1] = format("%d;%s;%s;%d;%d", ver, top["fio version"] or "fio-3.33", job.jobname,
        job.groupid, job.error or 0)
    end
    if job.mixed and not job.read then
      terse_dir(out, top, job, job.mixed, rs, 1, ver)
    else
      terse_dir(out, top, job, job.read, rs, 1, ver)
      terse_dir(out, top, job, job.write, rs, 2, ver)
      if ver == 2 or ver == 4 or ver == 5 then terse_dir(out, top, job, job.trim, rs, 3, ver) end
      if job.mixed then terse_dir(out, top, job, job.mixed, rs, 1, ver) end
    end
    out[#out + 1] = format(";%f%%;%f%%;%d;%d;%d", job.usr_cpu or 0, job.sys_cpu or 0, job.ctx or 0,
      job.majf or 0, job.minf or 0)
    local d = dist(job.iodepth_level, ORDERS.iodepth_level)
    out[#out + 1] = format(";%3.1f%%;%3.1f%%;%3.1f%%;%3.1f%%;%3.1f%%;%3.1f%%;%3.1f%%", d[1], d[2],
      d[3], d[4], d[5], d[6], d[7])
    -- the ns buckets are added to the first us bucket (fio's stat_calc_lat_nu)
    local u = dist(job.latency_us, LAT_N)
    local total = 0
    for _, name in ipairs(RW) do total = total + (job[name] and job[name].total_ios or 0) end
    if job.mixed and not job.read then total = job.mixed.total_ios or 0 end
    -- the counts back from the percentages (count / total * 100, raised to
    -- 0.01 when not 0): a bucket at that floor held 1 to total / 10000 I/Os,
    -- which the JSON does not tell; 1 is taken
    local ntotal = 0
    for _, v in ipairs(dist(job.latency_ns, LAT_N)) do
      if v > 0 then
        local c = floor(v * total / 100 + 0.5)
        if v <= 0.01 and total > 10000 then c = 1 end
        ntotal = ntotal + math.max(1, c)
      end
    end
    if total > 0 then
      if u[1] > 0.01 then u[1] = refine(u[1], total / 100, function(c) return c / total * 100.0 end) end
      u[1] = u[1] + 100.0 * ntotal / total
    end
    for i = 1, 10 do out[#out + 1] = format(";%3.2f%%", u[i]) end
    for _, v in ipairs(dist(job.latency_ms, LAT_M)) do out[#out + 1] = format(";%3.2f%%", v) end
    if ver >= 3 then
      for _, du in ipairs(top.disk_util or {}) do
        out[#out + 1] = format(";%s;%d;%d;%d;%d;%d;%d;%d;%3.2f%%", du.name, du.read_ios, du.write_ios,
          du.read_merges, du.write_merges, du.read_ticks, du.write_ticks, du.in_queue, du.util)
        if du.aggr_read_ios ~= nil then
          out[#out + 1] = format(";slaves;%d;%d;%d;%d;%d;%d;%d;%3.2f%%", du.aggr_read_ios,
            du.aggr_write_ios, du.aggr_read_merges, du.aggr_write_merge, du.aggr_read_ticks,
            du.aggr_write_ticks, du.aggr_in_queue, du.aggr_util)
        end
      end
    end
    if job.total_err then out[#out + 1] = format(";%d;%d", job.total_err, job.first_error or 0) end
    if job.desc then
      if ver == 2 then out[#out + 1] = "\n" end
      out[#out + 1] = ";" .. job.desc
    end
    out[#out + 1] = "\n"
  end
  return concat(out)
end

-- ---------------------------------------------------------------------------
-- fr.job(meta, stats): one job object from platter's stats objects.

local function lat_of_stats(s, n, pcts, plus)
  local l = { min = 0, max = 0, mean = 0.0, stddev = 0.0, N = n }
  if n == 0 or not s then return l end
  l.min, l.max, l.mean = s:min(), s:max(), s:mean()
  l.stddev = (s.stdev and n > 1) and s:stdev() or 0.0
  if pcts then
    local pc = {}
    for _, p in ipairs(pcts) do pc[pct_key(p)] = floor(s:percentile(p)) end
    l.percentile = pc
    if plus and s.buckets then
      local bins = {}
      for _, b in ipairs(s:buckets()) do
        local lo, hi = b[1], b[2]
        local v = lo == hi and lo or floor(lo + (hi - lo + 1) / 2)
        local k = format("%d", v)
        bins[k] = (bins[k] or 0) + b[3]
      end
      l.bins = bins
    end
  end
  return l
end

-- min, max, mean, sample standard deviation (n - 1) of a list
local function moments(xs)
  local n = #xs
  if n == 0 then return 0, 0, 0.0, 0.0 end
  local min, max, sum = math.huge, -math.huge, 0
  for _, x in ipairs(xs) do
    if x < min then min = x end
    if x > max then max = x end
    sum = sum + x
  end
  local mean = sum / n
  local ss = 0
  for _, x in ipairs(xs) do ss = ss + (x - mean) ^ 2 end
  return min, max, mean, n > 1 and sqrt(ss / (n - 1)) or 0.0
end

-- fio's bw/iops samples from platter's windows: a window with no I/O of the
-- direction is not a sample (stat.c's __add_samples)
local function samples_of(samples, bkey, okey)
  local bws, iopss = {}, {}
  local prev = 0
  for _, w in ipairs(samples or {}) do
    local spent = w.t_ms - prev
    prev = w.t_ms
    local b, o = w[bkey] or 0, w[okey] or 0
    if b > 0 and spent > 0 then bws[#bws + 1] = idiv(idiv(b * 1000, spent), 1024) end
    if o > 0 and spent > 0 then iopss[#iopss + 1] = idiv(o * 1000, spent) end
  end
  return bws, iopss
end

-- fio's per-I/O samples (a bw or iops log with log_avg_msec=0): moments kept
-- by p.run's io_samples, {n, min, max, mean, stdev}, or none
local function io_moments(m)
  if not m or (m.n or 0) == 0 then return 0, 0, 0.0, 0.0, 0 end
  return m.min, m.max, m.mean, m.stdev, m.n
end

local function bucket_of(v, edges)
  for i, e in ipairs(edges) do
    if v < e then return i end
  end
  return #edges + 1
end
M.bucket_of = bucket_of

-- fio's bw_agg: a direction's mean bandwidth as a percentage of its group's (agg,
-- bytes/s), 0 without samples, at most 100
local function bw_agg(samples, bw_mean, agg)
  if samples <= 0 then return 0.0 end
  if agg <= 1024 then return 100.0 end
  return math.min(100.0, (bw_mean >= 0 and floor(bw_mean) or 0) * 100.0 / (agg / 1024.0))
end
M.bw_agg = bw_agg

-- fio's stat_calc_dist: percentages, at least 0.1 for a non-empty bucket
local function calc_dist(counts, total, floor_pct)
  local out = {}
  for i = 1, 7 do
    local c = counts and counts[i] or 0
    local v = 0.0
    if total > 0 then
      v = c / total * 100.0
      if v < floor_pct and c > 0 then v = floor_pct end
    end
    out[i] = v
  end
  return out
end

local function named(keys, vals)
  local t = {}
  for i, k in ipairs(keys) do t[k] = vals[i] end
  return t
end

--- fr.job(meta, stats) -> a job object (fio 3.33's JSON shape).
-- stats = { read = s, write = s, trim = s, sync = s, slat = { read = s, write = s } }:
-- platter stats objects (any may be nil; slat's need only ops, min, max, mean, stdev).
-- platter has one latency per I/O, from hand-over to completion: it is clat and
-- lat; slat is all zero (as fio's for a sync engine) unless stats.slat has it.
-- s:stdev() is used when the
-- object has it (else 0). meta, every field optional:
--   name, groupid, error, pid, jobs (members: "jobs=N"), verror, description
--   options          job options: {{name, value}, ...} in order, or a map
--   runtime_ms       the job's runtime (fio's per-direction "runtime" and
--                    "job_runtime"); a table {read=, write=, trim=} per direction
--   job_runtime_ms   the whole job's time when it is not runtime_ms (a verify
--                    pass after the writes: the sum); default the longest direction
--   elapsed_s        wall seconds since start (default runtime), eta (INT_MAX)
--   usr_cpu_s, sys_cpu_s, ctx, majf, minf   CPU use (p.rusage's)
--   iodepth          1; depths, submit, complete: 7 counts each in fio's
--                    buckets (default: every I/O at depth iodepth, one per call)
--   percentile_list  fio's option text ("1:5:...:99.99" by default);
--                    clat_percentiles = false, lat_percentiles = true
--   plus             add json+'s "bins" (from s:buckets())
--   samples          bw/iops windows {t_ms, rbytes, wbytes, rops, wops},
--                    t_ms the window's end since the start, counts per window
--   io_samples       {bw = {read = m, write = m} or nil, iops = ...}: the kinds fio
--                    samples per I/O (a log with log_avg_msec=0), each direction's
--                    m = {n, min, max, mean, stdev} (none: no samples); in place of samples
--   group_bw         {read=, write=} the group's bytes/s, for bw_agg (default own)
--   shorts           {read=, write=, trim=} short I/Os
--   continue_on_error, total_err, first_error
--   gtod_reduce      fio's gtod_reduce=1: no latencies (slat, clat, lat); the windowed bw
--                    and iops samples and the submit and complete counts stay, as in fio
--   slat_percentiles fio's slat_percentiles=1: stats.slat's need s:percentile(p) too
function M.job(meta, stats)
  stats = stats or {}
  local pcts = M.percentile_list(meta.percentile_list)
  local lat_pcts = meta.lat_percentiles and pcts or nil
  local slat_pcts = meta.slat_percentiles and pcts or nil
  if meta.clat_percentiles == false then pcts = nil end
  local job = {
    jobname = meta.name or "job", groupid = meta.groupid or 0, error = meta.error or 0,
    -- fio's final report always has eta INT_MAX; elapsed is whole seconds, rounded up (eta.c)
    eta = meta.eta or 2147483647,
    elapsed = math.ceil(meta.elapsed_s or ((meta.runtime_ms or 0) / 1000)),
  }
  if meta.options then
    local jo, keys = {}, {}
    if meta.options[1] then
      for _, kv in ipairs(meta.options) do
        if jo[kv[1]] == nil then keys[#keys + 1] = kv[1] end
        jo[kv[1]] = tostring(kv[2])
      end
    else
      for k, v in pairs(meta.options) do jo[k] = tostring(v); keys[#keys + 1] = k end
      table.sort(keys)
    end
    if #keys > 0 then job["job options"] = M.ordered(jo, keys) end
  end
  local runtime = meta.runtime_ms or 0
  -- job_runtime: the whole job's time (meta.job_runtime_ms), else the longest direction's
  local rusec = meta.job_runtime_ms or runtime
  if type(rusec) == "table" then
    local m = 0
    for _, v in pairs(rusec) do if v > m then m = v end end
    rusec = m
  end
  local all_ops, lat_counts = 0, { n = {}, u = {}, m = {} }
  local dkeys = { read = { "rbytes", "rops" }, write = { "wbytes", "wops" }, trim = {} }
  for _, name in ipairs(RW) do
    local s = stats[name]
    local ops = s and s.ops or 0
    local bytes = s and s.bytes or 0
    local runt = 0
    if ops > 0 then
      runt = type(runtime) == "table" and (runtime[name] or 0) or runtime
    end
    local d = {
      io_bytes = bytes, io_kbytes = idiv(bytes, 1024), bw_bytes = 0, bw = 0, iops = 0.0,
      runtime = runt, total_ios = ops, short_ios = (meta.shorts and meta.shorts[name]) or 0,
      drop_ios = 0,
    }
    if runt > 0 then
      d.bw_bytes = idiv(1000 * bytes, runt)
      d.bw = idiv(d.bw_bytes, 1024)
      d.iops = 1000.0 * ops / runt
    end
    -- slat: what p.run's slat = true measured (async engines), as fio shows it without percentiles
    local sl = stats.slat and stats.slat[name]
    if meta.gtod_reduce then sl = nil end
    d.slat_ns = lat_of_stats(sl, sl and sl.ops or 0, slat_pcts, nil)
    -- gtod_reduce: fio takes no latencies at all
    local lat_s, lat_n = s, ops
    if meta.gtod_reduce then lat_s, lat_n = nil, 0 end
    d.clat_ns = lat_of_stats(lat_s, lat_n, pcts, meta.plus)
    d.lat_ns = lat_of_stats(lat_s, lat_n, lat_pcts, meta.plus)
    if not meta.lat_percentiles then d.lat_ns.percentile, d.lat_ns.bins = nil, nil end
    local bws, iopss = samples_of(meta.samples, dkeys[name][1], dkeys[name][2])
    local per = meta.io_samples
    d.bw_min, d.bw_max, d.bw_mean, d.bw_dev = moments(bws)
    d.bw_samples = #bws
    if per and per.bw then
      d.bw_min, d.bw_max, d.bw_mean, d.bw_dev, d.bw_samples = io_moments(per.bw[name])
    end
    d.bw_agg = bw_agg(d.bw_samples, d.bw_mean, meta.group_bw and meta.group_bw[name] or d.bw_bytes)
    d.iops_min, d.iops_max, d.iops_mean, d.iops_stddev = moments(iopss)
    d.iops_samples = #iopss
    if per and per.iops then
      d.iops_min, d.iops_max, d.iops_mean, d.iops_stddev, d.iops_samples = io_moments(per.iops[name])
    end
    job[name] = d
    all_ops = all_ops + ops
    if s and ops > 0 and s.buckets and not meta.gtod_reduce then
      for _, b in ipairs(s:buckets()) do
        local v = b[1]  -- a bucket's low edge decides its fio latency bucket
        local edges = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 }
        if v < 1000 then
          local i = bucket_of(v, edges)
          lat_counts.n[i - 1] = (lat_counts.n[i - 1] or 0) + b[3]
        elseif v < 1000000 then
          local i = bucket_of(floor(v / 1000), edges)
          lat_counts.u[i - 1] = (lat_counts.u[i - 1] or 0) + b[3]
        else
          local i = bucket_of(floor(v / 1000000), { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000 })
          lat_counts.m[i - 1] = (lat_counts.m[i - 1] or 0) + b[3]
        end
      end
    end
  end
  local sy = stats.sync
  local sops = sy and sy.ops or 0
  job.sync = { total_ios = sops, lat_ns = lat_of_stats(sy, sops, pcts, meta.plus) }
  job.job_runtime = rusec
  local secs = rusec / 1000
  job.usr_cpu = secs > 0 and (meta.usr_cpu_s or 0) * 100 / secs or 0.0
  job.sys_cpu = secs > 0 and (meta.sys_cpu_s or 0) * 100 / secs or 0.0
  job.ctx, job.majf, job.minf = meta.ctx or 0, meta.majf or 0, meta.minf or 0
  local depths = meta.depths
  if not depths then
    depths = { 0, 0, 0, 0, 0, 0, 0 }
    depths[bucket_of(meta.iodepth or 1, { 2, 4, 8, 16, 32, 64 })] = all_ops
  end
  job.iodepth_level = named(ORDERS.iodepth_level, calc_dist(depths, all_ops, 0.1))
  local function calls(c)
    if not c then return calc_dist({ 0, all_ops }, all_ops, 0.1) end
    local t = 0
    for i = 1, 7 do t = t + (c[i] or 0) end
    return calc_dist(c, t, 0.1)
  end
  -- (gtod_reduce leaves these: fio counts its submit and reap calls without the clock)
  job.iodepth_submit = named(ORDERS.iodepth_submit, calls(meta.submit))
  job.iodepth_complete = named(ORDERS.iodepth_submit, calls(meta.complete))
  local function lat_pct(counts, n)
    local out = {}
    for i = 1, n do
      local c = counts[i - 1] or 0
      local v = 0.0
      if all_ops > 0 then
        v = c / all_ops * 100.0
        if v < 0.01 and c > 0 then v = 0.01 end
      end
      out[i] = v
    end
    return out
  end
  job.latency_ns = named(LAT_N, lat_pct(lat_counts.n, 10))
  job.latency_us = named(LAT_N, lat_pct(lat_counts.u, 10))
  job.latency_ms = named(LAT_M, lat_pct(lat_counts.m, 12))
  if meta.continue_on_error then
    job.total_err = meta.total_err or 0
    job.first_error = meta.first_error or 0
  end
  job.latency_depth = meta.iodepth or 1
  job.latency_target = 0
  job.latency_percentile = 100.0
  job.latency_window = 0
  if meta.description and meta.description ~= "" then job.desc = meta.description end
  if meta.steady then job.steadystate = M.steadystate(meta.steady) end
  EXTRA[job] = { pid = meta.pid, members = meta.jobs, verror = meta.verror,
    ss_criterion = meta.steady and meta.steady.criterion }
  return job
end

-- x rounded to the nearest single-precision float (fio prints its steady-state limit and
-- criterion through a (float) cast)
local function f32(x)
  if x ~= x or x == 0 or x == math.huge or x == -math.huge then return x end
  local a = math.abs(x)
  local e = floor(log(a) / log(2))
  if 2 ^ e > a then e = e - 1 elseif 2 ^ (e + 1) <= a then e = e + 1 end
  if e < -126 then e = -126 end
  local q = 2 ^ (e - 23)
  local m = a / q
  local r = floor(m)
  if m - r > 0.5 or (m - r == 0.5 and r % 2 == 1) then r = r + 1 end
  local y = r * q
  if y > 3.4028234663852886e38 then y = math.huge end
  return x < 0 and -y or y
end
M.f32 = f32

--- fr.steadystate(steady) -> fio's "steadystate" object (stat.c), from p.run's r.steady
-- ({ kind, limit, pct, duration_s, attained, criterion, slope, deviation, iops_mean,
-- bw_mean, iops = {...}, bw = {...} }: the window oldest first).
function M.steadystate(st)
  local pct = st.pct and "%" or ""
  local iops, bw = {}, {}
  for i, v in ipairs(st.iops or {}) do iops[i] = v end
  for i, v in ipairs(st.bw or {}) do bw[i] = v end
  return {
    ss = format("%s:%f%s", st.kind, f32(st.limit), pct),
    duration = st.duration_s,
    attained = st.attained and 1 or 0,
    criterion = format("%f%s", f32(st.criterion or 0), pct),
    max_deviation = st.deviation or 0,
    slope = st.slope or 0,
    data = { bw_mean = st.bw_mean or 0, iops_mean = st.iops_mean or 0, iops = iops, bw = bw },
  }
end

--- fr.top(jobs [, meta]) -> the whole model: meta = { time = unix seconds
-- (default os.time()), time_ms, global_options = {{k, v}, ...} or map,
-- disk_util = list }.
function M.top(jobs, meta)
  meta = meta or {}
  local now = meta.time or os.time()
  local t = {
    ["fio version"] = meta.version or "fio-3.33",
    timestamp = floor(now), timestamp_ms = meta.time_ms or floor(now * 1000),
    time = os.date("%a %b %e %H:%M:%S %Y", floor(now)),
    jobs = jobs,
  }
  local go = meta.global_options
  if go then
    local o, keys = {}, {}
    if go[1] then
      for _, kv in ipairs(go) do
        if o[kv[1]] == nil then keys[#keys + 1] = kv[1] end
        o[kv[1]] = tostring(kv[2])
      end
    else
      for k, v in pairs(go) do o[k] = tostring(v); keys[#keys + 1] = k end
      table.sort(keys)
    end
    if #keys > 0 then t["global options"] = M.ordered(o, keys) end
  end
  if meta.disk_util and #meta.disk_util > 0 then t.disk_util = meta.disk_util end
  return t
end

--- fr.disk_util(before, after, msec) -> fio's "disk_util" list from two
-- p.diskstats() snapshots taken `msec` apart (diskutil.c's deltas), devices
-- in the order of `names` (default: sorted).
function M.disk_util(before, after, msec, names)
  if not names then
    names = {}
    for k in pairs(after) do if before[k] then names[#names + 1] = k end end
    table.sort(names)
  end
  local out = {}
  for _, n in ipairs(names) do
    local a, b = after[n], before[n]
    if a and b then
      local function dl(k) return (a[k] or 0) - (b[k] or 0) end
      local util = 0.0
      if msec > 0 then util = 100.0 * dl("io_ticks") / msec end
      if util > 100.0 then util = 100.0 end
      out[#out + 1] = {
        name = n, read_ios = dl("reads"), write_ios = dl("writes"), read_merges = dl("read_merges"),
        write_merges = dl("write_merges"), read_ticks = dl("read_ticks"),
        write_ticks = dl("write_ticks"), in_queue = dl("time_in_queue"), util = util,
      }
    end
  end
  return out
end

return M
