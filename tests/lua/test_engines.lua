-- The null engine and the io_uring settings through p.run: null completes
-- every I/O at once and touches nothing, at qd 1 and in its queued form;
-- io_uring takes iopoll (a clear error where the device cannot poll), sqpoll
-- with its idle time, and any submit batch.
local T = ...
local p = require "platter"

local function scratch(size, opts)
  local path = T.tmpdir() .. "/e.dat"
  local o = { create = true, write = true, size = size }
  for k, v in pairs(opts or {}) do o[k] = v end
  return assert(p.open(path, o)), path
end

local function zeros(path)
  local data = assert(T.read(path))
  return not data:find("[^%z]")
end

-- runs fn, or skips the test when this platter has no io_uring
local function uring(fn)
  local ok, err = pcall(fn)
  if not ok and tostring(err):find("without io_uring", 1, true) then T.skip("no io_uring") end
  if not ok then error(err, 0) end
  return err
end

T.test("null: every I/O completes in full at qd 1, and the file stays as it was", function()
  local f, path = scratch("1m")
  local r = p.run { file = f, engine = "null", pattern = "random", count = 10000, progress = false }
  T.eq(r.ops, 10000, "ops")
  T.eq(r.bytes, 10000 * 4096, "bytes")
  T.eq(r.errors, 0, "errors")
  T.eq(r.stopped, "count", "stopped")
  T.ok(r:percentile(50) < 100000, "p50 " .. r:percentile(50) .. " ns of no I/O")
  local w = p.run { file = f, engine = "null", op = "write", fsync_every = 4, progress = false,
                    bs = "64k" }
  T.eq(w.write.ops, 16, "one pass of 64 KiB writes")
  T.eq(w.fsync.ops, 4, "fsyncs")
  T.ok(zeros(path), "the file is still all zeros")
  f:close()
end)

T.test("null: qd > 1 queues and completes the queue at once", function()
  local f, path = scratch("1m")
  for _, qd in ipairs { 2, 32, 256 } do
    local r = p.run { file = f, engine = "null", qd = qd, pattern = "random", count = 5000,
                      progress = false }
    T.eq(r.ops, 5000, "qd " .. qd .. " ops")
    T.eq(r.errors, 0, "qd " .. qd .. " errors")
  end
  local w = p.run { file = f, engine = "null", qd = 8, op = "mix", read_pct = 30, count = 3000,
                    pattern = "random", fsync_every = 10, progress = false }
  T.eq(w.read.ops + w.write.ops, 3000, "mix ops")
  T.ok(w.fsync.ops > 0, "fsyncs at depth")
  T.ok(zeros(path), "the file is still all zeros")
  f:close()
end)

T.test("null: gen jobs, stepped at qd 1 and in the C loop at qd 4", function()
  local f = scratch("1m")
  for _, qd in ipairs { 1, 4 } do
    local n = 0
    local r = p.run { file = f, engine = "null", qd = qd, progress = false,
      gen = function(i)
        if i > 777 then return nil end
        n = n + 1
        return i % 2 == 0 and "write" or "read", (i % 256) * 4096, 4096
      end }
    T.eq(r.ops, 777, "qd " .. qd .. " ops")
    T.eq(n, 777, "qd " .. qd .. " generator calls")
    T.eq(r.stopped, "generator end", "stopped")
  end
  f:close()
end)

T.test("engines: the unknown-engine message names null", function()
  local f = scratch("64k")
  T.raises(function() p.run { file = f, engine = "nul" } end, "io_uring, libaio, posixaio, null)")
  f:close()
end)

T.test("io_uring: iopoll, sqpoll and sqpoll_idle_ms are checked", function()
  local f = scratch("1m")
  T.raises(function() p.run { file = f, engine = "psync", iopoll = true, count = 1 } end,
    [['iopoll' needs engine = "io_uring" (not "psync")]])
  T.raises(function() p.run { file = f, engine = "null", qd = 4, sqpoll = true, count = 1 } end,
    [['sqpoll' needs engine = "io_uring" (not "null")]])
  T.raises(function() p.run { file = f, qd = 4, sqpoll_idle_ms = 5, count = 1 } end,
    "'sqpoll_idle_ms' needs sqpoll = true")
  T.raises(function() p.run { file = f, qd = 4, sqpoll = true, sqpoll_idle_ms = 1.5, count = 1 } end,
    "'sqpoll_idle_ms' must be an integer")
  T.raises(function() p.run { file = f, qd = 4, iopoll = 1, count = 1 } end,
    "'iopoll' must be a boolean, not number")
  T.raises(function() p.run { file = f, qd = 4, iopoll = true, op = "write", fsync_every = 2 } end,
    "an iopoll ring takes reads and writes only, not 'fsync_every'")
  uring(function()
    T.raises(function() p.run { file = f, qd = 4, iopoll = true, count = 1 } end,
      "iopoll needs O_DIRECT: open " .. f:info().path .. " with direct = true")
  end)
  f:close()
end)

