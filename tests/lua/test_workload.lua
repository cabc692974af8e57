-- p.workload: a shipped workload run from a script prints and records exactly
-- what it does alone (under --sim, byte for byte), its errors are strings the
-- caller can catch, and it reaches only what the caller may reach: the
-- arguments a script hands it grant nothing.
local T = ...
local cjson = require "cjson"

-- A fresh layout: D/cwd (the current directory), D/tmp ($TMPDIR), D/outside
-- (allowed only when named), D/scripts (where the script file lives).
local function layout()
  local d = T.tmpdir()
  local L = { d = d, cwd = d .. "/cwd", tmp = d .. "/tmp", outside = d .. "/outside",
              scripts = d .. "/scripts" }
  T.sh_ok("mkdir -p " .. T.q(L.cwd) .. " " .. T.q(L.tmp) .. " " .. T.q(L.outside) .. " "
    .. T.q(L.scripts))
  T.write(L.outside .. "/secret", "secret\n")
  return L
end

-- Run platter with `words` (a list) from D/cwd with TMPDIR=D/tmp; env is a
-- prefix such as "PLATTER_SANDBOX=checks". Returns stdout, stderr, status.
local function run(L, words, env)
  local q = {}
  for _, w in ipairs(words) do q[#q + 1] = T.q(w) end
  return T.sh("cd " .. T.q(L.cwd) .. " && " .. (env or "") .. " TMPDIR=" .. T.q(L.tmp) .. " "
    .. T.q(T.bin) .. " " .. table.concat(q, " "))
end

-- Write `code` as D/scripts/NAME and return its path.
local function script(L, code, name)
  local path = L.scripts .. "/" .. (name or "s.lua")
  T.write(path, code)
  return path
end

local function list(...)
  local out = {}
  for _, t in ipairs({ ... }) do
    for _, v in ipairs(t) do out[#out + 1] = v end
  end
  return out
end

local function json(path)
  local text = T.read(path)
  T.ok(text, path .. " written")
  return cjson.decode(text)
end

-- {{{ the same as alone

-- Every shipped workload, small, on the simulated disk. The script hands the
-- workload its own arguments, so both runs are granted the same paths.
local CASES = {
  { "hitachi-85mb-1988", "sweep", { "-s", "2m", "-d", "0.2", "--max", "4k" } },
  { "ata-5400-1999", "bonnie", { "-s", "20", "-m", "sim" } },
  { "ata-5400-1999", "bonnie++", { "-s", "64", "-r", "16", "-n", "1", "-m", "sim" } },
  { "ata-5400-1999", "iozone", { "-s", "4m", "-r", "64k", "-i", "0", "-i", "1" } },
  { "ata-5400-1999", "dd", { "if=/dev/hda", "of=/dev/null", "bs=32k", "count=100" } },
  { "ata-5400-1999", "hdparm", { "-tT", "/dev/hda" } },
  { "ata-5400-1999", "ioping", { "-c", "3", "-i", "0", "/dev/hda" } },
  { "ata-5400-1999", "zones", { "/dev/hda" } },
  { "hitachi-85mb-1988", "readahead", {} },
}

local PHASE_FIELDS = { "name", "ops", "bytes", "seconds", "errors" }

for _, c in ipairs(CASES) do
  local preset, name, args = c[1], c[2], c[3]
  T.test("--sim " .. name .. ": p.workload prints and records what the workload does alone",
    function()
      local L = layout()
      local a, b = L.d .. "/alone.json", L.d .. "/nested.json"
      local out1, err1, rc1 = run(L, list({ "--sim", preset, "--json", a, name }, args))
      local s = script(L, string.format("platter.workload(%q, {...})\n", name))
      local out2, err2, rc2 = run(L, list({ "--sim", preset, "--json", b, s }, args))
      T.eq(rc1, 0, "status alone (" .. err1 .. ")")
      T.eq(rc2, rc1, "status")
      T.eq(out2, out1, "stdout")
      T.eq(err2, err1, "stderr")
      local ra, rb = json(a), json(b)
      T.ok(#ra.phases > 0, "phases recorded")
      T.eq(#rb.phases, #ra.phases, "phases")
      for i, pa in ipairs(ra.phases) do
        for _, k in ipairs(PHASE_FIELDS) do
          T.eq(rb.phases[i][k], pa[k], "phase " .. i .. " " .. k)
        end
      end
      T.eq(rb.script.kind, "file", "script.kind")
      local w = rb.script.workloads
      T.ok(type(w) == "table" and #w == 1, "one script.workloads entry")
      T.eq(w[1].name, name, "workloads[1].name")
      T.eq(w[1].sha256, ra.script.sha256, "workloads[1].sha256 (the workload's source)")
      T.eq(#w[1].args, #args, "workloads[1].args")
      for i, v in ipairs(args) do T.eq(w[1].args[i], v, "workloads[1].args[" .. i .. "]") end
      T.eq(ra.script.workloads, nil, "no script.workloads when none ran")
    end)
end

T.test("output between the caller's own lines, in order; two workloads in one run", function()
  local L = layout()
  local o1 = run(L, { "--sim", "ata-5400-1999", "hdparm", "-t", "/dev/hda" })
  local o2 = run(L, { "--sim", "ata-5400-1999", "ioping", "-c", "2", "-i", "0", "/dev/hda" })
  local s = script(L, [[
local p = require "platter"
print("before")
p.workload("hdparm", { "-t", arg[1] })
p.write("between\n")
p.workload("ioping", { "-c", 2, "-i", "0", arg[1] })  -- a number passes as its text
print("after")
]])
  local j = L.d .. "/r.json"
  local out, err, rc = run(L, { "--sim", "ata-5400-1999", "--json", j, s, "/dev/hda" })
  T.eq(rc, 0, "status (" .. err .. ")")
  -- the first exactly; the second ran on a disk the first has used (the run's
  -- one simulated disk and clock), so only its text is the same
  local head = "before\n" .. o1 .. "between\n"
  T.eq(out:sub(1, #head), head, "stdout up to the second workload")
  local function mask(text) return (text:gsub("[%d.]+", "#")) end
  T.eq(mask(out:sub(#head + 1)), mask(o2 .. "after\n"), "the rest of stdout, numbers masked")
  local w = json(j).script.workloads
  T.eq(#w, 2, "two entries")
  T.eq(w[1].name .. " " .. table.concat(w[1].args, " "), "hdparm -t /dev/hda", "first")
  T.eq(w[2].name .. " " .. table.concat(w[2].args, " "), "ioping -c 2 -i 0 /dev/hda", "second")
end)

T.test("--repeat: one record entry per distinct call, the phases of every repetition", function()
  local L = layout()
  local s = script(L, 'platter.workload("hdparm", { "-t", arg[1] })\n')
  local j = L.d .. "/r.json"
  local _, err, rc = run(L, { "--sim", "ata-5400-1999", "--repeat", "2", "--json", j, s,
    "/dev/hda" })
  T.eq(rc, 0, "status (" .. err .. ")")
  local r = json(j)
  T.eq(#r.script.workloads, 1, "entries")
  local _, _, rc1 = run(L, { "--sim", "ata-5400-1999", "--json", j, "hdparm", "-t", "/dev/hda" })
  T.eq(rc1, 0, "status alone")
  local one = json(j)  -- the phases of one hdparm -t run
  T.eq(#r.phases, 2 * #one.phases, "phases")
end)

T.test("the caller's globals and arg are its own; --trust works the same", function()
  local L = layout()
  local s = script(L, [[
local p = require "platter"
mine = "caller"
local before = arg
p.workload("hdparm", { "-t", arg[1] })
assert(arg == before and arg[1] == "/dev/hda" and arg[0]:find("s.lua$"), "arg changed")
assert(mine == "caller", "global changed")
print(p.sandbox())
]])
  local alone = run(L, { "--sim", "ata-5400-1999", "hdparm", "-t", "/dev/hda" })
  local out, err, rc = run(L, { "--sim", "ata-5400-1999", s, "/dev/hda" })
  T.eq(rc, 0, "status (" .. err .. ")")
  T.eq(out:gsub("[^\n]*\n$", ""), alone, "stdout")
  out, err, rc = run(L, { "--sim", "ata-5400-1999", "--trust", s, "/dev/hda" })
  T.eq(rc, 0, "--trust status (" .. err .. ")")
  T.eq(out, alone .. "off\n", "--trust stdout")
end)

-- }}}
-- {{{ errors

-- Run `code` (sandboxed, --sim) from D/cwd; returns stdout, stderr, status.
local function sim(code, args, flags)
  local L = layout()
  return run(L, list(flags or {}, { "--sim", "ata-5400-1999", script(L, code) }, args or {}))
end

T.test("a usage error is a string naming the workload, the caller can catch it", function()
  local out, err, rc = sim([[
local ok, e = pcall(platter.workload, "sweep", { "-s", "big" })
print(ok, type(e))
print(e)
print(select(2, pcall(platter.workload, "dd", { "bs=x" })))
]])
  T.eq(rc, 0, "status (" .. err .. ")")
  T.eq(out, "false\tstring\n"
    .. "sweep: bad value 'big' for -s: bad size 'big': not a number\n"
    .. "Try 'platter sweep --help'.\n"
    .. "dd: invalid number: 'x'\nTry 'platter dd --help'.\n", "stdout")
  T.eq(err, "", "stderr")
end)

T.test("uncaught, it reads as `platter NAME` prints it, with status 1", function()
  local L = layout()
  local _, alone = run(L, { "--sim", "ata-5400-1999", "sweep", "-s", "big" })
  local out, err, rc = sim('platter.workload("sweep", { "-s", "big" })\n')
  T.eq(rc, 1, "status")
  T.eq(out, "", "stdout")
  T.eq(err, alone, "stderr")
end)

T.test("an error inside the workload loses its position there, unless --verbose", function()
  local code = 'local ok, e = pcall(platter.workload, "sweep", { "nofile.dat" })\nprint(e)\n'
  local out, err, rc = sim(code)
  T.eq(rc, 0, "status (" .. err .. ")")
  T.eq(out, "sweep: open nofile.dat: No such file or directory\n", "stdout")
  out = sim(code, {}, { "--verbose" })
  T.ok(out:find("^sweep: workloads/sweep%.lua:%d+: open nofile%.dat: No such file or directory\n"),
    "--verbose keeps the position: " .. out)
end)

T.test("p.exit(n) inside: n = 0 returns (--help), another n raises NAME: exited with status n",
  function()
    local L = layout()
    local help = run(L, { "sweep", "--help" })
    local out, err, rc = sim('print(platter.workload("sweep", { "--help" }))\nprint("after")\n')
    T.eq(rc, 0, "status (" .. err .. ")")
    T.eq(out, help .. "\nafter\n", "stdout")
    out, err, rc = sim('print(select(2, pcall(platter.workload, "dd", '
      .. '{ "if=nofile.dat", "of=/dev/null" })))\n')
    T.eq(rc, 0, "status")
    T.eq(out, "dd: exited with status 1\n", "stdout")
    T.has(err, "dd: failed to open 'nofile.dat': No such file or directory", "dd's own message")
  end)

T.test("misuse: an unknown name, a path, an argument that is not a string", function()
  local out, err, rc = sim([[
for _, a in ipairs({ { "nosuch" }, { "../workloads/sweep.lua" }, { "sweep", { {} } },
                     { "sweep", "-s" }, { nil } }) do
  print(select(2, pcall(platter.workload, a[1], a[2])))
end
]])
  T.eq(rc, 0, "status (" .. err .. ")")
  local want = {
    "p.workload: no workload named 'nosuch' (only the shipped workloads of 'platter list')",
    "p.workload: no workload named '../workloads/sweep.lua' (only the shipped workloads of "
      .. "'platter list')",
    "p.workload: sweep: argument 1 is a table (arguments are strings)",
    "(table expected, got string)",  -- LuaJIT names no function called through pcall
    "(string expected, got nil)",
  }
  local i = 0
  for line in out:gmatch("[^\n]+") do
    i = i + 1
    T.has(line, want[i], "line " .. i)
  end
  T.eq(i, #want, "lines")
end)

-- }}}
-- {{{ the sandbox: nothing the caller was not granted

local MODES = {
  { what = "kernel layer on", env = "", flags = {} },
  { what = "kernel layer off (PLATTER_SANDBOX=checks)", env = "PLATTER_SANDBOX=checks",
    flags = {} },
  { what = "--sim", env = "", flags = { "--sim", "ata-5400-1999" } },
}

for _, m in ipairs(MODES) do
  T.test("sandbox (" .. m.what .. "): a nested workload cannot touch a path the caller was "
    .. "not granted", function()
    local L = layout()
    local secret, new = L.outside .. "/secret", L.outside .. "/new.dat"
    local s = script(L, string.format([[
local p = require "platter"
local secret, new = %q, %q
p.scratch("in.dat")
assert(p.open("in.dat", { create = true, write = true, size = 512 })):close()
local function try(name, args)
  local ok, e = pcall(p.workload, name, args)
  print(name, ok, e)
end
try("dd", { "if=" .. secret, "of=copy.dat" })          -- read outside
try("dd", { "if=in.dat", "of=" .. new })                  -- make a file outside
try("dd", { "if=in.dat", "of=" .. secret, "conv=notrunc" })  -- overwrite
try("sweep", { secret, "-d", "0.01", "--max", "512" })
try("bonnie", { "-d", %q, "-s", "1" })
-- and the caller is no wider afterwards
print("caller", pcall(p.open, secret))
]], secret, new, L.outside))
    local out, err, rc = run(L, list(m.flags, { s }), m.env)
    T.eq(rc, 0, "status (" .. err .. ")")
    local n = 0
    for line in out:gmatch("[^\n]+") do
      n = n + 1
      T.ok(line:find("\tfalse\t", 1, true), "refused: " .. line)
      T.ok(line:find(L.outside .. "/[%w.]+ is outside the current directory, %$TMPDIR and the "
        .. "paths named on the command line"), "the sandbox's refusal of the path: " .. line)
    end
    T.eq(n, 6, "lines: " .. out)
    T.eq(T.read(secret), "secret\n", "the secret is untouched")
    T.eq(T.read(new), nil, "nothing made outside")
    T.eq(T.sh("ls -A " .. T.q(L.outside)), "secret\n", "outside holds only the secret")
    T.eq(T.sh("ls -A " .. T.q(L.cwd)), "", "nothing left in the current directory")

    -- the control: named on platter's command line, the same call works
    local s2 = script(L, 'platter.scratch("in.dat")\n'
      .. 'assert(platter.open("in.dat", { create = true, write = true, size = 3 })):close()\n'
      .. 'platter.workload("dd", { "if=in.dat", "of=" .. arg[1], "status=none" })\n'
      .. 'print("written")\n', "s2.lua")
    out, err, rc = run(L, list(m.flags, { s2, new }), m.env)
    T.eq(rc, 0, "status when named (" .. err .. ")")
    T.eq(out, "written\n", "stdout when named")
    if #m.flags == 0 then  -- (under --sim the file is the model's)
      T.eq(T.read(new), "\0\0\0", "the file named on the command line")
    end
  end)
end

T.test("sandbox: a nested workload cannot be loaded from a path, even a granted one", function()
  local L = layout()
  T.write(L.outside .. "/evil.lua", 'error("evil ran")\n')
  local s = script(L, [[
for _, name in ipairs({ arg[1], arg[1]:gsub("%.lua$", ""), "../outside/evil" }) do
  print(select(2, pcall(platter.workload, name)))
end
]])
  local out, err, rc = run(L, { s, L.outside .. "/evil.lua" })
  T.eq(rc, 0, "status (" .. err .. ")")
  T.ok(not out:find("evil ran", 1, true), "the file did not run: " .. out)
  local n = 0
  for line in out:gmatch("[^\n]+") do
    n = n + 1
    T.has(line, "p.workload: no workload named", "line " .. n)
  end
  T.eq(n, 3, "lines")
end)

-- }}}
