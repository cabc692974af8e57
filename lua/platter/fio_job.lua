-- platter.fio_job: fio 3.33's job files and command lines, read into plain
-- tables for workloads/fio.lua. Pure Lua: no io, no os. The caller hands in
-- what it may touch: env.read_file(path) -> text | nil, msg and
-- env.getenv(name) -> string | nil (and, optionally, env.keywords =
-- { pagesize = n, mb_memory = n, ncpus = n } for fio's $pagesize, ...).
--
--   local fj = require "platter.fio_job"
--   local cfg = fj.parse(argv, env)  -- raises a string error on bad input
--
-- The rules are fio's (options.c, parse.c and init.c at tag fio-3.33),
-- re-expressed here: sizes take k/m/g/t/p (1024 each unless kb_base=1000,
-- where the "iB" forms are the other base, as fio has it), a trailing % is a
-- share of something decided later, times take us/ms/s/m/h/d with a default
-- unit per option, per-direction values are "read,write,trim" with the
-- missing ones copied from the last one given, and options a section names
-- are applied after sorting by fio's priorities (kb_base first, filename and
-- filename_format last). Errors use fio's wording where fio has one; an
-- option fio has and platter does not is an error naming it.
local M = {}

local fmt, concat = string.format, table.concat
local floor = math.floor

-- An error to hand back to the caller: the lines fio would print.
local function fail(...) error(concat({ ... }, "\n"), 0) end

-- A value error inside an option's parser: `pre` is the line fio prints
-- before its "failed parsing" line (or nil).
local BAD = {}
local function bad(pre, not_in_set) error({ [BAD] = true, pre = pre, not_in_set = not_in_set }, 0) end

-- ---------------------------------------------------------------------------
-- fio's own option names (options.c at fio-3.33, in its order, then those
-- fio's act and tiobench profiles add, which any job may name): an option named here that
-- platter does not take is "not supported by platter fio", anything else is
-- unknown to fio too.
-- ---------------------------------------------------------------------------
local FIO_NAMES = [[
description name wait_for filename directory filename_format unique_filename lockfile opendir rw
rw_sequencer ioengine iodepth iodepth_batch iodepth_batch_complete_min iodepth_batch_complete_max
iodepth_low serialize_overlap io_submit_mode size io_size fill_device filesize file_append offset
offset_align offset_increment number_ios bs ba bsrange bssplit bs_unaligned bs_is_seq_rand
randrepeat randseed norandommap softrandommap random_generator random_distribution percentage_random
percentage_sequential allrandrepeat nrfiles openfiles file_service_type fallocate fadvise_hint fsync
fdatasync write_barrier sync_file_range direct atomic buffered overwrite loops
numjobs startdelay runtime time_based verify_only ramp_time clocksource mem iomem_align verify
do_verify verifysort verifysort_nr verify_interval verify_offset verify_pattern verify_fatal
verify_dump verify_async verify_backlog verify_backlog_batch verify_async_cpus
experimental_verify verify_state_load verify_state_save trim_percentage trim_verify_zero
trim_backlog trim_backlog_batch
write_iolog read_iolog read_iolog_chunked replay_no_stall replay_redirect replay_scale replay_align
replay_time_scale replay_skip merge_blktrace_file merge_blktrace_scalars merge_blktrace_iters
exec_prerun exec_postrun ioscheduler zonemode zonesize zonecapacity zonerange zoneskip
read_beyond_wp max_open_zones job_max_open_zones ignore_zone_limits zone_reset_threshold
zone_reset_frequency lockmem rwmixread rwmixwrite rwmixcycle nice prio prioclass
thinktime thinktime_spin thinktime_blocks thinktime_blocks_type thinktime_iotime rate rate_min
rate_iops rate_iops_min rate_process rate_cycle rate_ignore_thinktime max_latency latency_target
latency_window latency_percentile latency_run invalidate sync write_hint create_serialize
create_fsync create_on_open create_only allow_file_create allow_mounted_write pre_read cpumask
cpus_allowed cpus_allowed_policy
numa_cpu_nodes numa_mem_policy gpu_dev_id end_fsync fsync_on_close unlink
unlink_each_loop exitall exit_what exitall_on_error stonewall new_group thread per_job_logs
write_bw_log write_lat_log write_iops_log log_entries log_avg_msec log_hist_msec log_hist_coarseness
write_hist_log log_max_value log_offset log_prio log_compression log_compression_cpus
log_store_compressed log_unix_epoch
log_alternate_epoch log_alternate_epoch_clock_id block_error_percentiles bwavgtime iopsavgtime
group_reporting stats zero_buffers refill_buffers scramble_buffers buffer_pattern
buffer_compress_percentage buffer_compress_chunk dedupe_percentage dedupe_global dedupe_mode
dedupe_working_set_percentage clat_percentiles lat_percentiles slat_percentiles percentile_list
significant_figures disk_util gtod_reduce disable_lat disable_clat disable_slat
disable_bw_measurement gtod_cpu unified_rw_reporting continue_on_error ignore_error error_dump
profile cgroup cgroup_nodelete cgroup_weight uid gid kb_base unit_base hugepage-size flow_id flow
flow_watermark flow_sleep steadystate steadystate_duration steadystate_ramp_time
device-names load test-duration threads-per-queue read-req-num-512-blocks large-block-op-kbytes
prep block numruns dir threads
]]

-- Options of fio's engines (io_uring, libaio, sync, mmap): fio only knows
-- them once the engine is loaded, and does not suggest them.
local FIO_ENGINE_OPTIONS = [[
hipri cmdprio_percentage cmdprio_class cmdprio cmdprio_bssplit fixedbufs registerfiles
sqthread_poll sqthread_poll_cpu nonvectored uncached nowait force_async cmd_type userspace_reap
hipri_percentage thp
]]

-- fio's aliases (alias -> option).
local FIO_ALIASES = {
  readwrite = "rw", iodepth_batch_submit = "iodepth_batch",
  iodepth_batch_complete = "iodepth_batch_complete_min", io_limit = "io_size",
  fill_fs = "fill_device", fileoffset = "offset", blocksize = "bs", blockalign = "ba",
  blocksize_range = "bsrange", blocksize_unaligned = "bs_unaligned", nr_files = "nrfiles",
  timeout = "runtime", iomem = "mem", mem_align = "iomem_align", ratemin = "rate_min",
  ratecycle = "rate_cycle", wait_for_previous = "stonewall", disable_bw = "disable_bw_measurement",
  ss = "steadystate", ss_dur = "steadystate_duration", ss_ramp = "steadystate_ramp_time",
}

-- fio's options that take no value (FIO_OPT_STR_SET): bare, or =0/=1.
local FIO_SET = {}
for n in ([[bs_unaligned norandommap time_based verify_only exitall exitall_on_error stonewall
  new_group thread group_reporting zero_buffers refill_buffers hipri fixedbufs registerfiles
  sqthread_poll]]):gmatch("%S+") do FIO_SET[n] = true end

