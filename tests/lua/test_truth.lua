-- Ground truth from the kernel: 'platter selftest' puts a loop device behind a
-- cgroup-v1 blkio throttle and runs one O_DIRECT job per case in that cgroup;
-- the IOPS or bandwidth platter measures over 5 s (after a ramp under 1 s)
-- must be within 1% of the limit, for psync at QD1 and io_uring at QD8,
-- reads and writes. Also: everything the selftest makes is gone afterwards,
-- even after Ctrl-C, and it refuses clearly without root. Root only.
local T = ...

local BLKIO = "/sys/fs/cgroup/blkio"

local function need_bed()
  if not T.root then T.skip("needs root (loop device, blkio cgroup)") end
  local f = io.open(BLKIO .. "/blkio.throttle.read_iops_device")
  if not f then T.skip("no cgroup-v1 blkio controller at " .. BLKIO) end
  f:close()
  local _, _, rc = T.sh("command -v losetup")
  if rc ~= 0 then T.skip("losetup is not installed") end
end

local function exists(path)
  local f = io.open(path)
  if f then f:close() end
  return f ~= nil
end

-- What the selftest's first line names: device, image, cgroup.
local function bed_names(out)
  local dev, img, cg = out:match("^platter selftest: (%S+) %(%S+%) over (%S+), cgroup (%S+)\n")
  return dev, img, cg
end

-- Everything the selftest made is gone.
local function assert_clean(out)
  local dev, img, cg = bed_names(out)
  T.ok(dev and img and cg, "the first line names the test bed: " .. out:sub(1, 200))
  T.ok(img:match("/platter%-truth%-%d+[%-%d]*%.img$"), "image name " .. img)
  T.ok(cg:match("^" .. BLKIO .. "/platter%-truth%-%d+"), "cgroup name " .. cg)
  T.ok(not exists(img), "image " .. img .. " removed")
  T.ok(not exists(cg), "cgroup " .. cg .. " removed")
  local left = T.sh("losetup -j " .. T.q(img))
  T.eq(left, "", "loop devices still on " .. img)
end

-- Parse the table: case -> { measured = text, err = percent }.
local function rows(out)
  local t = {}
  for line in out:gmatch("[^\n]+") do
    local name, err = line:match("^(%a+%-%a+%-qd%d+)%s.-([%+%-]%d+%.%d+)%%")
    if name then t[name] = { err = tonumber(err), line = line } end
    local failed = line:match("^(%a+%-%a+%-qd%d+)%s.-FAILED")
    if failed then t[failed] = { failed = true, line = line } end
  end
  return t
end

local CASES = { "read-iops-qd1", "read-iops-qd8", "read-bps-qd1", "write-iops-qd1",
  "write-iops-qd8", "write-bps-qd8" }

local run  -- the one 5-second selftest run every case test reads
local function selftest()
  need_bed()
  if not run then
    local t0 = os.time()
    local out, err, rc = T.platter({ "selftest", "--seconds", "5", "--ramp", "1", "--cases",
      table.concat(CASES, ",") })
    run = { out = out, err = err, rc = rc, rows = rows(out), took = os.time() - t0 }
    io.stdout:write(out)
  end
  return run
end

T.test("selftest: the ground-truth run ends with status 0 and leaves nothing behind", function()
  local r = selftest()
  T.eq(r.err, "", "stderr")
  T.eq(r.rc, 0, "exit status (1 = a case outside 1%)")
  T.has(r.out, "5 s after a 0.95 s ramp", "window")
  T.has(r.out, "all within the tolerance", "summary")
  assert_clean(r.out)
end)

for _, name in ipairs(CASES) do
  T.test("truth: " .. name .. " within 1% of the throttle limit over 5 s", function()
    local r = selftest()
    local row = r.rows[name]
    T.ok(row, "a row for " .. name .. " in:\n" .. r.out)
    T.ok(not row.failed, "case ran: " .. row.line)
    T.ok(math.abs(row.err) <= 1.0, "error within 1%: " .. row.line)
  end)
end

T.test("selftest: Ctrl-C in the middle of a case removes cgroup, loop device and image", function()
  need_bed()
  local dir = T.tmpdir()
  local pidf, outf, rcf = dir .. "/pid", dir .. "/out", dir .. "/rc"
  -- its own session, so that a "Ctrl-C" reaches parent and child as the terminal would
  T.sh("(setsid sh -c 'echo $$ > " .. T.q(pidf) .. "; exec " .. T.q(T.bin) ..
    " selftest --seconds 5 --cases read-iops-qd1' > " .. T.q(outf) .. " 2>&1; echo $? > " ..
    T.q(rcf) .. ") > /dev/null 2>&1 &")
  local function read(path)
    local f = io.open(path)
    if not f then return nil end
    local s = f:read("*a")
    f:close()
    return s
  end
  local pid
  for _ = 1, 100 do  -- the header is printed once the bed is made
    pid = pid or tonumber(read(pidf) or "")
    if pid and (read(outf) or ""):find("\ncase ", 1, true) then break end
    T.sh("sleep 0.1")
  end
  T.ok(pid, "selftest started")
  T.sh("sleep 1")  -- inside the case: the child is in the cgroup, mid-run
  local out = read(outf)
  local _, _, cg = bed_names(out)
  T.ok(cg and exists(cg .. "/cgroup.procs"), "the cgroup exists while a case runs")
  T.sh("kill -INT -" .. pid)  -- the whole process group, as Ctrl-C does
  local rc
  for _ = 1, 100 do
    rc = tonumber(read(rcf) or "")
    if rc then break end
    T.sh("sleep 0.1")
  end
  out = read(outf)
  T.eq(rc, 130, "exit status after Ctrl-C:\n" .. out)
  T.has(out, "interrupted", "message")
  assert_clean(out)
end)

T.test("selftest: refuses clearly without root, and on bad options", function()
  need_bed()
  local _, _, has = T.sh("command -v setpriv")
  if has ~= 0 then T.skip("setpriv is not installed") end
  local out, err, rc = T.sh("setpriv --reuid=65534 --regid=65534 --clear-groups " .. T.q(T.bin) ..
    " selftest")
  T.eq(rc, 2, "exit status without root: " .. out .. err)
  T.has(out .. err, "needs root", "message")
  err, rc = select(2, T.platter({ "selftest", "--cases", "read-iops-qd9" }))
  T.eq(rc, 2, "exit status for an unknown case")
  T.has(err, "unknown case 'read-iops-qd9'", "message")
  out, err, rc = T.platter({ "selftest", "--list" })
  T.eq(rc, 0, "--list status: " .. err)
  local n = 0
  for _ in out:gmatch("[^\n]+") do n = n + 1 end
  T.eq(n, 8, "cases listed")
  -- a sandboxed script cannot run the command by requiring it
  out, err, rc = T.platter({ "-e", "require 'platter.cmd.selftest'" })
  T.eq(rc, 1, "require of the command: " .. out .. err)
  T.has(err, "require 'platter.cmd.selftest': an internal module", "message")
end)
