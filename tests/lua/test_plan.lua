-- platter plan (docs/sharing.md): the paths a run touches, noted at the target and
-- the file system chokepoint while the script runs on the simulated disk; and the
-- manifests of the shipped workloads (platter describe).
local T = ...
local cjson = require "cjson"

-- `platter [PRE...] plan --json [OPTS...] ARGS...` in dir: the decoded plan (stderr must be empty)
local function plan(dir, args, pre, opts)
  local words = { T.q(T.bin) }
  for _, a in ipairs(pre or {}) do words[#words + 1] = T.q(a) end
  words[#words + 1] = "plan --json"
  for _, a in ipairs(opts or {}) do words[#words + 1] = T.q(a) end
  for _, a in ipairs(args) do words[#words + 1] = T.q(a) end
  local out, err, rc = T.sh("cd " .. T.q(dir) .. " && " .. table.concat(words, " "))
  T.eq(err, "", "plan's stderr")
  local ok, p = pcall(cjson.decode, out)
  if not ok then error("plan " .. table.concat(args, " ") .. ": not JSON (" .. rc .. "): " .. out, 2) end
  T.eq(p.status, rc, "the plan's status is its exit status")
  p.by = {}
  for _, e in ipairs(p.paths or {}) do p.by[e.path] = e end
  return p
end

local function real(dir)
  return (T.sh_ok("cd " .. T.q(dir) .. " && pwd -P"):gsub("\n$", ""))
end

-- Every shipped workload, with a small argument set, and what its plan must say:
-- each path ("./" is the directory the plan runs in) with its kinds of access in
-- order and the bytes written (a number: exactly; true: some), nothing else; the
-- exit status, and the needs. A workload of `platter list` without an entry fails
-- the test below: add its entry here.
-- platter's mark on a file or directory made here by hand (guard.c), as if platter had
-- made it: a sandboxed run, and so its plan, changes only what platter made
local function mark(path)
  T.sh_ok("python3 -c 'import os, sys; p = sys.argv[1]; "
    .. "os.setxattr(p, \"user.platter\", str(os.stat(p).st_ino).encode())' " .. T.q(path))
end

local QUICK_HDPARM = { "--settle", "0", "--pause", "0", "--disk-time", "0.2s" }
local EXPECTED = {
  bonnie = { args = { "-s", "1" },
    paths = { ["./Bonnie.4242"] = { "write,create,remove,scratch", true } },
    write = true },
  ["bonnie++"] = { args = { "-s", "8", "-r", "4", "-f", "-n", "0", "-m", "box" },
    paths = { ["./Bonnie.4242"] = { "write,create,remove,scratch", true } },
    write = true },
  dd = { args = { "if=/dev/zero", "of=out.bin", "bs=64k", "count=4" },
    paths = { ["/dev/zero"] = { "read", 0 }, ["./out.bin"] = { "write,create", 4 * 65536 } },
    write = true },
  fio = { args = { "--name=x", "--rw=write", "--size=1m" },
    -- laid out (1 MiB), then written (1 MiB), as fio does
    paths = { ["./x.0.0"] = { "read,write,create", 2 * 1048576 } },
    write = true },
  hdparm = { args = { "-t", QUICK_HDPARM, "/dev/sdb" },
    paths = { ["/dev/sdb"] = { "read,block", 0 } },
    root = true, device = "block" },
  ioping = { args = { "-c", "3", "-i", "0", "." },
    paths = { ["."] = { "read", 0 }, ["./ioping.tmp.4242"] = { "write,create,scratch", 1048576 } },
    write = true },
  ior = { args = { "-w", "-r", "-b", "1m", "-t", "256k", "-s", "2" },
    paths = { ["./testFile"] = { "read,write,create,remove", 2 * 1048576 } },
    write = true },
  iozone = { args = { "-s", "64k", "-r", "16k", "-i", "0" },
    paths = { ["./iozone.tmp"] = { "read,write,create,remove,scratch", 2 * 65536 } },
    write = true },
  -- the simulated disk has no directories; a plan keeps them itself
  mdtest = { args = { "-n", "2", "-d", "out" },
    paths = {
      ["."] = { "read", 0 },  -- statfs
      ["./out"] = { "mkdir,rmdir", 0 },
      ["./out/test-dir.0-0"] = { "mkdir,rmdir", 0 },
      ["./out/test-dir.0-0/mdtest_tree.0"] = { "mkdir,rmdir", 0 },
      ["./out/test-dir.0-0/mdtest_tree.0/dir.mdtest.0.0"] = { "mkdir,rmdir", 0 },
      ["./out/test-dir.0-0/mdtest_tree.0/dir.mdtest.0.1"] = { "mkdir,rmdir", 0 },
      ["./out/test-dir.0-0/mdtest_tree.0/file.mdtest.0.0"] = { "read,write,create,remove", 0 },
      ["./out/test-dir.0-0/mdtest_tree.0/file.mdtest.0.1"] = { "read,write,create,remove", 0 },
    },
    write = true },
  readahead = { args = { "-s", "4m", "-c", "32" },
    paths = { ["./platter-readahead.4242.dat"] = { "read,write,create,remove,scratch", 4 * 1048576 } },
    write = true },
  sweep = { args = { "-s", "1m", "--max", "4k", "-d", "0.01s" },
    paths = { ["./platter-sweep.4242.dat"] = { "read,write,create,remove,scratch", 1048576 } },
    write = true },
  -- the probes: on the simulated disk every byte is known
  align = { args = { "--size", "16m", "--seconds", "0.05" },
    paths = { ["./platter-align.4242.dat"] = { "write,create,remove,scratch", 20 * 1048576 } },
    write = true },
  ["qd-knee"] = { args = { "--size", "16m", "--seconds", "0.02", "--qd-max", "4" },
    paths = { ["./platter-qd-knee.4242.dat"] = { "read,write,create,remove,scratch", 16 * 1048576 } },
    write = true },
  -- the file (32 MiB), then writes alone at depth and the rising write load
  ["rw-mix"] = { args = { "--size", "32m", "--seconds", "0.05", "--steps", "1" },
    paths = { ["./platter-rw-mix.4242.dat"] = { "write,create,remove,scratch", 240123904 } },
    write = true },
  ["slc-cliff"] = { args = { "--size", "64m" },
    paths = { ["./platter-slc-cliff.4242.dat"] = { "write,create,remove,scratch", 64 * 1048576 } },
    write = true },
  steady = { args = { "--size", "16m", "--time", "0.01s", "--bs", "4k", "--mixes", "0/100", "--rounds", "5",
    "--skip-precondition" },
    -- the file (16 MiB), then five rounds of 4 KiB writes at depth 32
    paths = { ["./platter-steady.4242.dat"] = { "write,create,scratch", 117190656 } },
    write = true },
  vwc = { args = { "--size", "16m" },
    paths = { ["./platter-vwc.4242.dat"] = { "write,create,remove,scratch", 19234816 } },
    write = true },
  -- a zoned disk: planned on the zoned preset; it writes the device, so --destroy
  zoned = { pre = { "--sim", "smr-hm" }, sim = "smr-hm", args = { "--samples", "1", "--bytes", "1m", "/dev/sda" },
    paths = { ["/dev/sda"] = { "read,write,block", 1060864 } },
    write = true, destroy = true, device = "block" },
  zones = { args = { "-s", "4m", "-b", "1m", "-n", "2" },
    paths = { ["./platter-zones.4242.dat"] = { "read,write,create,remove,scratch", 4 * 1048576 } },
    write = true },
}

local function flat(list)
  local out = {}
  for _, a in ipairs(list) do
    if type(a) == "table" then
      for _, b in ipairs(a) do out[#out + 1] = b end
    else
      out[#out + 1] = a
    end
  end
  return out
end

local function shipped()
  local names = {}
  for line in T.sh_ok(T.q(T.bin) .. " list"):gmatch("[^\n]+") do names[#names + 1] = line:match("^(%S+)") end
  return names
end

T.test("plan: every shipped workload has an entry, and its plan lists exactly the paths expected", function()
  local names = shipped()
  T.ok(#names >= 12, "platter list names the workloads")
  for _, name in ipairs(names) do
    local want = EXPECTED[name]
    T.ok(want, "tests/lua/test_plan.lua has no EXPECTED entry for the workload '" .. name .. "'")
    local dir = T.tmpdir()
    local here = real(dir)
    local args = flat(want.args)
    table.insert(args, 1, name)
    local p = plan(dir, args, want.pre)
    local what = "plan " .. table.concat(args, " ")
    T.eq(p.status, want.status or 0, what .. ": status")
    T.eq(p.sim, want.sim or "nvme", what .. ": the preset (nvme by default)")
    local seen = 0
    for path, w in pairs(want.paths) do
      local abs = path == "." and here or path:gsub("^%./", here .. "/")
      local e = p.by[abs]
      T.ok(e, what .. ": lists " .. abs)
      T.eq(table.concat(e.access, ","), w[1], what .. ": " .. abs .. "'s access")
      if w[2] == true then
        T.ok(e.written > 0, what .. ": bytes written to " .. abs)
      else
        T.eq(e.written, w[2], what .. ": bytes written to " .. abs)
      end
      seen = seen + 1
    end
    T.eq(#(p.paths or {}), seen, what .. ": no other paths")
    T.eq(p.needs.write, want.write or false, what .. ": needs write")
    T.eq(p.needs.destroy, want.destroy or false, what .. ": needs --destroy")
    T.eq(p.needs.root, want.root or false, what .. ": needs root")
    if want.device then T.eq(p.needs.device, want.device, what .. ": device") end
    if want.stopped then T.has(p.stopped or "", want.stopped, what .. ": why it stopped") end
    T.eq(p.manifest and p.manifest.name, name, what .. ": the manifest beside it")
    T.eq(p.underdeclared, nil, what .. ": its manifest declares what it did")
    T.eq(T.sh_ok("ls -A " .. T.q(dir)), "", what .. ": leaves nothing behind")
  end
end)

T.test("describe: every shipped workload has a manifest of api platter/1", function()
  for _, name in ipairs(shipped()) do
    local out, err, rc = T.platter({ "describe", "--json", name })
    T.eq(rc, 0, "describe " .. name .. ": " .. err)
    local m = cjson.decode(out)
    T.eq(m.name, name, "describe " .. name .. ": name")
    T.eq(m.api, "platter/1", "describe " .. name .. ": api")
    T.ok(m.version and m.description and m.needs and m.params, "describe " .. name .. ": fields")
  end
end)

-- a script in dir (a new one by default), planned and then run for real on the
-- same simulated disk
local function both(code, args, pre, dir)
  dir = dir or T.tmpdir()
  T.write(dir .. "/s.lua", code)
  local a = { "./s.lua" }
  for _, x in ipairs(args or {}) do a[#a + 1] = x end
  local p = plan(dir, a, pre)
  local leftover = T.sh_ok("ls -A " .. T.q(dir))
  local words = { "--sim", "nvme" }
  for _, x in ipairs(pre or {}) do words[#words + 1] = x end
  for _, x in ipairs(a) do words[#words + 1] = x end
  local out, err, rc = T.platter(words, { cwd = dir })
  return p, { out = out, err = err, rc = rc }, dir, leftover
end

T.test("plan: a write outside the allowed paths is refused as the run refuses it", function()
  local p, r = both([[
local p = require "platter"
assert(p.open("/etc/platter-plan-test", { create = true, write = true }))
]])
  T.eq(p.status, 1, "plan's status")
  T.eq(r.rc, 1, "the run's status")
  local e = p.by["/etc/platter-plan-test"]
  T.ok(e, "the refused path is listed")
  T.eq(table.concat(e.access, ","), "write,refused", "as a refused write")
  T.has(p.stopped, "outside the current directory", "why")
  T.has(r.err, p.stopped:gsub("^platter: ", ""), "the same message as the run's")
  T.eq(p.needs.write, false, "nothing was written")
end)

T.test("plan: a named file outside the current directory is written; nothing real is", function()
  local out = T.tmpdir()
  local p, r, _, left = both([[
local p = require "platter"
local f = assert(p.open(arg[1], { create = true, write = true }))
f:pwrite(0, 8192)
f:close()
]], { out .. "/new.dat" })
  T.eq(p.status, 0, "plan's status")
  T.eq(r.rc, 0, "the run's status")
  local e = p.by[real(out) .. "/new.dat"]
  T.ok(e, "listed by its absolute name")
  T.eq(table.concat(e.access, ","), "write,create", "created and written")
  T.eq(e.written, 8192, "its bytes")
  T.eq(p.written, 8192, "in all")
  T.eq(left, "s.lua\n", "the plan made nothing in its directory")
  T.eq(T.sh_ok("ls -A " .. T.q(out)), "", "nor at the named path")
end)

T.test("plan: removing an existing file lists it and leaves it in place", function()
  local dir = T.tmpdir()
  T.write(dir .. "/old.dat", string.rep("x", 3000))
  mark(dir .. "/old.dat")
  T.write(dir .. "/s.lua", [[
local p = require "platter"
local f = assert(p.open("old.dat"))
assert(f:size() == 3000, "the model knows the real file's size")
f:close()
assert(p.remove("old.dat"))
]])
  local p = plan(dir, { "./s.lua" })
  T.eq(p.status, 0, "status: " .. (p.stopped or ""))
  local e = p.by[real(dir) .. "/old.dat"]
  T.eq(table.concat(e.access, ","), "read,remove", "read, then removed")
  T.eq(e.existed, true, "it existed")
  T.eq(p.needs.write, true, "a removal is a change")
  T.eq(#T.read(dir .. "/old.dat"), 3000, "the real file is untouched")
end)

T.test("plan: a block device opened for writing needs --destroy, and the run agrees", function()
  local code = [[
local p = require "platter"
local f = assert(p.open(arg[1], { write = true }))
f:pwrite(0, 4096)
]]
  local p, r = both(code, { "/dev/platter-none" })
  T.eq(p.status, 0, "the plan goes on past the guard")
  local e = p.by["/dev/platter-none"]
  T.eq(table.concat(e.access, ","), "write,block", "a write to a block device")
  T.eq(e.destroy, true, "marked")
  T.eq(e.written, 4096, "its bytes")
  T.eq(p.needs.destroy, true, "needs --destroy")
  T.eq(p.needs.destroy_given, false, "not given")
  T.eq(p.needs.device, "block", "device")
  T.eq(e.absent, true, "the machine has no such device")
  T.has(p.blocked[1], "/dev/platter-none does not exist on this machine", "so the real run would stop")
  T.eq(r.rc, 1, "the run without --destroy is refused")
  T.has(r.err, "pass --destroy", "as the plan says")
  local p2, r2 = both(code, { "/dev/platter-none" }, { "--destroy" })
  T.eq(p2.needs.destroy_given, true, "given")
  T.eq(r2.rc, 0, "the run with --destroy goes ahead (on the simulated disk)")
end)

T.test("plan: an output file is checked but not created; its text is counted", function()
  local dir = T.tmpdir()
  T.write(dir .. "/s.lua", [[
local p = require "platter"
local w = assert(p.output_file(arg[1]))
w:write("twelve bytes")
w:close()
assert(not pcall(p.output_file, "other.txt"), "a name not on the command line is refused")
]])
  local p = plan(dir, { "./s.lua", "report.txt" })
  T.eq(p.status, 0, "status: " .. (p.stopped or ""))
  local e = p.by[real(dir) .. "/report.txt"]
  T.eq(table.concat(e.access, ","), "write,create,output", "a new text output")
  T.eq(e.output, 12, "its bytes")
  T.eq(table.concat(p.by[real(dir) .. "/other.txt"].access, ","), "write,output,refused", "the refused one")
  T.eq(T.read(dir .. "/report.txt"), nil, "not created")
end)

T.test("plan: a manifest that under-declares is named; workers' files are noted too", function()
  local dir = T.tmpdir()
  T.write(dir .. "/s.lua", [[
local p = require "platter"
p.script({ name = "quiet", api = "platter/1", needs = { write = false, device = "file" } }, ...)
p.parallel(2, function(i)
  local f = assert(p.open(p.scratch("w" .. i .. ".dat"), { create = true, write = true }))
  f:pwrite(0, 4096 * i)
  f:close()
end)
]])
  local p = plan(dir, { "./s.lua" })
  T.eq(p.status, 0, "status: " .. (p.stopped or ""))
  T.eq(p.by[real(dir) .. "/w1.dat"].written, 4096, "worker 1's file")
  T.eq(p.by[real(dir) .. "/w2.dat"].written, 8192, "worker 2's file")
  T.eq(p.written, 3 * 4096, "in all")
  T.eq(p.manifest.needs.write, false, "the manifest's needs")
  T.has(p.underdeclared[1], "needs.write is false, but the run wrote 12288 bytes", "said")
end)

T.test("plan: usage errors and refusals are the run's; --sim chooses the preset", function()
  local dir = T.tmpdir()
  local p = plan(dir, { "dd", "if=/dev/zero" })
  local _, err, rc = T.platter({ "--sim", "nvme", "dd", "if=/dev/zero" }, { cwd = dir })
  T.eq(p.status, rc, "the same exit status as the run")
  T.has(err, p.stopped, "the same message")
  p = plan(dir, { "--sim", "ata-5400-1999", "dd", "if=/dev/zero", "of=/dev/null", "count=1" })
  T.eq(p.sim, "ata-5400-1999", "plan --sim PRESET")
  p = plan(dir, { "dd", "if=/dev/zero", "of=/dev/null", "count=1" }, { "--sim", "ata-5400-1999" })
  T.eq(p.sim, "ata-5400-1999", "platter --sim PRESET plan")
  local _, e3, rc3 = T.platter({ "--trust", "plan", "dd" })
  T.eq(rc3, 2, "no plan under --trust")
  T.has(e3, "--trust lifts the sandbox", "why")
  local _, e2, rc2 = T.platter({ "plan", "--sim", "nosuch", "dd" })
  T.eq(rc2, 2, "an unknown preset is a usage error")
  T.has(e2, "unknown --sim preset 'nosuch'", "named")
end)

T.test("plan: a real block device is looked at, never opened; one in use would be refused", function()
  if not T.root then T.skip("needs root for a loop device") end
  local _, _, has = T.sh("command -v losetup")
  if has ~= 0 then T.skip("losetup is not installed") end
  local dir = T.tmpdir()
  local img = dir .. "/disk.img"
  T.sh_ok("head -c 4194304 /dev/urandom > " .. T.q(img))
  local before = T.sh_ok("sha256sum < " .. T.q(img))
  local dev = T.sh_ok("losetup -f --show " .. T.q(img)):gsub("\n$", "")
  local ok, err = pcall(function()
    local p = plan(dir, { "dd", "if=/dev/zero", "of=" .. dev, "bs=4k", "count=8" })
    local e = p.by[dev]
    T.eq(table.concat(e.access, ","), "write,block", "a write to the device")
    T.eq(e.written, 8 * 4096, "its bytes")
    T.eq(e.destroy, true, "needs --destroy")
    T.eq(e.absent, nil, "the machine has it")
    T.eq(e.busy, nil, "not in use")
    T.eq(p.blocked, nil, "nothing else stops the real run")
  end)
  T.sh("losetup -d " .. T.q(dev))
  if not ok then error(err, 0) end
  T.eq(T.sh_ok("sha256sum < " .. T.q(img)), before, "the device's bytes are untouched")
  T.with_tiny_fs(function(mnt)
    local src = T.sh_ok("findmnt -no SOURCE " .. T.q(mnt)):gsub("\n$", "")
    local p = plan(dir, { "dd", "if=/dev/zero", "of=" .. src, "bs=4k", "count=1" })
    T.eq(p.by[src].busy, true, src .. " is mounted")
    T.has(p.blocked[1], "is mounted on", "the real run would refuse it even with --destroy")
  end)
end)

T.test("plan: refuses what the --sim run refuses and allows what it allows", function()
  local OPEN = 'local p = require "platter"\n'
  local CASES = {
    { OPEN .. 'assert(p.open("/etc/hostname"))', {}, 1 },
    { OPEN .. 'assert(p.open("../../../../../../../var/escape.dat", { create = true, write = true }))', {}, 1 },
    { OPEN .. 'assert(p.open("here.dat", { create = true, write = true }))', {}, 0 },
    { OPEN .. 'assert(p.open((p.getenv("TMPDIR") or "/tmp") .. "/platter-plan-t.dat", { create = true }))', {}, 0 },
    { OPEN .. 'assert(p.read_text(arg[1]))', { "job.txt" }, 0 },
    { OPEN .. 'assert(p.read_text("/etc/passwd"))', {}, 1 },
    { OPEN .. 'assert(p.output_file("unnamed.txt"))', {}, 1 },
    { OPEN .. 'assert(p.output_file(arg[1])):write("x")', { "named.txt" }, 0 },
    { OPEN .. 'assert(p.remove("/etc/hostname"))', {}, 1 },
    { OPEN .. 'p.scratch("/etc/platter-x")', {}, 1 },
    { OPEN .. 'assert(p.open("link/hostname"))', {}, 1 },
    { OPEN .. 'p.usage_error("t", "no")', {}, 2 },
  }
  for i, c in ipairs(CASES) do
    local dir = T.tmpdir()
    T.write(dir .. "/job.txt", "[job]\n")
    T.sh_ok("ln -s /etc " .. T.q(dir .. "/link"))
    local p, r, _, left = both(c[1], c[2], nil, dir)
    local what = "case " .. i .. " (" .. c[1]:gsub("^[^\n]*\n", "") .. ")"
    T.eq(r.rc, c[3], what .. ": the run's status")
    T.eq(p.status, r.rc, what .. ": the plan's status is the run's")
    if r.rc ~= 0 then
      local last
      for line in r.err:gmatch("[^\n]+") do if line:match("^platter: ") then last = line end end
      T.eq(p.stopped, last, what .. ": the same message")
    end
    T.ok(not left:match("named"), what .. ": the plan made no output file")
    os.remove((os.getenv("TMPDIR") or "/tmp") .. "/platter-plan-t.dat")
  end
end)

T.test("plan: past 4096 names the bytes are still counted; a script does not see the plan", function()
  local dir = T.tmpdir()
  T.write(dir .. "/s.lua", [[
local p = require "platter"
print("mode " .. tostring(p.config.mode))
for i = 1, 4100 do
  local f = assert(p.open("f" .. i, { create = true, write = true }))
  f:pwrite(0, 512)
  f:close()
end
]])
  local p = plan(dir, { "./s.lua" })
  T.eq(p.status, 0, "status: " .. (p.stopped or ""))
  T.eq(#p.paths, 4096, "the names noted")
  T.eq(p.unlisted, true, "the rest said")
  T.eq(p.written, 4100 * 512, "every byte counted")
  T.eq(p.output, "mode nil\n", "p.config has no plan mode")
end)

T.test("plan: directories are the plan's own on the simulated disk, the machine's read through", function()
  local dir = T.tmpdir()
  T.sh_ok("mkdir " .. T.q(dir .. "/real") .. " && printf abc > " .. T.q(dir .. "/real/one") ..
    " && printf abcd > " .. T.q(dir .. "/real/two"))
  mark(dir .. "/real")
  T.write(dir .. "/s.lua", [[
local p = require "platter"
assert(p.mkdir("new"))
assert(not p.mkdir("new"), "made twice")
assert(not p.mkdir("none/deeper"), "no parent")
assert(not p.mkdir("real"), "the machine has it")
local f = assert(p.open("new/f", { create = true, write = true, size = 8192 }))
f:close()
assert(p.stat("new").kind == "dir" and p.stat("new/f").size == 8192, "the plan's own")
assert(p.stat("real/one").size == 3, "the machine's")
assert(#p.readdir("new") == 1 and p.readdir("new")[1] == "f", "readdir of the plan's directory")
assert(not p.rmdir("new"), "not empty")
assert(p.remove("new/f"))
assert(p.rmdir("new"))
assert(not p.stat("new"), "gone")
assert(p.remove("real/one"))
local names = p.readdir("real")
assert(#names == 1 and names[1] == "two", "the machine's directory, less what the plan removed")
assert(not p.rmdir("real"), "still holds two")
assert(p.remove("real/two"))
assert(p.rmdir("real"))
assert(not pcall(p.mkdir, "/etc/platter-plan-d"), "refused outside the allowed paths")
]])
  local p = plan(dir, { "./s.lua" })
  T.eq(p.status, 0, "status: " .. (p.stopped or ""))
  local here = real(dir)
  T.eq(table.concat(p.by[here .. "/new"].access, ","), "mkdir,rmdir", "new")
  T.eq(table.concat(p.by[here .. "/new/f"].access, ","), "write,create,remove", "new/f")
  T.eq(p.by[here .. "/new/f"].written, 8192, "new/f's bytes")
  T.eq(table.concat(p.by[here .. "/real"].access, ","), "read,rmdir", "real")
  T.eq(table.concat(p.by[here .. "/real/one"].access, ","), "remove", "real/one")
  T.eq(table.concat(p.by["/etc/platter-plan-d"].access, ","), "refused", "the refused mkdir")
  T.eq(T.sh_ok("cd " .. T.q(dir) .. " && find . | sort"), ".\n./real\n./real/one\n./real/two\n./s.lua\n",
    "nothing on the machine changed")
end)

T.test("manifest: a workload's record keeps its manifest, not a nested one's", function()
  local dir = T.tmpdir()
  T.write(dir .. "/s.lua", [[
local p = require "platter"
p.script({ name = "outer", api = "platter/1", args = "own" }, ...)
p.workload("dd", { "if=" .. arg[1], "of=out.bin", "count=1", "status=none" })
]])
  local runs = { { "dd", "if=/dev/zero", "of=out.bin", "count=1", "status=none" }, { "./s.lua", "/dev/zero" } }
  for _, run in ipairs(runs) do
    local args = { "--sim", "nvme", "--quiet", "--json", "r.json" }
    for _, a in ipairs(run) do args[#args + 1] = a end
    local _, err, rc = T.platter(args, { cwd = dir })
    T.eq(rc, 0, "run: " .. err)
    local r = cjson.decode(T.read(dir .. "/r.json"))
    T.eq(r.script.manifest.name, run[1] == "dd" and "dd" or "outer", "the first p.script's")
    T.eq(r.params, nil, "no typed params: the script reads its own arguments")
    os.remove(dir .. "/r.json")
  end
end)

T.test("plan: writes at queue depth (the target's queue) are counted as at depth 1", function()
  local dir = T.tmpdir()
  T.write(dir .. "/q.lua", [[
    local p = require "platter"
    local f = assert(p.open("q.dat", { create = true, write = true, direct = true, size = "1m" }))
    p.run { file = f, op = "write", bs = "64k", qd = tonumber(...), count = 32 }
    f:close()
    p.remove("q.dat")
  ]])
  for _, qd in ipairs({ "1", "8" }) do
    local p = plan(dir, { "./q.lua", qd })
    local e = p.by[real(dir) .. "/q.dat"]
    T.ok(e, "qd " .. qd .. ": lists q.dat")
    T.eq(e and e.written, 1048576 + 32 * 65536, "qd " .. qd .. ": the fill and 32 writes of 64 KiB")
  end
end)

T.test("plan --budget: a run that would go on for hours is stopped, and the plan so far printed", function()
  local dir = T.tmpdir()
  -- writes for ever: only the budget ends it
  T.write(dir .. "/forever.lua", [[
    local p = require "platter"
    local f = assert(p.open("f.dat", { create = true, write = true, size = "64k" }))
    while true do f:pwrite(0, 4096) end
  ]])
  local t0 = os.time()
  local pl = plan(dir, { "./forever.lua" }, nil, { "--budget", "1s" })
  T.ok(os.time() - t0 < 20, "stopped after about a second")
  T.eq(pl.status, 0, "the plan's answer: exit status 0")
  T.eq(pl.completed, false, "not complete")
  T.eq(pl.budget_spent, true, "the budget ran out")
  T.eq(pl.budget_s, 1, "its length")
  T.has(pl.stopped, "the plan's budget of 1 s ran out", "the reason")
  local e = pl.by[real(dir) .. "/f.dat"]
  T.ok(e and e.written > 65536, "the paths and bytes so far")
  -- the text says so
  local out, _, rc = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " plan --budget 0.5s ./forever.lua")
  T.eq(rc, 0, "text: status")
  T.has(out, "run: was stopped by the plan's budget (exit status 0)", "text: the run line")
  -- a run that ends within its budget is complete; --budget 0 is no budget
  T.write(dir .. "/short.lua", [[
    local p = require "platter"
    assert(p.open("s.dat", { create = true, write = true, size = "64k" })):close()
    p.remove("s.dat")
  ]])
  for _, b in ipairs({ "30s", "0" }) do
    local s = plan(dir, { "./short.lua" }, nil, { "--budget", b })
    T.eq(s.completed, true, "--budget " .. b .. ": complete")
    T.eq(s.budget_spent, nil, "--budget " .. b .. ": not spent")
  end
  local _, err, brc = T.sh(T.q(T.bin) .. " plan --budget soon ./short.lua")
  T.eq(brc, 2, "a bad budget: usage error")
  T.has(err, "plan: bad --budget 'soon'", "named")
end)
