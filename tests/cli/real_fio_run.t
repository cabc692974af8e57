platter fio against the real fio 3.33 (Debian's), when it is installed: the
same command lines run by both on a scratch file, and what the reports say
compared with the numbers masked (or only the figures that must agree
shown). Each section is a case where platter once said something fio does
not.

  $ command -v fio >/dev/null || exit 80
  $ command -v python3 >/dev/null || exit 80
  $ both() { rm -rf real ours; mkdir real ours
  >   (cd real && fio "$@" >out 2>err; echo $? >rc)
  >   (cd ours && platter fio "$@" >out 2>err; echo $? >rc); }
  $ mask() { sed -E 's/[0-9]+(\.[0-9]+)?[kMGT]?/#/g; s/(pid=#): .*/\1: DATE/'; }

gtod_reduce=1 turns every latency off (slat too, which platter measures
for libaio and io_uring); the submit and complete counts stay, as fio
counts its calls without the clock, and so do the bw and iops samples of
its 500 ms windows (only per-I/O ones go):

  $ both --ioengine=libaio --direct=1 --gtod_reduce=1 --name=test --filename=F --bs=4k \
  >   --iodepth=64 --size=8m --readwrite=randrw --rwmixread=75
  $ for t in real ours; do grep -E 'lat \(|submit' $t/out > $t/lines; done
  $ diff real/lines ours/lines && cat ours/lines
       submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%
  $ both --ioengine=psync --gtod_reduce=1 --name=test --filename=F --bs=4k --size=1m \
  >   --readwrite=randrw --runtime=1100ms --time_based --output-format=json
  $ for t in real ours; do python3 -c '
  > import json, sys
  > j = json.load(open(sys.argv[1]))["jobs"][0]
  > for d in ("read", "write"):
  >     print(d, [j[d][k]["N"] for k in ("slat_ns", "clat_ns", "lat_ns")], j[d]["bw_samples"] > 0, j[d]["iops_samples"] > 0)
  > print("submit 4:", j["iodepth_submit"]["4"], "complete 4:", j["iodepth_complete"]["4"])' $t/out > $t/json; done
  $ diff real/json ours/json && cat ours/json
  read [0, 0, 0] True True
  write [0, 0, 0] True True
  submit 4: 100.0 complete 4: 100.0

group_reporting: fio adds the jobs' run times (job_runtime is 2 s for two
1 s jobs) and divides their summed CPU time by it, so a group's usr and sys
are the jobs' average share, never more than 100%; the normal report, the
terse line and the JSON say the same:

  $ both --name=t --ioengine=null --rw=randread --bs=4k --size=1g --runtime=1 --time_based \
  >   --numjobs=2 --group_reporting --output-format=terse,json,normal
  $ cat > cpu.py <<'PY'
  > import json, re, sys
  > text = open(sys.argv[1]).read()
  > start, end = text.index("\n{") + 1, text.rindex("\n}") + 2
  > j = json.loads(text[start:end])["jobs"][0]
  > print("json: job_runtime / runtime =", round(j["job_runtime"] / j["read"]["runtime"]),
  >       "usr+sys <= 100:", j["usr_cpu"] + j["sys_cpu"] <= 100)
  > terse = [l for l in text.split("\n") if l.startswith("3;fio-3.33;")][0].split(";")
  > usr, sys_ = (float(f.rstrip("%")) for f in terse[87:89])
  > print("terse: usr+sys <= 100:", usr + sys_ <= 100, "same as json:",
  >       abs(usr - j["usr_cpu"]) < 1e-5 and abs(sys_ - j["sys_cpu"]) < 1e-5)
  > m = re.search(r"cpu +: usr=([\d.]+)%, sys=([\d.]+)%", text[end:])
  > print("normal: same as json:", abs(float(m.group(1)) - j["usr_cpu"]) < 0.006
  >       and abs(float(m.group(2)) - j["sys_cpu"]) < 0.006)
  > PY
  $ python3 cpu.py real/out > real/cpu; python3 cpu.py ours/out > ours/cpu
  $ diff real/cpu ours/cpu && cat ours/cpu
  json: job_runtime / runtime = 2 usr+sys <= 100: True
  terse: usr+sys <= 100: True same as json: True
  normal: same as json: True
  $ rm -rf real ours cpu.py

