-- What the mpirun tests share (test_mpi_run.lua, test_mpi_collective.lua):
--   local H = dofile(T.src .. "/lua/mpi/harness.lua")(T, { timeout = 20, limit = 60, tag = true })
-- H.env: the environment of a run on this machine's cores as root (Open MPI over
-- shared memory, oversubscribed, the platter watchdog at `timeout` s, LeakSanitizer
-- off in the ranks: Open MPI leaves its components' allocations at exit, reported
-- from modules unloaded by then; ASan's other checks stay on); H.scripts: the rank
-- scripts' directory; H.need_mpi(): skip without mpirun or platter_mpi.so;
-- H.mpirun(cwd, args): mpirun -np 4 platter ARGS in cwd, within `limit` s
-- (`tag`: stderr lines tagged [1,rank]<stderr>:) -> stdout, stderr, status.
return function(T, o)
  local dir = T.bin:match("^(.*)/[^/]*$") or "."
  local H = {}
  H.env = "ASAN_OPTIONS=detect_leaks=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
    .. "OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1 "
    .. "PLATTER_MPI_TIMEOUT=" .. o.timeout .. " "
  H.scripts = T.src .. "/lua/mpi/"
  function H.need_mpi()
    local _, _, rc = T.sh("command -v mpirun")
    if rc ~= 0 then T.skip("mpirun not found (Debian openmpi-bin)") end
    if not T.read(dir .. "/platter_mpi.so") then T.skip("built without MPI (-DPLATTER_MPI)") end
  end
  function H.mpirun(cwd, args)
    return T.sh("cd " .. T.q(cwd) .. " && " .. H.env .. "timeout " .. o.limit .. " mpirun -np 4 --oversubscribe "
      .. (o.tag and "--tag-output " or "") .. T.q(T.bin) .. " " .. args)
  end
  return H
end
