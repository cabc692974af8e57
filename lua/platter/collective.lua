-- platter.collective: p.phase(name, fn, { collective = true, stonewall =, wearout = })
-- across the ranks of p.mpi (docs/distributed.md).
--
-- A collective phase starts with a barrier named after it; every rank then
-- runs fn under its own p.phase and stamps its end relative to the moment it
-- left that barrier, so that the clocks of different nodes never meet. After
-- it the ranks exchange what they did (allgather) and every rank gets
-- s.world: the aggregate (bytes of all ranks / the latest end), first-done
-- and last-done figures and per-rank summaries. Every p.run inside keeps its
-- completions' times (timeline = true), so the data all ranks had moved when
-- the first rank finished is counted exactly, each rank from its own
-- timeline, not estimated from samples. With stonewall = T every p.run
-- inside stops T after the release; with wearout = true each then goes on
-- until it has done as many I/Os as the rank that did most (IOR's
-- stoneWallingWearOut), for at most wearout_max (default T) more.
local M = {}

local function copy(t)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  return c
end

-- "lua/platter/x.lua:12: msg" -> "msg": a p.run error is reported at the user's line
local function bare(e)
  if type(e) == "string" then e = e:gsub("^lua/platter/[%w_]+%.lua:%d+: ", "") end
  return e
end

local OPTIONS = { collective = true, stonewall = true, wearout = true, wearout_max = true, progress = true,
  cache = true }

