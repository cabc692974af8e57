-- The number printers and parsers of lua/platter/classic.lua against the
-- worked examples of shared/spec/classic-benchmarks.md (dd §5, hdparm §4,
-- ioping §6), seed 002's hdparm lines, and lines printed by GNU dd 9.1 itself
-- (coreutils, run with a faked monotonic clock so byte count and time were known).
local T = ...
local c = require "platter.classic"

-- ---- dd --------------------------------------------------------------------

T.test("dd: the spec's worked examples", function()
  T.eq(c.dd_xfer(67108864, 59647300),
    "67108864 bytes (67 MB, 64 MiB) copied, 0.0596473 s, 1.1 GB/s", "64 MiB")
  T.eq(c.dd_xfer(419430400, 7747910000),
    "419430400 bytes (419 MB, 400 MiB) copied, 7.74791 s, 54.1 MB/s", "400 MiB")
end)

T.test("dd: records lines", function()
  T.eq(c.dd_records(32768, 0, 32768, 0), "32768+0 records in\n32768+0 records out\n")
  T.eq(c.dd_records(8388, 1, 2048, 0), "8388+1 records in\n2048+0 records out\n")
end)

T.test("dd: byte counts below 1000 and 1000-1023 drop the unit part(s)", function()
  T.eq(c.dd_xfer(0, 1e9), "0 bytes copied, 1 s, 0 B/s")
  T.eq(c.dd_xfer(1, 1e9), "1 byte copied, 1 s, 1 B/s")
  T.eq(c.dd_xfer(1, 3e8), "1 byte copied, 0.3 s, 0.0 kB/s")
  T.eq(c.dd_xfer(999, 5e8), "999 bytes copied, 0.5 s, 2.0 kB/s")
  T.eq(c.dd_xfer(1000, 1e9), "1000 bytes (1.0 kB) copied, 1 s, 1.0 kB/s")
  T.eq(c.dd_xfer(1023, 1e9), "1023 bytes (1.0 kB) copied, 1 s, 1.0 kB/s")
  T.eq(c.dd_xfer(1024, 1e9), "1024 bytes (1.0 kB, 1.0 KiB) copied, 1 s, 1.0 kB/s")
end)

T.test("dd: no elapsed time prints Infinity", function()
  T.eq(c.dd_xfer(512, 0), "512 bytes copied, 0 s, Infinity B/s")
  T.eq(c.dd_xfer(512, 0, "8.20"), "512 bytes (512 B) copied, 0 s, Infinity B/s")
end)

T.test("dd: the pre-8.25 line has the SI figure only", function()
  T.eq(c.dd_xfer(67108864, 59647300, "8.20"),
    "67108864 bytes (67 MB) copied, 0.0596473 s, 1.1 GB/s")
  T.eq(c.dd_xfer(1, 1e9, "8.20"), "1 byte (1 B) copied, 1 s, 1 B/s")
end)

T.test("dd: status=progress shows whole seconds", function()
  T.eq(c.dd_xfer(50442240, 1000123456, nil, true),
    "50442240 bytes (50 MB, 48 MiB) copied, 1 s, 50.4 MB/s")
end)

T.test("dd: sizes round to nearest, ties to even tenths (as GNU dd 9.1)", function()
  local cases = {
    { 1050, "1.0 kB" }, { 1150, "1.2 kB" }, { 1250, "1.2 kB" }, { 1350, "1.4 kB" },
    { 1949, "1.9 kB" }, { 1950, "2.0 kB" }, { 9949, "9.9 kB" }, { 9950, "10 kB" },
    { 10500, "10 kB" }, { 11500, "12 kB" }, { 12500, "12 kB" }, { 99949, "100 kB" },
    { 999499, "999 kB" }, { 999500, "1.0 MB" }, { 1000500, "1.0 MB" },
  }
  for _, k in ipairs(cases) do T.eq(c.human(k[1], 1, 1, false), k[2], tostring(k[1])) end
  T.eq(c.human(1048575, 1, 1, true), "1.0 MiB")
  T.eq(c.human(10485759, 1, 1, true), "10 MiB")
  T.eq(c.human(1572864, 1, 1, true), "1.5 MiB")
end)

