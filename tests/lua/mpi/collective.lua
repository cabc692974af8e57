-- A collective phase of 4 ranks, each with its own stream (think times differ by
-- rank), or with "ref" the same four streams in one process (p.parallel workers,
-- each a copy of the simulated disk as a rank has its own): the time the first
-- rank finished and what all had done by then.
local p = require "platter"
local m = p.mpi
local function stream(i, timeline)
  local f = assert(p.open("s" .. i .. ".dat", { create = true, write = true, size = "8m" }))
  local r = p.run { file = f, pattern = "random", bs = 4096, count = 100 + 50 * i, seed = 7 + i,
    think_us = 30 * (i + 1), timeline = timeline }
  f:close()
  return r
end
local function show(first, ops, bytes, last, total)
  return string.format("first=%.9f ops=%d bytes=%d last=%.9f total=%d", first, ops, bytes, last, total)
end
if arg[1] == "ref" then
  -- pass 1: how long each stream takes; pass 2: each replayed, counted at the first end
  local res = p.parallel(4, function(i)
    local t0 = p.now()
    local r = stream(i - 1, true)
    return r, { secs = (p.now() - t0) / 1e9 }
  end)
  local first, last, total = math.huge, 0, 0
  for i = 1, 4 do
    first, last = math.min(first, res.values[i].secs), math.max(last, res.values[i].secs)
    total = total + res[i].ops
  end
  local res2 = p.parallel(4, function(i)
    local t0 = p.now()
    local r = stream(i - 1, true)
    local o, b = r:done_by(t0 + first * 1e9)
    return r, { ops = o, bytes = b }
  end)
  local ops, bytes = 0, 0
  for i = 1, 4 do ops, bytes = ops + res2.values[i].ops, bytes + res2.values[i].bytes end
  print(show(first, ops, bytes, last, total))
else
  local s = p.phase("w", function() stream(m.rank) end, { collective = true })
  local w = s.world
  if m.rank == 0 then
    print(show(w.first_done.seconds, w.first_done.ops, w.first_done.bytes, w.last_done.seconds, w.ops))
    print("merged", w.merged.ops, "per_rank", w.per_rank[1].ops, w.per_rank[4].ops, "ranks", w.ranks)
  end
end
