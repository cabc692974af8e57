-- Collective phases and platter ior under mpirun -np 4 --oversubscribe (Open
-- MPI, shared memory): first-done figures exactly those of one process running
-- the same four streams; a stonewall with wear-out leaving equal op counts; ior's
-- shared file checked block by block, a damaged block found, a file per rank,
-- and IOR's wear-out (-Y: an fsync per write keeps it short of the stonewall);
-- rank 0's record and its rerun under mpirun. Invariants only, never bandwidth.
-- Skips without mpirun or platter_mpi.so.
local T = ...

local H = dofile(T.src .. "/lua/mpi/harness.lua")(T, { timeout = 30, limit = 90 })
local env, scripts, need_mpi, mpirun = H.env, H.scripts, H.need_mpi, H.mpirun

T.test("mpi collective: first-done counted exactly, as one process counts the same streams", function()
  need_mpi()
  local d = T.tmpdir()
  local out, err, rc = mpirun(d, "--quiet --sim nvme " .. T.q(scripts .. "collective.lua"))
  T.eq(rc, 0, "status: " .. err)
  local got = out:match("(first=[^\n]*)")
  T.ok(got, "rank 0 printed: " .. out)
  local ref, err2, rc2 = T.platter { "--quiet", "--sim", "nvme", scripts .. "collective.lua", "ref" }
  T.eq(rc2, 0, "reference: " .. err2)
  T.eq(got, ref:gsub("\n$", ""), "the same first-done time, ops and bytes")
  T.has(out, "merged\t700\tper_rank\t100\t250\tranks\t4\n", "merged stats and per-rank counts")
  local ops, total = got:match("ops=(%d+) .* total=(%d+)")
  T.ok(tonumber(ops) > 100 and tonumber(ops) < tonumber(total), "between the first rank's and all: " .. got)
end)

T.test("mpi collective: a stonewall with wear-out leaves every rank with the same count", function()
  need_mpi()
  local d = T.tmpdir()
  local out, err, rc = mpirun(d, "--quiet " .. T.q(scripts .. "stonewall.lua"))
  T.eq(rc, 0, "status: " .. err)
  local a, b, c, e = out:match("per_rank (%d+) (%d+) (%d+) (%d+)")
  T.ok(a, "per-rank counts: " .. out)
  T.ok(a == b and b == c and c == e, "equal op counts after wear-out: " .. out)
  local lo, hi, wear, bounded, total = out:match("min=(%d+) max=(%d+) wearout_ops=(%d+) bounded=(%a+) "
    .. "total=(%d+)")
  T.ok(tonumber(lo) < tonumber(hi), "different counts at the stonewall: " .. out)
  T.eq(tonumber(hi), tonumber(a), "every rank reached the most")
  T.eq(bounded, "false", "wear-out was not cut short")
  T.eq(tonumber(total), 4 * tonumber(a), "the world's total")
  T.ok(tonumber(wear) > 0, "wear-out I/Os counted")
  T.eq(T.sh("ls " .. T.q(d)), "", "nothing left behind")
end)

T.test("mpi ior: a shared file of 4 ranks, every block checked; a damaged block is found", function()
  need_mpi()
  local d = T.tmpdir()
  local out, err, rc = mpirun(d, "ior -w -W -r -R -k -b 64k -t 16k -s 3")
  T.eq(rc, 0, "status: " .. err)
  T.has(out, "tasks               : 4\n", "4 tasks")
  T.has(out, "aggregate filesize  : 786432 bytes", "4 x 3 x 64 KiB")
  T.ok(not out:find("WARNING"), "the data moved is the expected size: " .. out)
  T.eq(T.sh("stat -c %s " .. T.q(d .. "/testFile")), "786432\n", "the file's size")
  -- rank 1's block of segment 2 is at (2 * 4 + 1) * 64 KiB: damage one byte of its data
  T.sh("printf 'X' | dd of=" .. T.q(d .. "/testFile") .. " bs=1 seek=" .. (9 * 65536 + 5000)
    .. " conv=notrunc status=none")
  local _, err2, rc2 = mpirun(d, "ior -r -R -b 64k -t 16k -s 3")
  T.eq(rc2, 1, "a bad block fails the run")
  local _, n = err2:gsub("platter: ior: rank 1: 1 bad blocks in testFile %(read check%)", "")
  T.eq(n, 1, "said once, by rank 0, naming rank 1: " .. err2)
end)

