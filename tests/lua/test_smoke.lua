-- Smoke: the module loads, a phase records what a file does.
local T = ...
local p = require "platter"

T.test("phase records pread ops and bytes", function()
  local d = T.tmpdir()
  local f = assert(p.open(d .. "/a.dat", { create = true, write = true, size = "1m" }))
  local s = p.phase("reads", function()
    for i = 0, 255 do f:pread(i * 4096, 4096) end
  end)
  T.eq(s.ops, 256, "ops")
  T.eq(s.bytes, 256 * 4096, "bytes")
  T.ok(s.seconds > 0, "seconds > 0")
  T.ok(s:percentile(50) > 0, "p50 > 0")
  f:close()
end)
