-- The probes vwc, slc-cliff and align (issue 16): on the simulated disk each preset
-- with the feature gives its known answer, and one without it the opposite; the
-- arguments are checked from their manifests; and each runs for real on a small
-- scratch file in the current directory. Also p.verdict, which they record with.
local T = ...
local cjson = require "cjson"

-- run a probe (words) in a fresh directory, with --json; stdout, the record, stderr
local function probe(words, sim)
  local dir = T.tmpdir()
  local args = { "--quiet", "--json", dir .. "/r.json" }
  if sim then args[#args + 1] = "--sim"; args[#args + 1] = sim end
  for _, w in ipairs(words) do args[#args + 1] = w end
  local out, err, rc = T.platter(args, { cwd = dir })
  if rc ~= 0 then error(table.concat(words, " ") .. " failed (" .. rc .. "): " .. out .. err, 2) end
  local doc = cjson.decode(T.read(dir .. "/r.json"))
  T.eq(T.sh("ls " .. T.q(dir)), "r.json\n", "the scratch file is gone")
  return out, doc, err
end

local function verdict_line(out) return out:match("\nverdict: ([^\n]+)") end

-- the record's verdict and the printed line agree; its facts
local function verdict(out, doc, name)
  T.ok(doc.verdict, "the record has a verdict")
  T.eq(doc.verdict.text, verdict_line(out), "the record's verdict is the printed one")
  T.eq(doc.verdict.probe, name, "the verdict names its probe")
  T.eq(doc.script.manifest.name, name, "the manifest is recorded")
  return doc.verdict
end

-- the phase records by name
local function phases(doc)
  local by = {}
  for _, r in ipairs(doc.phases) do by[r.kind .. ":" .. r.name] = r end
  return by
end

T.test("vwc: a volatile cache that honours flushes, one that ignores them, and none", function()
  local cases = {
    { "sata-7200-wc", "honoured", "volatile write cache, flushes honoured", "write back" },
    { "sata-7200-lying", "ignored", "flushes appear to be ignored", "write back" },
    { "nvme", "write-through", "no volatile cache (write-through)", "write through" },
    { "ata-5400-1999", "write-through", "no volatile cache (write-through)", "write through" },
  }
  for _, c in ipairs(cases) do
    local out, doc = probe({ "vwc", "--count", "50" }, c[1])
    local v = verdict(out, doc, "vwc")
    T.eq(v.answer, c[2], c[1] .. ": answer")
    T.eq(v.text, c[3], c[1] .. ": verdict")
    T.eq(v.write_cache, c[4], c[1] .. ": what the device says")
    T.eq(doc.files[1].write_cache, c[4], c[1] .. ": f:info().write_cache")
    T.has(out, "rule: a flush is honoured when write+fdatasync takes at least 3x", "the rule")
    local ph = phases(doc)
    T.eq(ph["run:write"].ops, 50, "plain writes")
    T.eq(ph["run:write+fdatasync"].by_op.fsync.ops, 50, "an fdatasync per write")
    T.eq(ph["run:O_DSYNC write"].ops, 50, "O_DSYNC writes")
    if c[2] == "honoured" then
      -- a flush pays the media write: about a revolution at 7200 RPM for the block just written
      T.ok(v.flush_p50_ns > 5e6 and v.flush_p50_ns < 8.4e6, "fdatasync waits for the media: "
        .. v.flush_p50_ns)
      T.ok(v.dsync_p50_ns > 5e6, "so does an O_DSYNC write: " .. v.dsync_p50_ns)
      T.ok(v.write_p50_ns < 100e3, "a plain write ends in the cache: " .. v.write_p50_ns)
    elseif c[2] == "ignored" then
      T.ok(v.flush_p50_ns < 3 * v.write_p50_ns, "a flush costs a command only")
    end
  end
end)

T.test("vwc: the cached writes reach the media at the next flush, and not with a lying drive",
  function()
    local code = [[
      local p = require "platter"
      local f = assert(p.open(p.scratch("w.dat"), { create = true, write = true, direct = true,
        size = "1m" }))
      f:fsync()
      for i = 0, 63 do f:pwrite(i * 4096, 4096) end
      local t0 = p.now()
      f:fsync()
      print(string.format("flush=%d", p.now() - t0))
    ]]
    local dir = T.tmpdir()
    local function flush_ns(sim)
      local out = T.sh_ok("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " --sim " .. sim .. " -e "
        .. T.q(code))
      return tonumber(out:match("flush=(%d+)"))
    end
    local honest, lying = flush_ns("sata-7200-wc"), flush_ns("sata-7200-lying")
    -- 64 coalesced 4 KiB writes: one 256 KiB media write, a seek, rotation and transfer
    T.ok(honest > 1e6, "the flush writes the cache: " .. honest)
    T.ok(lying < 100e3, "the lying drive's flush writes nothing: " .. lying)
  end)

T.test("slc-cliff: the bytes before the cliff are the preset's 12 GiB SLC region", function()
  local out, doc = probe({ "slc-cliff" }, "nvme-qlc")
  local v = verdict(out, doc, "slc-cliff")
  T.eq(v.answer, "cliff", "a cliff")
  local slc = 12 * 2 ^ 30
  -- tolerance: 0.5% of the region (the estimate within the cliff's interval)
  T.near(v.bytes_before, slc, slc * 0.005, "bytes before the cliff")
  T.near(v.rate_before, 1.8e9 * 0.96, 0.05e9, "the SLC rate (1.8 GB/s less the per-I/O costs)")
  T.near(v.rate_after, 110e6, 2e6, "the rate after it (110 MB/s)")
  T.ok(v.written < slc + 2 * 2 ^ 30, "it stops soon after the cliff: " .. v.written)
  T.has(out, "<- cliff", "the table marks the cliff")
  T.has(v.text, "about 12.00 GiB", "the verdict says the size")
  local s = phases(doc)["phase:sequential write"]
  T.ok(s.series and #s.series >= 12, "the phase keeps its time series")
  T.eq(v.rule.window, 5, "the rule's window")
  -- a smaller rule: --window 3 --hold 2 --drop 30, with half-second intervals
  out, doc = probe({ "slc-cliff", "--window", "3", "--hold", "2", "--drop", "30",
    "--interval", "0.5s" }, "nvme-qlc")
  v = verdict(out, doc, "slc-cliff")
  T.near(v.bytes_before, slc, slc * 0.005, "bytes before the cliff, other rule")
  T.eq(v.rule.drop_pct, 30, "the rule's drop")
end)

T.test("slc-cliff: the record draws as a time series plot", function()
  local _, _, rc = T.sh("command -v gnuplot")
  if rc ~= 0 then T.skip("gnuplot not found") end
  local dir = T.tmpdir()
  T.sh_ok("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " --quiet --sim nvme-qlc --json r.json "
    .. "slc-cliff --interval 0.5s >/dev/null && " .. T.q(T.bin) .. " plot r.json --kind series "
    .. "-o s.svg --phase 'sequential write'")
  T.has(T.read(dir .. "/s.svg"), "sequential write", "the phase is drawn")
end)

T.test("sim: the SLC region empties while the drive is idle, at the slow rate", function()
  local dir = T.tmpdir()
  local code = [[
    local p = require "platter"
    local f = assert(p.open(p.scratch("w.dat"), { create = true, write = true, direct = true }))
    local function rate(from, gib)
      local r = p.run { file = f, op = "write", bs = "1m", range = { from, from + gib * 2^30 } }
      return r.bw
    end
    local full = rate(0, 12)               -- fills the 12 GiB region
    local slow = rate(12 * 2^30, 1)        -- past it
    p.sleep(2^30 / 110e6 * 4 + 1)          -- idle: 4 GiB moved out at 110 MB/s, and more
    local again = rate(13 * 2^30, 4)       -- fast again for 4 GiB
    local then_slow = rate(17 * 2^30, 1)
    print(string.format("full=%.0f slow=%.0f again=%.0f after=%.0f", full, slow, again, then_slow))
  ]]
  local out = T.sh_ok("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " --sim nvme-qlc -e " .. T.q(code))
  local v = {}
  for k, x in out:gmatch("(%w+)=(%d+)") do v[k] = tonumber(x) end
  T.ok(v.full > 1.6e9, "12 GiB at the SLC rate: " .. v.full)
  T.ok(v.slow < 0.12e9, "then the slow rate: " .. v.slow)
  T.ok(v.again > 1.6e9, "after idling, fast again: " .. v.again)
  T.ok(v.after < 0.3e9, "until the room idling made is used: " .. v.after)
end)

T.test("slc-cliff: no cliff without an SLC region, and a run too short to tell", function()
  local out, doc = probe({ "slc-cliff", "--size", "20g" }, "nvme")
  local v = verdict(out, doc, "slc-cliff")
  T.eq(v.answer, "none", "no cliff on nvme")
  T.has(v.text, "no cliff: writes kept above 50% of", "the verdict")
  T.eq(v.written, 20 * 2 ^ 30, "--size bounds the run")
  out, doc = probe({ "slc-cliff", "--size", "8m" }, "nvme-qlc")
  T.eq(verdict(out, doc, "slc-cliff").answer, "too-short", "fewer intervals than the window")
  out, doc = probe({ "slc-cliff", "--seconds", "11s" }, "nvme-qlc")
  T.eq(verdict(out, doc, "slc-cliff").answer, "unconfirmed", "a drop that did not hold yet")
  T.ok(doc.verdict.seconds < 11.02, "--seconds bounds the run (and the write under way)")
end)

T.test("align: 512e pays a read-modify-write for writes off 4 KiB, a 512n disk does not", function()
  local out, doc = probe({ "align", "--count", "64" }, "sata-5400-512e")
  local v = verdict(out, doc, "align")
  T.eq(v.answer, "matters", "512e: alignment matters")
  T.eq(v.logical_block, 512, "logical block")
  T.eq(v.physical_block, 4096, "physical block, as sysfs says")
  T.eq(doc.files[1].physical_block, 4096, "f:info().physical_block")
  local by = {}
  for _, a in ipairs(v.alignments) do by[a.align] = a end
  -- one more revolution (5400 RPM: 11.1 ms) for the writes at 512-byte offsets
  T.near(by[512].write_p50_ns - by[4096].write_p50_ns, 60e9 / 5400, 0.6e6, "the extra revolution")
  T.ok(by[512].read_penalty_pct >= 0 and by[512].read_penalty_pct < 10,
    "a read over one more physical sector costs a little at most: " .. by[512].read_penalty_pct)
  for _, a in ipairs({ 4096, 65536, 1048576 }) do
    T.ok(by[a].write_penalty_pct < 1, a .. ": aligned writes pay nothing")
  end
  T.has(v.text, "writes at 512 B offsets take", "the verdict names the alignment")
  T.has(v.text, "4K alignment matters: writes at 512 B offsets take 1", "... and the penalty (over 100%)")
  T.near(v.penalty_4k_pct.write, by[512].write_penalty_pct, 1e-9, "against the best aligned one")
  T.ok(v.penalty_4k_pct.read < 10, "reads under the threshold")
  T.eq(v.rule.question, "4k", "the rule asks about 4 KiB")
  -- every alignment at 4 KiB or more: the general rule, and no penalty
  out, doc = probe({ "align", "--count", "32", "--alignments", "4k,64k" }, "sata-5400-512e")
  v = verdict(out, doc, "align")
  T.eq(v.rule.question, "any", "no alignment below 4 KiB")
  T.eq(v.answer, "does-not-matter", "aligned offsets on 512e")
  T.has(v.text, "alignment does not matter here: every alignment is within 10% of the best", "its words")
  for _, sim in ipairs({ "nvme", "ata-5400-1999" }) do
    out, doc = probe({ "align", "--count", "64" }, sim)
    v = verdict(out, doc, "align")
    T.eq(v.answer, "does-not-matter", sim .. ": 512-byte physical sectors")
    T.eq(v.physical_block, 512, sim .. ": physical block")
  end
  local _, doc3 = probe({ "align", "--count", "16", "--mode", "read", "--alignments", "4k,8k" }, "nvme")
  T.eq(#doc3.phases, 2, "--mode read: one run per alignment")
end)

T.test("the probes' arguments are checked from their manifests", function()
  local cases = {
    { { "vwc", "--count", "5" }, "--count 5: must be at least 10" },
    { { "vwc", "--bs", "lots" }, "--bs lots: bad size" },
    { { "vwc", "--bs", "1000" }, "--bs 1000 is not a multiple of platter-vwc.4242.dat's O_DIRECT alignment (512)" },
    { { "slc-cliff", "--drop", "100" }, "--drop 100: must be at most 99" },
    { { "slc-cliff", "--interval", "0" }, "--interval 0: must be at least" },
    { { "align", "--mode", "sideways" }, "bad value 'sideways' for --mode: expected one of" },
    { { "align", "--alignments", "4k,100" }, "bad alignment '100' in --alignments" },
    { { "align", "--bogus" }, "unknown option '--bogus'" },
  }
  for _, c in ipairs(cases) do
    local out, err, rc = T.platter({ "--sim", "nvme", (table.unpack or unpack)(c[1]) }, { cwd = T.tmpdir() })
    T.eq(rc, 2, table.concat(c[1], " ") .. ": a usage error")
    T.has(err, c[2], table.concat(c[1], " "))
    T.eq(out, "", "nothing on stdout")
  end
  for _, name in ipairs({ "vwc", "slc-cliff", "align" }) do
    local out, _, rc = T.platter({ name, "--help" })
    T.eq(rc, 0, name .. " --help")
    T.has(out, name .. " 1.0 (platter/1)", name .. ": the manifest's help")
    local d = T.sh_ok(T.q(T.bin) .. " describe --json " .. name)
    T.eq(cjson.decode(d).needs.write, true, name .. " says it writes")
  end
end)

T.test("p.verdict: kept in the record with its repetition; bad facts raise", function()
  local dir = T.tmpdir()
  local code = [[
    local p = require "platter"
    print(p.verdict("yes", { n = 3, nested = { "a", true } }))
  ]]
  local out = T.sh_ok("cd " .. T.q(dir) .. " && " .. T.q(T.bin) .. " --quiet --repeat 2 --json r.json -e "
    .. T.q(code))
  T.eq(out, "yes\nyes\n", "it returns its text")
  local doc = cjson.decode(T.read(dir .. "/r.json"))
  T.eq(doc.verdict.text, "yes", "the text")
  T.eq(doc.verdict.n, 3, "a fact")
  T.eq(doc.verdict.nested[2], true, "a nested fact")
  T.eq(doc.verdict.rep, 2, "the last repetition's")
  T.eq(#doc.verdicts, 2, "every repetition's")
  local _, err, rc = T.platter({ "-e", "require('platter').verdict('x', { f = print })" })
  T.eq(rc, 1, "a function as a fact")
  T.has(err, "bad argument #2 to 'verdict' (facts.f: a function cannot be recorded)", "the message")
  _, err, rc = T.platter({ "-e", "require('platter').verdict(1)" })
  T.eq(rc, 1, "a number as the text")
  T.has(err, "(command line):1: bad argument #1 to 'verdict' (string expected, got number)", "its line")
end)

T.test("the probes run on a real file in the current directory, in a few seconds", function()
  local runs = {
    { "vwc", "--count", "20" },
    { "slc-cliff", "--size", "16m", "--interval", "2ms", "--window", "3", "--hold", "2" },
    { "align", "--size", "8m", "--count", "16" },
  }
  for _, words in ipairs(runs) do
    local t0 = os.time()
    local out, doc = probe(words)
    local v = verdict(out, doc, words[1])
    T.ok(v.answer and v.answer ~= "", words[1] .. ": an answer: " .. tostring(v.answer))
    T.ok(os.time() - t0 <= 10, words[1] .. " took a few seconds at most")
  end
end)
