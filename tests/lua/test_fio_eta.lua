-- platter.fio_eta: fio 3.33's status line (eta.c) from given states, counts and
-- clock readings: its parts, when each shows, and the --eta rules.
local T = ...
local fe = require "platter.fio_eta"
local fj = require "platter.fio_job"

local S = 1e9  -- ns per second

local function job(argv)
  local cfg = fj.parse(argv, { read_file = function() return nil end, getenv = function() return nil end })
  return cfg.jobs[1].o, cfg
end

T.test("fio_eta: eta_str is fio's [DDd:][HHh:]MMm:SSs", function()
  T.eq(fe.eta_str(6), "00m:06s", "seconds")
  T.eq(fe.eta_str(3725), "01h:02m:05s", "hours")
  T.eq(fe.eta_str(90061), "01d:01h:01m:01s", "days")
end)

T.test("fio_eta: the line's parts, from the start to the end of a run", function()
  local o = job({ "--name=t", "--rw=randread", "--size=4m", "--runtime=10", "--time_based", "--rate_iops=1000" })
  local j = { o = o, files = 1, total = 4194304, state = "setup" }
  local st = fe.new(0, { j })
  -- starting: no job runs yet, nothing but the count
  T.eq(st:line(1 * S), "Jobs: 0 (f=0)\r", "a job setting up")
  j.state, j.started, j.ops, j.bytes = "running", 1 * S, { 1000, 0 }, { 4096000, 0 }
  -- under 3 s since the start: no ETA, so no brackets
  T.eq(st:line(2 * S), "Jobs: 1 (f=1), 0-1000 IOPS\r", "the rate limit, no ETA yet")
  j.ops, j.bytes = { 2000, 0 }, { 8192000, 0 }
  -- 3 s: elapsed 3, the job 2 of its 10 s in: 8 s to go, 3/11 done
  T.eq(st:line(3 * S), "Jobs: 1 (f=1), 0-1000 IOPS: [r(1)][27.3%][r=4000KiB/s][r=1000 IOPS][eta 00m:08s]\r",
    "the whole line")
  -- nothing done since: the rates are left out
  T.eq(st:line(4 * S), "Jobs: 1 (f=1), 0-1000 IOPS: [r(1)][36.4%][eta 00m:07s]                          \r",
    "a shorter line is padded over the last one")
  j.state = "done"
  T.eq(st:line(5 * S), nil, "nothing once no job runs or waits")
end)

T.test("fio_eta: job copies' states condense, a waiting stonewall adds its time", function()
  local a = job({ "--name=a", "--rw=write", "--size=1m", "--runtime=10", "--time_based" })
  local b = job({ "--name=b", "--rw=randrw", "--size=1m", "--runtime=20", "--time_based", "--stonewall" })
  local jobs = {
    { o = a, files = 1, total = 1048576, state = "running", started = 0, ops = { 0, 10 }, bytes = { 0, 40960 } },
    { o = a, files = 1, total = 1048576, state = "running", started = 0, ops = { 0, 10 }, bytes = { 0, 40960 } },
    { o = b, files = 1, total = 1048576, state = "pending" },
  }
  local st = fe.new(0, jobs)
  local line = st:line(5 * S)
  -- eta: 10 - 5 for the running copies, plus 20 for the waiting one
  T.has(line, "Jobs: 2 (f=2): [W(2),P(1)][", "running and waiting copies")
  T.has(line, "[w=16KiB/s][w=4 IOPS][eta 00m:25s]", "writes only; the ETA with the stonewall's")
  jobs[1].state = "done"
  T.has(st:line(6 * S), "[_(1),W(1),P(1)]", "a done copy")
end)

T.test("fio_eta: --eta-newline starts a new line; the --eta rules", function()
  local o = job({ "--name=t", "--rw=read", "--size=1m" })
  local j = { o = o, files = 1, total = 1048576, state = "running", started = 0, ops = { 0, 0 }, bytes = { 0, 0 } }
  local st = fe.new(0, { j }, { newline_ms = 1500 })
  T.eq(st:line(1 * S):sub(1, 1), "J", "the first line")
  T.eq(st:line(2 * S):sub(1, 1), "J", "under 1.5 s since")
  T.eq(st:line(3 * S):sub(1, 1), "J", "past it: the newline comes before the next")
  T.eq(st:line(4 * S):sub(1, 2), "\nJ", "a new line")
  T.eq(fe.wanted({}, { normal = true }, true), true, "a terminal")
  T.eq(fe.wanted({}, { normal = true }, false), false, "a pipe")
  T.eq(fe.wanted({ eta = "always" }, { normal = true }, false), true, "--eta=always")
  T.eq(fe.wanted({ eta = "never" }, { normal = true }, true), false, "--eta=never")
  T.eq(fe.wanted({}, { json = true }, true), false, "only JSON on stdout")
  T.eq(fe.wanted({ output = "x" }, { json = true }, true), true, "JSON to a file")
  local _, cfg = job({ "--eta-interval=500ms", "--eta-newline=2", "--name=t", "--size=1m" })
  T.eq(cfg.eta_interval, 0.5, "--eta-interval")
  T.eq(cfg.eta_newline, 2, "--eta-newline in seconds")
  T.raises(function() job({ "--eta-interval=100ms", "--name=t", "--size=1m" }) end,
    "eta interval time too short (250msec min)", "fio's minimum")
end)
