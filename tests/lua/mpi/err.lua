-- Rank 2 fails after the first phase; the others are waiting at "two".
local p = require "platter"
local m = p.mpi
local f = assert(p.open("e" .. m.rank .. ".dat", { create = true, write = true, size = "64k" }))
p.phase("first", function() f:pread(0, 4096) end)
m.barrier("one")
if m.rank == 2 then error("rank two broke") end
p.phase("second", function() f:pread(0, 4096) end)
m.barrier("two")
p.phase("never", function() end)
