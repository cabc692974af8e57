-- IOR 3.3.0: MPI-coordinated parallel I/O (POSIX API), one rank per process under mpirun
--
-- As IOR's ior.c does it, for each repetition (-i): every rank writes (-w)
-- its blocks of the test file (-o), the ranks meet at a barrier, then read
-- them back (-r), then the file is removed (unless -k). A rank's data is -s
-- segments of one -b block each, moved in -t transfers. In a shared file
-- (the default) segment i of rank r starts at (i * ranks + r) * block; with
-- -F each rank has its own file, NAME.%08d, and segment i starts at
-- i * block. Each access is timed as IOR times it: open, data (wr/rd),
-- close, on every rank, relative to the barrier that starts the access, so
-- that clock offsets between nodes drop out; the table's figures are
--   bw      = bytes moved by all ranks / (latest close end - earliest open start)
--   IOPS    = transfers of all ranks / (latest data end - earliest data start)
--   latency = a rank's data time / (block / xfer), the smallest over the ranks
--   open, wr/rd, close = latest end - earliest start of that step
-- (IOR 3.3.0 prints rank 0's latency where its comment says the smallest;
-- platter prints the smallest.) -C reads back the blocks of the rank one
-- node further on (-Q nodes), -Z of a random one, so that a rank does not
-- read its own data from its client cache. -D stops an access after N
-- seconds; with -O stoneWallingWearOut=1 every rank then goes on until it
-- has done as many transfers as the rank that did most (an allreduce), so
-- all ranks move the same data. -W and -R check the data: the blocks carry
-- platter's verify header (offset and checksum, see docs/api.md) instead of
-- IOR's rank and timestamp words.
--
-- The output is IOR 3.3.0's (ior-output.c): the header, Options, the
-- Results table, `Max Write:`/`Max Read:` and the `Summary of all tests`
-- table; `-O summaryFormat=JSON` prints the same as JSON, with IOR's key
-- names but valid (IOR 3.3.0's JSON is not). Only rank 0 prints.
local p = require "platter"
-- the manifest (platter describe, platter plan); the arguments are read below,
-- with the original tool's syntax
p.script({
  name = "ior", version = "1.0", api = "platter/1", args = "own",
  description = "IOR 3.3.0: parallel writes and reads across MPI ranks",
  params = {
    file = { type = "path", flag = "-o", arg = "FILE", default = "testFile", help = "the test file" },
    block = { type = "size", flag = "-b", default = "1m", help = "contiguous bytes per task" },
    transfer = { type = "size", flag = "-t", default = "256k", help = "bytes per transfer" },
    segments = { type = "int", flag = "-s", default = 1, help = "number of segments" },
    write = { type = "bool", flag = "-w", help = "write the file" },
    read = { type = "bool", flag = "-r", help = "read the file" },
    file_per_proc = { type = "bool", flag = "-F", help = "a file per process" },
  },
  needs = { write = true, device = "file" },
}, ...)

local NAME = "ior"
local VERSION = "3.3.0"
local KiB, MiB, MB = 1024, 1048576, 1000000
local argv = { ... }

local o = p.args({
  name = NAME,
  usage = "[options]",
  summary = "IOR " .. VERSION .. ": timed parallel writes and reads of a shared file or a file per rank "
    .. "(POSIX API); run it under mpirun, one rank per process.",
  options = {
    { "-a", arg = "API", default = "POSIX", help = "API for I/O: POSIX (the only one platter has)" },
    { "-A", arg = "N", type = "int", default = 0, help = "refNum -- a reference number for the summary" },
    { "-b", arg = "SIZE", default = "1m", help = "blockSize -- contiguous bytes per task (8, 4k, 2m, 1g)" },
    { "-C", help = "reorderTasks -- changes task ordering for readback (useful to avoid client cache)" },
    { "-d", arg = "S", type = "int", default = 0, help = "interTestDelay -- delay between reps in seconds" },
    { "-D", arg = "S", type = "int", default = 0, help = "deadlineForStonewalling -- seconds per access" },
    { "-e", help = "fsync -- perform a fsync() operation at the end of each read/write phase" },
    { "-E", help = "useExistingTestFile -- do not remove test file before write access" },
    { "-F", help = "filePerProc -- file-per-process" },
    { "-g", help = "intraTestBarriers -- use barriers between open, write/read, and close" },
    { "-G", arg = "N", type = "int", default = 0, help = "setTimeStampSignature -- the seed of -z" },
    { "-i", arg = "N", type = "int", default = 1, help = "repetitions -- number of repetitions of test" },
    { "-k", help = "keepFile -- don't remove the test file(s) on program exit" },
    { "-m", help = "multiFile -- use number of reps (-i) for multiple file count" },
    { "-N", arg = "N", type = "int", help = "numTasks -- tasks taking part (the first N ranks)" },
    { "-o", arg = "FILE", default = "testFile", help = "testFile -- full name for test" },
    { "-O", arg = "KEY=VALUE", multi = true, help = "IOR directives (stoneWallingWearOut=1,summaryFormat=JSON)" },
    { "-Q", arg = "N", type = "int", default = 1, help = "taskPerNodeOffset -- nodes on for -C and -Z" },
    { "-r", help = "readFile -- read existing file" },
    { "-R", help = "checkRead -- verify that the output of read matches the expected signature" },
    { "-s", arg = "N", type = "int", default = 1, help = "segmentCount -- number of segments" },
    { "-t", arg = "SIZE", default = "256k", help = "transferSize -- bytes per transfer (8, 4k, 2m, 1g)" },
    { "-T", arg = "MIN", type = "int", default = 0, help = "maxTimeDuration -- minutes for the repetitions" },
    { "-u", help = "uniqueDir -- use unique directory name for each file-per-process" },
    { "-v", count = true, help = "verbose -- output information (repeating flag increases level)" },
    { "-w", help = "writeFile -- write file" },
    { "-W", help = "checkWrite -- check read after write" },
    { "-X", arg = "N", type = "int", default = 0, help = "reorderTasksRandomSeed -- random seed for -Z option" },
    { "-Y", help = "fsyncPerWrite -- perform sync operation after every write operation" },
    { "-z", help = "randomOffset -- access is to random, not sequential, offsets within a file" },
    { "-Z", help = "reorderTasksRandom -- changes task ordering to random ordering for readback" },
    { "--posix.odirect", help = "Direct I/O Mode (O_DIRECT)" },
  },
  epilog = "Run it as `mpirun -np N platter ior ...`; alone it is one rank. Sizes take IOR's k, m,\n"
    .. "g and t (powers of 1024). -O takes stoneWallingWearOut=0|1, summaryFormat=default|JSON,\n"
    .. "and the long names of the options above (blockSize=, transferSize=, segmentCount=, ...).",
}, ...)

local mpi = p.mpi
local rank, size = mpi.rank, mpi.size

-- IOR's ERR(): on every rank, so no rank waits in a collective for it
local function die(msg)
  p.flush()
  p.ewrite("platter: ", NAME, ": ", msg, "\n")
  p.exit(1)
end

local function bytes(flag, v)
  local n, why = p.parse_size(tostring(v))
  if not n then p.usage_error(NAME, flag .. ": " .. why) end
  return n
end

-- The parameters, under IOR's names.
local P = {
  api = o.a, refNum = o.A, blockSize = bytes("-b", o.b), transferSize = bytes("-t", o.t),
  segmentCount = o.s, repetitions = o.i, testFileName = o.o, filePerProc = o.F and 1 or 0,
  reorderTasks = o.C and 1 or 0, reorderTasksRandom = o.Z and 1 or 0, reorderTasksRandomSeed = o.X,
  taskPerNodeOffset = o.Q, interTestDelay = o.d, deadlineForStonewalling = o.D,
  stoneWallingWearOut = 0, fsync = o.e and 1 or 0, fsyncPerWrite = o.Y and 1 or 0,
  useExistingTestFile = o.E and 1 or 0, intraTestBarriers = o.g and 1 or 0, keepFile = o.k and 1 or 0,
  multiFile = o.m and 1 or 0, uniqueDir = o.u and 1 or 0, randomOffset = o.z and 1 or 0,
  readFile = o.r and 1 or 0, writeFile = o.w and 1 or 0, checkWrite = o.W and 1 or 0,
  checkRead = o.R and 1 or 0, setTimeStampSignature = o.G, maxTimeDuration = o.T, verbose = o.v,
  numTasks = o.N or size, odirect = o["posix.odirect"] and 1 or 0, summaryFormat = "default",
}

-- -O KEY=VALUE[,KEY=VALUE...]: IOR's directives, by its long names (case does not matter)
local directive = {
  stonewallingwearout = "stoneWallingWearOut", summaryformat = "summaryFormat",
  blocksize = "blockSize", transfersize = "transferSize", segmentcount = "segmentCount",
  repetitions = "repetitions", testfile = "testFileName", fileperproc = "filePerProc",
  reordertasks = "reorderTasks", reordertasksconstant = "reorderTasks",
  reordertasksrandom = "reorderTasksRandom", reordertasksrandomseed = "reorderTasksRandomSeed",
  taskpernodeoffset = "taskPerNodeOffset", intertestdelay = "interTestDelay",
  deadlineforstonewalling = "deadlineForStonewalling", fsync = "fsync", fsyncperwrite = "fsyncPerWrite",
  useexistingtestfile = "useExistingTestFile", intratestbarriers = "intraTestBarriers",
  keepfile = "keepFile", multifile = "multiFile", uniquedir = "uniqueDir", randomoffset = "randomOffset",
  readfile = "readFile", writefile = "writeFile", checkwrite = "checkWrite", checkread = "checkRead",
  settimestampsignature = "setTimeStampSignature", maxtimeduration = "maxTimeDuration",
  verbose = "verbose", numtasks = "numTasks", api = "api", refnum = "refNum",
}
for _, arg in ipairs(o.O) do
  for item in arg:gmatch("[^,]+") do
    local k, v = item:match("^%s*([%w.]+)%s*=%s*(.-)%s*$")
    if not k then p.usage_error(NAME, "-O " .. item .. ": not KEY=VALUE") end
    local key = directive[k:lower()]
    if not key then p.usage_error(NAME, "-O " .. item .. ": unrecognized directive " .. k) end
    if key == "summaryFormat" then
      local f = v:lower()
      if f ~= "default" and f ~= "json" then
        p.usage_error(NAME, "-O " .. item .. ": summaryFormat must be default or JSON (platter has no CSV)")
      end
      P.summaryFormat = f
    elseif key == "testFileName" or key == "api" then
      P[key] = v
    elseif key == "blockSize" or key == "transferSize" then
      P[key] = bytes("-O " .. k, v)
    else
      local n = tonumber(v)
      if not n or n ~= math.floor(n) then p.usage_error(NAME, "-O " .. item .. ": not an integer") end
      P[key] = n
    end
  end
end
local json = P.summaryFormat == "json"

-- ValidateTests (ior.c): the same rules and words
if P.api:upper() ~= "POSIX" then
  p.usage_error(NAME, "-a " .. P.api .. ": platter has only the POSIX API")
end
P.api = "POSIX"
if P.readFile == 0 and P.writeFile == 0 and P.checkWrite == 0 and P.checkRead == 0 then
  P.readFile, P.writeFile = 1, 1
end
local function invalid(msg) p.usage_error(NAME, msg) end
if P.repetitions <= 0 then invalid("too few test repetitions") end
if P.numTasks <= 0 then invalid("too few tasks for testing") end
if P.numTasks > size then
  invalid(string.format("-N %d: more tasks than the %d ranks mpirun started", P.numTasks, size))
end
if P.segmentCount < 0 then invalid("segment count must be positive value") end
if P.blockSize % 8 ~= 0 then invalid("block size must be a multiple of access size") end
if P.transferSize % 8 ~= 0 then invalid("transfer size must be a multiple of access size") end
if P.transferSize == 0 then invalid("test will not complete with zero transfer size") end
if P.blockSize % P.transferSize ~= 0 then invalid("block size must be a multiple of transfer size") end
if P.blockSize < P.transferSize then invalid("block size must not be smaller than transfer size") end
if P.reorderTasks == 1 and P.reorderTasksRandom == 1 then
  invalid("Both Constant and Random task re-ordering specified. Choose one and resubmit")
end
if P.randomOffset == 1 and P.checkRead == 1 then invalid("random offset not available with read check option") end
if P.stoneWallingWearOut == 1 and P.deadlineForStonewalling == 0 then
  invalid("stoneWallingWearOut needs deadlineForStonewalling (-D)")
end
if p.config.sim and (P.checkWrite == 1 or P.checkRead == 1) then
  invalid("-W and -R check the data, which the simulated disk does not keep (--sim)")
end
if P.odirect == 1 and (P.transferSize % 512 ~= 0) then
  invalid("O_DIRECT (--posix.odirect) needs a transfer size that is a multiple of 512")
end

-- The ranks and nodes (IOR: tasks on node 0, and whether ranks fill a node before the next)
local tasks = P.numTasks
local nodes = mpi.nodes
-- every rank gets every rank's node, so each works the two figures out itself
local node_of = mpi.allgather(mpi.node)
local perNode0 = 0
for i = 1, tasks do if node_of[i] == node_of[1] then perNode0 = perNode0 + 1 end end
P.tasksBlockMapping = (tasks > 1 and node_of[2] == node_of[1]) and 1 or 0
P.numNodes, P.numTasksOnNode0 = nodes, perNode0
local participating = rank < tasks
P.expectedAggFileSize = P.blockSize * P.segmentCount * tasks
local transfers = math.floor(P.blockSize / P.transferSize)

local function say(...)
  if rank == 0 and not json then p.write(string.format(...)) p.flush() end
end
local function kv(key, value) say("%-20s: %s\n", key, value) end

local function now_string() return os.date("%a %b %e %H:%M:%S %Y") end

-- HumanReadable(value, BASE_TWO) of utilities.c
local function human(v)
  local T, G = 1024 * 1024 * MiB, 1024 * MiB
  for _, u in ipairs { { T, "TiB" }, { G, "GiB" }, { MiB, "MiB" } } do
    if v >= u[1] then
      if v % u[1] ~= 0 then return string.format("%.2f %s", v / u[1], u[2]) end
      return string.format("%d %s", math.floor(v / u[1]), u[2])
    end
  end
  return string.format("%d bytes", v)
end

-- PPDouble(1, x, append): 10 wide, left-justified, precision by size
local function pp(x, append)
  if x < 0 then return "   -      " .. append end
  local prec = x < 1 and 6 or (x < 3600 and 2 or 0)
  return string.format("%-10." .. prec .. "f%s", x, append)
end

-- GetTestFileName: the file a rank (or the rank it reads for) uses
local function file_name(r, rep)
  local name = P.testFileName
  if P.filePerProc == 1 then
    if P.uniqueDir == 1 then
      local dir, base = name:match("^(.*/)([^/]*)$")
      dir, base = dir or "", base or name
      local sub = dir .. tostring(r)
      if not p.stat(sub) then
        local ok, err = p.mkdir(sub)
        if not ok then die("cannot create directory: " .. sub .. ": " .. tostring(err)) end
      end
      name = sub .. "/" .. base
    end
    name = mpi.rank_file(name, r)
  end
  if P.multiFile == 1 then name = name .. "." .. rep end
  return name
end

-- The offsets a rank accesses (p.mpi.segments: IOR's GetOffsetArraySequential); -z
-- shuffles them, from platter's generator seeded by -G (all ranks the same order, as IOR's)
local function offsets(r)
  local list = mpi.segments { block = P.blockSize, xfer = P.transferSize, segments = P.segmentCount, rank = r,
    ranks = tasks, shared = P.filePerProc == 0 }
  if P.randomOffset == 1 then
    local seed = p.seed()
    p.seed(P.setTimeStampSignature + 1)
    for i = #list, 2, -1 do
      local j = p.random(1, i)
      list[i], list[j] = list[j], list[i]
    end
    p.seed(seed)
  end
  return list
end

-- The rank whose data this rank reads back (-C: p.mpi.reorder, Q nodes on, 2 for the -W
-- check; -Z: a random one at least Q nodes on)
local function read_offset(rep, check)
  if P.reorderTasks == 1 then
    local k = check and 2 or P.taskPerNodeOffset
    return (mpi.reorder(k, { rank = rank, ranks = tasks, per_node = P.numTasksOnNode0,
      block = P.tasksBlockMapping == 1 }) - rank) % tasks
  elseif P.reorderTasksRandom == 1 and not check then
    local nodeoffset = math.min(P.taskPerNodeOffset, P.numNodes - 1)
    local seed0 = P.reorderTasksRandomSeed < 0 and -P.reorderTasksRandomSeed + rep or P.reorderTasksRandomSeed
    local saved = p.seed()
    p.seed(rank + seed0 + 1)
    local off = p.random(0, tasks - 1)
    while off < nodeoffset * P.numTasksOnNode0 do off = p.random(0, tasks - 1) end
    p.seed(saved)
    return off
  end
  return 0
end

-- The size of a file, or nil when there is none (through p.open: the simulated disk has no p.stat)
local function file_size(name)
  local f = p.open(name)
  if not f then return nil end
  local n = f:size()
  f:close()
  return n
end

local function remove_files(rep)
  local name
  if P.filePerProc == 1 then
    if participating then name = file_name(rank, rep) end
  elseif rank == 0 then
    name = file_name(0, rep)
  end
  if name and file_size(name) then
    local ok, err = p.remove(name)
    if not ok then die(err) end
  end
end

-- One timed access: "write", "read" or the -W check. Returns rank 0's reduced figures.
local results = { write = {}, read = {} }
local start_all = p.now()

local function access(kind, rep)
  local check = kind == "check"
  local reading = kind ~= "write"
  local pretend = participating and (rank + (reading and read_offset(rep, check) or 0)) % tasks or 0
  local name = participating and file_name(P.filePerProc == 1 and pretend or 0, rep)
  local t = { 0, 0, 0, 0, 0, 0 }
  local moved, ops, err = 0, 0, nil
  local label = string.format("%s %d", kind, rep)
  if P.interTestDelay > 0 then p.sleep(P.interTestDelay) end
  mpi.barrier(label)
  local base = p.now()
  local function stamp(i) t[i] = (p.now() - base) / 1e9 end
  local f
  if participating then
    local why
    f, why = p.open(name, { write = not reading, create = not reading, direct = P.odirect == 1 })
    if not f then err = why end
  end
  stamp(2)
  if P.intraTestBarriers == 1 then mpi.barrier(label .. " open") end
  stamp(3)
  local list = participating and offsets(pretend) or {}
  local pairs_done = #list
  local function run(first, last, deadline)
    if first > last or err then return 0 end
    local sub, top = {}, 0
    for i = first, last do
      sub[#sub + 1] = list[i]
      if list[i] > top then top = list[i] end
    end
    local s = p.run {
      file = f, op = reading and "read" or "write", bs = P.transferSize, pattern = "list", offsets = sub,
      range = { 0, top + P.transferSize }, count = #sub, seconds = deadline, engine = "sync",
      name = string.format("%s %d", kind, rep),
      fsync_every = (not reading and P.fsyncPerWrite == 1) and 1 or nil,
      verify = (kind == "check" or P.checkRead == 1 or P.checkWrite == 1) and "crc32c" or nil,
    }
    if s.error then err = s.error end
    moved = moved + s.bytes
    if (s.verify_errors or 0) > 0 then
      err = string.format("%d bad blocks in %s (%s check)", s.verify_errors, name, kind)
    end
    -- transfers, not the fsyncs of -Y that p.run counts too
    local dir = reading and s.read or s.write
    return dir and dir.ops or 0
  end
  if participating then
    local deadline = P.deadlineForStonewalling > 0 and P.deadlineForStonewalling or nil
    ops = run(1, #list, deadline)
    pairs_done = ops
  end
  local wear
  if P.stoneWallingWearOut == 1 and not check then
    local stone_t = (p.now() - base) / 1e9 - t[3]
    local most = mpi.allreduce(ops, "max")
    local fewest = mpi.allreduce(ops, "min")
    local least_data = mpi.allreduce(moved, "min")
    local sum_data = mpi.allreduce(moved, "sum")
    wear = { pairs = most, min = fewest, min_data = least_data, sum_data = sum_data, time = stone_t }
    say("stonewalling pairs accessed min: %d max: %d -- min data: %.1f GiB mean data: %.1f GiB time: %.1fs\n",
      fewest, most, least_data / 2 ^ 30, sum_data / 2 ^ 30 / tasks, stone_t)
    if participating and ops < most then ops = ops + run(ops + 1, most) end
    pairs_done = ops
  end
  if participating and not err and not reading and P.fsync == 1 then f:fsync() end
  stamp(4)
  if P.intraTestBarriers == 1 then mpi.barrier(label .. " data") end
  stamp(5)
  if f then f:close() end
  stamp(6)
  if not reading then mpi.barrier(label .. " close") end
  -- an error on any rank ends every rank here, together
  local failed = mpi.allgather(err or false)
  for r, e in ipairs(failed) do
    if e then  -- every rank knows: rank 0 says it, all exit 1
      if rank == 0 then die(string.format("rank %d: %s", r - 1, e)) end
      p.exit(1)
    end
  end
  if check then return end
  -- ReduceIterResults: earliest starts, latest ends, over the participating ranks
  local all = mpi.allgather(participating and { t = t, moved = moved, ops = ops } or false)
  local lo, hi, agg, minlat = { math.huge, math.huge, math.huge }, { 0, 0, 0 }, 0, math.huge
  for _, a in ipairs(all) do
    if a then
      for i = 1, 3 do
        lo[i] = math.min(lo[i], a.t[2 * i - 1])
        hi[i] = math.max(hi[i], a.t[2 * i])
      end
      agg = agg + a.moved
      minlat = math.min(minlat, (a.t[4] - a.t[3]) / transfers)
    end
  end
  -- the size the files have now: each rank's own file summed, or the shared one
  local stat_size
  if P.filePerProc == 1 then
    stat_size = mpi.allreduce(participating and file_size(name) or 0, "sum")
  else
    stat_size = rank == 0 and file_size(name) or 0
  end
  local total = hi[3] - lo[1]
  local access_t = hi[2] - lo[2]
  local r = {
    access = kind, bw = agg / total, iops = (agg / P.transferSize) / access_t, latency = minlat,
    diff = { hi[1] - lo[1], hi[2] - lo[2], hi[3] - lo[3] }, total = total, rep = rep, agg = agg,
    stat = stat_size, pairs = pairs_done, wear = wear,
  }
  if rank == 0 and not json then
    if P.expectedAggFileSize ~= agg or stat_size ~= agg then
      say("WARNING: Expected aggregate file size       = %d.\n", P.expectedAggFileSize)
      say("WARNING: Stat() of aggregate file size      = %d.\n", stat_size)
      say("WARNING: Using actual aggregate bytes moved = %d.\n", agg)
      if P.deadlineForStonewalling > 0 then say("WARNING: maybe caused by deadlineForStonewalling\n") end
    end
    say("%-10s%s%s%s%s%s%s%s%s%s%-4d\n", kind, pp(r.bw / MiB, " "), pp(r.iops, " "), pp(r.latency, "  "),
      pp(P.blockSize / KiB, " "), pp(P.transferSize / KiB, " "), pp(r.diff[1], " "), pp(r.diff[2], " "),
      pp(r.diff[3], " "), pp(total, " "), rep)
  end
  return r
end

-- The header (PrintHeader, ShowTestStart, ShowSetup)
local began = now_string()
local cmdline = "ior"
for _, a in ipairs(argv) do cmdline = cmdline .. " " .. a end
if rank == 0 and not json then
  say("IOR-%s: MPI Coordinated Test of Parallel I/O\n", VERSION)
  kv("Began", began)
  kv("Command line", cmdline)
  kv("Machine", "Linux " .. p.hostname())
  kv("TestID", 0)
  kv("StartTime", began)
  if not p.config.sim then
    local dir = P.testFileName:match("^(.*)/[^/]*$") or "."
    local fs = p.statfs(dir)
    if fs then
      local hr, unit = fs.size / 2 ^ 30, "GiB"
      if hr > 1024 then hr, unit = fs.size / 2 ^ 40, "TiB" end
      kv("Path", fs.path)
      say("%-20s: %.1f %s   Used FS: %2.1f%%   Inodes: %.1f Mi   Used Inodes: %2.1f%%\n", "FS", hr, unit,
        (1 - fs.free / fs.size) * 100, fs.files / 2 ^ 20, (1 - fs.ffree / fs.files) * 100)
    end
  end
  say("\nOptions: \n")
  kv("api", P.api)
  kv("apiVersion", "")
  kv("test filename", P.testFileName)
  kv("access", P.filePerProc == 1 and "file-per-process" or "single-shared-file")
  kv("type", "independent")
  kv("segments", P.segmentCount)
  kv("ordering in a file", P.randomOffset == 1 and "random" or "sequential")
  if P.reorderTasks == 1 then
    kv("ordering inter file", "constant task offset")
    kv("task offset", P.taskPerNodeOffset)
  elseif P.reorderTasksRandom == 1 then
    kv("ordering inter file", "random task offset")
    kv("task offset", P.taskPerNodeOffset)
    kv("reorder random seed", P.reorderTasksRandomSeed)
  else
    kv("ordering inter file", "no tasks offsets")
  end
  kv("nodes", P.numNodes)
  kv("tasks", tasks)
  kv("clients per node", P.numTasksOnNode0)
  kv("repetitions", P.repetitions)
  kv("xfersize", human(P.transferSize))
  kv("blocksize", human(P.blockSize))
  kv("aggregate filesize", human(P.expectedAggFileSize))
  if P.deadlineForStonewalling > 0 then
    kv("stonewallingTime", P.deadlineForStonewalling)
    kv("stoneWallingWearOut", P.stoneWallingWearOut)
  end
  say("\nResults: \n")
  say("\naccess    bw(MiB/s)  IOPS       Latency(s)  block(KiB) xfer(KiB)  open(s)    wr/rd(s)   close(s)   "
    .. "total(s)   iter\n")
  say("------    ---------  ----       ----------  ---------- ---------  --------   --------   --------   "
    .. "--------   ----\n")
end

local removes = {}
for rep = 0, P.repetitions - 1 do
  if P.maxTimeDuration > 0 and (p.now() - start_all) / 6e10 >= P.maxTimeDuration then break end
  if P.writeFile == 1 then
    if P.useExistingTestFile == 0 then remove_files(rep) end
    results.write[#results.write + 1] = access("write", rep)
  end
  if P.checkWrite == 1 then access("check", rep) end
  if P.readFile == 1 or P.checkRead == 1 then
    results.read[#results.read + 1] = access("read", rep)
  end
  if P.keepFile == 0 then
    local t0 = p.now()
    mpi.barrier("remove " .. rep)
    remove_files(rep)
    mpi.barrier("removed " .. rep)
    local dt = (p.now() - t0) / 1e9
    removes[#removes + 1] = { rep = rep, time = dt }
    say("remove    -          -          -           -          -          -          -          -          "
      .. "%s%-4d\n", pp(dt, " "), rep)
  else
    mpi.barrier("kept " .. rep)
  end
end

-- bw and ops over the repetitions (bw_ops_values): max, min, mean, population sd
local function spread(list, per)
  local v = {}
  for i, r in ipairs(list) do v[i] = r.agg / per / r.total end
  local mx, mn, sum = -math.huge, math.huge, 0
  for _, x in ipairs(v) do mx, mn, sum = math.max(mx, x), math.min(mn, x), sum + x end
  local mean = sum / #v
  local var = 0
  for _, x in ipairs(v) do var = var + (mean - x) ^ 2 end
  return { max = mx, min = mn, mean = mean, sd = math.sqrt(var / #v) }
end

local function summary_row(kind, list)
  local bw, ops = spread(list, 1), spread(list, P.transferSize)
  local tsum, wt, wd = 0, 0, 0
  for _, r in ipairs(list) do
    tsum = tsum + r.total
    if r.wear then wt, wd = wt + r.wear.time, wd + r.wear.sum_data end
  end
  local n = #list
  local row = string.format("%-9s %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f %10.5f ", kind,
    bw.max / MiB, bw.min / MiB, bw.mean / MiB, bw.sd / MiB, ops.max, ops.min, ops.mean, ops.sd, tsum / n)
  if P.stoneWallingWearOut == 1 then
    row = row .. string.format("%10.2f %13.2f ", wt / n, wd / wt / MiB)
  else
    row = row .. string.format("%10s %13s ", "NA", "NA")
  end
  row = row .. string.format("%5d %6d %3d %4d %3d %5d %8d %9d %4d %6d %8d %8d %9.1f %3s %6d\n", 0, tasks,
    P.numTasksOnNode0, P.repetitions, P.filePerProc, P.reorderTasks, P.taskPerNodeOffset,
    P.reorderTasksRandom, P.reorderTasksRandomSeed, P.segmentCount, P.blockSize, P.transferSize,
    list[1].agg / MiB, P.api, P.refNum)
  return row, bw, ops, tsum / n, wt / math.max(n, 1), wt > 0 and wd / wt / MiB or 0
end

local function max_bw(list)
  local m = 0
  for _, r in ipairs(list) do m = math.max(m, r.agg / r.total) end
  return m
end

if rank == 0 and not json then
  if P.writeFile == 1 then say("Max Write: %.2f MiB/sec (%.2f MB/sec)\n", max_bw(results.write) / MiB,
      max_bw(results.write) / MB) end
  if P.readFile == 1 or P.checkRead == 1 then
    say("Max Read:  %.2f MiB/sec (%.2f MB/sec)\n", max_bw(results.read) / MiB, max_bw(results.read) / MB)
  end
  if P.stoneWallingWearOut == 1 and results.write[1] then
    say("Pairs deadlineForStonewallingaccessed: %d\n", results.write[1].wear.pairs)
  end
  say("\nSummary of all tests:")
  say("\n%-9s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s %13s", "Operation", "Max(MiB)", "Min(MiB)",
    "Mean(MiB)", "StdDev", "Max(OPs)", "Min(OPs)", "Mean(OPs)", "StdDev", "Mean(s)", "Stonewall(s)",
    "Stonewall(MiB)")
  say(" Test# #Tasks tPN reps fPP reord reordoff reordrand seed segcnt ")
  say("%8s %8s %9s %5s", " blksiz", "xsize", "aggs(MiB)", "API")
  say(" RefNum\n")
  if results.write[1] then say("%s", (summary_row("write", results.write))) end
  if results.read[1] then say("%s", (summary_row("read", results.read))) end
  kv("Finished", now_string())
end

-- -O summaryFormat=JSON: the same figures under IOR's keys and in its order, as valid JSON.
-- An object is a list of { key, value } pairs; a value is a string, an integer (int), a
-- double (dbl, IOR's %.4f), an object (obj) or a list (arr).
local function int(n) return { int = n } end
local function dbl(x) return { dbl = x } end
local function obj(t) return { obj = t } end
local function arr(t) return { arr = t } end
local function enc(v, ind)
  local pad = string.rep("  ", ind)
  if type(v) == "string" then
    return '"' .. v:gsub('[%c"\\]', function(c) return string.format("\\u%04x", c:byte()) end) .. '"'
  elseif v.int then return string.format("%d", v.int)
  elseif v.dbl then
    if v.dbl ~= v.dbl or v.dbl == math.huge or v.dbl == -math.huge then return '"' .. tostring(v.dbl) .. '"' end
    return string.format("%.4f", v.dbl)
  elseif v.obj then
    local parts = {}
    for _, kv2 in ipairs(v.obj) do parts[#parts + 1] = pad .. "  " .. enc(kv2[1], 0) .. ": " .. enc(kv2[2], ind + 1) end
    if #parts == 0 then return "{}" end
    return "{\n" .. table.concat(parts, ",\n") .. "\n" .. pad .. "}"
  else
    local parts = {}
    for _, x in ipairs(v.arr) do parts[#parts + 1] = pad .. "  " .. enc(x, ind + 1) end
    if #parts == 0 then return "[]" end
    return "[\n" .. table.concat(parts, ",\n") .. "\n" .. pad .. "]"
  end
end

if rank == 0 and json then
  local test = { { "TestID", int(0) }, { "StartTime", began } }
  local fs = (not p.config.sim) and p.statfs(P.testFileName:match("^(.*)/[^/]*$") or ".") or nil
  if fs then
    local hr, unit = fs.size / 2 ^ 30, "GiB"
    if hr > 1024 then hr, unit = fs.size / 2 ^ 40, "TiB" end
    local more = {
      { "Path", fs.path }, { "Capacity", string.format("%.1f %s", hr, unit) },
      { "Used Capacity", string.format("%2.1f%%", (1 - fs.free / fs.size) * 100) },
      { "Inodes", string.format("%.1f Mi", fs.files / 2 ^ 20) },
      { "Used Inodes", string.format("%2.1f%%", (1 - fs.ffree / fs.files) * 100) },
    }
    for _, x in ipairs(more) do test[#test + 1] = x end
  end
  local params = {}
  for _, k in ipairs { "testID", "refnum", "api", "platform", "testFileName", "deadlineForStonewall",
    "stoneWallingWearOut", "maxTimeDuration", "outlierThreshold", "options", "dryRun", "nodes", "memoryPerTask",
    "memoryPerNode", "tasksPerNode", "repetitions", "multiFile", "interTestDelay", "fsync", "fsyncperwrite",
    "useExistingTestFile", "uniqueDir", "singleXferAttempt", "readFile", "writeFile", "filePerProc",
    "reorderTasks", "reorderTasksRandom", "reorderTasksRandomSeed", "randomOffset", "checkWrite", "checkRead",
    "dataPacketType", "keepFile", "keepFileWithError", "quitOnError", "verbose", "data packet type",
    "setTimeStampSignature/incompressibleSeed", "collective", "segmentCount", "transferSize", "blockSize" } do
    local v = ({
      testID = int(0), refnum = int(P.refNum), api = P.api, platform = p.hostname() .. "(Linux)",
      testFileName = P.testFileName, deadlineForStonewall = int(P.deadlineForStonewalling),
      stoneWallingWearOut = int(P.stoneWallingWearOut), maxTimeDuration = int(P.maxTimeDuration),
      outlierThreshold = int(0), options = "(null)", dryRun = int(0), nodes = int(P.numNodes),
      memoryPerTask = int(0), memoryPerNode = int(0), tasksPerNode = int(P.numTasksOnNode0),
      repetitions = int(P.repetitions), multiFile = int(P.multiFile), interTestDelay = int(P.interTestDelay),
      fsync = int(P.fsync), fsyncperwrite = int(P.fsyncPerWrite), useExistingTestFile = int(P.useExistingTestFile),
      uniqueDir = int(P.uniqueDir), singleXferAttempt = int(0), readFile = int(P.readFile),
      writeFile = int(P.writeFile), filePerProc = int(P.filePerProc), reorderTasks = int(P.reorderTasks),
      reorderTasksRandom = int(P.reorderTasksRandom), reorderTasksRandomSeed = int(P.reorderTasksRandomSeed),
      randomOffset = int(P.randomOffset), checkWrite = int(P.checkWrite), checkRead = int(P.checkRead),
      dataPacketType = int(0), keepFile = int(P.keepFile), keepFileWithError = int(0), quitOnError = int(0),
      verbose = int(P.verbose), ["data packet type"] = "g",
      ["setTimeStampSignature/incompressibleSeed"] = int(P.setTimeStampSignature), collective = int(0),
      segmentCount = int(P.segmentCount), transferSize = int(P.transferSize), blockSize = int(P.blockSize),
    })[k]
    params[#params + 1] = { k, v }
  end
  test[#test + 1] = { "Parameters", obj(params) }
  local opts = {
    { "api", P.api }, { "apiVersion", "" }, { "test filename", P.testFileName },
    { "access", P.filePerProc == 1 and "file-per-process" or "single-shared-file" }, { "type", "independent" },
    { "segments", int(P.segmentCount) }, { "ordering in a file", P.randomOffset == 1 and "random" or "sequential" },
  }
  if P.reorderTasks == 1 then
    opts[#opts + 1] = { "ordering inter file", "constant task offset" }
    opts[#opts + 1] = { "task offset", int(P.taskPerNodeOffset) }
  elseif P.reorderTasksRandom == 1 then
    opts[#opts + 1] = { "ordering inter file", "random task offset" }
    opts[#opts + 1] = { "task offset", int(P.taskPerNodeOffset) }
    opts[#opts + 1] = { "reorder random seed", int(P.reorderTasksRandomSeed) }
  else
    opts[#opts + 1] = { "ordering inter file", "no tasks offsets" }
  end
  for _, x in ipairs {
    { "nodes", int(P.numNodes) }, { "tasks", int(tasks) }, { "clients per node", int(P.numTasksOnNode0) },
    { "repetitions", int(P.repetitions) }, { "xfersize", human(P.transferSize) },
    { "blocksize", human(P.blockSize) }, { "aggregate filesize", human(P.expectedAggFileSize) },
  } do opts[#opts + 1] = x end
  if P.deadlineForStonewalling > 0 then
    opts[#opts + 1] = { "stonewallingTime", int(P.deadlineForStonewalling) }
    opts[#opts + 1] = { "stoneWallingWearOut", int(P.stoneWallingWearOut) }
  end
  test[#test + 1] = { "Options", obj(opts) }
  local reps = {}
  for rep = 0, P.repetitions - 1 do
    local one = {}
    for _, kind in ipairs { "write", "read" } do
      for _, r in ipairs(results[kind]) do
        if r.rep == rep then
          one[#one + 1] = obj {
            { "access", kind }, { "bwMiB", dbl(r.bw / MiB) }, { "blockKiB", dbl(P.blockSize / KiB) },
            { "xferKiB", dbl(P.transferSize / KiB) }, { "iops", dbl(r.iops) }, { "latency", dbl(r.latency) },
            { "openTime", dbl(r.diff[1]) }, { "wrRdTime", dbl(r.diff[2]) }, { "closeTime", dbl(r.diff[3]) },
            { "totalTime", dbl(r.total) },
          }
        end
      end
    end
    for _, r in ipairs(removes) do
      if r.rep == rep then one[#one + 1] = obj { { "access", "remove" }, { "totalTime", dbl(r.time) } } end
    end
    if #one > 0 then reps[#reps + 1] = arr(one) end
  end
  test[#test + 1] = { "Results", arr(reps) }
  local mx = {}
  if P.writeFile == 1 and results.write[1] then
    mx[#mx + 1] = { "writeMiB", dbl(max_bw(results.write) / MiB) }
    mx[#mx + 1] = { "writeMB", dbl(max_bw(results.write) / MB) }
  end
  if (P.readFile == 1 or P.checkRead == 1) and results.read[1] then
    mx[#mx + 1] = { "readMiB", dbl(max_bw(results.read) / MiB) }
    mx[#mx + 1] = { "readMB", dbl(max_bw(results.read) / MB) }
  end
  test[#test + 1] = { "max", obj(mx) }
  local summary = {}
  for _, kind in ipairs { "write", "read" } do
    local list = results[kind]
    if list[1] then
      local _, bw, ops, mean_t, wall_t, wall_bw = summary_row(kind, list)
      local row = {
        { "operation", kind }, { "API", P.api }, { "TestID", int(0) }, { "ReferenceNumber", int(P.refNum) },
        { "segmentCount", int(P.segmentCount) }, { "blockSize", int(P.blockSize) },
        { "transferSize", int(P.transferSize) }, { "numTasks", int(tasks) },
        { "tasksPerNode", int(P.numTasksOnNode0) }, { "repetitions", int(P.repetitions) },
        { "filePerProc", int(P.filePerProc) }, { "reorderTasks", int(P.reorderTasks) },
        { "taskPerNodeOffset", int(P.taskPerNodeOffset) }, { "reorderTasksRandom", int(P.reorderTasksRandom) },
        { "reorderTasksRandomSeed", int(P.reorderTasksRandomSeed) },
        { "bwMaxMIB", dbl(bw.max / MiB) }, { "bwMinMIB", dbl(bw.min / MiB) }, { "bwMeanMIB", dbl(bw.mean / MiB) },
        { "bwStdMIB", dbl(bw.sd / MiB) }, { "OPsMax", dbl(ops.max) }, { "OPsMin", dbl(ops.min) },
        { "OPsMean", dbl(ops.mean) }, { "OPsSD", dbl(ops.sd) }, { "MeanTime", dbl(mean_t) },
      }
      if P.stoneWallingWearOut == 1 then
        row[#row + 1] = { "StoneWallTime", dbl(wall_t) }
        row[#row + 1] = { "StoneWallbwMeanMIB", dbl(wall_bw) }
      end
      row[#row + 1] = { "xsizeMiB", dbl(list[1].agg / MiB) }
      summary[#summary + 1] = obj(row)
    end
  end
  local doc = obj {
    { "Version", VERSION }, { "Began", began }, { "Command line", cmdline },
    { "Machine", "Linux " .. p.hostname() }, { "tests", arr { obj(test) } }, { "summary", arr(summary) },
    { "Finished", now_string() },
  }
  p.write(enc(doc, 0), "\n")
end
