-- platter.classic_bonnie: the report printers of Tim Bray's Bonnie (the 1996
-- release) and of Russell Coker's bonnie++ (1.97, 2.00a, 1.03), byte for byte, shared by
-- workloads/bonnie.lua and workloads/bonnie++.lua. Pure functions of their
-- arguments: no I/O and no clock, so tests/lua/test_bonnie_format.lua can
-- check them against the worked examples of shared/spec/classic-benchmarks.md.
--
-- A measured test is a table { elapsed = s, cpu = s [, latency = s] }; a test
-- that did not run (skipped, or not reached before a Ctrl-C) is nil: both
-- reports print blank cells for it.
local M = {}

local floor, fmt, rep = math.floor, string.format, string.rep

-- C's (int) cast of a double as x86-64 does it (cvttsd2si): truncation toward
-- zero, and INT_MIN for NaN and for values out of range, such as a rate over
-- a zero elapsed time.
local function c_int(x)
  if x ~= x or x >= 2147483648 or x <= -2147483649 then return -2147483648 end
  if x >= 0 then return floor(x) end
  return -floor(-x)
end
M.c_int = c_int

-- printf's %W.Pf, with glibc's text for infinities and NaN (the x86 default
-- NaN, from 0.0 / 0.0, has its sign bit set: "-nan"). Lua 5.4 and LuaJIT
-- disagree on those, so they are spelt out here.
local function ffmt(width, prec, x)
  if x ~= x then return fmt("%" .. width .. "s", "-nan") end
  if x == math.huge then return fmt("%" .. width .. "s", "inf") end
  if x == -math.huge then return fmt("%" .. width .. "s", "-inf") end
  return fmt("%" .. width .. "." .. prec .. "f", x)
end
M.ffmt = ffmt

-- ===========================================================================
-- Bonnie (1996 release): Chunk 16384, 4000 seeks by 3 seekers, every 10th
-- seek of each seeker rewrites its block.
-- ===========================================================================

M.BONNIE_CHUNK = 16384
M.BONNIE_SEEKS = 4000
M.BONNIE_SEEKERS = 3
M.BONNIE_UPDATE = 10

-- the table's column order (the phases run in another order)
M.BONNIE_COLUMNS = { "putc", "fastwrite", "rewrite", "getc", "fastread" }

M.BONNIE_HEADER = "              -------Sequential Output-------- ---Sequential Input-- --Random--\n"
  .. "              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---\n"
  .. "Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU\n"

-- One column: K/sec = (int)(size / (elapsed * 1024.0)), truncated; %CPU =
-- cpu / elapsed * 100 as a double.
function M.bonnie_rate(size, t)
  return c_int(size / (t.elapsed * 1024.0)), t.cpu / t.elapsed * 100.0
end

-- Seeks/s and %CPU of the seek test (seeks: how many, 4000).
function M.bonnie_seek_rate(t, seeks)
  return (seeks or M.BONNIE_SEEKS) / t.elapsed, t.cpu / t.elapsed * 100.0
end

-- size / (1024 * 1024) as the row prints it (an integer division in C)
local function bonnie_mb(size)
  return floor(size / 1048576)
end

