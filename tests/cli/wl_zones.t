zones reads --bytes sequentially at --points evenly spaced offsets across
its target, with O_DIRECT, and prints one tab-separated row per point for
a plot: the zone number, the byte offset and MiB/s, then a comment line
comparing the last point with the first. Offsets are i * (size - bytes) /
(points - 1), rounded down to 1 MiB: on an 8 MiB scratch file with 1 MiB
reads and 4 points, 0, 2, 4 and 7 MiB, the last read ending at the end.

  $ platter --quiet zones -s 8m -b 1m -n 4 --bs 256k
  zone\toffset\tMiB/s (esc)
  0\\t0\\t[0-9]+\.[0-9]{2} \(esc\) (re)
  1\\t2097152\\t[0-9]+\.[0-9]{2} \(esc\) (re)
  2\\t4194304\\t[0-9]+\.[0-9]{2} \(esc\) (re)
  3\\t7340032\\t[0-9]+\.[0-9]{2} \(esc\) (re)
  # first [0-9]+\.[0-9]{2}, last [0-9]+\.[0-9]{2}, last/first [0-9]+\.[0-9]{2} (re)

Without --quiet it says on stderr what it reads; the scratch file is gone
afterwards.

  $ platter zones -s 4m -b 1m -n 2 2>&1 >/dev/null
  zones: making scratch file platter-zones.[0-9]+.dat \(4 MiB\) (re)
  zones: platter-zones.[0-9]+.dat, 2 points of 1 MiB in 1 MiB requests, O_DIRECT (re)
  $ ls

--cached reads through the page cache, dropped before each point. A
TARGET is only read and stays; --bytes shrinks to fit a small one. One
point reads the start.

  $ platter --trust -e 'assert(platter.open("disk.img", { create = true, write = true, size = "3m" })):close()'
  $ platter --quiet zones --cached -n 1 disk.img
  zone\toffset\tMiB/s (esc)
  0\\t0\\t[0-9]+\.[0-9]{2} \(esc\) (re)
  $ ls
  disk.img

Bad values are usage errors; a target smaller than one request is an error.

  $ platter zones -n 0 disk.img
  platter: zones: --points must be at least 1
  Try 'platter zones --help'.
  [2]
  $ platter zones --bs 4m disk.img
  platter: zones: disk.img is smaller than one 4194304-byte request
  [1]
