-- p.parallel inside each of 4 ranks: two forked workers per rank, merged in the
-- rank, then reduced across the ranks; a worker that calls a collective fails
-- with a clear error instead of talking MPI.
local p = require "platter"
local m = p.mpi
local f = assert(p.open("p" .. m.rank .. ".dat", { create = true, write = true, size = "4m" }))
local res = p.parallel(2, function(i)
  return p.run { file = f, op = "write", bs = 4096, count = 10 * i, seed = i }
end)
local bad = p.parallel(1, function() m.barrier("in a worker") end)
f:close()
p.remove("p" .. m.rank .. ".dat")
local merged = m.reduce(res.merged)
local failed = m.allgather(bad.failed[1] and bad.failed[1].error or "none")
if m.rank == 0 then
  print("ops", merged.ops)
  print("worker", failed[1])
  print("ranks", #failed)
end
