-- ioping's cache drop reaches no device: each request's range is dropped with
-- fadvise(DONTNEED) alone, as ioping 1.3 does (ioping.c, the request loop),
-- so a read run sends the device only the temporary file's one fsync, not a
-- cache flush per request (before: an fdatasync per request, 13 flushes for
-- 10 requests against real ioping's 2). Counted on a loop-mounted ext4,
-- where the loop device's stat file counts flush requests (field 16), beside
-- the real ioping when it is installed. Needs root.
local T = ...

local function flushes(stat)
  local t = T.read(stat)
  local f = {}
  for w in (t or ""):gmatch("%d+") do f[#f + 1] = tonumber(w) end
  return f[16]
end

T.test("ioping: a read run sends no flush per request; the directory shows its filesystem's size",
  function()
  T.with_tiny_fs(function(mnt)
    local dev = T.sh_ok("findmnt -n -o SOURCE " .. T.q(mnt)):match("%S+")
    local stat = "/sys/block/" .. dev:match("[^/]+$") .. "/stat"
    if not flushes(stat) then T.skip("the kernel does not count flushes in " .. stat) end
    local size = T.sh_ok("df -B1 --output=size " .. T.q(mnt) .. " | tail -1")
    -- no periodic journal commit (each sends a flush) lands inside a count
    T.sh_ok("mount -o remount,commit=3600 " .. T.q(mnt))
    -- A sync(2) from another test running at the same time (ctest -j2) flushes this
    -- filesystem too and adds to a count, but never takes from one: the fewest of up to
    -- three runs is what the run itself sent (a flush per request gives 20 every time).
    local function counted(run)
      local best, out
      for _ = 1, 3 do
        T.sh_ok("sync -f " .. T.q(mnt))
        local a = flushes(stat)
        out = run()
        local n = flushes(stat) - a
        best = math.min(best or n, n)
        if best <= 2 then break end
      end
      return best, out
    end
    local err, rc
    local ours, out = counted(function()
      local o, e, r = T.platter({ "ioping", "-c", "20", "-i", "0", "-q", mnt })
      err, rc = e, r
      return o
    end)
    T.eq(rc, 0, "exit status: " .. out .. err)
    -- the temporary file's fsync (and the journal commit it may take)
    T.ok(ours <= 2, "platter ioping sent " .. ours .. " flushes for 20 requests")
    T.has(out, "--- " .. mnt .. " (ext4 " .. dev .. " ", "the statistics header")
    local shown = out:match("%(ext4 %S+ ([^)]+)%)")
    T.ok(shown and shown ~= "0 B", "the filesystem's size is shown: " .. tostring(shown))
    local _, _, has = T.sh("command -v ioping")
    if has == 0 then
      local theirs, real = counted(function() return T.sh_ok("ioping -c 20 -i 0 -q " .. T.q(mnt)) end)
      T.ok(math.abs(ours - theirs) <= 1, "flushes: platter " .. ours .. ", ioping " .. theirs)
      T.eq(shown, real:match("%(ext4 %S+ ([^)]+)%)"), "the size as ioping prints it (df: " ..
        size:gsub("%s", "") .. ")")
    end
  end)
end)
