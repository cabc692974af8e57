-- align: does 4 KiB alignment matter? Direct 4 KiB reads and writes at offsets aligned to 512 B, 4 KiB and larger
--
-- A disk with 4 KiB physical sectors behind 512-byte logical ones (512e,
-- "Advanced Format") must read a physical sector before it can write part
-- of it: a write that is not 4 KiB-aligned pays a read-modify-write, and a
-- read that spans one more physical sector reads it too. This probe times
-- --count direct (O_DIRECT) I/Os of --bs bytes for each alignment A in
-- --alignments: the offsets are odd multiples of A (aligned to A, not to
-- 2A), each a random base, the same for every A, plus A. The bases are
-- multiples of twice the largest alignment inside TARGET, drawn from the
-- seed (--seed), so every alignment sees the same places of the disk.
--
-- The penalty of an alignment is its median latency over the best
-- alignment's, minus one. The rule: 4K alignment matters when, for reads or
-- writes, the worst alignment below 4 KiB takes at least THRESHOLD (10%)
-- longer by its median than the best alignment of 4 KiB or more (with
-- --alignments all on one side of 4 KiB: when some alignment's penalty is
-- at least that). The report also gives what the device says: its logical
-- and physical block sizes (sysfs).
local p = require "platter"

local NAME = "align"
local THRESHOLD = 10  -- percent

local P = p.script({
  name = NAME, version = "1.0", api = "platter/1",
  description = "4 KiB direct reads and writes at offsets aligned to 512, 4096 and more: "
    .. "the penalty per alignment, and the device's logical/physical block",
  params = {
    target = { type = "path", positional = true,
      help = "a file or block device (written with --mode write or both); default: a scratch file" },
    alignments = { type = "string", default = "512,4k,64k,1m",
      help = "the alignments, comma-separated sizes" },
    bs = { type = "size", default = "4k", min = "512", max = "1m", help = "bytes per I/O" },
    count = { type = "int", default = 256, min = 8, max = 1000000, short = "c",
      help = "I/Os per alignment and direction" },
    seconds = { type = "time", default = "10s", min = "1ms", help = "time limit of each run" },
    mode = { type = "enum", values = { "both", "read", "write" }, default = "both",
      help = "which directions to time" },
    size = { type = "size", default = "256m", min = "4m",
      help = "size of the scratch file made when no TARGET is given" },
  },
  needs = { write = true, device = "any" },
  epilog = "The rule: 4K alignment matters when offsets off 4 KiB take, by their median latency,\n"
    .. "at least " .. THRESHOLD .. "% longer than the best 4 KiB-aligned ones. With --mode write or "
    .. "both, TARGET is\noverwritten at the places probed (a block device needs --destroy).",
}, ...)

