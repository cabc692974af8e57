-- platter.statmath: the statistics behind --repeat, --ci and compare (mean,
-- standard deviation, Student t confidence intervals, Welch's t-test) and the
-- latency histogram bins of result files (merge, percentiles), in plain Lua.
local M = {}

local floor, sqrt, abs, log, exp = math.floor, math.sqrt, math.abs, math.log, math.exp
local huge = math.huge

--- mean(xs) -> arithmetic mean (nil for an empty list)
function M.mean(xs)
  local n = #xs
  if n == 0 then return nil end
  local s = 0
  for i = 1, n do s = s + xs[i] end
  return s / n
end

--- sd(xs) -> sample standard deviation (n - 1 in the denominator; nil below 2 values)
function M.sd(xs)
  local n = #xs
  if n < 2 then return nil end
  local m = M.mean(xs)
  local s = 0
  for i = 1, n do s = s + (xs[i] - m) ^ 2 end
  return sqrt(s / (n - 1))
end

-- log Gamma for x > 0: shift x up past 15 with Gamma(x + 1) = x Gamma(x), then
-- Stirling's series (its error there is below 1e-16)
local function lgamma(x)
  local shift = 0
  while x < 15 do
    shift = shift + log(x)
    x = x + 1
  end
  local z = 1 / (x * x)
  local series = (1 / 12 + z * (-1 / 360 + z * (1 / 1260 + z * (-1 / 1680 + z * (1 / 1188
    + z * (-691 / 360360 + z / 156)))))) / x
  return (x - 0.5) * log(x) - x + 0.5 * log(2 * math.pi) + series - shift
end
M.lgamma = lgamma

-- continued fraction of the incomplete beta function (modified Lentz)
local function betacf(a, b, x)
  local tiny = 1e-300
  local qab, qap, qam = a + b, a + 1, a - 1
  local c, d = 1, 1 - qab * x / qap
  if abs(d) < tiny then d = tiny end
  d = 1 / d
  local h = d
  for m = 1, 300 do
    local m2 = 2 * m
    local aa = m * (b - m) * x / ((qam + m2) * (a + m2))
    d = 1 + aa * d
    if abs(d) < tiny then d = tiny end
    c = 1 + aa / c
    if abs(c) < tiny then c = tiny end
    d = 1 / d
    h = h * d * c
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
    d = 1 + aa * d
    if abs(d) < tiny then d = tiny end
    c = 1 + aa / c
    if abs(c) < tiny then c = tiny end
    d = 1 / d
    local del = d * c
    h = h * del
    if abs(del - 1) < 1e-15 then break end
  end
  return h
end

--- betai(a, b, x) -> the regularized incomplete beta function I_x(a, b)
function M.betai(a, b, x)
  if x <= 0 then return 0 end
  if x >= 1 then return 1 end
  local bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x))
  if x < (a + 1) / (a + b + 2) then
    return bt * betacf(a, b, x) / a
  end
  return 1 - bt * betacf(b, a, 1 - x) / b
end

--- t_cdf(t, df) -> P(T <= t) for Student's t with df degrees of freedom (df may be fractional)
function M.t_cdf(t, df)
  if t ~= t then return t end
  if t == huge then return 1 end
  if t == -huge then return 0 end
  local tail = 0.5 * M.betai(df / 2, 0.5, df / (df + t * t))
  return t > 0 and 1 - tail or tail
end

--- t_quantile(p, df) -> t with P(T <= t) = p (0 < p < 1), by bisection on t_cdf
function M.t_quantile(p, df)
  assert(p > 0 and p < 1, "t_quantile: p must be within (0, 1)")
  if p == 0.5 then return 0 end
  if p < 0.5 then return -M.t_quantile(1 - p, df) end
  local lo, hi = 0, 1
  while M.t_cdf(hi, df) < p do
    lo, hi = hi, hi * 2
    if hi > 1e12 then return huge end
  end
  for _ = 1, 200 do
    local mid = (lo + hi) / 2
    if M.t_cdf(mid, df) < p then lo = mid else hi = mid end
    if hi - lo <= 1e-12 * hi then break end
  end
  return (lo + hi) / 2
end

-- The two-sided 95% quantiles t(0.975, df), df = 1..30, as printed in every table:
-- t_quantile is checked against them by the tests.
M.T975 = {
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
  2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
  2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
}

