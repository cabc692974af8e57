platter fio runs fio's job files and command lines and prints fio 3.33's
reports. On the simulated disk the figures repeat, so the whole report is
shown; tests/fio/layout.py compares the layout with the real fio.

  $ export TZ=UTC
  $ cat > two.fio <<'FIO'
  > [global]
  > size=4m
  > bs=64k
  > 
  > [writer]
  > rw=write
  > 
  > [reader]
  > stonewall
  > rw=randread
  > runtime=1
  > time_based
  > FIO
  $ platter --sim ata-5400-1999 fio two.fio
  writer: (g=0): rw=write, bs=(R) 64.0KiB-64.0KiB, (W) 64.0KiB-64.0KiB, (T) 64.0KiB-64.0KiB, ioengine=psync, iodepth=1
  reader: (g=1): rw=randread, bs=(R) 64.0KiB-64.0KiB, (W) 64.0KiB-64.0KiB, (T) 64.0KiB-64.0KiB, ioengine=psync, iodepth=1
  fio-3.33
  Starting 2 processes
  writer: Laying out IO file (1 file / 4MiB)
  reader: Laying out IO file (1 file / 4MiB)
  
  writer: (groupid=0, jobs=1): err= 0: pid=4242: Thu Jan  1 00:00:00 1970
    write: IOPS=1777, BW=111MiB/s (117MB/s)(4096KiB/36msec); 0 zone resets
      clat (nsec): min=550133, max=550133, avg=550133.00, stdev= 0.00
       lat (nsec): min=550133, max=550133, avg=550133.00, stdev= 0.00
      clat percentiles (usec):
       |  1.00th=[  551],  5.00th=[  551], 10.00th=[  551], 20.00th=[  551],
       | 30.00th=[  551], 40.00th=[  551], 50.00th=[  551], 60.00th=[  551],
       | 70.00th=[  551], 80.00th=[  551], 90.00th=[  551], 95.00th=[  551],
       | 99.00th=[  551], 99.50th=[  551], 99.90th=[  551], 99.95th=[  551],
       | 99.99th=[  551]
    lat (usec)   : 750=100.00%
    cpu          : usr=0.00%, sys=97.81%, ctx=0, majf=0, minf=0
    IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%
       submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%
       complete  : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%
       issued rwts: total=0,64,0,0 short=0,0,0,0 dropped=0,0,0,0
       latency   : target=0, window=0, percentile=100.00%, depth=1
  reader: (groupid=1, jobs=1): err= 0: pid=4242: Thu Jan  1 00:00:00 1970
    read: IOPS=68, BW=4352KiB/s (4456kB/s)(4352KiB/1000msec)
      clat (usec): min=7307, max=34966, avg=14818.55, stdev=6303.95
       lat (usec): min=7307, max=34966, avg=14818.55, stdev=6303.95
      clat percentiles (usec):
       |  1.00th=[ 7308],  5.00th=[ 7832], 10.00th=[ 7898], 20.00th=[ 9634],
       | 30.00th=[10945], 40.00th=[12125], 50.00th=[13960], 60.00th=[16057],
       | 70.00th=[16909], 80.00th=[17433], 90.00th=[26346], 95.00th=[26346],
       | 99.00th=[34866], 99.50th=[34866], 99.90th=[34866], 99.95th=[34866],
       | 99.99th=[34866]
     bw (  KiB/s): min= 3840, max= 4736, per=98.53%, avg=4288.00, stdev=633.57, samples=2
     iops        : min=   60, max=   74, avg=67.00, stdev= 9.90, samples=2
    lat (msec)   : 10=23.53%, 20=64.71%, 50=11.76%
    cpu          : usr=0.00%, sys=3.74%, ctx=0, majf=0, minf=0
    IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%
       submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%
       complete  : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%
       issued rwts: total=68,0,0,0 short=0,0,0,0 dropped=0,0,0,0
       latency   : target=0, window=0, percentile=100.00%, depth=1
  
  Run status group 0 (all jobs):
    WRITE: bw=111MiB/s (117MB/s), 111MiB/s-111MiB/s (117MB/s-117MB/s), io=4096KiB (4194kB), run=36-36msec
  
  Run status group 1 (all jobs):
     READ: bw=4352KiB/s (4456kB/s), 4352KiB/s-4352KiB/s (4456kB/s-4456kB/s), io=4352KiB (4456kB), run=1000-1000msec

The terse and JSON forms of the same run, in fio's order (terse, then
json, then normal) when several are asked for.

  $ platter --sim ata-5400-1999 fio --output-format=json,terse two.fio > both.txt
  $ head -c 40 both.txt; echo
  3;fio-3.33;writer;0;0;0;0;0;0;0;0;0.0000
  $ grep -c '^3;fio-3.33;' both.txt
  2
  $ sed -n '/^{/,$p' both.txt | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["fio version"], [j["jobname"] for j in d["jobs"]], d["jobs"][1]["read"]["total_ios"] > 0)'
  fio-3.33 ['writer', 'reader'] True

