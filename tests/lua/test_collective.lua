-- Collective phases and their pieces, on one rank (the mpirun cases are in
-- test_mpi_collective.lua): p.run's timeline and s:done_by, s.world of
-- p.phase(..., { collective = true }), the stonewall and its errors, and
-- IOR's layout helpers p.mpi.rank_file, p.mpi.segments and p.mpi.reorder.
local T = ...
local p = require "platter"

-- a script run by platter in a fresh directory: stdout, stderr, status
local function run(code, args)
  local d = T.tmpdir()
  local fh = assert(io.open(d .. "/s.lua", "w"))
  fh:write(code)
  fh:close()
  local words = args or {}
  words[#words + 1] = "s.lua"
  local out, err, rc = T.platter(words, { cwd = d })
  return out, err, rc, d
end

T.test("timeline: done_by counts the completions at or before a time, exactly", function()
  local out, err, rc = run([[
local p = require "platter"
local f = assert(p.open("x", { create = true, write = true, size = "4m" }))
local t0 = p.now()
local r = p.run { file = f, op = "write", bs = 4096, count = 100, timeline = true, think_us = 50 }
local t1 = p.now()
local o0, b0 = r:done_by(t0)
local o1, b1 = r:done_by(t1)
print("start", o0, b0)
print("end", o1, b1, r.ops, r.bytes)
-- monotonic, one I/O at a time, and each step exactly one block
local last, steps, bad = 0, 0, 0
for t = t0, t1, (t1 - t0) / 997 do
  local o, b = r:done_by(t)
  if o < last then bad = bad + 1 end
  if b ~= o * 4096 then bad = bad + 1 end
  if o > last then steps = steps + 1 end
  last = o
end
print("bad", bad, "steps>50", steps > 50)
-- halfway in time on the simulated disk's even pace: about half the I/Os
local oh = r:done_by(t0 + (t1 - t0) / 2)
print("half", oh >= 45 and oh <= 55)
local q = p.run { file = f, op = "read", bs = 4096, count = 3 }
print(pcall(q.done_by, q, t1))
local e = p.run { file = f, op = "read", bs = 4096, range = { 0, 4096 }, timeline = true }
print("one", e:done_by(p.now()))
]], { "--sim", "nvme" })
  T.eq(rc, 0, "status: " .. err)
  T.has(out, "start\t0\t0\n", "nothing done at the start")
  T.has(out, "end\t100\t409600\t100\t409600\n", "everything done at the end")
  T.has(out, "bad\t0\tsteps>50\ttrue\n", "monotonic steps of one block")
  T.has(out, "half\ttrue\n", "about half at half time")
  T.has(out, "false\tdone_by: 'run' has no timeline (give p.run timeline = true)\n", "no timeline")
  T.has(out, "one\t1\t4096\n", "a timeline of one")
end)

T.test("collective phase on one rank: world is the rank's own figures", function()
  local out, err, rc = run([[
local p = require "platter"
local f = assert(p.open("x", { create = true, write = true, size = "4m" }))
local s = p.phase("w", function()
  p.run { file = f, op = "write", bs = 65536, count = 32 }
  f:pwrite(0, 4096)
end, { collective = true })
local w = s.world
print(w.ranks, w.ops, w.bytes, w.ops == s.ops, w.bytes == s.bytes, w.errors)
print(w.per_rank[1].rank, w.per_rank[1].ops, w.per_rank[1].host == p.mpi.host)
print(w.first_done.seconds == w.last_done.seconds, w.last_done.ops, w.skew)
-- an f:pwrite outside p.run has no timeline: first-done counts are then unknown
print(w.first_done.ops, w.first_done.bytes)
print(w.merged.ops, w.merged:percentile(50) == s:percentile(50), w.stonewall)
print(math.abs(w.seconds - s.seconds) < 0.01, w.bw == w.bytes / w.seconds)
local s2 = p.phase("r", function() p.run { file = f, op = "read", bs = 65536, count = 8 } end,
  { collective = true })
print(s2.world.first_done.ops, s2.world.first_done.bytes)
]], { "--sim", "nvme", "--json", "r.json" })
  T.eq(rc, 0, "status: " .. err)
  T.has(out, "1\t33\t2101248\ttrue\ttrue\t0\n", "totals")
  T.has(out, "0\t33\ttrue\n", "per rank")
  T.has(out, "true\t33\t0\n", "first = last, no skew on one rank")
  T.has(out, "nil\tnil\n", "first-done unknown with I/O outside p.run")
  T.has(out, "33\ttrue\tnil\n", "merged stats, no stonewall")
  T.has(out, "true\ttrue\n", "seconds, bw")
  T.has(out, "8\t524288\n", "first-done exact with p.run only")
end)

T.test("collective phase: the stonewall stops p.run inside, and the record keeps world", function()
  local out, err, rc, d = run([[
local p = require "platter"
local f = assert(p.open("x", { create = true, write = true, size = "64m" }))
local s = p.phase("stone", function()
  p.run { file = f, op = "write", bs = 4096, pattern = "random", seconds = 100 }
  p.run { file = f, op = "write", bs = 4096, pattern = "random", seconds = 100 }
end, { collective = true, stonewall = "0.25s", wearout = true })
local w = s.world
print(string.format("%.3f", w.seconds), w.stonewall.seconds, w.stonewall.ops_min == s.ops,
  w.stonewall.ops_max == s.ops, w.stonewall.wearout, w.stonewall.wearout_ops, w.stonewall.bounded)
]], { "--sim", "nvme", "--json", "r.json" })
  T.eq(rc, 0, "status: " .. err)
  T.has(out, "0.250\t0.25\ttrue\ttrue\ttrue\t0\tfalse\n", "stopped at 0.25 s, nothing to wear out")
  local doc = require("cjson").decode(T.read(d .. "/r.json"))
  local rec
  for _, ph in ipairs(doc.phases) do if ph.name == "stone" then rec = ph end end
  T.ok(rec and rec.world, "the record of the phase has world")
  T.eq(rec.world.ops, rec.ops, "the record's world ops")
  T.eq(rec.world.stonewall.seconds, 0.25, "the record's stonewall")
  T.ok(rec.world.lat and rec.world.lat.p99 > 0, "the merged latency figures")
end)

T.test("collective phase: errors name the option, at the script's line", function()
  local cases = {
    { "{ collective = true, bogus = 1 }", "s.lua:2: phase: unknown option 'bogus'" },
    { "{ collective = true, wearout = true }", "s.lua:2: phase: 'wearout' needs 'stonewall'" },
    { "{ collective = true, stonewall = 'x' }", "s.lua:2: phase: 'stonewall': bad duration 'x'" },
    { "{ collective = true, stonewall = -1 }", "s.lua:2: phase: 'stonewall' must be more than 0" },
  }
  for _, c in ipairs(cases) do
    local _, err, rc = run("local p = require 'platter'\np.phase('x', function() end, " .. c[1] .. ")\n",
      { "--sim", "nvme" })
    T.eq(rc, 1, c[1])
    T.has(err, c[2], c[1])
  end
  local _, err, rc = run("local p = require 'platter'\np.phase('x', nil, { collective = true })\n")
  T.eq(rc, 1, "no function")
  T.has(err, "s.lua:2: phase: a collective phase needs a function", "no function")
  _, err, rc = run([[
local p = require 'platter'
p.phase('a', function() p.phase('b', function() end, { collective = true }) end, { collective = true })
]])
  T.eq(rc, 1, "nested")
  T.has(err, "s.lua:2: phase: collective phase 'b' inside 'a'", "nested")
  _, err, rc = run([[
local p = require 'platter'
local f = assert(p.open("x", { create = true, write = true, size = "1m" }))
p.phase('a', function() p.run { file = f, op = "write", bogus = 1 } end, { collective = true })
]], { "--sim", "nvme" })
  T.eq(rc, 1, "p.run error")
  T.has(err, "s.lua:3: run:", "a p.run error inside is at the script's line")
end)

T.test("p.phase and p.run errors are at the script's line on both flavours", function()
  local cases = {
    { "p.phase('x', function() end, { cache = 1 })",
      "s.lua:3: bad argument #3 to 'phase' ('cache' must be a boolean)" },
    { "p.run { file = f, bogus = 1 }", "s.lua:3: run: unknown field 'bogus'" },
    { "p.run { file = f, gen = function() return 'nope', 0, 4096 end }",
      "s.lua:3: gen: I/O 1: op must be \"read\", \"write\" or \"fsync\"" },
  }
  for _, c in ipairs(cases) do
    local _, err, rc = run("local p = require 'platter'\nlocal f = assert(p.open('x', { create = true, "
      .. "write = true, size = '1m' }))\n" .. c[1] .. "\n", { "--sim", "nvme" })
    T.eq(rc, 1, c[1])
    T.has(err, c[2], c[1])
  end
end)

T.test("IOR's layouts: rank_file, segments, reorder", function()
  local m = p.mpi
  T.eq(m.rank_file("testFile"), "testFile.00000000", "this rank")
  T.eq(m.rank_file("d/f", 12), "d/f.00000012", "rank 12")
  -- IOR's GetOffsetArraySequential: shared file, 4 ranks, 2 segments of 2 transfers
  local o = m.segments { block = "8k", xfer = "4k", segments = 2, rank = 1, ranks = 4 }
  T.eq(table.concat(o, ","), "8192,12288,40960,45056", "shared file, rank 1")
  o = m.segments { block = 8192, xfer = 4096, segments = 2, rank = 1, ranks = 4, shared = false }
  T.eq(table.concat(o, ","), "0,4096,8192,12288", "file per rank")
  T.eq(#m.segments { block = 1024, segments = 3 }, 3, "xfer defaults to the block")
  T.eq(select(2, pcall(m.segments, { block = 8192, xfer = 3000 })):match("multiple") ~= nil, true,
    "block a multiple of xfer")
  -- -C: one node on; ranks filled node by node (by slot) or round-robin (by node)
  T.eq(m.reorder(1, { rank = 0, ranks = 8, per_node = 4, block = true }), 4, "by slot, 1 node on")
  T.eq(m.reorder(1, { rank = 6, ranks = 8, per_node = 4, block = true }), 2, "wraps")
  T.eq(m.reorder(1, { rank = 0, ranks = 8, per_node = 4, block = false }), 1, "by node")
  T.eq(m.reorder(2, { rank = 3, ranks = 8, per_node = 4, block = false }), 5, "2 nodes on")
  T.eq(m.reorder(1), 0, "one rank: its own data")
end)
