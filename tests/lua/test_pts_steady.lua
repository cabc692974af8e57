-- p.steady, the SNIA PTS steady-state rule, against hand-computed cases, and
-- workloads/steady.lua (the PTS IOPS loop) on the simulated disk, where it
-- must stop at the round the rule gives for the per-round numbers it reports.
local T = ...
local p = require "platter"
local cjson = require "cjson"

-- Throughout: a window of 5 rounds x = r-4 .. r, whose deviations from the
-- mean round are -2, -1, 0, 1, 2, so sum (x - xm)^2 = 4 + 1 + 0 + 1 + 4 = 10 and
-- slope = sum (x - xm)(y - ym) / 10; the slope excursion is |slope| * 4.

T.test("steady: a flat series is steady at round 5, the earliest", function()
  -- 100 x 5: average 100, max - min = 0 <= 20, slope 0 -> 0 <= 10
  local r = p.steady { 100, 100, 100, 100, 100 }
  T.eq(r.steady, true)
  T.eq(r.round, 5)
  T.eq(r.window.first, 1)
  T.eq(r.window.last, 5)
  T.eq(r.average, 100)
  T.eq(r.excursion, 0)
  T.eq(r.slope, 0)
  T.eq(r.slope_excursion, 0)
  T.eq(r.done, true, "the loop stops")
end)

T.test("steady: data excursion just inside 20% (at it) and just outside", function()
  -- 90 110 100 100 100: sum 500, average 100; max - min = 110 - 90 = 20 <= 20% of 100 = 20.
  -- y - ym = -10 10 0 0 0: sum (x - xm)(y - ym) = (-2)(-10) + (-1)(10) = 10, slope 1,
  -- slope excursion 4 <= 10: steady
  local r = p.steady { 90, 110, 100, 100, 100 }
  T.eq(r.average, 100)
  T.eq(r.excursion, 20)
  T.eq(r.slope, 1)
  T.eq(r.slope_excursion, 4)
  T.eq(r.data_ok, true)
  T.eq(r.steady, true)
  T.eq(r.round, 5)
  -- 90 111 99 100 100: sum 500, average 100; max - min = 111 - 90 = 21 > 20: not steady.
  -- y - ym = -10 11 -1 0 0: (-2)(-10) + (-1)(11) + 0 = 9, slope 0.9, excursion 3.6 <= 10
  r = p.steady { 90, 111, 99, 100, 100 }
  T.eq(r.excursion, 21)
  T.near(r.slope, 0.9, 1e-12)
  T.near(r.slope_excursion, 3.6, 1e-12)
  T.eq(r.data_ok, false)
  T.eq(r.slope_ok, true)
  T.eq(r.steady, false)
  T.eq(r.round, nil)
  T.eq(r.done, false, "5 of 25 rounds: the loop goes on")
  T.near(r.excursion_pct, 21, 1e-12)
end)

T.test("steady: slope excursion just inside 10% (at it) and just outside", function()
  -- 96 98 100 102 104: average 100, max - min 8 <= 20; y - ym = -4 -2 0 2 4:
  -- 8 + 2 + 0 + 2 + 8 = 20, slope 2, excursion 8 <= 10: steady
  local r = p.steady { 96, 98, 100, 102, 104 }
  T.eq(r.slope, 2)
  T.eq(r.slope_excursion, 8)
  T.eq(r.steady, true)
  -- 95 97.5 100 102.5 105: average 100, max - min 10 <= 20; y - ym = -5 -2.5 0 2.5 5:
  -- 10 + 2.5 + 0 + 2.5 + 10 = 25, slope 2.5, excursion 10 <= 10% of 100: steady (at the limit)
  r = p.steady { 95, 97.5, 100, 102.5, 105 }
  T.eq(r.slope_excursion, 10)
  T.eq(r.slope_ok, true)
  T.eq(r.steady, true)
  -- 94 97 100 103 106: average 100, max - min 12 <= 20; y - ym = -6 -3 0 3 6:
  -- 12 + 3 + 0 + 3 + 12 = 30, slope 3, excursion 12 > 10: not steady, by the slope alone
  r = p.steady { 94, 97, 100, 103, 106 }
  T.eq(r.slope, 3)
  T.eq(r.slope_excursion, 12)
  T.eq(r.data_ok, true)
  T.eq(r.slope_ok, false)
  T.eq(r.steady, false)
  -- falling: 106 103 100 97 94 has slope -3, the same excursion 12 (|slope| * 4)
  r = p.steady { 106, 103, 100, 97, 94 }
  T.eq(r.slope, -3)
  T.eq(r.slope_excursion, 12)
  T.eq(r.steady, false)
  T.eq(r.intercept, 109, "the fitted line 109 - 3x passes 106 at round 1")
end)

