-- slc-cliff: where does the SSD's fast (SLC) write region run out? Sustained sequential writes until the rate drops and stays down
--
-- Many SSDs write into a region of cells used as SLC first and move the
-- data to denser, slower cells later. Written for long enough without a
-- pause, the region fills and the write rate falls off a cliff. This probe
-- writes TARGET sequentially with direct writes of --bs bytes, keeping a
-- time series of intervals of --interval, until the rate has fallen and
-- stayed down, or --size bytes or --seconds have passed.
--
-- The rule: the initial rate is the median of the first --window intervals;
-- the moving median of --window intervals must fall below --drop percent of
-- it and stay below for --hold intervals in a row. The cliff is the first
-- interval slower than that inside the window where the median first fell.
-- The rate before is the median of the intervals before the cliff, the rate
-- after that of the intervals after it; the bytes written before the cliff
-- are those of the intervals before it plus the share of the cliff's own
-- interval written at the rate before (taking the rest at the rate after).
-- A cliff inside the first --window intervals is not seen: use a shorter
-- --interval. `platter plot RESULT.json --kind series` draws the run.
local p = require "platter"

local NAME = "slc-cliff"

local P = p.script({
  name = NAME, version = "1.0", api = "platter/1",
  description = "sustained sequential writes until the rate drops and stays down: the bytes "
    .. "before the cliff, the rate before and after",
  params = {
    target = { type = "path", positional = true,
      help = "a file or block device to write from its start; default: a scratch file" },
    size = { type = "size", default = "64g", min = "1m", help = "write at most this much" },
    seconds = { type = "time", default = "600s", min = "10ms", help = "write at most this long" },
    bs = { type = "size", default = "1m", min = "4k", max = "64m", help = "bytes per write" },
    interval = { type = "time", default = "1s", min = "1ms", help = "length of an interval" },
    window = { type = "int", default = 5, min = 1, max = 1000,
      help = "intervals of the moving median (and of the initial rate)" },
    drop = { type = "number", default = 50, min = 1, max = 99,
      help = "the cliff: the moving median below this percentage of the initial rate" },
    hold = { type = "int", default = 5, min = 1, max = 1000,
      help = "... for this many intervals in a row" },
  },
  needs = { write = true, device = "any" },
  epilog = "Writes go to TARGET from its start and overwrite it (a block device needs --destroy);\n"
    .. "without TARGET a scratch file grows in the current directory, removed at the end.\n"
    .. "Draw the run: platter --json r.json slc-cliff ...; platter plot r.json --kind series -o r.svg",
}, ...)

local path = P.target
if not path then path = p.scratch(string.format("platter-slc-cliff.%d.dat", p.pid())) end
local f, err = p.open(path, { write = true, direct = true, create = not P.target })
if not f then
  p.ewrite(string.format("platter: slc-cliff: %s%s\n", err, err:find("O_DIRECT", 1, true) and ""
    or " (the probe needs O_DIRECT writes)"))
  p.exit(1)
end
local info = f:info()
if P.bs % (info.dio_align or 512) ~= 0 then
  p.usage_error(NAME, string.format("--bs %d is not a multiple of %s's O_DIRECT alignment (%d)",
    P.bs, path, info.dio_align or 512))
end
local limit = P.size - P.size % P.bs
if info.kind == "block" then limit = math.min(limit, f:size() - f:size() % P.bs) end