T.test("mpi ior: a file per rank (-F), and IOR's wear-out (-D with stoneWallingWearOut=1)", function()
  need_mpi()
  local d = T.tmpdir()
  local _, err, rc = mpirun(d, "ior -w -F -k -b 128k -t 32k -s 2")
  T.eq(rc, 0, "status: " .. err)
  T.eq(T.sh("cd " .. T.q(d) .. " && stat -c '%n %s' testFile.*"),
    "testFile.00000000 262144\ntestFile.00000001 262144\ntestFile.00000002 262144\ntestFile.00000003 262144\n",
    "4 files of 2 x 128 KiB")
  local out, err2, rc2 = mpirun(d, "ior -w -F -Y -b 64m -t 4k -D 1 -O stoneWallingWearOut=1")
  T.eq(rc2, 0, "status: " .. err2)
  local lo, hi = out:match("stonewalling pairs accessed min: (%d+) max: (%d+)")
  T.ok(lo and tonumber(lo) <= tonumber(hi), "IOR's stonewalling line: " .. out)
  T.has(out, "WARNING: Using actual aggregate bytes moved = " .. string.format("%d", 4 * tonumber(hi) * 4096),
    "after wear-out every rank moved the most's transfers")
  T.has(out, "Pairs deadlineForStonewallingaccessed: " .. hi, "IOR's pairs line")
end)

T.test("mpi record: rank 0's JSON has the MPI environment and world; rerun runs it under mpirun -np 4", function()
  need_mpi()
  local d = T.tmpdir()
  local _, err, rc = mpirun(d, "--json m.json --sim nvme " .. T.q(scripts .. "collective.lua"))
  T.eq(rc, 0, "status: " .. err)
  local cjson = require "cjson"
  local doc = cjson.decode(T.read(d .. "/m.json"))
  T.eq(doc.environment.mpi.size, 4, "environment.mpi.size")
  T.eq(doc.environment.mpi.nodes, 1, "environment.mpi.nodes")
  T.has(doc.environment.mpi.library, "Open MPI", "the library")
  local w
  for _, ph in ipairs(doc.phases) do if ph.name == "w" then w = ph.world end end
  T.ok(w and w.ranks == 4 and #w.per_rank == 4 and w.ops == 700, "the phase's world")
  local out, err2, rc2 = T.sh("cd " .. T.q(d) .. " && " .. T.q(T.bin) .. " rerun --dry-run m.json")
  T.eq(rc2, 0, "dry run: " .. err2)
  T.has(out, "'mpirun' '-np' '4' ", "the command starts mpirun with 4 ranks")
  T.has(err2, "rerun: the record was made by 4 MPI ranks on 1 node: this run needs mpirun -np 4",
    "says what it needs")
  local _, err3, rc3 = T.sh("cd " .. T.q(d) .. " && " .. env .. T.q(T.bin) .. " rerun --quiet --json m2.json m.json")
  T.eq(rc3, 0, "rerun: " .. err3)
  local again = cjson.decode(T.read(d .. "/m2.json"))
  T.eq(again.environment.mpi.size, 4, "the rerun had 4 ranks")
  local _, err4, rc4 = T.sh("cd " .. T.q(d) .. " && " .. T.q(T.bin) .. " compare m.json m2.json >/dev/null")
  T.eq(rc4, 0, "compare reads both: " .. err4)
  local _, _, gp = T.sh("command -v gnuplot")
  if gp == 0 then
    local _, err5, rc5 = T.sh("cd " .. T.q(d) .. " && " .. T.q(T.bin) .. " plot m.json -o m.svg")
    T.eq(rc5, 0, "plot reads it: " .. err5)
    T.has(T.read(d .. "/m.svg") or "", "<svg", "an svg")
  end
end)

T.test("mpi: p.parallel inside every rank; a worker's collective is refused, not sent", function()
  need_mpi()
  local d = T.tmpdir()
  local out, err, rc = mpirun(d, "--quiet --sim nvme " .. T.q(scripts .. "parallel.lua"))
  T.eq(rc, 0, "status: " .. err)
  T.has(out, "ops\t120\n", "4 ranks x (10 + 20) I/Os of their workers")
  T.has(out, "called in a p.parallel worker", "the worker's collective refused: " .. out)
  T.has(out, "ranks\t4\n", "every rank")
end)
