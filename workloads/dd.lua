-- GNU dd: if= of= bs= count= skip= seek= iflag= oflag= conv= status=, the status lines of coreutils 5.2 to 9.x
--
-- dd's own loop, as coreutils src/dd.c runs it: read up to ibs bytes, count
-- a full or a partial input record, write (with bs=, each read as it came;
-- without it, gathered into obs-sized output blocks), and at the end
-- fdatasync/fsync and close both files. The clock starts just before the
-- copy (after the opens and any truncation) and stops after the closes, so
-- conv=fdatasync and the close are timed. Then, on stderr:
--
--   N+M records in / N+M records out
--   N bytes (SI, IEC) copied, T s, R/s     (status=noxfer stops before it)
--
-- with gnulib's human_readable rounding (lua/platter/classic.lua).
--
-- Differences from GNU dd: if= and of= are required (platter's file API has
-- no standard input or output). The data is copied: a record that goes out as
-- it came in is written from the input's buffer (f:write(n, src)); records
-- re-blocked into obs-sized blocks, or padded by conv=sync, are gathered in
-- the output's own buffer first (f:stage), as dd copies them into its output
-- buffer.
local p = require "platter"
-- the manifest (platter describe, platter plan); the arguments are read below,
-- with the original tool's syntax
p.script({
  name = "dd", version = "1.0", api = "platter/1", args = "own",
  description = "GNU dd: copy if= to of= and print its status lines",
  params = {
    input = { type = "path", flag = "if=", arg = "FILE", help = "the file to read (required)" },
    output = { type = "path", flag = "of=", arg = "FILE",
      help = "the file to write (required; of=/dev/null discards)" },
    bs = { type = "string", flag = "bs=", arg = "BYTES", help = "bytes read and written at a time (dd's suffixes)" },
    count = { type = "string", flag = "count=", arg = "N", help = "copy only N input blocks" },
    conv = { type = "string", flag = "conv=", arg = "CONVS",
      help = "fdatasync, fsync, notrunc, nocreat, excl, noerror, sync" },
    oflag = { type = "string", flag = "oflag=", arg = "FLAGS", help = "direct, dsync, sync, seek_bytes" },
  },
  needs = { write = true, device = "any" },
}, ...)
local classic = require "platter.classic"

local NAME = "dd"
local EINVAL, ENOSPC = 22, 28
local MAX_BLOCK = 1024 * 1024 * 1024  -- platter moves at most 1 GiB per call

local o = p.args({
  name = NAME,
  usage = "if=FILE of=FILE [OPERAND]...",
  summary = "Copy if= to of= the way GNU dd does and print its status lines "
    .. "(records in/out, bytes copied, time, rate).",
  keyvalue = true,
  options = {
    { "if=", arg = "FILE", help = "read from FILE (required: platter cannot read standard input)" },
    { "of=", arg = "FILE", help = "write to FILE (required; of=/dev/null discards)" },
    { "bs=", arg = "BYTES", help = "read and write up to BYTES at a time; overrides ibs and obs" },
    { "ibs=", arg = "BYTES", help = "read up to BYTES at a time (default 512)" },
    { "obs=", arg = "BYTES", help = "write BYTES at a time (default 512)" },
    { "count=", arg = "N", help = "copy only N input blocks" },
    { "skip=", arg = "N", help = "skip N ibs-sized blocks at the start of input" },
    { "seek=", arg = "N", help = "skip N obs-sized blocks at the start of output" },
    { "iflag=", arg = "FLAGS", multi = true,
      help = "comma-separated: direct, dsync, sync, fullblock, count_bytes, skip_bytes" },
    { "oflag=", arg = "FLAGS", multi = true, help = "comma-separated: direct, dsync, sync, seek_bytes" },
    { "conv=", arg = "CONVS", multi = true,
      help = "comma-separated: fdatasync, fsync, notrunc, nocreat, excl, noerror, sync" },
    { "status=", arg = "LEVEL", help = "none, noxfer or progress" },
    { "--as", arg = "VERSION", choices = { "9.1", "8.25", "8.24", "6.1", "5.3", "5.2" },
      default = "9.1",
      help = "print as this coreutils' dd: 9.1 (8.28 on), 8.25 (to 8.27: progress %g s), "
        .. "8.24 and 6.1 (6.1 to 8.24: \"(SI)\" only), 5.3 (5.3.0 to 6.0: \"T seconds\"), "
        .. "5.2 (before 5.3: the records lines only)" },
    { "--coreutils", arg = "VERSION", choices = { "9.1", "8.25", "8.24", "8.20", "6.1", "5.3", "5.2" },
      help = "the same as --as (8.20 = 6.1)" },
    { "--elapsed", help = "then print the copy's seconds as %.2f, as `time -f%e dd ...` did in seed 002" },
  },
  epilog = "BYTES and N take dd's suffixes: c=1, w=2, b=512, kB=1000, K=KiB=1024, MB=1000*1000,\n"
    .. "M=MiB, and so on for G T P E Z Y; products such as 2x512 are allowed.\n"
    .. "Unlike GNU dd, if= and of= are required (no standard input or output).",
}, ...)