T.test("dd: lines printed by GNU dd 9.1 for known bytes and nanoseconds", function()
  local cases = {
  { 3240960, 72626625941, "3240960 bytes (3.2 MB, 3.1 MiB) copied, 72.6266 s, 44.6 kB/s" },
  { 65982, 266775074, "65982 bytes (66 kB, 64 KiB) copied, 0.266775 s, 247 kB/s" },
  { 328460, 637897498, "328460 bytes (328 kB, 321 KiB) copied, 0.637897 s, 515 kB/s" },
  { 292864210, 526, "292864210 bytes (293 MB, 279 MiB) copied, 5.26e-07 s, 557 TB/s" },
  { 177831270, 119804, "177831270 bytes (178 MB, 170 MiB) copied, 0.000119804 s, 1.5 TB/s" },
  { 59588, 250000000, "59588 bytes (60 kB, 58 KiB) copied, 0.25 s, 238 kB/s" },
  { 4250, 147000000, "4250 bytes (4.2 kB, 4.2 KiB) copied, 0.147 s, 28.9 kB/s" },
  { 1601550, 265518, "1601550 bytes (1.6 MB, 1.5 MiB) copied, 0.000265518 s, 6.0 GB/s" },
  { 37890000, 809, "37890000 bytes (38 MB, 36 MiB) copied, 8.09e-07 s, 46.8 TB/s" },
  { 14470520, 91803221395, "14470520 bytes (14 MB, 14 MiB) copied, 91.8032 s, 158 kB/s" },
  { 290, 17121427225, "290 bytes copied, 17.1214 s, 0.0 kB/s" },
  { 882180000, 613250705, "882180000 bytes (882 MB, 841 MiB) copied, 0.613251 s, 1.4 GB/s" },
  { 176679000, 15157411, "176679000 bytes (177 MB, 168 MiB) copied, 0.0151574 s, 11.7 GB/s" },
  { 810, 892968718, "810 bytes copied, 0.892969 s, 0.9 kB/s" },
  { 9824718, 50000000, "9824718 bytes (9.8 MB, 9.4 MiB) copied, 0.05 s, 196 MB/s" },
  { 1090240000, 30000000000, "1090240000 bytes (1.1 GB, 1.0 GiB) copied, 30 s, 36 MB/s" },
  { 12830, 32640269515, "12830 bytes (13 kB, 13 KiB) copied, 32.6403 s, 0.4 kB/s" },
  { 173960, 56353000473, "173960 bytes (174 kB, 170 KiB) copied, 56.353 s, 3.1 kB/s" },
  { 1319350, 61000000000, "1319350 bytes (1.3 MB, 1.3 MiB) copied, 61 s, 22 kB/s" },
  { 6768025, 722, "6768025 bytes (6.8 MB, 6.5 MiB) copied, 7.22e-07 s, 9.4 TB/s" },
  { 288378880, 118, "288378880 bytes (288 MB, 275 MiB) copied, 1.18e-07 s, 2.4 PB/s" },
  { 510640000, 100000000000, "510640000 bytes (511 MB, 487 MiB) copied, 100 s, 5.1 MB/s" },
  { 2533300000, 219, "2533300000 bytes (2.5 GB, 2.4 GiB) copied, 2.19e-07 s, 11.6 PB/s" },
  { 6078464, 23306701994, "6078464 bytes (6.1 MB, 5.8 MiB) copied, 23.3067 s, 261 kB/s" },
  { 7550586, 2000000000, "7550586 bytes (7.6 MB, 7.2 MiB) copied, 2 s, 3.8 MB/s" },
    -- the exact integer path of human_readable beyond 2^53 (1 ns, 2 ns)
    { 10485760, 1, "10485760 bytes (10 MB, 10 MiB) copied, 1e-09 s, 10 PB/s" },
    { 33554432, 2, "33554432 bytes (34 MB, 32 MiB) copied, 2e-09 s, 17 PB/s" },
  }
  for _, k in ipairs(cases) do T.eq(c.dd_xfer(k[1], k[2]), k[3], k[1] .. " B in " .. k[2] .. " ns") end
end)

