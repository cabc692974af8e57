platter bonnie++ --as 2.00a against the real bonnie++ 2.00a (Debian 12's
package), when it is installed: the same lines in the same order on stdout
and on stderr, every number masked (rates with their k/m/g, latencies with
their unit, +++++ and +++ too, since a short test on one side may be timed
on the other) and runs of spaces squeezed (a %3d of 99 and of 100 differ by
one). The text and CSV layouts, the progress lines, the seeker count and
bonnie++'s "Using uid:U, gid:G." line are what is compared. platter's own
lines (the cache warning) are left out.

  $ command -v bonnie++ >/dev/null || exit 80
  $ bonnie++ 2>&1 | grep -q '^Version: 2.00a$' || exit 80
  $ mask() { sed -E 's/[0-9]+(\.[0-9]+)?(k|m|g|us|ms|s|M|G)?/N/g; s/\+\+\+\+\+|\+\+\+/N/g; s/ +/ /g'; }
  $ me=$(id -un)
  $ same() {
  >   bonnie++ -u "$me" -m box "$@" > real.out 2> real.err
  >   platter bonnie++ --as 2.00a -u "$me" -m box "$@" > ours.out 2> ours.err
  >   grep -v '^platter: ' ours.err > ours.err2
  >   diff <(mask < real.out) <(mask < ours.out) && diff <(mask < real.err) <(mask < ours.err2) && echo same
  > }

The whole run: per-byte and block I/O, rewrite, the 5 seekers and the file
tests.

  $ same -s 16 -r 8 -n 1
  same
  $ mask < ours.out
  Version Na ------Sequential Output------ --Sequential Input- --Random-
   -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
  Name:Size etc /sec %CP /sec %CP /sec %CP /sec %CP /sec %CP /sec %CP
  box N N N N N N N N N N N N N
  Latency N N N N N N
  Version Na ------Sequential Create------ --------Random Create--------
  box -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--
   files /sec %CP /sec %CP /sec %CP /sec %CP /sec %CP /sec %CP
   N N N N N N N N N N N N N
  Latency N N N N N N
  N,Na,box,N,N,N,,N,N,N,N,N,N,N,N,N,N,N,N,N,N,N,,,,,N,N,N,N,N,N,N,N,N,N,N,N,N,N,N,N,N,N,N,N,N,N,N,N
  $ cat ours.err2
  Using uid:\d+, gid:\d+\. (re)
  Writing a byte at a time...done
  Writing intelligently...done
  Rewriting...done
  Reading a byte at a time...done
  Reading intelligently...done
  start 'em...done...done...done...done...done...
  Create files in sequential order...done.
  Stat files in sequential order...done.
  Delete files in sequential order...done.
  Create files in random order...done.
  Stat files in random order...done.
  Delete files in random order...done.

A chunk, concurrency, seek count and seekers of their own (the size cell
keeps them, but loses a one-digit seeker count, as 2.00a's does), no
per-byte tests and no file tests.

  $ same -s 16:16k:1000:3 -r 8 -c 2 -f -n 0
  same
  $ grep -v '^Latency' ours.out | sed -n 4p
  box  16M:16k:2:1000 .* (re)

-x 2 -q: the CSV header (1.97's, without the seeks fields 2.00a adds to its
lines) and two lines, nothing on stderr.

  $ same -s 16:8k:2000:12 -r 8 -f -n 0 -x 2 -q
  same
  $ head -c 60 ours.out; echo
  format_version,bonnie_version,name,concurrency,seed,file_siz
  $ cat ours.err2
  $ ls
  ours.err
  ours.err2
  ours.out
  real.err
  real.out
  $ rm -f real.* ours.*