T.test("steady: reached later, in the first window that holds", function()
  -- 50 70 90 96 98 100 102 104:
  --   rounds 1-5 (50..98): max - min 48 > 20% of 80.8
  --   rounds 2-6 (70 90 96 98 100): average 90.8, 30 > 18.16
  --   rounds 3-7 (90 96 98 100 102): average 97.2, 12 <= 19.44; y - ym = -7.2 -1.2 0.8 2.8 4.8:
  --     14.4 + 1.2 + 0 + 2.8 + 9.6 = 28, slope 2.8, excursion 11.2 > 9.72: no
  --   rounds 4-8 (96 .. 104): average 100, 8 <= 20, slope 2, 8 <= 10: steady at round 8
  local r = p.steady { 50, 70, 90, 96, 98, 100, 102, 104 }
  T.eq(r.steady, true)
  T.eq(r.round, 8)
  T.eq(r.window.first, 4)
  T.eq(r.window.last, 8)
  T.eq(r.average, 100)
  T.eq(r.rounds, 8)
  -- the same first 7 rounds: the window 3-7 fails by its slope alone
  r = p.steady { 50, 70, 90, 96, 98, 100, 102 }
  T.eq(r.steady, false)
  T.eq(r.window.first, 3)
  T.near(r.average, 97.2, 1e-12)
  T.near(r.slope, 2.8, 1e-12)
  T.eq(r.data_ok, true)
  T.eq(r.slope_ok, false)
end)

T.test("steady: fewer than 5 rounds are never steady", function()
  -- 3 rounds of 100: no window of 5 yet
  local r = p.steady { 100, 100, 100 }
  T.eq(r.steady, false)
  T.eq(r.round, nil)
  T.eq(r.rounds, 3)
  T.eq(r.average, nil, "no window figures")
  T.eq(r.done, false)
  T.has(r.reason, "3 rounds of the 5")
  T.eq(p.steady({}).steady, false)
end)