-- The engine each engine option platter reads belongs to (engines/io_uring.c). fio knows
-- such an option only while that engine is the job's: on the command line once an
-- --ioengine before it (the job's, or a global one) has named it, and in a job file after
-- the section's other options, with the engine they leave (fio_options_parse); elsewhere
-- it is "unrecognized" or a "Bad option", as any unknown name.
local ENGINE_OF = { hipri = "io_uring", fixedbufs = "io_uring", registerfiles = "io_uring",
  sqthread_poll = "io_uring", sqthread_poll_cpu = "io_uring" }

-- Why platter refuses some of fio's options, said instead of pointing at --help.
local WHY_NOT = {
  sqthread_poll_cpu = "p.run's io_uring engine does not pin its submission thread to a CPU, "
    .. "it leaves the CPU to the kernel: no IORING_SETUP_SQ_AFF",
}

local fio_order, fio_known = {}, {}
for n in FIO_NAMES:gmatch("%S+") do
  if not fio_known[n] then
    fio_known[n] = true
    fio_order[#fio_order + 1] = n
  end
end
for n in FIO_ENGINE_OPTIONS:gmatch("%S+") do fio_known[n] = true end

-- ---------------------------------------------------------------------------
-- Numbers as fio reads them (parse.c str_to_decimal and friends).
-- ---------------------------------------------------------------------------

-- strtoll: leading blanks, a sign, digits (base 16 when "0x" is anywhere in
-- the string, as fio decides). Returns the value or nil when no digit.
local function strtoll(s)
  local hex = s:find("0[xX]") ~= nil
  local sign, rest = s:match("^%s*([+-]?)(.*)$")
  local digits
  if hex then
    digits = rest:match("^0[xX](%x+)") or rest:match("^(%x+)")
    if not digits then return nil end
    local v = tonumber(digits, 16)
    return sign == "-" and -v or v
  end
  digits = rest:match("^(%d+)")
  if not digits then return nil end
  local v = tonumber(digits)
  return sign == "-" and -v or v
end

local SEPARATOR = { [":"] = true, ["-"] = true, [","] = true, ["/"] = true }

-- The multiplier of a size suffix (__get_mult_bytes): c is the text after
-- the number. Returns mult, is_percent.
local function size_mult(c, kb_base)
  if not c then return 1, false end
  c = c:lower()
  for i = 1, #c do
    if SEPARATOR[c:sub(i, i)] then
      c = c:sub(1, i - 1)
      break
    end
  end
  local other = kb_base == 1000 and 1024 or 1000
  local pow, mult
  for p, letter in ipairs { "k", "m", "g", "t", "p" } do
    if c:sub(1, 3) == letter .. "ib" then pow, mult = p, other end
  end
  if not pow then
    local first = c:sub(1, 1)
    for p, letter in ipairs { "k", "m", "g", "t", "p" } do
      if first == letter then pow, mult = p, kb_base end
    end
  end
  if not pow then
    if c:sub(1, 1) == "%" then return 1, true end
    return 1, false
  end
  local r = 1
  for _ = 1, pow do r = r * mult end
  return r, false
end

-- get_mult_bytes: where the suffix starts (after digits and a leading sign).
local function size_suffix(s)
  if #s < 2 then return s end
  local i, digit_seen = 1, false
  while i <= #s do
    local ch = s:sub(i, i)
    local isd = ch:match("%d") ~= nil
    if not isd and ((ch ~= "+" and ch ~= "-") or digit_seen) then break end
    digit_seen = digit_seen or isd
    i = i + 1
  end
  local ch = s:sub(i, i)
  if ch:match("%a") or ch == "%" then return s:sub(i) end
  return nil
end

-- A size: bytes, or nil, percent (the number before '%').
local function parse_size(s, kb_base)
  if s == "" then return nil end
  if s:sub(1, 1) == "(" then bad(nil) end  -- fio's arithmetic: not in Debian's build either
  local v = strtoll(s)
  if not v then return nil end
  local mult, pct = size_mult(size_suffix(s), kb_base)
  if pct then return nil, v end
  return v * mult
end

-- A time in microseconds (check_str_time / get_mult_time); unit_s: a bare
-- number is seconds (else microseconds).
local function parse_time_us(s, unit_s)
  if s == "" then return nil end
  local v = strtoll(s)
  if not v then return nil end
  local i = 1
  while i <= #s and s:sub(i, i):match("[%d+-]") do i = i + 1 end
  local c = s:sub(i)
  if not c:sub(1, 1):match("%a") then return v * (unit_s and 1000000 or 1) end
  c = c:lower()
  local mult = 1
  if c:sub(1, 2) == "us" then
    mult = 1
  elseif c:sub(1, 2) == "ms" then
    mult = 1000
  elseif c == "s" then
    mult = 1000000
  elseif c == "m" then
    mult = 60 * 1000000
  elseif c == "h" then
    mult = 3600 * 1000000
  elseif c == "d" then
    mult = 86400 * 1000000
  end
  return v * mult
end

-- Microseconds to seconds, an integer when whole (Lua 5.4 prints 120.0 else).
local function seconds(us)
  local s = us / 1000000
  if s == floor(s) then return floor(s) end
  return s
end

-- check_int: "%u" or "%x" (for booleans).
local function parse_int(s)
  if s == "" then return nil end
  if s:find("0[xX]") then
    local h = s:match("^%s*0[xX](%x+)") or s:match("^%s*(%x+)")
    return h and tonumber(h, 16)
  end
  local sign, d = s:match("^%s*([+-]?)(%d+)")
  if not d then return nil end
  return sign == "-" and -tonumber(d) or tonumber(d)
end

local function copy(v)
  if type(v) ~= "table" then return v end
  local t = {}
  for k, x in pairs(v) do t[k] = copy(x) end
  return t
end

-- ---------------------------------------------------------------------------
-- The options platter takes. Each: name, kind, help (platter's own words),
-- and per kind: alias, def (fio's default as fio's text), min/max, unit_s
-- (times: a bare number is seconds), dirs (read,write,trim values), prio.
-- `store` is the field of `o` (defaults to the name). What a kind leaves
-- in o[store]:
--   str, engine   the string            filename  a list of names (added to)
--   int           a number; with dirs a { read=, write=, trim= } table
--   sizepct       bytes, or nil and o[store .. "_percent"] = N (N%)
--   sizerange     low bytes, o[store .. "_high"] the high (= low if one)
--   time          seconds (a number)    timerange  seconds, and _high
--   bool, set     true/false            enum  the value's meaning (below)
--   rw            { kind = "read"|"write"|"randread"|"randwrite"|"rw"|
--                 "randrw", seq_nr = N (random: N I/Os per new offset),
--                 seq_add = bytes (sequential: the hole after each I/O) }
--   range         { read = {min=, max=}, write = ..., trim = ... }
--   bssplit       { read = { {bs=, pct=}, ... } (fio's order: by pct), ... }
--   distribution  { kind = "random" } | { kind = "zipf", theta=, center= } |
--                 { kind = "pareto", h=, center= } | { kind = "normal", dev=,
--                 center= } | { kind = "zoned", read = { {access=, size=}, ...},
--                 write = ..., trim = ... } (percentages; center may be nil)
--   floatlist     a list of numbers (and o.percentile_precision: decimals)
--   log           false, true (bare) or the name prefix given
--   steadystate   { kind = "iops"|"iops_slope"|"bw"|"bw_slope", slope = bool,
--                 pct = bool, limit = number (percent, IOPS or bytes/s) }
-- ---------------------------------------------------------------------------
local DIRS = { "read", "write", "trim" }

local OPTIONS = {
  { "name", "str", "job name (also starts a job on the command line)" },
  { "description", "str", "text describing the job (not used)" },
  { "kb_base", "enum", "1024 (default) or 1000: the base of k/m/g in sizes", prio = 1,
    def = "1024", values = { ["1024"] = 1024, ["1000"] = 1000 } },
  { "filename", "filename", "file(s) or device(s) to use, ':'-separated ('\\:' for a colon)",
    prio = -1 },
  { "directory", "str", "directory the job's files go in" },
  { "filename_format", "str", "name pattern of generated files ($jobname, $jobnum, $filenum)",
    prio = -1, def = "$jobname.$jobnum.$filenum" },
  { "nrfiles", "int", "number of files per job", alias = "nr_files", def = "1" },
  { "size", "sizepct", "total bytes of I/O per job, or N% of the file/device" },
  { "filesize", "sizerange", "size of each file (a range low-high picks sizes in it)", min = 1 },
  { "io_size", "sizepct", "bytes of I/O to do, if not size (N% of size)", alias = "io_limit",
    uncapped = true },
  { "offset", "sizepct", "start offset in the file (bytes or N%)", alias = "fileoffset", def = "0" },
  { "offset_increment", "sizepct", "offset added per job number (numjobs > 1)", def = "0" },
  { "rw", "rw", "read, write, randread, randwrite, rw (readwrite), randrw; ':N' for skips",
    alias = "readwrite", def = "read" },
  { "rwmixread", "int", "percentage of reads in rw/randrw", max = 100, def = "50" },
  { "rwmixwrite", "int", "percentage of writes in rw/randrw", max = 100, def = "50" },
  { "bs", "int", "block size (read,write,trim)", alias = "blocksize", dirs = true, min = 1,
    def = "4096" },
  { "bsrange", "range", "block size range low-high (read,write,trim)", alias = "blocksize_range" },
  { "bssplit", "bssplit", "block size mix bs/pct:bs/pct (read,write,trim)" },
  { "ba", "int", "offset alignment of I/O (read,write,trim)", alias = "blockalign", dirs = true,
    min = 1 },
  { "ioengine", "engine", "sync, psync, pvsync, libaio, posixaio, io_uring, mmap, null", def = "psync" },
  { "iodepth", "int", "I/Os kept in flight (async engines)", min = 1, def = "1" },
  { "iodepth_batch", "int", "I/Os submitted at once", alias = "iodepth_batch_submit", def = "1" },
  { "iodepth_batch_complete_min", "int", "fewest completions to reap at once",
    alias = "iodepth_batch_complete", def = "1" },
  { "iodepth_batch_complete_max", "int", "most completions to reap at once" },
  -- io_uring's own options (ENGINE_OF says when fio knows them)
  { "hipri", "set", "io_uring: poll for completions (p.run's iopoll: O_DIRECT on a device with "
    .. "poll queues)" },
  { "fixedbufs", "set", "io_uring: registered buffers (platter registers them either way)" },
  { "registerfiles", "set", "io_uring: registered files (platter registers them either way)" },
  { "sqthread_poll", "set", "io_uring: a kernel thread submits the I/O (p.run's sqpoll)" },
  { "direct", "bool", "O_DIRECT I/O", def = "0" },
  { "buffered", "bool", "buffered I/O (the opposite of direct)", store = "direct", neg = true,
    def = "1" },
  { "sync", "enum", "open with O_SYNC (sync, 1) or O_DSYNC (dsync), or none", def = "none",
    values = { none = "none", ["0"] = "none", sync = "sync", ["1"] = "sync", dsync = "dsync" } },
  { "fsync", "int", "fsync after every N writes", def = "0" },
  { "fdatasync", "int", "fdatasync after every N writes", def = "0" },
  { "end_fsync", "bool", "fsync when the job's writes are done", def = "0" },
  { "fsync_on_close", "bool", "fsync when a file is closed", def = "0" },
  { "numjobs", "int", "copies of the job to run", def = "1", min = 1 },
  { "group_reporting", "set", "report a group's jobs as one" },
  { "runtime", "time", "run for at most this long (s by default)", alias = "timeout", unit_s = true,
    def = "0" },
  { "time_based", "set", "run for runtime even when size is done (repeat)" },
  { "ramp_time", "time", "run this long before measuring (s by default)", unit_s = true },
  { "startdelay", "timerange", "wait this long before starting (s; low-high for a random pick)",
    unit_s = true, def = "0" },
  { "loops", "int", "passes over the job's range", def = "1" },
  { "thinktime", "time", "pause between I/Os (us by default)", def = "0" },
  { "rate", "int", "bandwidth cap, bytes/s (read,write,trim)", dirs = true },
  { "rate_iops", "int", "IOPS cap (read,write,trim)", dirs = true },
  { "rate_min", "int", "fail below this bandwidth, bytes/s (read,write,trim)", alias = "ratemin",
    dirs = true },
  { "rate_process", "enum", "linear or poisson spacing of rate-limited I/O", def = "linear",
    values = { linear = "linear", poisson = "poisson" } },
  { "randrepeat", "bool", "same random sequence on every run", def = "1" },
  { "randseed", "int", "seed of the random offsets", def = "0x89" },
  { "norandommap", "set", "random offsets may repeat within a pass" },
  { "random_distribution", "distribution",
    "random, zipf[:theta], pareto[:h], normal[:dev], zoned:pct/pct:...", def = "random" },
  { "percentage_random", "int", "share of random I/Os, the rest sequential (read,write,trim)",
    dirs = true, max = 100, def = "100,100,100" },
  { "invalidate", "bool", "drop the file's cached pages before the job", def = "1" },
  { "create_on_open", "bool", "create files when they are opened for I/O", def = "0" },
  { "overwrite", "bool", "write the file fully before the job's writes", def = "0" },
  { "fallocate", "enum", "space reserved before a file is laid out: none, native (fallocate, "
    .. "the default), posix (posix_fallocate), keep (FALLOC_FL_KEEP_SIZE), truncate, 0, 1",
    def = "native", values = { none = "none", native = "native", posix = "posix", keep = "keep",
      truncate = "truncate", ["0"] = "none", ["1"] = "posix" } },
  { "allow_mounted_write", "bool", "0 (the default); platter never writes to a mounted device, "
    .. "whatever this says", def = "0" },
  { "unlink", "bool", "remove the job's files when done", def = "0" },
  { "stonewall", "set", "wait for the jobs before this one to finish", alias = "wait_for_previous" },
  { "new_group", "set", "start a new reporting group" },
  { "clat_percentiles", "bool", "report completion latency percentiles", def = "1" },
  { "lat_percentiles", "bool", "report total latency percentiles", def = "0" },
  { "slat_percentiles", "bool", "report submission latency percentiles", def = "0" },
  { "percentile_list", "floatlist", "percentiles to report, ':'-separated",
    def = "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99" },
  { "write_bw_log", "log", "write a bandwidth log (name prefix)" },
  { "write_iops_log", "log", "write an IOPS log (name prefix)" },
  { "write_lat_log", "log", "write latency logs (name prefix)" },
  { "log_avg_msec", "int", "average log entries over this many ms", def = "0" },
  { "log_offset", "bool", "add each I/O's offset to the log lines", def = "0" },
  { "per_job_logs", "bool", "a log file per job (NAME_bw.N.log), else one per name", def = "1" },
  { "steadystate", "steadystate", "stop when iops|bw[_slope]:limit[%] holds for ss_dur",
    alias = "ss", def = "iops_slope:0.01%" },
  { "steadystate_duration", "time", "window of the steady-state check (s)", alias = "ss_dur",
    unit_s = true, def = "0" },
  { "steadystate_ramp_time", "time", "time before the steady-state check starts (s)",
    alias = "ss_ramp", unit_s = true, def = "0" },
  { "thread", "set", "threads rather than processes (platter: workers either way)" },
  { "cpumask", "cpumask", "CPUs the job may run on, as a bit mask (bit N: CPU N)", store = "cpus" },
  { "cpus_allowed", "cpus", "CPUs the job may run on: a list such as 0-3,6", store = "cpus" },
  { "cpus_allowed_policy", "enum", "shared (each job copy on all of cpus_allowed) or split "
    .. "(each on one of them, in turn)", def = "shared",
    values = { shared = "shared", split = "split" } },
  { "gtod_reduce", "bool", "fewer clock reads: no latency figures", def = "0" },
  { "unified_rw_reporting", "enum", "report reads and writes as one 'mixed': none (0), mixed (1), "
    .. "both (2: after read and write)", def = "none",
    values = { none = "none", ["0"] = "none", mixed = "mixed", ["1"] = "mixed", both = "both", ["2"] = "both" } },
  { "refill_buffers", "set", "new buffer contents for every write" },
  { "zero_buffers", "set", "write buffers (and the laid-out files) hold zeros" },
  { "scramble_buffers", "bool", "1 (the default): fio changes a few bytes of each write, which "
    .. "platter does not (docs/fio.md)", def = "1" },
  { "buffer_compress_percentage", "int", "how compressible written data is (percent)", max = 100 },
  { "buffer_compress_chunk", "int", "the size of each compressible chunk (bytes)", def = "512" },
  { "verify", "enum", "check written data: 0, crc32c, md5, sha256", def = "0",
    values = { ["0"] = "none", crc32c = "crc32c", ["crc32c-intel"] = "crc32c", md5 = "md5",
      sha256 = "sha256" },
    fio = { "crc64", "crc32", "crc16", "crc7", "sha1", "sha512", "sha3-224", "sha3-256",
      "sha3-384", "sha3-512", "xxhash", "meta", "pattern", "null" } },
  { "do_verify", "bool", "run the verify pass after writing", def = "1" },
  { "verify_fatal", "bool", "stop at the first verify failure", def = "0" },
}

local ENGINES = { sync = true, psync = true, pvsync = true, libaio = true, posixaio = true,
  io_uring = true, mmap = true, null = true }
local ENGINE_ORDER = { "sync", "psync", "pvsync", "libaio", "posixaio", "io_uring", "mmap", "null" }
local FIO_ENGINES = {}
for n in ([[vsync pvsync2 solarisaio windowsaio rbd splice netsplice sg net cpuio rdma
  librpma_apm librpma_gpspm e4defrag falloc gfapi gfapi_async libhdfs pmemblk ime_psync ime_psyncv
  ime_aio dev-dax filecreate filestat filedelete external libpmem http nbd dfs nfs xnvme
  io_uring_cmd exec libcufile libzbc ftruncate libiscsi librpma_apm_client librpma_apm_server
  librpma_gpspm_client librpma_gpspm_server mtd rados]]):gmatch("%S+") do FIO_ENGINES[n] = true end

local RW = { read = "read", write = "write", randread = "randread", randwrite = "randwrite",
  rw = "rw", readwrite = "rw", randrw = "randrw" }
local RW_FIO = { trim = true, randtrim = true, trimwrite = true, randtrimwrite = true }
local RANDOM = { randread = true, randwrite = true, randrw = true }

local BY_ALIAS = {}
for i, s in ipairs(OPTIONS) do
  s.name, s.kind, s.help = s[1], s[2], s[3]
  s.store = s.store or s.name
  s.prio = s.prio or 0
  s.index = i
  BY_ALIAS[s.name] = s
  if s.alias then BY_ALIAS[s.alias] = s end
end

-- The canonical name of an option fio knows (platter or not), or nil.
local function fio_canonical(key)
  if fio_known[key] then return key end
  return FIO_ALIASES[key]
end

-- fio's first part of an enumerated value (opt_len): up to the first ','
-- if there is one, else up to the first ':'.
local function enum_head(v)
  if v:find(",", 1, true) then return v:match("^([^,]*)") end
  return v:match("^([^:]*)")
end

local function not_supported(what, why)
  return fmt("fio: %s is not supported by platter fio (%s)", what,
    why or "platter fio --help lists what is")
end

-- An option fio has that platter does not take: the error, with the reason when there is one.
local function option_not_supported(name)
  local canon = fio_canonical(name)
  return not_supported(fmt("option '%s'", canon), WHY_NOT[canon])
end

local function valid_values(list)
  return "valid values: " .. concat(list, ", ")
end

-- fio's values of an option with a fixed set (options.c's posval at fio-3.33, every
-- one, those platter does not run too), which fio prints on stdout when a value is
-- not one of them (parse.c's show_option_values), before its "failed parsing" line.
local POSVAL = {
  rw = { { "read", "Sequential read" }, { "write", "Sequential write" },
    { "trim", "Sequential trim" }, { "randread", "Random read" }, { "randwrite", "Random write" },
    { "randtrim", "Random trim" }, { "rw", "Sequential read and write mix" },
    { "readwrite", "Sequential read and write mix" }, { "randrw", "Random read and write mix" },
    { "trimwrite", "Trim and write mix, trims preceding writes" },
    { "randtrimwrite", "Randomly trim and write mix, trims preceding writes" } },
  sync = { { "none" }, { "0" }, { "sync" }, { "1" }, { "dsync" } },
  fallocate = { { "none", "Do not pre-allocate space" },
    { "native", "Use native pre-allocation if possible" }, { "posix", "Use posix_fallocate()" },
    { "keep", "Use fallocate(..., FALLOC_FL_KEEP_SIZE, ...)" },
    { "truncate", "Truncate file to final size instead of allocating" },
    { "0", "Alias for 'none'" }, { "1", "Alias for 'posix'" } },
  kb_base = { { "1024", "Inputs invert IEC and SI prefixes (for compatibility); outputs prefer binary" },
    { "1000", "Inputs use IEC and SI prefixes; outputs prefer SI" } },
  rate_process = { { "linear", "Linear rate of IO" }, { "poisson", "Rate follows Poisson process" } },
  unified_rw_reporting = { { "none", "Normal statistics reporting" },
    { "mixed", "Statistics are summed per data direction and reported together" },
    { "both", "Statistics are reported normally, followed by the mixed statistics" },
    { "0", "Alias for 'none'" }, { "1", "Alias for 'mixed'" }, { "2", "Alias for 'both'" } },
  verify = { { "0", "Don't do IO verification" } },
  random_distribution = { { "random", "Completely random" }, { "zipf", "Zipf distribution" },
    { "pareto", "Pareto distribution" }, { "normal", "Normal (Gaussian) distribution" },
    { "zoned", "Zoned random distribution" }, { "zoned_abs", "Zoned absolute random distribution" } },
  cpus_allowed_policy = { { "shared", "Mask shared between threads" },
    { "split", "Mask split between threads" } },
  steadystate = { { "iops", "maximum mean deviation of IOPS measurements" },
    { "iops_slope", "slope calculated from IOPS measurements" },
    { "bw", "maximum mean deviation of bandwidth measurements" },
    { "bw_slope", "slope calculated from bandwidth measurements" } },
}
for _, v in ipairs { "md5", "crc64", "crc32", "crc32c-intel", "crc32c", "crc16", "crc7", "sha1", "sha256",
  "sha512", "sha3-224", "sha3-256", "sha3-384", "sha3-512", "xxhash" } do
  local what = v:find("^crc32c") and "crc32c checksums for verification (hw assisted, if available)"
    or v .. " checksums for verification"
  POSVAL.verify[#POSVAL.verify + 1] = { v, "Use " .. what }
end
for _, v in ipairs { { "meta", "Use io information for verification. Now is implied by default, "
  .. "thus option is obsolete, don't use it" }, { "pattern", "Verify strict pattern" },
  { "null", "Pretend to verify" } } do POSVAL.verify[#POSVAL.verify + 1] = v end

-- show_option_values' text for the option called name, or nil
local function values_text(name)
  local list = POSVAL[name]
  if not list then return nil end
  local out = {}
  for i, v in ipairs(list) do
    out[i] = fmt("%20s: %-10s", i == 1 and "valid values" or "", v[1]) .. (v[2] and " " .. v[2] or "") .. "\n"
  end
  return concat(out) .. "\n"
end

-- Split a per-direction value list the way fio's handle_option walks it:
-- ',' first, else ':' then '-' (sizes) or ',' only (ranges). Returns the
-- pieces, each piece being the rest of the string from its start (fio parses
-- a number's prefix, so what follows does not matter).
local function walk(v, seps)
  local parts = {}
  local rest = v
  while true do
    local cut = rest:find(",", 1, true)
    if cut and cut == #rest then
      rest = rest:sub(1, -2)
      parts[#parts + 1] = rest
      parts[#parts + 1] = ""
      break
    end
    if not cut and seps then
      cut = rest:find(":", 1, true) or rest:find("-", 1, true)
    end
    parts[#parts + 1] = rest
    if not cut then break end
    rest = rest:sub(cut + 1)
  end
  return parts
end

-- Store per-direction values as fio does: the first piece is read's, the
-- second write's, the third trim's; the last piece given also fills the
-- directions after it. vals[i] == nil: that piece did not parse (kept).
local function store_dirs(t, vals, n)
  for i = 1, n do
    local v = vals[i]
    if v ~= nil then
      t[DIRS[i]] = v
      if i == n then
        for j = i + 1, 3 do t[DIRS[j]] = v end
      end
    end
  end
end

local function check_range(s, v)
  if s.max and v > s.max then
    bad(fmt("%s: max value out of range: %d (%d max)", s.name, v, s.max))
  end
  if s.min and v < s.min then
    bad(fmt("%s: min value out of range: %d (%d min)", s.name, v, s.min))
  end
end

-- A bssplit list (split_parse_ddir): "bs/pct:bs/pct", a missing or 0
-- percentage counted as missing.
local function split_list(str, kb_base)
  local list, given, missing = {}, 0, 0
  for item in (str .. ":"):gmatch("([^:]*):") do
    if item == "" then break end
    local first, perc_s = item:match("^([^/]*)/(.*)$")
    first = first or item
    local perc
    if perc_s then
      perc = tonumber(perc_s:match("^%s*(%d+)")) or 0
      if perc > 100 then perc = 100 end
      if perc == 0 then perc = nil end
    end
    local v = parse_size(first, kb_base)
    if not v then bad("fio: split conversion failed") end
    list[#list + 1] = { v, perc }
    if perc then given = given + perc else missing = missing + 1 end
    if #list == 64 then break end
  end
  return list, given, missing
end

local function bssplit_dir(str, kb_base)
  local list, given, missing = split_list(str, kb_base)
  if #list == 0 then return nil end
  -- fio refuses this only when more than one entry lacks a percentage (and
  -- else hands out a negative remainder); platter refuses it always
  if given > 100 then bad("fio: bssplit percentages add to more than 100%") end
  if missing > 0 then
    -- fio 3.33 gives a lone size with no percentage 0% (it sets the sum to
    -- 100 first); it is the whole mix, so 100% here
    if missing == 1 and #list == 1 then given = 0 end
    local share = floor((100 - given) / missing)
    for _, e in ipairs(list) do
      if not e[2] then e[2] = share end
    end
  end
  local out = {}
  for i, e in ipairs(list) do out[i] = { bs = e[1], pct = e[2], i = i } end
  table.sort(out, function(a, b)  -- fio sorts by percentage (glibc's sort is stable)
    if a.pct ~= b.pct then return a.pct < b.pct end
    return a.i < b.i
  end)
  for _, e in ipairs(out) do e.i = nil end
  return out
end

local function zoned_dir(str)
  local list, given = {}, 0
  local sgiven, smissing = 0, 0
  for item in (str .. ":"):gmatch("([^:]*):") do
    if item == "" then break end
    local a, b = item:match("^([^/]*)/(.*)$")
    a = a or item
    local access = tonumber(a:match("^%s*(%d+)"))
    if not access then bad("fio: split conversion failed") end
    local size = b and tonumber(b:match("^%s*(%d+)")) or nil
    if size == 0 then size = nil end
    if size and size > 100 then size = 100 end
    list[#list + 1] = { access = access, size = size }
    given = given + access
    if size then sgiven = sgiven + size else smissing = smissing + 1 end
  end
  if #list == 0 then return nil end
  if given > 100 or sgiven > 100 then
    bad("fio: zone_split percentages add to more than 100%")
  end
  if given < 100 then
    bad(fmt("fio: access percentage don't add up to 100 for zoned random distribution (got=%d)",
      given))
  end
  if smissing > 0 then
    if smissing == 1 and #list == 1 then sgiven = 0 end  -- as for bssplit
    for _, z in ipairs(list) do
      if not z.size then z.size = floor((100 - sgiven) / smissing) end
    end
  end
  return list
end

-- str_split_parse: "r,w,t" or one list for all three directions.
local function per_dir(str, one)
  local t = {}
  local a, b, c = str:match("^([^,]*),([^,]*),(.*)$")
  if not a then a, b = str:match("^([^,]*),(.*)$") end
  if a then
    t.trim = one(c or b)
    t.write = one(b)
    t.read = one(a)
  else
    t.write, t.trim, t.read = one(str), one(str), one(str)
  end
  return t
end

local function float_of(s)
  local v = tonumber(s:match("^%s*([+-]?%d*%.?%d*[eE]?[+-]?%d*)"))
  if not v then v = tonumber(s:match("^%s*([+-]?%d*%.?%d+)")) end
  return v
end

-- The option parsers: kind -> function(spec, o, v, st), v the value text or
-- nil (bare option). They raise bad(...) on a bad value.
local KIND = {}

function KIND.str(s, o, v)
  if v == "" then bad(nil) end
  o[s.store] = v
end

function KIND.engine(s, o, v)
  if not v or v == "" then bad(nil) end
  if not ENGINES[v] then
    if FIO_ENGINES[v] or v:match("^external") then
      fail(not_supported(fmt("ioengine=%s", v)) .. "\n" .. valid_values(ENGINE_ORDER))
    end
    fail(fmt("fio: engine %s not loadable", v), "fio: failed to load engine")
  end
  o[s.store] = v
end

function KIND.filename(_, o, v)
  if not v or v == "" then bad(nil) end
  v = v:match("^%s*(.-)%s*$")
  local list = o.filename or {}
  -- get_next_str: ':' separates, '\:' is a colon, empty names are skipped
  local cur, i = {}, 1
  local function push()
    local name = concat(cur)
    cur = {}
    if name ~= "" then list[#list + 1] = name end
  end
  while i <= #v do
    local ch = v:sub(i, i)
    if ch == "\\" and v:sub(i + 1, i + 1) == ":" then
      cur[#cur + 1] = ":"
      i = i + 2
    elseif ch == ":" then
      push()
      i = i + 1
    else
      cur[#cur + 1] = ch
      i = i + 1
    end
  end
  push()
  o.filename = list
end

function KIND.enum(s, o, v)
  if not v then bad(nil) end
  local head = enum_head(v)
  local val = s.values[head]
  if val == nil then
    if s.fio then
      for _, f in ipairs(s.fio) do
        if f == head then fail(not_supported(fmt("%s=%s", s.name, head))) end
      end
    end
    bad(nil, true)  -- not one of the option's values
  end
  o[s.store] = val
end

function KIND.rw(_, o, v, st)
  if not v then bad(nil) end
  local head = enum_head(v)
  local kind = RW[head]
  if not kind then
    if RW_FIO[head] then fail(not_supported(fmt("rw=%s", head))) end
    bad(nil, true)  -- not one of the option's values
  end
  local rw = { kind = kind, seq_nr = 1, seq_add = 0 }
  local post = v:match(":(.*)$")
  if post then
    post = post:match("^%s*(.-)%s*$")
    if RANDOM[kind] then
      rw.seq_nr = tonumber(post:match("^[+-]?%d+")) or 0
    else
      local add = parse_size(post, st.kb_base())
      if not add then bad("fio: rw postfix parsing failed") end
      rw.seq_add = add
    end
  end
  o.rw = rw
end

function KIND.bool(s, o, v)
  if not v then bad(nil) end
  local n = parse_int(v)
  if not n then bad(nil) end
  if n > 1 then bad(fmt("max value out of range: %d (1 max)", n)) end
  local b = n ~= 0
  if s.neg then b = not b end
  o[s.store] = b
  if s.name == "gtod_reduce" and b then
    o.clat_percentiles, o.lat_percentiles, o.slat_percentiles = false, false, false
  end
end

function KIND.set(s, o, v)
  local b = true
  if v then
    local n = parse_int(v)
    if not n then bad(nil) end
    b = n ~= 0
  end
  o[s.store] = b
end

-- A number (fio's FIO_OPT_INT / ULL / STR_VAL with no callback): sizes'
-- suffixes count here too (iodepth=1k is 1024).
local function number(s, piece, st)
  local val, pct = parse_size(piece, st.kb_base())
  if pct then bad(nil) end
  if val then check_range(s, val) end
  return val
end

function KIND.int(s, o, v, st)
  if not v then bad(nil) end
  if v:sub(-1) == "z" then bad(fmt("%s: 'z' suffix isn't applicable", s.name)) end
  local parts = walk(v, true)
  local vals, any = {}, false
  for i, piece in ipairs(parts) do
    vals[i] = number(s, piece, st)
    any = any or vals[i] ~= nil
  end
  if not any then bad(nil) end
  if s.dirs then
    local t = copy(o[s.store]) or {}
    store_dirs(t, vals, math.min(#parts, 3))
    o[s.store] = t
  else
    o[s.store] = vals[1] or o[s.store]
  end
  if s.name == "rwmixread" then o.rwmixwrite = 100 - o.rwmixread end
  if s.name == "rwmixwrite" then o.rwmixread = 100 - o.rwmixwrite end
end

-- cpus_allowed / cpumask: a CPU set, as a sorted list. fio (set_cpus_allowed,
-- str_cpumask_cb) refuses a CPU at or past the CPUs configured, naming it.
local function ncpus()
  local _, n = require("platter").affinity()
  return n
end

local function add_cpu(set, c, max)
  if c >= max then bad(fmt("fio: CPU %d too large (max=%d)", c, max - 1)) end
  set[c] = true
end

local function cpu_list(set)
  local list = {}
  for c in pairs(set) do list[#list + 1] = c end
  table.sort(list)
  return list
end

-- "0-3,6": comma-separated CPUs or ranges, read as fio reads them (strsep and atoi;
-- a range whose end is below its start adds nothing, and an empty piece ends the list)
function KIND.cpus(s, o, v)
  if not v then bad(nil) end
  local max, set = ncpus(), {}
  local text = v:match("^%s*(.-)%s*$")
  for piece in (text .. ","):gmatch("([^,]*),") do
    if piece == "" then break end
    -- strsep cuts the piece at its first '-': "-5" is CPU 0 (atoi of ""), as in fio
    local atoi = require("platter.classic").atoi
    local lo, hi = atoi(piece:match("^[^-]*")), nil
    for part in (piece .. "-"):gmatch("([^-]*)-") do
      if part == "" then break end
      hi = atoi(part)
    end
    hi = hi or lo
    for c = lo, hi do add_cpu(set, c, max) end
  end
  o[s.store] = cpu_list(set)
end

-- cpumask=N: bit N of the number is CPU N (the low 32 bits, as fio's int)
function KIND.cpumask(s, o, v, st)
  if not v then bad(nil) end
  local val = number(s, v, st)
  if not val then bad(nil) end
  local max, set = ncpus(), {}
  for c = 0, 31 do
    if math.floor(val / 2 ^ c) % 2 == 1 then add_cpu(set, c, max) end
  end
  o[s.store] = cpu_list(set)
end

-- size / io_size / offset / offset_increment: bytes or a percentage.
function KIND.sizepct(s, o, v, st)
  if not v then bad(nil) end
  if v:sub(-1) == "z" then fail(not_supported(fmt("%s in zones (%s=%s)", s.name, s.name, v))) end
  local parts = walk(v, true)
  local ok = false
  for _, piece in ipairs(parts) do
    local val, pct = parse_size(piece, st.kb_base())
    if pct then
      if s.uncapped and pct > 100 then
        bad(fmt("fio: %s values greater than 100%% aren't supported", s.name))
      end
      if pct > 100 then bad(nil) end
      o[s.store], o[s.store .. "_percent"], ok = nil, pct, true
    elseif val then
      o[s.store], o[s.store .. "_percent"], ok = val, nil, true
    end
  end
  if not ok then bad(nil) end
end

-- filesize: low or low-high (first piece the low, the last the high).
function KIND.sizerange(s, o, v, st)
  if not v then bad(nil) end
  local parts = walk(v, true)
  local any = false
  for i, piece in ipairs(parts) do
    local val = number(s, piece, st)
    if val then
      any = true
      if i == 1 then o[s.store] = val end
      if i == #parts then o[s.store .. "_high"] = val end
    end
  end
  if not any then bad(nil) end
end

function KIND.time(s, o, v)
  if not v then bad(nil) end
  if v:sub(1, 1) == "(" then bad(nil) end
  local us = parse_time_us((v:gsub(",.*$", "")), s.unit_s)
  if not us then bad(nil) end
  o[s.store] = seconds(us)
end

-- startdelay: seconds, or low-high.
function KIND.timerange(s, o, v)
  if not v then bad(nil) end
  local parts = walk(v, true)
  local any = false
  for i, piece in ipairs(parts) do
    local us = parse_time_us((piece:gsub(",.*$", "")), s.unit_s)
    if us then
      any = true
      if i == 1 then o[s.store] = seconds(us) end
      if i == #parts then o[s.store .. "_high"] = seconds(us) end
    end
  end
  if not any then bad(nil) end
end

function KIND.range(s, o, v, st)
  if not v then bad(nil) end
  local parts = walk(v, false)
  local vals, any = {}, false
  for i, piece in ipairs(parts) do
    piece = piece:match("^[^,]*")
    local a, b = piece:match("^(.-)%-(.*)$")
    if not a then a, b = piece:match("^(.-):(.*)$") end
    if a then
      local lo, hi = parse_size(a, st.kb_base()), parse_size(b, st.kb_base())
      if lo and hi then
        if lo > hi then lo, hi = hi, lo end
        vals[i] = { min = lo, max = hi }
        any = true
      end
    end
  end
  if not any then bad(nil) end
  local t = copy(o[s.store]) or {}
  store_dirs(t, vals, math.min(#parts, 3))
  o[s.store] = t
end

function KIND.bssplit(_, o, v, st)
  if not v or v == "" then bad(nil) end
  v = v:match("^%s*(.-)%s*$")
  local kb = st.kb_base()
  local t = per_dir(v, function(str) return bssplit_dir(str, kb) end)
  local old = o.bssplit or {}
  for _, d in ipairs(DIRS) do
    if t[d] == nil then t[d] = old[d] end
  end
  o.bssplit = t
end

function KIND.floatlist(s, o, v)
  if not v then bad(nil) end
  local list, prec = {}, 0
  for item in (v .. ":"):gmatch("([^:]*):") do
    if #list == 20 then bad("the list exceeding max length 20") end
    local f = float_of(item)
    if not f then bad("not a floating point value: " .. item) end
    if f > 100 then bad(fmt("value out of range: %f (range max: %f)", f, 100)) end
    if f < 0 then bad(fmt("value out of range: %f (range min: %f)", f, 0)) end
    list[#list + 1] = f
    local dec = item:match("%.(%d*)")
    if dec and #dec > prec then prec = #dec end
  end
  o[s.store] = list
  o.percentile_precision = prec
end

function KIND.log(s, o, v)
  o[s.store] = (v and v ~= "") and v or true
end

local DISTR = { random = true, zipf = true, pareto = true, normal = true, zoned = true,
  zoned_abs = true }

-- zoned_abs: "access/size:..." with sizes in bytes (fio's units)
local function zoned_abs_dir(str, kb_base)
  local list, given = {}, 0
  for item in (str .. ":"):gmatch("([^:]*):") do
    if item == "" then break end
    local a, b = item:match("^([^/]*)/(.*)$")
    local access = tonumber((a or item):match("^%s*(%d+)"))
    local size = b and parse_size(b:match("^%s*(.-)%s*$"), kb_base)
    if not access or not size then bad("fio: split conversion failed") end
    list[#list + 1] = { access = access, size = size }
    given = given + access
  end
  if #list == 0 then return nil end
  if given > 100 then bad("fio: zone_split percentages add to more than 100%") end
  if given < 100 then
    bad(fmt("fio: access percentage don't add up to 100 for zoned random distribution (got=%d)",
      given))
  end
  return list
end

function KIND.distribution(_, o, v, st)
  if not v then bad(nil) end
  local head = enum_head(v)
  if not DISTR[head] then bad(nil, true) end
  local d = { kind = head }
  if head == "zoned" or head == "zoned_abs" then
    local str = v:match("^%s*(.-)%s*$")
    local pre = head .. ":"
    if str:sub(1, #pre) ~= pre then bad(fmt("fio: mismatch in zoned input <%s>", str)) end
    local t = head == "zoned" and per_dir(str:sub(#pre + 1), zoned_dir)
      or per_dir(str:sub(#pre + 1), function(x) return zoned_abs_dir(x, st.kb_base()) end)
    d.read, d.write, d.trim = t.read, t.write, t.trim
  elseif head ~= "random" then
    local val = ({ zipf = 1.1, pareto = 0.2, normal = 0.0 })[head]
    local post = v:match(":(.*)$")
    if post then
      post = post:match("^%s*(.-)%s*$")
      local a, c = post:match("^([^:]*):(.*)$")
      a = a or post
      local x = float_of(a)
      local center = c and float_of(c)
      if not x or (c and not center) then bad("fio: random postfix parsing failed") end
      val = x
      if center then
        if center < 0 or center > 1 then
          bad("fio: distribution center out of range (0 <= center <= 1.0)")
        end
        d.center = center
      end
    end
    if head == "zipf" and val == 1 then bad("fio: zipf theta must different than 1.0") end
    if head == "pareto" and (val <= 0 or val >= 1) then
      bad("fio: pareto input out of range (0 < input < 1.0)")
    end
    if head == "normal" and (val < 0 or val >= 100) then
      bad("fio: normal deviation out of range (0 <= input < 100.0)")
    end
    if head == "zipf" then d.theta = val elseif head == "pareto" then d.h = val else d.dev = val end
  end
  o.random_distribution = d
end

local SS = { iops = true, iops_slope = true, bw = true, bw_slope = true }

function KIND.steadystate(_, o, v, st)
  if not v then bad(nil) end
  local head = enum_head(v)
  if not SS[head] then bad(nil, true) end
  local post = v:match(":(.*)$")
  if not post then
    bad("fio: steadystate threshold must be specified in addition to criterion")
  end
  post = post:match("^%s*(.-)%s*$")
  local ss = { kind = head, slope = head:find("slope") ~= nil, pct = false }
  local pnum = post:match("^(.-)%%")
  if pnum then
    local f = float_of(pnum)
    if not f then bad("fio: could not parse steadystate threshold percentage") end
    ss.limit, ss.pct = f, true
  elseif head:sub(1, 4) == "iops" then
    local f = float_of(post)
    if not f then bad("fio: steadystate IOPS threshold postfix parsing failed") end
    ss.limit = f
  else
    local b = parse_size(post, st.kb_base())
    if not b then bad("fio: steadystate BW threshold postfix parsing failed") end
    ss.limit = b
  end
  o.steadystate = ss
end

-- Apply one option to state st ({ o = normalized, raw = {}, list = {} }).
-- `key` as written, canonical spec s; `shown` is the text for fio's
-- "failed parsing" line. Errors come back as fio's lines.
-- Kinds that are fio's FIO_OPT_STR (a bare one fails without a word) or
-- FIO_OPT_STR_SET (bare is 1); the others need a value.
local BARE_OK = { set = true, log = true, rw = true, enum = true, distribution = true,
  steadystate = true }

local function apply(st, s, v, shown)
  local ok, err
  if v == nil and not BARE_OK[s.kind] then
    ok, err = false, { [BAD] = true, pre = fmt("Option %s requires an argument", s.name) }
  else
    ok, err = pcall(KIND[s.kind], s, st.o, v, st)
  end
  if not ok then
    if type(err) == "table" and err[BAD] then
      local lines = {}
      if err.pre then lines[#lines + 1] = err.pre end
      lines[#lines + 1] = "fio: failed parsing " .. shown
      M.failed_values = err.not_in_set and values_text(s.name) or nil  -- stdout (M.report_failure)
      error(concat(lines, "\n"), 0)
    end
    error(err, 0)
  end
  st.raw[s.name] = v == nil and true or v
  st.list[#st.list + 1] = { name = s.name, value = v }
end

-- A fresh state with fio's defaults (fill_default_options).
local function defaults()
  local o = {
    bs = { read = 4096, write = 4096, trim = 4096 },
    rate = { read = 0, write = 0, trim = 0 },
    rate_iops = { read = 0, write = 0, trim = 0 },
    rate_min = { read = 0, write = 0, trim = 0 },
    percentage_random = { read = 100, write = 100, trim = 100 },
    time_based = false, group_reporting = false, stonewall = false, new_group = false,
    norandommap = false, thread = false, refill_buffers = false,
    iodepth_batch_complete_max = 0, buffer_compress_percentage = 0, ramp_time = 0,
    write_bw_log = false, write_iops_log = false, write_lat_log = false,
  }
  local st = { o = o, raw = {}, list = {} }
  st.kb_base = function() return st.o.kb_base or 1024 end
  for _, s in ipairs(OPTIONS) do
    if s.def then apply(st, s, s.def, s.name .. "=" .. s.def) end
  end
  st.raw, st.list = {}, {}
  return st
end

local function clone(st)
  local n = { o = copy(st.o), raw = copy(st.raw), list = {} }
  n.kb_base = function() return n.o.kb_base or 1024 end
  return n
end

-- ---------------------------------------------------------------------------
-- "Did you mean": fio's edit distance over its option names.
-- ---------------------------------------------------------------------------
local function distance(a, b)
  local p, q = {}, {}
  for j = 0, #b do p[j] = j end
  for i = 1, #a do
    q[0] = p[0] + 1
    for j = 1, #b do
      local sub = p[j - 1] + (a:byte(i) == b:byte(j) and 0 or 1)
      q[j] = math.min(p[j] + 1, q[j - 1] + 1, sub)
    end
    p, q = q, p
  end
  return p[#b]
end

-- The command line's candidates are fio's long options in its order: its own
-- (init.c's l_opts), then each job option followed by its alias (options.c's
-- options_to_lopts); a job file's are the job options' names alone.
local lopt_order = {}
do
  local alias_of = {}
  for a, n in pairs(FIO_ALIASES) do alias_of[n] = a end
  for n in ([[output latency-log bandwidth-log minimal output-format append-terse version help
    cmdhelp enghelp showcmd readonly eta eta-interval eta-newline debug parse-only section
    inflate-log alloc-size profile warnings-fatal max-jobs terse-version server server-internal
    daemonize client remote-config cpuclock-test crctest memcpytest idle-prof status-interval
    trigger-file trigger-timeout trigger trigger-remote aux-path merge-blktrace-only]]):gmatch("%S+") do
    lopt_order[#lopt_order + 1] = n
  end
  for _, n in ipairs(fio_order) do
    lopt_order[#lopt_order + 1] = n
    if alias_of[n] then lopt_order[#lopt_order + 1] = alias_of[n] end
  end
end

-- A job file's "key=value" is cut at '='; a command-line word is compared
-- whole, less its dashes (what fio 3.33 prints: --foo=1 gives loops).
local function closest(word, whole)
  local name = whole and word:gsub("^%-+", "") or word:match("^([^=]*)")
  if name == "" then return nil end
  local best, bestd
  for _, n in ipairs(whole and lopt_order or fio_order) do
    local d = distance(name, n)
    if not bestd or d < bestd then best, bestd = n, d end
  end
  if best and bestd <= floor((#name + 1) / 2) then return "Did you mean " .. best .. "?" end
  return nil
end

-- ---------------------------------------------------------------------------
-- Environment expansion (fio_option_dup_subs, fio_keyword_replace).
-- ---------------------------------------------------------------------------
local KEYWORDS = { "pagesize", "mb_memory", "ncpus" }

-- fio's keywords as fio_keywords_init sets them: $mb_memory the machine's RAM in MiB
-- (the simulated disk's machine under --sim), $ncpus the CPUs configured; $pagesize
-- has no source here and stays refused.
-- M.report_failure(msg, out, err): a failed parse as fio prints it: the message (err,
-- stderr) and, when the failure was a value outside an option's set, fio's list of the
-- values (out, stdout), which fio writes first; with stdout not a terminal fio's stdout
-- buffer reaches the file or pipe only at exit, after the message.
function M.report_failure(msg, out, err, stdout_is_tty)
  local values = M.failed_values
  M.failed_values = nil
  if values and stdout_is_tty then out(values) end
  err(msg)
  if values and not stdout_is_tty then out(values) end
end

function M.keywords()
  return { mb_memory = math.floor(require("platter").ram() / 1048576), ncpus = ncpus() }
end

local function expand(line, env)
  local out = line:gsub("%${([^}]+)}", function(name)
    if not env.getenv then return "" end
    -- sandboxed, p.getenv refuses a variable not named with --env: say so, as fio's
    -- own errors are said (without this file's line)
    local ok, v = pcall(env.getenv, name)
    if not ok then fail("fio: ${" .. name .. "}: " .. tostring(v):gsub("^[^\n]-:%d+: ", "")) end
    return v or ""
  end)
  local replaced = false
  for _, kw in ipairs(KEYWORDS) do
    if out:find("$" .. kw, 1, true) then
      local val = env.keywords and env.keywords[kw]
      if val == nil then fail(not_supported("$" .. kw)) end
      out = out:gsub("%$" .. kw, function() return tostring(val) end)
      replaced = true
    end
  end
  if replaced and out:match("=.*[%+%-%*/]") then
    fail(not_supported(fmt("arithmetic in option values (%s; fio runs bc for it)", out)))
  end
  return out
end

-- ---------------------------------------------------------------------------
-- Job files (__parse_jobs_ini).
-- ---------------------------------------------------------------------------

-- strip_blank_end: cut at ';' and '#', then trailing blanks and controls.
local function strip(line)
  line = line:gsub("^%s+", "")
  line = line:gsub("[;#].*$", "")
  line = line:gsub("[%s%c]+$", "")
  return line
end

local function is_comment(line)
  local first = line:match("^[%s%c]*(.)")
  return first == nil or first == ";" or first == "#"
end

local function dirname(path)
  return path:match("^(.*/)[^/]*$")
end

local function read_job_file(env, path, opener)
  if not env.read_file then fail(fmt("fio: unable to open '%s' job file", path)) end
  local text = env.read_file(path)
  if text == nil and opener then
    local dir = dirname(opener)
    if dir then
      local alt = dir .. path
      text = env.read_file(alt)
      if text then return text, alt end
    end
  end
  if text == nil then fail(fmt("fio: unable to open '%s' job file", path)) end
  return text, path
end

local function lines_of(text)
  local t = {}
  for l in (text:gsub("\r\n", "\n") .. "\n"):gmatch("([^\n]*)\n") do t[#t + 1] = l end
  if text:sub(-1) == "\n" then t[#t] = nil end
  return t
end

-- The options of one section, with include files' lines spliced in.
local function section_lines(lines, i, env, file, depth, opts)
  while i <= #lines do
    local raw = lines[i]
    if not is_comment(raw) then
      local p = raw:gsub("^%s+", "")
      if p:sub(1, 1) == "[" then return i end
      p = strip(p)
      if p:sub(1, 7) == "include" then
        local name = p:sub(9)
        if depth >= 16 then fail("fio: include files nested too deep (" .. name .. ")") end
        local ok, err = pcall(function()
          local text, used = read_job_file(env, name, file)
          local sub = lines_of(text)
          local j = section_lines(sub, 1, env, used, depth + 1, opts)
          if j <= #sub then fail("No new sections in included files") end
        end)
        if not ok then fail(err, fmt("Error 1 while parsing include file %s", name)) end
      else
        opts[#opts + 1] = p
      end
    end
    i = i + 1
  end
  return i
end

local function sort_opts(opts)
  local keyed = {}
  for i, line in ipairs(opts) do
    local key = strip((line:match("^([^=]*)")))
    local s = BY_ALIAS[key]
    keyed[i] = { line = line, prio = s and s.prio or 0, i = i }
  end
  table.sort(keyed, function(a, b)
    if a.prio ~= b.prio then return a.prio > b.prio end
    return a.i < b.i
  end)
  for i, k in ipairs(keyed) do opts[i] = k.line end
end

-- Apply a section's option lines to st (fio_options_parse).
local function parse_section(st, opts, env, label)
  sort_opts(opts)
  -- fio parses the options it knows first, then loads the section's engine and takes
  -- the rest as that engine's options; what is neither is a "Bad option"
  local rest, unknown = {}, {}
  for _, line in ipairs(opts) do
    local sub = expand(line, env)
    local key, v = sub:match("^([^=]*)=(.*)$")
    if key then key = key:gsub("[%s%c]+$", "") else key = sub end
    local s = BY_ALIAS[key]
    if ENGINE_OF[fio_canonical(key) or ""] then
      rest[#rest + 1] = { line = line, key = key, v = v, s = s }
    elseif s then
      local ok, err = pcall(apply, st, s, v, line)
      if not ok then fail(err, fmt("fio: job %s dropped", label)) end
    elseif fio_canonical(key) then
      fail(option_not_supported(key), fmt("fio: job %s dropped", label))
    else
      rest[#rest + 1] = { line = line }
    end
  end
  for _, r in ipairs(rest) do
    if not r.key or ENGINE_OF[fio_canonical(r.key)] ~= (st.o.ioengine or "psync") then
      unknown[#unknown + 1] = r.line
    elseif not r.s then
      fail(option_not_supported(r.key), fmt("fio: job %s dropped", label))
    else
      local ok, err = pcall(apply, st, r.s, r.v, r.line)
      if not ok then fail(err, fmt("fio: job %s dropped", label)) end
    end
  end
  if #unknown > 0 then
    local lines = {}
    for _, line in ipairs(unknown) do
      lines[#lines + 1] = fmt("Bad option <%s>", line)
      lines[#lines + 1] = closest(line)
    end
    lines[#lines + 1] = fmt("fio: job %s dropped", label)
    fail(concat(lines, "\n"))
  end
end

-- ---------------------------------------------------------------------------
-- The command line (parse_cmd_line).
-- ---------------------------------------------------------------------------

-- fio's own options: name -> "req" | "opt" | "no".
local CMD = {
  output = "req", ["latency-log"] = "req", ["bandwidth-log"] = "no", minimal = "no",
  ["output-format"] = "req", ["append-terse"] = "opt", version = "no", help = "no",
  cmdhelp = "opt", enghelp = "opt", showcmd = "no", readonly = "no", eta = "req",
  ["eta-interval"] = "req", ["eta-newline"] = "req", debug = "req", ["parse-only"] = "no",
  section = "req", ["inflate-log"] = "req", ["alloc-size"] = "req", profile = "req",
  ["warnings-fatal"] = "no", ["max-jobs"] = "req", ["terse-version"] = "req", server = "opt",
  ["server-internal"] = "req", daemonize = "req", client = "req", ["remote-config"] = "req",
  ["cpuclock-test"] = "no", crctest = "opt", memcpytest = "opt", ["idle-prof"] = "req",
  ["status-interval"] = "req", ["trigger-file"] = "req", ["trigger-timeout"] = "req",
  trigger = "req", ["trigger-remote"] = "req", ["aux-path"] = "req",
  ["merge-blktrace-only"] = "no",
}
local CMD_PLATTER = { output = true, minimal = true, ["output-format"] = true, version = true,
  help = true, showcmd = true, eta = true, ["eta-newline"] = true, ["eta-interval"] = true,
  ["parse-only"] = true, section = true, ["terse-version"] = true, cmdhelp = true,
  ["append-terse"] = true, ["warnings-fatal"] = true, ["status-interval"] = true,
  readonly = true }

-- The long option a word names: exact, else a unique prefix (getopt_long).
local function long_name(word)
  if CMD[word] or fio_canonical(word) then return word end
  local found
  local function try(n)
    if n:sub(1, #word) == word then
      if found and found ~= n then found = false elseif found == nil then found = n end
    end
  end
  for n in pairs(CMD) do try(n) end
  for _, n in ipairs(fio_order) do try(n) end
  for a in pairs(FIO_ALIASES) do try(a) end
  if found then return found end
  return nil
end

local function output_formats(v)
  local seen = {}
  for f in (v .. ","):gmatch("([^,]*),") do
    local name
    if f == "minimal" or f == "terse" or f == "csv" then
      name = "terse"
    elseif f == "json" or f == "json+" or f == "normal" then
      name = f
    else
      fail("fio: invalid output format " .. f, "fio: failed parsing output-format")
    end
    seen[name] = true
    if name == "json+" then seen.json = true end
  end
  -- fio keeps flags: json+ means json with the clat bins
  local out = {}
  for _, n in ipairs { "normal", "terse", "json", "json+" } do
    if seen[n] then out[#out + 1] = n end
  end
  return out
end

local function time_s(v, what)
  local us = parse_time_us(v, true)
  if not us then fail(fmt("fio: failed parsing %s %s", what, v)) end
  return seconds(us)
end

-- ---------------------------------------------------------------------------
-- fj.parse
-- ---------------------------------------------------------------------------

local function show_value(p)
  if p.value == nil then return "--" .. p.name .. " " end
  local q = p.name == "description" and '"' or ""
  return "--" .. p.name .. "=" .. q .. p.value .. q .. " "
end

local function new_job(cfg, st, name, extra)
  local job = { name = st.o.name or name, o = st.o, raw = st.raw, list = st.list }
  for k, v in pairs(extra) do job[k] = v end
  job.options = {}
  for _, p in ipairs(st.list) do job.options[p.name] = p.value == nil and "" or p.value end
  cfg.jobs[#cfg.jobs + 1] = job
  return job
end

local function parse_file(cfg, path, index, env, def, sections)
  local text, used = read_job_file(env, path)
  local lines = lines_of(text)
  local show = {}
  local first = true
  local stonewall = index > 1
  local i, skipping = 1, false
  while i <= #lines do
    local p = strip(lines[i])
    if is_comment(lines[i]) or p == "" then
      i = i + 1
    else
      local name = p:match("^%[(.*)$")
      if not name then
        if skipping then
          i = i + 1
        else
          fail(fmt("fio: option <%s> outside of [] job section", p))
        end
      else
        name = name:sub(1, math.min(#name, 255) - 1)
        local global = name:sub(1, 6) == "global"
        local opts = {}
        i = section_lines(lines, i + 1, env, used, 0, opts)
        if sections and not global and not sections[name] then
          skipping = true
        else
          skipping = false
          if first then show[#show + 1] = "fio " end
          first = false
          if not global then show[#show + 1] = "--name=" .. name .. " " end
          local st = global and def or clone(def)
          if not global then st.o.name = name end
          if not global and stonewall then
            st.o.stonewall, stonewall = true, false
          end
          parse_section(st, opts, env, name)
          for _, q in ipairs(st.list) do show[#show + 1] = show_value(q) end
          if not global then new_job(cfg, st, name, { section = name, file = path }) end
        end
      end
    end
  end
  show[#show + 1] = "\n"
  cfg.showcmd_text[#cfg.showcmd_text + 1] = concat(show)
end

-- fj.parse(argv, env) -> cfg, argv the words after `platter fio`:
--   cfg.jobs      list of jobs, command-line jobs first, then each file's
--   cfg.files     the job files named, in order
--   cfg.global    { {name=, value=}, ... }: fio's "global options" (the
--                 last file's [global] sections and, for the first file,
--                 the command line's options before any --name)
--   cfg.global_raw  the same as a name -> value map
--   cfg.output_format  a subset of "normal", "terse", "json", "json+" in
--                 that order ("json+" comes with "json"); cfg.output (path),
--                 cfg.showcmd, cfg.parse_only, cfg.help, cfg.version,
--                 cfg.minimal, cfg.cmdhelp, cfg.eta ("always"|"never"|..),
--                 cfg.eta_newline, cfg.eta_interval, cfg.terse_version (3)
--                 (--status-interval and --warnings-fatal are refused: nothing would
--                 honour them)
-- A job: name (o.name), section (job files), file, cmdline (true for
-- command-line jobs), index (1..n), o (the normalized options: fio's names,
-- see OPTIONS and the kinds above), raw (name -> value as given, [global]
-- ones included; true for a bare option), list ({name=, value=} of the
-- job's own options in fio's order: fio's "job options"), options (that
-- list as a map, "" for a bare option).
function M.parse(argv, env)
  env = env or {}
  M.failed_values = nil
  local cfg = { jobs = {}, files = {}, output_format = { "normal" }, showcmd = false,
    parse_only = false, help = false, version = false, minimal = false, terse_version = 3,
    showcmd_text = {} }
  local sections
  local def = defaults()
  local td  -- the job the command line is filling (def itself for globals)
  local tdname

  local function finish()
    if td and td ~= def then new_job(cfg, td, tdname or "fio", { cmdline = true }) end
    td = nil
  end

  local i = 1
  local ended = false
  while i <= #argv do
    local a = argv[i]
    if ended or a:sub(1, 1) ~= "-" or a == "-" then
      cfg.files[#cfg.files + 1] = a
    elseif a == "--" then
      ended = true
    else
      local body = a:gsub("^%-%-?", "")
      local word, v = body:match("^([^=]*)=(.*)$")
      word = word or body
      local name = long_name(word)
      -- an engine's option is known only once that engine is the job's (or the global one)
      if name and not CMD[name] and ENGINE_OF[fio_canonical(name) or ""]
          and ENGINE_OF[fio_canonical(name)] ~= ((td or def).o.ioengine or "psync") then
        name = nil
      end
      if not name then
        local lines = { fmt("fio: unrecognized option '%s'", a) }
        lines[#lines + 1] = closest(a, true)
        fail(concat(lines, "\n"))
      end
      local has_arg = CMD[name]
      local spec = not has_arg and BY_ALIAS[name]
      if not has_arg then
        if not spec then fail(option_not_supported(name)) end
        has_arg = FIO_SET[spec.name] and "opt" or "req"
      end
      if v == nil and has_arg == "req" then
        if i < #argv then
          i = i + 1
          v = argv[i]
        else
          fail(fmt("fio: option '%s' requires an argument", a))
        end
      end
      if CMD[name] then
        if not CMD_PLATTER[name] then fail(not_supported(fmt("option '--%s'", name))) end
        if name == "output" then
          cfg.output = v
        elseif name == "output-format" then
          -- fio's --minimal is --output-format=terse: whichever comes later wins
          cfg.output_format, cfg.minimal = output_formats(v), false
        elseif name == "minimal" then
          cfg.minimal, cfg.output_format = true, { "terse" }
        elseif name == "append-terse" then
          local have = false
          for _, f in ipairs(cfg.output_format) do have = have or f == "terse" end
          if not have then table.insert(cfg.output_format, 2, "terse") end
        elseif name == "version" then
          cfg.version = true
        elseif name == "help" then
          cfg.help = true
        elseif name == "cmdhelp" then
          cfg.cmdhelp = v or "all"
        elseif name == "showcmd" then
          cfg.showcmd = true
        elseif name == "parse-only" then
          cfg.parse_only = true
        elseif name == "readonly" then
          cfg.readonly = true
        elseif name == "eta" then
          cfg.eta = v
        elseif name == "eta-newline" then
          cfg.eta_newline = time_s(v, "eta time")
          -- fio keeps whole ms
          if floor(cfg.eta_newline * 1000) == 0 then fail("fio: eta new line time too short") end
        elseif name == "eta-interval" then
          cfg.eta_interval = time_s(v, "eta interval")
          if floor(cfg.eta_interval * 1000) < 250 then fail("fio: eta interval time too short (250msec min)") end
        elseif name == "status-interval" then
          -- fio prints the whole report every N seconds from its jobs' running figures;
          -- platter fio has its workers' figures only when they end
          time_s(v, "time")
          fail((not_supported("option '--status-interval'"):gsub("%(.*%)$",
            "(its report is made once, when the jobs end)")))
        elseif name == "warnings-fatal" then
          -- platter fio prints none of fio's parser warnings, so it has none to make fatal
          fail((not_supported("option '--warnings-fatal'"):gsub("%(.*%)$",
            "(platter fio prints none of fio's parser warnings to make fatal)")))
        elseif name == "section" then
          if v == "global" then fail("fio: can't use global as only section") end
          sections = sections or {}
          sections[v] = true
        elseif name == "terse-version" then
          local n = tonumber(v:match("^%d+"))
          if not n or n < 2 or n > 5 then fail("fio: bad terse version format") end
          cfg.terse_version = n
        end
      else
        local skip = false
        if spec.name == "name" and td then finish() end
        if not td then
          local is_section = spec.name == "name"
          local global = not is_section or (v or ""):sub(1, 6) == "global"
          if is_section and sections and not sections[v] then
            skip = true
          else
            td = global and def or clone(def)
            tdname = is_section and v or nil
          end
        end
        if not skip then
          if (v == nil or v == "") and has_arg == "req" then
            fail(fmt("fio: option %s requires an argument", word))
          end
          local ok, err = pcall(apply, td, spec, v, word .. "=" .. tostring(v))
          if not ok then fail(err) end
        end
      end
    end
    i = i + 1
  end
  finish()

  for k, path in ipairs(cfg.files) do
    if k > 1 then def = defaults() end
    parse_file(cfg, path, k, env, def, sections)
    sections = nil  -- fio forgets --section after the first job file
  end
  cfg.global = def.list
  cfg.global_raw = def.raw
  if #cfg.jobs == 0 and not (cfg.showcmd or cfg.parse_only or cfg.help or cfg.version
      or cfg.cmdhelp) then
    fail("No job(s) defined")
  end
  -- --readonly: fio's guard against a job that would write (platter has no trim)
  if cfg.readonly then
    for _, job in ipairs(cfg.jobs) do
      local kind = job.o.rw and job.o.rw.kind or "read"
      if kind ~= "read" and kind ~= "randread" then
        fail("fio: trim and write operations are not allowed with the --readonly parameter.")
      end
    end
  end
  -- numbered copies of a job (numjobs) are the workload's to make; fio's
  -- job number within the whole run is the list's order
  for n, job in ipairs(cfg.jobs) do job.index = n end
  return cfg
end

-- What fio --showcmd prints for the job files: one line per file.
function M.showcmd(cfg)
  return concat(cfg.showcmd_text)
end

-- The options platter takes, in the order of its table: { name, alias,
-- help }, for platter fio --help.
function M.supported()
  local list = {}
  for _, s in ipairs(OPTIONS) do
    list[#list + 1] = { name = s.name, alias = s.alias, help = s.help, kind = s.kind, def = s.def }
  end
  return list
end

-- The engines platter runs, and whether fio has an option (for messages).
M.engines = ENGINE_ORDER
function M.fio_has(name) return fio_canonical(name) ~= nil end

-- Parsers of fio's units, for the workload's own use (fio's rules).
function M.size(s, kb_base) return parse_size(s, kb_base or 1024) end

--- bs_dirs(v, kb_base, range) -> { read = {lo, hi}, write = ..., trim = ... } | nil:
-- the block sizes a bs value (range false: "4k", "4k,8k", and fio's ':' and '-'
-- that split it into directions too) or a bsrange value (range true: "4k-8k")
-- gives each direction, read as a job's own option is (4 KiB where none is given);
-- nil when it gives none. For the report's header (fio_report), which works from
-- the options' text.
function M.bs_dirs(v, kb_base, range)
  local o = { bs = { read = 4096, write = 4096, trim = 4096 } }
  local st = { kb_base = function() return kb_base or 1024 end }
  local spec = { name = "bs", store = "bs", dirs = true, min = 1 }
  if not pcall(KIND[range and "range" or "int"], spec, o, v, st) then return nil end
  local out = {}
  for _, d in ipairs(DIRS) do
    local x = o.bs[d]
    out[d] = type(x) == "table" and { x.min, x.max } or { x, x }
  end
  return out
end
function M.time(s, unit_s)
  local us = parse_time_us(s, unit_s)
  return us and seconds(us)
end

return M
