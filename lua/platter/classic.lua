-- platter.classic: byte-exact number printers and argument parsers of the
-- classic tools (GNU dd, hdparm, ioping), shared by workloads/dd.lua,
-- hdparm.lua and ioping.lua. Pure functions of their arguments: no I/O, no
-- clock, so the same numbers always print the same text (tests/lua/
-- test_classic_format.lua checks them against the spec's worked examples).
--
-- Numbers are Lua numbers: doubles on LuaJIT, integers or floats on Lua 5.4.
-- Integer arithmetic below is written so it is exact on both as long as the
-- values stay under 2^53 (byte counts up to 8 PiB, times up to 104 days in ns).
local M = {}

local floor, fmt = math.floor, string.format

-- q, r of a / b for non-negative integers a and b > 0, exact below 2^53 on
-- LuaJIT too (a / b can round up to the next integer there).
local function idiv(a, b)
  local q = floor(a / b)
  local r = a - q * b
  if r < 0 then
    q, r = q - 1, r + b
  elseif r >= b then
    q, r = q + 1, r - b
  end
  return q, r
end
M.idiv = idiv

local TWO53 = 9007199254740992

-- ---------------------------------------------------------------------------
-- gnulib human_readable (lib/human.c), with the options GNU dd uses:
-- human_autoscale | human_round_to_nearest | human_space_before_unit |
-- human_SI | human_B, plus human_base_1024 for the IEC figure.
-- ---------------------------------------------------------------------------

local POWER_LETTER = { [0] = "", "K", "M", "G", "T", "P", "E", "Z", "Y" }
local EXPONENT_MAX = 8

local function suffix(exponent, base1024)
  local s = " "
  if exponent > 0 then
    s = s .. ((not base1024 and exponent == 1) and "k" or POWER_LETTER[exponent])
    if base1024 then s = s .. "i" end
  end
  return s .. "B"
end

-- human.c's exact path works in uintmax_t, up to 2^64. A double is exact
-- only to 2^53, so the amount is kept as little-endian base-10^4 limbs.
local LIMB = 10000

local function big(n)
  local a = {}
  repeat
    local q, r = idiv(n, LIMB)
    a[#a + 1] = r
    n = q
  until n == 0
  return a
end

local function big_mul(a, m)
  local carry = 0
  for i = 1, #a do
    local v = a[i] * m + carry
    carry = floor(v / LIMB)
    a[i] = v - carry * LIMB
  end
  while carry > 0 do
    local q, r = idiv(carry, LIMB)
    a[#a + 1] = r
    carry = q
  end
  return a
end

local function big_trim(a)
  while #a > 1 and a[#a] == 0 do a[#a] = nil end
  return a
end

local function big_divmod(a, d)
  local r = 0
  for i = #a, 1, -1 do
    local cur = r * LIMB + a[i]
    local q = floor(cur / d)
    r = cur - q * d
    a[i] = q
  end
  return big_trim(a), r
end

local function big_small(a) -- the value when it fits one limb, else nil
  big_trim(a)
  if #a == 1 then return a[1] end
end

local function big_inc(a)
  local i = 1
  while true do
    a[i] = (a[i] or 0) + 1
    if a[i] < LIMB then return a end
    a[i] = 0
    i = i + 1
  end
end

local function big_string(a)
  big_trim(a)
  local parts = { fmt("%d", a[#a]) }
  for i = #a - 1, 1, -1 do parts[#parts + 1] = fmt("%04d", a[i]) end
  return table.concat(parts)
end

-- The exact path: amt.tenths plus a rounding state, as human.c keeps them.
local function human_integer(amt, tenths, rounding, base)
  local exponent, frac = 0, ""
  local function ge_base()
    local v = big_small(amt)
    return v == nil or base <= v
  end
  if ge_base() then
    repeat
      local r
      amt, r = big_divmod(amt, base)
      local r10 = r * 10 + tenths
      local tq, tr = idiv(r10, base)
      local r2 = tr * 2 + floor(rounding / 2)
      tenths = tq
      if r2 < base then
        rounding = (r2 + rounding ~= 0) and 1 or 0
      else
        rounding = 2 + ((base < r2 + rounding) and 1 or 0)
      end
      exponent = exponent + 1
    until not (ge_base() and exponent < EXPONENT_MAX)
    local v = big_small(amt)
    if v and v < 10 then
      if 2 < rounding + (tenths % 2) then
        tenths = tenths + 1
        rounding = 0
        if tenths == 10 then
          amt = big_inc(amt)
          tenths = 0
        end
      end
      v = big_small(amt)
      if v < 10 then
        frac = "." .. tenths
        tenths, rounding = 0, 0
      end
    end
  end
  if 5 < tenths + ((0 < rounding + (amt[1] % 2)) and 1 or 0) then
    amt = big_inc(amt)
    if big_small(amt) == base and exponent < EXPONENT_MAX then
      exponent = exponent + 1
      frac = ".0"
      amt = { 1 }
    end
  end
  return big_string(amt) .. frac, exponent
end

-- The floating-point fallback. human.c does this in long double; a double
-- can differ only when the value lies within about 1e-16 of a rounding tie.
local function human_float(n, from, to, base, base1024)
  local damt = n * (from / to)
  local e, exponent = 1, 0
  repeat
    e = e * base
    exponent = exponent + 1
  until not (e * base <= damt and exponent < EXPONENT_MAX)
  damt = damt / e
  local s = fmt("%.1f", damt)
  if 1 + 2 + (base1024 and 0 or 1) < #s then
    s = fmt("%.0f", damt * 10 / 10)
  end
  return s, exponent
end

--- human(n, from, to, base1024) -> text such as "67 MB", "64 MiB", "1.1 GB":
--- n * from / to bytes, autoscaled, rounded to nearest, as gnulib does.
function M.human(n, from, to, base1024)
  from, to = from or 1, to or 1
  local base = base1024 and 1024 or 1000
  local digits, exponent
  if to <= from then
    if from % to == 0 then
      local mult = from / to
      if n * mult < 2 ^ 64 then -- else uintmax_t overflows and human.c falls back
        digits, exponent = human_integer(big_mul(big(n), mult), 0, 0, base)
      end
    end
  elseif from ~= 0 and to % from == 0 then
    local divisor = to / from
    local amt, r = idiv(n, divisor)
    local r10 = r * 10
    local tenths, r10r = idiv(r10, divisor)
    local r2 = r10r * 2
    local rounding
    if r2 < divisor then
      rounding = (0 < r2) and 1 or 0
    else
      rounding = 2 + ((divisor < r2) and 1 or 0)
    end
    digits, exponent = human_integer(big(amt), tenths, rounding, base)
  end
  if not digits then digits, exponent = human_float(n, from, to, base, base1024) end
  return digits .. suffix(exponent, base1024)
end

-- ---------------------------------------------------------------------------
-- GNU dd
-- ---------------------------------------------------------------------------

--- dd_records(r_full, r_partial, w_full, w_partial) -> the two "records" lines
function M.dd_records(rf, rp, wf, wp)
  return fmt("%d+%d records in\n%d+%d records out\n", rf, rp, wf, wp)
end

local function lacks_prefix(s)
  return s:sub(-2) == " B"
end

--- dd_rate(bytes, ns) -> "1.1 GB/s" (or "Infinity B/s" when ns <= 0)
function M.dd_rate(bytes, ns)
  if ns <= 0 then return "Infinity B/s" end
  return M.human(bytes, 1e9, ns, false) .. "/s"
end

-- the coreutils releases whose dd prints the transfer line alike (src/dd.c of
-- each tag): which format, and how status=progress prints the time
local DD_ERAS = {
  ["5.3"] = { words = "seconds" },                 -- 5.3.0 to 6.0
  ["6.1"] = { words = "si" },                      -- 6.1 to 8.23
  ["8.20"] = { words = "si" },                     -- (the name older platter used)
  ["8.24"] = { words = "si", progress = "%.6f s" },
  ["8.25"] = { words = "si,iec", progress = "%g s" },  -- 8.25 to 8.27
  ["9.1"] = { words = "si,iec", progress = "%.0f s" }, -- 8.28 on
}
M.DD_ERAS = DD_ERAS

-- a C-locale number's "." as the locale's decimal point dp (GNU dd formats with
-- the LC_NUMERIC locale: %g and gnulib's human_readable both use it)
local function localize(s, dp)
  if not dp or dp == "." then return s end
  return (s:gsub("(%d)%.(%d)", "%1" .. dp:gsub("%%", "%%%%") .. "%2"))
end

--- dd_xfer(bytes, ns [, style [, progress [, dp]]]) -> dd's transfer line
--- without the final newline, as the coreutils release `style` prints it
--- (DD_ERAS; default "9.1": "N bytes (SI, IEC) copied, T s, R/s"; "6.1" to
--- "8.24": "N bytes (SI) copied, T s, R/s"; "5.3": "..., T seconds, R/s").
--- progress = true gives the status=progress form; dp is the decimal point.
function M.dd_xfer(bytes, ns, style, progress, dp)
  local era = DD_ERAS[style or "9.1"] or DD_ERAS["9.1"]
  local delta_s = ns > 0 and ns / 1e9 or 0
  local t = fmt(progress and era.progress or "%g s", delta_s)
  local si = M.human(bytes, 1, 1, false)
  if era.words == "seconds" or era.words == "si" then
    local rate = ns > 0 and M.human(bytes, 1e9, ns, false) or "Infinity B"
    if era.words == "seconds" then  -- ngettext (", %g second, ...", ", %g seconds, ...")
      t = fmt("%g second%s", delta_s, delta_s == 1 and "" or "s")
    end
    return localize(fmt("%d byte%s (%s) copied, %s, %s/s", bytes, bytes == 1 and "" or "s",
      si, t, rate), dp)
  end
  local rate = M.dd_rate(bytes, ns)
  if lacks_prefix(si) then
    return localize(fmt("%d byte%s copied, %s, %s", bytes, bytes == 1 and "" or "s", t, rate), dp)
  end
  local iec = M.human(bytes, 1, 1, true)
  if lacks_prefix(iec) then
    return localize(fmt("%d bytes (%s) copied, %s, %s", bytes, si, t, rate), dp)
  end
  return localize(fmt("%d bytes (%s, %s) copied, %s, %s", bytes, si, iec, t, rate), dp)
end

-- gnulib xstrtoumax with dd's valid suffixes "bcEGkKMPTwYZ0".
local DD_POWERS = { E = 6, G = 3, k = 1, K = 1, M = 2, P = 5, T = 4, Y = 8, Z = 7 }
local DD_SCALE = { b = 512, c = 1, w = 2 }

local function xstrtoumax(s)
  s = s:gsub("^%s+", "")
  if s:sub(1, 1) == "-" then return nil, "", "invalid" end
  local digits, rest = s:match("^(%d*)(.*)$")
  local n
  if digits == "" then
    local c = rest:sub(1, 1)
    if c ~= "" and (DD_POWERS[c] or DD_SCALE[c]) then
      n = 1
    else
      return nil, rest, "invalid"
    end
  else
    n = tonumber(digits)
  end
  if rest == "" then return n, "", nil end
  local c = rest:sub(1, 1)
  local used = 1
  if DD_POWERS[c] then
    local base = 1024
    local c2 = rest:sub(2, 2)
    if c2 == "i" then
      if rest:sub(3, 3) == "B" then used = 3 end
    elseif c2 == "B" or c2 == "D" then
      base = 1000
      used = 2
    end
    n = n * base ^ DD_POWERS[c]
  elseif DD_SCALE[c] then
    n = n * DD_SCALE[c]
  else
    return n, rest, "suffix"
  end
  rest = rest:sub(used + 1)
  if rest ~= "" then return n, rest, "suffix" end
  return n, "", nil
end

--- dd_number(s) -> bytes | nil: a number as dd's operands take it: digits
--- with an optional suffix c (1), w (2), b (512), kB (1000), K/KiB (1024),
--- MB, M/MiB, GB, G/GiB, ... through Y, and products such as "2x512".
function M.dd_number(s)
  local n, rest, err = xstrtoumax(s)
  if err == "suffix" and rest:sub(1, 1) == "x" then
    local m = M.dd_number(rest:sub(2))
    if not m then return nil end
    n = n * m
  elseif err then
    return nil
  end
  if n >= TWO53 then return nil end
  return math.tointeger and math.tointeger(n) or n
end

-- ---------------------------------------------------------------------------
-- hdparm
-- ---------------------------------------------------------------------------

--- hdparm_value(mb, seconds, kind) -> the numbers after the label, with the
--- newline: "%3u MB in %5.2f seconds = %6.2f MB/sec". kind "disk" (-t)
--- switches to kB/sec at or below 1 MB/s; kind "cached" (-T) switches when
--- MB < seconds, as hdparm 9.x tests them.
function M.hdparm_value(mb, secs, kind)
  local mbps
  if kind == "cached" then
    mbps = mb >= secs
  else
    mbps = mb / secs > 1.0
  end
  if mbps then
    return fmt("%3d MB in %5.2f seconds = %6.2f MB/sec\n", mb, secs, mb / secs)
  end
  return fmt("%3d MB in %5.2f seconds = %6.2f kB/sec\n", mb, secs, mb / secs * 1024)
end

--- hdparm_value_1996(mb, seconds) -> "%2d MB in %5.2f seconds =%5.2f MB/sec\n"
--- (hdparm 1996-1999, as seed 002 shows it)
function M.hdparm_value_1996(mb, secs)
  return fmt("%2d MB in %5.2f seconds =%5.2f MB/sec\n", mb, secs, mb / secs)
end

--- hdparm_label(kind, style, direct, offset_gib) -> the label before the value.
--- style "9" (9.29 and later), "6" (6.9 to 9.28), or "1996"/"1999" (up to
--- the 3.x releases: "buffer-cache").
function M.hdparm_label(kind, style, direct, offset_gib)
  if style == "1996" or style == "1999" then
    if kind == "cached" then return " Timing buffer-cache reads:   " end
    return " Timing buffered disk reads:  "
  end
  if kind == "cached" then
    return fmt(" Timing %scached reads:   ", direct and "O_DIRECT " or "")
  end
  local s = fmt(" Timing %s disk reads", direct and "O_DIRECT" or "buffered")
  if offset_gib then s = s .. fmt(" (offset %d GB)", offset_gib) end
  return s .. (style == "6" and ":  " or ": ")
end

-- ---------------------------------------------------------------------------
-- ioping 1.3
-- ---------------------------------------------------------------------------

local SIZE_SFX = {
  { "PiB", 2 ^ 50 }, { "TiB", 2 ^ 40 }, { "GiB", 2 ^ 30 }, { "MiB", 2 ^ 20 },
  { "KiB", 1024 }, { "B", 1 }, { "", 1 },
  { "k", 1024 }, { "kb", 1024 }, { "m", 2 ^ 20 }, { "mb", 2 ^ 20 }, { "g", 2 ^ 30 },
  { "gb", 2 ^ 30 }, { "t", 2 ^ 40 }, { "tb", 2 ^ 40 }, { "pb", 2 ^ 50 }, { "eb", 2 ^ 60 },
  { "sector", 512 }, { "page", 4096 },
}
local TIME_SFX = {
  { "hour", 3600e9 }, { "min", 60e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 },
  { "ns", 1 }, { "nsec", 1 }, { "usec", 1e3 }, { "msec", 1e6 }, { "", 1e9 },
  { "sec", 1e9 }, { "m", 60e9 }, { "h", 3600e9 },
}
local INT_SFX = {
  { "T", 1e12 }, { "G", 1e9 }, { "M", 1e6 }, { "k", 1e3 }, { "", 1 }, { "da", 10 },
  { "P", 1e15 }, { "E", 1e18 },
}

local function trunc(v)
  if v >= 0 then return floor(v) end
  return -floor(-v)
end

-- ioping's print_suffix: the largest unit not above the value; no decimals
-- when the unit divides it, one at 10 units or more, else two. The value is
-- a C long long, so a fractional argument is truncated first.
local function print_suffix(val, sfx)
  val = trunc(val)
  local i = 1
  while val < sfx[i][2] and sfx[i][2] > 1 do i = i + 1 end
  local mul, txt = sfx[i][2], sfx[i][1]
  local prec
  if val % mul == 0 then
    prec = 0
  elseif val >= mul * 10 then
    prec = 1
  else
    prec = 2
  end
  local s = fmt("%." .. prec .. "f", val * 1.0 / mul)
  if txt ~= "" then s = s .. " " .. txt end
  return s
end

--- ioping_size(bytes) -> "4 KiB", "457.4 GiB", "17.1 MiB"
function M.ioping_size(v) return print_suffix(v, SIZE_SFX) end
--- ioping_time(ns) -> "221.3 us", "2.05 ms", "9.00 s"
function M.ioping_time(v) return print_suffix(v, TIME_SFX) end
--- ioping_int(n) -> "9", "4.39 k"
function M.ioping_int(v) return print_suffix(v, INT_SFX) end
-- ioping 0.9's time units: microseconds (gettimeofday), down to "us"
local TIME_SFX_US = {
  { "day", 86400e6 }, { "hour", 3600e6 }, { "min", 60e6 }, { "s", 1e6 }, { "ms", 1e3 },
  { "us", 1 },
}
--- ioping_time_us(us) -> ioping 0.9's time: "221 us", "2.05 ms"
function M.ioping_time_us(v) return print_suffix(v, TIME_SFX_US) end

-- ioping's parse_suffix: strtod, an optional "/denominator", then a suffix
-- matched without regard to case; the product is truncated to an integer.
local function parse_suffix(s, sfx, max)
  local num, rest = s:match("^%s*([%+%-]?%d*%.?%d*[eE]?[%+%-]?%d*)(.*)$")
  local val
  if num and num ~= "" and tonumber(num) then
    val = tonumber(num)
  else
    -- strtod may take a shorter prefix ("1e" is 1 followed by "e")
    num, rest = s:match("^%s*([%+%-]?%d*%.?%d*)(.*)$")
    val = tonumber(num)
    if not val then
      val = 0
      rest = s
    end
  end
  if rest:sub(1, 1) == "/" then
    if num == "" then val = 1 end
    local den, r2 = rest:sub(2):match("^([%+%-]?%d*%.?%d*)(.*)$")
    den = tonumber(den) or 0
    if den == 0 then return nil, "division by zero in parsing argument: " .. s end
    val = val / den
    rest = r2
  end
  local low = rest:lower()
  for _, e in ipairs(sfx) do
    if e[1]:lower() == low then
      val = val * e[2]
      if val < 0 or val > max then
        return nil, "integer overflow at parsing argument: " .. s
      end
      return trunc(val)
    end
  end
  return nil, 'invalid suffix: "' .. rest .. '"'
end

--- ioping_parse_size(s) -> bytes | nil, msg   (k = 1024, as ioping)
function M.ioping_parse_size(s) return parse_suffix(s, SIZE_SFX, 2 ^ 63) end
--- ioping_parse_time(s) -> ns | nil, msg      (a bare number is seconds)
function M.ioping_parse_time(s) return parse_suffix(s, TIME_SFX, 2 ^ 63) end
--- ioping_parse_int(s) -> n | nil, msg        (k = 1000)
function M.ioping_parse_int(s) return parse_suffix(s, INT_SFX, 2147483647) end

--- ioping statistics, as ioping.c keeps them (struct statistics).
local Stats = {}
Stats.__index = Stats

--- ioping_stats(start_ns) -> a fresh statistics object
function M.ioping_stats(start)
  return setmetatable({ start = start, count = 0, valid = 0, too_slow = 0, too_fast = 0,
    min = math.huge, max = -math.huge, sum = 0, sum2 = 0 }, Stats)
end

--- st:add(ns, request, o) -> valid, notice; o = {warmup=, min_valid=, max_valid=,
--- percent=}: with percent (ioping 1.0 to 1.2), a valid request is "fast" or
--- "slow" in the lowest or highest 5% of the range seen so far, else (1.3)
--- under half or over twice the average.
function Stats:add(val, request, o)
  self.count = self.count + 1
  if request <= o.warmup then
    return false, "warmup"
  elseif val < o.min_valid then
    self.too_fast = self.too_fast + 1
    return false, "too fast"
  elseif val > o.max_valid then
    self.too_slow = self.too_slow + 1
    return false, "too slow"
  end
  self.valid = self.valid + 1
  self.sum = self.sum + val
  self.sum2 = self.sum2 + val * val
  if val < self.min then self.min = val end
  if val > self.max then self.max = val end
  local notice
  if o.percent then
    if self.valid > 5 and self.min < self.max then
      local pct = trunc((val - self.min) * 100 / (self.max - self.min))
      if pct < 5 then
        notice = "fast"
      elseif pct > 95 then
        notice = "slow"
      end
    end
  elseif self.valid > 5 then
    local avg = trunc(self.sum / self.valid)
    if val * 2 < avg then
      notice = "fast"
    elseif val > avg * 2 then
      notice = "slow"
    end
  end
  return true, notice
end

--- st:merge(other): add other's requests (ioping's merge_statistics)
function Stats:merge(o)
  self.count = self.count + o.count
  self.too_fast = self.too_fast + o.too_fast
  self.too_slow = self.too_slow + o.too_slow
  if o.valid > 0 then
    self.valid = self.valid + o.valid
    self.sum = self.sum + o.sum
    self.sum2 = self.sum2 + o.sum2
    if o.min < self.min then self.min = o.min end
    if o.max > self.max then self.max = o.max end
  end
end

--- st:finish(finish_ns, size): the derived figures (ioping's finish_statistics)
function Stats:finish(finish, size)
  self.finish = finish
  self.load_time = finish - self.start
  self.avg, self.mdev, self.iops, self.load_iops = 0, 0, 0, 0
  if self.valid > 0 then
    self.avg = self.sum / self.valid
    local v = self.sum2 / self.valid - self.avg * self.avg
    self.mdev = math.sqrt(v > 0 and v or 0)
  else
    self.min, self.max = 0, 0
  end
  if self.sum ~= 0 then self.iops = 1e9 * self.valid / self.sum end
  if self.load_time ~= 0 then self.load_iops = 1e9 * self.count / self.load_time end
  self.speed = self.iops * size
  self.load_speed = self.load_iops * size
  self.size = self.valid * size
  self.load_size = self.count * size
  return self
end

--- st:raw() -> ioping's -B/-p line: valid sum iops speed min avg max mdev count load_time
function Stats:raw()
  return fmt("%d %.0f %.0f %.0f %d %.0f %d %.0f %d %d\n", self.valid, self.sum, self.iops,
    self.speed, self.min, self.avg, self.max, self.mdev, self.count, self.load_time)
end

--- ioping_request(bytes, write, target, request, ns, notice) -> one request line
--- target is "PATH (FSTYPE DEVICE SIZE)", as ioping_target() builds it
function M.ioping_request(bytes, write, target, request, ns, notice)
  return fmt("%s %s %s: request=%d time=%s%s\n", M.ioping_size(bytes), write and ">>>" or "<<<",
    target, request, M.ioping_time(ns), notice and (" (" .. notice .. ")") or "")
end

--- ioping_request_09(bytes, write, target, request, us) -> ioping 0.9's request line:
--- "4 KiB from PATH (...): request=N time=T", in microseconds, with no notices
function M.ioping_request_09(bytes, write, target, request, us)
  return fmt("%s %s %s: request=%d time=%s\n", M.ioping_size(bytes), write and "to" or "from",
    target, request, M.ioping_time_us(us))
end

--- ioping_target(path, fstype, device, device_size [, sized]) -> "PATH (FSTYPE DEVICE SIZE)".
--- sized false (ioping up to 1.1): the size only when known (a device's), glued
--- to DEVICE as those releases printed it (a device is "device " there)
function M.ioping_target(path, fstype, device, size, sized)
  if sized == false then
    return fmt("%s (%s %s%s)", path, fstype, device, (size or 0) > 0 and M.ioping_size(size) or "")
  end
  return fmt("%s (%s %s %s)", path, fstype, device, M.ioping_size(size))
end

--- ioping_summary_09(target, st) -> ioping 0.9's statistics block; st = {n =
--- requests, total = wall us, sum = us, sum2, min, max, size = request bytes}
function M.ioping_summary_09(target, t)
  local avg = t.n > 0 and t.sum / t.n or 0
  local v = t.n > 0 and t.sum2 / t.n - avg * avg or 0
  local mdev = math.sqrt(v > 0 and v or 0)
  local iops = t.sum > 0 and 1e6 * t.n / t.sum or 0
  local speed = t.sum > 0 and 1e6 * t.n * t.size / t.sum or 0
  return fmt("\n--- %s ioping statistics ---\n", target)
    .. fmt("%s requests completed in %s, %s iops, %s/s\n", M.ioping_int(t.n),
      M.ioping_time_us(t.total), M.ioping_int(iops), M.ioping_size(speed))
    .. fmt("min/avg/max/mdev = %s / %s / %s / %s\n", M.ioping_time_us(t.n > 0 and t.min or 0),
      M.ioping_time_us(avg), M.ioping_time_us(t.n > 0 and t.max or 0), M.ioping_time_us(mdev))
end

--- ioping_raw_09(st) -> ioping 0.9's -B/-p line: requests sum iops speed min avg max mdev (us)
function M.ioping_raw_09(t)
  local avg = t.n > 0 and t.sum / t.n or 0
  local v = t.n > 0 and t.sum2 / t.n - avg * avg or 0
  return fmt("%d %.0f %.0f %.0f %.0f %.0f %.0f %.0f\n", t.n, t.sum,
    t.sum > 0 and 1e6 * t.n / t.sum or 0, t.sum > 0 and 1e6 * t.n * t.size / t.sum or 0,
    t.n > 0 and t.min or 0, avg, t.n > 0 and t.max or 0, math.sqrt(v > 0 and v or 0))
end

--- ioping_summary(target, st, mode) -> the statistics block after the blank
--- line; mode is "read", "write" or "rw" (-G prints neither word)
function M.ioping_summary(target, t, mode)
  local word = mode == "rw" and "" or (mode == "write" and " written" or " read")
  local out = {}
  out[#out + 1] = fmt("\n--- %s ioping statistics ---\n", target)
  out[#out + 1] = fmt("%s requests completed in %s, %s%s, %s iops, %s/s\n", M.ioping_int(t.valid),
    M.ioping_time(t.sum), M.ioping_size(t.size), word, M.ioping_int(t.iops),
    M.ioping_size(t.speed))
  local pre = ""
  if t.too_fast > 0 then pre = pre .. M.ioping_int(t.too_fast) .. " too fast, " end
  if t.too_slow > 0 then pre = pre .. M.ioping_int(t.too_slow) .. " too slow, " end
  out[#out + 1] = fmt("%sgenerated %s requests in %s, %s, %s iops, %s/s\n", pre,
    M.ioping_int(t.count), M.ioping_time(t.load_time), M.ioping_size(t.load_size),
    M.ioping_int(t.load_iops), M.ioping_size(t.load_speed))
  out[#out + 1] = fmt("min/avg/max/mdev = %s / %s / %s / %s\n", M.ioping_time(t.min),
    M.ioping_time(t.avg), M.ioping_time(t.max), M.ioping_time(t.mdev))
  return table.concat(out)
end

-- ---------------------------------------------------------------------------
-- shared helpers
-- ---------------------------------------------------------------------------

--- atoi(s) -> C's atoi/sscanf("%lld") of a leading integer: optional blanks and
--- sign, then digits; 0 when there are none (iozone's arguments, fio's CPU lists).
function M.atoi(s)
  local sign, digits = s:match("^%s*([+-]?)(%d*)")
  local n = tonumber(digits ~= "" and digits or "0")
  return sign == "-" and -n or n
end

--- strerror(msg) -> the strerror text at the end of a platter "op path: text"
--- message, without platter's added "(O_DIRECT needs ...)" hint
function M.strerror(msg, path)
  msg = tostring(msg or "")
  local text
  if path then
    local at = msg:find(path .. ": ", 1, true)
    if at then text = msg:sub(at + #path + 2) end
  end
  text = text or msg:match(": ([^:]+)$") or msg
  -- platter's own words on O_DIRECT ("(O_DIRECT needs ...)", "(... does not take O_DIRECT)")
  return (text:gsub(" %([^()]*O_DIRECT[^()]*%)$", ""))
end

--- protected(fn, ...) -> ok, err: pcall(fn, ...) inside a second pcall. After
--- the first Ctrl-C every platter call raises "interrupted", and so does the
--- host's stop hook at each Lua instruction of code that is not platter's own
--- (a script's callback), which may come just after the inner pcall returned.
--- The outer layer catches that one, so a workload can still print its
--- statistics (as dd and ioping do when stopped).
function M.protected(fn, ...)
  local args = { n = select("#", ...), ... }
  local unpack = table.unpack or unpack
  local ok, err
  local outer, oerr = pcall(function()
    ok, err = pcall(fn, unpack(args, 1, args.n))
    return ok
  end)
  if not outer then return false, oerr end
  return ok, err
end

--- quotef(s) -> s, quoted only when a shell would need it (coreutils' quotef)
function M.quotef(s)
  s = tostring(s)
  if s ~= "" and not s:find("[^%w%._/%-%+=:,@%%^]") then return s end
  return M.quote(s)
end

--- quote(s) -> 's' as coreutils' quoteaf shows a file name
function M.quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

return M
