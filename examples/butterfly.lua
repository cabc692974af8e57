-- butterfly: 512-byte O_DIRECT reads that alternate between the two ends of
-- a file and move inwards (first block, last block, second, second-to-last,
-- ...), a worst case for a disk head. Prints ops, IOPS, bandwidth, CPU% and
-- the median and 99th percentile latency.
--
--   platter examples/butterfly.lua [-s SIZE] [FILE]
--
-- Without FILE it makes a scratch file of SIZE bytes (default 4m) in the
-- current directory and removes it at exit. FILE may be a block device: it
-- is only read.
local p = require "platter"
local o = p.args({ name = "butterfly", usage = "[-s SIZE] [FILE]",
  options = { { "-s", arg = "SIZE", type = "size", default = "4m", help = "scratch file size" } },
  positional = { { "file", arg = "FILE", optional = true } } }, ...)
local scratch = not o.file  -- p.scratch: the file is removed at exit, whatever the exit path
local f = assert(p.open(o.file or p.scratch("butterfly." .. p.pid() .. ".dat"),
  { direct = true, create = scratch, size = scratch and o.s or nil }))  -- raw: no page cache
local bs, n = 512, math.floor(f:size() / 512)  -- n whole blocks
local s = p.phase("butterfly", function()      -- times every call made inside
  for i = 0, math.floor(n / 2) - 1 do
    f:pread(i * bs, bs)                        -- one from the front ...
    f:pread((n - 1 - i) * bs, bs)              -- ... one from the back
  end
end)
f:close()
p.printf("%s: %d ops in %.3f s, %.0f IOPS, %.3f MB/s, CPU %.0f%%\n",
  s.name, s.ops, s.seconds, s.iops, s.bw / 1e6, s.cpu_pct)
p.printf("latency: p50 %.1f us, p99 %.1f us\n", s:percentile(50) / 1e3, s:percentile(99) / 1e3)