local q = classic.quote

local function usage(msg) p.usage_error(NAME, msg) end

-- dd's own fatal error: "dd: MSG" on stderr, exit status 1.
local function die(msg)
  p.ewrite(NAME, ": ", msg, "\n")
  p.exit(1)
end

local function number(v, what, positive)
  if v == nil then return nil end
  local n = classic.dd_number(v)
  if not n or (positive and n == 0) then usage("invalid number: " .. q(v)) end
  if positive and n > MAX_BLOCK then
    usage(string.format("%s=%s: blocks larger than 1 GiB are not supported", what, v))
  end
  return n
end

local function flags(list, known, unsupported, what)
  local set = {}
  for _, v in ipairs(list) do
    for w in v:gmatch("[^,]+") do
      if unsupported[w] then
        usage(string.format("%s=%s is not supported by platter dd", what, w))
      elseif not known[w] then
        local kind = { iflag = "input flag", oflag = "output flag", conv = "conversion" }
        usage(string.format("invalid %s: %s", kind[what], q(w)))
      end
      set[w] = true
    end
  end
  return set
end

local FLAG_UNSUPPORTED = { append = true, nocache = true, noatime = true, noctty = true,
  nofollow = true, nonblock = true, binary = true, text = true, cio = true, directory = true,
  nolinks = true }
local iflag = flags(o.iflag, { direct = true, dsync = true, sync = true, fullblock = true,
  count_bytes = true, skip_bytes = true }, FLAG_UNSUPPORTED, "iflag")
local oflag = flags(o.oflag, { direct = true, dsync = true, sync = true, seek_bytes = true },
  FLAG_UNSUPPORTED, "oflag")
local conv = flags(o.conv, { fdatasync = true, fsync = true, notrunc = true, nocreat = true,
  excl = true, noerror = true, sync = true }, { ascii = true, ebcdic = true, ibm = true,
  block = true, unblock = true, lcase = true, ucase = true, swab = true, sparse = true }, "conv")
if conv.excl and conv.nocreat then usage("cannot combine excl and nocreat") end

-- the release dd prints as, and the status= levels it had (src/dd.c of each tag:
-- noxfer from 5.3.0, none from 8.20, progress from 8.24)
local era = o.coreutils or o.as
if era == "8.20" then era = "6.1" end
local version = tonumber(era:match("^(%d+%.%d+)"))
local status = o.status
if status and version < 5.3 then
  usage("unrecognized operand " .. q("status=" .. status))
end
local levels = { noxfer = 5.3, none = 8.20, progress = 8.24 }
if status and not (levels[status] and version >= levels[status]) then
  usage((version < 8.24 and "invalid status flag: " or "invalid status level: ") .. q(status))
end
-- GNU dd prints its numbers with the LC_NUMERIC locale's decimal point
local dp = p.decimal_point()

