-- Zoned block devices (issue 16): f:zones, f:zone_reset/open/close/finish and the
-- zoned fields of f:info() on the simulated host-managed disk (--sim smr-hm), their
-- refusal on anything that is not one, the zoned probe's verdict and
-- figures, and (root, a kernel with null_blk's zoned mode) the probe on a real one.
local T = ...
local cjson = require "cjson"

local MiB, ZONE = 1048576, 256 * 1048576
local EIO, EINVAL, EBADF, ENOTTY, ETOOMANYREFS = 5, 22, 9, 25, 109

-- run Lua code on a simulated disk (device writes allowed); stdout, which must be a success
local function sim(preset, code)
  local dir = T.tmpdir()
  local out, err, rc = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " --quiet --destroy --sim " ..
    preset .. " -e " .. T.q(code) .. " /dev/sda")  -- the device named: the sandbox allows it
  if rc ~= 0 then error("platter --sim " .. preset .. " failed (" .. rc .. "): " .. out .. err, 2) end
  return out
end

local OPEN = [[
  local p = require "platter"
  local f = assert(p.open("/dev/sda", { direct = true, write = true }))
  local function z(off) return f:zones(off, 1)[1] end
  local function res(...) local t = { ... } for i = 1, 3 do t[i] = tostring(t[i]) end return table.concat(t, "|") end
]]

-- the printed "k=v" words of each line, by the line's first word
local function lines(out)
  local t = {}
  for line in out:gmatch("[^\n]+") do
    local tag = line:match("^(%S+)")
    t[tag] = {}
    for k, v in line:gmatch("(%S+)=(%S+)") do t[tag][k] = tonumber(v) or v end
  end
  return t
end

