Bonnie (1996) on a real 8 MiB scratch file in the current directory. The
progress lines on stderr are the original's; the table on stdout has the
original's three header lines and its row layout (an empty label prints as
8 spaces). Numbers vary from run to run, so the row is matched by shape.
stdout is written at the end, after the progress lines. The file is far under
twice RAM and was just written, so the cache warning says that the rewrite
found it in the page cache (docs/results.md).

  $ platter bonnie -s 8
  File '\./Bonnie\.[0-9]+', size: 8388608 (re)
  Writing with putc()...done
  Rewriting...done
  platter: warning: phase 'ReWrite' used \./Bonnie\.[0-9]+ \(8 MiB\) through the page cache with .* and 100% of it was in the page cache at the start: .* (re)
  Writing intelligently...done
  Reading with getc()...done
  Reading intelligently...done
  Seeker 1...Seeker 2...Seeker 3...start 'em...done...done...done...
                -------Sequential Output-------- ---Sequential Input-- --Random--
                -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---
  Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU
              8( +[0-9]+ +[0-9]+\.[0-9]){5} +[0-9]+\.[0-9] +[0-9]+\.[0-9] (re)

The file Bonnie.<pid> is gone afterwards.

  $ ls

-html prints one table row and nothing else on stdout; -m sets the label,
-d the directory (named as given: "sub/Bonnie.<pid>"), and --seek-delay
pauses before "start 'em..." as the original's 5 s sleep did.

  $ mkdir sub
  $ platter bonnie -s 2 -html -m box -d sub --seek-delay 0.1s 2>/dev/null
  <TR><TD>box</TD><TD>2</TD>(<TD>[0-9]+</TD><TD> ?[0-9]+\.[0-9]</TD>){5}<TD> *[0-9]+\.[0-9]</TD><TD> ?[0-9]+\.[0-9]</TD></TR> (re)
  $ platter bonnie -s 1 -html -d sub 2>err >/dev/null; head -1 err; rm err
  File 'sub/Bonnie\.[0-9]+', size: 1048576 (re)
  $ ls sub

The label is cut to 8 characters in the text table.

  $ platter bonnie -s 1 -m averylonglabel 2>/dev/null | tail -1
  averylon    1( +[0-9]+ +[0-9]+\.[0-9]){5} +[0-9]+\.[0-9] +[0-9]+\.[0-9] (re)

--chunk 8192 runs the 8192-byte variant (the c.1990 copy, the FreeBSD port):
the same table.

  $ platter bonnie -s 1 --chunk 8192 2>/dev/null | tail -1
              1( +[0-9]+ +[0-9]+\.[0-9]){5} +[0-9]+\.[0-9] +[0-9]+\.[0-9] (re)

The help, and bad flags (platter usage errors, exit status 2; the original
printed its usage line and exited with 1).

  $ platter bonnie --help
  usage: platter bonnie [-d scratch-dir] [-s size-in-Mb] [-html] [-m machine-label]
  Tim Bray's Bonnie (1996 release): sequential per-character and block I/O, rewrite, and random seeks by 3 processes, on one file of -s MiB.
  
  options:
    -d DIR             directory for the scratch file Bonnie.<pid> (default .)
    -s MB              file size in MiB (rounded down to a whole number of chunks) (default 100)
    -m LABEL           machine label for the table's first column (default: none)
    -html              print one HTML table row instead of the text table
    --seek-delay TIME  pause before the seekers start (the original slept 5s) (default 0)
    --chunk BYTES      block size: 16384 in the 1996 release, 8192 in the c.1990 copy and the FreeBSD port (default 16384)
  
  The file should be at least twice the RAM, or the page cache answers.
  Progress lines go to stderr, the result table to stdout.
  $ platter bonnie -s 0
  platter: bonnie: the size (-s) must be at least 1 MiB
  Try 'platter bonnie --help'.
  [2]
  $ platter bonnie -s ten
  platter: bonnie: bad value 'ten' for -s: not an integer
  Try 'platter bonnie --help'.
  [2]
  $ platter bonnie --chunk 1000
  platter: bonnie: the chunk (--chunk) must be a power of 2 from 512 to 1m
  Try 'platter bonnie --help'.
  [2]
  $ platter bonnie -x
  platter: bonnie: unknown option '-x'
  Try 'platter bonnie --help'.
  [2]
  $ ls
  sub
