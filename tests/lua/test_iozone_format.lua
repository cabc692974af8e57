-- platter.classic_iozone: iozone 3.489's text and number rules, checked
-- against the worked examples of shared/spec/classic-benchmarks.md (section 3)
-- and against output and strace logs of the real iozone 3.489 binary
-- (Debian iozone3 489-1, linux-AMD64); those strings are copied literally.
local T = ...
local iz = require "platter.classic_iozone"

local rep = string.rep

T.test("rate: kB/s is (u64)(bytes / t) >> 10 (spec: 100 MiB in 33.17 s is 3087)", function()
  T.eq(iz.rate(104857600, 33.17), 3087, "spec example")
  T.eq(iz.rate(1023, 1), 0, "under 1 KiB/s")
  T.eq(iz.rate(2047, 1), 1, "truncated, not rounded")
  T.eq(iz.rate(65536, 0.5), 128, "whole")
  T.eq(iz.rate(1048576, 0.001), 1024000, "fast")
end)

T.test("elapsed: the timer resolution is taken off; under 1 us is poor", function()
  local t, poor = iz.elapsed(1.5)
  T.near(t, 1.499999, 1e-12, "1.5 s")
  T.eq(poor, false, "1.5 s is fine")
  t, poor = iz.elapsed(0.0000015)
  T.eq(t, iz.TIME_RES, "poor time is the resolution")
  T.eq(poor, true, "poor")
end)

