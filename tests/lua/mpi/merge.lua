local p = require "platter"
local m = p.mpi
local function stream(i)
  local f = assert(p.open("s" .. i .. ".dat", { create = true, write = true, size = "8m" }))
  local r = p.run { file = f, pattern = "random", bs = 4096, count = 400, seed = 100 + i }
  f:close()
  return r
end
local function show(s)
  local t = { s.ops, s.bytes, s:min(), s:max(), string.format("%.17g", s:mean()), string.format("%.17g", s:stdev()) }
  for _, q in ipairs { 1, 10, 50, 90, 99, 99.9, 99.99 } do t[#t + 1] = s:percentile(q) end
  for _, b in ipairs(s:buckets()) do t[#t + 1] = table.concat(b, ":") end
  return table.concat(t, " ")
end
if arg[1] == "ref" then
  local res = p.parallel(4, function(i) return stream(i - 1) end)
  local acc = res[1]
  for i = 2, 4 do acc:merge(res[i]) end
  print(show(acc))
else
  local merged = m.reduce(stream(m.rank))
  if m.rank == 0 then print(show(merged)) end
end
