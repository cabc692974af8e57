platter.fio_job against the real fio 3.33 (Debian's), when it is installed:
fio --showcmd prints a job file as the command line that means the same,
with the options in the order fio applied them (kb_base first, filename last), canonical names and the
values after ${VAR} expansion, so it shows how fio read the file. The
module's fj.showcmd must print the same bytes for job files covering the
option groups platter takes (fio's own examples: real_fio_examples.t).
The errors fio prints for bad job files (stderr) must be the
module's too.

First, without fio: the module loads in the sandbox (it needs no io or os)
and reads a command line there:

  $ platter -e 'local fj = require "platter.fio_job"
  > local cfg = fj.parse({ ... }, {})
  > local o = cfg.jobs[1].o
  > print(cfg.jobs[1].name, o.rw.kind, o.rw.seq_nr, o.bs.read, o.bs.write, o.iodepth, o.ioengine, o.runtime)' \
  >   --name=seq --rw=randread:4 --bs=4k,64k --iodepth=8 --ioengine=libaio --runtime=2m
  seq\trandread\t4\t4096\t65536\t8\tlibaio\t120 (esc)
  $ platter -e 'require "platter.fio_job".parse({ "job.fio" }, {})'
  platter: fio: unable to open 'job.fio' job file
  [1]

The rest compares with fio:

  $ command -v fio >/dev/null || exit 80
  $ fio --version
  fio-3.33
  $ cat > sc.lua <<'EOF'
  > local fj = require "platter.fio_job"
  > local env = {
  >   read_file = function(p)
  >     local f = io.open(p)
  >     if not f then return nil end
  >     local s = f:read("*a")
  >     f:close()
  >     return s
  >   end,
  >   getenv = os.getenv,
  > }
  > local ok, cfg = pcall(fj.parse, { ... }, env)
  > if not ok then
  >   io.stderr:write(cfg, "\n")
  >   os.exit(1, true)  -- close the state: nothing left for LeakSanitizer
  > end
  > io.write(fj.showcmd(cfg))
  > EOF
  $ same() { fio "$@" > real.out 2> real.err; platter --trust sc.lua "$@" > ours.out 2> ours.err; diff real.out ours.out && echo same; }

Job files with every option group (fio must accept each of them too):

  $ cat > global.fio <<'EOF'
  > ; a comment
  > # another
  > [global]
  > ioengine=libaio
  > direct=1 ; trailing comment
  > size=${SIZE}
  > kb_base=1000
  > filename=/tmp/a\:b:/tmp/c
  > 
  > [seq-read]
  > readwrite=read:64k
  > blocksize=128k
  > iodepth=32
  > iodepth_batch_submit=8
  > iodepth_batch_complete_min=4
  > iodepth_batch_complete_max=16
  > numjobs=2
  > offset_increment=10%
  > group_reporting
  > 
  > [global]
  > runtime=30
  > time_based
  > ramp_time=2s
  > 
  > [mixed]
  > stonewall
  > rw=randrw
  > rwmixread=70
  > bssplit=4k/50:64k/30:1m,16k
  > bsrange=4k-1m
  > ba=4k
  > random_distribution=zipf:1.2
  > percentage_random=90
  > norandommap
  > randrepeat=0
  > randseed=1234
  > rate=10m,5m
  > rate_iops=500
  > rate_min=1m
  > rate_process=poisson
  > thinktime=100
  > startdelay=1-3
  > loops=2
  > EOF
  $ cat > files.fio <<'EOF'
  > [writer]
  > directory=/tmp
  > nrfiles=4
  > filename_format=f.$jobnum.$filenum
  > filesize=1m-4m
  > io_size=50%
  > offset=4k
  > rw=write
  > ioengine=psync
  > sync=dsync
  > fsync=8
  > fdatasync=4
  > end_fsync=1
  > fsync_on_close=1
  > create_on_open=1
  > overwrite=1
  > unlink=1
  > invalidate=0
  > buffered=0
  > thread
  > refill_buffers
  > buffer_compress_percentage=50
  > verify=crc32c
  > do_verify=1
  > verify_fatal=1
  > 
  > [stats]
  > new_group
  > wait_for_previous
  > ioengine=io_uring
  > rw=randread
  > clat_percentiles=1
  > lat_percentiles=1
  > slat_percentiles=0
  > percentile_list=50:99:99.9:99.99
  > write_bw_log=stats
  > write_iops_log=stats
  > write_lat_log
  > log_avg_msec=1000
  > steadystate=iops_slope:0.1%
  > ss_dur=60
  > ss_ramp=10
  > gtod_reduce=0
  > 
  > [small]
  > include inc.fio
  > ioengine=null
  > EOF
  $ printf 'size=1m\nbs = 8k\n; in an include\n' > inc.fio
  $ SIZE=1g fio --parse-only global.fio files.fio && echo fio accepts them
  fio accepts them
  $ export SIZE=1g
  $ same --showcmd global.fio
  same
  $ cat ours.out
  fio --kb_base=1000 --ioengine=libaio --direct=1 --size=1g --filename=/tmp/a\:b:/tmp/c --name=seq-read --rw=read:64k --bs=128k --iodepth=32 --iodepth_batch=8 --iodepth_batch_complete_min=4 --iodepth_batch_complete_max=16 --numjobs=2 --offset_increment=10% --group_reporting --kb_base=1000 --ioengine=libaio --direct=1 --size=1g --filename=/tmp/a\:b:/tmp/c --runtime=30 --time_based --ramp_time=2s --name=mixed --stonewall --rw=randrw --rwmixread=70 --bssplit=4k/50:64k/30:1m,16k --bsrange=4k-1m --ba=4k --random_distribution=zipf:1.2 --percentage_random=90 --norandommap --randrepeat=0 --randseed=1234 --rate=10m,5m --rate_iops=500 --rate_min=1m --rate_process=poisson --thinktime=100 --startdelay=1-3 --loops=2 
  $ same --showcmd files.fio
  same
  $ same --showcmd global.fio files.fio
  same
  $ same --showcmd --bs=64k --iodepth=4 global.fio
  same
  $ same --showcmd --section=small files.fio global.fio
  same

The errors (fio's stderr; where fio also prints a partial --showcmd line
on stdout, only stderr is compared):

  $ err() { printf "$1" > bad.fio; fio --parse-only bad.fio 2> real.err > /dev/null; platter --trust sc.lua --parse-only bad.fio 2> ours.err > /dev/null; diff real.err ours.err && echo same; }
  $ err '[x]\nfoo=1\n'
  same
  $ cat ours.err
  Bad option <foo=1>
  Did you mean flow?
  fio: job x dropped
  $ err '[x]\nbs=abc\n'
  same
  $ err '[x]\niodepth=0\n'
  same
  $ err '[x]\nrwmixread=101\n'
  same
  $ err '[x]\ndirect=2\n'
  same
  $ err 'bs=4k\n[x]\n'
  same
  $ err '[x]\nio_size=150%%\n'
  same
  $ err '[x]\nrandom_distribution=zipf:1\n'
  same
  $ err '[x]\nsteadystate=iops\n'
  same
  $ err '[x]\nrw = randrw\n'
  same
  $ err '[x]\nbs\n'
  same
  $ err '[x]\nname\n'
  same

What fio takes and platter does not is refused, naming it:

  $ printf '[x]\nrw=trim\n' > trim.fio; fio --parse-only trim.fio && platter --trust sc.lua --parse-only trim.fio
  fio: rw=trim is not supported by platter fio (platter fio --help lists what is)
  fio: job x dropped
  [1]

  $ fio --parse-only nope.fio; platter --trust sc.lua nope.fio
  fio: unable to open 'nope.fio' job file
  fio: unable to open 'nope.fio' job file
  [1]

On the command line:

  $ cmd() { fio --parse-only "$@" 2> real.err > /dev/null; platter --trust sc.lua --parse-only "$@" 2> ours.err; sed 1d real.err | diff - ours.err && echo same; }
  $ cmd --name=x --foo=1
  same
  $ cmd --name=x --iodeptj=1
  same
  $ cmd --name=x --bsx
  same
  $ cat ours.err
  fio: unrecognized option '--bsx'
  Did you mean bs?

io_uring's options (hipri, fixedbufs, registerfiles, sqthread_poll) are
fio's only while io_uring is the job's engine: on the command line after an
--ioengine=io_uring that applies to the job, in a job file after the
section's other options, whatever the order of its lines; otherwise fio
does not know them:

  $ cmd --name=x --hipri --ioengine=io_uring
  same
  $ cmd --name=x --ioengine=psync --fixedbufs
  same
  $ cmd --name=x --ioengine=libaio --sqthread_poll
  same
  $ cmd --name=a --ioengine=io_uring --name=b --registerfiles
  same
  $ fio --parse-only --name=x --ioengine=io_uring --hipri=abc 2> real.err
  [1]
  $ platter --trust sc.lua --parse-only --name=x --ioengine=io_uring --hipri=abc 2> ours.err
  [1]
  $ diff real.err ours.err && cat ours.err
  fio: failed parsing hipri=abc
  $ fio --parse-only --ioengine=io_uring --name=x --hipri --fixedbufs=1 --registerfiles --sqthread_poll=0 &&
  >   platter --trust sc.lua --parse-only --ioengine=io_uring --name=x --hipri --fixedbufs=1 --registerfiles --sqthread_poll=0 && echo both take it
  both take it
  $ printf '[global]\nioengine=io_uring\n[x]\nhipri\nsize=1m\nfixedbufs=1\nregisterfiles=0\nsqthread_poll\nbs=8k\n[y]\nsqthread_poll=1\nioengine=io_uring\n' > uring.fio
  $ same --showcmd uring.fio
  same
  $ cat ours.out
  fio --ioengine=io_uring --name=x --size=1m --bs=8k --hipri --fixedbufs=1 --registerfiles=0 --sqthread_poll --name=y --ioengine=io_uring --sqthread_poll=1 
  $ err '[x]\nhipri\nbogus=1\nioengine=psync\nsize=1m\nsqthread_poll\n'
  same
  $ err '[global]\nhipri\n[x]\nioengine=io_uring\n'
  same
  $ cat ours.err
  Bad option <hipri>
  Did you mean prio?
  fio: job global dropped

The other options of this kind fio takes: fallocate, zero_buffers,
scramble_buffers, allow_mounted_write, and their bad values:

  $ printf '[x]\nfallocate=keep\nzero_buffers\nscramble_buffers=0\nallow_mounted_write=0\n[y]\nfallocate=1\nzero_buffers=0\n' > data.fio
  $ same --showcmd data.fio
  same
  $ err '[x]\nfallocate=bogus\n'
  same
  $ err '[x]\nscramble_buffers=2\n'
  same
  $ err '[x]\nallow_mounted_write=2\n'
  same
  $ err '[x]\nzero_buffers=abc\n'
  same

The report's first line, a job's block sizes per direction, read from the
options' text as fio reads them: a suffix fio does not know counts as 1
(bs=1x is 1 byte), ':' and '-' split bs into directions as ',' does, and
bssplit's sizes give each direction's range. Compared with fio's own line:

  $ head -c 65536 /dev/zero > h.dat
  $ head1() { fio --name=x --filename=h.dat --size=64k "$@" 2>&1 | head -1 > real.out; platter fio --name=x --filename=h.dat --size=64k "$@" 2>&1 | head -1 > ours.out; diff real.out ours.out && echo same; }
  $ head1 --bs=1x
  same
  $ head1 --bs=4q
  same
  $ head1 --bs=1.5k
  same
  $ head1 --bs=4k-8k
  same
  $ head1 --bs=4k:8k,16k
  same
  $ head1 --bs=4k,,16k
  same
  $ head1 --bsrange=8k-4k,1k-2k
  same
  $ head1 --bs=4kib --kb_base=1000
  same
  $ head1 --bssplit=4k/50:8k/50,,1k
  same
  $ head1 --bssplit=4k/50:8k/50,16k
  same
  $ cat ours.out
  x: (g=0): rw=read, bs=(R) 4096B-8192B, (W) 16.0KiB-16.0KiB, (T) 16.0KiB-16.0KiB, ioengine=psync, iodepth=1

The same first lines on a terminal (fio and platter under script(1)):

  $ command -v script > /dev/null || exit 80
  $ tty1() { script -qec "fio --name=x --filename=h.dat --size=64k $*" /dev/null < /dev/null | tr -d '\r' | head -3 > real.out; script -qec "platter fio --name=x --filename=h.dat --size=64k $*" /dev/null < /dev/null | tr -d '\r' | head -3 > ours.out; diff real.out ours.out && echo same; }
  $ tty1 --bs=1x
  same
  $ tty1 --bs=4k-8k
  same
  $ tty1 --bssplit=4k/50:8k/50,,1k
  same

numjobs=0 is refused as it is parsed (fio 3.33 accepts it and then fails with
"error: maximum number of jobs reached"), and more job copies side by side
than p.parallel forks are refused before anything runs:

  $ platter fio --name=x --filename=h.dat --size=4k --numjobs=0
  numjobs: min value out of range: 0 (1 min)
  fio: failed parsing numjobs=0
  [1]
  $ platter fio --name=x --filename=h.dat --size=4k --numjobs=600 --name=y --filename=h.dat --size=4k --numjobs=600
  fio: platter fio runs at most 1024 job copies side by side (numjobs, and the jobs between two stonewalls), not 1200
  [1]

A value outside an option's set: fio prints the option's values, every one
with its help, on stdout (parse.c's show_option_values) and then its
"failed parsing" line on stderr, so on a terminal the list comes first and
with 2>&1 into a pipe last (fio's stdout buffer is written at exit). The
same, on a terminal (script) and with 2>&1, and stdout alone:

  $ for o in rw=bogus verify=blah fallocate=x kb_base=3 sync=no rate_process=x unified_rw_reporting=x \
  >     random_distribution=x steadystate=x readwrite=x cpus_allowed_policy=x; do
  >   fio --name=t --size=1m --$o > real.out 2> real.err; echo $? >> real.err
  >   platter fio --name=t --size=1m --$o > ours.out 2> ours.err; echo $? >> ours.err
  >   fio --name=t --size=1m --$o > real.two 2>&1; platter fio --name=t --size=1m --$o > ours.two 2>&1
  >   script -qec "fio --name=t --size=1m --$o" /dev/null < /dev/null > real.tty
  >   script -qec "platter fio --name=t --size=1m --$o" /dev/null < /dev/null > ours.tty
  >   for k in out err two tty; do cmp -s real.$k ours.$k || { echo "$o: $k differs"; diff real.$k ours.$k | head -5; }; done
  > done; echo checked
  checked
  $ cat ours.two
  fio: failed parsing cpus_allowed_policy=x
          valid values: shared     Mask shared between threads
                      : split      Mask split between threads
  
  $ tr -d '\r' < ours.tty
          valid values: shared     Mask shared between threads
                      : split      Mask split between threads
  
  fio: failed parsing cpus_allowed_policy=x
  $ rm -f real.* ours.*
