-- Result records (--json/--csv), repeats and their statistics, the histogram
-- helpers: lua/platter/recorder.lua, resultfile.lua, cachewatch.lua and statmath.lua.
local T = ...
local p = require "platter"
local sm = require "platter.statmath"
local resultfile = require "platter.resultfile"
local cjson = require "cjson"

local function write(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

local function read(path)
  local f = assert(io.open(path))
  local s = f:read("*a")
  f:close()
  return s
end

local function decode(path)
  local doc = cjson.decode(read(path))
  T.ok(type(doc) == "table", path .. " decodes to a table")
  return doc
end

-- {--- the statistics ------------------------------------------------------------------

T.test("t quantiles: t(0.975, 4) = 2.776 and the printed table for df 1..30", function()
  T.near(sm.t_quantile(0.975, 4), 2.776445, 1e-5, "t(0.975, 4)")
  T.near(sm.t_quantile(0.975, 1), 12.706205, 1e-5, "t(0.975, 1)")
  T.near(sm.t_quantile(0.995, 10), 3.169273, 1e-5, "t(0.995, 10)")
  T.near(sm.t_quantile(0.95, 30), 1.697261, 1e-5, "t(0.95, 30)")
  T.near(sm.t_quantile(0.025, 4), -2.776445, 1e-5, "lower tail")
  T.near(sm.t_quantile(0.975, 1000), 1.962339, 1e-5, "df 1000, near the normal 1.96")
  for df = 1, 30 do
    T.near(sm.t_quantile(0.975, df), sm.T975[df], 0.0006, "t(0.975, " .. df .. ")")
  end
end)

T.test("t distribution: cdf values and the incomplete beta function", function()
  T.near(sm.t_cdf(0, 7), 0.5, 1e-12, "cdf(0)")
  T.near(sm.t_cdf(2.0, 10), 0.963306, 1e-6, "cdf(2, 10)")
  T.near(sm.t_cdf(-1.0, 1), 0.25, 1e-12, "Cauchy cdf(-1)")
  T.near(sm.t_cdf(1.0, 2), 0.5 + 0.5 / math.sqrt(3), 1e-12, "cdf(1, 2)")
  T.near(sm.betai(2, 3, 0.4), 0.5248, 1e-10, "I_0.4(2, 3)")
  T.near(sm.lgamma(5), math.log(24), 1e-12, "lgamma(5)")
  T.near(sm.lgamma(0.5), math.log(math.sqrt(math.pi)), 1e-13, "lgamma(0.5)")
end)

T.test("summary: mean, sd and the 95% interval of a known sample", function()
  local s = sm.summary({ 10, 12, 9, 11, 13 })
  T.eq(s.n, 5, "n")
  T.near(s.mean, 11, 1e-12, "mean")
  T.near(s.sd, math.sqrt(2.5), 1e-12, "sd")
  T.near(s.ci, 2.776445 * math.sqrt(2.5) / math.sqrt(5), 1e-5, "half-width")
  T.near(s.ci, 1.9632, 1e-4, "half-width by hand")
  T.near(s.lo, 11 - s.ci, 1e-12, "lo")
  T.near(s.ci_pct, 100 * s.ci / 11, 1e-9, "ci_pct")
  T.eq(s.min, 9, "min")
  T.eq(s.max, 13, "max")
  local one = sm.summary({ 42 })
  T.eq(one.mean, 42, "one value: mean")
  T.eq(one.ci, nil, "one value: no interval")
end)

T.test("Welch's t-test: the textbook example (t = -2.46, df = 25.0, p = 0.021)", function()
  local a = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7,
    21.4 }
  local b = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5,
    24.4 }
  local w = sm.welch(a, b)
  T.near(w.t, -2.46, 0.005, "t")
  T.near(w.df, 24.99, 0.01, "df")
  T.near(w.p, 0.021, 0.0005, "p")
  T.eq(sm.welch({ 1 }, { 1, 2 }), nil, "one side with one value")
  T.eq(sm.welch({ 5, 5 }, { 5, 5 }).p, 1, "equal constants")
  T.eq(sm.welch({ 5, 5 }, { 6, 6 }).p, 0, "different constants")
end)

