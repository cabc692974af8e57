-- run.lua TEST.lua: runs every test that TEST.lua registers through the
-- table it receives as `...`, and prints "N passed, N failed, N skipped".
-- Runs trusted (--trust) so it can start platter itself for sandbox checks.
local path = assert(arg[1], "usage: platter --trust run.lua TEST.lua")

local T = {}
local tests = {}
T.bin = os.getenv("PLATTER_BIN") or "platter"
T.src = os.getenv("PLATTER_TEST_SRC") or "."
T.root = io.popen("id -u"):read("*l") == "0"

function T.test(name, fn) tests[#tests + 1] = { name = name, fn = fn } end

function T.skip(why) error({ skip = why }, 0) end

local function show(v)
  return type(v) == "string" and string.format("%q", v) or tostring(v)
end

function T.eq(got, want, what)
  if got ~= want then
    error(string.format("%s: expected %s, got %s", what or "value", show(want), show(got)), 2)
  end
end

function T.ok(v, what)
  if not v then error((what or "condition") .. " is false", 2) end
  return v
end

function T.near(got, want, tol, what)
  if type(got) ~= "number" or math.abs(got - want) > tol then
    error(string.format("%s: expected %s within %s, got %s", what or "value", show(want),
      show(tol), show(got)), 2)
  end
end

-- Match `text` against a plain substring.
function T.has(text, sub, what)
  if type(text) ~= "string" or not text:find(sub, 1, true) then
    error(string.format("%s: expected %s to contain %s", what or "text", show(text), show(sub)), 2)
  end
end

-- fn must raise an error whose message contains `sub`; returns the message.
function T.raises(fn, sub, what)
  local ok, err = pcall(fn)
  if ok then error((what or "call") .. ": expected an error containing " .. show(sub), 2) end
  err = tostring(type(err) == "table" and (err.platter_usage or err.platter_exit) or err)
  if sub and not err:find(sub, 1, true) then
    error(string.format("%s: expected an error containing %s, got %s", what or "call",
      show(sub), show(err)), 2)
  end
  return err
end

-- Write text to a file (replacing it).
function T.write(file, text)
  local fh = assert(io.open(file, "wb"))
  fh:write(text)
  fh:close()
end

-- A file's text, or nil when it cannot be read.
function T.read(file)
  local fh = io.open(file, "rb")
  if not fh then return nil end
  local s = fh:read("*a")
  fh:close()
  return s
end

-- Run a shell command; returns stdout, stderr and the exit status.
function T.sh(cmd)
  local errf = os.tmpname()
  local pipe = io.popen(cmd .. " 2>" .. errf .. "; echo \"__rc=$?\"")
  local out = pipe:read("*a")
  pipe:close()
  local rc = tonumber(out:match("__rc=(%d+)\n?$"))
  out = out:gsub("__rc=%d+\n?$", "")
  local fe = io.open(errf)
  local err = fe:read("*a")
  fe:close()
  os.remove(errf)
  return out, err, rc
end

-- Quote a string for the shell.
function T.q(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

-- Run platter with arguments (a list, quoted here); returns stdout, stderr, status.
function T.platter(args, opts)
  local words = {}
  for _, a in ipairs(args) do words[#words + 1] = T.q(a) end
  local pre = opts and opts.cwd and ("cd " .. T.q(opts.cwd) .. " && ") or ""
  return T.sh(pre .. T.q(T.bin) .. " " .. table.concat(words, " "))
end

-- A fresh scratch directory under $TMPDIR, removed at exit by the runner.
local dirs = {}
function T.tmpdir()
  local d = io.popen("mktemp -d"):read("*l")
  dirs[#dirs + 1] = d
  return d
end

-- Run a shell command that must succeed; its stdout.
function T.sh_ok(cmd)
  local out, err, rc = T.sh(cmd)
  if rc ~= 0 then error(cmd .. " failed (" .. tostring(rc) .. "): " .. out .. err, 2) end
  return out
end

-- Run body(mountpoint) with an 8 MiB ext4 image loop-mounted (root only, else a
-- skip); always unmount and detach, by the image's name, then check that no
-- loop device is left on it.
function T.with_tiny_fs(body)
  if not T.root then T.skip("needs root to loop-mount a filesystem image") end
  for _, tool in ipairs { "mkfs.ext4", "mount", "umount", "losetup" } do
    local _, _, rc = T.sh("command -v " .. tool)
    if rc ~= 0 then T.skip(tool .. " is not installed") end
  end
  local dir = T.tmpdir()
  local img, mnt = dir .. "/tiny.img", dir .. "/mnt"
  T.sh_ok("mkdir " .. T.q(mnt) .. " && truncate -s 8M " .. T.q(img) ..
    " && mkfs.ext4 -q -F " .. T.q(img))
  local _, merr, mrc = T.sh("mount -o loop " .. T.q(img) .. " " .. T.q(mnt))
  if mrc ~= 0 then T.skip("cannot loop-mount here: " .. merr) end
  local ok, err = pcall(body, mnt)
  collectgarbage()  -- files the body left open
  local _, _, urc = T.sh("umount " .. T.q(mnt))
  if urc ~= 0 then T.sh("umount -l " .. T.q(mnt)) end
  -- a loop device still attached to the image (autoclear normally detaches it)
  local devs = T.sh("losetup -j " .. T.q(img) .. " | cut -d: -f1")
  for dev in devs:gmatch("[^\n]+") do T.sh("losetup -d " .. T.q(dev)) end
  os.remove(img)
  if not ok then error(err, 0) end
  T.eq(T.sh("losetup -j " .. T.q(img)), "", "loop devices left on the image")
end

local chunk = assert(loadfile(path))
chunk(T)

local passed, failed, skipped = 0, 0, 0
for _, t in ipairs(tests) do
  local ok, err = xpcall(t.fn, function(e)
    if type(e) == "table" then return e end
    return debug.traceback(tostring(e), 2)
  end)
  if ok then
    passed = passed + 1
    print("ok    " .. t.name)
  elseif type(err) == "table" and err.skip then
    skipped = skipped + 1
    print("skip  " .. t.name .. ": " .. err.skip)
  else
    failed = failed + 1
    print("FAIL  " .. t.name .. "\n" .. tostring(type(err) == "table" and
      (err.platter_usage or err.platter_exit) or err))
  end
end
for _, d in ipairs(dirs) do os.execute("rm -rf " .. T.q(d)) end
print(string.format("%d passed, %d failed, %d skipped", passed, failed, skipped))
if failed > 0 then os.exit(1) end
