-- platter.fio_eta: fio 3.33's status line (eta.c), the line fio rewrites with
-- '\r' on a terminal while its jobs run:
--   Jobs: 1 (f=1): [r(1)][45.5%][r=123MiB/s][r=31.5k IOPS][eta 00m:06s]
-- Pure: the caller (platter.fio_run) gives the clock and each job copy's
-- state and counts, and writes the text; fio's rules of what it shows when
-- are here.
local fr = require "platter.fio_report"

local M = {}

local floor, format = math.floor, string.format
local INT_MAX = 2147483647

--- M.wanted(cfg, formats, tty) -> whether fio would print the line: --eta=always, or
--- stdout a terminal and not --eta=never; only with the normal output or --output
function M.wanted(cfg, formats, tty)
  if not formats.normal and not cfg.output then return false end
  if cfg.eta == "never" then return false end
  return cfg.eta == "always" or tty
end

-- eta.c's eta_to_str: [DDd:][HHh:]MMm:SSs
function M.eta_str(s)
  local sec = s % 60
  s = floor(s / 60)
  local m = s % 60
  s = floor(s / 60)
  local h = s % 24
  local d = floor(s / 24)
  local out = ""
  if d > 0 then out = format("%02dd:", d) end
  if h > 0 or d > 0 then out = out .. format("%02dh:", h) end
  return out .. format("%02dm:%02ds", m, sec)
end

-- The state character of one job copy (check_str_update)
local function run_char(o, state)
  if state == "done" then return "_" end
  if state == "pending" then return "P" end
  if state == "setup" then return "I" end
  local kind = o.rw.kind
  local random = kind:sub(1, 4) == "rand"
  if kind == "rw" or kind == "randrw" then
    local mix = o.rwmixread or 50
    local c = mix == 100 and "r" or mix == 0 and "w" or "m"
    return random and c or c:upper()
  end
  local c = (kind == "read" or kind == "randread") and "r" or "w"
  return random and c or c:upper()
end

