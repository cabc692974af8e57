-- p.mpi under mpirun -np 4 --oversubscribe (Open MPI, shared memory): identity,
-- barrier order, values, the CPU of a waiting rank, the exact merge of
-- p.mpi.reduce, a mismatch and a failed rank reported on every rank, and the
-- launch checks (module missing: exit 2; outside mpirun: module not loaded).
-- The kernel sandbox is on (no --trust, PLATTER_SANDBOX unset) except where
-- a script must write its findings. Skips without mpirun or platter_mpi.so.
local T = ...

local H = dofile(T.src .. "/lua/mpi/harness.lua")(T, { timeout = 20, limit = 60, tag = true })
local env, scripts, need_mpi, mpirun = H.env, H.scripts, H.need_mpi, H.mpirun

T.test("mpi run: identity, barrier order, values, a waiting rank sleeps", function()
  need_mpi()
  local d = T.tmpdir()
  local _, err, rc = mpirun(d, "--trust " .. T.q(scripts .. "ranks.lua") .. " " .. T.q(d .. "/out"))
  T.eq(rc, 0, "status: " .. err)
  for r = 0, 3 do
    local text = T.read(d .. "/out." .. r)
    if not text then error("rank " .. r .. " wrote nothing: " .. err) end
    local v = {}
    for k, x in text:gmatch("([%w_]+)=([^\n]*)") do v[k] = x end
    T.eq(v.rank, tostring(r), "rank")
    T.eq(v.size, "4", "size")
    T.eq(v.node, "0", "node")
    T.eq(v.nodes, "1", "nodes")
    T.eq(v.local_rank, tostring(r), "local_rank")
    T.eq(v.local_size, "4", "local_size")
    T.eq(v.active, "true", "active")
    T.eq(v.library, "openmpi", "library")
    T.eq(v.left_after_late, "true", "rank " .. r .. " left the barrier after the late rank came")
    T.eq(v.bcast, "2", "bcast from rank 2")
    T.eq(v.gather, r == 1 and "0,10,20,30" or "nil", "gather at root 1")
    T.eq(v.allgather, "0.5,1.5,2.5,3.5", "allgather")
    T.eq(v.sum, "6", "sum")
    T.eq(v.min, "1.5", "min")
    T.eq(v.max, "3", "max")
    T.eq(v["and"], "false", "and")
    T.eq(v["or"], "true", "or")
    T.eq(v.agree_all, "true", "agree")
    T.eq(v.agree_one_no, "false", "agree with one rank against")
    T.eq(v.module_mapped, "true", "the module is loaded")
    if r ~= 0 then
      local wait, cpu = tonumber(v.wait_s), tonumber(v.wait_cpu_s)
      T.ok(wait >= 0.9, "rank " .. r .. " waited " .. wait .. " s")
      T.ok(cpu < 0.2 * wait, string.format("rank %d burnt %.3f s of CPU in a %.3f s wait", r, cpu,
        wait))
    end
  end
end)

T.test("mpi run: reduce of 4 ranks is the s:merge of the 4 streams, bit for bit", function()
  need_mpi()
  local d = T.tmpdir()
  local out, err, rc = mpirun(d, "--quiet --sim nvme " .. T.q(scripts .. "merge.lua"))
  T.eq(rc, 0, "status: " .. err)
  local merged = out:match("%[1,0%]<stdout>:([^\n]*)")
  T.ok(merged, "rank 0 printed the merged stats: " .. out)
  T.eq(select(2, out:gsub("<stdout>:", "")), 1, "only rank 0 printed")
  local ref, err2, rc2 = T.platter { "--quiet", "--sim", "nvme", scripts .. "merge.lua", "ref" }
  T.eq(rc2, 0, "reference: " .. err2)
  T.eq(merged, ref:gsub("\n$", ""), "merged = one process's s:merge of the same streams")
  T.has(merged, "1600 6553600 ", "4 x 400 ops of 4 KiB")
end)

T.test("mpi run: a mismatch is reported on every rank, not hung", function()
  need_mpi()
  local d = T.tmpdir()
  local _, err, rc = mpirun(d, T.q(scripts .. "mismatch.lua"))
  T.ok(rc ~= 0 and rc ~= 124, "failed, not timed out: " .. tostring(rc))
  for r = 0, 3 do
    T.has(err, "[1," .. r .. "]<stderr>:platter: ", "rank " .. r .. " reported")
  end
  local _, n = err:gsub("rank 3 called barrier%('read'%) at [^\n]* while rank 0 called reduce%('write'%)", "")
  T.eq(n, 4, "the mismatch, once per rank: " .. err)
end)

