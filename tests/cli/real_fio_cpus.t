platter fio against the real fio 3.33 (Debian's), when it is installed: the
machine's CPUs and memory in job files (fio's $ncpus and $mb_memory
keywords) and CPU affinity (cpus_allowed, cpus_allowed_policy, cpumask).

  $ command -v fio >/dev/null || exit 80

$ncpus is the CPUs configured, $mb_memory the RAM in MiB, replaced where a
job file names them (fio_keywords_init); --showcmd prints what they became:

  $ printf '[a]\nnumjobs=$ncpus\nsize=$mb_memory\nioengine=null\n' > kw.fio
  $ fio --showcmd kw.fio > real.out; platter fio --showcmd kw.fio > ours.out
  $ diff real.out ours.out && sed -E 's/[0-9]+/N/g' ours.out
  fio --name=a --numjobs=N --size=N --ioengine=null 
  $ grep -c "numjobs=$(nproc --all) " ours.out
  1
  $ printf '[a]\nsize=$pagesize\n' > pg.fio
  $ platter fio --showcmd pg.fio
  fio: $pagesize is not supported by platter fio (platter fio --help lists what is)
  [1]
  $ rm -f kw.fio pg.fio real.out ours.out

cpus_allowed and cpumask: a CPU past the CPUs configured is refused as fio
refuses it, naming the CPU and the highest one:

  $ n=$(nproc --all)
  $ both() { fio "$@" > real.out 2>&1; echo "rc=$?" >> real.out
  >   platter fio "$@" 2>&1 | grep -v '^platter: ' > ours.out; echo "rc=${PIPESTATUS[0]}" >> ours.out
  >   diff real.out ours.out && echo same; }
  $ both --name=t --size=1m --ioengine=null --cpus_allowed=$((n + 7))
  same
  $ sed "s/$((n + 7))/N+7/; s/max=$((n - 1))/max=N-1/" ours.out
  fio: CPU N+7 too large (max=N-1)
  fio: failed parsing cpus_allowed=N+7
  rc=1
  $ both --name=t --size=1m --ioengine=null --cpumask=$((1 << n))
  same
  $ head -2 ours.out | sed "s/ $n / N /; s/max=$((n - 1))/max=N-1/; s/=$((1 << n))/=2^N/"
  fio: CPU N too large (max=N-1)
  fio: failed parsing cpumask=2^N

Each job copy sets its affinity as it starts: the same calls in both (strace),
with cpus_allowed_policy=split one CPU of the set each, in turn (three copies
on 0-1: 0, 1, 0), and shared the whole set for each. fio also pins a thread
to each CPU in turn to test its clock at start-up (gettime.c's
fio_monotonic_clocktest): those calls, one per CPU, are taken out of its list:

  $ command -v strace >/dev/null || exit 80
  $ calls() { grep -o 'sched_setaffinity([0-9]*, [0-9]*, \[[^]]*\]' "$1" | sed -E 's/\([0-9]+, [0-9]+, /(/; s/$/)/' | sort; }
  $ for policy in split shared; do
  >   strace -f -qq -e trace=sched_setaffinity -o real.st fio --name=t --size=1m --ioengine=null \
  >     --cpus_allowed=0-1 --cpus_allowed_policy=$policy --numjobs=3 --minimal > /dev/null
  >   strace -f -qq -e trace=sched_setaffinity -o ours.st platter fio --name=t --size=1m --ioengine=null \
  >     --cpus_allowed=0-1 --cpus_allowed_policy=$policy --numjobs=3 --minimal > /dev/null 2>&1
  >   calls real.st > real.all; calls ours.st > ours.calls
  >   python3 -c 'import sys
  > calls = open(sys.argv[1]).read().split("\n")[:-1]
  > for c in range(int(sys.argv[2])): calls.remove("sched_setaffinity([%d])" % c)
  > print("\n".join(calls))' real.all $n > real.calls
  >   diff real.calls ours.calls && echo "$policy: same" && cat ours.calls; done
  split: same
  sched_setaffinity([0])
  sched_setaffinity([0])
  sched_setaffinity([1])
  shared: same
  sched_setaffinity([0 1])
  sched_setaffinity([0 1])
  sched_setaffinity([0 1])

A set the kernel refuses (here a range whose end is below its start, which
adds no CPU) fails the job in its set-up: fio's line on stderr, the job's
report with err=22, exit status 1; on a terminal and with 2>&1 the same,
numbers masked:

  $ mask() { tr -d '\r' | sed -E 's/[0-9]+(\.[0-9]+)?[kMGT]?/#/g; s/(pid=#): .*/\1: DATE/'; }
  $ fio --name=t --size=1m --ioengine=null --cpus_allowed=1-0 2>&1 | mask > real.two
  $ platter fio --name=t --size=1m --ioengine=null --cpus_allowed=1-0 2>&1 | grep -v '^platter: ' | mask > ours.two
  $ diff real.two ours.two && grep -E 'cpu_set_affinity' ours.two
  fio: pid=#, err=#/file:backend.c:#, func=cpu_set_affinity, error=Invalid argument
  $ command -v script >/dev/null || exit 80
  $ script -qec "fio --name=t --size=1m --ioengine=null --cpus_allowed=1-0" /dev/null < /dev/null | mask > real.tty
  $ script -qec "platter fio --name=t --size=1m --ioengine=null --cpus_allowed=1-0" /dev/null < /dev/null | grep -v '^platter: ' | mask > ours.tty
  $ diff real.tty ours.tty && echo same, $(wc -l < ours.tty) lines
  same, 7 lines
  $ rm -f real.* ours.* t.*
