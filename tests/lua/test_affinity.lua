-- p.affinity: the CPUs a process may run on, read and set (fio's cpus_allowed),
-- in a p.parallel worker without touching the caller, and its errors.
local T = ...
local p = require "platter"

-- the kernel's own view of this process: /proc/self/status's Cpus_allowed_list
local function kernel_list()
  for line in io.lines("/proc/self/status") do
    local v = line:match("^Cpus_allowed_list:%s*(%S+)")
    if v then return v end
  end
end

local function ranges(list)
  local out, i = {}, 1
  while i <= #list do
    local j = i
    while j < #list and list[j + 1] == list[j] + 1 do j = j + 1 end
    out[#out + 1] = j > i and (list[i] .. "-" .. list[j]) or tostring(list[i])
    i = j + 1
  end
  return table.concat(out, ",")
end

T.test("affinity: reads the CPUs this process may run on, as the kernel says", function()
  local list, ncpus = p.affinity()
  T.ok(#list >= 1, "at least one CPU")
  for i = 2, #list do T.ok(list[i] > list[i - 1], "ascending") end
  T.ok(ncpus >= #list and ncpus == math.floor(ncpus), "ncpus " .. ncpus .. " >= " .. #list)
  T.eq(ranges(list), kernel_list(), "the same as /proc/self/status")
end)

T.test("affinity: a worker pins itself to one CPU; the caller keeps its set", function()
  local before = p.affinity()
  local last = before[#before]
  local res = p.parallel(1, function()
    local ok, err = p.affinity({ last })
    assert(ok, err)
    local now = p.affinity()
    return p.phase("w", function() end), { now = now, kernel = kernel_list() }
  end)
  T.eq(#res.failed, 0, "the worker ran")
  T.eq(#res.values[1].now, 1, "one CPU in the worker")
  T.eq(res.values[1].now[1], last, "the CPU asked for")
  T.eq(res.values[1].kernel, tostring(last), "the kernel says so too")
  T.eq(ranges(p.affinity()), ranges(before), "the caller's set is unchanged")
end)

T.test("affinity: bad lists raise naming the argument; a set the kernel refuses says why", function()
  for _, bad in ipairs { {}, { -1 }, { 1.5 }, { "x" }, { 1024 }, { 0 / 0 } } do
    T.raises(function() p.affinity(bad) end, "bad argument #1 to 'affinity'")
  end
  T.raises(function() p.affinity("0-1") end, "table expected, got string")
  local list, ncpus = p.affinity()
  local absent = ncpus + 5
  if absent < 1024 then
    local ok, msg, errno = p.affinity({ absent })
    T.eq(ok, nil, "refused")
    T.eq(errno, 22, "EINVAL")
    T.eq(msg, "affinity to CPUs " .. absent .. ": Invalid argument (this process may run on CPUs "
      .. ranges(list) .. ")", "the message")
    T.eq(ranges(p.affinity()), ranges(list), "nothing changed")
  end
end)