T.test("mpi run: a failed rank ends all with 1; rank 0's JSON has the finished phases", function()
  need_mpi()
  local d = T.tmpdir()
  local _, err, rc = mpirun(d, "--json r.json " .. T.q(scripts .. "err.lua"))
  T.eq(rc, 1, "status")
  T.has(err, "[1,2]<stderr>:platter: " .. scripts .. "err.lua:7: rank two broke", "rank 2's error")
  for _, r in ipairs { 0, 1, 3 } do
    T.has(err, "[1," .. r .. "]<stderr>:platter: " .. scripts .. "err.lua:9: rank 2 failed: ",
      "rank " .. r)
  end
  local cjson = require "cjson"
  local text = T.read(d .. "/r.json")
  T.ok(text, "rank 0 wrote r.json: " .. err)
  local rec = cjson.decode(text)
  local names = {}
  for _, ph in ipairs(rec.phases) do names[#names + 1] = ph.name end
  T.eq(table.concat(names, ","), "first,second", "the finished phases")
  T.eq(rec.status.exit, 1, "status.exit")
  T.has(rec.status.message, "rank 2 failed", "status.message")
end)

T.test("mpi run: started by mpirun without the module: exit 2, one clear message", function()
  need_mpi()
  local d = T.tmpdir()
  local _, err, rc = T.sh("cd " .. T.q(d) .. " && PLATTER_MPI_MODULE=/nonexistent/platter_mpi.so " .. env
    .. "timeout 60 mpirun -np 2 --oversubscribe " .. T.q(T.bin) .. " -e ''")
  T.ok(rc ~= 0, "failed")
  T.has(err, "platter: started by mpirun (OMPI_COMM_WORLD_SIZE=2) but the MPI module cannot be "
    .. "loaded", "message")
  local _, err2, rc2 = T.sh("OMPI_COMM_WORLD_SIZE=4 PLATTER_MPI_MODULE=/nonexistent " .. T.q(T.bin)
    .. " -e 'print(1)'")
  T.eq(rc2, 2, "exit status 2")
  T.has(err2, "started by mpirun (OMPI_COMM_WORLD_SIZE=4)", "names the variable")
end)

T.test("mpi run: outside mpirun the module is not loaded", function()
  local out, err, rc = T.platter { "--trust", "-e",
    "local m = io.open('/proc/self/maps'):read('*a') print(m:find('platter_mpi', 1, true) "
    .. "~= nil, m:find('libmpi', 1, true) ~= nil, require('platter').mpi.active)" }
  T.eq(rc, 0, "status: " .. err)
  T.eq(out, "false\tfalse\tfalse\n", "neither platter_mpi.so nor libmpi mapped")
end)

T.test("mpi run: a build without MPI started by mpirun: exit 2, never N independent runs", function()
  local v = T.platter { "--version", "-v" }
  if not v:find("mpi: not built in", 1, true) then T.skip("this build has MPI (the package build has not)") end
  local _, _, has = T.sh("command -v mpirun")
  if has ~= 0 then T.skip("mpirun not found (Debian openmpi-bin)") end
  local d = T.tmpdir()
  local out, err, rc = T.sh("cd " .. T.q(d) .. " && " .. env .. "timeout 60 mpirun -np 2 --oversubscribe "
    .. T.q(T.bin) .. " -e 'print(\"ran\")'")
  T.ok(rc ~= 0, "failed")
  T.ok(not out:find("ran", 1, true), "no rank ran the script")
  T.has(err, "platter: started by mpirun (OMPI_COMM_WORLD_SIZE=2) but built without MPI support", "message")
end)

T.test("mpi run: a rank that never comes: the watchdog aborts the run, naming the collective", function()
  need_mpi()
  local d = T.tmpdir()
  local t0 = os.time()
  local out, err, rc = T.sh("cd " .. T.q(d) .. " && " .. env:gsub("PLATTER_MPI_TIMEOUT=%d+", "PLATTER_MPI_TIMEOUT=2")
    .. "timeout 60 mpirun -np 2 --oversubscribe " .. T.q(T.bin) .. " " .. T.q(scripts .. "wedged.lua"))
  T.ok(rc ~= 0 and rc ~= 124, "aborted, not killed by timeout: " .. tostring(rc))
  T.ok(os.time() - t0 < 40, "well before the sleeping rank woke")
  T.ok(not out:find("not reached", 1, true), "no rank went past the barrier")
  T.has(err, "barrier('wedged')", "the collective named: " .. err)
  T.has(err, "waited more than 2 s", "the timeout said")
end)