T.test("dd: each era's transfer line (coreutils src/dd.c of 5.3.0, 6.1, 8.24, 8.25, 8.28)",
  function()
  -- 5.3.0 to 6.0 spell the seconds out, singular for exactly one
  T.eq(c.dd_xfer(67108864, 59647300, "5.3"),
    "67108864 bytes (67 MB) copied, 0.0596473 seconds, 1.1 GB/s")
  T.eq(c.dd_xfer(1, 1e9, "5.3"), "1 byte (1 B) copied, 1 second, 1 B/s")
  T.eq(c.dd_xfer(512, 0, "5.3"), "512 bytes (512 B) copied, 0 seconds, Infinity B/s")
  -- 6.1 to 8.24: the SI symbol "s"
  T.eq(c.dd_xfer(67108864, 59647300, "6.1"),
    "67108864 bytes (67 MB) copied, 0.0596473 s, 1.1 GB/s")
  -- status=progress: 8.24 "%.6f s", 8.25 to 8.27 "%g s", 8.28 on "%.0f s"
  T.eq(c.dd_xfer(67108864, 2059647300, "8.24", true),
    "67108864 bytes (67 MB) copied, 2.059647 s, 32.6 MB/s")
  T.eq(c.dd_xfer(67108864, 2059647300, "8.25", true),
    "67108864 bytes (67 MB, 64 MiB) copied, 2.05965 s, 32.6 MB/s")
  T.eq(c.dd_xfer(67108864, 2059647300, "9.1", true),
    "67108864 bytes (67 MB, 64 MiB) copied, 2 s, 32.6 MB/s")
  T.eq(c.dd_xfer(67108864, 2059647300, nil, true), c.dd_xfer(67108864, 2059647300, "9.1", true))
end)

T.test("dd: the LC_NUMERIC decimal point goes into every number (as GNU dd 9.1 prints it)",
  function()
  T.eq(c.dd_xfer(67108864, 59647300, "9.1", false, ","),
    "67108864 bytes (67 MB, 64 MiB) copied, 0,0596473 s, 1,1 GB/s")
  T.eq(c.dd_xfer(1500000, 1e9, "6.1", false, ","), "1500000 bytes (1,5 MB) copied, 1 s, 1,5 MB/s")
  T.eq(c.dd_xfer(67108864, 59647300, "9.1", false, "."), c.dd_xfer(67108864, 59647300))
end)

T.test("dd: operand numbers take dd's suffixes and products", function()
  local cases = {
    { "512", 512 }, { "1c", 1 }, { "1w", 2 }, { "1b", 512 }, { "32k", 32768 }, { "32K", 32768 },
    { "1kB", 1000 }, { "1KB", 1000 }, { "1KiB", 1024 }, { "1M", 1048576 }, { "1MB", 1000000 },
    { "1MiB", 1048576 }, { "2G", 2147483648 }, { "1GB", 1e9 }, { "M", 1048576 },
    { "2x512", 1024 }, { "1Kx2", 2048 }, { "2x3x4", 24 }, { "0", 0 },
  }
  for _, k in ipairs(cases) do T.eq(c.dd_number(k[1]), k[2], k[1]) end
  for _, bad in ipairs({ "", "x", "1.5M", "-1", "1B", "1m", "1Q", "2x", "1kBB", "99999999999999999999" }) do
    T.eq(c.dd_number(bad), nil, "'" .. bad .. "'")
  end
end)

T.test("dd: file names quoted as coreutils does", function()
  T.eq(c.quote("odd.dat"), "'odd.dat'")
  T.eq(c.quotef("odd.dat"), "odd.dat")
  T.eq(c.quotef("a b"), "'a b'")
end)

-- ---- hdparm ----------------------------------------------------------------

T.test("hdparm: the spec's 9.x lines", function()
  T.eq(c.hdparm_label("cached", "9") .. c.hdparm_value(20442, 20442 / 10231.23, "cached"),
    " Timing cached reads:   20442 MB in  2.00 seconds = 10231.23 MB/sec\n")
  T.eq(c.hdparm_label("disk", "9") .. c.hdparm_value(196, 196 / 64.90, "disk"),
    " Timing buffered disk reads: 196 MB in  3.02 seconds =  64.90 MB/sec\n")
end)

T.test("hdparm: labels for O_DIRECT, --offset and 6.x", function()
  T.eq(c.hdparm_label("cached", "9", true), " Timing O_DIRECT cached reads:   ")
  T.eq(c.hdparm_label("disk", "9", true), " Timing O_DIRECT disk reads: ")
  T.eq(c.hdparm_label("disk", "9", false, 2), " Timing buffered disk reads (offset 2 GB): ")
  T.eq(c.hdparm_label("disk", "6"), " Timing buffered disk reads:  ")
end)