local bs = number(o.bs, "bs", true)
local ibs = bs or number(o.ibs, "ibs", true) or 512
local obs = bs or number(o.obs, "obs", true) or 512
local twobufs = bs == nil  -- POSIX: without bs=, partial reads are gathered into obs blocks
local count = number(o.count, "count")
local skip = number(o.skip, "skip") or 0
local seek = number(o.seek, "seek") or 0

-- count= in records, or in bytes with iflag=count_bytes (records + a last partial read)
local max_records, max_bytes = math.huge, 0
if count then
  if iflag.count_bytes then
    max_records, max_bytes = classic.idiv(count, ibs)
  else
    max_records = count
  end
end
local skip_off = iflag.skip_bytes and skip or skip * ibs
local seek_off = oflag.seek_bytes and seek or seek * obs

local ifile, ofile = o["if"], o["of"]
if not ifile then
  usage("if= is required: platter dd reads named files and devices, not standard input")
end
if not ofile then
  usage("of= is required: platter dd cannot write to standard output (of=/dev/null discards)")
end

-- ---- open, as dd does before its clock starts -------------------------------

local fin, msg = p.open(ifile, { direct = iflag.direct, sync = iflag.sync, dsync = iflag.dsync })
if not fin then die("failed to open " .. q(ifile) .. ": " .. classic.strerror(msg, ifile)) end

local oopts = { write = true, create = not conv.nocreat, direct = oflag.direct,
  sync = oflag.sync, dsync = oflag.dsync }
if conv.excl then
  local existing = p.open(ofile)
  if existing then
    existing:close()
    die("failed to open " .. q(ofile) .. ": File exists")
  end
end
local fout
fout, msg = p.open(ofile, oopts)
if not fout then die("failed to open " .. q(ofile) .. ": " .. classic.strerror(msg, ofile)) end

-- dd truncates of= to the seek= offset unless conv=notrunc (O_TRUNC when seek=0).
if not conv.notrunc and fout:info().kind == "file" and fout:size() > seek_off then
  if fout.truncate then
    fout:truncate(seek_off)
  elseif seek_off == 0 and not ofile:find("^/dev/") then
    -- platter has no truncate: remove and create again, which leaves an empty file too
    fout:close()
    assert(p.remove(ofile))
    fout = assert(p.open(ofile, oopts))
  else
    p.log("dd: note: platter cannot truncate %s to %d bytes; the data after the copy stays "
      .. "(as with conv=notrunc)", q(ofile), seek_off)
  end
end


local in_align = iflag.direct and fin:info().dio_align or 1
local out_align = oflag.direct and fout:info().dio_align or 1

-- ---- the copy -----------------------------------------------------------------

local r_full, r_partial, w_full, w_partial, w_bytes = 0, 0, 0, 0, 0
local start, finish
local progress_len = 0
local exit_status = 0
local out = fout            -- the descriptor writes go to (buffered after O_DIRECT is dropped)
local fout_plain            -- of= reopened without O_DIRECT for a final short block
local out_pos = seek_off
local prev_nread = 0
local warn_partial = not twobufs and not iflag.fullblock
  and (skip > 0 or (count and count > 0) or iflag.direct or oflag.direct)

local function emsg(m, path) return classic.strerror(m, path) end

local function print_xfer(now, progress)
  local line = classic.dd_xfer(w_bytes, now - start, era, progress, dp)
  if progress then
    local pad = progress_len > #line and string.rep(" ", progress_len - #line) or ""
    p.ewrite("\r", line, pad)
    progress_len = #line
  else
    p.ewrite(line, "\n")
  end
end

local function print_stats(now)
  if status == "none" then return end
  if progress_len > 0 then
    p.ewrite("\n")
    progress_len = 0
  end
  p.ewrite(classic.dd_records(r_full, r_partial, w_full, w_partial))
  if status == "noxfer" or version < 5.3 then return end  -- before 5.3.0: no transfer line
  print_xfer(now, false)
end

-- One read(2) as dd's iread: an EINVAL after a short O_DIRECT read is end of file.
local last_single = nil  -- what the latest single read(2) returned

