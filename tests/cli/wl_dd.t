platter dd on real scratch files: GNU dd's records lines exactly, the
transfer line with its numbers matched by pattern (they depend on the
machine). Everything dd prints goes to stderr; cram shows both streams.
Lines "platter: warning: ..." come from the result checks (a file read
through a warm page cache) and are filtered out here.

  $ w() { "$@" 2>&1 | perl -0pe 's/platter: warning: [^\n]*\n//g'; return ${PIPESTATUS[0]}; }
  $ platter --trust -e 'assert(platter.open("in.dat", { create = true, write = true, size = 1500000 })):close()'

The description that `platter list` shows:

  $ platter list | grep '^dd '
  dd         GNU dd: if= of= bs= count= skip= seek= iflag= oflag= conv= status=, the status lines of coreutils 5.2 to 9.x

With bs=, every read is written as it came: one full and one partial
record each way.

  $ w platter dd if=in.dat of=/dev/null bs=1M
  1+1 records in
  1+1 records out
  1500000 bytes \(1\.5 MB, 1\.4 MiB\) copied, [0-9.e+-]+ s, [0-9.]+ [kMGTP]?B/s (re)

Without bs=, input records of ibs are gathered into output blocks of obs.

  $ w platter dd if=in.dat of=/dev/null ibs=1000 obs=4k
  1500+0 records in
  366+1 records out
  1500000 bytes \(1\.5 MB, 1\.4 MiB\) copied, [0-9.e+-]+ s, [0-9.]+ [kMGTP]?B/s (re)

count= and skip= count blocks; iflag=count_bytes and skip_bytes count bytes.

  $ w platter dd if=in.dat of=/dev/null bs=4k count=10 skip=2
  10+0 records in
  10+0 records out
  40960 bytes \(41 kB, 40 KiB\) copied, [0-9.e+-]+ s, [0-9.]+ [kMGTP]?B/s (re)
  $ w platter dd if=in.dat of=/dev/null bs=4k count=10000 skip=100 iflag=count_bytes,skip_bytes
  2+1 records in
  2+1 records out
  10000 bytes \(10 kB, 9\.8 KiB\) copied, [0-9.e+-]+ s, [0-9.]+ [kMGTP]?B/s (re)

Skipping past the end of a file is reported, and nothing is copied.

  $ w platter dd if=in.dat of=/dev/null bs=4k skip=1000
  dd: in.dat: cannot skip to specified offset
  0+0 records in
  0+0 records out
  0 bytes copied, [0-9.e+-]+ s, [0-9.]+ [kMGTP]?B/s (re)

Sizes take dd's suffixes and products; /dev/zero is allowed because the
command line names it.

  $ w platter dd if=/dev/zero of=/dev/null bs=2x512 count=1Kx2
  2048+0 records in
  2048+0 records out
  2097152 bytes \(2\.1 MB, 2\.0 MiB\) copied, [0-9.e+-]+ s, [0-9.]+ [kMGTP]?B/s (re)

status=noxfer stops after the records lines, status=none prints nothing,
and --elapsed adds the seconds the way `time -f%e` did in seed 002.

  $ w platter dd if=in.dat of=/dev/null bs=32k status=noxfer
  45+1 records in
  45+1 records out
  $ w platter dd if=in.dat of=/dev/null bs=32k status=none
  $ w platter dd if=in.dat of=/dev/null bs=32k count=4 status=noxfer --elapsed
  4+0 records in
  4+0 records out
  [0-9]+\.[0-9][0-9] (re)

--as picks the coreutils release whose dd is reproduced (src/dd.c of each
tag): 6.1 to 8.24 print the SI figure only (--coreutils 8.20 is the older
name of that), 5.3.0 to 6.0 spell the seconds out, and before 5.3.0 dd
printed the records lines alone.

  $ w platter dd if=in.dat of=/dev/null bs=1M --coreutils 8.20
  1+1 records in
  1+1 records out
  1500000 bytes \(1\.5 MB\) copied, [0-9.e+-]+ s, [0-9.]+ [kMGTP]?B/s (re)
  $ w platter dd if=in.dat of=/dev/null bs=1M --as 6.1
  1+1 records in
  1+1 records out
  1500000 bytes \(1\.5 MB\) copied, [0-9.e+-]+ s, [0-9.]+ [kMGTP]?B/s (re)
  $ w platter dd if=in.dat of=/dev/null bs=1M --as 5.3
  1+1 records in
  1+1 records out
  1500000 bytes \(1\.5 MB\) copied, [0-9.e+-]+ seconds, [0-9.]+ [kMGTP]?B/s (re)
  $ w platter dd if=in.dat of=/dev/null bs=1M --as 5.2
  1+1 records in
  1+1 records out

