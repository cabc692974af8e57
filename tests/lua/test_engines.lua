-- The null engine through p.run: it completes every I/O at once and touches
-- nothing, at qd 1 and in its queued form.
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
  T.raises(function() p.run { file = f, engine = "nul" } end, "io_uring, null)")
  f:close()
end)
