-- p.run's fio patterns and loop rules: pareto, zoned, zoned_abs, seq_nr and
-- random_pct, a signed skip, reap_min/reap_max, rate_min. Offsets are seen
-- through the blocks a write job zeroes in a file of random bytes; the
-- counts are pinned per seed, so LuaJIT and Lua 5.4 builds run the same.
local T = ...
local p = require "platter"

local BLK, NB = 4096, 256

local function fresh()
  local path = T.tmpdir() .. "/z.dat"
  T.sh("rm -f " .. T.q(path))
  local f = assert(p.open(path, { create = true, write = true, size = NB * BLK, fill = "random" }))
  f:close()
  return assert(p.open(path, { write = true })), path
end

-- which blocks a write job zeroed
local function written(path)
  local d = assert(T.read(path))
  local s = {}
  for b = 0, NB - 1 do s[b] = not d:sub(b * BLK + 1, (b + 1) * BLK):find("[^%z]") end
  return s
end

local function run_on_fresh(t)
  local z, path = fresh()
  t.file, t.op, t.progress = z, "write", false
  local r = p.run(t)
  z:close()
  return r, written(path)
end

local function count(map, lo, hi)
  local n = 0
  for b = lo, hi - 1 do if map[b] then n = n + 1 end end
  return n
end

T.test("zoned: only the zones' blocks; zoned_abs: sizes in bytes", function()
  -- 100% of I/O on the first 25% of the range
  local _, map = run_on_fresh { pattern = "zoned", zones = { { 100, 25 } }, count = 2000, seed = 1 }
  T.eq(count(map, NB / 4, NB), 0, "nothing past the zone")
  T.ok(count(map, 0, NB / 4) > NB / 4 * 0.9, "the zone is covered")
  -- zoned_abs: 50% on the first 64k, 50% on the next 128k
  local _, m2 = run_on_fresh { pattern = "zoned_abs", zones = { { 50, "64k" }, { 50, "128k" } },
    count = 2000, seed = 2 }
  T.eq(count(m2, 48, NB), 0, "nothing past 192k")
  T.eq(count(m2, 0, 16), 16, "the first zone is covered")
  T.raises(function() p.run { file = fresh(), pattern = "zoned", count = 1 } end, "needs 'zones'")
  T.raises(function() p.run { file = fresh(), pattern = "zoned", zones = { { 60, 10 } }, count = 1 } end,
    "add up to 100")
end)

T.test("pareto: the head is hot, the same blocks for a seed", function()
  local r, a = run_on_fresh { pattern = "pareto", pareto_h = 0.2, scatter = "none", center = 0,
    count = 200, seed = 4 }
  T.eq(r.ops, 200, "ops")
  T.ok(a[0], "rank 0 sits at block 0 with scatter none and center 0")
  T.ok(count(a, 0, 32) > 3 * count(a, 128, 160), "the first blocks are hotter than the middle")
  local _, b = run_on_fresh { pattern = "pareto", pareto_h = 0.2, scatter = "fio", count = 300, seed = 4 }
  local _, c = run_on_fresh { pattern = "pareto", pareto_h = 0.2, scatter = "fio", count = 300, seed = 4 }
  local n, same = 0, true
  for i = 0, NB - 1 do
    if b[i] then n = n + 1 end
    if b[i] ~= c[i] then same = false end
  end
  T.ok(same, "a seed repeats its blocks")
  -- pinned (the C pattern: the same on every build and both Lua flavours)
  T.eq(n, 84, "blocks written by 300 fio-scattered pareto draws, seed 4")
  T.raises(function() p.run { file = fresh(), pattern = "pareto", pareto_h = 1, count = 1 } end, "pareto_h")
  T.raises(function() p.run { file = fresh(), pattern = "zipf", scatter = "x", count = 1 } end, "unknown scatter")
end)

T.test("seq_nr and random_pct: runs that follow a random offset", function()
  -- random_pct = 0 after a random first I/O: a sequential run, so a contiguous block of writes
  local _, m = run_on_fresh { pattern = "random", random_pct = 0, count = 16, seed = 5 }
  local first
  for b = 0, NB - 1 do if m[b] then first = first or b end end
  T.eq(count(m, 0, NB), 16, "16 blocks")
  T.eq(count(m, first, first + 16 <= NB and first + 16 or NB), math.min(16, NB - first),
    "contiguous from the first")
  -- seq_nr = 8: 64 I/Os are 8 runs of 8
  local _, m8 = run_on_fresh { pattern = "random", seq_nr = 8, count = 64, seed = 6 }
  local runs = 0
  for b = 0, NB - 1 do if m8[b] and not m8[b - 1] then runs = runs + 1 end end
  T.ok(runs <= 8 and runs >= 2, "at most 8 runs: " .. runs)
  T.raises(function() p.run { file = fresh(), pattern = "seq", seq_nr = 8, count = 1 } end, "random pattern")
  T.raises(function() p.run { file = fresh(), random_pct = 101, count = 1 } end, "random_pct")
end)

T.test("skip: negative is fio's backwards read", function()
  -- bs 4k, skip -8k: 0, then from the top down, one block lower each time
  local _, m = run_on_fresh { pattern = "seq", skip = "-8k", count = 4, seed = 1 }
  T.ok(m[0] and m[NB - 2] and m[NB - 3] and m[NB - 4], "blocks 0, NB-2, NB-3, NB-4")
  T.eq(count(m, 0, NB), 4, "4 blocks")
  T.ok(not m[NB - 1], "the last block is skipped, as fio does")
  T.raises(function() p.run { file = fresh(), pattern = "random", skip = 4096, count = 1 } end, "pattern seq")
end)

T.test("reap_max = 1: every reap takes one completion, as fio's default", function()
  local f = fresh()
  local r = p.run { file = f, engine = "null", qd = 16, pattern = "random", count = 1600,
    reap_max = 1, progress = false }
  T.eq(r.complete[2], r.complete.total, "every reap of 1")
  T.ok(r.complete.total >= 1600, "a reap per I/O")
  local r2 = p.run { file = f, engine = "null", qd = 16, pattern = "random", count = 1600, progress = false }
  T.eq(r2.complete[4], 100, "p.run's default still reaps the full queue at once")
  local r3 = p.run { file = f, engine = "null", qd = 16, pattern = "random", count = 1600,
    reap_min = 8, reap_max = 8, progress = false }
  T.eq(r3.complete[3], r3.complete.total - (r3.complete[2] or 0), "reaps of 5-8")
  f:close()
end)

T.test("rate_min: a job below it stops with fio's message (virtual clock)", function()
  local dir = T.tmpdir()
  local out, err, rc = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " --quiet --sim hitachi-85mb-1988 -e " ..
    T.q([[
      local p = require "platter"
      local f = assert(p.open(p.scratch("r.dat"), { create = true, write = true, size = "4m" }))
      local r = p.run { file = f, pattern = "random", seconds = 10, rate_min_bps = 100e6, progress = false }
      print(r.stopped, r.error)
      local ok = p.run { file = f, pattern = "random", seconds = 4, rate_min_bps = 1000, progress = false }
      print(ok.stopped, ok.error)
    ]]))
  T.eq(rc, 0, "ran: " .. out .. err)
  T.has(out, "rate_min\trate_min=100000000B/s not met, got ", "stopped, in fio's words")
  T.has(out, "time\tnil", "a job above the minimum runs its time")
end)
