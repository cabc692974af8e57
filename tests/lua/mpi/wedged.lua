-- Rank 1 never reaches the barrier the others wait in (it sleeps far longer
-- than PLATTER_MPI_TIMEOUT): the watchdog must abort the run, naming the
-- collective, instead of hanging.
local p = require "platter"
local m = p.mpi
if m.rank == 1 then p.sleep(60) end
m.barrier("wedged")
print("not reached")
