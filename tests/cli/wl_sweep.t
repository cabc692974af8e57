A tiny real sweep on a 1 MiB scratch file: block sizes 512 to 4k, 10 ms a
cell, all three tests in both modes. It says on stderr which scratch file
it makes, prints the three tables of the 1988 post, and removes the file.
Numbers vary from run to run, so rows are matched by shape. (Cram shows
tab-separated lines escaped, as "\t" with "(esc)".) The cooked cells on so
small a file are answered by the page cache, so a cache warning comes on
stderr too, after whichever cell first shows it (tests/cli/res_cache.t
checks it); here stderr is looked at on its own.

  $ platter sweep -s 1m --max 4k -d 0.01 2>err
  Random
  bsize\treq/sec\tbw\treq/sec\tbw (esc)
  \tcooked\tcooked\traw\traw (esc)
  512\\t[0-9.e+]+\\t[0-9]+\\t[0-9.e+]+\\t[0-9]+ \(esc\) (re)
  1024\\t[0-9.e+]+\\t[0-9]+\\t[0-9.e+]+\\t[0-9]+ \(esc\) (re)
  2048\\t[0-9.e+]+\\t[0-9]+\\t[0-9.e+]+\\t[0-9]+ \(esc\) (re)
  4096\\t[0-9.e+]+\\t[0-9]+\\t[0-9.e+]+\\t[0-9]+ \(esc\) (re)
  
  Reread
  bsize\treq/sec\tbw\treq/sec\tbw (esc)
  \tcooked\tcooked\traw\traw (esc)
  512\\t[0-9.e+]+\\t[0-9]+\\t[0-9.e+]+\\t[0-9]+ \(esc\) (re)
  1024\\t[0-9.e+]+\\t[0-9]+\\t[0-9.e+]+\\t[0-9]+ \(esc\) (re)
  2048\\t[0-9.e+]+\\t[0-9]+\\t[0-9.e+]+\\t[0-9]+ \(esc\) (re)
  4096\\t[0-9.e+]+\\t[0-9]+\\t[0-9.e+]+\\t[0-9]+ \(esc\) (re)
  
  Linear
  bsize\treq/sec\tbw\treq/sec\tbw (esc)
  \tcooked\tcooked\traw\traw (esc)
  512\\t[0-9.e+]+\\t[0-9]+\\t[0-9.e+]+\\t[0-9]+ \(esc\) (re)
  1024\\t[0-9.e+]+\\t[0-9]+\\t[0-9.e+]+\\t[0-9]+ \(esc\) (re)
  2048\\t[0-9.e+]+\\t[0-9]+\\t[0-9.e+]+\\t[0-9]+ \(esc\) (re)
  4096\\t[0-9.e+]+\\t[0-9]+\\t[0-9.e+]+\\t[0-9]+ \(esc\) (re)
  $ grep -v "^platter: warning: phase '.* cooked' used platter-sweep" err
  sweep: making scratch file platter-sweep.[0-9]+.dat \(1 MiB\) (re)
  $ rm err

The scratch file is gone afterwards.

  $ ls

One test in one mode prints one table with two columns; --quiet drops the
note about the scratch file.

  $ platter --quiet sweep -s 1m --max 4k -d 0.01 -m cooked -t random 2>/dev/null
  Random
  bsize\treq/sec\tbw (esc)
  \tcooked\tcooked (esc)
  512\\t[0-9.e+]+\\t[0-9]+ \(esc\) (re)
  1024\\t[0-9.e+]+\\t[0-9]+ \(esc\) (re)
  2048\\t[0-9.e+]+\\t[0-9]+ \(esc\) (re)
  4096\\t[0-9.e+]+\\t[0-9]+ \(esc\) (re)
  $ ls

With a TARGET the sweep reads that file and leaves it in place. Block
sizes larger than the target print "-".

  $ platter --trust -e 'assert(platter.open("target.dat", { create = true, write = true, size = "8k" })):close()'
  $ platter sweep -d 0.01 --min 4k --max 16k -t reread -m raw target.dat
  Reread
  bsize\treq/sec\tbw (esc)
  \traw\traw (esc)
  4096\\t[0-9.e+]+\\t[0-9]+ \(esc\) (re)
  8192\\t[0-9.e+]+\\t[0-9]+ \(esc\) (re)
  16384\t-\t- (esc)
  $ ls
  target.dat

Bad lists are usage errors.

  $ platter sweep -t random,zigzag
  platter: sweep: unknown test 'zigzag'
  Try 'platter sweep --help'.
  [2]

The block size doubles from --min up to --max, so --min must be at least
1 byte (from 0 it would never grow: platter used to loop there forever,
its memory growing) and --max at least --min. timeout stops a regression.

  $ timeout 10 platter sweep --min 0 -s 1m -d 0.01
  platter: sweep: --min must be at least 1 byte
  Try 'platter sweep --help'.
  [2]
  $ timeout 10 platter sweep --min 0.5 -s 1m -d 0.01
  platter: sweep: --min must be at least 1 byte
  Try 'platter sweep --help'.
  [2]
  $ platter sweep --min 8k --max 4k -s 1m -d 0.01
  platter: sweep: --max must be at least --min
  Try 'platter sweep --help'.
  [2]
  $ ls
  target.dat
