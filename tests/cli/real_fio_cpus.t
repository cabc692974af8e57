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