local function iread(size)
  local n, m, e
  if size % in_align ~= 0 then
    n, m, e = nil, "read " .. ifile .. ": Invalid argument", EINVAL
  else
    n, m, e = fin:read(size)
  end
  last_single = n
  if not n and e == EINVAL and iflag.direct and prev_nread > 0 and prev_nread < size then
    n = 0
  end
  if n and n > 0 and warn_partial then
    if prev_nread > 0 and prev_nread < size then
      if status ~= "none" then
        p.ewrite(string.format("dd: warning: partial read (%d byte%s); suggest iflag=fullblock\n",
          prev_nread, prev_nread == 1 and "" or "s"))
      end
      warn_partial = false
    end
  end
  if n then prev_nread = n end
  return n, m, e
end

local function iread_fullblock(size)
  local total = 0
  while total < size do
    local n, m, e = iread(size - total)
    if not n then return nil, m, e end
    if n == 0 then break end
    total = total + n
  end
  return total
end

local read_block = iflag.fullblock and iread_fullblock or iread

-- How many bytes of a record of nread bytes the input buffer holds: all of it
-- when one read brought it in; none when iflag=fullblock needed several reads
-- (only pipes and terminals do that, which platter cannot open): those go out
-- as zeros, and dd says so once.
local said_zeros = false
local function record_bytes(nread)
  if nread == 0 or last_single == nread then return nread end
  if not said_zeros then
    p.log("dd: note: a record of %d bytes took several reads; platter writes zeros for "
      .. "such records", nread)
    said_zeros = true
  end
  return 0
end

-- write(2) until size bytes are out, as dd's iwrite; returns bytes written
-- (fewer on error, with the message).
local function iwrite(size, src)
  if oflag.direct and size < obs and out == fout then
    -- dd turns O_DIRECT off for a final short block and fsyncs at the end
    fout_plain = assert(p.open(ofile, { write = true, sync = oflag.sync, dsync = oflag.dsync }))
    fout_plain:seek(out_pos)
    out = fout_plain
    conv.fsync = true
  end
  local total = 0
  while total < size do
    local n, m
    if out == fout and (size - total) % out_align ~= 0 then
      n, m = nil, "write " .. ofile .. ": Invalid argument"
    else
      if src then
        n, m = out:write(size - total, src, total)  -- the input's bytes
      else
        n, m = out:write(size - total)
      end
    end
    if not n then
      out_pos = out_pos + total
      return total, m
    end
    if n == 0 then
      out_pos = out_pos + total
      return total, "write " .. ofile .. ": No space left on device", ENOSPC
    end
    total = total + n
  end
  out_pos = out_pos + total
  return total
end

local oc = 0  -- bytes gathered for the next output block (without bs=)