unified_rw_reporting=mixed reports the reads and writes as one "mixed"
direction (fio's sum of the two); both (2) adds it after read and write:

  $ platter --sim ata-5400-1999 fio --name=m --rw=randrw --size=1m --unified_rw_reporting=mixed | grep -E "mixed:|MIXED|issued"
    mixed: IOPS=183, BW=734KiB/s (751kB/s)(1024KiB/1396msec)
       issued rwts: total=256,0,0,0 short=0,0,0,0 dropped=0,0,0,0
    MIXED: bw=734KiB/s (751kB/s), 734KiB/s-734KiB/s (751kB/s-751kB/s), io=1024KiB (1049kB), run=1396-1396msec
  $ platter --sim ata-5400-1999 fio --name=m --rw=randrw --size=1m --unified_rw_reporting=both --output-format=json |
  >   python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print([k for k in ("read","write","trim","sync","mixed") if k in j], j["mixed"]["total_ios"])'
  ['read', 'write', 'trim', 'sync', 'mixed'] 256

--minimal is --output-format=terse, and the later of the two wins, as in
fio:

  $ platter --sim ata-5400-1999 fio --minimal --output-format=json --name=one --size=1m | head -c 1; echo
  {
  $ platter --sim ata-5400-1999 fio --output-format=json --minimal --name=one --size=1m | head -c 10; echo
  3;fio-3.33

--output=FILE writes the report there (a file named on the command line:
the sandbox lets a script write text nowhere else), and nothing on stdout.

  $ platter --sim ata-5400-1999 fio --output=report.txt --name=one --size=1m
  $ head -2 report.txt
  one: (g=0): rw=read, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync, iodepth=1
  fio-3.33

Ctrl-C: fio's "terminating on signal" line and the report of what ran (the
writer finished, the reader was cut), then platter's partial phase, exit
status 130.

  $ PLATTER_SIM_SIGINT=1.5 platter --sim ata-5400-1999 fio two.fio > cut.txt
  platter: interrupted
  platter: interrupted p.parallel after 0.891 s: 61 ops, 4.00 MB (68.4 IOPS, 4.48 MB/s), latency \xc2\xb5s: mean 14614, p50 13304, p99 34865, max 34966 (esc)
  [130]
  $ grep -n 'terminating\|groupid=\|Run status' cut.txt
  8:fio: terminating on signal 2
  10:writer: (groupid=0, jobs=1): err= 0: pid=4242: Thu Jan  1 00:00:00 1970
  27:reader: (groupid=1, jobs=1): err= 0: pid=4242: Thu Jan  1 00:00:00 1970
  47:Run status group 0 (all jobs):
  50:Run status group 1 (all jobs):

platter's own record (--json) is written too, a phase per group of jobs
that ran together, named after them; compare and plot read it.

  $ platter --json a.json --sim ata-5400-1999 fio two.fio > /dev/null
  $ platter --json b.json --sim ata-5400-1999 fio two.fio > /dev/null
  $ platter compare a.json b.json | grep -E '^(writer|reader) |IOPS'
  writer (parallel)
    IOPS           1818   1818  1.000
  reader (parallel)
    IOPS           68.0   68.0  1.000
  $ platter plot a.json -o plot.svg && test -s plot.svg && echo plotted
  plot: wrote plot.svg (latency, 2 lines)
  plotted
  $ rm a.json b.json plot.svg

--showcmd, --parse-only and --version stop before running anything.

  $ platter fio --showcmd two.fio
  fio --size=4m --bs=64k --name=writer --rw=write --name=reader --stonewall --rw=randread --runtime=1 --time_based 
  $ platter fio --parse-only two.fio
  $ platter fio --version
  fio-3.33

Bad input is an error naming it, with exit status 1, before anything is
printed or laid out: an option fio does not know (fio's wording), one fio
has and platter does not, one platter reads but cannot run yet, a missing
job file, no job at all.

  $ platter fio --name=x --bogus=1
  fio: unrecognized option '--bogus=1'
  [1]
  $ platter fio --name=x --size=1m --zonemode=zbd
  fio: option 'zonemode' is not supported by platter fio (platter fio --help lists what is)
  [1]
  $ platter fio --name=x --size=1m --startdelay=1-2
  fio: job x: a startdelay range is not supported by platter fio yet
  [1]
  $ platter fio --name=a --size=1m --ss_dur=2 --name=b --size=1m
  fio: file:steadystate.c:338, func=job rejected: steadystate options must be consistent within reporting groups, error=Invalid argume
  [1]
  $ platter fio --name=x --size=1m --bs=4k --rate=1k --rate_process=poisson
  fio: job x: rate_process=poisson needs a rate of at least one block (4096 bytes) a second
  [1]
  $ platter fio nope.fio
  fio: unable to open 'nope.fio' job file
  [1]
  $ platter fio
  No job(s) defined
  [1]
  $ platter fio --name=nosize
  fio: job nosize: you need to specify size=
  [1]
Under --sim the jobs' files exist only in the model; the reports are real files.

  $ ls
  both.txt
  cut.txt
  report.txt
  two.fio

rate_process=poisson becomes p.run's rate_process, with fio's IOPS: the rate
over the smallest block (or rate_iops), the directions summed; the --lua
script carries it.

  $ platter fio --lua --name=x --size=1m --bs=4k --rw=randrw --rate=400k,200k --rate_process=poisson | grep -o 'rate_iops = [0-9]*.*rate_process = "[a-z]*"'
  rate_iops = 150, rate_latency = "issue", rate_process = "poisson"
  $ platter fio --lua --name=x --size=1m --bsrange=4k-16k --rate_iops=70 --rate_process=poisson | grep -o 'rate_iops = [0-9]*.*rate_process = "[a-z]*"'
  rate_iops = 70, rate_latency = "issue", rate_process = "poisson"
  $ platter fio --lua --name=x --size=1m --rate=400k | grep -c rate_process
  0
  [1]
