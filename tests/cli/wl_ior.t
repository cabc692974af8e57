platter ior is IOR 3.3.0's POSIX API: each rank writes its blocks of a
shared file (or of its own with -F), then reads them back, timed as IOR
times them (open, data, close, relative to the barrier that starts each
access). Outside mpirun it is one rank. On the simulated disk the figures
repeat exactly; the dates and the host name are masked.

  $ platter --sim nvme ior -w -r -b 1m -t 256k -s 2 2>/dev/null
  IOR-3.3.0: MPI Coordinated Test of Parallel I/O
  Began               : [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]{2} [0-9:]{8} [0-9]{4} (re)
  Command line        : ior -w -r -b 1m -t 256k -s 2
  Machine             : Linux sim
  TestID              : 0
  StartTime           : [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]{2} [0-9:]{8} [0-9]{4} (re)
  
  Options: 
  api                 : POSIX
  apiVersion          : 
  test filename       : testFile
  access              : single-shared-file
  type                : independent
  segments            : 2
  ordering in a file  : sequential
  ordering inter file : no tasks offsets
  nodes               : 1
  tasks               : 1
  clients per node    : 1
  repetitions         : 1
  xfersize            : 262144 bytes
  blocksize           : 1 MiB
  aggregate filesize  : 2 MiB
  
  Results: 
  
  access    bw(MiB/s)  IOPS       Latency(s)  block(KiB) xfer(KiB)  open(s)    wr/rd(s)   close(s)   total(s)   iter
  ------    ---------  ----       ----------  ---------- ---------  --------   --------   --------   --------   ----
  write     9220       37018      0.000054    1024.00    256.00     0.000001   0.000216   0.000000   0.000217   0   
  read      9220       37018      0.000054    1024.00    256.00     0.000001   0.000216   0.000000   0.000217   0   
  remove    -          -          -           -          -          -          -          -          0.000002   0   
  Max Write: 9220.33 MiB/sec (9668.22 MB/sec)
  Max Read:  9220.33 MiB/sec (9668.22 MB/sec)
  
  Summary of all tests:
  Operation   Max(MiB)   Min(MiB)  Mean(MiB)     StdDev   Max(OPs)   Min(OPs)  Mean(OPs)     StdDev    Mean(s) Stonewall(s) Stonewall(MiB) Test# #Tasks tPN reps fPP reord reordoff reordrand seed segcnt   blksiz    xsize aggs(MiB)   API RefNum
  write        9220.33    9220.33    9220.33       0.00   36881.32   36881.32   36881.32       0.00    0.00022         NA            NA     0      1   1    1   0     0        1         0    0      2  1048576   262144       2.0 POSIX      0
  read         9220.33    9220.33    9220.33       0.00   36881.32   36881.32   36881.32       0.00    0.00022         NA            NA     0      1   1    1   0     0        1         0    0      2  1048576   262144       2.0 POSIX      0
  Finished            : [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]{2} [0-9:]{8} [0-9]{4} (re)

