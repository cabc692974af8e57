-- platter.classic_iozone: iozone 3.489's text, number rules and helpers, for
-- workloads/iozone.lua. Pure functions of their arguments (no I/O, no clock),
-- so tests/lua/test_iozone_format.lua checks them against the spec's worked
-- examples (shared/spec/classic-benchmarks.md section 3) and against output
-- of the real iozone 3.489 binary (Debian's iozone3 489-1, linux-AMD64).
--
-- Everything here was checked byte for byte against that binary:
--   * the splash lines and their order (one line per option, in argv order);
--   * the two header rows and, with -E, their pwrite/pread extension;
--   * each test's cell format, and the padding printed for a test that is
--     not selected (not always the cell's width: a skipped fread pair pads
--     17 columns for an 18-column cell, a skipped pread pair 18 for 17);
--   * kB/s = (u64)(bytes / (seconds - time_res)) >> 10;
--   * the -R "Excel" blocks.
local M = {}

local floor, fmt = math.floor, string.format
local unpack = table.unpack or unpack

M.VERSION = "3.489"
M.TIME_RES = 0.000001      -- gettimeofday's resolution as iozone measures it
M.KILOBYTES = 512          -- default file size, kB
M.RECLEN = 4096            -- the record size without -r, bytes
M.KILOBYTES_START = 64     -- -a: smallest file, kB
M.KILOBYTES_END = 1024 * 512  -- -a: largest file, kB
M.RECLEN_START = 4096      -- -a: smallest record, bytes
M.MAXBUFFERSIZE = 16 * 1024 * 1024  -- largest record, bytes (RECLEN_END too)
M.MINBUFFERSIZE = 128      -- smallest record, bytes
M.CROSSOVER = 16 * 1024    -- -a: files above this (kB) start at LARGE_REC
M.LARGE_REC = 65536
M.STRIDE = 17
M.CACHE_SIZE = 1024 * 1024
M.CACHE_LINE_SIZE = 32
M.MULTIPLIER = 2
M.NUM_TESTS = 9            -- tests 0..8 run without -E
M.NUM_TESTS_E = 11         -- with -E: 9 pwrite/re-pwrite, 10 pread/re-pread
M.THROUGHSIZE = 512       -- -t: each child's file without -s, kB
M.MAX_TEST = 11            -- -i above this is "not available" (the func[] size)

-- Test numbers and their names (phase names, help).
M.TESTS = {
  [0] = { "write", "rewrite" },
  [1] = { "read", "reread" },
  [2] = { "random read", "random write" },
  [3] = { "bkwd read" },
  [4] = { "record rewrite" },
  [5] = { "stride read" },
  [6] = { "fwrite", "frewrite" },
  [7] = { "fread", "freread" },
  [8] = {},                -- random mix: throughput mode only, prints nothing here
  [9] = { "pwrite", "repwrite" },
  [10] = { "pread", "repread" },
}

-- -R block titles, per test.
M.EXCEL_TITLES = {
  [0] = { "Writer report", "Re-writer report" },
  [1] = { "Reader report", "Re-Reader report" },
  [2] = { "Random read report", "Random write report" },
  [3] = { "Backward read report" },
  [4] = { "Record rewrite report" },
  [5] = { "Stride read report" },
  [6] = { "Fwrite report", "Re-Fwrite report" },
  [7] = { "Fread report", "Re-Fread report" },
  [9] = { "Pwrite report", "Re-Pwrite report" },
  [10] = { "Pread report", "Re-Pread report" },
}

-- Cell formats (printf) of each test's values, and the blanks printed in
-- their place when the test is not selected (iozone's test_output[]).
M.CELL = {
  [0] = { "%9d", "%9d" }, [1] = { "%9d", "%9d" }, [2] = { "%9d", "%9d" },
  [3] = { "%9d" }, [4] = { " %9d" }, [5] = { " %9d" },
  [6] = { "%9d", "%9d" }, [7] = { "%9d", "%9d" }, [8] = {},
  [9] = { "%9d", "%9d" }, [10] = { "%8d", "%9d" },
}
M.PAD = { [0] = 18, 18, 18, 9, 10, 10, 18, 17, 0, 18, 18 }

-- ---------------------------------------------------------------------------
-- Splash and headers
-- ---------------------------------------------------------------------------

-- The contributor lines of each release's splash (iozone.c, main()).
local CONTRIB_BASE = {
  "\tContributors:William Norcott, Don Capps, Isom Crawford, Kirby Collins\n",
  "\t             Al Slater, Scott Rhine, Mike Wisner, Ken Goss\n",
  "\t             Steve Landherr, Brad Smith, Mark Kelly, Dr. Alain CYR,\n",
}
local function contributors(rest)
  local t = {}
  for _, l in ipairs(CONTRIB_BASE) do t[#t + 1] = l end
  for _, l in ipairs(rest) do t[#t + 1] = "\t             " .. l end
  return t
end
local CONTRIB_489 = contributors {
  "Randy Dunlap, Mark Montague, Dan Million, Gavin Brebner,\n",
  "Jean-Marc Zucconi, Jeff Blomberg, Benny Halevy, Dave Boone,\n",
  "Erik Habbinga, Kris Strecker, Walter Wong, Joshua Root,\n",
  "Fabrice Bacchella, Zhenghua Xue, Qin Li, Darren Sawyer,\n",
  "Vangel Bojaxhi, Ben England, Vikentsi Lapa,\n",
  "Alexey Skidanov, Sudhir Kumar.\n\n",
}

-- ---------------------------------------------------------------------------
-- Releases (--as): what differs in the text, read from iozone.c of each
-- release (the RCS history in luchachen/iozone, 3.22 to 3.471; 3.489 from
-- mer-tools/iozone; 3.506 from Nanamiiiii/iozone-keystone, 3.508 from
-- klazarsk/iozone-rh). Each entry stands for the releases whose table is
-- the same; its splash is the named release's own.
--   head, head_e: the header widths (CONTROL_STRING3, and the -E columns
--   of CONTROL_STRING2) of a linux build (HAVE_PREAD, no HAVE_PREADV, %lld);
--   cell: each test's printf; pad: test_output[], the blanks of a test not
--   selected; kb, kbytes, kbyte: "kB"/"KB", "kBytes"/"Kbytes", "kByte"/"Kbyte".
-- ---------------------------------------------------------------------------
local L489 = {
  version = "3.489", contributors = CONTRIB_489,
  head = "%16s%8s%9s%9s%8s%10s%8s %9s%9s %9s %9s%9s%9s%9s%9s", head_e = "%8s%9s%8s%10s",
  cell = M.CELL, pad = M.PAD,
  kb = "kB", kbytes = "kBytes", kbyte = "kByte",
  releases = "3.434 to 3.489",
}
local function derive(base, t)
  local d = {}
  for k, v in pairs(base) do d[k] = v end
  for k, v in pairs(t) do d[k] = v end
  return d
end
-- 3.308 to 3.420 (and 3.424, which already says kB): 8 columns, a blank
-- before record rewrite and stride read.
local L420 = derive(L489, {
  version = "3.420",
  contributors = contributors {
    "Randy Dunlap, Mark Montague, Dan Million, Gavin Brebner,\n",
    "Jean-Marc Zucconi, Jeff Blomberg, Benny Halevy, Dave Boone,\n",
    "Erik Habbinga, Kris Strecker, Walter Wong, Joshua Root,\n",
    "Fabrice Bacchella, Zhenghua Xue, Qin Li, Darren Sawyer,\n",
    "Vangel Bojaxhi, Ben England, Vikentsi Lapa.\n\n",
  },
  head = "%16s%8s%8s%8s%8s%10s%8s%8s%8s %8s %8s%9s%9s%8s%9s", head_e = "%8s%9s%7s%10s",
  cell = {
    [0] = { "%8d", "%8d" }, [1] = { "%9d", "%9d" }, [2] = { "%8d", "%8d" },
    [3] = { "%8d" }, [4] = { " %8d" }, [5] = { " %8d" },
    [6] = { "%9d", "%9d" }, [7] = { "%8d", "%9d" }, [8] = {},
    [9] = { "%8d", "%9d" }, [10] = { "%8d", "%9d" },
  },
  pad = { [0] = 16, 18, 16, 8, 8, 8, 18, 16, 0, 17, 19 },
  kb = "KB", kbytes = "Kbytes", kbyte = "Kbyte",
  releases = "3.308 to 3.420",
})
-- 3.152 to 3.303: the same without the two blanks.
local L263 = derive(L420, {
  version = "3.263",
  contributors = contributors {
    "Randy Dunlap, Mark Montague, Dan Million, \n",
    "Jean-Marc Zucconi, Jeff Blomberg,\n",
    "Erik Habbinga, Kris Strecker, Walter Wong.\n\n",
  },
  head = "%16s%8s%8s%8s%8s%10s%8s%8s%8s%8s%8s%9s%9s%8s%9s",
  cell = derive(L420.cell, { [4] = { "%8d" }, [5] = { "%8d" } }),
  releases = "3.152 to 3.303",
})
-- 3.428 to 3.430: 3.489's header and cells (and kB), 3.420's blanks and
-- contributors.
local L429 = derive(L489, {
  version = "3.429", contributors = L420.contributors, pad = L420.pad,
  releases = "3.428 to 3.430",
})
-- 3.506 to 3.508: 10 columns, the blanks of 3.489 kept.
local L506 = derive(L489, {
  version = "3.506",
  head = "%16s%8s%9s%11s%10s%10s%10s %9s%10s %10s %10s%10s%10s%10s%10s",
  head_e = "%10s%10s%10s%10s",
  cell = {
    [0] = { "%10d", "%10d" }, [1] = { "%10d", "%10d" }, [2] = { "%10d", "%10d" },
    [3] = { "%10d" }, [4] = { " %10d" }, [5] = { " %10d" },
    [6] = { "%10d", "%10d" }, [7] = { "%10d", "%10d" }, [8] = {},
    [9] = { "%10d", "%10d" }, [10] = { "%10d", "%10d" },
  },
  releases = "3.506 to 3.508",
})

M.LAYOUTS = { ["3.263"] = L263, ["3.420"] = L420, ["3.429"] = L429, ["3.489"] = L489,
  ["3.506"] = L506 }
M.AS = { "3.489", "3.506", "3.429", "3.420", "3.263" }  -- --as choices, the default first

--- layout(version) -> the text facts of that release (M.LAYOUTS), 3.489 without one.
function M.layout(version)
  return M.LAYOUTS[version or M.VERSION] or error("no iozone layout " .. tostring(version))
end

--- splash_head(build, began [, L]) -> the lines iozone prints before its option
--- lines: title, version, mode, "Build: <build> ", contributors, and
--- "Run began: <began>" (began is ctime() text without its newline).
function M.splash_head(build, began, L)
  L = L or L489
  local t = {
    "\tIozone: Performance Test of File I/O\n",
    fmt("\t        Version $Revision: %s $\n\t\tCompiled for 64 bit mode.\n", L.version),
    fmt("\t\tBuild: %s \n\n", build),
  }
  for _, l in ipairs(L.contributors) do t[#t + 1] = l end
  t[#t + 1] = fmt("\tRun began: %s\n\n", began)
  return table.concat(t)
end

--- ctime(t) -> "Thu Jan  1 00:00:00 1970" style text of os.date's table t
--- (the fields year, month, day, hour, min, sec, wday), as C's ctime() prints.
local DAYS = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" }
local MONTHS = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
  "Nov", "Dec" }
function M.ctime(t)
  return fmt("%s %s %2d %02d:%02d:%02d %d", DAYS[t.wday], MONTHS[t.month], t.day, t.hour,
    t.min, t.sec, t.year)
end

--- command_line(words) -> "\tCommand line used: w1 w2 ...\n"
function M.command_line(words)
  local t = { "\tCommand line used:" }
  for _, w in ipairs(words) do t[#t + 1] = " " .. w end
  t[#t + 1] = "\n"
  return table.concat(t)
end

M.OUTPUT_UNITS = "\tOutput is in kBytes/sec\n"  -- follows the command line

--- output_units([L]) -> OUTPUT_UNITS as the release spells it
function M.output_units(L)
  return fmt("\tOutput is in %s/sec\n", (L or L489).kbytes)
end

--- splash_tail(stride, cache_size, cache_line_size) -> the lines after
--- OUTPUT_UNITS (and after the record-size checks), up to the table.
function M.splash_tail(stride, cache_size, line_size, L)
  return fmt("\tTime Resolution = %1.6f seconds.\n", M.TIME_RES)
    .. fmt("\tProcessor cache size set to %d %s.\n", floor((cache_size or M.CACHE_SIZE) / 1024),
      (L or L489).kbytes)
    .. fmt("\tProcessor cache line size set to %d bytes.\n", line_size or M.CACHE_LINE_SIZE)
    .. fmt("\tFile stride size set to %d * record size.\n", stride or M.STRIDE)
end

--- header(extended [, L]) -> the two header rows, each ending in "\n"
--- (extended: -E, which adds pwrite, repwrite, pread, repread).
function M.header(extended, L)
  L = L or L489
  local HEAD_FMT, HEAD_FMT_E = L.head, L.head_e
  local h1 = fmt(HEAD_FMT, "", "", "", "", "", "", "random", "random", "bkwd", "record",
    "stride", "", "", "", "")
  local h2 = fmt(HEAD_FMT, L.kb, "reclen", "write", "rewrite", "read", "reread", "read",
    "write", "read", "rewrite", "read", "fwrite", "frewrite", "fread", "freread")
  if extended then
    h1 = h1 .. fmt(HEAD_FMT_E, "", "", "", "")
    h2 = h2 .. fmt(HEAD_FMT_E, "pwrite", "repwrite", "pread", "repread")
  end
  return h1 .. "\n" .. h2 .. "\n"
end

--- row_start(kb, reclen_bytes) -> "%16d%8d" of the file size (kB) and the
--- record size in kB (truncated, as reclen/1024 in C).
function M.row_start(kb, reclen)
  return fmt("%16d%8d", kb, floor(reclen / 1024))
end

--- cell(test, values [, L]) -> the printed values of one test (values[1], values[2])
function M.cell(test, values, L)
  local t = {}
  for k, f in ipairs((L or L489).cell[test]) do t[k] = fmt(f, values[k] or 0) end
  return table.concat(t)
end

--- pad(test [, L]) -> the blanks a skipped test prints
function M.pad(test, L)
  return string.rep(" ", (L or L489).pad[test] or 0)
end

-- ---------------------------------------------------------------------------
-- Numbers
-- ---------------------------------------------------------------------------

--- elapsed(seconds) -> iozone's time, poor: the measured interval less the
--- timer resolution; under 1 us it becomes the resolution itself and poor is
--- true (iozone then warns "Timer resolution is poor" at the end).
function M.elapsed(seconds)
  local t = seconds - M.TIME_RES
  if t < 0.000001 then return M.TIME_RES, true end
  return t, false
end

--- rate(bytes, t) -> kB/s as iozone prints it: (unsigned long long)(bytes / t) >> 10
function M.rate(bytes, t)
  return floor(floor(bytes / t) / 1024)
end

--- C's atoi of a leading integer (platter.classic's)
local atoi = require("platter.classic").atoi
M.atoi = atoi

local function last(s) return s:sub(-1):lower() end

--- file_kb(s) -> kB for -s, -n and -g: a number of kB, or with k, m or g
--- (either case) as the last character, kB, MB or GB.
function M.file_kb(s)
  local n, u = atoi(s), last(s)
  if u == "m" then return n * 1024 end
  if u == "g" then return n * 1024 * 1024 end
  return n
end

--- record_bytes(s) -> bytes for -r, -y and -q: a number of kB, or with a k,
--- m or g suffix.
function M.record_bytes(s)
  local n, u = atoi(s), last(s)
  if u == "m" then return n * 1024 * 1024 end
  if u == "g" then return n * 1024 * 1024 * 1024 end
  return n * 1024
end

-- ---------------------------------------------------------------------------
-- Options in command-line order
-- ---------------------------------------------------------------------------

--- getopt(argv, takes_arg) -> list of { opt, value } in the order getopt()
--- meets them: "-ab", "-s100", "-s 100" and "-+n" (opt "+", value "n") all
--- work. An option whose takes_arg entry is "list" (-F) takes the words
--- that follow it up to the next one that starts with "-", as a list.
--- Words that are not options are skipped; "--" ends the options.
function M.getopt(argv, takes_arg)
  local out, i = {}, 1
  while i <= #argv do
    local a = argv[i]
    if a == "--" then break end
    if a:sub(1, 1) == "-" and #a > 1 then
      local k = 2
      while k <= #a do
        local c = a:sub(k, k)
        if takes_arg[c] == "list" then
          local v, rest = {}, a:sub(k + 1)
          if rest ~= "" then v[1] = rest end
          while argv[i + 1] and argv[i + 1]:sub(1, 1) ~= "-" do
            i = i + 1
            v[#v + 1] = argv[i]
          end
          out[#out + 1] = { c, v }
          break
        elseif takes_arg[c] then
          local v = a:sub(k + 1)
          if v == "" then
            i = i + 1
            v = argv[i]
          end
          out[#out + 1] = { c, v }
          break
        end
        out[#out + 1] = { c }
        k = k + 1
      end
    end
    i = i + 1
  end
  return out
end

-- ---------------------------------------------------------------------------
-- Throughput mode (-t)
-- ---------------------------------------------------------------------------

-- iozone keeps each child's figures in C floats (struct child_stats).
local f32
if string.pack then
  f32 = function(x) return (string.unpack("f", string.pack("f", x))) end
else
  local ffi = require "ffi"
  f32 = function(x) return tonumber(ffi.new("float", x)) end
end
M.f32 = f32

--- child_result(kb, t [, wall, cpu]) -> { throughput = kB/s, actual = kB,
--- walltime, cputime } of one child that moved kb kB in t seconds (iozone's
--- time less the resolution), as the floats iozone stores: the time, then kB
--- over that float; wall and cpu (-+u) are its wall and CPU seconds.
function M.child_result(kb, t, wall, cpu)
  local tf = f32(t)
  return { throughput = f32(kb / tf), actual = f32(kb), walltime = f32(wall or 0),
    cputime = f32(cpu or 0) }
end

--- throughput_report(label, n, children, total_time, port, unit) -> the
--- lines iozone prints after one throughput test: label is the printf text
--- naming the test with its count (such as "%2d initial writers \t");
--- children is the list of child_result()s; total_time is the parent's
--- seconds; port "process" and unit "kB" (or "KB", as before 3.424).
--- cpu (-+u), when given, is { res = the CPU timer's resolution, first =
--- true for the initial writers }: the CPU line follows, the children's CPU
--- seconds summed over the longest wall time (a wall time under the
--- resolution counts as 0 except for the writers, a CPU time under it too).
function M.throughput_report(label, n, children, total_time, port, unit, cpu)
  local total, ptotal, minx, mint, maxt = 0, 0, 0, 0, 0
  for _, c in ipairs(children) do
    total = total + c.throughput
    ptotal = ptotal + c.actual
    if minx == 0 or c.actual < minx then minx = c.actual end
    if mint == 0 or c.throughput < mint then mint = c.throughput end
    if c.throughput > maxt then maxt = c.throughput end
  end
  local lab = fmt(label, n)
  return fmt("\tChildren see throughput for %s= %10.2f %s/sec\n", lab, total, unit)
    .. fmt("\tParent sees throughput for %s= %10.2f %s/sec\n", lab, ptotal / total_time, unit)
    .. fmt("\tMin throughput per %s \t\t\t= %10.2f %s/sec \n", port, mint, unit)
    .. fmt("\tMax throughput per %s \t\t\t= %10.2f %s/sec\n", port, maxt, unit)
    .. fmt("\tAvg throughput per %s \t\t\t= %10.2f %s/sec\n", port, total / n, unit)
    .. fmt("\tMin xfer \t\t\t\t\t= %10.2f %s\n", minx, unit)
    .. (cpu and M.cpu_line(children, cpu) or "")
end

--- cpu_line(children, cpu) -> iozone's "CPU utilization" line of one
--- throughput test (see throughput_report).
function M.cpu_line(children, cpu)
  local wall, time = 0, 0
  for _, c in ipairs(children) do
    time = time + c.cputime
    local w = c.walltime < c.cputime and c.cputime or c.walltime
    if w > wall then wall = w end
  end
  if not cpu.first and wall < cpu.res then wall = 0 end
  if time < cpu.res then time = 0 end
  local f = "\tCPU %s: Wall time %8.3f    CPU time %8.3f    CPU utilization %6.2f %%\n\n"
  if wall == 0 then return fmt(f, "utilization", wall, time, 0) end
  return fmt(f, cpu.first and "Utilization" or "utilization", wall, time, 100 * time / wall)
end

-- ---------------------------------------------------------------------------
-- Size lists (auto mode)
-- ---------------------------------------------------------------------------

--- sizes(min, max, mult, list) -> iozone's file or record size list: list
--- (several -s or -r) when given, else min, min*mult, ... up to max.
function M.sizes(min, max, mult, list)
  local t = {}
  if list and #list > 1 then
    for k, v in ipairs(list) do t[k] = v end
    return t
  end
  local v = min
  while v <= max and v > 0 do
    t[#t + 1] = v
    v = v * mult
  end
  return t
end

--- next_size(list, prev) -> the first entry of list above prev, or nil: how
--- iozone walks its size lists (so an unsorted -s/-r list skips entries).
function M.next_size(list, prev)
  for _, v in ipairs(list) do
    if v > prev then return v end
  end
end

--- plan(cfg) -> the rows auto mode runs: a list of { kb, reclen } in order,
--- and dummy rows { kb, reclen_kb_dummy, dummy = true } that only feed the
--- -R tables (the record sizes skipped above the 16 MB crossover). cfg holds
--- min_file, max_file (kB), min_rec, max_rec (bytes), s_list, r_list,
--- rflag, sflag, yflag, qflag, nocross, multiplier.
function M.plan(cfg)
  local mult = cfg.multiplier or M.MULTIPLIER
  local xover = cfg.nocross and cfg.max_file or M.CROSSOVER
  local files = M.sizes(cfg.min_file, cfg.max_file, mult, cfg.s_list)
  local orig_min_rec = cfg.min_rec
  local min_rec = cfg.min_rec
  local recs = M.sizes(min_rec, cfg.max_rec, mult, cfg.r_list)
  local rows = {}
  local kb = M.next_size(files, 0)
  while kb do
    if not cfg.rflag and not cfg.sflag and not cfg.yflag and not cfg.qflag and kb > xover then
      min_rec = M.LARGE_REC
      recs = M.sizes(min_rec, cfg.max_rec, mult, cfg.r_list)
      local m = floor(orig_min_rec / 1024)
      local count = min_rec
      while count ~= orig_min_rec and m <= kb * 1024 and count > 0 do
        rows[#rows + 1] = { kb, m * 1024, dummy = true }
        m = m * 2
        count = floor(count / 2)
      end
    end
    local rec = M.next_size(recs, 0)
    while rec do
      if rec > kb * 1024 then break end
      rows[#rows + 1] = { kb, rec }
      rec = M.next_size(recs, rec)
    end
    kb = M.next_size(files, kb)
  end
  return rows
end

-- ---------------------------------------------------------------------------
-- -R ("Excel") report
-- ---------------------------------------------------------------------------

--- excel(tests, rec_header, rows) -> the text after "iozone test complete.":
--- "Excel output is below:" and one block per report of the selected tests.
--- tests: the selected test numbers in order; rec_header: record sizes
--- (bytes) of the header row; rows: { kb, reclen, values = { [test] = {v1,
--- v2} } } in run order (dummy rows have no values and print 0).
function M.excel(tests, rec_header, rows)
  local out = { "Excel output is below:\n" }
  local head = { "      " }
  for _, r in ipairs(rec_header) do head[#head + 1] = fmt("  \"%d\"", floor(r / 1024)) end
  head = table.concat(head) .. "\n"
  for _, test in ipairs(tests) do
    for k, title in ipairs(M.EXCEL_TITLES[test] or {}) do
      out[#out + 1] = "\n\"" .. title .. "\"\n" .. head
      local i = 1
      while i <= #rows do
        local kb = rows[i][1]
        local line = { fmt("\"%d\"  ", kb) }
        while i <= #rows and rows[i][1] == kb do
          local v = rows[i].values and rows[i].values[test]
          line[#line + 1] = fmt(" %d ", v and v[k] or 0)
          i = i + 1
        end
        out[#out + 1] = table.concat(line) .. "\n"
      end
    end
  end
  return table.concat(out)
end

-- The -b worksheet's block titles (libbif labels, spelt apart from -R's).
M.BIF_TITLES = {
  [0] = { "Writer Report", "Re-writer Report" },
  [1] = { "Reader Report", "Re-reader Report" },
  [2] = { "Random Read Report", "Random Write Report" },
  [3] = { "Backward Read Report" },
  [4] = { "Record Rewrite Report" },
  [5] = { "Stride Read Report" },
  [6] = { "Fwrite Report", "Re-fwrite Report" },
  [7] = { "Fread Report", "Re-fread Report" },
  [9] = { "Pwrite Report", "Re-pwrite Report" },
  [10] = { "Pread Report", "Re-pread Report" },
}

-- An IEEE 754 double as 8 little-endian bytes (string.pack where the Lua has
-- it; LuaJIT has not, and the values here are whole numbers or zero).
local function double_le(v)
  if string.pack then return string.pack("<d", v) end
  if v == 0 then return ("\0"):rep(8) end
  local sign = v < 0 and 128 or 0
  local m, e = math.frexp(math.abs(v))       -- v = m * 2^e, 0.5 <= m < 1
  local frac = (m * 2 - 1) * 2 ^ 52          -- the 52 stored bits, exact
  local bytes = {}
  for i = 1, 6 do
    bytes[i] = frac % 256
    frac = floor(frac / 256)
  end
  local ex = e - 1 + 1023
  bytes[7] = frac + (ex % 16) * 16
  bytes[8] = sign + floor(ex / 16)
  return string.char(unpack(bytes))
end

local function le16(n) return string.char(n % 256, floor(n / 256) % 256) end

--- biff(command_line, tests, rec_header, rows) -> iozone's -b worksheet: the
--- BIFF 2 records libbif writes (BOF; a LABEL per text cell, 264 bytes of
--- record with the text in a zero-filled 256-byte field; a NUMBER per value;
--- EOF), laid out as iozone lays them: the command line, a blank line and a
--- note, then per selected report its title, the record sizes (kB) from the
--- second column, and a row per file size. Arguments as for excel().
function M.biff(command_line, tests, rec_header, rows)
  local out, row = { "\9\0\4\0\2\0\16\0" }, 0
  local function label(text)
    local len = #text
    if len > 255 then text = text:sub(1, 254) end  -- libbif cuts it, after taking the length
    out[#out + 1] = "\4\0\8\1" .. le16(row) .. le16(0) .. "\0\0\0" .. string.char(len % 256)
      .. text .. ("\0"):rep(256 - #text)
    row = row + 1
  end
  local function number(v, col)
    out[#out + 1] = "\3\0\15\0" .. le16(row) .. le16(col) .. "\0\0\0" .. double_le(v)
  end
  label(command_line)
  label(" ")
  label("The top row is records sizes, the left column is file sizes")
  for _, test in ipairs(tests) do
    for k, title in ipairs(M.BIF_TITLES[test] or {}) do
      label(title)
      for c, r in ipairs(rec_header) do number(floor(r / 1024), c) end
      row = row + 1
      local i = 1
      while i <= #rows do
        local kb, col = rows[i][1], 1
        number(kb, 0)
        while i <= #rows and rows[i][1] == kb do
          local v = rows[i].values and rows[i].values[test]
          number(v and v[k] or 0, col)
          col, i = col + 1, i + 1
        end
        row = row + 1
      end
    end
  end
  out[#out + 1] = "\10\0\0\0"
  return table.concat(out)
end

-- ---------------------------------------------------------------------------
-- Access patterns
-- ---------------------------------------------------------------------------

--- shuffle(n, rand) -> iozone's random-test order: records 0..n-1 shuffled
--- as its loop does (for each i, swap i with rand() % n). rand() returns a
--- non-negative integer.
function M.shuffle(n, rand)
  local t = {}
  for i = 0, n - 1 do t[i] = i end
  for i = 0, n - 1 do
    local j = rand() % n
    t[i], t[j] = t[j], t[i]
  end
  return t
end

--- stride_next(pos, n, stride, wraps) -> next record, wraps: iozone's stride
--- read, in records. After reading record pos, the next read is pos +
--- stride, or, when that reaches the last record, the start of the next
--- pass (1, 2, ... records in; 0 when the file has at most `stride` records).
function M.stride_next(pos, n, stride, wraps)
  local cur = pos + 1
  if cur + stride >= n - 1 then
    wraps = wraps + 1
    if n <= stride then return 0, wraps end
    return wraps % n, wraps
  end
  return cur + stride - 1, wraps
end

-- ---------------------------------------------------------------------------
-- stdio (fwrite/fread) as glibc does it
-- ---------------------------------------------------------------------------

--- stdio_writer(bufsize, syswrite) -> { fwrite = function(n), fflush = function() }:
--- the write(2) calls glibc makes for fwrite(buf, n, 1, stream) on a stream
--- with a bufsize-byte user buffer (iozone: setvbuf(stream, buf, _IOFBF,
--- reclen)). syswrite(len) does one write(2) of len bytes. This is
--- _IO_new_file_xsputn: fill the buffer; if more is left, flush the buffer,
--- write whole buffer-sized blocks directly, and keep the remainder.
function M.stdio_writer(bufsize, syswrite)
  local used, putting = 0, false
  local w = {}
  function w.fwrite(n)
    local count = putting and (bufsize - used) or 0
    if count > n then count = n end
    used = used + count
    local todo = n - count
    if todo > 0 then
      if used > 0 then syswrite(used) end  -- _IO_OVERFLOW flushes the full buffer
      used, putting = 0, true
      local direct = todo - (bufsize >= 128 and todo % bufsize or 0)
      if direct > 0 then syswrite(direct) end
      used = todo - direct
    end
  end
  function w.fflush()
    if used > 0 then syswrite(used) end
    used = 0
  end
  return w
end

--- stdio_reader(bufsize, sysread) -> { fread = function(n) -> bytes }: the
--- read(2) calls of glibc's _IO_file_xsgetn for fread(buf, n, 1, stream)
--- with a bufsize-byte buffer: serve from the buffer, read whole blocks
--- straight into the caller's memory, refill the buffer for a short rest.
--- sysread(len) does one read(2) and returns the bytes it got.
function M.stdio_reader(bufsize, sysread)
  local have = 0
  local r = {}
  function r.fread(n)
    local want = n
    while want > 0 do
      if want <= have then
        have = have - want
        want = 0
      else
        want = want - have
        have = 0
        if want < bufsize then
          local got = sysread(bufsize)
          if not got or got <= 0 then break end
          have = got
        else
          local got = sysread(want - (bufsize >= 128 and want % bufsize or 0))
          if not got or got <= 0 then break end
          want = want - got
        end
      end
    end
    return n - want
  end
  return r
end

return M
