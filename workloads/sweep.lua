-- Lewis 1988 block-size sweep: Random, Reread, Linear x cooked/raw, req/sec and bytes/sec
--
-- "Random" is lseek(512*random()) + read(bsize); "Reread" is lseek(0) +
-- read(bsize); "Linear" is continuous read(bsize). Each cell runs for a
-- fixed time, through the page cache ("cooked") and with O_DIRECT ("raw"),
-- and the three tables print in the layout of the 1988 post.
local p = require "platter"
-- the manifest (platter describe, platter plan); the arguments are read below,
-- with the original tool's syntax
p.script({
  name = "sweep", version = "1.0", api = "platter/1", args = "own",
  description = "the 1988 block-size sweep: Random, Reread, Linear x cooked/raw",
  params = {
    target = { type = "path", positional = true,
      help = "a file or device to read; without one, a scratch file is made" },
    size = { type = "size", flag = "-s", default = "64m", help = "size of the scratch file" },
    min = { type = "size", flag = "--min", default = "512", help = "smallest block size" },
    max = { type = "size", flag = "--max", default = "512k", help = "largest block size" },
    duration = { type = "time", flag = "-d", default = "0.2s", help = "time spent on each cell" },
  },
  needs = { write = true, device = "any" },
}, ...)

local o = p.args({
  name = "sweep",
  usage = "[options] [TARGET]",
  summary = "Lewis 1988 block-size sweep: req/sec and bytes/sec per block size, "
    .. "cooked (page cache) and raw (O_DIRECT).",
  options = {
    { "-s", "--size", arg = "SIZE", type = "size", default = "64m",
      help = "size of the scratch file made when no TARGET is given" },
    { "--min", arg = "SIZE", type = "size", default = "512",
      help = "smallest block size, doubled up to --max (at least 1)" },
    { "--max", arg = "SIZE", type = "size", default = "512k", help = "largest block size" },
    { "-t", "--tests", arg = "LIST", default = "random,reread,linear",
      help = "tests to run, comma-separated" },
    { "-m", "--modes", arg = "LIST", default = "cooked,raw", help = "cooked, raw or both" },
    { "-d", "--duration", arg = "TIME", type = "time", default = "0.2s",
      help = "time spent on each cell" },
    { "--keep-cache", help = "do not drop TARGET's cached pages before each cooked cell" },
  },
  positional = { { "target", arg = "TARGET", optional = true } },
  epilog = "TARGET is a file or block device to read; without one, a scratch file of\n"
    .. "--size bytes is made in the current directory and removed at the end.",
}, ...)

-- the block size doubles from --min up to --max: from 0 it would never grow
if o.min < 1 then p.usage_error("sweep", "--min must be at least 1 byte") end
if o.max < o.min then p.usage_error("sweep", "--max must be at least --min") end

local function split(list, known, what)
  local out = {}
  for w in list:gmatch("[^,]+") do
    if not known[w] then p.usage_error("sweep", string.format("unknown %s '%s'", what, w)) end
    out[#out + 1] = w
  end
  return out
end

local TESTS = { random = "Random", reread = "Reread", linear = "Linear" }
local tests = split(o.tests, TESTS, "test")
local modes = split(o.modes, { cooked = true, raw = true }, "mode")
local want = {}
for _, m in ipairs(modes) do want[m] = true end

local path = o.target
if not path then
  path = string.format("platter-sweep.%d.dat", p.pid())
  p.scratch(path)
  p.log("sweep: making scratch file %s (%s)", path, p.size_string(o.size))
  assert(p.open(path, { create = true, write = true, size = o.size, fill = "random" })):close()
end

local files = {}
if want.cooked then files.cooked = assert(p.open(path)) end
if want.raw then files.raw = assert(p.open(path, { direct = true })) end
local size = (files.cooked or files.raw):size()

-- One cell: issue `test` reads of `bs` bytes on f for o.duration seconds.
local function cell(f, test, bs, mode)
  if bs > size then return nil end
  local align = mode == "raw" and f:info().dio_align or 512
  local last = size - bs
  if mode == "cooked" and not o.keep_cache then f:drop_cache() end
  f:seek(0)
  -- a cooked Reread rereads one block: the page cache is what it measures (the
  -- raw column is the drive's own buffer), so the cache warning leaves it alone
  local cached_on_purpose = mode == "cooked" and test == "reread"
  local deadline = p.now() + o.duration * 1e9
  local s = p.phase(TESTS[test] .. " " .. bs .. " " .. mode, function()
    if test == "random" then
      local unit = math.max(512, align)
      repeat
        f:seek(p.random(0, last, unit))
        f:read(bs)
      until p.now() >= deadline
    elseif test == "reread" then
      repeat
        f:seek(0)
        f:read(bs)
      until p.now() >= deadline
    else
      local pos = 0
      repeat
        if pos + bs > size then
          f:seek(0)
          pos = 0
        end
        pos = pos + f:read(bs)
      until p.now() >= deadline
    end
  end, { cache = cached_on_purpose })
  return s
end

local sizes = {}
local bs = o.min
while bs <= o.max do
  sizes[#sizes + 1] = bs
  bs = bs * 2
end

for ti, test in ipairs(tests) do
  if ti > 1 then p.write("\n") end
  p.printf("%s\nbsize", TESTS[test])
  for _ in ipairs(modes) do p.write("\treq/sec\tbw") end
  p.write("\n")
  for _, m in ipairs(modes) do p.write("\t", m, "\t", m) end
  p.write("\n")
  p.flush()
  for _, b in ipairs(sizes) do
    local row = { string.format("%d", b) }
    for _, m in ipairs(modes) do
      local s = cell(files[m], test, b, m)
      if s and s.seconds > 0 then
        local req = s.ops / s.seconds
        row[#row + 1] = string.format("%.6g", req)
        row[#row + 1] = string.format("%d", math.floor(s.bytes / s.seconds))
      else
        row[#row + 1] = "-"
        row[#row + 1] = "-"
      end
    end
    p.write(table.concat(row, "\t"), "\n")
    p.flush()
  end
end

for _, f in pairs(files) do f:close() end
if not o.target then p.remove(path) end