-- the queue/io_poll of the device under a file: "1" when it has poll queues
local function io_poll(f)
  local dev = f:info().device
  if not dev then return nil end
  for _, q in ipairs { "/sys/class/block/" .. dev .. "/queue/io_poll",
                       "/sys/class/block/" .. dev .. "/../queue/io_poll" } do
    local v = T.read(q)
    if v then return (v:gsub("%s+$", "")) end
  end
end

T.test("io_uring: iopoll runs where the device polls, and says why not elsewhere", function()
  local _, path = scratch("1m")
  local d = assert(p.open(path, { direct = true }))
  local poll = io_poll(d)
  local ok, r = pcall(p.run, { file = d, qd = 8, iopoll = true, pattern = "random",
                               count = 200, progress = false })
  if not ok and tostring(r):find("without io_uring", 1, true) then T.skip("no io_uring") end
  if poll == "1" then
    T.ok(ok, "iopoll on a polling device: " .. tostring(r))
    T.eq(r.ops, 200, "ops")
    T.eq(r.errors, 0, "errors")
  else
    T.ok(not ok, "iopoll where the device has no poll queues must fail")
    local dev = d:info().device
    T.has(tostring(r), "run: iopoll needs a device with poll queues, and " .. tostring(dev) ..
      " (under " .. path .. ") has none (/sys/block/" .. tostring(dev) .. "/queue/io_poll is " ..
      tostring(poll or "missing"))
  end
  d:close()
end)

T.test("io_uring: sqpoll reads and writes, with and without an idle time", function()
  local f, path = scratch("1m")
  local d = assert(p.open(path, { direct = true, write = true }))
  for _, idle in ipairs { false, 2 } do
    local ok, r = pcall(p.run, { file = d, qd = 8, sqpoll = true, sqpoll_idle_ms = idle or nil,
                                 pattern = "random", count = 500, progress = false })
    if not ok and tostring(r):find("without io_uring", 1, true) then T.skip("no io_uring") end
    if not ok and tostring(r):find("refused a submission thread", 1, true) then
      T.skip("the kernel refuses SQPOLL here: " .. tostring(r))
    end
    T.ok(ok, tostring(r))
    T.eq(r.ops, 500, "ops")
    T.eq(r.errors, 0, "errors")
  end
  local w = p.run { file = d, qd = 4, sqpoll = true, op = "write", fsync_every = 16,
                    progress = false }
  T.eq(w.write.ops, 256, "writes")
  T.eq(w.fsync.ops, 16, "fsyncs")
  T.eq(w.errors, 0, "errors")
  d:close()
  f:close()
end)

T.test("io_uring: every submit batch completes every I/O", function()
  local f, path = scratch("1m")
  local d = assert(p.open(path, { direct = true }))
  for _, batch in ipairs { 1, 2, 4, 8, 16, 100 } do
    local r = uring(function()
      return p.run { file = d, qd = 16, batch = batch, pattern = "random", count = 999,
                     progress = false }
    end)
    T.eq(r.ops, 999, "batch " .. batch .. " ops")
    T.eq(r.errors, 0, "batch " .. batch .. " errors")
  end
  d:close()
  f:close()
end)

-- runs fn, or skips the test when this platter has no libaio
local function aio(fn)
  if not p.have_aio then
    T.raises(fn, "run: this platter was built without libaio (install libaio-dev and rebuild)")
    T.skip("no libaio")
  end
  return fn()
end

local function random_file(size)
  local path = T.tmpdir() .. "/aio.dat"
  local f = assert(p.open(path, { create = true, write = true, size = size, fill = "random" }))
  f:close()
  T.ok(not zeros(path), "the random fill is not zeros")
  return path
