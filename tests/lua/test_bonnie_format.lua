-- The Bonnie (1996) and bonnie++ 1.97 printers of platter.classic_bonnie,
-- against the worked examples of shared/spec/classic-benchmarks.md (sections
-- 1 and 2), the tables posted in shared/seeds/001_ed917cbc53480645.txt, and a
-- complete bonnie++ 1.96 run posted on the web (text and CSV).
local T = ...
local B = require "platter.classic_bonnie"

-- A test whose printed rate is `rate` (integer cells truncate, so aim at the
-- middle of [rate, rate + 1)) over `units` (KiB, seeks or files) and whose
-- %CPU prints `pct`.
local function int_cell(rate, units, pct)
  local e = units / (rate + 0.5)
  return { elapsed = e, cpu = e * pct / 100 }
end

-- ---------------------------------------------------------------------------
-- helpers
-- ---------------------------------------------------------------------------

T.test("c_int truncates toward zero and gives INT_MIN out of range, as x86-64", function()
  T.eq(B.c_int(849.99), 849, "positive")
  T.eq(B.c_int(-3.7), -3, "negative")
  T.eq(B.c_int(0), 0, "zero")
  T.eq(B.c_int(2147483647.5), 2147483647, "largest int")
  T.eq(B.c_int(1 / 0), -2147483648, "inf")
  T.eq(B.c_int(0 / 0), -2147483648, "nan")
  T.eq(B.c_int(3e9), -2147483648, "too large")
end)

T.test("ffmt is %W.Pf with glibc's inf and nan", function()
  T.eq(B.ffmt(4, 1, 4.2), " 4.2", "%4.1f of 4.2")
  T.eq(B.ffmt(4, 1, 86.899), "86.9", "rounding")
  T.eq(B.ffmt(4, 1, 104.8), "104.8", "a wide value widens")
  T.eq(B.ffmt(5, 1, 1 / 0), "  inf", "inf")
  T.eq(B.ffmt(4, 1, 0 / 0), "-nan", "x86 default NaN")
end)

-- ---------------------------------------------------------------------------
-- Bonnie 1996
-- ---------------------------------------------------------------------------

local MB100 = 100 * 1048576

T.test("Bonnie: the three header lines, the first two indented 14 spaces", function()
  T.eq(B.BONNIE_HEADER,
    "              -------Sequential Output-------- ---Sequential Input-- --Random--\n"
    .. "              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---\n"
    .. "Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU\n",
    "header")
end)

T.test("Bonnie: K/sec truncates and %CPU is cpu/elapsed (spec: 120.6 s, 104.8 s CPU)", function()
  local kps, pct = B.bonnie_rate(MB100, { elapsed = 120.6, cpu = 104.8 })
  T.eq(kps, 849, "K/sec")
  T.eq(string.format("%4.1f", pct), "86.9", "%CPU")
  local sps = B.bonnie_seek_rate({ elapsed = 27.62, cpu = 1.16 })
  T.eq(string.format("%5.1f", sps), "144.8", "seeks/s = 4000/27.62")
end)

-- the spec's example row
local function spec_row()
  return {
    putc = { elapsed = 120.6, cpu = 104.8 },
    fastwrite = int_cell(12356, 102400, 60.0),
    rewrite = int_cell(4009, 102400, 32.1),
    getc = int_cell(1863, 102400, 81.6),
    fastread = int_cell(10624, 102400, 26.5),
    seeks = { elapsed = 27.62, cpu = 27.62 * 0.042 },
  }
end

T.test("Bonnie: the spec's worked row, two spaces before the seeks' %CPU", function()
  T.eq(B.bonnie_row("", MB100, spec_row()),
    "          100   849 86.9 12356 60.0  4009 32.1  1863 81.6 10624 26.5 144.8  4.2\n", "row")
end)

T.test("Bonnie: the label is %-8.8s (cut to 8) and the size %4d MiB", function()
  local row = B.bonnie_row("averylonglabel", 2047 * 1048576, spec_row())
  T.eq(row:sub(1, 14), "averylon 2047 ", "prefix")
  row = B.bonnie_row("box", 12 * 1048576, spec_row())
  T.eq(row:sub(1, 14), "box        12 ", "short label")
end)

