-- zoned: zone report, sequential-write-required rule, write pointer, zone reset and per-zone write throughput of a zoned block device
--
-- For host-managed (SMR, ZNS) and host-aware disks, which the kernel shows as
-- zoned block devices (/sys/block/DEV/queue/zoned). It
--
--   1. reports the zones (BLKREPORTZONE): how many of each type and
--      condition, the zone size and the open/active limits;
--   2. takes the first sequential zone (seq-write-required, else
--      seq-write-preferred), resets it and checks that the write pointer is
--      at the zone's start; writes at the pointer twice and checks that it
--      moved by each write; writes behind it (at the zone's start) and ahead
--      of it, which a host-managed zone must refuse (the kernel answers EIO)
--      and a host-aware one may take; resets it again and checks that the
--      pointer is back at the start;
--   3. writes into the first conventional zone at an unaligned-to-the-pointer
--      offset, which must work (conventional zones have no write pointer);
--   4. resets each of --samples sequential zones (the first, the last and
--      evenly between), writes --bytes sequentially in --bs O_DIRECT writes
--      (one p.run each, "zone N write"), checks the pointer moved by as much,
--      and resets it again.
--
-- It overwrites the zones it tests (needs --destroy, as any write to a block
-- device) and leaves them empty. The verdict says in plain words whether the
-- device kept the rules; the --json record has it all under `result`.
local p = require "platter"

local NAME = "zoned"
local MiB = 1048576

local P = p.script({
  name = NAME, version = "1.0", api = "platter/1",
  description = "zone report, sequential-write rule, write pointer, reset and per-zone write "
    .. "throughput of a zoned block device",
  usage = "[options] DEVICE",
  params = {
    target = { type = "path", positional = true, required = true, arg = "DEVICE",
      help = "the zoned block device (its tested zones are overwritten)" },
    bs = { type = "size", default = "1m", min = "4k", max = "64m", help = "request size of the throughput writes" },
    bytes = { type = "size", default = "64m", min = "1m",
      help = "bytes written into each sampled zone (at most a zone's capacity)" },
    samples = { type = "int", default = 3, min = 1, max = 64,
      help = "sequential zones whose write throughput is measured" },
  },
  needs = { write = true, device = "block", root = true },
  epilog = "DEVICE must be a zoned block device (host-managed or host-aware); under --sim, the\n"
    .. "smr-hm and zns presets' /dev/sda is one. Writing it needs --destroy.",
}, ...)

local function fail(fmt, ...)
  p.ewrite("platter: zoned: ", string.format(fmt, ...), "\n")
  p.exit(1)
end

-- read-only first: a device that is not zoned is never opened for writing
local f, err = p.open(P.target, { direct = true })
if not f then fail("%s", err) end
local info = f:info()
if info.kind ~= "block" then
  fail("%s is a %s, not a zoned block device", P.target, info.kind == "file" and "regular file" or info.kind)
end
local zones, zerr, zerrno = f:zones()
if not zones then
  if zerrno == 25 then  -- ENOTTY
    fail("%s is not a zoned block device (queue/zoned: %s)", P.target, info.zoned or "unknown")
  end
  fail("%s", zerr)
end
if #zones == 0 then fail("%s reports no zones", P.target) end
f:close()
f, err = p.open(P.target, { direct = true, write = true })  -- needs --destroy
if not f then fail("%s", err) end
local unit = math.max(info.dio_align or 512, 4096)
if P.bs % unit ~= 0 then p.usage_error(NAME, string.format("--bs must be a multiple of %d", unit)) end

local function size_text(n)
  return p.size_string(n)
end

-- {====================================================================
-- 1. The report
-- =====================================================================

local counts, order = {}, {}
local by_type = {}
for _, z in ipairs(zones) do
  local key = z.type .. "\0" .. z.cond
  if not counts[key] then
    counts[key] = { type = z.type, cond = z.cond, zones = 0, bytes = 0 }
    order[#order + 1] = key
  end
  counts[key].zones = counts[key].zones + 1
  counts[key].bytes = counts[key].bytes + z.len
  by_type[z.type] = (by_type[z.type] or 0) + 1
end
local zone_size = info.zone_size or zones[1].len
local function limit(n) return (n and n > 0) and tostring(n) or "no limit" end

local cap_note = ""  -- a ZNS zone may hold less than its size
for _, z in ipairs(zones) do
  if z.type ~= "conventional" and z.capacity < z.len then
    cap_note = string.format(", each holding %s", size_text(z.capacity))
    break
  end
end
p.printf("Zones of %s: %d zones of %s%s (%s, max open %s, max active %s)\n\n", P.target, #zones,
  size_text(zone_size), cap_note, info.zoned or "zoned", limit(info.max_open_zones),
  limit(info.max_active_zones))
p.printf("%-20s %-14s %7s %12s\n", "type", "condition", "zones", "bytes")
local report = {}
for _, key in ipairs(order) do
  local c = counts[key]
  p.printf("%-20s %-14s %7d %12s\n", c.type, c.cond, c.zones, size_text(c.bytes))
  report[#report + 1] = c
end
p.write("\n")
p.flush()

-- {====================================================================
-- 2. The write pointer, on the first sequential zone
-- =====================================================================

local function zone_at(off)
  local z = f:zones(off, 1)
  return z and z[1]
end

local function first_of(kind)
  for i, z in ipairs(zones) do
    if z.type == kind and z.cond ~= "read-only" and z.cond ~= "offline" then return i - 1, z end
  end
end

local seq_kind = "seq-write-required"
local tn, tz = first_of(seq_kind)
if not tz then
  seq_kind = "seq-write-preferred"
  tn, tz = first_of(seq_kind)
end
local required = seq_kind == "seq-write-required"
local checks, problems = {}, {}
local function check(name, ok, text, detail)
  checks[#checks + 1] = { name = name, ok = ok, detail = detail }
  p.printf("  %-4s %s%s\n", ok and "ok" or "FAIL", text, detail and (": " .. detail) or "")
  if not ok then problems[#problems + 1] = text end
  return ok
end
local refusal  -- what a write off the pointer got: { errno, message }

if tz then
  local s = tz.start
  p.printf("Write pointer of zone %d (%s, at %d):\n", tn, seq_kind, s)
  local ok, rerr = f:zone_reset(s)
  local z = zone_at(s)
  check("reset", ok and z and z.wp == s, "reset puts the write pointer at the zone's start",
    not ok and rerr or nil)
  local w1, e1 = f:pwrite(s, unit)
  check("write_at_wp", w1 == unit, string.format("a %d-byte write at the write pointer works", unit), e1)
  z = zone_at(s)
  check("wp_advance", z and z.wp == s + unit, "the write pointer moved by the write",
    z and string.format("+%d", z.wp - s) or nil)
  local w2, e2 = f:pwrite(s + unit, unit)
  z = zone_at(s)
  check("wp_advance_again", w2 == unit and z and z.wp == s + 2 * unit,
    "a second write at the new pointer works and moves it again", e2)
  local behind, bmsg, berr = f:pwrite(s, unit)
  local ahead, amsg, aerr = f:pwrite(s + 4 * unit, unit)
  z = zone_at(s)
  if required then
    check("write_behind_wp", behind == nil, "a write behind the pointer (at the zone's start) fails",
      bmsg or "it was taken")
    check("write_ahead_wp", ahead == nil, "a write ahead of the pointer fails", amsg or "it was taken")
    check("wp_unmoved", z and z.wp == s + 2 * unit, "the failed writes left the pointer alone",
      z and string.format("+%d", z.wp - s) or nil)
    refusal = { errno = berr or aerr, message = bmsg or amsg }
  else
    check("write_off_wp", true, "writes off the pointer are "
      .. ((behind and ahead) and "taken (a host-aware zone may)" or "refused"),
      (not behind and bmsg) or (not ahead and amsg) or nil)
  end
  ok, rerr = f:zone_reset(s)
  z = zone_at(s)
  check("reset_again", ok and z and z.wp == s and z.cond == "empty",
    "a reset puts the pointer back at the start and the zone is empty", not ok and rerr or nil)
  p.write("\n")
end

local cn, cz = first_of("conventional")
if cz then
  local off = cz.start + 3 * unit
  local w, e = f:pwrite(off, unit)
  p.printf("Conventional zone %d:\n", cn)
  check("conventional_write", w == unit, string.format("a write at offset %d (no write pointer) works", off), e)
  p.write("\n")
end
p.flush()

-- {====================================================================
-- 3. Write throughput of sampled zones
-- =====================================================================

local seqs = {}
for i, z in ipairs(zones) do
  if z.type == seq_kind and z.cond ~= "read-only" and z.cond ~= "offline" then seqs[#seqs + 1] = i end
end
local picks, seen = {}, {}
local n = math.min(P.samples, #seqs)
for k = 0, n - 1 do
  local j = n > 1 and 1 + math.floor(k * (#seqs - 1) / (n - 1) + 0.5) or 1
  if not seen[j] then
    seen[j] = true
    picks[#picks + 1] = seqs[j]
  end
end

local rates = {}
if #picks > 0 then
  p.printf("Sequential write, %s per zone (at most its capacity) in %s O_DIRECT writes:\n",
    size_text(P.bytes), size_text(P.bs))
  p.printf("%6s %14s %10s  %s\n", "zone", "start", "MiB/s", "write pointer after")
  p.flush()
end
for _, i in ipairs(picks) do
  local z = zones[i]
  local bytes = math.min(P.bytes, z.capacity)
  bytes = bytes - bytes % P.bs
  if bytes < P.bs then fail("zone %d holds less than one %s write", i - 1, size_text(P.bs)) end
  local ok, rerr = f:zone_reset(z.start)
  if not ok then fail("%s", rerr) end
  local r = p.run {
    file = f, op = "write", bs = P.bs, pattern = "seq", range = { z.start, z.start + bytes },
    bytes = bytes, engine = "psync", name = string.format("zone %d write", i - 1),
  }
  local after = zone_at(z.start)
  local moved = after and after.wp and after.wp - z.start
  local mibps = r.seconds > 0 and r.bytes / r.seconds / MiB or 0
  local good = not r.error and moved == bytes
  p.printf("%6d %14d %10.2f  %s\n", i - 1, z.start, mibps,
    r.error and ("error: " .. r.error) or string.format("+%s%s", size_text(moved or 0),
      moved == bytes and "" or string.format(" (expected +%s)", size_text(bytes))))
  if not good then problems[#problems + 1] = string.format("zone %d's throughput write", i - 1) end
  rates[#rates + 1] = { zone = i - 1, start = z.start, bytes = bytes, mibps = mibps, wp_moved = moved,
    error = r.error, ok = good }
  f:zone_reset(z.start)
  p.flush()
end
f:close()

-- {====================================================================
-- The verdict
-- =====================================================================

local words = {}
local nseq = by_type[seq_kind] or 0
words[#words + 1] = string.format("A %s zoned device of %d zones of %s (%d %s, %d conventional).",
  info.zoned or "zoned", #zones, size_text(zone_size), nseq, seq_kind, by_type.conventional or 0)
if #problems == 0 then
  if tz and required then
    words[#words + 1] = string.format("Writes at the write pointer work and move it; writes off it fail "
      .. "(%s, errno %s); a reset puts it back at the start.", refusal.message and
      refusal.message:match(": ([^:]+)$") or "refused", tostring(refusal.errno))
  elseif tz then
    words[#words + 1] = "Writes at the write pointer move it; a reset puts it back at the start."
  end
  if #rates > 1 then
    words[#words + 1] = string.format("Sequential writes run at %.1f MiB/s in zone %d and %.1f MiB/s in "
      .. "zone %d (%.2fx).", rates[1].mibps, rates[1].zone, rates[#rates].mibps, rates[#rates].zone,
      rates[1].mibps > 0 and rates[#rates].mibps / rates[1].mibps or 0)
  elseif #rates == 1 then
    words[#words + 1] = string.format("Sequential writes run at %.1f MiB/s.", rates[1].mibps)
  end
  words[#words + 1] = "The zones keep the rules."
else
  words[#words + 1] = "The device broke the zone rules: " .. table.concat(problems, "; ") .. "."
end
local verdict = table.concat(words, " ")
p.printf("\nVerdict: %s\n", verdict)

p.report("zoned", {
  device = P.target, model = info.zoned, zone_size = zone_size, nr_zones = #zones,
  max_open_zones = info.max_open_zones, max_active_zones = info.max_active_zones,
  report = report, test_zone = tn, test_zone_type = tz and seq_kind or nil,
  checks = checks, refusal = refusal, throughput = rates,
  ok = #problems == 0, verdict = verdict,
})
p.verdict(verdict, { probe = "zoned", answer = #problems == 0 and "keeps the zone rules"
  or "breaks the zone rules", model = info.zoned, nr_zones = #zones, zone_size = zone_size })
