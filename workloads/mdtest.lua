-- mdtest 3.3.0: create/stat/read/remove of files and directories by every rank, mdtest's SUMMARY rate table
--
-- As hpc/ior's src/mdtest.c at tag 3.3.0 does it, one rank per process
-- under mpirun (p.mpi; one rank outside it). In -d DIR (./out, made if
-- missing) each iteration J makes test-dir.J-0 (rank 0), then:
--
--   Tree creation   rank 0 (each rank with -u) makes the tree mdtest_tree.0
--                   (-u: mdtest_tree.R.0) and, with -z DEPTH and -b BRANCH,
--                   BRANCH subdirectories mdtest_tree.K per level, numbered
--                   breadth first (K's children are K*BRANCH+1 ...)
--   Directory ...   each rank makes -n/#dirs-in-tree dir.mdtest.R.I in every
--                   directory of the tree (-L: in the leaves only), I
--                   numbered across the tree, then stats, and removes them
--   File ...        the same with file.mdtest.R.I: created (and -w bytes
--                   written), stated, opened and -e bytes read, removed
--   Tree removal    the tree, depth first, then test-dir.J-0
--
-- Each phase runs between barriers and is timed with p.now() from the
-- release of the first barrier to the release of the last one at every
-- rank; a phase's rate is the items of all ranks over the longest of those
-- spans (the latest end minus the earliest start, in a time base relative
-- to the barrier release, so node clocks need not agree). Tree rows count
-- one tree, as mdtest does. -N shifts the rank whose items a rank stats,
-- reads and removes, as mdtest does. Only rank 0 prints.
local p = require "platter"
-- the manifest (platter describe, platter plan); the arguments are read below,
-- with the original tool's syntax
p.script({
  name = "mdtest", version = "1.0", api = "platter/1", args = "own",
  description = "mdtest 3.3.0: metadata create/stat/read/remove across p.mpi ranks",
  params = {
    dir = { type = "path", flag = "-d", arg = "DIR", help = "the directory the tests run in (./out)" },
    items = { type = "int", flag = "-n",
      help = "directories and files each process creates, stats, reads and removes" },
    iterations = { type = "int", flag = "-i", help = "number of iterations (1)" },
    files_only = { type = "bool", flag = "-F", help = "files only" },
    dirs_only = { type = "bool", flag = "-D", help = "directories only" },
  },
  needs = { write = true, device = "file" },
}, ...)
local classic = require "platter.classic"

local NAME = "mdtest"
local mpi = p.mpi
local rank, size = mpi.rank, mpi.size
local argv = { ... }

local notsup = "(mdtest's; not supported by platter)"
local o = p.args({
  name = NAME,
  usage = "[options]",
  summary = "mdtest 3.3.0: every rank creates, stats, reads and removes files and directories; "
    .. "mdtest's lines and SUMMARY table.",
  options = {
    { "-a", arg = "API", help = "API for I/O: POSIX (the only one)" },
    { "-b", arg = "N", help = "branching factor of hierarchical directory structure (1)" },
    { "-d", arg = "DIR", help = "the directory in which the tests will run (./out); DIR1@DIR2... with -u" },
    { "-B", arg = "N", help = "no barriers between phases " .. notsup },
    { "-C", help = "only create files/dirs" },
    { "-T", help = "only stat files/dirs" },
    { "-E", help = "only read files/dir" },
    { "-r", help = "only remove files or directories left behind by previous runs" },
    { "-D", help = "perform test on directories only (no files)" },
    { "-e", arg = "BYTES", help = "bytes to read from each file" },
    { "-f", arg = "N", help = "first number of tasks on which the test will run " .. notsup },
    { "-F", help = "perform test on files only (no directories)" },
    { "-i", arg = "N", help = "number of iterations the test will run (1)" },
    { "-I", arg = "N", help = "number of items per directory in tree" },
    { "-k", help = "use mknod to create file " .. notsup },
    { "-l", arg = "N", help = "last number of tasks on which the test will run " .. notsup },
    { "-L", help = "files only at leaf level of tree" },
    { "-n", arg = "N", help = "every process will creat/stat/read/remove # directories and files" },
    { "-N", arg = "N", help = "stride # between tasks for file/dir operation (local=0)" },
    { "-p", arg = "SECONDS", help = "pre-iteration delay (in seconds)" },
    { "-P", help = "print rate AND time" },
    { "-R", help = "random access to files (only for stat) " .. notsup },
    { "--random-seed", arg = "N", help = "random seed for -R " .. notsup },
    { "-s", arg = "N", help = "stride between the number of tasks for each test " .. notsup },
    { "-S", help = "shared file access (file only, no directories) " .. notsup },
    { "-c", help = "collective creates: task 0 does all creates " .. notsup },
    { "-t", help = "time unique working directory overhead" },
    { "-u", help = "unique working directory for each task" },
    { "-v", count = true, help = "verbosity (each instance of option increments by one)" },
    { "-V", arg = "N", help = "verbosity value" },
    { "-w", arg = "BYTES", help = "bytes to write to each file after it is created" },
    { "-W", arg = "SECONDS", help = "stonewall timer " .. notsup },
    { "-x", arg = "FILE", help = "StoneWallingStatusFile " .. notsup },
    { "-X", "--verify-read", help = "Verify the data read " .. notsup },
    { "-y", help = "sync file after writing" },
    { "-Y", help = "call the sync command after each phase (included in the timing)" },
    { "-z", arg = "N", help = "depth of hierarchical directory structure (0)" },
    { "-Z", help = "print time instead of rate" },
  },
  epilog = "Numbers take mdtest's suffixes (k, m, g, t, p: powers of 1024). Without -C, -T,\n"
    .. "-E or -r every phase runs; without -D or -F both directories and files.",
}, ...)

-- mdtest's string_to_bytes(): sscanf(" %lld %c "), a suffix k/m/g/t/p shifts, any other is ignored
local function to_bytes(flag, v)
  if v == nil then return nil end
  local num, suffix = v:match("^%s*([+-]?%d+)%s*(%S?)")
  if not num then p.usage_error(NAME, string.format("bad value '%s' for %s: not a number", v, flag)) end
  local n = tonumber(num)
  local shift = ({ k = 10, m = 20, g = 30, t = 40, p = 50 })[suffix:lower()]
  if shift then n = n * 2 ^ shift end
  if n < 0 then p.usage_error(NAME, string.format("bad value '%s' for %s: negative", v, flag)) end
  return n
end

local unsupported = {
  { "B", "-B (no barriers)", ": mdtest 3.3.0 refuses it too (its stonewall check needs barriers)" },
  { "f", "-f (a range of task counts)" }, { "l", "-l (a range of task counts)" },
  { "s", "-s (a range of task counts)" }, { "k", "-k (mknod)" }, { "R", "-R (random stat order)" },
  { "random_seed", "--random-seed (random stat order)" }, { "S", "-S (shared file)" },
  { "c", "-c (collective creates)" }, { "W", "-W (stonewalling)" }, { "x", "-x (stonewall status file)" },
  { "verify_read", "-X (verify the data read)", ": platter writes zeros, not mdtest's pattern" },
}
for _, u in ipairs(unsupported) do
  if o[u[1]] then p.usage_error(NAME, u[2] .. " is not supported" .. (u[3] or "")) end
end
local api = o.a or "POSIX"
if api:upper() ~= "POSIX" then
  p.usage_error(NAME, string.format("-a %s is not supported: platter's mdtest has the POSIX API only", api))
end

local branch_factor = to_bytes("-b", o.b) or 1
local depth = to_bytes("-z", o.z) or 0
local items = to_bytes("-n", o.n) or 0
local items_per_dir = to_bytes("-I", o.I) or 0
local iterations = to_bytes("-i", o.i) or 1
local nstride = to_bytes("-N", o.N) or 0
local pre_delay = to_bytes("-p", o.p) or 0
local write_bytes = to_bytes("-w", o.w) or 0
local read_bytes = to_bytes("-e", o.e) or 0
local verbose = o.V and to_bytes("-V", o.V) or o.v
local unique = o.u
local leaf_only = o.L
local create_only, stat_only, read_only, remove_only = o.C, o.T, o.E, o.r
local files_only, dirs_only = o.F, o.D
local print_time, print_rate_and_time = o.Z, o.P
local sync_file, call_sync = o.y, o.Y
local time_unique_dir_overhead = o.t
local dirpath_arg = o.d or "./out"

if items > 0 and items_per_dir > 0 and not unique then
  p.usage_error(NAME, "-n together with -I (several test directories per iteration) is not supported")
end
if nstride > 0 and unique and depth > 0 then
  p.usage_error(NAME, "-N with -u and -z above 0 is not supported (mdtest 3.3.0 names the "
    .. "subdirectories after the rank's own tree and fails)")
end
if iterations < 1 then p.usage_error(NAME, "-i must be at least 1") end

-- -d DIR1@DIR2...: rank R works in DIR(R mod count + 1); the checks of valid_tests(), before any output
local filenames = {}
for token in dirpath_arg:gmatch("[^@\n]+") do filenames[#filenames + 1] = token end
local path_count = dirpath_arg ~= "" and select(2, dirpath_arg:gsub("@", "")) + 1 or 0

if path_count > 1 and nstride > 0 then
  p.usage_error(NAME, "cannot have multiple directory paths with -N strides between neighbor tasks")
end
if path_count > 1 and not unique then
  p.usage_error(NAME, "shared directory mode is not compatible with multiple directory paths")
end
if path_count > size then p.usage_error(NAME, "cannot have more directory paths than MPI tasks") end
if branch_factor < 1 and depth > 0 then
  p.usage_error(NAME, "branch factor must be greater than or equal to zero")
end
if items > 0 and items_per_dir > 0 then
  p.usage_error(NAME, "only specify the number of items or the number of items per directory")
end

local fmt = string.format

-- mdtest's VERBOSE(root, any, ...): rank 0 only here; level 0 without a header
local function V(level, line, f, ...)
  if rank == 0 and verbose >= level then
    p.printf("V-%d: Rank %3d Line %5d %s\n", level, rank, line, fmt(f, ...))
  end
end
local function say(f, ...)
  if rank == 0 then p.write(fmt(f, ...), "\n") end
end
local function fail(f, ...)
  error(fmt(f, ...))
end

local function timestamp()
  if rank == 0 and verbose >= 1 then p.write("V-1: Entering PrintTimestamp...\n") end
  p.flush()
  return os.date("%m/%d/%Y %H:%M:%S")
end

-- ---- the start: mdtest_run() up to the tests --------------------------------------

local cmd = { "mdtest" }
for _, a in ipairs(argv) do cmd[#cmd + 1] = "'" .. tostring(a) .. "'" end

-- every rank's host: the node map and -N's shift (GetNumNodes, QueryNodeMapping)
local hosts = mpi.allgather(mpi.host)

say("-- started at %s --\n", timestamp())
say("mdtest-3.3.0 was launched with %d total task(s) on %d node(s)", size, mpi.nodes)
say("Command line used: %s", table.concat(cmd, " "))

V(1, 239, "Entering parse_dirpath on %s...", dirpath_arg)

-- valid_tests()
if not create_only and not stat_only and not read_only and not remove_only then
  create_only, stat_only, read_only, remove_only = true, true, true, true
  V(1, 1398, "main: Setting create/stat/read/remove_only to True")
end
V(1, 1401, "Entering valid_tests...")
if not dirs_only and not files_only then dirs_only, files_only = true, true end

local function TF(b) return b and "True" or "False" end
V(1, 2018, "api                     : %s", api)
V(1, 2019, "barriers                : %s", "True")
V(1, 2020, "collective_creates      : %s", "False")
V(1, 2021, "create_only             : %s", TF(create_only))
V(1, 2022, "dirpath(s):")
for i = 1, path_count do V(1, 2024, "\t%s", filenames[i] or "") end
V(1, 2026, "dirs_only               : %s", TF(dirs_only))
V(1, 2027, "read_bytes              : %d", read_bytes)
V(1, 2028, "read_only               : %s", TF(read_only))
V(1, 2029, "first                   : %d", 1)
V(1, 2030, "files_only              : %s", TF(files_only))
V(1, 2034, "iterations              : %d", iterations)
V(1, 2035, "items_per_dir           : %d", items_per_dir)
V(1, 2036, "last                    : %d", 0)
V(1, 2037, "leaf_only               : %s", TF(leaf_only))
V(1, 2038, "items                   : %d", items)
V(1, 2039, "nstride                 : %d", nstride)
V(1, 2040, "pre_delay               : %d", pre_delay)
V(1, 2041, "remove_only             : %s", TF(leaf_only))  -- sic: mdtest prints leaf_only here
V(1, 2042, "random_seed             : %d", 0)
V(1, 2043, "stride                  : %d", 1)
V(1, 2044, "shared_file             : %s", "False")
V(1, 2045, "time_unique_dir_overhead: %s", TF(time_unique_dir_overhead))
V(1, 2046, "stone_wall_timer_seconds: %d", 0)
V(1, 2047, "stat_only               : %s", TF(stat_only))
V(1, 2048, "unique_dir_per_task     : %s", TF(unique))
V(1, 2049, "write_bytes             : %d", write_bytes)
V(1, 2050, "sync_file               : %s", TF(sync_file))
V(1, 2051, "call_sync               : %s", TF(call_sync))
V(1, 2052, "depth                   : %d", depth)
V(1, 2053, "make_node               : %d", 0)

-- the tree's size and the items per directory
local num_dirs_in_tree
if depth <= 0 or branch_factor < 1 then
  num_dirs_in_tree = 1
elseif branch_factor == 1 then
  num_dirs_in_tree = depth + 1
else
  num_dirs_in_tree = math.floor((branch_factor ^ (depth + 1) - 1) / (branch_factor - 1))
end
local leaves = math.floor(branch_factor ^ depth)
if items_per_dir > 0 then
  items = items_per_dir * (leaf_only and leaves or num_dirs_in_tree)
elseif leaf_only then
  if branch_factor <= 1 then
    items_per_dir = items
  else
    items_per_dir = math.floor(items / leaves)
    items = items_per_dir * leaves
  end
else
  items_per_dir = math.floor(items / num_dirs_in_tree)
  items = items_per_dir * num_dirs_in_tree
end

if path_count == 0 then filenames, path_count = { "." }, 1 end  -- mdtest: the working directory
local testdirpath = filenames[rank % path_count + 1]

local function exists(path) return p.stat(path) ~= nil end
local function mkdir(path, what)
  local ok, msg = p.mkdir(path)
  if not ok then fail("%s %s: %s", what, path, classic.strerror(msg)) end
end

-- the -d directory, made if missing (and removed at the end if platter made it and it is empty)
local made_testdirpath = false
if rank < path_count and not exists(testdirpath) then
  mkdir(testdirpath, "Unable to create test directory path")
  made_testdirpath = true
end

-- display_freespace(): the filesystem of the directory holding testdirpath
V(3, 2157, "main (before display_freespace): testdirpath is '%s'", testdirpath)
if rank == 0 then
  V(3, 1540, "Entering display_freespace on %s...", testdirpath)
  local dirpath = testdirpath:match("^(.*)/") or "."
  if dirpath == "" then dirpath = "/" end
  V(3, 1562, "Before show_file_system_size, dirpath is '%s'", dirpath)
  V(1, 1493, "Entering show_file_system_size on %s", dirpath)
  local ok, st, msg = pcall(p.statfs, dirpath)
  if not ok then
    -- the sandbox keeps the directory above -d when it is outside the current directory and
    -- $TMPDIR: take -d's own filesystem and name its parent, as mdtest does
    st, msg = p.statfs(testdirpath)
    if st then st.path = st.path:match("^(.*)/[^/]*$") or st.path end
    if st and st.path == "" then st.path = "/" end
  end
  if not st then fail("unable to stat file system %s: %s", dirpath, classic.strerror(msg)) end
  local total, free = st.size, st.free
  local used = (1 - free / total) * 100
  local hr, unit = total / 2 ^ 30, "GiB"
  if hr > 1024 then hr, unit = hr / 1024, "TiB" end
  local used_inodes = (1 - st.ffree / st.files) * 100
  say("Path: %s", st.path)
  say("FS: %.1f %s   Used FS: %2.1f%%   Inodes: %.1f %s   Used Inodes: %2.1f%%\n",
    hr, unit, used, st.files / 2 ^ 20, "Mi", used_inodes)
  V(3, 1564, "After show_file_system_size, dirpath is '%s'\n", dirpath)
end

-- QueryNodeMapping(): which ranks share rank 0's host; by-slot placement when rank 1 does
local map, on_node0 = {}, 0
for r = 1, size do
  local same = hosts[r] == hosts[1]
  map[r] = same and "1" or "0"
  if same then on_node0 = on_node0 + 1 end
end
say("Nodemap: %s", table.concat(map))
if nstride > 0 then
  if mpi.nodes > 1 and (size == 1 or hosts[2] == hosts[1]) then nstride = nstride * on_node0 end
  if rank == 0 then p.printf("V-0: Rank %3d Line %5d Shifting ranks by %d for each phase.\n", 0, 2169, nstride) end
end
V(3, 2172, "main (after display_freespace): testdirpath is '%s'", testdirpath)

-- ---- the tests -----------------------------------------------------------------

local base_tree_name = unique and fmt("mdtest_tree.%d", rank) or "mdtest_tree"
local function tree_of(r) return fmt("mdtest_tree.%d.0", r % size) end
local mk_name = fmt("mdtest.%d.", (rank + 0 * nstride) % size)
local stat_name = fmt("mdtest.%d.", (rank + 1 * nstride) % size)
local read_name = fmt("mdtest.%d.", (rank + 2 * nstride) % size)
local rm_name = fmt("mdtest.%d.", (rank + 3 * nstride) % size)
local unique_mk_dir = unique and tree_of(rank) or base_tree_name .. ".0"
local unique_chdir_dir = unique and tree_of(rank + nstride) or unique_mk_dir
local unique_stat_dir = unique and tree_of(rank + 2 * nstride) or unique_mk_dir
local unique_read_dir = unique and tree_of(rank + 3 * nstride) or unique_mk_dir
local unique_rm_dir = unique and tree_of(rank + 4 * nstride) or unique_mk_dir

local testdir  -- testdirpath/test-dir.J-0 of the iteration

local function create_remove_dir(path, create, n)
  local item = fmt("%s/dir.%s%d", path, create and mk_name or rm_name, n)
  V(3, 318, "create_remove_items_helper (dirs %s): curr_item is '%s'", create and "create" or "remove", item)
  if create then
    local ok, msg = p.mkdir(item)
    if not ok then fail("unable to create directory %s: %s", item, classic.strerror(msg)) end
  else
    local ok, msg = p.rmdir(item)
    if not ok then fail("unable to remove directory %s: %s", item, classic.strerror(msg)) end
  end
end

local function remove_file(path, n)
  if n % 25000 == 0 and n ~= 0 then V(3, 335, "remove file: %d\n", n) end
  local item = fmt("%s/file.%s%d", path, rm_name, n)
  V(3, 340, "create_remove_items_helper (non-dirs remove): curr_item is '%s'", item)
  local ok, msg, errno = p.remove(item)
  if not ok then  -- POSIX_Delete's EWARNF: a warning, and the test goes on
    p.printf("ior WARNING: [RANK %03d]: unlink() of file \"%s\" failed\n, errno %d, %s \n", rank, item,
      errno or 0, classic.strerror(msg))
  end
end

local function create_file(path, n)
  if n % 25000 == 0 and n ~= 0 then V(3, 351, "create file: %d", n) end
  local item = fmt("%s/file.%s%d", path, mk_name, n)
  V(3, 356, "create_remove_items_helper (non-dirs create): curr_item is '%s'", item)
  V(3, 383, "create_remove_items_helper (non-collective, shared): open...")
  local f, msg = p.open(item, { create = true, write = true })
  if not f then fail("unable to create file %s: %s", item, classic.strerror(msg)) end
  if write_bytes > 0 then
    V(3, 391, "create_remove_items_helper: write...")
    local n_w, wmsg = f:pwrite(0, write_bytes)
    if n_w ~= write_bytes then
      fail("unable to write file %s: %s", item, wmsg and classic.strerror(wmsg) or "short write")
    end
    if sync_file then f:fsync() end
  end
  V(3, 404, "create_remove_items_helper: close...")
  f:close()
end

local function items_helper(dirs, create, path, first)
  V(1, 412, "Entering create_remove_items_helper on %s", path)
  for i = 0, items_per_dir - 1 do
    if dirs then
      create_remove_dir(path, create, first + i)
    elseif create then
      create_file(path, first + i)
    else
      remove_file(path, first + i)
    end
  end
end

-- create_remove_items(): the items of every directory of the tree, each branch then its subtree
local function create_remove_items(curr_depth, dirs, create, path, dir_num)
  V(1, 481, "Entering create_remove_items on %s, currDepth = %d...", path, curr_depth)
  V(3, 487, "create_remove_items (start): temp_path is '%s'", path)
  if curr_depth == 0 then
    if not leaf_only or depth == 0 then items_helper(dirs, create, path, 0) end
    if depth > 0 then create_remove_items(curr_depth + 1, dirs, create, path, dir_num + 1) end
  elseif curr_depth <= depth then
    local curr_dir = dir_num
    for _ = 1, branch_factor do
      local temp_path = path .. "/" .. fmt("%s.%d/", base_tree_name, curr_dir)
      V(3, 513, "create_remove_items (for loop): temp_path is '%s'", temp_path)
      if not leaf_only or curr_depth == depth then
        items_helper(dirs, create, temp_path, curr_dir * items_per_dir)
      end
      create_remove_items(curr_depth + 1, dirs, create, temp_path, curr_dir * branch_factor + 1)
      curr_dir = curr_dir + 1
    end
  end
end

-- the path of item I below the tree's top directory, as mdtest_stat() and mdtest_read() find it
local function item_path(path, name)
  return function(i)
    local item_num = i
    if leaf_only then item_num = item_num + items_per_dir * (num_dirs_in_tree - leaves) end
    local item = fmt("%s%d", name, item_num)
    local parent = math.floor(item_num / items_per_dir)
    if parent > 0 then
      item = fmt("%s.%d/%s", base_tree_name, parent, item)
      while parent > branch_factor do
        parent = math.floor((parent - 1) / branch_factor)
        item = fmt("%s.%d/%s", base_tree_name, parent, item)
      end
    end
    return path .. "/" .. item
  end
end

local function mdtest_stat(dirs, path)
  V(1, 549, "Entering mdtest_stat on %s", path)
  local at = item_path(path, (dirs and "dir." or "file.") .. stat_name)
  for i = 0, items - 1 do
    if i % 25000 == 0 and i ~= 0 then V(3, dirs and 586 or 591, "stat %s: %d", dirs and "dir" or "file", i) end
    local item = at(i)
    V(3, 618, "mdtest_stat %4s: %s", dirs and "dir" or "file", item)
    local st, msg = p.stat(item)
    if not st then
      fail("unable to stat %s %s: %s", dirs and "directory" or "file", item, classic.strerror(msg))
    end
  end
end

local function mdtest_read(path)
  V(1, 632, "Entering mdtest_read on %s", path)
  local at = item_path(path, "file." .. read_name)
  for i = 0, items - 1 do
    if i % 25000 == 0 and i ~= 0 then V(3, 686, "read file: %d", i) end
    local item = at(i)
    V(3, 713, "mdtest_read file: %s", item)
    local f, msg = p.open(item)
    if not f then fail("unable to open file %s: %s", item, classic.strerror(msg)) end
    if read_bytes > 0 then
      local n = f:pread(0, read_bytes)
      if n ~= read_bytes then fail("unable to read file %s", item) end
    end
    f:close()
  end
end

-- create_remove_directory_tree(): the tree itself, top first when made, bottom first when removed
local function directory_tree(create, curr_depth, path, dir_num)
  V(1, 1576, "Entering create_remove_directory_tree on %s, currDepth = %d...", path, curr_depth)
  if curr_depth == 0 then
    local dir = fmt("%s/%s.%d/", path, base_tree_name, dir_num)
    if create then
      V(2, 1582, "Making directory '%s'", dir)
      -- mdtest goes on when the top of the tree is there already (a second -C)
      if not p.mkdir(dir) then p.printf("error could not create directory '%s'\n", dir) end
    end
    directory_tree(create, curr_depth + 1, dir, dir_num + 1)
    if not create then
      V(2, 1600, "Remove directory '%s'", dir)
      local ok, msg = p.rmdir(dir)
      if not ok then fail("Unable to remove directory %s: %s", dir, classic.strerror(msg)) end
    end
  elseif curr_depth <= depth then
    local curr_dir = dir_num
    for _ = 1, branch_factor do
      local temp_path = path .. fmt("%s.%d/", base_tree_name, curr_dir)
      if create then
        V(2, 1616, "Making directory '%s'", temp_path)
        mkdir(temp_path, "Unable to create directory")
      end
      directory_tree(create, curr_depth + 1, temp_path, branch_factor * curr_dir + 1)
      if not create then
        V(2, 1627, "Remove directory '%s'", temp_path)
        local ok, msg = p.rmdir(temp_path)
        if not ok then fail("Unable to remove directory %s: %s", temp_path, classic.strerror(msg)) end
      end
      curr_dir = curr_dir + 1
    end
  end
end

-- a timed phase: barrier, [the -u barrier], time, work, [sync], barrier, time; the span of the
-- longest rank (every rank's start is the release of the first barrier, its end that of the last)
local function timed(name, run, work, uni)
  mpi.barrier(name)
  local t0 = p.now()
  if uni and unique and create_only then
    mpi.barrier(name .. " (unique directory)")  -- unique_dir_access(MK_UNI_DIR)'s
    if not time_unique_dir_overhead then t0 = p.now() end
  end
  if run then p.phase(name, work, { cache = true }) end  -- mdtest reads through the page cache
  if call_sync then p.sync() end
  mpi.barrier(name .. " done")
  local span = (p.now() - t0) / 1e9
  return mpi.allreduce(span, "max")
end

-- unique_dir_access() and offset_timers(): with -u, the path of a phase, and their -v lines
local function access(dir, path, last)
  local to = unique and testdir .. "/" .. dir or testdir .. "/" .. path
  if unique then
    V(1, 305, "Entering unique_dir_access, set it to %s", to)
    if not last and not time_unique_dir_overhead then V(1, 225, "V-1: Entering offset_timers...") end
  end
  return to
end
local function offset_end()
  if unique and not time_unique_dir_overhead then V(1, 225, "V-1: Entering offset_timers...") end
end

local results = {}  -- results[j][k] = {rate, time}, k as mdtest's table: 1-4 dirs, 5-8 files, 9-10 tree

local function directory_test(j, path)
  V(1, 828, "Entering directory_test on %s", path)
  local r = results[j]
  local total = items * size
  local tc = timed("Directory creation", create_only, function()
    local at = access(unique_chdir_dir, path)
    V(3, 846, "directory_test: create path is '%s'", at)
    create_remove_items(0, true, true, at, 0)
  end, true)
  if create_only then r[1] = { total / tc, tc } end
  local ts = timed("Directory stat", stat_only, function()
    local at = access(unique_stat_dir, path)
    V(3, 876, "stat path is '%s'", at)
    mdtest_stat(true, at)
  end)
  if stat_only then r[2] = { total / ts, ts } end
  timed("Directory read", read_only, function()  -- N/A in mdtest too: timed, not printed
    V(3, 902, "directory_test: read path is '%s'", access(unique_read_dir, path))
  end)
  local tm = timed("Directory removal", remove_only, function()
    local at = access(unique_rm_dir, path)
    V(3, 928, "directory_test: remove directories path is '%s'", at)
    create_remove_items(0, true, false, at, 0)
  end)
  if remove_only then
    r[4] = { total / tm, tm }
    V(3, 951, "directory_test: remove unique directories path is '%s'\n", access("", path, true))
  end
  offset_end()
  V(1, 984, "   Directory creation: %14.3f sec, %14.3f ops/sec", tc, r[1][1])
  V(1, 985, "   Directory stat    : %14.3f sec, %14.3f ops/sec", ts, r[2][1])
  V(1, 989, "   Directory removal : %14.3f sec, %14.3f ops/sec", tm, r[4][1])
end

local function file_test(j, path)
  V(3, 1026, "Entering file_test on %s", path)
  local r = results[j]
  local total = items * size
  local tc = timed("File creation", create_only, function()
    local at = access(unique_chdir_dir, path)
    if unique then V(5, 1038, "operating on %s", at) end
    V(3, 1048, "file_test: create path is '%s'", at)
    create_remove_items(0, false, true, at, 0)
  end, true)
  if create_only then r[5] = { total / tc, tc } end
  local ts = timed("File stat", stat_only, function()
    local at = access(unique_stat_dir, path)
    V(3, 1113, "file_test: stat path is '%s'", at)
    mdtest_stat(false, at)
  end)
  if stat_only then r[6] = { total / ts, ts } end
  local tr = timed("File read", read_only, function()
    local at = access(unique_read_dir, path)
    V(3, 1136, "file_test: read path is '%s'", at)
    mdtest_read(at)
  end)
  if read_only then r[7] = { total / tr, tr } end
  local tm = timed("File removal", remove_only, function()
    local at = access(unique_rm_dir, path)
    V(3, 1164, "file_test: rm directories path is '%s'", at)
    V(3, 1171, "gonna create %s", at)
    create_remove_items(0, false, false, at, 0)
  end)
  if remove_only then
    r[8] = { total / tm, tm }
    V(3, 1186, "file_test: rm unique directories path is '%s'", unique and access("", path, true) or path)
  end
  offset_end()
  V(1, 1223, "  File creation     : %14.3f sec, %14.3f ops/sec", tc, r[5][1])
  V(1, 1227, "  File stat         : %14.3f sec, %14.3f ops/sec", ts, r[6][1])
  V(1, 1228, "  File read         : %14.3f sec, %14.3f ops/sec", tr, r[7][1])
  V(1, 1229, "  File removal      : %14.3f sec, %14.3f ops/sec", tm, r[8][1])
end

local items_all = size * items
if files_only and dirs_only then
  say("%d tasks, %d files/directories", size, items_all)
elseif files_only then
  say("%d tasks, %d files", size, items_all)
else
  say("%d tasks, %d directories", size, items_all)
end
V(1, 2241, "")
V(1, 2242, "   Operation               Duration              Rate")
V(1, 2243, "   ---------               --------              ----")

local sep = testdirpath:sub(-1) == "/" and "" or "/"
for j = 1, iterations do
  local r = {}
  for k = 1, 10 do r[k] = { 0, 0 } end
  results[j] = r
  V(1, 1651, "main: * iteration %d *", j)
  testdir = fmt("%s%s%s.%d-%d", testdirpath, sep, "test-dir", j - 1, 0)
  V(2, 1656, "main (for j loop): making testdir, '%s'", testdir)
  if rank < path_count and not exists(testdir) then mkdir(testdir, "Unable to create test directory") end

  if create_only then
    local t = timed("Tree creation", unique or rank == 0, function()
      if unique then
        V(3, 1699, "main (create hierarchical directory loop-!collective_creates): Calling "
          .. "create_remove_directory_tree with '%s'", testdir)
      else
        V(3, 1708, "main (create hierarchical directory loop-!unque_dir_per_task): Calling "
          .. "create_remove_directory_tree with '%s'", testdir)
      end
      directory_tree(true, 0, testdir, 0)
    end)
    r[9] = { num_dirs_in_tree / t, t }
    V(1, 1725, "V-1: main:   Tree creation     : %14.3f sec, %14.3f ops/sec", t, r[9][1])
  end
  if not unique then V(3, 1735, "V-3: main: Using unique_mk_dir, '%s'", unique_mk_dir) end
  if unique then
    V(3, 1746, "i %d nstride %d", size, nstride)
    V(5, 1753, "mk_dir %s chdir %s stat_dir %s read_dir %s rm_dir %s\n", unique_mk_dir, unique_chdir_dir,
      unique_stat_dir, unique_read_dir, unique_rm_dir)
  end
  V(3, 1756, "V-3: main: Copied unique_mk_dir, '%s', to topdir", unique_mk_dir)
  if dirs_only then
    if pre_delay > 0 then p.sleep(pre_delay) end
    directory_test(j, unique_mk_dir)
  end
  if files_only then
    if pre_delay > 0 then p.sleep(pre_delay) end
    V(3, 1768, "will file_test on %s", unique_mk_dir)
    file_test(j, unique_mk_dir)
  end
  if not unique then V(3, 1775, "main: Using testdir, '%s'", testdir) end

  if remove_only then
    local t = timed("Tree removal", unique or rank == 0, function()
      if unique then
        V(3, 1806, "main (remove hierarchical directory loop-!collective): Calling "
          .. "create_remove_directory_tree with '%s'", testdir)
      else
        V(3, 1816, "V-3: main (remove hierarchical directory loop-!unique_dir_per_task): Calling "
          .. "create_remove_directory_tree with '%s'", testdir)
      end
      directory_tree(false, 0, testdir, 0)
    end)
    r[10] = { num_dirs_in_tree / t, t }
    V(1, 1833, "main   Tree removal      : %14.3f sec, %14.3f ops/sec", t, r[10][1])
    V(2, 1834, "main (at end of for j loop): Removing testdir of '%s'\n", testdir)
    if rank < path_count and exists(testdir) then
      local ok, msg = p.rmdir(testdir)
      if not ok then fail("unable to remove directory %s: %s", testdir, classic.strerror(msg)) end
    end
  else
    mpi.barrier("Tree removal")
  end
end

-- summarize_results(): max, min, mean and population standard deviation over the iterations
local LABELS = {
  "Directory creation        :", "Directory stat            :", false, "Directory removal         :",
  "File creation             :", "File stat                 :", "File read                 :",
  "File removal              :", "Tree creation             :", "Tree removal              :",
}
local function summarize(as_time)
  V(1, 1246, "Entering summarize_results...")
  mpi.barrier("summary")
  if rank ~= 0 then return end
  local col = as_time and 2 or 1
  p.printf("\nSUMMARY %s: (of %d iterations)\n", as_time and "time" or "rate", iterations)
  p.write("   Operation                      Max            Min           Mean        Std Dev\n")
  p.write("   ---------                      ---            ---           ----        -------\n")
  local start = (files_only and not dirs_only) and 5 or 1
  local stop = (dirs_only and not files_only) and 4 or 8
  local function row(k)
    local vals = {}
    for j = 1, iterations do vals[j] = results[j][k][col] end
    local mn, mx, sum = vals[1], vals[1], 0
    for _, v in ipairs(vals) do
      if v < mn then mn = v end
      if v > mx then mx = v end
      sum = sum + v
    end
    local mean, var = sum / iterations, 0
    for _, v in ipairs(vals) do var = var + (mean - v) ^ 2 end
    local sd = math.sqrt(var / iterations)
    p.printf("   %s %14.3f %14.3f %14.3f %14.3f\n", LABELS[k], mx, mn, mean, sd)
  end
  for k = start, stop do
    if LABELS[k] then row(k) end
  end
  row(9)
  row(10)
end

if print_rate_and_time then
  summarize(false)
  summarize(true)
else
  summarize(print_time)
end

mpi.barrier("end")
if made_testdirpath and rank < path_count then p.rmdir(testdirpath) end
say("-- finished at %s --\n", timestamp())
