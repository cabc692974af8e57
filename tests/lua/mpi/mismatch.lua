-- Rank 3 calls barrier('read') while the others reduce 'write'.
local p = require "platter"
local m = p.mpi
m.barrier("start")
if m.rank == 3 then
  m.barrier("read")
else
  m.reduce(p.phase("write", function() end))
end