-- }------------------------------------------------------------------------------

-- {--- histogram bins ------------------------------------------------------------------

T.test("histogram bins: percentiles from bins equal s:percentile", function()
  local d = T.tmpdir()
  local f = assert(p.open(d .. "/h.dat", { create = true, write = true, size = "256k" }))
  local s = p.phase("h", function()
    for i = 0, 63 do f:pread(i * 4096, 4096) end
  end)
  f:close()
  local bins = s:buckets()
  T.eq(sm.hist_count(bins), s.ops, "count")
  local lo, hi = s:min(), s:max()
  for _, pc in ipairs(resultfile.PERCENTILES) do
    T.eq(sm.hist_percentile(bins, pc, lo, hi), s:percentile(pc), "p" .. pc)
  end
  T.eq(sm.hist_percentile(bins, 0, lo, hi), s:percentile(0), "p0")
  T.eq(sm.hist_percentile(bins, 100, lo, hi), s:percentile(100), "p100")
end)

T.test("merging bins read back from JSON equals s:merge in memory", function()
  local d = T.tmpdir()
  write(d .. "/m.lua", [[
local p = require "platter"
local cjson = require "cjson"
local f = assert(p.open("m.dat", { create = true, write = true, size = "1m", direct = true }))
local a = p.phase("a", function() for i = 0, 99 do f:pread((i % 256) * 4096, 4096) end end)
local b = p.run{ file = f, pattern = "random", bs = 4096, count = 300, name = "b" }
local m = p.phase("empty", function() end)
m:merge(a)
m:merge(b)
local pct = {}
for _, q in ipairs({ 1, 50, 90, 99, 99.9, 100 }) do pct[#pct + 1] = m:percentile(q) end
print(cjson.encode({ buckets = m:buckets(), pct = pct, ops = m.ops, min = m:min(), max = m:max() }))
]])
  local out, err, rc = T.platter({ "--json", d .. "/m.json", d .. "/m.lua" }, { cwd = d })
  T.eq(rc, 0, "status (" .. err .. ")")
  local mem = cjson.decode(out)
  local doc = decode(d .. "/m.json")
  local hists, lo, hi = {}, math.huge, 0
  for _, r in ipairs(doc.phases) do
    if r.name == "a" or r.name == "b" then
      hists[#hists + 1] = r.hist
      lo, hi = math.min(lo, r.lat_ns.min), math.max(hi, r.lat_ns.max)
    end
  end
  T.eq(lo, mem.min, "merged min")
  T.eq(hi, mem.max, "merged max")
  T.eq(#hists, 2, "phases a and b in the record")
  local merged = sm.hist_merge(hists[1], hists[2])
  T.eq(#merged, #mem.buckets, "bin count")
  for i, bin in ipairs(mem.buckets) do
    T.eq(merged[i][1], bin[1], "bin " .. i .. " lo")
    T.eq(merged[i][2], bin[2], "bin " .. i .. " hi")
    T.eq(merged[i][3], bin[3], "bin " .. i .. " count")
  end
  T.eq(sm.hist_count(merged), mem.ops, "merged count")
  for i, q in ipairs({ 1, 50, 90, 99, 99.9, 100 }) do
    T.eq(sm.hist_percentile(merged, q, lo, hi), mem.pct[i], "merged p" .. q)
  end
end)

-- }------------------------------------------------------------------------------

-- {--- the record ------------------------------------------------------------------

local SCRIPT = [[
local p = require "platter"
local path = ...
local f = assert(p.open(path, { create = true, write = true, size = "1m", direct = true }))
p.phase("phase one", function() for i = 0, 31 do f:pread(i * 4096, 4096) end end)
p.run{ file = f, op = "read", pattern = "random", bs = 4096, count = 200, name = "run two" }
p.parallel(2, function(i)
  return p.run{ file = f, pattern = "seq", bs = 4096, count = 50, name = "w" .. i }
end)
p.phase("phase one", function() f:pread(0, 4096) end)
f:close()
print("ok")
]]

T.test("schema round trip: every documented field is present and consistent", function()
  local d = T.tmpdir()
  write(d .. "/s.lua", SCRIPT)
  local out, err, rc = T.platter({ "--seed", "42", "--json", "r.json", "--csv", "r.csv", "s.lua",
    "data.dat" }, { cwd = d })
  T.eq(rc, 0, "status (" .. err .. ")")
  T.eq(out, "ok\n", "the script's own output")
  T.eq(err, "", "no warning for a direct file")
  local doc = decode(d .. "/r.json")
  T.eq(doc.schema_version, 3, "schema_version")
  T.eq(doc.platter.version, p.version, "platter.version")
  local commit = doc.platter.build and doc.platter.build.commit
  T.ok(commit == "unknown" or (type(commit) == "string" and commit:match("^%x+%-?d?i?r?t?y?$")),
    "platter.build.commit: a git commit or unknown (" .. tostring(commit) .. ")")
  local package = doc.platter.build and doc.platter.build.package
  T.ok(type(package) == "string" and package:sub(1, #p.version) == p.version,
    "platter.build.package: the package version, which starts with the version (" ..
    tostring(package) .. ")")
  T.ok(type(doc.cwd) == "string" and doc.cwd:sub(1, 1) == "/", "cwd is absolute")
  T.eq(doc.args_abs[1], doc.cwd .. "/data.dat", "args_abs: the path made absolute")
  T.ok(type(doc.pid) == "number", "pid")
  T.eq(doc.platter.lua, p.lua, "platter.lua")
  T.eq(doc.command_line[#doc.command_line], "data.dat", "command_line")
  T.eq(doc.args[1], "data.dat", "args")
  T.eq(#doc.args, 1, "args count")
  T.eq(doc.seed, "42", "seed (a decimal string)")
  T.eq(doc.script.name, "s.lua", "script.name")
  T.eq(doc.script.kind, "file", "script.kind")
  T.eq(doc.script.text, SCRIPT, "script.text")
  T.eq(doc.script.sha256, p.sha256(SCRIPT), "script.sha256")
  T.ok(doc.start_time:match("^%d%d%d%d%-%d%d%-%d%dT%d%d:%d%d:%d%dZ$"), "start_time")
  T.eq(doc.status.exit, 0, "status.exit")
  T.eq(doc.status.complete, true, "status.complete")
  local env = doc.environment
  T.ok(type(env.kernel) == "string" and #env.kernel > 0, "environment.kernel")
  T.ok(type(env.cpu.count) == "number" and env.cpu.count >= 1, "environment.cpu.count")
  T.ok(env.cpu.model == nil or type(env.cpu.model) == "string", "environment.cpu.model")
  T.eq(env.ram, p.ram(), "environment.ram")
  T.ok(type(env.clock.source) == "string", "environment.clock.source")
  T.ok(type(env.clock.overhead_ns) == "number", "environment.clock.overhead_ns")
  T.eq(#doc.files, 1, "one file")
  local file = doc.files[1]
  T.eq(file.id, 1, "files[1].id")
  T.eq(file.path, "data.dat", "files[1].path")
  T.eq(file.abs_path, doc.cwd .. "/data.dat", "files[1].abs_path")
  T.eq(file.kind, "file", "files[1].kind")
  T.eq(file.direct, true, "files[1].direct")
  T.ok(file.size == 1048576, "files[1].size")
  T.ok(type(file.dio_align) == "number", "files[1].dio_align")
  T.ok(type(file.fs_type) == "string", "files[1].fs_type")
  T.eq(doc.repetitions.requested, 1, "repetitions.requested")
  T.eq(doc.repetitions.done, 1, "repetitions.done")

  local names = {}
  for i, r in ipairs(doc.phases) do names[i] = r.kind .. ":" .. r.name end
  T.eq(table.concat(names, ","), "phase:phase one,run:run two,parallel:parallel,phase:phase one",
    "phases in order")
  for i, r in ipairs(doc.phases) do
    T.eq(r.seq, i, "seq")
    T.eq(r.rep, 1, "rep")
    for _, k in ipairs({ "ops", "bytes", "seconds", "user", "sys", "cpu_pct", "iops", "bw",
      "errors" }) do
      T.ok(type(r[k]) == "number", r.name .. "." .. k)
    end
    for _, k in ipairs({ "mean", "min", "max", "p1", "p5", "p10", "p25", "p50", "p75", "p90",
      "p95", "p99", "p99.9", "p99.99" }) do
      T.ok(type(r.lat_ns[k]) == "number", r.name .. ".lat_ns." .. k)
    end
    T.eq(sm.hist_count(r.hist), r.ops, r.name .. ": the bins hold every op")
    T.eq(r.cache_tainted, nil, r.name .. ": not cache-tainted (direct)")
  end
  T.eq(doc.phases[1].occurrence, 1, "first 'phase one'")
  T.eq(doc.phases[4].occurrence, 2, "second 'phase one'")
  T.eq(doc.phases[1].ops, 32, "phase one ops")
  local run = doc.phases[2]
  T.eq(run.ops, 200, "run ops")
  T.eq(run.params.bs, 4096, "run params.bs")
  T.eq(run.params.pattern, "random", "run params.pattern")
  T.eq(run.params.files[1], 1, "run params.files")
  T.eq(run.by_op.read.ops, 200, "run by_op.read")
  T.eq(run.stopped, "count", "run stopped")
  local par = doc.phases[3]
  T.eq(#par.workers, 2, "parallel workers")
  T.eq(par.workers[1].ops + par.workers[2].ops, par.ops, "workers add up")
  T.eq(par.params.workers, 2, "parallel params.workers")
  T.eq(#doc.summary, 4, "summary: one entry per kind, name and occurrence")
  T.eq(doc.summary[1].samples, 1, "summary samples")
  T.ok(doc.summary[1].figures.iops.mean > 0, "summary iops")

  local lines = {}
  for l in read(d .. "/r.csv"):gmatch("[^\n]+") do lines[#lines + 1] = l end
  T.eq(#lines, 5, "CSV: a header and one row per phase")
  T.eq(lines[1], table.concat(resultfile.CSV_COLUMNS, ","), "CSV header")
  T.ok(lines[2]:match('^1,1,"phase","phase one",1,32,131072,'), "CSV row (text quoted)")
end)

T.test("--repeat: every sample kept, mean ± half-width printed at the end", function()
  local d = T.tmpdir()
  write(d .. "/s.lua", SCRIPT)
  local out, err, rc = T.platter({ "--repeat", "3", "--json", "r.json", "s.lua", "data.dat" },
    { cwd = d })
  T.eq(rc, 0, "status (" .. err .. ")")
  T.has(err, "platter: repetition 2 of 3", "progress note")
  T.has(out, "ok\nok\nok\n\n3 repetitions: mean ± half-width of the 95% confidence interval",
    "table after the workload's own output")
  T.ok(out:find("\nrun two +[%d.]+ ± [%d.]+ %([%d.]+%%%)"), "a mean ± half-width row")
  local doc = decode(d .. "/r.json")
  T.eq(#doc.phases, 12, "4 phases x 3 repetitions")
  T.eq(doc.phases[12].rep, 3, "rep of the last")
  T.eq(doc.repetitions.done, 3, "repetitions.done")
  local s = doc.summary[2]
  T.eq(s.name, "run two", "summary order")
  T.eq(s.samples, 3, "samples")
  local f = s.figures.iops
  T.eq(#f.values, 3, "every repeat sample")
  local check = sm.summary(f.values)
  T.near(f.mean, check.mean, 1e-6 * check.mean, "mean")
  T.near(f.ci, check.ci, 1e-6 * check.ci + 1e-9, "half-width")
  T.eq(sm.hist_count(s.hist), 600, "merged bins of the 3 runs")
end)

T.test("--ci: stops once every phase's half-width is under the target (from the 3rd run)",
  function()
    local d = T.tmpdir()
    write(d .. "/c.lua", [[
local p = require "platter"
-- cached reads at a fixed rate: the rate, not the disk, sets the IOPS
local f = assert(p.open("c.dat", { create = true, write = true, size = "1m" }))
p.run{ file = f, pattern = "seq", bs = 4096, count = 100, rate_iops = 1000, name = "paced" }
]])
    local out, err, rc = T.platter({ "--ci", "10%", "--json", "c.json", "c.lua" }, { cwd = d })
    T.eq(rc, 0, "status (" .. err .. ")")
    T.has(err, "--ci 10%: every phase is within it after 3 repetitions", "message")
    local doc = decode(d .. "/c.json")
    T.eq(doc.repetitions.requested, 30, "bound")
    T.eq(doc.repetitions.done, 3, "done")
    T.eq(doc.repetitions.ci_met, true, "ci_met")
    T.eq(doc.repetitions.ci_target_pct, 10, "ci_target_pct")
    T.has(out, "3 repetitions", "the summary")
  end)

T.test("a failing phase: the finished ones and the failed one as far as it got are written", function()
  local d = T.tmpdir()
  write(d .. "/e.lua", [[
local p = require "platter"
local f = assert(p.open("e.dat", { create = true, write = true, size = "64k", direct = true }))
p.phase("good", function() f:pread(0, 4096) end)
p.phase("bad", function() f:pread(0, 4096); f:pread(4096, 4096); error("boom") end)
]])
  local _, err, rc = T.platter({ "--json", "e.json", "--csv", "e.csv", "e.lua" }, { cwd = d })
  T.eq(rc, 1, "status")
  T.eq(err, "platter: e.lua:4: boom\n", "the error, and nothing else on stderr")
  local doc = decode(d .. "/e.json")
  T.eq(#doc.phases, 2, "the finished phase and the failed one")
  T.eq(doc.phases[1].name, "good", "its name")
  T.eq(doc.phases[1].stopped, nil, "the finished one: no stopped")
  -- the reads the failed phase did before its error are not lost
  local bad = doc.phases[2]
  T.eq(bad.name, "bad", "the failed phase")
  T.eq(bad.ops, 2, "its reads until the error")
  T.eq(bad.bytes, 8192, "its bytes")
  T.eq(bad.stopped, "error", "stopped")
  T.eq(bad.failed, true, "failed")
  T.eq(bad.error, "e.lua:4: boom", "error: the message")
  T.ok(bad.lat_ns.p50 > 0, "its latencies")
  T.eq(doc.status.exit, 1, "status.exit")
  T.eq(doc.status.complete, false, "status.complete")
  T.eq(doc.status.message, "e.lua:4: boom", "status.message: the error as printed")
  T.ok(read(d .. "/e.csv"):find('\n1,1,"phase","good",', 1, true), "CSV row")
  T.ok(read(d .. "/e.csv"):find('\n1,2,"phase","bad",1,2,8192,', 1, true), "CSV row of the failed phase")
end)

T.test("a phase ended by p.exit or by a caught error is recorded as far as it got", function()
  local d = T.tmpdir()
  write(d .. "/x.lua", [[
local p = require "platter"
local f = assert(p.open("x.dat", { create = true, write = true, size = "64k" }))
print(pcall(p.phase, "caught", function() f:pread(0, 4096); error({ "not a string" }) end))
-- the error passes on as it was raised (a number stays a number where the flavour keeps it)
local _, plain = pcall(function() error(42) end)
local _, through = pcall(p.phase, "number", function() error(42) end)
print("same type", type(plain) == type(through))
p.phase("ended", function() f:pread(0, 4096); p.exit(0) end)
]])
  local out, err, rc = T.platter({ "--json", "x.json", "x.lua" }, { cwd = d })
  T.eq(rc, 0, "status: p.exit(0)")
  T.has(out, "false", "the caught error reached the script")
  T.has(out, "same type\ttrue", "the error object passes on untouched")
  local doc = decode(d .. "/x.json")
  T.eq(#doc.phases, 3, "the three phases")
  T.eq(doc.phases[1].ops, 1, "caught: its read")
  T.eq(doc.phases[1].stopped, "error", "caught: stopped")
  T.eq(doc.phases[1].error, "(error object is a table value)", "caught: a non-string error")
  T.has(doc.phases[2].error, "42", "a number error: its text")
  T.eq(doc.phases[3].ops, 1, "ended: its read")
  T.eq(doc.phases[3].stopped, "exit", "ended by p.exit: stopped")
  T.eq(doc.phases[3].failed, nil, "p.exit is no failure")
  T.eq(err:find("warning", 1, true) and "" or err, "", "no stderr but the cache warning")
end)

T.test("a p.run whose gen raised: what it did until then is counted and recorded", function()
  local d = T.tmpdir()
  write(d .. "/g.lua", [[
local p = require "platter"
local f = assert(p.open("g.dat", { create = true, write = true, size = "64k" }))
p.phase("outer", function()
  p.run { file = f, count = 100000, gen = function(i)
    if i > 300 then error("gen broke at " .. i) end
    return "read", 0, 4096
  end }
end)
]])
  local _, err, rc = T.platter({ "--json", "g.json", "g.lua" }, { cwd = d })
  T.eq(rc, 1, "status")
  T.has(err, "platter: g.lua:5: gen broke at 301\n", "the error at the script's line")
  local doc = decode(d .. "/g.json")
  T.eq(#doc.phases, 2, "the run and its phase")
  local run, outer = doc.phases[1], doc.phases[2]
  T.eq(run.kind, "run", "the run first")
  T.eq(run.ops, 300, "the run's 300 reads before the error")
  T.eq(run.stopped, "error", "run: stopped")
  T.eq(run.failed, true, "run: failed")
  T.eq(run.error, "g.lua:5: gen broke at 301", "run: the message")
  T.eq(outer.ops, 300, "the phase around it counted them")
  T.eq(outer.stopped, "error", "the phase: stopped")
end)

T.test("a p.run that Ctrl-C stops inside its gen is a partial run, not lost", function()
  -- gen spends ~all of the time in Lua, so the signal lands there (not in an I/O)
  -- nearly always; either way the run must be kept (it was lost on Lua 5.4 before)
  local d = T.tmpdir()
  write(d .. "/c.lua", [[
local p = require "platter"
local f = assert(p.open("c.dat", { create = true, write = true, size = "64k" }))
p.phase("outer", function()
  p.run { file = f, seconds = 60, gen = function()
    local x = 0
    for k = 1, 20000 do x = x + k end
    return "read", 0, 4096
  end }
end)
]])
  -- coreutils' timeout signals the command and then its own process group, which
  -- holds the command: two SIGINTs microseconds apart, one stop (not "press twice")
  local _, err, rc = T.sh("cd " .. T.q(d) .. " && timeout --preserve-status -s INT 1 "
    .. T.q(T.bin) .. " --json c.json c.lua")
  T.eq(rc, 130, "status 130")
  T.has(err, "platter: interrupted run 'run' after ", "the run's line on stderr")
  local doc = decode(d .. "/c.json")
  T.eq(#doc.phases, 2, "the run and its phase")
  T.eq(doc.phases[1].kind, "run", "the run")
  T.eq(doc.phases[1].stopped, "interrupted", "stopped")
  T.ok(doc.phases[1].ops > 0, "its reads")
  T.eq(doc.phases[2].ops, doc.phases[1].ops, "counted in the phase around it")
end)

T.test("an unwritable --json is a usage error before the run", function()
  local d = T.tmpdir()
  local out, err, rc = T.platter({ "--json", d .. "/no/such/dir/r.json", "-e", "print('hi')" })
  T.eq(out, "", "nothing ran")
  T.eq(rc, 2, "status")
  T.has(err, "platter: --json " .. d .. "/no/such/dir/r.json: cannot write the result there: "
    .. "No such file or directory", "message")
end)

T.test("a --json that becomes unwritable is an error after the run, the output intact", function()
  local d = T.tmpdir()
  local sub = d .. "/sub"
  T.ok(os.execute("mkdir " .. sub), "mkdir")
  local out, err, rc = T.platter({ "--trust", "--json", sub .. "/r.json", "-e",
    "print('hi'); assert(os.remove('" .. sub .. "'))" })
  T.eq(out, "hi\n", "output")
  T.eq(rc, 1, "status")
  T.has(err, "platter: writing results: --json " .. sub .. "/r.json", "message")
end)

T.test("files open at a phase's start are numbered by path, the same on every run", function()
  local d = T.tmpdir()
  -- more files than pairs() could put in path order by chance, opened out of order
  write(d .. "/n.lua", [[
local p = require "platter"
local fs = {}
for _, n in ipairs({ "e", "b", "d", "a", "c" }) do
  fs[#fs + 1] = assert(p.open(n .. ".dat", { create = true, write = true, size = 4096 }))
end
fs[#fs + 1] = assert(p.open("a.dat", { direct = true }))
p.phase("x", function() end)
for _, f in ipairs(fs) do f:close() end
]])
  for run = 1, 3 do
    local _, err, rc = T.platter({ "--json", "r.json", "n.lua" }, { cwd = d })
    T.eq(rc, 0, "status (" .. err .. ")")
    local doc = decode(d .. "/r.json")
    local got = {}
    for i, f in ipairs(doc.files) do
      T.eq(f.id, i, "ids in order")
      got[i] = f.path .. (f.direct and "+direct" or "")
    end
    T.eq(table.concat(got, " "), "a.dat a.dat+direct b.dat c.dat d.dat e.dat", "run " .. run)
  end
end)

T.test("normalize_path: the run's pid in scratch names, or digits between dots without one",
  function()
  T.eq(resultfile.normalize_path("./Bonnie.4242", 4242), "./Bonnie.<pid>", "Bonnie")
  T.eq(resultfile.normalize_path("d/platter-sweep.77.dat", 77), "d/platter-sweep.<pid>.dat", "sweep")
  T.eq(resultfile.normalize_path("x.41234", 1234), "x.41234", "only the whole number")
  T.eq(resultfile.normalize_path("4242/a.dat", 4242), "4242/a.dat", "only the last component")
  T.eq(resultfile.normalize_path("ioping.tmp.99"), "ioping.tmp.<pid>", "schema 1: no pid")
  T.eq(resultfile.normalize_path("data.dat"), "data.dat", "no digits")
end)

T.test("position and extents: zones phases by head and offset, the file's size", function()
  local head, off = resultfile.position("zone 3 at 1234567890")
  T.eq(head, "zone 3", "head")
  T.eq(off, 1234567890, "offset")
  head, off = resultfile.position("outer: 1g", p.parse_size)
  T.eq(head, "outer", "head of NAME: OFFSET")
  T.eq(off, 1073741824, "a unit")
  T.eq(resultfile.position("Random 4096 raw"), nil, "not positional")
  local doc = { files = { { id = 1, size = 8 }, { id = 2, size = 16 } },
    phases = { { kind = "run", name = "zone 0 at 0", occurrence = 1, files = { 2 } } } }
  T.eq(resultfile.extents(doc)[resultfile.phase_key(doc.phases[1])], 16, "size of its file")
end)

T.test("cache watch: pages evicted from a cooked file during a raw phase are not its use", function()
  -- a 1 MiB cooked handle and a direct handle on one file; during the phase the
  -- kernel evicts some of the cooked pages (a loaded machine) while the raw handle
  -- moves all the phase's bytes through the storage
  local cw = require "platter.cachewatch"
  local machine = require "platter.machine"
  local cooked, raw = {}, {}
  local res = { [cooked] = 230 }
  local info = { [cooked] = { path = "x.dat", direct = false }, [raw] = { path = "x.dat", direct = true } }
  local core = {
    ram = function() return 24 * 2 ^ 30 end,
    _files = { [cooked] = true, [raw] = true },
    _file_methods = {
      info = function(f) return info[f] end,
      size = function() return 2 ^ 20 end,
      resident = function(f) return res[f] or 0, 256 end,
    },
  }
  local real = machine.storage_bytes
  local moved = 0
  machine.storage_bytes = function() return moved end
  local function phase(sim, evict)
    local w = cw.new(core, sim)
    local s = { bytes = 2 ^ 20 }
    res[cooked] = 230
    moved = 0
    w:phase_start(s)
    res[cooked] = 230 - evict
    moved = sim and 0 or 2 ^ 20
    return #w:phase_files(s)
  end
  local ok, err = pcall(function()
    T.eq(phase(false, 30), 0, "evicted pages with a direct handle open: the raw phase used no cooked file")
    T.eq(phase(false, 0), 0, "nothing changed: no cooked file either")
    T.eq(phase(true, 30), 1, "the simulated disk evicts only for its own I/O: the cooked file was used")
    info[raw] = nil
    core._files[raw] = nil
    T.eq(phase(false, 30), 1, "without a direct handle, pages going out are use")
  end)
  machine.storage_bytes = real
  assert(ok, err)
end)

T.test("absolute_args: existing paths in the three granted forms, the rest as given", function()
  local d = T.tmpdir()
  write(d .. "/x.dat", "x")
  local function resolve(w)
    if w == "x.dat" then return d .. "/x.dat", "file" end
    return "/nowhere/" .. w, "new"
  end
  local out = resultfile.absolute_args({ "x.dat", "if=x.dat", "-dx.dat", "64m", "/abs", "--x" },
    resolve)
  T.eq(table.concat(out, " "), table.concat({ d .. "/x.dat", "if=" .. d .. "/x.dat",
    "-d" .. d .. "/x.dat", "64m", "/abs", "--x" }, " "), "made absolute")
end)

T.test("decode reads schema_version 1, 2 and 3, refuses a higher one", function()
  for v = 1, 3 do T.ok(resultfile.decode('{"schema_version": ' .. v .. '}', "a"), tostring(v)) end
  local doc, err = resultfile.decode('{"schema_version": 4}', "c")
  T.eq(doc, nil, "4 refused")
  T.has(err, "reads up to 3", "the message")
end)

T.test("split_command_line: global options, script and arguments as main.c sees them", function()
  local c = resultfile.split_command_line({ "platter", "--seed=5", "--json", "x.json", "-q",
    "sweep", "-s", "1m", "--json", "y" })
  T.eq(c.options.seed, "5", "seed")
  T.eq(c.options.json, "x.json", "json")
  T.eq(c.options.quiet, true, "quiet")
  T.eq(c.script, "sweep", "script")
  T.eq(table.concat(c.args, " "), "-s 1m --json y", "args")
  local e = resultfile.split_command_line({ "platter", "--repeat", "3", "-e", "print(1)", "a" })
  T.eq(e.code, "print(1)", "code")
  T.eq(e.script, nil, "no script")
  T.eq(e.args[1], "a", "args of -e")
  T.eq(e.options["repeat"], "3", "repeat")
  -- options that take a value are skipped with it, not taken for the script
  local t = resultfile.split_command_line({ "platter", "--target", "null", "--max-memory", "64m",
    "x.lua", "a" })
  T.eq(t.options.target, "null", "target")
  T.eq(t.options.max_memory, "64m", "max-memory")
  T.eq(t.script, "x.lua", "script after --target and --max-memory")
end)

T.test("the recorder and its modules stay out of the sandbox; it installs only once", function()
  for _, name in ipairs({ "platter.recorder", "platter.resultfile", "platter.cachewatch",
    "platter.machine" }) do
    local _, err, rc = T.platter({ "-e", 'require "' .. name .. '"' })
    T.eq(rc, 1, name .. ": status")
    T.has(err, "require '" .. name .. "': an internal module, not available in the sandbox",
      name .. ": refused")
  end
  local out, err2, rc2 = T.platter({ "--trust", "-e", [[
local r = require "platter.recorder"
local ok, e = pcall(r.install, { config = { json = "/tmp/x" }, _hook = print }, {})
print(ok, e)
local f = require "platter.resultfile"
print(f.write_atomic, f.load, f.write, f.read)
]] })
  T.eq(rc2, 0, "status (" .. err2 .. ")")
  T.has(out, "false\t", "a second install is refused")
  T.has(out, "already installed", "message")
  T.has(out, "nil\tnil\tnil\tnil", "no file access handed out")
end)

-- }------------------------------------------------------------------------------