T.test("hdparm: slow devices print kB/sec", function()
  T.eq(c.hdparm_value(2, 3.5, "disk"), "  2 MB in  3.50 seconds = 585.14 kB/sec\n")
  T.eq(c.hdparm_value(4, 3.5, "disk"), "  4 MB in  3.50 seconds =   1.14 MB/sec\n")
  T.eq(c.hdparm_value(2, 2.5, "cached"), "  2 MB in  2.50 seconds = 819.20 kB/sec\n")
  T.eq(c.hdparm_value(2, 2.0, "cached"), "  2 MB in  2.00 seconds =   1.00 MB/sec\n")
end)

T.test("hdparm: seed 002's 1999 lines (whitespace as printed, before the post squeezed it)", function()
  local cache, disk = c.hdparm_label("cached", "1999"), c.hdparm_label("disk", "1999")
  T.eq(cache .. c.hdparm_value_1996(128, 1.12),
    " Timing buffer-cache reads:   128 MB in  1.12 seconds =114.29 MB/sec\n")
  T.eq(disk .. c.hdparm_value_1996(64, 4.21),
    " Timing buffered disk reads:  64 MB in  4.21 seconds =15.20 MB/sec\n")
  T.eq(cache .. c.hdparm_value_1996(128, 1.00),
    " Timing buffer-cache reads:   128 MB in  1.00 seconds =128.00 MB/sec\n")
  T.eq(disk .. c.hdparm_value_1996(64, 6.85),
    " Timing buffered disk reads:  64 MB in  6.85 seconds = 9.34 MB/sec\n")
  T.eq(disk .. c.hdparm_value_1996(64, 1.83),
    " Timing buffered disk reads:  64 MB in  1.83 seconds =34.97 MB/sec\n")
end)

-- ---- ioping ----------------------------------------------------------------

T.test("ioping: units pick the largest unit not above the value", function()
  T.eq(c.ioping_size(4096), "4 KiB")
  T.eq(c.ioping_size(491129520000), "457.4 GiB")
  T.eq(c.ioping_size(36864), "36 KiB")
  T.eq(c.ioping_size(1536), "1.50 KiB")
  T.eq(c.ioping_size(10241), "10.0 KiB")
  T.eq(c.ioping_size(0), "0 B")
  T.eq(c.ioping_size(1000), "1000 B")
  T.eq(c.ioping_time(221300), "221.3 us")
  T.eq(c.ioping_time(2050200), "2.05 ms")
  T.eq(c.ioping_time(9001234567), "9.00 s")
  T.eq(c.ioping_time(60e9), "1 min")
  T.eq(c.ioping_time(0), "0 ns")
  T.eq(c.ioping_time(999), "999 ns")
  T.eq(c.ioping_int(4389.8), "4.39 k")
  T.eq(c.ioping_int(9), "9")
  T.eq(c.ioping_int(1000), "1 k")
  T.eq(c.ioping_int(1.11), "1")
end)

T.test("ioping: the spec's request line", function()
  local target = c.ioping_target(".", "ext4", "/dev/sda3", 491129520000)
  T.eq(target, ". (ext4 /dev/sda3 457.4 GiB)")
  T.eq(c.ioping_request(4096, false, target, 1, 221300, "warmup"),
    "4 KiB <<< . (ext4 /dev/sda3 457.4 GiB): request=1 time=221.3 us (warmup)\n")
  T.eq(c.ioping_request(4096, true, target, 7, 1500000),
    "4 KiB >>> . (ext4 /dev/sda3 457.4 GiB): request=7 time=1.50 ms\n")
  T.eq(c.ioping_target("/dev/sdb", "block", "device", 1000204886016),
    "/dev/sdb (block device 931.5 GiB)")
end)

T.test("ioping: the spec's summary", function()
  local target = c.ioping_target(".", "ext4", "/dev/sda3", 491129520000)
  local t = { valid = 9, sum = 2050200, size = 9 * 4096, iops = 1e9 * 9 / 2050200,
    speed = 1e9 * 9 / 2050200 * 4096, too_fast = 0, too_slow = 0, count = 10,
    load_time = 9001234567, load_size = 10 * 4096, load_iops = 1e9 * 10 / 9001234567,
    load_speed = 1e9 * 10 / 9001234567 * 4096, min = 180200, avg = 227800, max = 301500,
    mdev = 35900 }
  T.eq(c.ioping_summary(target, t, "read"), "\n"
    .. "--- . (ext4 /dev/sda3 457.4 GiB) ioping statistics ---\n"
    .. "9 requests completed in 2.05 ms, 36 KiB read, 4.39 k iops, 17.1 MiB/s\n"
    .. "generated 10 requests in 9.00 s, 40 KiB, 1 iops, 4.44 KiB/s\n"
    .. "min/avg/max/mdev = 180.2 us / 227.8 us / 301.5 us / 35.9 us\n")
  t.too_fast, t.too_slow = 2, 1
  local s = c.ioping_summary(target, t, "write")
  T.has(s, "36 KiB written,")
  T.has(s, "\n2 too fast, 1 too slow, generated 10 requests")
  T.has(c.ioping_summary(target, t, "rw"), "36 KiB, 4.39 k iops")
end)

