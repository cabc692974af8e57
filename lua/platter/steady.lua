-- platter.steady: the SNIA PTS steady-state rule, p.steady(series [, opts])
-- (docs/api.md, "Steady state by the PTS rule: p.steady"). A pure function of
-- per-round numbers: no I/O, no clock. Not fio's criteria (src/core/steady.c,
-- p.run's `steady`), which judge one-second samples by other rules.
--
-- The PTS (SNIA Solid State Storage Performance Test Specification, "Steady
-- State" and "Measurement Window" in its definitions): over a window of the
-- last 5 rounds, for every tracked variable y,
--   (a) data excursion:  max(y) - min(y)            <= 20% of avg(y)
--   (b) slope excursion: max - min of the least-squares line through
--       (round, y), which is |slope| * (5 - 1)      <= 10% of avg(y).
-- The first round R >= 5 where both hold for every variable in rounds R-4..R
-- is the round steady state is reached; the test stops there, or at round 25.
local M = {}

local abs, floor, huge = math.abs, math.floor, math.huge

M.WINDOW, M.DATA_PCT, M.SLOPE_PCT, M.MAX_ROUNDS = 5, 20, 10, 25

-- a bad argument: raised again by M.steady at its caller's line
local function fail(msg) error({ steady_error = "steady: " .. msg }, 0) end

-- a list of finite numbers, or raise naming it
local function check_list(xs, what)
  if type(xs) ~= "table" then fail(what .. ": a list of numbers expected, got " .. type(xs)) end
  local n = #xs
  for k in pairs(xs) do
    if type(k) ~= "number" or k < 1 or k > n or k ~= floor(k) then
      fail(string.format("%s: a list of numbers expected (key %s)", what, tostring(k)))
    end
  end
  for i = 1, n do
    local v = xs[i]
    if type(v) ~= "number" or v ~= v or v == huge or v == -huge then
      fail(string.format("%s[%d]: a finite number expected, got %s", what, i, tostring(v)))
    end
  end
  return n
end

local function opt(opts, key, default, lo, int)
  local v = opts[key]
  if v == nil then return default end
  -- an integer below 2^53 (2^70 and inf pass v == floor(v), and "%d" refuses them)
  if type(v) ~= "number" or v ~= v or v < lo or (int and (v ~= floor(v) or v >= 2 ^ 53)) then
    fail(string.format("opts.%s: %s at least %s expected, got %s", key,
      int and "an integer" or "a number", tostring(lo), type(v) == "number" and tostring(v) or type(v)))
  end
  return v
end

-- The figures of one variable over rounds first..last of xs.
local function judge(xs, first, last, data_pct, slope_pct)
  local n = last - first + 1
  local sum, mn, mx = 0, huge, -huge
  for r = first, last do
    local y = xs[r]
    sum = sum + y
    if y < mn then mn = y end
    if y > mx then mx = y end
  end
  local avg = sum / n
  -- least squares against the round number: slope = sum (x - mx)(y - my) / sum (x - mx)^2
  local xm = (first + last) / 2
  local sxy, sxx = 0, 0
  for r = first, last do
    sxy = sxy + (r - xm) * (xs[r] - avg)
    sxx = sxx + (r - xm) * (r - xm)
  end
  local slope = sxx > 0 and sxy / sxx or 0
  local v = {
    average = avg, min = mn, max = mx, excursion = mx - mn,
    slope = slope, intercept = avg - slope * xm, slope_excursion = abs(slope) * (n - 1),
  }
  -- in percent of the average (nil for an average of 0); the tests compare
  -- excursion * 100 with pct * |avg|, exact for round figures
  local base = abs(avg)
  v.excursion_pct = base > 0 and v.excursion / base * 100 or nil
  v.slope_excursion_pct = base > 0 and v.slope_excursion / base * 100 or nil
  v.data_ok = v.excursion * 100 <= data_pct * base
  v.slope_ok = v.slope_excursion * 100 <= slope_pct * base
  v.steady = v.data_ok and v.slope_ok
  return v
end

local function steady(series, opts)
  if opts == nil then opts = {} end
  if type(opts) ~= "table" then fail("opts: a table expected, got " .. type(opts)) end
  for k in pairs(opts) do
    if k ~= "window" and k ~= "data_pct" and k ~= "slope_pct" and k ~= "max_rounds" then
      fail("opts: unknown option '" .. tostring(k) .. "'")
    end
  end
  local window = opt(opts, "window", M.WINDOW, 2, true)
  local data_pct = opt(opts, "data_pct", M.DATA_PCT, 0)
  local slope_pct = opt(opts, "slope_pct", M.SLOPE_PCT, 0)
  local max_rounds = opt(opts, "max_rounds", M.MAX_ROUNDS, window, true)

  -- the variables: one unnamed list, or a table of named lists of one length
  local names, lists, single = {}, {}, false
  if type(series) ~= "table" then fail("series: a list of numbers or a table of lists expected") end
  if series[1] ~= nil or next(series) == nil then
    single = true
    names[1] = 1
    lists[1] = series
    check_list(series, "series")
  else
    for k in pairs(series) do
      if type(k) ~= "string" then
        fail("series: a list of numbers or a table of named lists expected (key " .. tostring(k) .. ")")
      end
      names[#names + 1] = k
    end
    table.sort(names)
    for i, k in ipairs(names) do lists[i] = series[k] end
  end
  local rounds
  for i, k in ipairs(names) do
    local n = check_list(lists[i], single and "series" or "series." .. k)
    if rounds and n ~= rounds then
      fail(string.format("series.%s: %d rounds, but series.%s has %d", k, n, names[1], rounds))
    end
    rounds = n
  end
  local seen = rounds < max_rounds and rounds or max_rounds -- rounds past the stop are not judged

  local res = { steady = false, rounds = seen, window_size = window, data_pct = data_pct,
    slope_pct = slope_pct, max_rounds = max_rounds }
  local function figures(last)
    local vars, all = {}, true
    for i, k in ipairs(names) do
      local v = judge(lists[i], last - window + 1, last, data_pct, slope_pct)
      vars[k] = v
      all = all and v.steady
    end
    return vars, all
  end

  local vars
  for last = window, seen do
    local all
    vars, all = figures(last)
    if all then
      res.steady, res.round = true, last
      break
    end
  end
  if vars then
    res.window = { first = res.round and res.round - window + 1 or seen - window + 1,
      last = res.round or seen }
  elseif seen > 0 then
    res.window = { first = 1, last = seen } -- too few rounds: what there is, judged by nothing
  end
  res.done = res.steady or seen >= max_rounds -- the PTS loop stops here
  if not vars then
    res.reason = string.format("%d round%s of the %d the window needs", seen, seen == 1 and "" or "s",
      window)
    return res
  end
  if not single and not res.steady then
    res.failed = {} -- the variables that are not steady in the window, by name
    for _, k in ipairs(names) do
      if not vars[k].steady then res.failed[#res.failed + 1] = k end
    end
  end
  if single then
    for k, v in pairs(vars[1]) do res[k] = v end
  else
    res.vars = vars
    res.names = names
  end
  return res
end

--- p.steady(series [, opts]) -> result; see docs/api.md
function M.steady(series, opts)
  local ok, res = pcall(steady, series, opts)
  if ok then return res end
  if type(res) == "table" and res.steady_error then error(res.steady_error, 2) end
  error(res, 0)
end

return M