-- The result row: "%-8.8s %4d ", then "%5d %4.1f " for putc, fastwrite,
-- rewrite, getc and fastread, then "%5.1f %4.1f\n" for the seeks.
-- r = { putc = t, fastwrite = t, rewrite = t, getc = t, fastread = t, seeks = t }
-- A test that did not run (nil: a Ctrl-C came first) is blank cells of the same
-- width, as its successor bonnie++ prints a skipped test; the 1996 release
-- itself always ran every test and printed nothing when interrupted.
function M.bonnie_row(label, size, r)
  local out = { fmt("%-8.8s %4d ", label, bonnie_mb(size)) }
  for _, k in ipairs(M.BONNIE_COLUMNS) do
    if r[k] then
      local kps, pct = M.bonnie_rate(size, r[k])
      out[#out + 1] = fmt("%5d ", kps) .. ffmt(4, 1, pct) .. " "
    else
      out[#out + 1] = rep(" ", 11)
    end
  end
  if r.seeks then
    local sps, pct = M.bonnie_seek_rate(r.seeks, r.seeks.count)
    out[#out + 1] = ffmt(5, 1, sps) .. " " .. ffmt(4, 1, pct) .. "\n"
  else
    out[#out + 1] = rep(" ", 10) .. "\n"
  end
  return table.concat(out)
end

-- The text report on stdout: the three header lines and the row.
function M.bonnie_report(label, size, r)
  return M.BONNIE_HEADER .. M.bonnie_row(label, size, r)
end

-- -html: one table row and nothing else (no <TABLE>, no header). A test that
-- did not run has empty cells.
function M.bonnie_html(label, size, r)
  local out = { fmt("<TR><TD>%s</TD><TD>%d</TD>", label, bonnie_mb(size)) }
  for _, k in ipairs(M.BONNIE_COLUMNS) do
    if r[k] then
      local kps, pct = M.bonnie_rate(size, r[k])
      out[#out + 1] = fmt("<TD>%d</TD><TD>", kps) .. ffmt(4, 1, pct) .. "</TD>"
    else
      out[#out + 1] = "<TD></TD><TD></TD>"
    end
  end
  if r.seeks then
    local sps, pct = M.bonnie_seek_rate(r.seeks, r.seeks.count)
    out[#out + 1] = "<TD>" .. ffmt(5, 1, sps) .. "</TD><TD>" .. ffmt(4, 1, pct) .. "</TD></TR>\n"
  else
    out[#out + 1] = "<TD></TD><TD></TD></TR>\n"
  end
  return table.concat(out)
end

-- The usage line the 1996 parser prints (to stderr) for anything it does not know.
M.BONNIE_USAGE = "usage: Bonnie [-d scratch-dir] [-s size-in-Mb] [-html] [-m machine-label]\n"

-- ===========================================================================
-- bonnie++ 1.97 (bon_time.cpp): text report and CSV format 1.97.
-- ===========================================================================

M.PP_VERSION = "1.97"
M.PP_CSV_VERSION = "1.97"
M.PP_CHUNK = 8192           -- DefaultChunkSize (1 << 13)
M.PP_SEEKS = 8192
M.PP_SEEKERS = 5
M.PP_UPDATE = 10            -- a ticket divisible by 10 rewrites its block
M.PP_MIN_TIME = 0.5         -- shorter tests print +++++
M.PP_UNIT = 1048576         -- sizes are in MiB
M.PP_DIR_UNIT = 1024        -- -n counts files in units of 1024
M.PP_BYTE_IO = 3            -- MiB of per-character I/O (-f N)
M.PP_FILE_SIZE = 300        -- -s default, MiB
M.PP_DIR_SIZE = 16          -- -n default, x 1024 files
M.PP_RAND_EXTRA = 12        -- up to 12 random characters in a file name
M.PP_NAME_LEN = 10 + 12     -- "%010x" + the random characters
M.PP_DATA_PER_FILE = M.PP_NAME_LEN + 6 + 1 + 8  -- + directory index, NUL, pointer (64-bit)

M.PP_IO_TESTS = { "putc", "put_block", "rewrite", "getc", "get_block", "seeks" }
M.PP_FILE_TESTS = { "seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del" }

-- size_from_str(str, conv): atoi, then a last letter found in conv at place i
-- (0, 1, 2) multiplies by 2^10, 2^20 or 2^30. Returns nil for a word that
-- does not start with a number (atoi would silently give 0).
function M.pp_size_from_str(s, conv)
  local n = tonumber(s:match("^%s*([+-]?%d+)"))
  if not n then return nil end
  local c = s:sub(-1):lower()
  for i = 1, math.min(#conv, 3) do
    if c == conv:sub(i, i) then return n * 2 ^ (10 * i) end
  end
  return n
end

-- print_size(buf, size, units): "%d" plus a unit letter; each whole 1024
-- moves to the next letter while there is one. A unit of ' ' is dropped.
function M.pp_size(size, units)
  local s
  if size == 0 then
    s = "0" .. units:sub(1, 1)
  else
    local ind = 1
    while size % 1024 == 0 and ind < #units do
      size = size / 1024
      ind = ind + 1
    end
    s = fmt("%d%s", size, units:sub(ind, ind))
  end
  if s:sub(-1) == " " then s = s:sub(1, -2) end
  return s
end

-- print_latency: "%ds" over 99.999999 s, "%dms" over 0.099999 s, else "%dus";
-- "" when nothing was measured. The C buffer holds 9 characters.
function M.pp_latency(sec)
  local s
  if not sec or sec == 0 then
    s = ""
  elseif sec > 99.999999 then
    s = fmt("%ds", c_int(sec))
  elseif sec > 0.099999 then
    s = fmt("%dms", c_int(sec * 1000.0))
  else
    s = fmt("%dus", c_int(sec * 1000000.0))
  end
  return s:sub(1, 9)
end

-- print_stat + print_cpu_stat: the value and %CP cells of one test, in text
-- (" %5d %3d") or CSV (",%d,%d"). test_size is what elapsed is divided by:
-- KiB for the I/O tests, the seek count, or the number of files.
-- 2.00a's text cell of an I/O rate (KiB/s): k, m or g as the size needs
local function rate_200(stat)
  if stat < 10000.0 then return fmt(" %4dk", c_int(stat)) end
  if stat / 1024.0 < 1000.0 then
    local mib = stat / 1024.0
    if mib < 100.0 then return " " .. ffmt(4, 1, mib) .. "m" end
    return fmt(" %4dm", c_int(mib + 0.5))
  end
  return " " .. ffmt(4, 1, stat / 1024.0 / 1024.0) .. "g"
end

-- style: nil (1.97), "2.00a io" or "2.00a file" (its text cells)
local function stat_cells(t, test_size, seek, csv, style)
  local e = t and t.elapsed or 0
  local v, c
  if e == 0 then
    v, c = csv and "," or "      ", csv and "," or "    "
  elseif e < M.PP_MIN_TIME then
    v, c = csv and ",+++++" or " +++++", csv and ",+++" or " +++"
  else
    local stat = test_size / e
    if seek then
      local f = stat >= 1000.0 and "%.0f" or "%.1f"
      v = csv and ("," .. fmt(f, stat)) or (" " .. ffmt(5, stat >= 1000.0 and 0 or 1, stat))
    elseif not csv and style == "2.00a io" then
      v = rate_200(stat)
    elseif not csv and style == "2.00a file" then
      -- 2.00a hands the double to " %5d": Debian's build prints the integer
      -- argument register, which still holds test_size (the file count)
      v = fmt(" %5d", test_size)
    else
      v = fmt(csv and ",%d" or " %5d", c_int(stat))
    end
    c = fmt(csv and ",%d" or " %3d", c_int(t.cpu / e * 100.0))
  end
  return v .. c
end
M.pp_stat_cells = stat_cells

-- The 19-character row prefix: the name, space-padded and cut, a space, and
-- the size ending at column 19 (bon_time.cpp's snprintf into 19 bytes).
function M.pp_row_prefix(name, size_buf)
  local buf = (name .. rep(" ", 18)):sub(1, 18)
  local cut = 18 - #size_buf
  if cut < 0 then cut = 0 end
  return buf:sub(1, cut) .. " " .. size_buf
end

local function io_sizes(R)
  return (R.char_size or 0) * 1024, (R.file_size or 0) * 1024
end

-- R, the report: version, csv_version (default 1.97), name, concurrency,
-- seed (text), file_size and char_size (MiB), io_chunk (bytes), num_files
-- (x 1024), max_size, min_size, num_dirs, file_chunk, and t = { [test] = t }.
local function defaults(R)
  return R.version or M.PP_VERSION, R.csv_version or M.PP_CSV_VERSION,
    R.io_chunk or M.PP_CHUNK, R.concurrency or 1
end

-- 2.00a's text size cell: size[:chunk[:concurrency[:seeks[:procs]]]], the
-- defaults left empty and trailing colons cut. Its loop starts one character
-- early when procs is set, so a one-digit procs is cut with them, as 2.00a
-- prints it ("64M:16k:2:1000" for -s 64:16k:1000:3 -c 2).
function M.pp_size_200(R)
  local chunk, conc = R.io_chunk or M.PP_CHUNK, R.concurrency or 1
  local seeks, procs = R.seeks or M.PP_SEEKS, R.seek_procs or M.PP_SEEKERS
  local s = M.pp_size(R.file_size, "MG") .. ":"
    .. (chunk ~= M.PP_CHUNK and M.pp_size(chunk, " km") or "") .. ":"
    .. (conc ~= 1 and fmt("%d", conc) or "") .. ":"
    .. (seeks ~= M.PP_SEEKS and fmt("%d", seeks) or "") .. ":"
  local i = #s
  if procs ~= M.PP_SEEKERS then
    s = s .. fmt("%d", procs)
    i = #s - 1
  end
  while i > 1 and s:sub(i, i) == ":" do
    s = s:sub(1, i - 1)
    i = i - 1
  end
  return s
end

local function text_io_200(R)
  local t = R.t or {}
  local out = {
    fmt("Version %5s       ", R.version or "2.00a"),
    "------Sequential Output------ --Sequential Input- --Random-\n",
    "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n",
    "Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n",
  }
  local size_buf = M.pp_size_200(R)
  -- a size of more than 18 characters starts the row (1.97 wrote before its buffer)
  out[#out + 1] = #size_buf > 18 and size_buf or M.pp_row_prefix(R.name or "", size_buf)
  local char_kib, file_kib = io_sizes(R)
  for _, k in ipairs(M.PP_IO_TESTS) do
    if k == "seeks" then
      out[#out + 1] = stat_cells(t.seeks, R.seeks or M.PP_SEEKS, true, false)
    else
      out[#out + 1] = stat_cells(t[k], (k == "putc" or k == "getc") and char_kib or file_kib,
        false, false, "2.00a io")
    end
  end
  out[#out + 1] = "\nLatency          "
  for _, k in ipairs(M.PP_IO_TESTS) do
    out[#out + 1] = fmt(" %9s", M.pp_latency(t[k] and t[k].latency))
  end
  out[#out + 1] = "\n"
  return table.concat(out)
end

-- DoReportIO, text: "" when the I/O tests were off (-s 0).
function M.pp_text_io(R)
  local version, _, chunk, conc = defaults(R)
  if (R.file_size or 0) == 0 then return "" end
  if R.as == "2.00a" then return text_io_200(R) end
  local t = R.t or {}
  local out = {
    fmt("Version %5s       ", version),
    "------Sequential Output------ --Sequential Input- --Random-\n",
    fmt("Concurrency %3d     ", conc),
    "-Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n",
    chunk == M.PP_CHUNK and "Machine        Size " or "Machine   Size:chnk ",
    "K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n",
  }
  local size_buf = M.pp_size(R.file_size, "MG")
  if chunk ~= M.PP_CHUNK then size_buf = size_buf .. ":" .. M.pp_size(chunk, " km") end
  out[#out + 1] = M.pp_row_prefix(R.name or "", size_buf)
  local char_kib, file_kib = io_sizes(R)
  for _, k in ipairs(M.PP_IO_TESTS) do
    if k == "seeks" then
      out[#out + 1] = stat_cells(t.seeks, M.PP_SEEKS, true, false)
    else
      out[#out + 1] = stat_cells(t[k], (k == "putc" or k == "getc") and char_kib or file_kib,
        false, false)
    end
  end
  out[#out + 1] = "\nLatency          "
  for _, k in ipairs(M.PP_IO_TESTS) do
    out[#out + 1] = fmt(" %9s", M.pp_latency(t[k] and t[k].latency))
  end
  out[#out + 1] = "\n"
  return table.concat(out)
end

-- The files cell of the text row: N[:max:min | :link | :symlink][/dirs]
local function files_text(R)
  local s = fmt("%d", R.num_files)
  local max, min = R.max_size or 0, R.min_size or 0
  if max == -1 then
    s = s .. ":link"
  elseif max == -2 then
    s = s .. ":symlink"
  elseif max ~= 0 then
    s = s .. fmt(":%d:%d", max, min)
  end
  if (R.num_dirs or 1) > 1 then s = s .. fmt("/%d", R.num_dirs) end
  return s
end

-- The same in the CSV: num_files,max_size,min_size,num_dirs,file_chunk_size.
-- 1.97 writes a non-default file chunk past the string's end, so it never
-- shows, and puts the directory count in the chunk field: both kept.
local function files_csv(R)
  local s = fmt("%d", R.num_files)
  local max, min = R.max_size or 0, R.min_size or 0
  if max == -1 then
    s = s .. ",link,"
  elseif max == -2 then
    s = s .. ",symlink,"
  elseif max ~= 0 then
    s = s .. (min ~= 0 and fmt(",%d,%d", max, min) or fmt(",%d,", max))
  else
    s = s .. ",,"
  end
  s = s .. ","
  if (R.num_dirs or 1) > 1 then
    s = s .. fmt(",%d", R.num_dirs)
  else
    s = s .. ","
  end
  return s
end

-- DoReportFile, text. With no file tests (-n 0) it is the lone "\n" that
-- 1.97 prints anyway.
function M.pp_text_file(R)
  local version = defaults(R)
  if (R.num_files or 0) == 0 then return "\n" end
  local t = R.t or {}
  local max, min = R.max_size or 0, R.min_size or 0
  local out = {
    fmt("Version %5s       ", version),
    "------Sequential Create------ --------Random Create--------\n",
    fmt("%-19.19s ", R.name or ""),
    "-Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n",
    min ~= 0 and "files:max:min       " or (max ~= 0 and "files:max           "
      or "              files "),
    " /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n",
    fmt("%19s", files_text(R)),
  }
  for _, k in ipairs(M.PP_FILE_TESTS) do
    out[#out + 1] = stat_cells(t[k], R.num_files * M.PP_DIR_UNIT, false, false,
      R.as == "2.00a" and "2.00a file" or nil)
  end
  out[#out + 1] = "\nLatency          "
  for _, k in ipairs(M.PP_FILE_TESTS) do
    out[#out + 1] = fmt(" %9s", M.pp_latency(t[k] and t[k].latency))
  end
  out[#out + 1] = "\n"
  return table.concat(out)
end

-- The whole text report (DoReportIO + DoReportFile).
function M.pp_text(R)
  if R.as == "1.03" or R.as == "1.03e" then return M.pp_text_103(R) end
  return M.pp_text_io(R) .. M.pp_text_file(R)
end

-- The CSV header line that -x N (N > 1) prints first.
M.PP_CSV_HEADER = "format_version,bonnie_version,name,concurrency,seed,file_size,"
  .. "io_chunk_size,putc,putc_cpu,put_block,put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu,"
  .. "get_block,get_block_cpu,seeks,seeks_cpu"
  .. ",num_files,max_size,min_size,num_dirs,file_chunk_size,seq_create,seq_create_cpu,"
  .. "seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,ran_create,ran_create_cpu,ran_stat,"
  .. "ran_stat_cpu,ran_del,ran_del_cpu"
  .. ",putc_latency,put_block_latency,rewrite_latency,getc_latency,get_block_latency,"
  .. "seeks_latency,seq_create_latency,seq_stat_latency,seq_del_latency,ran_create_latency,"
  .. "ran_stat_latency,ran_del_latency\n"

-- The CSV header line of -x N (N > 1) of a version (R.as). 2.00a prints
-- 1.97's, without its own seeks and seek_procs fields.
function M.pp_csv_header(as)
  if as == "1.03" or as == "1.03e" then return M.PP_CSV_HEADER_103 end
  return M.PP_CSV_HEADER
end

-- One CSV line (format 1.97; 1.98 for 2.00a, 1.03's own), newline included.
function M.pp_csv(R)
  if R.as == "1.03" or R.as == "1.03e" then return M.pp_csv_103(R) end
  local v200 = R.as == "2.00a"
  local version, csv_version, chunk, conc = defaults(R)
  if v200 then
    version, csv_version = R.version or "2.00a", R.csv_version or "1.98"
  end
  local t = R.t or {}
  local out = { fmt("%s,%s,%s,%d,%s", csv_version, version, R.name or "", conc,
    tostring(R.seed or "")) }
  if (R.file_size or 0) ~= 0 then
    local size_buf = M.pp_size(R.file_size, "MG") .. ","
    if v200 then  -- the chunk never shows; the seek count and seekers follow
      size_buf = size_buf .. fmt(",%d,%d", R.seeks or M.PP_SEEKS, R.seek_procs or M.PP_SEEKERS)
    elseif chunk ~= M.PP_CHUNK then
      size_buf = size_buf .. M.pp_size(chunk, " km")
    end
    out[#out + 1] = "," .. size_buf
    local char_kib, file_kib = io_sizes(R)
    for _, k in ipairs(M.PP_IO_TESTS) do
      if k == "seeks" then
        out[#out + 1] = stat_cells(t.seeks, R.seeks or M.PP_SEEKS, true, true)
      else
        out[#out + 1] = stat_cells(t[k], (k == "putc" or k == "getc") and char_kib or file_kib,
          false, true)
      end
    end
  else
    out[#out + 1] = v200 and ",,,,,,,,,,,,,,,," or ",,,,,,,,,,,,,,"
  end
  if (R.num_files or 0) ~= 0 then
    out[#out + 1] = "," .. files_csv(R)
    for _, k in ipairs(M.PP_FILE_TESTS) do
      out[#out + 1] = stat_cells(t[k], R.num_files * M.PP_DIR_UNIT, false, true)
    end
  else
    out[#out + 1] = ",,,,,,,,,,,,,,,,,"
  end
  for _, k in ipairs(M.PP_IO_TESTS) do
    out[#out + 1] = "," .. M.pp_latency(t[k] and t[k].latency)
  end
  for _, k in ipairs(M.PP_FILE_TESTS) do
    out[#out + 1] = "," .. M.pp_latency(t[k] and t[k].latency)
  end
  out[#out + 1] = "\n"
  return table.concat(out)
end

-- ===========================================================================
-- bonnie++ 1.03 (bon_time.cpp DoReport): no latency, no concurrency, no seed.
-- ===========================================================================

M.PP_SEEKERS_103 = 3
M.PP_IO_FILE_103 = 1024     -- MiB in each of Bonnie.<pid>.000, .001, ...

M.PP_CSV_HEADER_103 = "name,file_size,putc,putc_cpu,put_block,put_block_cpu,rewrite,"
  .. "rewrite_cpu,getc,getc_cpu,get_block,get_block_cpu,seeks,seeks_cpu,num_files,seq_create,"
  .. "seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,ran_create,ran_create_cpu,"
  .. "ran_stat,ran_stat_cpu,ran_del,ran_del_cpu\n"

-- print_stat / print_file_stat: K/sec = int(MiB / (elapsed / 1024)), files/s
-- = int(N * 1024 / elapsed); the CSV's seeks are always "%.1f".
local function cells_103(t, kind, R, csv)
  local e = t and t.elapsed or 0
  local v, c
  if e == 0 then
    return csv and ",," or "          "
  elseif e < M.PP_MIN_TIME then
    return csv and ",+++++,+++" or " +++++ +++"
  end
  if kind == "seeks" then
    local stat = M.PP_SEEKS / e
    if csv then
      v = "," .. fmt("%.1f", stat)
    else
      v = " " .. ffmt(5, stat >= 1000.0 and 0 or 1, stat)
    end
  else
    local res
    if kind == "file" then
      res = c_int(R.num_files * 1024.0 / e)
    else
      res = c_int(R.file_size / (e / 1024.0))
    end
    v = fmt(csv and ",%d" or " %5d", res)
  end
  c = fmt(csv and ",%d" or " %3d", c_int(t.cpu / e * 100.0))
  return v .. c
end

local function size_103(R)
  local s = R.file_size % 1024 == 0 and fmt("%dG", floor(R.file_size / 1024))
    or fmt("%dM", R.file_size)
  local chunk = R.io_chunk or M.PP_CHUNK
  if chunk ~= M.PP_CHUNK then
    s = s .. (chunk >= 1024 and fmt(":%dk", floor(chunk / 1024)) or fmt(":%d", chunk))
  end
  return s
end

local function files_103(R)
  local s = fmt("%d", R.num_files)
  local max, min = R.max_size or 0, R.min_size or 0
  if max == -1 then
    s = s .. ":link"
  elseif max == -2 then
    s = s .. ":symlink"
  elseif max ~= 0 then
    s = s .. fmt(":%d:%d", max, min)
  end
  if (R.num_dirs or 1) > 1 then s = s .. fmt("/%d", R.num_dirs) end
  return s
end

local IO_KIND = { putc = "io", put_block = "io", rewrite = "io", getc = "io",
  get_block = "io", seeks = "seeks" }

function M.pp_text_103(R)
  local t = R.t or {}
  local out = {}
  local io = (R.file_size or 0) ~= 0
  local chunk = R.io_chunk or M.PP_CHUNK
  if io then
    out[#out + 1] = fmt("Version %5s       ", R.version or "1.03")
      .. "------Sequential Output------ --Sequential Input- --Random-\n"
      .. "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
      .. (chunk == M.PP_CHUNK and "Machine        Size " or "Machine   Size:chnk ")
      .. "K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
    out[#out + 1] = M.pp_row_prefix(R.name or "", size_103(R))
    for _, k in ipairs(M.PP_IO_TESTS) do out[#out + 1] = cells_103(t[k], IO_KIND[k], R, false) end
    out[#out + 1] = "\n"
  end
  if (R.num_files or 0) ~= 0 then
    local max, min = R.max_size or 0, R.min_size or 0
    out[#out + 1] = (io and rep(" ", 20) or fmt("Version %5s       ", R.version or "1.03"))
      .. "------Sequential Create------ --------Random Create--------\n"
      .. (io and rep(" ", 20) or fmt("%-19.19s ", R.name or ""))
      .. "-Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
      .. (min ~= 0 and "files:max:min       " or (max ~= 0 and "files:max           "
        or "              files "))
      .. " /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
      .. fmt("%19s", files_103(R))
    for _, k in ipairs(M.PP_FILE_TESTS) do out[#out + 1] = cells_103(t[k], "file", R, false) end
    out[#out + 1] = "\n"
  end
  return table.concat(out)
end

function M.pp_csv_103(R)
  local t = R.t or {}
  local out = { R.name or "" }
  if (R.file_size or 0) ~= 0 then
    out[#out + 1] = "," .. size_103(R)
    for _, k in ipairs(M.PP_IO_TESTS) do out[#out + 1] = cells_103(t[k], IO_KIND[k], R, true) end
  else
    out[#out + 1] = ",,,,,,,,,,,,,"
  end
  if (R.num_files or 0) ~= 0 then
    out[#out + 1] = "," .. files_103(R)
    for _, k in ipairs(M.PP_FILE_TESTS) do out[#out + 1] = cells_103(t[k], "file", R, true) end
    out[#out + 1] = "\n"
  else
    out[#out + 1] = ",,,,,,,,,,,,,\n"
  end
  return table.concat(out)
end

-- The file names of the create tests: a sequence number ("%010x") and 0-12
-- random alphanumerics, the number first for the sequential tests and last
-- for the random ones. rand(n) returns an integer in [0, n).
local RAND_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
function M.pp_file_name(i, random_order, rand, num_fmt)
  local len = rand(M.PP_RAND_EXTRA + 1)
  local extra = {}
  for j = 1, len do
    local k = rand(#RAND_CHARS) + 1
    extra[j] = RAND_CHARS:sub(k, k)
  end
  extra = table.concat(extra)
  num_fmt = num_fmt or "%010x"  -- 1.03: "%07d"
  if random_order then return extra .. fmt(num_fmt, i) end
  return fmt(num_fmt, i) .. extra
end

-- The usage text bonnie++ 1.97 prints (to stderr) before exiting with 1.
M.PP_USAGE = "usage:\n"
  .. "bonnie++ [-d scratch-dir] [-c concurrency] [-s size(MiB)[:chunk-size(b)]]\n"
  .. "      [-n number-to-stat[:max-size[:min-size][:num-directories[:chunk-size]]]]\n"
  .. "      [-m machine-name] [-r ram-size-in-MiB]\n"
  .. "      [-x number-of-tests] [-u uid-to-use:gid-to-use] [-g gid-to-use]\n"
  .. "      [-q] [-f] [-b] [-p processes | -y] [-z seed | -Z random-file]\n"
  .. "      [-D]\n"
  .. "\nVersion: " .. M.PP_VERSION .. "\n"

return M
