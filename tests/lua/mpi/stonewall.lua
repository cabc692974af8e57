-- A collective phase with a stonewall and wear-out: rank r thinks 100 * (r + 1) us
-- between I/Os, so at the stonewall the ranks have done different counts; wear-out
-- then brings every rank to the count of the one that did most.
local p = require "platter"
local m = p.mpi
local f = assert(p.open("w" .. m.rank .. ".dat", { create = true, write = true, size = "16m" }))
local s = p.phase("stone", function()
  p.run { file = f, op = "write", pattern = "random", bs = 4096, seconds = 60, think_us = 100 * (m.rank + 1) }
end, { collective = true, stonewall = "0.4s", wearout = true, wearout_max = "30s" })
f:close()
p.remove("w" .. m.rank .. ".dat")
local w = s.world
if m.rank == 0 then
  local ops = {}
  for i, r in ipairs(w.per_rank) do ops[i] = r.ops end
  print("per_rank " .. table.concat(ops, " "))
  print(string.format("stonewall min=%d max=%d wearout_ops=%d bounded=%s total=%d", w.stonewall.ops_min,
    w.stonewall.ops_max, w.stonewall.wearout_ops, tostring(w.stonewall.bounded), w.ops))
end
