-- platter.fio_run: what `platter fio` does once a job file or command line
-- has been read (platter.fio_job): the jobs' files, one p.run per job and
-- numjobs copy in p.parallel workers (jobs between stonewalls together, as in
-- fio), and fio's report (platter.fio_report). workloads/fio.lua reads the
-- command line and calls run(cfg); a script from `platter fio --lua` calls
-- script{...} with its jobs' options and their p.run tables, edited or not.
--
-- How a job becomes a p.run table is `plan` below; docs/fio.md says what is
-- supported and what differs from fio.
local p = require "platter"
local fj = require "platter.fio_job"
local fr = require "platter.fio_report"
local fe = require "platter.fio_eta"

local M = {}

local function fail(msg, code)
  p.ewrite(msg, msg:sub(-1) == "\n" and "" or "\n")
  p.exit(code or 1)
end
M.fail = fail

-- A job file or command line fio would not take: its message, with fio's list of the
-- values where one was not in an option's set (fj.report_failure), and status 1.
function M.parse_failed(msg)
  fj.report_failure(tostring(msg), p.write, function(m) p.ewrite(m, m:sub(-1) == "\n" and "" or "\n") end,
    p.isatty("stdout"))
  p.exit(1)
end

--- run(cfg [, given]) -> runs the jobs of cfg (platter.fio_job's parse) and prints
--- fio's report. given.runs[job][copy]: p.run tables to use instead of plan's;
--- given.describe: return the job copies with their p.run tables instead of running.
function M.run(cfg, given)
  given = given or {}
  local genesis = p.now()
  -- ---------------------------------------------------------------------------
  -- Output: stdout, or --output=FILE (which must be named on the command line,
  -- as it is: the sandbox writes text only there)
  -- ---------------------------------------------------------------------------
  local outfile
  if cfg.output then
    local w, err = p.output_file(cfg.output)
    if not w then fail("fio: unable to open '" .. cfg.output .. "' output file: " .. tostring(err)) end
    outfile = w
  end
  local function emit(s)
    if outfile then assert(outfile:write(s)) else p.write(s) end
  end

  local formats = {}
  -- (--minimal is there as terse, unless a later --output-format replaced it, as in fio)
  for _, f in ipairs(cfg.output_format or { "normal" }) do formats[f] = true end
  local normal = formats.normal

  -- fio_job's {name=, value=} lists as fio_report's {{name, value}} pairs
  local function pairs_of(list)
    local t = {}
    for _, kv in ipairs(list or {}) do
      -- a bare option (fio stores "") is not in fio's JSON
      if kv.value ~= nil and kv.value ~= "" and kv.value ~= true then t[#t + 1] = { kv.name, kv.value } end
    end
    return t
  end
  local global_options = pairs_of(cfg.global)

  -- ---------------------------------------------------------------------------
  -- Jobs: numjobs copies, groups, and the segments that stonewalls separate
  -- ---------------------------------------------------------------------------
  local instances, segments = {}, {}
  do
    local groupid, in_group = 0, 0
    for _, job in ipairs(cfg.jobs) do
      local o = job.o
      if (o.stonewall or o.new_group) and in_group > 0 then
        groupid, in_group = groupid + 1, 0
      end
      if o.stonewall or #segments == 0 then segments[#segments + 1] = {} end
      for k = 0, (o.numjobs or 1) - 1 do
        local inst = { job = job, o = o, jobnum = k, groupid = groupid, index = #instances + 1 }
        instances[#instances + 1] = inst
        local seg = segments[#segments]
        seg[#seg + 1] = inst
        in_group = in_group + 1
      end
    end
    for _, seg in ipairs(segments) do  -- they run side by side as p.parallel's workers
      if #seg > p.max_workers then
        fail(string.format("fio: platter fio runs at most %d job copies side by side (numjobs, "
          .. "and the jobs between two stonewalls), not %d", p.max_workers, #seg))
      end
    end
  end

  local ENGINES = { sync = "sync", psync = "psync", pvsync = "psync", libaio = "libaio",
    posixaio = "posixaio", io_uring = "io_uring", mmap = "mmap", null = "null" }
  local QUEUED = { libaio = true, posixaio = true, io_uring = true, null = true }
  local ASYNC = { libaio = true, posixaio = true, io_uring = true }

  local function expand_name(fmtname, inst, filenum)
    return (fmtname:gsub("%$(%a+)", function(k)
      if k == "jobname" then return inst.job.name end
      if k == "jobnum" then return tostring(inst.jobnum) end
      if k == "filenum" then return tostring(filenum) end
      if k == "clientuid" then return "0" end
    end))
  end

  -- The size of an existing file or device, or nil (p.open works on every target,
  -- the simulated disk's too, where p.stat has no directories to look in).
  local function size_of(path)
    local f = p.open(path)
    if not f then return nil end
    local n, kind = f:size(), f:info().kind
    f:close()
    return n, kind
  end

  -- The files of an instance: names, each file's size and the range it covers.
  local function files_of(inst)
    local o = inst.o
    local names = {}
    local dir = o.directory
    if o.filename then
      for _, n in ipairs(o.filename) do names[#names + 1] = n end
    else
      for i = 0, (o.nrfiles or 1) - 1 do
        names[#names + 1] = expand_name(o.filename_format or "$jobname.$jobnum.$filenum", inst, i)
      end
    end
    if dir then
      for i, n in ipairs(names) do
        if n:sub(1, 1) ~= "/" then names[i] = dir .. "/" .. n end
      end
    end
    local offset = (o.offset or 0) + inst.jobnum * (o.offset_increment or 0)
    local size = o.size
    if not size and o.filesize then size = o.filesize * #names end
    if not size then
      -- fio takes an existing file's size
      local n = size_of(names[1])
      if n and n > 0 then size = (n - offset) * #names end
    end
    if not size or size <= 0 then
      fail(string.format("fio: job %s: you need to specify size=", inst.job.name))
    end
    local per = o.filesize or math.floor(size / #names)
    return names, per, offset, size
  end

  -- ---------------------------------------------------------------------------
  -- plan: one job instance as a p.run table (the part a user edits)
  -- ---------------------------------------------------------------------------
  -- An error of one job, in fio's form ("fio: job NAME: ...").
  local function jobfail(inst, msg) fail("fio: job " .. inst.job.name .. ": " .. msg) end

  local function sizes_of(o, dir)
    if o.bssplit and o.bssplit[dir] and #o.bssplit[dir] > 0 then
      local list, weights = {}, {}
      for _, e in ipairs(o.bssplit[dir]) do
        list[#list + 1], weights[#weights + 1] = e.bs, e.pct > 0 and e.pct or 1
      end
      return nil, list, weights
    end
    if o.bsrange and o.bsrange[dir] then
      local lo, hi = o.bsrange[dir][1], o.bsrange[dir][2]
      if lo ~= hi then
        local list = {}
        for b = lo, hi, lo do list[#list + 1] = b end
        return nil, list
      end
      return lo
    end
    return o.bs[dir]
  end

  -- steadystate_duration in whole seconds (fio truncates it; under 1 s it is off)
  local function steady_dur(o) return math.floor(o.steadystate_duration or 0) end
  -- the p.run table's steady (fio's steadystate, steadystate_duration, steadystate_ramp_time)
  local function steady_of(o)
    local ss = o.steadystate
    if steady_dur(o) < 1 or not ss then return nil end
    return { kind = ss.kind, limit = ss.limit, pct = ss.pct, duration_s = steady_dur(o),
      ramp_s = o.steadystate_ramp_time or 0 }
  end

  -- rw=read:SKIP, SKIP > 0, on one file: how many I/Os of `len` fio does before it is done
  -- with the file, or nil when it never is (io.c's get_next_seq_offset and get_next_offset).
  -- Offsets are relative to the job's offset `lo` over `w` bytes of a file of `real` bytes.
  -- After an I/O at p the next is at p + len + skip; fio wraps that to `lo` (relative, as
  -- it does) once it is at or past `real`, and it is done with the file when the last I/O
  -- ended at or past `real`, or when the next start is at or past `w`, or its end past
  -- `real`. So a file laid out to just the job's size wraps and the job runs until its
  -- bytes are done, while in a larger file the job makes one pass and stops.
  local function skip_ios(lo, w, real, len, skip)
    local st, n, start = len + skip, 0, 0
    local limit = math.min(math.min(real, w) - 1, real - lo - len)  -- the last start that goes on
    for _ = 1, 2 do  -- the pass from 0, then (after a wrap) the ones from `lo`, all alike
      if start >= w or lo + start + len > real then return n end
      local m = start <= limit and math.floor((limit - start) / st) + 1 or 1
      n = n + m
      local last = start + (m - 1) * st
      if lo + last + len >= real or last + st < real then return n end  -- done
      if start == lo then return nil end  -- wrapped to where this pass began: never done
      start = lo
    end
    return nil
  end

  -- fio's io_uring options: hipri is p.run's iopoll, sqthread_poll its sqpoll (with the
  -- kernel's idle time: fio 3.33 sets none); p.run registers the ring's files and buffers
  -- whether or not fixedbufs and registerfiles ask for it. With sqthread_poll fio 3.33
  -- takes no slat (its commit hands the I/O to the kernel's thread without timing it)
  local function plan_uring(o, r)
    if r.engine ~= "io_uring" then return end
    if o.hipri then r.iopoll = true end
    if o.sqthread_poll then r.sqpoll, r.slat = true, nil end
  end

  local function plan(inst, files, per, offset, size)
    local o = inst.o
    local kind = o.rw.kind
    local reads = kind == "read" or kind == "randread" or kind == "rw" or kind == "randrw"
    local writes = kind == "write" or kind == "randwrite" or kind == "rw" or kind == "randrw"
    local random = kind:sub(1, 4) == "rand"
    local dir = reads and "read" or "write"
    local bs, bs_list, weights = sizes_of(o, dir)
    -- bs=4k,64k, bssplit=...,...: the writes of a mixed job take their own sizes
    local wbs, wbs_list, wweights
    if reads and writes then
      local wb, wl, ww = sizes_of(o, "write")
      local same = wb == bs and #(wl or {}) == #(bs_list or {})
      for i, b in ipairs(wl or {}) do
        same = same and b == bs_list[i] and (ww and ww[i]) == (weights and weights[i])
      end
      if not same then wbs, wbs_list, wweights = wb, wl, ww end
    end
    local engine = ENGINES[o.ioengine or "psync"]
    local r = {
      files = files, name = inst.job.name,
      op = (reads and writes) and "mix" or (reads and "read" or "write"),
      engine = engine, qd = QUEUED[engine] and o.iodepth or 1,
      batch = QUEUED[engine] and math.min(o.iodepth_batch or 1, o.iodepth or 1) or nil,
      range = { offset, offset + per },
      -- randrepeat=1 (fio's default): the same offsets every run; 0: new ones each run
      seed = o.randrepeat == false and p.random(0, 2 ^ 40) or (o.randseed or 137) + inst.index - 1,
      sample_ms = 500, progress = false,
      -- fio shows submission latency for async engines, unless gtod_reduce turns latencies off
      slat = (ASYNC[engine] and not o.gtod_reduce) or nil,
    }
    if engine == "null" then r.batch = nil end
    if bs_list then r.bs_list, r.weights = bs_list, weights else r.bs = bs end
    if bs_list then r.align = bs_list[1] end
    if wbs_list then r.write_bs_list, r.write_weights = wbs_list, wweights elseif wbs then r.write_bs = wbs end
    if wbs or wbs_list then
      -- one alignment for both directions (fio aligns each to its own smallest size): the
      -- smaller of the two, so that every size of either fits its offsets
      r.align = math.min(r.align or bs, wbs_list and wbs_list[1] or wbs)
    end
    if o.ba and o.ba[dir] then r.align = o.ba[dir] end
    if r.op == "mix" then r.read_pct = o.rwmixread or 50 end
    local dist = o.random_distribution or { kind = "random" }
    if random then
      if dist.kind == "zipf" or dist.kind == "pareto" then
        -- fio's lib/zipf.c: ranks scattered by its golden-ratio hash (scatter "fio")
        r.pattern, r.scatter, r.center = dist.kind, "fio", dist.center
        if dist.kind == "zipf" then r.theta = dist.theta else r.pareto_h = dist.h end
      elseif dist.kind == "normal" then
        r.pattern, r.sigma = "normal", (dist.dev or 0) / 100
      elseif dist.kind == "zoned" or dist.kind == "zoned_abs" then
        local function zones(list)
          local z = {}
          for i, e in ipairs(list or {}) do z[i] = { e.access, e.size } end
          return z
        end
        r.pattern, r.zones = dist.kind, zones(dist[dir])
        if reads and writes then
          local w = zones(dist.write)
          local same = #w == #r.zones
          for i, e in ipairs(w) do same = same and e[1] == r.zones[i][1] and e[2] == r.zones[i][2] end
          if not same then
            jobfail(inst, "different read and write zones in one job are not supported by platter fio")
          end
        end
        if #r.zones == 0 then r.pattern, r.zones = o.norandommap and "random" or "shuffle", nil end
      elseif dist.kind == "random" then
        r.pattern = o.norandommap and "random" or "shuffle"
      else
        jobfail(inst, "random_distribution=" .. dist.kind .. " is not supported by platter fio yet")
      end
      -- rw=randread:N: a new random offset every N I/Os, sequential in between
      if (o.rw.seq_nr or 1) > 1 then r.seq_nr = o.rw.seq_nr end
      local pr = o.percentage_random
      if pr and (pr.read ~= 100 or pr.write ~= 100) then
        if reads and writes and pr.read ~= pr.write then
          fail("fio: job " .. inst.job.name ..
            ": different read and write percentage_random in one job are not supported by platter fio")
        end
        r.random_pct = pr[dir]
      end
    else
      local skip = o.rw.seq_add or 0
      if skip < 0 then
        r.pattern, r.skip = "seq", skip  -- fio's backwards read (get_next_seq_offset's wrap)
      elseif skip > 0 then
        r.pattern, r.stride = "stride", (bs or bs_list[1]) + skip
        -- fio's amount of I/O: one pass over a file larger than the job's range (see
        -- skip_ios); with a fixed block size and not time_based
        if bs and not (o.time_based and (o.runtime or 0) > 0) then
          local per_loop = 0
          for _, n in ipairs(files) do
            local have = size_of(n)
            local k = skip_ios(offset, per, math.max(have or 0, offset + per), bs, skip)
            if not k then per_loop = nil; break end
            per_loop = per_loop + k
          end
          if per_loop then
            -- rw=rw:SKIP: fio keeps a place per direction and stops when the first of them
            -- is done; platter's directions share one, so the job stops where the busier
            -- direction would be done at its share of the mix
            if reads and writes then
              local share = math.max(o.rwmixread or 50, 100 - (o.rwmixread or 50)) / 100
              per_loop = math.floor(per_loop / share + 0.5)
            end
            r.count = per_loop * (o.loops or 1)
          end
        end
      else
        r.pattern = "seq"
      end
    end
    -- fio reaps at least iodepth_batch_complete_min when the queue is full, and at most
    -- iodepth_batch_complete_max (which defaults to the min, 1): one at a time by default
    if QUEUED[engine] and r.qd > 1 then
      local lo = o.iodepth_batch_complete_min or 1
      r.reap_min = math.max(lo, 1)
      r.reap_max = math.max(o.iodepth_batch_complete_max or 0, lo, 1)
    end
    if (o.rate_min.read or 0) > 0 or (o.rate_min.write or 0) > 0 then
      r.rate_min_bps = { read = o.rate_min.read or 0, write = o.rate_min.write or 0 }
    end
    -- stop rules: io_size (or size) times loops, runtime; time_based runs for runtime
    local total = (o.io_size or size) * (o.loops or 1)
    if o.time_based and (o.runtime or 0) > 0 then
      r.seconds = o.runtime
    else
      r.bytes = total
      if (o.runtime or 0) > 0 then r.seconds = o.runtime end
    end
    -- fio drops the cache at the start of each loop over the files (invalidate=1)
    if o.invalidate ~= false and not o.direct and engine ~= "null" then r.invalidate_every = per * #files end
    if (o.ramp_time or 0) > 0 then r.ramp = o.ramp_time end
    if (o.thinktime or 0) > 0 then r.think_us = o.thinktime * 1e6 end
    -- fio limits each direction on its own; p.run has one limit, the sum of the job's
    local function both(t) return (reads and t.read or 0) + (writes and t.write or 0) end
    local rate = both(o.rate)
    if rate > 0 then r.rate_bps = rate end
    local riops = both(o.rate_iops)
    if riops > 0 then r.rate_iops = riops end
    -- fio times a rate-limited I/O from when it is issued, not from when it was due
    if rate > 0 or riops > 0 then r.rate_latency = "issue" end
    if o.rate_process == "poisson" and (rate > 0 or riops > 0) then
      -- fio's usec_for_io: each direction's gaps are exponential with mean 1/iops, iops its
      -- rate_iops or rate / the smallest block (integers); two directions together are one
      -- Poisson process of the sum
      local minbs = bs
      for _, b in ipairs(bs_list or {}) do minbs = math.min(minbs or b, b) end
      local function iops(d)
        return (o.rate_iops[d] or 0) > 0 and o.rate_iops[d] or math.floor((o.rate[d] or 0) / minbs)
      end
      r.rate_iops = (reads and iops("read") or 0) + (writes and iops("write") or 0)
      r.rate_bps, r.rate_process = nil, "poisson"
      if r.rate_iops < 1 then
        jobfail(inst, "rate_process=poisson needs a rate of at least one block (" .. minbs .. " bytes) a second")
      end
    end
    local every = (o.fsync or 0) > 0 and o.fsync or (o.fdatasync or 0) > 0 and o.fdatasync or nil
    if every and writes then r.fsync_every = every end
    if every and writes and (o.fsync or 0) == 0 then r.fdatasync = true end  -- fio's fdatasync=N
    plan_uring(o, r)
    r.steady = steady_of(o)
    return r
  end

  -- verify=, do_verify, verify_fatal: p.run writes checksummed blocks (in C),
  -- and a write job reads back all it wrote right after (do_verify, fio's
  -- default), which fio reports as the job's reads; a read job checks every
  -- block it reads. A bad block ends the job at once in fio whether or not
  -- verify_fatal is set (the failure is an I/O error, EILSEQ, and
  -- continue_on_error is off), so it does here too.
  local function plan_verify(o, r)
    if not o.verify or o.verify == "none" then return r end
    r.verify, r.verify_fatal = o.verify, true
    if r.op ~= "read" and o.do_verify ~= false then r.verify_pass = true end
    return r
  end

  -- The job ends with fio's error: its code and text in the report (td_verror), and
  -- fio's "fio: pid=N, err=CODE/TEXT" line on stdout.
  local function job_error(meta, code, text)
    meta.error, meta.verror = code, text
    emit(string.format("fio: pid=%d, err=%d/%s\n", meta.pid or 0, code, text))
  end

  -- A job whose check found a bad block: fio's messages, err=84 in its report.
  local VERIFY_ERR = "Invalid or incomplete multibyte or wide character"
  -- rate_min / rate_iops_min not met: fio's check_min_rate ends the job with EIO, says
  -- why on stderr and the error on stdout (backend.c's td_verror at fio-3.33)
  local RATE_ERR = "file:backend.c:1131, func=check_min_rate, error=Input/output error"
  local function rate_min_failed(inst, meta, members)
    for _, m in ipairs(members) do
      local v = m.values or {}
      if v.stopped == "rate_min" then
        p.ewrite(string.format("%s: %s\n", inst.job.name, v.error or "rate_min not met"))
        job_error(meta, 5, RATE_ERR)
        return true
      end
    end
    return false
  end

  -- A misaligned O_DIRECT job (run_instance's io_error): fio's messages, err=22 in its
  -- report, and the I/Os that failed issued (io_u.c's io_u error, at fio-3.33)
  local IOU_ERR = "file:io_u.c:1876, func=io_u error, error=Invalid argument"
  local function io_error_failed(meta, members)
    for _, m in ipairs(members) do
      local e = (m.values or {}).io_error
      if e then
        for k = 0, e.n - 1 do
          p.ewrite(string.format("fio: io_u error on file %s: Invalid argument: %s offset=%d, buflen=%d\n",
            e.file, e.op, e.offset + k * e.len, e.len))
        end
        if e.sync then
          emit("fio: first direct IO errored. File system may not support direct IO, or iomem_align= is bad, "
            .. "or invalid block size. Try setting direct=0.\n")
        end
        job_error(meta, 22, IOU_ERR)
        return e
      end
    end
    return nil
  end
  -- the failed I/Os in the job object: issued, at rising depth, submitted, reaped
  local function io_error_counts(job, e)
    job[e.op].total_ios = e.n
    local depths = { 0, 0, 0, 0, 0, 0, 0 }
    for d = 1, e.n do
      local b = fr.bucket_of(d, { 2, 4, 8, 16, 32, 64 })
      depths[b] = depths[b] + 1
    end
    for i, k in ipairs({ "1", "2", "4", "8", "16", "32", ">=64" }) do job.iodepth_level[k] = depths[i] * 100.0 / e.n end
    job.iodepth_submit["4"] = 100.0
    if e.n == 1 then job.iodepth_complete["0"], job.iodepth_complete["4"] = 50.0, 50.0 end
  end

  local function verify_failed(inst, meta, members)
    for _, m in ipairs(members) do
      local v = m.values or {}
      if (v.verify_errors or 0) > 0 then
        local what, off, file, want, got =
          (v.verify_error or ""):match("^(%S+) at offset (%d+) of (.-): expected (%S+), got (%S+)$")
        p.ewrite(string.format("%s: verify failed at file %s offset %s\n       Expected: %s\n       Received: %s\n",
          what or "verify", file or "?", off or "?", want or "?", got or "?"))
        local func = ASYNC[ENGINES[inst.o.ioengine or "psync"]] and "io_u_queued_complete" or "io_u_sync_complete"
        job_error(meta, 84, "file:io_u.c:2152, func=" .. func .. ", error=" .. VERIFY_ERR)
        return true
      end
    end
    return false
  end

  -- write_bw_log, write_iops_log, write_lat_log: fio's file names (init.c's
  -- gen_log_name: PREFIX_KIND.N.log, N the job's number counting every numjobs
  -- copy from 1; PREFIX_KIND.log with per_job_logs=0, shared by the jobs), the
  -- writers opened here before any job starts (the workers inherit them); p.run
  -- formats the lines in C (its `log` field, docs/api.md).
  local LOGS = { { "write_lat_log", { "lat", "slat", "clat" } }, { "write_bw_log", { "bw" } },
    { "write_iops_log", { "iops" } } }
  local log_writers = {}  -- path -> writer
  local function open_logs(inst)
    local o, w = inst.o, nil
    for _, e in ipairs(LOGS) do
      local v = o[e[1]]
      if v and not (o.gtod_reduce and e[1] == "write_lat_log") then  -- fio makes none (no latencies)
        local prefix = v == true and inst.job.name or v
        for _, kind in ipairs(e[2]) do
          local path = o.per_job_logs == false and string.format("%s_%s.log", prefix, kind)
            or string.format("%s_%s.%d.log", prefix, kind, inst.index)
          if not log_writers[path] then
            local wr, err = p.output_file(path)
            if not wr then jobfail(inst, "cannot open log " .. path .. ": " .. tostring(err)) end
            log_writers[path] = wr
          end
          w = w or {}
          w[kind] = log_writers[path]
        end
      end
    end
    inst.logs = w
  end
  local function close_logs()
    for _, w in pairs(log_writers) do w:close() end
  end

  -- The logs in a p.run table. fio's bw and iops samples in the report are taken
  -- every log_avg_msec when the job writes those logs (bw_avg_time follows it);
  -- with log_avg_msec=0 a log's kind is sampled per I/O instead (io_samples).
  -- gtod_reduce: fio takes no per-I/O bw or iops sample, so those logs stay empty
  -- (the files are still made); its bw/iops windows are logged.
  local function plan_logs(inst, r)
    local o, w = inst.o, inst.logs
    if not w then return r end
    local avg = o.log_avg_msec or 0
    local bw = avg > 0 or not o.gtod_reduce
    local l = { lat = w.lat, clat = w.clat, slat = w.slat, bw = bw and w.bw or nil, iops = bw and w.iops or nil,
      avg_ms = avg, offset = o.log_offset or nil }
    if l.lat or l.clat or l.slat or l.bw or l.iops then r.log = l end
    if (w.bw or w.iops) and avg > 0 then r.sample_ms = avg end
    if (w.bw or w.iops) and avg == 0 and not o.gtod_reduce then r.io_samples = true end
    return r
  end

  -- Which of the report's samples fio takes per I/O (stat.c's add_bw_sample and
  -- add_iops_sample, io_u.c's per_unit_log): a bw or iops log with log_avg_msec=0.
  -- gtod_reduce disables both (no bw, no iops samples at all then).
  local function per_io(o)
    if (o.log_avg_msec or 0) > 0 then return nil end
    local bw, iops = o.write_bw_log and true or false, o.write_iops_log and true or false
    if not (bw or iops) then return nil end
    return { bw = bw, iops = iops, none = o.gtod_reduce and true or false }
  end

  -- fio's sum_stat for bw and iops (pure_sum): a group's min, max, mean, S (the
  -- sum of squared deviations) and sample count are the sums of its jobs'
  local function io_sum(acc, m)
    if not m or (m.n or 0) == 0 then return acc end
    local S = (m.n > 1) and m.stdev * m.stdev * (m.n - 1) or 0
    if not acc then return { n = m.n, min = m.min, max = m.max, mean = m.mean, S = S } end
    acc.n, acc.min, acc.max = acc.n + m.n, acc.min + m.min, acc.max + m.max
    acc.mean, acc.S = acc.mean + m.mean, acc.S + S
    return acc
  end

  -- refill_buffers: new data in the buffer before every write; buffer_compress_percentage:
  -- that share of each buffer_compress_chunk zeros (fio then refills too, unless 100: zeros once)
  -- zero_buffers: the buffers hold zeros (the files' fill, below), so refilling them
  -- changes nothing, as fio's refill with zero_buffers writes zeros again
  local function plan_buffers(o, r)
    if o.refill_buffers and not o.zero_buffers then r.refill = true end
    local pct = o.buffer_compress_percentage or 0
    if pct > 0 then r.compress_pct, r.compress_chunk = pct, o.buffer_compress_chunk end
    return r
  end

  -- Options platter.fio_job reads but this workload cannot honour yet: an error
  -- naming them, never a run that quietly does something else.
  local function check_supported(job)
    local o = job.o
    local function no(what)
      fail(string.format("fio: job %s: %s is not supported by platter fio yet", job.name, what))
    end
    if (o.startdelay_high or 0) > 0 then no("a startdelay range") end
    for _, k in ipairs({ "io_size_percent", "offset_percent", "offset_increment_percent" }) do
      if o[k] then no(k:gsub("_percent$", "") .. "=N%") end
    end
    if o.size_percent and o.size_percent ~= 100 then no("size=N% (other than 100%)") end
  end
  for _, job in ipairs(cfg.jobs) do check_supported(job) end

  -- steadystate: fio rejects a group whose jobs' steady-state options differ; with
  -- group_reporting it judges the group's summed IOPS/bw as one (run_segment's
  -- p.steady_group), and all its jobs stop when it holds
  local function check_steady()
    local first = {}
    for _, inst in ipairs(instances) do
      local o, f = inst.o, first[inst.groupid]
      local ss = steady_dur(o) >= 1 and o.steadystate or nil
      local key = ss and string.format("%s:%.17g:%s:%d:%.17g", ss.kind, ss.limit, tostring(ss.pct),
        steady_dur(o), o.steadystate_ramp_time or 0) or ""
      if not f then
        first[inst.groupid] = { key = key }
      elseif f.key ~= key then
        fail("fio: file:steadystate.c:338, func=job rejected: steadystate options must be " ..
          "consistent within reporting groups, error=Invalid argume")
      end
    end
  end
  check_steady()

  -- fio checks directory= as it parses it (not on the simulated disk, which has no directories)
  if not p.config.sim then
    for _, job in ipairs(cfg.jobs) do
      local d = job.o.directory
      if d then
        local ok_, st = pcall(p.stat, d)
        if not ok_ then  -- the sandbox: a directory a job file names must be named on the command line too
          fail(string.format("fio: job %s: directory=%s: %s", job.name, d, tostring(st):gsub("^stat: ", "")))
        end
        if not st or st.kind ~= "dir" then
          fail(string.format("fio: %s is not a directory\nfio: failed parsing directory=%s\nfio: job %s dropped",
            d, d, job.name))
        end
      end
    end
  end

  -- ---------------------------------------------------------------------------
  -- Layout: fio's "Laying out IO file" before the jobs start
  -- ---------------------------------------------------------------------------
  local prepared, disks = {}, {}
  local ALLOCATE = { native = "fallocate", posix = "posix", keep = "keep", truncate = "truncate" }
  local function prepare(inst)
    local pr = prepared[inst.index]
    local names, per, offset = pr.names, pr.per, pr.offset
    local o = inst.o
    local null = ENGINES[o.ioengine or "psync"] == "null"
    local need = offset + per
    local laid, total = 0, 0
    for _, n in ipairs(names) do
      local have, kind = size_of(n)
      if kind == "block" or kind == "other" then
        -- a device (filename=/dev/sdX) is used as it is: fio lays out only files
        pr.device = true
      elseif null then
        if not have then p.scratch(n) end
      elseif not have or have < need then
        laid, total = laid + 1, total + need
      end
    end
    if laid > 0 and normal then
      -- filesetup.c: the size in whole MiB
      if laid == 1 then
        emit(string.format("%s: Laying out IO file (1 file / %dMiB)\n", inst.job.name, math.floor(need / 1048576)))
      else
        emit(string.format("%s: Laying out IO files (%d files / total %dMiB)\n", inst.job.name, laid,
          math.floor(total / 1048576)))
      end
    end
    for _, n in ipairs(names) do
      local f, err
      if pr.device then
        f, err = p.open(n)  -- a write job opens it for writing later, under --destroy's rule
      else
        -- fio's fallocate= before the data: native is fallocate(2), posix posix_fallocate(3),
        -- keep fallocate(2) with FALLOC_FL_KEEP_SIZE, truncate ftruncate(2), none nothing;
        -- zero_buffers lays out zeros (fio fills the layout as it fills its buffers)
        f, err = p.open(n, { create = true, write = true, size = need, sparse = null,
          fill = o.zero_buffers and "zero" or "random", allocate = not null and ALLOCATE[o.fallocate] or nil })
      end
      if not f then fail(string.format("fio: pid=0, err=%s/file:%s, func=open, error=%s", "2", n, err)) end
      if not null then
        if not pr.device then f:fsync() end  -- fio's create_fsync: the layout is on disk first
        local dev = f:info().device  -- for "Disk stats": the disks the jobs' files are on
        if dev and not disks[dev] then disks[dev], disks[#disks + 1] = true, dev end
      end
      f:close()
    end
  end

  -- ---------------------------------------------------------------------------
  -- Running: a segment's instances together in workers
  -- ---------------------------------------------------------------------------
  local function run_instance(inst, group, live, slot)
    local o, prep = inst.o, prepared[inst.index]
    if o.cpus then  -- cpus_allowed / cpumask: fio's thread_main sets them before anything
      local set = o.cpus
      if o.cpus_allowed_policy == "split" and #set > 0 then  -- fio_cpus_split: one each, in turn
        set = { set[(inst.index - 1) % #set + 1] }
      end
      local ok, msg, errno = false, nil, 22  -- an empty set: the kernel's EINVAL, as fio gets it
      if #set > 0 then ok, msg, errno = p.affinity(set) end
      if not ok then  -- msg: "affinity to CPUs L: STRERROR (this process may run on ...)"
        error(string.format("fio: pid=%d, err=%d/file:backend.c:1716, func=cpu_set_affinity, error=%s",
          p.pid(), errno, msg and msg:match(": ([^:]-) %(") or "Invalid argument"), 0)
      end
    end
    local kind = o.rw.kind
    local writes = kind ~= "read" and kind ~= "randread"
    local files = {}
    for i, n in ipairs(prep.names) do
      -- fill: fio's write buffers hold random data, or zeros with zero_buffers
      local f = assert(p.open(n, { write = writes, direct = o.direct, sync = o.sync == "sync",
        dsync = o.sync == "dsync", fill = writes and (o.zero_buffers and "zero" or "random") or nil }))
      if o.invalidate ~= false and not o.direct then f:advise("dontneed") end
      -- fadvise_hint=1, fio's default: tell the kernel how the job will read
      f:advise((kind == "read" or kind == "write" or kind == "rw") and "sequential" or "random")
      files[i] = f
    end
    if (o.startdelay or 0) > 0 then p.sleep(o.startdelay) end
    -- the job's p.run table (plan's, or the one a --lua script gives), on this process's files
    local spec = {}
    for k, v in pairs(inst.run) do spec[k] = v end
    spec.files = files
    spec = plan_logs(inst, plan_buffers(o, plan_verify(o, spec)))
    if group and spec.steady then  -- group_reporting: judged with the group's other jobs
      local ss = {}
      for k, v in pairs(spec.steady) do ss[k] = v end
      ss.group, ss.member = group.g, group.member[inst.index]
      spec.steady = ss
    end
    if live then spec.live, spec.live_slot = live, slot end
    local ru0 = p.rusage()
    local t0 = p.now()
    if live then live:mark(slot, t0) end  -- the status line: running since t0
    local ran, r = pcall(p.run, spec)
    if not ran then
      -- O_DIRECT with a block size or offset off the device's alignment: fio issues the
      -- I/O and the kernel refuses it (EINVAL), which ends the job at its first I/Os with
      -- err=22 in its report; p.run refuses the table before any I/O. Said as fio says it.
      if not (o.direct and tostring(r):find("O_DIRECT needs", 1, true)) then error(r, 0) end
      if live then live:mark(slot, -1) end
      local ru = p.rusage()
      local len = spec.bs or (spec.bs_list and spec.bs_list[1]) or 0
      for _, f in ipairs(files) do f:close() end
      -- the queue fills before the first completion says so: qd I/Os fail (1 with a sync engine)
      local n = ASYNC[spec.engine] and math.min(spec.qd or 1, math.max(1, math.floor((spec.bytes or len) / len))) or 1
      return p.phase(inst.job.name, function() end, { progress = false }), {
        elapsed = (p.now() - t0) / 1e9, runtime = 0,
        usr = ru.user - ru0.user, sys = ru.sys - ru0.sys, ctx = ru.ctx - ru0.ctx,
        majf = ru.majf - ru0.majf, minf = ru.minf - ru0.minf,
        io_error = { op = (kind == "read" or kind == "randread" or kind == "rw" or kind == "randrw") and "read"
          or "write", offset = spec.range[1], len = len, n = n, file = prep.names[1],
          sync = not ASYNC[spec.engine] },
      }
    end
    if live then live:mark(slot, -1) end
    if o.end_fsync and writes then for _, f in ipairs(files) do f:fsync() end end
    if o.fsync_on_close and writes then for _, f in ipairs(files) do f:fsync() end end
    local elapsed = (p.now() - t0) / 1e9
    local ru1 = p.rusage()
    for _, f in ipairs(files) do f:close() end
    if o.unlink then for _, n in ipairs(prep.names) do p.remove(n) end end
    local values = {
      samples = r.samples, elapsed = elapsed, runtime = r.seconds, stopped = r.stopped, error = r.error,
      -- a verify pass reads after the writes: each direction has its own time, as in fio
      runtime_rw = spec.verify_pass and { read = r.read and r.read.seconds or 0,
        write = r.write and r.write.seconds or 0 } or nil,
      usr = ru1.user - ru0.user, sys = ru1.sys - ru0.sys, ctx = ru1.ctx - ru0.ctx,
      majf = ru1.majf - ru0.majf, minf = ru1.minf - ru0.minf,
      depths = r.depths, submit = r.submit, complete = r.complete,
      rshorts = r.shorts,
      verify_errors = r.verify_errors, verify_error = r.verify_error,
      steady = r.steady,
      io_bw = r.io_bw, io_iops = r.io_iops,
    }
    return r, values
  end

  -- ---------------------------------------------------------------------------
  -- Reports
  -- ---------------------------------------------------------------------------
  local jobs_out = {}
  -- under --sim the clock is the model's: the report's dates are the epoch, so a run repeats
  local started = p.config.sim and 0 or os.time()

  -- the header: fio prints it before laying out files and starting the jobs
  -- every job's files and p.run table first: what cannot run fails before anything is printed
  for _, inst in ipairs(instances) do
    local names, per, offset, size = files_of(inst)
    prepared[inst.index] = { names = names, per = per, offset = offset, size = size }
    local mine = given.runs and given.runs[inst.job.index] and given.runs[inst.job.index][inst.jobnum + 1]
    inst.run = mine or plan(inst, names, per, offset, size)
    local kind = inst.o.rw.kind
    if kind ~= "read" and kind ~= "randread" then
      for _, n in ipairs(names) do  -- a device a job writes: --destroy's rule, decided now
        local _, k = size_of(n)
        if k == "block" then
          local ok_, f, err = pcall(p.open, n, { write = true })
          if not ok_ or not f then
            local msg = tostring(ok_ and err or f):gsub("^.-: open:", "open:")
            -- fio writes a mounted device with allow_mounted_write=1; platter never does
            if inst.o.allow_mounted_write and msg:find("even with --destroy", 1, true) then
              msg = msg .. " (platter never writes to a device in use, whatever allow_mounted_write says)"
            end
            jobfail(inst, msg)
          end
          f:close()
        end
      end
    end
  end

  if given.describe then return instances end  -- platter fio --lua: the jobs and their p.run tables

  if normal then
    local stub = {}
    for _, inst in ipairs(instances) do
      local opts = pairs_of(inst.job.list)
      -- a bare `thread` (fio stores "", which its JSON leaves out) still starts threads
      if inst.o.thread then opts[#opts + 1] = { "thread", "1" } end
      stub[#stub + 1] = fr.job({ name = inst.job.name, groupid = inst.groupid, options = opts }, {})
    end
    emit(fr.header(fr.defs(fr.top(stub, { global_options = global_options }))))
  end

  for _, inst in ipairs(instances) do prepare(inst) end
  for _, inst in ipairs(instances) do open_logs(inst) end

  local disk_before = p.diskstats and p.diskstats() or nil
  local t_all = p.now()

  -- fio's status line while the jobs run (eta.c; platter.fio_eta), on stdout
  local status
  if fe.wanted(cfg, formats, p.isatty("stdout")) and not p.config.sim then
    local jobs = {}
    for _, inst in ipairs(instances) do
      local pr = prepared[inst.index]
      jobs[inst.index] = { o = inst.o, files = #pr.names, state = "pending",
        total = (inst.o.io_size or pr.size) * (inst.o.loops or 1) }
    end
    status = { line = fe.new(genesis, jobs, { newline_ms = cfg.eta_newline and cfg.eta_newline * 1000 }),
      jobs = jobs, ms = (cfg.eta_interval or 1) * 1000 }
  end
  local function status_tick(seg, live)
    for i, inst in ipairs(seg) do
      local j = status.jobs[inst.index]
      local r, w, rb, wb, mark = live:get(i)
      j.ops, j.bytes = { r, w }, { rb, wb }
      if mark > 0 then j.state, j.started = "running", mark
      elseif mark < 0 then j.state = "done"
      else j.state = "setup" end
    end
    local text = status.line:line(p.now())
    if text then p.write(text) end
  end

  local results, failures, cut = {}, 0, false
  for _, seg in ipairs(segments) do
    -- partial: after Ctrl-C the workers' results so far come back, for fio's report of them
    local names, seen = {}, {}  -- platter's record names the phase after its jobs
    for _, inst in ipairs(seg) do
      if not seen[inst.job.name] then seen[inst.job.name], names[#names + 1] = true, inst.job.name end
    end
    -- a group_reporting group's steady state is judged over its jobs as one (fio's rule)
    local groups = {}
    for _, inst in ipairs(seg) do
      local ss = inst.o.group_reporting and inst.run.steady
      if ss then
        local g = groups[inst.groupid] or { member = {}, n = 0, steady = ss }
        groups[inst.groupid] = g
        g.n = g.n + 1
        g.member[inst.index] = g.n
      end
    end
    for _, g in pairs(groups) do g.g = p.steady_group(g.n, g.steady) end
    local live = status and p.live(#seg)
    local res = p.parallel(#seg, function(i) return run_instance(seg[i], groups[seg[i].groupid], live, i) end,
      { partial = true, name = table.concat(names, ", "),
        tick = live and function() status_tick(seg, live) end, tick_ms = status and status.ms })
    if live then
      for _, inst in ipairs(seg) do status.jobs[inst.index].state = "done" end
    end
    for _, f in ipairs(res.failed) do  -- a job that could not run: fio's way, on stderr
      local inst = seg[f.worker]
      -- (a message raised inside platter's modules without its place: never "fio_run.lua:NN:")
      local why = (tostring(f.error or (f.signal and ("killed by signal " .. f.signal))
        or ("exit status " .. tostring(f.status))):gsub("^[%w_/.-]*%.lua:%d+: ", ""))
      -- fio's own "fio: pid=N, err=..." line (a job that failed in its set-up) as fio prints it
      p.ewrite(why:find("^fio: pid=%d+, err=") and why .. "\n"
        or string.format("fio: job %s: %s\n", inst.job.name, why))
      failures = failures + 1
    end
    for i, inst in ipairs(seg) do
      if res[i] then results[inst.index] = { stats = res[i], values = res.values and res.values[i] or {} } end
    end
    if res.interrupted then
      cut = true  -- fio's signal handler: this line, then the report of what ran
      emit(string.format("\nfio: terminating on signal %d\n", 2))
      break
    end
  end
  local all_ms = (p.now() - t_all) / 1e6
  close_logs()

  -- fr.job's io_samples: per direction the bw and iops moments fio reports
  local function io_report(which, v)
    local out = { bw = which.bw, iops = which.iops }
    for _, kind in ipairs({ "bw", "iops" }) do
      if which[kind] then
        local acc = v["io_" .. kind] or {}
        local t = {}
        for _, d in ipairs({ "read", "write" }) do
          local m = acc[d]
          if m and not which.none then
            t[d] = { n = m.n, min = m.min, max = m.max, mean = m.mean,
              stdev = m.n > 1 and math.sqrt(m.S / (m.n - 1)) or 0.0 }
          end
        end
        out[kind] = t
      end
    end
    return out
  end

  -- fio's runtime: the time the job did I/O (after its ramp), in ms rounded up (backend.c)
  local function ms(sec) return math.floor((math.floor((sec or 0) * 1e6) + 999) / 1000) end
  -- one job copy's whole time in ms (fio's total_run_time): its runtime, or with a
  -- verify pass the writes' and the reads' times together
  local function job_ms(v, stats)
    if v.runtime_rw then return ms(v.runtime_rw.read) + ms(v.runtime_rw.write) end
    return ms(v.runtime or stats.seconds)
  end

  -- one job object per instance, or per group with group_reporting
  local function meta_of(inst, v, stats)
    local o = inst.o
    local runtime, job_runtime = ms(v.runtime or stats.seconds), nil
    if v.runtime_rw then
      runtime = { read = ms(v.runtime_rw.read), write = ms(v.runtime_rw.write) }
      job_runtime = runtime.read + runtime.write
    end
    -- a group_reporting group: fio adds its jobs' times (sum_thread_stats), and its CPU
    -- shares are the jobs' summed CPU time over that sum, an average, not a sum of shares
    if v.jobs_ms then job_runtime = v.jobs_ms end
    return {
      name = inst.job.name, groupid = inst.groupid, pid = p.pid(),
      options = pairs_of(inst.job.list), runtime_ms = runtime, job_runtime_ms = job_runtime,
      elapsed_s = v.elapsed,
      usr_cpu_s = v.usr, sys_cpu_s = v.sys, ctx = v.ctx, majf = v.majf, minf = v.minf,
      iodepth = QUEUED[ENGINES[o.ioengine or "psync"]] and o.iodepth or 1,
      depths = v.depths, submit = v.submit, complete = v.complete,
      percentile_list = inst.job.raw.percentile_list,
      clat_percentiles = o.clat_percentiles, lat_percentiles = o.lat_percentiles,
      slat_percentiles = o.slat_percentiles,
      samples = v.samples, plus = formats["json+"], gtod_reduce = o.gtod_reduce,
      description = o.description, steady = v.steady,
      io_samples = per_io(o) and io_report(per_io(o), v),
    }
  end

  -- unified_rw_reporting (fio's UNIFIED_MIXED and UNIFIED_BOTH): the directions summed
  -- into one "mixed" object (stat.c's sum_thread_stats into direction 0): bytes and I/Os
  -- added, the histograms merged, the longest runtime, and the bw and iops samples summed
  -- as fio sums a group's (min, max, mean and deviation each added); "mixed" replaces
  -- read, write, trim and sync, "both" adds it after them. job has been made from stats
  -- already, so they may be merged into each other now.
  local function unify(job, meta, stats, how)
    local function add(a, b) if a and b then return a:merge(b) end return a or b end
    local sum = add(stats.read, stats.write)
    local slat = stats.slat and { read = add(stats.slat.read, stats.slat.write) } or nil
    local m = {}
    for k, x in pairs(meta) do m[k] = x end
    if type(meta.runtime_ms) == "table" then
      m.runtime_ms = math.max(meta.runtime_ms.read or 0, meta.runtime_ms.write or 0)
    end
    local mixed = fr.job(m, { read = sum, slat = slat }).read
    local acc = {}
    for _, kind in ipairs({ { "bw", "bw_dev" }, { "iops", "iops_stddev" } }) do
      local k, dev = kind[1], kind[2]
      local t
      for _, d in ipairs({ "read", "write" }) do
        local x = job[d]
        if x and (x[k .. "_samples"] or 0) > 0 then
          t = io_sum(t, { n = x[k .. "_samples"], min = x[k .. "_min"], max = x[k .. "_max"],
            mean = x[k .. "_mean"], stdev = x[dev] })
        end
      end
      acc[k] = t
    end
    for _, k in ipairs({ "bw", "iops" }) do
      local t = acc[k]
      local dev = k == "bw" and "bw_dev" or "iops_stddev"
      if t then
        mixed[k .. "_min"], mixed[k .. "_max"], mixed[k .. "_mean"] = t.min, t.max, t.mean
        mixed[dev], mixed[k .. "_samples"] = t.n > 1 and math.sqrt(t.S / (t.n - 1)) or 0.0, t.n
      else
        mixed[k .. "_min"], mixed[k .. "_max"], mixed[k .. "_mean"], mixed[dev], mixed[k .. "_samples"] =
          0, 0, 0.0, 0.0, 0
      end
    end
    mixed.bw_agg = fr.bw_agg(mixed.bw_samples, mixed.bw_mean, mixed.bw_bytes)
    if how == "mixed" then job.read, job.write, job.trim, job.sync = nil, nil, nil, nil end
    job.mixed = mixed
  end

  local groups_done = {}
  for _, inst in ipairs(instances) do
    local res = results[inst.index]
    if not res then  -- not started before a Ctrl-C: fio reports no such job either
      goto next_instance
    end
    if inst.o.group_reporting then
      local g = groups_done[inst.groupid]
      if not g then
        g = { inst = inst, members = {}, }
        groups_done[inst.groupid] = g
        jobs_out[#jobs_out + 1] = g
      end
      g.members[#g.members + 1] = res
    else
      jobs_out[#jobs_out + 1] = { inst = inst, members = { res } }
    end
    ::next_instance::
  end

  local job_objects = {}
  for _, g in ipairs(jobs_out) do
    local first = g.members[1]
    local merged = { read = nil, write = nil, sync = nil }
    local v = {}
    for _, m in ipairs(g.members) do
      local s = m.stats
      if s then
        for _, d in ipairs({ "read", "write" }) do
          if s[d] then merged[d] = merged[d] and merged[d]:merge(s[d]) or s[d] end
        end
        if s.fsync then merged.sync = merged.sync and merged.sync:merge(s.fsync) or s.fsync end
      end
      if s and s.slat then  -- slat percentiles: the copies' histograms merged, as clat's
        merged.slat = merged.slat or {}
        for _, d in ipairs({ "read", "write" }) do
          local x = s.slat[d]
          if x then merged.slat[d] = merged.slat[d] and merged.slat[d]:merge(x) or x end
        end
      end
      local mv = m.values or {}
      if #g.members > 1 then v.jobs_ms = (v.jobs_ms or 0) + job_ms(mv, s or {}) end
      v.steady = v.steady or mv.steady  -- a group's jobs all report the group's window
      v.elapsed = math.max(v.elapsed or 0, mv.elapsed or 0)
      v.runtime = math.max(v.runtime or 0, mv.runtime or 0)
      if mv.runtime_rw then
        v.runtime_rw = v.runtime_rw or { read = 0, write = 0 }
        for _, d in ipairs({ "read", "write" }) do
          v.runtime_rw[d] = math.max(v.runtime_rw[d], mv.runtime_rw[d] or 0)
        end
      end
      for _, k in ipairs({ "usr", "sys", "ctx", "majf", "minf" }) do v[k] = (v[k] or 0) + (mv[k] or 0) end
      if not v.samples then v.samples = mv.samples
      elseif mv.samples then
        for i, w in ipairs(mv.samples) do
          local t = v.samples[i]
          if t then
            for _, k in ipairs({ "rbytes", "wbytes", "rops", "wops" }) do t[k] = (t[k] or 0) + (w[k] or 0) end
          end
        end
      end
      for _, kind in ipairs({ "io_bw", "io_iops" }) do
        if mv[kind] then
          v[kind] = v[kind] or {}
          for _, d in ipairs({ "read", "write" }) do v[kind][d] = io_sum(v[kind][d], mv[kind][d]) end
        end
      end
      for _, k in ipairs({ "depths", "submit", "complete" }) do
        if mv[k] then
          v[k] = v[k] or { 0, 0, 0, 0, 0, 0, 0 }
          for i = 1, 7 do v[k][i] = v[k][i] + (mv[k][i] or 0) end
        end
      end
    end
    local meta = meta_of(g.inst, v, first.stats or {})
    meta.jobs = #g.members
    if verify_failed(g.inst, meta, g.members) then failures = failures + 1 end
    if rate_min_failed(g.inst, meta, g.members) then failures = failures + 1 end
    local io_err = io_error_failed(meta, g.members)
    if io_err then failures = failures + 1 end
    job_objects[#job_objects + 1] = fr.job(meta, merged)
    if io_err then io_error_counts(job_objects[#job_objects], io_err) end
    local unified = g.inst.o.unified_rw_reporting
    if unified == "mixed" or unified == "both" then
      unify(job_objects[#job_objects], meta, merged, unified)
    end
  end

  local disk = {}
  if disk_before and #disks > 0 then
    local after = p.diskstats()
    if after then disk = fr.disk_util(disk_before, after, all_ms, disks) end
  end

  local top = fr.top(job_objects, { global_options = global_options, time = started, disk_util = disk })
  if formats.terse then emit(fr.terse(top, { version = cfg.terse_version })) end
  if formats.json then emit(fr.json(top, formats["json+"])) end
  if normal then emit(fr.normal(top, { header = false })) end
  if outfile then assert(outfile:close()) end
  if cut then error("interrupted", 0) end  -- platter's own report of the cut, exit status 130
  if failures > 0 then p.exit(1) end
end

-- ---------------------------------------------------------------------------
-- platter fio --lua: the jobs as a script (script{} below runs it)
-- ---------------------------------------------------------------------------

-- A Lua literal of v (numbers, strings, booleans, tables), keys in order.
local function literal(v, indent)
  local t = type(v)
  if t == "string" then return string.format("%q", v) end
  if t == "number" then
    if v == math.floor(v) and math.abs(v) < 2 ^ 53 then return string.format("%d", v) end
    return string.format("%.17g", v)
  end
  if t ~= "table" then return tostring(v) end
  local n, keys = #v, {}
  for k in pairs(v) do
    if not (type(k) == "number" and k >= 1 and k <= n and k == math.floor(k)) then keys[#keys + 1] = k end
  end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local parts = {}
  for i = 1, n do parts[#parts + 1] = literal(v[i], indent) end
  for _, k in ipairs(keys) do
    local key = (type(k) == "string" and k:match("^[%a_][%w_]*$")) and k or ("[" .. literal(k) .. "]")
    parts[#parts + 1] = key .. " = " .. literal(v[k], indent)
  end
  return "{ " .. table.concat(parts, ", ") .. " }"
end

-- A p.run table as a readable literal: what the I/O is first, a field per
-- "key = value", lines kept under 100 columns.
local RUN_ORDER = { "name", "op", "read_pct", "pattern", "bs", "bs_list", "weights", "write_bs", "write_bs_list",
  "write_weights", "align", "engine", "qd", "batch", "range", "seconds", "bytes", "count", "ramp" }
local function run_literal(r, indent)
  local seen, fields = { files = true }, {}
  for _, k in ipairs(RUN_ORDER) do
    if r[k] ~= nil then fields[#fields + 1] = k .. " = " .. literal(r[k]); seen[k] = true end
  end
  local rest = {}
  for k in pairs(r) do if not seen[k] then rest[#rest + 1] = k end end
  table.sort(rest)
  for _, k in ipairs(rest) do fields[#fields + 1] = k .. " = " .. literal(r[k]) end
  local lines, cur = {}, indent .. "  "
  for i, f in ipairs(fields) do
    local piece = f .. (i < #fields and "," or "")
    if #cur + #piece + 1 > 100 and cur:match("%S") then
      lines[#lines + 1] = cur
      cur = indent .. "  "
    end
    cur = cur .. (cur:match("%S") and " " or "") .. piece
  end
  lines[#lines + 1] = cur
  return indent .. "{\n" .. table.concat(lines, "\n") .. "\n" .. indent .. "}"
end

local function option_pairs(list)
  local t = {}
  for _, kv in ipairs(list or {}) do
    if kv.name ~= "name" then
      t[#t + 1] = (kv.value == nil or kv.value == true) and { kv.name } or { kv.name, kv.value }
    end
  end
  return t
end

--- lua(cfg, source) -> the text of a script that runs cfg's jobs as platter fio
--- would, with each job copy's p.run table written out
function M.lua(cfg, source)
  local insts = M.run(cfg, { describe = true })
  local out = {
    "-- " .. source .. " as a platter script, written by `platter fio --lua`.",
    "-- `platter THIS.lua` runs it and prints what `platter fio` prints for it.",
    "-- Each job keeps fio's options (the report shows them, and they decide the",
    "-- files, the layout and the report), and `run` holds the p.run table of each",
    "-- numjobs copy, as platter fio plans it; its files are added when it runs.",
    "-- Change a run table (pattern, bs, qd, seconds, ...) to change what the job does.",
    'local fio = require "platter.fio_run"',
    "",
    "fio.script {",
  }
  local fmt = {}
  for _, f in ipairs(cfg.output_format or { "normal" }) do fmt[#fmt + 1] = f end
  out[#out + 1] = "  output_format = " .. literal(fmt) .. ","
  if cfg.terse_version and cfg.terse_version ~= 3 then
    out[#out + 1] = "  terse_version = " .. literal(cfg.terse_version) .. ","
  end
  out[#out + 1] = "  global = " .. literal(option_pairs(cfg.global)) .. ","
  out[#out + 1] = "  jobs = {"
  for _, job in ipairs(cfg.jobs) do
    local opts = option_pairs(job.list)
    if job.o.stonewall and not (job.options or {}).stonewall then opts[#opts + 1] = { "stonewall" } end
    out[#out + 1] = "    {"
    out[#out + 1] = "      name = " .. literal(job.name) .. ","
    out[#out + 1] = "      options = " .. literal(opts) .. ","
    out[#out + 1] = "      run = {"
    for _, inst in ipairs(insts) do
      if inst.job == job then
        out[#out + 1] = run_literal(inst.run, "        ") .. ","
      end
    end
    out[#out + 1] = "      },"
    out[#out + 1] = "    },"
  end
  out[#out + 1] = "  },"
  out[#out + 1] = "}"
  return table.concat(out, "\n") .. "\n"
end

--- script{ output_format, terse_version, global, jobs = { { name, options, run } } }:
--- what a `platter fio --lua` script calls. The options are read as fio's command
--- line (platter.fio_job), and each job copy runs its own p.run table.
function M.script(desc)
  local argv = {}
  local function add(kv) argv[#argv + 1] = "--" .. kv[1] .. (kv[2] ~= nil and ("=" .. tostring(kv[2])) or "") end
  if desc.output_format then argv[#argv + 1] = "--output-format=" .. table.concat(desc.output_format, ",") end
  if desc.terse_version then argv[#argv + 1] = "--terse-version=" .. tostring(desc.terse_version) end
  for _, kv in ipairs(desc.global or {}) do add(kv) end
  local runs = {}
  for i, job in ipairs(desc.jobs or {}) do
    argv[#argv + 1] = "--name=" .. job.name
    for _, kv in ipairs(job.options or {}) do add(kv) end
    runs[i] = job.run
  end
  local ok, cfg = pcall(fj.parse, argv, { read_file = p.read_text, getenv = p.getenv, keywords = fj.keywords() })
  if not ok then M.parse_failed(cfg) end
  return M.run(cfg, { runs = runs })
end

return M