T.test("ioping: statistics (warmup, population mdev, fast and slow)", function()
  local st = c.ioping_stats(0)
  local opts = { warmup = 1, min_valid = 0, max_valid = math.huge }
  local v, n = st:add(999999, 1, opts)
  T.eq(v, false, "warmup valid")
  T.eq(n, "warmup")
  for i, t in ipairs({ 100, 200, 300, 400, 500 }) do
    v, n = st:add(t, i + 1, opts)
    T.eq(v, true, "valid")
    T.eq(n, nil, "notice of request " .. (i + 1))
  end
  n = select(2, st:add(100, 7, opts)) -- avg (1600/6 = 266) > 2 * 100
  T.eq(n, "fast")
  n = select(2, st:add(1000, 8, opts))
  T.eq(n, "slow")
  st:finish(5e9, 4096)
  T.eq(st.count, 8, "count")
  T.eq(st.valid, 7, "valid")
  T.eq(st.min, 100, "min")
  T.eq(st.max, 1000, "max")
  T.near(st.avg, 2600 / 7, 1e-9, "avg")
  local var = (100^2 + 200^2 + 300^2 + 400^2 + 500^2 + 100^2 + 1000^2) / 7 - (2600 / 7)^2
  T.near(st.mdev, math.sqrt(var), 1e-6, "mdev")
  T.near(st.iops, 7e9 / 2600, 1e-6, "iops")
  T.near(st.load_iops, 8 / 5, 1e-12, "load iops")
  T.eq(st:raw(), string.format("7 2600 %.0f %.0f 100 %.0f 1000 %.0f 8 5000000000\n",
    7e9 / 2600, 7e9 / 2600 * 4096, 2600 / 7, math.sqrt(var)))
  local o2 = { warmup = 0, min_valid = 150, max_valid = 450 }
  local s2 = c.ioping_stats(0)
  T.eq(select(2, s2:add(100, 1, o2)), "too fast")
  T.eq(select(2, s2:add(500, 2, o2)), "too slow")
  T.eq(s2.too_fast + s2.too_slow, 2)
  s2:finish(1, 4096)
  T.eq(s2.min, 0, "no valid: min 0")
end)

T.test("ioping: argument parsers", function()
  T.eq(c.ioping_parse_size("4k"), 4096)
  T.eq(c.ioping_parse_size("4K"), 4096)
  T.eq(c.ioping_parse_size("1m"), 1048576)
  T.eq(c.ioping_parse_size("1MiB"), 1048576)
  T.eq(c.ioping_parse_size("2sector"), 1024)
  T.eq(c.ioping_parse_size("1/2k"), 512)
  T.eq(c.ioping_parse_size("100"), 100)
  T.eq(c.ioping_parse_time("1"), 1e9)
  T.eq(c.ioping_parse_time("10ms"), 1e7)
  T.eq(c.ioping_parse_time("5us"), 5000)
  T.eq(c.ioping_parse_time("1m"), 60e9)
  T.eq(c.ioping_parse_time("0.5"), 5e8)
  T.eq(c.ioping_parse_int("10"), 10)
  T.eq(c.ioping_parse_int("1k"), 1000)
  T.eq(c.ioping_parse_int("2M"), 2000000)
  local n, why = c.ioping_parse_size("4q")
  T.eq(n, nil)
  T.eq(why, 'invalid suffix: "q"')
  T.eq(select(2, c.ioping_parse_int("-1")), "integer overflow at parsing argument: -1")
end)

T.test("strerror takes the text after 'op path: '", function()
  T.eq(c.strerror("open x.dat: No such file or directory", "x.dat"), "No such file or directory")
  T.eq(c.strerror("read a: Invalid argument (O_DIRECT needs the position and length aligned "
    .. "to 512 bytes)", "a"), "Invalid argument")
  T.eq(c.strerror("fsync /dev/null: Invalid argument"), "Invalid argument")
end)