T.test("steady: several variables, one of which fails", function()
  -- iops 100 x 5 holds (0 <= 20, slope 0); lat 90 111 99 100 100 fails (21 > 20, as above):
  -- the round is steady only when every variable is
  local r = p.steady { iops = { 100, 100, 100, 100, 100 }, lat = { 90, 111, 99, 100, 100 } }
  T.eq(r.steady, false)
  T.eq(r.vars.iops.steady, true)
  T.eq(r.vars.lat.steady, false)
  T.eq(r.vars.lat.excursion, 21)
  T.eq(#r.failed, 1)
  T.eq(r.failed[1], "lat")
  T.eq(r.names[1], "iops")
  T.eq(r.names[2], "lat")
  -- with a sixth round: iops 100 x 6; lat 111 99 100 100 100 in rounds 2-6: average 102,
  -- 12 <= 20.4; y - ym = 9 -3 -2 -2 -2: -18 + 3 + 0 - 2 - 4 = -21, slope -2.1, excursion
  -- 8.4 <= 10.2: both hold at round 6
  r = p.steady { iops = { 100, 100, 100, 100, 100, 100 }, lat = { 90, 111, 99, 100, 100, 100 } }
  T.eq(r.steady, true)
  T.eq(r.round, 6)
  T.near(r.vars.lat.slope, -2.1, 1e-12)
  T.eq(r.failed, nil)
end)

T.test("steady: the PTS stops at round 25", function()
  -- 80 120 80 120 ...: every window has max - min 40 > 20% of ~100: never steady;
  -- the rounds past 25 are not judged, and the result says the loop is done
  local xs = {}
  for i = 1, 30 do xs[i] = i % 2 == 1 and 80 or 120 end
  for i = 26, 30 do xs[i] = 100 end -- steady only in rounds 26-30, after the stop
  local r = p.steady(xs)
  T.eq(r.steady, false)
  T.eq(r.rounds, 25)
  T.eq(r.done, true)
  T.eq(r.window.first, 21)
  T.eq(r.window.last, 25)
  T.eq(r.average, (80 + 120 + 80 + 120 + 80) / 5) -- rounds 21..25: odd rounds are 80
  -- steady at round 25 itself counts
  for i = 1, 20 do xs[i] = i * 10 end
  for i = 21, 25 do xs[i] = 100 end
  r = p.steady(xs)
  T.eq(r.round, 25)
  T.eq(r.steady, true)
  -- another limit
  r = p.steady({ 1, 2, 3, 4, 5, 6 }, { max_rounds = 5 })
  T.eq(r.rounds, 5)
  T.eq(r.done, true)
end)

T.test("steady: other limits and windows", function()
  -- window 3 over 100 104 108: average 104, max - min 8 = 7.7% (<= 10% asked: yes);
  -- deviations -1 0 1, sum of squares 2, sum (x - xm)(y - ym) = (-1)(-4) + (1)(4) = 8, slope 4,
  -- slope excursion 4 * 2 = 8 = 7.7% > 5% asked: no
  local r = p.steady({ 100, 104, 108 }, { window = 3, data_pct = 10, slope_pct = 5 })
  T.eq(r.slope, 4)
  T.eq(r.slope_excursion, 8)
  T.eq(r.data_ok, true)
  T.eq(r.slope_ok, false)
  T.eq(r.window_size, 3)
  -- the same at the PTS's limits: 8 <= 20% and 8 <= 10% of 104
  r = p.steady({ 100, 104, 108 }, { window = 3 })
  T.eq(r.steady, true)
  T.eq(r.round, 3)
  -- an average of 0: only a flat 0 passes (0 <= 0)
  T.eq(p.steady({ 0, 0, 0, 0, 0 }).steady, true)
  T.eq(p.steady({ 0, 0, 0, 0, 0 }).excursion_pct, nil)
  T.eq(p.steady({ -1, 1, 0, 0, 0 }).steady, false)
end)

T.test("steady: bad input names the argument", function()
  local function err(fn)
    local ok, e = pcall(fn)
    T.eq(ok, false)
    return tostring(e)
  end
  T.has(err(function() p.steady(5) end), "steady: series: a list of numbers")
  T.has(err(function() p.steady { 1, "x", 3 } end), "steady: series[2]: a finite number expected, got x")
  T.has(err(function() p.steady { 1, 0 / 0 } end), "series[2]: a finite number")
  T.has(err(function() p.steady { a = { 1, 2 }, b = { 1 } } end), "series.b: 1 rounds, but series.a has 2")
  T.has(err(function() p.steady({ 1 }, { windw = 5 }) end), "opts: unknown option 'windw'")
  T.has(err(function() p.steady({ 1 }, { window = 1 }) end), "opts.window")
  -- these passed the check and stopped in string.format inside steady.lua (Lua 5.4),
  -- or named a table by its address
  T.has(err(function() p.steady({ 1 }, { window = 2 ^ 70 }) end), "opts.window: an integer at least 2")
  T.has(err(function() p.steady({ 1 }, { window = math.huge }) end), "opts.window: an integer at least 2")
  T.has(err(function() p.steady({ 1 }, { max_rounds = 1.5 }) end), "opts.max_rounds: an integer at least")
  T.has(err(function() p.steady({ 1 }, { window = {} }) end), "expected, got table")
  T.has(err(function() p.steady { 1, 2 } p.steady(1) end), "test_pts_steady.lua:", "the caller's line")
end)

-- {--- the workload on the simulated disk ---------------------------------------------

-- the PTS rule, written again here from its definition: the first round r >= 5 whose
-- window r-4..r has max - min <= 20% and |slope| * 4 <= 10% of the average; nil if none
local function predict(ys, max_rounds)
  for r = 5, math.min(#ys, max_rounds) do
    local sum, mn, mx = 0, math.huge, -math.huge
    for i = r - 4, r do
      sum, mn, mx = sum + ys[i], math.min(mn, ys[i]), math.max(mx, ys[i])
    end
    local avg, sxy = sum / 5, 0
    for i = r - 4, r do sxy = sxy + (i - (r - 2)) * (ys[i] - sum / 5) end
    if (mx - mn) * 100 <= 20 * avg and math.abs(sxy / 10) * 4 * 100 <= 10 * avg then return r end
  end
end

local function run_steady(args)
  local dir = T.tmpdir()
  local out, err, rc = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " --sim ata-5400-1999 --json rec.json steady "
    .. args .. " --report rep.json")
  T.eq(rc, 0, "steady ran: " .. err)
  local function load(name)
    local fh = assert(io.open(dir .. "/" .. name))
    local d = cjson.decode(fh:read("*a"))
    fh:close()
    return d
  end
  return out, load("rep.json"), load("rec.json"), err
end

for _, case in ipairs({
  { "the PTS matrix", "--size 64m --time 0.5s", 25 },
  { "two cells, 0.2 s", "--size 64m --time 0.2s --bs 4k --mixes 0/100,100/0 --skip-precondition", 25 },
  { "noisy cells, stopped at round 7", "--size 64m --time 0.05s --bs 4k,8k --mixes 0/100 --rounds 7 "
    .. "--skip-precondition", 7 },
}) do
  T.test("steady workload: " .. case[1] .. ": stops where the rule says", function()
    local out, rep, rec = run_steady(case[2])
    local max_rounds = case[3]
    local ys = rep.tracked
    local want = predict(ys, max_rounds)
    if want then
      T.eq(rep.steady, true)
      T.eq(rep.round, want, "the round the rule gives for " .. table.concat(ys, " "))
      T.eq(#ys, want, "no round after it")
      T.has(out, string.format("steady state reached at round %d (window rounds %d-%d)", want, want - 4, want))
    else
      T.eq(rep.steady, false)
      T.eq(#ys, max_rounds, "ran to the last round")
      T.has(out, string.format("steady state not reached in %d rounds", max_rounds))
    end
    -- the convergence table has one row per round, with the tracked IOPS
    for r, y in ipairs(ys) do
      T.ok(out:find(string.format("\n%5d  %12.1f", r, y), 1, true), "row of round " .. r)
    end
    -- every cell is a phase of the record; the tracked ones are the report's
    local cells = #rep.block_sizes * #rep.mixes
    local n, tracked = 0, {}
    for _, ph in ipairs(rec.phases) do
      local r, cell = ph.name:match("^round (%d+) (.+)$")
      if r then
        n = n + 1
        if cell == "4k 0/100" then tracked[tonumber(r)] = ph.iops end
      end
    end
    T.eq(n, cells * #ys, "one phase per cell and round")
    for r, y in ipairs(ys) do T.near(tracked[r], y, 1e-9 * y, "round " .. r .. " in the record") end
    -- the window's table: the tracked cell's average over the window is the verdict's average
    T.near(rep.window_table["4k"]["0/100"], rep.average, 1e-9 * rep.average)
    T.eq(rep.window.last - rep.window.first, 4)
    -- the --json record has the same findings (p.report) and the verdict (p.verdict)
    local found
    for _, x in ipairs(rec.reports or {}) do if x.name == "steady" then found = x.data end end
    T.ok(found, "the record's report")
    T.eq(found and found.round, rep.round, "its round")
    T.eq(rec.verdict.probe, "steady", "the record's verdict")
    T.eq(rec.verdict.answer, rep.steady and "steady" or "not steady", "its answer")
  end)
end

T.test("steady workload: the PTS matrix under --sim converges", function()
  local _, rep = run_steady("--size 64m --time 0.5s")
  T.eq(rep.steady, true, "the simulated disk is steady: " .. table.concat(rep.tracked, " "))
  T.eq(#rep.block_sizes, 8)
  T.eq(#rep.mixes, 7)
  T.eq(rep.block_sizes[8], "0.5k")
  T.eq(rep.mixes[3], "65/35")
end)

T.test("steady workload: usage errors name the parameter", function()
  local _, err, rc = T.platter { "--sim", "ata-5400-1999", "steady", "--bs", "8k" }
  T.eq(rc, 2)
  T.has(err, "4 KiB 0/100")
  _, err, rc = T.platter { "--sim", "ata-5400-1999", "steady", "--mixes", "60/30" }
  T.eq(rc, 2)
  T.has(err, "--mixes: '60/30'")
  _, err, rc = T.platter { "--sim", "ata-5400-1999", "steady", "--rounds", "4" }
  T.eq(rc, 2)
  T.has(err, "--rounds 4: must be at least 5")
end)

T.test("steady workload: platter plot --kind steady draws the rounds and the window's bands", function()
  local _, _, rc = T.sh("command -v gnuplot")
  if rc ~= 0 then T.skip("gnuplot not found") end
  local dir = T.tmpdir()
  local _, err
  _, err, rc = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " --quiet --sim ata-5400-1999 --json r.json "
    .. "steady --size 16m --time 0.1s --bs 4k --mixes 0/100 --skip-precondition --rounds 6")
  T.eq(rc, 0, err)
  local out
  out, err, rc = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " plot r.json -o s.svg")
  T.eq(rc, 0, err)
  -- chosen from the names; the rounds, the window's average, 4 band lines and the fit
  T.has(out .. err, "plot: wrote s.svg (steady, 7 lines)")
  local svg = T.read(dir .. "/s.svg")
  T.has(svg, "SNIA PTS steady state: ")
  T.has(svg, "least squares, slope")
  -- a record without the rounds is refused, saying what it needs
  T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " --quiet --sim nvme --json q.json -e "
    .. T.q("local p = require 'platter'; p.phase('x', function() end)"))
  out, err, rc = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " plot --kind steady q.json -o q.svg")
  T.eq(rc, 1)
  T.has(out .. err, "no phases named like \"round 3 4k 0/100\"")
end)