function M.install(core, api)
  local phase, run = api.phase, api.run
  local mpi = api.mpi
  local active = nil   -- the collective phase running on this rank, if any

  local function seconds(v, what, level)
    if v == nil then return nil end
    local s = v
    if type(v) == "string" then
      local why
      s, why = core.parse_time(v)
      if not s then error("phase: '" .. what .. "': " .. why, level + 1) end
    elseif type(v) ~= "number" then
      error("phase: '" .. what .. "' must be a time (\"30s\") or seconds", level + 1)
    end
    if not (s > 0) then error("phase: '" .. what .. "' must be more than 0", level + 1) end
    return s
  end

  local function bytes(v)
    if type(v) == "string" then return (core.parse_size(v)) end
    return v
  end

  -- The table of the wear-out run: the same job, `need` more I/Os, from where
  -- the first one stopped (`done` I/Os in) where the pattern says where that is.
  local function continuation(t, done, need, limit)
    local c = copy(t)
    c.count, c.bytes, c.seconds, c.ramp = need, nil, limit, nil
    c.name = (t.name or "run") .. " wear-out"
    local pattern = t.pattern or "seq"
    if t.gen then
      local gen = t.gen
      c.gen = function(i) return gen(i + done) end
    elseif pattern == "list" and type(t.offsets) == "table" and #t.offsets > 0 then
      local n, list = #t.offsets, {}
      for i = 1, n do list[i] = t.offsets[(i - 1 + done) % n + 1] end
      c.offsets = list
    elseif (pattern == "seq" or pattern == "reverse") and not t.bs_list then
      local f = t.file or (t.files and t.files[1])
      local lo, hi = 0, f and f:size() or 0
      if type(t.range) == "table" then
        lo, hi = bytes(t.range[1]) or lo, bytes(t.range[2]) or hi
      end
      local bs = bytes(t.bs) or 4096
      local span = hi - lo - (hi - lo) % bs
      if span > 0 then
        local shift = (done * bs) % span
        if pattern == "seq" then c.range = { lo + shift, hi } else c.range = { lo, hi - shift } end
      end
    elseif t.seed then
      c.seed = t.seed + done  -- a random pattern: a stream of its own
    end
    return c
  end

  -- p.run inside a collective phase: a timeline, the stonewall, the wear-out
  local function collective_run(c, t)
    local t2 = copy(t)
    t2.timeline = true
    local limited = false
    if c.deadline then
      local left = (c.deadline - core.now()) / 1e9
      if left < 1e-6 then left = 1e-6 end
      local own = t.seconds
      if type(own) == "string" then own = core.parse_time(own) end
      if type(own) ~= "number" or left < own then
        t2.seconds, limited = left, true
      end
    end
    local ok, r = pcall(run, t2)
    if not ok then error(bare(r), 2) end
    c.runs[#c.runs + 1] = r
    if c.deadline then
      local hit = limited and r.stopped == "time"
      c.stone_ops = c.stone_ops + r.ops
      if c.wearout then
        -- every p.run of a wear-out phase is a collective: the I/Os of the rank that did most
        local most = mpi.allreduce(r.ops, "max")
        if hit and r.ops < most then
          local ok2, r2 = pcall(run, continuation(t2, r.ops, most - r.ops, c.wearout_max))
          if not ok2 then error(bare(r2), 2) end
          c.runs[#c.runs + 1] = r2
          c.wear_ops = c.wear_ops + r2.ops
          if r2.ops < most - r.ops then c.bounded = true end
          r:merge(r2)
        end
      end
    end
    return r
  end

  local function world_of(c, s, release, finish)
    local mine = {
      rank = mpi.rank, host = mpi.host, node = mpi.node, ops = s.ops, bytes = s.bytes, errors = s.errors,
      seconds = s.seconds, finish = finish, release = release, stone_ops = c.stone_ops, wear_ops = c.wear_ops,
      bounded = c.bounded,
    }
    local all = mpi.allgather(mine)
    local first, last = math.huge, 0
    local w = { ranks = #all, ops = 0, bytes = 0, errors = 0, per_rank = {} }
    local nodes = {}
    for i, a in ipairs(all) do
      first, last = math.min(first, a.finish), math.max(last, a.finish)
      w.ops, w.bytes, w.errors = w.ops + a.ops, w.bytes + a.bytes, w.errors + a.errors
      w.per_rank[i] = { rank = a.rank, host = a.host, node = a.node, ops = a.ops, bytes = a.bytes,
        seconds = a.finish, bw = a.finish > 0 and a.bytes / a.finish or 0 }
      local n = nodes[a.node] or { lo = a.release, hi = a.release }
      n.lo, n.hi = math.min(n.lo, a.release), math.max(n.hi, a.release)
      nodes[a.node] = n
    end
    -- what every rank had done when the first one finished: each from its own timeline
    local at = release + first * 1e9
    local ops_first, bytes_first, outside = 0, 0, s.ops
    for _, r in ipairs(c.runs) do
      local o, b = r:done_by(at)
      ops_first, bytes_first, outside = ops_first + o, bytes_first + b, outside - r.ops
    end
    local firsts = mpi.allgather({ ops = ops_first, bytes = bytes_first, exact = outside <= 0 })
    local fo, fb, exact = 0, 0, true
    for _, f in ipairs(firsts) do fo, fb, exact = fo + f.ops, fb + f.bytes, exact and f.exact end
    w.seconds = last
    w.bw = last > 0 and w.bytes / last or 0
    w.iops = last > 0 and w.ops / last or 0
    w.first_done = { seconds = first, ops = exact and fo or nil, bytes = exact and fb or nil,
      bw = exact and first > 0 and fb / first or nil, iops = exact and first > 0 and fo / first or nil }
    w.last_done = { seconds = last, ops = w.ops, bytes = w.bytes, bw = w.bw, iops = w.iops }
    -- the barrier's release skew: ranks of one node read one clock; across nodes it cannot be seen
    local skew = 0
    for _, n in pairs(nodes) do skew = math.max(skew, (n.hi - n.lo) / 1e9) end
    w.skew = skew
    if c.deadline then
      local lo, hi, wear, bounded = math.huge, 0, 0, false
      for _, a in ipairs(all) do
        lo, hi = math.min(lo, a.stone_ops), math.max(hi, a.stone_ops)
        wear, bounded = wear + a.wear_ops, bounded or a.bounded
      end
      w.stonewall = { seconds = c.stonewall, ops_min = lo, ops_max = hi, wearout = c.wearout,
        wearout_ops = wear, bounded = bounded }
    end
    return w
  end

  local function collective(name, fn, opts)
    for k in pairs(opts) do
      if not OPTIONS[k] then error("phase: unknown option '" .. tostring(k) .. "'", 3) end
    end
    if type(fn) ~= "function" then error("phase: a collective phase needs a function", 3) end
    if active then error("phase: collective phase '" .. name .. "' inside '" .. active.name .. "'", 3) end
    local stonewall = seconds(opts.stonewall, "stonewall", 3)
    if opts.wearout and not stonewall then error("phase: 'wearout' needs 'stonewall'", 3) end
    local c = { name = name, runs = {}, stone_ops = 0, wear_ops = 0, bounded = false,
      stonewall = stonewall, wearout = opts.wearout and true or false,
      wearout_max = seconds(opts.wearout_max, "wearout_max", 3) or stonewall }
    mpi.barrier(name)
    local release = core.now()
    c.deadline = stonewall and release + stonewall * 1e9
    active = c
    M.swap_run(true)
    local ok, s = pcall(phase, name, fn, { progress = opts.progress, cache = opts.cache })
    M.swap_run(false)
    active = nil
    if not ok then error(s, 0) end
    local finish = (core.now() - release) / 1e9
    local w = world_of(c, s, release, finish)
    local merged = mpi.reduce(s)
    w.merged = merged
    core._attach(s, "world", w)
    -- the record (rank 0 writes it) keeps the world's figures with the phase
    local plain = copy(w)
    plain.merged = nil
    if merged then
      plain.lat = { p50 = merged:percentile(50), p99 = merged:percentile(99), mean = merged:mean(),
        max = merged:max() }
    end
    local ok2, recorder = pcall(require, "platter.recorder")
    if ok2 and recorder.amend then recorder.amend(s, "world", plain) end
    return s
  end

  -- IOR's layouts (ior.c): a rank's own file, the offsets of its blocks, and
  -- the rank whose data it reads back with -C
  local function count(v, what, min)
    if type(v) == "string" then v = core.parse_size(v) end
    if type(v) ~= "number" or v ~= math.floor(v) or v < min then
      error("mpi: '" .. what .. "' must be a whole number of at least " .. min, 3)
    end
    return v
  end
  mpi.rank_file = function(name, r)
    if type(name) ~= "string" then error("mpi.rank_file: the name must be a string", 2) end
    return string.format("%s.%08d", name, r == nil and mpi.rank or count(r, "rank", 0))
  end
  mpi.segments = function(t)
    if type(t) ~= "table" then error("mpi.segments: a table expected", 2) end
    local block, xfer = count(t.block, "block", 1), count(t.xfer or t.block, "xfer", 1)
    local segs = count(t.segments or 1, "segments", 0)
    local r, n = count(t.rank or mpi.rank, "rank", 0), count(t.ranks or mpi.size, "ranks", 1)
    if block % xfer ~= 0 then error("mpi.segments: the block must be a multiple of xfer", 2) end
    local list, k = {}, 0
    for i = 0, segs - 1 do
      local base = t.shared == false and i * block or (i * n + r) * block
      for j = 0, block / xfer - 1 do
        k = k + 1
        list[k] = base + j * xfer
      end
    end
    return list
  end
  mpi.reorder = function(k, t)
    t = t or {}
    if type(t) ~= "table" then error("mpi.reorder: the layout must be a table", 2) end
    k = count(k, "k", 0)
    local r, n = count(t.rank or mpi.rank, "rank", 0), count(t.ranks or mpi.size, "ranks", 1)
    local per_node = count(t.per_node or mpi.local_size, "per_node", 1)
    local block = t.block
    if block == nil then  -- ranks fill a node before the next (by slot), as mpirun's default
      block = mpi.nodes == 1 or mpi.rank == mpi.node * mpi.local_size + mpi.local_rank
    end
    return (r + k * (block and per_node or 1)) % n
  end

  -- p.phase(name, fn, { collective = true }) comes here from C (l_phase), so that
  -- every other phase is the C function itself, errors and all
  core._hook("collective_phase", function(name, fn, opts) return collective(name, fn, opts) end)
  -- p.run is collective_run while a collective phase runs (see collective())
  M.swap_run = function(on)
    api.run = on and function(t)
      if type(t) ~= "table" then return run(t) end
      return collective_run(active, t)
    end or run
  end
end

return M