rw=read:SKIP (sequential with holes): in a file laid out to just the job's
size fio wraps to the start and goes on until the job's bytes are done; in
a larger file it makes one pass over the job's range and stops (8 MiB in
steps of 20 KiB: 410 I/Os, 1640 KiB), with loops a pass each:

  $ again() {  # the same job, in files the tools laid out before
  >   (cd real && fio "$@" >out 2>err; echo $? >rc)
  >   (cd ours && platter fio "$@" >out 2>err; echo $? >rc); }
  $ issued() { for t in real ours; do grep -E 'issued|io=' $t/out | sed -E 's/ bw=.*(io=[^,]*),.*/ \1/' > $t/io; done
  >   diff real/io ours/io && cat ours/io; }
  $ both --name=t --filename=F --size=8m --bs=4k --rw=read:16k
  $ issued
       issued rwts: total=2048,0,0,0 short=0,0,0,0 dropped=0,0,0,0
     READ: io=8192KiB (8389kB)
  $ both --name=t --filename=F --size=32m --bs=4k --rw=read --io_size=4k
  $ again --name=t --filename=F --size=8m --bs=4k --rw=read:16k
  $ issued
       issued rwts: total=410,0,0,0 short=0,0,0,0 dropped=0,0,0,0
     READ: io=1640KiB (1679kB)
  $ again --name=t --filename=F --size=8m --bs=4k --rw=write:16k --loops=2
  $ issued
       issued rwts: total=0,820,0,0 short=0,0,0,0 dropped=0,0,0,0
    WRITE: io=3280KiB (3359kB)
  $ again --name=t --filename=F --size=1m --offset=1m --bs=4k --rw=read:6k
  $ issued
       issued rwts: total=103,0,0,0 short=0,0,0,0 dropped=0,0,0,0
     READ: io=412KiB (422kB)

rw=rw:SKIP: fio keeps a place per direction and stops when the first is
done, after a number of I/Os its random mix decides; platter's directions
share one place, so it stops where the busier direction would be done at
its share of the mix (8 MiB in steps of 12 KiB: 683, so about 1366):

  $ again --name=t --filename=F --size=8m --bs=4k --rw=rw:8k --output-format=json
  $ for t in real ours; do python3 -c '
  > import json, sys
  > j = json.load(open(sys.argv[1]))["jobs"][0]
  > n = j["read"]["total_ios"] + j["write"]["total_ios"]
  > print(1250 < n < 1400, max(j["read"]["total_ios"], j["write"]["total_ios"]) < 720)' $t/out; done
  True True
  True True
  $ rm -rf real ours

A bare thread option (on the command line or a line of a job file) starts
threads, as thread=1 does:

  $ printf '[global]\nthread\nsize=1m\n[x]\nnumjobs=2\n' > thread.fio
  $ both --name=a --thread --size=1m --name=b --thread=0 --size=1m ../thread.fio
  $ grep -h Starting real/out ours/out
  Starting 3 threads and 1 process
  Starting 3 threads and 1 process
  $ rm -rf real ours thread.fio

