platter fio's posixaio engine against the real fio 3.33 (Debian's), when it
is installed: the same command lines run by both, and the lines that say
how the I/O went compared with the numbers masked.

  $ command -v fio >/dev/null || exit 80
  $ both() { rm -rf real ours; mkdir real ours
  >   (cd real && fio "$@" >out 2>err; echo $? >rc)
  >   (cd ours && platter fio "$@" >out 2>err; echo $? >rc); }
  $ mask() { sed -E 's/[0-9]+(\.[0-9]+)?[kMGT]?/#/g; s/(pid=#): .*/\1: DATE/; s/\((nsec|usec|msec)\)/(UNIT)/'; }
  $ keep() { for t in real ours; do grep -E "$1" $t/out | mask > $t/k; done
  >   diff real/k ours/k && echo "same, $(wc -l < ours/k) lines"; }

The command line posted with posixaio most often (random 4 KiB writes at
depth 1 and an fsync at the end), made small. An aio_write is a call of its
own, so fio reports a slat for it, and the depth, submit and complete rows
are all in the first bucket (the units of the latencies are masked too: fio's
clat starts when aio_write has returned, platter's when the I/O is handed
over, docs/fio.md):

  $ both --name=random-write --ioengine=posixaio --rw=randwrite --bs=4k --size=16m \
  >   --numjobs=1 --iodepth=1 --runtime=1 --time_based --end_fsync=1
  $ cat real/rc ours/rc
  0
  0
  $ keep 'ioengine=|Starting|err=|slat|clat \(| lat \([a-z]+\): min|IO depths|submit|complete|issued|latency  '
  same, 11 lines
  $ grep -E 'IO depths|submit|complete' ours/out
    IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%
       submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%
       complete  : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%

At depth 8 each queued I/O counts as a completion call of one as well as
what each wait returns (fio's td_io_queue for an engine without a commit
step), so nearly all completion calls are of 1-4 I/Os in both:

  $ both --name=paio --ioengine=posixaio --iodepth=8 --rw=randread --bs=4k --size=16m \
  >   --runtime=1 --time_based --output-format=json
  $ for t in real ours; do python3 -c '
  > import json, sys
  > j = json.load(open(sys.argv[1]))["jobs"][0]
  > print("slat", j["read"]["slat_ns"]["N"] == j["read"]["total_ios"], "ios > 0", j["read"]["total_ios"] > 0)
  > print("complete 4 >= 90%:", j["iodepth_complete"]["4"] >= 90, "depth 8 >= 90%:", j["iodepth_level"]["8"] >= 90)
  > print("submit 4:", j["iodepth_submit"]["4"])' $t/out > $t/json; done
  $ diff real/json ours/json && cat ours/json
  slat True ios > 0 True
  complete 4 >= 90%: True depth 8 >= 90%: True
  submit 4: 100.0

The same case as people paste it, on a terminal (script, util-linux) and
with 2>&1, numbers masked:

  $ command -v script >/dev/null || exit 80
  $ rm -rf real ours; mkdir real ours
  $ (cd real && script -qec "fio --name=random-write --ioengine=posixaio --rw=randwrite --bs=4k --size=16m --iodepth=1 --runtime=1 --time_based --end_fsync=1" /dev/null < /dev/null | tr -d '\r' > out)
  $ (cd ours && script -qec "platter fio --name=random-write --ioengine=posixaio --rw=randwrite --bs=4k --size=16m --iodepth=1 --runtime=1 --time_based --end_fsync=1" /dev/null < /dev/null | tr -d '\r' | grep -v '^platter: ' > out)
  $ keep 'ioengine=|Starting|err=|slat|IO depths|submit|complete'
  same, 7 lines
  $ (cd real && fio --name=random-write --ioengine=posixaio --rw=randwrite --bs=4k --size=16m --iodepth=1 --runtime=1 --time_based --end_fsync=1 > out 2>&1)
  $ (cd ours && platter fio --name=random-write --ioengine=posixaio --rw=randwrite --bs=4k --size=16m --iodepth=1 --runtime=1 --time_based --end_fsync=1 2>&1 | grep -v '^platter: ' > out)
  $ keep 'ioengine=|Starting|err=|slat|IO depths|submit|complete'
  same, 7 lines
  $ rm -rf real ours