-- "R(1),_(1)": runs of the same character, counted (update_condensed_str)
local function condensed(chars)
  local parts, i = {}, 1
  while i <= #chars do
    local c, n = chars[i], 1
    while chars[i + n] == c do n = n + 1 end
    parts[#parts + 1] = format("%s(%d)", c, n)
    i = i + n
  end
  return table.concat(parts, ",")
end

local function reads(o) local k = o.rw.kind return k == "read" or k == "randread" or k == "rw" or k == "randrw" end
local function writes(o) local k = o.rw.kind return k == "write" or k == "randwrite" or k == "rw" or k == "randrw" end

-- thread_eta: the seconds one job copy still needs, by fio's guess
local function job_eta(j, now)
  local o = j.o
  local timeout = floor(o.runtime or 0)
  local total = j.total or 0
  if o.verify and o.verify ~= "none" and o.do_verify ~= false and writes(o) then
    if reads(o) then total = total + floor(total * (100 - (o.rwmixread or 50)) / 100)
    else total = total * 2 end
  end
  if j.state == "running" then
    local elapsed = floor((floor((now - j.started) / 1e6) + 999) / 1000)
    local done = (j.bytes[1] or 0) + (j.bytes[2] or 0)
    local perc = total > 0 and math.min(done / total, 1) or 0
    if o.time_based then
      perc = timeout > 0 and math.min(perc, elapsed / timeout) or 0
    end
    local eta
    if perc == 0 then eta = timeout else eta = floor(elapsed * (1 / perc)) - elapsed end
    -- fio's unsigned arithmetic: no cap once the time is past
    if timeout > 0 and timeout - elapsed >= 0 and eta > timeout - elapsed then eta = timeout - elapsed end
    return eta
  elseif j.state == "pending" or j.state == "setup" then
    local t_eta, r_eta = 0, 0
    if timeout > 0 then t_eta = floor(timeout + (o.startdelay or 0) + (o.ramp_time or 0)) end
    local rate = (reads(o) and o.rate.read or 0) + (writes(o) and o.rate.write or 0)
    if rate > 0 then r_eta = floor(total / rate) + floor(o.startdelay or 0) end
    if r_eta > 0 and t_eta > 0 then return math.min(r_eta, t_eta) end
    return r_eta > 0 and r_eta or t_eta
  end
  return 0
end

--- M.new(genesis_ns, jobs, opts) -> a status line. jobs: one per job copy, in fio's
--- order: { o = options, files = N, total = bytes it does, state = "pending" }; the
--- caller sets state ("setup", "running", "done"), started (ns) and bytes/ops
--- ({ read, write } counts so far). opts.newline_ms: fio's --eta-newline.
function M.new(genesis, jobs, opts)
  opts = opts or {}
  local st = { jobs = jobs, prev_t = genesis, prev_bytes = { 0, 0 }, prev_ops = { 0, 0 },
    linelen_last = 0, eta_good = false, newline_at = nil, newline_pending = false }

  --- st:line(now) -> the text of one display, ending in '\r' (nil when no job is
  --- running or waiting, as fio prints nothing then)
  function st.line(_, now)
    local nr_running, nr_pending, files = 0, 0, 0
    local t_rate, m_rate, t_iops, m_iops = 0, 0, 0, 0
    local bytes, ops, chars = { 0, 0 }, { 0, 0 }, {}
    local elapsed_sec = floor((floor((now - genesis) / 1e6) + 999) / 1000)
    local eta, eta_stone = 0, 0
    for i, j in ipairs(jobs) do
      local o = j.o
      if j.state == "running" then
        nr_running = nr_running + 1
        local r, w = reads(o), writes(o)
        t_rate = t_rate + (r and o.rate.read or 0) + (w and o.rate.write or 0)
        m_rate = m_rate + (r and o.rate_min.read or 0) + (w and o.rate_min.write or 0)
        t_iops = t_iops + (r and o.rate_iops.read or 0) + (w and o.rate_iops.write or 0)
        files = files + (j.files or 1)
      elseif j.state == "pending" or j.state == "setup" then  -- fio's states before running
        nr_pending = nr_pending + 1
      end
      local e = job_eta(j, now)
      if j.state == "pending" and o.stonewall then eta_stone = eta_stone + e
      elseif e > eta then eta = e end
      chars[i] = run_char(o, j.state)
      if j.state ~= "pending" and j.state ~= "setup" then
        for d = 1, 2 do
          bytes[d] = bytes[d] + (j.bytes and j.bytes[d] or 0)
          ops[d] = ops[d] + (j.ops and j.ops[d] or 0)
        end
      end
    end
    eta = eta + eta_stone
    if elapsed_sec < 3 then eta = INT_MAX end  -- fio guesses no ETA in the first seconds
    local mtime = floor((now - st.prev_t) / 1e6)
    local rate, iops = {}, {}
    for d = 1, 2 do
      rate[d] = mtime > 0 and floor(floor(1000 * (bytes[d] - st.prev_bytes[d]) / mtime) / 1024) or 0
      iops[d] = mtime > 0 and floor((ops[d] - st.prev_ops[d]) * 1000 / mtime) or 0
    end
    st.prev_t, st.prev_bytes, st.prev_ops = now, bytes, ops
    if nr_running == 0 and nr_pending == 0 then return nil end

    local out = {}
    if st.newline_pending then
      st.newline_pending, st.linelen_last = false, 0
      out[#out + 1] = "\n"
    end
    local line = format("Jobs: %d (f=%d)", nr_running, files)
    if m_rate > 0 or t_rate > 0 then
      line = line .. ", " .. fr.num2str(m_rate, 4, 1, true, fr.N2S.BYTEPERSEC) .. "-" ..
        fr.num2str(t_rate, 4, 1, true, fr.N2S.BYTEPERSEC)
    elseif m_iops > 0 or t_iops > 0 then
      line = line .. format(", %d-%d IOPS", m_iops, t_iops)
    end
    if eta ~= INT_MAX and nr_running > 0 then
      local perc_str
      if eta == 0 and not st.eta_good then
        perc_str = "-.-%"
      else
        st.eta_good = true
        perc_str = format("%3.1f%%", 100 * elapsed_sec / (elapsed_sec + eta))
      end
      line = line .. format(": [%s][%s]", condensed(chars), perc_str)
      local names, has = { "r", "w" }, {}
      local rs, is = {}, {}
      for d = 1, 2 do
        if rate[d] > 0 or iops[d] > 0 then
          has[#has + 1] = d
          rs[#rs + 1] = names[d] .. "=" .. fr.num2str(rate[d], 4, 1024, true, fr.N2S.BYTEPERSEC)
          is[#is + 1] = names[d] .. "=" .. fr.num2str(iops[d], 4, 1, false, fr.N2S.NONE)
        end
      end
      if #has > 0 then line = line .. "[" .. table.concat(rs, ",") .. "][" .. table.concat(is, ",") .. " IOPS]" end
      line = line .. "[eta " .. M.eta_str(eta) .. "]"
      local len = #line
      if len < st.linelen_last then line = line .. string.rep(" ", st.linelen_last - len) end
      st.linelen_last = len
    end
    out[#out + 1] = line .. "\r"
    if opts.newline_ms then
      if not st.newline_at then
        st.newline_at = now
      elseif (now - st.newline_at) / 1e6 > opts.newline_ms then
        st.newline_at, st.newline_pending = now, true
      end
    end
    return table.concat(out)
  end
  return st
end

return M
