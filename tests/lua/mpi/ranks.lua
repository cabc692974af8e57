-- Run by tests/lua/test_mpi_run.lua under mpirun -np 4: identity, barrier
-- order, values, and the CPU a waiting rank burns. Each rank writes its
-- findings to ARG.<rank> (trusted run).
local p = require "platter"
local m = p.mpi
local out = {}
local function put(k, v) out[#out + 1] = k .. "=" .. tostring(v) end
put("rank", m.rank)
put("size", m.size)
put("node", m.node)
put("nodes", m.nodes)
put("local_rank", m.local_rank)
put("local_size", m.local_size)
put("active", m.active)
put("library", m.library:match("^Open MPI") and "openmpi" or m.library)
-- barrier order: rank 3 is late; nobody leaves the barrier before it arrived
m.barrier("start")
if m.rank == 3 then p.sleep(0.3) end
local arrived = m.rank == 3 and p.now() or nil
m.barrier("late")
local left = p.now()
local late = m.bcast(arrived, 3)
put("left_after_late", left >= late)
put("bcast", m.bcast({ from = m.rank }, 2).from)
local g = m.gather(m.rank * 10, 1)
put("gather", g and table.concat(g, ",") or "nil")
put("allgather", table.concat(m.allgather(m.rank + 0.5), ","))
put("sum", m.allreduce(m.rank, "sum"))
put("min", m.allreduce(m.rank + 1.5, "min"))
put("max", m.allreduce(m.rank, "max"))
put("and", m.allreduce(m.rank ~= 2, "and"))
put("or", m.allreduce(m.rank == 2, "or"))
put("agree_all", m.agree(true))
put("agree_one_no", m.agree(m.rank ~= 1))
-- a waiting rank sleeps: rank 0 arrives 1 s after the others
m.barrier("cpu")
local r0, t0 = p.rusage(), p.now()
if m.rank == 0 then p.sleep(1) end
m.barrier("waited")
local r1, t1 = p.rusage(), p.now()
put("wait_s", (t1 - t0) / 1e9)
put("wait_cpu_s", (r1.user + r1.sys) - (r0.user + r0.sys))
local maps = io.open("/proc/self/maps"):read("*a")
put("module_mapped", maps:find("platter_mpi.so", 1, true) ~= nil)
local fh = assert(io.open(arg[1] .. "." .. m.rank, "w"))
fh:write(table.concat(out, "\n"), "\n")
fh:close()
