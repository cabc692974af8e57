-- libcrypto, ISA-L and libaio are loaded on first use (src/core/lazylib.c):
-- a start maps none of them; p.sha256, a verify run and the libaio engine load
-- theirs, in the sandbox (whose Landlock rules grant exactly those files), in
-- a p.parallel worker after fork, and with the library missing a clear error
-- names it. Each case runs platter itself and reads /proc/self/maps: trusted
-- through io, sandboxed through p.read_text with /proc/self/maps named on the
-- command line (which grants that one file of platter's own process).
local T = ...

local LIBS = { "libcrypto.so", "libisal.so", "libaio.so" }
local ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

-- the libraries of LIBS mapped, as "libcrypto.so libisal.so" (in LIBS' order)
local MAPPED = [[
local function mapped(maps)
  local got = {}
  for _, l in ipairs { "libcrypto.so", "libisal.so", "libaio.so" } do
    if maps:find("/" .. l, 1, true) then got[#got + 1] = l end
  end
  return table.concat(got, " ")
end
]]

-- run a script sandboxed (or trusted, opts.trust) in a fresh directory; its stdout,
-- stderr, status
local function run(body, opts)
  opts = opts or {}
  local dir = T.tmpdir()
  local maps = opts.trust and "io.open('/proc/self/maps'):read('*a')"
    or "p.read_text('/proc/self/maps')"
  T.write(dir .. "/s.lua", 'local p = require "platter"\n' .. MAPPED ..
    "local function maps() return mapped(" .. maps .. ") end\n" .. body)
  local args = { "s.lua", "/proc/self/maps" }
  if opts.trust then table.insert(args, 1, "--trust") end
  local pre = (opts.env or "") .. "cd " .. T.q(dir) .. " && "
  local words = {}
  for _, a in ipairs(args) do words[#words + 1] = T.q(a) end
  return T.sh(pre .. (opts.wrap or "") .. T.q(T.bin) .. " " .. table.concat(words, " "))
end

-- a verify write and read of each kind, and a libaio read, in the script's directory
local IO = [[
local f = assert(p.open("v.dat", { create = true, write = true, size = 256 * 1024 }))
for _, k in ipairs { "crc32c", "md5", "sha256" } do
  p.run { file = f, op = "write", bs = 4096, verify = k, progress = false, seed = 3 }
  local r = p.run { file = f, op = "read", bs = 4096, verify = k, progress = false }
  print(k, r.ops, r.verify_errors)
end
if p.have_aio then
  print("libaio", p.run { file = f, op = "read", bs = 4096, engine = "libaio", qd = 4,
    progress = false }.ops)
end
f:close()
p.remove("v.dat")
]]

local function io_want(have_aio)
  return "crc32c\t64\t0\nmd5\t64\t0\nsha256\t64\t0\n" .. (have_aio and "libaio\t64\n" or "")
end

local have_aio = select(1, run("print(p.have_aio)", { trust = true })) == "true\n"

for _, trust in ipairs { true, false } do
  local how = trust and "trusted" or "sandboxed"
  T.test(how .. ": a start maps none of libcrypto, libisal, libaio", function()
    local out, err, rc = run("print(maps())", { trust = trust })
    T.eq(rc, 0, "status (" .. err .. ")")
    T.eq(out, "\n", "mapped at start")
  end)

  T.test(how .. ": p.sha256 loads libcrypto only, gives the digest and prints nothing", function()
    local out, err, rc = run("print(p.sha256('abc'))\nprint(maps())", { trust = trust })
    T.eq(rc, 0, "status (" .. err .. ")")
    T.eq(err, "", "stderr")
    T.eq(out, ABC .. "\nlibcrypto.so\n", "digest, then what is mapped")
  end)

  T.test(how .. ": verify and the libaio engine load their libraries", function()
    local out, err, rc = run(IO .. "print(maps())", { trust = trust })
    T.eq(rc, 0, "status (" .. err .. ")")
    T.eq(out, io_want(have_aio) .. "libcrypto.so libisal.so" .. (have_aio and " libaio.so" or "")
      .. "\n", "runs, then what is mapped")
  end)
end

T.test("sandboxed: a p.parallel worker loads them after fork, the parent never does", function()
  local out, err, rc = run([[
local res = p.parallel(2, function(i)
  local f = assert(p.open("w" .. i .. ".dat", { create = true, write = true, size = 65536 }))
  p.run { file = f, op = "write", bs = 4096, verify = "sha256", progress = false }
  local r = p.run { file = f, op = "read", bs = 4096, verify = "crc32c", progress = false }
  local r2 = p.run { file = f, op = "read", bs = 4096, verify = "sha256", progress = false }
  f:close()
  p.remove("w" .. i .. ".dat")
  return r2, { sum = p.sha256("abc"), crc = r.verify_errors, sha = r2.verify_errors, ops = r2.ops }
end)
for i = 1, 2 do
  local v = res.values[i]
  print(v.sum, v.crc, v.sha, v.ops)
end
print(#res.failed, maps())
]])
  T.eq(rc, 0, "status (" .. err .. ")")
  -- the crc32c read finds sha256 blocks: every one is of the wrong kind
  local line = ABC .. "\t16\t0\t16\n"
  T.eq(out, line .. line .. "0\t\n", "workers' digests and checks; nothing in the parent")
end)

T.test("a missing library is an error naming it, not a crash", function()
  if not T.root then T.skip("needs root to hide the libraries (a bind mount)") end
  local _, _, urc = T.sh("unshare -m true")
  if urc ~= 0 then T.skip("no mount namespace here (unshare -m)") end
  -- the files themselves, from a run that loads all three
  local files = {}
  local out = run(IO .. "for l in io.open('/proc/self/maps'):read('*a'):gmatch('(/%S+)\\n') do print(l) end",
    { trust = true })
  for path in out:gmatch("(/[^\n]+)") do
    for _, l in ipairs(LIBS) do
      if path:find("/" .. l, 1, true) then files[path] = true end
    end
  end
  local mounts = {}
  for path in pairs(files) do mounts[#mounts + 1] = "mount --bind /dev/null " .. T.q(path) end
  T.ok(#mounts >= 2, "found the libraries' files: " .. out)
  local body = [[
local f = assert(p.open("v.dat", { create = true, write = true, size = 65536 }))
for _, k in ipairs { "crc32c", "md5", "sha256" } do
  print(select(2, pcall(p.run, { file = f, op = "write", bs = 4096, verify = k, progress = false })))
end
if p.have_aio then
  print(select(2, pcall(p.run, { file = f, op = "read", bs = 4096, engine = "libaio", qd = 4,
    progress = false })))
end
print(select(2, pcall(p.sha256, "abc")))
f:close()
p.remove("v.dat")
print(maps())
]]
  for _, trust in ipairs { true, false } do
    local o, err, rc = run(body, { trust = trust,
      wrap = "unshare -m sh -c " .. T.q(table.concat(mounts, " && ") .. ' && exec "$@"') .. " sh " })
    T.eq(rc, 0, "status (" .. err .. ")")
    T.has(o, "run: verify: crc32c needs libisal.so.2: ", "crc32c")
    T.has(o, "run: verify: md5 needs libcrypto.so.3: ", "md5")
    T.has(o, "run: verify: sha256 needs libcrypto.so.3: ", "sha256")
    T.has(o, "sha256 needs libcrypto.so.3: ", "p.sha256")
    if have_aio then T.has(o, "run: the libaio engine needs libaio.so.1: ", "libaio") end
    T.has(o, "file too short", "dlerror's reason")
  end
end)