O_DIRECT with a block size off the file's alignment: fio issues the I/O,
the kernel refuses it (EINVAL) and the job ends with err=22, its messages
on stderr and stdout, and exit status 1; never a message naming one of
platter's own files:

  $ for e in libaio psync; do
  >   both --name=t --size=1m --filename=f --rw=read --ioengine=$e --direct=1 --bs=1000
  >   for t in real ours; do grep -v -e '^Disk stats' -e '^  [a-z0-9]*: ios=' $t/out | mask > $t/masked; done
  >   diff real/masked ours/masked && diff real/err ours/err && diff real/rc ours/rc && echo "$e: same"
  > done
  libaio: same
  psync: same
  $ cat ours/masked ours/err ours/rc
  t: (g=#): rw=read, bs=(R) #B-#B, (W) #B-#B, (T) #B-#B, ioengine=psync, iodepth=#
  fio-#
  Starting # process
  t: Laying out IO file (# file / #iB)
  fio: first direct IO errored. File system may not support direct IO, or iomem_align= is bad, or invalid block size. Try setting direct=#.
  fio: pid=#, err=#/file:io_u.c:#, func=io_u error, error=Invalid argument
  
  t: (groupid=#, jobs=#): err=# (file:io_u.c:#, func=io_u error, error=Invalid argument): pid=#: DATE
    cpu          : usr=#%, sys=#%, ctx=#, majf=#, minf=#
    IO depths    : #=#%, #=#%, #=#%, #=#%, #=#%, #=#%, >=#=#%
       submit    : #=#%, #=#%, #=#%, #=#%, #=#%, #=#%, >=#=#%
       complete  : #=#%, #=#%, #=#%, #=#%, #=#%, #=#%, >=#=#%
       issued rwts: total=#,#,#,# short=#,#,#,# dropped=#,#,#,#
       latency   : target=#, window=#, percentile=#%, depth=#
  
  Run status group # (all jobs):
  
  fio: io_u error on file f: Invalid argument: read offset=0, buflen=1000
  1
  $ rm -rf real ours

--minimal and --output-format set the same thing: the later one wins:

  $ for o in "--minimal --output-format=json" "--output-format=json --minimal"; do
  >   both $o --name=t --ioengine=null --size=1m
  >   echo "$o: $(head -c 10 real/out | head -1) / $(head -c 10 ours/out | head -1)"
  > done
  --minimal --output-format=json: { / {
  --output-format=json --minimal: 3;fio-3.33 / 3;fio-3.33
  $ rm -rf real ours

ioengine=mmap: fio advises its mapping as its fadvise_hint does the file,
MADV_RANDOM for a random job and MADV_SEQUENTIAL for a sequential one (so a
random read faults in its page alone, without readaround); platter's mmap
engine does the same (seen with strace, when it is installed):

  $ advice() { strace -f -qq -e trace=madvise -o st "$@" >/dev/null 2>&1
  >   grep -o 'MADV_RANDOM\|MADV_SEQUENTIAL' st | sort -u | tr '\n' ' '; }
  $ command -v strace >/dev/null && for rw in randread read randwrite; do
  >   rm -rf real ours; mkdir real ours
  >   echo "$rw: $(cd real && advice fio --name=t --filename=F --size=1m --ioengine=mmap --rw=$rw)/ $(
  >     cd ours && advice platter fio --name=t --filename=F --size=1m --ioengine=mmap --rw=$rw)"
  > done || echo skipped
  randread: MADV_RANDOM / MADV_RANDOM 
  read: MADV_SEQUENTIAL / MADV_SEQUENTIAL 
  randwrite: MADV_RANDOM / MADV_RANDOM 
  $ rm -rf real ours

--readonly: a read job runs as without it; a job that would write is
refused with fio's message and status before anything is laid out (the
file is not made):

  $ both --readonly --name=t --filename=ro --size=1m --rw=randread --ioengine=null --minimal
  $ cat real/rc ours/rc; cut -d';' -f1-3 real/out ours/out
  0
  0
  3;fio-3.33;t
  3;fio-3.33;t
  $ both --name=t --filename=ro --size=1m --rw=randrw --ioengine=psync --readonly
  $ diff real/err ours/err && cat ours/err ours/rc; ls real ours | grep -c '^ro$'
  fio: trim and write operations are not allowed with the --readonly parameter.
  1
  0
  [1]

fallocate=: before a file is laid out, fio reserves its space as the option
says (native, fio's default, and posix: fallocate(2); keep: with
FALLOC_FL_KEEP_SIZE; truncate and none: no fallocate), for a job that reads
and one that writes; platter makes the same calls (seen with strace, when
it is installed):

  $ alloc() { ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=fallocate -o st "$@" >/dev/null 2>&1
  >   grep -o 'fallocate([0-9]*, [^)]*)' st | sed -E 's/\([0-9]+,/(FD,/' | sort -u | tr '\n' ' '; }
  $ command -v strace >/dev/null && for rw in read write; do for v in none native posix keep truncate 0 1; do
  >   rm -rf real ours; mkdir real ours
  >   echo "$rw $v: $(cd real && alloc fio --name=t --filename=F --size=1m --rw=$rw --fallocate=$v)/ $(
  >     cd ours && alloc platter fio --name=t --filename=F --size=1m --rw=$rw --fallocate=$v)"
  > done; done || echo skipped
  read none: / 
  read native: fallocate(FD, 0, 0, 1048576) / fallocate(FD, 0, 0, 1048576) 
  read posix: fallocate(FD, 0, 0, 1048576) / fallocate(FD, 0, 0, 1048576) 
  read keep: fallocate(FD, FALLOC_FL_KEEP_SIZE, 0, 1048576) / fallocate(FD, FALLOC_FL_KEEP_SIZE, 0, 1048576) 
  read truncate: / 
  read 0: / 
  read 1: fallocate(FD, 0, 0, 1048576) / fallocate(FD, 0, 0, 1048576) 
  write none: / 
  write native: fallocate(FD, 0, 0, 1048576) / fallocate(FD, 0, 0, 1048576) 
  write posix: fallocate(FD, 0, 0, 1048576) / fallocate(FD, 0, 0, 1048576) 
  write keep: fallocate(FD, FALLOC_FL_KEEP_SIZE, 0, 1048576) / fallocate(FD, FALLOC_FL_KEEP_SIZE, 0, 1048576) 
  write truncate: / 
  write 0: / 
  write 1: fallocate(FD, 0, 0, 1048576) / fallocate(FD, 0, 0, 1048576) 
  $ rm -rf real ours

zero_buffers: fio's write buffers hold zeros, and so does a file it lays
out for a job that reads. scramble_buffers=0: fio sends its buffer as it
was filled (at depth 1 the same block every write), as platter does. With
fio's default scramble_buffers=1 each block fio writes differs in a few
bytes (its offset and the time); platter's do not (docs/fio.md):

  $ look() { python3 -c 'import sys; d = open(sys.argv[1], "rb").read()
  > print("%s, %d distinct 4k blocks" % ("zeros" if d.count(0) == len(d) else "data", len({d[i:i + 4096] for i in range(0, len(d), 4096)})))' $1; }
  $ for args in "--rw=write --zero_buffers" "--rw=randread --zero_buffers" "--rw=write --scramble_buffers=0" "--rw=write"; do
  >   both --name=t --filename=F --size=256k --bs=4k $args
  >   echo "$args: $(look real/F) / $(look ours/F)"; done
  --rw=write --zero_buffers: zeros, 1 distinct 4k blocks / zeros, 1 distinct 4k blocks
  --rw=randread --zero_buffers: zeros, 1 distinct 4k blocks / zeros, 1 distinct 4k blocks
  --rw=write --scramble_buffers=0: data, 1 distinct 4k blocks / data, 1 distinct 4k blocks
  --rw=write: data, 64 distinct 4k blocks / data, 1 distinct 4k blocks
  $ rm -rf real ours

The same cases as people paste them: on a terminal (script, util-linux) and
with 2>&1, the lines these fixes changed, in the order both tools print
them, numbers masked:

  $ command -v script >/dev/null || exit 80
  $ both_tty() { (script -qec "fio $*" /dev/null < /dev/null | tr -d '\r' | mask > real.tty
  >   script -qec "platter fio $*" /dev/null < /dev/null | tr -d '\r' | grep -v '^platter: ' | mask > ours.tty
  >   fio "$@" 2>&1 | mask > real.two; platter fio "$@" 2>&1 | grep -v '^platter: ' | mask > ours.two) }
  $ keep() { grep -E "$1" real.$2 > real.k; grep -E "$1" ours.$2 > ours.k; diff real.k ours.k && echo "same, $(wc -l < ours.k) lines"; }
  $ both_tty --name=t --filename=F --size=1m --rw=read --ioengine=psync --direct=1 --bs=1000
  $ keep '^fio:|err=' tty; keep '^fio:|err=' two
  same, 4 lines
  same, 4 lines
  $ both_tty --ioengine=psync --gtod_reduce=1 --name=t --filename=F --bs=4k --size=1m --rw=randrw
  $ keep 'lat \(|submit|complete|Starting' tty; keep 'lat \(|submit|complete|Starting' two
  same, 3 lines
  same, 3 lines
  $ both_tty --name=t --filename=ro --size=1m --rw=randrw --ioengine=psync --readonly
  $ keep . tty; keep . two; cat ours.two
  same, 1 lines
  same, 1 lines
  fio: trim and write operations are not allowed with the --readonly parameter.
  $ rm -f F ro