T.test("header: the spec's two rows, widths %16s%8s%9s%9s%8s%10s%8s %9s%9s %9s %9s%9s%9s%9s%9s", function()
  local want = rep(" ", 62) .. "random    random     bkwd    record    stride" .. rep(" ", 36) .. "\n"
    .. "              kB  reclen    write  rewrite    read    reread    read     write     read"
    .. "   rewrite      read   fwrite frewrite    fread  freread\n"
  T.eq(iz.header(false), want, "header")
  local h1, h2 = iz.header(false):match("^(.-)\n(.-)\n$")
  T.eq(#h1, 143, "row 1 width")
  T.eq(#h2, 143, "row 2 width")
end)

T.test("header -E: pwrite repwrite pread repread (real 3.489 output)", function()
  local want = rep(" ", 62) .. "random    random     bkwd    record    stride" .. rep(" ", 71) .. "\n"
    .. "              kB  reclen    write  rewrite    read    reread    read     write     read"
    .. "   rewrite      read   fwrite frewrite    fread  freread  pwrite repwrite   pread"
    .. "   repread\n"
  T.eq(iz.header(true), want, "header -E")
end)

T.test("row: the spec's example row (100 MiB at 4 KiB, -i0 -i1 -i2)", function()
  local row = iz.row_start(102400, 4096) .. iz.cell(0, { 3087, 3144 })
    .. iz.cell(1, { 10337, 10375 }) .. iz.cell(2, { 9761, 5743 })
  T.eq(row, "          102400       4     3087     3144    10337    10375     9761     5743", "row")
end)

T.test("row: every test's cell, and the blanks of a skipped test (real 3.489)", function()
  -- iozone -s 1m -r 64k -i 0 -i 2
  local row = iz.row_start(1024, 65536) .. iz.cell(0, { 2306882, 5284125 }) .. iz.pad(1)
    .. iz.cell(2, { 5330028, 5917516 })
  for t = 3, 8 do row = row .. iz.pad(t) end
  T.eq(row, "            1024      64  2306882  5284125                    5330028  5917516"
    .. rep(" ", 64), "-i 0 -i 2")
  -- all tests (3.489 -a, 64 kB, 4 kB)
  row = iz.row_start(64, 4096)
  local v = { [0] = { 293755, 1330167 }, { 1143223, 1828508 }, { 1304314, 1083249 }, { 1105556 },
    { 1163036 }, { 1392258 }, { 1143223, 1330167 }, { 983980, 913649 } }
  for t = 0, 8 do row = row .. (v[t] and iz.cell(t, v[t]) or "") end
  T.eq(row, "              64       4   293755  1330167  1143223  1828508  1304314  1083249"
    .. "  1105556   1163036   1392258  1143223  1330167   983980   913649", "all tests")
  T.eq(#row, 143, "all tests width")
  -- -E -i 0 -i 10: pread prints %8lld%9lld
  row = iz.row_start(256, 65536) .. iz.cell(0, { 800221, 7120034 })
  for t = 1, 9 do row = row .. iz.pad(t) end
  row = row .. iz.cell(10, { 1391207, 17096249 })
  T.eq(#row, 177, "-E -i 0 -i 10 width")
  T.eq(row:sub(-17), " 1391207 17096249", "pread cell")
  -- the blanks: a skipped fread pair is one column short, a skipped pread pair one long
  local widths = {}
  for t = 0, 10 do widths[#widths + 1] = #iz.pad(t) end
  T.eq(table.concat(widths, ","), "18,18,18,9,10,10,18,17,0,18,18", "pad widths")
  T.eq(#iz.cell(7, { 1, 1 }), 18, "fread cell")
  T.eq(#iz.cell(10, { 1, 1 }), 17, "pread cell")
  T.eq(iz.cell(4, { 61774 }), "     61774", "record rewrite is ' %9lld'")
  T.eq(iz.cell(5, { 30137 }), "     30137", "stride read is ' %9lld'")
  T.eq(iz.cell(3, { 12345678901 }), "12345678901", "wide values widen the row")
end)

T.test("splash: the lines before the options, as 3.489 prints them", function()
  local want = "\tIozone: Performance Test of File I/O\n"
    .. "\t        Version $Revision: 3.489 $\n"
    .. "\t\tCompiled for 64 bit mode.\n"
    .. "\t\tBuild: linux-AMD64 \n"
    .. "\n"
    .. "\tContributors:William Norcott, Don Capps, Isom Crawford, Kirby Collins\n"
    .. "\t             Al Slater, Scott Rhine, Mike Wisner, Ken Goss\n"
    .. "\t             Steve Landherr, Brad Smith, Mark Kelly, Dr. Alain CYR,\n"
    .. "\t             Randy Dunlap, Mark Montague, Dan Million, Gavin Brebner,\n"
    .. "\t             Jean-Marc Zucconi, Jeff Blomberg, Benny Halevy, Dave Boone,\n"
    .. "\t             Erik Habbinga, Kris Strecker, Walter Wong, Joshua Root,\n"
    .. "\t             Fabrice Bacchella, Zhenghua Xue, Qin Li, Darren Sawyer,\n"
    .. "\t             Vangel Bojaxhi, Ben England, Vikentsi Lapa,\n"
    .. "\t             Alexey Skidanov, Sudhir Kumar.\n"
    .. "\n"
    .. "\tRun began: Sun Nov 29 21:01:03 2026\n"
    .. "\n"
  T.eq(iz.splash_head("linux-AMD64", "Sun Nov 29 21:01:03 2026"), want, "splash")
  T.eq(iz.command_line({ "iozone", "-e", "-I", "-a", "-s", "100M" }),
    "\tCommand line used: iozone -e -I -a -s 100M\n", "command line")
  T.eq(iz.OUTPUT_UNITS, "\tOutput is in kBytes/sec\n", "units")
  T.eq(iz.splash_tail(), "\tTime Resolution = 0.000001 seconds.\n"
    .. "\tProcessor cache size set to 1024 kBytes.\n"
    .. "\tProcessor cache line size set to 32 bytes.\n"
    .. "\tFile stride size set to 17 * record size.\n", "tail")
  T.eq(iz.splash_tail(3, 2048 * 1024, 64):match("stride size set to (%d+)"), "3", "-j")
end)

T.test("ctime: C's layout, the day padded with a space", function()
  T.eq(iz.ctime({ year = 1970, month = 1, day = 1, hour = 0, min = 0, sec = 0, wday = 5 }),
    "Thu Jan  1 00:00:00 1970", "epoch")
  T.eq(iz.ctime({ year = 2023, month = 11, day = 22, hour = 8, min = 28, sec = 46, wday = 4 }),
    "Wed Nov 22 08:28:46 2023", "posted run")
end)

T.test("sizes: -s/-n/-g in kB, -r/-y/-q in bytes, iozone's suffixes", function()
  T.eq(iz.file_kb("100M"), 102400, "100M")
  T.eq(iz.file_kb("1m"), 1024, "1m")
  T.eq(iz.file_kb("64k"), 64, "64k")
  T.eq(iz.file_kb("512"), 512, "bare kB")
  T.eq(iz.file_kb("2g"), 2097152, "2g")
  T.eq(iz.file_kb("1.5m"), 1024, "sscanf stops at the dot")
  T.eq(iz.record_bytes("4k"), 4096, "4k")
  T.eq(iz.record_bytes("4"), 4096, "bare kB")
  T.eq(iz.record_bytes("1024k"), 1048576, "1024k")
  T.eq(iz.record_bytes("16M"), 16777216, "16M")
  T.eq(iz.atoi("  -12x"), -12, "atoi")
  T.eq(iz.atoi("x"), 0, "atoi of nothing")
end)

T.test("getopt: options in command-line order, iozone's bundling", function()
  local takes = { s = true, r = true, i = true, ["+"] = true }
  local got = iz.getopt({ "-a", "-s100M", "-r", "4k", "-+n", "-Rz", "-i0", "--", "-e" }, takes)
  local t = {}
  for _, o in ipairs(got) do t[#t + 1] = o[1] .. (o[2] and ("=" .. o[2]) or "") end
  T.eq(table.concat(t, " "), "a s=100M r=4k +=n R z i=0", "order")
end)

local function plan_text(cfg)
  local t = {}
  for _, r in ipairs(iz.plan(cfg)) do
    t[#t + 1] = string.format("%d/%d%s", r[1], r[2] / 1024, r.dummy and "d" or "")
  end
  return table.concat(t, " ")
end

T.test("plan: auto mode's file and record sizes (real 3.489 runs)", function()
  -- -a -n 64k -g 300k -y 24k -q 100k
  T.eq(plan_text({ min_file = 64, max_file = 300, min_rec = 24576, max_rec = 102400,
    s_list = {}, r_list = {}, yflag = true, qflag = true }),
    "64/24 64/48 128/24 128/48 128/96 256/24 256/48 256/96", "-y/-q")
  -- -a -n 16m -g 32m: over 16 MB the records start at 64 kB; 4..32 become -R dummies
  local want = {}
  for r = 2, 14 do want[#want + 1] = string.format("16384/%d", 2 ^ r) end
  for r = 2, 5 do want[#want + 1] = string.format("32768/%dd", 2 ^ r) end
  for r = 6, 14 do want[#want + 1] = string.format("32768/%d", 2 ^ r) end
  T.eq(plan_text({ min_file = 16384, max_file = 32768, min_rec = 4096, max_rec = 16777216,
    s_list = {}, r_list = {} }), table.concat(want, " "), "crossover")
  -- -a -n 3k -g 8k (clamped to 4): records never exceed the file
  T.eq(plan_text({ min_file = 4, max_file = 8, min_rec = 4096, max_rec = 16777216,
    s_list = {}, r_list = {} }), "4/4 8/4 8/8", "small")
  -- -s 64k -s 128k -r 4k -r 16k -r 64k: the lists as given
  T.eq(plan_text({ min_file = 64, max_file = 128, min_rec = 4096, max_rec = 65536,
    s_list = { 64, 128 }, r_list = { 4096, 16384, 65536 }, nocross = true }),
    "64/4 64/16 64/64 128/4 128/16 128/64", "lists")
end)

T.test("excel: the -R blocks (real 3.489 output)", function()
  local rows = {
    { 64, 16384, values = { [0] = { 1644, 0 }, [1] = { 7499, 0 }, [2] = { 13701, 1810 } } },
    { 64, 32768, values = { [0] = { 11273, 0 }, [1] = { 235303, 0 }, [2] = { 35597, 2895 } } },
    { 128, 16384, values = { [0] = { 2461, 0 }, [1] = { 9575, 0 }, [2] = { 37504, 2081 } } },
    { 128, 32768, values = { [0] = { 4096, 0 }, [1] = { 15298, 0 }, [2] = { 33377, 4569 } } },
  }
  local want = table.concat({
    "Excel output is below:\n",
    "\n\"Writer report\"\n        \"16\"  \"32\"\n\"64\"   1644  11273 \n\"128\"   2461  4096 \n",
    "\n\"Re-writer report\"\n        \"16\"  \"32\"\n\"64\"   0  0 \n\"128\"   0  0 \n",
    "\n\"Reader report\"\n        \"16\"  \"32\"\n\"64\"   7499  235303 \n\"128\"   9575  15298 \n",
    "\n\"Re-Reader report\"\n        \"16\"  \"32\"\n\"64\"   0  0 \n\"128\"   0  0 \n",
    "\n\"Random read report\"\n        \"16\"  \"32\"\n\"64\"   13701  35597 \n\"128\"   37504  33377 \n",
    "\n\"Random write report\"\n        \"16\"  \"32\"\n\"64\"   1810  2895 \n\"128\"   2081  4569 \n",
  })
  T.eq(iz.excel({ 0, 1, 2 }, { 16384, 32768 }, rows), want, "excel")
  -- a crossover dummy row prints 0
  local out = iz.excel({ 3 }, { 4096, 8192 }, { { 32768, 4096 }, { 32768, 65536, values = { [3] = { 7 } } } })
  T.eq(out, "Excel output is below:\n\n\"Backward read report\"\n        \"4\"  \"8\"\n\"32768\"   0  7 \n",
    "dummy")
end)

T.test("stride: the offsets of 3.489's stride read (strace, 100 records, stride 17)", function()
  local want = { 0, 17, 34, 51, 68, 85, 1, 18, 35, 52, 69, 86, 2, 19, 36, 53, 70, 87, 3, 20, 37,
    54, 71, 88, 4, 21, 38, 55, 72, 89, 5, 22, 39, 56, 73, 90, 6, 23, 40, 57, 74, 91, 7, 24, 41,
    58, 75, 92, 8, 25, 42, 59, 76, 93, 9, 26, 43, 60, 77, 94, 10, 27, 44, 61, 78, 95, 11, 28, 45,
    62, 79, 96, 12, 29, 46, 63, 80, 97, 13, 30, 47, 64, 81, 14, 31, 48, 65, 82, 15, 32, 49, 66,
    83, 16, 33, 50, 67, 84, 17, 34, 51 }
  local got, pos, wraps = { 0 }, 0, 0
  for _ = 1, 100 do
    pos, wraps = iz.stride_next(pos, 100, 17, wraps)
    got[#got + 1] = pos
  end
  T.eq(table.concat(got, ","), table.concat(want, ","), "offsets")
  pos, wraps = 0, 0
  for _ = 1, 5 do
    pos, wraps = iz.stride_next(pos, 4, 17, wraps)
    T.eq(pos, 0, "a file of at most `stride` records reads record 0")
  end
end)

T.test("shuffle: every record once, iozone's swap loop", function()
  local seq, k = { 5, 2, 7, 1, 0, 3, 3, 6 }, 0
  local t = iz.shuffle(8, function() k = k + 1; return seq[k] end)
  local seen, list = {}, {}
  for i = 0, 7 do
    seen[t[i]] = true
    list[#list + 1] = t[i]
  end
  for i = 0, 7 do T.ok(seen[i], "record " .. i) end
  T.eq(table.concat(list, ","), "4,3,7,6,5,2,1,0", "swap order")
end)

T.test("stdio: glibc's write(2) calls for fwrite with a reclen buffer (strace)", function()
  local calls = {}
  local w = iz.stdio_writer(16384, function(n) calls[#calls + 1] = n end)
  local per = {}
  for i = 1, 4 do
    local before = #calls
    w.fwrite(16384)
    per[i] = #calls - before
  end
  w.fflush()
  T.eq(table.concat(per, ","), "1,0,2,0", "writes per fwrite: direct, buffered, flush+direct, ...")
  T.eq(table.concat(calls, ","), "16384,16384,16384,16384", "four 16 KiB writes in all")
  -- a 4 KiB buffer and 10000-byte records: blocks go direct, the rest is buffered
  calls = {}
  w = iz.stdio_writer(4096, function(n) calls[#calls + 1] = n end)
  w.fwrite(10000)
  w.fwrite(10000)
  w.fflush()
  T.eq(table.concat(calls, ","), "8192,4096,4096,3616", "4 KiB buffer")
  local sum = 0
  for _, n in ipairs(calls) do sum = sum + n end
  T.eq(sum, 20000, "every byte written once")
end)

T.test("stdio: glibc's read(2) calls for fread", function()
  local calls = {}
  local r = iz.stdio_reader(16384, function(n) calls[#calls + 1] = n; return n end)
  for _ = 1, 3 do T.eq(r.fread(16384), 16384, "fread") end
  T.eq(table.concat(calls, ","), "16384,16384,16384", "one read per record")
  calls = {}
  r = iz.stdio_reader(4096, function(n) calls[#calls + 1] = n; return n end)
  T.eq(r.fread(10000), 10000, "10000")
  T.eq(r.fread(1000), 1000, "from the buffer")
  T.eq(table.concat(calls, ","), "8192,4096", "blocks direct, then a buffer fill")
  r = iz.stdio_reader(4096, function() return 0 end)
  T.eq(r.fread(4096), 0, "end of file")
end)

-- The releases of --as. Every expected string below is what C's printf makes
-- of the format strings copied from that release's iozone.c (CONTROL_STRING3,
-- CONTROL_STRING2 of a linux build; each test's printf), not of the tables in
-- classic_iozone.lua.
T.test("--as layouts: header rows of 3.263, 3.420 and 3.506", function()
  local want = {
    ["3.263"] = {
      rep(" ", 60) .. "random  random    bkwd  record  stride" .. rep(" ", 35) .. "\n",
      "              KB  reclen   write rewrite    read    reread    read   write    read rewrite"
        .. "    read   fwrite frewrite   fread  freread\n",
      "  pwrite repwrite  pread   repread\n",
    },
    ["3.420"] = {
      rep(" ", 60) .. "random  random    bkwd   record   stride" .. rep(" ", 35) .. "\n",
      "              KB  reclen   write rewrite    read    reread    read   write    read  rewrite"
        .. "     read   fwrite frewrite   fread  freread\n",
      "  pwrite repwrite  pread   repread\n",
    },
    ["3.506"] = {
      rep(" ", 68) .. "random    random      bkwd     record     stride" .. rep(" ", 40) .. "\n",
      "              kB  reclen    write    rewrite      read    reread      read     write      read"
        .. "    rewrite       read    fwrite  frewrite     fread   freread\n",
      "    pwrite  repwrite     pread   repread\n",
    },
  }
  for v, w in pairs(want) do
    local L = iz.layout(v)
    T.eq(iz.header(false, L), w[1] .. w[2], v .. " header")
    local _, e2 = iz.header(true, L):match("^(.-)\n(.-)\n$")
    T.eq(e2 .. "\n", w[2]:sub(1, -2) .. w[3], v .. " header -E")
  end
  T.eq(iz.header(false), iz.header(false, iz.layout("3.489")), "3.489 is the default")
  T.eq(iz.layout(), iz.layout("3.489"), "layout() is 3.489's")
end)

T.test("--as layouts: a row of every test (cells), as each release prints it", function()
  local v = { [0] = { 3087, 3144 }, { 10337, 10375 }, { 9761, 5743 }, { 1 }, { 2 }, { 3 },
    { 4, 5 }, { 6, 7 } }
  local want = {
    ["3.263"] = "          102400       4    3087    3144    10337    10375    9761    5743       1"
      .. "       2       3        4        5       6        7",
    ["3.420"] = "          102400       4    3087    3144    10337    10375    9761    5743       1"
      .. "        2        3        4        5       6        7",
    ["3.506"] = "          102400       4      3087      3144     10337     10375      9761      5743"
      .. "         1          2          3         4         5         6         7",
  }
  for ver, w in pairs(want) do
    local L = iz.layout(ver)
    local row = iz.row_start(102400, 4096)
    for t = 0, 7 do row = row .. iz.cell(t, v[t], L) end
    T.eq(row, w, ver .. " row")
  end
  -- test_output[] of each era: 3.152-3.430 and 3.434 on (3.506 kept 3.489's)
  local function pads(L)
    local t = {}
    for k = 0, 10 do t[#t + 1] = #iz.pad(k, L) end
    return table.concat(t, ",")
  end
  T.eq(pads(iz.layout("3.263")), "16,18,16,8,8,8,18,16,0,17,19", "3.263 blanks")
  T.eq(pads(iz.layout("3.420")), "16,18,16,8,8,8,18,16,0,17,19", "3.420 blanks")
  T.eq(pads(iz.layout("3.506")), "18,18,18,9,10,10,18,17,0,18,18", "3.506 blanks")
  T.eq(pads(iz.layout("3.429")), "16,18,16,8,8,8,18,16,0,17,19", "3.429: the old blanks")
  T.eq(iz.header(true, iz.layout("3.429")), iz.header(true), "3.429: 3.489's header")
  local row = ""
  for t = 0, 7 do row = row .. iz.cell(t, v[t], iz.layout("3.429")) end
  T.eq(row, "     3087     3144    10337    10375     9761     5743        1         2         3"
    .. "        4        5        6        7", "3.429: 3.489's cells")
end)

T.test("--as layouts: KB and Kbytes before 3.424, the contributors of each", function()
  T.eq(iz.output_units(iz.layout("3.420")), "\tOutput is in Kbytes/sec\n", "3.420 units")
  T.eq(iz.output_units(iz.layout("3.506")), "\tOutput is in kBytes/sec\n", "3.506 units")
  T.eq(iz.output_units(), iz.OUTPUT_UNITS, "default units")
  T.eq(iz.splash_tail(nil, nil, nil, iz.layout("3.263")):match("cache size set to 1024 (%a+)%."),
    "Kbytes", "3.263 cache line")
  local h = iz.splash_head("b", "d", iz.layout("3.263"))
  T.ok(h:find("\t             Randy Dunlap, Mark Montague, Dan Million, \n"
    .. "\t             Jean-Marc Zucconi, Jeff Blomberg,\n"
    .. "\t             Erik Habbinga, Kris Strecker, Walter Wong.\n\n\tRun began: d\n\n", 1, true),
    "3.263 contributors")
  T.ok(h:find("Version $Revision: 3.263 $", 1, true), "3.263 version")
  h = iz.splash_head("b", "d", iz.layout("3.420"))
  T.ok(h:find("Vangel Bojaxhi, Ben England, Vikentsi Lapa.\n\n\tRun began", 1, true), "3.420 ends there")
  T.eq(iz.splash_head("b", "d", iz.layout("3.506")):gsub("3%.506", "3.489"), iz.splash_head("b", "d"),
    "3.506: 3.489's contributors")
end)

T.test("throughput: the child's floats and the report (printf of iozone's lines)", function()
  -- two children: 512 kB in 0.5 s and in 0.75 s; the parent waited 1.25 s
  local a = iz.child_result(512, 0.5 - iz.TIME_RES)
  local b = iz.child_result(512, 0.75 - iz.TIME_RES)
  T.eq(string.format("%.10f", a.throughput), "1024.0020751953", "float time, float rate")
  T.eq(string.format("%.10f", b.throughput), "682.6676025391", "float rate")
  T.eq(string.format("%.10f", iz.child_result(512, 1 / 3 - iz.TIME_RES).throughput),
    "1536.0046386719", "a third of a second")
  local want = "\tChildren see throughput for  2 initial writers \t=    1706.67 kB/sec\n"
    .. "\tParent sees throughput for  2 initial writers \t=     819.20 kB/sec\n"
    .. "\tMin throughput per process \t\t\t=     682.67 kB/sec \n"
    .. "\tMax throughput per process \t\t\t=    1024.00 kB/sec\n"
    .. "\tAvg throughput per process \t\t\t=     853.33 kB/sec\n"
    .. "\tMin xfer \t\t\t\t\t=     512.00 kB\n"
  T.eq(iz.throughput_report("%2d initial writers \t", 2, { a, b }, 1.25 - iz.TIME_RES, "process", "kB"),
    want, "report")
  local c = iz.child_result(100, 1, 1, 0.5)
  local d = iz.child_result(100, 1, 2, 0.5)
  T.eq(iz.cpu_line({ c, d }, { res = 0.001, first = true }),
    "\tCPU Utilization: Wall time    2.000    CPU time    1.000    CPU utilization  50.00 %\n\n",
    "writers: capital U, the longest wall time, CPU summed")
  T.eq(iz.cpu_line({ c, d }, { res = 0.001 }):sub(1, 17), "\tCPU utilization:", "others")
  T.eq(iz.cpu_line({ iz.child_result(1, 1, 0, 0) }, { res = 0.001 }),
    "\tCPU utilization: Wall time    0.000    CPU time    0.000    CPU utilization   0.00 %\n\n",
    "no wall time")
end)

T.test("getopt: -F takes the names that follow it", function()
  local got = iz.getopt({ "-t", "2", "-F", "a", "b", "-i", "0" }, { t = true, i = true, F = "list" })
  T.eq(#got, 3, "three options")
  T.eq(table.concat(got[2][2], ","), "a,b", "-F a b")
  T.eq(got[3][1] .. got[3][2], "i0", "then -i 0")
  got = iz.getopt({ "-Fx", "y" }, { F = "list" })
  T.eq(table.concat(got[1][2], ","), "x,y", "-Fx y")
end)

-- Reads the BIFF 2 records back: { op, row, col, value or text } in order.
local function biff_records(s)
  local recs, pos = {}, 1
  local function u16(at) return s:byte(at) + 256 * s:byte(at + 1) end
  while pos <= #s do
    local op, len = u16(pos), u16(pos + 2)
    local body = s:sub(pos + 4, pos + 3 + len)
    local r = { op = op, len = len }
    if op == 3 or op == 4 then r.row, r.col = u16(pos + 4), u16(pos + 6) end
    if op == 4 then r.text = body:sub(9, 8 + body:byte(8)) end
    if op == 3 then r.bytes = body:sub(8, 15) end
    recs[#recs + 1] = r
    pos = pos + 4 + len
  end
  return recs
end

T.test("biff: -b's worksheet is libbif's records in iozone's layout", function()
  local rows = {
    { 64, 4096, values = { [0] = { 100, 200 } } },
    { 64, 8192, values = { [0] = { 300, 12345 } } },
    { 128, 4096, values = { [0] = { 1, 0 } } },
  }
  local s = iz.biff("iozone -a -b x.xls", { 0 }, { 4096, 8192 }, rows)
  T.eq(s:sub(1, 8), "\9\0\4\0\2\0\16\0", "BOF: BIFF 2 worksheet")
  T.eq(s:sub(-4), "\10\0\0\0", "EOF")
  local r = biff_records(s)
  T.eq(r[2].op, 4, "a label first")
  T.eq(r[2].len, 264, "labels are 264-byte records, as libbif writes them")
  T.eq(r[2].text, "iozone -a -b x.xls", "the command line")
  T.eq(r[3].text, " ", "a blank line")
  T.eq(r[4].text, "The top row is records sizes, the left column is file sizes", "the note")
  T.eq(r[5].text, "Writer Report", "libbif's title")
  T.eq(r[5].row, 3, "titles follow the note")
  -- header: record sizes in kB from column 1 on the row after the title
  T.eq(r[6].op, 3, "a number")
  T.eq(r[6].len, 15, "numbers are 15-byte records")
  T.eq(r[6].row .. ":" .. r[6].col, "4:1", "first record size at row 4, column 1")
  T.eq(r[6].bytes, "\0\0\0\0\0\0\16\64", "4.0 as a little-endian IEEE double")
  T.eq(r[7].bytes, "\0\0\0\0\0\0\32\64", "8.0")
  -- first data row: file size in column 0, then the values
  T.eq(r[8].row .. ":" .. r[8].col, "5:0", "file size in column 0")
  T.eq(r[8].bytes, "\0\0\0\0\0\0\80\64", "64.0")
  T.eq(r[9].bytes, "\0\0\0\0\0\0\89\64", "100.0")
  T.eq(r[10].bytes, "\0\0\0\0\0\192\114\64", "300.0")
  T.eq(r[11].row .. ":" .. r[11].col, "6:0", "next file size on the next row")
  T.eq(r[13].text, "Re-writer Report", "the second report right after the last row")
  T.eq(r[13].row, 7, "no blank row between reports")
  local last = r[#r - 1]
  T.eq(last.bytes, "\0\0\0\0\0\0\0\0", "0 is all zero bytes")
  local re = r[#r - 3]  -- 64 kB at 8 KiB in the re-writer report
  T.eq(re.bytes, "\0\0\0\0\128\28\200\64", "12345.0")
end)

T.test("biff: a command line over 255 bytes keeps libbif's length byte and is cut at 254", function()
  local long = string.rep("x", 300)
  local r = biff_records(iz.biff(long, {}, {}, {}))
  T.eq(r[2].len, 264, "still one 264-byte record")
end)
