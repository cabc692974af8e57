-- Escapes that the sandbox must make impossible by construction, each run
-- twice: with the kernel layer on (Landlock + seccomp) and with it forced off
-- (PLATTER_SANDBOX=checks), where platter's own descriptor-relative checks
-- stand alone. In every case a canary tree outside the allowed roots must be
-- left exactly as it was.
--   * check-then-use races: a script racing itself with p.parallel (one
--     worker makes and removes a directory, the other walks "D/../.." through
--     it), and another process swapping a symlink under p.open;
--   * a failed check that used to let the call through: p.scratch of a path
--     whose directory does not exist yet, made by the script afterwards;
--   * the result record: what the record says about the sandbox.
local T = ...

local write, read = T.write, T.read

-- D/cwd (current directory), D/tmp ($TMPDIR), D/outside (the canaries)
local function layout()
  local d = T.tmpdir()
  local L = { d = d, cwd = d .. "/cwd", tmp = d .. "/tmp", outside = d .. "/outside" }
  T.sh_ok("mkdir -p " .. T.q(L.cwd) .. " " .. T.q(L.tmp) .. " " .. T.q(L.outside .. "/empty"))
  write(L.outside .. "/secret", "secret\n")
  return L
end

-- Everything under D/outside, as "name size" lines: any change shows.
local function snapshot(L)
  local out = T.sh_ok("cd " .. T.q(L.outside) .. " && find . -printf '%p %s %y\\n' | sort")
  return out
end

