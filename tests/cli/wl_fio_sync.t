fio's fsync=N and fdatasync=N: after every N writes, an fsync(2) or an
fdatasync(2) (p.run's fsync_every, with fdatasync = true for the second),
counted by strace: 64 writes of 4 KiB, a sync after every 16, plus the one
fsync platter fio gives a file it has just laid out.

  $ command -v strace >/dev/null || exit 80
LeakSanitizer cannot run under ptrace, so an ASan build runs this without it.

  $ run() { ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=fsync,fdatasync -o trace.txt platter fio --name=s --rw=write --bs=4k --size=256k "$1" > /dev/null; echo "fsync $(grep -c 'fsync(' trace.txt) fdatasync $(grep -c 'fdatasync(' trace.txt)"; }
  $ run --fdatasync=16
  fsync 1 fdatasync 4
  $ rm s.0.0; run --fsync=16
  fsync 5 fdatasync 0
  $ rm -f trace.txt s.0.0