T.test("Bonnie: wide values widen the row", function()
  local r = spec_row()
  r.fastread = int_cell(123456, 102400, 100.5)
  local row = B.bonnie_row("", MB100, r)
  T.has(row, "1863 81.6 123456 100.5 144.8", "wide cells")
  r = spec_row()
  r.fastwrite = int_cell(1234567, 102400, 104.2)
  T.has(B.bonnie_row("", MB100, r), " 1863 81.6 ", "getc still there")
  T.has(B.bonnie_row("", MB100, r), "  849 86.9 1234567 104.2  4009 32.1 ", "wide cells")
end)

T.test("Bonnie: the full text report is the header plus the row", function()
  T.eq(B.bonnie_report("", MB100, spec_row()), B.BONNIE_HEADER
    .. "          100   849 86.9 12356 60.0  4009 32.1  1863 81.6 10624 26.5 144.8  4.2\n",
    "report")
end)

T.test("Bonnie: -html is one row, %d for rates, no table and no header", function()
  T.eq(B.bonnie_html("box", MB100, spec_row()),
    "<TR><TD>box</TD><TD>100</TD><TD>849</TD><TD>86.9</TD><TD>12356</TD><TD>60.0</TD>"
    .. "<TD>4009</TD><TD>32.1</TD><TD>1863</TD><TD>81.6</TD><TD>10624</TD><TD>26.5</TD>"
    .. "<TD>144.8</TD><TD> 4.2</TD></TR>\n", "html")
  T.has(B.bonnie_html("a-label-longer-than-8", MB100, spec_row()),
    "<TD>a-label-longer-than-8</TD>", "no cut in html")
end)

