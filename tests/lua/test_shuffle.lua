-- p.run's shuffle pattern: every block of the range once per pass, in an
-- order drawn from the seed. A pass of zero writes over a file of random
-- bytes leaves no block unwritten (a random pattern does); the blocks a part
-- of a pass wrote repeat with the seed, differ with another seed, and are
-- pinned, so LuaJIT and Lua 5.4 builds run the same sequence.
local T = ...
local p = require "platter"

local BLK, NB = 4096, 64

-- a fresh file of NB random blocks, and a zero-filled write handle on it
local function fresh()
  local path = T.tmpdir() .. "/s.dat"
  T.sh("rm -f " .. T.q(path))
  local f = assert(p.open(path, { create = true, write = true, size = NB * BLK, fill = "random" }))
  f:close()
  return assert(p.open(path, { write = true })), path
end

-- which blocks are zeros now: "w" for written, "." for still random
local function written(path)
  local d = assert(T.read(path))
  local s = {}
  for b = 0, NB - 1 do
    s[#s + 1] = d:sub(b * BLK + 1, (b + 1) * BLK):find("[^%z]") and "." or "w"
  end
  return table.concat(s)
end

local function run_on_fresh(t)
  local z, path = fresh()
  t.file, t.op, t.progress = z, "write", false
  local r = p.run(t)
  z:close()
  return r, written(path)
end

T.test("shuffle: one pass by default, and it writes every block", function()
  local r, map = run_on_fresh { pattern = "shuffle", seed = 3 }
  T.eq(r.ops, NB, "a pass is one I/O per block")
  T.eq(r.stopped, "count", "stopped")
  T.eq(map, string.rep("w", NB), "every block written once")
  local _, rmap = run_on_fresh { pattern = "random", seed = 3, count = NB }
  T.ok(rmap:find(".", 1, true), "random with as many I/Os misses some blocks: " .. rmap)
end)

T.test("shuffle: every pass covers the range, with bs_list and an offset range", function()
  local r, map = run_on_fresh { pattern = "shuffle", seed = 5, count = 3 * NB }
  T.eq(r.ops, 3 * NB, "three passes")
  T.eq(map, string.rep("w", NB), "all blocks")
  -- a range of blocks 16..47: exactly those, in one pass
  local r2, map2 = run_on_fresh { pattern = "shuffle", seed = 5, range = { 16 * BLK, 48 * BLK } }
  T.eq(r2.ops, 32, "one pass of the range")
  T.eq(map2, string.rep(".", 16) .. string.rep("w", 32) .. string.rep(".", 16), "the range only")
  -- 8 KiB I/Os on 4 KiB alignment: half a pass of 64 starts covers everything
  local _, map3 = run_on_fresh { pattern = "shuffle", seed = 5, bs = "8k", align = "4k",
                                 count = NB }
  T.eq(map3, string.rep("w", NB), "8k over every 4k start")
end)

T.test("shuffle: a seed repeats its order, another seed has another, pinned", function()
  local _, a = run_on_fresh { pattern = "shuffle", seed = 7, count = 16 }
  local _, b = run_on_fresh { pattern = "shuffle", seed = 7, count = 16 }
  local _, c = run_on_fresh { pattern = "shuffle", seed = 8, count = 16 }
  local n = select(2, a:gsub("w", "w"))
  T.eq(n, 16, "16 I/Os, 16 distinct blocks")
  T.eq(a, b, "seed 7 twice")
  T.ok(a ~= c, "seed 8 differs")
  -- the same on every build and flavour (integer arithmetic in C)
  T.eq(a, "......w.w..w......ww...w....w..w...w.w....ww........w..w.ww.....", "seed 7 pinned")
  T.eq(c, ".......ww....w.w...........w.w.........w.wwww....ww......ww...w.", "seed 8 pinned")
end)

T.test("shuffle: at depth through libaio and io_uring, and O_DIRECT", function()
  for _, e in ipairs { "libaio", "io_uring" } do
    if (e == "libaio" and p.have_aio) or (e == "io_uring" and p.have_uring) then
      local _, path = fresh()
      local d = assert(p.open(path, { write = true, direct = true }))
      local r = p.run { file = d, engine = e, qd = 8, op = "write", pattern = "shuffle", seed = 9,
                        progress = false }
      d:close()
      T.eq(r.ops, NB, e .. " ops")
      T.eq(written(path), string.rep("w", NB), e .. ": every block")
    end
  end
  local f = fresh()
  T.raises(function() p.run { file = f, pattern = "shufle" } end, "normal, list, shuffle, pareto, zoned, zoned_abs)")
  f:close()
end)