local function median(list, i, j)
  local t = {}
  for k = i, j do t[#t + 1] = list[k] end
  table.sort(t)
  local n = #t
  if n == 0 then return nil end
  if n % 2 == 1 then return t[(n + 1) / 2] end
  return (t[n / 2] + t[n / 2 + 1]) / 2
end

-- The rule over the rates bw[1..n] of whole intervals: { r0, floor, moving = {...} } and,
-- once it held for P.hold intervals, cliff (the interval) and confirmed (where it held);
-- low: how many intervals at the end the moving median was already below the floor.
local function detect(bw)
  local n, w = #bw, P.window
  if n < w then return nil end
  local d = { r0 = median(bw, 1, w), moving = {}, low = 0 }
  d.floor = d.r0 * P.drop / 100
  for k = w, n do
    local m = median(bw, k - w + 1, k)
    d.moving[k] = m
    d.low = m < d.floor and d.low + 1 or 0
    if d.low == P.hold then
      local k0 = k - P.hold + 1
      for j = k0 - w + 1, k0 do
        if bw[j] < d.floor then d.cliff = j break end
      end
      d.confirmed = k
      return d
    end
  end
  return d
end

local function rates(series, upto)
  local bw = {}
  for k = 1, upto do bw[k] = series[k].bw end
  return bw
end

local done, next_check = false, nil
local s = p.phase("sequential write", function(ph)
  p.run {
    file = f, name = "sequential write", op = "write", bs = P.bs, seconds = P.seconds,
    interval = false,
    gen = function(i)
      local off = (i - 1) * P.bs
      if done or off + P.bs > limit then return nil end
      local now = p.now()
      next_check = next_check or now + P.interval * 1e9
      if now >= next_check then  -- an interval closed: does the rule hold yet?
        next_check = now + P.interval * 1e9
        local series = ph.series or {}
        local d = detect(rates(series, #series))
        if d and d.confirmed then done = true return nil end
      end
      return "write", off, P.bs
    end,
  }
end, { interval = P.interval })

-- the whole intervals (the last one, cut by the end, only if it is most of one)
local series = s.series or {}
local n = #series
if n > 0 then
  local last = series[n].t - (n > 1 and series[n - 1].t or 0)
  if last < P.interval / 2 then n = n - 1 end
end
local bw = rates(series, n)
local d = detect(bw)

local function mbs(x) return x and string.format("%.1f", x / 1e6) or "-" end
local function gib(b) return string.format("%.2f GiB", b / 1073741824) end
local where = info.kind == "block" and "block device" or (info.fs_type or info.kind)
if info.device then where = where .. " on " .. info.device end
p.printf("slc-cliff: sequential %s direct writes to %s (%s), intervals of %gs,\n"
  .. "at most %s or %gs\n\n", p.size_string(P.bs), path, where, P.interval,
  p.size_string(P.size), P.seconds)

local cliff = d and d.cliff
local step = n > 40 and math.ceil(n / 40) or 1
p.printf("%8s %10s %12s %10s %12s\n", "interval", "end s", "written GiB", "MB/s", "median MB/s")
local written = 0
for k = 1, n do
  written = written + series[k].bytes
  local near = cliff and math.abs(k - cliff) <= 1
  if step == 1 or k == 1 or k == n or k % step == 0 or near then
    p.printf("%8d %10.2f %12.2f %10s %12s%s\n", k, series[k].t, written / 1073741824,
      mbs(bw[k]), mbs(d and d.moving[k]), k == cliff and "  <- cliff" or "")
  end
end
if step > 1 then p.printf("(every %dth interval shown, and those around the cliff)\n", step) end
p.write("\n")

local total, secs = s.bytes, s.seconds
local facts = { probe = NAME, written = total, seconds = secs,
  rule = { window = P.window, drop_pct = P.drop, hold = P.hold, interval_s = P.interval } }
local answer, text
if not d then
  answer = "too-short"
  text = string.format("cannot tell: the run gave %d whole intervals, fewer than --window %d "
    .. "(a larger --size or a shorter --interval)", n, P.window)
else
  facts.initial_rate = d.r0
  p.printf("initial rate: %s MB/s (the median of the first %d intervals)\n", mbs(d.r0), P.window)
  if d.cliff then
    local c = d.cliff
    local before = c > 1 and median(bw, 1, c - 1) or d.r0
    local after = median(bw, c + 1, n) or bw[c]
    local prior = 0
    for k = 1, c - 1 do prior = prior + series[k].bytes end
    local len = series[c].t - (c > 1 and series[c - 1].t or 0)
    local x = series[c].bytes
    if before > after then x = (series[c].bytes - after * len) / (1 - after / before) end
    x = math.max(0, math.min(series[c].bytes, x))
    local at = (c > 1 and series[c - 1].t or 0) + x / before
    answer = "cliff"
    facts.bytes_before, facts.seconds_before = prior + x, at
    facts.rate_before, facts.rate_after, facts.cliff_interval = before, after, c
    p.printf("cliff: in interval %d, after %s (%.0f bytes) written in %.2f s\n", c,
      gib(prior + x), prior + x, at)
    p.printf("rate before: %s MB/s, after: %s MB/s (%.0f%% of before)\n", mbs(before), mbs(after),
      100 * after / before)
    text = string.format("a fast write region of about %s: writes fall from %s MB/s to %s MB/s "
      .. "once it is full", gib(prior + x), mbs(before), mbs(after))
  elseif d.low > 0 then
    answer = "unconfirmed"
    text = string.format("the rate fell below %s MB/s in the last %d intervals, but the run "
      .. "ended (%s in %.1f s) before it held for %d: a larger --size or --seconds would tell",
      mbs(d.floor), d.low, gib(total), secs, P.hold)
  else
    answer = "none"
    text = string.format("no cliff: writes kept above %g%% of %s MB/s for %s (%.1f s)", P.drop,
      mbs(d.r0), gib(total), secs)
  end
end
p.printf("rule: the cliff is where the moving median of %d intervals falls below %g%% of the\n"
  .. "initial rate and stays below for %d intervals in a row\n", P.window, P.drop, P.hold)
p.printf("verdict: %s\n", text)
facts.answer = answer
p.verdict(text, facts)
f:close()
if not P.target then p.remove(path) end