end

-- An engine's writes land (qd 1 and 32, cooked and O_DIRECT), with fsyncs, and its reads
-- run; wrap runs the first p.run (libaio: skipped where this platter has none).
local function writes_land(engine, wrap)
  for _, direct in ipairs { false, true } do
    for _, qd in ipairs { 1, 32 } do
      local what = engine .. " " .. (direct and "direct" or "cooked") .. " qd " .. qd
      local path = random_file("1m")
      local f = assert(p.open(path, { write = true, direct = direct }))
      local w = wrap(function()
        return p.run { file = f, engine = engine, qd = qd, op = "write", fsync_every = 8,
                       progress = false }
      end)
      T.eq(w.write.ops, 256, what .. ": one pass of 4 KiB writes")
      T.eq(w.write.bytes, 1048576, what .. ": bytes written")
      T.eq(w.fsync.ops, 32, what .. ": fsyncs")
      T.eq(w.errors, 0, what .. ": errors")
      T.ok(zeros(path), what .. ": every block of the random file was overwritten with zeros")
      local r = p.run { file = f, engine = engine, qd = qd, pattern = "random", count = 2000,
                        bs = "8k", progress = false }
      T.eq(r.read.ops, 2000, what .. ": reads")
      T.eq(r.bytes, 2000 * 8192, what .. ": bytes read")
      T.eq(r.errors, 0, what .. ": read errors")
      T.eq(r.shorts, 0, what .. ": short reads")
      f:close()
    end
  end
end

T.test("libaio: writes land (qd 1 and 32, cooked and O_DIRECT), with fsyncs, and reads run", function()
  writes_land("libaio", aio)
end)

-- A gen job at depth 8 with an fsync every 50 I/Os, and a misaligned O_DIRECT job refused
-- by name, on the direct file d through engine.
local function gen_and_misaligned(d, engine)
  local n = 0
  local g = p.run { file = d, engine = engine, qd = 8, progress = false,
    gen = function(i)
      if i > 500 then return nil end
      n = n + 1
      if i % 50 == 0 then return "fsync" end
      return i % 2 == 0 and "write" or "read", (i % 256) * 4096, 4096
    end }
  T.eq(g.ops, 500, engine .. ": gen ops")
  T.eq(g.fsync.ops, 10, engine .. ": gen fsyncs")
  T.eq(n, 500, engine .. ": generator calls")
  T.raises(function()
    p.run { file = d, engine = engine, qd = 4, bs = 1000, count = 10, progress = false }
  end, "run: O_DIRECT needs bs, offsets, range, align and stride in multiples of the file's " ..
       "direct-I/O alignment")
end

T.test("libaio: a mix at depth, gen jobs, batches, and O_DIRECT misalignment named", function()
  local path = random_file("1m")
  local d = assert(p.open(path, { write = true, direct = true }))
  local m = aio(function()
    return p.run { file = d, engine = "libaio", qd = 16, op = "mix", read_pct = 70,
                   pattern = "random", count = 3000, batch = 4, progress = false }
  end)
  T.eq(m.read.ops + m.write.ops, 3000, "mix ops")
  T.ok(m.read.ops > 1800 and m.read.ops < 2400, "about 70% reads: " .. m.read.ops)
  gen_and_misaligned(d, "libaio")
  T.raises(function()
    p.run { file = d, engine = "libaio", qd = 4, progress = false,
            gen = function(i) if i < 3 then return "read", 100, 4096 end end }
  end, "gen: the I/O at offset 100 is longer than bs")
  d:close()
end)

T.test("libaio: the unknown-engine message names it, and qd > 1 on psync points to it", function()
  local f = scratch("64k")
  T.raises(function() p.run { file = f, engine = "aio" } end, "io_uring, libaio, posixaio, null)")
  T.raises(function() p.run { file = f, engine = "psync", qd = 2 } end,
    "qd > 1 needs io_uring, libaio or posixaio")
  T.eq(type(p.have_aio), "boolean", "p.have_aio")
  f:close()
end)

-- ---- posixaio: glibc's POSIX AIO ------------------------------------------------------