T.test("Bonnie: a test that did not run (Ctrl-C) is blank cells of its width", function()
  local r = spec_row()
  r.fastwrite, r.getc, r.fastread, r.seeks = nil, nil, nil, nil
  local full = B.bonnie_row("", MB100, spec_row())
  local row = B.bonnie_row("", MB100, r)
  T.eq(#row, #full, "same width")
  T.eq(row, "          100   849 86.9             4009 32.1 " .. string.rep(" ", 32) .. "\n", "row")
  T.eq(B.bonnie_html("", MB100, { putc = spec_row().putc }),
    "<TR><TD></TD><TD>100</TD><TD>849</TD><TD>86.9</TD>"
    .. string.rep("<TD></TD>", 10) .. "</TR>\n", "html")
end)

-- shared/seeds/001: five posted rows (100 MB, empty label). The post squeezed
-- the two spaces before the last %CPU; with runs of spaces squeezed the rows
-- printed from the same figures are the posted ones.
local SEED_ROWS = {
  { "          100   849 86.9 12357 60.0  4009 32.1  1863 81.6 10625 26.5 144.8 4.2",
    { 849, 86.9, 12357, 60.0, 4009, 32.1, 1863, 81.6, 10625, 26.5, 144.8, 4.2 } },
  { "          100   978 98.1 14486 64.8  5198 40.5  2116 91.3 12535 32.8 170.6 4.6",
    { 978, 98.1, 14486, 64.8, 5198, 40.5, 2116, 91.3, 12535, 32.8, 170.6, 4.6 } },
  { "          100   966 97.3  3973 13.0  1575 10.6  2053 88.8  1871  4.5  85.4 2.5",
    { 966, 97.3, 3973, 13.0, 1575, 10.6, 2053, 88.8, 1871, 4.5, 85.4, 2.5 } },
  { "          100   495 49.7 10714 44.9  3144 24.4  1568 75.1 10184 25.4 103.7 3.7",
    { 495, 49.7, 10714, 44.9, 3144, 24.4, 1568, 75.1, 10184, 25.4, 103.7, 3.7 } },
  { "          100   494 49.7  3817 13.3  1426 11.2  1764 79.3  4149 10.3  99.5 2.6",
    { 494, 49.7, 3817, 13.3, 1426, 11.2, 1764, 79.3, 4149, 10.3, 99.5, 2.6 } },
}

T.test("Bonnie: the seed's five posted rows, up to the squeezed space", function()
  for i, case in ipairs(SEED_ROWS) do
    local v = case[2]
    local r = {}
    for k, name in ipairs(B.BONNIE_COLUMNS) do
      r[name] = int_cell(v[2 * k - 1], 102400, v[2 * k])
    end
    local e = 4000 / v[11]
    r.seeks = { elapsed = e, cpu = e * v[12] / 100 }
    local row = B.bonnie_row("", MB100, r)
    T.eq(row:sub(-1), "\n", "row " .. i .. " ends in a newline")
    T.eq((row:sub(1, -2):gsub("  +", " ")), (case[1]:gsub("  +", " ")), "row " .. i)
    T.eq(row:sub(1, 72), case[1]:sub(1, 72), "row " .. i .. " up to the seeks")
  end
end)

-- ---------------------------------------------------------------------------
-- bonnie++ 1.97
-- ---------------------------------------------------------------------------

T.test("bonnie++: size_from_str multiplies by the letter's place in conv", function()
  T.eq(B.pp_size_from_str("300", "gt"), 300, "plain")
  T.eq(B.pp_size_from_str("2g", "gt"), 2048, "g in MiB")
  T.eq(B.pp_size_from_str("2G", "gt"), 2048, "upper case")
  T.eq(B.pp_size_from_str("1t", "gt"), 1048576, "t")
  T.eq(B.pp_size_from_str("16k", "k"), 16384, "chunk k")
  T.eq(B.pp_size_from_str("4m", "kmg"), 4194304, "m")
  T.eq(B.pp_size_from_str("4x", "k"), 4, "an unknown letter is ignored, as atoi does")
  T.eq(B.pp_size_from_str("x", "k"), nil, "no number")
end)

T.test("bonnie++: print_size", function()
  T.eq(B.pp_size(300, "MG"), "300M", "300M")
  T.eq(B.pp_size(2048, "MG"), "2G", "2G")
  T.eq(B.pp_size(12288, "MG"), "12G", "12G")
  T.eq(B.pp_size(1536, "MG"), "1536M", "not whole GiB")
  T.eq(B.pp_size(0, "MG"), "0M", "zero")
  T.eq(B.pp_size(1048576, "MG"), "1024G", "no letter past G")
  T.eq(B.pp_size(16384, " km"), "16k", "chunk 16k")
  T.eq(B.pp_size(512, " km"), "512", "bytes: the ' ' unit is dropped")
  T.eq(B.pp_size(1048576, " km"), "1m", "1m")
end)

T.test("bonnie++: latency units", function()
  T.eq(B.pp_latency(0), "", "none")
  T.eq(B.pp_latency(nil), "", "nil")
  T.eq(B.pp_latency(0.0183105), "18310us", "us")
  T.eq(B.pp_latency(0.099999), "99999us", "the us limit")
  T.eq(B.pp_latency(0.0999985), "99998us", "under the limit")
  T.eq(B.pp_latency(0.0999995), "99ms", "just over 0.099999 s is already ms")
  T.eq(B.pp_latency(1.2345), "1234ms", "ms")
  T.eq(B.pp_latency(99.9), "99900ms", "ms up to 99.999999")
  T.eq(B.pp_latency(123.7), "123s", "s")
end)

T.test("bonnie++: the 19-character row prefix", function()
  T.eq(B.pp_row_prefix("myhost", "2G"), "myhost           2G", "short name")
  T.eq(#B.pp_row_prefix("myhost", "2G"), 19, "19 characters")
  T.eq(B.pp_row_prefix("averyveryverylongname", "300M"), "averyveryveryl 300M", "cut to 18 - #size")
  T.eq(B.pp_row_prefix("box", "300M:16k"), "box        300M:16k", "with a chunk")
  T.eq(B.pp_row_prefix("", "12G"), "                12G", "empty name")
end)

-- the spec's text example; its per-char test is 2 GiB (-f 2048) so the
-- 46500 K/sec figure is not under 0.5 s
local function spec_pp()
  local kib = 2048 * 1024
  local t = {
    putc = int_cell(46500, kib, 98.5), put_block = int_cell(96642, kib, 21.5),
    rewrite = int_cell(40098, kib, 10.5), getc = int_cell(43781, kib, 95.5),
    get_block = int_cell(115228, kib, 12.5),
  }
  local e = 8192 / 233.4
  t.seeks = { elapsed = e, cpu = e * 0.015 }
  local lat = { 0.0183105, 1.2345, 0.5675, 0.0208875, 0.0987655, 0.3455 }
  for i, k in ipairs(B.PP_IO_TESTS) do t[k].latency = lat[i] end
  return { name = "myhost", concurrency = 1, seed = "1234", file_size = 2048, char_size = 2048,
    num_files = 0, t = t }
end

T.test("bonnie++: the spec's 1.97 text example", function()
  T.eq(B.pp_text_io(spec_pp()),
    "Version  1.97       ------Sequential Output------ --Sequential Input- --Random-\n"
    .. "Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
    .. "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
    .. "myhost           2G 46500  98 96642  21 40098  10 43781  95 115228  12 233.4   1\n"
    .. "Latency             18310us    1234ms     567ms   20887us   98765us     345ms\n",
    "text")
  -- -n 0: the file block is the lone newline 1.97 prints anyway
  T.eq(B.pp_text_file(spec_pp()), "\n", "no file tests")
end)

T.test("bonnie++: the spec's CSV start, empty fields kept", function()
  local line = B.pp_csv(spec_pp())
  T.eq(line:sub(1, 38), "1.97,1.97,myhost,1,1234,2G,,46500,98,9", "start")
  T.eq(line,
    "1.97,1.97,myhost,1,1234,2G,,46500,98,96642,21,40098,10,43781,95,115228,12,233.4,1"
    .. ",,,,,,,,,,,,,,,,,"
    .. ",18310us,1234ms,567ms,20887us,98765us,345ms,,,,,,\n", "whole line")
  local n = select(2, line:gsub(",", ","))
  T.eq(n, 6 + 12 + 5 + 12 + 12, "commas: 7 + 12 + 5 + 12 + 12 fields")
end)

T.test("bonnie++: a non-default chunk, skipped and short tests", function()
  local R = spec_pp()
  R.io_chunk = 16384
  R.file_size = 300
  R.t.putc, R.t.getc = nil, nil  -- -f: no per-char tests
  R.t.rewrite.elapsed = 0.4      -- under 0.5 s
  R.t.seeks = { elapsed = 1.0, cpu = 0.5, latency = 0.01 }  -- 8192/s: %5.0f
  local txt = B.pp_text_io(R)
  T.has(txt, "\nMachine   Size:chnk K/sec", "Size:chnk")
  T.has(txt, "\nmyhost     300M:16k           ", "row with blank per-char cells")
  T.has(txt, " +++++ +++           ", "+++++ then the blank getc")
  T.has(txt, "  8192  50\n", "seeks over 1000 with no decimals")
  local csv = B.pp_csv(R)
  T.has(csv, "1.97,1.97,myhost,1,1234,300M,16k,,,", "chunk field and blank putc")
  T.has(csv, ",+++++,+++,,,", "+++++ and blank getc")
  T.has(csv, ",8192,50,", "seeks %.0f")
end)

-- ---------------------------------------------------------------------------
-- A whole bonnie++ 1.96 run posted on the web (same layout as 1.97): stderr
-- aside, what it printed on stdout.
-- ---------------------------------------------------------------------------

local POSTED_196 = [[
Version  1.96       ------Sequential Output------ --Sequential Input- --Random-
Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP
mattslaptop     12G   328  99 140912  58 73120  36  1646  99 279228  59  5705 224
Latency             26335us     348ms     577ms   18008us   22283us   14196us
Version  1.96       ------Sequential Create------ --------Random Create--------
mattslaptop         -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--
              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
                 16 18330  57 +++++ +++ 29505  77 26768  81 +++++ +++ 26069  65
Latency              8949us    2190us    4107us     612us     209us      91us
1.96,1.96,mattslaptop,1,1274076376,12G,,328,99,140912,58,73120,36,1646,99,279228,59,5705,224,16,,,,,18330,57,+++++,+++,29505,77,26768,81,+++++,+++,26069,65,26335us,348ms,577ms,18008us,22283us,14196us,8949us,2190us,4107us,612us,209us,91us
]]

local function posted_196()
  local kib = 12288 * 1024
  local t = {
    putc = int_cell(328, 3 * 1024, 99.5), put_block = int_cell(140912, kib, 58.5),
    rewrite = int_cell(73120, kib, 36.5), getc = int_cell(1646, 3 * 1024, 99.5),
    get_block = int_cell(279228, kib, 59.5),
    seq_create = int_cell(18330, 16384, 57.5), seq_stat = { elapsed = 0.3, cpu = 0.3 },
    seq_del = int_cell(29505, 16384, 77.5), ran_create = int_cell(26768, 16384, 81.5),
    ran_stat = { elapsed = 0.2, cpu = 0.2 }, ran_del = int_cell(26069, 16384, 65.5),
  }
  local e = 8192 / 5705.2  -- %5.0f rounds: stay below 5705.5
  t.seeks = { elapsed = e, cpu = e * 2.245 }
  local lat = {
    putc = 0.0263355, put_block = 0.3485, rewrite = 0.5775, getc = 0.0180085,
    get_block = 0.0222835, seeks = 0.0141965, seq_create = 0.0089495, seq_stat = 0.0021905,
    seq_del = 0.0041075, ran_create = 0.0006125, ran_stat = 0.0002095, ran_del = 0.0000915,
  }
  for k, v in pairs(lat) do t[k].latency = v end
  return { version = "1.96", csv_version = "1.96", name = "mattslaptop", concurrency = 1,
    seed = "1274076376", file_size = 12288, char_size = 3, num_files = 16, t = t }
end

T.test("bonnie++: a posted 1.96 run, text and CSV byte for byte", function()
  local R = posted_196()
  T.eq(B.pp_text(R) .. B.pp_csv(R), POSTED_196, "stdout")
end)

T.test("bonnie++: the file block's variants (-n N:max:min/dirs, links)", function()
  local R = posted_196()
  R.max_size, R.min_size = 64, 1
  local txt = B.pp_text_file(R)
  T.has(txt, "\nfiles:max:min        /sec %CP", "files:max:min")
  T.has(txt, "\n            16:64:1 18330", "row label")
  T.has(B.pp_csv(R), ",16,64,1,,,18330,57,", "csv max and min")
  R.min_size = 0
  T.has(B.pp_text_file(R), "\nfiles:max            /sec", "files:max")
  T.has(B.pp_text_file(R), "\n            16:64:0 18330", "min 0 still printed")
  T.has(B.pp_csv(R), ",16,64,,,,18330,", "csv max only")
  R.max_size = -1
  T.has(B.pp_text_file(R), "\n            16:link 18330", "links")
  T.has(B.pp_csv(R), ",16,link,,,,18330,", "csv link")
  R.max_size, R.num_dirs = 0, 4
  T.has(B.pp_text_file(R), "\n               16/4 18330", "dirs")
  -- 1.97 puts the directory count in the chunk field
  T.has(B.pp_csv(R), ",16,,,,4,18330,", "csv dirs (as 1.97 prints them)")
end)

T.test("bonnie++: -s 0 (file tests only)", function()
  local R = posted_196()
  R.file_size = 0
  T.eq(B.pp_text_io(R), "", "no I/O block")
  T.eq(B.pp_csv(R):sub(1, 60),
    "1.96,1.96,mattslaptop,1,1274076376,,,,,,,,,,,,,,,16,,,,,1833", "csv")
end)

T.test("bonnie++: the CSV header of -x", function()
  local h = B.PP_CSV_HEADER
  T.eq(h:sub(1, 46), "format_version,bonnie_version,name,concurrency", "start")
  T.eq(select(2, h:gsub(",", ",")), 47, "48 fields, as many as a data line")
  T.eq(h:sub(-16), "ran_del_latency\n", "end")
end)

T.test("bonnie++: file names, number first (sequential) or last (random)", function()
  local seq = { 3, 0, 1, 2 }
  local i = 0
  local function rand(n)
    i = i + 1
    return seq[i] % n
  end
  T.eq(B.pp_file_name(26, false, rand), "000000001aabc", "sequential")
  i = 0
  T.eq(B.pp_file_name(26, true, rand), "abc000000001a", "random")
  i = 0
  seq = { 0 }
  T.eq(B.pp_file_name(255, false, rand), "00000000ff", "no extra characters")
end)