On a real filesystem the header shows where the test file is and how full
its filesystem is (statfs), as IOR does. -F gives each rank its own file,
NAME.%08d, -u puts it in a directory named after the rank, and -k keeps it.

  $ platter ior -w -r -F -u -k -b 64k -t 16k -i 2 2>/dev/null | grep -E '^(Path|FS|access  |write|read|remove)'
  Path                : /.* (re)
  FS                  : [0-9.]+ [GT]iB   Used FS: [0-9.]+%   Inodes: [0-9.]+ Mi   Used Inodes: [0-9.]+% (re)
  access              : file-per-process
  access    bw(MiB/s)  IOPS       Latency(s)  block(KiB) xfer(KiB)  open(s)    wr/rd(s)   close(s)   total(s)   iter
  write     [0-9.]+ +[0-9.]+ +[0-9.]+ +64.00      16.00      [0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +0    (re)
  read      [0-9.]+ +[0-9.]+ +[0-9.]+ +64.00      16.00      [0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +0    (re)
  write     [0-9.]+ +[0-9.]+ +[0-9.]+ +64.00      16.00      [0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +1    (re)
  read      [0-9.]+ +[0-9.]+ +[0-9.]+ +64.00      16.00      [0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +1    (re)
  write +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +NA +NA +0 +1 +1 +2 +1 +0 +1 +0 +0 +1 +65536 +16384 +0.1 POSIX +0 (re)
  read +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +NA +NA +0 +1 +1 +2 +1 +0 +1 +0 +0 +1 +65536 +16384 +0.1 POSIX +0 (re)
  $ ls -R
  .:
  0
  
  ./0:
  testFile.00000000
  $ stat -c %s 0/testFile.00000000
  65536

Without -k the files go after each repetition. -r alone reads a file that
must be there: its absence is an error naming it, exit 1.

  $ platter ior -w -r -F -u -b 64k -t 16k >/dev/null 2>&1; find 0 -type f
  $ rm -r 0
  $ platter ior -r -b 64k -t 16k 2>&1 >/dev/null
  platter: ior: rank 0: open testFile: No such file or directory
  [1]

-W reads back what was just written and checks every block (each carries
its offset and a checksum); -R checks while reading.

  $ platter ior -w -W -r -R -b 256k -t 64k 2>/dev/null | grep -E '^(write|read|WARNING)'
  write     .* (re)
  read      .* (re)
  write  .* (re)
  read   .* (re)
  $ platter ior -w -W -r -R -b 256k -t 64k 2>&1 >/dev/null | grep -v 'the cache may be answering'
  [1]

-D stops an access after N seconds; with -O stoneWallingWearOut=1 the ranks
then finish as many transfers as the rank that did most, and IOR's
stonewalling line says so. The slow 1988 disk writes 5 of the 128
transfers in the second: the aggregate moved is less than expected, as
IOR's warnings say, and the wear-out figures fill the summary's two
Stonewall columns.

  $ platter --sim hitachi-85mb-1988 ior -w -b 8m -t 64k -D 1 -O stoneWallingWearOut=1 2>/dev/null | sed -n '/^stonewallingTime/,/^stoneWallingWearOut/p;/^------/,$p'
  stonewallingTime    : 1
  stoneWallingWearOut : 1
  ------    ---------  ----       ----------  ---------- ---------  --------   --------   --------   --------   ----
  stonewalling pairs accessed min: 5 max: 5 -- min data: 0.0 GiB mean data: 0.0 GiB time: 1.2s
  WARNING: Expected aggregate file size       = 8388608.
  WARNING: Stat() of aggregate file size      = 327680.
  WARNING: Using actual aggregate bytes moved = 327680.
  WARNING: maybe caused by deadlineForStonewalling
  write     0.253118   4.05       0.009643    8192       64.00      0.000260   1.23       0.000000   1.23       0   
  remove    -          -          -           -          -          -          -          -          0.000520   0   
  Max Write: 0.25 MiB/sec (0.27 MB/sec)
  Pairs deadlineForStonewallingaccessed: 5
  
  Summary of all tests:
  Operation   Max(MiB)   Min(MiB)  Mean(MiB)     StdDev   Max(OPs)   Min(OPs)  Mean(OPs)     StdDev    Mean(s) Stonewall(s) Stonewall(MiB) Test# #Tasks tPN reps fPP reord reordoff reordrand seed segcnt   blksiz    xsize aggs(MiB)   API RefNum
  write           0.25       0.25       0.25       0.00       4.05       4.05       4.05       0.00    1.23460       1.23          0.25     0      1   1    1   0     0        1         0    0      1  8388608    65536       0.3 POSIX      0
  Finished            : [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]{2} [0-9:]{8} [0-9]{4} (re)

-O summaryFormat=JSON prints the same under IOR's keys, as valid JSON
(IOR 3.3.0's own is not: its Path line starts with a comma).

  $ platter --sim nvme ior -w -r -b 1m -t 256k -i 2 -O summaryFormat=JSON 2>/dev/null > ior.json
  $ python3 -c '
  > import json; d = json.load(open("ior.json")); t = d["tests"][0]
  > print(d["Version"], list(d), list(t))
  > print([[a["access"] for a in rep] for rep in t["Results"]])
  > print(t["Results"][0][0]["bwMiB"], t["max"], t["Options"]["aggregate filesize"])
  > print([(s["operation"], s["bwMaxMIB"], s["numTasks"]) for s in d["summary"]])'
  3.3.0 ['Version', 'Began', 'Command line', 'Machine', 'tests', 'summary', 'Finished'] ['TestID', 'StartTime', 'Parameters', 'Options', 'Results', 'max']
  [['write', 'read', 'remove'], ['write', 'read', 'remove']]
  9186.4482 {'writeMiB': 9186.4482, 'writeMB': 9632.6891, 'readMiB': 9186.4482, 'readMB': 9632.6891} 1 MiB
  [('write', 9186.4482, 1), ('read', 9186.4482, 1)]

Bad parameters are usage errors in IOR's words; what platter does not have
(other APIs, unknown directives) is named, never ignored.

  $ platter --sim nvme ior -b 1m -t 3k
  platter: ior: block size must be a multiple of transfer size
  Try 'platter ior --help'.
  [2]
  $ platter --sim nvme ior -b 64k -t 128k
  platter: ior: block size must be a multiple of transfer size
  Try 'platter ior --help'.
  [2]
  $ platter --sim nvme ior -a MPIIO
  platter: ior: -a MPIIO: platter has only the POSIX API
  Try 'platter ior --help'.
  [2]
  $ platter --sim nvme ior -O bogus=1
  platter: ior: -O bogus=1: unrecognized directive bogus
  Try 'platter ior --help'.
  [2]
  $ platter --sim nvme ior -C -Z
  platter: ior: Both Constant and Random task re-ordering specified. Choose one and resubmit
  Try 'platter ior --help'.
  [2]
  $ platter --sim nvme ior -W
  platter: ior: -W and -R check the data, which the simulated disk does not keep (--sim)
  Try 'platter ior --help'.
  [2]
  $ platter --sim nvme ior -N 2
  platter: ior: -N 2: more tasks than the 1 ranks mpirun started
  Try 'platter ior --help'.
  [2]
  $ ls
  ior.json