local function run(L, code, env, args)
  write(L.d .. "/s.lua", code)
  local words = {}
  for _, a in ipairs(args or {}) do words[#words + 1] = T.q(a) end
  return T.sh("cd " .. T.q(L.cwd) .. " && " .. (env or "") .. " TMPDIR=" .. T.q(L.tmp) .. " "
    .. T.q(T.bin) .. " --quiet " .. T.q(L.d .. "/s.lua") .. " " .. table.concat(words, " "))
end

local MODES = {
  { name = "kernel layer on", env = "" },
  { name = "kernel layer off (PLATTER_SANDBOX=checks)", env = "PLATTER_SANDBOX=checks" },
}

-- The attacker: worker 1 makes and removes cwd/D/E as fast as it can, worker 2
-- uses D/E/../../../outside/... with every call that takes a path. With the
-- old realpath check, a path whose D did not exist was let through and then
-- used while D existed. Anything that succeeds prints ESCAPED.
local RACE = [[
local p = require "platter"
local o = "../outside/"
local function try(what, fn, ...)
  local ok, r = pcall(fn, ...)
  if ok and r then print("ESCAPED " .. what) end
end
local stop = p.now() + 2e9
p.parallel(2, function(i)
  while p.now() < stop do
    if i == 1 then
      p.mkdir("D"); p.mkdir("D/E"); p.rmdir("D/E"); p.rmdir("D")
    else
      local via = "D/E/../../" .. o
      try("stat", p.stat, via .. "secret")
      try("readdir", p.readdir, via)
      try("statfs", p.statfs, via)
      try("remove", p.remove, via .. "secret")
      try("rmdir", p.rmdir, via .. "empty")
      try("mkdir", p.mkdir, via .. "new")
      try("open create", p.open, via .. "made", { create = true, write = true })
      try("open size", p.open, via .. "secret", { write = true, size = 65536 })
      try("scratch", p.scratch, via .. "secret")
    end
  end
  return p.phase("race " .. i, function() end)
end)
print("done")
]]

for _, m in ipairs(MODES) do
  T.test("a script racing itself with p.parallel cannot reach outside (" .. m.name .. ")",
    function()
      local L = layout()
      local before = snapshot(L)
      local out, err, rc = run(L, RACE, m.env)
      T.eq(rc, 0, "exit status (stderr " .. err .. ")")
      T.has(out, "done", "the race ran")
      T.ok(not out:find("ESCAPED", 1, true), "no call reached outside: " .. out)
      T.eq(snapshot(L), before, "the canaries outside")
      T.eq(read(L.outside .. "/secret"), "secret\n", "the secret")
    end)

  T.test("a symlink swapped by another process under p.open leads nowhere (" .. m.name .. ")",
    function()
      local L = layout()
      local before = snapshot(L)
      -- another process flips cwd/link between a file in the cwd and the secret outside
      write(L.cwd .. "/inside", "inside\n")
      local flip = T.q(L.d .. "/flip.sh")
      write(L.d .. "/flip.sh", "cd " .. T.q(L.cwd) .. "\nend=$(($(date +%s) + 4))\n"
        .. "while [ $(date +%s) -lt $end ]; do ln -sfn inside link; ln -sfn "
        .. T.q(L.outside .. "/secret") .. " link; done\n")
      T.sh("sh " .. flip .. " </dev/null >/dev/null 2>&1 &")
      local out, err, rc = run(L, [[
        local p = require "platter"
        local stop, opened = p.now() + 2e9, 0
        while p.now() < stop do
          local ok, f = pcall(p.open, "link", { write = true, size = 1048576 })
          if ok and f then
            opened = opened + 1
            f:pwrite(0, 4096)
            f:close()
          end
        end
        print("opened", opened)
      ]], m.env)
      T.eq(rc, 0, "exit status (stderr " .. err .. ")")
      T.has(out, "opened", "the loop ran")
      T.eq(snapshot(L), before, "the canaries outside")
      T.eq(read(L.outside .. "/secret"), "secret\n", "the secret")
      T.sh("sleep 2.5")  -- the flipper ends by itself
    end)

  T.test("p.scratch of a path whose directory does not exist yet is refused (" .. m.name .. ")",
    function()
      local L = layout()
      local before = snapshot(L)
      local out, err, rc = run(L, [[
        local p = require "platter"
        local ok, msg = pcall(p.scratch, "later/../../outside/secret")
        print(ok, msg)
        local ok2, msg2 = pcall(p.scratch, "later/x")
        print(ok2, msg2)
        assert(p.mkdir("later"))   -- the old cleanup then unlinked ../outside/secret
      ]], m.env)
      T.eq(rc, 0, "exit status (stderr " .. err .. ")")
      T.has(out, "false", "refused")
      T.has(out, "is outside the current directory", "the reason")
      T.has(out, "cannot track later/x: No such file or directory", "errno text")
      T.eq(snapshot(L), before, "the canaries outside")
    end)
end

T.test("the result record says how the sandbox held, and --version -v what the kernel has",
  function()
    local L = layout()
    local _, err, rc = run(L, [[require("platter").phase("x", function() end)]], "",
      {})
    T.eq(rc, 0, "exit status (stderr " .. err .. ")")
    local cjson = require "cjson"
    for _, m in ipairs(MODES) do
      local json = L.d .. "/r.json"
      local out, e2, rc2 = T.sh("cd " .. T.q(L.cwd) .. " && " .. m.env .. " " .. T.q(T.bin)
        .. " --json " .. T.q(json) .. " -e 'print(platter.sandbox())'")
      T.eq(rc2, 0, "exit status (stderr " .. e2 .. ")")
      local want = m.env == "" and "kernel" or "checks-only"
      T.eq(out, want .. "\n", "p.sandbox()")
      local doc = cjson.decode(read(json))
      T.eq(doc.environment.sandbox, want, "environment.sandbox")
      if m.env ~= "" then
        T.has(e2, "platter: sandbox: the kernel layer is off (PLATTER_SANDBOX=checks)", "stderr")
      else
        T.eq(e2, "", "nothing on stderr")
      end
    end
    local trusted = T.sh_ok(T.q(T.bin) .. " --trust -e 'print(platter.sandbox())'")
    T.eq(trusted, "off\n", "trusted")
    T.has(T.sh_ok(T.q(T.bin) .. " --version -v"), "sandbox: Landlock ABI", "--version -v")
  end)

T.test("the result file outside every root is written by platter, not by the script", function()
  local L = layout()
  local json = L.outside .. "/r.json"   -- not a root: only the keeper may write it
  local out, err, rc = T.sh("cd " .. T.q(L.cwd) .. " && TMPDIR=" .. T.q(L.tmp) .. " "
    .. T.q(T.bin) .. " --json " .. T.q(json) .. [[ -e '
      local p = platter
      print(pcall(p.open, "]] .. json .. [[", { write = true, create = true }))
      p.phase("a", function() end)']])
  T.eq(rc, 0, "exit status (stderr " .. err .. ")")
  T.has(out, "false", "the script cannot open it")
  T.has(out, "is outside the current directory", "refused")
  local doc = require("cjson").decode((assert(read(json), "the record was written")))
  T.eq(doc.phases[1].name, "a", "the phase")
end)

T.test("a script cannot reach the file methods that the result writer and fast paths use",
  function()
    local L = layout()
    local out, _, rc = run(L, [[
      local p = require "platter"
      local f = assert(p.open("x", { create = true, write = true, size = 4096 }))
      print(getmetatable(f))
      print(pcall(setmetatable, f, {}))
      f.pread = function() return 1 end   -- a userdata: no field to set
    ]])
    T.eq(rc, 1, "exit status")
    T.has(out, "platter.file\n", "getmetatable gives the name only")
    T.has(out, "false", "setmetatable refused")
  end)

for _, m in ipairs(MODES) do
  T.test("a script cannot make a directory where its record goes, remove it or register it " ..
    "as scratch (" .. m.name .. ")", function()
    local L = layout()
    local json, csv = L.cwd .. "/r.json", L.cwd .. "/r.csv"
    local out, err, rc = T.sh("cd " .. T.q(L.cwd) .. " && " .. m.env .. " TMPDIR=" ..
      T.q(L.tmp) .. " " .. T.q(T.bin) .. " --json r.json --csv " .. T.q(csv) .. [[ -e '
      local p = platter
      p.phase("a", function() end)
      print("mkdir", pcall(p.mkdir, p.config.json))
      print("scratch", pcall(p.scratch, "./" .. p.config.json))
      print("remove", pcall(p.remove, p.config.csv))
      print("scratch csv", pcall(p.scratch, p.config.csv))']])
    T.eq(rc, 0, "exit status (stderr " .. err .. ")")
    for _, what in ipairs { "mkdir", "scratch", "remove", "scratch csv" } do
      T.has(out, what .. "\tfalse", what .. " refused")
    end
    T.has(out, "r.json is where platter writes this run's --json record when the script ends",
      "why")
    local doc = require("cjson").decode((assert(read(json), "the record was written")))
    T.eq(doc.phases[1].name, "a", "the phase")
    T.has(assert(read(csv), "the csv was written"), "\n1,1,\"phase\",\"a\",", "the csv row")
  end)
end

T.test("the record's temporary file follows no symlink planted beside it", function()
  local L = layout()
  -- the keeper is forked right after platter starts: its pid is a few above the
  -- shell's that execs platter; a link for each, to a file outside every root
  local out, err, rc = T.sh("cd " .. T.q(L.cwd) .. " && TMPDIR=" .. T.q(L.tmp) ..
    " sh -c 'perl -e \"symlink \\$ARGV[0], qq(r.json.tmp) . (\\$ARGV[1] + \\$_) for 1 .. 20\" " ..
    T.q(L.outside .. "/planted") .. " $$; exec \"$@\"' sh " .. T.q(T.bin) ..
    " --json r.json -e 'platter.phase(\"a\", function() end)'")
  T.eq(rc, 0, "exit status (stderr " .. err .. out .. ")")
  T.ok(not read(L.outside .. "/planted"), "nothing written through a planted link")
  local link = T.sh("test -L " .. T.q(L.cwd .. "/r.json") .. " && echo link")
  T.eq(link, "", "r.json is the record, not a link")
  local doc = require("cjson").decode((assert(read(L.cwd .. "/r.json"), "the record")))
  T.eq(doc.phases[1].name, "a", "the phase")
end)