-- Returns normally when the copy is done; failures set exit_status.
local function copy()
  if skip_off > 0 then
    if not fin:seek(skip_off) then
      -- not seekable: read and throw away, as dd does
      local left = skip_off
      while left > 0 do
        local n = fin:read(math.min(ibs, left))
        if not n or n == 0 then break end
        left = left - n
      end
    end
    if status ~= "none" and fin:info().kind == "file" and fin:size() < skip_off then
      p.ewrite("dd: ", classic.quotef(ifile), ": cannot skip to specified offset\n")
    end
  end
  if seek_off > 0 and not out:seek(seek_off) then
    die("cannot seek in " .. q(ofile))
  end
  if max_records == 0 and max_bytes == 0 then return end

  local next_time = start + 1e9
  local partread = 0
  -- platter's progress line counts what dd counts: bytes copied (not reads plus writes)
  local total = max_records < math.huge and max_records * ibs + max_bytes or nil
  while true do
    p.progress(w_bytes, total)
    if status == "progress" then
      local now = p.now()
      if next_time <= now then
        print_xfer(now, true)
        next_time = next_time + 1e9
      end
    end
    local records = r_partial + r_full
    if records >= max_records + (max_bytes > 0 and 1 or 0) then break end
    local want = records >= max_records and max_bytes or ibs
    local nread, m = read_block(want)
    if nread == 0 then break end
    if not nread then
      if not conv.noerror or status ~= "none" then
        p.ewrite("dd: error reading ", q(ifile), ": ", emsg(m, ifile), "\n")
      end
      if not conv.noerror then
        exit_status = 1
        break
      end
      print_stats(p.now())
      local bad = ibs - partread
      if not fin:seek(bad, "cur") then exit_status = 1 end
      if conv.sync and partread == 0 then
        nread = 0
      else
        goto continue
      end
    end
    do
      local n = nread
      if n < ibs then
        r_partial = r_partial + 1
        partread = n
        if conv.sync then n = ibs end
      else
        r_full = r_full + 1
        partread = 0
      end
      -- the input buffer holds this record only when one read brought all of it
      local have = record_bytes(nread)
      if not twobufs then
        local src = fin
        if n ~= have then  -- conv=sync padding, or a record of several reads
          if have > 0 then fout:stage(0, fin, 0, have) end
          fout:stage(have, nil, 0, n - have)
          src = fout
        end
        local w, wm = iwrite(n, src)
        w_bytes = w_bytes + w
        if w ~= n then
          p.ewrite("dd: error writing ", q(ofile), ": ", emsg(wm, ofile), "\n")
          exit_status = 1
          return
        elseif n == ibs then
          w_full = w_full + 1
        else
          w_partial = w_partial + 1
        end
      else
        local pos = 0  -- of this record: bytes [0, have) are data, the rest padding
        while n > 0 do
          local take = math.min(n, obs - oc)
          local d = math.max(0, math.min(take, have - pos))
          if d > 0 then fout:stage(oc, fin, pos, d) end
          if take > d then fout:stage(oc + d, nil, 0, take - d) end
          pos = pos + take
          n = n - take
          oc = oc + take
          if oc >= obs then
            local w, wm = iwrite(obs, fout)
            w_bytes = w_bytes + w
            if w ~= obs then
              p.ewrite("dd: writing to ", q(ofile), ": ", emsg(wm, ofile), "\n")
              if w ~= 0 then w_partial = w_partial + 1 end
              exit_status = 1
              return
            end
            w_full = w_full + 1
            oc = 0
          end
        end
      end
    end
    ::continue::
  end

  if oc ~= 0 then  -- the last, short output block
    local w, wm = iwrite(oc, fout)
    w_bytes = w_bytes + w
    if w ~= 0 then w_partial = w_partial + 1 end
    if w ~= oc then
      p.ewrite("dd: error writing ", q(ofile), ": ", emsg(wm, ofile), "\n")
      exit_status = 1
      return
    end
    oc = 0
  end

  if conv.fdatasync then
    local ok, m, e = out:fdatasync()
    if not ok then
      if e ~= EINVAL and e ~= 38 then  -- ENOSYS
        p.ewrite("dd: fdatasync failed for ", q(ofile), ": ", emsg(m, ofile), "\n")
        exit_status = 1
      end
      conv.fsync = true
    end
  end
  if conv.fsync then
    local ok, m = out:fsync()
    if not ok then
      p.ewrite("dd: fsync failed for ", q(ofile), ": ", emsg(m, ofile), "\n")
      exit_status = 1
      return
    end
  end
end

local function close_all()
  local ok, m = fin:close()
  if not ok then die("closing input file " .. q(ifile) .. ": " .. emsg(m, ifile)) end
  if fout_plain then
    ok, m = fout_plain:close()
    if not ok then die("closing output file " .. q(ofile) .. ": " .. emsg(m, ofile)) end
  end
  ok, m = fout:close()
  if not ok then die("closing output file " .. q(ofile) .. ": " .. emsg(m, ofile)) end
end

-- status=progress is dd's own live line: platter's stays off then.
local ok, err = classic.protected(p.phase, "dd", function()
  start = p.now()
  copy()
  close_all()
  finish = p.now()
end, { progress = status ~= "progress" })
if not ok then
  if p.interrupted() then
    -- dd prints its statistics when interrupted, then dies of the signal
    print_stats(p.now())
  end
  error(err, 0)
end

print_stats(finish)
if o.elapsed then p.ewrite(string.format("%.2f\n", (finish - start) / 1e9)) end
if exit_status ~= 0 then p.exit(exit_status) end
