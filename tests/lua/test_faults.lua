-- Faults lose nothing: ENOSPC in the middle of a phase is reported as a
-- failed phase (op, offset, errno) while earlier phases are kept, printed and
-- recorded; SIGINT and SIGTERM remove scratch files (in a p.run, in a size=
-- fill); a second Ctrl-C exits at once; a size= that cannot fit is refused
-- with a clear message and leaves no file; iozone reports a full filesystem
-- with its own message. Each case runs platter as a
-- separate process on a script written here; the filesystem cases need root.
local T = ...
local cjson = require "cjson"

local MIB = 1024 * 1024

local function write(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

local function read(path)
  local f = io.open(path)
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

local function exists(path)
  local f = io.open(path)
  if f then f:close() end
  return f ~= nil
end

local sh_ok, with_tiny_fs = T.sh_ok, T.with_tiny_fs

-- Start platter in the background, in its own process group; returns a handle.
local function start(args, dir)
  local words = {}
  for _, a in ipairs(args) do words[#words + 1] = T.q(a) end
  local h = { pidf = dir .. "/pid", out = dir .. "/out", err = dir .. "/err", rcf = dir .. "/rc" }
  os.remove(h.rcf)
  T.sh("cd " .. T.q(dir) .. " && (setsid sh -c 'echo $$ > " .. T.q(h.pidf) .. "; exec \"$@\"' sh " ..
    T.q(T.bin) .. " " .. table.concat(words, " ") .. " > " .. T.q(h.out) .. " 2> " .. T.q(h.err) ..
    "; echo $? > " .. T.q(h.rcf) .. ") > /dev/null 2>&1 &")
  return h
end

local function now() return require("platter").now() / 1e9 end

-- Wait (up to `secs`) until fn() is true.
local function wait_for(fn, secs, what)
  local t0 = now()
  while now() - t0 < secs do
    if fn() then return now() - t0 end
    T.sh("sleep 0.05")
  end
  error("timed out waiting for " .. what, 2)
end

local function wait_text(h, text)
  wait_for(function() return (read(h.out) or ""):find(text, 1, true) end, 20, "'" .. text .. "'")
  return tonumber(read(h.pidf))
end

-- Exit status, and seconds it took to appear.
local function wait_exit(h, secs)
  local took = wait_for(function() return tonumber(read(h.rcf) or "") end, secs or 20, "exit")
  return tonumber(read(h.rcf)), took
end

-- ---- ENOSPC in the middle of a phase -------------------------------------------------

local PHASES = [[
local p = require "platter"
local dir = ...
local path = p.scratch(dir .. "/scratch.dat")
local f = assert(p.open(path, { create = true, write = true, direct = true, size = "1m" }))
local function show(r)
  if r.failed then
    local errno = next(r.errno)
    p.printf("%-5s FAILED after %d ops: %s (errno %d)\n", r.name, r.ops, r.error, errno)
  else
    p.printf("%-5s ok: %d ops, %d bytes, %.0f IOPS\n", r.name, r.ops, r.bytes, r.iops)
  end
end
local done = {}
done[1] = p.run { file = f, name = "read", bs = "64k" }
show(done[1])
done[2] = p.run { file = f, name = "fill", op = "write", bs = "64k", pattern = "seq",
  range = { 0, "64m" } }
show(done[2])
p.printf("kept: %s %d ops\n", done[1].name, done[1].ops)
p.exit(done[2].failed and 1 or 0)
]]

T.test("ENOSPC mid-phase: failed with op, offset, errno; earlier phase kept, printed, recorded",
  function()
    with_tiny_fs(function(mnt)
      local dir = T.tmpdir()
      write(dir .. "/phases.lua", PHASES)
      local json = dir .. "/r.json"
      local out, err, rc = T.platter({ "--json", json, dir .. "/phases.lua", mnt })
      T.eq(rc, 1, "exit status: " .. out .. err)
      T.has(out, "read  ok: 16 ops, 1048576 bytes", "the first phase printed")
      T.has(out, "fill  FAILED after", "the failed phase printed")
      local off = tonumber(out:match("write %S+ at offset (%d+): No space left on device %(errno 28%)"))
      T.ok(off, "op, offset and errno in: " .. out)
      T.ok(off >= MIB and off < 8 * MIB and off % 65536 == 0, "offset " .. off)
      T.has(out, "kept: read 16 ops", "the first phase's stats unchanged")
      T.ok(not exists(mnt .. "/scratch.dat"), "scratch file removed")
      -- the result record has both phases, the second marked failed
      local doc = cjson.decode((assert(read(json), "no --json file")))
      local ph = doc.phases
      T.eq(#ph, 2, "phases recorded")
      T.eq(ph[1].name, "read", "phase 1")
      T.eq(ph[1].ops, 16, "phase 1 ops")
      T.ok(not ph[1].failed, "phase 1 not failed")
      T.eq(ph[2].name, "fill", "phase 2")
      T.eq(ph[2].failed, true, "phase 2 failed")
      T.eq(ph[2].stopped, "error", "phase 2 stopped")
      T.has(ph[2].error, "at offset " .. off .. ": No space left on device", "phase 2 error")
      T.ok((ph[2].errno or {})["28"], "phase 2 errno 28 counted")
      T.ok(ph[2].ops > 0 and ph[2].bytes < 8 * MIB, "what was written before is kept")
    end)
  end)

-- ---- signals remove scratch files ------------------------------------------------------

local LONG_RUN = [[
local p = require "platter"
local f = assert(p.open(p.scratch("scratch.dat"), { create = true, write = true, size = "4m" }))
p.write("ready\n"); p.flush()
p.run { file = f, pattern = "random", seconds = 60 }
p.write("not reached\n")
]]

for _, sig in ipairs { { "INT", 130 }, { "TERM", 143 } } do
  T.test("SIG" .. sig[1] .. " in the middle of a p.run: exit " .. sig[2] .. ", scratch file removed",
    function()
      local dir = T.tmpdir()
      write(dir .. "/long.lua", LONG_RUN)
      local h = start({ "long.lua" }, dir)
      local pid = wait_text(h, "ready")
      T.ok(exists(dir .. "/scratch.dat"), "scratch file made")
      T.sh("sleep 0.3")
      T.sh("kill -" .. sig[1] .. " " .. pid)
      local rc, took = wait_exit(h)
      T.eq(rc, sig[2], "exit status; stderr: " .. (read(h.err) or ""))
      T.ok(took < 3, "stopped within 3 s, took " .. took)
      T.has(read(h.err), "platter: interrupted", "message")
      T.ok(not (read(h.out) or ""):find("not reached", 1, true), "the script stopped")
      T.ok(not exists(dir .. "/scratch.dat"), "scratch file removed")
    end)
end

local BIG_FILL = [[
local p = require "platter"
p.write("ready\n"); p.flush()
assert(p.open(p.scratch("big.dat"), { create = true, write = true, size = "4g" }))
p.write("not reached\n")
]]

T.test("SIGTERM during a 4 GiB size= fill stops it at once and removes the file", function()
  local dir = T.tmpdir()
  local avail = tonumber((T.sh("df -Pk " .. T.q(dir) .. " | awk 'NR==2 {print $4}'"))) or 0
  if avail < 6 * MIB then T.skip("needs 6 GiB free under $TMPDIR") end
  write(dir .. "/fill.lua", BIG_FILL)
  local h = start({ "fill.lua" }, dir)
  local pid = wait_text(h, "ready")
  T.sh("sleep 0.3")
  T.sh("kill -TERM " .. pid)
  local rc, took = wait_exit(h)
  T.eq(rc, 143, "exit status; stderr: " .. (read(h.err) or ""))
  T.ok(took < 2, "stopped within 2 s, took " .. took)
  T.has(read(h.err), "platter: interrupted", "message")
  T.ok(not exists(dir .. "/big.dat"), "the half-filled scratch file is removed")
end)

-- The first Ctrl-C stops even a script that catches errors (tests/cli/sig_caught.t),
-- but not one stuck in a single long C call, such as a pattern match that
-- backtracks for hours: no hook runs inside it. The second Ctrl-C ends it.
local STUBBORN = [[
local p = require "platter"
p.scratch("scratch.dat")
assert(p.open("scratch.dat", { create = true, write = true, size = 4096 })):close()
p.write("ready\n"); p.flush()
local s = ("a"):rep(2000)
pcall(string.find, s, ".-.-.-.-.-.-b")  -- never calls platter again
]]

T.test("a second Ctrl-C exits at once (status 130) and still removes scratch files", function()
  local dir = T.tmpdir()
  write(dir .. "/stubborn.lua", STUBBORN)
  local h = start({ "stubborn.lua" }, dir)
  local pid = wait_text(h, "ready")
  T.sh("sleep 0.2")
  T.sh("kill -INT " .. pid)
  T.sh("sleep 0.5")
  T.eq(read(h.rcf), nil, "still running after the first Ctrl-C")
  T.ok(exists(dir .. "/scratch.dat"), "scratch file still there")
  T.sh("kill -INT " .. pid)
  local rc, took = wait_exit(h, 5)
  T.eq(rc, 130, "exit status")
  T.ok(took < 1, "exited at once, took " .. took)
  T.ok(not exists(dir .. "/scratch.dat"), "scratch file removed")
end)

T.test("a first Ctrl-C that the script never sees: after 5 s platter says a second one ends it",
  function()
    local dir = T.tmpdir()
    write(dir .. "/stubborn.lua", STUBBORN)
    local h = start({ "--json", "r.json", "stubborn.lua" }, dir)
    local pid = wait_text(h, "ready")
    T.sh("sleep 0.2")
    T.sh("kill -INT " .. pid)
    local hint = "platter: the script has not stopped 5 s after the signal"
    local took = wait_for(function() return (read(h.err) or ""):find(hint, 1, true) end, 20, "the hint")
    T.ok(took > 4, "not before its 5 s: " .. took)
    local err = read(h.err)
    T.has(err, "a second Ctrl-C ends platter at once, and --json/--csv keep the phases that "
      .. "finished\n", "what a second one does, and the record")
    T.eq(select(2, err:gsub("has not stopped", "")), 1, "said once")
    T.eq(read(h.rcf), nil, "still running")
    T.sh("kill -INT " .. pid)
    T.eq((wait_exit(h, 5)), 130, "the second Ctrl-C")
  end)

-- A second Ctrl-C or SIGTERM exits at once, before platter's writer runs, and a kill
-- ends it with no chance to write: the result keeper (src/core/record.c) then writes
-- the record as far as the run got. Before, --json and --csv were not written at all.
local KEPT = [[
local p = require "platter"
local f = assert(p.open(p.scratch("kept.dat"), { create = true, write = true, size = 65536 }))
p.phase("first", function() for i = 0, 15 do f:pread(i * 4096, 4096) end end)
p.run { file = f, name = "second", bs = 4096, count = 8 }
p.phase("outer", function()
  p.phase("inner", function() f:pread(0, 4096) end)
  p.write("ready\n"); p.flush()
  local s = ("a"):rep(2000)
  pcall(string.find, s, ".-.-.-.-.-.-b")  -- never calls platter again
end)
]]

local function check_kept(dir, what)
  local text = read(dir .. "/r.json")
  T.ok(text, what .. ": --json written")
  local doc = cjson.decode(text)
  local names = {}
  for i, r in ipairs(doc.phases) do names[i] = r.kind .. " " .. r.name end
  -- "inner" finished inside "outer", which never did: it waits for "outer" (its
  -- record is sent only when no phase is timing)
  T.eq(table.concat(names, ", "), "phase first, run second", what .. ": the finished phases")
  T.eq(doc.phases[1].ops, 16, what .. ": first's ops")
  T.eq(doc.phases[2].ops, 8, what .. ": second's ops")
  T.eq(doc.status.complete, false, what .. ": not complete")
  T.has(doc.status.message, "ended before it wrote this record", what .. ": says so")
  T.eq(type(doc.environment), "table", what .. ": the head is there")
  T.eq(doc.files and #doc.files, 1, what .. ": the file the phases name")
  T.ok(doc.script and doc.script.text and doc.script.text:find("kept.dat", 1, true),
    what .. ": the script")
  local csv = read(dir .. "/r.csv") or ""
  local lines = {}
  for l in csv:gmatch("[^\n]+") do lines[#lines + 1] = l end
  T.eq(#lines, 3, what .. ": a header and two rows in --csv")
  T.has(lines[2] or "", '"first"', what .. ": csv row 1")
  T.has(lines[3] or "", '"second"', what .. ": csv row 2")
end

T.test("a second Ctrl-C, SIGTERM or a kill keeps the finished phases in --json and --csv",
  function()
    for _, how in ipairs { { "INT", "INT", 130 }, { "TERM", "TERM", 143 }, { "INT", "KILL", 137 } } do
      local dir = T.tmpdir()
      local what = how[1] .. " then " .. how[2]
      write(dir .. "/kept.lua", KEPT)
      local h = start({ "--json", "r.json", "--csv", "r.csv", "kept.lua" }, dir)
      local pid = wait_text(h, "ready")
      T.sh("sleep 0.2")
      T.sh("kill -" .. how[1] .. " " .. pid)
      T.sh("sleep 0.3")
      T.eq(read(h.rcf), nil, what .. ": still running after the first signal")
      T.sh("kill -" .. how[2] .. " " .. pid)
      T.eq((wait_exit(h, 5)), how[3], what .. ": exit status")
      if how[2] == "KILL" then  -- the keeper writes once the socket closes, just after
        wait_for(function() return exists(dir .. "/r.json") and exists(dir .. "/r.csv") end, 5,
          "the record after a kill")
      end
      check_kept(dir, what)
    end
  end)

T.test("a trusted run keeps them too; a run that ends writes its own record over them",
  function()
    local dir = T.tmpdir()
    write(dir .. "/kept.lua", KEPT)
    local h = start({ "--trust", "--json", "r.json", "--csv", "r.csv", "kept.lua" }, dir)
    local pid = wait_text(h, "ready")
    T.sh("sleep 0.2; kill -INT " .. pid .. "; sleep 0.3; kill -INT " .. pid)
    T.eq((wait_exit(h, 5)), 130, "exit status")
    check_kept(dir, "--trust")
    -- the same script without the pattern match ends normally: platter's own record
    -- replaces the one the keeper wrote, and the keeper writes nothing after it
    write(dir .. "/ends.lua", (KEPT:gsub("pcall%(string.find[^\n]*", "")))
    local out, err, rc = T.platter({ "--json", dir .. "/r.json", "--csv", dir .. "/r.csv",
      dir .. "/ends.lua" })
    T.eq(rc, 0, "ends: " .. err .. out)
    T.sh("sleep 0.2")
    local doc = cjson.decode(read(dir .. "/r.json"))
    T.eq(doc.status.complete, true, "platter's own record")
    T.eq(#doc.phases, 4, "every phase, the inner and outer too")
    T.eq(select(2, read(dir .. "/r.csv"):gsub("\n", "")), 5, "csv: a header and four rows")
  end)

-- ---- p.parallel's workers end with platter -------------------------------------------

-- Two workers, each reading its own scratch file for 60 s; SECS (argument 2) shorter
-- for a run that ends by itself, which then says whether the files are still there.
local WORKERS = [[
local p = require "platter"
local dir, secs = ...
local sub = p.scratch(dir .. "/D")  -- the workers' files go in it: they go first
assert(p.mkdir(sub))
local r = p.parallel(2, function(i)
  local g = assert(p.open(p.scratch(sub .. "/w" .. i .. ".dat"),
    { create = true, write = true, size = 4096 }))
  p.write("worker ", p.pid(), "\n"); p.flush()
  return p.run{ file = g, bs = 4096, seconds = tonumber(secs) }
end)
p.write("after: ", tostring(p.stat(sub .. "/w1.dat") ~= nil), " ",
  tostring(p.stat(sub .. "/w2.dat") ~= nil), " ops ", r.merged.ops, "\n")
]]

local function worker_pids(h)
  local pids = {}
  for pid in (read(h.out) or ""):gmatch("worker (%d+)") do pids[#pids + 1] = tonumber(pid) end
  return pids
end

local function alive(pid)
  local _, _, rc = T.sh("kill -0 " .. pid)
  return rc == 0
end

T.test("p.parallel's workers stop when a signal reaches platter alone, and die with it",
  function()
    local dir = T.tmpdir()
    write(dir .. "/work.lua", WORKERS)
    -- SIGTERM to platter's pid alone (a service manager, kill, timeout): the workers
    -- stop as they would on a terminal's Ctrl-C, and what they did is the phase
    for _, sig in ipairs { "TERM", "KILL" } do
      local h = start({ "--json", dir .. "/r.json", dir .. "/work.lua", dir, "60" }, T.tmpdir())
      wait_for(function() return #worker_pids(h) == 2 end, 20, "two workers")
      local pids = worker_pids(h)
      local ok, err = pcall(function()
        T.sh("kill -" .. sig .. " " .. read(h.pidf))
        local rc = wait_exit(h, 10)
        T.eq(rc, sig == "TERM" and 143 or 137, sig .. " status: " .. (read(h.err) or ""))
        wait_for(function() return not alive(pids[1]) and not alive(pids[2]) end, 3,
          "the workers to end after SIG" .. sig)
        if sig == "TERM" then
          T.has(read(h.err), "interrupted p.parallel after", "the workers' phase so far")
          local doc = cjson.decode(read(dir .. "/r.json"))
          T.ok(doc.phases[1] and doc.phases[1].ops > 0, "the phase in --json")
          T.ok(not exists(dir .. "/D"), "the workers' scratch files removed, then their directory")
        end
      end)
      for _, pid in ipairs(pids) do T.sh("kill -KILL " .. pid) end -- the old code's
      T.sh("rm -rf " .. T.q(dir .. "/D")) -- SIGKILL leaves scratch files (safety.md)
      if not ok then error(err, 0) end
    end
    -- a run that ends by itself: the workers' scratch files last until platter ends
    local out, err, rc = T.platter({ dir .. "/work.lua", dir, "0.1" })
    T.eq(rc, 0, err)
    T.has(out, "after: true true ops", "scratch files a worker made stay until platter ends")
    T.ok(not exists(dir .. "/D"), "then they are removed, and the directory")
  end)

-- ---- system settings are put back ---------------------------------------------------

T.test("a readahead a script changes is put back at exit: normal end, error, 2nd Ctrl-C",
  function()
    with_tiny_fs(function(mnt)
      local src = T.sh("findmnt -no SOURCE " .. T.q(mnt)):match("/dev/(%S+)")
      T.ok(src, "the loop device under " .. mnt)
      local knob = "/sys/block/" .. src .. "/queue/read_ahead_kb"
      local before = read(knob)
      T.ok(before, "readahead of " .. src)
      local dir = T.tmpdir()
      -- a sandboxed script changes the readahead of the device under a file it may open
      write(dir .. "/ra.lua", [[
local p = require "platter"
local dir, how = ...
local f = assert(p.open(dir .. "/ra.dat", { create = true, write = true, size = 4096 }))
p.scratch(dir .. "/ra.dat")
assert(f:readahead(12) == 12)
assert(f:readahead(20) == 20)
p.write("changed\n"); p.flush()
if how == "error" then error("boom") end
if how == "stuck" then pcall(function() pcall(p.sleep, 60) end) while true do end end
]])
      for _, how in ipairs { "end", "error" } do
        local out, err, rc = T.platter({ dir .. "/ra.lua", mnt, how })
        T.eq(rc, how == "end" and 0 or 1, how .. " status: " .. err)
        T.has(out, "changed", how)
        T.eq(read(knob), before, "readahead after a run that ended with " .. how)
      end
      local h = start({ dir .. "/ra.lua", mnt, "stuck" }, dir)
      local pid = wait_text(h, "changed")
      T.eq(read(knob), "20\n", "changed while it runs")
      T.sh("kill -INT " .. pid)
      T.sh("sleep 0.2")
      T.sh("kill -INT " .. pid)
      T.eq((wait_exit(h, 5)), 130, "status after the second Ctrl-C")
      T.eq(read(knob), before, "readahead after the second Ctrl-C")
      T.ok(not exists(mnt .. "/ra.dat"), "scratch file removed")
    end)
  end)

T.test("a readahead a p.parallel worker changes is put back when platter exits", function()
  with_tiny_fs(function(mnt)
    local src = T.sh("findmnt -no SOURCE " .. T.q(mnt)):match("/dev/(%S+)")
    local knob = "/sys/block/" .. src .. "/queue/read_ahead_kb"
    local before = read(knob)
    local dir = T.tmpdir()
    write(dir .. "/ra.lua", [[
local p = require "platter"
local mnt = ...
local f = assert(p.open(p.scratch(mnt .. "/ra.dat"), { create = true, write = true, size = 4096 }))
f:close()
p.parallel(1, function()
  local g = assert(p.open(mnt .. "/ra.dat"))
  assert(g:readahead(24) == 24)
end)
p.write("in the parent: ", p.read_text("]] .. knob .. [["))
]])
    local out, err, rc = T.platter({ dir .. "/ra.lua", mnt, knob })
    T.eq(rc, 0, err)
    T.eq(out, "in the parent: 24\n", "the worker's value while platter runs")
    T.eq(read(knob), before, "put back at platter's exit")
  end)
end)

T.test("at exit a readahead is left alone when someone changed it since or the loop device " ..
  "was set up again", function()
  if not T.root then T.skip("needs root for loop devices") end
  local dir = T.tmpdir()
  write(dir .. "/ra2.lua", [[
local p = require "platter"
local dev = ...
local f = assert(p.open(dev))
assert(f:readahead(40) == 40)
f:close()
p.write("changed\n"); p.flush()
p.sleep(60)
]])
  sh_ok("truncate -s 8M " .. T.q(dir .. "/a.img") .. " " .. T.q(dir .. "/b.img"))
  -- 1: someone else sets the readahead while platter runs: theirs stays
  local dev = sh_ok("losetup -f --show " .. T.q(dir .. "/a.img")):match("%S+")
  local ok, err = pcall(function()
    local knob = "/sys/block/" .. dev:match("[^/]+$") .. "/queue/read_ahead_kb"
    local before = read(knob)
    -- run the script, let meanwhile() act while it runs, SIGTERM it: the knob after exit
    local function knob_after(meanwhile)
      local h = start({ dir .. "/ra2.lua", dev }, T.tmpdir())
      local pid = wait_text(h, "changed")
      T.eq(read(knob), "40\n", "platter's value")
      meanwhile()
      T.sh("kill -TERM " .. pid)
      T.eq((wait_exit(h, 5)), 143, "status after SIGTERM")
      return read(knob)
    end
    T.eq(knob_after(function() sh_ok("echo 64 > " .. knob) end), "64\n",
      "a value set by someone else is kept")
    sh_ok("echo " .. before:match("%d+") .. " > " .. knob)
    -- 2: the device is detached and set up again on another image while platter
    -- runs, and its new user happens to set the same value: not put back
    T.eq(knob_after(function()
      sh_ok("losetup -d " .. dev)
      sh_ok("losetup " .. dev .. " " .. T.q(dir .. "/b.img"))
      sh_ok("echo 40 > " .. knob)
    end), "40\n", "the new device's setting is kept")
    -- 3: nobody touched it: put back
    sh_ok("echo " .. before:match("%d+") .. " > " .. knob)
    T.eq(knob_after(function() end), before, "put back when untouched")
  end)
  T.sh("for i in " .. T.q(dir .. "/a.img") .. " " .. T.q(dir .. "/b.img") ..
    "; do losetup -j $i | cut -d: -f1 | xargs -r -n1 losetup -d; done")
  if not ok then error(err, 0) end
end)

T.test("iozone on a full filesystem: iozone's message for the block and exit status 74",
  function()
  with_tiny_fs(function(mnt)
    local out, err, rc = T.platter({ "iozone", "-i", "0", "-s", "16m", "-r", "64k",
      "-f", mnt .. "/iozone.tmp" })
    T.eq(rc, 74, "status: " .. err)
    T.has(out, "\nError writing block ", "the block it failed on")
    T.has(err, "write: No space left on device", "perror line")
    T.ok(not exists(mnt .. "/iozone.tmp"), "the file is removed")
  end)
end)

-- ---- no room: refused up front -------------------------------------------------------

T.test("size= that cannot fit is refused with a clear message and leaves no file", function()
  with_tiny_fs(function(mnt)
    local dir = T.tmpdir()
    write(dir .. "/big.lua", [[
local p = require "platter"
local dir = ...
local f, msg, errno = p.open(dir .. "/big.dat", { create = true, write = true, size = "64m" })
print(f, msg, errno)
-- an existing file keeps its contents
local g = assert(p.open(dir .. "/old.dat", { create = true, write = true, size = "1m" }))
g:close()
f, msg = p.open(dir .. "/old.dat", { write = true, size = "64m" })
print(f, msg)
g = assert(p.open(dir .. "/old.dat"))
print("old size", g:size())
]])
    local out, err, rc = T.platter({ dir .. "/big.lua", mnt })
    T.eq(rc, 0, "status: " .. err)
    T.has(out, "nil\tsize " .. mnt .. "/big.dat: No space left on device (need 67108864 more " ..
      "bytes but the filesystem has ", "message for a new file")
    T.has(out, "free)\t28", "errno")
    T.ok(not exists(mnt .. "/big.dat"), "no empty file left behind")
    T.has(out, "nil\tsize " .. mnt .. "/old.dat: No space left on device (need 66060288 more",
      "message for an existing file")
    T.has(out, "old size\t1048576", "the existing file is untouched")
    -- a shipped workload: the message reaches the user, nothing is left in the directory
    out, err, rc = T.platter({ "sweep", "--size", "64m" }, { cwd = mnt })
    T.eq(rc, 1, "sweep status: " .. out .. err)
    T.has(err, "No space left on device (need 67108864 more bytes", "sweep message")
    local left = T.sh("ls -A " .. T.q(mnt) .. " | grep -v lost+found | grep -v old.dat")
    T.eq(left, "", "files left by sweep")
  end)
end)
