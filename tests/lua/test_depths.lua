-- fio's I/O depth figures of a p.run result: r.depths, r.submit, r.complete,
-- each a list of 7 counts in fio 3.33's buckets with a total. A sync engine
-- puts everything at depth 1, one I/O per submit and per completion; at
-- depth the counts add up to the I/O issued; stats that are not a p.run's
-- have none.
local T = ...
local p = require "platter"

local function scratch(size, opts)
  local path = T.tmpdir() .. "/d.dat"
  local o = { create = true, write = true, size = size }
  for k, v in pairs(opts or {}) do o[k] = v end
  return assert(p.open(path, o))
end

local function sum(t)
  local n = 0
  for i = 1, 7 do n = n + t[i] end
  T.eq(#t, 7, "seven buckets")
  return n
end

T.test("depths: a sync engine is all depth 1, one I/O per submit and per completion", function()
  local f = scratch("1m")
  local r = p.run { file = f, op = "mix", pattern = "random", count = 600, fsync_every = 20,
                    progress = false }
  local n = 600 + r.fsync.ops
  T.eq(r.ops, n, "ops")
  T.eq(r.depths[1], n, "depth 1 (fsyncs too)")
  T.eq(sum(r.depths), n, "depths sum")
  T.eq(r.depths.total, 600, "total: reads and writes, as fio's")
  T.eq(r.submit[2], n, "submit 1..4")
  T.eq(r.submit.total, n, "submit calls")
  T.eq(sum(r.submit), n, "submit sum")
  T.eq(r.complete[2], n, "complete 1..4")
  T.eq(r.complete.total, n, "completions")
  f:close()
end)

T.test("depths: the null queue fills to qd and one reap takes all of it", function()
  local f = scratch("1m")
  local r = p.run { file = f, engine = "null", qd = 16, pattern = "random", count = 1600,
                    progress = false }
  -- per cycle of 16: depth 1, 2-3, 4-7, 8-15 and 16 (1, 2, 4, 8 and 1 I/Os)
  T.eq(r.depths[1], 100, "depth 1")
  T.eq(r.depths[2], 200, "depths 2-3")
  T.eq(r.depths[3], 400, "depths 4-7")
  T.eq(r.depths[4], 800, "depths 8-15")
  T.eq(r.depths[5], 100, "depth 16")
  T.eq(sum(r.depths), 1600, "depths sum")
  T.eq(r.complete[4], 100, "reaps of 9-16")
  T.eq(r.complete.total, 100, "reaps")
  f:close()
end)

T.test("depths: libaio and io_uring at qd 32 add up to the I/O, read and write", function()
  local f = scratch("2m", { direct = true })
  for _, e in ipairs { "libaio", "io_uring" } do
    if (e == "libaio" and p.have_aio) or (e == "io_uring" and p.have_uring) then
      for _, op in ipairs { "read", "write" } do
        local r = p.run { file = f, engine = e, qd = 32, op = op, pattern = "random",
                          count = 3000, progress = false }
        local what = e .. " " .. op
        T.eq(r.ops, 3000, what .. " ops")
        T.eq(sum(r.depths), 3000, what .. " depths sum")
        T.eq(r.depths.total, 3000, what .. " depths total")
        T.ok(r.depths[6] > 0, what .. ": the queue reached 32")
        T.eq(r.depths[7], 0, what .. ": never 64")
        T.eq(r.submit[2], 3000, what .. ": batch 1, one I/O per io_submit")
        T.ok(r.complete.total >= 3000 / 32 and r.complete.total <= 3000,
          what .. " reaps " .. r.complete.total)
        T.eq(r.complete[7], 0, what .. ": never more than 64 a reap")
      end
      local b = p.run { file = f, engine = e, qd = 32, batch = 16, pattern = "random",
                        count = 3200, progress = false }
      T.ok(b.submit[4] > 0, e .. " batch 16: submit calls of 9..16 I/Os")
      T.ok(b.submit.total <= 3200 / 2, e .. " batch 16: fewer calls than I/Os / 2")
    end
  end
  f:close()
end)

T.test("depths: only p.run results have them", function()
  local f = scratch("64k")
  local r = p.run { file = f, progress = false }
  T.eq(r.read.depths, nil, "a sub-stat has none")
  local ph = p.phase("x", function() f:pread(0, 4096) end)
  T.eq(ph.depths, nil, "a phase has none")
  T.eq(ph.submit, nil, "a phase has no submit")
  f:close()
end)
