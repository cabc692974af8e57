platter hdparm on a 16 MiB scratch file instead of a disk, with the pauses
and minimum times cut short (--settle, --pause, --cached-time, --disk-time)
so the test is quick. Labels are exact; the numbers are matched by pattern,
widths included (%3u MB in %5.2f seconds = %6.2f MB/sec). "platter:
warning:" lines of the result checks are filtered out (-T measures the page
cache on purpose).

  $ w() { "$@" 2>&1 | perl -0pe 's/platter: warning: [^\n]*\n//g'; return ${PIPESTATUS[0]}; }
  $ MB='(  [0-9]| [0-9]{2}|[0-9]{3,}) MB in ( [0-9]|[0-9]{2,})\.[0-9]{2} seconds = (  [0-9]| [0-9]{2}|[0-9]{3,})\.[0-9]{2} [kM]B/sec'
  $ QUICK='--settle 0 --pause 0 --cached-time 0.2s --disk-time 0.2s'
  $ platter --trust -e 'assert(platter.open("disk.img", { create = true, write = true, size = "16m" })):close()'

  $ platter list | grep '^hdparm '
  hdparm     hdparm -t/-T: buffered disk reads and cached reads in 2 MiB blocks, the lines of hdparm 5.5 to 9.65 and 1996

-T before -t, each under the device line, as hdparm 9.x prints them.

  $ w platter hdparm -tT $QUICK disk.img > out; cat out
  
  disk.img:
   Timing cached reads:   .* (re)
   Timing buffered disk reads: .* (re)
  $ grep -cE "^ Timing cached reads:   $MB\$" out
  1
  $ grep -cE "^ Timing buffered disk reads: $MB\$" out
  1

-t stops at the end of the device: 16 MiB is at most 16 MB.

  $ grep -E 'disk reads: +([0-9]+) MB' -o out
  disk reads:  16 MB
  $ w platter hdparm -t --disk-time 60s --settle 0 disk.img | grep -o 'reads:  16 MB'
  reads:  16 MB

O_DIRECT and --offset change the labels.

  $ w platter hdparm -T --direct $QUICK disk.img | grep -cE "^ Timing O_DIRECT cached reads:   $MB\$"
  1
  $ w platter hdparm -t --direct --offset 0 $QUICK disk.img | grep -cE "^ Timing O_DIRECT disk reads \(offset 0 GB\): $MB\$"
  1

Several devices; -q drops the device lines.

  $ w platter hdparm -q -t $QUICK disk.img disk.img | grep -cE "^ Timing buffered disk reads: $MB\$"
  2
  $ w platter hdparm -q -t $QUICK disk.img | grep -c disk.img
  0
  [1]

hdparm 6.9-9.28 had two spaces after the -t label.

  $ w platter hdparm -t --style 6 $QUICK disk.img | grep -cE "^ Timing buffered disk reads:  $MB\$"
  1

--buffer-cache is the fixed-size 1999 test seed 002 shows: -T re-reads
1 MiB 2 x --timing-mb times, -t reads --timing-mb MB, and the format is
"%2d MB in %5.2f seconds =%5.2f MB/sec".

  $ OLD='( [0-9]|[0-9]{2,}) MB in ( [0-9]|[0-9]{2,})\.[0-9]{2} seconds =( [0-9]|[0-9]{2,})\.[0-9]{2} MB/sec'
  $ w platter hdparm -T --buffer-cache --timing-mb 4 --settle 0 --pause 0 disk.img > old; cat old
  
  disk.img:
   Timing buffer-cache reads:    8 MB in .* (re)
  $ grep -cE "^ Timing buffer-cache reads:   $OLD\$" old
  1
  $ w platter hdparm -t --buffer-cache --timing-mb 4 --settle 0 disk.img | grep -E "^ Timing buffered disk reads:  $OLD\$" | grep -o 'reads:   4 MB'
  reads:   4 MB

On the simulated disk the pauses and minimum times pass on the virtual
clock, so the defaults are used and two runs print the same bytes.

  $ sim() { platter --sim ata-5400-1999 hdparm -tT "$@" /dev/sda 2>&1; }
  $ sim > sim1; sim > sim2; cmp sim1 sim2 && grep -cE " $MB\$" sim1
  2
  $ sim --buffer-cache > sim1; sim --buffer-cache > sim2; cmp sim1 sim2 && grep -c ' MB/sec$' sim1
  2
  $ rm sim1 sim2

A device smaller than one 2 MiB read: hdparm's message, and exit status EIO.
The message goes to stderr, which here is the same file as stdout: it waits
for the partial stdout line, which never ends, so it starts a line of its own
at exit instead of being written into that line (src/core/out.h).

  $ platter --trust -e 'assert(platter.open("small.img", { create = true, write = true, size = "1m" })):close()'
  $ w platter hdparm -t $QUICK small.img
  
  small.img:
   Timing buffered disk reads: 
  read(2097152) returned 1048576 bytes
  [5]
  $ w platter hdparm -t $QUICK nope.img
  nope.img: No such file or directory
  [2]

Usage errors.

  $ platter hdparm disk.img
  platter: hdparm: nothing to do: give -t, -T or both
  Try 'platter hdparm --help'.
  [2]
  $ platter hdparm -t --style 6 --offset 1 disk.img
  platter: hdparm: --offset needs --as 9.29 (it came with hdparm 9.29)
  Try 'platter hdparm --help'.
  [2]
  $ platter hdparm -t
  platter: hdparm: missing DEVICE
  Try 'platter hdparm --help'.
  [2]