--- summary(xs [, level]) -> { n, mean, sd, min, max, ci, ci_pct, lo, hi }
-- ci is the half-width of the `level` (default 0.95) confidence interval of
-- the mean, from Student's t with n - 1 degrees of freedom (nil for n < 2);
-- ci_pct is ci as a percentage of the mean (nil when the mean is 0).
function M.summary(xs, level)
  level = level or 0.95
  local n = #xs
  local r = { n = n, values = xs }
  if n == 0 then return r end
  local mn, mx = huge, -huge
  for i = 1, n do
    if xs[i] < mn then mn = xs[i] end
    if xs[i] > mx then mx = xs[i] end
  end
  r.mean, r.min, r.max = M.mean(xs), mn, mx
  if n >= 2 then
    r.sd = M.sd(xs)
    r.ci = M.t_quantile(1 - (1 - level) / 2, n - 1) * r.sd / sqrt(n)
    r.lo, r.hi = r.mean - r.ci, r.mean + r.ci
    if r.mean ~= 0 then r.ci_pct = 100 * r.ci / abs(r.mean) end
  end
  return r
end

--- welch(a, b) -> { t, df, p } of Welch's unequal-variance t-test (two-sided), or nil
-- when either side has fewer than 2 values. Identical constant samples give p = 1
-- when the means are equal and p = 0 when they differ.
function M.welch(a, b)
  local na, nb = #a, #b
  if na < 2 or nb < 2 then return nil end
  local ma, mb = M.mean(a), M.mean(b)
  local va, vb = M.sd(a) ^ 2 / na, M.sd(b) ^ 2 / nb
  local se2 = va + vb
  if se2 == 0 then
    return { t = ma == mb and 0 or huge, df = na + nb - 2, p = ma == mb and 1 or 0 }
  end
  local t = (ma - mb) / sqrt(se2)
  local df = se2 ^ 2 / (va ^ 2 / (na - 1) + vb ^ 2 / (nb - 1))
  local p = M.betai(df / 2, 0.5, df / (df + t * t))
  return { t = t, df = df, p = p }
end

-- {====================================================================
-- Histogram bins as result files carry them: { {lo, hi, count}, ... },
-- the non-empty bins of the log-linear histogram, lo/hi in ns.
-- =====================================================================

--- hist_merge(a, b, ...) -> bins: every bin's counts added, sorted by lo.
-- Bins are matched by their lower bound, so merging the bins of two result
-- files gives exactly what s:merge gives in memory.
function M.hist_merge(...)
  return M.hist_merge_list({ ... }, select("#", ...))
end

--- hist_merge_list(list [, n]) -> bins: hist_merge of the bins lists in list[1..n]
function M.hist_merge_list(list, n)
  local by_lo, out = {}, {}
  for k = 1, n or #list do
    local bins = list[k]
    for _, b in ipairs(bins or {}) do
      local lo = b[1]
      local e = by_lo[lo]
      if e then
        e[3] = e[3] + b[3]
      else
        e = { lo, b[2], b[3] }
        by_lo[lo] = e
        out[#out + 1] = e
      end
    end
  end
  table.sort(out, function(x, y) return x[1] < y[1] end)
  return out
end

--- hist_count(bins) -> total samples
function M.hist_count(bins)
  local n = 0
  for _, b in ipairs(bins or {}) do n = n + b[3] end
  return n
end

-- The value the C histogram reports for a bin: its midpoint, lo + width/2.
local function bin_value(b)
  return b[1] + floor((b[2] - b[1] + 1) / 2)
end
M.bin_value = bin_value

--- hist_percentile(bins, p [, min, max]) -> latency in ns at percentile p
-- (0..100), by the nearest-rank rule of the C histogram, so the same bins give
-- the same answer as s:percentile; 0 when empty. Like s:percentile, the bin's
-- midpoint is kept within the smallest and largest latency seen, when given.
function M.hist_percentile(bins, p, min, max)
  local count = M.hist_count(bins)
  if count == 0 then return 0 end
  if not (p > 0) then p = 0 end
  if p > 100 then p = 100 end
  local rank = math.ceil(p * count / 100 - 1e-9)
  if rank < 1 then rank = 1 end
  if rank > count then rank = count end
  local seen, v = 0, nil
  for _, b in ipairs(bins) do
    seen = seen + b[3]
    if seen >= rank then
      v = bin_value(b)
      break
    end
  end
  v = v or bin_value(bins[#bins])
  if min and max and min <= max then
    if v < min then v = min end
    if v > max then v = max end
  end
  return v
end

--- hist_mean(bins) -> mean latency estimated from the bin midpoints
function M.hist_mean(bins)
  local n, s = 0, 0
  for _, b in ipairs(bins or {}) do
    n = n + b[3]
    s = s + b[3] * bin_value(b)
  end
  return n > 0 and s / n or 0
end

-- }====================================================================

return M