T.test("zoned: f:zones reports the smr-hm preset's zones and f:info() its facts", function()
  local r = lines(sim("smr-hm", OPEN .. [[
    local all = f:zones()
    local conv, seq = 0, 0
    for i, x in ipairs(all) do
      assert(x.start == (i - 1) * x.len and x.capacity == x.len, "zone " .. i)
      if x.type == "conventional" then
        assert(x.cond == "not-wp" and x.wp == nil, "a conventional zone has no write pointer")
        conv = conv + 1
      else
        assert(x.type == "seq-write-required" and x.cond == "empty" and x.wp == x.start, "zone " .. i)
        seq = seq + 1
      end
    end
    local i = f:info()
    print(string.format("all n=%d conv=%d seq=%d len=%d last=%d", #all, conv, seq, all[1].len, all[#all].start))
    print(string.format("info zoned=%s zone_size=%d nr_zones=%d max_open=%d max_active=%d",
      i.zoned, i.zone_size, i.nr_zones, i.max_open_zones, i.max_active_zones))
    local mid = f:zones(5 * all[1].len + 12345, 2)
    print(string.format("slice n=%d first=%d second=%d", #mid, mid[1].start, mid[2].start))
    print(string.format("ends past=%d zero=%d tail=%d", #f:zones(f:size()), #f:zones(0, 0),
      #f:zones(250 * all[1].len)))
  ]]))
  T.eq(r.all.n, 256, "zones")
  T.eq(r.all.conv, 4, "conventional zones")
  T.eq(r.all.seq, 252, "sequential zones")
  T.eq(r.all.len, ZONE, "zone length")
  T.eq(r.all.last, 255 * ZONE, "the last zone's start")
  T.eq(r.info.zoned, "host-managed")
  T.eq(r.info.zone_size, ZONE)
  T.eq(r.info.nr_zones, 256)
  T.eq(r.info.max_open, 128)
  T.eq(r.info.max_active, 0, "0: no limit")
  T.eq(r.slice.n, 2)
  T.eq(r.slice.first, 5 * ZONE, "from inside a zone: that zone")
  T.eq(r.slice.second, 6 * ZONE)
  T.eq(r.ends.past, 0, "from the end: none")
  T.eq(r.ends.zero, 0, "count 0: none")
  T.eq(r.ends.tail, 6, "to the last zone")
end)

T.test("zoned: writes must start at the write pointer and end within the zone", function()
  local out = sim("smr-hm", OPEN .. [[
    local s = 10 * ]] .. ZONE .. [[
    print("first " .. res(f:pwrite(s, 65536)) .. " wp=" .. (z(s).wp - s) .. " cond=" .. z(s).cond)
    print("behind " .. res(f:pwrite(s, 4096)))
    print("ahead " .. res(f:pwrite(s + 131072, 4096)))
    print("unmoved wp=" .. (z(s).wp - s))
    print("next " .. res(f:pwrite(s + 65536, 4096)) .. " wp=" .. (z(s).wp - s))
    -- fill the zone to its end, then one write more
    local wp = z(s).wp
    while wp < s + ]] .. ZONE .. [[ do
      assert(f:pwrite(wp, 64 * 1048576 - (wp - s) % (64 * 1048576)))
      wp = z(s).wp
    end
    print("full cond=" .. z(s).cond .. " wp=" .. (z(s).wp - s) .. " more=" .. res(f:pwrite(wp - 4096, 4096)))
    -- a write across a boundary: the end of zone 11 and the start of zone 12, both at their pointers
    local e = 12 * ]] .. ZONE .. [[
    assert(f:pwrite(11 * ]] .. ZONE .. [[, ]] .. ZONE .. [[ - 8192))
    print("across " .. res(f:pwrite(e - 8192, 16384)) .. " c11=" .. z(e - 1).cond .. " wp12=" .. (z(e).wp - e))
    print("conv " .. res(f:pwrite(3 * 1048576 + 4096, 4096)) .. " " .. res(f:pwrite(4096, 4096)))
    print("read " .. res(f:pread(s + 20 * ]] .. ZONE .. [[, 4096)))
  ]])
  local l = {}
  for line in out:gmatch("[^\n]+") do l[line:match("^(%S+)")] = line end
  T.eq(l.first, "first 65536|nil|nil wp=65536 cond=implicit-open", "a write at the pointer")
  T.eq(l.behind, "behind nil|pwrite /dev/sda: Input/output error|" .. EIO, "behind the pointer: EIO")
  T.eq(l.ahead, "ahead nil|pwrite /dev/sda: Input/output error|" .. EIO, "ahead of it: EIO")
  T.eq(l.unmoved, "unmoved wp=65536", "refused writes leave the pointer")
  T.eq(l.next, "next 4096|nil|nil wp=69632")
  T.eq(l.full, "full cond=full wp=" .. ZONE .. " more=nil|pwrite /dev/sda: Input/output error|" .. EIO,
    "a zone at capacity is full and takes no more")
  T.eq(l.across, "across 16384|nil|nil c11=full wp12=8192", "a write across two zones at their pointers")
  T.eq(l.conv, "conv 4096|nil|nil 4096|nil|nil", "conventional zones take writes anywhere")
  T.eq(l.read, "read 4096|nil|nil", "reads go anywhere")
end)

T.test("zoned: reset, open, close and finish act as the BLK*ZONE ioctls", function()
  local out = sim("smr-hm", OPEN .. [[
    local s = 20 * ]] .. ZONE .. [[
    assert(f:pwrite(s, 8192))
    print("reset " .. res(f:zone_reset(s)) .. " wp=" .. (z(s).wp - s) .. " cond=" .. z(s).cond)
    print("unaligned " .. res(f:zone_reset(s + 4096)))
    print("short " .. res(f:zone_reset(s, 4096)))
    print("past " .. res(f:zone_reset(f:size())))
    print("conv " .. res(f:zone_reset(0)))
    print("finish " .. res(f:zone_finish(s)) .. " wp=" .. (z(s).wp - s) .. " cond=" .. z(s).cond)
    print("open " .. res(f:zone_open(s + ]] .. ZONE .. [[)) .. " cond=" .. z(s + ]] .. ZONE .. [[).cond)
    print("closeempty " .. res(f:zone_close(s + ]] .. ZONE .. [[)) .. " cond=" .. z(s + ]] .. ZONE .. [[).cond)
    assert(f:pwrite(s + ]] .. ZONE .. [[, 4096))
    print("close " .. res(f:zone_close(s + ]] .. ZONE .. [[)) .. " cond=" .. z(s + ]] .. ZONE .. [[).cond)
    print("again " .. res(f:pwrite(s + ]] .. ZONE .. [[ + 4096, 4096)) .. " cond=" .. z(s + ]] .. ZONE .. [[).cond)
    print("range " .. res(f:zone_reset(s, 2 * ]] .. ZONE .. [[)) .. " " .. z(s).cond .. " " .. z(s + ]] .. ZONE .. [[).cond)
    assert(f:zone_finish(100 * ]] .. ZONE .. [[))
    print("all " .. res(f:zone_reset(0, f:size())) .. " " .. z(100 * ]] .. ZONE .. [[).cond)
    local ro = assert(p.open("/dev/sda", { direct = true }))
    print("readonly " .. res(ro:zone_reset(s)))
  ]])
  local l = {}
  for line in out:gmatch("[^\n]+") do l[line:match("^(%S+)")] = line end
  T.eq(l.reset, "reset true|nil|nil wp=0 cond=empty")
  T.eq(l.unaligned, "unaligned nil|zone_reset /dev/sda: Invalid argument|" .. EINVAL)
  T.eq(l.short, "short nil|zone_reset /dev/sda: Invalid argument|" .. EINVAL, "a part of a zone")
  T.eq(l.past, "past nil|zone_reset /dev/sda: Invalid argument|" .. EINVAL)
  T.eq(l.conv, "conv nil|zone_reset /dev/sda: Input/output error|" .. EIO, "a conventional zone")
  T.eq(l.finish, "finish true|nil|nil wp=" .. ZONE .. " cond=full")
  T.eq(l.open, "open true|nil|nil cond=explicit-open")
  T.eq(l.closeempty, "closeempty true|nil|nil cond=empty", "closing an unwritten zone empties it")
  T.eq(l.close, "close true|nil|nil cond=closed")
  T.eq(l.again, "again 4096|nil|nil cond=implicit-open", "a write reopens a closed zone")
  T.eq(l.range, "range true|nil|nil empty empty", "a range of two zones")
  T.eq(l.all, "all true|nil|nil empty", "the whole device: conventional zones skipped")
  T.eq(l.readonly, "readonly nil|zone_reset /dev/sda: Bad file descriptor|" .. EBADF,
    "a reset needs the device open for writing")
end)

T.test("zoned: at most 128 zones are open; the oldest implicitly open one is closed", function()
  local out = sim("smr-hm", OPEN .. [[
    local first = 4 * ]] .. ZONE .. [[
    for i = 0, 128 do assert(f:pwrite(first + i * ]] .. ZONE .. [[, 4096)) end
    local open, closed = 0, 0
    for _, x in ipairs(f:zones()) do
      if x.cond == "implicit-open" then open = open + 1 elseif x.cond == "closed" then closed = closed + 1 end
    end
    print("implicit open=" .. open .. " closed=" .. closed .. " oldest=" .. z(first).cond)
    assert(f:zone_reset(0, f:size()))
    for i = 0, 127 do assert(f:zone_open(first + i * ]] .. ZONE .. [[)) end
    print("explicit " .. res(f:pwrite(first + 200 * ]] .. ZONE .. [[, 4096)) .. " " ..
      res(f:zone_open(first + 201 * ]] .. ZONE .. [[)))
  ]])
  local l = {}
  for line in out:gmatch("[^\n]+") do l[line:match("^(%S+)")] = line end
  T.eq(l.implicit, "implicit open=128 closed=1 oldest=closed")
  local msg = "Too many references: cannot splice"
  T.eq(l.explicit, string.format("explicit nil|pwrite /dev/sda: %s|%d nil|zone_open /dev/sda: %s|%d",
    msg, ETOOMANYREFS, msg, ETOOMANYREFS), "every open zone opened explicitly: no room")
end)

T.test("zoned: the zns preset: zone capacity below the zone size, 14 active zones at most", function()
  local GiB, CAP = 1024 * MiB, 1077 * MiB
  local out = sim("zns", OPEN .. [[
    local i = f:info()
    local all = f:zones()
    print(string.format("info n=%d len=%d cap=%d type=%s open=%d active=%d", #all, all[1].len,
      all[1].capacity, all[1].type, i.max_open_zones, i.max_active_zones))
    -- fill zone 1 to 4 KiB short of its capacity, then past it and up to it
    local s = all[2].start
    while z(s).wp < s + ]] .. CAP .. [[ - 64 * 1048576 do assert(f:pwrite(z(s).wp, 64 * 1048576)) end
    assert(f:pwrite(z(s).wp, s + ]] .. CAP .. [[ - 4096 - z(s).wp))
    print("past " .. res(f:pwrite(z(s).wp, 8192)) .. " " .. res(f:pwrite(z(s).wp, 4096)) .. " cond=" .. z(s).cond)
    assert(f:zone_reset(s))
    -- 14 zones written and closed stay active: a 15th empty zone cannot be written or opened
    for k = 0, 13 do
      assert(f:pwrite(all[k + 1].start, 4096))
      assert(f:zone_close(all[k + 1].start))
    end
    print("active " .. res(f:pwrite(all[15].start, 4096)) .. " " .. res(f:zone_open(all[15].start)) ..
      " " .. res(f:pwrite(all[1].start + 4096, 4096)))
    assert(f:zone_finish(all[2].start))
    print("freed " .. res(f:pwrite(all[15].start, 4096)))
  ]])
  local l = lines(out)
  T.eq(l.info.n, 32)
  T.eq(l.info.len, 2 * GiB)
  T.eq(l.info.cap, CAP)
  T.eq(l.info.type, "seq-write-required")
  T.eq(l.info.open, 14)
  T.eq(l.info.active, 14)
  local t = {}
  for line in out:gmatch("[^\n]+") do t[line:match("^(%S+)")] = line end
  T.eq(t.past, "past nil|pwrite /dev/sda: Input/output error|" .. EIO .. " 4096|nil|nil cond=full",
    "a write past the capacity fails; one up to it fills the zone")
  local ovf = "Value too large for defined data type"
  T.eq(t.active, string.format("active nil|pwrite /dev/sda: %s|75 nil|zone_open /dev/sda: %s|75 4096|nil|nil",
    ovf, ovf), "EOVERFLOW for a 15th active zone; an active (closed) one still takes writes")
  T.eq(t.freed, "freed 4096|nil|nil", "finishing a zone frees its active resource")
end)

T.test("zoned: at queue depth the write pointer's rules hold too (the sim's device queue)", function()
  -- p.run at qd 4 goes through the target's queue, not sim_io: writes off the pointer
  -- still fail with EIO and move nothing; writes at it move it by what they wrote
  local out = sim("smr-hm", [[
    local p = require "platter"
    local f = assert(p.open("/dev/sda", { direct = true, write = true }))
    local Z, M = 256 * 2^20, 2^20
    local r = p.run{ file = f, op = "write", bs = "1m", range = { 5 * Z + 8 * M, 5 * Z + 64 * M },
      qd = 4, count = 4, on_error = "continue" }
    print(string.format("off\t%d\t%d\t%d", r.ops, r.errors, f:zones(5 * Z, 1)[1].wp - 5 * Z))
    r = p.run{ file = f, op = "write", bs = "1m", range = { 5 * Z, 5 * Z + 64 * M }, qd = 4, count = 8 }
    print(string.format("at\t%d\t%d\t%d", r.ops, r.errors, f:zones(5 * Z, 1)[1].wp - 5 * Z))
  ]])
  local t = {}
  for line in out:gmatch("[^\n]+") do t[line:match("^(%S+)")] = line end
  T.eq(t.off, "off\t0\t4\t0", "four writes off the pointer: four errors, the pointer unmoved")
  T.eq(t.at, "at\t8\t0\t" .. 8 * MiB, "eight writes at the pointer move it 8 MiB")
end)

T.test("zoned: a disk, file or device that is not zoned refuses with ENOTTY", function()
  local out = sim("nvme", [[
    local p = require "platter"
    local f = assert(p.open("/dev/sda", { direct = true, write = true }))
    print(select(2, f:zones()), select(3, f:zones()))
    print((select(2, f:zone_reset(0))))
    print(tostring(f:info().zoned) .. " " .. tostring(f:info().zone_size))
    local g = assert(p.open("x.dat", { create = true, write = true, size = "1m" }))
    print((select(2, g:zones())))
  ]])
  T.has(out, "zones /dev/sda: Inappropriate ioctl for device (not a zoned block device)\t" .. ENOTTY)
  T.has(out, "zone_reset /dev/sda: Inappropriate ioctl for device (not a zoned block device)")
  T.has(out, "none nil", "f:info().zoned of a disk that is not zoned")
  T.has(out, "zones x.dat: Inappropriate ioctl for device (not a zoned block device)")
  -- a real file through the kernel
  local dir = T.tmpdir()
  local o, e, rc = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " -e " .. T.q([[
    local f = assert(platter.open("y.dat", { create = true, write = true, size = "64k" }))
    print(f:zones())
    print(f:zone_finish(0))
  ]]))
  T.eq(rc, 0, e)
  T.has(o, "nil\tzones y.dat: Inappropriate ioctl for device (not a zoned block device)\t25")
  T.has(o, "nil\tzone_finish y.dat: Inappropriate ioctl for device (not a zoned block device)\t25")
end)

T.test("zoned: bad arguments to the zone methods raise", function()
  local dir = T.tmpdir()
  for code, want in pairs {
    ["f:zones('x')"] = "bad argument #1 to 'zones'",
    ["f:zones(0, -1)"] = "bad argument #2 to 'zones'",
    ["f:zone_reset()"] = "bad argument #1 to 'zone_reset'",
    ["f:zone_open(0, 0)"] = "bad argument #2 to 'zone_open' (length must be at least 1)",
    ["f:zone_close(0.5)"] = "bad argument #1 to 'zone_close'",
  } do
    local _, err, rc = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " --sim smr-hm --destroy -e " ..
      T.q("local f = assert(platter.open('/dev/sda', { write = true }))\n" .. code) .. " /dev/sda")
    T.eq(rc, 1, code)
    T.has(err, "(command line):2: " .. want, code)
  end
end)

-- the zoned probe's findings in a record: its p.report entry (p.report and p.verdict
-- themselves are tested in lua.test_qd and lua.test_probes)
local function zoned_of(doc)
  for _, r in ipairs(doc.reports or {}) do
    if r.name == "zoned" then return r.data end
  end
  error("no zoned report in the record")
end

-- the probe on the simulated disk, its record
local function probe(args)
  local dir = T.tmpdir()
  local cmd = "cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " --sim smr-hm --destroy --json r.json zoned " ..
    args
  local out, err, rc = T.sh(cmd)
  T.eq(rc, 0, cmd .. ": " .. err)
  return out, cjson.decode(T.read(dir .. "/r.json"))
end

T.test("zoned: the probe's verdict and figures on the smr-hm preset", function()
  local out, doc = probe("--samples 3 --bytes 16m --bs 1m /dev/sda")
  local r = zoned_of(doc)
  T.eq(r.ok, true, "the zones keep the rules")
  T.eq(doc.verdict.probe, "zoned", "the record's verdict")
  T.eq(doc.verdict.answer, "keeps the zone rules", "its answer")
  T.eq(doc.verdict.text, r.verdict, "the verdict line")
  T.eq(r.nr_zones, 256)
  T.eq(r.zone_size, ZONE)
  T.eq(r.model, "host-managed")
  T.eq(r.test_zone, 4, "the first sequential zone")
  T.eq(r.refusal.errno, EIO, "an out-of-place write's errno")
  T.eq(#r.report, 2)
  T.eq(r.report[1].type .. " " .. r.report[1].cond, "conventional not-wp")
  T.eq(r.report[1].zones, 4)
  T.eq(r.report[2].type .. " " .. r.report[2].cond, "seq-write-required empty")
  T.eq(r.report[2].zones, 252)
  T.eq(r.report[2].bytes, 252 * ZONE)
  for _, c in ipairs(r.checks) do T.ok(c.ok, c.name) end
  T.eq(#r.checks, 9, "every check ran")
  T.eq(#r.throughput, 3)
  local zones = {}
  for i, t in ipairs(r.throughput) do
    zones[i] = string.format("%d", t.zone)
    T.eq(t.wp_moved, 16 * MiB, "the pointer moved by the bytes written")
    -- streaming writes: the media rate at the zone's place (260 to 130 MB/s), the 50 us
    -- overhead of each of the 16 writes, and at most a full stroke (15.06 ms) and a
    -- revolution (8.33 ms) before the first
    local media = 260e6 - 130e6 * t.start / (64 * 1024 * MiB)
    local slowest = 16 * MiB / (16 * MiB / media + 16 * 51e-6 + 0.01506 + 0.00834) / MiB
    T.ok(t.mibps < media / MiB and t.mibps > slowest, string.format(
      "zone %d: %.2f MiB/s, between %.2f and the media rate %.2f", t.zone, t.mibps, slowest, media / MiB))
  end
  T.eq(table.concat(zones, " "), "4 130 255", "first, middle and last sequential zones")
  T.ok(r.throughput[1].mibps > r.throughput[2].mibps and r.throughput[2].mibps > r.throughput[3].mibps,
    "outer zones are faster")
  T.has(r.verdict, "Writes at the write pointer work and move it; writes off it fail (Input/output error, errno 5)")
  T.has(r.verdict, "The zones keep the rules.")
  T.has(out, "Verdict: " .. r.verdict)
  T.has(out, "seq-write-required   empty              252       63 GiB")
  local names = {}
  for _, ph in ipairs(doc.phases) do names[#names + 1] = ph.name .. ":" .. string.format("%d", ph.errors) end
  T.eq(table.concat(names, " "), "zone 4 write:0 zone 130 write:0 zone 255 write:0")
  T.eq(doc.params.samples.value, 3, "typed params in the record")
end)

T.test("zoned: the probe on the zns preset: no conventional zone, 1077 MiB of each 2 GiB zone", function()
  local dir = T.tmpdir()
  local out, err, rc = T.platter({ "--sim", "zns", "--destroy", "--json", "r.json", "zoned", "--samples", "2",
    "--bytes", "2g", "--bs", "64m", "/dev/sda" }, { cwd = dir })
  T.eq(rc, 0, err)
  T.has(out, "Zones of /dev/sda: 32 zones of 2 GiB, each holding 1077 MiB (host-managed, max open 14, max active 14)")
  local r = zoned_of(cjson.decode(T.read(dir .. "/r.json")))
  T.eq(r.ok, true, out)
  T.eq(#r.checks, 8, "no conventional zone to check")
  T.eq(r.throughput[1].bytes, 1077 * MiB - (1077 * MiB) % (64 * MiB), "--bytes cut to the capacity, whole writes")
  T.eq(r.throughput[2].zone, 31)
  -- an SSD: the same rate everywhere, 64 MiB writes at 1 GB/s plus 23 us each
  T.near(r.throughput[1].mibps, r.throughput[2].mibps, 1e-9, "no zone curve")
  T.near(r.throughput[1].mibps, 64 * MiB / (64 * MiB / 1e9 + 23.8e-6) / MiB, 0.5, "the write rate")
end)

T.test("zoned: the probe leaves the zones it wrote empty; one sample is the first zone", function()
  local dir = T.tmpdir()
  local out, err, rc = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " --quiet --sim smr-hm --destroy -e " ..
    T.q([[
      platter.workload("zoned", { "--samples", "1", "--bytes", "4m", "/dev/sda" })
      local f = assert(platter.open("/dev/sda", { write = true, direct = true }))
      local busy = 0
      for _, z in ipairs(f:zones()) do if z.cond ~= "empty" and z.cond ~= "not-wp" then busy = busy + 1 end end
      print("busy=" .. busy)
    ]]) .. " /dev/sda")
  T.eq(rc, 0, err)
  T.has(out, "busy=0")
  T.has(out, "\n     4     1073741824 ")
  T.has(out, "Sequential writes run at ")
end)

T.test("zoned: refusals — no --destroy, a disk that is not zoned, a file, bad parameters", function()
  local dir = T.tmpdir()
  local function run(args)
    local out, err, rc = T.platter(args, { cwd = dir })
    return out, err, rc
  end
  local _, err, rc = run { "--sim", "smr-hm", "zoned", "/dev/sda" }
  T.eq(rc, 1)
  T.has(err, "platter: zoned: open: /dev/sda is a block device: opening it for writing would destroy")
  _, err, rc = run { "--sim", "nvme", "zoned", "/dev/sda" }
  T.eq(rc, 1)
  T.eq(err, "platter: zoned: /dev/sda is not a zoned block device (queue/zoned: none)\n",
    "found before the device is opened for writing: no --destroy needed to hear it")
  T.write(dir .. "/plain.dat", "x")
  _, err, rc = run { "zoned", "plain.dat" }
  T.eq(rc, 1)
  T.eq(err, "platter: zoned: plain.dat is a regular file, not a zoned block device\n")
  for args, want in pairs {
    [{ "zoned" }] = "platter: zoned: missing DEVICE",
    [{ "zoned", "--samples", "0", "/dev/sda" }] = "platter: zoned: --samples 0: must be at least 1",
    [{ "zoned", "--bs", "6k", "/dev/sda" }] = "platter: zoned: --bs must be a multiple of 4096",
    [{ "zoned", "--bytes", "lots", "/dev/sda" }] = "platter: zoned: --bytes lots: bad size",
  } do
    local a = { "--sim", "smr-hm", "--destroy" }
    for _, x in ipairs(args) do a[#a + 1] = x end
    local _, e, r = run(a)
    T.eq(r, 2, table.concat(args, " "))
    T.has(e, want, table.concat(args, " "))
  end
  local out
  out, err, rc = run { "describe", "zoned" }
  T.eq(rc, 0, err)
  T.has(out, "needs: write yes, device block, root yes")
end)

-- A real block device that is not zoned: a loop device on an image of ours, detached by
-- name afterwards. The kernel's BLKREPORTZONE answers ENOTTY.
T.test("zoned: a real loop device is not zoned (root)", function()
  if not T.root then T.skip("needs root to attach a loop device") end
  local _, _, rc = T.sh("command -v losetup")
  if rc ~= 0 then T.skip("losetup is not installed") end
  local dir = T.tmpdir()
  local img = dir .. "/plain.img"
  T.sh_ok("truncate -s 4M " .. T.q(img))
  local dev, lerr, lrc = T.sh("losetup --find --show " .. T.q(img))
  if lrc ~= 0 then T.skip("cannot attach a loop device here: " .. lerr:gsub("\n", " ")) end
  dev = dev:gsub("%s+$", "")
  local ok, err = pcall(function()
    local out, perr, prc = T.sh(T.q(T.bin) .. " zoned " .. T.q(dev))
    T.eq(prc, 1, out .. perr)
    T.eq(perr, "platter: zoned: " .. dev .. " is not a zoned block device (queue/zoned: none)\n")
    out = T.sh_ok(T.q(T.bin) .. " -e " .. T.q("local f = assert(platter.open(arg[1])) " ..
      "print(f:info().zoned, f:info().zone_size, select(3, f:zones()))") .. " " .. T.q(dev))
    T.eq(out, "none\tnil\t25\n", "f:info().zoned and the kernel's ENOTTY")
  end)
  T.sh("losetup -d " .. T.q(dev))
  if not ok then error(err, 0) end
  T.eq(T.sh("losetup -j " .. T.q(img)), "", "loop devices left on the image")
  local out = T.sh_ok(T.q(T.bin) .. " -e " .. T.q("print(platter.open(arg[1]):zones())") .. " " .. T.q(img))
  T.has(out, "Inappropriate ioctl for device (not a zoned block device)\t25")
end)

-- A real zoned device: null_blk's zoned mode (Linux 4.19 on, CONFIG_BLK_DEV_NULL_BLK with
-- CONFIG_BLK_DEV_ZONED), loaded here with one device, the probe run on it, the module
-- removed again. Only when this test loads it: a null_blk already there holds devices
-- that are someone else's.
T.test("zoned: the probe on a real zoned null_blk device (root, null_blk)", function()
  if not T.root then T.skip("needs root to load null_blk") end
  local _, _, rc = T.sh("command -v modprobe && command -v rmmod")
  if rc ~= 0 then T.skip("modprobe and rmmod are not installed") end
  local f = io.open("/sys/module/null_blk")
  if f then
    f:close()
    T.skip("null_blk is loaded already: its devices are not this test's")
  end
  local _, merr, mrc = T.sh("modprobe null_blk nr_devices=1 zoned=1 zone_size=64 zone_nr_conv=2 gb=1 " ..
    "memory_backed=1 bs=4096")
  if mrc ~= 0 then T.skip("cannot load null_blk in zoned mode: " .. merr:gsub("\n", " ")) end
  local ok, err = pcall(function()
    local model = T.read("/sys/block/nullb0/queue/zoned")
    if not model:find("host%-managed") then error("nullb0 is not host-managed: " .. model) end
    local dir = T.tmpdir()
    local out, perr, prc = T.sh("cd " .. T.q(dir) .. " && " .. T.q(T.bin) ..
      " --destroy --json r.json zoned --samples 2 --bytes 8m /dev/nullb0")
    T.eq(prc, 0, perr)
    local r = zoned_of(cjson.decode(T.read(dir .. "/r.json")))
    T.eq(r.nr_zones, 16, "1 GiB in 64 MiB zones")
    T.eq(r.zone_size, 64 * MiB)
    T.eq(r.model, "host-managed")
    T.eq(r.report[1].type, "conventional")
    T.eq(r.report[1].zones, 2)
    T.eq(r.refusal.errno, EIO, "the kernel's answer to a write off the pointer")
    T.eq(r.ok, true, out)
  end)
  T.sh("rmmod null_blk")
  if not ok then error(err, 0) end
end)