T.test("posixaio: in p.parallel's workers first (a parent that never used it), then here", function()
  -- the workers' parent (this process) has not used glibc's AIO yet, so they may
  local path = random_file("1m")
  local res = p.parallel(2, function(i)
    local f = assert(p.open(path, { write = true }))
    return p.run { file = f, engine = "posixaio", qd = 4, pattern = "random", count = 500,
                   seed = i, progress = false }
  end)
  T.eq(#res.failed, 0, "no worker failed: " .. tostring(res.failed[1] and res.failed[1].error))
  T.eq(res.merged.ops, 1000, "both workers' reads")
end)

T.test("posixaio: writes land (qd 1 and 32, cooked and O_DIRECT), with fsyncs, and reads run", function()
  writes_land("posixaio", function(fn) return fn() end)
end)

T.test("posixaio: the data read is the file's, at depth (verify), and a short read at the end", function()
  local path = T.tmpdir() .. "/pv.dat"
  local f = assert(p.open(path, { create = true, write = true, size = "1m" }))
  local w = p.run { file = f, engine = "posixaio", qd = 8, op = "write", verify = "crc32c",
                    progress = false }
  T.eq(w.errors, 0, "verified writes")
  local r = p.run { file = f, engine = "posixaio", qd = 8, op = "read", verify = "crc32c",
                    pattern = "random", count = 1000, progress = false }
  T.eq(r.errors, 0, "every block read back checks out")
  T.eq(r.read.ops, 1000, "reads")
  -- a read past the end: glibc's result is 0 bytes, which the loop counts as short
  local g = p.run { file = f, engine = "posixaio", qd = 2, progress = false,
    gen = function(i) if i <= 4 then return "read", 1048576 - 2048, 4096 end end }
  T.eq(g.ops, 4, "gen reads")
  T.eq(g.shorts, 4, "each one short (2 KiB of 4 KiB)")
  f:close()
  T.ok(not zeros(path), "the writes landed: verify's blocks, not the zeros the file was made of")
end)

T.test("posixaio: a mix at depth, gen jobs with fsyncs, and O_DIRECT misalignment named", function()
  local path = random_file("1m")
  local d = assert(p.open(path, { write = true, direct = true }))
  local m = p.run { file = d, engine = "posixaio", qd = 16, op = "mix", read_pct = 70,
                    pattern = "random", count = 3000, progress = false }
  T.eq(m.read.ops + m.write.ops, 3000, "mix ops")
  T.ok(m.read.ops > 1800 and m.read.ops < 2400, "about 70% reads: " .. m.read.ops)
  gen_and_misaligned(d, "posixaio")
  -- slat: the aio_read call, as fio's posixaio has it
  local s = p.run { file = d, engine = "posixaio", qd = 1, count = 200, slat = true,
                    progress = false }
  T.ok(s.slat and s.slat.read and s.slat.read.ops == 200, "a slat per read")
  T.ok(s.slat.read:percentile(50) <= s:percentile(50), "slat within the I/O's latency")
  -- fio counts an I/O its engine queues without a commit step as a completion call of
  -- one, besides the reaps (td_io_queue): the calls outnumber the I/Os
  local q = p.run { file = d, engine = "posixaio", qd = 8, pattern = "random", count = 1000,
                    progress = false }
  local calls = 0
  for k = 1, 7 do calls = calls + q.complete[k] end
  T.eq(q.complete.total, calls, "complete.total")
  T.ok(q.complete[2] >= 1000, "at least one call of 1-4 per I/O: " .. q.complete[2])
  T.ok(calls > 1000 + 1000 / 8, "a call per queued I/O and one per reap: " .. calls)
  T.eq(q.submit[2], 1000, "each submit a call of one I/O")
  d:close()
end)

T.test("posixaio: a worker forked after this process used it refuses it, naming why", function()
  local path = random_file("256k")
  local res = p.parallel(1, function()
    local f = assert(p.open(path))
    return p.run { file = f, engine = "posixaio", count = 10, progress = false }
  end)
  T.eq(#res.failed, 1, "the worker failed")
  T.ok(res.failed[1].error:find("the posixaio engine cannot run in a process forked from one " ..
       "that has used it", 1, true), "why: " .. tostring(res.failed[1].error))
  -- other engines still run in such a worker
  local ok = p.parallel(1, function()
    local f = assert(p.open(path))
    return p.run { file = f, engine = "psync", count = 10, progress = false }
  end)
  T.eq(#ok.failed, 0, "psync in a worker")
end)