A status= level that release did not have is refused as it refused it
(noxfer came in 5.3.0, none in 8.20, progress in 8.24; before 5.3.0 there
was no status= operand):

  $ w platter dd if=in.dat of=/dev/null --as 8.24 status=progress | tail -1
  1500000 bytes \(1\.5 MB\) copied, [0-9.e+-]+ s, [0-9.]+ [kMGTP]?B/s (re)
  $ w platter dd if=in.dat of=/dev/null --as 6.1 status=progress
  platter: dd: invalid status flag: 'progress'
  Try 'platter dd --help'.
  [2]
  $ w platter dd if=in.dat of=/dev/null --as 6.1 status=none
  platter: dd: invalid status flag: 'none'
  Try 'platter dd --help'.
  [2]
  $ w platter dd if=in.dat of=/dev/null --as 5.2 status=noxfer
  platter: dd: unrecognized operand 'status=noxfer'
  Try 'platter dd --help'.
  [2]

The decimal point is the LC_NUMERIC locale's, as GNU dd prints it (LC_ALL,
then LC_NUMERIC, then LANG; cram sets LC_ALL=C, emptied here). A German locale, built here with localedef
(from Debian's locales package, which tools/dev.sh installs) and found
through LOCPATH:

  $ mkdir loc && localedef -i de_DE -f UTF-8 "$PWD/loc/de_DE.UTF-8" > /dev/null 2>&1; ls loc
  de_DE.UTF-8
  $ w env LOCPATH=$PWD/loc LC_ALL= LC_NUMERIC=de_DE.UTF-8 platter dd if=in.dat of=/dev/null bs=1M
  1+1 records in
  1+1 records out
  1500000 bytes \(1,5 MB, 1,4 MiB\) copied, [0-9]+(,[0-9]+)?(e-[0-9]+)? s, [0-9]+(,[0-9])? [kMGTP]?B/s (re)
  $ w env LOCPATH=$PWD/loc LC_ALL=C LC_NUMERIC=de_DE.UTF-8 platter dd if=in.dat of=/dev/null bs=1M | tail -1
  1500000 bytes \(1\.5 MB, 1\.4 MiB\) copied, [0-9.e+-]+ s, [0-9.]+ [kMGTP]?B/s (re)
  $ rm -r loc

Writing a file: conv=fdatasync is part of the timed copy.

  $ w platter dd if=/dev/zero of=out.dat bs=64k count=4 conv=fdatasync
  4+0 records in
  4+0 records out
  262144 bytes \(262 kB, 256 KiB\) copied, [0-9.e+-]+ s, [0-9.]+ [kMGTP]?B/s (re)
  $ stat -c %s out.dat
  262144

of= is truncated at the seek= offset unless conv=notrunc.

  $ w platter dd if=/dev/zero of=out.dat bs=64k count=1 conv=notrunc status=none
  $ stat -c %s out.dat
  262144
  $ w platter dd if=/dev/zero of=out.dat bs=64k count=1 seek=1 status=none
  $ stat -c %s out.dat
  131072
  $ w platter dd if=/dev/zero of=out.dat bs=64k count=1 status=none
  $ stat -c %s out.dat
  65536

With bs= each record goes out as it came in, so the data is copied: of= ends
up equal to if=.

  $ w platter dd if=in.dat of=copy.dat bs=1M status=noxfer
  1+1 records in
  1+1 records out
  $ cmp in.dat copy.dat && echo same
  same

Without bs= the records are re-blocked into obs-sized blocks, and the data is
still copied, whichever of ibs and obs is larger.

  $ w platter dd if=in.dat of=copy2.dat ibs=64k obs=128k status=noxfer
  22+1 records in
  11+1 records out
  $ cmp in.dat copy2.dat && echo same
  same
  $ w platter dd if=in.dat of=copy3.dat ibs=100000 obs=4096 status=noxfer
  15+0 records in
  366+1 records out
  $ cmp in.dat copy3.dat && echo same
  same

conv=sync pads a short record with zero bytes, as dd does, with bs= and without.

  $ w platter dd if=in.dat of=pad.dat bs=1M conv=sync status=noxfer
  1+1 records in
  2+0 records out
  $ stat -c %s pad.dat
  2097152
  $ cmp -n 1500000 in.dat pad.dat && tail -c 597152 pad.dat | tr -d '\000' | wc -c
  0
  $ w platter dd if=in.dat of=pad2.dat ibs=1M obs=512k conv=sync status=noxfer
  1+1 records in
  4+0 records out
  $ cmp -n 1500000 in.dat pad2.dat && tail -c 597152 pad2.dat | tr -d '\000' | wc -c
  0

oflag=direct: the final short block is written without O_DIRECT, as dd does.

  $ w platter --quiet dd if=in.dat of=direct.dat bs=64k oflag=direct status=noxfer
  22+1 records in
  22+1 records out
  $ stat -c %s direct.dat
  1500000

I/O errors print dd's message, the statistics, and exit 1: O_DIRECT with a
block size the device cannot take, and fsync on /dev/null.

  $ w platter dd if=in.dat of=/dev/null bs=1000 count=2 iflag=direct
  dd: error reading 'in.dat': Invalid argument
  0+0 records in
  0+0 records out
  0 bytes copied, [0-9.e+-]+ s, [0-9.]+ [kMGTP]?B/s (re)
  [1]
  $ w platter dd if=in.dat of=/dev/null bs=1M conv=fsync
  dd: fsync failed for '/dev/null': Invalid argument
  1+1 records in
  1+1 records out
  1500000 bytes \(1\.5 MB, 1\.4 MiB\) copied, [0-9.e+-]+ s, [0-9.]+ [kMGTP]?B/s (re)
  [1]
  $ w platter dd if=nope.dat of=/dev/null
  dd: failed to open 'nope.dat': No such file or directory
  [1]

Ctrl-C prints the statistics so far, as dd does, then platter reports the
interruption (status 130).

  $ ready() { for i in $(seq 200); do grep -q copied err 2>/dev/null && return; sleep 0.05; done; }
  $ platter dd if=/dev/zero of=/dev/null bs=512 count=100M status=progress 2> err & pid=$!; ready; kill -INT $pid; wait $pid
  [130]
  $ tail -5 err
  [0-9]+\+0 records in (re)
  [0-9]+\+0 records out (re)
  [0-9]+ bytes \([0-9.]+ [kMG]B, [0-9.]+ [KMG]iB\) copied, [0-9.e+-]+ s, [0-9.]+ [kMGTP]?B/s (re)
  platter: interrupted
  platter: interrupted phase 'dd' after * s: * ops, * MB (* IOPS, * MB/s), latency * (glob)
  $ rm err

On the simulated disk every time comes from the virtual clock, so two runs
print the same bytes.

  $ sim() { platter --quiet --sim ata-5400-1999 dd if=/dev/sda of=sim.dat bs=64k count=16 conv=fdatasync 2>&1; }
  $ sim > sim1; sim > sim2; cmp sim1 sim2 && head -2 sim1
  16+0 records in
  16+0 records out
  $ rm sim1 sim2

Bad operands are usage errors (status 2). if= and of= are required.

  $ platter dd of=/dev/null
  platter: dd: if= is required: platter dd reads named files and devices, not standard input
  Try 'platter dd --help'.
  [2]
  $ platter dd if=in.dat
  platter: dd: of= is required: platter dd cannot write to standard output (of=/dev/null discards)
  Try 'platter dd --help'.
  [2]
  $ platter dd if=in.dat of=/dev/null bs=0
  platter: dd: invalid number: '0'
  Try 'platter dd --help'.
  [2]
  $ platter dd if=in.dat of=/dev/null bs=1.5M
  platter: dd: invalid number: '1.5M'
  Try 'platter dd --help'.
  [2]
  $ platter dd if=in.dat of=/dev/null iflag=bogus
  platter: dd: invalid input flag: 'bogus'
  Try 'platter dd --help'.
  [2]
  $ platter dd if=in.dat of=/dev/null conv=lcase
  platter: dd: conv=lcase is not supported by platter dd
  Try 'platter dd --help'.
  [2]
  $ platter dd if=in.dat of=/dev/null status=loud
  platter: dd: invalid status level: 'loud'
  Try 'platter dd --help'.
  [2]
  $ platter dd if=in.dat of=/dev/null cbs=80
  platter: dd: unknown operand 'cbs'
  Try 'platter dd --help'.
  [2]

  $ platter dd --help | head -3
  usage: platter dd if=FILE of=FILE [OPERAND]...
  Copy if= to of= the way GNU dd does and print its status lines (records in/out, bytes copied, time, rate).
  
