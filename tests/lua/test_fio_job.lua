-- platter.fio_job: fio 3.33's job files and command lines. The expected
-- values are what fio 3.33 itself does with the same input (checked with
-- /usr/bin/fio: --showcmd, --parse-only, the job summary line of a null
-- engine run, and its error messages); tests/cli/fio_showcmd.t compares
-- --showcmd with the real fio when it is installed.
local T = ...
local fj = require "platter.fio_job"
local p = require "platter"

-- An env with in-memory files and environment variables.
local function env(files, vars)
  return {
    read_file = function(path)
      local t = files and files[path]
      if t == nil then return nil, path .. ": No such file or directory" end
      return t
    end,
    getenv = function(name) return vars and vars[name] end,
  }
end

local function parse(argv, files, vars) return fj.parse(argv, env(files, vars)) end

-- The one job of a command line.
local function job(...)
  local cfg = parse({ "--name=x", ... })
  T.eq(#cfg.jobs, 1, "jobs")
  return cfg.jobs[1].o, cfg.jobs[1]
end

local function file_job(text, vars)
  local cfg = parse({ "j.fio" }, { ["j.fio"] = text }, vars)
  return cfg.jobs[1].o, cfg
end

local function bad(argv, sub, files)
  return T.raises(function() parse(argv, files) end, sub, table.concat(argv, " "))
end

T.test("defaults are fio's", function()
  local o, j = job()
  T.eq(j.name, "x", "name")
  T.eq(o.rw.kind, "read", "rw")
  T.eq(o.rw.seq_nr, 1, "rw seq_nr")
  T.eq(o.rw.seq_add, 0, "rw seq_add")
  T.eq(o.bs.read, 4096, "bs read")
  T.eq(o.bs.write, 4096, "bs write")
  T.eq(o.bs.trim, 4096, "bs trim")
  T.eq(o.ioengine, "psync", "ioengine")
  T.eq(o.iodepth, 1, "iodepth")
  T.eq(o.numjobs, 1, "numjobs")
  T.eq(o.rwmixread, 50, "rwmixread")
  T.eq(o.rwmixwrite, 50, "rwmixwrite")
  T.eq(o.kb_base, 1024, "kb_base")
  T.eq(o.loops, 1, "loops")
  T.eq(o.direct, false, "direct")
  T.eq(o.invalidate, true, "invalidate")
  T.eq(o.randrepeat, true, "randrepeat")
  T.eq(o.randseed, 0x89, "randseed")
  T.eq(o.runtime, 0, "runtime")
  T.eq(o.time_based, false, "time_based")
  T.eq(o.sync, "none", "sync")
  T.eq(o.verify, "none", "verify")
  T.eq(o.do_verify, true, "do_verify")
  T.eq(o.clat_percentiles, true, "clat_percentiles")
  T.eq(o.lat_percentiles, false, "lat_percentiles")
  T.eq(o.random_distribution.kind, "random", "random_distribution")
  T.eq(o.rate_process, "linear", "rate_process")
  T.eq(o.rate.read, 0, "rate read")
  T.eq(o.percentage_random.write, 100, "percentage_random")
  T.eq(#o.percentile_list, 17, "percentile_list")
  T.eq(o.percentile_list[14], 99.5, "percentile_list[14]")
  T.eq(o.percentile_precision, 2, "percentile_precision")
  T.eq(o.filename_format, "$jobname.$jobnum.$filenum", "filename_format")
  T.eq(o.steadystate.kind, "iops_slope", "steadystate")
  T.eq(o.steadystate.limit, 0.01, "steadystate limit")
  T.eq(o.steadystate.pct, true, "steadystate pct")
  T.eq(o.steadystate_duration, 0, "ss_dur")
  T.eq(o.size, nil, "size")
  T.eq(o.filename, nil, "filename")
end)

T.test("sizes: k=1024, kb_base=1000, the iB forms the other way, hex, %", function()
  T.eq(job("--bs=4k").bs.read, 4096, "4k")
  T.eq(job("--bs=4K").bs.read, 4096, "4K")
  T.eq(job("--bs=4kb").bs.read, 4096, "4kb")
  T.eq(job("--bs=4KiB").bs.read, 4000, "4KiB (fio inverts iB under kb_base=1024)")
  T.eq(job("--bs=0x1000").bs.read, 4096, "hex")
  T.eq(job("--size=1g").size, 1073741824, "1g")
  T.eq(job("--size=2t").size, 2 * 1024 ^ 4, "2t")
  T.eq(job("--kb_base=1000", "--size=1m").size, 1000000, "kb_base=1000 1m")
  T.eq(job("--kb_base=1000", "--size=1MiB").size, 1048576, "kb_base=1000 1MiB")
  T.eq(job("--bs=1.5k").bs.read, 1, "1.5k: fio reads the integer part and no unit")
  local o = job("--size=25%")
  T.eq(o.size, nil, "size with %")
  T.eq(o.size_percent, 25, "size_percent")
  o = job("--offset=10%", "--io_size=50%", "--offset_increment=5%")
  T.eq(o.offset_percent, 10, "offset_percent")
  T.eq(o.io_size_percent, 50, "io_size_percent")
  T.eq(o.offset_increment_percent, 5, "offset_increment_percent")
  T.eq(job("--io_limit=8m").io_size, 8388608, "io_limit alias")
  T.eq(job("--fileoffset=4k").offset, 4096, "fileoffset alias")
  T.eq(job("--iodepth=1k").iodepth, 1024, "a unit in an integer option")
  o = job("--filesize=1m-2m")
  T.eq(o.filesize, 1048576, "filesize low")
  T.eq(o.filesize_high, 2097152, "filesize high")
end)

T.test("kb_base comes first in a section, whatever the line order", function()
  local o = file_job("[a]\nsize=1m\nkb_base=1000\n")
  T.eq(o.size, 1000000, "size after sorting")
  -- on the command line the order is as given
  T.eq(job("--size=1m", "--kb_base=1000").size, 1048576, "command line order")
end)

T.test("per-direction values: read,write,trim, the last given fills the rest", function()
  local function bs(v)
    local b = job("--bs=" .. v).bs
    return b.read .. "/" .. b.write .. "/" .. b.trim
  end
  T.eq(bs("4k-16k"), "4096/16384/16384", "4k-16k")
  T.eq(bs("4k,8k"), "4096/8192/8192", "4k,8k")
  T.eq(bs("4k,"), "4096/4096/4096", "4k,")
  T.eq(bs(",8k"), "4096/8192/8192", ",8k")
  T.eq(bs("4k:8k,16k"), "4096/16384/16384", "4k:8k,16k")
  T.eq(bs("1k,2k,3k"), "1024/2048/3072", "1k,2k,3k")
  local r = job("--rate=1m,2m").rate
  T.eq(r.read, 1048576, "rate read")
  T.eq(r.write, 2097152, "rate write")
  r = job("--rate=,500k").rate
  T.eq(r.read, 0, "rate read unset")
  T.eq(r.write, 512000, "rate write only")
  T.eq(job("--rate_iops=100").rate_iops.trim, 100, "rate_iops all")
  T.eq(job("--ratemin=1m").rate_min.write, 1048576, "ratemin alias")
  T.eq(job("--blockalign=8k").ba.read, 8192, "blockalign alias")
  T.eq(job("--percentage_random=30,70").percentage_random.write, 70, "percentage_random")
end)

T.test("bsrange and bssplit", function()
  local o = job("--bsrange=16k-4k,1k:2k")
  T.eq(o.bsrange.read.min, 4096, "bsrange read min (swapped)")
  T.eq(o.bsrange.read.max, 16384, "bsrange read max")
  T.eq(o.bsrange.write.min, 1024, "bsrange write min")
  T.eq(o.bsrange.trim.max, 2048, "bsrange trim = write")
  T.eq(job("--blocksize_range=1k-2k").bsrange.write.max, 2048, "blocksize_range alias")
  o = job("--bssplit=4k/10:64k/50:32k")
  local r = o.bssplit.read
  T.eq(#r, 3, "bssplit entries")
  -- fio sorts by percentage and gives the rest to the entry without one
  T.eq(r[1].bs, 4096, "first bs")
  T.eq(r[1].pct, 10, "first pct")
  T.eq(r[2].bs, 32768, "second bs (the rest: 40)")
  T.eq(r[2].pct, 40, "second pct")
  T.eq(r[3].bs, 65536, "third bs")
  T.eq(o.bssplit.write[3].pct, 50, "one list: the same for writes")
  o = job("--bssplit=4k/50:8k/50,16k")
  T.eq(#o.bssplit.read, 2, "read list")
  T.eq(#o.bssplit.write, 1, "write list")
  T.eq(o.bssplit.write[1].bs, 16384, "write bs")
  T.eq(o.bssplit.write[1].pct, 100, "write pct (fio 3.33 says 0, meaning all)")
  T.eq(o.bssplit.trim[1].bs, 16384, "trim = write")
  o = job("--bssplit=4k:8k:16k")
  T.eq(o.bssplit.read[1].pct, 33, "even split, rounded down as fio")
  bad({ "--name=x", "--bssplit=4k/70:8k/70" }, "fio: bssplit percentages add to more than 100%")
end)

T.test("rw and its :N postfix, aliases", function()
  local o = job("--rw=randread:8")
  T.eq(o.rw.kind, "randread", "kind")
  T.eq(o.rw.seq_nr, 8, "random: N I/Os per offset")
  o = job("--readwrite=write:64k")
  T.eq(o.rw.kind, "write", "readwrite alias")
  T.eq(o.rw.seq_add, 65536, "sequential: bytes skipped")
  T.eq(job("--rw=readwrite").rw.kind, "rw", "readwrite value is rw")
  T.eq(job("--rw=randrw").rw.kind, "randrw", "randrw")
  T.eq(bad({ "--name=x", "--rw=bogus" }, "fio: failed parsing rw=bogus"), "fio: failed parsing rw=bogus",
    "the message alone")
  -- fio's list of every rw value (trims too), for stdout: parse.c's show_option_values
  T.has(fj.failed_values, "        valid values: read       Sequential read\n"
    .. "                    : write      Sequential write\n", "valid values listed as fio lists them")
  T.has(fj.failed_values, "                    : randtrimwrite Randomly trim and write mix, trims "
    .. "preceding writes\n\n", "the last, a blank line after it")
  bad({ "--name=x", "--rw=randtrim" }, "fio: rw=randtrim is not supported by platter fio")
end)

T.test("rwmixread and rwmixwrite set each other", function()
  local o = job("--rwmixread=70")
  T.eq(o.rwmixwrite, 30, "rwmixwrite")
  o = job("--rwmixwrite=20")
  T.eq(o.rwmixread, 80, "rwmixread")
  bad({ "--name=x", "--rwmixread=101" }, "rwmixread: max value out of range: 101 (100 max)")
end)

T.test("times: each option's default unit, fio's suffixes, seconds out", function()
  T.eq(job("--runtime=30").runtime, 30, "runtime in s")
  T.eq(job("--runtime=2m").runtime, 120, "m is minutes")
  T.eq(job("--runtime=1h").runtime, 3600, "h")
  T.eq(job("--runtime=500ms").runtime, 0.5, "ms")
  T.eq(job("--timeout=10").runtime, 10, "timeout alias")
  T.eq(job("--ramp_time=5s").ramp_time, 5, "ramp_time")
  T.eq(job("--thinktime=100").thinktime, 0.0001, "thinktime in us")
  T.eq(job("--thinktime=2ms").thinktime, 0.002, "thinktime ms")
  T.eq(job("--runtime=10sec").runtime, 0.00001, "an unknown suffix is microseconds, as fio")
  local o = job("--startdelay=1-5")
  T.eq(o.startdelay, 1, "startdelay low")
  T.eq(o.startdelay_high, 5, "startdelay high")
  T.eq(job("--ss_dur=30").steadystate_duration, 30, "ss_dur alias")
  T.eq(job("--ss_ramp=10").steadystate_ramp_time, 10, "ss_ramp alias")
end)

T.test("booleans, bare options, buffered as the opposite of direct", function()
  local o = job("--direct=1", "--time_based", "--group_reporting", "--norandommap",
    "--stonewall", "--thread", "--refill_buffers", "--new_group")
  T.eq(o.direct, true, "direct")
  T.eq(o.time_based, true, "time_based")
  T.eq(o.group_reporting, true, "group_reporting")
  T.eq(o.norandommap, true, "norandommap")
  T.eq(o.stonewall, true, "stonewall")
  T.eq(o.thread, true, "thread")
  T.eq(o.refill_buffers, true, "refill_buffers")
  T.eq(o.new_group, true, "new_group")
  T.eq(job("--buffered=0").direct, true, "buffered=0")
  T.eq(job("--direct=1", "--buffered=1").direct, false, "buffered=1 after direct=1")
  T.eq(job("--wait_for_previous").stonewall, true, "wait_for_previous alias")
  T.eq(job("--time_based=0").time_based, false, "time_based=0")
  local f = file_job("[a]\ntime_based\nend_fsync=1\nunlink=1\n")
  T.eq(f.time_based, true, "bare in a file")
  T.eq(f.end_fsync, true, "end_fsync")
  T.eq(f.unlink, true, "unlink")
  bad({ "--name=x", "--direct=2" }, "max value out of range: 2 (1 max)\nfio: failed parsing direct=2")
  bad({ "--name=x", "--direct=yes" }, "fio: failed parsing direct=yes")
end)

T.test("gtod_reduce turns the percentiles off; a later option turns one back on", function()
  local o = file_job("[a]\ngtod_reduce=1\n")
  T.eq(o.clat_percentiles, false, "clat")
  T.eq(o.lat_percentiles, false, "lat")
  o = file_job("[a]\ngtod_reduce=1\nclat_percentiles=1\n")
  T.eq(o.clat_percentiles, true, "clat back")
end)

T.test("engines, depths, sync modes, verify", function()
  for _, e in ipairs { "sync", "psync", "pvsync", "libaio", "io_uring", "mmap", "null" } do
    T.eq(job("--ioengine=" .. e).ioengine, e, e)
  end
  local o = job("--iodepth=32", "--iodepth_batch_submit=8", "--iodepth_batch_complete=4",
    "--iodepth_batch_complete_max=16")
  T.eq(o.iodepth, 32, "iodepth")
  T.eq(o.iodepth_batch, 8, "iodepth_batch_submit alias")
  T.eq(o.iodepth_batch_complete_min, 4, "iodepth_batch_complete alias")
  T.eq(o.iodepth_batch_complete_max, 16, "max")
  T.eq(job("--sync=1").sync, "sync", "sync=1")
  T.eq(job("--sync=dsync").sync, "dsync", "dsync")
  T.eq(job("--fsync=4").fsync, 4, "fsync")
  T.eq(job("--fdatasync=2").fdatasync, 2, "fdatasync")
  T.eq(job("--verify=crc32c-intel").verify, "crc32c", "crc32c-intel")
  T.eq(job("--verify=md5").verify, "md5", "md5")
  T.eq(job("--verify=sha256").verify, "sha256", "sha256")
  T.eq(job("--verify_fatal=1").verify_fatal, true, "verify_fatal")
  bad({ "--name=x", "--iodepth=0" }, "iodepth: min value out of range: 0 (1 min)\nfio: failed parsing iodepth=0")
  bad({ "--name=x", "--ioengine=foo" }, "fio: engine foo not loadable\nfio: failed to load engine")
  bad({ "--name=x", "--ioengine=splice" }, "fio: ioengine=splice is not supported by platter fio")
  bad({ "--name=x", "--verify=sha1" }, "fio: verify=sha1 is not supported by platter fio")
  bad({ "--name=x", "--verify=blah" }, "fio: failed parsing verify=blah")
  T.has(fj.failed_values, "                    : crc32c-intel Use crc32c checksums for verification (hw "
    .. "assisted, if available)\n", "verify values")
  T.eq(select(2, fj.failed_values:gsub("\n", "")), 20, "19 values and a blank line")
  bad({ "--name=x", "--bs=abc" }, "fio: failed parsing bs=abc")
  bad({ "--name=x", "--bs=0" }, "bs: min value out of range: 0 (1 min)")
  bad({ "--name=x", "--kb_base=1001" }, "fio: failed parsing kb_base=1001")
  T.has(fj.failed_values, "        valid values: 1024       Inputs invert", "kb_base values")
  bad({ "--name=x", "--bs=abc" }, "fio: failed parsing bs=abc")
  T.eq(fj.failed_values, nil, "no list for an option without a set of values")
  bad({ "--name=x", "--iodepth=1z" }, "iodepth: 'z' suffix isn't applicable")
  bad({ "--name=x", "--size=10z" }, "is not supported by platter fio")
  bad({ "--name=x", "--io_size=150%" }, "fio: io_size values greater than 100% aren't supported")
  bad({ "--name=x", "--size=(1024*2)" }, "fio: failed parsing size=(1024*2)")
end)

T.test("random distributions", function()
  local d = job("--random_distribution=zipf:1.2").random_distribution
  T.eq(d.kind, "zipf", "zipf")
  T.eq(d.theta, 1.2, "theta")
  T.eq(job("--random_distribution=zipf").random_distribution.theta, 1.1, "zipf default")
  T.eq(job("--random_distribution=pareto").random_distribution.h, 0.2, "pareto default")
  d = job("--random_distribution=normal:5:0.25").random_distribution
  T.eq(d.dev, 5, "normal dev")
  T.eq(d.center, 0.25, "center")
  d = job("--random_distribution=zoned:60/10:30/20:10/70").random_distribution
  T.eq(d.kind, "zoned", "zoned")
  T.eq(#d.read, 3, "zones")
  T.eq(d.read[1].access, 60, "access")
  T.eq(d.read[1].size, 10, "size")
  T.eq(d.write[3].size, 70, "one list for all directions")
  d = job("--random_distribution=zoned:50/50:50").random_distribution
  T.eq(d.read[2].size, 50, "the size left over")
  T.eq(job("--random_distribution=zoned:100").random_distribution.read[1].size, 100,
    "one zone is all of it")
  -- fio 3.33 matches the name up to the first ',', so zoned lists per direction fail there too
  bad({ "--name=x", "--random_distribution=zoned:50/50:50,100" },
    "fio: failed parsing random_distribution=zoned:50/50:50,100")
  bad({ "--name=x", "--random_distribution=zipf:1" }, "fio: zipf theta must different than 1.0")
  bad({ "--name=x", "--random_distribution=pareto:1.5" }, "fio: pareto input out of range (0 < input < 1.0)")
  bad({ "--name=x", "--random_distribution=zoned:50/50" },
    "fio: access percentage don't add up to 100 for zoned random distribution (got=50)")
  local za = job("--random_distribution=zoned_abs:50/1m:50/2m").random_distribution
  T.eq(za.kind, "zoned_abs", "zoned_abs")
  T.eq(za.read[2].size, 2097152, "zoned_abs sizes in bytes")
  T.eq(za.write[1].access, 50, "for every direction")
  bad({ "--name=x", "--random_distribution=zoned_abs:50/1m:40/2m" },
    "fio: access percentage don't add up to 100 for zoned random distribution (got=90)")
  bad({ "--name=x", "--random_distribution=normal:1:2" },
    "fio: distribution center out of range (0 <= center <= 1.0)")
end)

T.test("percentile_list, logs, steadystate", function()
  local o = job("--percentile_list=50:99:99.999")
  T.eq(#o.percentile_list, 3, "list")
  T.eq(o.percentile_list[3], 99.999, "value")
  T.eq(o.percentile_precision, 3, "precision: the most decimals")
  T.eq(job("--percentile_list=50:90").percentile_precision, 0, "no decimals")
  bad({ "--name=x", "--percentile_list=1:x" }, "not a floating point value: x")
  bad({ "--name=x", "--percentile_list=101" }, "value out of range")
  o = file_job("[a]\nwrite_bw_log\nwrite_lat_log=lat\nlog_avg_msec=500\n")
  T.eq(o.write_bw_log, true, "bare log")
  T.eq(o.write_lat_log, "lat", "named log")
  T.eq(o.write_iops_log, false, "log not asked")
  T.eq(o.log_avg_msec, 500, "log_avg_msec")
  o = job("--ss=bw:10m", "--ss_dur=60")
  T.eq(o.steadystate.kind, "bw", "ss bw")
  T.eq(o.steadystate.limit, 10485760, "bw limit in bytes")
  T.eq(o.steadystate.pct, false, "not a percentage")
  o = job("--steadystate=iops:5%")
  T.eq(o.steadystate.limit, 5, "iops pct")
  T.eq(o.steadystate.pct, true, "pct")
  bad({ "--name=x", "--ss=iops" }, "fio: steadystate threshold must be specified in addition to criterion")
end)

T.test("filename: ':'-separated, '\\:' escapes, kept across a [global]", function()
  local o = job("--filename=/dev/a\\:b:/tmp/c::/tmp/d")
  T.eq(#o.filename, 3, "names")
  T.eq(o.filename[1], "/dev/a:b", "escaped colon")
  T.eq(o.filename[2], "/tmp/c", "second")
  T.eq(o.filename[3], "/tmp/d", "empty names skipped")
  -- fio adds a job's filename to the files it has from [global]
  o = file_job("[global]\nfilename=g\n[a]\nfilename=a1\nfilename=a2\n")
  T.eq(table.concat(o.filename, ","), "g,a1,a2", "accumulated")
  o = file_job("[a]\ndirectory=/tmp/d\nnrfiles=4\nfilename_format=f.$filenum\n")
  T.eq(o.directory, "/tmp/d", "directory")
  T.eq(o.nrfiles, 4, "nrfiles")
  T.eq(o.filename_format, "f.$filenum", "filename_format")
  T.eq(job("--nr_files=2").nrfiles, 2, "nr_files alias")
end)

T.test("job files: [global], comments, sections, raw and list", function()
  local cfg = parse({ "a.fio" }, { ["a.fio"] = table.concat({
    "; a comment", "# another", "[global]", "bs=8k ; trailing comment", "ioengine=libaio",
    "", "[one]", "rw=randread", "  iodepth=4", "[two]", "name=zwei", "size=1m  ",
    "[global]", "direct=1", "[three]" }, "\n") })
  T.eq(#cfg.jobs, 3, "jobs")
  local one, two, three = cfg.jobs[1], cfg.jobs[2], cfg.jobs[3]
  T.eq(one.name, "one", "name")
  T.eq(one.section, "one", "section")
  T.eq(one.file, "a.fio", "file")
  T.eq(one.o.bs.read, 8192, "bs from [global]")
  T.eq(one.o.ioengine, "libaio", "ioengine from [global]")
  T.eq(one.o.iodepth, 4, "indented option")
  T.eq(one.raw.bs, "8k", "raw: inherited as given")
  T.eq(one.raw.rw, "randread", "raw: own")
  T.eq(#one.list, 2, "list: own options only")
  T.eq(one.list[1].name, "rw", "list order")
  T.eq(one.options.iodepth, "4", "options map")
  T.eq(two.name, "zwei", "name= renames the job")
  T.eq(two.section, "two", "section kept")
  T.eq(two.o.size, 1048576, "trailing blanks")
  T.eq(two.o.direct, false, "a later [global] does not reach back")
  T.eq(three.o.direct, true, "a later [global] applies to later jobs")
  T.eq(cfg.global[1].name, "bs", "global options")
  T.eq(#cfg.global, 3, "global options accumulate")
  T.eq(cfg.global_raw.direct, "1", "global_raw")
end)

T.test("job-file errors, as fio prints them", function()
  local f = { ["x.fio"] = "[x]\nfoo=1\n" }
  bad({ "x.fio" }, "Bad option <foo=1>\nDid you mean flow?\nfio: job x dropped", f)
  f = { ["x.fio"] = "bs=4k\n[x]\n" }
  bad({ "x.fio" }, "fio: option <bs=4k> outside of [] job section", f)
  f = { ["x.fio"] = "[x]\nbs=abc\n" }
  bad({ "x.fio" }, "fio: failed parsing bs=abc\nfio: job x dropped", f)
  f = { ["x.fio"] = "[x]\nzonemode=zbd\n" }
  bad({ "x.fio" }, "fio: option 'zonemode' is not supported by platter fio", f)
  f = { ["x.fio"] = "[x]\nrw = randrw\n" }
  bad({ "x.fio" }, "fio: failed parsing rw = randrw", f)  -- fio keeps the blank after '='
  bad({ "missing.fio" }, "fio: unable to open 'missing.fio' job file", {})
  f = { ["x.fio"] = "[x]\ninclude nope.fio\n" }
  bad({ "x.fio" }, "fio: unable to open 'nope.fio' job file\nError 1 while parsing include file nope.fio", f)
  f = { ["x.fio"] = "[x]\ninclude i.fio\n", ["i.fio"] = "bs=8k\n[y]\n" }
  bad({ "x.fio" }, "No new sections in included files", f)
  f = { ["x.fio"] = "[x]\ninclude i.fio\n", ["i.fio"] = "include i.fio\n" }
  bad({ "x.fio" }, "nested too deep", f)
  f = { ["x.fio"] = "[x]\nbs\n" }
  bad({ "x.fio" }, "Option bs requires an argument\nfio: failed parsing bs\nfio: job x dropped", f)
  f = { ["x.fio"] = "[x]\nrw\n" }
  bad({ "x.fio" }, "fio: failed parsing rw\n", f)
  f = { ["x.fio"] = "[x]\nhipri\n" }  -- an io_uring option in a psync job: unknown to fio
  bad({ "x.fio" }, "Bad option <hipri>\nDid you mean prio?\nfio: job x dropped", f)
end)

T.test("io_uring's options exist only while io_uring is the job's engine, as in fio", function()
  local o, j = job("--ioengine=io_uring", "--hipri", "--sqthread_poll", "--fixedbufs",
    "--registerfiles=0")
  T.eq(o.hipri, true, "hipri")
  T.eq(o.sqthread_poll, true, "sqthread_poll")
  T.eq(o.fixedbufs, true, "fixedbufs")
  T.eq(o.registerfiles, false, "registerfiles=0")
  T.eq(j.options.hipri, "", "a bare option in the job's options")
  o = parse({ "--ioengine=io_uring", "--name=x", "--hipri=1" }).jobs[1].o
  T.eq(o.hipri, true, "the global engine counts")
  -- fio's command line is read in order: before --ioengine it is not an option yet
  bad({ "--name=x", "--hipri", "--ioengine=io_uring" },
    "fio: unrecognized option '--hipri'\nDid you mean prio?")
  bad({ "--name=x", "--ioengine=libaio", "--sqthread_poll" }, "fio: unrecognized option '--sqthread_poll'")
  bad({ "--name=a", "--ioengine=io_uring", "--name=b", "--fixedbufs" },
    "fio: unrecognized option '--fixedbufs'")
  bad({ "--name=x", "--ioengine=io_uring", "--hipri=abc" }, "fio: failed parsing hipri=abc")
  -- a job file: the section's other options first, then the engine's
  o = file_job("[x]\nhipri\nioengine=io_uring\nsqthread_poll=1\n")
  T.eq(o.hipri and o.sqthread_poll, true, "after the section's ioengine, wherever it is")
  o = file_job("[global]\nioengine=io_uring\n[x]\nregisterfiles\n")
  T.eq(o.registerfiles, true, "the engine of [global]")
  local _, cfg = file_job("[global]\nioengine=io_uring\n[x]\nhipri\nsize=1m\nfixedbufs=1\nbs=8k\n")
  T.eq(fj.showcmd(cfg), "fio --ioengine=io_uring --name=x --size=1m --bs=8k --hipri --fixedbufs=1 \n",
    "fio's --showcmd: the engine's options last")
  bad({ "x.fio" }, "Bad option <hipri>\nDid you mean prio?\nBad option <bogus=1>\nDid you mean bs?\n"
    .. "Bad option <sqthread_poll>\nDid you mean read_iolog?\nfio: job x dropped",
    { ["x.fio"] = "[x]\nhipri\nbogus=1\nioengine=psync\nsize=1m\nsqthread_poll\n" })
  bad({ "x.fio" }, "Bad option <hipri>", { ["x.fio"] = "[global]\nhipri\n[x]\nioengine=io_uring\n" })
  -- sqthread_poll_cpu: refused with io_uring, saying why; unknown with another engine
  bad({ "--name=x", "--ioengine=io_uring", "--sqthread_poll_cpu=1" },
    "fio: option 'sqthread_poll_cpu' is not supported by platter fio (p.run's io_uring engine does "
    .. "not pin its submission thread to a CPU")
  bad({ "x.fio" }, "fio: option 'sqthread_poll_cpu' is not supported by platter fio (p.run's",
    { ["x.fio"] = "[x]\nioengine=io_uring\nsqthread_poll_cpu=0\n" })
  bad({ "--name=x", "--sqthread_poll_cpu=1" }, "fio: unrecognized option '--sqthread_poll_cpu=1'")
end)

T.test("CPU affinity: cpus_allowed and cpumask read as fio reads them, policy shared or split", function()
  local _, ncpus = p.affinity()
  local function cpus(v) return table.concat(job("--cpus_allowed=" .. v).cpus, ",") end
  T.eq(cpus("0"), "0", "one CPU")
  if ncpus >= 2 then
    T.eq(cpus("0-1"), "0,1", "a range")
    T.eq(cpus("1,0"), "0,1", "a list, sorted")
    T.eq(cpus(" 0, 1 "), "0,1", "blanks around the list and before a number (atoi)")
    T.eq(cpus("1,,0"), "1", "an empty piece ends the list (strsep)")
    T.eq(table.concat(job("--cpumask=3").cpus, ","), "0,1", "cpumask bits 0 and 1")
  end
  T.eq(cpus("1-0"), "", "a range whose end is below its start adds nothing")
  T.eq(cpus("-1"), "0", "'-1' is CPU 0: strsep cuts the piece at its '-' (fio 3.33 pins such a job to 0)")
  T.eq(job("--cpus_allowed=0", "--cpumask=1").cpus[1], 0, "the later of the two wins")
  T.eq(job().cpus_allowed_policy, "shared", "shared by default")
  T.eq(job("--cpus_allowed_policy=split").cpus_allowed_policy, "split", "split")
  bad({ "--name=x", "--cpus_allowed=" .. ncpus }, string.format("fio: CPU %d too large (max=%d)\n"
    .. "fio: failed parsing cpus_allowed=%d", ncpus, ncpus - 1, ncpus))
  bad({ "--name=x", "--cpumask=" .. 2 ^ ncpus }, string.format("fio: CPU %d too large (max=%d)",
    ncpus, ncpus - 1))
  bad({ "--name=x", "--cpus_allowed_policy=bogus" }, "fio: failed parsing cpus_allowed_policy=bogus")
end)

T.test("fallocate, zero_buffers, scramble_buffers, allow_mounted_write", function()
  local o = job()
  T.eq(o.fallocate, "native", "fio's default on Linux")
  T.eq(o.scramble_buffers, true, "scramble_buffers defaults to 1")
  T.eq(o.allow_mounted_write, false, "allow_mounted_write defaults to 0")
  T.eq(o.zero_buffers, nil, "zero_buffers unset")
  for v, want in pairs({ none = "none", native = "native", posix = "posix", keep = "keep",
      truncate = "truncate", ["0"] = "none", ["1"] = "posix" }) do
    T.eq(job("--fallocate=" .. v).fallocate, want, "fallocate=" .. v)
  end
  bad({ "--name=x", "--fallocate=bogus" }, "fio: failed parsing fallocate=bogus")
  T.has(fj.failed_values, "                    : 1          Alias for 'posix'\n\n", "fallocate values")
  T.eq(job("--zero_buffers").zero_buffers, true, "zero_buffers")
  T.eq(job("--zero_buffers=0").zero_buffers, false, "zero_buffers=0")
  T.eq(job("--scramble_buffers=0").scramble_buffers, false, "scramble_buffers=0")
  bad({ "--name=x", "--scramble_buffers=2" }, "max value out of range: 2 (1 max)\n"
    .. "fio: failed parsing scramble_buffers=2")
  T.eq(job("--allow_mounted_write=1").allow_mounted_write, true, "taken (the device rule still holds)")
end)

T.test("blanks around '=' are fio's: 'bs = 8k' is 8 bytes", function()
  local o = file_job("[a]\nbs = 8k\n")
  T.eq(o.bs.read, 8, "fio reads ' 8k' as 8 with no unit")
end)

T.test("include: lines spliced in, relative to the including file", function()
  local cfg = parse({ "dir/a.fio" }, {
    ["dir/a.fio"] = "[a]\ninclude common.fio\nrw=write\n",
    ["dir/common.fio"] = "bs=16k\n; comment\ninclude deeper.fio\n",
    ["dir/deeper.fio"] = "iodepth=8\n",
  })
  local o = cfg.jobs[1].o
  T.eq(o.bs.read, 16384, "included bs")
  T.eq(o.iodepth, 8, "nested include")
  T.eq(o.rw.kind, "write", "own option")
end)

T.test("${VAR} expansion through env.getenv; $VAR is left as fio leaves it", function()
  local o = file_job("[a]\nsize=${SZ}\nfilename=/tmp/${NOPE}f\ndirectory=$HOME\n",
    { SZ = "2m" })
  T.eq(o.size, 2097152, "expanded")
  T.eq(o.filename[1], "/tmp/f", "an unset variable is empty")
  T.eq(o.directory, "$HOME", "no braces: literal")
  -- the command line is the shell's: no expansion there
  T.eq(job("--directory=${X}").directory, "${X}", "command line")
  local cfg = fj.parse({ "j.fio" }, { read_file = function() return "[a]\nnumjobs=$ncpus\n" end,
    keywords = { ncpus = 6 } })
  T.eq(cfg.jobs[1].o.numjobs, 6, "$ncpus from env.keywords")
  bad({ "j.fio" }, "fio: $ncpus is not supported by platter fio", { ["j.fio"] = "[a]\nnumjobs=$ncpus\n" })
end)

T.test("the command line: globals before the first --name, each --name a job", function()
  local cfg = parse({ "--bs=8k", "--name=a", "--rw=write", "--name=b", "--iodepth", "4",
    "-ioengine=libaio", "--name=c" })
  T.eq(#cfg.jobs, 3, "jobs")
  T.eq(cfg.jobs[1].name, "a", "first")
  T.eq(cfg.jobs[1].cmdline, true, "cmdline")
  T.eq(cfg.jobs[1].o.bs.read, 8192, "global bs")
  T.eq(cfg.jobs[1].o.rw.kind, "write", "own rw")
  T.eq(cfg.jobs[2].o.rw.kind, "read", "not inherited from the job before")
  T.eq(cfg.jobs[2].o.iodepth, 4, "value as the next word")
  T.eq(cfg.jobs[2].o.ioengine, "libaio", "one dash")
  T.eq(cfg.jobs[3].o.bs.read, 8192, "global bs for the last")
  T.eq(cfg.global[1].name, "bs", "global list")
  T.eq(cfg.jobs[1].index, 1, "index")
  bad({ "--rw=write" }, "No job(s) defined")  -- options alone make no job, as in fio
  T.eq(parse({ "--name=x", "--runt=5" }).jobs[1].o.runtime, 5, "a unique prefix, as getopt")
end)

T.test("the command line's own options", function()
  local cfg = parse({ "--output-format=json+,normal", "--output=out.txt", "--showcmd",
    "--parse-only", "--eta=never", "--terse-version=4", "--name=x" })
  T.eq(table.concat(cfg.output_format, ","), "normal,json,json+", "formats (json+ adds json)")
  T.eq(cfg.output, "out.txt", "output")
  T.eq(cfg.showcmd, true, "showcmd")
  T.eq(cfg.parse_only, true, "parse_only")
  T.eq(cfg.eta, "never", "eta")
  T.eq(cfg.terse_version, 4, "terse version")
  T.eq(table.concat(parse({ "--minimal", "--name=x" }).output_format, ","), "terse", "minimal")
  -- options platter fio could only take and ignore are refused, saying why
  bad({ "--status-interval=1", "--name=x" }, "'--status-interval' is not supported by platter fio (its report")
  bad({ "--status-interval=zz", "--name=x" }, "fio: failed parsing time zz")
  bad({ "--warnings-fatal", "--name=x" }, "'--warnings-fatal' is not supported by platter fio")
  T.eq(table.concat(parse({ "--name=x" }).output_format, ","), "normal", "default")
  T.eq(parse({ "--output-format=terse,csv", "--name=x" }).output_format[1], "terse", "csv is terse")
  T.eq(parse({ "--version" }).version, true, "version, no job needed")
  T.eq(parse({ "--help" }).help, true, "help")
  bad({ "--output-format=xml", "--name=x" }, "fio: invalid output format xml\nfio: failed parsing output-format")
  bad({ "--terse-version=9", "--name=x" }, "fio: bad terse version format")
  bad({ "--name=x", "--foo=1" }, "fio: unrecognized option '--foo=1'\nDid you mean loops?")
  bad({ "--name=x", "--bsx" }, "fio: unrecognized option '--bsx'\nDid you mean bs?")
  -- fio's candidates on the command line: its own options first, and the aliases
  bad({ "--name=x", "--outpt=x" }, "fio: unrecognized option '--outpt=x'\nDid you mean output?")
  bad({ "--name=x", "--timeot=1" }, "Did you mean timeout?")
  bad({ "--name=x", "--fill_fz=1" }, "Did you mean fill_fs?")
  bad({ "--name=x", "--registerfile" }, "Did you mean trigger-file?")
  bad({ "--name=x", "--bs" }, "fio: option '--bs' requires an argument")
  bad({ "--name=x", "--bs=" }, "fio: option bs requires an argument")
  bad({ "--name=x", "--zonemode=zbd" }, "fio: option 'zonemode' is not supported by platter fio")
  bad({ "--daemonize=f", "--name=x" }, "fio: option '--daemonize' is not supported by platter fio")
  T.eq(parse({ "--readonly", "--name=x", "--rw=randread" }).readonly, true, "--readonly, a read job")
  bad({ "--readonly", "--name=x", "--rw=write" },
    "fio: trim and write operations are not allowed with the --readonly parameter.")
  bad({ "--name=x", "--rw=randrw", "--readonly" },
    "fio: trim and write operations are not allowed with the --readonly parameter.")
  bad({ "--section=global", "x.fio" }, "fio: can't use global as only section")
  bad({}, "No job(s) defined")
end)

T.test("several files: [global] does not carry over, later files start with a stonewall", function()
  local files = {
    ["1.fio"] = "[global]\nbs=8k\n[a]\n[b]\n",
    ["2.fio"] = "[c]\n[d]\n",
  }
  local cfg = parse({ "--iodepth=2", "1.fio", "2.fio" }, files)
  T.eq(#cfg.jobs, 4, "jobs")
  T.eq(cfg.jobs[1].o.iodepth, 2, "command-line global reaches the first file")
  T.eq(cfg.jobs[1].o.stonewall, false, "first file: no stonewall")
  T.eq(cfg.jobs[2].o.bs.read, 8192, "[global] of the first file")
  T.eq(cfg.jobs[3].o.bs.read, 4096, "not in the second file")
  T.eq(cfg.jobs[3].o.iodepth, 1, "command-line global stops at the second file, as in fio")
  T.eq(cfg.jobs[3].o.stonewall, true, "the second file's first job waits")
  T.eq(cfg.jobs[4].o.stonewall, false, "its second job does not")
  T.eq(table.concat(cfg.files, ","), "1.fio,2.fio", "files")
  -- command-line jobs come first, whatever the word order
  cfg = parse({ "1.fio", "--name=cl" }, files)
  T.eq(cfg.jobs[1].name, "cl", "command-line job first")
  -- --section picks sections of the first file only (fio forgets it after)
  cfg = parse({ "--section=b", "1.fio", "2.fio" }, files)
  T.eq(#cfg.jobs, 3, "b, c, d")
  T.eq(cfg.jobs[1].name, "b", "selected")
  T.eq(cfg.jobs[1].o.bs.read, 8192, "[global] still applies")
end)

T.test("showcmd is fio's: options in fio's order, [global] lists accumulated", function()
  local files = {
    ["s.fio"] = "[global]\nkb_base=1000\nbs=4k ; c\n[a]\nfilename=x\nbs = 8k\ntime_based\n" ..
      "ioengine=null\nsize=1m\nrw=randrw\n[global]\niodepth=4\n[b]\nname=bee\n" ..
      "description=a b\nnumjobs=1\nwrite_bw_log\n",
    ["t.fio"] = "[t]\nreadwrite=randread:8\nblocksize=4k\n",
  }
  local cfg = parse({ "--showcmd", "--bs=8k", "s.fio", "t.fio" }, files)
  T.eq(fj.showcmd(cfg),
    "fio --bs=8k --kb_base=1000 --bs=4k --name=a --bs= 8k --time_based --ioengine=null --size=1m " ..
    "--rw=randrw --filename=x --bs=8k --kb_base=1000 --bs=4k --iodepth=4 --name=b --name=bee " ..
    "--description=\"a b\" --numjobs=1 --write_bw_log \n" ..
    "fio --name=t --rw=randread:8 --bs=4k \n", "showcmd")
end)

T.test("supported() lists every option with its help, aliases too", function()
  local list = fj.supported()
  local by = {}
  for _, s in ipairs(list) do
    T.ok(type(s.name) == "string" and type(s.help) == "string" and #s.help > 0, s.name)
    by[s.name] = s
  end
  for _, n in ipairs { "name", "filename", "directory", "size", "filesize", "io_size", "offset",
    "offset_increment", "nrfiles", "filename_format", "rw", "rwmixread", "rwmixwrite", "bs",
    "bsrange", "bssplit", "ba", "ioengine", "iodepth", "iodepth_batch",
    "iodepth_batch_complete_min", "iodepth_batch_complete_max", "direct", "buffered", "sync",
    "fsync", "fdatasync", "end_fsync", "fsync_on_close", "numjobs", "group_reporting", "runtime",
    "time_based", "ramp_time", "startdelay", "loops", "thinktime", "rate", "rate_iops",
    "rate_min", "rate_process", "randrepeat", "randseed", "norandommap", "random_distribution",
    "percentage_random", "invalidate", "create_on_open", "overwrite", "unlink", "stonewall",
    "new_group", "clat_percentiles", "lat_percentiles", "slat_percentiles", "percentile_list",
    "write_bw_log", "write_iops_log", "write_lat_log", "log_avg_msec", "steadystate",
    "steadystate_duration", "steadystate_ramp_time", "thread", "gtod_reduce", "refill_buffers",
    "buffer_compress_percentage", "verify", "do_verify", "verify_fatal", "kb_base" } do
    T.ok(by[n], "supported: " .. n)
  end
  T.eq(by.rw.alias, "readwrite", "alias shown")
  T.eq(by.bs.def, "4096", "default shown")
  T.eq(by.zonemode, nil, "zonemode is not")
  T.eq(fj.fio_has("zonemode"), true, "but fio has it")
  T.eq(fj.fio_has("nonsense"), false, "fio does not have this")
end)

T.test("unit helpers", function()
  T.eq(fj.size("64k"), 65536, "size")
  T.eq(fj.size("1m", 1000), 1000000, "size kb_base")
  T.eq(fj.time("250ms", true), 0.25, "time")
  T.eq(fj.time("250", false), 0.00025, "time in us")
  -- fio's rules: an unknown suffix counts as 1, a fraction is cut at the '.'
  T.eq(fj.size("1x"), 1, "unknown suffix")
  T.eq(fj.size("1.5k"), 1, "no fractions in a size")
end)

T.test("bs_dirs: the block sizes per direction, as fio reads the option's text", function()
  local function dirs(v, kb, range)
    local d = fj.bs_dirs(v, kb, range)
    return d and string.format("%d-%d %d-%d %d-%d", d.read[1], d.read[2], d.write[1], d.write[2],
      d.trim[1], d.trim[2])
  end
  T.eq(dirs("4k"), "4096-4096 4096-4096 4096-4096", "one size for all")
  T.eq(dirs("4k,8k"), "4096-4096 8192-8192 8192-8192", "the last fills the rest")
  T.eq(dirs("4k-8k"), "4096-4096 8192-8192 8192-8192", "'-' splits bs, as ','")
  T.eq(dirs("4k,,16k"), "4096-4096 4096-4096 16384-16384", "an empty piece keeps 4 KiB")
  T.eq(dirs("1x"), "1-1 1-1 1-1", "an unknown suffix counts as 1")
  T.eq(dirs("8k-4k,1k-2k", 1024, true), "4096-8192 1024-2048 1024-2048", "bsrange: ranges")
  T.eq(dirs("4k", 1000), "4000-4000 4000-4000 4000-4000", "kb_base")
  T.eq(dirs("x"), nil, "no size")
  T.eq(dirs("0"), nil, "below fio's minimum of 1")
end)
