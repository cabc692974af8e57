platter fio --lua writes a job file as a platter script: the jobs' fio
options and each job copy's p.run table, run by platter.fio_run. Run, it
prints what platter fio prints for the job file. On the simulated disk the
two repeat exactly, so every job file of the corpus is checked byte for byte
(those the simulated disk cannot run, io_uring and the like, fail the same
way in both).

  $ export TZ=UTC FIO_TEST_BS=8k
  $ cp "$TESTDIR_SRC"/fio/jobs/* .
  $ n=0; for f in *.fio; do
  >   j=${f%.fio}
  >   platter --env FIO_TEST_BS fio --lua $f > $j.lua || echo "no script for $j"
  >   platter --env FIO_TEST_BS --sim ata-5400-1999 fio $f > $j.a 2>&1; a=$?
  >   platter --env FIO_TEST_BS --sim ata-5400-1999 $j.lua > $j.b 2>&1; b=$?
  >   if [ $a = $b ] && cmp -s $j.a $j.b; then n=$((n + 1)); else echo "differs: $j"; diff $j.a $j.b | head -5; fi
  > done; echo "$n the same"; ls *.fio | wc -l
  65 the same
  65

What a script looks like: fio's options as the report shows them, then the
p.run table of each copy, which is the part to edit.

  $ sed -n '/^fio.script/,$p' 09-numjobs-group.lua
  fio.script {
    output_format = { "normal" },
    global = { { "rw", "randread" }, { "bs", "4k" }, { "size", "8m" }, { "runtime", "1100ms" }, { "time_based" }, { "group_reporting" } },
    jobs = {
      {
        name = "twins",
        options = { { "numjobs", "2" } },
        run = {
          {
            name = "twins", op = "read", pattern = "shuffle", bs = 4096, engine = "psync", qd = 1,
            range = { 0, 8388608 }, seconds = 1.1000000000000001, invalidate_every = 8388608,
            progress = false, sample_ms = 500, seed = 137
          },
          {
            name = "twins", op = "read", pattern = "shuffle", bs = 4096, engine = "psync", qd = 1,
            range = { 0, 8388608 }, seconds = 1.1000000000000001, invalidate_every = 8388608,
            progress = false, sample_ms = 500, seed = 138
          },
        },
      },
    },
  }

An edited table runs as edited: 64 KiB reads instead of 4 KiB, and the
report says so (fio's options still show what the job file said).

  $ sed 's/bs = 4096/bs = 65536/' 01-read.lua > edited.lua
  $ platter --sim ata-5400-1999 fio 01-read.fio | grep -E 'issued'
       issued rwts: total=2048,0,0,0 short=0,0,0,0 dropped=0,0,0,0
  $ platter --sim ata-5400-1999 edited.lua | grep -E '^  read:|issued'
    read: IOPS=.*\(8192KiB/.* (re)
       issued rwts: total=128,0,0,0 short=0,0,0,0 dropped=0,0,0,0

On the real machine the script and the job file give the same report, with
the numbers masked.

  $ mask() { grep -v 'Laying out' | sed -E 's/[0-9]+(\.[0-9]+)?[kMG]?/N/g; s/ +/ /g; s/([=[]) /\1/g; s/\((nsec|usec|msec)\)/(T)/g' | grep -Ev '^ lat \(T\) *:|^ (bw|iops) '; }
  $ platter fio 03-randread-time.fio | mask > a.txt; platter 03-randread-time.lua | mask > b.txt
  $ diff a.txt b.txt && echo same
  same

fio's io_uring options in the table: hipri is p.run's iopoll and
sqthread_poll its sqpoll; fixedbufs and registerfiles add nothing, as
p.run's io_uring engine registers the files and buffers anyway. With
another engine they are not fio's options at all:

  $ platter fio --lua --name=u --ioengine=io_uring --iodepth=8 --direct=1 --size=1m --hipri \
  >   --sqthread_poll --fixedbufs --registerfiles | grep -o -E '(engine|iopoll|sqpoll|fixed[a-z]*|regist[a-z]*) = [^,]*'
  engine = "io_uring"
  iopoll = true
  sqpoll = true
  $ platter fio --lua --name=u --ioengine=io_uring --fixedbufs --registerfiles=1 --size=1m | grep -c -E 'iopoll|sqpoll'
  0
  [1]
  $ platter fio --lua --name=u --ioengine=libaio --hipri --size=1m
  fio: unrecognized option '--hipri'
  Did you mean prio?
  [1]