local aligns = {}
for w in P.alignments:gmatch("[^,]+") do
  local n, why = p.parse_size(w)
  if not n or n < 512 or n % 512 ~= 0 then
    p.usage_error(NAME, string.format("bad alignment '%s' in --alignments%s", w,
      why and (": " .. why) or ": a multiple of 512 expected"))
  end
  aligns[#aligns + 1] = n
end
if #aligns == 0 then p.usage_error(NAME, "--alignments is empty") end
table.sort(aligns)
local biggest = aligns[#aligns]

local writing = P.mode ~= "read"
local path = P.target
if not path then
  path = p.scratch(string.format("platter-align.%d.dat", p.pid()))
  p.log("align: making scratch file %s (%s)", path, p.size_string(P.size))
  assert(p.open(path, { create = true, write = true, size = P.size })):close()
end
local f, err = p.open(path, { direct = true, write = writing })
if not f then
  -- (p.open's own message may say O_DIRECT already)
  p.ewrite(string.format("platter: align: %s%s\n", err, err:find("O_DIRECT", 1, true) and ""
    or " (the probe needs O_DIRECT)"))
  p.exit(1)
end
local info = f:info()
local dio = info.dio_align or 512
local period = 2 * biggest
local places = math.floor((f:size() - P.bs - biggest) / period) + 1
if places < 1 then
  p.ewrite(string.format("platter: align: %s is too small: %d bytes, and the largest alignment "
    .. "needs %d\n", path, f:size(), period + P.bs))
  p.exit(1)
end
if P.bs % dio ~= 0 then
  p.usage_error(NAME, string.format("--bs %d is not a multiple of %s's O_DIRECT alignment (%d)",
    P.bs, path, dio))
end

local bases = {}
for k = 1, P.count do bases[k] = p.random(0, places - 1) * period end

-- {align, read = stats, write = stats} per alignment O_DIRECT allows
local results, skipped = {}, {}
for _, a in ipairs(aligns) do
  if a % dio ~= 0 then
    skipped[#skipped + 1] = a
  else
    local offs = {}
    for k, b in ipairs(bases) do offs[k] = b + a end
    local r = { align = a }
    for _, op in ipairs({ "read", "write" }) do
      if P.mode == "both" or P.mode == op then
        r[op] = p.run { file = f, name = string.format("%s at %d", op, a), op = op, bs = P.bs,
          pattern = "list", offsets = offs, count = P.count, seconds = P.seconds }
      end
    end
    results[#results + 1] = r
  end
end

local function kib(n)
  if n >= 1048576 and n % 1048576 == 0 then return string.format("%d MiB", n / 1048576) end
  if n >= 1024 and n % 1024 == 0 then return string.format("%d KiB", n / 1024) end
  return string.format("%d B", n)
end

-- the best median per direction, and each alignment's penalty over it (percent)
local best, worst = {}, {}
for _, op in ipairs({ "read", "write" }) do
  for _, r in ipairs(results) do
    if r[op] then
      r[op .. "_p50"] = r[op]:percentile(50)
      if not best[op] or r[op .. "_p50"] < best[op] then best[op] = r[op .. "_p50"] end
    end
  end
  for _, r in ipairs(results) do
    if r[op] and best[op] > 0 then
      r[op .. "_pct"] = 100 * (r[op .. "_p50"] / best[op] - 1)
      if not worst[op] or r[op .. "_pct"] > worst[op].pct then
        worst[op] = { pct = r[op .. "_pct"], align = r.align }
      end
    end
  end
end

local where = info.kind == "block" and "block device" or (info.fs_type or info.kind)
if info.device then where = where .. " on " .. info.device end
p.printf("align: %s direct I/O at offsets aligned to %s on %s (%s)\n", kib(P.bs),
  table.concat((function()
    local t = {}
    for i, a in ipairs(aligns) do t[i] = kib(a) end
    return t
  end)(), ", "), path, where)
p.printf("the device says: logical_block %s, physical_block %s, O_DIRECT alignment %d\n",
  tostring(info.logical_block or "unknown"), tostring(info.physical_block or "unknown"), dio)
p.printf("%d I/Os per alignment and direction, at random places (the same for every alignment)\n\n",
  P.count)

local function cell(r, op)
  if not r[op] then return "-", "-" end
  local pct = r[op .. "_pct"]
  return string.format("%.1f", r[op .. "_p50"] / 1000),
    pct and (pct < 0.05 and "best" or string.format("+%.1f%%", pct)) or "-"
end
p.printf("%-10s %14s %9s %14s %9s\n", "offsets", "read p50 us", "penalty", "write p50 us", "penalty")
for _, r in ipairs(results) do
  local rl, rp = cell(r, "read")
  local wl, wp = cell(r, "write")
  p.printf("%-10s %14s %9s %14s %9s\n", kib(r.align), rl, rp, wl, wp)
end
for _, a in ipairs(skipped) do
  p.printf("%-10s not possible: O_DIRECT on %s needs offsets aligned to %d\n", kib(a), path, dio)
end
-- The question is 4 KiB: the worst alignment below 4096 against the best one of 4096 or
-- more, per direction (pen4k, percent); when the list has no alignment on one side of
-- 4096, the worst alignment against the best (worst[op].pct).
local below, above = {}, {}
for _, r in ipairs(results) do
  if r.align < 4096 then below[#below + 1] = r else above[#above + 1] = r end
end
local split = #below > 0 and #above > 0
local pen4k, spread = {}, {}
for _, op in ipairs({ "write", "read" }) do
  local lo, hi, worst_below
  for _, r in ipairs(above) do
    local v = r[op .. "_p50"]
    if v then lo, hi = math.min(lo or v, v), math.max(hi or v, v) end
  end
  for _, r in ipairs(below) do
    local v = r[op .. "_p50"]
    if v and (not worst_below or v > worst_below.v) then worst_below = { v = v, align = r.align } end
  end
  if lo and lo > 0 and worst_below then
    pen4k[op] = { pct = 100 * (worst_below.v / lo - 1), align = worst_below.align }
  end
  if lo and lo > 0 and #above > 1 then spread[op] = 100 * (hi / lo - 1) end
end
if split then
  p.printf("\nrule: 4K alignment matters when offsets off 4 KiB take, by their median latency, at least\n"
    .. "%d%% longer than the best 4 KiB-aligned ones\n", THRESHOLD)
else
  p.printf("\nrule: alignment matters when an alignment's median latency is at least %d%% above\n"
    .. "the best one's\n", THRESHOLD)
end

local matters = {}
for _, op in ipairs({ "write", "read" }) do
  local w = split and pen4k[op] or (not split and worst[op])
  if w and w.pct >= THRESHOLD then matters[#matters + 1] = { op = op, pct = w.pct, align = w.align } end
end
local says = string.format("the device reports %s-byte logical and %s-byte physical sectors",
  tostring(info.logical_block or "?"), tostring(info.physical_block or "?"))
local what = split and "4K alignment" or "alignment"
local answer, text
if #results < 2 then
  answer = "too-few"
  text = "cannot tell: fewer than two alignments could be timed; " .. says
elseif #matters > 0 then
  answer = "matters"
  local parts = {}
  for _, m in ipairs(matters) do
    parts[#parts + 1] = string.format("%ss at %s offsets take %.0f%% longer", m.op, kib(m.align), m.pct)
  end
  text = string.format("%s matters: %s than %s; %s", what, table.concat(parts, ", "),
    split and "4 KiB-aligned ones" or "the best", says)
else
  answer = "does-not-matter"
  text = string.format("%s does not matter here%s: %s within %d%% of %s; %s", what,
    P.mode == "both" and "" or " for " .. P.mode .. "s",
    split and "offsets off 4 KiB are" or "every alignment is", THRESHOLD,
    split and "4 KiB-aligned ones" or "the best", says)
end
for _, op in ipairs({ "write", "read" }) do
  if split and spread[op] and spread[op] >= THRESHOLD then
    p.printf("note: the %ss at 4 KiB-aligned offsets differ by up to %.0f%% among themselves "
      .. "(larger alignments, or noise: a larger --count tells)\n", op, spread[op])
  end
end
p.printf("verdict: %s\n", text)
local per = {}
for _, r in ipairs(results) do
  per[#per + 1] = { align = r.align, read_p50_ns = r.read_p50, write_p50_ns = r.write_p50,
    read_penalty_pct = r.read_pct, write_penalty_pct = r.write_pct }
end
p.verdict(text, { probe = NAME, answer = answer, logical_block = info.logical_block,
  physical_block = info.physical_block, dio_align = dio, alignments = per,
  penalty_4k_pct = split and { read = pen4k.read and pen4k.read.pct,
    write = pen4k.write and pen4k.write.pct } or nil,
  rule = { threshold_pct = THRESHOLD, question = split and "4k" or "any" } })
f:close()
if not P.target then p.remove(path) end
